/* bench-runs: loading a run of 50,000 realistic requests (AIPerf's record fields and
 * metrics, 80-value inter-chunk latency lists: ~2.5 KB lines, ~125 MB; issue 16: at
 * ≥ 150 MB/s), median of 5 loads, beside the baseline of the same file parsed line by
 * line with json-glib (what a straightforward loader does) in the same run; every
 * metric's statistics from the loaded requests (by selection) beside the same with a
 * full sort of every metric; and every default single-run plot of `inferview plot`
 * drawn to PNG (target ≤ 2 s after loading).
 * Usage: bench-runs [--quick] (quick: 3 loads). The run is generated in a temporary
 * folder and removed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"
#include "iv-export.h"
#include "iv-render-runs.h"
#include "iv-run.h"
#include "iv-stats.h"

#define N_REQUESTS 50000

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Records as AIPerf 0.3 writes them for a streaming chat endpoint (the fields and metric
 * set of the bundled sample's lines), with 80 inter-chunk latencies each (an OSL of
 * 81): about 2.2 KB a line. Numbers are written as AIPerf writes them: list values
 * short ("17.868007"), computed ones as Python's 17-digit repr. */
static void
generate (const char *path)
{
  FILE *f = fopen (path, "w");
  GRand *rng = g_rand_new_with_seed (8);
  gint64 t = G_GINT64_CONSTANT (1762551534797067827);

  for (int i = 0; i < N_REQUESTS; i++)
    {
      double ttft = g_rand_double_range (rng, 20, 60), itl = g_rand_double_range (rng, 15, 25);
      gint64 start = t + (gint64) i * 2500000, end = start + (gint64) ((ttft + 80 * itl) * 1e6);
      fprintf (
          f,
          "{\"metadata\": {\"session_num\": %d, \"x_request_id\": "
          "\"%08x-2a8f-43b0-8327-0f97e76c6a9c\", "
          "\"x_correlation_id\": \"%08x-77ec-4efc-9579-cd695c6e89c4\", "
          "\"conversation_id\": \"%08x-5dbc-41a5-a353-99ae06a53bc5\", \"turn_index\": 0, "
          "\"request_start_ns\": %" G_GINT64_FORMAT ", \"request_ack_ns\": %" G_GINT64_FORMAT ", "
          "\"request_end_ns\": %" G_GINT64_FORMAT ", \"worker_id\": \"worker_%d\", "
          "\"record_processor_id\": \"record_processor_63b1a30c\", \"benchmark_phase\": \"%s\", "
          "\"was_cancelled\": false, \"cancellation_time_ns\": null}, "
          "\"metrics\": {\"output_sequence_length\": {\"value\": 81, \"unit\": \"tokens\"}, "
          "\"input_sequence_length\": {\"value\": 100, \"unit\": \"tokens\"}, "
          "\"time_to_first_token\": {\"value\": %.17g, \"unit\": \"ms\"}, "
          "\"output_token_count\": {\"value\": 81, \"unit\": \"tokens\"}, "
          "\"time_to_second_token\": {\"value\": %.17g, \"unit\": \"ms\"}, "
          "\"request_latency\": {\"value\": %.17g, \"unit\": \"ms\"}, "
          "\"time_to_first_output_token\": {\"value\": %.17g, \"unit\": \"ms\"}, "
          "\"inter_chunk_latency\": {\"value\": [",
          i, (unsigned) i, (unsigned) i * 7, (unsigned) i * 13, start, start + 10000000, end, i % 8,
          i < 10 ? "warmup" : "profiling", ttft, itl, (end - start) / 1e6, ttft);
      for (int k = 0; k < 80; k++)
        fprintf (f, "%s%.6f", k ? ", " : "", itl + g_rand_double_range (rng, -1, 1));
      fprintf (f,
               "], \"unit\": \"ms\"}, \"prefill_throughput\": {\"value\": %.17g, \"unit\": "
               "\"tokens/sec\"}, "
               "\"inter_token_latency\": {\"value\": %.17g, \"unit\": \"ms\"}, "
               "\"output_token_throughput_per_user\": {\"value\": %.17g, \"unit\": "
               "\"tokens/sec/user\"}}, "
               "\"error\": null}\n",
               100 / ttft * 1000, itl, 1000 / itl);
    }
  fclose (f);
  /* GPU telemetry every second and 25 time slices, so every default plot has its data. */
  {
    g_autofree char *dir = g_path_get_dirname (path);
    g_autofree char *tel = g_build_filename (dir, "gpu_telemetry_export.jsonl", NULL);
    g_autofree char *ts = g_build_filename (dir, "profile_export_aiperf_timeslices.json", NULL);
    double span_s = N_REQUESTS * 2.5e-3;
    f = fopen (tel, "w");
    for (int k = 0; k <= (int) span_s; k++)
      fprintf (f,
               "{\"timestamp_ns\": %" G_GINT64_FORMAT
               ", \"dcgm_url\": \"http://localhost:9400/metrics\", "
               "\"gpu_index\": 0, \"gpu_uuid\": \"GPU-0\", \"gpu_model_name\": \"H100\", "
               "\"telemetry_data\": "
               "{\"gpu_utilization\": %.1f, \"gpu_power_usage\": %.1f}}\n",
               t + (gint64) k * 1000000000, g_rand_double_range (rng, 70, 99),
               g_rand_double_range (rng, 300, 650));
    fclose (f);
    f = fopen (ts, "w");
    fputs ("{\"timeslices\": [", f);
    for (int k = 0; k < 25; k++)
      fprintf (f,
               "%s{\"timeslice_index\": %d, \"time_to_first_token\": {\"unit\": \"ms\", \"avg\": "
               "%.3f, \"std\": %.3f},"
               " \"inter_token_latency\": {\"unit\": \"ms\", \"avg\": %.3f, \"std\": %.3f}}",
               k ? ", " : "", k, g_rand_double_range (rng, 30, 50), g_rand_double_range (rng, 2, 6),
               g_rand_double_range (rng, 17, 22), g_rand_double_range (rng, 1, 2));
    fputs ("]}\n", f);
    fclose (f);
  }
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
      v = json_object_get_double_member (json_object_get_object_member (m, "time_to_first_token"),
                                         "value");
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
  double times[5], med, base, mb, stats_s = 0, sort_s = 0, sink = 0, plots_s = 0;
  g_autofree char *plot_line = NULL;
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
              iv_run_metric_stats_records (r, tags->pdata[k], &s);
              iv_metric_summary_clear (&s);
            }
          stats_s = now_s () - t0;
          /* the baseline: a sorted copy of every metric, nine quantiles read off it */
          t0 = now_s ();
          for (guint k = 0; k < tags->len; k++)
            {
              const IvRunMetric *m = iv_run_get_metric (r, tags->pdata[k]);
              gsize n = 0;
              g_autofree double *sorted
                  = m ? iv_stats_sorted_copy ((const double *) m->values->data, m->values->len, &n)
                      : NULL;
              for (int q = 1; q < 10 && n; q++)
                sink += iv_stats_quantile (sorted, n, q / 10.0);
            }
          sort_s = now_s () - t0;
        }
    }
  med = bench_median (times, runs);
  /* Every default single-run plot, as `inferview plot` writes them (2400 × 1280 PNG). */
  {
    const char *paths[] = { dir, NULL };
    g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
    g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
    g_autofree char *png = g_build_filename (dir, "plot.png", NULL);
    IvExportOptions eo;
    double t0 = now_s ();
    guint drawn = 0;
    g_autoptr (GString) each = g_string_new (NULL);

    iv_export_options_init (&eo);
    eo.width = 1200, eo.height = 640, eo.dpi = 192;
    for (guint i = 0; i < config->single_defaults->len; i++)
      {
        const IvPlotSpec *spec
            = iv_plot_config_get (config, FALSE, config->single_defaults->pdata[i]);
        g_autofree char *reason = NULL;
        IvChart *chart = spec ? iv_runs_chart (spec, sweep, sweep->runs->pdata[0], &reason) : NULL;
        IvFigure figure = { iv_chart_render, chart, "plot", NULL };
        double p0 = now_s ();
        if (!chart)
          continue;
        drawn += iv_export_to_file (&figure, &eo, png, NULL);
        iv_chart_free (chart);
        g_string_append_printf (each, "  %-40s %6.3f s\n",
                                (const char *) config->single_defaults->pdata[i], now_s () - p0);
      }
    g_unlink (png);
    plots_s = now_s () - t0;
    plot_line
        = g_strdup_printf ("%u default plots to PNG      %6.3f s               target ≤ 2 s %s\n%s",
                           drawn, plots_s, plots_s <= 2.0 ? "ok" : "MISSED", each->str);
    missed += plots_s > 2.0;
  }
  {
    double t0 = now_s ();
    base_n = baseline_load (path);
    base = now_s () - t0;
  }
  printf ("load (median of %d)          %6.3f s  %6.1f MB/s   target ≥ 150 MB/s %s\n", runs, med,
          mb / med, mb / med >= 150 ? "ok" : "MISSED");
  printf ("baseline: json-glib per line %6.3f s  %6.1f MB/s   (%" G_GSIZE_FORMAT
          " records; %.1f× slower)\n",
          base, mb / base, base_n, base / med);
  printf (
      "statistics of every metric   %6.3f s  beside sorting every metric %.3f s (%.1f× faster)%s\n",
      stats_s, sort_s, sort_s / MAX (stats_s, 1e-9), sink == 42 ? " " : "");
  fputs (plot_line, stdout);
  missed += mb / med < 150;
  {
    /* what users script today, on the same folder: pandas + matplotlib (when installed) */
    g_autofree char *script
        = g_build_filename (IV_BENCH_SOURCE_DIR, "runs-pandas-baseline.py", NULL);
    /* the system's Python: where Debian's python3-pandas is (a PATH may lead elsewhere) */
    const char *argv_py[]
        = { g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE) ? "/usr/bin/python3"
                                                                        : "python3",
            script, dir, NULL };
    g_autofree char *out = NULL;
    int status = 0;
    double py_s = 0, ours = med + stats_s + plots_s;
    if (g_spawn_sync (NULL, (char **) argv_py, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                      &status, NULL)
        && g_spawn_check_wait_status (status, NULL) && out
        && sscanf (out, "pandas+matplotlib %lf", &py_s) == 1 && py_s > 0)
      {
        printf ("load + statistics + plots     %6.3f s  beside pandas + matplotlib %.3f s: %.2f×   "
                "target ≤ 0.15× %s\n",
                ours, py_s, ours / py_s, ours / py_s <= 0.15 ? "ok" : "MISSED");
        missed += ours / py_s > 0.15;
      }
    else
      printf ("load + statistics + plots     %6.3f s  (pandas + matplotlib baseline skipped: "
              "python3-pandas and "
              "python3-matplotlib are not installed)\n",
              ours);
  }
  {
    const char *names[] = { "profile_export.jsonl", "gpu_telemetry_export.jsonl",
                            "profile_export_aiperf_timeslices.json" };
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = g_build_filename (dir, names[i], NULL);
        g_unlink (p);
      }
  }
  g_rmdir (dir);
  printf ("\n%s\n", missed ? "some targets missed" : "all targets met");
  return missed ? 1 : 0;
}
