/* iv-render-serving.c: two panels on log axes sharing the per-GPU throughput: against the
 * throughput each user sees (1/ITL) and against TTFT. Each TP × EP is one colour; a point
 * that does not fit the memory left after the runtime reserve is a faint diamond and never
 * on the frontier; the frontier is a dark line through the points no other beats on both
 * axes. A measured sweep adds its runs as squares and its own frontier, dashed, each of its
 * frontier points labelled with the share of the bound it reached. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-serving.h"

#include <math.h>
#include <string.h>

#include "iv-units.h"

/* Okabe–Ito, then Paul Tol's muted: ten groups stay apart */
static const guint32 group_rgb[] = { 0x0072b2, 0xe69f00, 0x009e73, 0xcc79a7, 0x56b4e9,
                                     0xd55e00, 0x882255, 0x117733, 0x999933, 0x44aa99 };
#define FRONT_RGB 0x303030
#define MEASURED_RGB 0xc62828
#define NOFIT_RGB 0x9a9a9a

typedef struct
{
  double x, y;
} Pt;

static int
by_x (gconstpointer a, gconstpointer b)
{
  double u = ((const Pt *) a)->x, v = ((const Pt *) b)->x;
  return (u > v) - (u < v);
}

/* The frontier as a line, sorted along x. */
static void
add_front (IvChart *c, const char *name, GArray *pts, guint32 rgb, gboolean dashed)
{
  g_autofree double *x = NULL, *y = NULL;
  IvSeries *s;

  if (pts->len == 0)
    return;
  g_array_sort (pts, by_x);
  x = g_new (double, pts->len), y = g_new (double, pts->len);
  for (guint i = 0; i < pts->len; i++)
    x[i] = g_array_index (pts, Pt, i).x, y[i] = g_array_index (pts, Pt, i).y;
  s = iv_chart_add_line (c, name, x, y, pts->len);
  iv_series_set_color (s, rgb);
  iv_series_set_line_width (s, 2.5);
  iv_series_set_dashed (s, dashed);
}

/* @narrow: a paper column, where two panels side by side leave no room for notes: short
 * titles, no subtitles (the legend and the figure's title carry what they said). */
