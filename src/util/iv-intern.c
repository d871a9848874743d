/* iv-intern.c: strings live once, packed in blocks; an open-addressing table of ids finds
 * them, and an array maps ids back. A million events with forty distinct names cost forty
 * strings.
 *
 * Every allocation is tried and may fail: a trace of ten million distinct names fills
 * this pool, and running out of memory there must be an error the loader reports, not
 * GLib's abort (GHashTable, GPtrArray and GStringChunk, which this pool was built on,
 * abort when they cannot grow). A failed add leaves the pool as it was. It is also
 * smaller than they were: 16 bytes an id, 4–8 bytes of table, and the string. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-intern.h"

#include <string.h>

#include "iv-big-alloc.h"

typedef struct
{
  const char *str;
  guint32 hash;
  guint32 len;
} Entry;

/* A block of strings; the strings follow the header. */
typedef struct Block Block;
struct Block
{
  Block *next;
};

/* Blocks grow from 4 KiB (a small trace's few names) to 1 MiB; a string longer than a
 * quarter of the current size gets a block of its own. */
#define BLOCK_MIN 4096
#define BLOCK_MAX ((gsize) 1 << 20)

struct _IvIntern
{
  Block *blocks;
  char *fill; /* the free room of the newest block */
  gsize room;
  gsize block_size;

  Entry *entries; /* id → string (iv-big-alloc memory) */
  guint n, cap;

  guint32 *table; /* id + 1, 0 for an empty slot; a power of two long */
  gsize mask;
  gsize bytes;
};

/* FNV-1a: names are short, and the loaders cache the hot ones in front of the pool. */
static guint32
hash_of (const char *s, gsize len)
{
  guint32 h = 2166136261u;
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) s[i]) * 16777619u;
  return h;
}

IvIntern *
iv_intern_try_new (void)
{
  IvIntern *p = g_try_new0 (IvIntern, 1);

  if (!p)
    return NULL;
  p->block_size = BLOCK_MIN;
  p->mask = 15;
  p->table = iv_big_alloc ((p->mask + 1) * sizeof (guint32));
  if (!p->table)
    {
      g_free (p);
      return NULL;
    }
  memset (p->table, 0, (p->mask + 1) * sizeof (guint32));
  return p;
}

IvIntern *
iv_intern_new (void)
{
  IvIntern *p = iv_intern_try_new ();
  if (!p)
    g_error ("iv_intern_new: out of memory");
  return p;
}

void
iv_intern_free (IvIntern *p)
{
  if (!p)
    return;
  while (p->blocks)
    {
      Block *next = p->blocks->next;
      iv_big_free (p->blocks);
      p->blocks = next;
    }
  iv_big_free (p->entries);
  iv_big_free (p->table);
  g_free (p);
}

/* The slot holding @str, or the empty slot where it would go. */
static gsize
find_slot (const IvIntern *p, const char *str, gsize len, guint32 hash)
{
  gsize i = hash & p->mask;

  for (;;)
    {
      guint32 v = p->table[i];
      if (v == 0)
        return i;
      const Entry *e = &p->entries[v - 1];
      if (e->hash == hash && e->len == len && memcmp (e->str, str, len) == 0)
        return i;
      i = (i + 1) & p->mask;
    }
}

/* A copy of @str in the blocks, or NULL. */
static char *
store (IvIntern *p, const char *str, gsize len)
{
  char *copy;

  if (len + 1 > p->room)
    {
      gsize size = p->block_size;
      gboolean own = len + 1 > size / 4;
      Block *b;
      if (own)
        size = len + 1;
      if (size > G_MAXSIZE - sizeof (Block))
        return NULL;
      b = iv_big_alloc (sizeof (Block) + size);
      if (!b)
        return NULL;
      if (own && p->blocks)
        {
          /* behind the newest block, whose room stays in use */
          b->next = p->blocks->next;
          p->blocks->next = b;
          copy = (char *) (b + 1);
          memcpy (copy, str, len);
          copy[len] = '\0';
          return copy;
        }
      b->next = p->blocks;
      p->blocks = b;
      p->fill = (char *) (b + 1);
      p->room = size;
      if (!own)
        p->block_size = MIN (p->block_size * 2, BLOCK_MAX);
    }
  copy = p->fill;
  memcpy (copy, str, len);
  copy[len] = '\0';
  p->fill += len + 1;
  p->room -= len + 1;
  return copy;
}

/* Room for one more id: the id array and (at half full) the table grown. */
static gboolean
reserve_one (IvIntern *p)
{
  if (p->n == G_MAXUINT32 - 1)
    return FALSE;
  if (p->n == p->cap)
    {
      gsize cap = MAX ((gsize) p->cap + p->cap / 2, 64);
      Entry *grown;
      cap = MIN (cap, (gsize) G_MAXUINT32 - 1);
      grown = iv_big_realloc (p->entries, cap * sizeof (Entry));
      if (!grown)
        return FALSE;
      p->entries = grown;
      p->cap = (guint) cap;
    }
  if (((gsize) p->n + 1) * 2 > p->mask + 1)
    {
      gsize size = (p->mask + 1) * 2;
      guint32 *table;
      if (size > G_MAXSIZE / sizeof (guint32))
        return FALSE;
      table = iv_big_alloc (size * sizeof (guint32));
      if (!table)
        return FALSE;
      memset (table, 0, size * sizeof (guint32));
      for (guint id = 0; id < p->n; id++)
        {
          gsize i = p->entries[id].hash & (size - 1);
          while (table[i])
            i = (i + 1) & (size - 1);
          table[i] = id + 1;
        }
      iv_big_free (p->table);
      p->table = table;
      p->mask = size - 1;
    }
  return TRUE;
}

guint32
iv_intern_try_add (IvIntern *p, const char *str, gssize len)
{
  gsize n = len < 0 ? strlen (str) : strnlen (str, (gsize) len);
  guint32 hash = hash_of (str, n);
  gsize slot;
  char *copy;

  if (n >= G_MAXUINT32)
    return IV_INTERN_NONE;
  slot = find_slot (p, str, n, hash);
  if (p->table[slot])
    return p->table[slot] - 1;
  if (!reserve_one (p) || !(copy = store (p, str, n)))
    return IV_INTERN_NONE;
  /* the table may have grown: find the empty slot again */
  slot = find_slot (p, str, n, hash);
  p->entries[p->n] = (Entry){ copy, hash, (guint32) n };
  p->table[slot] = ++p->n;
  p->bytes += n + 1;
  return p->n - 1;
}

guint32
iv_intern_add (IvIntern *p, const char *str, gssize len)
{
  guint32 id = iv_intern_try_add (p, str, len);
  if (id == IV_INTERN_NONE)
    g_error ("iv_intern_add: out of memory for %u strings", p->n + 1);
  return id;
}

guint32
iv_intern_lookup (IvIntern *p, const char *str)
{
  gsize n = strlen (str);
  gsize slot = find_slot (p, str, n, hash_of (str, n));
  return p->table[slot] ? p->table[slot] - 1 : IV_INTERN_NONE;
}

const char *
iv_intern_get (IvIntern *p, guint32 id)
{
  return id < p->n ? p->entries[id].str : "";
}

guint
iv_intern_size (IvIntern *p)
{
  return p->n;
}

gsize
iv_intern_bytes (IvIntern *p)
{
  return p->bytes;
}
