/* iv-cli-plot.c: `inferview plot PATH... [-o DIR] [--format png|pdf|svg]
 * [--theme light|dark] [--config FILE] [--plot NAME|all ...] [--list]`: every default plot
 * of the detected mode (one run, or several runs compared) — or the presets named,
 * Inferview's own among them — written to DIR as <preset>.<ext>, and DIR/summary.txt
 * listing each file or why a preset was skipped. What `aiperf plot` does, without
 * Python, and every plot the Runs workspace draws. */
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

/* The presets to draw: the configuration's defaults, or those --plot names ("all": every
 * preset of the mode, the configuration's then Inferview's own). NULL after a usage
 * error naming the first unknown preset. */
static GPtrArray *
chosen_presets (const IvPlotConfig *config, gboolean multi, char **wanted)
{
  GPtrArray *defaults = multi ? config->multi_defaults : config->single_defaults;
  GPtrArray *plots = multi ? config->multi_plots : config->single_plots;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (!wanted || !wanted[0])
    {
      for (guint i = 0; i < defaults->len; i++)
        g_ptr_array_add (names, defaults->pdata[i]);
      return g_steal_pointer (&names);
    }
  for (guint w = 0; wanted[w]; w++)
    {
      if (g_str_equal (wanted[w], "all"))
        {
          for (guint i = 0; i < plots->len; i++)
            g_ptr_array_add (names, ((IvPlotSpec *) plots->pdata[i])->name);
          continue;
        }
      if (!iv_plot_config_get (config, multi, wanted[w]))
        {
          _iv_cli_usage_error ("plot", _("no %s preset “%s” (--list names them)"),
                               multi ? _("multi-run") : _("single-run"), wanted[w]);
          return NULL;
        }
      g_ptr_array_add (names, wanted[w]);
    }
  return g_steal_pointer (&names);
}

/* --list: every preset of the mode, the defaults marked, Inferview's own said. */
static void
list_presets (const IvPlotConfig *config, gboolean multi)
{
  GPtrArray *defaults = multi ? config->multi_defaults : config->single_defaults;
  GPtrArray *plots = multi ? config->multi_plots : config->single_plots;

  printf (_("%s presets (* drawn by default; + Inferview's own), configuration %s:\n"),
          multi ? _("Multi-run") : _("Single-run"), config->origin);
  for (guint i = 0; i < plots->len; i++)
    {
      const IvPlotSpec *s = plots->pdata[i];
      gboolean is_default = g_ptr_array_find_with_equal_func (defaults, s->name, g_str_equal, NULL);
      printf ("%c %-48s %s\n", is_default ? '*' : s->inferview ? '+' : ' ', s->name, s->title ? s->title : "");
    }
}

