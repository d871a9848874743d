/* iv-model-command.h: the `inferview model …` line that reproduces a configuration and
 * one of its figures — what the Model workspace's "Copy as command" puts on the clipboard.
 * GLib only, so a test can run the line and compare its evaluation with the window's. */
#pragma once

#include "iv-hardware.h"
#include "iv-model.h"

G_BEGIN_DECLS

/* The command line, every word shell-quoted: the model (its preset, or --hf-config
 * @hf_config when not NULL), the hardware (the preset it starts from and each field that
 * differs from it), every configuration field, then `--figure @figure -o @output` when
 * @figure is not NULL (@output NULL: "@figure.png"). */
char *iv_model_command_line (const IvModel *model, const char *hf_config, const IvHardware *hw,
                             const IvConfig *config, const char *figure, const char *output);

G_END_DECLS
