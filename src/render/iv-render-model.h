/* iv-render-model.h: the Model workspace's figures, each a pure renderer of an
 * evaluated configuration (IvResult) and one of its layer kinds: pipeline, stages,
 * memory, roofline, topology. */
#pragma once

#include "iv-compare.h"
#include "iv-model.h"
#include "iv-render.h"

G_BEGIN_DECLS

/* What the sweep figure varies. */
typedef enum
{
  IV_SWEEP_TP,
  IV_SWEEP_CP,
  IV_SWEEP_TQ,
  IV_SWEEP_CONTEXT,
} IvSweepAxis;

typedef struct
{
  const IvResult *result;
  guint kind; /* which layer kind to show */
  IvSweepAxis sweep;
  gboolean annotate; /* sharding: each shard's cube and PE written in it */
} IvModelFigure;

/* The sweep's values for @axis around @result's configuration (powers of two within what
 * the SIP holds); returns the count, at most @max. */
guint iv_sweep_values (const IvResult *result, IvSweepAxis axis, gint64 *values, guint max);
gboolean iv_sweep_axis_from_string (const char *name, IvSweepAxis *axis);

/* Bound colours, shared by every figure and the workspace's table. */
#define IV_BOUND_COMPUTE_RGB 0x4682b4
#define IV_BOUND_MEMORY_RGB 0xe37400
#define IV_BOUND_COMM_RGB 0xc62828
#define IV_BOUND_TRIVIAL_RGB 0xa9a9a9
/* The ring-attention loop: purple, unlike every bound colour, since it is a loop over
 * stages and not a stage's verdict. */
#define IV_RING_LOOP_RGB 0x7b3fa0
/* The topology's groups: the first TP group, CP group and EP group, with their links;
 * apart from the bound colours and the ring in hue (a TP group in Okabe–Ito blue read as
 * compute-bound, issue 31), checked in both themes by tests/test-theme.c. */
#define IV_TP_GROUP_RGB 0x8a9a00 /* olive green */
#define IV_CP_GROUP_RGB 0x009e73 /* bluish green */
#define IV_EP_GROUP_RGB 0x00838f /* teal */

typedef struct
{
  double x, y, w, h;
} IvRect;

/* Where the pipeline figure puts things: box rectangles per stage (w = 0 when absent),
 * the loop arc (when drawn) and the two rows. */
typedef struct
{
  IvRect box[IV_N_STAGES];
  gboolean has_arc;
  IvRect arc; /* bounding box of the ring-attention loop arc */
  IvRect attention_row, ffn_row;
  double gap, row_gap; /* between boxes, between rows: tighter on a narrow page */
} IvPipelineLayout;

/* Where the topology figure puts things: cube i at iv_topology_cube_rect (), PE p of cube
 * i at iv_topology_pe_center (). */
typedef struct
{
  gint64 X, Y, n_pe;
  double x0, y0, cube_size, gap;
  double pe_ring_radius, pe_radius;
  double legend_h;      /* the key's rows at the bottom: more than one on a narrow page */
  gboolean short_names; /* "G3"/"c3" where "GPU 3"/"cube 3" does not fit, the key says so */
  double title_h;       /* the titles above: the subtitle wraps on a narrow page */
} IvTopologyLayout;

guint32 iv_bound_color (IvBound bound);
/* FALSE with @error ("no evaluated configuration to draw: …") unless @figure holds a
 * result that evaluated: every model figure's first check. */
gboolean iv_model_figure_check (const IvModelFigure *figure, GError **error);
/* A closed rounded-rectangle path (the boxes of the model's figures). */
void iv_rounded_rect (cairo_t *cr, IvRect rect, double radius);
void iv_topology_layout (const IvModelFigure *figure, double width, double height,
                         IvTopologyLayout *layout);
IvRect iv_topology_cube_rect (const IvTopologyLayout *layout, gint64 cube);
void iv_topology_pe_center (const IvTopologyLayout *layout, gint64 cube, gint64 pe, double *x,
                            double *y);
/* @figure is an IvCompareTable. */
gboolean iv_render_compare (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                            double width, double height, GError **error);
/* Layer time stacked by stage group against TP, CP, T_q or context, the current value in
 * brackets: where the configuration stops scaling. */
gboolean iv_render_sweep (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                          double width, double height, GError **error);
/* Where TP rank @tp of CP rank @cp sits: its cube and its PE in that cube. */
void iv_sharding_place (const IvConfig *config, gint64 tp, gint64 cp, gint64 *cube, gint64 *pe);
gboolean iv_render_sharding (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                             double width, double height, GError **error);
gboolean iv_render_topology (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                             double width, double height, GError **error);
void iv_pipeline_layout (const IvModelFigure *figure, double width, double height,
                         IvPipelineLayout *layout);
/* How much larger the pipeline and stages figures draw in @width × @height than at their
 * natural size (1 up to a large window's 1.5): the pipeline's boxes are
 * iv_pipeline_layout's at @width / zoom × @height / zoom, times zoom. */
double iv_model_figure_zoom (double width, double height);
/* A stage's name as a box of the pipeline holds it ("W_Q", "KV append"). */
const char *iv_stage_short_name (IvStageId stage);
gboolean iv_render_pipeline (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                             double width, double height, GError **error);
gboolean iv_render_stages (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                           double width, double height, GError **error);
gboolean iv_render_memory (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                           double width, double height, GError **error);
gboolean iv_render_roofline (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                             double width, double height, GError **error);

G_END_DECLS
