/* iv-sweep.c: discovery of runs under paths, and the fields that vary across them. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-sweep.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-run-private.h"
#include "iv-sniff.h"

static const struct
{
  const char *key, *title;
} fields[IV_N_FIELDS] = {
  [IV_FIELD_MODEL] = { "model", N_ ("Model") },
  [IV_FIELD_CONCURRENCY] = { "concurrency", N_ ("Concurrency") },
  [IV_FIELD_REQUEST_RATE] = { "request_rate", N_ ("Request rate") },
  [IV_FIELD_ISL] = { "isl", N_ ("Input tokens (ISL)") },
  [IV_FIELD_OSL] = { "osl", N_ ("Output tokens (OSL)") },
  [IV_FIELD_ENDPOINT_TYPE] = { "endpoint_type", N_ ("Endpoint type") },
  [IV_FIELD_STREAMING] = { "streaming", N_ ("Streaming") },
  [IV_FIELD_REQUEST_COUNT] = { "request_count", N_ ("Requests") },
};

const char *
iv_field_key (IvField f)
{
  g_return_val_if_fail (f < IV_N_FIELDS, "");
  return fields[f].key;
}

const char *
iv_field_title (IvField f)
{
  g_return_val_if_fail (f < IV_N_FIELDS, "");
  return _ (fields[f].title);
}

double
iv_run_field_number (const IvRun *r, IvField f)
{
  switch (f)
    {
    case IV_FIELD_CONCURRENCY:
      return r->concurrency;
    case IV_FIELD_REQUEST_RATE:
      return r->request_rate;
    case IV_FIELD_ISL:
      return r->isl;
    case IV_FIELD_OSL:
      return r->osl;
    case IV_FIELD_REQUEST_COUNT:
      return r->request_count;
    case IV_FIELD_STREAMING:
      return r->endpoint_type ? (double) r->streaming : NAN;
    case IV_FIELD_MODEL:
    case IV_FIELD_ENDPOINT_TYPE:
    case IV_N_FIELDS:
      break;
    }
  return NAN;
}

char *
iv_run_field_text (const IvRun *r, IvField f)
{
  double v;

  if (f == IV_FIELD_MODEL)
    return g_strdup (r->model);
  if (f == IV_FIELD_ENDPOINT_TYPE)
    return g_strdup (r->endpoint_type);
  if (f == IV_FIELD_STREAMING)
    return r->endpoint_type ? g_strdup (r->streaming ? "true" : "false") : NULL;
  v = iv_run_field_number (r, f);
  if (isnan (v))
    return NULL;
  return g_strdup_printf ("%.10g", v);
}

void
iv_sweep_free (IvSweep *s)
{
  if (!s)
    return;
  g_ptr_array_unref (s->runs);
  g_ptr_array_unref (s->varying);
  g_ptr_array_unref (s->warnings);
  g_strfreev (s->paths);
  g_free (s);
}

/* A path or run that failed: a cancellation goes to @error (TRUE: stop); anything else
 * becomes a warning, the first one kept in @first for when nothing loads at all. */
static gboolean
set_aside (IvSweep *s, GError **local, GError **first, GError **error)
{
  if (g_error_matches (*local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (local));
      return TRUE;
    }
  g_ptr_array_add (s->warnings, g_strdup ((*local)->message));
  if (!*first)
    *first = g_steal_pointer (local);
  return FALSE;
}

/* Whether @target (resolved) is one of the opened paths or inside one. */
static gboolean
opened (const IvSweep *s, const char *target)
{
  for (guint p = 0; s->paths[p]; p++)
    {
      g_autofree char *root = realpath (s->paths[p], NULL);
      gsize n = root ? strlen (root) : 0;
      if (root
          && (g_str_equal (root, "/")
              || (strncmp (target, root, n) == 0 && (target[n] == '\0' || target[n] == '/'))))
        return TRUE;
    }
  return FALSE;
}

/* Discovery does not leave an opened folder through a link: each link it passed over is
 * said, unless what it leads to was opened too (its runs come from there). */
