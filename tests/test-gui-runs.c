/* test-gui-runs.c: the Runs workspace in the real window, headless (xvfb-run +
 * dbus-run-session): a sweep's comparison and a run alone, the table, the run card, the
 * "Bound on" row, the plot configurations, the aiperf toggle, an ISL × OSL sweep, live
 * runs, and that each change draws the plot once. Skips (77) without a display. Each case
 * starts from a new window (iv_gui_run_cases), so any case passes alone or in any order. */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <string.h>

#include "iv-chart-private.h" /* the subtitle drawn */
#include "iv-chart-view.h"
#include "iv-export.h"
#include "iv-gui-test-util.h"
#include "iv-model-view.h"
#include "iv-preset.h"
#include "iv-render-serving.h"
#include "iv-run-bound.h"
#include "iv-run-card.h"
#include "iv-run-series.h"
#include "iv-runs-bound-row.h"
#include "iv-runs-item.h"
#include "iv-runs-notes-bar.h"
#include "iv-runs-table-view.h"
#include "iv-runs-view.h"
#include "iv-figure-view.h"
#include "iv-serving-measured.h"
#include "iv-settings.h"
#include "iv-test-util.h"
#include "iv-units.h"
#include "iv-window-private.h"
#include "iv-window.h"
#include "iv-workspace-page.h"

/* The running case's window and scratch folder (iv-gui-test-util.h). */
#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())

/* The Runs workspace of the case's window, and what it shows, found by the template ids of
 * its widgets: tests drive its state and read its widgets. */
static IvRunsView *
runs_view (void)
{
  return iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
}

static IvRunsState *
state_of (IvRunsView *view)
{
  return iv_runs_view_get_state (view);
}

static GtkColumnView *
table_of (IvRunsView *view)
{
  return iv_runs_table_view_get_column_view (
      IV_RUNS_TABLE_VIEW (iv_gui_find_by_id (GTK_WIDGET (view), "table")));
}

static const char *
cell_text (IvRunsView *view, guint row, guint column)
{
  return iv_runs_table_view_get_cell (
      IV_RUNS_TABLE_VIEW (iv_gui_find_by_id (GTK_WIDGET (view), "table")), row, column);
}

static const char *
shown_page (IvRunsView *view)
{
  return gtk_stack_get_visible_child_name (
      GTK_STACK (iv_gui_find_by_id (GTK_WIDGET (view), "plot_stack")));
}

/* The chart view, or NULL when the plot was skipped. */
static IvChartView *
chart_view (IvRunsView *view)
{
  if (g_strcmp0 (shown_page (view), "skipped") == 0)
    return NULL;
  return IV_CHART_VIEW (iv_gui_find_by_id (GTK_WIDGET (view), "chart"));
}

/* Why the plot was skipped (the status page's description), or NULL. */
static const char *
skip_reason (IvRunsView *view)
{
  if (g_strcmp0 (shown_page (view), "skipped") != 0)
    return NULL;
  return adw_status_page_get_description (
      ADW_STATUS_PAGE (iv_gui_find_by_id (GTK_WIDGET (view), "skipped")));
}

/* Chooses the plot @name through the state: whether it is listed. */
static gboolean
show_plot (IvRunsView *view, const char *name)
{
  g_object_set (state_of (view), "plot", name, NULL);
  return g_strcmp0 (iv_runs_state_get_plot (state_of (view)), name) == 0;
}

/* The plot picker's list as it shows now (narrowed by its search), and every plot it
 * lists (the model under the search). */
static GListModel *
plots_shown (IvRunsView *view)
{
  return G_LIST_MODEL (
      gtk_list_view_get_model (GTK_LIST_VIEW (iv_gui_find_by_id (GTK_WIDGET (view), "plot_list"))));
}

static GListModel *
plots_listed (IvRunsView *view)
{
  GListModel *shown = gtk_single_selection_get_model (GTK_SINGLE_SELECTION (plots_shown (view)));
  return gtk_filter_list_model_get_model (GTK_FILTER_LIST_MODEL (shown));
}

static const char *
plot_title (IvRunsView *view, const char *name)
{
  GListModel *items = plots_listed (view);
  guint at = iv_runs_items_find (items, name);
  g_autoptr (IvRunsItem) item = NULL;

  g_assert_cmpuint (at, !=, GTK_INVALID_LIST_POSITION);
  item = g_list_model_get_item (items, at);
  return iv_runs_item_get_title (item);
}

/* The position of the table's column titled @title. */
static guint
column_titled (IvRunsView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (table_of (view));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
      /* a long title is on two lines */
      g_autofree char *one = g_strdup (gtk_column_view_column_get_title (c));
      g_strdelimit (one, "\n", ' ');
      if (g_strcmp0 (one, title) == 0)
        return i;
    }
  g_error ("no column titled %s", title);
}

static gboolean
two_plots_shown (gpointer view)
{
  return g_list_model_get_n_items (plots_shown (view)) == 2;
}

/* What the plot button says. */
static const char *
plot_button_text (IvRunsView *view)
{
  return gtk_label_get_text (GTK_LABEL (iv_gui_find_by_id (GTK_WIDGET (view), "plot_label")));
}

/* Opens the plot picker, types @search and presses Enter, as a reader does. */
static void
pick_plot_searched (IvRunsView *view, const char *search)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (iv_gui_find_by_id (GTK_WIDGET (view), "plot_choice"));
  GtkWidget *entry = iv_gui_find_by_id (GTK_WIDGET (view), "plot_search");

  gtk_menu_button_popup (button);
  iv_gui_settle (window);
  gtk_editable_set_text (GTK_EDITABLE (entry), search);
  g_signal_emit_by_name (entry, "activate");
  iv_gui_settle (window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (button))));
}

static void
open_run (IvRunsView *view, guint index)
{
  g_object_set (state_of (view), "run", index, NULL);
}

static const IvRun *
run_of (IvRunsView *view)
{
  return iv_runs_state_get_run (state_of (view));
}

static void
set_bound (IvRunsView *view, const char *hardware, gint64 tp)
{
  g_object_set (state_of (view), "hardware", hardware, "tp", tp, NULL);
}

static IvRunsBoundRow *
bound_row_of (IvRunsView *view)
{
  return IV_RUNS_BOUND_ROW (iv_gui_find_by_id (GTK_WIDGET (view), "bound_row"));
}

static gboolean
bound_error_said (gpointer data)
{
  return iv_runs_bound_row_get_error (data) != NULL;
}

static gboolean
model_is_read (gpointer data)
{
  IvRunsBoundChoice c;
  iv_runs_bound_row_get_choice (data, &c);
  return c.model != NULL;
}

/* Opens @path and shows it: its document (a reference). */
static IvDocument *
open_shown (const char *path)
{
  IvDocument *doc = NULL;

  iv_gui_open_paths (window, path, NULL);
  iv_gui_settle (window);
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
    {
      g_autoptr (IvDocument) d = iv_gui_doc_at (window, i);
      g_autofree char *p = g_file_get_path (iv_document_get_file (d));
      if (g_str_equal (p, path))
        g_set_object (&doc, d);
    }
  g_assert_nonnull (doc);
  iv_window_select (window, doc);
  iv_gui_settle (window);
  return doc;
}

/* Opens the runs under @path and shows them: their sweep. */
static const IvSweep *
open_sweep (const char *path)
{
  g_autoptr (IvDocument) doc = open_shown (path);

  g_assert_nonnull (iv_document_get_sweep (doc));
  return iv_document_get_sweep (doc);
}

/* A sweep opens on the comparison: its runs in a table, the first preset drawn; the
 * statistic picker changes the axes; a point of a run opens it alone (card, metrics,
 * its own presets, skipped ones with their reason); Back returns. */
