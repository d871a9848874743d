/* iv-render-isl-osl.c: every figure reads the runs through the sweep's ISL × OSL × load
 * grid (iv-isl-osl.h); repeated runs of one cell are averaged there. Sequence lengths
 * label rows and columns by their token counts, which is how people name the cells. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-isl-osl.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-isl-osl.h"
#include "iv-palette.h"
#include "iv-render-runs.h"
#include "iv-run-series.h"
#include "iv-units.h"

static char *
tokens_text (double v)
{
  return g_strdup_printf ("%.0f", v);
}

static char *
load_text (const IvIslOslGrid *g, double v)
{
  return g->load_field == IV_FIELD_CONCURRENCY ? g_strdup_printf (_ ("concurrency %g"), v)
                                               : iv_units_format_amount (v, _ ("requests/s"));
}

static char *
metric_with_stat (const IvPlotAxis *axis)
{
  g_autofree char *t = iv_metric_title (axis->metric);
  return g_strdup_printf ("%s (%s)", t, axis->stat ? axis->stat : "avg");
}

/* Panels in a near-square grid, wider than tall. */
static void
panel_grid (guint n, guint *rows, guint *columns)
{
  *columns = (guint) ceil (sqrt ((double) n));
  *rows = (n + *columns - 1) / *columns;
}

static guint32
rgb_of (const IvColor *c)
{
  return (guint32) lround (c->r * 255) << 16 | (guint32) lround (c->g * 255) << 8
         | (guint32) lround (c->b * 255);
}

IvChartGrid *
iv_isl_osl_heatmaps (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  g_autoptr (IvIslOslGrid) g = iv_isl_osl_grid_new (sweep, reason);
  const char *metric = spec->y.metric;
  g_autofree double *values = NULL;
  g_autofree char *what = NULL, *title = NULL;
  g_autoptr (GPtrArray) isl_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) osl_names = g_ptr_array_new_with_free_func (g_free);
  double lo = INFINITY, hi = -INFINITY;
  const IvRun *any;
  IvUnit unit;
  IvChartGrid *grid;
  guint rows, columns, cells;

  if (!g)
    return NULL;
  if (!metric)
    {
      *reason = g_strdup (_ ("the preset names no metric (y) to colour the cells by"));
      return NULL;
    }
  if (!(any = iv_isl_osl_any_run (g, metric)))
    {
      *reason = g_strdup_printf (_ ("no run has “%s”"), metric);
      return NULL;
    }
  unit = iv_runs_metric_unit (any, metric);
  cells = g->n_isl * g->n_osl;
  values = g_new (double, (gsize) g->n_load *cells);
  for (guint l = 0; l < g->n_load; l++)
    for (guint i = 0; i < g->n_isl; i++)
      for (guint o = 0; o < g->n_osl; o++)
        {
          double v = iv_isl_osl_value (g, l, i, o, metric, spec->y.stat);
          values[l * cells + i * g->n_osl + o] = v;
          if (isfinite (v))
            lo = MIN (lo, v), hi = MAX (hi, v);
        }
  for (guint i = 0; i < g->n_isl; i++)
    g_ptr_array_add (isl_names, tokens_text (g->isl[i]));
  for (guint o = 0; o < g->n_osl; o++)
    g_ptr_array_add (osl_names, tokens_text (g->osl[o]));
  what = metric_with_stat (&spec->y);
  panel_grid (g->n_load, &rows, &columns);
  grid = iv_chart_grid_new (rows, columns);
  title = spec->title ? g_strdup (spec->title) : g_strdup_printf (_ ("%s over ISL × OSL"), what);
  iv_chart_grid_set_title (grid, title);
  for (guint l = 0; l < g->n_load; l++)
    {
      IvChart *c = iv_chart_new ();
      g_autofree char *panel = load_text (g, g->load[l]);
      g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
      IvSeries *s;
      for (guint k = 0; k < cells; k++)
        g_ptr_array_add (labels, isfinite (values[l * cells + k])
                                     ? iv_unit_format_value (&unit, values[l * cells + k])
                                     : g_strdup (""));
      g_ptr_array_add (labels, NULL);
      iv_chart_set_title (c, panel, NULL);
      s = iv_chart_add_heatmap (c, what, values + l * cells, g->n_osl, g->n_isl, -0.5,
                                g->n_osl - 0.5, -0.5, g->n_isl - 0.5);
      iv_series_set_value_range (s, lo, hi);
      iv_series_set_value_unit (s, unit);
      iv_series_set_labels (s, (const char *const *) labels->pdata);
      iv_chart_axis_set_categories (c, IV_AXIS_X, (const char *const *) osl_names->pdata,
                                    osl_names->len);
      iv_chart_axis_set_categories (c, IV_AXIS_Y, (const char *const *) isl_names->pdata,
                                    isl_names->len);
      iv_chart_axis_set_title (c, IV_AXIS_X, iv_field_title (IV_FIELD_OSL));
      iv_chart_axis_set_title (c, IV_AXIS_Y, iv_field_title (IV_FIELD_ISL));
      iv_chart_axis_set_grid (c, IV_AXIS_X, FALSE);
      iv_chart_axis_set_grid (c, IV_AXIS_Y, FALSE);
      iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
      iv_chart_grid_set (grid, l / columns, l % columns, c);
    }
  /* every panel has the same rows and columns: their names once, at the grid's edges */
  iv_chart_grid_share_axes (grid, TRUE, TRUE);
  /* one value range for every panel (lo, hi above): one colour bar says it */
  iv_chart_grid_share_colorbar (grid, TRUE);
  /* three by three cells read best a little wider than tall: four loads side by side in a
   * short window, two by two on a page (at 1024 × 700 two rows left cells 6 px tall) */
  iv_chart_grid_set_reflow (grid, 1.4);
  return grid;
}

