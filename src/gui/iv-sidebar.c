/* iv-sidebar.c: rows are bound to their document's properties, so a row follows its
 * load (progress, then a summary) without the window touching it. The list is kept
 * sorted by group by the window; headers appear where the group changes. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-sidebar.h"
#include "iv-plain-text.h"
#include "iv-safe-text.h"
#include "iv-tooltip.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-preset.h"
#include "iv-saved.h"

#include <string.h>

struct _IvSidebar
{
  GtkWidget parent_instance;

  GtkWidget *scroller; /* bound so that dispose_template unparents it */
  GtkListBox *list;
  GtkBox *model_section;
  GtkSearchEntry *preset_search;
  GtkListBox *presets;
  GtkListBox *saved;
  GtkWidget *saved_title;
  GPtrArray *saved_list; /* IvSaved, the Model workspace's: rows for [0 .. saved_built - 1] */
  guint saved_built;
  guint saved_idle; /* adds the other rows, a slice per main-loop turn */
  char *filter;     /* casefolded search text */
  GListModel *documents;
  gboolean selecting; /* set while the selection is changed from code */
};

G_DEFINE_FINAL_TYPE (IvSidebar, iv_sidebar, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_ACTIVATED,
  SIGNAL_CLOSE_REQUESTED,
  SIGNAL_PRESET_ACTIVATED,
  SIGNAL_SAVED_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char *
iv_sidebar_group_title (IvGroup group)
{
  switch (group)
    {
    case IV_GROUP_TRACES:
      return _ ("Traces");
    case IV_GROUP_MODEL:
      return _ ("Model configurations");
    case IV_GROUP_RUNS:
    default:
      return _ ("Runs");
    }
}

static IvDocument *
row_document (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "iv-document");
}

static void
on_close_clicked (GtkButton *button, IvSidebar *self)
{
  IvDocument *doc = g_object_get_data (G_OBJECT (button), "iv-document");
  g_signal_emit (self, signals[SIGNAL_CLOSE_REQUESTED], 0, doc);
}

static gboolean
close_icon_from_loading (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_string (to, g_value_get_boolean (from) ? "process-stop-symbolic"
                                                     : "window-close-symbolic");
  return TRUE;
}

static gboolean
close_tooltip_from_loading (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_string (to, g_value_get_boolean (from) ? _ ("Stop Loading") : _ ("Close"));
  return TRUE;
}

static void
update_icon (IvDocument *doc, GParamSpec *pspec, GtkImage *image)
{
  gtk_image_set_from_icon_name (image, iv_document_get_icon_name (doc));
}

/* A row's title (cut as @title_ellipsize says) over its subtitle in a dim caption, both
 * at the start. */
static void
style_two_lines (GtkWidget *title, PangoEllipsizeMode title_ellipsize, GtkWidget *subtitle)
{
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), title_ellipsize);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
}

GMenuModel *
iv_sidebar_compare_menu (IvSidebar *self, IvDocument *document)
{
  GMenu *menu = g_menu_new ();
  guint at = G_MAXUINT, n;

  g_return_val_if_fail (IV_IS_SIDEBAR (self), G_MENU_MODEL (menu));
  n = self->documents ? g_list_model_get_n_items (self->documents) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (self->documents, i);
      if (doc == document)
        at = i;
    }
  if (at == G_MAXUINT || !iv_document_get_trace (document))
    return G_MENU_MODEL (menu);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (self->documents, i);
      g_autofree char *label = NULL, *title = NULL;
      g_autoptr (GMenuItem) item = NULL;
      if (i == at || !iv_document_get_trace (doc))
        continue;
      /* a file name with underscores must not turn into mnemonics */
      title = iv_text_valid (iv_document_get_title (doc), -1);
      label = g_strdup_printf (_ ("Compare with “%s”"), title);
      item = g_menu_item_new (NULL, NULL);
      g_menu_item_set_attribute (item, "label", "s", label);
      g_menu_item_set_attribute (item, "use-markup", "b", FALSE);
      g_menu_item_set_action_and_target_value (item, "win.compare-traces",
                                               g_variant_new ("(uu)", at, i));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

static void
on_popover_closed (GtkPopover *popover)
{
  /* unparented once its own closing has run */
  g_idle_add_once ((GSourceOnceFunc) gtk_widget_unparent, popover);
}

