/* iv-trace.c: from the loader's raw events to the indexed trace: B/E and async pairs
 * matched in time order, nesting depth per thread (a slice that only partly overlaps its
 * parent gets a row of its own), self time, columns ordered by row and start, flows bound
 * to the slices they leave and enter, processes and tracks named and ordered the way
 * Kineto and Chrome lay them out. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Giving freed pages back is glibc's malloc's business; under AddressSanitizer or
 * ThreadSanitizer (whose allocators replace it) malloc_trim walks arenas a loading thread
 * never attached and crashes that thread (seen in the rank loader's workers: "malloc
 * assertion failure in __malloc_arena_thread_freeres"). */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IV_NO_MALLOC_TRIM 1
#endif
#endif
#ifndef IV_NO_MALLOC_TRIM
#define IV_TRIM_HEAP() malloc_trim (0)
#endif
#endif
#ifndef IV_TRIM_HEAP
#define IV_TRIM_HEAP() ((void) 0)
#endif

#include "iv-big-alloc.h"
#include "iv-input.h"
#include "iv-json-pull.h"
#include "iv-sniff.h"
#include "iv-trace-private.h"
#include "iv-trace-query.h"

/* ---------- arrays that may fail to grow ---------- */

IvGrowArray *
_iv_grow_array_new (guint item_size)
{
  IvGrowArray *a = g_new0 (IvGrowArray, 1);
  a->item_size = item_size;
  return a;
}

void
_iv_grow_array_free (IvGrowArray *a)
{
  if (!a)
    return;
  iv_big_free (a->data);
  g_free (a);
}

gboolean
_iv_grow_array_reserve (IvGrowArray *a, gsize n)
{
  gsize cap;
  gpointer grown;

  if (n <= a->capacity)
    return TRUE;
  if (n > G_MAXUINT / 2)
    return FALSE;
  /* Grow by half again: less slack than doubling when the next step is what fails. */
  cap = MAX (n, (gsize) a->capacity + a->capacity / 2 + 64);
  cap = MIN (cap, (gsize) G_MAXUINT / 2);
  grown = iv_big_realloc (a->data, cap * a->item_size);
  if (!grown)
    return FALSE;
  a->data = grown;
  a->capacity = (guint) cap;
  return TRUE;
}

gboolean
_iv_grow_array_append (IvGrowArray *a, const void *item)
{
  if (a->len == a->capacity && !_iv_grow_array_reserve (a, (gsize) a->len + 1))
    return FALSE;
  memcpy (a->data + (gsize) a->len * a->item_size, item, a->item_size);
  a->len++;
  return TRUE;
}

IvGrowArray *
_iv_grow_array_sized_new (guint item_size, gsize n)
{
  IvGrowArray *a = _iv_grow_array_new (item_size);

  if (n > 0 && !_iv_grow_array_reserve (a, n))
    {
      _iv_grow_array_free (a);
      return NULL;
    }
  return a;
}

/* ---------- allocation that may fail ---------- */

/* Copies of short texts (process and thread keys and names): tried, so that ten million
 * threads in a file run out of memory as an error, not an abort. NULL when out of memory. */
static char *
try_strdup (const char *s)
{
  gsize n = strlen (s) + 1;
  char *copy = g_try_malloc (n);
  return copy ? memcpy (copy, s, n) : NULL;
}

/* The texts up to a NULL joined, tried. */
static char *
try_concat (const char *first, ...)
{
  va_list args;
  gsize n = 0;
  char *out, *at;

  va_start (args, first);
  for (const char *p = first; p; p = va_arg (args, const char *))
    n += strlen (p);
  va_end (args);
  out = at = g_try_malloc (n + 1);
  if (!out)
    return NULL;
  va_start (args, first);
  for (const char *p = first; p; p = va_arg (args, const char *))
    {
      gsize len = strlen (p);
      memcpy (at, p, len);
      at += len;
    }
  va_end (args);
  *at = '\0';
  return out;
}

guint32
_iv_trace_intern_joined (IvIntern *pool, const char *a, const char *b, const char *c)
{
  gsize la = strlen (a), lb = strlen (b), lc = c ? strlen (c) : 0;
  gsize n = la + 1 + lb + (c ? 1 + lc : 0);
  char stack[1024];
  g_autofree char *heap = NULL;
  char *key = n < sizeof stack ? stack : (heap = g_try_malloc (n + 1));

  if (!key)
    return IV_INTERN_NONE;
  memcpy (key, a, la);
  key[la] = 0x1f;
  memcpy (key + la + 1, b, lb);
  if (c)
    {
      key[la + 1 + lb] = 0x1f;
      memcpy (key + la + 2 + lb, c, lc);
    }
  key[n] = '\0';
  return iv_intern_try_add (pool, key, (gssize) n);
}

/* Runs this long are sorted by insertion first: most arrays sorted here are nearly
 * sorted already. */
#define RUN 16

/* A stable merge sort whose scratch is tried (g_qsort_with_data, also a merge sort,
 * aborts when its scratch cannot be had): FALSE, @base untouched, when out of memory. */
gboolean
_iv_trace_sort (void *base, gsize n, gsize size, GCompareDataFunc compare, gpointer data)
{
  guint8 *a = base, *tmp, *from, *to;

  if (n < 2)
    return TRUE;
  tmp = iv_big_alloc (n * size);
  if (!tmp)
    return FALSE;
  {
    guint8 item[64];
    g_assert (size <= sizeof item);
    for (gsize lo = 0; lo < n; lo += RUN)
      {
        gsize hi = MIN (lo + RUN, n);
        for (gsize i = lo + 1; i < hi; i++)
          {
            gsize j = i;
            if (compare (a + (j - 1) * size, a + i * size, data) <= 0)
              continue;
            memcpy (item, a + i * size, size);
            while (j > lo && compare (a + (j - 1) * size, item, data) > 0)
              {
                memcpy (a + j * size, a + (j - 1) * size, size);
                j--;
              }
            memcpy (a + j * size, item, size);
          }
      }
  }
  from = a, to = tmp;
  for (gsize width = RUN; width < n; width *= 2)
    {
      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n);
          gsize i = lo, j = mid, k = lo;
          /* already in order: one copy */
          if (mid == hi || compare (from + (mid - 1) * size, from + mid * size, data) <= 0)
            {
              memcpy (to + lo * size, from + lo * size, (hi - lo) * size);
              continue;
            }
          while (i < mid && j < hi)
            {
              /* <= keeps equal items in their order: stable */
              if (compare (from + i * size, from + j * size, data) <= 0)
                memcpy (to + k++ * size, from + i++ * size, size);
              else
                memcpy (to + k++ * size, from + j++ * size, size);
            }
          memcpy (to + k * size, from + i * size, (mid - i) * size);
          k += mid - i;
          memcpy (to + k * size, from + j * size, (hi - j) * size);
        }
      {
        guint8 *swap = from;
        from = to, to = swap;
      }
    }
  if (from != a)
    memcpy (a, from, n * size);
  iv_big_free (tmp);
  return TRUE;
}
#undef RUN

/* ---------- builder ---------- */

/* Grows every slice column to hold @want (at least) slices; FALSE when the memory cannot
 * be had (columns already grown keep their new size: the next attempt reuses it). */
static gboolean
reserve_slices (IvSliceColumns *c, gsize want)
{
  gsize cap;

  if (want <= c->capacity)
    return TRUE;
  if (want > IV_SLICES_MAX)
    return FALSE;
  cap = MIN (MAX (want, c->capacity + c->capacity / 2 + 1024), (gsize) IV_SLICES_MAX);
#define GROW(col)                                                                                  \
  do                                                                                               \
    {                                                                                              \
      gpointer grown = iv_big_realloc (c->col, cap * sizeof *c->col);                              \
      if (!grown)                                                                                  \
        return FALSE;                                                                              \
      c->col = grown;                                                                              \
    }                                                                                              \
  while (0)
  GROW (start_ns);
  GROW (dur_ns);
  GROW (args_off);
  GROW (args_len);
  GROW (name);
  GROW (cat);
  GROW (track);
#undef GROW
  c->capacity = cap;
  return TRUE;
}

/* The columns shrunk to their length (shrinking keeps the data, and a column that cannot
 * shrink just stays longer). */
static void
fit_slices (IvSliceColumns *c)
{
  gsize m = MAX (c->len, 1);
#define FIT(col)                                                                                   \
  G_STMT_START                                                                                     \
  {                                                                                                \
    gpointer fit_ = iv_big_realloc (c->col, m * sizeof *c->col);                                   \
    if (fit_)                                                                                      \
      c->col = fit_;                                                                               \
  }                                                                                                \
  G_STMT_END
  FIT (start_ns);
  FIT (dur_ns);
  FIT (args_off);
  FIT (args_len);
  FIT (name);
  FIT (cat);
  FIT (track);
#undef FIT
  c->capacity = m;
}

static void
free_slices (IvSliceColumns *c)
{
  iv_big_free (c->start_ns);
  iv_big_free (c->dur_ns);
  iv_big_free (c->args_off);
  iv_big_free (c->args_len);
  iv_big_free (c->name);
  iv_big_free (c->cat);
  iv_big_free (c->track);
  memset (c, 0, sizeof *c);
}

gboolean
_iv_trace_builder_add_slice (IvTraceBuilder *b, const IvRawSlice *s)
{
  IvSliceColumns *c = &b->slices;
  gsize i = c->len;

  if (b->out_of_memory)
    return FALSE;
  if (i == c->capacity && !reserve_slices (c, i + 1))
    {
      b->out_of_memory = TRUE;
      return FALSE;
    }
  c->start_ns[i] = s->start_ns;
  c->dur_ns[i] = s->dur_ns;
  c->args_off[i] = s->args_off;
  c->args_len[i] = s->args_len;
  c->name[i] = s->name;
  c->cat[i] = s->cat;
  c->track[i] = s->track;
  c->len = i + 1;
  return TRUE;
}

gboolean
_iv_trace_builder_add (IvTraceBuilder *b, IvGrowArray *array, const void *item)
{
  if (b->out_of_memory)
    return FALSE;
  if (!_iv_grow_array_append (array, item))
    b->out_of_memory = TRUE;
  return !b->out_of_memory;
}

static void free_slices (IvSliceColumns *c);

void
_iv_trace_set_oom_error (IvTraceBuilder *b, guint64 events, GError **error)
{
  g_autofree char *path = b->trace ? g_steal_pointer (&b->trace->path) : NULL;
  g_autofree char *display = NULL;
  guint names = b->trace ? iv_intern_size (b->trace->strings) : 0;

  /* The load has failed: what it built goes back before the message is made, so that
   * making it (and whatever the program does next) has the memory the load took. */
  g_clear_pointer (&b->trace, iv_trace_free);
  free_slices (&b->slices);
  g_clear_pointer (&b->edges, _iv_grow_array_free);
  g_clear_pointer (&b->async_edges, _iv_grow_array_free);
  g_clear_pointer (&b->flows, _iv_grow_array_free);
  g_clear_pointer (&b->samples, _iv_grow_array_free);
  g_clear_pointer (&b->async_open, _iv_grow_array_free);
  g_clear_pointer (&b->open_raw, _iv_grow_array_free);
  g_clear_pointer (&b->process_keys, iv_intern_free);
  g_clear_pointer (&b->track_keys, iv_intern_free);
  g_clear_pointer (&b->series_keys, iv_intern_free);
  g_clear_pointer (&b->async_keys, iv_intern_free);
  IV_TRIM_HEAP ();
  display = g_filename_display_name (path ? path : "the trace");
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               "%s: not enough memory to load %u names and %" G_GUINT64_FORMAT
               " events (memory ran out there; close other files or open a smaller part "
               "of the trace)",
               display, names, events);
}

