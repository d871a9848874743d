/* iv-runs-notes.c: the notes on runs, composed once (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-runs-notes.h"

#include <glib/gi18n.h>

static void
note_free (gpointer p)
{
  IvRunsNote *n = p;
  g_free (n->text);
  g_ptr_array_unref (n->runs);
  g_free (n);
}

/* @text (taken) said of @run (NULL: the sweep): joins the note of the same text. */
static void
say (GPtrArray *notes, IvRunsNoteKind kind, char *text, const IvRun *run)
{
  IvRunsNote *n = NULL;

  for (guint i = 0; run && i < notes->len && !n; i++)
    {
      IvRunsNote *o = notes->pdata[i];
      if (o->runs->len && g_str_equal (o->text, text))
        n = o;
    }
  if (n)
    {
      g_free (text);
      g_ptr_array_add (n->runs, (gpointer) run);
      return;
    }
  n = g_new (IvRunsNote, 1);
  n->text = text;
  n->kind = kind;
  n->runs = g_ptr_array_new ();
  if (run)
    g_ptr_array_add (n->runs, (gpointer) run);
  g_ptr_array_add (notes, n);
}

GPtrArray *
iv_runs_notes (const IvSweep *sweep, const IvRun *only, IvRunsNotesFlags flags)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (note_free);

  if (!only)
    for (guint i = 0; i < sweep->warnings->len; i++)
      say (notes, IV_RUNS_NOTE_NOT_LOADED, g_strdup (sweep->warnings->pdata[i]), NULL);
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      char *records, *gpu;
      if (only && r != only)
        continue;
      if ((records = iv_run_records_note (r)))
        say (notes, IV_RUNS_NOTE_OF_RUNS, records, r);
      if ((flags & IV_RUNS_NOTES_GPU) && (gpu = iv_run_gpu_note (r)))
        say (notes, IV_RUNS_NOTE_OF_RUNS, gpu, r);
      /* a warning names its file: said as it is */
      for (guint w = 0; w < r->warnings->len; w++)
        say (notes, IV_RUNS_NOTE_WARNING, g_strdup (r->warnings->pdata[w]), NULL);
    }
  if (only)
    {
      /* which metrics the records would tell differently: names only, the numbers are in
       * `runs --json` */
      g_autoptr (GPtrArray) tags = iv_run_metric_tags (only);
      g_autoptr (GString) differ = g_string_new (NULL);
      for (guint i = 0; i < tags->len; i++)
        {
          g_autofree char *d = iv_run_stats_note (only, tags->pdata[i]);
          if (d)
            g_string_append_printf (differ, "%s%s", differ->len ? ", " : "",
                                    (const char *) tags->pdata[i]);
        }
      if (differ->len)
        say (notes, IV_RUNS_NOTE_DIFFER,
             g_strdup_printf (_ ("From the summary, where the records differ: %s"), differ->str),
             NULL);
    }
  return notes;
}

char *
iv_runs_note_line (const IvRunsNote *n, const IvSweep *sweep, const IvRun *only)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree char *list = NULL;

  if (only || n->runs->len == 0)
    return g_strdup (n->text);
  if (n->runs->len == sweep->runs->len && n->runs->len > 1)
    return g_strdup_printf (_ ("every run: %s"), n->text);
  names = g_ptr_array_new ();
  for (guint i = 0; i < n->runs->len; i++)
    g_ptr_array_add (names, ((const IvRun *) n->runs->pdata[i])->name);
  g_ptr_array_add (names, NULL);
  list = g_strjoinv (", ", (char **) names->pdata);
  return g_strdup_printf ("%s: %s", list, n->text);
}
