/* iv-text.c: text in figures, measured before it is placed so nothing is clipped; a
 * maximum width ellipsizes instead of overflowing. */
#include "iv-text.h"

#include <math.h>
#include <string.h>

#include "iv-safe-text.h"

void
iv_text_init (IvText *t, cairo_t *cr, double size_px)
{
  t->layout = pango_cairo_create_layout (cr);
  t->size_px = size_px;
  t->middle = FALSE;
  t->allow = 0;
}

struct _IvTextRecorder
{
  GArray *boxes; /* IvTextBox */
};

/* Its address names the recorder on a cairo context; never written. */
static const cairo_user_data_key_t recorder_key;

static void
box_clear (gpointer data)
{
  g_free (((IvTextBox *) data)->text);
}

IvTextRecorder *
iv_text_recorder_new (void)
{
  IvTextRecorder *r = g_new0 (IvTextRecorder, 1);

  r->boxes = g_array_new (FALSE, TRUE, sizeof (IvTextBox));
  g_array_set_clear_func (r->boxes, box_clear);
  return r;
}

void
iv_text_recorder_free (IvTextRecorder *r)
{
  if (!r)
    return;
  g_array_unref (r->boxes);
  g_free (r);
}

void
iv_text_recorder_attach (IvTextRecorder *r, cairo_t *cr)
{
  cairo_set_user_data (cr, &recorder_key, r, NULL);
}

const IvTextBox *
iv_text_recorder_boxes (const IvTextRecorder *r, guint *n_boxes)
{
  *n_boxes = r->boxes->len;
  return (const IvTextBox *) (gpointer) r->boxes->data;
}

/* The device-space bounds of the user-space rectangle (x, y, w, h): rotated text (an
 * axis title) has its corners turned, so all four are mapped. */
static void
device_bounds (cairo_t *cr, double x, double y, double w, double h, double *x0, double *y0,
               double *x1, double *y1)
{
  *x0 = *y0 = G_MAXDOUBLE;
  *x1 = *y1 = -G_MAXDOUBLE;
  for (int i = 0; i < 4; i++)
    {
      double dx = x + (i & 1 ? w : 0), dy = y + (i & 2 ? h : 0);
      cairo_user_to_device (cr, &dx, &dy);
      *x0 = MIN (*x0, dx), *y0 = MIN (*y0, dy);
      *x1 = MAX (*x1, dx), *y1 = MAX (*y1, dy);
    }
}

static void
record (IvTextRecorder *r, cairo_t *cr, PangoLayout *layout, IvTextFlags allow)
{
  PangoRectangle ink;
  IvTextBox box = { 0 };
  double x = 0, y = 0, cx0, cy0, cx1, cy1;

  pango_layout_get_pixel_extents (layout, &ink, NULL);
  /* a blank string draws nothing that could overlap */
  if (ink.width <= 0 || ink.height <= 0)
    return;
  if (cairo_has_current_point (cr))
    cairo_get_current_point (cr, &x, &y);
  device_bounds (cr, x + ink.x, y + ink.y, ink.width, ink.height, &box.x0, &box.y0, &box.x1,
                 &box.y1);
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  device_bounds (cr, cx0, cy0, cx1 - cx0, cy1 - cy0, &box.clip_x0, &box.clip_y0, &box.clip_x1,
                 &box.clip_y1);
  {
    const PangoFontDescription *fd = pango_layout_get_font_description (layout);
    double sx = fd ? (double) pango_font_description_get_size (fd) / PANGO_SCALE : 0, sy = 0;
    /* the size's length on the device: the page's zoom applied */
    cairo_user_to_device_distance (cr, &sx, &sy);
    box.size = hypot (sx, sy);
  }
  box.text = g_strdup (pango_layout_get_text (layout));
  box.ellipsized = pango_layout_is_ellipsized (layout);
  box.allow = allow;
  g_array_append_val (r->boxes, box);
}

void
iv_text_show_layout (cairo_t *cr, PangoLayout *layout, IvTextFlags allow)
{
  IvTextRecorder *r = cairo_get_user_data (cr, &recorder_key);

  if (r)
    record (r, cr, layout, allow);
  pango_cairo_show_layout (cr, layout);
}

void
iv_text_clear (IvText *t)
{
  g_clear_object (&t->layout);
}

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The symbols typeset with a subscript: T_q and the weight matrices' names. Only these
 * exact words, so a name from data ("GEMM_T_qkv", "w_q_proj") stays as written. */
static const char *const symbols[] = {
  "T_q", "W_Q", "W_K", "W_V", "W_O", "W_gate", "W_up", "W_down",
};

