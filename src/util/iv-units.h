/* iv-units.h: human-readable numbers with auto-scaled units (time, bytes, counts). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *iv_units_format_seconds (double seconds);
char *iv_units_format_bytes   (double bytes);
char *iv_units_format_count   (double count);

/* "100T", "1e12", "1us", "64GiB", "200 GB/s", "2.5 PFLOP/s": a number with an SI or
 * binary prefix and an optional unit; FALSE for anything else. */
gboolean iv_units_parse       (const char *text,
                               double     *value);

G_END_DECLS
