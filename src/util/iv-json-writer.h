/* iv-json-writer.h: the one JSON writer for everything Inferview writes (command-line
 * --json output, hardware files, saved configurations). json-glib 1.6's generator
 * prints doubles such as 1e-10 as "1e-10.0", which no JSON reader accepts. */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Room for any double printed by iv_json_format_double. */
#define IV_JSON_DOUBLE_BUF 32

/* The shortest text that reads back as exactly @value ("0.1", "1e-10", "3.0",
 * "9007199254740992.0", "-0.0"), always with a fraction or an exponent so it reads back
 * as a double; "null" for NaN and ±∞, which JSON cannot express. Locale-independent. */
const char *iv_json_format_double (double value, char buf[IV_JSON_DOUBLE_BUF]);

/* Writes JSON text as it goes, for output too large to build as a tree first (the
 * statistics of a million names). Keys and values in call order; the writer adds commas,
 * line breaks and indentation. */
typedef struct _IvJsonWriter IvJsonWriter;

IvJsonWriter *iv_json_writer_new (gboolean pretty);
void iv_json_writer_begin_object (IvJsonWriter *writer);
void iv_json_writer_end_object (IvJsonWriter *writer);
void iv_json_writer_begin_array (IvJsonWriter *writer);
void iv_json_writer_end_array (IvJsonWriter *writer);
void iv_json_writer_key (IvJsonWriter *writer, const char *key);
void iv_json_writer_string (IvJsonWriter *writer, const char *value);
void iv_json_writer_int (IvJsonWriter *writer, gint64 value);
void iv_json_writer_double (IvJsonWriter *writer, double value);
void iv_json_writer_bool (IvJsonWriter *writer, gboolean value);
void iv_json_writer_null (IvJsonWriter *writer);
void iv_json_writer_node (IvJsonWriter *writer, JsonNode *node);
/* The text; frees the writer. */
char *iv_json_writer_finish (IvJsonWriter *writer);

/* One member — its key, then its value — of the object @builder is building. A NULL
 * string is written as null. */
void iv_json_member_string (JsonBuilder *builder, const char *key, const char *value);
void iv_json_member_int (JsonBuilder *builder, const char *key, gint64 value);
void iv_json_member_double (JsonBuilder *builder, const char *key, double value);
void iv_json_member_bool (JsonBuilder *builder, const char *key, gboolean value);

/* @node as JSON text, two-space indented when @pretty. Object members keep their
 * order; strings are escaped (invalid UTF-8 becomes U+FFFD). */
char *iv_json_to_string (JsonNode *node, gboolean pretty);

G_END_DECLS
