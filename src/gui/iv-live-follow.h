/* iv-live-follow.h: keeps a sweep up to date while AIPerf writes it — file monitors on
 * its folders wake it, a slow timer stands in where monitors say nothing (network file
 * systems), and it reads at most twice a second. Main thread only. */
#pragma once

#include <gio/gio.h>

#include "iv-sweep.h"

G_BEGIN_DECLS

#define IV_TYPE_LIVE_FOLLOW (iv_live_follow_get_type ())
G_DECLARE_FINAL_TYPE (IvLiveFollow, iv_live_follow, IV, LIVE_FOLLOW, GObject)

/* Follows @sweep (not owned: it must outlive the follower, or iv_live_follow_stop() be
 * called first). "changed" (guint new_records, guint new_runs, guint finished_runs) is
 * emitted after each read that found something or stopped following a run; "stopped"
 * (const char *why) before it when a run could no longer be followed (its records file
 * became a FIFO or a device, its folder was removed or renamed): the sentence names the
 * run, the time and the reason. */
IvLiveFollow *iv_live_follow_new (IvSweep *sweep);
/* Reads now, whatever the rate limit (tests, and a user's "refresh"). */
void iv_live_follow_poll (IvLiveFollow *self);
void iv_live_follow_stop (IvLiveFollow *self);

G_END_DECLS