guint32
_iv_trace_builder_intern (IvTraceBuilder *b, const char *str, gssize len)
{
  guint32 id = iv_intern_try_add (b->trace->strings, str, len);
  if (id != IV_INTERN_NONE)
    return id;
  b->out_of_memory = TRUE;
  return 0;
}

#define DEFAULT_OVERLAP_TOLERANCE_NS 1000

/* Process-wide like --allow-huge: atomic, so a load on a worker reads what the main
 * thread set before starting it. */
static gint overlap_tolerance_ns = DEFAULT_OVERLAP_TOLERANCE_NS;

void
iv_trace_set_overlap_tolerance (gint64 ns)
{
  g_atomic_int_set (&overlap_tolerance_ns, (gint) CLAMP (ns, 0, G_MAXINT));
}

gint64
iv_trace_get_overlap_tolerance (void)
{
  return g_atomic_int_get (&overlap_tolerance_ns);
}

IvTraceBuilder *
_iv_trace_builder_new (const char *path, IvTraceFormat format)
{
  IvTraceBuilder *b = g_new0 (IvTraceBuilder, 1);
  IvTrace *t = g_new0 (IvTrace, 1);

  /* a pipelined file's lanes are its events as written, never adjusted */
  b->overlap_tolerance_ns = format == IV_TRACE_PIPELINED ? 0 : iv_trace_get_overlap_tolerance ();
  /* The fixed parts are allocated as usual (a few hundred bytes); what grows with the
   * file is tried: the pools, the arrays and every entry added to them. */
  t->open_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->info = iv_trace_info_new ();
  t->overlap_tolerance_ns = b->overlap_tolerance_ns;
  b->open_raw = _iv_grow_array_new (sizeof (guint32));
  b->async_keys = iv_intern_new ();
  b->async_open = _iv_grow_array_new (sizeof (IvAsyncOpen));

  t->format = format;
  t->path = g_strdup (path);
  t->strings = iv_intern_new ();
  iv_intern_add (t->strings, "", 0); /* id 0 is the empty string */
  t->processes = _iv_grow_array_new (sizeof (IvProcess *));
  t->tracks = _iv_grow_array_new (sizeof (IvTrack));
  t->rows = _iv_grow_array_new (sizeof (IvRow));
  t->instants = _iv_grow_array_new (sizeof (IvInstant));
  t->series = _iv_grow_array_new (sizeof (IvCounterSeries));
  t->flows = _iv_grow_array_new (sizeof (IvFlow));
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  t->candidates = _iv_grow_array_new (sizeof (IvCandidate));
  b->trace = t;
  b->process_keys = iv_intern_new ();
  b->track_keys = iv_intern_new ();
  b->series_keys = iv_intern_new ();
  b->edges = _iv_grow_array_new (sizeof (IvRawEdge));
  b->async_edges = _iv_grow_array_new (sizeof (IvRawEdge));
  b->flows = _iv_grow_array_new (sizeof (IvRawFlow));
  b->samples = _iv_grow_array_new (sizeof (IvRawSample));
  return b;
}

void
_iv_trace_builder_free (IvTraceBuilder *b)
{
  if (!b)
    return;
  iv_trace_free (b->trace);
  iv_intern_free (b->process_keys);
  iv_intern_free (b->track_keys);
  iv_intern_free (b->series_keys);
  iv_intern_free (b->async_keys);
  _iv_grow_array_free (b->async_open);
  _iv_grow_array_free (b->open_raw);
  free_slices (&b->slices);
  _iv_grow_array_free (b->edges);
  _iv_grow_array_free (b->async_edges);
  _iv_grow_array_free (b->flows);
  _iv_grow_array_free (b->samples);
  g_free (b);
}

