/* iv-sniff.c: recognise what the user opened from its content (JSON keys) or its folder
 * layout, never from the file name alone: traces are renamed and gzipped freely, and an
 * AIPerf export prefix can be anything. A quick sniff stops at the first telling key; a
 * deep one reads to the end to count events, which also validates the whole file. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-sniff.h"
#include "iv-rank-names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FOLDER_DEPTH 8
/* A quick sniff decides from the first keys; no known format hides them further in. */
#define QUICK_HEAD_BYTES (G_GUINT64_CONSTANT (16) << 20)

typedef struct
{
  IvKind kind;
  gboolean deep;
  int depth; /* containers currently open */
  gboolean top_array;
  char *key1;       /* last key seen directly inside the top-level object */
  int count_depth;  /* values at this depth are counted as events, -1 for none */
  gboolean counted; /* an events array was found */
  gint64 count;
  gint64 top_values; /* JSON Lines: one per record */
  gboolean records;  /* AIPerf JSONL: count top-level values */
  guint record_keys; /* which AIPerf record keys the first object had */
} Sniff;

static gboolean
decided (Sniff *s)
{
  return s->kind != IV_KIND_UNKNOWN && !s->deep;
}

static void
decide (Sniff *s, IvKind kind)
{
  if (s->kind == IV_KIND_UNKNOWN)
    s->kind = kind;
}

/* Called at the start of every value, scalar or container, before depth changes.
 * Events are counted when they are complete (scalars here, containers when they close),
 * so a damaged last event is not counted as kept. */
static void
value_start (Sniff *s, gboolean is_array, gboolean is_container)
{
  if (!is_container && s->depth == s->count_depth)
    s->count++;
  if (s->depth == 0)
    {
      s->top_values++;
      if (is_array && s->top_values == 1)
        {
          s->top_array = TRUE;
          s->count_depth = 1;
          s->counted = TRUE;
        }
    }
  else if (s->depth == 1 && !s->top_array && is_array && s->key1
           && (g_str_equal (s->key1, "traceEvents") || g_str_equal (s->key1, "events")))
    {
      s->count_depth = 2;
      s->counted = TRUE;
      if (g_str_equal (s->key1, "traceEvents"))
        decide (s, IV_KIND_CHROME_TRACE);
    }
}

static int
on_scalar (void *ctx)
{
  Sniff *s = ctx;
  value_start (s, FALSE, FALSE);
  return !decided (s);
}

static int
on_bool (void *ctx, int v)
{
  return on_scalar (ctx);
}

static int
on_number (void *ctx, const char *t, size_t len)
{
  return on_scalar (ctx);
}

static int
on_string (void *ctx, const unsigned char *v, size_t len)
{
  Sniff *s = ctx;

  value_start (s, FALSE, FALSE);
  if (s->depth == 1 && !s->top_array && s->key1 && g_str_equal (s->key1, "format"))
    {
      if (len >= 18 && memcmp (v, "pipelined_timeline", 18) == 0)
        decide (s, IV_KIND_PIPELINED_TIMELINE);
      else if (len >= 19 && memcmp (v, "candidate_breakdown", 19) == 0)
        decide (s, IV_KIND_CANDIDATE_BREAKDOWN);
    }
  return !decided (s);
}

static int
on_start_map (void *ctx)
{
  Sniff *s = ctx;
  value_start (s, FALSE, TRUE);
  s->depth++;
  return 1;
}

static int
on_end_map (void *ctx)
{
  Sniff *s = ctx;
  s->depth--;
  if (s->depth == s->count_depth)
    s->count++;
  if (s->depth == 0)
    g_clear_pointer (&s->key1, g_free);
  return !decided (s);
}

static int
on_start_array (void *ctx)
{
  Sniff *s = ctx;
  value_start (s, TRUE, TRUE);
  s->depth++;
  return 1;
}

