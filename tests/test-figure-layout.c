/* test-figure-layout.c: every figure at every page it is exported to — the Model
 * workspace's registry, every runs preset the bundled samples draw, the trace figures — at
 * Column, Double column and Slide, light and dark. The renderer reports each string it
 * draws (iv_text_recorder_attach); none may overlap another (beyond 1 px), leave the page
 * or its clip, or be ellipsized, unless the figure drew it allowing that. Every failure
 * is printed with the figure, size, theme and strings, then the test fails.
 * IV_LAYOUT_ONLY=name[,name…] checks only the figures whose names contain one of them. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iv-chart-grid.h"
#include "iv-compare.h"
#include "iv-export.h"
#include "iv-model-figures.h"
#include "iv-model-state.h"
#include "iv-pipeline-plot.h"
#include "iv-plot-config.h"
#include "iv-preset.h"
#include "iv-render-model.h"
#include "iv-render-pipelined.h"
#include "iv-render-runs.h"
#include "iv-render-timeline.h"
#include "iv-serving.h"
#include "iv-sweep.h"
#include "iv-text.h"
#include "iv-trace-charts.h"
#include "iv-trace-queue.h"
#include "iv-trace-memcpy.h"
#include "iv-trace-pipelined.h"
#include "iv-trace-query.h"
#include "iv-trace.h"

#define SLACK 1.0 /* device pixels two boxes may share, or a box may pass the page by */
/* The least gap between two strings side by side on one line, in ems of their font: a
 * thin space's fifth. Closer, they read as one ("50 µs100 µs", issue 31). */
#define MIN_GAP_EM 0.2
/* A string this short is a label, never a paragraph: drawn on two lines, it was wrapped
 * for want of room ("1024 ×" over "2048" as a panel title, issue 31) */
#define SHORT_LABEL 24

static GString *failures;
static guint n_checked, n_failed_figures;
static char **only;
static char *last_problems; /* the light drawing's, to say the dark one's in a line */
/* The smallest text a figure may draw on a page, in points (0: any): the Model figures
 * keep 6.5 pt at a column's 8.5 pt body — fewer labels rather than tiny text (issue 31). */
#define MODEL_MIN_TEXT_PT 6.5
static double min_text_pt, model_min_text_pt;

static gboolean
wanted (const char *name)
{
  if (!only)
    return TRUE;
  for (guint i = 0; only[i]; i++)
    if (strstr (name, only[i]))
      return TRUE;
  return FALSE;
}

static char *
shown (const char *text)
{
  g_autofree char *one_line = g_strdup (text);
  for (char *p = one_line; *p; p++)
    if (*p == '\n')
      *p = ' ';
  return g_strdup_printf ("“%s”", one_line);
}

/* Whether @text is a title the figure cut short: "…" at its end or before " (". */
static gboolean
cut_title (const char *text)
{
  const char *at = strstr (text, "…");
  return at && (at[strlen ("…")] == '\0' || g_str_has_prefix (at + strlen ("…"), " ("));
}

/* The problems of one drawing, appended to @out; how many. @min_size: the smallest font
 * size allowed, in device units (0: any). */
