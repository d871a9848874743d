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
  const char *run;

  if (!g_utf8_validate (s, -1, NULL))
    s = valid = g_utf8_make_valid (s, -1);
  g_string_append_c (out, '"');
  /* Runs of plain characters are copied at once: most names need no escape at all. */
  run = s;
  for (const guchar *p = (const guchar *) s;; p++)
    {
      const char *esc = NULL;
      char hex[8];
      if (*p >= 0x20 && *p != '"' && *p != '\\')
        continue;
      g_string_append_len (out, run, (const char *) p - run);
      if (!*p)
        break;
      switch (*p)
        {
        case '"':
          esc = "\\\"";
          break;
        case '\\':
          esc = "\\\\";
          break;
        case '\b':
          esc = "\\b";
          break;
        case '\f':
          esc = "\\f";
          break;
        case '\n':
          esc = "\\n";
          break;
        case '\r':
          esc = "\\r";
          break;
        case '\t':
          esc = "\\t";
          break;
        default:
          g_snprintf (hex, sizeof hex, "\\u%04x", *p);
          esc = hex;
        }
      g_string_append (out, esc);
      run = (const char *) p + 1;
    }
  g_string_append_c (out, '"');
}

struct _IvJsonWriter
{
  GString *out;
  gboolean pretty;
  GArray *first;      /* per open container: no member or element written yet */
  gboolean after_key; /* the next value completes a member */
};

IvJsonWriter *
iv_json_writer_new (gboolean pretty)
{
  IvJsonWriter *w = g_new0 (IvJsonWriter, 1);

  w->out = g_string_sized_new (4096);
  w->pretty = pretty;
  w->first = g_array_new (FALSE, FALSE, sizeof (gboolean));
  return w;
}

static void
newline (IvJsonWriter *w)
{
  static const char spaces[] = "                                                                ";
  gsize n = 2 * w->first->len;

  if (!w->pretty)
    return;
  g_string_append_c (w->out, '\n');
  for (; n > 0; n -= MIN (n, sizeof spaces - 1))
    g_string_append_len (w->out, spaces, (gssize) MIN (n, sizeof spaces - 1));
}

/* Before any value: the comma and line break an element needs (a member's value follows
 * its key directly). */
static void
before_value (IvJsonWriter *w)
{
  if (w->after_key)
    {
      w->after_key = FALSE;
      return;
    }
  if (w->first->len == 0)
    return;
  if (!g_array_index (w->first, gboolean, w->first->len - 1))
    g_string_append_c (w->out, ',');
  g_array_index (w->first, gboolean, w->first->len - 1) = FALSE;
  newline (w);
}

static void
open_container (IvJsonWriter *w, char c)
{
  gboolean first = TRUE;

  before_value (w);
  g_string_append_c (w->out, c);
  g_array_append_val (w->first, first);
}

static void
close_container (IvJsonWriter *w, char c)
{
  gboolean empty;

  g_return_if_fail (w->first->len > 0);
  empty = g_array_index (w->first, gboolean, w->first->len - 1);
  g_array_set_size (w->first, w->first->len - 1);
  if (!empty)
    newline (w);
  g_string_append_c (w->out, c);
}

void
iv_json_writer_begin_object (IvJsonWriter *w)
{
  open_container (w, '{');
}

void
iv_json_writer_end_object (IvJsonWriter *w)
{
  close_container (w, '}');
}

void
iv_json_writer_begin_array (IvJsonWriter *w)
{
  open_container (w, '[');
}

void
iv_json_writer_end_array (IvJsonWriter *w)
{
  close_container (w, ']');
}

void
iv_json_writer_key (IvJsonWriter *w, const char *key)
{
  before_value (w);
  append_string (w->out, key);
  g_string_append (w->out, w->pretty ? ": " : ":");
  w->after_key = TRUE;
}

void
iv_json_writer_string (IvJsonWriter *w, const char *value)
{
  before_value (w);
  if (value)
    append_string (w->out, value);
  else
    g_string_append (w->out, "null");
}

void
iv_json_writer_int (IvJsonWriter *w, gint64 value)
{
  char buf[24], *p = buf + sizeof buf;
  /* Digits from the magnitude as unsigned: -G_MININT64 does not fit a gint64. */
  guint64 u = value < 0 ? -(guint64) value : (guint64) value;

  before_value (w);
  do
    *--p = (char) ('0' + u % 10);
  while ((u /= 10) > 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (w->out, p, buf + sizeof buf - p);
}

void
iv_json_writer_double (IvJsonWriter *w, double value)
{
  char buf[IV_JSON_DOUBLE_BUF];

  before_value (w);
  g_string_append (w->out, iv_json_format_double (value, buf));
}

void
iv_json_writer_bool (IvJsonWriter *w, gboolean value)
{
  before_value (w);
  g_string_append (w->out, value ? "true" : "false");
}

void
iv_json_writer_null (IvJsonWriter *w)
{
  before_value (w);
  g_string_append (w->out, "null");
}

void
iv_json_writer_node (IvJsonWriter *w, JsonNode *node)
{
  if (!node || JSON_NODE_HOLDS_NULL (node))
    {
      iv_json_writer_null (w);
      return;
    }
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *o = json_node_get_object (node);
        g_autoptr (GList) members = json_object_get_members (o);
        iv_json_writer_begin_object (w);
        for (GList *l = members; l; l = l->next)
          {
            iv_json_writer_key (w, l->data);
            iv_json_writer_node (w, json_object_get_member (o, l->data));
          }
        iv_json_writer_end_object (w);
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *a = json_node_get_array (node);
        iv_json_writer_begin_array (w);
        for (guint i = 0; i < json_array_get_length (a); i++)
          iv_json_writer_node (w, json_array_get_element (a, i));
        iv_json_writer_end_array (w);
        break;
      }
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          iv_json_writer_int (w, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          iv_json_writer_double (w, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          iv_json_writer_bool (w, json_node_get_boolean (node));
          break;
        case G_TYPE_STRING:
          iv_json_writer_string (w, json_node_get_string (node));
          break;
        default:
          iv_json_writer_null (w);
        }
      break;
    case JSON_NODE_NULL:
    default:
      iv_json_writer_null (w);
    }
}

char *
iv_json_writer_finish (IvJsonWriter *w)
{
  char *text;

  g_return_val_if_fail (w != NULL, NULL);
  g_warn_if_fail (w->first->len == 0);
  g_array_unref (w->first);
  text = g_string_free (w->out, FALSE);
  g_free (w);
  return text;
}

char *
iv_json_to_string (JsonNode *node, gboolean pretty)
{
  IvJsonWriter *w = iv_json_writer_new (pretty);

  iv_json_writer_node (w, node);
  return iv_json_writer_finish (w);
}

void
iv_json_member_string (JsonBuilder *builder, const char *key, const char *value)
{
  json_builder_set_member_name (builder, key);
  if (value)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
iv_json_member_int (JsonBuilder *builder, const char *key, gint64 value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_int_value (builder, value);
}

void
iv_json_member_double (JsonBuilder *builder, const char *key, double value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_double_value (builder, value);
}

void
iv_json_member_bool (JsonBuilder *builder, const char *key, gboolean value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_boolean_value (builder, value);
}
