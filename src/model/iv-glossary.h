/* iv-glossary.h: every symbol the model uses, with meaning, unit and current value, and
 * each stage's formula with symbols and with those values substituted. */
#pragma once

#include "iv-model.h"

G_BEGIN_DECLS

typedef struct
{
  const char *symbol;
  const char *meaning;
  const char *unit;
  double value;
} IvGlossaryEntry;

/* Fills @out (at most @max entries) for layer kind @kind; returns the count. */
guint iv_glossary (const IvResult *result, guint kind, IvGlossaryEntry *out, guint max);
/* "FLOPs = 2·B·T_l·d·H_l·dh; bytes = …; comm = …" for the stage as evaluated. */
char *iv_stage_formula (const IvResult *result, guint kind, IvStageId stage, gboolean with_values);

G_END_DECLS
