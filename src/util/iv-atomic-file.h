/* iv-atomic-file.h: every file Inferview writes goes through here: written under a
 * temporary name, every write checked, flushed to the disk, then renamed into place,
 * so the old file stays whole until the new one is. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IvAtomicFile IvAtomicFile;

IvAtomicFile *iv_atomic_file_new (const char *path, GError **error);
/* Appends @len bytes. The first failure is kept: later writes do nothing and commit
 * reports it, so a writer driven by callbacks (cairo's streams) needs no checks of its
 * own beyond stopping early. */
gboolean iv_atomic_file_write (IvAtomicFile *file, const void *data, gsize len, GError **error);
gboolean iv_atomic_file_failed (IvAtomicFile *file);
/* fsync, close, rename over @path, fsync the folder. On failure the temporary file is
 * removed and @path is left as it was. */
gboolean iv_atomic_file_commit (IvAtomicFile *file, GError **error);
void iv_atomic_file_free (IvAtomicFile *file);

gboolean iv_atomic_file_set_contents (const char *path, const char *contents, gssize length,
                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvAtomicFile, iv_atomic_file_free)

G_END_DECLS
