/* iv-run.h: one AIPerf run as columns — its configuration, the requests of its profiling
 * phase (int64 ns timestamps) with every per-request metric, the summary's statistics,
 * GPU telemetry per GPU (deduplicated by UUID), time slices and the aggregate of
 * repeated trials. Plain data, no GTK: the CLI, the figures and the window share it. */
#pragma once

#include <gio/gio.h>

#include "iv-intern.h"
#include "iv-json-stream.h"
#include "iv-server-metrics.h"

G_BEGIN_DECLS

/* Where a metric's statistics come from: AIPerf's summary of every request, or the
 * per-request records that were read (which may be only some of them). */
typedef enum
{
  IV_STATS_SUMMARY,
  IV_STATS_RECORDS,
  IV_STATS_SERVER_AGGREGATE, /* the server's metrics, as AIPerf aggregated them */
  IV_STATS_SERVER_SERIES,    /* the server's metrics, from their time series */
} IvStatsSource;

/* Statistics of one metric, as the summary writes them; absent ones are NaN. */
typedef struct
{
  char *unit;
  double avg, min, max, std;
  double p1, p5, p10, p25, p50, p75, p90, p95, p99;
  double count;
  IvStatsSource source;
} IvMetricSummary;

/* A per-request metric: values of the profiling phase's successful requests, in file
 * order; list metrics (inter_chunk_latency) contribute every element. */
typedef struct
{
  char *tag;  /* "time_to_first_token" */
  char *unit; /* "ms", "tokens", "tokens/sec/user" */
  gboolean list;
  GArray *values;  /* double */
  GArray *request; /* guint32: the request (index in the run) of each value */
} IvRunMetric;

typedef struct
{
  char *uuid, *model, *hostname, *url;
  gint index;
  GArray *ts_ns;     /* gint64, in file order */
  GPtrArray *names;  /* char*: the telemetry fields, "gpu_utilization", … */
  GPtrArray *series; /* GArray of double per name, parallel to ts_ns (NaN: absent) */
} IvGpu;

typedef struct
{
  gint64 index;
  gint64 start_ns, end_ns; /* -1 when the file does not say */
  gboolean complete;
  GHashTable *metrics; /* tag → IvMetricSummary* */
} IvTimeslice;

/* One statistic of repeated trials (aggregate/profile_export_aiperf_aggregate.json). */
typedef struct
{
  char *unit;
  double mean, std, min, max, cv, se, ci_low, ci_high;
} IvAggregateStat;

typedef enum
{
  IV_REQUEST_OK = 0,
  IV_REQUEST_FAILED = 1 << 0,
  IV_REQUEST_CANCELLED = 1 << 1,
} IvRequestFlags;

/* The longest line a run's JSON Lines files (records, telemetry, server metrics) may
 * hold: 256 MiB, or INFERVIEW_RECORD_LINE_MAX_MIB (a whole number of MiB, 1 to 65536). A
 * longer line is passed over unread, with a warning naming the file and the line. */
#define IV_RUN_LINE_MAX_MIB 256
#define IV_RUN_LINE_MAX_ENV "INFERVIEW_RECORD_LINE_MAX_MIB"

