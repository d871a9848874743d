/* test-export.c: PNG, PDF and SVG come out valid and at the requested size, and a
 * failing drawing or a failing disk leaves no file (and no temporary) behind and the
 * previous file whole. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "iv-atomic-file.h"
#include "iv-export.h"
#include "iv-theme.h"
#include "iv-text.h"
#include "iv-preset.h"
#include "iv-model-figures.h"
#include "iv-render-model.h"
#include "iv-test-util.h"

static char *tmpdir;

/* Left half red, right half the theme's background: easy to probe by pixel. */
static gboolean
render_halves (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double w, double h,
               GError **error)
{
  iv_color_set_source (cr, &iv_theme_get_colors (options->theme)->background);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 1, 0, 0);
  cairo_rectangle (cr, 0, 0, w / 2, h);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_move_to (cr, 10, h - 10);
  cairo_set_font_size (cr, 14);
  cairo_show_text (cr, "Inferview");
  return TRUE;
}

static gboolean
render_fails (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double w, double h,
              GError **error)
{
  cairo_paint (cr);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no data to draw");
  return FALSE;
}

static const IvFigure halves = { render_halves, NULL, "halves", NULL };
static const IvFigure failing = { render_fails, NULL, "failing", NULL };

static char *
tmp (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *row = cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s);
  return ((const guint32 *) row)[x];
}

static void
test_png (void)
{
  g_autofree char *path = tmp ("fig.png");
  IvExportOptions opt;
  g_autoptr (GError) error = NULL;
  cairo_surface_t *back;

  iv_export_options_init (&opt);
  opt.width = 336; /* 3.5 in */
  opt.height = 252;
  opt.dpi = 300;
  g_assert_true (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_no_error (error);

  back = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (back), ==, CAIRO_STATUS_SUCCESS);
  /* 3.5 in × 300 DPI = 1050 px; 2.625 in × 300 = 787.5 → 788. */
  g_assert_cmpint (cairo_image_surface_get_width (back), ==, 1050);
  g_assert_cmpint (cairo_image_surface_get_height (back), ==, 788);
  g_assert_cmphex (pixel (back, 100, 300), ==, 0xffff0000);
  g_assert_cmphex (pixel (back, 1000, 300), ==, 0xffffffff);
  cairo_surface_destroy (back);
}

static void
test_png_dark (void)
{
  g_autofree char *path = tmp ("dark.png");
  IvExportOptions opt;
  cairo_surface_t *back;

  iv_export_options_init (&opt);
  opt.width = 200;
  opt.height = 100;
  opt.dpi = 96;
  opt.render.theme = IV_THEME_DARK;
  g_assert_true (iv_export_to_file (&halves, &opt, path, NULL));
  back = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_image_surface_get_width (back), ==, 200);
  g_assert_cmphex (pixel (back, 150, 20), ==, 0xff1e1e1e);
  cairo_surface_destroy (back);
}

/* Body text ("H" at the size every figure draws body text) at the top left. */
static gboolean
render_letter (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double w, double h,
               GError **error)
{
  IvText text;
  IvColor black = { 0, 0, 0, 1 };

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  iv_text_init (&text, cr, 13);
  iv_text_show (&text, cr, "H", 10, 10, 0, 0, 1, FALSE, 0, &black);
  iv_text_clear (&text);
  return TRUE;
}

/* Rows (or columns) from the first to the last holding a pixel unlike @background. */
static void
ink_extent (cairo_surface_t *s, guint32 background, int *x0, int *y0, int *x1, int *y1)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);

  *x0 = w, *y0 = h, *x1 = -1, *y1 = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (pixel (s, x, y) != background)
        *x0 = MIN (*x0, x), *x1 = MAX (*x1, x), *y0 = MIN (*y0, y), *y1 = MAX (*y1, y);
}

/* The slide preset: 13.33 × 7.5 in is a 1920 × 1080 PNG; body text is 18 pt on the page,
 * 36 px (an "H" at least 24 px tall would need a 34 px font; as drawn on screen it is 14
 * px); a figure lays itself out for the page: the pipeline's ink fills the canvas but
 * for margins of at most 5 %. */
