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
  gsize mapped; /* bytes of the mapping including this header; 0: from malloc */
  gsize bytes;  /* what the caller asked for */
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

#define HUGE_PAGE ((gsize) 2 << 20)

/* Growing blocks end on a huge-page boundary too: their last, partly filled 2 MiB would
 * otherwise fault page by page (a column of 7.7 MB had a quarter of its pages there,
 * and faults are what a load spent most of its kernel time on). A block shrunk to fit
 * ends exactly, so the unused rest of its last huge page goes back. */
static gsize
huge_round (gsize bytes)
{
  return bytes > G_MAXSIZE - HUGE_PAGE ? page_round (bytes)
                                       : (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

static void
advise_huge (Header *h, gsize mapped)
{
#ifdef MADV_HUGEPAGE
  /* A hint: where transparent huge pages are "madvise", this is what enables them. */
  madvise (h, mapped, MADV_HUGEPAGE);
#endif
}

/* A mapping of @len bytes starting on a huge-page boundary (the kernel only backs
 * aligned 2 MiB ranges with huge pages: an unaligned column would fault its first
 * megabytes page by page). @len is a multiple of 4 KiB. */
static void *
map_aligned (gsize len)
{
  guint8 *p;
  guint8 *start;
  gsize head;

  if (len > G_MAXSIZE - 2 * HUGE_PAGE)
    return NULL;
  p = mmap (NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  start = (guint8 *) (((guintptr) p + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  head = (gsize) (start - p);
  if (head)
    munmap (p, head);
  munmap (start + len, HUGE_PAGE - head);
  return start;
}

static Header *
map_block (gsize total, gboolean growing)
{
  gsize len = growing ? huge_round (total) : page_round (total);
  Header *h = map_aligned (len);
  if (!h)
    return NULL;
  advise_huge (h, len);
  h->mapped = len;
  return h;
}

/* @old grown to @len: in place where the address space after it is free, else moved
 * (pages, not bytes) to a new aligned place. */
static Header *
remap_block (Header *old, gsize len)
{
  /* read before the mapping moves: @old is gone then */
  gsize was = old->mapped;
  void *p = mremap (old, was, len, 0);
  if (p == MAP_FAILED && len > was)
    {
      void *to = map_aligned (len);
      if (!to)
        return NULL;
      p = mremap (old, was, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
      if (p == MAP_FAILED)
        {
          munmap (to, len);
          return NULL;
        }
    }
  if (p == MAP_FAILED)
    return NULL;
  if (len > was)
    advise_huge (p, len);
  ((Header *) p)->mapped = len;
  return p;
}
#endif

static gpointer big_realloc (gpointer mem, gsize bytes, gboolean growing);

gpointer
iv_big_alloc (gsize bytes)
{
  return big_realloc (NULL, bytes, FALSE);
}

gpointer
iv_big_realloc (gpointer mem, gsize bytes)
{
  return big_realloc (mem, bytes, TRUE);
}

static gpointer
big_realloc (gpointer mem, gsize bytes, gboolean growing)
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
          gsize len = total <= old->mapped ? page_round (total) : huge_round (total);
          h = len == old->mapped ? old : remap_block (old, len);
          if (!h)
            return NULL;
        }
      else
        {
          h = map_block (total, growing);
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

void
iv_big_advise (gpointer mem, gsize bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  guintptr from = ((guintptr) mem + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
  guintptr to = ((guintptr) mem + bytes) & ~(guintptr) (HUGE_PAGE - 1);

  if (mem && to > from)
    madvise ((void *) from, to - from, MADV_HUGEPAGE);
#endif
}