static void
test_runs_view (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  IvRunsView *view;
  const IvSweep *sweep;
  IvChart *chart;

  sweep = open_sweep (path);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  iv_gui_settle (window);
  view = iv_workspace_page_get_runs (page);
  g_assert_nonnull (view);
  g_assert_null (run_of (view));
  g_assert_cmpuint (
      g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table_of (view)))), ==, 3);
  /* durations in their own units (TTFT p50 and latency p99 of concurrency 1, 2 and 4,
   * from AIPerf's summaries of 64 requests each: 30.67, 35.50, 52.65 ms and 3.909,
   * 4.129, 3.941 s): never "3.66k ms" */
  {
    const char *ttft[] = { "30.7 ms", "35.5 ms", "52.6 ms" },
               *p99[] = { "3.91 s", "4.13 s", "3.94 s" };
    for (guint i = 0; i < 3; i++)
      {
        g_assert_cmpstr (cell_text (view, i, 1), ==, ttft[i]);
        g_assert_cmpstr (cell_text (view, i, 3), ==, p99[i]);
      }
    g_assert_null (cell_text (view, 3, 0));
  }
  /* the model, the 10 of 64 requests and no errors, the same in every run: said once
   * above the table, not in three columns */
  {
    const char *sub = gtk_label_get_text (
        GTK_LABEL (iv_gui_find_by_id (GTK_WIDGET (runs_view ()), "subtitle")));
    g_assert_true (g_str_has_prefix (sub, "Model: Qwen/Qwen3-0.6B · "));
    g_assert_nonnull (strstr (sub, "Requests: 10 of 64 · Errors: 0"));
  }
  g_assert_nonnull (chart_view (view));
  chart = iv_chart_view_get_chart (chart_view (view));
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Request latency (avg)");
  g_assert_nonnull (iv_workspace_page_get_figure (page));
  g_object_set (state_of (view), "statistic", "p90", NULL);
  chart = iv_chart_view_get_chart (chart_view (view));
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Request latency (p90)");
  /* The state both ways: its property moves the picker and the plot; the picker moves it. */
  {
    IvRunsState *state = state_of (view);
    GtkDropDown *stat = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (view), "stat_choice"));
    g_autofree char *now = NULL;
    g_assert_cmpstr (iv_runs_state_get_statistic (state), ==, "p90");
    g_assert_cmpuint (gtk_drop_down_get_selected (stat), ==, 2);
    g_object_set (state, "statistic", "p99", NULL);
    g_assert_cmpuint (gtk_drop_down_get_selected (stat), ==, 4);
    chart = iv_chart_view_get_chart (chart_view (view));
    g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Request latency (p99)");
    gtk_drop_down_set_selected (stat, 2);
    g_object_get (state, "statistic", &now, NULL);
    g_assert_cmpstr (now, ==, "p90");
  }
  g_object_set (state_of (view), "group-by", "concurrency", NULL);
  g_assert_true (show_plot (view, "ttft_per_run"));
  g_assert_nonnull (chart_view (view));
  g_assert_true (show_plot (view, "latency_throughput_uncertainty"));
  g_assert_null (chart_view (view));
  g_assert_nonnull (strstr (skip_reason (view), "no repeated trials"));

  /* Log toggles and the chart's right-click actions are one state: each moves the
   * other, the axis follows, and the state holds across a change of plot. */
  g_assert_true (show_plot (view, "ttft_vs_throughput"));
  {
    IvChartView *cv = chart_view (view);
    GtkToggleButton *log_y
        = GTK_TOGGLE_BUTTON (iv_gui_find_button_with_prefix (GTK_WIDGET (view), "Log _y"));
    g_assert_nonnull (log_y);
    g_assert_false (gtk_toggle_button_get_active (log_y));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (cv), "chart.log-y", NULL));
    g_assert_true (iv_chart_view_get_log (cv, IV_AXIS_Y));
    g_assert_true (gtk_toggle_button_get_active (log_y));
    g_assert_cmpint (iv_chart_axis_get_scale (iv_chart_view_get_chart (cv), IV_AXIS_Y), ==,
                     IV_SCALE_LOG10);
    g_assert_true (show_plot (view, "ttft_per_run"));
    cv = chart_view (view);
    g_assert_cmpint (iv_chart_axis_get_scale (iv_chart_view_get_chart (cv), IV_AXIS_Y), ==,
                     IV_SCALE_LOG10);
    gtk_toggle_button_set_active (log_y, FALSE);
    g_assert_false (iv_chart_view_get_log (cv, IV_AXIS_Y));
    {
      gboolean state_log = TRUE;
      g_object_get (state_of (view), "log-y", &state_log, NULL);
      g_assert_false (state_log);
    }
    g_assert_cmpint (iv_chart_axis_get_scale (iv_chart_view_get_chart (cv), IV_AXIS_Y), ==,
                     IV_SCALE_LINEAR);
  }

  /* the plot picker moves the state's plot, and the state the picker's title */
  {
    g_assert_true (show_plot (view, "custom"));
    g_assert_cmpstr (plot_button_text (view), ==, "Custom: Any Metric vs Any Metric…");
    pick_plot_searched (view, "ttft vs");
    g_assert_cmpstr (iv_runs_state_get_plot (state_of (view)), ==, "ttft_vs_throughput");
    g_assert_cmpstr (plot_button_text (view), ==, "TTFT vs Throughput");
  }

  /* Any quantity against any other. */
  g_object_set (state_of (view), "custom-x", "concurrency", "custom-y", "inter_token_latency",
                NULL);
  g_assert_true (show_plot (view, "custom"));
  chart = iv_chart_view_get_chart (chart_view (view));
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==, "Concurrency");
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_Y), ==, "Inter-token latency (p90)");
  g_assert_cmpstr (iv_chart_get_title (chart), ==, "Inter-token latency vs Concurrency");

  /* A click on run 2's point opens it (the signal a chart view emits for a click). */
  g_assert_true (show_plot (view, "ttft_vs_throughput"));
  g_object_set (state_of (view), "statistic", "avg", NULL);
  {
    const IvRun *r = sweep->runs->pdata[1];
    g_signal_emit_by_name (chart_view (view), "point-activated", 0u, (guint64) 0,
                           iv_run_axis_value (r, "time_to_first_token", "avg"),
                           iv_run_axis_value (r, "request_throughput", "avg"));
  }
  g_assert_true (run_of (view) == sweep->runs->pdata[1]);
  g_assert_cmpuint (
      g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table_of (view)))), >=,
      10);
  /* its metrics: a name with its unit, then eight statistics; latency in whole ms */
  {
    gboolean seen = FALSE;
    for (guint i = 0; cell_text (view, i, 0); i++)
      if (g_str_equal (cell_text (view, i, 0), "Request latency (ms)"))
        {
          IvMetricSummary m = { 0 };
          g_autofree char *avg = NULL;
          g_assert_true (iv_run_metric_stats (run_of (view), "request_latency", &m));
          g_assert_cmpfloat (m.avg, >, 1000);
          avg = g_strdup_printf ("%.0f", m.avg);
          g_assert_cmpstr (cell_text (view, i, 1), ==, avg);
          g_assert_nonnull (cell_text (view, i, 8));
          iv_metric_summary_clear (&m);
          seen = TRUE;
        }
    g_assert_true (seen);
  }
  chart = iv_chart_view_get_chart (chart_view (view));
  g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_Y), ==, "Time to first token");
  /* A request's point selects it; the timeline then marks it too; a second click drops it. */
  {
    const IvRun *r = run_of (view);
    g_autoptr (GArray) order = iv_run_order_by_start (r);
    g_autofree double *ttft = iv_run_metric_per_request (r, "time_to_first_token");
    guint32 first = g_array_index (order, guint32, 0);
    gboolean marked = FALSE;
    g_assert_true (show_plot (view, "ttft_over_time"));
    g_signal_emit_by_name (chart_view (view), "point-activated", 0u, (guint64) 0, 1.0, ttft[first]);
    g_assert_cmpuint (iv_runs_state_get_selection (state_of (view))->len, ==, 1);
    g_assert_cmpuint (g_array_index (iv_runs_state_get_selection (state_of (view)), guint32, 0), ==,
                      first);
    g_assert_true (show_plot (view, "ttft_timeline"));
    chart = iv_chart_view_get_chart (chart_view (view));
    for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
      marked |= g_str_equal (iv_series_get_name (iv_chart_get_series (chart, i)), "selected");
    g_assert_true (marked);
    /* its bar in the timeline is row 1: clicking it drops it again */
    g_signal_emit_by_name (chart_view (view), "point-activated", 0u, (guint64) 0, 0.5, 1.0);
    g_assert_cmpuint (iv_runs_state_get_selection (state_of (view))->len, ==, 0);
  }
  g_assert_true (show_plot (view, "timeslices_ttft"));
  g_assert_nonnull (strstr (skip_reason (view), "no time slices"));
  g_assert_true (show_plot (view, "ttft_distribution"));
  g_assert_nonnull (chart_view (view));
  g_assert_false (show_plot (view, "no_such_plot"));
  open_run (view, G_MAXUINT);
  g_assert_null (run_of (view));
  iv_gui_settle (window);
}

