/* iv-run-stats.c: a metric's statistics computed the way AIPerf computes them, so ours
 * and its summary agree on the same requests: mean, population standard deviation, and
 * percentiles by linear interpolation between closest ranks (numpy's default). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-run.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-stats.h"

void
iv_metric_summary_compute (const double *values, gsize n, const char *unit, IvMetricSummary *out)
{
  static const double qs[] = { 0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99 };
  double *ps[] = { &out->p1,  &out->p5,  &out->p10, &out->p25, &out->p50,
                   &out->p75, &out->p90, &out->p95, &out->p99 };
  double got[G_N_ELEMENTS (qs)];
  double sum = 0, sq = 0, mean;
  gsize m = 0;

  /* percentiles by selection, not a sort: a sweep's list metrics are tens of millions
   * of values */
  iv_stats_quantiles (values, n, qs, G_N_ELEMENTS (qs), got, &out->min, &out->max, &m);
  out->unit = g_strdup (unit);
  out->count = (double) m;
  out->source = IV_STATS_RECORDS;
  if (m == 0)
    {
      out->avg = out->std = NAN;
      for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
        *ps[i] = NAN;
      return;
    }
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      sum += values[i];
  mean = sum / m;
  /* Two passes: the sum of squared deviations stays exact for values far from zero
   * (epoch timestamps, large token counts). */
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      sq += (values[i] - mean) * (values[i] - mean);
  out->avg = mean;
  out->std = sqrt (sq / m);
  for (guint i = 0; i < G_N_ELEMENTS (ps); i++)
    *ps[i] = got[i];
}

