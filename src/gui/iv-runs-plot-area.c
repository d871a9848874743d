/* iv-runs-plot-area.c: the plot and its controls (see the header).
 *
 * The drop-downs show lists of IvRunsItem keyed as the state's properties are, bound both
 * ways; a list is replaced with the state's entry selected (iv_runs_drop_down_show), so no
 * passing selection is taken for a choice. The figure follows the state's notifications
 * and is drawn once per batch of them (the state's generation). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-plot-area.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "iv-chart-view.h"
#include "iv-figure-view.h"
#include "iv-plain-text.h"
#include "iv-render-runs.h"
#include "iv-render-serving.h"
#include "iv-run-series.h"
#include "iv-runs-item.h"
#include "iv-serving-measured.h"
#include "iv-units.h"

/* The measured runs over the serving curve's bound (docs/model.md §10), named as `plot
 * --hardware` names it; listed while the state has a hardware. */

struct _IvRunsPlotArea
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkMenuButton *plot_choice; /* the plot: its title, the searchable list under it */
  GtkLabel *plot_label;
  GtkPopover *plot_popover;
  GtkSearchEntry *plot_search;
  GtkScrolledWindow *plot_scroller;
  GtkListView *plot_list;
  GtkWidget *plot_none; /* said when no title matches the search */
  GtkDropDown *stat_choice, *group_choice, *x_choice, *y_choice;
  GtkWidget *group_label;      /* "by", before the grouping */
  GtkWidget *compare_controls; /* statistic and grouping: comparisons only */
  GtkToggleButton *log_x, *log_y, *aiperf;
  GtkWidget *custom_controls; /* a comparison of any two quantities */
  GtkWidget *selection_row;
  GtkLabel *selection_label;
  GtkStack *plot_stack; /* "chart", "figure" (panels, a surface), "serving" or "skipped" */
  IvFigureView *figure_view;
  GtkDrawingArea *serving_area;
  IvChartView *chart;
  AdwStatusPage *skipped;
  IvRunsBoundRow *bound_row;

  IvRunsState *state;
  GListStore *plots;               /* IvRunsItem: the plots listed */
  GtkStringFilter *plot_filter;    /* the search: any part of a plot's terms */
  GtkSingleSelection *plot_picked; /* the plots the search leaves, one picked */
  const IvPlotConfig *listed;      /* the configuration the plot list is of */
  gboolean listed_multi;
  gboolean listed_serving; /* the list offers the serving bound */
  IvPlotSpec custom;       /* the custom comparison: its axes are the state's */
  IvPlotSpec override;     /* the spec drawn: the preset with the state's choices */
  char *group_strv[2];
  guint64 drawn;        /* the state's generation last drawn */
  gboolean skipped_now; /* the plot shown was skipped */
  char *notes;          /* the runs the serving bound leaves out, for the view's notes */

  /* the serving bound shown: the runs' points, the curve they are set against, and the
   * figure drawn on screen and exported from them */
  IvServingMeasuredSet serving_set;
  IvServingCurve *serving_curve;
  IvServingFigure serving_figure;
  IvFigure serving_drawn;
};

G_DEFINE_FINAL_TYPE (IvRunsPlotArea, iv_runs_plot_area, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_NOTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *const stats[] = { "avg", "p50", "p90", "p95", "p99", "min", "max", NULL };

/* ---- lists ---- */

/* The plot button says the state's plot by its title (whole on hover: titles are long). */
static void
show_plot_title (IvRunsPlotArea *self)
{
  guint at = iv_runs_items_find (G_LIST_MODEL (self->plots), iv_runs_state_get_plot (self->state));
  g_autoptr (IvRunsItem) item = at != GTK_INVALID_LIST_POSITION
                                    ? g_list_model_get_item (G_LIST_MODEL (self->plots), at)
                                    : NULL;

  /* a title from a plot configuration the user wrote: valid UTF-8 before Pango */
  iv_label_set_valid_text (self->plot_label, item ? iv_runs_item_get_title (item) : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->plot_choice),
                               gtk_label_get_text (self->plot_label));
}

/* The plot picked in the list (a click, or Enter in the search: the first match or the
 * one moved to) becomes the state's; the list closes. */
