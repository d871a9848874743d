/* iv-chart-layout.c: the chart's frame: text measured with Pango, ticks fitted so their
 * labels never touch, margins computed from those measurements (never a clipped
 * label), then grid, axes, axis titles, annotations, the legend (placed where it hides
 * the fewest points) and the colour bar. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-private.h"

#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-safe-text.h"
#include "iv-text.h"

#define TICK_LEN 5.0
/* a legend's padding inside its frame, above its first row and below its last (its
 * height is its rows + 2 × this; its entries start this far below its top) */
#define BOX_INSET 5.0
#define LABEL_GAP 8.0 /* minimum gap between neighbouring tick labels */

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
  iv_text_layout_set_text (ctx->text, text);
  pango_layout_set_width (ctx->text,
                          ctx->max_text_w > 0 ? (int) (ctx->max_text_w * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (ctx->text, ctx->max_text_w <= 0 ? PANGO_ELLIPSIZE_NONE
                                         : ctx->middle        ? PANGO_ELLIPSIZE_MIDDLE
                                                              : PANGO_ELLIPSIZE_END);
  pango_layout_set_wrap (ctx->text, PANGO_WRAP_WORD_CHAR);
  /* negative: at most that many lines, the last ellipsized */
  pango_layout_set_height (ctx->text,
                           ctx->max_text_w > 0 && ctx->max_lines > 1 ? -ctx->max_lines : -1);
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
  iv_text_show_layout (ctx->cr, ctx->text, ctx->allow);
}

/* -------- ticks and layout -------- */

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

/* The longest start of @title that fits @max_w followed by "…" and @suffix, cut at a
 * character; NULL when not a letter of it fits. */
static char *
shorten (IvChartCtx *ctx, const char *title, const char *suffix, double max_w)
{
  gsize lo = 0, hi = strlen (title);
  double w, h;

  while (lo < hi)
    {
      gsize mid = iv_text_prefix_len (title, strlen (title), (lo + hi + 1) / 2);
      g_autofree char *cut = NULL;
      if (mid <= lo)
        break;
      cut = g_strdup_printf ("%.*s…%s", (int) mid, title, suffix);
      _iv_chart_text_size (ctx, cut, 0.95, FALSE, &w, &h);
      if (w <= max_w)
        lo = mid;
      else
        hi = mid - 1;
    }
  lo = iv_text_prefix_len (title, strlen (title), lo);
  while (lo > 0 && title[lo - 1] == ' ')
    lo--;
  return lo ? g_strdup_printf ("%.*s…%s", (int) lo, title, suffix) : NULL;
}

/* Whether the axis title with its unit is wider than @max_w. */
static gboolean
axis_title_too_long (IvChartCtx *ctx, const IvChart *chart, IvAxisId a, const IvTicks *ticks,
                     double max_w)
{
  g_autofree char *full = axis_title_with_unit (chart, a, ticks);
  double w, h;

  if (!full || max_w <= 0)
    return FALSE;
  _iv_chart_text_size (ctx, full, 0.95, FALSE, &w, &h);
  return w > max_w;
}

/* How far below the plot a y title may reach: down past the x tick labels to the x
 * title's line, which is centred under the plot and so clear of the y title's column —
 * unless the x title runs across the page on two lines. */
static double
y_title_below (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES])
{
  const IvChart *chart = ctx->chart;

  if (ctx->title_two_lines[IV_AXIS_X] || chart->axis[IV_AXIS_X].hide_labels
      || !ticks[IV_AXIS_X].ticks)
    return 0;
  return TICK_LEN + 4 + ticks[IV_AXIS_X].max_h;
}

/* Whether the axis's short title with its unit fits @max_w on one line. */
static gboolean
short_title_fits (IvChartCtx *ctx, const IvChart *chart, IvAxisId a, const IvTicks *ticks,
                  double max_w)
{
  g_autofree char *line = NULL;
  double w, h;

  if (!chart->axis[a].short_title)
    return FALSE;
  line = ticks && ticks->unit_label && !chart->axis[a].hide_labels
             ? g_strdup_printf ("%s (%s)", chart->axis[a].short_title, ticks->unit_label)
             : g_strdup (chart->axis[a].short_title);
  _iv_chart_text_size (ctx, line, 0.95, FALSE, &w, &h);
  return w <= max_w;
}

/* The axis title as drawn in at most @max_w: whole when it fits; else, when the layout
 * made room for two lines, the title over its unit; else the title cut short with "…"
 * before its unit, so "Output token throughput per GPU (avg) (k tokens/s/GPU)" on a
 * column page still names its unit rather than running off the page. */
