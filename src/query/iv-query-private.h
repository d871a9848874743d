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
  /* memory the table keeps to answer faster (orderings, copies), and letting it go;
   * NULL for tables that keep none (iv_query_cache_bytes, iv_query_drop_caches) */
  gsize (*cache_bytes) (IvQueryTable *table);
  void (*drop_caches) (IvQueryTable *table);
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

/* The cache budget of the connection's tables, bytes (iv_query_set_cache_limit); 0: the
 * tables' own default. */
gsize _iv_query_cache_limit (IvQuery *query);

/* Whether the query running should stop now (cancelled, or past its time limit: then
 * marked so): what native work checks between blocks, as SQLite's progress handler. */
gboolean _iv_query_should_stop (IvQuery *query);

/* ---- the native GROUP BY over slice (iv-query-fast.c, § Accelerated GROUP BY) ---- */

/* slice's columns, in its declaration's order */
typedef enum
{
  IV_SLICE_ID,
  IV_SLICE_TS,
  IV_SLICE_DUR,
  IV_SLICE_TRACK,
  IV_SLICE_CAT,
  IV_SLICE_NAME,
  IV_SLICE_DEPTH,
  IV_SLICE_PARENT,
  IV_SLICE_ARGS,
  IV_SLICE_SELF,
  IV_SLICE_N_COLUMNS
} IvSliceColumn;

typedef enum
{
  IV_AGG_COUNT_STAR,
  IV_AGG_COUNT,
  IV_AGG_SUM,
  IV_AGG_MIN,
  IV_AGG_MAX,
  IV_AGG_AVG,
  IV_AGG_TOTAL,
} IvAggFunc;

typedef struct
{
  IvAggFunc func;
  IvSliceColumn column; /* unused for count(*) */
} IvAgg;

/* A comparison of a column with a literal, the column on the left ('=' '!' '<' 'l' (<=)
 * '>' 'g' (>=)); text columns compare with @text (BINARY), the others with @value. */
typedef struct
{
  IvSliceColumn column;
  char op;
  gint64 value;
  char *text;
} IvAggCond;

/* One value of a group's row as SQLite would have it */
typedef struct
{
  int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
  gint64 i;
  double d;
  const char *s; /* lives as long as the trace */
} IvAggValue;

typedef struct
{
  IvSliceColumn key; /* name, track_id, category or depth */
  GArray *aggs;      /* IvAgg */
  GArray *conds;     /* IvAggCond, all of which a row must meet */
  /* the groups in the order the general path gives them: the names' (intern) order when
   * its scan by name serves the GROUP BY, else sorted by the key as SQLite's sorter does */
  gboolean sorted;
  /* sorted descending: SQLite sorts a GROUP BY in the direction of the ORDER BY's term
   * when there are as many of those as of GROUP BY's (select.c), so that ties under
   * ORDER BY come out in that order */
  gboolean desc;
} IvAggPlan;

typedef struct
{
  guint n_rows, stride; /* stride: 1 + aggs */
  int key_column;       /* the column of _iv_groups the key is read from */
  GArray *values;       /* IvAggValue, row by row: the key, then each aggregate */
} IvAggGroups;

void _iv_agg_groups_free (IvAggGroups *groups);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvAggGroups, _iv_agg_groups_free)

typedef enum
{
  IV_AGG_DONE,     /* *out holds the groups */
  IV_AGG_DECLINED, /* the general path answers (a sum's exactness in doubles not sure, no
                    * memory for the groups): nothing is wrong */
  IV_AGG_STOPPED,  /* cancelled or timed out (_iv_query_should_stop) */
} IvAggOutcome;

/* The groups of @plan over the trace's slice table (iv-query-trace.c). */
IvAggOutcome _iv_query_slice_aggregate (IvQueryTable *slice, const IvAggPlan *plan,
                                        IvAggGroups **out);
/* The slice table of the connection, NULL without a trace. */
IvQueryTable *_iv_query_find_table (IvQuery *query, const char *name);

/* The statement @sql (@len bytes) run natively when it is in the class docs/queries.md
 * names: the groups computed and the statement that reads them prepared in @out.
 * IV_AGG_DECLINED: not in the class (or declined); the general path runs it. */
IvAggOutcome _iv_query_fast_prepare (IvQuery *query, const char *sql, gsize len,
                                     sqlite3_stmt **out);
/* The groups the statement prepared by _iv_query_fast_prepare reads; freed with it. */
void _iv_query_fast_finish (IvQuery *query);
/* The module of the table the rewritten statement reads (registered by iv_query_new). */
void _iv_query_fast_register (IvQuery *query);
IvAggGroups *_iv_query_fast_groups (IvQuery *query);
void _iv_query_fast_set_groups (IvQuery *query, IvAggGroups *groups);

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
