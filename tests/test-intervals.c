/* test-intervals.c: merging and measuring [start, end) sets, against values worked by
 * hand and against a brute-force count over every nanosecond of small random sets. */
#include <glib.h>

#include "iv-intervals.h"

static GArray *
pairs_of (const gint64 *v, guint n)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i + 1 < n; i += 2)
    iv_intervals_add (a, v[i], v[i + 1]);
  return a;
}

/* Unsorted, overlapping, touching and nested: [0,10) [5,12) [12,15) [20,30) [22,25)
 * merge into [0,15) [20,30) — 25 long. */
static void
test_merge (void)
{
  const gint64 v[] = { 20, 30, 5, 12, 0, 10, 22, 25, 12, 15 };
  g_autoptr (GArray) a = pairs_of (v, G_N_ELEMENTS (v));

  g_assert_cmpuint (iv_intervals_merge (a), ==, 2);
  g_assert_cmpuint (a->len, ==, 4);
  g_assert_cmpint (g_array_index (a, gint64, 0), ==, 0);
  g_assert_cmpint (g_array_index (a, gint64, 1), ==, 15);
  g_assert_cmpint (g_array_index (a, gint64, 2), ==, 20);
  g_assert_cmpint (g_array_index (a, gint64, 3), ==, 30);
  g_assert_cmpint (iv_intervals_total (a), ==, 25);
  /* first ending after: 14 → [0,15); 15 → [20,30); 30 → none */
  g_assert_cmpuint (iv_intervals_first_ending_after (a, -5), ==, 0);
  g_assert_cmpuint (iv_intervals_first_ending_after (a, 14), ==, 0);
  g_assert_cmpuint (iv_intervals_first_ending_after (a, 15), ==, 1);
  g_assert_cmpuint (iv_intervals_first_ending_after (a, 30), ==, 2);
  /* [10, 25) is covered over [10,15) and [20,25): 10 */
  g_assert_cmpint (iv_intervals_covered (a, 10, 25), ==, 10);
  g_assert_cmpint (iv_intervals_covered (a, 15, 20), ==, 0);
  g_assert_cmpint (iv_intervals_covered (a, -100, 100), ==, 25);
  /* an empty set */
  g_array_set_size (a, 0);
  g_assert_cmpuint (iv_intervals_merge (a), ==, 0);
  g_assert_cmpint (iv_intervals_total (a), ==, 0);
  g_assert_cmpint (iv_intervals_covered (a, 0, 10), ==, 0);
}

/* Random small sets: total, cover and intersection equal a count of the nanoseconds in
 * [0, 200) that fall in them. */
static void
test_random_against_counting (void)
{
  GRand *rng = g_rand_new_with_seed (11);

  for (int round = 0; round < 300; round++)
    {
      g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (gint64));
      gboolean in_a[200] = { FALSE }, in_b[200] = { FALSE };
      gint64 total_a = 0, both = 0, cover = 0;
      gint64 q0 = g_rand_int_range (rng, 0, 200), q1 = g_rand_int_range (rng, (gint32) q0, 201);
      int na = g_rand_int_range (rng, 0, 8), nb = g_rand_int_range (rng, 0, 8);

      for (int i = 0; i < na + nb; i++)
        {
          gint64 s = g_rand_int_range (rng, 0, 200), e = g_rand_int_range (rng, (gint32) s, 201);
          iv_intervals_add (i < na ? a : b, s, e);
          for (gint64 t = s; t < e; t++)
            (i < na ? in_a : in_b)[t] = TRUE;
        }
      for (int t = 0; t < 200; t++)
        {
          total_a += in_a[t];
          both += in_a[t] && in_b[t];
          cover += in_a[t] && t >= q0 && t < q1;
        }
      iv_intervals_merge (a);
      iv_intervals_merge (b);
      for (guint i = 2; i < a->len; i += 2) /* disjoint and in order, not touching */
        g_assert_cmpint (g_array_index (a, gint64, i), >, g_array_index (a, gint64, i - 1));
      g_assert_cmpint (iv_intervals_total (a), ==, total_a);
      g_assert_cmpint (iv_intervals_intersection (a, b), ==, both);
      g_assert_cmpint (iv_intervals_intersection (b, a), ==, both);
      g_assert_cmpint (iv_intervals_covered (a, q0, q1), ==, cover);
    }
  g_rand_free (rng);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/intervals/merge", test_merge);
  g_test_add_func ("/intervals/random-against-counting", test_random_against_counting);
  return g_test_run ();
}
