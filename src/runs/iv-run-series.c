/* iv-run-series.c: series the run plots draw (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-run-series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-stats.h"

/* Indices (guint32) ordered by the times (gint64) of the GArray @data at them. */
static gint
compare_by_time (gconstpointer a, gconstpointer b, gpointer data)
{
  const GArray *times = data;
  gint64 x = g_array_index (times, gint64, *(const guint32 *) a);
  gint64 y = g_array_index (times, gint64, *(const guint32 *) b);
  return (x > y) - (x < y);
}

GArray *
iv_run_order_by_start (const IvRun *r)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), r->n_requests);

  for (guint32 i = 0; i < r->n_requests; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_by_time, r->start_ns);
  return order;
}

double *
iv_run_metric_per_request (const IvRun *r, const char *tag)
{
  const IvRunMetric *m = iv_run_get_metric (r, tag);
  double *out = g_new (double, MAX (r->n_requests, 1));
  g_autofree guint *count = NULL;

  for (gsize i = 0; i < r->n_requests; i++)
    out[i] = NAN;
  if (!m)
    return out;
  count = g_new0 (guint, MAX (r->n_requests, 1));
  for (guint k = 0; k < m->values->len; k++)
    {
      guint32 req = g_array_index (m->request, guint32, k);
      double v = g_array_index (m->values, double, k);
      if (req >= r->n_requests || !isfinite (v))
        continue;
      out[req] = count[req] ? out[req] + v : v;
      count[req]++;
    }
  for (gsize i = 0; i < r->n_requests; i++)
    if (count[i] > 1)
      out[i] /= count[i];
  return out;
}

typedef struct
{
  gint64 t;
  double delta;
} Event;

static int
compare_events (const void *a, const void *b)
{
  const Event *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

gboolean
iv_run_dispersed_throughput (const IvRun *r, GArray *t_s, GArray *tps)
{
  g_autofree double *ttft = iv_run_metric_per_request (r, "time_to_first_token");
  g_autofree double *osl = iv_run_metric_per_request (r, "output_sequence_length");
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (Event));
  double level = 0;

  if (!iv_run_get_metric (r, "time_to_first_token")
      || !iv_run_get_metric (r, "output_sequence_length"))
    return FALSE;
  for (gsize i = 0; i < r->n_requests; i++)
    {
      gint64 start = g_array_index (r->start_ns, gint64, i),
             end = g_array_index (r->end_ns, gint64, i);
      gint64 first;
      double rate;
      /* (a TTFT beyond a day is not one: it also keeps start + TTFT inside int64) */
      if (g_array_index (r->flags, guint8, i) & IV_REQUEST_FAILED
          || !(ttft[i] >= 0 && ttft[i] < 8.64e7) || !isfinite (osl[i]) || start < 0
          || start > G_MAXINT64 / 2 || end < 0)
        continue;
      first = start + (gint64) llround (ttft[i] * 1e6); /* TTFT is in ms */
      if (end <= first)
        continue;
      rate = osl[i] / ((end - first) * 1e-9);
      g_array_append_val (events, ((Event){ first, rate }));
      g_array_append_val (events, ((Event){ end, -rate }));
    }
  if (events->len == 0)
    return FALSE;
  qsort (events->data, events->len, sizeof (Event), compare_events);
  for (guint k = 0; k < events->len; k++)
    {
      const Event *e = &g_array_index (events, Event, k);
      double t = (e->t - r->t0_ns) * 1e-9;
      level += e->delta;
      /* events at one instant make one step */
      if (k + 1 < events->len && g_array_index (events, Event, k + 1).t == e->t)
        continue;
      if (fabs (level) < 1e-9)
        level = 0; /* what floating sums leave behind once every request ended */
      g_array_append_val (t_s, t);
      g_array_append_val (tps, level);
    }
  return TRUE;
}

