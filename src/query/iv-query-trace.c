/* iv-query-trace.c: a loaded trace's tables, named and shaped as Perfetto's trace
 * processor names them (docs/queries.md), reading the trace's columns in place. Ids are
 * the trace's own indices: a slice's id is its index in the slice columns, a track's
 * its index in trace->tracks (a counter series' id follows the tracks: n_tracks + its
 * index), a process's upid its index; a thread's utid is its place among the thread
 * tracks (CPU threads and GPU streams), dense from 0 as Perfetto's. */
#define G_LOG_DOMAIN "iv-query"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "iv-input.h"
#include "iv-json-doc.h"
#include "iv-json-pull.h"
#include "iv-query-private.h"
#include "iv-trace-query.h"

/* One argument of a slice, flattened as Perfetto flattens JSON args: "args.a.b",
 * arrays as "args.a[0]" (key) and "args.a" (flat_key). */
typedef struct
{
  char *flat_key, *key;
  const char *type; /* int, real, string, bool, null */
  gint64 i;
  double d;
  char *s; /* string and display value */
} Arg;

static void
arg_clear (gpointer p)
{
  Arg *a = p;
  g_free (a->flat_key);
  g_free (a->key);
  g_free (a->s);
}

/* slice's columns (slice_columns), short names of iv-query-private.h's */
#define S_ID IV_SLICE_ID
#define S_TS IV_SLICE_TS
#define S_DUR IV_SLICE_DUR
#define S_TRACK IV_SLICE_TRACK
#define S_CAT IV_SLICE_CAT
#define S_NAME IV_SLICE_NAME
#define S_DEPTH IV_SLICE_DEPTH
#define S_PARENT IV_SLICE_PARENT
#define S_ARGS IV_SLICE_ARGS
#define S_SELF IV_SLICE_SELF
#define S_N_COLUMNS IV_SLICE_N_COLUMNS

typedef struct
{
  const IvTrace *trace;
  GArray *threads;      /* guint: tracks of threads (CPU threads and GPU streams) */
  GArray *gpus;         /* guint: GPU tracks */
  GArray *asyncs;       /* guint: async tracks */
  guint *utid_of_track; /* a thread's utid: its place in threads (dense from 0, as
                         * Perfetto's); G_MAXUINT for other tracks */
  guint32 *by_name;     /* slice ids grouped by name, built on the first GROUP BY name,
                         * the groups in the names' BINARY order (a GROUP BY name that
                         * SQLite also reads as its ORDER BY name gets them sorted) */
  guint32 *name_end;    /* per group: where it ends in by_name */
  guint32 *rank;        /* per name id: its group */
  guint32 *name_of;     /* per group: its name id */
  guint n_names;
  /* per integer column of slice: its values in by_name's order (BY_NAME_NULL for NULL),
   * made the first time a scan by name reads the column. A name's slices are spread over
   * the whole trace: read through by_name, every row is a miss to memory (a trace's 10 M
   * slices, ~450 names: ~80 ns a row); read from here, the scan is sequential. */
  gint64 *by_name_col[S_N_COLUMNS];
  /* the copies are held within a budget (cache_limit): the least recently used that no
   * open scan reads goes first; a column there is no room for is read through by_name */
  guint64 col_used[S_N_COLUMNS]; /* when each copy was last asked for (tick) */
  guint col_pins[S_N_COLUMNS];   /* open scans reading each copy */
  guint64 tick;
  guint by_name_pins; /* open scans by name (by_name and name_end are theirs) */
  guint32 *with_args; /* slices with arguments by offset in the file (args scans) */
  gsize n_with_args;
  GPtrArray *counter_names; /* char*: each series' name as Perfetto's JSON importer makes it */
  /* extract_arg ()'s last slice: a query asks of one slice several keys in a row */
  gsize cached_slice;
  GArray *cached_args; /* Arg */
} TraceData;

static void
trace_data_free (gpointer p)
{
  TraceData *d = p;
  g_array_unref (d->threads);
  g_array_unref (d->gpus);
  g_array_unref (d->asyncs);
  g_free (d->utid_of_track);
  g_free (d->by_name);
  g_free (d->name_end);
  g_free (d->rank);
  g_free (d->name_of);
  for (guint k = 0; k < G_N_ELEMENTS (d->by_name_col); k++)
    g_free (d->by_name_col[k]);
  g_free (d->with_args);
  g_ptr_array_unref (d->counter_names);
  if (d->cached_args)
    g_array_unref (d->cached_args);
  g_free (d);
}

/* What the trace tables' cursors begin with: IvQueryCursor's members, then the data. */
typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  TraceData *d;
} TraceCursor;

G_STATIC_ASSERT (G_STRUCT_OFFSET (TraceCursor, table) == G_STRUCT_OFFSET (IvQueryCursor, table));

/* xOpen of the trace tables: a zeroed cursor of @size bytes (a type beginning as
 * TraceCursor) on the table and its trace. */
static int
trace_cursor_open (sqlite3_vtab *vtab, gsize size, sqlite3_vtab_cursor **out)
{
  int rc = _iv_query_cursor_open (vtab, size, out);
  if (rc == SQLITE_OK)
    ((TraceCursor *) *out)->d = ((TraceCursor *) *out)->table->data;
  return rc;
}

static const IvTrack *
track_at (const IvTrace *t, guint i)
{
  return &g_array_index (t->tracks, IvTrack, i);
}

static const IvProcess *
process_at (const IvTrace *t, guint i)
{
  return t->processes->pdata[i];
}

static const IvRow *
row_at (const IvTrace *t, guint i)
{
  return &g_array_index (t->rows, IvRow, i);
}

static const char *
nonempty (const char *s)
{
  return s && *s ? s : NULL;
}

/* ---- args: flattened JSON ---- */

static void
flatten (JsonNode *node, const char *flat, const char *key, GArray *out)
{
  Arg a = { 0 };

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *o = json_node_get_object (node);
        g_autoptr (GList) members = json_object_get_members (o);
        for (GList *l = members; l; l = l->next)
          {
            g_autofree char *f = g_strconcat (flat, ".", (const char *) l->data, NULL);
            g_autofree char *k = g_strconcat (key, ".", (const char *) l->data, NULL);
            flatten (json_object_get_member (o, l->data), f, k, out);
          }
        return;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *arr = json_node_get_array (node);
        for (guint i = 0; i < json_array_get_length (arr); i++)
          {
            g_autofree char *k = g_strdup_printf ("%s[%u]", key, i);
            flatten (json_array_get_element (arr, i), flat, k, out);
          }
        return;
      }
    case JSON_NODE_NULL:
      a.type = "null";
      break;
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          a.type = "int";
          a.i = json_node_get_int (node);
          a.s = g_strdup_printf ("%" G_GINT64_FORMAT, a.i);
          break;
        case G_TYPE_DOUBLE:
          {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            a.type = "real";
            a.d = json_node_get_double (node);
            a.s = g_strdup (g_ascii_dtostr (buf, sizeof buf, a.d));
            break;
          }
        case G_TYPE_BOOLEAN:
          a.type = "bool";
          a.i = json_node_get_boolean (node);
          a.s = g_strdup (a.i ? "true" : "false");
          break;
        default:
          a.type = "string";
          a.s = g_strdup (json_node_get_string (node));
          break;
        }
      break;
    }
  a.flat_key = g_strdup (flat);
  a.key = g_strdup (key);
  g_array_append_val (out, a);
}

/* The arguments of @slice from @text (its "args" object as JSON text). */
static GArray *
parse_args (const IvTrace *trace, gsize slice, const char *text, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Arg));
  JsonNode *root;
  guint line, column;

  g_array_set_clear_func (out, arg_clear);
  /* json-glib recurses: the depth is checked first, as everywhere (iv-json-doc.h) */
  if (!iv_json_check_depth (text, strlen (text), IV_JSON_MAX_DEPTH, &line, &column)
      || !json_parser_load_from_data (parser, text, -1, NULL))
    {
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_INPUT,
                   _ ("%s: the arguments of slice %" G_GSIZE_FORMAT " could not be read."),
                   trace->path, slice);
      g_array_unref (out);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root && JSON_NODE_HOLDS_OBJECT (root))
    flatten (root, "args", "args", out);
  return out;
}

static GArray *
slice_args (TraceData *d, gsize slice, GError **error)
{
  g_autofree char *text = NULL;

  if (d->cached_args && d->cached_slice == slice)
    return g_array_ref (d->cached_args);
  if (!(text = iv_trace_slice_args (d->trace, slice, error)))
    return NULL;
  if (d->cached_args)
    g_array_unref (d->cached_args);
  d->cached_args = parse_args (d->trace, slice, text, error);
  d->cached_slice = slice;
  return d->cached_args ? g_array_ref (d->cached_args) : NULL;
}

/* extract_arg (arg_set_id, key): Perfetto's function, on the slice's arguments. */
static void
extract_arg (sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
  TraceData *d = sqlite3_user_data (ctx);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) args = NULL;
  const char *key;
  gint64 id;
  (void) argc;

  if (sqlite3_value_type (argv[0]) != SQLITE_INTEGER || (id = sqlite3_value_int64 (argv[0])) < 0
      || (guint64) id >= d->trace->n_slices || !d->trace->args_len[id]
      || !(key = (const char *) sqlite3_value_text (argv[1])))
    {
      sqlite3_result_null (ctx);
      return;
    }
  if (!(args = slice_args (d, (gsize) id, &error)))
    {
      sqlite3_result_error (ctx, error ? error->message : _ ("the arguments could not be read"),
                            -1);
      return;
    }
  for (guint i = 0; i < args->len; i++)
    {
      const Arg *a = &g_array_index (args, Arg, i);
      if (strcmp (a->key, key) != 0)
        continue;
      if (strcmp (a->type, "int") == 0 || strcmp (a->type, "bool") == 0)
        sqlite3_result_int64 (ctx, a->i);
      else if (strcmp (a->type, "real") == 0)
        sqlite3_result_double (ctx, a->d);
      else if (a->s)
        sqlite3_result_text (ctx, a->s, -1, SQLITE_TRANSIENT);
      else
        sqlite3_result_null (ctx);
      return;
    }
  sqlite3_result_null (ctx);
}

/* ---- slice: its own index ---- */

static const char *const slice_columns[] = {
  "id INTEGER", "ts INTEGER",    "dur INTEGER",       "track_id INTEGER",   "category TEXT",
  "name TEXT",  "depth INTEGER", "parent_id INTEGER", "arg_set_id INTEGER", "self_dur INTEGER",
  NULL
};

