/* iv-model-notebook.c: the Model workspace's figures. The tabs and pages are made here
 * from the registry (src/render/iv-model-figures.c), so a figure added there gets its tab
 * with nothing to add in the window; its page is a drawing area drawn with the same
 * renderer the command line exports with. Stages is the exception: its page is the
 * sortable table of IvModelStages (Export still draws the typeset table).
 *
 * Signals: "page-changed" when another page shows, "options-changed" when the
 * sharding's annotations or the sweep's axis change, "lengths-changed" when the serving
 * curve's request lengths do. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-notebook.h"

#include <adwaita.h>
#include <glib/gi18n.h>

struct _IvModelNotebook
{
  GtkWidget parent_instance;

  IvModelNotebookSource source;
  gpointer source_data;
  GHashTable *areas; /* page name → its GtkDrawingArea (not owned) */

  /* template children */
  GtkWidget *box;
  GtkWidget *tabs;        /* toggle buttons named after the stack's pages */
  GtkDropDown *page_drop; /* the same pages when the row does not fit */
  GtkStringList *page_titles;
  GPtrArray *page_names; /* the pages' names (static), in the order of the tabs */
  GtkStack *stack;
  GtkWidget *sharding_options, *sweep_options, *serving_options; /* above their figure */
  GtkWidget *details_page, *compare_page;
  GtkDropDown *sweep_drop;
  GtkSpinButton *isl_spin, *osl_spin;
};

G_DEFINE_FINAL_TYPE (IvModelNotebook, iv_model_notebook, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_PAGE_CHANGED,
  SIGNAL_OPTIONS_CHANGED,
  SIGNAL_LENGTHS_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
draw_figure (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelNotebook *self = IV_MODEL_NOTEBOOK (user_data);
  const IvModelFigureInfo *info = g_object_get_data (G_OBJECT (area), "iv-figure");
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };
  g_autoptr (GError) error = NULL;
  gconstpointer data = self->source ? self->source (info, self->source_data) : NULL;

  if (data && !info->render (cr, data, &options, width, height, &error))
    g_warning ("%s: %s", info->name, error->message);
}

/* Each tab is named after its page. */
static void
on_tab_toggled (GtkToggleButton *button, IvModelNotebook *self)
{
  if (gtk_toggle_button_get_active (button))
    gtk_stack_set_visible_child_name (self->stack, gtk_widget_get_name (GTK_WIDGET (button)));
}

/* The narrow form: the drop-down's items are the tabs, in the same order. */
static void
on_page_chosen (IvModelNotebook *self)
{
  guint i = gtk_drop_down_get_selected (self->page_drop);

  const char *name;

  /* the list selects its first item as it is filled, before that page is in the stack */
  if (!self->stack || !self->page_names || i >= self->page_names->len)
    return;
  name = g_ptr_array_index (self->page_names, i);
  if (gtk_stack_get_child_by_name (self->stack, name))
    gtk_stack_set_visible_child_name (self->stack, name);
}

/* The tabs and the drop-down follow the stack whichever of them (or code: tests,
 * restoring a page) switched it; setting what is already set notifies nothing, so this
 * does not loop. */
static void
on_page_changed (IvModelNotebook *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  if (!self->tabs)
    return;
  for (GtkWidget *b = gtk_widget_get_first_child (self->tabs); b;
       b = gtk_widget_get_next_sibling (b))
    if (g_strcmp0 (gtk_widget_get_name (b), name) == 0)
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b), TRUE);
  for (guint i = 0; self->page_drop && self->page_names && i < self->page_names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->page_names, i), name) == 0)
      gtk_drop_down_set_selected (self->page_drop, i);
  g_signal_emit (self, signals[SIGNAL_PAGE_CHANGED], 0);
}

static void
on_annotate (GtkCheckButton *check, IvModelNotebook *self)
{
  g_signal_emit (self, signals[SIGNAL_OPTIONS_CHANGED], 0);
}

static void
on_sweep_axis (GtkDropDown *drop, GParamSpec *pspec, IvModelNotebook *self)
{
  g_signal_emit (self, signals[SIGNAL_OPTIONS_CHANGED], 0);
}

static void
on_serving_lengths (IvModelNotebook *self)
{
  g_signal_emit (self, signals[SIGNAL_LENGTHS_CHANGED], 0);
}

/* A tab, its item in the drop-down and a page: the tabs are one radio group, the first
 * one active. @name is static (the registry's, or a literal). */
static void
add_page (IvModelNotebook *self, const char *name, const char *title, const char *tooltip,
          GtkWidget *child)
{
  GtkWidget *tab = gtk_toggle_button_new_with_label (title);
  GtkWidget *first = gtk_widget_get_first_child (self->tabs);

  gtk_widget_set_name (tab, name);
  if (tooltip)
    gtk_widget_set_tooltip_text (tab, tooltip);
  gtk_widget_add_css_class (tab, "flat");
  if (first)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (tab), GTK_TOGGLE_BUTTON (first));
  else
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (tab), TRUE);
  g_signal_connect (tab, "toggled", G_CALLBACK (on_tab_toggled), self);
  gtk_box_append (GTK_BOX (self->tabs), tab);
  g_ptr_array_add (self->page_names, (gpointer) name);
  gtk_string_list_append (self->page_titles, title);
  gtk_stack_add_titled (self->stack, child, name, title);
}

