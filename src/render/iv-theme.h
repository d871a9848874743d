/* iv-theme.h: the colours of the three figure themes. */
#pragma once

#include <cairo.h>

#include "iv-render.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} IvColor;

typedef struct
{
  IvColor background;
  IvColor foreground;     /* text, axes */
  IvColor foreground_dim; /* secondary text */
  IvColor grid;
  IvColor accent;
} IvThemeColors;

const IvThemeColors *iv_theme_get_colors (IvTheme theme);
const char *iv_theme_to_string (IvTheme theme);
gboolean iv_theme_from_string (const char *name, IvTheme *theme);
void iv_color_set_source (cairo_t *cr, const IvColor *color);
/* Near-black or white, whichever reads on @fill (by its luminance). */
IvColor iv_color_ink_for (const IvColor *fill);
/* 0xRRGGBB with an alpha. */
IvColor iv_color_from_rgb (guint32 rgb, double alpha);

G_END_DECLS
