/* iv-runs-table-view.h: a Runs table on screen — the comparison's or a run's metrics as
 * src/render/iv-runs-table.c composes them — sortable by any column (numbers by value,
 * absent ones last), the name column a fixed width with its whole text on hover. */
#pragma once

#include <gtk/gtk.h>

#include "iv-runs-table.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_TABLE_VIEW (iv_runs_table_view_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsTableView, iv_runs_table_view, IV, RUNS_TABLE_VIEW, GtkWidget)

/* "row-activated" (guint index): a row was clicked; the index is the table row's (the run
 * in the sweep, or the metric's position). */
GtkWidget *iv_runs_table_view_new (void);
/* Shows @table (copied); @first_width: the name column's width. */
void iv_runs_table_view_show (IvRunsTableView *self, const IvRunsTable *table, int first_width);
GtkColumnView *iv_runs_table_view_get_column_view (IvRunsTableView *self);
/* The text of cell @column of row @row as sorted now, or NULL. */
const char *iv_runs_table_view_get_cell (IvRunsTableView *self, guint row, guint column);

G_END_DECLS
