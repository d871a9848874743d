/* iv-stats.h: the statistics charts draw and runs report: quantiles, histogram bins,
 * box plots, and per-pixel-column decimation of long lines. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double q1, median, q3;
  double whisker_lo, whisker_hi; /* furthest data within 1.5 IQR of the box */
  double mean;
  guint n;
} IvBoxStats;

double *iv_stats_sorted_copy (const double *values, gsize n, gsize *n_finite);
gsize iv_stats_lower_bound (const double *sorted, gsize n, double value);
double iv_stats_quantile (const double *sorted, gsize n, double q);
/* The @nq quantiles @qs of @values (NaN and infinities skipped) into @out, as
 * iv_stats_quantile () would give on the sorted values, found by selection in linear
 * expected time instead of a sort; also the minimum and maximum (either may be NULL).
 * @n_finite receives the number of values counted. */
void iv_stats_quantiles (const double *values, gsize n, const double *qs, guint nq, double *out,
                         double *min, double *max, gsize *n_finite);
guint iv_stats_fd_bins (const double *sorted, gsize n);
void iv_stats_histogram (const double *values, gsize n, double lo, double hi, guint bins,
                         double *counts);
gboolean iv_stats_box (const double *sorted, gsize n, IvBoxStats *box);

/* Reduces sorted (x, y) to at most 4 points per pixel column (first, min, max, last),
 * which draws exactly like the full line at that width. @to_px maps x to a column.
 * Returns the number of points written to out_x/out_y (sized 4 × (columns + 2)). */
gsize iv_stats_decimate (const double *x, const double *y, gsize n, double x_lo, double x_hi,
                         guint columns, double *out_x, double *out_y);

G_END_DECLS