void
iv_step_resample (const double *t, const double *v, gsize n, double t0, double t1, guint bins,
                  double *out_t, double *out_v)
{
  double width = (t1 - t0) / MAX (bins, 1);
  gsize i = 0;

  for (guint b = 0; b < bins; b++)
    {
      double lo = t0 + b * width, hi = lo + width, area = 0;
      /* skip the steps that end before this bin; each step spans [t[i], t[i+1]) */
      while (i + 1 < n && t[i + 1] <= lo)
        i++;
      for (gsize k = i; k < n && t[k] < hi; k++)
        {
          double s = MAX (t[k], lo), e = MIN (k + 1 < n ? t[k + 1] : hi, hi);
          if (e > s)
            area += v[k] * (e - s);
        }
      out_t[b] = lo;
      out_v[b] = width > 0 ? area / width : 0;
    }
}

void
iv_rolling_quantile (const double *v, gsize n, gsize window, double q, double *out)
{
  g_autofree double *buf = g_new (double, MAX (window, 1));

  window = MAX (window, 1);
  /* A sorted window updated by one removal and one insertion per step: n·w, fine for
   * the windows plots use (a few hundred). */
  {
    gsize m = 0;
    for (gsize i = 0; i < n; i++)
      {
        gsize at;
        if (i >= window && isfinite (v[i - window]))
          {
            at = iv_stats_lower_bound (buf, m, v[i - window]);
            memmove (buf + at, buf + at + 1, (m - at - 1) * sizeof (double));
            m--;
          }
        if (isfinite (v[i]))
          {
            at = iv_stats_lower_bound (buf, m, v[i]);
            memmove (buf + at + 1, buf + at, (m - at) * sizeof (double));
            buf[at] = v[i];
            m++;
          }
        out[i] = iv_stats_quantile (buf, m, q);
      }
  }
}

static double
stat_of (const IvMetricSummary *s, const char *stat)
{
  const double *v = iv_metric_summary_stat ((IvMetricSummary *) s, stat ? stat : "avg");
  return v ? *v : NAN;
}

double
iv_run_axis_value (const IvRun *r, const char *metric, const char *stat)
{
  IvMetricSummary s = { 0 };
  double v = NAN;

  for (IvField f = 0; f < IV_N_FIELDS; f++)
    if (g_str_equal (metric, iv_field_key (f)))
      return iv_run_field_number (r, f);
  if (g_str_equal (metric, "output_token_throughput_per_gpu"))
    {
      /* by the GPUs that served the run: distinct UUIDs (or as set); see iv_run_gpu_note ().
       * Telemetry that was collected and found no GPU says nothing of the count: no
       * per-GPU value then (aiperf plot's DataLoader._add_all_derived_metrics skips it) */
      IvGpuCountSource from;
      double gpus = iv_run_gpu_count (r, &from);
      if (from == IV_GPUS_ASSUMED && r->telemetry_collected)
        return NAN;
      v = iv_run_axis_value (r, "output_token_throughput", stat) / gpus;
      if (!isnan (v))
        return v;
    }
  /* Throughputs are one number per run: the summary has them, the requests do not. */
  if (!iv_run_get_metric (r, metric) && iv_run_get_summary (r, metric))
    return stat_of (iv_run_get_summary (r, metric), stat);
  if (iv_run_metric_stats (r, metric, &s))
    {
      v = stat_of (&s, stat);
      iv_metric_summary_clear (&s);
    }
  /* A run of repeated trials: the mean over its trials ("request_latency_avg"). */
  if (isnan (v))
    {
      g_autofree char *key = g_strdup_printf ("%s_%s", metric, stat ? stat : "avg");
      const IvAggregateStat *a = g_hash_table_lookup (r->aggregate, key);
      if (a)
        v = a->mean;
    }
  /* a server metric by its Prometheus name ("vllm:kv_cache_usage_perc[endpoint]"): the
   * server's statistic, its aggregated JSON's or else from its series */
  if (isnan (v) && r->server && iv_prom_is_server_metric (NULL, metric))
    iv_server_metrics_stat (r->server, metric, stat ? stat : "avg", &v, NULL, NULL);
  return v;
}