typedef struct
{
  char *path;   /* the run's folder */
  char *name;   /* its folder's name */
  char *prefix; /* the export prefix: "profile_export" unless customised */

  /* configuration (input_config); NaN / NULL when absent */
  char *model, *endpoint_type, *endpoint, *url;
  gboolean streaming;
  double concurrency, request_rate, request_count, isl, osl;

  /* requests of the profiling phase, in file order */
  gsize n_requests;
  GArray *start_ns, *ack_ns, *end_ns; /* gint64; ack -1 when absent */
  GArray *worker;                     /* guint32 string ids */
  GArray *flags;                      /* guint8 IvRequestFlags */
  gsize n_warmup;                     /* warm-up requests: counted, not plotted */
  GArray *warmup_at;       /* guint32: n_requests when each warm-up record came (file order), so a
                            * request's place among all records is known (aiperf's request_number) */
  gsize n_errors;          /* profiling requests that failed */
  GHashTable *error_types; /* char* → GUINT_TO_POINTER (count) */
  IvIntern *strings;
  GPtrArray *metrics;       /* IvRunMetric*, in order of first appearance */
  GHashTable *metric_index; /* tag → 1 + its index in metrics (lookups by tag) */
  gint64 t0_ns, t1_ns;      /* first start, last end of the profiling requests */
  gboolean has_records;     /* a per-request file with at least one good line was read */
  guint64 records_lines;    /* lines of the per-request file holding a value */
  guint64 damaged_lines;    /* of those, skipped as damaged (warned about) */

  GHashTable *summary;     /* tag → IvMetricSummary* (empty without a summary file) */
  GPtrArray *summary_tags; /* char*, in file order: the keys of summary (not owned) */
  double duration_s;       /* benchmark_duration, else the requests' span; NaN if neither */

  GPtrArray *gpus;          /* IvGpu*, by first appearance */
  guint gpu_endpoint_pairs; /* (endpoint, GPU) pairs in the telemetry: AIPerf's count */
  guint summary_gpu_pairs, summary_gpu_uuids; /* the same from the summary's telemetry_data */
  guint summary_gpu_endpoints;                /* its endpoints that reported a GPU */
  guint gpus_override;                        /* the user's GPU count (--gpus), or 0 */
  /* GPU telemetry was collected (the summary has telemetry_data endpoints, or a telemetry
   * export was read), whether or not it found a GPU: with none, per-GPU values are not
   * drawn (as aiperf plot) rather than assumed over 1 GPU */
  gboolean telemetry_collected;
  /* every telemetry line's time and gpu_utilization, both endpoints of one GPU included
   * (gpus keeps one endpoint's): aiperf plot averages them per timestamp */
  GArray *tel_ts_ns, *tel_util;
  GPtrArray *timeslices;     /* IvTimeslice*, by index */
  GPtrArray *timeslices_csv; /* the same from *_timeslices.csv (display names folded to tags,
                              * values rounded to 2 decimals): what aiperf plot reads */
  double slice_duration_s;   /* input_config.output.slice_duration; NaN when absent */
  GHashTable *aggregate;     /* key ("request_latency_p99") → IvAggregateStat* */
  guint n_trials;
  /* the aggregate's metadata (AggregateConfidenceJsonExporter): "confidence", the trials
   * run and those that succeeded (0 when it does not say), its confidence level (NaN) */
  char *aggregation_type;
  guint n_profile_runs, n_successful_runs;
  double confidence_level;
  /* a cell of a sweep of repeated trials that is only its aggregate file
   * (<base>/aggregate/<cell>/ or <cell>/aggregate/ alone): no records, no summary; its
   * statistics are the trials' means (as aiperf plot's _load_aggregate_only reads them) */
  gboolean aggregate_only;
  /* a folder holding a sweep's aggregate (AggregateSweepJsonExporter's
   * profile_export_aiperf_sweep.json): a run per combination of its parameters
   * (aggregate-only, named like aiperf's cell folders, "concurrency_10"), which the sweep
   * takes in its place when it found no run of those cells; NULL for any other run */
  GPtrArray *sweep_cells;
  char *sweep_pareto; /* its pareto_optimal combinations, "concurrency_10, concurrency_30" */

  GPtrArray *warnings;     /* char*: one sentence each, naming the file */
  IvServerMetrics *server; /* the inference server's own metrics, or NULL */

  /* Non-NULL while AIPerf is still writing the run and it is followed (iv_run_follow):
   * only complete lines have been read, and the summary is not there yet. */
  struct _IvRunLive *live;
  /* Records but no summary, and the files no longer grow: AIPerf stopped (finished a
   * records-only export, or died) before writing its summary. Not live. */
  gboolean incomplete;
} IvRun;

/* A run without its summary is live only while its files grow: followed, it becomes
 * "incomplete: no summary" after this many seconds without growth (plot --linger sets
 * another). */
#define IV_RUN_LIVE_STALE_S 10

typedef enum
{
  IV_RUN_LOAD_DEFAULT = 0,
  /* A run still being written (records but no summary yet) is read up to its last
   * complete line and followed from there, instead of read as finished. */
  IV_RUN_LOAD_FOLLOW = 1 << 0,
} IvRunLoadFlags;

/* What one iv_run_follow() found. */
typedef struct
{
  guint new_records;  /* request records read (profiling and warm-up) */
  guint new_samples;  /* telemetry samples read */
  gboolean finished;  /* the summary appeared: the run is complete now */
  gboolean restarted; /* the records file was replaced or cut: load the run again */
} IvRunFollow;

/* Loads the run in folder @path (or the run a file of it belongs to). Every file is
 * optional but one of records or summary; a damaged file is an error naming it, the
 * line and the column. */
IvRun *iv_run_load (const char *path, IvProgressFunc progress, gpointer progress_data,
                    GCancellable *cancellable, GError **error);
