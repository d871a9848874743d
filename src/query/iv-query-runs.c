/* iv-query-runs.c: the AIPerf runs' tables. run (configuration and counts, a row per run),
 * run_summary (a metric's statistics per run, AIPerf's summary where it has them),
 * request (a row per profiling request, every per-request metric a column named by its
 * tag, in the metric's unit), gpu_sample (a row per GPU telemetry sample, every field a
 * column) and server_sample (the inference server's scraped metrics). Several runs share
 * the tables; run_id tells them apart. Times are nanoseconds. */
#define G_LOG_DOMAIN "iv-query"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-json-writer.h"
#include "iv-query-private.h"

/* Where a row of a table over several runs is: the run, a second index (a GPU, an
 * endpoint), the row within it. */
typedef struct
{
  guint run, sub;
  gsize k;
} Place;

/* request's fixed columns; the metrics follow */
enum
{
  R_RUN,
  R_ID,
  R_NUMBER,
  R_TS,
  R_END,
  R_ACK,
  R_DUR,
  R_WORKER,
  R_STATUS,
  R_N_FIXED,
};

typedef struct
{
  GPtrArray *runs;  /* const IvRun* */
  GArray *requests; /* Place */
  GPtrArray *tags;  /* char*: request's metric columns */
  /* per run, per metric column: the value of each request (double*, NaN: none) or, for
   * list metrics, its values as a JSON array (char**, NULL: none) */
  GPtrArray *values;     /* per run: GPtrArray of (double* | char**) per tag */
  GArray *is_list;       /* gboolean per tag */
  GArray *gpu_rows;      /* Place: run, gpu, sample */
  GPtrArray *gpu_fields; /* char*: gpu_sample's field columns */
  GPtrArray *gpu_map;    /* per run, per gpu: int* (field column → series index, -1) */
  GArray *server_rows;   /* Place: run, endpoint, sample */
  GArray *summary_rows;  /* Summary */
} RunsData;

typedef struct
{
  guint run;
  char *tag;
  IvMetricSummary stats;
} Summary;

static void
runs_data_free (gpointer p)
{
  RunsData *d = p;

  for (guint r = 0; r < d->values->len; r++)
    {
      GPtrArray *cols = d->values->pdata[r];
      const IvRun *run = d->runs->pdata[r];
      for (guint c = 0; c < cols->len; c++)
        {
          if (g_array_index (d->is_list, gboolean, c) && cols->pdata[c])
            {
              char **s = cols->pdata[c];
              for (gsize i = 0; i < run->n_requests; i++)
                g_free (s[i]);
            }
          g_free (cols->pdata[c]);
        }
      g_ptr_array_unref (cols);
    }
  g_ptr_array_unref (d->values);
  g_ptr_array_unref (d->runs);
  g_array_unref (d->requests);
  g_ptr_array_unref (d->tags);
  g_array_unref (d->is_list);
  g_array_unref (d->gpu_rows);
  g_ptr_array_unref (d->gpu_fields);
  for (guint r = 0; r < d->gpu_map->len; r++)
    g_ptr_array_unref (d->gpu_map->pdata[r]);
  g_ptr_array_unref (d->gpu_map);
  g_array_unref (d->server_rows);
  for (guint i = 0; i < d->summary_rows->len; i++)
    {
      Summary *s = &g_array_index (d->summary_rows, Summary, i);
      g_free (s->tag);
      iv_metric_summary_clear (&s->stats);
    }
  g_array_unref (d->summary_rows);
  g_free (d);
}

static RunsData *
data_of (IvQueryTable *t)
{
  return t->data;
}

static const IvRun *
run_of (IvQueryTable *t, guint r)
{
  return data_of (t)->runs->pdata[r];
}

/* ---- run ---- */

static const char *const run_columns[]
    = { "run_id INTEGER",     "name TEXT",         "path TEXT",          "model TEXT",
        "endpoint_type TEXT", "endpoint TEXT",     "url TEXT",           "streaming INTEGER",
        "concurrency REAL",   "request_rate REAL", "request_count REAL", "isl REAL",
        "osl REAL",           "duration_s REAL",   "requests INTEGER",   "errors INTEGER",
        "warmup INTEGER",     "gpus INTEGER",      "incomplete INTEGER", NULL };

static gsize
count_runs (IvQueryTable *t)
{
  return data_of (t)->runs->len;
}

