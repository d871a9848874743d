/* bench-report: `inferview plot --html` of a sweep of 5,000 runs (issue 26, finding 6: the
 * report drew the whole chart once per series, O(series²): 1,000 runs 16 s, 5,001 more
 * than 120 s). Each run is its own model, so every runs figure has one series per run —
 * the worst case for the report's layers. The report (every multi-run preset, as --html
 * draws them, written to report.html) is timed beside the baseline measured in the same
 * run: the same presets drawn to PNG as `inferview plot --plot all` writes them (2400 ×
 * 1280). Target: the report within 2× the PNG time. The report of the first 1,000 runs
 * is timed too: linear drawing makes the 5,000-run report about 5× that, not 25×.
 * Usage: bench-report [--quick] (quick: one timing each, else the median of 3). The runs
 * are generated in a temporary folder (summaries only, ~5 KB each) and removed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"
#include "iv-export.h"
#include "iv-plot-config.h"
#include "iv-render-runs.h"
#include "iv-report.h"
#include "iv-sweep.h"

#define N_RUNS 5000
#define N_SMALL 1000

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* One metric of a summary as AIPerf writes it. */
static void
metric (FILE *f, const char *name, const char *unit, double avg, double spread)
{
  fprintf (f,
           "  \"%s\": {\"unit\": \"%s\", \"avg\": %.17g, \"p1\": %.17g, \"p5\": %.17g, "
           "\"p10\": %.17g, \"p25\": %.17g, \"p50\": %.17g, \"p75\": %.17g, \"p90\": %.17g, "
           "\"p95\": %.17g, \"p99\": %.17g, \"min\": %.17g, \"max\": %.17g, \"std\": %.17g},\n",
           name, unit, avg, avg - 2 * spread, avg - 1.6 * spread, avg - 1.3 * spread,
           avg - 0.7 * spread, avg, avg + 0.7 * spread, avg + 1.3 * spread, avg + 1.6 * spread,
           avg + 2.3 * spread, avg - 2.5 * spread, avg + 3 * spread, spread);
}

/* Run @i: profile_export_aiperf.json of a streaming chat run of model-@i at concurrency
 * 1–64, numbers that move with the load as a real sweep's do. */
static void
generate_run (const char *root, guint i, GRand *rng)
{
  g_autofree char *name = g_strdup_printf ("model-%04u_concurrency%u", i, 1 + i % 64);
  g_autofree char *dir = g_build_filename (root, name, NULL);
  g_autofree char *path = g_build_filename (dir, "profile_export_aiperf.json", NULL);
  guint conc = 1 + i % 64;
  double ttft = 25 + conc * g_rand_double_range (rng, 1.5, 2.5),
         itl = 15 + conc * g_rand_double_range (rng, 0.05, 0.15), latency = ttft + 199 * itl,
         rps = conc / (latency / 1000), tps = rps * 200;
  FILE *f;

  g_mkdir_with_parents (dir, 0755);
  f = fopen (path, "w");
  fputs ("{\n", f);
  metric (f, "request_throughput", "requests/sec", rps, 0);
  metric (f, "request_latency", "ms", latency, latency * 0.02);
  fprintf (f, "  \"request_count\": {\"unit\": \"requests\", \"avg\": 64.0},\n");
  metric (f, "time_to_first_token", "ms", ttft, ttft * 0.05);
  metric (f, "time_to_second_token", "ms", itl, itl * 0.04);
  metric (f, "inter_token_latency", "ms", itl, itl * 0.03);
  metric (f, "output_token_throughput", "tokens/sec", tps, 0);
  metric (f, "output_token_throughput_per_user", "tokens/sec/user", 1000 / itl, 1);
  metric (f, "output_sequence_length", "tokens", 200, 0);
  metric (f, "input_sequence_length", "tokens", 100, 0);
  fprintf (f,
           "  \"benchmark_duration\": {\"unit\": \"sec\", \"avg\": %.6f},\n"
           "  \"input_config\": {\"endpoint\": {\"model_names\": [\"model-%04u\"], \"type\": "
           "\"chat\", \"streaming\": true, \"url\": \"localhost:8000\"}, \"input\": {\"prompt\": "
           "{\"input_tokens\": {\"mean\": 100, \"stddev\": 0.0}, \"output_tokens\": {\"mean\": "
           "200, \"stddev\": 0.0}}}, \"loadgen\": {\"concurrency\": %u, \"request_count\": 64}}\n"
           "}\n",
           64 / rps, i, conc);
  fclose (f);
}

/* The presets --html draws for a sweep: every multi-run one. */
static GPtrArray *
all_presets (const IvPlotConfig *config)
{
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < config->multi_plots->len; i++)
    g_ptr_array_add (names, ((IvPlotSpec *) config->multi_plots->pdata[i])->name);
  return names;
}

/* The report of @sweep written to @dir/report.html; seconds, or < 0 on failure. */
static double
time_report (const IvSweep *sweep, const IvPlotConfig *config, GPtrArray *names, const char *dir,
             gsize *bytes)
{
  g_autofree char *path = g_build_filename (dir, "report.html", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) page = NULL;
  IvExportOptions eo;
  double t0 = now_s ();

  /* as `plot --html` draws: the figures at a screen's size, light */
  iv_export_options_init (&eo);
  eo.width = 1000, eo.height = 520, eo.dpi = 192, eo.text_pt = 0;
  eo.render.theme = IV_THEME_LIGHT;
  if (!(page = iv_report_html (sweep, config, names, TRUE, &eo, &error))
      || !g_file_set_contents (path, page->str, (gssize) page->len, &error))
    {
      fprintf (stderr, "bench-report: %s\n", error ? error->message : "no report");
      return -1;
    }
  *bytes = page->len;
  return now_s () - t0;
}

