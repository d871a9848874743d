/* iv-run.c: a loaded run's data and lookups (loading is iv-run-loader.c, statistics
 * iv-run-stats.c). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-run.h"
#include "iv-run-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
metric_free (gpointer p)
{
  IvRunMetric *m = p;
  g_free (m->tag);
  g_free (m->unit);
  g_array_unref (m->values);
  g_array_unref (m->request);
  g_free (m);
}

static void
gpu_free (gpointer p)
{
  IvGpu *g = p;
  g_free (g->uuid);
  g_free (g->model);
  g_free (g->hostname);
  g_free (g->url);
  g_array_unref (g->ts_ns);
  g_ptr_array_unref (g->names);
  g_ptr_array_unref (g->series);
  g_free (g);
}

void
_iv_timeslice_free (gpointer p)
{
  IvTimeslice *t = p;
  g_hash_table_unref (t->metrics);
  g_free (t);
}

void
iv_metric_summary_clear (IvMetricSummary *s)
{
  g_clear_pointer (&s->unit, g_free);
}

static void
summary_free (gpointer p)
{
  iv_metric_summary_clear (p);
  g_free (p);
}

static void
aggregate_free (gpointer p)
{
  IvAggregateStat *a = p;
  g_free (a->unit);
  g_free (a);
}

/* An empty run, every number absent. */
IvRun *
_iv_run_new (const char *path)
{
  IvRun *r = g_new0 (IvRun, 1);

  r->path = g_strdup (path);
  r->name = g_path_get_basename (path);
  r->concurrency = r->request_rate = r->request_count = r->isl = r->osl = NAN;
  r->duration_s = NAN;
  r->start_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->ack_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->end_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->worker = g_array_new (FALSE, FALSE, sizeof (guint32));
  r->flags = g_array_new (FALSE, FALSE, sizeof (guint8));
  r->error_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->strings = iv_intern_new ();
  r->metrics = g_ptr_array_new_with_free_func (metric_free);
  r->metric_index = g_hash_table_new (g_str_hash, g_str_equal);
  r->summary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, summary_free);
  /* the table's own keys, in file order: a million metrics keep one copy of each name */
  r->summary_tags = g_ptr_array_new ();
  r->gpus = g_ptr_array_new_with_free_func (gpu_free);
  r->timeslices = g_ptr_array_new_with_free_func (_iv_timeslice_free);
  r->timeslices_csv = g_ptr_array_new_with_free_func (_iv_timeslice_free);
  r->slice_duration_s = r->confidence_level = NAN;
  r->warmup_at = g_array_new (FALSE, FALSE, sizeof (guint32));
  r->tel_ts_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->tel_util = g_array_new (FALSE, FALSE, sizeof (double));
  r->aggregate = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, aggregate_free);
  r->warnings = g_ptr_array_new_with_free_func (g_free);
  r->t0_ns = G_MAXINT64;
  r->t1_ns = G_MININT64;
  return r;
}

/* Adds metric @tag's statistics to the run's summary (both taken); a tag seen before
 * keeps its place and takes the new numbers. */
void
_iv_run_add_summary (IvRun *r, char *tag, IvMetricSummary *s)
{
  IvMetricSummary *old = g_hash_table_lookup (r->summary, tag);

  if (old)
    {
      iv_metric_summary_clear (old);
      *old = *s;
      g_free (s);
      g_free (tag);
      return;
    }
  g_hash_table_insert (r->summary, tag, s);
  g_ptr_array_add (r->summary_tags, tag);
}

/* Adds a per-request metric named @tag (its arrays empty) and returns it. */
IvRunMetric *
_iv_run_add_metric (IvRun *r, const char *tag, gsize len)
{
  IvRunMetric *m = g_new0 (IvRunMetric, 1);

  m->tag = g_strndup (tag, len);
  m->values = g_array_new (FALSE, FALSE, sizeof (double));
  m->request = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (r->metrics, m);
  g_hash_table_insert (r->metric_index, m->tag, GUINT_TO_POINTER (r->metrics->len));
  return m;
}

