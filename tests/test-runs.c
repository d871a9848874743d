/* test-runs.c: the runs engine — the sample runs against values computed here from the
 * files themselves, both summary generations and config shapes, warm-up and errors,
 * custom prefixes and compression, damaged files, time slices, aggregates, and sweep
 * discovery with the fields that vary. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "iv-plot-config.h"
#include "iv-run.h"
#include "iv-run-series.h"
#include "iv-sweep.h"
#include "iv-test-util.h"

static char *tmpdir;

static char *
shared_run (const char *rel)
{
  /* aiperf's own copy of the run, in tests/data (the bundled sample has server metrics added). */
  char *path = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf", rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    g_error ("test data %s is missing", path);
  return path;
}

static char *
sample_run (const char *rel)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "aiperf", rel, NULL);
}

static char *
make_dir (const char *name)
{
  char *dir = g_build_filename (tmpdir, name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return dir;
}

/* Type-7 quantile written out here, independent of iv-stats. */
static double
quantile7 (GArray *v, double q)
{
  double *x = (double *) v->data, h;
  gsize n = v->len, i;
  for (gsize a = 1; a < n; a++) /* insertion sort: a few values */
    for (gsize b = a; b > 0 && x[b - 1] > x[b]; b--)
      {
        double t = x[b];
        x[b] = x[b - 1], x[b - 1] = t;
      }
  h = (n - 1) * q;
  i = (gsize) floor (h);
  return i + 1 < n ? x[i] + (h - i) * (x[i + 1] - x[i]) : x[n - 1];
}

/* The bundled and shared sample runs: request counts, a metric's statistics recomputed
 * from the JSONL with json-glib, int64 timestamps exact, GPUs deduplicated by UUID
 * (the samples scrape one GPU through two DCGM endpoints: 20 lines, 10 samples). */
static void
test_sample_run (void)
{
  g_autofree char *dir = sample_run ("qwen_concurrency1");
  g_autofree char *jsonl = g_build_filename (dir, "profile_export.jsonl", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_autoptr (GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gint64 first_start = 0;
  double sum = 0;
  IvMetricSummary s = { 0 };
  const IvRunMetric *icl;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (jsonl, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    {
      g_autoptr (JsonParser) p = json_parser_new ();
      JsonObject *o;
      double v;
      g_assert_true (json_parser_load_from_data (p, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (p));
      v = json_object_get_double_member (
          json_object_get_object_member (json_object_get_object_member (o, "metrics"),
                                         "time_to_first_token"),
          "value");
      g_array_append_val (ttft, v);
      sum += v;
      if (i == 0)
        first_start = json_object_get_int_member (json_object_get_object_member (o, "metadata"),
                                                  "request_start_ns");
    }
  g_assert_cmpuint (r->n_requests, ==, ttft->len);
  g_assert_cmpuint (r->n_requests, ==, 10);
  g_assert_cmpuint (r->n_warmup, ==, 0);
  g_assert_cmpuint (r->n_errors, ==, 0);
  g_assert_cmpint (g_array_index (r->start_ns, gint64, 0), ==, first_start);
  g_assert_cmpint (first_start, ==, G_GINT64_CONSTANT (1762551534797067827));
  g_assert_cmpstr (r->model, ==, "Qwen/Qwen3-0.6B");
  g_assert_cmpfloat (r->concurrency, ==, 1);
  g_assert_cmpfloat (r->isl, ==, 100);
  g_assert_cmpfloat (r->osl, ==, 200);
  g_assert_true (r->streaming);

  /* The records' own statistics, beside numpy's way of computing them */
  g_assert_true (iv_run_metric_stats_records (r, "time_to_first_token", &s));
  g_assert_cmpint (s.source, ==, IV_STATS_RECORDS);
  g_assert_cmpstr (s.unit, ==, "ms");
  g_assert_cmpfloat (s.count, ==, 10);
  g_assert_cmpfloat_with_epsilon (s.avg, sum / ttft->len, 1e-9);
  g_assert_cmpfloat_with_epsilon (s.p90, quantile7 (ttft, 0.90), 1e-9);
  g_assert_cmpfloat_with_epsilon (s.p99, quantile7 (ttft, 0.99), 1e-9);
  g_assert_cmpfloat (s.min, ==, g_array_index (ttft, double, 0)); /* sorted by quantile7 */
  iv_metric_summary_clear (&s);
  /* By default a metric's statistics are AIPerf's summary of all 64 requests (the
   * export holds 10 records): the numbers in profile_export_aiperf.json, and a note says
   * the records cover 10 of 64 and disagree with it. */
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpint (s.source, ==, IV_STATS_SUMMARY);
  g_assert_cmpfloat (s.avg, ==, 30.814987671875);
  g_assert_cmpfloat (s.p99, ==, 34.344268879999994);
  iv_metric_summary_clear (&s);
  g_assert_cmpfloat (iv_run_summary_requests (r), ==, 64);
  g_assert_cmpuint (iv_run_good_records (r), ==, 10);
  {
    g_autofree char *note = iv_run_records_note (r);
    g_autofree char *disagree = iv_run_stats_note (r, "time_to_first_token");
    g_assert_nonnull (strstr (note, "10 of 64 requests"));
    g_assert_nonnull (strstr (disagree, "the 10 values in the records give avg"));
    g_assert_nonnull (strstr (disagree, "30.8"));
  }
  /* A list metric contributes every element: 10 requests × 199 chunk gaps. */
  icl = iv_run_get_metric (r, "inter_chunk_latency");
  g_assert_nonnull (icl);
  g_assert_true (icl->list);
  g_assert_cmpuint (icl->values->len, ==, 1990);
  g_assert_cmpuint (g_array_index (icl->request, guint32, 1989), ==, 9);
  /* Summary-only metrics come from the summary file (64 requests there, 10 lines here). */
  g_assert_true (iv_run_metric_stats (r, "request_throughput", &s));
  g_assert_cmpfloat_with_epsilon (s.avg, 0.2504302580624667, 1e-12);
  iv_metric_summary_clear (&s);
  g_assert_cmpfloat_with_epsilon (r->duration_s, 255.56017270100003, 1e-9);

  g_assert_cmpuint (r->gpus->len, ==, 1);
  {
    const IvGpu *g = r->gpus->pdata[0];
    g_assert_cmpstr (g->uuid, ==, "GPU-ef6ef310-f8e2-cef9-036e-8f12d59b5ffc");
    g_assert_cmpuint (g->ts_ns->len, ==, 10);
    g_assert_nonnull (iv_gpu_get_series (g, "gpu_utilization"));
    g_assert_cmpuint (iv_gpu_get_series (g, "gpu_power_usage")->len, ==, 10);
    g_assert_cmpfloat (g_array_index (iv_gpu_get_series (g, "gpu_power_usage"), double, 0), ==,
                       30.257);
  }

  /* aiperf's own copy of the same run loads the same way. */
  {
    g_autofree char *shared = shared_run ("qwen_concurrency1");
    g_autoptr (IvRun) again = iv_run_load (shared, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (again->n_requests, ==, r->n_requests);
  }
}

/* Warm-up requests are counted, not kept; failed ones are requests with an error type
 * and no metrics; cancelled ones are flagged. */
static void
test_warmup_errors_prefix_gzip (void)
{
  g_autofree char *dir = make_dir ("custom");
  const char *records
      = "{\"metadata\": {\"benchmark_phase\": \"warmup\", \"request_start_ns\": 1, "
        "\"request_end_ns\": 2}, \"metrics\": {\"time_to_first_token\": {\"value\": 999, \"unit\": "
        "\"ms\"}}, \"error\": null}\n"
        "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": "
        "1000000000000000005, \"request_end_ns\": 1000000000500000005, \"worker_id\": \"w1\"}, "
        "\"metrics\": {\"time_to_first_token\": {\"value\": 10, \"unit\": \"ms\"}, "
        "\"inter_token_latency\": {\"value\": 2.5, \"unit\": \"ms\"}}, \"error\": null}\n"
        "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": "
        "1000000000100000000, \"request_end_ns\": 1000000000200000000, \"worker_id\": \"w2\"}, "
        "\"metrics\": {\"time_to_first_token\": {\"value\": 77, \"unit\": \"ms\"}}, \"error\": "
        "{\"code\": 500, \"type\": \"HTTPError\", \"message\": \"boom\"}}\n"
        "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": "
        "1000000000300000000, \"request_end_ns\": 1000000000900000000, \"worker_id\": \"w1\", "
        "\"was_cancelled\": true}, \"metrics\": {\"time_to_first_token\": {\"value\": 30, "
        "\"unit\": \"ms\"}}, \"error\": null}\n";
  g_autofree char *gz = g_build_filename (dir, "bench_a.jsonl.gz", NULL);
  gzFile f = gzopen (gz, "wb");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  IvMetricSummary s = { 0 };

  g_assert_cmpint (gzwrite (f, records, strlen (records)), ==, (int) strlen (records));
  gzclose (f);
  iv_test_write_file (
      dir, "bench_a_aiperf.json",
      "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 3.5}, \"input_config\": "
      "{\"models\": {\"items\": [{\"name\": \"m-new\"}]}, \"phases\": [{\"name\": \"warmup\", "
      "\"concurrency\": 1},"
      " {\"name\": \"profiling\", \"concurrency\": 16, \"requests\": 3}]}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (r->prefix, ==, "bench_a");
  g_assert_cmpuint (r->n_warmup, ==, 1);
  g_assert_cmpuint (r->n_requests, ==, 3);
  g_assert_cmpuint (r->n_errors, ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (r->error_types, "HTTPError")), ==, 1);
  g_assert_cmpuint (g_array_index (r->flags, guint8, 1), ==, IV_REQUEST_FAILED);
  g_assert_cmpuint (g_array_index (r->flags, guint8, 2), ==, IV_REQUEST_CANCELLED);
  g_assert_cmpint (g_array_index (r->start_ns, gint64, 0), ==,
                   G_GINT64_CONSTANT (1000000000000000005));
  g_assert_cmpint (r->t0_ns, ==, G_GINT64_CONSTANT (1000000000000000005));
  g_assert_cmpint (r->t1_ns, ==, G_GINT64_CONSTANT (1000000000900000000));
  g_assert_cmpstr (iv_intern_get (r->strings, g_array_index (r->worker, guint32, 2)), ==, "w1");
  /* TTFT: 10 and 30 (the warm-up's 999 and the failure's 77 are not the service's) */
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpfloat (s.count, ==, 2);
  g_assert_cmpfloat (s.avg, ==, 20);
  g_assert_cmpfloat (s.std, ==, 10);
  g_assert_cmpfloat (s.p50, ==, 20);
  iv_metric_summary_clear (&s);
  /* the newer input_config shape */
  g_assert_cmpstr (r->model, ==, "m-new");
  g_assert_cmpfloat (r->concurrency, ==, 16);
  g_assert_cmpfloat (r->request_count, ==, 3);
  /* without benchmark_duration, the span of the requests: 0.9 s */
  g_assert_cmpfloat_with_epsilon (r->duration_s, 0.899999995, 1e-9);
}

/* The older generation: profile_export.json with the metrics under "records", nulls for
 * what it lacks, the older input_config; no per-request file: statistics and errors come
 * from the summary. */
static void
test_old_summary_only (void)
{
  g_autofree char *dir = make_dir ("old");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  IvMetricSummary s = { 0 };

  iv_test_write_file (dir, "profile_export.json",
                      "{\"records\": {\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 12.5, "
                      "\"p99\": 40.0, \"p50\": null, \"std\": null},"
                      " \"request_count\": {\"unit\": \"requests\", \"avg\": 100}},"
                      " \"error_summary\": [{\"error_details\": {\"code\": 429, \"type\": "
                      "\"RateLimited\"}, \"count\": 4}],"
                      " \"input_config\": {\"endpoint\": {\"model_names\": [\"m-old\"], \"type\": "
                      "\"completions\", \"streaming\": false},"
                      " \"loadgen\": {\"request_rate\": 5.0}, \"input\": {\"prompt\": "
                      "{\"input_tokens\": {\"mean\": 512},"
                      " \"output_tokens\": {\"mean\": 128}}}}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (r->has_records);
  g_assert_cmpstr (r->model, ==, "m-old");
  g_assert_cmpstr (r->endpoint_type, ==, "completions");
  g_assert_false (r->streaming);
  g_assert_cmpfloat (r->request_rate, ==, 5);
  g_assert_true (isnan (r->concurrency));
  g_assert_cmpfloat (r->isl, ==, 512);
  g_assert_cmpuint (r->n_errors, ==, 4);
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpfloat (s.avg, ==, 12.5);
  g_assert_cmpfloat (s.p99, ==, 40);
  g_assert_true (isnan (s.p50));
  g_assert_true (isnan (s.std));
  iv_metric_summary_clear (&s);
  g_assert_false (iv_run_metric_stats (r, "inter_token_latency", &s));
}

/* A damaged line is skipped, and one warning names the file, the line and the column
 * (the second comma of ",,": column 77); time slices and the aggregate of trials are
 * read. */
static void
test_damaged_slices_aggregate (void)
{
  g_autofree char *bad = make_dir ("bad");
  g_autofree char *ok = make_dir ("sliced");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const IvTimeslice *t;
  const IvAggregateStat *a;
  const char *line2 = "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": {\"x\": "
                      "{\"value\": 1,, }}}";

  g_assert_cmpint ((int) (strstr (line2, ",,") - line2) + 2, ==, 77);
  iv_test_write_file (bad, "profile_export.jsonl",
                      "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": {}}\n"
                      "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": {\"x\": "
                      "{\"value\": 1,, }}}\n");
  r = iv_run_load (bad, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 1);
  g_assert_cmpuint (r->damaged_lines, ==, 1);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0],
                            "profile_export.jsonl: 1 damaged line skipped (line 2, column 77"));
  g_clear_pointer (&r, iv_run_free);

  iv_test_write_file (ok, "profile_export_aiperf.json",
                      "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1}}");
  iv_test_write_file (ok, "profile_export_aiperf_timeslices.json",
                      "{\"timeslices\": [{\"timeslice_index\": 0, \"time_to_first_token\": "
                      "{\"unit\": \"ms\", \"avg\": 10, \"std\": 2}},"
                      " {\"timeslice_index\": 1, \"is_complete\": false, \"time_to_first_token\": "
                      "{\"unit\": \"ms\", \"avg\": 14, \"std\": 3}}]}");
  iv_test_write_file (
      ok, "aggregate/profile_export_aiperf_aggregate.json",
      "{\"request_latency_p99\": {\"mean\": 120.5, \"std\": 4.0, \"min\": 115, \"max\": 126, "
      "\"cv\": 0.033,"
      " \"se\": 2.3, \"ci_low\": 110.6, \"ci_high\": 130.4, \"t_critical\": 4.3, \"unit\": \"ms\"},"
      " \"metadata\": {\"num_trials\": 3}}");
  iv_test_write_file (ok, "profile_runs/run_0001/profile_export_aiperf.json", "{}");
  iv_test_write_file (ok, "profile_runs/run_0002/profile_export_aiperf.json", "{}");
  iv_test_write_file (ok, "profile_runs/run_0003/profile_export_aiperf.json", "{}");
  r = iv_run_load (ok, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->timeslices->len, ==, 2);
  t = r->timeslices->pdata[1];
  g_assert_cmpint (t->index, ==, 1);
  g_assert_false (t->complete);
  g_assert_true (((IvTimeslice *) r->timeslices->pdata[0])->complete);
  g_assert_cmpfloat (
      ((IvMetricSummary *) g_hash_table_lookup (t->metrics, "time_to_first_token"))->avg, ==, 14);
  a = g_hash_table_lookup (r->aggregate, "request_latency_p99");
  g_assert_nonnull (a);
  g_assert_cmpfloat (a->ci_high, ==, 130.4);
  g_assert_cmpstr (a->unit, ==, "ms");
  g_assert_null (g_hash_table_lookup (r->aggregate, "metadata"));
  g_assert_cmpuint (r->n_trials, ==, 3);
}

/* A sweep at several depths is found and sorted naturally (c2 before c10); the fields
 * that differ are the varying ones; a folder without runs is an error naming it. */
/* What AIPerf leaves behind loads: a last line cut by a killed writer (skipped, said in
 * plain words), a byte order mark, an empty record file beside a summary (a summary-only
 * run, said so), a folder holding only the CSV summary (its display names folded to
 * tags, its rounded numbers, a warning), and in a sweep that CSV-only run is a run, not
 * dropped; a record file of nothing but damage, with no summary, is one error. */
static void
test_what_aiperf_leaves (void)
{
  g_autofree char *cut = make_dir ("leaves/cut");
  g_autofree char *empty = make_dir ("leaves/empty");
  g_autofree char *csv = make_dir ("leaves/csv");
  g_autofree char *junk = make_dir ("junk");
  g_autofree char *sweep = g_build_filename (tmpdir, "leaves", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
#define REC(ttft)                                                                                  \
  "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": 5, "                  \
  "\"request_end_ns\": 9},"                                                                        \
  " \"metrics\": {\"time_to_first_token\": {\"value\": " ttft ", \"unit\": \"ms\"}}}\n"
  const char *r1 = REC ("10"), *r2 = REC ("30");
#undef REC
  g_autofree char *records
      = g_strconcat ("\xef\xbb\xbf", r1, r2, "{\"metadata\": {\"benchmark_ph", NULL);
  IvMetricSummary s = { 0 };

  iv_test_write_file (cut, "profile_export.jsonl", records);
  iv_test_write_file (cut, "profile_export_aiperf.json",
                      "\xef\xbb\xbf{\"request_count\": {\"unit\": \"requests\", \"avg\": 3}}");
  r = iv_run_load (cut, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 2);
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpint (s.source, ==, IV_STATS_RECORDS);
  g_assert_cmpfloat (s.avg, ==, 20);
  iv_metric_summary_clear (&s);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (
      strstr (r->warnings->pdata[0], "profile_export.jsonl: the last line is cut short (line 3)"));
  {
    g_autofree char *note = iv_run_records_note (r);
    g_assert_nonnull (strstr (note, "2 of 3 requests"));
  }
  g_clear_pointer (&r, iv_run_free);

  iv_test_write_file (empty, "profile_export.jsonl", "");
  iv_test_write_file (empty, "profile_export_aiperf.json",
                      "{\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 12.5, \"p50\": 12}}");
  r = iv_run_load (empty, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (r->has_records);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0],
                            "profile_export.jsonl is empty: the numbers are the summary's"));
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpfloat (s.avg, ==, 12.5);
  iv_metric_summary_clear (&s);
  g_clear_pointer (&r, iv_run_free);

  iv_test_write_file (
      csv, "profile_export_aiperf.csv",
      "Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n"
      "Request Latency "
      "(ms),6550.36,4996.25,9383.37,5523.64,5641.18,5649.25,5678.54,5799.90,7314.96,8594.21,8980."
      "84,9381.63,1171.14\r\n"
      "Time to First Token "
      "(ms),1588.80,382.24,4121.09,403.48,547.97,641.77,659.03,787.54,2439.00,3695.10,4051.43,4119."
      "33,1189.99\r\n"
      "\r\n"
      "Metric,Value\r\n"
      "Benchmark Duration (sec),15.20\r\n"
      "Request Throughput (requests/sec),13.16\r\n"
      "\"Request Count\",200.00\r\n"
      "\r\n"
      "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,"
      "std\r\n"
      "localhost:9401,0,NVIDIA RTX 6000 Ada Generation,GPU-f35d,GPU Power Usage "
      "(W),43.37,26.68,299.28,26.68,26.68,26.68,26.68,26.68,26.68,26.68,190.24,299.28,65.35\r\n");
  r = iv_run_load (csv, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpstr (s.unit, ==, "ms");
  g_assert_cmpfloat (s.p50, ==, 787.54);
  g_assert_cmpfloat (s.std, ==, 1189.99);
  g_assert_cmpfloat (s.p25, ==, 659.03);
  iv_metric_summary_clear (&s);
  g_assert_cmpfloat (iv_run_get_summary (r, "request_throughput")->avg, ==, 13.16);
  g_assert_cmpstr (iv_run_get_summary (r, "request_throughput")->unit, ==, "requests/sec");
  g_assert_cmpfloat (iv_run_summary_requests (r), ==, 200);
  g_assert_cmpfloat (r->duration_s, ==, 15.20);
  /* GPU rows are not metrics of the run; with no telemetry one GPU is assumed, and said */
  g_assert_null (iv_run_get_summary (r, "gpu_power_usage"));
  {
    IvGpuCountSource from;
    g_autofree char *note = iv_run_gpu_note (r);
    g_assert_cmpuint (iv_run_gpu_count (r, &from), ==, 1);
    g_assert_cmpint (from, ==, IV_GPUS_ASSUMED);
    g_assert_nonnull (strstr (note, "per-GPU throughput assumes 1 GPU"));
  }
  g_assert_cmpuint (r->warnings->len, ==, 2);
  g_assert_nonnull (strstr (r->warnings->pdata[0], "only AIPerf's CSV summary is here"));
  g_clear_pointer (&r, iv_run_free);

  /* the three are a sweep of three runs: none dropped */
  {
    const char *paths[] = { sweep, NULL };
    g_autoptr (IvSweep) sw = iv_sweep_load (paths, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sw->runs->len, ==, 3);
    /* none has a configuration: nothing varies, and each is labelled by its folder */
    g_assert_cmpuint (sw->varying->len, ==, 0);
    for (guint i = 0; i < sw->runs->len; i++)
      {
        const IvRun *run = sw->runs->pdata[i];
        g_autofree char *label = iv_sweep_run_label (sw, run);
        g_assert_cmpstr (label, ==, run->name);
      }
  }
  /* beside a configured run, a run without configuration does not make its fields vary */
  {
    g_autofree char *one = sample_run ("qwen_concurrency1");
    const char *paths[] = { one, csv, NULL };
    g_autoptr (IvSweep) sw = iv_sweep_load (paths, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sw->runs->len, ==, 2);
    g_assert_cmpuint (sw->varying->len, ==, 0);
  }

  /* values that are text or null are not numbers to count, and the warning says so */
  {
    g_autofree char *odd = make_dir ("odd");
    iv_test_write_file (odd, "profile_export.jsonl",
                        "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": "
                        "{\"time_to_first_token\": {\"value\": \"n/a\", \"unit\": \"ms\"}}}\n"
                        "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": "
                        "{\"time_to_first_token\": {\"value\": null, \"unit\": \"ms\"},"
                        " \"inter_token_latency\": {\"value\": 4, \"unit\": \"ms\"}}}\n");
    r = iv_run_load (odd, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (r->n_requests, ==, 2);
    g_assert_cmpuint (r->warnings->len, ==, 1);
    g_assert_nonnull (strstr (r->warnings->pdata[0],
                              "1 metric values that are text and 1 that are null were not "
                              "counted (the first in time_to_first_token)"));
    g_clear_pointer (&r, iv_run_free);
  }

  iv_test_write_file (junk, "profile_export.jsonl", "not json\n{\"cut\n");
  g_assert_null (iv_run_load (junk, NULL, NULL, NULL, &error));
  g_assert_nonnull (
      strstr (error->message, "every line is damaged, and there is no summary beside it"));
}

/* Numbers are read exactly as strtod reads them, on the fast path (≤ 15 digits) and off
 * it (17-digit reprs, exponents, long integers). */
static void
test_number_reading (void)
{
  static const char *const texts[] = {
    "17.868007",
    "0.000123",
    "1234567.125",
    "3644.2601019999997",
    "-2.5",
    "100",
    "0",
    "-0.0",
    "31.742933999999998",
    "1e-7",
    "123456789012345678",
    "0.1",
    "9007199254740993",
    "1.7976931348623157e308",
    "0.00000000000000000000001",
    "999999999999999.9",
  };
  g_autofree char *dir = make_dir ("numbers");
  g_autoptr (GString) rec
      = g_string_new ("{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": "
                      "{\"inter_chunk_latency\": {\"value\": [");
  g_autoptr (IvRun) r = NULL;
  const IvRunMetric *m;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_string_append_printf (rec, "%s%s", i ? ", " : "", texts[i]);
  g_string_append (rec, "], \"unit\": \"ms\"}}}\n");
  iv_test_write_file (dir, "profile_export.jsonl", rec->str);
  r = iv_run_load (dir, NULL, NULL, NULL, NULL);
  m = iv_run_get_metric (r, "inter_chunk_latency");
  g_assert_cmpuint (m->values->len, ==, G_N_ELEMENTS (texts));
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      double want = g_ascii_strtod (texts[i], NULL), got = g_array_index (m->values, double, i);
      if (memcmp (&want, &got, sizeof want) != 0)
        g_error ("%s read as %.17g, strtod says %.17g", texts[i], got, want);
    }
}

static void
test_sweep_discovery (void)
{
  g_autofree char *root = make_dir ("sweep");
  g_autofree char *empty = make_dir ("nothing-here");
  const char *paths[] = { root, NULL };
  const char *none[] = { empty, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
#define SWEEP_RUN                                                                                  \
  "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1}, \"input_config\": "          \
  "{\"endpoint\": {\"model_names\": [\"m\"]}, \"loadgen\": {\"concurrency\": %d}}}"
  int conc[] = { 10, 2, 1 };
  const char *where[] = { "c10", "deeper/c2", "a/b/c1" };

  for (int i = 0; i < 3; i++)
    {
      g_autofree char *dir = g_build_filename (root, where[i], NULL);
      g_autofree char *text = g_strdup_printf (SWEEP_RUN, conc[i]);
      iv_test_write_file (dir, "profile_export_aiperf.json", text);
    }
  s = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->runs->len, ==, 3);
  g_assert_cmpstr (((IvRun *) s->runs->pdata[0])->name, ==, "c1");  /* a/b/c1 */
  g_assert_cmpstr (((IvRun *) s->runs->pdata[1])->name, ==, "c10"); /* c10 before deeper/ */
  g_assert_cmpuint (s->varying->len, ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (s->varying->pdata[0]), ==, IV_FIELD_CONCURRENCY);
  {
    g_autofree char *label = iv_sweep_run_label (s, s->runs->pdata[2]);
    g_assert_cmpstr (label, ==, "concurrency 2");
  }
  g_assert_null (iv_sweep_load (none, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "nothing-here"));
}

/* A run folder @name under @root whose summary holds a configuration: model @model,
 * concurrency @c, mean input and output lengths @isl and @osl (0: unsaid). */
static void
write_configured_run (const char *root, const char *name, const char *model, int c, int isl,
                      int osl)
{
  g_autofree char *dir = g_build_filename (root, name, NULL);
  g_autofree char *prompt
      = isl ? g_strdup_printf (", \"input\": {\"prompt\": {\"input_tokens\": {\"mean\": %d}, "
                               "\"output_tokens\": {\"mean\": %d}}}",
                               isl, osl)
            : g_strdup ("");
  g_autofree char *text = g_strdup_printf (
      "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 1}, \"input_config\": "
      "{\"endpoint\": {\"model_names\": [\"%s\"], \"type\": \"chat\"}, \"loadgen\": "
      "{\"concurrency\": %d}%s}}",
      model, c, prompt);
  iv_test_write_file (dir, "profile_export_aiperf.json", text);
}

/* The labels of every run of the sweep under @root, joined by "|", in the sweep's order. */
static char *
labels_of (const char *root)
{
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (GString) all = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < s->runs->len; i++)
    {
      g_autofree char *label = iv_sweep_run_label (s, s->runs->pdata[i]);
      g_string_append_printf (all, "%s%s", i ? "|" : "", label);
    }
  return g_string_free (g_steal_pointer (&all), FALSE);
}

/* Run names from what varies, hand-written sweeps: lengths and load vary (short keys,
 * workload first, the constant model and endpoint left out); one field varies (its key
 * whole); one run and identical runs (their folders); two models over the same loads (the
 * model named, else two runs would read alike); a model alone varying (its name). */
static void
test_sweep_labels (void)
{
  g_autofree char *grid = make_dir ("labels/grid"), *one_field = make_dir ("labels/one-field");
  g_autofree char *single = make_dir ("labels/single"), *same = make_dir ("labels/same");
  g_autofree char *models = make_dir ("labels/models"), *model = make_dir ("labels/model");
  g_autofree char *partly = make_dir ("labels/partly");
  g_autofree char *got = NULL;

  write_configured_run (grid, "isl128_osl128/c1", "Qwen/Qwen3-0.6B", 1, 128, 128);
  write_configured_run (grid, "isl128_osl128/c16", "Qwen/Qwen3-0.6B", 16, 128, 128);
  write_configured_run (grid, "isl1024_osl128/c16", "Qwen/Qwen3-0.6B", 16, 1024, 128);
  write_configured_run (grid, "isl1024_osl512/c16", "Qwen/Qwen3-0.6B", 16, 1024, 512);
  got = labels_of (grid);
  g_assert_cmpstr (got, ==,
                   "isl 128 · osl 128 · c 1|isl 128 · osl 128 · c 16|isl 1024 · osl 128 · c 16"
                   "|isl 1024 · osl 512 · c 16");
  g_clear_pointer (&got, g_free);

  write_configured_run (one_field, "a", "m", 8, 256, 64);
  write_configured_run (one_field, "b", "m", 16, 256, 64);
  got = labels_of (one_field);
  g_assert_cmpstr (got, ==, "concurrency 8|concurrency 16");
  g_clear_pointer (&got, g_free);

  write_configured_run (single, "only", "m", 8, 256, 64);
  got = labels_of (single);
  g_assert_cmpstr (got, ==, "only");
  g_clear_pointer (&got, g_free);

  write_configured_run (same, "first", "m", 8, 256, 64);
  write_configured_run (same, "second", "m", 8, 256, 64);
  got = labels_of (same);
  g_assert_cmpstr (got, ==, "first|second");
  g_clear_pointer (&got, g_free);

  write_configured_run (models, "a1", "org/a", 1, 0, 0);
  write_configured_run (models, "a4", "org/a", 4, 0, 0);
  write_configured_run (models, "b1", "org/b", 1, 0, 0);
  got = labels_of (models);
  g_assert_cmpstr (got, ==, "org/a · c 1|org/a · c 4|org/b · c 1");
  g_clear_pointer (&got, g_free);

  write_configured_run (model, "a", "org/a", 4, 0, 0);
  write_configured_run (model, "b", "org/b", 4, 0, 0);
  got = labels_of (model);
  g_assert_cmpstr (got, ==, "org/a|org/b");
  g_clear_pointer (&got, g_free);

  /* a run without the lengths that vary is named by its folder, not "isl –" */
  write_configured_run (partly, "with", "m", 1, 128, 128);
  write_configured_run (partly, "with2", "m", 1, 256, 128);
  write_configured_run (partly, "without", "m", 1, 0, 0);
  got = labels_of (partly);
  g_assert_cmpstr (got, ==, "isl 128|isl 256|without");
}

/* The bundled sweep: three runs (one nested inside another's folder), concurrency 1, 2, 4. */
static void
test_sample_sweep (void)
{
  g_autofree char *dir = sample_run ("");
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = iv_sweep_load (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (s->runs->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpfloat (((IvRun *) s->runs->pdata[i])->concurrency, ==, (double) (1u << i));
}

/* Two requests by hand (ms from the first start): R1 starts at 0, its first token at
 * 1000, ends at 3000 with 100 tokens → 50 tok/s over [1, 3) s; R2 starts at 500, first
 * token at 1000, ends at 2000 with 30 tokens → 30 tok/s over [1, 2) s. The curve: 80 from
 * 1 s, 50 from 2 s, 0 from 3 s. */
static void
test_dispersed_throughput (void)
{
  g_autofree char *dir = make_dir ("dispersed");
  g_autoptr (IvRun) r = NULL;
  g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) order = NULL;
  g_autoptr (GError) error = NULL;

  iv_test_write_file (
      dir, "profile_export.jsonl",
      "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": 1000000500000000, "
      "\"request_end_ns\": 1000002000000000},"
      " \"metrics\": {\"time_to_first_token\": {\"value\": 500, \"unit\": \"ms\"}, "
      "\"output_sequence_length\": {\"value\": 30, \"unit\": \"tokens\"}}}\n"
      "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": 1000000000000000, "
      "\"request_end_ns\": 1000003000000000},"
      " \"metrics\": {\"time_to_first_token\": {\"value\": 1000, \"unit\": \"ms\"}, "
      "\"output_sequence_length\": {\"value\": 100, \"unit\": \"tokens\"}}}\n");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  order = iv_run_order_by_start (r);
  g_assert_cmpuint (g_array_index (order, guint32, 0), ==, 1);
  g_assert_true (iv_run_dispersed_throughput (r, t, v));
  g_assert_cmpuint (t->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (g_array_index (t, double, 0), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (v, double, 0), 80.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (t, double, 1), 2.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (v, double, 1), 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (t, double, 2), 3.0, 1e-9);
  g_assert_cmpfloat (g_array_index (v, double, 2), ==, 0.0);
}

/* Latency (lower is better) against throughput (higher is better): A (100, 50) and
 * B (200, 80) are the frontier, C (150, 40) is beaten by A, D (300, 80) by B, and E, equal
 * to A, is on it too (nothing beats it). */
static void
test_pareto_and_rolling (void)
{
  double x[] = { 100, 200, 150, 300, 100 }, y[] = { 50, 80, 40, 80, 50 };
  gboolean on[5], expect[5] = { TRUE, TRUE, FALSE, FALSE, TRUE };
  double v[200], out[200];
  GRand *rng = g_rand_new_with_seed (3);

  g_assert_false (iv_metric_higher_is_better ("request_latency"));
  g_assert_true (iv_metric_higher_is_better ("output_token_throughput_per_gpu"));
  iv_pareto_frontier (x, y, 5, FALSE, TRUE, on);
  for (int i = 0; i < 5; i++)
    g_assert_cmpint (on[i], ==, expect[i]);

  /* Steps 10 on [0, 1), 20 on [1, 3), 0 after, in two bins of 1.5 over [0, 3]: the first
   * holds 10·1 + 20·0.5 over 1.5 = 13.33…, the second 20. */
  {
    double t[] = { 0, 1, 3 }, s[] = { 10, 20, 0 }, bt[2], bv[2];
    iv_step_resample (t, s, 3, 0, 3, 2, bt, bv);
    g_assert_cmpfloat (bt[1], ==, 1.5);
    g_assert_cmpfloat_with_epsilon (bv[0], 20.0 / 1.5, 1e-12);
    g_assert_cmpfloat_with_epsilon (bv[1], 20.0, 1e-12);
  }

  /* Rolling p90 over 25 values against a sort of each window. */
  for (int i = 0; i < 200; i++)
    v[i] = i == 50 ? NAN : g_rand_double (rng);
  g_rand_free (rng);
  iv_rolling_quantile (v, 200, 25, 0.9, out);
  for (int i = 0; i < 200; i++)
    {
      g_autoptr (GArray) w = g_array_new (FALSE, FALSE, sizeof (double));
      for (int k = MAX (0, i - 24); k <= i; k++)
        if (!isnan (v[k]))
          g_array_append_val (w, v[k]);
      g_assert_cmpfloat_with_epsilon (out[i], quantile7 (w, 0.9), 1e-12);
    }
}

/* A run's value on a plot axis: statistics, configuration fields, per-GPU throughput. */
static void
test_axis_values (void)
{
  g_autofree char *dir = sample_run ("qwen_concurrency2");
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, NULL);
  IvMetricSummary s = { 0 };

  g_assert_cmpfloat (iv_run_axis_value (r, "concurrency", NULL), ==, 2);
  g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &s));
  g_assert_cmpfloat (iv_run_axis_value (r, "time_to_first_token", "p90"), ==, s.p90);
  g_assert_cmpfloat (iv_run_axis_value (r, "time_to_first_token", "avg"), ==, s.avg);
  iv_metric_summary_clear (&s);
  /* one GPU in the telemetry (one UUID, scraped through two DCGM endpoints, 9400 and
   * 9402): per GPU equals the whole; AIPerf counts 2, and a note says so */
  g_assert_cmpuint (r->gpus->len, ==, 1);
  g_assert_cmpfloat (iv_run_axis_value (r, "output_token_throughput_per_gpu", "avg"), ==,
                     iv_run_get_summary (r, "output_token_throughput")->avg);
  {
    IvGpuCountSource from;
    g_autofree char *note = NULL;
    g_assert_cmpuint (iv_run_gpu_count (r, &from), ==, 1);
    g_assert_cmpint (from, ==, IV_GPUS_TELEMETRY);
    g_assert_cmpuint (iv_run_gpu_count_aiperf (r), ==, 2);
    note = iv_run_gpu_note (r);
    g_assert_nonnull (strstr (note, "1 GPU by UUID; AIPerf counts 2"));
    g_assert_nonnull (strstr (note, "0.5× this"));
    /* --gpus 4: a quarter per GPU */
    r->gpus_override = 4;
    g_assert_cmpuint (iv_run_gpu_count (r, &from), ==, 4);
    g_assert_cmpint (from, ==, IV_GPUS_USER);
    g_assert_cmpfloat_with_epsilon (iv_run_axis_value (r, "output_token_throughput_per_gpu", "avg"),
                                    iv_run_get_summary (r, "output_token_throughput")->avg / 4,
                                    1e-9);
    r->gpus_override = 0;
  }
  g_assert_true (isnan (iv_run_axis_value (r, "no_such_metric", "avg")));
}

/* A run whose records are zstd-compressed loads the same as plain. */
static void
test_zstd_records (void)
{
  g_autofree char *dir = make_dir ("zstd");
  g_autofree char *plain_dir = sample_run ("qwen_concurrency1");
  g_autofree char *plain = g_build_filename (plain_dir, "profile_export.jsonl", NULL);
  g_autofree char *zst = g_build_filename (dir, "profile_export.jsonl.zst", NULL);
  g_autofree char *text = NULL;
  g_autofree void *packed = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  gsize len, bound, n;

  g_assert_true (g_file_get_contents (plain, &text, &len, NULL));
  bound = ZSTD_compressBound (len);
  packed = g_malloc (bound);
  n = ZSTD_compress (packed, bound, text, len, 3);
  g_assert_false (ZSTD_isError (n));
  g_assert_true (g_file_set_contents (zst, packed, (gssize) n, NULL));
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 10);
  g_assert_cmpuint (iv_run_get_metric (r, "inter_chunk_latency")->values->len, ==, 1990);
}

/* Server metrics: the bundled sample's aggregate read as AIPerf wrote it (values read
 * here with json-glib), the time series without it (means recomputed here from the
 * JSONL), and SGLang's names on a hand-made series whose rates, ratios and queue
 * means are worked out below, a counter reset included. */
static double
aggregate_stat (JsonObject *metrics, const char *name, const char *stat)
{
  JsonObject *m = json_object_get_object_member (metrics, name);
  JsonArray *series = json_object_get_array_member (m, "series");
  JsonObject *stats
      = json_object_get_object_member (json_array_get_object_element (series, 0), "stats");
  return json_object_get_double_member (stats, stat);
}

static void
test_server_metrics (void)
{
  g_autofree char *dir = sample_run ("qwen_concurrency2/qwen_concurrency4");
  g_autofree char *agg_path = g_build_filename (dir, "server_metrics_export.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  IvMetricSummary st = { 0 };
  JsonObject *metrics;

  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, agg_path, &error));
  metrics = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                           "metrics");
  g_assert_nonnull (r->server);
  g_assert_cmpstr (r->server->engine, ==, "vLLM");
  g_assert_cmpuint (r->server->endpoints->len, ==, 1);
  g_assert_true (iv_run_metric_stats (r, "server_kv_cache_usage", &st));
  g_assert_cmpint (st.source, ==, IV_STATS_SERVER_AGGREGATE);
  g_assert_cmpfloat_with_epsilon (
      st.avg, 100 * aggregate_stat (metrics, "vllm:kv_cache_usage_perc", "avg"), 1e-9);
  g_assert_cmpfloat_with_epsilon (
      st.p99, 100 * aggregate_stat (metrics, "vllm:kv_cache_usage_perc", "p99"), 1e-9);
  g_assert_cmpstr (st.unit, ==, "%");
  iv_metric_summary_clear (&st);
  g_assert_true (iv_run_metric_stats (r, "server_generation_tokens_per_sec", &st));
  g_assert_cmpfloat_with_epsilon (st.avg,
                                  aggregate_stat (metrics, "vllm:generation_tokens", "rate"), 1e-9);
  iv_metric_summary_clear (&st);
  g_assert_true (iv_run_metric_stats (r, "server_queue_time", &st));
  g_assert_cmpfloat_with_epsilon (
      st.avg,
      1000 * aggregate_stat (metrics, "vllm:request_queue_time_seconds", "sum")
          / aggregate_stat (metrics, "vllm:request_queue_time_seconds", "count"),
      1e-9);
  iv_metric_summary_clear (&st);
  g_assert_true (iv_run_metric_stats (r, "server_prefix_cache_hit_rate", &st));
  g_assert_cmpfloat_with_epsilon (
      st.avg,
      100 * aggregate_stat (metrics, "vllm:prefix_cache_hits", "total")
          / aggregate_stat (metrics, "vllm:prefix_cache_queries", "total"),
      1e-9);
  iv_metric_summary_clear (&st);
  {
    /* the server's quantities are among the run's metrics, last */
    g_autoptr (GPtrArray) tags = iv_run_metric_tags (r);
    g_assert_cmpstr (tags->pdata[tags->len - 1], ==, "server_queue_time");
  }

  /* Without the aggregate: statistics of the scrapes taken while the run's requests ran. */
  {
    g_autofree char *copy = make_dir ("server-series");
    g_autofree char *jsonl = g_build_filename (dir, "server_metrics_export.jsonl", NULL);
    g_autofree char *text = NULL, *records = NULL,
                    *rec_path = g_build_filename (dir, "profile_export.jsonl", NULL);
    g_auto (GStrv) lines = NULL;
    g_autoptr (IvRun) s = NULL;
    double sum = 0;
    guint n = 0;
    g_assert_true (g_file_get_contents (jsonl, &text, NULL, NULL));
    g_assert_true (g_file_get_contents (rec_path, &records, NULL, NULL));
    iv_test_write_file (copy, "server_metrics_export.jsonl", text);
    iv_test_write_file (copy, "profile_export.jsonl", records);
    s = iv_run_load (copy, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    lines = g_strsplit (text, "\n", -1);
    for (guint i = 0; lines[i] && lines[i][0]; i++)
      {
        g_autoptr (JsonParser) p = json_parser_new ();
        JsonObject *o, *m;
        gint64 t;
        g_assert_true (json_parser_load_from_data (p, lines[i], -1, NULL));
        o = json_node_get_object (json_parser_get_root (p));
        t = json_object_get_int_member (o, "timestamp_ns");
        m = json_object_get_object_member (o, "metrics");
        if (t < s->t0_ns || t > s->t1_ns)
          continue;
        sum += 100
               * json_object_get_double_member (
                   json_array_get_object_element (
                       json_object_get_array_member (m, "vllm:kv_cache_usage_perc"), 0),
                   "value");
        n++;
      }
    g_assert_cmpuint (n, >, 3);
    g_assert_true (iv_run_metric_stats (s, "server_kv_cache_usage", &st));
    g_assert_cmpint (st.source, ==, IV_STATS_SERVER_SERIES);
    g_assert_cmpfloat (st.count, ==, n);
    g_assert_cmpfloat_with_epsilon (st.avg, sum / n, 1e-9);
    iv_metric_summary_clear (&st);
  }

  /* SGLang's names, by hand: scrapes at 0, 1, 3 and 4 s; generation 0 → 100 → 400 → 50
   * (a restart: that interval says nothing); the queue histogram's sum 0 → 0.5 → 0.5 →
   * 0.8 over counts 0 → 10 → 10 → 13. */
  {
    g_autofree char *hand = make_dir ("server-sglang");
#define SGLANG_LINE                                                                                \
  "{\"endpoint_url\": \"http://h:30000/metrics\", \"timestamp_ns\": %s, \"metrics\": {"            \
  "\"sglang:num_running_reqs\": [{\"labels\": {\"tp_rank\": \"0\"}, \"value\": %s}, "              \
  "{\"labels\": {\"tp_rank\": \"1\"}, \"value\": 1}], "                                            \
  "\"sglang:token_usage\": [{\"value\": %s}, {\"value\": 0.5}], "                                  \
  "\"sglang:generation_tokens_total\": [{\"value\": %s}], "                                        \
  "\"sglang:cache_hit_rate\": [{\"value\": 0.25}], "                                               \
  "\"sglang:queue_time_seconds\": [{\"buckets\": {\"0.1\": 1, \"+Inf\": %s}, "                     \
  "\"sum\": %s, \"count\": %s}]}}\n"
    const char *rows[][7] = { { "1000000000", "2", "0.1", "0", "0", "0", "0" },
                              { "2000000000", "3", "0.3", "100", "10", "0.5", "10" },
                              { "4000000000", "4", "0.1", "400", "10", "0.5", "10" },
                              { "5000000000", "2", "0.3", "50", "13", "0.8", "13" } };
    g_autoptr (GString) text = g_string_new (NULL);
    g_autoptr (IvServerMetrics) m = NULL;
    const IvServerEndpoint *e;
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      g_string_append_printf (text, SGLANG_LINE, rows[i][0], rows[i][1], rows[i][2], rows[i][3],
                              rows[i][4], rows[i][5], rows[i][6]);
#undef SGLANG_LINE
    g_string_append (text, "{\"endpoint_url\": \"cut");
    iv_test_write_file (hand, "server_metrics_export.jsonl", text->str);
    {
      g_autofree char *path = g_build_filename (hand, "server_metrics_export.jsonl", NULL);
      m = iv_server_metrics_load (path, NULL, &error);
    }
    g_assert_no_error (error);
    g_assert_cmpstr (m->engine, ==, "SGLang");
    g_assert_cmpuint (m->damaged, ==, 1);
    e = m->endpoints->pdata[0];
    g_assert_cmpuint (e->ts_ns->len, ==, 4);
#define V(q, i) g_array_index (e->values[q], double, i)
    /* running: summed over the label sets (tp ranks) */
    g_assert_cmpfloat (V (IV_SERVER_RUNNING, 1), ==, 4);
    /* KV usage: averaged over them, in % */
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_KV_USAGE, 1), 40, 1e-9);
    /* generation rate: 100 tokens in 1 s, 300 in 2 s, then a reset */
    g_assert_true (isnan (V (IV_SERVER_GEN_RATE, 0)));
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_GEN_RATE, 1), 100, 1e-9);
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_GEN_RATE, 2), 150, 1e-9);
    g_assert_true (isnan (V (IV_SERVER_GEN_RATE, 3)));
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_PREFIX_HIT, 2), 25, 1e-9);
    /* queue time: 0.5 s over 10 requests = 50 ms; none in the next interval; 0.3 s over 3 */
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_QUEUE_TIME, 1), 50, 1e-9);
    g_assert_true (isnan (V (IV_SERVER_QUEUE_TIME, 2)));
    g_assert_cmpfloat_with_epsilon (V (IV_SERVER_QUEUE_TIME, 3), 100, 1e-9);