static void
pick_plot (IvRunsPlotArea *self, IvRunsItem *item)
{
  if (item)
    g_object_set (self->state, "plot", iv_runs_item_get_key (item), NULL);
  gtk_popover_popdown (self->plot_popover);
}

static void
on_plot_activated (IvRunsPlotArea *self, guint position)
{
  g_autoptr (IvRunsItem) item = g_list_model_get_item (G_LIST_MODEL (self->plot_picked), position);
  pick_plot (self, item);
}

/* The search narrows the list to the plots whose title or name has the text, anywhere in
 * it and in any case ("latency" finds "Inter-Token Latency vs Concurrency", "heatmap" the
 * heat maps); the first left is the one Enter picks. */
static void
on_plot_search_changed (IvRunsPlotArea *self)
{
  guint n;

  gtk_string_filter_set_search (self->plot_filter,
                                gtk_editable_get_text (GTK_EDITABLE (self->plot_search)));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->plot_picked));
  gtk_widget_set_visible (self->plot_none, n == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->plot_scroller), n > 0);
  if (n > 0)
    {
      gtk_single_selection_set_selected (self->plot_picked, 0);
      gtk_widget_activate_action (GTK_WIDGET (self->plot_list), "list.scroll-to-item", "u", 0);
    }
}

static void
on_plot_search_activate (IvRunsPlotArea *self)
{
  /* Enter as soon as typed: the search entry says "search-changed" a moment later */
  on_plot_search_changed (self);
  pick_plot (self, gtk_single_selection_get_selected_item (self->plot_picked));
}

static void
on_plot_search_stop (IvRunsPlotArea *self)
{
  gtk_popover_popdown (self->plot_popover);
}

/* Down in the search goes on into the list, to move to a plot there. */
static gboolean
on_plot_search_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                    IvRunsPlotArea *self)
{
  if (keyval != GDK_KEY_Down && keyval != GDK_KEY_KP_Down)
    return FALSE;
  return g_list_model_get_n_items (G_LIST_MODEL (self->plot_picked)) > 0
         && gtk_widget_child_focus (GTK_WIDGET (self->plot_list), GTK_DIR_TAB_FORWARD);
}

/* The list opens with every plot, the current one picked and scrolled to, the search
 * focused, toward the side of the button with more of the window, and never taller than
 * the window leaves there: on a 700 px window thirty plots scroll instead of running off
 * the screen. */
static void
on_plot_popover_show (IvRunsPlotArea *self)
{
  GtkWidget *button = GTK_WIDGET (self->plot_choice);
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (button));
  graphene_rect_t b;
  guint at;

  gtk_editable_set_text (GTK_EDITABLE (self->plot_search), "");
  on_plot_search_changed (self);
  if (!self->state)
    return;
  if (root && gtk_widget_compute_bounds (button, root, &b))
    {
      int below = gtk_widget_get_height (root) - (int) (b.origin.y + b.size.height);
      int above = (int) b.origin.y;
      gboolean up = above > below;
      /* less the search entry, the popover's frame and arrow, and a margin */
      int room = (up ? above : below) - 100;
      gtk_menu_button_set_direction (self->plot_choice, up ? GTK_ARROW_UP : GTK_ARROW_DOWN);
      gtk_scrolled_window_set_max_content_height (self->plot_scroller, CLAMP (room, 96, 480));
    }
  at = iv_runs_items_find (G_LIST_MODEL (self->plot_picked), iv_runs_state_get_plot (self->state));
  if (at != GTK_INVALID_LIST_POSITION)
    {
      gtk_single_selection_set_selected (self->plot_picked, at);
      gtk_widget_activate_action (GTK_WIDGET (self->plot_list), "list.scroll-to-item", "u", at);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->plot_search));
}

/* The presets of the configuration for one run or for the comparison (then the custom
 * comparison last), titled as the configuration titles them. */
