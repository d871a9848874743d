/* iv-run-csv.c: AIPerf's CSV summary (profile_export_aiperf.csv), for runs that kept only
 * it. Three sections separated by blank lines: statistics ("Metric,avg,min,…"), single
 * values ("Metric,Value") and GPU telemetry ("Endpoint,GPU_Index,…", not kept: the run
 * has no samples to draw). Metrics are named for display — "Time to First Token (ms)" —
 * so the tag is the name folded to snake case and the unit comes from the parentheses;
 * the CSV rounds to two decimals, which the run's warning says. */
#define G_LOG_DOMAIN "iv-runs"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-csv.h"
#include "iv-run-private.h"

gboolean
_iv_run_is_display_name (const char *key)
{
  for (const char *p = key; *p; p++)
    if (*p == ' ' || g_ascii_isupper (*p))
      return TRUE;
  return FALSE;
}

/* The first @name_len bytes of a display name as a tag. */
static char *
fold (const char *display, gsize name_len)
{
  GString *tag = g_string_new (NULL);

  for (gsize i = 0; i < name_len; i++)
    {
      char c = display[i];
      if (g_ascii_isalnum (c))
        g_string_append_c (tag, g_ascii_tolower (c));
      else if (tag->len && tag->str[tag->len - 1] != '_')
        g_string_append_c (tag, '_');
    }
  while (tag->len && tag->str[tag->len - 1] == '_')
    g_string_truncate (tag, tag->len - 1);
  return g_string_free (tag, FALSE);
}

char *
_iv_run_fold_display_name (const char *display)
{
  const char *open = strrchr (display, '(');
  const char *close = open ? strchr (open, ')') : NULL;
  return fold (display, open && close ? (gsize) (open - display) : strlen (display));
}

/* "Time to First Token (ms)" → tag "time_to_first_token", unit "ms". */
static char *
tag_of (const char *display, char **unit)
{
  const char *open = strrchr (display, '(');
  const char *close = open ? strchr (open, ')') : NULL;

  *unit = open && close ? g_strndup (open + 1, (gsize) (close - open - 1)) : g_strdup ("");
  return fold (display, open && close ? (gsize) (open - display) : strlen (display));
}

static double
cell_number (const char *text)
{
  char *end = NULL;
  double v;

  if (!text || !*text)
    return NAN;
  v = g_ascii_strtod (text, &end);
  return end && *end == '\0' && isfinite (v) ? v : NAN;
}

gboolean
_iv_run_load_summary_csv (IvRun *r, IvInput *in, GError **error)
{
  gsize len = 0;
  g_autofree char *text = iv_input_read_all (in, IV_INPUT_DOCUMENT_MAX, &len, error);
  const char *cursor, *end;
  g_autoptr (GPtrArray) header = NULL;
  guint line = 0, kept = 0;

  if (!text)
    return FALSE;
  cursor = text, end = text + len;
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    cursor += 3;
  for (;;)
    {
      g_autoptr (GPtrArray) row = iv_csv_next_record (&cursor, end);
      const char *first;

      if (!row)
        break;
      line++;
      if (row->len == 0)
        {
          g_clear_pointer (&header, g_ptr_array_unref);
          continue;
        }
      first = row->pdata[0];
      if (!header)
        {
          /* a section's header: statistics or single values by metric; GPUs are passed over */
          if (g_str_equal (first, "Metric"))
            header = g_ptr_array_ref (row);
          else if (!g_str_equal (first, "Endpoint"))
            {
              g_set_error (
                  error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                  _ ("%s: line %u: not an AIPerf summary (a section starts “%s”, not “Metric”)"),
                  iv_input_get_name (in), line, first);
              return FALSE;
            }
          else
            header = g_ptr_array_ref (row);
          continue;
        }
      if (!g_str_equal (header->pdata[0], "Metric"))
        continue;
      {
        g_autofree char *unit = NULL;
        g_autofree char *tag = tag_of (first, &unit);
        IvMetricSummary *s;

        if (!*tag || g_hash_table_contains (r->summary, tag))
          continue;
        s = g_new0 (IvMetricSummary, 1);
        s->unit = g_steal_pointer (&unit);
        s->avg = s->min = s->max = s->std = s->count = NAN;
        s->p1 = s->p5 = s->p10 = s->p25 = s->p50 = s->p75 = s->p90 = s->p95 = s->p99 = NAN;
        for (guint c = 1; c < header->len && c < row->len; c++)
          {
            const char *col = header->pdata[c];
            double v = cell_number (row->pdata[c]);
            /* "Value": the single-value section's one number */
            double *field = iv_metric_summary_stat (s, g_str_equal (col, "Value") ? "avg" : col);
            if (field && !g_str_equal (col, "mean"))
              *field = v;
          }
        s->source = IV_STATS_SUMMARY;
        _iv_run_add_summary (r, g_steal_pointer (&tag), s);
        kept++;
      }
    }
  if (kept == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("%s: no metric in this CSV summary"), iv_input_get_name (in));
      return FALSE;
    }
  if (iv_run_get_summary (r, "benchmark_duration"))
    r->duration_s = iv_run_get_summary (r, "benchmark_duration")->avg;
  _iv_run_warn (
      r,
      _ ("%s: only AIPerf's CSV summary is here — its numbers are rounded to two decimals, and "
         "without the JSON summary the run's configuration (model, concurrency) is unknown"),
      iv_input_get_name (in));
  return TRUE;
}

