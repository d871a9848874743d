/* iv-trace-diff.c: two traces compared (see the header). One pass over each trace's
 * slices: a CPU operator's call-stack path is found by walking each row beside the row
 * one level up (both ordered by start), so paths cost O(slices), not a search per slice;
 * paths are interned per trace as (parent path, name) pairs and spelled out once per
 * distinct path; the two traces meet by text, since each has its own string table. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-diff.h"
#include "iv-trace-steps.h"

#include <stdlib.h>
#include <string.h>

#define NO_NODE G_MAXUINT32
/* The name of a path node that is a ProfilerStep#N, whatever N: a step wraps every
 * operator of an iteration, and two traces seldom number their steps alike (nor does
 * one step compared with another), so the number would keep every path apart. */
#define ANY_STEP (G_MAXUINT32 - 1)
#define ANY_STEP_TEXT "ProfilerStep#*"

static gboolean
is_step_name (const char *s)
{
  if (!g_str_has_prefix (s, "ProfilerStep#") || !s[strlen ("ProfilerStep#")])
    return FALSE;
  for (s += strlen ("ProfilerStep#"); *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}
/* A path longer than this (a hostile trace nested thousands deep) keeps its last part
 * only: its text must not grow with the square of the depth. */
#define PATH_MAX_BYTES 4096

typedef struct
{
  guint32 parent; /* NO_NODE for an outermost call */
  guint32 name;
} PathNode;

typedef struct
{
  IvRowKind kind;
  gboolean cpu; /* @id is a path node, else a name */
  guint32 id;
  guint32 next; /* the next entry of the same name on another kind of row */
  guint64 count;
  gint64 total_ns;
} Local;

/* The path node of each slice of a CPU thread's nested rows (NO_NODE for other slices). */
static gboolean
compute_paths (const IvTrace *t, guint32 *node_of, GArray *nodes)
{
  guint n_names = iv_intern_size (t->strings);
  g_autofree guint8 *step_name = g_try_new0 (guint8, MAX (n_names, 1));

  g_autoptr (GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  if (!step_name)
    return FALSE;
  for (guint i = 0; i < n_names; i++)
    step_name[i] = is_step_name (iv_trace_string (t, i));
  for (gsize s = 0; s < t->n_slices; s++)
    node_of[s] = NO_NODE;
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (tr->kind != IV_TRACK_THREAD)
        continue;
      for (guint r = 0; r < tr->n_rows; r++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
          const IvRow *up = NULL;
          gsize j = 0;
          if (row->kind != IV_ROW_NESTED)
            continue;
          /* the row one level up, as iv_trace_parent finds a parent */
          for (guint q = 0; q < tr->n_rows && !row->overflow && row->depth > 0; q++)
            {
              const IvRow *pr = &g_array_index (t->rows, IvRow, tr->first_row + q);
              if (!pr->overflow && pr->kind == row->kind && pr->depth + 1 == row->depth)
                {
                  up = pr;
                  break;
                }
            }
          for (gsize s = row->first; s < row->first + row->n; s++)
            {
              guint32 parent = NO_NODE, name = step_name[t->name[s]] ? ANY_STEP : t->name[s];
              gint64 key;
              gpointer hit;
              if (up && up->n)
                {
                  /* the last slice of the row above that starts at or before this one */
                  while (j + 1 < up->n && t->start_ns[up->first + j + 1] <= t->start_ns[s])
                    j++;
                  if (t->start_ns[up->first + j] <= t->start_ns[s])
                    parent = node_of[up->first + j];
                }
              key = (gint64) (((guint64) parent << 32) | name); /* NO_NODE: all ones */
              hit = g_hash_table_lookup (index, &key);
              if (hit)
                node_of[s] = GPOINTER_TO_UINT (hit) - 1;
              else
                {
                  PathNode n = { parent, name };
                  if (nodes->len >= G_MAXUINT32 - 1)
                    return FALSE;
                  node_of[s] = nodes->len;
                  g_array_append_val (nodes, n);
                  g_hash_table_insert (index, g_memdup2 (&key, sizeof key),
                                       GUINT_TO_POINTER (node_of[s] + 1));
                }
            }
        }
    }
  return TRUE;
}

static const char *
path_text (const IvTrace *t, const GArray *nodes, GPtrArray *texts, guint32 node)
{
  const PathNode *n = &g_array_index (nodes, PathNode, node);
  const char *name = n->name == ANY_STEP ? ANY_STEP_TEXT : iv_trace_string (t, n->name);

  if (texts->pdata[node])
    return texts->pdata[node];
  if (n->parent == NO_NODE)
    texts->pdata[node] = g_strdup (name);
  else
    {
      const char *up = path_text (t, nodes, texts, n->parent);
      texts->pdata[node] = strlen (up) > PATH_MAX_BYTES
                               ? g_strconcat ("…", IV_TRACE_DIFF_PATH_SEP, name, NULL)
                               : g_strconcat (up, IV_TRACE_DIFF_PATH_SEP, name, NULL);
    }
  return texts->pdata[node];
}

static void
entry_clear (gpointer p)
{
  IvTraceDiffEntry *e = p;
  g_free (e->name);
  g_free (e->path);
}

/* One trace's slices in [t0, t1) (clipped; all of them when @whole) into the entries. */
static gboolean
collect (const IvTrace *t, int side, gint64 t0, gint64 t1, gboolean whole, GHashTable *by_key,
         GArray *entries)
{
  g_autofree guint32 *node_of = g_try_new (guint32, MAX (t->n_slices, 1));
  g_autoptr (GArray) nodes = g_array_new (FALSE, FALSE, sizeof (PathNode));
  g_autoptr (GArray) locals = g_array_new (FALSE, TRUE, sizeof (Local));
  g_autofree guint32 *by_node = NULL, *by_name = NULL;
  guint n_names = iv_intern_size (t->strings);
  g_autoptr (GPtrArray) texts = NULL;

  if (!node_of || !compute_paths (t, node_of, nodes))
    return FALSE;
  /* each slice to its entry through arrays indexed by path node and by name: no hashing
   * per slice (a name on several kinds of rows chains its entries) */
  by_node = g_try_new (guint32, MAX (nodes->len, 1));
  by_name = g_try_new (guint32, MAX (n_names, 1));
  if (!by_node || !by_name)
    return FALSE;
  memset (by_node, 0xff, MAX (nodes->len, 1) * sizeof (guint32));
  memset (by_name, 0xff, MAX (n_names, 1) * sizeof (guint32));
  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, row->track);
      const IvProcess *p = t->processes->pdata[tr->process];
      IvRowKind kind = (IvRowKind) row->kind;
      /* Kineto's capture-wide spans (its "Spans" and "Traces" pseudo-processes) are the
       * profiler's bookkeeping, not work: leaving them in would put the capture's length
       * at the head of every comparison */
      if (g_strcmp0 (p->key, "Spans") == 0 || g_strcmp0 (p->key, "Traces") == 0)
        continue;
      for (gsize s = row->first; s < row->first + row->n; s++)
        {
          gint64 st = t->start_ns[s], en = st + t->dur_ns[s], d;
          guint32 *slot, at;
          gboolean cpu = node_of[s] != NO_NODE;
          Local *l;
          if (iv_trace_slice_is_open (t, s))
            continue;
          if (!whole)
            {
              if (t->dur_ns[s] == 0 ? (st < t0 || st >= t1) : (en <= t0 || st >= t1))
                continue;
              d = MIN (en, t1) - MAX (st, t0);
            }
          else
            d = t->dur_ns[s];
          slot = cpu ? &by_node[node_of[s]] : &by_name[t->name[s]];
          at = *slot;
          while (!cpu && at != NO_NODE && g_array_index (locals, Local, at).kind != kind)
            at = g_array_index (locals, Local, at).next;
          if (at == NO_NODE)
            {
              Local n = { kind, cpu, cpu ? node_of[s] : t->name[s], cpu ? NO_NODE : *slot, 0, 0 };
              at = locals->len;
              g_array_append_val (locals, n);
              *slot = at;
            }
          l = &g_array_index (locals, Local, at);
          l->count++;
          l->total_ns = iv_trace_add_ns (l->total_ns, d);
        }
    }
  texts = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (texts, nodes->len);
  for (guint i = 0; i < locals->len; i++)
    {
      const Local *l = &g_array_index (locals, Local, i);
      gboolean cpu = l->cpu;
      guint32 name_id = cpu ? g_array_index (nodes, PathNode, l->id).name : l->id;
      const char *name = name_id == ANY_STEP ? ANY_STEP_TEXT : iv_trace_string (t, name_id);
      const char *path = cpu ? path_text (t, nodes, texts, l->id) : NULL;
      g_autofree char *key
          = g_strdup_printf ("%d\x1f%s", cpu ? -1 : (int) l->kind, cpu ? path : name);
      gpointer at = g_hash_table_lookup (by_key, key);
      IvTraceDiffEntry *e;
      if (!at)
        {
          IvTraceDiffEntry n = { g_strdup (name), cpu ? g_strdup (path) : NULL, l->kind };
          g_array_append_val (entries, n);
          at = GUINT_TO_POINTER (entries->len);
          g_hash_table_insert (by_key, g_steal_pointer (&key), at);
        }
      e = &g_array_index (entries, IvTraceDiffEntry, GPOINTER_TO_UINT (at) - 1);
      e->count[side] += l->count;
      e->total_ns[side] = iv_trace_add_ns (e->total_ns[side], l->total_ns);
    }
  return TRUE;
}

