/* iv-atomic-file.h: every file Inferview writes goes through here: written under a
 * temporary name, every write checked, flushed to the disk, then renamed into place,
 * so the old file stays whole until the new one is. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IvAtomicFile IvAtomicFile;

typedef enum
{
  IV_ATOMIC_FILE_DEFAULT = 0,
  /* The commit fails (G_FILE_ERROR_EXIST) if anything — a file, a symbolic link — has
   * @path's name by then, instead of replacing it: for copies that must never overwrite
   * an earlier one. @path is taken as it is, not resolved. */
  IV_ATOMIC_FILE_NO_REPLACE = 1 << 0,
} IvAtomicFileFlags;

/* A symbolic link at @path (or a chain of them) is resolved first: its target is what is
 * written, and is created when it does not exist yet (a dangling link), so the link stays
 * a link. An existing target must be a regular file with one name: a file with other
 * names (hard links) is refused, since replacing it would leave those names with the old
 * contents. The new file keeps the old one's permissions (and owner and group where the
 * process may set them); a new file gets 0666 less the umask. */
IvAtomicFile *iv_atomic_file_new (const char *path, GError **error);
IvAtomicFile *iv_atomic_file_new_full (const char *path, IvAtomicFileFlags flags, GError **error);
/* The permission bits the file gets at commit, instead of those above. */
void iv_atomic_file_set_mode (IvAtomicFile *file, guint mode);
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

/* Where @path leads: the last target of a chain of symbolic links (which need not exist),
 * or @path itself when it is no link. NULL with @error for a loop or a link that cannot
 * be read. */
char *iv_atomic_file_resolve_links (const char *path, GError **error);

/* Removes the temporary files of every write in progress. Async-signal-safe (no locks, no
 * allocation): for a handler of SIGINT, SIGTERM or SIGHUP, which then lets the signal end
 * the process, so an interrupted export leaves no hidden file beside its destination. */
void iv_atomic_file_remove_pending (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvAtomicFile, iv_atomic_file_free)

G_END_DECLS