/* A trace's context menu at (@x, @y) of its @row: compare it with each other loaded
 * trace. FALSE when there is nothing to compare it with. */
static gboolean
popup_compare_menu (IvSidebar *self, GtkWidget *row, double x, double y)
{
  g_autoptr (GMenuModel) menu
      = iv_sidebar_compare_menu (self, row_document (GTK_LIST_BOX_ROW (row)));
  GtkWidget *popover;

  if (g_menu_model_get_n_items (menu) == 0)
    return FALSE;
  popover = gtk_popover_menu_new_from_model (menu);
  gtk_widget_set_parent (popover, row);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle){ (int) x, (int) y, 1, 1 });
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  g_signal_connect (popover, "closed", G_CALLBACK (on_popover_closed), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
  return TRUE;
}

/* A right click (or a long press) on a trace offers to compare it. */
static void
on_row_context (GtkGestureClick *gesture, int n_press, double x, double y, IvSidebar *self)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  if (popup_compare_menu (self, row, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_row_long_press (GtkGestureLongPress *gesture, double x, double y, IvSidebar *self)
{
  popup_compare_menu (self, gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture)), x, y);
}

/* Shift+F10 or the Menu key: the same menu from the keyboard, at the row's start. */
static gboolean
on_row_menu_key (GtkWidget *row, GVariant *args, gpointer self)
{
  return popup_compare_menu (self, row, 12, gtk_widget_get_height (row) / 2.0);
}

static GtkWidget *
create_row (gpointer item, gpointer user_data)
{
  IvSidebar *self = user_data;
  IvDocument *doc = item;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (iv_document_get_icon_name (doc));
  GtkWidget *title = gtk_label_new (iv_document_get_title (doc));
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *progress = gtk_progress_bar_new ();
  GtkWidget *close = gtk_button_new ();
  g_autofree char *path = g_file_get_path (iv_document_get_file (doc));
  g_autofree char *shown_path = path ? g_filename_display_name (path) : NULL;

  gtk_widget_add_css_class (row, "iv-sidebar-row");
  g_object_set_data_full (G_OBJECT (row), "iv-document", g_object_ref (doc), g_object_unref);
  gtk_widget_set_tooltip_text (row, shown_path); /* a path's bytes, made valid UTF-8 */
  iv_tooltip_wrap (row);

  style_two_lines (title, PANGO_ELLIPSIZE_MIDDLE, subtitle);
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_widget_set_valign (labels, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (labels), title);
  gtk_box_append (GTK_BOX (labels), subtitle);
  gtk_box_append (GTK_BOX (labels), progress);

  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  gtk_widget_set_valign (close, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (close), "iv-document", g_object_ref (doc), g_object_unref);
  g_signal_connect (close, "clicked", G_CALLBACK (on_close_clicked), self);

  g_object_bind_property (doc, "subtitle", subtitle, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (doc, "progress", progress, "fraction", G_BINDING_SYNC_CREATE);
  g_object_bind_property (doc, "loading", progress, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (doc, "loading", close, "icon-name", G_BINDING_SYNC_CREATE,
                               close_icon_from_loading, NULL, NULL, NULL);
  g_object_bind_property_full (doc, "loading", close, "tooltip-text", G_BINDING_SYNC_CREATE,
                               close_tooltip_from_loading, NULL, NULL, NULL);
  g_signal_connect_object (doc, "notify::state", G_CALLBACK (update_icon), icon, 0);
  {
    /* whether it is a trace is known once loaded: the menu is made at the click */
    GtkGesture *context = gtk_gesture_click_new ();
    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
    g_signal_connect (context, "pressed", G_CALLBACK (on_row_context), self);
    gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (context));
    context = gtk_gesture_long_press_new ();
    gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (context), TRUE);
    g_signal_connect (context, "pressed", G_CALLBACK (on_row_long_press), self);
    gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (context));
  }
  {
    GtkEventController *keys = gtk_shortcut_controller_new ();
    gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (keys),
        gtk_shortcut_new (
            gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_Menu, 0)),
            gtk_callback_action_new (on_row_menu_key, self, NULL)));
    gtk_widget_add_controller (row, keys);
  }

  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), labels);
  gtk_box_append (GTK_BOX (box), close);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
