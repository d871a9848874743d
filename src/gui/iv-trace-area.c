/* iv-trace-area.c: the area selection's table. Each row is an IvNameItem whose numbers
 * are properties, so the columns and sorters declared in iv-trace-area.ui read them
 * directly; the GPU analyses of the same range are summarised above the table. The
 * numbers are those of `trace --stats --from --to`, from the same functions: slices that
 * intersect the range, their durations clipped to it (as Perfetto's area selection), by
 * name and row kind, spans that did not end counted apart. The layout is the template;
 * this file fills it. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-area.h"
#include "iv-tooltip.h"

#include <glib/gi18n.h>

#include "iv-csv.h"
#include "iv-safe-text.h"
#include "iv-chart-view.h"
#include "iv-trace-charts.h"
#include "iv-trace-report.h"
#include "iv-units.h"

/* ---- IvNameItem ------------------------------------------------------------------- */

#define IV_TYPE_NAME_ITEM (iv_name_item_get_type ())
G_DECLARE_FINAL_TYPE (IvNameItem, iv_name_item, IV, NAME_ITEM, GObject)

enum
{
  NUM_COUNT,
  NUM_TOTAL,
  NUM_SELF,
  NUM_MEAN,
  NUM_MAX,
  N_NUMS
};
static const char *const num_props[N_NUMS] = { "count", "total", "self", "mean", "max" };

struct _IvNameItem
{
  GObject parent_instance;
  char *name;
  double v[N_NUMS]; /* count, then seconds */
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
  g_object_class_install_property (
      object_class, 1,
      g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  for (guint i = 0; i < N_NUMS; i++)
    g_object_class_install_property (
        object_class, 2 + i,
        g_param_spec_double (num_props[i], NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
iv_name_item_init (IvNameItem *self)
{
}

/* How the table names a row kind other than a CPU thread's. */
static const char *
kind_label (IvRowKind kind)
{
  switch (kind)
    {
    case IV_ROW_GPU_WORK:
      return _ ("GPU");
    case IV_ROW_GPU_ANNOTATION:
      return _ ("GPU annotation");
    case IV_ROW_GPU_SYNC:
      return _ ("GPU sync");
    case IV_ROW_GPU_OTHER:
      return _ ("GPU other");
    case IV_ROW_NESTED:
    case IV_N_ROW_KINDS:
    default:
      return _ ("CPU");
    }
}

/* ---- the widget ------------------------------------------------------------------- */

struct _IvTraceArea
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GListStore *items;
  GtkColumnView *view;
  GtkLabel *summary;
  IvChartView *chart_names;
  IvChartView *chart_streams;
  IvChartView *chart_kernels;
  IvChartView *chart_classes; /* GPU time by stage group, beside the Model workspace's step */
  const IvTrace *trace;       /* the range shown, for a redraw when the model changes */
  gint64 t0_ns, t1_ns;
  const IvResult *model; /* owned by the Model workspace's view, or NULL */

  char *csv;
};

G_DEFINE_FINAL_TYPE (IvTraceArea, iv_trace_area, GTK_TYPE_WIDGET)

/* Cell text, called by the columns' closures in iv-trace-area.ui. */
static char *
format_count (GtkListItem *item, double count)
{
  return g_strdup_printf ("%.0f", count);
}

static char *
format_seconds (GtkListItem *item, double seconds)
{
  return iv_units_format_seconds (seconds);
}

static void
on_copy (IvTraceArea *self)
{
  if (self->csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->csv);
}

static IvChartView *
chart_view (IvTraceArea *self, guint index)
{
  IvChartView *views[]
      = { self->chart_names, self->chart_streams, self->chart_kernels, self->chart_classes };
  return index < G_N_ELEMENTS (views) ? views[index] : NULL;
}

static void
iv_trace_area_dispose (GObject *object)
{
  IvTraceArea *self = IV_TRACE_AREA (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_TRACE_AREA);
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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_trace_area_dispose;
  G_OBJECT_CLASS (klass)->finalize = iv_trace_area_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  /* The template names these types before any instance exists. */
  g_type_ensure (IV_TYPE_NAME_ITEM);
  g_type_ensure (IV_TYPE_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-trace-area.ui");
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, box);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, items);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, view);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, summary);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, chart_names);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, chart_streams);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, chart_kernels);
  gtk_widget_class_bind_template_child (widget_class, IvTraceArea, chart_classes);
  gtk_widget_class_bind_template_callback (widget_class, on_copy);
  gtk_widget_class_bind_template_callback (widget_class, format_count);
  gtk_widget_class_bind_template_callback (widget_class, format_seconds);
  gtk_widget_class_bind_template_callback (widget_class, iv_tooltip_query_wrapped);
}

