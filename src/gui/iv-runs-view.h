/* iv-runs-view.h: the Runs workspace — a loaded run or sweep, everything it shows held by
 * one IvRunsState. One run: a header with its Run Details card, a table of every metric
 * (avg, min, p50, p90, p95, p99, max, std with units) and its plots; several runs: a
 * sortable table of runs and the comparison plots; clicking a run's point (or its row)
 * opens that run, Back returns. The notes say what the numbers hold and what was left out.
 * What the user chose of the bound and the plot is remembered per folder (the state's
 * serialised form in the "run-bounds" setting). Widgets: iv-runs-table-view (the table),
 * iv-run-card, iv-runs-notes-bar, iv-runs-plot-area (the plot, its controls and the
 * iv-runs-bound-row). */
#pragma once

#include <gtk/gtk.h>

#include "iv-plot-configs.h"
#include "iv-render.h"
#include "iv-runs-state.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_VIEW (iv_runs_view_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsView, iv_runs_view, IV, RUNS_VIEW, GtkWidget)

GtkWidget *iv_runs_view_new (void);
/* Shows @sweep (kept alive by @owner, as are @configs, its plot configurations, read by
 * the document loader; NULL: the built-in one): the comparison when it has several runs,
 * with what was chosen for its folder before. */
void iv_runs_view_set_sweep (IvRunsView *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                             GObject *owner);
/* The sweep grew (new requests, runs or summaries): redraws what is shown, keeping the
 * run, the plot and the user's choices. */
void iv_runs_view_update (IvRunsView *self);
/* What the plot area draws (to export), or NULL when the plot was skipped. */
const IvFigure *iv_runs_view_get_figure (IvRunsView *self);
/* Everything shown: set a property and the workspace follows; the controls set it. */
IvRunsState *iv_runs_view_get_state (IvRunsView *self);

G_END_DECLS
