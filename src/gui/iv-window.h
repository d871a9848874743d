/* iv-window.h: the main window: header bar, sidebar of what is open, workspaces. */
#pragma once

#include <adwaita.h>

#include "iv-document.h"

G_BEGIN_DECLS

#define IV_TYPE_WINDOW (iv_window_get_type ())
G_DECLARE_FINAL_TYPE (IvWindow, iv_window, IV, WINDOW, AdwApplicationWindow)

IvWindow *iv_window_new (AdwApplication *application);
void iv_window_open (IvWindow *self, GFile **files, int n_files);
GListModel *iv_window_get_documents (IvWindow *self);
IvDocument *iv_window_get_selected (IvWindow *self);
void iv_window_select (IvWindow *self, IvDocument *document);
void iv_window_close_document (IvWindow *self, IvDocument *document);
/* Shows @document (loaded) where @old was, selected if @old was, and lets @old go (a
 * distributed job put on another clock). FALSE when @old is not open. */
gboolean iv_window_replace_document (IvWindow *self, IvDocument *old, IvDocument *document);
/* Whether files opened together are still being looked at (their distributedInfo read, on
 * a worker) before they become documents. */
gboolean iv_window_is_opening (IvWindow *self);
void iv_window_toast (IvWindow *self, const char *message);

G_END_DECLS
