/* iv-server-metrics.c: reading a run's server metrics (see the header). The JSONL is
 * streamed through yajl, one scrape per line: of each scrape the metrics that make a
 * quantity are summed over labels (or averaged, for ratios), and every sample is kept in
 * its series (metric, endpoint, labels). Counters become rates and histograms mean times
 * between consecutive scrapes of the same endpoint; a counter that goes down was reset,
 * and that interval says nothing.
 *
 * The Parquet file (AIPerf's ServerMetricsParquetExporter) is a table of one row per
 * series and scrape (a histogram: one per bucket): its rows become the same series, and,
 * without a JSONL, the same quantities. Its columns are read one at a time and only what
 * the series need is kept, so a file of millions of rows is not held decoded whole. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-server-metrics.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-intern.h"
#include "iv-json-doc.h"
#include "iv-json-stream.h"
#include "iv-json-writer.h"
#include "iv-parquet.h"
#include "iv-run.h"
#include "iv-safe-text.h"
#include "iv-stats.h"

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

/* ---------- series by name ---------- */

/* What the series of one IvServerMetrics are built with, and their strings. */
typedef struct
{
  IvIntern *text;    /* names, endpoints, label sets, units */
  GHashTable *index; /* "metric\x1f endpoint\x1f labels" → IvServerSeries* (building) */
  GHashTable *types; /* metric name → IvPromType + 1, from the metadata */
} Priv;

static const char *
text_of (IvServerMetrics *m, const char *s, gssize len)
{
  Priv *p = m->priv;
  return iv_intern_get (p->text, iv_intern_add (p->text, s, len));
}

static void
series_free (gpointer p)
{
  IvServerSeries *s = p;
  g_array_unref (s->ts_ns);
  g_array_unref (s->value);
  if (s->count)
    g_array_unref (s->count);
  g_free (s);
}

static IvPromType
type_from_name (const char *t)
{
  return !t                             ? IV_PROM_UNKNOWN
         : g_str_equal (t, "gauge")     ? IV_PROM_GAUGE
         : g_str_equal (t, "counter")   ? IV_PROM_COUNTER
         : g_str_equal (t, "histogram") ? IV_PROM_HISTOGRAM
                                        : IV_PROM_UNKNOWN;
}

/* The series of (@metric, @endpoint, @labels), made on first use: a JSONL or a Parquet
 * file brings its points in any order, and they are sorted once at the end. */
static IvServerSeries *
series_for (IvServerMetrics *m, const char *metric, const char *endpoint, const char *labels,
            IvPromType type, const char *unit)
{
  Priv *p = m->priv;
  g_autofree char *key = g_strjoin ("\x1f", metric, endpoint, labels, NULL);
  IvServerSeries *s = g_hash_table_lookup (p->index, key);

  if (s)
    return s;
  s = g_new0 (IvServerSeries, 1);
  s->metric = text_of (m, metric, -1);
  s->endpoint = text_of (m, endpoint, -1);
  s->labels = text_of (m, labels, -1);
  s->type = type;
  s->unit = unit ? text_of (m, unit, -1) : NULL;
  s->ts_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->value = g_array_new (FALSE, FALSE, sizeof (double));
  if (type == IV_PROM_HISTOGRAM)
    s->count = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (m->series, s);
  g_hash_table_insert (p->index, g_steal_pointer (&key), s);
  return s;
}

static void
series_add (IvServerSeries *s, gint64 ts, double value, double count)
{
  g_array_append_val (s->ts_ns, ts);
  g_array_append_val (s->value, value);
  if (s->count)
    g_array_append_val (s->count, count);
}

/* Labels as aiperf keys them: {"k":"v"} with sorted keys, compact (orjson with
 * OPT_SORT_KEYS); @pairs: key, value, key, value …, valid UTF-8. */
static char *
labels_json (GPtrArray *pairs)
{
  g_autofree guint *order = g_new (guint, pairs->len / 2 + 1);
  IvJsonWriter *w = iv_json_writer_new (FALSE);
  guint n = pairs->len / 2;

  for (guint i = 0; i < n; i++)
    order[i] = i;
  /* a few labels: an insertion sort */
  for (guint i = 1; i < n; i++)
    for (guint j = i;
         j > 0 && strcmp (pairs->pdata[2 * order[j - 1]], pairs->pdata[2 * order[j]]) > 0; j--)
      {
        guint t = order[j];
        order[j] = order[j - 1];
        order[j - 1] = t;
      }
  iv_json_writer_begin_object (w);
  for (guint i = 0; i < n; i++)
    {
      iv_json_writer_key (w, pairs->pdata[2 * order[i]]);
      iv_json_writer_string (w, pairs->pdata[2 * order[i] + 1]);
    }
  iv_json_writer_end_object (w);
  return iv_json_writer_finish (w);
}

static gint
series_cmp (gconstpointer a, gconstpointer b)
{
  const IvServerSeries *x = *(IvServerSeries *const *) a, *y = *(IvServerSeries *const *) b;
  int c = strcmp (x->metric, y->metric);
  if (!c)
    c = strcmp (x->endpoint, y->endpoint);
  return c ? c : strcmp (x->labels, y->labels);
}

typedef struct
{
  gint64 ts;
  double v, n;
} Point;