static void
warn_links_out (IvSweep *s, const IvSniffResult *found)
{
  for (guint i = 0; i < found->links_out->len; i++)
    {
      const char *target = found->links_out_targets->pdata[i];
      g_autofree char *link = NULL, *display = NULL;
      if (opened (s, target))
        continue;
      link = g_filename_display_name (found->links_out->pdata[i]);
      display = g_filename_display_name (target);
      g_ptr_array_add (s->warnings,
                       g_strdup_printf (_ ("%s: a link to %s, outside the opened folder: not "
                                           "followed (open %s too to include its runs)"),
                                        link, display, display));
    }
}

/* The run folders under the sweep's paths, in the order they are shown. */
static GPtrArray *
discover (IvSweep *s, gboolean quiet, GCancellable *cancellable, GError **first, GError **error)
{
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  const char *const *paths = (const char *const *) s->paths;

  for (guint p = 0; paths[p]; p++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (IvSniffResult) found
          = iv_sniff_path (paths[p], FALSE, NULL, NULL, cancellable, &local);
      if (!found || !found->runs || found->runs->len == 0)
        {
          if (!local)
            {
              g_autofree char *display = g_filename_display_name (paths[p]);
              g_set_error (&local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("%s: no AIPerf run here"),
                           display);
            }
          if (quiet)
            continue;
          if (set_aside (s, &local, first, error))
            return NULL;
          continue;
        }
      if (found->folders_cut && !quiet)
        {
          g_autofree char *display = g_filename_display_name (paths[p]);
          g_ptr_array_add (s->warnings,
                           g_strdup_printf (_ ("%s: stopped looking for runs after %d folders "
                                               "(links may lead far outside it)"),
                                            display, IV_SNIFF_MAX_FOLDERS));
        }
      for (guint i = 0; i < found->runs->len; i++)
        g_ptr_array_add (dirs, g_strdup (found->runs->pdata[i]));
      if (!quiet)
        warn_links_out (s, found);
    }
  return g_steal_pointer (&dirs);
}

static gboolean label_needs_model (const IvSweep *s);

/* A field varies when two runs that have it disagree on it: a run without its
 * configuration (CSV-only, an old summary, one still being written) does not make every
 * field vary. */
static void
find_varying (IvSweep *s)
{
  g_ptr_array_set_size (s->varying, 0);
  for (IvField f = 0; f < IV_N_FIELDS; f++)
    {
      g_autofree char *ref = NULL;
      for (guint i = 0; i < s->runs->len; i++)
        {
          g_autofree char *v = iv_run_field_text (s->runs->pdata[i], f);
          if (!v)
            continue;
          if (!ref)
            ref = g_steal_pointer (&v);
          else if (!g_str_equal (ref, v))
            {
              g_ptr_array_add (s->varying, GUINT_TO_POINTER (f));
              break;
            }
        }
    }
  s->label_model = label_needs_model (s);
}

/* A sweep's aggregate (profile_export_aiperf_sweep.json) is no run: when the sweep found
 * the runs of its cells, it is a note beside them; when it is all there is, its
 * combinations are the runs. */
static void
take_sweep_aggregates (IvSweep *s)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new ();
  guint others = 0;

  for (guint i = 0; i < s->runs->len; i++)
    others += ((IvRun *) s->runs->pdata[i])->sweep_cells == NULL;
  for (guint i = 0; i < s->runs->len;)
    {
      IvRun *r = s->runs->pdata[i];
      if (!r->sweep_cells)
        {
          i++;
          continue;
        }
      if (others)
        g_ptr_array_add (
            s->warnings,
            g_strdup_printf (_ ("%s: a sweep's aggregate of %u combinations (pareto optimal: %s); "
                                "the runs of its cells are drawn instead"),
                             r->path, r->sweep_cells->len,
                             r->sweep_pareto ? r->sweep_pareto : _ ("none")));
      else
        {
          /* the cells take the aggregate's place, keeping their order */
          g_ptr_array_set_free_func (r->sweep_cells, NULL);
          for (guint k = 0; k < r->sweep_cells->len; k++)
            g_ptr_array_add (cells, r->sweep_cells->pdata[k]);
          g_ptr_array_set_size (r->sweep_cells, 0);
        }
      g_ptr_array_remove_index (s->runs, i);
    }
  for (guint i = 0; i < cells->len; i++)
    g_ptr_array_add (s->runs, cells->pdata[i]);
}

