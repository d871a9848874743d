/* iv-trace-ranks.h: a distributed job as one document — one profiler trace per rank
 * (Kineto's rank-N.pt.trace.json.gz, vLLM's per-worker traces), each loaded on its own
 * worker thread as an independent IvTrace, placed on one clock, and analysed per rank
 * with HolisticTraceAnalysis' definitions (temporal breakdown, kernel types, communication
 * under computation) and across ranks (stragglers: who arrived last at each collective and
 * how long the others waited for it). */
#pragma once

#include "iv-rank-names.h"
#include "iv-trace-report.h"

G_BEGIN_DECLS

/* HTA's kernel types (hta/utils/utils.py, get_kernel_type; the patterns of
 * hta/common/types.py): communication (^nccl, ^hip, ^hccl, ncclKernel), memory
 * (^Memcpy, ^Memset, ^dma and their hip forms), computation (anything the compute
 * pattern does not exclude), other. */
typedef enum
{
  IV_HTA_COMPUTATION,
  IV_HTA_COMMUNICATION,
  IV_HTA_MEMORY,
  IV_HTA_OTHER,
  IV_N_HTA_TYPES,
} IvHtaKernelType;

IvHtaKernelType iv_hta_kernel_type (const char *name);
const char *iv_hta_kernel_type_name (IvHtaKernelType type);

/* The kernel-type combinations HTA's get_gpu_kernel_breakdown reports (with
 * include_memory_kernels): bit 0 computation, 1 communication, 2 memory; mask 3 is
 * "COMPUTATION overlapping COMMUNICATION". */
#define IV_HTA_N_MASKS 8
/* HTA's label of a combination, e.g. "COMPUTATION overlapping COMMUNICATION"; @mask in
 * 1..7. Newly allocated. */
char *iv_hta_mask_label (guint mask);

/* HTA's temporal breakdown of one rank (hta/analyzers/breakdown_analysis.py,
 * get_temporal_breakdown): over the first GPU kernel's start → the last one's end of the
 * rank's GPU work (all streams merged), idle is what no kernel covers, compute what
 * computation kernels cover, non-compute the rest. */
typedef struct
{
  gint64 kernel_time_ns, idle_ns, compute_ns, non_compute_ns;
} IvRankTemporal;

/* One collective kernel of a rank, as the straggler analysis matches them. */
typedef struct
{
  gsize slice;
  guint key;       /* index in IvTraceRanks.keys: its (process group, kernel name) */
  guint64 ordinal; /* the n-th of its key on this rank, by start */
} IvRankCollective;

typedef struct
{
  char *path;
  int rank;
  const char *rank_source; /* "distributedInfo" or "file name" */
  IvTrace *trace;
  IvTraceReport *report; /* the whole trace, as `trace --stats` reports one file (held by
                          * IvTraceRanks.reports) */
  IvRankTemporal temporal;
  gint64 type_ns[IV_HTA_N_MASKS]; /* time under each combination of kernel types */
  guint64 type_kernels[IV_N_HTA_TYPES];
  /* HTA's get_comm_comp_overlap (hta/analyzers/communication_analysis.py): of the
   * communication kernels' merged time, the part computation kernels also cover */
  gint64 comm_ns, comm_overlapped_ns;
  /* the clock: times of this rank + offset_ns are the job's; offset_ns = wall_ns +
   * align_ns */
  gboolean has_wall; /* baseTimeNanoseconds, or epoch timestamps */
  gint64 wall_ns, align_ns, offset_ns;
  gint64 t0_ns, t1_ns;   /* the trace's extent on its own clock (kept when the trace goes) */
  guint64 align_matched; /* collective instances the alignment used */
  GArray *collectives;   /* IvRankCollective */
  /* stragglers */
  guint64 last_count; /* collective instances it arrived at last */
  gint64 caused_ns;   /* the others' wait in those */
  gint64 waited_ns;   /* its own wait for the last rank, over every instance */
} IvRank;

typedef enum
{
  IV_RANKS_CLOCK_WALL, /* every rank's times are wall clock: one axis as recorded */
  IV_RANKS_CLOCK_OWN,  /* some rank has no wall clock: each on its own */
} IvRanksClock;

