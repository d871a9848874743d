/* test-gui.c: the real window, headless (xvfb-run + dbus-run-session): it opens, loads
 * folders and files into the sidebar, survives bad input, every shortcut's action exists,
 * the export dialog writes files, and a screenshot is not blank. Skips (77) without a
 * display. Each case starts from a new window with nothing open, default settings and an
 * empty folder of its own (see case_setup), so any case passes alone or in any order. */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "iv-application.h"
#include "iv-chart-view.h"
#include "iv-chart-private.h"
#include "iv-export-dialog.h"
#include "iv-units.h"
#include "iv-render-model.h"
#include "iv-model-stages.h"
#include "iv-saved.h"
#include "iv-sidebar.h"
#include "iv-slice-details.h"
#include "iv-window.h"
#include "iv-window-private.h"
#include "iv-run-series.h"
#include "iv-test-util.h"
#include "iv-gui-test-util.h"
#include "iv-tooltip.h"
#include "iv-trace-launch.h"
#include "iv-trace-query.h"
#include "iv-preset.h"
#include "iv-settings.h"
#include "iv-model-view.h"
#include "iv-workspace-page.h"

/* The running case's window, scratch folder and application (iv-gui-test-util.h). */
#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())
#define app (iv_gui_app ())

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* A result folder and two traces opened together and loaded: what the cases about the
 * sidebar's documents start from. Files first, folder last: the sidebar still lists Runs
 * before Traces. */
static void
open_samples (void)
{
  g_autofree char *runs = iv_gui_sample ("aiperf");
  g_autofree char *kineto = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  g_autofree char *flow = iv_gui_sample ("traces/catapult_flow_simple.json");

  iv_gui_open_paths (window, kineto, flow, runs, NULL);
  iv_gui_settle (window);
}

static void
test_window_opens (void)
{
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iv_gui_wait_for (iv_gui_is_mapped, window, 10));
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 0);
}

static void
test_open_folder_and_files (void)
{
  g_autofree char *runs = iv_gui_sample ("aiperf");

  open_samples ();
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 3);
  {
    g_autoptr (IvDocument) a = iv_gui_doc_at (window, 0);
    g_autoptr (IvDocument) b = iv_gui_doc_at (window, 1);
    g_autoptr (IvDocument) c = iv_gui_doc_at (window, 2);

    g_assert_cmpint (iv_document_get_group (a), ==, IV_GROUP_RUNS);
    g_assert_cmpstr (iv_document_get_title (a), ==, "aiperf");
    g_assert_cmpstr (iv_document_get_subtitle (a), ==, "3 runs · 30 requests");
    g_assert_cmpint (iv_document_get_group (b), ==, IV_GROUP_TRACES);
    /* The trace itself is loaded: 838 slices on 5 tracks over 41.6 s (counts checked in
     * test-trace). */
    g_assert_cmpstr (iv_document_get_subtitle (b), ==, "Trace · 838 slices · 5 tracks · 41.6 s");
    g_assert_nonnull (iv_document_get_trace (b));
    g_assert_cmpint (iv_document_get_group (c), ==, IV_GROUP_TRACES);
    g_assert_cmpstr (iv_document_get_title (c), ==, "catapult_flow_simple.json");
    /* The first path opened stays selected once it has loaded. */
    g_assert_true (iv_window_get_selected (window) == b);
  }
  /* Each loaded path is offered again in the Open menu's recent items. */
  {
    g_autoptr (GFile) file = g_file_new_for_path (runs);
    g_autofree char *uri = g_file_get_uri (file);
    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }
}

static gboolean
count_is (gpointer data)
{
  return g_list_model_get_n_items (iv_window_get_documents (window)) == GPOINTER_TO_UINT (data);
}

static void
test_cancel_long_load (void)
{
  g_autofree char *big = g_build_filename (tmpdir, "big-trace.json", NULL);
  GString *text = g_string_new ("{\"traceEvents\": [\n");
  guint before = g_list_model_get_n_items (iv_window_get_documents (window));
  g_autoptr (IvDocument) loading = NULL;

  /* About 60 MB: long enough that the load is still running when it is stopped. */
  for (guint i = 0; i < 700000; i++)
    g_string_append_printf (text,
                            "{\"ph\": \"X\", \"name\": \"kernel_%u\", \"ts\": %u.5, "
                            "\"dur\": 3, \"pid\": 1, \"tid\": 7},\n",
                            i % 101, i * 4);
  g_string_append (text, "{}]}");
  g_assert_true (g_file_set_contents (big, text->str, (gssize) text->len, NULL));
  g_string_free (text, TRUE);

  iv_gui_open_paths (window, big, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, before + 1);
  loading = g_object_ref (iv_window_get_selected (window));
  g_assert_cmpint (iv_document_get_state (loading), ==, IV_DOCUMENT_LOADING);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-item", NULL));
  g_assert_true (iv_gui_wait_for (count_is, GUINT_TO_POINTER (before), 20));
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, before);
  /* It was stopped, not loaded to the end and then closed. */
  g_assert_cmpint (iv_document_get_state (loading), ==, IV_DOCUMENT_FAILED);
  g_assert_cmpstr (iv_document_get_subtitle (loading), ==, "Failed to load");
}

static void
test_bad_file_keeps_what_was_open (void)
{
  g_autofree char *bad = g_build_filename (tmpdir, "broken.json", NULL);
  g_autoptr (IvDocument) before = NULL;

  open_samples ();
  g_assert_true (g_file_set_contents (bad, "{\"hello\": [1, 2,, 3]}", -1, NULL));
  before = iv_gui_doc_at (window, 0);
  iv_gui_open_paths (window, bad, "/nonexistent/run-folder", NULL);
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 3);
  {
    g_autoptr (IvDocument) after = iv_gui_doc_at (window, 0);
    g_assert_true (after == before);
    g_assert_nonnull (iv_window_get_selected (window));
  }
}

/* A refused file's toast names it as written — "R&D" left the toast empty and "<b>" was
 * drawn bold — with the place and the problem; the refused file is not listed, what was
 * open stays, and a good file opened with it opens. A file name that is not UTF-8 is
 * shown with its bad bytes replaced. */
static void
test_refusal_toast_plain_text (void)
{
  /* "R&D <b>x</b> trace.json" is a path: a folder "R&D <b>x<" holds "b> trace.json" */
  g_autofree char *folder = g_build_filename (tmpdir, "R&D <b>x<", NULL);
  g_autofree char *trace = g_build_filename (tmpdir, "R&D <b>x</b> trace.json", NULL);
  g_autofree char *config = g_build_filename (tmpdir, "R&D <b>x</b> config.json", NULL);
  g_autofree char *flow = iv_gui_sample ("traces/catapult_flow_simple.json");
  g_autofree char *flow_text = NULL;
  g_autofree char *odd = g_build_filename (tmpdir, "flow-\xff-<i>.json", NULL);
  g_autoptr (IvDocument) first = NULL;
  guint before;
  gsize len;

  open_samples ();
  first = iv_gui_doc_at (window, 0);
  before = g_list_model_get_n_items (iv_window_get_documents (window));
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (trace, "{\"traceEvents\": [,]}", -1, NULL));
  g_assert_true (g_file_get_contents (flow, &flow_text, &len, NULL));
  g_assert_true (g_file_set_contents (odd, flow_text, (gssize) len, NULL));
  iv_gui_open_paths (window, trace, odd, NULL);
  iv_gui_settle (window);
  {
    g_autofree char *text = iv_gui_last_toast_text (window);
    g_assert_nonnull (strstr (text, "R&D <b>x</b> trace.json"));
    g_assert_nonnull (strstr (text, "line 1, column 18"));
  }
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, before + 1);
  {
    g_autoptr (IvDocument) still = iv_gui_doc_at (window, 0);
    g_assert_true (still == first);
  }
  {
    /* the good file opened beside the refused one, its title valid UTF-8 for Pango */
    IvDocument *opened = NULL;
    for (guint i = 0; i < before + 1 && !opened; i++)
      {
        g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
        if (g_str_has_prefix (iv_document_get_title (doc), "flow-"))
          opened = doc;
      }
    g_assert_nonnull (opened);
    g_assert_cmpint (iv_document_get_state (opened), ==, IV_DOCUMENT_READY);
    g_assert_cmpstr (iv_document_get_title (opened), ==, "flow-\xef\xbf\xbd-<i>.json");
    iv_window_close_document (window, opened);
    iv_gui_settle (window);
  }

  /* a model configuration the Model workspace refuses is refused when it is opened, by
   * a toast naming the file and the key, not listed as opened (nor lost to stderr) */
  g_assert_true (g_file_set_contents (
      config,
      "{\"model_type\": \"qwen3\", \"hidden_size\": -5, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936}",
      -1, NULL));
  iv_gui_open_paths (window, config, NULL);
  iv_gui_settle (window);
  {
    g_autofree char *text = iv_gui_last_toast_text (window);
    g_assert_nonnull (strstr (text, "R&D <b>x</b> config.json"));
    g_assert_nonnull (strstr (text, "hidden_size"));
  }
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, before);
  g_assert_nonnull (iv_window_get_selected (window));
  g_unlink (trace);
  g_unlink (config);
  g_unlink (odd);
  g_rmdir (folder);
}

