/* iv-timeline-state.h: what a trace timeline shows, as one object with properties — the
 * visible range, the selected slice, the area selected for aggregation and the search
 * text. The timeline, its details and its area table all follow it; gestures and the
 * search entry write to it. GLib only. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define IV_TYPE_TIMELINE_STATE (iv_timeline_state_get_type ())
G_DECLARE_FINAL_TYPE (IvTimelineState, iv_timeline_state, IV, TIMELINE_STATE, GObject)

/* No slice selected. */
#define IV_TIMELINE_NONE G_MAXUINT64

/* Properties: "start-ns", "end-ns" (the visible range), "selected" (a slice index or
 * IV_TIMELINE_NONE), "area-start-ns", "area-end-ns" (none when end ≤ start), "search"
 * (never NULL: "" when there is none).
 * Each notifies only on change; setting a range or an area notifies both its ends
 * together, after both are set. */
IvTimelineState *iv_timeline_state_new (void);
void iv_timeline_state_set_range (IvTimelineState *self, gint64 start_ns, gint64 end_ns);
void iv_timeline_state_get_range (IvTimelineState *self, gint64 *start_ns, gint64 *end_ns);
void iv_timeline_state_set_area (IvTimelineState *self, gint64 start_ns, gint64 end_ns);
void iv_timeline_state_get_area (IvTimelineState *self, gint64 *start_ns, gint64 *end_ns);
guint64 iv_timeline_state_get_selected (IvTimelineState *self);
const char *iv_timeline_state_get_search (IvTimelineState *self);

G_END_DECLS
