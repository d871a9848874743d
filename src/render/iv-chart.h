/* iv-chart.h: a chart (axes, series, annotations, legend) drawn with cairo and Pango.
 * Build one with iv_chart_new () and the iv_chart_add_* calls (data are copied), then
 * draw it with iv_chart_render (), an IvRenderFunc: on screen and to every export format. */
#pragma once

#include "iv-render.h"
#include "iv-scale.h"

G_BEGIN_DECLS

typedef struct _IvChart IvChart;
typedef struct _IvSeries IvSeries;

typedef enum
{
  IV_AXIS_X,
  IV_AXIS_Y,
  IV_AXIS_Y2, /* secondary y axis, on the right */
  IV_N_AXES
} IvAxisId;

typedef enum
{
  IV_SERIES_SCATTER,
  IV_SERIES_LINE,
  IV_SERIES_STEP,
  IV_SERIES_AREA,
  IV_SERIES_BARS,
  IV_SERIES_HISTOGRAM,
  IV_SERIES_CDF,
  IV_SERIES_BOX,
  IV_SERIES_ERROR_BARS,
  IV_SERIES_BAND,
  IV_SERIES_HEATMAP,
  IV_SERIES_SPANS, /* horizontal bars from x0 to x1 at row y: a Gantt chart's */
} IvSeriesKind;

typedef enum
{
  IV_MARKER_CIRCLE,
  IV_MARKER_SQUARE,
  IV_MARKER_TRIANGLE,
  IV_MARKER_DIAMOND,
} IvMarker;

typedef enum
{
  IV_BARS_GROUPED,
  IV_BARS_STACKED,
  IV_BARS_PERCENT, /* stacked, each category scaled to 100 % */
} IvBarMode;

typedef enum
{
  IV_LEGEND_AUTO,   /* inside the plot, where it hides the least data */
  IV_LEGEND_RIGHT,  /* outside, right of the plot */
  IV_LEGEND_BOTTOM, /* outside, below the plot */
  IV_LEGEND_HIDDEN,
} IvLegendPlacement;

/* Where the last drawing put things: what hit-testing and zooming need. */
typedef struct
{
  double width, height; /* the whole figure */
  double plot_x, plot_y, plot_w, plot_h;
  double lo[IV_N_AXES], hi[IV_N_AXES];
  IvScaleKind kind[IV_N_AXES];
  gboolean has_y2;
  double legend_x, legend_y, legend_w, legend_h; /* legend box, 0 × 0 when none */
  double legend_row_h, legend_col_w;
  guint n_legend_rows, n_legend_cols; /* a legend below the plot flows into columns */
  IvLegendPlacement legend_placement; /* where it went: AUTO can fall back to BOTTOM */
  gboolean legend_chosen;             /* AUTO: legend_x and legend_y already chosen */
  gboolean valid;
} IvChartLayout;

typedef struct
{
  const IvSeries *series;
  guint series_index;
  gsize index;     /* point index inside the series */
  double x, y;     /* data values */
  double px, py;   /* where it is drawn */
  double distance; /* pixels from the pointer */
} IvChartHit;

IvChart *iv_chart_new (void);
/* What iv_chart_render draws: everything (the default), the frame alone (background,
 * titles, grid, annotations, axes, legend: every series hidden, the layout unchanged),
 * or one series alone on a transparent ground where the whole chart would put it — the
 * layers of a figure whose series a reader can show and hide (the HTML report). */
#define IV_CHART_LAYER_ALL (-2)
#define IV_CHART_LAYER_FRAME (-1)
void iv_chart_set_layer (IvChart *chart, gint layer);
void iv_chart_free (IvChart *chart);

void iv_chart_set_title (IvChart *chart, const char *title, const char *subtitle);
/* What a grid's panel is titled where its title would not fit on one line. */
void iv_chart_set_short_title (IvChart *chart, const char *title);
void iv_chart_set_legend (IvChart *chart, IvLegendPlacement placement);
/* A legend below the plot whose full names would take more than two rows uses the
 * series' short names (iv_series_set_short_name) under @title, when every entry has one:
 * nine "ISL 128 · OSL 2048" groups are "128 · 2048" under "ISL · OSL". */
void iv_chart_set_legend_title (IvChart *chart, const char *title);
void iv_chart_set_bar_mode (IvChart *chart, IvBarMode mode, gboolean horizontal);
void iv_chart_set_categories (IvChart *chart, const char *const *names, guint n);

/* Axes. */
void iv_chart_axis_set_title (IvChart *chart, IvAxisId axis, const char *title);
const char *iv_chart_axis_get_title (const IvChart *chart, IvAxisId axis);
/* What the axis says where its title (with its unit) does not fit, before it is cut
 * short with "…": "ITL (avg)" for "Inter-token latency (avg)" on a paper column. */
void iv_chart_axis_set_short_title (IvChart *chart, IvAxisId axis, const char *title);
const char *iv_chart_get_title (const IvChart *chart);
void iv_chart_axis_set_scale (IvChart *chart, IvAxisId axis, IvScaleKind kind);
IvScaleKind iv_chart_axis_get_scale (IvChart *chart, IvAxisId axis);
void iv_chart_axis_set_unit (IvChart *chart, IvAxisId axis, IvUnit unit);
void iv_chart_axis_set_time (IvChart *chart, IvAxisId axis, double origin, gboolean clock);
void iv_chart_axis_set_range (IvChart *chart, IvAxisId axis, double lo, double hi);
void iv_chart_axis_clear_range (IvChart *chart, IvAxisId axis);
void iv_chart_axis_set_grid (IvChart *chart, IvAxisId axis, gboolean grid);
void iv_chart_axis_hide_labels (IvChart *chart, IvAxisId axis, gboolean hide);
/* The axis labels positions 0 … @n − 1 with @names instead of numbers (a heat map's
 * rows and columns: give it x0 = −0.5, x1 = n − 0.5). */
