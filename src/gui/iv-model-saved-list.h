/* iv-model-saved-list.h: the Model workspace's saved configurations: Save, the list, the
 * file they live in (read on a worker thread when first needed). */
#pragma once

#include <gtk/gtk.h>

#include "iv-saved.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_SAVED_LIST (iv_model_saved_list_get_type ())
G_DECLARE_FINAL_TYPE (IvModelSavedList, iv_model_saved_list, IV, MODEL_SAVED_LIST, GtkBox)

/* Save pressed with the entry's @name (NULL when empty); FALSE with @error to show it. */
typedef gboolean (*IvModelSavedSave) (const char *name, gpointer user_data, GError **error);
/* Row @index activated: set the workspace from it; FALSE with @error to show it. */
typedef gboolean (*IvModelSavedLoad) (guint index, gpointer user_data, GError **error);

void iv_model_saved_list_set_handlers (IvModelSavedList *self, IvModelSavedSave save,
                                       IvModelSavedLoad load, gpointer user_data);
/* The list, read first if it is not yet (waiting for the read under way, if one is). */
GPtrArray *iv_model_saved_list_get (IvModelSavedList *self);
/* The list if it is read, else NULL — and the read starts; never waits. */
GPtrArray *iv_model_saved_list_peek (IvModelSavedList *self);
gboolean iv_model_saved_list_is_loaded (IvModelSavedList *self);
/* Appends @sv (taken) and writes the file; FALSE with @error (and the list as it was)
 * when it cannot be written. */
gboolean iv_model_saved_list_add (IvModelSavedList *self, IvSaved *sv, GError **error);
/* @message under the list (NULL: none). */
void iv_model_saved_list_show_error (IvModelSavedList *self, const char *message);

G_END_DECLS
