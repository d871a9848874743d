/* iv-sidebar.h: the list of what is open, grouped into Runs, Traces and Model, then the
 * model presets by family (with a search entry) and the saved model configurations.
 * Signals: "document-activated", "close-requested", "preset-activated" (name) and
 * "saved-activated" (index). */
#pragma once

#include <gtk/gtk.h>

#include "iv-document.h"

G_BEGIN_DECLS

#define IV_TYPE_SIDEBAR (iv_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (IvSidebar, iv_sidebar, IV, SIDEBAR, GtkWidget)

void iv_sidebar_set_model (IvSidebar *self, GListModel *documents);
void iv_sidebar_select (IvSidebar *self, IvDocument *document);
const char *iv_sidebar_group_title (IvGroup group);
/* "Compare with …" for each other loaded trace, each activating win.compare-traces with
 * (@document's position, the other's); empty unless @document is a loaded trace. The
 * context menu of a trace's row (a right click). */
GMenuModel *iv_sidebar_compare_menu (IvSidebar *self, IvDocument *document);
/* The saved model configurations (IvSaved) listed under the presets. */
void iv_sidebar_set_saved (IvSidebar *self, GPtrArray *saved);
/* The preset list's search text (for tests and the search shortcut). */
void iv_sidebar_set_preset_filter (IvSidebar *self, const char *text);
/* Adds the model presets' rows, once (the window calls it after its first frame). */
void iv_sidebar_fill_presets (IvSidebar *self);
/* Presets currently shown by the filter. */
guint iv_sidebar_count_presets_shown (IvSidebar *self);

G_END_DECLS