static void
test_slide (void)
{
  const IvExportPreset *slide = iv_export_find_preset ("slide");
  static const IvFigure letter = { render_letter, NULL, "letter", NULL };
  IvExportOptions opt;
  cairo_surface_t *img;
  int x0, y0, x1, y1;

  g_assert_nonnull (slide);
  iv_export_options_init (&opt);
  opt.width = slide->width, opt.height = slide->height, opt.dpi = slide->dpi,
  opt.text_pt = slide->text_pt;
  g_assert_cmpfloat (slide->text_pt, >=, 18);
  img = iv_export_to_image (&letter, &opt, NULL);
  g_assert_cmpint (cairo_image_surface_get_width (img), ==, 1920);
  g_assert_cmpint (cairo_image_surface_get_height (img), ==, 1080);
  ink_extent (img, 0xffffffff, &x0, &y0, &x1, &y1);
  /* a cap height of 0.7 em: 36 px text has a 25 px "H"; anything under 24 px text fails */
  g_assert_cmpint (y1 - y0 + 1, >=, 17);
  cairo_surface_destroy (img);
  /* the same page as drawn on screen: half the size */
  opt.text_pt = 0;
  img = iv_export_to_image (&letter, &opt, NULL);
  ink_extent (img, 0xffffffff, &x0, &y0, &x1, &y1);
  g_assert_cmpint (y1 - y0 + 1, <, 17);
  cairo_surface_destroy (img);

  {
    const IvModel *m = iv_presets_find ("Llama-3.1-8B");
    IvConfig c;
    IvResult r;
    IvModelFigure fig;
    IvFigure pipeline = { iv_render_pipeline, &fig, "pipeline", NULL };

    iv_config_init (&c);
    c.mode = IV_MODE_PREFILL, c.T = 4096, c.t = 4;
    g_assert_true (iv_model_evaluate (m, iv_hardware_find ("ring4"), &c, &r));
    fig = (IvModelFigure){ &r, 0, IV_SWEEP_TP };
    opt.text_pt = slide->text_pt;
    img = iv_export_to_image (&pipeline, &opt, NULL);
    ink_extent (img, pixel (img, 0, 0), &x0, &y0, &x1, &y1);
    g_assert_cmpint (x0, <=, 1920 / 20);
    g_assert_cmpint (x1, >=, 1920 - 1920 / 20);
    g_assert_cmpint (y0, <=, 1080 / 20);
    g_assert_cmpint (y1, >=, 1080 - 1080 / 20);
    cairo_surface_destroy (img);
  }
}

/* Every figure of the Model registry exports at its default size with ink across it, from
 * the data its entry names: a figure added to the registry draws, or this fails. */