/* A time slice of @slices with @index, made when the file names it first (rows come in
 * slice order; a slice named again later is found by a walk from the end). */
static IvTimeslice *
slice_at (GPtrArray *slices, gint64 index)
{
  IvTimeslice *ts;

  for (guint i = slices->len; i > 0; i--)
    if (((IvTimeslice *) slices->pdata[i - 1])->index == index)
      return slices->pdata[i - 1];
  ts = g_new0 (IvTimeslice, 1);
  ts->index = index;
  ts->start_ns = ts->end_ns = -1;
  ts->complete = TRUE;
  ts->metrics = _iv_run_summary_table_new ();
  g_ptr_array_add (slices, ts);
  return ts;
}

static gint
compare_slices (gconstpointer a, gconstpointer b)
{
  const IvTimeslice *x = *(IvTimeslice *const *) a, *y = *(IvTimeslice *const *) b;
  return (x->index > y->index) - (x->index < y->index);
}

/* profile_export_aiperf_timeslices.csv as aiperf's TimesliceMetricsCsvExporter writes it:
 * tidy rows "Timeslice,Metric,Unit,Stat,Value" (Metric the display name, "Time to First
 * Token"; Value with two decimals), the columns found by name as aiperf plot's
 * _load_timeslices_csv requires them. */
gboolean
_iv_run_load_timeslices_csv (IvRun *r, IvInput *in, GError **error)
{
  gsize len = 0;
  g_autofree char *text = iv_input_read_all (in, IV_INPUT_DOCUMENT_MAX, &len, error);
  static const char *const wanted[] = { "Timeslice", "Metric", "Unit", "Stat", "Value" };
  gint col[G_N_ELEMENTS (wanted)];
  const char *cursor, *end;
  g_autoptr (GPtrArray) header = NULL;
  g_autoptr (GPtrArray) slices = NULL;
  guint line = 1;

  if (!text)
    return FALSE;
  cursor = text, end = text + len;
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    cursor += 3;
  header = iv_csv_next_record (&cursor, end);
  for (guint k = 0; k < G_N_ELEMENTS (wanted); k++)
    {
      col[k] = -1;
      for (guint c = 0; header && c < header->len; c++)
        if (g_str_equal (header->pdata[c], wanted[k]))
          col[k] = (gint) c;
      if (col[k] < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("%s: line 1: no column “%s” (time slices have Timeslice, Metric, "
                          "Unit, Stat and Value)"),
                       iv_input_get_name (in), wanted[k]);
          return FALSE;
        }
    }
  slices = g_ptr_array_new_with_free_func (_iv_timeslice_free);
  for (;;)
    {
      g_autoptr (GPtrArray) row = iv_csv_next_record (&cursor, end);
      g_autofree char *tag = NULL;
      IvTimeslice *ts;
      IvMetricSummary *s;
      double index, v, *field;

      if (!row)
        break;
      line++;
      if (row->len == 0)
        continue;
      if (row->len <= (guint) MAX (MAX (col[0], col[1]), MAX (MAX (col[2], col[3]), col[4])))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("%s: line %u: %u columns where the header has %u"),
                       iv_input_get_name (in), line, row->len, header->len);
          return FALSE;
        }
      index = cell_number (row->pdata[col[0]]);
      v = cell_number (row->pdata[col[4]]);
      tag = _iv_run_fold_display_name (row->pdata[col[1]]);
      if (!(index >= 0 && index < 1e9 && index == floor (index)) || !*tag)
        continue;
      ts = slice_at (slices, (gint64) index);
      if (!(s = g_hash_table_lookup (ts->metrics, tag)))
        {
          s = g_new0 (IvMetricSummary, 1);
          s->unit = g_strdup (row->pdata[col[2]]);
          s->avg = s->min = s->max = s->std = s->count = NAN;
          s->p1 = s->p5 = s->p10 = s->p25 = s->p50 = s->p75 = s->p90 = s->p95 = s->p99 = NAN;
          s->source = IV_STATS_SUMMARY;
          g_hash_table_insert (ts->metrics, g_strdup (tag), s);
        }
      field = iv_metric_summary_stat (s, row->pdata[col[3]]);
      if (field)
        *field = v;
    }
  g_ptr_array_sort (slices, compare_slices);
  {
    /* the run changes only once the whole file was read */
    gsize n = 0;
    gpointer *taken = g_ptr_array_steal (slices, &n);
    for (gsize i = 0; i < n; i++)
      g_ptr_array_add (r->timeslices_csv, taken[i]);
    g_free (taken);
  }
  return TRUE;
}
