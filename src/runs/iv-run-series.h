/* iv-run-series.h: what the plots of runs draw, computed from a run: requests in start
 * order, a metric per request, the dispersed output-token throughput, rolling
 * percentiles, a run's value on a plot axis (metric statistic, configuration field or
 * derived quantity), and the pareto frontier of runs. Pure functions, tested by hand. */
#pragma once

#include "iv-sweep.h"

G_BEGIN_DECLS

/* Request indices sorted by start time. */
GArray *iv_run_order_by_start (const IvRun *run);
/* @tag's value for every request (NaN where absent; a list metric's mean). */
double *iv_run_metric_per_request (const IvRun *run, const char *tag);
/* Each successful request adds osl / (end − start − ttft) tokens/s from start + ttft to
 * its end; the running sum is a step curve: @t_s (seconds from the first request's start)
 * and @tokens_per_s, the value holding from each time to the next. FALSE without the
 * metrics it needs. */
/* The requests the client had in flight: a step curve (@v[i] from @t_s[i] on), times in
 * seconds since @origin_ns. FALSE without records. */
gboolean iv_run_in_flight (const IvRun *run, gint64 origin_ns, GArray *t_s, GArray *count);
gboolean iv_run_dispersed_throughput (const IvRun *run, GArray *t_s, GArray *tokens_per_s);
/* A step curve (@v[i] holds from @t[i] to @t[i+1], 0 before the first time and after the
 * last) as the time-weighted mean of each of @bins equal bins over [@t0, @t1]: the same
 * area, at the resolution a figure can show. @out_t gets each bin's start. */
void iv_step_resample (const double *t, const double *v, gsize n, double t0, double t1, guint bins,
                       double *out_t, double *out_v);
/* The @q quantile of the last @window values at each position (fewer at the start). */
void iv_rolling_quantile (const double *values, gsize n, gsize window, double q, double *out);
/* A run's value for a plot axis: a metric's @stat (avg, min, max, std, p1 … p99), a
 * configuration field ("concurrency"), or output_token_throughput_per_gpu (the
 * output-token throughput over the GPUs its telemetry saw, or 1); for a run of repeated
 * trials, the mean over the trials. NaN when absent. */
double iv_run_axis_value (const IvRun *run, const char *metric, const char *stat);
/* Whether a larger value of @metric is better (throughputs) or a smaller one (latencies). */
gboolean iv_metric_higher_is_better (const char *metric);
/* Marks the points no other point beats on both axes. */
void iv_pareto_frontier (const double *x, const double *y, gsize n, gboolean x_higher_better,
                         gboolean y_higher_better, gboolean *on_frontier);

G_END_DECLS
