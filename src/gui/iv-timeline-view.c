/* iv-timeline-view.c: the timeline of a loaded trace on screen — the widget, its public
 * API and the panes that follow its state. The drawing is in iv-timeline-view-draw.c,
 * pointer and keys in iv-timeline-view-input.c, the search in iv-timeline-view-search.c
 * (iv-timeline-view-private.h says what they share).
 *
 * Where things are: the layout is ui/iv-timeline-view.ui; the range, the selection, the
 * area and the search live in an IvTimelineState (gestures and the search entry write
 * it, the figure, the details and the area table follow its notifications). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-timeline-view-private.h"

#include <string.h>

#include "iv-plain-text.h"
#include "iv-trace-query.h"

G_DEFINE_FINAL_TYPE (IvTimelineView, iv_timeline_view, GTK_TYPE_WIDGET)

void
_iv_timeline_view_queue_redraw (IvTimelineView *self)
{
  gtk_widget_queue_draw (self->area);
  if (self->minimap)
    gtk_widget_queue_draw (self->minimap);
}

void
_iv_timeline_view_clamp_range (IvTimelineView *self, gint64 *t0, gint64 *t1)
{
  const IvTrace *t = self->fig.trace;
  gint64 extent = MAX (MIN_SPAN_NS, t->t1_ns - t->t0_ns), span = *t1 - *t0;

  span = CLAMP (span, MIN_SPAN_NS, extent);
  *t0 = CLAMP (*t0, t->t0_ns, t->t0_ns + extent - span);
  *t1 = *t0 + span;
}

/* ---- following the state ---------------------------------------------------------- */

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
  g_clear_pointer (&self->linked, g_array_unref);
  if (self->fig.hidden)
    g_byte_array_unref ((GByteArray *) self->fig.hidden);
  self->fig.hidden = NULL;
  g_free ((char *) self->fig.name);
  self->fig.name = NULL;
  iv_timeline_layout_clear (&self->layout);
  G_OBJECT_CLASS (iv_timeline_view_parent_class)->dispose (object);
}

static void
on_range_changed (IvTimelineView *self)
{
  iv_timeline_state_get_range (self->state, &self->fig.t0_ns, &self->fig.t1_ns);
  _iv_timeline_view_queue_redraw (self);
}

static void
on_selected_changed (IvTimelineView *self)
{
  guint64 s = iv_timeline_state_get_selected (self->state);

  self->fig.selected = s == IV_TIMELINE_NONE ? G_MAXSIZE : (gsize) s;
  if (s != IV_TIMELINE_NONE)
    gtk_stack_set_visible_child_name (self->bottom, "details");
  update_details (self);
  /* the pointer's links win over the selection's while it is over a slice */
  if (self->hovered == G_MAXSIZE)
    _iv_timeline_view_update_links (self, G_MAXSIZE);
  _iv_timeline_view_queue_redraw (self);
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
  _iv_timeline_view_queue_redraw (self);
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
  _iv_timeline_view_bind_drawing (widget_class);
  _iv_timeline_view_bind_input (widget_class);
  _iv_timeline_view_bind_search (widget_class);
}

static void
iv_timeline_view_init (IvTimelineView *self)
{
  self->fig.selected = G_MAXSIZE;
  self->link_source = self->hovered = G_MAXSIZE;
  self->figure = (IvFigure){ iv_render_timeline, &self->fig, "timeline", G_OBJECT (self) };
  gtk_widget_init_template (GTK_WIDGET (self));
  self->state = iv_timeline_state_new ();
  /* Entry → state on "search-changed" (see the template), which GTK debounces, so a
   * million-slice trace is not searched on every keystroke; state → entry in
   * _iv_timeline_view_search_changed. */
  /* The figure's ends are read together: "end-ns" follows "start-ns" in one thaw. */
  g_signal_connect_swapped (self->state, "notify::end-ns", G_CALLBACK (on_range_changed), self);
  g_signal_connect_swapped (self->state, "notify::start-ns", G_CALLBACK (on_range_changed), self);
  g_signal_connect_swapped (self->state, "notify::selected", G_CALLBACK (on_selected_changed),
                            self);
  g_signal_connect_swapped (self->state, "notify::area-start-ns", G_CALLBACK (on_area_changed),
                            self);
  g_signal_connect_swapped (self->state, "notify::area-end-ns", G_CALLBACK (on_area_changed), self);
  g_signal_connect_swapped (self->state, "notify::search",
                            G_CALLBACK (_iv_timeline_view_search_changed), self);
  _iv_timeline_view_init_drawing (self);
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
  g_clear_pointer (&self->linked, g_array_unref);
  self->fig.linked = NULL;
  self->link_source = self->hovered = G_MAXSIZE;
  self->collapsed = g_byte_array_new ();
  g_byte_array_set_size (self->collapsed, trace ? trace->processes->len : 0);
  memset (self->collapsed->data, 0, self->collapsed->len);
  self->fig.collapsed = self->collapsed;
  iv_trace_area_set_range (self->area_table, NULL, 0, 0);
  _iv_timeline_view_search_changed (self);
  update_details (self);
  _iv_timeline_view_queue_redraw (self);
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
  _iv_timeline_view_clamp_range (self, &t0_ns, &t1_ns);
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
  _iv_timeline_view_queue_redraw (self);
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

void
_iv_timeline_view_update_links (IvTimelineView *self, gsize slice)
{
  const IvTrace *t = self->fig.trace;

  if (slice == G_MAXSIZE)
    slice = self->fig.selected;
  if (!t || slice >= t->n_slices || !self->link_func)
    slice = G_MAXSIZE;
  if (slice == self->link_source)
    return;
  self->link_source = slice;
  if (!self->linked)
    self->linked = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_array_set_size (self->linked, 0);
  if (slice != G_MAXSIZE)
    g_free (self->link_func (slice, self->linked, self->link_data));
  self->fig.linked = self->linked->len ? self->linked : NULL;
  _iv_timeline_view_queue_redraw (self);
}

void
iv_timeline_view_set_link_func (IvTimelineView *self, IvTimelineLinkFunc func, gpointer data)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  self->link_func = func;
  self->link_data = data;
  self->link_source = G_MAXSIZE;
  _iv_timeline_view_update_links (self, self->hovered);
}

const GArray *
iv_timeline_view_get_linked (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->fig.linked;
}

void
iv_timeline_view_hover (IvTimelineView *self, gsize slice)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  self->hovered = slice;
  _iv_timeline_view_update_links (self, slice);
}

void
iv_timeline_view_set_name (IvTimelineView *self, const char *name)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  g_free ((char *) self->fig.name);
  self->fig.name = g_strdup (name);
  _iv_timeline_view_queue_redraw (self);
}

void
iv_timeline_view_set_hidden (IvTimelineView *self, GByteArray *hidden)
{
  g_return_if_fail (IV_IS_TIMELINE_VIEW (self));
  if (hidden)
    g_byte_array_ref (hidden);
  if (self->fig.hidden)
    g_byte_array_unref ((GByteArray *) self->fig.hidden);
  self->fig.hidden = hidden;
  g_clear_pointer (&self->density, g_array_unref);
  _iv_timeline_view_queue_redraw (self);
}

IvSliceDetails *
iv_timeline_view_get_details (IvTimelineView *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_VIEW (self), NULL);
  return self->details;
}
