/* iv-render-serving.h: the serving curve (docs/model.md §10) — per-GPU throughput against
 * per-user throughput and against TTFT, every TP × EP and batch swept, the bound frontier
 * drawn through the points that fit, points that do not fit marked, and a measured AIPerf
 * sweep with its own frontier on the same axes. */
#pragma once

#include "iv-chart-grid.h"
#include "iv-render.h"
#include "iv-serving.h"

G_BEGIN_DECLS

typedef struct
{
  const IvServingCurve *curve;
  const IvServingMeasured *measured; /* NULL: no measured sweep */
  guint n_measured;
  const char *measured_name; /* "measured (AIPerf)" or the sweep's name */
} IvServingFigure;

/* The two panels as a chart grid (what the window's chart view hovers over). */
IvChartGrid *iv_serving_grid (const IvServingFigure *figure);
gboolean iv_render_serving (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                            double width, double height, GError **error);

G_END_DECLS
