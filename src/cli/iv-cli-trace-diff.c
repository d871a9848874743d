/* iv-cli-trace-diff.c: `inferview trace A B --diff`, two traces compared (src/trace/
 * iv-trace-diff.h): the largest changes by name as a table or JSON. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "config.h"
#include "iv-cli-private.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-json-writer.h"
#include "iv-trace-charts.h"
#include "iv-cli-trace-diff.h"
#include "iv-trace-diff.h"
#include "iv-units.h"

static char *
ns_text (gint64 ns)
{
  if (ns == 0)
    return g_strdup ("0");
  return iv_units_format_amount ((double) ns, "ns");
}

static char *
signed_ns_text (gint64 ns)
{
  g_autofree char *abs = ns_text (ns < 0 ? -ns : ns);
  return g_strdup_printf ("%s%s", ns > 0 ? "+" : ns < 0 ? "−" : "", abs);
}

/* The change relative to the first trace: "+12 %", "new", "gone". */
static char *
share_text (gint64 a, gint64 b)
{
  if (a == 0)
    return g_strdup (b == 0 ? "" : "new");
  if (b == 0)
    return g_strdup ("gone");
  return g_strdup_printf ("%+.0f %%", 100.0 * ((double) b - (double) a) / (double) a);
}

/* [first trace's, second trace's] */
static void
write_pair_ns (IvJsonWriter *w, const char *key, const gint64 v[2])
{
  iv_json_writer_key (w, key);
  iv_json_writer_begin_array (w);
  iv_json_writer_int (w, v[0]);
  iv_json_writer_int (w, v[1]);
  iv_json_writer_end_array (w);
}

static void
print_json (const IvTraceDiff *d, const char *a, const char *b, guint top)
{
  IvJsonWriter *w = iv_json_writer_new (TRUE);
  g_autofree char *text = NULL;

  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "traces");
  iv_json_writer_begin_array (w);
  iv_json_writer_string (w, a);
  iv_json_writer_string (w, b);
  iv_json_writer_end_array (w);
  if (d->step[0] < 0)
    {
      iv_json_writer_key (w, "steps");
      iv_json_writer_null (w);
    }
  else
    write_pair_ns (w, "steps", d->step);
  iv_json_writer_key (w, "gpu");
  iv_json_writer_begin_object (w);
  write_pair_ns (w, "busy_ns", d->busy_ns);
  /* a distributed job's busy is the sum of each rank's GPU busy time */
  iv_json_writer_key (w, "busy_summed_per_rank");
  iv_json_writer_begin_array (w);
  iv_json_writer_bool (w, d->per_process[0]);
  iv_json_writer_bool (w, d->per_process[1]);
  iv_json_writer_end_array (w);
  write_pair_ns (w, "idle_ns", d->idle_ns);
  iv_json_writer_key (w, "busy_by_class_ns");
  iv_json_writer_begin_object (w);
  for (int k = 0; k < IV_N_KCLASSES; k++)
    {
      gint64 v[2] = { d->class_ns[0][k], d->class_ns[1][k] };
      write_pair_ns (w, iv_kernel_class_name ((IvKernelClass) k), v);
    }
  iv_json_writer_end_object (w);
  iv_json_writer_end_object (w);
  iv_json_writer_key (w, "added");
  iv_json_writer_int (w, d->n_added);
  iv_json_writer_key (w, "removed");
  iv_json_writer_int (w, d->n_removed);
  iv_json_writer_key (w, "entries");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < d->entries->len && (top == 0 || i < top); i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (d->entries, IvTraceDiffEntry, i);
      gint64 counts[2] = { (gint64) e->count[0], (gint64) e->count[1] };
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "kind");
      iv_json_writer_string (w, iv_row_kind_key (e->kind));
      iv_json_writer_key (w, "name");
      iv_json_writer_string (w, e->name);
      iv_json_writer_key (w, "path");
      iv_json_writer_string (w, e->path);
      write_pair_ns (w, "count", counts);
      write_pair_ns (w, "total_ns", e->total_ns);
      iv_json_writer_key (w, "delta_ns");
      iv_json_writer_int (w, iv_trace_diff_delta_ns (e));
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_end_object (w);
  text = iv_json_writer_finish (w);
  printf ("%s\n", text);
}

