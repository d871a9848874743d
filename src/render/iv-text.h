/* iv-text.h: measured, aligned text for figures (Pango on cairo). */
#pragma once

#include <pango/pangocairo.h>

#include "iv-theme.h"

G_BEGIN_DECLS

typedef struct
{
  PangoLayout *layout;
  double size_px;  /* the body size; calls scale it */
  gboolean middle; /* ellipsize in the middle (names whose ends tell them apart) */
} IvText;

/* Every figure's text goes to Pango through this: names from data may be invalid UTF-8
 * (json-glib passes an unpaired \ud800 through as raw bytes), which Pango would refuse
 * with a warning and draw as nothing. Invalid bytes become U+FFFD; valid text is set as is,
 * but for the symbol T_q standing alone (not in "GEMM_T_qkv"), drawn as T with a subscript
 * q, as the command line's "T_q" is typeset (no markup is parsed: names from data show as
 * written). */
void iv_text_layout_set_text (PangoLayout *layout, const char *str);

void iv_text_init (IvText *text, cairo_t *cr, double size_px);
void iv_text_clear (IvText *text);
void iv_text_measure (IvText *text, const char *str, double scale, gboolean bold, double max_width,
                      double *width, double *height);
void iv_text_show (IvText *text, cairo_t *cr, const char *str, double x, double y, double xalign,
                   double yalign, double scale, gboolean bold, double max_width,
                   const IvColor *color);

/* A legend entry's label beside the swatch its caller drew at @x (14 px wide), centred
 * on @y; returns where the next entry's swatch goes. */
double iv_text_legend_label (IvText *text, cairo_t *cr, const char *label, double x, double y,
                             const IvColor *color);

G_END_DECLS
