/* iv-trace-launch.c: kernel launch statistics and queue length (see the header). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-launch.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "iv-json-doc.h"
#include "iv-trace-queue.h"

static const char *const launch_names[] = {
  "cudaLaunchKernel",
  "cudaLaunchKernelExC",
  "cuLaunchKernel",
  "cuLaunchKernelEx",
  "cudaMemcpyAsync",
  "cudaMemsetAsync",
  "runFunction - job_prep_and_submit_for_execution",
  "hipLaunchKernel",
  "hipExtModuleLaunchKernel",
  "hipMemsetAsync",
  "hipMemcpyAsync",
  "hipMemcpyWithStream",
  NULL,
};

gboolean
iv_trace_is_launch_name (const char *name)
{
  for (guint i = 0; name && launch_names[i]; i++)
    if (strcmp (name, launch_names[i]) == 0)
      return TRUE;
  return FALSE;
}

static int
by_value (const void *a, const void *b)
{
  gint64 u = *(const gint64 *) a, v = *(const gint64 *) b;
  return (u > v) - (u < v);
}

/* The mean, median, 95th percentile (nearest rank) and maximum of @v (sorted here). */
static IvLaunchSummary
summarize (gint64 *v, gsize n)
{
  IvLaunchSummary s = { 0 };
  double sum = 0;

  if (n == 0)
    return s;
  qsort (v, n, sizeof *v, by_value);
  for (gsize i = 0; i < n; i++)
    sum += (double) v[i];
  s.mean_ns = (gint64) (sum / (double) n + 0.5);
  s.p50_ns = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.p95_ns = v[MIN (n - 1, (gsize) ((n * 95 + 99) / 100) - 1)];
  s.max_ns = v[n - 1];
  return s;
}

static int
by_work_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const IvTrace *t = data;
  gint64 u = t->start_ns[((const IvLaunch *) a)->work],
         v = t->start_ns[((const IvLaunch *) b)->work];
  return (u > v) - (u < v);
}

/* HTA's summary of each stream's series (get_queue_length_summary: describe() of the
 * values at the changes), and each value weighted by how long it lasted, from the first
 * change in the range to the last. */
static void
queue_stats (IvLaunchStats *st)
{
  for (guint i = 0; i < st->queue_series->len; i++)
    {
      const IvQueueSeries *s = st->queue_series->pdata[i];
      IvQueueStats q = { s->track };
      gint64 weighted = 0, span;
      double sum = 0;
      if (s->points->len == 0)
        continue;
      for (guint j = 0; j < s->points->len; j++)
        {
          const IvQueuePoint *p = &g_array_index (s->points, IvQueuePoint, j);
          if (j > 0)
            {
              const IvQueuePoint *prev = &g_array_index (s->points, IvQueuePoint, j - 1);
              weighted += prev->length * (p->ts_ns - prev->ts_ns);
            }
          sum += (double) p->length;
        }
      q.max = s->max;
      q.changes = s->points->len;
      q.mean_at_changes = sum / s->points->len;
      span = g_array_index (s->points, IvQueuePoint, s->points->len - 1).ts_ns
             - g_array_index (s->points, IvQueuePoint, 0).ts_ns;
      q.time_weighted = span > 0 ? (double) weighted / (double) span : 0;
      g_array_append_val (st->queues, q);
    }
}

/* A launch of @call enqueuing @work, unless either did not end. Every launch of the
 * trace: the queue of a range counts work enqueued before it; the range is applied after. */
static void
add_launch (const IvTrace *t, GArray *launches, gsize call, gsize work)
{
  IvLaunch l;
  gint64 end;

  if (iv_trace_slice_is_open (t, call) || iv_trace_slice_is_open (t, work))
    return;
  l.call = call, l.work = work;
  l.cpu_ns = t->dur_ns[call];
  l.gpu_ns = t->dur_ns[work];
  end = t->start_ns[call] + t->dur_ns[call];
  l.delay_ns = MAX (0, t->start_ns[work] - end);
  g_array_append_val (launches, l);
}