static void
run_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvRun *r = run_of (t, (guint) row);
  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
      _iv_query_result_text (ctx, r->name);
      break;
    case 2:
      _iv_query_result_text (ctx, r->path);
      break;
    case 3:
      _iv_query_result_text (ctx, r->model);
      break;
    case 4:
      _iv_query_result_text (ctx, r->endpoint_type);
      break;
    case 5:
      _iv_query_result_text (ctx, r->endpoint);
      break;
    case 6:
      _iv_query_result_text (ctx, r->url);
      break;
    case 7:
      sqlite3_result_int (ctx, r->streaming != 0);
      break;
    case 8:
      _iv_query_result_double (ctx, r->concurrency);
      break;
    case 9:
      _iv_query_result_double (ctx, r->request_rate);
      break;
    case 10:
      _iv_query_result_double (ctx, r->request_count);
      break;
    case 11:
      _iv_query_result_double (ctx, r->isl);
      break;
    case 12:
      _iv_query_result_double (ctx, r->osl);
      break;
    case 13:
      _iv_query_result_double (ctx, r->duration_s);
      break;
    case 14:
      sqlite3_result_int64 (ctx, (sqlite3_int64) r->n_requests);
      break;
    case 15:
      sqlite3_result_int64 (ctx, (sqlite3_int64) r->n_errors);
      break;
    case 16:
      sqlite3_result_int64 (ctx, (sqlite3_int64) r->n_warmup);
      break;
    case 17:
      sqlite3_result_int64 (ctx, iv_run_gpu_count (r, NULL));
      break;
    default:
      sqlite3_result_int (ctx, r->incomplete != 0);
      break;
    }
}

/* ---- run_summary ---- */

static const char *const summary_columns[]
    = { "run_id INTEGER", "metric TEXT", "unit TEXT",  "source TEXT", "avg REAL",
        "min REAL",       "max REAL",    "std REAL",   "p1 REAL",     "p5 REAL",
        "p10 REAL",       "p25 REAL",    "p50 REAL",   "p75 REAL",    "p90 REAL",
        "p95 REAL",       "p99 REAL",    "count REAL", NULL };

static gsize
count_summary (IvQueryTable *t)
{
  return data_of (t)->summary_rows->len;
}

static void
summary_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const Summary *s = &g_array_index (data_of (t)->summary_rows, Summary, row);
  const IvMetricSummary *m = &s->stats;
  const double stats[] = { m->avg, m->min, m->max, m->std, m->p1,  m->p5,  m->p10,
                           m->p25, m->p50, m->p75, m->p90, m->p95, m->p99, m->count };
  switch (col)
    {
    case 0:
      sqlite3_result_int (ctx, (int) s->run);
      break;
    case 1:
      _iv_query_result_text (ctx, s->tag);
      break;
    case 2:
      _iv_query_result_text (ctx, m->unit);
      break;
    case 3:
      _iv_query_result_text (ctx, m->source == IV_STATS_SUMMARY   ? "summary"
                                  : m->source == IV_STATS_RECORDS ? "records"
                                                                  : "server");
      break;
    default:
      if (col - 4 < (int) G_N_ELEMENTS (stats))
        _iv_query_result_double (ctx, stats[col - 4]);
      else
        sqlite3_result_null (ctx);
      break;
    }
}

/* ---- request ---- */

static gsize
count_requests (IvQueryTable *t)
{
  return data_of (t)->requests->len;
}

static void
request_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  RunsData *d = data_of (t);
  const Place *p = &g_array_index (d->requests, Place, row);
  const IvRun *r = d->runs->pdata[p->run];
  gsize i = p->k;
  guint8 flags = g_array_index (r->flags, guint8, i);
  gint64 start = g_array_index (r->start_ns, gint64, i), end = g_array_index (r->end_ns, gint64, i);

  switch (col)
    {
    case R_RUN:
      sqlite3_result_int (ctx, (int) p->run);
      break;
    case R_ID:
      sqlite3_result_int64 (ctx, (sqlite3_int64) i);
      break;
    case R_NUMBER:
      sqlite3_result_int64 (ctx, iv_run_record_number (r, (guint32) i));
      break;
    case R_TS:
      sqlite3_result_int64 (ctx, start);
      break;
    case R_END:
      sqlite3_result_int64 (ctx, end);
      break;
    case R_ACK:
      {
        gint64 ack = g_array_index (r->ack_ns, gint64, i);
        if (ack < 0)
          sqlite3_result_null (ctx);
        else
          sqlite3_result_int64 (ctx, ack);
        break;
      }
    case R_DUR:
      sqlite3_result_int64 (ctx, end - start);
      break;
    case R_WORKER:
      _iv_query_result_text (ctx,
                             iv_intern_get (r->strings, g_array_index (r->worker, guint32, i)));
      break;
    case R_STATUS:
      sqlite3_result_text (ctx,
                           flags & IV_REQUEST_CANCELLED ? "cancelled"
                           : flags & IV_REQUEST_FAILED  ? "failed"
                                                        : "ok",
                           -1, SQLITE_STATIC);
      break;
    default:
      {
        guint m = (guint) col - R_N_FIXED;
        GPtrArray *cols = d->values->pdata[p->run];
        if (m >= cols->len || !cols->pdata[m])
          sqlite3_result_null (ctx);
        else if (g_array_index (d->is_list, gboolean, m))
          _iv_query_result_text (ctx, ((char **) cols->pdata[m])[i]);
        else
          _iv_query_result_double (ctx, ((double *) cols->pdata[m])[i]);
        break;
      }
    }
}