static void
count_up (guint *n)
{
  (*n)++;
}

/* The "Bound on" row alone, bound to a state: the state's choice shows in its drop-downs,
 * a drop-down's choice is the state's, TP and model are asked only with hardware, and a
 * model the presets do not have shows as each run's own. */
static void
test_runs_bound_row (void)
{
  IvRunsBoundRow *row = IV_RUNS_BOUND_ROW (g_object_ref_sink (iv_runs_bound_row_new ()));
  g_autoptr (IvRunsState) state = iv_runs_state_new ();
  GtkDropDown *hardware = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (row), "bound_hardware"));
  GtkDropDown *models = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (row), "bound_model"));
  GtkDropDown *tp = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (row), "bound_tp"));
  IvRunsBoundChoice c;
  guint changes = 0, qwen = 0;

  iv_runs_bound_row_set_state (row, state);
  g_signal_connect_swapped (state, "notify::model", G_CALLBACK (count_up), &changes);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (models)));
  /* the state to the drop-downs */
  g_object_set (state, "hardware", "h100x8", "tp", (gint64) 2, NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (models)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp)));
  g_assert_cmpstr (iv_runs_items_key_at (gtk_drop_down_get_model (hardware),
                                         gtk_drop_down_get_selected (hardware)),
                   ==, "h100x8");
  g_assert_cmpuint (gtk_drop_down_get_selected (tp), ==, 2);
  iv_runs_bound_row_get_choice (row, &c);
  g_assert_cmpstr (c.hardware->name, ==, "h100x8");
  g_assert_cmpint (c.tp, ==, 2);
  g_assert_null (c.model);
  /* the drop-downs to the state: Qwen3-0.6B among the presets, TP 4 */
  for (guint i = 0; i < iv_presets_get ()->len; i++)
    if (g_str_equal (((IvModel *) iv_presets_get ()->pdata[i])->name, "Qwen3-0.6B"))
      qwen = i + 1;
  gtk_drop_down_set_selected (models, qwen);
  g_assert_cmpstr (iv_runs_state_get_model (state), ==, "Qwen3-0.6B");
  g_assert_cmpuint (changes, ==, 1);
  iv_runs_bound_row_get_choice (row, &c);
  g_assert_cmpstr (c.model->name, ==, "Qwen3-0.6B");
  gtk_drop_down_set_selected (tp, 3);
  g_assert_cmpint (iv_runs_state_get_tp (state), ==, 4);
  /* a model no preset is: each run's own, shown as such */
  g_object_set (state, "model", "No-Such-Model", NULL);
  g_assert_cmpuint (gtk_drop_down_get_selected (models), ==, 0);
  iv_runs_bound_row_get_choice (row, &c);
  g_assert_null (c.model);
  g_assert_cmpstr (iv_runs_state_get_model (state), ==, "No-Such-Model");
  gtk_drop_down_set_selected (hardware, 0);
  g_assert_null (iv_runs_state_get_hardware (state));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (models)));
  g_object_unref (row);
}

/* What a folder remembers — hardware, TP, model and plot — comes back with it after
 * another folder was shown, and the other folder keeps its own (nothing). */
static void
test_runs_memory (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  g_autofree char *other = iv_gui_sample ("isl-osl-sweep");
  IvRunsView *view;
  IvRunsState *state;
  g_autofree char *second = NULL;

  open_sweep (path);
  view = runs_view ();
  state = state_of (view);
  /* (a copy: opening the folder again reads its configuration again) */
  second = g_strdup (((const IvPlotSpec *) iv_runs_state_get_presets (state)->pdata[1])->name);
  g_object_set (state, "hardware", "h100x8", "tp", (gint64) 2, "model", "Qwen3-0.6B", NULL);
  g_assert_true (show_plot (view, second));
  open_sweep (other);
  g_assert_null (iv_runs_state_get_hardware (state));
  g_assert_null (iv_runs_state_get_model (state));
  g_assert_cmpint (iv_runs_state_get_tp (state), ==, 0);
  /* the plot it opens on: an ISL × OSL sweep's heat map */
  g_assert_cmpstr (iv_runs_state_get_plot (state), ==, "isl_osl_throughput_heatmap");
  open_sweep (path);
  g_assert_cmpstr (iv_runs_state_get_hardware (state), ==, "h100x8");
  g_assert_cmpint (iv_runs_state_get_tp (state), ==, 2);
  g_assert_cmpstr (iv_runs_state_get_model (state), ==, "Qwen3-0.6B");
  g_assert_cmpstr (iv_runs_state_get_plot (state), ==, second);
  /* shown as restored: the bound's columns in the table, the plot in its drop-down */
  {
    GListModel *columns = gtk_column_view_get_columns (table_of (view));
    gboolean bound = FALSE;
    for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
      {
        g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
        bound |= g_strcmp0 (gtk_column_view_column_get_title (c), "Bound ITL") == 0;
      }
    g_assert_true (bound);
  }
  g_assert_cmpstr (iv_runs_state_get_plot (state_of (view)), ==, second);
  g_assert_cmpstr (plot_button_text (view), ==, plot_title (view, second));
}

/* Whether the plot list in the picker offers @name. */
static gboolean
plot_offered (IvRunsView *view, const char *name)
{
  GListModel *items = plots_listed (view);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    if (g_strcmp0 (iv_runs_items_key_at (items, i), name) == 0)
      return TRUE;
  return FALSE;
}

/* With a hardware under Bound on the plot list offers serving_bound, the measured runs
 * over the serving curve's bound as `plot --hardware` draws it (the same points, the same
 * render function, exported as drawn); without one it is neither offered nor kept. */
