/* iv-cli-plot.c: `inferview plot [PATH...] [--paths PATH...] [-o DIR] [--format png|pdf|svg]
 * [--theme light|dark] [--config FILE] [--plot NAME|all ...] [--list] [--aiperf-compatible]
 * [--json] [--verbose]`: every default plot of the detected mode (one run, or several runs
 * compared) — or the presets named, Inferview's own among them — written to DIR as
 * <preset>.<ext> (aiperf's names), DIR/summary.txt listing each file or why a preset was
 * skipped, and DIR/aiperf_plot.log. What `aiperf plot` does, without Python (its paths
 * default to ./artifacts, its output to PATH/plots), and every plot the Runs workspace
 * draws; each figure says where its numbers differ from aiperf plot's, and
 * --aiperf-compatible draws aiperf's own. With --watch, runs AIPerf is still writing are
 * followed and the figures rewritten as data arrives. With --hardware, the runs are also
 * set against their model's bound: bound_efficiency and serving_bound (the measured points
 * over the serving curve's bound frontier, docs/model.md §10). */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

#include "config.h"
#include "iv-atomic-file.h"
#include "iv-cli-bound.h"
#include "iv-cli-private.h"
#include "iv-hardware.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-input.h"
#include "iv-live-follow.h"
#include "iv-render-runs.h"
#include "iv-render-serving.h"
#include "iv-serving-measured.h"
#include "iv-runs-notes.h"
#include "iv-report.h"

/* aiperf_plot.log, as aiperf's setup_plot_logging writes it ("DATE TIME - NAME - LEVEL -
 * message"): what was read, drawn and skipped; with --verbose, also the details (DEBUG)
 * and every line on stderr as it is said. Written to the output folder at the end,
 * atomically, like every file Inferview writes. */
typedef struct
{
  GString *text;
  gboolean verbose;
} PlotLog;

static void G_GNUC_PRINTF (3, 4) plot_log (PlotLog *log, const char *level, const char *format, ...)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d %H:%M:%S");
  g_autofree char *message = NULL;
  va_list args;

  if (!log || (!log->verbose && g_str_equal (level, "DEBUG")))
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_string_append_printf (log->text, "%s - inferview.plot - %s - %s\n", stamp, level, message);
  if (log->verbose)
    _iv_cli_printf (stderr, "inferview plot: %s: %s\n", level, message);
}

/* The log's earlier lines before this run's (written whole again, atomically, as every
 * file Inferview writes). A log that is not there starts anew; one past
 * IV_INPUT_DOCUMENT_MAX too, saying so; one that cannot be read (a folder, no
 * permission) is an error, the figures already written. */
static gboolean
prepend_old_log (const char *path, GString *text, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *old = NULL;
  gsize len = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    return TRUE;
  old = iv_input_load_document (path, IV_INPUT_DOCUMENT_MAX, &len, &local);
  if (!old)
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return TRUE;
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      old = g_strdup_printf ("(the earlier log was left out: %s)\n", local->message);
      len = strlen (old);
    }
  if (len && old[len - 1] != '\n')
    g_string_prepend_c (text, '\n');
  g_string_prepend_len (text, old, (gssize) len);
  return TRUE;
}

static char *
default_dir (const char *path)
{
  g_autofree char *base
      = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);
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
          _iv_cli_usage_error ("plot", _ ("no %s preset “%s” (--list names them)"),
                               multi ? _ ("multi-run") : _ ("single-run"), wanted[w]);
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

  _iv_cli_printf (stdout,
                  _ ("%s presets (* drawn by default; + Inferview's own), configuration %s:\n"),
                  multi ? _ ("Multi-run") : _ ("Single-run"), config->origin);
  for (guint i = 0; i < plots->len; i++)
    {
      const IvPlotSpec *s = plots->pdata[i];
      gboolean is_default = g_ptr_array_find_with_equal_func (defaults, s->name, g_str_equal, NULL);
      _iv_cli_printf (stdout, "%c %-48s %s\n",
                      is_default     ? '*'
                      : s->inferview ? '+'
                                     : ' ',
                      s->name, s->title ? s->title : "");
    }
}

