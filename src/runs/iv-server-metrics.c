/* iv-server-metrics.c: reading a run's server metrics (see the header). The JSONL is
 * streamed through yajl, one scrape per line: of each scrape only the metrics that make
 * a quantity are kept, their samples summed over labels (or averaged, for ratios).
 * Counters become rates and histograms mean times between consecutive scrapes of the
 * same endpoint; a counter that goes down was reset, and that interval says nothing. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-server-metrics.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-json-doc.h"
#include "iv-json-stream.h"
#include "iv-run.h"

/* What a scraped metric is to us. */
typedef enum
{
  RAW_RUNNING,
  RAW_WAITING,
  RAW_KV,        /* ratio 0–1, averaged over label sets */
  RAW_GEN,       /* counter */
  RAW_PROMPT,    /* counter */
  RAW_HITS,      /* counter: prefix-cache hit tokens */
  RAW_QUERIES,   /* counter: prefix-cache queried tokens */
  RAW_HIT_RATE,  /* gauge, ratio */
  RAW_GEN_GAUGE, /* gauge, tokens/s */
  RAW_QUEUE,     /* histogram, seconds */
  N_RAW,
} Raw;

static const struct
{
  const char *name;
  Raw raw;
  const char *engine;
} known[] = {
  { "vllm:num_requests_running", RAW_RUNNING, "vLLM" },
  { "vllm:num_requests_waiting", RAW_WAITING, "vLLM" },
  { "vllm:kv_cache_usage_perc", RAW_KV, "vLLM" },
  { "vllm:gpu_cache_usage_perc", RAW_KV, "vLLM" }, /* before vLLM 0.10 */
  { "vllm:generation_tokens", RAW_GEN, "vLLM" },
  { "vllm:prompt_tokens", RAW_PROMPT, "vLLM" },
  { "vllm:prefix_cache_hits", RAW_HITS, "vLLM" },
  { "vllm:prefix_cache_queries", RAW_QUERIES, "vLLM" },
  { "vllm:request_queue_time_seconds", RAW_QUEUE, "vLLM" },
  { "sglang:num_running_reqs", RAW_RUNNING, "SGLang" },
  { "sglang:num_queue_reqs", RAW_WAITING, "SGLang" },
  { "sglang:token_usage", RAW_KV, "SGLang" },
  { "sglang:generation_tokens", RAW_GEN, "SGLang" },
  { "sglang:prompt_tokens", RAW_PROMPT, "SGLang" },
  { "sglang:cache_hit_rate", RAW_HIT_RATE, "SGLang" },
  { "sglang:gen_throughput", RAW_GEN_GAUGE, "SGLang" },
  { "sglang:queue_time_seconds", RAW_QUEUE, "SGLang" },
  { "trtllm_num_requests_running", RAW_RUNNING, "TRT-LLM" },
  { "trtllm_num_requests_waiting", RAW_WAITING, "TRT-LLM" },
  { "trtllm_kv_cache_utilization", RAW_KV, "TRT-LLM" },
  { "trtllm_generation_tokens", RAW_GEN, "TRT-LLM" },
  { "trtllm_prompt_tokens", RAW_PROMPT, "TRT-LLM" },
  { "trtllm_kv_cache_hit_rate", RAW_HIT_RATE, "TRT-LLM" },
  { "trtllm_request_queue_time_seconds", RAW_QUEUE, "TRT-LLM" },
};

static const struct
{
  const char *key, *unit;
} quantities[IV_N_SERVER_QUANTITIES] = {
  [IV_SERVER_RUNNING] = { "server_requests_running", "requests" },
  [IV_SERVER_WAITING] = { "server_requests_waiting", "requests" },
  [IV_SERVER_KV_USAGE] = { "server_kv_cache_usage", "%" },
  [IV_SERVER_PREFIX_HIT] = { "server_prefix_cache_hit_rate", "%" },
  [IV_SERVER_GEN_RATE] = { "server_generation_tokens_per_sec", "tokens/sec" },
  [IV_SERVER_PROMPT_RATE] = { "server_prompt_tokens_per_sec", "tokens/sec" },
  [IV_SERVER_QUEUE_TIME] = { "server_queue_time", "ms" },
};

