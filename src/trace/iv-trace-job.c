/* iv-trace-job.c: the ranks of a distributed job joined into one IvTrace (see the
 * header). A rank's processes become one process, "rank N", its tracks keep their order
 * and take their process's name before theirs; times move onto the job's clock by the
 * rank's offset. Arguments stay in the rank files and are not read from the joined trace
 * (one trace names one file). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-job.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "iv-big-alloc.h"
#include "iv-trace-private.h"

typedef struct
{
  gsize slice;
  guint instance;
} SliceInstance;

static int
compare_slice_instance (const void *pa, const void *pb)
{
  const SliceInstance *a = pa, *b = pb;
  return a->slice < b->slice ? -1 : a->slice > b->slice;
}

static int
compare_instant (const void *pa, const void *pb)
{
  const IvInstant *a = pa, *b = pb;
  if (a->ts_ns != b->ts_ns)
    return a->ts_ns < b->ts_ns ? -1 : 1;
  return a->track < b->track ? -1 : a->track > b->track;
}

void
iv_trace_job_free (IvTraceJob *job)
{
  if (!job)
    return;
  iv_trace_ranks_free (job->ranks);
  if (job->trace)
    iv_trace_free (job->trace);
  g_free (job->slice_base);
  g_free (job->track_base);
  g_free (job->sample_base);
  g_free (job->instance_slices);
  if (job->slice_instances)
    g_array_unref (job->slice_instances);
  g_free (job);
}

/* A rank's string ids in the joined pool. */
static guint32 *
map_strings (IvIntern *to, IvIntern *from)
{
  guint n = iv_intern_size (from);
  guint32 *map = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    map[i] = iv_intern_add (to, iv_intern_get (from, i), -1);
  return map;
}

static inline guint32
mapped (const guint32 *map, guint n, guint32 id)
{
  return id < n ? map[id] : id;
}

/* An empty joined trace with room for @n slices and @samples samples (the columns
 * iv_trace_free frees); NULL when the memory cannot be had. */
static IvTrace *
trace_new (gsize n, gsize samples)
{
  gsize blocks = (n + IV_TRACE_COARSE - 1) / IV_TRACE_COARSE;
  gsize m = MAX (n, 1);
  IvTrace *t = g_new0 (IvTrace, 1);

  t->format = IV_TRACE_CHROME;
  t->strings = iv_intern_new ();
  t->processes = _iv_grow_array_new (sizeof (IvProcess *));
  t->tracks = _iv_grow_array_new (sizeof (IvTrack));
  t->rows = _iv_grow_array_new (sizeof (IvRow));
  t->instants = _iv_grow_array_new (sizeof (IvInstant));
  t->series = _iv_grow_array_new (sizeof (IvCounterSeries));
  t->flows = _iv_grow_array_new (sizeof (IvFlow));
  t->candidates = _iv_grow_array_new (sizeof (IvCandidate));
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  t->info = iv_trace_info_new ();
  t->overlap_tolerance_ns = iv_trace_get_overlap_tolerance ();
  t->n_slices = n;
  t->start_ns = iv_big_alloc (m * sizeof (gint64));
  t->dur_ns = iv_big_alloc (m * sizeof (gint64));
  t->self_ns = iv_big_alloc (m * sizeof (gint64));
  t->name = iv_big_alloc (m * sizeof (guint32));
  t->cat = iv_big_alloc (m * sizeof (guint32));
  t->args_off = iv_big_alloc (m * sizeof (guint64));
  t->args_len = iv_big_alloc (m * sizeof (guint32));
  t->row = iv_big_alloc (m * sizeof (guint32));
  t->coarse_start = g_try_new0 (gint64, MAX (blocks, 1));
  t->coarse_max_dur = g_try_new0 (gint64, MAX (blocks, 1));
  t->sample_ns = g_try_new (gint64, MAX (samples, 1));
  t->sample_value = g_try_new (double, MAX (samples, 1));
  t->open_bits = g_try_new0 (guint8, n / 8 + 1);
  if (t->start_ns && t->dur_ns && t->self_ns && t->name && t->cat && t->args_off && t->args_len
      && t->row && t->coarse_start && t->coarse_max_dur && t->sample_ns && t->sample_value
      && t->open_bits)
    return t;
  iv_trace_free (t);
  return NULL;
}

