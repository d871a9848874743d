/* iv-trace-area.c: the area selection's table. Each row is an IvNameItem whose numbers
 * are properties, so the column sorters compare them directly; the GPU analyses of the
 * same range are summarised above the table. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-area.h"

#include <glib/gi18n.h>

#include "iv-csv.h"
#include "iv-chart-view.h"
#include "iv-trace-charts.h"
#include "iv-units.h"

/* ---- IvNameItem ------------------------------------------------------------------- */

#define IV_TYPE_NAME_ITEM (iv_name_item_get_type ())
G_DECLARE_FINAL_TYPE (IvNameItem, iv_name_item, IV, NAME_ITEM, GObject)

enum { NUM_COUNT, NUM_TOTAL, NUM_SELF, NUM_MEAN, NUM_MAX, N_NUMS };
static const char *const num_props[N_NUMS] = { "count", "total", "self", "mean", "max" };

struct _IvNameItem
{
  GObject parent_instance;
  char *name;
  double v[N_NUMS];   /* count, then seconds */
};

G_DEFINE_FINAL_TYPE (IvNameItem, iv_name_item, G_TYPE_OBJECT)

static void
iv_name_item_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  IvNameItem *self = IV_NAME_ITEM (object);
  if (id == 1)
    g_value_set_string (value, self->name);
  else if (id >= 2 && id < 2 + N_NUMS)
    g_value_set_double (value, self->v[id - 2]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
iv_name_item_finalize (GObject *object)
{
  g_free (IV_NAME_ITEM (object)->name);
  G_OBJECT_CLASS (iv_name_item_parent_class)->finalize (object);
}

static void
iv_name_item_class_init (IvNameItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = iv_name_item_get_property;
  object_class->finalize = iv_name_item_finalize;
  g_object_class_install_property (object_class, 1,
      g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  for (guint i = 0; i < N_NUMS; i++)
    g_object_class_install_property (object_class, 2 + i,
        g_param_spec_double (num_props[i], NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
iv_name_item_init (IvNameItem *self)
{
}

/* ---- the widget ------------------------------------------------------------------- */

struct _IvTraceArea
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GListStore *items;
  GtkColumnView *view;
  GtkLabel *summary;
  IvChartView *charts[3];     /* top names, GPU streams, kernel time by kind */
  char *csv;
};

G_DEFINE_FINAL_TYPE (IvTraceArea, iv_trace_area, GTK_TYPE_WIDGET)

typedef struct
{
  const char *title;
  int num;            /* -1: the name */
} Column;

static const Column columns[] = {
  { N_("Name"), -1 }, { N_("Count"), NUM_COUNT }, { N_("Total"), NUM_TOTAL },
  { N_("Self"), NUM_SELF }, { N_("Mean"), NUM_MEAN }, { N_("Max"), NUM_MAX },
};

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const Column *col = data;
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), col->num < 0 ? 0 : 1);
  if (col->num < 0)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const Column *col = data;
  IvNameItem *it = gtk_list_item_get_item (item);
  g_autofree char *text = col->num < 0 ? g_strdup (it->name)
                          : col->num == NUM_COUNT ? g_strdup_printf ("%.0f", it->v[NUM_COUNT])
                          : iv_units_format_seconds (it->v[col->num]);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), col->num < 0 ? it->name : NULL);
}

static void
on_copy (IvTraceArea *self)
{
  if (self->csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->csv);
}

static void
iv_trace_area_dispose (GObject *object)
{
  IvTraceArea *self = IV_TRACE_AREA (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->items);
  G_OBJECT_CLASS (iv_trace_area_parent_class)->dispose (object);
}

static void
iv_trace_area_finalize (GObject *object)
{
  g_free (IV_TRACE_AREA (object)->csv);
  G_OBJECT_CLASS (iv_trace_area_parent_class)->finalize (object);
}

static void
iv_trace_area_class_init (IvTraceAreaClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = iv_trace_area_dispose;
  G_OBJECT_CLASS (klass)->finalize = iv_trace_area_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
iv_trace_area_init (IvTraceArea *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *copy = gtk_button_new_with_mnemonic (_("Copy as _CSV"));
  GtkSortListModel *sorted;

  self->items = g_list_store_new (IV_TYPE_NAME_ITEM);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->items)), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;
      GtkExpression *e = gtk_property_expression_new (IV_TYPE_NAME_ITEM, NULL,
                                                      columns[i].num < 0 ? "name" : num_props[columns[i].num]);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), (gpointer) &columns[i]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), (gpointer) &columns[i]);
      col = gtk_column_view_column_new (_(columns[i].title), factory);
      gtk_column_view_column_set_sorter (col, columns[i].num < 0 ? GTK_SORTER (gtk_string_sorter_new (e))
                                                                 : GTK_SORTER (gtk_numeric_sorter_new (e)));
      gtk_column_view_column_set_expand (col, columns[i].num < 0);
      gtk_column_view_append_column (self->view, col);
      g_object_unref (col);
    }
  gtk_sort_list_model_set_sorter (sorted, gtk_column_view_get_sorter (self->view));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (sorted))));
  gtk_column_view_set_show_row_separators (self->view, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_selectable (self->summary, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_widget_set_tooltip_text (copy, _("Copy the table as CSV"));
  g_signal_connect_swapped (copy, "clicked", G_CALLBACK (on_copy), self);
  gtk_widget_set_valign (copy, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (top), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (top), copy);
  gtk_widget_set_margin_start (top, 12);
  gtk_widget_set_margin_end (top, 12);
  gtk_widget_set_margin_top (top, 6);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (self->box), top);
  {
    /* The table on the left, the range's analyses as small charts on the right; the
     * charts scroll rather than widen the window. */
    GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
    GtkWidget *charts = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *chart_scroller = gtk_scrolled_window_new ();
    for (guint i = 0; i < G_N_ELEMENTS (self->charts); i++)
      {
        self->charts[i] = IV_CHART_VIEW (iv_chart_view_new ());
        gtk_widget_set_size_request (GTK_WIDGET (self->charts[i]), i == 0 ? 380 : 300, 200);
        gtk_widget_set_visible (GTK_WIDGET (self->charts[i]), FALSE);
        gtk_box_append (GTK_BOX (charts), GTK_WIDGET (self->charts[i]));
      }
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (chart_scroller), charts);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (chart_scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
    gtk_widget_set_size_request (scroller, 420, -1);
    gtk_paned_set_start_child (GTK_PANED (paned), scroller);
    gtk_paned_set_end_child (GTK_PANED (paned), chart_scroller);
    gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
    gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
    gtk_widget_set_vexpand (paned, TRUE);
    gtk_box_append (GTK_BOX (self->box), paned);
  }
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  iv_trace_area_set_range (self, NULL, 0, 0);
}