static gint
point_cmp (gconstpointer a, gconstpointer b, gpointer unused)
{
  const Point *x = a, *y = b;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Each series in time order, the series in name order; the earliest time. */
static void
series_finish (IvServerMetrics *m)
{
  Priv *p = m->priv;

  g_hash_table_remove_all (p->index);
  m->t0_ns = -1;
  m->aiperf_t0_ns = -1;
  for (guint i = 0; i < m->series->len; i++)
    {
      IvServerSeries *s = m->series->pdata[i];
      guint n = s->ts_ns->len;
      gboolean sorted = TRUE;
      for (guint k = 1; k < n && sorted; k++)
        sorted = g_array_index (s->ts_ns, gint64, k - 1) <= g_array_index (s->ts_ns, gint64, k);
      if (!sorted)
        {
          /* a stable sort: scrapes of one time keep their file order */
          g_autofree Point *pts = g_new (Point, n);
          for (guint k = 0; k < n; k++)
            pts[k]
                = (Point){ g_array_index (s->ts_ns, gint64, k), g_array_index (s->value, double, k),
                           s->count ? g_array_index (s->count, double, k) : NAN };
          g_qsort_with_data (pts, (gint) n, sizeof (Point), point_cmp, NULL);
          for (guint k = 0; k < n; k++)
            {
              g_array_index (s->ts_ns, gint64, k) = pts[k].ts;
              g_array_index (s->value, double, k) = pts[k].v;
              if (s->count)
                g_array_index (s->count, double, k) = pts[k].n;
            }
        }
      if (n && (m->t0_ns < 0 || g_array_index (s->ts_ns, gint64, 0) < m->t0_ns))
        m->t0_ns = g_array_index (s->ts_ns, gint64, 0);
      {
        /* a cumulative series' first row only starts its deltas */
        guint first = s->type == IV_PROM_COUNTER || s->type == IV_PROM_HISTOGRAM;
        if (n > first
            && (m->aiperf_t0_ns < 0 || g_array_index (s->ts_ns, gint64, first) < m->aiperf_t0_ns))
          m->aiperf_t0_ns = g_array_index (s->ts_ns, gint64, first);
      }
    }
  g_ptr_array_sort (m->series, series_cmp);
}

/* ---------- the JSONL ---------- */

typedef struct
{
  char *url;
  GArray *ts;         /* gint64 */
  GArray *raw[N_RAW]; /* double per scrape; histograms: sums in hist_sum */
  GArray *hist_count; /* double per scrape (queue histogram) */
} Endpoint;

/* One sample of the scrape being read, until its endpoint and time are known. */
typedef struct
{
  const char *metric; /* in the text pool */
  char *labels;       /* labels_json */
  double value, sum, count;
  gboolean histogram;
} Sample;

typedef struct
{
  IvServerMetrics *m;
  GPtrArray *endpoints; /* Endpoint*, in order of first appearance */
  GHashTable *by_url;   /* url → Endpoint*: a scrape finds its endpoint by name, so a
                         * hundred thousand endpoints are not a quadratic load */
  gboolean keep_series; /* every sample into its series (no Parquet file has them) */
  int depth;
  char key[64];       /* the last key at depths 1 and 4 */
  gint raw;           /* the metric being read, or -1 */
  gboolean in_sample; /* inside one of its samples */
  /* the sample being read (keep_series) */
  const char *metric; /* the metric being read, in the text pool */
  gboolean in_labels, in_buckets;
  char *label_key;
  GPtrArray *label_pairs; /* char* */
  Sample sample;
  GArray *samples; /* Sample: the scrape's */
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
samples_clear (Ctx *c)
{
  for (guint i = 0; c->samples && i < c->samples->len; i++)
    g_free (g_array_index (c->samples, Sample, i).labels);
  if (c->samples)
    g_array_set_size (c->samples, 0);
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
  samples_clear (c);
}

static Endpoint *
endpoint_new (const char *url)
{
  Endpoint *e = g_new0 (Endpoint, 1);
  e->url = g_strdup (url);
  e->ts = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < N_RAW; i++)
    e->raw[i] = g_array_new (FALSE, FALSE, sizeof (double));
  e->hist_count = g_array_new (FALSE, FALSE, sizeof (double));
  return e;
}

static Endpoint *
endpoint_for (Ctx *c, const char *url)
{
  Endpoint *e = g_hash_table_lookup (c->by_url, url);

  if (e)
    return e;
  e = endpoint_new (url);
  g_ptr_array_add (c->endpoints, e);
  g_hash_table_insert (c->by_url, e->url, e);
  return e;
}

/* A metric's type: the metadata's, else a histogram by its buckets, a counter by its
 * "_total", else untyped. */
static IvPromType
type_of (Ctx *c, const char *metric, gboolean histogram)
{
  Priv *p = c->m->priv;
  gpointer t = p->types ? g_hash_table_lookup (p->types, metric) : NULL;
  if (t)
    return GPOINTER_TO_INT (t) - 1;
  return histogram                             ? IV_PROM_HISTOGRAM
         : g_str_has_suffix (metric, "_total") ? IV_PROM_COUNTER
                                               : IV_PROM_UNKNOWN;
}

static void
line_done (gpointer ctx, gboolean ok)
{
  Ctx *c = ctx;

  if (ok && c->complete && c->ts >= 0)
    {
      g_autofree char *url = iv_text_valid (c->url ? c->url : "", -1);
      Endpoint *e = endpoint_for (c, url);
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
      for (guint i = 0; c->samples && i < c->samples->len; i++)
        {
          Sample *sm = &g_array_index (c->samples, Sample, i);
          IvPromType type = type_of (c, sm->metric, sm->histogram);
          IvServerSeries *s = series_for (c->m, sm->metric, url, sm->labels, type, NULL);
          if (s->count)
            series_add (s, c->ts, sm->sum, sm->count);
          else
            series_add (s, c->ts, sm->histogram ? sm->sum : sm->value, NAN);
        }
    }
  c->depth = 0;
  c->raw = -1;
  c->metric = NULL;
  c->in_sample = c->in_labels = c->in_buckets = FALSE;
  scrape_reset (c);
}

static int
on_start_map (void *ctx)
{
  Ctx *c = ctx;
  c->depth++;
  if (c->depth == 4 && c->raw >= 0)
    c->in_sample = TRUE;
  if (c->depth == 4 && c->keep_series && c->metric)
    {
      c->sample = (Sample){ .metric = c->metric, .value = NAN, .sum = NAN, .count = NAN };
      g_ptr_array_set_size (c->label_pairs, 0);
    }
  if (c->depth == 5 && c->keep_series && c->metric)
    {
      c->in_labels = g_str_equal (c->key, "labels");
      c->in_buckets = g_str_equal (c->key, "buckets");
      c->sample.histogram |= c->in_buckets;
    }
  return 1;
}

static int
on_end_map (void *ctx)
{
  Ctx *c = ctx;
  if (c->depth == 4)
    {
      c->in_sample = FALSE;
      /* a sample with a value, or a histogram's sum and count, joins the scrape's */
      if (c->keep_series && c->metric
          && (c->sample.histogram ? !isnan (c->sample.sum) && !isnan (c->sample.count)
                                  : !isnan (c->sample.value)))
        {
          c->sample.labels = labels_json (c->label_pairs);
          g_array_append_val (c->samples, c->sample);
        }
    }
  if (c->depth == 5)
    c->in_labels = c->in_buckets = FALSE;
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
    {
      c->raw = -1;
      c->metric = NULL;
    }
  c->depth--;
  return 1;
}

static int
on_map_key (void *ctx, const unsigned char *key, size_t len)
{
  Ctx *c = ctx;

  if (c->depth == 2)
    {
      /* a metric's name: kept when it makes a quantity, and for its series */
      const char *engine = NULL;
      c->raw = raw_of ((const char *) key, len, &engine);
      if (c->raw >= 0 && !c->m->engine)
        c->m->engine = g_strdup (engine);
      if (c->keep_series)
        {
          g_autofree char *name = iv_text_valid ((const char *) key, (gssize) len);
          c->metric = text_of (c->m, name, -1);
        }
    }
  else if (c->depth == 1 || c->depth == 4)
    {
      len = MIN (len, sizeof c->key - 1);
      memcpy (c->key, key, len);
      c->key[len] = '\0';
    }
  else if (c->depth == 5 && c->in_labels)
    {
      g_free (c->label_key);
      c->label_key = iv_text_valid ((const char *) key, (gssize) len);
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
  if (c->depth != 4)
    return 1;
  v = g_ascii_strtod (buf, NULL);
  if (!isfinite (v))
    return 1;
  if (c->keep_series && c->metric)
    {
      if (g_str_equal (c->key, "value"))
        c->sample.value = v;
      else if (g_str_equal (c->key, "sum"))
        c->sample.sum = v;
      else if (g_str_equal (c->key, "count"))
        c->sample.count = v;
    }
  if (!c->in_sample || c->raw < 0)
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
  else if (c->depth == 5 && c->in_labels && c->label_key)
    {
      g_ptr_array_add (c->label_pairs, g_steal_pointer (&c->label_key));
      g_ptr_array_add (c->label_pairs, iv_text_valid ((const char *) s, (gssize) len));
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

static void
agg_series_free (gpointer p)
{
  IvServerAggSeries *a = p;
  if (a->slices)
    g_array_unref (a->slices);
  if (a->bucket_le)
    g_array_unref (a->bucket_le);
  if (a->bucket_n)
    g_array_unref (a->bucket_n);
  g_free (a);
}

static IvServerMetrics *
metrics_new (void)
{
  IvServerMetrics *m = g_new0 (IvServerMetrics, 1);
  Priv *p = g_new0 (Priv, 1);
  m->endpoints = g_ptr_array_new_with_free_func (server_endpoint_free);
  m->series = g_ptr_array_new_with_free_func (series_free);
  m->agg_series = g_ptr_array_new_with_free_func (agg_series_free);
  m->t0_ns = -1;
  m->aiperf_t0_ns = -1;
  p->text = iv_intern_new ();
  p->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m->priv = p;
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

  /* the series come from the Parquet file when there is one, as aiperf plot takes them */
  c.keep_series = m->parquet_path == NULL;
  c.endpoints = g_ptr_array_new_with_free_func (endpoint_free);
  c.by_url = g_hash_table_new (g_str_hash, g_str_equal);
  c.label_pairs = g_ptr_array_new_with_free_func (g_free);
  c.samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  ok = iv_json_stream_parse_lines (in, &callbacks, &c, line_done, iv_run_line_max (NULL), NULL,
                                   NULL, NULL, &st, error);
  g_free (st.first_damaged_reason);
  g_free (c.url);
  g_free (c.label_key);
  samples_clear (&c);
  g_array_unref (c.samples);
  g_ptr_array_unref (c.label_pairs);
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
  series_finish (m);
  return m;
}

/* ---------- the metadata ---------- */

/* Each metric's type: endpoints → URL → metric_schemas → name → {type, help}. */
static gboolean
load_metadata (IvServerMetrics *m, const char *path, GError **error)
{
  Priv *p = m->priv;
  g_autoptr (IvInput) in = iv_input_open (path, error);
  g_autoptr (JsonNode) root = in ? iv_json_parse_input (in, IV_INPUT_DOCUMENT_MAX, error) : NULL;
  JsonObject *endpoints;
  GList *urls;

  if (!root)
    return FALSE;
  endpoints = JSON_NODE_HOLDS_OBJECT (root)
                  ? iv_json_object (json_node_get_object (root), "endpoints")
                  : NULL;
  if (!endpoints)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: no “endpoints” object"),
                   display);
      return FALSE;
    }
  p->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  urls = json_object_get_values (endpoints);
  for (GList *u = urls; u; u = u->next)
    {
      JsonObject *schemas = JSON_NODE_HOLDS_OBJECT (u->data)
                                ? iv_json_object (json_node_get_object (u->data), "metric_schemas")
                                : NULL;
      GList *names = schemas ? json_object_get_members (schemas) : NULL;
      for (GList *n = names; n; n = n->next)
        {
          JsonNode *node = json_object_get_member (schemas, n->data);
          const char *type = JSON_NODE_HOLDS_OBJECT (node)
                                 ? iv_json_string (json_node_get_object (node), "type")
                                 : NULL;
          if (type)
            g_hash_table_replace (p->types, iv_text_valid (n->data, -1),
                                  GINT_TO_POINTER (type_from_name (type) + 1));
        }
      g_list_free (names);
    }
  g_list_free (urls);
  return TRUE;
}

/* ---------- the Parquet file ---------- */

/* The columns of AIPerf's table that are not labels (ServerMetricsParquetExporter's
 * reserved names). aiperf plot's reader takes "unit" for a label; it is the exporter's
 * inferred unit, and is read as that here. */
static const char *const parquet_core[] = {
  "endpoint_url", "metric_name", "metric_type", "unit",      "description",  "timestamp_ns",
  "value",        "sum",         "count",       "bucket_le", "bucket_count", NULL,
};

/* A column's strings, in the text pool, by the column's own ids (made on first use). */
typedef struct
{
  IvParquetColumn *col;
  const char **text; /* id → string, NULL until asked */
} StringColumn;

static const char *
string_at (IvServerMetrics *m, StringColumn *sc, guint64 row)
{
  guint32 id = sc->col->ids[row];
  if (id == IV_INTERN_NONE)
    return NULL;
  if (!sc->text[id])
    {
      g_autofree char *valid = iv_text_valid (iv_intern_get (sc->col->strings, id), -1);
      sc->text[id] = text_of (m, valid, -1);
    }
  return sc->text[id];
}

static gboolean
string_column (IvParquet *f, const char *name, gboolean required, StringColumn *sc, GError **error)
{
  gint i = iv_parquet_find_column (f, name);

  memset (sc, 0, sizeof *sc);
  if (i < 0 || iv_parquet_get_column_info (f, (guint) i)->type != IV_PARQUET_BYTE_ARRAY)
    {
      if (required)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _ ("%s: not AIPerf's server metrics: no text column “%s”"),
                     iv_parquet_get_name (f), name);
      return !required;
    }
  sc->col = iv_parquet_read_column (f, (guint) i, error);
  if (!sc->col)
    return FALSE;
  sc->text = g_new0 (const char *, iv_intern_size (sc->col->strings) + 1);
  return TRUE;
}

static void
string_column_clear (StringColumn *sc)
{
  g_clear_pointer (&sc->col, iv_parquet_column_free);
  g_clear_pointer (&sc->text, g_free);
}

/* A number column's values at the kept rows (NaN where null or absent). */
static double *
number_column (IvParquet *f, const char *name, const guint64 *rows, guint64 n, GError **error)
{
  gint i = iv_parquet_find_column (f, name);
  g_autoptr (IvParquetColumn) c = NULL;
  double *out = g_new (double, MAX (n, 1));

  for (guint64 k = 0; k < n; k++)
    out[k] = NAN;
  if (i < 0)
    return out;
  c = iv_parquet_read_column (f, (guint) i, error);
  if (!c)
    {
      g_free (out);
      return NULL;
    }
  for (guint64 k = 0; k < n; k++)
    if (c->present[rows[k]])
      out[k] = c->doubles ? c->doubles[rows[k]] : (double) c->ints[rows[k]];
  return out;
}

static gboolean
parquet_into (IvServerMetrics *m, IvParquet *f, GError **error)
{
  StringColumn type = { 0 }, le = { 0 }, endpoint = { 0 }, metric = { 0 }, unit = { 0 };
  g_autoptr (GArray) labels = g_array_new (FALSE, FALSE, sizeof (StringColumn));
  g_autoptr (GPtrArray) label_names = g_ptr_array_new ();
  g_autofree guint64 *rows = NULL;
  g_autofree gint64 *ts = NULL;
  g_autofree double *value = NULL, *sum = NULL, *count = NULL;
  g_autofree IvPromType *types = NULL;
  guint64 n_rows = iv_parquet_get_rows (f), kept = 0;
  gint ts_col = iv_parquet_find_column (f, "timestamp_ns");
  gboolean ok = FALSE;

  m->parquet_rows = n_rows;
  if (ts_col < 0
      || (iv_parquet_get_column_info (f, (guint) ts_col)->type != IV_PARQUET_INT64
          && iv_parquet_get_column_info (f, (guint) ts_col)->type != IV_PARQUET_INT32))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("%s: not AIPerf's server metrics: no integer column “timestamp_ns”"),
                   iv_parquet_get_name (f));
      return FALSE;
    }
  /* the rows kept: a histogram's +Inf bucket (its sum and count are on every bucket's
   * row; the +Inf one is the last), every other metric's row */
  if (!string_column (f, "metric_type", FALSE, &type, error)
      || !string_column (f, "bucket_le", FALSE, &le, error))
    goto out;
  rows = g_new (guint64, MAX (n_rows, 1));
  types = g_new (IvPromType, MAX (n_rows, 1));
  for (guint64 r = 0; r < n_rows; r++)
    {
      const char *t = type.col ? string_at (m, &type, r) : NULL;
      const char *b = le.col ? string_at (m, &le, r) : NULL;
      IvPromType pt = type_from_name (t);
      if (pt == IV_PROM_HISTOGRAM && b && !g_str_equal (b, "+Inf"))
        continue;
      types[kept] = pt;
      rows[kept++] = r;
    }
  string_column_clear (&type);
  string_column_clear (&le);
  {
    g_autoptr (IvParquetColumn) c = iv_parquet_read_column (f, (guint) ts_col, error);
    if (!c)
      goto out;
    ts = g_new (gint64, MAX (kept, 1));
    for (guint64 k = 0; k < kept; k++)
      ts[k] = c->present[rows[k]] ? c->ints[rows[k]] : -1;
  }
  if (!(value = number_column (f, "value", rows, kept, error))
      || !(sum = number_column (f, "sum", rows, kept, error))
      || !(count = number_column (f, "count", rows, kept, error)))
    goto out;
  /* the labels: every other text column */
  for (guint c = 0; c < iv_parquet_get_columns (f); c++)
    {
      const IvParquetColumnInfo *info = iv_parquet_get_column_info (f, c);
      StringColumn sc;
      if (info->type != IV_PARQUET_BYTE_ARRAY || g_strv_contains (parquet_core, info->name))
        continue;
      if (!string_column (f, info->name, TRUE, &sc, error))
        goto out;
      g_array_append_val (labels, sc);
      g_ptr_array_add (label_names, info->name);
    }
  if (!string_column (f, "endpoint_url", TRUE, &endpoint, error)
      || !string_column (f, "metric_name", TRUE, &metric, error)
      || !string_column (f, "unit", FALSE, &unit, error))
    goto out;
  {
    g_autoptr (GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GHashTable) label_sets
        = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
    g_autofree guint32 *ids = g_new (guint32, labels->len + 1);
    for (guint64 k = 0; k < kept; k++)
      {
        guint64 r = rows[k];
        const char *ep = string_at (m, &endpoint, r), *name = string_at (m, &metric, r);
        const char *labels_text;
        IvServerSeries *s;
        if (!ep || !name || ts[k] < 0)
          {
            m->parquet_skipped++;
            continue;
          }
        /* a row's label set, made into JSON once per distinct set */
        for (guint l = 0; l < labels->len; l++)
          ids[l] = g_array_index (labels, StringColumn, l).col->ids[r];
        {
          g_autoptr (GBytes) key = g_bytes_new (ids, labels->len * sizeof (guint32));
          labels_text = g_hash_table_lookup (label_sets, key);
          if (!labels_text)
            {
              g_autofree char *json = NULL;
              g_ptr_array_set_size (pairs, 0);
              for (guint l = 0; l < labels->len; l++)
                {
                  const char *v = string_at (m, &g_array_index (labels, StringColumn, l), r);
                  if (!v || !*v)
                    continue; /* aiperf leaves out a null or empty label */
                  g_ptr_array_add (pairs, iv_text_valid (label_names->pdata[l], -1));
                  g_ptr_array_add (pairs, g_strdup (v));
                }
              json = labels_json (pairs);
              labels_text = text_of (m, json, -1);
              g_hash_table_insert (label_sets, g_steal_pointer (&key), (gpointer) labels_text);
            }
        }
        s = series_for (m, name, ep, labels_text, types[k],
                        unit.col ? string_at (m, &unit, r) : NULL);
        if (s->count)
          series_add (s, ts[k], sum[k], count[k]);
        else
          series_add (s, ts[k], s->type == IV_PROM_HISTOGRAM ? sum[k] : value[k], NAN);
      }
  }
  ok = TRUE;
