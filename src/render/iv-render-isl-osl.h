/* iv-render-isl-osl.h: the figures of a sweep over input and output lengths — a metric's
 * heat map over ISL × OSL (a panel per concurrency, one colour scale), small multiples
 * of pareto curves (a panel per ISL × OSL cell, shared axes), and the pareto curves of
 * each ISL stacked into a surface (one per OSL). */
#pragma once

#include "iv-chart-grid.h"
#include "iv-plot-config.h"
#include "iv-surface.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

/* Each NULL with @reason (one sentence) when the sweep cannot make it. */
IvChartGrid *iv_isl_osl_heatmaps (const IvPlotSpec *spec, const IvSweep *sweep, char **reason);
IvChartGrid *iv_isl_osl_paretos (const IvPlotSpec *spec, const IvSweep *sweep, char **reason);
IvSurface *iv_isl_osl_surface (const IvPlotSpec *spec, const IvSweep *sweep, char **reason);

G_END_DECLS
