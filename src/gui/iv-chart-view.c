/* iv-chart-view.c: the chart is drawn once into an image at the widget's size and
 * scale (the expensive base layer, reusing the fast raster paths of the renderer) and
 * kept until the data, the view range, the size or the style change; the hover marker
 * and its card of values are drawn over it each frame — inside the widget, where a
 * toolkit tooltip could hang off the window's edge. Zoom and pan set fixed axis ranges
 * on the chart itself, so Export draws exactly what is on screen. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-chart-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-chart-private.h"
#include "iv-chart-view-hover.h"
#include "iv-export-dialog.h"
#include "iv-safe-text.h"

#define HOVER_RADIUS 12.0

enum
{
  POINT_ACTIVATED,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

enum
{
  PROP_0,
  PROP_LOG_X,
  PROP_LOG_Y,
  PROP_CHART,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

struct _IvChartView
{
  GtkWidget parent_instance;

  IvChart *chart;
  IvFigure figure;
  char *figure_name;
  cairo_surface_t *cache; /* the chart at the current size, NULL when stale */
  IvChartHover hover;     /* the pointer, the point under it and its card */
  double drag_lo[IV_N_AXES], drag_hi[IV_N_AXES];
  IvChartViewAxes drag_axes;
  GtkWidget *menu;
  /* What is drawn: log-x / log-y hold for every chart shown until turned off, and a
   * chart built with a log axis turns its property on, so a toggle bound to them and the
   * menu's check marks always say what the axes are. */
  gboolean log_x, log_y;
};

G_DEFINE_FINAL_TYPE (IvChartView, iv_chart_view, GTK_TYPE_WIDGET)

static IvTheme
current_theme (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                       : IV_THEME_LIGHT;
}

static void
invalidate (IvChartView *self)
{
  /* the hovered point moved or went: the next motion finds it again */
  self->hover.has_hit = FALSE;
  g_clear_pointer (&self->hover.card_text, g_free);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ensure_cache (IvChartView *self, int width, int height)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  IvRenderOptions options = { current_theme (), 1.0 };
  cairo_t *cr;

  if (self->cache && cairo_image_surface_get_width (self->cache) == width * scale
      && cairo_image_surface_get_height (self->cache) == height * scale)
    return;
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cr = cairo_create (self->cache);
  cairo_scale (cr, scale, scale);
  if (self->chart)
    iv_chart_render (cr, self->chart, &options, width, height, NULL);
  cairo_destroy (cr);
  cairo_surface_set_device_scale (self->cache, scale, scale);
}

gboolean
iv_chart_view_get_card (IvChartView *self, graphene_rect_t *box)
{
  g_autoptr (PangoLayout) layout = NULL;

  g_return_val_if_fail (IV_IS_CHART_VIEW (self), FALSE);
  layout = self->hover.has_hit ? iv_chart_hover_card (&self->hover, GTK_WIDGET (self), box) : NULL;
  return layout != NULL;
}

static void
iv_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  IvChartView *self = IV_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (!self->chart || width <= 0 || height <= 0)
    return;
  ensure_cache (self, width, height);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_paint (cr);
  iv_chart_hover_draw (&self->hover, GTK_WIDGET (self), self->chart, current_theme (), cr);
  cairo_destroy (cr);
}

static void
iv_chart_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  IvChartView *self = IV_CHART_VIEW (widget);

  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
  if (self->cache
      && (cairo_image_surface_get_width (self->cache)
              != width * gtk_widget_get_scale_factor (widget)
          || cairo_image_surface_get_height (self->cache)
                 != height * gtk_widget_get_scale_factor (widget)))
    g_clear_pointer (&self->cache, cairo_surface_destroy);
}

/* Which axes a pointer position addresses: over an axis' labels, that axis alone. */
static IvChartViewAxes
axes_at (IvChartView *self, double x, double y)
{
  const IvChartLayout *L = iv_chart_get_layout (self->chart);

  if (!L->valid)
    return 0;
  if (x >= L->plot_x && x <= L->plot_x + L->plot_w && y > L->plot_y + L->plot_h)
    return IV_CHART_VIEW_AXIS_X;
  if (y >= L->plot_y && y <= L->plot_y + L->plot_h && x < L->plot_x)
    return IV_CHART_VIEW_AXIS_Y;
  if (x >= L->plot_x && x <= L->plot_x + L->plot_w && y >= L->plot_y && y <= L->plot_y + L->plot_h)
    return IV_CHART_VIEW_AXIS_BOTH;
  return 0;
}

