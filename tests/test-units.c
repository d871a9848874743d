/* test-units.c: unit formatting against hand-written expectations. */
#include <glib.h>
#include <math.h>

#include "iv-units.h"

static void
check (char *got, const char *want)
{
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

static void
test_seconds (void)
{
  check (iv_units_format_seconds (0), "0 s");
  check (iv_units_format_seconds (1.5), "1.5 s");
  check (iv_units_format_seconds (0.0015), "1.5 ms");
  check (iv_units_format_seconds (0.000250), "250 µs");
  check (iv_units_format_seconds (12.3e-9), "12.3 ns");
  check (iv_units_format_seconds (-0.002), "-2 ms");
  /* Rounding must not print "1000 µs". */
  check (iv_units_format_seconds (0.0009999), "1 ms");
  check (iv_units_format_seconds (90), "1.5 min");
  check (iv_units_format_seconds (7200), "2 h");
  check (iv_units_format_seconds (NAN), "–");
  check (iv_units_format_seconds (0.5e-9), "0.5 ns");
}

static void
test_bytes (void)
{
  check (iv_units_format_bytes (0), "0 B");
  check (iv_units_format_bytes (1023), "1023 B");
  check (iv_units_format_bytes (1536), "1.5 KiB");
  check (iv_units_format_bytes (85.0 * 1024 * 1024), "85 MiB");
  check (iv_units_format_bytes (3.0 * 1024 * 1024 * 1024 * 1024), "3 TiB");
}

static void
test_count (void)
{
  check (iv_units_format_count (0), "0");
  check (iv_units_format_count (999), "999");
  check (iv_units_format_count (12345), "12.3k");
  check (iv_units_format_count (2.5e6), "2.5M");
  check (iv_units_format_count (1e9), "1G");
  check (iv_units_format_count (0.25), "0.25");
  /* past T the prefixes go on: 2.5e15 / 1e15 = 2.5 (it read "2500T") */
  check (iv_units_format_count (2.5e15), "2.5P");
}

static void
test_si (void)
{
  check (iv_units_format_si (3.2e13, "FLOP/s"), "32 TFLOP/s");
  check (iv_units_format_si (1.5e-4, "W"), "150 µW");
  check (iv_units_format_si (20110, NULL), "20.1k");
  check (iv_units_format_si (999.96, NULL), "1k");
  check (iv_units_format_si (999.4, "W"), "999 W");
  check (iv_units_format_si (0.95, NULL), "0.95");
  check (iv_units_format_si (0.000123, NULL), "0.000123");
  check (iv_units_format_si (1.234e-7, ""), "0.000000123");
  check (iv_units_format_si (-4.5e9, "B/s"), "-4.5 GB/s");
  check (iv_units_format_si (0, "FLOP"), "0 FLOP");
  check (iv_units_format_si (12, NULL), "12");
  check (iv_units_format_si (2.5e21, "FLOP"), "2500 EFLOP");
  check (iv_units_format_si (INFINITY, "W"), "–");
  check (iv_units_format_compact (1024), "1024");
  check (iv_units_format_compact (3.2e13), "32T");
  check (iv_units_format_compact (0.8), "0.8");
  check (iv_units_format_compact (1e-7), "100n");
  check (iv_units_format_compact (1234567), "1.23M");
  check (iv_units_format_compact (-2.5e-4), "-250µ");
}

/* A rate or a duration as a reader would say it: the prefix on the number, a duration in
 * its own unit (the command line printed "1.034e+04 tokens/s" and "3.91k ms"). */
static void
test_amount (void)
{
  /* 10340 / 1000 = 10.34 → three significant digits: 10.3 */
  check (iv_units_format_amount (10340, "tokens/s"), "10.3k tokens/s");
  check (iv_units_format_amount (139, "tokens/s"), "139 tokens/s");
  check (iv_units_format_amount (0.5, "requests/s"), "0.5 requests/s");
  /* 2.5e6 / 1e6 = 2.5 */
  check (iv_units_format_amount (2.5e6, NULL), "2.5M");
  /* 3910 ms = 3.91 s; 0.00025 ms = 250 ns; 90 s = 1.5 min */
  check (iv_units_format_amount (3910, "ms"), "3.91 s");
  check (iv_units_format_amount (0.00025, "ms"), "250 ns");
  check (iv_units_format_si (3910, "ms"), "3.91 s");
  check (iv_units_format_si (90, "s"), "1.5 min");
  check (iv_units_format_amount (NAN, "tokens/s"), "–");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/seconds", test_seconds);
  g_test_add_func ("/units/bytes", test_bytes);
  g_test_add_func ("/units/count", test_count);
  g_test_add_func ("/units/si", test_si);
  g_test_add_func ("/units/amount", test_amount);
  return g_test_run ();
}
