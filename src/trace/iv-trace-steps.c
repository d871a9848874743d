/* iv-trace-steps.c: a profile's ProfilerSteps (see the header). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-steps.h"

#include <string.h>

static int
by_value (gconstpointer a, gconstpointer b)
{
  gint64 u = *(const gint64 *) a, v = *(const gint64 *) b;
  return (u > v) - (u < v);
}

GArray *
iv_trace_profiler_steps (const IvTrace *t)
{
  GArray *steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  guint n_names = iv_intern_size (t->strings);
  g_autofree gint64 *step_of = g_try_new (gint64, MAX (n_names, 1));

  if (!step_of)
    return steps;
  for (guint i = 0; i < n_names; i++)
    {
      const char *s = iv_trace_string (t, i);
      char *end = NULL;
      gint64 n;
      step_of[i] = -1;
      if (!s || !g_str_has_prefix (s, "ProfilerStep#"))
        continue;
      n = g_ascii_strtoll (s + strlen ("ProfilerStep#"), &end, 10);
      if (end && *end == '\0' && end != s + strlen ("ProfilerStep#") && n >= 0)
        step_of[i] = n;
    }
  for (gsize s = 0; s < t->n_slices; s++)
    {
      gint64 n = step_of[t->name[s]];
      if (n >= 0 && !g_hash_table_contains (seen, &step_of[t->name[s]]))
        {
          g_hash_table_add (seen, &step_of[t->name[s]]);
          g_array_append_val (steps, n);
        }
    }
  g_array_sort (steps, by_value);
  return steps;
}

gboolean
iv_trace_step_range (const IvTrace *t, gint64 step, gint64 *t0, gint64 *t1)
{
  g_autofree char *name = g_strdup_printf ("ProfilerStep#%" G_GINT64_FORMAT, step);
  guint32 id = iv_intern_lookup (t->strings, name);
  gboolean found = FALSE;

  if (id == G_MAXUINT32)
    return FALSE;
  *t0 = G_MAXINT64, *t1 = G_MININT64;
  for (gsize s = 0; s < t->n_slices; s++)
    if (t->name[s] == id && iv_trace_slice_row_kind (t, s) == IV_ROW_NESTED
        && !iv_trace_slice_is_open (t, s))
      {
        *t0 = MIN (*t0, t->start_ns[s]);
        *t1 = MAX (*t1, t->start_ns[s] + t->dur_ns[s]);
        found = TRUE;
      }
  return found;
}

char *
iv_trace_steps_text (const IvTrace *t)
{
  g_autoptr (GArray) steps = iv_trace_profiler_steps (t);
  GString *s = g_string_new (NULL);

  if (steps->len == 0)
    return g_string_free (g_string_assign (s, "no ProfilerStep"), FALSE);
  g_string_append (s, "steps ");
  for (guint i = 0; i < steps->len && i < 12; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "",
                            g_array_index (steps, gint64, i));
  if (steps->len > 12)
    g_string_append_printf (s, " … (%u in all)", steps->len);
  return g_string_free (s, FALSE);
}

GArray *
iv_trace_step_stats (const IvTrace *t)
{
  g_autoptr (GArray) steps = iv_trace_profiler_steps (t);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (IvStepStats));

  for (guint i = 0; i < steps->len; i++)
    {
      IvStepStats st = { g_array_index (steps, gint64, i) };
      guint64 kernels[IV_N_KCLASSES];
      if (!iv_trace_step_range (t, st.step, &st.t0_ns, &st.t1_ns))
        continue;
      iv_trace_class_times (t, st.t0_ns, st.t1_ns, st.class_ns, kernels, &st.busy_ns);
      for (int k = 0; k < IV_N_KCLASSES; k++)
        st.kernels += kernels[k];
      g_array_append_val (out, st);
    }
  return out;
}
