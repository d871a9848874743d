/* iv-chart.c: the chart model, its data ranges, the layout (margins measured from the
 * real text extents, so labels are never clipped), axes, legend and annotations, and the
 * pointer queries. Series drawing is in iv-chart-draw.c. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-private.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-units.h"

#define RANGE_MARGIN 0.04

/* -------- model -------- */

IvChart *
iv_chart_new (void)
{
  IvChart *c = g_new0 (IvChart, 1);

  c->layer = IV_CHART_LAYER_ALL;
  c->series = g_ptr_array_new ();
  c->annotations = g_array_new (FALSE, TRUE, sizeof (IvAnnotation));
  for (guint a = 0; a < IV_N_AXES; a++)
    {
      c->axis[a].spec.kind = IV_SCALE_LINEAR;
      c->axis[a].spec.unit = IV_UNIT_PLAIN;
      c->axis[a].grid = a == IV_AXIS_Y;
    }
  return c;
}

static void
series_free (IvSeries *s)
{
  g_free (s->name);
  g_free (s->short_name);
  g_free (s->x);
  g_free (s->y);
  g_free (s->lo);
  g_free (s->hi);
  g_free (s->base);
  g_strfreev (s->labels);
  g_free (s->label_at);
  g_free (s->label_leader);
  g_free (s);
}

void
iv_chart_free (IvChart *chart)
{
  if (!chart)
    return;
  for (guint i = 0; i < chart->series->len; i++)
    series_free (chart->series->pdata[i]);
  g_ptr_array_unref (chart->series);
  for (guint i = 0; i < chart->annotations->len; i++)
    g_free (g_array_index (chart->annotations, IvAnnotation, i).text);
  g_array_unref (chart->annotations);
  for (guint a = 0; a < IV_N_AXES; a++)
    {
      g_free (chart->axis[a].short_title);
      g_free (chart->axis[a].title);
      g_strfreev (chart->axis[a].categories);
      g_free (chart->axis[a].category_at);
    }
  g_strfreev (chart->categories);
  g_free (chart->title);
  g_free (chart->subtitle);
  g_free (chart->legend_title);
  g_free (chart->short_title);
  g_free (chart);
}

void
iv_chart_set_layer (IvChart *chart, gint layer)
{
  chart->layer = layer;
}

void
iv_chart_set_title (IvChart *chart, const char *title, const char *subtitle)
{
  g_free (chart->title);
  g_free (chart->subtitle);
  chart->title = g_strdup (title);
  chart->subtitle = g_strdup (subtitle);
}

void
iv_chart_set_legend (IvChart *chart, IvLegendPlacement placement)
{
  chart->legend = placement;
}

void
iv_chart_set_short_title (IvChart *chart, const char *title)
{
  g_free (chart->short_title);
  chart->short_title = g_strdup (title);
}

void
iv_chart_set_legend_title (IvChart *chart, const char *title)
{
  g_free (chart->legend_title);
  chart->legend_title = g_strdup (title);
}

void
iv_chart_set_bar_mode (IvChart *chart, IvBarMode mode, gboolean horizontal)
{
  chart->bar_mode = mode;
  chart->bars_horizontal = horizontal;
}

void
iv_chart_set_categories (IvChart *chart, const char *const *names, guint n)
{
  g_strfreev (chart->categories);
  chart->categories = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    chart->categories[i] = g_strdup (names[i]);
  chart->n_categories = n;
}

void
iv_chart_axis_set_title (IvChart *chart, IvAxisId axis, const char *title)
{
  g_free (chart->axis[axis].title);
  chart->axis[axis].title = g_strdup (title);
}

void
iv_chart_axis_set_short_title (IvChart *chart, IvAxisId axis, const char *title)
{
  g_free (chart->axis[axis].short_title);
  chart->axis[axis].short_title = g_strdup (title);
}

const char *
iv_chart_axis_get_title (const IvChart *chart, IvAxisId axis)
{
  return chart->axis[axis].title;
}

const char *
iv_chart_get_title (const IvChart *chart)
{
  return chart->title;
}

void
iv_chart_axis_set_scale (IvChart *chart, IvAxisId axis, IvScaleKind kind)
{
  chart->axis[axis].spec.kind = kind;
}

IvScaleKind
iv_chart_axis_get_scale (IvChart *chart, IvAxisId axis)
{
  return chart->axis[axis].spec.kind;
}

void
iv_chart_axis_set_unit (IvChart *chart, IvAxisId axis, IvUnit unit)
{
  chart->axis[axis].spec.unit = unit;
}

const IvUnit *
iv_chart_axis_get_unit (const IvChart *chart, IvAxisId axis)
{
  return &chart->axis[axis].spec.unit;
}

void
iv_chart_axis_set_time (IvChart *chart, IvAxisId axis, double origin, gboolean clock)
{
  chart->axis[axis].spec.kind = IV_SCALE_TIME;
  chart->axis[axis].spec.origin = origin;
  chart->axis[axis].spec.clock = clock;
  if (chart->axis[axis].spec.unit.kind != IV_UNIT_SECONDS)
    chart->axis[axis].spec.unit = (IvUnit){ IV_UNIT_SECONDS, 1e-9, NULL };
}

void
iv_chart_axis_set_range (IvChart *chart, IvAxisId axis, double lo, double hi)
{
  chart->axis[axis].fixed = TRUE;
  chart->axis[axis].lo = lo;
  chart->axis[axis].hi = hi;
}

void
iv_chart_axis_clear_range (IvChart *chart, IvAxisId axis)
{
  chart->axis[axis].fixed = FALSE;
}

void
iv_chart_axis_set_grid (IvChart *chart, IvAxisId axis, gboolean grid)
{
  chart->axis[axis].grid = grid;
}

void
iv_chart_axis_hide_labels (IvChart *chart, IvAxisId axis, gboolean hide)
{
  chart->axis[axis].hide_labels = hide;
}

