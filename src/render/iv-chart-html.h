/* iv-chart-html.h: a chart as an interactive inline SVG figure of an HTML page. */
#pragma once

#include "iv-chart.h"
#include "iv-chart-grid.h"
#include "iv-surface.h"
#include "iv-export.h"

G_BEGIN_DECLS

/* <figure id="@id"> with the chart as inline SVG at @options' size (the frame and each
 * series a layer), a button per series that shows or hides it, and the hover targets of
 * each series as JSON (<script type="application/json" class="iv-points">): every
 * name in the SVG prefixed with @id, so figures can share a page. */
char *iv_chart_to_html (IvChart *chart, const IvExportOptions *options, const char *id,
                        GError **error);
/* Panels and surfaces: one SVG of the whole figure (no layers to toggle) with hover
 * targets — each panel's points and heat map cells, each surface point. */
char *iv_chart_grid_to_html (IvChartGrid *grid, const IvExportOptions *options, const char *id,
                             GError **error);
char *iv_surface_to_html (IvSurface *surface, const IvExportOptions *options, const char *id,
                          GError **error);
/* @s with <, >, & and " escaped, appended to @out. */
void iv_html_escape (GString *out, const char *s);

G_END_DECLS
