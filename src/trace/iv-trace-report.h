/* iv-trace-report.h: what a trace's statistics say about a range, computed once — by name
 * and row kind, per GPU stream, GPU busy time by kernel class, the spans that did not end
 * — so that `trace --stats` (text and JSON) and the window's area selection print one
 * result and cannot disagree. A new analysis adds its field here, computed in
 * iv_trace_report_new, and each printer shows it. */
#pragma once

#include "iv-trace-launch.h"
#include "iv-trace-query.h"

G_BEGIN_DECLS

/* The highest point of one of Kineto's memory curves ("memory · GPU 0 · allocated", the
 * counters iv-trace-chrome.c makes of [memory] instants) in the range. */
typedef struct
{
  guint series;    /* its IvCounterSeries */
  double peak;     /* bytes: in use ("allocated"), or since the trace began ("since start") */
  gint64 peak_ns;  /* the first sample at the peak */
  guint64 samples; /* samples in the range */
} IvMemoryPeak;

typedef struct
{
  gint64 t0_ns, t1_ns; /* the range asked for (G_MININT64/G_MAXINT64: the whole trace) */
  gboolean scoped;     /* a range narrower than the whole trace was asked for */
  IvStatsFlags flags;
  GArray *by_name;                /* IvNameStats (iv_trace_stats_by_name_full) */
  IvGpuStats *gpu;                /* per stream and kernel kind (iv_trace_gpu_stats_full) */
  gint64 class_ns[IV_N_KCLASSES]; /* GPU busy time by class; sums to busy_ns */
  guint64 class_slices[IV_N_KCLASSES];
  gint64 busy_ns;
  guint64 open;          /* spans that did not end in the range */
  IvLaunchStats *launch; /* launches whose work starts in the range, queue lengths */
  GArray *memory;        /* IvMemoryPeak, one per memory curve with samples in the range */
} IvTraceReport;

/* The report on [@t0_ns, @t1_ns) (@scoped: narrower than the whole trace); NULL with
 * @error when the memory for it cannot be had. */
IvTraceReport *iv_trace_report_new (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                    gboolean scoped, IvStatsFlags flags, GError **error);
void iv_trace_report_free (IvTraceReport *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTraceReport, iv_trace_report_free)

G_END_DECLS
