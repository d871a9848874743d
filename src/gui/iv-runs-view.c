/* iv-runs-view.c: a run or a sweep in the Runs workspace (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-view.h"
#include "iv-tooltip.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "iv-plain-text.h"
#include "iv-render-runs.h"
#include "iv-preset.h"
#include "iv-run-bound.h"
#include "iv-run-series.h"
#include "iv-safe-text.h"
#include "iv-run-card.h"
#include "iv-runs-bound-row.h"
#include "iv-runs-notes.h"
#include "iv-runs-state.h"
#include "iv-runs-table-view.h"
#include "iv-units.h"

/* ---- the view -------------------------------------------------------------------------- */

struct _IvRunsView
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkLabel *title, *subtitle, *notes;
  GtkWidget *live_badge; /* AIPerf is still writing what is shown */
  gboolean growing;      /* refreshing for new data: the user's choices stay */
  char *shown_path;      /* the folder of the run opened from the comparison */
  GtkWidget *notes_scroller;
  GtkButton *back;
  IvRunCard *card;           /* one run: the summary (in Run Details' popover) */
  GtkWidget *details_button; /* one run: opens the card */
  IvRunsTableView *table;    /* one run's metrics, or the runs */
  GtkDropDown *plot_choice;
  GtkStringList *plot_names;
  GtkWidget *compare_controls; /* stat and grouping, comparisons only */
  GtkWidget *paned;            /* the table above the plot */
  GtkDropDown *stat_choice, *group_choice;
  GtkStringList *group_names;
  GtkToggleButton *log_x, *log_y;
  GtkToggleButton *aiperf;    /* draw aiperf plot's numbers (its GPU count, p50, rules) */
  GtkLabel *aiperf_notes;     /* where the figure shown differs from aiperf plot's */
  GtkWidget *custom_controls; /* a comparison of any two quantities */
  GtkDropDown *x_choice, *y_choice;
  GtkStringList *quantity_titles;
  GPtrArray *quantities; /* char*: field keys and metric tags, parallel to quantity_titles */
  IvPlotSpec *custom;
  GtkWidget *selection_row;
  GtkLabel *selection_label;
  GtkStack *plot_stack; /* "chart", "figure" (panels, a surface) or "skipped" */
  IvFigureView *figure_view;
  IvChartView *chart;
  AdwStatusPage *skipped;

  const IvSweep *sweep;
  GObject *owner;
  guint run;                    /* G_MAXUINT: comparing */
  const IvPlotConfigs *configs; /* the document's, read with its runs */
  IvPlotConfig *builtin;        /* without them: the built-in one */
  const IvPlotConfig *config;   /* the one that applies to what is shown */
  const char *config_error;     /* why the configuration found could not be read */
  GPtrArray *specs;             /* const IvPlotSpec*, parallel to plot_names */
  IvPlotSpec *custom_spec;      /* owned; self->custom points at it in multi-run mode */
  IvPlotSpec override;          /* the chosen preset with the state's statistic and grouping */
  IvRunsState *state;           /* statistic, grouping, log axes, picked requests */
  char *skip_reason;
  char *group_strv[2];
  IvRunsBoundRow *bound_row; /* the hardware the runs are set against (§9) */
};

G_DEFINE_FINAL_TYPE (IvRunsView, iv_runs_view, GTK_TYPE_WIDGET)

static const char *const stats[] = { "avg", "p50", "p90", "p95", "p99", "min", "max", NULL };

static const IvRun *
shown_run (IvRunsView *self)
{
  if (!self->sweep)
    return NULL;
  if (self->sweep->runs->len == 1)
    return self->sweep->runs->pdata[0];
  return self->run < self->sweep->runs->len ? self->sweep->runs->pdata[self->run] : NULL;
}

const IvRun *
iv_runs_view_get_run (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return shown_run (self);
}

/* ---- tables ---- */

/* One run: every metric with its statistics. */
static void
fill_metrics (IvRunsView *self, const IvRun *r)
{
  g_autoptr (IvRunsTable) t = iv_runs_table_metrics (r);
  iv_runs_table_view_show (self->table, t, 230);
}

/* Several runs: configuration and headline metrics; with hardware chosen, the bound. */
static void
fill_runs (IvRunsView *self)
{
  g_autoptr (IvRunsTable) t
      = iv_runs_table_comparison (self->sweep, iv_runs_bound_row_get_choice (self->bound_row));
  /* a run's label is short (what varies); the headline numbers get the room */
  iv_runs_table_view_show (self->table, t, 150);
}