static void
test_model_figures (void)
{
  const IvModel *m = iv_presets_find ("Llama-3.1-8B");
  const IvHardware *hw = iv_hardware_find ("ring4");
  g_autoptr (IvServingCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  IvServingFigure serving;
  IvModelFigure fig;
  IvConfig c;
  IvResult r;
  guint n;
  const IvModelFigureInfo *figures = iv_model_figures (&n);

  iv_config_init (&c);
  c.mode = IV_MODE_PREFILL, c.T = 4096, c.t = 4;
  g_assert_true (iv_model_evaluate (m, hw, &c, &r));
  fig = (IvModelFigure){ &r, 0, IV_SWEEP_TP };
  curve = iv_serving_compute (m, hw, &c, 1000, 1000, &error);
  g_assert_no_error (error);
  serving = (IvServingFigure){ curve, NULL, 0, NULL };
  g_assert_cmpuint (n, >=, 8);
  for (guint i = 0; i < n; i++)
    {
      IvFigure f = { figures[i].render,
                     figures[i].input == IV_MODEL_FIGURE_OF_SERVING ? (gconstpointer) &serving
                                                                    : (gconstpointer) &fig,
                     figures[i].name, NULL };
      IvExportOptions opt;
      cairo_surface_t *img;
      int x0, y0, x1, y1;

      g_assert_true (iv_model_figure_find (figures[i].name) == &figures[i]);
      g_assert_nonnull (figures[i].title);
      iv_export_options_init (&opt);
      opt.width = figures[i].width, opt.height = figures[i].height, opt.dpi = 96;
      img = iv_export_to_image (&f, &opt, &error);
      g_assert_no_error (error);
      g_assert_nonnull (img);
      g_assert_cmpint (cairo_image_surface_get_width (img), ==, (int) figures[i].width);
      g_assert_cmpint (cairo_image_surface_get_height (img), ==, (int) figures[i].height);
      ink_extent (img, pixel (img, 0, 0), &x0, &y0, &x1, &y1);
      g_assert_cmpint (x1 - x0, >, figures[i].width / 2);
      cairo_surface_destroy (img);
    }
  g_assert_null (iv_model_figure_find ("sankey"));
  {
    g_autofree char *names = iv_model_figure_names ();
    g_assert_true (g_str_has_prefix (names, "pipeline, stages, "));
    g_assert_true (g_str_has_suffix (names, " or serving"));
  }
}

static char *
run (const char *cmdline)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;
  g_autoptr (GError) error = NULL;

  if (!g_spawn_command_line_sync (cmdline, &out, &err, &status, &error))
    return NULL;
  if (!g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_steal_pointer (&out);
}

static void
test_pdf (void)
{
  g_autofree char *path = tmp ("fig.pdf");
  g_autofree char *cmd = NULL;
  g_autofree char *info = NULL;
  IvExportOptions opt;
  g_autoptr (GError) error = NULL;

  iv_export_options_init (&opt);
  g_assert_true (iv_export_format_from_path (path, &opt.format));
  g_assert_cmpint (opt.format, ==, IV_EXPORT_PDF);
  opt.width = 672;  /* 7 in */
  opt.height = 336; /* 3.5 in */
  g_assert_true (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_no_error (error);

  g_autofree char *pdfinfo = g_find_program_in_path ("pdfinfo");
  if (!pdfinfo)
    {
      g_test_skip ("pdfinfo (poppler-utils) is not installed");
      return;
    }
  cmd = g_strdup_printf ("pdfinfo '%s'", path);
  info = run (cmd);
  g_assert_nonnull (info);
  /* 7 in × 72 = 504 pt, 3.5 in = 252 pt. */
  g_assert_true (g_regex_match_simple ("^Page size: +504 x 252 pts$", info, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Pages: +1$", info, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Creator: +Inferview ", info, G_REGEX_MULTILINE, 0));
  g_free (cmd);
  g_free (info);
  /* Text drawn with cairo's toy API is still embedded as a font. */
  cmd = g_strdup_printf ("pdffonts '%s'", path);
  info = run (cmd);
  g_assert_nonnull (info);
  g_assert_true (g_regex_match_simple ("TrueType +WinAnsi +yes", info, 0, 0));
}

typedef struct
{
  gboolean saw_svg;
  char *width;
  char *height;
} SvgCheck;

static void
svg_start (GMarkupParseContext *ctx, const char *name, const char **attr_names,
           const char **attr_values, gpointer data, GError **error)
{
  SvgCheck *c = data;

  if (!c->saw_svg && g_str_equal (name, "svg"))
    {
      c->saw_svg = TRUE;
      for (guint i = 0; attr_names[i]; i++)
        {
          if (g_str_equal (attr_names[i], "width"))
            c->width = g_strdup (attr_values[i]);
          else if (g_str_equal (attr_names[i], "height"))
            c->height = g_strdup (attr_values[i]);
        }
    }
}

static void
test_svg (void)
{
  g_autofree char *path = tmp ("fig.svg");
  g_autofree char *text = NULL;
  IvExportOptions opt;
  GMarkupParser parser = { svg_start };
  SvgCheck check = { 0 };
  GMarkupParseContext *ctx;
  g_autoptr (GError) error = NULL;

  iv_export_options_init (&opt);
  opt.format = IV_EXPORT_SVG;
  opt.width = 480;
  opt.height = 240;
  g_assert_true (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  ctx = g_markup_parse_context_new (&parser, 0, &check, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, text, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
  g_assert_true (check.saw_svg);
  /* 480 units = 5 in = 360 pt. */
  g_assert_cmpstr (check.width, ==, "360pt");
  g_assert_cmpstr (check.height, ==, "180pt");
  g_free (check.width);
  g_free (check.height);
}

static guint
count_files (void)
{
  g_autoptr (GDir) d = g_dir_open (tmpdir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d))
    n++;
  return n;
}

static void
test_failure_leaves_nothing (void)
{
  IvExportOptions opt;
  const IvExportFormat formats[] = { IV_EXPORT_PNG, IV_EXPORT_PDF, IV_EXPORT_SVG };
  const char *names[] = { "bad.png", "bad.pdf", "bad.svg" };

  iv_export_options_init (&opt);
  opt.width = 100;
  opt.height = 100;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = tmp (names[i]);
      g_autoptr (GError) error = NULL;
      guint before = count_files ();

      opt.format = formats[i];
      g_assert_false (iv_export_to_file (&failing, &opt, path, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, names[i]));
      g_assert_nonnull (strstr (error->message, "no data to draw"));
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (count_files (), ==, before);
    }
}

static void
test_failure_keeps_previous_file (void)
{
  g_autofree char *path = tmp ("keep.png");
  g_autofree char *contents = NULL;
  IvExportOptions opt;

  g_assert_true (g_file_set_contents (path, "previous", -1, NULL));
  iv_export_options_init (&opt);
  opt.width = 50;
  opt.height = 50;
  g_assert_false (iv_export_to_file (&failing, &opt, path, NULL));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous");
}

static void
test_bad_options (void)
{
  g_autofree char *path = tmp ("huge.png");
  IvExportOptions opt;
  g_autoptr (GError) error = NULL;

  iv_export_options_init (&opt);
  opt.width = 16000;
  opt.height = 100;
  opt.dpi = 600;
  g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_nonnull (strstr (error->message, "larger than a PNG"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  opt.width = 0;
  g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_nonnull (strstr (error->message, "not a positive size"));
  g_clear_error (&error);
  /* so large a PNG's pixel count is past int: refused, not wrapped round to a small one */
  opt.width = 1e15;
  g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
  g_assert_nonnull (strstr (error->message, "larger than a PNG"));
}

/* A PDF or SVG is capped like a PNG: at 1e9 units a trace took minutes and gigabytes,
 * at 1e15 a blank page came out with success. Refused at once, nothing written. */
static void
test_vector_cap (void)
{
  static const IvExportFormat formats[] = { IV_EXPORT_PDF, IV_EXPORT_SVG };
  static const char *const names[] = { "huge.pdf", "huge.svg" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = tmp (names[i]);
      g_autoptr (GError) error = NULL;
      IvExportOptions opt;

      iv_export_options_init (&opt);
      opt.format = formats[i];
      opt.width = 1e9;
      opt.height = 300;
      g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
      g_assert_nonnull (strstr (error->message, names[i]));
      g_assert_nonnull (strstr (error->message, "page can be"));
      g_clear_error (&error);
      opt.width = 400;
      opt.height = 1e15;
      g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
      /* the largest allowed is drawn */
      opt.width = IV_EXPORT_MAX_VECTOR_UNITS;
      opt.height = 300;
      g_assert_true (iv_export_to_file (&halves, &opt, path, NULL));
      g_remove (path);
    }
}

static void
test_png_bytes (void)
{
  IvExportOptions opt;
  g_autoptr (GBytes) png = NULL;
  const guint8 *data;

  iv_export_options_init (&opt);
  opt.width = 64;
  opt.height = 32;
  opt.dpi = 192;
  png = iv_export_to_png_bytes (&halves, &opt, NULL);
  g_assert_nonnull (png);
  data = g_bytes_get_data (png, NULL);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  /* IHDR width and height, big-endian, at bytes 16–23: 128 × 64. */
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 16)), ==, 128);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 20)), ==, 64);
}

