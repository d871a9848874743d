/* iv-run-loader.c: reading a run folder. The per-request and telemetry JSON Lines are
 * streamed through yajl (100,000 requests are ~85 MB); the summary, time slices and
 * aggregate are small documents read with json-glib. Timestamps go from their text
 * straight to int64 nanoseconds: a double cannot hold an epoch in ns. */
#define G_LOG_DOMAIN "iv-runs"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-big-alloc.h"
#include "iv-json-doc.h"
#include "iv-run.h"
#include "iv-sniff.h"

#include "iv-run-private.h"

/* ---------- the files of a run ---------- */

typedef struct
{
  char *records, *summary, *csv_summary, *telemetry, *timeslices, *aggregate;
  char *timeslices_csv;    /* *_timeslices.csv: what aiperf plot reads of the time slices */
  gboolean aggregate_here; /* the aggregate is in the folder itself: a cell of a sweep of
                            * repeated trials that is only its aggregate */
  char *sweep;             /* *_sweep.json: a sweep's aggregate over its combinations */
  char *server_metrics, *server_metadata, *server_summary; /* the inference server's own */
  char *server_parquet; /* server_metrics_export.parquet (--server-metrics-formats parquet) */
  char *prefix;
} RunFiles;

static void
run_files_clear (RunFiles *f)
{
  g_free (f->records);
  g_free (f->summary);
  g_free (f->csv_summary);
  g_free (f->telemetry);
  g_free (f->timeslices);
  g_free (f->aggregate);
  g_free (f->timeslices_csv);
  g_free (f->sweep);
  g_free (f->server_metrics);
  g_free (f->server_metadata);
  g_free (f->server_summary);
  g_free (f->server_parquet);
  g_free (f->prefix);
}

/* Which file is which, by name: profile_export.jsonl / profile_export_aiperf.json, or
 * the same under a custom prefix (foo.jsonl, foo_aiperf.json or foo.json), telemetry
 * as *gpu_telemetry*.jsonl, time slices as *_timeslices.json, the server's metrics as
 * *server_metrics*.jsonl with *server_metrics_metadata.json, the aggregated
 * *server_metrics*.json and *server_metrics*.parquet; compressed or not. */
static void
find_files (const char *dir, RunFiles *f)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  char *old_summary = NULL;

  while (d && (name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *bare = iv_sniff_strip_compression (names->pdata[i]);
      char *full = g_build_filename (dir, names->pdata[i], NULL);
      char **slot = NULL;

      if (strstr (bare, "server_metrics"))
        slot = g_str_has_suffix (bare, ".jsonl")           ? &f->server_metrics
               : g_str_has_suffix (bare, "_metadata.json") ? &f->server_metadata
               : g_str_has_suffix (bare, ".json")          ? &f->server_summary
               : g_str_has_suffix (bare, ".parquet")       ? &f->server_parquet
                                                           : NULL;
      else if (g_str_has_suffix (bare, ".jsonl"))
        slot = strstr (bare, "telemetry") ? &f->telemetry : &f->records;
      else if (g_str_has_suffix (bare, "_timeslices.json"))
        slot = &f->timeslices;
      else if (g_str_has_suffix (bare, "_timeslices.csv"))
        slot = &f->timeslices_csv;
      else if (g_str_has_suffix (bare, "_aggregate.json"))
        {
          slot = &f->aggregate;
          f->aggregate_here = TRUE;
        }
      else if (g_str_has_suffix (bare, "_sweep.json"))
        slot = &f->sweep;
      else if (g_str_has_suffix (bare, "_aiperf.json"))
        slot = &f->summary;
      else if (g_str_has_suffix (bare, "_aiperf.csv"))
        slot = &f->csv_summary;
      else if (g_str_has_suffix (bare, ".json") && !g_str_equal (bare, "inputs.json")
               && !g_str_has_suffix (bare, "_aggregate.json"))
        slot = &old_summary;
      if (slot && !*slot)
        *slot = g_steal_pointer (&full);
      g_free (full);
      if (slot == &f->records && !f->prefix)
        f->prefix = g_strndup (bare, strlen (bare) - strlen (".jsonl"));
    }
  /* The older generation wrote profile_export.json (metrics under "records"). */
  if (!f->summary)
    f->summary = old_summary;
  else
    g_free (old_summary);
  if (!f->aggregate)
    {
      g_autofree char *agg
          = g_build_filename (dir, "aggregate", "profile_export_aiperf_aggregate.json", NULL);
      if (g_file_test (agg, G_FILE_TEST_IS_REGULAR))
        f->aggregate = g_steal_pointer (&agg);
    }
  if (!f->prefix && f->summary)
    {
      g_autofree char *base = g_path_get_basename (f->summary);
      g_autofree char *bare = iv_sniff_strip_compression (base);
      f->prefix = g_str_has_suffix (bare, "_aiperf.json")
                      ? g_strndup (bare, strlen (bare) - strlen ("_aiperf.json"))
                      : g_strndup (bare, strlen (bare) - strlen (".json"));
    }
}

/* ---------- numbers from yajl's text ---------- */

/* A double that fits an int64 (NaN and out-of-range values do not: casting them is
 * undefined). */
static gboolean
double_to_int64 (double d, gint64 *out)
{
  if (!(d > -9.2e18 && d < 9.2e18))
    return FALSE;
  *out = (gint64) d;
  return TRUE;
}

static gboolean
text_to_int64 (const char *s, size_t len, gint64 *out)
{
  char buf[40];
  char *end;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, s, len);
  buf[len] = '\0';
  *out = g_ascii_strtoll (buf, &end, 10);
  if (*end == '\0')
    return TRUE;
  /* "1.7625e18" or "123.0": through a double, exact enough for what is not a timestamp */
  return double_to_int64 (g_ascii_strtod (buf, &end), out) && *end == '\0';
}

/* Exact powers of ten a double holds. */
static const double exact_pow10[] = {
  1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* A JSON number's text as a double. Most values of a record (inter-chunk latencies like
 * 17.868007) have at most 15 significant digits and a small exponent: those are an
 * exact integer times or over an exact power of ten, one correctly rounded operation
 * (Clinger's fast path); the rest (Python's 17-digit reprs) go to strtod, which was a
 * third of a load's time when it read everything. */
static double
text_to_double (const char *s, size_t len)
{
  char buf[64];
  const char *p = s, *end = s + len;
  guint64 mant = 0;
  int digits = 0, exp10 = 0;
  gboolean neg = FALSE;

  if (len == 0)
    return NAN;
  if (p < end && *p == '-')
    neg = TRUE, p++;
  for (; p < end && g_ascii_isdigit (*p); p++)
    if (mant || *p != '0')
      {
        if (++digits > 15)
          goto slow;
        mant = mant * 10 + (guint64) (*p - '0');
      }
  if (p < end && *p == '.')
    for (p++; p < end && g_ascii_isdigit (*p); p++)
      {
        if (mant || *p != '0')
          {
            if (++digits > 15)
              goto slow;
            mant = mant * 10 + (guint64) (*p - '0');
          }
        exp10--;
      }
  if (p != end || exp10 < -22)
    goto slow;
  {
    double v = exp10 < 0 ? (double) mant / exact_pow10[-exp10] : (double) mant;
    return neg ? -v : v;
  }
slow:
  if (len == 0 || len >= sizeof buf)
    return NAN;
  memcpy (buf, s, len);
  buf[len] = '\0';
  return g_ascii_strtod (buf, NULL);
}

static gboolean
key_is (const unsigned char *key, size_t len, const char *name)
{
  return strlen (name) == len && memcmp (key, name, len) == 0;
}

/* ---------- profile_export.jsonl ---------- */

typedef enum
{
  SEC_NONE,
  SEC_METADATA,
  SEC_METRICS,
  SEC_ERROR,
  SEC_OTHER
} Section;

typedef struct
{
  guint metric;
  double value;
} Pending;

typedef struct
{
  IvRun *run;
  int depth;
  Section section;
  char field[48];    /* metadata field or error field being read */
  gint metric;       /* metrics: the metric being read, or -1 */
  gboolean in_value; /* metrics: inside "value" */
  gboolean in_unit;
  guint last_metric; /* where the previous key was: records repeat their order */

  /* the record being read */
  gint64 start, ack, end;
  gint64 ts_start;           /* metadata.timestamp_ns: the start, before request_start_ns existed */
  gint64 max_resp;           /* metric max_response_timestamp (ns): the end, in that generation */
  double latency_ms;         /* metric request_latency: the end from the start, failing that */
  gboolean has_metadata;     /* a "metadata" object: what makes the line a request's record */
  const char *reject_reason; /* why the first line rejected is not a record */
  guint32 worker;
  gboolean warmup, cancelled, failed;
  gboolean complete;              /* the line's record was read to its end */
  guint text_values, null_values; /* metric values of this record that are not numbers */
  guint64 total_text, total_null; /* the same over the records kept */
  char first_odd[64];             /* the first metric with such a value */
  char error_type[96];
  GArray *pending; /* Pending */
  IvInput *input;  /* for the share of the file read so far */
  gboolean reserved;
} RecordCtx;

static void
record_reset (RecordCtx *c)
{
  c->start = c->ack = c->end = -1;
  c->ts_start = c->max_resp = -1;
  c->latency_ms = NAN;
  c->worker = 0;
  c->warmup = c->cancelled = c->failed = c->complete = FALSE;
  c->has_metadata = FALSE;
  c->text_values = c->null_values = 0;
  c->error_type[0] = '\0';
  g_array_set_size (c->pending, 0);
}

/* A metric's tag as it is now. Until aiperf 43b78902 (10 Oct 2025, "Match GenAI-Perf
 * format for json summary export") TTFTMetric and TTSTMetric were tagged "ttft" and
 * "ttst", in the records and in the summary alike. */