static int
on_end_array (void *ctx)
{
  Sniff *s = ctx;
  s->depth--;
  if (s->depth == s->count_depth)
    s->count++;
  /* Arrays that follow traceEvents (Kineto's deviceProperties…) are not events. */
  if (s->depth == 1 && s->count_depth == 2)
    s->count_depth = G_MAXINT;
  /* An empty top-level array is an empty Chrome trace. */
  if (s->depth == 0 && s->top_array && s->count == 0)
    decide (s, IV_KIND_CHROME_TRACE);
  return !decided (s);
}

static gboolean
key_is (const unsigned char *k, size_t len, const char *name)
{
  return strlen (name) == len && memcmp (k, name, len) == 0;
}

static int
on_map_key (void *ctx, const unsigned char *k, size_t len)
{
  Sniff *s = ctx;

  if (s->depth == 1 && !s->top_array)
    {
      g_free (s->key1);
      s->key1 = g_strndup ((const char *) k, len);
      if (key_is (k, len, "traceEvents") || key_is (k, len, "displayTimeUnit")
          || key_is (k, len, "systemTraceEvents"))
        decide (s, IV_KIND_CHROME_TRACE);
      else if (key_is (k, len, "model_type") || key_is (k, len, "architectures"))
        decide (s, IV_KIND_HF_CONFIG);
      else if (key_is (k, len, "metadata") || key_is (k, len, "metrics")
               || key_is (k, len, "gpu_uuid") || key_is (k, len, "timestamp_ns"))
        {
          /* A line of profile_export.jsonl has both metadata and metrics, one of
           * gpu_telemetry_export.jsonl both timestamp_ns and gpu_uuid; one key alone is
           * not enough (Chrome traces may carry "metadata" too). */
          guint bit = key_is (k, len, "metadata")   ? 1
                      : key_is (k, len, "metrics")  ? 2
                      : key_is (k, len, "gpu_uuid") ? 4
                                                    : 8;
          s->record_keys |= bit;
          if (s->kind == IV_KIND_UNKNOWN
              && ((s->record_keys & 3) == 3 || (s->record_keys & 12) == 12))
            {
              s->records = TRUE;
              decide (s, IV_KIND_RUN);
            }
        }
      else if (key_is (k, len, "input_config") || key_is (k, len, "aiperf_version")
               || key_is (k, len, "request_latency") || key_is (k, len, "time_to_first_token")
               || key_is (k, len, "request_throughput"))
        decide (s, IV_KIND_RUN);
    }
  else if (s->depth == 2 && s->top_array && s->count == 0
           && (key_is (k, len, "ph") || key_is (k, len, "ts") || key_is (k, len, "pid")))
    decide (s, IV_KIND_CHROME_TRACE);
  return !decided (s);
}

static const yajl_callbacks sniff_callbacks = {
  .yajl_null = on_scalar,
  .yajl_boolean = on_bool,
  .yajl_number = on_number, /* raw text: integers beyond int64 must not fail the parse */
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end_map,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end_array,
};

IvGroup
iv_kind_get_group (IvKind kind)
{
  switch (kind)
    {
    case IV_KIND_CHROME_TRACE:
    case IV_KIND_PIPELINED_TIMELINE:
    case IV_KIND_CANDIDATE_BREAKDOWN:
      return IV_GROUP_TRACES;
    case IV_KIND_HF_CONFIG:
      return IV_GROUP_MODEL;
    case IV_KIND_RUN:
    case IV_KIND_SWEEP:
    case IV_KIND_UNKNOWN:
    default:
      return IV_GROUP_RUNS;
    }
}

const char *
iv_kind_to_string (IvKind kind)
{
  switch (kind)
    {
    case IV_KIND_RUN:
      return "aiperf-run";
    case IV_KIND_SWEEP:
      return "aiperf-sweep";
    case IV_KIND_CHROME_TRACE:
      return "chrome-trace";
    case IV_KIND_PIPELINED_TIMELINE:
      return "pipelined-timeline";
    case IV_KIND_CANDIDATE_BREAKDOWN:
      return "candidate-breakdown";
    case IV_KIND_HF_CONFIG:
      return "hf-config";
    case IV_KIND_UNKNOWN:
    default:
      return "unknown";
    }
}

