/* iv-chart-grid.h: several charts in a grid of panels, optionally sharing axes. */
#pragma once

#include "iv-chart.h"

G_BEGIN_DECLS

typedef struct _IvChartGrid IvChartGrid;

IvChartGrid *iv_chart_grid_new        (guint              rows,
                                       guint              columns);
void         iv_chart_grid_free       (IvChartGrid       *grid);
/* Takes ownership of @chart. */
void         iv_chart_grid_set        (IvChartGrid       *grid,
                                       guint              row,
                                       guint              column,
                                       IvChart           *chart);
IvChart     *iv_chart_grid_get        (IvChartGrid       *grid,
                                       guint              row,
                                       guint              column);
void         iv_chart_grid_set_title  (IvChartGrid       *grid,
                                       const char        *title);
void         iv_chart_grid_share_axes (IvChartGrid       *grid,
                                       gboolean           share_x,
                                       gboolean           share_y);
gboolean     iv_chart_grid_render     (cairo_t               *cr,
                                       gconstpointer          grid,
                                       const IvRenderOptions *options,
                                       double                 width,
                                       double                 height,
                                       GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvChartGrid, iv_chart_grid_free)

G_END_DECLS
