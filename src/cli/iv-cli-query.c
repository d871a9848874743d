/* iv-cli-query.c: `inferview query PATH... "SQL"` (or --file query.sql): SQL over the
 * traces and AIPerf runs named, with the tables Perfetto's trace processor names
 * (iv-query.h, docs/queries.md), printed as an aligned table, CSV or JSON. Errors name
 * the place in the SQL. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-private.h"
#include "iv-cli.h"
#include "iv-csv.h"
#include "iv-input.h"
#include "iv-json-writer.h"
#include "iv-query.h"
#include "iv-safe-text.h"
#include "iv-sniff.h"
#include "iv-sweep.h"
#include "iv-trace-queue.h"

#define COMMAND "query"

/* A query file is text a person wrote: a megabyte is far past any. */
#define QUERY_FILE_MAX (1024 * 1024)

typedef enum
{
  FORMAT_TABLE,
  FORMAT_CSV,
  FORMAT_JSON,
} Format;

typedef struct
{
  Format format;
  int n_columns;
  char **names;     /* the columns' names, valid UTF-8 */
  GPtrArray *cells; /* table: char* per cell, row after row */
  GArray *right;    /* table: gboolean per column, numbers right-aligned */
  GString *csv;     /* csv: written as the rows come */
  IvJsonWriter *json;
  guint64 rows;
} Output;

static void
on_columns (sqlite3_stmt *stmt, gpointer data)
{
  Output *o = data;

  /* a statement without columns (CREATE VIEW, as the last one): nothing to print */
  if (sqlite3_column_count (stmt) == 0)
    return;
  o->n_columns = sqlite3_column_count (stmt);
  o->names = g_new0 (char *, o->n_columns + 1);
  for (int c = 0; c < o->n_columns; c++)
    {
      /* a name that came before (SELECT * over a join) gets ":1", ":2", as SQLite names
       * the columns of a view: a JSON object's keys, and a table's headers, stay apart */
      char *name = iv_text_valid (sqlite3_column_name (stmt, c), -1);
      for (int n = 1;; n++)
        {
          gboolean taken = FALSE;
          for (int k = 0; k < c && !taken; k++)
            taken = strcmp (o->names[k], name) == 0;
          if (!taken)
            break;
          g_free (name);
          name = g_strdup_printf ("%s:%d", sqlite3_column_name (stmt, c), n);
          {
            char *valid = iv_text_valid (name, -1);
            g_free (name);
            name = valid;
          }
        }
      o->names[c] = name;
    }
  switch (o->format)
    {
    case FORMAT_TABLE:
      o->cells = g_ptr_array_new_with_free_func (g_free);
      o->right = g_array_new (FALSE, TRUE, sizeof (gboolean));
      g_array_set_size (o->right, (guint) o->n_columns);
      break;
    case FORMAT_CSV:
      o->csv = g_string_new (NULL);
      for (int c = 0; c < o->n_columns; c++)
        {
          if (c)
            g_string_append_c (o->csv, ',');
          iv_csv_append_field (o->csv, o->names[c]);
        }
      g_string_append (o->csv, "\r\n");
      break;
    case FORMAT_JSON:
      o->json = iv_json_writer_new (TRUE);
      iv_json_writer_begin_array (o->json);
      break;
    }
}

/* A cell as text: integers as integers, reals shortest round-trip ("0.1", "3.0"), text
 * valid UTF-8, blobs as hexadecimal; NULL as NULL. */
static char *
cell_text (sqlite3_stmt *stmt, int c)
{
  char buf[IV_JSON_DOUBLE_BUF];

  switch (sqlite3_column_type (stmt, c))
    {
    case SQLITE_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, c));
    case SQLITE_FLOAT:
      return g_strdup (iv_json_format_double (sqlite3_column_double (stmt, c), buf));
    case SQLITE_TEXT:
      return iv_text_valid ((const char *) sqlite3_column_text (stmt, c),
                            sqlite3_column_bytes (stmt, c));
    case SQLITE_BLOB:
      {
        const guchar *b = sqlite3_column_blob (stmt, c);
        int n = sqlite3_column_bytes (stmt, c);
        GString *s = g_string_new ("x'");
        for (int i = 0; i < n; i++)
          g_string_append_printf (s, "%02x", b[i]);
        g_string_append_c (s, '\'');
        return g_string_free (s, FALSE);
      }
    default:
      return NULL;
    }
}

