/* iv-runs-table.c: the Runs tables, composed once (see the header). */
#define G_LOG_DOMAIN "iv-render"

#include "iv-runs-table.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-render-runs.h"
#include "iv-run-series.h"
#include "iv-units.h"

char *
iv_runs_table_number (double v, const char *unit)
{
  g_autofree char *num = NULL;

  if (!isfinite (v))
    return g_strdup ("–");
  /* a duration in its own unit: "3.66 s", not "3.66k ms" */
  if (g_strcmp0 (unit, "ms") == 0)
    return iv_units_format_seconds (v * 1e-3);
  /* under 100,000, whole: "3634" in a column of milliseconds reads better than "3.63k" */
  if (fabs (v) >= 1000 && fabs (v) < 1e5)
    return unit && *unit ? g_strdup_printf ("%.0f %s", v, unit) : g_strdup_printf ("%.0f", v);
  num = iv_units_format_si (v, NULL);
  return unit && *unit ? g_strdup_printf ("%s %s", num, unit) : g_steal_pointer (&num);
}

char *
iv_runs_table_cell_text (const IvTableCell *c)
{
  return c->text ? g_strdup (c->text) : iv_runs_table_number (c->value, c->unit);
}

static IvRunsTable *
table_new (const char *const *titles)
{
  IvRunsTable *t = g_new0 (IvRunsTable, 1);

  t->titles = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; titles[i]; i++)
    g_ptr_array_add (t->titles, g_strdup (titles[i]));
  t->n_columns = t->titles->len;
  t->rows = g_array_new (FALSE, TRUE, sizeof (IvRunsTableRow));
  t->constants = g_array_new (FALSE, TRUE, sizeof (IvRunsTableConstant));
  return t;
}

static IvTableCell *
row_add (IvRunsTable *t, guint index)
{
  IvRunsTableRow row = { index, g_new0 (IvTableCell, t->n_columns) };

  for (guint i = 0; i < t->n_columns; i++)
    row.cells[i].value = NAN;
  g_array_append_val (t->rows, row);
  return row.cells;
}

static void
set_text (IvTableCell *c, const char *text)
{
  g_free (c->text);
  c->text = g_strdup (text ? text : "–");
}

static void
set_number (IvTableCell *c, double value, const char *unit)
{
  c->value = value;
  c->unit = unit;
}

void
iv_runs_table_free (IvRunsTable *t)
{
  if (!t)
    return;
  for (guint r = 0; r < t->rows->len; r++)
    {
      IvRunsTableRow *row = &g_array_index (t->rows, IvRunsTableRow, r);
      for (guint c = 0; c < t->n_columns; c++)
        g_free (row->cells[c].text);
      g_free (row->cells);
    }
  g_array_unref (t->rows);
  for (guint k = 0; k < t->constants->len; k++)
    {
      g_free (g_array_index (t->constants, IvRunsTableConstant, k).title);
      g_free (g_array_index (t->constants, IvRunsTableConstant, k).text);
    }
  g_array_unref (t->constants);
  g_ptr_array_unref (t->titles);
  g_free (t);
}

char *
iv_runs_table_constants_text (const IvRunsTable *t)
{
  GString *line;

  if (t->constants->len == 0)
    return NULL;
  line = g_string_new (NULL);
  for (guint k = 0; k < t->constants->len; k++)
    {
      const IvRunsTableConstant *c = &g_array_index (t->constants, IvRunsTableConstant, k);
      /* TRANSLATORS: a column's title and the value every run has, "Model: Qwen3" */
      g_string_append_printf (line, _ ("%s%s: %s"), k ? " · " : "", c->title, c->text);
    }
  return g_string_free (line, FALSE);
}

static void
constant_add (IvRunsTable *t, const char *title, const char *text)
{
  IvRunsTableConstant c = { g_strdup (title), g_strdup (text) };
  g_array_append_val (t->constants, c);
}

/* A column every run reads alike is a 230 px column saying one thing: said once, above the
 * table; one with nothing in any row goes, and so does @named, a column whose value every
 * run's name says already ("isl 128 · osl 128 · c 16" needs no Concurrency column; -1:
 * none). The first column (the run) always stays, and one run is a table of one row, not
 * a sweep with constants. */