IvSweep *
iv_sweep_load (const char *const *paths, IvProgressFunc progress, gpointer data,
               GCancellable *cancellable, GError **error)
{
  return iv_sweep_load_full (paths, IV_RUN_LOAD_DEFAULT, progress, data, cancellable, error);
}

IvSweep *
iv_sweep_load_full (const char *const *paths, IvRunLoadFlags flags, IvProgressFunc progress,
                    gpointer data, GCancellable *cancellable, GError **error)
{
  g_autoptr (IvSweep) s = g_new0 (IvSweep, 1);
  g_autoptr (GError) first = NULL;
  g_autoptr (GPtrArray) dirs = NULL;

  s->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_run_free);
  s->varying = g_ptr_array_new ();
  s->warnings = g_ptr_array_new_with_free_func (g_free);
  s->paths = g_strdupv ((char **) paths);
  s->flags = flags;
  s->stale_after_s = IV_RUN_LIVE_STALE_S;
  dirs = discover (s, FALSE, cancellable, &first, error);
  if (!dirs)
    return NULL;
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autoptr (GError) local = NULL;
      IvRun *r = iv_run_load_full (dirs->pdata[i], flags, NULL, NULL, cancellable, &local);
      if (progress)
        progress (i + 1, dirs->len, data);
      if (!r)
        {
          if (set_aside (s, &local, &first, error))
            return NULL;
          continue;
        }
      g_ptr_array_add (s->runs, r);
    }
  take_sweep_aggregates (s);
  if (s->runs->len == 0)
    {
      if (first)
        g_propagate_error (error, g_steal_pointer (&first));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("no AIPerf run found"));
      return NULL;
    }
  /* a run without its summary whose files stopped growing long ago is not being written */
  for (guint i = 0; i < s->runs->len; i++)
    iv_run_expire (s->runs->pdata[i], s->stale_after_s);
  find_varying (s);
  return g_steal_pointer (&s);
}

/* ---- the runs aiperf plot finds (ModeDetector, aiperf/plot/core/mode_detector.py) ---- */

/* _has_marker: @name or @name.zst in @dir, a regular file (a broken link is none). */
static gboolean
has_marker (const char *dir, const char *name)
{
  g_autofree char *raw = g_build_filename (dir, name, NULL);
  g_autofree char *zst = g_strconcat (raw, ".zst", NULL);
  return g_file_test (raw, G_FILE_TEST_IS_REGULAR) || g_file_test (zst, G_FILE_TEST_IS_REGULAR);
}

static gboolean
has_single_run_markers (const char *dir)
{
  return has_marker (dir, "profile_export.jsonl") && has_marker (dir, "profile_export_aiperf.json");
}

/* _has_valid_aggregate_marker: a confidence aggregate that is not the shadow of a
 * single-run cell beside it (<cell>/aggregate/ of a run <cell>/, or
 * <base>/aggregate/<cell>/ of a run <base>/<cell>/). */
