/* iv-render-runs.c: charts of runs, one per plot preset (see the header). */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-runs.h"

#include "iv-chart-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-render-isl-osl.h"
#include "iv-run-bound.h"
#include "iv-run-series.h"
#include "iv-units.h"

#define SECONDS ((IvUnit){ IV_UNIT_SECONDS, 1.0, NULL })

static const struct
{
  const char *tag, *title;
} metric_titles[] = {
  { "time_to_first_token", N_ ("Time to first token") },
  { "time_to_second_token", N_ ("Time to second token") },
  { "time_to_first_output_token", N_ ("Time to first output token") },
  { "inter_token_latency", N_ ("Inter-token latency") },
  { "inter_chunk_latency", N_ ("Inter-chunk latency") },
  { "request_latency", N_ ("Request latency") },
  { "request_throughput", N_ ("Request throughput") },
  { "output_token_throughput", N_ ("Output token throughput") },
  { "output_token_throughput_per_gpu", N_ ("Output token throughput per GPU") },
  { "output_token_throughput_per_user", N_ ("Output token throughput per user") },
  { "output_sequence_length", N_ ("Output sequence length") },
  { "input_sequence_length", N_ ("Input sequence length") },
  { "prefill_throughput", N_ ("Prefill throughput") },
  { "goodput", N_ ("Goodput") },
  { "concurrency", N_ ("Concurrency") },
  { "request_rate", N_ ("Request rate") },
  { "gpu_utilization", N_ ("GPU utilization") },
  { "gpu_power_usage", N_ ("GPU power") },
  { "gpu_memory_used", N_ ("GPU memory used") },
  { "gpu_temperature", N_ ("GPU temperature") },
  { "sm_clock_frequency", N_ ("SM clock") },
  { "server_requests_running", N_ ("Server: requests running") },
  { "server_requests_waiting", N_ ("Server: requests waiting") },
  { "server_kv_cache_usage", N_ ("Server: KV-cache usage") },
  { "server_prefix_cache_hit_rate", N_ ("Server: prefix-cache hit rate") },
  { "server_generation_tokens_per_sec", N_ ("Server: generated tokens/s") },
  { "server_prompt_tokens_per_sec", N_ ("Server: prompt tokens/s") },
  { "server_queue_time", N_ ("Server: queue time") },
  { "client_in_flight", N_ ("Client: requests in flight") },
};

/* What an axis says on a page too small for its metric's title: the abbreviations
 * papers use. The unit stays with it: "ITL (avg) (ms)". */
static const struct
{
  const char *title, *brief;
} metric_briefs[] = {
  { N_ ("Time to first token"), N_ ("TTFT") },
  { N_ ("Time to second token"), N_ ("TTST") },
  { N_ ("Time to first output token"), N_ ("TTFOT") },
  { N_ ("Inter-token latency"), N_ ("ITL") },
  { N_ ("Inter-chunk latency"), N_ ("ICL") },
  { N_ ("Request latency"), N_ ("Latency") },
  { N_ ("Request throughput"), N_ ("Requests") },
  /* the unit says the rest: "Output (avg) (k tokens/s/GPU)" */
  { N_ ("Output token throughput per GPU"), N_ ("Output") },
  { N_ ("Output token throughput per user"), N_ ("Output") },
  { N_ ("Output token throughput"), N_ ("Output") },
  { N_ ("Output sequence length"), N_ ("OSL") },
  { N_ ("Input sequence length"), N_ ("ISL") },
  { N_ ("Prefill throughput"), N_ ("Prefill") },
  { N_ ("Server: requests running"), N_ ("Running") },
  { N_ ("Server: requests waiting"), N_ ("Waiting") },
  { N_ ("Server: KV-cache usage"), N_ ("KV cache") },
  { N_ ("Server: prefix-cache hit rate"), N_ ("Prefix hits") },
  { N_ ("Server: generated tokens/s"), N_ ("Generated") },
  { N_ ("Server: prompt tokens/s"), N_ ("Prompt") },
  { N_ ("Server: queue time"), N_ ("Queue time") },
  { N_ ("Client: requests in flight"), N_ ("In flight") },
};

/* The short form of an axis title that begins with a metric's title ("Inter-token
 * latency (avg)" → "ITL (avg)"), or NULL. The longest match first: "Output token
 * throughput per GPU" before "Output token throughput". */
static char *
brief_axis_title (const char *title)
{
  for (guint i = 0; title && i < G_N_ELEMENTS (metric_briefs); i++)
    {
      const char *t = _ (metric_briefs[i].title);
      if (g_str_has_prefix (title, t))
        return g_strconcat (_ (metric_briefs[i].brief), title + strlen (t), NULL);
    }
  return NULL;
}

char *
iv_metric_title (const char *tag)
{
  char *t;

  for (guint i = 0; i < G_N_ELEMENTS (metric_titles); i++)
    if (g_str_equal (metric_titles[i].tag, tag))
      return g_strdup (_ (metric_titles[i].title));
  /* a server metric by its Prometheus name keeps it, filters aside, as aiperf's axis does */
  if (iv_prom_is_server_metric (NULL, tag))
    return g_strndup (tag, strcspn (tag, "[{"));
  /* "Some Display Name" or "some_tag": spaces, and a capital first letter */
  t = g_strdelimit (g_strdup (tag), "_", ' ');
  if (t[0])
    t[0] = g_ascii_toupper (t[0]);
  return t;
}

IvUnit
iv_metric_unit (const char *unit)
{
  if (!unit)
    return IV_UNIT_PLAIN;
  if (g_str_equal (unit, "ms"))
    return (IvUnit){ IV_UNIT_SECONDS, 1e-3, NULL };
  if (g_str_equal (unit, "ns"))
    return (IvUnit){ IV_UNIT_SECONDS, 1e-9, NULL };
  if (g_str_equal (unit, "us"))
    return (IvUnit){ IV_UNIT_SECONDS, 1e-6, NULL };
  if (g_str_equal (unit, "sec") || g_str_equal (unit, "s"))
    return SECONDS;
  if (g_str_equal (unit, "%"))
    return (IvUnit){ IV_UNIT_PERCENT, 1, NULL };
  if (g_str_equal (unit, "tokens/sec"))
    return (IvUnit){ IV_UNIT_COUNT, 1, "tokens/s" };
  if (g_str_equal (unit, "tokens/sec/user"))
    return (IvUnit){ IV_UNIT_COUNT, 1, "tokens/s/user" };
  if (g_str_equal (unit, "tokens/sec/gpu"))
    return (IvUnit){ IV_UNIT_COUNT, 1, "tokens/s/GPU" };
  if (g_str_equal (unit, "requests/sec"))
    return (IvUnit){ IV_UNIT_COUNT, 1, "requests/s" };
  if (g_str_equal (unit, "tokens"))
    return (IvUnit){ IV_UNIT_COUNT, 1, "tokens" };
  return IV_UNIT_PLAIN;
}

/* "Time to First Token" (AIPerf's display names in presets) → "time_to_first_token". */
static char *
tag_of (const char *name)
{
  char *t = g_ascii_strdown (name, -1);
  return g_strdelimit (t, " -", '_');
}

static const char *
unit_of (const IvRun *r, const char *tag)
{
  const IvRunMetric *m = iv_run_get_metric (r, tag);
  IvServerQuantity q;
  if (iv_server_quantity_from_key (tag, &q))
    return iv_server_quantity_unit (q);
  const IvMetricSummary *s = iv_run_get_summary (r, tag);
  if (m && m->unit)
    return m->unit;
  if (s)
    return s->unit;
  /* a run of trials only has its aggregate ("request_latency_avg") */
  {
    g_autofree char *key = g_strdup_printf ("%s_avg", tag);
    const IvAggregateStat *a = g_hash_table_lookup (r->aggregate, key);
    return a ? a->unit : NULL;
  }
}

IvUnit
iv_runs_metric_unit (const IvRun *r, const char *tag)
{
  if (g_str_equal (tag, "output_token_throughput_per_gpu"))
    return iv_metric_unit ("tokens/sec/gpu");
  return iv_metric_unit (unit_of (r, tag));
}

static void
value_axis (IvChart *c, IvAxisId axis, const IvRun *r, const char *tag)
{
  g_autofree char *title = iv_metric_title (tag);
  iv_chart_axis_set_title (c, axis, title);
  iv_chart_axis_set_unit (c, axis, iv_metric_unit (unit_of (r, tag)));
}

static IvChart *
new_chart (const IvPlotSpec *spec, const char *fallback_title, const char *subtitle)
{
  IvChart *c = iv_chart_new ();
  iv_chart_set_title (c, spec->title ? spec->title : fallback_title, subtitle);
  return c;
}

/* aiperf plot's windows for a Parquet file's server metrics: the configuration's
 * settings.server_metrics_downsampling, else its default (5 s, their mean); 0 when the
 * configuration turns them off. */
static double
server_window (const IvPlotSpec *spec, const char **method)
{
  const IvDownsampling *d = spec->downsampling;
  *method = d && d->method ? d->method : "mean";
  return !d ? 5.0 : d->enabled ? d->window_s : 0;
}

/* A run's value on a multi-run axis as aiperf plot has it, a Parquet file's server
 * metrics thinned as the configuration says (settings.server_metrics_downsampling). */
static double
aiperf_value (const IvPlotSpec *spec, const IvRun *r, const char *metric)
{
  const char *method;
  double window = server_window (spec, &method);
  return iv_run_axis_value_aiperf_full (r, metric, window, method);
}

static char *
run_subtitle (const IvRun *r)
{
  g_autofree char *conc
      = isnan (r->concurrency) ? NULL : g_strdup_printf (_ ("concurrency %g"), r->concurrency);
  double summary = iv_run_summary_requests (r);
  /* a figure of requests drawn from fewer records than the run had requests says so */
  g_autofree char *partial
      = r->has_records && isfinite (summary) && (double) iv_run_good_records (r) < summary
            ? g_strdup_printf (_ (" · records of %" G_GSIZE_FORMAT " of %.0f requests"),
                               iv_run_good_records (r), summary)
            : NULL;
  return g_strdup_printf ("%s%s%s%s%s%s", r->name, r->model ? " · " : "", r->model ? r->model : "",
                          conc ? " · " : "", conc ? conc : "", partial ? partial : "");
}

/* ---------- one run ---------- */

/* x for per-request plots: the request's number in start order, or its start in seconds. */
static gboolean
x_is_time (const IvPlotSpec *spec)
{
  return spec->x.metric
         && (g_str_has_prefix (spec->x.metric, "timestamp")
             || g_str_has_suffix (spec->x.metric, "_ns"));
}

static IvChart *
per_request (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const char *tag = spec->y.metric;
  g_autoptr (GArray) order = NULL;
  g_autofree double *values = NULL, *x = NULL, *y = NULL;
  g_autofree char *sub = run_subtitle (r);
  gboolean time = x_is_time (spec);
  gboolean by_metric = spec->x.metric && iv_run_get_metric (r, spec->x.metric) != NULL, rolling;
  g_autofree double *xv = by_metric ? iv_run_metric_per_request (r, spec->x.metric) : NULL;
  IvChart *c;
  gsize n = 0;

  if (!tag || !iv_run_get_metric (r, tag))
    {
      *reason = g_strdup_printf (_ ("no per-request “%s” in this run"), tag ? tag : "?");
      return NULL;
    }
  order = iv_run_order_by_start (r);
  values = iv_run_metric_per_request (r, tag);
  x = g_new (double, MAX (order->len, 1));
  y = g_new (double, MAX (order->len, 1));
  for (guint k = 0; k < order->len; k++)
    {
      guint32 i = g_array_index (order, guint32, k);
      if (!isfinite (values[i]) || (xv && !isfinite (xv[i])))
        continue;
      x[n] = xv     ? xv[i]
             : time ? (g_array_index (r->start_ns, gint64, i) - r->t0_ns) * 1e-9
                    : (double) (k + 1);
      y[n] = values[i];
      n++;
    }
  c = new_chart (spec, tag, sub);
  if (xv)
    value_axis (c, IV_AXIS_X, r, spec->x.metric);
  else
    iv_chart_axis_set_title (
        c, IV_AXIS_X, time ? _ ("Time since the first request") : _ ("Request (in start order)"));
  if (time && !xv)
    iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  value_axis (c, IV_AXIS_Y, r, tag);
  /* Over time, every scatter gets the rolling percentiles (aiperf only gives them to
   * latency): a drift shows in the p99 long before it shows in the cloud. */
  rolling = !xv && n >= 20;
  iv_chart_set_legend (c, rolling ? IV_LEGEND_BOTTOM : IV_LEGEND_HIDDEN);
  {
    g_autofree char *name = iv_metric_title (tag);
    IvSeries *s = iv_chart_add_scatter (c, name, x, y, n);
    iv_series_set_color (s, 0x0072b2);
    iv_series_set_marker (s, IV_MARKER_CIRCLE, n > 5000 ? 3 : 5);
    if (rolling)
      iv_series_set_alpha (s, 0.45);
  }
  if (rolling)
    {
      /* Rolling over a twentieth of the run (at least 10 requests): long enough to be a
       * trend, short enough to show a drift. */
      static const struct
      {
        double q;
        const char *name;
        guint32 rgb;
      } pct[] = {
        { 0.50, N_ ("p50 (rolling)"), 0x009e73 },
        { 0.95, N_ ("p95 (rolling)"), 0xe69f00 },
        { 0.99, N_ ("p99 (rolling)"), 0xd55e00 },
      };
      g_autofree double *q = g_new (double, n);
      for (guint k = 0; k < G_N_ELEMENTS (pct); k++)
        {
          IvSeries *s;
          iv_rolling_quantile (y, n, MAX (10, n / 20), pct[k].q, q);
          s = iv_chart_add_line (c, _ (pct[k].name), x, q, n);
          iv_series_set_color (s, pct[k].rgb);
          iv_series_set_line_width (s, 2);
        }
    }
  return c;
}

static IvChart *
histogram (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const char *tag = spec->y.metric ? spec->y.metric : spec->x.metric;
  const IvRunMetric *m = tag ? iv_run_get_metric (r, tag) : NULL;
  g_autofree char *sub = run_subtitle (r);
  g_autofree char *name = NULL;
  IvMetricSummary s = { 0 };
  IvChart *c;

  if (!m || m->values->len == 0)
    {
      *reason = g_strdup_printf (_ ("no per-request “%s” in this run"), tag ? tag : "?");
      return NULL;
    }
  name = iv_metric_title (tag);
  c = new_chart (spec, name, sub);
  value_axis (c, IV_AXIS_X, r, tag);
  iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
  if (spec->type == IV_PLOT_CDF)
    {
      iv_chart_axis_set_title (c, IV_AXIS_Y, _ ("Share of requests"));
      iv_series_set_color (
          iv_chart_add_cdf (c, name, (const double *) m->values->data, m->values->len), 0x0072b2);
    }
  else
    {
      iv_chart_axis_set_title (c, IV_AXIS_Y, m->list ? _ ("Values") : _ ("Requests"));
      iv_series_set_color (
          iv_chart_add_histogram (c, name, (const double *) m->values->data, m->values->len, 0),
          0x0072b2);
    }
  iv_metric_summary_compute ((const double *) m->values->data, m->values->len, m->unit, &s);
  iv_chart_add_vline (c, s.p50, "p50");
  iv_chart_add_vline (c, s.p90, "p90");
  iv_chart_add_vline (c, s.p99, "p99");
  iv_metric_summary_clear (&s);
  return c;
}

/* A dual_axis preset whose second axis is a server metric by its Prometheus name (its
 * first axis a client quantity: one with a server metric there is drawn as
 * server_metrics). */
static gboolean
dual_axis_server (const IvPlotSpec *spec)
{
  return spec->type == IV_PLOT_DUAL_AXIS && spec->y2.metric
         && iv_prom_is_server_metric (NULL, spec->y2.metric);
}

/* Two lines in the order pandas' groupby sorts their series: endpoint, then labels_json
 * (code point order, which strcmp on UTF-8 keeps). */
static gint
line_key_cmp (gconstpointer a, gconstpointer b)
{
  const IvServerLine *x = *(IvServerLine *const *) a, *y = *(IvServerLine *const *) b;
  gint c = strcmp (x->endpoint, y->endpoint);
  return c ? c : strcmp (x->labels, y->labels);
}

/* TRUE when @r has the server metrics over time aiperf plot reads, else FALSE with
 * @reason saying so for @metric. */
static gboolean
has_server_frame (const IvRun *r, const char *metric, char **reason)
{
  if (r->server && iv_server_metrics_aiperf_has_frame (r->server))
    return TRUE;
  *reason = g_strdup_printf (_ ("aiperf plot has no server metrics over time in this run "
                                "(it reads them from server_metrics_export.parquet, else "
                                "from the windows of server_metrics_export.json), for "
                                "“%s”"),
                             metric);
  return FALSE;
}

/* The series filter_server_metrics_dataframe finds for @metric (in a frame with a server,
 * see has_server_frame ()), thinned as @spec says, in the frame's order (a Parquet file's
 * grouped by endpoint and labels_json, sorted; the JSON's windows in the file's order):
 * their points appended to @xs and @ys, on seconds from the earliest of them. NULL (with
 * @error) when the metric has none. */
static GPtrArray *
frame_points (const IvPlotSpec *spec, const IvRun *r, const char *metric, GArray *xs, GArray *ys,
              GError **error)
{
  const char *method;
  double window = server_window (spec, &method);
  GPtrArray *lines = iv_server_metrics_lines (r->server, metric, 0, TRUE, window, method, error);
  gint64 first = G_MAXINT64;

  if (!lines)
    return NULL;
  if (r->server->parquet_path)
    g_ptr_array_sort (lines, line_key_cmp);
  for (guint i = 0; i < lines->len; i++)
    {
      const IvServerLine *l = lines->pdata[i];
      for (guint k = 0; k < l->t_ns->len; k++)
        first = MIN (first, g_array_index (l->t_ns, gint64, k));
    }
  for (guint i = 0; i < lines->len; i++)
    {
      const IvServerLine *l = lines->pdata[i];
      for (guint k = 0; k < l->t_ns->len; k++)
        {
          double x = iv_server_ns_seconds (g_array_index (l->t_ns, gint64, k), first);
          g_array_append_val (xs, x);
          g_array_append_val (ys, g_array_index (l->y, double, k));
        }
    }
  return lines;
}

/* Python's str.title () of ASCII text: a letter after a letter lower case, else upper —
 * aiperf's label of a metric it has no display name for ("Vllm:Kv Cache Usage Perc"). */
static char *
python_title (const char *name)
{
  char *out = g_strdup (name);
  gboolean after_letter = FALSE;
  for (char *p = out; *p; p++)
    {
      if (*p == '_')
        *p = ' ';
      if (g_ascii_isalpha (*p))
        {
          *p = after_letter ? g_ascii_tolower (*p) : g_ascii_toupper (*p);
          after_letter = TRUE;
        }
      else
        after_letter = FALSE;
    }
  return out;
}

