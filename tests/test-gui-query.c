/* test-gui-query.c: the Query page of the Traces and Runs workspaces in the real window,
 * headless (xvfb-run + dbus-run-session): a query typed and run on its worker thread,
 * its rows against counts made here from the trace's columns and by hand from the sample
 * file, sorting by a header (numbers as numbers), an error naming its line and column
 * that keeps the last results, Cancel and the time limit on a query that never ends, a
 * row selecting its slice on the timeline, completion, the chart and Export, saved
 * queries in a private XDG_DATA_HOME, and the runs' request table. IV_QUERY_SCREENSHOTS=DIR
 * also saves the page at 1280×720 and 1024×700. Skips (77) without a display. */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "iv-gui-test-util.h"
#include "iv-query-page.h"
#include "iv-timeline-view.h"
#include "iv-window-private.h"
#include "iv-window.h"
#include "iv-workspace-page.h"

#define window (iv_gui_window ())

static char *data_home; /* the XDG_DATA_HOME of this program: saved queries go there */

static IvDocument *
open_path (IvWindow *win, const char *path)
{
  IvDocument *found = NULL;

  iv_gui_open_paths (win, path, NULL);
  iv_gui_settle (win);
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (win)); i++)
    {
      g_autoptr (IvDocument) doc = iv_gui_doc_at (win, i);
      g_autofree char *p = g_file_get_path (iv_document_get_file (doc));
      if (g_str_equal (p, path))
        found = doc, iv_window_select (win, doc);
    }
  g_assert_nonnull (found);
  iv_gui_settle (win);
  return found;
}

/* The kineto sample open, its Query page shown; the trace through @trace. */
static IvQueryPage *
trace_query_page (IvWindow *win, const IvTrace **trace)
{
  g_autofree char *path = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  IvDocument *doc = open_path (win, path);
  IvWorkspacePage *page = _iv_window_get_page (win, IV_GROUP_TRACES);
  IvQueryPage *q = iv_workspace_page_get_query (page);

  g_assert_nonnull (q);
  if (trace)
    *trace = iv_document_get_trace (doc);
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (q))), GTK_WIDGET (q));
  iv_gui_wait_for_paint (GTK_WINDOW (win));
  return q;
}

static gboolean
query_done (gpointer q)
{
  return !iv_query_page_is_running (q);
}

/* Runs @sql and waits for it: TRUE when it returned rows, FALSE on its error. */
static gboolean
run_sql (IvQueryPage *q, const char *sql)
{
  iv_query_page_set_text (q, sql);
  g_assert_true (iv_query_page_run (q));
  g_assert_true (iv_query_page_is_running (q));
  g_assert_true (iv_gui_wait_for (query_done, q, 60));
  return iv_query_page_get_error (q) == NULL;
}

