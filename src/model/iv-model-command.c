/* iv-model-command.c: a configuration as `inferview model` options. Every option is
 * written, defaults included, so that the line means the same thing if the defaults ever
 * change; numbers are written in the shortest form that reads back to the same double. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-model-command.h"

#include <string.h>

#include "iv-format.h"
#include "iv-model-state.h"

static void
add_word (GString *s, const char *word)
{
  g_autofree char *quoted = g_shell_quote (word);

  g_string_append_c (s, ' ');
  /* a word with nothing the shell reads specially stays bare, as a person would type it */
  if (*word
      && strspn (word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,+/=:")
             == strlen (word))
    g_string_append (s, word);
  else
    g_string_append (s, quoted);
}

static void
add_option (GString *s, const char *option, const char *value)
{
  add_word (s, option);
  add_word (s, value);
}

static void
add_int (GString *s, const char *option, gint64 value)
{
  char text[32];

  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT, value);
  add_option (s, option, text);
}

static void
add_double (GString *s, const char *option, double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  add_option (s, option, g_ascii_dtostr (text, sizeof text, value));
}

/* The preset an (edited) SIP started from: the longest preset name its name begins with
 * ("ring4 (edited)" → ring4); the default preset when none does (a file's hardware). */
static const IvHardware *
base_preset (const IvHardware *hw)
{
  GPtrArray *presets = iv_hardware_presets ();
  const IvHardware *best = NULL;

  for (guint i = 0; i < presets->len; i++)
    {
      const IvHardware *p = presets->pdata[i];
      if (g_str_has_prefix (hw->name, p->name) && (!best || strlen (p->name) > strlen (best->name)))
        best = p;
    }
  return best ? best : iv_hardware_find (IV_MODEL_STATE_DEFAULT_HARDWARE);
}

static void
add_hardware (GString *s, const IvHardware *hw)
{
  const IvHardware *base = base_preset (hw);
  const struct
  {
    const char *option;
    double value, base;
  } numbers[] = {
    { "--pe-flops", hw->P_c, base->P_c },
    { "--pe-vector-flops", hw->P_v, base->P_v },
    { "--pe-mem-bw", hw->BW, base->BW },
    { "--pe-mem-capacity", hw->M_pe, base->M_pe },
    { "--pe-link-bw", hw->B_pe, base->B_pe },
    { "--pe-link-latency", hw->a_pe, base->a_pe },
    { "--cube-link-bw", hw->B_cu, base->B_cu },
    { "--cube-link-latency", hw->a_cu, base->a_cu },
    { "--eta-compute", hw->eta_c, base->eta_c },
    { "--eta-memory", hw->eta_m, base->eta_m },
    { "--eta-comm", hw->eta_n, base->eta_n },
    { "--pe-flops-fp8", hw->P_fp8, base->P_fp8 },
    { "--pe-flops-int8", hw->P_int8, base->P_int8 },
    { "--pe-flops-fp4", hw->P_fp4, base->P_fp4 },
  };

  add_option (s, "--hardware", base->name);
  if (hw->topology != base->topology)
    add_option (s, "--topology", iv_topology_to_string (hw->topology));
  if (hw->X != base->X || hw->Y != base->Y)
    {
      g_autofree char *cubes
          = g_strdup_printf ("%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT, hw->X, hw->Y);
      add_option (s, "--cubes", cubes);
    }
  if (hw->n_pe != base->n_pe)
    add_int (s, "--pes-per-cube", hw->n_pe);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (numbers[i].value != numbers[i].base)
      add_double (s, numbers[i].option, numbers[i].value);
  if (!hw->bidir != !base->bidir)
    add_option (s, "--bidirectional", hw->bidir ? "yes" : "no");
  if (!hw->switch_reduce != !base->switch_reduce)
    add_option (s, "--switch-reduction", hw->switch_reduce ? "yes" : "no");
}

char *
iv_model_command_line (const IvModel *model, const char *hf_config, const IvHardware *hw,
                       const IvConfig *c, const char *figure, const char *output)
{
  GString *s = g_string_new ("inferview model");

  g_return_val_if_fail (model && hw && c, NULL);
  if (hf_config)
    add_option (s, "--hf-config", hf_config);
  else
    add_option (s, "--preset", model->name);
  add_hardware (s, hw);
  add_option (s, "--mode", iv_mode_to_string (c->mode));
  add_int (s, "--batch", c->B);
  add_int (s, "--tq", c->T);
  add_int (s, "--context", c->P);
  add_int (s, "--tp", c->t);
  add_option (s, "--tp-place", iv_place_to_string (c->place_tp));
  add_int (s, "--cp", c->c);
  add_option (s, "--cp-place", iv_place_to_string (c->place_cp));
  add_option (s, "--ring", iv_ring_to_string (c->ring));
  add_int (s, "--ep", c->e);
  add_option (s, "--ep-place", iv_place_to_string (c->place_ep));
  if (c->imbalance != 1)
    add_double (s, "--imbalance", c->imbalance);
  if (c->overlap)
    add_word (s, "--overlap");
  add_double (s, "--reserve", c->reserve);
  add_option (s, "--weight-format", iv_format_id (c->f_w));
  add_option (s, "--act-format", iv_format_id (c->f_a));
  add_option (s, "--kv-format", iv_format_id (c->f_kv));
  /* bytes set on their own, apart from their format's (§2.3) */
  if (c->e_w != iv_format_bytes (c->f_w))
    add_double (s, "--weight-bytes", c->e_w);
  if (c->e_a != iv_format_bytes (c->f_a))
    add_double (s, "--act-bytes", c->e_a);
  if (c->e_kv != iv_format_bytes (c->f_kv))
    add_double (s, "--kv-bytes", c->e_kv);
  add_double (s, "--partial-bytes", c->e_p);
  if (figure)
    {
      g_autofree char *name = output ? NULL : g_strconcat (figure, ".png", NULL);
      add_option (s, "--figure", figure);
      add_option (s, "-o", output ? output : name);
    }
  return g_string_free (s, FALSE);
}