/* The curve as steps: each value holds until the next time. */
static void
steps (GArray *t, GArray *v, double **sx, double **sy, gsize *n)
{
  *sx = g_new (double, 2 * t->len + 1);
  *sy = g_new (double, 2 * t->len + 1);
  *n = 0;
  for (guint i = 0; i < t->len; i++)
    {
      double prev = i ? g_array_index (v, double, i - 1) : 0;
      (*sx)[*n] = g_array_index (t, double, i), (*sy)[(*n)++] = prev;
      (*sx)[*n] = g_array_index (t, double, i), (*sy)[(*n)++] = g_array_index (v, double, i);
    }
}

static IvChart *
dispersed (const IvPlotSpec *spec, const IvRun *r, gboolean with_gpu, char **reason)
{
  gboolean y2_server = dual_axis_server (spec);
  g_autoptr (GPtrArray) y2_lines = NULL;
  g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *sx = NULL, *sy = NULL;
  g_autofree char *sub = run_subtitle (r);
  IvChart *c;
  IvSeries *s;
  gsize n;

  if (!iv_run_dispersed_throughput (r, t, v))
    {
      *reason = g_strdup (_ ("no per-request time to first token and output length in this run"));
      return NULL;
    }
  if (with_gpu && y2_server)
    {
      /* a server metric on the second axis: its lines, on the requests' clock */
      g_autoptr (GError) error = NULL;
      if (!r->server)
        {
          *reason
              = g_strdup_printf (_ ("no server metrics in this run, for “%s”"), spec->y2.metric);
          return NULL;
        }
      if (!(y2_lines = iv_server_metrics_lines (r->server, spec->y2.metric, r->t0_ns, FALSE, 0,
                                                NULL, &error)))
        {
          *reason = g_strdup (error->message);
          return NULL;
        }
    }
  else if (with_gpu && r->gpus->len == 0)
    {
      *reason = g_strdup (_ ("no GPU telemetry in this run"));
      return NULL;
    }
  if (t->len > 2000)
    {
      /* Hundreds of thousands of steps fill no better than the pixels they land on: the
       * time-weighted mean of 1,000 bins keeps the area and draws in milliseconds. */
      g_autoptr (GArray) bt = g_array_sized_new (FALSE, FALSE, sizeof (double), 1001);
      g_autoptr (GArray) bv = g_array_sized_new (FALSE, FALSE, sizeof (double), 1001);
      double last = g_array_index (t, double, t->len - 1), zero = 0;
      g_array_set_size (bt, 1000);
      g_array_set_size (bv, 1000);
      iv_step_resample ((const double *) t->data, (const double *) v->data, t->len, 0, last, 1000,
                        (double *) bt->data, (double *) bv->data);
      g_array_append_val (bt, last);
      g_array_append_val (bv, zero);
      steps (bt, bv, &sx, &sy, &n);
    }
  else
    steps (t, v, &sx, &sy, &n);
  c = new_chart (spec, _ ("Dispersed output token throughput"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time since the first request"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_Y, _ ("Output token throughput"));
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_metric_unit ("tokens/sec"));
  iv_chart_set_legend (c, with_gpu ? IV_LEGEND_BOTTOM : IV_LEGEND_HIDDEN);
  s = with_gpu ? iv_chart_add_line (c, _ ("output tokens/s"), sx, sy, n)
               : iv_chart_add_area (c, _ ("output tokens/s"), sx, sy, n, FALSE);
  iv_series_set_color (s, 0x0072b2);
  if (y2_lines)
    {
      const IvServerLine *l0 = y2_lines->pdata[0];
      g_autoptr (IvPromSpec) ps = iv_prom_spec_parse (spec->y2.metric, NULL);
      const char *metric = ps ? ps->metric : spec->y2.metric;
      g_autofree char *title = l0->unit && *l0->unit ? g_strdup_printf ("%s (%s)", metric, l0->unit)
                                                     : g_strdup (metric);
      iv_chart_axis_set_title (c, IV_AXIS_Y2, title);
      for (guint i = 0; i < y2_lines->len; i++)
        {
          const IvServerLine *l = y2_lines->pdata[i];
          IvSeries *ls = iv_chart_add_line (c, l->name, (const double *) (void *) l->x_s->data,
                                            (const double *) (void *) l->y->data, l->y->len);
          iv_series_set_y2 (ls, TRUE);
          if (y2_lines->len == 1)
            iv_series_set_color (ls, 0x009e73);
        }
    }
  else if (with_gpu)
    {
      /* Every GPU's utilisation on the second axis, on the requests' time origin. */
      const char *field = spec->y2.metric ? spec->y2.metric : "gpu_utilization";
      g_autofree char *title = iv_metric_title (field);
      iv_chart_axis_set_title (c, IV_AXIS_Y2, title);
      if (g_str_equal (field, "gpu_utilization"))
        iv_chart_axis_set_unit (c, IV_AXIS_Y2, (IvUnit){ IV_UNIT_PERCENT, 1, NULL });
      for (guint g = 0; g < r->gpus->len; g++)
        {
          const IvGpu *gpu = r->gpus->pdata[g];
          const GArray *series = iv_gpu_get_series (gpu, field);
          g_autofree double *gx = NULL;
          g_autofree char *name = NULL;
          IvSeries *gs;
          if (!series)
            continue;
          gx = g_new (double, MAX (gpu->ts_ns->len, 1));
          for (guint k = 0; k < gpu->ts_ns->len; k++)
            gx[k] = (g_array_index (gpu->ts_ns, gint64, k) - r->t0_ns) * 1e-9;
          name = g_strdup_printf (_ ("GPU %d"), gpu->index);
          gs = iv_chart_add_area (c, name, gx, (const double *) series->data, gpu->ts_ns->len,
                                  FALSE);
          iv_series_set_y2 (gs, TRUE);
          iv_series_set_alpha (gs, 0.25);
          iv_series_set_color (gs, g == 0 ? 0x009e73 : iv_palette_index_for (name));
        }
    }
  return c;
}

/* A telemetry field of every GPU over time, on the requests' time origin. */
static IvChart *
gpu_field (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const char *field = spec->y.metric ? spec->y.metric : "gpu_utilization";
  g_autofree char *title = iv_metric_title (field);
  g_autofree char *sub = run_subtitle (r);
  IvChart *c = NULL;

  for (guint g = 0; g < r->gpus->len; g++)
    {
      const IvGpu *gpu = r->gpus->pdata[g];
      const GArray *series = iv_gpu_get_series (gpu, field);
      g_autofree double *gx = NULL;
      g_autofree char *name = NULL;
      if (!series)
        continue;
      if (!c)
        {
          c = new_chart (spec, title, sub);
          iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time since the first request"));
          iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
          iv_chart_axis_set_title (c, IV_AXIS_Y, title);
          if (g_str_equal (field, "gpu_utilization"))
            iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_PERCENT, 1, NULL });
          else if (g_str_equal (field, "gpu_memory_used"))
            iv_chart_axis_set_unit (c, IV_AXIS_Y,
                                    (IvUnit){ IV_UNIT_COUNT, 1, "GB" }); /* as DCGM reports it */
          else if (g_str_equal (field, "gpu_power_usage"))
            iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_COUNT, 1, "W" });
          else if (g_str_has_suffix (field, "temperature"))
            iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_COUNT, 1, "°C" });
          iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
        }
      gx = g_new (double, MAX (gpu->ts_ns->len, 1));
      for (guint k = 0; k < gpu->ts_ns->len; k++)
        gx[k] = (g_array_index (gpu->ts_ns, gint64, k) - r->t0_ns) * 1e-9;
      name = g_strdup_printf (_ ("GPU %d · %s"), gpu->index, gpu->model ? gpu->model : gpu->uuid);
      iv_chart_add_line (c, name, gx, (const double *) series->data, gpu->ts_ns->len);
    }
  if (!c)
    *reason = r->gpus->len ? g_strdup_printf (_ ("the GPU telemetry has no “%s”"), field)
                           : g_strdup (_ ("no GPU telemetry in this run"));
  return c;
}

typedef struct
{
  double a, b, y;
  guint bin;
} Span;

static int
compare_spans (const void *pa, const void *pb)
{
  const Span *x = pa, *y = pb;
  if (x->bin != y->bin)
    return x->bin < y->bin ? -1 : 1;
  return (x->a > y->a) - (x->a < y->a);
}

/* Dense timelines (tens of thousands of requests, hundreds at once) drawn as they look:
 * spans whose y falls in one of @bins bands of [lo, hi] (finer than a pixel at any
 * export size) and that overlap or touch along x are one span at the band's middle. The
 * picture is the same; the rectangles drawn are a few per band instead of one per
 * request. Returns the new count; @a, @b, @y are rewritten. */
static gsize
merge_dense_spans (double *a, double *b, double *y, gsize n, double lo, double hi, guint bins)
{
  g_autofree Span *sp = g_new (Span, MAX (n, 1));
  double h = hi > lo ? (hi - lo) / bins : 1;
  gsize m = 0;

  for (gsize i = 0; i < n; i++)
    {
      double t = hi > lo ? (y[i] - lo) / h : 0;
      sp[i] = (Span){ a[i], b[i], y[i], (guint) CLAMP (t, 0, bins - 1) };
    }
  qsort (sp, n, sizeof (Span), compare_spans);
  for (gsize i = 0; i < n; i++)
    {
      if (m > 0 && sp[i].bin == sp[m - 1].bin && sp[i].a <= sp[m - 1].b)
        {
          sp[m - 1].b = MAX (sp[m - 1].b, sp[i].b);
          continue;
        }
      sp[m] = sp[i];
      sp[m].y = lo + (sp[i].bin + 0.5) * h;
      m++;
    }
  for (gsize i = 0; i < m; i++)
    a[i] = sp[i].a, b[i] = sp[i].b, y[i] = sp[i].y;
  return m;
}

/* The request timeline's y for request @i (@k: its rank in start order; @yv: the y
 * metric per request): its value of the metric (aiperf's encoding), or its row in start
 * order with y "request_number". Workers are placed by the drawing itself. */
static const char *
timeline_y_tag (const IvPlotSpec *spec)
{
  if (!spec->y.metric || g_str_equal (spec->y.metric, "worker")
      || g_str_equal (spec->y.metric, "request_number"))
    return "time_to_first_token";
  return spec->y.metric;
}

static double
timeline_y (const IvPlotSpec *spec, const double *yv, guint k, guint32 i)
{
  return g_strcmp0 (spec->y.metric, "request_number") == 0 ? k + 1 : yv[i];
}