update_header (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  IvGroup group = iv_document_get_group (row_document (row));
  GtkWidget *header;

  if (before && iv_document_get_group (row_document (before)) == group)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  header = gtk_label_new (iv_sidebar_group_title (group));
  gtk_label_set_xalign (GTK_LABEL (header), 0);
  gtk_widget_add_css_class (header, "heading");
  gtk_widget_add_css_class (header, "dim-label");
  gtk_widget_add_css_class (header, "iv-sidebar-header");
  gtk_list_box_row_set_header (row, header);
}

static void
on_row_selected (GtkListBox *list, GtkListBoxRow *row, IvSidebar *self)
{
  if (row && !self->selecting)
    g_signal_emit (self, signals[SIGNAL_ACTIVATED], 0, row_document (row));
}

/* ---- model presets and saved configurations ---------------------------------------- */

static const IvModel *
row_preset (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "iv-preset");
}

static void
preset_header (GtkListBoxRow *row, GtkListBoxRow *before, gpointer user_data)
{
  const IvModel *m = row_preset (row);
  GtkWidget *header;

  if (before && g_strcmp0 (row_preset (before)->family, m->family) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  header = gtk_label_new (m->family);
  gtk_label_set_xalign (GTK_LABEL (header), 0);
  gtk_widget_add_css_class (header, "caption-heading");
  gtk_widget_add_css_class (header, "dim-label");
  gtk_widget_add_css_class (header, "iv-sidebar-family");
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_top (header, 8);
  gtk_widget_set_margin_bottom (header, 2);
  gtk_list_box_row_set_header (row, header);
}

static gboolean
preset_visible (GtkListBoxRow *row, gpointer user_data)
{
  IvSidebar *self = user_data;
  const char *hay = g_object_get_data (G_OBJECT (row), "iv-search");
  return !self->filter || !*self->filter || strstr (hay, self->filter) != NULL;
}

static void
on_preset_search (IvSidebar *self)
{
  g_free (self->filter);
  self->filter = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->preset_search)), -1);
  gtk_list_box_invalidate_filter (self->presets);
  gtk_list_box_invalidate_headers (self->presets);
}

static void
on_preset_activated (GtkListBox *list, GtkListBoxRow *row, IvSidebar *self)
{
  g_signal_emit (self, signals[SIGNAL_PRESET_ACTIVATED], 0, row_preset (row)->name);
}

static void
on_saved_activated (GtkListBox *list, GtkListBoxRow *row, IvSidebar *self)
{
  g_signal_emit (self, signals[SIGNAL_SAVED_ACTIVATED], 0,
                 (guint) gtk_list_box_row_get_index (row));
}

static GtkWidget *
two_line_row (const char *title, const char *subtitle)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *t = gtk_label_new (NULL);
  GtkWidget *s = gtk_label_new (NULL);

  /* saved configurations' names come from a file */
  iv_label_set_valid_text (GTK_LABEL (t), title);
  iv_label_set_valid_text (GTK_LABEL (s), subtitle);

  style_two_lines (t, PANGO_ELLIPSIZE_END, s);
  gtk_box_append (GTK_BOX (box), t);
  gtk_box_append (GTK_BOX (box), s);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static GtkWidget *
section_title (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "iv-sidebar-header");
  return label;
}

/* The presets in their table's order, which keeps families together; each row is
 * searchable by name, family and Hugging Face id. Filled after the window's first frame
 * (iv_sidebar_fill_presets): 46 rows of text are not worth delaying it for. */
void
iv_sidebar_fill_presets (IvSidebar *self)
{
  GPtrArray *presets;

  g_return_if_fail (IV_IS_SIDEBAR (self));
  if (gtk_widget_get_first_child (GTK_WIDGET (self->presets)))
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->model_section), TRUE);
  presets = iv_presets_get ();
  for (guint i = 0; i < presets->len; i++)
    {
      const IvModel *m = presets->pdata[i];
      g_autofree char *params = g_strdup_printf (_ ("%.3g B parameters"), m->params_total / 1e9);
      g_autofree char *hay
          = g_strdup_printf ("%s %s %s", m->name, m->family, m->hf_id ? m->hf_id : "");
      GtkWidget *row = two_line_row (m->name, params);
      g_object_set_data (G_OBJECT (row), "iv-preset", (gpointer) m);
      g_object_set_data_full (G_OBJECT (row), "iv-search", g_utf8_casefold (hay, -1), g_free);
      gtk_widget_set_tooltip_text (row, m->hf_id);
      gtk_list_box_append (self->presets, row);
    }
}