static gboolean
has_valid_aggregate_marker (const char *dir)
{
  g_autofree char *name = g_path_get_basename (dir);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *parent_name = g_path_get_basename (parent);

  if (!has_marker (dir, "profile_export_aiperf_aggregate.json"))
    return FALSE;
  if (g_str_equal (name, "aggregate") && has_single_run_markers (parent))
    return FALSE;
  if (g_str_equal (parent_name, "aggregate"))
    {
      g_autofree char *grand = g_path_get_dirname (parent);
      g_autofree char *twin = g_build_filename (grand, name, NULL);
      if (has_single_run_markers (twin))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  GPtrArray *dirs;
  GHashTable *visited; /* resolved paths */
  guint folders_left;
  char *root; /* the opened folder, resolved: links out of it are not followed */
} AiperfWalk;

/* _find_all_run_directories_recursive: the folder, then each sub-folder (a per-trial
 * profile_runs/ passed over when an aggregate/ beside it carries the cell). */
static void
aiperf_walk (AiperfWalk *w, const char *dir, guint depth)
{
  g_autofree char *resolved = realpath (dir, NULL);
  g_autoptr (GDir) d = NULL;
  g_autofree char *aggregate = NULL;
  const char *name;
  gboolean skip_trials;

  if (!resolved || !g_file_test (dir, G_FILE_TEST_IS_DIR) || w->folders_left == 0
      || g_hash_table_contains (w->visited, resolved))
    return;
  /* discovery stays in what was opened (iv-sniff's rule; aiperf follows links anywhere) */
  if (w->root && !g_str_equal (w->root, "/")
      && !(g_str_has_prefix (resolved, w->root)
           && (resolved[strlen (w->root)] == '\0' || resolved[strlen (w->root)] == '/')))
    return;
  w->folders_left--;
  g_hash_table_add (w->visited, g_strdup (resolved));
  if (has_single_run_markers (dir) || has_valid_aggregate_marker (dir))
    g_ptr_array_add (w->dirs, g_strdup (dir));
  if (depth >= 8 || !(d = g_dir_open (dir, 0, NULL)))
    return;
  aggregate = g_build_filename (dir, "aggregate", NULL);
  skip_trials = has_valid_aggregate_marker (aggregate);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      if (skip_trials && g_str_equal (name, "profile_runs"))
        continue;
      if (g_file_test (sub, G_FILE_TEST_IS_DIR))
        aiperf_walk (w, sub, depth + 1);
    }
}

/* Python's Path ordering: part by part ("." parts dropped, as pathlib drops them). */
static gint
compare_python_paths (gconstpointer pa, gconstpointer pb)
{
  const char *a = *(const char *const *) pa, *b = *(const char *const *) pb;
  g_auto (GStrv) x = g_strsplit (a, "/", -1), y = g_strsplit (b, "/", -1);
  guint i = 0, j = 0;

  for (;;)
    {
      /* "/x": the root is a part of its own; empty and "." parts are none */
      while (x[i] && (g_str_equal (x[i], ".") || (!*x[i] && i > 0)))
        i++;
      while (y[j] && (g_str_equal (y[j], ".") || (!*y[j] && j > 0)))
        j++;
      if (!x[i] || !y[j])
        return !x[i] && !y[j] ? 0 : !x[i] ? -1 : 1;
      {
        const char *u = *x[i] ? x[i] : "/", *v = *y[j] ? y[j] : "/";
        int c = strcmp (u, v);
        if (c)
          return c;
      }
      i++, j++;
    }
}

GPtrArray *
iv_aiperf_run_dirs (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint p = 0; paths[p]; p++)
    {
      g_autoptr (GHashTable) visited
          = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *root = realpath (paths[p], NULL);
      AiperfWalk w
          = { g_ptr_array_new_with_free_func (g_free), visited, IV_SNIFF_MAX_FOLDERS, root };
      g_autoptr (GPtrArray) found = w.dirs;

      if (!g_file_test (paths[p], G_FILE_TEST_IS_DIR))
        {
          g_autofree char *display = g_filename_display_name (paths[p]);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                       _ ("%s: not a folder (aiperf plot takes folders of runs)"), display);
          return NULL;
        }
      aiperf_walk (&w, paths[p], 0);
      if (found->len == 0)
        {
          g_autofree char *display = g_filename_display_name (paths[p]);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _ ("%s: no run aiperf plot reads here (a run holds profile_export.jsonl "
                          "and profile_export_aiperf.json, or "
                          "profile_export_aiperf_aggregate.json)"),
                       display);
          return NULL;
        }
      for (guint i = 0; i < found->len; i++)
        {
          g_autofree char *resolved = realpath (found->pdata[i], NULL);
          if (resolved && g_hash_table_add (seen, g_steal_pointer (&resolved)))
            g_ptr_array_add (all, g_strdup (found->pdata[i]));
        }
    }
  g_ptr_array_sort (all, compare_python_paths);
  return g_steal_pointer (&all);
}