gboolean
iv_metric_higher_is_better (const char *metric)
{
  return strstr (metric, "throughput") || strstr (metric, "goodput")
         || g_str_equal (metric, "concurrency");
}

void
iv_pareto_frontier (const double *x, const double *y, gsize n, gboolean x_hi, gboolean y_hi,
                    gboolean *on)
{
  for (gsize i = 0; i < n; i++)
    {
      on[i] = isfinite (x[i]) && isfinite (y[i]);
      for (gsize j = 0; j < n && on[i]; j++)
        {
          gboolean no_worse, better;
          if (j == i || !isfinite (x[j]) || !isfinite (y[j]))
            continue;
          no_worse = (x_hi ? x[j] >= x[i] : x[j] <= x[i]) && (y_hi ? y[j] >= y[i] : y[j] <= y[i]);
          better = x[j] != x[i] || y[j] != y[i];
          if (no_worse && better)
            on[i] = FALSE;
        }
    }
}

static int
compare_flight_events (const void *a, const void *b)
{
  const Event *x = a, *y = b;
  /* by time; at one time an end before a start: a request replaced at once is not two
   * in flight */
  return x->t < y->t ? -1 : x->t > y->t ? 1 : (x->delta > y->delta) - (x->delta < y->delta);
}

gboolean
iv_run_in_flight (const IvRun *r, gint64 origin, GArray *t, GArray *v)
{
  g_autoptr (GArray) ev = g_array_new (FALSE, FALSE, sizeof (Event));
  double level = 0;

  for (gsize i = 0; i < r->n_requests; i++)
    {
      Event a = { g_array_index (r->start_ns, gint64, i), 1 },
            b = { g_array_index (r->end_ns, gint64, i), -1 };
      if (a.t < 0 || b.t < a.t)
        continue;
      g_array_append_val (ev, a);
      g_array_append_val (ev, b);
    }
  if (ev->len == 0)
    return FALSE;
  g_array_sort (ev, compare_flight_events);
  for (guint i = 0; i < ev->len; i++)
    {
      const Event *x = &g_array_index (ev, Event, i);
      double ts = (x->t - origin) * 1e-9;
      level += x->delta;
      /* one step per instant: events at the same time make one */
      if (t->len && g_array_index (t, double, t->len - 1) == ts)
        g_array_index (v, double, v->len - 1) = level;
      else
        {
          g_array_append_val (t, ts);
          g_array_append_val (v, level);
        }
    }
  return TRUE;
}

/* ---------- what aiperf plot draws ---------- */

double
iv_run_axis_value_aiperf (const IvRun *r, const char *metric)
{
  return iv_run_axis_value_aiperf_full (r, metric, 5.0, "mean");
}

double
iv_run_axis_value_aiperf_full (const IvRun *r, const char *metric, double window_s,
                               const char *method)
{
  const IvMetricSummary *s;
  double v;

  /* MultiRunPNGExporter._runs_to_dataframe: a run's concurrency is 1 when its
   * configuration does not say */
  if (g_str_equal (metric, "concurrency"))
    return r->concurrency > 0 ? r->concurrency : 1;
  for (IvField f = 0; f < IV_N_FIELDS; f++)
    if (g_str_equal (metric, iv_field_key (f)))
      return iv_run_field_number (r, f);
  if (g_str_equal (metric, "output_token_throughput_per_gpu"))
    {
      /* DerivedMetricCalculator.per_gpu_throughput: every statistic of the throughput
       * over TelemetryMixin.calculate_gpu_count_from_telemetry's count (the GPUs of each
       * endpoint of the summary's telemetry_data, summed); none without one */
      guint gpus = iv_run_gpu_count_aiperf (r);
      return gpus ? iv_run_axis_value_aiperf (r, "output_token_throughput") / gpus : NAN;
    }
  /* _runs_to_dataframe fills the row from the summary, then each server metric
   * (_aggregate_server_metric_into_row), which replaces a column of the same name */
  if (r->server
      && isfinite (v = iv_server_metrics_value_aiperf (r->server, metric, window_s, method)))
    return v;
  /* the row takes DEFAULT_PERCENTILE (p50) when the summary has it, else the avg,
   * whatever statistic the preset names */
  if (!(s = iv_run_get_summary (r, metric)))
    return NAN;
  v = isfinite (s->p50) ? s->p50 : s->avg;
  return isfinite (v) ? v : NAN;
}

