/* iv-query-results.c: the rows of one query (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-query-results.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-csv.h"
#include "iv-json-writer.h"
#include "iv-safe-text.h"

/* Bars beyond this many categories would be unreadable slivers. */
#define MAX_BARS 60

IvQueryResult *
iv_query_result_new (void)
{
  IvQueryResult *r = g_new0 (IvQueryResult, 1);
  r->cells = g_array_new (FALSE, TRUE, sizeof (IvQueryCell));
  r->slice_column = -1;
  return r;
}

void
iv_query_result_free (IvQueryResult *r)
{
  if (!r)
    return;
  for (guint k = 0; k < r->cells->len; k++)
    g_free (g_array_index (r->cells, IvQueryCell, k).text);
  g_array_unref (r->cells);
  g_strfreev (r->names);
  g_free (r->numeric);
  g_free (r);
}

void
iv_query_result_columns (sqlite3_stmt *stmt, gpointer data)
{
  IvQueryResult *r = data;
  int n = sqlite3_column_count (stmt);

  g_strfreev (r->names);
  r->n_columns = (guint) MAX (n, 0);
  r->names = g_new0 (char *, r->n_columns + 1);
  for (guint c = 0; c < r->n_columns; c++)
    {
      const char *name = sqlite3_column_name (stmt, (int) c);
      r->names[c] = iv_text_valid (name ? name : "?", -1);
    }
}

gboolean
iv_query_result_row (sqlite3_stmt *stmt, gpointer data, GError **error)
{
  IvQueryResult *r = data;

  (void) error;
  r->n_returned++;
  /* the rest are counted, not kept: the table says how many there were */
  if (r->n_rows >= IV_QUERY_RESULT_MAX_ROWS)
    return TRUE;
  for (guint c = 0; c < r->n_columns; c++)
    {
      IvQueryCell cell = { 0 };
      cell.type = (guint8) sqlite3_column_type (stmt, (int) c);
      switch (cell.type)
        {
        case SQLITE_INTEGER:
          cell.i = sqlite3_column_int64 (stmt, (int) c);
          cell.d = (double) cell.i;
          break;
        case SQLITE_FLOAT:
          cell.d = sqlite3_column_double (stmt, (int) c);
          break;
        case SQLITE_TEXT:
          cell.text = iv_text_valid ((const char *) sqlite3_column_text (stmt, (int) c),
                                     sqlite3_column_bytes (stmt, (int) c));
          break;
        case SQLITE_BLOB:
          cell.text = g_strdup_printf (_ ("(%d bytes)"), sqlite3_column_bytes (stmt, (int) c));
          break;
        default:
          cell.type = SQLITE_NULL;
          break;
        }
      g_array_append_val (r->cells, cell);
    }
  r->n_rows++;
  return TRUE;
}

void
iv_query_result_finish (IvQueryResult *r)
{
  g_free (r->numeric);
  r->numeric = g_new0 (gboolean, MAX (r->n_columns, 1));
  r->slice_column = -1;
  for (guint c = 0; c < r->n_columns; c++)
    {
      gboolean numbers = TRUE, any = FALSE, integers = TRUE;
      for (gsize row = 0; row < r->n_rows; row++)
        {
          const IvQueryCell *cell = iv_query_result_cell (r, row, c);
          if (cell->type == SQLITE_NULL)
            continue;
          any = TRUE;
          if (cell->type != SQLITE_INTEGER)
            integers = FALSE;
          if (cell->type != SQLITE_INTEGER && cell->type != SQLITE_FLOAT)
            numbers = FALSE;
        }
      r->numeric[c] = numbers && any;
      /* slice's own id, or another table's reference to one (Perfetto's names) */
      if (r->slice_column < 0 && integers && any
          && (g_ascii_strcasecmp (r->names[c], "id") == 0
              || g_ascii_strcasecmp (r->names[c], "slice_id") == 0))
        r->slice_column = (int) c;
    }
}

const IvQueryCell *
iv_query_result_cell (const IvQueryResult *r, gsize row, guint column)
{
  g_return_val_if_fail (row < r->n_rows && column < r->n_columns, NULL);
  return &g_array_index (r->cells, IvQueryCell, row * r->n_columns + column);
}

/* Ten significant digits without an exponent where that stays readable (a sum of
 * nanoseconds reads 41602354000, not 4.1602354e+10), trailing zeros dropped. */
static char *
format_float (double d)
{
  char buf[64], format[16];
  double mag = fabs (d);
  int decimals;
  char *end;

  if (!isfinite (d) || mag == 0 || mag < 1e-4 || mag >= 1e15)
    return g_strdup_printf ("%.10g", d);
  decimals = CLAMP (9 - (int) floor (log10 (mag)), 0, 12);
  g_snprintf (format, sizeof format, "%%.%df", decimals);
  g_ascii_formatd (buf, sizeof buf, format, d);
  if (strchr (buf, '.'))
    {
      end = buf + strlen (buf) - 1;
      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  return g_strdup (buf);
}

char *
iv_query_cell_format (const IvQueryCell *cell)
{
  switch (cell->type)
    {
    case SQLITE_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, cell->i);
    case SQLITE_FLOAT:
      return format_float (cell->d);
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      return g_strdup (cell->text);
    default:
      return g_strdup ("NULL");
    }
}

