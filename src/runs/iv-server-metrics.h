/* iv-server-metrics.h: the inference server's own Prometheus metrics of an AIPerf run
 * (server_metrics_export.jsonl with server_metrics_metadata.json, the aggregated
 * server_metrics_export.json, and server_metrics_export.parquet), in two forms:
 *
 * - the few quantities a performance engineer reads beside the client's: requests
 *   running and waiting, KV-cache usage, prefix-cache hit rate, generated and prompt
 *   tokens per second, queue time — whichever server wrote them (vLLM, SGLang, TRT-LLM
 *   names);
 * - every series by its Prometheus name, endpoint and labels, found the way `aiperf plot`
 *   finds them ("vllm:kv_cache_usage_perc", "metric[endpoint]{label=value,…}").
 *
 * GLib only. */
#pragma once

#include <glib.h>

#include "iv-input.h"

G_BEGIN_DECLS

typedef enum
{
  IV_SERVER_RUNNING,     /* requests in the running batch */
  IV_SERVER_WAITING,     /* requests queued */
  IV_SERVER_KV_USAGE,    /* % of the KV cache in use */
  IV_SERVER_PREFIX_HIT,  /* % of prompt tokens found in the prefix cache */
  IV_SERVER_GEN_RATE,    /* generated tokens per second */
  IV_SERVER_PROMPT_RATE, /* prompt (prefill) tokens per second */
  IV_SERVER_QUEUE_TIME,  /* mean time a request waited, per scrape interval (ms) */
  IV_N_SERVER_QUANTITIES,
} IvServerQuantity;

/* Statistics as AIPerf's aggregate gives them (NaN: not given). */
typedef struct
{
  double avg, min, max, std, p1, p5, p10, p25, p50, p75, p90, p95, p99;
} IvServerStats;

/* One scraped endpoint: a clock and each quantity on it (NaN where absent). */
typedef struct
{
  char *url;
  GArray *ts_ns;                          /* gint64, in file order */
  GArray *values[IV_N_SERVER_QUANTITIES]; /* double */
} IvServerEndpoint;

typedef enum
{
  IV_PROM_GAUGE,
  IV_PROM_COUNTER,
  IV_PROM_HISTOGRAM,
  IV_PROM_UNKNOWN, /* untyped: read as a gauge, as AIPerf does */
} IvPromType;

/* One series as scraped: a metric on one endpoint with one set of labels. Its strings
 * belong to the IvServerMetrics. */
typedef struct
{
  const char *metric, *endpoint;
  const char *labels; /* {"k":"v",…}, keys sorted, compact: AIPerf's labels_json; "{}" */
  IvPromType type;
  const char *unit; /* the Parquet file's (AIPerf's inferred unit), or NULL */
  GArray *ts_ns;    /* gint64, ascending */
  GArray *value;    /* double: a gauge's value, a counter's count, a histogram's sum */
  GArray *count;    /* double: a histogram's number of observations; NULL otherwise */
} IvServerSeries;

/* One series' statistics from the aggregated JSON (its metrics → series → stats). */
typedef struct
{
  const char *metric, *endpoint, *labels, *unit;
  IvPromType type;
  IvServerStats stats; /* gauges as given; histograms: avg and the pNN_estimate */
  double total, rate;  /* counters: the increase and its rate per second; histograms:
                        * the observations and their rate (NaN when not given) */
} IvServerAggSeries;

typedef struct
{
  char *engine;         /* "vLLM", "SGLang", "TRT-LLM", or NULL when unrecognised */
  GPtrArray *endpoints; /* IvServerEndpoint* */
  gboolean has[IV_N_SERVER_QUANTITIES];
  guint64 lines, damaged;
  /* statistics from the aggregated JSON, over the profiling phase as AIPerf computed
   * them: avg always, the rest where one series says them (NaN otherwise) */
  char *aggregate_path; /* the file, or NULL */
  gboolean has_aggregate[IV_N_SERVER_QUANTITIES];
  IvServerStats agg[IV_N_SERVER_QUANTITIES];
  /* every series by name: from the Parquet file when there is one (AIPerf's plot reads
   * its time series there: the profiling phase, counters counted from its start), else
   * from the JSONL (every scrape); sorted by metric, endpoint, labels */
  GPtrArray *series;     /* IvServerSeries* */
  GPtrArray *agg_series; /* IvServerAggSeries*, in the aggregated JSON's order */
  char *parquet_path;    /* the Parquet file read, or NULL */
  char *parquet_problem; /* why a Parquet file beside a JSONL or JSON was not read */
  guint64 parquet_rows, parquet_skipped; /* its rows; those without endpoint, name or time */
  gint64 t0_ns;                          /* the earliest time of any series, or -1 */
  gpointer priv;                         /* the strings the series point to */
} IvServerMetrics;

/* "server_kv_cache_usage", … : the tags server quantities go by among a run's metrics. */
const char *iv_server_quantity_key (IvServerQuantity q);
const char *iv_server_quantity_unit (IvServerQuantity q);
/* The quantity a tag names; FALSE when it names none. */
gboolean iv_server_quantity_from_key (const char *key, IvServerQuantity *q);

/* Reads the time series (@jsonl, may be NULL) and the aggregated statistics
 * (@aggregate, may be NULL); NULL with an error naming the file when one cannot be read.
 * Damaged lines are skipped and counted. */
