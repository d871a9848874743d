/* iv-query.c: the connection — opened read-only, locked down, limited in time — the
 * statements' execution with errors placed in the SQL, and the generic virtual table. */
#define G_LOG_DOMAIN "iv-query"

#include "iv-query.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-query-private.h"
#include "iv-safe-text.h"

G_DEFINE_QUARK (iv - query - error - quark, iv_query_error)

/* How often (in SQLite virtual-machine instructions) the time limit and the cancel flag
 * are looked at: often enough to stop within a millisecond, rarely enough to cost
 * nothing. */
#define PROGRESS_STEPS 1000

struct _IvQuery
{
  sqlite3 *db;
  GPtrArray *tables; /* IvQueryTable*, owned */
  const IvTrace *trace;
  GPtrArray *runs; /* const IvRun* */
  gboolean run_tables_added;
  gint64 time_limit_ms;
  gint64 deadline_us; /* monotonic; 0: none */
  /* the cancel token of the execution running (NULL between them): iv_query_cancel ()
   * reaches it under @lock from any thread. A token is per execution, so a cancel never
   * outlives the query it was meant for, and one made before a queued query starts is
   * kept in the token the caller made when queueing it (docs/queries.md, § Cancelling).
   * A GRecMutex, not a GMutex: GLib's GMutex is a bare futex on Linux that
   * ThreadSanitizer cannot see, its GRecMutex a pthread mutex that it can (CI runs it) */
  GRecMutex lock;
  GCancellable *current;
  gboolean timed_out;
  gsize cache_limit;      /* bytes; 0: the tables' default */
  gboolean fast;          /* the native GROUP BY (iv-query-fast.c) may answer */
  IvAggGroups *groups;    /* what the statement it prepared reads, while it runs */
  char *refused;          /* what the authorizer refused last, a phrase ("ATTACH") */
  gboolean declaring;     /* in _iv_query_declare () */
  gboolean dropping_view; /* the statement being prepared is a DROP VIEW */
};

sqlite3 *
_iv_query_db (IvQuery *query)
{
  return query->db;
}

static int
progress (void *data)
{
  IvQuery *q = data;

  if (g_cancellable_is_cancelled (q->current))
    return 1;
  if (q->deadline_us && g_get_monotonic_time () > q->deadline_us)
    {
      q->timed_out = TRUE;
      return 1;
    }
  return 0;
}

/* The first refusal of a statement is the one said: it names what the user wrote. */
static void
refuse (IvQuery *q, const char *what)
{
  if (!q->refused)
    q->refused = g_strdup (what);
}

static const char *
action_name (int action)
{
  switch (action)
    {
    case SQLITE_CREATE_TABLE:
      return "CREATE TABLE";
    case SQLITE_CREATE_INDEX:
      return "CREATE INDEX";
    case SQLITE_CREATE_VIEW:
      return "CREATE VIEW";
    case SQLITE_CREATE_TRIGGER:
      return "CREATE TRIGGER";
    case SQLITE_CREATE_VTABLE:
      return "CREATE VIRTUAL TABLE";
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_VTABLE:
      return "DROP";
    case SQLITE_ALTER_TABLE:
      return "ALTER TABLE";
    case SQLITE_ANALYZE:
      return "ANALYZE";
    case SQLITE_REINDEX:
      return "REINDEX";
    default:
      return NULL;
    }
}

/* Pragmas that only read the schema: everything else a pragma can do (journal, cache,
 * writable_schema, …) is refused. */
static gboolean
pragma_reads_only (const char *name, const char *arg)
{
  static const char *const allowed[]
      = { "table_info",  "table_xinfo",    "table_list",     "function_list",
          "module_list", "pragma_list",    "index_list",     "index_xinfo",
          "index_info",  "collation_list", "compile_options" };
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    if (g_ascii_strcasecmp (name, allowed[i]) == 0)
      return TRUE;
  /* a pragma asked its value without setting it is a read too, but some (e.g.
   * shrink_memory) act when read: only the list above */
  (void) arg;
  return FALSE;
}

