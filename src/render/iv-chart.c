/* iv-chart.c: the chart model, its data ranges, the layout (margins measured from the
 * real text extents, so labels are never clipped), axes, legend and annotations, and the
 * pointer queries. Series drawing is in iv-chart-draw.c. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-private.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"

#define FONT_PX 13.0       /* body text, logical units */
#define PAD 10.0           /* outer padding */
#define TICK_LEN 5.0
#define LABEL_GAP 8.0      /* minimum gap between neighbouring tick labels */
#define RANGE_MARGIN 0.04

/* -------- model -------- */

IvChart *
iv_chart_new (void)
{
  IvChart *c = g_new0 (IvChart, 1);

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
  g_free (s->x);
  g_free (s->y);
  g_free (s->lo);
  g_free (s->hi);
  g_free (s->base);
  g_strfreev (s->labels);
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
    g_free (chart->axis[a].title);
  g_strfreev (chart->categories);
  g_free (chart->title);
  g_free (chart->subtitle);
  g_free (chart);
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
    chart->axis[axis].spec.unit = (IvUnit) { IV_UNIT_SECONDS, 1e-9, NULL };
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
iv_chart_add_scatter (IvChart *chart, const char *name, const double *x, const double *y,
                      gsize n)
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
iv_chart_add_histogram (IvChart *chart, const char *name, const double *values, gsize n,
                        guint bins)
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
iv_chart_add_box (IvChart *chart, const char *name, double position, const double *values,
                  gsize n)
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
iv_chart_add_heatmap (IvChart *chart, const char *name, const double *values, guint nx,
                      guint ny, double x0, double x1, double y0, double y1)
{
  IvSeries *s = add_series (chart, IV_SERIES_HEATMAP, name);

  s->nx = nx;
  s->ny = ny;
  s->y = copy (values, (gsize) nx * ny);
  s->n = (gsize) nx * ny;
  s->x0 = x0, s->x1 = x1, s->y0 = y0, s->y1 = y1;
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

void iv_series_set_color (IvSeries *s, guint32 rgb) { s->rgb = rgb; s->has_color = TRUE; }
void iv_series_set_alpha (IvSeries *s, double alpha) { s->alpha = CLAMP (alpha, 0.0, 1.0); }
void iv_series_set_line_width (IvSeries *s, double width) { s->line_width = width; }
void iv_series_set_dashed (IvSeries *s, gboolean dashed) { s->dashed = dashed; }
void iv_series_set_y2 (IvSeries *s, gboolean y2) { s->y2 = y2; }
void iv_series_set_visible (IvSeries *s, gboolean visible) { s->visible = visible; }
gboolean iv_series_get_visible (const IvSeries *s) { return s->visible; }
const char *iv_series_get_name (const IvSeries *s) { return s->name; }
IvSeriesKind iv_series_get_kind (const IvSeries *s) { return s->kind; }
void iv_series_set_show_in_legend (IvSeries *s, gboolean show) { s->in_legend = show; }

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
_iv_chart_bar_geometry (const IvChart *chart, guint bar_index, guint n_bar_series,
                        double *offset, double *width)
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
                                 ? 100.0 / bar_totals[k] : 1.0;
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

/* The value a stacked bar's top reaches, as drawn. */
static double
bar_top (const IvChart *chart, const IvSeries *s, gsize k, double *bottom)
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

static void
compute_ranges (IvChart *chart, IvChartLayout *L)
{
  Extent e[IV_N_AXES];
  gboolean horizontal = chart->bars_horizontal;
  IvAxisId cat_axis = horizontal ? IV_AXIS_Y : IV_AXIS_X;
  IvAxisId val_axis = horizontal ? IV_AXIS_X : IV_AXIS_Y;
  gboolean has_bars = FALSE;

  for (guint a = 0; a < IV_N_AXES; a++)
    e[a] = (Extent) { INFINITY, -INFINITY, FALSE };
  L->has_y2 = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
      IvScaleKind xk = chart->axis[IV_AXIS_X].spec.kind, yk = chart->axis[ya].spec.kind;

      if (s->y2)
        L->has_y2 = TRUE;
      if (!s->visible)
        continue;
      switch (s->kind)
        {
        case IV_SERIES_BARS:
          has_bars = TRUE;
          for (gsize k = 0; k < s->n; k++)
            {
              double bottom, top = bar_top (chart, s, k, &bottom);
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
          break;
        case IV_SERIES_AREA:
          for (gsize k = 0; k < s->n; k++)
            {
              double base = s->base ? s->base[k] : 0;
              extend (&e[IV_AXIS_X], xk, s->x[k]);
              extend (&e[ya], yk, base + s->y[k]);
            }
          extend (&e[ya], yk, 0);
          e[ya].zero_floor = TRUE;
          break;
        case IV_SERIES_SCATTER:
        case IV_SERIES_LINE:
        case IV_SERIES_STEP:
        case IV_SERIES_CDF:
        default:
          {
            gboolean xlog = xk == IV_SCALE_LOG10 || xk == IV_SCALE_LOG2;
            gboolean ylog = yk == IV_SCALE_LOG10 || yk == IV_SCALE_LOG2;
            extend (&e[IV_AXIS_X], xk, xlog ? s->pos_lo[0] : s->ext_lo[0]);
            extend (&e[IV_AXIS_X], xk, s->ext_hi[0]);
            extend (&e[ya], yk, ylog ? s->pos_lo[1] : s->ext_lo[1]);
            extend (&e[ya], yk, s->ext_hi[1]);
          }
          if (s->kind == IV_SERIES_CDF)
            {
              extend (&e[ya], yk, 0);
              extend (&e[ya], yk, 1);
            }
          break;
        }
    }
  for (guint i = 0; i < chart->annotations->len; i++)
    {
      IvAnnotation *a = &g_array_index (chart->annotations, IvAnnotation, i);
      if (a->kind == IV_ANNOTATION_HLINE)
        extend (&e[IV_AXIS_Y], chart->axis[IV_AXIS_Y].spec.kind, a->y);
      else if (a->kind == IV_ANNOTATION_VLINE)
        extend (&e[IV_AXIS_X], chart->axis[IV_AXIS_X].spec.kind, a->x);
    }

  for (guint a = 0; a < IV_N_AXES; a++)
    {
      IvAxis *ax = &chart->axis[a];
      double lo = e[a].lo, hi = e[a].hi;

      L->kind[a] = ax->spec.kind;
      if (has_bars && a == cat_axis)
        {
          guint n = chart->n_categories;
          for (guint i = 0; i < chart->series->len; i++)
            {
              IvSeries *s = chart->series->pdata[i];
              if (s->kind == IV_SERIES_BARS)
                n = MAX (n, s->n);
            }
          lo = -0.5;
          hi = n - 0.5;
          L->kind[a] = IV_SCALE_LINEAR;
        }
      else if (ax->fixed)
        {
          lo = ax->lo;
          hi = ax->hi;
          if (!(hi > lo))
            iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
        }
      else if (e[a].zero_floor && lo >= 0 && L->kind[a] == IV_SCALE_LINEAR)
        {
          iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
          lo = 0;
        }
      else
        iv_range_pad (ax->spec.kind, &lo, &hi, RANGE_MARGIN);
      if (L->kind[a] == IV_SCALE_LOG10 || L->kind[a] == IV_SCALE_LOG2)
        {
          if (lo <= 0)
            lo = hi > 0 ? hi / 1000 : 1;
        }
      L->lo[a] = lo;
      L->hi[a] = hi;
    }
}

/* -------- text -------- */

static void
set_font (IvChartCtx *ctx, double scale, gboolean bold)
{
  PangoFontDescription *fd = pango_font_description_from_string ("Cantarell, Sans");
  pango_font_description_set_absolute_size (fd, ctx->font_px * scale * PANGO_SCALE);
  pango_font_description_set_weight (fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (ctx->text, fd);
  pango_font_description_free (fd);
}

void
_iv_chart_text_size (IvChartCtx *ctx, const char *text, double scale, gboolean bold, double *w,
                     double *h)
{
  PangoRectangle logical;

  set_font (ctx, scale, bold);
  pango_layout_set_text (ctx->text, text ? text : "", -1);
  pango_layout_set_width (ctx->text, ctx->max_text_w > 0 ? (int) (ctx->max_text_w * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (ctx->text, ctx->max_text_w > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_get_extents (ctx->text, NULL, &logical);
  *w = (double) logical.width / PANGO_SCALE;
  *h = (double) logical.height / PANGO_SCALE;
}

void
_iv_chart_show_text (IvChartCtx *ctx, const char *text, double x, double y, double xalign,
                     double yalign, double scale, gboolean bold, const IvColor *color)
{
  double w, h;

  _iv_chart_text_size (ctx, text, scale, bold, &w, &h);
  iv_color_set_source (ctx->cr, color);
  cairo_move_to (ctx->cr, x - w * xalign, y - h * yalign);
  pango_cairo_show_layout (ctx->cr, ctx->text);
}

/* -------- ticks and layout -------- */

typedef struct
{
  IvTicks *ticks;
  double max_w, max_h; /* largest label */
} AxisTicks;

static char *
axis_title_with_unit (const IvChart *chart, IvAxisId a, const IvTicks *ticks)
{
  const char *title = chart->axis[a].title;

  if (!title)
    return NULL;
  if (ticks && ticks->unit_label && !chart->axis[a].hide_labels)
    return g_strdup_printf ("%s (%s)", title, ticks->unit_label);
  return g_strdup (title);
}

static gboolean
is_category_axis (const IvChart *chart, IvAxisId a)
{
  gboolean has_bars = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    has_bars |= ((IvSeries *) chart->series->pdata[i])->kind == IV_SERIES_BARS;
  return has_bars && a == (chart->bars_horizontal ? IV_AXIS_Y : IV_AXIS_X);
}

/* Where category k sits on its axis: horizontal bars list categories top to bottom. */
double
_iv_chart_category_position (const IvChart *chart, gsize k, gsize n)
{
  return chart->bars_horizontal ? (double) (n - 1 - k) : (double) k;
}

static gboolean
only_boxes (const IvChart *chart)
{
  gboolean any = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (s->kind == IV_SERIES_HEATMAP || s->kind == IV_SERIES_BARS)
        continue;
      if (s->kind != IV_SERIES_BOX)
        return FALSE;
      any = TRUE;
    }
  return any;
}

/* Box plots are labelled with their names under their positions. */
static IvTicks *
box_ticks (const IvChart *chart)
{
  IvTicks *t = iv_ticks_compute (&(IvScaleSpec) { IV_SCALE_LINEAR, IV_UNIT_PLAIN }, 0, 0, 1);

  g_free (t->ticks);
  t->ticks = g_new0 (IvTick, MAX (chart->series->len, 1));
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (s->kind != IV_SERIES_BOX || !s->visible)
        continue;
      t->ticks[t->n_ticks++] = (IvTick) { s->position, g_strdup (s->name), TRUE };
    }
  return t;
}

static IvTicks *
category_ticks (const IvChart *chart, const IvChartLayout *L, IvAxisId a)
{
  IvTicks *t = iv_ticks_compute (&(IvScaleSpec) { IV_SCALE_LINEAR, IV_UNIT_PLAIN }, 0, 0, 1);
  guint n = (guint) (L->hi[a] + 0.5);

  g_free (t->ticks);
  t->ticks = g_new0 (IvTick, MAX (n, 1));
  t->n_ticks = n;
  for (guint i = 0; i < n; i++)
    {
      t->ticks[i].value = _iv_chart_category_position (chart, i, n);
      t->ticks[i].major = TRUE;
      t->ticks[i].label = g_strdup (chart->categories && i < chart->n_categories
                                        ? chart->categories[i] : "");
      if (!t->ticks[i].label[0])
        {
          g_free (t->ticks[i].label);
          t->ticks[i].label = g_strdup_printf ("%u", i + 1);
        }
    }
  return t;
}

/* Ticks whose labels fit the axis length without touching each other. */
static void
fit_ticks (IvChartCtx *ctx, IvAxisId a, double length, AxisTicks *out)
{
  IvChart *chart = ctx->chart;
  IvChartLayout *L = ctx->L;
  IvScaleSpec spec = chart->axis[a].spec;
  guint target;

  spec.kind = L->kind[a] == IV_SCALE_LINEAR && spec.kind == IV_SCALE_TIME ? IV_SCALE_TIME
                                                                           : L->kind[a];
  out->max_w = out->max_h = 0;
  if (is_category_axis (chart, a))
    {
      out->ticks = category_ticks (chart, L, a);
    }
  else if (a == IV_AXIS_X && only_boxes (chart))
    {
      out->ticks = box_ticks (chart);
    }
  else
    {
      target = (guint) CLAMP (length / (a == IV_AXIS_X ? 90.0 : 45.0), 2, 12);
      for (;;)
        {
          gboolean overlap = FALSE;
          double prev_end = -INFINITY;

          out->ticks = iv_ticks_compute (&spec, L->lo[a], L->hi[a], target);
          for (guint i = 0; i < out->ticks->n_ticks && !overlap; i++)
            {
              IvTick *t = &out->ticks->ticks[i];
              double w, h, centre, half;
              if (!t->label)
                continue;
              _iv_chart_text_size (ctx, t->label, 0.92, FALSE, &w, &h);
              centre = iv_scale_normalize (L->kind[a], L->lo[a], L->hi[a], t->value) * length;
              half = (a == IV_AXIS_X ? w : h) / 2;
              if (centre - half < prev_end + LABEL_GAP)
                overlap = TRUE;
              prev_end = centre + half;
            }
          if (!overlap || target <= 2)
            break;
          iv_ticks_free (out->ticks);
          target--;
        }
    }
  for (guint i = 0; i < out->ticks->n_ticks; i++)
    if (out->ticks->ticks[i].label)
      {
        double w, h;
        _iv_chart_text_size (ctx, out->ticks->ticks[i].label, 0.92, FALSE, &w, &h);
        out->max_w = MAX (out->max_w, w);
        out->max_h = MAX (out->max_h, h);
      }
}

typedef struct
{
  double w, h;
  guint rows;
  double row_h;
  double swatch;
} LegendSize;

static gboolean
in_legend (const IvSeries *s)
{
  return s->in_legend && s->name && s->name[0];
}

/* Legend names longer than this are ellipsized, so a legend always fits the figure. */
static double
legend_text_limit (const IvChartCtx *ctx, IvLegendPlacement placement)
{
  double w = ctx->L->width;
  return placement == IV_LEGEND_RIGHT ? MAX (60, w / 3 - 40) : MAX (60, w - 2 * PAD - 40);
}

static LegendSize
measure_legend (IvChartCtx *ctx, IvLegendPlacement placement)
{
  LegendSize size = { 0 };
  double text_w, text_h;

  _iv_chart_text_size (ctx, "Ag", 0.92, FALSE, &text_w, &text_h);
  size.row_h = text_h + 4;
  size.swatch = 18;
  for (guint i = 0; i < ctx->chart->series->len; i++)
    {
      IvSeries *s = ctx->chart->series->pdata[i];
      if (!in_legend (s))
        continue;
      ctx->max_text_w = legend_text_limit (ctx, placement);
      _iv_chart_text_size (ctx, s->name, 0.92, FALSE, &text_w, &text_h);
      ctx->max_text_w = 0;
      size.w = MAX (size.w, size.swatch + 6 + text_w);
      size.rows++;
    }
  if (size.rows)
    {
      size.w += 16;
      size.h = size.rows * size.row_h + 10;
    }
  return size;
}

static void
layout (IvChartCtx *ctx, double width, double height, AxisTicks ticks[IV_N_AXES],
        LegendSize *legend)
{
  IvChart *chart = ctx->chart;
  IvChartLayout *L = ctx->L;
  double top = PAD, bottom = PAD, left = PAD, right = PAD;
  double w, h, line_h;

  _iv_chart_text_size (ctx, "Ag", 0.92, FALSE, &w, &line_h);
  ctx->max_text_w = width - 2 * PAD;
  if (chart->title)
    {
      _iv_chart_text_size (ctx, chart->title, 1.25, TRUE, &w, &h);
      top += h + 2;
    }
  if (chart->subtitle)
    {
      _iv_chart_text_size (ctx, chart->subtitle, 0.95, FALSE, &w, &h);
      top += h;
    }
  ctx->max_text_w = 0;
  if (chart->title || chart->subtitle)
    top += 8;
  else
    top += line_h / 2; /* room for the top y label's upper half */

  L->legend_placement = chart->legend;
  *legend = measure_legend (ctx, chart->legend);
  /* A legend that would cover much of a small plot goes below it instead. */
  if (chart->legend == IV_LEGEND_AUTO && legend->rows
      && (legend->w > (width - 2 * PAD) * 0.45 || legend->h > (height - top - 2 * PAD) * 0.45))
    {
      L->legend_placement = IV_LEGEND_BOTTOM;
      *legend = measure_legend (ctx, IV_LEGEND_BOTTOM);
    }
  if (L->legend_placement == IV_LEGEND_RIGHT && legend->rows)
    right += legend->w + 8;
  else if (L->legend_placement == IV_LEGEND_BOTTOM && legend->rows)
    bottom += legend->h + 8;

  /* Axis titles sit outside the tick labels. */
  if (chart->axis[IV_AXIS_X].title)
    bottom += line_h + 6;
  if (chart->axis[IV_AXIS_Y].title)
    left += line_h + 6;
  if (L->has_y2 && chart->axis[IV_AXIS_Y2].title)
    right += line_h + 6;

  /* Two passes: the y labels' width sets the plot width the x ticks are fitted to. */
  memset (ticks, 0, sizeof (AxisTicks) * IV_N_AXES);
  for (int pass = 0; pass < 2; pass++)
    {
      double l = left, r = right, b = bottom;

      for (guint a = 0; a < IV_N_AXES; a++)
        g_clear_pointer (&ticks[a].ticks, iv_ticks_free);
      L->plot_h = MAX (20, height - top - bottom - line_h - TICK_LEN - 4);
      fit_ticks (ctx, IV_AXIS_Y, L->plot_h, &ticks[IV_AXIS_Y]);
      if (L->has_y2)
        fit_ticks (ctx, IV_AXIS_Y2, L->plot_h, &ticks[IV_AXIS_Y2]);
      if (!chart->axis[IV_AXIS_Y].hide_labels)
        l += ticks[IV_AXIS_Y].max_w + TICK_LEN + 4;
      if (L->has_y2 && !chart->axis[IV_AXIS_Y2].hide_labels)
        r += ticks[IV_AXIS_Y2].max_w + TICK_LEN + 4;
      L->plot_w = MAX (20, width - l - r);
      fit_ticks (ctx, IV_AXIS_X, L->plot_w, &ticks[IV_AXIS_X]);
      /* The first and last x labels stick out by half their width. */
      if (ticks[IV_AXIS_X].ticks->n_ticks && !chart->axis[IV_AXIS_X].hide_labels)
        {
          IvTicks *xt = ticks[IV_AXIS_X].ticks;
          for (guint i = 0; i < xt->n_ticks; i++)
            {
              double tw, th, px;
              if (!xt->ticks[i].label)
                continue;
              _iv_chart_text_size (ctx, xt->ticks[i].label, 0.92, FALSE, &tw, &th);
              px = iv_scale_normalize (L->kind[IV_AXIS_X], L->lo[IV_AXIS_X], L->hi[IV_AXIS_X],
                                       xt->ticks[i].value) * L->plot_w;
              l = MAX (l, left + tw / 2 - px + ticks[IV_AXIS_Y].max_w * 0);
              r = MAX (r, right + tw / 2 - (L->plot_w - px));
            }
          b += ticks[IV_AXIS_X].max_h + TICK_LEN + 4;
        }
      L->plot_x = l;
      L->plot_y = top;
      L->plot_w = MAX (20, width - l - r);
      L->plot_h = MAX (20, height - top - b);
    }
}

/* -------- drawing the frame -------- */

static void
draw_grid (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES])
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  iv_color_set_source (cr, &ctx->colors->grid);
  for (IvAxisId a = IV_AXIS_X; a <= IV_AXIS_Y; a++)
    {
      gboolean grid = ctx->chart->axis[a].grid;
      /* Horizontal bars swap the axes: the value grid follows the values. */
      if (is_category_axis (ctx->chart, IV_AXIS_Y))
        grid = a == IV_AXIS_X ? ctx->chart->axis[IV_AXIS_Y].grid || grid : FALSE;
      if (!grid || is_category_axis (ctx->chart, a))
        continue;
      for (guint i = 0; i < ticks[a].ticks->n_ticks; i++)
        {
          IvTick *t = &ticks[a].ticks->ticks[i];
          if (!t->major)
            continue;
          if (a == IV_AXIS_X)
            {
              double x = round (_iv_px_x (L, t->value)) + 0.5;
              cairo_move_to (cr, x, L->plot_y);
              cairo_line_to (cr, x, L->plot_y + L->plot_h);
            }
          else
            {
              double y = round (_iv_px_y (L, a, t->value)) + 0.5;
              cairo_move_to (cr, L->plot_x, y);
              cairo_line_to (cr, L->plot_x + L->plot_w, y);
            }
        }
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_axes (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES])
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  IvChart *chart = ctx->chart;
  const IvColor *fg = &ctx->colors->foreground;
  const IvColor *dim = &ctx->colors->foreground_dim;
  double x0 = L->plot_x, y0 = L->plot_y, x1 = L->plot_x + L->plot_w, y1 = L->plot_y + L->plot_h;
  double line_w, line_h;

  _iv_chart_text_size (ctx, "Ag", 0.92, FALSE, &line_w, &line_h);
  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  iv_color_set_source (cr, dim);
  /* Left and bottom spines (and right with a secondary axis), as journals prefer. */
  cairo_move_to (cr, round (x0) + 0.5, y0);
  cairo_line_to (cr, round (x0) + 0.5, round (y1) + 0.5);
  cairo_line_to (cr, x1, round (y1) + 0.5);
  if (L->has_y2)
    {
      cairo_move_to (cr, round (x1) - 0.5, y0);
      cairo_line_to (cr, round (x1) - 0.5, y1);
    }
  cairo_stroke (cr);

  for (guint a = 0; a < IV_N_AXES; a++)
    {
      IvTicks *tk = ticks[a].ticks;
      if (!tk || (a == IV_AXIS_Y2 && !L->has_y2))
        continue;
      for (guint i = 0; i < tk->n_ticks; i++)
        {
          IvTick *t = &tk->ticks[i];
          double len = t->major ? TICK_LEN : TICK_LEN * 0.6;
          if (a == IV_AXIS_X)
            {
              double x = round (_iv_px_x (L, t->value)) + 0.5;
              if (x < x0 - 0.5 || x > x1 + 0.5)
                continue;
              iv_color_set_source (cr, dim);
              cairo_move_to (cr, x, round (y1) + 0.5);
              cairo_line_to (cr, x, round (y1) + 0.5 + len);
              cairo_stroke (cr);
              if (t->label && !chart->axis[a].hide_labels)
                _iv_chart_show_text (ctx, t->label, x, y1 + TICK_LEN + 3, 0.5, 0, 0.92, FALSE, fg);
            }
          else
            {
              double y = round (_iv_px_y (L, a, t->value)) + 0.5;
              double sx = a == IV_AXIS_Y ? round (x0) + 0.5 : round (x1) - 0.5;
              double dir = a == IV_AXIS_Y ? -1 : 1;
              if (y < y0 - 0.5 || y > y1 + 0.5)
                continue;
              iv_color_set_source (cr, dim);
              cairo_move_to (cr, sx, y);
              cairo_line_to (cr, sx + dir * len, y);
              cairo_stroke (cr);
              if (t->label && !chart->axis[a].hide_labels)
                _iv_chart_show_text (ctx, t->label, sx + dir * (TICK_LEN + 3), y,
                                     a == IV_AXIS_Y ? 1 : 0, 0.5, 0.92, FALSE, fg);
            }
        }
    }

  /* Axis titles, with the unit the labels share. */
  {
    g_autofree char *xt = axis_title_with_unit (chart, IV_AXIS_X, ticks[IV_AXIS_X].ticks);
    g_autofree char *yt = axis_title_with_unit (chart, IV_AXIS_Y, ticks[IV_AXIS_Y].ticks);
    g_autofree char *y2t = L->has_y2 ? axis_title_with_unit (chart, IV_AXIS_Y2, ticks[IV_AXIS_Y2].ticks)
                                     : NULL;
    double label_h = chart->axis[IV_AXIS_X].hide_labels ? 0 : ticks[IV_AXIS_X].max_h;

    if (xt)
      _iv_chart_show_text (ctx, xt, x0 + L->plot_w / 2, y1 + TICK_LEN + 6 + label_h, 0.5, 0,
                           0.95, FALSE, fg);
    if (yt)
      {
        double lw = chart->axis[IV_AXIS_Y].hide_labels ? 0 : ticks[IV_AXIS_Y].max_w;
        cairo_save (cr);
        cairo_translate (cr, x0 - TICK_LEN - 8 - lw - line_h / 2 - 2, y0 + L->plot_h / 2);
        cairo_rotate (cr, -G_PI / 2);
        _iv_chart_show_text (ctx, yt, 0, 0, 0.5, 0.5, 0.95, FALSE, fg);
        cairo_restore (cr);
      }
    if (y2t)
      {
        double lw = chart->axis[IV_AXIS_Y2].hide_labels ? 0 : ticks[IV_AXIS_Y2].max_w;
        cairo_save (cr);
        cairo_translate (cr, x1 + TICK_LEN + 8 + lw + line_h / 2 + 2, y0 + L->plot_h / 2);
        cairo_rotate (cr, G_PI / 2);
        _iv_chart_show_text (ctx, y2t, 0, 0, 0.5, 0.5, 0.95, FALSE, fg);
        cairo_restore (cr);
      }
  }
  cairo_restore (cr);
}

/* Text over data gets a background-coloured plate so it stays readable. */
static void
show_plate_text (IvChartCtx *ctx, const char *text, double x, double y, double xalign,
                 double yalign)
{
  double w, h;
  IvColor plate = ctx->colors->background;

  _iv_chart_text_size (ctx, text, 0.85, FALSE, &w, &h);
  plate.a = ctx->theme == IV_THEME_PRINT ? 1.0 : 0.8;
  iv_color_set_source (ctx->cr, &plate);
  cairo_rectangle (ctx->cr, x - w * xalign - 2, y - h * yalign, w + 4, h);
  cairo_fill (ctx->cr);
  _iv_chart_show_text (ctx, text, x, y, xalign, yalign, 0.85, FALSE, &ctx->colors->foreground);
}

static void
draw_annotations (IvChartCtx *ctx)
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  const IvColor *fg = &ctx->colors->foreground;
  static const double dash[] = { 5, 3 };

  (void) fg;
  for (guint i = 0; i < ctx->chart->annotations->len; i++)
    {
      IvAnnotation *a = &g_array_index (ctx->chart->annotations, IvAnnotation, i);
      cairo_save (cr);
      cairo_set_line_width (cr, 1.25);
      cairo_set_dash (cr, dash, 2, 0);
      iv_color_set_source (cr, &ctx->colors->foreground_dim);
      if (a->kind == IV_ANNOTATION_HLINE)
        {
          double y = _iv_px_y (L, IV_AXIS_Y, a->y);
          cairo_move_to (cr, L->plot_x, y);
          cairo_line_to (cr, L->plot_x + L->plot_w, y);
          cairo_stroke (cr);
          if (a->text)
            show_plate_text (ctx, a->text, L->plot_x + L->plot_w - 4, y - 2, 1, 1);
        }
      else if (a->kind == IV_ANNOTATION_VLINE)
        {
          double x = _iv_px_x (L, a->x);
          cairo_move_to (cr, x, L->plot_y);
          cairo_line_to (cr, x, L->plot_y + L->plot_h);
          cairo_stroke (cr);
          if (a->text)
            show_plate_text (ctx, a->text, x + 4, L->plot_y + 2, 0, 0);
        }
      else if (a->text)
        show_plate_text (ctx, a->text, _iv_px_x (L, a->x), _iv_px_y (L, IV_AXIS_Y, a->y), 0.5, 0.5);
      cairo_restore (cr);
    }
}

/* Points of visible series under a rectangle, sampled: how much data a legend would hide. */
static double
data_under (IvChartCtx *ctx, double x, double y, double w, double h)
{
  double hidden = 0;

  for (guint i = 0; i < ctx->chart->series->len; i++)
    {
      IvSeries *s = ctx->chart->series->pdata[i];
      IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
      gsize step;
      if (!s->visible || s->kind == IV_SERIES_HEATMAP || !s->x || !s->y)
        continue;
      step = MAX (1, s->n / 2000);
      for (gsize k = 0; k < s->n && k < (s->kind == IV_SERIES_HISTOGRAM ? s->n : s->n); k += step)
        {
          double px = s->kind == IV_SERIES_BOX ? _iv_px_x (ctx->L, s->position) : _iv_px_x (ctx->L, s->x[k]);
          double top = s->y[k] + (s->base ? s->base[k] : 0);
          double py = _iv_px_y (ctx->L, ya, top);
          if (px >= x && px <= x + w && py >= y && py <= y + h)
            hidden += step;
          /* Bars and areas cover everything below their top. */
          if ((s->kind == IV_SERIES_BARS || s->kind == IV_SERIES_AREA
               || s->kind == IV_SERIES_HISTOGRAM) && px >= x && px <= x + w && py <= y + h)
            hidden += step;
        }
    }
  return hidden;
}

static void
draw_legend (IvChartCtx *ctx, const LegendSize *size)
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  IvChart *chart = ctx->chart;
  double x, y;
  guint row = 0;

  if (!size->rows || L->legend_placement == IV_LEGEND_HIDDEN)
    {
      L->legend_w = L->legend_h = 0;
      return;
    }
  if (L->legend_placement == IV_LEGEND_RIGHT)
    {
      x = L->plot_x + L->plot_w + (L->has_y2 ? 60 : 12);
      x = MIN (x, L->width - size->w - PAD);
      y = L->plot_y;
    }
  else if (L->legend_placement == IV_LEGEND_BOTTOM)
    {
      x = MAX (PAD, L->plot_x + (L->plot_w - size->w) / 2);
      y = L->height - PAD - size->h;
    }
  else
    {
      /* The corner (or edge middle) that hides the fewest data points. */
      const double m = 8;
      double cx[] = { L->plot_x + L->plot_w - size->w - m, L->plot_x + m,
                      L->plot_x + L->plot_w - size->w - m, L->plot_x + m,
                      L->plot_x + (L->plot_w - size->w) / 2, L->plot_x + (L->plot_w - size->w) / 2 };
      double cy[] = { L->plot_y + m, L->plot_y + m, L->plot_y + L->plot_h - size->h - m,
                      L->plot_y + L->plot_h - size->h - m, L->plot_y + m,
                      L->plot_y + L->plot_h - size->h - m };
      double best = INFINITY;
      x = cx[0];
      y = cy[0];
      for (guint i = 0; i < G_N_ELEMENTS (cx); i++)
        {
          double hidden = data_under (ctx, cx[i], cy[i], size->w, size->h);
          if (hidden < best - 0.5)
            {
              best = hidden;
              x = cx[i];
              y = cy[i];
            }
        }
    }
  L->legend_x = x, L->legend_y = y, L->legend_w = size->w, L->legend_h = size->h;
  L->legend_row_h = size->row_h;
  L->n_legend_rows = size->rows;

  cairo_save (cr);
  if (L->legend_placement == IV_LEGEND_AUTO)
    {
      IvColor bg = ctx->colors->background;
      bg.a = ctx->theme == IV_THEME_PRINT ? 1.0 : 0.85;
      iv_color_set_source (cr, &bg);
      cairo_rectangle (cr, x, y, size->w, size->h);
      cairo_fill_preserve (cr);
      iv_color_set_source (cr, &ctx->colors->grid);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      double ry = y + 5 + row * size->row_h + size->row_h / 2;
      double sx = x + 8;
      IvColor c = s->color;
      const IvColor *fg = s->visible ? &ctx->colors->foreground : &ctx->colors->foreground_dim;

      if (!in_legend (s))
        continue;
      if (!s->visible)
        c.a *= 0.3;
      iv_color_set_source (cr, &c);
      switch (s->kind)
        {
        case IV_SERIES_SCATTER:
          _iv_chart_draw_marker (cr, s->marker, sx + size->swatch / 2, ry, 7);
          cairo_fill (cr);
          break;
        case IV_SERIES_LINE:
        case IV_SERIES_STEP:
        case IV_SERIES_CDF:
        case IV_SERIES_ERROR_BARS:
          cairo_set_line_width (cr, MAX (2, s->line_width));
          if (s->dashed)
            cairo_set_dash (cr, (double[]) { 4, 2 }, 2, 0);
          cairo_move_to (cr, sx, ry);
          cairo_line_to (cr, sx + size->swatch, ry);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          break;
        default:
          if (ctx->theme != IV_THEME_PRINT && s->kind != IV_SERIES_BARS)
            c.a = MAX (c.a * s->alpha, 0.35);
          iv_color_set_source (cr, &c);
          cairo_rectangle (cr, sx, ry - 5, size->swatch, 10);
          cairo_fill (cr);
          break;
        }
      ctx->max_text_w = legend_text_limit (ctx, L->legend_placement);
      _iv_chart_show_text (ctx, s->name, sx + size->swatch + 6, ry, 0, 0.5, 0.92, FALSE, fg);
      ctx->max_text_w = 0;
      row++;
    }
  cairo_restore (cr);
}