out:
  string_column_clear (&type);
  string_column_clear (&le);
  string_column_clear (&endpoint);
  string_column_clear (&metric);
  string_column_clear (&unit);
  for (guint l = 0; l < labels->len; l++)
    string_column_clear (&g_array_index (labels, StringColumn, l));
  return ok;
}

/* Without a JSONL, the quantities from the Parquet series: each endpoint's scrapes are
 * the times its series share, each quantity summed over its label sets (ratios
 * averaged), as the JSONL's are. */
typedef struct
{
  Endpoint *e;
  GHashTable *slot; /* time → scrape index + 1 */
  GArray *sets;     /* double[N_RAW] per scrape: the label sets summed */
} Scrapes;

static void
scrapes_free (gpointer p)
{
  Scrapes *sc = p;
  endpoint_free (sc->e);
  g_hash_table_unref (sc->slot);
  g_array_unref (sc->sets);
  g_free (sc);
}

static gint
by_time (gconstpointer a, gconstpointer b, gpointer data)
{
  const gint64 *ts = data;
  gint64 x = ts[*(const guint *) a], y = ts[*(const guint *) b];
  return x < y ? -1 : x > y;
}

static void
endpoints_from_series (IvServerMetrics *m)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (scrapes_free);
  g_autoptr (GHashTable) by_url = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < m->series->len; i++)
    {
      const IvServerSeries *s = m->series->pdata[i];
      const char *engine = NULL;
      gint raw = raw_of (s->metric, strlen (s->metric), &engine);
      Scrapes *sc;
      if (raw < 0)
        continue;
      if (!m->engine)
        m->engine = g_strdup (engine);
      sc = g_hash_table_lookup (by_url, s->endpoint);
      if (!sc)
        {
          sc = g_new0 (Scrapes, 1);
          sc->e = endpoint_new (s->endpoint);
          sc->slot = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          sc->sets = g_array_new (FALSE, TRUE, sizeof (double) * N_RAW);
          g_ptr_array_add (all, sc);
          g_hash_table_insert (by_url, sc->e->url, sc);
        }
      for (guint k = 0; k < s->ts_ns->len; k++)
        {
          gint64 t = g_array_index (s->ts_ns, gint64, k);
          double v = g_array_index (s->value, double, k);
          double c = s->count ? g_array_index (s->count, double, k) : NAN;
          gpointer at = g_hash_table_lookup (sc->slot, &t);
          guint idx;
          double *cell;
          if (!at)
            {
              double nan = NAN;
              idx = sc->e->ts->len;
              g_array_append_val (sc->e->ts, t);
              for (guint r = 0; r < N_RAW; r++)
                g_array_append_val (sc->e->raw[r], nan);
              g_array_append_val (sc->e->hist_count, nan);
              g_array_set_size (sc->sets, idx + 1);
              g_hash_table_insert (sc->slot, g_memdup2 (&t, sizeof t), GUINT_TO_POINTER (idx + 1));
            }
          else
            idx = GPOINTER_TO_UINT (at) - 1;
          if (isnan (v))
            continue;
          cell = &g_array_index (sc->e->raw[raw], double, idx);
          *cell = isnan (*cell) ? v : *cell + v;
          ((double *) (void *) (sc->sets->data + (gsize) idx * sizeof (double) * N_RAW))[raw] += 1;
          if (raw == RAW_QUEUE && !isnan (c))
            {
              double *hc = &g_array_index (sc->e->hist_count, double, idx);
              *hc = isnan (*hc) ? c : *hc + c;
            }
        }
    }
  for (guint i = 0; i < all->len; i++)
    {
      Scrapes *sc = all->pdata[i];
      Endpoint *e = sc->e, *o = endpoint_new (e->url);
      guint len = e->ts->len;
      g_autofree guint *order = g_new (guint, MAX (len, 1));
      for (guint k = 0; k < len; k++)
        {
          const double *sets
              = (const double *) (const void *) (sc->sets->data
                                                 + (gsize) k * sizeof (double) * N_RAW);
          /* ratios are averaged over their label sets */
          if (sets[RAW_KV] > 0)
            g_array_index (e->raw[RAW_KV], double, k) /= sets[RAW_KV];
          if (sets[RAW_HIT_RATE] > 0)
            g_array_index (e->raw[RAW_HIT_RATE], double, k) /= sets[RAW_HIT_RATE];
          order[k] = k;
        }
      /* scrapes in time order */
      g_qsort_with_data (order, (gint) len, sizeof (guint), by_time, e->ts->data);
      for (guint k = 0; k < len; k++)
        {
          g_array_append_val (o->ts, g_array_index (e->ts, gint64, order[k]));
          for (guint r = 0; r < N_RAW; r++)
            g_array_append_val (o->raw[r], g_array_index (e->raw[r], double, order[k]));
          g_array_append_val (o->hist_count, g_array_index (e->hist_count, double, order[k]));
        }
      g_ptr_array_add (m->endpoints, derive (m, o));
      endpoint_free (o);
    }
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