static gboolean
is_temp (const char *db)
{
  return db && strcmp (db, "temp") == 0;
}

/* The read-only rule: read anything; create, fill and drop only temporary tables,
 * indices and triggers, and views (they live in this connection's memory); attach
 * nothing, load nothing, write nothing else. The main database is in memory and holds
 * no table: nothing in it can be written but the schema, and of the schema only views. */
static int
authorize (void *data, int action, const char *a, const char *b, const char *db,
           const char *trigger)
{
  IvQuery *q = data;
  (void) trigger;

  /* an eponymous table declaring its columns on first use (sqlite3_declare_vtab) */
  if (q->declaring)
    return SQLITE_OK;

  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TEMP_TRIGGER:
    case SQLITE_CREATE_VIEW: /* a view holds no data: Perfetto's examples make them */
      return SQLITE_OK;
    case SQLITE_DROP_VIEW:
      /* dropping a view also asks to DELETE from it, next */
      q->dropping_view = TRUE;
      return SQLITE_OK;
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TEMP_TRIGGER:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      if (b
          && (g_ascii_strcasecmp (b, "load_extension") == 0
              || g_ascii_strcasecmp (b, "fts3_tokenizer") == 0))
        {
          refuse (q, b);
          return SQLITE_DENY;
        }
      return SQLITE_OK;
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
      if (is_temp (db) || (action == SQLITE_DELETE && q->dropping_view))
        return SQLITE_OK;
      /* the schema's own table: written by CREATE and DROP, which are asked next (a
       * view may be made, nothing else) */
      if (a && (strcmp (a, "sqlite_master") == 0 || strcmp (a, "sqlite_schema") == 0))
        return SQLITE_OK;
      refuse (q, action == SQLITE_INSERT   ? "INSERT"
                 : action == SQLITE_UPDATE ? "UPDATE"
                                           : "DELETE");
      return SQLITE_DENY;
    case SQLITE_PRAGMA:
      if (a && pragma_reads_only (a, b))
        return SQLITE_OK;
      refuse (q, "PRAGMA");
      return SQLITE_DENY;
    case SQLITE_ATTACH:
      refuse (q, "ATTACH");
      return SQLITE_DENY;
    case SQLITE_DETACH:
      refuse (q, "DETACH");
      return SQLITE_DENY;
    default:
      refuse (q, action_name (action) ? action_name (action) : _ ("a change to the database"));
      return SQLITE_DENY;
    }
}

/* percentile (Y, P), median (Y), percentile_cont (Y, F): as SQLite's own percentile
 * extension (3.47) defines them, which Debian 12's 3.40 lacks — linear interpolation
 * between the closest ranks (numpy's default, and AIPerf's), NULLs skipped; P in
 * [0, 100], F in [0, 1], the same for every row. */
typedef struct
{
  GArray *values; /* double */
  double p;
  gboolean has_p;
} Percentile;

static void
percentile_step (sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
  Percentile *a = sqlite3_aggregate_context (ctx, sizeof *a);
  double scale = GPOINTER_TO_INT (sqlite3_user_data (ctx));
  double p = 50;

  if (!a)
    {
      sqlite3_result_error_nomem (ctx);
      return;
    }
  if (argc > 1)
    {
      int type = sqlite3_value_numeric_type (argv[1]);
      p = sqlite3_value_double (argv[1]) * scale;
      if ((type != SQLITE_INTEGER && type != SQLITE_FLOAT) || !(p >= 0 && p <= 100))
        {
          sqlite3_result_error (ctx,
                                scale == 1 ? _ ("percentile: P is a number from 0 to 100")
                                           : _ ("percentile_cont: F is a number from 0 to 1"),
                                -1);
          return;
        }
      if (a->has_p && a->p != p)
        {
          sqlite3_result_error (ctx, _ ("percentile: P is the same for every row"), -1);
          return;
        }
    }
  a->p = p;
  a->has_p = TRUE;
  if (sqlite3_value_numeric_type (argv[0]) != SQLITE_INTEGER
      && sqlite3_value_numeric_type (argv[0]) != SQLITE_FLOAT)
    return;
  if (!a->values)
    a->values = g_array_new (FALSE, FALSE, sizeof (double));
  {
    double v = sqlite3_value_double (argv[0]);
    g_array_append_val (a->values, v);
  }
}

