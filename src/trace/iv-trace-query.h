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

/* The first slice of row @row starting at or after @ts: an index in
 * [row->first, row->first + row->n], the end when there is none. Slices of a row do
 * not overlap, so the one before it is the only one that can contain @ts. */
gsize iv_trace_row_first_at (const IvTrace *trace, guint row, gint64 ts_ns);
/* The last slice of row @row starting at or before @ts, or G_MAXSIZE. */
gsize iv_trace_row_last_by (const IvTrace *trace, guint row, gint64 ts_ns);

/* Slices whose name contains @needle (case-insensitive), in time order. */
GArray *iv_trace_search (const IvTrace *trace, const char *needle);

typedef struct
{
  guint32 name;
  guint64 count;
  gint64 total_ns, self_ns, min_ns, max_ns;
  double mean_ns;
} IvNameStats;

/* The extent of the work: every slice's, except Kineto's capture-wide profiler spans
 * (the tracks of its "Spans" and "Traces" pseudo-processes), which otherwise stretch the
 * range so the work fills a sliver of it. The whole trace when nothing else is there. */
void iv_trace_activity_range (const IvTrace *trace, gint64 *t0_ns, gint64 *t1_ns);

/* Slices starting in [t0, t1), grouped by name, by total time descending; NULL with
 * @error when the memory for it cannot be had (ten million names take half a gigabyte). */
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

typedef struct
{
  guint track;
  gint64 busy_ns, idle_ns;
  gint64 by_kind_ns[IV_N_KERNEL_KINDS];
  guint64 kernels;
} IvStreamStats;

typedef struct
{
  GArray *streams; /* IvStreamStats, one per GPU stream track */
  gint64 by_kind_ns[IV_N_KERNEL_KINDS];
  gint64 comm_ns, comm_overlapped_ns;
  double comm_overlap_share; /* of communication time, the part under compute */
} IvGpuStats;

IvKernelKind iv_trace_kernel_kind (const IvTrace *trace, gsize slice);
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
/* The GPU streams' busy time in [t0, t1) — the union of their kernels, copies, sets and
 * profiled ranges; not syncs, not annotations — split by class:
 * each busy instant goes to the first class running then, in the order of the enum, so
 * the classes sum to @busy_ns exactly. @kernels: slices of each class. */
void iv_trace_class_times (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns,
                           gint64 by_class_ns[IV_N_KCLASSES], guint64 kernels[IV_N_KCLASSES],
                           gint64 *busy_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvGpuStats, iv_gpu_stats_free)

G_END_DECLS
