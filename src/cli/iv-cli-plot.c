/* iv-cli-plot.c: `inferview plot PATH... [-o DIR] [--format png|pdf|svg]
 * [--theme light|dark] [--config FILE]`: every default plot of the detected mode (one run,
 * or several runs compared) written to DIR as <preset>.<ext>, and DIR/summary.txt listing
 * each file or why a preset was skipped. What `aiperf plot` does, without Python. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "config.h"
#include "iv-atomic-file.h"
#include "iv-cli-private.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-render-runs.h"

static char *
default_dir (const char *path)
{
  g_autofree char *base = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);
  return g_build_filename (base, "plots", NULL);
}

int
_iv_cli_plot (int argc, char **argv)
{
  g_auto (GStrv) paths = NULL;
  g_autofree char *out_dir = NULL, *format = NULL, *theme = NULL, *config_path = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, N_("Write the plots to DIR (default PATH/plots/)"), "DIR" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("png (default), pdf or svg"), "FORMAT" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_("light (default) or dark"), "THEME" },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &config_path, N_("An aiperf plot configuration (YAML)"), "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, N_("PATH…") },
    { NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = NULL;
  g_autoptr (IvPlotConfig) config = NULL;
  g_autoptr (GString) summary = g_string_new (NULL);
  g_autofree char *summary_path = NULL;
  IvExportOptions eo;
  const char *ext;
  gboolean multi;
  GPtrArray *names;
  guint written = 0, failed = 0;

  if (!_iv_cli_parse ("plot", _("Draw every default plot of the runs under the paths, as `aiperf plot` does."),
                      entries, &argc, &argv))
    return IV_EXIT_USAGE;
  if (!paths || !paths[0])
    return _iv_cli_usage_error ("plot", "%s", _("name at least one run or sweep folder"));
  iv_export_options_init (&eo);
  eo.width = 1200, eo.height = 640, eo.dpi = 192; /* a 2400 × 1280 PNG, as sharp as aiperf's */
  if (format && !g_str_equal (format, "png") && !g_str_equal (format, "pdf") && !g_str_equal (format, "svg"))
    return _iv_cli_usage_error ("plot", "%s", _("--format is png, pdf or svg"));
  if (theme && !g_str_equal (theme, "light") && !g_str_equal (theme, "dark"))
    return _iv_cli_usage_error ("plot", "%s", _("--theme is light or dark"));
  ext = format ? format : "png";
  eo.format = g_str_equal (ext, "pdf") ? IV_EXPORT_PDF : g_str_equal (ext, "svg") ? IV_EXPORT_SVG : IV_EXPORT_PNG;
  eo.render.theme = theme && g_str_equal (theme, "dark") ? IV_THEME_DARK : IV_THEME_LIGHT;

  sweep = iv_sweep_load ((const char *const *) paths, NULL, NULL, NULL, &error);
  if (!sweep)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  for (guint i = 0; i < sweep->warnings->len; i++)
    fprintf (stderr, "inferview plot: %s\n", (const char *) sweep->warnings->pdata[i]);
  multi = sweep->runs->len > 1;
  config = iv_plot_config_find (config_path, multi ? NULL : ((IvRun *) sweep->runs->pdata[0])->path, &error);
  if (!config)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  for (guint i = 0; i < config->warnings->len; i++)
    fprintf (stderr, "inferview plot: %s\n", (const char *) config->warnings->pdata[i]);
  if (!out_dir)
    out_dir = default_dir (paths[0]);
  if (g_file_test (out_dir, G_FILE_TEST_EXISTS) && !g_file_test (out_dir, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *display = g_filename_display_name (out_dir);
      fprintf (stderr, _("inferview plot: %s: is a file; -o names the folder the plots go to\n"), display);
      return IV_EXIT_BAD_INPUT;
    }
  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      g_autofree char *display = g_filename_display_name (out_dir);
      fprintf (stderr, "inferview plot: %s: %s\n", display, g_strerror (errno));
      return IV_EXIT_BAD_INPUT;
    }

  g_string_append_printf (summary, _("inferview plot: %s mode, %u run(s), configuration %s\n\n"),
                          multi ? "multi-run" : "single-run", sweep->runs->len, config->origin);
  names = multi ? config->multi_defaults : config->single_defaults;
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      const IvPlotSpec *spec = iv_plot_config_get (config, multi, name);
      g_autofree char *reason = NULL, *file = NULL, *path = NULL;
      g_autoptr (GError) local = NULL;
      IvChart *chart;

      if (!spec)
        {
          g_string_append_printf (summary, _("%s: skipped, the preset is not defined\n"), name);
          continue;
        }
      chart = iv_runs_chart (spec, sweep, sweep->runs->pdata[0], &reason);
      if (!chart)
        {
          g_string_append_printf (summary, _("%s: skipped, %s\n"), name, reason);
          continue;
        }
      /* aiperf's file names: the preset with dashes */
      file = g_strdup_printf ("%s.%s", name, ext);
      g_strdelimit (file, "_", '-');
      path = g_build_filename (out_dir, file, NULL);
      {
        IvFigure figure = { iv_chart_render, chart, name, NULL };
        if (iv_export_to_file (&figure, &eo, path, &local))
          {
            g_string_append_printf (summary, "%s: %s\n", name, file);
            written++;
          }
        else
          {
            g_string_append_printf (summary, _("%s: failed, %s\n"), name, local->message);
            fprintf (stderr, "inferview plot: %s\n", local->message);
            failed++;
          }
      }
      iv_chart_free (chart);
    }
  summary_path = g_build_filename (out_dir, "summary.txt", NULL);
  if (!iv_atomic_file_set_contents (summary_path, summary->str, summary->len, &error))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  fputs (summary->str, stdout);
  printf (_("\n%u plot(s) in %s\n"), written, out_dir);
  if (failed)
    {
      fprintf (stderr, ngettext ("inferview plot: %u plot could not be written\n",
                                 "inferview plot: %u plots could not be written\n", failed), failed);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}