static void
list_plots (IvRunsPlotArea *self)
{
  const IvPlotConfig *config = iv_runs_state_get_config (self->state, NULL);
  GPtrArray *presets = iv_runs_state_get_presets (self->state);
  gboolean multi = iv_runs_state_get_run (self->state) == NULL;
  gboolean serving = presets && iv_runs_state_get_hardware (self->state) != NULL;
  g_autoptr (GListStore) store = NULL;

  if (config == self->listed && multi == self->listed_multi && serving == self->listed_serving)
    return;
  self->listed = config;
  self->listed_multi = multi;
  self->listed_serving = serving;
  store = g_list_store_new (IV_TYPE_RUNS_ITEM);
  for (guint i = 0; presets && i < presets->len; i++)
    {
      const IvPlotSpec *s = presets->pdata[i];
      iv_runs_items_add (store, s->name, s->title ? s->title : s->name);
    }
  /* the state lists it as long as it has a hardware (iv-runs-state.c) */
  if (serving)
    iv_runs_items_add (store, IV_PLOT_SERVING_BOUND,
                       _ ("Serving Bound: Measured Runs vs Bound Frontier"));
  if (multi)
    iv_runs_items_add (store, "custom", _ ("Custom: Any Metric vs Any Metric…"));
  g_set_object (&self->plots, store);
  gtk_filter_list_model_set_model (
      GTK_FILTER_LIST_MODEL (gtk_single_selection_get_model (self->plot_picked)),
      G_LIST_MODEL (store));
  show_plot_title (self);
}

/* Every configuration field and every metric any run has, for the custom comparison; and
 * the grouping: the model, then the sweep's varying fields. */
static void
list_quantities (IvRunsPlotArea *self, const IvSweep *sweep)
{
  g_autoptr (GListStore) quantities = g_list_store_new (IV_TYPE_RUNS_ITEM);
  g_autoptr (GListStore) groups = g_list_store_new (IV_TYPE_RUNS_ITEM);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (IvField f = IV_FIELD_CONCURRENCY; f < IV_N_FIELDS; f++)
    if (f != IV_FIELD_ENDPOINT_TYPE && f != IV_FIELD_STREAMING)
      {
        iv_runs_items_add (quantities, iv_field_key (f), iv_field_title (f));
        g_hash_table_add (seen, (gpointer) iv_field_key (f));
      }
  {
    g_autofree char *t = iv_metric_title ("output_token_throughput_per_gpu");
    iv_runs_items_add (quantities, "output_token_throughput_per_gpu", t);
  }
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      g_autoptr (GPtrArray) tags = iv_run_metric_tags (sweep->runs->pdata[i]);
      for (guint k = 0; k < tags->len; k++)
        if (g_hash_table_add (seen, tags->pdata[k]))
          {
            g_autofree char *t = iv_metric_title (tags->pdata[k]);
            iv_runs_items_add (quantities, tags->pdata[k], t);
          }
    }
  iv_runs_drop_down_show (self->x_choice, G_LIST_MODEL (quantities),
                          iv_runs_state_get_custom_x (self->state));
  iv_runs_drop_down_show (self->y_choice, G_LIST_MODEL (quantities),
                          iv_runs_state_get_custom_y (self->state));
  /* A sweep over both lengths is grouped by its ISL × OSL cells unless a grouping is
   * chosen (iv-render-runs.c): the list says so first (the state's "no choice"), rather
   * than show "Model" over a figure grouped by cell. */
  if (g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_ISL), NULL)
      && g_ptr_array_find (sweep->varying, GUINT_TO_POINTER (IV_FIELD_OSL), NULL))
    iv_runs_items_add (groups, NULL, _ ("ISL · OSL"));
  iv_runs_items_add (groups, iv_field_key (IV_FIELD_MODEL), iv_field_title (IV_FIELD_MODEL));
  for (guint i = 0; i < sweep->varying->len; i++)
    {
      IvField f = GPOINTER_TO_UINT (sweep->varying->pdata[i]);
      iv_runs_items_add (groups, iv_field_key (f), iv_field_title (f));
    }
  iv_runs_drop_down_show (self->group_choice, G_LIST_MODEL (groups),
                          iv_runs_state_get_group_by (self->state));
}

/* ---- the figure ---- */