static void
test_runs_serving_bound (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  const IvSweep *sweep = open_sweep (path);
  IvRunsView *view = runs_view ();
  IvRunsState *state = state_of (view);
  g_auto (IvServingMeasuredSet) expected = { NULL };
  const IvHardware *hw = iv_hardware_find ("h100x8");
  const IvFigure *figure;
  const IvServingFigure *drawn;
  IvConfig config;

  g_assert_false (plot_offered (view, "serving_bound"));
  g_assert_false (show_plot (view, "serving_bound"));
  set_bound (view, "h100x8", 0);
  g_assert_true (plot_offered (view, "serving_bound"));
  g_assert_true (show_plot (view, "serving_bound"));
  g_assert_cmpstr (shown_page (view), ==, "serving");
  {
    g_autofree char *png
        = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                            "runs-serving-bound.png", NULL);
    iv_gui_snapshot (GTK_WINDOW (window), png);
  }
  /* what `plot --hardware h100x8` sets the runs against: a GPU server's groups across
   * its GPUs, each run's own model, the smallest TP that fits */
  iv_config_init (&config);
  config.place_tp = config.place_cp = config.place_ep = IV_PLACE_CUBE;
  iv_serving_measured_from_sweep (sweep, NULL, hw, &config, 0, &expected);
  g_assert_cmpuint (expected.points->len, >, 0);
  figure = iv_runs_view_get_figure (view);
  g_assert_nonnull (figure);
  g_assert_true (figure->render == iv_render_serving);
  g_assert_cmpstr (figure->name, ==, "serving_bound");
  drawn = figure->data;
  g_assert_cmpuint (drawn->n_measured, ==, expected.points->len);
  g_assert_true (drawn->curve->hw == hw);
  for (guint i = 0; i < drawn->n_measured; i++)
    g_assert_cmpfloat_with_epsilon (
        drawn->measured[i].per_gpu, g_array_index (expected.points, IvServingMeasured, i).per_gpu,
        1e-9 * g_array_index (expected.points, IvServingMeasured, i).per_gpu);
  /* exported as drawn */
  {
    g_autofree char *png = g_build_filename (tmpdir, "serving_bound.png", NULL);
    IvExportOptions eo;
    g_autoptr (GError) error = NULL;
    iv_export_options_init (&eo);
    g_assert_true (iv_export_to_file (figure, &eo, png, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  }
  /* no hardware: not offered, and the plot falls back to one the list has */
  set_bound (view, NULL, 0);
  g_assert_false (plot_offered (view, "serving_bound"));
  g_assert_cmpstr (iv_runs_state_get_plot (state), ==,
                   ((const IvPlotSpec *) iv_runs_state_get_presets (state)->pdata[0])->name);
  g_assert_cmpstr (shown_page (view), !=, "serving");
  g_assert_false (show_plot (view, "serving_bound"));
}

/* One run's card: how it ran, from its summary (AIPerf's own sample: Qwen3-0.6B at
 * concurrency 1, 64 requests of which 10 have records, one GPU scraped by two endpoints),
 * and with hardware chosen its bound. */
static void
test_run_card (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf/qwen_concurrency1");
  IvRunsView *view;
  IvRunCard *card;
  g_autofree char *text = NULL, *bound = NULL;

  open_sweep (path);
  view = iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
  card = IV_RUN_CARD (iv_gui_find_by_id (GTK_WIDGET (view), "card"));
  g_assert_nonnull (card);
  text = iv_run_card_to_text (card);
  g_assert_true (g_str_has_prefix (text, "Model: Qwen/Qwen3-0.6B\n"));
  g_assert_nonnull (strstr (text, "\nConcurrency: 1\n"));
  g_assert_nonnull (strstr (text, "\nSequence lengths: 100 in, 200 out (tokens, mean)\n"));
  g_assert_nonnull (strstr (text, "records of 10 of the 64 requests in AIPerf's summary\n"));
  g_assert_nonnull (strstr (text, "\nGPUs: 1 × "));
  g_assert_nonnull (strstr (text, "(by UUID in the telemetry) — 1 GPU by UUID; AIPerf counts 2"));
  g_assert_null (strstr (text, "Bound on"));
  set_bound (view, "h100x8", 0);
  bound = iv_run_card_to_text (card);
  g_assert_nonnull (strstr (bound, "\nBound on h100x8: "));
  g_assert_nonnull (strstr (bound, "\nCaveat: " IV_BOUND_CAVEAT "\n"));
  set_bound (view, NULL, 0);
}

/* The comparison's table: sorted by a column's numbers, and a row opens its run. */
static void
test_runs_table_view (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  const IvSweep *sweep = open_sweep (path);
  IvRunsView *view = iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
  GtkColumnView *cv = table_of (view);
  g_autoptr (GtkColumnViewColumn) ttft = NULL;
  const char *by_ttft[] = { "52.6 ms", "35.5 ms", "30.7 ms" };

  iv_gui_settle (window);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  /* TTFT p50 (column 1: the model, requests and errors are the same in every run, said
   * above; the concurrency is in each run's name), largest first: concurrency 4, 2, 1 */
  ttft = g_list_model_get_item (gtk_column_view_get_columns (cv), 1);
  g_assert_cmpstr (gtk_column_view_column_get_title (ttft), ==, "TTFT p50");
  gtk_column_view_sort_by_column (cv, ttft, GTK_SORT_DESCENDING);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (cell_text (view, i, 1), ==, by_ttft[i]);
  g_assert_cmpstr (cell_text (view, 0, 0), ==, "concurrency 4");
  /* by name, as a file manager sorts: concurrency 1, 2, 4 (and 16 after 4, not after 1) */
  {
    g_autoptr (GtkColumnViewColumn) run
        = g_list_model_get_item (gtk_column_view_get_columns (cv), 0);
    gtk_column_view_sort_by_column (cv, run, GTK_SORT_ASCENDING);
    g_assert_cmpstr (cell_text (view, 0, 0), ==, "concurrency 1");
    g_assert_cmpstr (cell_text (view, 2, 0), ==, "concurrency 4");
    gtk_column_view_sort_by_column (cv, ttft, GTK_SORT_DESCENDING);
  }
  /* the first row shown now is concurrency 4's: activating it opens that run */
  g_signal_emit_by_name (cv, "activate", 0);
  iv_gui_settle (window);
  g_assert_nonnull (run_of (view));
  g_assert_cmpfloat (run_of (view)->concurrency, ==, 4);
}

static void
count_chart (guint *n)
{
  (*n)++;
}

/* Each change draws the plot once: opening a run from the comparison, going back, and a
 * new sweep (never from the old sweep's presets). */
static void
test_runs_builds_once (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  /* (a sweep that opens on a chart, as the first does: an ISL × OSL sweep opens on its
   * heat map, panels the chart view does not draw) */
  g_autofree char *other = iv_gui_sample ("aiperf/qwen_concurrency2");
  IvRunsView *view;
  IvChartView *cv;
  guint builds = 0;

  open_sweep (path);
  view = iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
  cv = chart_view (view);
  g_assert_nonnull (cv);
  g_signal_connect_swapped (cv, "notify::chart", G_CALLBACK (count_chart), &builds);
  iv_runs_state_toggle_request (state_of (view), 0); /* (no effect across runs: nothing to clear) */
  builds = 0;
  open_run (view, 1);
  g_assert_cmpuint (builds, ==, 1);
  /* a request picked in the run, then back: the picked request is not redrawn first */
  iv_runs_state_toggle_request (state_of (view), 2);
  builds = 0;
  open_run (view, G_MAXUINT);
  g_assert_cmpuint (builds, ==, 1);
  /* a property set: one figure; several set together: one too */
  builds = 0;
  g_object_set (state_of (view), "statistic", "p99", NULL);
  g_assert_cmpuint (builds, ==, 1);
  builds = 0;
  g_object_set (state_of (view), "hardware", "h100x8", "tp", (gint64) 2, "group-by", "concurrency",
                NULL);
  g_assert_cmpuint (builds, ==, 1);
  builds = 0;
  open_sweep (other);
  iv_gui_settle (window);
  g_assert_cmpuint (builds, ==, 1);
  /* … of the new sweep's presets */
  g_assert_cmpstr (
      iv_runs_state_get_plot (state_of (view)), ==,
      ((const IvPlotSpec *) iv_runs_state_get_presets (state_of (view))->pdata[0])->name);
  g_signal_handlers_disconnect_by_func (cv, count_chart, &builds);
}

/* Copies the files of the sample run @name into @dir. */
static void
copy_sample_run (const char *name, const char *dir)
{
  g_autofree char *from = iv_gui_sample (name);
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *f;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  while ((f = g_dir_read_name (d)))
    {
      g_autofree char *src = g_build_filename (from, f, NULL);
      g_autofree char *dst = g_build_filename (dir, f, NULL);
      g_autofree char *text = NULL;
      gsize len;
      if (!g_file_test (src, G_FILE_TEST_IS_REGULAR))
        continue; /* a run's files only: its folders are other runs' */
      g_assert_true (g_file_get_contents (src, &text, &len, NULL));
      g_assert_true (g_file_set_contents (dst, text, (gssize) len, NULL));
    }
}

/* The runs view's "As aiperf plot" toggle (issue 29): off, the figure is Inferview's
 * (the picked statistic on the axes) and its subtitle says where aiperf plot differs —
 * for ttft_vs_throughput, that its x is each run's p50 (the summary's, given in the
 * note), said once (issue 31: not again above the plot, nor in the notes bar); on, the
 * figure is aiperf plot's (its p50 whatever the picker says) and says nothing of it; off
 * again restores both. */
static void
test_runs_aiperf_toggle (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  const IvSweep *sweep = open_sweep (path);
  IvRunsView *view;
  GtkToggleButton *toggle;
  IvRunsNotesBar *notes;
  IvChart *chart;
  g_autofree char *p50 = NULL;

  iv_gui_settle (window);
  view = iv_workspace_page_get_runs (page);
  toggle = GTK_TOGGLE_BUTTON (iv_gui_find_by_id (GTK_WIDGET (view), "aiperf"));
  notes = IV_RUNS_NOTES_BAR (iv_gui_find_by_id (GTK_WIDGET (view), "notes"));
  g_assert_nonnull (toggle);
  g_assert_nonnull (notes);
  /* the label that said them again above the plot is gone */
  g_assert_null (iv_gui_find_by_id (GTK_WIDGET (view), "aiperf_notes"));
  g_assert_true (show_plot (view, "ttft_vs_throughput"));
  g_object_set (state_of (view), "statistic", "avg", NULL);
  {
    /* the summary's p50 in its best unit, as the note says it */
    g_autofree char *t = iv_units_format_amount (
        iv_run_get_summary (sweep->runs->pdata[0], "time_to_first_token")->p50, "ms");
    p50 = g_strdup_printf ("(%s for concurrency 1", t);
  }
  for (int pass = 0; pass < 3; pass++)
    {
      gboolean aiperf = pass == 1;
      gtk_toggle_button_set_active (toggle, aiperf);
      iv_gui_settle (window);
      chart = iv_chart_view_get_chart (chart_view (view));
      g_assert_null (strstr (iv_runs_notes_bar_get_text (notes), "aiperf plot puts"));
      if (aiperf)
        {
          g_assert_null (strstr (iv_chart_axis_get_title (chart, IV_AXIS_X), "(avg)"));
          g_assert_null (strstr (chart->subtitle ? chart->subtitle : "", "aiperf plot puts"));
        }
      else
        {
          const char *text = chart->subtitle;
          g_assert_cmpstr (iv_chart_axis_get_title (chart, IV_AXIS_X), ==,
                           "Time to first token (avg)");
          g_assert_nonnull (text);
          g_assert_nonnull (
              strstr (text, "x: each run's avg here; aiperf plot puts its p50 there"));
          g_assert_nonnull (strstr (text, p50));
        }
    }
}

/* The plot configurations are read with the runs, by the loader: a run's own
 * .aiperf-plot-config.yaml gives it its presets even once the file is gone (nothing is
 * read when a run is shown), and a broken one is said in the run's notes while the
 * built-in one is used. */
static void
test_runs_plot_configs (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "configured-sweep", NULL);
  g_autofree char *one = g_build_filename (root, "qwen_concurrency1", NULL);
  g_autofree char *two = g_build_filename (root, "qwen_concurrency2", NULL);
  g_autofree char *broken = g_build_filename (one, ".aiperf-plot-config.yaml", NULL);
  g_autofree char *own = g_build_filename (two, ".aiperf-plot-config.yaml", NULL);
  IvRunsView *view;
  const IvSweep *sweep;
  const char *why = NULL;
  const IvPlotConfigs *configs = NULL;
  guint at_one = G_MAXUINT, at_two = G_MAXUINT;
  IvRunsNotesBar *notes;

  copy_sample_run ("aiperf/qwen_concurrency1", one);
  copy_sample_run ("aiperf/qwen_concurrency2", two);
  g_assert_true (g_file_set_contents (broken, "visualization: [\n", -1, NULL));
  g_assert_true (g_file_set_contents (own,
                                      "visualization:\n"
                                      "  single_run_defaults: [my_itl]\n"
                                      "  single_run_plots:\n"
                                      "    my_itl:\n"
                                      "      type: scatter\n"
                                      "      x: request_number\n"
                                      "      y: inter_token_latency\n"
                                      "      title: My ITL\n",
                                      -1, NULL));
  sweep = open_sweep (root);
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
    {
      g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
      if (iv_document_get_sweep (doc) == sweep)
        configs = iv_document_get_plot_configs (doc);
    }
  g_assert_nonnull (configs);
  g_assert_nonnull (iv_plot_config_get (iv_plot_configs_get (configs, two, &why), FALSE, "my_itl"));
  g_assert_null (why);
  g_assert_null (iv_plot_config_get (iv_plot_configs_get (configs, one, &why), FALSE, "my_itl"));
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, ".aiperf-plot-config.yaml"));
  g_assert_true (g_str_has_suffix (why, "— the built-in plot configuration is used"));
  /* gone now: showing the run reads nothing */
  g_assert_cmpint (g_unlink (own), ==, 0);

  view = iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      if (g_str_equal (r->path, one))
        at_one = i;
      if (g_str_equal (r->path, two))
        at_two = i;
    }
  g_assert_cmpuint (at_one, !=, G_MAXUINT);
  g_assert_cmpuint (at_two, !=, G_MAXUINT);
  open_run (view, at_two);
  iv_gui_settle (window);
  g_assert_true (show_plot (view, "my_itl"));
  notes = IV_RUNS_NOTES_BAR (iv_gui_find_by_id (GTK_WIDGET (view), "notes"));
  g_assert_null (strstr (iv_runs_notes_bar_get_text (notes), "built-in plot configuration"));
  open_run (view, at_one);
  iv_gui_settle (window);
  g_assert_false (show_plot (view, "my_itl"));
  g_assert_nonnull (strstr (iv_runs_notes_bar_get_text (notes), why));
  /* the comparison's configuration is the built-in one here (no ~/.aiperf in the test's
   * home): no note */
  open_run (view, G_MAXUINT);
  iv_gui_settle (window);
  g_assert_null (strstr (iv_runs_notes_bar_get_text (notes), "built-in plot configuration"));
}

