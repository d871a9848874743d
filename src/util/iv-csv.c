/* iv-csv.c: RFC 4180 fields. */
#include "iv-csv.h"

#include <string.h>

void
iv_csv_append_field (GString *out, const char *text)
{
  if (!strpbrk (text, ",\"\r\n"))
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

GPtrArray *
iv_csv_next_record (const char **cursor, const char *end)
{
  const char *p = *cursor;
  GPtrArray *fields;
  GString *field;
  gboolean any = FALSE;

  if (p >= end)
    return NULL;
  fields = g_ptr_array_new_with_free_func (g_free);
  field = g_string_new (NULL);
  while (p < end && *p != '\n')
    {
      any = TRUE;
      if (*p == '"' && field->len == 0)
        {
          /* a quoted field: up to the lone closing quote */
          for (p++; p < end; p++)
            {
              if (*p == '"' && p + 1 < end && p[1] == '"')
                g_string_append_c (field, '"'), p++;
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p);
            }
          /* anything between the closing quote and the comma is kept as written */
          while (p < end && *p != ',' && *p != '\n')
            {
              if (*p != '\r')
                g_string_append_c (field, *p);
              p++;
            }
        }
      else if (*p == ',')
        {
          g_ptr_array_add (fields, g_string_free (field, FALSE));
          field = g_string_new (NULL);
          p++;
        }
      else
        {
          if (*p != '\r')
            g_string_append_c (field, *p);
          p++;
        }
    }
  if (any)
    g_ptr_array_add (fields, g_string_free (field, FALSE));
  else
    g_string_free (field, TRUE);
  *cursor = p < end ? p + 1 : end;
  return fields;
}
