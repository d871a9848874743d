/* iv-timeline-view.h: the interactive timeline of a loaded trace — drag to pan,
 * Ctrl+wheel to zoom at the pointer, W/S/A/D, 0 to reset, F to fit the selection; hover
 * for a slice's name and times, click to select it and see its details. */
#pragma once

#include <gtk/gtk.h>

#include "iv-timeline-state.h"
#include "iv-slice-details.h"

#include "iv-render-timeline.h"
#include "iv-trace-area.h"
#include "iv-trace-info-view.h"

G_BEGIN_DECLS

#define IV_TYPE_TIMELINE_VIEW (iv_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (IvTimelineView, iv_timeline_view, IV, TIMELINE_VIEW, GtkWidget)

GtkWidget *iv_timeline_view_new (void);
/* Shows @trace, kept alive by @owner (its document) while shown. */
void iv_timeline_view_set_trace (IvTimelineView *self, const IvTrace *trace, GObject *owner);
void iv_timeline_view_get_range (IvTimelineView *self, gint64 *t0_ns, gint64 *t1_ns);
void iv_timeline_view_set_range (IvTimelineView *self, gint64 t0_ns, gint64 t1_ns);
/* Zooms by @factor (< 1 in, > 1 out) keeping the time at fraction @anchor of the width. */
void iv_timeline_view_zoom (IvTimelineView *self, double factor, double anchor);
/* Pans by @fraction of the visible span (negative: earlier). */
void iv_timeline_view_pan (IvTimelineView *self, double fraction);
gsize iv_timeline_view_get_selected (IvTimelineView *self);
void iv_timeline_view_select (IvTimelineView *self, gsize slice);
/* Steps through the search matches (+1 next, −1 previous): selects and centres one. */
void iv_timeline_view_step_match (IvTimelineView *self, int direction);
/* Selects the range [t0, t1) as Shift+drag does and aggregates it below the timeline. */
void iv_timeline_view_set_area (IvTimelineView *self, gint64 t0_ns, gint64 t1_ns);
IvTraceArea *iv_timeline_view_get_area_table (IvTimelineView *self);
/* Selects @slice and brings it into view if it is not (following a flow does this). */
void iv_timeline_view_follow (IvTimelineView *self, gsize slice);
/* Folds or unfolds process @process (a click on its header does the same). */
void iv_timeline_view_toggle_process (IvTimelineView *self, guint process);
/* Slices that are one with another (a collective instance on every rank of a job): the
 * view outlines them with the slice under the pointer, or with the selection. @func fills
 * @out (gsize slices) for @slice and returns a sentence about them for the tooltip, or
 * NULL. NULL @func: none. */
typedef char *(*IvTimelineLinkFunc) (gsize slice, GArray *out, gpointer data);
void iv_timeline_view_set_link_func (IvTimelineView *self, IvTimelineLinkFunc func, gpointer data);
/* The slices outlined now (gsize), or NULL. */
const GArray *iv_timeline_view_get_linked (IvTimelineView *self);
/* What the pointer over @slice does (G_MAXSIZE: over none), for tests and the keyboard. */
void iv_timeline_view_hover (IvTimelineView *self, gsize slice);
/* Leaves out the processes whose byte in @hidden is non-zero (a job's hidden ranks);
 * NULL: none. The view keeps a reference. */
void iv_timeline_view_set_hidden (IvTimelineView *self, GByteArray *hidden);
/* What the figure's title calls the trace (a job's name; copied); NULL: its file's name. */
void iv_timeline_view_set_name (IvTimelineView *self, const char *name);
/* The visible range as a figure, for Export. */
const IvFigure *iv_timeline_view_get_figure (IvTimelineView *self);

/* The banner over the timeline of a trace not read whole (its text, the loader's first
 * warning as the command line prints it), or NULL when none shows. */
const char *iv_timeline_view_get_banner (IvTimelineView *self);
/* The Trace Info page below the timeline. */
IvTraceInfoView *iv_timeline_view_get_info_view (IvTimelineView *self);
/* The selection's details pane. */
IvSliceDetails *iv_timeline_view_get_details (IvTimelineView *self);
/* The visible range, selection, area and search the view follows. */
IvTimelineState *iv_timeline_view_get_state (IvTimelineView *self);

G_END_DECLS
