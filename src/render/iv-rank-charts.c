/* iv-rank-charts.c: a distributed job's charts (see the header), on the chart toolkit:
 * hover, zoom and export come with it. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-rank-charts.h"

#include <glib/gi18n.h>
#include <math.h>

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
IvChart *
iv_rank_chart_breakdown (const IvTraceRanks *job)
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
IvChart *
iv_rank_chart_stragglers (const IvTraceRanks *job)
{
  g_autoptr (GPtrArray) names = rank_names (job);
  guint n = job->ranks->len, m = job->instances->len;
  g_autofree double *v = g_new (double, (gsize) MAX (m, 1) * n);
  IvChart *c;
  IvSeries *s;

  /* the waits only on one clock: without it they would be the clocks' difference */
  if (!job->stragglers || m == 0)
    return NULL;
  c = iv_chart_new ();

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

IvChartGrid *
iv_rank_charts_grid (const IvTraceRanks *job)
{
  IvChart *heat = iv_rank_chart_stragglers (job);
  IvChartGrid *grid = iv_chart_grid_new (heat ? 2 : 1, 1);

  iv_chart_grid_set (grid, 0, 0, iv_rank_chart_breakdown (job));
  if (heat)
    iv_chart_grid_set (grid, 1, 0, heat);
  return grid;
}
