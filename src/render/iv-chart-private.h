/* iv-chart-private.h: the chart's insides, shared by iv-chart.c (model, ranges, layout,
 * axes, legend), iv-chart-draw.c (series) and iv-marker.c (fast scatter). */
#pragma once

#include <pango/pangocairo.h>

#include "iv-chart.h"
#include "iv-stats.h"
#include "iv-text.h"
#include "iv-theme.h"

G_BEGIN_DECLS

struct _IvSeries
{
  IvSeriesKind kind;
  char *name;
  char *short_name; /* the legend's, under the chart's legend title, where names crowd it */
  double *x, *y;    /* points; histogram: x = n + 1 bin edges, y = n counts */
  double *lo, *hi;  /* band and error bars */
  gsize n;
  gboolean sorted_x;
  guint32 rgb;
  gboolean has_color;
  IvColor color; /* resolved when drawing */
  double alpha;
  IvMarker marker;
  double size; /* marker diameter, logical units */
  double line_width;
  gboolean dashed;
  gboolean y2;
  gboolean visible;
  gboolean in_legend;
  gboolean stacked;
  char **labels;          /* one per point, NULL entries allowed */
  double *label_at;       /* where the last drawing put each label: x, y (top left), NaN for none */
  gboolean *label_leader; /* … away from its point, a line leading to it */
  IvBoxStats box;
  double position; /* box: where on x */
  guint nx, ny;    /* heatmap */
  double x0, x1, y0, y1, vmin, vmax;
  IvUnit value_unit;           /* a heat map's values, for its colour bar */
  double *base;                /* stacking baseline per point, filled when drawing */
  double ext_lo[2], ext_hi[2]; /* finite extents of x and y (positive-only for log: [1]) */
  double pos_lo[2];            /* smallest positive x and y, for log axes */
};

typedef enum
{
  IV_ANNOTATION_HLINE,
  IV_ANNOTATION_VLINE,
  IV_ANNOTATION_TEXT,
} IvAnnotationKind;

typedef struct
{
  IvAnnotationKind kind;
  double x, y;
  char *text;
} IvAnnotation;

typedef struct
{
  char *title;
  char *short_title; /* what the axis says where its title does not fit ("TTFT (p90)") */
  IvScaleSpec spec;
  gboolean fixed;
  double lo, hi;
  gboolean grid;
  gboolean hide_labels;
  char **categories; /* labels of the positions 0, 1, …: a heat map's rows or columns */
  guint n_categories;
  double *category_at; /* where each category sits, when not at 0, 1, … (grouped boxes) */
} IvAxis;

struct _IvChart
{
  char *title;
  char *short_title; /* a grid's panel's, where its title would wrap ("1024 × 2048") */
  char *subtitle;
  double title_scale;    /* 0: a figure's title (1.25 of the body); a grid's panels less */
  gboolean colorbar_off; /* a grid draws one colour bar for all its panels */
  IvAxis axis[IV_N_AXES];
  GPtrArray *series;
  GArray *annotations;
  IvLegendPlacement legend;
  char *legend_title; /* above a legend of the series' short names */
  IvBarMode bar_mode;
  gboolean bars_horizontal;
  char **categories;
  guint n_categories;
  IvChartLayout layout; /* cache of the last drawing, for pointer queries */
  gint layer;           /* what iv_chart_render draws: IV_CHART_LAYER_ALL, _FRAME or a series */
  /* a series layer is drawn where the last drawing of the same size laid it out, without
   * laying the chart out again (the HTML report: n layers cost n, not n², see
   * iv-chart-html.c); only while the series and their data stay as they were */
  gboolean keep_layout;
};

typedef struct
{
  IvTicks *ticks;
  double max_w, max_h; /* largest label (as drawn: a turned label's height is its length) */
  gboolean turned;     /* x names too many to stand side by side: turned upright, thinned */
  double turned_max;   /* a turned name's longest, past which it ends in … */
} AxisTicks;

typedef struct
{
  double w, h;
  guint rows;    /* lines of entries */
  guint entries; /* entries, laid out row by row in @cols columns */
  guint cols;
  double col_w;
  double row_h;
  double swatch;
  gboolean truncated;   /* a name did not fit the width allowed */
  gboolean short_names; /* the series' short names, the chart's legend title above them */
  double title_h;       /* that title's line, 0 without */
} LegendSize;

#define IV_CHART_FONT_PX 13.0 /* body text, logical units */
#define IV_CHART_PAD 10.0     /* outer padding */
/* A subtitle's lines at most: on a paper column's short page the third would take the
 * plot's height */
