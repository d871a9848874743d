/* iv-timeline-view.c: the timeline on screen. Drawing is iv_render_timeline () at the
 * widget's size (what Export draws too); this file turns pointer and keys into the
 * visible range, the vertical scroll and the selection.
 *
 * Where things are: the layout is ui/iv-timeline-view.ui; the range, the selection, the
 * area and the search live in an IvTimelineState (gestures and the search entry write
 * it, the figure, the details and the area table follow its notifications). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-timeline-view.h"
#include "iv-tooltip.h"

#include "iv-slice-details.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-timeline-state.h"
#include "iv-plain-text.h"
#include "iv-trace-area.h"
#include "iv-trace-info-view.h"
#include "iv-trace-query.h"
#include "iv-units.h"

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
};

G_DEFINE_FINAL_TYPE (IvTimelineView, iv_timeline_view, GTK_TYPE_WIDGET)

static void
queue_redraw (IvTimelineView *self)
{
  gtk_widget_queue_draw (self->area);
  if (self->minimap)
    gtk_widget_queue_draw (self->minimap);
}

static void
clamp_range (IvTimelineView *self, gint64 *t0, gint64 *t1)
{
  const IvTrace *t = self->fig.trace;
  gint64 extent = MAX (MIN_SPAN_NS, t->t1_ns - t->t0_ns), span = *t1 - *t0;

  span = CLAMP (span, MIN_SPAN_NS, extent);
  *t0 = CLAMP (*t0, t->t0_ns, t->t0_ns + extent - span);
  *t1 = *t0 + span;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  IvTimelineView *self = data;
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };

  if (!self->fig.trace)
    return;
  iv_timeline_layout (&self->fig, width, height, &self->layout);
  iv_render_timeline (cr, &self->fig, &options, width, height, NULL);
}

/* ---- minimap ----------------------------------------------------------------------- */

/* How many rows are busy in each column of the whole trace at @width: computed once per
 * width from the level of detail, so the minimap costs nothing per frame. */
static void
ensure_density (IvTimelineView *self, int width)
{
  const IvTrace *t = self->fig.trace;
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));

  if (self->density && self->density_width == width)
    return;
  if (!self->density)
    self->density = g_array_new (FALSE, TRUE, sizeof (double));
  g_array_set_size (self->density, 0);
  g_array_set_size (self->density, MAX (width, 1));
  self->density_width = width;
  for (guint r = 0; r < t->rows->len; r++)
    {
      g_array_set_size (items, 0);
      iv_trace_lod_row (t, r, t->t0_ns, t->t1_ns, width, items);
      for (guint i = 0; i < items->len; i++)
        {
          const IvLodItem *it = &g_array_index (items, IvLodItem, i);
          int c0
              = (int) ((double) (it->start_ns - t->t0_ns) / MAX (1, t->t1_ns - t->t0_ns) * width);
          int c1 = (int) ((double) (it->end_ns - t->t0_ns) / MAX (1, t->t1_ns - t->t0_ns) * width);
          for (int c = MAX (0, c0); c <= MIN (width - 1, c1); c++)
            g_array_index (self->density, double, c) += 1;
        }
    }
}

static void
draw_minimap (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  IvTimelineView *self = data;
  const IvTrace *t = self->fig.trace;
  const IvThemeColors *colors = iv_theme_get_colors (
      adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                    : IV_THEME_LIGHT);
  double peak = 0, x0, x1, extent;

  if (!t)
    return;
  ensure_density (self, width);
  for (int c = 0; c < width; c++)
    peak = MAX (peak, g_array_index (self->density, double, c));
  iv_color_set_source (cr, &colors->foreground_dim);
  for (int c = 0; c < width && peak > 0; c++)
    {
      double h = (height - 4) * g_array_index (self->density, double, c) / peak;
      cairo_rectangle (cr, c, height - 2 - h, 1, h);
    }
  cairo_fill (cr);
  /* The visible window: what lies outside it dimmed, its edges in the accent colour. */
  extent = MAX (1, t->t1_ns - t->t0_ns);
  x0 = (double) (self->fig.t0_ns - t->t0_ns) / extent * width;
  x1 = (double) (self->fig.t1_ns - t->t0_ns) / extent * width;
  {
    IvColor dim = colors->background;
    dim.a = 0.6;
    iv_color_set_source (cr, &dim);
    cairo_rectangle (cr, 0, 0, x0, height);
    cairo_rectangle (cr, x1, 0, width - x1, height);
    cairo_fill (cr);
  }
  iv_color_set_source (cr, &colors->accent);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x0 + 1, 1, MAX (2, x1 - x0 - 2), height - 2);
  cairo_stroke (cr);
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