const char *
iv_server_quantity_key (IvServerQuantity q)
{
  return q < IV_N_SERVER_QUANTITIES ? quantities[q].key : NULL;
}

const char *
iv_server_quantity_unit (IvServerQuantity q)
{
  return q < IV_N_SERVER_QUANTITIES ? quantities[q].unit : NULL;
}

gboolean
iv_server_quantity_from_key (const char *key, IvServerQuantity *q)
{
  if (!key || !g_str_has_prefix (key, "server_"))
    return FALSE;
  for (guint i = 0; i < IV_N_SERVER_QUANTITIES; i++)
    if (g_str_equal (key, quantities[i].key))
      {
        *q = i;
        return TRUE;
      }
  return FALSE;
}

/* A metric's role, by its name with or without the counter's "_total". */
static gint
raw_of (const char *name, size_t len, const char **engine)
{
  if (len > 6 && memcmp (name + len - 6, "_total", 6) == 0)
    len -= 6;
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (strlen (known[i].name) == len && memcmp (known[i].name, name, len) == 0)
      {
        *engine = known[i].engine;
        return known[i].raw;
      }
  return -1;
}

/* ---------- the JSONL ---------- */

typedef struct
{
  char *url;
  GArray *ts;         /* gint64 */
  GArray *raw[N_RAW]; /* double per scrape; histograms: sums in hist_sum */
  GArray *hist_count; /* double per scrape (queue histogram) */
} Endpoint;

typedef struct
{
  IvServerMetrics *m;
  GPtrArray *endpoints; /* Endpoint*, in order of first appearance */
  GHashTable *by_url;   /* url → Endpoint*: a scrape finds its endpoint by name, so a
                         * hundred thousand endpoints are not a quadratic load */
  int depth;
  char key[64];       /* the last key at depths 1 and 3 */
  gint raw;           /* the metric being read, or -1 */
  gboolean in_sample; /* inside one of its samples */
  /* the scrape being read */
  char *url;
  gint64 ts;
  double sum[N_RAW], n[N_RAW], hsum, hcount;
  gboolean seen[N_RAW], complete;
} Ctx;

static void
endpoint_free (gpointer p)
{
  Endpoint *e = p;
  g_free (e->url);
  g_array_unref (e->ts);
  for (guint i = 0; i < N_RAW; i++)
    g_array_unref (e->raw[i]);
  g_array_unref (e->hist_count);
  g_free (e);
}

static void
scrape_reset (Ctx *c)
{
  g_clear_pointer (&c->url, g_free);
  c->ts = -1;
  memset (c->sum, 0, sizeof c->sum);
  memset (c->n, 0, sizeof c->n);
  memset (c->seen, 0, sizeof c->seen);
  c->hsum = c->hcount = 0;
  c->complete = FALSE;
}

static Endpoint *
endpoint_for (Ctx *c, const char *url)
{
  Endpoint *e = g_hash_table_lookup (c->by_url, url);

  if (e)
    return e;
  e = g_new0 (Endpoint, 1);
  e->url = g_strdup (url);
  e->ts = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < N_RAW; i++)
    e->raw[i] = g_array_new (FALSE, FALSE, sizeof (double));
  e->hist_count = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (c->endpoints, e);
  g_hash_table_insert (c->by_url, e->url, e);
  return e;
}

static void
line_done (gpointer ctx, gboolean ok)
{
  Ctx *c = ctx;

  if (ok && c->complete && c->ts >= 0)
    {
      Endpoint *e = endpoint_for (c, c->url ? c->url : "");
      g_array_append_val (e->ts, c->ts);
      for (guint r = 0; r < N_RAW; r++)
        {
          double v = !c->seen[r]                                         ? NAN
                     : r == RAW_QUEUE                                    ? c->hsum
                     : (r == RAW_KV || r == RAW_HIT_RATE) && c->n[r] > 0 ? c->sum[r] / c->n[r]
                                                                         : c->sum[r];
          g_array_append_val (e->raw[r], v);
        }
      {
        double hc = c->seen[RAW_QUEUE] ? c->hcount : NAN;
        g_array_append_val (e->hist_count, hc);
      }
    }
  c->depth = 0;
  c->raw = -1;
  c->in_sample = FALSE;
  scrape_reset (c);
}