/* The output folder, made if it is not there. FALSE after one line on stderr. */
static gboolean
prepare_dir (const char *out_dir)
{
  g_autofree char *display = g_filename_display_name (out_dir);

  if (g_file_test (out_dir, G_FILE_TEST_EXISTS) && !g_file_test (out_dir, G_FILE_TEST_IS_DIR))
    {
      /* what it is, by name: a FIFO or a device is no "file" to the user */
      const char *kind = iv_input_file_kind (out_dir);
      _iv_cli_printf (stderr,
                      _ ("inferview plot: %s: is %s; -o names the folder the plots go to\n"),
                      display, kind ? kind : _ ("not a folder"));
      return FALSE;
    }
  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      _iv_cli_printf (stderr, "inferview plot: %s: %s\n", display, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* One preset drawn to @out_dir under the name @files gives it (aiperf's, the preset with
 * dashes, made safe: a preset's name is data from the run folder, never a path), its
 * outcome a line of @summary. FALSE when the file could not be written. */
/* What one run of the command writes beside the figures. */
typedef struct
{
  PlotLog *log;
  IvJsonWriter *json; /* --json: each preset's points, or NULL */
} Outputs;

/* The preset's object in --json: its name, its file or why it was not drawn, and its
 * notes; the figure's points are added by the caller. */
static void
json_preset (Outputs *o, const char *name, const char *file, const char *skipped, GPtrArray *notes)
{
  if (!o->json)
    return;
  iv_json_writer_begin_object (o->json);
  iv_json_writer_key (o->json, "preset");
  iv_json_writer_string (o->json, name);
  iv_json_writer_key (o->json, "file");
  if (file)
    iv_json_writer_string (o->json, file);
  else
    iv_json_writer_null (o->json);
  iv_json_writer_key (o->json, "skipped");
  if (skipped)
    iv_json_writer_string (o->json, skipped);
  else
    iv_json_writer_null (o->json);
  iv_json_writer_key (o->json, "notes");
  iv_json_writer_begin_array (o->json);
  for (guint i = 0; notes && i < notes->len; i++)
    iv_json_writer_string (o->json, notes->pdata[i]);
  iv_json_writer_end_array (o->json);
}

static gboolean
draw_preset (const IvPlotConfig *config, const IvSweep *sweep, gboolean multi, const char *name,
             const IvExportOptions *eo, IvPlotFileNames *files, const char *out_dir,
             GString *summary, guint *written, Outputs *o)
{
  const IvPlotSpec *spec = iv_plot_config_get (config, multi, name);
  const char *file;
  g_autofree char *reason = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) notes = NULL;
  IvRunsFigure drawn;
  IvFigure figure;
  gboolean ok;

  if (!spec)
    {
      _iv_cli_append_printf (summary, _ ("%s: skipped, the preset is not defined\n"), name);
      plot_log (o->log, "WARNING", "Skipping %s - the preset is not defined", name);
      json_preset (o, name, NULL, _ ("the preset is not defined"), NULL);
      if (o->json)
        iv_json_writer_end_object (o->json);
      return TRUE;
    }
  if (!iv_runs_figure (spec, sweep, sweep->runs->pdata[0], &drawn, &reason))
    {
      _iv_cli_append_printf (summary, _ ("%s: skipped, %s\n"), name, reason);
      plot_log (o->log, "INFO", "Skipping %s - %s", name, reason);
      json_preset (o, name, NULL, reason, NULL);
      if (o->json)
        iv_json_writer_end_object (o->json);
      return TRUE;
    }
  file = iv_plot_file_names_get (files, name);
  figure = iv_runs_figure_get (&drawn, name);
  notes = iv_runs_aiperf_notes (spec, sweep, sweep->runs->pdata[0]);
  if ((path = iv_plot_file_path (out_dir, file, &error))
      && (ok = iv_export_to_file (&figure, eo, path, &error)))
    {
      _iv_cli_append_printf (summary, "%s: %s\n", name, file);
      plot_log (o->log, "INFO", "Generated %s", file);
      (*written)++;
    }
  else
    {
      ok = FALSE;
      _iv_cli_append_printf (summary, _ ("%s: failed, %s\n"), name, error->message);
      _iv_cli_printf (stderr, "inferview plot: %s\n", error->message);
      plot_log (o->log, "ERROR", "Failed to generate %s: %s", name, error->message);
    }
  /* where aiperf plot would draw other numbers: said under the file, as on the figure */
  for (guint i = 0; i < notes->len; i++)
    {
      _iv_cli_append_printf (summary, _ ("  differs from aiperf plot: %s\n"),
                             (const char *) notes->pdata[i]);
      plot_log (o->log, "INFO", "%s differs from aiperf plot: %s", name,
                (const char *) notes->pdata[i]);
    }
  json_preset (o, name, ok ? file : NULL, ok ? NULL : error->message, notes);
  if (o->json)
    {
      iv_json_writer_key (o->json, "figure");
      iv_runs_figure_write_json (&drawn, o->json);
      iv_json_writer_end_object (o->json);
    }
  iv_runs_figure_clear (&drawn);
  return ok;
}

/* With --hardware: the serving curve of §10 (docs/model.md), the runs' measured points over
 * the bound frontier, drawn by the window's model figure of the same name. Not a preset of
 * the configuration: it needs the hardware, and its model is the runs' own. */

typedef struct
{
  const IvHardware *hw; /* NULL: not drawn */
  gint64 tp;            /* the runs' TP, 0 for the smallest that fits */
} ServingBound;

/* The curve's configuration: the model's defaults, a GPU server's groups across its GPUs
 * as `inferview model` places them. */
static void
serving_config (const IvHardware *hw, IvConfig *config)
{
  iv_config_init (config);
  if (hw->n_pe == 1)
    config->place_tp = config->place_cp = config->place_ep = IV_PLACE_CUBE;
}

static void
json_serving (Outputs *o, const IvServingCurve *curve, const IvServingMeasuredSet *set)
{
  IvJsonWriter *w = o->json;

  iv_json_writer_key (w, "figure");
  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "model");
  iv_json_writer_string (w, curve->model->name);
  iv_json_writer_key (w, "hardware");
  iv_json_writer_string (w, curve->hw->name);
  iv_json_writer_key (w, "isl");
  iv_json_writer_double (w, curve->isl);
  iv_json_writer_key (w, "osl");
  iv_json_writer_double (w, curve->osl);
  iv_json_writer_key (w, "bound_frontier");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < curve->points->len; i++)
    {
      const IvServingPoint *p = &g_array_index (curve->points, IvServingPoint, i);
      if (p->front_user)
        iv_serving_point_write_json (w, p);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "measured");
  iv_serving_measured_write_json (w, set->points);
  iv_json_writer_end_object (w);
}