static gint64
cell_int (IvQueryPage *q, guint row, guint column)
{
  g_autofree char *text = iv_query_page_get_cell (q, row, column);
  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* Slices named @name in the trace's own columns (not through SQL). */
static guint
count_named (const IvTrace *t, const char *name, gint64 *max_dur)
{
  guint n = 0;
  *max_dur = -1;
  for (gsize i = 0; i < t->n_slices; i++)
    if (g_strcmp0 (iv_trace_string (t, t->name[i]), name) == 0)
      {
        n++;
        *max_dur = MAX (*max_dur, t->dur_ns[i]);
      }
  return n;
}

/* A count by name against the trace's columns and against the file read by hand
 * (79 "X" events named cudaLaunchKernel in the sample); then the rows of every launch,
 * sorted by a header: durations in numeric order, the longest the longest in the trace. */
static void
test_query_results (void)
{
  const IvTrace *trace = NULL;
  IvQueryPage *q = trace_query_page (window, &trace);
  gint64 max_dur;
  guint launches = count_named (trace, "cudaLaunchKernel", &max_dur);
  GtkColumnView *cv = iv_query_page_get_column_view (q);
  g_autoptr (GtkColumnViewColumn) dur_col = NULL;
  g_autofree char *csv = NULL;
  guint n;

  g_assert_cmpuint (launches, ==, 79);
  g_assert_true (run_sql (q, "SELECT name, count(*) AS n FROM slice\n"
                             "WHERE name = 'cudaLaunchKernel' GROUP BY name"));
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 1);
  g_assert_cmpint (cell_int (q, 0, 1), ==, launches);

  g_assert_true (run_sql (q, "SELECT id, name, dur FROM slice WHERE name = 'cudaLaunchKernel' "
                             "ORDER BY ts"));
  n = iv_query_page_get_n_rows (q);
  g_assert_cmpuint (n, ==, launches);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (cv)), ==, 3);
  dur_col = g_list_model_get_item (gtk_column_view_get_columns (cv), 2);
  g_assert_cmpstr (gtk_column_view_column_get_title (dur_col), ==, "dur");
  gtk_column_view_sort_by_column (cv, dur_col, GTK_SORT_DESCENDING);
  iv_gui_settle (window);
  g_assert_cmpint (cell_int (q, 0, 2), ==, max_dur);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (cell_int (q, i - 1, 2), >=, cell_int (q, i, 2));
  gtk_column_view_sort_by_column (cv, dur_col, GTK_SORT_ASCENDING);
  iv_gui_settle (window);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (cell_int (q, i - 1, 2), <=, cell_int (q, i, 2));
  /* what Copy as CSV copies: the header and the rows in the order shown */
  csv = iv_query_page_to_csv (q);
  {
    g_auto (GStrv) lines = g_strsplit (csv, "\r\n", -1);
    g_autofree char *first
        = g_strdup_printf ("%" G_GINT64_FORMAT ",cudaLaunchKernel,%" G_GINT64_FORMAT,
                           cell_int (q, 0, 0), cell_int (q, 0, 2));
    g_assert_cmpstr (lines[0], ==, "id,name,dur");
    g_assert_cmpstr (lines[1], ==, first);
    g_assert_cmpuint (g_strv_length (lines), ==, n + 2); /* and the empty tail */
  }
}

/* Text sorts as text and numbers as numbers in the same table: 9 before 10. */
static void
test_query_numeric_sort (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  GtkColumnView *cv = iv_query_page_get_column_view (q);
  g_autoptr (GtkColumnViewColumn) v = NULL;
  g_autoptr (GtkColumnViewColumn) t = NULL;

  g_assert_true (run_sql (q, "SELECT 10 AS v, 'b' AS t UNION ALL SELECT 9, 'a' UNION ALL "
                             "SELECT 100.5, 'c'"));
  v = g_list_model_get_item (gtk_column_view_get_columns (cv), 0);
  t = g_list_model_get_item (gtk_column_view_get_columns (cv), 1);
  gtk_column_view_sort_by_column (cv, v, GTK_SORT_ASCENDING);
  iv_gui_settle (window);
  {
    g_autofree char *a = iv_query_page_get_cell (q, 0, 0);
    g_autofree char *b = iv_query_page_get_cell (q, 1, 0);
    g_autofree char *c = iv_query_page_get_cell (q, 2, 0);
    g_assert_cmpstr (a, ==, "9");
    g_assert_cmpstr (b, ==, "10");
    g_assert_cmpstr (c, ==, "100.5");
  }
  gtk_column_view_sort_by_column (cv, t, GTK_SORT_DESCENDING);
  iv_gui_settle (window);
  {
    g_autofree char *a = iv_query_page_get_cell (q, 0, 1);
    g_autofree char *c = iv_query_page_get_cell (q, 2, 1);
    g_assert_cmpstr (a, ==, "c");
    g_assert_cmpstr (c, ==, "a");
  }
  /* numbers as a reader reads them: sums of nanoseconds whole, no exponent */
  g_assert_true (run_sql (q, "SELECT 41602354000.0, 53425443.04, 0.5, 1e20, NULL"));
  {
    static const char *const want[] = { "41602354000", "53425443.04", "0.5", "1e+20", "NULL" };
    for (guint c = 0; c < G_N_ELEMENTS (want); c++)
      {
        g_autofree char *got = iv_query_page_get_cell (q, 0, c);
        g_assert_cmpstr (got, ==, want[c]);
      }
  }
}

