/* iv-trace-report.c: a trace's statistics over a range, computed once (see the header). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-report.h"

/* Each memory curve's peak over the samples in [@t0, @t1): a counter series named
 * "memory · …" (the loader's name for the allocator's curves). */
static GArray *
memory_peaks (const IvTrace *t, gint64 t0, gint64 t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (IvMemoryPeak));

  for (guint i = 0; t->series && i < t->series->len; i++)
    {
      const IvCounterSeries *s = &g_array_index (t->series, IvCounterSeries, i);
      const char *name = iv_trace_string (t, s->name);
      IvMemoryPeak m = { i, 0, 0, 0 };
      if (!name || !g_str_has_prefix (name, "memory · "))
        continue;
      for (gsize j = s->first; j < s->first + s->n; j++)
        {
          if (t->sample_ns[j] < t0 || t->sample_ns[j] >= t1)
            continue;
          if (m.samples == 0 || t->sample_value[j] > m.peak)
            m.peak = t->sample_value[j], m.peak_ns = t->sample_ns[j];
          m.samples++;
        }
      if (m.samples)
        g_array_append_val (out, m);
    }
  return out;
}

IvTraceReport *
iv_trace_report_new (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns, gboolean scoped,
                     IvStatsFlags flags, GError **error)
{
  GArray *by_name = iv_trace_stats_by_name_full (trace, t0_ns, t1_ns, flags, error);
  IvTraceReport *r;

  if (!by_name)
    return NULL;
  r = g_new0 (IvTraceReport, 1);
  r->t0_ns = t0_ns, r->t1_ns = t1_ns;
  r->scoped = scoped;
  r->flags = flags;
  r->by_name = by_name;
  r->gpu = iv_trace_gpu_stats_full (trace, t0_ns, t1_ns, flags);
  iv_trace_class_times_full (trace, t0_ns, t1_ns, flags, r->class_ns, r->class_slices, &r->busy_ns);
  for (guint i = 0; i < by_name->len; i++)
    r->open += g_array_index (by_name, IvNameStats, i).open;
  r->launch = iv_trace_launch_stats (trace, t0_ns, t1_ns, (flags & IV_STATS_READ_ARGS) != 0);
  r->memory = memory_peaks (trace, t0_ns, t1_ns);
  return r;
}

void
iv_trace_report_free (IvTraceReport *r)
{
  if (!r)
    return;
  g_array_unref (r->by_name);
  iv_gpu_stats_free (r->gpu);
  iv_launch_stats_free (r->launch);
  g_array_unref (r->memory);
  g_free (r);
}