/* The serving figure into @out_dir, its line in @summary, the runs left out under it (and
 * on stderr when @say). A sweep no run of which can be set against the bound is skipped,
 * as a preset without data; FALSE only when the file could not be written. */
static gboolean
draw_serving (const IvSweep *sweep, const ServingBound *sb, const IvExportOptions *eo,
              IvPlotFileNames *files, const char *out_dir, GString *summary, guint *written,
              gboolean say, Outputs *o)
{
  g_auto (IvServingMeasuredSet) set = { NULL };
  g_autoptr (IvServingCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL, *skipped = NULL;
  const char *file = NULL;
  IvConfig config;
  gboolean ok = TRUE;

  serving_config (sb->hw, &config);
  iv_serving_measured_from_sweep (sweep, NULL, sb->hw, &config, sb->tp, &set);
  if (set.points->len == 0)
    skipped = g_strdup_printf (_ ("no run can be set against the bound of its model on %s"),
                               sb->hw->name);
  /* the bound for the runs' own mean lengths, as `model --serving --measured` */
  else if (!(curve = iv_serving_compute (
                 set.model, sb->hw, &config, isfinite (set.isl) ? MAX (1, round (set.isl)) : 1000,
                 isfinite (set.osl) ? MAX (1, round (set.osl)) : 1000, &error)))
    skipped = g_strdup (error->message);
  if (skipped)
    {
      _iv_cli_append_printf (summary, _ ("%s: skipped, %s\n"), IV_PLOT_SERVING_BOUND, skipped);
      plot_log (o->log, "INFO", "Skipping %s - %s", IV_PLOT_SERVING_BOUND, skipped);
    }
  else
    {
      IvServingFigure fig = { curve, (const IvServingMeasured *) set.points->data, set.points->len,
                              _ ("measured (AIPerf)") };
      IvFigure figure = { iv_render_serving, &fig, IV_PLOT_SERVING_BOUND, NULL };
      iv_serving_mark_measured (curve, (IvServingMeasured *) set.points->data, set.points->len);
      file = iv_plot_file_names_get (files, IV_PLOT_SERVING_BOUND);
      if ((path = iv_plot_file_path (out_dir, file, &error))
          && iv_export_to_file (&figure, eo, path, &error))
        {
          _iv_cli_append_printf (summary, "%s: %s\n", IV_PLOT_SERVING_BOUND, file);
          plot_log (o->log, "INFO", "Generated %s", file);
          (*written)++;
        }
      else
        {
          ok = FALSE, file = NULL;
          skipped = g_strdup (error->message);
          _iv_cli_append_printf (summary, _ ("%s: failed, %s\n"), IV_PLOT_SERVING_BOUND,
                                 error->message);
          _iv_cli_printf (stderr, "inferview plot: %s\n", error->message);
          plot_log (o->log, "ERROR", "Failed to generate %s: %s", IV_PLOT_SERVING_BOUND,
                    error->message);
        }
    }
  /* the runs not drawn, each with why: under the figure, on stderr, in the log */
  for (guint i = 0; i < set.left_out->len; i++)
    {
      const char *line = set.left_out->pdata[i];
      _iv_cli_append_printf (summary, _ ("  note: %s\n"), line);
      if (say)
        _iv_cli_printf (stderr, "inferview plot: %s: %s\n", IV_PLOT_SERVING_BOUND, line);
      plot_log (o->log, "WARNING", "%s: %s", IV_PLOT_SERVING_BOUND, line);
    }
  if (o->json)
    {
      json_preset (o, IV_PLOT_SERVING_BOUND, file, skipped, set.left_out);
      if (curve && file)
        json_serving (o, curve, &set);
      iv_json_writer_end_object (o->json);
    }
  return ok;
}

/* Draws @names into @out_dir and writes its summary.txt; FALSE when that cannot be
 * written. @again: a redraw of a followed sweep (its notes were said the first time). */
static gboolean
write_plots (const IvPlotConfig *config, const IvSweep *sweep, GPtrArray *names, gboolean multi,
             const ServingBound *serving, const IvExportOptions *eo, const char *ext,
             const char *out_dir, gboolean again, guint *failed, Outputs *o)
{
  Outputs none = { NULL, NULL };
  g_autoptr (GString) summary = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary_path = NULL;
  /* made again for each redraw: the same presets in the same order, the same names */
  g_autoptr (IvPlotFileNames) files = iv_plot_file_names_new (ext);
  guint written = 0, live = iv_sweep_n_live (sweep);
  guint64 requests = 0;
  gboolean say = !again;

  *failed = 0;
  if (!o)
    o = &none;
  for (guint i = 0; i < sweep->runs->len; i++)
    requests += ((const IvRun *) sweep->runs->pdata[i])->n_requests;
  plot_log (o->log, "INFO", "Generating %s plots (%u %s)", multi ? "multi-run" : "single-run",
            sweep->runs->len, sweep->runs->len == 1 ? "run" : "runs");
  if (live)
    _iv_cli_append_printf (summary,
                           _ ("inferview plot: %s mode, %u run(s) (%u live, %" G_GUINT64_FORMAT
                              " requests so far), configuration %s\n\n"),
                           multi ? "multi-run" : "single-run", sweep->runs->len, live, requests,
                           config->origin);
  else
    _iv_cli_append_printf (summary, _ ("inferview plot: %s mode, %u run(s), configuration %s\n\n"),
                           multi ? "multi-run" : "single-run", sweep->runs->len, config->origin);
  /* what the figures hold and what was left out, in the summary and on stderr: the notes
   * the window, report.html and `inferview runs` say, composed once (iv-runs-notes) */
  {
    g_autoptr (GPtrArray) said
        = iv_runs_notes (sweep, NULL, multi ? IV_RUNS_NOTES_GPU : IV_RUNS_NOTES_DEFAULT);
    for (guint i = 0; i < said->len; i++)
      {
        const IvRunsNote *n = said->pdata[i];
        g_autofree char *line = iv_runs_note_line (n, sweep, NULL);
        if (n->kind == IV_RUNS_NOTE_NOT_LOADED)
          {
            /* said on stderr as the sweep loaded */
            _iv_cli_append_printf (summary, _ ("not loaded: %s\n"), line);
            plot_log (o->log, "WARNING", "Failed to load run: %s", line);
            continue;
          }
        _iv_cli_append_printf (summary, _ ("note: %s\n"), line);
        if (say)
          _iv_cli_printf (stderr, "inferview plot: %s\n", line);
        if (n->kind == IV_RUNS_NOTE_WARNING)
          plot_log (o->log, "WARNING", "%s", line);
      }
    if (said->len)
      g_string_append_c (summary, '\n');
  }
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      plot_log (o->log, "DEBUG",
                "Run %s: %s, model %s, concurrency %g, %" G_GSIZE_FORMAT " records, %u GPU(s) by "
                "UUID, %u counted by aiperf",
                r->name, r->path, r->model ? r->model : "?", r->concurrency, r->n_requests,
                iv_run_gpu_count (r, NULL), iv_run_gpu_count_aiperf (r));
    }
  if (o->json)
    {
      iv_json_writer_key (o->json, "plots");
      iv_json_writer_begin_array (o->json);
    }
  for (guint i = 0; i < names->len; i++)
    if (!draw_preset (config, sweep, multi, names->pdata[i], eo, files, out_dir, summary, &written,
                      o))
      (*failed)++;
  if (serving && serving->hw
      && !draw_serving (sweep, serving, eo, files, out_dir, summary, &written, say, o))
    (*failed)++;
  if (o->json)
    iv_json_writer_end_array (o->json);
  /* atomic writes follow links: one here (from a run folder's plots/) is refused */
  if (!(summary_path = iv_plot_file_path (out_dir, "summary.txt", &error))
      || !iv_atomic_file_set_contents (summary_path, summary->str, summary->len, &error))
    {
      _iv_cli_print_error (error);
      return FALSE;
    }
  if (again)
    _iv_cli_printf (
        stdout,
        _ ("%" G_GUINT64_FORMAT " requests, %u run(s) (%u live): %u plot(s) rewritten in %s\n"),
        requests, sweep->runs->len, live, written, out_dir);
  else if (o->json)
    ; /* stdout holds the JSON document */
  else
    {
      fputs (summary->str, stdout);
      _iv_cli_printf (stdout, _ ("\n%u plot(s) in %s\n"), written, out_dir);
    }
  fflush (stdout);
  return TRUE;
}