IvSweep *
iv_sweep_load_aiperf (const char *const *paths, GCancellable *cancellable, GError **error)
{
  g_autoptr (IvSweep) s = g_new0 (IvSweep, 1);
  g_autoptr (GPtrArray) dirs = iv_aiperf_run_dirs (paths, error);

  if (!dirs)
    return NULL;
  s->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_run_free);
  s->varying = g_ptr_array_new ();
  s->warnings = g_ptr_array_new_with_free_func (g_free);
  s->paths = g_strdupv ((char **) paths);
  s->stale_after_s = IV_RUN_LIVE_STALE_S;
  s->aiperf = TRUE;
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autoptr (GError) local = NULL;
      IvRun *r
          = iv_run_load_full (dirs->pdata[i], IV_RUN_LOAD_DEFAULT, NULL, NULL, cancellable, &local);
      if (!r)
        {
          /* PlotController._export_multi_run_plots: a run that fails to load is left out */
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          g_ptr_array_add (s->warnings, g_strdup (local->message));
          continue;
        }
      g_ptr_array_add (s->runs, r);
    }
  if (s->runs->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("no run aiperf plot could load"));
      return NULL;
    }
  find_varying (s);
  return g_steal_pointer (&s);
}

guint
iv_sweep_n_live (const IvSweep *s)
{
  guint n = 0;
  for (guint i = 0; i < s->runs->len; i++)
    n += ((const IvRun *) s->runs->pdata[i])->live != NULL;
  return n;
}

static gboolean
has_run (const IvSweep *s, const char *dir)
{
  for (guint i = 0; i < s->runs->len; i++)
    if (g_str_equal (((const IvRun *) s->runs->pdata[i])->path, dir))
      return TRUE;
  return FALSE;
}

/* @r is no longer followed: it keeps what was read and says since when and why. */
static void
stop_following (IvRun *r, const char *why, IvSweepFollow *out)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *at = g_date_time_format (now, "%H:%M:%S");

  iv_run_unfollow (r);
  _iv_run_warn (r, _ ("%s: no longer followed since %s (what was read until then is kept): %s"),
                r->name, at, why);
  out->stopped_runs++;
  out->stopped_why = r->warnings->pdata[r->warnings->len - 1];
}

