/* iv-figure-view.c: drawn straight from the figure's own render function on each
 * snapshot (panels of a few hundred points and a surface of a few dozen draw in well
 * under a frame), so a turn of the surface is one redraw. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-figure-view.h"

#include <adwaita.h>

#include "iv-tooltip.h"

#define HOVER_RADIUS 10.0
/* degrees per pixel dragged, and per arrow key */
#define DRAG_DEGREES 0.4
#define KEY_DEGREES 5.0

struct _IvFigureView
{
  GtkWidget parent_instance;
  IvRunsFigure figure;
  IvFigure drawn;
  char *name;
  double drag_azimuth, drag_elevation; /* the view when the drag began */
};

G_DEFINE_FINAL_TYPE (IvFigureView, iv_figure_view, GTK_TYPE_WIDGET)

static IvTheme
current_theme (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                       : IV_THEME_LIGHT;
}

static void
iv_figure_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  IvFigureView *self = IV_FIGURE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  IvRenderOptions options = { current_theme (), 1.0 };
  cairo_t *cr;

  if (!self->drawn.render || w <= 0 || h <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  self->drawn.render (cr, self->drawn.data, &options, w, h, NULL);
  cairo_destroy (cr);
}

char *
iv_figure_view_describe_at (IvFigureView *self, double x, double y)
{
  g_return_val_if_fail (IV_IS_FIGURE_VIEW (self), NULL);
  if (self->figure.grid)
    return iv_chart_grid_describe_at (self->figure.grid, x, y, HOVER_RADIUS);
  if (self->figure.surface)
    return iv_surface_describe_at (self->figure.surface, x, y, HOVER_RADIUS);
  return NULL;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  g_autofree char *text = iv_figure_view_describe_at (IV_FIGURE_VIEW (widget), x, y);

  if (!text)
    return FALSE;
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
iv_figure_view_rotate (IvFigureView *self, double d_azimuth, double d_elevation)
{
  double az, el;

  g_return_if_fail (IV_IS_FIGURE_VIEW (self));
  if (!self->figure.surface)
    return;
  iv_surface_get_view (self->figure.surface, &az, &el);
  iv_surface_set_view (self->figure.surface, az + d_azimuth, el + d_elevation);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, IvFigureView *self)
{
  if (!self->figure.surface)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  iv_surface_get_view (self->figure.surface, &self->drag_azimuth, &self->drag_elevation);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, IvFigureView *self)
{
  if (!self->figure.surface)
    return;
  /* the picture follows the pointer: right turns it towards the right, down tips it up */
  iv_surface_set_view (self->figure.surface, self->drag_azimuth - dx * DRAG_DEGREES,
                       self->drag_elevation + dy * DRAG_DEGREES);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
        IvFigureView *self)
{
  if (!self->figure.surface)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
      iv_figure_view_rotate (self, KEY_DEGREES, 0);
      return TRUE;
    case GDK_KEY_Right:
      iv_figure_view_rotate (self, -KEY_DEGREES, 0);
      return TRUE;
    case GDK_KEY_Up:
      iv_figure_view_rotate (self, 0, KEY_DEGREES);
      return TRUE;
    case GDK_KEY_Down:
      iv_figure_view_rotate (self, 0, -KEY_DEGREES);
      return TRUE;
    case GDK_KEY_Home:
      iv_surface_set_view (self->figure.surface, IV_SURFACE_AZIMUTH, IV_SURFACE_ELEVATION);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    default:
      return FALSE;
    }
}

void
iv_figure_view_set_figure (IvFigureView *self, IvRunsFigure *figure, const char *figure_name)
{
  g_return_if_fail (IV_IS_FIGURE_VIEW (self));
  iv_runs_figure_clear (&self->figure);
  self->figure.grid = g_steal_pointer (&figure->grid);
  self->figure.surface = g_steal_pointer (&figure->surface);
  g_free (self->name);
  self->name = g_strdup (figure_name ? figure_name : "figure");
  self->drawn = iv_runs_figure_get (&self->figure, self->name);
  self->drawn.owner = self;
  if (!self->figure.grid && !self->figure.surface)
    self->drawn = (IvFigure){ 0 };
  gtk_widget_set_focusable (GTK_WIDGET (self), self->figure.surface != NULL);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->figure.surface ? "grab" : NULL);
  gtk_accessible_update_property (
      GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
      iv_runs_figure_title (&self->figure) ? iv_runs_figure_title (&self->figure) : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const IvFigure *
iv_figure_view_get_figure (IvFigureView *self)
{
  g_return_val_if_fail (IV_IS_FIGURE_VIEW (self), NULL);
  return self->drawn.render ? &self->drawn : NULL;
}

IvSurface *
iv_figure_view_get_surface (IvFigureView *self)
{
  g_return_val_if_fail (IV_IS_FIGURE_VIEW (self), NULL);
  return self->figure.surface;
}

GtkWidget *
iv_figure_view_new (void)
{
  return g_object_new (IV_TYPE_FIGURE_VIEW, NULL);
}

static void
iv_figure_view_finalize (GObject *object)
{
  IvFigureView *self = IV_FIGURE_VIEW (object);

  iv_runs_figure_clear (&self->figure);
  g_free (self->name);
  G_OBJECT_CLASS (iv_figure_view_parent_class)->finalize (object);
}

static void
iv_figure_view_class_init (IvFigureViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = iv_figure_view_finalize;
  widget_class->snapshot = iv_figure_view_snapshot;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
iv_figure_view_init (IvFigureView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  gtk_widget_set_size_request (GTK_WIDGET (self), 240, 160);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}
