/* iv-slice-details.c: see the header. The arguments are read back from the file when a
 * slice is shown (the trace keeps only their offsets) and parsed with the guarded parser;
 * the tree is capped so a slice with megabytes of arguments cannot stall the window. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-slice-details.h"
#include "iv-tooltip.h"

#include <glib/gi18n.h>

#include "iv-json-doc.h"
#include "iv-json-writer.h"
#include "iv-safe-text.h"
#include "iv-units.h"

/* Rows of the arguments tree shown at most, and how deep it opens. */
#define MAX_ARG_ROWS 400
#define MAX_ARG_DEPTH 12

struct _IvSliceDetails
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkLabel *title;
  GtkGrid *properties;
  GtkWidget *flows;
  GtkWidget *args_expander;
  GtkWidget *args;
  guint n_properties;
  guint n_arg_rows;
  GString *text; /* what is shown, for iv_slice_details_to_text */
};

G_DEFINE_FINAL_TYPE (IvSliceDetails, iv_slice_details, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_FOLLOW,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
clear_children (GtkWidget *box)
{
  GtkWidget *c;
  while ((c = gtk_widget_get_first_child (box)))
    gtk_widget_unparent (c);
}

/* A value label: selectable, ellipsized, whole in the tooltip — a value from the data can
 * be any length and must never widen the window. */
static GtkWidget *
value_label (const char *raw)
{
  /* arguments are parsed by json-glib, which keeps a lone \ud800 escape as bytes that are
   * not UTF-8: made valid before Pango */
  g_autofree char *text = iv_text_valid (raw, -1);
  GtkWidget *l = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (l), TRUE);
  gtk_widget_set_hexpand (l, TRUE);
  gtk_widget_set_tooltip_text (l, text);
  iv_tooltip_wrap (l);
  return l;
}

static void
add_property (IvSliceDetails *self, const char *name, const char *value)
{
  GtkWidget *key = gtk_label_new (name);

  gtk_label_set_xalign (GTK_LABEL (key), 0);
  gtk_widget_add_css_class (key, "dim-label");
  gtk_grid_attach (self->properties, key, 0, (int) self->n_properties, 1, 1);
  gtk_grid_attach (self->properties, value_label (value), 1, (int) self->n_properties, 1, 1);
  self->n_properties++;
  g_string_append_printf (self->text, "%s: %s\n", name, value);
}

static void
on_flow_clicked (GtkButton *button, IvSliceDetails *self)
{
  g_signal_emit (self, signals[SIGNAL_FOLLOW], 0,
                 GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (button), "iv-slice")));
}

static void
add_flows (IvSliceDetails *self, const IvTrace *t, gsize s)
{
  for (guint i = 0; i < t->flows->len; i++)
    {
      const IvFlow *f = &g_array_index (t->flows, IvFlow, i);
      gsize other = f->from == s ? f->to : f->to == s ? f->from : G_MAXSIZE;
      g_autofree char *label = NULL;
      GtkWidget *button;
      if (other >= t->n_slices)
        continue;
      label = g_strdup_printf (f->from == s ? _ ("Flow to %s →") : _ ("← Flow from %s"),
                               iv_trace_string (t, t->name[other]));
      /* Kernel names run to hundreds of characters: ellipsized, whole in the tooltip. */
      button = gtk_button_new_with_label (label);
      gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))),
                               PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_tooltip_text (button, label);
      iv_tooltip_wrap (button);
      gtk_widget_add_css_class (button, "flat");
      g_object_set_data (G_OBJECT (button), "iv-slice", GSIZE_TO_POINTER (other));
      g_signal_connect (button, "clicked", G_CALLBACK (on_flow_clicked), self);
      gtk_box_append (GTK_BOX (self->flows), button);
      g_string_append_printf (self->text, "%s\n", label);
    }
}

static char *
scalar_text (JsonNode *n)
{
  if (JSON_NODE_HOLDS_NULL (n))
    return g_strdup ("null");
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (n));
  return iv_json_to_string (n, FALSE);
}

