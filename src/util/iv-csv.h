/* iv-csv.h: writing CSV by RFC 4180. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @text as one field: quoted when it holds a comma, a quote or a line break, with
 * quotes doubled. */
void iv_csv_append_field (GString    *out,
                          const char *text);

G_END_DECLS