static void
test_reopen_replaces (void)
{
  g_autofree char *flow = iv_gui_sample ("traces/catapult_flow_simple.json");

  open_samples ();
  iv_gui_open_paths (window, flow, NULL);
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 3);
}

static void
test_close_item (void)
{
  g_autoptr (IvDocument) trace = NULL;

  open_samples ();
  trace = iv_gui_doc_at (window, 1);
  iv_window_select (window, trace);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-item", NULL));
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 2);
  g_assert_false (g_list_store_find (G_LIST_STORE (iv_window_get_documents (window)), trace, NULL));
  /* The Traces workspace shows the remaining trace. */
  g_assert_nonnull (iv_window_get_selected (window));
  g_assert_cmpint (iv_document_get_group (iv_window_get_selected (window)), ==, IV_GROUP_TRACES);
}

static gboolean
window_has_action (const char *name)
{
  GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (window);
  GType owner;
  const char *action_name, *property;
  const GVariantType *param_type;

  for (guint i = 0;
       gtk_widget_class_query_action (klass, i, &owner, &action_name, &param_type, &property); i++)
    if (g_str_equal (action_name, name))
      return TRUE;
  /* GtkApplicationWindow's own actions (show-help-overlay) live in its action map. */
  return g_str_has_prefix (name, "win.")
         && g_action_map_lookup_action (G_ACTION_MAP (window), name + 4) != NULL;
}

typedef struct
{
  gboolean in_action_name;
  GPtrArray *actions;
} OverlayScan;

static void
start_element (GMarkupParseContext *ctx, const char *name, const char **attr_names,
               const char **attr_values, gpointer data, GError **error)
{
  OverlayScan *scan = data;

  scan->in_action_name = FALSE;
  if (g_str_equal (name, "property"))
    for (guint i = 0; attr_names[i]; i++)
      if (g_str_equal (attr_names[i], "name") && g_str_equal (attr_values[i], "action-name"))
        scan->in_action_name = TRUE;
}

static void
collect_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **error)
{
  OverlayScan *scan = data;

  if (scan->in_action_name)
    g_ptr_array_add (scan->actions, g_strstrip (g_strndup (text, len)));
  scan->in_action_name = FALSE;
}

static void
test_shortcuts_actions_exist (void)
{
  g_autoptr (GBytes) ui
      = g_resources_lookup_data ("/io/github/inferview/Inferview/gtk/help-overlay.ui", 0, NULL);
  GMarkupParser parser = { start_element, NULL, collect_text };
  g_autoptr (GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  OverlayScan scan = { FALSE, actions };
  GMarkupParseContext *ctx;

  g_assert_nonnull (ui);
  ctx = g_markup_parse_context_new (&parser, 0, &scan, NULL);
  g_assert_true (
      g_markup_parse_context_parse (ctx, g_bytes_get_data (ui, NULL), g_bytes_get_size (ui), NULL));
  g_markup_parse_context_free (ctx);
  g_assert_cmpuint (actions->len, >=, 10);

  for (guint i = 0; i < actions->len; i++)
    {
      const char *detailed = actions->pdata[i];
      g_autofree char *name = NULL;
      g_autoptr (GVariant) target = NULL;
      g_auto (GStrv) accels = NULL;

      g_assert_true (g_action_parse_detailed_name (detailed, &name, &target, NULL));
      if (g_str_has_prefix (name, "app."))
        g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (app), name + 4));
      else
        {
          if (!window_has_action (name))
            g_error ("help-overlay.ui lists %s, which the window does not have", name);
        }
      accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), detailed);
      if (!accels || !accels[0])
        g_error ("help-overlay.ui lists %s, which has no shortcut", detailed);
    }
  /* The required shortcuts are among them. */
  {
    const char *required[][2]
        = { { "win.open", "<Control>o" },       { "win.export", "<Control>e" },
            { "win.close-item", "<Control>w" }, { "app.quit", "<Control>q" },
            { "win.toggle-sidebar", "F9" },     { "win.show-help-overlay", "<Control>question" } };
    for (guint i = 0; i < G_N_ELEMENTS (required); i++)
      {
        g_auto (GStrv) accels
            = gtk_application_get_accels_for_action (GTK_APPLICATION (app), required[i][0]);
        g_assert_true (g_strv_contains ((const char *const *) accels, required[i][1]));
      }
  }
}

static void
test_toggle_sidebar (void)
{
  gboolean visible;

  g_object_get (window, "sidebar-visible", &visible, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  g_object_get (window, "sidebar-visible", &visible, NULL);
  g_assert_false (visible);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  g_object_get (window, "sidebar-visible", &visible, NULL);
  g_assert_true (visible);
}

static gboolean
render_test_figure (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double w,
                    double h, GError **error)
{
  cairo_set_source_rgb (cr, options->theme == IV_THEME_DARK ? 0.1 : 1, 0.5, 0.2);
  cairo_paint (cr);
  return TRUE;
}

static void
test_export_dialog (void)
{
  IvFigure figure = { render_test_figure, NULL, "test-figure", NULL };
  IvExportDialog *dialog = iv_export_dialog_new (GTK_WINDOW (window), &figure);
  g_autofree char *pdf = g_build_filename (tmpdir, "dialog.pdf", NULL);
  g_autofree char *png = g_build_filename (tmpdir, "dialog.png", NULL);
  g_autoptr (GError) error = NULL;
  IvExportOptions options;
  cairo_surface_t *back;

  gtk_window_present (GTK_WINDOW (dialog));
  iv_export_dialog_set_preset (dialog, "single-column");
  iv_export_dialog_set_path (dialog, pdf);
  iv_export_dialog_get_options (dialog, &options);
  g_assert_cmpint (options.format, ==, IV_EXPORT_PDF);
  g_assert_cmpfloat (options.width, ==, 336);
  g_assert_cmpfloat (options.dpi, ==, 300);
  g_assert_cmpfloat (options.text_pt, ==, 8.5);
  /* the summary says what the file will be: a PDF has no pixels */
  g_assert_nonnull (strstr (iv_export_dialog_get_summary (dialog), "vector PDF"));
  g_assert_nonnull (strstr (iv_export_dialog_get_summary (dialog), "text 8.5 pt"));
  g_assert_true (iv_export_dialog_export (dialog, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));

  iv_export_dialog_set_path (dialog, png);
  iv_export_dialog_set_theme (dialog, IV_THEME_DARK);
  g_assert_true (iv_export_dialog_export (dialog, &error));
  back = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (back), ==, 1050);
  g_assert_cmpint (cairo_image_surface_get_height (back), ==, 788);
  cairo_surface_destroy (back);

  iv_export_dialog_set_path (dialog, "figure.jpeg");
  g_assert_false (iv_export_dialog_export (dialog, &error));
  g_assert_nonnull (strstr (error->message, ".png, .pdf or .svg"));
  g_clear_error (&error);
  g_assert_true (iv_export_dialog_copy (dialog, &error));
  g_assert_no_error (error);

  /* the slide: a 1920 × 1080 PNG with 18 pt text */
  iv_export_dialog_set_preset (dialog, "slide");
  iv_export_dialog_set_path (dialog, png);
  g_assert_nonnull (strstr (iv_export_dialog_get_summary (dialog), "1920 × 1080 px PNG"));
  g_assert_nonnull (strstr (iv_export_dialog_get_summary (dialog), "text 18 pt"));
  g_assert_true (iv_export_dialog_export (dialog, &error));
  back = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (back), ==, 1920);
  g_assert_cmpint (cairo_image_surface_get_height (back), ==, 1080);
  cairo_surface_destroy (back);
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* the next export starts where the last one went, with its size */
  dialog = iv_export_dialog_new (GTK_WINDOW (window), &figure);
  iv_export_dialog_get_options (dialog, &options);
  g_assert_cmpfloat (options.text_pt, ==, 18);
  {
    g_autofree char *dir = g_path_get_dirname (iv_export_dialog_get_path (dialog));
    g_assert_cmpstr (dir, ==, tmpdir);
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* What Enter does in a text field: GtkText's key binding emits its "activate". */
static void
press_enter (GtkWidget *editable)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (editable));

  g_assert_true (GTK_IS_TEXT (text));
  gtk_widget_grab_focus (GTK_WIDGET (text));
  g_signal_emit_by_name (text, "activate");
}