static const unsigned char *
canonical_tag (const unsigned char *key, size_t *len)
{
  static const char *const renamed[][2] = {
    { "ttft", "time_to_first_token" },
    { "ttst", "time_to_second_token" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (renamed); i++)
    if (key_is (key, *len, renamed[i][0]))
      {
        *len = strlen (renamed[i][1]);
        return (const unsigned char *) renamed[i][1];
      }
  return key;
}

static guint
metric_for (RecordCtx *c, const unsigned char *key, size_t len)
{
  GPtrArray *ms = c->run->metrics;
  char local[128];
  g_autofree char *heap = NULL;
  const char *tag;
  guint at;

  key = canonical_tag (key, &len);
  /* Records list their metrics in one order: the one after the last is tried first. */
  if (ms->len)
    {
      guint next = (c->last_metric + 1) % ms->len;
      if (key_is (key, len, ((IvRunMetric *) ms->pdata[next])->tag))
        return c->last_metric = next;
    }
  /* then by name: a record of a hundred thousand metrics is not a quadratic load */
  if (len < sizeof local)
    {
      memcpy (local, key, len);
      local[len] = '\0';
      tag = local;
    }
  else
    tag = heap = g_strndup ((const char *) key, len);
  at = GPOINTER_TO_UINT (g_hash_table_lookup (c->run->metric_index, tag));
  if (at)
    return c->last_metric = at - 1;
  _iv_run_add_metric (c->run, (const char *) key, len);
  return c->last_metric = ms->len - 1;
}

static void
record_commit (RecordCtx *c)
{
  IvRun *r = c->run;
  guint32 index;
  guint8 flags;

  if (c->warmup)
    {
      guint32 at = (guint32) r->n_requests;
      r->n_warmup++;
      g_array_append_val (r->warmup_at, at);
      return;
    }
  index = (guint32) r->n_requests++;
  flags = (c->failed ? IV_REQUEST_FAILED : 0) | (c->cancelled ? IV_REQUEST_CANCELLED : 0);
  /* The October 2025 records (aiperf 909628b6's MetricRecordMetadata) give the start as
   * metadata.timestamp_ns and no end: it is the record's max_response_timestamp, else
   * its start plus its request latency. */
  if (c->start < 0)
    c->start = c->ts_start;
  if (c->end < 0 && c->max_resp >= 0)
    c->end = c->max_resp;
  if (c->end < 0 && c->start >= 0 && isfinite (c->latency_ms) && c->latency_ms >= 0
      && c->latency_ms < 9e12)
    c->end = c->start + (gint64) llround (c->latency_ms * 1e6);
  g_array_append_val (r->start_ns, c->start);
  g_array_append_val (r->ack_ns, c->ack);
  g_array_append_val (r->end_ns, c->end);
  g_array_append_val (r->worker, c->worker);
  g_array_append_val (r->flags, flags);
  if (c->start >= 0)
    r->t0_ns = MIN (r->t0_ns, c->start);
  if (c->end >= 0)
    r->t1_ns = MAX (r->t1_ns, c->end);
  if (c->failed)
    {
      const char *type = c->error_type[0] ? c->error_type : "unknown";
      gpointer old = g_hash_table_lookup (r->error_types, type);
      r->n_errors++;
      g_hash_table_insert (r->error_types, g_strdup (type),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
      /* A failed request's few metrics are not the service's performance. */
      return;
    }
  /* a list metric's values come in a run: each run is appended at once */
  for (guint i = 0; i < c->pending->len;)
    {
      const Pending *p = &g_array_index (c->pending, Pending, i);
      IvRunMetric *m = r->metrics->pdata[p->metric];
      guint k = 1, at = m->values->len;
      while (i + k < c->pending->len
             && g_array_index (c->pending, Pending, i + k).metric == p->metric)
        k++;
      g_array_set_size (m->values, at + k);
      g_array_set_size (m->request, at + k);
      for (guint j = 0; j < k; j++)
        {
          g_array_index (m->values, double, at + j) = p[j].value;
          g_array_index (m->request, guint32, at + j) = index;
        }
      i += k;
    }
}

static int
rec_start_map (void *ctx)
{
  RecordCtx *c = ctx;
  c->depth++;
  if (c->depth == 1)
    {
      record_reset (c);
      c->section = SEC_NONE;
    }
  else if (c->depth == 2 && c->section == SEC_ERROR)
    c->failed = TRUE;
  else if (c->depth == 2 && c->section == SEC_METADATA)
    c->has_metadata = TRUE;
  /* aiperf 72338fe9 (October 2025) kept a failed request's error inside its metadata */
  else if (c->depth == 3 && c->section == SEC_METADATA && g_str_equal (c->field, "error"))
    c->failed = TRUE;
  return 1;
}

/* A line that is JSON but no request's record (a list, a number, an object without
 * "metadata") is stopped here, so that the line reader counts it as damaged, with its
 * line and column, instead of it being counted as a request. */
static int
rec_reject (RecordCtx *c, const char *why)
{
  if (!c->reject_reason)
    c->reject_reason = why;
  return 0;
}

static int
rec_end_map (void *ctx)
{
  RecordCtx *c = ctx;
  if (c->depth == 3 && c->section == SEC_METRICS)
    c->metric = -1;
  if (c->depth == 2)
    c->section = SEC_NONE;
  if (c->depth == 1)
    {
      /* no request id, no timestamps, no phase: not a request, whatever its metrics say */
      if (!c->has_metadata)
        return rec_reject (c, N_ ("not a request record (it has no \"metadata\" object)"));
      c->complete = TRUE;
    }
  c->depth--;
  return 1;
}

/* Room for the whole file in every metric's arrays, estimated from the first records and
 * the share of the file they took: growing arrays of tens of megabytes by doubling
 * copied them, which was a fifth of a load. Shrinking the length back keeps the room. */
static void
reserve_metrics (RecordCtx *c)
{
  IvRun *r = c->run;
  guint64 done = iv_input_get_raw_offset (c->input), size = iv_input_get_raw_size (c->input);
  double scale;

  double total = 0;

  c->reserved = TRUE;
  if (done == 0 || size <= done)
    return;
  /* the input reads ahead by a chunk: the estimate errs high, by at most that */
  scale = MIN ((double) size / (double) done, 1e4) * 1.1;
  /* Room is a guess from the file's size (a crashed writer's preallocated gigabytes
   * count too): taken only when the memory is there with as much again to spare, so the
   * guess never costs the load. */
  for (guint i = 0; i < r->metrics->len; i++)
    total += ((IvRunMetric *) r->metrics->pdata[i])->values->len * scale
             * (sizeof (double) + sizeof (guint32));
  if (total > (double) (G_MAXSIZE / 4))
    return;
  {
    gpointer probe = g_try_malloc ((gsize) total * 2);
    if (!probe)
      return;
    g_free (probe);
  }
  for (guint i = 0; i < r->metrics->len; i++)
    {
      IvRunMetric *m = r->metrics->pdata[i];
      guint len = m->values->len;
      double want = len * scale;
      if (want > G_MAXUINT / 2 || want < 4096)
        continue;
      g_array_set_size (m->values, (guint) want);
      g_array_set_size (m->values, len);
      g_array_set_size (m->request, (guint) want);
      g_array_set_size (m->request, len);
      /* and huge pages for the room: faulting it in 4 KiB at a time was another fifth */
      iv_big_advise (m->values->data, (gsize) want * sizeof (double));
      iv_big_advise (m->request->data, (gsize) want * sizeof (guint32));
    }
}

/* A line read: its record is kept only when the whole line parsed. */
static void
rec_line_done (gpointer ctx, gboolean ok)
{
  RecordCtx *c = ctx;
  if (ok && c->complete)
    {
      record_commit (c);
      c->total_text += c->text_values;
      c->total_null += c->null_values;
      if (!c->reserved && c->run->n_requests == 1024)
        reserve_metrics (c);
    }
  record_reset (c);
  c->depth = 0;
  c->section = SEC_NONE;
  c->metric = -1;
  c->in_value = c->in_unit = FALSE;
}

static int
rec_map_key (void *ctx, const unsigned char *key, size_t len)
{
  RecordCtx *c = ctx;

  c->in_value = c->in_unit = FALSE;
  if (c->depth == 1)
    c->section = key_is (key, len, "metadata")  ? SEC_METADATA
                 : key_is (key, len, "metrics") ? SEC_METRICS
                 : key_is (key, len, "error")   ? SEC_ERROR
                                                : SEC_OTHER;
  else if (c->depth == 2 && c->section == SEC_METRICS)
    c->metric = (gint) metric_for (c, key, len);
  else if (c->depth == 2)
    {
      size_t n = MIN (len, sizeof c->field - 1);
      memcpy (c->field, key, n);
      c->field[n] = '\0';
    }
  else if (c->depth == 3 && c->section == SEC_METRICS)
    {
      c->in_value = key_is (key, len, "value");
      c->in_unit = key_is (key, len, "unit");
    }
  else if (c->depth == 3 && c->section == SEC_METADATA && c->failed)
    {
      /* metadata.error's members (its "type" is read) */
      size_t n = MIN (len, sizeof c->field - 1);
      memcpy (c->field, key, n);
      c->field[n] = '\0';
    }
  return 1;
}

static void
add_value (RecordCtx *c, double v)
{
  Pending p = { (guint) c->metric, v };
  g_array_append_val (c->pending, p);
}

static int
rec_number (void *ctx, const char *s, size_t len)
{
  RecordCtx *c = ctx;

  if (c->depth == 0)
    return rec_reject (c, N_ ("not a request record (a line holds a JSON object)"));
  if (c->section == SEC_METADATA && c->depth == 2)
    {
      gint64 v;
      /* Epoch nanoseconds are positive; anything else is treated as absent, which also
       * keeps every difference of two timestamps inside int64. */
      if (!text_to_int64 (s, len, &v) || v < 0)
        return 1;
      if (g_str_equal (c->field, "request_start_ns"))
        c->start = v;
      else if (g_str_equal (c->field, "request_ack_ns"))
        c->ack = v;
      else if (g_str_equal (c->field, "request_end_ns"))
        c->end = v;
      else if (g_str_equal (c->field, "timestamp_ns"))
        c->ts_start = v;
    }
  else if (c->section == SEC_METRICS && c->metric >= 0 && c->in_value)
    {
      double v = text_to_double (s, len);
      add_value (c, v);
      /* a record without request_end_ns (metadata comes first: it is known by now) */
      if (c->end < 0)
        {
          const char *tag = ((IvRunMetric *) c->run->metrics->pdata[c->metric])->tag;
          gint64 ns;
          if (g_str_equal (tag, "max_response_timestamp") && text_to_int64 (s, len, &ns) && ns >= 0)
            c->max_resp = ns;
          else if (g_str_equal (tag, "request_latency"))
            c->latency_ms = v;
        }
    }
  return 1;
}

/* A metric value that is text or null: not a number to count, but never dropped
 * silently — the load's warning says how many and the first metric that had one. */
static void
note_odd_value (RecordCtx *c, guint *count)
{
  (*count)++;
  if (!c->first_odd[0])
    g_strlcpy (c->first_odd, ((IvRunMetric *) c->run->metrics->pdata[c->metric])->tag,
               sizeof c->first_odd);
}

static int
rec_null (void *ctx)
{
  RecordCtx *c = ctx;
  if (c->depth == 0)
    return rec_reject (c, N_ ("not a request record (a line holds a JSON object)"));
  if (c->section == SEC_METRICS && c->metric >= 0 && c->in_value)
    note_odd_value (c, &c->null_values);
  return 1;
}

static int
rec_string (void *ctx, const unsigned char *s, size_t len)
{
  RecordCtx *c = ctx;

  if (c->depth == 0)
    return rec_reject (c, N_ ("not a request record (a line holds a JSON object)"));

  if (c->section == SEC_METADATA && c->depth == 2)
    {
      /* "credit_phase" before aiperf 5e0b1e17 (9 Oct 2025) named it */
      if (g_str_equal (c->field, "benchmark_phase") || g_str_equal (c->field, "credit_phase"))
        c->warmup = key_is (s, len, "warmup");
      else if (g_str_equal (c->field, "worker_id"))
        {
          g_autofree char *w = g_strndup ((const char *) s, len);
          c->worker = iv_intern_add (c->run->strings, w, -1);
        }
    }
  else if (c->section == SEC_METRICS && c->metric >= 0 && c->in_value)
    note_odd_value (c, &c->text_values);
  else if (c->section == SEC_METRICS && c->metric >= 0 && c->in_unit)
    {
      IvRunMetric *m = c->run->metrics->pdata[c->metric];
      if (!m->unit)
        m->unit = g_strndup ((const char *) s, len);
    }
  else if (((c->section == SEC_ERROR && c->depth == 2)
            || (c->section == SEC_METADATA && c->depth == 3 && c->failed))
           && g_str_equal (c->field, "type"))
    {
      size_t n = MIN (len, sizeof c->error_type - 1);
      memcpy (c->error_type, s, n);
      c->error_type[n] = '\0';
    }
  return 1;
}

static int
rec_boolean (void *ctx, int value)
{
  RecordCtx *c = ctx;
  if (c->depth == 0)
    return rec_reject (c, N_ ("not a request record (a line holds a JSON object)"));
  if (c->section == SEC_METADATA && c->depth == 2 && g_str_equal (c->field, "was_cancelled"))
    c->cancelled = value;
  return 1;
}

static int
rec_start_array (void *ctx)
{
  RecordCtx *c = ctx;
  if (c->depth == 0)
    return rec_reject (c, N_ ("not a request record (a line holds a JSON object)"));
  if (c->section == SEC_METRICS && c->metric >= 0 && c->in_value)
    ((IvRunMetric *) c->run->metrics->pdata[c->metric])->list = TRUE;
  return 1;
}

static const yajl_callbacks record_callbacks = {
  .yajl_null = rec_null,
  .yajl_boolean = rec_boolean,
  .yajl_number = rec_number,
  .yajl_string = rec_string,
  .yajl_start_map = rec_start_map,
  .yajl_map_key = rec_map_key,
  .yajl_end_map = rec_end_map,
  .yajl_start_array = rec_start_array,
};

/* The per-request file may come in pieces (a run followed while AIPerf writes it): the
 * reader keeps its place between them, and the lines' numbers run on across pieces. */
struct _IvRecordReader
{
  RecordCtx c;
  guint64 lines, damaged;
  guint first_line, first_column;
  char *first_reason;
  gboolean last_cut;
  gsize max_line;          /* the longest line read (iv_run_line_max) */
  guint64 long_lines;      /* lines past it, passed over */
  guint64 first_long_line; /* 1-based */
  gboolean long_said;      /* a followed run said the first one when it came */
};

/* "line 4 is longer than 256 MiB, the most a line may hold (…); it was skipped" */
static void
warn_long_lines (IvRun *r, const char *name, guint64 count, guint64 first, gsize max_line)
{
  guint mib = (guint) (max_line >> 20);

  if (count == 1)
    _iv_run_warn (r,
                  _ ("%s: line %" G_GUINT64_FORMAT " is longer than %u MiB, the most a line "
                     "may hold (%s sets it); it was skipped"),
                  name, first, mib, IV_RUN_LINE_MAX_ENV);
  else
    _iv_run_warn (r,
                  _ ("%s: %" G_GUINT64_FORMAT " lines longer than %u MiB, the most a line may "
                     "hold (%s sets it), were skipped (the first at line %" G_GUINT64_FORMAT ")"),
                  name, count, mib, IV_RUN_LINE_MAX_ENV, first);
}

IvRecordReader *
_iv_record_reader_new (IvRun *r, gboolean pieces)
{
  IvRecordReader *rr = g_new0 (IvRecordReader, 1);

  rr->c.run = r;
  rr->c.metric = -1;
  /* room is reserved from the share of the file read: pieces do not know the whole */
  rr->c.reserved = pieces;
  rr->c.pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  record_reset (&rr->c);
  iv_intern_add (r->strings, "", -1); /* id 0: no worker (adding it again is a lookup) */
  {
    g_autofree char *problem = NULL;
    rr->max_line = iv_run_line_max (&problem);
    if (problem)
      _iv_run_warn (r, "%s", problem);
  }
  return rr;
}

gboolean
_iv_record_reader_feed (IvRecordReader *rr, IvInput *in, IvProgressFunc progress, gpointer data,
                        GCancellable *cancellable, GError **error)
{
  IvJsonLinesStats st;

  rr->c.input = in;
  if (!iv_json_stream_parse_lines (in, &record_callbacks, &rr->c, rec_line_done, rr->max_line,
                                   progress, data, cancellable, &st, error))
    {
      rr->c.input = NULL;
      return FALSE;
    }
  rr->c.input = NULL;
  if (st.damaged && !rr->damaged)
    {
      rr->first_line = (guint) (rr->lines + st.first_damaged_line);
      rr->first_column = st.first_damaged_column;
      rr->first_reason = g_steal_pointer (&st.first_damaged_reason);
      /* the line reader says only that a callback stopped the line; the callbacks stop
       * no line but one that is no request's record, the first of which says why (an
       * earlier such line would have been the first damaged one) */
      if (rr->c.reject_reason && g_strcmp0 (rr->first_reason, "stopped by the reader") == 0)
        {
          g_free (rr->first_reason);
          rr->first_reason = g_strdup (_ (rr->c.reject_reason));
        }
    }
  if (st.long_lines && !rr->long_lines)
    rr->first_long_line = rr->lines + st.first_long_line;
  g_free (st.first_damaged_reason);
  rr->lines += st.lines;
  rr->damaged += st.damaged;
  rr->long_lines += st.long_lines;
  rr->last_cut = st.last_line_cut;
  rr->c.run->records_lines = rr->lines;
  rr->c.run->damaged_lines = rr->damaged + rr->long_lines;
  /* an empty file holds no requests: the run is what its summary says, if it has one */
  rr->c.run->has_records = rr->lines > rr->damaged + rr->long_lines;
  return TRUE;
}

void
_iv_record_reader_skip_long (IvRecordReader *rr, const char *name)
{
  IvRun *r = rr->c.run;

  rr->lines++;
  rr->long_lines++;
  if (rr->long_lines == 1)
    {
      rr->first_long_line = rr->lines;
      /* said at once: a followed run may never finish */
      warn_long_lines (r, name, 1, rr->first_long_line, rr->max_line);
      rr->long_said = TRUE;
    }
  r->records_lines = rr->lines;
  r->damaged_lines = rr->damaged + rr->long_lines;
  r->has_records = rr->lines > rr->damaged + rr->long_lines;
}

/* Says what was skipped, once, naming the file. */
void
_iv_record_reader_finish (IvRecordReader *rr, const char *name)
{
  IvRun *r = rr->c.run;

  if (rr->long_lines && !(rr->long_said && rr->long_lines == 1))
    warn_long_lines (r, name, rr->long_lines, rr->first_long_line, rr->max_line);
  if (rr->damaged)
    {
      /* a writer killed mid-line leaves its last line cut: say so in plain words */
      if (rr->damaged == 1 && rr->last_cut)
        _iv_run_warn (r, _ ("%s: the last line is cut short (line %u); it was skipped"), name,
                      rr->first_line);
      else if (rr->damaged == 1)
        _iv_run_warn (r, _ ("%s: 1 damaged line skipped (line %u, column %u: %s)"), name,
                      rr->first_line, rr->first_column, rr->first_reason);
      else
        _iv_run_warn (r,
                      _ ("%s: %" G_GUINT64_FORMAT
                         " damaged lines skipped (the first at line %u, column %u: %s)"),
                      name, rr->damaged, rr->first_line, rr->first_column, rr->first_reason);
    }
  if (rr->c.total_text || rr->c.total_null)
    _iv_run_warn (r,
                  _ ("%s: %" G_GUINT64_FORMAT " metric values that are text and %" G_GUINT64_FORMAT
                     " that are null were not counted (the first in %s)"),
                  name, rr->c.total_text, rr->c.total_null, rr->c.first_odd);
}

void
_iv_record_reader_free (IvRecordReader *rr)
{
  if (!rr)
    return;
  g_array_unref (rr->c.pending);
  g_free (rr->first_reason);
  g_free (rr);
}

gboolean
_iv_run_load_records (IvRun *r, IvInput *in, IvProgressFunc progress, gpointer data,
                      GCancellable *cancellable, GError **error)
{
  IvRecordReader *rr = _iv_record_reader_new (r, FALSE);
  gboolean ok = _iv_record_reader_feed (rr, in, progress, data, cancellable, error);

  if (ok)
    _iv_record_reader_finish (rr, iv_input_get_name (in));
  _iv_record_reader_free (rr);
  return ok;
}

/* ---------- gpu_telemetry_export.jsonl ---------- */

typedef struct
{
  IvRun *run;
  int depth;
  gboolean in_data;
  char key[64];
  gint64 ts;
  gint index;
  char *uuid, *model, *hostname, *url;
  GArray *values;    /* double per field of the record */
  GPtrArray *fields; /* char* */
  GHashTable *pairs; /* "endpoint\x1fuuid": every (endpoint, GPU) seen */
  GHashTable *gpus;  /* uuid → GpuSlot*: GPUs and their fields found by name, not by a
                      * walk (forty thousand GPUs were a quadratic load) */
  gboolean complete; /* the line's object was read to its end */
} TelemetryCtx;

typedef struct
{
  IvGpu *gpu;
  GHashTable *names; /* field → 1 + its index in gpu->names */
} GpuSlot;

static void
gpu_slot_free (gpointer p)
{
  GpuSlot *slot = p;
  g_hash_table_unref (slot->names);
  g_free (slot);
}

static GpuSlot *
gpu_slot_new (TelemetryCtx *c, IvGpu *g)
{
  GpuSlot *slot = g_new0 (GpuSlot, 1);

  slot->gpu = g;
  slot->names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < g->names->len; i++)
    g_hash_table_insert (slot->names, g->names->pdata[i], GUINT_TO_POINTER (i + 1));
  g_hash_table_insert (c->gpus, g->uuid, slot);
  return slot;
}

static void
telemetry_commit (TelemetryCtx *c)
{
  GpuSlot *slot = c->uuid ? g_hash_table_lookup (c->gpus, c->uuid) : NULL;
  IvGpu *g = slot ? slot->gpu : NULL;

  if (!c->uuid || c->ts < 0)
    return;
  /* every line's utilisation, whichever endpoint: what aiperf plot's
   * aggregate_gpu_telemetry averages per timestamp */
  for (guint i = 0; i < c->fields->len; i++)
    if (g_str_equal (c->fields->pdata[i], "gpu_utilization")
        || g_str_equal (c->fields->pdata[i], "nvidia_gpu_utilization"))
      {
        g_array_append_val (c->run->tel_ts_ns, c->ts);
        g_array_append_val (c->run->tel_util, g_array_index (c->values, double, i));
        break;
      }
  /* AIPerf counts a GPU per endpoint that reports it: count the pairs too */
  g_hash_table_add (c->pairs, g_strdup_printf ("%s\x1f%s", c->url ? c->url : "", c->uuid));
  if (!g)
    {
      g = g_new0 (IvGpu, 1);
      g->uuid = g_strdup (c->uuid);
      g->model = g_strdup (c->model);
      g->hostname = g_strdup (c->hostname);
      g->url = g_strdup (c->url);
      g->index = c->index;
      g->ts_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
      g->names = g_ptr_array_new_with_free_func (g_free);
      g->series = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_ptr_array_add (c->run->gpus, g);
      slot = gpu_slot_new (c, g);
    }
  /* One GPU scraped through two DCGM endpoints appears twice: keep the first endpoint. */
  else if (g_strcmp0 (g->url, c->url) != 0)
    return;
  g_array_append_val (g->ts_ns, c->ts);
  for (guint i = 0; i < c->fields->len; i++)
    {
      const char *field = c->fields->pdata[i];
      /* records name their fields in one order: the same place first, then by name */
      guint at = i < g->names->len && g_str_equal (g->names->pdata[i], field)
                     ? i + 1
                     : GPOINTER_TO_UINT (g_hash_table_lookup (slot->names, field));
      GArray *series;
      if (at)
        at--;
      else
        {
          GArray *fresh = g_array_new (FALSE, FALSE, sizeof (double));
          char *name = g_strdup (field);
          g_array_set_size (fresh, g->ts_ns->len - 1);
          for (guint k = 0; k + 1 < g->ts_ns->len; k++)
            g_array_index (fresh, double, k) = NAN;
          g_ptr_array_add (g->names, name);
          g_ptr_array_add (g->series, fresh);
          at = g->names->len - 1;
          g_hash_table_insert (slot->names, name, GUINT_TO_POINTER (at + 1));
        }
      series = g->series->pdata[at];
      /* A field named twice in one record: the later value replaces the earlier, so
       * every series stays exactly as long as the clock. */
      if (series->len == g->ts_ns->len)
        g_array_index (series, double, series->len - 1) = g_array_index (c->values, double, i);
      else
        g_array_append_val (series, g_array_index (c->values, double, i));
    }
  /* Fields this record lacks stay absent, keeping every series as long as the clock. */
  for (guint i = 0; i < g->series->len; i++)
    {
      GArray *series = g->series->pdata[i];
      double nan = NAN;
      while (series->len < g->ts_ns->len)
        g_array_append_val (series, nan);
    }
}

static int
tel_start_map (void *ctx)
{
  TelemetryCtx *c = ctx;
  c->depth++;
  if (c->depth == 1)
    {
      c->ts = -1;
      c->index = -1;
      g_clear_pointer (&c->uuid, g_free);
      g_clear_pointer (&c->model, g_free);
      g_clear_pointer (&c->hostname, g_free);
      g_clear_pointer (&c->url, g_free);
      g_array_set_size (c->values, 0);
      g_ptr_array_set_size (c->fields, 0);
    }
  else if (c->depth == 2)
    c->in_data = g_str_equal (c->key, "telemetry_data");
  return 1;
}

static int
tel_end_map (void *ctx)
{
  TelemetryCtx *c = ctx;
  if (c->depth == 2)
    c->in_data = FALSE;
  if (c->depth == 1)
    c->complete = TRUE;
  c->depth--;
  return 1;
}

/* A line read: its sample is kept only when the whole line parsed. */
static void
tel_line_done (gpointer ctx, gboolean ok)
{
  TelemetryCtx *c = ctx;

  if (ok && c->complete)
    telemetry_commit (c);
  c->complete = FALSE;
  c->depth = 0;
  c->in_data = FALSE;
}

static int
tel_map_key (void *ctx, const unsigned char *key, size_t len)
{
  TelemetryCtx *c = ctx;
  size_t n = MIN (len, sizeof c->key - 1);
  memcpy (c->key, key, n);
  c->key[n] = '\0';
  return 1;
}

static int
tel_number (void *ctx, const char *s, size_t len)
{
  TelemetryCtx *c = ctx;
  if (c->depth == 2 && c->in_data)
    {
      double v = text_to_double (s, len);
      g_array_append_val (c->values, v);
      g_ptr_array_add (c->fields, g_strdup (c->key));
    }
  else if (c->depth == 1 && g_str_equal (c->key, "timestamp_ns"))
    {
      if (!text_to_int64 (s, len, &c->ts) || c->ts < 0)
        c->ts = -1;
    }
  else if (c->depth == 1 && g_str_equal (c->key, "gpu_index"))
    {
      gint64 v;
      if (text_to_int64 (s, len, &v))
        c->index = (gint) v;
    }
  return 1;
}

static int
tel_string (void *ctx, const unsigned char *s, size_t len)
{
  TelemetryCtx *c = ctx;
  char **slot = NULL;

  if (c->depth != 1)
    return 1;
  if (g_str_equal (c->key, "gpu_uuid"))
    slot = &c->uuid;
  else if (g_str_equal (c->key, "gpu_model_name"))
    slot = &c->model;
  else if (g_str_equal (c->key, "hostname"))
    slot = &c->hostname;
  else if (g_str_equal (c->key, "dcgm_url"))
    slot = &c->url;
  if (slot)
    {
      g_free (*slot);
      *slot = g_strndup ((const char *) s, len);
    }
  return 1;
}

static const yajl_callbacks telemetry_callbacks = {
  .yajl_number = tel_number,
  .yajl_string = tel_string,
  .yajl_start_map = tel_start_map,
  .yajl_map_key = tel_map_key,
  .yajl_end_map = tel_end_map,
};

/* Like the records, the telemetry is read a line at a time (a line held whole only up to
 * the line limit: a string of gigabytes streamed through yajl was buffered by its lexer,
 * and a failed allocation there crashed), and a damaged line is skipped and counted. */
struct _IvTelemetryReader
{
  TelemetryCtx c;
  gsize max_line;
  guint64 lines, damaged, long_lines, first_long_line;
  guint first_line, first_column;
  char *first_reason;
};

IvTelemetryReader *
_iv_telemetry_reader_new (IvRun *r)
{
  IvTelemetryReader *tr = g_new0 (IvTelemetryReader, 1);

  tr->c.run = r;
  tr->c.values = g_array_new (FALSE, FALSE, sizeof (double));
  tr->c.fields = g_ptr_array_new_with_free_func (g_free);
  tr->c.pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  tr->c.gpus = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, gpu_slot_free);
  tr->max_line = iv_run_line_max (NULL);
  for (guint i = 0; i < r->gpus->len; i++)
    gpu_slot_new (&tr->c, r->gpus->pdata[i]);
  return tr;
}

