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
