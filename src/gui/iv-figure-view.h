/* iv-figure-view.h: a figure that is not one chart — panels or a surface — on screen:
 * hover cards as tooltips; a surface turns under a drag or the arrow keys (Home: back to
 * the view exports use). */
#pragma once

#include <gtk/gtk.h>

#include "iv-render-runs.h"

G_BEGIN_DECLS

#define IV_TYPE_FIGURE_VIEW (iv_figure_view_get_type ())
G_DECLARE_FINAL_TYPE (IvFigureView, iv_figure_view, IV, FIGURE_VIEW, GtkWidget)

GtkWidget *iv_figure_view_new (void);
/* Takes the grid or surface of @figure (its chart, if any, is left to the caller). */
void iv_figure_view_set_figure (IvFigureView *self, IvRunsFigure *figure, const char *figure_name);
const IvFigure *iv_figure_view_get_figure (IvFigureView *self);
/* The surface shown, or NULL. */
IvSurface *iv_figure_view_get_surface (IvFigureView *self);
/* Turns a surface by degrees (what a drag and the arrow keys do). */
void iv_figure_view_rotate (IvFigureView *self, double d_azimuth, double d_elevation);
/* The hover card at (@x, @y), as the tooltip shows it; NULL when nothing is there. */
char *iv_figure_view_describe_at (IvFigureView *self, double x, double y);

G_END_DECLS
