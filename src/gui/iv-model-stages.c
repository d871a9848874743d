/* iv-model-stages.c: the per-stage table on screen — a GtkColumnView sorted by any
 * column, the selected stage's formula with symbols and with numbers under it, and Copy
 * as CSV. Each row is an IvStageItem holding one stage's numbers as properties, so the
 * columns and sorters declared in ui/iv-model-stages.ui read them directly; a slider step
 * that keeps the same stages updates the items in place (the rows stay), and the formula
 * and the CSV are written only for what is shown or copied. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-stages.h"

#include <glib/gi18n.h>

#include "iv-glossary.h"
#include "iv-text.h"
#include "iv-units.h"

/* ---- IvStageItem ------------------------------------------------------------------ */

#define IV_TYPE_STAGE_ITEM (iv_stage_item_get_type ())
G_DECLARE_FINAL_TYPE (IvStageItem, iv_stage_item, IV, STAGE_ITEM, GObject)

enum
{
  COL_ORDER,
  COL_FLOPS,
  COL_BYTES,
  COL_COMM,
  COL_COMPUTE,
  COL_MEMORY,
  COL_COMM_TIME,
  COL_VISIBLE,
  N_NUMBERS
};

struct _IvStageItem
{
  GObject parent_instance;
  IvStageId id;
  IvBound bound;
  double v[N_NUMBERS];
  gboolean decimal; /* a GPU server's bytes, in the datasheets' decimal units (§8) */
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
  else if (prop_id == N_NUMBERS + 2)
    g_value_set_string (value, iv_stage_id (self->id));
  else if (prop_id == N_NUMBERS + 3)
    g_value_set_string (value, iv_stage_name (self->id));
  else if (prop_id == N_NUMBERS + 4)
    g_value_take_string (value, iv_text_symbols_markup (iv_stage_name (self->id)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
iv_stage_item_class_init (IvStageItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = iv_stage_item_get_property;
  for (guint i = 0; i < N_NUMBERS; i++)
    g_object_class_install_property (
        object_class, i + 1,
        g_param_spec_double (number_props[i], NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (
      object_class, N_NUMBERS + 1,
      g_param_spec_string ("bound", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (
      object_class, N_NUMBERS + 2,
      g_param_spec_string ("stage", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (
      object_class, N_NUMBERS + 3,
      g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /* the name as Pango markup, its symbols typeset as the figures draw them */
  g_object_class_install_property (object_class, N_NUMBERS + 4,
                                   g_param_spec_string ("name-markup", NULL, NULL, NULL,
                                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
iv_stage_item_init (IvStageItem *self)
{
}

/* ---- the view --------------------------------------------------------------------- */

struct _IvModelStages
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GListStore *items;
  GtkColumnView *view;
  GtkSingleSelection *selection;
  GtkLabel *formula;

  char *csv;       /* made when first asked for after a result */
  IvResult result; /* what the selected stage's formula is written from */
  guint kind;
  gboolean has_result;
};

G_DEFINE_FINAL_TYPE (IvModelStages, iv_model_stages, GTK_TYPE_WIDGET)

/* Cell text, called by the columns' closures in the template; "–" where a stage has
 * none of that quantity. */
/* The Bound cell's style: the bound's name is also its CSS class (style.css colours it). */
static GStrv
bound_classes (GtkListItem *item, const char *bound)
{
  const char *classes[] = { "iv-bound", bound ? bound : "trivial", NULL };
  return g_strdupv ((char **) classes);
}

static char *
format_count (GtkListItem *item, double v)
{
  return v > 0 ? iv_units_format_count (v) : g_strdup ("–");
}

static char *
format_bytes (GtkListItem *item, double v)
{
  IvStageItem *it = item ? gtk_list_item_get_item (item) : NULL;
  if (!(v > 0))
    return g_strdup ("–");
  return it && it->decimal ? iv_units_format_si (v, "B") : iv_units_format_bytes (v);
}

static char *
format_seconds (GtkListItem *item, double v)
{
  return v > 0 ? iv_units_format_seconds (v) : g_strdup ("–");
}

static void
on_selected (IvModelStages *self)
{
  IvStageItem *it;
  g_autofree char *text = NULL, *formula = NULL, *values = NULL;

  /* The selection still reports while the template is being taken down. */
  if (!self->selection || !self->formula)
    return;
  it = gtk_single_selection_get_selected_item (self->selection);
  if (!it || !self->has_result)
    {
      gtk_label_set_text (self->formula, _ ("Select a stage to see its formula."));
      return;
    }
  /* only the selected stage's formulas are written, not every row's at every step */
  formula = iv_stage_formula (&self->result, self->kind, it->id, FALSE);
  values = iv_stage_formula (&self->result, self->kind, it->id, TRUE);
  text = g_strdup_printf ("%s %s\n%s\n%s", iv_stage_id (it->id), iv_stage_name (it->id), formula,
                          values);
  gtk_label_set_text (self->formula, text);
}

static void
on_copy (IvModelStages *self)
{
  const char *csv = iv_model_stages_get_csv (self);
  if (csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

static void
iv_model_stages_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_MODEL_STAGES);
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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_model_stages_dispose;
  object_class->finalize = iv_model_stages_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (IV_TYPE_STAGE_ITEM);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-stages.ui");
  gtk_widget_class_bind_template_child (widget_class, IvModelStages, box);
  gtk_widget_class_bind_template_child (widget_class, IvModelStages, items);
  gtk_widget_class_bind_template_child (widget_class, IvModelStages, view);
  gtk_widget_class_bind_template_child (widget_class, IvModelStages, selection);
  gtk_widget_class_bind_template_child (widget_class, IvModelStages, formula);
  gtk_widget_class_bind_template_callback (widget_class, on_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_copy);
  gtk_widget_class_bind_template_callback (widget_class, format_count);
  gtk_widget_class_bind_template_callback (widget_class, bound_classes);
  gtk_widget_class_bind_template_callback (widget_class, format_bytes);
  gtk_widget_class_bind_template_callback (widget_class, format_seconds);
}

static void
iv_model_stages_init (IvModelStages *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  on_selected (self);
}

GtkWidget *
iv_model_stages_new (void)
{
  return g_object_new (IV_TYPE_MODEL_STAGES, NULL);
}

/* @it given @st's numbers; @notify: say so for each, as the cells of a row kept read them */
static void
fill_item (IvStageItem *it, IvStageId id, const IvStage *st, gboolean decimal, gboolean notify)
{
  double v[N_NUMBERS] = {
    [COL_ORDER] = id,
    [COL_FLOPS] = st->flops,
    [COL_BYTES] = st->bytes,
    [COL_COMM] = st->comm_bytes,
    [COL_COMPUTE] = st->t_compute_s,
    [COL_MEMORY] = st->t_memory_s,
    [COL_COMM_TIME] = st->t_comm_s,
    [COL_VISIBLE] = st->visible_s,
  };

  it->id = id;
  it->decimal = decimal;
  if (notify && it->bound != st->bound)
    {
      it->bound = st->bound;
      g_object_notify (G_OBJECT (it), "bound");
    }
  it->bound = st->bound;
  for (int i = 0; i < N_NUMBERS; i++)
    if (it->v[i] != v[i])
      {
        it->v[i] = v[i];
        if (notify)
          g_object_notify (G_OBJECT (it), number_props[i]);
      }
}

void
iv_model_stages_set_result (IvModelStages *self, const IvResult *r, guint kind)
{
  const IvKindResult *k;
  GListModel *store;
  guint n_items, n = 0;
  IvStageId ids[IV_N_STAGES];
  gboolean same, decimal;

  g_return_if_fail (IV_IS_MODEL_STAGES (self));
  self->result = *r;
  self->kind = MIN (kind, r->n_kinds - 1);
  self->has_result = TRUE;
  g_clear_pointer (&self->csv, g_free);
  k = &r->kinds[self->kind];
  decimal = iv_hardware_is_gpu_server (r->hw);
  for (int s = 0; s < IV_N_STAGES; s++)
    if (k->stages[s].present)
      ids[n++] = s;

  store = G_LIST_MODEL (self->items);
  n_items = g_list_model_get_n_items (store);
  same = n_items == n;
  for (guint i = 0; same && i < n; i++)
    {
      g_autoptr (IvStageItem) it = g_list_model_get_item (store, i);
      same = it->id == ids[i];
    }
  if (same)
    {
      /* the same stages: the rows stay (and the selection with them), their cells follow
       * the numbers, and the order is made again for the column sorted by */
      GtkSorter *sorter = gtk_column_view_get_sorter (self->view);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (IvStageItem) it = g_list_model_get_item (store, i);
          fill_item (it, ids[i], &k->stages[ids[i]], decimal, TRUE);
        }
      if (sorter)
        gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
    }
  else
    {
      g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
      IvStageId keep = IV_N_STAGES;
      IvStageItem *sel = gtk_single_selection_get_selected_item (self->selection);
      if (sel)
        keep = sel->id;
      for (guint i = 0; i < n; i++)
        {
          IvStageItem *it = g_object_new (IV_TYPE_STAGE_ITEM, NULL);
          fill_item (it, ids[i], &k->stages[ids[i]], decimal, FALSE);
          g_ptr_array_add (items, it);
        }
      g_list_store_splice (self->items, 0, n_items, items->pdata, items->len);
      /* The same stage stays selected as the sliders move. */
      for (guint i = 0;
           keep != IV_N_STAGES && i < g_list_model_get_n_items (G_LIST_MODEL (self->selection));
           i++)
        {
          g_autoptr (IvStageItem) it = g_list_model_get_item (G_LIST_MODEL (self->selection), i);
          if (it->id == keep)
            gtk_single_selection_set_selected (self->selection, i);
        }
    }
  on_selected (self);
}

const char *
iv_model_stages_get_csv (IvModelStages *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STAGES (self), NULL);
  if (!self->csv && self->has_result)
    self->csv = iv_result_to_csv (&self->result);
  return self->csv;
}

GtkColumnView *
iv_model_stages_get_column_view (IvModelStages *self)
{
  g_return_val_if_fail (IV_IS_MODEL_STAGES (self), NULL);
  return self->view;
}
