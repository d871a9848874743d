/* iv-timeline-view-draw.c: the timeline view on screen. The timeline is
 * iv_render_timeline () at the widget's size (what Export draws too), its layout kept for
 * hit testing; the minimap the whole trace's busy rows with the visible window over them;
 * a hover shows the slice under the pointer. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-timeline-view-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-tooltip.h"
#include "iv-trace-query.h"
#include "iv-units.h"

/* The trace's owner went: so did the trace the cache holds the address of. */
static void
on_cache_owner_gone (gpointer data, GObject *gone)
{
  IvTimelineView *self = data;

  iv_timeline_cache_reset (self->frame_cache);
  self->frame_cache_owner = NULL;
}

static void
forget_cache_owner (IvTimelineView *self)
{
  if (self->frame_cache_owner)
    g_object_weak_unref (self->frame_cache_owner, on_cache_owner_gone, self);
  self->frame_cache_owner = NULL;
}

static void
free_frame_cache (gpointer data)
{
  IvTimelineView *self = data;

  forget_cache_owner (self);
  g_clear_pointer (&self->frame_cache, iv_timeline_cache_free);
}

/* The cache serves this frame when it serves the trace shown: the one its owner (the
 * document) holds for as long as it lives. A trace without an owner is drawn without
 * it (nothing says when that trace goes). */
static IvTimelineCache *
frame_cache (IvTimelineView *self)
{
  if (self->owner != self->frame_cache_owner)
    {
      forget_cache_owner (self);
      iv_timeline_cache_reset (self->frame_cache);
      if (self->owner)
        {
          self->frame_cache_owner = self->owner;
          g_object_weak_ref (self->owner, on_cache_owner_gone, self);
        }
    }
  return self->owner ? self->frame_cache : NULL;
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
  /* lent for this frame only: the figure is also what Export draws, elsewhere */
  self->fig.cache = frame_cache (self);
  iv_render_timeline (cr, &self->fig, &options, width, height, NULL);
  self->fig.cache = NULL;
}

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

/* A counter's band: its name, its value under the pointer and its peak (bytes for a
 * memory curve, a count for a queue length). */
static gboolean
counter_tooltip (IvTimelineView *self, int x, int y, GtkTooltip *tooltip)
{
  const IvTrace *t = self->fig.trace;
  double v = 0;
  guint i = iv_timeline_counter_at (&self->fig, &self->layout, x, y, &v);
  const IvCounterSeries *se;
  const char *name;
  gboolean bytes;
  g_autofree char *value = NULL, *peak = NULL, *text = NULL;

  if (i == G_MAXUINT)
    return FALSE;
  se = &g_array_index (t->series, IvCounterSeries, i);
  name = iv_trace_string (t, se->name);
  bytes = g_str_has_prefix (name, "memory · ");
  value = bytes ? iv_units_format_bytes (v) : iv_units_format_si (v, NULL);
  peak = bytes ? iv_units_format_bytes (se->max) : iv_units_format_si (se->max, NULL);
  text = g_strdup_printf (_ ("%s\n%s here · peak %s"), name, value, peak);
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
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
    return counter_tooltip (self, x, y, tooltip);
  start = iv_units_format_seconds ((t->start_ns[s] - t->t0_ns) * 1e-9);
  dur = iv_units_format_seconds (t->dur_ns[s] * 1e-9);
  self_time = iv_units_format_seconds (t->self_ns[s] * 1e-9);
  text = g_strdup_printf (
      _ ("%s\n%s\nstart %s · duration %s · self %s"), iv_trace_string (t, t->name[s]),
      iv_trace_string (t, t->cat[s]) ? iv_trace_string (t, t->cat[s]) : "", start, dur, self_time);
  /* a job's collective: which instance, who arrived last, how long this rank waited */
  if (self->link_func)
    {
      g_autoptr (GArray) kin = g_array_new (FALSE, FALSE, sizeof (gsize));
      g_autofree char *note = self->link_func (s, kin, self->link_data);
      if (note)
        {
          char *longer = g_strdup_printf ("%s\n%s", text, note);
          g_free (text);
          text = longer;
        }
    }
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_all_flows (GtkCheckButton *button, IvTimelineView *self)
{
  self->fig.all_flows = gtk_check_button_get_active (button);
  _iv_timeline_view_queue_redraw (self);
}

static void
on_color_by (GtkCheckButton *button, IvTimelineView *self)
{
  self->fig.color_by_category = gtk_check_button_get_active (button);
  _iv_timeline_view_queue_redraw (self);
}

void
_iv_timeline_view_bind_drawing (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip);
  gtk_widget_class_bind_template_callback (widget_class, on_color_by);
  gtk_widget_class_bind_template_callback (widget_class, on_all_flows);
}

void
_iv_timeline_view_init_drawing (IvTimelineView *self)
{
  self->frame_cache = iv_timeline_cache_new ();
  /* freed with the view (its dispose is iv-timeline-view.c's) */
  g_object_set_data_full (G_OBJECT (self), "iv-frame-cache", self, free_frame_cache);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->minimap), draw_minimap, self, NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
}
