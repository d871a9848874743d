/* iv-cli-ranks.c: a distributed job's figures for `trace DIR -o FIGURE`: per-rank
 * stacked bars of HTA's temporal breakdown, and the straggler heat map (rank ×
 * collective instance, each cell the time that rank waited in that instance). Charts of
 * the chart toolkit, drawn through the shared export path. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-cli-ranks.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-rank-charts.h"
#include "iv-trace-ranks.h"

int
_iv_cli_ranks_figure (const IvTraceRanks *job, const char *output, const IvCliFigureArgs *fig)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvChartGrid) grid = NULL;
  IvExportOptions eo;
  IvFigure figure = { iv_chart_grid_render, NULL, "ranks", NULL };
  gboolean heat = job->stragglers && job->instances->len > 0;
  int rc;

  iv_export_options_init (&eo);
  eo.width = 1200, eo.height = heat ? 900 : 500, eo.dpi = 96;
  if ((rc = _iv_cli_figure_options ("trace", output, fig, &eo)) != IV_EXIT_OK)
    return rc;
  grid = iv_rank_charts_grid (job);
  figure.data = grid;
  if (!iv_export_to_file (&figure, &eo, output, &error))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}
