/* iv-window.c: the window owns the list of open documents and which one is selected;
 * the sidebar and the workspace pages only observe it. Loads run in the background,
 * and a failed load never disturbs what was already open. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "config.h"
#include "iv-settings.h"
#include "iv-first-frame.h"
#include "iv-plain-text.h"
#include "iv-rank-names.h"
#include "iv-safe-text.h"
#include "iv-samples.h"
#include "iv-trace-ranks.h"
#include "iv-window-private.h"

G_DEFINE_FINAL_TYPE (IvWindow, iv_window, ADW_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_SIDEBAR_VISIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *const page_names[] = { "runs", "traces", "model" };

IvWorkspacePage *
_iv_window_get_page (IvWindow *self, IvGroup group)
{
  switch (group)
    {
    case IV_GROUP_TRACES:
      return self->traces_page;
    case IV_GROUP_MODEL:
      return self->model_page;
    case IV_GROUP_RUNS:
    default:
      return self->runs_page;
    }
}

IvWorkspacePage *
_iv_window_get_visible_page (IvWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->view_stack);
  return IV_IS_WORKSPACE_PAGE (child) ? IV_WORKSPACE_PAGE (child) : self->runs_page;
}

/* The message is plain text: it holds names and paths from data (a toast's title is
 * markup in libadwaita 1.2, where "R&D" would leave the toast empty). */
void
iv_window_toast (IvWindow *self, const char *message)
{
  AdwToast *toast;

  g_return_if_fail (IV_IS_WINDOW (self));
  toast = iv_toast_new_plain (message);
  adw_toast_set_timeout (toast, 6);
  g_set_object (&self->last_toast, toast);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

AdwToast *
_iv_window_get_last_toast (IvWindow *self)
{
  g_return_val_if_fail (IV_IS_WINDOW (self), NULL);
  return self->last_toast;
}

GListModel *
iv_window_get_documents (IvWindow *self)
{
  g_return_val_if_fail (IV_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->documents);
}

IvDocument *
iv_window_get_selected (IvWindow *self)
{
  g_return_val_if_fail (IV_IS_WINDOW (self), NULL);
  return self->selected;
}

void
iv_window_select (IvWindow *self, IvDocument *document)
{
  g_return_if_fail (IV_IS_WINDOW (self));

  g_set_object (&self->selected, document);
  if (document)
    {
      IvGroup group = iv_document_get_group (document);
      iv_workspace_page_set_document (_iv_window_get_page (self, group), document);
      adw_view_stack_set_visible_child_name (self->view_stack, page_names[group]);
    }
  iv_sidebar_select (self->sidebar, document);
  _iv_window_update_actions (self);
}

static gboolean
find_document (IvWindow *self, IvDocument *document, guint *position)
{
  return g_list_store_find (self->documents, document, position);
}

static guint
opened_order (IvDocument *document)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (document), "iv-opened-order"));
}

/* Keeps the store sorted by group; within a group, in the order things were opened
 * (not the order their loads happened to finish). */
static void
insert_document (IvWindow *self, IvDocument *document)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));
  IvGroup group = iv_document_get_group (document);
  guint order = opened_order (document);
  guint pos = n;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      IvGroup g = iv_document_get_group (doc);
      if (g > group || (g == group && opened_order (doc) > order))
        {
          pos = i;
          break;
        }
    }
  g_list_store_insert (self->documents, pos, document);
}

/* Picks what a workspace shows after its document went away: the next one of its group. */
static void
refill_page (IvWindow *self, IvWorkspacePage *page)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      if (iv_document_get_group (doc) == iv_workspace_page_get_group (page)
          && iv_document_get_state (doc) != IV_DOCUMENT_FAILED)
        {
          iv_workspace_page_set_document (page, doc);
          return;
        }
    }
  iv_workspace_page_set_document (page, NULL);
}

static void
remove_document (IvWindow *self, IvDocument *document)
{
  g_autoptr (IvDocument) doc = g_object_ref (document);
  guint pos;

  if (!find_document (self, doc, &pos))
    return;
  g_list_store_remove (self->documents, pos);
  for (guint g = IV_GROUP_RUNS; g <= IV_GROUP_MODEL; g++)
    {
      IvWorkspacePage *page = _iv_window_get_page (self, g);
      if (iv_workspace_page_get_document (page) == doc)
        refill_page (self, page);
    }
  if (self->selected == doc)
    {
      IvWorkspacePage *page = _iv_window_get_visible_page (self);
      iv_window_select (self, iv_workspace_page_get_document (page));
    }
  _iv_window_update_actions (self);
}