void
_iv_trace_warn (IvTrace *t, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_ptr_array_add (t->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* The builder is out of memory: every lookup after that answers IV_BUILDER_NONE, and
 * the load stops at the end of the event. */
static guint
builder_oom (IvTraceBuilder *b)
{
  b->out_of_memory = TRUE;
  return IV_BUILDER_NONE;
}

guint
_iv_trace_builder_process (IvTraceBuilder *b, const char *pid)
{
  guint before = iv_intern_size (b->process_keys);
  guint32 id;
  IvProcess *p;

  if (b->out_of_memory)
    return IV_BUILDER_NONE;
  /* the key's id is the process's index: processes are added in the pool's order */
  id = iv_intern_try_add (b->process_keys, pid, -1);
  if (id == IV_INTERN_NONE)
    return builder_oom (b);
  if (id < before)
    return id;
  p = g_try_new0 (IvProcess, 1);
  if (!p || !(p->key = try_strdup (pid)))
    {
      g_free (p);
      return builder_oom (b);
    }
  p->gpu_index = -1;
  p->sort_index = G_MAXINT64;
  if (!_iv_grow_array_append (b->trace->processes, &p))
    {
      g_free (p->key);
      g_free (p);
      return builder_oom (b);
    }
  return id;
}

/* A direct-mapped cache of (pid, tid, kind) → track: one hash of two short strings and
 * one comparison instead of a formatted key and a hash-table lookup per event. */
static guint
track_slot (const char *pid, const char *tid, IvTrackKind kind)
{
  guint32 h = 2166136261u ^ (guint32) kind;
  for (const char *p = pid; *p; p++)
    h = (h ^ (guchar) *p) * 16777619u;
  h = (h ^ 0x1f) * 16777619u;
  for (const char *p = tid; *p; p++)
    h = (h ^ (guchar) *p) * 16777619u;
  return h % G_N_ELEMENTS (((IvTraceBuilder *) NULL)->cache);
}

static guint
remember_track (IvTraceBuilder *b, guint slot, const char *pid, const char *tid, IvTrackKind kind,
                guint track)
{
  if (strlen (pid) < sizeof b->cache[0].pid && strlen (tid) < sizeof b->cache[0].tid)
    {
      strcpy (b->cache[slot].pid, pid);
      strcpy (b->cache[slot].tid, tid);
      b->cache[slot].kind = kind;
      b->cache[slot].track = track;
      b->cache[slot].used = TRUE;
    }
  return track;
}

guint
_iv_trace_builder_track (IvTraceBuilder *b, const char *pid, const char *tid, IvTrackKind kind)
{
  char kind_text[2] = { (char) ('0' + kind), '\0' };
  guint before, process;
  guint32 id;
  IvTrack t = { 0 };
  guint slot = track_slot (pid, tid, kind);

  if (b->cache[slot].used && b->cache[slot].kind == kind && strcmp (b->cache[slot].tid, tid) == 0
      && strcmp (b->cache[slot].pid, pid) == 0)
    return b->cache[slot].track;
  if (b->out_of_memory)
    return IV_BUILDER_NONE;
  /* the whole key, never cut: two long async names differing late are two tracks */
  before = iv_intern_size (b->track_keys);
  id = _iv_trace_intern_joined (b->track_keys, pid, kind_text, tid);
  if (id == IV_INTERN_NONE)
    return builder_oom (b);
  if (id < before)
    return remember_track (b, slot, pid, tid, kind, id);
  process = _iv_trace_builder_process (b, pid);
  if (process == IV_BUILDER_NONE)
    return IV_BUILDER_NONE;
  t.process = process;
  t.key = try_strdup (tid);
  t.kind = kind;
  t.sort_index = G_MAXINT64;
  if (!t.key || !_iv_grow_array_append (b->trace->tracks, &t))
    {
      g_free (t.key);
      return builder_oom (b);
    }
  return remember_track (b, slot, pid, tid, kind, id);
}

guint
_iv_trace_builder_series (IvTraceBuilder *b, guint track, const char *name)
{
  char track_text[16];
  guint before;
  guint32 id;
  IvCounterSeries s = { 0 };

  if (b->out_of_memory)
    return IV_BUILDER_NONE;
  g_snprintf (track_text, sizeof track_text, "%u", track);
  before = iv_intern_size (b->series_keys);
  id = _iv_trace_intern_joined (b->series_keys, track_text, name, NULL);
  if (id == IV_INTERN_NONE)
    return builder_oom (b);
  if (id < before)
    return id;
  s.name = _iv_trace_builder_intern (b, name, -1);
  s.track = track;
  if (b->out_of_memory || !_iv_grow_array_append (b->trace->series, &s))
    return builder_oom (b);
  return id;
}

/* ---------- matching ---------- */

static int
compare_edges (const void *pa, const void *pb)
{
  const IvRawEdge *a = pa, *b = pb;
  /* key groups what pairs up: the thread for B/E, cat+name+id for async events (whose
   * begin and end may come from different threads or processes). */
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->ts_ns != b->ts_ns)
    return a->ts_ns < b->ts_ns ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Whether an end event closes the open begin @open: names and categories match, an
 * empty one (id 0, what a missing one reads as) on the end matching any. */
static gboolean
edge_closes (const IvRawEdge *open, const IvRawEdge *end)
{
  return (end->name == 0 || end->name == open->name) && (end->cat == 0 || end->cat == open->cat);
}

/* Pairs begin and end events per track (and per async id) in time order. */
static void
match_edges (IvTraceBuilder *b, IvGrowArray *edges, gboolean async, gint64 end_ns)
{
  IvGrowArray *stack = _iv_grow_array_new (sizeof (IvRawEdge));
  guint64 unmatched_end = 0, unclosed = 0, misplaced = 0;
  char open_ph = async ? 'b' : 'B', close_ph = async ? 'e' : 'E';

  if (edges->len > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (edges->data, edges->len, sizeof (IvRawEdge), compare_edges);
  for (guint i = 0; i <= edges->len; i++)
    {
      IvRawEdge *e = i < edges->len ? &g_array_index (edges, IvRawEdge, i) : NULL;
      /* A new thread (or async id): whatever is still open ends with the trace. */
      if (stack->len && (!e || e->key != g_array_index (stack, IvRawEdge, 0).key))
        {
          while (stack->len)
            {
              IvRawEdge *o = &g_array_index (stack, IvRawEdge, stack->len - 1);
              IvRawSlice s = { o->ts_ns,    MAX (end_ns - o->ts_ns, 0),
                               o->args_off, o->args_len,
                               o->name,     o->cat,
                               o->track };
              /* what was left open, by name (--stats --json's open_names) */
              gboolean seen = FALSE;
              for (guint k = 0; k < b->trace->open_names->len && !seen && k < 1000; k++)
                seen = g_array_index (b->trace->open_names, guint32, k) == o->name;
              if (!seen && b->trace->open_names->len < 1000)
                g_array_append_val (b->trace->open_names, o->name);
              {
                /* slices number in the order they are added: this one's id */
                guint32 id = (guint32) b->slices.len;
                if (!_iv_trace_builder_add_slice (b, &s)
                    || !_iv_trace_builder_add (b, b->open_raw, &id))
                  goto out;
              }
              stack->len--;
              unclosed++;
            }
        }
      if (!e)
        break;
      if (e->ph == open_ph)
        {
          if (!_iv_trace_builder_add (b, stack, e))
            goto out;
        }
      else if (e->ph == close_ph)
        {
          /* Perfetto's rule (slice_tracker.cc, MatchingIncompleteSliceIndex): an end
           * closes the innermost open begin of its name and category — a nameless end
           * any name, an end without category any category — and is dropped when none
           * matches. Begins still open above the one it closes end with it: Perfetto
           * cuts them there as soon as the thread has a later event (MaybeCloseStack). */
          guint k = stack->len;
          while (k > 0 && !edge_closes (&g_array_index (stack, IvRawEdge, k - 1), e))
            k--;
          if (k == 0)
            {
              unmatched_end++;
              continue;
            }
          misplaced += stack->len - k;
          while (stack->len >= k)
            {
              /* named by its begin: an end matching it has its name, or none */
              IvRawEdge *o = &g_array_index (stack, IvRawEdge, stack->len - 1);
              IvRawSlice s
                  = { o->ts_ns, e->ts_ns - o->ts_ns, o->args_off, o->args_len, o->name, o->cat,
                      o->track };
              if (!_iv_trace_builder_add_slice (b, &s))
                goto out;
              stack->len--;
            }
        }
      else if (e->ph == 'n')
        {
          IvInstant in = { e->ts_ns, e->name, e->track, 't' };
          if (!_iv_trace_builder_add (b, b->trace->instants, &in))
            goto out;
        }
    }
  if (async)
    b->trace->n_async_slices = 0; /* counted when the columns are built */
  if (unmatched_end)
    _iv_trace_warn (b->trace,
                    "%" G_GUINT64_FORMAT " %s events had no matching %s (of their name and "
                    "category) and were skipped",
                    unmatched_end, async ? "async end (e)" : "end (E)", async ? "b" : "B");
  if (misplaced)
    _iv_trace_warn (b->trace,
                    "%" G_GUINT64_FORMAT " %s were still open when an end closed one outside "
                    "them; they end there",
                    misplaced, async ? "async spans (b)" : "begin events (B)");
  if (unclosed)
    _iv_trace_warn (b->trace,
                    "%" G_GUINT64_FORMAT
                    " %s did not end (never closed): drawn to the end of the trace with an "
                    "open end, left out of the statistics (open_spans)",
                    unclosed, async ? "async spans (b)" : "begin events (B)");
out:
  _iv_grow_array_free (stack);
}

/* ---------- nesting and columns ---------- */

/* Comparators get their context as user data (never a file-scope variable): traces load
 * on worker threads, several at once. */
static int
compare_slices (const void *pa, const void *pb, void *user_data)
{
  const IvSliceColumns *c = user_data;
  guint32 a = *(const guint32 *) pa, b = *(const guint32 *) pb;
  if (c->track[a] != c->track[b])
    return c->track[a] < c->track[b] ? -1 : 1;
  if (c->start_ns[a] != c->start_ns[b])
    return c->start_ns[a] < c->start_ns[b] ? -1 : 1;
  /* Longer first: a parent comes before the children that start with it. */
  if (c->dur_ns[a] != c->dur_ns[b])
    return c->dur_ns[a] > c->dur_ns[b] ? -1 : 1;
  return a < b ? -1 : 1;
}

/* A slice's place while its track is laid out, in the depth scratch: its row kind, whether
 * it is on an overflow row, and its level (nesting depth, or overflow row number). */
#define OVERFLOW_BIT 0x80000000u
#define KIND_SHIFT 28
#define KIND_MASK (0x7u << KIND_SHIFT)
#define LEVEL_OF(d) ((d) &IV_TRACE_LEVEL_MAX)
#define KIND_OF(d) (((d) &KIND_MASK) >> KIND_SHIFT)

G_STATIC_ASSERT (IV_N_ROW_KINDS <= 8);

/* Pops the top of a max-heap of gsize keys (the last element sifts down). */
static void
heap_pop (IvGrowArray *heap)
{
  gsize last = g_array_index (heap, gsize, heap->len - 1), at = 0;

  heap->len--;
  while (heap->len)
    {
      gsize l = 2 * at + 1, r = l + 1, big = at;
      gsize vbig = last;
      if (l < heap->len && g_array_index (heap, gsize, l) > vbig)
        big = l, vbig = g_array_index (heap, gsize, l);
      if (r < heap->len && g_array_index (heap, gsize, r) > vbig)
        big = r, vbig = g_array_index (heap, gsize, r);
      if (big == at)
        break;
      g_array_index (heap, gsize, at) = vbig;
      at = big;
    }
  if (heap->len)
    g_array_index (heap, gsize, at) = last;
}

/* Pushes @key on a max-heap of gsize keys; FALSE when out of memory. */
static gboolean
heap_push (IvGrowArray *heap, gsize key)
{
  gsize at = heap->len;

  if (!_iv_grow_array_reserve (heap, (gsize) heap->len + 1))
    return FALSE;
  heap->len++;
  while (at > 0 && g_array_index (heap, gsize, (at - 1) / 2) < key)
    {
      g_array_index (heap, gsize, at) = g_array_index (heap, gsize, (at - 1) / 2);
      at = (at - 1) / 2;
    }
  g_array_index (heap, gsize, at) = key;
  return TRUE;
}

gboolean
_iv_trace_attribute_self (const gint64 *start_ns, const gint64 *dur_ns, const guint32 *order,
                          gsize n, const guint8 *open_bits, gint64 clip_lo, gint64 clip_hi,
                          gint64 *self)
{
  /* as deep as the slices nest: sized by the file, so its growth is tried. Its keys are
   * positions in @order (later: further in), those of closed slices raised by @n so that
   * any closed slice covering an instant comes before every open one. */
  IvGrowArray *heap = _iv_grow_array_new (sizeof (gsize));
  gint64 now = G_MININT64;

#define OPEN(id) (open_bits && (open_bits[(id) / 8] >> ((id) % 8) & 1))
  for (gsize i = 0; i < n; i++)
    self[order[i]] = 0;
  for (gsize i = 0; i <= n; i++)
    {
      gint64 next = i < n ? start_ns[order[i]] : G_MAXINT64;
      /* the time up to @next goes to whichever open slice is innermost */
      while (heap->len && now < next)
        {
          gsize key = g_array_index (heap, gsize, 0);
          guint32 id = order[key >= n ? key - n : key];
          gint64 end = start_ns[id] + dur_ns[id], to = MIN (end, next);
          if (end <= now)
            {
              heap_pop (heap);
              continue;
            }
          /* only the part inside the clip counts */
          if (MIN (to, clip_hi) > MAX (now, clip_lo))
            self[id] += MIN (to, clip_hi) - MAX (now, clip_lo);
          now = to;
        }
      if (i == n)
        break;
      now = MAX (now, next);
      if (!heap_push (heap, OPEN (order[i]) ? i : i + n))
        {
          _iv_grow_array_free (heap);
          return FALSE;
        }
    }
#undef OPEN
  _iv_grow_array_free (heap);
  return TRUE;
}

/* Rows handed out first-fit: each item goes on the lowest-numbered row free at its start
 * (every item there has ended), or a new one. Two heaps keep it O(log rows) an item, so
 * a stream of a million overlapping kernels costs what its size does. */
typedef struct
{
  IvGrowArray *busy;      /* (end, row) pairs, a min-heap by end (keys negated) */
  IvGrowArray *free_rows; /* a min-heap of rows (keys negated) */
  guint n_rows;
} FirstFit;

static void
first_fit_init (FirstFit *ff)
{
  ff->busy = _iv_grow_array_new (2 * sizeof (gint64));
  ff->free_rows = _iv_grow_array_new (sizeof (gsize));
  ff->n_rows = 0;
}

static void
first_fit_clear (FirstFit *ff)
{
  _iv_grow_array_free (ff->busy);
  _iv_grow_array_free (ff->free_rows);
}

#define BUSY_END(h, i) (((gint64 *) (h)->data)[2 * (i)])
#define BUSY_ROW(h, i) (((gint64 *) (h)->data)[2 * (i) + 1])

static void
busy_swap (IvGrowArray *h, gsize a, gsize b)
{
  gint64 e = BUSY_END (h, a), r = BUSY_ROW (h, a);
  BUSY_END (h, a) = BUSY_END (h, b), BUSY_ROW (h, a) = BUSY_ROW (h, b);
  BUSY_END (h, b) = e, BUSY_ROW (h, b) = r;
}

/* The row for an item [@start, @end); FALSE when out of memory. */
static gboolean
first_fit (FirstFit *ff, gint64 start, gint64 end, guint *row)
{
  IvGrowArray *h = ff->busy;

  /* rows whose items have all ended by @start become free */
  while (h->len && BUSY_END (h, 0) <= start)
    {
      gsize at = 0;
      if (!heap_push (ff->free_rows, G_MAXSIZE - (gsize) BUSY_ROW (h, 0)))
        return FALSE;
      h->len--;
      if (!h->len)
        break;
      BUSY_END (h, 0) = BUSY_END (h, h->len), BUSY_ROW (h, 0) = BUSY_ROW (h, h->len);
      for (;;)
        {
          gsize l = 2 * at + 1, r = l + 1, small = at;
          if (l < h->len && BUSY_END (h, l) < BUSY_END (h, small))
            small = l;
          if (r < h->len && BUSY_END (h, r) < BUSY_END (h, small))
            small = r;
          if (small == at)
            break;
          busy_swap (h, at, small);
          at = small;
        }
    }
  if (ff->free_rows->len)
    {
      *row = (guint) (G_MAXSIZE - g_array_index (ff->free_rows, gsize, 0));
      heap_pop (ff->free_rows);
    }
  else
    *row = ff->n_rows++;
  if (!_iv_grow_array_reserve (h, (gsize) h->len + 1))
    return FALSE;
  {
    gsize at = h->len++;
    BUSY_END (h, at) = end, BUSY_ROW (h, at) = *row;
    while (at > 0 && BUSY_END (h, (at - 1) / 2) > BUSY_END (h, at))
      {
        busy_swap (h, at, (at - 1) / 2);
        at = (at - 1) / 2;
      }
  }
  return TRUE;
}
#undef BUSY_END
#undef BUSY_ROW

/* What laying out a track counts, for the trace's warnings and --stats. */
typedef struct
{
  guint max_depth;
  guint64 partial, list_overlaps, overrun;
  gint64 max_overrun;
  gboolean too_deep;
} Placement;

/* Depths for slices that nest (@order: by start, longest first; every one of @kind). A
 * slice ending at most @tolerance after the one it starts in is drawn as its child,
 * ending — for the rest of the layout — where its parent does (the profiler rounded the
 * two times apart); its duration stays as recorded. One ending later goes on an overflow
 * row, first fit. FALSE when out of memory. */
static gboolean
place_nested (const IvSliceColumns *c, const guint32 *order, gsize n, gint64 tolerance, guint kind,
              guint32 *depth, Placement *pl)
{
  /* as deep as the slices nest, as many as overlap: tried. The stack holds each open
   * slice and the end the layout gives it. */
  IvGrowArray *stack = _iv_grow_array_new (sizeof (guint32));
  IvGrowArray *stack_end = _iv_grow_array_new (sizeof (gint64));
  FirstFit overflow;
  gboolean ok = FALSE;

  first_fit_init (&overflow);
  for (gsize i = 0; i < n; i++)
    {
      guint32 si = order[i];
      gint64 start = c->start_ns[si], end = start + c->dur_ns[si], placed = end;

      while (stack->len && g_array_index (stack_end, gint64, stack->len - 1) <= start)
        stack->len--, stack_end->len--;
      if (stack->len)
        {
          gint64 parent_end = g_array_index (stack_end, gint64, stack->len - 1);
          if (end > parent_end && end - parent_end <= tolerance)
            {
              placed = parent_end;
              pl->overrun++;
              pl->max_overrun = MAX (pl->max_overrun, end - parent_end);
            }
          else if (end > parent_end)
            {
              /* Starts inside its parent but ends after it: a row of its own. */
              guint row;
              if (!first_fit (&overflow, start, end, &row))
                goto out;
              if (row > IV_TRACE_LEVEL_MAX)
                {
                  pl->too_deep = TRUE;
                  goto out;
                }
              depth[si] = OVERFLOW_BIT | (guint32) kind << KIND_SHIFT | row;
              pl->partial++;
              continue;
            }
        }
      if (stack->len > IV_TRACE_LEVEL_MAX)
        {
          pl->too_deep = TRUE;
          goto out;
        }
      depth[si] = (guint32) kind << KIND_SHIFT | stack->len;
      pl->max_depth = MAX (pl->max_depth, stack->len);
      if (!_iv_grow_array_append (stack, &si) || !_iv_grow_array_append (stack_end, &placed))
        goto out;
    }
  ok = TRUE;
out:
  _iv_grow_array_free (stack);
  _iv_grow_array_free (stack_end);
  first_fit_clear (&overflow);
  return ok;
}

/* Rows for slices that never nest (GPU kernels, syncs: @order by start): each on the
 * first row free at its start — row 0, or an overflow row when it overlaps what is
 * running — so every one is drawn and counted. Self time is the duration. FALSE when
 * out of memory. */
static gboolean
place_list (const IvSliceColumns *c, const guint32 *order, gsize n, guint kind, guint32 *depth,
            gint64 *self, Placement *pl)
{
  FirstFit ff;
  gboolean ok = TRUE;

  first_fit_init (&ff);
  for (gsize i = 0; i < n && ok; i++)
    {
      guint32 si = order[i];
      guint row;
      if (!(ok = first_fit (&ff, c->start_ns[si], c->start_ns[si] + c->dur_ns[si], &row)))
        break;
      if (row > IV_TRACE_LEVEL_MAX)
        {
          pl->too_deep = TRUE;
          ok = FALSE;
          break;
        }
      depth[si] = (guint32) kind << KIND_SHIFT | (row ? OVERFLOW_BIT | (row - 1) : 0);
      pl->list_overlaps += row > 0;
      self[si] = c->dur_ns[si];
    }
  first_fit_clear (&ff);
  return ok;
}

/* The row kind of a category, remembered for the last few categories seen: a trace has a
 * handful, and each slice asks. */
typedef struct
{
  guint32 id[64];
  guint8 kind[64];
  gboolean used[64];
} KindCache;

static guint
category_kind (const IvTrace *t, KindCache *kc, guint32 cat)
{
  guint slot = cat % G_N_ELEMENTS (kc->id);

  if (!kc->used[slot] || kc->id[slot] != cat)
    {
      kc->id[slot] = cat;
      kc->kind[slot] = (guint8) iv_trace_gpu_category_kind (iv_trace_string (t, cat));
      kc->used[slot] = TRUE;
    }
  return kc->kind[slot];
}

IvRowKind
iv_trace_gpu_category_kind (const char *cat)
{
  static const char *const work[] = { "kernel", "gpu_memcpy",          "gpu_memset",     "memcpy",
                                      "memset", "cuda_profiler_range", "mtia_ccp_events" };

  if (!cat)
    return IV_ROW_NESTED;
  for (guint i = 0; i < G_N_ELEMENTS (work); i++)
    if (g_ascii_strcasecmp (cat, work[i]) == 0)
      return IV_ROW_GPU_WORK;
  if (g_ascii_strcasecmp (cat, "gpu_user_annotation") == 0)
    return IV_ROW_GPU_ANNOTATION;
  if (g_ascii_strcasecmp (cat, "cuda_sync") == 0)
    return IV_ROW_GPU_SYNC;
  return IV_ROW_NESTED;
}

/* A GPU track's slices (@o, by start, longest first): grouped by row kind (@tmp is
 * scratch as long), annotations and other categories nested, kernels and syncs as lists;
 * each group's self times within the group. FALSE when out of memory. */
static gboolean
place_gpu_track (IvTraceBuilder *b, guint32 *o, gsize m, guint32 *depth, gint64 *self, guint32 *tmp,
                 const guint8 *open_bits, Placement *pl)
{
  const IvSliceColumns *c = &b->slices;
  KindCache kc = { { 0 } };
  gsize count[IV_N_ROW_KINDS + 1] = { 0 }, at[IV_N_ROW_KINDS];

  for (gsize i = 0; i < m; i++)
    {
      guint k = category_kind (b->trace, &kc, c->cat[o[i]]);
      if (k == IV_ROW_NESTED)
        k = IV_ROW_GPU_OTHER;
      depth[o[i]] = (guint32) k << KIND_SHIFT;
      count[k + 1]++;
    }
  for (guint k = 0; k < IV_N_ROW_KINDS; k++)
    count[k + 1] += count[k];
  memcpy (at, count, sizeof at);
  /* a stable partition: each group stays in start order */
  for (gsize i = 0; i < m; i++)
    tmp[at[KIND_OF (depth[o[i]])]++] = o[i];
  memcpy (o, tmp, m * sizeof (guint32));
  for (guint k = 0; k < IV_N_ROW_KINDS; k++)
    {
      guint32 *g = o + count[k];
      gsize n = count[k + 1] - count[k];
      if (n == 0)
        continue;
      if (k == IV_ROW_GPU_WORK || k == IV_ROW_GPU_SYNC)
        {
          if (!place_list (c, g, n, k, depth, self, pl))
            return FALSE;
        }
      else if (!place_nested (c, g, n, b->overlap_tolerance_ns, k, depth, pl)
               || !_iv_trace_attribute_self (c->start_ns, c->dur_ns, g, n, open_bits, G_MININT64,
                                             G_MAXINT64, self))
        return FALSE;
    }
  return TRUE;
}

/* ---------- process and track order ---------- */

static gboolean
all_digits (const char *s)
{
  if (!s || !*s)
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s) && *s != '-')
      return FALSE;
  return TRUE;
}

/* "Thread 7"; a negative tid is a 32-bit one printed signed (Chrome, some Kineto builds
 * do), so it reads as the unsigned number it is; text is a name already. */
static char *
thread_name_of_key (const char *key)
{
  gint64 tid;
  char number[16];

  if (!key[0])
    return try_strdup ("Process events");
  if (!all_digits (key))
    return try_strdup (key);
  tid = g_ascii_strtoll (key, NULL, 10);
  if (tid < 0 && tid >= G_MININT32)
    {
      g_snprintf (number, sizeof number, "%u", (guint32) tid);
      return try_concat ("Thread ", number, NULL);
    }
  return try_concat ("Thread ", key, NULL);
}

/* Threads of one process sharing a name (seven "ThreadPoolForegroundWorker"s) each carry
 * their tid, so rows and exports can be told apart. */
static gboolean
name_duplicate_threads (IvTrace *t)
{
  /* (process, name) → how many threads have it: a pool of the pairs, a count per id;
   * NONE for a track that is not a named thread */
  g_autoptr (IvIntern) pairs = iv_intern_try_new ();
  g_autofree guint32 *pair_of = g_try_new (guint32, MAX (t->tracks->len, 1));
  g_autofree guint *count = NULL;
  char process[16];

  if (!pairs || !pair_of)
    return FALSE;
  for (guint i = 0; i < t->tracks->len; i++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      pair_of[i] = IV_INTERN_NONE;
      if (tr->kind == IV_TRACK_THREAD && tr->name)
        {
          g_snprintf (process, sizeof process, "%u", tr->process);
          if ((pair_of[i] = _iv_trace_intern_joined (pairs, process, tr->name, NULL))
              == IV_INTERN_NONE)
            return FALSE;
        }
    }
  count = g_try_new0 (guint, MAX (iv_intern_size (pairs), 1));
  if (!count)
    return FALSE;
  for (guint i = 0; i < t->tracks->len; i++)
    if (pair_of[i] != IV_INTERN_NONE)
      count[pair_of[i]]++;
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      if (pair_of[i] == IV_INTERN_NONE || !tr->key[0] || count[pair_of[i]] < 2)
        continue;
      char *named = try_concat (tr->name, " (", tr->key, ")", NULL);
      if (!named)
        return FALSE;
      g_free (tr->name);
      tr->name = named;
    }
  return TRUE;
}