static int
compare_doubles (gconstpointer x, gconstpointer y)
{
  double a = *(const double *) x, b = *(const double *) y;
  return (a > b) - (a < b);
}

static void
percentile_final (sqlite3_context *ctx)
{
  Percentile *a = sqlite3_aggregate_context (ctx, 0);
  double *v, ix, lo;
  guint n;

  if (!a || !a->values || a->values->len == 0)
    {
      if (a && a->values)
        g_array_unref (a->values);
      sqlite3_result_null (ctx);
      return;
    }
  n = a->values->len;
  v = (double *) a->values->data;
  qsort (v, n, sizeof *v, compare_doubles);
  ix = a->p / 100.0 * (n - 1);
  lo = floor (ix);
  if ((guint) lo + 1 < n)
    sqlite3_result_double (ctx, v[(guint) lo] + (v[(guint) lo + 1] - v[(guint) lo]) * (ix - lo));
  else
    sqlite3_result_double (ctx, v[n - 1]);
  g_array_unref (a->values);
  a->values = NULL;
}

static void
add_functions (sqlite3 *db)
{
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  sqlite3_create_function (db, "percentile", 2, flags, GINT_TO_POINTER (1), NULL, percentile_step,
                           percentile_final);
  sqlite3_create_function (db, "percentile_cont", 2, flags, GINT_TO_POINTER (100), NULL,
                           percentile_step, percentile_final);
  sqlite3_create_function (db, "median", 1, flags, GINT_TO_POINTER (1), NULL, percentile_step,
                           percentile_final);
}