/* The range an axis shows now: the one set by zooming, else the last drawing's. */
static void
current_range (IvChartView *self, IvAxisId axis, double *lo, double *hi)
{
  const IvChartLayout *L = iv_chart_get_layout (self->chart);
  const IvAxis *ax = &self->chart->axis[axis];

  *lo = ax->fixed ? ax->lo : L->lo[axis];
  *hi = ax->fixed ? ax->hi : L->hi[axis];
}

/* Shows the part [t0, t1] of a range, in its normalised (linear or log) coordinates. */
static void
set_axis_normalized (IvChartView *self, IvAxisId axis, double from_lo, double from_hi, double t0,
                     double t1)
{
  IvScaleKind kind = iv_chart_get_layout (self->chart)->kind[axis];
  double lo = iv_scale_denormalize (kind, from_lo, from_hi, t0);
  double hi = iv_scale_denormalize (kind, from_lo, from_hi, t1);

  if (!(isfinite (lo) && isfinite (hi) && hi > lo))
    return;
  /* Not closer than a trillionth of the values: floating point runs out beyond. */
  if ((hi - lo) < 1e-12 * MAX (fabs (lo), fabs (hi)))
    return;
  iv_chart_axis_set_range (self->chart, axis, lo, hi);
}

static void
zoom_axis (IvChartView *self, IvAxisId axis, double t, double factor)
{
  double lo, hi;

  current_range (self, axis, &lo, &hi);
  set_axis_normalized (self, axis, lo, hi, t - t * factor, t + (1 - t) * factor);
}

void
iv_chart_view_zoom_at (IvChartView *self, double x, double y, double factor, IvChartViewAxes axes)
{
  const IvChartLayout *L;

  g_return_if_fail (IV_IS_CHART_VIEW (self));
  if (!self->chart || !(factor > 0))
    return;
  L = iv_chart_get_layout (self->chart);
  if (!L->valid)
    return;
  if (axes & IV_CHART_VIEW_AXIS_X)
    zoom_axis (self, IV_AXIS_X, (x - L->plot_x) / L->plot_w, factor);
  if (axes & IV_CHART_VIEW_AXIS_Y)
    {
      double t = (L->plot_y + L->plot_h - y) / L->plot_h;
      zoom_axis (self, IV_AXIS_Y, t, factor);
      if (L->has_y2)
        zoom_axis (self, IV_AXIS_Y2, t, factor);
    }
  invalidate (self);
}

/* Pans by pixels from given ranges (the ones at the start of a drag). */
static void
pan_from (IvChartView *self, const double *lo, const double *hi, double dx, double dy,
          IvChartViewAxes axes)
{
  const IvChartLayout *L = iv_chart_get_layout (self->chart);

  if (axes & IV_CHART_VIEW_AXIS_X)
    set_axis_normalized (self, IV_AXIS_X, lo[IV_AXIS_X], hi[IV_AXIS_X], -dx / L->plot_w,
                         1 - dx / L->plot_w);
  if (axes & IV_CHART_VIEW_AXIS_Y)
    for (IvAxisId a = IV_AXIS_Y; a <= IV_AXIS_Y2; a++)
      if (a == IV_AXIS_Y || L->has_y2)
        set_axis_normalized (self, a, lo[a], hi[a], dy / L->plot_h, 1 + dy / L->plot_h);
  invalidate (self);
}

void
iv_chart_view_pan_by (IvChartView *self, double dx, double dy, IvChartViewAxes axes)
{
  double lo[IV_N_AXES], hi[IV_N_AXES];

  g_return_if_fail (IV_IS_CHART_VIEW (self));
  if (!self->chart || !iv_chart_get_layout (self->chart)->valid)
    return;
  for (guint a = 0; a < IV_N_AXES; a++)
    current_range (self, a, &lo[a], &hi[a]);
  pan_from (self, lo, hi, dx, dy, axes);
}

void
iv_chart_view_reset (IvChartView *self)
{
  g_return_if_fail (IV_IS_CHART_VIEW (self));
  if (!self->chart)
    return;
  for (guint a = 0; a < IV_N_AXES; a++)
    iv_chart_axis_clear_range (self->chart, a);
  invalidate (self);
}

static gboolean *
log_flag (IvChartView *self, IvAxisId axis)
{
  return axis == IV_AXIS_X ? &self->log_x : &self->log_y;
}

