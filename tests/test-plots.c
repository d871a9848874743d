/* test-plots.c: `aiperf plot`'s configuration as Inferview reads it, and the run charts:
 * every built-in preset on the sample runs draws a non-blank figure with the right axis
 * titles, or is skipped for the reason the data give; time slices mark their outliers. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "iv-chart-private.h"
#include "iv-export.h"
#include "iv-plot-config.h"
#include "iv-predict.h"
#include "iv-preset.h"
#include "iv-render-runs.h"
#include "iv-run-bound.h"
#include "iv-run-series.h"
#include "iv-sweep.h"
#include "iv-text.h"
#include "iv-test-util.h"

static char *tmpdir;

static char *
sample_run (const char *rel)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "aiperf", rel, NULL);
}

/* The built-in configuration is AIPerf's default: its defaults and presets. */
static void
test_builtin_config (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, &error);
  const IvPlotSpec *s;

  g_assert_no_error (error);
  g_assert_cmpstr (c->origin, ==, "built-in");
  g_assert_cmpuint (c->warnings->len, ==, 0);
  g_assert_cmpuint (c->single_defaults->len, ==, 5);
  g_assert_cmpuint (c->multi_defaults->len, ==, 4);
  g_assert_cmpstr (c->multi_defaults->pdata[0], ==, "pareto_curve_throughput_per_gpu_vs_latency");
  s = iv_plot_config_get (c, TRUE, "pareto_curve_throughput_per_gpu_vs_latency");
  g_assert_nonnull (s);
  g_assert_cmpint (s->type, ==, IV_PLOT_PARETO);
  g_assert_cmpstr (s->x.metric, ==, "request_latency");
  g_assert_cmpstr (s->x.stat, ==, "avg");
  g_assert_cmpstr (s->y.metric, ==, "output_token_throughput_per_gpu");
  g_assert_cmpstr (s->labels[0], ==, "concurrency");
  g_assert_cmpstr (s->groups[0], ==, "model");
  s = iv_plot_config_get (c, FALSE, "gpu_utilization_and_throughput_over_time");
  g_assert_cmpint (s->type, ==, IV_PLOT_DUAL_AXIS);
  g_assert_cmpstr (s->y2.metric, ==, "gpu_utilization");
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "timeslices_ttft")->type, ==, IV_PLOT_TIMESLICE);
  g_assert_cmpfloat (iv_plot_config_get (c, TRUE, "latency_throughput_uncertainty")->ci_level, ==,
                     0.95);
  g_assert_false (iv_plot_config_get (c, TRUE, "latency_throughput_uncertainty")->inferview);
  /* After AIPerf's presets, Inferview's own: 14 for one run (3 of the server's metrics),
   * 11 for several (4 of them ISL × OSL, 1 against the model's bound); none is a default, so
   * `inferview plot` alone draws what `aiperf plot` draws. */
  g_assert_cmpuint (c->single_plots->len, ==, 10 + 14);
  g_assert_cmpuint (c->multi_plots->len, ==, 4 + 11);
  g_assert_cmpint (iv_plot_config_get (c, TRUE, "bound_efficiency")->type, ==, IV_PLOT_BOUND);
  g_assert_cmpint (iv_plot_config_get (c, TRUE, "isl_osl_throughput_heatmap")->type, ==,
                   IV_PLOT_ISL_OSL_HEATMAP);
  g_assert_cmpint (iv_plot_config_get (c, TRUE, "isl_osl_pareto_grid")->type, ==,
                   IV_PLOT_ISL_OSL_PARETO);
  g_assert_cmpint (iv_plot_config_get (c, TRUE, "isl_osl_pareto_surface")->type, ==,
                   IV_PLOT_PARETO_SURFACE);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "server_load_over_time")->type, ==,
                   IV_PLOT_SERVER);
  s = c->single_plots->pdata[10];
  g_assert_cmpstr (s->name, ==, "ttft_distribution");
  g_assert_true (s->inferview);
  g_assert_cmpint (s->type, ==, IV_PLOT_DISTRIBUTION);
  g_assert_cmpstr (s->y.metric, ==, "time_to_first_token");
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "gpu_power")->type, ==, IV_PLOT_GPU);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "latency_cdf")->type, ==, IV_PLOT_CDF);
  s = iv_plot_config_get (c, TRUE, "itl_vs_concurrency");
  g_assert_cmpint (s->type, ==, IV_PLOT_SCATTER_LINE);
  g_assert_cmpstr (s->x.metric, ==, "concurrency");
  g_assert_null (s->x.stat);
  g_assert_cmpint (iv_plot_config_get (c, TRUE, "ttft_per_run")->type, ==, IV_PLOT_BOX);
}

/* A user file: unknown keys and types are warnings naming the line; broken YAML is one
 * error with line and column; the file beside a run wins over ~/.aiperf and the default. */
static void
test_user_config (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "cfg", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.yaml", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.yaml", NULL);
  g_autofree char *home_cfg
      = g_build_filename (tmpdir, "home", ".aiperf", "plot_config.yaml", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPlotConfig) c = NULL;

  iv_test_write_file (dir, "mine.yaml",
                      "visualization:\n"
                      "  single_run_defaults: [ttft_hist, missing_one]\n"
                      "  single_run_plots:\n"
                      "    ttft_hist:\n"
                      "      type: histogram\n"
                      "      y: time_to_first_token\n"
                      "      colour: red\n"
                      "    odd:\n"
                      "      type: sankey\n"
                      "    gpu_power:\n"
                      "      type: scatter\n"
                      "      x: request_number\n"
                      "      y: time_to_first_token\n"
                      "extra_section: 1\n");
  c = iv_plot_config_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "ttft_hist")->type, ==, IV_PLOT_HISTOGRAM);
  /* Inferview's own presets follow a user file's too; one it defines itself is its own */
  g_assert_true (iv_plot_config_get (c, FALSE, "ttft_cdf")->inferview);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "gpu_power")->type, ==, IV_PLOT_SCATTER);
  g_assert_false (iv_plot_config_get (c, FALSE, "gpu_power")->inferview);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "odd")->type, ==, IV_PLOT_UNKNOWN);
  g_assert_cmpuint (c->warnings->len, ==, 4);
  /* the top level is read first */
  g_assert_nonnull (strstr (c->warnings->pdata[0], "mine.yaml:14: unknown key “extra_section”"));
  g_assert_nonnull (
      strstr (c->warnings->pdata[1], "mine.yaml:7: plot “ttft_hist”: unknown key “colour”"));
  g_assert_nonnull (
      strstr (c->warnings->pdata[2], "mine.yaml:9: plot “odd”: unknown type “sankey”"));
  g_assert_nonnull (strstr (c->warnings->pdata[3], "“missing_one” is not defined"));
  g_clear_pointer (&c, iv_plot_config_free);

  iv_test_write_file (dir, "bad.yaml", "visualization:\n  single_run_defaults: [a, b\n  x: 1\n");
  g_assert_null (iv_plot_config_load (bad, &error));
  g_assert_nonnull (strstr (error->message, "bad.yaml:"));
  g_clear_error (&error);

  /* Deep nesting is refused where it goes too deep, before libyaml's loader (quadratic on
   * it: 100,000 levels took 82 s and then reported the wrong problem). Flow and block
   * styles alike. */
  {
    g_autofree char *flow = g_strnfill (100000, '[');
    g_autoptr (GString) block = g_string_new ("visualization:\n");
    for (guint i = 0; i < 100; i++)
      g_string_append_printf (block, "%*sk%u:\n", (int) (i + 1) * 2, "", i);
    iv_test_write_file (dir, "bad.yaml", flow);
    g_assert_null (iv_plot_config_load (bad, &error));
    g_assert_nonnull (strstr (error->message, "bad.yaml:1:65: nested more than 64 levels deep"));
    g_clear_error (&error);
    iv_test_write_file (dir, "bad.yaml", block->str);
    g_assert_null (iv_plot_config_load (bad, &error));
    g_assert_nonnull (strstr (error->message, "bad.yaml:65:"));
    g_assert_nonnull (strstr (error->message, "nested more than 64 levels deep"));
    g_clear_error (&error);
  }
  /* A byte-order mark is fine; UTF-16 is refused by name. */
  iv_test_write_file (dir, "bad.yaml", "\xef\xbb\xbfvisualization:\n  single_run_defaults: [x]\n");
  c = iv_plot_config_load (bad, &error);
  g_assert_no_error (error);
  g_clear_pointer (&c, iv_plot_config_free);
  {
    g_autofree char *wide = g_build_filename (dir, "wide.yaml", NULL);
    g_assert_true (g_file_set_contents (wide, "\xff\xfev\0i\0s\0", 8, NULL));
    g_assert_null (iv_plot_config_load (wide, &error));
    g_assert_nonnull (strstr (error->message, "wide.yaml: UTF-16 text: save the file as UTF-8"));
    g_clear_error (&error);
  }

  /* the search order ($HOME is this test's folder, set in main) */
  c = iv_plot_config_find (NULL, dir, &error);
  g_assert_cmpstr (c->origin, ==, "built-in");
  g_clear_pointer (&c, iv_plot_config_free);
  {
    g_autofree char *home_dir = g_path_get_dirname (home_cfg);
    iv_test_write_file (home_dir, "plot_config.yaml",
                        "visualization:\n  single_run_defaults: [from_home]\n");
  }
  c = iv_plot_config_find (NULL, dir, &error);
  g_assert_cmpstr (c->origin, ==, home_cfg);
  g_clear_pointer (&c, iv_plot_config_free);
  iv_test_write_file (dir, ".aiperf-plot-config.yaml",
                      "visualization:\n  single_run_defaults: [beside]\n");
  c = iv_plot_config_find (NULL, dir, &error);
  g_assert_nonnull (strstr (c->origin, ".aiperf-plot-config.yaml"));
  g_assert_cmpstr (c->single_defaults->pdata[0], ==, "beside");
  g_clear_pointer (&c, iv_plot_config_free);
  c = iv_plot_config_find (path, dir, &error);
  g_assert_cmpstr (c->origin, ==, path);
}