/* A bad query: one line naming its line and column; the last results stay. */
static void
test_query_error (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  const IvQueryResult *before;
  const char *error;

  g_assert_true (run_sql (q, "SELECT count(*) AS n FROM slice"));
  before = iv_query_page_get_result (q);
  g_assert_false (run_sql (q, "SELECT name\nFROM slice\nWHERE nosuch = 1"));
  error = iv_query_page_get_error (q);
  g_assert_nonnull (error);
  g_assert_null (strchr (error, '\n'));
  g_assert_nonnull (strstr (error, "line 3, column 7"));
  g_assert_nonnull (strstr (error, "nosuch"));
  g_assert_true (iv_query_page_get_result (q) == before);
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 1);
  /* a good one clears it */
  g_assert_true (run_sql (q, "SELECT 1"));
  g_assert_null (iv_query_page_get_error (q));
  /* a write is refused, named */
  g_assert_false (run_sql (q, "ATTACH DATABASE '/tmp/x.db' AS x"));
  g_assert_nonnull (iv_query_page_get_error (q));
}

#define ENDLESS                                                                                    \
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

static gboolean
after_ms (gpointer data)
{
  return g_get_monotonic_time () >= *(gint64 *) data;
}

/* A query that never ends runs on its worker while the window keeps drawing; Cancel
 * stops it at once, and the time limit stops it by itself. */
static void
test_query_cancel (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  gint64 until, cancelled_at;

  iv_query_page_set_text (q, ENDLESS);
  g_assert_true (iv_query_page_run (q));
  /* the main loop turns (frames drawn) while it runs */
  until = g_get_monotonic_time () + 400 * 1000;
  iv_gui_wait_for (after_ms, &until, 5);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_true (iv_query_page_is_running (q));
  g_assert_false (iv_query_page_run (q)); /* one at a time */
  cancelled_at = g_get_monotonic_time ();
  {
    GtkButton *cancel = iv_gui_find_button_with_prefix (GTK_WIDGET (q), "_Cancel");
    g_assert_nonnull (cancel);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (cancel)));
    g_signal_emit_by_name (cancel, "clicked");
  }
  g_assert_true (iv_gui_wait_for (query_done, q, 10));
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 2 * G_USEC_PER_SEC);
  g_assert_nonnull (iv_query_page_get_error (q));
  g_assert_nonnull (strstr (iv_query_page_get_error (q), "ancel"));

  /* cancelled at once, before its worker has started (the same turn of the main loop):
   * the cancel is kept for it, the query stops at its first step instead of running to
   * the time limit */
  iv_query_page_set_time_limit (q, 60000);
  iv_query_page_set_text (q, ENDLESS);
  g_assert_true (iv_query_page_run (q));
  cancelled_at = g_get_monotonic_time ();
  iv_query_page_cancel (q);
  g_assert_true (iv_gui_wait_for (query_done, q, 10));
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 2 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (iv_query_page_get_error (q), "cancelled"));

  iv_query_page_set_time_limit (q, 300);
  g_assert_false (run_sql (q, ENDLESS));
  g_assert_nonnull (strstr (iv_query_page_get_error (q), "limit"));
}

/* What a GROUP BY name outside the native class kept (the slices in the names' order,
 * a column's copy) is let go once the page has been idle a while. */
static void
test_query_idle_drop (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  guint64 bytes = 0;
  gint64 until;

  g_object_set (q, "idle-drop-ms", 300u, NULL);
  g_assert_true (run_sql (q, "SELECT name, sum(dur + 0) FROM slice GROUP BY name"));
  g_object_get (q, "cache-bytes", &bytes, NULL);
  g_assert_cmpuint (bytes, >, 0);
  until = g_get_monotonic_time () + 800 * 1000;
  iv_gui_wait_for (after_ms, &until, 5);
  g_object_get (q, "cache-bytes", &bytes, NULL);
  g_assert_cmpuint (bytes, ==, 0);
  /* and made again by the next such query */
  g_assert_true (run_sql (q, "SELECT name, sum(dur + 0) FROM slice GROUP BY name"));
  g_object_get (q, "cache-bytes", &bytes, NULL);
  g_assert_cmpuint (bytes, >, 0);
  g_object_set (q, "idle-drop-ms", 60000u, NULL);
}

