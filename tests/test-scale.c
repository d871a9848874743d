/* test-scale.c: tick positions and labels against hand-written expectations, including
 * the awkward ranges: tiny (0.0013–0.0017), twelve decades, negative, a single value,
 * empty; and the statistics under histograms, CDFs and box plots (numpy's numbers). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "iv-scale.h"
#include "iv-stats.h"

static void
expect_labels (const IvTicks *t, const char *const *want, const char *unit)
{
  guint major = 0;

  for (guint i = 0; i < t->n_ticks; i++)
    if (t->ticks[i].label)
      {
        if (!want[major])
          g_error ("unexpected extra label %s", t->ticks[i].label);
        g_assert_cmpstr (t->ticks[i].label, ==, want[major]);
        major++;
      }
  g_assert_null (want[major]);
  g_assert_cmpstr (t->unit_label, ==, unit);
}

static IvScaleSpec
linear (IvUnitKind kind, double to_base)
{
  return (IvScaleSpec){ IV_SCALE_LINEAR, { kind, to_base, NULL } };
}

static void
test_nice_step (void)
{
  g_assert_cmpfloat (iv_nice_step (0.13), ==, 0.1);
  g_assert_cmpfloat (iv_nice_step (1.49), ==, 1);
  g_assert_cmpfloat (iv_nice_step (1.5), ==, 2);
  g_assert_cmpfloat (iv_nice_step (2.99), ==, 2);
  g_assert_cmpfloat (iv_nice_step (3), ==, 5);
  g_assert_cmpfloat (iv_nice_step (6.9), ==, 5);
  g_assert_cmpfloat (iv_nice_step (7), ==, 10);
  g_assert_cmpfloat_with_epsilon (iv_nice_step (0.00042), 0.0005, 1e-15);
  g_assert_cmpfloat (iv_nice_step (3500), ==, 5000);
}

static void
test_linear_plain (void)
{
  IvScaleSpec spec = linear (IV_UNIT_NONE, 1);
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 0, 100, 5);
  const char *want[] = { "0", "20", "40", "60", "80", "100", NULL };

  expect_labels (t, want, NULL);
  g_assert_cmpfloat (t->step, ==, 20);
  g_assert_cmpfloat (t->ticks[3].value, ==, 60);
}

static void
test_tiny_range (void)
{
  IvScaleSpec plain = linear (IV_UNIT_NONE, 1);
  IvScaleSpec secs = linear (IV_UNIT_SECONDS, 1);
  g_autoptr (IvTicks) a = iv_ticks_compute (&plain, 0.0013, 0.0017, 5);
  g_autoptr (IvTicks) b = iv_ticks_compute (&secs, 0.0013, 0.0017, 5);
  const char *want_a[] = { "0.0013", "0.0014", "0.0015", "0.0016", "0.0017", NULL };
  const char *want_b[] = { "1.3", "1.4", "1.5", "1.6", "1.7", NULL };

  expect_labels (a, want_a, NULL);
  /* In seconds the same range reads 1.3 … 1.7 ms. */
  expect_labels (b, want_b, "ms");
  g_assert_cmpfloat_with_epsilon (b->ticks[2].value, 0.0015, 1e-15);
}

static void
test_units_scale (void)
{
  IvScaleSpec ms = linear (IV_UNIT_SECONDS, 1e-3);
  IvScaleSpec bytes = linear (IV_UNIT_BYTES, 1);
  IvScaleSpec count = { IV_SCALE_LINEAR, { IV_UNIT_COUNT, 1, "tokens/s" } };
  IvScaleSpec big = linear (IV_UNIT_NONE, 1);
  g_autoptr (IvTicks) a = iv_ticks_compute (&ms, 0, 1500, 4);
  g_autoptr (IvTicks) b = iv_ticks_compute (&bytes, 0, 3 * 1048576.0, 3);
  g_autoptr (IvTicks) c = iv_ticks_compute (&count, 0, 25000, 5);
  g_autoptr (IvTicks) d = iv_ticks_compute (&big, 0, 3e6, 3);
  const char *want_a[] = { "0.0", "0.5", "1.0", "1.5", NULL };
  const char *want_b[] = { "0", "1", "2", "3", NULL };
  const char *want_c[] = { "0", "5", "10", "15", "20", "25", NULL };
  const char *want_d[] = { "0", "1", "2", "3", NULL };

  /* Data in milliseconds, 0 … 1.5 s: labelled in seconds. */
  expect_labels (a, want_a, "s");
  g_assert_cmpfloat (a->ticks[1].value, ==, 500);
  expect_labels (b, want_b, "MiB");
  g_assert_cmpfloat (b->ticks[1].value, ==, 1048576);
  expect_labels (c, want_c, "k tokens/s");
  expect_labels (d, want_d, "×10⁶");
}

