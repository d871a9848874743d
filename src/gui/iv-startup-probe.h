/* iv-startup-probe.h: reports a window's first painted frame, for bench/bench-startup. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* With INFERVIEW_STARTUP_PROBE set, prints "first-frame US" on stdout once @window's
 * frame clock has painted its first frame (US: g_get_monotonic_time, CLOCK_MONOTONIC,
 * comparable across processes); with the value "quit" the default application then
 * quits (or, without one, the process exits). Does nothing otherwise. */
void iv_startup_probe_watch (GtkWindow *window);

G_END_DECLS
