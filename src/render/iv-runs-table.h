/* iv-runs-table.h: the Runs tables, composed once for the window, the HTML report and the
 * command line so that they cannot diverge — the comparison's (a row per run: its
 * configuration, headline numbers and, with hardware chosen, how near the bound it came)
 * and a run's (a row per metric with its statistics and where they come from). */
#pragma once

#include "iv-run-bound.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

typedef struct
{
  char *text;       /* what the cell says when it is not a number alone ("10 of 64"), or NULL */
  double value;     /* the number shown (without text) and sorted by; NaN: none */
  const char *unit; /* the number's unit ("ms", "%"), static; NULL: none */
} IvTableCell;

typedef struct
{
  guint index;        /* the run in the sweep, or the metric's position in the run */
  IvTableCell *cells; /* one per column */
} IvRunsTableRow;

/* A column folded out of the comparison: the same for every run, said once. */
typedef struct
{
  char *title; /* translated, as the column's ("Model") */
  char *text;  /* the value every run has, as a cell shows it */
} IvRunsTableConstant;

typedef struct
{
  GPtrArray *titles; /* char*, translated */
  GArray *rows;      /* IvRunsTableRow */
  guint n_columns;
  GArray *constants; /* IvRunsTableConstant: what every run shares, above the table */
} IvRunsTable;

/* The hardware runs are set against in the comparison (NULL hardware: none). */
typedef struct
{
  const IvHardware *hardware;
  const IvModel *model; /* NULL: each run's own, matched by name */
  gint64 tp;            /* 0: the smallest that fits */
} IvRunsBoundChoice;

/* A row per run: Run (what varies, iv_sweep_run_label), Model, Concurrency, Requests
 * ("10 of 64" when fewer records than AIPerf counted), Errors, TTFT p50, ITL avg, Latency
 * p99, Output tokens/s, then Server KV cache avg when a run has it, then, with @bound's
 * hardware, Bound ITL, ITL of bound and Tokens/s of bound. With two runs or more, a column
 * other than Run that reads the same in every row is no column: it is one of the
 * constants (a column with no value in any row goes; so does Concurrency when every run's
 * name says it, iv_sweep_labels_name), and so are the configuration fields
 * that are no column (ISL, OSL, endpoint type, streaming) when every run has the same. */
IvRunsTable *iv_runs_table_comparison (const IvSweep *sweep, const IvRunsBoundChoice *bound);
/* A row per metric of @run: Metric (its unit with the name), avg, min, p50, p90, p95, p99,
 * max, std (numbers in the metric's unit), Source. */
IvRunsTable *iv_runs_table_metrics (const IvRun *run);
void iv_runs_table_free (IvRunsTable *table);

/* A number for people: a duration in ms in its best unit ("3.91 s", never "3.91k ms"),
 * whole below 100,000 ("3634"), else SI ("1.2M"); "–" for NaN; the unit after it. */
char *iv_runs_table_number (double value, const char *unit);
/* The cell as text: its text, else its number (iv_runs_table_number). */
char *iv_runs_table_cell_text (const IvTableCell *cell);
/* The constants on one line, "Model: Qwen/Qwen3-0.6B · Errors: 0", or NULL when none: the
 * header the window, the report and `inferview runs` show above the table. */
char *iv_runs_table_constants_text (const IvRunsTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvRunsTable, iv_runs_table_free)

G_END_DECLS