static void
test_format_from_path (void)
{
  IvExportFormat f;
  g_assert_true (iv_export_format_from_path ("a/b/FIG.PNG", &f));
  g_assert_cmpint (f, ==, IV_EXPORT_PNG);
  g_assert_true (iv_export_format_from_path ("x.svg", &f));
  g_assert_cmpint (f, ==, IV_EXPORT_SVG);
  g_assert_false (iv_export_format_from_path ("x.jpeg", &f));
  g_assert_nonnull (iv_export_find_preset ("single-column"));
  g_assert_cmpfloat (iv_export_find_preset ("single-column")->width, ==, 336);
  g_assert_null (iv_export_find_preset ("a4"));
}

static void
test_atomic_file (void)
{
  g_autofree char *path = tmp ("atomic.txt");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;

  {
    g_autoptr (IvAtomicFile) f = iv_atomic_file_new (path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 1);
    g_assert_true (iv_atomic_file_write (f, "half", 4, &error));
    /* dropped without commit: nothing appears and the temporary goes */
  }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
  g_assert_true (iv_atomic_file_set_contents (path, "done", -1, &error));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "done");
  g_assert_false (iv_atomic_file_set_contents ("/nonexistent-dir/x.txt", "x", -1, &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.txt"));
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
}

/* A folder, a FIFO or a device is never replaced; a symlink's target is written. */
static void
test_atomic_destinations (void)
{
  g_autofree char *fifo = tmp ("pipe");
  g_autofree char *target = tmp ("target.txt");
  g_autofree char *link = tmp ("link.txt");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_false (iv_atomic_file_set_contents (tmpdir, "x", -1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_assert_nonnull (strstr (error->message, "is a folder"));
  g_clear_error (&error);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (iv_atomic_file_set_contents (fifo, "x", -1, &error));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_assert_nonnull (strstr (error->message, "pipe"));
  g_clear_error (&error);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink (target, link), ==, 0);
  g_assert_true (iv_atomic_file_set_contents (link, "new", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "new");
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
}

/* The replacement keeps the file's permissions: a private file stays private. */
static void
test_atomic_mode (void)
{
  static const guint modes[] = { 0600, 0640, 0444 };
  g_autofree char *path = tmp ("private.json");
  GStatBuf st;

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (g_file_set_contents (path, "old", -1, NULL));
      g_assert_cmpint (g_chmod (path, (int) modes[i]), ==, 0);
      g_assert_true (iv_atomic_file_set_contents (path, "new", -1, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpuint (st.st_mode & 07777, ==, modes[i]);
      g_remove (path);
    }
  /* a new file is made as any other: 0666 less the umask */
  {
    mode_t mask = umask (022);
    g_assert_true (iv_atomic_file_set_contents (path, "fresh", -1, NULL));
    umask (mask);
    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpuint (st.st_mode & 07777, ==, 0644);
    g_remove (path);
  }
}

/* A file with a second name (a hard link) is not replaced: the rename would leave the
 * other name with the old contents. Refused, naming the file and why; both names keep
 * their contents and no temporary is left. */
static void
test_atomic_hard_link (void)
{
  g_autofree char *path = tmp ("linked.json");
  g_autofree char *other = tmp ("other-name.json");
  g_autofree char *a = NULL, *b = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "shared", -1, NULL));
  g_assert_cmpint (link (path, other), ==, 0);
  g_assert_false (iv_atomic_file_set_contents (path, "new", -1, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "linked.json"));
  g_assert_nonnull (strstr (error->message, "hard links"));
  g_assert_true (g_file_get_contents (path, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (other, &b, NULL, NULL));
  g_assert_cmpstr (a, ==, "shared");
  g_assert_cmpstr (b, ==, "shared");
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
  /* one name again: written */
  g_remove (other);
  g_assert_true (iv_atomic_file_set_contents (path, "new", -1, NULL));
  g_remove (path);
}

/* A dangling link (a dotfile whose target is not made yet, or was set aside): the target
 * is created and the link stays a link; relative targets are relative to the link's
 * folder, chains are followed to the end. */
static void
test_atomic_dangling_link (void)
{
  g_autofree char *sub = tmp ("dotfiles");
  g_autofree char *target = g_build_filename (sub, "conf.json", NULL);
  g_autofree char *link = tmp ("conf-link.json");
  g_autofree char *link2 = tmp ("conf-link2.json");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (symlink ("dotfiles/conf.json", link), ==, 0);
  g_assert_cmpint (symlink ("conf-link.json", link2), ==, 0);
  g_assert_true (iv_atomic_file_set_contents (link2, "made", -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpint (g_lstat (link2, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpint (g_lstat (target, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "made");
  g_assert_cmpuint (iv_test_count_hidden (sub), ==, 0);
  g_remove (link2);
  g_remove (link);
  g_remove (target);
  g_rmdir (sub);

  /* a loop is said, not followed forever */
  g_assert_cmpint (symlink ("loop-b", link), ==, 0);
  {
    g_autofree char *b = tmp ("loop-b");
    g_assert_cmpint (symlink ("conf-link.json", b), ==, 0);
    g_assert_false (iv_atomic_file_set_contents (link, "x", -1, &error));
    g_assert_nonnull (strstr (error->message, "symbolic links"));
    g_remove (b);
  }
  g_remove (link);
}

/* NO_REPLACE: a name something already has — a file, a link — is never replaced. */
static void
test_atomic_no_replace (void)
{
  g_autofree char *path = tmp ("kept.corrupt");
  g_autofree char *victim = tmp ("victim.txt");
  g_autofree char *link = tmp ("link.corrupt");
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  {
    g_autoptr (IvAtomicFile) f = iv_atomic_file_new_full (path, IV_ATOMIC_FILE_NO_REPLACE, &error);
    g_assert_no_error (error);
    iv_atomic_file_set_mode (f, 0600);
    g_assert_true (iv_atomic_file_write (f, "first", 5, NULL));
    g_assert_true (iv_atomic_file_commit (f, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 07777, ==, 0600);
  {
    g_autoptr (IvAtomicFile) f = iv_atomic_file_new_full (path, IV_ATOMIC_FILE_NO_REPLACE, NULL);
    g_assert_true (iv_atomic_file_write (f, "second", 6, NULL));
    g_assert_false (iv_atomic_file_commit (f, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_set_contents (victim, "victim", -1, NULL));
  g_assert_cmpint (symlink (victim, link), ==, 0);
  {
    g_autoptr (IvAtomicFile) f = iv_atomic_file_new_full (link, IV_ATOMIC_FILE_NO_REPLACE, NULL);
    g_assert_true (iv_atomic_file_write (f, "x", 1, NULL));
    g_assert_false (iv_atomic_file_commit (f, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST);
  }
  g_assert_true (g_file_get_contents (victim, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "victim");
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
  g_remove (link);
  g_remove (victim);
  g_remove (path);
}

/* What a signal handler calls: every temporary of a write in progress goes (the commit
 * then fails rather than publishing nothing); writes done and dropped are unlisted. */
static void
test_atomic_remove_pending (void)
{
  g_autofree char *a = tmp ("pending-a.svg");
  g_autofree char *b = tmp ("pending-b.svg");
  g_autoptr (IvAtomicFile) fa = iv_atomic_file_new (a, NULL);
  g_autoptr (IvAtomicFile) fb = iv_atomic_file_new (b, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (iv_atomic_file_write (fa, "<svg", 4, NULL));
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 2);
  iv_atomic_file_remove_pending ();
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
  g_assert_false (iv_atomic_file_commit (fa, &error));
  g_assert_false (g_file_test (a, G_FILE_TEST_EXISTS));
  g_clear_pointer (&fa, iv_atomic_file_free);
  g_clear_pointer (&fb, iv_atomic_file_free);
  /* a committed file is no longer listed: removing the pending ones leaves it */
  g_assert_true (iv_atomic_file_set_contents (a, "done", -1, NULL));
  iv_atomic_file_remove_pending ();
  g_assert_true (g_file_test (a, G_FILE_TEST_IS_REGULAR));
  /* more writes at once than the table holds still work */
  {
    IvAtomicFile *many[40];
    for (guint i = 0; i < G_N_ELEMENTS (many); i++)
      {
        g_autofree char *name = g_strdup_printf ("many-%u", i);
        g_autofree char *path = tmp (name);
        many[i] = iv_atomic_file_new (path, NULL);
        g_assert_nonnull (many[i]);
      }
    for (guint i = 0; i < G_N_ELEMENTS (many); i++)
      {
        g_autofree char *name = g_strdup_printf ("many-%u", i);
        g_autofree char *path = tmp (name);
        iv_atomic_file_free (many[i]);
        g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      }
  }
  g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
  g_remove (a);
}

/* Under a file-size limit every format fails with the file's name and the reason, the
 * previous file stays whole and no temporary is left. Run in a child process: the limit
 * must not outlive the test. */
static void
test_write_failure (void)
{
  static const IvExportFormat formats[] = { IV_EXPORT_PNG, IV_EXPORT_PDF, IV_EXPORT_SVG };
  static const char *const names[] = { "limit.png", "limit.pdf", "limit.svg" };

  if (g_test_subprocess ())
    {
      struct rlimit lim = { 300, 300 };
      signal (SIGXFSZ, SIG_IGN);
      for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        {
          g_autofree char *path = tmp (names[i]);
          g_autofree char *contents = NULL;
          g_autoptr (GError) error = NULL;
          IvExportOptions opt;

          g_assert_true (g_file_set_contents (path, "previous figure", -1, NULL));
          g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &lim), ==, 0);
          iv_export_options_init (&opt);
          opt.format = formats[i];
          opt.width = 400;
          opt.height = 300;
          g_assert_false (iv_export_to_file (&halves, &opt, path, &error));
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, names[i]));
          g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
          g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
          g_assert_cmpstr (contents, ==, "previous figure");
          g_assert_cmpuint (iv_test_count_hidden (tmpdir), ==, 0);
        }
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-export-XXXXXX");
  g_test_add_func ("/export/png", test_png);
  g_test_add_func ("/export/png-dark", test_png_dark);
  g_test_add_func ("/export/slide", test_slide);
  g_test_add_func ("/export/model-figures", test_model_figures);
  g_test_add_func ("/export/pdf", test_pdf);
  g_test_add_func ("/export/svg", test_svg);
  g_test_add_func ("/export/failure-leaves-nothing", test_failure_leaves_nothing);
  g_test_add_func ("/export/failure-keeps-previous-file", test_failure_keeps_previous_file);
  g_test_add_func ("/export/bad-options", test_bad_options);
  g_test_add_func ("/export/png-bytes", test_png_bytes);
  g_test_add_func ("/export/format-from-path", test_format_from_path);
  g_test_add_func ("/export/atomic-file", test_atomic_file);
  g_test_add_func ("/export/atomic-destinations", test_atomic_destinations);
  g_test_add_func ("/export/write-failure", test_write_failure);
  g_test_add_func ("/export/vector-cap", test_vector_cap);
  g_test_add_func ("/export/atomic-mode", test_atomic_mode);
  g_test_add_func ("/export/atomic-hard-link", test_atomic_hard_link);
  g_test_add_func ("/export/atomic-dangling-link", test_atomic_dangling_link);
  g_test_add_func ("/export/atomic-no-replace", test_atomic_no_replace);
  g_test_add_func ("/export/atomic-remove-pending", test_atomic_remove_pending);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