/* The chosen preset with the state's statistic, grouping, bound and aiperf choice. */
static const IvPlotSpec *
chosen_spec (IvRunsPlotArea *self, gboolean multi)
{
  const char *name = iv_runs_state_get_plot (self->state);
  GPtrArray *presets = iv_runs_state_get_presets (self->state);
  const IvSweep *sweep = iv_runs_state_get_sweep (self->state);
  const IvPlotSpec *spec = NULL;
  IvRunsBoundChoice bound;

  if (multi && g_strcmp0 (name, "custom") == 0)
    {
      self->custom.x.metric = (char *) iv_runs_state_get_custom_x (self->state);
      self->custom.y.metric = (char *) iv_runs_state_get_custom_y (self->state);
      spec = &self->custom;
    }
  for (guint i = 0; !spec && name && presets && i < presets->len; i++)
    if (g_str_equal (((const IvPlotSpec *) presets->pdata[i])->name, name))
      spec = presets->pdata[i];
  if (!spec)
    return NULL;
  self->override = *spec;
  iv_runs_bound_row_get_choice (self->bound_row, &bound);
  self->override.bound_hardware = bound.hardware;
  self->override.bound_tp = bound.tp;
  self->override.bound_model = bound.model;
  self->override.aiperf_compatible = iv_runs_state_get_aiperf (self->state);
  /* aiperf plot takes each run's p50 whatever the statistic: the picker stays out */
  if (multi && !self->override.aiperf_compatible)
    {
      /* The picked statistic applies to metrics measured per request; a throughput is
       * one number per run (its avg), whatever the picker says. */
      const IvRun *first = sweep->runs->pdata[0];
      const char *stat = iv_runs_state_get_statistic (self->state);
      const char *group_by = iv_runs_state_get_group_by (self->state);
      if (stat && spec->x.metric && iv_run_get_metric (first, spec->x.metric))
        self->override.x.stat = (char *) stat;
      if (stat && spec->y.metric && iv_run_get_metric (first, spec->y.metric))
        self->override.y.stat = (char *) stat;
      if (group_by)
        {
          self->group_strv[0] = (char *) group_by;
          self->override.groups = self->group_strv;
          /* the grouping chosen is drawn as chosen: "Model" is one group of every model's
           * runs, not the cells the built-in default would refine it into */
          self->override.builtin = FALSE;
        }
    }
  return &self->override;
}

/* The notes of the plot shown (the runs the serving bound leaves out), said once, in the
 * view's notes bar. Where a figure differs from aiperf plot's is said in its subtitle
 * (iv_runs_aiperf_notes): on screen and exported alike, and only there. */
static void
set_notes (IvRunsPlotArea *self, const char *notes)
{
  if (g_strcmp0 (self->notes, notes && *notes ? notes : NULL) == 0)
    return;
  g_free (self->notes);
  self->notes = notes && *notes ? g_strdup (notes) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
}

static void
clear_serving (IvRunsPlotArea *self)
{
  iv_serving_measured_set_clear (&self->serving_set);
  g_clear_pointer (&self->serving_curve, iv_serving_free);
  self->serving_figure = (IvServingFigure){ NULL };
  self->serving_drawn = (IvFigure){ NULL };
}

/* The serving bound of @sweep on the state's hardware, as `plot --hardware` draws it: the
 * runs' points (against the model chosen, else each run's own) over the bound frontier at
 * their mean lengths; the runs left out are said in the view's notes. FALSE
 * with @reason when nothing can be drawn. */