static guint
check_boxes (const IvTextBox *b, guint n, double width, double height, double min_size,
             GString *out)
{
  guint bad = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *s = shown (b[i].text);
      if (min_size > 0 && b[i].size < min_size - 0.01)
        bad++, g_string_append_printf (out, "    %s is too small (%.1f pt, at least %.1f)\n", s,
                                       b[i].size * 72.0 / IV_UNITS_PER_INCH,
                                       min_size * 72.0 / IV_UNITS_PER_INCH);
      if (b[i].x0 < -SLACK || b[i].y0 < -SLACK || b[i].x1 > width + SLACK
          || b[i].y1 > height + SLACK)
        bad++, g_string_append_printf (
                   out, "    %s leaves the page (%.0f,%.0f–%.0f,%.0f of %.0f×%.0f)\n", s, b[i].x0,
                   b[i].y0, b[i].x1, b[i].y1, width, height);
      else if (!(b[i].allow & IV_TEXT_MAY_OVERLAP)
               && (b[i].x0 < b[i].clip_x0 - SLACK || b[i].y0 < b[i].clip_y0 - SLACK
                   || b[i].x1 > b[i].clip_x1 + SLACK || b[i].y1 > b[i].clip_y1 + SLACK))
        bad++, g_string_append_printf (
                   out, "    %s is clipped (%.0f,%.0f–%.0f,%.0f, clip %.0f,%.0f–%.0f,%.0f)\n", s,
                   b[i].x0, b[i].y0, b[i].x1, b[i].y1, b[i].clip_x0, b[i].clip_y0, b[i].clip_x1,
                   b[i].clip_y1);
      /* cut by Pango, or by the figure itself: a title cut before its unit or at its end
       * ("Inter-toke… (ms)", issue 31; a name from data cut in its middle is a name) */
      if ((b[i].ellipsized || cut_title (b[i].text)) && !(b[i].allow & IV_TEXT_MAY_ELLIPSIZE))
        bad++, g_string_append_printf (out, "    %s is ellipsized\n", s);
      /* an inked line is about the font's size thick (its height, or its width turned a
       * quarter); two lines, twice that and more */
      if (!strchr (b[i].text, '\n') && g_utf8_strlen (b[i].text, -1) <= SHORT_LABEL && b[i].size > 0
          && MIN (b[i].x1 - b[i].x0, b[i].y1 - b[i].y0) > 1.7 * b[i].size)
        bad++, g_string_append_printf (out, "    %s is wrapped onto two lines\n", s);
      if (b[i].allow & IV_TEXT_MAY_OVERLAP)
        continue;
      for (guint j = i + 1; j < n; j++)
        {
          double ox = MIN (b[i].x1, b[j].x1) - MAX (b[i].x0, b[j].x0);
          double oy = MIN (b[i].y1, b[j].y1) - MAX (b[i].y0, b[j].y0);
          double shorter = MIN (b[i].y1 - b[i].y0, b[j].y1 - b[j].y0);
          if (b[j].allow & IV_TEXT_MAY_OVERLAP || oy <= SLACK)
            continue;
          if (ox > SLACK)
            {
              g_autofree char *t = shown (b[j].text);
              bad++;
              g_string_append_printf (out, "    %s overlaps %s (%.0f × %.0f px)\n", s, t, ox, oy);
            }
          /* side by side on one line (most of the shorter's height shared), too close; a
           * string in two sizes (a subscript) is one string */
          else if (ox > -MIN_GAP_EM * b[i].size && oy > 0.5 * shorter
                   && fabs (b[i].size - b[j].size) < 0.01)
            {
              g_autofree char *t = shown (b[j].text);
              bad++;
              g_string_append_printf (out, "    %s touches %s (%.1f px apart)\n", s, t, -ox);
            }
        }
    }
  return bad;
}