static char *
fit_axis_title (IvChartCtx *ctx, const IvChart *chart, IvAxisId a, const IvTicks *ticks,
                double max_w)
{
  const char *title = chart->axis[a].title;
  gboolean unit = ticks && ticks->unit_label && !chart->axis[a].hide_labels;
  g_autofree char *suffix = unit ? g_strdup_printf (" (%s)", ticks->unit_label) : g_strdup ("");
  char *cut;

  if (!title)
    return NULL;
  if (!axis_title_too_long (ctx, chart, a, ticks, max_w))
    return axis_title_with_unit (chart, a, ticks);
  if (unit && ctx->title_two_lines[a])
    {
      double w, h;
      _iv_chart_text_size (ctx, title, 0.95, FALSE, &w, &h);
      if (w <= max_w)
        return g_strdup_printf ("%s\n(%s)", title, ticks->unit_label);
    }
  /* the axis's short title ("ITL (avg)"), on one line with its unit, else over it */
  if (chart->axis[a].short_title)
    {
      const char *brief = chart->axis[a].short_title;
      g_autofree char *line = g_strdup_printf ("%s%s", brief, suffix);
      double w, h;
      _iv_chart_text_size (ctx, line, 0.95, FALSE, &w, &h);
      if (w <= max_w)
        return g_steal_pointer (&line);
      _iv_chart_text_size (ctx, brief, 0.95, FALSE, &w, &h);
      if (unit && ctx->title_two_lines[a] && w <= max_w)
        return g_strdup_printf ("%s\n(%s)", brief, ticks->unit_label);
      title = brief;
    }
  if (unit && ctx->title_two_lines[a])
    {
      g_autofree char *head = shorten (ctx, title, "", max_w);
      return head ? g_strdup_printf ("%s\n(%s)", head, ticks->unit_label)
                  : g_strdup (ticks->unit_label);
    }
  cut = shorten (ctx, title, suffix, max_w);
  /* no letter of the title fits: the unit alone says what the axis counts */
  return cut ? cut : unit ? g_strdup (ticks->unit_label) : g_strdup ("…");
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
  IvTicks *t = iv_ticks_compute (&(IvScaleSpec){ IV_SCALE_LINEAR, IV_UNIT_PLAIN }, 0, 0, 1);

  g_free (t->ticks);
  t->ticks = g_new0 (IvTick, MAX (chart->series->len, 1));
  for (guint i = 0; i < chart->series->len; i++)
    {
      const IvSeries *s = chart->series->pdata[i];
      if (s->kind != IV_SERIES_BOX || !s->visible)
        continue;
      t->ticks[t->n_ticks++] = (IvTick){ s->position, g_strdup (s->name), TRUE };
    }
  return t;
}

static IvTicks *
category_ticks (const IvChart *chart, const IvChartLayout *L, IvAxisId a)
{
  IvTicks *t = iv_ticks_compute (&(IvScaleSpec){ IV_SCALE_LINEAR, IV_UNIT_PLAIN }, 0, 0, 1);
  guint n = (guint) (L->hi[a] + 0.5);

  g_free (t->ticks);
  t->ticks = g_new0 (IvTick, MAX (n, 1));
  t->n_ticks = n;
  for (guint i = 0; i < n; i++)
    {
      t->ticks[i].value = _iv_chart_category_position (chart, i, n);
      t->ticks[i].major = TRUE;
      t->ticks[i].label
          = g_strdup (chart->categories && i < chart->n_categories ? chart->categories[i] : "");
      if (!t->ticks[i].label[0])
        {
          g_free (t->ticks[i].label);
          t->ticks[i].label = g_strdup_printf ("%u", i + 1);
        }
    }
  return t;
}

/* An axis with named positions: a tick at each, when they fit. */
static IvTicks *
named_ticks (const IvAxis *axis)
{
  IvTicks *t = iv_ticks_compute (&(IvScaleSpec){ IV_SCALE_LINEAR, IV_UNIT_PLAIN }, 0, 0, 1);

  g_free (t->ticks);
  t->ticks = g_new0 (IvTick, MAX (axis->n_categories, 1));
  t->n_ticks = axis->n_categories;
  for (guint i = 0; i < axis->n_categories; i++)
    t->ticks[i] = (IvTick){ axis->category_at ? axis->category_at[i] : (double) i,
                            g_strdup (axis->categories[i]), TRUE };
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

  spec.kind
      = L->kind[a] == IV_SCALE_LINEAR && spec.kind == IV_SCALE_TIME ? IV_SCALE_TIME : L->kind[a];
  out->max_w = out->max_h = 0;
  if (chart->axis[a].categories)
    {
      out->ticks = named_ticks (&chart->axis[a]);
    }
  else if (is_category_axis (chart, a))
    {
      out->ticks = category_ticks (chart, L, a);
    }
  else if (a == IV_AXIS_X && only_boxes (chart))
    {
      out->ticks = box_ticks (chart);
    }
  else
    {
      /* three at least: a column-wide axis of 190 units read "0, 100" with room for two
       * more (the overlap check below takes ticks away where they do not fit) */
      target = (guint) CLAMP (length / (a == IV_AXIS_X ? 90.0 : 45.0), 3, 12);
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
      /* the fewest ticks a log axis has can still touch ("50 ms" against "100 ms" on a
       * panel of a column): a label that would is left out, its tick kept (along x,
       * where labels run into each other; y labels a line apart do not) */
      if (a == IV_AXIS_X)
        {
          double prev_end = -INFINITY;
          for (guint i = 0; i < out->ticks->n_ticks; i++)
            {
              IvTick *t = &out->ticks->ticks[i];
              double w, h, centre, half;
              if (!t->label)
                continue;
              _iv_chart_text_size (ctx, t->label, 0.92, FALSE, &w, &h);
              centre = iv_scale_normalize (L->kind[a], L->lo[a], L->hi[a], t->value) * length;
              half = (a == IV_AXIS_X ? w : h) / 2;
              if (centre - half < prev_end + LABEL_GAP)
                g_clear_pointer (&t->label, g_free);
              else
                prev_end = centre + half;
            }
        }
    }
  out->turned = FALSE;
  /* Names along x (runs, categories) that run into each other stand upright instead,
   * every k-th where even upright they would touch, at most a quarter of the page's
   * height long (cut in the middle: run names differ at their ends): 36 run names across a paper
   * column were one black smear. */
  if (a == IV_AXIS_X
      && (chart->axis[a].categories || is_category_axis (chart, a) || only_boxes (chart))
      && out->ticks->n_ticks > 1)
    {
      double prev_end = -INFINITY, line_h = 0, spacing;
      gboolean overlap = FALSE;
      for (guint i = 0; i < out->ticks->n_ticks; i++)
        {
          IvTick *t = &out->ticks->ticks[i];
          double w, h, centre;
          if (!t->label)
            continue;
          _iv_chart_text_size (ctx, t->label, 0.92, FALSE, &w, &h);
          line_h = MAX (line_h, h);
          centre = iv_scale_normalize (L->kind[a], L->lo[a], L->hi[a], t->value) * length;
          /* names side by side need only a space between them */
          overlap |= centre - w / 2 < prev_end + 3;
          prev_end = centre + w / 2;
        }
      spacing = length / out->ticks->n_ticks;
      if (overlap && spacing > 0)
        {
          guint every = (guint) ceil ((line_h * 0.8 + 2) / spacing);
          out->turned = TRUE;
          out->turned_max = MAX (40, L->height / 4);
          for (guint i = 0; every > 1 && i < out->ticks->n_ticks; i++)
            if (i % every != 0)
              g_clear_pointer (&out->ticks->ticks[i].label, g_free);
        }
    }
  for (guint i = 0; i < out->ticks->n_ticks; i++)
    if (out->ticks->ticks[i].label)
      {
        double w, h;
        _iv_chart_text_size (ctx, out->ticks->ticks[i].label, 0.92, FALSE, &w, &h);
        if (out->turned)
          {
            /* drawn turned: its length is the height it takes, its line the width */
            double t = w;
            w = h, h = MIN (t, out->turned_max);
          }
        out->max_w = MAX (out->max_w, w);
        out->max_h = MAX (out->max_h, h);
      }
}