GtkWidget *
iv_trace_area_new (void)
{
  return g_object_new (IV_TYPE_TRACE_AREA, NULL);
}

void
iv_trace_area_set_range (IvTraceArea *self, const IvTrace *trace, gint64 t0_ns, gint64 t1_ns)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GArray) stats = NULL;
  g_autoptr (IvGpuStats) gpu = NULL;
  g_autoptr (GString) csv = g_string_new ("name,count,total_s,self_s,mean_s,max_s\n");
  g_autoptr (GString) summary = g_string_new (NULL);

  g_return_if_fail (IV_IS_TRACE_AREA (self));
  if (trace && t1_ns > t0_ns)
    {
      g_autofree char *span = iv_units_format_seconds ((t1_ns - t0_ns) * 1e-9);
      g_autofree char *from = iv_units_format_seconds ((t0_ns - trace->t0_ns) * 1e-9);
      stats = iv_trace_stats_by_name (trace, t0_ns, t1_ns);
      gpu = iv_trace_gpu_stats (trace, t0_ns, t1_ns);
      g_string_append_printf (summary, _("%s from %s: %u names"), span, from, stats->len);
      for (guint i = 0; i < stats->len; i++)
        {
          const IvNameStats *st = &g_array_index (stats, IvNameStats, i);
          IvNameItem *it = g_object_new (IV_TYPE_NAME_ITEM, NULL);
          it->name = g_strdup (iv_trace_string (trace, st->name));
          it->v[NUM_COUNT] = (double) st->count;
          it->v[NUM_TOTAL] = st->total_ns * 1e-9;
          it->v[NUM_SELF] = st->self_ns * 1e-9;
          it->v[NUM_MEAN] = st->mean_ns * 1e-9;
          it->v[NUM_MAX] = st->max_ns * 1e-9;
          g_ptr_array_add (items, it);
          iv_csv_append_field (csv, it->name);
          g_string_append_printf (csv, ",%" G_GUINT64_FORMAT ",%.9g,%.9g,%.9g,%.9g\n", st->count,
                                  it->v[NUM_TOTAL], it->v[NUM_SELF], it->v[NUM_MEAN], it->v[NUM_MAX]);
        }
      /* GPU streams and kernel time are the charts beside the table; the overlap stays
       * here as a sentence, it is the number people quote. */
      if (gpu && gpu->comm_ns > 0)
        g_string_append_printf (summary, _(" · communication %.0f %% under compute"), 100 * gpu->comm_overlap_share);
    }
  else
    g_string_append (summary, _("Shift+drag across the timeline to aggregate a range."));
  {
    IvChart *charts[3] = { trace ? iv_trace_chart_top_names (trace, stats, 6) : NULL,
                           trace ? iv_trace_chart_streams (trace, gpu) : NULL,
                           iv_trace_chart_kernels (gpu) };
    static const char *const names[3] = { "area-names", "area-gpu-streams", "area-kernels" };
    for (guint i = 0; i < G_N_ELEMENTS (self->charts); i++)
      {
        gtk_widget_set_visible (GTK_WIDGET (self->charts[i]), charts[i] != NULL);
        if (charts[i])
          iv_chart_view_set_chart (self->charts[i], charts[i], names[i]);
      }
  }
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  gtk_label_set_text (self->summary, summary->str);
  g_free (self->csv);
  self->csv = g_strdup (csv->str);
}

const char *
iv_trace_area_get_csv (IvTraceArea *self)
{
  g_return_val_if_fail (IV_IS_TRACE_AREA (self), NULL);
  return self->csv;
}

GtkColumnView *
iv_trace_area_get_column_view (IvTraceArea *self)
{
  g_return_val_if_fail (IV_IS_TRACE_AREA (self), NULL);
  return self->view;
}

IvChart *
iv_trace_area_get_chart (IvTraceArea *self, guint index)
{
  g_return_val_if_fail (IV_IS_TRACE_AREA (self), NULL);
  g_return_val_if_fail (index < G_N_ELEMENTS (self->charts), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->charts[index])) ? iv_chart_view_get_chart (self->charts[index])
                                                                   : NULL;
}