#undef V
    g_assert_false (m->has[IV_SERVER_WAITING]);
  }
}

/* The summary is read as a stream of events, not a tree: the same reading as before for
 * every shape (values worked out by hand from the text below). */
static void
test_summary_stream (void)
{
  g_autofree char *dir = make_dir ("summary-stream");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const IvMetricSummary *s;

  iv_test_write_file (
      dir, "profile_export_aiperf.json",
      "{\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 12.5, \"p99\": 20, \"min\": \"x\","
      " \"max\": null, \"std\": [1], \"extra\": {\"avg\": 99}},"
      " \"no_unit\": {\"avg\": 3},"
      " \"unit_not_text\": {\"unit\": 5, \"avg\": 3},"
      " \"request_count\": {\"unit\": \"requests\", \"avg\": 7},"
      " \"time_to_first_token\": {\"unit\": \"s\", \"avg\": 0.5},"
      " \"benchmark_duration\": {\"unit\": \"sec\", \"avg\": 4},"
      " \"input_config\": {\"endpoint\": {\"model_names\": [\"m/x\"], \"type\": \"chat\","
      "   \"streaming\": true}, \"loadgen\": {\"concurrency\": 8}},"
      " \"telemetry_data\": {\"endpoints\": {"
      "   \"e1\": {\"gpus\": {\"g0\": {\"gpu_uuid\": \"U-0\"}, \"g1\": {\"gpu_uuid\": \"U-1\"}}},"
      "   \"e2\": {\"gpus\": {\"g0\": {\"gpu_uuid\": \"U-0\"}, \"g9\": 4}}}},"
      " \"error_summary\": [{\"error_details\": {\"type\": \"Timeout\"}, \"count\": 2},"
      "   {\"error_details\": {\"code\": 5}, \"count\": 1}, {\"count\": -1}, 3]}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* metrics in file order, a tag seen twice in its first place with its last numbers */
  g_assert_cmpuint (r->summary_tags->len, ==, 3);
  g_assert_cmpstr (r->summary_tags->pdata[0], ==, "time_to_first_token");
  g_assert_cmpstr (r->summary_tags->pdata[1], ==, "request_count");
  g_assert_cmpstr (r->summary_tags->pdata[2], ==, "benchmark_duration");
  s = iv_run_get_summary (r, "time_to_first_token");
  g_assert_cmpstr (s->unit, ==, "s");
  g_assert_cmpfloat (s->avg, ==, 0.5);
  g_assert_true (isnan (s->p99));
  g_assert_null (iv_run_get_summary (r, "no_unit"));
  g_assert_null (iv_run_get_summary (r, "unit_not_text"));
  g_assert_cmpfloat (r->duration_s, ==, 4);
  g_assert_cmpstr (r->model, ==, "m/x");
  g_assert_cmpfloat (r->concurrency, ==, 8);
  g_assert_true (r->streaming);
  /* (endpoint, GPU) pairs 4 (g9 counts by its key), GPUs by uuid: U-0, U-1, g9 */
  g_assert_cmpuint (r->summary_gpu_pairs, ==, 4);
  g_assert_cmpuint (r->summary_gpu_uuids, ==, 3);
  /* errors without records: Timeout 2, unknown 1 (the count -1 and the 3 are not errors) */
  g_assert_cmpuint (r->n_errors, ==, 3);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (r->error_types, "Timeout")), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (r->error_types, "unknown")), ==, 1);
  g_clear_pointer (&r, iv_run_free);

  /* the older generation: metrics under "records", the top level's are not metrics */
  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"top\": {\"unit\": \"ms\", \"avg\": 1}, \"records\": {\"a\": {\"unit\":"
                      " \"ms\", \"avg\": 2}, \"b\": {\"unit\": \"ms\", \"p50\": 3}}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->summary_tags->len, ==, 2);
  g_assert_cmpfloat (iv_run_get_summary (r, "a")->avg, ==, 2);
  g_assert_cmpfloat (iv_run_get_summary (r, "b")->p50, ==, 3);
  g_assert_null (iv_run_get_summary (r, "top"));
  g_clear_pointer (&r, iv_run_free);

  /* refusals name the file and the place */
  iv_test_write_file (dir, "profile_export_aiperf.json", "[1, 2]");
  g_assert_null (iv_run_load (dir, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "profile_export_aiperf.json: not a JSON object"));
  g_clear_error (&error);
  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"a\": {\"unit\": \"ms\",\n \"avg\": ]}");
  g_assert_null (iv_run_load (dir, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "profile_export_aiperf.json: line 2, column"));
  g_clear_error (&error);
}