static void
iv_trace_area_init (IvTraceArea *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
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
  /* the report trace --stats prints (iv-trace-report.c), over the range */
  g_autoptr (IvTraceReport) report = NULL;
  g_autoptr (GArray) none = g_array_new (FALSE, FALSE, sizeof (IvNameStats));
  GArray *stats = none;
  IvGpuStats *gpu = NULL;
  static const gint64 no_class[IV_N_KCLASSES] = { 0 };
  const gint64 *by_class = no_class;
  gint64 busy = 0;
  g_autoptr (GString) csv = g_string_new ("name,kind,count,total_s,self_s,mean_s,max_s\n");
  g_autoptr (GString) summary = g_string_new (NULL);

  g_return_if_fail (IV_IS_TRACE_AREA (self));
  if (trace && t1_ns > t0_ns)
    {
      g_autofree char *span = iv_units_format_seconds ((t1_ns - t0_ns) * 1e-9);
      g_autofree char *from = iv_units_format_seconds ((t0_ns - trace->t0_ns) * 1e-9);
      g_autoptr (GError) error = NULL;
      guint64 open = 0;
      guint names = 0;
      report = iv_trace_report_new (trace, t0_ns, t1_ns, TRUE, IV_STATS_DEFAULT, &error);
      if (report)
        {
          stats = report->by_name, gpu = report->gpu, open = report->open;
          by_class = report->class_ns, busy = report->busy_ns;
          for (guint i = 0; i < stats->len; i++)
            names += g_array_index (stats, IvNameStats, i).count > 0;
          g_string_append_printf (summary, _ ("%s from %s: %u names"), span, from, names);
          if (open)
            /* their length is only "until the trace stopped": not in the table */
            g_string_append_printf (summary,
                                    g_dngettext (NULL, " · %u span did not end (not in the table)",
                                                 " · %u spans did not end (not in the table)",
                                                 (gulong) MIN (open, G_MAXUINT)),
                                    (guint) MIN (open, G_MAXUINT));
        }
      else
        {
          /* the table stays empty, and says why rather than showing "0 names" */
          g_string_append_printf (summary, _ ("%s from %s: %s"), span, from, error->message);
        }
      for (guint i = 0; i < stats->len; i++)
        {
          const IvNameStats *st = &g_array_index (stats, IvNameStats, i);
          IvNameItem *it;
          g_autofree char *name = NULL;
          if (st->count == 0)
            continue;
          it = g_object_new (IV_TYPE_NAME_ITEM, NULL);
          /* shown in a label and a tooltip: valid UTF-8; a name on a GPU track says so, a
           * CPU op and a GPU annotation of one name being two rows */
          name = iv_text_valid (iv_trace_string (trace, st->name), -1);
          it->name = st->kind == IV_ROW_NESTED
                         ? g_strdup (name)
                         : g_strdup_printf ("%s (%s)", name, kind_label (st->kind));
          it->v[NUM_COUNT] = (double) st->count;
          it->v[NUM_TOTAL] = st->total_ns * 1e-9;
          it->v[NUM_SELF] = st->self_ns * 1e-9;
          it->v[NUM_MEAN] = st->mean_ns * 1e-9;
          it->v[NUM_MAX] = st->max_ns * 1e-9;
          g_ptr_array_add (items, it);
          iv_csv_append_field (csv, name);
          g_string_append_printf (csv, ",%s,%" G_GUINT64_FORMAT ",%.9g,%.9g,%.9g,%.9g\n",
                                  iv_row_kind_key (st->kind), st->count, it->v[NUM_TOTAL],
                                  it->v[NUM_SELF], it->v[NUM_MEAN], it->v[NUM_MAX]);
        }
      /* GPU streams and kernel time are the charts beside the table; the overlap stays
       * here as a sentence, it is the number people quote. */
      if (gpu && gpu->comm_ns > 0)
        g_string_append_printf (summary, _ (" · communication %.0f %% under compute"),
                                100 * gpu->comm_overlap_share);
      /* how the host fed the GPU in the range: HTA's launch delay (iv-trace-launch.h) */
      if (report && report->launch && report->launch->launches->len)
        {
          const IvLaunchStats *ls = report->launch;
          g_autofree char *p50 = iv_units_format_seconds (ls->delay.p50_ns * 1e-9);
          g_autofree char *p95 = iv_units_format_seconds (ls->delay.p95_ns * 1e-9);
          g_string_append_printf (summary, _ (" · %u launches, delay median %s, p95 %s"),
                                  ls->launches->len, p50, p95);
        }
    }
  else
    g_string_append (summary, _ ("Shift+drag across the timeline to aggregate a range."));
  self->trace = trace, self->t0_ns = t0_ns, self->t1_ns = t1_ns;
  {
    IvChart *charts[4];
    static const char *const names[4]
        = { "area-names", "area-gpu-streams", "area-kernels", "area-stage-groups" };
    if (busy > 0)
      {
        /* the stage groups' numbers in words too: the chart's bars are shares */
        g_autofree char *b = iv_units_format_seconds (busy * 1e-9);
        g_string_append_printf (summary, _ ("\nGPU busy %s:"), b);
        for (int k = 0; k < IV_N_KCLASSES; k++)
          {
            g_autofree char *v = iv_units_format_seconds (by_class[k] * 1e-9);
            g_string_append_printf (summary, " %s %s (%.0f %%)%s", iv_kernel_class_name (k), v,
                                    100.0 * by_class[k] / busy, k + 1 < IV_N_KCLASSES ? "," : "");
          }
      }
    charts[0] = trace ? iv_trace_chart_top_names (trace, stats, 6) : NULL;
    charts[1] = trace ? iv_trace_chart_streams (trace, gpu) : NULL;
    charts[2] = iv_trace_chart_kernels (gpu);
    charts[3] = iv_trace_chart_classes (by_class, busy, self->model);
    for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
      {
        GtkWidget *view = GTK_WIDGET (chart_view (self, i));
        gtk_widget_set_visible (view, charts[i] != NULL);
        /* its slot in the flow box too, or an empty one keeps its spacing */
        if (gtk_widget_get_parent (view))
          gtk_widget_set_visible (gtk_widget_get_parent (view), charts[i] != NULL);
        if (charts[i])
          iv_chart_view_set_chart (chart_view (self, i), charts[i], names[i]);
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
  g_return_val_if_fail (index < 4, NULL);
  return gtk_widget_get_visible (GTK_WIDGET (chart_view (self, index)))
             ? iv_chart_view_get_chart (chart_view (self, index))
             : NULL;
}

void
iv_trace_area_set_model (IvTraceArea *self, const IvResult *model)
{
  g_return_if_fail (IV_IS_TRACE_AREA (self));
  self->model = model;
  /* only the stage-group chart reads it, but the range's other numbers are cheap */
  if (self->trace)
    iv_trace_area_set_range (self, self->trace, self->t0_ns, self->t1_ns);
}