static IvSniffResult *
result_new (IvKind kind, const char *root)
{
  IvSniffResult *r = g_new0 (IvSniffResult, 1);
  r->kind = kind;
  r->root = g_strdup (root);
  r->runs = g_ptr_array_new_with_free_func (g_free);
  r->links_out = g_ptr_array_new_with_free_func (g_free);
  r->links_out_targets = g_ptr_array_new_with_free_func (g_free);
  r->events = -1;
  return r;
}

void
iv_sniff_result_free (IvSniffResult *result)
{
  if (!result)
    return;
  g_free (result->root);
  g_ptr_array_unref (result->runs);
  g_ptr_array_unref (result->links_out);
  g_ptr_array_unref (result->links_out_targets);
  g_free (result);
}

IvSniffResult *
iv_sniff_input (IvInput *input, gboolean deep, IvProgressFunc progress, gpointer progress_data,
                GCancellable *cancellable, GError **error)
{
  Sniff s = { .count_depth = -1, .deep = deep };
  g_autoptr (GError) local = NULL;
  IvJsonStreamStats stats = { 0 };
  IvSniffResult *r;
  gboolean ok;

  ok = iv_json_stream_parse (input, &sniff_callbacks, &s, IV_JSON_STREAM_MULTIPLE_VALUES, progress,
                             progress_data, cancellable, &stats, &local);
  g_clear_pointer (&s.key1, g_free);

  if (!ok && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  /* Only the head was read (a read limit): what it showed, counts as lower bounds. */
  if (iv_input_hit_read_limit (input) && (!local || local->domain == IV_JSON_STREAM_ERROR))
    {
      if (s.kind == IV_KIND_UNKNOWN)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: not a trace, an AIPerf run or a model configuration "
                       "(no known key in its first %" G_GUINT64_FORMAT " MiB)",
                       iv_input_get_name (input), stats.bytes >> 20);
          return NULL;
        }
      r = result_new (s.kind, iv_input_get_name (input));
      if (deep)
        {
          r->events = s.records ? s.top_values : s.counted ? s.count : -1;
          r->events_partial = TRUE;
        }
      return r;
    }
  if (!ok && stats.bytes == 0 && local && local->domain == IV_JSON_STREAM_ERROR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the file is empty",
                   iv_input_get_name (input));
      return NULL;
    }
  /* A trace whose writer was killed ends early or with junk: keep what came before. */
  if (!ok && s.kind == IV_KIND_CHROME_TRACE && local->domain == IV_JSON_STREAM_ERROR
      && (local->code == IV_JSON_STREAM_ERROR_TRUNCATED || s.count > 0))
    {
      r = result_new (s.kind, iv_input_get_name (input));
      r->truncated = TRUE;
      r->events = s.count;
      return r;
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (s.kind == IV_KIND_UNKNOWN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a trace, an AIPerf run or a model configuration "
                   "(no known key up to line %u)",
                   iv_input_get_name (input), stats.line);
      return NULL;
    }
  r = result_new (s.kind, iv_input_get_name (input));
  if (deep)
    r->events = s.records ? s.top_values : s.counted ? s.count : -1;
  return r;
}

/* -------- folders -------- */

static const char *const compression_suffixes[] = { ".gz", ".zst", NULL };

char *
iv_sniff_strip_compression (const char *name)
{
  for (guint i = 0; compression_suffixes[i]; i++)
    if (g_str_has_suffix (name, compression_suffixes[i]))
      return g_strndup (name, strlen (name) - strlen (compression_suffixes[i]));
  return g_strdup (name);
}

/* The per-request export of a run folder, if it has one (plain or compressed). */
static char *
find_records_file (const char *dir, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *bare = iv_sniff_strip_compression (names->pdata[i]);
      if (g_str_has_suffix (bare, ".jsonl") && !g_str_has_suffix (bare, "telemetry_export.jsonl")
          && !g_str_has_suffix (bare, "_gpu_telemetry.jsonl") && !strstr (bare, "server_metrics"))
        return g_build_filename (dir, names->pdata[i], NULL);
    }
  return NULL;
}