/* What every joined trace does last: instants in time order, the coarse index, the
 * job's extent. */
static void
trace_finish (IvTrace *t, const IvTraceRanks *ranks)
{
  if (t->n_open == 0)
    g_clear_pointer (&t->open_bits, g_free);
  if (t->instants->len)
    qsort (t->instants->data, t->instants->len, sizeof (IvInstant), compare_instant);
  _iv_trace_index_coarse (t);
  t->t0_ns = ranks->t0_ns, t->t1_ns = ranks->t1_ns;
  if (t->t1_ns < t->t0_ns)
    t->t0_ns = t->t1_ns = 0;
}

/* A rank's memory curve named with its rank: every rank has a "memory · GPU 0" (the
 * loader's name, iv-trace-chrome.c), and a job's curves must be told apart wherever they
 * are named (the timeline, the query's counter_track, the statistics). "memory · rank 3 ·
 * GPU 0"; NULL for a name that is not a memory curve's. */
static char *
rank_memory_name (const char *name, int rank)
{
  static const char prefix[] = "memory · ";

  if (!name || !g_str_has_prefix (name, prefix))
    return NULL;
  return g_strdup_printf ("%srank %d · %s", prefix, rank, name + strlen (prefix));
}

/* Copies rank @r's trace into @t after what is there, then frees it. */
static gboolean
join_rank (IvTraceJob *job, guint r, GError **error)
{
  IvTrace *t = job->trace;
  IvRank *rk = job->ranks->ranks->pdata[r];
  IvTrace *src = rk->trace;
  gint64 off = rk->offset_ns;
  guint n_strings = iv_intern_size (src->strings);
  g_autofree guint32 *map = map_strings (t->strings, src->strings);
  gsize sb = job->slice_base[r];
  guint rb = t->rows->len, tb = t->tracks->len;
  guint series_b = t->series->len;
  gsize sample_b = t->n_samples;
  IvProcess *p = g_new0 (IvProcess, 1);
  g_autoptr (GString) labels = g_string_new (NULL);

  job->track_base[r] = tb;
  job->sample_base[r] = sample_b;
  /* the rank's processes as one: its name, and theirs as its labels */
  p->key = g_strdup_printf ("rank %d", rk->rank);
  p->name = g_strdup_printf (_ ("rank %d"), rk->rank);
  for (guint i = 0; i < src->processes->len; i++)
    {
      const IvProcess *q = src->processes->pdata[i];
      g_string_append_printf (labels, "%s%s", labels->len ? " · " : "", q->name ? q->name : q->key);
    }
  p->labels = g_string_free (g_steal_pointer (&labels), FALSE);
  p->sort_index = rk->rank;
  p->kind = IV_PROCESS_OTHER;
  p->gpu_index = -1;
  if (!_iv_grow_array_append (t->processes, &p))
    goto oom_process;
  for (guint i = 0; i < src->tracks->len; i++)
    {
      IvTrack tr = g_array_index (src->tracks, IvTrack, i);
      const IvProcess *q = src->processes->pdata[tr.process];
      char *name = tr.kind == IV_TRACK_COUNTER ? rank_memory_name (tr.name, rk->rank) : NULL;
      if (!name)
        name = src->processes->len > 1 ? g_strdup_printf ("%s · %s", q->name ? q->name : q->key,
                                                          tr.name ? tr.name : tr.key)
                                       : g_strdup (tr.name);
      tr.key = g_strdup_printf ("%s\x1f%s", q->key, tr.key);
      tr.name = name;
      tr.process = r;
      tr.first_row += rb;
      tr.first_series += series_b;
      if (!_iv_grow_array_append (t->tracks, &tr))
        {
          g_free (tr.key), g_free (tr.name);
          goto oom;
        }
    }
  for (guint i = 0; i < src->rows->len; i++)
    {
      IvRow row = g_array_index (src->rows, IvRow, i);
      row.track += tb;
      row.first += sb;
      if (!_iv_grow_array_append (t->rows, &row))
        goto oom;
    }
  for (gsize s = 0; s < src->n_slices; s++)
    {
      t->start_ns[sb + s] = iv_trace_add_ns (src->start_ns[s], off);
      t->dur_ns[sb + s] = src->dur_ns[s];
      t->self_ns[sb + s] = src->self_ns[s];
      t->name[sb + s] = mapped (map, n_strings, src->name[s]);
      t->cat[sb + s] = mapped (map, n_strings, src->cat[s]);
      t->args_off[sb + s] = 0, t->args_len[sb + s] = 0;
      t->row[sb + s] = src->row[s] + rb;
      if (iv_trace_slice_is_open (src, s))
        t->open_bits[(sb + s) / 8] |= (guint8) (1u << ((sb + s) % 8));
    }
  for (guint i = 0; i < src->instants->len; i++)
    {
      IvInstant in = g_array_index (src->instants, IvInstant, i);
      in.ts_ns = iv_trace_add_ns (in.ts_ns, off);
      in.name = mapped (map, n_strings, in.name);
      /* a rank's global instant marks its first track: the ruler is the job's */
      in.track = in.track == G_MAXUINT ? tb : in.track + tb;
      if (in.scope == 'g')
        in.scope = 'p';
      if (src->tracks->len == 0 || !_iv_grow_array_append (t->instants, &in))
        continue;
    }
  for (guint i = 0; i < src->series->len; i++)
    {
      IvCounterSeries cs = g_array_index (src->series, IvCounterSeries, i);
      g_autofree char *named = rank_memory_name (iv_trace_string (src, cs.name), rk->rank);
      cs.name = named ? iv_intern_add (t->strings, named, -1) : mapped (map, n_strings, cs.name);
      cs.track += tb;
      cs.first += sample_b;
      if (!_iv_grow_array_append (t->series, &cs))
        goto oom;
    }
  for (gsize k = 0; k < src->n_samples; k++)
    {
      t->sample_ns[sample_b + k] = iv_trace_add_ns (src->sample_ns[k], off);
      t->sample_value[sample_b + k] = src->sample_value[k];
    }
  t->n_samples += src->n_samples;
  for (guint i = 0; i < src->flows->len; i++)
    {
      IvFlow fl = g_array_index (src->flows, IvFlow, i);
      /* a flow bound to no slice could not be told apart from another rank's */
      if (fl.from == G_MAXSIZE && fl.to == G_MAXSIZE)
        continue;
      fl.from = fl.from == G_MAXSIZE ? G_MAXSIZE : fl.from + sb;
      fl.to = fl.to == G_MAXSIZE ? G_MAXSIZE : fl.to + sb;
      fl.from_ns = iv_trace_add_ns (fl.from_ns, off);
      fl.to_ns = iv_trace_add_ns (fl.to_ns, off);
      fl.name = mapped (map, n_strings, fl.name);
      fl.cat = mapped (map, n_strings, fl.cat);
      if (!_iv_grow_array_append (t->flows, &fl))
        goto oom;
    }
  t->n_dangling_flows += src->n_dangling_flows;
  t->n_async_slices += src->n_async_slices;
  t->max_depth = MAX (t->max_depth, src->max_depth);
  t->truncated = t->truncated || src->truncated;
  t->n_overrun += src->n_overrun;
  t->max_overrun_ns = MAX (t->max_overrun_ns, src->max_overrun_ns);
  t->n_partial += src->n_partial;
  t->n_list_overlaps += src->n_list_overlaps;
  t->n_open += src->n_open;
  for (guint i = 0; i < src->warnings->len; i++)
    g_ptr_array_add (t->warnings, g_strdup_printf (_ ("rank %d: %s"), rk->rank,
                                                   (const char *) src->warnings->pdata[i]));
  /* the copy is made: the rank's own goes, so the job holds each slice once */
  iv_trace_free (g_steal_pointer (&rk->trace));
  return TRUE;

oom_process:
  g_free (p->key), g_free (p->name), g_free (p->labels), g_free (p);
oom:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               _ ("%s: not enough memory to join rank %d to the job's timeline"), rk->path,
               rk->rank);
  return FALSE;
}