/* Thread tracks holding GPU work, annotations or syncs, and nothing else (by their
 * slices' categories), become GPU tracks: Kineto writes the device as pid and the stream
 * as tid, and its categories say what ran there, so a trace cut down to its events,
 * without the naming metadata, still has its streams. A thread that also runs other
 * categories is a CPU thread whatever one of its slices is called. FALSE when out of
 * memory. */
static gboolean
mark_gpu_tracks (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;
  const IvSliceColumns *c = &b->slices;
  KindCache kc = { { 0 } };
  /* per track: bit 0, a GPU category seen; bit 1, another one */
  g_autofree guint8 *seen = g_try_malloc0 (MAX (t->tracks->len, 1));

  if (!seen)
    return FALSE;
  for (gsize i = 0; i < c->len; i++)
    seen[c->track[i]] |= category_kind (t, &kc, c->cat[i]) != IV_ROW_NESTED ? 1 : 2;
  for (guint k = 0; k < t->tracks->len; k++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (tr->kind == IV_TRACK_THREAD && seen[k] == 1)
        tr->kind = IV_TRACK_GPU;
    }
  return TRUE;
}

/* Processes and tracks named and classified; FALSE when out of memory for the names. */
static gboolean
classify (IvTrace *t)
{
  g_autofree guint8 *holds = g_try_malloc0 (MAX (t->processes->len, 1));

  if (!holds)
    return FALSE;
  for (guint i = 0; i < t->processes->len; i++)
    {
      IvProcess *p = t->processes->pdata[i];
      /* Kineto names every process after the program and labels GPUs "GPU 0". */
      if (p->labels && g_str_has_prefix (p->labels, "GPU "))
        {
          char *name = try_strdup (p->labels);
          if (!name)
            return FALSE;
          g_free (p->name);
          p->name = name;
        }
      if (p->name && (g_str_has_prefix (p->name, "GPU ") || g_str_has_prefix (p->name, "gpu ")))
        p->kind = IV_PROCESS_GPU;
    }
  /* The naming metadata, where the categories did not decide: "stream 7" threads, and
   * unnamed numbered threads of a GPU process. */
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      const IvProcess *p = t->processes->pdata[tr->process];
      const char *nm = tr->name ? tr->name : tr->key;
      /* (a device's process is "GPU 0"; Chromium's "GPU Process" runs threads) */
      gboolean device = p->kind == IV_PROCESS_GPU && p->name && all_digits (p->name + 4);
      if (tr->kind == IV_TRACK_THREAD
          && ((nm && g_str_has_prefix (nm, "stream "))
              || (device && !tr->name && all_digits (tr->key))))
        tr->kind = IV_TRACK_GPU;
      /* bit 0: a GPU track; bit 1: a thread track */
      holds[tr->process] |= tr->kind == IV_TRACK_GPU ? 1 : tr->kind == IV_TRACK_THREAD ? 2 : 0;
    }
  for (guint i = 0; i < t->processes->len; i++)
    {
      IvProcess *p = t->processes->pdata[i];
      /* a process of GPU tracks only is a device, named or not */
      if (holds[i] == 1)
        p->kind = IV_PROCESS_GPU;
      if (p->kind == IV_PROCESS_GPU)
        p->gpu_index = (int) CLAMP (p->name && g_str_has_prefix (p->name, "GPU ")
                                        ? g_ascii_strtoll (p->name + 4, NULL, 10)
                                    : all_digits (p->key) ? g_ascii_strtoll (p->key, NULL, 10)
                                                          : -1,
                                    -1, G_MAXINT);
      else if (p->name || all_digits (p->key))
        p->kind = IV_PROCESS_CPU;
      /* a pid that is text is already a name ("GPU 0", "Browser"); a number is not */
      if (!p->name
          && !(p->name
               = !all_digits (p->key)
                     ? try_strdup (p->key)
                     : try_concat (p->kind == IV_PROCESS_GPU ? "GPU " : "Process ", p->key, NULL)))
        return FALSE;
    }
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      if (tr->name)
        {
          /* Kineto writes "stream 7 ": the space is no part of the name */
          if (tr->kind == IV_TRACK_GPU)
            g_strchomp (tr->name);
          continue;
        }
      if (tr->kind == IV_TRACK_GPU)
        tr->name = g_str_has_prefix (tr->key, "stream") ? try_strdup (tr->key)
                                                        : try_concat ("stream ", tr->key, NULL);
      else if (tr->kind == IV_TRACK_THREAD)
        tr->name = thread_name_of_key (tr->key);
      else
        tr->name = try_strdup (tr->key);
      if (!tr->name)
        return FALSE;
    }
  return name_duplicate_threads (t);
}