/* The same presets to PNG, one file each, as `plot --plot all` writes them. */
static double
time_png (const IvSweep *sweep, const IvPlotConfig *config, GPtrArray *names, const char *dir,
          guint *drawn)
{
  IvExportOptions eo;
  double t0 = now_s ();

  iv_export_options_init (&eo);
  eo.width = 1200, eo.height = 640, eo.dpi = 192;
  *drawn = 0;
  for (guint i = 0; i < names->len; i++)
    {
      const IvPlotSpec *spec = iv_plot_config_get (config, TRUE, names->pdata[i]);
      g_autofree char *reason = NULL;
      g_autofree char *file = g_strdup_printf ("%s/plot-%u.png", dir, i);
      IvRunsFigure figure;
      IvFigure f;
      if (!spec || !iv_runs_figure (spec, sweep, sweep->runs->pdata[0], &figure, &reason))
        continue;
      f = iv_runs_figure_get (&figure, names->pdata[i]);
      *drawn += iv_export_to_file (&f, &eo, file, NULL);
      iv_runs_figure_clear (&figure);
    }
  return now_s () - t0;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  /* g_ptr_array_sort passes pointers to the elements */
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The sweep of the first @n runs under @root (all of them: the folder itself). */
static IvSweep *
load (const char *root, guint n)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) d = g_dir_open (root, 0, NULL);
  const char *name;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  if (n >= names->len)
    {
      const char *only[] = { root, NULL };
      return iv_sweep_load (only, NULL, NULL, NULL, NULL);
    }
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (paths, g_build_filename (root, (const char *) names->pdata[i], NULL));
  g_ptr_array_add (paths, NULL);
  return iv_sweep_load ((const char *const *) paths->pdata, NULL, NULL, NULL, NULL);
}

/* One sweep's figures: the median wall time (and processor time) of the report and of
 * the PNGs. */
typedef struct
{
  double report, png, report_cpu, png_cpu;
  gsize bytes;
  guint drawn;
} Figures;

static double
cpu_s (void)
{
  return (double) clock () / CLOCKS_PER_SEC;
}

static gboolean
measure (const IvSweep *sweep, const IvPlotConfig *config, GPtrArray *names, const char *out,
         int reps, Figures *f)
{
  double report[3], png[3], report_cpu[3], png_cpu[3];

  for (int k = 0; k < reps; k++)
    {
      double c0 = cpu_s ();
      if ((report[k] = time_report (sweep, config, names, out, &f->bytes)) < 0)
        return FALSE;
      report_cpu[k] = cpu_s () - c0;
      c0 = cpu_s ();
      png[k] = time_png (sweep, config, names, out, &f->drawn);
      png_cpu[k] = cpu_s () - c0;
    }
  f->report = bench_median (report, reps), f->png = bench_median (png, reps);
  f->report_cpu = bench_median (report_cpu, reps), f->png_cpu = bench_median (png_cpu, reps);
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int reps = quick ? 1 : 3;
  g_autofree char *tmp = g_dir_make_tmp ("iv-bench-report-XXXXXX", NULL);
  g_autofree char *root = g_build_filename (tmp, "sweep", NULL);
  g_autofree char *out = g_build_filename (tmp, "out", NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  g_autoptr (GPtrArray) names = all_presets (config);
  GRand *rng = g_rand_new_with_seed (26);
  Figures big = { 0 }, small = { 0 };
  double load_s, t0;
  int missed = 0;

  for (guint i = 0; i < N_RUNS; i++)
    generate_run (root, i, rng);
  g_rand_free (rng);
  g_mkdir_with_parents (out, 0755);
  t0 = now_s ();
  {
    g_autoptr (IvSweep) sweep = load (root, N_RUNS);
    g_autoptr (IvSweep) first = load (root, N_SMALL);
    load_s = now_s () - t0;
    if (!sweep || sweep->runs->len != N_RUNS || !first || first->runs->len != N_SMALL)
      {
        fprintf (stderr, "bench-report: the generated sweep did not load\n");
        return 1;
      }
    printf ("bench-report: %u runs, each its own model (a series per run in every runs figure); "
            "%u presets; loaded in %.2f s; median of %d, wall (processor) seconds\n\n",
            N_RUNS, names->len, load_s, reps);
    if (!measure (first, config, names, out, reps, &small)
        || !measure (sweep, config, names, out, reps, &big))
      return 1;
  }
  printf ("                                  %u runs               %u runs\n", N_SMALL, N_RUNS);
  printf ("report.html (%u figures)        %6.2f s (%6.2f)  %5.1f MB   %6.2f s (%6.2f)  %5.1f MB\n",
          big.drawn, small.report, small.report_cpu, small.bytes / 1e6, big.report, big.report_cpu,
          big.bytes / 1e6);
  printf ("baseline: the same %u as PNG     %6.2f s (%6.2f)             %6.2f s (%6.2f)\n",
          big.drawn, small.png, small.png_cpu, big.png, big.png_cpu);
  printf ("report / PNG                     %6.2f ×                     %6.2f ×   target ≤ 2× %s\n",
          small.report / small.png, big.report / big.png,
          big.report <= 2 * big.png ? "ok" : "MISSED");
  printf ("5× the runs: the report takes %.1f× the time, the PNGs %.1f× (what grows faster than "
          "the runs is shared: laying the charts out)\n",
          big.report / small.report, big.png / small.png);
  missed += big.report > 2 * big.png;
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp);
    if (system (cmd) != 0)
      fprintf (stderr, "bench-report: could not remove %s\n", tmp);
  }
  return missed ? 1 : 0;
}
