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
  if (s->runs->len == 0)
    {
      if (first)
        g_propagate_error (error, g_steal_pointer (&first));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("no AIPerf run found"));
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

char *
iv_sweep_run_label (const IvSweep *s, const IvRun *r)
{
  GString *label = g_string_new (NULL);

  for (guint i = 0; i < s->varying->len; i++)
    {
      IvField f = GPOINTER_TO_UINT (s->varying->pdata[i]);
      g_autofree char *v = iv_run_field_text (r, f);
      if (f == IV_FIELD_MODEL && s->varying->len > 1)
        continue; /* the model is the series' colour, not the point's label */
      if (!v)
        {
          /* a run without that part of the configuration (a CSV-only run, an old
           * summary): its folder tells it apart, "concurrency –" would not */
          g_string_assign (label, "");
          break;
        }
      if (label->len)
        g_string_append (label, ", ");
      g_string_append_printf (label, "%s %s", fields[f].key, v);
    }
  if (label->len == 0)
    g_string_append (label, r->name);
  return g_string_free (label, FALSE);
}