/* ---- --watch ---- */

/* Bytes read per file and read (at most twice a second): no frame to hold here. */
#define WATCH_MAX_BYTES ((gsize) 64 << 20)

typedef struct
{
  IvSweep *sweep;
  IvPlotConfig *config;
  GPtrArray *names;
  gboolean multi;
  const char *config_path;
  char **wanted;
  const IvExportOptions *eo;
  const char *ext, *out_dir;
  guint linger_s;
  gint64 last_change_us;
  GMainLoop *loop;
  int status;
  const IvHardware *bound_hw; /* --hardware: what bound_efficiency sets the runs against */
  gint64 bound_tp;
  const ServingBound *serving; /* the serving figure, drawn again with the presets */
  gboolean only_serving;       /* --plot serving_bound alone: no preset of the configuration */
  gboolean stopped;            /* a run could no longer be followed (said on stderr) */
  IvLiveFollow *follow;        /* reads what AIPerf appends (the window's follower too) */
  guint tick;                  /* looks twice a second whether the watch is done */
} Watch;

/* The presets that set runs against the model's bound get the hardware asked for. */
static void
apply_bound (IvPlotConfig *config, const IvHardware *hw, gint64 tp)
{
  for (guint i = 0; i < config->multi_plots->len; i++)
    {
      IvPlotSpec *spec = config->multi_plots->pdata[i];
      if (spec->type == IV_PLOT_BOUND)
        spec->bound_hardware = hw, spec->bound_tp = tp;
    }
}

/* --aiperf-compatible: every preset draws aiperf plot's numbers. */
static void
apply_aiperf (IvPlotConfig *config, gboolean aiperf)
{
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *plots = multi ? config->multi_plots : config->single_plots;
      for (guint i = 0; i < plots->len; i++)
        ((IvPlotSpec *) plots->pdata[i])->aiperf_compatible = aiperf;
    }
}

/* A sweep that became several runs is drawn as a comparison: the configuration and
 * presets of that mode. */
