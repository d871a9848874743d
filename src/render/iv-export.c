/* iv-export.c: the one export path of every figure. The renderer draws in logical units;
 * here they are mapped to pixels (PNG, scaled by DPI) or to points (PDF/SVG, 72 per inch),
 * so a figure has the same proportions and text sizes in every format. Files are drawn
 * under a temporary name and renamed only when cairo reports no error. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "iv-atomic-file.h"

#define POINTS_PER_UNIT (72.0 / IV_UNITS_PER_INCH)

static const IvExportPreset presets[] = {
  /* 13.33 × 7.5 in at 144 dpi is a 1920 × 1080 PNG */
  { "slide", "Slide (13.33 × 7.5 in, 18 pt text)", 40.0 / 3 * IV_UNITS_PER_INCH,
    7.5 * IV_UNITS_PER_INCH, 144, 18 },
  { "single-column", "Paper, single column (3.5 in, 8.5 pt text)", 3.5 * IV_UNITS_PER_INCH,
    3.5 * IV_UNITS_PER_INCH * 0.75, 300, 8.5 },
  { "double-column", "Paper, double column (7 in, 9 pt text)", 7.0 * IV_UNITS_PER_INCH,
    7.0 * IV_UNITS_PER_INCH * 0.45, 300, 9 },
};

const IvExportPreset *
iv_export_get_presets (guint *n_presets)
{
  *n_presets = G_N_ELEMENTS (presets);
  return presets;
}

const IvExportPreset *
iv_export_find_preset (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (id && strcmp (presets[i].id, id) == 0)
      return &presets[i];
  return NULL;
}

void
iv_export_options_init (IvExportOptions *options)
{
  memset (options, 0, sizeof *options);
  options->format = IV_EXPORT_PNG;
  options->width = presets[0].width;
  options->height = presets[0].height;
  options->dpi = presets[0].dpi;
  options->text_pt = 0;
  options->render.theme = IV_THEME_LIGHT;
  options->render.font_scale = 1.0;
}

gboolean
iv_export_format_from_path (const char *path, IvExportFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *format = IV_EXPORT_PNG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = IV_EXPORT_PDF;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = IV_EXPORT_SVG;
  else
    return FALSE;
  return TRUE;
}

const char *
iv_export_format_to_string (IvExportFormat format)
{
  switch (format)
    {
    case IV_EXPORT_PDF:
      return "pdf";
    case IV_EXPORT_SVG:
      return "svg";
    case IV_EXPORT_PNG:
    default:
      return "png";
    }
}

static int
pixels (double units, double scale)
{
  double px = ceil (units * scale - 1e-9);
  /* a double past int's range converts to anything (undefined behaviour) */
  return px < (double) G_MAXINT ? (int) px : G_MAXINT;
}

void
iv_export_pixel_size (const IvExportOptions *options, int *width_px, int *height_px)
{
  double scale = options->dpi / IV_UNITS_PER_INCH;
  *width_px = pixels (options->width, scale);
  *height_px = pixels (options->height, scale);
}

static gboolean
check_options (const IvExportOptions *options, GError **error)
{
  int w, h;

  if (!(options->width >= 1 && options->height >= 1 && isfinite (options->width)
        && isfinite (options->height)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the figure size %g × %g is not a positive size", options->width,
                   options->height);
      return FALSE;
    }
  if (options->text_pt != 0 && !(options->text_pt >= 4 && options->text_pt <= 72))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "a text size of %g pt is outside 4 … 72", options->text_pt);
      return FALSE;
    }
  if (options->format != IV_EXPORT_PNG)
    {
      if (options->width > IV_EXPORT_MAX_VECTOR_UNITS
          || options->height > IV_EXPORT_MAX_VECTOR_UNITS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "the figure size %g × %g is larger than %s page can be (%g a side: "
                       "200 in)",
                       options->width, options->height,
                       options->format == IV_EXPORT_PDF ? "a PDF" : "an SVG",
                       IV_EXPORT_MAX_VECTOR_UNITS);
          return FALSE;
        }
      return TRUE;
    }
  if (!(options->dpi >= 10 && options->dpi <= 2400))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "a resolution of %g DPI is outside 10 … 2400", options->dpi);
      return FALSE;
    }
  iv_export_pixel_size (options, &w, &h);
  if (w > IV_EXPORT_MAX_PIXELS || h > IV_EXPORT_MAX_PIXELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%d × %d pixels is larger than a PNG can be drawn (%d a side)", w, h,
                   IV_EXPORT_MAX_PIXELS);
      return FALSE;
    }
  return TRUE;
}

double
iv_export_zoom (const IvExportOptions *options)
{
  return options->text_pt > 0 && isfinite (options->text_pt)
             ? options->text_pt / IV_EXPORT_SCREEN_PT
             : 1.0;
}