static IvChart *
request_timeline (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  g_autofree double *ttft = iv_run_metric_per_request (r, "time_to_first_token");
  g_autoptr (GArray) order = iv_run_order_by_start (r);
  g_autofree double *p0 = g_new (double, MAX (r->n_requests, 1)),
                    *p1 = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *d0 = g_new (double, MAX (r->n_requests, 1)),
                    *d1 = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *row = g_new (double, MAX (r->n_requests, 1)),
                    *frow = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *f0 = g_new (double, MAX (r->n_requests, 1)),
                    *f1 = g_new (double, MAX (r->n_requests, 1));
  g_autofree char *sub = run_subtitle (r);
  g_autofree double *dense_rows = NULL;
  double *prow;
  gsize n = 0, nf = 0, np, nd;
  IvChart *c;

  if (r->n_requests == 0)
    {
      *reason = g_strdup (_ ("no per-request records in this run"));
      return NULL;
    }
  /* As aiperf draws it: each request a horizontal line at its value of the y metric
   * (TTFT by default), prefill then decode along the time axis. y "worker" puts each
   * worker's requests on a row of its own; "request_number" one row per request. */
  gboolean by_worker = g_strcmp0 (spec->y.metric, "worker") == 0;
  gboolean by_number = g_strcmp0 (spec->y.metric, "request_number") == 0;
  const char *y_tag = timeline_y_tag (spec);
  g_autofree double *yv = iv_run_metric_per_request (r, y_tag);
  g_autoptr (GArray) worker_row = g_array_new (FALSE, TRUE, sizeof (double));
  guint n_workers = 0;

  for (guint k = 0; k < order->len; k++)
    {
      guint32 i = g_array_index (order, guint32, k);
      double s = (g_array_index (r->start_ns, gint64, i) - r->t0_ns) * 1e-9;
      double e = (g_array_index (r->end_ns, gint64, i) - r->t0_ns) * 1e-9;
      double at = timeline_y (spec, yv, k, i);
      if (by_worker)
        {
          guint32 w = g_array_index (r->worker, guint32, i);
          if (w >= worker_row->len)
            g_array_set_size (worker_row, w + 1);
          if (g_array_index (worker_row, double, w) == 0)
            g_array_index (worker_row, double, w) = ++n_workers;
          at = g_array_index (worker_row, double, w);
        }
      if (g_array_index (r->flags, guint8, i) & IV_REQUEST_FAILED)
        {
          /* a failed request has no TTFT: on the metric's axis it sits at zero */
          f0[nf] = s, f1[nf] = e, frow[nf++] = isfinite (at) ? at : 0;
          continue;
        }
      if (!isfinite (ttft[i]) || !isfinite (at))
        continue;
      p0[n] = s, p1[n] = s + ttft[i] * 1e-3;
      d0[n] = p1[n], d1[n] = e;
      row[n++] = at;
    }
  prow = row, np = nd = n;
  if (n > 5000 && !by_worker && !by_number)
    {
      /* dense: one band per 1/2000 of the y range, overlapping spans merged */
      double lo = INFINITY, hi = -INFINITY;
      for (gsize i = 0; i < n; i++)
        lo = MIN (lo, row[i]), hi = MAX (hi, row[i]);
      prow = dense_rows = g_memdup2 (row, n * sizeof (double));
      np = merge_dense_spans (p0, p1, prow, n, lo, hi, 2000);
      nd = merge_dense_spans (d0, d1, row, n, lo, hi, 2000);
    }
  c = new_chart (spec, _ ("Request timeline"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time since the first request"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  if (by_worker || by_number)
    {
      iv_chart_axis_set_title (c, IV_AXIS_Y,
                               by_worker ? _ ("Worker (in order of first request)")
                                         : _ ("Request (in start order)"));
      /* on a paper column's short plot */
      iv_chart_axis_set_short_title (c, IV_AXIS_Y, by_worker ? _ ("Worker") : _ ("Request"));
    }
  else
    value_axis (c, IV_AXIS_Y, r, y_tag);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  /* aiperf's colours: prefill NVIDIA green */
  iv_series_set_color (
      iv_chart_add_spans (c, _ ("prefill (time to first token)"), p0, p1, prow, np), 0x76b900);
  iv_series_set_color (iv_chart_add_spans (c, _ ("decode"), d0, d1, row, nd), 0x0072b2);
  if (nf)
    iv_series_set_color (iv_chart_add_spans (c, _ ("failed"), f0, f1, frow, nf), 0xd55e00);
  return c;
}

/* ---------- one run, as aiperf plot draws it (--aiperf-compatible) ---------- */

/* A column of aiperf plot's requests table (prepare_request_timeseries) for request @i:
 * request_number (its place among every record, from 0), timestamp (its end, seconds
 * from the earliest end), request_start_ns / request_end_ns (epoch ns), or a metric. */
static double
aiperf_column (const IvRun *r, const char *name, const double *metric, gint64 min_end, gsize i)
{
  gint64 v;
  if (g_str_equal (name, "request_number"))
    return iv_run_record_number (r, (guint32) i);
  if (g_str_equal (name, "timestamp"))
    {
      v = g_array_index (r->end_ns, gint64, i);
      return v >= 0 && min_end >= 0 ? (v / 1e9) - (min_end / 1e9) : NAN;
    }
  if (g_str_equal (name, "request_start_ns") || g_str_equal (name, "request_end_ns"))
    {
      v = g_array_index (name[8] == 's' ? r->start_ns : r->end_ns, gint64, i);
      return v >= 0 ? (double) v : NAN;
    }
  return metric ? metric[i] : NAN;
}

/* create_time_series_scatter (and create_latency_scatter_with_percentiles): a point per
 * request in file order, NaN ones left out; rolling p50/p95/p99 over windows of
 * min (10, n) rows (calculate_rolling_percentiles). */
static IvChart *
per_request_aiperf (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const char *xn = spec->x.metric ? spec->x.metric : "request_number", *yn = spec->y.metric;
  g_autofree double *ym = yn ? iv_run_metric_per_request (r, yn) : NULL;
  g_autofree double *xm = iv_run_get_metric (r, xn) ? iv_run_metric_per_request (r, xn) : NULL;
  g_autofree double *x = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *y = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *all_x = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *all_y = g_new (double, MAX (r->n_requests, 1));
  g_autofree char *sub = run_subtitle (r);
  gint64 min_end = G_MAXINT64;
  gsize n = 0;
  IvChart *c;

  if (!yn || !iv_run_get_metric (r, yn) || r->n_requests == 0)
    {
      *reason = g_strdup_printf (_ ("no per-request “%s” in this run"), yn ? yn : "?");
      return NULL;
    }
  for (gsize i = 0; i < r->n_requests; i++)
    if (g_array_index (r->end_ns, gint64, i) >= 0)
      min_end = MIN (min_end, g_array_index (r->end_ns, gint64, i));
  if (min_end == G_MAXINT64)
    min_end = -1;
  for (gsize i = 0; i < r->n_requests; i++)
    {
      all_x[i] = aiperf_column (r, xn, xm, min_end, i);
      all_y[i] = ym[i];
      if (isfinite (all_x[i]) && isfinite (all_y[i]))
        x[n] = all_x[i], y[n++] = all_y[i];
    }
  c = new_chart (spec, yn, sub);
  iv_chart_axis_set_title (c, IV_AXIS_X,
                           g_str_equal (xn, "request_number") ? _ ("Request Number")
                           : g_str_equal (xn, "timestamp")    ? _ ("Time (seconds)")
                                                              : xn);
  value_axis (c, IV_AXIS_Y, r, yn);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  {
    IvSeries *pts = iv_chart_add_scatter (
        c, spec->type == IV_PLOT_SCATTER_PERCENTILES ? _ ("Individual Requests") : yn, x, y, n);
    iv_series_set_color (pts, 0x4c72b0);
    iv_series_set_marker (pts, IV_MARKER_CIRCLE, 5);
  }
  if (spec->type == IV_PLOT_SCATTER_PERCENTILES)
    {
      static const struct
      {
        double q;
        const char *name;
        guint32 rgb;
      } pct[] = { { 0.50, "P50", 0x4c72b0 }, { 0.95, "P95", 0xdd8452 }, { 0.99, "P99", 0x55a868 } };
      g_autofree double *q = g_new (double, MAX (r->n_requests, 1));
      g_autofree double *qx = g_new (double, MAX (r->n_requests, 1));
      g_autofree double *qy = g_new (double, MAX (r->n_requests, 1));
      for (guint k = 0; k < G_N_ELEMENTS (pct); k++)
        {
          gsize m = 0;
          iv_rolling_quantile (all_y, r->n_requests, MIN (10, r->n_requests), pct[k].q, q);
          for (gsize i = 0; i < r->n_requests; i++)
            if (isfinite (all_x[i]) && isfinite (q[i]))
              qx[m] = all_x[i], qy[m++] = q[i];
          iv_series_set_color (iv_chart_add_line (c, pct[k].name, qx, qy, m), pct[k].rgb);
        }
    }
  return c;
}

/* RequestTimelineHandler._prepare_timeline_data: the requests with a start, an end, a
 * TTFT and the y metric, on seconds from the earliest of their starts; those whose TTFT
 * is longer than they took are left out. */
static IvChart *
request_timeline_aiperf (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const char *yn = spec->y.metric ? spec->y.metric : "time_to_first_token";
  g_autofree double *ttft = iv_run_metric_per_request (r, "time_to_first_token");
  g_autofree double *yv = iv_run_metric_per_request (r, yn);
  g_autofree double *p0 = g_new (double, MAX (r->n_requests, 1)),
                    *p1 = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *d0 = g_new (double, MAX (r->n_requests, 1)),
                    *d1 = g_new (double, MAX (r->n_requests, 1));
  g_autofree double *py = g_new (double, MAX (r->n_requests, 1)),
                    *dy = g_new (double, MAX (r->n_requests, 1));
  g_autofree char *sub = run_subtitle (r);
  gint64 start_min = G_MAXINT64;
  gsize n = 0, nd = 0;
  IvChart *c;

  for (gsize i = 0; i < r->n_requests; i++)
    if (g_array_index (r->start_ns, gint64, i) >= 0 && g_array_index (r->end_ns, gint64, i) >= 0
        && isfinite (ttft[i]) && isfinite (yv[i]))
      start_min = MIN (start_min, g_array_index (r->start_ns, gint64, i));
  if (start_min == G_MAXINT64)
    {
      *reason = g_strdup_printf (_ ("no request with a start, an end, a TTFT and “%s”"), yn);
      return NULL;
    }
  for (gsize i = 0; i < r->n_requests; i++)
    {
      gint64 st = g_array_index (r->start_ns, gint64, i), en = g_array_index (r->end_ns, gint64, i);
      double s0, e0, t;
      if (st < 0 || en < 0 || !isfinite (ttft[i]) || !isfinite (yv[i]))
        continue;
      s0 = (st - start_min) / 1e9, e0 = (en - start_min) / 1e9, t = ttft[i] / 1000.0;
      if (!(t <= e0 - s0))
        continue;
      p0[n] = s0, p1[n] = s0 + t, py[n++] = yv[i];
      /* create_request_timeline draws the decode only when it lasts over a millisecond */
      if (e0 - (s0 + t) > 0.001)
        d0[nd] = s0 + t, d1[nd] = e0, dy[nd++] = yv[i];
    }
  c = new_chart (spec, _ ("Request Timeline"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time (seconds)"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  value_axis (c, IV_AXIS_Y, r, yn);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_spans (c, _ ("Prefill Phase"), p0, p1, py, n), 0x76b900);
  iv_series_set_color (iv_chart_add_spans (c, _ ("Decode Phase"), d0, d1, dy, nd), 0xdd8452);
  return c;
}

/* The dispersed throughput of calculate_throughput_events, alone (area) or with the GPU
 * utilisation of aggregate_gpu_telemetry on a second axis (dual_axis). */
static IvChart *
dispersed_aiperf (const IvPlotSpec *spec, const IvRun *r, gboolean with_gpu, char **reason)
{
  g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) gt = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) gu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *sub = run_subtitle (r);
  gboolean y2_server = with_gpu && dual_axis_server (spec);
  IvChart *c;
  IvSeries *s;

  if (y2_server)
    {
      /* DualAxisHandler._prepare_server_metrics_data: the points of every series the
       * filter finds, as one column of its frame in the frame's order (a Parquet file's
       * grouped by endpoint and labels_json, sorted; the JSON's windows in the file's
       * order), on seconds from the earliest of them (filter_server_metrics_dataframe);
       * none found is an empty second axis. Without any server metrics (no Parquet file
       * and no windows in the JSON) aiperf plot cannot draw it. */
      g_autoptr (GPtrArray) lines = NULL;
      if (!has_server_frame (r, spec->y2.metric, reason))
        return NULL;
      lines = frame_points (spec, r, spec->y2.metric, gt, gu, NULL);
    }
  else if (with_gpu && !iv_run_gpu_utilization_aiperf (r, gt, gu))
    {
      *reason = g_strdup (_ ("no GPU telemetry in this run"));
      return NULL;
    }
  if (!iv_run_throughput_events_aiperf (r, t, v))
    {
      *reason = g_strdup (_ ("no request with an output length and a generation time"));
      return NULL;
    }
  c = new_chart (spec, _ ("Output Token Throughput"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time (s)"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_Y, _ ("Throughput Tokens Per Sec"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  if (with_gpu)
    /* line_shape "hv": each value holds until the next event */
    s = iv_chart_add_step (c, _ ("Throughput Tokens Per Sec"), (const double *) t->data,
                           (const double *) v->data, t->len);
  else
    {
      g_autofree double *sx = NULL, *sy = NULL;
      gsize n;
      steps (t, v, &sx, &sy, &n);
      s = iv_chart_add_area (c, _ ("Throughput Tokens Per Sec"), sx, sy, n, FALSE);
    }
  iv_series_set_color (s, 0x4c72b0);
  if (y2_server)
    {
      g_autofree char *title = python_title (spec->y2.metric);
      iv_chart_axis_set_title (c, IV_AXIS_Y2, title);
      s = iv_chart_add_area (c, title, (const double *) gt->data, (const double *) gu->data,
                             gt->len, FALSE);
      iv_series_set_y2 (s, TRUE);
      iv_series_set_alpha (s, 0.3);
      iv_series_set_color (s, 0xdd8452);
    }
  else if (with_gpu)
    {
      g_autofree char *title = g_strdup (_ ("Gpu Utilization (%)"));
      iv_chart_axis_set_title (c, IV_AXIS_Y2, title);
      iv_chart_axis_set_unit (c, IV_AXIS_Y2, (IvUnit){ IV_UNIT_PERCENT, 1, NULL });
      s = iv_chart_add_area (c, _ ("Gpu Utilization"), (const double *) gt->data,
                             (const double *) gu->data, gt->len, FALSE);
      iv_series_set_y2 (s, TRUE);
      iv_series_set_alpha (s, 0.3);
      iv_series_set_color (s, 0xdd8452);
    }
  return c;
}

/* ---------- time slices, as aiperf plot draws them ---------- */

/* The time slices a figure reads: aiperf plot reads only the CSV
 * (DataLoader._load_timeslices); Inferview the JSON (exact) where it is, else the CSV. */
static const GPtrArray *
slices_of (const IvPlotSpec *spec, const IvRun *r)
{
  if (spec->aiperf_compatible)
    return r->timeslices_csv;
  return r->timeslices->len ? r->timeslices : r->timeslices_csv;
}

/* A slice's width in seconds: --slice-duration from the run's configuration; Inferview
 * also takes it from the JSON slices' own bounds. NaN when nothing says. */
static double
slice_width (const IvPlotSpec *spec, const IvRun *r, const GPtrArray *slices)
{
  if (isfinite (r->slice_duration_s) || spec->aiperf_compatible)
    return r->slice_duration_s;
  for (guint i = 0; i < slices->len; i++)
    {
      const IvTimeslice *ts = slices->pdata[i];
      if (ts->complete && ts->start_ns >= 0 && ts->end_ns > ts->start_ns)
        return (ts->end_ns - ts->start_ns) * 1e-9;
    }
  return NAN;
}

/* One time-slice metric's values: each slice that has it, its index and @stat, with the
 * slice's std; the metric's unit. */
typedef struct
{
  GArray *index, *value, *std; /* double */
  const char *unit;
  double width;   /* seconds (NaN: the axis is the slice index) */
  double run_avg; /* the run's average and std from its summary (NaN: no reference) */
  double run_std;
  char *metric_name; /* as the preset names it: the direction of the outlier rule */
} Slices;

static void
slices_clear (Slices *sl)
{
  g_clear_pointer (&sl->index, g_array_unref);
  g_clear_pointer (&sl->value, g_array_unref);
  g_clear_pointer (&sl->std, g_array_unref);
  g_clear_pointer (&sl->metric_name, g_free);
}

static gboolean
slices_read (const IvPlotSpec *spec, const IvRun *r, Slices *sl, char **reason)
{
  const GPtrArray *slices = slices_of (spec, r);
  const char *name = spec->y.metric ? spec->y.metric : "Time to First Token";
  g_autofree char *tag = tag_of (name);
  /* the preset's stat, else the axis's (aiperf: expand_metric_shortcut's stat_override) */
  const char *stat = spec->stat ? spec->stat : spec->y.stat ? spec->y.stat : "avg";
  const IvMetricSummary *run;

  *sl = (Slices){ g_array_new (FALSE, FALSE, sizeof (double)),
                  g_array_new (FALSE, FALSE, sizeof (double)),
                  g_array_new (FALSE, FALSE, sizeof (double)),
                  NULL,
                  NAN,
                  NAN,
                  NAN,
                  g_strdup (name) };
  if (slices->len == 0)
    {
      *reason = spec->aiperf_compatible && r->timeslices->len
                    ? g_strdup (
                        _ ("aiperf plot reads the time slices only from "
                           "profile_export_aiperf_timeslices.csv, which this run does not have"))
                    : g_strdup (_ (
                        "no time slices in this run (AIPerf writes them with --slice-duration)"));
      return FALSE;
    }
  for (guint i = 0; i < slices->len; i++)
    {
      const IvTimeslice *ts = slices->pdata[i];
      IvMetricSummary *m = g_hash_table_lookup (ts->metrics, tag);
      double idx = (double) ts->index, *v, sd;
      if (!m || !(v = iv_metric_summary_stat (m, stat)) || !isfinite (*v))
        continue;
      sl->unit = m->unit;
      sd = m->std;
      g_array_append_val (sl->index, idx);
      g_array_append_val (sl->value, *v);
      g_array_append_val (sl->std, sd);
    }
  if (sl->index->len == 0)
    {
      *reason = g_strdup_printf (_ ("the time slices have no “%s” (%s)"), name, stat);
      return FALSE;
    }
  /* use_slice_duration: aiperf's TimeSlicePlotSpec only when the preset says so */
  if (spec->use_slice_duration == 1 || (!spec->aiperf_compatible && spec->use_slice_duration < 0))
    sl->width = slice_width (spec, r, slices);
  /* TimeSliceHandler._get_average_for_timeslice_metric: the run's avg and std, except for
   * a metric of one number (a throughput, a count: _is_single_stat_metric) */
  run = iv_run_get_summary (r, tag);
  if (run && (isfinite (run->p50) || isfinite (run->std) || isfinite (run->min)))
    {
      sl->run_avg = run->avg;
      sl->run_std = run->std;
    }
  return TRUE;
}

/* The y axis of a time-slice figure: the metric, with the slices' unit when they have one. */
static void
slices_value_axis (IvChart *c, const IvPlotSpec *spec, const Slices *sl)
{
  const char *metric = spec->y.metric ? spec->y.metric : "";
  g_autofree char *y
      = sl->unit && *sl->unit ? g_strdup_printf ("%s (%s)", metric, sl->unit) : g_strdup (metric);

  iv_chart_axis_set_title (c, IV_AXIS_Y, y);
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_metric_unit (sl->unit));
}

/* Where slice @k is drawn: its index on a categorical axis ("0-5", "5-10": the middle of
 * [k·w, (k+1)·w] as aiperf places it), or the index itself. */
static void
slices_axis (IvChart *c, const Slices *sl)
{
  double last = g_array_index (sl->index, double, sl->index->len - 1);
  if (isfinite (sl->width) && last < 100000)
    {
      guint n = (guint) last + 1;
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      for (guint k = 0; k < n; k++)
        g_ptr_array_add (
            names, g_strdup_printf ("%d-%d", (int) (k * sl->width), (int) ((k + 1) * sl->width)));
      iv_chart_axis_set_categories (c, IV_AXIS_X, (const char *const *) names->pdata, n);
      iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Timeslice (s)"));
      iv_chart_axis_set_range (c, IV_AXIS_X, -0.5, n - 0.5);
    }
  else
    iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Timeslice"));
}

/* The run's average and a band of ± its std across the slices (aiperf's reference). */
static void
slices_reference (IvChart *c, const Slices *sl)
{
  double first = g_array_index (sl->index, double, 0),
         last = g_array_index (sl->index, double, sl->index->len - 1);
  double rx[2] = { first - 0.5, last + 0.5 };
  g_autofree char *unit = sl->unit && *sl->unit ? g_strdup_printf (" %s", sl->unit) : g_strdup ("");

  if (isfinite (sl->width))
    rx[0] = -0.5; /* aiperf's range starts at 0 s */
  if (!isfinite (sl->run_avg))
    return;
  if (isfinite (sl->run_std))
    {
      double lo[2] = { sl->run_avg - sl->run_std, sl->run_avg - sl->run_std };
      double hi[2] = { sl->run_avg + sl->run_std, sl->run_avg + sl->run_std };
      g_autofree char *name = g_strdup_printf (_ ("Run Std: %.2f%s"), sl->run_std, unit);
      IvSeries *b = iv_chart_add_band (c, name, rx, lo, hi, 2);
      iv_series_set_color (b, 0xb0b0b0);
      iv_series_set_alpha (b, 0.3);
    }
  {
    double ry[2] = { sl->run_avg, sl->run_avg };
    g_autofree char *name = g_strdup_printf (_ ("Run Average: %.2f%s"), sl->run_avg, unit);
    IvSeries *l = iv_chart_add_line (c, name, rx, ry, 2);
    iv_series_set_color (l, 0x555555);
    iv_series_set_line_width (l, 2);
  }
}

/* detect_directional_outliers: worse than the run's average by more than the run's std
 * and the slice's own — below it for a throughput, above it for the rest; none without
 * the run's average and std. */
static gboolean
slice_is_outlier (const Slices *sl, guint k)
{
  double v = g_array_index (sl->value, double, k), sd = g_array_index (sl->std, double, k);
  g_autofree char *lower = g_ascii_strdown (sl->metric_name, -1);

  if (!isfinite (sl->run_avg) || !isfinite (sl->run_std))
    return FALSE;
  if (!isfinite (sd))
    sd = 0;
  if (strstr (lower, "throughput"))
    return v < sl->run_avg - sl->run_std - sd;
  return v > sl->run_avg + sl->run_std + sd;
}

static IvChart *
timeslices (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  Slices sl;
  g_autofree char *sub = run_subtitle (r);
  g_autofree char *title = NULL;
  guint n;
  IvChart *c;

  if (!slices_read (spec, r, &sl, reason))
    {
      slices_clear (&sl);
      return NULL;
    }
  n = sl.index->len;
  title = g_strdup_printf (_ ("%s Over Time"), spec->y.metric ? spec->y.metric : "");
  c = new_chart (spec, title, sub);
  slices_axis (c, &sl);
  slices_value_axis (c, spec, &sl);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  slices_reference (c, &sl);
  for (int outliers = 0; outliers < 2; outliers++)
    {
      g_autofree double *x = g_new (double, n), *y = g_new (double, n);
      g_autofree double *lo = g_new (double, n), *hi = g_new (double, n);
      guint m = 0;
      IvSeries *e, *p;
      for (guint k = 0; k < n; k++)
        {
          double v = g_array_index (sl.value, double, k), sd = g_array_index (sl.std, double, k);
          if (slice_is_outlier (&sl, k) != outliers)
            continue;
          x[m] = g_array_index (sl.index, double, k);
          y[m] = v;
          lo[m] = isfinite (sd) ? v - sd : v;
          hi[m] = isfinite (sd) ? v + sd : v;
          m++;
        }
      if (m == 0)
        continue;
      e = iv_chart_add_error_bars (
          c, outliers ? _ ("±1 Timeslice Std (outliers)") : _ ("±1 Timeslice Std"), x, y, lo, hi,
          m);
      iv_series_set_color (e, outliers ? 0xe74c3c : 0x4c72b0);
      p = iv_chart_add_scatter (c, outliers ? _ ("Outliers") : _ ("Timeslice Average"), x, y, m);
      iv_series_set_color (p, outliers ? 0xe74c3c : 0x4c72b0);
      iv_series_set_marker (p, outliers ? IV_MARKER_DIAMOND : IV_MARKER_CIRCLE, outliers ? 9 : 7);
    }
  slices_clear (&sl);
  return c;
}

/* aiperf's histogram: a time-slice statistic as one bar per window, the slices' std as
 * error bars, the run's average and ± its std across (create_time_series_histogram). */
static IvChart *
slice_bars (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  Slices sl;
  g_autofree char *sub = run_subtitle (r);
  g_autofree char *title = NULL;
  g_autofree double *x = NULL, *lo = NULL, *hi = NULL, *bars = NULL;
  guint n, cats;
  IvChart *c;

  if (!slices_read (spec, r, &sl, reason))
    {
      slices_clear (&sl);
      return NULL;
    }
  n = sl.index->len;
  cats = (guint) MIN (g_array_index (sl.index, double, n - 1) + 1, 100000);
  title = g_strdup_printf (_ ("%s Over Time"), spec->y.metric ? spec->y.metric : "");
  c = new_chart (spec, title, sub);
  {
    g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
    for (guint k = 0; k < cats; k++)
      g_ptr_array_add (names, isfinite (sl.width) ? g_strdup_printf ("%d-%d", (int) (k * sl.width),
                                                                     (int) ((k + 1) * sl.width))
                                                  : g_strdup_printf ("%u", k));
    iv_chart_set_categories (c, (const char *const *) names->pdata, cats);
  }
  iv_chart_axis_set_title (c, IV_AXIS_X,
                           isfinite (sl.width) ? _ ("Timeslice (s)") : _ ("Timeslice"));
  slices_value_axis (c, spec, &sl);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  bars = g_new (double, MAX (cats, 1));
  for (guint k = 0; k < cats; k++)
    bars[k] = NAN;
  x = g_new (double, n), lo = g_new (double, n), hi = g_new (double, n);
  for (guint k = 0; k < n; k++)
    {
      double i = g_array_index (sl.index, double, k), v = g_array_index (sl.value, double, k),
             sd = g_array_index (sl.std, double, k);
      if (i < cats)
        bars[(guint) i] = v;
      x[k] = i, lo[k] = isfinite (sd) ? v - sd : v, hi[k] = isfinite (sd) ? v + sd : v;
    }
  iv_series_set_color (iv_chart_add_bars (c, spec->y.metric ? spec->y.metric : "", bars, cats),
                       0x4c72b0);
  iv_series_set_color (iv_chart_add_error_bars (c, _ ("±1 Timeslice Std"), x,
                                                (const double *) sl.value->data, lo, hi, n),
                       0x4c72b0);
  slices_reference (c, &sl);
  slices_clear (&sl);
  return c;
}

/* The clock of a figure of server metrics: the client's first request when it has
 * requests, else the first scrape, else the first window of server_metrics_export.json
 * (0 when there is none). */
static gint64
server_origin (const IvRun *r)
{
  if (r->t1_ns > r->t0_ns)
    return r->t0_ns;
  if (r->server->t0_ns >= 0)
    return r->server->t0_ns;
  for (guint i = 0; i < r->server->endpoints->len; i++)
    {
      const IvServerEndpoint *ep = r->server->endpoints->pdata[i];
      if (ep->ts_ns->len)
        return g_array_index (ep->ts_ns, gint64, 0);
    }
  for (guint i = 0; i < r->server->agg_series->len; i++)
    {
      const IvServerAggSeries *a = r->server->agg_series->pdata[i];
      if (a->slices && a->slices->len)
        return g_array_index (a->slices, IvServerSlice, 0).start_ns;
    }
  return 0;
}

/* Whether the run's server_metrics_export.json has metric @name (filters aside), by the
 * exact name aiperf plot looks up. */
static gboolean
server_json_has (const IvRun *r, const char *name)
{
  g_autoptr (IvPromSpec) ps = iv_prom_spec_parse (name, NULL);
  for (guint i = 0; ps && r->server && i < r->server->agg_series->len; i++)
    if (g_str_equal (((const IvServerAggSeries *) r->server->agg_series->pdata[i])->metric,
                     ps->metric))
      return TRUE;
  return FALSE;
}

/* A server metric's percentile bands from the windows of server_metrics_export.json
 * (iv_server_metrics_bands ()): aiperf's one series on its clock (seconds since 1970 at
 * each window's middle) and with its names (a gauge's max as p95 and p99, its min as
 * p05), or Inferview's: each series found on the run's clock, a gauge as its min–max
 * band around its avg, a counter as its rate. */
static IvChart *
server_bands (const IvPlotSpec *spec, const IvRun *r, const char *name, char **reason)
{
  gboolean aiperf = spec->aiperf_compatible;
  g_autoptr (IvPromSpec) ps = NULL;
  g_autoptr (GPtrArray) bands = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL, *sub = NULL;
  const IvServerBands *first;
  gint64 origin = 0;
  guint found = 0;
  IvChart *c;

  if (!r->server || !r->server->aggregate_path)
    {
      *reason = g_strdup_printf (_ ("no server_metrics_export.json in this run: the bands of "
                                    "“%s” are drawn from its windows"),
                                 name);
      return NULL;
    }
  if (!aiperf)
    {
      /* the client's clock when it has requests, else the server's first scrape's */
      origin = server_origin (r);
    }
  if (!(bands = iv_server_metrics_bands (r->server, name, origin, aiperf, &found, &error)))
    {
      *reason = g_strdup (error->message);
      return NULL;
    }
  ps = iv_prom_spec_parse (name, NULL);
  first = bands->pdata[0];
  title = g_strdup_printf (_ ("%s Percentile Bands Over Time"), ps ? ps->metric : name);
  if (aiperf)
    sub = g_strdup (first->type == IV_PROM_HISTOGRAM
                        ? _ ("Shaded bands show percentiles range over time")
                        : _ ("Shaded bands show min/avg/max range over time"));
  else
    {
      g_autofree char *line = run_subtitle (r);
      sub = found > bands->len
                ? g_strdup_printf (_ ("%s · the first %u of %u series"), line, bands->len, found)
                : g_steal_pointer (&line);
    }
  c = new_chart (spec, title, sub);
  iv_chart_axis_set_title (c, IV_AXIS_X,
                           spec->x_label ? spec->x_label
                           : aiperf      ? _ ("Time (s)")
                                         : _ ("Time since the first request"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  {
    const char *metric = ps ? ps->metric : name;
    g_autofree char *y = first->unit && *first->unit
                             ? g_strdup_printf ("%s (%s)", metric, first->unit)
                             : g_strdup (metric);
    iv_chart_axis_set_title (c, IV_AXIS_Y, spec->y_label ? spec->y_label : y);
  }
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  for (guint i = 0; i < bands->len; i++)
    {
      const IvServerBands *b = bands->pdata[i];
      const double *x = (const double *) (void *) b->x_s->data;
      const double *p50 = (const double *) (void *) b->p50->data;
      const double *p95 = (const double *) (void *) b->p95->data;
      const double *p99 = (const double *) (void *) b->p99->data;
      guint n = b->x_s->len;
      IvColor pc = iv_palette_color (IV_THEME_LIGHT, iv_palette_index_for (b->name));
      guint32 colour = bands->len == 1 ? 0x448aff
                                       : (guint32) lround (pc.r * 255) << 16
                                             | (guint32) lround (pc.g * 255) << 8
                                             | (guint32) lround (pc.b * 255);
      g_autofree char *who = bands->len > 1 ? g_strdup_printf ("%s · ", b->name) : g_strdup ("");
      g_autofree char *n_hi = NULL, *n_mid = NULL, *n_line = NULL;
      IvSeries *sr;
      if (aiperf)
        {
          /* create_percentile_bands' traces in its order: p95–p99 filled ("p95-p99
           * band"), the p50 line filled up to p95 (its fill is the line's trace: no
           * legend entry of its own), and a gauge's p05–p50 after them */
          sr = iv_chart_add_band (c, _ ("p95-p99 band"), x, p95, p99, n);
          iv_series_set_color (sr, 0x448aff);
          iv_series_set_alpha (sr, 0.2);
          sr = iv_chart_add_band (c, _ ("p50-p95 band"), x, p50, p95, n);
          iv_series_set_color (sr, 0x448aff);
          iv_series_set_alpha (sr, 0.3);
          iv_series_set_show_in_legend (sr, FALSE);
          sr = iv_chart_add_line (c, _ ("p50 (median)"), x, p50, n);
          iv_series_set_color (sr, 0x1f77b4);
          iv_series_set_line_width (sr, 2.5);
          if (b->low)
            {
              sr = iv_chart_add_band (c, _ ("p05-p50 band"), x,
                                      (const double *) (void *) b->low->data, p50, n);
              iv_series_set_color (sr, 0x448aff);
              iv_series_set_alpha (sr, 0.2);
            }
          continue;
        }
      switch (b->type)
        {
        case IV_PROM_HISTOGRAM:
          n_hi = g_strdup_printf ("%s%s", who, _ ("p95–p99"));
          n_mid = g_strdup_printf ("%s%s", who, _ ("p50–p95"));
          n_line = g_strdup_printf ("%s%s", who, _ ("p50"));
          sr = iv_chart_add_band (c, n_hi, x, p95, p99, n);
          iv_series_set_color (sr, colour);
          iv_series_set_alpha (sr, 0.2);
          sr = iv_chart_add_band (c, n_mid, x, p50, p95, n);
          iv_series_set_color (sr, colour);
          iv_series_set_alpha (sr, 0.3);
          break;
        case IV_PROM_GAUGE:
          n_mid = g_strdup_printf ("%s%s", who, _ ("min–max"));
          n_line = g_strdup_printf ("%s%s", who, _ ("avg"));
          sr = iv_chart_add_band (c, n_mid, x, (const double *) (void *) b->low->data, p99, n);
          iv_series_set_color (sr, colour);
          iv_series_set_alpha (sr, 0.25);
          break;
        default:
          n_line = g_strdup_printf ("%s%s", who, _ ("rate"));
          break;
        }
      sr = iv_chart_add_line (c, n_line, x, p50, n);
      iv_series_set_color (sr, bands->len > 1 ? colour : 0x1f77b4);
      iv_series_set_line_width (sr, 2.5);
    }
  return c;
}

/* percentile_bands: a server metric's from the windows of server_metrics_export.json
 * (server_bands ()); a client metric's as each slice's p50 as a line, between it and the
 * p95 a band, between the p95 and the p99 a lighter one, drawn as aiperf's
 * create_percentile_bands draws its rows. aiperf plot itself draws bands only of a
 * server metric (PercentileBandsHandler looks every name up in the per-window statistics
 * of server_metrics_export.json and raises DataUnavailableError when it is not there), so
 * with --aiperf-compatible a client metric is skipped as aiperf skips it. */
static IvChart *
percentile_bands (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  const GPtrArray *slices = slices_of (spec, r);
  const char *name = spec->y.metric ? spec->y.metric : "Time to First Token";
  g_autofree char *tag = tag_of (name);
  g_autofree char *sub = run_subtitle (r);
  g_autofree char *title = g_strdup_printf (_ ("%s Percentile Bands Over Time"), name);
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) p50 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) p95 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) p99 = g_array_new (FALSE, FALSE, sizeof (double));
  const char *unit = NULL;
  double width;
  IvChart *c;

  /* aiperf plot looks every name up among the server metrics' windows */
  if (spec->aiperf_compatible || iv_prom_is_server_metric (spec->source, name))
    {
      if (spec->aiperf_compatible && !iv_prom_is_server_metric (spec->source, name)
          && !server_json_has (r, name))
        {
          *reason = g_strdup_printf (_ ("aiperf plot draws percentile bands only of server "
                                        "metrics (“%s” is a client metric; it says the metric is "
                                        "not found in server metrics)"),
                                     name);
          return NULL;
        }
      return server_bands (spec, r, name, reason);
    }
  if (slices->len == 0)
    {
      *reason = g_strdup (_ ("no time slices in this run (AIPerf writes them with "
                             "--slice-duration): the bands are each slice's percentiles"));
      return NULL;
    }
  width = slice_width (spec, r, slices);
  for (guint i = 0; i < slices->len; i++)
    {
      const IvTimeslice *ts = slices->pdata[i];
      const IvMetricSummary *m = g_hash_table_lookup (ts->metrics, tag);
      double at;
      if (!m || !isfinite (m->p50))
        continue;
      /* the middle of the slice, in seconds when its width is known */
      at = isfinite (width) ? (ts->index + 0.5) * width : (double) ts->index;
      unit = m->unit;
      g_array_append_val (x, at);
      g_array_append_val (p50, m->p50);
      {
        double v95 = isfinite (m->p95) ? m->p95 : m->p50, v99 = isfinite (m->p99) ? m->p99 : v95;
        g_array_append_val (p95, v95);
        g_array_append_val (p99, v99);
      }
    }
  if (x->len == 0)
    {
      *reason = g_strdup_printf (_ ("the time slices have no percentiles of “%s”"), name);
      return NULL;
    }
  c = new_chart (spec, title, sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, isfinite (width) ? _ ("Time (s)") : _ ("Timeslice"));
  if (isfinite (width))
    iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  {
    g_autofree char *y = unit && *unit ? g_strdup_printf ("%s (%s)", name, unit) : g_strdup (name);
    iv_chart_axis_set_title (c, IV_AXIS_Y, y);
  }
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_metric_unit (unit));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  {
    IvSeries *s
        = iv_chart_add_band (c, _ ("p95-p99 band"), (const double *) x->data,
                             (const double *) p95->data, (const double *) p99->data, x->len);
    iv_series_set_color (s, 0x448aff);
    iv_series_set_alpha (s, 0.2);
    s = iv_chart_add_band (c, _ ("p50-p95 band"), (const double *) x->data,
                           (const double *) p50->data, (const double *) p95->data, x->len);
    iv_series_set_color (s, 0x448aff);
    iv_series_set_alpha (s, 0.3);
    s = iv_chart_add_line (c, _ ("p50 (median)"), (const double *) x->data,
                           (const double *) p50->data, x->len);
    iv_series_set_color (s, 0x1f77b4);
    iv_series_set_line_width (s, 2.5);
  }
  return c;
}

/* ---------- many runs ---------- */

/* Whether the runs' ISL × OSL cells group them: when both lengths vary and neither the
 * user nor --aiperf-compatible chose the groups (the built-in [model] is AIPerf's default
 * for sweeps of one workload), as one "model" group zig-zagged its frontier across every
 * cell (36 runs, nine cells). */
static gboolean
groups_by_cell (const IvPlotSpec *spec, const IvSweep *sweep)
{
  return (!(spec->groups && spec->groups[0])
          || (spec->builtin && g_str_equal (spec->groups[0], "model") && !spec->groups[1]))
         && !spec->baselines && !spec->aiperf_compatible && sweep
         && g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_ISL), NULL)
         && g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_OSL), NULL);
}

