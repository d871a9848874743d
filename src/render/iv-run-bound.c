/* iv-run-bound.c: the run's side of §9. Concurrency comes from the run's configuration,
 * else from Little's law (requests per second × mean latency: the mean in flight); ISL
 * and OSL are the means over its profiled records, else its configuration's. Measured
 * times are AIPerf's averages (ms), throughputs its per-run figures. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-run-bound.h"

#include <math.h>
#include <string.h>

#include "iv-run-series.h"

static const char *const keys[IV_N_BOUND_MEASURES] = {
  [IV_BOUND_TTFT] = "time_to_first_token",
  [IV_BOUND_ITL] = "inter_token_latency",
  [IV_BOUND_LATENCY] = "request_latency",
  [IV_BOUND_THROUGHPUT] = "output_token_throughput",
  [IV_BOUND_THROUGHPUT_PER_GPU] = "output_token_throughput_per_gpu",
};

const char *
iv_bound_measure_key (IvBoundMeasure m)
{
  g_return_val_if_fail (m < IV_N_BOUND_MEASURES, "");
  return keys[m];
}

gboolean
iv_bound_measure_is_time (IvBoundMeasure m)
{
  return m == IV_BOUND_TTFT || m == IV_BOUND_ITL || m == IV_BOUND_LATENCY;
}

void
iv_run_bound_clear (IvRunBound *b)
{
  g_clear_pointer (&b->model_name, g_free);
  g_clear_pointer (&b->error, g_free);
}

void
iv_run_bound_compute (const IvRun *r, const IvModel *model, const IvHardware *hw, gint64 tp, IvRunBound *b)
{
  double C, isl, osl;
  g_autoptr (GError) error = NULL;

  memset (b, 0, sizeof *b);
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    b->predicted[i] = b->measured[i] = b->efficiency[i] = NAN;
  b->model_name = g_strdup (r->model ? r->model : "");
  b->model = model ? model : iv_predict_match_model (r->model);
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    {
      double v = iv_run_axis_value (r, keys[i], "avg");
      /* AIPerf's times are in milliseconds */
      b->measured[i] = iv_bound_measure_is_time (i) ? v * 1e-3 : v;
    }
  if (!b->model)
    {
      b->error = g_strdup_printf ("the run's model “%s” matches no preset: choose a preset or a config.json",
                                  r->model ? r->model : "?");
      return;
    }
  b->concurrency_from_config = isfinite (r->concurrency);
  C = b->concurrency_from_config ? r->concurrency
                                 : iv_run_axis_value (r, "request_throughput", "avg") * b->measured[IV_BOUND_LATENCY];
  isl = iv_run_axis_value (r, "input_sequence_length", "avg");
  osl = iv_run_axis_value (r, "output_sequence_length", "avg");
  if (!isfinite (isl))
    isl = r->isl;
  if (!isfinite (osl))
    osl = r->osl;
  if (!iv_predict (b->model, hw, tp, C, isl, osl, &b->pred, &error))
    {
      b->error = g_strdup (error->message);
      return;
    }
  b->ok = TRUE;
  b->predicted[IV_BOUND_TTFT] = b->pred.ttft_s;
  b->predicted[IV_BOUND_ITL] = b->pred.itl_s;
  b->predicted[IV_BOUND_LATENCY] = b->pred.latency_s;
  b->predicted[IV_BOUND_THROUGHPUT] = b->pred.throughput;
  b->predicted[IV_BOUND_THROUGHPUT_PER_GPU] = b->pred.throughput_per_gpu;
  /* per GPU: the run's own throughput over the GPUs the prediction assumed */
  b->measured[IV_BOUND_THROUGHPUT_PER_GPU] = b->measured[IV_BOUND_THROUGHPUT] / (double) b->pred.tp;
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    b->efficiency[i] = iv_predict_efficiency (b->predicted[i], b->measured[i], iv_bound_measure_is_time (i));
}