void
iv_chart_view_set_log (IvChartView *self, IvAxisId axis, gboolean log)
{
  g_return_if_fail (IV_IS_CHART_VIEW (self));
  g_return_if_fail (axis == IV_AXIS_X || axis == IV_AXIS_Y);

  log = !!log;
  if (*log_flag (self, axis) == log)
    return;
  *log_flag (self, axis) = log;
  if (self->chart)
    {
      iv_chart_axis_set_scale (self->chart, axis, log ? IV_SCALE_LOG10 : IV_SCALE_LINEAR);
      /* A zoomed linear range can hold zero or negatives: start the log view afresh. */
      iv_chart_axis_clear_range (self->chart, axis);
      invalidate (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self),
                            properties[axis == IV_AXIS_X ? PROP_LOG_X : PROP_LOG_Y]);
}

gboolean
iv_chart_view_get_log (IvChartView *self, IvAxisId axis)
{
  g_return_val_if_fail (IV_IS_CHART_VIEW (self), FALSE);
  g_return_val_if_fail (axis == IV_AXIS_X || axis == IV_AXIS_Y, FALSE);
  return *log_flag (self, axis);
}

/* A click on a legend entry shows or hides that series. */
gboolean
iv_chart_view_click (IvChartView *self, double x, double y)
{
  int index;

  g_return_val_if_fail (IV_IS_CHART_VIEW (self), FALSE);
  if (!self->chart)
    return FALSE;
  index = iv_chart_legend_hit (self->chart, x, y);
  if (index < 0)
    return FALSE;
  {
    IvSeries *s = iv_chart_get_series (self->chart, (guint) index);
    iv_series_set_visible (s, !iv_series_get_visible (s));
  }
  invalidate (self);
  return TRUE;
}