IvServerMetrics *iv_server_metrics_load (const char *jsonl, const char *aggregate, GError **error);
/* The same with the metadata (@metadata: each metric's type) and the Parquet file
 * (@parquet), any of them NULL. A Parquet file that cannot be read while another file
 * can is said in parquet_problem, and the rest is kept. */
IvServerMetrics *iv_server_metrics_load_all (const char *jsonl, const char *metadata,
                                             const char *aggregate, const char *parquet,
                                             GError **error);
/* For the fuzz target: the time series from @input. */
IvServerMetrics *iv_server_metrics_parse (IvInput *input, GError **error);
/* For the fuzz target and the tests: the series (and quantities) of a Parquet file in
 * memory, named @name in messages. */
IvServerMetrics *iv_server_metrics_parse_parquet (GBytes *bytes, const char *name, GError **error);
void iv_server_metrics_free (IvServerMetrics *metrics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvServerMetrics, iv_server_metrics_free)

/* ---- by Prometheus name ---- */

/* "metric", "metric[endpoint]", "metric{k=v,k2='v2'}", "metric[endpoint]{k=\"v\"}", as
 * aiperf plot reads them (plot/utils.py parse_server_metric_spec): the name, an endpoint
 * URL to keep, labels to keep. */
typedef struct
{
  char *metric;
  char *endpoint;    /* NULL: every endpoint */
  GPtrArray *labels; /* char*: key, value, key, value …; empty: any labels */
} IvPromSpec;

/* NULL with an error quoting @text when a bracket or brace is not closed, a label has
 * no "=", or a key is empty (aiperf's own errors). */
IvPromSpec *iv_prom_spec_parse (const char *text, GError **error);
void iv_prom_spec_free (IvPromSpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPromSpec, iv_prom_spec_free)

/* Whether a plot's axis @name is a server metric: @source says "server_metrics", or the
 * name (filters aside) has a Prometheus namespace ("vllm:…") or a filter, or begins as
 * the inference servers' metrics do (vllm_, sglang_, trtllm_, dynamo_, nv_inference_).
 * aiperf's own guess also takes suffixes such as _seconds or _total, which Inferview's
 * metric tags share; such a name needs `source: server_metrics`. */
gboolean iv_prom_is_server_metric (const char *source, const char *name);

/* The series @spec names, sorted by endpoint then labels (borrowed); a series matches
 * when it is the metric (with or without a counter's "_total"), on the endpoint if one
 * is given, and has every label given. NULL with an error naming what is there instead
 * (the metrics, the endpoints, the label sets), as aiperf's does. */
GPtrArray *iv_server_metrics_find (const IvServerMetrics *metrics, const IvPromSpec *spec,
                                   GError **error);

/* What a figure draws of @series over time: a gauge's value, a counter's rate per second
 * between scrapes (NaN across a reset), a histogram's mean observation between scrapes
 * (NaN when none was made; 0 when @aiperf, as aiperf plot's Parquet reader has it); the
 * first scrape of a counter or histogram has nothing before it and is left out. */
void iv_server_series_points (const IvServerSeries *series, gboolean aiperf, GArray *t_ns,
                              GArray *values);

/* aiperf plot's downsampling of server metrics (settings.server_metrics_downsampling):
 * points in windows of @window_s seconds counted from @t0_ns (the earliest time of the
 * run's server metrics), each window one point at the mean of its times (whole ns,
 * truncated) with the @method ("mean", "max", "min", "median") of its values, NaN values
 * left out. Windows in time order. */
void iv_server_downsample (const gint64 *t_ns, const double *values, gsize n, gint64 t0_ns,
                           double window_s, const char *method, GArray *out_t_ns,
                           GArray *out_values);

/* One line of a figure of server metrics over time. */
typedef struct
{
  char *name;       /* for the legend: the metric alone, else what tells the series apart */
  GArray *x_s;      /* double: seconds since the figure's origin */
  GArray *y;        /* double */
  const char *unit; /* the series' unit, or NULL */
} IvServerLine;

/* The lines of @spec over time, one per series it finds (as aiperf plot draws one per
 * endpoint and label set), times in seconds from @origin_ns, each point as
 * iv_server_series_points () gives it. @aiperf: as aiperf plot draws them — a Parquet
 * file's points in its default 5-s windows of their mean (settings.
 * server_metrics_downsampling), a histogram's interval without observations at 0. NULL
 * with iv_server_metrics_find ()'s error when nothing matches. */
GPtrArray *iv_server_metrics_lines (const IvServerMetrics *metrics, const char *spec,
                                    gint64 origin_ns, gboolean aiperf, GError **error);

/* A statistic of @spec over the run: from the aggregated JSON where it has the series
 * (avg, min, max, std, p1 … p99; a counter's or histogram's "rate" and "total"; a
 * counter's avg is its rate), else from the points of the time series. Several series:
 * rates and totals add up, other statistics are averaged. FALSE with an error when the
 * spec finds nothing or the statistic is not there. @unit may be NULL. */
gboolean iv_server_metrics_stat (const IvServerMetrics *metrics, const char *spec, const char *stat,
                                 double *value, const char **unit, GError **error);

G_END_DECLS