static gboolean
is_regular_file (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* Enter exports from the file name and from a number typed in; the format chosen comes
 * back on the next export (it used to reset to PNG); at 1024 × 700 no text of the dialog
 * is cut short, and sizes are in inches and millimetres, never "points of 1/96 in". */
static void
test_export_dialog_enter_and_format (void)
{
  IvFigure figure = { render_test_figure, NULL, "test-figure", NULL };
  IvExportDialog *dialog = iv_export_dialog_new (GTK_WINDOW (window), &figure);
  g_autofree char *svg = g_build_filename (tmpdir, "enter.svg", NULL);
  g_autofree char *pdf = g_build_filename (tmpdir, "enter-spin.pdf", NULL);
  g_autofree char *shot
      = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : tmpdir,
                          "screenshot-export-dialog.png", NULL);
  GtkWidget *path_row, *width_spin, *width_row;
  GtkLabel *cut;
  IvExportOptions options;

  gtk_window_set_default_size (GTK_WINDOW (dialog), 1024, 700);
  gtk_window_present (GTK_WINDOW (dialog));
  iv_gui_wait_for_paint (GTK_WINDOW (dialog));
  iv_export_dialog_set_preset (dialog, "double-column");
  iv_gui_wait_for_paint (GTK_WINDOW (dialog));
  g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (dialog), shot), >, 5);
  cut = iv_gui_find_ellipsized_label (GTK_WIDGET (dialog));
  if (cut)
    g_error ("the export dialog cuts “%s” short at 1024 × 700", gtk_label_get_text (cut));
  width_row = iv_gui_find_by_id (GTK_WIDGET (dialog), "width_row");
  g_assert_nonnull (width_row);
  /* 7 in = 177.8 mm; at 300 dpi 2100 px */
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (width_row)), ==,
                   "177.8 mm · 2100 px at 300 dpi");

  /* Enter in the file name exports: the file is there, the dialog gone */
  path_row = iv_gui_find_by_id (GTK_WIDGET (dialog), "path_row");
  g_assert_nonnull (path_row);
  iv_export_dialog_set_path (dialog, svg);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  press_enter (path_row);
  g_assert_true (iv_gui_wait_for (is_regular_file, svg, 10));
  g_assert_null (dialog);

  /* the next export offers SVG again, and Enter in a number exports too */
  dialog = iv_export_dialog_new (GTK_WINDOW (window), &figure);
  g_assert_true (g_str_has_suffix (iv_export_dialog_get_path (dialog), "/test-figure.svg"));
  iv_export_dialog_get_options (dialog, &options);
  g_assert_cmpint (options.format, ==, IV_EXPORT_SVG);
  gtk_window_present (GTK_WINDOW (dialog));
  iv_export_dialog_set_path (dialog, pdf);
  width_spin = iv_gui_find_by_id (GTK_WIDGET (dialog), "width_spin");
  g_assert_nonnull (width_spin);
  gtk_editable_set_text (GTK_EDITABLE (width_spin), "5");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  press_enter (width_spin);
  g_assert_true (iv_gui_wait_for (is_regular_file, pdf, 10));
  g_assert_null (dialog);

  /* the typed 5 in was taken before the export: 480 units remembered */
  dialog = iv_export_dialog_new (GTK_WINDOW (window), &figure);
  iv_export_dialog_get_options (dialog, &options);
  g_assert_cmpfloat_with_epsilon (options.width, 480, 1e-6);
  g_assert_cmpint (options.format, ==, IV_EXPORT_PDF);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static IvChart *
demo_chart (void)
{
  IvChart *c = iv_chart_new ();
  double x[200], y[200], px[3] = { 20e9, 50e9, 80e9 }, py[3] = { 30, 60, 45 };
  IvSeries *s;

  for (int i = 0; i < 200; i++)
    {
      x[i] = i * 0.5e9;
      y[i] = 40 + 15 * sin (i / 15.0);
    }
  iv_chart_set_title (c, "Time to first token", "demo data");
  iv_chart_axis_set_time (c, IV_AXIS_X, 0, FALSE);
  iv_chart_axis_set_title (c, IV_AXIS_X, "Time since start");
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_SECONDS, 1e-3, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "TTFT");
  iv_chart_add_line (c, "rolling p50", x, y, 200);
  s = iv_chart_add_scatter (c, "requests", px, py, 3);
  iv_series_set_marker (s, IV_MARKER_CIRCLE, 9);
  iv_chart_set_legend (c, IV_LEGEND_RIGHT);
  return c;
}

static void
wait_for_widget_paint (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong id;

  g_assert_true (iv_gui_wait_for (iv_gui_is_mapped, widget, 10));
  clock = gtk_widget_get_frame_clock (widget);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  g_assert_true (iv_gui_wait_for (flag_set, &painted, 10));
  g_signal_handler_disconnect (clock, id);
}

static void
save_widget_png (GtkWidget *widget, const char *path)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GtkWidget *parent = gtk_widget_get_parent (widget);
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  gtk_widget_snapshot_child (parent, widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, NULL);
  if (path)
    g_assert_true (gdk_texture_save_to_png (texture, path));
}