static char *
group_of (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *r)
{
  const char *field = spec->groups && spec->groups[0] ? spec->groups[0] : "model";
  if (spec->baselines)
    return iv_plot_spec_experiment (spec, r->name, r->path);
  if (groups_by_cell (spec, sweep))
    {
      g_autofree char *isl = iv_run_field_text (r, IV_FIELD_ISL);
      g_autofree char *osl = iv_run_field_text (r, IV_FIELD_OSL);
      g_autofree char *model = NULL;
      if (!isl || !osl)
        return g_strdup (_ ("(unknown)"));
      /* two models over the same cells stay apart too */
      if (g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_MODEL), NULL))
        model = iv_run_field_text (r, IV_FIELD_MODEL);
      return model ? g_strdup_printf ("%s · ISL %s · OSL %s", model, isl, osl)
                   : g_strdup_printf ("ISL %s · OSL %s", isl, osl);
    }
  for (IvField f = 0; f < IV_N_FIELDS; f++)
    if (g_str_equal (field, iv_field_key (f)))
      {
        char *v = iv_run_field_text (r, f);
        return v ? v : g_strdup (_ ("(unknown)"));
      }
  return g_strdup (r->name);
}

static char *
label_of (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *r)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; spec->labels && spec->labels[i]; i++)
    for (IvField f = 0; f < IV_N_FIELDS; f++)
      if (g_str_equal (spec->labels[i], iv_field_key (f)))
        {
          g_autofree char *v = iv_run_field_text (r, f);
          if (s->len)
            g_string_append (s, ", ");
          g_string_append (s, v ? v : "–");
        }
  if (s->len == 0)
    {
      /* no label fields: what tells the runs apart */
      g_autofree char *label = iv_sweep_run_label (sweep, r);
      g_string_append (s, label);
    }
  return g_string_free (s, FALSE);
}

static int
compare_by_x (const void *a, const void *b, void *data)
{
  const double *x = data;
  double u = x[*(const guint *) a], v = x[*(const guint *) b];
  return (u > v) - (u < v);
}

/* What the chart of a metric against a metric says under its title. */
static char *
across_runs_subtitle (const IvPlotSpec *spec, const char *xt, const char *yt, guint usable)
{
  if (spec->type == IV_PLOT_UNCERTAINTY)
    return g_strdup (_ ("ellipses: the confidence intervals of both means over each run’s trials, "
                        "as AIPerf computed them"));
  if (spec->type == IV_PLOT_PARETO)
    /* x and y, not their titles again: with them it was cut ("…the line jo…") on a
     * paper column, and the axes name them */
    return g_strdup_printf (
        _ ("better: %s x, %s y · the line joins each group’s frontier"),
        iv_metric_higher_is_better (spec->x.metric) ? _ ("higher") : _ ("lower"),
        iv_metric_higher_is_better (spec->y.metric) ? _ ("higher") : _ ("lower"));
  return g_strdup_printf (g_dngettext (NULL, "%u run", "%u runs", usable), usable);
}

/* Axis titles (with the statistic unless the metric is a configuration field) and units,
 * read from @any run that has both metrics. */
static void
set_across_axes (IvChart *c, const IvPlotSpec *spec, const IvRun *any, const char *xt,
                 const char *yt)
{
  const char *xm = spec->x.metric, *ym = spec->y.metric;
  g_autofree char *xs = g_strdup_printf ("%s (%s)", xt, spec->x.stat ? spec->x.stat : "avg");
  g_autofree char *ys = g_strdup_printf ("%s (%s)", yt, spec->y.stat ? spec->y.stat : "avg");
  gboolean field_x = FALSE, field_y = FALSE;

  for (IvField f = 0; f < IV_N_FIELDS; f++)
    field_x |= g_str_equal (xm, iv_field_key (f)), field_y |= g_str_equal (ym, iv_field_key (f));
  iv_chart_axis_set_title (c, IV_AXIS_X, field_x ? xt : xs);
  iv_chart_axis_set_title (c, IV_AXIS_Y, field_y ? yt : ys);
  iv_chart_axis_set_unit (c, IV_AXIS_X, iv_metric_unit (unit_of (any, xm)));
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_runs_metric_unit (any, ym));
}

/* A group's colour: its palette slot by name, so a group keeps its colour across plots. */
/* Classified experiments: baselines in greys, treatments in NVIDIA greens, a shade each
 * in legend order, as aiperf colours them. */
static guint32
classified_rgb (gboolean baseline, guint nth)
{
  static const guint32 greys[] = { 0x4d4d4d, 0x808080, 0xa6a6a6, 0x333333, 0x999999, 0x666666 };
  static const guint32 greens[] = { 0x76b900, 0x4a7a00, 0x9fd43f, 0x2e5200, 0xbfe67a, 0x5f9400 };
  return baseline ? greys[nth % G_N_ELEMENTS (greys)] : greens[nth % G_N_ELEMENTS (greens)];
}

static guint32
group_rgb (const char *group)
{
  IvColor col = iv_palette_color (IV_THEME_LIGHT, iv_palette_index_for (group));
  return (guint32) lround (col.r * 255) << 16 | (guint32) lround (col.g * 255) << 8
         | (guint32) lround (col.b * 255);
}

/* The @nth group's colour: the palette in order. */
static guint32
group_rgb_nth (guint nth)
{
  IvColor col = iv_palette_color (IV_THEME_LIGHT, nth % IV_PALETTE_SIZE);
  return (guint32) lround (col.r * 255) << 16 | (guint32) lround (col.g * 255) << 8
         | (guint32) lround (col.b * 255);
}

/* The line of one group's @n points (in x order): its pareto frontier on a pareto plot,
 * else all of them joined. */
static void
add_group_line (IvChart *c, const IvPlotSpec *spec, const char *group, const double *gx,
                const double *gy, guint n, guint32 rgb)
{
  IvSeries *line;

  if (spec->type == IV_PLOT_PARETO)
    {
      g_autofree gboolean *on = g_new (gboolean, n);
      g_autofree double *fx = g_new (double, n), *fy = g_new (double, n);
      g_autofree char *name = g_strdup_printf (_ ("%s frontier"), group);
      guint nf = 0;
      iv_pareto_frontier (gx, gy, n, iv_metric_higher_is_better (spec->x.metric),
                          iv_metric_higher_is_better (spec->y.metric), on);
      for (guint k = 0; k < n; k++)
        if (on[k])
          fx[nf] = gx[k], fy[nf++] = gy[k];
      line = iv_chart_add_line (c, name, fx, fy, nf);
      iv_series_set_line_width (line, 2.5);
    }
  else
    {
      line = iv_chart_add_line (c, group, gx, gy, n);
      iv_series_set_line_width (line, 2);
    }
  iv_series_set_color (line, rgb);
  iv_series_set_show_in_legend (line, FALSE);
}

/* Repeated trials: each run's confidence region for the two means, as an ellipse with
 * the two intervals as its axes (the trials' covariance is not exported). @idx: the
 * group's runs, matching the points @gx, @gy. */