/* Only the launches whose work starts in [t0, t1) stay, and the outliers are counted. */
static void
keep_range (const IvTrace *t, IvLaunchStats *st, gint64 t0, gint64 t1)
{
  guint kept = 0;

  for (guint i = 0; i < st->launches->len; i++)
    {
      IvLaunch l = g_array_index (st->launches, IvLaunch, i);
      if (t->start_ns[l.work] < t0 || t->start_ns[l.work] >= t1)
        continue;
      st->runtime_outliers += l.cpu_ns > IV_LAUNCH_RUNTIME_CUTOFF_NS;
      st->delay_outliers += l.delay_ns > IV_LAUNCH_DELAY_CUTOFF_NS;
      st->short_kernels += l.cpu_ns <= IV_LAUNCH_RUNTIME_CUTOFF_NS && l.gpu_ns < l.cpu_ns;
      g_array_index (st->launches, IvLaunch, kept++) = l;
    }
  g_array_set_size (st->launches, kept);
}

typedef struct
{
  const guint8 *is_launch;
  GHashTable *calls; /* correlation id → the runtime call's slice + 1 */
  GArray *works;     /* (slice, correlation) of the GPU work, as gint64 pairs */
} Correlations;

/* The "correlation" argument as an integer (Kineto writes it on the runtime call and on
 * the work it enqueued), or FALSE. */
static gboolean
correlation_of (const char *json, gint64 *out)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root, *n;
  guint line, column;

  /* json-glib recurses: the depth is checked first, as everywhere (iv-json-doc.h) */
  if (!iv_json_check_depth (json, strlen (json), IV_JSON_MAX_DEPTH, &line, &column)
      || !json_parser_load_from_data (parser, json, -1, NULL)
      || !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root)
      || !(n = json_object_get_member (json_node_get_object (root), "correlation"))
      || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (n);
  return TRUE;
}

static void
read_correlation (const IvTrace *t, gsize slice, const char *json, gpointer data)
{
  Correlations *c = data;
  gint64 id;

  if (!correlation_of (json, &id))
    return;
  if (c->is_launch[t->name[slice]])
    g_hash_table_insert (c->calls, g_memdup2 (&id, sizeof id), GSIZE_TO_POINTER (slice + 1));
  else
    {
      gint64 pair[2] = { (gint64) slice, id };
      g_array_append_vals (c->works, pair, 2);
    }
}

/* Without flows: HTA's own join (cuda_kernel_analysis.py merges the runtime calls and the
 * kernels on args.correlation), the arguments read back from the file in one pass. A
 * trace whose file cannot be read again (a joined distributed job) gets none. */
static void
launches_by_correlation (const IvTrace *t, GArray *launches, const guint8 *is_launch)
{
  g_autoptr (GArray) slices = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GHashTable) calls = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GArray) works = g_array_new (FALSE, FALSE, sizeof (gint64));
  Correlations c = { is_launch, calls, works };
  gboolean any_call = FALSE;

  for (gsize s = 0; s < t->n_slices; s++)
    if (is_launch[t->name[s]] || iv_trace_slice_row_kind (t, s) == IV_ROW_GPU_WORK)
      {
        g_array_append_val (slices, s);
        any_call |= is_launch[t->name[s]];
      }
  /* no runtime call: nothing to join, the file is not read again */
  if (!any_call
      || !iv_trace_args_foreach (t, (const gsize *) (gpointer) slices->data, slices->len,
                                 read_correlation, &c, NULL))
    return;
  for (guint i = 0; i + 1 < works->len; i += 2)
    {
      gsize work = (gsize) g_array_index (works, gint64, i);
      gint64 id = g_array_index (works, gint64, i + 1);
      gsize call = GPOINTER_TO_SIZE (g_hash_table_lookup (calls, &id));
      if (call && iv_trace_slice_row_kind (t, work) == IV_ROW_GPU_WORK)
        add_launch (t, launches, call - 1, work);
    }
}

/* The queue series over [t0, t1) from the launches that change it there: one whose call
 * and work both come before the range adds 0 to the level carried in, one that comes after
 * adds nothing (the window's area selection asks on the main thread: its cost follows the
 * range, not the trace). */