/* ---- gpu_sample ---- */

static gsize
count_gpu (IvQueryTable *t)
{
  return data_of (t)->gpu_rows->len;
}

static void
gpu_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  RunsData *d = data_of (t);
  const Place *p = &g_array_index (d->gpu_rows, Place, row);
  const IvRun *r = d->runs->pdata[p->run];
  const IvGpu *g = r->gpus->pdata[p->sub];

  switch (col)
    {
    case 0:
      sqlite3_result_int (ctx, (int) p->run);
      break;
    case 1:
      sqlite3_result_int (ctx, g->index);
      break;
    case 2:
      _iv_query_result_text (ctx, g->uuid);
      break;
    case 3:
      _iv_query_result_text (ctx, g->hostname);
      break;
    case 4:
      sqlite3_result_int64 (ctx, g_array_index (g->ts_ns, gint64, p->k));
      break;
    default:
      {
        const int *map = ((GPtrArray *) d->gpu_map->pdata[p->run])->pdata[p->sub];
        int s = map[col - 5];
        const GArray *series = s >= 0 ? g->series->pdata[s] : NULL;
        if (series && p->k < series->len)
          _iv_query_result_double (ctx, g_array_index (series, double, p->k));
        else
          sqlite3_result_null (ctx);
        break;
      }
    }
}

/* ---- server_sample ---- */

static const char *const server_columns[] = { "run_id INTEGER",
                                              "endpoint TEXT",
                                              "ts INTEGER",
                                              "running REAL",
                                              "waiting REAL",
                                              "kv_usage REAL",
                                              "prefix_hit REAL",
                                              "gen_rate REAL",
                                              "prompt_rate REAL",
                                              "queue_time REAL",
                                              NULL };

static gsize
count_server (IvQueryTable *t)
{
  return data_of (t)->server_rows->len;
}

static void
server_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  RunsData *d = data_of (t);
  const Place *p = &g_array_index (d->server_rows, Place, row);
  const IvRun *r = d->runs->pdata[p->run];
  const IvServerEndpoint *e = r->server->endpoints->pdata[p->sub];

  switch (col)
    {
    case 0:
      sqlite3_result_int (ctx, (int) p->run);
      break;
    case 1:
      _iv_query_result_text (ctx, e->url);
      break;
    case 2:
      sqlite3_result_int64 (ctx, g_array_index (e->ts_ns, gint64, p->k));
      break;
    default:
      {
        const GArray *v = e->values[col - 3];
        if (v && p->k < v->len)
          _iv_query_result_double (ctx, g_array_index (v, double, p->k));
        else
          sqlite3_result_null (ctx);
        break;
      }
    }
}

/* ---- building ---- */

/* @name added to @names (a column) unless a column of that name, in any case, is there:
 * SQLite's names are case-insensitive. @fixed: the table's own columns. Returns its
 * index in @names, or -1 when it clashes with a fixed column. */
static int
add_name (GPtrArray *names, const char *const *fixed, const char *name)
{
  for (guint i = 0; fixed[i]; i++)
    {
      gsize len = strcspn (fixed[i], " ");
      if (strlen (name) == len && g_ascii_strncasecmp (fixed[i], name, len) == 0)
        return -1;
    }
  for (guint i = 0; i < names->len; i++)
    if (g_ascii_strcasecmp (names->pdata[i], name) == 0)
      return (int) i;
  g_ptr_array_add (names, g_strdup (name));
  return (int) names->len - 1;
}

/* SQLite's tables hold at most 2000 columns (SQLITE_MAX_COLUMN): metrics and telemetry
 * fields past this many are left out of the tables, the first ones kept. */
#define MAX_DYNAMIC_COLUMNS 1500

