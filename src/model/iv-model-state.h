/* iv-model-state.h: the Model workspace's configuration as one object with properties —
 * what is modelled (model, hardware), the step (mode, B, T_q, context), the parallelism
 * (TP, CP, their placements, the ring) and the datatypes, plus the layer kind shown.
 * Controls bind to it, the view re-evaluates on "changed", saving serialises it and
 * loading sets it. GLib only: testable and usable without a display. */
#pragma once

#include "iv-model.h"
#include "iv-saved.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_STATE (iv_model_state_get_type ())
G_DECLARE_FINAL_TYPE (IvModelState, iv_model_state, IV, MODEL_STATE, GObject)

/* Properties: "model" and "hardware" (pointers, not owned: the caller keeps them alive),
 * "mode", "batch", "tq", "context", "tp", "cp", "tp-place", "cp-place", "ring",
 * "weight-bytes", "act-bytes", "kv-bytes", "partial-bytes", "layer-kind".
 * Each notifies only when it changes; "changed" follows every change of what is evaluated
 * (all but "layer-kind") once, and once for all of them when several are set together
 * (iv_model_state_set_config). */
IvModelState *iv_model_state_new (void);

/* What the Model workspace opens on and what `inferview model` evaluates for an option
 * not given: one definition for both, so that the window's figure and the command line's
 * agree. The model and hardware are preset names. */
#define IV_MODEL_STATE_DEFAULT_MODEL "Llama-3.1-8B"
#define IV_MODEL_STATE_DEFAULT_HARDWARE "ring4"
void iv_model_state_default_config (IvConfig *config);

const IvModel *iv_model_state_get_model (IvModelState *self);
void iv_model_state_set_model (IvModelState *self, const IvModel *model);
const IvHardware *iv_model_state_get_hardware (IvModelState *self);
void iv_model_state_set_hardware (IvModelState *self, const IvHardware *hardware);
void iv_model_state_get_config (IvModelState *self, IvConfig *config);
void iv_model_state_set_config (IvModelState *self, const IvConfig *config);
guint iv_model_state_get_layer_kind (IvModelState *self);

/* A saved configuration of the current state named @name (the model's config.json path
 * and the edited SIP travel with it: @hf_config may be NULL; @hardware_is_preset FALSE
 * copies the hardware into it). */
IvSaved *iv_model_state_to_saved (IvModelState *self, const char *name, const char *hf_config,
                                  gboolean hardware_is_preset);

G_END_DECLS