gboolean
_iv_telemetry_reader_feed (IvTelemetryReader *tr, IvInput *in, GCancellable *cancellable,
                           GError **error)
{
  IvJsonLinesStats st;
  gboolean ok = iv_json_stream_parse_lines (in, &telemetry_callbacks, &tr->c, tel_line_done,
                                            tr->max_line, NULL, NULL, cancellable, &st, error);

  tr->c.run->gpu_endpoint_pairs = g_hash_table_size (tr->c.pairs);
  tr->c.run->telemetry_collected = TRUE;
  if (!ok)
    return FALSE;
  if (st.damaged && !tr->damaged)
    {
      tr->first_line = (guint) (tr->lines + st.first_damaged_line);
      tr->first_column = st.first_damaged_column;
      tr->first_reason = g_steal_pointer (&st.first_damaged_reason);
    }
  if (st.long_lines && !tr->long_lines)
    tr->first_long_line = tr->lines + st.first_long_line;
  g_free (st.first_damaged_reason);
  tr->lines += st.lines;
  tr->damaged += st.damaged;
  tr->long_lines += st.long_lines;
  return TRUE;
}

void
_iv_telemetry_reader_finish (IvTelemetryReader *tr, const char *name)
{
  IvRun *r = tr->c.run;

  if (tr->long_lines)
    warn_long_lines (r, name, tr->long_lines, tr->first_long_line, tr->max_line);
  if (tr->damaged == 1)
    _iv_run_warn (r, _ ("%s: 1 damaged line skipped (line %u, column %u: %s)"), name,
                  tr->first_line, tr->first_column, tr->first_reason);
  else if (tr->damaged)
    _iv_run_warn (
        r,
        _ ("%s: %" G_GUINT64_FORMAT " damaged lines skipped (the first at line %u, column %u: %s)"),
        name, tr->damaged, tr->first_line, tr->first_column, tr->first_reason);
}