/* The first symbol standing alone in @str at or after @from (not inside "GEMM_T_qkv"),
 * or NULL; *len is its length. */
static const char *
find_symbol (const char *str, const char *from, gsize *len)
{
  const char *best = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    {
      gsize n = strlen (symbols[i]);
      for (const char *p = strstr (from, symbols[i]); p; p = strstr (p + 1, symbols[i]))
        if ((p == str || !is_word_char (p[-1])) && !is_word_char (p[n]))
          {
            if (!best || p < best)
              best = p, *len = n;
            break;
          }
    }
  return best;
}

/* @str with each symbol X_s as "Xs", the s set smaller and lowered by attributes sized
 * from the layout's font: Pango's <sub> sizes from the default font, not the figure's
 * absolute one (at slide size the q came out larger than the T), and no markup is
 * parsed, so text from data shows as written. */
static void
set_with_symbols (PangoLayout *layout, const char *str)
{
  const PangoFontDescription *fd = pango_layout_get_font_description (layout);
  int size = fd ? pango_font_description_get_size (fd) : 0;
  gboolean absolute = fd && pango_font_description_get_size_is_absolute (fd);
  g_autoptr (GString) plain = g_string_new (NULL);
  PangoAttrList *attrs = pango_attr_list_new ();
  const char *from = str, *p;
  gsize len = 0;

  if (size <= 0)
    size = 10 * PANGO_SCALE;
  while ((p = find_symbol (str, from, &len)))
    {
      PangoAttribute *small = absolute ? pango_attr_size_new_absolute ((int) (0.7 * size))
                                       : pango_attr_size_new ((int) (0.7 * size));
      PangoAttribute *rise = pango_attr_rise_new (-(int) (0.18 * size));
      g_string_append_len (plain, from, p - from);
      g_string_append_c (plain, p[0]);
      small->start_index = rise->start_index = plain->len;
      g_string_append_len (plain, p + 2, (gssize) len - 2);
      small->end_index = rise->end_index = plain->len;
      pango_attr_list_insert (attrs, small);
      pango_attr_list_insert (attrs, rise);
      from = p + len;
    }
  g_string_append (plain, from);
  pango_layout_set_text (layout, plain->str, (int) plain->len);
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
}

char *
iv_text_symbols_markup (const char *str)
{
  g_autofree char *valid = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  const char *from, *p;
  gsize len = 0;

  if (!str)
    str = "";
  else if (!g_utf8_validate (str, -1, NULL))
    str = valid = iv_text_valid (str, -1);
  from = str;
  while ((p = find_symbol (str, from, &len)))
    {
      g_autofree char *before = g_markup_escape_text (from, p - from);
      g_autofree char *sub = g_markup_escape_text (p + 2, (gssize) len - 2);
      g_string_append_printf (out, "%s%c<sub>%s</sub>", before, p[0], sub);
      from = p + len;
    }
  {
    g_autofree char *rest = g_markup_escape_text (from, -1);
    g_string_append (out, rest);
  }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

void
iv_text_layout_set_text (PangoLayout *layout, const char *str)
{
  g_autofree char *valid = NULL;
  gsize len;

  if (!str)
    str = "";
  else if (!g_utf8_validate (str, -1, NULL))
    str = valid = iv_text_valid (str, -1);
  if (find_symbol (str, str, &len))
    {
      set_with_symbols (layout, str);
      return;
    }
  /* a symbol set before leaves its attributes on the layout */
  pango_layout_set_attributes (layout, NULL);
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
  iv_text_show_layout (cr, t->layout, t->allow);
}

void
iv_text_measure_wrapped (IvText *t, const char *str, double scale, gboolean bold, double max_width,
                         double *width, double *height)
{
  PangoRectangle logical;

  prepare (t, str, scale, bold, 0);
  pango_layout_set_width (t->layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_wrap (t->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_extents (t->layout, NULL, &logical);
  if (width)
    *width = (double) logical.width / PANGO_SCALE;
  if (height)
    *height = (double) logical.height / PANGO_SCALE;
}

double
iv_text_show_wrapped (IvText *t, cairo_t *cr, const char *str, double x, double y, double scale,
                      gboolean bold, double max_width, const IvColor *color)
{
  double h;

  iv_text_measure_wrapped (t, str, scale, bold, max_width, NULL, &h);
  iv_color_set_source (cr, color);
  cairo_move_to (cr, x, y);
  iv_text_show_layout (cr, t->layout, t->allow);
  return h;
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
