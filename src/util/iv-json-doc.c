/* iv-json-doc.c: a guarded front door to json-glib. Every check here runs before the
 * parser, in one linear pass, so a hostile document costs what its size costs. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-json-doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Line and column (1-based, in bytes) of @offset. */
static void
position (const char *text, gsize offset, guint *line, guint *column)
{
  const char *p = text, *end = text + offset, *nl;

  *line = 1;
  while ((nl = memchr (p, '\n', (gsize) (end - p))) != NULL)
    {
      (*line)++;
      p = nl + 1;
    }
  *column = (guint) (end - p) + 1;
}

gboolean
iv_json_check_depth (const char *text, gsize len, guint max_depth, guint *line, guint *column)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];
      if (in_string)
        {
          if (c == '\\')
            i++; /* the escaped character, whatever it is, cannot end the string */
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              position (text, i, line, column);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

/* json-glib says "<data>:3:14: Parse error: unexpected …"; ours names the file. */
static void
set_parse_error (GError **error, const char *source, const char *message)
{
  const char *rest = message;
  guint line = 0, column = 0;
  int used = 0;

  if (g_str_has_prefix (message, "<data>:")
      && sscanf (message + 7, "%u:%u: %n", &line, &column, &used) == 2 && used > 0)
    {
      rest = message + 7 + used;
      if (g_str_has_prefix (rest, "Parse error: "))
        rest += strlen ("Parse error: ");
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: line %u, column %u: %s", source,
                   line, column, rest);
      return;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", source, message);
}

gboolean
iv_json_check_text (const char *text, gsize len, const char *source, GError **error)
{
  const char *bad = NULL;
  guint line, column;

  if (!g_utf8_validate_len (text, len, &bad))
    {
      /* UTF-16 shows itself as zero bytes in the first pair. */
      if (len >= 2 && (text[0] == 0 || text[1] == 0 || (guchar) text[0] >= 0xfe))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: UTF-16 text: save the file as UTF-8", source);
          return FALSE;
        }
      position (text, (gsize) (bad - text), &line, &column);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: line %u, column %u: not UTF-8 text (byte 0x%02x)", source, line, column,
                   (guchar) *bad);
      return FALSE;
    }
  if (!iv_json_check_depth (text, len, IV_JSON_MAX_DEPTH, &line, &column))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: line %u, column %u: nested more than %u levels deep", source, line, column,
                   IV_JSON_MAX_DEPTH);
      return FALSE;
    }
  return TRUE;
}

JsonNode *
iv_json_parse (const char *text, gsize len, const char *source, GError **error)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local = NULL;
  JsonNode *root;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (source != NULL, NULL);

  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3, len -= 3;
  if (!iv_json_check_text (text, len, source, error))
    return NULL;
  parser = json_parser_new_immutable ();
  /* json-glib refuses an empty buffer with a critical, not an error. */
  if (len == 0 || !json_parser_load_from_data (parser, text, (gssize) len, &local)
      || !(root = json_parser_steal_root (parser)))
    {
      if (local)
        set_parse_error (error, source, local->message);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the file is empty", source);
      return NULL;
    }
  return root;
}

JsonNode *
iv_json_parse_input (IvInput *input, gsize max_bytes, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  g_return_val_if_fail (input != NULL, NULL);

  text = iv_input_read_all (input, max_bytes, &len, error);
  if (!text)
    return NULL;
  /* a UTF-8 byte order mark (Windows editors write one) is not part of the JSON */
  if (len >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    return iv_json_parse (text + 3, len - 3, iv_input_get_name (input), error);
  return iv_json_parse (text, len, iv_input_get_name (input), error);
}

JsonNode *
iv_json_load (const char *path, GError **error)
{
  g_autoptr (IvInput) in = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  in = iv_input_open (path, error);
  return in ? iv_json_parse_input (in, IV_INPUT_DOCUMENT_MAX, error) : NULL;
}

static JsonNode *
value_member (JsonObject *o, const char *key, GType type)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;
  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == type ? n : NULL;
}

const char *
iv_json_string (JsonObject *o, const char *key)
{
  JsonNode *n = value_member (o, key, G_TYPE_STRING);
  return n ? json_node_get_string (n) : NULL;
}

JsonObject *
iv_json_object (JsonObject *o, const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

JsonArray *
iv_json_array (JsonObject *o, const char *key)
{
  JsonNode *n = o ? json_object_get_member (o, key) : NULL;
  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

gboolean
iv_json_number (JsonObject *o, const char *key, double *out)
{
  JsonNode *n = value_member (o, key, G_TYPE_INT64);
  double v;

  if (!n)
    n = value_member (o, key, G_TYPE_DOUBLE);
  if (!n)
    return FALSE;
  v = json_node_get_double (n);
  if (!isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
iv_json_int (JsonObject *o, const char *key, gint64 *out)
{
  JsonNode *n = value_member (o, key, G_TYPE_INT64);

  if (!n)
    return FALSE;
  *out = json_node_get_int (n);
  return TRUE;
}

gboolean
iv_json_bool (JsonObject *o, const char *key, gboolean *out)
{
  JsonNode *n = value_member (o, key, G_TYPE_BOOLEAN);

  if (!n)
    return FALSE;
  *out = json_node_get_boolean (n);
  return TRUE;
}

const char *
iv_json_element_string (JsonArray *a, guint i)
{
  JsonNode *n = a && i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
             ? json_node_get_string (n)
             : NULL;
}
