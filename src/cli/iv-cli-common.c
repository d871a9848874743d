/* iv-cli-common.c: what every sub-command does the same way — parse its options, refuse
 * a usage error with a pointer to --help, report a failure, read a number with units,
 * read the options of a figure to draw, print JSON. One place, so every command answers
 * alike. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-private.h"
#include "iv-cli.h"
#include "iv-json-writer.h"
#include "iv-safe-text.h"
#include "iv-theme.h"
#include "iv-units.h"

gboolean
_iv_cli_parse (const char *command, const char *summary, const GOptionEntry *entries, int *argc,
               char ***argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;

  if (summary)
    g_option_context_set_summary (ctx, summary);
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      _iv_cli_usage_error (command, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
_iv_cli_parse_listing (const char *command, const char *summary, const char *no_paths,
                       gboolean *json, char ***paths, int argc, char **argv)
{
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, json, N_ ("Print JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, paths, NULL, N_ ("PATH…") },
    { NULL },
  };

  if (!paths)
    entries[1] = (GOptionEntry){ NULL };
  if (!_iv_cli_parse (command, summary, entries, &argc, &argv))
    return FALSE;
  if (paths && (!*paths || !(*paths)[0]))
    {
      _iv_cli_usage_error (command, "%s", no_paths);
      return FALSE;
    }
  if (!paths && argc > 1)
    {
      _iv_cli_usage_error (command, _ ("unexpected argument “%s”"), argv[1]);
      return FALSE;
    }
  return TRUE;
}

/* @format's text with the newlines @format itself begins and ends with kept, and all in
 * between made printable: those newlines are the lines the caller writes, the rest may
 * hold names, paths and messages from data, whose ESC, BEL or newline must not reach a
 * terminal or a text file as such. */
static char *printable_vprintf (const char *format, va_list args) G_GNUC_PRINTF (1, 0);

static char *
printable_vprintf (const char *format, va_list args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  g_autofree char *middle = NULL, *printable = NULL;
  gsize len = strlen (text), flen = strlen (format), head = 0, tail = 0;

  while (head < flen && format[head] == '\n')
    head++;
  while (tail < flen - head && format[flen - 1 - tail] == '\n')
    tail++;
  if (head + tail > len) /* cannot happen: the format's own newlines are in its text */
    head = tail = 0;
  middle = g_strndup (text + head, len - head - tail);
  printable = iv_text_printable (middle);
  return g_strdup_printf ("%.*s%s%.*s", (int) head, text, printable, (int) tail, text + len - tail);
}

char *
_iv_cli_printable (const char *format, ...)
{
  char *text;
  va_list args;

  va_start (args, format);
  text = printable_vprintf (format, args);
  va_end (args);
  return text;
}

void
_iv_cli_put (FILE *out, char *text)
{
  fputs (text, out);
  g_free (text);
}

void
_iv_cli_append (GString *string, char *text)
{
  g_string_append (string, text);
  g_free (text);
}

int
_iv_cli_usage_error (const char *command, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  _iv_cli_printf (stderr, "inferview %s: %s\n", command, message);
  fprintf (stderr, _ ("Try “inferview %s --help”.\n"), command);
  return IV_EXIT_USAGE;
}

void
_iv_cli_print_error (const GError *error)
{
  _iv_cli_printf (stderr, "inferview: %s\n", error->message);
}

