/* iv-runs-bound-row.h: the Runs workspace's "Bound on" row — the hardware preset the runs
 * are set against (docs/model.md §9), the model they served (as each run names it, a
 * preset, or a Hugging Face config.json given) and the TP — remembered per folder. */
#pragma once

#include <gtk/gtk.h>

#include "iv-runs-table.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_BOUND_ROW (iv_runs_bound_row_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsBoundRow, iv_runs_bound_row, IV, RUNS_BOUND_ROW, GtkWidget)

/* "changed" follows every change of the choice (by the user or by code), once; restoring
 * a folder's choice emits it only if the choice differs. */
GtkWidget *iv_runs_bound_row_new (void);
/* The choice for the folder @key (the first path opened; NULL: none remembered), restored
 * from the settings; what the user chooses next is remembered for it. */
void iv_runs_bound_row_set_folder (IvRunsBoundRow *self, const char *key);
const IvRunsBoundChoice *iv_runs_bound_row_get_choice (IvRunsBoundRow *self);
/* Chooses hardware @name (NULL: no bound) and @tp (0: the smallest that fits). */
void iv_runs_bound_row_set_bound (IvRunsBoundRow *self, const char *name, gint64 tp);
/* The model the runs served, from a Hugging Face config.json; FALSE with @error (the
 * choice unchanged) when it cannot be read. */
gboolean iv_runs_bound_row_set_model_file (IvRunsBoundRow *self, const char *path, GError **error);
/* Why the last config.json chosen in the dialog could not be read, or NULL. */
const char *iv_runs_bound_row_get_error (IvRunsBoundRow *self);

G_END_DECLS