/* ---- notes ---- */

/* What the shown numbers hold and what was left out, one line each: for one run its
 * records-versus-summary note, the metrics whose records disagree with the summary and
 * its warnings; for the comparison the runs that did not load and each run's notes. */
static void
fill_notes (IvRunsView *self, const IvRun *r)
{
  const IvRunsBoundChoice *bound = iv_runs_bound_row_get_choice (self->bound_row);
  g_autoptr (GString) text = g_string_new (NULL);
  guint n_lines = 0;

#define LINE(str)                                                                                  \
  G_STMT_START                                                                                     \
  {                                                                                                \
    if (text->len)                                                                                 \
      g_string_append_c (text, '\n');                                                              \
    g_string_append (text, (str));                                                                 \
    n_lines++;                                                                                     \
  }                                                                                                \
  G_STMT_END
  if (self->config_error)
    LINE (self->config_error);
  if (iv_runs_bound_row_get_error (self->bound_row))
    LINE (iv_runs_bound_row_get_error (self->bound_row));
  /* the plot configuration's own warnings (unknown keys, undefined defaults) */
  for (guint i = 0; self->config && i < self->config->warnings->len; i++)
    LINE ((const char *) self->config->warnings->pdata[i]);
  if (bound->hardware)
    {
      /* a run the bound cannot be computed for says why, once per reason */
      g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < self->sweep->runs->len; i++)
        {
          IvRunBound b;
          if (r && self->sweep->runs->pdata[i] != r)
            continue;
          iv_run_bound_compute (self->sweep->runs->pdata[i], bound->model, bound->hardware,
                                bound->tp, &b);
          if (!b.ok && !g_ptr_array_find_with_equal_func (said, b.error, g_str_equal, NULL))
            {
              g_autofree char *line
                  = g_strdup_printf (_ ("Bound on %s: %s"), bound->hardware->name, b.error);
              LINE (line);
              g_ptr_array_add (said, g_strdup (b.error));
            }
          iv_run_bound_clear (&b);
        }
    }
  {
    /* the runs' own notes (iv-runs-notes.c, as the report and the command line say them);
     * the GPU count matters where per-GPU throughput is drawn: across runs */
    g_autoptr (GPtrArray) said
        = iv_runs_notes (self->sweep, r, r ? IV_RUNS_NOTES_DEFAULT : IV_RUNS_NOTES_GPU);
    for (guint i = 0; i < said->len; i++)
      {
        g_autofree char *line = iv_runs_note_line (said->pdata[i], self->sweep, r);
        LINE (line);
      }
  }
#undef LINE
  iv_label_set_valid_text (self->notes, text->str); /* names and messages from the runs */
  gtk_widget_set_visible (self->notes_scroller, n_lines > 0);
}

/* ---- plots ---- */

/* Any quantity against any other, its axes chosen beside the plot list: the one plot
 * whose definition the window makes, since the user picks it there. */
static IvPlotSpec *
custom_spec_new (void)
{
  IvPlotSpec *s = g_new0 (IvPlotSpec, 1);
  s->name = g_strdup ("custom");
  s->type = IV_PLOT_SCATTER_LINE;
  /* untitled, so the chart is titled from the axes picked ("Inter-token latency vs
   * Concurrency"); the plot list names it by what it is */
  s->ci_level = 0.95;
  return s;
}

static void
custom_spec_reset (IvPlotSpec *s)
{
  g_free (s->x.metric), g_free (s->y.metric);
  s->x.metric = g_strdup ("concurrency");
  s->y.metric = g_strdup ("time_to_first_token");
}

static void
spec_free (gpointer p)
{
  IvPlotSpec *s = p;
  g_free (s->name), g_free (s->title), g_free (s->x.metric), g_free (s->y.metric);
  g_free (s);
}

/* Every configuration field and every metric any run has, for the custom comparison. */
static void on_quantity_chosen (IvRunsView *self);