/* One collective instance: the n-th kernel of one (process group, name) on each rank
 * that has it. Per rank (by index in IvTraceRanks.ranks): its start and end on the job's
 * clock and how long it waited for the last rank; G_MININT64 where the rank has none. */
typedef struct
{
  guint key;
  guint64 ordinal;
  guint n_present;
  guint last; /* rank index of the latest start */
  gint64 *start_ns, *end_ns, *wait_ns;
  gint64 *raw_start_ns, *raw_end_ns; /* as recorded, on each rank's own clock */
} IvCollectiveInstance;

typedef enum
{
  IV_RANKS_DEFAULT = 0,
  /* shift ranks so the n-th instance of each collective ends together on every rank */
  IV_RANKS_ALIGN = 1 << 0,
} IvRanksFlags;

typedef struct
{
  GPtrArray *ranks;   /* IvRank*, by rank */
  GPtrArray *reports; /* IvTraceReport*: the ranks' reports, shared with the job's copies */
  int world_size;     /* distributedInfo's world_size, or the number of ranks */
  char *backend;      /* distributedInfo's backend, or NULL */
  IvRanksClock clock;
  gboolean aligned;
  gboolean stragglers;     /* on a common clock (wall or aligned): the waits mean something */
  GPtrArray *key_names;    /* char*: the kernel name of each collective key */
  GPtrArray *key_groups;   /* char*: its process group ("" when the trace names none) */
  GArray *instances;       /* IvCollectiveInstance, by key then ordinal */
  GPtrArray *warnings;     /* char*, one sentence each */
  gint64 t0_ns, t1_ns;     /* the job's extent on its clock */
  gboolean align_computed; /* align_ns of every rank is known (the warnings said once) */
} IvTraceRanks;

/* The files of a job: every path as given, a folder as its trace files (by name, not
 * descending). NULL with @error when a path is neither, or a folder holds no trace. */
GPtrArray *iv_trace_ranks_expand (const char *const *paths, GError **error);
/* Loads every file on worker threads (at most one per core), each independently, then
 * places the ranks on one clock and matches their collectives. NULL with @error naming
 * the file when one cannot be loaded or two say they are the same rank. */
IvTraceRanks *iv_trace_ranks_load (const char *const *paths, IvRanksFlags flags,
                                   GCancellable *cancellable, GError **error);
/* The same with progress: @progress gets the bytes read of all ranks together, from the
 * worker threads (it must be safe to call from any thread, and from two at once). */
IvTraceRanks *iv_trace_ranks_load_full (const char *const *paths, IvRanksFlags flags,
                                        IvProgressFunc progress, gpointer progress_data,
                                        GCancellable *cancellable, GError **error);
/* Puts the ranks on the wall clock (or each on its own) again, or aligned on their
 * collectives as IV_RANKS_ALIGN does, and recomputes the stragglers: the window's toggle.
 * Reads no trace (they may be gone). */
void iv_trace_ranks_set_aligned (IvTraceRanks *job, gboolean aligned);
/* A copy of @job to place on another clock (its reports shared, read-only): the rank
 * traces are not copied (its ranks' are NULL). */
IvTraceRanks *iv_trace_ranks_copy (const IvTraceRanks *job);
void iv_trace_ranks_free (IvTraceRanks *job);

/* distributedInfo's rank and world size, read from the head of @path (up to its events,
 * where Kineto writes it); FALSE when it says none. Reads the file: not on the main
 * thread. */
gboolean iv_trace_peek_rank (const char *path, int *rank, int *world_size);
/* Of @paths (@n of them), those whose distributedInfo makes them ranks of one job: at
 * least two, of one world size, each a different rank. NULL when they are not (none or
 * one has it, or two say different worlds or the same rank). */
GPtrArray *iv_trace_ranks_by_info (const char *const *paths, guint n, GCancellable *cancellable);
/* The trace files of folder @dir that are a job's ranks: all of them when two or more are
 * named as ranks, else those iv_trace_ranks_by_info finds; NULL when they are not a job. */
GPtrArray *iv_trace_ranks_in_folder (const char *dir, GCancellable *cancellable);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTraceRanks, iv_trace_ranks_free)

G_END_DECLS
