/* iv-render-compare.c: the Compare figure — saved configurations as columns, the summary
 * and every stage's visible time as rows, the best value of each row tinted and bold. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-model.h"

#include "iv-text.h"

#define PAD IV_FIGURE_PAD
#define BEST_RGB 0x009e73

gboolean
iv_render_compare (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                   double height, GError **error)
{
  const IvCompareTable *t = data;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  IvColor best = iv_color_from_rgb (BEST_RGB, options->theme == IV_THEME_DARK ? 0.35 : 0.18);
  IvText text;
  double label_w = 0, col_w, row_h, y, scale;
  g_autofree char *title = NULL;

  if (!t || t->n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "nothing to compare: save a configuration first");
      return FALSE;
    }
  iv_text_init (&text, cr, 13 * (options->font_scale > 0 ? options->font_scale : 1));
  /* Rows share the height left under the title, between 16 and 26 px. */
  row_h = CLAMP ((height - 2 * PAD - 60) / (t->rows->len + 1), 12, 26);
  scale = MIN (0.9, row_h / 22);
  for (guint r = 0; r < t->rows->len; r++)
    {
      double w, h;
      const IvCompareRow *row = t->rows->pdata[r];
      iv_text_measure (&text, row->label, scale, row->section, -1, &w, &h);
      label_w = MAX (label_w, w);
    }
  label_w = MIN (label_w + 16, width * 0.35);
  col_w = (width - 2 * PAD - label_w) / t->n;

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_paint (cr);
  title = g_strdup_printf ("Compare · %u configuration%s", t->n, t->n == 1 ? "" : "s");
  iv_text_show (&text, cr, title, PAD, PAD, 0, 0, 1.25, TRUE, width - 2 * PAD, &colors->foreground);
  iv_text_show (&text, cr, "best value of each row tinted", PAD, PAD + 24, 0, 0, 0.95, FALSE,
                width - 2 * PAD, &colors->foreground_dim);

  y = PAD + 60;
  for (guint i = 0; i < t->n; i++)
    iv_text_show (&text, cr, t->names->pdata[i], PAD + label_w + (i + 1) * col_w - 8, y + row_h / 2,
                  1, 0.5, scale, TRUE, col_w - 12, &colors->foreground);
  y += row_h;
  for (guint r = 0; r < t->rows->len; r++, y += row_h)
    {
      const IvCompareRow *row = t->rows->pdata[r];
      if (y + row_h > height - PAD / 2)
        break;
      if (row->section)
        {
          iv_color_set_source (cr, &colors->grid);
          cairo_rectangle (cr, PAD, y + 2, width - 2 * PAD, 1);
          cairo_fill (cr);
          iv_text_show (&text, cr, row->label, PAD, y + row_h / 2 + 2, 0, 0.5, scale, TRUE,
                        width - 2 * PAD, &colors->foreground_dim);
          continue;
        }
      iv_text_show (&text, cr, row->label, PAD, y + row_h / 2, 0, 0.5, scale, FALSE, label_w - 8,
                    &colors->foreground);
      for (guint i = 0; i < t->n; i++)
        {
          double x = PAD + label_w + i * col_w;
          gboolean is_best = row->best == (int) i;
          if (is_best)
            {
              iv_color_set_source (cr, &best);
              cairo_rectangle (cr, x + 2, y + 1, col_w - 4, row_h - 2);
              cairo_fill (cr);
            }
          iv_text_show (&text, cr, row->cells->pdata[i], x + col_w - 8, y + row_h / 2, 1, 0.5,
                        scale, is_best, col_w - 12, &colors->foreground);
        }
    }
  cairo_restore (cr);
  iv_text_clear (&text);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