/* What the process and track comparators read. */
typedef struct
{
  const IvTrace *trace;
  const guint *process_rank;
} TrackOrder;

static gint64
numeric_key (const char *key)
{
  return all_digits (key) ? g_ascii_strtoll (key, NULL, 10) : G_MAXINT64;
}

static int
compare_processes (const void *pa, const void *pb, void *user_data)
{
  const TrackOrder *o = user_data;
  const IvProcess *a = o->trace->processes->pdata[*(const guint *) pa];
  const IvProcess *b = o->trace->processes->pdata[*(const guint *) pb];
  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind == IV_PROCESS_CPU   ? -1
           : b->kind == IV_PROCESS_CPU ? 1
           : a->kind == IV_PROCESS_GPU ? -1
                                       : 1;
  if (a->gpu_index != b->gpu_index)
    return a->gpu_index < b->gpu_index ? -1 : 1;
  if (numeric_key (a->key) != numeric_key (b->key))
    return numeric_key (a->key) < numeric_key (b->key) ? -1 : 1;
  return g_strcmp0 (a->key, b->key);
}

static int
compare_tracks (const void *pa, const void *pb, void *user_data)
{
  const TrackOrder *o = user_data;
  const IvTrack *a = &g_array_index (o->trace->tracks, IvTrack, *(const guint *) pa);
  const IvTrack *b = &g_array_index (o->trace->tracks, IvTrack, *(const guint *) pb);
  if (a->process != b->process)
    return o->process_rank[a->process] < o->process_rank[b->process] ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if (numeric_key (a->key) != numeric_key (b->key))
    return numeric_key (a->key) < numeric_key (b->key) ? -1 : 1;
  return g_strcmp0 (a->name, b->name);
}

/* ---------- flows ---------- */

/* The deepest slice of @track that contains @ts, or G_MAXSIZE. On a GPU track: the
 * kernel (or copy, or set) running then that started last, on any of its rows — a launch's
 * flow enters the kernel, not the annotation drawn over it — else whatever else holds
 * @ts and started last. */
static gsize
enclosing_slice (const IvTrace *t, guint track, gint64 ts)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
  gsize best = G_MAXSIZE;
  gboolean gpu = tr->kind == IV_TRACK_GPU, best_work = FALSE;

  for (guint r = 0; r < tr->n_rows; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
      gsize s = iv_trace_row_last_by (t, tr->first_row + r, ts);
      gboolean work = row->kind == IV_ROW_GPU_WORK;
      if (s == G_MAXSIZE || t->start_ns[s] + t->dur_ns[s] < ts || (!gpu && row->overflow))
        continue;
      if (!gpu || best == G_MAXSIZE || (work && !best_work)
          || (work == best_work && t->start_ns[s] >= t->start_ns[best]))
        best = s, best_work = work;
    }
  return best;
}

/* The first slice of @track starting at or after @ts (any depth), or G_MAXSIZE. */
static gsize
next_slice (const IvTrace *t, guint track, gint64 ts)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
  gsize best = G_MAXSIZE;

  for (guint r = 0; r < tr->n_rows; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
      gsize s = iv_trace_row_first_at (t, tr->first_row + r, ts);
      if (s < row->first + row->n && (best == G_MAXSIZE || t->start_ns[s] < t->start_ns[best]))
        best = s;
    }
  return best;
}

static int
compare_flows (const void *pa, const void *pb)
{
  const IvRawFlow *a = pa, *b = pb;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->ts_ns != b->ts_ns)
    return a->ts_ns < b->ts_ns ? -1 : 1;
  /* At one instant a flow starts before it steps or ends, whatever the file order. */
  if (a->ph != b->ph)
    return (a->ph == 's'   ? 0
            : a->ph == 't' ? 1
                           : 2)
                   < (b->ph == 's'   ? 0
                      : b->ph == 't' ? 1
                                     : 2)
               ? -1
               : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* FALSE when out of memory. */
static gboolean
bind_flows (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;
  IvGrowArray *raw = b->flows;
  guint64 dangling = 0;

  if (raw->len > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (raw->data, raw->len, sizeof (IvRawFlow), compare_flows);
  for (guint i = 0; i < raw->len;)
    {
      guint j = i;
      IvRawFlow *prev = NULL;
      gsize prev_slice = G_MAXSIZE;
      gboolean has_start = FALSE, has_end = FALSE;

      while (j < raw->len
             && g_array_index (raw, IvRawFlow, j).key == g_array_index (raw, IvRawFlow, i).key)
        j++;
      for (guint k = i; k < j; k++)
        {
          has_start |= g_array_index (raw, IvRawFlow, k).ph == 's';
          has_end |= g_array_index (raw, IvRawFlow, k).ph == 'f';
        }
      /* Only complete flows (a start and an end) are drawn; the rest are counted. */
      if (!has_start || !has_end)
        {
          dangling += j - i;
          i = j;
          continue;
        }
      for (guint k = i; k < j; k++)
        {
          IvRawFlow *f = &g_array_index (raw, IvRawFlow, k);
          gsize slice = f->ph == 'f' && !f->enclosing ? next_slice (t, f->track, f->ts_ns)
                                                      : enclosing_slice (t, f->track, f->ts_ns);
          if (prev && f->ph != 's')
            {
              IvFlow flow
                  = { prev_slice, slice, prev->ts_ns, f->ts_ns, f->name ? f->name : prev->name,
                      f->cat };
              if (!_iv_grow_array_append (t->flows, &flow))
                return FALSE;
            }
          /* An end connects from the last start or step and leaves it the origin: two
           * ends after one start are two arrows from it (Perfetto's FlowTracker::End with
           * close_flow false, json_trace_parser.cc). */
          if (f->ph != 'f')
            {
              prev = f;
              prev_slice = slice;
            }
        }
      i = j;
    }
  t->n_dangling_flows = dangling;
  if (dangling)
    _iv_trace_warn (t, "%" G_GUINT64_FORMAT " flow events dangle (no matching start or end)",
                    dangling);
  return TRUE;
}

/* ---------- finish ---------- */

typedef struct
{
  gint64 ts_ns;
  double value;
} Sample;

/* _iv_trace_sort is a stable merge sort: equal times keep their file order. */
static int
compare_samples (const void *pa, const void *pb, void *user_data)
{
  const Sample *a = pa, *b = pb;
  return a->ts_ns < b->ts_ns ? -1 : a->ts_ns > b->ts_ns;
}

static gboolean
build_samples (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;
  IvGrowArray *raw = b->samples;
  g_autofree gsize *count = g_try_new0 (gsize, MAX (t->series->len, 1));
  g_autofree gsize *fill = g_try_new0 (gsize, MAX (t->series->len, 1));
  gsize off = 0;

  if (!count || !fill)
    return FALSE;
  for (guint i = 0; i < raw->len; i++)
    count[g_array_index (raw, IvRawSample, i).series]++;
  for (guint s = 0; s < t->series->len; s++)
    {
      IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, s);
      se->first = off;
      se->n = count[s];
      se->min = G_MAXDOUBLE;
      se->max = -G_MAXDOUBLE;
      fill[s] = off;
      off += count[s];
    }
  t->sample_ns = g_try_new (gint64, MAX (raw->len, 1));
  t->sample_value = g_try_new (double, MAX (raw->len, 1));
  if (!t->sample_ns || !t->sample_value)
    return FALSE;
  t->n_samples = raw->len;
  for (guint i = 0; i < raw->len; i++)
    {
      IvRawSample *r = &g_array_index (raw, IvRawSample, i);
      gsize at = fill[r->series]++;
      IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, r->series);
      t->sample_ns[at] = r->ts_ns;
      t->sample_value[at] = r->value;
      se->min = MIN (se->min, r->value);
      se->max = MAX (se->max, r->value);
    }
  /* Samples of a series in time order: usually they are already; otherwise a stable sort
   * (an insertion sort would be quadratic on a series written backwards). */
  for (guint s = 0; s < t->series->len; s++)
    {
      IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, s);
      gboolean sorted = TRUE;
      for (gsize i = se->first + 1; i < se->first + se->n && sorted; i++)
        sorted = t->sample_ns[i - 1] <= t->sample_ns[i];
      if (!sorted)
        {
          g_autofree Sample *tmp = g_try_new (Sample, se->n);
          if (!tmp)
            return FALSE;
          for (gsize i = 0; i < se->n; i++)
            tmp[i] = (Sample){ t->sample_ns[se->first + i], t->sample_value[se->first + i] };
          if (!_iv_trace_sort (tmp, se->n, sizeof (Sample), compare_samples, NULL))
            return FALSE;
          for (gsize i = 0; i < se->n; i++)
            t->sample_ns[se->first + i] = tmp[i].ts_ns,
                                     t->sample_value[se->first + i] = tmp[i].value;
        }
      if (se->cumulative)
        {
          /* changes become the level they lead to, in time order */
          double level = 0;
          se->min = G_MAXDOUBLE, se->max = -G_MAXDOUBLE;
          for (gsize i = se->first; i < se->first + se->n; i++)
            {
              level += t->sample_value[i];
              t->sample_value[i] = level;
              se->min = MIN (se->min, level), se->max = MAX (se->max, level);
            }
        }
    }
  return TRUE;
}