static void
draw_colorbar (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  double x = L->plot_x + L->plot_w + 10, y = L->plot_y, w = 12, h = L->plot_h;
  g_autoptr (IvTicks) ticks = NULL;
  IvScaleSpec spec = { IV_SCALE_LINEAR, IV_UNIT_PLAIN };

  if (!(s->vmax >= s->vmin))
    return;
  for (int i = 0; i < 64; i++)
    {
      IvColor c = iv_colormap_viridis ((i + 0.5) / 64);
      iv_color_set_source (cr, &c);
      cairo_rectangle (cr, x, y + h - (i + 1) * h / 64, w, h / 64 + 0.5);
      cairo_fill (cr);
    }
  ticks = iv_ticks_compute (&spec, s->vmin, s->vmax > s->vmin ? s->vmax : s->vmin + 1, 5);
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      double ty = y + h - (ticks->ticks[i].value - s->vmin) / MAX (s->vmax - s->vmin, 1e-300) * h;
      if (ty < y - 0.5 || ty > y + h + 0.5)
        continue;
      _iv_chart_show_text (ctx, ticks->ticks[i].label, x + w + 4, ty, 0, 0.5, 0.85, FALSE,
                           &ctx->colors->foreground);
    }
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
        s->color = (IvColor) { ((s->rgb >> 16) & 0xff) / 255.0, ((s->rgb >> 8) & 0xff) / 255.0,
                               (s->rgb & 0xff) / 255.0, 1 };
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

