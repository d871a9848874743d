/* iv-model-stages.c: the per-stage table on screen — a GtkColumnView sorted by any
 * column, the selected stage's formula with symbols and with numbers under it, and Copy
 * as CSV. Each row is an IvStageItem holding one stage's numbers as properties, so the
 * column sorters compare them directly. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-stages.h"

#include <glib/gi18n.h>

#include "iv-glossary.h"
#include "iv-units.h"

/* ---- IvStageItem ------------------------------------------------------------------ */

#define IV_TYPE_STAGE_ITEM (iv_stage_item_get_type ())
G_DECLARE_FINAL_TYPE (IvStageItem, iv_stage_item, IV, STAGE_ITEM, GObject)

enum
{
  COL_ORDER, COL_FLOPS, COL_BYTES, COL_COMM, COL_COMPUTE, COL_MEMORY, COL_COMM_TIME, COL_VISIBLE,
  N_NUMBERS
};

struct _IvStageItem
{
  GObject parent_instance;
  IvStageId id;
  IvBound bound;
  double v[N_NUMBERS];
  char *formula, *formula_values;
};

G_DEFINE_FINAL_TYPE (IvStageItem, iv_stage_item, G_TYPE_OBJECT)

static const char *const number_props[N_NUMBERS] = {
  "order", "flops", "bytes", "comm", "compute", "memory", "comm-time", "visible",
};

static void
iv_stage_item_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  IvStageItem *self = IV_STAGE_ITEM (object);
  if (prop_id >= 1 && prop_id <= N_NUMBERS)
    g_value_set_double (value, self->v[prop_id - 1]);
  else if (prop_id == N_NUMBERS + 1)
    g_value_set_string (value, iv_bound_to_string (self->bound));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
iv_stage_item_finalize (GObject *object)
{
  IvStageItem *self = IV_STAGE_ITEM (object);
  g_free (self->formula);
  g_free (self->formula_values);
  G_OBJECT_CLASS (iv_stage_item_parent_class)->finalize (object);
}

static void
iv_stage_item_class_init (IvStageItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = iv_stage_item_get_property;
  object_class->finalize = iv_stage_item_finalize;
  for (guint i = 0; i < N_NUMBERS; i++)
    g_object_class_install_property (object_class, i + 1,
        g_param_spec_double (number_props[i], NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, N_NUMBERS + 1,
      g_param_spec_string ("bound", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
iv_stage_item_init (IvStageItem *self)
{
}

/* ---- the view --------------------------------------------------------------------- */

struct _IvModelStages
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GListStore *items;
  GtkColumnView *view;
  GtkSingleSelection *selection;
  GtkLabel *formula;
  char *csv;
};

G_DEFINE_FINAL_TYPE (IvModelStages, iv_model_stages, GTK_TYPE_WIDGET)

typedef struct
{
  const char *title;
  int number;        /* index into v, or -1 for text columns */
  int kind;          /* 0 id, 1 name, 2 count, 3 bytes, 4 seconds, 5 bound */
} Column;

/* What answers "where does the time go" first; the quantities behind it after. */
static const Column columns[] = {
  { N_("Stage"), COL_ORDER, 0 },
  { N_("Name"), -1, 1 },
  { N_("Visible"), COL_VISIBLE, 4 },
  { N_("Bound"), -1, 5 },
  { N_("Compute"), COL_COMPUTE, 4 },
  { N_("Memory"), COL_MEMORY, 4 },
  { N_("Comm time"), COL_COMM_TIME, 4 },
  { N_("FLOPs"), COL_FLOPS, 2 },
  { N_("Bytes"), COL_BYTES, 3 },
  { N_("Comm bytes"), COL_COMM, 3 },
};

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const Column *col = data;
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), col->kind >= 2 && col->kind <= 4 ? 1 : 0);
  if (col->kind >= 2 && col->kind <= 4)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static char *
cell_text (const IvStageItem *it, const Column *col)
{
  double v = col->number >= 0 ? it->v[col->number] : 0;
  switch (col->kind)
    {
    case 0: return g_strdup (iv_stage_id (it->id));
    case 1: return g_strdup (iv_stage_name (it->id));
    case 2: return v > 0 ? iv_units_format_count (v) : g_strdup ("–");
    case 3: return v > 0 ? iv_units_format_bytes (v) : g_strdup ("–");
    case 4: return v > 0 ? iv_units_format_seconds (v) : g_strdup ("–");
    default: return g_strdup (iv_bound_to_string (it->bound));
    }
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  IvStageItem *it = gtk_list_item_get_item (item);
  g_autofree char *text = cell_text (it, data);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
on_selected (IvModelStages *self)
{
  IvStageItem *it = gtk_single_selection_get_selected_item (self->selection);
  g_autofree char *text = NULL;

  if (!it)
    {
      gtk_label_set_text (self->formula, _("Select a stage to see its formula."));
      return;
    }
  text = g_strdup_printf ("%s %s\n%s\n%s", iv_stage_id (it->id), iv_stage_name (it->id), it->formula,
                          it->formula_values);
  gtk_label_set_text (self->formula, text);
}

static void
on_copy (IvModelStages *self)
{
  if (self->csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->csv);
}

static void
iv_model_stages_dispose (GObject *object)
{
  IvModelStages *self = IV_MODEL_STAGES (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->items);
  G_OBJECT_CLASS (iv_model_stages_parent_class)->dispose (object);
}

static void
iv_model_stages_finalize (GObject *object)
{
  g_free (IV_MODEL_STAGES (object)->csv);
  G_OBJECT_CLASS (iv_model_stages_parent_class)->finalize (object);
}

static void
iv_model_stages_class_init (IvModelStagesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_model_stages_dispose;
  object_class->finalize = iv_model_stages_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
iv_model_stages_init (IvModelStages *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *copy = gtk_button_new_with_mnemonic (_("Copy as _CSV"));
  GtkSortListModel *sorted;

  self->items = g_list_store_new (IV_TYPE_STAGE_ITEM);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->items)), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), (gpointer) &columns[i]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), (gpointer) &columns[i]);
      col = gtk_column_view_column_new (_(columns[i].title), factory);
      if (columns[i].number >= 0)
        gtk_column_view_column_set_sorter (col, GTK_SORTER (gtk_numeric_sorter_new (
            gtk_property_expression_new (IV_TYPE_STAGE_ITEM, NULL, number_props[columns[i].number]))));
      else if (columns[i].kind == 5)
        gtk_column_view_column_set_sorter (col, GTK_SORTER (gtk_string_sorter_new (
            gtk_property_expression_new (IV_TYPE_STAGE_ITEM, NULL, "bound"))));
      gtk_column_view_column_set_expand (col, columns[i].kind == 1);
      gtk_column_view_append_column (self->view, col);
      g_object_unref (col);
    }
  gtk_sort_list_model_set_sorter (sorted, gtk_column_view_get_sorter (self->view));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_show_row_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (on_selected), self);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  self->formula = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->formula, 0);
  gtk_label_set_wrap (self->formula, TRUE);
  gtk_label_set_wrap_mode (self->formula, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (self->formula, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->formula), "monospace");
  gtk_widget_set_margin_start (GTK_WIDGET (self->formula), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->formula), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->formula), 8);
  gtk_widget_set_halign (copy, GTK_ALIGN_END);
  gtk_widget_set_margin_end (copy, 12);
  gtk_widget_set_margin_top (copy, 6);
  gtk_widget_set_tooltip_text (copy, _("Copy every stage of every layer kind as CSV"));
  g_signal_connect_swapped (copy, "clicked", G_CALLBACK (on_copy), self);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self->box), copy);
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->formula));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  on_selected (self);
}

