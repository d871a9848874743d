/* iv-model-view.h: the Model workspace's live view — controls on the left, the model's
 * figures on the right, recomputed on every change. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model-state.h"

#include "iv-model.h"
#include "iv-render.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_VIEW (iv_model_view_get_type ())
G_DECLARE_FINAL_TYPE (IvModelView, iv_model_view, IV, MODEL_VIEW, GtkWidget)

GtkWidget *iv_model_view_new (void);
/* Adds an imported model (a Hugging Face config.json) to the choices and selects it. */
gboolean iv_model_view_add_hf_config (IvModelView *self, const char *path, GError **error);
/* The last configuration that evaluated; NULL before the first one. Its waste and hints
 * are made only while Details shows them (has_hints says whether they are). */
const IvResult *iv_model_view_get_result (IvModelView *self);
/* The figure on screen, for Export. */
const IvFigure *iv_model_view_get_figure (IvModelView *self);
/* The constraint that the current controls break, or NULL when they evaluate. */
const char *iv_model_view_get_error (IvModelView *self);
/* Saves the current configuration under @name (NULL: the next configN) and persists the
 * list; FALSE with @error when it does not evaluate, the name is taken or the file
 * cannot be written (then nothing changes). */
gboolean iv_model_view_save (IvModelView *self, const char *name, GError **error);
/* The saved configurations; read from their file first if they are not yet (waiting for
 * the read under way, if one is). */
GPtrArray *iv_model_view_get_saved (IvModelView *self);
/* The saved configurations if they are read, else NULL — and the read starts, on a
 * worker thread; "saved-changed" says when they are in. Never waits. */
GPtrArray *iv_model_view_peek_saved (IvModelView *self);
/* Sets every control from saved configuration @index. */
gboolean iv_model_view_load_saved (IvModelView *self, guint index, GError **error);
/* Selects the model named @name (a preset or an imported one); FALSE if none is. */
gboolean iv_model_view_select_model (IvModelView *self, const char *name);
/* The comparison of the saved configurations as CSV, or NULL when none evaluates. */
char *iv_model_view_get_compare_csv (IvModelView *self);

/* The configuration the controls are bound to (owned by the view). */
IvModelState *iv_model_view_get_state (IvModelView *self);
/* The bar of the result's headline figures above the tabs. */
GtkWidget *iv_model_view_get_result_bar (IvModelView *self);

G_END_DECLS