IvChartGrid *
iv_isl_osl_paretos (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  g_autoptr (IvIslOslGrid) g = iv_isl_osl_grid_new (sweep, reason);
  IvPlotSpec panel_spec;
  IvChartGrid *grid;
  guint drawn = 0;

  if (!g)
    return NULL;
  if (!spec->x.metric || !spec->y.metric)
    {
      *reason = g_strdup (_ ("the preset names no x or y metric"));
      return NULL;
    }
  grid = iv_chart_grid_new (g->n_isl, g->n_osl);
  {
    g_autofree char *xt = metric_with_stat (&spec->x), *yt = metric_with_stat (&spec->y);
    g_autofree char *title
        = spec->title ? g_strdup (spec->title)
                      : g_strdup_printf (_ ("Pareto curves of %s vs %s per ISL × OSL"), yt, xt);
    iv_chart_grid_set_title (grid, title);
  }
  panel_spec = *spec;
  panel_spec.type = IV_PLOT_PARETO;
  panel_spec.x_label = panel_spec.y_label = NULL;
  panel_spec.autoscale = NULL;
  /* rows: ISL from the top, short to long; columns: OSL, short to long */
  for (guint i = 0; i < g->n_isl; i++)
    for (guint o = 0; o < g->n_osl; o++)
      {
        g_autoptr (GPtrArray) runs = g_ptr_array_new ();
        g_autofree char *reason_here = NULL;
        g_autofree char *title = g_strdup_printf (_ ("ISL %.0f · OSL %.0f"), g->isl[i], g->osl[o]);
        IvSweep cell = { runs, sweep->varying, sweep->warnings, sweep->paths, sweep->flags };
        IvChart *c;
        for (guint l = 0; l < g->n_load; l++)
          {
            GPtrArray *here = g->cells[iv_isl_osl_index (g, l, i, o)];
            for (guint k = 0; here && k < here->len; k++)
              g_ptr_array_add (runs, here->pdata[k]);
          }
        if (runs->len == 0)
          continue;
        panel_spec.title = title;
        if (!(c = iv_runs_chart (&panel_spec, &cell, runs->pdata[0], &reason_here)))
          continue;
        iv_chart_set_title (c, title, NULL);
        {
          /* under the grid's "… per ISL × OSL" title, where the whole one would wrap */
          /* narrow no-break spaces: a thin space's width, and never broken there */
          g_autofree char *brief = g_strdup_printf ("%.0f\u202f×\u202f%.0f", g->isl[i], g->osl[o]);
          iv_chart_set_short_title (c, brief);
        }
        iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
        iv_chart_grid_set (grid, i, o, c);
        drawn++;
      }
  if (drawn == 0)
    {
      iv_chart_grid_free (grid);
      *reason
          = g_strdup_printf (_ ("no run has both “%s” and “%s”"), spec->x.metric, spec->y.metric);
      return NULL;
    }
  iv_chart_grid_share_axes (grid, TRUE, TRUE);
  /* as the heat maps: the page's shape sets the rows — one row of nine in the Runs pane's
   * 220 px at 1024 × 700, where three rows left each plot 20 px (issue 31) */
  iv_chart_grid_set_reflow (grid, 1.4);
  return grid;
}

