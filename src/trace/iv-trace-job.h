/* iv-trace-job.h: a distributed job for the timeline — the ranks of an IvTraceRanks
 * joined into one IvTrace on the job's clock, one process per rank holding its CPU
 * threads and GPU streams, so the timeline draws, folds and hides a rank as it does a
 * process. The rank traces are moved into it (each freed once copied): a slice costs what
 * it does in one trace. Knows which slices are the same collective instance on every
 * rank. */
#pragma once

#include "iv-trace-ranks.h"

G_BEGIN_DECLS

typedef struct
{
  IvTraceRanks *ranks; /* the analyses; its rank traces are gone (NULL) */
  IvTrace *trace;      /* every rank: process i is rank index i */
  gsize *slice_base;   /* per rank index, and one past: its slices in trace */
  guint *track_base;
  gsize *sample_base;
  /* per collective instance × rank index: the slice in trace, or G_MAXSIZE */
  gsize *instance_slices;
  /* (slice, instance) pairs sorted by slice: which instance a slice is */
  GArray *slice_instances;
} IvTraceJob;

/* Loads the rank traces of @paths (a folder, or files) as iv_trace_ranks_load_full does,
 * on the wall clock (or aligned when the ranks have none), and joins them. */
IvTraceJob *iv_trace_job_load (const char *const *paths, IvProgressFunc progress,
                               gpointer progress_data, GCancellable *cancellable, GError **error);
/* Joins the ranks of @ranks (taking it and its traces). NULL with @error when the memory
 * for the joined trace cannot be had. */
IvTraceJob *iv_trace_job_new (IvTraceRanks *ranks, GError **error);
void iv_trace_job_free (IvTraceJob *job);

/* A new job of the same ranks on the wall clock (@aligned FALSE) or on the alignment on
 * collectives, with the stragglers measured again: every slice keeps its index, each
 * rank's times move by the change of its offset. @job is only read (other threads may read
 * it meanwhile): the window shows the new job in place of the old, never shifts one that
 * is shown. NULL with @error when the memory for the copy cannot be had. */
IvTraceJob *iv_trace_job_realign (const IvTraceJob *job, gboolean aligned, GError **error);
/* The rank index a slice of the joined trace belongs to. */
guint iv_trace_job_rank_of (const IvTraceJob *job, gsize slice);
/* The collective instance @slice is part of (index in ranks->instances), or G_MAXUINT. */
guint iv_trace_job_instance_of (const IvTraceJob *job, gsize slice);
/* The slice of instance @instance on rank index @rank, or G_MAXSIZE. */
gsize iv_trace_job_instance_slice (const IvTraceJob *job, guint instance, guint rank);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTraceJob, iv_trace_job_free)

G_END_DECLS