static int
on_start_map (void *ctx)
{
  Ctx *c = ctx;
  c->depth++;
  if (c->depth == 4 && c->raw >= 0)
    c->in_sample = TRUE;
  return 1;
}

static int
on_end_map (void *ctx)
{
  Ctx *c = ctx;
  if (c->depth == 4)
    c->in_sample = FALSE;
  if (c->depth == 1)
    c->complete = TRUE;
  c->depth--;
  return 1;
}

static int
on_start_array (void *ctx)
{
  Ctx *c = ctx;
  c->depth++;
  return 1;
}

static int
on_end_array (void *ctx)
{
  Ctx *c = ctx;
  if (c->depth == 3)
    c->raw = -1;
  c->depth--;
  return 1;
}

static int
on_map_key (void *ctx, const unsigned char *key, size_t len)
{
  Ctx *c = ctx;

  if (c->depth == 2)
    {
      /* a metric's name: kept only when it makes a quantity */
      const char *engine = NULL;
      c->raw = raw_of ((const char *) key, len, &engine);
      if (c->raw >= 0 && !c->m->engine)
        c->m->engine = g_strdup (engine);
    }
  else if (c->depth == 1 || c->depth == 4)
    {
      len = MIN (len, sizeof c->key - 1);
      memcpy (c->key, key, len);
      c->key[len] = '\0';
    }
  return 1;
}

static int
on_number (void *ctx, const char *s, size_t len)
{
  Ctx *c = ctx;
  char buf[64];
  double v;

  len = MIN (len, sizeof buf - 1);
  memcpy (buf, s, len);
  buf[len] = '\0';
  if (c->depth == 1 && g_str_equal (c->key, "timestamp_ns"))
    {
      /* an epoch in ns does not fit a double exactly: read it as an integer */
      char *end;
      gint64 t = g_ascii_strtoll (buf, &end, 10);
      double d;
      if (*end == '\0' && t >= 0)
        c->ts = t;
      else
        {
          /* a float (1.7e18): converted only within range, else no clock at all (-1) */
          d = g_ascii_strtod (buf, NULL);
          c->ts = isfinite (d) && d >= 0 && d < 9.2e18 ? (gint64) d : -1;
        }
      return 1;
    }
  if (!c->in_sample || c->raw < 0 || c->depth != 4)
    return 1;
  v = g_ascii_strtod (buf, NULL);
  if (!isfinite (v))
    return 1;
  if (c->raw == RAW_QUEUE)
    {
      if (g_str_equal (c->key, "sum"))
        c->hsum += v, c->seen[RAW_QUEUE] = TRUE;
      else if (g_str_equal (c->key, "count"))
        c->hcount += v;
    }
  else if (g_str_equal (c->key, "value"))
    {
      c->sum[c->raw] += v;
      c->n[c->raw] += 1;
      c->seen[c->raw] = TRUE;
    }
  return 1;
}

static int
on_string (void *ctx, const unsigned char *s, size_t len)
{
  Ctx *c = ctx;
  if (c->depth == 1 && g_str_equal (c->key, "endpoint_url"))
    {
      g_free (c->url);
      c->url = g_strndup ((const char *) s, len);
    }
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end_map,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end_array,
};

/* Between scrapes i−1 and i of one endpoint: the increase of a counter, NaN across a
 * reset or a gap in the series. */
static double
increase (GArray *a, guint i)
{
  double now = g_array_index (a, double, i), before = g_array_index (a, double, i - 1);
  return isnan (now) || isnan (before) || now < before ? NAN : now - before;
}