IvRun *iv_run_load_full (const char *path, IvRunLoadFlags flags, IvProgressFunc progress,
                         gpointer progress_data, GCancellable *cancellable, GError **error);
/* Reads what AIPerf appended to a followed run since the last call: the complete new
 * lines of its records and telemetry (a partial last line waits for its newline), at
 * most @max_bytes of each (0: no limit). When the summary has appeared, reads the rest
 * and the summary, and the run is no longer live. Does nothing for a finished run. */
gboolean iv_run_follow (IvRun *run, gsize max_bytes, IvRunFollow *out, GError **error);
/* Stops following: the run keeps what was read. */
void iv_run_unfollow (IvRun *run);
/* A followed run whose files have not grown for @stale_s seconds (by the files' times at
 * the start, by what was read since) stops being followed and is incomplete, with a
 * warning saying so; TRUE when that happened now. */
gboolean iv_run_expire (IvRun *run, guint stale_s);
/* A request's place among all the records of its file (warm-up ones included), from 0:
 * aiperf plot's request_number. */
guint iv_run_record_number (const IvRun *run, guint32 request);
/* The longest line of a run's JSON Lines files (IV_RUN_LINE_MAX_MIB, or the environment's
 * INFERVIEW_RECORD_LINE_MAX_MIB), in bytes; *@problem (may be NULL) is set to a sentence
 * when the variable is set to something that is not such a number (the default is used). */
gsize iv_run_line_max (char **problem);
/* Monotonic time (µs) the followed run last grew; 0 when it is not live. */
gint64 iv_run_live_last_growth (const IvRun *run);
void iv_run_free (IvRun *run);
const IvRunMetric *iv_run_get_metric (const IvRun *run, const char *tag);
const IvMetricSummary *iv_run_get_summary (const IvRun *run, const char *tag);
/* Statistics of @tag: AIPerf's summary where it has the metric (it covers every
 * request; the records read may be fewer), else computed from the records; out->source
 * says which. FALSE when the run has neither. */
gboolean iv_run_metric_stats (const IvRun *run, const char *tag, IvMetricSummary *out);
/* Statistics of @tag from the records read (percentiles by linear interpolation between
 * closest ranks, std over the population, as AIPerf computes them). FALSE without them. */
gboolean iv_run_metric_stats_records (const IvRun *run, const char *tag, IvMetricSummary *out);
/* The summary's request count (NaN without one). */
double iv_run_summary_requests (const IvRun *run);
/* Successful profiling requests with a record (0 without records). */
gsize iv_run_good_records (const IvRun *run);
/* A sentence when the records cover fewer requests than the summary; else NULL. */
char *iv_run_records_note (const IvRun *run);
/* Where a run's GPU count comes from. */
typedef enum
{
  IV_GPUS_TELEMETRY, /* distinct GPU UUIDs in the telemetry export */
  IV_GPUS_SUMMARY,   /* distinct GPU UUIDs in the summary's telemetry */
  IV_GPUS_USER,      /* --gpus, or the window's choice */
  IV_GPUS_ASSUMED,   /* nothing says: one */
} IvGpuCountSource;

/* The GPUs that served the run (per-GPU throughput divides by it), and from what. */
guint iv_run_gpu_count (const IvRun *run, IvGpuCountSource *source);
/* What AIPerf would count: a GPU per endpoint reporting it (0 when nothing says). */
guint iv_run_gpu_count_aiperf (const IvRun *run);
/* A sentence when the count is assumed or differs from AIPerf's; else NULL. */
char *iv_run_gpu_note (const IvRun *run);
/* A sentence when the records' statistics of @tag disagree with the summary's; else NULL. */
char *iv_run_stats_note (const IvRun *run, const char *tag);
/* Every metric tag the run has, per-request ones first, then summary-only ones. */
GPtrArray *iv_run_metric_tags (const IvRun *run);
void iv_metric_summary_clear (IvMetricSummary *summary);
/* The field of @summary a statistic names ("avg" or "mean", "min", "max", "std",
 * "p1" … "p99"), or NULL. */
double *iv_metric_summary_stat (IvMetricSummary *summary, const char *stat);
/* Fills @out from @values (NaNs skipped). */
void iv_metric_summary_compute (const double *values, gsize n, const char *unit,
                                IvMetricSummary *out);
const IvGpu *iv_run_find_gpu (const IvRun *run, const char *uuid);
/* The series @name of @gpu, or NULL. */
const GArray *iv_gpu_get_series (const IvGpu *gpu, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvRun, iv_run_free)

G_END_DECLS