/* Draws @figure as the preset @p exports it, in @theme, and checks its text. */
static void
check_figure (const char *name, const IvFigure *figure, const IvExportPreset *p, IvTheme theme)
{
  g_autoptr (IvTextRecorder) rec = iv_text_recorder_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  cairo_rectangle_t page = { 0, 0, p->width, p->height };
  cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &page);
  cairo_t *cr = cairo_create (s);
  IvExportOptions eo;
  const IvTextBox *boxes;
  guint n, bad;

  iv_export_options_init (&eo);
  eo.width = p->width, eo.height = p->height, eo.dpi = 96, eo.text_pt = p->text_pt;
  eo.render.theme = theme;
  iv_text_recorder_attach (rec, cr);
  if (!iv_export_render (cr, figure, &eo, &error))
    g_string_append_printf (out, "    not drawn: %s\n", error ? error->message : "?");
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  boxes = iv_text_recorder_boxes (rec, &n);
  if (n == 0)
    g_string_append (out, "    no text at all\n");
  bad = check_boxes (boxes, n, p->width, p->height, min_text_pt * IV_UNITS_PER_INCH / 72.0, out);
  n_checked++;
  if (out->len)
    {
      gboolean same = theme == IV_THEME_DARK && g_strcmp0 (last_problems, out->str) == 0;
      n_failed_figures++;
      g_string_append_printf (failures, "%s at %s, %s: %u problem(s)%s\n%s", name, p->id,
                              theme == IV_THEME_DARK ? "dark" : "light", MAX (bad, 1),
                              same ? ", as in light" : "", same ? "" : out->str);
    }
  g_free (last_problems);
  last_problems = g_strdup (out->str);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  /* IV_LAYOUT_SAVE=DIR: each drawing also as a PNG there, to be looked at */
  if (g_getenv ("IV_LAYOUT_SAVE"))
    {
      g_autofree char *base = g_strdup_printf ("%s-%s-%s.png", name, p->id,
                                               theme == IV_THEME_DARK ? "dark" : "light");
      g_autofree char *path = NULL;
      g_autoptr (GError) save_error = NULL;
      for (char *c = base; *c; c++)
        if (!g_ascii_isalnum (*c) && *c != '-' && *c != '.')
          *c = '_';
      path = g_build_filename (g_getenv ("IV_LAYOUT_SAVE"), base, NULL);
      eo.dpi = 150;
      if (!iv_export_to_file (figure, &eo, path, &save_error))
        g_printerr ("%s: %s\n", path, save_error->message);
    }
}

static void
check_everywhere (const char *name, const IvFigure *figure)
{
  guint n;
  const IvExportPreset *presets = iv_export_get_presets (&n);

  if (!wanted (name))
    return;
  for (guint i = 0; i < n; i++)
    for (int dark = 0; dark < 2; dark++)
      check_figure (name, figure, &presets[i], dark ? IV_THEME_DARK : IV_THEME_LIGHT);
}

/* The Model workspace's figure area in the window, as it draws there (no text zoom): at
 * 1280 × 720 with scale 2 (650 wide), 1024 × 700 with the sidebar hidden, 1920 × 1080. A
 * legend cut at the first (issue 31) is found here, not on a page. */
static void
check_in_window (const char *name, const IvFigure *figure)
{
  static const IvExportPreset windows[] = {
    { "window-650x560", NULL, 650, 560, 96, 0 },
    { "window-1000x560", NULL, 1000, 560, 96, 0 },
    { "window-1290x880", NULL, 1290, 880, 96, 0 },
  };
  double saved = min_text_pt;

  if (!wanted (name))
    return;
  min_text_pt = 0; /* a page's least size: the window's text is the desktop's */
  for (guint i = 0; i < G_N_ELEMENTS (windows); i++)
    check_figure (name, figure, &windows[i], IV_THEME_LIGHT);
  min_text_pt = saved;
}

/* The Runs workspace's plot at 1024 × 700, under the table (half the height, as issue 31
 * asks), and beside the sidebar at 1920 × 1080: the ISL × OSL heat maps' two rows of
 * panels there left 6 px cells. */
static void
check_in_runs_window (const char *name, const IvFigure *figure)
{
  static const IvExportPreset windows[] = {
    { "window-740x330", NULL, 740, 330, 96, 0 },
    { "window-1600x560", NULL, 1600, 560, 96, 0 },
  };
  double saved = min_text_pt;

  if (!wanted (name))
    return;
  min_text_pt = 0;
  for (guint i = 0; i < G_N_ELEMENTS (windows); i++)
    check_figure (name, figure, &windows[i], IV_THEME_LIGHT);
  /* what the Runs pane gives the plot at 1024 × 700 under its table: the ISL × OSL
   * paretos' three rows of panels there had plots 20 px tall, their x labels cut */
  if (strstr (name, "pareto_grid") || strstr (name, "isl_osl"))
    {
      static const IvExportPreset pane = { "window-740x220", NULL, 740, 220, 96, 0 };
      check_figure (name, figure, &pane, IV_THEME_LIGHT);
    }
  min_text_pt = saved;
}