/* Pixels that are not the background (the top-left pixel's colour), as a share. */
static double
ink_share_of (cairo_surface_t *s)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  guint64 ink = 0;
  guint32 bg;

  cairo_surface_flush (s);
  bg = *(guint32 *) cairo_image_surface_get_data (s) & 0xffffff;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      ink += (((guint32 *) (cairo_image_surface_get_data (s)
                            + y * cairo_image_surface_get_stride (s)))[x]
              & 0xffffff)
             != bg;
  return ink / ((double) w * h);
}

static double
ink_share (IvChart *chart)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 450);
  cairo_t *cr = cairo_create (s);
  IvRenderOptions o = { IV_THEME_LIGHT, 1.0 };
  double share;

  g_assert_true (iv_chart_render (cr, chart, &o, 800, 450, NULL));
  cairo_destroy (cr);
  share = ink_share_of (s);
  cairo_surface_destroy (s);
  return share;
}

static void
check_preset (const IvPlotConfig *c, gboolean multi, const char *name, const IvSweep *sweep,
              const char *x_title, const char *y_title, const char *skip)
{
  const IvPlotSpec *spec = iv_plot_config_get (c, multi, name);
  g_autofree char *reason = NULL;
  IvChart *chart;

  g_assert_nonnull (spec);
  chart = iv_runs_chart (spec, sweep, sweep->runs->pdata[0], &reason);
  if (skip)
    {
      g_assert_null (chart);
      g_assert_nonnull (strstr (reason, skip));
      return;
    }
  g_assert_nonnull (chart);
  g_assert_cmpstr (iv_chart_get_title (chart), ==, spec->title);
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, x_title);
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_Y), ==, y_title);
  g_assert_cmpfloat (ink_share (chart), >, 0.02);
  iv_chart_free (chart);
}

static void
test_presets_on_samples (void)
{
  g_autofree char *all = sample_run ("");
  g_autofree char *one = sample_run ("qwen_concurrency1");
  const char *all_paths[] = { all, NULL }, *one_path[] = { one, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (all_paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvSweep) single = iv_sweep_load (one_path, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);

  check_preset (c, TRUE, "pareto_curve_throughput_per_gpu_vs_latency", sweep,
                "Request latency (avg)", "Output token throughput per GPU (avg)", NULL);
  check_preset (c, TRUE, "pareto_curve_throughput_per_gpu_vs_interactivity", sweep,
                "Output token throughput per user (avg)", "Output token throughput per GPU (avg)",
                NULL);
  check_preset (c, TRUE, "ttft_vs_throughput", sweep, "Time to first token (avg)",
                "Request throughput (avg)", NULL);
  check_preset (c, TRUE, "latency_throughput_uncertainty", sweep, NULL, NULL, "no repeated trials");
  check_preset (c, FALSE, "ttft_over_time", single, "Request (in start order)",
                "Time to first token", NULL);
  check_preset (c, FALSE, "itl_over_time", single, "Request (in start order)",
                "Inter-token latency", NULL);
  check_preset (c, FALSE, "latency_over_time", single, "Time since the first request",
                "Request latency", NULL);
  check_preset (c, FALSE, "dispersed_throughput_over_time", single, "Time since the first request",
                "Output token throughput", NULL);
  check_preset (c, FALSE, "ttft_timeline", single, "Time since the first request",
                "Time to first token", NULL);
  /* aiperf's encoding: each request a line at its TTFT across its lifetime; a point on
   * it finds the request (the sample's first line: start 1762551534797067827 ns, TTFT
   * 31.742933999999998 ms) */
  {
    const IvRun *r = single->runs->pdata[0];
    const IvPlotSpec *spec = iv_plot_config_get (c, FALSE, "ttft_timeline");
    gint64 start = G_GINT64_CONSTANT (1762551534797067827);
    guint32 first = 0;
    while (g_array_index (r->start_ns, gint64, first) != start)
      first++;
    g_assert_cmpuint (
        iv_runs_request_at (spec, r, (start - r->t0_ns) * 1e-9 + 0.5, 31.742933999999998), ==,
        first);
    /* at that time no request has a TTFT near 40 ms… but the nearest line running then is still it
     */
    g_assert_cmpuint (iv_runs_request_at (spec, r, (start - r->t0_ns) * 1e-9 + 0.5, 40), ==, first);
    /* before the run starts, none */
    g_assert_cmpuint (iv_runs_request_at (spec, r, -1, 31.7), ==, G_MAXUINT);
  }
  check_preset (c, FALSE, "gpu_utilization_and_throughput_over_time", single,
                "Time since the first request", "Output token throughput", NULL);
  check_preset (c, FALSE, "timeslices_ttft", single, NULL, NULL, "no time slices");
  /* Inferview's own presets, as the Runs workspace and `inferview plot --plot` draw them */
  check_preset (c, FALSE, "ttft_distribution", single, "Time to first token", "Requests", NULL);
  check_preset (c, FALSE, "itl_distribution", single, "Inter-token latency", "Requests", NULL);
  check_preset (c, FALSE, "latency_distribution", single, "Request latency", "Requests", NULL);
  check_preset (c, FALSE, "ttft_cdf", single, "Time to first token", "Share of requests", NULL);
  check_preset (c, FALSE, "latency_cdf", single, "Request latency", "Share of requests", NULL);
  check_preset (c, FALSE, "timeline_by_worker", single, "Time since the first request",
                "Worker (in order of first request)", NULL);
  check_preset (c, FALSE, "isl_vs_osl", single, "Input sequence length", "Output sequence length",
                NULL);
  check_preset (c, FALSE, "gpu_power", single, "Time since the first request", "GPU power", NULL);
  check_preset (c, FALSE, "gpu_memory", single, "Time since the first request", "GPU memory used",
                NULL);
  check_preset (c, FALSE, "gpu_temperature", single, "Time since the first request",
                "GPU temperature", NULL);
  check_preset (c, FALSE, "gpu_utilization", single, "Time since the first request",
                "GPU utilization", NULL);
  check_preset (c, TRUE, "ttft_per_run", sweep, "Run", "Time to first token", NULL);
  check_preset (c, TRUE, "latency_per_run", sweep, "Run", "Request latency", NULL);
  check_preset (c, TRUE, "itl_vs_concurrency", sweep, "Concurrency", "Inter-token latency (avg)",
                NULL);
  /* against the model's bound: nothing until hardware is chosen, then one point per run
   * and measure, each run's efficiency in percent */
  check_preset (c, TRUE, "bound_efficiency", sweep, NULL, NULL, "choose the hardware");
  {
    IvPlotSpec bound = *iv_plot_config_get (c, TRUE, "bound_efficiency");
    g_autofree char *reason = NULL;
    IvChart *chart;
    IvRunBound b;
    bound.bound_hardware = iv_hardware_find ("h100x8");
    chart = iv_runs_chart (&bound, sweep, sweep->runs->pdata[0], &reason);
    g_assert_nonnull (chart);
    g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Concurrency");
    /* concurrency 1 is the first point of the TTFT series */
    for (guint i = 0; i < sweep->runs->len; i++)
      if (((IvRun *) sweep->runs->pdata[i])->concurrency == 1)
        {
          iv_run_bound_compute (sweep->runs->pdata[i], NULL, bound.bound_hardware, 0, &b);
          g_assert_true (b.ok);
          g_assert_cmpfloat_with_epsilon (iv_chart_get_series (chart, 0)->y[0],
                                          100 * b.efficiency[IV_BOUND_TTFT], 1e-9);
          g_assert_cmpfloat (b.efficiency[IV_BOUND_TTFT], <, 1);
          iv_run_bound_clear (&b);
        }
    iv_chart_free (chart);
  }

  /* A comparison without a title (the window's custom one) is titled by its axes. */
  {
    IvPlotSpec untitled = { .name = (char *) "custom",
                            .type = IV_PLOT_SCATTER_LINE,
                            .x.metric = (char *) "concurrency",
                            .y.metric = (char *) "time_to_first_token" };
    g_autofree char *reason = NULL;
    IvChart *chart = iv_runs_chart (&untitled, sweep, sweep->runs->pdata[0], &reason);
    g_assert_nonnull (chart);
    g_assert_cmpstr (iv_chart_get_title (chart), ==, "Time to first token vs Concurrency");
    iv_chart_free (chart);
  }
}

static char *
isl_osl_run (const char *rel)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "isl-osl-sweep", rel, NULL);
}

/* A copy of a sample run's summary (no records) with its output token throughput set. */
static char *
copy_run (const char *from, const char *name, const char *throughput)
{
  g_autofree char *src = isl_osl_run (from), *text = NULL;
  g_autofree char *dir = g_build_filename (tmpdir, "isl-osl", name, NULL);
  g_autofree char *summary = g_build_filename (src, "profile_export_aiperf.json", NULL);
  g_autofree char *out = g_build_filename (dir, "profile_export_aiperf.json", NULL);
  g_autoptr (GRegex) re = g_regex_new (
      "(\"output_token_throughput\": \\{\\s*\"unit\": \"tokens/sec\",\\s*\"avg\": )[0-9.e+-]+", 0,
      0, NULL);
  g_autofree char *changed = NULL;

  g_assert_true (g_file_get_contents (summary, &text, NULL, NULL));
  changed = throughput ? g_regex_replace (re, text, -1, 0, throughput, 0, NULL) : g_strdup (text);
  g_assert_true (throughput == NULL || !g_str_equal (changed, text));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (out, changed, -1, NULL));
  return g_steal_pointer (&dir);
}

/* The ISL × OSL figures. Three runs at concurrency 1 — two of ISL 128 × OSL 128 with
 * throughputs 100 and 300 tokens/s (their cell: the mean, 200) and one of ISL 128 ×
 * OSL 512 at 50 — make one panel of 1 × 2 cells; one ISL and one load make no surface. */