static gboolean
watch_choose (Watch *w)
{
  g_autoptr (GError) error = NULL;
  gboolean multi = w->sweep->runs->len > 1;

  if (w->config && multi == w->multi)
    return TRUE;
  g_clear_pointer (&w->config, iv_plot_config_free);
  g_clear_pointer (&w->names, g_ptr_array_unref);
  w->multi = multi;
  if (!(w->config = iv_plot_config_find (
            w->config_path, multi ? NULL : ((IvRun *) w->sweep->runs->pdata[0])->path, &error)))
    {
      _iv_cli_print_error (error);
      return FALSE;
    }
  apply_bound (w->config, w->bound_hw, w->bound_tp);
  /* a preset of the other mode named with --plot: the defaults of this one */
  {
    g_autoptr (GPtrArray) names = NULL;
    gboolean known = TRUE;
    for (guint i = 0; w->wanted && w->wanted[i]; i++)
      known &= g_str_equal (w->wanted[i], "all")
               || iv_plot_config_get (w->config, multi, w->wanted[i]) != NULL;
    names = w->only_serving ? g_ptr_array_new ()
                            : chosen_presets (w->config, multi, known ? w->wanted : NULL);
    w->names = g_steal_pointer (&names);
  }
  return w->names != NULL;
}

/* The follower read something: said on stderr when a run stopped being followed or was
 * found incomplete, and the figures drawn again. */
static void
watch_changed (IvLiveFollow *follow, const IvSweepFollow *f, Watch *w)
{
  guint failed;

  if (w->status != IV_EXIT_OK)
    return;
  if (f->stopped_runs)
    {
      /* said at once, and the figures and summary.txt no longer count the run as live */
      _iv_cli_printf (stderr, "inferview plot: %s\n", f->stopped_why);
      w->stopped = TRUE;
    }
  /* a run without its summary whose files stopped growing for --linger: incomplete, not
   * live; the figures are drawn again without its Live state */
  if (f->incomplete_runs)
    _iv_cli_printf (stderr, "inferview plot: %s\n", f->incomplete_why);
  w->last_change_us = g_get_monotonic_time ();
  if (!watch_choose (w)
      || !write_plots (w->config, w->sweep, w->names, w->multi, w->serving, w->eo, w->ext,
                       w->out_dir, TRUE, &failed, NULL))
    {
      w->status = IV_EXIT_BAD_INPUT;
      iv_live_follow_stop (follow);
      g_main_loop_quit (w->loop);
    }
}

/* Every run has its summary, and no news for the time --linger gives. */
static gboolean
watch_lingered (const Watch *w)
{
  return iv_sweep_n_live (w->sweep) == 0
         && g_get_monotonic_time () - w->last_change_us >= (gint64) w->linger_s * G_USEC_PER_SEC;
}