static void
fold_constants (IvRunsTable *t, int named)
{
  g_autofree gboolean *fold = NULL;
  guint kept = 0;

  if (t->rows->len < 2)
    return;
  fold = g_new0 (gboolean, t->n_columns);
  if (named > 0 && (guint) named < t->n_columns)
    fold[named] = TRUE;
  for (guint c = 1; c < t->n_columns; c++)
    if (!fold[c])
      {
        g_autofree char *first
            = iv_runs_table_cell_text (&g_array_index (t->rows, IvRunsTableRow, 0).cells[c]);
        fold[c] = TRUE;
        for (guint i = 1; i < t->rows->len && fold[c]; i++)
          {
            g_autofree char *text
                = iv_runs_table_cell_text (&g_array_index (t->rows, IvRunsTableRow, i).cells[c]);
            fold[c] = g_str_equal (text, first);
          }
        if (fold[c] && !g_str_equal (first, "–"))
          constant_add (t, t->titles->pdata[c], first);
      }
  for (guint c = 0; c < t->n_columns; c++)
    {
      if (fold[c])
        {
          g_free (t->titles->pdata[c]);
          for (guint i = 0; i < t->rows->len; i++)
            g_free (g_array_index (t->rows, IvRunsTableRow, i).cells[c].text);
          continue;
        }
      t->titles->pdata[kept] = t->titles->pdata[c];
      for (guint i = 0; i < t->rows->len; i++)
        {
          IvTableCell *cells = g_array_index (t->rows, IvRunsTableRow, i).cells;
          cells[kept] = cells[c];
        }
      kept++;
    }
  /* the titles moved down already: nothing more to free */
  g_ptr_array_set_free_func (t->titles, NULL);
  g_ptr_array_set_size (t->titles, kept);
  g_ptr_array_set_free_func (t->titles, g_free);
  t->n_columns = kept;
}

/* The configuration fields that are no column of the comparison, when every run has the
 * same value of them: the rest of what the runs share ("endpoint type: chat"), said with
 * the configuration columns folded (the model, the concurrency), before what was measured
 * (requests, errors). */
static void
add_constant_fields (IvRunsTable *t, const IvSweep *sweep)
{
  guint at = 0;

  while (at < t->constants->len
         && (g_str_equal (g_array_index (t->constants, IvRunsTableConstant, at).title, _ ("Model"))
             || g_str_equal (g_array_index (t->constants, IvRunsTableConstant, at).title,
                             _ ("Concurrency"))))
    at++;
  static const IvField more[]
      = { IV_FIELD_ISL, IV_FIELD_OSL, IV_FIELD_ENDPOINT_TYPE, IV_FIELD_STREAMING };

  if (sweep->runs->len < 2)
    return;
  for (guint k = 0; k < G_N_ELEMENTS (more); k++)
    {
      g_autofree char *first = iv_run_field_text (sweep->runs->pdata[0], more[k]);
      gboolean same = first != NULL;
      for (guint i = 1; i < sweep->runs->len && same; i++)
        {
          g_autofree char *v = iv_run_field_text (sweep->runs->pdata[i], more[k]);
          same = g_strcmp0 (v, first) == 0;
        }
      if (same)
        {
          IvRunsTableConstant c = { g_strdup (iv_field_title (more[k])), g_strdup (first) };
          g_array_insert_val (t->constants, at++, c);
        }
    }
}

enum
{
  COL_RUN,
  COL_MODEL,
  COL_CONCURRENCY,
  COL_REQUESTS,
  COL_ERRORS,
  COL_TTFT,
  COL_ITL,
  COL_LATENCY,
  COL_TOKENS,
  N_FIXED
};