static void
test_negative_and_zero (void)
{
  IvScaleSpec spec = linear (IV_UNIT_NONE, 1);
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, -5, 5, 5);
  const char *want[] = { "-4", "-2", "0", "2", "4", NULL };

  expect_labels (t, want, NULL);
  /* Never "-0", even from rounding noise. */
  {
    g_autoptr (IvTicks) u = iv_ticks_compute (&spec, -0.3, 0.3, 6);
    for (guint i = 0; i < u->n_ticks; i++)
      g_assert_cmpstr (u->ticks[i].label, !=, "-0.0");
  }
}

static void
test_degenerate_ranges (void)
{
  IvScaleSpec spec = linear (IV_UNIT_NONE, 1);
  double lo = 3, hi = 3;
  g_autoptr (IvTicks) empty = iv_ticks_compute (&spec, 1, 1, 5);
  g_autoptr (IvTicks) nan = iv_ticks_compute (&spec, NAN, 1, 5);

  g_assert_cmpuint (empty->n_ticks, ==, 0);
  g_assert_cmpuint (nan->n_ticks, ==, 0);
  /* A single value gets ±10 % of itself. */
  iv_range_pad (IV_SCALE_LINEAR, &lo, &hi, 0.04);
  g_assert_cmpfloat_with_epsilon (lo, 2.7, 1e-12);
  g_assert_cmpfloat_with_epsilon (hi, 3.3, 1e-12);
  /* Zero alone becomes −1 … 1; no data at all becomes 0 … 1. */
  lo = hi = 0;
  iv_range_pad (IV_SCALE_LINEAR, &lo, &hi, 0.04);
  g_assert_cmpfloat (lo, ==, -1);
  g_assert_cmpfloat (hi, ==, 1);
  lo = INFINITY, hi = -INFINITY;
  iv_range_pad (IV_SCALE_LINEAR, &lo, &hi, 0.04);
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 1);
  /* Log ranges pad by a factor. */
  lo = 10, hi = 1000;
  iv_range_pad (IV_SCALE_LOG10, &lo, &hi, 0.05);
  g_assert_cmpfloat_with_epsilon (lo, 10 / pow (100, 0.05), 1e-9);
  g_assert_cmpfloat_with_epsilon (hi, 1000 * pow (100, 0.05), 1e-9);
}

static void
test_log_decades (void)
{
  IvScaleSpec spec = { IV_SCALE_LOG10, { IV_UNIT_SECONDS, 1, NULL } };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 1e-9, 1e3, 6);
  /* Twelve decades in six labels: every other one, each with its own unit. */
  const char *want[] = { "10 ns", "1 µs", "100 µs", "10 ms", "1 s", "100 s", NULL };

  expect_labels (t, want, NULL);
  g_assert_cmpfloat (t->ticks[1].value, ==, 1e-8);
}

static void
test_log_minor (void)
{
  IvScaleSpec spec = { IV_SCALE_LOG10, IV_UNIT_PLAIN };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 1, 1000, 4);
  const char *want[] = { "1", "10", "100", "1000", NULL };
  guint minor = 0;

  expect_labels (t, want, NULL);
  for (guint i = 0; i < t->n_ticks; i++)
    if (!t->ticks[i].major)
      {
        minor++;
        g_assert_null (t->ticks[i].label);
      }
  /* 2…9 in each of three decades. */
  g_assert_cmpuint (minor, ==, 24);
}

static void
test_log_few_decades (void)
{
  IvScaleSpec spec = { IV_SCALE_LOG10, { IV_UNIT_SECONDS, 1e-3, NULL } };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 11, 260, 8);
  const char *want[] = { "20 ms", "50 ms", "100 ms", "200 ms", NULL };

  expect_labels (t, want, NULL);
}

static void
test_log2_bytes (void)
{
  IvScaleSpec spec = { IV_SCALE_LOG2, { IV_UNIT_BYTES, 1, NULL } };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 1024, 1048576, 6);
  const char *want[] = { "1 KiB", "4 KiB", "16 KiB", "64 KiB", "256 KiB", "1 MiB", NULL };

  expect_labels (t, want, NULL);
}

