/* iv-atomic-file.h: write an output under a temporary name, rename it into place only
 * when complete, so nothing is ever written half-way. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IvAtomicFile IvAtomicFile;

IvAtomicFile *iv_atomic_file_new       (const char    *path,
                                        GError       **error);
const char   *iv_atomic_file_get_temp  (IvAtomicFile  *file);
gboolean      iv_atomic_file_commit    (IvAtomicFile  *file,
                                        GError       **error);
void          iv_atomic_file_free      (IvAtomicFile  *file);

gboolean      iv_atomic_file_set_contents (const char  *path,
                                           const char  *contents,
                                           gssize       length,
                                           GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvAtomicFile, iv_atomic_file_free)

G_END_DECLS
