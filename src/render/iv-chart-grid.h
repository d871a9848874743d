/* iv-chart-grid.h: several charts in a grid of panels, optionally sharing axes. */
#pragma once

#include "iv-chart.h"

G_BEGIN_DECLS

typedef struct _IvChartGrid IvChartGrid;

IvChartGrid *iv_chart_grid_new (guint rows, guint columns);
void iv_chart_grid_free (IvChartGrid *grid);
/* Takes ownership of @chart. */
void iv_chart_grid_set (IvChartGrid *grid, guint row, guint column, IvChart *chart);
IvChart *iv_chart_grid_get (IvChartGrid *grid, guint row, guint column);
void iv_chart_grid_set_title (IvChartGrid *grid, const char *title);
const char *iv_chart_grid_get_title (const IvChartGrid *grid);
/* The legend of the panel at (@row, @column) drawn once, below all panels across the
 * grid's width (its entries in columns); -1, -1: each panel draws its own. */
void iv_chart_grid_set_legend (IvChartGrid *grid, int row, int column);
void iv_chart_grid_share_axes (IvChartGrid *grid, gboolean share_x, gboolean share_y);
/* The panels' heat maps share one colour scale (the same value range): one colour bar,
 * right of the grid, instead of one beside each panel. */
void iv_chart_grid_share_colorbar (IvChartGrid *grid, gboolean share);
/* The panels, in order, flow into the rows and columns that give each the shape nearest
 * @aspect (width / height) at the size the grid is drawn: four heat maps side by side
 * in a wide, short window, two by two on a paper column. 0: as set. */
void iv_chart_grid_set_reflow (IvChartGrid *grid, double aspect);
gboolean iv_chart_grid_render (cairo_t *cr, gconstpointer grid, const IvRenderOptions *options,
                               double width, double height, GError **error);

guint iv_chart_grid_get_rows (const IvChartGrid *grid);
guint iv_chart_grid_get_columns (const IvChartGrid *grid);
/* After a drawing: where the panel's top-left corner went (FALSE before one). */
gboolean iv_chart_grid_panel_origin (const IvChartGrid *grid, guint row, guint column, double *x,
                                     double *y);
/* After a drawing: the panel under (@px, @py), with the point in its own coordinates. */
IvChart *iv_chart_grid_panel_at (IvChartGrid *grid, double px, double py, double *lx, double *ly);
/* The hover card of the point (or heat map cell) under (@px, @py) within @radius, its
 * panel's title first; NULL when none. */
char *iv_chart_grid_describe_at (IvChartGrid *grid, double px, double py, double radius);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvChartGrid, iv_chart_grid_free)

G_END_DECLS
