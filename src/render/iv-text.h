/* iv-text.h: measured, aligned text for figures (Pango on cairo). */
#pragma once

#include <pango/pangocairo.h>

#include "iv-theme.h"

G_BEGIN_DECLS

typedef struct
{
  PangoLayout *layout;
  double size_px;     /* the body size; calls scale it */
} IvText;

void iv_text_init    (IvText        *text,
                      cairo_t       *cr,
                      double         size_px);
void iv_text_clear   (IvText        *text);
void iv_text_measure (IvText        *text,
                      const char    *str,
                      double         scale,
                      gboolean       bold,
                      double         max_width,
                      double        *width,
                      double        *height);
void iv_text_show    (IvText        *text,
                      cairo_t       *cr,
                      const char    *str,
                      double         x,
                      double         y,
                      double         xalign,
                      double         yalign,
                      double         scale,
                      gboolean       bold,
                      double         max_width,
                      const IvColor *color);

G_END_DECLS