static gboolean
draw_serving (IvRunsPlotArea *self, const IvSweep *sweep, char **reason)
{
  IvRunsBoundChoice bound;
  IvConfig config;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) notes = g_string_new (NULL);

  clear_serving (self);
  iv_runs_bound_row_get_choice (self->bound_row, &bound);
  if (!bound.hardware)
    {
      *reason = g_strdup_printf (_ ("No hardware preset is named “%s”."),
                                 iv_runs_state_get_hardware (self->state));
      set_notes (self, NULL);
      return FALSE;
    }
  /* the model's defaults, a GPU server's groups across its GPUs, as `inferview model`
   * places them (and `plot --hardware`) */
  iv_config_init (&config);
  if (bound.hardware->n_pe == 1)
    config.place_tp = config.place_cp = config.place_ep = IV_PLACE_CUBE;
  iv_serving_measured_from_sweep (sweep, bound.model, bound.hardware, &config, bound.tp,
                                  &self->serving_set);
  for (guint i = 0; i < self->serving_set.left_out->len; i++)
    g_string_append_printf (notes, "%s%s", i ? "\n" : "",
                            (const char *) self->serving_set.left_out->pdata[i]);
  set_notes (self, notes->str);
  if (self->serving_set.points->len == 0)
    {
      *reason = g_strdup_printf (_ ("No run can be set against the bound of its model on %s."),
                                 bound.hardware->name);
      return FALSE;
    }
  self->serving_curve = iv_serving_compute (
      self->serving_set.model, bound.hardware, &config,
      isfinite (self->serving_set.isl) ? MAX (1, round (self->serving_set.isl)) : 1000,
      isfinite (self->serving_set.osl) ? MAX (1, round (self->serving_set.osl)) : 1000, &error);
  /* a curve without a point draws nothing (iv_render_serving refuses it) */
  if (!self->serving_curve || self->serving_curve->points->len == 0)
    {
      *reason = error ? g_strdup (error->message)
                      : g_strdup_printf (_ ("No batch of %s fits on %s."),
                                         self->serving_set.model->name, bound.hardware->name);
      return FALSE;
    }
  iv_serving_mark_measured (self->serving_curve,
                            (IvServingMeasured *) self->serving_set.points->data,
                            self->serving_set.points->len);
  self->serving_figure
      = (IvServingFigure){ self->serving_curve,
                           (const IvServingMeasured *) self->serving_set.points->data,
                           self->serving_set.points->len, _ ("measured (AIPerf)") };
  self->serving_drawn
      = (IvFigure){ iv_render_serving, &self->serving_figure, IV_PLOT_SERVING_BOUND, self };
  gtk_accessible_update_property (
      GTK_ACCESSIBLE (self->serving_area), GTK_ACCESSIBLE_PROPERTY_LABEL,
      _ ("Serving bound: measured runs over the hardware's frontier"), -1);
  gtk_widget_queue_draw (GTK_WIDGET (self->serving_area));
  return TRUE;
}

static void
draw_serving_area (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvRunsPlotArea *self = user_data;
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };
  g_autoptr (GError) error = NULL;

  if (self->serving_drawn.render
      && !self->serving_drawn.render (cr, self->serving_drawn.data, &options, width, height,
                                      &error))
    g_warning ("%s: %s", IV_PLOT_SERVING_BOUND, error->message);
}

/* The skipped page, saying @reason (text from data: names of runs and metrics). */
static void
show_skipped (IvRunsPlotArea *self, const char *reason)
{
  g_autofree char *markup = iv_markup_from_text (reason);

  self->skipped_now = TRUE;
  adw_status_page_set_description (self->skipped, markup);
  gtk_stack_set_visible_child_name (self->plot_stack, "skipped");
}

static void
draw (IvRunsPlotArea *self)
{
  const IvSweep *sweep = iv_runs_state_get_sweep (self->state);
  const IvRun *run = iv_runs_state_get_run (self->state);
  const IvRun *subject;
  const IvPlotSpec *spec;
  IvRunsFigure drawn;
  g_autofree char *reason = NULL;

  if (!sweep || self->drawn == iv_runs_state_get_generation (self->state))
    return;
  self->drawn = iv_runs_state_get_generation (self->state);
  gtk_widget_set_visible (self->custom_controls,
                          !run && g_strcmp0 (iv_runs_state_get_plot (self->state), "custom") == 0);
  /* the list follows the hardware chosen (the serving bound comes and goes with it) */
  list_plots (self);
  /* the serving bound has no statistic or grouping to pick: each run is one point */
  gtk_widget_set_visible (
      self->compare_controls,
      !run && g_strcmp0 (iv_runs_state_get_plot (self->state), IV_PLOT_SERVING_BOUND));
  if (g_strcmp0 (iv_runs_state_get_plot (self->state), IV_PLOT_SERVING_BOUND) == 0)
    {
      /* the sweep's figure, whichever run is open */
      self->skipped_now = FALSE;
      if (!draw_serving (self, sweep, &reason))
        show_skipped (self, reason);
      else
        gtk_stack_set_visible_child_name (self->plot_stack, "serving");
      return;
    }
  clear_serving (self);
  set_notes (self, NULL);
  if (!(spec = chosen_spec (self, run == NULL)))
    return;
  {
    /* a heat map's cells and a surface's sheets are the lengths: no grouping to pick.
     * Greyed, not hidden: the row keeps its width (the window's sidebar folds by it) and
     * the controls do not move as plots are picked */
    gboolean grouped
        = spec->type != IV_PLOT_ISL_OSL_HEATMAP && spec->type != IV_PLOT_PARETO_SURFACE;
    gtk_widget_set_sensitive (self->group_label, grouped);
    gtk_widget_set_sensitive (GTK_WIDGET (self->group_choice), grouped);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->group_choice),
                                 grouped ? _ ("Group the runs by")
                                         : _ ("This plot is laid out by input and output "
                                              "length: it has no groups"));
  }
  subject = run ? run : sweep->runs->pdata[0];
  self->skipped_now = !iv_runs_figure (spec, sweep, subject, &drawn, &reason);
  if (self->skipped_now)
    {
      show_skipped (self, reason);
      return;
    }
  if (!drawn.chart)
    {
      iv_figure_view_set_figure (self->figure_view, &drawn, spec->name);
      gtk_stack_set_visible_child_name (self->plot_stack, "figure");
      return;
    }
  {
    const GArray *picked = iv_runs_state_get_selection (self->state);
    if (run && picked->len)
      iv_runs_chart_highlight (drawn.chart, spec, run, (const guint32 *) picked->data, picked->len);
  }
  iv_chart_view_set_chart (self->chart, g_steal_pointer (&drawn.chart), spec->name);
  gtk_stack_set_visible_child_name (self->plot_stack, "chart");
}

