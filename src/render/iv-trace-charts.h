/* iv-trace-charts.h: the trace engine's analyses of a time range as small charts — GPU
 * streams busy and idle, kernel time by kind with the communication hidden under
 * compute, and the names taking the most time. The area selection of the Traces
 * workspace shows them; each is a chart of the chart toolkit (hover, zoom, export). */
#pragma once

#include "iv-chart.h"
#include "iv-model.h"
#include "iv-trace-diff.h"
#include "iv-trace-launch.h"
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

/* The median, p95 and longest runtime call, GPU work and launch delay of @st, with HTA's
 * outlier thresholds (50 µs calls, 100 µs delays) as rules. NULL without launches. */
IvChart *iv_trace_chart_launches (const IvLaunchStats *st);

/* The longest and the time-weighted mean queue of each GPU stream of @st. NULL without
 * queues. */
IvChart *iv_trace_chart_queues (const IvTrace *trace, const IvLaunchStats *st);
/* The queue length of each stream over the range (st->queue_series, HTA's time series) as
 * steps against the time since the trace began, the longest queue marked (a
 * triangle, named in the legend); a stream of
 * many changes drawn from at most IV_QUEUE_CHART_POINTS of them (iv_queue_series_decimate:
 * the peaks kept). NULL when no stream has a queue. */
#define IV_QUEUE_CHART_POINTS 4000
IvChart *iv_trace_chart_queue_series (const IvTrace *trace, const IvLaunchStats *st);

/* The GB/s of each type of memory copy or set (@copies: IvMemcpyStats,
 * iv_trace_memcpy_stats): overall (bytes over time), mean and max. NULL without copies
 * or when none says its bandwidth. */
IvChart *iv_trace_chart_copies (const GArray *copies);

G_END_DECLS