static void
add_confidence_regions (IvChart *c, const IvPlotSpec *spec, const IvSweep *sweep, const GArray *idx,
                        const double *gx, const double *gy, guint32 rgb)
{
  g_autofree char *xkey
      = g_strdup_printf ("%s_%s", spec->x.metric, spec->x.stat ? spec->x.stat : "avg");
  g_autofree char *ykey
      = g_strdup_printf ("%s_%s", spec->y.metric, spec->y.stat ? spec->y.stat : "avg");

  for (guint k = 0; k < idx->len; k++)
    {
      const IvRun *r = sweep->runs->pdata[g_array_index (idx, guint, k)];
      const IvAggregateStat *ax = g_hash_table_lookup (r->aggregate, xkey);
      const IvAggregateStat *ay = g_hash_table_lookup (r->aggregate, ykey);
      double rx = ax ? (ax->ci_high - ax->ci_low) / 2 : 0,
             ry = ay ? (ay->ci_high - ay->ci_low) / 2 : 0;
      double ex[65], ey[65];
      IvSeries *e;
      if (!(rx > 0 || ry > 0) || !isfinite (rx) || !isfinite (ry))
        continue;
      for (int q = 0; q <= 64; q++)
        {
          ex[q] = gx[k] + rx * cos (2 * G_PI * q / 64);
          ey[q] = gy[k] + ry * sin (2 * G_PI * q / 64);
        }
      e = iv_chart_add_line (c, _ ("confidence region"), ex, ey, 65);
      iv_series_set_color (e, rgb);
      iv_series_set_show_in_legend (e, FALSE);
    }
}

/* One group's series (@members: its runs' indices): those with both values, in x order, as a line
 * (or frontier) and labelled points, with confidence regions on an uncertainty plot. */
static void
add_group (IvChart *c, const IvPlotSpec *spec, const IvSweep *sweep, const char *group,
           GArray *members, GPtrArray *labels, const double *x, const double *y, gboolean baseline,
           guint nth)
{
  g_autoptr (GArray) idx = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree double *gx = NULL, *gy = NULL;
  g_autofree const char **gl = NULL;
  static const IvMarker shapes[]
      = { IV_MARKER_CIRCLE, IV_MARKER_SQUARE, IV_MARKER_TRIANGLE, IV_MARKER_DIAMOND };
  /* cells are many (nine of a 3 × 3 sweep): each its own colour in order, then its own
   * shape, where hashed names shared a colour and read as one group */
  gboolean by_cell = groups_by_cell (spec, sweep);
  guint32 rgb = spec->baselines ? classified_rgb (baseline, nth)
                : by_cell       ? group_rgb_nth (nth)
                                : group_rgb (group);
  IvSeries *pts;

  for (guint m = 0; m < members->len; m++)
    {
      guint i = g_array_index (members, guint, m);
      if (isfinite (x[i]) && isfinite (y[i]))
        g_array_append_val (idx, i);
    }
  if (idx->len == 0)
    return;
  g_array_sort_with_data (idx, (GCompareDataFunc) compare_by_x, (gpointer) x);
  gx = g_new (double, idx->len), gy = g_new (double, idx->len);
  gl = g_new0 (const char *, idx->len + 1);
  for (guint k = 0; k < idx->len; k++)
    {
      guint i = g_array_index (idx, guint, k);
      gx[k] = x[i], gy[k] = y[i], gl[k] = labels->pdata[i];
    }
  add_group_line (c, spec, group, gx, gy, idx->len, rgb);
  pts = iv_chart_add_scatter (c, group, gx, gy, idx->len);
  iv_series_set_color (pts, rgb);
  iv_series_set_marker (
      pts, by_cell ? shapes[(nth / IV_PALETTE_SIZE) % G_N_ELEMENTS (shapes)] : IV_MARKER_CIRCLE, 9);
  iv_series_set_labels (pts, gl);
  /* a cell's short name, "128 · 2048" under the legend's "ISL · OSL", for a legend that
   * would crowd a paper column with nine "ISL 128 · OSL 2048" (two models: none) */
  if (by_cell && !g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_MODEL), NULL))
    {
      const IvRun *r = sweep->runs->pdata[g_array_index (idx, guint, 0)];
      g_autofree char *isl = iv_run_field_text (r, IV_FIELD_ISL);
      g_autofree char *osl = iv_run_field_text (r, IV_FIELD_OSL);
      if (isl && osl)
        {
          g_autofree char *brief = g_strdup_printf ("%s · %s", isl, osl);
          iv_series_set_short_name (pts, brief);
          iv_chart_set_legend_title (c, _ ("ISL · OSL"));
        }
    }
  if (spec->type == IV_PLOT_UNCERTAINTY)
    add_confidence_regions (c, spec, sweep, idx, gx, gy, rgb);
}

/* A group of classified runs, for ordering the legend: baselines first, then by name. */
typedef struct
{
  const char *name;
  gboolean baseline;
} ClassifiedGroup;

static int
compare_classified (gconstpointer pa, gconstpointer pb)
{
  const ClassifiedGroup *a = pa, *b = pb;
  if (a->baseline != b->baseline)
    return a->baseline ? -1 : 1;
  return g_strcmp0 (a->name, b->name);
}

/* A metric against a metric, one point per run, one series per group (in order of first
 * appearance). */
static IvChart *
across_runs (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  const char *xm = spec->x.metric, *ym = spec->y.metric;
  guint n = sweep->runs->len;
  g_autofree double *x = g_new (double, MAX (n, 1)), *y = g_new (double, MAX (n, 1));
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *xt = NULL, *yt = NULL, *sub = NULL, *fallback = NULL;
  const IvRun *any = NULL;
  IvChart *c;
  guint usable = 0;

  if (!xm || !ym)
    {
      *reason = g_strdup (_ ("the preset names no x or y metric"));
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      x[i] = iv_run_axis_value (r, xm, spec->x.stat);
      y[i] = iv_run_axis_value (r, ym, spec->y.stat);
      g_ptr_array_add (groups, group_of (spec, sweep, r));
      g_ptr_array_add (labels, label_of (spec, sweep, r));
      if (isfinite (x[i]) && isfinite (y[i]))
        usable++, any = any ? any : r;
    }
  if (usable == 0)
    {
      *reason = g_strdup_printf (_ ("no run has both “%s” and “%s”"), xm, ym);
      return NULL;
    }
  xt = iv_metric_title (xm);
  yt = iv_metric_title (ym);
  sub = across_runs_subtitle (spec, xt, yt, usable);
  /* untitled (the window's custom comparison, a config entry without one): its axes */
  fallback = g_strdup_printf (_ ("%s vs %s"), yt, xt);
  c = new_chart (spec, fallback, sub);
  set_across_axes (c, spec, any, xt, yt);
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
  {
    /* each group once, in order of first appearance; classified: baselines first, then
     * treatments, each alphabetically, a shade per group within its kind (a group is a
     * baseline when its first run is) */
    g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (ClassifiedGroup));
    /* group name → its runs' indices: one pass, so thousands of groups stay linear */
    g_autoptr (GHashTable) members
        = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
    guint n_base = 0, n_treat = 0;
    for (guint g = 0; g < groups->len; g++)
      {
        GArray *of = g_hash_table_lookup (members, groups->pdata[g]);
        if (!of)
          {
            const IvRun *r = sweep->runs->pdata[g];
            ClassifiedGroup cg
                = { groups->pdata[g],
                    spec->baselines && iv_plot_spec_is_baseline (spec, r->name, r->path) };
            g_array_append_val (order, cg);
            of = g_array_new (FALSE, FALSE, sizeof (guint));
            g_hash_table_insert (members, groups->pdata[g], of);
          }
        g_array_append_val (of, g);
      }
    if (spec->baselines)
      g_array_sort (order, compare_classified);
    for (guint g = 0; g < order->len; g++)
      {
        const ClassifiedGroup *cg = &g_array_index (order, ClassifiedGroup, g);
        add_group (c, spec, sweep, cg->name, g_hash_table_lookup (members, cg->name), labels, x, y,
                   cg->baseline, cg->baseline ? n_base++ : n_treat++);
      }
  }
  return c;
}

/* ---------- many runs, as aiperf plot draws them (--aiperf-compatible) ---------- */

/* A configuration value as a cell of aiperf plot's runs table, written as Python's str ()
 * writes it: the concurrency 1 when the run does not say, the model "Unknown". */
static char *
aiperf_cell (const IvRun *r, const char *column)
{
  if (g_str_equal (column, "run_name"))
    return g_strdup (r->name);
  if (g_str_equal (column, "model"))
    return g_strdup (r->model ? r->model : "Unknown");
  if (g_str_equal (column, "concurrency"))
    return g_strdup_printf ("%.10g", r->concurrency > 0 ? r->concurrency : 1);
  for (IvField f = 0; f < IV_N_FIELDS; f++)
    if (g_str_equal (column, iv_field_key (f)))
      {
        char *v = iv_run_field_text (r, f);
        return v ? v : g_strdup ("None");
      }
  return g_strdup ("None");
}

/* groups: [X] as PlotConfig._resolve_preset_groups resolves it: experiment_group when
 * the classification is on, run_name when the preset names none. */
static const char *
aiperf_group_column (const IvPlotSpec *spec)
{
  if (spec->baselines)
    return "experiment_group";
  return spec->groups && spec->groups[0] ? spec->groups[0] : "run_name";
}

typedef struct
{
  char *value; /* the group's value */
  gboolean numeric;
  double number;
  gboolean baseline; /* the experiment type of its first run */
} AiperfGroup;

static gint
compare_aiperf_groups (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const AiperfGroup *a = pa, *b = pb;
  gboolean classified = GPOINTER_TO_INT (data);
  /* _prepare_groups: sorted (baselines first, then treatments, when classified) */
  if (classified && a->baseline != b->baseline)
    return a->baseline ? -1 : 1;
  if (a->numeric && b->numeric)
    return (a->number > b->number) - (a->number < b->number);
  return strcmp (a->value, b->value);
}

typedef struct
{
  double x, y;
  guint run;
} AiperfRow;

static gint
compare_rows_x (gconstpointer pa, gconstpointer pb)
{
  const AiperfRow *a = pa, *b = pb;
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  return (a->run > b->run) - (a->run < b->run);
}

/* A metric against a metric as MultiRunPNGExporter draws it: each run's p50 where its
 * summary has one (else its avg) whatever the statistic named, per-GPU throughput over
 * the GPUs of every telemetry endpoint, groups in sorted order, each group's points by
 * x, aiperf's frontier (create_pareto_plot, create_scatter_line_plot). */
static IvChart *
across_runs_aiperf (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  const char *xm = spec->x.metric, *ym = spec->y.metric;
  const char *group_col = aiperf_group_column (spec);
  const char *label_col = spec->labels && spec->labels[0] ? spec->labels[0] : "concurrency";
  g_autoptr (GArray) groups = g_array_new (FALSE, FALSE, sizeof (AiperfGroup));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint *group_of_run = NULL;
  g_autofree char *fallback = NULL;
  guint usable = 0;
  IvChart *c;

  if (!xm || !ym)
    {
      *reason = g_strdup (_ ("the preset names no x or y metric"));
      return NULL;
    }
  group_of_run = g_new (guint, MAX (sweep->runs->len, 1));
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      g_autofree char *value = spec->baselines ? iv_plot_spec_experiment (spec, r->name, r->path)
                                               : aiperf_cell (r, group_col);
      gpointer at;
      if (isfinite (aiperf_value (spec, r, xm)) && isfinite (aiperf_value (spec, r, ym)))
        usable++;
      if (!g_hash_table_lookup_extended (index, value, NULL, &at))
        {
          AiperfGroup g = { g_strdup (value), FALSE, 0,
                            spec->baselines && iv_plot_spec_is_baseline (spec, r->name, r->path) };
          char *end = NULL;
          g.number = g_ascii_strtod (value, &end);
          g.numeric = g_str_equal (group_col, "concurrency") && end && !*end;
          g_array_append_val (groups, g);
          at = GUINT_TO_POINTER (groups->len - 1);
          g_hash_table_insert (index, g_array_index (groups, AiperfGroup, groups->len - 1).value,
                               at);
        }
      group_of_run[i] = GPOINTER_TO_UINT (at);
    }
  if (usable == 0)
    {
      /* _can_generate_plot: the columns are not there */
      *reason
          = g_strdup_printf (_ ("no run has both “%s” and “%s” as aiperf plot reads them"), xm, ym);
      for (guint g = 0; g < groups->len; g++)
        g_free (g_array_index (groups, AiperfGroup, g).value);
      return NULL;
    }
  fallback = g_strdup_printf ("%s vs %s", ym, xm);
  c = new_chart (spec, fallback,
                 _ ("as aiperf plot draws it: each run's p50 where its summary has one, GPUs "
                    "counted per telemetry endpoint"));
  /* BaseMultiRunHandler._get_metric_label: the metric's name (aiperf finds no display
   * name in what it is given); the concurrency is "Concurrency Level" */
  iv_chart_axis_set_title (c, IV_AXIS_X,
                           g_str_equal (xm, "concurrency") ? "Concurrency Level" : xm);
  iv_chart_axis_set_title (c, IV_AXIS_Y, ym);
  iv_chart_axis_set_unit (c, IV_AXIS_X, iv_runs_metric_unit (sweep->runs->pdata[0], xm));
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_runs_metric_unit (sweep->runs->pdata[0], ym));
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
  {
    /* the groups in aiperf's order (their indices move: the runs keep theirs) */
    g_autofree guint *order = g_new (guint, MAX (groups->len, 1));
    g_autoptr (GArray) sorted = g_array_copy (groups);
    for (guint g = 0; g < groups->len; g++)
      order[g] = g;
    g_array_sort_with_data (sorted, compare_aiperf_groups,
                            GINT_TO_POINTER (spec->baselines != NULL));
    for (guint k = 0; k < sorted->len; k++)
      {
        const AiperfGroup *g = &g_array_index (sorted, AiperfGroup, k);
        guint gi = GPOINTER_TO_UINT (g_hash_table_lookup (index, g->value));
        const char *shown = spec->group_display_names && spec->baselines
                                ? g_hash_table_lookup (spec->group_display_names, g->value)
                                : NULL;
        g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (AiperfRow));
        g_autofree double *gx = NULL, *gy = NULL;
        g_autofree char **gl = NULL;
        guint32 rgb = spec->baselines ? classified_rgb (g->baseline, k) : group_rgb (g->value);
        IvSeries *pts;
        for (guint i = 0; i < sweep->runs->len; i++)
          {
            const IvRun *r = sweep->runs->pdata[i];
            AiperfRow row = { aiperf_value (spec, r, xm), aiperf_value (spec, r, ym), i };
            if (group_of_run[i] == gi && isfinite (row.x) && isfinite (row.y))
              g_array_append_val (rows, row);
          }
        if (rows->len == 0)
          continue;
        g_array_sort (rows, compare_rows_x);
        gx = g_new (double, rows->len), gy = g_new (double, rows->len);
        gl = g_new0 (char *, rows->len + 1);
        for (guint k2 = 0; k2 < rows->len; k2++)
          {
            const AiperfRow *row = &g_array_index (rows, AiperfRow, k2);
            gx[k2] = row->x, gy[k2] = row->y;
            gl[k2] = aiperf_cell (sweep->runs->pdata[row->run], label_col);
          }
        if (spec->type == IV_PLOT_PARETO)
          {
            g_autofree gboolean *on = g_new (gboolean, rows->len);
            g_autofree double *fx = g_new (double, rows->len), *fy = g_new (double, rows->len);
            g_autofree char *name = g_strdup_printf (_ ("%s frontier"), shown ? shown : g->value);
            guint nf = 0;
            IvSeries *line;
            iv_pareto_frontier_aiperf (gx, gy, rows->len, iv_metric_higher_is_better (xm),
                                       iv_metric_higher_is_better (ym), on);
            for (guint k2 = 0; k2 < rows->len; k2++)
              if (on[k2])
                fx[nf] = gx[k2], fy[nf++] = gy[k2];
            line = iv_chart_add_line (c, name, fx, fy, nf);
            iv_series_set_line_width (line, 3);
            iv_series_set_color (line, rgb);
            iv_series_set_show_in_legend (line, FALSE);
          }
        else
          {
            g_autofree char *name = g_strdup_printf (_ ("%s line"), shown ? shown : g->value);
            IvSeries *line = iv_chart_add_line (c, name, gx, gy, rows->len);
            iv_series_set_line_width (line, 3);
            iv_series_set_color (line, rgb);
            iv_series_set_show_in_legend (line, FALSE);
          }
        pts = iv_chart_add_scatter (c, shown ? shown : g->value, gx, gy, rows->len);
        iv_series_set_color (pts, rgb);
        iv_series_set_marker (pts, IV_MARKER_CIRCLE, 9);
        iv_series_set_labels (pts, (const char *const *) gl);
        for (guint k2 = 0; k2 < rows->len; k2++)
          g_free (gl[k2]);
      }
  }
  for (guint g = 0; g < groups->len; g++)
    g_free (g_array_index (groups, AiperfGroup, g).value);
  return c;
}

typedef struct
{
  char *value;
  gboolean numeric;
  double number;
} Bucket;

static gint
compare_buckets (gconstpointer pa, gconstpointer pb)
{
  const Bucket *a = pa, *b = pb;
  if (a->numeric && b->numeric)
    return (a->number > b->number) - (a->number < b->number);
  return strcmp (a->value, b->value);
}

/* The distinct values of @column over the runs @rows (all when NULL), sorted as Python
 * sorts them (numbers by value, text by code point). */
static GArray *
aiperf_buckets (const IvSweep *sweep, const char *column, const GArray *rows)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Bucket));
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = rows ? rows->len : sweep->runs->len;

  for (guint k = 0; k < n; k++)
    {
      const IvRun *r = sweep->runs->pdata[rows ? g_array_index (rows, guint, k) : k];
      char *v = aiperf_cell (r, column), *end = NULL;
      Bucket b = { v, g_str_equal (column, "concurrency"), g_ascii_strtod (v, &end) };
      if (g_hash_table_contains (seen, v))
        {
          g_free (v);
          continue;
        }
      g_array_append_val (out, b);
      g_hash_table_add (seen, v);
    }
  g_array_sort (out, compare_buckets);
  return out;
}

static void
buckets_free (GArray *b)
{
  for (guint i = 0; i < b->len; i++)
    g_free (g_array_index (b, Bucket, i).value);
  g_array_unref (b);
}

/* LatencyThroughputUncertaintyHandler: a series per value of the grouping ("model = …",
 * sorted as text), in it a point per concurrency — the mean of its runs' values (each
 * run's p50, as every multi-run axis) with Student-t intervals over them
 * (_build_uncertainty_points; none for a single run) — drawn as ellipses. */
