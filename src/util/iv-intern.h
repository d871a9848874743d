/* iv-intern.h: a string pool that hands out small integer ids (names, categories). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IvIntern IvIntern;

#define IV_INTERN_NONE G_MAXUINT32

/* NULL when the memory for an empty pool cannot be had. */
IvIntern *iv_intern_try_new (void);
IvIntern *iv_intern_new (void);
void iv_intern_free (IvIntern *pool);
/* The id of @str (@len bytes, or up to its NUL when @len < 0; a NUL inside @len ends it
 * too), added if new. Aborts when memory runs out, as g_malloc () does. */
guint32 iv_intern_add (IvIntern *pool, const char *str, gssize len);
/* The same, or IV_INTERN_NONE (nothing added, the pool unchanged) when the memory for a
 * new string cannot be had: for pools sized by a file, where that is an error to report. */
guint32 iv_intern_try_add (IvIntern *pool, const char *str, gssize len);
/* The id of @str, or IV_INTERN_NONE. */
guint32 iv_intern_lookup (IvIntern *pool, const char *str);
/* The string of @id ("" for an id the pool never gave); valid as long as the pool. */
const char *iv_intern_get (IvIntern *pool, guint32 id);
guint iv_intern_size (IvIntern *pool);
/* The bytes of the strings themselves (each with its NUL). */
gsize iv_intern_bytes (IvIntern *pool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvIntern, iv_intern_free)

G_END_DECLS