void
iv_chart_axis_set_categories (IvChart *chart, IvAxisId axis, const char *const *names, guint n)
{
  IvAxis *a = &chart->axis[axis];

  g_strfreev (a->categories);
  a->categories = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    a->categories[i] = g_strdup (names[i] ? names[i] : "");
  a->n_categories = n;
  g_clear_pointer (&a->category_at, g_free);
}

void
iv_chart_axis_set_category_positions (IvChart *chart, IvAxisId axis, const double *at)
{
  IvAxis *a = &chart->axis[axis];

  g_free (a->category_at);
  a->category_at = g_memdup2 (at, MAX (a->n_categories, 1) * sizeof (double));
}

static gboolean
is_sorted (const double *x, gsize n)
{
  for (gsize i = 1; i < n; i++)
    if (!(x[i] >= x[i - 1]))
      return FALSE;
  return TRUE;
}

static IvSeries *
add_series (IvChart *chart, IvSeriesKind kind, const char *name)
{
  IvSeries *s = g_new0 (IvSeries, 1);

  s->kind = kind;
  s->name = g_strdup (name ? name : "");
  s->alpha = 1.0;
  s->size = 5.0;
  s->line_width = 1.75;
  s->visible = TRUE;
  s->in_legend = name && name[0];
  g_ptr_array_add (chart->series, s);
  return s;
}

static double *
copy (const double *v, gsize n)
{
  return v ? g_memdup2 (v, MAX (n, 1) * sizeof (double)) : NULL;
}

/* Extents are computed once when the data arrive, not on every frame. */
static void
compute_extents (IvSeries *s)
{
  const double *v[2] = { s->x, s->y };

  for (int a = 0; a < 2; a++)
    {
      s->ext_lo[a] = s->pos_lo[a] = INFINITY;
      s->ext_hi[a] = -INFINITY;
      for (gsize i = 0; i < s->n && v[a]; i++)
        {
          double d = v[a][i];
          if (!isfinite (d))
            continue;
          if (d < s->ext_lo[a])
            s->ext_lo[a] = d;
          if (d > s->ext_hi[a])
            s->ext_hi[a] = d;
          if (d > 0 && d < s->pos_lo[a])
            s->pos_lo[a] = d;
        }
    }
}

static IvSeries *
add_xy (IvChart *chart, IvSeriesKind kind, const char *name, const double *x, const double *y,
        gsize n)
{
  IvSeries *s = add_series (chart, kind, name);

  s->x = copy (x, n);
  s->y = copy (y, n);
  s->n = n;
  s->sorted_x = is_sorted (s->x, n);
  compute_extents (s);
  return s;
}

IvSeries *
iv_chart_add_scatter (IvChart *chart, const char *name, const double *x, const double *y, gsize n)
{
  IvSeries *s = add_xy (chart, IV_SERIES_SCATTER, name, x, y, n);
  s->alpha = 0.85;
  return s;
}

IvSeries *
iv_chart_add_line (IvChart *chart, const char *name, const double *x, const double *y, gsize n)
{
  return add_xy (chart, IV_SERIES_LINE, name, x, y, n);
}

IvSeries *
iv_chart_add_step (IvChart *chart, const char *name, const double *x, const double *y, gsize n)
{
  return add_xy (chart, IV_SERIES_STEP, name, x, y, n);
}

IvSeries *
iv_chart_add_area (IvChart *chart, const char *name, const double *x, const double *y, gsize n,
                   gboolean stacked)
{
  IvSeries *s = add_xy (chart, IV_SERIES_AREA, name, x, y, n);
  s->stacked = stacked;
  s->alpha = 0.35;
  return s;
}

IvSeries *
iv_chart_add_bars (IvChart *chart, const char *name, const double *values, gsize n_categories)
{
  IvSeries *s = add_series (chart, IV_SERIES_BARS, name);

  s->n = n_categories;
  s->x = g_new (double, MAX (n_categories, 1));
  for (gsize i = 0; i < n_categories; i++)
    s->x[i] = (double) i;
  s->y = copy (values, n_categories);
  s->sorted_x = TRUE;
  return s;
}

IvSeries *
iv_chart_add_histogram (IvChart *chart, const char *name, const double *values, gsize n, guint bins)
{
  IvSeries *s = add_series (chart, IV_SERIES_HISTOGRAM, name);
  gsize m;
  g_autofree double *sorted = iv_stats_sorted_copy (values, n, &m);
  double lo = m ? sorted[0] : 0, hi = m ? sorted[m - 1] : 1;

  if (bins == 0)
    bins = iv_stats_fd_bins (sorted, m);
  if (hi <= lo)
    hi = lo + 1;
  s->n = bins;
  s->x = g_new (double, bins + 1);
  s->y = g_new (double, bins);
  for (guint i = 0; i <= bins; i++)
    s->x[i] = lo + (hi - lo) * i / bins;
  iv_stats_histogram (sorted, m, lo, hi, bins, s->y);
  s->sorted_x = TRUE;
  s->alpha = 0.75;
  return s;
}

IvSeries *
iv_chart_add_cdf (IvChart *chart, const char *name, const double *values, gsize n)
{
  IvSeries *s = add_series (chart, IV_SERIES_CDF, name);
  gsize m;

  s->x = iv_stats_sorted_copy (values, n, &m);
  s->y = g_new (double, MAX (m, 1));
  for (gsize i = 0; i < m; i++)
    s->y[i] = (double) (i + 1) / m;
  s->n = m;
  s->sorted_x = TRUE;
  compute_extents (s);
  return s;
}

IvSeries *
iv_chart_add_box (IvChart *chart, const char *name, double position, const double *values, gsize n)
{
  IvSeries *s = add_series (chart, IV_SERIES_BOX, name);
  gsize m;
  g_autofree double *sorted = iv_stats_sorted_copy (values, n, &m);

  iv_stats_box (sorted, m, &s->box);
  s->position = position;
  /* Points beyond the whiskers are kept to be drawn as outliers. */
  s->x = g_new (double, MAX (m, 1));
  s->y = g_new (double, MAX (m, 1));
  for (gsize i = 0; i < m; i++)
    if (sorted[i] < s->box.whisker_lo || sorted[i] > s->box.whisker_hi)
      {
        s->x[s->n] = position;
        s->y[s->n] = sorted[i];
        s->n++;
      }
  s->alpha = 0.35;
  return s;
}