/* A line longer than the limit (lowered here to 1 MiB) is passed over and named, the
 * lines after it read; a limit that is not a number is said. */
static void
test_long_lines (void)
{
  g_autofree char *dir = make_dir ("long-lines");
  g_autofree char *pad = g_strnfill ((2 << 20) - 10, 'x');
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const char *line = "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": "
                     "{\"time_to_first_token\": {\"value\": 1, \"unit\": \"ms\"}}}\n";

  text = g_strdup_printf ("%s%s{\"pad\": \"%s\"}\n%s\n%s{\"cut\": \"%s", line, line, pad, line,
                          line, pad);
  iv_test_write_file (dir, "profile_export.jsonl", text);
  g_setenv (IV_RUN_LINE_MAX_ENV, "1", TRUE);
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_unsetenv (IV_RUN_LINE_MAX_ENV);
  g_assert_no_error (error);
  /* lines 3 and 7 (the last, cut) are past 1 MiB; line 5 is blank */
  g_assert_cmpuint (r->n_requests, ==, 4);
  g_assert_cmpuint (r->damaged_lines, ==, 2);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0],
                            "profile_export.jsonl: 2 lines longer than 1 MiB, the most a line may "
                            "hold (INFERVIEW_RECORD_LINE_MAX_MIB sets it), were skipped (the "
                            "first at line 3)"));
  g_clear_pointer (&r, iv_run_free);
  /* the default holds them: line 3 is an object without "metadata" — no request's
   * record, a damaged line (it counted as a request once) — line 7 a cut line */
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 4);
  g_assert_cmpuint (r->damaged_lines, ==, 2);
  g_assert_nonnull (strstr (r->warnings->pdata[0], "2 damaged lines skipped (the first at line 3, "
                                                   "column"));
  g_assert_nonnull (strstr (r->warnings->pdata[0], "not a request record (it has no "
                                                   "\"metadata\" object)"));
  g_clear_pointer (&r, iv_run_free);
  g_assert_cmpuint (iv_run_line_max (NULL), ==, (gsize) 256 << 20);
  {
    g_autofree char *problem = NULL;
    g_setenv (IV_RUN_LINE_MAX_ENV, "0", TRUE);
    g_assert_cmpuint (iv_run_line_max (&problem), ==, (gsize) 256 << 20);
    g_unsetenv (IV_RUN_LINE_MAX_ENV);
    g_assert_nonnull (strstr (problem, "INFERVIEW_RECORD_LINE_MAX_MIB=0 is not a whole number"));
  }
}

