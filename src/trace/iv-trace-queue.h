/* iv-trace-queue.h: queue length per GPU stream over time, as HTA's
 * TraceCounters.get_queue_length_time_series (hta/analyzers/trace_counters.py,
 * _get_queue_length_time_series_for_rank): the work launched on a stream and not yet
 * started. Per stream, +1 at the start of each runtime call that enqueued work on it,
 * −1 when that work starts; one point per event, the running sum after it — HTA's rows
 * (each row a change; the value holds until the next row: a step function).
 *
 * Ties: HTA concatenates the calls, then the work, and sorts by ts with pandas' default
 * quicksort, which is not stable, so its order within one timestamp is unspecified. Here
 * the enqueues at one instant come before the starts (what a stable sort of HTA's
 * concatenation gives): the queue never dips below zero. HTA's timestamps are the
 * trace's µs; these are ns (Kineto's integer µs × 1000). §docs/user-guide/traces.md
 * "Queue length" */
#pragma once

#include "iv-trace-launch.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 ts_ns;
  gint64 length; /* after this event */
} IvQueuePoint;

typedef struct
{
  guint track;    /* the GPU stream */
  gint64 initial; /* at the range's start: enqueued before it, not started by then */
  GArray *points; /* IvQueuePoint: one per enqueue and per start in the range, in order */
  gint64 max;     /* the longest queue in the range (@initial included) */
  gint64 max_ns;  /* when it first reached @max (the range's start when @initial is it) */
} IvQueueSeries;

/* The queue length of every GPU stream that @launches (IvLaunch, any order) enqueue on,
 * over [@t0_ns, @t1_ns) (G_MININT64/G_MAXINT64: the whole trace): the launches should be
 * every launch of the trace, not only those in the range, so that work enqueued before
 * the range and started in it (or after) counts. IvQueueSeries*, by track; never NULL. */
GPtrArray *iv_trace_queue_series (const IvTrace *trace, const GArray *launches, gint64 t0_ns,
                                  gint64 t1_ns);
void iv_queue_series_free (IvQueueSeries *series);

/* At most @max_points of @series's points (IvQueuePoint; all of them when they fit):
 * the points cut into consecutive runs, and of each run the first point at its highest
 * value and its last point, in order — every peak and the level after every run are
 * exact; what moved inside a run between them is left out. */
GArray *iv_queue_series_decimate (const IvQueueSeries *series, guint max_points);

/* The prefix of the counter series iv_trace_add_queue_tracks makes ("queue · stream 7"). */
#define IV_QUEUE_COUNTER_PREFIX "queue · "

/* A counter track "queue · <stream>" under each GPU stream with launches, right after the
 * stream's track, its one series the queue length over the whole trace. For the loading
 * worker, before the trace is shared: it renumbers the tracks. @read_args: a trace
 * without launch flows has its launches joined on args.correlation, read back from the
 * file (a second pass over it). FALSE when the memory for it could not be had (the
 * trace is then as it was). */
gboolean iv_trace_add_queue_tracks (IvTrace *trace, gboolean read_args);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvQueueSeries, iv_queue_series_free)

G_END_DECLS
