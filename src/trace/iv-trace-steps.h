/* iv-trace-steps.h: a PyTorch profile's iterations, its ProfilerStep#N spans on a CPU
 * thread: which there are, where each ran, and the GPU's time in each — HTA's per-
 * iteration view (hta/common/trace.py assigns events to the ProfilerStep they fall in). */
#pragma once

#include "iv-trace-query.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 step;                    /* N of ProfilerStep#N */
  gint64 t0_ns, t1_ns;            /* where it ran */
  gint64 busy_ns;                 /* the GPU streams' busy time in it (the union of their work) */
  gint64 class_ns[IV_N_KCLASSES]; /* that busy time by stage group, summing to busy_ns */
  guint64 kernels;                /* GPU work slices in it */
} IvStepStats;

/* The ProfilerStep#N numbers of @trace, ascending (gint64). */
GArray *iv_trace_profiler_steps (const IvTrace *trace);
/* Where ProfilerStep#@step ran on a CPU thread: from its first start to its last end.
 * FALSE when the trace has no such step. */
gboolean iv_trace_step_range (const IvTrace *trace, gint64 step, gint64 *t0_ns, gint64 *t1_ns);
/* "steps 3, 4, 5" (the first twelve, then how many), or "no ProfilerStep": what an error
 * about a missing step tells the user. */
char *iv_trace_steps_text (const IvTrace *trace);
/* Every step of @trace with the GPU's time in it (IvStepStats), in step order. */
GArray *iv_trace_step_stats (const IvTrace *trace);

G_END_DECLS