/* The pane under the timeline shows what there is to show — the selection's details, the
 * area's table — and folds away when there is neither, leaving the timeline the room. */
static void
update_bottom (IvTimelineView *self)
{
  gboolean selection = self->fig.trace && self->fig.selected < self->fig.trace->n_slices;
  gboolean area = self->fig.area_t1_ns > self->fig.area_t0_ns;

  gtk_widget_set_visible (GTK_WIDGET (self->bottom), selection || area);
}

static void
update_details (IvTimelineView *self)
{
  iv_slice_details_set (self->details, self->fig.trace, self->fig.selected);
  update_bottom (self);
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
               gpointer data)
{
  IvTimelineView *self = data;
  const IvTrace *t = self->fig.trace;
  gsize s;
  g_autofree char *start = NULL, *dur = NULL, *self_time = NULL, *text = NULL;

  if (!t || !self->layout.row_y)
    return FALSE;
  s = iv_timeline_slice_at (&self->fig, &self->layout, x, y);
  if (s == G_MAXSIZE)
    return FALSE;
  start = iv_units_format_seconds ((t->start_ns[s] - t->t0_ns) * 1e-9);
  dur = iv_units_format_seconds (t->dur_ns[s] * 1e-9);
  self_time = iv_units_format_seconds (t->self_ns[s] * 1e-9);
  text = g_strdup_printf (
      _ ("%s\n%s\nstart %s · duration %s · self %s"), iv_trace_string (t, t->name[s]),
      iv_trace_string (t, t->cat[s]) ? iv_trace_string (t, t->cat[s]) : "", start, dur, self_time);
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, IvTimelineView *self)
{
  self->pointer_x = x;
  self->pointer_inside = TRUE;
}

static void
on_leave (GtkEventControllerMotion *motion, IvTimelineView *self)
{
  self->pointer_inside = FALSE;
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
      queue_redraw (self);
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
      queue_redraw (self);
      return;
    }
  ns_per_px = (double) (self->drag_t1 - self->drag_t0) / MAX (1, self->layout.plot_w);
  t0 = self->drag_t0 - (gint64) (ox * ns_per_px), t1 = self->drag_t1 - (gint64) (ox * ns_per_px);
  clamp_range (self, &t0, &t1);
  self->fig.scroll_y = MAX (0, self->drag_scroll - oy);
  iv_timeline_state_set_range (self->state, t0, t1);
  queue_redraw (self);
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

/* ---- search ----------------------------------------------------------------------- */

static void
on_search_changed (IvTimelineView *self)
{
  const char *text = iv_timeline_state_get_search (self->state);
  g_autofree char *count = NULL;

  /* State → entry by hand rather than by a binding: GtkText replaces its text by a
   * deletion then an insertion, and the deletion alone would come back as an empty
   * search ("search-changed" is immediate for empty text). */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search), text);

  g_clear_pointer (&self->matches, g_array_unref);
  self->fig.matches = NULL;
  self->match_index = G_MAXUINT;
  if (self->fig.trace && text && *text)
    {
      self->matches = iv_trace_search (self->fig.trace, text);
      self->fig.matches = self->matches;
      count = g_strdup_printf (g_dngettext (NULL, "%u match", "%u matches", self->matches->len),
                               self->matches->len);
    }
  gtk_label_set_text (self->match_count, count ? count : "");
  queue_redraw (self);
}

