/* iv-predict.c: §9 evaluated with the model itself — one prefill step of the prompt
 * for TTFT, one decode step of the whole batch at the mean context for ITL. Groups span
 * GPUs (cubes); CP is 1 (AIPerf runs do not report it). */
#define G_LOG_DOMAIN "iv-model"

#include "iv-predict.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "iv-preset.h"

static const IvModel *
find_ci (const char *name, gboolean by_hf_id)
{
  GPtrArray *p = iv_presets_get ();

  for (guint i = 0; name && i < p->len; i++)
    {
      const IvModel *m = p->pdata[i];
      const char *key = by_hf_id ? m->hf_id : m->name;
      if (key && g_ascii_strcasecmp (key, name) == 0)
        return m;
    }
  return NULL;
}

/* A model name as its family and size: lower case, without the organisation ("meta-llama/"),
 * a leading "meta-" and the variant words anywhere in it (instruct, chat, it, base, hf, fp8,
 * awq): "meta-llama/Meta-Llama-3-8B-Instruct" and "Llama-2-7b-chat-hf" are "llama-3-8b" and
 * "llama-2-7b", as the presets are. */
static char *
model_key (const char *name)
{
  static const char *const variants[]
      = { "instruct", "chat", "it",    "base", "hf",    "fp8",   "awq", "gptq",
          "int4",     "int8", "w4a16", "w8a8", "nvfp4", "mxfp4", "fp4", NULL };
  const char *last = strrchr (name, '/') ? strrchr (name, '/') + 1 : name;
  g_autofree char *low = g_ascii_strdown (last, -1);
  g_auto (GStrv) words = g_strsplit (low, "-", -1);
  GString *key = g_string_new (NULL);

  for (guint i = 0; words[i]; i++)
    {
      if (g_strv_contains (variants, words[i]) || (i == 0 && g_str_equal (words[i], "meta")))
        continue;
      g_string_append_printf (key, "%s%s", key->len ? "-" : "", words[i]);
    }
  return g_string_free (key, FALSE);
}

/* The preset in the formats a run's name gives (§9): one copy per preset and formats,
 * made on first use and kept for the process like the presets themselves, under a lock
 * (runs are loaded on worker threads). */
static const IvModel *
in_formats (const IvModel *preset, IvFormat w, IvFormat a)
{
  static GMutex lock;
  static GHashTable *copies; /* "name\nw\na" → IvModel *, never freed */
  g_autofree char *key = NULL;
  IvModel *m;

  if (w == preset->fmt_w && a == preset->fmt_a)
    return preset;
  key = g_strdup_printf ("%s\n%d\n%d", preset->name, w, a);
  g_mutex_lock (&lock);
  if (!copies)
    copies = g_hash_table_new (g_str_hash, g_str_equal);
  if (!(m = g_hash_table_lookup (copies, key)))
    {
      m = iv_model_copy (preset);
      m->fmt_w = w, m->fmt_a = a;
      g_hash_table_insert (copies, g_steal_pointer (&key), m);
    }
  g_mutex_unlock (&lock);
  return m;
}

static const IvModel *match_preset (const char *name);

const IvModel *
iv_predict_match_model (const char *name)
{
  const IvModel *m = match_preset (name);
  IvFormat w, a;

  if (!m)
    return NULL;
  w = m->fmt_w, a = m->fmt_a;
  return iv_format_from_model_name (name, &w, &a) ? in_formats (m, w, a) : m;
}

static const IvModel *
match_preset (const char *name)
{
  static const char *const suffixes[]
      = { "-Instruct", "-Chat", "-it", "-Base", "-FP8", "-AWQ", "-GPTQ", "-NVFP4" };
  const IvModel *m;
  const char *last;

  if (!name || !*name)
    return NULL;
  if ((m = find_ci (name, TRUE)))
    return m;
  last = strrchr (name, '/') ? strrchr (name, '/') + 1 : name;
  if ((m = find_ci (last, FALSE)))
    return m;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (last, suffixes[i]) && strlen (last) > strlen (suffixes[i]))
      {
        g_autofree char *base = g_strndup (last, strlen (last) - strlen (suffixes[i]));
        if ((m = find_ci (base, FALSE)))
          return m;
      }
  {
    /* then by family and size, whatever the vendor's spelling */
    g_autofree char *key = model_key (name);
    GPtrArray *p = iv_presets_get ();
    for (guint i = 0; *key && i < p->len; i++)
      {
        const IvModel *preset = p->pdata[i];
        g_autofree char *by_name = model_key (preset->name);
        g_autofree char *by_id = preset->hf_id ? model_key (preset->hf_id) : NULL;
        if (g_str_equal (key, by_name) || g_strcmp0 (key, by_id) == 0)
          return preset;
      }
  }
  return NULL;
}

