/* iv-preset.h: a transformer model's architecture (from a preset or a Hugging Face
 * config.json) and its parameter counts. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "iv-format.h"

G_BEGIN_DECLS

typedef enum
{
  IV_ATTENTION_GQA, /* MHA when H == Hkv */
  IV_ATTENTION_MLA,
} IvAttention;

typedef enum
{
  IV_WINDOW_NONE,
  IV_WINDOW_ALL,         /* every layer attends to the last W positions */
  IV_WINDOW_ALTERNATING, /* even layers local (window), odd layers global (Gemma 2) */
} IvWindowKind;

typedef struct
{
  char *name;
  char *hf_id;
  char *family;
  char *source;
  char *notes;
  gint64 d, n_layers, H, Hkv, dh, F, V;
  IvAttention attention;
  gint64 r_q, r_kv, d_n, d_r, d_v; /* MLA; r_q = 0: W_Q applied directly */
  gint64 E, k, E_s, F_e, F_s, n_dense;
  IvWindowKind window_kind;
  gint64 window;
  gboolean tied;
  gboolean qkv_bias;
  gboolean qk_norm;
  gint64 norms_per_layer;             /* RMSNorm vectors of size d per layer (2, Gemma 2: 4) */
  double params_total, params_active; /* computed from the architecture */
  double published_total, published_active; /* from the source, for checks; 0 if unknown */
  IvFormat fmt_w, fmt_a; /* the checkpoint's formats (§2.3): BF16 unless quantized */
} IvModel;

IvModel *iv_model_copy (const IvModel *model);
void iv_model_free (IvModel *model);
void iv_model_count_params (IvModel *model);
gint64 iv_model_value_head_dim (const IvModel *model);

/* The bundled presets (data/presets/model-presets.tsv compiled into the resources). */
GPtrArray *iv_presets_get (void);
const IvModel *iv_presets_find (const char *name);
GPtrArray *iv_presets_parse_tsv (const char *text, const char *source_name, GError **error);

/* Hugging Face config.json import. */
IvModel *iv_model_from_hf_config (const char *path, GError **error);
IvModel *iv_model_from_hf_json (const char *json, const char *name, GError **error);
IvModel *iv_model_from_hf_node (JsonNode *root, const char *name, GError **error);
/* The rules a model's shape must follow (heads ≥ 1, KV heads divide heads, experts per
 * token ≤ experts, every size below a sane maximum); the error names the field (by its
 * Hugging Face name) and the rule. */
gboolean iv_model_check_shape (const IvModel *model, const char *source, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvModel, iv_model_free)

G_END_DECLS