static void add_node (IvSliceDetails *self, GtkWidget *box, const char *key, JsonNode *n,
                      guint depth, const char *path);

/* The members (or items) of a container, each a row or a branch. */
static void
add_children (IvSliceDetails *self, GtkWidget *box, JsonNode *n, guint depth, const char *path)
{
  if (JSON_NODE_HOLDS_OBJECT (n))
    {
      g_autoptr (GList) members = json_object_get_members (json_node_get_object (n));
      for (GList *m = members; m; m = m->next)
        {
          g_autofree char *sub = g_strdup_printf ("%s.%s", path, (const char *) m->data);
          add_node (self, box, m->data, json_object_get_member (json_node_get_object (n), m->data),
                    depth, sub);
        }
    }
  else
    {
      JsonArray *a = json_node_get_array (n);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *key = g_strdup_printf ("[%u]", i);
          g_autofree char *sub = g_strdup_printf ("%s%s", path, key);
          add_node (self, box, key, json_array_get_element (a, i), depth, sub);
        }
    }
}

static void
add_node (IvSliceDetails *self, GtkWidget *box, const char *key, JsonNode *n, guint depth,
          const char *path)
{
  gboolean container = JSON_NODE_HOLDS_OBJECT (n) || JSON_NODE_HOLDS_ARRAY (n);

  if (self->n_arg_rows >= MAX_ARG_ROWS)
    return;
  self->n_arg_rows++;
  if (container && depth < MAX_ARG_DEPTH)
    {
      guint count = JSON_NODE_HOLDS_OBJECT (n) ? json_object_get_size (json_node_get_object (n))
                                               : json_array_get_length (json_node_get_array (n));
      g_autofree char *label
          = g_strdup_printf (JSON_NODE_HOLDS_OBJECT (n) ? "%s  {%u}" : "%s  [%u]", key, count);
      g_autofree char *shown = iv_text_valid (label, -1);
      GtkWidget *expander = gtk_expander_new (shown);
      GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_widget_set_margin_start (inner, 14);
      /* the first level opens, deeper ones wait for a click */
      gtk_expander_set_expanded (GTK_EXPANDER (expander), depth == 0);
      gtk_expander_set_child (GTK_EXPANDER (expander), inner);
      gtk_box_append (GTK_BOX (box), expander);
      add_children (self, inner, n, depth + 1, path);
      return;
    }
  {
    g_autofree char *value = container ? iv_json_to_string (n, FALSE) : scalar_text (n);
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
    g_autofree char *shown_key = iv_text_valid (key, -1);
    GtkWidget *k = gtk_label_new (shown_key);
    gtk_label_set_xalign (GTK_LABEL (k), 0);
    gtk_widget_add_css_class (k, "dim-label");
    gtk_box_append (GTK_BOX (row), k);
    gtk_box_append (GTK_BOX (row), value_label (value));
    gtk_box_append (GTK_BOX (box), row);
    g_string_append_printf (self->text, "%s: %s\n", path, value);
  }
}

static void
show_args (IvSliceDetails *self, const IvTrace *t, gsize s)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *args = iv_trace_slice_args (t, s, &error);
  g_autoptr (JsonNode) root = NULL;

  self->n_arg_rows = 0;
  if (!args || !*args)
    {
      gtk_widget_set_visible (self->args_expander, error != NULL);
      if (error)
        gtk_box_append (GTK_BOX (self->args), value_label (error->message));
      return;
    }
  gtk_widget_set_visible (self->args_expander, TRUE);
  root = iv_json_parse (args, strlen (args), "args", &error);
  if (!root || !(JSON_NODE_HOLDS_OBJECT (root) || JSON_NODE_HOLDS_ARRAY (root)))
    {
      gtk_box_append (GTK_BOX (self->args), value_label (root ? args : error->message));
      return;
    }
  add_children (self, self->args, root, 0, "args");
  if (self->n_arg_rows >= MAX_ARG_ROWS)
    {
      g_autofree char *more = g_strdup_printf (_ ("… the first %d shown"), MAX_ARG_ROWS);
      gtk_box_append (GTK_BOX (self->args), value_label (more));
    }
}

