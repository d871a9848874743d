/* iv-json-writer.c: serialises a json-glib tree. The tree is still built with
 * JsonBuilder (readable at the call sites); only the text is ours, so that every number
 * is valid JSON and reads back to the same bits. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-json-writer.h"

#include <math.h>
#include <string.h>

const char *
iv_json_format_double (double value, char buf[IV_JSON_DOUBLE_BUF])
{
  if (!isfinite (value))
    return strcpy (buf, "null");
  /* %.15g is exact for most decimal inputs ("0.1"), %.17g for every double. */
  for (int precision = 15; precision <= 17; precision++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, IV_JSON_DOUBLE_BUF - 2, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  /* Integral values keep a fraction so they read back as doubles (and -0.0 keeps its sign). */
  if (!strpbrk (buf, ".eE"))
    strcat (buf, ".0");
  return buf;
}

static void
append_string (GString *out, const char *s)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (s, -1, NULL))
    s = valid = g_utf8_make_valid (s, -1);
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) s; *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
newline (GString *out, gboolean pretty, guint depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void append_node (GString *out, JsonNode *node, gboolean pretty, guint depth);

static void
append_value (GString *out, JsonNode *node)
{
  char buf[IV_JSON_DOUBLE_BUF];

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      g_string_append (out, iv_json_format_double (json_node_get_double (node), buf));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      append_string (out, json_node_get_string (node));
      break;
    default:
      g_string_append (out, "null");
    }
}

static void
append_node (GString *out, JsonNode *node, gboolean pretty, guint depth)
{
  if (!node)
    {
      g_string_append (out, "null");
      return;
    }
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *o = json_node_get_object (node);
        g_autoptr (GList) members = json_object_get_members (o);
        g_string_append_c (out, '{');
        for (GList *l = members; l; l = l->next)
          {
            newline (out, pretty, depth + 1);
            append_string (out, l->data);
            g_string_append (out, pretty ? ": " : ":");
            append_node (out, json_object_get_member (o, l->data), pretty, depth + 1);
            if (l->next)
              g_string_append_c (out, ',');
          }
        if (members)
          newline (out, pretty, depth);
        g_string_append_c (out, '}');
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);
        guint n = json_array_get_length (a);
        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            newline (out, pretty, depth + 1);
            append_node (out, json_array_get_element (a, i), pretty, depth + 1);
            if (i + 1 < n)
              g_string_append_c (out, ',');
          }
        if (n)
          newline (out, pretty, depth);
        g_string_append_c (out, ']');
        break;
      }
    case JSON_NODE_VALUE:
      append_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
    }
}

char *
iv_json_to_string (JsonNode *node, gboolean pretty)
{
  GString *out = g_string_new (NULL);

  append_node (out, node, pretty, 0);
  return g_string_free (out, FALSE);
}