typedef struct
{
  double le, n;
} Bucket;

static gint
bucket_cmp (gconstpointer a, gconstpointer b)
{
  double x = ((const Bucket *) a)->le, y = ((const Bucket *) b)->le;
  return (x > y) - (x < y);
}

/* A series' windows (its "timeslices"): each one's time, statistics and buckets. A window
 * without its start and end is no window. */
static void
agg_slices (IvServerAggSeries *a, JsonArray *slices)
{
  guint n = slices ? json_array_get_length (slices) : 0;
  g_autoptr (GArray) buckets = NULL;

  if (n == 0)
    return;
  a->slices = g_array_sized_new (FALSE, FALSE, sizeof (IvServerSlice), n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (slices, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *b = o ? iv_json_object (o, "buckets") : NULL;
      IvServerSlice sl = { 0 };
      if (!o || !iv_json_int (o, "start_ns", &sl.start_ns)
          || !iv_json_int (o, "end_ns", &sl.end_ns))
        continue;
      sl.avg = member (o, "avg"), sl.min = member (o, "min"), sl.max = member (o, "max");
      sl.total = member (o, "total"), sl.rate = member (o, "rate");
      sl.count = member (o, "count"), sl.sum = member (o, "sum");
      if (b && json_object_get_size (b) > 0)
        {
          GList *keys = json_object_get_members (b);
          if (!a->bucket_le)
            {
              a->bucket_le = g_array_new (FALSE, FALSE, sizeof (double));
              a->bucket_n = g_array_new (FALSE, FALSE, sizeof (double));
              buckets = g_array_new (FALSE, FALSE, sizeof (Bucket));
            }
          g_array_set_size (buckets, 0);
          for (GList *k = keys; k; k = k->next)
            {
              const char *key = k->data;
              char *end = NULL;
              Bucket bk;
              bk.le = g_str_equal (key, "+Inf") ? INFINITY : g_ascii_strtod (key, &end);
              bk.n = member (b, key);
              /* aiperf reads a bound with float (): anything else is no number */
              if (end && (end == key || *end || isnan (bk.le)))
                sl.bucket_bad = TRUE;
              g_array_append_val (buckets, bk);
            }
          g_list_free (keys);
          g_array_sort (buckets, bucket_cmp);
          sl.bucket0 = a->bucket_le->len;
          sl.n_buckets = buckets->len;
          for (guint k = 0; k < buckets->len; k++)
            {
              const Bucket *bk = &g_array_index (buckets, Bucket, k);
              g_array_append_val (a->bucket_le, bk->le);
              g_array_append_val (a->bucket_n, bk->n);
            }
        }
      g_array_append_val (a->slices, sl);
    }
}

/* Every series' statistics, for lookups by name: metrics → name → {type, unit, series:
 * [{endpoint_url, labels, stats}]}, the statistics nested in "stats" or, in some AIPerf
 * versions, beside endpoint_url. */
static void
aggregate_series (IvServerMetrics *m, JsonObject *metrics)
{
  GList *names = json_object_get_members (metrics);
  g_autoptr (GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = names; l; l = l->next)
    {
      JsonNode *node = json_object_get_member (metrics, l->data);
      JsonObject *metric = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonArray *series = metric ? iv_json_array (metric, "series") : NULL;
      g_autofree char *name = iv_text_valid (l->data, -1);
      const char *unit = metric ? iv_json_string (metric, "unit") : NULL;
      IvPromType type = type_from_name (metric ? iv_json_string (metric, "type") : NULL);
      for (guint i = 0; series && i < json_array_get_length (series); i++)
        {
          JsonNode *sn = json_array_get_element (series, i);
          JsonObject *so = JSON_NODE_HOLDS_OBJECT (sn) ? json_node_get_object (sn) : NULL;
          JsonObject *stats, *labels;
          IvServerAggSeries *a;
          const char *ep;
          g_autofree char *ep_valid = NULL, *json = NULL;
          if (!so)
            continue;
          stats = iv_json_object (so, "stats");
          if (!stats)
            stats = so;
          labels = iv_json_object (so, "labels");
          ep = iv_json_string (so, "endpoint_url");
          ep_valid = iv_text_valid (ep ? ep : "unknown", -1); /* aiperf's name for none */
          g_ptr_array_set_size (pairs, 0);
          if (labels)
            {
              GList *keys = json_object_get_members (labels);
              for (GList *k = keys; k; k = k->next)
                {
                  const char *v = iv_json_string (labels, k->data);
                  if (!v)
                    continue;
                  g_ptr_array_add (pairs, iv_text_valid (k->data, -1));
                  g_ptr_array_add (pairs, iv_text_valid (v, -1));
                }
              g_list_free (keys);
            }
          json = labels_json (pairs);
          a = g_new0 (IvServerAggSeries, 1);
          a->metric = text_of (m, name, -1);
          a->endpoint = text_of (m, ep_valid, -1);
          a->labels = text_of (m, json, -1);
          if (unit)
            {
              g_autofree char *u = iv_text_valid (unit, -1);
              a->unit = text_of (m, u, -1);
            }
          a->type = type;
          a->stats = (IvServerStats){ member (stats, "avg"), member (stats, "min"),
                                      member (stats, "max"), member (stats, "std"),
                                      member (stats, "p1"),  member (stats, "p5"),
                                      member (stats, "p10"), member (stats, "p25"),
                                      member (stats, "p50"), member (stats, "p75"),
                                      member (stats, "p90"), member (stats, "p95"),
                                      member (stats, "p99") };
          if (type == IV_PROM_HISTOGRAM)
            {
              /* a histogram's percentiles are estimates from its buckets */
              static const char *const est[] = { "p1_estimate",  "p5_estimate",  "p10_estimate",
                                                 "p25_estimate", "p50_estimate", "p75_estimate",
                                                 "p90_estimate", "p95_estimate", "p99_estimate" };
              double *const p[]
                  = { &a->stats.p1,  &a->stats.p5,  &a->stats.p10, &a->stats.p25, &a->stats.p50,
                      &a->stats.p75, &a->stats.p90, &a->stats.p95, &a->stats.p99 };
              for (guint k = 0; k < G_N_ELEMENTS (est); k++)
                if (isnan (*p[k]))
                  *p[k] = member (stats, est[k]);
              a->total = member (stats, "count");
              a->rate = member (stats, "count_rate");
            }
          else
            {
              a->total = member (stats, "total");
              a->rate = member (stats, "rate");
            }
          agg_slices (a, iv_json_array (so, "timeslices"));
          g_ptr_array_add (m->agg_series, a);
        }
    }
  g_list_free (names);
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
  aggregate_series (m, metrics);
  return TRUE;
}

/* ---------- loading ---------- */

static gboolean
load_parquet (IvServerMetrics *m, IvParquet *f, GError **error)
{
  if (!parquet_into (m, f, error))
    return FALSE;
  m->parquet_path = g_strdup (iv_parquet_get_name (f));
  return TRUE;
}

IvServerMetrics *
iv_server_metrics_parse_parquet (GBytes *bytes, const char *name, GError **error)
{
  g_autoptr (IvServerMetrics) m = metrics_new ();
  g_autoptr (IvParquet) f = iv_parquet_new_from_bytes (bytes, name, error);

  if (!f || !load_parquet (m, f, error))
    return NULL;
  series_finish (m);
  endpoints_from_series (m);
  return g_steal_pointer (&m);
}

IvServerMetrics *
iv_server_metrics_load_all (const char *jsonl, const char *metadata, const char *aggregate,
                            const char *parquet, GError **error)
{
  g_autoptr (IvServerMetrics) m = metrics_new ();

  if (parquet)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (IvParquet) f = iv_parquet_open (parquet, &local);
      if (!f || !load_parquet (m, f, &local))
        {
          /* the other files still say what they say */
          if (!jsonl && !aggregate)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          m->parquet_problem = g_strdup (local->message);
          g_ptr_array_set_size (m->series, 0);
          g_hash_table_remove_all (((Priv *) m->priv)->index);
          m->parquet_rows = m->parquet_skipped = 0;
        }
    }
  if (metadata && jsonl && !load_metadata (m, metadata, error))
    return NULL;
  if (jsonl)
    {
      g_autoptr (IvInput) in = iv_input_open (jsonl, error);
      if (!in || !parse_into (m, in, error))
        return NULL;
    }
  if (aggregate && !load_aggregate (m, aggregate, error))
    return NULL;
  series_finish (m);
  /* the quantities over time: the JSONL's scrapes, else the Parquet file's */
  if (m->endpoints->len == 0 && m->parquet_path)
    endpoints_from_series (m);
  return g_steal_pointer (&m);
}

IvServerMetrics *
iv_server_metrics_load (const char *jsonl, const char *aggregate, GError **error)
{
  return iv_server_metrics_load_all (jsonl, NULL, aggregate, NULL, error);
}

void
iv_server_metrics_free (IvServerMetrics *m)
{
  Priv *p;

  if (!m)
    return;
  p = m->priv;
  g_free (m->engine);
  g_free (m->aggregate_path);
  g_free (m->parquet_path);
  g_free (m->parquet_problem);
  g_ptr_array_unref (m->endpoints);
  g_ptr_array_unref (m->series);
  g_ptr_array_unref (m->agg_series);
  if (p)
    {
      iv_intern_free (p->text);
      g_hash_table_unref (p->index);
      if (p->types)
        g_hash_table_unref (p->types);
      g_free (p);
    }
  g_free (m);
}

/* ---------- by Prometheus name ---------- */

void
iv_prom_spec_free (IvPromSpec *spec)
{
  if (!spec)
    return;
  g_free (spec->metric);
  g_free (spec->endpoint);
  g_ptr_array_unref (spec->labels);
  g_free (spec);
}

/* @s without leading and trailing white space, then without quotes (aiperf strips
 * single then double quotes: value.strip("'").strip('"')). */