/* Perfetto's duration: -1 for a slice that did not end. */
static inline gint64
slice_dur (const IvTrace *t, gsize i)
{
  return iv_trace_slice_is_open (t, i) ? -1 : t->dur_ns[i];
}

/* Instants are slices of no duration to Perfetto (its JSON importer puts a thread's on
 * its thread track): they follow the slices, instant k as slice n_slices + k, on depth 0. */
static inline gsize
n_all (const IvTrace *t)
{
  return t->n_slices + t->instants->len;
}

static inline const IvInstant *
instant_of (const IvTrace *t, gsize i)
{
  return i >= t->n_slices ? &g_array_index (t->instants, IvInstant, i - t->n_slices) : NULL;
}

static inline gint64
any_ts (const IvTrace *t, gsize i)
{
  const IvInstant *in = instant_of (t, i);
  return in ? in->ts_ns : t->start_ns[i];
}

static inline gint64
any_dur (const IvTrace *t, gsize i)
{
  return i >= t->n_slices ? 0 : slice_dur (t, i);
}

/* -1: a global instant, on no track */
static inline gint64
any_track (const IvTrace *t, gsize i)
{
  const IvInstant *in = instant_of (t, i);
  if (in)
    return in->track == G_MAXUINT ? -1 : (gint64) in->track;
  return row_at (t, t->row[i])->track;
}

static inline guint32
any_name (const IvTrace *t, gsize i)
{
  const IvInstant *in = instant_of (t, i);
  return in ? in->name : t->name[i];
}

/* The first instant at or after @ts (instants are ordered by time). */
static gsize
instant_first_at (const IvTrace *t, gint64 ts)
{
  gsize lo = 0, hi = t->instants->len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (g_array_index (t->instants, IvInstant, mid).ts_ns < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  TraceData *d;
  gboolean instants; /* the scan has passed the slices' rows to the instants */
  gint64 ts_lo, ts_hi, dur_lo, dur_hi;
  gint64 track; /* -1: any */
  gboolean by_name;
  gboolean bounded; /* a ts, dur or track bound to check on each row */
  guint32 group;    /* by name: the name of the group the scan is in */
  const char *group_name;
  int group_len;
  const gint64 *cols[S_N_COLUMNS]; /* by name: the columns read from by_name_col (pinned) */
  gboolean pinned_by_name;         /* the scan holds a pin on by_name */
  gboolean scattered;              /* by name: a column read from the trace, through by_name */
  gboolean one;                    /* a lookup by id */
  guint row, row_end;              /* rows left to scan */
  gsize i, end;                    /* the slice now and the end of its run */
  gboolean eof;
} SliceCursor;

G_STATIC_ASSERT (G_STRUCT_OFFSET (SliceCursor, d) == G_STRUCT_OFFSET (TraceCursor, d));

static int
slice_best_index (sqlite3_vtab *vtab, sqlite3_index_info *info)
{
  IvQueryTable *t = ((IvQueryVtab *) vtab)->table;
  TraceData *d = t->data;
  double n = (double) n_all (d->trace) + 1;
  GString *plan = g_string_new (NULL);
  gboolean id = FALSE, track = FALSE, ts = FALSE;
  int argv = 0;

  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      char code = 0;
      if (!c->usable)
        continue;
      switch (c->iColumn)
        {
        case -1:
        case S_ID:
          code = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 'i' : 0;
          break;
        case S_TRACK:
          code = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 't' : 0;
          break;
        case S_TS:
          code = c->op == SQLITE_INDEX_CONSTRAINT_EQ   ? 'e'
                 : c->op == SQLITE_INDEX_CONSTRAINT_GE ? 'a'
                 : c->op == SQLITE_INDEX_CONSTRAINT_GT ? 'A'
                 : c->op == SQLITE_INDEX_CONSTRAINT_LE ? 'b'
                 : c->op == SQLITE_INDEX_CONSTRAINT_LT ? 'B'
                                                       : 0;
          break;
        case S_DUR:
          code = c->op == SQLITE_INDEX_CONSTRAINT_EQ   ? 'q'
                 : c->op == SQLITE_INDEX_CONSTRAINT_GE ? 'd'
                 : c->op == SQLITE_INDEX_CONSTRAINT_GT ? 'D'
                 : c->op == SQLITE_INDEX_CONSTRAINT_LE ? 'u'
                 : c->op == SQLITE_INDEX_CONSTRAINT_LT ? 'U'
                                                       : 0;
          break;
        default:
          break;
        }
      if (!code)
        continue;
      g_string_append_c (plan, code);
      /* SQLite checks each row again (omit stays 0): the scan only has to be a superset */
      info->aConstraintUsage[i].argvIndex = ++argv;
      id |= code == 'i';
      track |= code == 't';
      ts |= strchr ("eaAbB", code) != NULL;
    }
  /* costs: what the scan reads (a guess for ranges: a tenth; a track: a hundredth) */
  if (id)
    {
      info->estimatedCost = 1;
      info->estimatedRows = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      double cost = n;
      if (track)
        cost /= 100;
      if (ts)
        cost = cost / 10 + (double) d->trace->rows->len;
      info->estimatedCost = cost;
      info->estimatedRows = (sqlite3_int64) cost;
    }
  info->idxNum = 0;
  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc
      && (info->aOrderBy[0].iColumn == S_ID || info->aOrderBy[0].iColumn == -1))
    info->orderByConsumed = 1; /* every scan runs in id order */
  else if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == S_NAME && !id && !track && !ts
           && !info->aOrderBy[0].desc && sqlite3_vtab_distinct (info) == 1)
    {
      /* GROUP BY name: the rows of a name come together, so SQLite aggregates as they
       * stream instead of sorting every slice first. The groups come in ascending
       * order: SQLite may take them for its ORDER BY name too (sqlite3_vtab_distinct
       * says 1 then as well), and for a descending one it sorts */
      info->idxNum = 1;
      /* and the columns it reads (bit k + 1: column k), for xFilter to read them from
       * copies in the group's order; a rowid or a column past the last is read through
       * the ids */
      info->idxNum |= (int) ((info->colUsed & ((1u << S_N_COLUMNS) - 1)) << 1);
      info->orderByConsumed = 1;
    }
  info->idxStr = sqlite3_mprintf ("%s", plan->str);
  info->needToFreeIdxStr = 1;
  g_string_free (plan, TRUE);
  return SQLITE_OK;
}

static int
slice_open (sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
  return trace_cursor_open (vtab, sizeof (SliceCursor), out);
}

/* Lets go of the copies a scan by name read: they may be evicted or dropped again. */
static void
slice_unpin (SliceCursor *c)
{
  for (int col = 0; col < S_N_COLUMNS; col++)
    if (c->cols[col])
      {
        c->d->col_pins[col]--;
        c->cols[col] = NULL;
      }
  if (c->pinned_by_name)
    {
      c->d->by_name_pins--;
      c->pinned_by_name = FALSE;
    }
}

static int
slice_close (sqlite3_vtab_cursor *cur)
{
  slice_unpin ((SliceCursor *) cur);
  return _iv_query_cursor_close (cur);
}

/* Slice ids grouped by name (a counting sort: linear, and stable, so ids rise within a
 * name), and where each name's group ends. FALSE when the memory cannot be had. */
/* Names (ids) in SQLite's BINARY order of their text, NULL first. */
static int
compare_name_text (gconstpointer a, gconstpointer b, gpointer data)
{
  const char *x = iv_trace_string (data, *(const guint32 *) a);
  const char *y = iv_trace_string (data, *(const guint32 *) b);
  if (!x || !y)
    return (y == NULL) - (x == NULL);
  return strcmp (x, y);
}

/* The group of slice (or instant) @i in by_name. */
static inline guint32
group_of (const TraceData *d, gsize i)
{
  return d->rank[MIN (any_name (d->trace, i), d->n_names - 1)];
}

static gboolean
build_by_name (TraceData *d)
{
  const IvTrace *t = d->trace;
  guint n_names = iv_intern_size (t->strings) + 1;
  guint32 *start = g_try_new0 (guint32, (gsize) n_names + 1);
  guint32 *rank = g_try_new (guint32, n_names), *name_of = g_try_new (guint32, n_names);
  guint32 *out = g_try_new (guint32, MAX (n_all (t), 1));

  if (!start || !rank || !name_of || !out)
    {
      g_free (start);
      g_free (rank);
      g_free (name_of);
      g_free (out);
      return FALSE;
    }
  for (guint k = 0; k < n_names; k++)
    name_of[k] = k;
  g_qsort_with_data (name_of, (gint) n_names, sizeof (guint32), compare_name_text, (gpointer) t);
  for (guint k = 0; k < n_names; k++)
    rank[name_of[k]] = k;
  d->rank = rank;
  d->name_of = name_of;
  d->n_names = n_names;
  for (gsize i = 0; i < n_all (t); i++)
    start[group_of (d, i) + 1]++;
  for (guint k = 1; k <= n_names; k++)
    start[k] += start[k - 1];
  for (gsize i = 0; i < n_all (t); i++)
    out[start[group_of (d, i)]++] = (guint32) i;
  /* start[k] is now where group k ends */
  d->by_name = out;
  d->name_end = start;
  return TRUE;
}

static inline gboolean
slice_keeps (const SliceCursor *c, gsize i)
{
  const IvTrace *t = c->d->trace;
  gint64 ts = any_ts (t, i), dur;

  if (ts < c->ts_lo || ts > c->ts_hi)
    return FALSE;
  dur = any_dur (t, i);
  if (dur < c->dur_lo || dur > c->dur_hi)
    return FALSE;
  return c->track < 0 || any_track (t, i) == c->track;
}

/* How many rows ahead a scan by name asks for a duration: far enough to cover a miss to
 * memory at the rate SQLite takes rows. */
#define PREFETCH_AHEAD 128

