/* iv-run-card.h: everything about how one run ran — model, endpoint, load, sequence
 * lengths, duration, requests, errors, GPUs, folder and, with hardware chosen, its bound —
 * as key–value lines (the Runs workspace shows it in the Run Details popover). */
#pragma once

#include <gtk/gtk.h>

#include "iv-runs-table.h"

G_BEGIN_DECLS

#define IV_TYPE_RUN_CARD (iv_run_card_get_type ())
G_DECLARE_FINAL_TYPE (IvRunCard, iv_run_card, IV, RUN_CARD, GtkWidget)

GtkWidget *iv_run_card_new (void);
/* Shows @run (which must outlive the card's use of it), set against @choice's hardware
 * when it has one. */
void iv_run_card_set_run (IvRunCard *self, const IvRun *run, const IvRunsBoundChoice *choice);
/* What is shown, one "key: value" line each (tests, copying). */
char *iv_run_card_to_text (IvRunCard *self);

G_END_DECLS
