/* iv-chart-view-hover.h: what a chart view draws over its chart each frame — a crosshair
 * through the pointer, a ring on the point under it and that point's card of values,
 * beside the point and inside the widget, where a toolkit tooltip could hang off the
 * window's edge. Private to iv-chart-view.c. */
#pragma once

#include <gtk/gtk.h>

#include "iv-chart-private.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y; /* the pointer */
  gboolean hovering;
  IvChartHit hit; /* the point under it, when has_hit */
  gboolean has_hit;
  char *card_text; /* what the hovered point's card says, NULL without one */
} IvChartHover;

/* The card's text laid out for @widget's width, and where it goes (@box): beside the
 * point, below and to the right, flipped to the other side where it would not fit, and
 * finally clamped inside the widget; NULL without a card or room for one. */
PangoLayout *iv_chart_hover_card (const IvChartHover *self, GtkWidget *widget,
                                  graphene_rect_t *box);
/* Draws the hover layer of @chart (as last laid out) in @widget. */
void iv_chart_hover_draw (const IvChartHover *self, GtkWidget *widget, IvChart *chart,
                          IvTheme theme, cairo_t *cr);

G_END_DECLS
