/* iv-atomic-file.c: the temporary file lives in the destination's folder so the final
 * rename() stays on one file system and is atomic. Its contents reach the disk (fsync)
 * before the rename, and the rename reaches it (fsync of the folder) before success is
 * reported: after a crash or a power cut the user has the old file or the new one,
 * never an empty one. Freeing an uncommitted file removes the temporary, so every early
 * return on an error path cleans up by itself. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _IvAtomicFile
{
  char *path; /* where the file lands (a symlink's target, if it was one) */
  char *display;
  char *temp;
  int fd;
  GError *failure; /* the first write error */
  gboolean committed;
};

/* A symlink is followed, so saving a linked dotfile updates what it points at instead of
 * replacing the link with a file. Anything but a regular file (a device, a FIFO) is
 * refused: renaming over /dev/null as root would replace the device. */
static char *
resolve_destination (const char *path, const char *display, GError **error)
{
  GStatBuf st;
  char *real;

  if (g_stat (path, &st) != 0)
    {
      if (errno == ENOENT)
        return g_strdup (path);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", display,
                   g_strerror (errno));
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "%s: is a folder; name a file to write",
                   display);
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: exists and is not a regular file; Inferview writes only regular files",
                   display);
      return NULL;
    }
  real = realpath (path, NULL);
  if (!real)
    return g_strdup (path);
  {
    char *copy = g_strdup (real);
    free (real);
    return copy;
  }
}

IvAtomicFile *
iv_atomic_file_new (const char *path, GError **error)
{
  g_autofree char *dest = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmpl = NULL;
  g_autofree char *display = NULL;
  IvAtomicFile *file;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  dest = resolve_destination (path, display, error);
  if (!dest)
    return NULL;
  dir = g_path_get_dirname (dest);
  base = g_path_get_basename (dest);
  tmpl = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  fd = g_mkstemp_full (tmpl, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: cannot create a file there: %s", display, g_strerror (saved));
      return NULL;
    }

  file = g_new0 (IvAtomicFile, 1);
  file->path = g_steal_pointer (&dest);
  file->display = g_steal_pointer (&display);
  file->temp = g_steal_pointer (&tmpl);
  file->fd = fd;
  return file;
}

static void
set_failure (IvAtomicFile *file, int err, const char *what)
{
  if (!file->failure)
    g_set_error (&file->failure, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s: %s",
                 file->display, what, g_strerror (err));
}

gboolean
iv_atomic_file_write (IvAtomicFile *file, const void *data, gsize len, GError **error)
{
  const guint8 *p = data;

  g_return_val_if_fail (file != NULL && !file->committed, FALSE);

  while (!file->failure && len > 0)
    {
      gssize n = write (file->fd, p, MIN (len, (gsize) G_MAXSSIZE));
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          set_failure (file, errno, "cannot write");
          break;
        }
      if (n == 0)
        {
          set_failure (file, ENOSPC, "cannot write");
          break;
        }
      p += n;
      len -= (gsize) n;
    }
  if (file->failure)
    {
      if (error)
        *error = g_error_copy (file->failure);
      return FALSE;
    }
  return TRUE;
}

gboolean
iv_atomic_file_failed (IvAtomicFile *file)
{
  g_return_val_if_fail (file != NULL, TRUE);
  return file->failure != NULL;
}

/* The rename is durable only once the folder's entry is on the disk too. File systems
 * that cannot sync a folder (some network ones) say EINVAL; the file itself is safe. */
static void
sync_folder (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  if (fd < 0)
    return;
  if (fsync (fd) != 0 && errno != EINVAL)
    g_debug ("%s: fsync of the folder failed: %s", dir, g_strerror (errno));
  close (fd);
}

gboolean
iv_atomic_file_commit (IvAtomicFile *file, GError **error)
{
  mode_t mask;

  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (!file->committed, FALSE);

  if (!file->failure && fsync (file->fd) != 0 && errno != EINVAL)
    set_failure (file, errno, "cannot write to the disk");
  /* mkstemp creates 0600; an exported figure should be readable like any new file. */
  mask = umask (0);
  umask (mask);
  if (!file->failure && fchmod (file->fd, 0666 & ~mask) != 0)
    set_failure (file, errno, "cannot set the permissions");
  if (close (file->fd) != 0 && !file->failure)
    set_failure (file, errno, "cannot write");
  file->fd = -1;
  if (!file->failure && g_rename (file->temp, file->path) != 0)
    set_failure (file, errno, "cannot replace the file");
  if (file->failure)
    {
      if (error)
        *error = g_error_copy (file->failure);
      return FALSE;
    }
  file->committed = TRUE;
  sync_folder (file->path);
  return TRUE;
}

void
iv_atomic_file_free (IvAtomicFile *file)
{
  if (!file)
    return;
  if (file->fd >= 0)
    close (file->fd);
  if (!file->committed)
    g_unlink (file->temp);
  g_clear_error (&file->failure);
  g_free (file->temp);
  g_free (file->display);
  g_free (file->path);
  g_free (file);
}

gboolean
iv_atomic_file_set_contents (const char *path, const char *contents, gssize length, GError **error)
{
  g_autoptr (IvAtomicFile) file = NULL;

  g_return_val_if_fail (path != NULL && contents != NULL, FALSE);

  file = iv_atomic_file_new (path, error);
  if (!file)
    return FALSE;
  if (length < 0)
    length = (gssize) strlen (contents);
  if (!iv_atomic_file_write (file, contents, (gsize) length, error))
    return FALSE;
  return iv_atomic_file_commit (file, error);
}
