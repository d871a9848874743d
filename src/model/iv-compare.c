/* iv-compare.c: the comparison table. Stage rows use each configuration's most numerous
 * layer kind (the one that dominates its step), so a dense model and a MoE model still
 * line up stage by stage. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-compare.h"

#include <math.h>
#include <string.h>

#include "iv-csv.h"
#include "iv-units.h"

static void
row_free (IvCompareRow *row)
{
  g_free (row->label);
  g_ptr_array_unref (row->cells);
  g_array_unref (row->values);
  g_free (row);
}

void
iv_compare_free (IvCompareTable *t)
{
  if (!t)
    return;
  g_ptr_array_unref (t->names);
  g_ptr_array_unref (t->rows);
  g_free (t);
}

static IvCompareRow *
add_row (IvCompareTable *t, const char *label, gboolean higher_is_better)
{
  IvCompareRow *row = g_new0 (IvCompareRow, 1);
  row->label = g_strdup (label);
  row->cells = g_ptr_array_new_with_free_func (g_free);
  row->values = g_array_new (FALSE, FALSE, sizeof (double));
  row->higher_is_better = higher_is_better;
  row->best = -1;
  g_ptr_array_add (t->rows, row);
  return row;
}

static void
add_section (IvCompareTable *t, const char *label)
{
  IvCompareRow *row = add_row (t, label, FALSE);
  row->section = TRUE;
  for (guint i = 0; i < t->n; i++)
    {
      double nan_value = NAN;
      g_ptr_array_add (row->cells, g_strdup (""));
      g_array_append_val (row->values, nan_value);
    }
}

static void
cell (IvCompareRow *row, char *text, double value)
{
  g_ptr_array_add (row->cells, text);
  g_array_append_val (row->values, value);
}

/* The single best value, if the row has one: two or more numbers, not all equal (within
 * 0.05 %, which is below what the cells show). */
static void
mark_best (IvCompareRow *row)
{
  int best = -1, count = 0;
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < row->values->len; i++)
    {
      double v = g_array_index (row->values, double, i);
      if (isnan (v))
        continue;
      count++;
      lo = MIN (lo, v), hi = MAX (hi, v);
      if (best < 0
          || (row->higher_is_better ? v > g_array_index (row->values, double, best)
                                    : v < g_array_index (row->values, double, best)))
        best = (int) i;
    }
  if (count < 2 || hi - lo <= 5e-4 * MAX (fabs (hi), fabs (lo)))
    return;
  /* A tie for the best value is no single best either. */
  for (guint i = 0; i < row->values->len; i++)
    if ((int) i != best
        && fabs (g_array_index (row->values, double, i) - g_array_index (row->values, double, best))
               <= 5e-4 * fabs (g_array_index (row->values, double, best)))
      return;
  row->best = best;
}

static char *
memory_text (double bytes, gboolean fits)
{
  g_autofree char *text = iv_units_format_bytes (bytes);
  return fits ? g_steal_pointer (&text) : g_strdup_printf ("%s (does not fit)", text);
}

static guint
main_kind (const IvResult *r)
{
  guint k = 0;
  for (guint i = 1; i < r->n_kinds; i++)
    if (r->kinds[i].layers > r->kinds[k].layers)
      k = i;
  return k;
}

static double
waste_bytes (const IvResult *r)
{
  double sum = 0;
  for (guint i = 0; i < r->n_waste; i++)
    sum += r->waste[i].bytes;
  return sum;
}

/* A stage's visible time; an exchange hidden under the compute says what it costs (a
 * K/V ring's "0 s" next to a Q+O/m/l ring's time would read as free). */
static char *
stage_text (const IvStage *stage, double visible)
{
  g_autofree char *comm = NULL;

  if (visible > 0 || !(stage->t_comm_s > 0))
    return iv_units_format_seconds (visible);
  comm = iv_units_format_seconds (stage->t_comm_s);
  return g_strdup_printf ("hidden (%s)", comm);
}