void
_iv_telemetry_reader_free (IvTelemetryReader *tr)
{
  if (!tr)
    return;
  g_hash_table_unref (tr->c.pairs);
  g_hash_table_unref (tr->c.gpus);
  g_free (tr->first_reason);
  g_array_unref (tr->c.values);
  g_ptr_array_unref (tr->c.fields);
  g_free (tr->c.uuid);
  g_free (tr->c.model);
  g_free (tr->c.hostname);
  g_free (tr->c.url);
  g_free (tr);
}

gboolean
_iv_run_load_telemetry (IvRun *r, IvInput *in, GCancellable *cancellable, GError **error)
{
  IvTelemetryReader *tr = _iv_telemetry_reader_new (r);
  gboolean ok = _iv_telemetry_reader_feed (tr, in, cancellable, error);

  if (ok)
    _iv_telemetry_reader_finish (tr, iv_input_get_name (in));
  _iv_telemetry_reader_free (tr);
  return ok;
}

/* ---------- summary, time slices, aggregate (json-glib) ---------- */

static JsonNode *
read_json_input (IvInput *in, GError **error)
{
  JsonNode *root = iv_json_parse_input (in, IV_INPUT_DOCUMENT_MAX, error);

  if (root && !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: not a JSON object"),
                   iv_input_get_name (in));
      g_clear_pointer (&root, json_node_unref);
    }
  return root;
}

static JsonNode *
read_json (const char *path, GError **error)
{
  g_autoptr (IvInput) in = iv_input_open (path, error);
  return in ? read_json_input (in, error) : NULL;
}

/* A number member, NaN when absent, null or not a number. */
static double
number (JsonObject *o, const char *key)
{
  double v;
  return iv_json_number (o, key, &v) ? v : NAN;
}