/* The quantities of one endpoint from its raw scrapes. */
static IvServerEndpoint *
derive (IvServerMetrics *m, Endpoint *e)
{
  IvServerEndpoint *out = g_new0 (IvServerEndpoint, 1);
  guint n = e->ts->len;

  out->url = g_strdup (e->url);
  out->ts_ns = g_array_ref (e->ts);
  for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
    {
      out->values[q] = g_array_sized_new (FALSE, FALSE, sizeof (double), n);
      g_array_set_size (out->values[q], n);
    }
  for (guint i = 0; i < n; i++)
    {
      double dt
          = i ? (g_array_index (e->ts, gint64, i) - g_array_index (e->ts, gint64, i - 1)) * 1e-9
              : NAN;
      double v[IV_N_SERVER_QUANTITIES];
#define RAW(r) g_array_index (e->raw[r], double, i)
      v[IV_SERVER_RUNNING] = RAW (RAW_RUNNING);
      v[IV_SERVER_WAITING] = RAW (RAW_WAITING);
      v[IV_SERVER_KV_USAGE] = 100.0 * RAW (RAW_KV);
      v[IV_SERVER_GEN_RATE] = !isnan (RAW (RAW_GEN_GAUGE)) ? RAW (RAW_GEN_GAUGE)
                              : i && dt > 0                ? increase (e->raw[RAW_GEN], i) / dt
                                                           : NAN;
      v[IV_SERVER_PROMPT_RATE] = i && dt > 0 ? increase (e->raw[RAW_PROMPT], i) / dt : NAN;
      if (!isnan (RAW (RAW_HIT_RATE)))
        v[IV_SERVER_PREFIX_HIT] = 100.0 * RAW (RAW_HIT_RATE);
      else
        {
          double q = i ? increase (e->raw[RAW_QUERIES], i) : NAN;
          v[IV_SERVER_PREFIX_HIT] = q > 0 ? 100.0 * increase (e->raw[RAW_HITS], i) / q : NAN;
        }
      {
        double dc = i ? increase (e->hist_count, i) : NAN;
        v[IV_SERVER_QUEUE_TIME] = dc > 0 ? 1000.0 * increase (e->raw[RAW_QUEUE], i) / dc : NAN;
      }
#undef RAW
      for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
        {
          g_array_index (out->values[q], double, i) = v[q];
          m->has[q] |= !isnan (v[q]);
        }
    }
  return out;
}

static void
server_endpoint_free (gpointer p)
{
  IvServerEndpoint *e = p;
  g_free (e->url);
  g_array_unref (e->ts_ns);
  for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
    g_array_unref (e->values[q]);
  g_free (e);
}

static IvServerMetrics *
metrics_new (void)
{
  IvServerMetrics *m = g_new0 (IvServerMetrics, 1);
  m->endpoints = g_ptr_array_new_with_free_func (server_endpoint_free);
  for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
    {
      IvServerStats *a = &m->agg[q];
      a->avg = a->min = a->max = a->std = a->p1 = a->p5 = a->p10 = a->p25 = a->p50 = a->p75 = a->p90
          = a->p95 = a->p99 = NAN;
    }
  return m;
}

static gboolean
parse_into (IvServerMetrics *m, IvInput *in, GError **error)
{
  Ctx c = { .m = m, .raw = -1, .ts = -1 };
  IvJsonLinesStats st;
  gboolean ok;

  c.endpoints = g_ptr_array_new_with_free_func (endpoint_free);
  c.by_url = g_hash_table_new (g_str_hash, g_str_equal);
  ok = iv_json_stream_parse_lines (in, &callbacks, &c, line_done, iv_run_line_max (NULL), NULL,
                                   NULL, NULL, &st, error);
  g_free (st.first_damaged_reason);
  g_free (c.url);
  g_hash_table_unref (c.by_url);
  if (ok)
    {
      m->lines = st.lines;
      /* a line past the limit was passed over unread: skipped like a damaged one */
      m->damaged = st.damaged + st.long_lines;
      for (guint i = 0; i < c.endpoints->len; i++)
        g_ptr_array_add (m->endpoints, derive (m, c.endpoints->pdata[i]));
    }
  g_ptr_array_unref (c.endpoints);
  return ok;
}