/* Moves to the first slice at or after c->i that the bounds keep, across rows. */
static void
slice_settle (SliceCursor *c)
{
  const IvTrace *t = c->d->trace;

  if (c->by_name)
    {
      /* the rows of a name come together: the name is known from the group, and the
       * columns are read only for a bound (scattered reads are what this scan costs) */
      while (c->i < c->end)
        {
          if (c->i >= c->d->name_end[c->group])
            {
              while (c->group + 1 < c->d->n_names && c->i >= c->d->name_end[c->group])
                c->group++;
              c->group_name = iv_trace_string (t, c->d->name_of[c->group]);
              c->group_len = c->group_name ? (int) strlen (c->group_name) : 0;
            }
          c->table->visited++;
          /* the ids of a group are scattered over the columns: their durations are asked
           * for ahead, so the memory's latency overlaps the rows before them */
          if (c->scattered && c->i + PREFETCH_AHEAD < c->end
              && c->d->by_name[c->i + PREFETCH_AHEAD] < t->n_slices)
            __builtin_prefetch (&t->dur_ns[c->d->by_name[c->i + PREFETCH_AHEAD]]);
          if (!c->bounded || slice_keeps (c, c->d->by_name[c->i]))
            return;
          c->i++;
        }
      c->eof = TRUE;
      return;
    }
  for (;;)
    {
      while (c->i < c->end)
        {
          /* a block of IV_TRACE_COARSE slices all shorter than the bound: skipped whole */
          if (c->dur_lo > 0 && c->i % IV_TRACE_COARSE == 0 && c->i + IV_TRACE_COARSE <= c->end
              && c->end <= t->n_slices && t->coarse_max_dur[c->i / IV_TRACE_COARSE] < c->dur_lo)
            {
              c->i += IV_TRACE_COARSE;
              continue;
            }
          c->table->visited++;
          if (any_ts (t, c->i) > c->ts_hi)
            {
              /* a row, and the instants, are ordered by start: nothing further is in range */
              c->i = c->end;
              break;
            }
          if (slice_keeps (c, c->i))
            return;
          c->i++;
        }
      if (c->row >= c->row_end)
        {
          if (c->instants || t->instants->len == 0)
            {
              c->eof = TRUE;
              return;
            }
          c->instants = TRUE;
          c->i = t->n_slices + (c->ts_lo > G_MININT64 ? instant_first_at (t, c->ts_lo) : 0);
          c->end = n_all (t);
          continue;
        }
      {
        const IvRow *r = row_at (t, c->row);
        c->i = c->ts_lo > G_MININT64 ? iv_trace_row_first_at (t, c->row, c->ts_lo) : r->first;
        c->end = r->first + r->n;
        c->row++;
      }
    }
}

/* The columns by_name_col holds: the integer ones (the id is by_name itself). */
static inline gboolean
by_name_cacheable (int col)
{
  return col != S_ID && col != S_CAT && col != S_NAME && col >= 0 && col < S_N_COLUMNS;
}

static const gint64 *by_name_column (TraceData *d, IvQuery *q, int col);

/* Narrows [*lo, *hi] by one comparison with @v, @op as xBestIndex codes ts's: 'e' =,
 * 'a' >=, 'A' >, 'b' <=, 'B' <. */
static void
narrow (gint64 *lo, gint64 *hi, char op, gint64 v)
{
  if (op == 'e' || op == 'a')
    *lo = MAX (*lo, v);
  else if (op == 'A')
    *lo = MAX (*lo, v == G_MAXINT64 ? v : v + 1);
  if (op == 'e' || op == 'b')
    *hi = MIN (*hi, v);
  else if (op == 'B')
    *hi = MIN (*hi, v == G_MININT64 ? v : v - 1);
}

static int
slice_filter (sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
              sqlite3_value **argv)
{
  SliceCursor *c = (SliceCursor *) cur;
  const IvTrace *t = c->d->trace;
  gint64 id = -1;
  gboolean empty = FALSE;

  slice_unpin (c);
  c->ts_lo = c->dur_lo = G_MININT64;
  c->ts_hi = c->dur_hi = G_MAXINT64;
  c->track = -1;
  c->by_name = FALSE;
  c->one = FALSE;
  c->instants = FALSE;
  c->eof = FALSE;
  for (int k = 0; idx_str && idx_str[k] && k < argc; k++)
    {
      gint64 v;
      gboolean upper = strchr ("bBuU", idx_str[k]) != NULL;
      int type = sqlite3_value_type (argv[k]);

      if (type == SQLITE_NULL)
        {
          empty = TRUE; /* a comparison with NULL is never true */
          continue;
        }
      if (!_iv_query_value_bound (argv[k], upper, &v))
        continue;
      switch (idx_str[k])
        {
        case 'i':
          if (id >= 0 && id != v)
            empty = TRUE;
          id = v;
          if (v < 0 || (guint64) v >= n_all (t))
            empty = TRUE;
          break;
        case 't':
          if (v < 0 || (guint64) v >= t->tracks->len || (c->track >= 0 && c->track != v))
            empty = TRUE;
          c->track = v;
          break;
        case 'e':
        case 'a':
        case 'A':
        case 'b':
        case 'B':
          narrow (&c->ts_lo, &c->ts_hi, idx_str[k], v);
          break;
        case 'q':
        case 'd':
        case 'D':
        case 'u':
        case 'U':
          /* dur's codes stand where ts's do in "eaAbB" */
          narrow (&c->dur_lo, &c->dur_hi, "eaAbB"[strchr ("qdDuU", idx_str[k]) - "qdDuU"], v);
          break;
        default:
          break;
        }
    }
  if (empty || c->ts_lo > c->ts_hi || c->dur_lo > c->dur_hi)
    {
      c->eof = TRUE;
      return SQLITE_OK;
    }
  if (id >= 0)
    {
      /* one slice: its row alone, from it to it */
      c->one = TRUE;
      c->i = (gsize) id;
      c->end = (gsize) id + 1;
      c->table->visited++;
      if (!slice_keeps (c, c->i))
        c->eof = TRUE;
      return SQLITE_OK;
    }
  if (idx_num & 1)
    {
      if (!c->d->by_name && !build_by_name (c->d))
        {
          cur->pVtab->zErrMsg = sqlite3_mprintf ("%s", _ ("not enough memory to group slices by "
                                                          "name"));
          return SQLITE_NOMEM;
        }
      c->by_name = TRUE;
      c->pinned_by_name = TRUE;
      c->d->by_name_pins++;
      /* the columns the statement reads (xBestIndex's colUsed, in idx_num): each from
       * its copy in by_name's order when it can be had within the budget */
      c->scattered = FALSE;
      for (int col = 0; col < S_N_COLUMNS; col++)
        {
          gboolean used = (idx_num >> (col + 1)) & 1;
          c->cols[col] = used && by_name_cacheable (col)
                             ? by_name_column (c->d, c->table->query, col)
                             : NULL;
          if (c->cols[col])
            c->d->col_pins[col]++;
          c->scattered |= used && col != S_ID && col != S_NAME && !c->cols[col];
        }
      c->bounded = c->ts_lo > G_MININT64 || c->ts_hi < G_MAXINT64 || c->dur_lo > G_MININT64
                   || c->dur_hi < G_MAXINT64 || c->track >= 0;
      c->scattered |= c->bounded; /* slice_keeps reads the trace through by_name */
      c->group = 0;
      c->group_name = iv_trace_string (t, c->d->name_of[0]);
      c->group_len = c->group_name ? (int) strlen (c->group_name) : 0;
      c->i = 0;
      c->end = n_all (t);
      slice_settle (c);
      return SQLITE_OK;
    }
  if (c->track >= 0)
    {
      const IvTrack *tr = track_at (t, (guint) c->track);
      c->row = tr->first_row;
      c->row_end = tr->first_row + tr->n_rows;
    }
  else
    {
      c->row = 0;
      c->row_end = t->rows->len;
    }
  c->i = c->end = 0;
  slice_settle (c);
  return SQLITE_OK;
}

static int
slice_next (sqlite3_vtab_cursor *cur)
{
  SliceCursor *c = (SliceCursor *) cur;
  c->i++;
  if (c->one)
    c->eof = TRUE;
  else if (c->by_name && !c->bounded && !c->scattered && c->i < c->end
           && c->i < c->d->name_end[c->group])
    c->table->visited++; /* within a group, nothing to check or to ask for ahead */
  else
    slice_settle (c);
  return SQLITE_OK;
}

static int
slice_eof (sqlite3_vtab_cursor *cur)
{
  return ((SliceCursor *) cur)->eof;
}

static inline gsize
slice_id (const SliceCursor *c)
{
  return c->by_name ? c->d->by_name[c->i] : c->i;
}

/* Column @col of slice (or instant) @i when it is an integer column: TRUE with its value
 * in @out, FALSE when it is NULL. The text columns (category, name) are slice_value's. */
static gboolean
slice_int (const IvTrace *t, gsize i, int col, gint64 *out)
{
  if (i >= t->n_slices)
    {
      /* an instant */
      switch (col)
        {
        case S_ID:
          *out = (gint64) i;
          return TRUE;
        case S_TS:
          *out = any_ts (t, i);
          return TRUE;
        case S_DUR:
        case S_DEPTH:
        case S_SELF:
          *out = 0;
          return TRUE;
        case S_TRACK:
          *out = any_track (t, i);
          return *out >= 0;
        default:
          return FALSE;
        }
    }
  switch (col)
    {
    case S_ID:
      *out = (gint64) i;
      return TRUE;
    case S_TS:
      *out = t->start_ns[i];
      return TRUE;
    case S_DUR:
      *out = slice_dur (t, i);
      return TRUE;
    case S_TRACK:
      *out = row_at (t, t->row[i])->track;
      return TRUE;
    case S_DEPTH:
      *out = row_at (t, t->row[i])->depth;
      return TRUE;
    case S_PARENT:
      {
        gsize p = iv_trace_parent (t, i);
        *out = (gint64) p;
        return p != i && p < t->n_slices;
      }
    case S_ARGS:
      *out = (gint64) i;
      return t->args_len[i] != 0;
    case S_SELF:
      *out = t->self_ns[i];
      return !iv_trace_slice_is_open (t, i);
    default:
      return FALSE;
    }
}

/* Column @col of slice (or instant) @i, as the slice table has it. */
static void
slice_value (const IvTrace *t, gsize i, int col, sqlite3_context *ctx)
{
  gint64 v;

  if (col == S_NAME)
    _iv_query_result_text (ctx, iv_trace_string (t, any_name (t, i)));
  else if (col == S_CAT)
    _iv_query_result_text (ctx, i < t->n_slices ? nonempty (iv_trace_string (t, t->cat[i])) : NULL);
  else if (slice_int (t, i, col, &v))
    sqlite3_result_int64 (ctx, v);
  else
    sqlite3_result_null (ctx);
}

/* NULL in a by_name_col column. The columns that can be NULL (track, parent, arguments,
 * self time) hold ids and durations, never this value; the others are never NULL. */
#define BY_NAME_NULL G_MININT64