/* Endpoints, GPUs and their fields are found by name: interleaved, in any order, each
 * series keeps its own values in place (worked out by hand). */
static void
test_found_by_name (void)
{
  g_autofree char *dir = make_dir ("by-name");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const IvGpu *a, *b;
  const GArray *s;

  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"request_count\": {\"unit\": \"requests\", \"avg\": 1}}");
  iv_test_write_file (
      dir, "gpu_telemetry_export.jsonl",
      "{\"timestamp_ns\": 1, \"gpu_uuid\": \"A\", \"telemetry_data\": {\"u\": 1, \"p\": 10}}\n"
      "{\"timestamp_ns\": 2, \"gpu_uuid\": \"B\", \"telemetry_data\": {\"p\": 20, \"u\": 2}}\n"
      "{\"timestamp_ns\": 3, \"gpu_uuid\": \"A\", \"telemetry_data\": {\"p\": 30}}\n"
      "{\"timestamp_ns\": 4, \"gpu_uuid\": \"A\", \"telemetry_data\": {\"t\": 40, \"u\": 4}}\n"
      "{\"timestamp_ns\": 5, \"gpu_uuid\": \"A\", \"telem");
  iv_test_write_file (
      dir, "server_metrics_export.jsonl",
      "{\"endpoint_url\": \"e1\", \"timestamp_ns\": 1, \"metrics\": {\"vllm:num_requests_running\":"
      " [{\"value\": 1}]}}\n"
      "{\"endpoint_url\": \"e2\", \"timestamp_ns\": 2, \"metrics\": {\"vllm:num_requests_running\":"
      " [{\"value\": 2}]}}\n"
      "{\"endpoint_url\": \"e1\", \"timestamp_ns\": 3, \"metrics\": {\"vllm:num_requests_running\":"
      " [{\"value\": 3}]}}\n");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* a writer killed mid-line costs that line, said, not the run */
  {
    gboolean said = FALSE;
    for (guint i = 0; i < r->warnings->len; i++)
      said |= strstr (r->warnings->pdata[i],
                      "gpu_telemetry_export.jsonl: 1 damaged line skipped (line 5, column")
              != NULL;
    g_assert_true (said);
  }
  g_assert_cmpuint (r->gpus->len, ==, 2);
  a = r->gpus->pdata[0], b = r->gpus->pdata[1];
  g_assert_cmpstr (a->uuid, ==, "A");
  g_assert_cmpuint (a->ts_ns->len, ==, 3);
  s = iv_gpu_get_series (a, "u");
  g_assert_cmpfloat (g_array_index (s, double, 0), ==, 1);
  g_assert_true (isnan (g_array_index (s, double, 1)));
  g_assert_cmpfloat (g_array_index (s, double, 2), ==, 4);
  s = iv_gpu_get_series (a, "p");
  g_assert_cmpfloat (g_array_index (s, double, 1), ==, 30);
  g_assert_true (isnan (g_array_index (s, double, 2)));
  s = iv_gpu_get_series (a, "t");
  g_assert_cmpuint (s->len, ==, 3);
  g_assert_true (isnan (g_array_index (s, double, 0)) && isnan (g_array_index (s, double, 1)));
  g_assert_cmpfloat (g_array_index (s, double, 2), ==, 40);
  g_assert_cmpfloat (g_array_index (iv_gpu_get_series (b, "u"), double, 0), ==, 2);
  g_assert_cmpfloat (g_array_index (iv_gpu_get_series (b, "p"), double, 0), ==, 20);
  /* the server's endpoints by first appearance, each with its own scrapes */
  g_assert_nonnull (r->server);
  g_assert_cmpuint (r->server->endpoints->len, ==, 2);
  {
    const IvServerEndpoint *e1 = r->server->endpoints->pdata[0];
    const IvServerEndpoint *e2 = r->server->endpoints->pdata[1];
    g_assert_cmpstr (e1->url, ==, "e1");
    g_assert_cmpuint (e1->ts_ns->len, ==, 2);
    g_assert_cmpfloat (g_array_index (e1->values[IV_SERVER_RUNNING], double, 1), ==, 3);
    g_assert_cmpstr (e2->url, ==, "e2");
    g_assert_cmpuint (e2->ts_ns->len, ==, 1);
  }
}

/* ---- server metrics by Prometheus name, and AIPerf's Parquet file ---- */

#define PQ_T0 G_GINT64_CONSTANT (1765793061967310848)
#define PQ_EP_A "http://localhost:8000/metrics"
#define PQ_EP_B "http://localhost:8001/metrics"

static char *
parquet_data (const char *name)
{
  return g_build_filename (g_getenv ("IV_TEST_DATA"), "parquet", name, NULL);
}

/* A run folder: the sample's summary, and @files (name, path to copy, …, NULL). */
static char *
run_with (const char *dir_name, ...)
{
  g_autofree char *sample = sample_run ("qwen_concurrency1");
  g_autofree char *summary_path = g_build_filename (sample, "profile_export_aiperf.json", NULL);
  g_autofree char *summary = NULL;
  char *dir = make_dir (dir_name);
  const char *name;
  va_list ap;

  g_assert_true (g_file_get_contents (summary_path, &summary, NULL, NULL));
  iv_test_write_file (dir, "profile_export_aiperf.json", summary);
  va_start (ap, dir_name);
  while ((name = va_arg (ap, const char *)))
    {
      const char *from = va_arg (ap, const char *);
      g_autofree char *data = NULL, *to = g_build_filename (dir, name, NULL);
      gsize len;
      g_assert_true (g_file_get_contents (from, &data, &len, NULL));
      g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
    }
  va_end (ap);
  return dir;
}

static GPtrArray *
find_ok (const IvServerMetrics *m, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (text, &error);
  GPtrArray *found;
  g_assert_no_error (error);
  found = iv_server_metrics_find (m, spec, &error);
  g_assert_no_error (error);
  return found;
}

static char *
find_error (const IvServerMetrics *m, const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (text, &error);
  g_autoptr (GPtrArray) found = NULL;
  g_assert_no_error (error);
  found = iv_server_metrics_find (m, spec, &error);
  g_assert_null (found);
  return g_strdup (error->message);
}

/* The Parquet file of tests/data/parquet (build-aux/gen-parquet.py's test_rows: a gauge
 * at 0.25, 0.5, 0.75; a counter at 0, 120, 300; a histogram whose sum goes 0 → 0.35 over
 * counts 0 → 3, all one second apart) as a run's server metrics: found by name, endpoint
 * and labels, each value worked out by hand. */