static void
fill_quantities (IvRunsView *self)
{
  /* the lists are rebuilt under the drop-downs: their passing selections are not choices */
  g_signal_handlers_block_by_func (self->x_choice, on_quantity_chosen, self);
  g_signal_handlers_block_by_func (self->y_choice, on_quantity_chosen, self);
  g_ptr_array_set_size (self->quantities, 0);
  gtk_string_list_splice (self->quantity_titles, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->quantity_titles)), NULL);
  for (IvField f = IV_FIELD_CONCURRENCY; f < IV_N_FIELDS; f++)
    if (f != IV_FIELD_ENDPOINT_TYPE && f != IV_FIELD_STREAMING)
      {
        g_ptr_array_add (self->quantities, g_strdup (iv_field_key (f)));
        gtk_string_list_append (self->quantity_titles, iv_field_title (f));
      }
  g_ptr_array_add (self->quantities, g_strdup ("output_token_throughput_per_gpu"));
  {
    g_autofree char *t = iv_metric_title ("output_token_throughput_per_gpu");
    gtk_string_list_append (self->quantity_titles, t);
  }
  for (guint i = 0; i < self->sweep->runs->len; i++)
    {
      g_autoptr (GPtrArray) tags = iv_run_metric_tags (self->sweep->runs->pdata[i]);
      for (guint k = 0; k < tags->len; k++)
        if (!g_ptr_array_find_with_equal_func (self->quantities, tags->pdata[k], g_str_equal, NULL))
          {
            g_autofree char *t = iv_metric_title (tags->pdata[k]);
            g_ptr_array_add (self->quantities, g_strdup (tags->pdata[k]));
            gtk_string_list_append (self->quantity_titles, t);
          }
    }
  for (guint i = 0; i < self->quantities->len; i++)
    {
      if (g_str_equal (self->quantities->pdata[i], self->custom->x.metric))
        gtk_drop_down_set_selected (self->x_choice, i);
      if (g_str_equal (self->quantities->pdata[i], self->custom->y.metric))
        gtk_drop_down_set_selected (self->y_choice, i);
    }
  g_signal_handlers_unblock_by_func (self->x_choice, on_quantity_chosen, self);
  g_signal_handlers_unblock_by_func (self->y_choice, on_quantity_chosen, self);
}

static void on_plot_chosen (IvRunsView *self);

/* The presets of the configuration for one run or for the comparison, the first chosen
 * (no plot drawn: the caller draws it). */
static void
fill_plot_choices (IvRunsView *self, gboolean multi)
{
  GPtrArray *presets = multi ? self->config->multi_plots : self->config->single_plots;

  g_ptr_array_set_size (self->specs, 0);
  self->custom = NULL;
  /* The configuration's presets, then Inferview's own (iv_plot_config_load adds them). */
  for (guint i = 0; i < presets->len; i++)
    g_ptr_array_add (self->specs, presets->pdata[i]);
  if (multi)
    {
      /* the last entry, reset for each sweep */
      self->custom = self->custom_spec;
      custom_spec_reset (self->custom);
      g_ptr_array_add (self->specs, self->custom);
      fill_quantities (self);
    }
  g_signal_handlers_block_by_func (self->plot_choice, on_plot_chosen, self);
  gtk_string_list_splice (self->plot_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->plot_names)), NULL);
  for (guint i = 0; i < self->specs->len; i++)
    {
      const IvPlotSpec *s = self->specs->pdata[i];
      if (s == self->custom)
        gtk_string_list_append (self->plot_names, _ ("Custom: Any Metric vs Any Metric…"));
      else
        gtk_string_list_append (self->plot_names, s->title ? s->title : s->name);
    }
  gtk_drop_down_set_selected (self->plot_choice, 0);
  g_signal_handlers_unblock_by_func (self->plot_choice, on_plot_chosen, self);
}