typedef struct
{
  double x, y;
  gsize at;
} Point;

static gint
compare_points_xy (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Point *a = pa, *b = pb;
  gboolean y_lower_better = GPOINTER_TO_INT (data);
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  if (a->y != b->y)
    return (a->y < b->y) == y_lower_better ? -1 : 1;
  return (a->at > b->at) - (a->at < b->at); /* stable, as the sort aiperf asks for */
}

void
iv_pareto_frontier_aiperf (const double *x, const double *y, gsize n, gboolean x_hi, gboolean y_hi,
                           gboolean *on)
{
  g_autofree Point *p = g_new (Point, MAX (n, 1));
  gsize m = 0;
  double best;

  for (gsize i = 0; i < n; i++)
    {
      on[i] = FALSE;
      if (isfinite (x[i]) && isfinite (y[i]))
        p[m++] = (Point){ x[i], y[i], i };
    }
  /* PlotGenerator.create_pareto_plot: sorted by x ascending and y best first, then
   * _compute_pareto_frontier's sweep with non-strict comparisons (a point no worse in y
   * than every point before it in the sweep is on the frontier, so equal points all are) */
  g_qsort_with_data (p, (gint) m, sizeof (Point), compare_points_xy, GINT_TO_POINTER (!y_hi));
  best = y_hi ? -INFINITY : INFINITY;
  for (gsize k = 0; k < m; k++)
    {
      const Point *q = &p[x_hi ? m - 1 - k : k];
      if (y_hi ? q->y >= best : q->y <= best)
        {
          on[q->at] = TRUE;
          best = q->y;
        }
    }
}

gboolean
iv_run_throughput_events_aiperf (const IvRun *r, GArray *t_s, GArray *tps)
{
  g_autofree double *ttft = iv_run_metric_per_request (r, "time_to_first_token");
  g_autofree double *osl = iv_run_metric_per_request (r, "output_sequence_length");
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (Event));
  double level = 0;

  /* calculate_throughput_events (aiperf/plot/core/data_preparation.py), over every row in
   * file order: the generation starts TTFT after the request (int (ttft_ms * 1e6) ns; a
   * missing or non-positive TTFT is 0), its tokens spread evenly to the end */
  for (gsize i = 0; i < r->n_requests; i++)
    {
      gint64 start = g_array_index (r->start_ns, gint64, i),
             end = g_array_index (r->end_ns, gint64, i), first = start;
      double t = isfinite (ttft[i]) ? ttft[i] : 0, tokens = isfinite (osl[i]) ? osl[i] : 0;
      if (start < 0 || end < 0)
        continue;
      if (t > 0 && t < 9e12)
        first = start + (gint64) (t * 1e6); /* Python's int () truncates */
      if (end - first > 0 && tokens > 0)
        {
          double rate = tokens / ((end - first) / 1e9);
          g_array_append_val (events, ((Event){ first, rate }));
          g_array_append_val (events, ((Event){ end, -rate }));
        }
    }
  if (events->len == 0)
    return FALSE;
  /* the events by time (ties in file order; the sum after the last event of an instant
   * does not depend on the order within it) */
  g_array_sort (events, compare_events);
  for (guint k = 0; k < events->len; k++)
    {
      const Event *e = &g_array_index (events, Event, k);
      double t = (e->t - g_array_index (events, Event, 0).t) / 1e9;
      level += e->delta;
      g_array_append_val (t_s, t);
      g_array_append_val (tps, level);
    }
  return TRUE;
}