/* What the caches hold now, bytes. */
static gsize
trace_cache_bytes (const TraceData *d)
{
  gsize n = n_all (d->trace), bytes = 0;
  if (d->by_name)
    bytes += MAX (n, 1) * sizeof (guint32) + ((gsize) d->n_names * 3 + 1) * sizeof (guint32);
  for (int col = 0; col < S_N_COLUMNS; col++)
    if (d->by_name_col[col])
      bytes += MAX (n, 1) * sizeof (gint64);
  return bytes + d->n_with_args * sizeof (guint32);
}

/* The budget of the caches: the connection's limit, or by default half the memory of
 * the trace's own columns (at least 16 MiB) — a GROUP BY name over every integer column
 * of 10 M slices would otherwise keep 560 MB of copies. */
static gsize
trace_cache_limit (const TraceData *d, IvQuery *q)
{
  gsize limit = _iv_query_cache_limit (q);
  return limit ? limit : MAX ((gsize) 16 << 20, iv_trace_memory_bytes (d->trace) / 2);
}

/* Room for @need more bytes within the budget, evicting the copies least recently used
 * that no open scan reads; FALSE when there is none. */
static gboolean
make_room (TraceData *d, IvQuery *q, gsize need)
{
  gsize limit = trace_cache_limit (d, q);
  while (trace_cache_bytes (d) + need > limit)
    {
      int lru = -1;
      for (int col = 0; col < S_N_COLUMNS; col++)
        if (d->by_name_col[col] && d->col_pins[col] == 0
            && (lru < 0 || d->col_used[col] < d->col_used[lru]))
          lru = col;
      if (lru < 0)
        return FALSE;
      g_clear_pointer (&d->by_name_col[lru], g_free);
    }
  return TRUE;
}

/* Column @col in by_name's order (d->by_name_col), made on the first call; NULL when
 * the budget or the memory does not allow it (the scan then reads the trace through
 * by_name). */
static const gint64 *
by_name_column (TraceData *d, IvQuery *q, int col)
{
  const IvTrace *t = d->trace;
  gsize n = n_all (t);
  gint64 *out;
  guint32 *at;

  d->col_used[col] = ++d->tick;
  if (d->by_name_col[col])
    return d->by_name_col[col];
  if (!make_room (d, q, MAX (n, 1) * sizeof (gint64)))
    return NULL;
  out = g_try_new (gint64, MAX (n, 1));
  at = g_try_new (guint32, d->n_names);
  if (!out || !at)
    {
      g_free (out);
      g_free (at);
      return NULL;
    }
  /* the trace is read in its order, each value written at the next place of its name's
   * group (as build_by_name placed the ids): sequential reads, one write stream a name */
  for (guint k = 0; k < d->n_names; k++)
    at[k] = k ? d->name_end[k - 1] : 0;
  for (gsize i = 0; i < n; i++)
    {
      gint64 v;
      gboolean set = slice_int (t, i, col, &v);
      out[at[group_of (d, i)]++] = set ? v : BY_NAME_NULL;
    }
  g_free (at);
  d->by_name_col[col] = out;
  return out;
}

static int
slice_column (sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
  SliceCursor *c = (SliceCursor *) cur;

  if (c->by_name)
    {
      /* the name is the group's, the id by_name's, the integers by_name_col's: nothing
       * is read from the trace but what no copy holds */
      if (col == S_NAME && c->group_name)
        {
          sqlite3_result_text (ctx, c->group_name, c->group_len, SQLITE_STATIC);
          return SQLITE_OK;
        }
      if (col == S_ID)
        {
          sqlite3_result_int64 (ctx, c->d->by_name[c->i]);
          return SQLITE_OK;
        }
      if (col >= 0 && col < S_N_COLUMNS && c->cols[col])
        {
          gint64 v = c->cols[col][c->i];
          if (v == BY_NAME_NULL)
            sqlite3_result_null (ctx);
          else
            sqlite3_result_int64 (ctx, v);
          return SQLITE_OK;
        }
    }
  slice_value (c->d->trace, slice_id (c), col, ctx);
  return SQLITE_OK;
}

static int
slice_rowid (sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
  *rowid = (sqlite3_int64) slice_id ((SliceCursor *) cur);
  return SQLITE_OK;
}

static const sqlite3_module slice_module = {
  .xConnect = _iv_query_vt_connect,
  .xBestIndex = slice_best_index,
  .xDisconnect = _iv_query_vt_disconnect,
  .xDestroy = _iv_query_vt_disconnect,
  .xOpen = slice_open,
  .xClose = slice_close,
  .xFilter = slice_filter,
  .xNext = slice_next,
  .xEof = slice_eof,
  .xColumn = slice_column,
  .xRowid = slice_rowid,
};

/* ---- the native GROUP BY over slice (§ Accelerated GROUP BY, docs/queries.md) ---- */

/* One column's values in one group: how many are not NULL, their least and greatest, and
 * their sum kept as the sum of the positive ones and of the negatives' magnitudes, each
 * saturating. Below 2^53 each, every partial sum in any order is exact as a double and
 * as an integer: what SQLite's sum, avg and total make of the same values in its own
 * order is then known exactly (the caller declines otherwise). */
typedef struct
{
  gint64 n;
  guint64 pos, neg;
  gint64 min, max;
} Acc;

static inline void
acc_add (Acc *a, gint64 v)
{
  if (a->n == 0 || v < a->min)
    a->min = v;
  if (a->n == 0 || v > a->max)
    a->max = v;
  a->n++;
  if (v >= 0)
    {
      if (__builtin_add_overflow (a->pos, (guint64) v, &a->pos))
        a->pos = G_MAXUINT64;
    }
  else if (__builtin_add_overflow (a->neg, (guint64) 0 - (guint64) v, &a->neg))
    a->neg = G_MAXUINT64;
}

/* Whether integer @v passes comparison @op with @w (the column on the left). */
static inline gboolean
cmp_int (gint64 v, char op, gint64 w)
{
  switch (op)
    {
    case '=':
      return v == w;
    case '!':
      return v != w;
    case '<':
      return v < w;
    case 'l':
      return v <= w;
    case '>':
      return v > w;
    default:
      return v >= w;
    }
}

/* The same for text, BINARY as SQLite compares it; NULL passes nothing. */
static gboolean
cmp_text (const char *v, char op, const char *w)
{
  int c;
  if (!v)
    return FALSE;
  c = strcmp (v, w);
  return cmp_int (c, op, 0);
}

/* Whether every comparison of @plan on column @col (an integer one) passes @v. */
static gboolean
conds_pass_int (const IvAggPlan *plan, int col, gboolean set, gint64 v)
{
  for (guint k = 0; k < plan->conds->len; k++)
    {
      const IvAggCond *c = &g_array_index (plan->conds, IvAggCond, k);
      if (c->column == (IvSliceColumn) col && (!set || !cmp_int (v, c->op, c->value)))
        return FALSE;
    }
  return TRUE;
}

static gboolean
conds_pass_text (const IvAggPlan *plan, int col, const char *v)
{
  for (guint k = 0; k < plan->conds->len; k++)
    {
      const IvAggCond *c = &g_array_index (plan->conds, IvAggCond, k);
      if (c->column == (IvSliceColumn) col && !cmp_text (v, c->op, c->text))
        return FALSE;
    }
  return TRUE;
}

/* A comparison's operator as narrow () codes ts's. */
static char
ts_code (char op)
{
  switch (op)
    {
    case '=':
      return 'e';
    case '<':
      return 'B';
    case 'l':
      return 'b';
    case '>':
      return 'A';
    default:
      return 'a';
    }
}

typedef struct
{
  const IvTrace *t;
  const IvAggPlan *plan;
  int cols[S_N_COLUMNS]; /* the columns aggregated (not count(*)), each once */
  int n_cols;
  guint n_strings;      /* the trace's strings (names, categories), and one */
  guint n_keys;         /* group slots: names, tracks + NULL, categories + NULL, depths */
  guint null_key;       /* the slot of a NULL key (G_MAXUINT: none) */
  gint64 *rows;         /* per slot: rows in the group */
  Acc *acc;             /* per slot × n_cols */
  guint8 *name_ok;      /* per name: the name's comparisons pass (NULL: none to make) */
  guint8 *cat_ok;       /* per category string, the same */
  guint8 *cat_null;     /* per category string: it reads as NULL (empty) */
  gboolean slice_conds; /* comparisons on ts or dur to make per slice */
  gint64 ts_lo, ts_hi;  /* what the comparisons on ts allow, for the rows' searches */
  guint64 looked;
} Agg;

static gint64
row_depth_of (const IvTrace *t, gsize i)
{
  return i >= t->n_slices ? 0 : row_at (t, t->row[i])->depth;
}

/* Adds slice (or instant) @i, known to pass the comparisons made per row. */
static inline void
agg_add (Agg *a, gsize i, guint key)
{
  const IvTrace *t = a->t;
  Acc *acc = a->acc + (gsize) key * a->n_cols;

  a->rows[key]++;
  for (int c = 0; c < a->n_cols; c++)
    {
      gint64 v;
      int col = a->cols[c];
      /* the usual ones first, read straight from the columns */
      if (col == S_DUR && i < t->n_slices)
        acc_add (&acc[c], slice_dur (t, i));
      else if (col == S_TS && i < t->n_slices)
        acc_add (&acc[c], t->start_ns[i]);
      else if (col == S_NAME)
        acc[c].n += iv_trace_string (t, any_name (t, i)) != NULL;
      else if (col == S_CAT)
        acc[c].n += i < t->n_slices && !a->cat_null[t->cat[i]];
      else if (slice_int (t, i, col, &v))
        acc_add (&acc[c], v);
    }
}

/* The group slot of slice (or instant) @i; G_MAXUINT when a comparison on the key's
 * own strings fails. */
static inline guint
agg_key (Agg *a, gsize i)
{
  const IvTrace *t = a->t;
  switch (a->plan->key)
    {
    case IV_SLICE_NAME:
      return MIN (any_name (t, i), a->n_keys - 1);
    case IV_SLICE_CAT:
      return i < t->n_slices && !a->cat_null[t->cat[i]] ? t->cat[i] : a->null_key;
    case IV_SLICE_TRACK:
      {
        gint64 tr = any_track (t, i);
        return tr < 0 ? a->null_key : (guint) tr;
      }
    default:
      return (guint) row_depth_of (t, i);
    }
}

/* The comparisons made per slice: ts and dur (name and category are per string, track
 * and depth per row). */
static inline gboolean
agg_slice_passes (Agg *a, gsize i)
{
  const IvTrace *t = a->t;
  if (!a->slice_conds)
    return TRUE;
  return conds_pass_int (a->plan, S_TS, TRUE, any_ts (t, i))
         && conds_pass_int (a->plan, S_DUR, TRUE, any_dur (t, i));
}

