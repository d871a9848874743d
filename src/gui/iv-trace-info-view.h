/* iv-trace-info-view.h: what a trace file says about itself and how it was read — the
 * import (read whole or not, every warning in full, the spans that did not end), Kineto's
 * distributedInfo (rank, world size, backend, process groups) and deviceProperties, the
 * top-level "metadata" object and the file's other top-level values. The Traces
 * workspace shows it as the timeline's "Trace Info" page; trace --stats prints the same. */
#pragma once

#include <gtk/gtk.h>

#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_TYPE_TRACE_INFO_VIEW (iv_trace_info_view_get_type ())
G_DECLARE_FINAL_TYPE (IvTraceInfoView, iv_trace_info_view, IV, TRACE_INFO_VIEW, GtkWidget)

GtkWidget *iv_trace_info_view_new (void);
/* Shows @trace (NULL: nothing). The trace must outlive the view's use of it. */
void iv_trace_info_view_set_trace (IvTraceInfoView *self, const IvTrace *trace);
/* What is shown, as text (tests, copying): a heading line per section, then one
 * "name: value" line per row. */
char *iv_trace_info_view_to_text (IvTraceInfoView *self);

G_END_DECLS