double *
iv_metric_summary_stat (IvMetricSummary *s, const char *stat)
{
  static const struct
  {
    const char *name;
    gsize offset;
  } stats[] = {
    { "avg", G_STRUCT_OFFSET (IvMetricSummary, avg) },
    { "mean", G_STRUCT_OFFSET (IvMetricSummary, avg) },
    { "min", G_STRUCT_OFFSET (IvMetricSummary, min) },
    { "max", G_STRUCT_OFFSET (IvMetricSummary, max) },
    { "std", G_STRUCT_OFFSET (IvMetricSummary, std) },
    { "p1", G_STRUCT_OFFSET (IvMetricSummary, p1) },
    { "p5", G_STRUCT_OFFSET (IvMetricSummary, p5) },
    { "p10", G_STRUCT_OFFSET (IvMetricSummary, p10) },
    { "p25", G_STRUCT_OFFSET (IvMetricSummary, p25) },
    { "p50", G_STRUCT_OFFSET (IvMetricSummary, p50) },
    { "p75", G_STRUCT_OFFSET (IvMetricSummary, p75) },
    { "p90", G_STRUCT_OFFSET (IvMetricSummary, p90) },
    { "p95", G_STRUCT_OFFSET (IvMetricSummary, p95) },
    { "p99", G_STRUCT_OFFSET (IvMetricSummary, p99) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (stats); i++)
    if (g_str_equal (stats[i].name, stat))
      return &G_STRUCT_MEMBER (double, s, stats[i].offset);
  return NULL;
}

gboolean
iv_run_metric_stats_records (const IvRun *r, const char *tag, IvMetricSummary *out)
{
  const IvRunMetric *m = iv_run_get_metric (r, tag);

  if (!m)
    return FALSE;
  iv_metric_summary_compute ((const double *) m->values->data, m->values->len, m->unit, out);
  return TRUE;
}

/* AIPerf's summary covers every request; the records read may be fewer (a partial
 * export, damaged lines), so the summary comes first wherever it has the metric. */
/* A server quantity: AIPerf's aggregate over the profiling phase where it has one, else
 * the scrapes of the time series taken during the run's requests. */
static gboolean
server_stats (const IvRun *r, IvServerQuantity q, IvMetricSummary *out)
{
  const IvServerMetrics *m = r->server;
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean window = r->t1_ns > r->t0_ns;

  if (!m || !m->has[q])
    return FALSE;
  if (m->has_aggregate[q])
    {
      const IvServerStats *a = &m->agg[q];
      iv_metric_summary_compute (NULL, 0, iv_server_quantity_unit (q), out);
      out->avg = a->avg, out->min = a->min, out->max = a->max, out->std = a->std;
      out->p1 = a->p1, out->p5 = a->p5, out->p10 = a->p10, out->p25 = a->p25, out->p50 = a->p50;
      out->p75 = a->p75, out->p90 = a->p90, out->p95 = a->p95, out->p99 = a->p99;
      out->count = NAN; /* the aggregate does not say how many scrapes */
      out->source = IV_STATS_SERVER_AGGREGATE;
      return TRUE;
    }
  for (guint e = 0; e < m->endpoints->len; e++)
    {
      const IvServerEndpoint *ep = m->endpoints->pdata[e];
      for (guint i = 0; i < ep->ts_ns->len; i++)
        {
          gint64 t = g_array_index (ep->ts_ns, gint64, i);
          double v = g_array_index (ep->values[q], double, i);
          if (!isnan (v) && (!window || (t >= r->t0_ns && t <= r->t1_ns)))
            g_array_append_val (values, v);
        }
    }
  if (values->len == 0)
    return FALSE;
  iv_metric_summary_compute ((const double *) values->data, values->len,
                             iv_server_quantity_unit (q), out);
  out->source = IV_STATS_SERVER_SERIES;
  return TRUE;
}

gboolean
iv_run_metric_stats (const IvRun *r, const char *tag, IvMetricSummary *out)
{
  const IvMetricSummary *s = iv_run_get_summary (r, tag);
  IvServerQuantity q;

  /* the server's quantity where the run has it; a summary or records that happen to use
   * the same name (AIPerf does not, a hand-made file may) are read as any metric */
  if (iv_server_quantity_from_key (tag, &q) && r->server && r->server->has[q])
    return server_stats (r, q, out);

  if (s && isfinite (s->avg))
    {
      *out = *s;
      out->unit = g_strdup (s->unit);
      out->source = IV_STATS_SUMMARY;
      return TRUE;
    }
  if (iv_run_metric_stats_records (r, tag, out))
    return TRUE;
  if (!s)
    return FALSE;
  *out = *s;
  out->unit = g_strdup (s->unit);
  out->source = IV_STATS_SUMMARY;
  return TRUE;
}

double
iv_run_summary_requests (const IvRun *r)
{
  const IvMetricSummary *s = iv_run_get_summary (r, "request_count");
  return s && isfinite (s->avg) && s->avg >= 0 ? s->avg : NAN;
}

gsize
iv_run_good_records (const IvRun *r)
{
  return r->has_records ? r->n_requests - MIN (r->n_errors, r->n_requests) : 0;
}

char *
iv_run_records_note (const IvRun *r)
{
  double summary = iv_run_summary_requests (r);
  gsize good = iv_run_good_records (r);

  if (!r->has_records || isnan (summary) || (double) good >= summary)
    return NULL;
  return g_strdup_printf (
      _ ("%" G_GSIZE_FORMAT " of %.0f requests have per-request records: figures of "
         "requests show those %" G_GSIZE_FORMAT "; statistics are AIPerf's summary of all %.0f"),
      good, summary, good, summary);
}

static gboolean
close_to (double a, double b)
{
  if (isnan (a) || isnan (b))
    return TRUE; /* only what both have is compared */
  return fabs (a - b) <= 1e-6 * MAX (1.0, MAX (fabs (a), fabs (b)));
}

char *
iv_run_stats_note (const IvRun *r, const char *tag)
{
  const IvMetricSummary *s = iv_run_get_summary (r, tag);
  IvMetricSummary rec = { 0 };
  char *note = NULL;

  /* a summary of the avg alone is a total or a rate (request_count, a throughput; aiperf's
   * _is_single_stat_metric), not the mean of the records' values: nothing to compare */
  if (!s || !isfinite (s->avg) || (!isfinite (s->p50) && !isfinite (s->std))
      || !iv_run_metric_stats_records (r, tag, &rec))
    return NULL;
  {
    /* the first statistic on which they part, with both values */
    const struct
    {
      const char *name;
      double ours, theirs;
    } stats[] = {
      { "avg", rec.avg, s->avg }, { "p50", rec.p50, s->p50 }, { "p99", rec.p99, s->p99 },
      { "min", rec.min, s->min }, { "max", rec.max, s->max }, { "std", rec.std, s->std },
    };
    for (guint i = 0; i < G_N_ELEMENTS (stats) && !note; i++)
      if (!close_to (stats[i].ours, stats[i].theirs))
        note = g_strdup_printf (
            _ ("%s: the %.0f values in the records give %s %.6g %s, AIPerf's summary says "
               "%.6g; the summary's statistics are shown"),
            tag, rec.count, stats[i].name, stats[i].ours, s->unit ? s->unit : "", stats[i].theirs);
  }
  iv_metric_summary_clear (&rec);
  return note;
}

guint
iv_run_gpu_count (const IvRun *r, IvGpuCountSource *source)
{
  IvGpuCountSource from;
  guint n;

  if (r->gpus_override)
    from = IV_GPUS_USER, n = r->gpus_override;
  else if (r->gpus->len)
    from = IV_GPUS_TELEMETRY, n = r->gpus->len;
  else if (r->summary_gpu_uuids)
    from = IV_GPUS_SUMMARY, n = r->summary_gpu_uuids;
  else
    from = IV_GPUS_ASSUMED, n = 1;
  if (source)
    *source = from;
  return n;
}

/* aiperf sums the GPUs of every endpoint in the summary's telemetry_data
 * (TelemetryMixin.calculate_gpu_count_from_telemetry); without it, none. */
guint
iv_run_gpu_count_aiperf (const IvRun *r)
{
  return r->summary_gpu_pairs;
}

char *
iv_run_gpu_note (const IvRun *r)
{
  IvGpuCountSource from;
  guint n = iv_run_gpu_count (r, &from), theirs = iv_run_gpu_count_aiperf (r);

  if (from == IV_GPUS_ASSUMED && r->telemetry_collected)
    return g_strdup (_ ("GPU telemetry was collected but found no GPU: per-GPU throughput is "
                        "not drawn, as aiperf plot does not (--gpus N sets the count)"));
  if (from == IV_GPUS_ASSUMED)
    return g_strdup (
        _ ("no GPU telemetry: per-GPU throughput assumes 1 GPU (--gpus N sets the count)"));
  if (theirs && theirs != n)
    {
      g_autofree char *count = g_strdup_printf (
          from == IV_GPUS_USER ? g_dngettext (NULL, "%u GPU (as set)", "%u GPUs (as set)", n)
                               : g_dngettext (NULL, "%u GPU by UUID", "%u GPUs by UUID", n),
          n);
      return g_strdup_printf (
          _ ("%s; AIPerf counts %u (one per telemetry endpoint reporting a GPU, the same GPU "
             "scraped twice counted twice), so its per-GPU throughput is %.3g× this"),
          count, theirs, (double) n / theirs);
    }
  return NULL;
}