static IvChart *
uncertainty_aiperf (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  const char *xm = spec->x.metric, *ym = spec->y.metric;
  const char *series_col = aiperf_group_column (spec);
  const char *label_col = spec->labels && spec->labels[0] ? spec->labels[0] : NULL;
  double level = spec->ci_level;
  gboolean single = g_str_equal (series_col, "concurrency");
  GArray *series;
  IvChart *c;
  guint drawn = 0;

  if (!xm || !ym)
    {
      *reason = g_strdup (_ ("the preset names no x or y metric"));
      return NULL;
    }
  /* only 0.90, 0.95 and 0.99 are taken; anything else is 0.95 */
  if (fabs (level - 0.90) > 1e-9 && fabs (level - 0.95) > 1e-9 && fabs (level - 0.99) > 1e-9)
    level = 0.95;
  c = new_chart (spec, _ ("Latency vs Throughput (Joint Uncertainty)"),
                 _ ("as aiperf plot draws it: each concurrency's mean over its runs' p50s, "
                    "Student-t intervals as ellipses"));
  iv_chart_axis_set_title (c, IV_AXIS_X, xm);
  iv_chart_axis_set_title (c, IV_AXIS_Y, ym);
  iv_chart_axis_set_unit (c, IV_AXIS_X, iv_runs_metric_unit (sweep->runs->pdata[0], xm));
  iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_runs_metric_unit (sweep->runs->pdata[0], ym));
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
  series = single ? NULL : aiperf_buckets (sweep, series_col, NULL);
  for (guint si = 0; si < (single ? 1 : series->len); si++)
    {
      g_autoptr (GArray) members = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autofree char *name = single ? g_strdup ("Mean")
                                     : g_strdup_printf ("%s = %s", series_col,
                                                        g_array_index (series, Bucket, si).value);
      GArray *points;
      g_autoptr (GArray) px = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) py = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
      guint32 rgb = group_rgb (name);
      for (guint i = 0; i < sweep->runs->len; i++)
        {
          g_autofree char *v = single ? NULL : aiperf_cell (sweep->runs->pdata[i], series_col);
          if (single || g_str_equal (v, g_array_index (series, Bucket, si).value))
            g_array_append_val (members, i);
        }
      points = aiperf_buckets (sweep, "concurrency", members);
      for (guint pi = 0; pi < points->len; pi++)
        {
          const Bucket *b = &g_array_index (points, Bucket, pi);
          g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
          g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
          double mx = 0, my = 0, hx = 0, hy = 0;
          guint n;
          for (guint k = 0; k < members->len; k++)
            {
              const IvRun *r = sweep->runs->pdata[g_array_index (members, guint, k)];
              g_autofree char *conc = aiperf_cell (r, "concurrency");
              double x = aiperf_value (spec, r, xm), y = aiperf_value (spec, r, ym);
              if (!g_str_equal (conc, b->value) || !isfinite (x) || !isfinite (y))
                continue;
              g_array_append_val (xs, x);
              g_array_append_val (ys, y);
            }
          if ((n = xs->len) == 0)
            continue;
          for (guint k = 0; k < n; k++)
            mx += g_array_index (xs, double, k), my += g_array_index (ys, double, k);
          mx /= n, my /= n;
          if (n >= 2)
            {
              double t = iv_student_t_quantile ((1 + level) / 2, n - 1), sx = 0, sy = 0;
              for (guint k = 0; k < n; k++)
                {
                  sx += (g_array_index (xs, double, k) - mx) * (g_array_index (xs, double, k) - mx);
                  sy += (g_array_index (ys, double, k) - my) * (g_array_index (ys, double, k) - my);
                }
              hx = t * sqrt (sx / (n - 1)) / sqrt (n);
              hy = t * sqrt (sy / (n - 1)) / sqrt (n);
            }
          g_array_append_val (px, mx);
          g_array_append_val (py, my);
          /* the label column's most frequent value in the bucket: the concurrency's own */
          g_ptr_array_add (labels,
                           label_col ? aiperf_cell (
                               sweep->runs->pdata[g_array_index (members, guint, 0)], label_col)
                                     : NULL);
          if (label_col && g_str_equal (label_col, "concurrency"))
            {
              g_free (labels->pdata[labels->len - 1]);
              labels->pdata[labels->len - 1] = g_strdup (b->value);
            }
          if (hx > 0 || hy > 0)
            {
              double ex[65], ey[65];
              g_autofree char *ci = g_strdup_printf (_ ("%s interval"), name);
              IvSeries *e;
              for (int q = 0; q <= 64; q++)
                ex[q] = mx + hx * cos (2 * G_PI * q / 64),
                ey[q] = my + hy * sin (2 * G_PI * q / 64);
              e = iv_chart_add_line (c, ci, ex, ey, 65);
              iv_series_set_color (e, rgb);
              iv_series_set_show_in_legend (e, FALSE);
            }
        }
      buckets_free (points);
      if (px->len)
        {
          IvSeries *pts = iv_chart_add_scatter (c, name, (const double *) px->data,
                                                (const double *) py->data, px->len);
          g_ptr_array_add (labels, NULL);
          iv_series_set_color (pts, rgb);
          iv_series_set_marker (pts, IV_MARKER_CIRCLE, 9);
          if (label_col)
            iv_series_set_labels (pts, (const char *const *) labels->pdata);
          drawn++;
        }
    }
  if (series)
    buckets_free (series);
  if (!drawn)
    {
      iv_chart_free (c);
      *reason
          = g_strdup_printf (_ ("no run has both “%s” and “%s” as aiperf plot reads them"), xm, ym);
      return NULL;
    }
  return c;
}

/* ---------- where Inferview's figure differs from aiperf plot's ---------- */

/* "concurrency 8" or the run's name: how a note names one run. */
static char *
run_in_note (const IvSweep *sweep, const IvRun *r)
{
  return sweep ? iv_sweep_run_label (sweep, r) : g_strdup (r->name);
}

/* A server metric by name on a multi-run axis: each run's statistic here, and aiperf
 * plot's value (every series' avg, a counter's rate summed, by the bare name). */
static void
note_server_axis (GPtrArray *notes, const IvPlotSpec *spec, const IvSweep *sweep, const char *axis,
                  const char *metric, const char *stat)
{
  if (!iv_prom_is_server_metric (NULL, metric))
    return;
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      double ours = iv_run_axis_value (r, metric, stat), theirs = aiperf_value (spec, r, metric);
      g_autofree char *who = NULL;
      if (!r->server || (isnan (ours) && isnan (theirs)) || ours == theirs)
        continue;
      who = run_in_note (sweep, r);
      if (isnan (theirs))
        g_ptr_array_add (notes, g_strdup_printf (_ ("%s: aiperf plot has no value of “%s” (its "
                                                    "table has a column per metric name, without "
                                                    "filters, from the aggregated JSON or else "
                                                    "the Parquet file)"),
                                                 axis, metric));
      else
        {
          g_autofree char *t = iv_units_format_amount (theirs, NULL);
          g_autofree char *o = iv_units_format_amount (ours, NULL);
          g_ptr_array_add (notes,
                           g_strdup_printf (_ ("%s: each run's %s of “%s” here; aiperf plot "
                                               "takes the avg of every series (a counter's rates "
                                               "summed) whatever the statistic (%s for %s, %s "
                                               "here)"),
                                            axis, stat ? stat : "avg", metric, t, who, o));
        }
      return;
    }
}

/* A server metric drawn over time: where aiperf plot's filter finds other series (its
 * label filter must name all of a series' labels, and the name be exact). */
static void
note_server_series (GPtrArray *notes, const IvRun *run, const char *name)
{
  g_autoptr (IvPromSpec) ps = NULL;
  g_autoptr (GPtrArray) ours = NULL, theirs = NULL;
  g_autoptr (GError) error = NULL;
  IvServerQuantity q;

  if (!run || !run->server || !name || !*name || iv_server_quantity_from_key (name, &q)
      || iv_run_get_metric (run, name) || !(ps = iv_prom_spec_parse (name, NULL))
      || !(ours = iv_server_metrics_find_full (run->server, ps, FALSE, NULL)))
    return;
  if (!run->server->parquet_path)
    {
      /* without a Parquet file aiperf plot draws the JSON's windows, never the scrapes */
      theirs = iv_server_metrics_lines (run->server, name, 0, TRUE, 0, NULL, &error);
      if (!theirs)
        g_ptr_array_add (notes, g_strdup_printf (_ ("“%s”: aiperf plot draws nothing — %s"), name,
                                                 error->message));
      else
        g_ptr_array_add (notes,
                         g_strdup_printf (_ ("“%s”: aiperf plot draws %u series from the windows "
                                             "of server_metrics_export.json (their avg, or a "
                                             "counter's rate, at each window's middle), not "
                                             "the scrapes of the JSONL"),
                                          name, theirs->len));
      return;
    }
  theirs = iv_server_metrics_find_full (run->server, ps, TRUE, &error);
  if (!theirs)
    g_ptr_array_add (
        notes, g_strdup_printf (_ ("“%s”: aiperf plot draws nothing — %s"), name, error->message));
  else if (theirs->len != ours->len)
    g_ptr_array_add (notes, g_strdup_printf (_ ("“%s”: aiperf plot draws %u of these %u series "
                                                "(its filter takes a metric by its exact name)"),
                                             name, theirs->len, ours->len));
}

/* A server metric's percentile bands: the series aiperf plot would draw, its clock and
 * its names. */
static void
note_bands (GPtrArray *notes, const IvRun *run, const char *name)
{
  g_autoptr (GPtrArray) ours = NULL, theirs = NULL;
  g_autoptr (GError) error = NULL;
  guint found = 0;

  if (!run || !run->server
      || !(ours = iv_server_metrics_bands (run->server, name, 0, FALSE, &found, NULL)))
    return;
  theirs = iv_server_metrics_bands (run->server, name, 0, TRUE, NULL, &error);
  if (!theirs)
    {
      g_ptr_array_add (notes,
                       g_strdup_printf (_ ("aiperf plot draws no bands: %s"), error->message));
      return;
    }
  {
    const IvServerAggSeries *a = ((IvServerBands *) theirs->pdata[0])->series;
    if (found != 1 || ((IvServerBands *) ours->pdata[0])->series != a)
      g_ptr_array_add (notes,
                       g_strdup_printf (_ ("aiperf plot draws only the series on %s with the "
                                           "labels %s (the first endpoint, and exactly the "
                                           "labels given)"),
                                        a->endpoint, a->labels));
    if (a->type == IV_PROM_GAUGE)
      g_ptr_array_add (notes, g_strdup (_ ("a gauge: its min–max band and avg line here; aiperf "
                                           "plot names its avg p50, its max p95 and p99, its min "
                                           "p05")));
  }
  g_ptr_array_add (notes, g_strdup (_ ("x: seconds since the first request; aiperf plot's are "
                                       "seconds since 1970, at each window's middle")));
}

/* The per-GPU counts: a run whose GPUs by UUID (or as set) are not aiperf's count. */
static void
note_gpus (GPtrArray *notes, const IvPlotSpec *spec, const IvSweep *sweep)
{
  const IvRun *first = NULL;
  guint differ = 0, skipped = 0;
  g_autoptr (GString) none = g_string_new (NULL);

  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      IvGpuCountSource from;
      guint n = iv_run_gpu_count (r, &from), theirs = iv_run_gpu_count_aiperf (r);
      if (!isfinite (iv_run_axis_value (r, "output_token_throughput", NULL)))
        continue;
      if (theirs == 0)
        {
          g_autofree char *who = run_in_note (sweep, r);
          skipped++;
          if (skipped <= 3)
            g_string_append_printf (none, "%s%s", none->len ? ", " : "", who);
          continue;
        }
      if (theirs != n || from == IV_GPUS_ASSUMED)
        {
          differ++;
          if (!first)
            first = r;
        }
    }
  if (first)
    {
      IvGpuCountSource from;
      guint n = iv_run_gpu_count (first, &from), theirs = iv_run_gpu_count_aiperf (first);
      g_autofree char *who = run_in_note (sweep, first);
      g_autofree char *count = g_strdup_printf (
          from == IV_GPUS_USER ? g_dngettext (NULL, "%u GPU as set", "%u GPUs as set", n)
                               : g_dngettext (NULL, "%u GPU by UUID", "%u GPUs by UUID", n),
          n);
      g_autofree char *alike
          = differ > 1 ? g_strdup_printf (_ ("; %u runs alike"), differ) : g_strdup ("");
      g_autofree char *per_gpu = iv_units_format_amount (
          iv_run_axis_value_aiperf (first, "output_token_throughput_per_gpu"), "tokens/s/GPU");
      g_ptr_array_add (notes,
                       g_strdup_printf (_ ("per GPU: %s; aiperf plot counts %u from %u telemetry "
                                           "endpoint(s) → %s (%s%s)"),
                                        count, theirs, MAX (first->summary_gpu_endpoints, 1),
                                        per_gpu, who, alike));
    }
  if (skipped)
    g_ptr_array_add (notes, g_strdup_printf (_ ("per GPU: aiperf plot draws no per-GPU throughput "
                                                "for %s%s (no GPU in its summary's telemetry)"),
                                             none->str, skipped > 3 ? _ (" and others") : ""));
}

/* The statistic of an axis: aiperf plot puts each run's p50 there when its summary has
 * one, whatever the preset names (and labels the axis with the named one). */
static void
note_stat (GPtrArray *notes, const IvSweep *sweep, const char *axis, const char *metric,
           const char *stat)
{
  stat = stat ? stat : "avg";
  if (g_str_equal (stat, "p50"))
    return;
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      const IvMetricSummary *s = iv_run_get_summary (r, metric);
      double ours = iv_run_axis_value (r, metric, stat);
      if (s && isfinite (s->p50) && isfinite (ours) && s->p50 != ours)
        {
          g_autofree char *who = run_in_note (sweep, r);
          g_autofree char *t = iv_units_format_amount (s->p50, s->unit);
          g_autofree char *o = iv_units_format_amount (ours, s->unit);
          g_ptr_array_add (notes,
                           g_strdup_printf (_ ("%s: each run's %s here; aiperf plot puts its p50 "
                                               "there (%s for %s, %s here)"),
                                            axis, stat, t, who, o));
          return;
        }
    }
}

/* Pareto: the runs on each group's frontier, here and as aiperf plot finds them. */
static void
note_frontier (GPtrArray *notes, const IvPlotSpec *spec, const IvSweep *sweep)
{
  guint n = sweep->runs->len;
  g_autofree double *x = g_new (double, MAX (n, 1)), *y = g_new (double, MAX (n, 1));
  g_autofree double *ax = g_new (double, MAX (n, 1)), *ay = g_new (double, MAX (n, 1));
  g_autofree gboolean *on = g_new0 (gboolean, MAX (n, 1)), *aon = g_new0 (gboolean, MAX (n, 1));
  g_autoptr (GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) ours = g_string_new (NULL), theirs = g_string_new (NULL);
  gboolean differ = FALSE;

  for (guint i = 0; i < n; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      x[i] = iv_run_axis_value (r, spec->x.metric, spec->x.stat);
      y[i] = iv_run_axis_value (r, spec->y.metric, spec->y.stat);
      ax[i] = aiperf_value (spec, r, spec->x.metric);
      ay[i] = aiperf_value (spec, r, spec->y.metric);
    }
  /* each group of Inferview's grouping, its members' frontiers both ways */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *group = group_of (spec, sweep, sweep->runs->pdata[i]);
      g_autoptr (GArray) members = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autofree double *gx = NULL, *gy = NULL, *hx = NULL, *hy = NULL;
      g_autofree gboolean *g_on = NULL, *g_aon = NULL;
      if (g_hash_table_contains (done, group))
        continue;
      for (guint k = 0; k < n; k++)
        {
          g_autofree char *other = group_of (spec, sweep, sweep->runs->pdata[k]);
          if (g_str_equal (other, group))
            g_array_append_val (members, k);
        }
      gx = g_new (double, members->len), gy = g_new (double, members->len);
      hx = g_new (double, members->len), hy = g_new (double, members->len);
      g_on = g_new (gboolean, members->len), g_aon = g_new (gboolean, members->len);
      for (guint k = 0; k < members->len; k++)
        {
          guint at = g_array_index (members, guint, k);
          gx[k] = x[at], gy[k] = y[at], hx[k] = ax[at], hy[k] = ay[at];
        }
      iv_pareto_frontier (gx, gy, members->len, iv_metric_higher_is_better (spec->x.metric),
                          iv_metric_higher_is_better (spec->y.metric), g_on);
      iv_pareto_frontier_aiperf (hx, hy, members->len, iv_metric_higher_is_better (spec->x.metric),
                                 iv_metric_higher_is_better (spec->y.metric), g_aon);
      for (guint k = 0; k < members->len; k++)
        {
          guint at = g_array_index (members, guint, k);
          on[at] = g_on[k], aon[at] = g_aon[k];
        }
      g_hash_table_add (done, g_steal_pointer (&group));
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *who = run_in_note (sweep, sweep->runs->pdata[i]);
      differ |= on[i] != aon[i];
      if (on[i])
        g_string_append_printf (ours, "%s%s", ours->len ? ", " : "", who);
      if (aon[i])
        g_string_append_printf (theirs, "%s%s", theirs->len ? ", " : "", who);
    }
  if (differ)
    g_ptr_array_add (notes, g_strdup_printf (_ ("frontier: %s here; aiperf plot's: %s"),
                                             ours->len ? ours->str : _ ("none"),
                                             theirs->len ? theirs->str : _ ("none")));
}

/* The runs aiperf plot would not find, or would find besides these. */
static void
note_run_set (GPtrArray *notes, const IvSweep *sweep)
{
  g_autoptr (GPtrArray) dirs = NULL;
  g_autoptr (GHashTable) theirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) left_out = g_string_new (NULL);
  guint n_left = 0;

  if (!sweep->paths || sweep->aiperf
      || !(dirs = iv_aiperf_run_dirs ((const char *const *) sweep->paths, NULL)))
    return;
  for (guint i = 0; i < dirs->len; i++)
    {
      char *real = realpath (dirs->pdata[i], NULL);
      if (real)
        g_hash_table_add (theirs, real);
    }
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      g_autofree char *real = realpath (r->path, NULL);
      if (real && g_hash_table_contains (theirs, real))
        continue;
      if (++n_left <= 3)
        g_string_append_printf (left_out, "%s%s", left_out->len ? ", " : "", r->name);
    }
  if (n_left)
    g_ptr_array_add (
        notes, g_strdup_printf (g_dngettext (NULL,
                                             "aiperf plot leaves out %u run (%s%s): it reads "
                                             "only folders with both profile_export.jsonl "
                                             "and profile_export_aiperf.json",
                                             "aiperf plot leaves out %u runs (%s%s): it reads "
                                             "only folders with both profile_export.jsonl "
                                             "and profile_export_aiperf.json",
                                             n_left),
                                n_left, left_out->str, n_left > 3 ? ", …" : ""));
}