static void
test_server_parquet (void)
{
  g_autofree char *pq = parquet_data ("dict-snappy-v1.parquet");
  g_autofree char *dir = run_with ("server-parquet", "server_metrics_export.parquet", pq, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  const IvServerMetrics *m;

  g_assert_no_error (error);
  m = r->server;
  g_assert_nonnull (m);
  g_assert_nonnull (strstr (m->parquet_path, "server_metrics_export.parquet"));
  g_assert_cmpuint (m->parquet_rows, ==, 12);
  g_assert_cmpuint (m->series->len, ==, 3);
  g_assert_cmpint (m->t0_ns, ==, PQ_T0);
  /* the quantities, from the Parquet rows alone (no JSONL) */
  g_assert_cmpstr (m->engine, ==, "vLLM");
  g_assert_cmpuint (m->endpoints->len, ==, 2);
  {
    const IvServerEndpoint *a = m->endpoints->pdata[0], *b = m->endpoints->pdata[1];
    g_assert_cmpstr (a->url, ==, PQ_EP_A);
    g_assert_cmpuint (a->ts_ns->len, ==, 3);
    g_assert_cmpfloat (g_array_index (a->values[IV_SERVER_KV_USAGE], double, 2), ==, 75);
    g_assert_cmpfloat (g_array_index (a->values[IV_SERVER_GEN_RATE], double, 1), ==, 120);
    g_assert_cmpfloat (g_array_index (a->values[IV_SERVER_GEN_RATE], double, 2), ==, 180);
    g_assert_cmpuint (b->ts_ns->len, ==, 2);
    g_assert_cmpfloat_with_epsilon (g_array_index (b->values[IV_SERVER_QUEUE_TIME], double, 1),
                                    1000 * 0.35 / 3, 1e-9);
  }
  /* by name; with its endpoint and a label; a counter named with or without _total */
  {
    g_autoptr (GPtrArray) kv = find_ok (m, "vllm:kv_cache_usage_perc");
    g_autoptr (GPtrArray) kv2 = find_ok (m, "vllm:kv_cache_usage_perc[" PQ_EP_A
                                            "]{engine='0', model_name=\"Qwen/Qwen3-0.6B\"}");
    g_autoptr (GPtrArray) gen = find_ok (m, "vllm:generation_tokens_total");
    g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (gint64));
    g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
    const IvServerSeries *s;
    g_assert_cmpuint (kv->len, ==, 1);
    g_assert_true (kv2->pdata[0] == kv->pdata[0]);
    s = kv->pdata[0];
    g_assert_cmpstr (s->labels, ==, "{\"engine\":\"0\",\"model_name\":\"Qwen/Qwen3-0.6B\"}");
    g_assert_cmpstr (s->unit, ==, "ratio");
    g_assert_cmpint (s->type, ==, IV_PROM_GAUGE);
    iv_server_series_points (s, FALSE, t, v);
    g_assert_cmpuint (v->len, ==, 3);
    g_assert_cmpfloat (g_array_index (v, double, 0), ==, 0.25);
    g_assert_cmpfloat (g_array_index (v, double, 2), ==, 0.75);
    g_assert_cmpint (g_array_index (t, gint64, 2), ==, PQ_T0 + 2000000000);
    /* a counter: its rate between scrapes, the first left out */
    g_assert_cmpuint (gen->len, ==, 1);
    s = gen->pdata[0];
    g_assert_cmpint (s->type, ==, IV_PROM_COUNTER);
    g_assert_cmpstr (s->labels, ==,
                     "{\"model_name\":\"Qwen/Qwen3-0.6B\"}"); /* null label left out */
    g_array_set_size (t, 0), g_array_set_size (v, 0);
    iv_server_series_points (s, FALSE, t, v);
    g_assert_cmpuint (v->len, ==, 2);
    g_assert_cmpfloat (g_array_index (v, double, 0), ==, 120);
    g_assert_cmpfloat (g_array_index (v, double, 1), ==, 180);
  }
  /* a histogram: its +Inf bucket's row, the mean observation between scrapes */
  {
    g_autoptr (GPtrArray) q = find_ok (m, "vllm:request_queue_time_seconds[" PQ_EP_B "]");
    g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (gint64));
    g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
    const IvServerSeries *s = q->pdata[0];
    g_assert_cmpint (s->type, ==, IV_PROM_HISTOGRAM);
    g_assert_cmpuint (s->ts_ns->len, ==, 2);
    iv_server_series_points (s, FALSE, t, v);
    g_assert_cmpuint (v->len, ==, 1);
    g_assert_cmpfloat_with_epsilon (g_array_index (v, double, 0), 0.35 / 3, 1e-12);
  }
  /* what aiperf says when a filter finds nothing: what is there instead */
  {
    g_autofree char *none = find_error (m, "vllm:num_requests_running");
    g_autofree char *ep = find_error (m, "vllm:kv_cache_usage_perc[http://localhost:9/metrics]");
    g_autofree char *labels = find_error (m, "vllm:kv_cache_usage_perc{engine=1}");
    g_assert_cmpstr (none, ==,
                     "server metric “vllm:num_requests_running” not found; the run has: "
                     "vllm:generation_tokens, vllm:kv_cache_usage_perc, "
                     "vllm:request_queue_time_seconds");
    g_assert_cmpstr (ep, ==,
                     "no “vllm:kv_cache_usage_perc” from endpoint “http://localhost:9/metrics”; "
                     "its endpoints: " PQ_EP_A);
    g_assert_cmpstr (labels, ==,
                     "no “vllm:kv_cache_usage_perc” has those labels; its label sets: "
                     "{\"engine\":\"0\",\"model_name\":\"Qwen/Qwen3-0.6B\"}");
  }
  /* statistics without an aggregate: from the points (a counter's avg is its rate) */
  {
    double v;
    const char *unit;
    g_assert_true (
        iv_server_metrics_stat (m, "vllm:kv_cache_usage_perc", "avg", &v, &unit, &error));
    g_assert_cmpfloat (v, ==, 0.5);
    g_assert_cmpstr (unit, ==, "ratio");
    g_assert_true (iv_server_metrics_stat (m, "vllm:kv_cache_usage_perc", "p75", &v, NULL, &error));
    g_assert_cmpfloat (v, ==, 0.625);
    g_assert_true (iv_server_metrics_stat (m, "vllm:generation_tokens", "avg", &v, NULL, &error));
    g_assert_cmpfloat (v, ==, 150);
    g_assert_true (iv_server_metrics_stat (m, "vllm:generation_tokens", "total", &v, NULL, &error));
    g_assert_cmpfloat (v, ==, 300);
    g_assert_no_error (error);
    g_assert_false (
        iv_server_metrics_stat (m, "vllm:kv_cache_usage_perc{x", "avg", &v, NULL, &error));
    g_assert_nonnull (strstr (error->message, "missing closing brace"));
  }
}

/* aiperf's spec syntax (plot/utils.py parse_server_metric_spec and its examples), its
 * errors, and which axis names are server metrics. */
static void
test_prom_spec (void)
{
  static const struct
  {
    const char *text, *metric, *endpoint, *labels[5];
  } ok[] = {
    { "vllm:cache_usage", "vllm:cache_usage", NULL, { NULL } },
    { "vllm:cache[http://localhost:8081/metrics]",
      "vllm:cache",
      "http://localhost:8081/metrics",
      { NULL } },
    { "vllm:requests{method='GET',status='200'}",
      "vllm:requests",
      NULL,
      { "method", "GET", "status", "200", NULL } },
    { "vllm:cache[http://localhost:8081]{instance='worker-1'}",
      "vllm:cache",
      "http://localhost:8081",
      { "instance", "worker-1", NULL } },
    { " vllm:x { a = \"b\" , }", "vllm:x", NULL, { "a", "b", NULL } },
    /* no match, and nothing unclosed: the whole text is the name, as aiperf has it */
    { "vllm:x{}", "vllm:x{}", NULL, { NULL } },
  };
  static const struct
  {
    const char *text, *want;
  } bad[] = {
    { "vllm:x[http://a", "missing closing bracket “]”" },
    { "vllm:x{a=b", "missing closing brace “}”" },
    { "vllm:x{a}", "“a” has no “=”" },
    { "vllm:x{=b}", "a label has no name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (IvPromSpec) s = iv_prom_spec_parse (ok[i].text, &error);
      guint n = 0;
      g_assert_no_error (error);
      g_assert_cmpstr (s->metric, ==, ok[i].metric);
      g_assert_cmpstr (s->endpoint, ==, ok[i].endpoint);
      while (ok[i].labels[n])
        n++;
      g_assert_cmpuint (s->labels->len, ==, n);
      for (guint k = 0; k < n; k++)
        g_assert_cmpstr (s->labels->pdata[k], ==, ok[i].labels[k]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (IvPromSpec) s = iv_prom_spec_parse (bad[i].text, &error);
      g_assert_null (s);
      g_assert_nonnull (strstr (error->message, bad[i].want));
      g_assert_nonnull (strstr (error->message, bad[i].text));
    }
  g_assert_true (iv_prom_is_server_metric (NULL, "vllm:kv_cache_usage_perc"));
  g_assert_true (iv_prom_is_server_metric (NULL, "dynamo_component_requests{x=y}"));
  g_assert_true (iv_prom_is_server_metric (NULL, "requests[http://a]"));
  g_assert_true (iv_prom_is_server_metric ("server_metrics", "request_latency"));
  g_assert_false (iv_prom_is_server_metric (NULL, "request_latency"));
  g_assert_false (iv_prom_is_server_metric (NULL, "request_count"));
  g_assert_false (iv_prom_is_server_metric ("timeslices", "Time to First Token"));
}

/* aiperf plot's 5-second windows (server_metrics_loader.py
 * _downsample_server_metrics_to_windows), by hand: points each second from 0 to 12 s
 * with the value of their second, one NaN; windows from the earliest time. */
static void
test_server_downsample (void)
{
  gint64 t[13];
  double v[13];
  static const struct
  {
    const char *method;
    double want[3];
  } cases[] = {
    { "mean", { 2.5, 7, 11 } },   { "max", { 4, 9, 12 } },     { "min", { 1, 5, 10 } },
    { "median", { 2.5, 7, 11 } }, { "bogus", { 2.5, 7, 11 } },
  };

  for (guint i = 0; i < 13; i++)
    t[i] = 1000 + (gint64) i * 1000000000, v[i] = i;
  v[0] = NAN; /* left out of its window's value, not of its time */
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GArray) ot = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) ov = g_array_new (FALSE, FALSE, sizeof (double));
      iv_server_downsample (t, v, 13, 1000, 5.0, cases[c].method, ot, ov);
      g_assert_cmpuint (ot->len, ==, 3);
      g_assert_cmpint (g_array_index (ot, gint64, 0), ==, 1000 + 2000000000);
      g_assert_cmpint (g_array_index (ot, gint64, 1), ==, 1000 + 7000000000);
      g_assert_cmpint (g_array_index (ot, gint64, 2), ==, 1000 + 11000000000);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat (g_array_index (ov, double, k), ==, cases[c].want[k]);
    }
}

/* The JSONL's series by name, against the file read here line by line, and the
 * aggregated JSON's statistics by name against the file. */
static void
test_server_jsonl_by_name (void)
{
  g_autofree char *dir = sample_run ("qwen_concurrency2");
  g_autofree char *jsonl = g_build_filename (dir, "server_metrics_export.jsonl", NULL);
  g_autofree char *meta = g_build_filename (dir, "server_metrics_metadata.json", NULL);
  g_autofree char *agg = g_build_filename (dir, "server_metrics_export.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvServerMetrics) m = iv_server_metrics_load_all (jsonl, meta, agg, NULL, &error);
  g_autoptr (GPtrArray) kv = NULL, gen = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const IvServerSeries *s;
  guint n = 0;

  g_assert_no_error (error);
  g_assert_null (m->parquet_path);
  kv = find_ok (m, "vllm:kv_cache_usage_perc");
  gen = find_ok (m, "vllm:generation_tokens");
  g_assert_cmpint (((IvServerSeries *) gen->pdata[0])->type, ==, IV_PROM_COUNTER); /* metadata */
  s = kv->pdata[0];
  g_assert_cmpint (s->type, ==, IV_PROM_GAUGE);
  g_assert_true (g_file_get_contents (jsonl, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_autoptr (JsonParser) p = json_parser_new ();
      JsonObject *o, *ms;
      g_assert_true (json_parser_load_from_data (p, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (p));
      ms = json_object_get_object_member (o, "metrics");
      g_assert_cmpint (g_array_index (s->ts_ns, gint64, n), ==,
                       json_object_get_int_member (o, "timestamp_ns"));
      g_assert_cmpfloat (g_array_index (s->value, double, n), ==,
                         json_object_get_double_member (
                             json_array_get_object_element (
                                 json_object_get_array_member (ms, "vllm:kv_cache_usage_perc"), 0),
                             "value"));
      n++;
    }
  g_assert_cmpuint (s->ts_ns->len, ==, n);
  /* statistics: AIPerf's own, from the aggregated JSON */
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *metrics;
    double v;
    g_assert_true (json_parser_load_from_file (parser, agg, &error));
    metrics = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                             "metrics");
    g_assert_true (iv_server_metrics_stat (m, "vllm:kv_cache_usage_perc", "p90", &v, NULL, &error));
    g_assert_cmpfloat (v, ==, aggregate_stat (metrics, "vllm:kv_cache_usage_perc", "p90"));
    g_assert_true (iv_server_metrics_stat (m, "vllm:generation_tokens", "avg", &v, NULL, &error));
    g_assert_cmpfloat (v, ==, aggregate_stat (metrics, "vllm:generation_tokens", "rate"));
    g_assert_no_error (error);
  }
}

/* The bundled sample's Parquet twin (build-aux/gen-parquet.py run) gives the quantities
 * its JSONL gives, scrape by scrape; a damaged Parquet file beside the JSONL costs only
 * itself, and the run says which column and page. */
static void
test_server_parquet_twin (void)
{
  g_autofree char *dir = sample_run ("qwen_concurrency1");
  g_autofree char *jsonl = g_build_filename (dir, "server_metrics_export.jsonl", NULL);
  g_autofree char *pq = g_build_filename (dir, "server_metrics_export.parquet", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvServerMetrics) a = iv_server_metrics_load (jsonl, NULL, &error);
  g_autoptr (IvServerMetrics) b = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pq, &data, &len, NULL));
  {
    g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (&data), len);
    b = iv_server_metrics_parse_parquet (bytes, "server_metrics_export.parquet", &error);
  }
  g_assert_no_error (error);
  g_assert_cmpuint (a->endpoints->len, ==, 1);
  g_assert_cmpuint (b->endpoints->len, ==, 1);
  {
    const IvServerEndpoint *ea = a->endpoints->pdata[0], *eb = b->endpoints->pdata[0];
    guint compared = 0;
    g_assert_cmpuint (ea->ts_ns->len, ==, eb->ts_ns->len);
    for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
      for (guint i = 0; i < ea->ts_ns->len; i++)
        {
          double x = g_array_index (ea->values[q], double, i);
          double y = g_array_index (eb->values[q], double, i);
          g_assert_cmpint (g_array_index (ea->ts_ns, gint64, i), ==,
                           g_array_index (eb->ts_ns, gint64, i));
          g_assert_cmpint (isnan (x), ==, isnan (y));
          if (isnan (x))
            continue;
          g_assert_cmpfloat_with_epsilon (x, y, 1e-9 * MAX (1, fabs (x)));
          compared++;
        }
    g_assert_cmpuint (compared, >, 1000);
  }
  /* damaged, beside the JSONL */
  {
    g_autofree char *bad = parquet_data ("hostile-snappy.parquet");
    g_autofree char *run = run_with ("server-parquet-damaged", "server_metrics_export.jsonl", jsonl,
                                     "server_metrics_export.parquet", bad, NULL);
    g_autoptr (IvRun) r = iv_run_load (run, NULL, NULL, NULL, &error);
    gboolean said = FALSE;
    g_assert_no_error (error);
    g_assert_nonnull (r->server);
    g_assert_null (r->server->parquet_path);
    g_assert_cmpuint (r->server->endpoints->len, ==, 1);
    g_assert_cmpuint (find_ok (r->server, "vllm:kv_cache_usage_perc")->len, ==, 1);
    for (guint i = 0; i < r->warnings->len; i++)
      said
          |= strstr (r->warnings->pdata[i], "column “unit”, row group 0, page at byte 497") != NULL;
    g_assert_true (said);
  }
}