static int
rank (const IvQueryCell *cell)
{
  switch (cell->type)
    {
    case SQLITE_NULL:
      return 0;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      return 1;
    default:
      return 2;
    }
}

int
iv_query_cell_compare (const IvQueryCell *a, const IvQueryCell *b)
{
  int ra = rank (a), rb = rank (b);

  if (ra != rb)
    return ra < rb ? -1 : 1;
  if (ra == 0)
    return 0;
  if (ra == 1)
    {
      /* two integers exactly (nanoseconds beyond 2^53 differ in the last digits) */
      if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER)
        return a->i < b->i ? -1 : a->i > b->i;
      if (isnan (a->d) || isnan (b->d))
        return isnan (a->d) - isnan (b->d);
      return a->d < b->d ? -1 : a->d > b->d;
    }
  return strcmp (a->text, b->text);
}

static void
append_csv_cell (GString *out, const IvQueryCell *cell)
{
  char buf[IV_JSON_DOUBLE_BUF];

  switch (cell->type)
    {
    case SQLITE_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, cell->i);
      break;
    case SQLITE_FLOAT:
      /* the JSON writer's shortest form reads back to the same double */
      g_string_append (out, isfinite (cell->d) ? iv_json_format_double (cell->d, buf)
                            : isnan (cell->d)  ? "NaN"
                            : cell->d > 0      ? "inf"
                                               : "-inf");
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      iv_csv_append_field (out, cell->text);
      break;
    default:
      break;
    }
}

char *
iv_query_result_to_csv (const IvQueryResult *r, const guint *order, gsize n_order)
{
  GString *out = g_string_new (NULL);
  gsize n = order ? n_order : r->n_rows;

  for (guint c = 0; c < r->n_columns; c++)
    {
      if (c)
        g_string_append_c (out, ',');
      iv_csv_append_field (out, r->names[c]);
    }
  g_string_append (out, "\r\n");
  for (gsize k = 0; k < n; k++)
    {
      gsize row = order ? order[k] : k;
      if (row >= r->n_rows)
        continue;
      for (guint c = 0; c < r->n_columns; c++)
        {
          if (c)
            g_string_append_c (out, ',');
          append_csv_cell (out, iv_query_result_cell (r, row, c));
        }
      g_string_append (out, "\r\n");
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_number (const IvQueryCell *cell)
{
  return (cell->type == SQLITE_INTEGER || cell->type == SQLITE_FLOAT) && isfinite (cell->d);
}

IvChart *
iv_query_result_chart (const IvQueryResult *r, guint x, guint y, GError **error)
{
  g_autoptr (IvChart) chart = NULL;
  g_autoptr (GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL;
  gboolean rising = TRUE;

  if (x >= r->n_columns || y >= r->n_columns)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("Pick two columns to plot"));
      return NULL;
    }
  if (!r->numeric[y])
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("“%s” holds text: pick a column of numbers for y"), r->names[y]);
      return NULL;
    }
  for (gsize row = 0; row < r->n_rows; row++)
    {
      const IvQueryCell *cx = iv_query_result_cell (r, row, x);
      const IvQueryCell *cy = iv_query_result_cell (r, row, y);
      if (!is_number (cy))
        continue;
      if (r->numeric[x])
        {
          if (!is_number (cx))
            continue;
          if (xs->len && cx->d <= g_array_index (xs, double, xs->len - 1))
            rising = FALSE;
          g_array_append_val (xs, cx->d);
        }
      else
        {
          if (labels->len >= MAX_BARS)
            break;
          g_ptr_array_add (labels, iv_query_cell_format (cx));
        }
      g_array_append_val (ys, cy->d);
    }
  if (ys->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("No row has numbers in both “%s” and “%s”"), r->names[x], r->names[y]);
      return NULL;
    }

  chart = iv_chart_new ();
  title = g_strdup_printf (_ ("%s by %s"), r->names[y], r->names[x]);
  iv_chart_set_title (chart, title, NULL);
  iv_chart_set_legend (chart, IV_LEGEND_HIDDEN);
  iv_chart_axis_set_title (chart, IV_AXIS_X, r->names[x]);
  iv_chart_axis_set_title (chart, IV_AXIS_Y, r->names[y]);
  if (r->numeric[x])
    {
      /* a series in x order reads as a line; anything else as the points it is */
      IvSeries *s = rising && xs->len > 1
                        ? iv_chart_add_line (chart, r->names[y], (double *) xs->data,
                                             (double *) ys->data, xs->len)
                        : iv_chart_add_scatter (chart, r->names[y], (double *) xs->data,
                                                (double *) ys->data, xs->len);
      if (rising && xs->len > 1)
        iv_series_set_marker (s, IV_MARKER_CIRCLE, 4);
    }
  else
    {
      iv_chart_set_categories (chart, (const char *const *) labels->pdata, labels->len);
      iv_chart_add_bars (chart, r->names[y], (double *) ys->data, ys->len);
    }
  return g_steal_pointer (&chart);
}
