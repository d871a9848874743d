/* iv-compare.h: saved configurations side by side — a summary (model, hardware, mode,
 * TP/CP and placements, ring, step time, tokens/s, memory per PE, waste) and every stage's
 * visible time, with the best value of each numeric row marked. Shared by the Compare
 * figure and its CSV. */
#pragma once

#include "iv-model.h"

G_BEGIN_DECLS

typedef struct
{
  char *label;
  GPtrArray *cells; /* char *, one per configuration */
  GArray *values;   /* double per configuration; NAN where not numeric or absent */
  gboolean higher_is_better;
  int best;         /* the best configuration's index, -1 when there is no single best */
  gboolean section; /* a heading row: label only */
} IvCompareRow;

typedef struct
{
  guint n;          /* configurations */
  GPtrArray *names; /* char * */
  GPtrArray *rows;  /* IvCompareRow * */
} IvCompareTable;

IvCompareTable *iv_compare_build (const IvResult *const *results, const char *const *names,
                                  guint n);
char *iv_compare_to_csv (const IvCompareTable *table);
void iv_compare_free (IvCompareTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvCompareTable, iv_compare_free)

G_END_DECLS
