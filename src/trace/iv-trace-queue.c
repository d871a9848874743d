/* iv-trace-queue.c: queue length per GPU stream over time (see the header). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-queue.h"

#include <stdlib.h>
#include <string.h>

#include "iv-trace-private.h"

typedef struct
{
  gint64 ts;
  int step; /* +1 enqueued, −1 started */
} QueueEvent;

static int
by_time (const void *pa, const void *pb)
{
  const QueueEvent *a = pa, *b = pb;
  if (a->ts != b->ts)
    return (a->ts > b->ts) - (a->ts < b->ts);
  /* at one instant, the enqueues before the starts: the queue never goes below zero */
  return b->step - a->step;
}

void
iv_queue_series_free (IvQueueSeries *s)
{
  if (!s)
    return;
  g_array_unref (s->points);
  g_free (s);
}

/* One stream's events (sorted here) as its series over [t0, t1), or NULL when the queue
 * is empty throughout the range. */
static IvQueueSeries *
series_of (guint track, GArray *ev, gint64 t0, gint64 t1)
{
  IvQueueSeries *s = g_new0 (IvQueueSeries, 1);
  gint64 len = 0;

  s->track = track;
  s->points = g_array_sized_new (FALSE, FALSE, sizeof (IvQueuePoint), ev->len);
  qsort (ev->data, ev->len, sizeof (QueueEvent), by_time);
  for (guint i = 0; i < ev->len; i++)
    {
      const QueueEvent *e = &g_array_index (ev, QueueEvent, i);
      IvQueuePoint p;
      len += e->step;
      if (e->ts < t0)
        {
          s->initial = len;
          continue;
        }
      if (e->ts >= t1)
        break;
      p.ts_ns = e->ts, p.length = len;
      g_array_append_val (s->points, p);
    }
  s->max = s->initial, s->max_ns = t0;
  for (guint i = 0; i < s->points->len; i++)
    {
      const IvQueuePoint *p = &g_array_index (s->points, IvQueuePoint, i);
      if (p->length > s->max)
        s->max = p->length, s->max_ns = p->ts_ns;
    }
  if (s->points->len == 0 && s->initial == 0)
    g_clear_pointer (&s, iv_queue_series_free);
  return s;
}

GPtrArray *
iv_trace_queue_series (const IvTrace *t, const GArray *launches, gint64 t0, gint64 t1)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_queue_series_free);
  g_autoptr (GHashTable) by_track
      = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);

  for (guint i = 0; launches && i < launches->len; i++)
    {
      const IvLaunch *l = &g_array_index (launches, IvLaunch, i);
      guint track = g_array_index (t->rows, IvRow, t->row[l->work]).track;
      GArray *ev = g_hash_table_lookup (by_track, GUINT_TO_POINTER (track + 1));
      QueueEvent in = { t->start_ns[l->call], +1 }, out_ev = { t->start_ns[l->work], -1 };
      if (!ev)
        {
          ev = g_array_new (FALSE, FALSE, sizeof (QueueEvent));
          g_hash_table_insert (by_track, GUINT_TO_POINTER (track + 1), ev);
        }
      g_array_append_val (ev, in);
      g_array_append_val (ev, out_ev);
    }
  /* in track order: the streams as the timeline lists them */
  for (guint k = 0; k < t->tracks->len && g_hash_table_size (by_track) > 0; k++)
    {
      GArray *ev = g_hash_table_lookup (by_track, GUINT_TO_POINTER (k + 1));
      IvQueueSeries *s = ev ? series_of (k, ev, t0, t1) : NULL;
      if (s)
        g_ptr_array_add (out, s);
    }
  return out;
}

GArray *
iv_queue_series_decimate (const IvQueueSeries *s, guint max_points)
{
  guint n = s->points->len, runs, run;
  GArray *out;

  max_points = MAX (max_points, 2);
  if (n <= max_points)
    return g_array_copy (s->points);
  out = g_array_sized_new (FALSE, FALSE, sizeof (IvQueuePoint), max_points);
  runs = max_points / 2;
  run = (n + runs - 1) / runs;
  for (guint a = 0; a < n; a += run)
    {
      guint b = MIN (n, a + run), top = a;
      for (guint i = a + 1; i < b; i++)
        if (g_array_index (s->points, IvQueuePoint, i).length
            > g_array_index (s->points, IvQueuePoint, top).length)
          top = i;
      g_array_append_val (out, g_array_index (s->points, IvQueuePoint, top));
      if (top != b - 1)
        g_array_append_val (out, g_array_index (s->points, IvQueuePoint, b - 1));
    }
  return out;
}

/* ---------- the counter tracks ---------- */

static char *
counter_name (const IvTrack *stream)
{
  return g_strdup_printf (IV_QUEUE_COUNTER_PREFIX "%s", stream->name ? stream->name : stream->key);
}