static GPtrArray *
queue_series_in (const IvTrace *t, const GArray *launches, gint64 t0, gint64 t1)
{
  g_autoptr (GArray) in = g_array_new (FALSE, FALSE, sizeof (IvLaunch));

  for (guint i = 0; i < launches->len; i++)
    {
      const IvLaunch *l = &g_array_index (launches, IvLaunch, i);
      gint64 a = t->start_ns[l->call], b = t->start_ns[l->work];
      if ((a < t0 && b < t0) || (a >= t1 && b >= t1))
        continue;
      g_array_append_val (in, *l);
    }
  return iv_trace_queue_series (t, in, t0, t1);
}

GArray *
iv_trace_launches (const IvTrace *t, gboolean read_args)
{
  /* as many as there are flows, most often */
  GArray *launches = g_array_sized_new (FALSE, FALSE, sizeof (IvLaunch), t->flows->len);
  guint n_names = iv_intern_size (t->strings);
  g_autofree guint8 *is_launch = g_try_new0 (guint8, MAX (n_names, 1));
  gboolean tied_by_flows = FALSE;

  if (!is_launch)
    return launches;
  for (guint i = 0; i < n_names; i++)
    is_launch[i] = iv_trace_is_launch_name (iv_trace_string (t, i));
  for (guint i = 0; i < t->flows->len; i++)
    {
      const IvFlow *f = &g_array_index (t->flows, IvFlow, i);
      if (f->from >= t->n_slices || f->to >= t->n_slices || !is_launch[t->name[f->from]]
          || iv_trace_slice_row_kind (t, f->to) != IV_ROW_GPU_WORK)
        continue;
      tied_by_flows = TRUE;
      add_launch (t, launches, f->from, f->to);
    }
  if (!tied_by_flows && read_args)
    launches_by_correlation (t, launches, is_launch);
  return launches;
}

IvLaunchStats *
iv_trace_launch_stats (const IvTrace *t, gint64 t0, gint64 t1, gboolean read_args)
{
  IvLaunchStats *st = g_new0 (IvLaunchStats, 1);
  g_autofree gint64 *cpu = NULL, *gpu = NULL, *delay = NULL;

  st->launches = iv_trace_launches (t, read_args);
  st->queues = g_array_new (FALSE, FALSE, sizeof (IvQueueStats));
  st->queue_series = queue_series_in (t, st->launches, t0, t1);
  keep_range (t, st, t0, t1);
  g_array_sort_with_data (st->launches, by_work_start, (gpointer) t);
  cpu = g_try_new (gint64, MAX (st->launches->len, 1));
  gpu = g_try_new (gint64, MAX (st->launches->len, 1));
  delay = g_try_new (gint64, MAX (st->launches->len, 1));
  if (cpu && gpu && delay)
    {
      for (guint i = 0; i < st->launches->len; i++)
        {
          const IvLaunch *l = &g_array_index (st->launches, IvLaunch, i);
          cpu[i] = l->cpu_ns, gpu[i] = l->gpu_ns, delay[i] = l->delay_ns;
        }
      st->cpu = summarize (cpu, st->launches->len);
      st->gpu = summarize (gpu, st->launches->len);
      st->delay = summarize (delay, st->launches->len);
    }
  queue_stats (st);
  return st;
}

void
iv_launch_stats_free (IvLaunchStats *st)
{
  if (!st)
    return;
  g_array_unref (st->launches);
  g_array_unref (st->queues);
  g_clear_pointer (&st->queue_series, g_ptr_array_unref);
  g_free (st);
}

static void
summary_json (IvJsonWriter *w, const char *key, const IvLaunchSummary *s)
{
  iv_json_writer_key (w, key);
  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "mean_ns");
  iv_json_writer_int (w, s->mean_ns);
  iv_json_writer_key (w, "p50_ns");
  iv_json_writer_int (w, s->p50_ns);
  iv_json_writer_key (w, "p95_ns");
  iv_json_writer_int (w, s->p95_ns);
  iv_json_writer_key (w, "max_ns");
  iv_json_writer_int (w, s->max_ns);
  iv_json_writer_end_object (w);
}

static int
by_delay_desc (gconstpointer a, gconstpointer b)
{
  gint64 u = ((const IvLaunch *) a)->delay_ns, v = ((const IvLaunch *) b)->delay_ns;
  return (u < v) - (u > v);
}

static void
stream_keys_json (const IvTrace *t, guint track, IvJsonWriter *w)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
  const IvProcess *p = t->processes->pdata[tr->process];

  iv_json_writer_key (w, "pid");
  iv_json_writer_string (w, p->key);
  iv_json_writer_key (w, "tid");
  iv_json_writer_string (w, tr->key);
}