/* AIPerf's older files, read as their writers wrote them:
 * - October 2025 (aiperf 909628b6's MetricRecordMetadata, the repository's own
 *   examples/artifacts/run1 at 7c31f579): the start as metadata.timestamp_ns, no end (it
 *   is max_response_timestamp), credit_phase, TTFT and TTST tagged "ttft" and "ttst",
 *   the summary's metrics under "records";
 * - aiperf 72338fe9: a failed request's error inside its metadata;
 * - June 2025 (the first JsonExporter, cfa53de2): metrics keyed by display name;
 * - July–October 2025 (2428cbbb's JsonExportData): the errors as errors_by_type;
 * - YAML v2: the profiling phase's rate as "rate". */
static void
test_history_formats (void)
{
  g_autofree char *oct
      = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf-history", "2025-10-records", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (oct, NULL, NULL, NULL, &error);
  const IvRunMetric *ttft;

  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 100);
  g_assert_cmpuint (r->n_errors, ==, 11);
  g_assert_cmpuint (
      GPOINTER_TO_UINT (g_hash_table_lookup (r->error_types, "RequestCancellationError")), ==, 11);
  ttft = iv_run_get_metric (r, "time_to_first_token");
  g_assert_nonnull (ttft);
  g_assert_cmpuint (ttft->values->len, ==, 89);
  g_assert_null (iv_run_get_metric (r, "ttft"));
  g_assert_nonnull (iv_run_get_metric (r, "time_to_second_token"));
  g_assert_nonnull (iv_run_get_summary (r, "time_to_first_token"));
  g_assert_cmpfloat (iv_run_get_summary (r, "time_to_first_token")->avg, ==, 2343.219436988764);
  /* the first record's start, and its end its last response (not an hour of −1s: the
   * timeline of this run once sat at −2.8 × 10⁶ h) */
  g_assert_cmpint (g_array_index (r->start_ns, gint64, 0), ==, 1759522419154829652);
  g_assert_cmpint (r->t0_ns, >, 1759522419000000000);
  g_assert_cmpint (r->t1_ns - r->t0_ns, <, (gint64) 3600 * G_USEC_PER_SEC * 1000);
  for (gsize i = 0; i < r->n_requests; i++)
    if (!(g_array_index (r->flags, guint8, i) & IV_REQUEST_FAILED))
      g_assert_cmpint (g_array_index (r->end_ns, gint64, i), >,
                       g_array_index (r->start_ns, gint64, i));
  g_assert_cmpstr (r->model, ==, "openai/gpt-oss-20b");
  g_assert_cmpfloat (r->concurrency, ==, 100);
  g_clear_pointer (&r, iv_run_free);

  {
    g_autofree char *dir = make_dir ("history-june");
    iv_test_write_file (
        dir, "profile_export_aiperf.json",
        "{\"Time to First Token (TTFT)\": {\"unit\": \"ms\", \"avg\": 123.0, \"p50\": 120.0, "
        "\"streaming_only\": true}, \"Request Latency\": {\"unit\": \"ms\", \"avg\": 900},"
        " \"errors_by_type\": [{\"error_details\": {\"code\": 500, \"type\": \"ServerError\"}, "
        "\"count\": 3}],"
        " \"input_config\": {\"models\": {\"items\": [{\"name\": \"m\"}]}, \"phases\": "
        "[{\"name\": \"warmup\", \"rate\": 1}, {\"name\": \"profiling\", \"type\": \"poisson\", "
        "\"rate\": 8.5, \"requests\": 100}]}}");
    r = iv_run_load (dir, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (iv_run_get_summary (r, "time_to_first_token")->p50, ==, 120);
    g_assert_cmpfloat (iv_run_get_summary (r, "request_latency")->avg, ==, 900);
    g_assert_cmpuint (r->n_errors, ==, 3);
    g_assert_cmpstr (r->model, ==, "m");
    g_assert_cmpfloat (r->request_rate, ==, 8.5);
    g_assert_cmpfloat (r->request_count, ==, 100);
    g_clear_pointer (&r, iv_run_free);
  }
  {
    g_autofree char *dir = make_dir ("history-metadata-error");
    iv_test_write_file (
        dir, "profile_export.jsonl",
        "{\"record_id\": \"a\", \"metadata\": {\"timestamp_ns\": 1000, "
        "\"credit_phase\": \"profiling\", \"error\": {\"code\": 499, \"type\": "
        "\"RequestCancellationError\"}}, \"metrics\": {}}\n"
        "{\"record_id\": \"b\", \"metadata\": {\"timestamp_ns\": 2000, "
        "\"credit_phase\": \"warmup\"}, \"metrics\": {\"ttft\": {\"value\": 5, "
        "\"unit\": \"ms\"}}}\n"
        "{\"record_id\": \"c\", \"metadata\": {\"timestamp_ns\": 3000000000, "
        "\"credit_phase\": \"profiling\", \"error\": null}, \"metrics\": {\"ttft\": "
        "{\"value\": 5, \"unit\": \"ms\"}, \"request_latency\": {\"value\": 40, "
        "\"unit\": \"ms\"}}}\n");
    r = iv_run_load (dir, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (r->n_requests, ==, 2);
    g_assert_cmpuint (r->n_warmup, ==, 1);
    g_assert_cmpuint (r->n_errors, ==, 1);
    g_assert_nonnull (g_hash_table_lookup (r->error_types, "RequestCancellationError"));
    /* no max_response_timestamp: the end is the start and the request's latency */
    g_assert_cmpint (g_array_index (r->end_ns, gint64, 1), ==, 3040000000);
    /* aiperf's request_number counts the warm-up record between them */
    g_assert_cmpuint (iv_run_record_number (r, 0), ==, 0);
    g_assert_cmpuint (iv_run_record_number (r, 1), ==, 2);
  }
}

/* A line that is JSON but no request's record — a list, a number, an object without
 * "metadata" (no id, no timestamps: it once moved a run's TTFT average from 51 ms to
 * 47,668 ms) — is a damaged line, counted, its line named, never a request. */
static void
test_not_records (void)
{
  g_autofree char *dir = make_dir ("not-records");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const char *good = "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": "
                     "{\"time_to_first_token\": {\"value\": 51, \"unit\": \"ms\"}}}\n";
  g_autofree char *text
      = g_strconcat (good, "[1, 2]\n",
                     "{\"metrics\": {\"time_to_first_token\": {\"value\": 95285, \"unit\": "
                     "\"ms\"}}}\n",
                     "42\n", good, NULL);

  iv_test_write_file (dir, "profile_export.jsonl", text);
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 2);
  g_assert_cmpuint (r->damaged_lines, ==, 3);
  {
    IvMetricSummary st = { 0 };
    g_assert_true (iv_run_metric_stats (r, "time_to_first_token", &st));
    g_assert_cmpfloat (st.avg, ==, 51);
    iv_metric_summary_clear (&st);
  }
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0],
                            "profile_export.jsonl: 3 damaged lines skipped (the first at line 2, "
                            "column"));
  g_assert_nonnull (strstr (r->warnings->pdata[0], "not a request record (a line holds a JSON "
                                                   "object)"));
}

/* A cell of a sweep of repeated trials that is only its confidence aggregate
 * (<base>/aggregate/concurrency_10/, the REPEATED layout): a run of its own, its
 * statistics the trials' means as aiperf plot's _load_aggregate_only reads them, its
 * concurrency and model from the metadata; a sweep's aggregate
 * (profile_export_aiperf_sweep.json) alone is a run per combination, beside the cells'
 * own runs it is a note. And the runs aiperf plot's ModeDetector would find. */
static void
test_aggregate_cells (void)
{
  g_autofree char *base = make_dir ("agg-cells");
  g_autofree char *cell = g_build_filename (base, "aggregate", "concurrency_10", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  const char *agg = "{\"schema_version\": \"1.0\", \"aiperf_version\": \"0.8.0\", \"metadata\": "
                    "{\"aggregation_type\": \"confidence\", \"num_profile_runs\": 3, "
                    "\"num_successful_runs\": 2, \"failed_runs\": [], \"confidence_level\": 0.9, "
                    "\"model\": \"m\", \"variation_values\": {\"phases.profiling.concurrency\": "
                    "10}},"
                    " \"metrics\": {\"request_latency_p99\": {\"mean\": 250, \"std\": 3, "
                    "\"unit\": \"ms\"}, \"request_latency_avg\": {\"mean\": 200, \"unit\": "
                    "\"ms\"}, \"request_throughput_avg\": {\"mean\": 7.5, \"unit\": "
                    "\"requests/sec\"}, \"request_count\": {\"mean\": 64, \"unit\": "
                    "\"requests\"}, \"benchmark_duration\": {\"mean\": 12.5, \"unit\": "
                    "\"sec\"}}}";

  iv_test_write_file (cell, "profile_export_aiperf_aggregate.json", agg);
  r = iv_run_load (cell, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (r->aggregate_only);
  g_assert_cmpstr (r->model, ==, "m");
  g_assert_cmpfloat (r->concurrency, ==, 10);
  g_assert_cmpuint (r->n_trials, ==, 2);
  g_assert_cmpfloat (r->confidence_level, ==, 0.9);
  g_assert_cmpfloat (iv_run_get_summary (r, "request_latency")->p99, ==, 250);
  g_assert_cmpfloat (iv_run_get_summary (r, "request_latency")->avg, ==, 200);
  /* a key without a statistic suffix is the metric's avg; "request_count" ends in one
   * ("count"), so it is metric "request"'s count — as aiperf splits it */
  g_assert_cmpfloat (iv_run_get_summary (r, "benchmark_duration")->avg, ==, 12.5);
  g_assert_cmpfloat (iv_run_get_summary (r, "request")->count, ==, 64);
  /* aiperf plot's values: the p50 if there (none here), else the avg */
  g_assert_cmpfloat (iv_run_axis_value_aiperf (r, "request_latency"), ==, 200);
  g_clear_pointer (&r, iv_run_free);

  {
    /* a single-run cell and its aggregate twin: aiperf enrols the cell once */
    g_autofree char *twin = g_build_filename (base, "concurrency_20", NULL);
    g_autofree char *shadow = g_build_filename (twin, "aggregate", NULL);
    const char *paths[] = { base, NULL };
    g_autoptr (GPtrArray) dirs = NULL;
    iv_test_write_file (twin, "profile_export.jsonl",
                        "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, \"metrics\": {}}\n");
    iv_test_write_file (twin, "profile_export_aiperf.json",
                        "{\"request_latency\": {\"unit\": \"ms\", \"avg\": 1}}");
    iv_test_write_file (shadow, "profile_export_aiperf_aggregate.json", agg);
    dirs = iv_aiperf_run_dirs (paths, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dirs->len, ==, 2);
    g_assert_true (g_str_has_suffix (dirs->pdata[0], "aggregate/concurrency_10"));
    g_assert_true (g_str_has_suffix (dirs->pdata[1], "concurrency_20"));
  }
  {
    g_autofree char *sweep_dir = make_dir ("agg-sweep");
    g_autofree char *sa = g_build_filename (sweep_dir, "sweep_aggregate", NULL);
    const char *paths[] = { sweep_dir, NULL };
    g_autoptr (IvSweep) sw = NULL;
    iv_test_write_file (
        sa, "profile_export_aiperf_sweep.json",
        "{\"aggregation_type\": \"sweep\", \"num_profile_runs\": 2, \"num_successful_runs\": 2, "
        "\"failed_runs\": [], \"metadata\": {\"sweep_parameters\": [{\"name\": \"concurrency\", "
        "\"values\": [10, 20]}], \"num_combinations\": 2},"
        " \"per_combination_metrics\": [{\"parameters\": {\"concurrency\": 10}, \"metrics\": "
        "{\"request_throughput_avg\": {\"mean\": 100.5, \"unit\": \"requests/sec\"}}},"
        " {\"parameters\": {\"concurrency\": 20}, \"metrics\": {\"request_throughput_avg\": "
        "{\"mean\": 180.3, \"unit\": \"requests/sec\"}}}],"
        " \"best_configurations\": {}, \"pareto_optimal\": [{\"concurrency\": 20}]}");
    sw = iv_sweep_load (paths, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sw->runs->len, ==, 2);
    g_assert_cmpstr (((IvRun *) sw->runs->pdata[1])->name, ==, "concurrency_20");
    g_assert_cmpfloat (((IvRun *) sw->runs->pdata[1])->concurrency, ==, 20);
    g_assert_cmpfloat (iv_run_axis_value (sw->runs->pdata[1], "request_throughput", "avg"), ==,
                       180.3);
    g_clear_pointer (&sw, iv_sweep_free);
    /* beside the cells' runs, the sweep's aggregate is a note */
    iv_test_write_file (sweep_dir, "concurrency_10/profile_export_aiperf.json",
                        "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 99}}");
    sw = iv_sweep_load (paths, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sw->runs->len, ==, 1);
    g_assert_cmpuint (sw->warnings->len, ==, 1);
    g_assert_nonnull (strstr (sw->warnings->pdata[0], "a sweep's aggregate of 2 combinations "
                                                      "(pareto optimal: concurrency_20)"));
  }
}

/* GPU telemetry that was collected and found no GPU: no per-GPU throughput (aiperf plot
 * draws none; assuming 1 GPU would be a number nobody measured). */
static void
test_telemetry_without_gpu (void)
{
  g_autofree char *dir = make_dir ("no-gpu");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  g_autofree char *note = NULL;

  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": 50},"
                      " \"telemetry_data\": {\"summary\": {\"endpoints_configured\": "
                      "[\"http://localhost:9400/metrics\"], \"endpoints_successful\": [], "
                      "\"start_time\": \"2025-11-07T13:38:54\", \"end_time\": "
                      "\"2025-11-07T13:43:13\"}, \"endpoints\": {}}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (r->telemetry_collected);
  g_assert_true (isnan (iv_run_axis_value (r, "output_token_throughput_per_gpu", "avg")));
  g_assert_true (isnan (iv_run_axis_value_aiperf (r, "output_token_throughput_per_gpu")));
  note = iv_run_gpu_note (r);
  g_assert_nonnull (strstr (note, "found no GPU: per-GPU throughput is not drawn"));
  g_clear_pointer (&r, iv_run_free);
  /* no telemetry at all: 1 GPU assumed, and said */
  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": 50}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (iv_run_axis_value (r, "output_token_throughput_per_gpu", "avg"), ==, 50);
}

/* A multi-run axis by Prometheus name: the server's statistic for each run (here from the
 * Parquet series, worked out by hand: the gauge's mean and p75, the counter's rate). */
static void
test_server_axis_value (void)
{
  g_autofree char *pq = parquet_data ("plain-snappy-v2.parquet");
  g_autofree char *dir = run_with ("server-axis", "server_metrics_export.parquet", pq, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpfloat (iv_run_axis_value (r, "vllm:kv_cache_usage_perc", "avg"), ==, 0.5);
  g_assert_cmpfloat (iv_run_axis_value (r, "vllm:kv_cache_usage_perc", NULL), ==, 0.5);
  g_assert_cmpfloat (iv_run_axis_value (r, "vllm:kv_cache_usage_perc[" PQ_EP_A "]", "p75"), ==,
                     0.625);
  g_assert_cmpfloat (iv_run_axis_value (r, "vllm:generation_tokens", "avg"), ==, 150);
  g_assert_true (isnan (iv_run_axis_value (r, "vllm:kv_cache_usage_perc{engine=7}", "avg")));
}

/* A run with the server metrics of aiperf's documentation
 * (tests/data/aiperf-docs/server-json: docs/server-metrics/server-metrics-json-schema.md's
 * examples, their windows under "timeslices"). */
static char *
server_json_run (const char *dir_name)
{
  g_autofree char *json = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf-docs", "server-json",
                                            "server_metrics_export.json", NULL);
  return run_with (dir_name, "server_metrics_export.json", json, NULL);
}

#define DOC_GAUGE                                                                                  \
  "dynamo_component_inflight_requests[http://localhost:10002/metrics]{dynamo_component=backend,"   \
  "dynamo_endpoint=generate,model=Qwen/Qwen3-0.6B}"
#define DOC_PREFILL "{dynamo_component=prefill,dynamo_endpoint=generate,model=Qwen/Qwen3-0.6B}"

static GPtrArray *
bands_ok (const IvServerMetrics *m, const char *spec, gboolean aiperf, guint *found)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *b = iv_server_metrics_bands (m, spec, 0, aiperf, found, &error);
  g_assert_no_error (error);
  return b;
}

static char *
bands_error (const IvServerMetrics *m, const char *spec, gboolean aiperf)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) b = iv_server_metrics_bands (m, spec, 0, aiperf, NULL, &error);
  g_assert_null (b);
  return g_strdup (error->message);
}

