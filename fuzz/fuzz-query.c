/* fuzz-query.c: libFuzzer target for the query engine (src/query). The input is a Chrome
 * trace; whatever loads is queried through every table, and the index's answers are
 * checked against the columns read directly: a ts range and a track's count, GROUP BY
 * name's total, a slice found by its id, the parents of ancestor_slice. The ranges come
 * from the input's last bytes. Replayed over the trace-chrome corpus in the unit suite. */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "iv-query.h"
#include "iv-trace-query.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gint64
scalar (IvQuery *q, const char *sql, gboolean *ok)
{
  sqlite3_stmt *stmt = NULL;
  gint64 v = -1;

  *ok = sqlite3_prepare_v2 (iv_query_get_db (q), sql, -1, &stmt, NULL) == SQLITE_OK
        && sqlite3_step (stmt) == SQLITE_ROW;
  if (*ok)
    v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return v;
}

static gboolean
drain (sqlite3_stmt *stmt, gpointer data, GError **error)
{
  (void) stmt;
  (void) data;
  (void) error;
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "fuzz", NULL);
  g_autoptr (IvTrace) t = NULL;
  g_autoptr (IvQuery) q = NULL;
  static const char *const every[] = { "SELECT * FROM slice",
                                       "SELECT * FROM thread",
                                       "SELECT * FROM process",
                                       "SELECT * FROM track",
                                       "SELECT * FROM thread_track",
                                       "SELECT * FROM gpu_track",
                                       "SELECT * FROM process_track",
                                       "SELECT * FROM counter_track",
                                       "SELECT * FROM counter",
                                       "SELECT * FROM flow",
                                       "SELECT * FROM instant",
                                       "SELECT * FROM trace_bounds",
                                       "SELECT * FROM args",
                                       "SELECT extract_arg (arg_set_id, 'args.a') FROM slice",
                                       "SELECT count(*) FROM slice s, descendant_slice (s.id)" };
  gint64 lo, hi, want = 0, got;
  gboolean ok;

  if (!in || !(t = iv_trace_load_input (in, NULL, NULL, NULL, NULL, NULL)))
    return 0;
  if (!(q = iv_query_new (NULL)) || !iv_query_add_trace (q, t, NULL))
    g_error ("a query connection over a loaded trace could not be made");
  iv_query_set_time_limit (q, 2000);
  for (guint i = 0; i < G_N_ELEMENTS (every); i++)
    iv_query_exec (q, every[i], NULL, NULL, drain, NULL, NULL); /* no crash, no hang */

  /* a ts range from the last bytes, against the columns (slices, then instants) */
  lo = t->t0_ns + (size > 1 ? (gint64) data[size - 2] * ((t->t1_ns - t->t0_ns) / 256 + 1) : 0);
  hi = lo + (size > 0 ? (gint64) data[size - 1] * ((t->t1_ns - t->t0_ns) / 256 + 1) : 0);
  for (gsize i = 0; i < t->n_slices; i++)
    want += t->start_ns[i] >= lo && t->start_ns[i] <= hi;
  for (guint i = 0; i < t->instants->len; i++)
    {
      gint64 ts = g_array_index (t->instants, IvInstant, i).ts_ns;
      want += ts >= lo && ts <= hi;
    }
  {
    g_autofree char *sql = g_strdup_printf (
        "SELECT count(*) FROM slice WHERE ts >= %" G_GINT64_FORMAT " AND ts <= %" G_GINT64_FORMAT,
        lo, hi);
    got = scalar (q, sql, &ok);
    g_assert (ok && got == want);
  }
  /* every slice once, grouped by name or not */
  got = scalar (q, "SELECT sum(n) FROM (SELECT count(*) AS n FROM slice GROUP BY name)", &ok);
  g_assert (
      ok
      && (t->n_slices + t->instants->len == 0 || got == (gint64) (t->n_slices + t->instants->len)));
  /* a track's slices */
  if (t->tracks->len)
    {
      guint k = size ? data[0] % t->tracks->len : 0;
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      g_autofree char *sql = NULL;
      want = 0;
      for (guint r = tr->first_row; r < tr->first_row + tr->n_rows; r++)
        want += (gint64) g_array_index (t->rows, IvRow, r).n;
      for (guint i = 0; i < t->instants->len; i++)
        want += g_array_index (t->instants, IvInstant, i).track == k;
      sql = g_strdup_printf ("SELECT count(*) FROM slice WHERE track_id = %u", k);
      got = scalar (q, sql, &ok);
      g_assert (ok && got == want);
    }
  if (t->n_slices)
    {
      gsize s = size ? data[size / 2] % t->n_slices : 0;
      g_autofree char *sql = g_strdup_printf ("SELECT ts FROM slice WHERE id = %zu", s);
      g_autofree char *up = g_strdup_printf ("SELECT count(*) FROM ancestor_slice (%zu)", s);
      gint64 depth = 0;
      got = scalar (q, sql, &ok);
      g_assert (ok && got == t->start_ns[s]);
      for (gsize k = s, p; (p = iv_trace_parent (t, k)) != k; k = p)
        depth++;
      got = scalar (q, up, &ok);
      g_assert (ok && got == depth);
    }
  return 0;
}
