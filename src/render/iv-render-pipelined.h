/* iv-render-pipelined.h: the pipelined I/O timeline as the reference script draws it
 * (tests/data/reference/pipelined_timeline_reference.py): lanes Main Thread, I/O Thread,
 * GPU Stream 0 and GPU Stream 1 (those with bars) filled edge to edge, bars outlined in
 * black in the reference's colours, cut ends as zig-zag edges, bare candidate numbers on
 * bars of at least 40 ms, "Time (ms)" from the window's start under dashed grid lines,
 * and either the legend below or, with a breakdown file, the GPU runtime breakdown of
 * one candidate on the right as a horizontal 0–100 % bar with its legend titled by that
 * candidate. The Traces workspace and `inferview trace FILE -o FIGURE` both draw it. */
#pragma once

#include "iv-pipeline-plot.h"
#include "iv-render.h"
#include "iv-theme.h"

G_BEGIN_DECLS

typedef struct
{
  const IvTrace *trace;
  const IvPipelinePlot *plot;
  const IvBreakdown *breakdown; /* NULL: the legend below instead */
  guint highlighted;            /* a bar outlined (index in plot->bars), or G_MAXUINT */
} IvPipelinedFigure;

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h; /* the timeline's axes */
  double lane_y[IV_N_LANES], lane_h;     /* each shown lane's band; lane_h 0 for a dropped one */
  gboolean shown[IV_N_LANES];
  double t0_ms, t1_ms;           /* the x axis, ms from the window's start */
  double bd_x, bd_y, bd_w, bd_h; /* the breakdown's axes; bd_w = 0 without one */
  double legend_h;               /* the legend's rows below, framed; 0 with a breakdown */
} IvPipelinedLayout;

void iv_pipelined_layout (const IvPipelinedFigure *figure, double width, double height,
                          IvPipelinedLayout *layout);
double iv_pipelined_x (const IvPipelinedFigure *figure, const IvPipelinedLayout *layout,
                       gint64 t_ns);
/* The bar under (@x, @y) (index in plot->bars), or G_MAXUINT. */
guint iv_pipelined_bar_at (const IvPipelinedFigure *figure, const IvPipelinedLayout *layout,
                           double x, double y);
gboolean iv_render_pipelined (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                              double width, double height, GError **error);

G_END_DECLS