/* Series in track order (first appearance within a track), so that a track's series are
 * first_series … first_series + n_series − 1: drawing 100,000 counter tracks must not
 * scan every series for each track. A counting sort by track, stable; samples follow.
 * FALSE when out of memory. */
static gboolean
group_series_by_track (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;
  guint n = t->series->len, n_tracks = t->tracks->len;
  g_autofree guint *start = g_try_new0 (guint, n_tracks + 1);
  g_autofree guint *new_index = g_try_new (guint, MAX (n, 1));
  IvGrowArray *sorted = _iv_grow_array_sized_new (sizeof (IvCounterSeries), n);

  if (!start || !new_index || !sorted)
    {
      _iv_grow_array_free (sorted);
      return FALSE;
    }
  for (guint s = 0; s < n; s++)
    start[g_array_index (t->series, IvCounterSeries, s).track + 1]++;
  for (guint k = 0; k < n_tracks; k++)
    start[k + 1] += start[k];
  sorted->len = n;
  for (guint s = 0; s < n; s++)
    {
      IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, s);
      new_index[s] = start[se->track]++;
      g_array_index (sorted, IvCounterSeries, new_index[s]) = *se;
    }
  _iv_grow_array_free (t->series);
  t->series = sorted;
  for (guint i = 0; i < b->samples->len; i++)
    {
      IvRawSample *r = &g_array_index (b->samples, IvRawSample, i);
      r->series = new_index[r->series];
    }
  return TRUE;
}

static int
compare_instants (const void *pa, const void *pb)
{
  const IvInstant *a = pa, *b = pb;
  return a->ts_ns < b->ts_ns ? -1 : a->ts_ns > b->ts_ns;
}

/* The finish step's scratch and the columns it adds, all tried before any work: running
 * out of memory is found before anything is half-built, and reported. */
static gboolean
allocate_scratch (IvTrace *t, gsize n, guint32 **order, guint32 **depth, gint64 **self)
{
  gsize m = MAX (n, 1);

  *order = iv_big_alloc (m * sizeof (guint32));
  *depth = iv_big_alloc (m * sizeof (guint32));
  *self = iv_big_alloc (m * sizeof (gint64));
  t->coarse_start = g_try_new (gint64, n / IV_TRACE_COARSE + 1);
  t->coarse_max_dur = g_try_new0 (gint64, n / IV_TRACE_COARSE + 1);
  return *order && *depth && *self && t->coarse_start && t->coarse_max_dur;
}

/* The trace's extent over everything with a time, for closing what is left open. */
static void
trace_extent (IvTraceBuilder *b, gint64 *start, gint64 *end)
{
  IvTrace *t = b->trace;

  *start = G_MAXINT64, *end = G_MININT64;
  for (gsize i = 0; i < b->slices.len; i++)
    {
      *start = MIN (*start, b->slices.start_ns[i]);
      *end = MAX (*end, b->slices.start_ns[i] + b->slices.dur_ns[i]);
    }
  for (guint i = 0; i < b->edges->len; i++)
    *start = MIN (*start, g_array_index (b->edges, IvRawEdge, i).ts_ns),
    *end = MAX (*end, g_array_index (b->edges, IvRawEdge, i).ts_ns);
  for (guint i = 0; i < b->async_edges->len; i++)
    *start = MIN (*start, g_array_index (b->async_edges, IvRawEdge, i).ts_ns),
    *end = MAX (*end, g_array_index (b->async_edges, IvRawEdge, i).ts_ns);
  for (guint i = 0; i < t->instants->len; i++)
    *start = MIN (*start, g_array_index (t->instants, IvInstant, i).ts_ns),
    *end = MAX (*end, g_array_index (t->instants, IvInstant, i).ts_ns);
  for (guint i = 0; i < b->samples->len; i++)
    *start = MIN (*start, g_array_index (b->samples, IvRawSample, i).ts_ns),
    *end = MAX (*end, g_array_index (b->samples, IvRawSample, i).ts_ns);
}

/* Every begin/end pair becomes a slice (what is left open closes at @end); the raw edges
 * are freed as soon as they are done with. */
static void
pair_edges (IvTraceBuilder *b, gint64 end)
{
  gsize before;

  match_edges (b, b->edges, FALSE, end);
  before = b->slices.len;
  match_edges (b, b->async_edges, TRUE, end);
  b->trace->n_async_slices = b->slices.len - before;
  g_clear_pointer (&b->edges, _iv_grow_array_free);
  g_clear_pointer (&b->async_edges, _iv_grow_array_free);
  b->edges = _iv_grow_array_new (sizeof (IvRawEdge));
  b->async_edges = _iv_grow_array_new (sizeof (IvRawEdge));
}

/* Tracks in display order (processes ranked, then their tracks), and every track index
 * the builder holds (slices, instants, flows, series) renumbered to match. FALSE when
 * out of memory (the tracks may then be named but not yet ordered). */
static gboolean
order_tracks (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;
  guint n_proc = t->processes->len, n_tracks = t->tracks->len;
  g_autofree guint *proc_order = g_try_new (guint, MAX (n_proc, 1));
  g_autofree guint *process_rank = g_try_new (guint, MAX (n_proc, 1));
  g_autofree guint *track_order = g_try_new (guint, MAX (n_tracks, 1));
  g_autofree guint *track_new = g_try_new (guint, MAX (n_tracks, 1));
  TrackOrder ord = { t, process_rank };
  IvGrowArray *sorted;

  if (!proc_order || !process_rank || !track_order || !track_new || !classify (t))
    return FALSE;
  for (guint i = 0; i < n_proc; i++)
    proc_order[i] = i;
  if (!_iv_trace_sort (proc_order, n_proc, sizeof (guint), compare_processes, &ord))
    return FALSE;
  for (guint i = 0; i < n_proc; i++)
    process_rank[proc_order[i]] = i;
  for (guint i = 0; i < n_tracks; i++)
    track_order[i] = i;
  if (!_iv_trace_sort (track_order, n_tracks, sizeof (guint), compare_tracks, &ord))
    return FALSE;

  sorted = _iv_grow_array_sized_new (sizeof (IvTrack), n_tracks);
  if (!sorted)
    return FALSE;
  for (guint i = 0; i < n_tracks; i++)
    {
      g_array_index (sorted, IvTrack, i) = g_array_index (t->tracks, IvTrack, track_order[i]);
      track_new[track_order[i]] = i;
    }
  sorted->len = n_tracks;
  _iv_grow_array_free (t->tracks);
  t->tracks = sorted;

  for (gsize i = 0; i < b->slices.len; i++)
    b->slices.track[i] = track_new[b->slices.track[i]];
  for (guint i = 0; i < t->instants->len; i++)
    if (g_array_index (t->instants, IvInstant, i).track != G_MAXUINT)
      g_array_index (t->instants, IvInstant, i).track
          = track_new[g_array_index (t->instants, IvInstant, i).track];
  for (guint i = 0; i < b->flows->len; i++)
    g_array_index (b->flows, IvRawFlow, i).track
        = track_new[g_array_index (b->flows, IvRawFlow, i).track];
  for (guint i = 0; i < t->series->len; i++)
    g_array_index (t->series, IvCounterSeries, i).track
        = track_new[g_array_index (t->series, IvCounterSeries, i).track];
  return TRUE;
}

/* Within one track's slices @o (in start order, places set), rows in order — by kind, then
 * depths, then overflow rows — by a stable counting sort that keeps start order in each
 * row. FALSE when out of memory. */
static gboolean
sort_track_rows (guint32 *o, gsize m, const guint32 *depth, guint32 *tmp)
{
  guint deepest[IV_N_ROW_KINDS] = { 0 }, n_over[IV_N_ROW_KINDS] = { 0 }, base[IV_N_ROW_KINDS];
  guint n_rows = 0;
  g_autofree gsize *count = NULL;

  for (gsize i = 0; i < m; i++)
    {
      guint32 d = depth[o[i]];
      guint k = KIND_OF (d);
      if (d & OVERFLOW_BIT)
        n_over[k] = MAX (n_over[k], LEVEL_OF (d) + 1);
      else
        deepest[k] = MAX (deepest[k], LEVEL_OF (d) + 1);
    }
  for (guint k = 0; k < IV_N_ROW_KINDS; k++)
    {
      base[k] = n_rows;
      n_rows += deepest[k] + n_over[k];
    }
  if (n_rows <= 1)
    return TRUE;
#define ROW_OF(d)                                                                                  \
  (base[KIND_OF (d)] + ((d) &OVERFLOW_BIT ? deepest[KIND_OF (d)] : 0) + LEVEL_OF (d))
  count = g_try_new0 (gsize, (gsize) n_rows + 1);
  if (!count)
    return FALSE;
  memcpy (tmp, o, m * sizeof (guint32));
  for (gsize i = 0; i < m; i++)
    count[ROW_OF (depth[tmp[i]]) + 1]++;
  for (guint r = 0; r < n_rows; r++)
    count[r + 1] += count[r];
  for (gsize i = 0; i < m; i++)
    o[count[ROW_OF (depth[tmp[i]])]++] = tmp[i];
#undef ROW_OF
  return TRUE;
}

/* Nesting per track: @order receives the slices by track, row and start, with each
 * one's @depth and @self time (both indexed by slice). Slices are bucketed by track with
 * a counting sort; within a track they usually arrive in time order already, so most
 * buckets skip the sort. FALSE when out of memory. */