static inline gboolean
agg_strings_pass (Agg *a, gsize i)
{
  const IvTrace *t = a->t;
  if (a->name_ok && !a->name_ok[MIN (any_name (t, i), a->n_strings - 1)])
    return FALSE;
  if (a->cat_ok && (i >= t->n_slices || !a->cat_ok[t->cat[i]]))
    return FALSE;
  return TRUE;
}

static int
compare_keys (gconstpointer pa, gconstpointer pb, gpointer data)
{
  Agg *a = data;
  guint x = *(const guint *) pa, y = *(const guint *) pb;
  const IvTrace *t = a->t;

  if (a->plan->desc)
    {
      guint swap = x;
      x = y;
      y = swap;
    }

  /* NULL first, as SQLite's sorter has it */
  if (x == a->null_key || y == a->null_key)
    return (y == a->null_key) - (x == a->null_key);
  if (a->plan->key == IV_SLICE_NAME || a->plan->key == IV_SLICE_CAT)
    {
      const char *u = iv_trace_string (t, x), *v = iv_trace_string (t, y);
      if (!u || !v)
        return (v == NULL) - (u == NULL);
      return strcmp (u, v);
    }
  return (x > y) - (x < y);
}

static void
agg_key_value (Agg *a, guint key, IvAggValue *out)
{
  const IvTrace *t = a->t;
  memset (out, 0, sizeof *out);
  out->type = SQLITE_NULL;
  if (key == a->null_key)
    return;
  if (a->plan->key == IV_SLICE_NAME || a->plan->key == IV_SLICE_CAT)
    {
      out->s = iv_trace_string (t, key);
      out->type = out->s ? SQLITE_TEXT : SQLITE_NULL;
    }
  else
    {
      out->type = SQLITE_INTEGER;
      out->i = key;
    }
}

/* An aggregate's value as SQLite gives it; FALSE when that depends on the order SQLite
 * adds in (a sum past 2^53 in doubles, or one that may overflow). */
static gboolean
agg_value (const IvAgg *g, gint64 rows, const Acc *acc, IvAggValue *out)
{
  const guint64 exact = G_GUINT64_CONSTANT (1) << 53;

  memset (out, 0, sizeof *out);
  out->type = SQLITE_NULL;
  switch (g->func)
    {
    case IV_AGG_COUNT_STAR:
      out->type = SQLITE_INTEGER;
      out->i = rows;
      return TRUE;
    case IV_AGG_COUNT:
      out->type = SQLITE_INTEGER;
      out->i = acc->n;
      return TRUE;
    case IV_AGG_MIN:
    case IV_AGG_MAX:
      if (acc->n)
        {
          out->type = SQLITE_INTEGER;
          out->i = g->func == IV_AGG_MIN ? acc->min : acc->max;
        }
      return TRUE;
    case IV_AGG_SUM:
      if (acc->n == 0)
        return TRUE;
      /* every partial sum lies between -neg and pos: none overflows in any order */
      if (acc->pos > (guint64) G_MAXINT64 || acc->neg > (guint64) G_MAXINT64)
        return FALSE;
      out->type = SQLITE_INTEGER;
      out->i = (gint64) acc->pos - (gint64) acc->neg;
      return TRUE;
    case IV_AGG_AVG:
    case IV_AGG_TOTAL:
      if (acc->n == 0)
        {
          if (g->func == IV_AGG_TOTAL)
            out->type = SQLITE_FLOAT; /* total () of nothing is 0.0 */
          return TRUE;
        }
      if (acc->pos > exact || acc->neg > exact)
        return FALSE;
      out->type = SQLITE_FLOAT;
      out->d = (double) ((gint64) acc->pos - (gint64) acc->neg);
      if (g->func == IV_AGG_AVG)
        out->d /= (double) acc->n;
      return TRUE;
    }
  return FALSE;
}

void
_iv_agg_groups_free (IvAggGroups *groups)
{
  if (!groups)
    return;
  g_array_unref (groups->values);
  g_free (groups);
}

static void
agg_clear (Agg *a)
{
  g_free (a->rows);
  g_free (a->acc);
  g_free (a->name_ok);
  g_free (a->cat_ok);
  g_free (a->cat_null);
}

/* How many slices pass between looks at the cancel flag and the clock */
#define AGG_CHECK_EVERY 65536

IvAggOutcome
_iv_query_slice_aggregate (IvQueryTable *table, const IvAggPlan *plan, IvAggGroups **out)
{
  TraceData *d = table->data;
  const IvTrace *t = d->trace;
  guint n_strings = iv_intern_size (t->strings) + 1;
  Agg a = { .t = t, .plan = plan, .null_key = G_MAXUINT, .n_strings = n_strings };
  gboolean need_name = FALSE, need_cat_cond = FALSE, need_cat = plan->key == IV_SLICE_CAT;
  g_autoptr (GArray) keys = NULL;
  IvAggGroups *groups;
  gsize next_check = 0; /* a query cancelled before it started stops at once */
  guint max_depth = 0;

  *out = NULL;
  for (guint k = 0; k < plan->aggs->len; k++)
    {
      const IvAgg *g = &g_array_index (plan->aggs, IvAgg, k);
      gboolean seen = FALSE;
      if (g->func == IV_AGG_COUNT_STAR)
        continue;
      need_cat |= g->column == S_CAT;
      for (int c = 0; c < a.n_cols; c++)
        seen |= a.cols[c] == (int) g->column;
      if (!seen)
        a.cols[a.n_cols++] = g->column;
    }
  a.ts_lo = G_MININT64;
  a.ts_hi = G_MAXINT64;
  for (guint k = 0; k < plan->conds->len; k++)
    {
      const IvAggCond *c = &g_array_index (plan->conds, IvAggCond, k);
      need_name |= c->column == S_NAME;
      need_cat_cond |= c->column == S_CAT;
      a.slice_conds |= c->column == S_TS || c->column == S_DUR;
      /* the range the rows are searched for (each slice is checked besides) */
      if (c->column == S_TS && c->op != '!')
        narrow (&a.ts_lo, &a.ts_hi, ts_code (c->op), c->value);
    }
  for (guint r = 0; r < t->rows->len; r++)
    max_depth = MAX (max_depth, row_at (t, r)->depth);
  switch (plan->key)
    {
    case IV_SLICE_NAME:
      a.n_keys = n_strings;
      break;
    case IV_SLICE_CAT:
      a.n_keys = n_strings + 1;
      a.null_key = n_strings;
      break;
    case IV_SLICE_TRACK:
      a.n_keys = t->tracks->len + 1;
      a.null_key = t->tracks->len;
      break;
    case IV_SLICE_DEPTH:
      a.n_keys = max_depth + 1;
      break;
    default:
      return IV_AGG_DECLINED;
    }
  a.rows = g_try_new0 (gint64, a.n_keys);
  a.acc = g_try_new0 (Acc, (gsize) a.n_keys * MAX (a.n_cols, 1));
  if (need_name)
    a.name_ok = g_try_new (guint8, n_strings);
  need_cat |= need_cat_cond;
  if (need_cat)
    a.cat_null = g_try_new (guint8, n_strings);
  if (need_cat_cond)
    a.cat_ok = g_try_new (guint8, n_strings);
  if (!a.rows || !a.acc || (need_name && !a.name_ok) || (need_cat && !a.cat_null)
      || (need_cat_cond && !a.cat_ok))
    {
      agg_clear (&a);
      return IV_AGG_DECLINED;
    }
  /* the comparisons on names and categories, made once per string */
  for (guint s = 0; s < n_strings && (need_name || need_cat); s++)
    {
      const char *text = iv_trace_string (t, s);
      if (a.name_ok)
        a.name_ok[s] = conds_pass_text (plan, S_NAME, text);
      if (a.cat_null)
        a.cat_null[s] = nonempty (text) == NULL;
      if (a.cat_ok)
        a.cat_ok[s] = conds_pass_text (plan, S_CAT, nonempty (text));
    }

  for (guint r = 0; r < t->rows->len && a.ts_lo <= a.ts_hi; r++)
    {
      const IvRow *row = row_at (t, r);
      gsize s, end = row->first + row->n;
      if (!conds_pass_int (plan, S_TRACK, TRUE, row->track)
          || !conds_pass_int (plan, S_DEPTH, TRUE, row->depth))
        continue;
      s = a.ts_lo > G_MININT64 ? iv_trace_row_first_at (t, r, a.ts_lo) : row->first;
      if (plan->key == IV_SLICE_NAME && !a.slice_conds && !a.name_ok && !a.cat_ok)
        {
          /* the common case (no comparison per slice, grouped by name): its own loop */
          if (a.n_cols == 1 && a.cols[0] == S_DUR && !t->open_bits)
            for (; s < end; s++)
              {
                guint key = MIN (t->name[s], a.n_keys - 1);
                a.rows[key]++;
                acc_add (&a.acc[key], t->dur_ns[s]);
              }
          else
            for (; s < end; s++)
              agg_add (&a, s, MIN (t->name[s], a.n_keys - 1));
          a.looked += row->n;
        }
      else
        for (; s < end; s++)
          {
            a.looked++;
            if (t->start_ns[s] > a.ts_hi)
              break; /* a row is ordered by start */
            if (agg_slice_passes (&a, s) && agg_strings_pass (&a, s))
              agg_add (&a, s, agg_key (&a, s));
          }
      if (a.looked >= next_check)
        {
          next_check = a.looked + AGG_CHECK_EVERY;
          if (_iv_query_should_stop (table->query))
            {
              agg_clear (&a);
              return IV_AGG_STOPPED;
            }
        }
    }
  /* the instants: slices of no duration at depth 0 */
  for (gsize k = a.ts_lo > G_MININT64 ? instant_first_at (t, a.ts_lo) : 0;
       k < t->instants->len && a.ts_lo <= a.ts_hi; k++)
    {
      gsize i = t->n_slices + k;
      gint64 tr = any_track (t, i);
      a.looked++;
      if (any_ts (t, i) > a.ts_hi)
        break;
      if (conds_pass_int (plan, S_TRACK, tr >= 0, tr) && conds_pass_int (plan, S_DEPTH, TRUE, 0)
          && agg_slice_passes (&a, i) && agg_strings_pass (&a, i))
        agg_add (&a, i, agg_key (&a, i));
    }
  table->visited += a.looked;

  /* the groups there are, in the general path's order */
  keys = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint k = 0; k < a.n_keys; k++)
    if (a.rows[k])
      g_array_append_val (keys, k);
  if (plan->sorted)
    g_array_sort_with_data (keys, compare_keys, &a);
  groups = g_new0 (IvAggGroups, 1);
  groups->stride = 1 + plan->aggs->len;
  groups->n_rows = keys->len;
  groups->values
      = g_array_sized_new (FALSE, TRUE, sizeof (IvAggValue), (guint) (keys->len * groups->stride));
  for (guint r = 0; r < keys->len; r++)
    {
      guint key = g_array_index (keys, guint, r);
      IvAggValue v;
      agg_key_value (&a, key, &v);
      g_array_append_val (groups->values, v);
      for (guint k = 0; k < plan->aggs->len; k++)
        {
          const IvAgg *g = &g_array_index (plan->aggs, IvAgg, k);
          int c = 0;
          while (c < a.n_cols && a.cols[c] != (int) g->column)
            c++;
          if (!agg_value (g, a.rows[key], &a.acc[(gsize) key * a.n_cols + (c < a.n_cols ? c : 0)],
                          &v))
            {
              _iv_agg_groups_free (groups);
              agg_clear (&a);
              return IV_AGG_DECLINED;
            }
          g_array_append_val (groups->values, v);
        }
    }
  agg_clear (&a);
  *out = groups;
  return IV_AGG_DONE;
}