static void
test_chart_view (void)
{
  GtkWidget *win = gtk_window_new ();
  GtkWidget *view = iv_chart_view_new ();
  IvChartView *cv = IV_CHART_VIEW (view);
  IvChart *chart;
  const IvChartLayout *L;
  double lo, hi, cx, cy;
  g_autofree char *tip = NULL;
  const char *out = g_getenv ("IV_CHART_SCREENSHOT");

  gtk_window_set_default_size (GTK_WINDOW (win), 900, 520);
  gtk_window_set_child (GTK_WINDOW (win), view);
  iv_chart_view_set_chart (cv, demo_chart (), "ttft");
  gtk_window_present (GTK_WINDOW (win));
  wait_for_widget_paint (view);
  chart = iv_chart_view_get_chart (cv);
  L = iv_chart_get_layout (chart);
  g_assert_true (L->valid);
  g_assert_nonnull (iv_chart_view_get_figure (cv));

  /* Hovering a point describes it with its units. */
  tip = iv_chart_view_describe_at (cv, iv_chart_to_pixel (L, IV_AXIS_X, 50e9) + 2,
                                   iv_chart_to_pixel (L, IV_AXIS_Y, 60) - 1);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "requests"));
  g_assert_nonnull (strstr (tip, "TTFT: 60 ms"));
  g_assert_nonnull (strstr (tip, "Time since start: 50 s"));

  /* The hover card stays inside the chart (so inside the window) and beside its point:
   * at the last point, on the right edge, it flips to the point's left. */
  {
    GtkEventController *motion = iv_gui_find_controller (view, GTK_TYPE_EVENT_CONTROLLER_MOTION);
    const double at[][2] = { { 20e9, 30 }, { 99.5e9, 40 + 15 * sin (199 / 15.0) }, { 50e9, 60 } };
    int w = gtk_widget_get_width (view), h = gtk_widget_get_height (view);
    graphene_rect_t box;
    for (guint i = 0; i < G_N_ELEMENTS (at); i++)
      {
        double px = iv_chart_to_pixel (L, IV_AXIS_X, at[i][0]),
               py = iv_chart_to_pixel (L, IV_AXIS_Y, at[i][1]);
        g_signal_emit_by_name (motion, "motion", px, py);
        g_assert_true (iv_chart_view_get_card (cv, &box));
        g_assert_cmpfloat (box.origin.x, >=, 0);
        g_assert_cmpfloat (box.origin.y, >=, 0);
        g_assert_cmpfloat (box.origin.x + box.size.width, <=, w);
        g_assert_cmpfloat (box.origin.y + box.size.height, <=, h);
        g_assert_false (graphene_rect_contains_point (&box, &GRAPHENE_POINT_INIT (px, py)));
        if (i == 1)
          g_assert_cmpfloat (box.origin.x + box.size.width, <, px);
      }
    wait_for_widget_paint (view);
    g_signal_emit_by_name (motion, "leave");
    g_assert_false (iv_chart_view_get_card (cv, &box));
  }

  /* Wheel zoom at the centre halves both ranges around it. */
  lo = L->lo[IV_AXIS_X], hi = L->hi[IV_AXIS_X];
  cx = L->plot_x + L->plot_w / 2, cy = L->plot_y + L->plot_h / 2;
  iv_chart_view_zoom_at (cv, cx, cy, 0.5, IV_CHART_VIEW_AXIS_X);
  wait_for_widget_paint (view);
  g_assert_cmpfloat_with_epsilon (L->hi[IV_AXIS_X] - L->lo[IV_AXIS_X], (hi - lo) / 2,
                                  (hi - lo) * 1e-9);
  g_assert_cmpfloat_with_epsilon ((L->hi[IV_AXIS_X] + L->lo[IV_AXIS_X]) / 2, (hi + lo) / 2,
                                  (hi - lo) * 1e-9);

  /* Dragging right by a quarter of the plot shows earlier data. */
  lo = L->lo[IV_AXIS_X], hi = L->hi[IV_AXIS_X];
  iv_chart_view_pan_by (cv, L->plot_w / 4, 0, IV_CHART_VIEW_AXIS_X);
  wait_for_widget_paint (view);
  g_assert_cmpfloat_with_epsilon (L->lo[IV_AXIS_X], lo - (hi - lo) / 4, (hi - lo) * 1e-9);

  /* Reset returns to the data's own range. */
  iv_chart_view_reset (cv);
  wait_for_widget_paint (view);
  g_assert_cmpfloat (L->lo[IV_AXIS_X], <, 0);
  g_assert_cmpfloat (L->hi[IV_AXIS_X], >, 99.5e9);

  /* Log y, then back: by the property and by the menu's action, which toggles it. */
  iv_chart_view_set_log (cv, IV_AXIS_Y, TRUE);
  wait_for_widget_paint (view);
  g_assert_cmpint (L->kind[IV_AXIS_Y], ==, IV_SCALE_LOG10);
  {
    gboolean log_y = FALSE;
    g_object_get (cv, "log-y", &log_y, NULL);
    g_assert_true (log_y);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (cv), "chart.log-y", NULL));
  g_assert_false (iv_chart_view_get_log (cv, IV_AXIS_Y));
  wait_for_widget_paint (view);
  g_assert_cmpint (L->kind[IV_AXIS_Y], ==, IV_SCALE_LINEAR);

  /* Clicking the first legend entry hides that series, again shows it. */
  wait_for_widget_paint (view);
  g_assert_true (iv_chart_view_click (cv, L->legend_x + 12, L->legend_y + 5 + L->legend_row_h / 2));
  g_assert_false (iv_series_get_visible (iv_chart_get_series (chart, 0)));
  g_assert_true (iv_chart_view_click (cv, L->legend_x + 12, L->legend_y + 5 + L->legend_row_h / 2));
  g_assert_true (iv_series_get_visible (iv_chart_get_series (chart, 0)));
  g_assert_false (iv_chart_view_click (cv, 2, 2));

  wait_for_widget_paint (view);
  save_widget_png (view, out);
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_window_size_saved (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.inferview.Inferview");

  gtk_window_set_default_size (GTK_WINDOW (window), 1111, 666);
  g_object_ref (window);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1111);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 666);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_object_unref (window);
  iv_gui_forget_window ();
}

static void
test_preferences_and_about (void)
{
  guint before = g_list_length (gtk_window_list_toplevels ());
  GList *tops;

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  /* every word of the preferences shows whole: no "Follow …" */
  tops = gtk_window_list_toplevels ();
  for (GList *l = tops; l; l = l->next)
    if (ADW_IS_PREFERENCES_WINDOW (l->data))
      {
        g_autofree char *png
            = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                "preferences-window.png", NULL);
        GtkLabel *cut;
        g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (l->data), png), >, 5);
        if ((cut = iv_gui_find_ellipsized_label (l->data)))
          g_error ("the preferences cut “%s” short", gtk_label_get_text (cut));
      }
  g_list_free (tops);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  tops = gtk_window_list_toplevels ();
  g_assert_cmpuint (g_list_length (tops), ==, before + 2);
  for (GList *l = tops; l; l = l->next)
    if (ADW_IS_ABOUT_WINDOW (l->data))
      {
        /* its icon is found run from the build folder too, where no icon is installed:
         * the application's icon is in its resources, on the icon theme's path */
        g_autofree char *icon = NULL;
        g_object_get (l->data, "application-icon", &icon, NULL);
        g_assert_cmpstr (icon, ==, "io.github.inferview.Inferview");
        g_assert_true (gtk_icon_theme_has_icon (
            gtk_icon_theme_get_for_display (gtk_widget_get_display (l->data)), icon));
      }
  for (GList *l = tops; l; l = l->next)
    if (ADW_IS_ABOUT_WINDOW (l->data) || ADW_IS_PREFERENCES_WINDOW (l->data))
      gtk_window_destroy (l->data);
  g_list_free (tops);
}

static void
test_screenshot_not_blank (void)
{
  /* a window in use: a result folder and two traces open */
  open_samples ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >, 300);
  /* Text, icons and the sidebar give a real window hundreds of colours. */
  g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (window), g_getenv ("IV_SCREENSHOT")), >, 50);
}

static GtkSearchEntry *
find_search_entry (GtkWidget *root)
{
  return GTK_SEARCH_ENTRY (iv_gui_find_child (root, GTK_TYPE_SEARCH_ENTRY));
}

static gboolean
has_label (GtkWidget *root, const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
        || has_label (c, text))
      return TRUE;
  return FALSE;
}

static gboolean
has_label_containing (GtkWidget *root, const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && strstr (gtk_label_get_text (GTK_LABEL (c)), text))
        || has_label_containing (c, text))
      return TRUE;
  return FALSE;
}

/* Opens a trace and selects its document; returns the loaded trace. */
static const IvTrace *
open_trace (const char *path)
{
  const IvTrace *trace = NULL;

  iv_gui_open_paths (window, path, NULL);
  iv_gui_settle (window);
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
    {
      g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
      g_autofree char *p = g_file_get_path (iv_document_get_file (doc));
      if (g_str_equal (p, path) && iv_document_get_trace (doc))
        trace = iv_document_get_trace (doc), iv_window_select (window, doc);
    }
  g_assert_nonnull (trace);
  iv_gui_settle (window);
  return trace;
}

/* The Traces workspace opens a trace on its timeline: zoom halves the span about its
 * middle, pan moves it, keys reset and fit, a selection is kept and exportable. */
