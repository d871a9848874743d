/* iv-big-alloc.c: see iv-big-alloc.h. Each block starts with a header saying how it was
 * obtained and how long its mapping is, so freeing needs only the pointer. */
#define G_LOG_DOMAIN "iv-util"
#define _GNU_SOURCE /* mremap */

#include "iv-big-alloc.h"

#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Below this, malloc: a mapping per small column would cost more than it saves. */
#define MAP_FROM (1u << 20)

typedef struct
{
  gsize mapped;   /* bytes of the mapping including this header; 0: from malloc */
  gsize bytes;    /* what the caller asked for */
} __attribute__ ((aligned (16))) Header;

static Header *
header_of (gpointer mem)
{
  return (Header *) mem - 1;
}

#ifdef __linux__
/* The kernel rounds lengths up to its page size itself; 4 KiB multiples keep the
 * recorded length a value mremap and munmap accept on every Linux page size. */
static gsize
page_round (gsize bytes)
{
  return (bytes + 4095) / 4096 * 4096;
}

static void
advise_huge (Header *h, gsize mapped)
{
#ifdef MADV_HUGEPAGE
  /* A hint: where transparent huge pages are "madvise", this is what enables them. */
  madvise (h, mapped, MADV_HUGEPAGE);
#endif
}

static Header *
map_block (gsize total)
{
  gsize len = page_round (total);
  void *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  advise_huge (p, len);
  ((Header *) p)->mapped = len;
  return p;
}
#endif

gpointer
iv_big_alloc (gsize bytes)
{
  return iv_big_realloc (NULL, bytes);
}

gpointer
iv_big_realloc (gpointer mem, gsize bytes)
{
  Header *old = mem ? header_of (mem) : NULL;
  Header *h = NULL;
  gsize total;

  if (bytes > G_MAXSIZE - sizeof (Header))
    return NULL;
  total = bytes + sizeof (Header);
#ifdef __linux__
  if (total >= MAP_FROM)
    {
      if (old && old->mapped)
        {
          gsize len = page_round (total);
          void *p = len == old->mapped ? (void *) old : mremap (old, old->mapped, len, MREMAP_MAYMOVE);
          if (p == MAP_FAILED)
            return NULL;
          h = p;
          if (len > h->mapped)
            advise_huge (h, len);
          h->mapped = len;
        }
      else
        {
          h = map_block (total);
          if (!h)
            return NULL;
          if (old)
            {
              memcpy (h + 1, mem, MIN (old->bytes, bytes));
              g_free (old);
            }
        }
      h->bytes = bytes;
      return h + 1;
    }
  if (old && old->mapped)
    {
      /* shrinking below the mapping threshold: back to malloc */
      h = g_try_malloc (total);
      if (!h)
        return NULL;
      memcpy (h + 1, mem, MIN (old->bytes, bytes));
      munmap (old, old->mapped);
      h->mapped = 0;
      h->bytes = bytes;
      return h + 1;
    }
#endif
  h = g_try_realloc (old, total);
  if (!h)
    return NULL;
  h->mapped = 0;
  h->bytes = bytes;
  return h + 1;
}

void
iv_big_free (gpointer mem)
{
  Header *h;

  if (!mem)
    return;
  h = header_of (mem);
#ifdef __linux__
  if (h->mapped)
    {
      munmap (h, h->mapped);
      return;
    }
#endif
  g_free (h);
}
