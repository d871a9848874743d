/* iv-query-page.c: the Query page (see the header). The results' storage, order, CSV and
 * chart are in iv-query-results.c.
 *
 * Threads: one IvQuery connection per trace or sweep shown (QueryConn), built on the
 * main thread, used by one worker at a time: the Run button is Cancel while a query runs.
 * A job holds a reference to the connection, which holds the document that owns the data,
 * so closing the document (or showing another) while a query runs only cancels it: the
 * data stays until the worker is done. The connection and the document are released on
 * the main thread (the job's callback takes them), never by the worker. The page is
 * reached from the job through a weak reference, so the worker keeps no widget alive. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-query-page.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "iv-atomic-file.h"
#include "iv-query.h"

/* ---- the examples of docs/queries.md -------------------------------------------------- */

typedef struct
{
  const char *title;
  const char *sql;
} Example;

static const Example trace_examples[] = {
  { N_ ("Time by name"), "SELECT name, count(*) AS n, sum(dur) AS total_ns, avg(dur) AS mean_ns\n"
                         "FROM slice GROUP BY name ORDER BY total_ns DESC LIMIT 20" },
  { N_ ("Longest slices"), "SELECT id, ts, dur, name FROM slice ORDER BY dur DESC LIMIT 50" },
  { N_ ("Top kernels"),
    "SELECT substr(name, 1, 50) AS kernel, count(*) AS n,\n"
    "       round(sum(dur) / 1e6, 2) AS total_ms, round(avg(dur) / 1e3, 1) AS mean_us\n"
    "FROM slice WHERE category = 'kernel'\n"
    "GROUP BY name ORDER BY sum(dur) DESC LIMIT 8" },
  { N_ ("Gaps on a stream"),
    "WITH work AS (\n"
    "  SELECT s.track_id, s.ts, s.dur,\n"
    "         max(s.ts + s.dur) OVER (PARTITION BY s.track_id ORDER BY s.ts, s.id\n"
    "           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS busy_until\n"
    "  FROM slice s JOIN gpu_track g ON s.track_id = g.id\n"
    "  WHERE s.category IN ('kernel', 'gpu_memcpy', 'gpu_memset')\n"
    ")\n"
    "SELECT g.gpu, g.stream, count(*) AS gaps,\n"
    "       round(sum(w.ts - w.busy_until) / 1e6, 3) AS idle_ms,\n"
    "       round(max(w.ts - w.busy_until) / 1e3, 1) AS longest_us\n"
    "FROM work w JOIN gpu_track g ON w.track_id = g.id\n"
    "WHERE w.ts > w.busy_until\n"
    "GROUP BY w.track_id\n"
    "ORDER BY idle_ms DESC" },
  { N_ ("Where each thread's time goes"),
    "SELECT thread.name AS thread, count(*) AS slices, round(sum(slice.dur) / 1e6, 1) AS total_ms\n"
    "FROM slice JOIN thread_track ON slice.track_id = thread_track.id JOIN thread USING (utid)\n"
    "WHERE slice.depth = 0 GROUP BY utid ORDER BY total_ms DESC LIMIT 10" },
};

static const Example runs_examples[] = {
  { N_ ("TTFT by ISL bucket"),
    "SELECT CAST(pow(2, floor(log2(input_sequence_length))) AS INTEGER) AS isl_bucket,\n"
    "       count(*) AS n, round(percentile(time_to_first_token, 99), 1) AS ttft_p99_ms\n"
    "FROM request WHERE time_to_first_token IS NOT NULL\n"
    "GROUP BY isl_bucket ORDER BY isl_bucket" },
  { N_ ("TTFT by run"), "SELECT run_id, count(*) AS requests,\n"
                        "       round(percentile(time_to_first_token, 50), 1) AS ttft_p50_ms,\n"
                        "       round(percentile(time_to_first_token, 99), 1) AS ttft_p99_ms\n"
                        "FROM request GROUP BY run_id ORDER BY run_id" },
};

/* ---- a row of the table ---------------------------------------------------------------- */

#define IV_TYPE_QUERY_ROW (iv_query_row_get_type ())
G_DECLARE_FINAL_TYPE (IvQueryRow, iv_query_row, IV, QUERY_ROW, GObject)

struct _IvQueryRow
{
  GObject parent_instance;
  guint row; /* in the result */
};

G_DEFINE_FINAL_TYPE (IvQueryRow, iv_query_row, G_TYPE_OBJECT)

static void
iv_query_row_class_init (IvQueryRowClass *klass)
{
  (void) klass;
}

static void
iv_query_row_init (IvQueryRow *self)
{
  (void) self;
}

/* ---- the connection, shared by the page and its running job ---------------------------- */

typedef struct
{
  IvQuery *query;
  GObject *owner;      /* the document: what the tables read lives as long as it */
  GHashTable *columns; /* table name → GStrv of its columns, for completion */
  guint n_runs;        /* the sweep's runs when it was built */
} QueryConn;

static void
conn_clear (gpointer data)
{
  QueryConn *conn = data;
  iv_query_free (conn->query);
  g_clear_pointer (&conn->columns, g_hash_table_unref);
  g_clear_object (&conn->owner);
}

static void
conn_unref (QueryConn *conn)
{
  g_atomic_rc_box_release_full (conn, conn_clear);
}

/* The columns of each table the connection has (iv_query_list_tables), read from the
 * prepared "SELECT *" (the tables are virtual: nothing is read but their declaration;
 * one that takes arguments, as ancestor_slice (id), is left out). */
static void
conn_read_schema (QueryConn *conn)
{
  sqlite3 *db = iv_query_get_db (conn->query);
  g_auto (GStrv) tables = iv_query_list_tables (conn->query);
  for (guint i = 0; tables[i]; i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT * FROM %s", tables[i]);
      sqlite3_stmt *stmt = NULL;
      GPtrArray *names;
      if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK || !stmt)
        {
          sqlite3_finalize (stmt);
          continue;
        }
      names = g_ptr_array_new ();
      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        g_ptr_array_add (names, g_strdup (sqlite3_column_name (stmt, c)));
      g_ptr_array_add (names, NULL);
      g_hash_table_insert (conn->columns, g_strdup (tables[i]),
                           (GStrv) g_ptr_array_free (names, FALSE));
      sqlite3_finalize (stmt);
    }
}