/* ---- args: read from the file as they are asked for ---- */

enum
{
  A_SET,
  A_FLAT,
  A_KEY,
  A_INT,
  A_STRING,
  A_REAL,
  A_TYPE,
  A_DISPLAY,
};

static const char *const args_columns[]
    = { "arg_set_id INTEGER", "flat_key TEXT",      "key TEXT",
        "int_value INTEGER",  "string_value TEXT",  "real_value REAL",
        "value_type TEXT",    "display_value TEXT", NULL };

typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  TraceData *d;
  gboolean one;   /* a lookup by arg_set_id */
  gsize k, k_end; /* place in d->with_args (scan) */
  gsize slice;    /* the slice whose arguments are read */
  GArray *args;   /* Arg */
  guint j;        /* the argument now */
  IvInput *in;    /* a scan reads the file forward once, slices by offset */
  guint64 in_pos;
  gboolean eof;
} ArgsCursor;

G_STATIC_ASSERT (G_STRUCT_OFFSET (ArgsCursor, d) == G_STRUCT_OFFSET (TraceCursor, d));

static int
compare_args_off (gconstpointer a, gconstpointer b, gpointer data)
{
  const IvTrace *t = data;
  guint64 x = t->args_off[*(const guint32 *) a], y = t->args_off[*(const guint32 *) b];
  return (x > y) - (x < y);
}

static gboolean
build_with_args (TraceData *d)
{
  const IvTrace *t = d->trace;
  gsize n = 0;

  for (gsize i = 0; i < t->n_slices; i++)
    n += t->args_len[i] != 0;
  if (!(d->with_args = g_try_new (guint32, MAX (n, 1))))
    return FALSE;
  n = 0;
  for (gsize i = 0; i < t->n_slices; i++)
    if (t->args_len[i])
      d->with_args[n++] = (guint32) i;
  g_qsort_with_data (d->with_args, (gint) n, sizeof (guint32), compare_args_off, (gpointer) t);
  d->n_with_args = n;
  return TRUE;
}

static int
args_best_index (sqlite3_vtab *vtab, sqlite3_index_info *info)
{
  IvQueryTable *t = ((IvQueryVtab *) vtab)->table;
  TraceData *d = t->data;

  info->idxNum = 0;
  /* a scan reads every slice's arguments from the file: far dearer than a row */
  info->estimatedCost = (double) d->trace->n_slices * 100 + 1;
  for (int i = 0; i < info->nConstraint; i++)
    if (info->aConstraint[i].usable && info->aConstraint[i].iColumn == A_SET
        && info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ)
      {
        info->idxNum = 1;
        info->aConstraintUsage[i].argvIndex = 1;
        info->estimatedCost = 10;
        info->estimatedRows = 10;
        break;
      }
  return SQLITE_OK;
}

static int
args_open (sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
  return trace_cursor_open (vtab, sizeof (ArgsCursor), out);
}

static void
args_reset (ArgsCursor *c)
{
  g_clear_pointer (&c->args, g_array_unref);
  g_clear_pointer (&c->in, iv_input_free);
  c->in_pos = 0;
}

static int
args_close (sqlite3_vtab_cursor *cur)
{
  args_reset ((ArgsCursor *) cur);
  return _iv_query_cursor_close (cur);
}

/* The arguments of the next slice of a scan, read forward in the open file. */
static GArray *
scan_read (ArgsCursor *c, gsize slice, GError **error)
{
  const IvTrace *t = c->d->trace;
  guint64 off = t->args_off[slice], len = t->args_len[slice];
  g_autofree char *buf = NULL, *strict = NULL;
  guint64 got = 0;

  if (!t->path)
    {
      /* a trace from memory (the fuzz targets): nothing to read back from */
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_INPUT,
                   _ ("The trace has no file to read its arguments from."));
      return NULL;
    }
  if (!c->in && !(c->in = iv_input_open (t->path, error)))
    return NULL;
  if (off < c->in_pos) /* overlapping spans (never in a file the loader read): reopen */
    {
      g_clear_pointer (&c->in, iv_input_free);
      c->in_pos = 0;
      if (!(c->in = iv_input_open (t->path, error)))
        return NULL;
    }
  if (!(buf = g_try_malloc (MAX (len, 65536) + 1)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _ ("%s: not enough memory for the arguments of slice %" G_GSIZE_FORMAT "."),
                   t->path, slice);
      return NULL;
    }
  while (c->in_pos < off)
    {
      gssize n = iv_input_read (c->in, buf, MIN (off - c->in_pos, 65536), error);
      if (n <= 0)
        goto changed;
      c->in_pos += (guint64) n;
    }
  while (got < len)
    {
      gssize n = iv_input_read (c->in, buf + got, len - got, error);
      if (n <= 0)
        goto changed;
      got += (guint64) n;
    }
  c->in_pos += len;
  buf[len] = '\0';
  strict = iv_json_pull_strict_text (buf, len);
  return parse_args (t, slice, strict ? strict : buf, error);

changed:
  if (error && !*error)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                 _ ("%s: the file changed since it was loaded."), t->path);
  return NULL;
}

/* Moves to the next argument, reading slices' arguments as needed. */
static int
args_settle (ArgsCursor *c)
{
  while (!c->args || c->j >= c->args->len)
    {
      g_autoptr (GError) error = NULL;
      g_clear_pointer (&c->args, g_array_unref);
      c->j = 0;
      if (c->k >= c->k_end)
        {
          c->eof = TRUE;
          return SQLITE_OK;
        }
      c->slice = c->one ? c->k : c->d->with_args[c->k];
      c->k++;
      c->table->visited++;
      c->args = c->one ? slice_args (c->d, c->slice, &error) : scan_read (c, c->slice, &error);
      if (!c->args)
        {
          c->base.pVtab->zErrMsg = sqlite3_mprintf (
              "%s", error ? error->message : _ ("the arguments could not be read"));
          return SQLITE_ERROR;
        }
    }
  return SQLITE_OK;
}

static int
args_filter (sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
             sqlite3_value **argv)
{
  ArgsCursor *c = (ArgsCursor *) cur;
  const IvTrace *t = c->d->trace;
  (void) idx_str;

  args_reset (c);
  c->eof = FALSE;
  c->j = 0;
  c->one = idx_num == 1 && argc == 1;
  if (c->one)
    {
      gint64 id;
      if (sqlite3_value_numeric_type (argv[0]) != SQLITE_INTEGER
          || (id = sqlite3_value_int64 (argv[0])) < 0 || (guint64) id >= t->n_slices
          || !t->args_len[id])
        {
          c->eof = TRUE;
          return SQLITE_OK;
        }
      c->k = (gsize) id;
      c->k_end = (gsize) id + 1;
    }
  else
    {
      if (!c->d->with_args && !build_with_args (c->d))
        return SQLITE_NOMEM;
      c->k = 0;
      c->k_end = c->d->n_with_args;
    }
  return args_settle (c);
}

static int
args_next (sqlite3_vtab_cursor *cur)
{
  ArgsCursor *c = (ArgsCursor *) cur;
  c->j++;
  return args_settle (c);
}

static int
args_eof (sqlite3_vtab_cursor *cur)
{
  return ((ArgsCursor *) cur)->eof;
}

static int
args_column (sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
  ArgsCursor *c = (ArgsCursor *) cur;
  const Arg *a = &g_array_index (c->args, Arg, c->j);
  gboolean is_int = strcmp (a->type, "int") == 0 || strcmp (a->type, "bool") == 0;

  switch (col)
    {
    case A_SET:
      sqlite3_result_int64 (ctx, (sqlite3_int64) c->slice);
      break;
    case A_FLAT:
      sqlite3_result_text (ctx, a->flat_key, -1, SQLITE_TRANSIENT);
      break;
    case A_KEY:
      sqlite3_result_text (ctx, a->key, -1, SQLITE_TRANSIENT);
      break;
    case A_INT:
      if (is_int)
        sqlite3_result_int64 (ctx, a->i);
      else
        sqlite3_result_null (ctx);
      break;
    case A_STRING:
      if (strcmp (a->type, "string") == 0)
        sqlite3_result_text (ctx, a->s, -1, SQLITE_TRANSIENT);
      else
        sqlite3_result_null (ctx);
      break;
    case A_REAL:
      if (strcmp (a->type, "real") == 0)
        sqlite3_result_double (ctx, a->d);
      else
        sqlite3_result_null (ctx);
      break;
    case A_TYPE:
      sqlite3_result_text (ctx, a->type, -1, SQLITE_STATIC);
      break;
    case A_DISPLAY:
      if (a->s)
        sqlite3_result_text (ctx, a->s, -1, SQLITE_TRANSIENT);
      else
        sqlite3_result_null (ctx);
      break;
    default:
      sqlite3_result_null (ctx);
      break;
    }
  return SQLITE_OK;
}

static int
args_rowid (sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
  ArgsCursor *c = (ArgsCursor *) cur;
  *rowid = (sqlite3_int64) c->slice * 4096 + c->j;
  return SQLITE_OK;
}

static const sqlite3_module args_module = {
  .xConnect = _iv_query_vt_connect,
  .xBestIndex = args_best_index,
  .xDisconnect = _iv_query_vt_disconnect,
  .xDestroy = _iv_query_vt_disconnect,
  .xOpen = args_open,
  .xClose = args_close,
  .xFilter = args_filter,
  .xNext = args_next,
  .xEof = args_eof,
  .xColumn = args_column,
  .xRowid = args_rowid,
};