static void
test_isl_osl (void)
{
  g_autofree char *a = copy_run ("isl128_osl128/concurrency1", "a", "\\g<1>100");
  g_autofree char *b = copy_run ("isl128_osl128/concurrency1", "b", "\\g<1>300");
  g_autofree char *c512 = copy_run ("isl128_osl512/concurrency1", "c", "\\g<1>50");
  const char *paths[] = { a, b, c512, NULL }, *only_one[] = { a, b, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvSweep) one_cell = iv_sweep_load (only_one, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  IvPlotSpec heat = *iv_plot_config_get (config, TRUE, "isl_osl_throughput_heatmap");
  g_autofree char *reason = NULL;
  IvRunsFigure f;
  IvChart *panel;
  const IvSeries *cells;

  g_assert_nonnull (sweep);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  heat.y.metric = (char *) "output_token_throughput";
  g_assert_true (iv_runs_figure (&heat, sweep, sweep->runs->pdata[0], &f, &reason));
  g_assert_nonnull (f.grid);
  g_assert_null (f.chart);
  g_assert_cmpuint (iv_chart_grid_get_rows (f.grid), ==, 1);
  g_assert_cmpuint (iv_chart_grid_get_columns (f.grid), ==, 1);
  panel = iv_chart_grid_get (f.grid, 0, 0);
  g_assert_cmpstr (iv_chart_get_title (panel), ==, "concurrency 1");
  cells = iv_chart_get_series (panel, 0);
  g_assert_cmpint (iv_series_get_kind (cells), ==, IV_SERIES_HEATMAP);
  /* one row (ISL 128), two columns (OSL 128, 512): the mean of the pair, then the one */
  g_assert_cmpuint (iv_series_get_length (cells), ==, 2);
  g_assert_cmpfloat_with_epsilon (cells->y[0], 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (cells->y[1], 50, 1e-9);
  g_assert_cmpstr (cells->labels[0], ==, "200 tokens/s");
  {
    /* the card of the first cell, where the grid drew it */
    cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 500);
    cairo_t *cr = cairo_create (img);
    IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
    const IvChartLayout *L;
    double ox, oy;
    g_autofree char *card = NULL;
    g_assert_true (iv_chart_grid_render (cr, f.grid, &opt, 800, 500, NULL));
    L = iv_chart_get_layout (panel);
    g_assert_true (iv_chart_grid_panel_origin (f.grid, 0, 0, &ox, &oy));
    card = iv_chart_grid_describe_at (f.grid, ox + iv_chart_to_pixel (L, IV_AXIS_X, 1),
                                      oy + iv_chart_to_pixel (L, IV_AXIS_Y, 0), 10);
    g_assert_cmpstr (card, ==,
                     "concurrency 1\nOutput token throughput (avg): 50 tokens/s\n"
                     "Output tokens (OSL): 512\nInput tokens (ISL): 128");
    cairo_destroy (cr);
    cairo_surface_destroy (img);
  }
  iv_runs_figure_clear (&f);
  g_clear_pointer (&reason, g_free);

  /* small multiples: a panel per cell, the pair's two points in the first */
  g_assert_true (iv_runs_figure (iv_plot_config_get (config, TRUE, "isl_osl_pareto_grid"), sweep,
                                 sweep->runs->pdata[0], &f, &reason));
  g_assert_cmpuint (iv_chart_grid_get_columns (f.grid), ==, 2);
  g_assert_cmpstr (iv_chart_get_title (iv_chart_grid_get (f.grid, 0, 1)), ==, "ISL 128 · OSL 512");
  iv_runs_figure_clear (&f);
  g_clear_pointer (&reason, g_free);

  /* a surface needs two input lengths */
  g_assert_false (iv_runs_figure (iv_plot_config_get (config, TRUE, "isl_osl_pareto_surface"),
                                  sweep, sweep->runs->pdata[0], &f, &reason));
  g_assert_nonnull (strstr (reason, "two input lengths"));
  g_clear_pointer (&reason, g_free);

  /* one cell is no ISL × OSL comparison */
  g_assert_false (iv_runs_figure (&heat, one_cell, one_cell->runs->pdata[0], &f, &reason));
  g_assert_nonnull (strstr (reason, "one ISL × OSL cell"));
}

/* The bundled sweep's surface: 3 OSL × 3 ISL × 4 concurrencies, every point drawn with
 * its card; a turn moves the points, not the data. */
static void
test_isl_osl_surface (void)
{
  g_autofree char *dir = isl_osl_run ("");
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  g_autofree char *reason = NULL, *text = NULL, *card = NULL;
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 600);
  cairo_t *cr = cairo_create (img);
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  IvRunsFigure f;
  double px, py, qx, qy;

  g_assert_cmpuint (sweep->runs->len, ==, 36);
  g_assert_true (iv_runs_figure (iv_plot_config_get (config, TRUE, "isl_osl_pareto_surface"), sweep,
                                 sweep->runs->pdata[0], &f, &reason));
  g_assert_nonnull (f.surface);
  g_assert_true (iv_surface_render (cr, f.surface, &opt, 900, 600, NULL));
  g_assert_cmpuint (iv_surface_get_n_points (f.surface), ==, 36);
  g_assert_true (iv_surface_get_point (f.surface, 0, &px, &py, &text));
  g_assert_true (g_str_has_prefix (text, "OSL 128 — concurrency 1\n"));
  g_assert_nonnull (strstr (text, "Input tokens (ISL): 128"));
  card = iv_surface_describe_at (f.surface, px, py, 5);
  g_assert_cmpstr (card, ==, text);
  g_assert_true (px > 0 && px < 900 && py > 0 && py < 600);
  g_assert_cmpfloat (ink_share_of (img), >, 0.03);
  iv_surface_set_view (f.surface, IV_SURFACE_AZIMUTH + 90, IV_SURFACE_ELEVATION);
  g_assert_true (iv_surface_render (cr, f.surface, &opt, 900, 600, NULL));
  g_clear_pointer (&text, g_free);
  g_assert_true (iv_surface_get_point (f.surface, 0, &qx, &qy, &text));
  g_assert_true (fabs (qx - px) + fabs (qy - py) > 5);
  cairo_destroy (cr);
  cairo_surface_destroy (img);
  iv_runs_figure_clear (&f);
}

/* Time slices: the mean with ±std, and a slice far from the others marked. Averages 10,
 * 10, 10, 10, 10, 10, 10, 40 and a partial last slice at 90 (not judged): the 40 is more
 * than two standard deviations (9.9) from the mean of the complete slices (13.75). */
/* Time slices as aiperf plot draws them (PlotGenerator.create_timeslice_scatter): on its
 * "0-5", "5-10" axis when the run says the slices' width, the run's average and ± its std
 * across, and the directional rule of detect_directional_outliers: a slice is an outlier
 * above run avg + run std + its own std (below run avg − run std − its std for a
 * throughput). Worked out by hand: TTFT avg 20, std 5, slices' std 1 → above 26. */
