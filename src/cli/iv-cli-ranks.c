/* iv-cli-ranks.c: a distributed job's figures for `trace DIR -o FIGURE`: per-rank
 * stacked bars of HTA's temporal breakdown, and the straggler heat map (rank ×
 * collective instance, each cell the time that rank waited in that instance). Charts of
 * the chart toolkit, drawn through the shared export path. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-chart-grid.h"
#include "iv-chart.h"
#include "iv-cli-ranks.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-trace-ranks.h"

#define SECONDS ((IvUnit){ IV_UNIT_SECONDS, 1.0, NULL })

static GPtrArray *
rank_names (const IvTraceRanks *job)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < job->ranks->len; i++)
    g_ptr_array_add (names,
                     g_strdup_printf (_ ("rank %d"), ((IvRank *) job->ranks->pdata[i])->rank));
  return names;
}

/* HTA's temporal breakdown as one bar a rank, each scaled to 100 % of its first → last
 * kernel span. */
static IvChart *
breakdown_chart (const IvTraceRanks *job)
{
  g_autoptr (GPtrArray) names = rank_names (job);
  guint n = job->ranks->len;
  g_autofree double *idle = g_new (double, n), *compute = g_new (double, n),
                    *other = g_new (double, n);
  IvChart *c = iv_chart_new ();

  for (guint i = 0; i < n; i++)
    {
      const IvRank *rk = job->ranks->pdata[i];
      compute[i] = rk->temporal.compute_ns * 1e-9;
      other[i] = rk->temporal.non_compute_ns * 1e-9;
      idle[i] = rk->temporal.idle_ns * 1e-9;
    }
  iv_chart_set_title (c, _ ("Temporal breakdown per rank"),
                      _ ("HTA's definitions: first → last GPU kernel of each rank"));
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_PERCENT, FALSE);
  iv_chart_axis_set_title (c, IV_AXIS_Y, _ ("share of the span"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("compute"), compute, n), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("non-compute"), other, n), 0xe69f00);
  iv_series_set_color (iv_chart_add_bars (c, _ ("idle"), idle, n), 0xbbbbbb);
  return c;
}

/* The wait of every rank in every collective instance; NaN (an empty cell) where the
 * rank has no part in it. */
static IvChart *
stragglers_chart (const IvTraceRanks *job)
{
  g_autoptr (GPtrArray) names = rank_names (job);
  guint n = job->ranks->len, m = job->instances->len;
  g_autofree double *v = g_new (double, (gsize) MAX (m, 1) * n);
  IvChart *c = iv_chart_new ();
  IvSeries *s;

  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < m; k++)
      {
        const IvCollectiveInstance *ci = &g_array_index (job->instances, IvCollectiveInstance, k);
        v[(gsize) i * m + k] = ci->wait_ns[i] == G_MININT64 ? NAN : ci->wait_ns[i] * 1e-9;
      }
  iv_chart_set_title (c, _ ("Stragglers: time each rank waited in each collective"),
                      _ ("the rank that started last waits 0; instances by collective, then n"));
  s = iv_chart_add_heatmap (c, _ ("wait"), v, m, n, -0.5, m - 0.5, -0.5, n - 0.5);
  iv_series_set_value_unit (s, SECONDS);
  iv_chart_axis_set_categories (c, IV_AXIS_Y, (const char *const *) names->pdata, n);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("collective instance"));
  iv_chart_axis_set_grid (c, IV_AXIS_X, FALSE);
  iv_chart_axis_set_grid (c, IV_AXIS_Y, FALSE);
  iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
  return c;
}

int
_iv_cli_ranks_figure (const IvTraceRanks *job, const char *output, const IvCliFigureArgs *fig)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvChartGrid) grid = NULL;
  IvExportOptions eo;
  IvFigure figure = { iv_chart_grid_render, NULL, "ranks", NULL };
  gboolean heat = job->stragglers && job->instances->len > 0;
  int rc;

  iv_export_options_init (&eo);
  eo.width = 1200, eo.height = heat ? 900 : 500, eo.dpi = 96;
  if ((rc = _iv_cli_figure_options ("trace", output, fig, &eo)) != IV_EXIT_OK)
    return rc;
  grid = iv_chart_grid_new (heat ? 2 : 1, 1);
  iv_chart_grid_set (grid, 0, 0, breakdown_chart (job));
  /* the waits only on one clock: without it they would be the clocks' difference */
  if (heat)
    iv_chart_grid_set (grid, 1, 0, stragglers_chart (job));
  figure.data = grid;
  if (!iv_export_to_file (&figure, &eo, output, &error))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}
