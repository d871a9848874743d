/* iv-chart-html.h: a chart as an interactive inline SVG figure of an HTML page.
 *
 * Names, titles and values come from files a user did not write: every one of them is
 * escaped for where it goes (text and quoted attributes by iv_html_escape, script data as
 * JSON whose '<', '>' and '&' are \u escapes) and made valid UTF-8 first. Element ids
 * and the names inside each SVG are made from the figure's number, never from data. */
#pragma once

#include "iv-chart.h"
#include "iv-chart-grid.h"
#include "iv-surface.h"
#include "iv-export.h"

G_BEGIN_DECLS

/* <figure id="fig-@number" data-preset="@name"> with the chart as inline SVG at
 * @options' size (the frame and each series a layer, each series drawn once), a button
 * per series that shows or hides it, and the hover targets of each series as JSON
 * (<script type="application/json" class="iv-points">): every name in the SVG prefixed
 * with the figure's id, so figures can share a page. The SVG has no style attribute
 * (cairo's are written as presentation attributes), so a page may forbid inline styles.
 * @name may be NULL. */
char *iv_chart_to_html (IvChart *chart, const IvExportOptions *options, guint number,
                        const char *name, GError **error);
/* Panels and surfaces: one SVG of the whole figure (no layers to toggle) with hover
 * targets — each panel's points and heat map cells, each surface point. */
char *iv_chart_grid_to_html (IvChartGrid *grid, const IvExportOptions *options, guint number,
                             const char *name, GError **error);
char *iv_surface_to_html (IvSurface *surface, const IvExportOptions *options, guint number,
                          const char *name, GError **error);
/* @s appended to @out as HTML text or a double-quoted attribute's value: made valid UTF-8
 * (iv_text_valid), &, <, >, " and ' escaped, and C0 controls (but tab and line feed) and
 * DEL replaced with U+FFFD, which HTML cannot carry as text. NULL appends nothing. */
void iv_html_escape (GString *out, const char *s);
/* @json (JSON text) appended to @out as the content of a <script type="application/json">:
 * every '<', '>' and '&' (only ever inside strings) written as \u003c, \u003e, \u0026, so
 * that no "</script", "<!--" or "<script" can end the element or change how it is read;
 * JSON.parse reads the same value. */
void iv_html_script_json (GString *out, const char *json);

G_END_DECLS