static gint
compare_gsize (gconstpointer a, gconstpointer b)
{
  gsize x = *(const gsize *) a, y = *(const gsize *) b;
  return (x > y) - (x < y);
}

/* ---- ancestor_slice (id), descendant_slice (id): Perfetto's operator tables ---- */

static const char *const relative_columns[]
    = { "id INTEGER",         "ts INTEGER",       "dur INTEGER",     "track_id INTEGER",
        "category TEXT",      "name TEXT",        "depth INTEGER",   "parent_id INTEGER",
        "arg_set_id INTEGER", "self_dur INTEGER", "start_id HIDDEN", NULL };

/* the hidden column: the function's argument */
#define S_START (S_SELF + 1)

typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  TraceData *d;
  GArray *ids; /* gsize */
  guint k;
  sqlite3_int64 start;
} RelativeCursor;

G_STATIC_ASSERT (G_STRUCT_OFFSET (RelativeCursor, d) == G_STRUCT_OFFSET (TraceCursor, d));

static int
relative_best_index (sqlite3_vtab *vtab, sqlite3_index_info *info)
{
  IvQueryTable *t = ((IvQueryVtab *) vtab)->table;
  gboolean asked = FALSE;

  for (int i = 0; i < info->nConstraint; i++)
    {
      if (info->aConstraint[i].iColumn != S_START
          || info->aConstraint[i].op != SQLITE_INDEX_CONSTRAINT_EQ)
        continue;
      asked = TRUE;
      if (!info->aConstraint[i].usable)
        continue;
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->idxNum = 1;
      info->estimatedCost = 10;
      info->estimatedRows = 10;
      return SQLITE_OK;
    }
  if (asked)
    return SQLITE_CONSTRAINT; /* another order of the join gives the argument */
  vtab->zErrMsg = sqlite3_mprintf (_ ("%s takes a slice id: %s(id)"), t->name, t->name);
  return SQLITE_ERROR;
}

static int
relative_open (sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
  int rc = trace_cursor_open (vtab, sizeof (RelativeCursor), out);
  if (rc == SQLITE_OK)
    ((RelativeCursor *) *out)->ids = g_array_new (FALSE, FALSE, sizeof (gsize));
  return rc;
}

static int
relative_close (sqlite3_vtab_cursor *cur)
{
  g_array_unref (((RelativeCursor *) cur)->ids);
  return _iv_query_cursor_close (cur);
}

/* Whether @s is an ancestor of @k: the parents of @k, followed up, reach it. */
static gboolean
descends_from (const IvTrace *t, gsize k, gsize s)
{
  guint depth = row_at (t, t->row[s])->depth;

  while (row_at (t, t->row[k])->depth > depth)
    {
      gsize p = iv_trace_parent (t, k);
      if (p == k)
        return FALSE;
      k = p;
    }
  return k == s;
}

static int
relative_filter (sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                 sqlite3_value **argv)
{
  RelativeCursor *c = (RelativeCursor *) cur;
  const IvTrace *t = c->d->trace;
  gsize s;
  (void) idx_num;
  (void) idx_str;

  g_array_set_size (c->ids, 0);
  c->k = 0;
  if (argc < 1 || sqlite3_value_numeric_type (argv[0]) != SQLITE_INTEGER
      || sqlite3_value_int64 (argv[0]) < 0
      || (guint64) sqlite3_value_int64 (argv[0]) >= t->n_slices)
    return SQLITE_OK; /* no such slice (or an instant): nothing above or below it */
  c->start = sqlite3_value_int64 (argv[0]);
  s = (gsize) c->start;
  if (strcmp (c->table->name, "ancestor_slice") == 0)
    {
      /* the parents up to depth 0, then outermost first */
      for (gsize k = s, p; (p = iv_trace_parent (t, k)) != k; k = p)
        g_array_prepend_val (c->ids, p);
    }
  else
    {
      const IvRow *r = row_at (t, t->row[s]);
      const IvTrack *tr = track_at (t, r->track);
      gint64 end = t->start_ns[s] + t->dur_ns[s];

      /* deeper rows of the same kind, in the slice's span; each checked by its parents */
      for (guint rr = tr->first_row; rr < tr->first_row + tr->n_rows; rr++)
        {
          const IvRow *row = row_at (t, rr);
          if (row->overflow || row->kind != r->kind || row->depth <= r->depth)
            continue;
          for (gsize k = iv_trace_row_first_at (t, rr, t->start_ns[s]);
               k < row->first + row->n && t->start_ns[k] <= end; k++)
            {
              c->table->visited++;
              if (descends_from (t, k, s))
                g_array_append_val (c->ids, k);
            }
        }
      g_array_sort (c->ids, compare_gsize);
    }
  return SQLITE_OK;
}

static int
relative_next (sqlite3_vtab_cursor *cur)
{
  ((RelativeCursor *) cur)->k++;
  return SQLITE_OK;
}

static int
relative_eof (sqlite3_vtab_cursor *cur)
{
  RelativeCursor *c = (RelativeCursor *) cur;
  return c->k >= c->ids->len;
}

static int
relative_column (sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
  RelativeCursor *c = (RelativeCursor *) cur;
  if (col == S_START)
    sqlite3_result_int64 (ctx, c->start);
  else
    slice_value (c->d->trace, g_array_index (c->ids, gsize, c->k), col, ctx);
  return SQLITE_OK;
}

static int
relative_rowid (sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
  RelativeCursor *c = (RelativeCursor *) cur;
  *rowid = (sqlite3_int64) g_array_index (c->ids, gsize, c->k);
  return SQLITE_OK;
}

static const sqlite3_module relative_module = {
  .xConnect = _iv_query_vt_connect,
  .xBestIndex = relative_best_index,
  .xDisconnect = _iv_query_vt_disconnect,
  .xDestroy = _iv_query_vt_disconnect,
  .xOpen = relative_open,
  .xClose = relative_close,
  .xFilter = relative_filter,
  .xNext = relative_next,
  .xEof = relative_eof,
  .xColumn = relative_column,
  .xRowid = relative_rowid,
};

/* ---- the small tables: generic scans ---- */

static gsize
count_processes (IvQueryTable *t)
{
  return ((TraceData *) t->data)->trace->processes->len;
}

static void
process_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvProcess *p = process_at (((TraceData *) t->data)->trace, (guint) row);
  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
      _iv_query_result_key (ctx, p->key);
      break;
    case 2:
      _iv_query_result_text (ctx, p->name);
      break;
    case 3:
      _iv_query_result_text (ctx, nonempty (p->labels));
      break;
    case 4:
      _iv_query_result_text (ctx, p->kind == IV_PROCESS_GPU   ? "gpu"
                                  : p->kind == IV_PROCESS_CPU ? "cpu"
                                                              : "other");
      break;
    default:
      if (p->gpu_index >= 0)
        sqlite3_result_int (ctx, p->gpu_index);
      else
        sqlite3_result_null (ctx);
      break;
    }
}

static const char *
track_type (IvTrackKind kind)
{
  switch (kind)
    {
    case IV_TRACK_THREAD:
      return "thread";
    case IV_TRACK_GPU:
      return "gpu";
    case IV_TRACK_ASYNC:
      return "async";
    case IV_TRACK_COUNTER:
      return "counter";
    case IV_TRACK_LANE:
      return "lane";
    default:
      return "other";
    }
}

/* track: every track, the counter series after them (Perfetto's counter tracks are one
 * series each). */
static gsize
count_tracks (IvQueryTable *t)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  return tr->tracks->len + tr->series->len;
}

static void
track_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;

  if (row >= tr->tracks->len)
    {
      const IvCounterSeries *s
          = &g_array_index (tr->series, IvCounterSeries, row - tr->tracks->len);
      switch (col)
        {
        case 0:
          sqlite3_result_int64 (ctx, (sqlite3_int64) row);
          break;
        case 1:
          _iv_query_result_text (
              ctx, ((TraceData *) t->data)->counter_names->pdata[row - tr->tracks->len]);
          break;
        case 2:
          sqlite3_result_text (ctx, "counter", -1, SQLITE_STATIC);
          break;
        default:
          sqlite3_result_int64 (ctx, track_at (tr, s->track)->process);
          break;
        }
      return;
    }
  {
    const IvTrack *k = track_at (tr, (guint) row);
    switch (col)
      {
      case 0:
        sqlite3_result_int64 (ctx, (sqlite3_int64) row);
        break;
      case 1:
        _iv_query_result_text (ctx, k->name ? k->name : k->key);
        break;
      case 2:
        sqlite3_result_text (ctx, track_type (k->kind), -1, SQLITE_STATIC);
        break;
      default:
        sqlite3_result_int64 (ctx, k->process);
        break;
      }
  }
}

/* thread_track, gpu_track, process_track, thread: rows are tracks of a list. */
static GArray *
list_of (IvQueryTable *t)
{
  TraceData *d = t->data;
  if (strcmp (t->name, "gpu_track") == 0)
    return d->gpus;
  if (strcmp (t->name, "process_track") == 0)
    return d->asyncs;
  return d->threads;
}

static gsize
count_list (IvQueryTable *t)
{
  return list_of (t)->len;
}

static void
thread_track_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  guint id = g_array_index (list_of (t), guint, row);
  const IvTrack *k = track_at (tr, id);

  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, id);
      break;
    case 1:
      _iv_query_result_text (ctx, k->name ? k->name : k->key);
      break;
    case 2: /* utid (thread_track), upid (process_track) */
      sqlite3_result_int64 (ctx, strcmp (t->name, "process_track") == 0
                                     ? k->process
                                     : ((TraceData *) t->data)->utid_of_track[id]);
      break;
    case 3: /* gpu_track: upid */
      sqlite3_result_int64 (ctx, k->process);
      break;
    case 4: /* gpu_track: the device */
      if (process_at (tr, k->process)->gpu_index >= 0)
        sqlite3_result_int (ctx, process_at (tr, k->process)->gpu_index);
      else
        sqlite3_result_null (ctx);
      break;
    default: /* gpu_track: the stream */
      _iv_query_result_key (ctx, k->key);
      break;
    }
}

static void
thread_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  guint id = g_array_index (list_of (t), guint, row);
  const IvTrack *k = track_at (tr, id);

  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
      _iv_query_result_key (ctx, k->key);
      break;
    case 2:
      _iv_query_result_text (ctx, k->name);
      break;
    default:
      sqlite3_result_int64 (ctx, k->process);
      break;
    }
}

