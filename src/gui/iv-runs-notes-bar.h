/* iv-runs-notes-bar.h: the Runs workspace's notes — what the numbers shown hold and what
 * was left out, one line each (src/runs/iv-runs-notes.c composes the runs' own, as the
 * report and the command line say them): never silent, but one line until the button
 * beside it ("2 more") opens them all (five lines or so, then it scrolls): the table and
 * the plot keep the page. Hidden when there is nothing to say. */
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
 * hardware cannot be computed for (once per reason), the plot's @plot_notes (the runs
 * its figure leaves out), then the runs' notes. */
void iv_runs_notes_bar_show (IvRunsNotesBar *self, const IvSweep *sweep, const IvRun *run,
                             const IvPlotConfig *config, const char *config_error,
                             const IvRunsBoundChoice *bound, const char *bound_error,
                             const char *plot_notes);
/* Every note, one a line (also those a closed bar does not show). */
const char *iv_runs_notes_bar_get_text (IvRunsNotesBar *self);
/* Opens (every note) or closes (the first line) the bar, as its button does. */
void iv_runs_notes_bar_set_open (IvRunsNotesBar *self, gboolean open);
gboolean iv_runs_notes_bar_get_open (IvRunsNotesBar *self);

G_END_DECLS
