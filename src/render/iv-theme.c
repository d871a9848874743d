/* iv-theme.c: figure colours. Light and dark follow libadwaita's view colours so an
 * exported figure matches the window it came from; print drops every transparency
 * because some journals' PDF checkers reject it. */
#include "iv-theme.h"

#include <math.h>
#include <string.h>

static const IvThemeColors themes[] = {
  [IV_THEME_LIGHT] = {
    .background = { 1.0, 1.0, 1.0, 1.0 },
    .foreground = { 0.0, 0.0, 0.0, 0.8 },
    .foreground_dim = { 0.0, 0.0, 0.0, 0.55 },
    .grid = { 0.0, 0.0, 0.0, 0.10 },
    .accent = { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0, 1.0 },
  },
  [IV_THEME_DARK] = {
    .background = { 0x1e / 255.0, 0x1e / 255.0, 0x1e / 255.0, 1.0 },
    .foreground = { 1.0, 1.0, 1.0, 1.0 },
    .foreground_dim = { 1.0, 1.0, 1.0, 0.6 },
    .grid = { 1.0, 1.0, 1.0, 0.12 },
    .accent = { 0x78 / 255.0, 0xae / 255.0, 0xed / 255.0, 1.0 },
  },
  [IV_THEME_PRINT] = {
    .background = { 1.0, 1.0, 1.0, 1.0 },
    .foreground = { 0.0, 0.0, 0.0, 1.0 },
    .foreground_dim = { 0.33, 0.33, 0.33, 1.0 },
    .grid = { 0.85, 0.85, 0.85, 1.0 },
    .accent = { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0, 1.0 },
  },
};

static const char *const theme_names[] = {
  [IV_THEME_LIGHT] = "light",
  [IV_THEME_DARK] = "dark",
  [IV_THEME_PRINT] = "print",
};

const IvThemeColors *
iv_theme_get_colors (IvTheme theme)
{
  g_return_val_if_fail ((guint) theme < G_N_ELEMENTS (themes), &themes[IV_THEME_LIGHT]);
  return &themes[theme];
}

const char *
iv_theme_to_string (IvTheme theme)
{
  g_return_val_if_fail ((guint) theme < G_N_ELEMENTS (theme_names), NULL);
  return theme_names[theme];
}

gboolean
iv_theme_from_string (const char *name, IvTheme *theme)
{
  for (guint i = 0; i < G_N_ELEMENTS (theme_names); i++)
    if (name && strcmp (name, theme_names[i]) == 0)
      {
        *theme = (IvTheme) i;
        return TRUE;
      }
  return FALSE;
}

void
iv_color_set_source (cairo_t *cr, const IvColor *color)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a);
}

IvColor
iv_color_from_rgb (guint32 rgb, double alpha)
{
  return (IvColor){ ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                    alpha };
}

IvColor
iv_color_ink_for (const IvColor *fill)
{
  gboolean light = 0.2126 * fill->r + 0.7152 * fill->g + 0.0722 * fill->b > 0.6;
  return light ? (IvColor){ 0.1, 0.1, 0.1, 1 } : (IvColor){ 1, 1, 1, 1 };
}

static double
linear (double channel)
{
  /* WCAG 2.x's sRGB linearisation, with its 0.03928 threshold */
  return channel <= 0.03928 ? channel / 12.92 : pow ((channel + 0.055) / 1.055, 2.4);
}

double
iv_color_luminance (const IvColor *color)
{
  return 0.2126 * linear (color->r) + 0.7152 * linear (color->g) + 0.0722 * linear (color->b);
}

double
iv_color_contrast (const IvColor *a, const IvColor *b)
{
  double la = iv_color_luminance (a), lb = iv_color_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

double
iv_theme_min_contrast (IvTheme theme)
{
  return theme == IV_THEME_DARK ? 4.5 : 3.0;
}

IvColor
iv_theme_mark_color (IvTheme theme, guint32 rgb, double alpha)
{
  const IvColor *bg = &iv_theme_get_colors (theme)->background;
  double goal = iv_theme_min_contrast (theme);
  double toward = theme == IV_THEME_DARK ? 1.0 : 0.0;
  IvColor c = iv_color_from_rgb (rgb, alpha), mixed = c;
  double lo = 0, hi = 1;

  /* On white the colours stay as published (Okabe–Ito, the bound colours): figures and
   * tests elsewhere name them, and a light figure is what a paper prints. */
  if (theme != IV_THEME_DARK || iv_color_contrast (&c, bg) >= goal)
    return c;
  /* Contrast grows monotonically with the mix: bisect for the least mix that reaches
   * the goal, taking the upper end so the result always does. */
  for (int i = 0; i < 24; i++)
    {
      double t = (lo + hi) / 2;
      mixed = (IvColor){ c.r + (toward - c.r) * t, c.g + (toward - c.g) * t,
                         c.b + (toward - c.b) * t, alpha };
      if (iv_color_contrast (&mixed, bg) >= goal)
        hi = t;
      else
        lo = t;
    }
  return (IvColor){ c.r + (toward - c.r) * hi, c.g + (toward - c.g) * hi, c.b + (toward - c.b) * hi,
                    alpha };
}
