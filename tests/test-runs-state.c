/* test-runs-state.c: the Runs workspace's state (src/runs/iv-runs-state.c) without a
 * window: properties notify only on change and in one batch when set together; a plot is
 * one the configuration lists; opening a run clears the picks and starts at its first
 * plot; the sweep growing keeps the run opened; serialise/restore round-trips what a folder
 * remembers and reads the older "hardware:tp:model". */
#include <string.h>

#include "iv-runs-state.h"

static void
count (gpointer instance, GParamSpec *pspec, gpointer data)
{
  (*(guint *) data)++;
}

static void
count_signal (gpointer instance, gpointer data)
{
  (*(guint *) data)++;
}

static IvSweep *
load_sample (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IV_SAMPLES_DIR"), "aiperf", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  IvSweep *sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  return sweep;
}

static const char *
preset (IvRunsState *st, guint i)
{
  return ((const IvPlotSpec *) iv_runs_state_get_presets (st)->pdata[i])->name;
}

/* Notifies only on change; several set together are one generation; picking a request
 * twice unpicks it. */
static void
test_notify (void)
{
  g_autoptr (IvRunsState) st = iv_runs_state_new ();
  guint notes = 0, picks = 0, n;
  guint64 gen;
  gboolean log_y;

  g_signal_connect (st, "notify", G_CALLBACK (count), &notes);
  g_signal_connect (st, "selection-changed", G_CALLBACK (count_signal), &picks);
  gen = iv_runs_state_get_generation (st);
  g_object_set (st, "statistic", "p90", "group-by", "concurrency", "log-y", TRUE, "hardware",
                "h100x8", "tp", (gint64) 2, NULL);
  g_assert_cmpuint (notes, ==, 5);
  g_assert_cmpuint (iv_runs_state_get_generation (st), ==, gen + 1);
  g_assert_cmpstr (iv_runs_state_get_statistic (st), ==, "p90");
  g_assert_cmpstr (iv_runs_state_get_hardware (st), ==, "h100x8");
  g_assert_cmpint (iv_runs_state_get_tp (st), ==, 2);
  /* the same again: nothing */
  g_object_set (st, "statistic", "p90", "log-y", TRUE, "tp", (gint64) 2, NULL);
  g_assert_cmpuint (notes, ==, 5);
  g_object_get (st, "log-y", &log_y, NULL);
  g_assert_true (log_y);
  iv_runs_state_toggle_request (st, 7);
  iv_runs_state_toggle_request (st, 3);
  iv_runs_state_toggle_request (st, 7);
  g_assert_cmpuint (picks, ==, 3);
  g_object_get (st, "n-selected", &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (g_array_index (iv_runs_state_get_selection (st), guint32, 0), ==, 3);
  iv_runs_state_clear_selection (st);
  iv_runs_state_clear_selection (st); /* nothing to clear: no signal */
  g_assert_cmpuint (picks, ==, 4);
}

/* A sweep starts on the comparison's first plot; a plot not listed is refused; a run opens
 * on its own first plot with nothing picked; back, the comparison's first; growing keeps
 * the run opened; a new sweep starts statistic and grouping over but keeps log axes. */
static void
test_sweep_and_run (void)
{
  g_autoptr (IvRunsState) st = iv_runs_state_new ();
  IvSweep *sweep = load_sample ();
  guint runs = 0;
  gboolean log_x;

  g_object_set (st, "statistic", "p99", "group-by", "concurrency", "log-x", TRUE, NULL);
  iv_runs_state_set_sweep (st, sweep, NULL, NULL);
  g_assert_null (iv_runs_state_get_run (st));
  g_assert_null (iv_runs_state_get_statistic (st));
  g_assert_null (iv_runs_state_get_group_by (st));
  g_object_get (st, "log-x", &log_x, NULL);
  g_assert_true (log_x);
  g_assert_nonnull (iv_runs_state_get_config (st, NULL));
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, preset (st, 0));
  g_object_set (st, "plot", "no_such_plot", NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, preset (st, 0));
  g_object_set (st, "plot", "custom", NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, "custom");
  g_assert_cmpstr (iv_runs_state_get_custom_x (st), ==, "concurrency");

  g_signal_connect (st, "notify::run", G_CALLBACK (count), &runs);
  g_object_set (st, "run", 1u, NULL);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_true (iv_runs_state_get_run (st) == sweep->runs->pdata[1]);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, preset (st, 0));
  /* "custom" is the comparison's only */
  g_object_set (st, "plot", "custom", NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), !=, "custom");
  iv_runs_state_toggle_request (st, 2);
  iv_runs_state_grew (st);
  g_assert_true (iv_runs_state_get_run (st) == sweep->runs->pdata[1]);
  g_assert_cmpuint (iv_runs_state_get_selection (st)->len, ==, 1);
  g_object_set (st, "run", 7u, NULL); /* no such run: the comparison */
  g_assert_null (iv_runs_state_get_run (st));
  g_assert_cmpuint (iv_runs_state_get_selection (st)->len, ==, 0);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, preset (st, 0));
  iv_runs_state_set_sweep (st, NULL, NULL, NULL);
  iv_sweep_free (sweep);
}