IvServerMetrics *
iv_server_metrics_parse (IvInput *in, GError **error)
{
  IvServerMetrics *m = metrics_new ();
  if (!parse_into (m, in, error))
    {
      iv_server_metrics_free (m);
      return NULL;
    }
  return m;
}

/* ---------- the aggregated JSON ---------- */

static double
member (JsonObject *o, const char *key)
{
  double v;
  return o && iv_json_number (o, key, &v) ? v : NAN;
}

/* Every series' stats object of metric @name (NULL when absent). */
static GPtrArray *
series_stats (JsonObject *metrics, const char *name)
{
  g_autofree char *total = g_strconcat (name, "_total", NULL);
  JsonObject *metric = iv_json_object (metrics, name);
  JsonArray *series;
  GPtrArray *out;

  if (!metric)
    metric = iv_json_object (metrics, total);
  series = metric ? iv_json_array (metric, "series") : NULL;
  if (!series || json_array_get_length (series) == 0)
    return NULL;
  out = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonNode *node = json_array_get_element (series, i);
      JsonObject *stats = JSON_NODE_HOLDS_OBJECT (node)
                              ? iv_json_object (json_node_get_object (node), "stats")
                              : NULL;
      if (stats)
        g_ptr_array_add (out, stats);
    }
  return out;
}

/* Statistics of quantity @q from the stats of its metric's series. */
static void
aggregate_quantity (IvServerMetrics *m, IvServerQuantity q, Raw raw, GPtrArray *all, double scale)
{
  double avg = 0;
  gboolean any = FALSE;

  for (guint i = 0; i < all->len; i++)
    {
      JsonObject *s = all->pdata[i];
      double v = raw == RAW_GEN || raw == RAW_PROMPT ? member (s, "rate") : member (s, "avg");
      if (isnan (v))
        continue;
      avg += v;
      any = TRUE;
    }
  if (!any)
    return;
  /* sums of running requests and rates add up over series; a ratio averages */
  if (raw == RAW_KV || raw == RAW_HIT_RATE)
    avg /= all->len;
  m->has_aggregate[q] = TRUE;
  m->agg[q].avg = avg * scale;
  if (all->len == 1 && raw != RAW_GEN && raw != RAW_PROMPT)
    {
      JsonObject *s = all->pdata[0];
      IvServerStats *a = &m->agg[q];
      a->min = member (s, "min") * scale, a->max = member (s, "max") * scale,
      a->std = member (s, "std") * scale;
      a->p1 = member (s, "p1") * scale, a->p5 = member (s, "p5") * scale,
      a->p10 = member (s, "p10") * scale;
      a->p25 = member (s, "p25") * scale, a->p50 = member (s, "p50") * scale,
      a->p75 = member (s, "p75") * scale;
      a->p90 = member (s, "p90") * scale, a->p95 = member (s, "p95") * scale,
      a->p99 = member (s, "p99") * scale;
    }
}