static int
by_change (gconstpointer pa, gconstpointer pb)
{
  const IvTraceDiffEntry *a = pa, *b = pb;
  gint64 da = iv_trace_diff_delta_ns (a), db = iv_trace_diff_delta_ns (b);
  guint64 ua = da < 0 ? -(guint64) da : (guint64) da, ub = db < 0 ? -(guint64) db : (guint64) db;
  int c;

  if (ua != ub)
    return ua > ub ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  c = strcmp (a->path ? a->path : a->name, b->path ? b->path : b->name);
  return c;
}

static void
gpu_side (const IvTrace *t, gint64 t0, gint64 t1, IvStatsFlags flags, IvTraceDiff *d, int side)
{
  g_autoptr (IvGpuStats) g = iv_trace_gpu_stats_full (t, t0, t1, IV_STATS_DEFAULT);
  guint64 kernels[IV_N_KCLASSES];
  gint64 busy = 0;

  for (guint i = 0; g && i < g->streams->len; i++)
    {
      const IvStreamStats *s = &g_array_index (g->streams, IvStreamStats, i);
      d->idle_ns[side] = iv_trace_add_ns (d->idle_ns[side], s->idle_ns);
      d->n_streams[side]++;
    }
  iv_trace_class_times_full (t, t0, t1, flags, d->class_ns[side], kernels, &busy);
  d->busy_ns[side] = busy;
}

