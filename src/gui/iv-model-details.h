/* iv-model-details.h: the Model workspace's Details page (waste, hints, formulas,
 * glossary) for one evaluated configuration. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model.h"

G_BEGIN_DECLS

GtkWidget *iv_model_details_new (const IvResult *result, guint kind);

G_END_DECLS