static gboolean
folder_is_run (const char *dir, GPtrArray *names, gboolean has_aggregate)
{
  g_autoptr (GHashTable) bases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (has_aggregate)
    return TRUE;
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *bare = iv_sniff_strip_compression (names->pdata[i]);
      if (g_str_has_prefix (bare, "profile_export")
          && (g_str_has_suffix (bare, ".json") || g_str_has_suffix (bare, ".jsonl")))
        return TRUE;
      /* a run that kept only AIPerf's CSV summary is a run too */
      if (g_str_has_suffix (bare, "_aiperf.json") || g_str_has_suffix (bare, "_aiperf.csv"))
        return TRUE;
      g_hash_table_add (bases, g_steal_pointer (&bare));
    }
  /* A custom --profile-export-prefix foo writes foo.jsonl beside foo.json. */
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *bare = iv_sniff_strip_compression (names->pdata[i]);
      if (g_str_has_suffix (bare, ".jsonl") && !strstr (bare, "server_metrics"))
        {
          g_autofree char *json = g_strndup (bare, strlen (bare) - 1);
          if (g_hash_table_contains (bases, json))
            return TRUE;
        }
    }
  return FALSE;
}

/* Whether @aggregate (a run's "aggregate" folder) holds the cells of a sweep of repeated
 * trials, as aiperf's REPEATED sweep mode writes them: aggregate/<cell>/
 * profile_export_aiperf_aggregate.json, with each trial's cells in
 * profile_runs/trial_NNNN/<cell>/ beside it — and aggregate/sweep_aggregate/. Only the
 * first 1,000 entries are looked at: a cell folder name sorts anywhere. */
static gboolean
holds_repeated_cells (const char *aggregate)
{
  g_autoptr (GDir) d = g_dir_open (aggregate, 0, NULL);
  const char *name;
  guint looked = 0;

  while (d && (name = g_dir_read_name (d)) != NULL && looked++ < 1000)
    {
      g_autofree char *agg
          = g_build_filename (aggregate, name, "profile_export_aiperf_aggregate.json", NULL);
      g_autofree char *sweep
          = g_build_filename (aggregate, name, "profile_export_aiperf_sweep.json", NULL);
      if (g_file_test (agg, G_FILE_TEST_IS_REGULAR) || g_file_test (sweep, G_FILE_TEST_IS_REGULAR))
        return TRUE;
    }
  return FALSE;
}

/* A folder's identity: the same folder reached through a symlink (or a bind mount) is
 * visited once, so links to "." or to a parent cannot multiply the runs or loop. */
typedef struct
{
  dev_t dev;
  ino_t ino;
} FolderId;

static guint
folder_id_hash (gconstpointer p)
{
  const FolderId *f = p;
  return (guint) (f->ino ^ (f->ino >> 32) ^ ((guint64) f->dev * 2654435761u));
}

static gboolean
folder_id_equal (gconstpointer a, gconstpointer b)
{
  const FolderId *x = a, *y = b;
  return x->dev == y->dev && x->ino == y->ino;
}

/* Breadth first, so that the runs near the opened folder are found before a link that
 * leads far away (to /, say) uses up the budget. */
typedef struct
{
  GPtrArray *runs;
  GHashTable *visited; /* FolderId* */
  GCancellable *cancellable;
  guint folders_left; /* a link to / must not mean reading the whole disk */
  GQueue pending;     /* Pending*: folders found, not yet read */
  char *root;         /* the opened folder, resolved: discovery does not leave it */
  GPtrArray *links_out, *links_out_targets; /* links inside it to folders outside */
} Walk;

