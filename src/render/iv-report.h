/* iv-report.h: the offline HTML report of runs — one self-contained page (no network,
 * no other file): the runs and each run's metrics in sortable tables, every figure as
 * inline SVG with hover tooltips and series toggles, light or dark by the reader's
 * preference. Names and values from the runs and the plot configuration are data: each
 * is escaped for where it goes, ids are numbered (fig-1, fig-2, …), and the page's
 * Content Security Policy runs only its own script and style (by SHA-256). */
#pragma once

#include "iv-export.h"
#include "iv-plot-config.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

/* The page for @sweep with the presets @names of @config (multi: the comparison's), the
 * figures at @options' size; NULL with an error when a figure cannot be drawn. */
GString *iv_report_html (const IvSweep *sweep, const IvPlotConfig *config, GPtrArray *names,
                         gboolean multi, const IvExportOptions *options, GError **error);

G_END_DECLS