/* Every problem the test's drawings had, printed; the test fails when there was one. */
static void
report (void)
{
  g_test_message ("%u drawings checked", n_checked);
  if (failures->len)
    {
      /* as UTF-8 whatever the locale: g_printerr would turn every “ and × into ? */
      fprintf (stderr, "%u of %u drawings fail the layout check:\n%s", n_failed_figures, n_checked,
               failures->str);
      g_test_fail ();
    }
  g_string_truncate (failures, 0);
  n_checked = n_failed_figures = 0;
}

/* -------- the figures -------- */

static void
model_figures (const char *label, const IvModel *m, const IvHardware *hw, const IvConfig *c)
{
  g_autoptr (IvServingCurve) curve = NULL;
  g_autoptr (GError) error = NULL;
  IvServingFigure serving;
  IvModelFigure fig;
  IvResult r;
  guint n;
  const IvModelFigureInfo *figures = iv_model_figures (&n);

  if (!iv_model_evaluate (m, hw, c, &r))
    g_error ("%s: not evaluated", label);
  curve = iv_serving_compute (m, hw, c, 1000, 1000, &error);
  g_assert_no_error (error);
  serving = (IvServingFigure){ curve, NULL, 0, NULL };
  for (guint i = 0; i < n; i++)
    for (int annotate = 0; annotate < 2; annotate++)
      {
        IvFigure f = { figures[i].render,
                       figures[i].input == IV_MODEL_FIGURE_OF_SERVING ? (gconstpointer) &serving
                                                                      : (gconstpointer) &fig,
                       figures[i].name, NULL };
        g_autofree char *name = NULL;
        /* only sharding writes its shards' places */
        if (annotate && !g_str_equal (figures[i].name, "sharding"))
          continue;
        fig = (IvModelFigure){ &r, 0, IV_SWEEP_TP, annotate };
        /* the serving figure too: its panel titles were 6.4 pt on a column (issue 31) */
        min_text_pt = model_min_text_pt;
        name = g_strdup_printf ("model %s (%s%s)", figures[i].name, label,
                                annotate ? ", annotated" : "");
        check_everywhere (name, &f);
        check_in_window (name, &f);
      }
}

static void
test_model (void)
{
  const IvModel *m = iv_presets_find ("Llama-3.1-8B");
  const IvHardware *hw = iv_hardware_find ("ring4");
  IvConfig c;

  model_min_text_pt = MODEL_MIN_TEXT_PT;
  iv_config_init (&c);
  model_figures ("defaults", m, hw, &c);
  c.mode = IV_MODE_PREFILL, c.T = 4096, c.t = 4;
  model_figures ("prefill, TP 4", m, hw, &c);
  iv_config_init (&c);
  c.mode = IV_MODE_PREFILL, c.T = 8192, c.t = 2, c.c = 2;
  model_figures ("prefill, TP 2, CP 2", m, hw, &c);
  /* the reviewer's cases (issue 31): a GPU server's eight ranks, and the CP ring */
  iv_model_state_default_config (&c);
  /* as the command line places groups on a GPU server: across GPUs */
  c.t = 8, c.place_tp = c.place_cp = c.place_ep = IV_PLACE_CUBE;
  model_figures ("70B on h100x8, TP 8", iv_presets_find ("Llama-3.1-70B"),
                 iv_hardware_find ("h100x8"), &c);
  iv_model_state_default_config (&c);
  c.c = 2, c.ring = IV_RING_QOML;
  model_figures ("CP 2, ring qoml", m, hw, &c);
  report ();
  model_min_text_pt = min_text_pt = 0;
}

static char *
sample (const char *rel)
{
  return g_build_filename (g_getenv ("IV_SAMPLES_DIR"), rel, NULL);
}