static char *
strip_value (const char *s, gsize len)
{
  g_autofree char *t = g_strstrip (g_strndup (s, len));
  const char *b = t, *e = t + strlen (t);
  while (b < e && *b == '\'')
    b++;
  while (e > b && e[-1] == '\'')
    e--;
  while (b < e && *b == '"')
    b++;
  while (e > b && e[-1] == '"')
    e--;
  return g_strndup (b, (gsize) (e - b));
}

IvPromSpec *
iv_prom_spec_parse (const char *text, GError **error)
{
  g_autoptr (IvPromSpec) spec = g_new0 (IvPromSpec, 1);
  const char *p = text, *name_end, *ep = NULL, *ep_end = NULL, *lb = NULL, *lb_end = NULL;

  spec->labels = g_ptr_array_new_with_free_func (g_free);
  /* ^([^\[\{]+)(?:\[([^\]]+)\])?(?:\{([^\}]+)\})?$ */
  name_end = p + strcspn (p, "[{");
  p = name_end;
  if (*p == '[')
    {
      ep = p + 1;
      ep_end = strchr (ep, ']');
      p = ep_end ? ep_end + 1 : p;
    }
  if (ep_end && *p == '{')
    {
      lb = p + 1;
      lb_end = strchr (lb, '}');
      p = lb_end ? lb_end + 1 : p;
    }
  else if (!ep && *p == '{')
    {
      lb = p + 1;
      lb_end = strchr (lb, '}');
      p = lb_end ? lb_end + 1 : p;
    }
  if (name_end == text || (ep && (!ep_end || ep_end == ep)) || (lb && (!lb_end || lb_end == lb))
      || *p != '\0')
    {
      /* no match: aiperf names an unclosed bracket or brace, else takes the whole text
       * as a name */
      if (strchr (text, '[') && !strchr (text, ']'))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _ ("invalid metric “%s”: missing closing bracket “]” (expected "
                          "metric_name[endpoint])"),
                       text);
          return NULL;
        }
      if (strchr (text, '{') && !strchr (text, '}'))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _ ("invalid metric “%s”: missing closing brace “}” (expected "
                          "metric_name{label1=value1,label2=value2})"),
                       text);
          return NULL;
        }
      spec->metric = g_strstrip (g_strdup (text));
      return g_steal_pointer (&spec);
    }
  spec->metric = g_strstrip (g_strndup (text, (gsize) (name_end - text)));
  if (ep)
    spec->endpoint = g_strndup (ep, (gsize) (ep_end - ep));
  if (lb)
    {
      g_autofree char *all = g_strndup (lb, (gsize) (lb_end - lb));
      g_auto (GStrv) pairs = g_strsplit (all, ",", -1);
      for (guint i = 0; pairs[i]; i++)
        {
          g_autofree char *pair = g_strstrip (g_strdup (pairs[i]));
          const char *eq = strchr (pair, '=');
          g_autofree char *key = NULL;
          if (!*pair)
            continue;
          if (!eq)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _ ("invalid label in “%s”: “%s” has no “=” (expected "
                              "{label1=value1,label2=value2})"),
                           text, pair);
              return NULL;
            }
          key = g_strstrip (g_strndup (pair, (gsize) (eq - pair)));
          if (!*key)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _ ("invalid label in “%s”: a label has no name"), text);
              return NULL;
            }
          g_ptr_array_add (spec->labels, g_steal_pointer (&key));
          g_ptr_array_add (spec->labels, strip_value (eq + 1, strlen (eq + 1)));
        }
    }
  return g_steal_pointer (&spec);
}

gboolean
iv_prom_is_server_metric (const char *source, const char *name)
{
  static const char *const prefixes[]
      = { "vllm_", "sglang_", "trtllm_", "dynamo_", "nv_inference_", NULL };
  gsize base;

  if (source && g_str_equal (source, "server_metrics"))
    return TRUE;
  if (!name)
    return FALSE;
  base = strcspn (name, "[{");
  if (name[base] || memchr (name, ':', base))
    return TRUE;
  for (guint i = 0; prefixes[i]; i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* @metric names @name, or @name without (or with) a counter's "_total". */
static gboolean
same_metric (const char *metric, const char *name)
{
  gsize a = strlen (metric), b = strlen (name);
  if (a == b)
    return g_str_equal (metric, name);
  if (a == b + 6 && g_str_has_suffix (metric, "_total"))
    return strncmp (metric, name, b) == 0;
  if (b == a + 6 && g_str_has_suffix (name, "_total"))
    return strncmp (metric, name, a) == 0;
  return FALSE;
}

/* @labels (a labels_json) has every pair of the spec: its "k":"v" text is in it. */
static gboolean
has_labels (const char *labels, const IvPromSpec *spec)
{
  for (guint i = 0; i + 1 < spec->labels->len; i += 2)
    {
      g_autoptr (GPtrArray) one = g_ptr_array_new ();
      g_autofree char *pair = NULL, *needle = NULL;
      g_ptr_array_add (one, spec->labels->pdata[i]);
      g_ptr_array_add (one, spec->labels->pdata[i + 1]);
      pair = labels_json (one);
      /* {"k":"v"} → "k":"v", then followed by , or } so that "v" is not a prefix */
      needle = g_strndup (pair + 1, strlen (pair) - 2);
      {
        const char *at = labels;
        gboolean found = FALSE;
        while (!found && (at = strstr (at, needle)))
          {
            char before = at == labels ? '{' : at[-1], after = at[strlen (needle)];
            found = (before == '{' || before == ',') && (after == ',' || after == '}');
            at++;
          }
        if (!found)
          return FALSE;
      }
    }
  return TRUE;
}

/* A list of up to @max distinct strings for a message ("a, b, c …"). */
static char *
listing (GPtrArray *items, guint max)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < items->len && i < max; i++)
    g_string_append_printf (out, "%s%s", i ? ", " : "", (const char *) items->pdata[i]);
  if (items->len > max)
    g_string_append (out, " …");
  if (items->len == 0)
    g_string_append (out, _ ("none"));
  return g_string_free (out, FALSE);
}

static void
add_distinct (GPtrArray *list, GHashTable *seen, const char *s)
{
  if (g_hash_table_add (seen, (gpointer) s))
    g_ptr_array_add (list, (gpointer) s);
}

static GPtrArray *label_pairs (const char *labels);

/* The filter's labels as aiperf compares them: orjson.dumps (labels, OPT_SORT_KEYS), a
 * key given twice keeping its last value (a Python dict). */
static char *
spec_labels_json (const IvPromSpec *spec)
{
  g_autoptr (GPtrArray) pairs = g_ptr_array_new ();
  for (guint i = 0; i + 1 < spec->labels->len; i += 2)
    {
      guint k = 0;
      while (k < pairs->len && !g_str_equal (pairs->pdata[k], spec->labels->pdata[i]))
        k += 2;
      if (k < pairs->len)
        pairs->pdata[k + 1] = spec->labels->pdata[i + 1];
      else
        {
          g_ptr_array_add (pairs, spec->labels->pdata[i]);
          g_ptr_array_add (pairs, spec->labels->pdata[i + 1]);
        }
    }
  return labels_json (pairs);
}

/* A series' labels as aiperf plot's reader has them: a Parquet series' with its "unit"
 * (not one of the columns its _parquet_label_columns sets aside), when it has one. */
static char *
aiperf_labels (const IvServerMetrics *m, const IvServerSeries *s)
{
  g_autoptr (GPtrArray) pairs = NULL;
  if (!m->parquet_path || !s->unit || !*s->unit)
    return g_strdup (s->labels);
  pairs = label_pairs (s->labels);
  g_ptr_array_add (pairs, g_strdup ("unit"));
  g_ptr_array_add (pairs, g_strdup (s->unit));
  return labels_json (pairs);
}

GPtrArray *
iv_server_metrics_find (const IvServerMetrics *m, const IvPromSpec *spec, GError **error)
{
  return iv_server_metrics_find_full (m, spec, FALSE, error);
}

GPtrArray *
iv_server_metrics_find_full (const IvServerMetrics *m, const IvPromSpec *spec, gboolean aiperf,
                             GError **error)
{
  g_autoptr (GPtrArray) named = g_ptr_array_new ();
  g_autoptr (GPtrArray) on_endpoint = g_ptr_array_new ();
  g_autofree char *wanted = aiperf && spec->labels->len ? spec_labels_json (spec) : NULL;
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < m->series->len; i++)
    {
      IvServerSeries *s = m->series->pdata[i];
      if (aiperf ? !g_str_equal (s->metric, spec->metric) : !same_metric (s->metric, spec->metric))
        continue;
      g_ptr_array_add (named, s);
      if (spec->endpoint && !g_str_equal (s->endpoint, spec->endpoint))
        continue;
      g_ptr_array_add (on_endpoint, s);
      if (wanted)
        {
          g_autofree char *theirs = aiperf_labels (m, s);
          if (g_str_equal (theirs, wanted))
            g_ptr_array_add (out, s);
        }
      else if (has_labels (s->labels, spec))
        g_ptr_array_add (out, s);
    }
  if (out->len)
    return out;
  g_ptr_array_unref (out);
  {
    g_autoptr (GPtrArray) list = g_ptr_array_new ();
    g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
    g_autofree char *text = NULL;
    if (named->len == 0)
      {
        for (guint i = 0; i < m->series->len; i++)
          add_distinct (list, seen, ((IvServerSeries *) m->series->pdata[i])->metric);
        text = listing (list, 10);
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _ ("server metric “%s” not found; the run has: %s"), spec->metric, text);
      }
    else if (on_endpoint->len == 0)
      {
        for (guint i = 0; i < named->len; i++)
          add_distinct (list, seen, ((IvServerSeries *) named->pdata[i])->endpoint);
        text = listing (list, 10);
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _ ("no “%s” from endpoint “%s”; its endpoints: %s"), spec->metric,
                     spec->endpoint, text);
      }
    else
      {
        g_autoptr (GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
        for (guint i = 0; i < on_endpoint->len; i++)
          {
            const IvServerSeries *s = on_endpoint->pdata[i];
            char *labels = aiperf ? aiperf_labels (m, s) : g_strdup (s->labels);
            g_ptr_array_add (owned, labels);
            add_distinct (list, seen, labels);
          }
        text = listing (list, 5);
        if (aiperf)
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _ ("no “%s” has exactly the labels %s (aiperf plot matches a series only "
                          "when the filter names all of its labels); its label sets: %s"),
                       spec->metric, wanted, text);
        else
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _ ("no “%s” has those labels; its label sets: %s"), spec->metric, text);
      }
  }
  return NULL;
}