static double
at (const GArray *a, guint i)
{
  return g_array_index (a, double, i);
}

/* Percentile bands of a server metric from its windows, as aiperf plot's
 * PercentileBandsHandler makes them, checked by hand: a gauge's avg, max, max and min; a
 * counter's rate; a histogram's p50, p95, p99 by Prometheus' linear rule over its window's
 * buckets (window 1: 15 observations, 10 up to 0.05 and 15 up to 0.1 → p50 = 0.025 +
 * 0.025 · 7.5/10 = 0.04375, p95 = 0.05 + 0.05 · 4.25/5 = 0.0925, p99 = 0.0985); each at
 * its window's middle in seconds since 1970. aiperf takes one series: the first
 * endpoint's, its labels exactly those given (none: an unlabelled series). */
static void
test_server_bands (void)
{
  g_autofree char *dir = server_json_run ("server-bands");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  const IvServerMetrics *m;
  guint found = 0;

  g_assert_no_error (error);
  m = r->server;
  g_assert_nonnull (m);
  /* the windows as read */
  {
    const IvServerAggSeries *g = NULL;
    for (guint i = 0; i < m->agg_series->len; i++)
      if (g_str_equal (((IvServerAggSeries *) m->agg_series->pdata[i])->metric,
                       "dynamo_component_inflight_requests"))
        g = m->agg_series->pdata[i];
    g_assert_nonnull (g);
    g_assert_cmpuint (g->slices->len, ==, 2);
    g_assert_cmpint (g_array_index (g->slices, IvServerSlice, 1).start_ns, ==,
                     G_GINT64_CONSTANT (1765411637639590410));
    g_assert_cmpfloat (g_array_index (g->slices, IvServerSlice, 1).avg, ==, 31.67);
  }
  /* Prometheus' rule itself: within a bucket from the bound below (0 below the first);
   * in +Inf, the last finite bound */
  {
    const double le[] = { 1, 2, INFINITY }, a[] = { 3, 4, 5 }, b[] = { 0, 0, 5 };
    g_assert_cmpfloat_with_epsilon (iv_server_bucket_quantile (le, a, 3, 5, 0.5), 2.5 / 3, 1e-15);
    g_assert_cmpfloat (iv_server_bucket_quantile (le, a, 3, 5, 0.7), ==, 1.5);
    g_assert_cmpfloat (iv_server_bucket_quantile (le, a, 3, 5, 0.99), ==, 2);
    g_assert_cmpfloat (iv_server_bucket_quantile (le, b, 3, 5, 0.5), ==, 2);
  }
  /* a gauge: avg, max, max, and its min below */
  {
    g_autoptr (GPtrArray) bands = bands_ok (m, DOC_GAUGE, TRUE, NULL);
    const IvServerBands *b = bands->pdata[0];
    g_assert_cmpuint (bands->len, ==, 1);
    g_assert_cmpuint (b->x_s->len, ==, 2);
    /* Python's (start_ns + end_ns) / 2 / 1e9: the sum exact, then divided */
    g_assert_cmpfloat (
        at (b->x_s, 0), ==,
        (double) (G_GINT64_CONSTANT (1765411635639590410) + G_GINT64_CONSTANT (1765411637639590410))
            / 2 / 1e9);
    g_assert_cmpfloat (at (b->p50, 0), ==, 5);
    g_assert_cmpfloat (at (b->p50, 1), ==, 31.67);
    g_assert_cmpfloat (at (b->p95, 0), ==, 15);
    g_assert_cmpfloat (at (b->p99, 1), ==, 35);
    g_assert_cmpfloat (at (b->low, 0), ==, 0);
    g_assert_cmpfloat (at (b->low, 1), ==, 24);
    g_assert_cmpstr (b->unit, ==, "requests");
  }
  /* a counter: its rate as all three */
  {
    g_autoptr (GPtrArray) bands
        = bands_ok (m, "dynamo_component_request_bytes[http://localhost:10001/metrics]" DOC_PREFILL,
                    TRUE, NULL);
    const IvServerBands *b = bands->pdata[0];
    g_assert_cmpfloat (at (b->p50, 0), ==, 52353.5);
    g_assert_cmpfloat (at (b->p99, 1), ==, 37066.5);
    g_assert_null (b->low);
  }
  /* a histogram: its buckets' percentiles, not its avg */
  {
    g_autoptr (GPtrArray) bands
        = bands_ok (m, "dynamo_component_request_duration_seconds" DOC_PREFILL, TRUE, NULL);
    const IvServerBands *b = bands->pdata[0];
    g_assert_cmpfloat_with_epsilon (at (b->p50, 0), 0.04375, 1e-15);
    g_assert_cmpfloat_with_epsilon (at (b->p95, 0), 0.0925, 1e-15);
    g_assert_cmpfloat_with_epsilon (at (b->p99, 0), 0.0985, 1e-15);
    /* window 2: 12 observations, 8 up to 0.05 → p50 = 0.025 + 0.025 · 6/8 */
    g_assert_cmpfloat_with_epsilon (at (b->p50, 1), 0.04375, 1e-15);
    g_assert_cmpfloat_with_epsilon (at (b->p99, 1), 0.05 + 0.05 * 3.88 / 4, 1e-15);
  }
  /* aiperf's one series: a label filter naming some labels, or none, finds nothing */
  {
    g_autofree char *some
        = bands_error (m, "dynamo_component_inflight_requests{dynamo_component=backend}", TRUE);
    g_autofree char *none = bands_error (m, "dynamo_component_inflight_requests", TRUE);
    g_autofree char *missing = bands_error (m, "vllm:num_requests_waiting", TRUE);
    g_autofree char *no_windows
        = bands_error (m, "vllm:num_requests_running{model=Qwen/Qwen3-0.6B}", TRUE);
    g_assert_true (g_str_has_prefix (some, "labels {\"dynamo_component\":\"backend\"} not found"));
    g_assert_true (g_str_has_prefix (none, "labels {} not found for metric "
                                           "“dynamo_component_inflight_requests” on "
                                           "http://localhost:10002/metrics"));
    g_assert_true (g_str_has_prefix (missing, "metric “vllm:num_requests_waiting” not found"));
    g_assert_true (g_str_has_prefix (no_windows, "no timeslice data for metric "
                                                 "“vllm:num_requests_running”"));
  }
  /* Inferview's: the series that have the labels given, each its own bands */
  {
    g_autoptr (GPtrArray) some = bands_ok (
        m, "dynamo_component_inflight_requests{dynamo_component=backend}", FALSE, &found);
    g_autoptr (GPtrArray) hist
        = bands_ok (m, "dynamo_component_request_duration_seconds", FALSE, &found);
    g_assert_cmpuint (some->len, ==, 1);
    g_assert_cmpfloat (at (((IvServerBands *) some->pdata[0])->p99, 1), ==, 35);
    /* two series, one with windows */
    g_assert_cmpuint (found, ==, 2);
    g_assert_cmpuint (hist->len, ==, 1);
    g_assert_cmpstr (((IvServerBands *) hist->pdata[0])->name, ==, "generate");
  }
}

/* A server metric on a multi-run axis as aiperf plot's _aggregate_server_metric_into_row
 * makes it, by hand from the documentation's example: a gauge's avgs over its 3
 * endpoints averaged ((36.68 + 12.34 + 8.92) / 3), a counter's rates summed (2.23 + 2.26
 * + 2.23), whatever the statistic; a name with a filter is no column. Inferview's: the
 * statistic named, over the series the filter finds. With only a Parquet file, each
 * series' mean over its points in the configured windows; a counter has none there. */