/* Which joined slice each collective instance is on each rank. */
static void
index_collectives (IvTraceJob *job)
{
  IvTraceRanks *ranks = job->ranks;
  guint n = ranks->ranks->len, nk = ranks->key_names->len;
  g_autofree gsize *first = g_new0 (gsize, nk + 1);
  gsize m = ranks->instances->len;

  /* instances are by key, then ordinal */
  for (gsize c = 0; c < m; c++)
    {
      const IvCollectiveInstance *ci = &g_array_index (ranks->instances, IvCollectiveInstance, c);
      if (ci->ordinal == 0)
        first[ci->key] = c;
    }
  job->instance_slices = g_new (gsize, MAX (m * n, 1));
  for (gsize i = 0; i < m * n; i++)
    job->instance_slices[i] = G_MAXSIZE;
  job->slice_instances = g_array_new (FALSE, FALSE, sizeof (SliceInstance));
  for (guint r = 0; r < n; r++)
    {
      const IvRank *rk = ranks->ranks->pdata[r];
      for (guint k = 0; k < rk->collectives->len; k++)
        {
          const IvRankCollective *rc = &g_array_index (rk->collectives, IvRankCollective, k);
          SliceInstance si
              = { job->slice_base[r] + rc->slice, (guint) (first[rc->key] + rc->ordinal) };
          job->instance_slices[(gsize) si.instance * n + r] = si.slice;
          g_array_append_val (job->slice_instances, si);
        }
    }
  g_array_sort (job->slice_instances, compare_slice_instance);
}

