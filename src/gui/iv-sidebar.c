/* iv-sidebar.c: rows are bound to their document's properties, so a row follows its
 * load (progress, then a summary) without the window touching it. The list is kept
 * sorted by group by the window; headers appear where the group changes. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-sidebar.h"

#include <glib/gi18n.h>

struct _IvSidebar
{
  GtkWidget parent_instance;

  GtkWidget *scroller; /* bound so that dispose_template unparents it */
  GtkListBox *list;
  GListModel *documents;
  gboolean selecting; /* set while the selection is changed from code */
};

G_DEFINE_FINAL_TYPE (IvSidebar, iv_sidebar, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_ACTIVATED,
  SIGNAL_CLOSE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char *
iv_sidebar_group_title (IvGroup group)
{
  switch (group)
    {
    case IV_GROUP_TRACES: return _("Traces");
    case IV_GROUP_MODEL: return _("Model configurations");
    case IV_GROUP_RUNS:
    default: return _("Runs");
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
  g_value_set_string (to, g_value_get_boolean (from) ? _("Stop Loading") : _("Close"));
  return TRUE;
}

static void
update_icon (IvDocument *doc, GParamSpec *pspec, GtkImage *image)
{
  gtk_image_set_from_icon_name (image, iv_document_get_icon_name (doc));
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

  gtk_widget_add_css_class (row, "iv-sidebar-row");
  g_object_set_data_full (G_OBJECT (row), "iv-document", g_object_ref (doc), g_object_unref);
  gtk_widget_set_tooltip_text (row, path);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
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

static void
iv_sidebar_dispose (GObject *object)
{
  IvSidebar *self = IV_SIDEBAR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_SIDEBAR);
  g_clear_object (&self->documents);
  G_OBJECT_CLASS (iv_sidebar_parent_class)->dispose (object);
}

static void
iv_sidebar_class_init (IvSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_sidebar_dispose;

  signals[SIGNAL_ACTIVATED] = g_signal_new ("document-activated", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, IV_TYPE_DOCUMENT);
  signals[SIGNAL_CLOSE_REQUESTED] = g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, IV_TYPE_DOCUMENT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, IvSidebar, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvSidebar, list);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "ivsidebar");
}

static void
iv_sidebar_init (IvSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_header_func (self->list, update_header, NULL, NULL);
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
            gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, (int) i));
            break;
          }
      }
  self->selecting = FALSE;
}
