/* iv-trace-charts.h: the trace engine's analyses of a time range as small charts — GPU
 * streams busy and idle, kernel time by kind with the communication hidden under
 * compute, and the names taking the most time. The area selection of the Traces
 * workspace shows them; each is a chart of the chart toolkit (hover, zoom, export). */
#pragma once

#include "iv-chart.h"
#include "iv-model.h"
#include "iv-trace-diff.h"
#include "iv-trace-query.h"
#include "iv-trace-steps.h"

G_BEGIN_DECLS

/* NULL when @gpu has no streams. */
IvChart *iv_trace_chart_streams (const IvTrace *trace, const IvGpuStats *gpu);
/* NULL when @gpu has no kernel time. */
IvChart *iv_trace_chart_kernels (const IvGpuStats *gpu);
/* The @n names of @stats (by total time descending) with the most total time, with
 * their self time; NULL when @stats is empty. */
IvChart *iv_trace_chart_top_names (const IvTrace *trace, const GArray *stats, guint n);

/* The GPU busy time of a range by the model's stage groups (iv_trace_class_times ()), as
 * shares, beside the shares of @model's step (NULL: the measurement alone) — where the
 * time goes in the trace against where the model says it goes. NULL when nothing ran. */
IvChart *iv_trace_chart_classes (const gint64 by_class_ns[IV_N_KCLASSES], gint64 busy_ns,
                                 const IvResult *model);

/* The GPU busy time of each ProfilerStep (@steps: IvStepStats, iv_trace_step_stats) by
 * stage group, stacked, in step order: which iteration ran long and on what. NULL without
 * steps. */
IvChart *iv_trace_chart_steps (const GArray *steps);

/* The @n largest changes of @d (by |Δ time|) as diverging horizontal bars: more time to
 * the right, less to the left. NULL when nothing changed. */
IvChart *iv_trace_chart_diff (const IvTraceDiff *d, guint n);

G_END_DECLS