/* {"unit", "avg", …}: a metric's statistics; NULL for anything else. */
static IvMetricSummary *
metric_summary (JsonNode *node)
{
  JsonObject *o = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  IvMetricSummary *s;

  if (!o || !iv_json_string (o, "unit"))
    return NULL;
  s = g_new0 (IvMetricSummary, 1);
  s->unit = g_strdup (iv_json_string (o, "unit"));
  s->avg = number (o, "avg"), s->min = number (o, "min"), s->max = number (o, "max"),
  s->std = number (o, "std");
  s->p1 = number (o, "p1"), s->p5 = number (o, "p5"), s->p10 = number (o, "p10"),
  s->p25 = number (o, "p25");
  s->p50 = number (o, "p50"), s->p75 = number (o, "p75"), s->p90 = number (o, "p90"),
  s->p95 = number (o, "p95");
  s->p99 = number (o, "p99"), s->count = number (o, "count");
  return s;
}

/* input_config, both generations: endpoint/loadgen (older) or models/phases (newer). */
static void
read_config (IvRun *r, JsonObject *cfg)
{
  JsonObject *endpoint = iv_json_object (cfg, "endpoint"),
             *loadgen = iv_json_object (cfg, "loadgen");
  JsonObject *prompt = iv_json_object (iv_json_object (cfg, "input"), "prompt");
  JsonArray *names = iv_json_array (endpoint, "model_names");
  JsonArray *phases = iv_json_array (cfg, "phases");
  JsonObject *models = iv_json_object (cfg, "models");
  JsonArray *items = iv_json_array (models, "items");

  if (names && json_array_get_length (names) > 0)
    r->model = g_strdup (iv_json_element_string (names, 0));
  else if (items && json_array_get_length (items) > 0
           && JSON_NODE_HOLDS_OBJECT (json_array_get_element (items, 0)))
    r->model = g_strdup (iv_json_string (json_array_get_object_element (items, 0), "name"));
  r->endpoint_type = g_strdup (iv_json_string (endpoint, "type"));
  r->endpoint = g_strdup (iv_json_string (endpoint, "custom_endpoint"));
  r->url = g_strdup (iv_json_string (endpoint, "url"));
  if (!r->url && iv_json_array (endpoint, "urls")
      && json_array_get_length (iv_json_array (endpoint, "urls")) > 0)
    r->url = g_strdup (iv_json_element_string (iv_json_array (endpoint, "urls"), 0));
  iv_json_bool (endpoint, "streaming", &r->streaming);
  r->concurrency = number (loadgen, "concurrency");
  r->request_rate = number (loadgen, "request_rate");
  r->request_count = number (loadgen, "request_count");
  for (guint i = 0; phases && i < json_array_get_length (phases); i++)
    {
      JsonNode *pn = json_array_get_element (phases, i);
      JsonObject *p = JSON_NODE_HOLDS_OBJECT (pn) ? json_node_get_object (pn) : NULL;
      if (!p || g_strcmp0 (iv_json_string (p, "name"), "profiling") != 0)
        continue;
      if (isnan (r->concurrency))
        r->concurrency = number (p, "concurrency");
      /* the YAML-v2 configuration names a phase's rate "rate" */
      if (isnan (r->request_rate))
        r->request_rate = number (p, "rate");
      if (isnan (r->request_rate))
        r->request_rate = number (p, "request_rate");
      if (isnan (r->request_count))
        r->request_count = number (p, "requests");
    }
  r->isl = number (iv_json_object (prompt, "input_tokens"), "mean");
  r->osl = number (iv_json_object (prompt, "output_tokens"), "mean");
  /* --slice-duration: the time slices' width in seconds (aiperf plot's
   * DataLoader._load_timeslices reads it from here) */
  r->slice_duration_s = number (iv_json_object (cfg, "output"), "slice_duration");
  if (!(r->slice_duration_s > 0))
    r->slice_duration_s = NAN;
}

/* profile_export_aiperf.json is read as a stream of yajl events over its text, not as
 * a json-glib tree: a summary of a million metrics costs what its metrics take (their
 * statistics and names), not the kilobytes a tree spends per member. Only input_config,
 * a few kilobytes of nested settings, is parsed as a tree. */

/* input_config larger than this is not read (real ones are a few kilobytes). */
#define SUMMARY_CONFIG_MAX ((gsize) 4 << 20)

typedef enum
{
  TOP_METRIC,  /* a member that may be a metric's statistics */
  TOP_RECORDS, /* the older generation's metrics, under "records" */
  TOP_CONFIG,
  TOP_TELEMETRY,
  TOP_ERRORS,
  TOP_OTHER,
} TopKind;

typedef struct
{
  char *type;
  double count;
} SummaryError;

typedef struct
{
  IvJsonStreamPos pos;
  int depth;           /* containers open */
  gboolean not_object; /* the document is not an object */
  TopKind kind;        /* of the top-level member being read */
  /* a metric being read: its tag, statistics and the field whose value comes next */
  int metric_depth; /* depth of its members: 2, or 3 under "records"; 0 when none */
  char *tag;
  IvMetricSummary m;
  char field[16];
  /* metrics read, top level and under "records", in file order */
  GPtrArray *top_tags, *top_stats, *rec_tags, *rec_stats;
  gboolean has_records;
  /* input_config's bytes */
  guint64 config_start, config_end;
  /* telemetry_data.endpoints.*.gpus.*: (endpoint, GPU) pairs and GPU ids */
  gboolean in_endpoints, in_gpus, gpu_pending, gpu_uuid_key;
  char *gpu_id;
  GHashTable *uuids;
  guint gpu_pairs;
  gboolean has_endpoints; /* telemetry_data names its endpoints: telemetry was collected */
  guint gpu_endpoints;    /* endpoints with at least one GPU */
  guint endpoint_pairs;   /* gpu_pairs when the endpoint being read began */
  /* error_summary[*]: type and count */
  gboolean err_open, err_count_key, err_details, err_type_key;
  SummaryError err;
  GArray *errors; /* SummaryError */
} SummaryCtx;

static void
summary_metric_begin (SummaryCtx *c, const unsigned char *key, size_t len, int depth)
{
  key = canonical_tag (key, &len);
  g_free (c->tag);
  c->tag = g_strndup ((const char *) key, len);
  c->metric_depth = depth;
  iv_metric_summary_clear (&c->m);
  c->m.avg = c->m.min = c->m.max = c->m.std = c->m.count = NAN;
  c->m.p1 = c->m.p5 = c->m.p10 = c->m.p25 = c->m.p50 = NAN;
  c->m.p75 = c->m.p90 = c->m.p95 = c->m.p99 = NAN;
  c->m.source = IV_STATS_SUMMARY;
  c->field[0] = '\0';
}

/* A metric's object ended: kept when it had a unit (anything else is not a metric). */
static void
summary_metric_end (SummaryCtx *c)
{
  if (c->m.unit)
    {
      IvMetricSummary *s = g_memdup2 (&c->m, sizeof c->m);
      /* The first JsonExporter (aiperf cfa53de2, June 2025) keyed each metric by its
       * display name, "Time to First Token (TTFT)": folded back to its tag. */
      if (_iv_run_is_display_name (c->tag))
        {
          char *tag = _iv_run_fold_display_name (c->tag);
          if (*tag)
            g_free (c->tag), c->tag = tag;
          else
            g_free (tag);
        }
      g_ptr_array_add (c->metric_depth == 3 ? c->rec_tags : c->top_tags, g_steal_pointer (&c->tag));
      g_ptr_array_add (c->metric_depth == 3 ? c->rec_stats : c->top_stats, s);
      c->m.unit = NULL;
    }
  c->metric_depth = 0;
}

static void
summary_gpu_done (SummaryCtx *c, const char *uuid)
{
  if (!c->gpu_pending)
    return;
  c->gpu_pairs++;
  g_hash_table_add (c->uuids, g_strdup (uuid ? uuid : c->gpu_id));
  g_clear_pointer (&c->gpu_id, g_free);
  c->gpu_pending = FALSE;
}

/* The statistic a field of a metric's object names, or NULL: the names
 * iv_metric_summary_stat () knows, and "count", but not its "mean" (a file's key is "avg"). */
static double *
summary_field (IvMetricSummary *m, const char *field)
{
  if (g_str_equal (field, "count"))
    return &m->count;
  if (g_str_equal (field, "mean"))
    return NULL;
  return iv_metric_summary_stat (m, field);
}

/* A metric's field whose value is not a number (text, null, a container): a statistic
 * it names is absent, and a unit that is not text makes no metric. */
static void
summary_value_not_number (SummaryCtx *c)
{
  double *slot;

  if (!c->metric_depth || c->depth != c->metric_depth || !c->field[0])
    return;
  if ((slot = summary_field (&c->m, c->field)) != NULL)
    *slot = NAN;
  if (g_str_equal (c->field, "unit"))
    g_clear_pointer (&c->m.unit, g_free);
}

static int
sum_start_map (void *ctx)
{
  SummaryCtx *c = ctx;

  summary_value_not_number (c);
  c->depth++;
  if (c->depth == 1)
    return 1;
  if (c->depth == 2 && c->kind == TOP_CONFIG)
    c->config_start = iv_json_stream_pos_tell (&c->pos) - 1;
  else if (c->depth == 3 && c->kind == TOP_ERRORS)
    {
      c->err_open = TRUE;
      c->err.type = NULL;
      c->err.count = NAN;
    }
  else if (c->depth == 2 && c->kind == TOP_RECORDS)
    c->has_records = TRUE;
  return 1;
}

static int
sum_end_map (void *ctx)
{
  SummaryCtx *c = ctx;

  if (c->metric_depth && c->depth == c->metric_depth)
    summary_metric_end (c);
  if (c->depth == 2 && c->kind == TOP_CONFIG)
    c->config_end = iv_json_stream_pos_tell (&c->pos);
  if (c->kind == TOP_TELEMETRY)
    {
      if (c->depth == 5 && c->in_gpus)
        summary_gpu_done (c, NULL), c->in_gpus = FALSE;
      else if (c->depth == 3)
        c->in_endpoints = FALSE;
    }
  if (c->kind == TOP_ERRORS)
    {
      if (c->depth == 4)
        c->err_details = FALSE;
      else if (c->depth == 3 && c->err_open)
        {
          /* a count a guint holds, as the tree reader took it */
          if (c->err.count >= 0 && c->err.count < 4e9)
            g_array_append_val (c->errors, c->err);
          else
            g_free (c->err.type);
          c->err.type = NULL;
          c->err_open = FALSE;
        }
    }
  c->depth--;
  return 1;
}

static int
sum_start_array (void *ctx)
{
  SummaryCtx *c = ctx;
  summary_value_not_number (c);
  c->depth++;
  return 1;
}

