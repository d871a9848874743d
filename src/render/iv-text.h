/* iv-text.h: measured, aligned text for figures (Pango on cairo). */
#pragma once

#include <pango/pangocairo.h>

#include "iv-theme.h"

G_BEGIN_DECLS

/* What a figure allows a string it draws; by default (0) it promises the whole string,
 * on the page and clear of every other string. */
typedef enum
{
  IV_TEXT_MAY_ELLIPSIZE = 1 << 0, /* shortened to fit on purpose (a name inside a bar) */
  IV_TEXT_MAY_OVERLAP = 1 << 1,   /* drawn over other text on purpose, or clipped to a mark */
} IvTextFlags;

typedef struct
{
  PangoLayout *layout;
  double size_px;    /* the body size; calls scale it */
  gboolean middle;   /* ellipsize in the middle (names whose ends tell them apart) */
  IvTextFlags allow; /* what iv_text_show's strings may do, for the layout check */
} IvText;

/* One string as drawn: its inked rectangle and the clip it was drawn under, in device
 * space (the surface's pixels), the string as set, and whether Pango ellipsized it. */
typedef struct
{
  double x0, y0, x1, y1;
  double clip_x0, clip_y0, clip_x1, clip_y1;
  char *text;
  gboolean ellipsized;
  IvTextFlags allow;
  double size; /* the font's size in device units (a subscript's smaller size aside) */
} IvTextBox;

/* The layout check (tests/test-figure-layout.c): a recorder attached to a cairo context
 * collects every string drawn on it through iv_text_show_layout. Nothing is recorded on a
 * context without one, so the window and exports pay one lookup a string. */
typedef struct _IvTextRecorder IvTextRecorder;

IvTextRecorder *iv_text_recorder_new (void);
void iv_text_recorder_free (IvTextRecorder *recorder);
/* @cr keeps a reference to nothing: the recorder must outlive the drawing on @cr. */
void iv_text_recorder_attach (IvTextRecorder *recorder, cairo_t *cr);
const IvTextBox *iv_text_recorder_boxes (const IvTextRecorder *recorder, guint *n_boxes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTextRecorder, iv_text_recorder_free)

/* pango_cairo_show_layout at the current point, recorded when @cr has a recorder. */
void iv_text_show_layout (cairo_t *cr, PangoLayout *layout, IvTextFlags allow);

/* Every figure's text goes to Pango through this: names from data may be invalid UTF-8
 * (json-glib passes an unpaired \ud800 through as raw bytes), which Pango would refuse
 * with a warning and draw as nothing. Invalid bytes become U+FFFD; valid text is set as is,
 * but for the symbols T_q, W_Q, W_K, W_V, W_O, W_gate, W_up and W_down standing alone (not
 * in "GEMM_T_qkv"), drawn as T or W with a subscript, as the command line's "T_q" is
 * typeset (no markup is parsed: names from data show as written). */
void iv_text_layout_set_text (PangoLayout *layout, const char *str);
/* The same symbols as Pango markup for a GTK label ("W<sub>Q</sub>"), everything else
 * escaped and invalid bytes as U+FFFD: the window names stages as the figures draw them. */
char *iv_text_symbols_markup (const char *str);

void iv_text_init (IvText *text, cairo_t *cr, double size_px);
void iv_text_clear (IvText *text);
void iv_text_measure (IvText *text, const char *str, double scale, gboolean bold, double max_width,
                      double *width, double *height);
void iv_text_show (IvText *text, cairo_t *cr, const char *str, double x, double y, double xalign,
                   double yalign, double scale, gboolean bold, double max_width,
                   const IvColor *color);

/* @str wrapped at word boundaries to lines at most @max_width wide (a title or subtitle on
 * a narrow page: the whole text, on as many lines as it takes); its size. */
void iv_text_measure_wrapped (IvText *text, const char *str, double scale, gboolean bold,
                              double max_width, double *width, double *height);
/* Draws it with its top-left corner at (@x, @y); returns its height. */
double iv_text_show_wrapped (IvText *text, cairo_t *cr, const char *str, double x, double y,
                             double scale, gboolean bold, double max_width, const IvColor *color);

/* A legend entry's label beside the swatch its caller drew at @x (14 px wide), centred
 * on @y; returns where the next entry's swatch goes. */
double iv_text_legend_label (IvText *text, cairo_t *cr, const char *label, double x, double y,
                             const IvColor *color);

G_END_DECLS