void
iv_server_series_points (const IvServerSeries *s, gboolean aiperf, GArray *t_ns, GArray *values)
{
  guint n = s->ts_ns->len;

  for (guint i = 0; i < n; i++)
    {
      gint64 t = g_array_index (s->ts_ns, gint64, i);
      double v = g_array_index (s->value, double, i), out;
      if (s->type == IV_PROM_GAUGE || s->type == IV_PROM_UNKNOWN)
        out = v;
      else if (i == 0)
        continue; /* nothing before it to count from */
      else if (s->type == IV_PROM_COUNTER)
        {
          double before = g_array_index (s->value, double, i - 1);
          gint64 dt = t - g_array_index (s->ts_ns, gint64, i - 1);
          out = dt > 0 && v >= before ? (v - before) / (dt * 1e-9) : NAN;
        }
      else
        {
          double ds = v - g_array_index (s->value, double, i - 1);
          double dc = g_array_index (s->count, double, i) - g_array_index (s->count, double, i - 1);
          out = dc > 0 ? ds / dc : aiperf ? 0 : NAN;
        }
      g_array_append_val (t_ns, t);
      g_array_append_val (values, out);
    }
}

static gint
double_cmp (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
iv_server_downsample (const gint64 *t, const double *v, gsize n, gint64 t0, double window_s,
                      const char *method, GArray *out_t, GArray *out_v)
{
  gint64 w = (gint64) (window_s * 1e9);
  g_autoptr (GArray) vals = g_array_new (FALSE, FALSE, sizeof (double));
  gsize i = 0;

  if (w <= 0)
    w = 1;
  /* the points are in time order: a window is a run of them */
  while (i < n)
    {
      gint64 win = (t[i] - t0) / w - ((t[i] - t0) % w < 0); /* floor, as pandas' // */
      gsize j = i;
      gint64 tsum = 0; /* offsets from the window's first time: exact */
      double out = NAN;
      g_array_set_size (vals, 0);
      while (j < n && (t[j] - t0) / w - ((t[j] - t0) % w < 0) == win)
        {
          tsum += t[j] - t[i];
          if (!isnan (v[j]))
            g_array_append_val (vals, v[j]);
          j++;
        }
      if (vals->len)
        {
          double *d = (double *) (void *) vals->data;
          if (method && g_str_equal (method, "max"))
            {
              out = d[0];
              for (guint k = 1; k < vals->len; k++)
                out = MAX (out, d[k]);
            }
          else if (method && g_str_equal (method, "min"))
            {
              out = d[0];
              for (guint k = 1; k < vals->len; k++)
                out = MIN (out, d[k]);
            }
          else if (method && g_str_equal (method, "median"))
            {
              g_array_sort (vals, double_cmp);
              out = iv_stats_quantile (d, vals->len, 0.5);
            }
          else
            {
              out = 0;
              for (guint k = 0; k < vals->len; k++)
                out += d[k];
              out /= vals->len;
            }
        }
      {
        /* the mean time, made whole as pandas' astype("int64") does: toward zero */
        gint64 mean_t = t[i] + tsum / (gint64) (j - i);
        g_array_append_val (out_t, mean_t);
        g_array_append_val (out_v, out);
      }
      i = j;
    }
}

/* @stat of one aggregated series, NaN when it has not got it. */
static double
agg_stat (const IvServerAggSeries *a, const char *stat)
{
  const IvServerStats *s = &a->stats;
  if (g_str_equal (stat, "rate"))
    return a->rate;
  if (g_str_equal (stat, "total"))
    return a->total;
  if (a->type == IV_PROM_COUNTER && g_str_equal (stat, "avg"))
    return a->rate;
  return g_str_equal (stat, "avg")   ? s->avg
         : g_str_equal (stat, "min") ? s->min
         : g_str_equal (stat, "max") ? s->max
         : g_str_equal (stat, "std") ? s->std
         : g_str_equal (stat, "p1")  ? s->p1
         : g_str_equal (stat, "p5")  ? s->p5
         : g_str_equal (stat, "p10") ? s->p10
         : g_str_equal (stat, "p25") ? s->p25
         : g_str_equal (stat, "p50") ? s->p50
         : g_str_equal (stat, "p75") ? s->p75
         : g_str_equal (stat, "p90") ? s->p90
         : g_str_equal (stat, "p95") ? s->p95
         : g_str_equal (stat, "p99") ? s->p99
                                     : NAN;
}

/* @stat of the points of one series (what aiperf plot computes when it has only the
 * time series: mean, min, max, quantiles, linear between ranks). */
static double
series_stat (const IvServerSeries *s, const char *stat)
{
  g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *sorted = NULL;
  gsize n;
  double q;

  if (s->type == IV_PROM_COUNTER && (g_str_equal (stat, "total") || g_str_equal (stat, "rate")))
    {
      guint last = s->ts_ns->len - 1;
      double total = 0;
      gint64 span;
      if (s->ts_ns->len < 2)
        return NAN;
      /* increases between scrapes, a reset's interval left out */
      for (guint i = 1; i <= last; i++)
        {
          double d = g_array_index (s->value, double, i) - g_array_index (s->value, double, i - 1);
          if (d > 0)
            total += d;
        }
      span = g_array_index (s->ts_ns, gint64, last) - g_array_index (s->ts_ns, gint64, 0);
      return g_str_equal (stat, "total") ? total : span > 0 ? total / (span * 1e-9) : NAN;
    }
  iv_server_series_points (s, FALSE, t, v);
  sorted = iv_stats_sorted_copy ((const double *) (void *) v->data, v->len, &n);
  if (n == 0)
    return NAN;
  if (g_str_equal (stat, "avg") || g_str_equal (stat, "std"))
    {
      double mean = 0, var = 0;
      for (gsize i = 0; i < n; i++)
        mean += sorted[i];
      mean /= n;
      if (g_str_equal (stat, "avg"))
        return mean;
      for (gsize i = 0; i < n; i++)
        var += (sorted[i] - mean) * (sorted[i] - mean);
      return sqrt (var / n);
    }
  if (g_str_equal (stat, "min"))
    return sorted[0];
  if (g_str_equal (stat, "max"))
    return sorted[n - 1];
  if (stat[0] != 'p' || !g_ascii_isdigit (stat[1]))
    return NAN;
  q = g_ascii_strtod (stat + 1, NULL);
  return q >= 0 && q <= 100 ? iv_stats_quantile (sorted, n, q / 100.0) : NAN;
}

gboolean
iv_server_metrics_stat (const IvServerMetrics *m, const char *text, const char *stat, double *value,
                        const char **unit, GError **error)
{
  g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (text, error);
  g_autoptr (GPtrArray) found = NULL;
  gboolean additive = g_str_equal (stat, "rate") || g_str_equal (stat, "total");
  double acc = 0;
  guint n = 0;

  if (!spec)
    return FALSE;
  if (unit)
    *unit = NULL;
  /* the aggregated JSON first: AIPerf's own statistics over the profiling phase */
  for (guint i = 0; i < m->agg_series->len; i++)
    {
      const IvServerAggSeries *a = m->agg_series->pdata[i];
      double v;
      if (!same_metric (a->metric, spec->metric)
          || (spec->endpoint && !g_str_equal (a->endpoint, spec->endpoint))
          || !has_labels (a->labels, spec))
        continue;
      v = agg_stat (a, stat);
      if (isnan (v))
        continue;
      additive |= a->type == IV_PROM_COUNTER && g_str_equal (stat, "avg");
      acc += v, n++;
      if (unit && !*unit)
        *unit = a->unit;
    }
  if (n == 0)
    {
      found = iv_server_metrics_find (m, spec, error);
      if (!found)
        return FALSE;
      for (guint i = 0; i < found->len; i++)
        {
          const IvServerSeries *s = found->pdata[i];
          double v = series_stat (
              s, s->type == IV_PROM_COUNTER && g_str_equal (stat, "avg") ? "rate" : stat);
          if (isnan (v))
            continue;
          additive |= s->type == IV_PROM_COUNTER && g_str_equal (stat, "avg");
          acc += v, n++;
          if (unit && !*unit)
            *unit = s->unit;
        }
    }
  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("the server metric “%s” has no “%s”"), text, stat);
      return FALSE;
    }
  /* several series: rates and totals add up; a level is their mean */
  *value = additive ? acc : acc / n;
  return TRUE;
}

static void
line_free (gpointer p)
{
  IvServerLine *l = p;
  g_free (l->name);
  g_free (l->labels);
  g_array_unref (l->x_s);
  g_array_unref (l->y);
  g_array_unref (l->t_ns);
  g_free (l);
}

/* The pairs of a labels_json, as key, value, key, value … (owned strings). */
static GPtrArray *
label_pairs (const char *labels)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  JsonObject *o;
  GList *keys;

  if (!json_parser_load_from_data (p, labels, -1, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (p)))
    return out;
  o = json_node_get_object (json_parser_get_root (p));
  keys = json_object_get_members (o);
  for (GList *k = keys; k; k = k->next)
    {
      const char *v = iv_json_string (o, k->data);
      g_ptr_array_add (out, g_strdup (k->data));
      g_ptr_array_add (out, g_strdup (v ? v : ""));
    }
  g_list_free (keys);
  return out;
}

/* A legend name for series @i of @found: what differs between them — the endpoint when
 * endpoints differ, then the values of the labels that differ (aiperf's
 * create_series_legend_label shows the varying labels' values, "/"-joined). */
