/* iv-stats.c: quantiles use linear interpolation between order statistics (Hyndman &
 * Fan type 7, numpy's default), so the numbers match what users compute in Python. */
#include "iv-stats.h"

#include "iv-big-alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static int
compare_sizes (const void *a, const void *b)
{
  gsize x = *(const gsize *) a, y = *(const gsize *) b;
  return (x > y) - (x < y);
}

double *
iv_stats_sorted_copy (const double *values, gsize n, gsize *n_finite)
{
  double *out = g_new (double, MAX (n, 1));
  gsize m = 0;

  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      out[m++] = values[i];
  if (m > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (out, m, sizeof (double), compare_doubles);
  *n_finite = m;
  return out;
}

/* The first index whose value is >= @value in an ascending array (n when none). */
gsize
iv_stats_lower_bound (const double *sorted, gsize n, double value)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (sorted[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

double
iv_stats_quantile (const double *sorted, gsize n, double q)
{
  double h;
  gsize i;

  if (n == 0)
    return NAN;
  q = CLAMP (q, 0.0, 1.0);
  h = (n - 1) * q;
  i = (gsize) floor (h);
  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

/* Freedman–Diaconis: bin width 2·IQR·n^(−1/3); Sturges when the IQR is zero. */
guint
iv_stats_fd_bins (const double *sorted, gsize n)
{
  double iqr, width, span;

  if (n < 2)
    return 1;
  span = sorted[n - 1] - sorted[0];
  if (span <= 0)
    return 1;
  iqr = iv_stats_quantile (sorted, n, 0.75) - iv_stats_quantile (sorted, n, 0.25);
  if (iqr <= 0)
    return (guint) MAX (1, ceil (log2 ((double) n) + 1));
  width = 2 * iqr / cbrt ((double) n);
  return (guint) CLAMP (ceil (span / width), 1, 1000);
}

void
iv_stats_histogram (const double *values, gsize n, double lo, double hi, guint bins, double *counts)
{
  double width = (hi - lo) / bins;

  memset (counts, 0, bins * sizeof (double));
  if (!(width > 0))
    {
      for (gsize i = 0; i < n; i++)
        if (isfinite (values[i]))
          counts[0]++;
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      double v = values[i];
      gssize b;
      if (!isfinite (v) || v < lo || v > hi)
        continue;
      b = (gssize) floor ((v - lo) / width);
      /* The last bin is closed on the right, as numpy's. */
      if (b >= (gssize) bins)
        b = bins - 1;
      counts[b]++;
    }
}

gboolean
iv_stats_box (const double *sorted, gsize n, IvBoxStats *box)
{
  double iqr, sum = 0;

  memset (box, 0, sizeof *box);
  if (n == 0)
    return FALSE;
  box->n = n;
  box->q1 = iv_stats_quantile (sorted, n, 0.25);
  box->median = iv_stats_quantile (sorted, n, 0.5);
  box->q3 = iv_stats_quantile (sorted, n, 0.75);
  iqr = box->q3 - box->q1;
  box->whisker_lo = box->q1;
  box->whisker_hi = box->q3;
  for (gsize i = 0; i < n; i++)
    {
      sum += sorted[i];
      if (sorted[i] >= box->q1 - 1.5 * iqr && sorted[i] < box->whisker_lo)
        box->whisker_lo = sorted[i];
      if (sorted[i] <= box->q3 + 1.5 * iqr && sorted[i] > box->whisker_hi)
        box->whisker_hi = sorted[i];
    }
  box->mean = sum / n;
  return TRUE;
}

/* Points left or right of the range share one virtual column on each side. */
static inline gint64
column_of (double x, double x_lo, double scale, guint columns)
{
  double c = floor ((x - x_lo) * scale);
  return c < 0 ? -1 : c >= columns ? columns : (gint64) c;
}

gsize
iv_stats_decimate (const double *x, const double *y, gsize n, double x_lo, double x_hi,
                   guint columns, double *out_x, double *out_y)
{
  gsize out = 0;
  gsize i = 0;
  double scale = columns / (x_hi - x_lo);

  if (!(x_hi > x_lo) || columns == 0)
    return 0;
  while (i < n)
    {
      gint64 col = column_of (x[i], x_lo, scale, columns);
      gsize first = i, lo_i = i, hi_i = i, last = i;
      /* The column's right edge in x: compare against it instead of recomputing
       * floor () for every point. */
      double edge = col < 0 ? x_lo : col >= (gint64) columns ? INFINITY : x_lo + (col + 1) / scale;

      while (i < n && (x[i] < edge || column_of (x[i], x_lo, scale, columns) == col))
        {
          if (y[i] < y[lo_i])
            lo_i = i;
          if (y[i] > y[hi_i])
            hi_i = i;
          last = i;
          i++;
        }
      /* Keep the extremes in their original order so the path stays monotonic in x. */
      {
        gsize keep[4] = { first, MIN (lo_i, hi_i), MAX (lo_i, hi_i), last };
        gsize prev = G_MAXSIZE;
        for (guint k = 0; k < 4; k++)
          if (keep[k] != prev)
            {
              out_x[out] = x[keep[k]];
              out_y[out] = y[keep[k]];
              out++;
              prev = keep[k];
            }
      }
    }
  return out;
}

/* ---------- selection ---------- */

/* Puts the order statistics at @want[0..nw) (ascending positions within [lo, hi]) of @a
 * in place: a three-way partition (duplicates — token counts — are common) around a
 * median of three, recursing only into the sides that hold a wanted position; past a
 * depth limit the range is sorted instead, so no input makes it quadratic. */
static void
select_many (double *a, gsize lo, gsize hi, const gsize *want, gsize nw, guint depth)
{
  while (nw > 0 && lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2, lt = lo, gt = hi, i = lo;
      double x = a[lo], y = a[mid], z = a[hi], p;

      if (hi - lo < 16 || depth == 0)
        {
          qsort (a + lo, hi - lo + 1, sizeof (double), compare_doubles);
          return;
        }
      depth--;
      p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
      while (i <= gt)
        {
          if (a[i] < p)
            {
              double t = a[i];
              a[i] = a[lt];
              a[lt] = t;
              lt++, i++;
            }
          else if (a[i] > p)
            {
              double t = a[i];
              a[i] = a[gt];
              a[gt] = t;
              gt--;
            }
          else
            i++;
        }
      /* [lo, lt) < p, [lt, gt] == p, (gt, hi] > p */
      {
        gsize left = 0, right = nw;
        while (left < nw && want[left] < lt)
          left++;
        while (right > left && want[right - 1] > gt)
          right--;
        if (left > 0 && lt > lo)
          select_many (a, lo, lt - 1, want, left, depth);
        /* the right side in this loop: no recursion for the tail */
        want += right, nw -= right;
        lo = gt + 1;
      }
    }
}

void
iv_stats_quantiles (const double *values, gsize n, const double *qs, guint nq, double *out,
                    double *min, double *max, gsize *n_finite)
{
  /* mapped memory on huge pages: a list metric of a sweep is tens of megabytes, and
   * faulting them in page by page was a third of the time */
  double *a = iv_big_alloc (MAX (n, 1) * sizeof (double));
  g_autofree gsize *want = g_new (gsize, 2 * nq + 2);
  gsize m = 0, nw = 0, k = 0;
  double lo = INFINITY, hi = -INFINITY;
  guint depth = 0;

  if (!a) /* as g_new () would */
    g_error ("out of memory for the quantiles of %" G_GSIZE_FORMAT " values", n);
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        a[m++] = values[i];
        lo = MIN (lo, values[i]);
        hi = MAX (hi, values[i]);
      }
  *n_finite = m;
  if (min)
    *min = m ? lo : NAN;
  if (max)
    *max = m ? hi : NAN;
  if (m == 0)
    {
      for (guint q = 0; q < nq; q++)
        out[q] = NAN;
      iv_big_free (a);
      return;
    }
  /* each quantile needs the order statistics at floor(h) and the one after */
  for (guint q = 0; q < nq; q++)
    {
      double h = (m - 1) * CLAMP (qs[q], 0.0, 1.0);
      gsize i = (gsize) floor (h);
      want[nw++] = i;
      if (i + 1 < m)
        want[nw++] = i + 1;
    }
  qsort (want, nw, sizeof (gsize), compare_sizes);
  for (gsize i = 0; i < nw; i++)
    if (k == 0 || want[i] != want[k - 1])
      want[k++] = want[i];
  for (gsize s = m; s > 1; s /= 2)
    depth += 2;
  select_many (a, 0, m - 1, want, k, depth + 4);
  for (guint q = 0; q < nq; q++)
    {
      double h = (m - 1) * CLAMP (qs[q], 0.0, 1.0);
      gsize i = (gsize) floor (h);
      out[q] = i + 1 >= m ? a[m - 1] : a[i] + (h - i) * (a[i + 1] - a[i]);
    }
  iv_big_free (a);
}