static void
test_timeslice_outliers (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "slices", NULL);
  g_autoptr (GString) json = g_string_new ("{\"timeslices\": [");
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);
  g_autoptr (IvSweep) sweep = NULL;
  g_autofree char *reason = NULL;
  const char *paths[] = { dir, NULL };
  double ttft[] = { 10, 10, 22, 27, 60, 25.5 };
  double tpu[] = { 30, 30, 30, 12, 30, 30 };
  IvChart *chart;
  IvPlotSpec spec;

  /* AIPerf 2026's TimesliceMetricsJsonExporter: slices by position, no timeslice_index */
  for (int i = 0; i < 6; i++)
    g_string_append_printf (
        json,
        "%s{\"start_ns\": %d, \"end_ns\": %d, \"time_to_first_token\": {\"unit\": \"ms\", "
        "\"avg\": %g, \"std\": 1, \"p50\": %g}, \"output_token_throughput_per_user\": {\"unit\": "
        "\"tokens/sec/user\", \"avg\": %g, \"std\": 2}}",
        i ? "," : "", i * 5, i * 5 + 5, ttft[i], ttft[i], tpu[i]);
  g_string_append (json, "]}");
  iv_test_write_file (dir, "profile_export_aiperf.json",
                      "{\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 20, \"std\": 5, "
                      "\"p50\": 19},"
                      " \"output_token_throughput_per_user\": {\"unit\": \"tokens/sec/user\", "
                      "\"avg\": 30, \"std\": 4, \"p50\": 30},"
                      " \"input_config\": {\"output\": {\"slice_duration\": 5}}}");
  iv_test_write_file (dir, "profile_export_aiperf_timeslices.json", json->str);
  sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_assert_cmpfloat (((IvRun *) sweep->runs->pdata[0])->slice_duration_s, ==, 5);
  chart = iv_runs_chart (iv_plot_config_get (c, FALSE, "timeslices_ttft"), sweep,
                         sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  {
    const IvSeries *avg = NULL, *out = NULL, *band = NULL, *line = NULL;
    for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
      {
        const IvSeries *ser = iv_chart_get_series (chart, i);
        const char *name = iv_series_get_name (ser);
        if (g_str_equal (name, "Timeslice Average"))
          avg = ser;
        else if (g_str_equal (name, "Outliers"))
          out = ser;
        else if (g_str_equal (name, "Run Std: 5.00 ms"))
          band = ser;
        else if (g_str_equal (name, "Run Average: 20.00 ms"))
          line = ser;
      }
    g_assert_nonnull (avg);
    g_assert_nonnull (out);
    g_assert_nonnull (band);
    g_assert_nonnull (line);
    /* 27 > 26 and 60 are outliers, 25.5 and below are not */
    g_assert_cmpuint (out->n, ==, 2);
    g_assert_cmpfloat (out->x[0], ==, 3);
    g_assert_cmpfloat (out->y[1], ==, 60);
    g_assert_cmpuint (avg->n, ==, 4);
    g_assert_cmpfloat (band->lo[0], ==, 15);
    g_assert_cmpfloat (band->hi[0], ==, 25);
    /* the axis in seconds, each slice's range at its middle */
    g_assert_cmpuint (chart->axis[IV_AXIS_X].n_categories, ==, 6);
    g_assert_cmpstr (chart->axis[IV_AXIS_X].categories[0], ==, "0-5");
    g_assert_cmpstr (chart->axis[IV_AXIS_X].categories[5], ==, "25-30");
    g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Timeslice (s)");
  }
  g_assert_cmpfloat (ink_share (chart), >, 0.02);
  iv_chart_free (chart);

  /* a throughput is worse below: 12 < 30 − 4 − 2 */
  spec = *iv_plot_config_get (c, FALSE, "timeslices_ttft");
  spec.y.metric = (char *) "output_token_throughput_per_user";
  spec.title = NULL;
  chart = iv_runs_chart (&spec, sweep, sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
    {
      const IvSeries *ser = iv_chart_get_series (chart, i);
      if (g_str_equal (iv_series_get_name (ser), "Outliers"))
        {
          g_assert_cmpuint (ser->n, ==, 1);
          g_assert_cmpfloat (ser->y[0], ==, 12);
        }
    }
  iv_chart_free (chart);

  /* percentile bands of a client metric: Inferview's, from the slices; aiperf plot's
   * PercentileBandsHandler draws only server metrics and skips any other name */
  {
    IvPlotSpec bands = { .name = (char *) "bands", .type = IV_PLOT_PERCENTILE_BANDS };
    bands.y.metric = (char *) "Time to First Token";
    g_clear_pointer (&reason, g_free);
    chart = iv_runs_chart (&bands, sweep, sweep->runs->pdata[0], &reason);
    g_assert_nonnull (chart);
    g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Time (s)");
    iv_chart_free (chart);
    bands.aiperf_compatible = TRUE;
    g_assert_null (iv_runs_chart (&bands, sweep, sweep->runs->pdata[0], &reason));
    g_assert_nonnull (strstr (reason, "only of server metrics"));
  }

  /* aiperf plot reads only the CSV: without it, --aiperf-compatible draws nothing and
   * says so; with it, its rounded values (the TTFT of slice 3 written 27.00) */
  spec = *iv_plot_config_get (c, FALSE, "timeslices_ttft");
  spec.aiperf_compatible = TRUE;
  g_clear_pointer (&reason, g_free);
  g_assert_null (iv_runs_chart (&spec, sweep, sweep->runs->pdata[0], &reason));
  g_assert_nonnull (strstr (reason, "profile_export_aiperf_timeslices.csv"));
  iv_test_write_file (dir, "profile_export_aiperf_timeslices.csv",
                      "Timeslice,Metric,Unit,Stat,Value\n"
                      "0,Time to First Token,ms,avg,10.00\n0,Time to First Token,ms,std,1.00\n"
                      "1,Time to First Token,ms,avg,30.00\n1,Time to First Token,ms,std,0.50\n");
  g_clear_pointer (&sweep, iv_sweep_free);
  sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_assert_cmpuint (((IvRun *) sweep->runs->pdata[0])->timeslices_csv->len, ==, 2);
  g_clear_pointer (&reason, g_free);
  chart = iv_runs_chart (&spec, sweep, sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
    {
      const IvSeries *ser = iv_chart_get_series (chart, i);
      if (g_str_equal (iv_series_get_name (ser), "Outliers"))
        {
          /* 30 > 20 + 5 + 0.5 */
          g_assert_cmpuint (ser->n, ==, 1);
          g_assert_cmpfloat (ser->x[0], ==, 1);
        }
    }
  iv_chart_free (chart);
}

static void
test_uncertainty (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "trials", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);
  g_autoptr (IvSweep) sweep = NULL;
  g_autofree char *reason = NULL;
  IvChart *chart;
  guint ellipses = 0;

  for (int i = 0; i < 2; i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/c%d", root, i + 1);
      /* as AggregateConfidenceJsonExporter writes it: the statistics under "metrics" */
      g_autofree char *agg = g_strdup_printf (
          "{\"schema_version\": \"1.0\", \"metadata\": {\"aggregation_type\": \"confidence\", "
          "\"num_profile_runs\": 3, \"num_successful_runs\": 3, \"confidence_level\": 0.95},"
          " \"metrics\": {\"request_latency_avg\": {\"mean\": %d, \"std\": 5, \"ci_low\": %d, "
          "\"ci_high\": %d, \"unit\": \"ms\"},"
          " \"output_token_throughput_per_gpu_avg\": {\"mean\": %d, \"std\": "
          "20, \"ci_low\": %d, \"ci_high\": %d, \"unit\": \"tokens/sec\"}}}",
          100 * (i + 1), 100 * (i + 1) - 10, 100 * (i + 1) + 10, 500 * (i + 1), 500 * (i + 1) - 50,
          500 * (i + 1) + 50);
      g_autofree char *cfg
          = g_strdup_printf ("{\"input_config\": {\"loadgen\": {\"concurrency\": %d}}}", i + 1);
      iv_test_write_file (dir, "aggregate/profile_export_aiperf_aggregate.json", agg);
      iv_test_write_file (dir, "profile_runs/run_0001/profile_export_aiperf.json", cfg);
    }
  sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_assert_nonnull (sweep);
  g_assert_cmpuint (sweep->runs->len, ==, 2);
  g_assert_cmpfloat (iv_run_axis_value (sweep->runs->pdata[1], "request_latency", "avg"), ==, 200);
  /* the configuration of a run of trials is its first trial's */
  g_assert_cmpfloat (((IvRun *) sweep->runs->pdata[1])->concurrency, ==, 2);
  g_assert_cmpuint (((IvRun *) sweep->runs->pdata[1])->n_trials, ==, 1);
  g_assert_cmpstr (((IvRun *) sweep->runs->pdata[1])->aggregation_type, ==, "confidence");
  g_assert_cmpuint (((IvRun *) sweep->runs->pdata[1])->n_profile_runs, ==, 3);
  g_assert_cmpfloat (((IvRun *) sweep->runs->pdata[1])->confidence_level, ==, 0.95);
  chart = iv_runs_chart (iv_plot_config_get (c, TRUE, "latency_throughput_uncertainty"), sweep,
                         sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
    ellipses
        += g_str_equal (iv_series_get_name (iv_chart_get_series (chart, i)), "confidence region");
  g_assert_cmpuint (ellipses, ==, 2);
  g_assert_cmpfloat (ink_share (chart), >, 0.02);
  iv_chart_free (chart);
}

/* AIPerf's whole configuration: x_label / y_label / autoscale (documented by its own
 * default, so not "unknown"), YAML merge keys, a user file merged over the built-in
 * presets (its defaults list replaces theirs only where it has one), server-metrics
 * downsampling settings, and experiment classification: runs grouped by experiment,
 * baselines first whatever the alphabet says. */
static void
test_config_aiperf_keys (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "cfg2", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.yaml", NULL);
  g_autofree char *root = g_build_filename (tmpdir, "experiments", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPlotConfig) c = NULL;
  g_autoptr (IvSweep) sweep = NULL;
  g_autofree char *reason = NULL;
  const IvPlotSpec *s;
  IvChart *chart;

  iv_test_write_file (dir, "mine.yaml",
                      "visualization:\n"
                      "  multi_run_plots:\n"
                      "    base_pareto: &base\n"
                      "      type: pareto\n"
                      "      x: {metric: request_latency, stat: avg}\n"
                      "      y: {metric: output_token_throughput_per_gpu, stat: avg}\n"
                      "      autoscale: both\n"
                      "    my_pareto:\n"
                      "      <<: *base\n"
                      "      title: Mine\n"
                      "      x_label: Latency as I call it\n"
                      "      y_label: Tokens per GPU\n"
                      "settings:\n"
                      "  server_metrics_downsampling: {enabled: false, window_size_seconds: 2.5, "
                      "aggregation_method: max}\n"
                      "experiment_classification:\n"
                      "  baselines: [\"*zz_*\"]\n"
                      "  treatments: [\"*new*\"]\n"
                      "  default: treatment\n");
  c = iv_plot_config_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (c->warnings->len, ==, 0);
  /* the merge key brought type and axes; the preset's own keys came on top */
  s = iv_plot_config_get (c, TRUE, "my_pareto");
  g_assert_cmpint (s->type, ==, IV_PLOT_PARETO);
  g_assert_cmpstr (s->x.metric, ==, "request_latency");
  g_assert_cmpstr (s->title, ==, "Mine");
  g_assert_cmpstr (s->autoscale, ==, "both");
  /* no defaults list of its own: AIPerf's four stay, and its presets are all there */
  g_assert_cmpuint (c->multi_defaults->len, ==, 4);
  g_assert_nonnull (iv_plot_config_get (c, TRUE, "pareto_curve_throughput_per_gpu_vs_latency"));
  g_assert_nonnull (iv_plot_config_get (c, FALSE, "ttft_over_time"));
  g_assert_false (c->downsampling.enabled);
  g_assert_cmpfloat (c->downsampling.window_s, ==, 2.5);
  g_assert_cmpstr (c->downsampling.method, ==, "max");
  /* as aiperf classifies: a pattern matching the run's name or its path; the experiment
   * is the parent folder when a pattern matches its name, else the run's name */
  g_assert_true (iv_plot_spec_is_baseline (s, "c1", "/x/zz_agg/c1"));
  g_assert_true (iv_plot_spec_is_baseline (s, "zz_run", "/x/y/zz_run"));
  g_assert_false (iv_plot_spec_is_baseline (s, "c1", "/x/aa_new/c1"));
  g_assert_false (iv_plot_spec_is_baseline (s, "other", "/x/other"));
  {
    g_autofree char *e1 = iv_plot_spec_experiment (s, "c1", "/x/zz_agg/c1");
    g_autofree char *e2 = iv_plot_spec_experiment (s, "c1", "/x/plain/c1");
    g_assert_cmpstr (e1, ==, "zz_agg");
    g_assert_cmpstr (e2, ==, "c1");
  }

  /* two experiments of two runs: zz_agg (a baseline) and aa_new (a treatment) */
  for (int e = 0; e < 2; e++)
    for (int k = 1; k <= 2; k++)
      {
        g_autofree char *run = g_strdup_printf ("%s/%s/c%d", root, e ? "aa_new" : "zz_agg", k);
        g_autofree char *summary = g_strdup_printf (
            "{\"request_latency\": {\"unit\": \"ms\", \"avg\": %d},"
            " \"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": %d},"
            " \"input_config\": {\"loadgen\": {\"concurrency\": %d}}}",
            100 * k + e, 50 * k + e, k);
        iv_test_write_file (run, "profile_export_aiperf.json", summary);
      }
  sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_assert_cmpuint (sweep->runs->len, ==, 4);
  chart = iv_runs_chart (s, sweep, NULL, &reason);
  g_assert_nonnull (chart);
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Latency as I call it");
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_Y), ==, "Tokens per GPU");
  /* autoscale: both — the axes span the runs exactly: latency 100 … 201 ms (100k + e),
   * throughput per GPU 50 … 101 tokens/s (50k + e, one GPU assumed) */
  g_assert_cmpfloat (ink_share (chart), >, 0);
  g_assert_cmpfloat (iv_chart_get_layout (chart)->lo[IV_AXIS_X], ==, 100);
  g_assert_cmpfloat (iv_chart_get_layout (chart)->hi[IV_AXIS_X], ==, 201);
  g_assert_cmpfloat (iv_chart_get_layout (chart)->lo[IV_AXIS_Y], ==, 50);
  g_assert_cmpfloat (iv_chart_get_layout (chart)->hi[IV_AXIS_Y], ==, 101);
  /* grouped by experiment, the baseline first though "aa" sorts before "zz" */
  g_assert_cmpstr (iv_series_get_name (iv_chart_get_series (chart, 0)), ==, "zz_agg frontier");
  g_assert_cmpstr (iv_series_get_name (iv_chart_get_series (chart, 2)), ==, "aa_new frontier");
  iv_chart_free (chart);
  g_clear_pointer (&c, iv_plot_config_free);

  /* a defaults list of its own replaces AIPerf's */
  iv_test_write_file (
      dir, "mine.yaml",
      "visualization:\n"
      "  multi_run_defaults: [only]\n"
      "  multi_run_plots:\n"
      "    only: {type: scatter_line, x: concurrency, y: {metric: request_latency, stat: avg}}\n");
  c = iv_plot_config_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (c->multi_defaults->len, ==, 1);
  g_assert_cmpstr (c->multi_defaults->pdata[0], ==, "only");
  g_assert_nonnull (iv_plot_config_get (c, TRUE, "ttft_vs_throughput"));
}