static void
show_chosen_plot (IvRunsView *self)
{
  guint i = gtk_drop_down_get_selected (self->plot_choice);
  const IvPlotSpec *spec;
  IvChart *chart;
  IvRunsFigure drawn;
  gboolean multi = shown_run (self) == NULL;

  g_clear_pointer (&self->skip_reason, g_free);
  if (!self->sweep || i >= self->specs->len)
    return;
  spec = self->specs->pdata[i];
  gtk_widget_set_visible (self->custom_controls, spec == self->custom && self->custom);
  /* The picker's statistic and grouping apply to comparisons. */
  self->override = *spec;
  self->override.bound_hardware = iv_runs_bound_row_get_choice (self->bound_row)->hardware;
  self->override.bound_tp = iv_runs_bound_row_get_choice (self->bound_row)->tp;
  self->override.bound_model = iv_runs_bound_row_get_choice (self->bound_row)->model;
  self->override.aiperf_compatible = gtk_toggle_button_get_active (self->aiperf);
  /* aiperf plot takes each run's p50 whatever the statistic: the picker stays out */
  if (multi && !self->override.aiperf_compatible)
    {
      /* The picked statistic applies to metrics measured per request; a throughput is
       * one number per run (its avg), whatever the picker says. */
      const IvRun *first = self->sweep->runs->pdata[0];
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
        }
    }
  {
    /* the card under the plot: what aiperf plot would draw otherwise, one line each */
    g_autoptr (GPtrArray) notes = iv_runs_aiperf_notes (
        &self->override, self->sweep, multi ? self->sweep->runs->pdata[0] : shown_run (self));
    g_autoptr (GString) text = g_string_new (NULL);
    for (guint k = 0; k < notes->len; k++)
      g_string_append_printf (text, "%s%s %s", k ? "\n" : "", _ ("Differs from aiperf plot:"),
                              (const char *) notes->pdata[k]);
    iv_label_set_valid_text (self->aiperf_notes, text->str);
    gtk_widget_set_visible (GTK_WIDGET (self->aiperf_notes), notes->len > 0);
  }
  if (!iv_runs_figure (&self->override, self->sweep,
                       multi ? self->sweep->runs->pdata[0] : shown_run (self), &drawn,
                       &self->skip_reason))
    {
      /* the description is markup; the reason names metrics and runs from data */
      g_autofree char *reason = iv_markup_from_text (self->skip_reason);
      adw_status_page_set_description (self->skipped, reason);
      gtk_stack_set_visible_child_name (self->plot_stack, "skipped");
      return;
    }
  if (!drawn.chart)
    {
      iv_figure_view_set_figure (self->figure_view, &drawn, spec->name);
      gtk_stack_set_visible_child_name (self->plot_stack, "figure");
      return;
    }
  chart = g_steal_pointer (&drawn.chart);
  {
    const GArray *picked = iv_runs_state_get_selection (self->state);
    if (!multi && picked->len)
      iv_runs_chart_highlight (chart, &self->override, shown_run (self),
                               (const guint32 *) picked->data, picked->len);
  }
  iv_chart_view_set_chart (self->chart, chart, spec->name);
  gtk_stack_set_visible_child_name (self->plot_stack, "chart");
}

/* "Request 5: TTFT 31.4 ms, latency 3630 ms" for the first few selected. */
static void
describe_selection (IvRunsView *self)
{
  const IvRun *r = shown_run (self);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GArray) order = NULL;
  g_autofree double *ttft = NULL, *lat = NULL;
  g_autofree guint *rank = NULL;
  const GArray *picked = iv_runs_state_get_selection (self->state);

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

void
iv_runs_view_select_request (IvRunsView *self, guint32 request)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  iv_runs_state_toggle_request (self->state, request);
}

const GArray *
iv_runs_view_get_selected_requests (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return iv_runs_state_get_selection (self->state);
}

static void
on_clear_selection (IvRunsView *self)
{
  iv_runs_state_clear_selection (self->state);
}

static void
on_selection_changed (IvRunsView *self)
{
  describe_selection (self);
  show_chosen_plot (self);
}

static void
on_plot_chosen (IvRunsView *self)
{
  show_chosen_plot (self);
}

gboolean
iv_runs_view_show_plot (IvRunsView *self, const char *name)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), FALSE);
  for (guint i = 0; i < self->specs->len; i++)
    if (g_str_equal (((IvPlotSpec *) self->specs->pdata[i])->name, name))
      {
        if (gtk_drop_down_get_selected (self->plot_choice) == i)
          show_chosen_plot (self);
        else
          gtk_drop_down_set_selected (self->plot_choice, i);
        return TRUE;
      }
  return FALSE;
}

void
iv_runs_view_set_stat (IvRunsView *self, const char *stat)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  g_object_set (self->state, "statistic", stat, NULL);
}

void
iv_runs_view_set_group_by (IvRunsView *self, const char *field)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  g_object_set (self->state, "group-by", field, NULL);
}

IvRunsState *
iv_runs_view_get_state (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return self->state;
}

/* The statistic picker lists stats[]; "no statistic" (each preset's own) shows as avg. */
static gboolean
stat_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
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
index_to_stat (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);
  if (i >= g_strv_length ((char **) stats))
    return FALSE;
  g_value_set_string (to, stats[i]);
  return TRUE;
}