static void
test_timeline_view (void)
{
  g_autofree char *path = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  IvTimelineView *tl;
  const IvTrace *trace = NULL;
  gint64 t0, t1, span, a0, a1;
  guint n = g_list_model_get_n_items (iv_window_get_documents (window));

  trace = open_trace (path);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), >=, n);
  tl = iv_workspace_page_get_timeline (page);
  g_assert_nonnull (tl);
  /* it opens on the range of the work (iv_trace_activity_range) */
  iv_timeline_view_get_range (tl, &t0, &t1);
  iv_trace_activity_range (trace, &a0, &a1);
  g_assert_cmpint (t0, ==, a0);
  g_assert_cmpint (t1, ==, a1);
  span = t1 - t0;

  iv_timeline_view_zoom (tl, 0.5, 0.5);
  iv_timeline_view_get_range (tl, &a0, &a1);
  g_assert_cmpint (ABS ((a1 - a0) - span / 2), <=, 1);
  g_assert_cmpint (ABS ((a0 + a1) / 2 - (t0 + t1) / 2), <=, 1);
  iv_timeline_view_pan (tl, -0.25);
  iv_timeline_view_get_range (tl, &t0, &t1);
  g_assert_cmpint (ABS ((a0 - t0) - (a1 - a0) / 4), <=, 1);
  /* Panning past the start stops at the start. */
  iv_timeline_view_pan (tl, -10);
  iv_timeline_view_get_range (tl, &t0, &t1);
  g_assert_cmpint (t0, ==, trace->t0_ns);

  /* Select the first slice; F fits it (with a tenth on each side); 0 shows everything. */
  iv_timeline_view_select (tl, 0);
  g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, 0);
  gtk_widget_grab_focus (GTK_WIDGET (tl));
  {
    GtkEventController *key
        = iv_gui_find_controller (GTK_WIDGET (tl), GTK_TYPE_EVENT_CONTROLLER_KEY);
    g_assert_nonnull (key);
    {
      gboolean handled = FALSE;
      g_signal_emit_by_name (key, "key-pressed", GDK_KEY_f, 0, 0, &handled);
      g_assert_true (handled);
      iv_timeline_view_get_range (tl, &t0, &t1);
      g_assert_cmpint (t0, <=, trace->start_ns[0]);
      g_assert_cmpint (t1, >=, trace->start_ns[0] + trace->dur_ns[0]);
      g_assert_cmpint (t1 - t0, <=, MAX (1000, trace->dur_ns[0]) * 13 / 10 + 2);
      g_signal_emit_by_name (key, "key-pressed", GDK_KEY_0, 0, 0, &handled);
      iv_timeline_view_get_range (tl, &t0, &t1);
      g_assert_cmpint (t1 - t0, ==, trace->t1_ns - trace->t0_ns);
      span = t1 - t0;

      /* W zooms about the pointer: at the plot's left edge the start stays, at its
       * right edge the end stays; once the pointer has left, about the middle. */
      {
        GtkEventController *motion = iv_gui_find_controller (
            iv_gui_find_by_id (GTK_WIDGET (tl), "area"), GTK_TYPE_EVENT_CONTROLLER_MOTION);
        gint64 b0, b1;
        g_assert_nonnull (motion);
        g_signal_emit_by_name (motion, "motion", 0.0, 40.0);
        g_signal_emit_by_name (key, "key-pressed", GDK_KEY_w, 0, 0, &handled);
        iv_timeline_view_get_range (tl, &b0, &b1);
        g_assert_cmpint (b0, ==, t0);
        g_assert_cmpint (ABS ((b1 - b0) - span * 8 / 10), <=, 2);
        g_signal_emit_by_name (motion, "motion", 1e6, 40.0);
        g_signal_emit_by_name (key, "key-pressed", GDK_KEY_w, 0, 0, &handled);
        iv_timeline_view_get_range (tl, &a0, &a1);
        g_assert_cmpint (a1, ==, b1);
        g_assert_cmpint (a0, >, b0);
        g_signal_emit_by_name (motion, "leave");
        g_signal_emit_by_name (key, "key-pressed", GDK_KEY_s, 0, 0, &handled);
        iv_timeline_view_get_range (tl, &b0, &b1);
        g_assert_cmpint (ABS ((b0 + b1) / 2 - (a0 + a1) / 2), <=, 2);
        g_assert_cmpint (b1 - b0, >, a1 - a0);
        g_signal_emit_by_name (key, "key-pressed", GDK_KEY_0, 0, 0, &handled);
      }
    }
  }
  g_assert_nonnull (iv_workspace_page_get_figure (page));

  /* Search: every slice whose name contains "cuda" (counted here from the trace itself)
   * is visited once by stepping, in time order, and the last step wraps to the first. */
  {
    GtkSearchEntry *entry = find_search_entry (GTK_WIDGET (tl));
    guint expected = 0;
    gsize first, prev;
    g_assert_nonnull (entry);
    for (gsize i = 0; i < trace->n_slices; i++)
      {
        g_autofree char *name = g_utf8_casefold (iv_trace_string (trace, trace->name[i]), -1);
        expected += strstr (name, "cuda") != NULL;
      }
    g_assert_cmpuint (expected, >, 2);
    gtk_search_entry_set_search_delay (entry, 0);
    iv_timeline_view_select (tl, G_MAXSIZE);
    gtk_editable_set_text (GTK_EDITABLE (entry), "CUDA");
    for (int i = 0; i < 200 && iv_timeline_view_get_selected (tl) == G_MAXSIZE; i++)
      {
        while (g_main_context_pending (NULL))
          g_main_context_iteration (NULL, FALSE);
        iv_timeline_view_step_match (tl, 1);
        if (iv_timeline_view_get_selected (tl) == G_MAXSIZE)
          g_usleep (5000);
      }
    first = prev = iv_timeline_view_get_selected (tl);
    g_assert_cmpuint (first, !=, G_MAXSIZE);
    /* the entry wrote the state */
    g_assert_cmpstr (iv_timeline_state_get_search (iv_timeline_view_get_state (tl)), ==, "CUDA");
    g_assert_cmpuint (iv_timeline_state_get_selected (iv_timeline_view_get_state (tl)), ==, first);
    for (guint k = 1; k < expected; k++)
      {
        gsize cur;
        g_autofree char *name = NULL;
        iv_timeline_view_step_match (tl, 1);
        cur = iv_timeline_view_get_selected (tl);
        name = g_utf8_casefold (iv_trace_string (trace, trace->name[cur]), -1);
        g_assert_nonnull (strstr (name, "cuda"));
        g_assert_cmpint (trace->start_ns[cur], >=, trace->start_ns[prev]);
        g_assert_cmpuint (cur, !=, first);
        prev = cur;
      }
    iv_timeline_view_step_match (tl, 1);
    g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, first);
    iv_timeline_view_step_match (tl, -1);
    g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, prev);
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  }

  /* The view follows its state: a range, a selection and a search set on the state are
   * what the figure draws, what the details describe and what the entry shows. */
  {
    IvTimelineState *st = iv_timeline_view_get_state (tl);
    const IvTimelineFigure *fig = iv_timeline_view_get_figure (tl)->data;
    GtkSearchEntry *entry = find_search_entry (GTK_WIDGET (tl));
    gsize longest = 0;
    g_autofree char *header = NULL;

    iv_timeline_state_set_range (st, trace->t0_ns + span / 4, trace->t0_ns + span / 2);
    g_assert_cmpint (fig->t0_ns, ==, trace->t0_ns + span / 4);
    g_assert_cmpint (fig->t1_ns, ==, trace->t0_ns + span / 2);
    for (gsize i = 1; i < trace->n_slices; i++)
      if (trace->dur_ns[i] > trace->dur_ns[longest])
        longest = i;
    g_object_set (st, "selected", (guint64) longest, NULL);
    g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, longest);
    g_assert_cmpuint (fig->selected, ==, longest);
    {
      g_autofree char *dur = iv_units_format_seconds (trace->dur_ns[longest] * 1e-9);
      g_autofree char *details = iv_slice_details_to_text (iv_timeline_view_get_details (tl));
      header = g_strdup_printf ("%s\n", iv_trace_string (trace, trace->name[longest]));
      g_assert_true (g_str_has_prefix (details, header));
      g_assert_nonnull (strstr (details, dur));
      /* the pane under the timeline shows while there is a selection */
      g_assert_true (gtk_widget_get_visible (
          gtk_widget_get_parent (GTK_WIDGET (iv_timeline_view_get_details (tl)))));
    }
    g_object_set (st, "search", "cuda", NULL);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "cuda");
    g_assert_nonnull (fig->matches);
    g_assert_cmpuint (fig->matches->len, >, 2);
    g_object_set (st, "search", "", "selected", IV_TIMELINE_NONE, NULL);
    g_assert_null (fig->matches);
    g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, G_MAXSIZE);
    {
      g_autofree char *details = iv_slice_details_to_text (iv_timeline_view_get_details (tl));
      gint64 area0, area1;
      g_assert_cmpstr (details, ==, "");
      /* nothing selected and no area: the pane folds away */
      iv_timeline_state_get_area (st, &area0, &area1);
      g_assert_cmpint (area1, <=, area0);
      g_assert_false (gtk_widget_get_visible (
          gtk_widget_get_parent (GTK_WIDGET (iv_timeline_view_get_details (tl)))));
    }
  }

  /* Area selection of the first half: the table's counts add up to the slices that
   * intersect it (Perfetto's area selection; counted here from the trace), spans that did
   * not end left out, and its CSV has one line per name and row kind. */
  {
    gint64 a = trace->t0_ns, b = trace->t0_ns + span / 2;
    guint64 expected = 0, summed = 0;
    guint lines = 0;
    g_auto (GStrv) rows = NULL;
    IvTraceArea *area = iv_timeline_view_get_area_table (tl);
    for (gsize i = 0; i < trace->n_slices; i++)
      {
        gint64 s0 = trace->start_ns[i], s1 = s0 + trace->dur_ns[i];
        expected
            += s0 < b && (s1 > a || (s1 == s0 && s0 >= a)) && !iv_trace_slice_is_open (trace, i);
      }
    iv_timeline_view_set_area (tl, a, b);
    rows = g_strsplit (iv_trace_area_get_csv (area), "\n", -1);
    g_assert_cmpstr (rows[0], ==, "name,kind,count,total_s,self_s,mean_s,max_s");
    for (guint i = 1; rows[i] && *rows[i]; i++, lines++)
      {
        /* The count is the fifth field from the end (names may hold commas). */
        g_auto (GStrv) f = g_strsplit (rows[i], ",", -1);
        guint nf = g_strv_length (f);
        summed += g_ascii_strtoull (f[nf - 5], NULL, 10);
      }
    g_assert_cmpuint (expected, >, 0);
    g_assert_cmpuint (summed, ==, expected);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (
                          gtk_column_view_get_model (iv_trace_area_get_column_view (area)))),
                      ==, lines);
    /* The columns declared in the template: cells formatted by its closures (the first
     * row's total as the CSV's first row has it), and a column's sorter orders rows. */
    {
      GtkColumnView *cv = iv_trace_area_get_column_view (area);
      GListModel *columns = gtk_column_view_get_columns (cv);
      GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (cv));
      g_auto (GStrv) first = g_strsplit (rows[1], ",", -1);
      guint nf = g_strv_length (first);
      g_autofree char *total = iv_units_format_seconds (g_ascii_strtod (first[nf - 4], NULL));
      double prev = G_MAXDOUBLE;
      g_autoptr (GtkColumnViewColumn) count_col = g_list_model_get_item (columns, 1);
      g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 6);
      g_assert_cmpstr (gtk_column_view_column_get_title (count_col), ==, "Count");
      wait_for_widget_paint (GTK_WIDGET (area));
      g_assert_true (has_label (GTK_WIDGET (area), total));
      gtk_column_view_sort_by_column (cv, count_col, GTK_SORT_DESCENDING);
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr (GObject) item = g_list_model_get_item (model, i);
          double count;
          g_object_get (item, "count", &count, NULL);
          g_assert_cmpfloat (count, <=, prev);
          prev = count;
        }
    }
    /* Its small charts: the names taking the most time, and over the whole trace (which
     * holds the GPU kernels) the streams and the kernel time by kind. */
    g_assert_nonnull (iv_trace_area_get_chart (area, 0));
    iv_timeline_view_set_area (tl, trace->t0_ns, trace->t1_ns);
    g_assert_nonnull (iv_trace_area_get_chart (area, 1));
    g_assert_nonnull (iv_trace_area_get_chart (area, 2));
    /* HTA's launch delay over the range, in the summary: the median and p95 of the
     * launches whose kernels start in it (their values are checked against an independent
     * join on args.correlation by tests/test-trace-launch.py) */
    {
      g_autoptr (IvLaunchStats) ls
          = iv_trace_launch_stats (trace, trace->t0_ns, trace->t1_ns, FALSE);
      g_autofree char *p50 = iv_units_format_seconds (ls->delay.p50_ns * 1e-9);
      g_autofree char *line
          = g_strdup_printf ("%u launches, delay median %s", ls->launches->len, p50);
      g_assert_cmpuint (ls->launches->len, >, 0);
      wait_for_widget_paint (GTK_WIDGET (area));
      g_assert_true (has_label_containing (GTK_WIDGET (area), line));
    }
    /* the GPU time by stage group, beside the Model workspace's step: the measured shares
     * add up to 100 %, and so do the model's */
    {
      IvChart *classes = iv_trace_area_get_chart (area, 3);
      double sum[2] = { 0, 0 };
      g_assert_nonnull (classes);
      g_assert_cmpuint (iv_chart_get_n_series (classes), ==, 2);
      for (guint k = 0; k < 2; k++)
        for (gsize i = 0; i < iv_series_get_length (iv_chart_get_series (classes, k)); i++)
          sum[k] += iv_chart_get_series (classes, k)->y[i];
      g_assert_cmpfloat_with_epsilon (sum[0], 100, 1e-9);
      g_assert_cmpfloat_with_epsilon (sum[1], 100, 1e-9);
    }
  }

  /* Following a flow: the selection's pane has a button per flow; clicking it selects the
   * slice at the other end. */
  {
    g_autofree char *flows_path = iv_gui_sample ("traces/catapult_flow_simple.json");
    const IvTrace *ft = NULL;
    IvFlow f = { G_MAXSIZE, G_MAXSIZE, 0, 0, 0, 0 };
    GtkButton *button;
    iv_gui_open_paths (window, flows_path, NULL);
    iv_gui_settle (window);
    for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
      {
        g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
        g_autofree char *p = g_file_get_path (iv_document_get_file (doc));
        if (g_str_equal (p, flows_path) && iv_document_get_trace (doc))
          ft = iv_document_get_trace (doc), iv_window_select (window, doc);
      }
    iv_gui_settle (window);
    g_assert_nonnull (ft);
    for (guint i = 0; ft && i < ft->flows->len && f.from == G_MAXSIZE; i++)
      if (g_array_index (ft->flows, IvFlow, i).from < ft->n_slices
          && g_array_index (ft->flows, IvFlow, i).to < ft->n_slices)
        f = g_array_index (ft->flows, IvFlow, i);
    g_assert_cmpuint (f.from, !=, G_MAXSIZE);
    iv_timeline_view_select (tl, f.from);
    button = iv_gui_find_button_with_prefix (GTK_WIDGET (tl), "Flow to ");
    g_assert_nonnull (button);
    g_signal_emit_by_name (button, "clicked");
    g_assert_cmpuint (iv_timeline_view_get_selected (tl), ==, f.to);
  }
}

