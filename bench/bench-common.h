/* bench-common.h: what every benchmark measures with — the median of its samples. */
#pragma once

#include <glib.h>
#include <stdlib.h>

static int
bench_compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Sorts @v in place; the middle value, or the mean of the two middle ones. */
static inline double
bench_median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, bench_compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