gboolean
_iv_chart_series_in_legend (const IvSeries *s)
{
  return s->in_legend && s->name && s->name[0];
}

/* Legend names longer than this are ellipsized, so a legend always fits the figure. */
static double
legend_text_limit (const IvChartCtx *ctx, IvLegendPlacement placement)
{
  double w = ctx->L->width;
  return placement == IV_LEGEND_RIGHT ? MAX (60, w / 3 - 40) : MAX (60, w - 2 * IV_CHART_PAD - 40);
}

static LegendSize
measure_legend_names (IvChartCtx *ctx, IvLegendPlacement placement, gboolean short_names)
{
  LegendSize size = { 0 };
  double text_w, text_h;

  _iv_chart_text_size (ctx, "Ag", 0.92, FALSE, &text_w, &text_h);
  size.row_h = text_h + 4;
  size.swatch = 18;
  size.short_names = short_names;
  for (guint i = 0; i < ctx->chart->series->len; i++)
    {
      IvSeries *s = ctx->chart->series->pdata[i];
      if (!_iv_chart_series_in_legend (s))
        continue;
      ctx->max_text_w = legend_text_limit (ctx, placement);
      _iv_chart_text_size (ctx, short_names ? s->short_name : s->name, 0.92, FALSE, &text_w,
                           &text_h);
      size.truncated |= pango_layout_is_ellipsized (ctx->text);
      ctx->max_text_w = 0;
      size.w = MAX (size.w, size.swatch + 6 + text_w);
      size.entries++;
    }
  size.rows = size.entries;
  size.cols = 1;
  size.col_w = size.w + 16;
  /* Below the plot, entries flow into as many columns as the width takes: a long list of
   * one column would take the plot's height on a paper-sized page. */
  if (placement == IV_LEGEND_BOTTOM && size.entries > 1)
    {
      double avail = ctx->L->width - 2 * IV_CHART_PAD;
      size.cols = CLAMP ((guint) (avail / size.col_w), 1, size.entries);
      size.rows = (size.entries + size.cols - 1) / size.cols;
      /* as many columns as needed for these rows: no column left half empty */
      size.cols = (size.entries + size.rows - 1) / size.rows;
    }
  if (short_names && ctx->chart->legend_title)
    {
      _iv_chart_text_size (ctx, ctx->chart->legend_title, 0.92, TRUE, &text_w, &text_h);
      size.title_h = size.row_h;
      size.cols = MAX (size.cols, 1);
    }
  if (size.rows)
    {
      size.w = MAX (size.cols * size.col_w, size.title_h > 0 ? text_w + 16 : 0);
      size.h = size.title_h + size.rows * size.row_h + 10;
    }
  return size;
}

/* The legend's size with the series' names; below the plot, where they would take more
 * than two rows and every entry has a short name, with those under the legend title
 * when that saves a row (a paper column's nine ISL × OSL groups took half its height,
 * issue 31). */
static LegendSize
measure_legend (IvChartCtx *ctx, IvLegendPlacement placement)
{
  LegendSize full = measure_legend_names (ctx, placement, FALSE), brief;
  gboolean all_short = full.entries > 0;

  if (placement != IV_LEGEND_BOTTOM || full.rows <= 2)
    return full;
  for (guint i = 0; i < ctx->chart->series->len && all_short; i++)
    {
      const IvSeries *s = ctx->chart->series->pdata[i];
      all_short = !_iv_chart_series_in_legend (s) || (s->short_name && s->short_name[0]);
    }
  if (!all_short)
    return full;
  brief = measure_legend_names (ctx, placement, TRUE);
  return brief.h < full.h - 0.5 ? brief : full;
}