typedef struct
{
  IvPipelinedView *view;
  gboolean done, ok;
  GError *error;
} LoadOutcome;

static void
on_breakdown_outcome (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadOutcome *out = data;
  out->ok = iv_pipelined_view_load_breakdown_finish (out->view, result, &out->error);
  out->done = TRUE;
}

/* A pipelined timeline opens on its pipeline view with the file's window (candidates 2–4)
 * and the breakdown found beside it; the window moves, an impossible one keeps what was
 * shown, a click describes a bar, a bad breakdown keeps the good one, and the figure
 * exported is the pipeline's. */
static void
test_pipelined_view (void)
{
  g_autofree char *path = iv_gui_sample ("traces/pipelined_timeline_sample.json");
  g_autofree char *bad = g_build_filename (tmpdir, "bad-breakdown.json", NULL);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  IvPipelinedView *view;
  const IvPipelinePlot *plot;
  const IvFigure *figure;
  guint merged = G_MAXUINT;

  open_trace (path);
  /* the breakdown beside it was read by the document's loader, off the main thread */
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
    {
      g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
      const GPtrArray *found = iv_document_get_breakdowns (doc);
      if (iv_document_get_trace (doc)
          && g_str_has_suffix (iv_document_get_trace (doc)->path, "pipelined_timeline_sample.json"))
        {
          g_assert_nonnull (found);
          g_assert_cmpuint (found->len, ==, 1);
          g_assert_cmpint (((IvBreakdownFile *) found->pdata[0])->breakdown->candidate, ==, 3);
        }
    }
  view = iv_workspace_page_get_pipelined (page);
  g_assert_nonnull (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  figure = iv_workspace_page_get_figure (page);
  g_assert_nonnull (figure);
  g_assert_true (figure->render == iv_render_pipelined);
  plot = iv_pipelined_view_get_plot (view);
  g_assert_cmpint (plot->first_candidate, ==, 2);
  g_assert_cmpint (plot->max_candidate, ==, 9);
  g_assert_nonnull (iv_pipelined_view_get_breakdown (view));
  g_assert_cmpint (iv_pipelined_view_get_breakdown (view)->candidate, ==, 3);

  iv_pipelined_view_set_window (view, 5);
  plot = iv_pipelined_view_get_plot (view);
  g_assert_cmpint (plot->first_candidate, ==, 5);
  /* nothing to draw from 42: the window shown stays, the reason is said */
  iv_pipelined_view_set_window (view, 42);
  g_assert_true (iv_pipelined_view_get_plot (view) == plot);
  g_assert_cmpint (plot->first_candidate, ==, 5);

  for (guint i = 0; i < plot->bars->len && merged == G_MAXUINT; i++)
    if (g_array_index (plot->bars, IvPipelineBar, i).kind == IV_BAR_MERGED_IO
        && g_array_index (plot->bars, IvPipelineBar, i).candidate == 6)
      merged = i;
  g_assert_cmpuint (merged, !=, G_MAXUINT);
  iv_pipelined_view_select (view, merged);
  g_assert_nonnull (strstr (iv_pipelined_view_get_details (view), "candidate 6"));
  g_assert_nonnull (strstr (iv_pipelined_view_get_details (view), "I/O events of the candidate"));

  g_assert_true (g_file_set_contents (
      bad, "{\"format\": \"candidate_breakdown_v1\", \"gpu_ms\": 3}", -1, NULL));
  {
    LoadOutcome out = { view, FALSE, FALSE, NULL };
    iv_pipelined_view_load_breakdown_async (view, bad, on_breakdown_outcome, &out);
    g_assert_true (iv_gui_wait_for (flag_set, &out.done, 10));
    g_assert_false (out.ok);
    g_assert_error (out.error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (
        strstr (out.error->message, "bad-breakdown.json: not a candidate_breakdown_v1"));
    g_clear_error (&out.error);
  }
  g_assert_nonnull (iv_pipelined_view_get_breakdown (view));
  g_assert_cmpint (iv_pipelined_view_get_breakdown (view)->candidate, ==, 3);
  iv_gui_settle (window);
}

/* A slice's details: its properties as name/value pairs, the slice it is in, and its
 * arguments as a tree (paths as keys), nested objects and arrays included. */
static void
test_slice_details (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "args.json", NULL);
  g_autoptr (IvTrace) t = NULL;
  g_autoptr (GError) error = NULL;
  IvSliceDetails *details = IV_SLICE_DETAILS (g_object_ref_sink (iv_slice_details_new ()));
  g_autofree char *text = NULL;
  gsize inner = G_MAXSIZE;

  g_assert_true (g_file_set_contents (
      path,
      "[{\"ph\": \"X\", \"name\": \"outer\", \"pid\": 1, \"tid\": 2, \"ts\": 0, \"dur\": 100},"
      " {\"ph\": \"X\", \"name\": \"inner\", \"cat\": \"kernel\", \"pid\": 1, \"tid\": 2, \"ts\": "
      "10, \"dur\": 50,"
      "  \"args\": {\"a\": 1, \"nested\": {\"b\": \"x\", \"list\": [1, 2.5]}}}]",
      -1, NULL));
  t = iv_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < t->n_slices; i++)
    if (g_str_equal (iv_trace_string (t, t->name[i]), "inner"))
      inner = i;
  iv_slice_details_set (details, t, inner);
  text = iv_slice_details_to_text (details);
  g_assert_true (g_str_has_prefix (text, "inner\n"));
  g_assert_nonnull (strstr (text, "Category: kernel\n"));
  g_assert_nonnull (strstr (text, "Duration: 50 µs\n"));
  g_assert_nonnull (strstr (text, "Start: 10 µs\n"));
  g_assert_nonnull (strstr (text, "Self time: 50 µs\n"));
  g_assert_nonnull (strstr (text, "In: outer\n"));
  g_assert_nonnull (strstr (text, "args.a: 1\n"));
  g_assert_nonnull (strstr (text, "args.nested.b: x\n"));
  g_assert_nonnull (strstr (text, "args.nested.list[1]: 2.5\n"));
  iv_slice_details_set (details, NULL, G_MAXSIZE);
  g_clear_pointer (&text, g_free);
  text = iv_slice_details_to_text (details);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&t, iv_trace_free);
  g_clear_pointer (&text, g_free);

  /* A begin never closed has no recorded duration: the pane says so, with the time to the
   * trace's end it is drawn to (40 µs: from 60 to the last event's end at 100). */
  g_assert_true (g_file_set_contents (
      path,
      "[{\"ph\": \"B\", \"name\": \"open\", \"pid\": 1, \"tid\": 2, \"ts\": 60},"
      " {\"ph\": \"X\", \"name\": \"closed\", \"pid\": 1, \"tid\": 3, \"ts\": 0, \"dur\": 100}]",
      -1, NULL));
  t = iv_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  inner = G_MAXSIZE;
  for (gsize i = 0; i < t->n_slices; i++)
    if (g_str_equal (iv_trace_string (t, t->name[i]), "open"))
      inner = i;
  g_assert_cmpuint (inner, !=, G_MAXSIZE);
  iv_slice_details_set (details, t, inner);
  text = iv_slice_details_to_text (details);
  g_assert_nonnull (strstr (text, "Duration: did not end (40 µs to the end of the trace)\n"));
  g_object_unref (details);
}