/* A run AIPerf is still writing: shown live, grown by the file monitor without a click,
 * the user's plot kept, and finished when the summary appears. */
static gboolean
run_has (gpointer data)
{
  gpointer *what = data;
  const IvSweep *sweep = iv_document_get_sweep (what[0]);
  return sweep && ((const IvRun *) sweep->runs->pdata[0])->n_requests == GPOINTER_TO_UINT (what[1]);
}

static gboolean
run_finished (gpointer data)
{
  const IvSweep *sweep = iv_document_get_sweep (data);
  return sweep && ((const IvRun *) sweep->runs->pdata[0])->live == NULL;
}

static void
append_lines (const char *path, char **lines, guint from, guint to)
{
  FILE *f = fopen (path, "a");
  g_assert_nonnull (f);
  for (guint i = from; i < to; i++)
    fprintf (f, "%s\n", lines[i]);
  fclose (f);
}

/* "4.49 ms", "363 µs", "1.2 s" as seconds. */
static double
seconds_of (const char *text)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  while (end && *end == ' ')
    end++;
  if (g_str_has_prefix (end, "ns"))
    return v * 1e-9;
  if (g_str_has_prefix (end, "µs"))
    return v * 1e-6;
  if (g_str_has_prefix (end, "ms"))
    return v * 1e-3;
  return v;
}

/* An ISL × OSL sweep: its heat maps, small multiples and surface show in the window, a
 * cell's card gives its value, and a drag turns the surface. */