GPtrArray *
iv_runs_aiperf_notes (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);

  if (spec->aiperf_compatible || !sweep)
    return notes;
  switch (spec->type)
    {
    case IV_PLOT_PARETO:
    case IV_PLOT_SCATTER_LINE:
    case IV_PLOT_UNCERTAINTY:
      if (!spec->x.metric || !spec->y.metric)
        break;
      if (g_str_equal (spec->x.metric, "output_token_throughput_per_gpu")
          || g_str_equal (spec->y.metric, "output_token_throughput_per_gpu"))
        note_gpus (notes, spec, sweep);
      note_stat (notes, sweep, "x", spec->x.metric, spec->x.stat);
      note_stat (notes, sweep, "y", spec->y.metric, spec->y.stat);
      note_server_axis (notes, spec, sweep, "x", spec->x.metric, spec->x.stat);
      note_server_axis (notes, spec, sweep, "y", spec->y.metric, spec->y.stat);
      if (spec->type == IV_PLOT_PARETO)
        note_frontier (notes, spec, sweep);
      note_run_set (notes, sweep);
      break;
    case IV_PLOT_SCATTER:
    case IV_PLOT_SCATTER_PERCENTILES:
      if (run && g_strcmp0 (spec->x.metric, "request_number") == 0)
        g_ptr_array_add (notes, g_strdup (_ ("x: requests in start order from 1; aiperf plot "
                                             "numbers them in file order from 0")));
      if (run && spec->type == IV_PLOT_SCATTER && iv_run_good_records (run) >= 20)
        g_ptr_array_add (notes, g_strdup (_ ("the rolling p50/p95/p99 lines are Inferview's")));
      break;
    case IV_PLOT_DUAL_AXIS:
      if (dual_axis_server (spec))
        {
          note_server_series (notes, run, spec->y2.metric);
          g_ptr_array_add (notes,
                           g_strdup (_ ("second axis: a line per series, on the requests' clock; "
                                        "aiperf plot joins the points of every series found "
                                        "into one line, on seconds from the earliest of them")));
        }
      else if (run && run->gpus->len)
        g_ptr_array_add (notes, g_strdup (_ ("GPU utilisation per GPU (by UUID) from the first "
                                             "request's start; aiperf plot averages every "
                                             "telemetry line of a timestamp")));
      break;
    case IV_PLOT_SERVER:
      {
        g_auto (GStrv) left = g_strsplit (spec->y.metric ? spec->y.metric : "", "+", -1);
        g_auto (GStrv) right = g_strsplit (spec->y2.metric ? spec->y2.metric : "", "+", -1);
        for (guint i = 0; left[i]; i++)
          note_server_series (notes, run, left[i]);
        for (guint i = 0; right[i]; i++)
          note_server_series (notes, run, right[i]);
      }
      break;
    case IV_PLOT_PERCENTILE_BANDS:
      if (spec->y.metric && iv_prom_is_server_metric (spec->source, spec->y.metric))
        note_bands (notes, run, spec->y.metric);
      break;
    case IV_PLOT_TIMESLICE:
    case IV_PLOT_HISTOGRAM:
      if (run && run->timeslices->len && run->timeslices_csv->len)
        g_ptr_array_add (notes, g_strdup (_ ("time slices from the JSON; aiperf plot reads the "
                                             "CSV, rounded to two decimals")));
      else if (run && run->timeslices->len && !run->timeslices_csv->len)
        g_ptr_array_add (notes, g_strdup (_ ("aiperf plot reads time slices only from the CSV, "
                                             "which this run does not have: it draws none")));
      break;
    default:
      break;
    }
  return notes;
}

/* The notes after the figure's own subtitle. */
static void
add_notes (IvChart *c, const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run)
{
  g_autoptr (GPtrArray) notes = NULL;
  g_autoptr (GString) sub = NULL;

  /* a paper's figure: the notes are summary.txt's, the subtitle stays the figure's */
  if (spec->notes_off_figure)
    return;
  notes = iv_runs_aiperf_notes (spec, sweep, run);
  if (notes->len == 0)
    return;
  sub = g_string_new (c->subtitle);
  for (guint i = 0; i < notes->len; i++)
    g_string_append_printf (sub, "%s%s", sub->len ? " · " : "", (const char *) notes->pdata[i]);
  {
    g_autofree char *title = g_strdup (c->title);
    iv_chart_set_title (c, title, sub->str);
  }
}

/* Where each run's box sits when runs group by the fields but the last (an ISL × OSL
 * cell) and the last (concurrency) is told by colour: a group's runs side by side, a
 * slot's gap between groups, the group named under its middle. Whole run names
 * ("isl 1024 · osl 128 · c 16") under 36 boxes need more than a paper column has: cut,
 * or every other one left out, they told no run apart. FALSE when the labels do not split
 * or the members are too many to tell by colour. */
static gboolean
box_groups (const IvSweep *sweep, double *position, guint *member_of, GPtrArray *groups,
            GArray *group_at, GPtrArray *members, char **group_title)
{
  g_autoptr (GPtrArray) group_of = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) in_group = g_array_new (FALSE, TRUE, sizeof (guint));
  double next = 0;

  for (guint i = 0; i < sweep->runs->len; i++)
    {
      char *g = NULL, *m = NULL;
      guint gi, mi;
      if (!iv_sweep_run_label_split (sweep, sweep->runs->pdata[i], &g, &m,
                                     i == 0 ? group_title : NULL))
        return FALSE;
      g_ptr_array_add (group_of, g);
      if (!g_ptr_array_find_with_equal_func (members, m, g_str_equal, &mi))
        {
          mi = members->len;
          g_ptr_array_add (members, m);
        }
      else
        g_free (m);
      member_of[i] = mi;
      if (!g_ptr_array_find_with_equal_func (groups, g, g_str_equal, &gi))
        {
          gi = groups->len;
          g_ptr_array_add (groups, g_strdup (g));
          g_array_set_size (in_group, groups->len);
        }
      g_array_index (in_group, guint, gi)++;
    }
  if (members->len > 8 || groups->len < 2 || groups->len == sweep->runs->len)
    return FALSE;
  /* groups in order of first appearance, their runs in the sweep's order */
  for (guint gi = 0; gi < groups->len; gi++)
    {
      double first = next;
      for (guint i = 0; i < sweep->runs->len; i++)
        if (g_str_equal (group_of->pdata[i], groups->pdata[gi]))
          position[i] = next++;
      g_array_append_val (group_at, (double){ (first + next - 1) / 2 });
      next += 1;
    }
  return TRUE;
}

/* A metric's distribution in every run, side by side, in the sweep's order. */
static IvChart *
boxes (const IvPlotSpec *spec, const IvSweep *sweep, char **reason)
{
  static const guint32 member_rgb[]
      = { 0x0072b2, 0xe69f00, 0x009e73, 0xd55e00, 0xcc79a7, 0x56b4e9, 0x000000, 0xc9b800 };
  g_autofree double *position = g_new0 (double, MAX (sweep->runs->len, 1));
  g_autofree guint *member_of = g_new0 (guint, MAX (sweep->runs->len, 1));
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) members = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) group_at = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *group_title = NULL;
  g_autofree gboolean *shown = NULL;
  gboolean grouped
      = box_groups (sweep, position, member_of, groups, group_at, members, &group_title);

  const char *tag = spec->y.metric ? spec->y.metric : "time_to_first_token";
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = iv_metric_title (tag);
  const IvRun *any = NULL;
  IvChart *c = NULL;

  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      const IvRunMetric *m = iv_run_get_metric (r, tag);
      IvSeries *s;
      g_ptr_array_add (names, iv_sweep_run_label (sweep, r));
      if (!m || m->values->len == 0)
        continue;
      if (!c)
        {
          c = new_chart (spec, title, _ ("box: quartiles, whiskers to 1.5 IQR"));
          any = r;
        }
      if (grouped)
        {
          /* named by its member: the legend's one entry per colour */
          guint k = member_of[i];
          if (!shown)
            shown = g_new0 (gboolean, members->len);
          s = iv_chart_add_box (c, members->pdata[k], position[i], (const double *) m->values->data,
                                m->values->len);
          iv_series_set_color (s, member_rgb[k]);
          iv_series_set_show_in_legend (s, !shown[k]);
          shown[k] = TRUE;
          continue;
        }
      s = iv_chart_add_box (c, names->pdata[i], (double) i, (const double *) m->values->data,
                            m->values->len);
      iv_series_set_color (s, 0x0072b2);
    }
  if (!c)
    {
      *reason = g_strdup_printf (_ ("no run has per-request “%s”"), tag);
      return NULL;
    }
  if (grouped)
    {
      iv_chart_axis_set_categories (c, IV_AXIS_X, (const char *const *) groups->pdata, groups->len);
      iv_chart_axis_set_category_positions (c, IV_AXIS_X, (const double *) group_at->data);
      iv_chart_axis_set_title (c, IV_AXIS_X, group_title);
      value_axis (c, IV_AXIS_Y, any, tag);
      /* beside: inside, the few colours sat on the tallest boxes; below, they took the
       * height the y title needs on a paper column */
      iv_chart_set_legend (c, IV_LEGEND_RIGHT);
      return c;
    }
  iv_chart_set_categories (c, (const char *const *) names->pdata, names->len);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Run"));
  value_axis (c, IV_AXIS_Y, any, tag);
  iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
  return c;
}

static gboolean
any_aggregate (const IvSweep *sweep)
{
  for (guint i = 0; i < sweep->runs->len; i++)
    if (g_hash_table_size (((IvRun *) sweep->runs->pdata[i])->aggregate) > 0)
      return TRUE;
  return FALSE;
}

static IvChart *runs_chart (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run,
                            char **reason);

/* autoscale: x, y or both — "reduces whitespace", as aiperf's default configuration puts
 * it: the axes named span exactly the points and lines drawn, without the margin every
 * axis otherwise keeps. */
static void
tighten (IvChart *c, gboolean x, gboolean y)
{
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };

  for (guint i = 0; i < iv_chart_get_n_series (c); i++)
    {
      const IvSeries *s = iv_chart_get_series (c, i);
      if ((s->kind != IV_SERIES_SCATTER && s->kind != IV_SERIES_LINE) || s->y2 || !s->visible)
        continue;
      for (gsize k = 0; k < s->n; k++)
        if (isfinite (s->x[k]) && isfinite (s->y[k]))
          {
            lo[0] = MIN (lo[0], s->x[k]), hi[0] = MAX (hi[0], s->x[k]);
            lo[1] = MIN (lo[1], s->y[k]), hi[1] = MAX (hi[1], s->y[k]);
          }
    }
  if (x && hi[0] > lo[0])
    iv_chart_axis_set_range (c, IV_AXIS_X, lo[0], hi[0]);
  if (y && hi[1] > lo[1])
    iv_chart_axis_set_range (c, IV_AXIS_Y, lo[1], hi[1]);
}

/* The preset's x_label and y_label replace the axis titles the metrics give; its
 * autoscale tightens the axes it names. */
IvChart *
iv_runs_chart (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run, char **reason)
{
  IvChart *c = runs_chart (spec, sweep, run, reason);
  /* where aiperf plot would draw other numbers, the figure says so */
  if (c)
    add_notes (c, spec, sweep, run);
  if (c && spec->x_label)
    iv_chart_axis_set_title (c, IV_AXIS_X, spec->x_label);
  if (c && spec->y_label)
    iv_chart_axis_set_title (c, IV_AXIS_Y, spec->y_label);
  if (c && spec->autoscale && !g_str_equal (spec->autoscale, "none"))
    tighten (c, !g_str_equal (spec->autoscale, "y"), !g_str_equal (spec->autoscale, "x"));
  /* on a paper column a long metric's title became "Inter-toke… (ms)" (issue 31) */
  for (IvAxisId a = IV_AXIS_X; c && a <= IV_AXIS_Y2; a++)
    {
      g_autofree char *brief = brief_axis_title (iv_chart_axis_get_title (c, a));
      if (brief)
        iv_chart_axis_set_short_title (c, a, brief);
    }
  return c;
}

gboolean
iv_runs_figure (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run, IvRunsFigure *out,
                char **reason)
{
  *out = (IvRunsFigure){ 0 };
  *reason = NULL;
  switch (spec->type)
    {
    case IV_PLOT_ISL_OSL_HEATMAP:
      out->grid = iv_isl_osl_heatmaps (spec, sweep, reason);
      break;
    case IV_PLOT_ISL_OSL_PARETO:
      out->grid = iv_isl_osl_paretos (spec, sweep, reason);
      break;
    case IV_PLOT_PARETO_SURFACE:
      out->surface = iv_isl_osl_surface (spec, sweep, reason);
      break;
    default:
      out->chart = iv_runs_chart (spec, sweep, run, reason);
      break;
    }
  return out->chart || out->grid || out->surface;
}

void
iv_runs_figure_clear (IvRunsFigure *f)
{
  g_clear_pointer (&f->chart, iv_chart_free);
  g_clear_pointer (&f->grid, iv_chart_grid_free);
  g_clear_pointer (&f->surface, iv_surface_free);
}

IvFigure
iv_runs_figure_get (const IvRunsFigure *f, const char *name)
{
  if (f->grid)
    return (IvFigure){ iv_chart_grid_render, f->grid, name, NULL };
  if (f->surface)
    return (IvFigure){ iv_surface_render, f->surface, name, NULL };
  return (IvFigure){ iv_chart_render, f->chart, name, NULL };
}

const char *
iv_runs_figure_title (const IvRunsFigure *f)
{
  if (f->grid)
    return iv_chart_grid_get_title (f->grid);
  if (f->surface)
    return iv_surface_get_title (f->surface);
  return f->chart ? iv_chart_get_title (f->chart) : NULL;
}

/* Each server quantity its own colour (Okabe–Ito), whatever the figure pairs it with. */
static const guint32 server_colours[IV_N_SERVER_QUANTITIES] = {
  [IV_SERVER_RUNNING] = 0xe69f00,    [IV_SERVER_WAITING] = 0x0072b2,
  [IV_SERVER_KV_USAGE] = 0xcc79a7,   [IV_SERVER_PREFIX_HIT] = 0x009e73,
  [IV_SERVER_GEN_RATE] = 0xd55e00,   [IV_SERVER_PROMPT_RATE] = 0x56b4e9,
  [IV_SERVER_QUEUE_TIME] = 0xcc79a7,
};

/* One quantity of a server-metrics figure on @axis: a server quantity per endpoint, the
 * requests the client had in flight, a client per-request metric at each request's
 * start, or a server metric by its Prometheus name (@aiperf: its points as aiperf plot
 * draws them) — all on the clock of the run's first request. */
static gboolean
add_over_time (IvChart *c, const IvRun *r, const char *key, IvAxisId axis, gint64 origin,
               const IvPlotSpec *spec)
{
  gboolean aiperf = spec->aiperf_compatible;
  IvServerQuantity q;
  g_autofree char *title = iv_metric_title (key);

  if (iv_server_quantity_from_key (key, &q))
    {
      gboolean any = FALSE;
      for (guint e = 0; r->server && r->server->has[q] && e < r->server->endpoints->len; e++)
        {
          const IvServerEndpoint *ep = r->server->endpoints->pdata[e];
          g_autofree double *x = g_new (double, MAX (ep->ts_ns->len, 1));
          g_autofree char *name = r->server->endpoints->len > 1
                                      ? g_strdup_printf ("%s · %s", title, ep->url)
                                      : g_strdup (title);
          IvSeries *s;
          for (guint i = 0; i < ep->ts_ns->len; i++)
            x[i] = (g_array_index (ep->ts_ns, gint64, i) - origin) * 1e-9;
          s = iv_chart_add_line (c, name, x, (const double *) ep->values[q]->data, ep->ts_ns->len);
          iv_series_set_y2 (s, axis == IV_AXIS_Y2);
          if (r->server->endpoints->len == 1)
            iv_series_set_color (s, server_colours[q]);
          any = TRUE;
        }
      return any;
    }
  if (g_str_equal (key, "client_in_flight"))
    {
      g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
      g_autofree double *sx = NULL, *sy = NULL;
      gsize n;
      IvSeries *s;
      if (!iv_run_in_flight (r, origin, t, v))
        return FALSE;
      steps (t, v, &sx, &sy, &n);
      s = iv_chart_add_line (c, title, sx, sy, n);
      iv_series_set_y2 (s, axis == IV_AXIS_Y2);
      /* the client's view, dashed and neutral beside the server's coloured lines */
      iv_series_set_dashed (s, TRUE);
      iv_series_set_color (s, 0x555555);
      return TRUE;
    }
  if (r->server && !iv_run_get_metric (r, key))
    {
      /* a server metric by its Prometheus name: a line per endpoint and label set */
      const char *method;
      double window = server_window (spec, &method);
      g_autoptr (GPtrArray) lines
          = iv_server_metrics_lines (r->server, key, origin, aiperf, window, method, NULL);
      for (guint i = 0; lines && i < lines->len; i++)
        {
          const IvServerLine *l = lines->pdata[i];
          IvSeries *s = iv_chart_add_line (c, l->name, (const double *) (void *) l->x_s->data,
                                           (const double *) (void *) l->y->data, l->y->len);
          iv_series_set_y2 (s, axis == IV_AXIS_Y2);
        }
      return lines != NULL;
    }
  {
    const IvRunMetric *m = iv_run_get_metric (r, key);
    g_autoptr (GArray) x = NULL;
    IvSeries *s;
    if (!m || m->list)
      return FALSE;
    x = g_array_sized_new (FALSE, FALSE, sizeof (double), m->values->len);
    for (guint i = 0; i < m->values->len; i++)
      {
        gint64 start = g_array_index (r->start_ns, gint64, g_array_index (m->request, guint32, i));
        double xv = start >= 0 ? (start - origin) * 1e-9 : NAN;
        g_array_append_val (x, xv);
      }
    s = iv_chart_add_scatter (c, title, (const double *) x->data, (const double *) m->values->data,
                              m->values->len);
    iv_series_set_y2 (s, axis == IV_AXIS_Y2);
    return TRUE;
  }
}

