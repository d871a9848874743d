/* iv-query-results.h: the rows a query of the Query page returned, as SQLite typed them
 * (integers kept whole: nanosecond times pass 2^53), with what the page does with them —
 * text for a cell, an order by one column (numbers as numbers), CSV, and a chart of two
 * columns through the chart toolkit. No GTK: filled on the worker thread that runs the
 * query, read on the main thread once it is handed over. */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "iv-chart.h"

G_BEGIN_DECLS

/* The rows kept for the table; a query returning more says how many it returned. */
#define IV_QUERY_RESULT_MAX_ROWS 200000

typedef struct
{
  gint64 i;
  double d;
  char *text;  /* TEXT (valid UTF-8), or a BLOB's description */
  guint8 type; /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL */
} IvQueryCell;

typedef struct
{
  guint n_columns;
  char **names;       /* n_columns, NULL-terminated */
  gboolean *numeric;  /* every value of the column a number (and one at least) */
  GArray *cells;      /* IvQueryCell, row after row */
  gsize n_rows;       /* kept */
  guint64 n_returned; /* returned by the query */
  int slice_column;   /* "id" or "slice_id" of integers: a slice to select; −1 */
  gint64 elapsed_us;
} IvQueryResult;

IvQueryResult *iv_query_result_new (void);
void iv_query_result_free (IvQueryResult *result);
/* iv_query_exec ()'s callbacks (data: the result). */
void iv_query_result_columns (sqlite3_stmt *stmt, gpointer result);
gboolean iv_query_result_row (sqlite3_stmt *stmt, gpointer result, GError **error);
/* After the last row: which columns are numbers, which one names a slice. */
void iv_query_result_finish (IvQueryResult *result);

const IvQueryCell *iv_query_result_cell (const IvQueryResult *result, gsize row, guint column);
/* What the table shows: integers whole, other numbers to 10 significant digits, "NULL". */
char *iv_query_cell_format (const IvQueryCell *cell);
/* Numbers before text, NULL first; numbers by value, text by bytes. */
int iv_query_cell_compare (const IvQueryCell *a, const IvQueryCell *b);
/* A header line and one record per row of @order (row indexes; NULL: the query's order),
 * through iv-csv: numbers in the shortest form that reads back the same, NULL empty. */
char *iv_query_result_to_csv (const IvQueryResult *result, const guint *order, gsize n_order);
/* @y against @x: points (a line when x rises) for a numeric x, bars by category for text
 * (the first 60 rows). NULL with @error when @y is not numeric or no row has both. */
IvChart *iv_query_result_chart (const IvQueryResult *result, guint x, guint y, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvQueryResult, iv_query_result_free)

G_END_DECLS