gboolean
_iv_cli_number (const char *command, const char *option, const char *text, gboolean allow_zero,
                double *out)
{
  double v;

  if (!text)
    return TRUE;
  if (!iv_units_parse (text, &v) || v < 0 || (v == 0 && !allow_zero))
    {
      _iv_cli_printf (stderr,
                      "inferview %s: --%s: “%s” is not a %s number (e.g. 100T, 1e12, 1us, 64GiB)\n",
                      command, option, text, allow_zero ? "non-negative" : "positive");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
_iv_cli_output_is_folder (const char *command, const char *output)
{
  g_autofree char *display = NULL;
  g_autofree char *example = NULL;

  if (!output || !g_file_test (output, G_FILE_TEST_IS_DIR))
    return FALSE;
  display = g_filename_display_name (output);
  example = g_build_filename (display, "figure.png", NULL);
  _iv_cli_printf (
      stderr, _ ("inferview %s: %s: is a folder; -o names the figure file to write (e.g. %s)\n"),
      command, display, example);
  return TRUE;
}

/* Every figure kind (plot, trace, model) is capped here, before any data is read, with
 * the option to change: a PDF or SVG 1e9 units wide took minutes and gigabytes to draw,
 * and at 1e15 came out blank with success. */
static int
check_figure_size (const char *command, const IvCliFigureArgs *args, const IvExportOptions *eo)
{
  if (eo->format != IV_EXPORT_PNG)
    {
      gboolean wide = eo->width > IV_EXPORT_MAX_VECTOR_UNITS;
      const char *text = wide ? args->width : args->height;
      if (!wide && !(eo->height > IV_EXPORT_MAX_VECTOR_UNITS))
        return IV_EXIT_OK;
      return _iv_cli_usage_error (
          command, _ ("--%s: “%s” is too large for %s (the limit is %g, that is 200 in)"),
          wide ? "width" : "height", text ? text : "",
          eo->format == IV_EXPORT_PDF ? _ ("a PDF") : _ ("an SVG"), IV_EXPORT_MAX_VECTOR_UNITS);
    }
  {
    int w, h;
    gboolean wide;
    iv_export_pixel_size (eo, &w, &h);
    if (w <= IV_EXPORT_MAX_PIXELS && h <= IV_EXPORT_MAX_PIXELS)
      return IV_EXIT_OK;
    /* the option that made it so: the side given, else the resolution */
    wide = w > IV_EXPORT_MAX_PIXELS;
    return _iv_cli_usage_error (
        command,
        _ ("--%s: a PNG of %g × %g at %g DPI is too large (the limit is %d pixels a side)"),
        (wide ? args->width : args->height) ? (wide ? "width" : "height") : "dpi", eo->width,
        eo->height, eo->dpi, IV_EXPORT_MAX_PIXELS);
  }
}

int
_iv_cli_figure_size (const char *command, const IvCliFigureArgs *args, IvExportOptions *eo)
{
  if (args->size)
    {
      const IvExportPreset *p = iv_export_find_preset (
          g_str_equal (args->size, "column") ? "single-column" : args->size);
      if (!p)
        return _iv_cli_usage_error (command, "%s", _ ("--size is slide, column or double-column"));
      eo->width = p->width, eo->height = p->height, eo->dpi = p->dpi, eo->text_pt = p->text_pt;
    }
  if (!_iv_cli_number (command, "width", args->width, FALSE, &eo->width)
      || !_iv_cli_number (command, "height", args->height, FALSE, &eo->height)
      || !_iv_cli_number (command, "dpi", args->dpi, FALSE, &eo->dpi)
      || !_iv_cli_number (command, "text-size", args->text_size, FALSE, &eo->text_pt))
    return IV_EXIT_USAGE;
  if (eo->text_pt != 0 && !(eo->text_pt >= 4 && eo->text_pt <= 72))
    return _iv_cli_usage_error (command, "%s", _ ("--text-size is 4 to 72 points"));
  return check_figure_size (command, args, eo);
}

int
_iv_cli_figure_options (const char *command, const char *output, const IvCliFigureArgs *args,
                        IvExportOptions *eo)
{
  if (_iv_cli_output_is_folder (command, output))
    return IV_EXIT_BAD_INPUT;
  if (!iv_export_format_from_path (output, &eo->format)
      || (args->theme && !iv_theme_from_string (args->theme, &eo->render.theme)))
    return _iv_cli_usage_error (
        command, "%s", _ ("-o must end in .png, .pdf or .svg; --theme is light, dark or print"));
  return _iv_cli_figure_size (command, args, eo);
}

void
_iv_cli_figure_args_clear (IvCliFigureArgs *args)
{
  g_clear_pointer (&args->size, g_free);
  g_clear_pointer (&args->theme, g_free);
  g_clear_pointer (&args->width, g_free);
  g_clear_pointer (&args->height, g_free);
  g_clear_pointer (&args->dpi, g_free);
  g_clear_pointer (&args->text_size, g_free);
}

void
_iv_cli_print_json (JsonNode *root)
{
  g_autofree char *text = iv_json_to_string (root, TRUE);
  printf ("%s\n", text);
}

void
_iv_cli_print_json_builder (JsonBuilder *builder)
{
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  _iv_cli_print_json (root);
}

gboolean
_iv_cli_apply_gpus (const char *command, const char *text, IvSweep *sweep)
{
  double n = 0;

  if (!text)
    return TRUE;
  if (!_iv_cli_number (command, "gpus", text, FALSE, &n))
    return FALSE;
  if (n != floor (n))
    {
      _iv_cli_usage_error (command, _ ("--gpus “%s” is not a whole number of GPUs (1 to 1000000)"),
                           text);
      return FALSE;
    }
  if (n > 1000000)
    {
      _iv_cli_usage_error (command, _ ("--gpus: “%s” is too large (the limit is 1000000)"), text);
      return FALSE;
    }
  for (guint i = 0; i < sweep->runs->len; i++)
    ((IvRun *) sweep->runs->pdata[i])->gpus_override = (guint) n;
  return TRUE;
}