/* Every preset of @multi's kind the sweep under @rel draws. */
static void
runs_figures (const char *rel, gboolean multi)
{
  g_autofree char *path = sample (rel);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);
  g_autoptr (IvPlotConfig) config = iv_plot_config_load (NULL, &error);
  GPtrArray *plots;
  guint drawn = 0;

  g_assert_no_error (error);
  g_assert_nonnull (sweep);
  plots = multi ? config->multi_plots : config->single_plots;
  for (guint i = 0; i < plots->len; i++)
    {
      const IvPlotSpec *spec = plots->pdata[i];
      g_autofree char *reason = NULL, *name = NULL;
      IvRunsFigure fig;
      IvFigure f;

      if (!iv_runs_figure (spec, sweep, sweep->runs->pdata[0], &fig, &reason))
        continue;
      drawn++;
      name = g_strdup_printf ("runs %s (%s)", spec->name, rel);
      f = iv_runs_figure_get (&fig, spec->name);
      check_everywhere (name, &f);
      check_in_runs_window (name, &f);
      iv_runs_figure_clear (&fig);
      /* a pareto grouped as the window's "by Model" draws it: every run one group (36
       * points named in full on the ISL × OSL sweep) */
      if (multi && spec->type == IV_PLOT_PARETO)
        {
          char *model[] = { (char *) "model", NULL };
          IvPlotSpec by_model = *spec;
          g_autofree char *name2 = g_strdup_printf ("runs %s by model (%s)", spec->name, rel);
          by_model.groups = model;
          by_model.builtin = FALSE;
          g_clear_pointer (&reason, g_free);
          if (!iv_runs_figure (&by_model, sweep, sweep->runs->pdata[0], &fig, &reason))
            continue;
          f = iv_runs_figure_get (&fig, spec->name);
          check_everywhere (name2, &f);
          check_in_runs_window (name2, &f);
          iv_runs_figure_clear (&fig);
        }
    }
  g_assert_cmpuint (drawn, >, 3);
}

static void
test_runs (void)
{
  runs_figures ("aiperf/qwen_concurrency1", FALSE);
  runs_figures ("aiperf", TRUE);
  runs_figures ("isl-osl-sweep", TRUE);
  report ();
}

static IvTrace *
load_trace (const char *file)
{
  g_autofree char *rel = g_build_filename ("traces", file, NULL);
  g_autofree char *path = sample (rel);
  g_autoptr (GError) error = NULL;
  IvTrace *t = iv_trace_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return t;
}

static void
check_chart (const char *name, IvChart *chart)
{
  IvFigure f = { iv_chart_render, chart, name, NULL };

  g_assert_nonnull (chart);
  check_everywhere (name, &f);
  iv_chart_free (chart);
}

