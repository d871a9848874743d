/* iv-trace-compare-view.h: two traces compared in the window — "did my change make it
 * faster, and where?". The diff of iv_trace_diff_new (computed on a worker) as a sortable
 * table (name or call path, kind, count and time in each, Δ, new or gone), the GPU's busy,
 * idle and stage-group totals side by side, the largest changes as diverging bars
 * (exportable like every chart), and the two timelines one above the other, aligned at a
 * chosen ProfilerStep (the same number in both) and scrolling and zooming together.
 * iv_trace_compare_window_new shows it in a window of its own (win.compare-traces). */
#pragma once

#include <gtk/gtk.h>

#include "iv-document.h"
#include "iv-timeline-view.h"
#include "iv-trace-diff.h"

G_BEGIN_DECLS

#define IV_TYPE_TRACE_COMPARE_VIEW (iv_trace_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (IvTraceCompareView, iv_trace_compare_view, IV, TRACE_COMPARE_VIEW, GtkWidget)

GtkWidget *iv_trace_compare_view_new (void);
/* Compares @b (the second, "after") against @a (the first, "before"), each kept alive by its
 * document; the whole traces until a step is chosen. */
void iv_trace_compare_view_set_documents (IvTraceCompareView *self, IvDocument *a, IvDocument *b);
/* Compares ProfilerStep#@step of both (-1: the whole traces) and aligns the timelines at its
 * start; FALSE when either trace has no such step. */
gboolean iv_trace_compare_view_set_step (IvTraceCompareView *self, gint64 step);
/* Whether the worker is still computing the diff. */
gboolean iv_trace_compare_view_is_busy (IvTraceCompareView *self);
/* The diff shown (NULL while computing or after an error). */
const IvTraceDiff *iv_trace_compare_view_get_diff (IvTraceCompareView *self);
/* The table's rows in the order shown; the row at @position as
 * "kind | name or path | count A | count B | ns A | ns B | Δ ns | change" (tests). */
guint iv_trace_compare_view_get_n_rows (IvTraceCompareView *self);
char *iv_trace_compare_view_row_text (IvTraceCompareView *self, guint position);
/* Sorts the table by the column @id ("name", "callers", "kind", "count-a", "count-b", "time-a",
 * "time-b", "delta", "change"), as a click on its header does; NULL: the diff's order. */
void iv_trace_compare_view_sort (IvTraceCompareView *self, const char *id, GtkSortType order);
/* The GPU totals, side by side, as text: one "name | A | B | Δ" line each. */
char *iv_trace_compare_view_totals_text (IvTraceCompareView *self);
/* The timeline of the first (@side 0) or second (1) trace. */
IvTimelineView *iv_trace_compare_view_get_timeline (IvTraceCompareView *self, guint side);
/* The time in each trace the timelines are aligned at: the chosen step's start, or the
 * start of the trace's work. */
gint64 iv_trace_compare_view_get_anchor (IvTraceCompareView *self, guint side);
/* The diverging bars of the largest changes, for Export; NULL when nothing changed. */
const IvFigure *iv_trace_compare_view_get_figure (IvTraceCompareView *self);
/* Shows "changes" or "timelines". */
void iv_trace_compare_view_show_page (IvTraceCompareView *self, const char *name);

/* A window of its own comparing @b against @a, transient for @parent. */
GtkWindow *iv_trace_compare_window_new (GtkWindow *parent, IvDocument *a, IvDocument *b);
/* The compare view of a window iv_trace_compare_window_new made. */
IvTraceCompareView *iv_trace_compare_window_get_view (GtkWindow *window);

G_END_DECLS
