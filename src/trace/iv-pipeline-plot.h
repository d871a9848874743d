/* iv-pipeline-plot.h: what the pipelined I/O timeline shows — the semantics of the
 * reference plot, separate from drawing so they can be tested on hand-made files.
 *
 * A window of candidates (pipeline iterations) on four lanes: Main thread, I/O, GPU
 * stream 0, GPU stream 1. Every I/O event of one candidate becomes one bar; a Main-lane
 * gap of ≥ 1 ms between a candidate's I/O end and its GPU start that no Main event covers
 * becomes an `await_dispatch` bar; bars keep their unclipped extent so the renderer can
 * tell which ones the window edge cuts. Also the older PyTorch-trace variant, in which
 * `Candidate_Eval_N` slices are the candidates. */
#pragma once

#include "iv-trace.h"
#include "iv-trace-pipelined.h"

G_BEGIN_DECLS

#define IV_PIPELINE_FILL_MIN_NS 1000000 /* 1 ms: shorter gaps are not worth a bar */

typedef enum
{
  IV_LANE_MAIN,
  IV_LANE_IO,
  IV_LANE_GPU0,
  IV_LANE_GPU1,
  IV_N_LANES,
} IvLane;

typedef enum
{
  IV_BAR_EVENT,     /* one event as written */
  IV_BAR_MERGED_IO, /* every I/O event of one candidate */
  IV_BAR_FILLED,    /* an await_dispatch gap nobody wrote down */
} IvBarKind;

typedef struct
{
  IvLane lane;
  IvBarKind kind;
  gint64 start_ns, end_ns;  /* unclipped: the window may cut them */
  gint64 candidate;         /* -1: none */
  const char *name;         /* "I/O" for merged bars, "await_dispatch" for filled ones */
  guint n_events;           /* events merged into the bar */
  gsize slice;              /* the trace slice, G_MAXSIZE for merged and filled bars */
} IvPipelineBar;

typedef struct
{
  gboolean legacy;               /* a PyTorch trace with Candidate_Eval_N slices */
  gint64 first_candidate, n_candidates; /* as shown */
  gint64 min_candidate, max_candidate;  /* what the file holds */
  gint64 t0_ns, t1_ns;           /* the window */
  GArray *bars;                  /* IvPipelineBar intersecting the window, by lane then start */
  GPtrArray *names;              /* distinct bar names in lane order, for the legend */
} IvPipelinePlot;

/* Whether @trace can be shown as a pipelined timeline (a pipelined file, or a trace with a
 * `Candidate_Eval_0` slice). */
gboolean        iv_pipeline_plot_supported (const IvTrace  *trace);
/* @first_candidate < 0 and @n_candidates ≤ 0 take the file's own choice (the first
 * candidate it names, or its first; three candidates; one Candidate_Eval window). */
IvPipelinePlot *iv_pipeline_plot_new       (const IvTrace  *trace,
                                            gint64          first_candidate,
                                            gint64          n_candidates,
                                            GError        **error);
void            iv_pipeline_plot_free      (IvPipelinePlot *plot);
const char     *iv_lane_name               (IvLane          lane);

/* A breakdown segment: one kernel family, or "Other" holding the families folded into it. */
typedef struct
{
  const char *name;
  double ms, pct;
  guint n_folded;           /* families in "Other", 0 for a family of its own */
} IvBreakdownSegment;

/* Families by time descending, those under @min_pct percent (and names starting with "_",
 * the profiler's unattributed time) folded into one trailing "Other". */
GArray *iv_breakdown_fold  (const IvBreakdown *breakdown,
                            double             min_pct);
/* Widths of stacked segments of fractions @frac (summing to 1) filling @total, each at
 * least @min_width while the others keep their proportions; equal widths when there is
 * not room for every minimum. */
void    iv_stack_widths    (const double      *frac,
                            guint              n,
                            double             total,
                            double             min_width,
                            double            *widths);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPipelinePlot, iv_pipeline_plot_free)

G_END_DECLS
