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
/* "t = max(FLOPs/(η_c·P_fp8), bytes/(η_m·BW), t_comm) [FP8 E4M3] = max(…) = 2.4 µs": the
 * stage's time, with the peak of its format named (§6); "" for an absent stage. */
char *iv_stage_time_formula (const IvResult *result, guint kind, IvStageId stage,
                             gboolean with_values);
/* "two-shot all-reduce over 8 GPUs: t_comm = 2·α + 1.75·S/B′ = 2·2.3 µs + 1.75·16.4 kB/(450
 * GB/s) = 4.66 µs": a collective's cost (§3, §8) with its numbers; NULL when the stage does
 * not communicate. */
char *iv_stage_comm_formula (const IvResult *result, guint kind, IvStageId stage,
                             gboolean with_values);

G_END_DECLS