static const char *const request_fixed[]
    = { "run_id INTEGER", "id INTEGER",  "record_number INTEGER", "ts INTEGER",  "end_ts INTEGER",
        "ack_ts INTEGER", "dur INTEGER", "worker TEXT",           "status TEXT", NULL };

static const char *const gpu_fixed[]
    = { "run_id INTEGER", "gpu INTEGER", "uuid TEXT", "hostname TEXT", "ts INTEGER", NULL };

static void
build_requests (RunsData *d)
{
  for (guint r = 0; r < d->runs->len; r++)
    {
      const IvRun *run = d->runs->pdata[r];
      for (guint m = 0; m < run->metrics->len; m++)
        {
          const IvRunMetric *metric = run->metrics->pdata[m];
          int c;
          if (d->tags->len >= MAX_DYNAMIC_COLUMNS)
            break;
          c = add_name (d->tags, request_fixed, metric->tag);
          if (c >= 0 && (guint) c >= d->is_list->len)
            g_array_set_size (d->is_list, (guint) c + 1);
          /* a list in any run: a list column in every run, so one column holds one kind */
          if (c >= 0)
            g_array_index (d->is_list, gboolean, c) |= metric->list;
        }
      for (gsize i = 0; i < run->n_requests; i++)
        {
          Place p = { r, 0, i };
          g_array_append_val (d->requests, p);
        }
    }
  for (guint r = 0; r < d->runs->len; r++)
    {
      const IvRun *run = d->runs->pdata[r];
      GPtrArray *cols = g_ptr_array_new ();
      g_ptr_array_set_size (cols, (gint) d->tags->len);
      for (guint c = 0; c < d->tags->len; c++)
        {
          const IvRunMetric *metric = iv_run_get_metric (run, d->tags->pdata[c]);
          gsize n = run->n_requests;
          if (!metric || !metric->values || !metric->request || n == 0)
            continue;
          if (g_array_index (d->is_list, gboolean, c))
            {
              /* a list metric's values of one request, in order, as a JSON array */
              char **text = g_new0 (char *, n);
              GPtrArray *writers = g_ptr_array_new ();
              g_ptr_array_set_size (writers, (gint) n);
              for (guint v = 0; v < metric->values->len && v < metric->request->len; v++)
                {
                  guint32 q = g_array_index (metric->request, guint32, v);
                  if (q >= n)
                    continue;
                  if (!writers->pdata[q])
                    {
                      writers->pdata[q] = iv_json_writer_new (FALSE);
                      iv_json_writer_begin_array (writers->pdata[q]);
                    }
                  iv_json_writer_double (writers->pdata[q],
                                         g_array_index (metric->values, double, v));
                }
              for (gsize q = 0; q < n; q++)
                if (writers->pdata[q])
                  {
                    iv_json_writer_end_array (writers->pdata[q]);
                    text[q] = iv_json_writer_finish (writers->pdata[q]);
                  }
              g_ptr_array_unref (writers);
              cols->pdata[c] = text;
            }
          else
            {
              double *v = g_new (double, n);
              for (gsize q = 0; q < n; q++)
                v[q] = NAN;
              for (guint k = 0; k < metric->values->len && k < metric->request->len; k++)
                {
                  guint32 q = g_array_index (metric->request, guint32, k);
                  if (q < n)
                    v[q] = g_array_index (metric->values, double, k);
                }
              cols->pdata[c] = v;
            }
        }
      g_ptr_array_add (d->values, cols);
    }
}

static void
build_gpus (RunsData *d)
{
  for (guint r = 0; r < d->runs->len; r++)
    {
      const IvRun *run = d->runs->pdata[r];
      for (guint g = 0; run->gpus && g < run->gpus->len; g++)
        {
          const IvGpu *gpu = run->gpus->pdata[g];
          for (guint s = 0; gpu->names && s < gpu->names->len; s++)
            if (d->gpu_fields->len < MAX_DYNAMIC_COLUMNS)
              add_name (d->gpu_fields, gpu_fixed, gpu->names->pdata[s]);
        }
    }
  for (guint r = 0; r < d->runs->len; r++)
    {
      const IvRun *run = d->runs->pdata[r];
      GPtrArray *maps = g_ptr_array_new_with_free_func (g_free);
      for (guint g = 0; run->gpus && g < run->gpus->len; g++)
        {
          const IvGpu *gpu = run->gpus->pdata[g];
          int *map = g_new (int, MAX (d->gpu_fields->len, 1));
          for (guint f = 0; f < d->gpu_fields->len; f++)
            {
              map[f] = -1;
              for (guint s = 0; gpu->names && s < gpu->names->len && s < gpu->series->len; s++)
                if (g_ascii_strcasecmp (gpu->names->pdata[s], d->gpu_fields->pdata[f]) == 0)
                  {
                    map[f] = (int) s;
                    break;
                  }
            }
          g_ptr_array_add (maps, map);
          for (gsize k = 0; gpu->ts_ns && k < gpu->ts_ns->len; k++)
            {
              Place p = { r, g, k };
              g_array_append_val (d->gpu_rows, p);
            }
        }
      g_ptr_array_add (d->gpu_map, maps);
    }
}

