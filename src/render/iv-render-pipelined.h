/* iv-render-pipelined.h: the pipelined I/O timeline as the reference plot draws it —
 * four lanes (Main thread, I/O, GPU stream 0, GPU stream 1) over a window of candidates,
 * bars labelled "Candidate N" when they fit, zig-zag edges where the window cuts a bar,
 * inferred await_dispatch gaps hatched, a legend, and beside it the GPU runtime
 * breakdown of one candidate as a 100 % stacked bar. The Traces workspace and
 * `inferview trace FILE -o FIGURE` for pipelined files both draw it. */
#pragma once

#include "iv-pipeline-plot.h"
#include "iv-render.h"
#include "iv-theme.h"

G_BEGIN_DECLS

#define IV_PIPELINED_MIN_SEGMENT_PX 4.0 /* the thinnest breakdown segment drawn */
#define IV_PIPELINED_ZIGZAG_PX 4.0      /* depth of the teeth on a cut edge */

typedef struct
{
  const IvTrace *trace;
  const IvPipelinePlot *plot;
  const IvBreakdown *breakdown;  /* NULL: no breakdown bar */
  double min_runtime_pct;        /* breakdown families under this fold into "Other" */
  guint highlighted;             /* a bar outlined (index in plot->bars), or G_MAXUINT */
} IvPipelinedFigure;

typedef struct
{
  double plot_x, plot_w;             /* the window spans these pixels */
  double lane_y[IV_N_LANES], lane_h; /* each lane's band */
  double axis_y;                     /* the time axis' line */
  double bd_x, bd_y, bd_w, bd_h;     /* the breakdown bar; bd_w = 0 without one */
  double legend_y;
} IvPipelinedLayout;

void     iv_pipelined_layout    (const IvPipelinedFigure *figure,
                                 double                   width,
                                 double                   height,
                                 IvPipelinedLayout       *layout);
double   iv_pipelined_x         (const IvPipelinedFigure *figure,
                                 const IvPipelinedLayout *layout,
                                 gint64                   t_ns);
/* The bar under (@x, @y) (index in plot->bars), or G_MAXUINT. */
guint    iv_pipelined_bar_at    (const IvPipelinedFigure *figure,
                                 const IvPipelinedLayout *layout,
                                 double                   x,
                                 double                   y);
/* The fill of a bar's name: fixed for the reference plot's names, stable for the rest. */
IvColor  iv_pipelined_color     (const IvPipelinedFigure *figure,
                                 const char              *name,
                                 IvTheme                  theme);
gboolean iv_render_pipelined    (cairo_t                 *cr,
                                 gconstpointer            figure,
                                 const IvRenderOptions   *options,
                                 double                   width,
                                 double                   height,
                                 GError                 **error);

G_END_DECLS
