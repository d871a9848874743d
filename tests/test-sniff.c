/* test-sniff.c: what each kind of input is recognised as, with event counts checked
 * against counts made independently (Python's json module over the same files). */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iv-sniff.h"
#include "iv-test-util.h"

static char *tmpdir;

static char *
samples_path (const char *rel)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", rel, NULL);
}

static char *
shared_path (const char *rel)
{
  /* The public samples are copied into tests/data: a missing one is a broken checkout. */
  char *path = g_build_filename (g_getenv ("IV_TEST_DATA"), rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_error ("test data %s is missing", path);
  return path;
}

static char *
write_temp (const char *rel, const char *contents)
{
  char *path = g_build_filename (tmpdir, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static IvSniffResult *
sniff_ok (const char *path)
{
  g_autoptr (GError) error = NULL;
  IvSniffResult *r = iv_sniff_path (path, TRUE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

static void
test_sample_sweep (void)
{
  g_autofree char *path = samples_path ("aiperf");
  g_autoptr (IvSniffResult) r = sniff_ok (path);

  g_assert_cmpint (r->kind, ==, IV_KIND_SWEEP);
  g_assert_cmpuint (r->runs->len, ==, 3);
  g_assert_true (g_str_has_suffix (r->runs->pdata[0], "qwen_concurrency1"));
  g_assert_true (g_str_has_suffix (r->runs->pdata[1], "qwen_concurrency2"));
  g_assert_true (g_str_has_suffix (r->runs->pdata[2], "qwen_concurrency2/qwen_concurrency4"));
  /* 10 request lines in each of the three profile_export.jsonl files. */
  g_assert_cmpint (r->events, ==, 30);
}

static void
test_run_file_opens_run (void)
{
  g_autofree char *path = samples_path ("aiperf/qwen_concurrency1/profile_export_aiperf.json");
  g_autoptr (IvSniffResult) r = sniff_ok (path);

  g_assert_cmpint (r->kind, ==, IV_KIND_RUN);
  g_assert_true (g_str_has_suffix (r->root, "qwen_concurrency1"));
  g_assert_cmpint (r->events, ==, 10);
}

static void
test_sample_traces (void)
{
  g_autofree char *kineto = samples_path ("traces/kineto_a100_simple_add.json.gz");
  g_autofree char *flow = samples_path ("traces/catapult_flow_simple.json");
  g_autoptr (IvSniffResult) a = sniff_ok (kineto);
  g_autoptr (IvSniffResult) b = sniff_ok (flow);

  g_assert_cmpint (a->kind, ==, IV_KIND_CHROME_TRACE);
  g_assert_cmpint (a->events, ==, 1348);
  g_assert_cmpint (b->kind, ==, IV_KIND_CHROME_TRACE);
  g_assert_cmpint (b->events, ==, 10);
  g_assert_false (a->truncated);
}

static void
test_shared_traces (void)
{
  static const struct
  {
    const char *file;
    gint64 events;
    gboolean truncated;
  } cases[] = {
    { "traces/chrome116_devtools_trace.json", 3108, FALSE }, /* "metadata" after traceEvents */
    { "traces/catapult_async_begin_end.json", 35, FALSE },   /* array form */
    { "traces/edge_uint64_comms_id.json.gz", 2, FALSE },     /* integer beyond int64 */
    { "traces/kineto_legacy2021_resnet50_v100.json.gz", 75718, FALSE },
    { "traces/kineto_train_rank0_68k_events.json.gz", 68692, FALSE },
    { "traces/speedscope_trace_event/simple-partial.json", 6, TRUE },
    { "traces/speedscope_trace_event/simple-partial-trailing-comma.json", 6, TRUE },
    { "traces/speedscope_trace_event/simple-object.json", 5, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = shared_path (cases[i].file);
      g_autoptr (IvSniffResult) r = NULL;

      r = sniff_ok (path);
      g_assert_cmpint (r->kind, ==, IV_KIND_CHROME_TRACE);
      g_assert_cmpint (r->events, ==, cases[i].events);
      g_assert_cmpint (r->truncated, ==, cases[i].truncated);
    }
}

static void
test_other_kinds (void)
{
  g_autofree char *hf
      = write_temp ("config.json", "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": "
                                   "4096, \"model_type\": \"llama\"}");
  g_autofree char *pipe = write_temp (
      "pipe.json",
      "{\"format\": \"pipelined_timeline_v2\", \"start_candidate\": 2, \"events\": ["
      "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 10.0, \"dur_ms\": 35.2},"
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 49.3, \"dur_ms\": 80.0}]}");
  g_autofree char *breakdown = write_temp (
      "breakdown.json",
      "{\"format\": \"candidate_breakdown_v1\", \"candidate\": 3, \"gpu_ms\": {\"trsm\": 12.1}}");
  g_autoptr (IvSniffResult) a = sniff_ok (hf);
  g_autoptr (IvSniffResult) b = sniff_ok (pipe);
  g_autoptr (IvSniffResult) c = sniff_ok (breakdown);

  g_assert_cmpint (a->kind, ==, IV_KIND_HF_CONFIG);
  g_assert_cmpint (iv_kind_get_group (a->kind), ==, IV_GROUP_MODEL);
  g_assert_cmpint (b->kind, ==, IV_KIND_PIPELINED_TIMELINE);
  g_assert_cmpint (b->events, ==, 2);
  g_assert_cmpint (c->kind, ==, IV_KIND_CANDIDATE_BREAKDOWN);
  g_assert_cmpint (iv_kind_get_group (c->kind), ==, IV_GROUP_TRACES);
}

static void
test_folder_layouts (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "layouts", NULL);
  static const char *const files[][2] = {
    { "layouts/sweep/run_10/custom.jsonl", "{}\n{}\n" },
    { "layouts/sweep/run_10/custom.json", "{}" },
    { "layouts/sweep/run_9/profile_export_aiperf.json", "{}" },
    { "layouts/sweep/run_2/aggregate/profile_export_aiperf_aggregate.json", "{}" },
    { "layouts/sweep/run_2/profile_runs/run_0001/profile_export.jsonl", "{}\n" },
    { "layouts/sweep/notes/readme.txt", "not a run" },
  };
  g_autofree char *sweep = g_build_filename (root, "sweep", NULL);
  g_autoptr (IvSniffResult) r = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_free (write_temp (files[i][0], files[i][1]));
  r = sniff_ok (sweep);

  g_assert_cmpint (r->kind, ==, IV_KIND_SWEEP);
  /* The trials of the aggregated run_2 are not runs of their own; natural order. */
  g_assert_cmpuint (r->runs->len, ==, 3);
  g_assert_true (g_str_has_suffix (r->runs->pdata[0], "run_2"));
  g_assert_true (g_str_has_suffix (r->runs->pdata[1], "run_9"));
  g_assert_true (g_str_has_suffix (r->runs->pdata[2], "run_10"));
  /* Only run_10 has per-request records: two lines. */
  g_assert_cmpint (r->events, ==, 2);
}

/* Symlinks to "." and to a parent in a sweep: each folder is visited once (4 links to
 * "." once made 21,845 copies of the same run in 14 s). */
static void
test_folder_links (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "links", NULL);
  g_autoptr (IvSniffResult) r = NULL;

  g_free (write_temp ("links/run_1/profile_export.jsonl", "{}\n"));
  g_free (write_temp ("links/run_2/profile_export.jsonl", "{}\n"));
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *link = g_strdup_printf ("%s/self_%u", root, i);
      g_assert_cmpint (symlink (".", link), ==, 0);
    }
  {
    g_autofree char *up = g_build_filename (root, "run_1", "up", NULL);
    g_autofree char *alias = g_build_filename (root, "alias_of_run_2", NULL);
    g_autofree char *root_link = g_build_filename (root, "a_link_to_root", NULL);
    g_assert_cmpint (symlink ("..", up), ==, 0);
    g_assert_cmpint (symlink ("run_2", alias), ==, 0);
    /* sorts first: read breadth-first, the runs beside it are still found */
    g_assert_cmpint (symlink ("/", root_link), ==, 0);
  }
  r = iv_sniff_path (root, FALSE, NULL, NULL, NULL, NULL);
  g_assert_nonnull (r);
  g_assert_cmpint (r->kind, ==, IV_KIND_SWEEP);
  /* Each run under one name: the first in name order (the alias sorts before run_2).
   * What the link to / finds elsewhere on this machine comes after them. */
  {
    g_autofree char *alias_path = g_build_filename (root, "alias_of_run_2", NULL);
    g_autofree char *run_1_path = g_build_filename (root, "run_1", NULL);
    g_autofree char *run_2_path = g_build_filename (root, "run_2", NULL);
    guint alias = 0, run_1 = 0, run_2 = 0;
    for (guint i = 0; i < r->runs->len; i++)
      {
        const char *p = r->runs->pdata[i];
        alias += g_str_equal (p, alias_path);
        run_1 += g_str_equal (p, run_1_path);
        run_2 += g_str_equal (p, run_2_path);
      }
    g_assert_cmpuint (alias, ==, 1);
    g_assert_cmpuint (run_1, ==, 1);
    g_assert_cmpuint (run_2, ==, 0);
  }
}

/* Discovery reads at most IV_SNIFF_MAX_FOLDERS folders and says so. */
static void
test_folder_budget (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "budget", NULL);
  g_autoptr (IvSniffResult) r = NULL;

  g_free (write_temp ("budget/profile_export.jsonl", "{}\n"));
  for (guint i = 0; i < IV_SNIFF_MAX_FOLDERS + 50; i++)
    {
      g_autofree char *sub = g_strdup_printf ("%s/d%05u", root, i);
      g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
    }
  r = sniff_ok (root);
  g_assert_cmpint (r->kind, ==, IV_KIND_RUN);
  g_assert_true (r->folders_cut);
  iv_test_remove_tree (root);
}

/* A FIFO named like a run's records is refused by name when it is read, never waited on. */
static void
test_folder_fifo (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "fifo_run", NULL);
  g_autofree char *fifo = g_build_filename (root, "profile_export.jsonl", NULL);
  g_autoptr (GError) error = NULL;
  IvSniffResult *r;

  g_assert_cmpint (g_mkdir_with_parents (root, 0755), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  r = iv_sniff_path (root, TRUE, NULL, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_nonnull (strstr (error->message, "profile_export.jsonl: is a named pipe (FIFO)"));
  g_clear_error (&error);
  r = iv_sniff_path (fifo, FALSE, NULL, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
}

static void
expect_error (const char *path, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  IvSniffResult *r = iv_sniff_path (path, TRUE, NULL, NULL, NULL, &error);

  g_assert_null (r);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_errors (void)
{
  g_autofree char *empty = write_temp ("errors/empty.json", "");
  g_autofree char *text = write_temp ("errors/notes.json", "hello\nworld");
  g_autofree char *unknown = write_temp ("errors/other.json", "{\"name\": \"x\",\n \"value\": 3}");
  g_autofree char *broken = write_temp (
      "errors/broken.json", "{\"traceEvents\": [\n {\"ph\": \"X\"},\n {\"ph\" \"X\"}]}");
  g_autofree char *folder = g_build_filename (tmpdir, "errors", NULL);

  expect_error (empty, "empty.json: the file is empty");
  expect_error (text, "notes.json: line 1, column 1");
  expect_error (unknown, "other.json: not a trace, an AIPerf run or a model configuration");
  /* A damaged trace keeps what came before, and says so. */
  {
    g_autoptr (IvSniffResult) r = sniff_ok (broken);
    g_assert_true (r->truncated);
    g_assert_cmpint (r->events, ==, 1);
  }
  expect_error (folder, "no AIPerf run in this folder");
  expect_error ("/nonexistent/run", "/nonexistent/run");
}

static void
test_quick_sniff_stops_early (void)
{
  /* Quick mode decides at traceEvents and never sees the broken tail. */
  g_autofree char *path = write_temp ("quick.json", "{\"traceEvents\": [{\"ph\": \"X\"}, {{{{");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSniffResult) r = iv_sniff_path (path, FALSE, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (r->kind, ==, IV_KIND_CHROME_TRACE);
  g_assert_cmpint (r->events, ==, -1);
}

static void
test_natural_compare (void)
{
  g_assert_cmpint (iv_natural_compare ("run_9", "run_10"), <, 0);
  g_assert_cmpint (iv_natural_compare ("run_10", "run_9"), >, 0);
  g_assert_cmpint (iv_natural_compare ("c1", "c1"), ==, 0);
  g_assert_cmpint (iv_natural_compare ("c007", "c7"), ==, 0);
  g_assert_cmpint (iv_natural_compare ("a", "b"), <, 0);
  g_assert_cmpint (iv_natural_compare ("conc2/x", "conc16/x"), <, 0);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-sniff-XXXXXX");
  g_test_add_func ("/sniff/sample-sweep", test_sample_sweep);
  g_test_add_func ("/sniff/run-file-opens-run", test_run_file_opens_run);
  g_test_add_func ("/sniff/sample-traces", test_sample_traces);
  g_test_add_func ("/sniff/shared-traces", test_shared_traces);
  g_test_add_func ("/sniff/other-kinds", test_other_kinds);
  g_test_add_func ("/sniff/folder-layouts", test_folder_layouts);
  g_test_add_func ("/sniff/folder-links", test_folder_links);
  g_test_add_func ("/sniff/folder-budget", test_folder_budget);
  g_test_add_func ("/sniff/folder-fifo", test_folder_fifo);
  g_test_add_func ("/sniff/errors", test_errors);
  g_test_add_func ("/sniff/quick-stops-early", test_quick_sniff_stops_early);
  g_test_add_func ("/sniff/natural-compare", test_natural_compare);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
