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
  double width;   /* logical units: 1/96 in (a CSS pixel) */
  double height;
  double dpi;     /* PNG pixels per inch; 96 maps one unit to one pixel */
  IvRenderOptions render;
} IvExportOptions;

/* Sizes users pick most: a 16:9 slide and one or two journal columns. */
typedef struct
{
  const char *id;
  const char *label;
  double width;
  double height;
  double dpi;
} IvExportPreset;

#define IV_UNITS_PER_INCH 96.0

const IvExportPreset *iv_export_get_presets      (guint                 *n_presets);
const IvExportPreset *iv_export_find_preset      (const char            *id);
void                  iv_export_options_init     (IvExportOptions       *options);
gboolean              iv_export_format_from_path (const char            *path,
                                                  IvExportFormat        *format);
const char           *iv_export_format_to_string (IvExportFormat         format);
void                  iv_export_pixel_size       (const IvExportOptions *options,
                                                  int                   *width_px,
                                                  int                   *height_px);
cairo_surface_t      *iv_export_to_image         (const IvFigure        *figure,
                                                  const IvExportOptions *options,
                                                  GError               **error);
GBytes               *iv_export_to_png_bytes     (const IvFigure        *figure,
                                                  const IvExportOptions *options,
                                                  GError               **error);
gboolean              iv_export_to_file          (const IvFigure        *figure,
                                                  const IvExportOptions *options,
                                                  const char            *path,
                                                  GError               **error);

G_END_DECLS