void
_iv_chart_layout (IvChartCtx *ctx, double width, double height, AxisTicks ticks[IV_N_AXES],
                  LegendSize *legend)
{
  IvChart *chart = ctx->chart;
  IvChartLayout *L = ctx->L;
  double top = IV_CHART_PAD, bottom = IV_CHART_PAD, left = IV_CHART_PAD, right = IV_CHART_PAD;
  double w, h, line_h;

  _iv_chart_text_size (ctx, "Ag", 0.92, FALSE, &w, &line_h);
  ctx->max_text_w = width - 2 * IV_CHART_PAD;
  if (chart->title)
    {
      /* a title wraps rather than lose its end on a narrow page */
      ctx->max_lines = 3;
      _iv_chart_text_size (ctx, chart->title, IV_CHART_TITLE_SCALE (chart), TRUE, &w, &h);
      ctx->max_lines = 0;
      top += h + 2;
    }
  if (chart->subtitle)
    {
      /* a long subtitle (a configuration) wraps to a second line on a narrow page */
      ctx->max_lines = IV_CHART_SUBTITLE_LINES (height);
      _iv_chart_text_size (ctx, chart->subtitle, 0.95, FALSE, &w, &h);
      ctx->max_lines = 0;
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
      && (legend->w > (width - 2 * IV_CHART_PAD) * 0.45
          || legend->h > (height - top - 2 * IV_CHART_PAD) * 0.45))
    {
      L->legend_placement = IV_LEGEND_BOTTOM;
      *legend = measure_legend (ctx, IV_LEGEND_BOTTOM);
    }
  /* A legend beside the plot that would cut its names short goes below it, where
   * entries flow into columns across the page (a roofline's on a paper column). */
  if (L->legend_placement == IV_LEGEND_RIGHT && legend->truncated)
    {
      L->legend_placement = IV_LEGEND_BOTTOM;
      *legend = measure_legend (ctx, IV_LEGEND_BOTTOM);
    }
  /* A legend below that would take over a third of a short page's room under the titles
   * (a paper column's nine ISL × OSL groups left the plot ~60 px, issue 31) goes beside
   * the plot instead — the short names under the legend's title where every series has
   * one — when that column fits the room's height, uncut, in a third of the width. */
  if ((chart->legend == IV_LEGEND_AUTO || ctx->legend_moved)
      && L->legend_placement == IV_LEGEND_BOTTOM && legend->rows > 1
      && legend->h > (height - top - IV_CHART_PAD) / 3)
    {
      gboolean all_short = chart->legend_title != NULL;
      LegendSize beside;
      for (guint i = 0; i < chart->series->len && all_short; i++)
        {
          const IvSeries *s = chart->series->pdata[i];
          all_short = !_iv_chart_series_in_legend (s) || (s->short_name && s->short_name[0]);
        }
      beside = measure_legend_names (ctx, IV_LEGEND_RIGHT, all_short);
      if (!beside.truncated && beside.w <= (width - 2 * IV_CHART_PAD) / 3
          && beside.h <= height - top - IV_CHART_PAD)
        {
          L->legend_placement = IV_LEGEND_RIGHT;
          *legend = beside;
        }
    }
  if (L->legend_placement == IV_LEGEND_RIGHT && legend->rows)
    right += legend->w + 8;
  else if (L->legend_placement == IV_LEGEND_BOTTOM && legend->rows)
    /* the legend's entries only, 4 px under the x title: its height counts a frame's
     * padding above and below its rows (BOX_INSET each), and below the plot it has no
     * frame — with 8 px more on top, the x title floated ~20 px above it (issue 31) */
    bottom += legend->h - 2 * BOX_INSET + 4;

  /* A heatmap's colour bar and its labels sit right of the plot. */
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (s->kind == IV_SERIES_HEATMAP && s->visible && s->vmax >= s->vmin && !chart->colorbar_off)
        {
          IvScaleSpec spec = { IV_SCALE_LINEAR, s->value_unit };
          g_autoptr (IvTicks) t
              = iv_ticks_compute (&spec, s->vmin, s->vmax > s->vmin ? s->vmax : s->vmin + 1, 5);
          double label_w = 0;
          for (guint k = 0; k < t->n_ticks; k++)
            {
              _iv_chart_text_size (ctx, t->ticks[k].label, 0.85, FALSE, &w, &h);
              label_w = MAX (label_w, w);
            }
          right += 10 + 12 + 4 + label_w;
          /* the unit, turned, right of the labels (over the bar it ran into the title
           * above and off the page) */
          if (t->unit_label)
            right += line_h + 4;
          break;
        }
    }

  /* Axis titles sit outside the tick labels. */
  if (chart->axis[IV_AXIS_X].title)
    bottom += line_h + 6;
  if (chart->axis[IV_AXIS_Y].title)
    left += line_h + 6;
  if (L->has_y2 && chart->axis[IV_AXIS_Y2].title)
    right += line_h + 6;

  /* Two passes: the y labels' width sets the plot width the x ticks are fitted to. */
  memset (ticks, 0, sizeof (AxisTicks) * IV_N_AXES);
  for (int pass = 0, over_l = 0, over_r = 0; pass < 2; pass++)
    {
      double l = left, r = right, b = bottom, l0, r0;

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
      /* the x labels are fitted to the width the plot keeps once the first and last
       * labels' overhang (the last pass's) is taken off: fitted to the wider plot, a
       * narrow panel's "50 ms" ran into "100 ms" */
      L->plot_w = MAX (20, width - l - r - over_l - over_r);
      fit_ticks (ctx, IV_AXIS_X, L->plot_w, &ticks[IV_AXIS_X]);
      l0 = l, r0 = r;
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
              if (ticks[IV_AXIS_X].turned)
                tw = th; /* upright: a line's height across */
              px = iv_scale_normalize (L->kind[IV_AXIS_X], L->lo[IV_AXIS_X], L->hi[IV_AXIS_X],
                                       xt->ticks[i].value)
                   * L->plot_w;
              l = MAX (l, left + tw / 2 - px + ticks[IV_AXIS_Y].max_w * 0);
              r = MAX (r, right + tw / 2 - (L->plot_w - px));
            }
          b += ticks[IV_AXIS_X].max_h + TICK_LEN + 4;
        }
      over_l = (int) ceil (MAX (0, l - l0)), over_r = (int) ceil (MAX (0, r - r0));
      L->plot_x = l;
      L->plot_y = top;
      L->plot_w = MAX (20, width - l - r);
      L->plot_h = MAX (20, height - top - b);
    }
  /* An x title wider than the page wraps to a second line (the sweep's key to its
   * marks), the plot a line shorter, before it is cut */
  ctx->title_two_lines[IV_AXIS_X] = FALSE;
  if (chart->axis[IV_AXIS_X].title
      && axis_title_too_long (ctx, chart, IV_AXIS_X, ticks[IV_AXIS_X].ticks,
                              width - 2 * IV_CHART_PAD))
    {
      ctx->title_two_lines[IV_AXIS_X] = TRUE;
      L->plot_h = MAX (20, L->plot_h - line_h);
    }
  /* A y title longer than the plot is high goes on two lines, its unit under it, where
   * cutting it would leave "Outp… (tokens/s/GPU)": the plot gives up a line's width. */
  for (IvAxisId a = IV_AXIS_Y; a <= IV_AXIS_Y2; a++)
    {
      ctx->title_two_lines[a] = FALSE;
      if ((a == IV_AXIS_Y || L->has_y2) && chart->axis[a].title && ticks[a].ticks
          && ticks[a].ticks->unit_label && !chart->axis[a].hide_labels
          && axis_title_too_long (ctx, chart, a, ticks[a].ticks,
                                  L->plot_h + y_title_below (ctx, ticks))
          && !short_title_fits (ctx, chart, a, ticks[a].ticks,
                                L->plot_h + y_title_below (ctx, ticks)))
        {
          ctx->title_two_lines[a] = TRUE;
          if (a == IV_AXIS_Y)
            L->plot_x += line_h;
          L->plot_w = MAX (20, L->plot_w - line_h);
        }
    }
}