IvSeries *
iv_chart_add_error_bars (IvChart *chart, const char *name, const double *x, const double *y,
                         const double *lo, const double *hi, gsize n)
{
  IvSeries *s = add_xy (chart, IV_SERIES_ERROR_BARS, name, x, y, n);
  s->lo = copy (lo, n);
  s->hi = copy (hi, n);
  s->line_width = 1.25;
  return s;
}

IvSeries *
iv_chart_add_spans (IvChart *chart, const char *name, const double *x0, const double *x1,
                    const double *y, gsize n)
{
  g_autofree double *mid = g_new (double, MAX (n, 1));
  IvSeries *s;

  /* The middles are the points hover finds; the bars' ends are the x extent. */
  for (gsize k = 0; k < n; k++)
    mid[k] = (x0[k] + x1[k]) / 2;
  s = add_xy (chart, IV_SERIES_SPANS, name, mid, y, n);
  s->lo = copy (x0, n);
  s->hi = copy (x1, n);
  s->alpha = 0.9;
  return s;
}

IvSeries *
iv_chart_add_band (IvChart *chart, const char *name, const double *x, const double *lo,
                   const double *hi, gsize n)
{
  IvSeries *s = add_series (chart, IV_SERIES_BAND, name);

  s->x = copy (x, n);
  s->lo = copy (lo, n);
  s->hi = copy (hi, n);
  s->n = n;
  s->sorted_x = is_sorted (s->x, n);
  s->alpha = 0.22;
  return s;
}

IvSeries *
iv_chart_add_heatmap (IvChart *chart, const char *name, const double *values, guint nx, guint ny,
                      double x0, double x1, double y0, double y1)
{
  IvSeries *s = add_series (chart, IV_SERIES_HEATMAP, name);

  s->nx = nx;
  s->ny = ny;
  s->y = copy (values, (gsize) nx * ny);
  s->n = (gsize) nx * ny;
  s->x0 = x0, s->x1 = x1, s->y0 = y0, s->y1 = y1;
  s->value_unit = IV_UNIT_PLAIN;
  s->vmin = INFINITY;
  s->vmax = -INFINITY;
  for (gsize i = 0; i < s->n; i++)
    if (isfinite (s->y[i]))
      {
        s->vmin = MIN (s->vmin, s->y[i]);
        s->vmax = MAX (s->vmax, s->y[i]);
      }
  s->in_legend = FALSE;
  return s;
}

static void
add_annotation (IvChart *chart, IvAnnotationKind kind, double x, double y, const char *text)
{
  IvAnnotation a = { kind, x, y, g_strdup (text) };
  g_array_append_val (chart->annotations, a);
}

void
iv_chart_add_hline (IvChart *chart, double y, const char *label)
{
  add_annotation (chart, IV_ANNOTATION_HLINE, NAN, y, label);
}

void
iv_chart_add_vline (IvChart *chart, double x, const char *label)
{
  add_annotation (chart, IV_ANNOTATION_VLINE, x, NAN, label);
}

void
iv_chart_add_text (IvChart *chart, double x, double y, const char *text)
{
  add_annotation (chart, IV_ANNOTATION_TEXT, x, y, text);
}

void
iv_series_set_color (IvSeries *s, guint32 rgb)
{
  s->rgb = rgb;
  s->has_color = TRUE;
}
void
iv_series_set_alpha (IvSeries *s, double alpha)
{
  s->alpha = CLAMP (alpha, 0.0, 1.0);
}
void
iv_series_set_line_width (IvSeries *s, double width)
{
  s->line_width = width;
}
void
iv_series_set_dashed (IvSeries *s, gboolean dashed)
{
  s->dashed = dashed;
}
void
iv_series_set_y2 (IvSeries *s, gboolean y2)
{
  s->y2 = y2;
}
void
iv_series_set_visible (IvSeries *s, gboolean visible)
{
  s->visible = visible;
}
gboolean
iv_series_get_visible (const IvSeries *s)
{
  return s->visible;
}
const char *
iv_series_get_name (const IvSeries *s)
{
  return s->name;
}
gsize
iv_series_get_length (const IvSeries *s)
{
  return s->n;
}
IvSeriesKind
iv_series_get_kind (const IvSeries *s)
{
  return s->kind;
}
void
iv_series_set_show_in_legend (IvSeries *s, gboolean show)
{
  s->in_legend = show;
}

void
iv_series_set_short_name (IvSeries *s, const char *short_name)
{
  g_free (s->short_name);
  s->short_name = g_strdup (short_name);
}

void
iv_series_set_marker (IvSeries *s, IvMarker marker, double size)
{
  s->marker = marker;
  s->size = size;
}

void
iv_series_set_labels (IvSeries *s, const char *const *labels)
{
  g_strfreev (s->labels);
  s->labels = g_new0 (char *, s->n + 1);
  for (gsize i = 0; i < s->n; i++)
    s->labels[i] = g_strdup (labels[i] ? labels[i] : "");
}

void
iv_series_set_value_unit (IvSeries *s, IvUnit unit)
{
  g_return_if_fail (s->kind == IV_SERIES_HEATMAP);
  s->value_unit = unit;
}

void
iv_series_set_value_range (IvSeries *s, double lo, double hi)
{
  g_return_if_fail (s->kind == IV_SERIES_HEATMAP);
  if (isfinite (lo) && isfinite (hi) && hi >= lo)
    s->vmin = lo, s->vmax = hi;
}

guint
iv_chart_get_n_series (const IvChart *chart)
{
  return chart->series->len;
}

IvSeries *
iv_chart_get_series (IvChart *chart, guint index)
{
  g_return_val_if_fail (index < chart->series->len, NULL);
  return chart->series->pdata[index];
}

const IvChartLayout *
iv_chart_get_layout (const IvChart *chart)
{
  return &chart->layout;
}

/* -------- bars -------- */