/* Enter: the next match after the current one (or after the view's start), selected and
 * centred; Shift+Enter: the previous one. */
void
iv_timeline_view_step_match (IvTimelineView *self, int direction)
{
  const IvTrace *t = self->fig.trace;
  guint n;
  gsize s;
  gint64 span;

  if (!t || !self->matches || self->matches->len == 0)
    return;
  n = self->matches->len;
  if (self->match_index == G_MAXUINT)
    {
      /* The first match at or after the view's start, or the last before it. */
      guint i = 0;
      while (i < n && t->start_ns[g_array_index (self->matches, gsize, i)] < self->fig.t0_ns)
        i++;
      self->match_index = direction > 0 ? (i < n ? i : 0) : (i > 0 ? i - 1 : n - 1);
    }
  else
    self->match_index = (self->match_index + n + (direction > 0 ? 1 : n - 1)) % n;
  s = g_array_index (self->matches, gsize, self->match_index);
  iv_timeline_view_select (self, s);
  span = self->fig.t1_ns - self->fig.t0_ns;
  iv_timeline_view_set_range (self, t->start_ns[s] + t->dur_ns[s] / 2 - span / 2,
                              t->start_ns[s] + t->dur_ns[s] / 2 + span / 2);
  {
    g_autofree char *count = g_strdup_printf (_ ("%u of %u"), self->match_index + 1, n);
    gtk_label_set_text (self->match_count, count);
  }
}

static void
on_search_activate (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, 1);
}

static void
on_search_previous (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, -1);
}

static void
on_search_next (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, 1);
}

static void
on_all_flows (GtkCheckButton *button, IvTimelineView *self)
{
  self->fig.all_flows = gtk_check_button_get_active (button);
  queue_redraw (self);
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

static void
on_color_by (GtkCheckButton *button, IvTimelineView *self)
{
  self->fig.color_by_category = gtk_check_button_get_active (button);
  queue_redraw (self);
}

static gboolean
on_search_key (GtkEventControllerKey *key, guint keyval, guint code, GdkModifierType state,
               IvTimelineView *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      iv_timeline_view_step_match (self, -1);
      return TRUE;
    }
  return FALSE;
}

static void
iv_timeline_view_dispose (GObject *object)
{
  IvTimelineView *self = IV_TIMELINE_VIEW (object);

  g_clear_object (&self->state);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_TIMELINE_VIEW);
  g_clear_object (&self->owner);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->collapsed, g_byte_array_unref);
  g_clear_pointer (&self->density, g_array_unref);
  iv_timeline_layout_clear (&self->layout);
  G_OBJECT_CLASS (iv_timeline_view_parent_class)->dispose (object);
}

static void
on_search_entry_changed (IvTimelineView *self)
{
  g_object_set (self->state, "search", gtk_editable_get_text (GTK_EDITABLE (self->search)), NULL);
}

/* ---- following the state ---------------------------------------------------------- */

static void
on_range_changed (IvTimelineView *self)
{
  iv_timeline_state_get_range (self->state, &self->fig.t0_ns, &self->fig.t1_ns);
  queue_redraw (self);
}

static void
on_selected_changed (IvTimelineView *self)
{
  guint64 s = iv_timeline_state_get_selected (self->state);

  self->fig.selected = s == IV_TIMELINE_NONE ? G_MAXSIZE : (gsize) s;
  if (s != IV_TIMELINE_NONE)
    gtk_stack_set_visible_child_name (self->bottom, "details");
  update_details (self);
  queue_redraw (self);
}

static void
on_area_changed (IvTimelineView *self)
{
  gint64 t0, t1;

  iv_timeline_state_get_area (self->state, &t0, &t1);
  self->fig.area_t0_ns = t0, self->fig.area_t1_ns = t1;
  iv_trace_area_set_range (self->area_table, self->fig.trace, t0, t1);
  if (t1 > t0)
    gtk_stack_set_visible_child_name (self->bottom, "area");
  update_bottom (self);
  queue_redraw (self);
}