/* -------- drawing the frame -------- */

void
_iv_chart_draw_grid (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES])
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

void
_iv_chart_draw_axes (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES])
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
              if (t->label && !chart->axis[a].hide_labels && tk == ticks[IV_AXIS_X].ticks
                  && ticks[IV_AXIS_X].turned)
                {
                  /* upright, reading upwards, its end at the tick; a name longer than a
                   * quarter of the page loses its middle to … (hovering its bar names it) */
                  cairo_save (cr);
                  cairo_translate (cr, x, y1 + TICK_LEN + 3);
                  cairo_rotate (cr, -G_PI / 2);
                  ctx->max_text_w = ticks[IV_AXIS_X].turned_max;
                  ctx->allow = IV_TEXT_MAY_ELLIPSIZE;
                  ctx->middle = TRUE;
                  _iv_chart_show_text (ctx, t->label, 0, 0, 1, 0.5, 0.92, FALSE, fg);
                  ctx->middle = FALSE;
                  ctx->allow = 0;
                  ctx->max_text_w = 0;
                  cairo_restore (cr);
                }
              else if (t->label && !chart->axis[a].hide_labels)
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
    /* centred on the plot, as long as the page allows on both sides of its centre */
    double x_room
        = L->plot_w + 2 * MAX (0, MIN (L->plot_x, L->width - L->plot_x - L->plot_w) - IV_CHART_PAD);
    /* above the plot are the titles; below it, left of the x labels, the y title may run
     * down to the x title's line (a paper column's plot is short: "Output/GPU (avg)" over
     * "(k tokens/s/GPU)" ran up into the subtitle, issue 31) */
    double y_room = L->plot_h + y_title_below (ctx, ticks);
    g_autofree char *xt = fit_axis_title (ctx, chart, IV_AXIS_X, ticks[IV_AXIS_X].ticks, x_room);
    g_autofree char *yt = fit_axis_title (ctx, chart, IV_AXIS_Y, ticks[IV_AXIS_Y].ticks, y_room);
    g_autofree char *y2t
        = L->has_y2 ? fit_axis_title (ctx, chart, IV_AXIS_Y2, ticks[IV_AXIS_Y2].ticks, y_room)
                    : NULL;
    double label_h = chart->axis[IV_AXIS_X].hide_labels ? 0 : ticks[IV_AXIS_X].max_h;

    if (xt && ctx->title_two_lines[IV_AXIS_X])
      {
        /* across the page, two lines centred under the plot, cut only past them */
        g_autofree char *full = axis_title_with_unit (chart, IV_AXIS_X, ticks[IV_AXIS_X].ticks);
        /* the lines centred in a box as wide as the page (Pango centres them in it) */
        ctx->max_text_w = L->width - 2 * IV_CHART_PAD;
        ctx->max_lines = 2;
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_CENTER);
        _iv_chart_show_text (ctx, full, IV_CHART_PAD, y1 + TICK_LEN + 6 + label_h, 0, 0, 0.95,
                             FALSE, fg);
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_LEFT);
        ctx->max_lines = 0;
        ctx->max_text_w = 0;
      }
    else if (xt)
      _iv_chart_show_text (ctx, xt, x0 + L->plot_w / 2, y1 + TICK_LEN + 6 + label_h, 0.5, 0, 0.95,
                           FALSE, fg);
    if (yt)
      {
        double lw = chart->axis[IV_AXIS_Y].hide_labels ? 0 : ticks[IV_AXIS_Y].max_w;
        cairo_save (cr);
        cairo_translate (cr,
                         x0 - TICK_LEN - 8 - lw - line_h / 2 - 2
                             - (ctx->title_two_lines[IV_AXIS_Y] ? line_h / 2 : 0),
                         y0 + y_room / 2);
        cairo_rotate (cr, -G_PI / 2);
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_CENTER);
        _iv_chart_show_text (ctx, yt, 0, 0, 0.5, 0.5, 0.95, FALSE, fg);
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_LEFT);
        cairo_restore (cr);
      }
    if (y2t)
      {
        double lw = chart->axis[IV_AXIS_Y2].hide_labels ? 0 : ticks[IV_AXIS_Y2].max_w;
        cairo_save (cr);
        cairo_translate (cr,
                         x1 + TICK_LEN + 8 + lw + line_h / 2 + 2
                             + (ctx->title_two_lines[IV_AXIS_Y2] ? line_h / 2 : 0),
                         y0 + y_room / 2);
        cairo_rotate (cr, G_PI / 2);
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_CENTER);
        _iv_chart_show_text (ctx, y2t, 0, 0, 0.5, 0.5, 0.95, FALSE, fg);
        pango_layout_set_alignment (ctx->text, PANGO_ALIGN_LEFT);
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