static gboolean
child_revealed (gpointer data)
{
  return gtk_revealer_get_child_revealed (GTK_REVEALER (data));
}

/* The label under @root showing @text, or NULL. */
static GtkLabel *
find_label (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return GTK_LABEL (root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *l = find_label (c, text);
      if (l)
        return l;
    }
  return NULL;
}

/* A trace damaged on its second line opens with what was read before the damage, and a
 * banner over the timeline says so in the command line's own words (the warning line of
 * `inferview trace FILE --stats`, without its "warning: "), as plain text that wraps and
 * is never cut; its button opens the Trace Info page, which lists every warning whole. A
 * trace read whole has no banner. */
static void
test_damage_banner (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "damaged <b>&.json", NULL);
  g_autofree char *good = iv_gui_sample ("traces/catapult_flow_simple.json");
  g_autofree char *out = NULL, *expected = NULL, *info = NULL;
  const char *argv[] = { g_getenv ("IV_BINARY"), "trace", path, "--stats", NULL };
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  IvTimelineView *tl;
  const IvTrace *trace;
  const char *banner;
  GtkLabel *label;
  int status = -1;

  g_assert_true (g_file_set_contents (
      path,
      "[{\"ph\": \"X\", \"name\": \"first\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 10},\n"
      "{\"ph\": \"X\" \"name\": \"second\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": 10}]\n",
      -1, NULL));
  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  {
    const char *w = strstr (out, "\nwarning: ");
    const char *end;
    g_assert_nonnull (w);
    w += strlen ("\nwarning: ");
    end = strchr (w, '\n');
    expected = g_strndup (w, (gsize) (end - w));
  }
  g_assert_true (g_str_has_prefix (expected, "the file is damaged at line 2, column 12 (a missing "
                                             "',' or '}' in an object)"));

  trace = open_trace (path);
  g_assert_cmpuint (trace->n_slices, ==, 1);
  /* the sidebar's line starts with the damage, before any ellipsis can cut it */
  for (guint i = 0; i < g_list_model_get_n_items (iv_window_get_documents (window)); i++)
    {
      g_autoptr (IvDocument) doc = iv_gui_doc_at (window, i);
      if (iv_document_get_trace (doc) == trace)
        g_assert_cmpstr (iv_document_get_subtitle (doc), ==,
                         "Damaged, loaded in part · Trace · 1 slices · 1 tracks · 10 µs");
    }
  tl = iv_workspace_page_get_timeline (page);
  banner = iv_timeline_view_get_banner (tl);
  g_assert_cmpstr (banner, ==, expected);
  label = find_label (GTK_WIDGET (tl), expected);
  g_assert_nonnull (label);
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_true (gtk_label_get_wrap (label));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (label)));
  /* the whole message fits, once the banner has slid in: its height holds every line it
   * wraps to */
  {
    GtkRevealer *revealer
        = GTK_REVEALER (gtk_widget_get_ancestor (GTK_WIDGET (label), GTK_TYPE_REVEALER));
    int min_h, nat_h;
    g_assert_true (iv_gui_wait_for (child_revealed, revealer, 5));
    iv_gui_settle (window);
    gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_VERTICAL,
                        gtk_widget_get_width (GTK_WIDGET (label)), &min_h, &nat_h, NULL, NULL);
    /* (a measure counts the margins, an allocation does not) */
    g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (label))
                         + gtk_widget_get_margin_top (GTK_WIDGET (label))
                         + gtk_widget_get_margin_bottom (GTK_WIDGET (label)),
                     >=, min_h);
  }
  /* the button opens the Trace Info page, the warning there whole */
  {
    GtkWidget *button = gtk_widget_get_last_child (gtk_widget_get_parent (GTK_WIDGET (label)));
    GtkStack *bottom
        = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (iv_timeline_view_get_info_view (tl))));
    g_assert_true (GTK_IS_BUTTON (button));
    g_signal_emit_by_name (button, "clicked");
    iv_gui_settle (window);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (bottom), ==, "info");
  }
  info = iv_trace_info_view_to_text (iv_timeline_view_get_info_view (tl));
  g_assert_nonnull (strstr (info, "Read: Not whole"));
  g_assert_nonnull (strstr (info, expected));

  /* a trace read whole: no banner */
  open_trace (good);
  g_assert_null (iv_timeline_view_get_banner (tl));
}