gint64
iv_run_first_start_aiperf (const IvRun *r)
{
  gint64 first = G_MAXINT64;
  /* DataLoader._infer_run_start_time_ns: the earliest request_start_ns of every row */
  for (gsize i = 0; i < r->n_requests; i++)
    {
      gint64 s = g_array_index (r->start_ns, gint64, i);
      if (s >= 0)
        first = MIN (first, s);
    }
  return first == G_MAXINT64 ? -1 : first;
}

gboolean
iv_run_gpu_utilization_aiperf (const IvRun *r, GArray *t_s, GArray *util)
{
  gint64 origin = iv_run_first_start_aiperf (r);
  g_autoptr (GArray) order = NULL;

  if (r->tel_ts_ns->len == 0)
    return FALSE;
  /* aggregate_gpu_telemetry: every telemetry line (each endpoint's), on seconds from the
   * run's first request (_load_gpu_telemetry_jsonl; absolute seconds without one), the
   * mean of the lines of one timestamp, in time order */
  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), r->tel_ts_ns->len);
  for (guint i = 0; i < r->tel_ts_ns->len; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_by_time, r->tel_ts_ns);
  for (guint k = 0; k < order->len;)
    {
      guint i = g_array_index (order, guint, k);
      gint64 ts = g_array_index (r->tel_ts_ns, gint64, i);
      double sum = 0, secs;
      guint n = 0;
      for (; k < order->len
             && g_array_index (r->tel_ts_ns, gint64, g_array_index (order, guint, k)) == ts;
           k++)
        {
          double u = g_array_index (r->tel_util, double, g_array_index (order, guint, k));
          if (isfinite (u))
            sum += u, n++;
        }
      secs = origin > 0 ? (ts - origin) / 1e9 : ts / 1e9;
      if (n)
        {
          double mean = sum / n;
          g_array_append_val (t_s, secs);
          g_array_append_val (util, mean);
        }
    }
  return t_s->len > 0;
}

/* The regularized incomplete beta function I_x(a, b), by its continued fraction (Lentz),
 * on the side where it converges fast. */
static double
beta_cf (double a, double b, double x)
{
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1), h;

  d = fabs (d) < tiny ? tiny : d;
  d = 1 / d;
  h = d;
  for (int m = 1; m <= 300; m++)
    {
      double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;
      d = 1 + aa * d, c = 1 + aa / c;
      d = fabs (d) < tiny ? tiny : d, c = fabs (c) < tiny ? tiny : c;
      d = 1 / d, h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d, c = 1 + aa / c;
      d = fabs (d) < tiny ? tiny : d, c = fabs (c) < tiny ? tiny : c;
      d = 1 / d, del = d * c, h *= del;
      if (fabs (del - 1) < 1e-15)
        break;
    }
  return h;
}

static double
beta_inc (double a, double b, double x)
{
  double front;

  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log1p (-x));
  if (x < (a + 1) / (a + b + 2))
    return front * beta_cf (a, b, x) / a;
  return 1 - front * beta_cf (b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with @df degrees of freedom. */
static double
student_t_cdf (double t, double df)
{
  double tail = 0.5 * beta_inc (df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? 1 - tail : tail;
}

double
iv_student_t_quantile (double p, double df)
{
  double lo = -1e4, hi = 1e4;

  if (!(p > 0 && p < 1) || !(df > 0))
    return NAN;
  /* bisection to the last bit: scipy.stats.t.ppf's value to 1e-12 */
  for (int i = 0; i < 200 && hi - lo > 1e-13 * MAX (1, fabs (lo)); i++)
    {
      double mid = (lo + hi) / 2;
      if (student_t_cdf (mid, df) < p)
        lo = mid;
      else
        hi = mid;
    }
  return (lo + hi) / 2;
}
