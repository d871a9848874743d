/* iv-live-follow.c: following a sweep as it is written (see the header). A change in a
 * watched folder only asks for a read; reads are at least 500 ms apart, so a benchmark
 * writing thousands of lines a second costs two small reads a second, and each read takes
 * at most the caller's share per file (the window: a few megabytes, so that a burst never
 * holds a frame; plot --watch: more, as it has no frame to hold). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-live-follow.h"

#include <errno.h>
#include <glib-unix.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

/* At most two reads a second. */
#define MIN_INTERVAL_MS 500
/* Without events from the watched folders (a network file system): a read this often
 * while a run is live, and new runs looked for this often when none is. */
#define FALLBACK_LIVE_MS 2000
#define FALLBACK_IDLE_MS 10000
/* New run folders are looked for at most this often (a walk of the sweep's folders). */
#define DISCOVER_MS 2000

struct _IvLiveFollow
{
  GObject parent_instance;

  IvSweep *sweep;
  /* bytes read per file and read (a line with no end yet is searched this far a read,
   * from where the last search stopped, never read again) */
  gsize max_bytes;
  /* Folders are watched with inotify on this thread's main context, not GFileMonitor:
   * GLib's monitors run on its own worker thread and hand their events over under a
   * GMutex that ThreadSanitizer cannot see (GLib is not instrumented), so every event
   * would be reported as a race in CI. An event only asks for a read here, so what it
   * says is not needed, only that it came. */
  int inotify_fd;       /* -1: no watching (not Linux, or no inotify): the slow timer reads */
  guint inotify_source; /* the fd on the main context */
  GHashTable *watches;  /* folder → its watch descriptor (GINT_TO_POINTER) */
  guint pending;        /* a read scheduled by a change in a watched folder */
  guint fallback;       /* the slow timer */
  guint fallback_ms;
  gint64 last_read_us, last_discover_us;
};

G_DEFINE_FINAL_TYPE (IvLiveFollow, iv_live_follow, G_TYPE_OBJECT)

enum
{
  SIGNAL_CHANGED,
  SIGNAL_STOPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void schedule (IvLiveFollow *self);
static void watch_folders (IvLiveFollow *self);

#ifdef __linux__
/* What changed in the folders (records appended, a summary or a run folder written, a
 * folder removed): drained, and a read scheduled. A watch the kernel dropped (its folder
 * removed) is forgotten, so its number, if the kernel gives it again, is not confused. */
static gboolean
on_inotify (int fd, GIOCondition condition, gpointer data)
{
  IvLiveFollow *self = data;
  char buf[4096] __attribute__ ((aligned (__alignof__(struct inotify_event))));
  gboolean changed = FALSE;
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) > 0)
    for (char *p = buf; p < buf + n;
         p += sizeof (struct inotify_event) + ((struct inotify_event *) p)->len)
      {
        const struct inotify_event *e = (const struct inotify_event *) p;
        if (e->mask & IN_IGNORED)
          {
            GHashTableIter iter;
            gpointer wd;
            g_hash_table_iter_init (&iter, self->watches);
            while (g_hash_table_iter_next (&iter, NULL, &wd))
              if (GPOINTER_TO_INT (wd) == e->wd)
                g_hash_table_iter_remove (&iter);
          }
        else
          changed = TRUE;
      }
  if (n < 0 && errno != EAGAIN && errno != EINTR)
    {
      /* cannot happen with a valid descriptor; the slow timer goes on reading */
      g_debug ("folder watching stopped: %s", g_strerror (errno));
      self->inotify_source = 0;
      return G_SOURCE_REMOVE;
    }
  if (changed)
    schedule (self);
  return G_SOURCE_CONTINUE;
}
#endif

