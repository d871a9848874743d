/* iv-run-stats.c: a metric's statistics computed the way AIPerf computes them, so ours
 * and its summary agree on the same requests: mean, population standard deviation, and
 * percentiles by linear interpolation between closest ranks (numpy's default). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-run.h"

#include <math.h>

#include "iv-stats.h"

void
iv_metric_summary_compute (const double *values, gsize n, const char *unit, IvMetricSummary *out)
{
  gsize m = 0;
  g_autofree double *sorted = iv_stats_sorted_copy (values, n, &m);
  double sum = 0, sq = 0, mean;
  static const double qs[] = { 0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99 };
  double *ps[] = { &out->p1, &out->p5, &out->p10, &out->p25, &out->p50, &out->p75, &out->p90, &out->p95, &out->p99 };

  out->unit = g_strdup (unit);
  out->count = (double) m;
  if (m == 0)
    {
      out->avg = out->min = out->max = out->std = NAN;
      for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
        *ps[i] = NAN;
      return;
    }
  for (gsize i = 0; i < m; i++)
    sum += sorted[i];
  mean = sum / m;
  /* Two passes: the sum of squared deviations stays exact for values far from zero
   * (epoch timestamps, large token counts). */
  for (gsize i = 0; i < m; i++)
    sq += (sorted[i] - mean) * (sorted[i] - mean);
  out->avg = mean;
  out->std = sqrt (sq / m);
  out->min = sorted[0];
  out->max = sorted[m - 1];
  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    *ps[i] = iv_stats_quantile (sorted, m, qs[i]);
}

gboolean
iv_run_metric_stats (const IvRun *r, const char *tag, IvMetricSummary *out)
{
  const IvRunMetric *m = iv_run_get_metric (r, tag);
  const IvMetricSummary *s;

  if (m)
    {
      iv_metric_summary_compute ((const double *) m->values->data, m->values->len, m->unit, out);
      return TRUE;
    }
  s = iv_run_get_summary (r, tag);
  if (!s)
    return FALSE;
  *out = *s;
  out->unit = g_strdup (s->unit);
  return TRUE;
}
