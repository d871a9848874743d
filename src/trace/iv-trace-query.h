/* iv-trace-query.h: what the timeline and the analyses ask of a trace: level of detail,
 * search, per-name statistics, GPU stream and kernel analyses. */
#pragma once

#include "iv-trace.h"

G_BEGIN_DECLS

/* One thing to draw in a row: a slice, or a run of slices narrower than a pixel. */
typedef struct
{
  gsize slice;   /* the first slice of the run */
  guint32 count; /* 1: one slice; more: a merged run */
  gint64 start_ns, end_ns;
} IvLodItem;

/* Appends the items of one row for [t0, t1] at @width_px; returns how many. */
gsize iv_trace_lod_row (const IvTrace *trace, guint row, gint64 t0_ns, gint64 t1_ns,
                        double width_px, GArray *items);
/* Every row: @row_first gets, per row, the index of its first item (rows->len + 1 entries). */
gsize iv_trace_lod (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns, double width_px,
                    GArray *items, GArray *row_first);

/* The first slice of row @row that reaches past @ts or starts at or after it: every
 * slice of the row that ends after @ts is at or after the index returned (the slices of
 * a nested row may overlap by the trace's overlap tolerance, so this can be a few slices
 * before the first one starting at @ts). */
gsize iv_trace_row_first_reaching (const IvTrace *trace, guint row, gint64 ts_ns);
/* The first slice of row @row starting at or after @ts: an index in
 * [row->first, row->first + row->n], the end when there is none. Slices of a row do
 * not overlap, so the one before it is the only one that can contain @ts. */
gsize iv_trace_row_first_at (const IvTrace *trace, guint row, gint64 ts_ns);
/* The last slice of row @row starting at or before @ts, or G_MAXSIZE. */
gsize iv_trace_row_last_by (const IvTrace *trace, guint row, gint64 ts_ns);

/* Slices whose name contains @needle (case-insensitive), in time order. */
GArray *iv_trace_search (const IvTrace *trace, const char *needle);

/* What the statistics count. By default a span that did not end is counted apart (its
 * duration is only "until the trace stopped"); this flag counts it as if it ended at the
 * end of the trace. */
typedef enum
{
  IV_STATS_DEFAULT = 0,
  IV_STATS_INCLUDE_OPEN = 1 << 0,
  /* GPU busy time per process, summed: a distributed job joined into one trace
   * (iv-trace-job.h) has one process per rank, each with its own GPU */
  IV_STATS_PER_PROCESS = 1 << 1,
  /* analyses may read the file's arguments again (off the main thread only): the kernel
   * launches of a trace without flows, joined on args.correlation */
  IV_STATS_READ_ARGS = 1 << 2,
} IvStatsFlags;

/* A name on one kind of row: "aten::mm" on a CPU thread and a GPU annotation "aten::mm"
 * are two entries. Durations are as recorded, clipped to the range asked for; self time
 * is the part of the range each slice had to itself (iv-trace-private.h,
 * _iv_trace_attribute_self). */
typedef struct
{
  guint32 name;
  IvRowKind kind;
  guint64 count; /* slices that ended (and, with IV_STATS_INCLUDE_OPEN, those that did not) */
  gint64 total_ns, self_ns, min_ns, max_ns;
  double mean_ns;
  guint64 open; /* slices of the range that did not end */
} IvNameStats;

/* "cpu", "gpu", "annotation", "sync", "gpu_other": how --stats --json names a row kind. */
const char *iv_row_kind_key (IvRowKind kind);

/* The extent of the work: every slice's, except Kineto's capture-wide profiler spans
 * (the tracks of its "Spans" and "Traces" pseudo-processes), which otherwise stretch the
 * range so the work fills a sliver of it. The whole trace when nothing else is there. */
void iv_trace_activity_range (const IvTrace *trace, gint64 *t0_ns, gint64 *t1_ns);

/* Slices that intersect [t0, t1) (a zero-length one: that starts in it), grouped by name
 * and row kind, by total time descending, their durations clipped to the range — as
 * Perfetto's area selection aggregates. Entries only of spans that did not end have
 * count 0 and their number in ->open. NULL with @error when the memory for it cannot be
 * had (ten million names take half a gigabyte). */