static QueryConn *
conn_new (const IvTrace *trace, const IvSweep *sweep, GObject *owner, GError **error)
{
  QueryConn *conn = g_atomic_rc_box_new0 (QueryConn);
  conn->columns
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  conn->owner = owner ? g_object_ref (owner) : NULL;
  conn->query = iv_query_new (error);
  if (!conn->query)
    goto fail;
  if (trace && !iv_query_add_trace (conn->query, trace, error))
    goto fail;
  for (guint i = 0; sweep && i < sweep->runs->len; i++)
    if (!iv_query_add_run (conn->query, sweep->runs->pdata[i], error))
      goto fail;
  conn->n_runs = sweep ? sweep->runs->len : 0;
  conn_read_schema (conn);
  return conn;
fail:
  conn_unref (conn);
  return NULL;
}

/* ---- the page ------------------------------------------------------------------------ */

typedef struct _Job Job;

struct _IvQueryPage
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkTextView *editor;
  GtkTextBuffer *buffer;
  GtkWidget *run_button, *cancel_button, *spinner, *copy_button;
  GtkLabel *status, *error_label;
  GtkMenuButton *queries_button;
  GtkListBox *examples_list, *saved_list;
  GtkEntry *save_entry;
  GtkWidget *vpaned, *hpaned;
  gboolean hpaned_placed;

  GtkColumnView *table;
  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;

  GtkDropDown *x_pick, *y_pick;
  gboolean picking; /* the lists are being refilled: no chart per change */
  GtkStack *chart_stack;
  IvChartView *chart;
  GtkLabel *chart_note;
  gboolean has_chart;

  GtkPopover *completion;
  GtkListBox *completion_list;

  const IvTrace *trace;
  const IvSweep *sweep;
  GObject *owner;
  QueryConn *conn;
  Job *running;       /* the job of the query running, or NULL */
  guint idle_drop_id; /* lets the connection's caches go once the page has been idle */
  guint idle_drop_ms; /* after how long ("idle-drop-ms") */
  IvQueryResult *result;
  gint64 time_limit_ms;
  char *error;
};

G_DEFINE_FINAL_TYPE (IvQueryPage, iv_query_page, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_SLICE_SELECTED,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Properties: what the caches of the connection hold (for tests and diagnostics), and
 * how long the page keeps them after its last query. */
enum
{
  PROP_0,
  PROP_CACHE_BYTES,
  PROP_IDLE_DROP_MS,
  N_PROPS
};

struct _Job
{
  QueryConn *conn;
  /* the query's own cancel token, made on the main thread when it is queued: a cancel
   * made before the worker starts is kept (iv_query_exec_cancellable) */
  GCancellable *cancellable;
  char *sql;
  IvQueryResult *result;
  GWeakRef page;
  gint64 started_us;
};

static void
job_free (gpointer data)
{
  Job *job = data;
  /* the callback took the connection on the main thread; a job dropped without it
   * (never, with GTask) would release it here */
  if (job->conn)
    conn_unref (job->conn);
  g_clear_object (&job->cancellable);
  g_free (job->sql);
  iv_query_result_free (job->result);
  g_weak_ref_clear (&job->page);
  g_free (job);
}

/* ---- results on screen ----------------------------------------------------------------- */

static guint
row_at (IvQueryPage *self, guint position)
{
  g_autoptr (IvQueryRow) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  return item ? item->row : G_MAXUINT;
}

typedef struct
{
  IvQueryPage *page;
  guint column;
} SortCtx;

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  SortCtx *ctx = data;
  const IvQueryResult *r = ctx->page->result;
  guint ra = ((const IvQueryRow *) a)->row, rb = ((const IvQueryRow *) b)->row;
  int order;

  if (!r || ctx->column >= r->n_columns || ra >= r->n_rows || rb >= r->n_rows)
    return GTK_ORDERING_EQUAL;
  order = iv_query_cell_compare (iv_query_result_cell (r, ra, ctx->column),
                                 iv_query_result_cell (r, rb, ctx->column));
  /* ties keep the query's order */
  if (order == 0)
    order = ra < rb ? -1 : ra > rb;
  return order < 0 ? GTK_ORDERING_SMALLER : order > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  IvQueryPage *self = data;
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  GtkWidget *label = gtk_label_new (NULL);
  gboolean numeric
      = self->result && column < self->result->n_columns && self->result->numeric[column];

  (void) factory;
  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  IvQueryPage *self = data;
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  IvQueryRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = NULL;

  if (self->result && row && row->row < self->result->n_rows && column < self->result->n_columns)
    text = iv_query_cell_format (iv_query_result_cell (self->result, row->row, column));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text ? text : "");
}

static void
clear_columns (IvQueryPage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->table);
  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr (GtkColumnViewColumn) col = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (self->table, col);
    }
}

static void
add_columns (IvQueryPage *self)
{
  for (guint c = 0; c < self->result->n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;
      SortCtx *ctx = g_new (SortCtx, 1);
      *ctx = (SortCtx){ self, c };
      g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      col = gtk_column_view_column_new (self->result->names[c], factory);
      gtk_column_view_column_set_resizable (col, TRUE);
      gtk_column_view_column_set_sorter (
          col, GTK_SORTER (gtk_custom_sorter_new (compare_rows, ctx, g_free)));
      /* the last column takes what is left */
      gtk_column_view_column_set_expand (col, c + 1 == self->result->n_columns);
      gtk_column_view_append_column (self->table, col);
      g_object_unref (col);
    }
}

static void update_chart (IvQueryPage *self);

