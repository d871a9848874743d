/* iv-model-csv.c: every stage of every layer kind as CSV, numbers in SI base units with
 * full precision — the command line's --format csv and the window's Copy as CSV. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-model.h"

char *
iv_result_to_csv (const IvResult *r)
{
  GString *out = g_string_new ("kind,layers,id,name,flops,bytes,comm_bytes,t_compute_s,t_memory_s,"
                               "t_comm_s,t_s,visible_s,bound\n");

  for (guint k = 0; k < r->n_kinds; k++)
    for (int s = 0; s < IV_N_STAGES; s++)
      {
        const IvStage *st = &r->kinds[k].stages[s];
        if (!st->present)
          continue;
        g_string_append_printf (
            out,
            "%s,%" G_GINT64_FORMAT ",%s,\"%s\",%.17g,%.17g,%.17g,%.9g,%.9g,%.9g,%.9g,%.9g,%s\n",
            r->kinds[k].name, r->kinds[k].layers, iv_stage_id (s), iv_stage_name (s), st->flops,
            st->bytes, st->comm_bytes, st->t_compute_s, st->t_memory_s, st->t_comm_s, st->t_s,
            st->visible_s, iv_bound_to_string (st->bound));
      }
  return g_string_free (out, FALSE);
}
