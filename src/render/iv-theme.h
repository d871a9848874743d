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
/* Relative luminance of @color's RGB as WCAG 2.x defines it (0 black … 1 white). */
double iv_color_luminance (const IvColor *color);
/* WCAG 2.x contrast ratio of two opaque colours: 1 … 21. */
double iv_color_contrast (const IvColor *a, const IvColor *b);
/* The least contrast a mark (a series, a bound, the ring, a link) has against @theme's
 * background: WCAG's 3:1 for graphics, more on dark, where a saturated dark hue on
 * a small marker reads dimmer than its ratio says. */
double iv_theme_min_contrast (IvTheme theme);
/* 0xRRGGBB as a mark in @theme. In the dark theme, mixed towards white just enough
 * that it stands out from the background by iv_theme_min_contrast, so its hue stays
 * recognisable; unchanged when it already does, and in the light and print themes. */
IvColor iv_theme_mark_color (IvTheme theme, guint32 rgb, double alpha);

G_END_DECLS
