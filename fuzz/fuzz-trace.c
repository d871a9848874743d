/* fuzz-trace.c: libFuzzer targets for the trace loaders. Built twice: as
 * fuzz-trace-chrome (the streaming Chrome loader) and, with IV_FUZZ_PIPELINED, as
 * fuzz-trace-pipelined. Whatever loads is then queried (level of detail, search,
 * statistics, GPU analyses) so the index is exercised too, and shown as a pipelined
 * timeline (its own window and a few others) when it can be. */
#include <glib.h>
#include <stdint.h>

#include "iv-pipeline-plot.h"
#include "iv-trace-private.h"
#include "iv-trace-query.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "fuzz", &error);
  IvTrace *t = NULL;

  if (!in)
    return 0;
#ifdef IV_FUZZ_PIPELINED
  {
    IvTraceBuilder *b = _iv_trace_builder_new (NULL, IV_TRACE_PIPELINED);
    if (_iv_trace_load_pipelined (b, in, NULL, &error))
      t = _iv_trace_builder_finish (b, &error);
    _iv_trace_builder_free (b);
  }
#else
  t = iv_trace_load_input (in, NULL, NULL, NULL, NULL, &error);
  if (iv_input_get_compression (in) == IV_COMPRESSION_NONE)
    {
      /* The same bytes through a window of a few bytes, so that every event is cut by the
       * window's end somewhere: the reader must come to the same trace. (Not for
       * compressed input: how far damaged data decompresses before the damage is found
       * depends on how much is asked for at once.) */
      g_autoptr (IvInput) again = iv_input_new_from_bytes (bytes, "fuzz", NULL);
      IvTraceBuilder *b = _iv_trace_builder_new (NULL, IV_TRACE_CHROME);
      g_autoptr (GError) small_error = NULL;
      IvTrace *small = NULL;

      b->window = 1 + (size ? data[size - 1] % 48 : 0);
      if (_iv_trace_load_chrome (b, again, NULL, NULL, NULL, &small_error))
        small = _iv_trace_builder_finish (b, &small_error);
      _iv_trace_builder_free (b);
      g_assert ((small != NULL) == (t != NULL));
      if (small)
        {
          g_assert (small->n_slices == t->n_slices && small->warnings->len == t->warnings->len);
          for (gsize s = 0; s < t->n_slices; s++)
            g_assert (small->start_ns[s] == t->start_ns[s] && small->dur_ns[s] == t->dur_ns[s]
                      && small->args_off[s] == t->args_off[s]
                      && small->args_len[s] == t->args_len[s]);
          for (guint w = 0; w < t->warnings->len; w++)
            g_assert (g_str_equal (small->warnings->pdata[w], t->warnings->pdata[w]));
        }
      else
        g_assert (g_str_equal (small_error->message, error->message));
      iv_trace_free (small);
    }
#endif
  g_assert ((t != NULL) != (error != NULL));
  if (t)
    {
      g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
      g_autoptr (GArray) first = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GArray) found = iv_trace_search (t, "a");
      g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
      IvGpuStats *gpu = iv_trace_gpu_stats (t, t->t0_ns, t->t1_ns);

      g_assert (found->len <= t->n_slices && stats->len <= t->n_slices);
      iv_trace_lod (t, t->t0_ns, t->t1_ns, 1000, items, first);
      for (gsize s = 0; s < t->n_slices && s < 64; s++)
        g_assert (iv_trace_parent (t, s) < t->n_slices);
      if (iv_pipeline_plot_supported (t))
        for (gint64 from = -1; from < 3; from++)
          {
            IvPipelinePlot *plot = iv_pipeline_plot_new (t, from, NULL);
            for (guint i = 0; plot && i < plot->bars->len; i++)
              {
                const IvPipelineBar *bar = &g_array_index (plot->bars, IvPipelineBar, i);
                g_assert (bar->lane < IV_N_LANES && bar->end_ns >= bar->start_ns);
              }
            iv_pipeline_plot_free (plot);
          }
      iv_gpu_stats_free (gpu);
      iv_trace_free (t);
    }
  return 0;
}
