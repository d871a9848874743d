/* iv-timeline-view-private.h: what the files of the timeline view share — the widget's
 * instance and the entry points of each concern:
 *   iv-timeline-view.c         the widget, its public API, following the IvTimelineState;
 *   iv-timeline-view-draw.c    the timeline and minimap drawn, the hover tooltip, the
 *                              display toggles;
 *   iv-timeline-view-input.c   pointer, gestures and keys → range, scroll, selection;
 *   iv-timeline-view-search.c  the search entry, its matches and stepping through them.
 * Each concern binds its own template callbacks (_iv_timeline_view_bind_*), so they stay
 * private to its file. */
#pragma once

#include "iv-timeline-view.h"

G_BEGIN_DECLS

#define MIN_SPAN_NS 1000 /* 1 µs across the whole plot is as far as zooming goes */

struct _IvTimelineView
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkWidget *area;
  IvSliceDetails *details;
  GtkSearchEntry *search;
  GtkStack *bottom; /* "details" of the selection, "area" of a Shift+drag range */
  IvTraceArea *area_table;
  GtkWidget *minimap;
  GtkLabel *match_count;
  GtkRevealer *banner; /* a trace not read whole: the loader's first warning */
  GtkLabel *banner_label;
  IvTraceInfoView *info_view;

  IvTimelineState *state;

  gboolean area_drag;
  gint64 area_anchor;
  GByteArray *collapsed; /* per process */
  GArray *density;       /* double per minimap column: rows busy there, cached */
  int density_width;
  GArray *matches; /* gsize, in time order */
  guint match_index;
  GObject *owner;
  IvTimelineFigure fig;
  IvTimelineLayout layout; /* of the last frame, for hit testing */
  IvFigure figure;
  double pointer_x;
  gboolean pointer_inside; /* W/S zoom about the pointer while it is over the area */
  gint64 drag_t0, drag_t1;
  double drag_scroll;
  gboolean dragged;
  /* slices one with the hovered (else the selected) slice: iv_timeline_view_set_link_func */
  IvTimelineLinkFunc link_func;
  gpointer link_data;
  GArray *linked; /* gsize; the figure's linked */
  gsize link_source;
  gsize hovered;
  /* the frame cache (iv-timeline-cache.h), lent to the figure while a frame is drawn; it
   * serves the trace of frame_cache_owner (a weak pointer: reset when that goes) */
  IvTimelineCache *frame_cache;
  GObject *frame_cache_owner;
};

/* iv-timeline-view.c */
void _iv_timeline_view_queue_redraw (IvTimelineView *self);
/* @t0..@t1 moved inside the trace, at least MIN_SPAN_NS and at most the trace long. */
void _iv_timeline_view_clamp_range (IvTimelineView *self, gint64 *t0, gint64 *t1);

/* The linked slices of @slice (G_MAXSIZE: of the selection), redrawn when they change. */
void _iv_timeline_view_update_links (IvTimelineView *self, gsize slice);

/* iv-timeline-view-draw.c */
void _iv_timeline_view_bind_drawing (GtkWidgetClass *widget_class);
/* Sets the draw functions of the template's drawing areas. */
void _iv_timeline_view_init_drawing (IvTimelineView *self);

/* iv-timeline-view-input.c */
void _iv_timeline_view_bind_input (GtkWidgetClass *widget_class);

/* iv-timeline-view-search.c */
void _iv_timeline_view_bind_search (GtkWidgetClass *widget_class);
/* The state's search (a new one, or a new trace): the entry, the matches, their count. */
void _iv_timeline_view_search_changed (IvTimelineView *self);

G_END_DECLS