/* A dense request timeline (6,000 requests, hundreds at once) merges the spans that
 * overlap within one band of the y range: requests of one TTFT running back to back are
 * one decode span and one prefill span per gap-free stretch; spread TTFTs stay apart. */
static void
test_dense_timeline (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "dense", NULL);
  g_autoptr (GString) text = g_string_new (NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = NULL;
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);
  g_autofree char *reason = NULL;
  IvChart *chart;
  guint decode = G_MAXUINT;

  /* requests every 1 ms lasting 500 ms: 500 at once; TTFT 30 ms for the first 3000,
   * 90 ms for the rest */
  for (int i = 0; i < 6000; i++)
    g_string_append_printf (
        text,
        "{\"metadata\": {\"benchmark_phase\": \"profiling\", \"request_start_ns\": %d000000, "
        "\"request_end_ns\": %d000000}, \"metrics\": {\"time_to_first_token\": {\"value\": %d, "
        "\"unit\": \"ms\"}}}\n",
        1000 + i, 1500 + i, i < 3000 ? 30 : 90);
  iv_test_write_file (dir, "profile_export.jsonl", text->str);
  sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  chart = iv_runs_chart (iv_plot_config_get (c, FALSE, "ttft_timeline"), sweep,
                         sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  for (guint k = 0; k < iv_chart_get_n_series (chart); k++)
    if (g_str_equal (iv_series_get_name (iv_chart_get_series (chart, k)), "decode"))
      decode = k;
  g_assert_cmpuint (decode, !=, G_MAXUINT);
  /* two TTFTs, each one unbroken stretch of overlapping requests: two spans */
  g_assert_cmpuint (iv_series_get_length (iv_chart_get_series (chart, decode)), ==, 2);
  iv_chart_free (chart);
}

/* A preset's name becomes one safe file name component, whatever it holds. */
static void
test_file_names (void)
{
  static const struct
  {
    const char *name, *stem;
  } cases[] = {
    { "ttft_over_time", "ttft_over_time" },
    { "../../victim/holiday", "victim-holiday" }, /* separators, then the leading dots */
    { "x\\y", "x-y" },                            /* a backslash is a separator too */
    { ".hidden", "hidden" },                      /* never a hidden file */
    { "a..b...c", "a.b.c" },                      /* a run of dots is one dot */
    { "..", "plot" },                             /* nothing left */
    { "", "plot" },                               /* nothing there */
    { " -.x. ", "x" },                            /* leading " -.", trailing ". " */
    { "a\x1b[2Jb\n", "a-[2Jb-" },                 /* control characters */
    { "a:b*c?d\"e<f>g|h", "a-b-c-d-e-f-g-h" },    /* what Windows forbids */
    { "evil\xe2\x80\xae"
      "gnp.exe",
      "evil-gnp.exe" },               /* U+202E reorders what follows */
    { "bad\xff", "bad\xef\xbf\xbd" }, /* invalid UTF-8: U+FFFD */
  };
  g_autoptr (GString) long_name = g_string_new ("a");
  g_autofree char *stem = NULL;
  g_autoptr (IvPlotFileNames) names = iv_plot_file_names_new ("png");
  g_autofree char *dir = g_build_filename (tmpdir, "names", NULL);
  g_autofree char *path = NULL, *link = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = iv_plot_file_stem (cases[i].name);
      g_assert_cmpstr (got, ==, cases[i].stem);
    }
  /* 100 bytes at most, cut between characters: "a" and 100 two-byte "é" is 201 bytes;
   * "a" and 49 of them is 99 bytes, the 50th would make 101 */
  for (int i = 0; i < 100; i++)
    g_string_append (long_name, "\xc3\xa9");
  stem = iv_plot_file_stem (long_name->str);
  g_assert_cmpuint (strlen (stem), ==, 99);
  g_assert_true (g_utf8_validate (stem, -1, NULL));
  g_assert_true (g_str_has_prefix (long_name->str, stem));

  /* as aiperf names them (f"{name}.png", config.py's _build_spec_kwargs); presets that
   * map to one name get -2, -3 …, case and normalisation folded (one file on macOS and
   * Windows); the same preset keeps its name */
  g_assert_cmpstr (iv_plot_file_names_get (names, "ttft_over_time"), ==, "ttft_over_time.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "x/y"), ==, "x-y.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "x:y"), ==, "x-y-2.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "X:Y"), ==, "X-Y-3.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "x_y"), ==, "x_y.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "x/y"), ==, "x-y.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "x-y-2"), ==, "x-y-2-2.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "caf\xc3\xa9"), ==, "caf\xc3\xa9.png");
  g_assert_cmpstr (iv_plot_file_names_get (names, "cafe\xcc\x81"), ==, "cafe\xcc\x81-2.png");

  /* the path stays in the folder: one component, and no link or device there */
  g_mkdir_with_parents (dir, 0755);
  g_assert_null (iv_plot_file_path (dir, "../x.png", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_clear_error (&error);
  g_assert_null (iv_plot_file_path (dir, "..", &error));
  g_clear_error (&error);
  path = iv_plot_file_path (dir, "fine.png", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, G_DIR_SEPARATOR_S "fine.png"));
  link = g_build_filename (dir, "link.png", NULL);
  g_assert_cmpint (symlink ("/tmp/elsewhere.png", link), ==, 0);
  g_assert_null (iv_plot_file_path (dir, "link.png", &error));
  g_assert_nonnull (strstr (error->message, "link.png: is a symbolic link"));
}

/* @text read as configuration "t.yaml": NULL with the message in @message. */
static IvPlotConfig *
parse_text (const char *text, char **message)
{
  g_autoptr (GError) error = NULL;
  IvPlotConfig *c = iv_plot_config_parse (text, strlen (text), "t.yaml", &error);

  g_assert_true ((c == NULL) == (error != NULL));
  *message = error ? g_strdup (error->message) : NULL;
  return c;
}

/* A plot configuration is read under a budget: aliases count as what they expand to,
 * a loop is refused, merge keys are resolved once per preset, presets and anchors are
 * hashed. Each refusal names the file, the line and column, and the rule. */
