/* iv-runs-bound-row.h: the Runs workspace's "Bound on" row — the hardware preset the runs
 * are set against (docs/model.md §9), the model they served (as each run names it, a
 * preset, or a Hugging Face config.json given) and the TP — three drop-downs bound to the
 * state's "hardware", "model" and "tp". A config.json is read off the main thread. */
#pragma once

#include <gtk/gtk.h>

#include "iv-runs-state.h"
#include "iv-runs-table.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_BOUND_ROW (iv_runs_bound_row_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsBoundRow, iv_runs_bound_row, IV, RUNS_BOUND_ROW, GtkWidget)

/* Property "error" (string, read-only): why the last config.json chosen could not be read,
 * or NULL; notifies on change. */
GtkWidget *iv_runs_bound_row_new (void);
/* Binds the drop-downs to @state (once). A "model" naming a config.json ("@PATH") not read
 * yet is read off the main thread, then iv_runs_state_model_loaded; one that cannot be
 * read leaves each run's own model. */
void iv_runs_bound_row_set_state (IvRunsBoundRow *self, IvRunsState *state);
/* The state's choice as presets and models (a config.json not read yet: each run's own). */
void iv_runs_bound_row_get_choice (IvRunsBoundRow *self, IvRunsBoundChoice *out);
/* What "config.json…" does once its file dialog has @path: reads it off the main thread,
 * then makes it the state's model, or says why not in "error". */
void iv_runs_bound_row_choose_file (IvRunsBoundRow *self, const char *path);
const char *iv_runs_bound_row_get_error (IvRunsBoundRow *self);

G_END_DECLS
