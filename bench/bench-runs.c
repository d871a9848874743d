/* bench-runs: loading a run of 100,000 requests (issue 8: an ~85 MB profile_export.jsonl
 * in ≤ 1 s), median of 5 loads, beside the baseline of the same file parsed line by line
 * with json-glib (what a straightforward loader does) in the same run; and every metric's
 * statistics computed from the loaded requests.
 * Usage: bench-runs [--quick] (quick: 3 loads). The run is generated in a temporary
 * folder and removed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"
#include "iv-run.h"

#define N_REQUESTS 100000

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Records shaped like AIPerf's for a streaming chat endpoint, with a short list of
 * inter-chunk latencies: about 850 bytes each. */
static void
generate (const char *path)
{
  FILE *f = fopen (path, "w");
  GRand *rng = g_rand_new_with_seed (8);
  gint64 t = G_GINT64_CONSTANT (1762551534797067827);

  for (int i = 0; i < N_REQUESTS; i++)
    {
      double ttft = g_rand_double_range (rng, 20, 60), itl = g_rand_double_range (rng, 15, 25);
      gint64 start = t + (gint64) i * 2500000, end = start + (gint64) ((ttft + 12 * itl) * 1e6);
      fprintf (f, "{\"metadata\": {\"session_num\": %d, \"x_request_id\": \"%08x-2a8f-43b0-8327-0f97e76c6a9c\", "
                  "\"conversation_id\": null, \"turn_index\": 0, \"request_start_ns\": %" G_GINT64_FORMAT ", "
                  "\"request_ack_ns\": %" G_GINT64_FORMAT ", \"request_end_ns\": %" G_GINT64_FORMAT ", "
                  "\"worker_id\": \"worker_%d\", \"record_processor_id\": \"record_processor_63b1a30c\", "
                  "\"benchmark_phase\": \"%s\", \"was_cancelled\": false, \"cancellation_time_ns\": null}, "
                  "\"metrics\": {\"output_sequence_length\": {\"value\": 13, \"unit\": \"tokens\"}, "
                  "\"input_sequence_length\": {\"value\": 100, \"unit\": \"tokens\"}, "
                  "\"time_to_first_token\": {\"value\": %.9f, \"unit\": \"ms\"}, "
                  "\"request_latency\": {\"value\": %.9f, \"unit\": \"ms\"}, \"inter_chunk_latency\": {\"value\": [",
               i, (unsigned) i, start, start + 10000000, end, i % 8, i < 10 ? "warmup" : "profiling", ttft,
               (end - start) / 1e6);
      for (int k = 0; k < 12; k++)
        fprintf (f, "%s%.6f", k ? ", " : "", itl + g_rand_double_range (rng, -1, 1));
      fprintf (f, "], \"unit\": \"ms\"}, \"inter_token_latency\": {\"value\": %.9f, \"unit\": \"ms\"}, "
                  "\"output_token_throughput_per_user\": {\"value\": %.9f, \"unit\": \"tokens/sec/user\"}}, "
                  "\"error\": null}\n",
               itl, 1000 / itl);
    }
  fclose (f);
  g_rand_free (rng);
}

/* The baseline: a json-glib document per line, values picked out of it. */
static gsize
baseline_load (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) ttft = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (JsonParser) parser = json_parser_new ();

  g_file_get_contents (path, &text, NULL, NULL);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    {
      JsonObject *o, *m;
      double v;
      if (!json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      o = json_node_get_object (json_parser_get_root (parser));
      m = json_object_get_object_member (o, "metrics");
      v = json_object_get_double_member (json_object_get_object_member (m, "time_to_first_token"), "value");
      g_array_append_val (ttft, v);
    }
  return ttft->len;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int runs = quick ? 3 : 5;
  g_autofree char *dir = g_dir_make_tmp ("iv-bench-runs-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "profile_export.jsonl", NULL);
  double times[5], med, base, mb, stats_s;
  GStatBuf st;
  gsize base_n;
  int missed = 0;

  generate (path);
  g_stat (path, &st);
  mb = st.st_size / 1e6;
  printf ("bench-runs: %d requests, %.1f MB of profile_export.jsonl\n\n", N_REQUESTS, mb);
  for (int i = 0; i < runs; i++)
    {
      g_autoptr (GError) error = NULL;
      double t0 = now_s ();
      g_autoptr (IvRun) r = iv_run_load (dir, NULL, NULL, NULL, &error);
      times[i] = now_s () - t0;
      if (!r || r->n_requests != N_REQUESTS - 10)
        {
          fprintf (stderr, "bench-runs: %s\n", error ? error->message : "wrong request count");
          return 1;
        }
      if (i == 0)
        {
          g_autoptr (GPtrArray) tags = iv_run_metric_tags (r);
          t0 = now_s ();
          for (guint k = 0; k < tags->len; k++)
            {
              IvMetricSummary s = { 0 };
              iv_run_metric_stats (r, tags->pdata[k], &s);
              iv_metric_summary_clear (&s);
            }
          stats_s = now_s () - t0;
        }
    }
  med = bench_median (times, runs);
  {
    double t0 = now_s ();
    base_n = baseline_load (path);
    base = now_s () - t0;
  }
  printf ("load (median of %d)          %6.3f s  %6.1f MB/s   target ≤ 1 s %s\n", runs, med, mb / med,
          med <= 1.0 ? "ok" : "MISSED");
  printf ("baseline: json-glib per line %6.3f s  %6.1f MB/s   (%" G_GSIZE_FORMAT " records; %.1f× slower)\n", base,
          mb / base, base_n, base / med);
  printf ("statistics of every metric   %6.3f s\n", stats_s);
  missed += med > 1.0;
  g_unlink (path);
  g_rmdir (dir);
  printf ("\n%s\n", missed ? "some targets missed" : "all targets met");
  return missed ? 1 : 0;
}
