/* iv-rank-charts.h: a distributed job's figures — per-rank stacked bars of HTA's temporal
 * breakdown, and the straggler heat map (rank × collective instance, each cell the time
 * that rank waited in that instance). The window's Ranks page and `trace DIR -o FIGURE`
 * draw the same charts. */
#pragma once

#include "iv-chart-grid.h"
#include "iv-chart.h"
#include "iv-trace-ranks.h"

G_BEGIN_DECLS

/* One bar a rank, each 100 % of its first → last kernel span: compute, non-compute, idle. */
IvChart *iv_rank_chart_breakdown (const IvTraceRanks *job);
/* NULL when the waits mean nothing (no common clock) or there is no collective. */
IvChart *iv_rank_chart_stragglers (const IvTraceRanks *job);
/* Both, one above the other (the breakdown alone without the heat map). */
IvChartGrid *iv_rank_charts_grid (const IvTraceRanks *job);

G_END_DECLS