static double data_under (IvChartCtx *ctx, double x, double y, double w, double h);

/* The least gap between two labels side by side, in device pixels, past their plates:
 * closer, two labels read as one. */
#define LABEL_GAP 8.0

/* A vertical line's label goes beside it at the top or the bottom of the plot, on whichever
 * side fits inside the plot and hides the fewest data points (a roofline's ridge label
 * would otherwise sit on the stages along the compute ceiling), never over a label placed
 * before (@placed: x, y, w, h each): two lines close together (p90 and p99, two ridges on
 * a narrow page) have their labels stacked a line apart. */
static void
place_vline_label (IvChartCtx *ctx, const char *text, double x, GArray *placed)
{
  IvChartLayout *L = ctx->L;
  double w, h, best = INFINITY, bx = x + 4, by = L->plot_y + 2, bxa = 0, bya = 0;
  double box[4] = { x + 4, L->plot_y + 2, 0, 0 };

  _iv_chart_text_size (ctx, text, 0.85, FALSE, &w, &h);
  box[2] = w, box[3] = h;
  for (int step = 0; step < 4; step++)
    for (int i = 0; i < 4; i++)
      {
        gboolean right = i % 2 == 0, top = i < 2;
        double lx = right ? x + 4 : x - 4 - w;
        double ly
            = top ? L->plot_y + 2 + step * (h + 1) : L->plot_y + L->plot_h - 2 - h - step * (h + 1);
        double cost;
        if (lx < L->plot_x || lx + w > L->plot_x + L->plot_w || ly < L->plot_y
            || ly + h > L->plot_y + L->plot_h)
          continue;
        /* Look a label's height around the box: point labels sit beside their markers.
         * The conventional top-right wins ties; a step down costs a little. */
        cost = data_under (ctx, lx - 12, ly - h, w + 24, 3 * h) + i * 0.01 + step * 0.5;
        /* a label's plate reaches 2 px past its text: two plates side by side with no
         * gap read as one label ("50 µs100 µs", issue 31), so a gap is kept between */
        for (guint k = 0; k < placed->len / 4; k++)
          {
            const double *p = &g_array_index (placed, double, 4 * k);
            if (lx < p[0] + p[2] + LABEL_GAP && p[0] < lx + w + LABEL_GAP && ly < p[1] + p[3]
                && p[1] < ly + h)
              cost += 1e9;
          }
        if (cost < best)
          {
            best = cost, bx = right ? x + 4 : x - 4, by = top ? ly : ly + h, bxa = right ? 0 : 1,
            bya = top ? 0 : 1;
            box[0] = lx, box[1] = ly;
          }
      }
  /* over another label whatever the spot: left out (the line is still drawn) */
  if (best >= 1e9)
    return;
  g_array_append_vals (placed, box, 4);
  show_plate_text (ctx, text, bx, by, bxa, bya);
}

void
_iv_chart_draw_annotations (IvChartCtx *ctx)
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  const IvColor *fg = &ctx->colors->foreground;
  static const double dash[] = { 5, 3 };
  g_autoptr (GArray) placed = g_array_new (FALSE, FALSE, sizeof (double));

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
            place_vline_label (ctx, a->text, x, placed);
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
          double px = s->kind == IV_SERIES_BOX ? _iv_px_x (ctx->L, s->position)
                                               : _iv_px_x (ctx->L, s->x[k]);
          double top = s->y[k] + (s->base ? s->base[k] : 0);
          double py = _iv_px_y (ctx->L, ya, top);
          if (px >= x && px <= x + w && py >= y && py <= y + h)
            hidden += step;
          /* Bars and areas cover everything below their top. */
          if ((s->kind == IV_SERIES_BARS || s->kind == IV_SERIES_AREA
               || s->kind == IV_SERIES_HISTOGRAM)
              && px >= x && px <= x + w && py <= y + h)
            hidden += step;
        }
    }
  return hidden;
}