static void
test_time_relative (void)
{
  IvScaleSpec spec = { IV_SCALE_TIME, { IV_UNIT_SECONDS, 1e-9, NULL }, FALSE, 1.7e18 };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 1.7e18, 1.7e18 + 90e9, 4);
  const char *want[] = { "0", "20", "40", "60", "80", NULL };

  expect_labels (t, want, "s");
  g_assert_cmpfloat (t->ticks[1].value, ==, 1.7e18 + 20e9);
}

static void
test_time_clock (void)
{
  /* 1700000000 s is 2023-11-14 22:13:20 UTC (TZ is UTC in this test). */
  IvScaleSpec spec = { IV_SCALE_TIME, { IV_UNIT_SECONDS, 1, NULL }, TRUE, 0 };
  g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 1700000000, 1700000060, 6);
  g_autoptr (IvTicks) fine = iv_ticks_compute (&spec, 1700000000, 1700000000.5, 5);
  const char *want[] = { "22:13:20", "22:13:30", "22:13:40", "22:13:50",
                         "22:14:00", "22:14:10", "22:14:20", NULL };

  expect_labels (t, want, NULL);
  g_assert_cmpstr (fine->ticks[1].label, ==, "22:13:20.1");
}

static void
test_transforms (void)
{
  g_assert_cmpfloat (iv_scale_normalize (IV_SCALE_LINEAR, 0, 10, 2.5), ==, 0.25);
  g_assert_cmpfloat_with_epsilon (iv_scale_normalize (IV_SCALE_LOG10, 1, 1000, 10), 1.0 / 3, 1e-12);
  g_assert_true (isnan (iv_scale_normalize (IV_SCALE_LOG10, 1, 1000, -1)));
  for (double v = 1; v < 1000; v *= 3.7)
    g_assert_cmpfloat_with_epsilon (
        iv_scale_denormalize (IV_SCALE_LOG10, 1, 1000,
                              iv_scale_normalize (IV_SCALE_LOG10, 1, 1000, v)),
        v, v * 1e-12);
}

static void
test_format_value (void)
{
  IvUnit ms = { IV_UNIT_SECONDS, 1e-3, NULL };
  IvUnit tok = { IV_UNIT_COUNT, 1, "tokens/s" };
  g_autofree char *a = iv_unit_format_value (&ms, 12.5);
  g_autofree char *b = iv_unit_format_value (&tok, 1530);

  g_assert_cmpstr (a, ==, "12.5 ms");
  g_assert_cmpstr (b, ==, "1.53k tokens/s");
}

static void
test_quantiles (void)
{
  double v[] = { 4, 1, 3, 2, NAN };
  gsize n;
  g_autofree double *s = iv_stats_sorted_copy (v, 5, &n);

  g_assert_cmpuint (n, ==, 4);
  /* numpy.quantile([1, 2, 3, 4], …) */
  g_assert_cmpfloat (iv_stats_quantile (s, n, 0.5), ==, 2.5);
  g_assert_cmpfloat (iv_stats_quantile (s, n, 0.25), ==, 1.75);
  g_assert_cmpfloat (iv_stats_quantile (s, n, 0.9), ==, 3.7);
  g_assert_cmpfloat (iv_stats_quantile (s, n, 1), ==, 4);
  g_assert_true (isnan (iv_stats_quantile (s, 0, 0.5)));
}

/* Quantiles by selection equal those of the sorted array (exactly: the same two order
 * statistics, the same interpolation) on numpy's example, on arrays of every size up to
 * 300 and on larger ones — random, all equal, few distinct values (token counts),
 * sorted and reversed — with NaN and infinities skipped. */
