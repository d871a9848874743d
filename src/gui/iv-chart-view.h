/* iv-chart-view.h: one chart on screen: hover cards, wheel zoom and drag pan on
 * either axis, reset, log toggles, series toggled from the legend, export. */
#pragma once

#include <gtk/gtk.h>

#include "iv-chart.h"

G_BEGIN_DECLS

#define IV_TYPE_CHART_VIEW (iv_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (IvChartView, iv_chart_view, IV, CHART_VIEW, GtkWidget)

typedef enum
{
  IV_CHART_VIEW_AXIS_X = 1 << 0,
  IV_CHART_VIEW_AXIS_Y = 1 << 1,
  IV_CHART_VIEW_AXIS_BOTH = 3,
} IvChartViewAxes;

GtkWidget *iv_chart_view_new (void);
/* Takes ownership of @chart. */
void iv_chart_view_set_chart (IvChartView *self, IvChart *chart, const char *figure_name);
IvChart *iv_chart_view_get_chart (IvChartView *self);
const IvFigure *iv_chart_view_get_figure (IvChartView *self);
/* The interactions, callable directly (tests, keyboard). */
void iv_chart_view_zoom_at (IvChartView *self, double x, double y, double factor,
                            IvChartViewAxes axes);
void iv_chart_view_pan_by (IvChartView *self, double dx, double dy, IvChartViewAxes axes);
void iv_chart_view_reset (IvChartView *self);
/* The "log-x" / "log-y" properties (axis IV_AXIS_X or IV_AXIS_Y). */
void iv_chart_view_set_log (IvChartView *self, IvAxisId axis, gboolean log);
gboolean iv_chart_view_get_log (IvChartView *self, IvAxisId axis);
gboolean iv_chart_view_click (IvChartView *self, double x, double y);
char *iv_chart_view_describe_at (IvChartView *self, double x, double y);
/* Where the hovered point's card of values is drawn, in widget pixels; FALSE without one. */
gboolean iv_chart_view_get_card (IvChartView *self, graphene_rect_t *box);

G_END_DECLS