GArray *iv_trace_stats_by_name_full (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                     IvStatsFlags flags, GError **error);
/* The same, default flags. */
GArray *iv_trace_stats_by_name_checked (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                        GError **error);
/* The same, empty when the memory for it cannot be had. */
GArray *iv_trace_stats_by_name (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns);

typedef enum
{
  IV_KERNEL_COMPUTE,
  IV_KERNEL_COMM,
  IV_KERNEL_MEMORY,
  IV_N_KERNEL_KINDS,
} IvKernelKind;

/* A gap between kernels shorter than this is "kernel wait" (the cost of launching back
 * to back) when the host had launched the next one already: HTA's consecutive_kernel_delay
 * default, 30, in Kineto's microseconds. */
#define IV_KERNEL_WAIT_NS G_GINT64_CONSTANT (30000)

/* One GPU stream over a range: its work (kernels, copies, sets) clipped to the range.
 * busy: the union of the work; kernels: every work slice, overlapping ones too; active:
 * first work start → last work end; idle: the gaps in between (active − busy), split as
 * HTA splits them (hta/analyzers/breakdown_analysis.py, _analyze_idle_time_for_stream):
 * host wait when the next kernel was launched (its flow's CPU slice began) after the
 * stream went idle, kernel wait when the gap is under IV_KERNEL_WAIT_NS, other the rest. */
typedef struct
{
  guint track;
  gint64 busy_ns, idle_ns;
  gint64 first_ns, last_ns; /* the active span; both 0 without work */
  gint64 idle_host_wait_ns, idle_kernel_wait_ns, idle_other_ns;
  gint64 by_kind_ns[IV_N_KERNEL_KINDS]; /* summed durations: overlapping kernels each count */
  guint64 kernels;
  guint64 launched; /* kernels whose launch a flow gives (host wait needs it) */
} IvStreamStats;

typedef struct
{
  GArray *streams; /* IvStreamStats, one per GPU track with work in the range */
  gint64 by_kind_ns[IV_N_KERNEL_KINDS];
  gint64 comm_ns, comm_overlapped_ns;
  double comm_overlap_share; /* of communication time, the part under compute */
} IvGpuStats;

IvKernelKind iv_trace_kernel_kind (const IvTrace *trace, gsize slice);
IvGpuStats *iv_trace_gpu_stats_full (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                     IvStatsFlags flags);
IvGpuStats *iv_trace_gpu_stats (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns);
void iv_gpu_stats_free (IvGpuStats *stats);

/* What a GPU slice does, as the analytical model's stage groups name it, by its name
 * (patterns in iv-trace-analysis.c): matrix multiplies (the attention projections and
 * the FFN), the attention core, collectives, and the rest (norms, activations, copies,
 * annotations). */
typedef enum
{
  IV_KCLASS_GEMM,
  IV_KCLASS_ATTENTION,
  IV_KCLASS_COLLECTIVE,
  IV_KCLASS_OTHER,
  IV_N_KCLASSES,
} IvKernelClass;

IvKernelClass iv_trace_kernel_class (const IvTrace *trace, gsize slice);
const char *iv_kernel_class_name (IvKernelClass klass);
/* The GPU streams' busy time in [t0, t1) — the union of their work rows: kernels,
 * copies, sets and profiled kernel ranges; not syncs, not annotations — split by class:
 * each busy instant goes to the first class running then, in the order of the enum, so
 * the classes sum to @busy_ns exactly. @kernels: slices of each class. */
void iv_trace_class_times_full (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                                IvStatsFlags flags, gint64 by_class_ns[IV_N_KCLASSES],
                                guint64 kernels[IV_N_KCLASSES], gint64 *busy_ns);
void iv_trace_class_times (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                           gint64 by_class_ns[IV_N_KCLASSES], guint64 kernels[IV_N_KCLASSES],
                           gint64 *busy_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvGpuStats, iv_gpu_stats_free)

G_END_DECLS
