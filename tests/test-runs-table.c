/* test-runs-table.c: the Runs tables and notes the window, the HTML report and
 * `inferview runs` share (src/render/iv-runs-table.c, src/runs/iv-runs-notes.c), on
 * AIPerf's own sample runs: every number the one in the run's profile_export_aiperf.json,
 * read here independently. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-hardware.h"
#include "iv-runs-notes.h"
#include "iv-runs-table.h"
#include "iv-sweep.h"

static char *
samples (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "aiperf", NULL);
}

/* @stat of @metric in the summary of the run folder named @run (anywhere below the
 * samples), as AIPerf wrote it. */
static double
summary_value (const char *path, const char *metric, const char *stat)
{
  g_autofree char *file = g_build_filename (path, "profile_export_aiperf.json", NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *root, *m;

  g_assert_true (json_parser_load_from_file (p, file, NULL));
  root = json_node_get_object (json_parser_get_root (p));
  if (json_object_has_member (root, "records"))
    root = json_object_get_object_member (root, "records");
  m = json_object_get_object_member (root, metric);
  return json_object_get_double_member (m, stat);
}

static const IvRunsTableRow *
row_at (const IvRunsTable *t, guint i)
{
  return &g_array_index (t->rows, IvRunsTableRow, i);
}

static guint
column (const IvRunsTable *t, const char *title)
{
  for (guint c = 0; c < t->n_columns; c++)
    if (g_str_equal (t->titles->pdata[c], title))
      return c;
  g_assert_not_reached ();
}

static void
test_number (void)
{
  struct
  {
    double v;
    const char *unit, *want;
  } cases[] = {
    { 3909.334, "ms", "3.91 s" },                         /* never "3.91k ms" */
    { 30.67, "ms", "30.7 ms" },   { 3634, NULL, "3634" }, /* whole under 100,000 */
    { 99999, "%", "99999 %" },    { 123456, NULL, "123k" },
    { 50.08, NULL, "50.1" },      { NAN, "ms", "–" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = iv_runs_table_number (cases[i].v, cases[i].unit);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

static void
test_comparison (void)
{
  g_autofree char *root = samples ();
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (IvRunsTable) t = NULL, bound = NULL;
  /* Model, Requests and Errors read alike in every run: no columns but said once above;
   * the concurrency is in every run's name ("concurrency 4"): no column either */
  static const char *const titles[]
      = { "Run", "TTFT p50", "ITL avg", "Latency p99", "Output tokens/s", "Server KV cache avg" };
  IvRunsBoundChoice choice = { iv_hardware_find ("h100x8"), NULL, 1 };
  g_autofree char *shared = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  t = iv_runs_table_comparison (sweep, NULL);
  g_assert_cmpuint (t->n_columns, ==, G_N_ELEMENTS (titles));
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    g_assert_cmpstr (t->titles->pdata[c], ==, titles[c]);
  shared = iv_runs_table_constants_text (t);
  /* 10 of the 64 requests AIPerf counted have records in each: said, once */
  g_assert_cmpstr (shared, ==,
                   "Model: Qwen/Qwen3-0.6B · Input tokens (ISL): 100 · Output tokens (OSL): 200 · "
                   "Endpoint type: chat · Streaming: true · Requests: 10 of 64 · Errors: 0");
  g_assert_cmpuint (t->rows->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const IvRunsTableRow *row = row_at (t, i);
      const IvRun *r = sweep->runs->pdata[row->index];
      g_autofree char *named = g_strdup_printf ("concurrency %g", r->concurrency);
      g_assert_cmpstr (row->cells[0].text, ==, named);
      g_assert_cmpfloat_with_epsilon (row->cells[1].value,
                                      summary_value (r->path, "time_to_first_token", "p50"), 1e-9);
      g_assert_cmpstr (row->cells[1].unit, ==, "ms");
      g_assert_cmpfloat_with_epsilon (row->cells[2].value,
                                      summary_value (r->path, "inter_token_latency", "avg"), 1e-9);
      g_assert_cmpfloat_with_epsilon (row->cells[3].value,
                                      summary_value (r->path, "request_latency", "p99"), 1e-9);
      g_assert_cmpfloat_with_epsilon (
          row->cells[4].value, summary_value (r->path, "output_token_throughput", "avg"), 1e-9);
      g_assert_null (row->cells[1].text);
      g_assert_true (isfinite (row->cells[5].value));
    }
  /* concurrency 1, 2, 4 in that order, named by what varies */
  g_assert_cmpstr (row_at (t, 0)->cells[0].text, ==, "concurrency 1");
  g_assert_cmpstr (row_at (t, 2)->cells[0].text, ==, "concurrency 4");

  /* with hardware: three more columns, the efficiency the bound over the measurement */
  bound = iv_runs_table_comparison (sweep, &choice);
  g_assert_cmpuint (bound->n_columns, ==, G_N_ELEMENTS (titles) + 3);
  for (guint i = 0; i < 3; i++)
    {
      const IvRunsTableRow *row = row_at (bound, i);
      double bound_itl = row->cells[column (bound, "Bound ITL")].value;
      double of_bound = row->cells[column (bound, "ITL of bound")].value;
      g_assert_true (bound_itl > 0);
      g_assert_cmpfloat_with_epsilon (
          of_bound, 100 * bound_itl / row->cells[column (bound, "ITL avg")].value, 1e-6);
      g_assert_cmpstr (row->cells[column (bound, "ITL of bound")].unit, ==, "%");
    }
}

/* The ISL × OSL sample: 36 runs of one model, one endpoint, no errors. The Model column
 * (230 px of one name) and the other shared columns are folded into the constants, said
 * once; the run names carry the cell and the load; one run alone keeps every column. */
static void
test_constants (void)
{
  g_autofree char *root
      = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "isl-osl-sweep", NULL);
  g_autofree char *one = g_build_filename (root, "isl1024_osl128", "concurrency16", NULL);
  const char *paths[] = { root, NULL }, *single[] = { one, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (IvSweep) alone = NULL;
  g_autoptr (IvRunsTable) t = NULL, t1 = NULL;
  g_autofree char *shared = NULL;
  gboolean found = FALSE;

  g_assert_no_error (error);
  g_assert_cmpuint (sweep->runs->len, ==, 36);
  t = iv_runs_table_comparison (sweep, NULL);
  for (guint c = 0; c < t->n_columns; c++)
    {
      g_assert_cmpstr (t->titles->pdata[c], !=, "Model");
      g_assert_cmpstr (t->titles->pdata[c], !=, "Errors");
      g_assert_cmpstr (t->titles->pdata[c], !=, "Concurrency"); /* "c 16" in every name */
    }
  shared = iv_runs_table_constants_text (t);
  g_assert_nonnull (shared);
  g_assert_true (g_str_has_prefix (shared, "Model: "));
  g_assert_nonnull (strstr (shared, "Errors: 0"));
  g_assert_nonnull (strstr (shared, "Endpoint type: "));
  /* every constant is also every row's value: the text of the model of each run */
  for (guint k = 0; k < t->constants->len; k++)
    if (g_str_equal (g_array_index (t->constants, IvRunsTableConstant, k).title, "Model"))
      for (guint i = 0; i < sweep->runs->len; i++)
        g_assert_cmpstr (((IvRun *) sweep->runs->pdata[i])->model, ==,
                         g_array_index (t->constants, IvRunsTableConstant, k).text);
  for (guint i = 0; i < t->rows->len; i++)
    found |= g_strcmp0 (row_at (t, i)->cells[0].text, "isl 1024 · osl 128 · c 16") == 0;
  g_assert_true (found);

  /* one run: a row with every column, nothing folded */
  alone = iv_sweep_load (single, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  t1 = iv_runs_table_comparison (alone, NULL);
  g_assert_cmpuint (t1->constants->len, ==, 0);
  g_assert_null (iv_runs_table_constants_text (t1));
  g_assert_cmpstr (t1->titles->pdata[1], ==, "Model");
}

static void
test_metrics (void)
{
  g_autofree char *root = samples ();
  g_autofree char *one = g_build_filename (root, "qwen_concurrency1", NULL);
  const char *paths[] = { one, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (IvRunsTable) t = NULL;
  gboolean seen = FALSE;

  g_assert_no_error (error);
  t = iv_runs_table_metrics (sweep->runs->pdata[0]);
  g_assert_cmpuint (t->n_columns, ==, 10);
  g_assert_cmpstr (t->titles->pdata[3], ==, "p50");
  g_assert_cmpstr (t->titles->pdata[9], ==, "Source");
  for (guint i = 0; i < t->rows->len; i++)
    {
      const IvRunsTableRow *row = row_at (t, i);
      if (g_strcmp0 (row->cells[0].text, "Time to first token (ms)") != 0)
        continue;
      seen = TRUE;
      g_assert_cmpfloat_with_epsilon (row->cells[3].value,
                                      summary_value (one, "time_to_first_token", "p50"), 1e-9);
      g_assert_cmpfloat_with_epsilon (row->cells[8].value,
                                      summary_value (one, "time_to_first_token", "std"), 1e-9);
      g_assert_cmpstr (row->cells[9].text, ==, "AIPerf summary");
    }
  g_assert_true (seen);
}

/* The notes: one said of every run comes once ("every run: …"); of some, with their names;
 * of one run shown alone, as it is; the GPU note only when asked; a run that did not load
 * is a note of the sweep. */
static void
test_notes (void)
{
  g_autofree char *root = samples ();
  g_autofree char *missing = g_build_filename (root, "no-such-run", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (GPtrArray) all = NULL, gpu = NULL, one = NULL;
  const char *records = "10 of 64 requests have per-request records: figures of requests "
                        "show those 10; statistics are AIPerf's summary of all 64";
  g_autofree char *every = NULL, *alone = NULL, *some = NULL;
  g_autofree char *want_every = g_strconcat ("every run: ", records, NULL);
  g_autofree char *want_some
      = g_strconcat ("qwen_concurrency1, qwen_concurrency2: ", records, NULL);

  g_assert_no_error (error);
  all = iv_runs_notes (sweep, NULL, IV_RUNS_NOTES_DEFAULT);
  g_assert_cmpuint (all->len, ==, 1);
  g_assert_cmpuint (((IvRunsNote *) all->pdata[0])->runs->len, ==, 3);
  every = iv_runs_note_line (all->pdata[0], sweep, NULL);
  g_assert_cmpstr (every, ==, want_every);
  gpu = iv_runs_notes (sweep, NULL, IV_RUNS_NOTES_GPU);
  g_assert_cmpuint (gpu->len, ==, 2);
  g_assert_true (g_str_has_prefix (((IvRunsNote *) gpu->pdata[1])->text, "1 GPU by UUID; AIPerf "
                                                                         "counts 2"));
  one = iv_runs_notes (sweep, sweep->runs->pdata[1], IV_RUNS_NOTES_DEFAULT);
  /* and, alone, which metrics its 10 records would tell otherwise than the summary */
  g_assert_cmpuint (one->len, ==, 2);
  alone = iv_runs_note_line (one->pdata[0], sweep, sweep->runs->pdata[1]);
  g_assert_cmpstr (alone, ==, records);
  g_assert_true (g_str_has_prefix (((IvRunsNote *) one->pdata[1])->text,
                                   "From the summary, where the records differ: "));
  g_assert_cmpuint (((IvRunsNote *) one->pdata[1])->runs->len, ==, 0);
  /* said of two of the three: named */
  g_ptr_array_remove_index (((IvRunsNote *) all->pdata[0])->runs, 2);
  some = iv_runs_note_line (all->pdata[0], sweep, NULL);
  g_assert_cmpstr (some, ==, want_some);

  /* a path that is not there: the sweep's note, said of no run */
  {
    const char *two[] = { root, missing, NULL };
    g_autoptr (IvSweep) partial = iv_sweep_load (two, NULL, NULL, NULL, NULL);
    g_autoptr (GPtrArray) said = NULL;
    g_assert_nonnull (partial);
    g_assert_cmpuint (partial->warnings->len, ==, 1);
    said = iv_runs_notes (partial, NULL, IV_RUNS_NOTES_DEFAULT);
    g_assert_cmpuint (said->len, ==, 2);
    g_assert_nonnull (strstr (((IvRunsNote *) said->pdata[0])->text, "no-such-run"));
    g_assert_cmpuint (((IvRunsNote *) said->pdata[0])->runs->len, ==, 0);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runs-table/number", test_number);
  g_test_add_func ("/runs-table/comparison", test_comparison);
  g_test_add_func ("/runs-table/constants", test_constants);
  g_test_add_func ("/runs-table/metrics", test_metrics);
  g_test_add_func ("/runs-table/notes", test_notes);
  return g_test_run ();
}