IvQuery *
iv_query_new (GError **error)
{
  g_autoptr (IvQuery) q = g_new0 (IvQuery, 1);
  int rc;

  g_rec_mutex_init (&q->lock);
  q->tables = g_ptr_array_new ();
  q->runs = g_ptr_array_new ();
  q->time_limit_ms = IV_QUERY_TIME_LIMIT_MS;
  /* IV_QUERY_NO_FAST=1: every statement through SQLite's general path, to compare */
  q->fast = g_strcmp0 (g_getenv ("IV_QUERY_NO_FAST"), "1") != 0;
  /* in memory, and read-only but for views: Perfetto's examples begin with CREATE VIEW,
   * which a read-only database refuses, so the authorizer keeps the rest out instead */
  rc = sqlite3_open_v2 (":memory:", &q->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY
                            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE,
                        NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_SQL, _ ("Could not open SQLite: %s."),
                   q->db ? sqlite3_errmsg (q->db) : sqlite3_errstr (rc));
      return NULL;
    }
  sqlite3_db_config (q->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (q->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (q->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_limit (q->db, SQLITE_LIMIT_ATTACHED, 0);
  /* temporary results (sorts, temp tables) in memory, never in files */
  sqlite3_exec (q->db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
  add_functions (q->db);
  _iv_query_fast_register (q);
  sqlite3_set_authorizer (q->db, authorize, q);
  sqlite3_progress_handler (q->db, PROGRESS_STEPS, progress, q);
  return g_steal_pointer (&q);
}

static void
table_free (IvQueryTable *t)
{
  if (t->free_data)
    t->free_data (t->data);
  g_free (t->name);
  g_free (t->schema);
  g_free (t);
}

void
iv_query_free (IvQuery *q)
{
  if (!q)
    return;
  if (q->db)
    sqlite3_close_v2 (q->db);
  for (guint i = 0; i < q->tables->len; i++)
    table_free (q->tables->pdata[i]);
  g_ptr_array_unref (q->tables);
  g_ptr_array_unref (q->runs);
  g_free (q->refused);
  _iv_agg_groups_free (q->groups);
  g_rec_mutex_clear (&q->lock);
  g_free (q);
}

gboolean
iv_query_add_trace (IvQuery *q, const IvTrace *trace, GError **error)
{
  g_return_val_if_fail (q && trace, FALSE);
  if (q->trace)
    {
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_INPUT,
                   _ ("%s: a query reads one trace; %s is already loaded."), trace->path,
                   q->trace->path);
      return FALSE;
    }
  q->trace = trace;
  return _iv_query_add_trace_tables (q, trace, error);
}

gboolean
iv_query_add_run (IvQuery *q, const IvRun *run, GError **error)
{
  g_return_val_if_fail (q && run, FALSE);
  if (q->run_tables_added)
    {
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_INPUT,
                   _ ("%s: runs are added before the first query."), run->path);
      return FALSE;
    }
  g_ptr_array_add (q->runs, (gpointer) run);
  return TRUE;
}

static gboolean
ensure_run_tables (IvQuery *q, GError **error)
{
  if (q->run_tables_added || q->runs->len == 0)
    return TRUE;
  q->run_tables_added = TRUE;
  return _iv_query_add_run_tables (q, q->runs, error);
}

GStrv
iv_query_list_tables (IvQuery *q)
{
  GPtrArray *names = g_ptr_array_new ();

  ensure_run_tables (q, NULL);
  for (guint i = 0; i < q->tables->len; i++)
    {
      const IvQueryTable *t = q->tables->pdata[i];
      /* the engine's own (_iv_groups) is not the user's to read */
      if (!g_str_has_prefix (t->name, "_iv_"))
        g_ptr_array_add (names, g_strdup (t->name));
    }
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

sqlite3 *
iv_query_get_db (IvQuery *q)
{
  ensure_run_tables (q, NULL);
  return q->db;
}

void
iv_query_set_time_limit (IvQuery *q, gint64 ms)
{
  q->time_limit_ms = MAX (ms, 0);
}

void
iv_query_cancel (IvQuery *q)
{
  g_rec_mutex_lock (&q->lock);
  if (q->current)
    g_cancellable_cancel (q->current);
  g_rec_mutex_unlock (&q->lock);
}

void
iv_query_set_fast_path (IvQuery *q, gboolean enabled)
{
  q->fast = enabled;
}

void
iv_query_set_cache_limit (IvQuery *q, gsize bytes)
{
  q->cache_limit = bytes;
}

gsize
_iv_query_cache_limit (IvQuery *q)
{
  return q->cache_limit;
}

gsize
iv_query_cache_bytes (IvQuery *q)
{
  gsize bytes = 0;
  for (guint i = 0; i < q->tables->len; i++)
    {
      IvQueryTable *t = q->tables->pdata[i];
      if (t->cache_bytes)
        bytes += t->cache_bytes (t);
    }
  return bytes;
}

void
iv_query_drop_caches (IvQuery *q)
{
  for (guint i = 0; i < q->tables->len; i++)
    {
      IvQueryTable *t = q->tables->pdata[i];
      if (t->drop_caches)
        t->drop_caches (t);
    }
}

gboolean
_iv_query_should_stop (IvQuery *q)
{
  return progress (q) != 0;
}

IvQueryTable *
_iv_query_find_table (IvQuery *q, const char *name)
{
  for (guint i = 0; i < q->tables->len; i++)
    {
      IvQueryTable *t = q->tables->pdata[i];
      if (strcmp (t->name, name) == 0)
        return t;
    }
  return NULL;
}

IvAggGroups *
_iv_query_fast_groups (IvQuery *q)
{
  return q->groups;
}

void
_iv_query_fast_set_groups (IvQuery *q, IvAggGroups *groups)
{
  _iv_agg_groups_free (q->groups);
  q->groups = groups;
}

guint64
iv_query_rows_visited (IvQuery *q, const char *table)
{
  for (guint i = 0; i < q->tables->len; i++)
    {
      IvQueryTable *t = q->tables->pdata[i];
      if (strcmp (t->name, table) == 0)
        return t->visited;
    }
  return 0;
}

/* Line and column (1-based; the column counts characters) of byte @offset of @sql. */
static void
place (const char *sql, gsize offset, guint *line, guint *column)
{
  *line = 1;
  *column = 1;
  for (gsize i = 0; i < offset && sql[i]; i++)
    {
      if (sql[i] == '\n')
        {
          (*line)++;
          *column = 1;
        }
      else if (((guchar) sql[i] & 0xc0) != 0x80)
        (*column)++;
    }
}

/* Whether @text holds nothing but blanks and comments. */
static gboolean
only_comments (const char *text)
{
  const char *p = text;

  while (*p)
    {
      if (g_ascii_isspace (*p) || *p == ';')
        p++;
      else if (p[0] == '-' && p[1] == '-')
        {
          while (*p && *p != '\n')
            p++;
        }
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          if (!end)
            return TRUE; /* SQLite ignores an unterminated comment at the end */
          p = end + 2;
        }
      else
        return FALSE;
    }
  return TRUE;
}

/* The error of the statement at @offset in @sql; @err_offset: where SQLite places the
 * problem in the statement, -1 when it does not. */
static void
set_sql_error (IvQuery *q, GError **error, const char *sql, const char *source, gsize offset,
               int err_offset, int rc)
{
  guint line, column;
  g_autofree char *msg = NULL;
  IvQueryError code = IV_QUERY_ERROR_SQL;

  place (sql, offset + (err_offset >= 0 ? (gsize) err_offset : 0), &line, &column);
  if (q->timed_out)
    {
      code = IV_QUERY_ERROR_TIMEOUT;
      msg = g_strdup_printf (_ ("stopped after the time limit of %.3g s"),
                             (double) q->time_limit_ms / 1000.0);
    }
  else if (g_cancellable_is_cancelled (q->current) && (rc & 0xff) == SQLITE_INTERRUPT)
    {
      code = IV_QUERY_ERROR_CANCELLED;
      msg = g_strdup (_ ("cancelled"));
    }
  else if (q->refused || (rc & 0xff) == SQLITE_AUTH || (rc & 0xff) == SQLITE_READONLY)
    {
      code = IV_QUERY_ERROR_REFUSED;
      msg = g_strdup_printf (_ ("%s is refused: queries are read-only (only temporary tables "
                                "and views may be made)"),
                             q->refused ? q->refused : _ ("a change to the database"));
    }
  else
    msg = iv_text_valid (sqlite3_errmsg (q->db), -1);
  g_set_error (error, IV_QUERY_ERROR, code, _ ("%s: line %u, column %u: %s."), source, line, column,
               msg);
}

static gboolean
exec_statements (IvQuery *q, const char *sql, const char *source, IvQueryColumnsFunc columns,
                 IvQueryRowFunc row, gpointer data, GError **error)
{
  const char *p = sql;

  if (!ensure_run_tables (q, error))
    return FALSE;
  q->timed_out = FALSE;
  q->deadline_us = q->time_limit_ms ? g_get_monotonic_time () + q->time_limit_ms * 1000 : 0;
  if (only_comments (sql))
    {
      g_set_error (error, IV_QUERY_ERROR, IV_QUERY_ERROR_SQL,
                   _ ("%s: line 1, column 1: there is no statement to run."), source);
      return FALSE;
    }
  while (!only_comments (p))
    {
      sqlite3_stmt *stmt = NULL;
      const char *tail = NULL;
      gsize offset = (gsize) (p - sql);
      gboolean last;
      int rc;

      g_clear_pointer (&q->refused, g_free);
      q->dropping_view = FALSE;
      rc = sqlite3_prepare_v3 (q->db, p, -1, 0, &stmt, &tail);
      if (rc != SQLITE_OK)
        {
          set_sql_error (q, error, sql, source, offset, sqlite3_error_offset (q->db), rc);
          sqlite3_finalize (stmt);
          return FALSE;
        }
      if (!stmt) /* only blanks after all */
        break;
      /* a GROUP BY over slice in the class the native path answers: the statement that
       * reads its groups instead (the same columns, names and rows; § Accelerated GROUP
       * BY). The user's statement was prepared first: its errors are SQLite's own. */
      if (q->fast)
        {
          sqlite3_stmt *fast = NULL;
          switch (_iv_query_fast_prepare (q, p, tail ? (gsize) (tail - p) : strlen (p), &fast))
            {
            case IV_AGG_DONE:
              sqlite3_finalize (stmt);
              stmt = fast;
              break;
            case IV_AGG_STOPPED:
              set_sql_error (q, error, sql, source, offset, -1, SQLITE_INTERRUPT);
              sqlite3_finalize (stmt);
              return FALSE;
            case IV_AGG_DECLINED:
              break;
            }
        }
      last = !tail || only_comments (tail);
      if (last && columns)
        columns (stmt, data);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        if (last && row && !row (stmt, data, error))
          {
            sqlite3_finalize (stmt);
            _iv_query_fast_finish (q);
            return FALSE;
          }
      if (rc != SQLITE_DONE)
        {
          set_sql_error (q, error, sql, source, offset, sqlite3_error_offset (q->db), rc);
          sqlite3_finalize (stmt);
          _iv_query_fast_finish (q);
          return FALSE;
        }
      sqlite3_finalize (stmt);
      _iv_query_fast_finish (q);
      p = tail;
      if (last)
        break;
    }
  return TRUE;
}

gboolean
iv_query_exec_cancellable (IvQuery *q, const char *sql, const char *source,
                           IvQueryColumnsFunc columns, IvQueryRowFunc row, gpointer data,
                           GCancellable *cancellable, GError **error)
{
  gboolean ok;

  g_return_val_if_fail (q && sql, FALSE);
  if (!source)
    source = _ ("query");
  /* the execution's token: the caller's (cancelled perhaps already, before this worker
   * started: the query then stops at its first step), or one of its own for
   * iv_query_cancel () to reach */
  g_rec_mutex_lock (&q->lock);
  q->current = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  g_rec_mutex_unlock (&q->lock);
  ok = exec_statements (q, sql, source, columns, row, data, error);
  g_rec_mutex_lock (&q->lock);
  g_clear_object (&q->current);
  g_rec_mutex_unlock (&q->lock);
  return ok;
}

gboolean
iv_query_exec (IvQuery *q, const char *sql, const char *source, IvQueryColumnsFunc columns,
               IvQueryRowFunc row, gpointer data, GError **error)
{
  return iv_query_exec_cancellable (q, sql, source, columns, row, data, NULL, error);
}

/* ---- helpers shared by the tables ---- */

int
_iv_query_declare (IvQueryTable *t, sqlite3 *db)
{
  int rc;
  t->query->declaring = TRUE;
  rc = sqlite3_declare_vtab (db, t->schema);
  t->query->declaring = FALSE;
  return rc;
}

char *
_iv_query_quote (const char *name)
{
  g_autofree char *valid = iv_text_valid (name, -1);
  GString *s = g_string_new ("\"");

  for (const char *c = valid; *c; c++)
    {
      if (*c == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *c);
    }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}

void
_iv_query_result_key (sqlite3_context *ctx, const char *key)
{
  gint64 v;
  char *end;

  if (!key)
    {
      sqlite3_result_null (ctx);
      return;
    }
  v = g_ascii_strtoll (key, &end, 10);
  if (*key && !*end && end != key && !g_ascii_isspace (*key))
    sqlite3_result_int64 (ctx, v);
  else
    sqlite3_result_text (ctx, key, -1, SQLITE_STATIC);
}

gboolean
_iv_query_value_bound (sqlite3_value *value, gboolean upper, gint64 *out)
{
  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      *out = sqlite3_value_int64 (value);
      return TRUE;
    case SQLITE_FLOAT:
      {
        double d
            = upper ? ceil (sqlite3_value_double (value)) : floor (sqlite3_value_double (value));
        if (d != d)
          return FALSE;
        *out = d >= 9.2e18 ? G_MAXINT64 : d <= -9.2e18 ? G_MININT64 : (gint64) d;
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/* ---- the generic table ---- */

typedef struct
{
  sqlite3_vtab_cursor base;
  IvQueryTable *table;
  gsize row, end;
} GenericCursor;

int
_iv_query_vt_connect (sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
  IvQueryTable *t = aux;
  IvQueryVtab *vt;
  int rc;
  (void) argc;
  (void) argv;

  rc = _iv_query_declare (t, db);
  if (rc != SQLITE_OK)
    {
      *err = sqlite3_mprintf ("%s: %s", t->name, sqlite3_errmsg (db));
      return rc;
    }
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);
  vt = sqlite3_malloc (sizeof *vt);
  if (!vt)
    return SQLITE_NOMEM;
  memset (vt, 0, sizeof *vt);
  vt->table = t;
  *out = &vt->base;
  return SQLITE_OK;
}

int
_iv_query_vt_disconnect (sqlite3_vtab *vt)
{
  sqlite3_free (vt);
  return SQLITE_OK;
}

int
_iv_query_cursor_open (sqlite3_vtab *vtab, gsize size, sqlite3_vtab_cursor **out)
{
  IvQueryCursor *c;

  g_assert (size >= sizeof *c);
  if (!(c = sqlite3_malloc64 (size)))
    return SQLITE_NOMEM;
  memset (c, 0, size);
  c->table = ((IvQueryVtab *) vtab)->table;
  *out = &c->base;
  return SQLITE_OK;
}

int
_iv_query_cursor_close (sqlite3_vtab_cursor *cur)
{
  sqlite3_free (cur);
  return SQLITE_OK;
}

static int
generic_best_index (sqlite3_vtab *vtab, sqlite3_index_info *info)
{
  IvQueryTable *t = ((IvQueryVtab *) vtab)->table;
  gsize n = t->count (t);

  info->idxNum = 0;
  info->estimatedCost = (double) n + 1;
  info->estimatedRows = (sqlite3_int64) n + 1;
  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      if (c->usable && c->op == SQLITE_INDEX_CONSTRAINT_EQ && t->id_column >= 0
          && (c->iColumn == t->id_column || c->iColumn == -1))
        {
          info->idxNum = 1;
          info->aConstraintUsage[i].argvIndex = 1;
          info->aConstraintUsage[i].omit = 1;
          info->estimatedCost = 1;
          info->estimatedRows = 1;
          info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
          break;
        }
    }
  /* rows come in id order */
  if (info->nOrderBy == 1 && t->id_column >= 0
      && (info->aOrderBy[0].iColumn == t->id_column || info->aOrderBy[0].iColumn == -1)
      && !info->aOrderBy[0].desc)
    info->orderByConsumed = 1;
  return SQLITE_OK;
}

G_STATIC_ASSERT (G_STRUCT_OFFSET (GenericCursor, table) == G_STRUCT_OFFSET (IvQueryCursor, table));

static int
generic_open (sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
  return _iv_query_cursor_open (vtab, sizeof (GenericCursor), out);
}

static int
generic_filter (sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                sqlite3_value **argv)
{
  GenericCursor *c = (GenericCursor *) cur;
  gsize n = c->table->count (c->table);
  (void) idx_str;

  c->row = 0;
  c->end = n;
  if (idx_num == 1 && argc == 1)
    {
      gint64 id;
      if (sqlite3_value_numeric_type (argv[0]) == SQLITE_INTEGER
          && (id = sqlite3_value_int64 (argv[0])) >= 0 && (guint64) id < n)
        {
          c->row = (gsize) id;
          c->end = c->row + 1;
        }
      else if (sqlite3_value_numeric_type (argv[0]) == SQLITE_FLOAT
               && sqlite3_value_double (argv[0]) >= 0 && sqlite3_value_double (argv[0]) < (double) n
               && floor (sqlite3_value_double (argv[0])) == sqlite3_value_double (argv[0]))
        {
          c->row = (gsize) sqlite3_value_double (argv[0]);
          c->end = c->row + 1;
        }
      else
        c->end = 0;
    }
  if (c->row < c->end)
    c->table->visited++;
  return SQLITE_OK;
}

static int
generic_next (sqlite3_vtab_cursor *cur)
{
  GenericCursor *c = (GenericCursor *) cur;
  c->row++;
  if (c->row < c->end)
    c->table->visited++;
  return SQLITE_OK;
}

static int
generic_eof (sqlite3_vtab_cursor *cur)
{
  GenericCursor *c = (GenericCursor *) cur;
  return c->row >= c->end;
}

static int
generic_column (sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
  GenericCursor *c = (GenericCursor *) cur;
  c->table->column (c->table, c->row, col, ctx);
  return SQLITE_OK;
}

static int
generic_rowid (sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
  *rowid = (sqlite3_int64) ((GenericCursor *) cur)->row;
  return SQLITE_OK;
}

static const sqlite3_module generic_module = {
  .iVersion = 0,
  .xCreate = NULL, /* eponymous only: the table exists without CREATE VIRTUAL TABLE */
  .xConnect = _iv_query_vt_connect,
  .xBestIndex = generic_best_index,
  .xDisconnect = _iv_query_vt_disconnect,
  .xDestroy = _iv_query_vt_disconnect,
  .xOpen = generic_open,
  .xClose = _iv_query_cursor_close,
  .xFilter = generic_filter,
  .xNext = generic_next,
  .xEof = generic_eof,
  .xColumn = generic_column,
  .xRowid = generic_rowid,
};

IvQueryTable *
_iv_query_table_add_array (IvQuery *q, const char *name, GPtrArray *columns,
                           const sqlite3_module *module)
{
  IvQueryTable *t = g_new0 (IvQueryTable, 1);
  GString *schema = g_string_new ("CREATE TABLE x(");
  t->query = q;
  t->name = g_strdup (name);
  t->id_column = -1;
  t->n_columns = columns->len;
  for (guint i = 0; i < columns->len; i++)
    g_string_append_printf (schema, "%s%s", i ? ", " : "", (const char *) columns->pdata[i]);
  g_string_append (schema, ")");
  t->schema = g_string_free (schema, FALSE);
  g_ptr_array_add (q->tables, t);
  /* the modules are static: SQLite keeps their address; the table is freed by
   * iv_query_free () after the connection closes */
  sqlite3_create_module_v2 (q->db, name, module ? module : &generic_module, t, NULL);
  return t;
}

IvQueryTable *
_iv_query_table_add (IvQuery *q, const char *name, const char *const *columns,
                     const sqlite3_module *module)
{
  g_autoptr (GPtrArray) cols = g_ptr_array_new ();
  for (guint i = 0; columns[i]; i++)
    g_ptr_array_add (cols, (gpointer) columns[i]);
  return _iv_query_table_add_array (q, name, cols, module);
}