void
iv_sweep_follow (IvSweep *s, gsize max_bytes, gboolean look, IvSweepFollow *out)
{
  gboolean changed = FALSE;

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < s->runs->len; i++)
    {
      IvRun *r = s->runs->pdata[i];
      IvRunFollow f;
      g_autoptr (GError) local = NULL;

      if (!r->live)
        continue;
      if (!iv_run_follow (r, max_bytes, &f, &local))
        {
          /* what was read stays; the run is no longer followed, and says so */
          stop_following (r, local->message, out);
          changed = TRUE;
          continue;
        }
      if (f.restarted)
        {
          /* AIPerf began the run again in its folder: read it from the start */
          IvRun *again = NULL;
          if (!g_file_test (r->path, G_FILE_TEST_IS_DIR))
            {
              g_autofree char *display = g_filename_display_name (r->path);
              g_autofree char *why
                  = g_strdup_printf (_ ("its folder %s was removed or renamed"), display);
              stop_following (r, why, out);
              changed = TRUE;
              continue;
            }
          again = iv_run_load_full (r->path, s->flags, NULL, NULL, NULL, &local);
          if (!again)
            {
              /* the files cleared and not written yet: AIPerf is starting the run again,
               * which the next call sees; anything else ends the following */
              if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
                {
                  stop_following (r, local->message, out);
                  changed = TRUE;
                }
              continue;
            }
          g_ptr_array_index (s->runs, i) = again;
          iv_run_free (r);
          out->new_records += (guint) (again->n_requests + again->n_warmup);
          changed = TRUE;
          continue;
        }
      out->new_records += f.new_records;
      out->new_samples += f.new_samples;
      out->finished_runs += f.finished;
      changed |= f.finished;
      if (iv_run_expire (r, s->stale_after_s))
        {
          out->incomplete_runs++;
          out->incomplete_why = r->warnings->pdata[r->warnings->len - 1];
          changed = TRUE;
        }
    }
  if (look && (s->flags & IV_RUN_LOAD_FOLLOW))
    {
      g_autoptr (GError) first = NULL;
      g_autoptr (GPtrArray) dirs = discover (s, TRUE, NULL, &first, NULL);
      g_autoptr (GPtrArray) order = g_ptr_array_new ();

      for (guint i = 0; dirs && i < dirs->len; i++)
        {
          g_autoptr (GError) local = NULL;
          IvRun *r;
          if (has_run (s, dirs->pdata[i]))
            continue;
          /* a folder just made may not be a run yet: it is looked at again next time */
          r = iv_run_load_full (dirs->pdata[i], s->flags, NULL, NULL, NULL, &local);
          if (!r)
            continue;
          g_ptr_array_add (s->runs, r);
          out->new_runs++;
          out->new_records += (guint) (r->n_requests + r->n_warmup);
        }
      /* in the order discovery gives (names sorted naturally), as a first load would */
      if (out->new_runs && dirs)
        {
          for (guint d = 0; d < dirs->len; d++)
            for (guint i = 0; i < s->runs->len; i++)
              if (g_str_equal (((IvRun *) s->runs->pdata[i])->path, dirs->pdata[d]))
                g_ptr_array_add (order, s->runs->pdata[i]);
          if (order->len == s->runs->len)
            memcpy (s->runs->pdata, order->pdata, order->len * sizeof (gpointer));
          changed = TRUE;
        }
    }
  if (changed)
    find_varying (s);
}

/* The order fields are named in a run's label: the workload (lengths) before the load,
 * so the runs of one ISL × OSL cell read alike ("isl 1024 · osl 128 · c 16"). The model,
 * when it is needed at all, leads. */
static const IvField label_order[] = {
  IV_FIELD_MODEL,        IV_FIELD_ISL,           IV_FIELD_OSL,           IV_FIELD_CONCURRENCY,
  IV_FIELD_REQUEST_RATE, IV_FIELD_REQUEST_COUNT, IV_FIELD_ENDPOINT_TYPE, IV_FIELD_STREAMING,
};

/* How one field reads in a label: with its key alone ("concurrency 8") or beside others,
 * short ("c 8", "isl 1024"); a model or an endpoint type by its value; streaming as a
 * word. */
static void
append_field (GString *label, const IvRun *r, IvField f, const char *v, gboolean alone)
{
  static const char *const brief[IV_N_FIELDS] = {
    [IV_FIELD_CONCURRENCY] = "c", [IV_FIELD_REQUEST_RATE] = "rate", [IV_FIELD_ISL] = "isl",
    [IV_FIELD_OSL] = "osl",       [IV_FIELD_REQUEST_COUNT] = "n",
  };

  if (label->len)
    g_string_append (label, " · ");
  if (f == IV_FIELD_MODEL || f == IV_FIELD_ENDPOINT_TYPE)
    g_string_append (label, v);
  else if (f == IV_FIELD_STREAMING)
    g_string_append (label, r->streaming ? "streaming" : "not streaming");
  else
    g_string_append_printf (label, "%s %s", alone ? fields[f].key : brief[f], v);
}

/* @r's label from the varying fields, the model among them when @with_model; NULL when
 * the run lacks one of them (a CSV-only run, an old summary): its folder tells it apart,
 * "c –" would not. */
