/* iv-model-controls.h: the Model workspace's controls, bound to an IvModelState. */
#pragma once

#include <gtk/gtk.h>

#include "iv-hardware-editor.h"
#include "iv-model-state.h"
#include "iv-model.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_CONTROLS (iv_model_controls_get_type ())
G_DECLARE_FINAL_TYPE (IvModelControls, iv_model_controls, IV, MODEL_CONTROLS, GtkGrid)

/* Binds every control to @state's property both ways (@state outlives the bindings' use:
 * the view drops it first). */
void iv_model_controls_bind (IvModelControls *self, IvModelState *state);
/* Adds @model (kept by the caller) to the model choices. */
void iv_model_controls_add_model (IvModelControls *self, const IvModel *model);
/* The model among the choices named @name, or NULL. */
const IvModel *iv_model_controls_find_model (IvModelControls *self, const char *name);
/* The hardware preset chosen, or NULL. */
const IvHardware *iv_model_controls_get_preset (IvModelControls *self);
/* Shows the preset @hw was made from as chosen, without "preset-selected". */
void iv_model_controls_show_preset_of (IvModelControls *self, const IvHardware *hw);
IvHardwareEditor *iv_model_controls_get_editor (IvModelControls *self);
/* The TP and CP sliders cover what @hw holds: up to all of its PEs. */
void iv_model_controls_set_hardware (IvModelControls *self, const IvHardware *hw);
/* What depends on the configuration: the ring variant only in prefill with CP > 1. */
void iv_model_controls_set_config (IvModelControls *self, const IvConfig *c);
/* Why the settings do not evaluate, under the parallelism controls; NULL hides it. */
void iv_model_controls_set_error (IvModelControls *self, const char *error);
/* The layer kinds of @r (dense, moe, local, global…), the selection kept when the kinds
 * stay the same, else the most numerous chosen. */
void iv_model_controls_set_kinds (IvModelControls *self, const IvResult *r);

G_END_DECLS