/* What is shown changed (another sweep, run, or the sweep grew): its lists, then the
 * figure. */
static void
on_shown (IvRunsPlotArea *self)
{
  const IvSweep *sweep = iv_runs_state_get_sweep (self->state);

  if (!sweep)
    return;
  gtk_widget_set_visible (self->compare_controls, iv_runs_state_get_run (self->state) == NULL);
  list_plots (self);
  list_quantities (self, sweep);
  draw (self);
}

/* "Request 5: TTFT 31.4 ms, latency 3630 ms" for the first few selected. */
static void
describe_selection (IvRunsPlotArea *self)
{
  const IvRun *r = iv_runs_state_get_run (self->state);
  const GArray *picked = iv_runs_state_get_selection (self->state);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GArray) order = NULL;
  g_autofree double *ttft = NULL, *lat = NULL;
  g_autofree guint *rank = NULL;

  gtk_widget_set_visible (self->selection_row, r && picked->len > 0);
  if (!r || picked->len == 0)
    return;
  order = iv_run_order_by_start (r);
  rank = g_new (guint, MAX (r->n_requests, 1));
  for (guint k = 0; k < order->len; k++)
    rank[g_array_index (order, guint32, k)] = k;
  ttft = iv_run_metric_per_request (r, "time_to_first_token");
  lat = iv_run_metric_per_request (r, "request_latency");
  g_string_append_printf (
      text, g_dngettext (NULL, "%u request selected", "%u requests selected", picked->len),
      picked->len);
  for (guint j = 0; j < picked->len && j < 3; j++)
    {
      guint32 i = g_array_index (picked, guint32, j);
      g_autofree char *tt = iv_units_format_seconds (ttft[i] * 1e-3),
                      *lt = iv_units_format_seconds (lat[i] * 1e-3);
      g_string_append_printf (text, _ (" · #%u: TTFT %s, latency %s"), rank[i] + 1, tt, lt);
    }
  if (picked->len > 3)
    g_string_append (text, " …");
  gtk_label_set_text (self->selection_label, text->str);
}

static void
on_clear_selection (IvRunsPlotArea *self)
{
  iv_runs_state_clear_selection (self->state);
}

/* A click on a run's point in a comparison opens that run; on a request's point (or bar)
 * of one run, picks it, in every plot. */
static void
on_point_activated (IvChartView *view, guint series, guint64 index, double x, double y,
                    IvRunsPlotArea *self)
{
  const IvPlotSpec *spec = &self->override;
  const IvSweep *sweep = self->state ? iv_runs_state_get_sweep (self->state) : NULL;
  const IvRun *run = sweep ? iv_runs_state_get_run (self->state) : NULL;

  if (run)
    {
      guint32 request = iv_runs_request_at (spec, run, x, y);
      if (request != G_MAXUINT)
        iv_runs_state_toggle_request (self->state, request);
      return;
    }
  if (!sweep || !spec->x.metric || !spec->y.metric)
    return;
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      if (iv_run_axis_value (r, spec->x.metric, spec->x.stat) == x
          && iv_run_axis_value (r, spec->y.metric, spec->y.stat) == y)
        {
          g_object_set (self->state, "run", i, NULL);
          return;
        }
    }
}