static gboolean
step (const IvModel *model, const IvHardware *hw, const IvConfig *c, double *seconds,
      GError **error)
{
  g_autofree IvResult *r = g_new0 (IvResult, 1);

  if (!iv_model_evaluate_plain (model, hw, c, r))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", r->error);
      return FALSE;
    }
  *seconds = r->step_s;
  return TRUE;
}

gboolean
iv_predict (const IvModel *model, const IvHardware *hw, gint64 tp, double C, double isl, double osl,
            IvPrediction *out, GError **error)
{
  IvConfig c;
  gint64 gpus = hw->X * hw->Y;

  memset (out, 0, sizeof *out);
  out->concurrency = C, out->isl = isl, out->osl = osl;
  if (!(C >= 1) || !(isl >= 1) || !(osl >= 1) || !isfinite (C + isl + osl))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "a prediction needs a concurrency, ISL and OSL of at least 1 (have %g, %g, %g)",
                   C, isl, osl);
      return FALSE;
    }
  iv_config_init (&c);
  c.place_tp = c.place_cp = c.place_ep = IV_PLACE_CUBE;
  c.c = 1;
  /* the model's formats (a quantized config.json, or a format word in the run's name) */
  iv_config_set_weight_format (&c, model->fmt_w);
  iv_config_set_act_format (&c, model->fmt_a);
  /* memory at the run's peak: C sequences of ISL + OSL tokens */
  c.mode = IV_MODE_DECODE, c.B = (gint64) ceil (C), c.T = 1, c.P = (gint64) llround (isl + osl) - 1;
  if (tp > 0)
    {
      c.t = tp;
      out->memory_bytes = iv_model_memory_per_pe (model, &c, NULL, NULL);
      out->fits = out->memory_bytes <= iv_config_usable_bytes (&c, hw);
    }
  else
    {
      for (c.t = 1; c.t <= gpus; c.t++)
        {
          out->memory_bytes = iv_model_memory_per_pe (model, &c, NULL, NULL);
          if ((out->fits = out->memory_bytes <= iv_config_usable_bytes (&c, hw)))
            break;
        }
      if (!out->fits)
        {
          out->tp = gpus;
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s does not fit on %s even with TP=%" G_GINT64_FORMAT
                       " at concurrency %g and %g tokens",
                       model->name, hw->name, gpus, C, isl + osl);
          return FALSE;
        }
    }
  out->tp = c.t;
  /* TTFT: one prefill of the prompt alone */
  c.mode = IV_MODE_PREFILL, c.B = 1, c.T = (gint64) llround (isl), c.P = 0;
  if (!step (model, hw, &c, &out->ttft_s, error))
    return FALSE;
  /* ITL: one decode step of all C sequences at the mean context */
  c.mode = IV_MODE_DECODE, c.B = (gint64) llround (C), c.T = 1,
  c.P = (gint64) llround (isl + osl / 2);
  if (!step (model, hw, &c, &out->itl_s, error))
    return FALSE;
  out->latency_s = out->ttft_s + (osl - 1) * out->itl_s;
  out->throughput = C * osl / out->latency_s;
  out->throughput_per_gpu = out->throughput / (double) (c.t * c.c);
  return TRUE;
}

double
iv_predict_efficiency (double predicted, double measured, gboolean is_time)
{
  if (!(predicted > 0) || !(measured > 0) || !isfinite (predicted) || !isfinite (measured))
    return NAN;
  return is_time ? predicted / measured : measured / predicted;
}