static char *
legend_name (GPtrArray *found, guint i)
{
  const IvServerSeries *s = found->pdata[i];
  g_autoptr (GPtrArray) mine = label_pairs (s->labels);
  GString *out = g_string_new (NULL);
  gboolean endpoints_differ = FALSE;

  if (found->len == 1)
    return g_string_free (g_string_append (out, s->metric), FALSE);
  for (guint k = 0; k < found->len; k++)
    endpoints_differ |= !g_str_equal (((IvServerSeries *) found->pdata[k])->endpoint, s->endpoint);
  if (endpoints_differ)
    g_string_append (out, s->endpoint);
  for (guint p = 0; p + 1 < mine->len; p += 2)
    {
      gboolean varies = FALSE;
      for (guint k = 0; k < found->len && !varies; k++)
        {
          g_autoptr (GPtrArray) other = label_pairs (((IvServerSeries *) found->pdata[k])->labels);
          const char *theirs = NULL;
          for (guint q = 0; q + 1 < other->len; q += 2)
            if (g_str_equal (other->pdata[q], mine->pdata[p]))
              theirs = other->pdata[q + 1];
          varies = !theirs || !g_str_equal (theirs, mine->pdata[p + 1]);
        }
      if (varies)
        g_string_append_printf (out, "%s%s", out->len ? " / " : "", (char *) mine->pdata[p + 1]);
    }
  if (!out->len)
    g_string_append (out, s->metric);
  return g_string_free (out, FALSE);
}

double
iv_server_ns_seconds (gint64 t_ns, gint64 origin_ns)
{
  gint64 d;
  /* a hostile file's times may be ±9.2 × 10¹⁸: no wrapping, the nearest double instead */
  if (__builtin_sub_overflow (t_ns, origin_ns, &d))
    return ((double) t_ns - (double) origin_ns) / 1e9;
  return (double) d / 1e9;
}

/* (a + b) // 2 as Python computes it on its unbounded integers, without overflow: each
 * half floored (an arithmetic shift), plus one when both were odd. */
static gint64
floor_midpoint (gint64 a, gint64 b)
{
  return (a >> 1) + (b >> 1) + (a & b & 1);
}

static void
line_set_x (IvServerLine *l, gint64 origin_ns)
{
  l->x_s = g_array_sized_new (FALSE, FALSE, sizeof (double), l->t_ns->len);
  for (guint k = 0; k < l->t_ns->len; k++)
    {
      double x = iv_server_ns_seconds (g_array_index (l->t_ns, gint64, k), origin_ns);
      g_array_append_val (l->x_s, x);
    }
}

/* Server metrics over time from the windows of server_metrics_export.json, as aiperf
 * plot's loader makes its rows without a Parquet file (_collect_server_metrics_json,
 * _timeslice_to_row). @aiperf: filtered as filter_server_metrics_dataframe filters them
 * (the exact name, the endpoint, labels_json equal to the filter's); else as
 * iv_server_metrics_find () matches. A series without windows has no rows; rows of one
 * endpoint and label set are one line, in the file's order. */
static GPtrArray *
json_lines (const IvServerMetrics *m, const IvPromSpec *spec, gint64 origin_ns, gboolean aiperf,
            GError **error)
{
  g_autofree char *wanted = aiperf && spec->labels->len ? spec_labels_json (spec) : NULL;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (line_free);
  g_autoptr (GPtrArray) named = g_ptr_array_new ();
  gboolean on_endpoint = FALSE;

  for (guint i = 0; i < m->agg_series->len; i++)
    {
      const IvServerAggSeries *a = m->agg_series->pdata[i];
      IvServerLine *l = NULL;
      if (!(aiperf ? g_str_equal (a->metric, spec->metric) : same_metric (a->metric, spec->metric))
          || !a->slices || a->slices->len == 0)
        continue;
      g_ptr_array_add (named, (gpointer) a);
      if (spec->endpoint && !g_str_equal (a->endpoint, spec->endpoint))
        continue;
      on_endpoint = TRUE;
      if (wanted ? !g_str_equal (a->labels, wanted) : !has_labels (a->labels, spec))
        continue;
      for (guint k = 0; k < lines->len && !l; k++)
        {
          IvServerLine *o = lines->pdata[k];
          if (g_str_equal (o->endpoint, a->endpoint) && g_str_equal (o->labels, a->labels))
            l = o;
        }
      if (!l)
        {
          l = g_new0 (IvServerLine, 1);
          l->endpoint = a->endpoint;
          l->labels = g_strdup (a->labels);
          l->unit = a->unit;
          l->t_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
          l->y = g_array_new (FALSE, FALSE, sizeof (double));
          g_ptr_array_add (lines, l);
        }
      for (guint k = 0; k < a->slices->len; k++)
        {
          const IvServerSlice *sl = &g_array_index (a->slices, IvServerSlice, k);
          /* (start_ns + end_ns) // 2: Python's floor division of the exact sum */
          gint64 t = floor_midpoint (sl->start_ns, sl->end_ns);
          double v = a->type == IV_PROM_COUNTER                                 ? sl->rate
                     : a->type == IV_PROM_GAUGE || a->type == IV_PROM_HISTOGRAM ? sl->avg
                                                                                : NAN;
          g_array_append_val (l->t_ns, t);
          g_array_append_val (l->y, v);
        }
    }
  if (lines->len == 0)
    {
      if (named->len == 0)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     m->aggregate_path
                         ? _ ("“%s” has no windows in server_metrics_export.json: without a "
                              "Parquet file aiperf plot draws server metrics over time from "
                              "those windows (AIPerf writes them with --slice-duration)")
                         : _ ("aiperf plot draws “%s” over time from "
                              "server_metrics_export.parquet or the windows of "
                              "server_metrics_export.json, and this run has neither"),
                     spec->metric);
      else if (!on_endpoint)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("no “%s” with windows on %s"),
                     spec->metric, spec->endpoint);
      else if (wanted)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _ ("no “%s” with windows has exactly the labels %s (aiperf plot matches a "
                        "series only when the filter names all of its labels)"),
                     spec->metric, wanted);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _ ("no “%s” with windows has those labels"), spec->metric);
      return NULL;
    }
  {
    /* the legend as for the series of the other files */
    g_autoptr (GPtrArray) as = g_ptr_array_new_with_free_func (g_free);
    for (guint k = 0; k < lines->len; k++)
      {
        const IvServerLine *l = lines->pdata[k];
        IvServerSeries *s = g_new0 (IvServerSeries, 1);
        s->metric = (char *) spec->metric, s->endpoint = (char *) l->endpoint;
        s->labels = l->labels;
        g_ptr_array_add (as, s);
      }
    for (guint k = 0; k < lines->len; k++)
      {
        IvServerLine *l = lines->pdata[k];
        l->name = legend_name (as, k);
        line_set_x (l, origin_ns);
      }
  }
  return g_steal_pointer (&lines);
}

gboolean
iv_server_metrics_aiperf_has_frame (const IvServerMetrics *m)
{
  if (m->parquet_path)
    return m->series->len > 0;
  for (guint i = 0; i < m->agg_series->len; i++)
    {
      const IvServerAggSeries *a = m->agg_series->pdata[i];
      if (a->slices && a->slices->len)
        return TRUE;
    }
  return FALSE;
}

GPtrArray *
iv_server_metrics_lines (const IvServerMetrics *m, const char *text, gint64 origin_ns,
                         gboolean aiperf, double window_s, const char *method, GError **error)
{
  g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (text, error);
  g_autoptr (GPtrArray) found = NULL;
  GPtrArray *lines;

  if (!spec)
    return NULL;
  if (aiperf && !m->parquet_path)
    return json_lines (m, spec, origin_ns, TRUE, error);
  if (!(found = iv_server_metrics_find_full (m, spec, aiperf, error)))
    {
      /* Inferview's: the series scraped, else the JSON's windows when it has the metric */
      GError *json_error = NULL;
      GPtrArray *windows = json_lines (m, spec, origin_ns, FALSE, &json_error);
      if (windows)
        g_clear_error (error);
      g_clear_error (&json_error);
      return windows;
    }
  lines = g_ptr_array_new_with_free_func (line_free);
  for (guint i = 0; i < found->len; i++)
    {
      const IvServerSeries *s = found->pdata[i];
      g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
      IvServerLine *l = g_new0 (IvServerLine, 1);
      iv_server_series_points (s, aiperf, t, v);
      if (aiperf && m->parquet_path && window_s > 0)
        {
          /* aiperf plot's own thinning of the Parquet points (_maybe_downsample_parquet):
           * windows from the earliest point, each the mean time and the method's value */
          g_autoptr (GArray) wt = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr (GArray) wv = g_array_new (FALSE, FALSE, sizeof (double));
          iv_server_downsample ((const gint64 *) (void *) t->data,
                                (const double *) (void *) v->data, t->len, m->aiperf_t0_ns,
                                window_s, method, wt, wv);
          g_array_unref (t), t = g_steal_pointer (&wt);
          g_array_unref (v), v = g_steal_pointer (&wv);
        }
      l->name = legend_name (found, i);
      l->unit = s->unit;
      l->endpoint = s->endpoint;
      l->labels = aiperf ? aiperf_labels (m, s) : g_strdup (s->labels);
      l->t_ns = g_array_ref (t);
      line_set_x (l, origin_ns);
      l->y = g_array_ref (v);
      g_ptr_array_add (lines, l);
    }
  return lines;
}

/* ---------- percentile bands (the aggregated JSON's windows) ---------- */

double
iv_server_bucket_quantile (const double *le, const double *n, guint nb, double total, double q)
{
  /* _prometheus_quantile (aiperf/server_metrics/histogram_percentiles.py) */
  double rank = q * total, prev_bound = 0, prev_count = 0;

  if (!(total != 0) || nb == 0)
    return NAN;
  for (guint i = 0; i < nb; i++)
    {
      if (isinf (le[i]))
        return prev_bound; /* no interpolating within +Inf: the last finite bound */
      if (n[i] >= rank)
        {
          double in_bucket = n[i] - prev_count;
          if (in_bucket == 0)
            return prev_bound;
          return prev_bound + (le[i] - prev_bound) * ((rank - prev_count) / in_bucket);
        }
      prev_bound = le[i];
      prev_count = n[i];
    }
  return prev_bound;
}

static void
bands_free (gpointer p)
{
  IvServerBands *b = p;
  g_free (b->name);
  g_array_unref (b->x_s);
  g_array_unref (b->p50);
  g_array_unref (b->p95);
  g_array_unref (b->p99);
  if (b->low)
    g_array_unref (b->low);
  g_free (b);
}

/* One series' rows (PercentileBandsHandler._row_for_timeslice): a window of another
 * type (untyped) has none. */
