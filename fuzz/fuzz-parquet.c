/* fuzz-parquet.c: libFuzzer target for the Parquet reader (footer, pages, Snappy, zstd)
 * and what the server metrics make of a Parquet file (series by name, the quantities,
 * statistics). The input is the file. Every column that reads has a value or a null for
 * each row; every series found by its own name gives as many points as it can. */
#include <glib.h>
#include <math.h>
#include <stdint.h>

#include "iv-parquet.h"
#include "iv-server-metrics.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvParquet) f = iv_parquet_new_from_bytes (bytes, "fuzz.parquet", &error);
  g_autoptr (IvServerMetrics) m = NULL;

  if (!f)
    {
      g_assert (error && g_str_has_prefix (error->message, "fuzz.parquet: "));
      return 0;
    }
  for (guint c = 0; c < iv_parquet_get_columns (f); c++)
    {
      g_autoptr (IvParquetColumn) col = iv_parquet_read_column (f, c, &error);
      if (!col)
        {
          g_assert (error && g_str_has_prefix (error->message, "fuzz.parquet: "));
          g_clear_error (&error);
          continue;
        }
      g_assert (col->n == iv_parquet_get_rows (f));
      for (guint64 i = 0; i < col->n; i++)
        {
          g_assert (col->present[i] <= 1);
          if (col->ids)
            g_assert ((col->ids[i] == IV_INTERN_NONE) == !col->present[i]);
          else if (col->doubles && !col->present[i])
            g_assert (isnan (col->doubles[i]));
        }
    }
  m = iv_server_metrics_parse_parquet (bytes, "fuzz.parquet", &error);
  if (!m)
    {
      g_assert (error != NULL);
      return 0;
    }
  for (guint i = 0; i < m->endpoints->len; i++)
    {
      const IvServerEndpoint *ep = m->endpoints->pdata[i];
      for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
        g_assert (ep->values[q]->len == ep->ts_ns->len);
    }
  for (guint i = 0; i < m->series->len && i < 64; i++)
    {
      const IvServerSeries *s = m->series->pdata[i];
      g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (GArray) wt = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) wv = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr (IvPromSpec) spec = iv_prom_spec_parse (s->metric, NULL);
      g_autoptr (GPtrArray) found = NULL;
      double stat;

      g_assert (s->ts_ns->len == s->value->len);
      g_assert (!s->count || s->count->len == s->ts_ns->len);
      iv_server_series_points (s, i % 2, t, v);
      g_assert (t->len == v->len && t->len <= s->ts_ns->len);
      iv_server_downsample ((const gint64 *) (void *) t->data, (const double *) (void *) v->data,
                            t->len, m->t0_ns, 5.0, i % 3 ? "mean" : "median", wt, wv);
      g_assert (wt->len == wv->len && wt->len <= t->len);
      /* a name with brackets or braces is not its own spec; the rest find themselves */
      if (spec && g_str_equal (spec->metric, s->metric))
        {
          found = iv_server_metrics_find (m, spec, NULL);
          g_assert (found && found->len > 0);
        }
      iv_server_metrics_stat (m, s->metric, i % 2 ? "avg" : "p99", &stat, NULL, NULL);
    }
  return 0;
}