static void
test_config_budget (void)
{
  g_autofree char *mib = g_strnfill (1 << 20, 'x');
  g_autofree char *msg = NULL;
  g_autoptr (IvPlotConfig) c = NULL;
  const IvPlotSpec *s;

  /* a 1 MiB scalar aliased four times adds exactly 4 MiB: allowed; the fifth alias,
   * line 4 column 21 ("x: [" and four "*b, " before it), is past the limit */
  for (int n = 4; n <= 5; n++)
    {
      g_autoptr (GString) t = g_string_new (NULL);
      g_string_append_printf (t,
                              "visualization:\n  single_run_plots:\n"
                              "    p: {type: histogram, title: &b %s}\nx: [",
                              mib);
      for (int i = 0; i < n; i++)
        g_string_append (t, i ? ", *b" : "*b");
      g_string_append (t, "]\n");
      c = parse_text (t->str, &msg);
      if (n == 4)
        {
          g_assert_null (msg);
          g_assert_cmpuint (strlen (iv_plot_config_get (c, FALSE, "p")->title), ==, 1 << 20);
          g_clear_pointer (&c, iv_plot_config_free);
        }
      else
        g_assert_cmpstr (msg, ==,
                         "t.yaml:4:21: aliases expand past 4 MiB (the limit for a plot "
                         "configuration)");
      g_clear_pointer (&msg, g_free);
    }

  /* nodes too: a sequence of 999 scalars is 1,000 nodes; aliased 1,000 times it adds
   * exactly 1,000,000 (allowed), 1,001 times is past (the 1,001st alias, line 3, column
   * 4 + 1,000 × 4 + 1) */
  for (int n = 1000; n <= 1001; n++)
    {
      g_autoptr (GString) t = g_string_new ("visualization: {}\ns: &s [");
      for (int i = 0; i < 999; i++)
        g_string_append (t, i ? ", a" : "a");
      g_string_append (t, "]\nx: [");
      for (int i = 0; i < n; i++)
        g_string_append (t, i ? ", *s" : "*s");
      g_string_append (t, "]\n");
      c = parse_text (t->str, &msg);
      if (n == 1000)
        g_assert_null (msg);
      else
        g_assert_cmpstr (msg, ==,
                         "t.yaml:3:4005: aliases expand past 1000000 nodes (the limit for a "
                         "plot configuration)");
      g_clear_pointer (&c, iv_plot_config_free);
      g_clear_pointer (&msg, g_free);
    }

  /* a million values at most, aliases or not: the root mapping, its key and the list
   * are three, so the list's 999,998th item (line 1, column 5 + 3 × 999,997) is the one
   * too many — the 999,997 before it were taken */
  {
    g_autoptr (GString) t = g_string_new ("x: [1");
    for (int i = 1; i < 999998; i++)
      g_string_append (t, ", 1");
    g_string_append (t, "]\n");
    c = parse_text (t->str, &msg);
    g_assert_cmpstr (msg, ==,
                     "t.yaml:1:2999996: more than 1000000 values (the limit for a plot "
                     "configuration)");
    g_clear_pointer (&msg, g_free);
  }

  /* an alias inside the node it names, an alias of nothing, an anchor defined twice */
  c = parse_text ("visualization:\n  single_run_plots:\n    p: &a\n      type: cdf\n"
                  "      <<: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n",
                  &msg);
  g_assert_cmpstr (msg, ==, "t.yaml:5:12: the alias *a refers to the node it is inside, a loop");
  g_clear_pointer (&msg, g_free);
  c = parse_text ("visualization: {x: *nope}\n", &msg);
  g_assert_cmpstr (msg, ==, "t.yaml:1:20: the alias *nope names no anchor before it");
  g_clear_pointer (&msg, g_free);
  c = parse_text ("visualization: {}\na: &x 1\nb: &x 2\n", &msg);
  g_assert_cmpstr (msg, ==, "t.yaml:3:4: the anchor &x is defined again (first on line 2)");
  g_clear_pointer (&msg, g_free);

  /* merge keys: own keys first, then the list in order, each mapping taken once however
   * often it is listed; a 3-way fan-out ten levels deep (3^9 paths to l0) reaches l0's
   * keys once, its bad value is said once per preset that has it */
  {
    g_autoptr (GString) t
        = g_string_new ("visualization:\n  single_run_plots:\n"
                        "    a: &a {type: histogram, title: A, y: ya}\n"
                        "    b: &b {type: cdf, title: B, x_label: XB}\n"
                        "    c: {<<: [*a, *b, *a, *a], title: C}\n"
                        "    l0: &l0 {type: histogram, y: request_latency, ci_level: 7}\n");
    for (int i = 1; i < 10; i++)
      g_string_append_printf (t, "    l%d: &l%d {<<: [*l%d, *l%d, *l%d]}\n", i, i, i - 1, i - 1,
                              i - 1);
    c = parse_text (t->str, &msg);
    g_assert_null (msg);
    s = iv_plot_config_get (c, FALSE, "c");
    g_assert_cmpstr (s->title, ==, "C");
    g_assert_cmpint (s->type, ==, IV_PLOT_HISTOGRAM);
    g_assert_cmpstr (s->y.metric, ==, "ya");
    g_assert_cmpstr (s->x_label, ==, "XB");
    s = iv_plot_config_get (c, FALSE, "l9");
    g_assert_cmpint (s->type, ==, IV_PLOT_HISTOGRAM);
    g_assert_cmpstr (s->y.metric, ==, "request_latency");
    /* the same message for l0 … l9 (at l0's line): said once, counted */
    g_assert_cmpuint (c->warnings->len, ==, 1);
    g_assert_cmpstr (c->warnings->pdata[0], ==,
                     "t.yaml:6: ci_level must be between 0 and 1; 0.95 used (repeated 10 times)");
    g_clear_pointer (&c, iv_plot_config_free);
  }

  /* more than 200 distinct warnings: 200 listed, the rest summed in one line */
  {
    g_autoptr (GString) t = g_string_new ("visualization:\n  single_run_plots:\n");
    for (int i = 0; i < 300; i++)
      g_string_append_printf (t, "    p%d: {type: cdf, k%d: 1}\n", i, i);
    c = parse_text (t->str, &msg);
    g_assert_cmpuint (c->warnings->len, ==, 201);
    g_assert_cmpstr (c->warnings->pdata[199], ==,
                     "t.yaml:202: plot “p199”: unknown key “k199”, ignored");
    g_assert_cmpstr (c->warnings->pdata[200], ==, "t.yaml: 100 more warnings, not listed");
    g_clear_pointer (&c, iv_plot_config_free);
  }

  /* 100,000 presets, found by name; a name defined again keeps its place and takes the
   * later definition (as a YAML mapping with a repeated key does in AIPerf) */
  {
    g_autoptr (GString) t = g_string_new ("visualization:\n  single_run_plots:\n");
    gint64 start = g_get_monotonic_time ();
    for (int i = 0; i < 100000; i++)
      g_string_append_printf (t, "    p%d: {type: cdf, title: T%d}\n", i, i);
    g_string_append (t, "    p5: {type: histogram, title: again}\n");
    c = parse_text (t->str, &msg);
    g_assert_cmpuint (c->single_plots->len, ==, 100000);
    for (int i = 0; i < 100000; i += 997)
      {
        g_autofree char *name = g_strdup_printf ("p%d", i);
        g_assert_true (iv_plot_config_get (c, FALSE, name) == c->single_plots->pdata[i]);
      }
    s = c->single_plots->pdata[5];
    g_assert_cmpstr (s->title, ==, "again");
    g_assert_cmpstr (c->warnings->pdata[0], ==,
                     "t.yaml:100003: plot “p5” is defined again; this definition is used");
    g_test_message ("100,000 presets: %.2f s", (g_get_monotonic_time () - start) / 1e6);
    g_clear_pointer (&c, iv_plot_config_free);
  }

  /* 200,000 anchors, hashed: the last one is found by its alias */
  {
    g_autoptr (GString) t = g_string_new ("numbers: [");
    gint64 start = g_get_monotonic_time ();
    for (int i = 0; i < 200000; i++)
      g_string_append_printf (t, "%s&a%d v%d", i ? ", " : "", i, i);
    g_string_append (t, "]\nvisualization:\n  single_run_plots:\n"
                        "    p: {type: cdf, title: *a199999}\n");
    c = parse_text (t->str, &msg);
    g_assert_null (msg);
    g_assert_cmpstr (iv_plot_config_get (c, FALSE, "p")->title, ==, "v199999");
    g_test_message ("200,000 anchors: %.2f s", (g_get_monotonic_time () - start) / 1e6);
  }
}

/* aiperf's configuration language (aiperf/plot/config.py and _metrics.py): a metric's
 * name with its statistic ("request_latency_p90", parse_and_validate_metric_name), a
 * statistic that is none refused with difflib's suggestions (exit 1 from plot),
 * group_display_names in the legend, percentile_bands and aiperf's histogram (bars per
 * time slice) accepted, the per-request distribution under "distribution". */
