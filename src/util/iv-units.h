/* iv-units.h: human-readable numbers with auto-scaled units (time, bytes, counts). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *iv_units_format_seconds (double seconds);
char *iv_units_format_bytes   (double bytes);
char *iv_units_format_count   (double count);

G_END_DECLS