static void
build_model_section (IvSidebar *self)
{
  self->preset_search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->preset_search, "placeholder-text", _ ("Search model presets"), NULL);
  gtk_widget_set_margin_start (GTK_WIDGET (self->preset_search), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->preset_search), 6);
  g_signal_connect_swapped (self->preset_search, "search-changed", G_CALLBACK (on_preset_search),
                            self);
  self->presets = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->presets), "navigation-sidebar");
  gtk_list_box_set_selection_mode (self->presets, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->presets, TRUE);
  gtk_list_box_set_header_func (self->presets, preset_header, NULL, NULL);
  gtk_list_box_set_filter_func (self->presets, preset_visible, self, NULL);
  g_signal_connect (self->presets, "row-activated", G_CALLBACK (on_preset_activated), self);
  self->saved = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->saved), "navigation-sidebar");
  gtk_list_box_set_selection_mode (self->saved, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->saved, TRUE);
  g_signal_connect (self->saved, "row-activated", G_CALLBACK (on_saved_activated), self);
  self->saved_title = section_title (_ ("Saved configurations"));

  gtk_box_append (self->model_section, self->saved_title);
  gtk_box_append (self->model_section, GTK_WIDGET (self->saved));
  gtk_box_append (self->model_section, section_title (_ ("Model presets")));
  gtk_box_append (self->model_section, GTK_WIDGET (self->preset_search));
  gtk_box_append (self->model_section, GTK_WIDGET (self->presets));
  gtk_widget_set_visible (self->saved_title, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->saved), FALSE);
  /* shown with its rows (iv_sidebar_fill_presets): its search entry is not free */
  gtk_widget_set_visible (GTK_WIDGET (self->model_section), FALSE);
}

/* What a saved configuration's row shows, which is also how a row is matched to it. */
static char *
saved_subtitle (const IvSaved *sv)
{
  return g_strdup_printf ("%s · %s · TP %" G_GINT64_FORMAT " · CP %" G_GINT64_FORMAT, sv->model,
                          sv->hardware, sv->config.t, sv->config.c);
}

static char *
saved_key (const IvSaved *sv, const char *subtitle)
{
  /* the name's length first: no name and subtitle run together into another pair's */
  return g_strdup_printf ("%" G_GSIZE_FORMAT ":%s%s", strlen (sv->name), sv->name, subtitle);
}

static void
append_saved_row (IvSidebar *self, const IvSaved *sv)
{
  g_autofree char *sub = saved_subtitle (sv);
  GtkWidget *row = two_line_row (sv->name, sub);

  g_object_set_data_full (G_OBJECT (row), "iv-saved-key", saved_key (sv, sub), g_free);
  gtk_list_box_append (self->saved, row);
}

/* Rows for the configurations that have none yet, for at most @budget_us; TRUE when all
 * have one. Thousands of saved configurations get theirs a slice per main-loop turn, so
 * the window keeps drawing meanwhile. */
static gboolean
build_saved_rows (IvSidebar *self, gint64 budget_us)
{
  gint64 until = g_get_monotonic_time () + budget_us;

  while (self->saved_list && self->saved_built < self->saved_list->len
         && g_get_monotonic_time () < until)
    append_saved_row (self, self->saved_list->pdata[self->saved_built++]);
  return !self->saved_list || self->saved_built == self->saved_list->len;
}

static gboolean
build_saved_rows_idle (gpointer data)
{
  IvSidebar *self = data;

  if (!build_saved_rows (self, 8000)) /* half a frame at 60 Hz */
    return G_SOURCE_CONTINUE;
  self->saved_idle = 0;
  return G_SOURCE_REMOVE;
}

/* The rows are brought in line with @saved rather than made anew: a save adds one row, a
 * delete takes one away, and the thousands of others stay (making them all again after
 * every change was the quadratic part with many saved configurations). A row is kept
 * while it shows what the configuration at its place would show. */
