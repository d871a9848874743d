/* iv-window-actions.c: every win.* action, installed on the class so each window has its
 * own. Their shortcuts are set once in iv-application.c and listed in
 * gtk/help-overlay.ui (a test checks that the two agree). */
#define G_LOG_DOMAIN "iv-gui"

#include <glib/gi18n.h>

#include "iv-export-dialog.h"
#include "iv-samples.h"
#include "iv-trace-compare-view.h"
#include "iv-window-private.h"

static void
open_files_from_list (IvWindow *self, GListModel *files)
{
  guint n = g_list_model_get_n_items (files);
  g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  iv_window_open (self, (GFile **) array->pdata, (int) array->len);
}

static void
on_chooser_response (GtkNativeDialog *dialog, int response, IvWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      open_files_from_list (self, files);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
show_chooser (IvWindow *self, GtkFileChooserAction action, const char *title)
{
  GtkFileChooserNative *chooser;

  chooser
      = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _ ("_Open"), _ ("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  if (action == GTK_FILE_CHOOSER_ACTION_OPEN)
    {
      g_autoptr (GtkFileFilter) known = gtk_file_filter_new ();
      g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();

      gtk_file_filter_set_name (known, _ ("Traces, runs and model configurations"));
      gtk_file_filter_add_suffix (known, "json");
      gtk_file_filter_add_suffix (known, "jsonl");
      gtk_file_filter_add_suffix (known, "gz");
      gtk_file_filter_add_suffix (known, "zst");
      gtk_file_filter_set_name (all, _ ("All files"));
      gtk_file_filter_add_pattern (all, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), known);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  show_chooser (IV_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN,
                _ ("Open Traces, Runs or Models"));
}

static void
open_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
  show_chooser (IV_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                _ ("Open AIPerf Result Folders"));
}

static void
open_recent_action (GtkWidget *widget, const char *name, GVariant *param)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  iv_window_open (IV_WINDOW (widget), &file, 1);
}

static void
open_samples_action (GtkWidget *widget, const char *name, GVariant *param)
{
  const char *group_name = g_variant_get_string (param, NULL);
  IvGroup group = g_str_equal (group_name, "traces")  ? IV_GROUP_TRACES
                  : g_str_equal (group_name, "model") ? IV_GROUP_MODEL
                                                      : IV_GROUP_RUNS;
  g_autoptr (GPtrArray) files = iv_samples_for_group (group);

  if (files->len == 0)
    {
      iv_window_toast (IV_WINDOW (widget), _ ("No samples are installed for this workspace"));
      return;
    }
  iv_window_open (IV_WINDOW (widget), (GFile **) files->pdata, (int) files->len);
}

static void
close_item_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvWindow *self = IV_WINDOW (widget);

  if (self->selected)
    iv_window_close_document (self, self->selected);
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvWindow *self = IV_WINDOW (widget);
  const IvFigure *figure = iv_workspace_page_get_figure (_iv_window_get_visible_page (self));
  IvExportDialog *dialog;

  if (!figure)
    return;
  dialog = iv_export_dialog_new (GTK_WINDOW (self), figure);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_workspace_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvWindow *self = IV_WINDOW (widget);
  adw_view_stack_set_visible_child_name (self->view_stack, g_variant_get_string (param, NULL));
}

/* A run's step in the Model workspace (§9): its model, the hardware it was set against,
 * decode with batch = concurrency and context = ISL + OSL/2 — which stage bounds it. */
static void
model_from_run_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvWindow *self = IV_WINDOW (widget);
  IvModelView *view = iv_workspace_page_get_model_view (_iv_window_get_page (self, IV_GROUP_MODEL));
  const char *model, *hardware;
  gint64 tp, batch, context;
  const IvHardware *hw;
  IvModelState *state;
  IvConfig c;

  g_variant_get (param, "(&s&sxxx)", &model, &hardware, &tp, &batch, &context);
  if (!view || !(hw = iv_hardware_find (hardware)) || !iv_model_view_select_model (view, model))
    return;
  state = iv_model_view_get_state (view);
  iv_model_state_set_hardware (state, hw);
  iv_model_state_get_config (state, &c);
  c.mode = IV_MODE_DECODE, c.B = MAX (batch, 1), c.T = 1, c.P = MAX (context, 0);
  c.t = MAX (tp, 1), c.c = 1, c.place_tp = c.place_cp = IV_PLACE_CUBE;
  iv_model_state_set_config (state, &c);
  adw_view_stack_set_visible_child_name (self->view_stack, "model");
}

/* The opened traces at positions (first, second) of the window's list compared, the
 * second against the first, in a window of their own (the sidebar's "Compare with"). */
static void
compare_traces_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvWindow *self = IV_WINDOW (widget);
  guint first, second;
  g_autoptr (IvDocument) a = NULL;
  g_autoptr (IvDocument) b = NULL;

  g_variant_get (param, "(uu)", &first, &second);
  a = g_list_model_get_item (G_LIST_MODEL (self->documents), first);
  b = g_list_model_get_item (G_LIST_MODEL (self->documents), second);
  if (!a || !b || a == b || !iv_document_get_trace (a) || !iv_document_get_trace (b))
    {
      iv_window_toast (self, _ ("Compare needs two different traces, both loaded"));
      return;
    }
  gtk_window_present (iv_trace_compare_window_new (GTK_WINDOW (self), a, b));
}

void
_iv_window_update_actions (IvWindow *self)
{
  IvWorkspacePage *page = _iv_window_get_visible_page (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-item", self->selected != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 iv_workspace_page_get_figure (page) != NULL);
}

void
_iv_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-samples", "s", open_samples_action);
  gtk_widget_class_install_action (widget_class, "win.close-item", NULL, close_item_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.model-from-run", "(ssxxx)",
                                   model_from_run_action);
  gtk_widget_class_install_action (widget_class, "win.show-workspace", "s", show_workspace_action);
  gtk_widget_class_install_action (widget_class, "win.compare-traces", "(uu)",
                                   compare_traces_action);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-sidebar", "sidebar-visible");
}
