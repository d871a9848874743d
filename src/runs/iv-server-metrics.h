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

/* One window of a series in the aggregated JSON (its "timeslices": AIPerf's
 * --slice-duration windows over the profiling phase); NaN where the file does not say. */
typedef struct
{
  gint64 start_ns, end_ns;
  double avg, min, max;     /* a gauge's; a histogram's avg (sum / count) */
  double total, rate;       /* a counter's increase in the window and its rate per second */
  double count, sum;        /* a histogram's observations and their sum in the window */
  guint bucket0, n_buckets; /* its buckets: bucket_le/bucket_n [bucket0, bucket0 + n) */
  gboolean bucket_bad;      /* a bucket bound that is no number */
} IvServerSlice;

/* One series' statistics from the aggregated JSON (its metrics → series → stats). */
typedef struct
{
  const char *metric, *endpoint, *labels, *unit;
  IvPromType type;
  IvServerStats stats; /* gauges as given; histograms: avg and the pNN_estimate */
  double total, rate;  /* counters: the increase and its rate per second; histograms:
                        * the observations and their rate (NaN when not given) */
  GArray *slices;      /* IvServerSlice, in the file's order, or NULL when it has none */
  /* the windows' histogram buckets, each window's sorted by bound (+Inf last, as
   * INFINITY): bound and cumulative count, as Prometheus gives them (NULL when none) */
  GArray *bucket_le, *bucket_n; /* double */
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
  /* the earliest point aiperf plot's frame has (_parquet_rows_with_deltas: a counter's or
   * histogram's first scrape is no point): its downsampling windows count from it; -1 */
  gint64 aiperf_t0_ns;
  gpointer priv; /* the strings the series point to */
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
/* The same with @aiperf: as aiperf plot's filter_server_metrics_dataframe finds them —
 * the metric by its exact name, and a label filter naming every label of a series (its
 * labels_json equal to the filter's; a Parquet series' labels include its "unit", which
 * aiperf's reader takes for a label): a filter naming some of them finds nothing. */
GPtrArray *iv_server_metrics_find_full (const IvServerMetrics *metrics, const IvPromSpec *spec,
                                        gboolean aiperf, GError **error);

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
  GArray *t_ns;     /* gint64: each point's time as the file gives it (x_s before the origin) */
  const char *unit; /* the series' unit, or NULL */
  /* the series (aiperf's keys: a Parquet series' labels with its unit) */
  const char *endpoint;
  char *labels;
} IvServerLine;

/* The lines of @spec over time, one per series it finds (as aiperf plot draws one per
 * endpoint and label set), times in seconds from @origin_ns, each point as
 * iv_server_series_points () gives it. @aiperf: as aiperf plot draws them — the series
 * iv_server_metrics_find_full () finds, a Parquet file's points in windows of @window_s
 * seconds of their @method (settings.server_metrics_downsampling: 5 s and "mean" by
 * default; @window_s 0 when it is disabled), a histogram's interval without observations
 * at 0; without a Parquet file, the windows of server_metrics_export.json (each at
 * (start + end) // 2: a gauge's and a histogram's avg, a counter's rate), as aiperf plot's
 * loader makes its time series (_timeslice_to_row), never the JSONL. Inferview's: the
 * series scraped (Parquet, else JSONL), else the JSON's windows. NULL with the finder's
 * error when nothing matches. */
GPtrArray *iv_server_metrics_lines (const IvServerMetrics *metrics, const char *spec,
                                    gint64 origin_ns, gboolean aiperf, double window_s,
                                    const char *method, GError **error);

/* @t_ns − @origin_ns in seconds, without wrapping when a hostile file's times are far
 * apart (then the nearest double of the difference). */
double iv_server_ns_seconds (gint64 t_ns, gint64 origin_ns);

/* Whether aiperf plot has server metrics over time for this run (its RunData.server_metrics
 * frame): a Parquet file's rows, else the windows of server_metrics_export.json. */
gboolean iv_server_metrics_aiperf_has_frame (const IvServerMetrics *metrics);

/* A histogram quantile as Prometheus' histogram_quantile (and aiperf's
 * compute_prometheus_percentiles) estimates it: @le the bucket bounds ascending (+Inf
 * last, as INFINITY), @n their cumulative counts, @total the observations; the rank
 * q · total found in the first bucket whose count reaches it and placed linearly within
 * it (from 0 below the first bound); in the +Inf bucket, the last finite bound. */
double iv_server_bucket_quantile (const double *le, const double *n, guint n_buckets, double total,
                                  double q);

/* The percentile bands of one series over its windows (the aggregated JSON's
 * timeslices), as aiperf plot's PercentileBandsHandler makes them: a histogram's p50,
 * p95 and p99 estimated from each window's buckets (its avg when it has none); a gauge's
 * avg as p50, its max as p95 and p99, its min as the lower band; a counter's rate as all
 * three. Each window at its middle, seconds from @origin_ns. */
typedef struct
{
  char *name; /* the series, for the legend (several found), else the metric */
  const char *unit;
  IvPromType type;
  GArray *x_s;             /* double: the windows' middles */
  GArray *p50, *p95, *p99; /* double, NaN where a window has no value */
  GArray *low;             /* double: a gauge's min; NULL for other types */
  const IvServerAggSeries *series;
} IvServerBands;

/* The bands of @spec. @aiperf: the one series aiperf plot draws — the metric by its
 * exact name, on the endpoint given or else its first in the file, whose labels are
 * exactly those given (none given: a series without labels) — else Inferview's: every
 * series iv_server_metrics_find () would match (a label filter keeps the series that
 * have those labels), at most IV_SERVER_BANDS_MAX of them. NULL with an error in
 * aiperf's words when the series, its windows or any value is missing. */
#define IV_SERVER_BANDS_MAX 8
GPtrArray *iv_server_metrics_bands (const IvServerMetrics *metrics, const char *spec,
                                    gint64 origin_ns, gboolean aiperf, guint *n_found,
                                    GError **error);

/* A run's value of server metric @name on a multi-run axis as aiperf plot's
 * MultiRunPNGExporter._aggregate_server_metric_into_row makes it: a column named by the
 * metric alone (a name with a filter is no column: NaN), over every endpoint and label
 * set of its aggregated statistics, the counters' rates summed, else the avgs averaged.
 * Its aggregated statistics are the JSON's; with only a Parquet file, each series' mean
 * over its points in windows of @window_s seconds of their @method (0: no windows), where
 * a counter has no value (its Parquet rows have no count). NaN when there is none. */
double iv_server_metrics_value_aiperf (const IvServerMetrics *metrics, const char *name,
                                       double window_s, const char *method);

/* A statistic of @spec over the run: from the aggregated JSON where it has the series
 * (avg, min, max, std, p1 … p99; a counter's or histogram's "rate" and "total"; a
 * counter's avg is its rate), else from the points of the time series. Several series:
 * rates and totals add up, other statistics are averaged. FALSE with an error when the
 * spec finds nothing or the statistic is not there. @unit may be NULL. */
gboolean iv_server_metrics_stat (const IvServerMetrics *metrics, const char *spec, const char *stat,
                                 double *value, const char **unit, GError **error);

G_END_DECLS
