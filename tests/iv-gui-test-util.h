/* iv-gui-test-util.h: what the GUI tests share — a fresh window for each case, running
 * the main loop until something is true, waiting for loads and for a painted frame,
 * opening files, and saving what a window shows as a PNG. */
#pragma once

#include <gtk/gtk.h>

#include "iv-application.h"
#include "iv-window.h"

G_BEGIN_DECLS

/* Every key of the application's settings back to its default: the tests run on the
 * memory backend, where what one case changed (the window's size, the sidebar, the
 * export folder) would otherwise meet the next case. */
void iv_gui_reset_settings (void);
/* A new window of @app with nothing open, @width × @height. @shown: presented, with its
 * first frame painted and what that frame defers (the sidebar's presets, the Model
 * workspace) built; otherwise not yet presented. */
IvWindow *iv_gui_new_window (IvApplication *app, int width, int height, gboolean shown);
/* Destroys every toplevel still there (windows, dialogs, the shortcuts window) and lets
 * their teardown run, so the next case starts with none. */
void iv_gui_destroy_toplevels (void);

/* Runs the main loop until @done (@data) is true, for at most @seconds. */
gboolean iv_gui_wait_for (gboolean (*done) (gpointer), gpointer data, guint seconds);
/* Until no document of @window is loading, then until the loop is idle. */
void iv_gui_settle (IvWindow *window);
/* One frame laid out and painted, so every child has an allocation. */
void iv_gui_wait_for_paint (GtkWindow *window);
/* Opens the NULL-terminated paths in @window. */
void iv_gui_open_paths (IvWindow *window, const char *first, ...) G_GNUC_NULL_TERMINATED;
/* What @window (any toplevel) shows, rendered as its frame would be; NULL-safe @png
 * writes it. Returns the number of distinct colours in a sample of its pixels. */
guint iv_gui_snapshot (GtkWindow *window, const char *png);

/* The first descendant of @root (depth first, @root excluded) that is a @type, or NULL. */
GtkWidget *iv_gui_find_child (GtkWidget *root, GType type);
/* A visible label under @root whose text is shown cut short (ellipsized), or NULL. */
GtkLabel *iv_gui_find_ellipsized_label (GtkWidget *root);
/* The descendant of @root whose template or builder id is @id, or NULL. */
GtkWidget *iv_gui_find_by_id (GtkWidget *root, const char *id);
/* The first event controller that is a @type on @widget or else on its descendants
 * (depth first), or NULL. */
GtkEventController *iv_gui_find_controller (GtkWidget *widget, GType type);

G_END_DECLS
