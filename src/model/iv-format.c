/* iv-format.c: docs/model.md §2.3 in code. One table holds each format's id, name, bytes
 * (block scales included) and width, so what the views print is what the model uses. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-format.h"

#include <string.h>

#include "iv-json-doc.h"

static const struct
{
  const char *id, *name;
  double bytes;
  int bits;
} formats[IV_N_FORMATS] = {
  [IV_FORMAT_BF16] = { "bf16", "BF16", 2, 16 },
  [IV_FORMAT_FP16] = { "fp16", "FP16", 2, 16 },
  [IV_FORMAT_FP8] = { "fp8", "FP8 E4M3", 1, 8 },
  [IV_FORMAT_FP8_E5M2] = { "fp8-e5m2", "FP8 E5M2", 1, 8 },
  [IV_FORMAT_INT8] = { "int8", "INT8", 1, 8 },
  /* a 16-bit scale and a 4-bit zero point for every 128 weights (AWQ, GPTQ) */
  [IV_FORMAT_INT4] = { "int4", "INT4 (AWQ/GPTQ)", 0.5 + 2.5 / 128, 4 },
  /* an FP8 E4M3 scale per 16 elements */
  [IV_FORMAT_NVFP4] = { "nvfp4", "NVFP4", 0.5 + 1.0 / 16, 4 },
  /* an E8M0 scale per 32 elements (OCP MX) */
  [IV_FORMAT_MXFP4] = { "mxfp4", "MXFP4", 0.5 + 1.0 / 32, 4 },
};

const char *
iv_format_id (IvFormat f)
{
  return f < IV_N_FORMATS ? formats[f].id : "?";
}

const char *
iv_format_name (IvFormat f)
{
  return f < IV_N_FORMATS ? formats[f].name : "?";
}

gboolean
iv_format_from_string (const char *text, IvFormat *out)
{
  for (int f = 0; text && f < IV_N_FORMATS; f++)
    if (g_ascii_strcasecmp (text, formats[f].id) == 0)
      {
        *out = (IvFormat) f;
        return TRUE;
      }
  /* the common spellings of the same formats */
  if (text
      && (g_ascii_strcasecmp (text, "fp8-e4m3") == 0 || g_ascii_strcasecmp (text, "e4m3") == 0))
    return *out = IV_FORMAT_FP8, TRUE;
  if (text && g_ascii_strcasecmp (text, "e5m2") == 0)
    return *out = IV_FORMAT_FP8_E5M2, TRUE;
  return FALSE;
}

double
iv_format_bytes (IvFormat f)
{
  return f < IV_N_FORMATS ? formats[f].bytes : 2;
}

int
iv_format_bits (IvFormat f)
{
  return f < IV_N_FORMATS ? formats[f].bits : 16;
}

gboolean
iv_format_weights_only (IvFormat f)
{
  return f == IV_FORMAT_INT4;
}

IvFormat
iv_format_compute (IvFormat weights, IvFormat activation)
{
  return iv_format_bits (weights) > iv_format_bits (activation) ? weights : activation;
}

/* The unit a format runs on, before the fallbacks: 0 P_c, 1 P_fp8, 2 P_int8, 3 P_fp4. */
static int
unit_of (IvFormat f)
{
  switch (f)
    {
    case IV_FORMAT_FP8:
    case IV_FORMAT_FP8_E5M2:
      return 1;
    case IV_FORMAT_INT8:
      return 2;
    case IV_FORMAT_NVFP4:
    case IV_FORMAT_MXFP4:
      return 3;
    case IV_FORMAT_INT4: /* weights only: never a compute format; BF16 if asked */
    case IV_FORMAT_BF16:
    case IV_FORMAT_FP16:
    case IV_N_FORMATS:
    default:
      return 0;
    }
}

/* The unit that computes @f on @hw once the fallbacks apply: FP4 without its unit runs on
 * FP8's, FP8 and INT8 without theirs on BF16's. */
static int
unit_used (const IvHardware *hw, IvFormat f)
{
  int u = unit_of (f);

  if (u == 3 && !(hw->P_fp4 > 0))
    u = 1;
  if (u == 1 && !(hw->P_fp8 > 0))
    u = 0;
  if (u == 2 && !(hw->P_int8 > 0))
    u = 0;
  return u;
}

double
iv_format_peak (const IvHardware *hw, IvFormat f)
{
  double p[4] = { hw->P_c, hw->P_fp8, hw->P_int8, hw->P_fp4 };
  return MAX (hw->P_c, p[unit_used (hw, f)]);
}

const char *
iv_format_peak_symbol (const IvHardware *hw, IvFormat f)
{
  static const char *const symbols[4] = { "P_c", "P_fp8", "P_int8", "P_fp4" };
  int u = unit_used (hw, f);
  double p[4] = { hw->P_c, hw->P_fp8, hw->P_int8, hw->P_fp4 };
  return p[u] >= hw->P_c ? symbols[u] : "P_c";
}

/* -------- quantization_config -------- */

static gboolean
refuse (GError **error, const char *source, const char *field, const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "%s: quantization_config.%s: %s (§2.3 knows fp8, awq, gptq, bitsandbytes, mxfp4, "
               "modelopt and compressed-tensors)",
               source, field, what);
  return FALSE;
}

