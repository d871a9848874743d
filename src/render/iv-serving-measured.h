/* iv-serving-measured.h: an AIPerf sweep's runs as points on the serving curve's axes
 * (docs/model.md §10) — what `model --serving --measured`, `plot --hardware` and, later,
 * the window's Runs workspace draw over the bound frontier. Knows the runs and the model,
 * not GTK. */
#pragma once

#include "iv-hardware.h"
#include "iv-json-writer.h"
#include "iv-serving.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

typedef struct
{
  GArray *points;       /* IvServingMeasured, in the sweep's order of runs */
  GPtrArray *left_out;  /* char*: "RUN left out: why", one per run not drawn */
  const IvModel *model; /* the model they were set against: the one given, else the first
                         * run's that matches a preset; NULL when none did */
  double isl, osl;      /* the runs' mean lengths; NaN when no run says */
} IvServingMeasuredSet;

/* Each run of @sweep as per-user throughput (AIPerf's own, else 1/ITL), output throughput
 * over the run's GPUs (its TP: @tp, or 0 for the smallest that fits as §9, times
 * @config's EP) and TTFT, against @model on @hw. @model NULL: each run's own, matched by
 * name, and runs of another model than the first matched are left out (a curve is of one
 * model). A run with no throughput or ITL, or that cannot be predicted, is left out with
 * its sentence. Clear @out with iv_serving_measured_set_clear (). */
void iv_serving_measured_from_sweep (const IvSweep *sweep, const IvModel *model,
                                     const IvHardware *hw, const IvConfig *config, gint64 tp,
                                     IvServingMeasuredSet *out);
void iv_serving_measured_set_clear (IvServingMeasuredSet *set);

/* @points (IvServingMeasured) as a JSON array of runs: what `model --serving --measured
 * --json` and `plot --hardware --json` print, written in one place so they cannot differ. */
void iv_serving_measured_write_json (IvJsonWriter *w, const GArray *points);
/* One point of the bound's sweep as a JSON object: `model --serving --format json`'s
 * points and `plot --json`'s bound frontier. */
void iv_serving_point_write_json (IvJsonWriter *w, const IvServingPoint *p);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (IvServingMeasuredSet, iv_serving_measured_set_clear)

G_END_DECLS