void
iv_window_close_document (IvWindow *self, IvDocument *document)
{
  g_return_if_fail (IV_IS_WINDOW (self));
  g_return_if_fail (IV_IS_DOCUMENT (document));

  if (iv_document_get_state (document) == IV_DOCUMENT_LOADING)
    iv_document_cancel (document); /* removed when the load reports back */
  else
    remove_document (self, document);
}

gboolean
iv_window_replace_document (IvWindow *self, IvDocument *old, IvDocument *document)
{
  guint pos;

  g_return_val_if_fail (IV_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (IV_IS_DOCUMENT (old) && IV_IS_DOCUMENT (document), FALSE);
  if (!find_document (self, old, &pos) || find_document (self, document, NULL))
    return FALSE;
  /* where the old one was, and it goes only once no page shows it: no page is left
   * showing another document meanwhile */
  g_object_set_data (G_OBJECT (document), "iv-opened-order",
                     g_object_get_data (G_OBJECT (old), "iv-opened-order"));
  g_list_store_insert (self->documents, pos, document);
  for (guint g = IV_GROUP_RUNS; g <= IV_GROUP_MODEL; g++)
    {
      IvWorkspacePage *page = _iv_window_get_page (self, g);
      if (iv_workspace_page_get_document (page) == old)
        iv_workspace_page_set_document (page, document);
    }
  if (self->selected == old)
    iv_window_select (self, document);
  remove_document (self, old);
  return TRUE;
}

static IvDocument *
find_ready_by_file (IvWindow *self, GFile *file, IvDocument *except)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      if (doc != except && iv_document_get_state (doc) == IV_DOCUMENT_READY
          && g_file_equal (iv_document_get_file (doc), file))
        return doc;
    }
  return NULL;
}

static void on_model_changed (IvModelView *view, IvWindow *self);

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (IvWindow) self = user_data;
  IvDocument *doc = IV_DOCUMENT (source);
  g_autoptr (GError) error = NULL;
  gboolean was_selected = self->selected == doc;
  IvDocument *previous;
  guint pos;

  if (!iv_document_load_finish (doc, result, &error))
    {
      const char *title = iv_document_get_title (doc);
      g_autofree char *msg = NULL;

      /* One toast per file, naming it: the loaders' refusals say the file, the place and
       * the problem; one that does not name the file (a failed allocation, an error of
       * the system) is said with the file's name first. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        msg = g_strdup_printf (_ ("Stopped loading “%s”"), title);
      else if (!strstr (error->message, title))
        msg = g_strdup_printf ("%s: %s", title, error->message);
      else
        msg = g_strdup (error->message);
      iv_window_toast (self, msg);
      remove_document (self, doc);
      return;
    }
  if (!find_document (self, doc, &pos))
    return; /* the window let it go meanwhile */

  /* A reload replaces the earlier copy only now that it succeeded. */
  previous = find_ready_by_file (self, iv_document_get_file (doc), doc);
  if (previous)
    remove_document (self, previous);

  /* Now that its kind is known it may belong to another group. */
  g_object_ref (doc);
  find_document (self, doc, &pos);
  if (iv_document_get_group (doc) != IV_GROUP_RUNS)
    {
      g_list_store_remove (self->documents, pos);
      insert_document (self, doc);
    }
  {
    g_autofree char *uri = g_file_get_uri (iv_document_get_file (doc));
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  }
  if (was_selected || !self->selected)
    iv_window_select (self, doc);
  else if (!iv_workspace_page_get_document (
               _iv_window_get_page (self, iv_document_get_group (doc))))
    iv_workspace_page_set_document (_iv_window_get_page (self, iv_document_get_group (doc)), doc);
  /* The Traces workspace makes its timeline with the first trace it shows; when that is
   * after build_deferred (which sets recent_changed_id) set the Model workspace's step
   * beside it, its area table would get the step only at the step's next change. */
  if (iv_document_get_group (doc) == IV_GROUP_TRACES && self->recent_changed_id)
    on_model_changed (iv_workspace_page_get_model_view (self->model_page), self);
  g_object_unref (doc);
  _iv_window_update_actions (self);
}

/* A followed run that could no longer be read says so, whichever document is shown. */
static void
on_follow_stopped (IvDocument *doc, const char *why, IvWindow *self)
{
  iv_window_toast (self, why);
}

/* Whether @file is named as a rank's trace (rank-3.pt.trace.json, …): by name only, no
 * reading on the main thread. */
static gboolean
is_rank_trace (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  return base && iv_rank_is_trace_name (base) && iv_rank_from_file_name (base) >= 0;
}