guint
_iv_chart_bar_index (const IvChart *chart, const IvSeries *series, guint *n_bar_series)
{
  guint index = 0, n = 0;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (s->kind != IV_SERIES_BARS || !s->visible)
        continue;
      if (s == series)
        index = n;
      n++;
    }
  *n_bar_series = n;
  return index;
}

/* Offset from the category centre and width of one bar, in category units. */
void
_iv_chart_bar_geometry (const IvChart *chart, guint bar_index, guint n_bar_series, double *offset,
                        double *width)
{
  const double group = 0.8;

  if (chart->bar_mode != IV_BARS_GROUPED || n_bar_series <= 1)
    {
      *offset = -group / 2;
      *width = group;
      return;
    }
  *width = group / n_bar_series;
  *offset = -group / 2 + bar_index * *width;
}

/* Bar @k of @s as drawn, in pixels of the chart's layout: drawing and hit tests share it. */
void
_iv_chart_bar_rect (const IvChart *chart, const IvSeries *s, gsize k, double *x0, double *y0,
                    double *x1, double *y1)
{
  const IvChartLayout *L = &chart->layout;
  gboolean h = chart->bars_horizontal;
  gsize n_cat = (gsize) (L->hi[h ? IV_AXIS_Y : IV_AXIS_X] + 0.5);
  guint n_bars, index = _iv_chart_bar_index (chart, s, &n_bars);
  double offset, width, bottom, top, c0, c1, a, b, c, d;

  _iv_chart_bar_geometry (chart, index, n_bars, &offset, &width);
  top = _iv_chart_bar_top (chart, s, k, &bottom);
  c0 = _iv_chart_category_position (chart, k, n_cat) + offset, c1 = c0 + width;
  if (h)
    a = _iv_px_x (L, bottom), b = _iv_px_x (L, top), c = _iv_px_y (L, IV_AXIS_Y, c0),
    d = _iv_px_y (L, IV_AXIS_Y, c1);
  else
    a = _iv_px_x (L, c0), b = _iv_px_x (L, c1), c = _iv_px_y (L, IV_AXIS_Y, bottom),
    d = _iv_px_y (L, IV_AXIS_Y, top);
  *x0 = MIN (a, b), *x1 = MAX (a, b), *y0 = MIN (c, d), *y1 = MAX (c, d);
}

/* Baselines of stacked bars and areas, in drawing order. */
static void
compute_stacks (IvChart *chart)
{
  g_autofree double *bar_totals = NULL;
  IvSeries *prev_area[2] = { NULL, NULL };
  gsize n_cat = chart->n_categories;

  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      g_clear_pointer (&s->base, g_free);
      if (s->kind == IV_SERIES_BARS)
        n_cat = MAX (n_cat, s->n);
    }
  if (chart->bar_mode != IV_BARS_GROUPED && n_cat > 0)
    {
      g_autofree double *running = g_new0 (double, n_cat);
      bar_totals = g_new0 (double, n_cat);
      for (guint i = 0; i < chart->series->len; i++)
        {
          IvSeries *s = chart->series->pdata[i];
          if (s->kind == IV_SERIES_BARS && s->visible)
            for (gsize k = 0; k < s->n; k++)
              bar_totals[k] += isfinite (s->y[k]) ? fabs (s->y[k]) : 0;
        }
      for (guint i = 0; i < chart->series->len; i++)
        {
          IvSeries *s = chart->series->pdata[i];
          if (s->kind != IV_SERIES_BARS || !s->visible)
            continue;
          s->base = g_new0 (double, MAX (s->n, 1));
          for (gsize k = 0; k < s->n; k++)
            {
              double scale = chart->bar_mode == IV_BARS_PERCENT && bar_totals[k] > 0
                                 ? 100.0 / bar_totals[k]
                                 : 1.0;
              s->base[k] = running[k] * scale;
              running[k] += isfinite (s->y[k]) ? fabs (s->y[k]) : 0;
            }
        }
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      IvSeries *under;
      if (s->kind != IV_SERIES_AREA || !s->stacked || !s->visible)
        continue;
      s->base = g_new0 (double, MAX (s->n, 1));
      under = prev_area[s->y2];
      if (under && under->n == s->n)
        for (gsize k = 0; k < s->n; k++)
          s->base[k] = under->base[k] + (isfinite (under->y[k]) ? under->y[k] : 0);
      prev_area[s->y2] = s;
    }
}

/* The value a stacked bar's top reaches, as drawn: ranges, drawing and hit tests all ask
 * here, so they cannot disagree. */
double
_iv_chart_bar_top (const IvChart *chart, const IvSeries *s, gsize k, double *bottom)
{
  double v = isfinite (s->y[k]) ? s->y[k] : 0;
  double base = s->base ? s->base[k] : 0;

  if (chart->bar_mode == IV_BARS_PERCENT && s->base)
    {
      double total = 0;
      for (guint i = 0; i < chart->series->len; i++)
        {
          const IvSeries *o = chart->series->pdata[i];
          if (o->kind == IV_SERIES_BARS && o->visible && k < o->n && isfinite (o->y[k]))
            total += fabs (o->y[k]);
        }
      v = total > 0 ? fabs (v) * 100.0 / total : 0;
    }
  *bottom = base;
  return base + v;
}

/* -------- ranges -------- */

typedef struct
{
  double lo, hi;
  gboolean zero_floor; /* bars, histograms, areas grow from zero: no margin below */
  gboolean tight;      /* a heatmap fills its axes exactly */
  gboolean loose;      /* something else wants the usual margin */
} Extent;

static void
extend (Extent *e, IvScaleKind kind, double v)
{
  if (!isfinite (v))
    return;
  if ((kind == IV_SCALE_LOG10 || kind == IV_SCALE_LOG2) && v <= 0)
    return;
  e->lo = MIN (e->lo, v);
  e->hi = MAX (e->hi, v);
}

static gboolean
is_log (IvScaleKind kind)
{
  return kind == IV_SCALE_LOG10 || kind == IV_SCALE_LOG2;
}