/* The statistic picker lists stats[]; "no statistic" (each preset's own) shows as avg. */
static gboolean
stat_to_position (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  const char *stat = g_value_get_string (from);
  guint at = 0;

  for (guint i = 0; stat && stats[i]; i++)
    if (g_str_equal (stats[i], stat))
      at = i;
  g_value_set_uint (to, at);
  return TRUE;
}

static gboolean
position_to_stat (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);

  if (i >= G_N_ELEMENTS (stats) - 1)
    return FALSE;
  g_value_set_string (to, stats[i]);
  return TRUE;
}

void
iv_runs_plot_area_set_state (IvRunsPlotArea *self, IvRunsState *state)
{
  const GBindingFlags both = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;
  static const char *const redraw_on[]
      = { "notify::plot",     "notify::custom-x",  "notify::custom-y", "notify::statistic",
          "notify::group-by", "notify::aiperf",    "notify::hardware", "notify::tp",
          "notify::model",    "notify::n-selected" };
  struct
  {
    const char *property;
    GtkDropDown *dropdown;
  } keyed[] = { { "custom-x", self->x_choice },
                { "custom-y", self->y_choice },
                { "group-by", self->group_choice } };

  g_return_if_fail (IV_IS_RUNS_PLOT_AREA (self));
  g_return_if_fail (self->state == NULL);
  self->state = g_object_ref (state);
  iv_runs_bound_row_set_state (self->bound_row, state);
  for (guint i = 0; i < G_N_ELEMENTS (keyed); i++)
    g_object_bind_property_full (state, keyed[i].property, keyed[i].dropdown, "selected", both,
                                 iv_runs_key_to_position, iv_runs_position_to_key,
                                 keyed[i].dropdown, NULL);
  g_object_bind_property_full (state, "statistic", self->stat_choice, "selected", both,
                               stat_to_position, position_to_stat, NULL, NULL);
  /* the toggles and the chart's right-click menu are two views of the same state */
  g_object_bind_property (state, "log-x", self->log_x, "active", both);
  g_object_bind_property (state, "log-y", self->log_y, "active", both);
  g_object_bind_property (state, "log-x", self->chart, "log-x", both);
  g_object_bind_property (state, "log-y", self->chart, "log-y", both);
  g_object_bind_property (state, "aiperf", self->aiperf, "active", both);
  g_signal_connect_object (state, "notify::sweep", G_CALLBACK (on_shown), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::run", G_CALLBACK (on_shown), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (redraw_on); i++)
    g_signal_connect_object (state, redraw_on[i], G_CALLBACK (draw), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "selection-changed", G_CALLBACK (describe_selection), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (state, "notify::plot", G_CALLBACK (show_plot_title), self,
                           G_CONNECT_SWAPPED);
  on_shown (self);
}

IvRunsBoundRow *
iv_runs_plot_area_get_bound_row (IvRunsPlotArea *self)
{
  g_return_val_if_fail (IV_IS_RUNS_PLOT_AREA (self), NULL);
  return self->bound_row;
}

const char *
iv_runs_plot_area_get_notes (IvRunsPlotArea *self)
{
  g_return_val_if_fail (IV_IS_RUNS_PLOT_AREA (self), NULL);
  return self->notes;
}

int
iv_runs_plot_area_get_controls_height (IvRunsPlotArea *self, int width)
{
  int controls = 0, spacing = gtk_box_get_spacing (GTK_BOX (self->box));

  g_return_val_if_fail (IV_IS_RUNS_PLOT_AREA (self), 0);
  /* the box's first child holds the rows above the figure */
  width -= gtk_widget_get_margin_start (self->box) + gtk_widget_get_margin_end (self->box);
  gtk_widget_measure (gtk_widget_get_first_child (self->box), GTK_ORIENTATION_VERTICAL,
                      MAX (width, 1), NULL, &controls, NULL, NULL);
  return controls + spacing + gtk_widget_get_margin_top (self->box)
         + gtk_widget_get_margin_bottom (self->box);
}

const IvFigure *
iv_runs_plot_area_get_figure (IvRunsPlotArea *self)
{
  g_return_val_if_fail (IV_IS_RUNS_PLOT_AREA (self), NULL);
  if (self->skipped_now)
    return NULL;
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->plot_stack), "figure") == 0)
    return iv_figure_view_get_figure (self->figure_view);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->plot_stack), "serving") == 0)
    return self->serving_drawn.render ? &self->serving_drawn : NULL;
  return iv_chart_view_get_figure (self->chart);
}

