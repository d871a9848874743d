/* iv-server-metrics.h: the inference server's own Prometheus metrics of an AIPerf run
 * (server_metrics_export.jsonl with server_metrics_metadata.json, and the aggregated
 * server_metrics_export.json), as the few quantities a performance engineer reads beside
 * the client's: requests running and waiting, KV-cache usage, prefix-cache hit rate,
 * generated and prompt tokens per second, queue time — whichever server wrote them
 * (vLLM, SGLang, TRT-LLM names). GLib only. */
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
/* For the fuzz target: the time series from @input. */
IvServerMetrics *iv_server_metrics_parse (IvInput *input, GError **error);
void iv_server_metrics_free (IvServerMetrics *metrics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvServerMetrics, iv_server_metrics_free)

G_END_DECLS