static void
fill_picks (IvQueryPage *self)
{
  const IvQueryResult *r = self->result;
  g_autoptr (GtkStringList) xs = gtk_string_list_new (NULL);
  g_autoptr (GtkStringList) ys = gtk_string_list_new (NULL);
  guint x = 0, y = G_MAXUINT;

  for (guint c = 0; c < r->n_columns; c++)
    {
      gtk_string_list_append (xs, r->names[c]);
      gtk_string_list_append (ys, r->names[c]);
    }
  /* y: the first column of numbers after x (a name and its total; a time and its value) */
  for (guint c = 1; c < r->n_columns && y == G_MAXUINT; c++)
    if (r->numeric[c])
      y = c;
  if (y == G_MAXUINT)
    y = r->n_columns > 1 ? 1 : 0;
  self->picking = TRUE;
  gtk_drop_down_set_model (self->x_pick, G_LIST_MODEL (xs));
  gtk_drop_down_set_model (self->y_pick, G_LIST_MODEL (ys));
  gtk_drop_down_set_selected (self->x_pick, r->n_columns ? x : GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (self->y_pick, r->n_columns ? y : GTK_INVALID_LIST_POSITION);
  self->picking = FALSE;
}

static void
update_chart (IvQueryPage *self)
{
  g_autoptr (GError) error = NULL;
  IvChart *chart = NULL;
  guint x = gtk_drop_down_get_selected (self->x_pick);
  guint y = gtk_drop_down_get_selected (self->y_pick);

  if (self->picking)
    return;
  if (self->result)
    chart = iv_query_result_chart (self->result, x, y, &error);
  self->has_chart = chart != NULL;
  if (chart)
    {
      iv_chart_view_set_chart (self->chart, chart, "query");
      gtk_stack_set_visible_child_name (self->chart_stack, "chart");
    }
  else
    {
      gtk_label_set_text (self->chart_note,
                          error ? error->message : _ ("Run a query to chart two of its columns"));
      gtk_stack_set_visible_child_name (self->chart_stack, "note");
    }
}

static void
on_pick (IvQueryPage *self)
{
  update_chart (self);
}

/* A new result replaces the table: the old columns go first (their sorters read the
 * result being replaced), then the rows, then the new columns. */
static void
show_result (IvQueryPage *self, IvQueryResult *result)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  clear_columns (self);
  g_list_store_remove_all (self->store);
  iv_query_result_free (self->result);
  self->result = result;
  for (gsize i = 0; i < result->n_rows; i++)
    {
      IvQueryRow *row = g_object_new (IV_TYPE_QUERY_ROW, NULL);
      row->row = (guint) i;
      g_ptr_array_add (rows, row);
    }
  add_columns (self);
  g_list_store_splice (self->store, 0, 0, rows->pdata, rows->len);
  gtk_widget_set_sensitive (self->copy_button, result->n_columns > 0);
  fill_picks (self);
  update_chart (self);
}

static void
clear_result (IvQueryPage *self)
{
  if (!self->result)
    return;
  clear_columns (self);
  g_list_store_remove_all (self->store);
  g_clear_pointer (&self->result, iv_query_result_free);
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  update_chart (self);
}

/* ---- running ------------------------------------------------------------------------- */

static void
set_running (IvQueryPage *self, Job *job)
{
  self->running = job;
  gtk_widget_set_visible (self->run_button, job == NULL);
  gtk_widget_set_visible (self->cancel_button, job != NULL);
  gtk_widget_set_visible (self->spinner, job != NULL);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), job != NULL);
  if (job)
    gtk_label_set_text (self->status, _ ("Running…"));
}

static void
show_error (IvQueryPage *self, const char *message)
{
  g_free (self->error);
  self->error = message ? g_strdup (message) : NULL;
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;

  (void) source, (void) cancellable;
  if (!iv_query_exec_cancellable (job->conn->query, job->sql, _ ("Query"), iv_query_result_columns,
                                  iv_query_result_row, job->result, job->cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  iv_query_result_finish (job->result);
  job->result->elapsed_us = g_get_monotonic_time () - job->started_us;
  g_task_return_boolean (task, TRUE);
}

/* How long after its last query the page keeps what the connection ordered and copied
 * to answer sooner (GROUP BY name over 10 M slices: hundreds of MB), by default. */
#define IDLE_DROP_MS 60000

static gboolean
drop_caches_when_idle (gpointer data)
{
  IvQueryPage *self = data;
  self->idle_drop_id = 0;
  /* no worker uses the connection now: the page's job is the only one that does */
  if (!self->running && self->conn)
    iv_query_drop_caches (self->conn->query);
  return G_SOURCE_REMOVE;
}

static void
on_done (GObject *source, GAsyncResult *res, gpointer data)
{
  GTask *task = G_TASK (res);
  Job *job = g_task_get_task_data (task);
  g_autoptr (IvQueryPage) self = g_weak_ref_get (&job->page);
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (task, &error);

  (void) source, (void) data;
  /* released here, on the main thread: it may hold the last reference to a closed
   * document */
  g_clear_pointer (&job->conn, conn_unref);
  if (!self || self->running != job)
    return;
  set_running (self, NULL);
  g_clear_handle_id (&self->idle_drop_id, g_source_remove);
  self->idle_drop_id = g_timeout_add (self->idle_drop_ms, drop_caches_when_idle, self);
  if (ok)
    {
      IvQueryResult *r = g_steal_pointer (&job->result);
      g_autofree char *rows = NULL;
      g_autofree char *status = NULL;
      show_error (self, NULL);
      show_result (self, r);
      rows = r->n_returned > r->n_rows
                 ? g_strdup_printf (_ ("first %" G_GSIZE_FORMAT " of %" G_GUINT64_FORMAT " rows"),
                                    r->n_rows, r->n_returned)
                 : g_strdup_printf (g_dngettext (NULL, "%" G_GSIZE_FORMAT " row",
                                                 "%" G_GSIZE_FORMAT " rows", r->n_rows),
                                    r->n_rows);
      status
          = g_strdup_printf (_ ("%s · %.1f ms%s"), rows, r->elapsed_us / 1000.0,
                             r->slice_column >= 0 ? _ (" · click a row to select its slice") : "");
      gtk_label_set_text (self->status, status);
    }
  else
    {
      show_error (self, error->message);
      gtk_label_set_text (self->status, self->result ? _ ("The results are the last query's") : "");
    }
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, ok);
}

static gboolean
ensure_conn (IvQueryPage *self, GError **error)
{
  if (self->conn && self->sweep && self->conn->n_runs != self->sweep->runs->len)
    g_clear_pointer (&self->conn, conn_unref);
  if (!self->conn && (self->trace || self->sweep))
    self->conn = conn_new (self->trace, self->sweep, self->owner, error);
  return self->conn != NULL;
}

gboolean
iv_query_page_run (IvQueryPage *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GTask) task = NULL;
  g_autofree char *sql = NULL;
  Job *job;

  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), FALSE);
  if (self->running)
    return FALSE;
  sql = iv_query_page_get_text (self);
  if (!self->trace && !self->sweep)
    {
      show_error (self, _ ("Open a trace or runs to query them"));
      return FALSE;
    }
  /* a followed run grows on the main thread: a worker must not read it meanwhile */
  if (self->sweep && iv_sweep_n_live (self->sweep) > 0)
    {
      show_error (self, _ ("AIPerf is still writing these runs: query them once they are "
                           "written"));
      return FALSE;
    }
  if (!ensure_conn (self, &error))
    {
      show_error (self, error ? error->message : _ ("Nothing to query"));
      return FALSE;
    }
  iv_query_set_time_limit (self->conn->query, self->time_limit_ms);
  g_clear_handle_id (&self->idle_drop_id, g_source_remove);
  job = g_new0 (Job, 1);
  job->conn = g_atomic_rc_box_acquire (self->conn);
  job->cancellable = g_cancellable_new ();
  job->sql = g_steal_pointer (&sql);
  job->result = iv_query_result_new ();
  job->started_us = g_get_monotonic_time ();
  g_weak_ref_init (&job->page, self);
  task = g_task_new (NULL, NULL, on_done, NULL);
  g_task_set_source_tag (task, iv_query_page_run);
  g_task_set_task_data (task, job, job_free);
  set_running (self, job);
  g_task_run_in_thread (task, run_in_thread);
  return TRUE;
}

