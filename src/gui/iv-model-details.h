/* iv-model-details.h: the Model workspace's Details page (waste, hints, formulas,
 * glossary) for one evaluated configuration, updated in place as the sliders move. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_DETAILS (iv_model_details_get_type ())
G_DECLARE_FINAL_TYPE (IvModelDetails, iv_model_details, IV, MODEL_DETAILS, GtkWidget)

GtkWidget *iv_model_details_new (void);
/* Shows layer kind @kind of @result, whose waste and hints are made
 * (iv_result_ensure_hints). The rows still needed are updated in place (the same
 * widgets, new text); rows are added or removed only where the count changes. A stage's
 * formulas are made only while its row is expanded. */
void iv_model_details_set_result (IvModelDetails *self, const IvResult *result, guint kind);
/* How many results were set since the page was made: the view sets one a frame, however
 * many slider values came before it (tests). */
guint iv_model_details_get_updates (IvModelDetails *self);

G_END_DECLS