static void
print_text (const IvTraceDiff *d, const char *a, const char *b, guint top)
{
  _iv_cli_printf (stdout, "A: %s\n", a);
  _iv_cli_printf (stdout, "B: %s\n", b);
  if (d->step[0] >= 0)
    _iv_cli_printf (stdout,
                    "Compared: ProfilerStep#%" G_GINT64_FORMAT
                    " of A with ProfilerStep#%" G_GINT64_FORMAT " of B\n",
                    d->step[0], d->step[1]);
  else
    _iv_cli_printf (stdout, "Compared: the whole traces\n");
  {
    g_autofree char *ba = ns_text (d->busy_ns[0]), *bb = ns_text (d->busy_ns[1]);
    g_autofree char *ia = ns_text (d->idle_ns[0]), *ib = ns_text (d->idle_ns[1]);
    g_autofree char *sb = share_text (d->busy_ns[0], d->busy_ns[1]);
    g_autofree char *si = share_text (d->idle_ns[0], d->idle_ns[1]);
    _iv_cli_printf (stdout, "\n");
    _iv_cli_printf (stdout, "GPU busy  %12s → %-12s %s%s\n", ba, bb, sb,
                    d->per_process[0] && d->per_process[1] ? _ ("  (each rank's, summed)")
                    : d->per_process[0]                    ? _ ("  (A: each rank's, summed)")
                    : d->per_process[1]                    ? _ ("  (B: each rank's, summed)")
                                                           : "");
    _iv_cli_printf (stdout, "GPU idle  %12s → %-12s %s\n", ia, ib, si);
    for (int k = 0; k < IV_N_KCLASSES; k++)
      {
        g_autofree char *ca = ns_text (d->class_ns[0][k]), *cb = ns_text (d->class_ns[1][k]);
        g_autofree char *sc = share_text (d->class_ns[0][k], d->class_ns[1][k]);
        _iv_cli_printf (stdout, "  %-8s%12s → %-12s %s\n", iv_kernel_class_name ((IvKernelClass) k),
                        ca, cb, sc);
      }
  }
  _iv_cli_printf (stdout, "\n");
  _iv_cli_printf (stdout, "%u names in B only, %u in A only; the largest changes first:\n",
                  d->n_added, d->n_removed);
  _iv_cli_printf (stdout, "\n");
  _iv_cli_printf (stdout, "%-10s %9s %9s %12s %12s %12s %7s  %s\n", "kind", "count A", "count B",
                  "time A", "time B", "Δ time", "Δ", "name (CPU operators: their call path)");
  for (guint i = 0; i < d->entries->len && (top == 0 || i < top); i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (d->entries, IvTraceDiffEntry, i);
      g_autofree char *ta = ns_text (e->total_ns[0]), *tb = ns_text (e->total_ns[1]);
      g_autofree char *dt = signed_ns_text (iv_trace_diff_delta_ns (e));
      g_autofree char *sh = share_text (e->total_ns[0], e->total_ns[1]);
      _iv_cli_printf (
          stdout, "%-10s %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %12s %12s %12s %7s  %s\n",
          iv_row_kind_key (e->kind), e->count[0], e->count[1], ta, tb, dt, sh,
          e->path ? e->path : e->name);
    }
  if (top && d->entries->len > top)
    _iv_cli_printf (stdout, "… %u more (--top 0 lists all)\n", d->entries->len - top);
}

int
_iv_cli_trace_diff (const IvTrace *a, const IvTrace *b, const char *const names[2],
                    const gboolean jobs[2], const char *steps, gboolean json, guint top,
                    const char *output, const IvExportOptions *eo)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvTraceDiff) d = NULL;
  gint64 sa = -1, sb = -1;
  IvStatsFlags flags[2];

  if (steps)
    {
      /* "N" compares step N of both; "N:M" step N of A with step M of B */
      g_auto (GStrv) parts = g_strsplit (steps, ":", 2);
      guint64 u;
      if (!parts[0] || !g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXINT64, &u, NULL))
        return _iv_cli_usage_error (
            "trace", _ ("--step takes N or N:M (ProfilerStep numbers), not “%s”"), steps);
      sa = sb = (gint64) u;
      if (parts[1])
        {
          if (!g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXINT64, &u, NULL))
            return _iv_cli_usage_error (
                "trace", _ ("--step takes N or N:M (ProfilerStep numbers), not “%s”"), steps);
          sb = (gint64) u;
        }
    }
  flags[0] = jobs[0] ? IV_STATS_PER_PROCESS : IV_STATS_DEFAULT;
  flags[1] = jobs[1] ? IV_STATS_PER_PROCESS : IV_STATS_DEFAULT;
  d = iv_trace_diff_new_full (a, b, sa, sb, flags, &error);
  if (!d)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (output)
    {
      /* as many bars as the page holds at its text size: a row is about 1.6 lines, and
         titles, axis and legend take about 8 lines */
      double line = (eo->text_pt > 0 ? eo->text_pt : 10) * 96 / 72 * 1.3;
      guint fit = (guint) CLAMP ((eo->height / line - 8) / 1.6, 4, 20);
      g_autoptr (IvChart) chart = iv_trace_chart_diff (d, top ? MIN (top, fit) : fit);
      IvFigure figure = { iv_chart_render, chart, "trace-diff", NULL };
      if (!chart)
        {
          _iv_cli_printf (stderr,
                          "inferview trace: %s and %s: no name changed its time; no "
                          "figure written\n",
                          names[0], names[1]);
          return IV_EXIT_BAD_INPUT;
        }
      if (!iv_export_to_file (&figure, eo, output, &error))
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      return IV_EXIT_OK;
    }
  if (json)
    print_json (d, names[0], names[1], top);
  else
    print_text (d, names[0], names[1], top);
  return IV_EXIT_OK;
}
