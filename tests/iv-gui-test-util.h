/* iv-gui-test-util.h: what the GUI tests share — a fresh window for each case, running
 * the main loop until something is true, waiting for loads and for a painted frame,
 * opening files, and saving what a window shows as a PNG. */
#pragma once

#include <gtk/gtk.h>

#include "iv-application.h"
#include "iv-document.h"
#include "iv-window.h"

G_BEGIN_DECLS

/* One case of a GUI test program: its path, its test, and whether it starts from a window
 * not yet presented (the window opening is what it checks) rather than one shown and past
 * its first frame. */
typedef struct
{
  const char *path;
  void (*run) (void);
  gboolean unshown;
} IvGuiCase;

/* Runs @cases (@n_cases of them) as GLib tests, each from a new window with nothing open,
 * default settings, no saved model configurations and an empty folder of its own, so any
 * case passes alone or in any order. Returns g_test_run's result, or 77 (skipped) without
 * a display. */
int iv_gui_run_cases (int *argc, char ***argv, const IvGuiCase *cases, guint n_cases);
/* The application the cases run in. */
IvApplication *iv_gui_app (void);
/* The running case's window (NULL once the case said it closed it). */
IvWindow *iv_gui_window (void);
/* The running case closed its window itself: teardown does not wait for it. */
void iv_gui_forget_window (void);
/* The running case's scratch folder, removed after it. */
const char *iv_gui_tmpdir (void);
/* The path of @rel under the samples folder (IV_SAMPLES_DIR). */
char *iv_gui_sample (const char *rel);
/* The @i-th document of @window, a reference. */
IvDocument *iv_gui_doc_at (IvWindow *window, guint i);
/* The text of @window's last toast: its title parsed as the Pango markup it is in
 * libadwaita 1.2 (the toast's label does the same; a title that does not parse shows
 * nothing). */
char *iv_gui_last_toast_text (IvWindow *window);
/* Whether @widget (a GtkWidget) is mapped: for iv_gui_wait_for. */
gboolean iv_gui_is_mapped (gpointer widget);

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

/* The control a mnemonic label @label names, found under @root, or NULL. */
GtkWidget *iv_gui_control_labelled (GtkWidget *root, const char *label);
/* The first button under @root whose label starts with @prefix, or NULL. */
GtkButton *iv_gui_find_button_with_prefix (GtkWidget *root, const char *prefix);
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