static char *
label_of (const IvSweep *s, const IvRun *r, gboolean with_model)
{
  g_autoptr (GString) label = g_string_new (NULL);
  guint named = 0;

  for (guint i = 0; i < s->varying->len; i++)
    named += GPOINTER_TO_UINT (s->varying->pdata[i]) != IV_FIELD_MODEL || with_model;
  for (guint k = 0; k < G_N_ELEMENTS (label_order); k++)
    {
      IvField f = label_order[k];
      g_autofree char *v = NULL;
      if (!g_ptr_array_find (s->varying, GUINT_TO_POINTER (f), NULL)
          || (f == IV_FIELD_MODEL && !with_model))
        continue;
      if (!(v = iv_run_field_text (r, f)))
        return NULL;
      append_field (label, r, f, v, named == 1);
    }
  return label->len ? g_string_free (g_steal_pointer (&label), FALSE) : NULL;
}

/* Whether labels name the model: when it is all that varies, or when without it two runs
 * would read the same (two models swept over the same loads). Otherwise the model is the
 * series' colour and the table's Model column, not each point's label. */
static gboolean
label_needs_model (const IvSweep *s)
{
  g_autoptr (GHashTable) seen = NULL;

  if (!g_ptr_array_find (s->varying, GUINT_TO_POINTER (IV_FIELD_MODEL), NULL))
    return FALSE;
  if (s->varying->len == 1)
    return TRUE;
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < s->runs->len; i++)
    {
      char *label = label_of (s, s->runs->pdata[i], FALSE);
      if (label && !g_hash_table_add (seen, label))
        return TRUE;
    }
  return FALSE;
}

gboolean
iv_sweep_labels_name (const IvSweep *s, IvField f)
{
  if (!g_ptr_array_find (s->varying, GUINT_TO_POINTER (f), NULL)
      || (f == IV_FIELD_MODEL && !s->label_model))
    return FALSE;
  for (guint i = 0; i < s->runs->len; i++)
    {
      g_autofree char *label = label_of (s, s->runs->pdata[i], s->label_model);
      if (!label)
        return FALSE;
    }
  return TRUE;
}

gboolean
iv_sweep_run_label_split (const IvSweep *s, const IvRun *r, char **group, char **member,
                          char **group_title)
{
  g_autoptr (GString) g = g_string_new (NULL), title = g_string_new (NULL);
  g_autoptr (GString) m = g_string_new (NULL);
  IvField named[G_N_ELEMENTS (label_order)];
  guint n = 0;

  for (guint k = 0; k < G_N_ELEMENTS (label_order); k++)
    if (g_ptr_array_find (s->varying, GUINT_TO_POINTER (label_order[k]), NULL)
        && (label_order[k] != IV_FIELD_MODEL || s->label_model))
      named[n++] = label_order[k];
  if (n < 2)
    return FALSE;
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *v = iv_run_field_text (r, named[k]);
      if (!v)
        return FALSE;
      if (k + 1 == n)
        {
          append_field (m, r, named[k], v, FALSE);
          continue;
        }
      /* values alone, "1024/128": the axis title names the fields once */
      g_string_append_printf (
          g, "%s%s", g->len ? "/" : "",
          named[k] == IV_FIELD_STREAMING ? (r->streaming ? "streaming" : "not streaming") : v);
      g_string_append_printf (title, "%s%s", title->len ? " / " : "",
                              named[k] == IV_FIELD_ISL   ? "ISL"
                              : named[k] == IV_FIELD_OSL ? "OSL"
                                                         : iv_field_title (named[k]));
    }
  *group = g_string_free (g_steal_pointer (&g), FALSE);
  *member = g_string_free (g_steal_pointer (&m), FALSE);
  if (group_title)
    *group_title = g_string_free (g_steal_pointer (&title), FALSE);
  return TRUE;
}

char *
iv_sweep_run_label (const IvSweep *s, const IvRun *r)
{
  char *label = label_of (s, r, s->label_model);

  return label ? label : g_strdup (r->name);
}