static void
test_quantiles_by_selection (void)
{
  static const double qs[] = { 0, 0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 1 };
  double v4[] = { 4, NAN, 1, 3, INFINITY, 2 }, got[G_N_ELEMENTS (qs)], lo, hi;
  GRand *rng = g_rand_new_with_seed (16);
  gsize m;

  iv_stats_quantiles (v4, 6, (const double[]){ 0.25, 0.5, 0.9 }, 3, got, &lo, &hi, &m);
  g_assert_cmpuint (m, ==, 4);
  g_assert_cmpfloat (got[0], ==, 1.75);
  g_assert_cmpfloat (got[1], ==, 2.5);
  g_assert_cmpfloat (got[2], ==, 3.7);
  g_assert_cmpfloat (lo, ==, 1);
  g_assert_cmpfloat (hi, ==, 4);
  iv_stats_quantiles (v4, 0, qs, 1, got, &lo, &hi, &m);
  g_assert_cmpuint (m, ==, 0);
  g_assert_true (isnan (got[0]) && isnan (lo) && isnan (hi));
  for (guint shape = 0; shape < 5; shape++)
    for (gsize n = 1; n < 3000; n = n < 300 ? n + 1 : n * 3)
      {
        g_autofree double *v = g_new (double, n);
        g_autofree double *sorted = NULL;
        gsize ns;
        for (gsize i = 0; i < n; i++)
          v[i] = shape == 0   ? g_rand_double (rng) * 1000
                 : shape == 1 ? 7.0
                 : shape == 2 ? (double) g_rand_int_range (rng, 0, 4)
                 : shape == 3 ? (double) i
                              : (double) (n - i);
        sorted = iv_stats_sorted_copy (v, n, &ns);
        iv_stats_quantiles (v, n, qs, G_N_ELEMENTS (qs), got, &lo, &hi, &m);
        g_assert_cmpuint (m, ==, ns);
        g_assert_cmpfloat (lo, ==, sorted[0]);
        g_assert_cmpfloat (hi, ==, sorted[ns - 1]);
        for (guint q = 0; q < G_N_ELEMENTS (qs); q++)
          g_assert_cmpfloat (got[q], ==, iv_stats_quantile (sorted, ns, qs[q]));
      }
  g_rand_free (rng);
}

/* Tick labels stay short for any magnitude: an outlier of 10³⁰⁰ (or 10⁻³⁰⁰, or a range
 * beyond the largest prefix) shares a power of ten in the unit label instead of a
 * 300-digit number, in every unit; a tiny span beside huge values gets at most twelve
 * decimals. */
static void
test_extreme_tick_labels (void)
{
  static const double ranges[][2] = {
    { 0, 1e300 },          { -1e300, 1e300 }, { 1e-300, 2e-300 },        { 0, 1e20 },
    { 1e17, 1e17 + 4000 }, { 0, 3e-20 },      { 1e250, 1.00000001e250 }, { 0, 100 },
  };
  static const IvUnitKind kinds[]
      = { IV_UNIT_NONE, IV_UNIT_COUNT, IV_UNIT_PERCENT, IV_UNIT_SECONDS, IV_UNIT_BYTES };

  for (guint u = 0; u < G_N_ELEMENTS (kinds); u++)
    for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
      {
        IvScaleSpec spec = { IV_SCALE_LINEAR, { kinds[u], 1, NULL }, FALSE, 0 };
        g_autoptr (IvTicks) t = iv_ticks_compute (&spec, ranges[i][0], ranges[i][1], 6);
        guint labels = 0;
        for (guint k = 0; k < t->n_ticks; k++)
          if (t->ticks[k].label)
            {
              labels++;
              if (strlen (t->ticks[k].label) > 20)
                g_error ("unit kind %u, range [%g, %g]: label “%s”", kinds[u], ranges[i][0],
                         ranges[i][1], t->ticks[k].label);
            }
        g_assert_cmpuint (labels, >=, 2);
      }
  {
    /* percents on a log axis in plain decimals: "1.23e+03 %" was a label */
    IvScaleSpec spec = { IV_SCALE_LOG10, { IV_UNIT_PERCENT, 1, NULL }, FALSE, 0 };
    g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 0.002, 5000, 6);
    IvUnit percent = { IV_UNIT_PERCENT, 1, NULL };
    g_autofree char *big = iv_unit_format_value (&percent, 1234);
    g_autofree char *small = iv_unit_format_value (&percent, 0.00123);
    for (guint k = 0; k < t->n_ticks; k++)
      g_assert_true (!t->ticks[k].label || !strchr (t->ticks[k].label, 'e'));
    g_assert_cmpstr (big, ==, "1234 %");
    g_assert_cmpstr (small, ==, "0.00123 %");
  }
  {
    /* 0 … 10³⁰⁰: labels 0 … 1 (or the like) ×10³⁰⁰ */
    IvScaleSpec spec = { IV_SCALE_LINEAR, IV_UNIT_PLAIN, FALSE, 0 };
    g_autoptr (IvTicks) t = iv_ticks_compute (&spec, 0, 1e300, 6);
    g_assert_cmpstr (t->unit_label, ==, "×10³⁰⁰");
  }
}

