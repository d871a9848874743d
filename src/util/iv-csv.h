/* iv-csv.h: CSV by RFC 4180, written and read. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @text as one field: quoted when it holds a comma, a quote or a line break, with
 * quotes doubled. */
void iv_csv_append_field (GString *out, const char *text);

/* The fields of the record at *@cursor (quoted fields may hold commas, doubled quotes and
 * line breaks; a CR before the line break is dropped), *@cursor moved past it; NULL at
 * @end. A blank line is a record of no fields. */
GPtrArray *iv_csv_next_record (const char **cursor, const char *end);

G_END_DECLS
