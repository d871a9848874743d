/* iv-format.h: number formats (docs/model.md §2.3) — the bytes of an element, scales
 * included, and which unit of a PE computes a matrix stage in a format; and a Hugging Face
 * `quantization_config` read as the formats it names. */
#pragma once

#include <json-glib/json-glib.h>

#include "iv-hardware.h"

G_BEGIN_DECLS

typedef enum
{
  IV_FORMAT_BF16,
  IV_FORMAT_FP16,
  IV_FORMAT_FP8,      /* E4M3 */
  IV_FORMAT_FP8_E5M2, /* E5M2 */
  IV_FORMAT_INT8,
  IV_FORMAT_INT4, /* AWQ/GPTQ, groups of 128: weights only */
  IV_FORMAT_NVFP4,
  IV_FORMAT_MXFP4,
  IV_N_FORMATS
} IvFormat;

/* "bf16", "fp8", … (the ids of §2.3) and "BF16", "FP8 E4M3", … for people. */
const char *iv_format_id (IvFormat format);
const char *iv_format_name (IvFormat format);
gboolean iv_format_from_string (const char *text, IvFormat *format);
/* Bytes per element, block scales included. */
double iv_format_bytes (IvFormat format);
/* 16, 8 or 4: the nominal bits, which order formats by width. */
int iv_format_bits (IvFormat format);
gboolean iv_format_weights_only (IvFormat format);
/* The format a matrix stage computes in: the wider of its two operands', at equal width
 * @activation's. */
IvFormat iv_format_compute (IvFormat weights, IvFormat activation);
/* The peak FLOP/s of one PE of @hw computing in @format, before η_c: its own unit, else
 * the next wider one it has, never below P_c. */
double iv_format_peak (const IvHardware *hw, IvFormat format);
/* "fp8 (P_fp8)", which peak a format uses on @hw, for formulas: "P_c", "P_fp8", … */
const char *iv_format_peak_symbol (const IvHardware *hw, IvFormat format);

/* A `quantization_config` object (@q) as the weight and activation formats it names;
 * @weights and @activation hold the model's formats on entry (what is unchanged stays).
 * FALSE with @error naming @source and the field when it names nothing §2.3 knows. */
gboolean iv_format_from_quantization (JsonObject *q, const char *source, IvFormat *weights,
                                      IvFormat *activation, GError **error);

/* A format word in a model's name ("…-FP8", "…-AWQ", "…-W4A16", "…-NVFP4"): TRUE with the
 * formats it stands for (§9), FALSE when the name carries none. */
gboolean iv_format_from_model_name (const char *name, IvFormat *weights, IvFormat *activation);

G_END_DECLS