/* Opens @files, those in @ranks (GFile*, at least two, or none) as one distributed job. */
static void
open_files (IvWindow *self, GFile **files, int n_files, GPtrArray *ranks)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autoptr (IvDocument) doc = NULL;
      if (ranks && ranks->len && files[i] == ranks->pdata[0])
        doc = iv_document_new_job ((GFile **) ranks->pdata, ranks->len);
      else if (ranks && ranks->len && g_ptr_array_find (ranks, files[i], NULL))
        continue;
      else
        doc = iv_document_new (files[i]);

      g_signal_connect_object (doc, "follow-stopped", G_CALLBACK (on_follow_stopped), self, 0);
      g_object_set_data (G_OBJECT (doc), "iv-opened-order", GUINT_TO_POINTER (++self->n_opened));
      insert_document (self, doc);
      if (i == 0)
        iv_window_select (self, doc);
      iv_document_load_async (doc, NULL, on_load_done, g_object_ref (self));
    }
}

/* Several traces with no rank in their names: which of them distributedInfo makes ranks
 * of one job, read from their heads on a worker (never on the main thread). The task's
 * data: the GFile*s; its result: those that are ranks (GFile*), or NULL. */
static void
peek_ranks_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GPtrArray *files = data;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) found = NULL;
  GPtrArray *ranks = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (paths, g_file_get_path (files->pdata[i]));
  found = iv_trace_ranks_by_info ((const char *const *) paths->pdata, paths->len, cancellable);
  for (guint i = 0; found && i < paths->len; i++)
    if (paths->pdata[i]
        && g_ptr_array_find_with_equal_func (found, paths->pdata[i], g_str_equal, NULL))
      g_ptr_array_add (ranks, g_object_ref (files->pdata[i]));
  g_task_return_pointer (task, ranks, (GDestroyNotify) g_ptr_array_unref);
}

static void
on_ranks_peeked (GObject *source, GAsyncResult *result, gpointer data)
{
  IvWindow *self = IV_WINDOW (source);
  GPtrArray *files = g_task_get_task_data (G_TASK (result));
  g_autoptr (GPtrArray) ranks = g_task_propagate_pointer (G_TASK (result), NULL);

  self->n_peeking--;
  open_files (self, (GFile **) files->pdata, (int) files->len, ranks);
}

gboolean
iv_window_is_opening (IvWindow *self)
{
  g_return_val_if_fail (IV_IS_WINDOW (self), FALSE);
  return self->n_peeking > 0;
}

void
iv_window_open (IvWindow *self, GFile **files, int n_files)
{
  g_autoptr (GPtrArray) ranks = g_ptr_array_new ();
  guint traces = 0;

  g_return_if_fail (IV_IS_WINDOW (self));

  /* rank traces opened (or dropped) together are one distributed job */
  for (int i = 0; i < n_files; i++)
    if (is_rank_trace (files[i]))
      g_ptr_array_add (ranks, files[i]);
  if (ranks->len < 2)
    g_ptr_array_set_size (ranks, 0);
  /* and so are traces whose distributedInfo says they are ranks of one job, whatever
   * their names: their heads are read first, on a worker */
  for (int i = 0; i < n_files && ranks->len == 0; i++)
    {
      g_autofree char *base = g_file_get_basename (files[i]);
      g_autofree char *path = g_file_get_path (files[i]);
      traces += base && path && iv_rank_is_trace_name (base);
    }
  if (ranks->len == 0 && traces >= 2)
    {
      g_autoptr (GTask) task = g_task_new (self, NULL, on_ranks_peeked, NULL);
      GPtrArray *all = g_ptr_array_new_with_free_func (g_object_unref);
      for (int i = 0; i < n_files; i++)
        g_ptr_array_add (all, g_object_ref (files[i]));
      g_task_set_task_data (task, all, (GDestroyNotify) g_ptr_array_unref);
      self->n_peeking++;
      g_task_run_in_thread (task, peek_ranks_thread);
      return;
    }
  open_files (self, files, n_files, ranks);
}

/* Folded, the sidebar is a modal overlay over the workspace: a choice in it closes it,
 * so what was chosen can be seen. */
static void
close_folded_sidebar (IvWindow *self)
{
  if (adw_flap_get_folded (self->flap))
    g_object_set (self, "sidebar-visible", FALSE, NULL);
}

static void
on_sidebar_activated (IvSidebar *sidebar, IvDocument *document, IvWindow *self)
{
  iv_window_select (self, document);
  close_folded_sidebar (self);
}