IvTraceJob *
iv_trace_job_new (IvTraceRanks *ranks, GError **error)
{
  g_autoptr (IvTraceJob) job = g_new0 (IvTraceJob, 1);
  guint n = ranks->ranks->len;
  gsize total = 0, samples = 0;
  IvTrace *t;

  job->ranks = ranks;
  job->slice_base = g_new0 (gsize, n + 1);
  job->track_base = g_new0 (guint, n + 1);
  job->sample_base = g_new0 (gsize, n + 1);
  for (guint r = 0; r < n; r++)
    {
      const IvRank *rk = ranks->ranks->pdata[r];
      job->slice_base[r] = total;
      total += rk->trace->n_slices;
      samples += rk->trace->n_samples;
    }
  job->slice_base[n] = total;
  t = job->trace = trace_new (total, samples);
  if (!t)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _ ("not enough memory for the job's timeline (%" G_GSIZE_FORMAT " slices)"),
                   total);
      job->ranks = NULL; /* the caller keeps it */
      return NULL;
    }
  for (guint r = 0; r < n; r++)
    if (!join_rank (job, r, error))
      {
        job->ranks = NULL;
        return NULL;
      }
  job->track_base[n] = t->tracks->len;
  job->sample_base[n] = t->n_samples;
  trace_finish (t, ranks);
  index_collectives (job);
  return g_steal_pointer (&job);
}

IvTraceJob *
iv_trace_job_load (const char *const *paths, IvProgressFunc progress, gpointer progress_data,
                   GCancellable *cancellable, GError **error)
{
  IvTraceRanks *ranks = iv_trace_ranks_load_full (paths, IV_RANKS_DEFAULT, progress, progress_data,
                                                  cancellable, error);
  IvTraceJob *job;

  if (!ranks)
    return NULL;
  /* ranks that share no wall clock open aligned: each on its own clock they would only
   * seem to line up */
  if (ranks->clock != IV_RANKS_CLOCK_WALL)
    iv_trace_ranks_set_aligned (ranks, TRUE);
  job = iv_trace_job_new (ranks, error);
  if (!job)
    iv_trace_ranks_free (ranks);
  return job;
}

