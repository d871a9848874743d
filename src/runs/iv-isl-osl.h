/* iv-isl-osl.h: the runs of a sweep placed on a grid of input length (ISL) × output length
 * (OSL) × load (concurrency, or the request rate when no run has a concurrency), for the
 * figures that compare sequence lengths. */
#pragma once

#include "iv-sweep.h"

G_BEGIN_DECLS

typedef struct
{
  guint n_isl, n_osl, n_load;
  double *isl, *osl, *load; /* each axis's distinct values, ascending */
  IvField load_field;       /* IV_FIELD_CONCURRENCY or IV_FIELD_REQUEST_RATE */
  GPtrArray **cells;        /* [iv_isl_osl_index ()]: the runs there (IvRun*, borrowed), or NULL */
  guint n_runs, n_left_out; /* placed, and without an ISL, OSL or load */
} IvIslOslGrid;

/* NULL with @reason (one sentence) unless the runs of @sweep fill at least two distinct
 * (ISL, OSL) cells. The grid borrows the runs: free it before the sweep. */
IvIslOslGrid *iv_isl_osl_grid_new (const IvSweep *sweep, char **reason);
void iv_isl_osl_grid_free (IvIslOslGrid *grid);
guint iv_isl_osl_index (const IvIslOslGrid *grid, guint load, guint isl, guint osl);
/* The mean of @metric's @stat (iv_run_axis_value ()) over the runs of a cell: repeated
 * runs of one configuration count once each. NaN when the cell is empty or no run has it. */
double iv_isl_osl_value (const IvIslOslGrid *grid, guint load, guint isl, guint osl,
                         const char *metric, const char *stat);
/* A run of the cell with the metric, for its unit; NULL when none. */
const IvRun *iv_isl_osl_any_run (const IvIslOslGrid *grid, const char *metric);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvIslOslGrid, iv_isl_osl_grid_free)

G_END_DECLS