IvCompareTable *
iv_compare_build (const IvResult *const *results, const char *const *names, guint n)
{
  IvCompareTable *t = g_new0 (IvCompareTable, 1);
  IvCompareRow *row;

  t->n = n;
  t->names = g_ptr_array_new_with_free_func (g_free);
  t->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (t->names, g_strdup (names[i]));

#define TEXT_ROW(label, expr)                                                                      \
  do                                                                                               \
    {                                                                                              \
      row = add_row (t, label, FALSE);                                                             \
      for (guint i = 0; i < n; i++)                                                                \
        {                                                                                          \
          const IvResult *r = results[i];                                                          \
          cell (row, expr, NAN);                                                                   \
        }                                                                                          \
    }                                                                                              \
  while (0)

  add_section (t, "Configuration");
  TEXT_ROW ("model", g_strdup (r->model->name));
  TEXT_ROW ("hardware", g_strdup (r->hw->name));
  TEXT_ROW ("mode", g_strdup (iv_mode_to_string (r->config.mode)));
  TEXT_ROW ("batch · T_q · context",
            g_strdup_printf ("%" G_GINT64_FORMAT " · %" G_GINT64_FORMAT " · %" G_GINT64_FORMAT,
                             r->config.B, r->config.T, r->config.P));
  TEXT_ROW ("TP", g_strdup_printf ("%" G_GINT64_FORMAT " on %s", r->config.t,
                                   r->config.place_tp == IV_PLACE_PE ? "PEs" : "cubes"));
  TEXT_ROW ("CP", g_strdup_printf ("%" G_GINT64_FORMAT " on %s", r->config.c,
                                   r->config.place_cp == IV_PLACE_PE ? "PEs" : "cubes"));
  TEXT_ROW ("CP ring", g_strdup (r->config.c > 1 && r->config.mode == IV_MODE_PREFILL
                                     ? (r->config.ring == IV_RING_KV ? "K/V" : "Q+O/m/l")
                                     : "–"));
#undef TEXT_ROW

#define NUM_ROW(label, better_high, value, text)                                                   \
  do                                                                                               \
    {                                                                                              \
      row = add_row (t, label, better_high);                                                       \
      for (guint i = 0; i < n; i++)                                                                \
        {                                                                                          \
          const IvResult *r = results[i];                                                          \
          double v = (value);                                                                      \
          cell (row, text, v);                                                                     \
        }                                                                                          \
      mark_best (row);                                                                             \
    }                                                                                              \
  while (0)

  add_section (t, "Result");
  NUM_ROW ("step time", FALSE, r->step_s, iv_units_format_seconds (v));
  NUM_ROW ("tokens/s", TRUE, r->tokens_per_s, iv_units_format_si (v, NULL));
  NUM_ROW ("memory per PE", FALSE,
           r->weights_bytes_per_pe + r->kv_bytes_per_pe + r->act_bytes_per_pe,
           memory_text (v, r->fits));
  NUM_ROW ("replicated bytes per PE", FALSE, waste_bytes (r), iv_units_format_bytes (v));
  NUM_ROW ("idle PEs", FALSE, (double) r->idle_pes, g_strdup_printf ("%.0f", v));

  add_section (t, "Per layer (most numerous kind)");
  NUM_ROW ("attention", FALSE, r->kinds[main_kind (r)].attention_s, iv_units_format_seconds (v));
  NUM_ROW ("FFN", FALSE, r->kinds[main_kind (r)].ffn_s, iv_units_format_seconds (v));
  for (int s = 0; s < IV_N_STAGES; s++)
    {
      g_autofree char *label = g_strdup_printf ("%s %s", iv_stage_id (s), iv_stage_name (s));
      gboolean any = FALSE;
      for (guint i = 0; i < n; i++)
        any |= iv_stage_shown (&results[i]->kinds[main_kind (results[i])], s);
      if (!any)
        continue;
      NUM_ROW (label, FALSE,
               iv_stage_shown (&r->kinds[main_kind (r)], s)
                   ? r->kinds[main_kind (r)].stages[s].visible_s
                   : NAN,
               isnan (v) ? g_strdup ("–") : stage_text (&r->kinds[main_kind (r)].stages[s], v));
    }
#undef NUM_ROW
  return t;
}

/* Numbers as plain values in SI base units (seconds, bytes, tokens/s), text as text. */
char *
iv_compare_to_csv (const IvCompareTable *t)
{
  GString *out = g_string_new ("row");

  for (guint i = 0; i < t->n; i++)
    {
      g_string_append_c (out, ',');
      iv_csv_append_field (out, t->names->pdata[i]);
    }
  g_string_append (out, ",best\n");
  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvCompareRow *row = t->rows->pdata[r];
      if (row->section)
        continue;
      iv_csv_append_field (out, row->label);
      for (guint i = 0; i < t->n; i++)
        {
          double v = g_array_index (row->values, double, i);
          g_string_append_c (out, ',');
          if (isnan (v))
            iv_csv_append_field (out, row->cells->pdata[i]);
          else
            g_string_append_printf (out, "%.9g", v);
        }
      g_string_append_c (out, ',');
      if (row->best >= 0)
        iv_csv_append_field (out, t->names->pdata[row->best]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
