/* iv-chart-view-hover.c: what a chart view draws over its chart each frame (see the
 * header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-chart-view-hover.h"

#include <math.h>
#include <string.h>

#define CARD_PAD 8.0       /* text to the card's edge */
#define CARD_GAP 14.0      /* the card's corner to the point */
#define CARD_MARGIN 4.0    /* the card to the widget's edge */
#define CARD_MAX_WIDTH 420 /* long names wrap rather than widen it */

/* The card's text laid out for the widget's width, and where it goes: beside the
 * point, below and to the right, flipped to the other side where it would not fit, and
 * finally clamped inside the widget. */
PangoLayout *
iv_chart_hover_card (const IvChartHover *self, GtkWidget *widget, graphene_rect_t *box)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  int max_w = MIN (CARD_MAX_WIDTH, width - 2 * (int) (CARD_MARGIN + CARD_PAD));
  PangoLayout *layout;
  PangoRectangle ink, logical;
  double w, h, x, y;

  if (!self->card_text || max_w < 40)
    return NULL;
  layout = gtk_widget_create_pango_layout (widget, self->card_text);
  pango_layout_set_width (layout, max_w * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  {
    /* the first line names the point */
    PangoAttrList *attrs = pango_attr_list_new ();
    PangoAttribute *bold = pango_attr_weight_new (PANGO_WEIGHT_BOLD);
    const char *nl = strchr (self->card_text, '\n');
    bold->start_index = 0;
    bold->end_index = nl ? (guint) (nl - self->card_text) : G_MAXUINT;
    pango_attr_list_insert (attrs, bold);
    pango_layout_set_attributes (layout, attrs);
    pango_attr_list_unref (attrs);
  }
  pango_layout_get_pixel_extents (layout, &ink, &logical);
  w = logical.width + 2 * CARD_PAD;
  h = logical.height + 2 * CARD_PAD;
  x = self->hit.px + CARD_GAP;
  y = self->hit.py + CARD_GAP;
  if (x + w > width - CARD_MARGIN)
    x = self->hit.px - CARD_GAP - w;
  if (y + h > height - CARD_MARGIN)
    y = self->hit.py - CARD_GAP - h;
  x = CLAMP (x, CARD_MARGIN, MAX (CARD_MARGIN, width - CARD_MARGIN - w));
  y = CLAMP (y, CARD_MARGIN, MAX (CARD_MARGIN, height - CARD_MARGIN - h));
  *box = GRAPHENE_RECT_INIT (x, y, w, h);
  return layout;
}

static void
draw_card (const IvChartHover *self, GtkWidget *widget, cairo_t *cr)
{
  graphene_rect_t box;
  g_autoptr (PangoLayout) layout = iv_chart_hover_card (self, widget, &box);
  double r = 6;

  if (!layout)
    return;
  /* the toolkit's tooltip look: dark and translucent in both styles */
  cairo_new_sub_path (cr);
  cairo_arc (cr, box.origin.x + box.size.width - r, box.origin.y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, box.origin.x + box.size.width - r, box.origin.y + box.size.height - r, r, 0,
             G_PI / 2);
  cairo_arc (cr, box.origin.x + r, box.origin.y + box.size.height - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, box.origin.x + r, box.origin.y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.12);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, box.origin.x + CARD_PAD, box.origin.y + CARD_PAD);
  pango_cairo_show_layout (cr, layout);
}

void
iv_chart_hover_draw (const IvChartHover *self, GtkWidget *widget, IvChart *chart, IvTheme theme,
                     cairo_t *cr)
{
  const IvThemeColors *colors = iv_theme_get_colors (theme);
  const IvChartLayout *L = iv_chart_get_layout (chart);

  if (!self->hovering)
    return;
  cairo_save (cr);
  /* A crosshair through the pointer helps read values off the axes. */
  if (self->x >= L->plot_x && self->x <= L->plot_x + L->plot_w && self->y >= L->plot_y
      && self->y <= L->plot_y + L->plot_h)
    {
      IvColor c = colors->foreground_dim;
      c.a *= 0.5;
      iv_color_set_source (cr, &c);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, round (self->x) + 0.5, L->plot_y);
      cairo_line_to (cr, round (self->x) + 0.5, L->plot_y + L->plot_h);
      cairo_move_to (cr, L->plot_x, round (self->y) + 0.5);
      cairo_line_to (cr, L->plot_x + L->plot_w, round (self->y) + 0.5);
      cairo_stroke (cr);
    }
  if (self->has_hit)
    {
      iv_color_set_source (cr, &colors->background);
      cairo_arc (cr, self->hit.px, self->hit.py, 6, 0, 2 * G_PI);
      cairo_fill (cr);
      iv_color_set_source (cr, &self->hit.series->color);
      cairo_set_line_width (cr, 2.5);
      cairo_arc (cr, self->hit.px, self->hit.py, 5, 0, 2 * G_PI);
      cairo_stroke (cr);
      draw_card (self, widget, cr);
    }
  cairo_restore (cr);
}
