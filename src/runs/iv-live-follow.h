/* iv-live-follow.h: keeps a sweep up to date while AIPerf writes it — inotify watches on
 * its folders wake it, a slow timer stands in where they say nothing (network file
 * systems, systems without inotify), and it reads at most twice a second. The one
 * follower of a live sweep: the window's document and `inferview plot --watch` both use
 * it. No GTK, and no thread: main thread (the thread whose main context was the default
 * when it was made) only. */
#pragma once

#include <gio/gio.h>

#include "iv-sweep.h"

G_BEGIN_DECLS

#define IV_TYPE_LIVE_FOLLOW (iv_live_follow_get_type ())
G_DECLARE_FINAL_TYPE (IvLiveFollow, iv_live_follow, IV, LIVE_FOLLOW, GObject)

/* Follows @sweep (not owned: it must outlive the follower, or iv_live_follow_stop() be
 * called first), reading at most @max_bytes of each file a read (0: everything there is,
 * in bounded pieces); a file with more than that is read on at the next slot.
 *
 * "changed" (const IvSweepFollow *what) is emitted after each read that found something:
 * new records or samples, new runs, runs finished, runs no longer followed
 * (what->stopped_why) or found incomplete (what->incomplete_why); @what and its sentences
 * are valid during the emission only. "stopped" (const char *why) comes before it when a
 * run could no longer be followed (its records file became a FIFO or a device, its folder
 * was removed or renamed): the sentence names the run, the time and the reason. */
IvLiveFollow *iv_live_follow_new (IvSweep *sweep, gsize max_bytes);
/* Reads now, whatever the rate limit, and looks for new runs (tests, a user's "refresh",
 * and `plot --watch`'s last look before it ends). */
void iv_live_follow_poll (IvLiveFollow *self);
void iv_live_follow_stop (IvLiveFollow *self);

G_END_DECLS