static IvServerBands *
bands_of (const IvServerAggSeries *a, gint64 origin_ns)
{
  IvServerBands *b = g_new0 (IvServerBands, 1);

  b->type = a->type;
  b->unit = a->unit;
  b->series = a;
  b->x_s = g_array_new (FALSE, FALSE, sizeof (double));
  b->p50 = g_array_new (FALSE, FALSE, sizeof (double));
  b->p95 = g_array_new (FALSE, FALSE, sizeof (double));
  b->p99 = g_array_new (FALSE, FALSE, sizeof (double));
  if (a->type == IV_PROM_GAUGE)
    b->low = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; a->slices && i < a->slices->len; i++)
    {
      const IvServerSlice *sl = &g_array_index (a->slices, IvServerSlice, i);
      double p50, p95, p99, x;
      gint64 sum;
      switch (a->type)
        {
        case IV_PROM_HISTOGRAM:
          if (sl->n_buckets && sl->count > 0 && !sl->bucket_bad)
            {
              const double *le = &g_array_index (a->bucket_le, double, sl->bucket0);
              const double *n = &g_array_index (a->bucket_n, double, sl->bucket0);
              p50 = iv_server_bucket_quantile (le, n, sl->n_buckets, sl->count, 0.50);
              p95 = iv_server_bucket_quantile (le, n, sl->n_buckets, sl->count, 0.95);
              p99 = iv_server_bucket_quantile (le, n, sl->n_buckets, sl->count, 0.99);
            }
          else
            p50 = p95 = p99 = sl->avg; /* no buckets: the avg, as aiperf falls back */
          break;
        case IV_PROM_GAUGE:
          p50 = sl->avg, p95 = p99 = sl->max;
          g_array_append_val (b->low, sl->min);
          break;
        case IV_PROM_COUNTER:
          p50 = p95 = p99 = sl->rate;
          break;
        case IV_PROM_UNKNOWN:
        default:
          continue;
        }
      /* the window's middle: (start + end) / 2, as aiperf's int sum then true division
       * (a sum past 64 bits, from a hostile file only, as the nearest double) */
      if (origin_ns == 0 && !__builtin_add_overflow (sl->start_ns, sl->end_ns, &sum))
        x = (double) sum / 2 / 1e9;
      else
        x = (iv_server_ns_seconds (sl->start_ns, origin_ns)
             + iv_server_ns_seconds (sl->end_ns, origin_ns))
            / 2;
      g_array_append_val (b->x_s, x);
      g_array_append_val (b->p50, p50);
      g_array_append_val (b->p95, p95);
      g_array_append_val (b->p99, p99);
    }
  return b;
}

/* The aggregated series aiperf's _resolve_series_data takes: the metric's series keyed by
 * endpoint (first seen first) then by exact labels_json, a later one of the same keys
 * replacing an earlier. */
static const IvServerAggSeries *
aiperf_band_series (const IvServerMetrics *m, const IvPromSpec *spec, GError **error)
{
  g_autofree char *wanted = spec->labels->len ? spec_labels_json (spec) : g_strdup ("{}");
  const char *endpoint = spec->endpoint;
  const IvServerAggSeries *found = NULL;
  gboolean named = FALSE, on_endpoint = FALSE;

  for (guint i = 0; i < m->agg_series->len; i++)
    {
      const IvServerAggSeries *a = m->agg_series->pdata[i];
      if (!g_str_equal (a->metric, spec->metric))
        continue;
      named = TRUE;
      if (!endpoint)
        endpoint = a->endpoint; /* next(iter(metric_data.keys ())) */
      if (!g_str_equal (a->endpoint, endpoint))
        continue;
      on_endpoint = TRUE;
      if (g_str_equal (a->labels, wanted))
        found = a;
    }
  if (found)
    return found;
  if (!named)
    {
      g_autoptr (GPtrArray) list = g_ptr_array_new ();
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      g_autofree char *text = NULL;
      for (guint i = 0; i < m->agg_series->len; i++)
        add_distinct (list, seen, ((IvServerAggSeries *) m->agg_series->pdata[i])->metric);
      text = listing (list, 10);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("metric “%s” not found in server metrics (server_metrics_export.json); "
                      "available: %s"),
                   spec->metric, text);
    }
  else if (!on_endpoint)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _ ("endpoint “%s” not found for metric “%s”"), endpoint, spec->metric);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _ ("labels %s not found for metric “%s” on %s (aiperf plot takes the series "
                    "whose labels are exactly those given; none given: a series without "
                    "labels)"),
                 wanted, spec->metric, endpoint);
  return NULL;
}

/* A legend name for aggregated series @i of @found, as legend_name () makes it. */
static char *
agg_legend_name (GPtrArray *found, guint i)
{
  g_autoptr (GPtrArray) as = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < found->len; k++)
    {
      const IvServerAggSeries *a = found->pdata[k];
      IvServerSeries *s = g_new0 (IvServerSeries, 1);
      s->metric = a->metric, s->endpoint = a->endpoint, s->labels = a->labels;
      g_ptr_array_add (as, s);
    }
  return legend_name (as, i);
}

GPtrArray *
iv_server_metrics_bands (const IvServerMetrics *m, const char *text, gint64 origin_ns,
                         gboolean aiperf, guint *n_found, GError **error)
{
  g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (text, error);
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (bands_free);
  gboolean any_slices = FALSE, any_rows = FALSE;

  if (n_found)
    *n_found = 0;
  if (!spec)
    return NULL;
  if (aiperf)
    {
      const IvServerAggSeries *a = aiperf_band_series (m, spec, error);
      if (!a)
        return NULL;
      g_ptr_array_add (found, (gpointer) a);
    }
  else
    {
      for (guint i = 0; i < m->agg_series->len; i++)
        {
          const IvServerAggSeries *a = m->agg_series->pdata[i];
          if (same_metric (a->metric, spec->metric)
              && (!spec->endpoint || g_str_equal (a->endpoint, spec->endpoint))
              && has_labels (a->labels, spec))
            g_ptr_array_add (found, (gpointer) a);
        }
      if (found->len == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       m->aggregate_path
                           ? _ ("no series of “%s” in server_metrics_export.json")
                           : _ ("no server_metrics_export.json, whose windows the bands of “%s” "
                                "are drawn from"),
                       text);
          return NULL;
        }
    }
  if (n_found)
    *n_found = found->len;
  for (guint i = 0; i < found->len && i < IV_SERVER_BANDS_MAX; i++)
    {
      const IvServerAggSeries *a = found->pdata[i];
      IvServerBands *b;
      if (!a->slices || a->slices->len == 0)
        continue;
      any_slices = TRUE;
      b = bands_of (a, origin_ns);
      if (b->x_s->len == 0)
        {
          bands_free (b);
          continue;
        }
      any_rows = TRUE;
      b->name = found->len > 1 ? agg_legend_name (found, i) : g_strdup (a->metric);
      g_ptr_array_add (out, b);
    }
  if (!any_slices)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("no timeslice data for metric “%s” (AIPerf writes each series' windows "
                      "into server_metrics_export.json with --slice-duration): percentile bands "
                      "need them"),
                   spec->metric);
      return NULL;
    }
  if (!any_rows)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("no percentile could be computed for “%s” (an untyped metric has none)"),
                   spec->metric);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* ---------- a run's value on a multi-run axis, as aiperf plot has it ---------- */

double
iv_server_metrics_value_aiperf (const IvServerMetrics *m, const char *name, double window_s,
                                const char *method)
{
  double acc = 0;
  guint n = 0;
  gint type = -1; /* the first series' with statistics */

  /* a DataFrame column named by the metric: a filter names none */
  if (strpbrk (name, "[{"))
    return NAN;
  if (m->agg_series->len)
    {
      for (guint i = 0; i < m->agg_series->len; i++)
        {
          const IvServerAggSeries *a = m->agg_series->pdata[i];
          double v;
          gboolean replaced = FALSE;
          if (!g_str_equal (a->metric, name))
            continue;
          /* aggregated[metric][endpoint][labels] = …: a later series of the same keys
           * replaces this one (the type is the metric's either way) */
          for (guint k = i + 1; k < m->agg_series->len && !replaced; k++)
            {
              const IvServerAggSeries *b = m->agg_series->pdata[k];
              replaced = g_str_equal (b->metric, a->metric)
                         && g_str_equal (b->endpoint, a->endpoint)
                         && g_str_equal (b->labels, a->labels);
            }
          if (type < 0)
            type = (gint) a->type;
          if (replaced)
            continue;
          /* _extract_stat_value: a counter's rate, else the avg (by the first type) */
          v = type == IV_PROM_COUNTER ? a->rate : a->stats.avg;
          if (isnan (v))
            continue;
          acc += v, n++;
        }
    }
  else if (m->parquet_path)
    {
      /* _compute_aggregated_from_timeseries over the (downsampled) Parquet points */
      for (guint i = 0; i < m->series->len; i++)
        {
          const IvServerSeries *s = m->series->pdata[i];
          g_autoptr (GArray) t = NULL, v = NULL;
          double sum = 0;
          guint k = 0;
          if (!g_str_equal (s->metric, name) || s->type == IV_PROM_COUNTER)
            continue; /* a counter's value is its delta of "count", which its rows leave empty */
          t = g_array_new (FALSE, FALSE, sizeof (gint64));
          v = g_array_new (FALSE, FALSE, sizeof (double));
          iv_server_series_points (s, TRUE, t, v);
          if (window_s > 0)
            {
              g_autoptr (GArray) wt = g_array_new (FALSE, FALSE, sizeof (gint64));
              g_autoptr (GArray) wv = g_array_new (FALSE, FALSE, sizeof (double));
              iv_server_downsample ((const gint64 *) (void *) t->data,
                                    (const double *) (void *) v->data, t->len, m->aiperf_t0_ns,
                                    window_s, method, wt, wv);
              g_array_unref (v), v = g_steal_pointer (&wv);
            }
          for (guint j = 0; j < v->len; j++)
            if (!isnan (g_array_index (v, double, j)))
              sum += g_array_index (v, double, j), k++;
          if (k == 0)
            continue;
          if (type < 0)
            type = (gint) s->type;
          acc += sum / k, n++;
        }
    }
  if (n == 0)
    return NAN;
  return type == IV_PROM_COUNTER ? acc : acc / n;
}