gboolean
iv_chart_render (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                 double height, GError **error)
{
  IvChart *chart = (IvChart *) data; /* the layout cache is written, nothing else */
  IvChartLayout *L = &chart->layout;
  IvChartCtx ctx = { cr, options->theme, iv_theme_get_colors (options->theme), NULL,
                     FONT_PX * (options->font_scale > 0 ? options->font_scale : 1.0), chart, L };
  AxisTicks ticks[IV_N_AXES];
  LegendSize legend;

  g_return_val_if_fail (chart != NULL, FALSE);

  memset (L, 0, sizeof *L);
  L->width = width;
  L->height = height;
  ctx.text = pango_cairo_create_layout (cr);
  resolve_colors (chart, options->theme);
  compute_stacks (chart);
  compute_ranges (chart, L);
  layout (&ctx, width, height, ticks, &legend);
  L->valid = TRUE;

  cairo_save (cr);
  /* The figure owns its box and nothing outside it (panels share one surface). */
  iv_color_set_source (cr, &ctx.colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  /* Titles start at the plot's left edge unless that would push them out. */
  {
    double tx = L->plot_x, w, h = 0;
    ctx.max_text_w = width - PAD - tx;
    if (ctx.max_text_w < width / 2)
      {
        tx = PAD;
        ctx.max_text_w = width - 2 * PAD;
      }
    if (chart->title)
      {
        _iv_chart_show_text (&ctx, chart->title, tx, PAD, 0, 0, 1.25, TRUE,
                             &ctx.colors->foreground);
        _iv_chart_text_size (&ctx, chart->title, 1.25, TRUE, &w, &h);
        h += 2;
      }
    if (chart->subtitle)
      _iv_chart_show_text (&ctx, chart->subtitle, tx, PAD + h, 0, 0, 0.95, FALSE,
                           &ctx.colors->foreground_dim);
    ctx.max_text_w = 0;
  }

  draw_grid (&ctx, ticks);

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
        if (s->visible && fill == (pass == 0))
          _iv_chart_draw_series (&ctx, s, i);
      }
  draw_annotations (&ctx);
  cairo_restore (cr);

  draw_axes (&ctx, ticks);
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (s->kind == IV_SERIES_HEATMAP && s->visible)
        {
          draw_colorbar (&ctx, s);
          break;
        }
    }
  draw_legend (&ctx, &legend);
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

/* First index with x >= value in a sorted array. */
static gsize
lower_bound (const double *x, gsize n, double value)
{
  gsize lo = 0, hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (x[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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
      if (s->sorted_x)
        {
          /* Only the points within the radius in x: O(log n + k). */
          double a = iv_chart_to_data (L, IV_AXIS_X, px - radius);
          double b = iv_chart_to_data (L, IV_AXIS_X, px + radius);
          from = lower_bound (s->x, s->n, MIN (a, b));
          to = lower_bound (s->x, s->n, MAX (a, b));
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
              *hit = (IvChartHit) { s, i, k, s->x[k], s->y[k], x, y, d };
            }
        }
    }
  return found;
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
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (!in_legend (s))
        continue;
      if ((int) seen == row)
        return (int) i;
      seen++;
    }
  return -1;
}
