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

/* ---- what `aiperf plot` draws (--aiperf-compatible), each after the aiperf function
 * named in its comment ---- */

/* A run's value on a multi-run axis: the summary's p50 where it has one, else its avg
 * (whatever statistic the preset names); a run's concurrency, 1 when it does not say;
 * per-GPU throughput over the GPUs of every endpoint of the summary's telemetry (NaN
 * without any). */
double iv_run_axis_value_aiperf (const IvRun *run, const char *metric);
/* The same, a server metric by name as aiperf plot's row has it
 * (iv_server_metrics_value_aiperf (): the server's value replaces a summary metric of the
 * same name), a Parquet file's points in windows of @window_s seconds of their @method
 * (settings.server_metrics_downsampling; the function above: 5 s, "mean"). */
double iv_run_axis_value_aiperf_full (const IvRun *run, const char *metric, double window_s,
                                      const char *method);
/* aiperf's frontier: points sorted by x, then a sweep keeping each point no worse in y
 * than all before it (a point equal in y to a better one's is kept). */
void iv_pareto_frontier_aiperf (const double *x, const double *y, gsize n, gboolean x_higher_better,
                                gboolean y_higher_better, gboolean *on_frontier);
/* calculate_throughput_events: a point per event (@t_s from the first event) with the
 * running sum after it. */
gboolean iv_run_throughput_events_aiperf (const IvRun *run, GArray *t_s, GArray *tokens_per_s);
/* The earliest request start of the records (any phase, failed ones too), or -1. */
gint64 iv_run_first_start_aiperf (const IvRun *run);
/* aggregate_gpu_telemetry: the mean GPU utilisation of every telemetry line of each
 * timestamp, seconds from iv_run_first_start_aiperf (). */
gboolean iv_run_gpu_utilization_aiperf (const IvRun *run, GArray *t_s, GArray *util);

/* Student's t quantile (scipy.stats.t.ppf (@p, @df)): the confidence intervals of
 * aiperf's latency_throughput_uncertainty. */
double iv_student_t_quantile (double p, double df);

G_END_DECLS
