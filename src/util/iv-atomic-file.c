/* iv-atomic-file.c: the temporary file lives in the destination's folder so the final
 * rename() stays on one file system and is atomic. Freeing an uncommitted file removes
 * the temporary: every early return on an error path cleans up by itself. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-atomic-file.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _IvAtomicFile
{
  char *path;
  char *temp;
  gboolean committed;
};

IvAtomicFile *
iv_atomic_file_new (const char *path, GError **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmpl = NULL;
  g_autofree char *display = NULL;
  IvAtomicFile *file;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  display = g_filename_display_name (path);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "%s: is a folder, not a file name",
                   display);
      return NULL;
    }
  tmpl = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  fd = g_mkstemp (tmpl);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: cannot create a file there: %s", display, g_strerror (saved));
      return NULL;
    }
  close (fd);

  file = g_new0 (IvAtomicFile, 1);
  file->path = g_strdup (path);
  file->temp = g_steal_pointer (&tmpl);
  return file;
}

const char *
iv_atomic_file_get_temp (IvAtomicFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->temp;
}

gboolean
iv_atomic_file_commit (IvAtomicFile *file, GError **error)
{
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (!file->committed, FALSE);

  /* mkstemp creates 0600; an exported figure should be readable like any new file. */
  {
    mode_t mask = umask (0);
    umask (mask);
    g_chmod (file->temp, 0666 & ~mask);
  }
  if (g_rename (file->temp, file->path) != 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (file->path);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: cannot write: %s",
                   display, g_strerror (saved));
      return FALSE;
    }
  file->committed = TRUE;
  return TRUE;
}

void
iv_atomic_file_free (IvAtomicFile *file)
{
  if (!file)
    return;
  if (!file->committed)
    g_unlink (file->temp);
  g_free (file->temp);
  g_free (file->path);
  g_free (file);
}

gboolean
iv_atomic_file_set_contents (const char *path, const char *contents, gssize length,
                             GError **error)
{
  g_autoptr (IvAtomicFile) file = iv_atomic_file_new (path, error);
  g_autoptr (GError) local = NULL;

  if (!file)
    return FALSE;
  if (length < 0)
    length = (gssize) strlen (contents);
  if (!g_file_set_contents (file->temp, contents, length, &local))
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, G_FILE_ERROR, local->code, "%s: cannot write: %s", display,
                   local->message);
      return FALSE;
    }
  return iv_atomic_file_commit (file, error);
}