/* Point labels (placed by _iv_chart_place_labels) under a rectangle, each counted as a
 * point: a legend over a label hides it as surely as over its point. */
static double
labels_under (IvChartCtx *ctx, double x, double y, double w, double h)
{
  double n = 0;

  for (guint i = 0; i < ctx->chart->series->len; i++)
    {
      IvSeries *s = ctx->chart->series->pdata[i];
      if (!s->visible || !s->label_at || !s->labels)
        continue;
      for (gsize k = 0; k < s->n; k++)
        {
          double lx = s->label_at[2 * k], ly = s->label_at[2 * k + 1], lw, lh;
          if (!isfinite (lx) || !s->labels[k])
            continue;
          _iv_chart_text_size (ctx, s->labels[k], 0.85, FALSE, &lw, &lh);
          if (lx < x + w && x < lx + lw && ly < y + h && y < ly + lh)
            n++;
        }
    }
  return n;
}

/* The corner (or edge middle) inside the plot that hides the fewest data points and
 * point labels; returns how many points it hides. */
double
_iv_chart_legend_inside (IvChartCtx *ctx, const LegendSize *size, double *out_x, double *out_y)
{
  IvChartLayout *L = ctx->L;
  double x, y, best;
  {
    const double m = 8;
    double cx[] = { L->plot_x + L->plot_w - size->w - m,   L->plot_x + m,
                    L->plot_x + L->plot_w - size->w - m,   L->plot_x + m,
                    L->plot_x + (L->plot_w - size->w) / 2, L->plot_x + (L->plot_w - size->w) / 2 };
    double cy[] = { L->plot_y + m,
                    L->plot_y + m,
                    L->plot_y + L->plot_h - size->h - m,
                    L->plot_y + L->plot_h - size->h - m,
                    L->plot_y + m,
                    L->plot_y + L->plot_h - size->h - m };
    best = INFINITY;
    x = cx[0];
    y = cy[0];
    for (guint i = 0; i < G_N_ELEMENTS (cx); i++)
      {
        double hidden = data_under (ctx, cx[i], cy[i], size->w, size->h)
                        + labels_under (ctx, cx[i], cy[i], size->w, size->h);
        if (hidden < best - 0.5)
          {
            best = hidden;
            x = cx[i];
            y = cy[i];
          }
      }
  }
  *out_x = x, *out_y = y;
  return best;
}

void
_iv_chart_draw_legend (IvChartCtx *ctx, const LegendSize *size)
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
      x = MIN (x, L->width - size->w - IV_CHART_PAD);
      y = L->plot_y;
    }
  else if (L->legend_placement == IV_LEGEND_BOTTOM)
    {
      x = MAX (IV_CHART_PAD, L->plot_x + (L->plot_w - size->w) / 2);
      x = MIN (x, MAX (IV_CHART_PAD, L->width - IV_CHART_PAD - size->w));
      /* frameless: the inset under the last row is the page's margin */
      y = L->height - IV_CHART_PAD - size->h + BOX_INSET;
    }
  else if (L->legend_chosen)
    x = L->legend_x, y = L->legend_y;
  else
    _iv_chart_legend_inside (ctx, size, &x, &y);
  /* the legend's title above its entries: the entries' box (hit tests) starts below it */
  if (size->title_h > 0)
    {
      _iv_chart_show_text (ctx, chart->legend_title, x + 8, y + 5 + size->title_h / 2, 0, 0.5, 0.92,
                           TRUE, &ctx->colors->foreground_dim);
      y += size->title_h;
    }
  L->legend_x = x, L->legend_y = y, L->legend_w = size->w, L->legend_h = size->h - size->title_h;
  L->legend_row_h = size->row_h;
  L->legend_col_w = size->col_w;
  L->n_legend_rows = size->rows;
  L->n_legend_cols = size->cols;

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
      double ry = y + 5 + (row / size->cols) * size->row_h + size->row_h / 2;
      double sx = x + 8 + (row % size->cols) * size->col_w;
      IvColor c = s->color;
      const IvColor *fg = s->visible ? &ctx->colors->foreground : &ctx->colors->foreground_dim;

      if (!_iv_chart_series_in_legend (s))
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
            cairo_set_dash (cr, (double[]){ 4, 2 }, 2, 0);
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
      _iv_chart_show_text (ctx, size->short_names ? s->short_name : s->name, sx + size->swatch + 6,
                           ry, 0, 0.5, 0.92, FALSE, fg);
      ctx->max_text_w = 0;
      row++;
    }
  cairo_restore (cr);
}

/* The legend alone in a band @width wide, its entries in columns, drawn from (0, 0) when
 * @draw: its height. For panels that share one legend below them all. */
double
_iv_chart_legend_band (IvChartCtx *ctx, double width, gboolean draw)
{
  IvChartLayout *L = ctx->L;
  LegendSize size;

  L->width = width;
  size = measure_legend (ctx, IV_LEGEND_BOTTOM);
  if (!size.rows)
    return 0;
  L->plot_x = 0, L->plot_w = width;
  L->height = size.h + IV_CHART_PAD;
  L->legend_placement = IV_LEGEND_BOTTOM;
  if (draw)
    _iv_chart_draw_legend (ctx, &size);
  return L->height;
}

static void draw_colorbar_titled (IvChartCtx *ctx, IvSeries *s, const char *title);