/* The grouping picker: entry 0 is the model, then the sweep's varying fields. */
static gboolean
group_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  IvRunsView *self = data;
  const char *key = g_value_get_string (from);
  guint at = 0;
  for (guint i = 0; key && self->sweep && i < self->sweep->varying->len; i++)
    if (g_str_equal (iv_field_key (GPOINTER_TO_UINT (self->sweep->varying->pdata[i])), key))
      at = i + 1;
  g_value_set_uint (to, at);
  return TRUE;
}

static gboolean
index_to_group (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  IvRunsView *self = data;
  guint i = g_value_get_uint (from);
  GValue now = G_VALUE_INIT;
  guint shown;

  if (i == GTK_INVALID_LIST_POSITION)
    return FALSE;
  /* the entry that shows the state already (entry 0 also stands for "the preset's own"):
   * nothing chosen */
  g_value_init (&now, G_TYPE_STRING);
  g_value_set_string (&now, iv_runs_state_get_group_by (self->state));
  {
    GValue at = G_VALUE_INIT;
    g_value_init (&at, G_TYPE_UINT);
    group_to_index (binding, &now, &at, self);
    shown = g_value_get_uint (&at);
  }
  g_value_unset (&now);
  if (i == shown)
    return FALSE;
  if (i == 0)
    g_value_set_string (to, "model");
  else if (self->sweep && i - 1 < self->sweep->varying->len)
    g_value_set_string (to, iv_field_key (GPOINTER_TO_UINT (self->sweep->varying->pdata[i - 1])));
  else
    return FALSE;
  return TRUE;
}

static void
bind_state (IvRunsView *self)
{
  const GBindingFlags both = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;

  g_object_bind_property_full (self->state, "statistic", self->stat_choice, "selected", both,
                               stat_to_index, index_to_stat, NULL, NULL);
  g_object_bind_property_full (self->state, "group-by", self->group_choice, "selected", both,
                               group_to_index, index_to_group, self, NULL);
  /* the toggles and the chart's right-click menu are two views of the same state */
  g_object_bind_property (self->state, "log-x", self->log_x, "active", both);
  g_object_bind_property (self->state, "log-y", self->log_y, "active", both);
  g_object_bind_property (self->state, "log-x", self->chart, "log-x", both);
  g_object_bind_property (self->state, "log-y", self->chart, "log-y", both);
  g_signal_connect_swapped (self->aiperf, "toggled", G_CALLBACK (show_chosen_plot), self);
  g_signal_connect_swapped (self->state, "notify::statistic", G_CALLBACK (show_chosen_plot), self);
  g_signal_connect_swapped (self->state, "notify::group-by", G_CALLBACK (show_chosen_plot), self);
  g_signal_connect_swapped (self->state, "selection-changed", G_CALLBACK (on_selection_changed),
                            self);
}

static void
on_quantity_chosen (IvRunsView *self)
{
  guint x, y;

  x = gtk_drop_down_get_selected (self->x_choice);
  y = gtk_drop_down_get_selected (self->y_choice);
  if (!self->custom || x >= self->quantities->len || y >= self->quantities->len)
    return;
  g_free (self->custom->x.metric);
  g_free (self->custom->y.metric);
  self->custom->x.metric = g_strdup (self->quantities->pdata[x]);
  self->custom->y.metric = g_strdup (self->quantities->pdata[y]);
  show_chosen_plot (self);
}

void
iv_runs_view_set_custom (IvRunsView *self, const char *x, const char *y)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  for (guint i = 0; self->custom && i < self->quantities->len; i++)
    {
      if (g_str_equal (self->quantities->pdata[i], x))
        gtk_drop_down_set_selected (self->x_choice, i);
      if (g_str_equal (self->quantities->pdata[i], y))
        gtk_drop_down_set_selected (self->y_choice, i);
    }
  iv_runs_view_show_plot (self, "custom");
}

/* ---- showing a run, or the comparison ---- */

