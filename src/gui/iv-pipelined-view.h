/* iv-pipelined-view.h: the pipelined I/O timeline of a loaded trace — a window of
 * candidates chosen with two spin buttons, the GPU runtime breakdown of a candidate
 * (found beside the trace or opened), hover for a bar's times, click for its details,
 * and the I/O each candidate hides behind GPU compute. */
#pragma once

#include <gtk/gtk.h>

#include "iv-render-pipelined.h"

G_BEGIN_DECLS

#define IV_TYPE_PIPELINED_VIEW (iv_pipelined_view_get_type ())
G_DECLARE_FINAL_TYPE (IvPipelinedView, iv_pipelined_view, IV, PIPELINED_VIEW, GtkWidget)

GtkWidget *iv_pipelined_view_new (void);
/* Shows @trace (kept alive by @owner) on its own first window of candidates, offering
 * @breakdowns (IvBreakdownFile*, found in its folder by the document loader; copied, may be
 * NULL). FALSE with @error when it is not pipelined. */
gboolean iv_pipelined_view_set_trace (IvPipelinedView *self, const IvTrace *trace,
                                      const GPtrArray *breakdowns, GObject *owner, GError **error);
/* The window of the reference's rules for start candidate @first_candidate. */
void iv_pipelined_view_set_window (IvPipelinedView *self, gint64 first_candidate);
const IvPipelinePlot *iv_pipelined_view_get_plot (IvPipelinedView *self);
/* Reads @path's breakdown on a worker thread and draws it beside the timeline; on failure
 * keeps what was shown and reports the error in the view. A load still running when
 * another trace is shown is dropped (G_IO_ERROR_CANCELLED). */
void iv_pipelined_view_load_breakdown_async (IvPipelinedView *self, const char *path,
                                             GAsyncReadyCallback callback, gpointer user_data);
gboolean iv_pipelined_view_load_breakdown_finish (IvPipelinedView *self, GAsyncResult *result,
                                                  GError **error);
const IvBreakdown *iv_pipelined_view_get_breakdown (IvPipelinedView *self);
/* Selects bar @index of the plot (G_MAXUINT: none) and describes it. */
void iv_pipelined_view_select (IvPipelinedView *self, guint index);
const char *iv_pipelined_view_get_details (IvPipelinedView *self);
const IvFigure *iv_pipelined_view_get_figure (IvPipelinedView *self);

G_END_DECLS