/* Widens @e (per axis) to hold what series @s draws. */
static void
extend_by_series (const IvChart *chart, const IvSeries *s, Extent *e)
{
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
  IvAxisId val_axis = chart->bars_horizontal ? IV_AXIS_X : IV_AXIS_Y;
  IvScaleKind xk = chart->axis[IV_AXIS_X].spec.kind, yk = chart->axis[ya].spec.kind;

  switch (s->kind)
    {
    case IV_SERIES_BARS:
      for (gsize k = 0; k < s->n; k++)
        {
          double bottom, top = _iv_chart_bar_top (chart, s, k, &bottom);
          extend (&e[val_axis], chart->axis[val_axis].spec.kind, top);
          extend (&e[val_axis], chart->axis[val_axis].spec.kind, bottom);
        }
      extend (&e[val_axis], chart->axis[val_axis].spec.kind, 0);
      e[val_axis].zero_floor = TRUE;
      break;
    case IV_SERIES_HISTOGRAM:
      extend (&e[IV_AXIS_X], xk, s->x[0]);
      extend (&e[IV_AXIS_X], xk, s->x[s->n]);
      for (gsize k = 0; k < s->n; k++)
        extend (&e[ya], yk, s->y[k]);
      extend (&e[ya], yk, 0);
      e[ya].zero_floor = TRUE;
      break;
    case IV_SERIES_BOX:
      extend (&e[IV_AXIS_X], xk, s->position - 0.5);
      extend (&e[IV_AXIS_X], xk, s->position + 0.5);
      extend (&e[ya], yk, s->box.whisker_lo);
      extend (&e[ya], yk, s->box.whisker_hi);
      for (gsize k = 0; k < s->n; k++)
        extend (&e[ya], yk, s->y[k]);
      break;
    case IV_SERIES_SPANS:
      for (gsize k = 0; k < s->n; k++)
        {
          extend (&e[IV_AXIS_X], xk, s->lo[k]);
          extend (&e[IV_AXIS_X], xk, s->hi[k]);
          extend (&e[ya], yk, s->y[k] - 0.5);
          extend (&e[ya], yk, s->y[k] + 0.5);
        }
      e[ya].tight = TRUE;
      break;
    case IV_SERIES_BAND:
    case IV_SERIES_ERROR_BARS:
      for (gsize k = 0; k < s->n; k++)
        {
          extend (&e[IV_AXIS_X], xk, s->x[k]);
          extend (&e[ya], yk, s->lo[k]);
          extend (&e[ya], yk, s->hi[k]);
          if (s->y)
            extend (&e[ya], yk, s->y[k]);
        }
      break;
    case IV_SERIES_HEATMAP:
      extend (&e[IV_AXIS_X], xk, s->x0);
      extend (&e[IV_AXIS_X], xk, s->x1);
      extend (&e[ya], yk, s->y0);
      extend (&e[ya], yk, s->y1);
      e[IV_AXIS_X].tight = e[ya].tight = TRUE;
      break;
    case IV_SERIES_AREA:
      for (gsize k = 0; k < s->n; k++)
        {
          extend (&e[IV_AXIS_X], xk, s->x[k]);
          extend (&e[ya], yk, (s->base ? s->base[k] : 0) + s->y[k]);
        }
      extend (&e[ya], yk, 0);
      e[ya].zero_floor = TRUE;
      break;
    case IV_SERIES_SCATTER:
    case IV_SERIES_LINE:
    case IV_SERIES_STEP:
    case IV_SERIES_CDF:
    default:
      /* The extents kept as points were added; on a log axis, the smallest positive. */
      extend (&e[IV_AXIS_X], xk, is_log (xk) ? s->pos_lo[0] : s->ext_lo[0]);
      extend (&e[IV_AXIS_X], xk, s->ext_hi[0]);
      extend (&e[ya], yk, is_log (yk) ? s->pos_lo[1] : s->ext_lo[1]);
      extend (&e[ya], yk, s->ext_hi[1]);
      if (s->kind == IV_SERIES_CDF)
        {
          extend (&e[ya], yk, 0);
          extend (&e[ya], yk, 1);
        }
      break;
    }
  /* Anything but a heatmap wants the usual margin on its axes. */
  if (s->kind != IV_SERIES_HEATMAP)
    e[IV_AXIS_X].loose = e[ya].loose = TRUE;
}

/* The categories of a bar chart: the declared ones, or as many as the longest bars. */
static guint
bar_categories (const IvChart *chart)
{
  guint n = chart->n_categories;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (s->kind == IV_SERIES_BARS)
        n = MAX (n, s->n);
    }
  return n;
}

/* Axis @a's drawn range from its extent @e: one slot per category on a bar chart's
 * category axis, else fixed limits, a heatmap's exact extent, zero-based growth, or the
 * extent with a margin. A log axis never reaches zero. */
static void
axis_range (const IvChart *chart, IvAxisId a, const Extent *e, gboolean category_axis,
            IvChartLayout *L)
{
  const IvAxis *ax = &chart->axis[a];
  double lo = e->lo, hi = e->hi;

  L->kind[a] = ax->spec.kind;
  if (category_axis)
    {
      lo = -0.5;
      hi = bar_categories (chart) - 0.5;
      L->kind[a] = IV_SCALE_LINEAR;
    }
  else if (ax->fixed)
    {
      lo = ax->lo;
      hi = ax->hi;
      if (!(hi > lo))
        iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
    }
  else if (e->tight && !e->loose && hi > lo)
    ; /* exactly the heatmap's extent */
  else if (e->zero_floor && lo >= 0 && L->kind[a] == IV_SCALE_LINEAR)
    {
      iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
      lo = 0;
    }
  else
    iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
  if (is_log (L->kind[a]) && lo <= 0)
    lo = hi > 0 ? hi / 1000 : 1;
  L->lo[a] = lo;
  L->hi[a] = hi;
}