static void
refresh (IvRunsView *self)
{
  const IvRun *r = shown_run (self);
  gboolean multi = r == NULL;
  g_autofree char *sub = NULL;

  /* growing, the plots listed stay the ones of this configuration (they point into it);
   * the configurations were read with the runs: nothing is read here */
  if (!self->growing || !self->config)
    {
      self->config_error = NULL;
      if (self->configs)
        self->config = iv_plot_configs_get (self->configs, r ? r->path : NULL, &self->config_error);
      else
        {
          if (!self->builtin)
            self->builtin = iv_plot_config_load (NULL, NULL);
          self->config = self->builtin;
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->back), r && self->sweep->runs->len > 1);
  gtk_widget_set_visible (self->details_button, !multi);
  gtk_widget_set_visible (self->live_badge,
                          r ? r->live != NULL : iv_sweep_n_live (self->sweep) > 0);
  /* The table above the plot, both the page's width: a run's eight statistics side by
   * side and a time series as wide as it can be. The table shows a few rows (more
   * when the page is tall); the divider gives it more. */
  if (!self->growing)
    {
      guint rows = multi ? self->sweep->runs->len : 6;
      int tall = gtk_widget_get_height (self->paned);
      int pos = 60 + 34 * (int) MIN (rows, 8);
      if (!multi && tall > 0)
        pos = CLAMP (tall * 2 / 5, 150, 60 + 34 * 12);
      gtk_paned_set_position (GTK_PANED (self->paned), pos);
    }
  gtk_widget_set_visible (self->compare_controls, multi);
  if (r)
    {
      g_autofree char *label = iv_sweep_run_label (self->sweep, r);
      iv_label_set_valid_text (self->title, r->name);
      double summary = iv_run_summary_requests (r);
      g_autofree char *reqs
          = r->has_records && isfinite (summary) && (double) iv_run_good_records (r) < summary
                ? g_strdup_printf (_ ("%" G_GSIZE_FORMAT " of %.0f requests"), r->n_requests,
                                   summary)
                : g_strdup_printf (g_dngettext (NULL, "%" G_GSIZE_FORMAT " request",
                                                "%" G_GSIZE_FORMAT " requests", r->n_requests),
                                   r->n_requests);
      g_autofree char *errs
          = g_strdup_printf (g_dngettext (NULL, "%" G_GSIZE_FORMAT " error",
                                          "%" G_GSIZE_FORMAT " errors", r->n_errors),
                             r->n_errors);
      /* the card's headline facts, so the popover is for the rest */
      sub = g_strdup_printf ("%s%s%s · %s · %s", r->model ? r->model : "", r->model ? " · " : "",
                             label, reqs, errs);
      iv_run_card_set_run (self->card, r, iv_runs_bound_row_get_choice (self->bound_row));
      fill_metrics (self, r);
    }
  else
    {
      GString *vary = g_string_new (NULL);
      {
        g_autofree char *t
            = g_strdup_printf (g_dngettext (NULL, "%u run", "%u runs", self->sweep->runs->len),
                               self->sweep->runs->len);
        gtk_label_set_text (self->title, t);
      }
      for (guint i = 0; i < self->sweep->varying->len; i++)
        g_string_append_printf (vary, "%s%s", i ? ", " : "",
                                iv_field_title (GPOINTER_TO_UINT (self->sweep->varying->pdata[i])));
      sub = vary->len ? g_strdup_printf (
                _ ("varying: %s — click a point or a row to open that run"), vary->str)
                      : g_strdup (_ ("click a point or a row to open that run"));
      g_string_free (vary, TRUE);
      fill_runs (self);
      if (!self->growing
          || g_list_model_get_n_items (G_LIST_MODEL (self->group_names))
                 != self->sweep->varying->len + 1)
        {
          /* the drop-down's notifications wait until it shows the state's grouping in
           * the new list, so its passing selections are never taken for a choice (and
           * then it finds the state as it shows: see index_to_group) */
          g_autoptr (GPtrArray) names = g_ptr_array_new ();
          g_object_freeze_notify (G_OBJECT (self->group_choice));
          g_ptr_array_add (names, (gpointer) iv_field_title (IV_FIELD_MODEL));
          for (guint i = 0; i < self->sweep->varying->len; i++)
            g_ptr_array_add (names, (gpointer) iv_field_title (
                                        GPOINTER_TO_UINT (self->sweep->varying->pdata[i])));
          g_ptr_array_add (names, NULL);
          gtk_string_list_splice (self->group_names, 0,
                                  g_list_model_get_n_items (G_LIST_MODEL (self->group_names)),
                                  (const char *const *) names->pdata);
          {
            /* the drop-down to the state (its entries moved under it) */
            GValue now = G_VALUE_INIT, at = G_VALUE_INIT;
            g_value_init (&now, G_TYPE_STRING);
            g_value_init (&at, G_TYPE_UINT);
            g_value_set_string (&now, iv_runs_state_get_group_by (self->state));
            group_to_index (NULL, &now, &at, self);
            gtk_drop_down_set_selected (self->group_choice, g_value_get_uint (&at));
            g_value_unset (&now);
          }
          g_object_thaw_notify (G_OBJECT (self->group_choice));
        }
    }
  iv_label_set_valid_text (self->subtitle, sub); /* the run's model name, from its files */
  fill_notes (self, r);
  if (!self->growing)
    fill_plot_choices (self, multi);
  show_chosen_plot (self);
}