static void
test_histogram_bins (void)
{
  double v[100], counts[4];
  gsize n;
  g_autofree double *s = NULL;

  for (int i = 0; i < 100; i++)
    v[i] = i;
  s = iv_stats_sorted_copy (v, 100, &n);
  /* IQR = 74.25 − 24.75 = 49.5; width = 2 · 49.5 / 100^(1/3) = 21.33; 99 / 21.33 → 5 bins. */
  g_assert_cmpuint (iv_stats_fd_bins (s, n), ==, 5);
  iv_stats_histogram (v, 100, 0, 99, 4, counts);
  /* Width 24.75: [0,24.75) 25, [24.75,49.5) 25, [49.5,74.25) 25, [74.25,99] 25. */
  g_assert_cmpfloat (counts[0], ==, 25);
  g_assert_cmpfloat (counts[3], ==, 25);
}

static void
test_box (void)
{
  double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };
  IvBoxStats b;

  g_assert_true (iv_stats_box (v, 10, &b));
  g_assert_cmpfloat (b.q1, ==, 3.25);
  g_assert_cmpfloat (b.median, ==, 5.5);
  g_assert_cmpfloat (b.q3, ==, 7.75);
  /* 1.5 IQR = 6.75: the whisker stops at 9; 100 is an outlier. */
  g_assert_cmpfloat (b.whisker_hi, ==, 9);
  g_assert_cmpfloat (b.whisker_lo, ==, 1);
  g_assert_cmpfloat (b.mean, ==, 14.5);
}

static void
test_decimate (void)
{
  gsize n = 100000;
  guint columns = 500;
  g_autofree double *x = g_new (double, n);
  g_autofree double *y = g_new (double, n);
  g_autofree double *ox = g_new (double, 4 * (columns + 2));
  g_autofree double *oy = g_new (double, 4 * (columns + 2));
  g_autofree double *cmin = g_new (double, columns);
  g_autofree double *cmax = g_new (double, columns);
  GRand *rng = g_rand_new_with_seed (3);
  gsize m;

  for (guint c = 0; c < columns; c++)
    cmin[c] = INFINITY, cmax[c] = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      guint c;
      x[i] = (double) i / n * 10.0;
      y[i] = g_rand_double_range (rng, -1, 1);
      c = (guint) floor ((x[i] - 0) * (columns / 10.0)); /* the column definition */
      cmin[c] = MIN (cmin[c], y[i]);
      cmax[c] = MAX (cmax[c], y[i]);
    }
  m = iv_stats_decimate (x, y, n, 0, 10, columns, ox, oy);
  g_assert_cmpuint (m, <=, 4 * columns);
  g_assert_cmpuint (m, >=, 2 * columns);
  /* Every column keeps its minimum and its maximum; x stays in order. */
  for (guint c = 0; c < columns; c++)
    {
      gboolean has_min = FALSE, has_max = FALSE;
      for (gsize k = 0; k < m; k++)
        if ((guint) floor ((ox[k] - 0) * (columns / 10.0)) == c)
          {
            has_min |= oy[k] == cmin[c];
            has_max |= oy[k] == cmax[c];
          }
      g_assert_true (has_min && has_max);
    }
  for (gsize k = 1; k < m; k++)
    g_assert_cmpfloat (ox[k], >=, ox[k - 1]);
  g_assert_cmpfloat (ox[0], ==, x[0]);
  g_assert_cmpfloat (ox[m - 1], ==, x[n - 1]);
  g_rand_free (rng);
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scale/nice-step", test_nice_step);
  g_test_add_func ("/scale/linear-plain", test_linear_plain);
  g_test_add_func ("/scale/tiny-range", test_tiny_range);
  g_test_add_func ("/scale/units", test_units_scale);
  g_test_add_func ("/scale/negative-and-zero", test_negative_and_zero);
  g_test_add_func ("/scale/degenerate-ranges", test_degenerate_ranges);
  g_test_add_func ("/scale/log-decades", test_log_decades);
  g_test_add_func ("/scale/log-minor", test_log_minor);
  g_test_add_func ("/scale/log-few-decades", test_log_few_decades);
  g_test_add_func ("/scale/log2-bytes", test_log2_bytes);
  g_test_add_func ("/scale/time-relative", test_time_relative);
  g_test_add_func ("/scale/time-clock", test_time_clock);
  g_test_add_func ("/scale/transforms", test_transforms);
  g_test_add_func ("/scale/format-value", test_format_value);
  g_test_add_func ("/scale/extreme-tick-labels", test_extreme_tick_labels);
  g_test_add_func ("/stats/quantiles", test_quantiles);
  g_test_add_func ("/stats/quantiles-by-selection", test_quantiles_by_selection);
  g_test_add_func ("/stats/histogram-bins", test_histogram_bins);
  g_test_add_func ("/stats/box", test_box);
  g_test_add_func ("/stats/decimate", test_decimate);
  return g_test_run ();
}