/* Every axis's range: the extent of the visible series and of the reference lines. */
static void
compute_ranges (IvChart *chart, IvChartLayout *L)
{
  Extent e[IV_N_AXES];
  IvAxisId cat_axis = chart->bars_horizontal ? IV_AXIS_Y : IV_AXIS_X;
  gboolean has_bars = FALSE;

  for (guint a = 0; a < IV_N_AXES; a++)
    e[a] = (Extent){ INFINITY, -INFINITY, FALSE };
  L->has_y2 = FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      L->has_y2 |= s->y2;
      if (!s->visible)
        continue;
      has_bars |= s->kind == IV_SERIES_BARS;
      extend_by_series (chart, s, e);
    }
  for (guint i = 0; i < chart->annotations->len; i++)
    {
      const IvAnnotation *a = &g_array_index (chart->annotations, IvAnnotation, i);
      if (a->kind == IV_ANNOTATION_HLINE)
        extend (&e[IV_AXIS_Y], chart->axis[IV_AXIS_Y].spec.kind, a->y);
      else if (a->kind == IV_ANNOTATION_VLINE)
        extend (&e[IV_AXIS_X], chart->axis[IV_AXIS_X].spec.kind, a->x);
    }
  for (guint a = 0; a < IV_N_AXES; a++)
    axis_range (chart, a, &e[a], has_bars && a == cat_axis, L);
}

/* -------- render -------- */

static void
resolve_colors (IvChart *chart, IvTheme theme)
{
  gboolean taken[IV_PALETTE_SIZE] = { FALSE };

  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (s->has_color)
        s->color = iv_theme_mark_color (theme, s->rgb, 1);
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      guint slot;
      if (s->has_color)
        continue;
      slot = iv_palette_index_for (s->name);
      /* Probe to the next free colour so two series never share one. */
      for (guint k = 0; k < IV_PALETTE_SIZE && taken[slot]; k++)
        slot = (slot + 1) % IV_PALETTE_SIZE;
      taken[slot] = TRUE;
      s->color = iv_palette_color (theme, slot);
    }
}

double
iv_chart_render_legend (cairo_t *cr, IvChart *chart, const IvRenderOptions *options, double width,
                        gboolean draw)
{
  IvChartLayout scratch = { 0 }; /* the chart's own layout stays that of its panel */
  IvChartCtx ctx = { cr,
                     options->theme,
                     iv_theme_get_colors (options->theme),
                     NULL,
                     IV_CHART_FONT_PX * (options->font_scale > 0 ? options->font_scale : 1.0),
                     chart,
                     &scratch };
  double h;

  resolve_colors (chart, options->theme);
  ctx.text = pango_cairo_create_layout (cr);
  h = _iv_chart_legend_band (&ctx, width, draw);
  g_object_unref (ctx.text);
  return h;
}