void
iv_slice_details_set (IvSliceDetails *self, const IvTrace *t, gsize s)
{
  g_autofree char *start = NULL, *dur = NULL, *self_time = NULL;
  const IvRow *row;
  const IvTrack *track;
  const IvProcess *process;
  const char *cat;

  g_return_if_fail (IV_IS_SLICE_DETAILS (self));
  clear_children (GTK_WIDGET (self->properties));
  clear_children (self->flows);
  clear_children (self->args);
  self->n_properties = 0;
  g_string_truncate (self->text, 0);
  if (!t || s >= t->n_slices)
    {
      gtk_label_set_text (self->title, "");
      gtk_widget_set_visible (self->args_expander, FALSE);
      return;
    }
  row = &g_array_index (t->rows, IvRow, t->row[s]);
  track = &g_array_index (t->tracks, IvTrack, row->track);
  process = t->processes->pdata[track->process];
  {
    g_autofree char *name = iv_text_valid (iv_trace_string (t, t->name[s]), -1);
    gtk_label_set_text (self->title, name);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->title), name);
  }
  g_string_append_printf (self->text, "%s\n", iv_trace_string (t, t->name[s]));
  cat = iv_trace_string (t, t->cat[s]);
  if (cat && *cat)
    add_property (self, _ ("Category"), cat);
  start = iv_units_format_seconds ((t->start_ns[s] - t->t0_ns) * 1e-9);
  if (iv_trace_slice_is_open (t, s))
    {
      /* its length is up to the end of the trace, not a recorded duration */
      g_autofree char *to_end = iv_units_format_seconds (t->dur_ns[s] * 1e-9);
      dur = g_strdup_printf (_ ("did not end (%s to the end of the trace)"), to_end);
    }
  else
    dur = iv_units_format_seconds (t->dur_ns[s] * 1e-9);
  self_time = iv_units_format_seconds (t->self_ns[s] * 1e-9);
  add_property (self, _ ("Start"), start);
  add_property (self, _ ("Duration"), dur);
  add_property (self, _ ("Self time"), self_time);
  add_property (self, _ ("Thread"), track->name ? track->name : track->key);
  add_property (self, _ ("Process"), process->name ? process->name : process->key);
  /* The slices it is in, innermost first. */
  for (gsize p = iv_trace_parent (t, s), child = s; p != child;
       child = p, p = iv_trace_parent (t, p))
    add_property (self, _ ("In"), iv_trace_string (t, t->name[p]));
  add_flows (self, t, s);
  show_args (self, t, s);
}

char *
iv_slice_details_to_text (IvSliceDetails *self)
{
  g_return_val_if_fail (IV_IS_SLICE_DETAILS (self), NULL);
  return iv_text_valid (self->text->str, (gssize) self->text->len);
}

static void
iv_slice_details_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_SLICE_DETAILS);
  G_OBJECT_CLASS (iv_slice_details_parent_class)->dispose (object);
}

static void
iv_slice_details_finalize (GObject *object)
{
  g_string_free (IV_SLICE_DETAILS (object)->text, TRUE);
  G_OBJECT_CLASS (iv_slice_details_parent_class)->finalize (object);
}

static void
iv_slice_details_class_init (IvSliceDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_slice_details_dispose;
  object_class->finalize = iv_slice_details_finalize;
  signals[SIGNAL_FOLLOW] = g_signal_new ("follow", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-slice-details.ui");
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, title);
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, properties);
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, flows);
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, args_expander);
  gtk_widget_class_bind_template_child (widget_class, IvSliceDetails, args);
}

static void
iv_slice_details_init (IvSliceDetails *self)
{
  self->text = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  iv_tooltip_wrap (GTK_WIDGET (self->title));
}

GtkWidget *
iv_slice_details_new (void)
{
  return g_object_new (IV_TYPE_SLICE_DETAILS, NULL);
}