/* The banner's button: the Trace Info page, with every warning whole. */
static void
on_banner_info (IvTimelineView *self)
{
  gtk_stack_set_visible_child_name (self->bottom, "info");
}

static void
iv_timeline_view_class_init (IvTimelineViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_timeline_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (IV_TYPE_SLICE_DETAILS);

  g_type_ensure (IV_TYPE_TRACE_AREA);
  g_type_ensure (IV_TYPE_TRACE_INFO_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, box);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, area);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, details);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, search);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, bottom);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, area_table);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, minimap);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, match_count);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, banner);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, banner_label);
  gtk_widget_class_bind_template_child (widget_class, IvTimelineView, info_view);
  gtk_widget_class_bind_template_callback (widget_class, on_banner_info);
  gtk_widget_class_bind_template_callback (widget_class, on_key);
  gtk_widget_class_bind_template_callback (widget_class, on_search_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_key);
  gtk_widget_class_bind_template_callback (widget_class, on_color_by);
  gtk_widget_class_bind_template_callback (widget_class, on_all_flows);
  gtk_widget_class_bind_template_callback (widget_class, on_minimap_drag_begin);
  gtk_widget_class_bind_template_callback (widget_class, on_minimap_drag_update);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip);
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

static void
iv_timeline_view_init (IvTimelineView *self)
{
  self->fig.selected = G_MAXSIZE;
  self->figure = (IvFigure){ iv_render_timeline, &self->fig, "timeline", G_OBJECT (self) };
  gtk_widget_init_template (GTK_WIDGET (self));
  self->state = iv_timeline_state_new ();
  /* Entry → state on "search-changed" (see the template), which GTK debounces, so a
   * million-slice trace is not searched on every keystroke; state → entry in
   * on_search_changed. */
  /* The figure's ends are read together: "end-ns" follows "start-ns" in one thaw. */
  g_signal_connect_swapped (self->state, "notify::end-ns", G_CALLBACK (on_range_changed), self);
  g_signal_connect_swapped (self->state, "notify::start-ns", G_CALLBACK (on_range_changed), self);
  g_signal_connect_swapped (self->state, "notify::selected", G_CALLBACK (on_selected_changed),
                            self);
  g_signal_connect_swapped (self->state, "notify::area-start-ns", G_CALLBACK (on_area_changed),
                            self);
  g_signal_connect_swapped (self->state, "notify::area-end-ns", G_CALLBACK (on_area_changed), self);
  g_signal_connect_swapped (self->state, "notify::search", G_CALLBACK (on_search_changed), self);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->minimap), draw_minimap, self, NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
  update_details (self);
}

GtkWidget *
iv_timeline_view_new (void)
{
  return g_object_new (IV_TYPE_TIMELINE_VIEW, NULL);
}

void
iv_timeline_view_set_trace (IvTimelineView *self, const IvTrace *trace, GObject *owner)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  g_set_object (&self->owner, owner);
  self->fig.trace = trace;
  self->fig.scroll_y = 0;
  g_object_set (self->state, "selected", IV_TIMELINE_NONE, NULL);
  {
    /* the range of the work, as a figure's default (0 shows the whole trace) */
    gint64 t0 = 0, t1 = 0;
    if (trace)
      iv_trace_activity_range (trace, &t0, &t1);
    iv_timeline_state_set_range (self->state, t0, t1);
  }
  /* Not read whole: said over the timeline in the loader's words, the first warning
   * (iv-trace-chrome.c puts it first), as the command line prints it. */
  iv_label_set_valid_text (self->banner_label, trace && trace->truncated && trace->warnings->len
                                                   ? trace->warnings->pdata[0]
                                                   : "");
  gtk_revealer_set_reveal_child (self->banner, trace && trace->truncated);
  iv_trace_info_view_set_trace (self->info_view, trace);
  iv_timeline_state_set_area (self->state, 0, 0);
  g_clear_pointer (&self->collapsed, g_byte_array_unref);
  g_clear_pointer (&self->density, g_array_unref);
  self->collapsed = g_byte_array_new ();
  g_byte_array_set_size (self->collapsed, trace ? trace->processes->len : 0);
  memset (self->collapsed->data, 0, self->collapsed->len);
  self->fig.collapsed = self->collapsed;
  iv_trace_area_set_range (self->area_table, NULL, 0, 0);
  on_search_changed (self);
  update_details (self);
  queue_redraw (self);
}