static int
sum_end_array (void *ctx)
{
  SummaryCtx *c = ctx;
  c->depth--;
  return 1;
}

static int
sum_map_key (void *ctx, const unsigned char *key, size_t len)
{
  SummaryCtx *c = ctx;

  if (c->depth == 1)
    {
      c->kind = key_is (key, len, "records")          ? TOP_RECORDS
                : key_is (key, len, "input_config")   ? TOP_CONFIG
                : key_is (key, len, "telemetry_data") ? TOP_TELEMETRY
                : key_is (key, len, "error_summary")  ? TOP_ERRORS
                /* its name from July to October 2025 (aiperf 2428cbbb's JsonExportData) */
                : key_is (key, len, "errors_by_type") ? TOP_ERRORS
                                                      : TOP_METRIC;
      /* any member may be a metric's statistics (telemetry_data with a "unit" is too) */
      summary_metric_begin (c, key, len, 2);
      return 1;
    }
  if (c->kind == TOP_RECORDS && c->depth == 2)
    {
      summary_metric_begin (c, key, len, 3);
      return 1;
    }
  if (c->metric_depth && c->depth == c->metric_depth)
    {
      /* no field of a metric's statistics is longer */
      if (len < sizeof c->field)
        memcpy (c->field, key, len);
      c->field[len < sizeof c->field ? len : 0] = '\0';
    }
  if (c->kind == TOP_TELEMETRY)
    {
      if (c->depth == 2)
        c->has_endpoints |= c->in_endpoints = key_is (key, len, "endpoints");
      else if (c->depth == 3 && c->in_endpoints)
        {
          /* another endpoint: did the last one report a GPU? */
          summary_gpu_done (c, NULL);
          c->gpu_endpoints += c->gpu_pairs > c->endpoint_pairs;
          c->endpoint_pairs = c->gpu_pairs;
        }
      else if (c->depth == 4 && c->in_endpoints)
        c->in_gpus = key_is (key, len, "gpus");
      else if (c->depth == 5 && c->in_gpus)
        {
          /* each member of "gpus" is one (endpoint, GPU) pair, by its gpu_uuid or key */
          summary_gpu_done (c, NULL);
          c->gpu_id = g_strndup ((const char *) key, len);
          c->gpu_pending = TRUE;
        }
      else if (c->depth == 6 && c->gpu_pending)
        c->gpu_uuid_key = key_is (key, len, "gpu_uuid");
    }
  if (c->kind == TOP_ERRORS && c->err_open)
    {
      if (c->depth == 3)
        {
          c->err_count_key = key_is (key, len, "count");
          c->err_details = key_is (key, len, "error_details");
        }
      else if (c->depth == 4 && c->err_details)
        c->err_type_key = key_is (key, len, "type");
    }
  return 1;
}

static int
sum_number (void *ctx, const char *s, size_t len)
{
  SummaryCtx *c = ctx;

  if (c->metric_depth && c->depth == c->metric_depth && c->field[0])
    {
      double *slot = summary_field (&c->m, c->field);
      double v = text_to_double (s, len);
      /* as the tree reader: a number that is not finite is absent */
      if (slot)
        *slot = isfinite (v) ? v : NAN;
      else
        summary_value_not_number (c);
    }
  if (c->kind == TOP_ERRORS && c->err_open && c->depth == 3 && c->err_count_key)
    {
      double v = text_to_double (s, len);
      c->err.count = isfinite (v) ? v : NAN;
    }
  return 1;
}

static int
sum_string (void *ctx, const unsigned char *s, size_t len)
{
  SummaryCtx *c = ctx;

  if (c->metric_depth && c->depth == c->metric_depth && g_str_equal (c->field, "unit"))
    {
      g_free (c->m.unit);
      c->m.unit = g_strndup ((const char *) s, len);
    }
  else
    summary_value_not_number (c);
  if (c->kind == TOP_TELEMETRY && c->gpu_pending && c->depth == 6 && c->gpu_uuid_key)
    {
      g_free (c->gpu_id);
      /* the uuid names the GPU; kept in place of its key */
      c->gpu_id = g_strndup ((const char *) s, len);
    }
  if (c->kind == TOP_ERRORS && c->err_open && c->depth == 4 && c->err_details && c->err_type_key)
    {
      g_free (c->err.type);
      c->err.type = g_strndup ((const char *) s, len);
    }
  return 1;
}

static int
sum_null (void *ctx)
{
  summary_value_not_number (ctx);
  return 1;
}

static int
sum_boolean (void *ctx, int value)
{
  summary_value_not_number (ctx);
  return 1;
}

/* The top level must be an object: the first event says. */
static int
sum_first (SummaryCtx *c)
{
  if (c->depth == 0)
    {
      c->not_object = TRUE;
      return 0;
    }
  return 1;
}

static int
sum_start_map_top (void *ctx)
{
  return sum_start_map (ctx);
}

static int
sum_start_array_top (void *ctx)
{
  SummaryCtx *c = ctx;
  return sum_first (c) && sum_start_array (ctx);
}

static int
sum_number_top (void *ctx, const char *s, size_t len)
{
  SummaryCtx *c = ctx;
  return sum_first (c) && sum_number (ctx, s, len);
}

static int
sum_string_top (void *ctx, const unsigned char *s, size_t len)
{
  SummaryCtx *c = ctx;
  return sum_first (c) && sum_string (ctx, s, len);
}

static int
sum_null_top (void *ctx)
{
  SummaryCtx *c = ctx;
  return sum_first (c) && sum_null (ctx);
}

static int
sum_boolean_top (void *ctx, int value)
{
  SummaryCtx *c = ctx;
  return sum_first (c) && sum_boolean (ctx, value);
}

static const yajl_callbacks summary_callbacks = {
  .yajl_null = sum_null_top,
  .yajl_boolean = sum_boolean_top,
  .yajl_number = sum_number_top,
  .yajl_string = sum_string_top,
  .yajl_start_map = sum_start_map_top,
  .yajl_map_key = sum_map_key,
  .yajl_end_map = sum_end_map,
  .yajl_start_array = sum_start_array_top,
  .yajl_end_array = sum_end_array,
};

static void
metric_stats_free (gpointer p)
{
  if (p)
    iv_metric_summary_clear (p);
  g_free (p);
}

static void
summary_error_clear (gpointer p)
{
  g_free (((SummaryError *) p)->type);
}

gboolean
_iv_run_load_summary (IvRun *r, IvInput *in, GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (IvInput) stream = NULL;
  const char *name = iv_input_get_name (in), *body;
  gsize len = 0;
  SummaryCtx c = { 0 };
  gboolean ok;

  text = iv_input_read_all (in, IV_INPUT_DOCUMENT_MAX, &len, error);
  if (!text)
    return FALSE;
  /* a UTF-8 byte order mark (Windows editors write one) is not part of the JSON */
  body = text;
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    body += 3, len -= 3;
  if (!iv_json_check_text (body, len, name, error))
    return FALSE;
  if (len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the file is empty", name);
      return FALSE;
    }
  bytes = g_bytes_new_static (body, len);
  stream = iv_input_new_from_bytes (bytes, name, error);
  if (!stream)
    return FALSE;
  c.top_tags = g_ptr_array_new_with_free_func (g_free);
  c.top_stats = g_ptr_array_new_with_free_func (metric_stats_free);
  c.rec_tags = g_ptr_array_new_with_free_func (g_free);
  c.rec_stats = g_ptr_array_new_with_free_func (metric_stats_free);
  c.uuids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.errors = g_array_new (FALSE, FALSE, sizeof (SummaryError));
  g_array_set_clear_func (c.errors, summary_error_clear);
  c.m.unit = NULL;
  ok = iv_json_stream_parse_at (stream, &summary_callbacks, &c, IV_JSON_STREAM_DEFAULT, NULL, NULL,
                                NULL, &c.pos, NULL, error);
  if (ok && c.not_object)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: not a JSON object"), name);
      ok = FALSE;
    }
  if (ok)
    {
      /* Nothing changes in the run until the whole document has been read: a summary
       * half-written is read again later, from the start. The older generation keeps
       * its metrics under "records". */
      GPtrArray *tags = c.has_records ? c.rec_tags : c.top_tags;
      GPtrArray *stats = c.has_records ? c.rec_stats : c.top_stats;
      for (guint i = 0; i < tags->len; i++)
        {
          _iv_run_add_summary (r, g_steal_pointer (&tags->pdata[i]), stats->pdata[i]);
          stats->pdata[i] = NULL;
        }
      if (c.config_end > c.config_start && c.config_end - c.config_start > SUMMARY_CONFIG_MAX)
        _iv_run_warn (r,
                      _ ("%s: input_config is larger than %u MiB: the run's configuration "
                         "(model, concurrency) is not read"),
                      name, (guint) (SUMMARY_CONFIG_MAX >> 20));
      else if (c.config_end > c.config_start)
        {
          g_autoptr (JsonNode) config = iv_json_parse (
              body + c.config_start, (gsize) (c.config_end - c.config_start), name, NULL);
          if (config && JSON_NODE_HOLDS_OBJECT (config))
            read_config (r, json_node_get_object (config));
        }
      summary_gpu_done (&c, NULL);
      r->summary_gpu_pairs = c.gpu_pairs;
      r->summary_gpu_endpoints = c.gpu_endpoints + (c.gpu_pairs > c.endpoint_pairs);
      r->telemetry_collected |= c.has_endpoints;
      r->summary_gpu_uuids = g_hash_table_size (c.uuids);
      if (iv_run_get_summary (r, "benchmark_duration"))
        r->duration_s = iv_run_get_summary (r, "benchmark_duration")->avg;
      /* Without per-request records, the summary's error list is the only one. */
      for (guint i = 0; !r->has_records && i < c.errors->len; i++)
        {
          SummaryError *e = &g_array_index (c.errors, SummaryError, i);
          r->n_errors += (gsize) e->count;
          g_hash_table_insert (r->error_types, g_strdup (e->type ? e->type : "unknown"),
                               GUINT_TO_POINTER ((guint) e->count));
        }
    }
  iv_metric_summary_clear (&c.m);
  g_free (c.tag);
  g_free (c.gpu_id);
  g_free (c.err.type);
  g_ptr_array_unref (c.top_tags);
  g_ptr_array_unref (c.top_stats);
  g_ptr_array_unref (c.rec_tags);
  g_ptr_array_unref (c.rec_stats);
  g_hash_table_unref (c.uuids);
  g_array_unref (c.errors);
  return ok;
}

