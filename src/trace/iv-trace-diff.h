/* iv-trace-diff.h: two traces compared — "did my change make it faster, and where?".
 * Per name and row kind the count and recorded time in each and the change, as HTA's
 * TraceDiff.compare_traces (hta/trace_diff.py) counts and sums ops, but CPU operators
 * matched by their call-stack path, so that aten::mm under forward and under backward
 * compare apart (a ProfilerStep#N in a path, and as a CPU operator's name, is written
 * ProfilerStep#*: steps numbered differently still match); names found in one trace only are added
 * or removed; the GPU's busy and idle time and its busy time by kernel class side by side. Kineto's
 * capture-wide "Spans"/"Traces" pseudo-processes are left out, as from a trace's activity range.
 * The whole traces, or one ProfilerStep of each. Plain data: `trace A B --diff` and the window
 * print it. */
#pragma once

#include "iv-trace-query.h"

G_BEGIN_DECLS

/* The separator of a CPU operator's path, outermost first. */
#define IV_TRACE_DIFF_PATH_SEP " › "

typedef struct
{
  char *name;         /* the slice's name */
  char *path;         /* CPU operators: the names from the outermost call down to this one,
                       * IV_TRACE_DIFF_PATH_SEP between them; NULL for other kinds */
  IvRowKind kind;     /* iv_row_kind_key names it */
  guint64 count[2];   /* slices in the first and the second trace */
  gint64 total_ns[2]; /* their durations as recorded, clipped to the step compared */
} IvTraceDiffEntry;

static inline gint64
iv_trace_diff_delta_ns (const IvTraceDiffEntry *e)
{
  return e->total_ns[1] - e->total_ns[0];
}

typedef struct
{
  GArray *entries;           /* IvTraceDiffEntry, by |Δ time| descending, then kind and name */
  gint64 step[2];            /* the ProfilerStep compared in each trace; -1: the whole trace */
  gint64 t0_ns[2], t1_ns[2]; /* the range compared in each */
  guint n_added, n_removed;  /* entries only in the second, only in the first */
  /* the GPU streams (iv_trace_gpu_stats_full, iv_trace_class_times_full) */
  gint64 busy_ns[2], idle_ns[2];
  gint64 class_ns[2][IV_N_KCLASSES];
  guint n_streams[2];
  gboolean per_process[2]; /* IV_STATS_PER_PROCESS: busy is the sum of each process' (rank's) */
} IvTraceDiff;

/* @a against @b. @step_a, @step_b: the ProfilerStep#N compared in each, -1 for the whole
 * traces (both or neither). NULL with @error when a step is not in its trace (the error
 * names the steps it has) or the memory cannot be had. */
IvTraceDiff *iv_trace_diff_new (const IvTrace *a, const IvTrace *b, gint64 step_a, gint64 step_b,
                                GError **error);
/* As iv_trace_diff_new, with @flags for each side: IV_STATS_PER_PROCESS for a distributed
 * job joined by iv-trace-job.h (names summed over the ranks, GPU busy the sum of each
 * rank's). */
IvTraceDiff *iv_trace_diff_new_full (const IvTrace *a, const IvTrace *b, gint64 step_a,
                                     gint64 step_b, const IvStatsFlags flags[2], GError **error);
void iv_trace_diff_free (IvTraceDiff *diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTraceDiff, iv_trace_diff_free)

G_END_DECLS