static gboolean
load_aggregate (IvServerMetrics *m, const char *path, GError **error)
{
  g_autoptr (IvInput) in = iv_input_open (path, error);
  g_autoptr (JsonNode) root = in ? iv_json_parse_input (in, IV_INPUT_DOCUMENT_MAX, error) : NULL;
  JsonObject *metrics;

  if (!root)
    return FALSE;
  metrics = JSON_NODE_HOLDS_OBJECT (root) ? iv_json_object (json_node_get_object (root), "metrics")
                                          : NULL;
  if (!metrics)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: no “metrics” object"),
                   display);
      return FALSE;
    }
  m->aggregate_path = g_strdup (path);
  for (guint k = 0; k < G_N_ELEMENTS (known); k++)
    {
      g_autoptr (GPtrArray) all = series_stats (metrics, known[k].name);
      Raw raw = known[k].raw;
      if (!all || all->len == 0)
        continue;
      if (!m->engine)
        m->engine = g_strdup (known[k].engine);
      switch (raw)
        {
        case RAW_RUNNING:
          aggregate_quantity (m, IV_SERVER_RUNNING, raw, all, 1);
          break;
        case RAW_WAITING:
          aggregate_quantity (m, IV_SERVER_WAITING, raw, all, 1);
          break;
        case RAW_KV:
          aggregate_quantity (m, IV_SERVER_KV_USAGE, raw, all, 100);
          break;
        case RAW_HIT_RATE:
          aggregate_quantity (m, IV_SERVER_PREFIX_HIT, raw, all, 100);
          break;
        case RAW_GEN:
          aggregate_quantity (m, IV_SERVER_GEN_RATE, raw, all, 1);
          break;
        case RAW_PROMPT:
          aggregate_quantity (m, IV_SERVER_PROMPT_RATE, raw, all, 1);
          break;
        case RAW_GEN_GAUGE:
          if (!m->has_aggregate[IV_SERVER_GEN_RATE])
            aggregate_quantity (m, IV_SERVER_GEN_RATE, raw, all, 1);
          break;
        case RAW_QUEUE:
          {
            /* the mean of a histogram is exact: its sum over its count */
            double sum = 0, count = 0;
            for (guint i = 0; i < all->len; i++)
              {
                double s = member (all->pdata[i], "sum"), n = member (all->pdata[i], "count");
                if (!isnan (s) && !isnan (n))
                  sum += s, count += n;
              }
            if (count > 0)
              {
                IvServerStats *a = &m->agg[IV_SERVER_QUEUE_TIME];
                m->has_aggregate[IV_SERVER_QUEUE_TIME] = TRUE;
                a->avg = 1000.0 * sum / count;
                if (all->len == 1)
                  {
                    /* percentiles are estimates from the buckets */
                    JsonObject *s = all->pdata[0];
                    a->p1 = 1000.0 * member (s, "p1_estimate"),
                    a->p5 = 1000.0 * member (s, "p5_estimate");
                    a->p10 = 1000.0 * member (s, "p10_estimate"),
                    a->p25 = 1000.0 * member (s, "p25_estimate");
                    a->p50 = 1000.0 * member (s, "p50_estimate"),
                    a->p75 = 1000.0 * member (s, "p75_estimate");
                    a->p90 = 1000.0 * member (s, "p90_estimate"),
                    a->p95 = 1000.0 * member (s, "p95_estimate");
                    a->p99 = 1000.0 * member (s, "p99_estimate");
                  }
              }
          }
          break;
        case RAW_HITS:
          {
            /* the hit rate over the phase: hit tokens over queried tokens */
            g_autoptr (GPtrArray) queries = series_stats (metrics, "vllm:prefix_cache_queries");
            double h = 0, qn = 0;
            for (guint i = 0; i < all->len; i++)
              h += member (all->pdata[i], "total");
            for (guint i = 0; queries && i < queries->len; i++)
              qn += member (queries->pdata[i], "total");
            if (qn > 0 && !isnan (h))
              {
                m->has_aggregate[IV_SERVER_PREFIX_HIT] = TRUE;
                m->agg[IV_SERVER_PREFIX_HIT].avg = 100.0 * h / qn;
              }
          }
          break;
        case RAW_QUERIES:
        case N_RAW:
        default:
          break;
        }
    }
  for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
    m->has[q] |= m->has_aggregate[q];
  return TRUE;
}

IvServerMetrics *
iv_server_metrics_load (const char *jsonl, const char *aggregate, GError **error)
{
  g_autoptr (IvServerMetrics) m = metrics_new ();

  if (jsonl)
    {
      g_autoptr (IvInput) in = iv_input_open (jsonl, error);
      if (!in || !parse_into (m, in, error))
        return NULL;
    }
  if (aggregate && !load_aggregate (m, aggregate, error))
    return NULL;
  return g_steal_pointer (&m);
}

void
iv_server_metrics_free (IvServerMetrics *m)
{
  if (!m)
    return;
  g_free (m->engine);
  g_free (m->aggregate_path);
  g_ptr_array_unref (m->endpoints);
  g_free (m);
}