void
_iv_chart_draw_colorbar (IvChartCtx *ctx, IvSeries *s)
{
  draw_colorbar_titled (ctx, s, NULL);
}

double
_iv_chart_colorbar_strip (cairo_t *cr, IvChart *chart, const IvRenderOptions *options, double x,
                          double y, double h, gboolean draw)
{
  IvChartLayout L = { 0 };
  IvChartCtx ctx = { cr,
                     options->theme,
                     iv_theme_get_colors (options->theme),
                     NULL,
                     IV_CHART_FONT_PX * (options->font_scale > 0 ? options->font_scale : 1.0),
                     chart,
                     &L };
  IvSeries *s = NULL;
  double width = 0, w, h1, line_h;

  for (guint i = 0; i < chart->series->len && !s; i++)
    {
      IvSeries *t = chart->series->pdata[i];
      if (t->kind == IV_SERIES_HEATMAP && t->visible && t->vmax >= t->vmin)
        s = t;
    }
  if (!s)
    return 0;
  ctx.text = pango_cairo_create_layout (cr);
  {
    IvScaleSpec spec = { IV_SCALE_LINEAR, s->value_unit };
    g_autoptr (IvTicks) t
        = iv_ticks_compute (&spec, s->vmin, s->vmax > s->vmin ? s->vmax : s->vmin + 1, 5);
    double label_w = 0;
    _iv_chart_text_size (&ctx, "Ag", 0.85, FALSE, &w, &line_h);
    for (guint k = 0; k < t->n_ticks; k++)
      {
        _iv_chart_text_size (&ctx, t->ticks[k].label, 0.85, FALSE, &w, &h1);
        label_w = MAX (label_w, w);
      }
    width = 10 + 12 + 4 + label_w + line_h + 8;
    if (draw)
      {
        /* the bar's title: what the colours measure, with the unit ("TTFT (p90) (s)"),
         * where a lone unit read "s" */
        g_autofree char *title = t->unit_label && s->name
                                     ? g_strdup_printf ("%s (%s)", s->name, t->unit_label)
                                     : g_strdup (s->name ? s->name : t->unit_label);
        if (title)
          {
            _iv_chart_text_size (&ctx, title, 0.85, FALSE, &w, &h1);
            if (w > h)
              g_clear_pointer (&title, g_free);
          }
        L.plot_x = x, L.plot_w = 0, L.plot_y = y, L.plot_h = h;
        draw_colorbar_titled (&ctx, s, title);
      }
  }
  g_object_unref (ctx.text);
  return width;
}

static void
draw_colorbar_titled (IvChartCtx *ctx, IvSeries *s, const char *title)
{
  cairo_t *cr = ctx->cr;
  IvChartLayout *L = ctx->L;
  double x = L->plot_x + L->plot_w + 10, y = L->plot_y, w = 12, h = L->plot_h, label_w = 0;
  double lw, lh;
  g_autoptr (IvTicks) ticks = NULL;
  IvScaleSpec spec = { IV_SCALE_LINEAR, s->value_unit };
  guint target;

  if (!(s->vmax >= s->vmin))
    return;
  for (int i = 0; i < 64; i++)
    {
      IvColor c = iv_colormap_viridis ((i + 0.5) / 64);
      iv_color_set_source (cr, &c);
      cairo_rectangle (cr, x, y + h - (i + 1) * h / 64, w, h / 64 + 0.5);
      cairo_fill (cr);
    }
  /* as many labels as the bar's height holds a line and a half apart: five on a short
   * bar ran into each other */
  _iv_chart_text_size (ctx, "0", 0.85, FALSE, &lw, &lh);
  for (target = 5;; target--)
    {
      double prev = INFINITY;
      gboolean clash = FALSE;
      g_clear_pointer (&ticks, iv_ticks_free);
      ticks = iv_ticks_compute (&spec, s->vmin, s->vmax > s->vmin ? s->vmax : s->vmin + 1, target);
      for (guint i = 0; i < ticks->n_ticks; i++)
        {
          double ty
              = y + h - (ticks->ticks[i].value - s->vmin) / MAX (s->vmax - s->vmin, 1e-300) * h;
          if (ty < y - 0.5 || ty > y + h + 0.5)
            continue;
          clash |= prev - ty < lh * 1.1;
          prev = ty;
        }
      if (!clash || target <= 2)
        break;
    }
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      double ty = y + h - (ticks->ticks[i].value - s->vmin) / MAX (s->vmax - s->vmin, 1e-300) * h;
      if (ty < y - 0.5 || ty > y + h + 0.5)
        continue;
      _iv_chart_text_size (ctx, ticks->ticks[i].label, 0.85, FALSE, &lw, &lh);
      label_w = MAX (label_w, lw);
      _iv_chart_show_text (ctx, ticks->ticks[i].label, x + w + 4, ty, 0, 0.5, 0.85, FALSE,
                           &ctx->colors->foreground);
    }
  /* the unit the labels share (or the bar's title), turned, right of them */
  if (ticks->unit_label || title)
    {
      g_autofree char *unit = g_strdup (title ? title : ticks->unit_label);
      _iv_chart_text_size (ctx, unit, 0.85, FALSE, &lw, &lh);
      cairo_save (cr);
      cairo_translate (cr, x + w + 4 + label_w + 4 + lh / 2, y + h / 2);
      cairo_rotate (cr, G_PI / 2);
      _iv_chart_show_text (ctx, unit, 0, 0, 0.5, 0.5, 0.85, FALSE, &ctx->colors->foreground_dim);
      cairo_restore (cr);
    }
}
