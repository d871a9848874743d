/* iv-cli-ranks.h: a distributed job's figures for `trace DIR -o FIGURE`. */
#pragma once

#include "iv-cli-private.h"
#include "iv-trace-ranks.h"

/* Per-rank temporal breakdown bars and, on a common clock, the straggler heat map, to
 * @output through the export path. An exit status. */
int _iv_cli_ranks_figure (const IvTraceRanks *job, const char *output, const IvCliFigureArgs *fig);
