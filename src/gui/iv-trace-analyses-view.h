/* iv-trace-analyses-view.h: every analysis of a trace's report on one page — the GPU
 * streams' busy and idle time (idle split into host wait, kernel wait and other, as HTA),
 * the ProfilerSteps with the GPU's time in each, HTA's kernel launch statistics with the
 * longest launch delays, the queue length per stream, the memory copies by direction with
 * their GB/s, and the memory curves' peaks — as `trace --stats` prints them, computed on a
 * worker thread once the page is shown. A step filter scopes the page (and the timeline it drives)
 * to one ProfilerStep. The Traces workspace shows it as its "Analyses" page. */
#pragma once

#include <gtk/gtk.h>

#include "iv-render.h"
#include "iv-timeline-view.h"
#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_TYPE_TRACE_ANALYSES_VIEW (iv_trace_analyses_view_get_type ())
G_DECLARE_FINAL_TYPE (IvTraceAnalysesView, iv_trace_analyses_view, IV, TRACE_ANALYSES_VIEW,
                      GtkWidget)

GtkWidget *iv_trace_analyses_view_new (void);
/* Shows the analyses of @trace (NULL: nothing), kept alive by @owner (its document) while
 * they are computed and shown; the whole trace until a step is chosen. */
void iv_trace_analyses_view_set_trace (IvTraceAnalysesView *self, const IvTrace *trace,
                                       GObject *owner);
/* The timeline a chosen step also scopes (its visible range), or NULL. Not a reference:
 * the two live in the same workspace. */
void iv_trace_analyses_view_set_timeline (IvTraceAnalysesView *self, IvTimelineView *timeline);
/* Scopes the page to ProfilerStep#@step (-1: the whole trace); FALSE when the trace has
 * no such step. */
gboolean iv_trace_analyses_view_set_step (IvTraceAnalysesView *self, gint64 step);
gint64 iv_trace_analyses_view_get_step (IvTraceAnalysesView *self);
/* Whether the worker is still computing what the page will show. */
gboolean iv_trace_analyses_view_is_busy (IvTraceAnalysesView *self);
/* What is shown, as text (tests, copying): a heading line per section, then one line per
 * row, its cells separated by " | ". */
char *iv_trace_analyses_view_to_text (IvTraceAnalysesView *self);
/* The per-step breakdown as a figure for Export, or the streams' idle breakdown when the
 * trace has no steps; NULL while computing or when there is neither. */
const IvFigure *iv_trace_analyses_view_get_figure (IvTraceAnalysesView *self);

G_END_DECLS