static IvChart *
panel (const IvServingFigure *f, gboolean ttft, IvLegendPlacement legend, gboolean narrow)
{
  const IvServingCurve *cv = f->curve;
  IvChart *c = iv_chart_new ();
  /* below a wide window's width (a paper page): axis titles short enough for its height */
  gboolean paper = legend == IV_LEGEND_BOTTOM;
  g_autoptr (GArray) front = g_array_new (FALSE, FALSE, sizeof (Pt));
  const char *gpu = iv_hardware_pe_word (cv->hw, FALSE);
  guint group = 0;

  if (narrow)
    iv_chart_set_title (c, ttft ? "Against TTFT" : "Against per user", NULL);
  else
    {
      g_autofree char *title
          = g_strdup_printf (ttft ? "Per %s against TTFT" : "Per %s against per user", gpu);
      /* one line each, so that both plots start at one height and their shared y axis
       * reads across; the memory rule is in the legend's name for the faint points */
      const char *sub = ttft ? "a bound, not a forecast" : "per user: 1 / ITL";
      iv_chart_set_title (c, title, sub);
    }
  iv_chart_axis_set_scale (c, IV_AXIS_X, IV_SCALE_LOG10);
  iv_chart_axis_set_scale (c, IV_AXIS_Y, IV_SCALE_LOG10);
  if (ttft)
    {
      iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_SECONDS, 1, NULL });
      iv_chart_axis_set_title (c, IV_AXIS_X, paper ? "TTFT" : "Time to first token");
    }
  else
    {
      iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_COUNT, 1, "tokens/s" });
      iv_chart_axis_set_title (c, IV_AXIS_X, paper ? "Per user" : "Output throughput per user");
    }
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_COUNT, 1, "tokens/s" });
  {
    g_autofree char *yt = g_strdup_printf (paper ? "Per %s" : "Output throughput per %s", gpu);
    iv_chart_axis_set_title (c, IV_AXIS_Y, yt);
  }
  iv_chart_axis_set_grid (c, IV_AXIS_X, TRUE);

  /* points by TP × EP, the fitting ones in their colour */
  for (guint i = 0; i < cv->points->len;)
    {
      const IvServingPoint *first = &g_array_index (cv->points, IvServingPoint, i);
      g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
      g_autofree char *name = NULL;
      guint j = i;
      for (; j < cv->points->len; j++)
        {
          const IvServingPoint *p = &g_array_index (cv->points, IvServingPoint, j);
          double x = ttft ? p->ttft_s : p->per_user;
          if (p->t != first->t || p->e != first->e)
            break;
          if (p->fits)
            {
              g_array_append_val (xs, x);
              g_array_append_val (ys, p->per_gpu);
            }
          if (ttft ? p->front_ttft : p->front_user)
            g_array_append_val (front, ((Pt){ x, p->per_gpu }));
        }
      name = first->e > 1 ? g_strdup_printf ("TP %" G_GINT64_FORMAT " × EP %" G_GINT64_FORMAT,
                                             first->t, first->e)
                          : g_strdup_printf ("TP %" G_GINT64_FORMAT, first->t);
      if (xs->len)
        {
          IvSeries *s
              = iv_chart_add_scatter (c, name, (double *) xs->data, (double *) ys->data, xs->len);
          iv_series_set_color (s, group_rgb[group % G_N_ELEMENTS (group_rgb)]);
          iv_series_set_marker (s, IV_MARKER_CIRCLE, 6);
          iv_series_set_alpha (s, 0.85);
        }
      group++;
      i = j;
    }
  /* what memory and the reserve rule out: shown, faint, never on the frontier */
  {
    g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
    for (guint i = 0; i < cv->points->len; i++)
      {
        const IvServingPoint *p = &g_array_index (cv->points, IvServingPoint, i);
        double x = ttft ? p->ttft_s : p->per_user;
        if (p->fits)
          continue;
        g_array_append_val (xs, x);
        g_array_append_val (ys, p->per_gpu);
      }
    if (xs->len)
      {
        g_autofree char *name = narrow
                                    ? g_strdup ("over memory")
                                    : g_strdup_printf ("over memory (%.0f %% kept for the runtime)",
                                                       100 * cv->base.reserve);
        IvSeries *s
            = iv_chart_add_scatter (c, name, (double *) xs->data, (double *) ys->data, xs->len);
        iv_series_set_color (s, NOFIT_RGB);
        iv_series_set_marker (s, IV_MARKER_DIAMOND, 5);
        iv_series_set_alpha (s, 0.45);
      }
  }
  add_front (c, narrow ? "bound" : "bound frontier", front, FRONT_RGB, FALSE);

  if (f->measured && f->n_measured)
    {
      g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) mf = g_array_new (FALSE, FALSE, sizeof (Pt));
      g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < f->n_measured; i++)
        {
          const IvServingMeasured *m = &f->measured[i];
          double x = ttft ? m->ttft_s : m->per_user;
          gboolean on = ttft ? m->front_ttft : m->front_user;
          if (!(x > 0) || !(m->per_gpu > 0))
            continue;
          g_array_append_val (xs, x);
          g_array_append_val (ys, m->per_gpu);
          /* the share of the bound, on the per-user panel, for the frontier's runs */
          g_ptr_array_add (labels,
                           !ttft && on && isfinite (m->efficiency) ? g_strdup_printf (
                               m->efficiency >= 0.1 ? "%.0f %%" : "%.2g %%", 100 * m->efficiency)
                                                                   : g_strdup (""));
          if (on)
            g_array_append_val (mf, ((Pt){ x, m->per_gpu }));
        }
      g_ptr_array_add (labels, NULL);
      if (xs->len)
        {
          IvSeries *s = iv_chart_add_scatter (
              c, !narrow && f->measured_name ? f->measured_name : "measured", (double *) xs->data,
              (double *) ys->data, xs->len);
          iv_series_set_color (s, MEASURED_RGB);
          iv_series_set_marker (s, IV_MARKER_SQUARE, 7);
          iv_series_set_alpha (s, 1);
          iv_series_set_labels (s, (const char *const *) labels->pdata);
          add_front (c, narrow ? "measured front" : "measured frontier", mf, MEASURED_RGB, TRUE);
        }
    }
  /* a little room at both ends of the log x axis: a point at the extreme sat on the
   * axis line, half hidden by it (and, in the TTFT panel, by the shared y axis) */
  {
    double lo = INFINITY, hi = -INFINITY;
    for (guint i = 0; i < cv->points->len; i++)
      {
        const IvServingPoint *p = &g_array_index (cv->points, IvServingPoint, i);
        double x = ttft ? p->ttft_s : p->per_user;
        if (x > 0 && isfinite (x))
          lo = MIN (lo, x), hi = MAX (hi, x);
      }
    for (guint i = 0; f->measured && i < f->n_measured; i++)
      {
        double x = ttft ? f->measured[i].ttft_s : f->measured[i].per_user;
        if (x > 0 && isfinite (x))
          lo = MIN (lo, x), hi = MAX (hi, x);
      }
    if (isfinite (lo) && hi >= lo)
      iv_chart_axis_set_range (c, IV_AXIS_X, lo / 1.3, hi * 1.3);
  }
  iv_chart_set_legend (c, ttft ? legend : IV_LEGEND_HIDDEN);
  return c;
}

/* @legend: where the TTFT panel puts the one legend (the per-user panel has none); below
 * the panels, it is one legend for both. */
static IvChartGrid *
serving_grid (const IvServingFigure *f, IvLegendPlacement legend, gboolean narrow)
{
  const IvServingCurve *cv = f->curve;
  IvChartGrid *g = iv_chart_grid_new (1, 2);
  const IvConfig *b = &cv->base;
  g_autofree char *title = NULL;

  title = g_strdup_printf ("Serving bound · %s on %s · ISL %.0f, OSL %.0f · W %s A %s KV %s%s",
                           cv->model->name, cv->hw->name, cv->isl, cv->osl, iv_format_id (b->f_w),
                           iv_format_id (b->f_a), iv_format_id (b->f_kv),
                           b->overlap ? " · overlap" : "");
  iv_chart_grid_set_title (g, title);
  iv_chart_grid_set (g, 0, 0, panel (f, FALSE, legend, narrow));
  iv_chart_grid_set (g, 0, 1, panel (f, TRUE, legend, narrow));
  iv_chart_grid_share_axes (g, FALSE, TRUE);
  if (legend == IV_LEGEND_BOTTOM)
    iv_chart_grid_set_legend (g, 0, 1);
  return g;
}

IvChartGrid *
iv_serving_grid (const IvServingFigure *f)
{
  return serving_grid (f, IV_LEGEND_RIGHT, FALSE);
}

gboolean
iv_render_serving (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                   double height, GError **error)
{
  const IvServingFigure *f = data;
  g_autoptr (IvChartGrid) g = NULL;

  if (!f || !f->curve || f->curve->points->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no serving curve to draw");
      return FALSE;
    }
  /* narrower than a wide window's figure area: one legend below both panels, in columns,
   * so that neither panel is squeezed nor an entry cut and both plots keep one height */
  g = serving_grid (f, width < 1100 ? IV_LEGEND_BOTTOM : IV_LEGEND_RIGHT, width < 500);
  return iv_chart_grid_render (cr, g, options, width, height, error);
}