static void
test_traces (void)
{
  static const char *const files[]
      = { "kineto_a100_simple_add.json.gz", "catapult_flow_simple.json",
          "pipelined_timeline_sample.json" };
  const IvModel *m = iv_presets_find ("Llama-3.1-8B");
  const IvHardware *hw = iv_hardware_find ("ring4");
  IvConfig c;
  IvResult r;

  iv_config_init (&c);
  g_assert_true (iv_model_evaluate (m, hw, &c, &r));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (IvTrace) t = load_trace (files[i]);
      g_autoptr (IvGpuStats) gpu = iv_trace_gpu_stats (t, t->t0_ns, t->t1_ns);
      g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
      IvTimelineFigure tl = { t, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
      IvFigure f = { iv_render_timeline, &tl, "timeline", NULL };
      gint64 by_class[IV_N_KCLASSES], busy;
      guint64 kernels[IV_N_KCLASSES];
      g_autofree char *name = g_strdup_printf ("trace timeline (%s)", files[i]);
      IvChart *chart;

      tl.note_cut = TRUE;
      iv_trace_activity_range (t, &tl.t0_ns, &tl.t1_ns);
      /* as the window loads it: each stream's queue length a counter track */
      g_assert_true (iv_trace_add_queue_tracks (t, TRUE));
      check_everywhere (name, &f);
      if ((chart = iv_trace_chart_streams (t, gpu)))
        check_chart ("trace streams", chart);
      if ((chart = iv_trace_chart_kernels (gpu)))
        check_chart ("trace kernels", chart);
      if ((chart = iv_trace_chart_top_names (t, stats, 6)))
        check_chart ("trace top names", chart);
      iv_trace_class_times (t, t->t0_ns, t->t1_ns, by_class, kernels, &busy);
      if ((chart = iv_trace_chart_classes (by_class, busy, &r)))
        check_chart ("trace classes", chart);
      {
        g_autoptr (IvLaunchStats) ls = iv_trace_launch_stats (t, G_MININT64, G_MAXINT64, TRUE);
        g_autoptr (GArray) copies = iv_trace_memcpy_stats (t, G_MININT64, G_MAXINT64, NULL);

        if ((chart = iv_trace_chart_launches (ls)))
          check_chart ("trace launches", chart);
        if ((chart = iv_trace_chart_queues (t, ls)))
          check_chart ("trace queues", chart);
        if ((chart = iv_trace_chart_queue_series (t, ls)))
          check_chart ("trace queue series", chart);
        if ((chart = iv_trace_chart_copies (copies)))
          check_chart ("trace copies", chart);
      }
      if (t->format == IV_TRACE_PIPELINED)
        {
          g_autoptr (GError) error = NULL;
          g_autofree char *bd_path = sample ("traces/candidate_breakdown_sample.json");
          g_autoptr (IvPipelinePlot) plot = iv_pipeline_plot_new (t, -1, &error);
          g_autoptr (IvBreakdown) bd = iv_breakdown_load (bd_path, &error);
          IvPipelinedFigure pf = { t, plot, NULL, G_MAXUINT };
          IvFigure pfig = { iv_render_pipelined, &pf, "pipelined", NULL };

          g_assert_no_error (error);
          check_everywhere ("trace pipelined", &pfig);
          pf.breakdown = bd;
          check_everywhere ("trace pipelined (breakdown)", &pfig);
        }
    }
  report ();
}

/* Whether @drawn is @name as typeset: "W_Q" is drawn as W with a subscript Q ("WQ"). */
static gboolean
same_but_underscores (const char *drawn, const char *name)
{
  g_autoptr (GString) bare = g_string_new (name);
  g_string_replace (bare, "_", "", 0);
  return g_str_equal (drawn, name) || g_str_equal (drawn, bare->str);
}

/* The stages table keeps every stage's name at every page size — on a column it had kept
 * the ids alone (issue 31): the names (or the pipeline's short names) are among the
 * strings drawn. */