static gint
double_cmp_asc (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* A scatter or area preset of a server metric as aiperf plot draws it (ScatterHandler,
 * AreaHandler): the rows filter_server_metrics_dataframe finds, in its frame's order (a
 * Parquet file's grouped by endpoint and labels_json, sorted; the JSON's windows in the
 * file's order), on seconds from the earliest. A scatter draws every row as one trace of
 * markers ("<metric> Raw Data Points Over Time"); an area one hv line filled to zero —
 * several series first averaged per timestamp (its branch summing a counter compares the
 * type with "COUNTER", which the frame spells "counter", so it never runs), and the
 * column it draws is the bare name: a name with a filter, or an x other than timestamp_s,
 * fails there. */
static IvChart *
server_points_aiperf (const IvPlotSpec *spec, const IvRun *r, gboolean area, char **reason)
{
  g_autoptr (IvPromSpec) ps = iv_prom_spec_parse (spec->y.metric, NULL);
  g_autoptr (GPtrArray) lines = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *title = NULL, *y_label = NULL;
  const char *metric = ps ? ps->metric : spec->y.metric;
  IvChart *c;
  IvSeries *s;

  if (!has_server_frame (r, spec->y.metric, reason))
    return NULL;
  if (area
      && (!g_str_equal (metric, spec->y.metric)
          || g_strcmp0 (spec->x.metric ? spec->x.metric : "timestamp_s", "timestamp_s")))
    {
      *reason = g_strdup_printf (_ ("aiperf plot's area of a server metric draws its column "
                                    "“%s” against timestamp_s: with “%s” against “%s” it "
                                    "fails"),
                                 metric, spec->y.metric, spec->x.metric);
      return NULL;
    }
  if (!(lines = frame_points (spec, r, spec->y.metric, xs, ys, &error)))
    {
      *reason = g_strdup (error->message);
      return NULL;
    }
  if (area && lines->len > 1)
    {
      /* groupby ("timestamp_s").mean (): each time once, ascending, NaN left out */
      g_autoptr (GArray) times = g_array_copy (xs);
      g_autoptr (GArray) mx = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) my = g_array_new (FALSE, FALSE, sizeof (double));
      g_array_sort (times, double_cmp_asc);
      for (guint i = 0; i < times->len; i++)
        {
          double t = g_array_index (times, double, i), sum = 0, mean = NAN;
          guint n = 0;
          if (i && g_array_index (times, double, i - 1) == t)
            continue;
          for (guint k = 0; k < xs->len; k++)
            if (g_array_index (xs, double, k) == t && !isnan (g_array_index (ys, double, k)))
              sum += g_array_index (ys, double, k), n++;
          if (n)
            mean = sum / n;
          g_array_append_val (mx, t);
          g_array_append_val (my, mean);
        }
      g_array_unref (xs), xs = g_steal_pointer (&mx);
      g_array_unref (ys), ys = g_steal_pointer (&my);
    }
  {
    const IvServerLine *l0 = lines->pdata[0];
    g_autofree char *display = python_title (spec->y.metric);
    if (spec->y_label)
      y_label = g_strdup (spec->y_label);
    else if (!area && l0->unit && *l0->unit)
      y_label = g_strdup_printf ("%s (%s)", metric, l0->unit);
    else
      y_label = g_strdup (display);
    title = area ? g_strdup_printf (_ ("%s Over Time"), display)
                 : g_strdup_printf (_ ("%s Raw Data Points Over Time"), metric);
  }
  c = new_chart (spec, title, NULL);
  iv_chart_axis_set_title (c, IV_AXIS_X, spec->x_label ? spec->x_label : _ ("Time (s)"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_Y, y_label);
  if (area)
    {
      g_autofree double *sx = NULL, *sy = NULL;
      gsize n;
      steps (xs, ys, &sx, &sy, &n);
      s = iv_chart_add_area (c, y_label, sx, sy, n, FALSE);
    }
  else
    {
      s = iv_chart_add_scatter (c, y_label, (const double *) (void *) xs->data,
                                (const double *) (void *) ys->data, xs->len);
      iv_series_set_marker (s, IV_MARKER_CIRCLE, 4);
    }
  iv_series_set_color (s, 0x4c72b0);
  return c;
}

/* The server's metrics over the run, beside the client's on one clock: y (and y2) name
 * quantities joined by "+". */
static IvChart *
server_over_time (const IvPlotSpec *spec, const IvRun *r, char **reason)
{
  g_auto (GStrv) left
      = g_strsplit (spec->y.metric ? spec->y.metric : "server_requests_running", "+", -1);
  g_auto (GStrv) right = spec->y2.metric ? g_strsplit (spec->y2.metric, "+", -1) : NULL;
  g_autofree char *sub = NULL;
  gint64 origin;
  IvChart *c;
  gboolean any = FALSE;

  /* a series by name may also come from the JSON's windows (iv_server_metrics_lines ()) */
  if (!r->server
      || (r->server->endpoints->len == 0 && r->server->series->len == 0
          && !iv_server_metrics_aiperf_has_frame (r->server)))
    {
      *reason = g_strdup (
          r->server ? _ ("the server metrics have no time series (AIPerf writes them with "
                         "--server-metrics-formats … jsonl or parquet, and windows into "
                         "server_metrics_export.json with --slice-duration)")
                    : _ ("no server metrics in this run"));
      return NULL;
    }
  /* the client's clock when it has requests, else the first scrape's */
  origin = server_origin (r);
  {
    /* the run's line (it says when the client's records are only some requests) */
    g_autofree char *line = run_subtitle (r);
    sub = g_strdup_printf (_ ("%s · %s server metrics, %u endpoint(s), on the client's clock"),
                           line, r->server->engine ? r->server->engine : _ ("inference"),
                           r->server->endpoints->len);
  }
  c = new_chart (spec, _ ("Server metrics over time"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Time since the first request"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  for (guint i = 0; left[i]; i++)
    any |= add_over_time (c, r, left[i], IV_AXIS_Y, origin, spec);
  for (guint i = 0; right && right[i]; i++)
    add_over_time (c, r, right[i], IV_AXIS_Y2, origin, spec);
  if (!any)
    {
      *reason = g_strdup_printf (_ ("the server metrics have no “%s”"), left[0]);
      iv_chart_free (c);
      return NULL;
    }
  /* one title per axis: the quantity when it is alone, else what they share */
  {
    g_autofree char *t = g_strv_length (left) == 1 ? iv_metric_title (left[0]) : NULL;
    iv_chart_axis_set_title (c, IV_AXIS_Y, spec->y_label ? spec->y_label : t ? t : _ ("Requests"));
    iv_chart_axis_set_unit (c, IV_AXIS_Y, iv_metric_unit (unit_of (r, left[0])));
  }
  if (right)
    {
      g_autofree char *t = iv_metric_title (right[0]);
      iv_chart_axis_set_title (c, IV_AXIS_Y2, t);
      iv_chart_axis_set_unit (c, IV_AXIS_Y2, iv_metric_unit (unit_of (r, right[0])));
    }
  return c;
}

static IvChart *
runs_chart (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run, char **reason)
{
  gboolean aiperf = spec->aiperf_compatible;

  *reason = NULL;
  switch (spec->type)
    {
    case IV_PLOT_SCATTER:
    case IV_PLOT_SCATTER_PERCENTILES:
      return aiperf ? per_request_aiperf (spec, run, reason) : per_request (spec, run, reason);
    case IV_PLOT_HISTOGRAM:
      return slice_bars (spec, run, reason);
    case IV_PLOT_DISTRIBUTION:
    case IV_PLOT_CDF:
      return histogram (spec, run, reason);
    case IV_PLOT_PERCENTILE_BANDS:
      return percentile_bands (spec, run, reason);
    case IV_PLOT_GPU:
      return gpu_field (spec, run, reason);
    case IV_PLOT_AREA:
      return aiperf ? dispersed_aiperf (spec, run, FALSE, reason)
                    : dispersed (spec, run, FALSE, reason);
    case IV_PLOT_DUAL_AXIS:
      return aiperf ? dispersed_aiperf (spec, run, TRUE, reason)
                    : dispersed (spec, run, TRUE, reason);
    case IV_PLOT_REQUEST_TIMELINE:
      return aiperf && g_strcmp0 (spec->y.metric, "worker") != 0
                     && g_strcmp0 (spec->y.metric, "request_number") != 0
                 ? request_timeline_aiperf (spec, run, reason)
                 : request_timeline (spec, run, reason);
    case IV_PLOT_TIMESLICE:
      return timeslices (spec, run, reason);
    case IV_PLOT_UNCERTAINTY:
      if (aiperf)
        return uncertainty_aiperf (spec, sweep, reason);
      if (!any_aggregate (sweep))
        {
          *reason = g_strdup (_ ("no repeated trials in these runs (AIPerf writes aggregate/ with "
                                 "--num-profile-runs); aiperf plot draws each concurrency's "
                                 "mean over its runs instead (--aiperf-compatible)"));
          return NULL;
        }
      return across_runs (spec, sweep, reason);
    case IV_PLOT_PARETO:
    case IV_PLOT_SCATTER_LINE:
      return aiperf ? across_runs_aiperf (spec, sweep, reason) : across_runs (spec, sweep, reason);
    case IV_PLOT_BOX:
      return boxes (spec, sweep, reason);
    case IV_PLOT_SERVER:
      if (aiperf && g_strcmp0 (spec->type_name, "scatter_with_percentiles") == 0)
        {
          /* ScatterWithPercentilesHandler reads the requests' frame only */
          *reason = g_strdup_printf (_ ("aiperf plot's scatter_with_percentiles draws per-request "
                                        "metrics only: it fails on server metric “%s”"),
                                     spec->y.metric);
          return NULL;
        }
      if (aiperf
          && (g_strcmp0 (spec->type_name, "scatter") == 0
              || g_strcmp0 (spec->type_name, "area") == 0))
        return server_points_aiperf (spec, run, g_str_equal (spec->type_name, "area"), reason);
      return server_over_time (spec, run, reason);
    case IV_PLOT_ISL_OSL_HEATMAP:
    case IV_PLOT_ISL_OSL_PARETO:
    case IV_PLOT_PARETO_SURFACE:
      *reason = g_strdup (_ ("this preset draws panels or a surface, not one chart"));
      return NULL;
    case IV_PLOT_BOUND:
      return iv_run_bound_chart (sweep, spec->bound_hardware, spec->bound_tp, spec->bound_model,
                                 spec->x.metric, spec->title, reason);
    case IV_PLOT_UNKNOWN:
      break;
    }
  *reason = g_strdup_printf (_ ("plot type “%s” is not one Inferview draws"),
                             spec->type_name ? spec->type_name : "?");
  return NULL;
}

/* Where request @i is drawn on a per-request plot of @spec: FALSE when it is not. */
static gboolean
request_point (const IvPlotSpec *spec, const IvRun *r, const double *values, const double *xv,
               guint k, guint32 i, double *x, double *y)
{
  if (!isfinite (values[i]) || (xv && !isfinite (xv[i])))
    return FALSE;
  *x = xv                 ? xv[i]
       : x_is_time (spec) ? (g_array_index (r->start_ns, gint64, i) - r->t0_ns) * 1e-9
                          : (double) (k + 1);
  *y = values[i];
  return TRUE;
}

static gboolean
is_per_request_scatter (const IvPlotSpec *spec, const IvRun *r)
{
  return (spec->type == IV_PLOT_SCATTER || spec->type == IV_PLOT_SCATTER_PERCENTILES)
         && spec->y.metric && iv_run_get_metric (r, spec->y.metric);
}

guint32
iv_runs_request_at (const IvPlotSpec *spec, const IvRun *r, double x, double y)
{
  g_autoptr (GArray) order = iv_run_order_by_start (r);

  if (spec->type == IV_PLOT_REQUEST_TIMELINE && g_strcmp0 (spec->y.metric, "worker") != 0)
    {
      /* the request whose line passes through (x, y): running at x, its y the nearest */
      g_autofree double *yv = iv_run_metric_per_request (r, timeline_y_tag (spec));
      guint32 best = G_MAXUINT;
      double best_d = INFINITY;
      for (guint k = 0; k < order->len; k++)
        {
          guint32 i = g_array_index (order, guint32, k);
          double s = (g_array_index (r->start_ns, gint64, i) - r->t0_ns) * 1e-9;
          double e = (g_array_index (r->end_ns, gint64, i) - r->t0_ns) * 1e-9;
          double d = fabs (timeline_y (spec, yv, k, i) - y);
          if (x >= s && x <= e && d < best_d)
            best = i, best_d = d;
        }
      return best;
    }
  if (is_per_request_scatter (spec, r))
    {
      g_autofree double *values = iv_run_metric_per_request (r, spec->y.metric);
      g_autofree double *xv = spec->x.metric && iv_run_get_metric (r, spec->x.metric)
                                  ? iv_run_metric_per_request (r, spec->x.metric)
                                  : NULL;
      for (guint k = 0; k < order->len; k++)
        {
          guint32 i = g_array_index (order, guint32, k);
          double px, py;
          if (request_point (spec, r, values, xv, k, i, &px, &py) && px == x && py == y)
            return i;
        }
    }
  return G_MAXUINT;
}

void
iv_runs_chart_highlight (IvChart *chart, const IvPlotSpec *spec, const IvRun *r,
                         const guint32 *requests, guint n)
{
  g_autoptr (GArray) order = NULL;
  g_autofree guint *rank = NULL;
  g_autofree double *hx = NULL, *hy = NULL, *h1 = NULL;
  guint m = 0;

  if (n == 0 || r->n_requests == 0)
    return;
  order = iv_run_order_by_start (r);
  rank = g_new (guint, r->n_requests);
  for (guint k = 0; k < order->len; k++)
    rank[g_array_index (order, guint32, k)] = k;
  hx = g_new (double, n), hy = g_new (double, n), h1 = g_new (double, n);
  if (is_per_request_scatter (spec, r))
    {
      g_autofree double *values = iv_run_metric_per_request (r, spec->y.metric);
      g_autofree double *xv = spec->x.metric && iv_run_get_metric (r, spec->x.metric)
                                  ? iv_run_metric_per_request (r, spec->x.metric)
                                  : NULL;
      IvSeries *s;
      for (guint j = 0; j < n; j++)
        if (requests[j] < r->n_requests
            && request_point (spec, r, values, xv, rank[requests[j]], requests[j], &hx[m], &hy[m]))
          m++;
      s = iv_chart_add_scatter (chart, _ ("selected"), hx, hy, m);
      iv_series_set_color (s, 0xd55e00);
      iv_series_set_marker (s, IV_MARKER_DIAMOND, 13);
    }
  else if (spec->type == IV_PLOT_REQUEST_TIMELINE && g_strcmp0 (spec->y.metric, "worker") != 0)
    {
      g_autofree double *yv = iv_run_metric_per_request (r, timeline_y_tag (spec));
      for (guint j = 0; j < n; j++)
        {
          guint32 i = requests[j];
          if (i >= r->n_requests || !isfinite (timeline_y (spec, yv, rank[i], i)))
            continue;
          hx[m] = (g_array_index (r->start_ns, gint64, i) - r->t0_ns) * 1e-9;
          h1[m] = (g_array_index (r->end_ns, gint64, i) - r->t0_ns) * 1e-9;
          hy[m++] = timeline_y (spec, yv, rank[i], i);
        }
      iv_series_set_color (iv_chart_add_spans (chart, _ ("selected"), hx, h1, hy, m), 0xd55e00);
    }
  else if ((spec->type == IV_PLOT_DISTRIBUTION || spec->type == IV_PLOT_CDF) && spec->y.metric)
    {
      g_autofree double *values = iv_run_metric_per_request (r, spec->y.metric);
      for (guint j = 0; j < n; j++)
        if (requests[j] < r->n_requests && isfinite (values[requests[j]]))
          {
            g_autofree char *label = g_strdup_printf (_ ("request %u"), rank[requests[j]] + 1);
            iv_chart_add_vline (chart, values[requests[j]], label);
          }
    }
}

/* ---------- the points of a figure, as JSON ---------- */

static void
write_numbers (IvJsonWriter *w, const char *key, const double *v, gsize n)
{
  iv_json_writer_key (w, key);
  iv_json_writer_begin_array (w);
  for (gsize i = 0; v && i < n; i++)
    if (isfinite (v[i]))
      iv_json_writer_double (w, v[i]);
    else
      iv_json_writer_null (w);
  iv_json_writer_end_array (w);
}

static void
write_text (IvJsonWriter *w, const char *key, const char *text)
{
  iv_json_writer_key (w, key);
  if (text)
    iv_json_writer_string (w, text);
  else
    iv_json_writer_null (w);
}

static void
write_chart (const IvChart *c, IvJsonWriter *w)
{
  static const char *const kinds[] = {
    [IV_SERIES_SCATTER] = "scatter",
    [IV_SERIES_LINE] = "line",
    [IV_SERIES_STEP] = "step",
    [IV_SERIES_AREA] = "area",
    [IV_SERIES_BARS] = "bars",
    [IV_SERIES_HISTOGRAM] = "histogram",
    [IV_SERIES_CDF] = "cdf",
    [IV_SERIES_BOX] = "box",
    [IV_SERIES_ERROR_BARS] = "error_bars",
    [IV_SERIES_BAND] = "band",
    [IV_SERIES_HEATMAP] = "heatmap",
    [IV_SERIES_SPANS] = "spans",
  };
  static const char *const axes[] = { "x", "y", "y2" };

  write_text (w, "title", c->title);
  write_text (w, "subtitle", c->subtitle);
  iv_json_writer_key (w, "axes");
  iv_json_writer_begin_object (w);
  for (int a = 0; a < IV_N_AXES; a++)
    {
      const IvAxis *ax = &c->axis[a];
      iv_json_writer_key (w, axes[a]);
      iv_json_writer_begin_object (w);
      write_text (w, "title", ax->title);
      iv_json_writer_key (w, "categories");
      iv_json_writer_begin_array (w);
      for (guint k = 0; k < ax->n_categories; k++)
        iv_json_writer_string (w, ax->categories[k]);
      /* a bar chart's categories are the chart's, on x */
      for (guint k = 0; a == IV_AXIS_X && !ax->n_categories && k < c->n_categories; k++)
        iv_json_writer_string (w, c->categories[k]);
      iv_json_writer_end_array (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_object (w);
  iv_json_writer_key (w, "series");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < c->series->len; i++)
    {
      const IvSeries *s = c->series->pdata[i];
      gsize nx = s->kind == IV_SERIES_HISTOGRAM ? s->n + 1 : s->n;
      iv_json_writer_begin_object (w);
      write_text (w, "name", s->name);
      write_text (w, "kind", kinds[s->kind]);
      iv_json_writer_key (w, "y2");
      iv_json_writer_bool (w, s->y2);
      iv_json_writer_key (w, "in_legend");
      iv_json_writer_bool (w, s->in_legend);
      if (s->kind == IV_SERIES_BOX)
        {
          const double st[] = { s->position, s->box.q1, s->box.median, s->box.q3 };
          write_numbers (w, "position_q1_median_q3", st, G_N_ELEMENTS (st));
        }
      else if (s->kind != IV_SERIES_HEATMAP)
        {
          write_numbers (w, "x", s->x, nx);
          write_numbers (w, "y", s->y, s->n);
        }
      if (s->lo && s->hi)
        {
          write_numbers (w, "lo", s->lo, s->n);
          write_numbers (w, "hi", s->hi, s->n);
        }
      if (s->labels)
        {
          iv_json_writer_key (w, "labels");
          iv_json_writer_begin_array (w);
          for (gsize k = 0; k < s->n; k++)
            if (s->labels[k])
              iv_json_writer_string (w, s->labels[k]);
            else
              iv_json_writer_null (w);
          iv_json_writer_end_array (w);
        }
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
}

void
iv_runs_figure_write_json (const IvRunsFigure *f, IvJsonWriter *w)
{
  iv_json_writer_begin_object (w);
  if (f->chart)
    write_chart (f->chart, w);
  else
    {
      /* panels and surfaces: their title; their points are the panels' own charts */
      write_text (w, "title", iv_runs_figure_title (f));
      iv_json_writer_key (w, "series");
      iv_json_writer_begin_array (w);
      iv_json_writer_end_array (w);
    }
  iv_json_writer_end_object (w);
}