static void
watch (IvLiveFollow *self, const char *dir)
{
#ifdef __linux__
  int wd;

  if (self->inotify_fd < 0 || g_hash_table_contains (self->watches, dir))
    return;
  /* files written, moved in or out, created (a new run), removed; the folder itself
   * removed or renamed */
  wd = inotify_add_watch (self->inotify_fd, dir,
                          IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM
                              | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
  /* not a folder, gone, or no watches left: the slow timer reads instead */
  if (wd < 0)
    return;
  g_hash_table_insert (self->watches, g_strdup (dir), GINT_TO_POINTER (wd));
#endif
}

static void
unwatch (IvLiveFollow *self, const char *dir)
{
#ifdef __linux__
  gpointer wd;

  if (g_hash_table_lookup_extended (self->watches, dir, NULL, &wd))
    {
      inotify_rm_watch (self->inotify_fd, GPOINTER_TO_INT (wd));
      g_hash_table_remove (self->watches, dir);
    }
#endif
}

/* The opened folders, each run being written, and the folders between them, where new
 * runs appear. */
static void
watch_folders (IvLiveFollow *self)
{
  for (guint i = 0; self->sweep->paths && self->sweep->paths[i]; i++)
    watch (self, self->sweep->paths[i]);
  for (guint i = 0; i < self->sweep->runs->len; i++)
    {
      const IvRun *r = self->sweep->runs->pdata[i];
      g_autofree char *parent = g_path_get_dirname (r->path);
      if (r->live)
        watch (self, r->path);
      else
        /* a finished run's own folder says nothing new */
        unwatch (self, r->path);
      for (guint p = 0; self->sweep->paths && self->sweep->paths[p]; p++)
        if (g_str_has_prefix (parent, self->sweep->paths[p]))
          watch (self, parent);
    }
}

static gboolean on_fallback (gpointer data);

static void
set_fallback (IvLiveFollow *self)
{
  guint ms = iv_sweep_n_live (self->sweep) ? FALLBACK_LIVE_MS : FALLBACK_IDLE_MS;

  if (self->fallback && self->fallback_ms == ms)
    return;
  g_clear_handle_id (&self->fallback, g_source_remove);
  self->fallback_ms = ms;
  self->fallback = g_timeout_add (ms, on_fallback, self);
}

static void
read_now (IvLiveFollow *self)
{
  IvSweepFollow out;
  gint64 now = g_get_monotonic_time ();
  gboolean discover = now - self->last_discover_us >= DISCOVER_MS * 1000, more = FALSE;
  gint64 after;

  self->last_read_us = now;
  if (discover)
    self->last_discover_us = now;
  iv_sweep_follow (self->sweep, self->max_bytes, discover, &out);
  /* a run whose files moved in this read (whole lines or not) may have more than the
   * share a read takes: looked at again at the next slot, until a read moves nothing (a
   * modification time in the future is not growth in this read) */
  after = g_get_monotonic_time ();
  for (guint i = 0; i < self->sweep->runs->len && !more; i++)
    {
      gint64 grew = iv_run_live_last_growth (self->sweep->runs->pdata[i]);
      more = grew >= now && grew <= after;
    }
  if (out.new_runs || out.finished_runs || out.stopped_runs || out.incomplete_runs)
    watch_folders (self);
  set_fallback (self);
  /* a run that can no longer be followed is said (the window's toast), and "changed"
   * takes its Live badge away */
  if (out.stopped_runs)
    g_signal_emit (self, signals[SIGNAL_STOPPED], 0, out.stopped_why);
  /* a run whose files stopped growing without a summary is incomplete: its badge goes */
  if (out.new_records || out.new_samples || out.new_runs || out.finished_runs || out.stopped_runs
      || out.incomplete_runs)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0, &out);
  /* a handler may have stopped the follower */
  if (self->sweep && (more || out.new_records || out.new_samples))
    schedule (self);
}

static gboolean
on_pending (gpointer data)
{
  IvLiveFollow *self = data;
  self->pending = 0;
  read_now (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (IvLiveFollow *self)
{
  gint64 since_ms = (g_get_monotonic_time () - self->last_read_us) / 1000;

  if (self->pending || !self->sweep)
    return;
  self->pending = g_timeout_add (
      since_ms >= MIN_INTERVAL_MS ? 0 : (guint) (MIN_INTERVAL_MS - since_ms), on_pending, self);
}

static gboolean
on_fallback (gpointer data)
{
  IvLiveFollow *self = data;
  schedule (self);
  return G_SOURCE_CONTINUE;
}

void
iv_live_follow_stop (IvLiveFollow *self)
{
  g_return_if_fail (IV_IS_LIVE_FOLLOW (self));
  g_clear_handle_id (&self->pending, g_source_remove);
  g_clear_handle_id (&self->fallback, g_source_remove);
  g_clear_handle_id (&self->inotify_source, g_source_remove);
  /* closing the descriptor drops its watches */
  if (self->inotify_fd >= 0)
    close (self->inotify_fd);
  self->inotify_fd = -1;
  if (self->watches)
    g_hash_table_remove_all (self->watches);
  self->sweep = NULL;
}

void
iv_live_follow_poll (IvLiveFollow *self)
{
  g_return_if_fail (IV_IS_LIVE_FOLLOW (self));
  if (!self->sweep)
    return;
  g_clear_handle_id (&self->pending, g_source_remove);
  self->last_discover_us = 0;
  read_now (self);
}

static void
iv_live_follow_dispose (GObject *object)
{
  IvLiveFollow *self = IV_LIVE_FOLLOW (object);

  iv_live_follow_stop (self);
  g_clear_pointer (&self->watches, g_hash_table_unref);
  G_OBJECT_CLASS (iv_live_follow_parent_class)->dispose (object);
}

static void
iv_live_follow_class_init (IvLiveFollowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_live_follow_dispose;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
iv_live_follow_init (IvLiveFollow *self)
{
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->inotify_fd = -1;
}

IvLiveFollow *
iv_live_follow_new (IvSweep *sweep, gsize max_bytes)
{
  IvLiveFollow *self = g_object_new (IV_TYPE_LIVE_FOLLOW, NULL);

  self->sweep = sweep;
  self->max_bytes = max_bytes;
  self->last_discover_us = self->last_read_us = g_get_monotonic_time ();
#ifdef __linux__
  self->inotify_fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  if (self->inotify_fd >= 0)
    self->inotify_source = g_unix_fd_add (self->inotify_fd, G_IO_IN, on_inotify, self);
#endif
  watch_folders (self);
  set_fallback (self);
  return self;
}