#define IV_CHART_TITLE_SCALE(chart) ((chart)->title_scale > 0 ? (chart)->title_scale : 1.25)
#define IV_CHART_SUBTITLE_LINES(height) ((height) < 400 ? 2 : 3)

/* What one drawing needs at hand. */
typedef struct
{
  cairo_t *cr;
  IvTheme theme;
  const IvThemeColors *colors;
  PangoLayout *text;
  double font_px;
  IvChart *chart;
  IvChartLayout *L;
  double max_text_w; /* > 0: text wider than this is ellipsized (titles) */
  int max_lines;     /* with max_text_w: wrapped to at most this many lines first (subtitles) */
  IvTextFlags allow; /* what the text drawn now may do (iv-text.h): the layout check's */
  gboolean title_two_lines[IV_N_AXES]; /* the layout's choice: the unit under the title */
  gboolean legend_moved;               /* the legend is below only because inside it hid a point */
  gboolean middle; /* with max_text_w: cut in the middle (run names differ at their ends) */
} IvChartCtx;

/* Where a legend inside the plot hides the fewest points and labels; how many it hides. */
double _iv_chart_legend_inside (IvChartCtx *ctx, const LegendSize *size, double *x, double *y);

static inline double
_iv_px_x (const IvChartLayout *L, double v)
{
  return L->plot_x
         + iv_scale_normalize (L->kind[IV_AXIS_X], L->lo[IV_AXIS_X], L->hi[IV_AXIS_X], v)
               * L->plot_w;
}

static inline double
_iv_px_y (const IvChartLayout *L, IvAxisId axis, double v)
{
  return L->plot_y + L->plot_h
         - iv_scale_normalize (L->kind[axis], L->lo[axis], L->hi[axis], v) * L->plot_h;
}

void _iv_chart_layout (IvChartCtx *ctx, double width, double height, AxisTicks ticks[IV_N_AXES],
                       LegendSize *legend);
void _iv_chart_draw_grid (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES]);
void _iv_chart_draw_axes (IvChartCtx *ctx, AxisTicks ticks[IV_N_AXES]);
void _iv_chart_draw_annotations (IvChartCtx *ctx);
void _iv_chart_draw_legend (IvChartCtx *ctx, const LegendSize *size);
double _iv_chart_legend_band (IvChartCtx *ctx, double width, gboolean draw);
void _iv_chart_place_labels (IvChartCtx *ctx);
void _iv_chart_draw_colorbar (IvChartCtx *ctx, IvSeries *series);
/* @chart's first heat map's colour bar alone in a strip at (@x, @y), @h high, titled
 * "name (unit)" where that fits the height; its width, drawn only when @draw. 0: none. */
double _iv_chart_colorbar_strip (cairo_t *cr, IvChart *chart, const IvRenderOptions *options,
                                 double x, double y, double h, gboolean draw);
gboolean _iv_chart_series_in_legend (const IvSeries *series);
void _iv_chart_draw_series (IvChartCtx *ctx, IvSeries *series, guint index);
void _iv_chart_draw_marker (cairo_t *cr, IvMarker marker, double x, double y, double size);
void _iv_chart_draw_scatter (IvChartCtx *ctx, IvSeries *series);
void _iv_chart_bar_geometry (const IvChart *chart, guint bar_index, guint n_bar_series,
                             double *offset, double *width);
/* Bar @k of @series: its top, and its bottom in @bottom, in value units (percent of the
 * category's total in IV_BARS_PERCENT mode). */
double _iv_chart_bar_top (const IvChart *chart, const IvSeries *series, gsize k, double *bottom);
/* Bar @k of @series as drawn, in pixels of the chart's layout (x0 ≤ x1, y0 ≤ y1). */
void _iv_chart_bar_rect (const IvChart *chart, const IvSeries *series, gsize k, double *x0,
                         double *y0, double *x1, double *y1);
guint _iv_chart_bar_index (const IvChart *chart, const IvSeries *series, guint *n_bar_series);
double _iv_chart_category_position (const IvChart *chart, gsize k, gsize n);
void _iv_chart_text_size (IvChartCtx *ctx, const char *text, double scale, gboolean bold, double *w,
                          double *h);
void _iv_chart_show_text (IvChartCtx *ctx, const char *text, double x, double y, double xalign,
                          double yalign, double scale, gboolean bold, const IvColor *color);

G_END_DECLS
