/* iv-theme.c: figure colours. Light and dark follow libadwaita's view colours so an
 * exported figure matches the window it came from; print drops every transparency
 * because some journals' PDF checkers reject it. */
#include "iv-theme.h"

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
