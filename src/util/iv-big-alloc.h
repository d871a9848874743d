/* iv-big-alloc.h: memory for columns of millions of values (a trace's slices). Large
 * blocks are mapped directly: they grow without copying (mremap), use huge pages where
 * the kernel offers them (a fault per 2 MiB instead of per 4 KiB: a fifth of a 1 GB
 * load's time was page faults), and go back to the system when freed, however far
 * malloc's own threshold has drifted. Small blocks come from malloc. Every function
 * reports failure instead of aborting: running out of memory on a huge file is an error
 * the user reads. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* NULL when @bytes cannot be had. Sized exactly: for arrays that will not grow. */
gpointer iv_big_alloc (gsize bytes);
/* @mem (NULL allocates) grown or shrunk to @bytes, contents kept up to the smaller
 * size; NULL when it cannot be had, and then @mem is untouched and still valid. Grown
 * blocks end on a huge-page boundary (room to grow into); shrunk ones end exactly. */
gpointer iv_big_realloc (gpointer mem, gsize bytes);
/* NULL is fine. */
void iv_big_free (gpointer mem);
/* Asks for huge pages under @bytes of any memory at @mem (a large GArray about to be
 * filled): a hint, for the whole 2 MiB pages inside it. */
void iv_big_advise (gpointer mem, gsize bytes);

G_END_DECLS
