/* iv-json-doc.h: the one way Inferview parses a JSON document with json-glib (configs,
 * summaries, hardware and saved files, pipelined timelines): a regular file, capped in
 * size, UTF-8 checked and nesting limited before json-glib sees it. json-glib parses
 * recursively, so a file of 100,000 '[' would otherwise overflow the stack. */
#pragma once

#include <json-glib/json-glib.h>

#include "iv-input.h"

G_BEGIN_DECLS

/* Deeper than any real document (AIPerf's deepest is 5 levels), shallow enough for any
 * thread's stack under json-glib's recursion. */
#define IV_JSON_MAX_DEPTH 256

/* FALSE when containers nest deeper than @max_depth; then @line and @column (1-based,
 * bytes) point at the bracket that went too deep. Strings are skipped properly, so
 * brackets inside them do not count. */
gboolean iv_json_check_depth (const char *text, gsize len, guint max_depth, guint *line,
                              guint *column);

/* What iv_json_parse() checks before parsing, for readers that stream the text instead:
 * UTF-8 (UTF-16 named as such) and nesting; FALSE with "SOURCE: line L, column C: …". */
gboolean iv_json_check_text (const char *text, gsize len, const char *source, GError **error);
/* Parses @text (@len bytes; a UTF-8 BOM is skipped). Errors read
 * "SOURCE: line L, column C: problem". Returns the root, never NULL on success. */
JsonNode *iv_json_parse (const char *text, gsize len, const char *source, GError **error);
/* The whole of @input (up to @max_bytes), parsed. */
JsonNode *iv_json_parse_input (IvInput *input, gsize max_bytes, GError **error);
/* A document file (regular, plain or compressed, at most IV_INPUT_DOCUMENT_MAX). */
JsonNode *iv_json_load (const char *path, GError **error);

/* Typed members of an object (which may be NULL): anything absent, null or of another
 * type reads as absent, never as a critical or a crash. Numbers accept integers and
 * doubles and must be finite. */
const char *iv_json_string (JsonObject *o, const char *key);
JsonObject *iv_json_object (JsonObject *o, const char *key);
JsonArray *iv_json_array (JsonObject *o, const char *key);
gboolean iv_json_number (JsonObject *o, const char *key, double *out);
gboolean iv_json_int (JsonObject *o, const char *key, gint64 *out);
gboolean iv_json_bool (JsonObject *o, const char *key, gboolean *out);
/* Element @i of @a (which may be NULL) if it is a string, else NULL. */
const char *iv_json_element_string (JsonArray *a, guint i);

G_END_DECLS
