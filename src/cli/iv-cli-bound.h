/* iv-cli-bound.h: the options that set runs or a trace against a model's analytical
 * bound — --hardware, --tp, and the model (--model or --hf-config) — read once for the
 * three commands that take them: `plot` (bound_efficiency), `runs --predict` and
 * `trace --stats --against`. The same entries, the same checks in the same order, the
 * same sentences, each with the command's name. */
#pragma once

#include <glib.h>

#include "iv-hardware.h"
#include "iv-preset.h"

G_BEGIN_DECLS

/* The texts of the options, NULL where absent, and what they name once read. */
typedef struct
{
  char *hardware, *tp, *model, *hf_config;
  const IvHardware *hw; /* --hardware's preset */
  gint64 tp_n;          /* --tp; 0 when not given */
  const IvModel *m;     /* --model's preset or --hf-config's model; NULL when neither */
  IvModel *imported;    /* --hf-config's model, owned */
} IvCliBound;

/* How a command takes them. */
typedef struct
{
  const char *command; /* named in every message: "inferview COMMAND: …" */
  /* the option the others go with: "predict", "against" or "hardware"; when it is not
   * given, any of the others is a usage error */
  const char *gate;
  /* the option naming the model preset: "model" (with --hf-config besides), "against" (the
   * gate itself), or NULL when the model comes from each run */
  const char *model_option;
  /* TP as the model places it on a SIP: over a cube's PEs (trace); otherwise over the
   * GPUs, or cubes, of the hardware */
  gboolean tp_over_pes;
} IvCliBoundSpec;

/* The GOptionEntry rows, each with its command's help text. */
#define IV_CLI_BOUND_HARDWARE_ENTRY(b, help)                                                       \
  {                                                                                                \
    "hardware", 0, 0, G_OPTION_ARG_STRING, &(b)->hardware, help, "NAME"                            \
  }
#define IV_CLI_BOUND_TP_ENTRY(b, help)                                                             \
  {                                                                                                \
    "tp", 0, 0, G_OPTION_ARG_STRING, &(b)->tp, help, "N"                                           \
  }
/* --model PRESET and --hf-config FILE */
#define IV_CLI_BOUND_MODEL_ENTRIES(b, model_help, hf_config_help)                                  \
  { "model", 0, 0, G_OPTION_ARG_STRING, &(b)->model, model_help, "PRESET" },                       \
  {                                                                                                \
    "hf-config", 0, 0, G_OPTION_ARG_FILENAME, &(b)->hf_config, hf_config_help, "FILE"              \
  }

/* Reads what was given against @spec (@gate_given: whether the gate option was): the
 * options without their gate, --model with --hf-config, the model, the hardware (needed
 * once the gate is given), --tp (a whole number from 1 to the units TP spans).
 * IV_EXIT_OK, or the exit status after one line on stderr: a --hf-config that cannot be
 * read is bad input, the rest usage errors. */
int _iv_cli_bound_read (const IvCliBoundSpec *spec, gboolean gate_given, IvCliBound *b);

void _iv_cli_bound_clear (IvCliBound *b);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (IvCliBound, _iv_cli_bound_clear)

G_END_DECLS