/* What a folder remembers goes to text and back; defaults are no text; the older
 * "hardware:tp:model" is read; a plot the configuration does not list leaves the first;
 * a restore is one batch. */
static void
test_serialize (void)
{
  g_autoptr (IvRunsState) st = iv_runs_state_new ();
  g_autoptr (IvRunsState) other = iv_runs_state_new ();
  IvSweep *sweep = load_sample ();
  g_autofree char *text = NULL, *again = NULL;
  guint64 gen;

  iv_runs_state_set_sweep (st, sweep, NULL, NULL);
  iv_runs_state_set_sweep (other, sweep, NULL, NULL);
  g_assert_null (iv_runs_state_serialize (st));
  g_object_set (st, "hardware", "h100x8", "tp", (gint64) 4, "model", "@/a:b/config.json", "plot",
                preset (st, 1), "custom-y", "inter_token_latency", NULL);
  text = iv_runs_state_serialize (st);
  g_assert_nonnull (text);
  gen = iv_runs_state_get_generation (other);
  iv_runs_state_restore (other, text);
  g_assert_cmpuint (iv_runs_state_get_generation (other), ==, gen + 1);
  g_assert_cmpstr (iv_runs_state_get_hardware (other), ==, "h100x8");
  g_assert_cmpint (iv_runs_state_get_tp (other), ==, 4);
  g_assert_cmpstr (iv_runs_state_get_model (other), ==, "@/a:b/config.json");
  g_assert_cmpstr (iv_runs_state_get_plot (other), ==, preset (st, 1));
  g_assert_cmpstr (iv_runs_state_get_custom_x (other), ==, "concurrency");
  g_assert_cmpstr (iv_runs_state_get_custom_y (other), ==, "inter_token_latency");
  again = iv_runs_state_serialize (other);
  g_assert_cmpstr (again, ==, text);
  /* the older form, its model last (a path may hold ':') */
  iv_runs_state_restore (other, "a100x8:2:@/x:y/config.json");
  g_assert_cmpstr (iv_runs_state_get_hardware (other), ==, "a100x8");
  g_assert_cmpint (iv_runs_state_get_tp (other), ==, 2);
  g_assert_cmpstr (iv_runs_state_get_model (other), ==, "@/x:y/config.json");
  g_assert_cmpstr (iv_runs_state_get_plot (other), ==, preset (st, 0));
  iv_runs_state_restore (other, "h100x8:0");
  g_assert_cmpstr (iv_runs_state_get_hardware (other), ==, "h100x8");
  g_assert_null (iv_runs_state_get_model (other));
  /* nothing remembered, or unreadable: the defaults */
  iv_runs_state_restore (other, "{'plot': 'no_such_plot'");
  g_assert_null (iv_runs_state_get_hardware (other));
  g_assert_cmpstr (iv_runs_state_get_plot (other), ==, preset (st, 0));
  g_object_set (other, "hardware", "h100x8", NULL);
  iv_runs_state_restore (other, NULL);
  g_assert_null (iv_runs_state_get_hardware (other));
  g_assert_null (iv_runs_state_serialize (other));
  iv_runs_state_set_sweep (st, NULL, NULL, NULL);
  iv_runs_state_set_sweep (other, NULL, NULL, NULL);
  iv_sweep_free (sweep);
}

/* An ISL × OSL sweep (ISL and OSL both vary) opens on its heat map, not on the first
 * preset (a pareto grouped by model, one curve through every cell); that is its default
 * (nothing to remember); a run of it opens on the run's first plot, and back on the heat
 * map. */
static void
test_isl_osl_opens_on_heat_map (void)
{
  g_autoptr (IvRunsState) st = iv_runs_state_new ();
  g_autofree char *path = g_build_filename (g_getenv ("IV_SAMPLES_DIR"), "isl-osl-sweep", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  IvSweep *sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  iv_runs_state_set_sweep (st, sweep, NULL, NULL);
  g_assert_cmpstr (preset (st, 0), !=, "isl_osl_throughput_heatmap");
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, "isl_osl_throughput_heatmap");
  g_assert_null (iv_runs_state_serialize (st));
  g_object_set (st, "run", 0u, NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, preset (st, 0));
  g_object_set (st, "run", G_MAXUINT, NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, "isl_osl_throughput_heatmap");
  iv_runs_state_restore (st, NULL);
  g_assert_cmpstr (iv_runs_state_get_plot (st), ==, "isl_osl_throughput_heatmap");
  iv_runs_state_set_sweep (st, NULL, NULL, NULL);
  iv_sweep_free (sweep);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runs-state/notify", test_notify);
  g_test_add_func ("/runs-state/sweep-and-run", test_sweep_and_run);
  g_test_add_func ("/runs-state/serialize", test_serialize);
  g_test_add_func ("/runs-state/isl-osl-opens-on-heat-map", test_isl_osl_opens_on_heat_map);
  return g_test_run ();
}