static gboolean
on_row (sqlite3_stmt *stmt, gpointer data, GError **error)
{
  Output *o = data;
  (void) error;

  o->rows++;
  for (int c = 0; c < o->n_columns; c++)
    {
      int type = sqlite3_column_type (stmt, c);
      switch (o->format)
        {
        case FORMAT_TABLE:
          /* a cell holds one line on a terminal: control characters made visible */
          {
            g_autofree char *text = cell_text (stmt, c);
            g_ptr_array_add (o->cells, text ? iv_text_printable (text) : g_strdup ("NULL"));
            if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
              g_array_index (o->right, gboolean, c) = TRUE;
            break;
          }
        case FORMAT_CSV:
          {
            g_autofree char *text = cell_text (stmt, c);
            if (c)
              g_string_append_c (o->csv, ',');
            if (text) /* NULL: an empty field */
              iv_csv_append_field (o->csv, text);
            break;
          }
        case FORMAT_JSON:
          if (c == 0)
            iv_json_writer_begin_object (o->json);
          iv_json_writer_key (o->json, o->names[c]);
          if (type == SQLITE_INTEGER)
            iv_json_writer_int (o->json, sqlite3_column_int64 (stmt, c));
          else if (type == SQLITE_FLOAT)
            iv_json_writer_double (o->json, sqlite3_column_double (stmt, c));
          else if (type == SQLITE_NULL)
            iv_json_writer_null (o->json);
          else
            {
              g_autofree char *text = cell_text (stmt, c);
              iv_json_writer_string (o->json, text);
            }
          if (c == o->n_columns - 1)
            iv_json_writer_end_object (o->json);
          break;
        }
    }
  if (o->format == FORMAT_CSV)
    {
      g_string_append (o->csv, "\r\n");
      /* written as it goes: a result of millions of rows is not held */
      if (o->csv->len > 1 << 20)
        {
          fwrite (o->csv->str, 1, o->csv->len, stdout);
          g_string_truncate (o->csv, 0);
        }
    }
  return TRUE;
}

static void
print_table (Output *o)
{
  g_autofree gsize *width = g_new0 (gsize, MAX (o->n_columns, 1));
  GString *line = g_string_new (NULL);

  for (int c = 0; c < o->n_columns; c++)
    {
      g_autofree char *name = iv_text_printable (o->names[c]);
      width[c] = g_utf8_strlen (name, -1);
    }
  for (guint i = 0; i < o->cells->len; i++)
    width[i % o->n_columns]
        = MAX (width[i % o->n_columns], (gsize) g_utf8_strlen (o->cells->pdata[i], -1));
  for (int c = 0; c < o->n_columns; c++)
    {
      g_autofree char *name = iv_text_printable (o->names[c]);
      gsize pad = width[c] - g_utf8_strlen (name, -1);
      g_string_append_printf (line, "%s%s%*s", c ? "  " : "", name,
                              c < o->n_columns - 1 ? (int) pad : 0, "");
    }
  g_string_append_c (line, '\n');
  for (int c = 0; c < o->n_columns; c++)
    {
      if (c)
        g_string_append (line, "  ");
      for (gsize k = 0; k < width[c]; k++)
        g_string_append (line, "─");
    }
  g_string_append_c (line, '\n');
  for (guint i = 0; i < o->cells->len; i++)
    {
      int c = (int) (i % o->n_columns);
      const char *cell = o->cells->pdata[i];
      gsize pad = width[c] - g_utf8_strlen (cell, -1);
      gboolean right = g_array_index (o->right, gboolean, c);

      if (c)
        g_string_append (line, "  ");
      if (right)
        g_string_append_printf (line, "%*s%s", (int) pad, "", cell);
      else
        g_string_append_printf (line, "%s%*s", cell, c < o->n_columns - 1 ? (int) pad : 0, "");
      if (c == o->n_columns - 1)
        g_string_append_c (line, '\n');
    }
  fwrite (line->str, 1, line->len, stdout);
  g_string_free (line, TRUE);
  printf (g_dngettext (GETTEXT_PACKAGE, "(%" G_GUINT64_FORMAT " row)\n",
                       "(%" G_GUINT64_FORMAT " rows)\n", o->rows),
          o->rows);
}