static void
iv_runs_plot_area_dispose (GObject *object)
{
  IvRunsPlotArea *self = IV_RUNS_PLOT_AREA (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_RUNS_PLOT_AREA);
  clear_serving (self);
  g_clear_object (&self->state);
  g_clear_object (&self->plots);
  g_clear_object (&self->plot_picked);
  g_clear_pointer (&self->custom.name, g_free);
  g_clear_pointer (&self->notes, g_free);
  G_OBJECT_CLASS (iv_runs_plot_area_parent_class)->dispose (object);
}

static void
iv_runs_plot_area_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  if (prop == PROP_NOTES)
    g_value_set_string (value, IV_RUNS_PLOT_AREA (object)->notes);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_runs_plot_area_class_init (IvRunsPlotAreaClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_plot_area_dispose;
  G_OBJECT_CLASS (klass)->get_property = iv_runs_plot_area_get_property;
  properties[PROP_NOTES]
      = g_param_spec_string ("notes", NULL, NULL, NULL,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (IV_TYPE_CHART_VIEW);
  g_type_ensure (IV_TYPE_FIGURE_VIEW);
  g_type_ensure (IV_TYPE_RUNS_BOUND_ROW);
  g_type_ensure (IV_TYPE_RUNS_ITEM);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-runs-plot-area.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvRunsPlotArea, name)
  CHILD (box);
  CHILD (plot_choice);
  CHILD (plot_label);
  CHILD (plot_popover);
  CHILD (plot_search);
  CHILD (plot_scroller);
  CHILD (plot_list);
  CHILD (plot_none);
  CHILD (stat_choice);
  CHILD (group_choice);
  CHILD (group_label);
  CHILD (x_choice);
  CHILD (y_choice);
  CHILD (compare_controls);
  CHILD (log_x);
  CHILD (log_y);
  CHILD (aiperf);
  CHILD (custom_controls);
  CHILD (selection_row);
  CHILD (selection_label);
  CHILD (plot_stack);
  CHILD (figure_view);
  CHILD (serving_area);
  CHILD (chart);
  CHILD (skipped);
  CHILD (bound_row);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_point_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_selection);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_popover_show);
}

static void
iv_runs_plot_area_init (IvRunsPlotArea *self)
{
  GtkEventController *key;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->serving_area, draw_serving_area, self, NULL);
  /* the plot list: every plot until a search narrows it (its terms: title and name) */
  self->plots = g_list_store_new (IV_TYPE_RUNS_ITEM);
  self->plot_filter
      = gtk_string_filter_new (gtk_property_expression_new (IV_TYPE_RUNS_ITEM, NULL, "terms"));
  gtk_string_filter_set_match_mode (self->plot_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->plot_filter, TRUE);
  self->plot_picked = gtk_single_selection_new (G_LIST_MODEL (gtk_filter_list_model_new (
      G_LIST_MODEL (g_object_ref (self->plots)), GTK_FILTER (self->plot_filter))));
  gtk_list_view_set_model (self->plot_list, GTK_SELECTION_MODEL (self->plot_picked));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_plot_search_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->plot_search), key);
  /* Any quantity against any other, its axes chosen beside the plot list: untitled, so
   * the chart is titled from the axes picked ("Inter-token latency vs Concurrency") */
  self->custom.name = g_strdup ("custom");
  self->custom.type = IV_PLOT_SCATTER_LINE;
  self->custom.ci_level = 0.95;
}

GtkWidget *
iv_runs_plot_area_new (void)
{
  return g_object_new (IV_TYPE_RUNS_PLOT_AREA, NULL);
}