static gboolean
watch_tick (gpointer data)
{
  Watch *w = data;

  if (w->status == IV_EXIT_OK && !watch_lingered (w))
    return G_SOURCE_CONTINUE;
  /* a last read, new runs looked for too, before ending: what came since the follower's
   * last read (a run whose folder raised no event) is not left out */
  if (w->status == IV_EXIT_OK)
    {
      iv_live_follow_poll (w->follow);
      if (w->status == IV_EXIT_OK && !watch_lingered (w))
        return G_SOURCE_CONTINUE;
    }
  if (w->stopped && w->status == IV_EXIT_OK)
    w->status = IV_EXIT_BAD_INPUT;
  w->tick = 0;
  g_main_loop_quit (w->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
watch_interrupted (gpointer data)
{
  Watch *w = data;
  g_main_loop_quit (w->loop);
  /* the source stays until the loop's end removes it: removing it here too was a
   * GLib-CRITICAL ("Source ID … was not found") when the signal came */
  return G_SOURCE_CONTINUE;
}

/* Follows what AIPerf appends (IvLiveFollow: at most two reads a second) and rewrites the
 * figures when something came; until every run is finished and --linger seconds pass
 * without a new run, or an interrupt. */
static int
watch_and_redraw (IvSweep *sweep, const char *config_path, char **wanted, const IvExportOptions *eo,
                  const char *ext, const char *out_dir, guint linger_s, const IvHardware *bound_hw,
                  gint64 bound_tp, const ServingBound *serving, gboolean only_serving)
{
  Watch w = { 0 };
  guint sigint, sigterm;

  w.sweep = sweep, w.config_path = config_path, w.wanted = wanted, w.eo = eo;
  w.ext = ext, w.out_dir = out_dir, w.linger_s = linger_s, w.status = IV_EXIT_OK;
  w.bound_hw = bound_hw, w.bound_tp = bound_tp;
  w.serving = serving, w.only_serving = only_serving;
  if (!watch_choose (&w))
    return IV_EXIT_BAD_INPUT;
  /* a run without its summary is live while its files grow (see _iv_cli_plot) */
  sweep->stale_after_s = MAX (linger_s, IV_RUN_LIVE_STALE_S);
  w.loop = g_main_loop_new (NULL, FALSE);
  w.last_change_us = g_get_monotonic_time ();
  if (iv_sweep_n_live (sweep))
    _iv_cli_printf (stderr, _ ("inferview plot: following %u live run(s); Ctrl+C stops\n"),
                    iv_sweep_n_live (sweep));
  /* a bounded share a read: gigabytes appended at once are read over several reads */
  w.follow = iv_live_follow_new (sweep, WATCH_MAX_BYTES);
  g_signal_connect (w.follow, "changed", G_CALLBACK (watch_changed), &w);
  w.tick = g_timeout_add (500, watch_tick, &w);
  sigint = g_unix_signal_add (SIGINT, watch_interrupted, &w);
  sigterm = g_unix_signal_add (SIGTERM, watch_interrupted, &w);
  g_main_loop_run (w.loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  g_clear_handle_id (&w.tick, g_source_remove);
  iv_live_follow_stop (w.follow);
  g_clear_object (&w.follow);
  g_main_loop_unref (w.loop);
  g_clear_pointer (&w.config, iv_plot_config_free);
  g_clear_pointer (&w.names, g_ptr_array_unref);
  return w.status;
}

int
_iv_cli_plot (int argc, char **argv)
{
  g_auto (GStrv) paths = NULL, wanted = NULL, named_paths = NULL;
  gboolean aiperf = FALSE, json = FALSE, verbose = FALSE;
  g_autoptr (GString) log_text = g_string_new (NULL);
  g_autofree char *out_dir = NULL, *format = NULL, *theme = NULL, *config_path = NULL, *gpus = NULL;
  static const IvCliBoundSpec bound_spec = { "plot", "hardware", NULL, FALSE };
  g_auto (IvCliBound) bound = { NULL };
  gboolean list = FALSE, watch = FALSE, html = FALSE;
  gint linger = 10;
  g_auto (IvCliFigureArgs) fig = { NULL };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
      N_ ("Write the plots to DIR (default PATH/plots/)"), "DIR" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_ ("png (default), pdf or svg"), "FORMAT" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &theme, N_ ("light (default) or dark"), "THEME" },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &config_path,
      N_ ("An aiperf plot configuration (YAML)"), "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_STRING_ARRAY, &wanted,
      N_ ("Draw this preset instead of the defaults (repeatable; “all” for every one)"), "NAME" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list,
      N_ ("List the presets for these runs and draw nothing"), NULL },
    IV_CLI_GPUS_ENTRY (&gpus),
    { "watch", 0, 0, G_OPTION_ARG_NONE, &watch,
      N_ ("Follow runs AIPerf is still writing and rewrite the plots as data arrives (twice a "
          "second at most)"),
      NULL },
    { "html", 0, 0, G_OPTION_ARG_NONE, &html,
      N_ ("Write one self-contained, offline report.html (tables, every figure with tooltips) "
          "instead of image files"),
      NULL },
    IV_CLI_BOUND_HARDWARE_ENTRY (
        &bound, N_ ("Set the runs against the analytical bound of their model on this hardware "
                    "preset (bound_efficiency)")),
    IV_CLI_BOUND_TP_ENTRY (
        &bound, N_ ("With --hardware: TP over its GPUs (default: the smallest that fits)")),
    { "linger", 0, 0, G_OPTION_ARG_INT, &linger,
      N_ ("With --watch: once every run is finished, wait this long for a new run of the sweep; "
          "a run without its summary whose files have not grown for this long (10 at least) is "
          "incomplete and no longer followed (default 10)"),
      "SECONDS" },
    { "paths", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &named_paths,
      N_ ("A run or sweep folder (repeatable; as aiperf plot's --paths; default ./artifacts)"),
      "PATH" },
    { "aiperf-compatible", 0, 0, G_OPTION_ARG_NONE, &aiperf,
      N_ ("Draw aiperf plot's numbers: its run set and order, each run's p50 on multi-run axes, "
          "GPUs counted per telemetry endpoint, its request numbering and time slices"),
      NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_ ("Print each plot's points (and where they differ from aiperf plot's) as JSON"), NULL },
    { "verbose", 0, 0, G_OPTION_ARG_NONE, &verbose,
      N_ ("Say every step on stderr, and the details in aiperf_plot.log (written in the output "
          "folder either way)"),
      NULL },
    IV_CLI_FIGURE_ENTRIES (&fig),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, N_ ("[PATH…]") },
    { NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = NULL;
  g_autoptr (IvPlotConfig) config = NULL;
  g_autoptr (GPtrArray) names = NULL;
  IvExportOptions eo;
  const char *ext;
  gboolean multi, only_serving = FALSE;
  ServingBound serving = { NULL, 0 };
  guint failed = 0;

  if (!_iv_cli_parse (
          "plot",
          _ ("Draw every default plot of the runs under the paths, as `aiperf plot` does, "
             "or the presets --plot names."),
          entries, &argc, &argv))
    return IV_EXIT_USAGE;
  {
    /* --paths A --paths B C: A, B, then the rest; none at all: ./artifacts, as aiperf */
    g_autoptr (GStrvBuilder) all = g_strv_builder_new ();
    for (guint i = 0; named_paths && named_paths[i]; i++)
      g_strv_builder_add (all, named_paths[i]);
    for (guint i = 0; paths && paths[i]; i++)
      g_strv_builder_add (all, paths[i]);
    g_strfreev (paths);
    paths = g_strv_builder_end (all);
    if (!paths[0])
      {
        g_strfreev (paths);
        paths = g_strsplit ("./artifacts", "\n", -1);
        if (!g_file_test (paths[0], G_FILE_TEST_IS_DIR))
          return _iv_cli_usage_error (
              "plot", "%s",
              _ ("no ./artifacts here (aiperf's default): name a run or sweep folder"));
      }
  }
  if (aiperf && watch)
    return _iv_cli_usage_error ("plot", "%s",
                                _ ("--aiperf-compatible draws finished runs as aiperf plot "
                                   "does: not with --watch"));
  if (json && (watch || html || list))
    return _iv_cli_usage_error ("plot", "%s",
                                _ ("--json prints one drawing's points: not with --watch, --html "
                                   "or --list"));
  if (html && (watch || format))
    return _iv_cli_usage_error ("plot", "%s",
                                _ ("--html writes one page: not with --watch or --format"));
  if (linger < 0 || linger > 86400)
    return _iv_cli_usage_error ("plot", "%s", _ ("--linger is 0 to 86400 seconds"));
  iv_export_options_init (&eo);
  eo.width = 1200, eo.height = 640, eo.dpi = 192; /* a 2400 × 1280 PNG, as sharp as aiperf's */
  if (format && !g_str_equal (format, "png") && !g_str_equal (format, "pdf")
      && !g_str_equal (format, "svg"))
    return _iv_cli_usage_error ("plot", "%s", _ ("--format is png, pdf or svg"));
  if (theme && !g_str_equal (theme, "light") && !g_str_equal (theme, "dark"))
    return _iv_cli_usage_error ("plot", "%s", _ ("--theme is light or dark"));
  ext = format ? format : "png";
  eo.format = g_str_equal (ext, "pdf")   ? IV_EXPORT_PDF
              : g_str_equal (ext, "svg") ? IV_EXPORT_SVG
                                         : IV_EXPORT_PNG;
  eo.render.theme = theme && g_str_equal (theme, "dark") ? IV_THEME_DARK : IV_THEME_LIGHT;
  {
    int rc = _iv_cli_figure_size ("plot", &fig, &eo);
    if (rc != IV_EXIT_OK)
      return rc;
  }

  /* followed, a run still being written is read to its last whole line; as aiperf plot,
   * the runs its ModeDetector finds, in its order */
  if (!(sweep = aiperf ? iv_sweep_load_aiperf ((const char *const *) paths, NULL, &error)
                       : iv_sweep_load_full ((const char *const *) paths,
                                             watch ? IV_RUN_LOAD_FOLLOW : IV_RUN_LOAD_DEFAULT, NULL,
                                             NULL, NULL, &error)))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (watch)
    {
      /* a run without its summary is live only while its files grow: --linger seconds
       * without growth, IV_RUN_LIVE_STALE_S at least (a writer pauses between records) */
      sweep->stale_after_s = MAX ((guint) linger, IV_RUN_LIVE_STALE_S);
      for (guint i = 0; i < sweep->runs->len; i++)
        if (iv_run_expire (sweep->runs->pdata[i], sweep->stale_after_s))
          {
            IvRun *r = sweep->runs->pdata[i];
            _iv_cli_printf (stderr, "inferview plot: %s\n",
                            (const char *) r->warnings->pdata[r->warnings->len - 1]);
          }
    }
  for (guint i = 0; i < sweep->warnings->len; i++)
    _iv_cli_printf (stderr, "inferview plot: %s\n", (const char *) sweep->warnings->pdata[i]);
  if (!_iv_cli_apply_gpus ("plot", gpus, sweep))
    return IV_EXIT_USAGE;
  {
    int rc = _iv_cli_bound_read (&bound_spec, FALSE, &bound);
    if (rc != IV_EXIT_OK)
      return rc;
  }
  {
    /* serving_bound, drawn with --hardware by default, with "all" or when named; taken out
     * of the names the configuration's presets are looked up by */
    gboolean named = FALSE, all = FALSE;
    g_autoptr (GStrvBuilder) rest = g_strv_builder_new ();
    for (guint i = 0; wanted && wanted[i]; i++)
      if (g_str_equal (wanted[i], IV_PLOT_SERVING_BOUND))
        named = TRUE;
      else
        {
          all |= g_str_equal (wanted[i], "all");
          g_strv_builder_add (rest, wanted[i]);
        }
    if (named && !bound.hw)
      return _iv_cli_usage_error (
          "plot", _ ("--plot %s needs --hardware NAME (inferview hardware lists them)"),
          IV_PLOT_SERVING_BOUND);
    if (named && html)
      return _iv_cli_usage_error ("plot", _ ("--plot %s draws an image: not with --html"),
                                  IV_PLOT_SERVING_BOUND);
    if (bound.hw && !html && (!wanted || named || all))
      serving.hw = bound.hw, serving.tp = bound.tp_n;
    if (wanted)
      {
        g_strfreev (wanted);
        wanted = g_strv_builder_end (rest);
        only_serving = named && !wanted[0];
      }
  }
  multi = sweep->runs->len > 1;
  if (!(config = iv_plot_config_find (
            config_path, multi ? NULL : ((IvRun *) sweep->runs->pdata[0])->path, &error)))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  apply_bound (config, bound.hw, bound.tp_n);
  apply_aiperf (config, aiperf);
  /* on a paper page the differences from aiperf plot go to summary.txt alone */
  if (fig.size && (g_str_equal (fig.size, "column") || g_str_equal (fig.size, "double-column")))
    for (int m = 0; m < 2; m++)
      {
        GPtrArray *plots = m ? config->multi_plots : config->single_plots;
        for (guint i = 0; i < plots->len; i++)
          ((IvPlotSpec *) plots->pdata[i])->notes_off_figure = TRUE;
      }
  for (guint i = 0; i < config->warnings->len; i++)
    _iv_cli_printf (stderr, "inferview plot: %s\n", (const char *) config->warnings->pdata[i]);
  if (list)
    {
      list_presets (config, multi);
      _iv_cli_printf (stdout, "%c %-48s %s\n", bound.hw ? '*' : '+', IV_PLOT_SERVING_BOUND,
                      _ ("Measured vs Bound: the Serving Curve (with --hardware)"));
      return IV_EXIT_OK;
    }
  {
    /* a report holds every figure of the mode unless --plot names some */
    char *all[] = { (char *) "all", NULL };
    if (only_serving)
      names = g_ptr_array_new ();
    else if (!(names = chosen_presets (config, multi, html && !wanted ? all : wanted)))
      return IV_EXIT_USAGE;
  }
  {
    /* a configuration whose defaults name nothing drawable is an error, not 0 plots */
    guint defined = 0;
    for (guint i = 0; i < names->len; i++)
      defined += iv_plot_config_get (config, multi, names->pdata[i]) != NULL;
    if (defined == 0 && !only_serving)
      {
        _iv_cli_printf (
            stderr,
            _ ("inferview plot: %s: no %s plot to draw (the %s list names none of its presets)\n"),
            config->origin, multi ? _ ("multi-run") : _ ("single-run"),
            multi ? "multi_run_defaults" : "single_run_defaults");
        return IV_EXIT_BAD_INPUT;
      }
  }
  if (!out_dir)
    {
      GStatBuf st;
      out_dir = default_dir (paths[0]);
      /* PATH/plots comes with the run folder: a link there would take the figures out */
      if (g_lstat (out_dir, &st) == 0 && S_ISLNK (st.st_mode))
        {
          _iv_cli_printf (stderr,
                          _ ("inferview plot: %s: is a symbolic link; the default output "
                             "folder is not followed out of the run (-o names one)\n"),
                          out_dir);
          return IV_EXIT_BAD_INPUT;
        }
    }
  if (!prepare_dir (out_dir))
    return IV_EXIT_BAD_INPUT;
  if (html)
    {
      /* one page: the figures at a screen's size, as the window draws them */
      g_autoptr (GString) page = NULL;
      g_autofree char *path = iv_plot_file_path (out_dir, "report.html", &error);
      eo.width = 1000, eo.height = 520, eo.text_pt = 0;
      eo.render.theme = IV_THEME_LIGHT;
      if (!path || !(page = iv_report_html (sweep, config, names, multi, &eo, &error))
          || !iv_atomic_file_set_contents (path, page->str, page->len, &error))
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      _iv_cli_printf (stdout, _ ("report.html (%.1f MB, %u run(s)) in %s\n"), page->len / 1e6,
                      sweep->runs->len, out_dir);
      return IV_EXIT_OK;
    }
  {
    PlotLog log = { log_text, verbose };
    Outputs o = { &log, NULL };
    g_autofree char *log_path = NULL;
    gboolean ok;
    plot_log (&log, "INFO", "Using config: %s", config->origin);
    plot_log (&log, "INFO", "Detected %s mode: %u run directories found",
              multi ? "MULTI_RUN" : "SINGLE_RUN", sweep->runs->len);
    if (aiperf)
      plot_log (&log, "INFO", "Drawing aiperf plot's numbers (--aiperf-compatible)");
    if (json)
      {
        o.json = iv_json_writer_new (TRUE);
        iv_json_writer_begin_object (o.json);
        iv_json_writer_key (o.json, "mode");
        iv_json_writer_string (o.json, multi ? "multi_run" : "single_run");
        iv_json_writer_key (o.json, "aiperf_compatible");
        iv_json_writer_bool (o.json, aiperf);
        iv_json_writer_key (o.json, "configuration");
        iv_json_writer_string (o.json, config->origin);
        iv_json_writer_key (o.json, "output");
        iv_json_writer_string (o.json, out_dir);
        iv_json_writer_key (o.json, "runs");
        iv_json_writer_begin_array (o.json);
        for (guint i = 0; i < sweep->runs->len; i++)
          iv_json_writer_string (o.json, ((IvRun *) sweep->runs->pdata[i])->path);
        iv_json_writer_end_array (o.json);
      }
    ok = write_plots (config, sweep, names, multi, &serving, &eo, ext, out_dir, FALSE, &failed, &o);
    if (o.json)
      {
        g_autofree char *text = NULL;
        iv_json_writer_end_object (o.json);
        text = iv_json_writer_finish (o.json);
        fputs (text, stdout);
        fputc ('\n', stdout);
        fflush (stdout);
      }
    /* aiperf_plot.log beside the figures, as aiperf writes it: appended to, as its
     * logging.FileHandler (mode "a") does, each run's lines after the last's */
    if (!(log_path = iv_plot_file_path (out_dir, "aiperf_plot.log", &error))
        || !prepend_old_log (log_path, log_text, &error)
        || !iv_atomic_file_set_contents (log_path, log_text->str, log_text->len, &error))
      {
        _iv_cli_print_error (error);
        return IV_EXIT_BAD_INPUT;
      }
    if (!ok)
      return IV_EXIT_BAD_INPUT;
  }
  if (watch)
    {
      int rc = watch_and_redraw (sweep, config_path, wanted, &eo, ext, out_dir, (guint) linger,
                                 bound.hw, bound.tp_n, &serving, only_serving);
      if (rc != IV_EXIT_OK)
        return rc;
    }
  if (failed)
    {
      _iv_cli_printf (stderr,
                      ngettext ("inferview plot: %u plot could not be written\n",
                                "inferview plot: %u plots could not be written\n", failed),
                      failed);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}
