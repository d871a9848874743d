/* iv-pipeline-plot.h: what the pipelined I/O timeline shows — the rules of the reference
 * script (tests/data/reference/pipelined_timeline_reference.py), separate from drawing so
 * they can be checked without pixels (`inferview trace FILE --pipeline-json`).
 *
 * For a start candidate x: GPU `compute` of candidates x−1…x+4 (x…x+4 when x is 0), main
 * `wait_for_io`/`await_dispatch`/`trsm_host` of at least 1 ms of x…x+4, I/O
 * `hdf5_read`/`gpu_buffer_wait` of x…x+5. One I/O bar per candidate, from the end of its
 * `gpu_buffer_wait` to the end of its last read (the reads alone, or the waits alone,
 * when only those exist). An `await_dispatch` bar fills the gap of at least 1 ms between
 * a candidate's I/O end and its GPU start unless one main bar of that candidate covers it
 * (±0.05 ms). The window starts at the earliest GPU start of x and I/O start of x+1 and
 * ends at the last end among candidates x…x+3, plus 3 % of the span; bars past it by
 * more than 0.5 ms are cut (zig-zag edges). A bar at least 40 ms wide inside the window
 * is labelled with its bare candidate number — one of a candidate before x only when it
 * is GPU compute cut on the left, and never an I/O bar that is cut.
 *
 * Also the older PyTorch-trace variant: the first `Candidate_Eval_0` slice in the file is
 * the window, from 2 % of it before to 5 % after; slices named with `POSIX_Lustre_Read`
 * or `IO_Wait_For_GPU` are I/O, with `Math_Operations` or `H2D_Transfer` GPU compute. */
#pragma once

#include "iv-trace.h"
#include "iv-trace-pipelined.h"

G_BEGIN_DECLS

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
  IV_BAR_MERGED_IO, /* a candidate's I/O: buffer wait end → last read end */
  IV_BAR_FILLED,    /* an await_dispatch gap nobody wrote down */
} IvBarKind;

typedef struct
{
  IvLane lane;
  IvBarKind kind;
  gint64 start_ns, end_ns;      /* the bar's own extent: the window may cut it */
  gint64 candidate;             /* -1: none (the PyTorch variant) */
  const char *name;             /* "hdf5_io" for merged I/O, "await_dispatch" for fills */
  guint n_events;               /* events merged into the bar */
  gsize slice;                  /* the trace slice, G_MAXSIZE for merged and filled bars */
  gboolean cut_left, cut_right; /* past the window's edge by more than 0.5 ms */
  gboolean labelled;            /* carries its bare candidate number */
} IvPipelineBar;

/* A legend entry: the reference's wording, and the event name whose colour it shows. */
typedef struct
{
  const char *label;
  const char *name;
} IvPipelineKey;

typedef struct
{
  gboolean legacy;                     /* a PyTorch trace with a Candidate_Eval_0 slice */
  gint64 first_candidate;              /* x */
  gint64 min_candidate, max_candidate; /* what the file holds */
  gint64 t0_ns, t1_ns;                 /* the window */
  GArray *bars; /* IvPipelineBar drawn, in the reference's order: I/O, main, GPU */
  gboolean
      has_lane[IV_N_LANES]; /* lanes with any bar (before the window): empty ones are dropped */
  GArray *legend;           /* IvPipelineKey */
} IvPipelinePlot;

/* Whether @trace can be shown as a pipelined timeline (a pipelined file, or a trace with a
 * `Candidate_Eval_0` slice). */
gboolean iv_pipeline_plot_supported (const IvTrace *trace);
/* @first_candidate < 0 takes the file's own choice (`start_candidate`,
 * `timeline_record_from`, `focus_candidate`, else 0). */
IvPipelinePlot *iv_pipeline_plot_new (const IvTrace *trace, gint64 first_candidate, GError **error);
void iv_pipeline_plot_free (IvPipelinePlot *plot);
/* "Main Thread", "I/O Thread", "GPU Stream 0", "GPU Stream 1" ("I/O" and "GPU compute"
 * in the PyTorch variant). */
const char *iv_lane_name (IvLane lane, gboolean legacy);
/* The reference's key for @lane in JSON: main, io, gpu0, gpu1. */
const char *iv_lane_key (IvLane lane);

/* A segment of the GPU runtime breakdown: the families merged as the reference merges
 * them — Preprocess (the h2d/cast/scale families, `add_identity`, every family it does not
 * know and `_other_raw`), Triangular Solve (`trsm`), Cholesky + Schur Complement
 * (`schur_gemm`, `chol`). @width is the drawn share: at least 1.2 % each, renormalised.
 * The three are always shown, so the reference's --min_runtime_pct folds none of them. */
typedef struct
{
  const char *family; /* cast, trsm, gemm_chol */
  const char *label;
  double ms, pct, width;
  guint32 rgb;
} IvBreakdownSegment;

GArray *iv_breakdown_segments (const IvBreakdown *breakdown);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPipelinePlot, iv_pipeline_plot_free)

G_END_DECLS