static void
output_finish (Output *o)
{
  if (!o->names) /* the last statement returns no rows */
    return;
  switch (o->format)
    {
    case FORMAT_TABLE:
      print_table (o);
      break;
    case FORMAT_CSV:
      fwrite (o->csv->str, 1, o->csv->len, stdout);
      break;
    case FORMAT_JSON:
      {
        g_autofree char *text = NULL;
        iv_json_writer_end_array (o->json);
        text = iv_json_writer_finish (o->json);
        o->json = NULL;
        printf ("%s\n", text);
        break;
      }
    }
}

static void
output_clear (Output *o)
{
  g_strfreev (o->names);
  if (o->cells)
    g_ptr_array_unref (o->cells);
  if (o->right)
    g_array_unref (o->right);
  if (o->csv)
    g_string_free (o->csv, TRUE);
  if (o->json)
    g_free (iv_json_writer_finish (o->json));
}

/* Loads the traces and runs under @paths into @q: a trace (Chrome or pipelined) by its
 * content, every other path as AIPerf runs. */
static int
load_paths (IvQuery *q, char **paths, GPtrArray *traces, IvSweep **sweep)
{
  g_autoptr (GPtrArray) run_paths = g_ptr_array_new ();

  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      IvSniffResult *sniff = iv_sniff_path (paths[i], FALSE, NULL, NULL, NULL, &error);
      IvKind kind = sniff ? sniff->kind : IV_KIND_UNKNOWN;

      if (sniff)
        iv_sniff_result_free (sniff);
      if (!sniff)
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      if (kind == IV_KIND_CHROME_TRACE || kind == IV_KIND_PIPELINED_TIMELINE)
        {
          IvTrace *trace = iv_trace_load (paths[i], NULL, NULL, NULL, &error);
          if (!trace)
            {
              _iv_cli_print_error (error);
              return IV_EXIT_BAD_INPUT;
            }
          /* the tracks as the window has them (its Query page answers the same): the
           * queue length under each GPU stream, which renumbers the tracks after it */
          if (!iv_trace_add_queue_tracks (trace, TRUE))
            {
              _iv_cli_printf (stderr, _ ("inferview: %s: out of memory for the queue tracks.\n"),
                              paths[i]);
              iv_trace_free (trace);
              return IV_EXIT_BAD_INPUT;
            }
          g_ptr_array_add (traces, trace);
          if (!iv_query_add_trace (q, trace, &error))
            {
              _iv_cli_print_error (error);
              return IV_EXIT_BAD_INPUT;
            }
        }
      else if (kind == IV_KIND_RUN || kind == IV_KIND_SWEEP)
        g_ptr_array_add (run_paths, paths[i]);
      else
        {
          _iv_cli_printf (stderr,
                          _ ("inferview: %s: neither a trace nor an AIPerf run (it is %s).\n"),
                          paths[i], iv_kind_to_string (kind));
          return IV_EXIT_BAD_INPUT;
        }
    }
  if (run_paths->len)
    {
      g_autoptr (GError) error = NULL;
      g_ptr_array_add (run_paths, NULL);
      *sweep = iv_sweep_load ((const char *const *) run_paths->pdata, NULL, NULL, NULL, &error);
      if (!*sweep)
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      for (guint i = 0; i < (*sweep)->warnings->len; i++)
        _iv_cli_printf (stderr, "inferview: %s\n", (const char *) (*sweep)->warnings->pdata[i]);
      for (guint i = 0; i < (*sweep)->runs->len; i++)
        if (!iv_query_add_run (q, (*sweep)->runs->pdata[i], &error))
          {
            _iv_cli_print_error (error);
            return IV_EXIT_BAD_INPUT;
          }
    }
  return IV_EXIT_OK;
}

/* Whether the SQL (@len bytes) is text SQLite can be given: UTF-8 without a NUL. FALSE
 * after a line on stderr naming @source, the line and column of the first bad byte. */