/* Whether @path (resolved) is @root or inside it. */
static gboolean
path_within (const char *path, const char *root)
{
  gsize n = strlen (root);

  if (g_str_equal (root, "/"))
    return TRUE;
  return strncmp (path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* A symbolic link @name in @dir to a folder: followed when it leads into the opened
 * folder (a "latest" link, a link to "."), else noted and passed over — a link to / or
 * to another user's runs must not pull the disk into the sweep. */
static gboolean
link_stays_inside (Walk *w, const char *dir, const char *name)
{
  g_autofree char *full = g_build_filename (dir, name, NULL);
  g_autofree char *target = realpath (full, NULL);

  if (!target || !w->root || path_within (target, w->root))
    return TRUE;
  g_ptr_array_add (w->links_out, g_steal_pointer (&full));
  g_ptr_array_add (w->links_out_targets, g_steal_pointer (&target));
  return FALSE;
}

typedef struct
{
  char *dir;
  guint depth;
} Pending;

static void
pending_free (gpointer p)
{
  g_free (((Pending *) p)->dir);
  g_free (p);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return iv_natural_compare (*(const char *const *) a, *(const char *const *) b);
}

/* Reads one folder: is it a run; its sub-folders join the queue. */
static gboolean
visit (Walk *w, const char *dir, guint depth, GError **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  gboolean has_aggregate = FALSE, has_cells = FALSE;
  struct dirent *ent;
  struct stat st;
  FolderId id;
  DIR *d;
  int dfd;

  if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
    return FALSE;
  if (w->folders_left == 0)
    return TRUE;
  w->folders_left--;
  d = opendir (dir);
  if (!d || fstat (dfd = dirfd (d), &st) != 0)
    {
      int saved = errno;
      if (d)
        closedir (d);
      /* An unreadable sub-folder must not hide the runs beside it. */
      if (depth == 0)
        {
          g_autofree char *display = g_filename_display_name (dir);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", display,
                       g_strerror (saved));
          return FALSE;
        }
      return TRUE;
    }
  id = (FolderId){ st.st_dev, st.st_ino };
  if (g_hash_table_contains (w->visited, &id))
    {
      closedir (d);
      return TRUE;
    }
  g_hash_table_add (w->visited, g_memdup2 (&id, sizeof id));

  while ((ent = readdir (d)) != NULL)
    {
      const char *name = ent->d_name;
      gboolean is_dir;
      if (name[0] == '.')
        continue;
      /* The entry's type when the file system says it; a stat for links and the rest. */
      if (ent->d_type == DT_DIR)
        is_dir = TRUE;
      else if (ent->d_type == DT_REG)
        is_dir = FALSE;
      else
        {
          struct stat lst;
          gboolean is_link
              = ent->d_type == DT_LNK
                || (ent->d_type == DT_UNKNOWN && fstatat (dfd, name, &lst, AT_SYMLINK_NOFOLLOW) == 0
                    && S_ISLNK (lst.st_mode));
          is_dir = fstatat (dfd, name, &st, 0) == 0 && S_ISDIR (st.st_mode);
          if (is_dir && is_link && !link_stays_inside (w, dir, name))
            continue;
        }
      if (is_dir)
        {
          if (g_str_equal (name, "aggregate"))
            {
              g_autofree char *agg
                  = g_build_filename (dir, name, "profile_export_aiperf_aggregate.json", NULL);
              g_autofree char *sub = g_build_filename (dir, name, NULL);
              has_aggregate = g_file_test (agg, G_FILE_TEST_IS_REGULAR);
              has_cells = !has_aggregate && holds_repeated_cells (sub);
            }
          g_ptr_array_add (subdirs, g_build_filename (dir, name, NULL));
        }
      else
        g_ptr_array_add (files, g_strdup (name));
    }
  closedir (d);

  if (folder_is_run (dir, files, has_aggregate))
    g_ptr_array_add (w->runs, g_strdup (dir));
  if (depth >= MAX_FOLDER_DEPTH)
    return TRUE;
  /* In name order: which of two names of one folder is kept must not depend on readdir. */
  g_ptr_array_sort (subdirs, compare_names);
  for (guint i = 0; i < subdirs->len; i++)
    {
      g_autofree char *base = g_path_get_basename (subdirs->pdata[i]);
      Pending *next;
      /* The trials of an aggregated run belong to that one run; the trials of a sweep of
       * repeated trials to its cells in aggregate/ (each a run, counting its trials). */
      if (has_aggregate && (g_str_equal (base, "aggregate") || g_str_equal (base, "profile_runs")))
        continue;
      if (has_cells && g_str_equal (base, "profile_runs"))
        continue;
      next = g_new (Pending, 1);
      next->dir = g_strdup (subdirs->pdata[i]);
      next->depth = depth + 1;
      g_queue_push_tail (&w->pending, next);
    }
  return TRUE;
}

static gboolean
walk (Walk *w, const char *root, GError **error)
{
  gboolean ok = visit (w, root, 0, error);
  Pending *p;

  while (ok && (p = g_queue_pop_head (&w->pending)) != NULL)
    {
      ok = visit (w, p->dir, p->depth, error);
      pending_free (p);
    }
  g_queue_clear_full (&w->pending, pending_free);
  return ok;
}

static gint
compare_paths (gconstpointer a, gconstpointer b)
{
  return iv_natural_compare (*(const char *const *) a, *(const char *const *) b);
}

/* Request records are one JSON object per line: count non-empty lines (in the first
 * @head_bytes of text when not 0; then *@partial says whether there was more). */
static gint64
count_records (const char *path, guint64 head_bytes, gboolean *partial, GCancellable *cancellable,
               GError **error)
{
  g_autoptr (IvInput) in = iv_input_open (path, error);
  g_autofree char *buf = NULL;
  gint64 lines = 0;
  gboolean in_line = FALSE;
  gssize n;

  if (!in)
    return -1;
  iv_input_set_read_limit (in, head_bytes);
  buf = g_malloc (1 << 16);
  while ((n = iv_input_read (in, buf, 1 << 16, error)) > 0)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return -1;
      for (gssize i = 0; i < n; i++)
        {
          if (buf[i] == '\n')
            {
              lines += in_line;
              in_line = FALSE;
            }
          else if (!g_ascii_isspace (buf[i]))
            in_line = TRUE;
        }
    }
  if (n < 0)
    return -1;
  *partial = iv_input_hit_read_limit (in);
  /* a line cut by the limit is not a whole record */
  return lines + (in_line && !*partial);
}

