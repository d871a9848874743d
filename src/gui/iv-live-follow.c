/* iv-live-follow.c: following a sweep as it is written (see the header). A monitor event
 * only asks for a read; reads are at least 500 ms apart, so a benchmark writing thousands
 * of lines a second costs two small reads a second, and each read takes at most a few
 * megabytes per file so that a burst never holds a frame. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-live-follow.h"

/* At most two reads a second. */
#define MIN_INTERVAL_MS 500
/* Without monitor events (a network file system): a read this often while a run is
 * live, and new runs looked for this often when none is. */
#define FALLBACK_LIVE_MS 2000
#define FALLBACK_IDLE_MS 10000
/* New run folders are looked for at most this often (a walk of the sweep's folders). */
#define DISCOVER_MS 2000
/* Bytes read per file and read: ~10 ms of parsing (a line with no end yet is searched
 * this far a read, from where the last search stopped, never read again). */
#define MAX_BYTES_PER_READ ((gsize) 8 << 20)

struct _IvLiveFollow
{
  GObject parent_instance;

  IvSweep *sweep;
  GHashTable *monitors; /* folder → GFileMonitor */
  guint pending;        /* a read scheduled by a monitor event */
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

static void
on_monitor_changed (GFileMonitor *monitor, GFile *file, GFile *other, GFileMonitorEvent event,
                    IvLiveFollow *self)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED)
    return;
  schedule (self);
}

static void
watch (IvLiveFollow *self, const char *dir)
{
  g_autoptr (GFile) file = NULL;
  GFileMonitor *monitor;

  if (g_hash_table_contains (self->monitors, dir) || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return;
  file = g_file_new_for_path (dir);
  /* where monitors are not available, the slow timer reads instead */
  monitor = g_file_monitor_directory (file, G_FILE_MONITOR_NONE, NULL, NULL);
  if (!monitor)
    return;
  g_signal_connect (monitor, "changed", G_CALLBACK (on_monitor_changed), self);
  g_hash_table_insert (self->monitors, g_strdup (dir), monitor);
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
        {
          /* a finished run's own folder says nothing new */
          GFileMonitor *m = g_hash_table_lookup (self->monitors, r->path);
          if (m)
            {
              g_signal_handlers_disconnect_by_data (m, self);
              g_hash_table_remove (self->monitors, r->path);
            }
        }
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
  gboolean discover = now - self->last_discover_us >= DISCOVER_MS * 1000;

  self->last_read_us = now;
  if (discover)
    self->last_discover_us = now;
  iv_sweep_follow (self->sweep, MAX_BYTES_PER_READ, discover, &out);
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
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0, out.new_records, out.new_runs,
                   out.finished_runs);
  /* a file that had more than one read takes is read on at the next slot */
  if (out.new_records || out.new_samples)
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
  if (self->monitors)
    {
      GHashTableIter iter;
      gpointer monitor;
      g_hash_table_iter_init (&iter, self->monitors);
      while (g_hash_table_iter_next (&iter, NULL, &monitor))
        g_signal_handlers_disconnect_by_data (monitor, self);
      g_hash_table_remove_all (self->monitors);
    }
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
  g_clear_pointer (&self->monitors, g_hash_table_unref);
  G_OBJECT_CLASS (iv_live_follow_parent_class)->dispose (object);
}

static void
iv_live_follow_class_init (IvLiveFollowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_live_follow_dispose;
  signals[SIGNAL_CHANGED]
      = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                      G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
iv_live_follow_init (IvLiveFollow *self)
{
  self->monitors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

IvLiveFollow *
iv_live_follow_new (IvSweep *sweep)
{
  IvLiveFollow *self = g_object_new (IV_TYPE_LIVE_FOLLOW, NULL);

  self->sweep = sweep;
  self->last_discover_us = self->last_read_us = g_get_monotonic_time ();
  watch_folders (self);
  set_fallback (self);
  return self;
}