void iv_chart_axis_set_categories (IvChart *chart, IvAxisId axis, const char *const *names,
                                   guint n);
/* The categories just set sit at @at (one per category) rather than at 0, 1, …: a group's
 * name under the middle of its boxes. */
void iv_chart_axis_set_category_positions (IvChart *chart, IvAxisId axis, const double *at);

/* Series: the data are copied. Colours are picked per name unless set. */
IvSeries *iv_chart_add_scatter (IvChart *chart, const char *name, const double *x, const double *y,
                                gsize n);
IvSeries *iv_chart_add_line (IvChart *chart, const char *name, const double *x, const double *y,
                             gsize n);
IvSeries *iv_chart_add_step (IvChart *chart, const char *name, const double *x, const double *y,
                             gsize n);
IvSeries *iv_chart_add_area (IvChart *chart, const char *name, const double *x, const double *y,
                             gsize n, gboolean stacked);
IvSeries *iv_chart_add_bars (IvChart *chart, const char *name, const double *values,
                             gsize n_categories);
IvSeries *iv_chart_add_histogram (IvChart *chart, const char *name, const double *values, gsize n,
                                  guint bins);
IvSeries *iv_chart_add_cdf (IvChart *chart, const char *name, const double *values, gsize n);
IvSeries *iv_chart_add_box (IvChart *chart, const char *name, double position, const double *values,
                            gsize n);
IvSeries *iv_chart_add_error_bars (IvChart *chart, const char *name, const double *x,
                                   const double *y, const double *lo, const double *hi, gsize n);
IvSeries *iv_chart_add_band (IvChart *chart, const char *name, const double *x, const double *lo,
                             const double *hi, gsize n);
/* One horizontal bar per item, from @x0 to @x1 on row @y (rows one y unit apart). */
IvSeries *iv_chart_add_spans (IvChart *chart, const char *name, const double *x0, const double *x1,
                              const double *y, gsize n);
IvSeries *iv_chart_add_heatmap (IvChart *chart, const char *name, const double *values, guint nx,
                                guint ny, double x0, double x1, double y0, double y1);

void iv_chart_add_hline (IvChart *chart, double y, const char *label);
void iv_chart_add_vline (IvChart *chart, double x, const char *label);
void iv_chart_add_text (IvChart *chart, double x, double y, const char *text);

void iv_series_set_color (IvSeries *series, guint32 rgb);
void iv_series_set_marker (IvSeries *series, IvMarker marker, double size);
void iv_series_set_alpha (IvSeries *series, double alpha);
void iv_series_set_line_width (IvSeries *series, double width);
void iv_series_set_dashed (IvSeries *series, gboolean dashed);
void iv_series_set_y2 (IvSeries *series, gboolean y2);
void iv_series_set_visible (IvSeries *series, gboolean visible);
gboolean iv_series_get_visible (const IvSeries *series);
const char *iv_series_get_name (const IvSeries *series);
/* The points, bars or spans the series holds. */
gsize iv_series_get_length (const IvSeries *series);
IvSeriesKind iv_series_get_kind (const IvSeries *series);
/* Point labels; on a heat map, the text written in each cell (NULL or "" for none). */
void iv_series_set_labels (IvSeries *series, const char *const *labels);
/* A heat map's colour range, so that panels share one scale (default: its data's). */
/* The unit of a heat map's values, for its colour bar's labels. */
void iv_series_set_value_unit (IvSeries *series, IvUnit unit);
void iv_series_set_value_range (IvSeries *series, double lo, double hi);
void iv_series_set_show_in_legend (IvSeries *series, gboolean show);
void iv_series_set_short_name (IvSeries *series, const char *short_name);

guint iv_chart_get_n_series (const IvChart *chart);
IvSeries *iv_chart_get_series (IvChart *chart, guint index);
const IvUnit *iv_chart_axis_get_unit (const IvChart *chart, IvAxisId axis);

/* Drawing (an IvRenderFunc: data is the IvChart). Fills the chart's layout cache. */
gboolean iv_chart_render (cairo_t *cr, gconstpointer chart, const IvRenderOptions *options,
                          double width, double height, GError **error);
/* @chart's legend alone, in a band @width wide, drawn from (0, 0) when @draw: its height
 * (0 without entries). Panels of a grid share one this way. */
double iv_chart_render_legend (cairo_t *cr, IvChart *chart, const IvRenderOptions *options,
                               double width, gboolean draw);
const IvChartLayout *iv_chart_get_layout (const IvChart *chart);

/* Pointer queries against the last layout. */
gboolean iv_chart_hit_test (const IvChart *chart, double px, double py, double radius,
                            IvChartHit *hit);
/* What a hover card says of @hit: the series, the point's label, both values in their
 * axes' units (or category names); a heat map cell's value and its row and column. */
char *iv_chart_describe_hit (const IvChart *chart, const IvChartHit *hit);
int iv_chart_legend_hit (const IvChart *chart, double px, double py);
double iv_chart_to_data (const IvChartLayout *layout, IvAxisId axis, double pixel);
double iv_chart_to_pixel (const IvChartLayout *layout, IvAxisId axis, double value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvChart, iv_chart_free)

G_END_DECLS
