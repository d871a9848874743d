/* iv-runs-plot-area.h: the lower part of the Runs workspace — the plot chosen and its
 * controls on one row (plot, statistic and grouping when comparing, the bound, log axes,
 * aiperf plot's numbers; the custom plot's axes and the picked requests below when there
 * are) above the figure: a
 * chart with hover, zoom and export, panels or a surface, or why nothing is drawn. Every
 * control is bound to the workspace's IvRunsState; the figure is drawn once per change. */
#pragma once

#include <gtk/gtk.h>

#include "iv-render.h"
#include "iv-runs-bound-row.h"
#include "iv-runs-state.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_PLOT_AREA (iv_runs_plot_area_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsPlotArea, iv_runs_plot_area, IV, RUNS_PLOT_AREA, GtkWidget)

GtkWidget *iv_runs_plot_area_new (void);
/* Binds the controls to @state and draws what it says from then on (once). */
void iv_runs_plot_area_set_state (IvRunsPlotArea *self, IvRunsState *state);
IvRunsBoundRow *iv_runs_plot_area_get_bound_row (IvRunsPlotArea *self);
/* The notes of the plot shown (the runs the serving bound leaves out, one a line), or
 * NULL; property "notes", notified as they change. */
const char *iv_runs_plot_area_get_notes (IvRunsPlotArea *self);
/* The height of the controls above the figure (and the margins around it) at @width: the
 * figure has the rest. */
int iv_runs_plot_area_get_controls_height (IvRunsPlotArea *self, int width);
/* What is drawn (to export), or NULL when the plot was skipped. */
const IvFigure *iv_runs_plot_area_get_figure (IvRunsPlotArea *self);

G_END_DECLS
