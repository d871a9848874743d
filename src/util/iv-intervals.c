/* iv-intervals.c: merging and measuring [start, end) sets. One implementation for every
 * analysis that asks how long something was busy or hidden, so they count alike. */
#include "iv-intervals.h"

#include <stdlib.h>

#define START(p, i) g_array_index ((p), gint64, 2 * (i))
#define END(p, i) g_array_index ((p), gint64, 2 * (i) + 1)

void
iv_intervals_add (GArray *pairs, gint64 start, gint64 end)
{
  gint64 pair[2] = { start, end };
  g_array_append_vals (pairs, pair, 2);
}

static int
compare_starts (const void *pa, const void *pb)
{
  const gint64 *a = pa, *b = pb;
  return (a[0] > b[0]) - (a[0] < b[0]);
}

gsize
iv_intervals_merge (GArray *pairs)
{
  gsize n = pairs->len / 2, m = 0;

  if (n > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (pairs->data, n, 2 * sizeof (gint64), compare_starts);
  for (gsize i = 0; i < n; i++)
    {
      if (m && START (pairs, i) <= END (pairs, m - 1))
        END (pairs, m - 1) = MAX (END (pairs, m - 1), END (pairs, i));
      else
        {
          START (pairs, m) = START (pairs, i);
          END (pairs, m) = END (pairs, i);
          m++;
        }
    }
  g_array_set_size (pairs, 2 * m);
  return m;
}

gsize
iv_intervals_first_ending_after (const GArray *pairs, gint64 t)
{
  gsize lo = 0, hi = pairs->len / 2;

  /* Merged intervals are disjoint and in order, so their ends are in order too. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (END (pairs, mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gint64
iv_intervals_total (const GArray *pairs)
{
  gint64 sum = 0;

  for (gsize i = 0; i < pairs->len / 2; i++)
    sum += END (pairs, i) - START (pairs, i);
  return sum;
}

gint64
iv_intervals_covered (const GArray *pairs, gint64 a0, gint64 a1)
{
  gint64 total = 0;

  /* From the first that ends after a0, only those that overlap: a scan of all of them
   * per question was quadratic in questions. */
  for (gsize i = iv_intervals_first_ending_after (pairs, a0);
       i < pairs->len / 2 && START (pairs, i) < a1; i++)
    {
      gint64 s = MAX (a0, START (pairs, i)), e = MIN (a1, END (pairs, i));
      if (e > s)
        total += e - s;
    }
  return total;
}

gint64
iv_intervals_intersection (const GArray *a, const GArray *b)
{
  gint64 sum = 0;
  gsize i = 0, j = 0;

  while (i < a->len / 2 && j < b->len / 2)
    {
      gint64 lo = MAX (START (a, i), START (b, j)), hi = MIN (END (a, i), END (b, j));
      if (hi > lo)
        sum += hi - lo;
      if (END (a, i) < END (b, j))
        i++;
      else
        j++;
    }
  return sum;
}
