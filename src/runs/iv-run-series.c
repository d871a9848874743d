/* iv-run-series.c: series the run plots draw (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-run-series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-stats.h"

static gint
compare_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const IvRun *r = data;
  gint64 x = g_array_index (r->start_ns, gint64, *(const guint32 *) a);
  gint64 y = g_array_index (r->start_ns, gint64, *(const guint32 *) b);
  return (x > y) - (x < y);
}

GArray *
iv_run_order_by_start (const IvRun *r)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), r->n_requests);

  for (guint32 i = 0; i < r->n_requests; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_start, (gpointer) r);
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
      /* by the GPUs that served the run: distinct UUIDs (or as set); see iv_run_gpu_note () */
      double gpus = iv_run_gpu_count (r, NULL);
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