static IvSniffResult *
sniff_folder (const char *path, gboolean deep, guint64 head_bytes, GCancellable *cancellable,
              GError **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) visited
      = g_hash_table_new_full (folder_id_hash, folder_id_equal, g_free, NULL);
  g_autoptr (GPtrArray) links_out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) links_out_targets = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *root = realpath (path, NULL);
  Walk w = { runs,         visited, cancellable, IV_SNIFF_MAX_FOLDERS,
             G_QUEUE_INIT, root,    links_out,   links_out_targets };
  IvSniffResult *r;

  if (!walk (&w, path, error))
    return NULL;
  if (runs->len == 0 && links_out->len > 0)
    {
      /* the runs may be where a link leads: say it was not followed */
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *link = g_filename_display_name (links_out->pdata[0]);
      g_autofree char *target = g_filename_display_name (links_out_targets->pdata[0]);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: no AIPerf run in this folder; the link %s leads outside it (to %s) and "
                   "was not followed — open %s itself to read the runs there",
                   display, link, target, target);
      return NULL;
    }
  if (runs->len == 0)
    {
      g_autofree char *display = g_filename_display_name (path);
      guint ranks = iv_rank_traces_in_folder (path);
      /* a folder of rank traces is a distributed job, not a folder without runs */
      if (ranks >= 2)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     "%s: %u ranks of a distributed trace — `inferview trace %s --stats` "
                     "reads them as one job, and the window opens the folder as one",
                     display, ranks, display);
      else if (w.folders_left == 0)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     "%s: no AIPerf run in the first %d folders under it (a run holds "
                     "profile_export.jsonl or profile_export_aiperf.json)",
                     display, IV_SNIFF_MAX_FOLDERS);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     "%s: no AIPerf run in this folder or the %d levels below it "
                     "(a run holds profile_export.jsonl or profile_export_aiperf.json)",
                     display, MAX_FOLDER_DEPTH);
      return NULL;
    }
  g_ptr_array_sort (runs, compare_paths);
  r = result_new (runs->len == 1 ? IV_KIND_RUN : IV_KIND_SWEEP, path);
  r->folders_cut = w.folders_left == 0;
  g_ptr_array_extend_and_steal (r->links_out, g_steal_pointer (&links_out));
  g_ptr_array_extend_and_steal (r->links_out_targets, g_steal_pointer (&links_out_targets));
  if (deep)
    {
      r->events = 0;
      for (guint i = 0; i < runs->len; i++)
        {
          g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
          g_autoptr (GDir) d = g_dir_open (runs->pdata[i], 0, NULL);
          g_autofree char *records = NULL;
          const char *name;

          while (d && (name = g_dir_read_name (d)) != NULL)
            g_ptr_array_add (names, g_strdup (name));
          records = find_records_file (runs->pdata[i], names);
          if (records)
            {
              gboolean partial = FALSE;
              gint64 n = count_records (records, head_bytes, &partial, cancellable, error);
              if (n < 0)
                {
                  iv_sniff_result_free (r);
                  return NULL;
                }
              r->events += n;
              r->events_partial |= partial;
            }
        }
    }
  g_ptr_array_extend_and_steal (r->runs, g_steal_pointer (&runs));
  return r;
}

