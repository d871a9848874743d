/* iv-model-result-bar.h: the Model workspace's headline figures of the last result, and
 * why they are not current when they are not. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_RESULT_BAR (iv_model_result_bar_get_type ())
G_DECLARE_FINAL_TYPE (IvModelResultBar, iv_model_result_bar, IV, MODEL_RESULT_BAR, GtkBox)

/* Shows @r's step, throughput, memory verdict and idle PEs. */
void iv_model_result_bar_show (IvModelResultBar *self, const IvResult *r);
/* @error (or NULL): why the settings do not evaluate; the figures shown dim while there is
 * one. The bar shows once there is a result or a reason. */
void iv_model_result_bar_set_stale (IvModelResultBar *self, gboolean has_result, const char *error);

G_END_DECLS
