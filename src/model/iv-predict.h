/* iv-predict.h: docs/model.md §9 — what the model says a measured AIPerf run could
 * have achieved on given hardware: TTFT, ITL, request latency and output throughput at
 * the run's concurrency and mean sequence lengths. Every prediction is a bound (η = 1 on
 * the GPU presets): queueing, scheduling and prefill–decode interference are ignored. */
#pragma once

#include "iv-hardware.h"
#include "iv-model.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 tp; /* TP over GPUs (cubes), chosen or the smallest that fits */
  double concurrency, isl, osl;
  double ttft_s, itl_s, latency_s;
  double throughput;         /* output tokens/s over all sequences */
  double throughput_per_gpu; /* … divided by the t·c GPUs */
  gboolean fits;             /* weights and KV cache at (C, ISL + OSL) fit each GPU */
  double memory_bytes;       /* per GPU at (C, ISL + OSL) */
} IvPrediction;

/* The preset a run's model name names: its Hugging Face id, else the id's last part, else
 * that part without a variant suffix (-Instruct, -Chat, -it, -Base, -FP8, -AWQ); NULL
 * when none matches. */
const IvModel *iv_predict_match_model (const char *name);
/* @tp 0: the smallest TP over the server's GPUs whose memory at (C, ISL + OSL) fits.
 * FALSE with @error when the inputs are unusable or no TP on this hardware can hold the
 * model (then @out holds the largest TP tried, fits FALSE). */
gboolean iv_predict (const IvModel *model, const IvHardware *hw, gint64 tp, double concurrency,
                     double isl, double osl, IvPrediction *out, GError **error);
/* The share of the bound a measurement reached: predicted ÷ measured for a time,
 * measured ÷ predicted for a throughput (≤ 1 when the run respects the bound); NaN when
 * either is missing. */
double iv_predict_efficiency (double predicted, double measured, gboolean is_time);

G_END_DECLS