/* One stream's queue as HTA's rows: [ts_ns, length] after each change, decimated past
 * IV_QUEUE_JSON_MAX_POINTS (a million launches would be tens of megabytes of JSON). */
static void
queue_series_json (const IvTrace *t, const IvQueueSeries *s, IvJsonWriter *w)
{
  g_autoptr (GArray) points = iv_queue_series_decimate (s, IV_QUEUE_JSON_MAX_POINTS);

  iv_json_writer_begin_object (w);
  stream_keys_json (t, s->track, w);
  iv_json_writer_key (w, "changes");
  iv_json_writer_int (w, s->points->len);
  iv_json_writer_key (w, "initial");
  iv_json_writer_int (w, s->initial);
  iv_json_writer_key (w, "max");
  iv_json_writer_int (w, s->max);
  iv_json_writer_key (w, "max_ns");
  iv_json_writer_int (w, s->max_ns);
  iv_json_writer_key (w, "decimated");
  iv_json_writer_bool (w, points->len < s->points->len);
  iv_json_writer_key (w, "points");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < points->len; i++)
    {
      const IvQueuePoint *p = &g_array_index (points, IvQueuePoint, i);
      iv_json_writer_begin_array (w);
      iv_json_writer_int (w, p->ts_ns);
      iv_json_writer_int (w, p->length);
      iv_json_writer_end_array (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_end_object (w);
}

void
iv_launch_stats_write_json (const IvTrace *t, const IvLaunchStats *st, IvJsonWriter *w)
{
  g_autoptr (GArray) worst = g_array_copy (st->launches);

  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "count");
  iv_json_writer_int (w, st->launches->len);
  summary_json (w, "cpu_duration", &st->cpu);
  summary_json (w, "gpu_duration", &st->gpu);
  summary_json (w, "launch_delay", &st->delay);
  iv_json_writer_key (w, "runtime_outliers");
  iv_json_writer_int (w, st->runtime_outliers);
  iv_json_writer_key (w, "launch_delay_outliers");
  iv_json_writer_int (w, st->delay_outliers);
  iv_json_writer_key (w, "short_kernels");
  iv_json_writer_int (w, st->short_kernels);
  iv_json_writer_key (w, "longest_delays");
  iv_json_writer_begin_array (w);
  g_array_sort (worst, by_delay_desc);
  for (guint i = 0; i < worst->len && i < 10; i++)
    {
      const IvLaunch *l = &g_array_index (worst, IvLaunch, i);
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "call");
      iv_json_writer_string (w, iv_trace_string (t, t->name[l->call]));
      iv_json_writer_key (w, "kernel");
      iv_json_writer_string (w, iv_trace_string (t, t->name[l->work]));
      iv_json_writer_key (w, "call_start_ns");
      iv_json_writer_int (w, t->start_ns[l->call]);
      iv_json_writer_key (w, "kernel_start_ns");
      iv_json_writer_int (w, t->start_ns[l->work]);
      iv_json_writer_key (w, "delay_ns");
      iv_json_writer_int (w, l->delay_ns);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "queues");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < st->queues->len; i++)
    {
      const IvQueueStats *q = &g_array_index (st->queues, IvQueueStats, i);
      iv_json_writer_begin_object (w);
      stream_keys_json (t, q->track, w);
      iv_json_writer_key (w, "changes");
      iv_json_writer_int (w, q->changes);
      iv_json_writer_key (w, "max");
      iv_json_writer_int (w, q->max);
      iv_json_writer_key (w, "mean_at_changes");
      iv_json_writer_double (w, q->mean_at_changes);
      iv_json_writer_key (w, "time_weighted_mean");
      iv_json_writer_double (w, q->time_weighted);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "queue_series_max_points");
  iv_json_writer_int (w, IV_QUEUE_JSON_MAX_POINTS);
  iv_json_writer_key (w, "queue_series");
  iv_json_writer_begin_array (w);
  for (guint i = 0; st->queue_series && i < st->queue_series->len; i++)
    queue_series_json (t, st->queue_series->pdata[i], w);
  iv_json_writer_end_array (w);
  iv_json_writer_end_object (w);
}
