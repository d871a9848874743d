/* iv-timeline-view-input.c: pointer, gestures and keys on the timeline view, turned into
 * the visible range, the vertical scroll and the selection — drag to pan (Shift: select
 * an area), Ctrl+wheel or pinch to zoom at the pointer, W/S/A/D, 0 to reset, F to fit the
 * selection, a click to select or fold; the minimap centres the window where it is
 * dragged. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-timeline-view-private.h"

#include <math.h>

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, IvTimelineView *self)
{
  self->pointer_x = x;
  self->pointer_inside = TRUE;
  /* a job's collectives: the slice under the pointer shows its kin on every rank */
  if (self->link_func && self->fig.trace && self->layout.row_y)
    iv_timeline_view_hover (self, iv_timeline_slice_at (&self->fig, &self->layout, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion, IvTimelineView *self)
{
  self->pointer_inside = FALSE;
  if (self->link_func)
    iv_timeline_view_hover (self, G_MAXSIZE);
}

/* Where zooming keeps its place: the time under the pointer, as a fraction of the plot's
 * width, or the middle when the pointer is elsewhere (keyboard-only use). */
static double
zoom_anchor (IvTimelineView *self)
{
  if (!self->pointer_inside)
    return 0.5;
  return CLAMP ((self->pointer_x - self->layout.plot_x) / MAX (1, self->layout.plot_w), 0, 1);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, IvTimelineView *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (!self->fig.trace)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    {
      iv_timeline_view_zoom (self, pow (1.2, dy), zoom_anchor (self));
    }
  else if (dx != 0 && dy == 0)
    iv_timeline_view_pan (self, dx * 0.05);
  else
    {
      self->fig.scroll_y = MAX (0, self->fig.scroll_y + dy * 30);
      _iv_timeline_view_queue_redraw (self);
    }
  return TRUE;
}

static gint64
time_at (IvTimelineView *self, double x)
{
  return self->fig.t0_ns
         + (gint64) ((x - self->layout.plot_x) / MAX (1, self->layout.plot_w)
                     * (self->fig.t1_ns - self->fig.t0_ns));
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, IvTimelineView *self)
{
  /* Shift+drag selects a range instead of panning. */
  self->area_drag = (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (drag))
                     & GDK_SHIFT_MASK)
                    != 0;
  self->area_anchor = time_at (self, x);
  self->drag_t0 = self->fig.t0_ns, self->drag_t1 = self->fig.t1_ns;
  self->drag_scroll = self->fig.scroll_y;
  self->dragged = FALSE;
}

static void
on_drag_update (GtkGestureDrag *drag, double ox, double oy, IvTimelineView *self)
{
  gint64 t0, t1;
  double ns_per_px;

  if (!self->fig.trace)
    return;
  self->dragged |= fabs (ox) > 3 || fabs (oy) > 3;
  if (self->area_drag)
    {
      gint64 a = self->area_anchor, b = self->area_anchor
                                        + (gint64) (ox / MAX (1, self->layout.plot_w)
                                                    * (self->fig.t1_ns - self->fig.t0_ns));
      self->fig.area_t0_ns = MIN (a, b), self->fig.area_t1_ns = MAX (a, b);
      _iv_timeline_view_queue_redraw (self);
      return;
    }
  ns_per_px = (double) (self->drag_t1 - self->drag_t0) / MAX (1, self->layout.plot_w);
  t0 = self->drag_t0 - (gint64) (ox * ns_per_px), t1 = self->drag_t1 - (gint64) (ox * ns_per_px);
  _iv_timeline_view_clamp_range (self, &t0, &t1);
  self->fig.scroll_y = MAX (0, self->drag_scroll - oy);
  iv_timeline_state_set_range (self->state, t0, t1);
  _iv_timeline_view_queue_redraw (self);
}

static void
on_drag_end (GtkGestureDrag *drag, double ox, double oy, IvTimelineView *self)
{
  if (self->area_drag && self->dragged)
    iv_timeline_view_set_area (self, self->fig.area_t0_ns, self->fig.area_t1_ns);
  self->area_drag = FALSE;
}

static void
on_click_at (IvTimelineView *self, double x, double y)
{
  guint process;

  if (self->dragged || !self->fig.trace || !self->layout.row_y)
    return;
  /* A click on a process header folds or unfolds it. */
  process = iv_timeline_header_at (&self->layout, y);
  if (process != G_MAXUINT)
    {
      iv_timeline_view_toggle_process (self, process);
      return;
    }
  iv_timeline_view_select (self, iv_timeline_slice_at (&self->fig, &self->layout, x, y));
}