/* The output folder, made if it is not there. FALSE after one line on stderr. */
static gboolean
prepare_dir (const char *out_dir)
{
  g_autofree char *display = g_filename_display_name (out_dir);

  if (g_file_test (out_dir, G_FILE_TEST_EXISTS) && !g_file_test (out_dir, G_FILE_TEST_IS_DIR))
    {
      fprintf (stderr, _("inferview plot: %s: is a file; -o names the folder the plots go to\n"), display);
      return FALSE;
    }
  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      fprintf (stderr, "inferview plot: %s: %s\n", display, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* One preset drawn to @out_dir as aiperf names it (the preset with dashes), its outcome
 * a line of @summary. FALSE when the file could not be written. */
static gboolean
draw_preset (const IvPlotConfig *config, const IvSweep *sweep, gboolean multi, const char *name,
             const IvExportOptions *eo, const char *ext, const char *out_dir, GString *summary, guint *written)
{
  const IvPlotSpec *spec = iv_plot_config_get (config, multi, name);
  g_autofree char *reason = NULL, *file = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;
  IvChart *chart;
  IvFigure figure = { iv_chart_render, NULL, name, NULL };
  gboolean ok;

  if (!spec)
    {
      g_string_append_printf (summary, _("%s: skipped, the preset is not defined\n"), name);
      return TRUE;
    }
  if (!(chart = iv_runs_chart (spec, sweep, sweep->runs->pdata[0], &reason)))
    {
      g_string_append_printf (summary, _("%s: skipped, %s\n"), name, reason);
      return TRUE;
    }
  file = g_strdup_printf ("%s.%s", name, ext);
  g_strdelimit (file, "_", '-');
  path = g_build_filename (out_dir, file, NULL);
  figure.data = chart;
  if ((ok = iv_export_to_file (&figure, eo, path, &error)))
    {
      g_string_append_printf (summary, "%s: %s\n", name, file);
      (*written)++;
    }
  else
    {
      g_string_append_printf (summary, _("%s: failed, %s\n"), name, error->message);
      fprintf (stderr, "inferview plot: %s\n", error->message);
    }
  iv_chart_free (chart);
  return ok;
}

int
_iv_cli_plot (int argc, char **argv)
{
  g_auto (GStrv) paths = NULL, wanted = NULL;
  g_autofree char *out_dir = NULL, *format = NULL, *theme = NULL, *config_path = NULL, *gpus = NULL;
  gboolean list = FALSE;
  g_auto (IvCliFigureArgs) fig = { NULL };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, N_("Write the plots to DIR (default PATH/plots/)"), "DIR" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("png (default), pdf or svg"), "FORMAT" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_("light (default) or dark"), "THEME" },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &config_path, N_("An aiperf plot configuration (YAML)"), "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_STRING_ARRAY, &wanted,
      N_("Draw this preset instead of the defaults (repeatable; “all” for every one)"), "NAME" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the presets for these runs and draw nothing"), NULL },
    { "gpus", 0, 0, G_OPTION_ARG_STRING, &gpus,
      N_("The GPUs that served each run (per-GPU throughput divides by it; default: the telemetry's)"), "N" },
    IV_CLI_FIGURE_ENTRIES (&fig),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, N_("PATH…") },
    { NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = NULL;
  g_autoptr (IvPlotConfig) config = NULL;
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GString) summary = g_string_new (NULL);
  g_autofree char *summary_path = NULL;
  IvExportOptions eo;
  const char *ext;
  gboolean multi;
  guint written = 0, failed = 0;

  if (!_iv_cli_parse ("plot", _("Draw every default plot of the runs under the paths, as `aiperf plot` does, "
                                "or the presets --plot names."), entries, &argc, &argv))
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
  {
    int rc = _iv_cli_figure_size ("plot", &fig, &eo);
    if (rc != IV_EXIT_OK)
      return rc;
  }

  if (!(sweep = iv_sweep_load ((const char *const *) paths, NULL, NULL, NULL, &error)))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  for (guint i = 0; i < sweep->warnings->len; i++)
    fprintf (stderr, "inferview plot: %s\n", (const char *) sweep->warnings->pdata[i]);
  if (!_iv_cli_apply_gpus ("plot", gpus, sweep))
    return IV_EXIT_USAGE;
  multi = sweep->runs->len > 1;
  if (!(config = iv_plot_config_find (config_path, multi ? NULL : ((IvRun *) sweep->runs->pdata[0])->path, &error)))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  for (guint i = 0; i < config->warnings->len; i++)
    fprintf (stderr, "inferview plot: %s\n", (const char *) config->warnings->pdata[i]);
  if (list)
    {
      list_presets (config, multi);
      return IV_EXIT_OK;
    }
  if (!(names = chosen_presets (config, multi, wanted)))
    return IV_EXIT_USAGE;
  {
    /* a configuration whose defaults name nothing drawable is an error, not 0 plots */
    guint defined = 0;
    for (guint i = 0; i < names->len; i++)
      defined += iv_plot_config_get (config, multi, names->pdata[i]) != NULL;
    if (defined == 0)
      {
        fprintf (stderr, _("inferview plot: %s: no %s plot to draw (the %s list names none of its presets)\n"),
                 config->origin, multi ? _("multi-run") : _("single-run"),
                 multi ? "multi_run_defaults" : "single_run_defaults");
        return IV_EXIT_BAD_INPUT;
      }
  }
  if (!out_dir)
    out_dir = default_dir (paths[0]);
  if (!prepare_dir (out_dir))
    return IV_EXIT_BAD_INPUT;

  g_string_append_printf (summary, _("inferview plot: %s mode, %u run(s), configuration %s\n\n"),
                          multi ? "multi-run" : "single-run", sweep->runs->len, config->origin);
  /* what the figures hold and what was left out, in the summary and on stderr */
  {
    guint before = summary->len;
    for (guint i = 0; i < sweep->warnings->len; i++)
      g_string_append_printf (summary, _("not loaded: %s\n"), (const char *) sweep->warnings->pdata[i]);
    for (guint i = 0; i < sweep->runs->len; i++)
      {
        const IvRun *r = sweep->runs->pdata[i];
        g_autofree char *note = iv_run_records_note (r);
        g_autofree char *gpu_note = multi ? iv_run_gpu_note (r) : NULL;
        if (note)
          {
            g_string_append_printf (summary, _("note: %s: %s\n"), r->name, note);
            fprintf (stderr, "inferview plot: %s: %s\n", r->name, note);
          }
        /* per-GPU throughput is drawn across runs only */
        if (gpu_note)
          {
            g_string_append_printf (summary, _("note: %s: %s\n"), r->name, gpu_note);
            fprintf (stderr, "inferview plot: %s: %s\n", r->name, gpu_note);
          }
        for (guint w = 0; w < r->warnings->len; w++)
          {
            g_string_append_printf (summary, _("note: %s\n"), (const char *) r->warnings->pdata[w]);
            fprintf (stderr, "inferview plot: %s\n", (const char *) r->warnings->pdata[w]);
          }
      }
    if (summary->len > before)
      g_string_append_c (summary, '\n');
  }
  for (guint i = 0; i < names->len; i++)
    if (!draw_preset (config, sweep, multi, names->pdata[i], &eo, ext, out_dir, summary, &written))
      failed++;
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
