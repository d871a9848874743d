/* fuzz-runs.c: libFuzzer target for the run loader's parsers. The first byte picks the
 * parser (per-request records, summary, telemetry, time slices, or an aiperf plot
 * configuration in YAML), the rest is its file;
 * whatever loads then has every metric's statistics and the plots' series computed. */
#include <glib.h>
#include <stdint.h>

#include "iv-plot-config.h"
#include "iv-run-private.h"
#include "iv-run-series.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = NULL;
  g_autoptr (IvRun) r = NULL;
  gboolean ok = FALSE;

  if (size < 1)
    return 0;
  if (data[0] % 8 == 4)
    {
      g_autoptr (IvPlotConfig) c
          = iv_plot_config_parse ((const char *) data + 1, size - 1, "fuzz", &error);
      g_assert ((c != NULL) != (error != NULL));
      return 0;
    }
  bytes = g_bytes_new_static (data + 1, size - 1);
  in = iv_input_new_from_bytes (bytes, "fuzz", &error);
  if (!in)
    return 0;
  if (data[0] % 8 == 5)
    {
      /* the server's metrics: every quantity as long as its endpoint's clock, and their
       * statistics computable */
      IvServerMetrics *m = iv_server_metrics_parse (in, &error);
      g_assert ((m != NULL) != (error != NULL));
      if (!m)
        return 0;
      for (guint e = 0; e < m->endpoints->len; e++)
        {
          const IvServerEndpoint *ep = m->endpoints->pdata[e];
          for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
            g_assert (ep->values[q]->len == ep->ts_ns->len);
        }
      r = _iv_run_new ("fuzz");
      r->server = m;
      for (guint q = 0; q < IV_N_SERVER_QUANTITIES; q++)
        {
          IvMetricSummary s = { 0 };
          g_assert (iv_run_metric_stats (r, iv_server_quantity_key (q), &s) == m->has[q]);
          iv_metric_summary_clear (&s);
        }
      return 0;
    }
  r = _iv_run_new ("fuzz");
  switch (data[0] % 8 % 4)
    {
    case 0:
      ok = _iv_run_load_records (r, in, NULL, NULL, NULL, &error);
      break;
    case 1:
      ok = _iv_run_load_summary (r, in, &error);
      break;
    case 2:
      ok = _iv_run_load_telemetry (r, in, NULL, &error);
      break;
    default:
      ok = _iv_run_load_timeslices (r, in, &error);
      break;
    }
  g_assert (ok == (error == NULL));
  if (ok)
    {
      g_autoptr (GPtrArray) tags = iv_run_metric_tags (r);
      g_assert (r->start_ns->len == r->n_requests && r->flags->len == r->n_requests);
      for (guint i = 0; i < tags->len; i++)
        {
          IvMetricSummary s = { 0 };
          g_assert (iv_run_metric_stats (r, tags->pdata[i], &s));
          iv_metric_summary_clear (&s);
        }
      {
        /* what the plots compute from the requests */
        g_autoptr (GArray) order = iv_run_order_by_start (r);
        g_autoptr (GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
        g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
        g_assert (order->len == r->n_requests);
        iv_run_dispersed_throughput (r, t, v);
        g_assert (t->len == v->len);
      }
      for (guint i = 0; i < r->gpus->len; i++)
        {
          const IvGpu *g = r->gpus->pdata[i];
          for (guint k = 0; k < g->series->len; k++)
            g_assert (((GArray *) g->series->pdata[k])->len == g->ts_ns->len);
        }
    }
  return 0;
}