static void
build_server_and_summary (RunsData *d)
{
  for (guint r = 0; r < d->runs->len; r++)
    {
      const IvRun *run = d->runs->pdata[r];
      g_autoptr (GPtrArray) tags = iv_run_metric_tags (run);

      for (guint e = 0; run->server && run->server->endpoints && e < run->server->endpoints->len;
           e++)
        {
          const IvServerEndpoint *ep = run->server->endpoints->pdata[e];
          for (gsize k = 0; ep->ts_ns && k < ep->ts_ns->len; k++)
            {
              Place p = { r, e, k };
              g_array_append_val (d->server_rows, p);
            }
        }
      for (guint i = 0; tags && i < tags->len; i++)
        {
          Summary s = { r, g_strdup (tags->pdata[i]), { 0 } };
          if (iv_run_metric_stats (run, s.tag, &s.stats))
            g_array_append_val (d->summary_rows, s);
          else
            {
              g_free (s.tag);
              iv_metric_summary_clear (&s.stats);
            }
        }
    }
}

static IvQueryTable *
add_table (IvQuery *q, RunsData *d, const char *name, GPtrArray *columns,
           gsize (*count) (IvQueryTable *),
           void (*column) (IvQueryTable *, gsize, int, sqlite3_context *), int id_column)
{
  IvQueryTable *t = _iv_query_table_add_array (q, name, columns, NULL);
  t->data = d;
  t->count = count;
  t->column = column;
  t->id_column = id_column;
  return t;
}

static GPtrArray *
columns_of (const char *const *fixed, GPtrArray *dynamic, const char *type)
{
  GPtrArray *cols = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; fixed[i]; i++)
    g_ptr_array_add (cols, g_strdup (fixed[i]));
  for (guint i = 0; dynamic && i < dynamic->len; i++)
    {
      g_autofree char *quoted = _iv_query_quote (dynamic->pdata[i]);
      g_ptr_array_add (cols, g_strdup_printf ("%s %s", quoted, type));
    }
  return cols;
}

gboolean
_iv_query_add_run_tables (IvQuery *q, GPtrArray *runs, GError **error)
{
  RunsData *d = g_new0 (RunsData, 1);
  IvQueryTable *t;
  g_autoptr (GPtrArray) cols = NULL;
  (void) error;

  d->runs = g_ptr_array_copy (runs, NULL, NULL);
  d->requests = g_array_new (FALSE, FALSE, sizeof (Place));
  d->tags = g_ptr_array_new_with_free_func (g_free);
  d->is_list = g_array_new (FALSE, TRUE, sizeof (gboolean));
  d->values = g_ptr_array_new ();
  d->gpu_rows = g_array_new (FALSE, FALSE, sizeof (Place));
  d->gpu_fields = g_ptr_array_new_with_free_func (g_free);
  d->gpu_map = g_ptr_array_new ();
  d->server_rows = g_array_new (FALSE, FALSE, sizeof (Place));
  d->summary_rows = g_array_new (FALSE, FALSE, sizeof (Summary));
  build_requests (d);
  build_gpus (d);
  build_server_and_summary (d);

  cols = columns_of (run_columns, NULL, NULL);
  t = add_table (q, d, "run", cols, count_runs, run_column, 0);
  t->free_data = runs_data_free; /* the tables share d: the first frees it */
  g_ptr_array_unref (cols);
  cols = columns_of (summary_columns, NULL, NULL);
  add_table (q, d, "run_summary", cols, count_summary, summary_column, -1);
  g_ptr_array_unref (cols);
  cols = columns_of (request_fixed, d->tags, "");
  add_table (q, d, "request", cols, count_requests, request_column, -1);
  g_ptr_array_unref (cols);
  cols = columns_of (gpu_fixed, d->gpu_fields, "REAL");
  add_table (q, d, "gpu_sample", cols, count_gpu, gpu_column, -1);
  g_ptr_array_unref (cols);
  cols = columns_of (server_columns, NULL, NULL);
  add_table (q, d, "server_sample", cols, count_server, server_column, -1);
  return TRUE;
}
