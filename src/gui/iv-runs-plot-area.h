/* iv-runs-plot-area.h: the lower part of the Runs workspace — the plot chosen and its
 * controls (plot, log axes, aiperf plot's numbers, statistic and grouping when comparing,
 * the "Bound on" row, the custom plot's axes, the picked requests) above the figure: a
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
/* What is drawn (to export), or NULL when the plot was skipped. */
const IvFigure *iv_runs_plot_area_get_figure (IvRunsPlotArea *self);

G_END_DECLS