static void
test_server_value_aiperf (void)
{
  g_autofree char *dir = server_json_run ("server-value");
  g_autofree char *pq = parquet_data ("plain-snappy-v2.parquet");
  g_autofree char *pq_dir = run_with ("server-value-pq", "server_metrics_export.parquet", pq, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_autoptr (IvRun) p = NULL;

  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (iv_run_axis_value_aiperf (r, "vllm:num_requests_running"),
                                  (36.68 + 12.34 + 8.92) / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (iv_run_axis_value_aiperf (r, "vllm:request_success"),
                                  2.23 + 2.26 + 2.23, 1e-12);
  g_assert_cmpfloat_with_epsilon (iv_run_axis_value_aiperf (r, "vllm:e2e_request_latency_seconds"),
                                  (0.044 + 0.037 + 0.041) / 3, 1e-15);
  g_assert_true (isnan (
      iv_run_axis_value_aiperf (r, "vllm:num_requests_running[http://localhost:10000/metrics]")));
  g_assert_true (isnan (iv_run_axis_value_aiperf (r, "vllm:request_success_total")));
  g_assert_cmpfloat (
      iv_run_axis_value (r, "vllm:num_requests_running[http://localhost:10000/metrics]", "p50"), ==,
      45.5);
  g_assert_cmpfloat_with_epsilon (iv_run_axis_value (r, "vllm:num_requests_running", "p50"),
                                  (45.5 + 14 + 10) / 3, 1e-12);
  p = iv_run_load (pq_dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* the gauge at 0.25, 0.5, 0.75 a second apart: one 5-s window of their mean; 1-s windows
   * of their max keep each; 5-s of their max is 0.75 */
  g_assert_cmpfloat (iv_run_axis_value_aiperf (p, "vllm:kv_cache_usage_perc"), ==, 0.5);
  g_assert_cmpfloat (iv_run_axis_value_aiperf_full (p, "vllm:kv_cache_usage_perc", 5, "max"), ==,
                     0.75);
  g_assert_cmpfloat (iv_run_axis_value_aiperf_full (p, "vllm:kv_cache_usage_perc", 1, "max"), ==,
                     0.5);
  g_assert_true (isnan (iv_run_axis_value_aiperf (p, "vllm:generation_tokens")));
  g_assert_cmpfloat (iv_run_axis_value (p, "vllm:generation_tokens", "avg"), ==, 150);
}

/* A label filter as aiperf plot's filter_server_metrics_dataframe applies it: the filter's
 * labels_json must equal the series' — every label named, and a Parquet series' "unit"
 * among them (its reader takes that column for a label) — and the name be exact.
 * Inferview's finder keeps the series that have the labels given. */
static void
test_server_label_filter (void)
{
  g_autofree char *pq = parquet_data ("dict-snappy-v1.parquet");
  g_autofree char *dir = run_with ("server-labels", "server_metrics_export.parquet", pq, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  const char *some = "vllm:kv_cache_usage_perc{engine=0}";
  const char *all = "vllm:kv_cache_usage_perc{engine=0,model_name=Qwen/Qwen3-0.6B}";
  const char *with_unit
      = "vllm:kv_cache_usage_perc{model_name=Qwen/Qwen3-0.6B,unit=ratio,engine=0}";
  const char *texts[] = { some, all, with_unit, "vllm:generation_tokens_total" };
  const gboolean ours[] = { TRUE, TRUE, FALSE, TRUE }, theirs[] = { FALSE, FALSE, TRUE, FALSE };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (texts[i], NULL);
      g_autoptr (GPtrArray) a = iv_server_metrics_find_full (r->server, spec, FALSE, NULL);
      g_autoptr (GPtrArray) b = iv_server_metrics_find_full (r->server, spec, TRUE, &error);
      g_assert_true ((a != NULL) == ours[i]);
      g_assert_true ((b != NULL) == theirs[i]);
      if (!b && i < 2)
        g_assert_true (strstr (error->message, "aiperf plot matches a series only when the "
                                               "filter names all of its labels"));
      g_clear_error (&error);
    }
  /* the lines drawn: none in aiperf's way for a partial filter */
  {
    g_autoptr (GPtrArray) lines
        = iv_server_metrics_lines (r->server, some, PQ_T0, TRUE, 5, "mean", &error);
    g_assert_null (lines);
    g_clear_error (&error);
    lines = iv_server_metrics_lines (r->server, some, PQ_T0, FALSE, 0, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (lines->len, ==, 1);
  }
}

/* aiperf plot's server metrics over time without a Parquet file: its loader's rows of the
 * JSON's windows (_timeslice_to_row: each at (start_ns + end_ns) // 2, a gauge's avg, a
 * counter's rate, a histogram's avg), filtered as filter_server_metrics_dataframe filters
 * them — by hand from the documentation's example: the gauge's windows 2 s apart at 5 and
 * 31.67; of the counter's two series only the one with windows; a partial label filter
 * and a metric without windows find nothing. */
static void
test_server_json_lines (void)
{
  g_autofree char *dir = server_json_run ("server-json-lines");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  const gint64 t0 = G_GINT64_CONSTANT (1765411636639590410);

  g_assert_no_error (error);
  g_assert_true (iv_server_metrics_aiperf_has_frame (r->server));
  {
    g_autoptr (GPtrArray) lines = iv_server_metrics_lines (
        r->server, "dynamo_component_inflight_requests", t0, TRUE, 5, "mean", &error);
    const IvServerLine *l;
    g_assert_no_error (error);
    g_assert_cmpuint (lines->len, ==, 1);
    l = lines->pdata[0];
    g_assert_cmpuint (l->t_ns->len, ==, 2);
    g_assert_cmpint (g_array_index (l->t_ns, gint64, 0), ==, t0);
    g_assert_cmpint (g_array_index (l->t_ns, gint64, 1), ==, t0 + 2000000000);
    g_assert_cmpfloat (at (l->x_s, 1), ==, 2.0);
    g_assert_cmpfloat (at (l->y, 0), ==, 5);
    g_assert_cmpfloat (at (l->y, 1), ==, 31.67);
    g_assert_cmpstr (l->unit, ==, "requests");
  }
  {
    g_autoptr (GPtrArray) lines = iv_server_metrics_lines (
        r->server, "dynamo_component_request_bytes", t0, TRUE, 5, "mean", &error);
    const IvServerLine *l;
    g_assert_no_error (error);
    g_assert_cmpuint (lines->len, ==, 1);
    l = lines->pdata[0];
    g_assert_cmpfloat (at (l->y, 0), ==, 52353.5);
    g_assert_cmpfloat (at (l->y, 1), ==, 37066.5);
    g_assert_true (strstr (l->labels, "\"dynamo_endpoint\":\"generate\""));
  }
  {
    g_autoptr (GPtrArray) lines = iv_server_metrics_lines (
        r->server, "dynamo_component_request_duration_seconds" DOC_PREFILL, t0, TRUE, 5, "mean",
        &error);
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (at (((IvServerLine *) lines->pdata[0])->y, 1),
                                    0.05263587800000025, 1e-17);
  }
  {
    g_autoptr (GPtrArray) partial = iv_server_metrics_lines (
        r->server, "dynamo_component_inflight_requests{model=Qwen/Qwen3-0.6B}", t0, TRUE, 5, "mean",
        &error);
    g_assert_null (partial);
    g_assert_true (strstr (error->message, "exactly the labels {\"model\":\"Qwen/Qwen3-0.6B\"}"));
    g_clear_error (&error);
  }
  /* Inferview's, without a series scraped: the windows too, a label filter keeping the
   * series that have those labels */
  {
    g_autoptr (GPtrArray) lines = iv_server_metrics_lines (
        r->server, "dynamo_component_inflight_requests{model=Qwen/Qwen3-0.6B}", t0, FALSE, 0, NULL,
        &error);
    g_assert_no_error (error);
    g_assert_cmpuint (lines->len, ==, 1);
    g_assert_cmpfloat (at (((IvServerLine *) lines->pdata[0])->y, 1), ==, 31.67);
  }
  {
    g_autoptr (GPtrArray) none = iv_server_metrics_lines (r->server, "vllm:num_requests_running",
                                                          t0, TRUE, 5, "mean", &error);
    g_assert_null (none);
    g_assert_true (g_str_has_prefix (error->message, "“vllm:num_requests_running” has no windows"));
    g_clear_error (&error);
  }
}

/* settings.server_metrics_downsampling reaches every preset, and thins a Parquet file's
 * points as aiperf plot's _maybe_downsample_parquet does: by hand on the test table's
 * gauge, 0.25, 0.5 and 0.75 a second apart from PQ_T0 — the default one 5-s window of
 * their mean (0.5 at T0 + 1 s); disabled, every point; 2-s windows of their max, 0.5 at
 * T0 + 0.5 s and 0.75 at T0 + 2 s. PyYAML's booleans (yes, on) are read as aiperf reads
 * them. */
static void
test_server_downsampling (void)
{
  g_autofree char *pq = parquet_data ("dict-snappy-v1.parquet");
  g_autofree char *dir
      = run_with ("server-downsampling", "server_metrics_export.parquet", pq, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
  const char *plots = "visualization:\n"
                      "  single_run_defaults: [kv]\n"
                      "  single_run_plots:\n"
                      "    kv: {type: server_metrics, y: \"vllm:kv_cache_usage_perc\"}\n"
                      "settings:\n"
                      "  server_metrics_downsampling:\n";
  const struct
  {
    const char *settings;
    gboolean enabled;
    double window_s;
    const char *method;
    guint n;
    gint64 t1;
    double v1;
  } cases[] = {
    { "    window_size_seconds: 5\n", TRUE, 5, "mean", 1, PQ_T0 + 1000000000, 0.5 },
    { "    enabled: false\n", FALSE, 5, "mean", 3, PQ_T0, 0.25 },
    { "    enabled: yes\n    window_size_seconds: 2\n    aggregation_method: max\n", TRUE, 2, "max",
      2, PQ_T0 + 500000000, 0.5 },
  };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (plots, cases[i].settings, NULL);
      g_autoptr (IvPlotConfig) c = iv_plot_config_parse (text, strlen (text), "test.yaml", &error);
      const IvPlotSpec *spec;
      const IvDownsampling *d;
      g_autoptr (GPtrArray) lines = NULL;
      const IvServerLine *l;
      g_assert_no_error (error);
      spec = iv_plot_config_get (c, FALSE, "kv");
      g_assert_nonnull (spec);
      d = spec->downsampling;
      g_assert_nonnull (d);
      g_assert_true (d->enabled == cases[i].enabled);
      g_assert_cmpfloat (d->window_s, ==, cases[i].window_s);
      g_assert_cmpstr (d->method ? d->method : "mean", ==, cases[i].method);
      lines = iv_server_metrics_lines (r->server, "vllm:kv_cache_usage_perc", PQ_T0, TRUE,
                                       d->enabled ? d->window_s : 0, d->method, &error);
      g_assert_no_error (error);
      l = lines->pdata[0];
      g_assert_cmpuint (l->t_ns->len, ==, cases[i].n);
      g_assert_cmpint (g_array_index (l->t_ns, gint64, 0), ==, cases[i].t1);
      g_assert_cmpfloat (at (l->y, 0), ==, cases[i].v1);
      if (i == 2)
        {
          g_assert_cmpint (g_array_index (l->t_ns, gint64, 1), ==, PQ_T0 + 2000000000);
          g_assert_cmpfloat (at (l->y, 1), ==, 0.75);
        }
    }
}

/* aiperf plot counts its downsampling windows from the earliest row of its frame
 * (_downsample_server_metrics_to_windows: min_ts over every series), and a counter's or a
 * histogram's first scrape is no row (_parquet_rows_with_deltas): a counter scraped at
 * 100 and 200 ns on one endpoint and a gauge at 150 and 250 ns on another start aiperf's
 * windows at 150, Inferview's clock at 100. */
static void
test_server_aiperf_t0 (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "server-aiperf-t0", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"request_count\": {\"unit\": \"requests\", \"avg\": 1}}");
  iv_test_write_file (dir, "server_metrics_export.jsonl",
                      "{\"endpoint_url\": \"b\", \"timestamp_ns\": 100, \"metrics\": "
                      "{\"vllm:request_success_total\": [{\"value\": 1}]}}\n"
                      "{\"endpoint_url\": \"a\", \"timestamp_ns\": 150, \"metrics\": "
                      "{\"vllm:num_requests_running\": [{\"value\": 1}]}}\n"
                      "{\"endpoint_url\": \"b\", \"timestamp_ns\": 200, \"metrics\": "
                      "{\"vllm:request_success_total\": [{\"value\": 3}]}}\n"
                      "{\"endpoint_url\": \"a\", \"timestamp_ns\": 250, \"metrics\": "
                      "{\"vllm:num_requests_running\": [{\"value\": 2}]}}\n");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->server->t0_ns, ==, 100);
  g_assert_cmpint (r->server->aiperf_t0_ns, ==, 150);
}

/* A sweep of repeated trials in aiperf's REPEATED mode (the layout its integration test
 * test_sweep_with_confidence_repeated_mode checks): profile_runs/trial_NNNN/<cell>/ holds
 * each trial's run of each cell, aggregate/<cell>/ each cell's confidence aggregate and
 * aggregate/sweep_aggregate/ the sweep's. The sweep is its cells, each counting its
 * trials (as the INDEPENDENT layout, <cell>/aggregate/ beside <cell>/profile_runs/, is
 * read), the trials no runs of their own and the sweep's aggregate a note. */
static void
test_repeated_sweep_layout (void)
{
  g_autofree char *base = make_dir ("repeated-sweep");
  const char *paths[] = { base, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sw = NULL;

  for (guint c = 2; c <= 4; c += 2)
    {
      g_autofree char *agg = g_strdup_printf (
          "{\"metadata\": {\"aggregation_type\": \"confidence\", \"num_profile_runs\": 2, "
          "\"num_successful_runs\": 2, \"failed_runs\": [], \"confidence_level\": 0.95}, "
          "\"metrics\": {\"request_throughput_avg\": {\"mean\": %u, \"std\": 1, \"unit\": "
          "\"requests/sec\"}}}",
          c * 10);
      g_autofree char *cell = g_strdup_printf ("concurrency_%u", c);
      g_autofree char *agg_dir = g_build_filename (base, "aggregate", cell, NULL);
      iv_test_write_file (agg_dir, "profile_export_aiperf_aggregate.json", agg);
      for (guint t = 1; t <= 2; t++)
        {
          g_autofree char *trial = g_strdup_printf ("trial_%04u", t);
          g_autofree char *dir = g_build_filename (base, "profile_runs", trial, cell, NULL);
          g_autofree char *summary = g_strdup_printf (
              "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": %u}, "
              "\"input_config\": {\"loadgen\": {\"concurrency\": %u}}}",
              c * 10 + t, c);
          iv_test_write_file (dir, "profile_export_aiperf.json", summary);
          iv_test_write_file (dir, "profile_export.jsonl",
                              "{\"metadata\": {\"benchmark_phase\": \"profiling\"}, "
                              "\"metrics\": {}}\n");
        }
    }
  {
    g_autofree char *sa = g_build_filename (base, "aggregate", "sweep_aggregate", NULL);
    iv_test_write_file (
        sa, "profile_export_aiperf_sweep.json",
        "{\"metadata\": {\"aggregation_type\": \"sweep\", \"sweep_mode\": \"repeated\", "
        "\"sweep_parameters\": [{\"name\": \"concurrency\", \"values\": [2, 4]}], "
        "\"num_combinations\": 2}, \"per_combination_metrics\": [{\"parameters\": "
        "{\"concurrency\": 2}, \"metrics\": {}}, {\"parameters\": {\"concurrency\": 4}, "
        "\"metrics\": {}}], \"pareto_optimal\": [{\"concurrency\": 4}]}");
  }
  sw = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sw->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const IvRun *r = sw->runs->pdata[i];
      g_assert_true (r->aggregate_only);
      g_assert_cmpuint (r->n_trials, ==, 2);
      g_assert_nonnull (
          strstr (r->path, i ? "aggregate/concurrency_4" : "aggregate/concurrency_2"));
      g_assert_cmpfloat (iv_run_axis_value (r, "request_throughput", "avg"), ==, (i + 1) * 20);
    }
  g_assert_cmpuint (sw->warnings->len, ==, 1);
  g_assert_nonnull (strstr (sw->warnings->pdata[0], "a sweep's aggregate of 2 combinations"));
}

/* Windows whose times are near what 64 bits hold (a hostile or damaged file): the
 * middle is (start + end) // 2 exactly as Python's integers give it, not a wrapped sum. */
static void
test_server_window_overflow (void)
{
  g_autofree char *dir = make_dir ("server-window-overflow");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  g_autoptr (GPtrArray) lines = NULL, bands = NULL;

  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"request_count\": {\"unit\": \"requests\", \"avg\": 1}}");
  iv_test_write_file (
      dir, "server_metrics_export.json",
      "{\"metrics\": {\"vllm:num_requests_running\": {\"type\": \"gauge\", \"series\": [{"
      "\"endpoint_url\": \"e\", \"stats\": {\"avg\": 1}, \"timeslices\": ["
      "{\"start_ns\": 9000000000000000001, \"end_ns\": 9200000000000000000, \"avg\": 1, "
      "\"min\": 0, \"max\": 2}]}]}}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  lines = iv_server_metrics_lines (r->server, "vllm:num_requests_running", 0, TRUE, 5, "mean",
                                   &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_array_index (((IvServerLine *) lines->pdata[0])->t_ns, gint64, 0), ==,
                   G_GINT64_CONSTANT (9100000000000000000));
  bands = iv_server_metrics_bands (r->server, "vllm:num_requests_running", 0, TRUE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (at (((IvServerBands *) bands->pdata[0])->x_s, 0), 9.1e9, 1e-3);
  g_assert_cmpfloat (iv_server_ns_seconds (G_MAXINT64, G_MININT64), >, 1.8e10);
}

/* aiperf's aggregated dict keys a series by endpoint, then labels: a second series of the
 * same keys replaces the first (ServerMetricsLoaderMixin._collect_server_metrics_json),
 * so _aggregate_server_metric_into_row sees only the later one: 3, not the mean 2. */
static void
test_server_value_replaced (void)
{
  g_autofree char *dir = make_dir ("server-value-replaced");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;

  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"request_count\": {\"unit\": \"requests\", \"avg\": 1}}");
  iv_test_write_file (
      dir, "server_metrics_export.json",
      "{\"metrics\": {\"vllm:num_requests_running\": {\"type\": \"gauge\", \"series\": ["
      "{\"endpoint_url\": \"e\", \"labels\": {\"a\": \"1\"}, \"stats\": {\"avg\": 1}},"
      "{\"endpoint_url\": \"f\", \"labels\": {\"a\": \"1\"}, \"stats\": {\"avg\": 7}},"
      "{\"endpoint_url\": \"e\", \"labels\": {\"a\": \"1\"}, \"stats\": {\"avg\": 3}}]}}}");
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (iv_run_axis_value_aiperf (r, "vllm:num_requests_running"), ==, (7 + 3) / 2.0);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-runs-XXXXXX");
  g_test_add_func ("/runs/sample-run", test_sample_run);
  g_test_add_func ("/runs/warmup-errors-prefix-gzip", test_warmup_errors_prefix_gzip);
  g_test_add_func ("/runs/old-summary-only", test_old_summary_only);
  g_test_add_func ("/runs/damaged-slices-aggregate", test_damaged_slices_aggregate);
  g_test_add_func ("/runs/what-aiperf-leaves", test_what_aiperf_leaves);
  g_test_add_func ("/runs/number-reading", test_number_reading);
  g_test_add_func ("/runs/sweep-discovery", test_sweep_discovery);
  g_test_add_func ("/runs/sample-sweep", test_sample_sweep);
  g_test_add_func ("/runs/sweep-labels", test_sweep_labels);
  g_test_add_func ("/runs/dispersed-throughput", test_dispersed_throughput);
  g_test_add_func ("/runs/pareto-and-rolling", test_pareto_and_rolling);
  g_test_add_func ("/runs/axis-values", test_axis_values);
  g_test_add_func ("/runs/zstd-records", test_zstd_records);
  g_test_add_func ("/runs/server-metrics", test_server_metrics);
  g_test_add_func ("/runs/summary-stream", test_summary_stream);
  g_test_add_func ("/runs/long-lines", test_long_lines);
  g_test_add_func ("/runs/history-formats", test_history_formats);
  g_test_add_func ("/runs/not-records", test_not_records);
  g_test_add_func ("/runs/aggregate-cells", test_aggregate_cells);
  g_test_add_func ("/runs/telemetry-without-gpu", test_telemetry_without_gpu);
  g_test_add_func ("/runs/found-by-name", test_found_by_name);
  g_test_add_func ("/runs/server-parquet", test_server_parquet);
  g_test_add_func ("/runs/prom-spec", test_prom_spec);
  g_test_add_func ("/runs/server-downsample", test_server_downsample);
  g_test_add_func ("/runs/server-jsonl-by-name", test_server_jsonl_by_name);
  g_test_add_func ("/runs/server-parquet-twin", test_server_parquet_twin);
  g_test_add_func ("/runs/server-axis-value", test_server_axis_value);
  g_test_add_func ("/runs/server-bands", test_server_bands);
  g_test_add_func ("/runs/server-value-aiperf", test_server_value_aiperf);
  g_test_add_func ("/runs/server-label-filter", test_server_label_filter);
  g_test_add_func ("/runs/server-json-lines", test_server_json_lines);
  g_test_add_func ("/runs/server-downsampling", test_server_downsampling);
  g_test_add_func ("/runs/server-aiperf-t0", test_server_aiperf_t0);
  g_test_add_func ("/runs/repeated-sweep-layout", test_repeated_sweep_layout);
  g_test_add_func ("/runs/server-window-overflow", test_server_window_overflow);
  g_test_add_func ("/runs/server-value-replaced", test_server_value_replaced);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