static void
test_stage_names (void)
{
  const IvModel *m = iv_presets_find ("Llama-3.1-8B");
  const IvHardware *hw = iv_hardware_find ("ring4");
  guint np;
  const IvExportPreset *presets = iv_export_get_presets (&np);
  IvModelFigure fig;
  IvConfig c;
  IvResult r;

  iv_config_init (&c);
  g_assert_true (iv_model_evaluate (m, hw, &c, &r));
  fig = (IvModelFigure){ &r, 0, IV_SWEEP_TP, FALSE };
  for (guint i = 0; i < np; i++)
    {
      g_autoptr (IvTextRecorder) rec = iv_text_recorder_new ();
      cairo_rectangle_t page = { 0, 0, presets[i].width, presets[i].height };
      cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &page);
      cairo_t *cr = cairo_create (s);
      IvFigure f = { iv_render_stages, &fig, "stages", NULL };
      IvExportOptions eo;
      const IvTextBox *b;
      guint n;

      iv_export_options_init (&eo);
      eo.width = presets[i].width, eo.height = presets[i].height, eo.dpi = 96;
      eo.text_pt = presets[i].text_pt;
      iv_text_recorder_attach (rec, cr);
      g_assert_true (iv_export_render (cr, &f, &eo, NULL));
      b = iv_text_recorder_boxes (rec, &n);
      for (int st = 0; st < IV_N_STAGES; st++)
        {
          gboolean found = FALSE;
          if (!r.kinds[0].stages[st].present)
            continue;
          for (guint j = 0; j < n && !found; j++)
            found = same_but_underscores (b[j].text, iv_stage_name (st))
                    || same_but_underscores (b[j].text, iv_stage_short_name (st));
          if (!found)
            g_error ("stages at %s: no name for %s", presets[i].id, iv_stage_id (st));
        }
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

/* The pipeline's rows keep a right margin wider than the page's at every size the window
 * draws it: at 1920 × 1080 (a 1290 × 880 figure area, drawn 1.43 × larger) the last box of
 * the attention row, TP AR, met the window's edge (issue 31). The boxes' right edge, in
 * the window's pixels, stays at least 6 px (times the zoom) inside the page's margin. */
static void
test_pipeline_margin (void)
{
  static const double sizes[][2]
      = { { 1290, 880 }, { 1000, 560 }, { 650, 560 }, { 480, 560 }, { 324, 300 } };
  const IvModel *m = iv_presets_find ("Llama-3.1-8B");
  const IvHardware *hw = iv_hardware_find ("ring4");
  IvModelFigure fig;
  IvConfig c;
  IvResult r;

  iv_config_init (&c);
  c.mode = IV_MODE_PREFILL, c.T = 8192, c.t = 8; /* the window's shot: TP AR shown */
  g_assert_true (iv_model_evaluate (m, hw, &c, &r));
  fig = (IvModelFigure){ &r, 0, IV_SWEEP_TP, FALSE };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      double w = sizes[i][0], h = sizes[i][1], z = iv_model_figure_zoom (w, h), right = 0;
      IvPipelineLayout L;
      iv_pipeline_layout (&fig, w / z, h / z, &L);
      g_assert_cmpfloat (L.box[IV_C2].w, >, 0);
      for (int st = 0; st < IV_N_STAGES; st++)
        if (L.box[st].w > 0)
          right = MAX (right, (L.box[st].x + L.box[st].w) * z);
      if (w - right < (IV_FIGURE_PAD + 6) * z)
        g_error ("pipeline at %.0f × %.0f: the boxes end %.1f px from the right edge", w, h,
                 w - right);
    }
  /* at 1290 × 880 the figure is drawn larger, by the smaller of 1290 / 900 and 880 / 600 */
  g_assert_cmpfloat (fabs (iv_model_figure_zoom (1290, 880) - 1290.0 / 900), <, 1e-9);
}

/* The check itself: two strings drawn over each other, one past the page's edge and one
 * ellipsized are each reported, and a string allowed to do so is not. */
