/* iv-surface.h: surfaces in three dimensions — meshes of points over a box with three
 * labelled axes, seen from an azimuth and an elevation (orthographic), drawn with cairo
 * and Pango like every figure: rotatable in the window, a fixed view in exports. */
#pragma once

#include "iv-render.h"
#include "iv-scale.h"

G_BEGIN_DECLS

typedef struct _IvSurface IvSurface;

typedef enum
{
  IV_SURFACE_X, /* across */
  IV_SURFACE_Y, /* into the picture */
  IV_SURFACE_Z, /* up */
  IV_SURFACE_N_AXES
} IvSurfaceAxis;

/* The view exports use: from the front left, a little above. */
#define IV_SURFACE_AZIMUTH (-35.0)
#define IV_SURFACE_ELEVATION 24.0

IvSurface *iv_surface_new (void);
void iv_surface_free (IvSurface *surface);
void iv_surface_set_title (IvSurface *surface, const char *title, const char *subtitle);
const char *iv_surface_get_title (const IvSurface *surface);
void iv_surface_set_axis (IvSurface *surface, IvSurfaceAxis axis, const char *title, IvUnit unit,
                          IvScaleKind kind);
/* A mesh of @rows × @columns points (row-major; NaN where there is none): the quads
 * between neighbours are filled, each row drawn as a line on top, each point a dot with
 * @labels[i] (NULL for none) on hover. Data are copied. */
void iv_surface_add_mesh (IvSurface *surface, const char *name, guint rows, guint columns,
                          const double *x, const double *y, const double *z,
                          const char *const *labels, guint32 rgb);
/* Degrees: azimuth turns about the vertical, elevation looks down (clamped to 0…90). */
void iv_surface_set_view (IvSurface *surface, double azimuth, double elevation);
void iv_surface_get_view (const IvSurface *surface, double *azimuth, double *elevation);
/* An IvRenderFunc: @data is the IvSurface. Remembers where each point went. */
gboolean iv_surface_render (cairo_t *cr, gconstpointer data, const IvRenderOptions *options,
                            double width, double height, GError **error);
/* After a drawing: the points as drawn — where, and what their hover card says. */
guint iv_surface_get_n_points (const IvSurface *surface);
gboolean iv_surface_get_point (const IvSurface *surface, guint index, double *px, double *py,
                               char **text);
/* The hover card of the point nearest (@px, @py) within @radius, or NULL. */
char *iv_surface_describe_at (const IvSurface *surface, double px, double py, double radius);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvSurface, iv_surface_free)

G_END_DECLS
