/* iv-safe-text.c: text from data made safe for Pango, terminals and text files (see the
 * header). */
#define G_LOG_DOMAIN "iv-util"

#include "iv-safe-text.h"

#include <string.h>

char *
iv_text_valid (const char *s, gssize len)
{
  GString *out;
  const char *end, *p;

  if (!s)
    return NULL;
  if (len < 0)
    len = (gssize) strlen (s);
  if (g_utf8_validate_len (s, (gsize) len, &end) && !memchr (s, '\0', (gsize) len))
    return g_strndup (s, (gsize) len);
  /* g_utf8_make_valid stops at an embedded NUL's meaning differently across versions:
   * walk the bytes ourselves so the rule is one and stated. */
  out = g_string_sized_new ((gsize) len + 8);
  p = s;
  while (p < s + len)
    {
      const char *valid_end;
      gsize rest = (gsize) (s + len - p);
      g_utf8_validate_len (p, rest, &valid_end);
      g_string_append_len (out, p, valid_end - p);
      p = valid_end;
      if (p < s + len)
        {
          g_string_append (out, "\xef\xbf\xbd"); /* U+FFFD for the one bad (or NUL) byte */
          p++;
        }
    }
  return g_string_free (out, FALSE);
}

char *
iv_text_printable (const char *s)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (!s)
    return NULL;
  valid = iv_text_valid (s, -1);
  out = g_string_sized_new (strlen (valid) + 8);
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      if (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f))
        {
          g_string_append_len (out, p, g_utf8_next_char (p) - p);
          continue;
        }
      switch (c)
        {
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case 0x1b:
          g_string_append (out, "\\e");
          break;
        default:
          if (c < 0x80)
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_printf (out, "\\u%04x", c);
        }
    }
  return g_string_free (out, FALSE);
}

gsize
iv_text_prefix_len (const char *s, gsize len, gsize max_bytes)
{
  gsize n;

  if (len <= max_bytes)
    return len;
  n = max_bytes;
  /* Step back over continuation bytes (10xxxxxx) to the start of the cut character. */
  while (n > 0 && ((guchar) s[n] & 0xc0) == 0x80)
    n--;
  return n;
}