void
iv_query_page_cancel (IvQueryPage *self)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  if (self->running)
    g_cancellable_cancel (self->running->cancellable);
}

gboolean
iv_query_page_is_running (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), FALSE);
  return self->running != NULL;
}

/* What is shown changes: a query running on the old data is cancelled (its job keeps
 * the old data alive until it stops) and its result will not be shown. */
static void
set_data (IvQueryPage *self, const IvTrace *trace, const IvSweep *sweep, GObject *owner)
{
  if (self->trace == trace && self->sweep == sweep && self->owner == owner)
    return;
  iv_query_page_cancel (self);
  if (self->running)
    set_running (self, NULL);
  g_clear_pointer (&self->conn, conn_unref);
  self->trace = trace;
  self->sweep = sweep;
  g_set_object (&self->owner, owner);
  /* results of what was shown before would name its slices, not these */
  clear_result (self);
  /* a query the user has not touched yet is an example of what is shown */
  if (trace || sweep)
    {
      g_autofree char *text = iv_query_page_get_text (self);
      const char *shown = sweep ? runs_examples[0].sql : trace_examples[0].sql;
      if (g_str_equal (text, trace_examples[0].sql) || g_str_equal (text, runs_examples[0].sql))
        iv_query_page_set_text (self, shown);
      if (!self->result && !self->running)
        gtk_label_set_text (self->status,
                            sweep ? _ ("Tables: request, run, gpu_sample, … (Tab completes)")
                                  : _ ("Tables: slice, thread, process, … (Tab completes)"));
    }
}

void
iv_query_page_set_trace (IvQueryPage *self, const IvTrace *trace, GObject *owner)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  set_data (self, trace, NULL, owner);
}

void
iv_query_page_set_sweep (IvQueryPage *self, const IvSweep *sweep, GObject *owner)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  set_data (self, NULL, sweep, owner);
}

void
iv_query_page_set_time_limit (IvQueryPage *self, gint64 ms)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  self->time_limit_ms = MAX (ms, 0);
}

/* ---- the editor ------------------------------------------------------------------------ */

void
iv_query_page_set_text (IvQueryPage *self, const char *sql)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  gtk_text_buffer_set_text (self->buffer, sql ? sql : "", -1);
}

char *
iv_query_page_get_text (IvQueryPage *self)
{
  GtkTextIter start, end;
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  gtk_text_buffer_get_bounds (self->buffer, &start, &end);
  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

static gboolean
is_word_char (gunichar c)
{
  return g_unichar_isalnum (c) || c == '_';
}

/* The word being typed before the cursor (@start: where it begins) and, when a dot comes
 * before it, the name before the dot. */
static char *
word_at_cursor (IvQueryPage *self, GtkTextIter *start, char **qualifier)
{
  GtkTextIter cursor, q;
  gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor,
                                    gtk_text_buffer_get_insert (self->buffer));
  *start = cursor;
  while (!gtk_text_iter_is_start (start))
    {
      GtkTextIter prev = *start;
      gtk_text_iter_backward_char (&prev);
      if (!is_word_char (gtk_text_iter_get_char (&prev)))
        break;
      *start = prev;
    }
  *qualifier = NULL;
  q = *start;
  if (gtk_text_iter_backward_char (&q) && gtk_text_iter_get_char (&q) == '.')
    {
      GtkTextIter qs = q;
      while (!gtk_text_iter_is_start (&qs))
        {
          GtkTextIter prev = qs;
          gtk_text_iter_backward_char (&prev);
          if (!is_word_char (gtk_text_iter_get_char (&prev)))
            break;
          qs = prev;
        }
      *qualifier = gtk_text_iter_get_text (&qs, &q);
    }
  return gtk_text_iter_get_text (start, &cursor);
}

/* The table an alias or a table name before a dot stands for: "slice s", "slice AS s". */
static const char *
resolve_table (QueryConn *conn, const char *text, const char *name)
{
  GHashTableIter it;
  gpointer key;

  if (g_hash_table_contains (conn->columns, name))
    return g_hash_table_lookup (conn->columns, name) ? name : NULL;
  g_hash_table_iter_init (&it, conn->columns);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      g_autofree char *escaped = g_regex_escape_string (name, -1);
      g_autofree char *pattern
          = g_strdup_printf ("\\b%s\\s+(AS\\s+)?%s\\b", (const char *) key, escaped);
      if (g_regex_match_simple (pattern, text, G_REGEX_CASELESS, 0))
        return key;
    }
  return NULL;
}

static void
add_matching (GPtrArray *out, GHashTable *seen, const char *word, const char *candidate)
{
  gsize n = strlen (word);
  if (g_ascii_strncasecmp (candidate, word, n) == 0 && !g_hash_table_contains (seen, candidate))
    {
      g_hash_table_add (seen, (gpointer) candidate);
      g_ptr_array_add (out, g_strdup (candidate));
    }
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_ascii_strcasecmp (*(char *const *) a, *(char *const *) b);
}

GStrv
iv_query_page_get_completions (IvQueryPage *self)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *text = NULL, *word = NULL, *qualifier = NULL;
  GtkTextIter start;

  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  if (ensure_conn (self, NULL))
    {
      text = iv_query_page_get_text (self);
      word = word_at_cursor (self, &start, &qualifier);
      if (qualifier)
        {
          const char *table = resolve_table (self->conn, text, qualifier);
          GStrv cols = table ? g_hash_table_lookup (self->conn->columns, table) : NULL;
          for (guint c = 0; cols && cols[c]; c++)
            add_matching (out, seen, word, cols[c]);
        }
      else
        {
          GHashTableIter it;
          gpointer key, value;
          /* tables first, then the columns of the tables the text names */
          g_hash_table_iter_init (&it, self->conn->columns);
          while (g_hash_table_iter_next (&it, &key, NULL))
            add_matching (out, seen, word, key);
          g_hash_table_iter_init (&it, self->conn->columns);
          while (g_hash_table_iter_next (&it, &key, &value))
            {
              g_autofree char *pattern = g_strdup_printf ("\\b%s\\b", (const char *) key);
              GStrv cols = value;
              if (!g_regex_match_simple (pattern, text, G_REGEX_CASELESS, 0))
                continue;
              for (guint c = 0; cols[c]; c++)
                add_matching (out, seen, word, cols[c]);
            }
        }
    }
  g_ptr_array_sort (out, compare_strings);
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

