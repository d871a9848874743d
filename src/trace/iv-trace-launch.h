/* iv-trace-launch.h: how the host fed the GPU — HTA's kernel launch statistics and queue
 * length, from the flows that tie each runtime launch to the work it enqueued (Kineto's
 * ac2g flows carry the correlation id HTA joins on); a trace without them has its calls
 * and work joined on args.correlation as HTA joins them, read back from the file.
 *
 * Launch statistics as hta/analyzers/cuda_kernel_analysis.py, cuda_kernel_launch_stats:
 * per launch the CPU duration of the runtime call, the GPU duration of its kernel, copy
 * or set, and the launch delay (the work's start − the call's end, 0 when negative);
 * outliers as its visualize_cuda_launch_kernel_info: runtime calls longer than 50 µs,
 * delays longer than 100 µs, and short kernels (a call of at most 50 µs whose work ran
 * shorter than the call).
 *
 * Queue length as hta/analyzers/trace_counters.py, _get_queue_length_time_series_for_rank:
 * per GPU stream, +1 when a runtime call enqueues work on it (the call's start) and −1
 * when that work starts (the series: iv-trace-queue.h); HTA then describes the values at
 * the changes, here also weighted by how long each lasted. Runtime calls as HTA's symbol
 * table lists them (get_runtime_launch_events_mask): CUDA, driver, ROCm and MTIA launches,
 * copies, sets. */
#pragma once

#include "iv-json-writer.h"
#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_LAUNCH_RUNTIME_CUTOFF_NS G_GINT64_CONSTANT (50000)
#define IV_LAUNCH_DELAY_CUTOFF_NS G_GINT64_CONSTANT (100000)

typedef struct
{
  gsize call, work; /* the runtime call's slice and its kernel's (copy's, set's) */
  gint64 cpu_ns;    /* the call's duration */
  gint64 gpu_ns;    /* the work's duration */
  gint64 delay_ns;  /* work start − call end, 0 when negative */
} IvLaunch;

typedef struct
{
  gint64 mean_ns, p50_ns, p95_ns, max_ns;
} IvLaunchSummary;

typedef struct
{
  guint track;            /* the GPU stream */
  guint64 changes;        /* increments and decrements */
  gint64 max;             /* the longest queue */
  double mean_at_changes; /* HTA's describe(): the mean of the values after each change */
  double time_weighted;   /* each value weighted by how long it lasted, first change → last */
} IvQueueStats;

typedef struct
{
  GArray *launches;                /* IvLaunch, by the work's start */
  IvLaunchSummary cpu, gpu, delay; /* over @launches */
  guint64 runtime_outliers, delay_outliers, short_kernels;
  GArray *queues;          /* IvQueueStats, one per GPU stream with queue changes in the range */
  GPtrArray *queue_series; /* IvQueueSeries* (iv-trace-queue.h): the queue of each stream over
                            * the range, every launch of the trace counted */
} IvLaunchStats;

/* The points of a stream's queue series `trace --stats --json` writes at most. */
#define IV_QUEUE_JSON_MAX_POINTS 10000

/* The launches whose work starts in [@t0_ns, @t1_ns) (G_MININT64/G_MAXINT64: all).
 * Never NULL; empty when the trace has no flow from a runtime call into GPU work. */
/* @read_args: a trace without launch flows has its launches joined on args.correlation,
 * read back from the file (not on the main thread). */
IvLaunchStats *iv_trace_launch_stats (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                      gboolean read_args);
void iv_launch_stats_free (IvLaunchStats *stats);
/* Every launch of the trace (IvLaunch, in no particular order), tied as
 * iv_trace_launch_stats ties them (@read_args likewise), without the statistics. */
GArray *iv_trace_launches (const IvTrace *trace, gboolean read_args);

/* @stats as the `launches` object of `trace --stats --json`: the summaries, the outlier
 * counts, the 10 longest launch delays (call, kernel, times), the queues by stream and
 * their series (queue_series: [ts_ns, length] per change, at most
 * IV_QUEUE_JSON_MAX_POINTS per stream, decimated by iv_queue_series_decimate past that). */
void iv_launch_stats_write_json (const IvTrace *trace, const IvLaunchStats *stats, IvJsonWriter *w);

/* Whether @name is a runtime call that enqueues GPU work (HTA's list). */
gboolean iv_trace_is_launch_name (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvLaunchStats, iv_launch_stats_free)

G_END_DECLS