static void
test_isl_osl (void)
{
  g_autofree char *path = iv_gui_sample ("isl-osl-sweep");
  g_autofree char *heat_png
      = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                          "isl-osl-heatmap.png", NULL);
  g_autofree char *surface_png
      = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                          "isl-osl-surface.png", NULL);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  const IvSweep *sweep;
  IvRunsView *view;
  IvFigureView *fv;
  IvSurface *surface;
  double az0, el0, az, el;

  gtk_window_present (GTK_WINDOW (window));
  sweep = open_sweep (path);
  g_assert_cmpuint (sweep->runs->len, ==, 36);
  iv_gui_settle (window);
  view = iv_workspace_page_get_runs (page);
  fv = IV_FIGURE_VIEW (iv_gui_find_by_id (GTK_WIDGET (view), "figure_view"));
  /* the table a few rows tall, the figure the rest: as a reader looking at it drags it */
  gtk_paned_set_position (GTK_PANED (iv_gui_find_by_id (GTK_WIDGET (view), "paned")), 120);

  /* it opens on its heat map over ISL × OSL, not on a pareto grouped by model */
  g_assert_cmpstr (iv_runs_state_get_plot (state_of (view)), ==, "isl_osl_throughput_heatmap");
  g_assert_cmpstr (plot_button_text (view), ==, "Token Throughput per GPU by ISL × OSL");
  g_assert_true (iv_gui_wait_for (iv_gui_is_mapped, fv, 10));
  g_assert_nonnull (iv_runs_view_get_figure (view));
  g_assert_true (iv_runs_view_get_figure (view)->render == iv_chart_grid_render);
  iv_gui_snapshot (GTK_WINDOW (window), heat_png);
  {
    /* the top-left panel is concurrency 1; its bottom-left cell ISL 128, OSL 128, whose
     * value is the run's own summary (one GPU: no telemetry) */
    IvChartGrid *grid = (IvChartGrid *) iv_runs_view_get_figure (view)->data;
    IvChart *panel = iv_chart_grid_get (grid, 0, 0);
    const IvChartLayout *L = iv_chart_get_layout (panel);
    const IvRun *r = NULL;
    double ox, oy, want;
    g_autofree char *card = NULL, *value = NULL;
    for (guint i = 0; i < sweep->runs->len && !r; i++)
      {
        const IvRun *q = sweep->runs->pdata[i];
        if (q->concurrency == 1 && q->isl == 128 && q->osl == 128)
          r = q;
      }
    g_assert_nonnull (r);
    want = iv_run_get_summary (r, "output_token_throughput")->avg;
    g_assert_true (iv_chart_grid_panel_origin (grid, 0, 0, &ox, &oy));
    card = iv_figure_view_describe_at (fv, ox + iv_chart_to_pixel (L, IV_AXIS_X, 0),
                                       oy + iv_chart_to_pixel (L, IV_AXIS_Y, 0));
    g_assert_nonnull (card);
    value = g_strdup_printf ("%.3g tokens/s/GPU", want);
    g_assert_nonnull (strstr (card, "concurrency 1"));
    g_assert_nonnull (strstr (card, value));
    g_assert_nonnull (strstr (card, "Input tokens (ISL): 128"));
  }

  /* the grouping says what the pareto is grouped by: its cells, until one is chosen; then
   * as chosen ("Model": one group of all 36 runs, not the cells again) */
  /* the heat map has no grouping to pick: the statistic alone (the grouping greyed) */
  g_assert_false (gtk_widget_get_sensitive (iv_gui_find_by_id (GTK_WIDGET (view), "group_choice")));
  g_assert_true (gtk_widget_get_sensitive (iv_gui_find_by_id (GTK_WIDGET (view), "stat_choice")));
  g_assert_true (show_plot (view, "pareto_curve_throughput_per_gpu_vs_latency"));
  {
    GtkDropDown *group = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (view), "group_choice"));
    g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (group)));
    g_autoptr (IvRunsItem) shown = NULL;
    IvChart *chart = iv_chart_view_get_chart (chart_view (view));
    guint n_all = 0, n_model = 0;
    g_assert_null (iv_runs_state_get_group_by (state_of (view)));
    shown = g_list_model_get_item (gtk_drop_down_get_model (group),
                                   gtk_drop_down_get_selected (group));
    g_assert_cmpstr (iv_runs_item_get_title (shown), ==, "ISL · OSL");
    /* no series holds every run: each holds a cell's four */
    for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
      n_all += iv_chart_get_series (chart, i)->n == 36;
    g_assert_cmpuint (n_all, ==, 0);
    g_object_set (state_of (view), "group-by", "model", NULL);
    iv_gui_settle (window);
    chart = iv_chart_view_get_chart (chart_view (view));
    for (guint i = 0; i < iv_chart_get_n_series (chart); i++)
      n_model += iv_chart_get_series (chart, i)->n == 36;
    g_assert_cmpuint (n_model, >=, 1);
    g_object_set (state_of (view), "group-by", NULL, NULL);
    iv_gui_settle (window);
  }

  g_assert_true (show_plot (view, "isl_osl_pareto_grid"));
  g_assert_true (iv_runs_view_get_figure (view)->render == iv_chart_grid_render);

  /* the picker searches any part of a title or name: "heatmap" leaves the two heat maps
   * (named so, titled "… by ISL × OSL"); "surface" picks the surface, which is drawn */
  {
    GtkMenuButton *button = GTK_MENU_BUTTON (iv_gui_find_by_id (GTK_WIDGET (view), "plot_choice"));
    GtkWidget *entry = iv_gui_find_by_id (GTK_WIDGET (view), "plot_search");
    GtkWidget *scroller = iv_gui_find_by_id (GTK_WIDGET (view), "plot_scroller");
    gtk_menu_button_popup (button);
    iv_gui_settle (window);
    /* the list scrolls within the window's height */
    g_assert_cmpint (gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (scroller)),
                     <=, gtk_widget_get_height (GTK_WIDGET (window)) - 100);
    gtk_editable_set_text (GTK_EDITABLE (entry), "HEATMAP");
    g_assert_true (iv_gui_wait_for (two_plots_shown, view, 10));
    gtk_popover_popdown (gtk_menu_button_get_popover (button));
    iv_gui_settle (window);
  }
  pick_plot_searched (view, "surface");
  g_assert_cmpstr (iv_runs_state_get_plot (state_of (view)), ==, "isl_osl_pareto_surface");
  surface = iv_figure_view_get_surface (fv);
  g_assert_nonnull (surface);
  iv_gui_snapshot (GTK_WINDOW (window), surface_png);
  /* 3 surfaces (one per OSL) of 3 ISL × 4 concurrencies */
  g_assert_cmpuint (iv_surface_get_n_points (surface), ==, 36);
  iv_surface_get_view (surface, &az0, &el0);
  g_assert_cmpfloat (az0, ==, IV_SURFACE_AZIMUTH);
  iv_figure_view_rotate (fv, 30, -10);
  iv_surface_get_view (surface, &az, &el);
  g_assert_cmpfloat_with_epsilon (az, az0 + 30, 1e-9);
  g_assert_cmpfloat_with_epsilon (el, el0 - 10, 1e-9);
  /* a point's card after the turn: where it is drawn now */
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  {
    double px, py;
    g_autofree char *text = NULL, *card = NULL;
    g_assert_true (iv_surface_get_point (surface, 0, &px, &py, &text));
    card = iv_figure_view_describe_at (fv, px, py);
    g_assert_cmpstr (card, ==, text);
    g_assert_nonnull (strstr (card, "OSL 128"));
  }
  /* the window's export draws what is shown */
  g_assert_true (iv_runs_view_get_figure (view)->render == iv_surface_render);

  /* set against the bound of its model on 8× H100 (§9): three columns more, each run's
   * share of the bound; the efficiency plot; a run's card says the bound and the caveat */
  set_bound (view, "h100x8", 0);
  /* the run (its ISL, OSL, concurrency), four measures, three of the bound: model,
   * requests and errors are the same in every run, said above the table; long titles on
   * two lines, so the bound's columns are on screen */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (table_of (view))), ==,
                    8);
  g_assert_cmpstr (cell_text (view, 0, 0), ==, "isl 128 · osl 128 · c 1");
  {
    g_autoptr (GtkColumnViewColumn) last = g_list_model_get_item (
        gtk_column_view_get_columns (table_of (view)), column_titled (view, "Tokens/s of bound"));
    g_assert_cmpstr (gtk_column_view_column_get_title (last), ==, "Tokens/s\nof bound");
  }
  {
    IvRunBound b;
    const IvRun *first = sweep->runs->pdata[0];
    const char *cell;
    iv_run_bound_compute (first, NULL, iv_hardware_find ("h100x8"), 0, &b);
    g_assert_true (b.ok);
    cell = cell_text (view, 0, column_titled (view, "ITL of bound"));
    g_assert_true (g_str_has_suffix (cell, " %"));
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (cell, NULL), 100 * b.efficiency[IV_BOUND_ITL],
                                    0.06);
    g_assert_cmpfloat (b.efficiency[IV_BOUND_ITL], <, 1);
    iv_run_bound_clear (&b);
  }
  g_assert_true (show_plot (view, "bound_efficiency"));
  g_assert_nonnull (chart_view (view));
  {
    g_autofree char *png = g_build_filename (
        g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", "runs-bound.png", NULL);
    iv_gui_snapshot (GTK_WINDOW (window), png);
  }
  /* the model chosen beside the hardware replaces each run's own: a 0.6 B model's ITL
   * bound is far below an 8 B one's */
  {
    GtkDropDown *models = GTK_DROP_DOWN (iv_gui_find_by_id (GTK_WIDGET (view), "bound_model"));
    GPtrArray *presets = iv_presets_get ();
    double before = seconds_of (cell_text (view, 0, column_titled (view, "Bound ITL"))), after;
    guint qwen = 0;
    g_assert_nonnull (models);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (models)));
    for (guint i = 0; i < presets->len; i++)
      if (g_str_equal (((IvModel *) presets->pdata[i])->name, "Qwen3-0.6B"))
        qwen = i + 1;
    g_assert_cmpuint (qwen, >, 0);
    gtk_drop_down_set_selected (models, qwen);
    after = seconds_of (cell_text (view, 0, column_titled (view, "Bound ITL")));
    g_assert_cmpfloat (after, <, before / 3);
    /* … or from a config.json (Qwen3-0.6B's own numbers: the same bound) */
    {
      g_autofree char *dir = g_build_filename (tmpdir, "Qwen3-0.6B", NULL);
      g_autofree char *cfg = g_build_filename (dir, "config.json", NULL);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      g_assert_true (g_file_set_contents (
          cfg,
          "{\"model_type\": \"qwen3\", \"hidden_size\": 1024, "
          "\"num_hidden_layers\": 28, \"num_attention_heads\": 16, "
          "\"num_key_value_heads\": 8, \"head_dim\": 128, \"intermediate_size\": 3072, "
          "\"vocab_size\": 151936, \"tie_word_embeddings\": true}",
          -1, NULL));
      gtk_drop_down_set_selected (models, 0);
      /* read off the main thread: the bound follows once it is read */
      iv_runs_bound_row_choose_file (bound_row_of (view), cfg);
      g_assert_true (iv_gui_wait_for (model_is_read, bound_row_of (view), 10));
      g_assert_nonnull (strstr (iv_runs_state_get_model (state_of (view)), "config.json"));
      g_assert_cmpfloat_with_epsilon (
          seconds_of (cell_text (view, 0, column_titled (view, "Bound ITL"))), after, after * 1e-9);
      /* one that cannot be read is said in the notes, and the choice stays */
      iv_runs_bound_row_choose_file (bound_row_of (view), "/nonexistent/config.json");
      g_assert_true (iv_gui_wait_for (bound_error_said, bound_row_of (view), 10));
      g_assert_nonnull (strstr (iv_runs_notes_bar_get_text (IV_RUNS_NOTES_BAR (
                                    iv_gui_find_by_id (GTK_WIDGET (view), "notes"))),
                                "/nonexistent/config.json"));
      g_assert_true (model_is_read (bound_row_of (view)));
    }
    gtk_drop_down_set_selected (models, 0);
  }
  set_bound (view, NULL, 0);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (table_of (view))), ==,
                    5);

  /* a run's step in the Model workspace (the card's button): its model on the hardware,
   * decode, batch = concurrency, context = ISL + OSL/2, TP across GPUs */
  {
    IvModelView *mv
        = iv_workspace_page_get_model_view (_iv_window_get_page (window, IV_GROUP_MODEL));
    IvModelState *st = iv_model_view_get_state (mv);
    IvConfig c;
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.model-from-run", "(ssxxx)",
                                               "Llama-3.1-8B", "h100x8", (gint64) 2, (gint64) 16,
                                               (gint64) 1088));
    iv_gui_settle (window);
    iv_model_state_get_config (st, &c);
    g_assert_cmpstr (iv_model_state_get_model (st)->name, ==, "Llama-3.1-8B");
    g_assert_cmpstr (iv_model_state_get_hardware (st)->name, ==, "h100x8");
    g_assert_cmpint (c.mode, ==, IV_MODE_DECODE);
    g_assert_cmpint (c.B, ==, 16);
    g_assert_cmpint (c.P, ==, 1088);
    g_assert_cmpint (c.t, ==, 2);
    g_assert_cmpint (c.place_tp, ==, IV_PLACE_CUBE);
    g_assert_nonnull (iv_model_view_get_result (mv));
    g_assert_true (iv_model_view_get_result (mv)->ok);
  }
}

