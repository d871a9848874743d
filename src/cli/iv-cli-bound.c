/* iv-cli-bound.c: --hardware, --tp and the model of `plot`, `runs --predict` and
 * `trace --against`, read one way (see the header). */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-bound.h"
#include "iv-cli-private.h"
#include "iv-cli.h"

/* "--tp", "--hardware and --tp", "--hardware, --tp, --model and --hf-config": the options
 * of @spec that go with its gate. */
static char *
dependents (const IvCliBoundSpec *spec)
{
  const char *names[4];
  guint n = 0;
  GString *text = g_string_new (NULL);

  if (!g_str_equal (spec->gate, "hardware"))
    names[n++] = "--hardware";
  names[n++] = "--tp";
  if (spec->model_option && g_str_equal (spec->model_option, "model"))
    {
      names[n++] = "--model";
      names[n++] = "--hf-config";
    }
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (text, i + 1 < n ? ", " : _ (" and "));
      g_string_append (text, names[i]);
    }
  return g_string_free (text, FALSE);
}

/* --tp: a whole number from 1 to the units TP spans on @b->hw. */
static int
read_tp (const IvCliBoundSpec *spec, IvCliBound *b)
{
  const IvHardware *hw = b->hw;
  gboolean pes = spec->tp_over_pes && hw->n_pe > 1;
  gint64 most = pes ? hw->n_pe : hw->X * hw->Y;
  char *end = NULL;

  b->tp_n = g_ascii_strtoll (b->tp, &end, 10);
  if (b->tp_n >= 1 && !*end && b->tp_n <= most)
    return IV_EXIT_OK;
  b->tp_n = 0;
  if (pes)
    return _iv_cli_usage_error (spec->command,
                                _ ("--tp: must be a whole number from 1 to the %" G_GINT64_FORMAT
                                   " PEs of a cube of %s, not “%s”"),
                                most, hw->name, b->tp);
  return _iv_cli_usage_error (
      spec->command,
      _ ("--tp: must be a whole number from 1 to the %" G_GINT64_FORMAT " GPUs of %s, not “%s”"),
      most, hw->name, b->tp);
}

int
_iv_cli_bound_read (const IvCliBoundSpec *spec, gboolean gate_given, IvCliBound *b)
{
  gboolean hardware_gate = g_str_equal (spec->gate, "hardware");
  gboolean model_is_gate = spec->model_option && g_str_equal (spec->model_option, spec->gate);

  if (hardware_gate)
    gate_given = b->hardware != NULL;
  if (!gate_given
      && ((b->hardware && !hardware_gate) || b->tp || (b->model && !model_is_gate) || b->hf_config))
    {
      g_autofree char *names = dependents (spec);
      if (strchr (names, ' '))
        return _iv_cli_usage_error (spec->command, _ ("%s go with --%s"), names, spec->gate);
      return _iv_cli_usage_error (spec->command, _ ("%s goes with --%s"), names, spec->gate);
    }
  if (!gate_given)
    return IV_EXIT_OK;
  if (b->model && b->hf_config)
    return _iv_cli_usage_error (spec->command, "%s", _ ("--model or --hf-config, not both"));
  if (b->hf_config)
    {
      g_autoptr (GError) error = NULL;
      if (!(b->imported = iv_model_from_hf_config (b->hf_config, &error)))
        {
          _iv_cli_printf (stderr, "inferview %s: --hf-config: %s\n", spec->command, error->message);
          return IV_EXIT_BAD_INPUT;
        }
      b->m = b->imported;
    }
  if (b->model && !(b->m = iv_presets_find (b->model)))
    return _iv_cli_usage_error (spec->command,
                                _ ("--%s: no preset named “%s” (inferview presets lists them)"),
                                spec->model_option, b->model);
  if (!b->hardware)
    return _iv_cli_usage_error (spec->command,
                                _ ("--%s needs --hardware NAME (inferview hardware lists them)"),
                                spec->gate);
  if (!(b->hw = iv_hardware_find (b->hardware)))
    return _iv_cli_usage_error (
        spec->command,
        _ ("--hardware: no hardware preset named “%s” (inferview hardware lists them)"),
        b->hardware);
  return b->tp ? read_tp (spec, b) : IV_EXIT_OK;
}

void
_iv_cli_bound_clear (IvCliBound *b)
{
  g_clear_pointer (&b->hardware, g_free);
  g_clear_pointer (&b->tp, g_free);
  g_clear_pointer (&b->model, g_free);
  g_clear_pointer (&b->hf_config, g_free);
  g_clear_pointer (&b->imported, iv_model_free);
  b->hw = NULL, b->m = NULL, b->tp_n = 0;
}