static gboolean
sql_is_text (const char *source, const char *sql, gsize len)
{
  const char *end = NULL;
  guint line = 1, column = 1;

  if (g_utf8_validate (sql, (gssize) len, &end) && strlen (sql) == len)
    return TRUE;
  if (!end || (gsize) (end - sql) > len)
    end = sql + len;
  if (memchr (sql, '\0', len) && (const char *) memchr (sql, '\0', len) < end)
    end = memchr (sql, '\0', len);
  for (const char *p = sql; p < end; p++)
    {
      if (*p == '\n')
        line++, column = 1;
      else if (((guchar) *p & 0xc0) != 0x80)
        column++;
    }
  _iv_cli_printf (stderr,
                  _ ("inferview: %s: line %u, column %u: the SQL is not UTF-8 text (a byte "
                     "0x%02X).\n"),
                  source, line, column, (guchar) *end);
  return FALSE;
}

int
_iv_cli_query (int argc, char **argv)
{
  g_autofree char *file = NULL, *format = NULL, *limit = NULL, *sql = NULL;
  g_auto (GStrv) rest = NULL;
  g_autoptr (IvQuery) q = NULL;
  g_autoptr (GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_trace_free);
  g_autoptr (GError) error = NULL;
  IvSweep *sweep = NULL;
  Output out = { 0 };
  double limit_s = IV_QUERY_TIME_LIMIT_MS / 1000.0;
  guint n_paths;
  const char *source;
  int status;
  GOptionEntry entries[] = {
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &file, N_ ("Read the SQL from FILE"), "FILE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("table (default), csv or json"), "FORMAT" },
    { "time-limit", 0, 0, G_OPTION_ARG_STRING, &limit,
      N_ ("Stop a query after this long (default 60 s; 0: never)"), "SECONDS" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("PATH… [SQL]") },
    { NULL },
  };

  if (!_iv_cli_parse (COMMAND,
                      _ ("SQL over traces and AIPerf runs. Tables, as Perfetto names them: slice, "
                         "thread_track, gpu_track, process_track, track, thread, process, "
                         "counter, counter_track, flow, instant, args, trace_bounds; for runs: "
                         "request, run, run_summary, gpu_sample, server_sample. Times in ns. "
                         "Read-only. See docs/queries.md."),
                      entries, &argc, &argv))
    return IV_EXIT_USAGE;
  if (!format || strcmp (format, "table") == 0)
    out.format = FORMAT_TABLE;
  else if (strcmp (format, "csv") == 0)
    out.format = FORMAT_CSV;
  else if (strcmp (format, "json") == 0)
    out.format = FORMAT_JSON;
  else
    return _iv_cli_usage_error (COMMAND, _ ("--format is table, csv or json, not “%s”"), format);
  if (!_iv_cli_number (COMMAND, "--time-limit", limit, TRUE, &limit_s))
    return IV_EXIT_USAGE;
  n_paths = rest ? g_strv_length (rest) : 0;
  if (!file)
    {
      if (n_paths < 2)
        return _iv_cli_usage_error (COMMAND, "%s",
                                    _ ("give one or more paths, then the SQL (or --file FILE)"));
      sql = g_strdup (rest[--n_paths]);
      g_free (rest[n_paths]);
      rest[n_paths] = NULL;
      source = _ ("query");
    }
  else
    {
      gsize len;
      if (n_paths < 1)
        return _iv_cli_usage_error (COMMAND, "%s", _ ("give one or more paths to query"));
      if (!(sql = iv_input_load_document (file, QUERY_FILE_MAX, &len, &error)))
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      if (!sql_is_text (file, sql, len))
        return IV_EXIT_BAD_INPUT;
      source = file;
    }
  if (!sql_is_text (source, sql, strlen (sql)))
    return IV_EXIT_BAD_INPUT;

  if (!(q = iv_query_new (&error)))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  iv_query_set_time_limit (q, (gint64) (limit_s * 1000.0 + 0.5));
  status = load_paths (q, rest, traces, &sweep);
  if (status == IV_EXIT_OK)
    {
      if (iv_query_exec (q, sql, source, on_columns, on_row, &out, &error))
        output_finish (&out);
      else
        {
          _iv_cli_print_error (error);
          status = IV_EXIT_BAD_INPUT;
        }
    }
  output_clear (&out);
  /* the connection reads the runs and traces: closed first */
  g_clear_pointer (&q, iv_query_free);
  if (sweep)
    iv_sweep_free (sweep);
  return status;
}
