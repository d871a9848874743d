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
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/seconds", test_seconds);
  g_test_add_func ("/units/bytes", test_bytes);
  g_test_add_func ("/units/count", test_count);
  return g_test_run ();
}