gboolean
iv_trace_add_queue_tracks (IvTrace *t, gboolean read_args)
{
  /* the launches and their series only: the statistics are the Analyses page's */
  g_autoptr (GArray) launches = iv_trace_launches (t, read_args);
  g_autoptr (GPtrArray) queues = iv_trace_queue_series (t, launches, G_MININT64, G_MAXINT64);
  guint n_old = t->tracks->len, n_new = queues->len, q = 0;
  gsize n_points = 0, at;
  g_autofree guint *track_new = NULL;
  g_autofree guint32 *names = NULL;
  IvGrowArray *tracks = NULL, *series = NULL;
  gint64 *sample_ns;
  double *sample_value;

  if (n_new == 0)
    return TRUE;
  for (guint i = 0; i < n_new; i++)
    n_points += ((IvQueueSeries *) queues->pdata[i])->points->len;
  track_new = g_try_new (guint, MAX (n_old, 1));
  names = g_try_new (guint32, n_new);
  tracks = _iv_grow_array_sized_new (sizeof (IvTrack), n_old + n_new);
  series = _iv_grow_array_sized_new (sizeof (IvCounterSeries), t->series->len + n_new);
  if (!track_new || !names || !tracks || !series)
    goto out_of_memory;
  for (guint i = 0; i < n_new; i++)
    {
      const IvQueueSeries *s = queues->pdata[i];
      g_autofree char *name = counter_name (&g_array_index (t->tracks, IvTrack, s->track));
      if ((names[i] = iv_intern_try_add (t->strings, name, -1)) == IV_INTERN_NONE)
        goto out_of_memory;
    }
  /* the sample columns grow first: a failure leaves them longer, the trace as it was */
  sample_ns = g_try_renew (gint64, t->sample_ns, t->n_samples + n_points);
  if (!sample_ns)
    goto out_of_memory;
  t->sample_ns = sample_ns;
  sample_value = g_try_renew (double, t->sample_value, t->n_samples + n_points);
  if (!sample_value)
    goto out_of_memory;
  t->sample_value = sample_value;

  /* the tracks again, each stream with launches followed by its queue; the series stay
   * in track order (a track's series contiguous, as the loader makes them) */
  at = t->n_samples;
  for (guint k = 0; k < n_old; k++)
    {
      IvTrack tr = g_array_index (t->tracks, IvTrack, k);
      guint first = tr.first_series;
      track_new[k] = tracks->len;
      if (tr.n_series)
        tr.first_series = series->len;
      for (guint i = first; i < first + tr.n_series; i++)
        {
          IvCounterSeries se = g_array_index (t->series, IvCounterSeries, i);
          se.track = track_new[k];
          _iv_grow_array_append (series, &se);
        }
      _iv_grow_array_append (tracks, &tr);
      if (q < n_new && ((IvQueueSeries *) queues->pdata[q])->track == k)
        {
          const IvQueueSeries *s = queues->pdata[q];
          IvTrack counter = { 0 };
          IvCounterSeries se = { 0 };
          counter.process = tr.process;
          counter.key = g_strdup (iv_trace_string (t, names[q]));
          counter.name = g_strdup (counter.key);
          counter.sort_index = tr.sort_index;
          counter.kind = IV_TRACK_COUNTER;
          counter.first_row = tr.first_row + tr.n_rows;
          counter.first_series = series->len, counter.n_series = 1;
          se.name = names[q];
          se.track = tracks->len;
          se.first = at, se.n = s->points->len;
          se.min = G_MAXDOUBLE, se.max = -G_MAXDOUBLE;
          for (guint i = 0; i < s->points->len; i++, at++)
            {
              const IvQueuePoint *p = &g_array_index (s->points, IvQueuePoint, i);
              t->sample_ns[at] = p->ts_ns;
              t->sample_value[at] = (double) p->length;
              se.min = MIN (se.min, t->sample_value[at]);
              se.max = MAX (se.max, t->sample_value[at]);
            }
          _iv_grow_array_append (series, &se);
          _iv_grow_array_append (tracks, &counter);
          q++;
        }
    }
  for (guint r = 0; r < t->rows->len; r++)
    g_array_index (t->rows, IvRow, r).track = track_new[g_array_index (t->rows, IvRow, r).track];
  for (guint i = 0; i < t->instants->len; i++)
    if (g_array_index (t->instants, IvInstant, i).track != G_MAXUINT)
      g_array_index (t->instants, IvInstant, i).track
          = track_new[g_array_index (t->instants, IvInstant, i).track];
  t->n_samples = at;
  _iv_grow_array_free (t->tracks);
  t->tracks = tracks;
  t->n_derived_tracks += n_new;
  _iv_grow_array_free (t->series);
  t->series = series;
  return TRUE;

out_of_memory:
  _iv_grow_array_free (tracks);
  _iv_grow_array_free (series);
  return FALSE;
}
