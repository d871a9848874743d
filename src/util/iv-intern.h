/* iv-intern.h: a string pool that hands out small integer ids (names, categories). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IvIntern IvIntern;

IvIntern *iv_intern_new (void);
void iv_intern_free (IvIntern *pool);
guint32 iv_intern_add (IvIntern *pool, const char *str, gssize len);
guint32 iv_intern_lookup (IvIntern *pool, const char *str);
const char *iv_intern_get (IvIntern *pool, guint32 id);
guint iv_intern_size (IvIntern *pool);
gsize iv_intern_bytes (IvIntern *pool);

#define IV_INTERN_NONE G_MAXUINT32

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvIntern, iv_intern_free)

G_END_DECLS