/* Closing the document while a query runs on it: the query stops and the page lets go
 * of it (the job holds the document until the worker returns, so nothing is freed under
 * it), and the page says there is nothing to query. */
static void
test_query_close_while_running (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  g_autoptr (IvDocument) doc = iv_gui_doc_at (window, 0);
  gint64 until;

  g_assert_true (run_sql (q, "SELECT id FROM slice LIMIT 3"));
  iv_query_page_set_text (q, ENDLESS);
  g_assert_true (iv_query_page_run (q));
  iv_window_close_document (window, doc);
  g_clear_object (&doc);
  iv_gui_settle (window);
  g_assert_false (iv_query_page_is_running (q));
  /* its rows named slices of the closed trace: gone with it */
  g_assert_null (iv_query_page_get_result (q));
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 0);
  /* the cancelled worker returns meanwhile; its result is dropped */
  until = g_get_monotonic_time () + 500 * 1000;
  iv_gui_wait_for (after_ms, &until, 5);
  g_assert_false (iv_query_page_run (q));
  g_assert_cmpstr (iv_query_page_get_error (q), ==, "Open a trace or runs to query them");
}

/* A click on a row with a slice id selects that slice on the timeline; activating it
 * shows the timeline. */
static void
test_query_row_selects_slice (void)
{
  const IvTrace *trace = NULL;
  IvQueryPage *q = trace_query_page (window, &trace);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  IvTimelineView *tl = iv_workspace_page_get_timeline (page);
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (q)));
  gint64 id;

  g_assert_true (run_sql (q, "SELECT id, name, dur FROM slice WHERE name = 'cudaMalloc' "
                             "ORDER BY ts LIMIT 5"));
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 5);
  g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, G_MAXSIZE);
  iv_query_page_select_row (q, 3);
  iv_gui_settle (window);
  id = cell_int (q, 3, 0);
  g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, (gsize) id);
  g_assert_cmpstr (iv_trace_string (trace, trace->name[id]), ==, "cudaMalloc");
  g_assert_cmpint (trace->dur_ns[id], ==, cell_int (q, 3, 2));
  /* still on the Query page: the results stay in view */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "query");
  g_signal_emit_by_name (iv_query_page_get_column_view (q), "activate", 1u);
  iv_gui_settle (window);
  g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, (gsize) cell_int (q, 1, 0));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "timeline");
  /* back on the page, the results are still there */
  gtk_stack_set_visible_child_name (stack, "query");
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 5);
}

/* @text in the editor, the cursor at its end. */
static void
place_text (IvQueryPage *q, const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (
      GTK_TEXT_VIEW (iv_gui_find_child (GTK_WIDGET (q), GTK_TYPE_TEXT_VIEW)));
  GtkTextIter end;
  iv_query_page_set_text (q, text);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
}

static void
assert_completions (IvQueryPage *q, const char *text, const char *expected)
{
  g_auto (GStrv) got = NULL;
  g_autofree char *joined = NULL;

  place_text (q, text);
  got = iv_query_page_get_completions (q);
  joined = g_strjoinv (",", got);
  g_assert_cmpstr (joined, ==, expected);
}

/* The editor's own keys (Tab, Ctrl+Space, Ctrl+Enter, Escape): its capture-phase
 * controller, before the text view's. */
static GtkEventController *
editor_keys (GtkWidget *editor)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (editor);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_KEY (c)
          && gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_CAPTURE)
        return c;
    }
  g_assert_not_reached ();
  return NULL;
}