void
iv_runs_view_update (IvRunsView *self)
{
  g_autofree char *shown = NULL;

  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  if (!self->sweep)
    return;
  /* the run shown stays shown, wherever new runs put it (and however it was reloaded) */
  if (self->run != G_MAXUINT && self->sweep->runs->len > 1)
    {
      shown = g_strdup (self->shown_path);
      self->run = G_MAXUINT;
      for (guint i = 0; shown && i < self->sweep->runs->len; i++)
        if (g_str_equal (((const IvRun *) self->sweep->runs->pdata[i])->path, shown))
          self->run = i;
    }
  self->growing = TRUE;
  refresh (self);
  self->growing = FALSE;
}

void
iv_runs_view_open_run (IvRunsView *self, guint index)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  if (!self->sweep)
    return;
  self->run = index < self->sweep->runs->len ? index : G_MAXUINT;
  g_free (self->shown_path);
  self->shown_path = self->run != G_MAXUINT
                         ? g_strdup (((const IvRun *) self->sweep->runs->pdata[index])->path)
                         : NULL;
  /* the old selection is not this run's: cleared without the redraw it would ask for,
   * since refresh draws the run once */
  g_signal_handlers_block_by_func (self->state, on_selection_changed, self);
  iv_runs_state_clear_selection (self->state);
  g_signal_handlers_unblock_by_func (self->state, on_selection_changed, self);
  refresh (self);
  describe_selection (self);
}

/* The folder whose choice of hardware is remembered: the first path opened. */
static const char *
bound_key (const IvSweep *sweep)
{
  return sweep && sweep->paths && sweep->paths[0] ? sweep->paths[0] : NULL;
}

void
iv_runs_view_set_sweep (IvRunsView *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                        GObject *owner)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  /* the configuration shown, and the presets listed from it, are the old owner's: let go
   * of them first */
  self->config = NULL;
  self->config_error = NULL;
  g_ptr_array_set_size (self->specs, 0);
  self->override = (IvPlotSpec){ 0 };
  /* no sweep while the bound row restores the folder's choice and the state starts over
   * (each preset's own statistic and grouping, nothing picked): nothing is drawn for
   * them, and refresh draws the new sweep once */
  self->sweep = NULL;
  iv_runs_bound_row_set_folder (self->bound_row, bound_key (sweep));
  iv_runs_state_reset (self->state);
  g_set_object (&self->owner, owner);
  self->configs = configs;
  self->sweep = sweep;
  self->run = G_MAXUINT;
  if (sweep)
    refresh (self);
  describe_selection (self);
}

/* The bound row's choice changed (or its config.json could not be read): redrawn. */
static void
on_bound_changed (IvRunsView *self)
{
  if (self->sweep)
    refresh (self);
}

gboolean
iv_runs_view_set_bound_model_file (IvRunsView *self, const char *path, GError **error)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), FALSE);
  return iv_runs_bound_row_set_model_file (self->bound_row, path, error);
}

void
iv_runs_view_set_bound (IvRunsView *self, const char *hardware, gint64 tp)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  iv_runs_bound_row_set_bound (self->bound_row, hardware, tp);
}

/* A click on a run's point in a comparison: the run with those values opens. */
static void
on_point_activated (IvChartView *view, guint series, guint64 index, double x, double y,
                    IvRunsView *self)
{
  const IvPlotSpec *spec = &self->override;

  if (self->sweep && shown_run (self))
    {
      /* one run: a request's point (or bar) selects it, in every plot */
      guint32 request = iv_runs_request_at (spec, shown_run (self), x, y);
      if (request != G_MAXUINT)
        iv_runs_view_select_request (self, request);
      return;
    }
  if (!self->sweep || !spec->x.metric || !spec->y.metric)
    return;
  for (guint i = 0; i < self->sweep->runs->len; i++)
    {
      const IvRun *r = self->sweep->runs->pdata[i];
      if (iv_run_axis_value (r, spec->x.metric, spec->x.stat) == x
          && iv_run_axis_value (r, spec->y.metric, spec->y.stat) == y)
        {
          iv_runs_view_open_run (self, i);
          return;
        }
    }
}