static void
on_click (GtkGestureClick *click, int n, double x, double y, IvTimelineView *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  on_click_at (self, x, y);
}

static gboolean
on_key (GtkEventControllerKey *key, guint keyval, guint code, GdkModifierType state,
        IvTimelineView *self)
{
  if (!self->fig.trace)
    return FALSE;
  if (keyval == GDK_KEY_slash
      || ((state & GDK_CONTROL_MASK) && gdk_keyval_to_lower (keyval) == GDK_KEY_f))
    {
      gtk_widget_grab_focus (GTK_WIDGET (self->search));
      return TRUE;
    }
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  switch (gdk_keyval_to_lower (keyval))
    {
    case GDK_KEY_w:
      iv_timeline_view_zoom (self, 0.8, zoom_anchor (self));
      return TRUE;
    case GDK_KEY_s:
      iv_timeline_view_zoom (self, 1.25, zoom_anchor (self));
      return TRUE;
    case GDK_KEY_a:
      iv_timeline_view_pan (self, -0.2);
      return TRUE;
    case GDK_KEY_d:
      iv_timeline_view_pan (self, 0.2);
      return TRUE;
    case GDK_KEY_0:
      iv_timeline_view_set_range (self, self->fig.trace->t0_ns, self->fig.trace->t1_ns);
      return TRUE;
    case GDK_KEY_f:
      if (self->fig.selected < self->fig.trace->n_slices)
        {
          gint64 s = self->fig.trace->start_ns[self->fig.selected];
          gint64 d = MAX (MIN_SPAN_NS, self->fig.trace->dur_ns[self->fig.selected]);
          iv_timeline_view_set_range (self, s - d / 10, s + d + d / 10);
        }
      return TRUE;
    default:
      return FALSE;
    }
}

/* Pinch: the span shrinks as the fingers spread, about the gesture's centre. */
static void
on_pinch (GtkGestureZoom *gesture, double scale, IvTimelineView *self)
{
  double cx, cy;
  gint64 span = self->drag_t1 - self->drag_t0, new_span;
  double anchor;

  if (!self->fig.trace || scale <= 0
      || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  anchor = CLAMP ((cx - self->layout.plot_x) / MAX (1, self->layout.plot_w), 0, 1);
  new_span = (gint64) MAX (MIN_SPAN_NS, span / scale);
  iv_timeline_view_set_range (
      self, self->drag_t0 + (gint64) (anchor * span) - (gint64) (anchor * new_span),
      self->drag_t0 + (gint64) (anchor * span) - (gint64) (anchor * new_span) + new_span);
}

static void
on_pinch_begin (GtkGesture *gesture, GdkEventSequence *sequence, IvTimelineView *self)
{
  self->drag_t0 = self->fig.t0_ns, self->drag_t1 = self->fig.t1_ns;
}

/* Dragging (or clicking) on the minimap centres the window on that time. */
static void
minimap_center (IvTimelineView *self, double x)
{
  const IvTrace *t = self->fig.trace;
  gint64 span = self->fig.t1_ns - self->fig.t0_ns;
  gint64 at;

  if (!t)
    return;
  at = t->t0_ns
       + (gint64) (x / MAX (1, gtk_widget_get_width (self->minimap)) * (t->t1_ns - t->t0_ns));
  iv_timeline_view_set_range (self, at - span / 2, at - span / 2 + span);
}

static void
on_minimap_drag_begin (GtkGestureDrag *drag, double x, double y, IvTimelineView *self)
{
  minimap_center (self, x);
}

static void
on_minimap_drag_update (GtkGestureDrag *drag, double ox, double oy, IvTimelineView *self)
{
  double sx, sy;
  if (gtk_gesture_drag_get_start_point (drag, &sx, &sy))
    minimap_center (self, sx + ox);
}

/* Following a flow selects the slice at its other end and brings it into view. */
static void
on_follow (IvTimelineView *self, guint64 slice)
{
  iv_timeline_view_follow (self, (gsize) slice);
}

void
_iv_timeline_view_bind_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_key);
  gtk_widget_class_bind_template_callback (widget_class, on_minimap_drag_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_minimap_drag_update);
  gtk_widget_class_bind_template_callback (widget_class, on_scroll);
  gtk_widget_class_bind_template_callback (widget_class, on_motion);
  gtk_widget_class_bind_template_callback (widget_class, on_leave);
  gtk_widget_class_bind_template_callback (widget_class, on_follow);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_update);
  gtk_widget_class_bind_template_callback (widget_class, on_drag_end);
  gtk_widget_class_bind_template_callback (widget_class, on_pinch_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_pinch);
  gtk_widget_class_bind_template_callback (widget_class, on_click);
}
