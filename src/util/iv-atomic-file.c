/* iv-atomic-file.c: the temporary file lives in the destination's folder so the final
 * rename() stays on one file system and is atomic. Its contents reach the disk (fsync)
 * before the rename, and the rename reaches it (fsync of the folder) before success is
 * reported: after a crash or a power cut the user has the old file or the new one,
 * never an empty one. Freeing an uncommitted file removes the temporary, so every early
 * return on an error path cleans up by itself; a signal that ends the process removes
 * it too, through the table of writes in progress below. */
#define G_LOG_DOMAIN "iv-util"
/* renameat2 (RENAME_NOREPLACE) */
#define _GNU_SOURCE

#include "iv-atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
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
  int slot; /* in the table of writes in progress, or -1 */
  IvAtomicFileFlags flags;
  GError *failure; /* the first write error */
  gboolean committed;
};

/* ---- writes in progress, for a signal handler -------------------------------------- */

/* A signal handler may not lock or allocate, and may run on any thread while another
 * registers or removes a path. So the table is fixed and each slot is guarded by its
 * state and a generation number, both atomics: a path is read only while its slot is
 * READY, and the generation read before and after the copy must agree, so a slot reused
 * mid-copy is skipped rather than a half-written name unlinked. More writes than slots
 * at once (never, in practice) are simply not listed. */
#define PENDING_SLOTS 32
#define PENDING_PATH_MAX 4096

enum
{
  SLOT_FREE,
  SLOT_BUSY, /* being filled or emptied */
  SLOT_READY,
};

typedef struct
{
  int state;
  int generation;
  char path[PENDING_PATH_MAX];
} PendingSlot;

static PendingSlot pending[PENDING_SLOTS];

static int
pending_add (const char *path)
{
  gsize len = strlen (path);

  if (len >= PENDING_PATH_MAX)
    return -1;
  for (int i = 0; i < PENDING_SLOTS; i++)
    if (g_atomic_int_compare_and_exchange (&pending[i].state, SLOT_FREE, SLOT_BUSY))
      {
        memcpy (pending[i].path, path, len + 1);
        g_atomic_int_inc (&pending[i].generation);
        g_atomic_int_set (&pending[i].state, SLOT_READY);
        return i;
      }
  return -1;
}

static void
pending_remove (int slot)
{
  if (slot < 0)
    return;
  g_atomic_int_set (&pending[slot].state, SLOT_BUSY);
  g_atomic_int_inc (&pending[slot].generation);
  g_atomic_int_set (&pending[slot].state, SLOT_FREE);
}

void
iv_atomic_file_remove_pending (void)
{
  char path[PENDING_PATH_MAX];

  for (int i = 0; i < PENDING_SLOTS; i++)
    {
      int generation = g_atomic_int_get (&pending[i].generation);
      int n;

      if (g_atomic_int_get (&pending[i].state) != SLOT_READY)
        continue;
      /* a byte loop: memcpy is not on every system's list of async-signal-safe calls */
      for (n = 0; n < PENDING_PATH_MAX - 1 && pending[i].path[n]; n++)
        path[n] = pending[i].path[n];
      path[n] = '\0';
      if (g_atomic_int_get (&pending[i].state) == SLOT_READY
          && g_atomic_int_get (&pending[i].generation) == generation)
        unlink (path);
    }
}

/* The signals that end a process while it writes (Ctrl+C, kill, a closed terminal) are
 * held back from creating the temporary until it is listed, so none falls in between
 * and leaves a file no one knows of. */
static void
block_ending_signals (sigset_t *old)
{
  sigset_t set;

  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  sigaddset (&set, SIGHUP);
  pthread_sigmask (SIG_BLOCK, &set, old);
}

/* ---- where the file goes ----------------------------------------------------------- */

/* A link's target as messages should name it: "dotfiles/x.json", not
 * "data/../dotfiles/x.json". The folder is resolved by the kernel's rules (realpath), not
 * by cutting "..", which is wrong where the folder before it is itself a link. */
static char *
tidy_target (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  char *real = realpath (dir, NULL);
  char *tidy;

  if (!real)
    return g_strdup (path);
  tidy = g_build_filename (real, base, NULL);
  free (real);
  return tidy;
}

char *
iv_atomic_file_resolve_links (const char *path, GError **error)
{
  g_autofree char *current = g_strdup (path);

  g_return_val_if_fail (path != NULL, NULL);

  /* 40 hops, as the kernel allows */
  for (guint hops = 0; hops < 40; hops++)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *target = NULL;
      GStatBuf st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return hops > 0 ? tidy_target (current) : g_steal_pointer (&current);
      target = g_file_read_link (current, &local);
      if (!target)
        {
          g_set_error (error, G_FILE_ERROR, local->code, "%s", local->message);
          return NULL;
        }
      if (g_path_is_absolute (target))
        {
          g_free (current);
          current = g_steal_pointer (&target);
        }
      else
        {
          /* a relative target is relative to the folder holding the link */
          g_autofree char *dir = g_path_get_dirname (current);
          g_free (current);
          current = g_build_filename (dir, target, NULL);
        }
    }
  {
    g_autofree char *display = g_filename_display_name (path);
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP,
                 "%s: too many levels of symbolic links (a loop?)", display);
  }
  return NULL;
}

/* A symlink is followed to its last target, so saving a linked dotfile updates what it
 * points at instead of replacing the link with a file, and a dangling link gets its
 * target created. Anything but a regular file (a device, a FIFO) is refused: renaming
 * over /dev/null as root would replace the device.
 *
 * A regular file with more than one name (hard links) is refused too. The rename gives
 * the new contents a new inode: the other names would keep the old contents, silently —
 * the user who linked the file into a repository or a shared folder would find it not
 * updated there. Writing into the existing inode instead would keep the names together
 * but give up the promise every write here makes (the old file or the new one, never a
 * torn one) for every one of those names at once. Refusing loses nothing, and the
 * message says what to do. */