static void
replace_word (IvQueryPage *self, const char *with)
{
  g_autofree char *qualifier = NULL, *word = NULL;
  GtkTextIter start, cursor;

  word = word_at_cursor (self, &start, &qualifier);
  gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor,
                                    gtk_text_buffer_get_insert (self->buffer));
  gtk_text_buffer_begin_user_action (self->buffer);
  gtk_text_buffer_delete (self->buffer, &start, &cursor);
  gtk_text_buffer_insert (self->buffer, &start, with, -1);
  gtk_text_buffer_end_user_action (self->buffer);
}

static void
on_completion_activated (IvQueryPage *self, GtkListBoxRow *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "name");
  if (name)
    replace_word (self, name);
  gtk_popover_popdown (self->completion);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

void
iv_query_page_complete (IvQueryPage *self)
{
  g_auto (GStrv) names = iv_query_page_get_completions (self);
  guint n = names ? g_strv_length (names) : 0;
  GtkWidget *child;
  GtkTextIter cursor;
  GdkRectangle at;
  int wx, wy;

  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  if (n == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (n == 1)
    {
      replace_word (self, names[0]);
      return;
    }
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->completion_list))))
    gtk_list_box_remove (self->completion_list, child);
  for (guint i = 0; i < n && i < 200; i++)
    {
      GtkWidget *label = gtk_label_new (names[i]);
      GtkWidget *row = gtk_list_box_row_new ();
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "monospace");
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "name", g_strdup (names[i]), g_free);
      gtk_list_box_append (self->completion_list, row);
    }
  gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor,
                                    gtk_text_buffer_get_insert (self->buffer));
  gtk_text_view_get_iter_location (self->editor, &cursor, &at);
  gtk_text_view_buffer_to_window_coords (self->editor, GTK_TEXT_WINDOW_WIDGET, at.x, at.y, &wx,
                                         &wy);
  at.x = wx, at.y = wy, at.width = MAX (at.width, 1);
  gtk_popover_set_pointing_to (self->completion, &at);
  gtk_popover_popup (self->completion);
  gtk_list_box_select_row (self->completion_list,
                           gtk_list_box_get_row_at_index (self->completion_list, 0));
  gtk_widget_grab_focus (GTK_WIDGET (gtk_list_box_get_row_at_index (self->completion_list, 0)));
}

static gboolean
on_editor_key (GtkEventControllerKey *controller, guint keyval, guint keycode,
               GdkModifierType state, IvQueryPage *self)
{
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();

  (void) controller, (void) keycode;
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && mods == GDK_CONTROL_MASK)
    {
      iv_query_page_run (self);
      return TRUE;
    }
  if (keyval == GDK_KEY_space && mods == GDK_CONTROL_MASK)
    {
      iv_query_page_complete (self);
      return TRUE;
    }
  if (keyval == GDK_KEY_Escape && self->running)
    {
      iv_query_page_cancel (self);
      return TRUE;
    }
  /* Tab completes a word being typed; elsewhere it indents */
  if (keyval == GDK_KEY_Tab && mods == 0)
    {
      GtkTextIter cursor, prev;
      gtk_text_buffer_get_iter_at_mark (self->buffer, &cursor,
                                        gtk_text_buffer_get_insert (self->buffer));
      prev = cursor;
      if (gtk_text_iter_backward_char (&prev)
          && (is_word_char (gtk_text_iter_get_char (&prev))
              || gtk_text_iter_get_char (&prev) == '.'))
        {
          iv_query_page_complete (self);
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- the table's rows and the timeline --------------------------------------------------- */

static void
slice_of_row (IvQueryPage *self, guint position, gboolean show)
{
  guint row;
  const IvQueryCell *cell;

  if (!self->result || self->result->slice_column < 0 || !self->trace)
    return;
  row = row_at (self, position);
  if (row >= self->result->n_rows)
    return;
  cell = iv_query_result_cell (self->result, row, (guint) self->result->slice_column);
  if (cell->type != SQLITE_INTEGER || cell->i < 0 || (guint64) cell->i >= self->trace->n_slices)
    return;
  g_signal_emit (self, signals[SIGNAL_SLICE_SELECTED], 0, (guint64) cell->i, show);
}

static void
on_selected (IvQueryPage *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);
  if (position != GTK_INVALID_LIST_POSITION)
    slice_of_row (self, position, FALSE);
}

static void
on_activate (IvQueryPage *self, guint position)
{
  slice_of_row (self, position, TRUE);
}

GtkColumnView *
iv_query_page_get_column_view (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  return self->table;
}

guint
iv_query_page_get_n_rows (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

char *
iv_query_page_get_cell (IvQueryPage *self, guint position, guint column)
{
  guint row;
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  row = row_at (self, position);
  if (!self->result || row >= self->result->n_rows || column >= self->result->n_columns)
    return NULL;
  return iv_query_cell_format (iv_query_result_cell (self->result, row, column));
}

void
iv_query_page_select_row (IvQueryPage *self, guint row)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  gtk_single_selection_set_selected (self->selection, row);
}

const IvQueryResult *
iv_query_page_get_result (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  return self->result;
}

const char *
iv_query_page_get_error (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  return self->error;
}

char *
iv_query_page_to_csv (IvQueryPage *self)
{
  guint n;
  g_autofree guint *order = NULL;

  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  if (!self->result)
    return NULL;
  n = iv_query_page_get_n_rows (self);
  order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = row_at (self, i);
  return iv_query_result_to_csv (self->result, order, n);
}

static void
on_copy (IvQueryPage *self)
{
  g_autofree char *csv = iv_query_page_to_csv (self);
  if (csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

void
iv_query_page_set_chart_columns (IvQueryPage *self, guint x, guint y)
{
  g_return_if_fail (IV_IS_QUERY_PAGE (self));
  self->picking = TRUE;
  gtk_drop_down_set_selected (self->x_pick, x);
  self->picking = FALSE;
  gtk_drop_down_set_selected (self->y_pick, y);
  update_chart (self);
}

IvChartView *
iv_query_page_get_chart_view (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  return self->chart;
}

const IvFigure *
iv_query_page_get_figure (IvQueryPage *self)
{
  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), NULL);
  return self->has_chart ? iv_chart_view_get_figure (self->chart) : NULL;
}

/* ---- saved queries and examples ------------------------------------------------------------ */

char *
iv_query_saved_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "inferview", "queries", NULL);
}