IvSniffResult *
iv_sniff_path (const char *path, gboolean deep, IvProgressFunc progress, gpointer progress_data,
               GCancellable *cancellable, GError **error)
{
  return iv_sniff_path_head (path, deep, 0, progress, progress_data, cancellable, error);
}

IvSniffResult *
iv_sniff_path_head (const char *path, gboolean deep, guint64 head_bytes, IvProgressFunc progress,
                    gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  IvSniffResult *r;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    return sniff_folder (path, deep, head_bytes, cancellable, error);

  in = iv_input_open (path, error);
  if (!in)
    return NULL;
  /* Deciding the kind never needs more than the head; whitespace or an unknown format
   * must not be read (or decompressed) to the end for that. */
  iv_input_set_read_limit (in, deep ? head_bytes : QUICK_HEAD_BYTES);
  r = iv_sniff_input (in, deep, progress, progress_data, cancellable, error);
  if (!r)
    return NULL;
  r->size = (guint64) st.st_size;
  g_free (r->root);
  r->root = g_strdup (path);
  /* A file that belongs to a run opens its run: the run is the unit users compare. */
  if (r->kind == IV_KIND_RUN)
    {
      g_autofree char *dir = g_path_get_dirname (path);
      IvSniffResult *run = sniff_folder (dir, deep, head_bytes, cancellable, error);
      iv_sniff_result_free (r);
      return run;
    }
  return r;
}

/* "run_10" after "run_9": digit runs compare by value, the rest by byte. */
int
iv_natural_compare (const char *a, const char *b)
{
  while (*a && *b)
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *sa = a, *sb = b;
          gsize la, lb;
          int c;

          while (*sa == '0' && g_ascii_isdigit (sa[1]))
            sa++;
          while (*sb == '0' && g_ascii_isdigit (sb[1]))
            sb++;
          for (a = sa; g_ascii_isdigit (*a); a++)
            ;
          for (b = sb; g_ascii_isdigit (*b); b++)
            ;
          la = (gsize) (a - sa);
          lb = (gsize) (b - sb);
          if (la != lb)
            return la < lb ? -1 : 1;
          c = strncmp (sa, sb, la);
          if (c != 0)
            return c;
        }
      else
        {
          if (*a != *b)
            return (guchar) *a < (guchar) *b ? -1 : 1;
          a++, b++;
        }
    }
  return *a ? 1 : *b ? -1 : 0;
}
