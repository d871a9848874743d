/* iv-run-bound.h: a measured AIPerf run set against the analytical bound of its model on
 * given hardware (docs/model.md §9): the run's model matched to a preset, its
 * concurrency and mean sequence lengths, the prediction, the measurement and how much of
 * the bound each measure reached. What `runs --predict`, the runs table and the
 * efficiency plot share. */
#pragma once

#include "iv-chart.h"
#include "iv-predict.h"
#include "iv-run.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

typedef enum
{
  IV_BOUND_TTFT,
  IV_BOUND_ITL,
  IV_BOUND_LATENCY,
  IV_BOUND_THROUGHPUT,
  IV_BOUND_THROUGHPUT_PER_GPU,
  IV_N_BOUND_MEASURES,
} IvBoundMeasure;

typedef struct
{
  const IvModel *model; /* NULL: the run's model matches no preset */
  char *model_name;     /* what the run calls it */
  gboolean ok;          /* a prediction was made */
  char *error;          /* else why not, one sentence */
  IvPrediction pred;
  double predicted[IV_N_BOUND_MEASURES]; /* seconds, or tokens/s */
  double measured[IV_N_BOUND_MEASURES];
  double efficiency[IV_N_BOUND_MEASURES]; /* ≤ 1 when the run respects the bound */
  gboolean concurrency_from_config;       /* else the mean requests in flight */
} IvRunBound;

/* The caveat every display of a bound carries. */
#define IV_BOUND_CAVEAT                                                                            \
  "a bound, not a forecast: the model ignores queueing, scheduling and prefill–decode "          \
  "interference"

/* @model NULL: matched from the run's model name. @tp 0: the smallest TP that fits. */
void iv_run_bound_compute (const IvRun *run, const IvModel *model, const IvHardware *hw, gint64 tp,
                           IvRunBound *out);
void iv_run_bound_clear (IvRunBound *bound);
const char *iv_bound_measure_key (IvBoundMeasure measure);
/* Across a sweep: each run's efficiency (TTFT, ITL, throughput) against @x_metric, the
 * bound at 100 %; @model NULL: each run's own, matched by name. NULL with @reason when no run could
 * be predicted. */
IvChart *iv_run_bound_chart (const IvSweep *sweep, const IvHardware *hw, gint64 tp,
                             const IvModel *model, const char *x_metric, const char *title,
                             char **reason);
gboolean iv_bound_measure_is_time (IvBoundMeasure measure);

G_END_DECLS