static char *
saved_path (const char *name, GError **error)
{
  g_autofree char *dir = iv_query_saved_dir ();
  g_autofree char *file = NULL;
  g_autofree char *local = NULL;

  if (!name || !*name || strchr (name, '/') || strchr (name, '\\') || name[0] == '.'
      || !g_utf8_validate (name, -1, NULL) || strlen (name) > 120)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _ ("A saved query's name is a file name: not empty, no “/”, not starting "
                      "with “.”"));
      return NULL;
    }
  file = g_strconcat (name, ".sql", NULL);
  local = g_filename_from_utf8 (file, -1, NULL, NULL, error);
  return local ? g_build_filename (dir, local, NULL) : NULL;
}

GStrv
iv_query_saved_list (void)
{
  g_autofree char *dir = iv_query_saved_dir ();
  g_autoptr (GPtrArray) out = g_ptr_array_new ();
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d && (entry = g_dir_read_name (d)))
    {
      g_autofree char *utf8 = g_filename_to_utf8 (entry, -1, NULL, NULL, NULL);
      if (utf8 && g_str_has_suffix (utf8, ".sql") && utf8[0] != '.' && strlen (utf8) > 4)
        g_ptr_array_add (out, g_strndup (utf8, strlen (utf8) - 4));
    }
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (out, compare_strings);
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

static void refresh_saved (IvQueryPage *self);

gboolean
iv_query_page_save (IvQueryPage *self, const char *name, GError **error)
{
  g_autofree char *path = saved_path (name, error);
  g_autofree char *dir = iv_query_saved_dir ();
  g_autofree char *sql = NULL;

  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), FALSE);
  if (!path)
    return FALSE;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s", dir,
                   g_strerror (err));
      return FALSE;
    }
  sql = iv_query_page_get_text (self);
  if (!iv_atomic_file_set_contents (path, sql, -1, error))
    return FALSE;
  refresh_saved (self);
  return TRUE;
}

gboolean
iv_query_page_open_saved (IvQueryPage *self, const char *name, GError **error)
{
  g_autofree char *path = saved_path (name, error);
  g_autofree char *sql = NULL;
  gsize len = 0;

  g_return_val_if_fail (IV_IS_QUERY_PAGE (self), FALSE);
  if (!path || !g_file_get_contents (path, &sql, &len, error))
    return FALSE;
  if (!g_utf8_validate (sql, (gssize) len, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: not UTF-8 text"), path);
      return FALSE;
    }
  iv_query_page_set_text (self, sql);
  return TRUE;
}

gboolean
iv_query_saved_delete (const char *name, GError **error)
{
  g_autofree char *path = saved_path (name, error);
  if (!path)
    return FALSE;
  if (g_remove (path) != 0)
    {
      int err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s", path,
                   g_strerror (err));
      return FALSE;
    }
  return TRUE;
}

static const Example *
examples_of (IvQueryPage *self, guint *n)
{
  if (self->sweep)
    {
      *n = G_N_ELEMENTS (runs_examples);
      return runs_examples;
    }
  *n = G_N_ELEMENTS (trace_examples);
  return trace_examples;
}

GStrv
iv_query_page_list_examples (IvQueryPage *self)
{
  guint n;
  const Example *ex = examples_of (self, &n);
  GStrv out = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    out[i] = g_strdup (_ (ex[i].title));
  return out;
}

gboolean
iv_query_page_open_example (IvQueryPage *self, const char *title)
{
  guint n;
  const Example *ex = examples_of (self, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (_ (ex[i].title), title) == 0)
      {
        iv_query_page_set_text (self, ex[i].sql);
        return TRUE;
      }
  return FALSE;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))))
    gtk_list_box_remove (list, child);
}

static GtkWidget *
list_row (const char *title, const char *name)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "name", g_strdup (name), g_free);
  return row;
}

static void
on_delete_saved (GtkButton *button, IvQueryPage *self)
{
  g_autoptr (GError) error = NULL;
  if (!iv_query_saved_delete (g_object_get_data (G_OBJECT (button), "name"), &error))
    show_error (self, error->message);
  refresh_saved (self);
}

static void
refresh_saved (IvQueryPage *self)
{
  g_auto (GStrv) saved = iv_query_saved_list ();
  guint n;
  const Example *ex = examples_of (self, &n);

  clear_list (self->examples_list);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->examples_list, list_row (_ (ex[i].title), _ (ex[i].title)));
  clear_list (self->saved_list);
  for (guint i = 0; saved[i]; i++)
    {
      GtkWidget *row = list_row (saved[i], saved[i]);
      GtkWidget *del = gtk_button_new_from_icon_name ("user-trash-symbolic");
      gtk_widget_add_css_class (del, "flat");
      gtk_widget_set_tooltip_text (del, _ ("Delete this saved query"));
      g_object_set_data_full (G_OBJECT (del), "name", g_strdup (saved[i]), g_free);
      g_signal_connect (del, "clicked", G_CALLBACK (on_delete_saved), self);
      gtk_box_append (GTK_BOX (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row))), del);
      gtk_list_box_append (self->saved_list, row);
    }
  if (!saved[0])
    {
      GtkWidget *none = gtk_label_new (_ ("None yet: name the query below and save it"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_set_margin_top (none, 6);
      gtk_widget_set_margin_bottom (none, 6);
      gtk_list_box_append (self->saved_list, none);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (none)), FALSE);
    }
}

static void
on_example_activated (IvQueryPage *self, GtkListBoxRow *row)
{
  iv_query_page_open_example (self, g_object_get_data (G_OBJECT (row), "name"));
  gtk_menu_button_popdown (self->queries_button);
}

static void
on_saved_activated (IvQueryPage *self, GtkListBoxRow *row)
{
  g_autoptr (GError) error = NULL;
  const char *name = g_object_get_data (G_OBJECT (row), "name");
  if (!name)
    return;
  if (!iv_query_page_open_saved (self, name, &error))
    show_error (self, error->message);
  else
    gtk_editable_set_text (GTK_EDITABLE (self->save_entry), name);
  gtk_menu_button_popdown (self->queries_button);
}

