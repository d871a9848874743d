/* iv-runs-view.h: the Runs workspace's view of a loaded run or sweep. One run: a summary
 * card, a table of every metric (avg, min, p50, p90, p95, p99, max, std with units) and
 * its plots; several runs: a sortable table of runs and the comparison plots, with a
 * statistic picker, grouping by any varying field and log axes; clicking a run's point
 * (or its row) opens that run, Back returns. Each plot is a chart view with hover, zoom
 * and export. */
#pragma once

#include <gtk/gtk.h>

#include "iv-runs-state.h"

#include "iv-chart-view.h"
#include "iv-figure-view.h"
#include "iv-plot-configs.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_VIEW (iv_runs_view_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsView, iv_runs_view, IV, RUNS_VIEW, GtkWidget)

GtkWidget *iv_runs_view_new (void);
/* Shows @sweep (kept alive by @owner, as are @configs, its plot configurations, read by
 * the document loader; NULL: the built-in one): the comparison when it has several runs. */
void iv_runs_view_set_sweep (IvRunsView *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                             GObject *owner);
/* The sweep grew (new requests, runs or summaries): redraws what is shown, keeping the
 * run, the plot and the user's choices. */
void iv_runs_view_update (IvRunsView *self);
/* The run shown alone, or NULL while comparing. */
const IvRun *iv_runs_view_get_run (IvRunsView *self);
/* Opens run @index of the sweep alone; G_MAXUINT goes back to the comparison. */
void iv_runs_view_open_run (IvRunsView *self, guint index);
/* Chooses a plot by preset name (as in the plot drop-down); FALSE if there is none. */
gboolean iv_runs_view_show_plot (IvRunsView *self, const char *name);
/* Comparison plots: the statistic (avg, p50, p90, p99) and the grouping field. */
void iv_runs_view_set_stat (IvRunsView *self, const char *stat);
void iv_runs_view_set_group_by (IvRunsView *self, const char *field);
/* The custom comparison: any quantity (field key or metric tag) against any other. */
void iv_runs_view_set_custom (IvRunsView *self, const char *x, const char *y);
/* One run: adds @request to the selection (or removes it if selected); the selection
 * is marked in every per-request plot. A click on a request's point does the same. */
void iv_runs_view_select_request (IvRunsView *self, guint32 request);
const GArray *iv_runs_view_get_selected_requests (IvRunsView *self);
/* The chart on screen (NULL when the preset was skipped), and why it was skipped. */
IvChartView *iv_runs_view_get_chart_view (IvRunsView *self);
const char *iv_runs_view_get_skip_reason (IvRunsView *self);
/* The metrics table (one run) or runs table (several) as shown. */
GtkColumnView *iv_runs_view_get_table (IvRunsView *self);
/* The text of the table's cell at @row (in the order filled, before any sorting) and
 * @column, as shown; NULL outside the table. */
const char *iv_runs_view_get_cell (IvRunsView *self, guint row, guint column);
const IvFigure *iv_runs_view_get_figure (IvRunsView *self);
/* Sets the runs against the bound of their model on @hardware (a preset's name; NULL:
 * none), TP @tp over its GPUs (0: the smallest that fits), as the "Bound on" choice does. */
void iv_runs_view_set_bound (IvRunsView *self, const char *hardware, gint64 tp);
/* The runs' model from a Hugging Face config.json (what "config.json…" beside the
 * hardware does after its file dialog); FALSE with @error when it cannot be read. */
gboolean iv_runs_view_set_bound_model_file (IvRunsView *self, const char *path, GError **error);
/* What shows presets that draw panels or a surface (the ISL × OSL figures). */
IvFigureView *iv_runs_view_get_figure_view (IvRunsView *self);

/* Statistic, grouping, log axes and picked requests, which the controls are bound to. */
IvRunsState *iv_runs_view_get_state (IvRunsView *self);

G_END_DECLS