void
iv_timeline_view_get_range (IvTimelineView *self, gint64 *t0_ns, gint64 *t1_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  iv_timeline_state_get_range (self->state, t0_ns, t1_ns);
}

void
iv_timeline_view_set_range (IvTimelineView *self, gint64 t0_ns, gint64 t1_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  if (!self->fig.trace)
    return;
  clamp_range (self, &t0_ns, &t1_ns);
  iv_timeline_state_set_range (self->state, t0_ns, t1_ns);
}

void
iv_timeline_view_zoom (IvTimelineView *self, double factor, double anchor)
{
  gint64 span = self->fig.t1_ns - self->fig.t0_ns, new_span;
  gint64 at = self->fig.t0_ns + (gint64) (anchor * span);

  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  new_span = (gint64) MAX (MIN_SPAN_NS, span * factor);
  iv_timeline_view_set_range (self, at - (gint64) (anchor * new_span),
                              at - (gint64) (anchor * new_span) + new_span);
}

void
iv_timeline_view_pan (IvTimelineView *self, double fraction)
{
  gint64 shift = (gint64) ((self->fig.t1_ns - self->fig.t0_ns) * fraction);

  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  iv_timeline_view_set_range (self, self->fig.t0_ns + shift, self->fig.t1_ns + shift);
}

gsize
iv_timeline_view_get_selected (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), G_MAXSIZE);
  return self->fig.selected;
}

void
iv_timeline_view_select (IvTimelineView *self, gsize slice)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  g_object_set (
      self->state, "selected",
      (guint64) (self->fig.trace && slice < self->fig.trace->n_slices ? slice : IV_TIMELINE_NONE),
      NULL);
}

const IvFigure *
iv_timeline_view_get_figure (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->fig.trace ? &self->figure : NULL;
}

void
iv_timeline_view_set_area (IvTimelineView *self, gint64 t0_ns, gint64 t1_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  iv_timeline_state_set_area (self->state, t0_ns, t1_ns);
}

IvTimelineState *
iv_timeline_view_get_state (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->state;
}

IvTraceArea *
iv_timeline_view_get_area_table (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->area_table;
}

void
iv_timeline_view_toggle_process (IvTimelineView *self, guint process)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  if (!self->collapsed || process >= self->collapsed->len)
    return;
  self->collapsed->data[process] = !self->collapsed->data[process];
  queue_redraw (self);
}

void
iv_timeline_view_follow (IvTimelineView *self, gsize slice)
{
  const IvTrace *t;
  gint64 span;

  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  t = self->fig.trace;
  if (!t || slice >= t->n_slices)
    return;
  span = self->fig.t1_ns - self->fig.t0_ns;
  iv_timeline_view_select (self, slice);
  if (t->start_ns[slice] + t->dur_ns[slice] < self->fig.t0_ns
      || t->start_ns[slice] > self->fig.t1_ns)
    iv_timeline_view_set_range (self, t->start_ns[slice] + t->dur_ns[slice] / 2 - span / 2,
                                t->start_ns[slice] + t->dur_ns[slice] / 2 - span / 2 + span);
}

const char *
iv_timeline_view_get_banner (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return gtk_revealer_get_reveal_child (self->banner) ? gtk_label_get_text (self->banner_label)
                                                      : NULL;
}

IvTraceInfoView *
iv_timeline_view_get_info_view (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->info_view;
}

IvSliceDetails *
iv_timeline_view_get_details (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->details;
}