/* The page of a registry figure: its own controls (if it has any) above its drawing. */
static GtkWidget *
figure_page (IvModelNotebook *self, const IvModelFigureInfo *info)
{
  /* the figures that have controls of their own, in the template */
  const struct
  {
    const char *name;
    GtkWidget *options;
  } extras[] = {
    { "sharding", self->sharding_options },
    { "sweep", self->sweep_options },
    { "serving", self->serving_options },
  };
  GtkWidget *area = gtk_drawing_area_new (), *page;

  if (g_str_equal (info->name, "stages"))
    return g_object_new (IV_TYPE_MODEL_STAGES, NULL);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_widget_set_vexpand (area, TRUE);
  g_object_set_data (G_OBJECT (area), "iv-figure", (gpointer) info);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_figure, self, NULL);
  g_hash_table_insert (self->areas, (gpointer) info->name, area);
  for (guint i = 0; i < G_N_ELEMENTS (extras); i++)
    if (g_str_equal (info->name, extras[i].name))
      {
        page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
        gtk_box_append (GTK_BOX (page), extras[i].options);
        gtk_box_append (GTK_BOX (page), area);
        return page;
      }
  return area;
}

static void
iv_model_notebook_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_MODEL_NOTEBOOK);
  G_OBJECT_CLASS (iv_model_notebook_parent_class)->dispose (object);
}

static void
iv_model_notebook_finalize (GObject *object)
{
  g_hash_table_unref (IV_MODEL_NOTEBOOK (object)->areas);
  g_ptr_array_unref (IV_MODEL_NOTEBOOK (object)->page_names);
  G_OBJECT_CLASS (iv_model_notebook_parent_class)->finalize (object);
}

static void
iv_model_notebook_class_init (IvModelNotebookClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_model_notebook_dispose;
  object_class->finalize = iv_model_notebook_finalize;
  for (guint i = 0; i < N_SIGNALS; i++)
    {
      static const char *const names[N_SIGNALS]
          = { "page-changed", "options-changed", "lengths-changed" };
      signals[i] = g_signal_new (names[i], G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                 NULL, NULL, G_TYPE_NONE, 0);
    }
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (IV_TYPE_MODEL_COMPARE_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-notebook.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvModelNotebook, name)
  CHILD (box);
  CHILD (tabs);
  CHILD (page_drop);
  CHILD (page_titles);
  CHILD (stack);
  CHILD (sharding_options);
  CHILD (sweep_options);
  CHILD (serving_options);
  CHILD (details_page);
  CHILD (compare_page);
  CHILD (sweep_drop);
  CHILD (isl_spin);
  CHILD (osl_spin);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_page_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_page_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_annotate);
  gtk_widget_class_bind_template_callback (widget_class, on_sweep_axis);
  gtk_widget_class_bind_template_callback (widget_class, on_serving_lengths);
}

static void
iv_model_notebook_init (IvModelNotebook *self)
{
  guint n;
  const IvModelFigureInfo *figures = iv_model_figures (&n);

  self->areas = g_hash_table_new (g_str_hash, g_str_equal);
  self->page_names = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < n; i++)
    add_page (self, figures[i].name, _ (figures[i].title),
              figures[i].tooltip ? _ (figures[i].tooltip) : NULL, figure_page (self, &figures[i]));
  add_page (self, "details", _ ("Details"), NULL, self->details_page);
  add_page (self, "compare", _ ("Compare"), NULL, self->compare_page);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}

void
iv_model_notebook_set_source (IvModelNotebook *self, IvModelNotebookSource source,
                              gpointer user_data)
{
  g_return_if_fail (IV_IS_MODEL_NOTEBOOK (self));
  self->source = source;
  self->source_data = user_data;
}

const char *
iv_model_notebook_get_page (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), NULL);
  return self->stack ? gtk_stack_get_visible_child_name (self->stack) : NULL;
}

const IvModelFigureInfo *
iv_model_notebook_get_figure (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), NULL);
  return iv_model_figure_find (iv_model_notebook_get_page (self));
}

void
iv_model_notebook_redraw (IvModelNotebook *self, gboolean dimmed)
{
  GtkWidget *area;

  g_return_if_fail (IV_IS_MODEL_NOTEBOOK (self));
  if (!self->stack)
    return;
  if ((area = g_hash_table_lookup (self->areas, iv_model_notebook_get_page (self))))
    gtk_widget_queue_draw (area);
  /* what is shown is the last valid result while the controls break a constraint */
  gtk_widget_set_opacity (GTK_WIDGET (self->stack), dimmed ? 0.4 : 1.0);
}

IvModelStages *
iv_model_notebook_get_stages (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), NULL);
  return IV_MODEL_STAGES (gtk_stack_get_child_by_name (self->stack, "stages"));
}

GtkBox *
iv_model_notebook_get_details_box (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), NULL);
  return GTK_BOX (self->details_page);
}

IvModelComparePage *
iv_model_notebook_get_compare_page (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), NULL);
  return IV_MODEL_COMPARE_PAGE (self->compare_page);
}

gboolean
iv_model_notebook_get_annotate (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), FALSE);
  return gtk_check_button_get_active (GTK_CHECK_BUTTON (self->sharding_options));
}

IvSweepAxis
iv_model_notebook_get_sweep_axis (IvModelNotebook *self)
{
  g_return_val_if_fail (IV_IS_MODEL_NOTEBOOK (self), IV_SWEEP_TP);
  return (IvSweepAxis) gtk_drop_down_get_selected (self->sweep_drop);
}

void
iv_model_notebook_get_lengths (IvModelNotebook *self, double *isl, double *osl)
{
  g_return_if_fail (IV_IS_MODEL_NOTEBOOK (self));
  *isl = gtk_spin_button_get_value (self->isl_spin);
  *osl = gtk_spin_button_get_value (self->osl_spin);
}