static void
on_save_clicked (IvQueryPage *self)
{
  g_autoptr (GError) error = NULL;
  if (!iv_query_page_save (self, gtk_editable_get_text (GTK_EDITABLE (self->save_entry)), &error))
    show_error (self, error->message);
  else
    show_error (self, NULL);
}

/* ---- building the page ------------------------------------------------------------------ */

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 6);
  return label;
}

static GtkWidget *
boxed_list (GtkListBox **out)
{
  GtkWidget *list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  *out = GTK_LIST_BOX (list);
  return list;
}

static GtkWidget *
build_queries_popover (IvQueryPage *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *save_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *save = gtk_button_new_with_mnemonic (_ ("_Save"));

  gtk_widget_set_size_request (box, 300, -1);
  gtk_box_append (GTK_BOX (box), heading (_ ("Examples")));
  gtk_box_append (GTK_BOX (box), boxed_list (&self->examples_list));
  gtk_box_append (GTK_BOX (box), heading (_ ("Saved")));
  gtk_box_append (GTK_BOX (box), boxed_list (&self->saved_list));
  self->save_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->save_entry, _ ("Name of this query"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->save_entry), TRUE);
  gtk_widget_set_tooltip_text (save, _ ("Save the editor's text under this name"));
  gtk_widget_set_margin_top (save_row, 6);
  gtk_box_append (GTK_BOX (save_row), GTK_WIDGET (self->save_entry));
  gtk_box_append (GTK_BOX (save_row), save);
  gtk_box_append (GTK_BOX (box), save_row);
  g_signal_connect_swapped (save, "clicked", G_CALLBACK (on_save_clicked), self);
  g_signal_connect_swapped (self->save_entry, "activate", G_CALLBACK (on_save_clicked), self);
  g_signal_connect_swapped (self->examples_list, "row-activated", G_CALLBACK (on_example_activated),
                            self);
  g_signal_connect_swapped (self->saved_list, "row-activated", G_CALLBACK (on_saved_activated),
                            self);
  g_signal_connect_swapped (popover, "show", G_CALLBACK (refresh_saved), self);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  return popover;
}

/* Each pane gets half the width the first time there is one; then where it is dragged. */
static void
on_hpaned_range (IvQueryPage *self)
{
  int hi = 0;
  g_object_get (self->hpaned, "max-position", &hi, NULL);
  if (!self->hpaned_placed && hi > 200)
    {
      self->hpaned_placed = TRUE;
      gtk_paned_set_position (GTK_PANED (self->hpaned), hi * 11 / 20);
    }
}

static GtkWidget *
build_toolbar (IvQueryPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *queries = gtk_menu_button_new ();

  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);

  self->run_button = gtk_button_new_with_mnemonic (_ ("_Run"));
  gtk_widget_add_css_class (self->run_button, "suggested-action");
  gtk_widget_set_tooltip_text (self->run_button, _ ("Run the query (Ctrl+Enter)"));
  g_signal_connect_swapped (self->run_button, "clicked", G_CALLBACK (iv_query_page_run), self);
  self->cancel_button = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  gtk_widget_add_css_class (self->cancel_button, "destructive-action");
  gtk_widget_set_tooltip_text (self->cancel_button, _ ("Stop the query (Escape)"));
  gtk_widget_set_visible (self->cancel_button, FALSE);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (iv_query_page_cancel),
                            self);
  self->spinner = gtk_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);

  self->queries_button = GTK_MENU_BUTTON (queries);
  gtk_menu_button_set_label (self->queries_button, _ ("_Queries"));
  gtk_menu_button_set_use_underline (self->queries_button, TRUE);
  gtk_widget_set_tooltip_text (queries, _ ("Examples, and the queries you saved"));
  gtk_menu_button_set_popover (self->queries_button, build_queries_popover (self));

  self->status
      = GTK_LABEL (gtk_label_new (_ ("Tables: slice, thread, process, … (Tab completes)")));
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");

  self->copy_button = gtk_button_new_with_mnemonic (_ ("Copy as C_SV"));
  gtk_widget_set_tooltip_text (self->copy_button, _ ("The table, in its order, to the clipboard"));
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  g_signal_connect_swapped (self->copy_button, "clicked", G_CALLBACK (on_copy), self);

  gtk_box_append (GTK_BOX (bar), self->run_button);
  gtk_box_append (GTK_BOX (bar), self->cancel_button);
  gtk_box_append (GTK_BOX (bar), self->spinner);
  gtk_box_append (GTK_BOX (bar), queries);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (bar), self->copy_button);
  return bar;
}

static GtkWidget *
build_editor (IvQueryPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->editor = GTK_TEXT_VIEW (gtk_text_view_new ());
  self->buffer = gtk_text_view_get_buffer (self->editor);
  gtk_text_view_set_monospace (self->editor, TRUE);
  gtk_text_view_set_left_margin (self->editor, 8);
  gtk_text_view_set_top_margin (self->editor, 6);
  gtk_text_view_set_bottom_margin (self->editor, 6);
  gtk_text_view_set_wrap_mode (self->editor, GTK_WRAP_WORD_CHAR);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->editor), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("SQL query"), -1);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_editor_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->editor), keys);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->editor));
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_widget_add_css_class (scroll, "view");

  /* one line, the place and the problem; the whole text in its tooltip */
  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->error_label, 0);
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_label_set_ellipsize (self->error_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (self->error_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_margin_start (GTK_WIDGET (self->error_label), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->error_label), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->error_label), 4);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);

  self->completion = GTK_POPOVER (gtk_popover_new ());
  self->completion_list = GTK_LIST_BOX (gtk_list_box_new ());
  {
    GtkWidget *cscroll = gtk_scrolled_window_new ();
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (cscroll), GTK_POLICY_NEVER,
                                    GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (cscroll), 240);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (cscroll), TRUE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (cscroll),
                                   GTK_WIDGET (self->completion_list));
    gtk_popover_set_child (self->completion, cscroll);
  }
  gtk_popover_set_position (self->completion, GTK_POS_BOTTOM);
  gtk_widget_set_parent (GTK_WIDGET (self->completion), GTK_WIDGET (self->editor));
  g_signal_connect_swapped (self->completion_list, "row-activated",
                            G_CALLBACK (on_completion_activated), self);

  gtk_box_append (GTK_BOX (box), scroll);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->error_label));
  return box;
}