/* The Trace Info page of a Kineto trace: its distributedInfo, its eight devices, its
 * other top-level values and how it was read. */
static void
test_trace_info_page (void)
{
  g_autofree char *path = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  IvTimelineView *tl;
  g_autofree char *text = NULL;

  open_trace (path);
  tl = iv_workspace_page_get_timeline (_iv_window_get_page (window, IV_GROUP_TRACES));
  g_assert_null (iv_timeline_view_get_banner (tl));
  text = iv_trace_info_view_to_text (iv_timeline_view_get_info_view (tl));
  g_assert_true (g_str_has_prefix (text, "Import\nRead: Whole\n"));
  g_assert_nonnull (strstr (text, "\nDistributed\nSummary: rank 0\nrank: 0\n"));
  g_assert_nonnull (strstr (
      text, "\nDevices\nDevice 0: NVIDIA A100-PG509-200 · compute 8.0 · 108 SMs · 39.4 GiB\n"));
  g_assert_nonnull (strstr (text, "Device 7: "));
  g_assert_nonnull (strstr (text, "\nFile values\nschemaVersion: 1\n"));
  g_assert_nonnull (strstr (text, "traceName: benchmark_result_493459_1694039959_trace.json\n"));
}

static void
collect_accelerators (GtkWidget *root, GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_SHORTCUTS_SHORTCUT (c))
        {
          char *accel = NULL;
          g_object_get (c, "accelerator", &accel, NULL);
          if (accel)
            g_ptr_array_add (out, accel);
        }
      collect_accelerators (c, out);
    }
}

/* The shortcuts window lists every key the timeline answers to, and each single key it
 * lists for the timeline is one the timeline really handles. */
static void
test_shortcuts_window_keys (void)
{
  g_autofree char *path = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  g_autoptr (GPtrArray) accels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *png
      = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                          "shortcuts-window.png", NULL);
  const char *timeline_keys[] = { "w", "a", "s", "d", "f", "0" };
  const char *listed[]
      = { "w",       "a",        "s", "d", "f", "0", "slash <Control>f", "Return", "<Shift>Return",
          "<Shift>", "<Control>" };
  GtkShortcutsWindow *overlay;
  GtkEventController *key;
  IvTimelineView *tl;

  open_trace (path);
  tl = iv_workspace_page_get_timeline (_iv_window_get_page (window, IV_GROUP_TRACES));
  key = iv_gui_find_controller (GTK_WIDGET (tl), GTK_TYPE_EVENT_CONTROLLER_KEY);
  g_assert_nonnull (key);

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  collect_accelerators (GTK_WIDGET (overlay), accels);
  for (guint i = 0; i < G_N_ELEMENTS (listed); i++)
    if (!g_ptr_array_find_with_equal_func (accels, listed[i], g_str_equal, NULL))
      g_error ("the shortcuts window does not list %s", listed[i]);
  for (guint i = 0; i < G_N_ELEMENTS (timeline_keys); i++)
    {
      guint keyval = 0;
      gboolean handled = FALSE;
      g_assert_true (gtk_accelerator_parse (timeline_keys[i], &keyval, NULL));
      g_signal_emit_by_name (key, "key-pressed", keyval, 0, 0, &handled);
      if (!handled)
        g_error ("the shortcuts window lists %s, which the timeline ignores", timeline_keys[i]);
    }
  g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (overlay), png), >, 5);
  gtk_window_close (GTK_WINDOW (overlay));
  iv_gui_settle (window);
}

static gboolean
presets_listed (gpointer data)
{
  return iv_sidebar_count_presets_shown (data) == 46;
}

/* A new window shows its first frame before it builds what that frame does not show:
 * until then the sidebar lists no preset and the Model workspace has no view; after it,
 * both come without anything asking. */
static void
test_first_frame_first (void)
{
  IvWindow *second = iv_window_new (ADW_APPLICATION (app));
  IvWorkspacePage *model = _iv_window_get_page (second, IV_GROUP_MODEL);
  GtkStack *stack = GTK_STACK (iv_gui_find_child (GTK_WIDGET (model), GTK_TYPE_STACK));

  g_assert_nonnull (stack);
  g_assert_cmpuint (iv_sidebar_count_presets_shown (second->sidebar), ==, 0);
  g_assert_null (gtk_stack_get_child_by_name (stack, "model"));
  gtk_window_present (GTK_WINDOW (second));
  g_assert_true (iv_gui_wait_for (presets_listed, second->sidebar, 10));
  g_assert_nonnull (gtk_stack_get_child_by_name (stack, "model"));
  gtk_window_destroy (GTK_WINDOW (second));
  iv_gui_settle (window);
}

/* A tooltip of a 250-character name without spaces wraps to a readable width (GTK's own
 * label would make it one line as wide as the name). */
static void
test_tooltip_wraps (void)
{
  g_autoptr (GString) name = g_string_new ("void at::native::elementwise_kernel_with_index<");
  GtkWidget *label, *plain;
  int min, nat, nat_plain, h_one, h;

  while (name->len < 250)
    g_string_append (name, "c10::Scalar_const&,");
  label = g_object_ref_sink (iv_tooltip_label_new (name->str));
  plain = g_object_ref_sink (gtk_label_new (name->str));
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  gtk_widget_measure (plain, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat_plain, NULL, NULL);
  gtk_widget_measure (plain, GTK_ORIENTATION_VERTICAL, -1, NULL, &h_one, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, nat, NULL, &h, NULL, NULL);
  g_assert_cmpint (nat, <, nat_plain / 3);
  g_assert_cmpint (h, >=, 4 * h_one);
  g_object_unref (label);
  g_object_unref (plain);
}

static const IvGuiCase cases[] = {
  { "/gui/window-opens", test_window_opens, TRUE },
  { "/gui/first-frame-first", test_first_frame_first },
  { "/gui/tooltip-wraps", test_tooltip_wraps },
  { "/gui/open-folder-and-files", test_open_folder_and_files },
  { "/gui/bad-file-keeps-what-was-open", test_bad_file_keeps_what_was_open },
  { "/gui/refusal-toast-plain-text", test_refusal_toast_plain_text },
  { "/gui/reopen-replaces", test_reopen_replaces },
  { "/gui/screenshot-not-blank", test_screenshot_not_blank },
  { "/gui/close-item", test_close_item },
  { "/gui/shortcuts-actions-exist", test_shortcuts_actions_exist },
  { "/gui/toggle-sidebar", test_toggle_sidebar },
  { "/gui/export-dialog", test_export_dialog },
  { "/gui/export-dialog-enter-and-format", test_export_dialog_enter_and_format },
  { "/gui/cancel-long-load", test_cancel_long_load },
  { "/gui/chart-view", test_chart_view },
  { "/gui/preferences-and-about", test_preferences_and_about },
  { "/gui/timeline-view", test_timeline_view },
  { "/gui/slice-details", test_slice_details },
  { "/gui/damage-banner", test_damage_banner },
  { "/gui/trace-info-page", test_trace_info_page },
  { "/gui/shortcuts-window-keys", test_shortcuts_window_keys },
  { "/gui/pipelined-view", test_pipelined_view },
  { "/gui/window-size-saved", test_window_size_saved },
};

int
main (int argc, char **argv)
{
  return iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
}
