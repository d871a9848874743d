/* iv-query-page.h: the Query page of the Traces and Runs workspaces — SQL over what is
 * loaded (src/query, docs/queries.md). An editor that completes table and column names
 * (Tab or Ctrl+Space) and runs on Ctrl+Enter; the query on a worker thread under a time
 * limit, with Cancel; one line naming the line and column of an error (the last results
 * stay); a table sortable by any column (numbers as numbers) that copies as CSV; a chart
 * of two columns that Export draws; examples and the user's saved queries
 * (g_get_user_data_dir ()/inferview/queries/NAME.sql). A row with a slice id ("id" or
 * "slice_id") selects that slice: the "slice-selected" signal (guint64 slice, gboolean
 * show: the row was activated, the timeline should come forward). */
#pragma once

#include <gtk/gtk.h>

#include "iv-chart-view.h"
#include "iv-query-results.h"
#include "iv-render.h"
#include "iv-sweep.h"
#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_TYPE_QUERY_PAGE (iv_query_page_get_type ())
G_DECLARE_FINAL_TYPE (IvQueryPage, iv_query_page, IV, QUERY_PAGE, GtkWidget)

GtkWidget *iv_query_page_new (void);
/* What the tables read: a trace, or a sweep's runs, kept alive by @owner (its document)
 * while shown and while a query on it runs. A query running on what was shown before is
 * cancelled. */
void iv_query_page_set_trace (IvQueryPage *self, const IvTrace *trace, GObject *owner);
void iv_query_page_set_sweep (IvQueryPage *self, const IvSweep *sweep, GObject *owner);

void iv_query_page_set_text (IvQueryPage *self, const char *sql);
char *iv_query_page_get_text (IvQueryPage *self);
/* Runs the editor's text (Ctrl+Enter, the Run button); FALSE when one is running. */
gboolean iv_query_page_run (IvQueryPage *self);
void iv_query_page_cancel (IvQueryPage *self);
gboolean iv_query_page_is_running (IvQueryPage *self);
/* Milliseconds (0: none); IV_QUERY_TIME_LIMIT_MS until set. */
void iv_query_page_set_time_limit (IvQueryPage *self, gint64 ms);
/* The error line shown, or NULL. */
const char *iv_query_page_get_error (IvQueryPage *self);
/* The results shown (NULL before the first), in the query's order. */
const IvQueryResult *iv_query_page_get_result (IvQueryPage *self);
/* The table and what it shows at @row in its current order (sorted by a header). */
GtkColumnView *iv_query_page_get_column_view (IvQueryPage *self);
guint iv_query_page_get_n_rows (IvQueryPage *self);
char *iv_query_page_get_cell (IvQueryPage *self, guint row, guint column);
/* Selects @row of the table as a click does. */
void iv_query_page_select_row (IvQueryPage *self, guint row);
/* The table in its current order as CSV (what Copy as CSV puts on the clipboard). */
char *iv_query_page_to_csv (IvQueryPage *self);

/* The chart's columns (what its x and y lists pick). */
void iv_query_page_set_chart_columns (IvQueryPage *self, guint x, guint y);
IvChartView *iv_query_page_get_chart_view (IvQueryPage *self);
/* The chart, for Export; NULL without one. */
const IvFigure *iv_query_page_get_figure (IvQueryPage *self);

/* What completing at the cursor offers (table names, the columns of the tables named in
 * the text, or of the table before a dot), sorted. */
GStrv iv_query_page_get_completions (IvQueryPage *self);
/* Completes at the cursor: inserts the one candidate, or the list to pick from. */
void iv_query_page_complete (IvQueryPage *self);

/* Saved queries: the folder, the names there, and save, open and delete by name (a name
 * is a file name: no "/", not starting with "."). */
char *iv_query_saved_dir (void);
GStrv iv_query_saved_list (void);
gboolean iv_query_page_save (IvQueryPage *self, const char *name, GError **error);
gboolean iv_query_page_open_saved (IvQueryPage *self, const char *name, GError **error);
gboolean iv_query_saved_delete (const char *name, GError **error);
/* The examples offered for what is shown (docs/queries.md): their titles, and one put in
 * the editor by title. */
GStrv iv_query_page_list_examples (IvQueryPage *self);
gboolean iv_query_page_open_example (IvQueryPage *self, const char *title);

G_END_DECLS