/* The sidebar's model presets and saved configurations open in the Model workspace. */
static void
on_sidebar_preset (IvSidebar *sidebar, const char *name, IvWindow *self)
{
  adw_view_stack_set_visible_child_name (self->view_stack, "model");
  iv_model_view_select_model (iv_workspace_page_get_model_view (self->model_page), name);
  close_folded_sidebar (self);
}

static void
on_sidebar_saved (IvSidebar *sidebar, guint index, IvWindow *self)
{
  IvModelView *view = iv_workspace_page_get_model_view (self->model_page);
  g_autoptr (GError) error = NULL;

  adw_view_stack_set_visible_child_name (self->view_stack, "model");
  if (!iv_model_view_load_saved (view, index, &error))
    iv_window_toast (self, error->message);
  close_folded_sidebar (self);
}

/* "sidebar-visible" is whether the flap shows now; the setting keeps the choice made
 * with room for it. Folding hides the overlay; unfolding brings back that choice. */
static void
on_folded_changed (IvWindow *self)
{
  g_object_set (self, "sidebar-visible",
                !adw_flap_get_folded (self->flap)
                    && g_settings_get_boolean (self->settings, "sidebar-visible"),
                NULL);
}

static void
on_sidebar_visible_changed (IvWindow *self)
{
  if (!adw_flap_get_folded (self->flap)
      && g_settings_get_boolean (self->settings, "sidebar-visible") != self->sidebar_visible)
    g_settings_set_boolean (self->settings, "sidebar-visible", self->sidebar_visible);
}

static void
on_saved_changed (IvModelView *view, IvWindow *self)
{
  /* never waits: the list comes with a later "saved-changed" if it is still being read */
  iv_sidebar_set_saved (self->sidebar, iv_model_view_peek_saved (view));
}

static void
on_sidebar_close (IvSidebar *sidebar, IvDocument *document, IvWindow *self)
{
  iv_window_close_document (self, document);
}

/* Switching workspace with the switcher selects what that workspace shows. */
static void
on_visible_page_changed (IvWindow *self)
{
  IvDocument *doc = iv_workspace_page_get_document (_iv_window_get_visible_page (self));

  if (doc != self->selected)
    {
      g_set_object (&self->selected, doc);
      iv_sidebar_select (self->sidebar, doc);
    }
  _iv_window_update_actions (self);
}

/* @name for a menu label: underscores doubled (a single one would be a mnemonic), and
 * text from data made valid UTF-8. */
static char *
recent_menu_label (const char *name)
{
  g_autofree char *valid = iv_text_valid (name ? name : "", -1);
  g_auto (GStrv) parts = g_strsplit (valid, "_", -1);
  return g_strjoinv ("__", parts);
}

static void
rebuild_recent_menu (IvWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  const char *app_name = g_get_application_name ();
  guint shown = 0;

  g_menu_remove_all (self->recent_section);
  for (GList *l = items; l && shown < 8; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (!app_name || !gtk_recent_info_has_application (info, app_name)
          || !gtk_recent_info_exists (info))
        continue;
      /* Menu labels from a model are parsed for mnemonics: a name's own underscores
       * (qwen_concurrency1) are doubled so they show instead of underlining. */
      label = recent_menu_label (gtk_recent_info_get_display_name (info));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s",
                                         gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_section, item);
      shown++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, IvWindow *self)
{
  GSList *list;
  g_autoptr (GPtrArray) files = g_ptr_array_new ();

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  list = g_value_get_boxed (value);
  for (GSList *l = list; l; l = l->next)
    g_ptr_array_add (files, l->data);
  iv_window_open (self, (GFile **) files->pdata, (int) files->len);
  return files->len > 0;
}

static gboolean
iv_window_close_request (GtkWindow *window)
{
  IvWindow *self = IV_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);
  return GTK_WINDOW_CLASS (iv_window_parent_class)->close_request (window);
}

static void
iv_window_dispose (GObject *object)
{
  IvWindow *self = IV_WINDOW (object);

  /* Loads still running must not report into a window that is going away. */
  for (guint i = 0;
       self->documents && i < g_list_model_get_n_items (G_LIST_MODEL (self->documents)); i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      iv_document_cancel (doc);
    }
  if (self->recent_changed_id)
    g_clear_signal_handler (&self->recent_changed_id, gtk_recent_manager_get_default ());
  g_clear_handle_id (&self->deferred_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_WINDOW);
  g_clear_object (&self->selected);
  g_clear_object (&self->documents);
  g_clear_object (&self->last_toast);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (iv_window_parent_class)->dispose (object);
}

