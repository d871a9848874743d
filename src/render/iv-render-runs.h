/* iv-render-runs.h: the charts of AIPerf runs, one per plot preset of `aiperf plot` —
 * per-request metrics over time (with rolling percentiles), distributions, dispersed
 * throughput, the request timeline, time slices with ±std and outliers, throughput with
 * GPU utilisation; across runs, pareto frontiers and metric-vs-metric lines grouped by a
 * configuration field and labelled. Built on the chart toolkit, so each draws in the
 * window, in exports and from `inferview plot`. */
#pragma once

#include "iv-chart.h"
#include "iv-chart-grid.h"
#include "iv-json-writer.h"
#include "iv-plot-config.h"
#include "iv-surface.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

/* A metric tag as people read it: "time_to_first_token" → "Time to first token". */
char *iv_metric_title (const char *tag);
/* The chart's unit for an AIPerf unit ("ms", "tokens/sec/user", …). */
IvUnit iv_metric_unit (const char *unit);
/* The unit of @metric's values as @run records it (a server quantity's, a summary's). */
IvUnit iv_runs_metric_unit (const IvRun *run, const char *metric);
/* The chart of preset @spec: single-run presets draw @run, multi-run ones every run of
 * @sweep. NULL with @reason (one sentence) when the data cannot make it, e.g. a run
 * without time slices, or when the preset draws panels or a surface (iv_runs_figure ()). */
IvChart *iv_runs_chart (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run,
                        char **reason);

/* What a preset draws: one chart, panels (the ISL × OSL heat maps and small multiples)
 * or a surface in three dimensions (the pareto surface); exactly one is set. */
typedef struct
{
  IvChart *chart;
  IvChartGrid *grid;
  IvSurface *surface;
} IvRunsFigure;

/* Any preset's figure; FALSE with @reason as for iv_runs_chart (). */
gboolean iv_runs_figure (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run,
                         IvRunsFigure *out, char **reason);
void iv_runs_figure_clear (IvRunsFigure *figure);
/* Its drawing function and data, to render or export; @name: the file's suggested name. */
IvFigure iv_runs_figure_get (const IvRunsFigure *figure, const char *name);
const char *iv_runs_figure_title (const IvRunsFigure *figure);

/* What `aiperf plot` would draw differently from Inferview's figure of @spec (its GPU
 * count, the p50 it puts on multi-run axes, its frontier, the runs it leaves out, its
 * request numbering, its reading of time slices): one sentence each, empty when nothing
 * differs or @spec is drawn as aiperf draws it. The figure's subtitle carries them; the
 * window's card and summary.txt say them too. */
GPtrArray *iv_runs_aiperf_notes (const IvPlotSpec *spec, const IvSweep *sweep, const IvRun *run);
/* The figure's points as JSON (`plot --json`): its title and subtitle, axis titles and
 * categories, and each series' kind, name, x and y (lo and hi for bands and error bars,
 * point labels), in the data's units. */
void iv_runs_figure_write_json (const IvRunsFigure *figure, IvJsonWriter *writer);

/* Per-request plots: the request drawn at data point (@x, @y) of @spec's chart of @run
 * (a scatter point, or a timeline bar's middle), or G_MAXUINT. */
guint32 iv_runs_request_at (const IvPlotSpec *spec, const IvRun *run, double x, double y);
/* Marks @requests on @chart of @spec (rings on points, outlined bars, lines at their
 * values on distributions): what is selected in one plot shows in the others. */
void iv_runs_chart_highlight (IvChart *chart, const IvPlotSpec *spec, const IvRun *run,
                              const guint32 *requests, guint n);

G_END_DECLS