GtkWidget *
iv_model_stages_new (void)
{
  return g_object_new (IV_TYPE_MODEL_STAGES, NULL);
}

void
iv_model_stages_set_result (IvModelStages *self, const IvResult *r, guint kind)
{
  const IvKindResult *k;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  IvStageId keep = IV_N_STAGES;

  g_return_if_fail (IV_IS_MODEL_STAGES (self));
  {
    IvStageItem *sel = gtk_single_selection_get_selected_item (self->selection);
    if (sel)
      keep = sel->id;
  }
  k = &r->kinds[MIN (kind, r->n_kinds - 1)];
  for (int s = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      IvStageItem *it;
      if (!st->present)
        continue;
      it = g_object_new (IV_TYPE_STAGE_ITEM, NULL);
      it->id = s;
      it->bound = st->bound;
      it->v[COL_ORDER] = s;
      it->v[COL_FLOPS] = st->flops;
      it->v[COL_BYTES] = st->bytes;
      it->v[COL_COMM] = st->comm_bytes;
      it->v[COL_COMPUTE] = st->t_compute_s;
      it->v[COL_MEMORY] = st->t_memory_s;
      it->v[COL_COMM_TIME] = st->t_comm_s;
      it->v[COL_VISIBLE] = st->visible_s;
      it->formula = iv_stage_formula (r, MIN (kind, r->n_kinds - 1), s, FALSE);
      it->formula_values = iv_stage_formula (r, MIN (kind, r->n_kinds - 1), s, TRUE);
      g_ptr_array_add (items, it);
    }
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  g_free (self->csv);
  self->csv = iv_result_to_csv (r);
  /* The same stage stays selected as the sliders move. */
  for (guint i = 0; keep != IV_N_STAGES && i < g_list_model_get_n_items (G_LIST_MODEL (self->selection)); i++)
    {
      g_autoptr (IvStageItem) it = g_list_model_get_item (G_LIST_MODEL (self->selection), i);
      if (it->id == keep)
        gtk_single_selection_set_selected (self->selection, i);
    }
  on_selected (self);
}

const char *
iv_model_stages_get_csv (IvModelStages *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STAGES (self), NULL);
  return self->csv;
}

GtkColumnView *
iv_model_stages_get_column_view (IvModelStages *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STAGES (self), NULL);
  return self->view;
}