gboolean
_iv_run_load_timeslices (IvRun *r, IvInput *in, GError **error)
{
  g_autoptr (JsonNode) root = read_json_input (in, error);
  JsonArray *slices;

  if (!root)
    return FALSE;
  slices = iv_json_array (json_node_get_object (root), "timeslices");
  /* TimesliceMetricsJsonExporter writes the run's input_config beside the slices */
  if (isnan (r->slice_duration_s))
    {
      JsonObject *output
          = iv_json_object (iv_json_object (json_node_get_object (root), "input_config"), "output");
      double d = number (output, "slice_duration");
      if (d > 0)
        r->slice_duration_s = d;
    }
  for (guint i = 0; slices && i < json_array_get_length (slices); i++)
    {
      JsonNode *sn = json_array_get_element (slices, i);
      JsonObject *so = JSON_NODE_HOLDS_OBJECT (sn) ? json_node_get_object (sn) : NULL;
      IvTimeslice *ts;
      g_autoptr (GList) members = NULL;
      double v;

      if (!so)
        continue;
      ts = g_new0 (IvTimeslice, 1);
      v = number (so, "timeslice_index");
      if (!double_to_int64 (v, &ts->index))
        ts->index = (gint64) i;
      if (!double_to_int64 (number (so, "start_ns"), &ts->start_ns))
        ts->start_ns = -1;
      if (!double_to_int64 (number (so, "end_ns"), &ts->end_ns))
        ts->end_ns = -1;
      /* absent, null or not a boolean: complete */
      ts->complete = TRUE;
      iv_json_bool (so, "is_complete", &ts->complete);
      ts->metrics = _iv_run_summary_table_new ();
      members = json_object_get_members (so);
      for (GList *l = members; l; l = l->next)
        {
          IvMetricSummary *s = metric_summary (json_object_get_member (so, l->data));
          if (s)
            g_hash_table_replace (ts->metrics, g_strdup (l->data), s);
        }
      g_ptr_array_add (r->timeslices, ts);
    }
  return TRUE;
}

/* The statistic suffixes aiperf's AggregateConfidenceJsonExporter flattens onto metric
 * names ("request_latency_p99"); aiperf plot's DataLoader._unflatten_confidence_metrics
 * splits a key at its last '_' when the tail is one of them. */
static const char *const aggregate_stats[]
    = { "avg", "p1",  "p5",  "p10", "p25", "p50",   "p75", "p90",
        "p95", "p99", "min", "max", "std", "count", "sum" };

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The trials' means as a summary, for a run that has none of its own: each
 * "<metric>_<stat>" mean in its statistic's place ("sum" has none: left out); a key
 * without such a suffix is the metric's avg. */
static void
summary_from_aggregate (IvRun *r)
{
  GHashTableIter it;
  gpointer key, value;
  g_autoptr (GHashTable) made = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();

  g_hash_table_iter_init (&it, r->aggregate);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const IvAggregateStat *a = value;
      const char *k = key, *us = strrchr (k, '_');
      g_autofree char *metric = NULL;
      const char *stat = "avg";
      IvMetricSummary *s;
      double *slot;

      for (guint i = 0; us && us > k && i < G_N_ELEMENTS (aggregate_stats); i++)
        if (g_str_equal (us + 1, aggregate_stats[i]))
          stat = aggregate_stats[i], metric = g_strndup (k, (gsize) (us - k));
      if (!metric)
        metric = g_strdup (k);
      if (!(s = g_hash_table_lookup (made, metric)))
        {
          char *name = g_strdup (metric);
          s = g_new0 (IvMetricSummary, 1);
          s->avg = s->min = s->max = s->std = s->count = NAN;
          s->p1 = s->p5 = s->p10 = s->p25 = s->p50 = s->p75 = s->p90 = s->p95 = s->p99 = NAN;
          s->source = IV_STATS_SUMMARY;
          g_hash_table_insert (made, name, s);
          g_ptr_array_add (order, name);
        }
      if (!s->unit && a->unit && *a->unit)
        s->unit = g_strdup (a->unit);
      if ((slot = g_str_equal (stat, "count") ? &s->count : iv_metric_summary_stat (s, stat)))
        *slot = a->mean;
    }
  /* in name order: the aggregate is a hash of its keys, and a run's metrics have an order */
  g_ptr_array_sort (order, compare_names);
  for (guint i = 0; i < order->len; i++)
    {
      IvMetricSummary *s = g_hash_table_lookup (made, order->pdata[i]);
      if (!s->unit)
        s->unit = g_strdup ("");
      _iv_run_add_summary (r, g_strdup (order->pdata[i]), s);
    }
}

/* metadata.variation_values of a cell of a sweep ({"phases.profiling.concurrency": 8}):
 * what aiperf plot's _plumb_variation_values_into_input_config takes (the concurrency),
 * and the request rate the same way. */
static void
read_variation (IvRun *r, JsonObject *values)
{
  g_autoptr (GList) members = values ? json_object_get_members (values) : NULL;

  for (GList *l = members; l; l = l->next)
    {
      const char *leaf = strrchr (l->data, '.') ? strrchr (l->data, '.') + 1 : l->data;
      double v = number (values, l->data);
      if (g_str_equal (leaf, "concurrency") && isnan (r->concurrency) && v >= 1)
        r->concurrency = v;
      else if ((g_str_equal (leaf, "rate") || g_str_equal (leaf, "request_rate"))
               && isnan (r->request_rate) && v > 0)
        r->request_rate = v;
    }
}

static gboolean
load_aggregate (IvRun *r, const char *path, gboolean here, GError **error)
{
  g_autoptr (JsonNode) root = read_json (path, error);
  g_autoptr (GList) members = NULL;
  JsonObject *o, *metrics, *meta;
  g_autofree char *trials_dir = NULL;

  if (!root)
    return FALSE;
  o = json_node_get_object (root);
  /* AggregateConfidenceJsonExporter nests the statistics under "metrics" beside a
   * "metadata" block (since its first version); a flat file of statistics is read too */
  metrics = iv_json_object (o, "metrics");
  meta = iv_json_object (o, "metadata");
  if (!metrics)
    metrics = o;
  members = json_object_get_members (metrics);
  for (GList *l = members; l; l = l->next)
    {
      JsonObject *s = iv_json_object (metrics, l->data);
      IvAggregateStat *a;
      if (!s || isnan (number (s, "mean")))
        continue;
      a = g_new0 (IvAggregateStat, 1);
      a->unit = g_strdup (iv_json_string (s, "unit"));
      a->mean = number (s, "mean"), a->std = number (s, "std"), a->min = number (s, "min");
      a->max = number (s, "max"), a->cv = number (s, "cv"), a->se = number (s, "se");
      a->ci_low = number (s, "ci_low"), a->ci_high = number (s, "ci_high");
      g_hash_table_replace (r->aggregate, g_strdup (l->data), a);
    }
  if (meta)
    {
      double v;
      g_free (r->aggregation_type);
      r->aggregation_type = g_strdup (iv_json_string (meta, "aggregation_type"));
      if ((v = number (meta, "num_profile_runs")) >= 0 && v < 1e9)
        r->n_profile_runs = (guint) v;
      if ((v = number (meta, "num_successful_runs")) >= 0 && v < 1e9)
        r->n_successful_runs = (guint) v;
      r->confidence_level = number (meta, "confidence_level");
      /* the model is stamped so that a cell without input_config is labelled */
      if (!r->model && iv_json_string (meta, "model"))
        r->model = g_strdup (iv_json_string (meta, "model"));
      read_variation (r, iv_json_object (meta, "variation_values"));
    }
  if (here)
    {
      /* a cell that is only its aggregate: the trials are elsewhere (REPEATED:
       * <base>/profile_runs/trial_NNNN/<cell>/), counted by the metadata */
      r->aggregate_only = TRUE;
      r->n_trials = r->n_successful_runs ? r->n_successful_runs : r->n_profile_runs;
    }
  else
    {
      /* The trials: profile_runs/run_NNNN/ or trial_NNNN/ beside aggregate/. */
      trials_dir = g_build_filename (r->path, "profile_runs", NULL);
      g_autofree char *first = NULL, *first_name = NULL;
      for (int k = 0; k < 2; k++)
        {
          const char *parent = k ? r->path : trials_dir;
          g_autoptr (GDir) d = g_dir_open (parent, 0, NULL);
          const char *name;
          while (d && (name = g_dir_read_name (d)))
            if (g_str_has_prefix (name, "trial_") || (!k && g_str_has_prefix (name, "run_")))
              {
                r->n_trials++;
                if (!first_name || g_strcmp0 (name, first_name) < 0)
                  {
                    g_free (first), g_free (first_name);
                    first = g_build_filename (parent, name, NULL);
                    first_name = g_strdup (name);
                  }
              }
        }
      /* An aggregated run has no summary of its own: its configuration is its trials'. */
      if (first && !r->model && isnan (r->concurrency) && isnan (r->request_rate))
        {
          g_autofree char *summary = g_build_filename (first, "profile_export_aiperf.json", NULL);
          g_autoptr (JsonNode) trial
              = g_file_test (summary, G_FILE_TEST_IS_REGULAR) ? read_json (summary, NULL) : NULL;
          if (trial && iv_json_object (json_node_get_object (trial), "input_config"))
            read_config (r, iv_json_object (json_node_get_object (trial), "input_config"));
        }
    }
  /* without a summary of its own, the trials' means are its statistics */
  if (g_hash_table_size (r->summary) == 0)
    summary_from_aggregate (r);
  return TRUE;
}

/* A combination's parameters as aiperf names its cell folder: "{leaf}_{value}" joined by
 * "__" ("concurrency_10__isl_512"). */
static char *
cell_name (JsonObject *params)
{
  g_autoptr (GList) members = params ? json_object_get_members (params) : NULL;
  GString *name = g_string_new (NULL);

  for (GList *l = members; l; l = l->next)
    {
      const char *leaf = strrchr (l->data, '.') ? strrchr (l->data, '.') + 1 : l->data;
      JsonNode *v = json_object_get_member (params, l->data);
      g_autofree char *text = NULL;
      if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
        text = g_strdup (json_node_get_string (v));
      else if (JSON_NODE_HOLDS_VALUE (v))
        text = g_strdup_printf ("%.10g", json_node_get_double (v));
      else
        continue;
      if (name->len)
        g_string_append (name, "__");
      g_string_append_printf (name, "%s_%s", leaf, text);
    }
  return g_string_free (name, FALSE);
}

/* profile_export_aiperf_sweep.json (AggregateSweepJsonExporter; its schema in aiperf's
 * docs/api/sweep-aggregates.md): per_combination_metrics [{parameters, metrics}] with the
 * metrics flattened like a confidence aggregate's ("request_throughput_avg": {mean, …}). */
