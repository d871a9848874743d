/* iv-runs-notes-bar.h: the Runs workspace's notes — what the numbers shown hold and what
 * was left out, one line each (src/runs/iv-runs-notes.c composes the runs' own, as the
 * report and the command line say them): never silent, three lines or so and then it
 * scrolls, hidden when there is nothing to say. */
#pragma once

#include <gtk/gtk.h>

#include "iv-plot-config.h"
#include "iv-runs-table.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_NOTES_BAR (iv_runs_notes_bar_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsNotesBar, iv_runs_notes_bar, IV, RUNS_NOTES_BAR, GtkWidget)

GtkWidget *iv_runs_notes_bar_new (void);
/* The notes on @sweep (on its run @run alone, or on the comparison when NULL): why the plot
 * configuration @config found could not be read (@config_error), why a config.json chosen
 * could not be (@bound_error), @config's own warnings, each run the bound on @bound's
 * hardware cannot be computed for (once per reason), then the runs' notes. */
void iv_runs_notes_bar_show (IvRunsNotesBar *self, const IvSweep *sweep, const IvRun *run,
                             const IvPlotConfig *config, const char *config_error,
                             const IvRunsBoundChoice *bound, const char *bound_error);
/* What is shown, one note a line. */
const char *iv_runs_notes_bar_get_text (IvRunsNotesBar *self);

G_END_DECLS