static void
test_config_language (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPlotConfig) c = NULL;
  g_autofree char *message = NULL;
  char *metric = NULL, *stat = NULL;

  g_assert_true (iv_plot_parse_metric_shortcut ("request_latency_p90", &metric, &stat, &error));
  g_assert_cmpstr (metric, ==, "request_latency");
  g_assert_cmpstr (stat, ==, "p90");
  g_free (metric), g_free (stat);
  g_assert_true (iv_plot_parse_metric_shortcut ("request_number", &metric, &stat, &error));
  g_assert_cmpstr (metric, ==, "request_number");
  g_assert_null (stat);
  g_free (metric), g_free (stat);
  /* "p67": p75 is the one close match (ratio 2·2/6 ≥ 0.6; p5, p50 … are below) */
  g_assert_false (iv_plot_parse_metric_shortcut ("request_latency_p67", &metric, &stat, &error));
  g_assert_nonnull (strstr (error->message, "did you mean request_latency_p75?"));
  g_assert_null (strstr (error->message, "request_latency_p50?"));
  g_clear_error (&error);
  /* "p9": p90, p95 and p99 score alike (2·2/5); difflib lists the larger words first */
  g_assert_false (iv_plot_parse_metric_shortcut ("ttft_p9", &metric, &stat, &error));
  g_assert_nonnull (strstr (error->message, "did you mean ttft_p99, ttft_p95, ttft_p90?"));
  g_clear_error (&error);
  /* as Python's difflib.get_close_matches (p, ALL_STAT_KEYS, 3, 0.6) answers */
  g_assert_false (iv_plot_parse_metric_shortcut ("ttft_p0", &metric, &stat, &error));
  g_assert_nonnull (strstr (error->message, "did you mean ttft_p90, ttft_p50, ttft_p10?"));
  g_clear_error (&error);
  g_assert_false (iv_plot_parse_metric_shortcut ("ttft_p100", &metric, &stat, &error));
  g_assert_nonnull (strstr (error->message, "did you mean ttft_p10, ttft_p1?"));
  g_clear_error (&error);
  g_assert_false (iv_plot_parse_metric_shortcut ("ttft_p1234", &metric, &stat, &error));
  g_assert_null (strstr (error->message, "did you mean"));
  g_clear_error (&error);

  c = parse_text ("visualization:\n"
                  "  multi_run_defaults: [p]\n"
                  "  multi_run_plots:\n"
                  "    p:\n"
                  "      type: pareto\n"
                  "      x: request_latency_p90\n"
                  "      y: output_token_throughput_per_gpu\n"
                  "  single_run_plots:\n"
                  "    bands: {type: percentile_bands, y: Time to First Token}\n"
                  "    bars: {type: histogram, x: Timeslice, y: Request Throughput, stat: avg, "
                  "use_slice_duration: true}\n"
                  "    dist: {type: distribution, y: time_to_first_token}\n"
                  "experiment_classification:\n"
                  "  baselines: [\"*base*\"]\n"
                  "  group_display_names: {base_a: Baseline A}\n",
                  &message);
  g_assert_null (message);
  {
    const IvPlotSpec *p = iv_plot_config_get (c, TRUE, "p");
    g_assert_cmpstr (p->x.metric, ==, "request_latency");
    g_assert_cmpstr (p->x.stat, ==, "p90");
    g_assert_cmpstr (g_hash_table_lookup (c->group_display_names, "base_a"), ==, "Baseline A");
  }
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "bands")->type, ==, IV_PLOT_PERCENTILE_BANDS);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "bars")->type, ==, IV_PLOT_HISTOGRAM);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "bars")->use_slice_duration, ==, 1);
  g_assert_cmpint (iv_plot_config_get (c, FALSE, "dist")->type, ==, IV_PLOT_DISTRIBUTION);
  g_clear_pointer (&c, iv_plot_config_free);

  /* in a file: an error naming the file, the line and the preset */
  c = parse_text ("visualization:\n"
                  "  multi_run_plots:\n"
                  "    p:\n"
                  "      type: pareto\n"
                  "      x: request_latency_p67\n",
                  &message);
  g_assert_null (c);
  g_assert_nonnull (strstr (message, "t.yaml:5: plot “p”: “request_latency_p67” ends in “p67”"));
  g_clear_pointer (&message, g_free);
  c = parse_text ("visualization:\n"
                  "  single_run_plots:\n"
                  "    t: {type: timeslice, y: Time to First Token, stat: p67}\n",
                  &message);
  g_assert_null (c);
  g_assert_nonnull (strstr (message, "t.yaml:3: plot “t”"));
  g_assert_nonnull (strstr (message, "p75"));
  g_clear_pointer (&message, g_free);
}

/* The sample runs as aiperf plot reads them: each run's p50 on the axes where the summary
 * has one (avg otherwise), per-GPU throughput over its 2 endpoint GPUs, and the notes of
 * Inferview's own figure saying so (MultiRunPNGExporter._runs_to_dataframe). */
static void
test_aiperf_values_and_notes (void)
{
  g_autofree char *root = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvSweep) theirs = iv_sweep_load_aiperf (paths, NULL, NULL);
  g_autoptr (GPtrArray) notes = NULL;
  const IvRun *r1 = sweep->runs->pdata[0];
  const IvPlotSpec *spec
      = iv_plot_config_get (c, TRUE, "pareto_curve_throughput_per_gpu_vs_latency");
  gboolean gpu = FALSE, stat = FALSE;

  g_assert_cmpuint (theirs->runs->len, ==, 3);
  /* Python's path order: qwen_concurrency2 before qwen_concurrency2/qwen_concurrency4 */
  g_assert_cmpstr (((IvRun *) theirs->runs->pdata[1])->name, ==, "qwen_concurrency2");
  g_assert_cmpstr (((IvRun *) theirs->runs->pdata[2])->name, ==, "qwen_concurrency4");
  g_assert_cmpfloat (iv_run_axis_value_aiperf (r1, "request_latency"), ==,
                     iv_run_get_summary (r1, "request_latency")->p50);
  g_assert_cmpfloat (iv_run_axis_value (r1, "request_latency", "avg"), ==,
                     iv_run_get_summary (r1, "request_latency")->avg);
  g_assert_cmpuint (iv_run_gpu_count_aiperf (r1), ==, 2);
  g_assert_cmpuint (r1->summary_gpu_endpoints, ==, 2);
  g_assert_cmpfloat (iv_run_axis_value_aiperf (r1, "output_token_throughput_per_gpu"), ==,
                     iv_run_get_summary (r1, "output_token_throughput")->avg / 2);
  notes = iv_runs_aiperf_notes (spec, sweep, NULL);
  for (guint i = 0; i < notes->len; i++)
    {
      gpu |= g_str_has_prefix (notes->pdata[i], "per GPU: 1 GPU by UUID; aiperf plot counts 2 "
                                                "from 2 telemetry endpoint(s) → 25 tokens/s/GPU");
      stat |= g_str_has_prefix (notes->pdata[i], "x: each run's avg here; aiperf plot puts its "
                                                 "p50 there (3.64 s");
    }
  g_assert_true (gpu);
  g_assert_true (stat);
  /* drawn as aiperf draws it, the figure has no notes */
  {
    IvPlotSpec as_aiperf = *spec;
    g_autoptr (GPtrArray) none = NULL;
    as_aiperf.aiperf_compatible = TRUE;
    none = iv_runs_aiperf_notes (&as_aiperf, sweep, NULL);
    g_assert_cmpuint (none->len, ==, 0);
  }
}

/* aiperf's frontier (_compute_pareto_frontier after create_pareto_plot's sort): a point
 * as good in y as a better one before it in the sweep stays on it; Inferview's leaves out
 * every point another beats or equals on both axes. */
static void
test_pareto_aiperf (void)
{
  /* latency lower is better, throughput higher */
  double x[] = { 10, 20, 30, 15, 25 }, y[] = { 100, 100, 300, 50, 300 };
  gboolean ours[5], theirs[5];

  iv_pareto_frontier (x, y, 5, FALSE, TRUE, ours);
  iv_pareto_frontier_aiperf (x, y, 5, FALSE, TRUE, theirs);
  /* (20, 100) and (30, 300): equal in y to (10, 100) and (25, 300), worse in x — kept by
   * aiperf's sweep (y >= the best so far) only */
  g_assert_true (ours[0] && !ours[1] && !ours[2] && !ours[3] && ours[4]);
  g_assert_true (theirs[0] && theirs[1] && theirs[2] && !theirs[3] && theirs[4]);
  /* scipy.stats.t.ppf (0.975, 1), (0.975, 4) */
  g_assert_cmpfloat (fabs (iv_student_t_quantile (0.975, 1) - 12.706204736174698), <, 1e-9);
  g_assert_cmpfloat (fabs (iv_student_t_quantile (0.975, 4) - 2.7764451051977987), <, 1e-9);
  g_assert_cmpfloat (fabs (iv_student_t_quantile (0.995, 9) - 3.2498355415921263), <, 1e-9);
}

/* Every preset is found under the names vendors give it: its Hugging Face id, its name in
 * any case, with an organisation, a "Meta-" before it and variant words after it
 * (-Instruct, -chat, -hf, -it). */
static void
test_preset_matching (void)
{
  GPtrArray *presets = iv_presets_get ();
  static const struct
  {
    const char *run, *preset;
  } real[] = {
    { "Meta-Llama-3-8B-Instruct", "Llama-3-8B" },
    { "meta-llama/Meta-Llama-3-70B-Instruct", "Llama-3-70B" },
    { "meta-llama/Llama-2-7b-chat-hf", "Llama-2-7B" },
    { "mistralai/Mistral-7B-Instruct-v0.3", "Mistral-7B-v0.3" },
    { "google/gemma-2-9b-it", "Gemma-2-9B" },
    { "Qwen/Qwen2.5-7B", "Qwen2.5-7B-Instruct" },
    { "Qwen/Qwen3-0.6B", "Qwen3-0.6B" },
  };

  for (guint i = 0; i < presets->len; i++)
    {
      const IvModel *m = presets->pdata[i];
      g_autofree char *upper = g_ascii_strup (m->name, -1);
      g_autofree char *lower_id = m->hf_id ? g_ascii_strdown (m->hf_id, -1) : NULL;
      g_autofree char *meta = g_strdup_printf ("Meta-%s-Instruct", m->name);
      g_autofree char *hf = g_strdup_printf ("%s-hf", m->name);
      g_autofree char *org = g_strdup_printf ("someorg/%s-Chat-HF", m->name);
      g_autofree char *it = g_strdup_printf ("%s-it", upper);
      const char *names[] = { m->name, m->hf_id, upper, lower_id, meta, hf, org, it };
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          const IvModel *got = names[k] ? iv_predict_match_model (names[k]) : m;
          if (got != m)
            g_error ("“%s” matched %s, not %s", names[k], got ? got->name : "nothing", m->name);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      const IvModel *got = iv_predict_match_model (real[i].run);
      g_assert_nonnull (got);
      g_assert_cmpstr (got->name, ==, real[i].preset);
    }
  g_assert_null (iv_predict_match_model ("Totally-Unknown-9B"));
}