void
iv_sidebar_set_saved (IvSidebar *self, GPtrArray *saved)
{
  GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->saved));
  guint i = 0;

  g_return_if_fail (IV_IS_SIDEBAR (self));
  if (saved)
    g_ptr_array_ref (saved);
  g_clear_pointer (&self->saved_list, g_ptr_array_unref);
  self->saved_list = saved;
  for (; saved && row && i < MIN (saved->len, self->saved_built); i++)
    {
      const IvSaved *sv = saved->pdata[i];
      g_autofree char *sub = saved_subtitle (sv);
      g_autofree char *key = saved_key (sv, sub);
      while (row && g_strcmp0 (g_object_get_data (G_OBJECT (row), "iv-saved-key"), key) != 0)
        {
          GtkWidget *gone = row;
          row = gtk_widget_get_next_sibling (row);
          gtk_list_box_remove (self->saved, gone);
        }
      if (!row)
        break;
      row = gtk_widget_get_next_sibling (row);
    }
  while (row)
    {
      GtkWidget *gone = row;
      row = gtk_widget_get_next_sibling (row);
      gtk_list_box_remove (self->saved, gone);
    }
  self->saved_built = i;
  if (!build_saved_rows (self, 20000) && !self->saved_idle)
    self->saved_idle = g_idle_add (build_saved_rows_idle, self);
  gtk_widget_set_visible (self->saved_title, saved && saved->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->saved), saved && saved->len > 0);
}

void
iv_sidebar_set_preset_filter (IvSidebar *self, const char *text)
{
  g_return_if_fail (IV_IS_SIDEBAR (self));
  gtk_editable_set_text (GTK_EDITABLE (self->preset_search), text);
  on_preset_search (self);
}

guint
iv_sidebar_count_presets_shown (IvSidebar *self)
{
  guint n = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->presets)); row;
       row = gtk_widget_get_next_sibling (row))
    n += GTK_IS_LIST_BOX_ROW (row) && preset_visible (GTK_LIST_BOX_ROW (row), self);
  return n;
}

static void
iv_sidebar_dispose (GObject *object)
{
  IvSidebar *self = IV_SIDEBAR (object);

  g_clear_handle_id (&self->saved_idle, g_source_remove);
  g_clear_pointer (&self->saved_list, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_SIDEBAR);
  g_clear_object (&self->documents);
  g_clear_pointer (&self->filter, g_free);
  G_OBJECT_CLASS (iv_sidebar_parent_class)->dispose (object);
}

static void
iv_sidebar_class_init (IvSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_sidebar_dispose;

  signals[SIGNAL_ACTIVATED]
      = g_signal_new ("document-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, IV_TYPE_DOCUMENT);
  signals[SIGNAL_CLOSE_REQUESTED]
      = g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, IV_TYPE_DOCUMENT);
  signals[SIGNAL_PRESET_ACTIVATED]
      = g_signal_new ("preset-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_SAVED_ACTIVATED]
      = g_signal_new ("saved-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, IvSidebar, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvSidebar, list);
  gtk_widget_class_bind_template_child (widget_class, IvSidebar, model_section);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ivsidebar");
}

static void
iv_sidebar_init (IvSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_header_func (self->list, update_header, NULL, NULL);
  build_model_section (self);
}

void
iv_sidebar_set_model (IvSidebar *self, GListModel *documents)
{
  g_return_if_fail (IV_IS_SIDEBAR (self));

  g_set_object (&self->documents, documents);
  gtk_list_box_bind_model (self->list, documents, create_row, self, NULL);
}

void
iv_sidebar_select (IvSidebar *self, IvDocument *document)
{
  g_return_if_fail (IV_IS_SIDEBAR (self));

  self->selecting = TRUE;
  if (!document)
    gtk_list_box_unselect_all (self->list);
  else
    for (guint i = 0; self->documents && i < g_list_model_get_n_items (self->documents); i++)
      {
        g_autoptr (IvDocument) doc = g_list_model_get_item (self->documents, i);
        if (doc == document)
          {
            gtk_list_box_select_row (self->list,
                                     gtk_list_box_get_row_at_index (self->list, (int) i));
            break;
          }
      }
  self->selecting = FALSE;
}
