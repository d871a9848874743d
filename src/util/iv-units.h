/* iv-units.h: human-readable numbers with auto-scaled units (time, bytes, counts). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *iv_units_format_seconds (double seconds);
char *iv_units_format_bytes (double bytes);
char *iv_units_format_count (double count);
/* Three significant digits with a decimal SI prefix on @unit: 3.2e13, "FLOP/s" →
 * "32 TFLOP/s"; 1.5e-4, "W" → "150 µW". Without a unit, large values take k/M/G/T/P/E
 * ("20.1k") and small ones stay decimals ("0.95", "0.000123"). Never e-notation. */
char *iv_units_format_si (double value, const char *unit);
/* A quantity whose unit takes no prefix: the SI prefix goes on the number, three
 * significant digits: 10340, "tokens/s" → "10.3k tokens/s"; 0.5, "requests/s" → "0.5
 * requests/s". A time unit ("s", "ms", "µs", "ns"), here and in iv_units_format_si, is
 * a duration in its best unit: 3910, "ms" → "3.91 s". Never e-notation. */
char *iv_units_format_amount (double value, const char *unit);
/* A number inside a formula: whole numbers under a million exact ("1024"), the rest with
 * three significant digits and an SI prefix ("32T", "0.8", "100n"). Never e-notation. */
char *iv_units_format_compact (double value);

/* "100T", "1e12", "1us", "64GiB", "200 GB/s", "2.5 PFLOP/s": a number with an SI or
 * binary prefix and an optional unit; FALSE for anything else. */
gboolean iv_units_parse (const char *text, double *value);

G_END_DECLS
