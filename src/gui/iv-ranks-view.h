/* iv-ranks-view.h: a distributed job in the Traces workspace. IvJobBar sits over the
 * job's timeline: which ranks are shown (a check per rank), "Align on collectives" with
 * the offsets it applied, and the collective under the pointer or selected — who arrived
 * last and how long this rank waited. IvRanksView is the Ranks page: per rank HTA's
 * temporal breakdown, communication under computation and the waits as a table, and the
 * per-rank bars and straggler heat map that Export draws. */
#pragma once

#include <gtk/gtk.h>

#include "iv-render.h"
#include "iv-timeline-view.h"
#include "iv-trace-job.h"

G_BEGIN_DECLS

#define IV_TYPE_RANKS_VIEW (iv_ranks_view_get_type ())
G_DECLARE_FINAL_TYPE (IvRanksView, iv_ranks_view, IV, RANKS_VIEW, GtkWidget)

/* The table's columns (what iv_ranks_view_get_value reads). */
typedef enum
{
  IV_RANKS_COL_RANK,
  IV_RANKS_COL_SPAN,        /* first → last kernel, s */
  IV_RANKS_COL_COMPUTE,     /* s */
  IV_RANKS_COL_COMPUTE_PCT, /* % of the span */
  IV_RANKS_COL_NON_COMPUTE,
  IV_RANKS_COL_NON_COMPUTE_PCT,
  IV_RANKS_COL_IDLE,
  IV_RANKS_COL_IDLE_PCT,
  IV_RANKS_COL_OVERLAP_PCT, /* communication under computation, % */
  IV_RANKS_COL_CAUSED,      /* the others' wait at the collectives it arrived at last, s */
  IV_RANKS_COL_WAITED,      /* its own wait, s */
  IV_RANKS_N_COLS,
} IvRanksColumn;

GtkWidget *iv_ranks_view_new (void);
/* Shows @job, kept alive by @owner (its document); NULL: nothing. */
void iv_ranks_view_set_job (IvRanksView *self, IvTraceJob *job, GObject *owner);
/* The stragglers changed (the clock was aligned or not): the table and figures again. */
void iv_ranks_view_update (IvRanksView *self);
/* The number behind a cell (NaN where the table shows "—"), and the text shown. */
double iv_ranks_view_get_value (IvRanksView *self, guint row, IvRanksColumn column);
const char *iv_ranks_view_get_text (IvRanksView *self, guint row, IvRanksColumn column);
guint iv_ranks_view_get_n_rows (IvRanksView *self);
/* The per-rank bars and the straggler heat map, for Export. */
const IvFigure *iv_ranks_view_get_figure (IvRanksView *self);

#define IV_TYPE_JOB_BAR (iv_job_bar_get_type ())
G_DECLARE_FINAL_TYPE (IvJobBar, iv_job_bar, IV, JOB_BAR, GtkWidget)

GtkWidget *iv_job_bar_new (void);
/* Drives @timeline (showing @job's trace) and @ranks for @job, kept alive by @owner;
 * NULL @job: the bar lets go of the timeline. */
void iv_job_bar_set_job (IvJobBar *self, IvTraceJob *job, GObject *owner, IvTimelineView *timeline,
                         IvRanksView *ranks);
/* Shows or hides rank index @rank (the popover's check does the same). */
void iv_job_bar_set_rank_visible (IvJobBar *self, guint rank, gboolean visible);
/* Puts the ranks on the alignment on collectives, or back on their clock (the toggle):
 * the job on the other clock is built on a worker and the window shows it in place of
 * this one (a new document; the selection, the ranks shown and the view, moved with the
 * selection's rank, are kept). */
void iv_job_bar_set_aligned (IvJobBar *self, gboolean aligned);
/* Whether that job is being built. */
gboolean iv_job_bar_is_realigning (IvJobBar *self);
/* The line that names the offsets applied. */
const char *iv_job_bar_get_offsets_text (IvJobBar *self);

G_END_DECLS