static char *
resolve_destination (const char *path, const char *display, GStatBuf *st, gboolean *exists,
                     GError **error)
{
  g_autofree char *dest = iv_atomic_file_resolve_links (path, error);

  *exists = FALSE;
  if (!dest)
    return NULL;
  if (g_stat (dest, st) != 0)
    {
      if (errno == ENOENT)
        return g_steal_pointer (&dest);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", display,
                   g_strerror (errno));
      return NULL;
    }
  if (S_ISDIR (st->st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, "%s: is a folder; name a file to write",
                   display);
      return NULL;
    }
  if (!S_ISREG (st->st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: exists and is not a regular file; Inferview writes only regular files",
                   display);
      return NULL;
    }
  if (st->st_nlink > 1)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
                   "%s: the file has %" G_GUINT64_FORMAT
                   " names (hard links) and replacing it would leave the others with the old "
                   "contents, so it was not written; remove the other names, or write under a "
                   "new name",
                   display, (guint64) st->st_nlink);
      return NULL;
    }
  *exists = TRUE;
  return g_steal_pointer (&dest);
}

/* The replacement gets the old file's owner, group and permissions: a 0600 file of
 * secrets stays 0600. Only root may give a file to another owner, and only a member may
 * give it to a group; where that fails the file is the writer's, as any new file is. */
static void
keep_owner_and_mode (int fd, const GStatBuf *st)
{
  if (st->st_uid != geteuid () || st->st_gid != getegid ())
    if (fchown (fd, st->st_uid, st->st_gid) != 0 && fchown (fd, (uid_t) -1, st->st_gid) != 0)
      g_debug ("the replacement keeps its writer's owner and group: %s", g_strerror (errno));
}

IvAtomicFile *
iv_atomic_file_new_full (const char *path, IvAtomicFileFlags flags, GError **error)
{
  g_autofree char *dest = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmpl = NULL;
  g_autofree char *display = NULL;
  IvAtomicFile *file;
  GStatBuf st;
  gboolean exists = FALSE;
  sigset_t old_mask;
  int fd, slot, saved;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  if (flags & IV_ATOMIC_FILE_NO_REPLACE)
    dest = g_strdup (path);
  else if (!(dest = resolve_destination (path, display, &st, &exists, error)))
    return NULL;
  dir = g_path_get_dirname (dest);
  base = g_path_get_basename (dest);
  tmpl = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  /* A new file is made as any would be (0666 less the umask, applied by the kernel); a
   * replacement starts private and takes the old file's mode before a byte is written. */
  block_ending_signals (&old_mask);
  fd = g_mkstemp_full (tmpl, O_WRONLY | O_CLOEXEC, exists ? 0600 : 0666);
  saved = errno;
  slot = fd >= 0 ? pending_add (tmpl) : -1;
  pthread_sigmask (SIG_SETMASK, &old_mask, NULL);
  if (fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: cannot create a file there: %s", display, g_strerror (saved));
      return NULL;
    }

  file = g_new0 (IvAtomicFile, 1);
  file->path = g_steal_pointer (&dest);
  file->display = g_steal_pointer (&display);
  file->temp = g_steal_pointer (&tmpl);
  file->fd = fd;
  file->slot = slot;
  file->flags = flags;
  if (exists)
    {
      keep_owner_and_mode (fd, &st);
      iv_atomic_file_set_mode (file, st.st_mode & 07777);
    }
  return file;
}

IvAtomicFile *
iv_atomic_file_new (const char *path, GError **error)
{
  return iv_atomic_file_new_full (path, IV_ATOMIC_FILE_DEFAULT, error);
}

static void
set_failure (IvAtomicFile *file, int err, const char *what)
{
  if (!file->failure)
    g_set_error (&file->failure, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s: %s",
                 file->display, what, g_strerror (err));
}

void
iv_atomic_file_set_mode (IvAtomicFile *file, guint mode)
{
  g_return_if_fail (file != NULL && file->fd >= 0);

  if (fchmod (file->fd, (mode_t) (mode & 07777)) != 0)
    set_failure (file, errno, "cannot set the permissions");
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

/* The temporary takes @path's name only if nothing has it: renameat2's NOREPLACE, or
 * where the file system lacks it, link() (which never replaces either) and an unlink. */
static int
rename_no_replace (const char *from, const char *to)
{
  if (renameat2 (AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    return -1;
  if (link (from, to) != 0)
    return -1;
  g_unlink (from);
  return 0;
}

gboolean
iv_atomic_file_commit (IvAtomicFile *file, GError **error)
{
  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (!file->committed, FALSE);

  if (!file->failure && fsync (file->fd) != 0 && errno != EINVAL)
    set_failure (file, errno, "cannot write to the disk");
  if (close (file->fd) != 0 && !file->failure)
    set_failure (file, errno, "cannot write");
  file->fd = -1;
  if (!file->failure)
    {
      if (file->flags & IV_ATOMIC_FILE_NO_REPLACE)
        {
          if (rename_no_replace (file->temp, file->path) != 0)
            set_failure (file, errno,
                         errno == EEXIST ? "already exists" : "cannot create the file");
        }
      else if (g_rename (file->temp, file->path) != 0)
        set_failure (file, errno, "cannot replace the file");
    }
  if (file->failure)
    {
      if (error)
        *error = g_error_copy (file->failure);
      return FALSE;
    }
  file->committed = TRUE;
  /* after the rename: a signal in between unlinks a name that is gone, harmlessly */
  pending_remove (file->slot);
  file->slot = -1;
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
  pending_remove (file->slot);
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