/* A row of the comparison opens its run. */
static void
on_row_activated (IvRunsView *self, guint index)
{
  if (!shown_run (self))
    iv_runs_view_open_run (self, index);
}

IvChartView *
iv_runs_view_get_chart_view (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return self->skip_reason ? NULL : self->chart;
}

const char *
iv_runs_view_get_skip_reason (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return self->skip_reason;
}

GtkColumnView *
iv_runs_view_get_table (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return iv_runs_table_view_get_column_view (self->table);
}

const char *
iv_runs_view_get_cell (IvRunsView *self, guint row, guint column)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return iv_runs_table_view_get_cell (self->table, row, column);
}

const IvFigure *
iv_runs_view_get_figure (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  if (self->skip_reason)
    return NULL;
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->plot_stack), "figure") == 0)
    return iv_figure_view_get_figure (self->figure_view);
  return iv_chart_view_get_figure (self->chart);
}

IvFigureView *
iv_runs_view_get_figure_view (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return self->figure_view;
}

static void
iv_runs_view_dispose (GObject *object)
{
  IvRunsView *self = IV_RUNS_VIEW (object);

  /* nothing to draw while the drop-downs go (their last notifications) */
  self->sweep = NULL;
  self->custom = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_RUNS_VIEW);
  g_clear_object (&self->owner);
  self->config = NULL;
  g_clear_pointer (&self->specs, g_ptr_array_unref);
  g_clear_pointer (&self->builtin, iv_plot_config_free);
  g_clear_pointer (&self->custom_spec, spec_free);
  g_clear_pointer (&self->quantities, g_ptr_array_unref);
  g_clear_object (&self->state);
  g_clear_pointer (&self->skip_reason, g_free);
  g_clear_pointer (&self->shown_path, g_free);
  G_OBJECT_CLASS (iv_runs_view_parent_class)->dispose (object);
}

static void
on_back (IvRunsView *self)
{
  iv_runs_view_open_run (self, G_MAXUINT);
}

static void
iv_runs_view_class_init (IvRunsViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (IV_TYPE_RUNS_TABLE_VIEW);
  g_type_ensure (IV_TYPE_CHART_VIEW);
  g_type_ensure (IV_TYPE_FIGURE_VIEW);
  g_type_ensure (IV_TYPE_RUNS_BOUND_ROW);
  g_type_ensure (IV_TYPE_RUN_CARD);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-runs-view.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvRunsView, name)
  CHILD (live_badge);
  CHILD (box);
  CHILD (title);
  CHILD (subtitle);
  CHILD (notes);
  CHILD (notes_scroller);
  CHILD (back);
  CHILD (card);
  CHILD (details_button);
  CHILD (table);
  CHILD (plot_choice);
  CHILD (plot_names);
  CHILD (compare_controls);
  CHILD (paned);
  CHILD (stat_choice);
  CHILD (group_choice);
  CHILD (group_names);
  CHILD (log_x);
  CHILD (log_y);
  CHILD (aiperf);
  CHILD (aiperf_notes);
  CHILD (custom_controls);
  CHILD (x_choice);
  CHILD (y_choice);
  CHILD (quantity_titles);
  CHILD (selection_row);
  CHILD (selection_label);
  CHILD (plot_stack);
  CHILD (figure_view);
  CHILD (chart);
  CHILD (skipped);
  CHILD (bound_row);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_back);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_plot_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_quantity_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_point_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_selection);
  gtk_widget_class_bind_template_callback (widget_class, on_bound_changed);
}

static void
iv_runs_view_init (IvRunsView *self)
{
  self->run = G_MAXUINT;
  self->specs = g_ptr_array_new ();
  self->custom_spec = custom_spec_new ();
  self->quantities = g_ptr_array_new_with_free_func (g_free);

  /* the drop-downs notify as the template builds them: with no sweep nothing is drawn */
  gtk_widget_init_template (GTK_WIDGET (self));
  self->state = iv_runs_state_new ();
  bind_state (self);
}

GtkWidget *
iv_runs_view_new (void)
{
  return g_object_new (IV_TYPE_RUNS_VIEW, NULL);
}