static gboolean
nest_tracks (IvTraceBuilder *b, guint32 *order, guint32 *depth, gint64 *self,
             const guint8 *open_bits)
{
  IvTrace *t = b->trace;
  IvSliceColumns *c = &b->slices;
  gsize n = c->len, largest = 0;
  guint n_tracks = t->tracks->len;
  g_autofree gsize *bucket = g_try_new0 (gsize, (gsize) n_tracks + 1);
  g_autofree gsize *fill = NULL;
  guint32 *tmp;
  Placement pl = { 0 };
  gboolean ok = TRUE;

  if (!bucket)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    bucket[c->track[i] + 1]++;
  for (guint k = 0; k < n_tracks; k++)
    {
      largest = MAX (largest, bucket[k + 1]);
      bucket[k + 1] += bucket[k];
    }
  /* the row sort's scratch: one track's worth, not the whole trace's */
  tmp = iv_big_alloc (MAX (largest, 1) * sizeof (guint32));
  if (!tmp)
    return FALSE;
  fill = g_try_malloc (((gsize) n_tracks + 1) * sizeof (gsize));
  if (!fill)
    {
      iv_big_free (tmp);
      return FALSE;
    }
  memcpy (fill, bucket, ((gsize) n_tracks + 1) * sizeof (gsize));
  for (gsize i = 0; i < n; i++)
    order[fill[c->track[i]]++] = (guint32) i;
  /* depth and self are not zeroed: the placement writes every entry. */
  for (guint k = 0; k < n_tracks && ok; k++)
    {
      guint32 *o = order + bucket[k];
      gsize m = bucket[k + 1] - bucket[k];
      gboolean sorted = TRUE;
      for (gsize i = 1; i < m && sorted; i++)
        sorted = compare_slices (&o[i - 1], &o[i], c) < 0;
      ok = sorted || _iv_trace_sort (o, m, sizeof (guint32), compare_slices, c);
      if (ok && g_array_index (t->tracks, IvTrack, k).kind == IV_TRACK_GPU)
        ok = place_gpu_track (b, o, m, depth, self, tmp, open_bits, &pl);
      else if (ok)
        ok = place_nested (c, o, m, b->overlap_tolerance_ns, IV_ROW_NESTED, depth, &pl)
             && _iv_trace_attribute_self (c->start_ns, c->dur_ns, o, m, open_bits, G_MININT64,
                                          G_MAXINT64, self);
      ok = ok && sort_track_rows (o, m, depth, tmp);
    }
  iv_big_free (tmp);
  b->too_deep = pl.too_deep;
  if (!ok)
    return FALSE;
  t->max_depth = pl.max_depth;
  t->n_partial = pl.partial;
  t->n_list_overlaps = pl.list_overlaps;
  t->n_overrun = pl.overrun;
  t->max_overrun_ns = pl.max_overrun;
  if (pl.partial)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT
                    " slices partially overlap their parent; they are drawn on rows of their own",
                    pl.partial);
  if (pl.list_overlaps)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT
                    " GPU kernels or syncs overlap another on their stream; they are drawn on "
                    "rows of their own, and every one is counted",
                    pl.list_overlaps);
  if (pl.overrun)
    {
      g_autofree char *by = g_strdup_printf ("%.3f", pl.max_overrun / 1e3);
      /* "1.000" reads as 1 */
      while (strchr (by, '.') && (by[strlen (by) - 1] == '0' || by[strlen (by) - 1] == '.'))
        by[strlen (by) - 1] = '\0';
      _iv_trace_warn (t,
                      "%" G_GUINT64_FORMAT
                      " slices overrun their parent by at most %s µs (profiler rounding); they "
                      "are drawn nested, with the durations recorded",
                      pl.overrun, by);
    }
  return TRUE;
}

/* The rows the ordered slices form; each slice's @depth is replaced by its row. FALSE
 * when out of memory. */
static gboolean
form_rows (IvTraceBuilder *b, const guint32 *order, guint32 *depth)
{
  IvTrace *t = b->trace;
  const IvSliceColumns *c = &b->slices;
  IvRow *last = NULL;

  for (gsize i = 0; i < c->len; i++)
    {
      guint32 s = order[i];
      guint32 track = c->track[s];
      guint32 d = depth[s];
      gboolean over = (d & OVERFLOW_BIT) != 0;
      guint row_depth = LEVEL_OF (d), kind = KIND_OF (d);

      if (!last || last->track != track || last->overflow != over || last->depth != row_depth
          || last->kind != kind)
        {
          IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
          IvRow r = { track, row_depth, (guint8) kind, over, i, 0 };
          if (!_iv_grow_array_append (t->rows, &r))
            return FALSE;
          if (tr->n_rows == 0)
            tr->first_row = t->rows->len - 1;
          tr->n_rows++;
          last = &g_array_index (t->rows, IvRow, t->rows->len - 1);
        }
      last->n++;
      depth[s] = t->rows->len - 1;
    }
  /* Overflow rows are numbered after the deepest row of their kind in their track. */
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      guint deepest[IV_N_ROW_KINDS] = { 0 };
      for (guint r = 0; r < tr->n_rows; r++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
          if (!row->overflow)
            deepest[row->kind] = MAX (deepest[row->kind], row->depth + 1);
        }
      for (guint r = 0; r < tr->n_rows; r++)
        {
          IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
          if (row->overflow)
            row->depth += deepest[row->kind];
        }
    }
  return TRUE;
}

/* @col[i] = @col[order[i]] for every i, through @spare (a column of the same width and
 * length), which comes back as the old column: reordering never holds all the columns
 * twice. */
#define GATHER(type, col, spare, order, n)                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    type *from_ = (type *) (col), *to_ = (type *) (spare);                                         \
    for (gsize i_ = 0; i_ < (n); i_++)                                                             \
      to_[i_] = from_[(order)[i_]];                                                                \
    (spare) = (gpointer) from_;                                                                    \
    (col) = (gpointer) to_;                                                                        \
  }                                                                                                \
  G_STMT_END

/* The slice columns in @order, shrunk to their length, handed to the trace; @rows (each
 * slice's row) becomes its row column and @self its self-time column, and both are
 * NULL then. FALSE when out of memory: whatever @rows and @self point to is the
 * caller's to free, as before. */
static gboolean
order_columns (IvTraceBuilder *b, const guint32 *order, guint32 **rows, gint64 **self)
{
  IvTrace *t = b->trace;
  IvSliceColumns *c = &b->slices;
  gsize n = c->len, m = MAX (n, 1);
  gpointer spare, spare32;

  /* The track column is done with: its memory is the 4-byte spare. The 4-byte columns
   * go first so that the 8-byte spare is only taken once that one is given back (peak
   * memory is what the largest traces run out of). */
  spare32 = c->track;
  c->track = NULL;
  GATHER (guint32, c->args_len, spare32, order, n);
  GATHER (guint32, c->name, spare32, order, n);
  GATHER (guint32, c->cat, spare32, order, n);
  GATHER (guint32, *rows, spare32, order, n);
  iv_big_free (spare32);
  spare = iv_big_alloc (m * sizeof (gint64));
  if (!spare)
    return FALSE;
  GATHER (gint64, c->start_ns, spare, order, n);
  GATHER (gint64, c->dur_ns, spare, order, n);
  GATHER (guint64, c->args_off, spare, order, n);
  GATHER (gint64, *self, spare, order, n);
  iv_big_free (spare);

  /* Shrinking keeps the memory (only the unused tail goes), so it cannot fail in a way
   * that loses data: on failure the longer column is kept. */
#define HAND_OVER(dst, col, size)                                                                  \
  G_STMT_START                                                                                     \
  {                                                                                                \
    gpointer fit_ = iv_big_realloc ((col), m * (size));                                            \
    (dst) = fit_ ? fit_ : (gpointer) (col);                                                        \
  }                                                                                                \
  G_STMT_END
  HAND_OVER (t->start_ns, c->start_ns, sizeof (gint64));
  HAND_OVER (t->dur_ns, c->dur_ns, sizeof (gint64));
  HAND_OVER (t->args_off, c->args_off, sizeof (guint64));
  HAND_OVER (t->args_len, c->args_len, sizeof (guint32));
  HAND_OVER (t->name, c->name, sizeof (guint32));
  HAND_OVER (t->cat, c->cat, sizeof (guint32));
  HAND_OVER (t->self_ns, *self, sizeof (gint64));
  HAND_OVER (t->row, *rows, sizeof (guint32));
#undef HAND_OVER
  *self = NULL;
  *rows = NULL;
  c->start_ns = c->dur_ns = NULL;
  c->args_off = NULL;
  c->args_len = c->name = c->cat = NULL;
  c->len = c->capacity = 0;
  t->n_slices = n;
  return TRUE;
}
#undef GATHER

/* The coarse index over starts: every IV_TRACE_COARSE-th start, and each block's longest
 * slice (the loader's, and a distributed job's over its joined columns). */
void
_iv_trace_index_coarse (IvTrace *t)
{
  gsize n = t->n_slices;

  for (gsize g = 0; g * IV_TRACE_COARSE < n; g++)
    {
      gsize end = MIN (n, (g + 1) * IV_TRACE_COARSE);
      gint64 longest = 0;
      t->coarse_start[g] = t->start_ns[g * IV_TRACE_COARSE];
      for (gsize i = g * IV_TRACE_COARSE; i < end; i++)
        longest = MAX (longest, t->dur_ns[i]);
      t->coarse_max_dur[g] = longest;
    }
}

/* Counter series grouped by track with their samples in time order, and each counter
 * track pointing at its (now contiguous) series. FALSE when out of memory. */
static gboolean
attach_series (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;

  if (!group_series_by_track (b) || !build_samples (b))
    return FALSE;
  for (guint s = 0; s < t->series->len; s++)
    {
      IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, s);
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, se->track);
      if (tr->n_series == 0)
        tr->first_series = s;
      tr->n_series++;
    }
  return TRUE;
}

/* What the parser left out, said once per kind. */
static void
warn_skipped (IvTraceBuilder *b)
{
  IvTrace *t = b->trace;

  for (guint c = 0; c < 128; c++)
    if (b->skipped[c])
      _iv_trace_warn (t, "%" G_GUINT64_FORMAT " events of phase “%c” skipped (%s)", b->skipped[c],
                      c,
                      c == 'P'                           ? "samples"
                      : c == 'N' || c == 'O' || c == 'D' ? "object snapshots"
                      : c == 'v' || c == 'V'             ? "memory dumps"
                      : c == 'c'                         ? "clock sync"
                                                         : "not drawn");
  if (b->unknown_phase)
    _iv_trace_warn (t, "%" G_GUINT64_FORMAT " events with an unknown phase skipped",
                    b->unknown_phase);
  if (b->no_ts)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT
                    " events without a usable timestamp (missing, or beyond ±146 years) skipped",
                    b->no_ts);
  if (b->text_counter_values)
    _iv_trace_warn (
        t, "%" G_GUINT64_FORMAT " counter values that are not numbers (text) were not drawn",
        b->text_counter_values);
}

/* The slices that did not end, a bit per slice id before the columns are ordered; NULL
 * when there are none, or (@ok FALSE) when out of memory. */
static guint8 *
open_bits_raw (IvTraceBuilder *b, gsize n, gboolean *ok)
{
  guint8 *bits;

  *ok = TRUE;
  if (b->open_raw->len == 0)
    return NULL;
  if (!(bits = g_try_malloc0 (n / 8 + 1)))
    {
      *ok = FALSE;
      return NULL;
    }
  for (guint i = 0; i < b->open_raw->len; i++)
    {
      guint32 id = g_array_index (b->open_raw, guint32, i);
      bits[id / 8] |= (guint8) (1u << (id % 8));
    }
  return bits;
}

/* The same bits for the ordered columns: slice i is raw slice @order[i]. FALSE when out
 * of memory. */
static gboolean
order_open_bits (IvTrace *t, const guint32 *order, const guint8 *raw)
{
  if (!raw)
    return TRUE;
  if (!(t->open_bits = g_try_malloc0 (t->n_slices / 8 + 1)))
    return FALSE;
  for (gsize i = 0; i < t->n_slices; i++)
    if (raw[order[i] / 8] >> (order[i] % 8) & 1)
      {
        t->open_bits[i / 8] |= (guint8) (1u << (i % 8));
        t->n_open++;
      }
  return TRUE;
}

