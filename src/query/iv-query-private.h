/* iv-query-private.h: the virtual-table machinery the trace and run tables share. A
 * table is a row count and a column callback over data already in memory; the generic
 * module scans rows in order and pushes an equality on its id column into the scan.
 * Tables with their own index (slice, args) bring their own sqlite3_module. */
#pragma once

#include "iv-query.h"

G_BEGIN_DECLS

typedef struct _IvQueryTable IvQueryTable;

struct _IvQueryTable
{
  IvQuery *query;
  char *name;
  char *schema; /* CREATE TABLE x(…), as sqlite3_declare_vtab () takes it */
  guint n_columns;
  gsize (*count) (IvQueryTable *table);
  void (*column) (IvQueryTable *table, gsize row, int col, sqlite3_context *ctx);
  int id_column; /* the column whose value is the row number (pushed into the scan); -1 */
  gpointer data;
  GDestroyNotify free_data;
  guint64 visited; /* rows looked at (iv_query_rows_visited) */
};

/* The vtab SQLite holds: the table it reads. */
typedef struct
{
  sqlite3_vtab base;
  IvQueryTable *table;
} IvQueryVtab;

/* What every cursor begins with: SQLite's part, then the table it reads. A table's own
 * cursor type starts with these two members, in this order. */
typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
} IvQueryCursor;

/* xConnect of every module: declares the table's schema (aux is the IvQueryTable) and
 * marks it innocuous; xDisconnect and xDestroy free the vtab. */
int _iv_query_vt_connect (sqlite3 *db, void *aux, int argc, const char *const *argv,
                          sqlite3_vtab **out, char **err);
int _iv_query_vt_disconnect (sqlite3_vtab *vt);
/* xOpen's work: a zeroed cursor of @size bytes (a type beginning as IvQueryCursor) on
 * @vtab's table; xClose of a cursor that holds nothing else is _iv_query_cursor_close. */
int _iv_query_cursor_open (sqlite3_vtab *vtab, gsize size, sqlite3_vtab_cursor **out);
int _iv_query_cursor_close (sqlite3_vtab_cursor *cur);

/* A new table named @name with the columns @columns ("id INTEGER", …, NULL-terminated),
 * registered with the connection by the generic module, or by @module when not NULL. */
IvQueryTable *_iv_query_table_add (IvQuery *query, const char *name, const char *const *columns,
                                   const sqlite3_module *module);
/* The same with the column declarations in @columns (char*, each already quoted). */
IvQueryTable *_iv_query_table_add_array (IvQuery *query, const char *name, GPtrArray *columns,
                                         const sqlite3_module *module);
/* sqlite3_declare_vtab () of @t's schema: its parse is not the user's statement, so the
 * read-only rule lets it through. */
int _iv_query_declare (IvQueryTable *t, sqlite3 *db);
/* An identifier quoted for SQL ("a""b"), made valid UTF-8. */
char *_iv_query_quote (const char *name);

/* The connection's own: the trace's tables (iv-query-trace.c) and the runs'
 * (iv-query-runs.c). */
gboolean _iv_query_add_trace_tables (IvQuery *query, const IvTrace *trace, GError **error);
gboolean _iv_query_add_run_tables (IvQuery *query, GPtrArray *runs, GError **error);
sqlite3 *_iv_query_db (IvQuery *query);

/* Text results that live as long as the data: no copy. */
static inline void
_iv_query_result_text (sqlite3_context *ctx, const char *text)
{
  if (text)
    sqlite3_result_text (ctx, text, -1, SQLITE_STATIC);
  else
    sqlite3_result_null (ctx);
}

/* A double, NULL when NaN (absent). */
static inline void
_iv_query_result_double (sqlite3_context *ctx, double value)
{
  if (value != value)
    sqlite3_result_null (ctx);
  else
    sqlite3_result_double (ctx, value);
}

/* An id as text ("25738") as an integer when it is one, else the text. */
void _iv_query_result_key (sqlite3_context *ctx, const char *key);

/* A constraint's value as an integer bound: FALSE when it is not a number (the
 * constraint then narrows nothing; SQLite checks every row it is given anyway). @upper
 * rounds a fraction up, a lower bound rounds it down, so the bound never excludes a row
 * the constraint keeps. */
gboolean _iv_query_value_bound (sqlite3_value *value, gboolean upper, gint64 *out);

G_END_DECLS