/* The tooltip text for a pointer position: the nearest point's exact values with units. */
char *
iv_chart_view_describe_at (IvChartView *self, double x, double y)
{
  IvChartHit hit;

  g_return_val_if_fail (IV_IS_CHART_VIEW (self), NULL);
  if (!self->chart || !iv_chart_hit_test (self->chart, x, y, HOVER_RADIUS, &hit))
    return NULL;
  return iv_chart_describe_hit (self->chart, &hit);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, IvChartView *self)
{
  self->hover.x = x;
  self->hover.y = y;
  self->hover.hovering = TRUE;
  self->hover.has_hit
      = self->chart && iv_chart_hit_test (self->chart, x, y, HOVER_RADIUS, &self->hover.hit);
  g_clear_pointer (&self->hover.card_text, g_free);
  if (self->hover.has_hit)
    {
      /* the card names a run and its model, from the runs' files: valid UTF-8 for Pango */
      g_autofree char *text = iv_chart_view_describe_at (self, x, y);
      self->hover.card_text = iv_text_valid (text, -1);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *motion, IvChartView *self)
{
  self->hover.hovering = FALSE;
  self->hover.has_hit = FALSE;
  g_clear_pointer (&self->hover.card_text, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, IvChartView *self)
{
  IvChartViewAxes axes = self->chart ? axes_at (self, self->hover.x, self->hover.y) : 0;

  if (!axes || dy == 0)
    return FALSE;
  iv_chart_view_zoom_at (self, self->hover.x, self->hover.y, pow (1.15, dy), axes);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, IvChartView *self)
{
  if (!self->chart || !iv_chart_get_layout (self->chart)->valid)
    {
      self->drag_axes = 0;
      return;
    }
  self->drag_axes = axes_at (self, x, y);
  for (guint a = 0; a < IV_N_AXES; a++)
    current_range (self, a, &self->drag_lo[a], &self->drag_hi[a]);
}

static void
on_drag_update (GtkGestureDrag *drag, double ox, double oy, IvChartView *self)
{
  /* From the range at the start of the drag, so rounding does not accumulate. */
  if (self->chart && self->drag_axes)
    pan_from (self, self->drag_lo, self->drag_hi, ox, oy, self->drag_axes);
}

static void
on_pressed (GtkGestureClick *click, int n_press, double x, double y, IvChartView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (click));

  if (button == GDK_BUTTON_SECONDARY)
    {
      gtk_popover_set_pointing_to (GTK_POPOVER (self->menu),
                                   &(GdkRectangle){ (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->menu));
      return;
    }
  if (n_press == 2)
    iv_chart_view_reset (self);
  else if (n_press == 1 && !iv_chart_view_click (self, x, y) && self->chart)
    {
      IvChartHit hit;
      if (iv_chart_hit_test (self->chart, x, y, HOVER_RADIUS, &hit))
        g_signal_emit (self, signals[POINT_ACTIVATED], 0, hit.series_index, (guint64) hit.index,
                       hit.x, hit.y);
    }
}

static void
reset_action (GtkWidget *widget, const char *name, GVariant *param)
{
  iv_chart_view_reset (IV_CHART_VIEW (widget));
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  IvChartView *self = IV_CHART_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  IvExportDialog *dialog;

  if (!self->chart)
    return;
  dialog = iv_export_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, &self->figure);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_dark_changed (IvChartView *self)
{
  invalidate (self);
}

/* log-x and log-y are the axes' log flags; chart is read-only. */
static void
iv_chart_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  IvChartView *self = IV_CHART_VIEW (object);

  if (prop_id == PROP_LOG_X || prop_id == PROP_LOG_Y)
    g_value_set_boolean (value, prop_id == PROP_LOG_X ? self->log_x : self->log_y);
  else if (prop_id == PROP_CHART)
    g_value_set_pointer (value, self->chart);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
iv_chart_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_LOG_X || prop_id == PROP_LOG_Y)
    iv_chart_view_set_log (IV_CHART_VIEW (object), prop_id == PROP_LOG_X ? IV_AXIS_X : IV_AXIS_Y,
                           g_value_get_boolean (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
iv_chart_view_dispose (GObject *object)
{
  IvChartView *self = IV_CHART_VIEW (object);

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->chart, iv_chart_free);
  g_clear_pointer (&self->figure_name, g_free);
  g_clear_pointer (&self->hover.card_text, g_free);
  G_OBJECT_CLASS (iv_chart_view_parent_class)->dispose (object);
}

static void
iv_chart_view_class_init (IvChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = iv_chart_view_dispose;
  object_class->get_property = iv_chart_view_get_property;
  object_class->set_property = iv_chart_view_set_property;
  widget_class->snapshot = iv_chart_view_snapshot;
  widget_class->size_allocate = iv_chart_view_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "ivchartview");

  /* A click on a data point (not on the legend): which series, which point, its values. */
  signals[POINT_ACTIVATED] = g_signal_new (
      "point-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT64, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  gtk_widget_class_install_action (widget_class, "chart.reset", NULL, reset_action);
  properties[PROP_LOG_X] = g_param_spec_boolean ("log-x", NULL, NULL, FALSE, flags);
  properties[PROP_LOG_Y] = g_param_spec_boolean ("log-y", NULL, NULL, FALSE, flags);
  /* the chart shown (read-only, notified on every chart given, even an equal one: a
   * build of the figure) */
  properties[PROP_CHART]
      = g_param_spec_pointer ("chart", NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Stateful: the menu shows check marks that follow the properties. */
  gtk_widget_class_install_property_action (widget_class, "chart.log-x", "log-x");
  gtk_widget_class_install_property_action (widget_class, "chart.log-y", "log-y");
  gtk_widget_class_install_action (widget_class, "chart.export", NULL, export_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "chart.reset",
                                       NULL);
}

static void
iv_chart_view_init (IvChartView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  g_autoptr (GMenu) menu = g_menu_new ();

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 240, 160);

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  g_menu_append (menu, _ ("Reset Zoom"), "chart.reset");
  g_menu_append (menu, _ ("Logarithmic X Axis"), "chart.log-x");
  g_menu_append (menu, _ ("Logarithmic Y Axis"), "chart.log-y");
  g_menu_append (menu, _ ("Export Figure…"), "chart.export");
  self->menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (on_dark_changed), self, G_CONNECT_SWAPPED);
}

GtkWidget *
iv_chart_view_new (void)
{
  return g_object_new (IV_TYPE_CHART_VIEW, NULL);
}

void
iv_chart_view_set_chart (IvChartView *self, IvChart *chart, const char *figure_name)
{
  g_return_if_fail (IV_IS_CHART_VIEW (self));

  if (self->chart != chart)
    g_clear_pointer (&self->chart, iv_chart_free);
  self->chart = chart;
  for (IvAxisId axis = IV_AXIS_X; chart && axis <= IV_AXIS_Y; axis++)
    {
      if (*log_flag (self, axis))
        iv_chart_axis_set_scale (chart, axis, IV_SCALE_LOG10);
      else if (iv_chart_axis_get_scale (chart, axis) != IV_SCALE_LINEAR)
        {
          *log_flag (self, axis) = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self),
                                    properties[axis == IV_AXIS_X ? PROP_LOG_X : PROP_LOG_Y]);
        }
    }
  g_free (self->figure_name);
  self->figure_name = g_strdup (figure_name ? figure_name : "chart");
  self->figure = (IvFigure){ iv_chart_render, chart, self->figure_name, self };
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHART]);
}

IvChart *
iv_chart_view_get_chart (IvChartView *self)
{
  g_return_val_if_fail (IV_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

const IvFigure *
iv_chart_view_get_figure (IvChartView *self)
{
  g_return_val_if_fail (IV_IS_CHART_VIEW (self), NULL);
  return self->chart ? &self->figure : NULL;
}
