/* iv-model-stages.h: the Model workspace's per-stage table on screen: sortable columns,
 * the selected stage's formula with symbols and numbers, Copy as CSV. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_STAGES (iv_model_stages_get_type ())
G_DECLARE_FINAL_TYPE (IvModelStages, iv_model_stages, IV, MODEL_STAGES, GtkWidget)

GtkWidget *iv_model_stages_new (void);
void iv_model_stages_set_result (IvModelStages *self, const IvResult *result, guint kind);
/* Every stage of every kind of the shown result as CSV (what Copy as CSV copies). */
const char *iv_model_stages_get_csv (IvModelStages *self);
GtkColumnView *iv_model_stages_get_column_view (IvModelStages *self);

G_END_DECLS