IvSurface *
iv_isl_osl_surface (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  g_autoptr (IvIslOslGrid) g = iv_isl_osl_grid_new (sweep, reason);
  g_autoptr (IvSurface) s = NULL;
  const IvRun *any;
  guint meshes = 0;

  if (!g)
    return NULL;
  if (!spec->x.metric || !spec->y.metric)
    {
      *reason = g_strdup (_ ("the preset names no x or y metric"));
      return NULL;
    }
  if (g->n_isl < 2 || g->n_load < 2)
    {
      *reason = g_strdup (_ ("a surface needs at least two input lengths and two loads"));
      return NULL;
    }
  if (!(any = iv_isl_osl_any_run (g, spec->y.metric)))
    {
      *reason = g_strdup_printf (_ ("no run has “%s”"), spec->y.metric);
      return NULL;
    }
  s = iv_surface_new ();
  {
    g_autofree char *xt = metric_with_stat (&spec->x), *yt = metric_with_stat (&spec->y);
    g_autofree char *title
        = spec->title ? g_strdup (spec->title)
                      : g_strdup_printf (_ ("Pareto surface: %s vs %s over ISL"), yt, xt);
    g_autofree char *sub = g_strdup_printf (
        _ ("each line: one input length’s runs, %s rising along it · a surface per "
           "output length"),
        g->load_field == IV_FIELD_CONCURRENCY ? _ ("concurrency") : _ ("request rate"));
    iv_surface_set_title (s, title, sub);
    iv_surface_set_axis (s, IV_SURFACE_X, xt, iv_runs_metric_unit (any, spec->x.metric),
                         IV_SCALE_LINEAR);
    iv_surface_set_axis (s, IV_SURFACE_Y, iv_field_title (IV_FIELD_ISL), IV_UNIT_PLAIN,
                         IV_SCALE_LOG2);
    iv_surface_set_axis (s, IV_SURFACE_Z, yt, iv_runs_metric_unit (any, spec->y.metric),
                         IV_SCALE_LINEAR);
  }
  for (guint o = 0; o < g->n_osl; o++)
    {
      gsize n = (gsize) g->n_isl * g->n_load;
      g_autofree double *x = g_new (double, n), *y = g_new (double, n), *z = g_new (double, n);
      g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *name = g_strdup_printf (_ ("OSL %.0f"), g->osl[o]);
      guint usable = 0;
      for (guint i = 0; i < g->n_isl; i++)
        for (guint l = 0; l < g->n_load; l++)
          {
            gsize k = (gsize) i * g->n_load + l;
            x[k] = iv_isl_osl_value (g, l, i, o, spec->x.metric, spec->x.stat);
            z[k] = iv_isl_osl_value (g, l, i, o, spec->y.metric, spec->y.stat);
            y[k] = g->isl[i];
            usable += isfinite (x[k]) && isfinite (z[k]);
            g_ptr_array_add (labels, load_text (g, g->load[l]));
          }
      if (usable == 0)
        continue;
      {
        IvColor c = iv_palette_color (IV_THEME_LIGHT, o);
        iv_surface_add_mesh (s, name, g->n_isl, g->n_load, x, y, z,
                             (const char *const *) labels->pdata, rgb_of (&c));
      }
      meshes++;
    }
  if (meshes == 0)
    {
      *reason
          = g_strdup_printf (_ ("no run has both “%s” and “%s”"), spec->x.metric, spec->y.metric);
      return NULL;
    }
  return g_steal_pointer (&s);
}