/* The rank index whose tracks hold track @track. */
static guint
rank_of_track (const IvTraceJob *job, guint track)
{
  guint n = job->ranks->ranks->len, r = 0;

  while (r + 1 < n && job->track_base[r + 1] <= track)
    r++;
  return r;
}

static gboolean
copy_items (IvGrowArray *to, const IvGrowArray *from)
{
  if (from->len && !_iv_grow_array_reserve (to, from->len))
    return FALSE;
  if (from->len)
    memcpy (to->data, from->data, (gsize) from->len * from->item_size);
  to->len = from->len;
  return TRUE;
}

/* @src's every slice, sample, instant and flow with rank r's times moved by @delta[r]
 * (a slice keeps its index: rows stay ordered, as a rank moves whole). */
static IvTrace *
copy_shifted (const IvTraceJob *job, const gint64 *delta, GError **error)
{
  const IvTrace *src = job->trace;
  guint n = job->ranks->ranks->len;
  gsize ns = src->n_slices;
  g_autoptr (IvTrace) t = trace_new (ns, src->n_samples);

  if (!t)
    goto oom;
  for (guint i = 0; i < iv_intern_size (src->strings); i++)
    /* ids as they were: the pool's strings are distinct, added in the order of their ids */
    if (iv_intern_add (t->strings, iv_intern_get (src->strings, i), -1) != i)
      g_return_val_if_reached (NULL);
  for (guint i = 0; i < src->processes->len; i++)
    {
      const IvProcess *q = src->processes->pdata[i];
      IvProcess *p = g_memdup2 (q, sizeof *q);
      p->key = g_strdup (q->key), p->name = g_strdup (q->name), p->labels = g_strdup (q->labels);
      if (!_iv_grow_array_append (t->processes, &p))
        {
          g_free (p->key), g_free (p->name), g_free (p->labels), g_free (p);
          goto oom;
        }
    }
  if (!copy_items (t->tracks, src->tracks) || !copy_items (t->rows, src->rows)
      || !copy_items (t->series, src->series) || !copy_items (t->instants, src->instants)
      || !copy_items (t->flows, src->flows))
    {
      t->tracks->len = 0; /* their names are still @src's */
      goto oom;
    }
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      tr->key = g_strdup (tr->key), tr->name = g_strdup (tr->name);
    }
  for (guint r = 0; r < n; r++)
    {
      for (gsize s = job->slice_base[r]; s < job->slice_base[r + 1]; s++)
        t->start_ns[s] = iv_trace_add_ns (src->start_ns[s], delta[r]);
      for (gsize k = job->sample_base[r]; k < job->sample_base[r + 1]; k++)
        t->sample_ns[k] = iv_trace_add_ns (src->sample_ns[k], delta[r]);
    }
  memcpy (t->dur_ns, src->dur_ns, ns * sizeof (gint64));
  memcpy (t->self_ns, src->self_ns, ns * sizeof (gint64));
  memcpy (t->name, src->name, ns * sizeof (guint32));
  memcpy (t->cat, src->cat, ns * sizeof (guint32));
  memcpy (t->args_off, src->args_off, ns * sizeof (guint64));
  memcpy (t->args_len, src->args_len, ns * sizeof (guint32));
  memcpy (t->row, src->row, ns * sizeof (guint32));
  if (src->open_bits)
    memcpy (t->open_bits, src->open_bits, ns / 8 + 1);
  if (src->n_samples)
    memcpy (t->sample_value, src->sample_value, src->n_samples * sizeof (double));
  t->n_samples = src->n_samples;
  for (guint i = 0; i < t->instants->len; i++)
    {
      IvInstant *in = &g_array_index (t->instants, IvInstant, i);
      in->ts_ns = iv_trace_add_ns (in->ts_ns, delta[rank_of_track (job, in->track)]);
    }
  for (guint i = 0; i < t->flows->len; i++)
    {
      IvFlow *fl = &g_array_index (t->flows, IvFlow, i);
      /* a joined flow is bound to a slice at one end at least (join_rank) */
      gint64 d = delta[iv_trace_job_rank_of (job, fl->from != G_MAXSIZE ? fl->from : fl->to)];
      fl->from_ns = iv_trace_add_ns (fl->from_ns, d), fl->to_ns = iv_trace_add_ns (fl->to_ns, d);
    }
  for (guint i = 0; i < src->warnings->len; i++)
    g_ptr_array_add (t->warnings, g_strdup (src->warnings->pdata[i]));
  t->n_async_slices = src->n_async_slices;
  t->n_dangling_flows = src->n_dangling_flows;
  t->max_depth = src->max_depth;
  t->truncated = src->truncated;
  t->n_overrun = src->n_overrun;
  t->max_overrun_ns = src->max_overrun_ns;
  t->n_partial = src->n_partial;
  t->n_list_overlaps = src->n_list_overlaps;
  t->n_open = src->n_open;
  return g_steal_pointer (&t);