/* Table names, the columns of a table named, of an alias before a dot. */
static void
test_query_completion (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  g_autofree char *text = NULL;

  assert_completions (q, "SELECT * FROM sl", "slice");
  assert_completions (q, "SELECT * FROM thr", "thread,thread_track");
  assert_completions (q, "SELECT s.du", "");
  assert_completions (q, "SELECT s.du FROM slice s WHERE s.du", "dur");
  assert_completions (q, "SELECT dep FROM slice WHERE dep", "depth");
  assert_completions (q, "SELECT * FROM slice AS k WHERE k.na", "name");
  /* one candidate: completed in place */
  place_text (q, "SELECT * FROM sli");
  iv_query_page_complete (q);
  text = iv_query_page_get_text (q);
  g_assert_cmpstr (text, ==, "SELECT * FROM slice");

  /* several: Tab offers them in a list; picking one puts it in place */
  {
    GtkWidget *editor = iv_gui_find_child (GTK_WIDGET (q), GTK_TYPE_TEXT_VIEW);
    GtkEventController *keys = editor_keys (editor);
    GtkWidget *popover = iv_gui_find_child (editor, GTK_TYPE_POPOVER);
    GtkListBox *list;
    gboolean handled = FALSE;
    g_autofree char *picked = NULL;

    place_text (q, "SELECT * FROM thr");
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Tab, 0, 0, &handled);
    g_assert_true (handled);
    iv_gui_settle (window);
    g_assert_nonnull (popover);
    g_assert_true (gtk_widget_get_visible (popover));
    list = GTK_LIST_BOX (iv_gui_find_child (popover, GTK_TYPE_LIST_BOX));
    g_assert_nonnull (gtk_list_box_get_row_at_index (list, 1));
    g_assert_null (gtk_list_box_get_row_at_index (list, 2));
    g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 1));
    iv_gui_settle (window);
    picked = iv_query_page_get_text (q);
    g_assert_cmpstr (picked, ==, "SELECT * FROM thread_track");
    g_assert_false (gtk_widget_get_visible (popover));
    /* Tab after a space indents; Ctrl+Enter runs */
    handled = FALSE;
    place_text (q, "SELECT 1 ");
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Tab, 0, 0, &handled);
    g_assert_false (handled);
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Return, 0, GDK_CONTROL_MASK, &handled);
    g_assert_true (handled);
    g_assert_true (iv_gui_wait_for (query_done, q, 30));
    g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 1);
  }
}

/* Points of two numeric columns, bars of a text column; Export takes the chart while the
 * Query page shows. */
static void
test_query_chart_export (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  const IvFigure *fig;
  IvChart *chart;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr (GError) error = NULL;

  g_assert_true (run_sql (q, "SELECT name, count(*) AS n, sum(dur) AS total FROM slice "
                             "WHERE category = 'cuda_runtime' GROUP BY name ORDER BY total DESC"));
  fig = iv_workspace_page_get_figure (page);
  g_assert_nonnull (fig);
  g_assert_cmpstr (fig->name, ==, "query");
  chart = iv_chart_view_get_chart (iv_query_page_get_chart_view (q));
  g_assert_cmpstr (iv_chart_get_title (chart), ==, "n by name");
  g_assert_cmpuint (iv_series_get_kind (iv_chart_get_series (chart, 0)), ==, IV_SERIES_BARS);
  g_assert_cmpuint (iv_series_get_length (iv_chart_get_series (chart, 0)), ==,
                    iv_query_page_get_n_rows (q));
  iv_query_page_set_chart_columns (q, 1, 2);
  chart = iv_chart_view_get_chart (iv_query_page_get_chart_view (q));
  g_assert_cmpstr (iv_chart_get_title (chart), ==, "total by n");
  g_assert_cmpuint (iv_series_get_kind (iv_chart_get_series (chart, 0)), ==, IV_SERIES_SCATTER);
  fig = iv_workspace_page_get_figure (page);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400);
  cr = cairo_create (surface);
  g_assert_true (
      fig->render (cr, fig->data, &(IvRenderOptions){ IV_THEME_LIGHT, 1.0 }, 640, 400, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  /* a text column for y is refused with its reason; Export then has nothing to take */
  iv_query_page_set_chart_columns (q, 1, 0);
  g_assert_null (iv_workspace_page_get_figure (page));
  /* the timeline's figure again once it shows */
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (q))), "timeline");
  fig = iv_workspace_page_get_figure (page);
  g_assert_nonnull (fig);
  g_assert_cmpstr (fig->name, ==, "timeline");
}

/* Every example the page offers (@expected among them) opened and run without error,
 * and (@with_rows) returning rows. */