static GtkWidget *
build_results (IvQueryPage *self)
{
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkSorter *sorter;

  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  self->store = g_list_store_new (IV_TYPE_QUERY_ROW);
  sorter = gtk_column_view_get_sorter (self->table);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          sorter ? g_object_ref (sorter) : NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_set_show_column_separators (self->table, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->table), "data-table");
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (on_selected), self);
  g_signal_connect_swapped (self->table, "activate", G_CALLBACK (on_activate), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->table));
  gtk_widget_set_size_request (scroll, 240, 100);
  return scroll;
}

static GtkWidget *
build_chart (IvQueryPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *picks = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *x_label = gtk_label_new_with_mnemonic (_ ("_x"));
  GtkWidget *y_label = gtk_label_new_with_mnemonic (_ ("_y"));
  GtkWidget *note;

  self->x_pick = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  self->y_pick = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_label_set_mnemonic_widget (GTK_LABEL (x_label), GTK_WIDGET (self->x_pick));
  gtk_label_set_mnemonic_widget (GTK_LABEL (y_label), GTK_WIDGET (self->y_pick));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->x_pick),
                               _ ("The column along x: numbers give points, text gives bars"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->y_pick), _ ("The column of numbers along y"));
  g_signal_connect_swapped (self->x_pick, "notify::selected", G_CALLBACK (on_pick), self);
  g_signal_connect_swapped (self->y_pick, "notify::selected", G_CALLBACK (on_pick), self);
  gtk_widget_set_margin_start (picks, 12);
  gtk_widget_set_margin_top (picks, 6);
  gtk_widget_set_margin_bottom (picks, 6);
  gtk_box_append (GTK_BOX (picks), x_label);
  gtk_box_append (GTK_BOX (picks), GTK_WIDGET (self->x_pick));
  gtk_box_append (GTK_BOX (picks), y_label);
  gtk_box_append (GTK_BOX (picks), GTK_WIDGET (self->y_pick));

  self->chart_stack = GTK_STACK (gtk_stack_new ());
  self->chart = IV_CHART_VIEW (iv_chart_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->chart), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->chart), TRUE);
  note = gtk_label_new (_ ("Run a query to chart two of its columns"));
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_add_css_class (note, "dim-label");
  self->chart_note = GTK_LABEL (note);
  gtk_stack_add_named (self->chart_stack, GTK_WIDGET (self->chart), "chart");
  gtk_stack_add_named (self->chart_stack, note, "note");
  gtk_stack_set_visible_child_name (self->chart_stack, "note");
  gtk_widget_set_vexpand (GTK_WIDGET (self->chart_stack), TRUE);
  gtk_widget_set_size_request (box, 280, 160);

  gtk_box_append (GTK_BOX (box), picks);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chart_stack));
  return box;
}

static void
iv_query_page_dispose (GObject *object)
{
  IvQueryPage *self = IV_QUERY_PAGE (object);

  /* a query still running stops; its job releases what it holds when it returns */
  if (self->running)
    g_cancellable_cancel (self->running->cancellable);
  self->running = NULL;
  g_clear_handle_id (&self->idle_drop_id, g_source_remove);
  if (self->completion)
    {
      gtk_widget_unparent (GTK_WIDGET (self->completion));
      self->completion = NULL;
    }
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->conn, conn_unref);
  g_clear_object (&self->owner);
  g_clear_pointer (&self->result, iv_query_result_free);
  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (iv_query_page_parent_class)->dispose (object);
}

static void
iv_query_page_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  IvQueryPage *self = IV_QUERY_PAGE (object);
  switch (id)
    {
    case PROP_CACHE_BYTES:
      /* read on the main thread while no worker uses the connection */
      g_value_set_uint64 (
          value, self->conn && !self->running ? iv_query_cache_bytes (self->conn->query) : 0);
      break;
    case PROP_IDLE_DROP_MS:
      g_value_set_uint (value, self->idle_drop_ms);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
iv_query_page_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  IvQueryPage *self = IV_QUERY_PAGE (object);
  switch (id)
    {
    case PROP_IDLE_DROP_MS:
      self->idle_drop_ms = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
iv_query_page_class_init (IvQueryPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_query_page_dispose;
  object_class->get_property = iv_query_page_get_property;
  object_class->set_property = iv_query_page_set_property;
  g_object_class_install_property (object_class, PROP_CACHE_BYTES,
                                   g_param_spec_uint64 ("cache-bytes", NULL, NULL, 0, G_MAXUINT64,
                                                        0,
                                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_IDLE_DROP_MS,
                                   g_param_spec_uint ("idle-drop-ms", NULL, NULL, 1, G_MAXUINT,
                                                      IDLE_DROP_MS,
                                                      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* (guint64 slice, gboolean show) */
  signals[SIGNAL_SLICE_SELECTED]
      = g_signal_new ("slice-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_BOOLEAN);
  /* (gboolean ok): a query ended, its results or its error shown */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
iv_query_page_init (IvQueryPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->time_limit_ms = IV_QUERY_TIME_LIMIT_MS;
  self->idle_drop_ms = IDLE_DROP_MS;
  self->vpaned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  self->hpaned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->vpaned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->vpaned), FALSE);
  gtk_paned_set_resize_start_child (GTK_PANED (self->vpaned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->hpaned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->hpaned), FALSE);
  gtk_box_append (GTK_BOX (box), build_toolbar (self));
  gtk_paned_set_start_child (GTK_PANED (self->vpaned), build_editor (self));
  gtk_paned_set_start_child (GTK_PANED (self->hpaned), build_results (self));
  gtk_paned_set_end_child (GTK_PANED (self->hpaned), build_chart (self));
  gtk_paned_set_end_child (GTK_PANED (self->vpaned), self->hpaned);
  gtk_paned_set_position (GTK_PANED (self->vpaned), 120);
  gtk_widget_set_vexpand (self->vpaned, TRUE);
  g_signal_connect_swapped (self->hpaned, "notify::max-position", G_CALLBACK (on_hpaned_range),
                            self);
  gtk_box_append (GTK_BOX (box), self->vpaned);
  self->box = box;
  gtk_widget_set_parent (box, GTK_WIDGET (self));
  iv_query_page_set_text (self, trace_examples[0].sql);
}

GtkWidget *
iv_query_page_new (void)
{
  return g_object_new (IV_TYPE_QUERY_PAGE, NULL);
}