IvTraceDiff *
iv_trace_diff_new (const IvTrace *a, const IvTrace *b, gint64 step_a, gint64 step_b, GError **error)
{
  static const IvStatsFlags none[2] = { IV_STATS_DEFAULT, IV_STATS_DEFAULT };
  return iv_trace_diff_new_full (a, b, step_a, step_b, none, error);
}

IvTraceDiff *
iv_trace_diff_new_full (const IvTrace *a, const IvTrace *b, gint64 step_a, gint64 step_b,
                        const IvStatsFlags flags[2], GError **error)
{
  const IvTrace *tr[2] = { a, b };
  gint64 steps[2] = { step_a, step_b };
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (IvTraceDiff) d = g_new0 (IvTraceDiff, 1);

  if ((step_a < 0) != (step_b < 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "a step is compared with a step, or the whole traces with each other");
      return NULL;
    }
  for (int i = 0; i < 2; i++)
    d->per_process[i] = (flags[i] & IV_STATS_PER_PROCESS) != 0;
  d->entries = g_array_new (FALSE, TRUE, sizeof (IvTraceDiffEntry));
  g_array_set_clear_func (d->entries, entry_clear);
  for (int i = 0; i < 2; i++)
    {
      gboolean whole = steps[i] < 0;
      d->step[i] = steps[i];
      d->t0_ns[i] = G_MININT64, d->t1_ns[i] = G_MAXINT64;
      if (!whole && !iv_trace_step_range (tr[i], steps[i], &d->t0_ns[i], &d->t1_ns[i]))
        {
          g_autofree char *has = iv_trace_steps_text (tr[i]);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "%s: no ProfilerStep#%" G_GINT64_FORMAT " (it has %s)",
                       tr[i]->path ? tr[i]->path : "the distributed job", steps[i], has);
          return NULL;
        }
      if (!collect (tr[i], i, d->t0_ns[i], d->t1_ns[i], whole, by_key, d->entries))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: not enough memory to compare its %" G_GSIZE_FORMAT " slices",
                       tr[i]->path ? tr[i]->path : "the distributed job", tr[i]->n_slices);
          return NULL;
        }
      gpu_side (tr[i], d->t0_ns[i], d->t1_ns[i], flags[i], d, i);
    }
  for (guint i = 0; i < d->entries->len; i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (d->entries, IvTraceDiffEntry, i);
      d->n_added += e->count[0] == 0;
      d->n_removed += e->count[1] == 0;
    }
  g_array_sort (d->entries, by_change);
  return g_steal_pointer (&d);
}

void
iv_trace_diff_free (IvTraceDiff *d)
{
  if (!d)
    return;
  if (d->entries)
    g_array_unref (d->entries);
  g_free (d);
}