gboolean
iv_export_render (cairo_t *cr, const IvFigure *figure, const IvExportOptions *options,
                  GError **error)
{
  double zoom = iv_export_zoom (options);
  gboolean ok;

  cairo_save (cr);
  cairo_scale (cr, zoom, zoom);
  ok = figure->render (cr, figure->data, &options->render, options->width / zoom,
                       options->height / zoom, error);
  cairo_restore (cr);
  return ok;
}

/* Draws the figure; FALSE when the renderer or cairo failed. */
static gboolean
draw (cairo_surface_t *surface, double scale, const IvFigure *figure,
      const IvExportOptions *options, GError **error)
{
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status;
  gboolean ok;

  cairo_scale (cr, scale, scale);
  ok = iv_export_render (cr, figure, options, error);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (ok && status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "drawing failed: %s",
                   cairo_status_to_string (status));
      ok = FALSE;
    }
  else if (!ok && error && !*error)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the figure could not be drawn");
  return ok;
}

cairo_surface_t *
iv_export_to_image (const IvFigure *figure, const IvExportOptions *options, GError **error)
{
  IvExportOptions png = *options;
  cairo_surface_t *surface;
  int w, h;

  g_return_val_if_fail (figure != NULL && figure->render != NULL, NULL);
  png.format = IV_EXPORT_PNG;
  if (!check_options (&png, error))
    return NULL;
  iv_export_pixel_size (&png, &w, &h);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "cannot allocate %d × %d pixels", w, h);
      cairo_surface_destroy (surface);
      return NULL;
    }
  if (!draw (surface, png.dpi / IV_UNITS_PER_INCH, figure, &png, error))
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  return surface;
}

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
iv_export_to_png_bytes (const IvFigure *figure, const IvExportOptions *options, GError **error)
{
  cairo_surface_t *surface = iv_export_to_image (figure, options, error);
  g_autoptr (GByteArray) out = NULL;
  cairo_status_t status;

  if (!surface)
    return NULL;
  out = g_byte_array_new ();
  status = cairo_surface_write_to_png_stream (surface, append_bytes, out);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "PNG encoding failed: %s",
                   cairo_status_to_string (status));
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* cairo's stream callback: the atomic file keeps the first error, and cairo stops
 * writing (and reports WRITE_ERROR at finish) once this says so. */
static cairo_status_t
write_to_file (void *closure, const unsigned char *data, unsigned int length)
{
  return iv_atomic_file_write (closure, data, length, NULL) ? CAIRO_STATUS_SUCCESS
                                                            : CAIRO_STATUS_WRITE_ERROR;
}

static gboolean
export_vector (const IvFigure *figure, const IvExportOptions *options, IvAtomicFile *file,
               GError **error)
{
  double w_pt = options->width * POINTS_PER_UNIT;
  double h_pt = options->height * POINTS_PER_UNIT;
  cairo_surface_t *surface;
  cairo_status_t status;
  gboolean ok;

  if (options->format == IV_EXPORT_PDF)
    {
      surface = cairo_pdf_surface_create_for_stream (write_to_file, file, w_pt, h_pt);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR,
                                      "Inferview " PACKAGE_VERSION);
      if (figure->name)
        cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, figure->name);
    }
  else
    {
      surface = cairo_svg_surface_create_for_stream (write_to_file, file, w_pt, h_pt);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PT);
    }
  ok = draw (surface, POINTS_PER_UNIT, figure, options, error);
  /* finish() flushes the document: write errors only show up here. */
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (ok && status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the %s failed: %s",
                   iv_export_format_to_string (options->format), cairo_status_to_string (status));
      ok = FALSE;
    }
  return ok;
}

gboolean
iv_export_to_file (const IvFigure *figure, const IvExportOptions *options, const char *path,
                   GError **error)
{
  g_autoptr (IvAtomicFile) file = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *display = NULL;
  gboolean ok;

  g_return_val_if_fail (figure != NULL && figure->render != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  display = g_filename_display_name (path);
  if (!check_options (options, &local))
    goto fail;
  file = iv_atomic_file_new (path, error);
  if (!file)
    return FALSE;

  if (options->format == IV_EXPORT_PNG)
    {
      cairo_surface_t *surface = iv_export_to_image (figure, options, &local);
      cairo_status_t status;

      if (!surface)
        goto fail;
      status = cairo_surface_write_to_png_stream (surface, write_to_file, file);
      cairo_surface_destroy (surface);
      ok = status == CAIRO_STATUS_SUCCESS;
      if (!ok && !iv_atomic_file_failed (file))
        g_set_error (&local, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the PNG failed: %s",
                     cairo_status_to_string (status));
    }
  else
    ok = export_vector (figure, options, file, &local);

  /* A write error is the file's own sentence (it names the file and errno); the commit
   * reports it. Anything else failed before a byte could matter. */
  if (!ok && !iv_atomic_file_failed (file))
    goto fail;
  g_clear_error (&local);
  return iv_atomic_file_commit (file, error);

fail:
  /* The temporary file, if any, goes with @file. */
  g_set_error (error, local->domain, local->code, "%s: %s", display, local->message);
  return FALSE;
}