static void
test_live_run (void)
{
  g_autofree char *src = iv_gui_sample ("aiperf/qwen_concurrency1/profile_export.jsonl");
  g_autofree char *text = NULL;
  g_autofree char *dir = g_build_filename (tmpdir, "live-run", NULL);
  g_autofree char *records = g_build_filename (dir, "profile_export.jsonl", NULL);
  g_auto (GStrv) lines = NULL;
  g_autoptr (IvDocument) doc = NULL;
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  IvRunsView *view;
  GtkWidget *badge;
  gpointer what[2];

  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 10);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  append_lines (records, lines, 0, 3);
  doc = open_shown (dir);
  view = iv_workspace_page_get_runs (page);
  badge = iv_gui_find_by_id (GTK_WIDGET (view), "live_badge");
  g_assert_nonnull (badge);
  g_assert_true (gtk_widget_get_visible (badge));
  g_assert_nonnull (strstr (iv_document_get_subtitle (doc), "3 requests so far"));
  g_assert_true (show_plot (view, "ttft_timeline"));
  /* appended lines arrive by themselves (the folder's monitor), at most twice a second */
  append_lines (records, lines, 3, 7);
  what[0] = doc, what[1] = GUINT_TO_POINTER (7);
  g_assert_true (iv_gui_wait_for (run_has, what, 10));
  g_assert_nonnull (strstr (iv_document_get_subtitle (doc), "7 requests so far"));
  /* the metrics table and the plot the user chose follow */
  g_assert_cmpuint (
      g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table_of (view)))), >, 0);
  {
    IvChart *chart = iv_chart_view_get_chart (chart_view (view));
    g_assert_nonnull (strstr (iv_chart_get_title (chart), "TTFT"));
  }
  /* a half-written line waits for its newline */
  {
    FILE *f = fopen (records, "a");
    fprintf (f, "%.*s", 50, lines[7]);
    fclose (f);
    iv_document_follow_now (doc);
    g_assert_cmpuint (((const IvRun *) iv_document_get_sweep (doc)->runs->pdata[0])->n_requests, ==,
                      7);
    f = fopen (records, "a");
    fprintf (f, "%s\n", lines[7] + 50);
    fclose (f);
    iv_document_follow_now (doc);
    g_assert_cmpuint (((const IvRun *) iv_document_get_sweep (doc)->runs->pdata[0])->n_requests, ==,
                      8);
  }
  /* the summary appears: the run is finished, the badge goes */
  {
    g_autofree char *summary
        = iv_gui_sample ("aiperf/qwen_concurrency1/profile_export_aiperf.json");
    g_autofree char *json = NULL;
    g_assert_true (g_file_get_contents (summary, &json, NULL, NULL));
    iv_test_write_file (dir, "profile_export_aiperf.json", json);
  }
  g_assert_true (iv_gui_wait_for (run_finished, doc, 10));
  iv_gui_settle (window);
  g_assert_false (gtk_widget_get_visible (badge));
  g_assert_null (strstr (iv_document_get_subtitle (doc), "so far"));
}

/* A followed run that can no longer be read (its records became a FIFO) says so in a
 * toast naming the run and why, and its Live badge goes. */
