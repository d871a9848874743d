/* iv-intern.c: strings live once in a GStringChunk; a hash maps them to ids and an
 * array maps ids back. A million events with forty distinct names cost forty strings. */
#include "iv-intern.h"

#include <string.h>

struct _IvIntern
{
  GStringChunk *chunk;
  GHashTable *ids; /* char* (in chunk) → id + 1 */
  GPtrArray *strs; /* id → char* */
  gsize bytes;
};

IvIntern *
iv_intern_new (void)
{
  IvIntern *p = g_new0 (IvIntern, 1);
  p->chunk = g_string_chunk_new (4096);
  p->ids = g_hash_table_new (g_str_hash, g_str_equal);
  p->strs = g_ptr_array_new ();
  return p;
}

void
iv_intern_free (IvIntern *p)
{
  if (!p)
    return;
  g_string_chunk_free (p->chunk);
  g_hash_table_unref (p->ids);
  g_ptr_array_unref (p->strs);
  g_free (p);
}

guint32
iv_intern_add (IvIntern *p, const char *str, gssize len)
{
  char stack[256];
  g_autofree char *heap = NULL;
  const char *key = str;
  gpointer found;
  char *copy;

  if (len >= 0)
    {
      /* The hash needs a terminated string; most names fit on the stack. */
      char *buf = (gsize) len < sizeof stack ? stack : (heap = g_malloc ((gsize) len + 1));
      memcpy (buf, str, (gsize) len);
      buf[len] = '\0';
      key = buf;
    }
  found = g_hash_table_lookup (p->ids, key);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  copy = g_string_chunk_insert (p->chunk, key);
  g_ptr_array_add (p->strs, copy);
  g_hash_table_insert (p->ids, copy, GUINT_TO_POINTER (p->strs->len));
  p->bytes += strlen (copy) + 1;
  return p->strs->len - 1;
}

guint32
iv_intern_lookup (IvIntern *p, const char *str)
{
  gpointer found = g_hash_table_lookup (p->ids, str);
  return found ? GPOINTER_TO_UINT (found) - 1 : IV_INTERN_NONE;
}

const char *
iv_intern_get (IvIntern *p, guint32 id)
{
  return id < p->strs->len ? p->strs->pdata[id] : "";
}

guint
iv_intern_size (IvIntern *p)
{
  return p->strs->len;
}

gsize
iv_intern_bytes (IvIntern *p)
{
  return p->bytes;
}