gboolean
iv_chart_render (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                 double height, GError **error)
{
  IvChart *chart = (IvChart *) data; /* the layout cache is written, nothing else */
  IvChartLayout *L = &chart->layout;
  IvChartCtx ctx = { cr,
                     options->theme,
                     iv_theme_get_colors (options->theme),
                     NULL,
                     IV_CHART_FONT_PX * (options->font_scale > 0 ? options->font_scale : 1.0),
                     chart,
                     L };
  AxisTicks ticks[IV_N_AXES];
  LegendSize legend;

  g_return_val_if_fail (chart != NULL, FALSE);

  if (chart->layer >= 0 && chart->keep_layout && L->valid && L->width == width
      && L->height == height)
    {
      /* one series alone where the chart's last layout put it (colours, stacks, ranges
       * and labels included): the cost of this series, not of the whole chart */
      IvSeries *s
          = (guint) chart->layer < chart->series->len ? chart->series->pdata[chart->layer] : NULL;
      ctx.text = pango_cairo_create_layout (cr);
      cairo_save (cr);
      cairo_rectangle (cr, L->plot_x, L->plot_y, L->plot_w, L->plot_h);
      cairo_clip (cr);
      if (s && s->visible)
        _iv_chart_draw_series (&ctx, s, (guint) chart->layer);
      cairo_restore (cr);
      g_object_unref (ctx.text);
      return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
    }
  memset (L, 0, sizeof *L);
  L->width = width;
  L->height = height;
  ctx.text = pango_cairo_create_layout (cr);
  resolve_colors (chart, options->theme);
  compute_stacks (chart);
  compute_ranges (chart, L);
  _iv_chart_layout (&ctx, width, height, ticks, &legend);
  /* A legend inside the plot that would hide a point wherever it goes is put below the
   * plot instead: a figure for a paper must show every point. */
  if (L->legend_placement == IV_LEGEND_AUTO && legend.rows && chart->legend == IV_LEGEND_AUTO)
    {
      double lx, ly;
      if (_iv_chart_legend_inside (&ctx, &legend, &lx, &ly) > 0)
        {
          for (guint a = 0; a < IV_N_AXES; a++)
            g_clear_pointer (&ticks[a].ticks, iv_ticks_free);
          chart->legend = IV_LEGEND_BOTTOM;
          ctx.legend_moved = TRUE;
          _iv_chart_layout (&ctx, width, height, ticks, &legend);
          ctx.legend_moved = FALSE;
          chart->legend = IV_LEGEND_AUTO;
        }
    }
  L->valid = TRUE;
  /* every series' labels placed together, whichever layer is drawn, so that they avoid
   * each other and land in the same spots in every layer */
  _iv_chart_place_labels (&ctx);
  /* the legend inside the plot where it hides the fewest points and labels, chosen now
   * that the labels are placed */
  if (L->legend_placement == IV_LEGEND_AUTO && legend.rows)
    {
      _iv_chart_legend_inside (&ctx, &legend, &L->legend_x, &L->legend_y);
      L->legend_chosen = TRUE;
    }

  cairo_save (cr);
  if (chart->layer >= 0)
    {
      /* one series alone, where the whole chart puts it */
      IvSeries *s
          = (guint) chart->layer < chart->series->len ? chart->series->pdata[chart->layer] : NULL;
      cairo_rectangle (cr, L->plot_x, L->plot_y, L->plot_w, L->plot_h);
      cairo_clip (cr);
      if (s && s->visible)
        _iv_chart_draw_series (&ctx, s, (guint) chart->layer);
      cairo_restore (cr);
      for (guint a = 0; a < IV_N_AXES; a++)
        iv_ticks_free (ticks[a].ticks);
      g_object_unref (ctx.text);
      return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
    }
  /* The figure owns its box and nothing outside it (panels share one surface). */
  iv_color_set_source (cr, &ctx.colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  /* Titles start at the plot's left edge unless that would push them out. */
  {
    double tx = L->plot_x, w, h = 0;
    ctx.max_text_w = width - IV_CHART_PAD - tx;
    if (ctx.max_text_w < width / 2)
      {
        tx = IV_CHART_PAD;
        ctx.max_text_w = width - 2 * IV_CHART_PAD;
      }
    if (chart->title && tx > IV_CHART_PAD)
      {
        /* the same for a title that wraps */
        int here, full;
        double sw, sh;
        ctx.max_lines = 3;
        _iv_chart_text_size (&ctx, chart->title, IV_CHART_TITLE_SCALE (chart), TRUE, &sw, &sh);
        here = pango_layout_get_line_count (ctx.text);
        ctx.max_text_w = width - 2 * IV_CHART_PAD;
        _iv_chart_text_size (&ctx, chart->title, IV_CHART_TITLE_SCALE (chart), TRUE, &sw, &sh);
        full = pango_layout_get_line_count (ctx.text);
        ctx.max_lines = 0;
        if (here > full)
          tx = IV_CHART_PAD;
        else
          ctx.max_text_w = width - IV_CHART_PAD - tx;
      }
    if (chart->subtitle && tx > IV_CHART_PAD)
      {
        /* the layout made room for the subtitle at the full width: from the plot's
         * edge it must not take more lines than that */
        int here, full;
        double sw, sh;
        ctx.max_lines = IV_CHART_SUBTITLE_LINES (height);
        _iv_chart_text_size (&ctx, chart->subtitle, 0.95, FALSE, &sw, &sh);
        here = pango_layout_get_line_count (ctx.text);
        ctx.max_text_w = width - 2 * IV_CHART_PAD;
        _iv_chart_text_size (&ctx, chart->subtitle, 0.95, FALSE, &sw, &sh);
        full = pango_layout_get_line_count (ctx.text);
        ctx.max_lines = 0;
        if (here > full)
          tx = IV_CHART_PAD;
        else
          ctx.max_text_w = width - IV_CHART_PAD - tx;
      }
    if (chart->title)
      {
        ctx.max_lines = 3;
        _iv_chart_show_text (&ctx, chart->title, tx, IV_CHART_PAD, 0, 0,
                             IV_CHART_TITLE_SCALE (chart), TRUE, &ctx.colors->foreground);
        _iv_chart_text_size (&ctx, chart->title, IV_CHART_TITLE_SCALE (chart), TRUE, &w, &h);
        ctx.max_lines = 0;
        h += 2;
      }
    if (chart->subtitle)
      {
        /* a subtitle is the runs' notes, which can run to a paragraph: three lines of it (two on a
         * short page), the rest in the window's and the summary's notes */
        ctx.max_lines = IV_CHART_SUBTITLE_LINES (height);
        ctx.allow = IV_TEXT_MAY_ELLIPSIZE;
        _iv_chart_show_text (&ctx, chart->subtitle, tx, IV_CHART_PAD + h, 0, 0, 0.95, FALSE,
                             &ctx.colors->foreground_dim);
        ctx.allow = 0;
        ctx.max_lines = 0;
      }
    ctx.max_text_w = 0;
  }

  _iv_chart_draw_grid (&ctx, ticks);

  cairo_save (cr);
  cairo_rectangle (cr, L->plot_x, L->plot_y, L->plot_w, L->plot_h);
  cairo_clip (cr);
  /* Fills first, then lines and markers on top. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < chart->series->len; i++)
      {
        IvSeries *s = chart->series->pdata[i];
        gboolean fill = s->kind == IV_SERIES_AREA || s->kind == IV_SERIES_BAND
                        || s->kind == IV_SERIES_BARS || s->kind == IV_SERIES_HISTOGRAM
                        || s->kind == IV_SERIES_HEATMAP;
        if (s->visible && fill == (pass == 0) && chart->layer != IV_CHART_LAYER_FRAME)
          _iv_chart_draw_series (&ctx, s, i);
      }
  _iv_chart_draw_annotations (&ctx);
  cairo_restore (cr);

  _iv_chart_draw_axes (&ctx, ticks);
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (s->kind == IV_SERIES_HEATMAP && s->visible && !chart->colorbar_off)
        {
          _iv_chart_draw_colorbar (&ctx, s);
          break;
        }
    }
  _iv_chart_draw_legend (&ctx, &legend);
  cairo_restore (cr);

  for (guint a = 0; a < IV_N_AXES; a++)
    iv_ticks_free (ticks[a].ticks);
  g_object_unref (ctx.text);
  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "drawing the chart failed: %s",
                   cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }
  return TRUE;
}

/* -------- pointer queries -------- */

double
iv_chart_to_data (const IvChartLayout *L, IvAxisId axis, double pixel)
{
  double t = axis == IV_AXIS_X ? (pixel - L->plot_x) / L->plot_w
                               : (L->plot_y + L->plot_h - pixel) / L->plot_h;
  return iv_scale_denormalize (L->kind[axis], L->lo[axis], L->hi[axis], t);
}

double
iv_chart_to_pixel (const IvChartLayout *L, IvAxisId axis, double value)
{
  return axis == IV_AXIS_X ? _iv_px_x (L, value) : _iv_px_y (L, axis, value);
}

gboolean
iv_chart_hit_test (const IvChart *chart, double px, double py, double radius, IvChartHit *hit)
{
  const IvChartLayout *L = &chart->layout;
  double best = radius;
  gboolean found = FALSE;

  if (!L->valid)
    return FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
      gsize from = 0, to = s->n;

      if (!s->visible || !s->x || !s->y || s->kind == IV_SERIES_HEATMAP
          || s->kind == IV_SERIES_HISTOGRAM || s->kind == IV_SERIES_BOX)
        continue;
      if (s->kind == IV_SERIES_BARS)
        {
          /* A bar is hit where it is drawn (or within the radius of it), its value shown
           * at the middle of its end. */
          for (gsize k = 0; k < s->n; k++)
            {
              double x0, y0, x1, y1, d;
              _iv_chart_bar_rect (chart, s, k, &x0, &y0, &x1, &y1);
              d = hypot (MAX (0, MAX (x0 - px, px - x1)), MAX (0, MAX (y0 - py, py - y1)));
              if (d <= best)
                {
                  gboolean h = chart->bars_horizontal;
                  best = d;
                  found = TRUE;
                  *hit = (IvChartHit){ s,
                                       i,
                                       k,
                                       s->x[k],
                                       s->y[k],
                                       h ? (s->y[k] < 0 ? x0 : x1) : (x0 + x1) / 2,
                                       h ? (y0 + y1) / 2 : (s->y[k] < 0 ? y1 : y0),
                                       d };
                }
            }
          continue;
        }
      if (s->sorted_x)
        {
          /* Only the points within the radius in x: O(log n + k). */
          double a = iv_chart_to_data (L, IV_AXIS_X, px - radius);
          double b = iv_chart_to_data (L, IV_AXIS_X, px + radius);
          from = iv_stats_lower_bound (s->x, s->n, MIN (a, b));
          to = iv_stats_lower_bound (s->x, s->n, MAX (a, b));
          while (to < s->n && s->x[to] <= MAX (a, b))
            to++;
        }
      for (gsize k = from; k < to; k++)
        {
          double top = s->y[k] + (s->base ? s->base[k] : 0);
          double x = _iv_px_x (L, s->x[k]), y = _iv_px_y (L, ya, top);
          double d = hypot (x - px, y - py);
          if (d <= best)
            {
              best = d;
              found = TRUE;
              *hit = (IvChartHit){ s, i, k, s->x[k], s->y[k], x, y, d };
            }
        }
    }
  /* under the points: the heat map cell the pointer is in */
  for (guint i = 0; i < chart->series->len && !found; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      double dx, dy;
      if (s->kind != IV_SERIES_HEATMAP || !s->visible || s->nx == 0 || s->ny == 0)
        continue;
      dx = iv_chart_to_data (L, IV_AXIS_X, px);
      dy = iv_chart_to_data (L, s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y, py);
      if (dx >= MIN (s->x0, s->x1) && dx < MAX (s->x0, s->x1) && dy >= MIN (s->y0, s->y1)
          && dy < MAX (s->y0, s->y1))
        {
          guint ci = MIN ((guint) ((dx - s->x0) / (s->x1 - s->x0) * s->nx), s->nx - 1);
          guint cj = MIN ((guint) ((dy - s->y0) / (s->y1 - s->y0) * s->ny), s->ny - 1);
          double cx = s->x0 + (ci + 0.5) * (s->x1 - s->x0) / s->nx,
                 cy = s->y0 + (cj + 0.5) * (s->y1 - s->y0) / s->ny;
          found = TRUE;
          *hit = (IvChartHit){ s, i, (gsize) cj * s->nx + ci, cx, cy, px, py, 0 };
        }
    }
  return found;
}

/* A value on @axis as its category name, or formatted in the axis's unit. */
static char *
axis_value_text (const IvChart *chart, IvAxisId axis, double v)
{
  const IvAxis *a = &chart->axis[axis];
  double k = round (v);

  if (a->categories && a->category_at)
    {
      for (guint i = 0; i < a->n_categories; i++)
        if (fabs (v - a->category_at[i]) < 1e-9)
          return g_strdup (a->categories[i]);
    }
  else if (a->categories && fabs (v - k) < 1e-9 && k >= 0 && k < a->n_categories)
    return g_strdup (a->categories[(guint) k]);
  if (a->spec.kind == IV_SCALE_TIME && !a->spec.clock)
    v -= a->spec.origin;
  return iv_unit_format_value (&a->spec.unit, v);
}

char *
iv_chart_describe_hit (const IvChart *chart, const IvChartHit *hit)
{
  const IvSeries *s = hit->series;
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
  const char *xt = chart->axis[IV_AXIS_X].title ? chart->axis[IV_AXIS_X].title : "x";
  const char *yt = chart->axis[ya].title ? chart->axis[ya].title : "y";
  const char *label = s->labels && s->labels[hit->index] && s->labels[hit->index][0]
                          ? s->labels[hit->index]
                          : NULL;
  g_autofree char *xs = axis_value_text (chart, IV_AXIS_X, hit->x);
  g_autofree char *ys = axis_value_text (chart, ya, hit->y);

  if (s->kind == IV_SERIES_HEATMAP)
    {
      g_autofree char *vs = label ? g_strdup (label) : iv_units_format_si (s->y[hit->index], NULL);
      return g_strdup_printf ("%s: %s\n%s: %s\n%s: %s", s->name ? s->name : "", vs, xt, xs, yt, ys);
    }
  if (label)
    return g_strdup_printf ("%s — %s\n%s: %s\n%s: %s", s->name ? s->name : "", label, xt, xs, yt,
                            ys);
  return g_strdup_printf ("%s (#%" G_GSIZE_FORMAT ")\n%s: %s\n%s: %s", s->name ? s->name : "",
                          hit->index, xt, xs, yt, ys);
}

int
iv_chart_legend_hit (const IvChart *chart, double px, double py)
{
  const IvChartLayout *L = &chart->layout;
  int row;
  guint seen = 0;

  if (!L->valid || L->legend_w <= 0 || px < L->legend_x || px > L->legend_x + L->legend_w
      || py < L->legend_y + 5 || py > L->legend_y + L->legend_h)
    return -1;
  row = (int) ((py - L->legend_y - 5) / L->legend_row_h);
  if (L->n_legend_cols > 1 && L->legend_col_w > 0)
    row = row * (int) L->n_legend_cols
          + MIN ((int) ((px - L->legend_x) / L->legend_col_w), (int) L->n_legend_cols - 1);
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (!_iv_chart_series_in_legend (s))
        continue;
      if ((int) seen == row)
        return (int) i;
      seen++;
    }
  return -1;
}