IvRunsTable *
iv_runs_table_comparison (const IvSweep *sweep, const IvRunsBoundChoice *bound)
{
  const char *titles[N_FIXED + 5]
      = { _ ("Run"),      _ ("Model"),   _ ("Concurrency"), _ ("Requests"),        _ ("Errors"),
          _ ("TTFT p50"), _ ("ITL avg"), _ ("Latency p99"), _ ("Output tokens/s"), NULL };
  gboolean kv = FALSE;
  guint n = N_FIXED, col_kv = 0, col_bound = 0;
  IvRunsTable *t;

  /* the server's KV cache only when a run has it: a column of dashes says nothing */
  for (guint i = 0; i < sweep->runs->len && !kv; i++)
    kv = isfinite (iv_run_axis_value (sweep->runs->pdata[i], "server_kv_cache_usage", "avg"));
  if (kv)
    col_kv = n, titles[n++] = _ ("Server KV cache avg");
  if (bound && bound->hardware)
    {
      col_bound = n;
      titles[n++] = _ ("Bound ITL");
      titles[n++] = _ ("ITL of bound");
      titles[n++] = _ ("Tokens/s of bound");
    }
  titles[n] = NULL;
  t = table_new (titles);
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      g_autofree char *label = iv_sweep_run_label (sweep, r);
      IvTableCell *c = row_add (t, i);
      double summary = iv_run_summary_requests (r);

      set_text (&c[COL_RUN], label);
      set_text (&c[COL_MODEL], r->model);
      set_number (&c[COL_CONCURRENCY], r->concurrency, NULL);
      /* the requests AIPerf counted; the records present beside them when they are fewer */
      if (!r->has_records)
        set_number (&c[COL_REQUESTS], summary, NULL);
      else if (isnan (summary) || (double) iv_run_good_records (r) >= summary)
        set_number (&c[COL_REQUESTS], (double) r->n_requests, NULL);
      else
        {
          g_autofree char *of
              = g_strdup_printf (_ ("%" G_GSIZE_FORMAT " of %.0f"), r->n_requests, summary);
          set_text (&c[COL_REQUESTS], of);
          c[COL_REQUESTS].value = (double) r->n_requests;
        }
      set_number (&c[COL_ERRORS], (double) r->n_errors, NULL);
      set_number (&c[COL_TTFT], iv_run_axis_value (r, "time_to_first_token", "p50"), "ms");
      set_number (&c[COL_ITL], iv_run_axis_value (r, "inter_token_latency", "avg"), "ms");
      set_number (&c[COL_LATENCY], iv_run_axis_value (r, "request_latency", "p99"), "ms");
      set_number (&c[COL_TOKENS], iv_run_axis_value (r, "output_token_throughput", "avg"), NULL);
      if (kv)
        set_number (&c[col_kv], iv_run_axis_value (r, "server_kv_cache_usage", "avg"), "%");
      if (col_bound)
        {
          IvRunBound b;
          iv_run_bound_compute (r, bound->model, bound->hardware, bound->tp, &b);
          set_number (&c[col_bound], b.predicted[IV_BOUND_ITL] * 1e3, "ms");
          if (!b.ok)
            set_text (&c[col_bound], _ ("no preset"));
          set_number (&c[col_bound + 1], 100 * b.efficiency[IV_BOUND_ITL], "%");
          set_number (&c[col_bound + 2], 100 * b.efficiency[IV_BOUND_THROUGHPUT], "%");
          iv_run_bound_clear (&b);
        }
    }
  fold_constants (t, iv_sweep_labels_name (sweep, IV_FIELD_CONCURRENCY) ? COL_CONCURRENCY : -1);
  add_constant_fields (t, sweep);
  return t;
}

static const char *
source_text (IvStatsSource s)
{
  switch (s)
    {
    case IV_STATS_SUMMARY:
      return _ ("AIPerf summary");
    case IV_STATS_RECORDS:
      return _ ("records");
    case IV_STATS_SERVER_AGGREGATE:
      return _ ("server (AIPerf aggregate)");
    case IV_STATS_SERVER_SERIES:
      return _ ("server (time series)");
    default:
      return "";
    }
}

IvRunsTable *
iv_runs_table_metrics (const IvRun *r)
{
  const char *titles[] = { _ ("Metric"), _ ("avg"), _ ("min"), _ ("p50"),    _ ("p90"), _ ("p95"),
                           _ ("p99"),    _ ("max"), _ ("std"), _ ("Source"), NULL };
  g_autoptr (GPtrArray) tags = iv_run_metric_tags (r);
  IvRunsTable *t = table_new (titles);

  for (guint i = 0; i < tags->len; i++)
    {
      IvMetricSummary s = { 0 };
      g_autofree char *name = NULL, *named = NULL;
      IvTableCell *c;
      double v[8];
      if (!iv_run_metric_stats (r, tags->pdata[i], &s))
        continue;
      c = row_add (t, i);
      name = iv_metric_title (tags->pdata[i]);
      /* the unit once, with the name: the numbers stay narrow */
      named = s.unit && *s.unit ? g_strdup_printf ("%s (%s)", name, s.unit) : g_strdup (name);
      set_text (&c[0], named);
      v[0] = s.avg, v[1] = s.min, v[2] = s.p50, v[3] = s.p90, v[4] = s.p95, v[5] = s.p99,
      v[6] = s.max, v[7] = s.std;
      for (guint k = 0; k < 8; k++)
        set_number (&c[k + 1], v[k], NULL);
      set_text (&c[9], source_text (s.source));
      iv_metric_summary_clear (&s);
    }
  return t;
}
