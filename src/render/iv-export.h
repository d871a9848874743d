/* iv-export.h: draw any figure to PNG, PDF or SVG, written atomically. */
#pragma once

#include <gio/gio.h>

#include "iv-render.h"

G_BEGIN_DECLS

typedef enum
{
  IV_EXPORT_PNG,
  IV_EXPORT_PDF,
  IV_EXPORT_SVG,
} IvExportFormat;

typedef struct
{
  IvExportFormat format;
  double width; /* logical units: 1/96 in (a CSS pixel) */
  double height;
  double dpi;     /* PNG pixels per inch; 96 maps one unit to one pixel */
  double text_pt; /* body text in points on the page; 0: as on screen (IV_EXPORT_SCREEN_PT) */
  IvRenderOptions render;
} IvExportOptions;

/* Sizes by the page they land on: a 13.33 × 7.5 in slide with 18 pt text, one or two
 * journal columns with 8.5–9 pt text. */
typedef struct
{
  const char *id;
  const char *label;
  double width;
  double height;
  double dpi;
  double text_pt;
} IvExportPreset;

#define IV_UNITS_PER_INCH 96.0
/* The largest figures drawn. A PNG: cairo's image surfaces stop at 32767 pixels a side. A
 * PDF or SVG: 200 in a side (19200 units, 14400 pt), the largest page PDF readers open
 * (Acrobat's limit); past it the drawing only costs time and memory — at 1e9 units a
 * trace took minutes and gigabytes, and cairo's fixed-point coordinates gave a blank
 * page at 1e15. */
#define IV_EXPORT_MAX_PIXELS 32767
#define IV_EXPORT_MAX_VECTOR_UNITS 19200.0
/* Figures draw body text at 13 units: 9.75 pt on a page at 96 units per inch. */
#define IV_EXPORT_SCREEN_PT 9.75

const IvExportPreset *iv_export_get_presets (guint *n_presets);
const IvExportPreset *iv_export_find_preset (const char *id);
void iv_export_options_init (IvExportOptions *options);
gboolean iv_export_format_from_path (const char *path, IvExportFormat *format);
const char *iv_export_format_to_string (IvExportFormat format);
/* How much the figure is enlarged so its body text has @options' size on the page: the
 * figure lays itself out for its size divided by this, then is scaled up by it. */
double iv_export_zoom (const IvExportOptions *options);
/* Draws @figure on @cr, whose units are the page's (1/96 in), as the file would have it. */
gboolean iv_export_render (cairo_t *cr, const IvFigure *figure, const IvExportOptions *options,
                           GError **error);
/* The PNG's size in pixels; G_MAXINT where it would be larger (so a check against
 * IV_EXPORT_MAX_PIXELS refuses it rather than an overflow passing it). */
void iv_export_pixel_size (const IvExportOptions *options, int *width_px, int *height_px);
cairo_surface_t *iv_export_to_image (const IvFigure *figure, const IvExportOptions *options,
                                     GError **error);
GBytes *iv_export_to_png_bytes (const IvFigure *figure, const IvExportOptions *options,
                                GError **error);
gboolean iv_export_to_file (const IvFigure *figure, const IvExportOptions *options,
                            const char *path, GError **error);

G_END_DECLS
