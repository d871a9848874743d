/* iv-render.h: the contract every figure follows. A renderer is a pure function of its
 * inputs that draws into a cairo context in logical units (1 unit = 1/96 in, a CSS
 * pixel); the window, PNG, PDF and SVG export all call the same function. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  IV_THEME_LIGHT,
  IV_THEME_DARK,
  IV_THEME_PRINT, /* white background, black text, no transparency */
} IvTheme;

/* The margin every figure keeps around itself, in logical units: at the slide preset's
 * zoom it stays under 5 % of the page. */
#define IV_FIGURE_PAD 12.0

typedef struct
{
  IvTheme theme;
  double font_scale; /* 1.0 = the default text size */
} IvRenderOptions;

/* Returns FALSE with @error set when the figure cannot be drawn (the data is unusable);
 * exporters then leave no file behind. */
typedef gboolean (*IvRenderFunc) (cairo_t *cr, gconstpointer data, const IvRenderOptions *options,
                                  double width, double height, GError **error);

/* A figure ready to draw: what a view hands to the export path. */
typedef struct
{
  IvRenderFunc render;
  gconstpointer data;
  const char *name; /* suggested file name without extension, e.g. "pipeline" */
  gpointer owner;   /* a GObject that owns @data, kept alive while the figure is used */
} IvFigure;

G_END_DECLS