static gboolean
load_sweep_aggregate (IvRun *r, const char *path, GError **error)
{
  g_autoptr (JsonNode) root = read_json (path, error);
  JsonArray *combos, *pareto;
  JsonObject *o;

  if (!root)
    return FALSE;
  o = json_node_get_object (root);
  combos = iv_json_array (o, "per_combination_metrics");
  r->sweep_cells = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_run_free);
  for (guint i = 0; combos && i < json_array_get_length (combos); i++)
    {
      JsonNode *cn = json_array_get_element (combos, i);
      JsonObject *c = JSON_NODE_HOLDS_OBJECT (cn) ? json_node_get_object (cn) : NULL;
      JsonObject *params = iv_json_object (c, "parameters"),
                 *metrics = iv_json_object (c, "metrics");
      g_autoptr (GList) members = metrics ? json_object_get_members (metrics) : NULL;
      g_autofree char *name = NULL;
      IvRun *cell;
      if (!params || !metrics)
        continue;
      name = cell_name (params);
      cell = _iv_run_new (r->path);
      g_free (cell->name);
      cell->name = *name ? g_steal_pointer (&name) : g_strdup_printf ("combination_%u", i + 1);
      cell->prefix = g_strdup ("profile_export");
      cell->aggregate_only = TRUE;
      cell->aggregation_type = g_strdup ("sweep");
      read_variation (cell, params);
      for (GList *l = members; l; l = l->next)
        {
          JsonObject *m = iv_json_object (metrics, l->data);
          IvAggregateStat *a;
          if (!m || isnan (number (m, "mean")))
            continue;
          a = g_new0 (IvAggregateStat, 1);
          a->unit = g_strdup (iv_json_string (m, "unit"));
          a->mean = number (m, "mean"), a->std = number (m, "std"), a->min = number (m, "min");
          a->max = number (m, "max"), a->cv = number (m, "cv"), a->se = number (m, "se");
          a->ci_low = number (m, "ci_low"), a->ci_high = number (m, "ci_high");
          g_hash_table_replace (cell->aggregate, g_strdup (l->data), a);
        }
      summary_from_aggregate (cell);
      g_ptr_array_add (r->sweep_cells, cell);
    }
  pareto = iv_json_array (o, "pareto_optimal");
  for (guint i = 0; pareto && i < json_array_get_length (pareto); i++)
    {
      JsonNode *pn = json_array_get_element (pareto, i);
      g_autofree char *name
          = JSON_NODE_HOLDS_OBJECT (pn) ? cell_name (json_node_get_object (pn)) : NULL;
      if (!name || !*name)
        continue;
      if (!r->sweep_pareto)
        r->sweep_pareto = g_steal_pointer (&name);
      else
        {
          char *joined = g_strdup_printf ("%s, %s", r->sweep_pareto, name);
          g_free (r->sweep_pareto);
          r->sweep_pareto = joined;
        }
    }
  return TRUE;
}

/* ---------- the run ---------- */

static char *
run_folder (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_strdup (path);
  /* A file of a run opens its run; aggregate/… opens the run above it. */
  {
    g_autofree char *dir = g_path_get_dirname (path);
    g_autofree char *base = g_path_get_basename (dir);
    if (g_str_equal (base, "aggregate"))
      return g_path_get_dirname (dir);
    return g_steal_pointer (&dir);
  }
}

/* The run's documents — its summary (JSON, else CSV), time slices and aggregate — and
 * what follows from them. A followed run reads them when AIPerf has written them. */
static gboolean
load_documents (IvRun *r, const RunFiles *f, GError **error)
{
  const char *summary = f->summary ? f->summary : f->csv_summary;
  gboolean ok = TRUE;

  if (summary)
    {
      g_autoptr (IvInput) in = iv_input_open (summary, error);
      ok = in
           && (f->summary ? _iv_run_load_summary (r, in, error)
                          : _iv_run_load_summary_csv (r, in, error));
    }
  if (ok && f->timeslices)
    {
      g_autoptr (IvInput) in = iv_input_open (f->timeslices, error);
      ok = in && _iv_run_load_timeslices (r, in, error);
    }
  if (ok && f->timeslices_csv)
    {
      g_autoptr (IvInput) in = iv_input_open (f->timeslices_csv, error);
      ok = in && _iv_run_load_timeslices_csv (r, in, error);
    }
  if (ok && f->aggregate)
    ok = load_aggregate (r, f->aggregate, f->aggregate_here, error);
  if (ok && f->sweep && !f->summary && !f->records)
    ok = load_sweep_aggregate (r, f->sweep, error);
  if (ok && (f->server_metrics || f->server_summary || f->server_parquet))
    {
      /* the server's metrics are beside the run's: a damaged file costs them, not the run */
      g_autoptr (GError) local = NULL;
      iv_server_metrics_free (r->server);
      r->server = iv_server_metrics_load_all (f->server_metrics, f->server_metadata,
                                              f->server_summary, f->server_parquet, &local);
      if (!r->server)
        _iv_run_warn (r, _ ("server metrics not read: %s"), local->message);
      else if (r->server->parquet_problem)
        _iv_run_warn (r, _ ("%s (the other server-metrics files are read)"),
                      r->server->parquet_problem);
      else if (r->server->damaged)
        {
          g_autofree char *display = g_filename_display_name (f->server_metrics);
          _iv_run_warn (r, _ ("%s: %" G_GUINT64_FORMAT " damaged lines of server metrics skipped"),
                        display, r->server->damaged);
        }
    }
  return ok;
}

/* What a loaded run says about itself once every file is read. */
static void
conclude (IvRun *r, const RunFiles *f)
{
  if (!r->has_records && g_hash_table_size (r->summary) > 0)
    {
      /* say so: per-request figures cannot be drawn, statistics are the summary's */
      g_autofree char *records = g_strdup_printf ("%s.jsonl", r->prefix);
      if (!f->records)
        _iv_run_warn (
            r,
            _ ("%s: no per-request records (%s): the numbers are the summary's, and figures "
               "of requests over time are not drawn"),
            r->name, records);
      else if (!r->records_lines)
        _iv_run_warn (
            r,
            _ ("%s: %s is empty: the numbers are the summary's, and figures of requests over "
               "time are not drawn"),
            r->name, records);
    }
  if (isnan (r->duration_s) && r->t1_ns > r->t0_ns)
    r->duration_s = (r->t1_ns - r->t0_ns) * 1e-9;
  if (r->n_requests == 0 && r->has_records)
    g_ptr_array_add (
        r->warnings,
        g_strdup_printf (_ ("%s: no request of the profiling phase (%" G_GSIZE_FORMAT " warm-up)"),
                         r->name, r->n_warmup));
}

void
_iv_run_find_streams (const char *dir, char **records, char **telemetry)
{
  RunFiles f = { 0 };

  find_files (dir, &f);
  *records = g_steal_pointer (&f.records);
  *telemetry = g_steal_pointer (&f.telemetry);
  run_files_clear (&f);
}

/* A run being written has per-request records (plain: AIPerf does not compress as it
 * writes) and nothing AIPerf writes at the end. */
static gboolean
files_are_live (const RunFiles *f)
{
  g_autofree char *bare = f->records ? iv_sniff_strip_compression (f->records) : NULL;
  return bare && g_str_equal (bare, f->records) && !f->summary && !f->csv_summary && !f->aggregate
         && !f->timeslices && !f->timeslices_csv;
}

gboolean
_iv_run_is_complete (const char *dir)
{
  RunFiles f = { 0 };
  gboolean done;

  find_files (dir, &f);
  done = !files_are_live (&f);
  run_files_clear (&f);
  return done;
}

gboolean
_iv_run_complete (IvRun *r, GError **error)
{
  RunFiles f = { 0 };
  gboolean ok;

  find_files (r->path, &f);
  if (f.summary)
    g_clear_pointer (&f.csv_summary, g_free);
  ok = load_documents (r, &f, error);
  if (ok)
    conclude (r, &f);
  run_files_clear (&f);
  return ok;
}

IvRun *
iv_run_load (const char *path, IvProgressFunc progress, gpointer progress_data,
             GCancellable *cancellable, GError **error)
{
  return iv_run_load_full (path, IV_RUN_LOAD_DEFAULT, progress, progress_data, cancellable, error);
}

IvRun *
iv_run_load_full (const char *path, IvRunLoadFlags flags, IvProgressFunc progress,
                  gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree char *dir = run_folder (path);
  g_autoptr (IvRun) r = _iv_run_new (dir);
  RunFiles f = { 0 };
  gboolean ok = TRUE;

  find_files (dir, &f);
  /* the CSV summary stands in only for a missing JSON one */
  if (f.summary)
    g_clear_pointer (&f.csv_summary, g_free);
  if (!f.records && !f.summary && !f.csv_summary && !f.aggregate && !f.sweep)
    {
      g_autofree char *display = g_filename_display_name (dir);
      g_set_error (
          error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
          _ ("%s: not an AIPerf run (no profile_export.jsonl, profile_export_aiperf.json or "
             "aggregate/profile_export_aiperf_aggregate.json)"),
          display);
      run_files_clear (&f);
      return NULL;
    }
  r->prefix = g_strdup (f.prefix ? f.prefix : "profile_export");
  if ((flags & IV_RUN_LOAD_FOLLOW) && files_are_live (&f))
    {
      /* the complete lines written so far; the rest as it comes (iv_run_follow) */
      ok = _iv_run_live_start (r, f.records, f.telemetry, progress, progress_data, cancellable,
                               error);
      run_files_clear (&f);
      return ok ? g_steal_pointer (&r) : NULL;
    }
  /* Each file in turn; the first that fails is the error. */
  if (f.records)
    {
      g_autoptr (IvInput) in = iv_input_open (f.records, error);
      ok = in && _iv_run_load_records (r, in, progress, progress_data, cancellable, error);
    }
  if (ok)
    ok = load_documents (r, &f, error);
  if (ok && f.telemetry)
    {
      g_autoptr (IvInput) in = iv_input_open (f.telemetry, error);
      ok = in && _iv_run_load_telemetry (r, in, cancellable, error);
    }
  if (ok && f.records && !r->has_records && g_hash_table_size (r->summary) == 0 && !f.aggregate
      && !f.sweep)
    {
      /* nothing usable at all: an error, not an empty run */
      g_autofree char *display = g_filename_display_name (f.records);
      if (r->damaged_lines > 0 && r->warnings->len > 0)
        /* what the reader said of the lines it skipped (damaged, too long) is the reason */
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _ ("%s: every line is damaged, and there is no summary beside it (%s)"),
                     display, (const char *) r->warnings->pdata[r->warnings->len - 1]);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     r->records_lines
                         ? _ ("%s: every line is damaged, and there is no summary beside it")
                         : _ ("%s: the file is empty, and there is no summary beside it"),
                     display);
      ok = FALSE;
    }
  if (ok)
    conclude (r, &f);
  run_files_clear (&f);
  return ok ? g_steal_pointer (&r) : NULL;
}