oom:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               _ ("not enough memory for the job's timeline (%" G_GSIZE_FORMAT " slices)"), ns);
  return NULL;
}

IvTraceJob *
iv_trace_job_realign (const IvTraceJob *job, gboolean aligned, GError **error)
{
  g_autoptr (IvTraceJob) c = NULL;
  guint n;
  gsize m;
  g_autofree gint64 *delta = NULL;

  g_return_val_if_fail (job != NULL, NULL);
  n = job->ranks->ranks->len;
  m = job->ranks->instances->len;
  c = g_new0 (IvTraceJob, 1);
  c->ranks = iv_trace_ranks_copy (job->ranks);
  iv_trace_ranks_set_aligned (c->ranks, aligned);
  delta = g_new (gint64, MAX (n, 1));
  for (guint r = 0; r < n; r++)
    delta[r] = ((IvRank *) c->ranks->ranks->pdata[r])->offset_ns
               - ((IvRank *) job->ranks->ranks->pdata[r])->offset_ns;
  c->slice_base = g_memdup2 (job->slice_base, (n + 1) * sizeof (gsize));
  c->track_base = g_memdup2 (job->track_base, (n + 1) * sizeof (guint));
  c->sample_base = g_memdup2 (job->sample_base, (n + 1) * sizeof (gsize));
  c->instance_slices = g_memdup2 (job->instance_slices, MAX (m * n, 1) * sizeof (gsize));
  c->slice_instances = g_array_copy (job->slice_instances);
  if (!(c->trace = copy_shifted (job, delta, error)))
    return NULL;
  trace_finish (c->trace, c->ranks);
  return g_steal_pointer (&c);
}

guint
iv_trace_job_rank_of (const IvTraceJob *job, gsize slice)
{
  guint lo = 0, hi = job->ranks->ranks->len;

  /* the last rank whose first slice is at or before @slice */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (job->slice_base[mid] <= slice)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint
iv_trace_job_instance_of (const IvTraceJob *job, gsize slice)
{
  SliceInstance key = { slice, 0 };
  const SliceInstance *hit;

  if (!job->slice_instances || job->slice_instances->len == 0)
    return G_MAXUINT;
  hit = bsearch (&key, job->slice_instances->data, job->slice_instances->len, sizeof key,
                 compare_slice_instance);
  return hit ? hit->instance : G_MAXUINT;
}

gsize
iv_trace_job_instance_slice (const IvTraceJob *job, guint instance, guint rank)
{
  guint n = job->ranks->ranks->len;

  if (instance >= job->ranks->instances->len || rank >= n)
    return G_MAXSIZE;
  return job->instance_slices[(gsize) instance * n + rank];
}