static void
test_check_catches (void)
{
  g_autoptr (IvTextRecorder) rec = iv_text_recorder_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  cairo_rectangle_t page = { 0, 0, 200, 100 };
  cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &page);
  cairo_t *cr = cairo_create (s);
  IvColor black = { 0, 0, 0, 1 };
  const IvTextBox *b;
  IvText text;
  guint n;

  iv_text_recorder_attach (rec, cr);
  iv_text_init (&text, cr, 13);
  iv_text_show (&text, cr, "first", 10, 10, 0, 0, 1, FALSE, 0, &black);
  iv_text_show (&text, cr, "second", 20, 12, 0, 0, 1, FALSE, 0, &black);
  iv_text_show (&text, cr, "off the edge", 190, 50, 0, 0, 1, FALSE, 0, &black);
  iv_text_show (&text, cr, "a long name cut short", 10, 70, 0, 0, 1, FALSE, 40, &black);
  text.allow = IV_TEXT_MAY_ELLIPSIZE | IV_TEXT_MAY_OVERLAP;
  iv_text_show (&text, cr, "a slice name", 10, 10, 0, 0, 1, FALSE, 30, &black);
  iv_text_clear (&text);
  b = iv_text_recorder_boxes (rec, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_true (b[0].x0 >= 10 && b[0].y0 >= 10);
  g_assert_true (b[3].ellipsized && !b[0].ellipsized);
  g_assert_cmpuint (check_boxes (b, n, 200, 100, 0, out), ==, 3);
  g_assert_cmpfloat (fabs (b[0].size - 13), <, 0.01);
  /* a 13 px string where 14 px is the least: too small, each one */
  g_string_truncate (out, 0);
  g_assert_cmpuint (check_boxes (b, 1, 200, 100, 14, out), ==, 1);
  g_assert_nonnull (strstr (out->str, "“first” is too small"));
  g_string_truncate (out, 0);
  check_boxes (b, n, 200, 100, 0, out);
  g_assert_nonnull (strstr (out->str, "“first” overlaps “second”"));
  g_assert_nonnull (strstr (out->str, "“off the edge” leaves the page"));
  g_assert_nonnull (strstr (out->str, "is ellipsized"));
  g_assert_null (strstr (out->str, "slice"));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The two rules issue 31 added, on strings drawn for the purpose: two labels side by
 * side with less than a fifth of an em between them ("50 µs100 µs"), and a short label
 * wrapped onto two lines ("1024 ×" over "2048"); a word space apart, and a long subtitle
 * wrapped, are not faults. */
static void
test_check_catches_close (void)
{
  g_autoptr (IvTextRecorder) rec = iv_text_recorder_new ();
  g_autoptr (GString) out = g_string_new (NULL);
  cairo_rectangle_t page = { 0, 0, 400, 200 };
  cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &page);
  cairo_t *cr = cairo_create (s);
  IvColor black = { 0, 0, 0, 1 };
  const IvTextBox *b;
  IvText text;
  double w, h;
  guint n;

  iv_text_recorder_attach (rec, cr);
  iv_text_init (&text, cr, 13);
  /* touching: the second starts where the first's box ends */
  iv_text_measure (&text, "50 µs", 1, FALSE, 0, &w, &h);
  iv_text_show (&text, cr, "50 µs", 10, 10, 0, 0, 1, FALSE, 0, &black);
  iv_text_show (&text, cr, "100 µs", 10 + w, 10, 0, 0, 1, FALSE, 0, &black);
  /* a word space apart (a third of an em and more past the ink) */
  iv_text_show (&text, cr, "p90", 10, 40, 0, 0, 1, FALSE, 0, &black);
  iv_text_measure (&text, "p90", 1, FALSE, 0, &w, &h);
  iv_text_show (&text, cr, "p99", 10 + w + 6, 40, 0, 0, 1, FALSE, 0, &black);
  /* a panel title in a cell too narrow for it, and a subtitle wrapped on purpose */
  iv_text_show_wrapped (&text, cr, "1024 × 2048", 10, 70, 1, TRUE, 45, &black);
  iv_text_show_wrapped (&text, cr,
                        "each line: one input length's runs, concurrency rising along it", 10, 120,
                        1, FALSE, 200, &black);
  iv_text_clear (&text);
  b = iv_text_recorder_boxes (rec, &n);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpuint (check_boxes (b, n, 400, 200, 0, out), ==, 2);
  g_assert_nonnull (strstr (out->str, "“50 µs” touches “100 µs”"));
  g_assert_nonnull (strstr (out->str, "“1024 × 2048” is wrapped onto two lines"));
  g_assert_null (strstr (out->str, "p9"));
  g_assert_null (strstr (out->str, "each line"));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  const char *filter = g_getenv ("IV_LAYOUT_ONLY");
  g_autofree char **args = g_new0 (char *, argc + 2);
  int n_args = 0;

  /* keep going after a failed test: the model's failures do not hide the runs' */
  for (int i = 0; i < argc; i++)
    args[n_args++] = argv[i];
  args[n_args++] = (char *) "--keep-going";
  argv = args, argc = n_args;
  g_test_init (&argc, &argv, NULL);
  failures = g_string_new (NULL);
  if (filter && *filter)
    only = g_strsplit (filter, ",", -1);
  g_test_add_func ("/layout/check-catches", test_check_catches);
  g_test_add_func ("/layout/check-catches-close", test_check_catches_close);
  g_test_add_func ("/layout/model", test_model);
  g_test_add_func ("/layout/stage-names", test_stage_names);
  g_test_add_func ("/layout/pipeline-margin", test_pipeline_margin);
  g_test_add_func ("/layout/runs", test_runs);
  g_test_add_func ("/layout/traces", test_traces);
  return g_test_run ();
}