/* The text @figure shows on the page @id, as one string per drawn text ("" when cut). */
static GPtrArray *
page_text (const IvFigure *figure, const char *id)
{
  guint n;
  const IvExportPreset *p = iv_export_get_presets (&n), *page = NULL;
  g_autoptr (IvTextRecorder) rec = iv_text_recorder_new ();
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  cairo_rectangle_t area;
  cairo_surface_t *s;
  cairo_t *cr;
  IvExportOptions eo;
  const IvTextBox *boxes;

  for (guint i = 0; i < n; i++)
    if (g_str_equal (p[i].id, id))
      page = &p[i];
  g_assert_nonnull (page);
  area = (cairo_rectangle_t){ 0, 0, page->width, page->height };
  s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &area);
  cr = cairo_create (s);
  iv_export_options_init (&eo);
  eo.width = page->width, eo.height = page->height, eo.dpi = 96, eo.text_pt = page->text_pt;
  iv_text_recorder_attach (rec, cr);
  g_assert_true (iv_export_render (cr, figure, &eo, NULL));
  boxes = iv_text_recorder_boxes (rec, &n);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (texts, g_strdup (boxes[i].ellipsized ? "" : boxes[i].text));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return texts;
}

/* Per-run boxes of a 36-run ISL × OSL sweep on a paper column: every run told apart (its
 * cell under its group, its concurrency by colour), no name cut or left out. */
static void
test_boxes_per_run (void)
{
  g_autofree char *dir = isl_osl_run (".");
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  const char *cells[] = { "128/128",   "128/512",  "128/2048", "1024/128", "1024/512",
                          "1024/2048", "4096/128", "4096/512", "4096/2048" };
  const char *loads[] = { "c 1", "c 4", "c 16", "c 64", "ISL / OSL" };
  g_autofree char *reason = NULL;
  IvRunsFigure f;

  g_assert_nonnull (sweep);
  g_assert_cmpuint (sweep->runs->len, ==, 36);
  g_assert_true (iv_runs_figure (iv_plot_config_get (config, TRUE, "ttft_per_run"), sweep,
                                 sweep->runs->pdata[0], &f, &reason));
  for (guint p = 0; p < 3; p++)
    {
      const char *page = (const char *[]){ "single-column", "double-column", "slide" }[p];
      IvFigure fig = iv_runs_figure_get (&f, "ttft_per_run");
      g_autoptr (GPtrArray) texts = page_text (&fig, page);
      for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
        if (!g_ptr_array_find_with_equal_func (texts, cells[i], g_str_equal, NULL))
          g_error ("%s: the cell “%s” is not shown whole", page, cells[i]);
      for (guint i = 0; i < G_N_ELEMENTS (loads); i++)
        if (!g_ptr_array_find_with_equal_func (texts, loads[i], g_str_equal, NULL))
          g_error ("%s: “%s” is not shown whole", page, loads[i]);
    }
  iv_runs_figure_clear (&f);
}

/* A sweep over ISL and OSL: the built-in [model] grouping gives way to the cells, one
 * frontier per cell (one "model" group zig-zagged across nine); a user's groups stand. */
static void
test_pareto_by_cell (void)
{
  g_autofree char *dir = isl_osl_run (".");
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  IvPlotSpec spec
      = *iv_plot_config_get (config, TRUE, "pareto_curve_throughput_per_gpu_vs_interactivity");
  g_autofree char *reason = NULL;
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  IvRunsFigure f;

  g_assert_nonnull (sweep);
  g_assert_true (spec.builtin);
  g_assert_true (iv_runs_figure (&spec, sweep, sweep->runs->pdata[0], &f, &reason));
  for (guint i = 0; i < iv_chart_get_n_series (f.chart); i++)
    {
      IvSeries *s = iv_chart_get_series (f.chart, i);
      if (iv_series_get_kind (s) == IV_SERIES_SCATTER)
        g_hash_table_add (names, (gpointer) iv_series_get_name (s));
    }
  g_assert_cmpuint (g_hash_table_size (names), ==, 9);
  g_assert_true (g_hash_table_contains (names, "ISL 1024 · OSL 128"));
  iv_runs_figure_clear (&f);
  /* the same grouping from a user's file: one group, as asked */
  spec.builtin = FALSE;
  g_hash_table_remove_all (names);
  g_assert_true (iv_runs_figure (&spec, sweep, sweep->runs->pdata[0], &f, &reason));
  for (guint i = 0; i < iv_chart_get_n_series (f.chart); i++)
    {
      IvSeries *s = iv_chart_get_series (f.chart, i);
      if (iv_series_get_kind (s) == IV_SERIES_SCATTER)
        g_hash_table_add (names, (gpointer) iv_series_get_name (s));
    }
  g_assert_cmpuint (g_hash_table_size (names), ==, 1);
  iv_runs_figure_clear (&f);
}

/* Against the bound on a paper column: no text cut short (the subtitle's caveat and the
 * y title were), and room above the 100 % line for its label (the plot's top cut it). */
static void
test_bound_on_paper (void)
{
  g_autofree char *dir = isl_osl_run (".");
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  IvPlotSpec spec = *iv_plot_config_get (config, TRUE, "bound_efficiency");
  g_autofree char *reason = NULL;
  IvRunsFigure f;
  IvFigure fig;

  g_assert_nonnull (sweep);
  spec.bound_hardware = iv_hardware_find ("h100x8");
  g_assert_true (iv_runs_figure (&spec, sweep, sweep->runs->pdata[0], &f, &reason));
  g_assert_nonnull (f.chart);
  g_assert_true (f.chart->axis[IV_AXIS_Y].fixed);
  g_assert_cmpfloat (f.chart->axis[IV_AXIS_Y].hi, >=, 110);
  fig = iv_runs_figure_get (&f, "bound_efficiency");
  for (guint p = 0; p < 2; p++)
    {
      g_autoptr (GPtrArray) texts = page_text (&fig, p ? "double-column" : "single-column");
      g_assert_false (g_ptr_array_find_with_equal_func (texts, "", g_str_equal, NULL));
    }
  iv_runs_figure_clear (&f);
}

/* A figure for a paper page says where it differs from aiperf plot in summary.txt only:
 * in its subtitle the notes were cut on a paper column. */
static void
test_notes_off_figure (void)
{
  g_autofree char *root = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (IvPlotConfig) c = iv_plot_config_load (NULL, NULL);
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  IvPlotSpec spec = *iv_plot_config_get (c, TRUE, "ttft_vs_throughput");
  g_autofree char *reason = NULL;
  IvChart *chart;

  g_assert_nonnull (sweep);
  chart = iv_runs_chart (&spec, sweep, sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  g_assert_nonnull (strstr (chart->subtitle, "aiperf plot"));
  iv_chart_free (chart);
  spec.notes_off_figure = TRUE;
  chart = iv_runs_chart (&spec, sweep, sweep->runs->pdata[0], &reason);
  g_assert_nonnull (chart);
  g_assert_null (chart->subtitle ? strstr (chart->subtitle, "aiperf plot") : NULL);
  iv_chart_free (chart);
}

/* An ISL x OSL heat map's panels share one colour scale: one colour bar, titled with what
 * it measures (four bars, each titled by a lone "s", narrowed every panel on a column). */
static void
test_heatmap_one_colorbar (void)
{
  g_autofree char *dir = isl_osl_run (".");
  const char *paths[] = { dir, NULL };
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, NULL);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, NULL);
  g_autofree char *reason = NULL;
  IvRunsFigure f;

  g_assert_nonnull (sweep);
  g_assert_true (iv_runs_figure (iv_plot_config_get (config, TRUE, "isl_osl_ttft_heatmap"), sweep,
                                 sweep->runs->pdata[0], &f, &reason));
  for (guint p = 0; p < 2; p++)
    {
      IvFigure fig = iv_runs_figure_get (&f, "isl_osl_ttft_heatmap");
      g_autoptr (GPtrArray) texts = page_text (&fig, p ? "double-column" : "single-column");
      guint titled = 0, lone = 0;
      for (guint i = 0; i < texts->len; i++)
        {
          titled += g_str_equal (texts->pdata[i], "Time to first token (p90) (s)");
          lone += g_str_equal (texts->pdata[i], "s");
        }
      g_assert_cmpuint (titled, ==, 1);
      g_assert_cmpuint (lone, ==, 0);
    }
  iv_runs_figure_clear (&f);
}

int
main (int argc, char **argv)
{
  int rc;

  tmpdir = iv_test_make_tmpdir ("iv-plots-XXXXXX");
  {
    /* ~/.aiperf is looked at: make it this test's own */
    g_autofree char *home = g_build_filename (tmpdir, "home", NULL);
    g_mkdir_with_parents (home, 0755);
    g_setenv ("HOME", home, TRUE);
  }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plots/builtin-config", test_builtin_config);
  g_test_add_func ("/plots/user-config", test_user_config);
  g_test_add_func ("/plots/file-names", test_file_names);
  g_test_add_func ("/plots/config-budget", test_config_budget);
  g_test_add_func ("/plots/presets-on-samples", test_presets_on_samples);
  g_test_add_func ("/plots/timeslice-outliers", test_timeslice_outliers);
  g_test_add_func ("/plots/uncertainty", test_uncertainty);
  g_test_add_func ("/plots/config-aiperf-keys", test_config_aiperf_keys);
  g_test_add_func ("/plots/config-language", test_config_language);
  g_test_add_func ("/plots/aiperf-values-and-notes", test_aiperf_values_and_notes);
  g_test_add_func ("/plots/pareto-aiperf", test_pareto_aiperf);
  g_test_add_func ("/plots/preset-matching", test_preset_matching);
  g_test_add_func ("/plots/dense-timeline", test_dense_timeline);
  g_test_add_func ("/plots/isl-osl", test_isl_osl);
  g_test_add_func ("/plots/isl-osl-surface", test_isl_osl_surface);
  g_test_add_func ("/plots/boxes-per-run", test_boxes_per_run);
  g_test_add_func ("/plots/pareto-by-cell", test_pareto_by_cell);
  g_test_add_func ("/plots/bound-on-paper", test_bound_on_paper);
  g_test_add_func ("/plots/notes-off-figure", test_notes_off_figure);
  g_test_add_func ("/plots/heatmap-one-colorbar", test_heatmap_one_colorbar);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