static void
run_examples (IvQueryPage *q, const char *const *expected, gboolean with_rows)
{
  g_auto (GStrv) examples = iv_query_page_list_examples (q);

  for (guint i = 0; expected[i]; i++)
    g_assert_true (g_strv_contains ((const char *const *) examples, expected[i]));
  for (guint i = 0; examples[i]; i++)
    {
      g_autofree char *ex = NULL;
      g_assert_true (iv_query_page_open_example (q, examples[i]));
      ex = iv_query_page_get_text (q);
      if (!run_sql (q, ex))
        g_error ("example “%s”: %s", examples[i], iv_query_page_get_error (q));
      if (with_rows)
        g_assert_cmpuint (iv_query_page_get_n_rows (q), >, 0);
    }
}

/* Save, list, open and delete in the user's data folder (this program's own). */
static void
test_query_saved (void)
{
  IvQueryPage *q = trace_query_page (window, NULL);
  g_autofree char *dir = iv_query_saved_dir ();
  g_autofree char *file = g_build_filename (dir, "my launches.sql", NULL);
  g_autofree char *expected_dir = g_build_filename (data_home, "inferview", "queries", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  const char *sql = "SELECT count(*) FROM slice WHERE name = 'cudaLaunchKernel'";

  g_assert_cmpstr (dir, ==, expected_dir);
  iv_query_page_set_text (q, sql);
  g_assert_true (iv_query_page_save (q, "my launches", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, sql);
  {
    g_auto (GStrv) names = iv_query_saved_list ();
    g_assert_true (g_strv_contains ((const char *const *) names, "my launches"));
  }
  iv_query_page_set_text (q, "SELECT 1");
  g_assert_true (iv_query_page_open_saved (q, "my launches", &error));
  text = iv_query_page_get_text (q);
  g_assert_cmpstr (text, ==, sql);
  /* names are file names in that folder, nothing else */
  g_assert_false (iv_query_page_save (q, "../escape", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_clear_error (&error);
  g_assert_false (iv_query_page_save (q, ".hidden", &error));
  g_clear_error (&error);
  g_assert_true (iv_query_saved_delete ("my launches", &error));
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  {
    g_auto (GStrv) names = iv_query_saved_list ();
    g_assert_false (g_strv_contains ((const char *const *) names, "my launches"));
  }
  /* the built-in examples of docs/queries.md run on the sample */
  run_examples (q, (const char *const[]){ "Top kernels", "Gaps on a stream", NULL }, FALSE);
}

/* Runs: the request table over the three runs of the sample sweep, ten records each (the
 * lines of their profile_export.jsonl, counted here); the Query page beside the runs. */
static void
test_query_runs (void)
{
  g_autofree char *path = iv_gui_sample ("aiperf");
  IvDocument *doc = open_path (window, path);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_RUNS);
  IvQueryPage *q = iv_workspace_page_get_query (page);
  const IvSweep *sweep = iv_document_get_sweep (doc);
  GtkStack *stack;

  g_assert_nonnull (q);
  g_assert_nonnull (sweep);
  g_assert_cmpuint (sweep->runs->len, ==, 3);
  stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (q)));
  gtk_stack_set_visible_child_name (stack, "query");
  /* the editor starts on a query of runs, not of a trace */
  {
    g_autofree char *text = iv_query_page_get_text (q);
    g_assert_nonnull (strstr (text, "FROM request"));
  }
  g_assert_true (run_sql (q, "SELECT run_id, count(*) AS n FROM request GROUP BY run_id "
                             "ORDER BY run_id"));
  g_assert_cmpuint (iv_query_page_get_n_rows (q), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const IvRun *run = sweep->runs->pdata[i];
      g_autofree char *jsonl = g_build_filename (run->path, "profile_export.jsonl", NULL);
      g_autofree char *contents = NULL;
      guint lines = 0;
      g_assert_true (g_file_get_contents (jsonl, &contents, NULL, NULL));
      for (const char *p = contents; *p; p++)
        lines += *p == '\n';
      g_assert_cmpuint (lines, ==, 10);
      g_assert_cmpint (cell_int (q, i, 0), ==, i);
      g_assert_cmpint (cell_int (q, i, 1), ==, lines);
    }
  /* Export takes the chart while the page shows, the runs' plot otherwise */
  g_assert_nonnull (iv_workspace_page_get_figure (page));
  g_assert_cmpstr (iv_workspace_page_get_figure (page)->name, ==, "query");
  /* completion knows the runs' tables */
  assert_completions (q, "SELECT * FROM req", "request");
  /* the runs' examples run, each with rows */
  run_examples (q, (const char *const[]){ "TTFT by ISL bucket", NULL }, TRUE);
  gtk_stack_set_visible_child_name (stack, "runs");
  g_assert_true (iv_workspace_page_get_figure (page) != NULL
                 && g_strcmp0 (iv_workspace_page_get_figure (page)->name, "query") != 0);
}

/* The page at the sizes people use, with results and a chart: saved where asked
 * (IV_QUERY_SCREENSHOTS), and the window keeps its size. */
static void
test_query_screenshots (void)
{
  static const int sizes[][2] = { { 1280, 720 }, { 1024, 700 } };
  const char *out = g_getenv ("IV_QUERY_SCREENSHOTS");

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      IvWindow *win = iv_gui_new_window (iv_gui_app (), sizes[s][0], sizes[s][1], TRUE);
      IvQueryPage *q = trace_query_page (win, NULL);
      g_autofree char *png = NULL;

      iv_query_page_open_example (q, "Time by name");
      {
        g_autofree char *sql = iv_query_page_get_text (q);
        g_assert_true (run_sql (q, sql));
      }
      iv_query_page_set_chart_columns (q, 0, 2);
      iv_gui_settle (win);
      iv_gui_wait_for_paint (GTK_WINDOW (win));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (win)), <=, sizes[s][0]);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (win)), <=, sizes[s][1]);
      if (out)
        png = g_strdup_printf ("%s/query-%dx%d.png", out, sizes[s][0], sizes[s][1]);
      g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (win), png), >, 8);
      /* and the Runs workspace's page over the sample sweep */
      {
        g_autofree char *runs = iv_gui_sample ("aiperf");
        g_autofree char *runs_png = NULL;
        IvQueryPage *rq;
        open_path (win, runs);
        rq = iv_workspace_page_get_query (_iv_window_get_page (win, IV_GROUP_RUNS));
        gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (rq))),
                                     GTK_WIDGET (rq));
        g_assert_true (run_sql (rq, "SELECT run_id, request_latency FROM request"));
        iv_gui_settle (win);
        iv_gui_wait_for_paint (GTK_WINDOW (win));
        g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (win)), <=, sizes[s][0]);
        g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (win)), <=, sizes[s][1]);
        if (out)
          runs_png = g_strdup_printf ("%s/query-runs-%dx%d.png", out, sizes[s][0], sizes[s][1]);
        g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (win), runs_png), >, 8);
      }
      gtk_window_destroy (GTK_WINDOW (win));
    }
}