IvTrace *
_iv_trace_builder_finish (IvTraceBuilder *b, GError **error)
{
  IvTrace *t = b->trace;
  gint64 start, end;
  gsize n;
  guint32 *order = NULL, *depth = NULL;
  gint64 *self = NULL;
  g_autofree guint8 *open_raw = NULL;
  gboolean ok;

  trace_extent (b, &start, &end);
  pair_edges (b, end);
  n = b->slices.len;
  /* columns for at least one slice: readers may take a column's address when empty */
  if (b->out_of_memory || !reserve_slices (&b->slices, MAX (n, 1)))
    goto out_of_memory;
  /* the room the columns had to grow goes back before the scratch is taken */
  fit_slices (&b->slices);
  open_raw = open_bits_raw (b, n, &ok);
  if (!ok)
    goto out_of_memory;
  if (!mark_gpu_tracks (b) || !allocate_scratch (t, n, &order, &depth, &self) || !order_tracks (b)
      || !nest_tracks (b, order, depth, self, open_raw) || !form_rows (b, order, depth)
      || !order_columns (b, order, &depth, &self) || !order_open_bits (t, order, open_raw))
    goto out_of_memory;
  g_clear_pointer (&order, iv_big_free);
  g_clear_pointer (&open_raw, g_free);
  _iv_trace_index_coarse (t);
  if (!attach_series (b) || !bind_flows (b))
    goto out_of_memory;
  if (t->instants->len > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (t->instants->data, t->instants->len, sizeof (IvInstant), compare_instants);
  t->t0_ns = start == G_MAXINT64 ? 0 : start;
  t->t1_ns = end == G_MININT64 ? t->t0_ns : end;
  warn_skipped (b);
  b->trace = NULL;
  return t;

out_of_memory:
  iv_big_free (order);
  iv_big_free (depth);
  iv_big_free (self);
  if (b->too_deep)
    {
      g_autofree char *display = g_filename_display_name (t->path ? t->path : "the trace");
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: slices on one track nest (or overlap) more than %u deep; a track has "
                   "at most that many rows",
                   display, IV_TRACE_LEVEL_MAX);
      return NULL;
    }
  _iv_trace_set_oom_error (b, n, error);
  return NULL;
}

/* ---------- public ---------- */

void
iv_trace_free (IvTrace *t)
{
  if (!t)
    return;
  g_free (t->path);
  iv_intern_free (t->strings);
  for (guint i = 0; i < t->processes->len; i++)
    {
      IvProcess *p = t->processes->pdata[i];
      g_free (p->key);
      g_free (p->name);
      g_free (p->labels);
      g_free (p);
    }
  _iv_grow_array_free (t->processes);
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      g_free (tr->key);
      g_free (tr->name);
    }
  _iv_grow_array_free (t->tracks);
  _iv_grow_array_free (t->rows);
  iv_big_free (t->start_ns);
  iv_big_free (t->dur_ns);
  iv_big_free (t->self_ns);
  iv_big_free (t->name);
  iv_big_free (t->cat);
  iv_big_free (t->args_off);
  iv_big_free (t->args_len);
  iv_big_free (t->row);
  g_free (t->open_bits);
  g_free (t->coarse_start);
  g_free (t->coarse_max_dur);
  _iv_grow_array_free (t->instants);
  _iv_grow_array_free (t->series);
  g_free (t->sample_ns);
  g_free (t->sample_value);
  _iv_grow_array_free (t->flows);
  g_ptr_array_unref (t->warnings);
  g_clear_pointer (&t->open_names, g_array_unref);
  g_clear_pointer (&t->info, iv_trace_info_free);
  _iv_grow_array_free (t->candidates);
  g_free (t);
}

const char *
iv_trace_string (const IvTrace *t, guint32 id)
{
  return iv_intern_get (t->strings, id);
}

gsize
iv_trace_memory_bytes (const IvTrace *t)
{
  return t->n_slices
             * (3 * sizeof (gint64) + 2 * sizeof (guint32) + sizeof (guint64)
                + 2 * sizeof (guint32))
         + t->rows->len * sizeof (IvRow) + t->tracks->len * sizeof (IvTrack)
         + t->instants->len * sizeof (IvInstant) + t->flows->len * sizeof (IvFlow)
         + t->n_samples * (sizeof (gint64) + sizeof (double)) + iv_intern_bytes (t->strings)
         + (t->open_bits ? (t->n_slices + 7) / 8 : 0);
}

/* The @len bytes at offset @off of @in, which has been read up to *@pos (≤ @off): as the
 * loader read them (trailing commas, raw line breaks: Perfetto's leniency) made strict
 * JSON for the parsers that show them, or as they are when there is no memory for that. */
static char *
read_args_at (IvInput *in, guint64 *pos, guint64 off, guint64 len, GError **error)
{
  g_autofree char *buf = NULL;
  guint64 skip = off - *pos, got = 0;

  /* a slice's arguments may be gigabytes in a hostile file: tried, and said */
  buf = g_try_malloc (MAX (len, 65536) + 1);
  if (!buf)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "%s: not enough memory for the %" G_GUINT64_FORMAT
                   " bytes of a slice's arguments",
                   iv_input_get_name (in), len);
      return NULL;
    }
  /* Decompress up to the offset: plain files could seek, but one code path is simpler. */
  while (skip > 0 || got < len)
    {
      gssize n = skip > 0 ? iv_input_read (in, buf, MIN (skip, 65536), error)
                          : iv_input_read (in, buf + got, len - got, error);
      if (n <= 0)
        {
          if (n == 0)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                         "%s: the file changed since it was loaded", iv_input_get_name (in));
          return NULL;
        }
      if (skip > 0)
        skip -= (guint64) n;
      else
        got += (guint64) n;
      *pos += (guint64) n;
    }
  buf[len] = '\0';
  {
    char *strict = iv_json_pull_strict_text (buf, len);
    return strict ? strict : g_steal_pointer (&buf);
  }
}

char *
iv_trace_slice_args (const IvTrace *t, gsize slice, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  guint64 pos = 0;

  g_return_val_if_fail (slice < t->n_slices, NULL);
  if (t->args_len[slice] == 0)
    return g_strdup ("{}");
  if (!t->path || !(in = iv_input_open (t->path, error)))
    return NULL;
  return read_args_at (in, &pos, t->args_off[slice], t->args_len[slice], error);
}

static int
by_args_offset (gconstpointer a, gconstpointer b, gpointer data)
{
  const IvTrace *t = data;
  guint64 u = t->args_off[*(const gsize *) a], v = t->args_off[*(const gsize *) b];
  return (u > v) - (u < v);
}

gboolean
iv_trace_args_foreach (const IvTrace *t, const gsize *slices, gsize n, IvTraceArgsFunc func,
                       gpointer data, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  g_autofree gsize *order = NULL;
  guint64 pos = 0;

  if (n == 0)
    return TRUE;
  if (!t->path)
    {
      /* a trace made rather than read (a job's ranks joined, iv-trace-job.c) keeps no
       * arguments: nothing to read, as iv_trace_slice_args says "{}"; one that claims some
       * is an error, never FALSE without one */
      for (gsize i = 0; i < n; i++)
        if (slices[i] < t->n_slices && t->args_len[slices[i]] > 0)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         "the trace names no file to read its arguments from");
            return FALSE;
          }
      return TRUE;
    }
  if (!(in = iv_input_open (t->path, error)))
    return FALSE;
  /* in the file's order, so that the file is read once */
  order = g_memdup2 (slices, n * sizeof (gsize));
  g_qsort_with_data (order, (gint) MIN (n, (gsize) G_MAXINT), sizeof (gsize), by_args_offset,
                     (gpointer) t);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *text = NULL;
      gsize s = order[i];
      if (s >= t->n_slices || t->args_len[s] == 0 || t->args_off[s] < pos)
        continue; /* no arguments, or the same ones again */
      if (!(text = read_args_at (in, &pos, t->args_off[s], t->args_len[s], error)))
        return FALSE;
      func (t, s, text, data);
    }
  return TRUE;
}

gsize
iv_trace_parent (const IvTrace *t, gsize slice)
{
  const IvRow *row = &g_array_index (t->rows, IvRow, t->row[slice]);
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, row->track);

  /* kernels and syncs are lists: nothing is their parent */
  if (row->overflow || row->depth == 0 || row->kind == IV_ROW_GPU_WORK
      || row->kind == IV_ROW_GPU_SYNC)
    return slice;
  for (guint r = 0; r < tr->n_rows; r++)
    {
      const IvRow *pr = &g_array_index (t->rows, IvRow, tr->first_row + r);
      gsize p;
      if (pr->overflow || pr->kind != row->kind || pr->depth + 1 != row->depth)
        continue;
      if ((p = iv_trace_row_last_by (t, tr->first_row + r, t->start_ns[slice])) != G_MAXSIZE)
        return p;
    }
  return slice;
}

IvRowKind
iv_trace_slice_row_kind (const IvTrace *t, gsize slice)
{
  return (IvRowKind) g_array_index (t->rows, IvRow, t->row[slice]).kind;
}

/* What the reader passed over, as the tools do, said once. */
static void
warn_input (IvTrace *t, IvInput *input)
{
  guint64 at;

  if (iv_input_get_trailing_garbage (input, &at))
    _iv_trace_warn (
        t,
        "the gzip data is followed by bytes that are not gzip (from byte %" G_GUINT64_FORMAT
        "); they were ignored, as gzip -d ignores them",
        at);
}

IvTrace *
iv_trace_load_input (IvInput *input, const char *path, IvProgressFunc progress,
                     gpointer progress_data, GCancellable *cancellable, GError **error)
{
  IvTraceBuilder *b = _iv_trace_builder_new (path, IV_TRACE_CHROME);
  IvTrace *t;

  /* Kineto-like events are 100–200 bytes: reserving up front saves growing the columns
   * step by step (the reservation is address space; only what is filled takes memory). */
  if (iv_input_get_compression (input) == IV_COMPRESSION_NONE && iv_input_get_raw_size (input) > 0)
    /* A hint only: under an address-space limit the reservation itself may not fit, and
     * then the columns grow as the slices come (failing, if they must, with the error). */
    reserve_slices (&b->slices, MIN (iv_input_get_raw_size (input) / 160, IV_SLICES_MAX));
  if (!_iv_trace_load_chrome (b, input, progress, progress_data, cancellable, error))
    t = NULL;
  else
    t = _iv_trace_builder_finish (b, error);
  _iv_trace_builder_free (b);
  /* The builder's temporary arrays (several times the final columns) are free now, and
   * so is all of a load that failed; give the pages back instead of keeping them
   * resident for the trace's lifetime (or the window's, which goes on without it). */
  IV_TRIM_HEAP ();
  if (t)
    warn_input (t, input);
  return t;
}

IvTrace *
iv_trace_load (const char *path, IvProgressFunc progress, gpointer progress_data,
               GCancellable *cancellable, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  g_autoptr (IvSniffResult) kind = NULL;

  /* What the file is decides the loader; the sniff reads only its first keys. */
  kind = iv_sniff_path (path, FALSE, NULL, NULL, cancellable, error);
  if (!kind)
    return NULL;
  in = iv_input_open (path, error);
  if (!in)
    return NULL;
  if (kind->kind == IV_KIND_PIPELINED_TIMELINE)
    {
      IvTraceBuilder *b = _iv_trace_builder_new (path, IV_TRACE_PIPELINED);
      IvTrace *t;
      if (!_iv_trace_load_pipelined (b, in, cancellable, error))
        t = NULL;
      else
        t = _iv_trace_builder_finish (b, error);
      _iv_trace_builder_free (b);
      if (t)
        warn_input (t, in);
      return t;
    }
  if (kind->kind != IV_KIND_CHROME_TRACE)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a trace (it looks like %s)",
                   display, iv_kind_to_string (kind->kind));
      return NULL;
    }
  return iv_trace_load_input (in, path, progress, progress_data, cancellable, error);
}