static void
iv_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  IvWindow *self = IV_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SIDEBAR_VISIBLE:
      g_value_set_boolean (value, self->sidebar_visible);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  IvWindow *self = IV_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SIDEBAR_VISIBLE:
      if (self->sidebar_visible != g_value_get_boolean (value))
        {
          self->sidebar_visible = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_window_class_init (IvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = iv_window_dispose;
  object_class->get_property = iv_window_get_property;
  object_class->set_property = iv_window_set_property;
  window_class->close_request = iv_window_close_request;

  properties[PROP_SIDEBAR_VISIBLE]
      = g_param_spec_boolean ("sidebar-visible", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (IV_TYPE_SIDEBAR);
  g_type_ensure (IV_TYPE_WORKSPACE_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, IvWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, runs_page);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, traces_page);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, model_page);
  gtk_widget_class_bind_template_child (widget_class, IvWindow, recent_section);

  _iv_window_class_init_actions (widget_class);
}

/* After the first frame: what the window shows later is built now, off the start-up's
 * critical path (the frame clock paints at a higher priority than this idle). */
static void
on_model_changed (IvModelView *view, IvWindow *self)
{
  IvTimelineView *tl = iv_workspace_page_get_timeline (self->traces_page);
  const IvResult *r = iv_model_view_get_result (view);

  if (tl && iv_timeline_view_get_area_table (tl))
    iv_trace_area_set_model (iv_timeline_view_get_area_table (tl), r && r->ok ? r : NULL);
}

static gboolean
build_deferred (gpointer data)
{
  IvWindow *self = data;
  IvModelView *view;

  self->deferred_id = 0;
  iv_sidebar_fill_presets (self->sidebar);
  /* the recent files' list is read from disk when first asked for */
  self->recent_changed_id = g_signal_connect_swapped (gtk_recent_manager_get_default (), "changed",
                                                      G_CALLBACK (rebuild_recent_menu), self);
  rebuild_recent_menu (self);
  view = iv_workspace_page_get_model_view (self->model_page);
  g_signal_connect_object (view, "saved-changed", G_CALLBACK (on_saved_changed), self, 0);
  on_saved_changed (view, self);
  /* a trace's GPU time by stage group is set beside the Model workspace's step */
  g_signal_connect_object (view, "changed", G_CALLBACK (on_model_changed), self, 0);
  on_model_changed (view, self);
  return G_SOURCE_REMOVE;
}

static void
on_first_frame (GtkWidget *widget, gpointer data)
{
  IvWindow *self = IV_WINDOW (widget);
  if (!self->deferred_id)
    self->deferred_id = g_idle_add_full (G_PRIORITY_LOW, build_deferred, self, NULL);
}

static void
iv_window_init (IvWindow *self)
{
  GtkDropTarget *drop;
  gboolean has_samples;

  self->sidebar_visible = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = iv_settings_new ();
  self->documents = g_list_store_new (IV_TYPE_DOCUMENT);
  iv_sidebar_set_model (self->sidebar, G_LIST_MODEL (self->documents));
  g_signal_connect (self->sidebar, "document-activated", G_CALLBACK (on_sidebar_activated), self);
  g_signal_connect (self->sidebar, "close-requested", G_CALLBACK (on_sidebar_close), self);
  g_signal_connect (self->sidebar, "preset-activated", G_CALLBACK (on_sidebar_preset), self);
  g_signal_connect (self->sidebar, "saved-activated", G_CALLBACK (on_sidebar_saved), self);
  /* the Model workspace (and with it the saved configurations the sidebar lists) is
   * made once the window has shown its first frame */
  iv_first_frame_connect (GTK_WIDGET (self), on_first_frame, NULL);
  g_signal_connect_swapped (self->view_stack, "notify::visible-child",
                            G_CALLBACK (on_visible_page_changed), self);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  self->sidebar_visible = g_settings_get_boolean (self->settings, "sidebar-visible");
  g_object_bind_property (self, "sidebar-visible", self->flap, "reveal-flap",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_signal_connect_swapped (self, "notify::sidebar-visible",
                            G_CALLBACK (on_sidebar_visible_changed), self);
  g_signal_connect_swapped (self->flap, "notify::folded", G_CALLBACK (on_folded_changed), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  has_samples = iv_samples_get_dir () != NULL;
  iv_workspace_page_set_has_samples (self->runs_page, has_samples);
  iv_workspace_page_set_has_samples (self->traces_page, has_samples);
  /* No model configuration is bundled: the Model page offers Open only. */
  iv_workspace_page_set_has_samples (self->model_page, FALSE);
  _iv_window_update_actions (self);
}

IvWindow *
iv_window_new (AdwApplication *application)
{
  return g_object_new (IV_TYPE_WINDOW, "application", application, NULL);
}
