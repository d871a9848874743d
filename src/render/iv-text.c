/* iv-text.c: text in figures, measured before it is placed so nothing is clipped; a
 * maximum width ellipsizes instead of overflowing. */
#include "iv-text.h"

#include "iv-safe-text.h"

void
iv_text_init (IvText *t, cairo_t *cr, double size_px)
{
  t->layout = pango_cairo_create_layout (cr);
  t->size_px = size_px;
  t->middle = FALSE;
}

void
iv_text_clear (IvText *t)
{
  g_clear_object (&t->layout);
}

void
iv_text_layout_set_text (PangoLayout *layout, const char *str)
{
  g_autofree char *valid = NULL;

  if (!str)
    str = "";
  else if (!g_utf8_validate (str, -1, NULL))
    str = valid = iv_text_valid (str, -1);
  pango_layout_set_text (layout, str, -1);
}

static void
prepare (IvText *t, const char *str, double scale, gboolean bold, double max_width)
{
  PangoFontDescription *fd = pango_font_description_from_string ("Cantarell, Sans");

  pango_font_description_set_absolute_size (fd, t->size_px * scale * PANGO_SCALE);
  pango_font_description_set_weight (fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (t->layout, fd);
  pango_font_description_free (fd);
  pango_layout_set_width (t->layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (t->layout, max_width <= 0 ? PANGO_ELLIPSIZE_NONE
                                         : t->middle    ? PANGO_ELLIPSIZE_MIDDLE
                                                        : PANGO_ELLIPSIZE_END);
  iv_text_layout_set_text (t->layout, str);
}

void
iv_text_measure (IvText *t, const char *str, double scale, gboolean bold, double max_width,
                 double *width, double *height)
{
  PangoRectangle logical;

  prepare (t, str, scale, bold, max_width);
  pango_layout_get_extents (t->layout, NULL, &logical);
  if (width)
    *width = (double) logical.width / PANGO_SCALE;
  if (height)
    *height = (double) logical.height / PANGO_SCALE;
}

void
iv_text_show (IvText *t, cairo_t *cr, const char *str, double x, double y, double xalign,
              double yalign, double scale, gboolean bold, double max_width, const IvColor *color)
{
  double w, h;

  iv_text_measure (t, str, scale, bold, max_width, &w, &h);
  iv_color_set_source (cr, color);
  cairo_move_to (cr, x - w * xalign, y - h * yalign);
  pango_cairo_show_layout (cr, t->layout);
}

double
iv_text_legend_label (IvText *t, cairo_t *cr, const char *label, double x, double y,
                      const IvColor *color)
{
  double w, h;

  iv_text_show (t, cr, label, x + 20, y, 0, 0.5, 0.88, FALSE, 0, color);
  iv_text_measure (t, label, 0.88, FALSE, 0, &w, &h);
  return x + 20 + w + 22;
}
