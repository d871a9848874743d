/* iv-gui-test-util.h: what the GUI tests share — running the main loop until something
 * is true, waiting for loads and for a painted frame, opening files, and saving what a
 * window shows as a PNG. */
#pragma once

#include <gtk/gtk.h>

#include "iv-window.h"

G_BEGIN_DECLS

/* Runs the main loop until @done (@data) is true, for at most @seconds. */
gboolean iv_gui_wait_for      (gboolean   (*done) (gpointer),
                               gpointer     data,
                               guint        seconds);
/* Until no document of @window is loading, then until the loop is idle. */
void     iv_gui_settle        (IvWindow    *window);
/* One frame laid out and painted, so every child has an allocation. */
void     iv_gui_wait_for_paint (IvWindow   *window);
/* Opens the NULL-terminated paths in @window. */
void     iv_gui_open_paths    (IvWindow    *window,
                               const char  *first,
                               ...) G_GNUC_NULL_TERMINATED;
/* What @window shows, rendered as its frame would be; NULL-safe @png writes it. Returns
 * the number of distinct colours in a sample of its pixels. */
guint    iv_gui_snapshot      (IvWindow    *window,
                               const char  *png);

G_END_DECLS