static void
test_live_stopped (void)
{
  g_autofree char *src = iv_gui_sample ("aiperf/qwen_concurrency1/profile_export.jsonl");
  g_autofree char *text = NULL, *toast = NULL;
  g_autofree char *dir = g_build_filename (tmpdir, "live-stopped", NULL);
  g_autofree char *records = g_build_filename (dir, "profile_export.jsonl", NULL);
  g_auto (GStrv) lines = NULL;
  g_autoptr (IvDocument) doc = NULL;
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  GtkWidget *badge;

  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  append_lines (records, lines, 0, 3);
  doc = open_shown (dir);
  badge = iv_gui_find_by_id (GTK_WIDGET (iv_workspace_page_get_runs (page)), "live_badge");
  g_assert_true (gtk_widget_get_visible (badge));
  g_assert_cmpint (g_unlink (records), ==, 0);
  g_assert_cmpint (mkfifo (records, 0644), ==, 0);
  iv_document_follow_now (doc);
  iv_gui_settle (window);
  g_assert_true (run_finished (doc));
  g_assert_false (gtk_widget_get_visible (badge));
  g_assert_null (strstr (iv_document_get_subtitle (doc), "so far"));
  toast = iv_gui_last_toast_text (window);
  g_assert_nonnull (strstr (toast, "live-stopped: no longer followed since "));
  g_assert_nonnull (strstr (toast, "profile_export.jsonl: is a named pipe (FIFO)"));
}

/* The ISL × OSL sweep (36 runs) at 1024 × 700: the plot gets at least half of the height
 * under the table, and the divider between them is a GtkPaned the user drags; a resize
 * keeps where the user put it. */
static void
test_runs_split (void)
{
  g_autofree char *path = iv_gui_sample ("isl-osl-sweep");
  g_autofree char *png = g_build_filename (
      g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", "runs-split.png", NULL);
  GtkWidget *paned, *table, *plot;
  IvRunsView *view;
  int tall, table_h, plot_h, pos;

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  gtk_window_present (GTK_WINDOW (window));
  open_sweep (path);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  /* the window's size less its client-side frame */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >, 1000);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 700);
  view = runs_view ();
  paned = iv_gui_find_by_id (GTK_WIDGET (view), "paned");
  table = iv_gui_find_by_id (GTK_WIDGET (view), "table");
  plot = iv_gui_find_by_id (GTK_WIDGET (view), "plot_area");
  g_assert_true (GTK_IS_PANED (paned));
  g_assert_true (gtk_widget_is_ancestor (table, gtk_paned_get_start_child (GTK_PANED (paned)))
                 || table == gtk_paned_get_start_child (GTK_PANED (paned)));
  g_assert_true (plot == gtk_paned_get_end_child (GTK_PANED (paned)));
  iv_gui_snapshot (GTK_WINDOW (window), png);

  tall = gtk_widget_get_height (paned);
  table_h = gtk_widget_get_height (table);
  plot_h = gtk_widget_get_height (plot);
  g_test_message ("paned %d px: table %d px, plot %d px", tall, table_h, plot_h);
  g_assert_cmpint (plot_h, >=, table_h);
  g_assert_cmpint (plot_h * 2, >=, tall);
  g_assert_true (gtk_paned_get_wide_handle (GTK_PANED (paned)));
  /* the sweep's one note is one line tall, not three */
  {
    GtkWidget *notes = iv_gui_find_by_id (GTK_WIDGET (view), "notes");
    g_assert_true (gtk_widget_get_visible (notes));
    g_assert_null (strchr (iv_runs_notes_bar_get_text (IV_RUNS_NOTES_BAR (notes)), '\n'));
    g_test_message ("notes %d px", gtk_widget_get_height (notes));
    g_assert_cmpint (gtk_widget_get_height (notes), <=, 40);
  }
  /* set against a hardware, the bound's columns are on screen: the table needs no more
   * than its width */
  set_bound (view, "h100x8", 0);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  {
    int need = 0;
    gtk_widget_measure (GTK_WIDGET (table_of (view)), GTK_ORIENTATION_HORIZONTAL, -1, &need, NULL,
                        NULL, NULL);
    g_test_message ("table %d px, its columns need %d px", gtk_widget_get_width (table), need);
    g_assert_cmpint (need, <=, gtk_widget_get_width (table));
  }
  set_bound (view, NULL, 0);
  iv_gui_wait_for_paint (GTK_WINDOW (window));

  /* a taller window keeps the divider where it was: the plot takes the new height */
  pos = gtk_paned_get_position (GTK_PANED (paned));
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 900);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), >, 860);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==, pos);
  g_assert_cmpint (gtk_widget_get_height (table), ==, table_h);
  g_assert_cmpint (gtk_widget_get_height (plot), >, plot_h + 150);
  plot_h = gtk_widget_get_height (plot);

  /* dragging the divider down 60 px gives the table 60 px more and the plot 60 less */
  gtk_paned_set_position (GTK_PANED (paned), pos + 60);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_widget_get_height (table), ==, table_h + 60);
  g_assert_cmpint (gtk_widget_get_height (plot), ==, plot_h - 60);

  /* and a resize leaves it where the user put it */
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 960);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==, pos + 60);
}

/* The table gives way first (issue 31): the ISL × OSL sweep opened in a tall window has
 * its divider placed for that height; the window made 1024 × 700, the divider (not
 * dragged) moves up so the figure keeps half the page. Grown again, it stays. */
static void
test_runs_split_shrinks (void)
{
  g_autofree char *path = iv_gui_sample ("isl-osl-sweep");
  GtkWidget *paned, *table, *plot;
  IvRunsView *view;
  int tall_pos, pos, page;

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 960);
  gtk_window_present (GTK_WINDOW (window));
  open_sweep (path);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  view = runs_view ();
  paned = iv_gui_find_by_id (GTK_WIDGET (view), "paned");
  table = iv_gui_find_by_id (GTK_WIDGET (view), "table");
  plot = iv_gui_find_by_id (GTK_WIDGET (view), "plot_stack");
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), >, 900);
  tall_pos = gtk_paned_get_position (GTK_PANED (paned));
  g_test_message ("at 1024 × 960: divider at %d, table %d px, plot %d px of %d", tall_pos,
                  gtk_widget_get_height (table), gtk_widget_get_height (plot),
                  gtk_widget_get_height (GTK_WIDGET (view)));
  g_assert_cmpint (gtk_widget_get_height (plot) * 2, >=, gtk_widget_get_height (GTK_WIDGET (view)));

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 700);
  pos = gtk_paned_get_position (GTK_PANED (paned));
  page = gtk_widget_get_height (GTK_WIDGET (view));
  g_test_message ("at 1024 × 700: divider at %d, table %d px, plot %d px of %d", pos,
                  gtk_widget_get_height (table), gtk_widget_get_height (plot), page);
  g_assert_cmpint (pos, <, tall_pos);
  g_assert_cmpint (gtk_widget_get_height (plot) * 2, >=, page);

  /* taller again: the divider stays where the smaller window put it */
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 900);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==, pos);
}

static const IvGuiCase cases[] = {
  { "/gui/runs-view", test_runs_view },
  { "/gui/runs-aiperf-toggle", test_runs_aiperf_toggle },
  { "/gui/runs-plot-configs", test_runs_plot_configs },
  { "/gui/runs-bound-row", test_runs_bound_row },
  { "/gui/runs-memory", test_runs_memory },
  { "/gui/runs-serving-bound", test_runs_serving_bound },
  { "/gui/run-card", test_run_card },
  { "/gui/runs-table-view", test_runs_table_view },
  { "/gui/runs-builds-once", test_runs_builds_once },
  { "/gui/live-run", test_live_run },
  { "/gui/live-stopped", test_live_stopped },
  { "/gui/isl-osl", test_isl_osl },
  { "/gui/runs-split", test_runs_split },
  { "/gui/runs-split-shrinks", test_runs_split_shrinks },
};

int
main (int argc, char **argv)
{
  return iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
}