static const IvGuiCase cases[] = {
  { "/gui/query/results", test_query_results, FALSE },
  { "/gui/query/numeric-sort", test_query_numeric_sort, FALSE },
  { "/gui/query/error", test_query_error, FALSE },
  { "/gui/query/cancel", test_query_cancel, FALSE },
  { "/gui/query/idle-drop", test_query_idle_drop, FALSE },
  { "/gui/query/close-while-running", test_query_close_while_running, FALSE },
  { "/gui/query/row-selects-slice", test_query_row_selects_slice, FALSE },
  { "/gui/query/completion", test_query_completion, FALSE },
  { "/gui/query/chart-export", test_query_chart_export, FALSE },
  { "/gui/query/saved", test_query_saved, FALSE },
  { "/gui/query/runs", test_query_runs, FALSE },
  { "/gui/query/screenshots", test_query_screenshots, FALSE },
};

int
main (int argc, char **argv)
{
  int status;

  /* saved queries go to a folder of this run's own, set before GLib reads it once */
  data_home = g_dir_make_tmp ("iv-query-data-XXXXXX", NULL);
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  status = iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
  {
    g_autofree char *qdir = g_build_filename (data_home, "inferview", "queries", NULL);
    g_autofree char *idir = g_build_filename (data_home, "inferview", NULL);
    g_rmdir (qdir);
    g_rmdir (idir);
    g_rmdir (data_home);
  }
  g_free (data_home);
  return status;
}
