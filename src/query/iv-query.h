/* iv-query.h: SQL over loaded traces and runs. An in-memory SQLite connection whose
 * tables are eponymous virtual tables reading the trace's and the runs' columns in place
 * (nothing is copied into a database), named as Perfetto's trace processor names them so
 * that its queries carry over: slice, thread_track, gpu_track, process_track, track,
 * thread, process, counter, counter_track, flow, instant, args, trace_bounds; and for
 * AIPerf runs request, run, run_summary, gpu_sample and server_sample (docs/queries.md).
 * Times are nanoseconds, as Perfetto's. Read-only: no ATTACH, no extension loading, no
 * writes except to temporary tables and views; a time limit and a cancel flag stop a
 * query. One connection is used by one thread at a time; iv_query_cancel () may be
 * called from any thread. */
#pragma once

#include <gio/gio.h>
#include <glib.h>
#include <sqlite3.h>

#include "iv-run.h"
#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_QUERY_ERROR (iv_query_error_quark ())
GQuark iv_query_error_quark (void);

typedef enum
{
  IV_QUERY_ERROR_SQL,       /* the text is not a query SQLite accepts, or it failed */
  IV_QUERY_ERROR_REFUSED,   /* it asks for something a read-only query may not do */
  IV_QUERY_ERROR_TIMEOUT,   /* it ran past the time limit */
  IV_QUERY_ERROR_CANCELLED, /* iv_query_cancel () or the execution's GCancellable */
  IV_QUERY_ERROR_INPUT,     /* more than one trace */
} IvQueryError;

/* The default time limit of one iv_query_exec (), in milliseconds. */
#define IV_QUERY_TIME_LIMIT_MS 60000

typedef struct _IvQuery IvQuery;

IvQuery *iv_query_new (GError **error);
void iv_query_free (IvQuery *query);
/* The trace the trace tables read (not copied: it must outlive @query). One trace per
 * connection: a second is refused. */
gboolean iv_query_add_trace (IvQuery *query, const IvTrace *trace, GError **error);
/* A run the run tables read, numbered run_id 0, 1, … in the order added (not copied: it
 * must outlive @query). Runs are added before the first query. */
gboolean iv_query_add_run (IvQuery *query, const IvRun *run, GError **error);
/* 0: no limit. */
void iv_query_set_time_limit (IvQuery *query, gint64 ms);
/* Stops the query running now with IV_QUERY_ERROR_CANCELLED; nothing when none runs.
 * Any thread. A query handed to a worker is cancelled through the GCancellable given to
 * iv_query_exec_cancellable () instead: a cancel made before the worker starts is kept
 * there, where this one would find nothing running. */
void iv_query_cancel (IvQuery *query);

/* Called once the last statement is prepared: its columns are known. */
typedef void (*IvQueryColumnsFunc) (sqlite3_stmt *stmt, gpointer data);
/* Called per row of the last statement; FALSE (with @error set) stops. */
typedef gboolean (*IvQueryRowFunc) (sqlite3_stmt *stmt, gpointer data, GError **error);

/* Runs every statement of @sql in turn; the rows of the last one go to @row (earlier
 * statements run for their effect: temporary views and tables). Errors read "SOURCE: line
 * L, column C: problem", the place in @sql. */
gboolean iv_query_exec (IvQuery *query, const char *sql, const char *source,
                        IvQueryColumnsFunc columns, IvQueryRowFunc row, gpointer data,
                        GError **error);
/* The same, stopped with IV_QUERY_ERROR_CANCELLED when @cancellable is cancelled — from
 * any thread, at any time, before the query starts included. Make it where the query is
 * queued (one per query), so that a cancel is never lost between queueing and start and
 * never reaches a later query. */
gboolean iv_query_exec_cancellable (IvQuery *query, const char *sql, const char *source,
                                    IvQueryColumnsFunc columns, IvQueryRowFunc row, gpointer data,
                                    GCancellable *cancellable, GError **error);

/* Whether GROUP BY queries over slice in the class docs/queries.md names (§ Accelerated
 * GROUP BY) are answered natively — the same rows, column names and types as SQLite's
 * general path, much sooner. On by default; IV_QUERY_NO_FAST=1 in the environment turns
 * it off for new connections. */
void iv_query_set_fast_path (IvQuery *query, gboolean enabled);

/* What the tables keep to answer sooner (the slices ordered by name and copies of their
 * columns in that order) is held within @bytes, the least recently used copies evicted
 * first; 0: the default, half the memory of the trace's own columns. */
void iv_query_set_cache_limit (IvQuery *query, gsize bytes);
/* The bytes those caches hold now. */
gsize iv_query_cache_bytes (IvQuery *query);
/* Lets all of it go (between queries, on the thread that runs them, e.g. when the page
 * that queries has been idle a while). */
void iv_query_drop_caches (IvQuery *query);

/* The names of the tables a query may read (the trace's, the runs'), in the order they
 * were made; NULL-terminated, g_strfreev () it. */
GStrv iv_query_list_tables (IvQuery *query);

/* The connection, for tests and for callers that step statements themselves. */
sqlite3 *iv_query_get_db (IvQuery *query);
/* Rows of virtual table @table (its name) looked at since the connection opened: what
 * the index (xBestIndex) saved shows here. */
guint64 iv_query_rows_visited (IvQuery *query, const char *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvQuery, iv_query_free)

G_END_DECLS