static gsize
count_series (IvQueryTable *t)
{
  return ((TraceData *) t->data)->trace->series->len;
}

static void
counter_track_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  const IvCounterSeries *s = &g_array_index (tr->series, IvCounterSeries, row);

  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) (tr->tracks->len + row));
      break;
    case 1:
      _iv_query_result_text (ctx, ((TraceData *) t->data)->counter_names->pdata[row]);
      break;
    default:
      sqlite3_result_int64 (ctx, track_at (tr, s->track)->process);
      break;
    }
}

/* A series' name as Perfetto's JSON importer names a counter: the event's name, " id: "
 * and its id when it has one, a space and the argument's key ("mem swap"); the trace
 * names it "COUNTER · KEY" with COUNTER its track's key, "name" or "name (id N)". */
static char *
perfetto_counter_name (const IvTrace *t, const IvCounterSeries *s)
{
  const char *label = iv_trace_string (t, s->name);
  const char *counter = track_at (t, s->track)->key;
  gsize n = counter ? strlen (counter) : 0;
  const char *id;
  g_autofree char *prefix = NULL;

  if (!label || !counter || strncmp (label, counter, n) != 0
      || !g_str_has_prefix (label + n, " · "))
    return g_strdup (label);
  prefix = g_strdup (counter);
  if (g_str_has_suffix (prefix, ")") && (id = g_strrstr (prefix, " (id ")))
    {
      g_autofree char *name = g_strndup (prefix, (gsize) (id - prefix));
      g_autofree char *ident = g_strndup (id + 5, strlen (id + 5) - 1);
      g_free (prefix);
      prefix = g_strdup_printf ("%s id: %s", name, ident);
    }
  return g_strdup_printf ("%s %s", prefix, label + n + strlen (" · "));
}

static gsize
count_samples (IvQueryTable *t)
{
  return ((TraceData *) t->data)->trace->n_samples;
}

/* The series holding sample @i: series cover the sample columns in ranges. */
static gsize
series_of (const IvTrace *tr, gsize i)
{
  gsize lo = 0, hi = tr->series->len;
  while (hi - lo > 1)
    {
      gsize mid = (lo + hi) / 2;
      if (g_array_index (tr->series, IvCounterSeries, mid).first <= i)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static void
counter_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
      sqlite3_result_int64 (ctx, tr->sample_ns[row]);
      break;
    case 2:
      sqlite3_result_int64 (ctx, (sqlite3_int64) (tr->tracks->len + series_of (tr, row)));
      break;
    default:
      _iv_query_result_double (ctx, tr->sample_value[row]);
      break;
    }
}

static gsize
count_flows (IvQueryTable *t)
{
  return ((TraceData *) t->data)->trace->flows->len;
}

static void
flow_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  const IvFlow *f = &g_array_index (tr->flows, IvFlow, row);
  gsize s = col == 1 ? f->from : f->to;

  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
    case 2:
      if (s == G_MAXSIZE || s >= tr->n_slices)
        sqlite3_result_null (ctx);
      else
        sqlite3_result_int64 (ctx, (sqlite3_int64) s);
      break;
    case 3:
      _iv_query_result_text (ctx, iv_trace_string (tr, f->name));
      break;
    default:
      _iv_query_result_text (ctx, nonempty (iv_trace_string (tr, f->cat)));
      break;
    }
}

static gsize
count_instants (IvQueryTable *t)
{
  return ((TraceData *) t->data)->trace->instants->len;
}

static void
instant_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  const IvInstant *in = &g_array_index (tr->instants, IvInstant, row);
  char scope[2] = { in->scope, 0 };

  switch (col)
    {
    case 0:
      sqlite3_result_int64 (ctx, (sqlite3_int64) row);
      break;
    case 1:
      sqlite3_result_int64 (ctx, in->ts_ns);
      break;
    case 2:
      _iv_query_result_text (ctx, iv_trace_string (tr, in->name));
      break;
    case 3:
      if (in->track == G_MAXUINT)
        sqlite3_result_null (ctx);
      else
        sqlite3_result_int64 (ctx, in->track);
      break;
    default:
      sqlite3_result_text (ctx, scope, 1, SQLITE_TRANSIENT);
      break;
    }
}

static gsize
count_one (IvQueryTable *t)
{
  (void) t;
  return 1;
}

static void
bounds_column (IvQueryTable *t, gsize row, int col, sqlite3_context *ctx)
{
  const IvTrace *tr = ((TraceData *) t->data)->trace;
  (void) row;
  sqlite3_result_int64 (ctx, col == 0 ? tr->t0_ns : tr->t1_ns);
}

static gsize
slice_cache_bytes (IvQueryTable *t)
{
  return trace_cache_bytes (t->data);
}

/* Between queries (no scan open): every ordering and copy, and the last arguments read. */
static void
slice_drop_caches (IvQueryTable *t)
{
  TraceData *d = t->data;
  g_return_if_fail (d->by_name_pins == 0);
  g_clear_pointer (&d->by_name, g_free);
  g_clear_pointer (&d->name_end, g_free);
  g_clear_pointer (&d->rank, g_free);
  g_clear_pointer (&d->name_of, g_free);
  d->n_names = 0;
  for (int col = 0; col < S_N_COLUMNS; col++)
    g_clear_pointer (&d->by_name_col[col], g_free);
  g_clear_pointer (&d->with_args, g_free);
  d->n_with_args = 0;
  g_clear_pointer (&d->cached_args, g_array_unref);
  d->cached_slice = G_MAXSIZE;
}

static IvQueryTable *
add (IvQuery *q, TraceData *d, const char *name, const char *const *columns,
     gsize (*count) (IvQueryTable *),
     void (*column) (IvQueryTable *, gsize, int, sqlite3_context *), int id_column)
{
  IvQueryTable *t = _iv_query_table_add (q, name, columns, NULL);
  t->data = d;
  t->count = count;
  t->column = column;
  t->id_column = id_column;
  return t;
}

gboolean
_iv_query_add_trace_tables (IvQuery *q, const IvTrace *trace, GError **error)
{
  TraceData *d = g_new0 (TraceData, 1);
  IvQueryTable *t;
  (void) error;

  d->trace = trace;
  d->threads = g_array_new (FALSE, FALSE, sizeof (guint));
  d->gpus = g_array_new (FALSE, FALSE, sizeof (guint));
  d->asyncs = g_array_new (FALSE, FALSE, sizeof (guint));
  d->cached_slice = G_MAXSIZE;
  d->counter_names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < trace->series->len; i++)
    g_ptr_array_add (
        d->counter_names,
        perfetto_counter_name (trace, &g_array_index (trace->series, IvCounterSeries, i)));
  d->utid_of_track = g_new (guint, MAX (trace->tracks->len, 1));
  for (guint i = 0; i < trace->tracks->len; i++)
    {
      IvTrackKind kind = track_at (trace, i)->kind;
      d->utid_of_track[i]
          = kind == IV_TRACK_THREAD || kind == IV_TRACK_GPU ? d->threads->len : G_MAXUINT;
      /* a GPU stream is a thread to Perfetto's JSON importer too (Kineto: pid = device,
       * tid = stream): its slices join thread_track as a CPU thread's do */
      if (kind == IV_TRACK_THREAD || kind == IV_TRACK_GPU)
        g_array_append_val (d->threads, i);
      if (kind == IV_TRACK_GPU)
        g_array_append_val (d->gpus, i);
      if (kind == IV_TRACK_ASYNC)
        g_array_append_val (d->asyncs, i);
    }

  t = _iv_query_table_add (q, "slice", slice_columns, &slice_module);
  t->data = d;
  t->free_data = trace_data_free; /* the tables share d: the first frees it */
  t->cache_bytes = slice_cache_bytes;
  t->drop_caches = slice_drop_caches;
  t = _iv_query_table_add (q, "args", args_columns, &args_module);
  t->data = d;
  t = _iv_query_table_add (q, "ancestor_slice", relative_columns, &relative_module);
  t->data = d;
  t = _iv_query_table_add (q, "descendant_slice", relative_columns, &relative_module);
  t->data = d;
  sqlite3_create_function (_iv_query_db (q), "extract_arg", 2,
                           SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, d, extract_arg,
                           NULL, NULL);

  add (q, d, "process",
       (const char *const[]){ "upid INTEGER", "pid", "name TEXT", "labels TEXT", "kind TEXT",
                              "gpu INTEGER", NULL },
       count_processes, process_column, 0);
  add (q, d, "thread",
       (const char *const[]){ "utid INTEGER", "tid", "name TEXT", "upid INTEGER", NULL },
       count_list, thread_column, 0);
  add (q, d, "track",
       (const char *const[]){ "id INTEGER", "name TEXT", "type TEXT", "upid INTEGER", NULL },
       count_tracks, track_column, 0);
  add (q, d, "thread_track",
       (const char *const[]){ "id INTEGER", "name TEXT", "utid INTEGER", NULL }, count_list,
       thread_track_column, -1);
  add (q, d, "gpu_track",
       (const char *const[]){ "id INTEGER", "name TEXT", "utid INTEGER", "upid INTEGER",
                              "gpu INTEGER", "stream", NULL },
       count_list, thread_track_column, -1);
  add (q, d, "process_track",
       (const char *const[]){ "id INTEGER", "name TEXT", "upid INTEGER", NULL }, count_list,
       thread_track_column, -1);
  add (q, d, "counter_track",
       (const char *const[]){ "id INTEGER", "name TEXT", "upid INTEGER", NULL }, count_series,
       counter_track_column, -1);
  add (q, d, "process_counter_track",
       (const char *const[]){ "id INTEGER", "name TEXT", "upid INTEGER", NULL }, count_series,
       counter_track_column, -1);
  add (q, d, "counter",
       (const char *const[]){ "id INTEGER", "ts INTEGER", "track_id INTEGER", "value REAL", NULL },
       count_samples, counter_column, 0);
  add (q, d, "flow",
       (const char *const[]){ "id INTEGER", "slice_out INTEGER", "slice_in INTEGER", "name TEXT",
                              "category TEXT", NULL },
       count_flows, flow_column, 0);
  add (q, d, "instant",
       (const char *const[]){ "id INTEGER", "ts INTEGER", "name TEXT", "track_id INTEGER",
                              "scope TEXT", NULL },
       count_instants, instant_column, 0);
  add (q, d, "trace_bounds", (const char *const[]){ "start_ts INTEGER", "end_ts INTEGER", NULL },
       count_one, bounds_column, -1);
  return TRUE;
}