gsize
iv_run_line_max (char **problem)
{
  const char *text = g_getenv (IV_RUN_LINE_MAX_ENV);
  guint64 mib = IV_RUN_LINE_MAX_MIB;

  if (problem)
    *problem = NULL;
  if (text && *text)
    {
      guint64 v;
      if (g_ascii_string_to_unsigned (text, 10, 1, 65536, &v, NULL))
        mib = v;
      else if (problem)
        *problem = g_strdup_printf (_ ("%s=%s is not a whole number of MiB from 1 to 65536: "
                                       "lines of up to %d MiB are read"),
                                    IV_RUN_LINE_MAX_ENV, text, IV_RUN_LINE_MAX_MIB);
    }
  return (gsize) mib << 20;
}

/* A tag → IvMetricSummary* table, for loaders building IvTimeslices. */
GHashTable *
_iv_run_summary_table_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, summary_free);
}

void
_iv_run_warn (IvRun *r, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_ptr_array_add (r->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

void
iv_run_free (IvRun *r)
{
  if (!r)
    return;
  g_free (r->path);
  g_free (r->name);
  g_free (r->prefix);
  g_free (r->model);
  g_free (r->endpoint_type);
  g_free (r->endpoint);
  g_free (r->url);
  g_array_unref (r->start_ns);
  g_array_unref (r->ack_ns);
  g_array_unref (r->end_ns);
  g_array_unref (r->worker);
  g_array_unref (r->flags);
  g_hash_table_unref (r->error_types);
  iv_intern_free (r->strings);
  g_hash_table_unref (r->metric_index);
  g_ptr_array_unref (r->metrics);
  g_hash_table_unref (r->summary);
  g_ptr_array_unref (r->summary_tags);
  g_ptr_array_unref (r->gpus);
  g_ptr_array_unref (r->timeslices);
  g_ptr_array_unref (r->timeslices_csv);
  g_hash_table_unref (r->aggregate);
  g_free (r->aggregation_type);
  if (r->sweep_cells)
    g_ptr_array_unref (r->sweep_cells);
  g_free (r->sweep_pareto);
  g_array_unref (r->warmup_at);
  g_array_unref (r->tel_ts_ns);
  g_array_unref (r->tel_util);
  g_ptr_array_unref (r->warnings);
  _iv_run_live_free (r->live);
  iv_server_metrics_free (r->server);
  g_free (r);
}

guint
iv_run_record_number (const IvRun *r, guint32 request)
{
  /* warm-up records came before the request when their n_requests was not above it */
  guint lo = 0, hi = r->warmup_at->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (r->warmup_at, guint32, mid) <= request)
        lo = mid + 1;
      else
        hi = mid;
    }
  return request + lo;
}

const IvRunMetric *
iv_run_get_metric (const IvRun *r, const char *tag)
{
  guint at = tag ? GPOINTER_TO_UINT (g_hash_table_lookup (r->metric_index, tag)) : 0;
  return at ? r->metrics->pdata[at - 1] : NULL;
}

const IvMetricSummary *
iv_run_get_summary (const IvRun *r, const char *tag)
{
  return g_hash_table_lookup (r->summary, tag);
}

GPtrArray *
iv_run_metric_tags (const IvRun *r)
{
  GPtrArray *tags = g_ptr_array_new ();

  for (guint i = 0; i < r->metrics->len; i++)
    g_ptr_array_add (tags, ((IvRunMetric *) r->metrics->pdata[i])->tag);
  for (guint i = 0; i < r->summary_tags->len; i++)
    if (!iv_run_get_metric (r, r->summary_tags->pdata[i]))
      g_ptr_array_add (tags, r->summary_tags->pdata[i]);
  /* the server's own, last */
  for (guint q = 0; r->server && q < IV_N_SERVER_QUANTITIES; q++)
    if (r->server->has[q])
      g_ptr_array_add (tags, (gpointer) iv_server_quantity_key (q));
  return tags;
}

const IvGpu *
iv_run_find_gpu (const IvRun *r, const char *uuid)
{
  for (guint i = 0; i < r->gpus->len; i++)
    if (g_str_equal (((IvGpu *) r->gpus->pdata[i])->uuid, uuid))
      return r->gpus->pdata[i];
  return NULL;
}

const GArray *
iv_gpu_get_series (const IvGpu *g, const char *name)
{
  for (guint i = 0; i < g->names->len; i++)
    if (g_str_equal (g->names->pdata[i], name))
      return g->series->pdata[i];
  return NULL;
}