/* A compressed-tensors quantization scheme ({"type": "float", "num_bits": 8}) as a format. */
static gboolean
scheme_format (JsonObject *scheme, IvFormat *out)
{
  const char *type = iv_json_string (scheme, "type");
  gint64 bits = 0;

  if (!type || !iv_json_int (scheme, "num_bits", &bits))
    return FALSE;
  if (g_str_equal (type, "float") && bits == 8)
    *out = IV_FORMAT_FP8;
  else if (g_str_equal (type, "float") && bits == 4)
    *out = IV_FORMAT_NVFP4;
  else if (g_str_equal (type, "int") && bits == 8)
    *out = IV_FORMAT_INT8;
  else if (g_str_equal (type, "int") && bits == 4)
    *out = IV_FORMAT_INT4;
  else
    return FALSE;
  return TRUE;
}

static gboolean
compressed_tensors (JsonObject *q, const char *source, IvFormat *w, IvFormat *a, GError **error)
{
  JsonObject *groups = iv_json_object (q, "config_groups");
  g_autoptr (GList) names = groups ? json_object_get_members (groups) : NULL;

  if (!names)
    return refuse (error, source, "config_groups", "no quantization group is given");
  /* every group names the same scheme in the checkpoints seen; the first one decides */
  {
    JsonObject *g = iv_json_object (groups, names->data);
    JsonObject *ws = g ? iv_json_object (g, "weights") : NULL;
    JsonObject *as = g ? iv_json_object (g, "input_activations") : NULL;
    if (!ws || !scheme_format (ws, w))
      return refuse (error, source, "config_groups.*.weights", "not float or int with 8 or 4 bits");
    if (as && !scheme_format (as, a))
      return refuse (error, source, "config_groups.*.input_activations",
                     "not float or int with 8 or 4 bits");
    if (as && *a == IV_FORMAT_INT4)
      return refuse (error, source, "config_groups.*.input_activations",
                     "INT4 is a weight-only format");
  }
  return TRUE;
}

gboolean
iv_format_from_quantization (JsonObject *q, const char *source, IvFormat *w, IvFormat *a,
                             GError **error)
{
  const char *method = iv_json_string (q, "quant_method");
  gint64 bits = 0;

  if (!method)
    return refuse (error, source, "quant_method", "missing");
  if (g_str_equal (method, "fp8") || g_str_equal (method, "fbgemm_fp8"))
    {
      const char *fmt = iv_json_string (q, "fmt");
      *w = *a = fmt && g_ascii_strcasecmp (fmt, "e5m2") == 0 ? IV_FORMAT_FP8_E5M2 : IV_FORMAT_FP8;
      return TRUE;
    }
  if (g_str_equal (method, "awq") || g_str_equal (method, "gptq"))
    {
      if (!iv_json_int (q, "bits", &bits) || (bits != 4 && bits != 8))
        return refuse (error, source, "bits", "must be 4 or 8 for awq and gptq");
      *w = bits == 4 ? IV_FORMAT_INT4 : IV_FORMAT_INT8;
      return TRUE;
    }
  if (g_str_equal (method, "bitsandbytes"))
    {
      gboolean four = FALSE, eight = FALSE;
      iv_json_bool (q, "load_in_4bit", &four);
      iv_json_bool (q, "load_in_8bit", &eight);
      if (!four && !eight)
        return refuse (error, source, "load_in_4bit", "neither load_in_4bit nor load_in_8bit");
      *w = four ? IV_FORMAT_INT4 : IV_FORMAT_INT8;
      return TRUE;
    }
  if (g_str_equal (method, "mxfp4"))
    {
      *w = IV_FORMAT_MXFP4;
      return TRUE;
    }
  if (g_str_equal (method, "modelopt"))
    {
      const char *algo = iv_json_string (q, "quant_algo");
      if (algo && g_ascii_strcasecmp (algo, "FP8") == 0)
        *w = *a = IV_FORMAT_FP8;
      else if (algo && g_ascii_strcasecmp (algo, "NVFP4") == 0)
        *w = *a = IV_FORMAT_NVFP4;
      else
        return refuse (error, source, "quant_algo", "must be FP8 or NVFP4 for modelopt");
      return TRUE;
    }
  if (g_str_equal (method, "compressed-tensors"))
    return compressed_tensors (q, source, w, a, error);
  {
    g_autofree char *what = g_strdup_printf ("“%s” is not a format Inferview knows", method);
    return refuse (error, source, "quant_method", what);
  }
}

gboolean
iv_format_from_model_name (const char *name, IvFormat *w, IvFormat *a)
{
  g_autofree char *low = name ? g_ascii_strdown (name, -1) : NULL;
  g_auto (GStrv) words = low ? g_strsplit_set (low, "-_./ ", -1) : NULL;

  for (guint i = 0; words && words[i]; i++)
    {
      const char *x = words[i];
      if (g_str_equal (x, "fp8") || g_str_equal (x, "w8a8fp8"))
        return *w = *a = IV_FORMAT_FP8, TRUE;
      if (g_str_equal (x, "awq") || g_str_equal (x, "gptq") || g_str_equal (x, "int4")
          || g_str_equal (x, "w4a16"))
        return *w = IV_FORMAT_INT4, TRUE;
      if (g_str_equal (x, "int8") || g_str_equal (x, "w8a8"))
        return *w = *a = IV_FORMAT_INT8, TRUE;
      if (g_str_equal (x, "nvfp4") || g_str_equal (x, "fp4"))
        return *w = *a = IV_FORMAT_NVFP4, TRUE;
      if (g_str_equal (x, "mxfp4"))
        return *w = IV_FORMAT_MXFP4, TRUE;
    }
  return FALSE;
}
