/* iv-trace-charts.c: small charts of a trace range's analyses (see the header). */
#define G_LOG_DOMAIN "iv-render"

#include "iv-trace-charts.h"
#include "iv-trace-memcpy.h"
#include "iv-trace-queue.h"
#include "iv-units.h"

#include <glib/gi18n.h>

#define SECONDS ((IvUnit){ IV_UNIT_SECONDS, 1.0, NULL })
#define NAME_CHARS 26 /* longer names lose their middle: the chart is small */

/* "[param|pytorch.model.alex_net|0|0|0|warmup|forward]" → "[param|pytorch.…up|forward]":
 * both ends of a profiler name tell the most. */
static char *
shorten (const char *name)
{
  glong n = g_utf8_strlen (name, -1);
  g_autofree char *head = NULL, *tail = NULL;

  if (n <= NAME_CHARS)
    return g_strdup (name);
  head = g_utf8_substring (name, 0, NAME_CHARS / 2);
  tail = g_utf8_substring (name, n - (NAME_CHARS / 2 - 1), n);
  return g_strconcat (head, "…", tail, NULL);
}

static char *
stream_label (const IvTrace *t, guint track)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
  const IvProcess *p = t->processes->pdata[tr->process];
  return g_strdup_printf ("%s · %s", p->name ? p->name : p->key, tr->name ? tr->name : tr->key);
}

IvChart *
iv_trace_chart_streams (const IvTrace *t, const IvGpuStats *gpu)
{
  IvChart *c;
  g_autoptr (GPtrArray) names = NULL;
  g_autofree double *busy = NULL, *host = NULL, *kernel = NULL, *other = NULL;
  guint n = gpu ? gpu->streams->len : 0;

  if (n == 0)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  busy = g_new (double, n);
  host = g_new (double, n);
  kernel = g_new (double, n);
  other = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      const IvStreamStats *s = &g_array_index (gpu->streams, IvStreamStats, i);
      g_ptr_array_add (names, stream_label (t, s->track));
      busy[i] = s->busy_ns * 1e-9;
      host[i] = s->idle_host_wait_ns * 1e-9;
      kernel[i] = s->idle_kernel_wait_ns * 1e-9;
      other[i] = s->idle_other_ns * 1e-9;
    }
  c = iv_chart_new ();
  /* between each stream's first and last kernel, as HTA measures idle time */
  iv_chart_set_title (c, _ ("GPU streams, share busy"),
                      _ ("from each stream's first kernel to its last"));
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_PERCENT, TRUE);
  /* bars fill the plot's width: a legend inside would cover them */
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("busy"), busy, n), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("idle: host wait"), host, n), 0xe69f00);
  iv_series_set_color (iv_chart_add_bars (c, _ ("idle: kernel wait"), kernel, n), 0x56b4e9);
  iv_series_set_color (iv_chart_add_bars (c, _ ("idle: other"), other, n), 0xc0bfbc);
  return c;
}

IvChart *
iv_trace_chart_kernels (const IvGpuStats *gpu)
{
  const char *cats[] = { _ ("compute"), _ ("memory"), _ ("communication") };
  double kernel[3], exposed[3] = { 0 }, hidden[3] = { 0 };
  IvChart *c;

  if (!gpu
      || gpu->by_kind_ns[IV_KERNEL_COMPUTE] + gpu->by_kind_ns[IV_KERNEL_MEMORY]
                 + gpu->by_kind_ns[IV_KERNEL_COMM]
             <= 0)
    return NULL;
  kernel[0] = gpu->by_kind_ns[IV_KERNEL_COMPUTE] * 1e-9;
  kernel[1] = gpu->by_kind_ns[IV_KERNEL_MEMORY] * 1e-9;
  kernel[2] = 0;
  /* Communication split into what compute hides and what it does not. */
  hidden[2] = gpu->comm_overlapped_ns * 1e-9;
  exposed[2] = MAX (0, gpu->by_kind_ns[IV_KERNEL_COMM] - gpu->comm_overlapped_ns) * 1e-9;
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Kernel time by kind"), NULL);
  iv_chart_set_categories (c, cats, 3);
  iv_chart_set_bar_mode (c, IV_BARS_STACKED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("time"));
  /* below: inside, it would sit on the longest bar, which is the one to read */
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("kernels"), kernel, 3), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("communication under compute"), hidden, 3),
                       0x009e73);
  iv_series_set_color (iv_chart_add_bars (c, _ ("communication exposed"), exposed, 3), 0xd55e00);
  return c;
}

IvChart *
iv_trace_chart_classes (const gint64 by_class[IV_N_KCLASSES], gint64 busy, const IvResult *model)
{
  const char *cats[IV_N_KCLASSES] = { _ ("GEMM"), _ ("attention"), _ ("collectives"), _ ("other") };
  double measured[IV_N_KCLASSES], predicted[IV_N_KCLASSES], seconds[4], total = 0;
  g_autofree char *sub = NULL, *b = NULL;
  IvChart *c;

  if (busy <= 0)
    return NULL;
  for (int k = 0; k < IV_N_KCLASSES; k++)
    measured[k] = 100.0 * by_class[k] / busy;
  b = iv_units_format_seconds (busy * 1e-9);
  c = iv_chart_new ();
  if (model && model->ok)
    {
      g_autofree char *config = iv_result_config_text (model);
      iv_result_class_times (model, seconds);
      for (int k = 0; k < 4; k++)
        total += seconds[k];
      for (int k = 0; k < IV_N_KCLASSES; k++)
        predicted[k] = total > 0 ? 100 * seconds[k] / total : 0;
      sub = g_strdup_printf (_ ("GPU busy %s here · the model: %s on %s, %s (the Model workspace)"),
                             b, model->model->name, model->hw->name, config);
    }
  else
    sub = g_strdup_printf (_ ("GPU busy %s; each busy instant counted once"), b);
  iv_chart_set_title (c, _ ("GPU time by stage group"), sub);
  iv_chart_set_categories (c, cats, IV_N_KCLASSES);
  iv_chart_set_bar_mode (c, IV_BARS_GROUPED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_PERCENT, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("share of the time"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("measured"), measured, IV_N_KCLASSES), 0x0072b2);
  if (model && model->ok)
    iv_series_set_color (iv_chart_add_bars (c, _ ("the model's step"), predicted, IV_N_KCLASSES),
                         0xcc79a7);
  return c;
}

IvChart *
iv_trace_chart_top_names (const IvTrace *t, const GArray *stats, guint n)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree double *total = NULL, *self = NULL;
  IvChart *c;
  guint with_count = 0, k = 0;

  for (guint i = 0; stats && i < stats->len; i++)
    with_count += g_array_index (stats, IvNameStats, i).count > 0;
  n = MIN (n, with_count);
  if (n == 0)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  total = g_new (double, n);
  self = g_new (double, n);
  /* entries only of spans that did not end have no time: not among the most */
  for (guint i = 0; i < stats->len && k < n; i++)
    {
      const IvNameStats *s = &g_array_index (stats, IvNameStats, i);
      g_autofree char *shown = NULL;
      if (s->count == 0)
        continue;
      shown = shorten (iv_trace_string (t, s->name));
      /* a GPU annotation and a CPU op of one name are two bars: say which */
      g_ptr_array_add (
          names, s->kind == IV_ROW_NESTED
                     ? g_steal_pointer (&shown)
                     : g_strdup_printf ("%s (%s)", shown,
                                        s->kind == IV_ROW_GPU_WORK         ? _ ("GPU")
                                        : s->kind == IV_ROW_GPU_ANNOTATION ? _ ("GPU annotation")
                                        : s->kind == IV_ROW_GPU_SYNC       ? _ ("GPU sync")
                                                                           : _ ("GPU other")));
      total[k] = s->total_ns * 1e-9;
      self[k] = s->self_ns * 1e-9;
      k++;
    }
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Most time by name"), NULL);
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_GROUPED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("time"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("total"), total, n), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("self"), self, n), 0xe69f00);
  return c;
}

/* A profiler name as short as it can be and still be told apart, as HTA's shorten_name
 * (hta/utils/utils.py) shortens: no "void " return type, no argument list, no template
 * arguments ("void at::native::vectorized_elementwise_kernel<4, …>(int, …)" →
 * "at::native::vectorized_elementwise_kernel"); then, when still long, the last part of a
 * qualified name ("vectorized_elementwise_kernel"), and last the middle dropped. */
static char *
short_name (const char *name)
{
  GString *s = g_string_new (NULL);
  int depth = 0;
  const char *p = g_str_has_prefix (name, "void ") ? name + 5 : name;
  const char *last;

  for (; *p; p++)
    {
      if (*p == '<')
        depth++;
      else if (*p == '>' && depth > 0)
        depth--;
      else if (*p == '(' && depth == 0 && s->len > 0)
        break;
      else if (depth == 0)
        g_string_append_c (s, *p);
    }
  g_strchomp (s->str);
  s->len = strlen (s->str);
  if (s->len == 0)
    g_string_assign (s, name);
  /* the later of "a::b" and "label: b" */
  last = g_strrstr (s->str, "::");
  if (g_strrstr (s->str, ": ") > last)
    last = g_strrstr (s->str, ": ");
  if (g_utf8_strlen (s->str, -1) > NAME_CHARS && last && last[2])
    {
      char *tail = g_strdup (last + 2);
      g_string_assign (s, g_strstrip (tail));
      g_free (tail);
    }
  {
    char *out = shorten (s->str);
    g_string_free (s, TRUE);
    return out;
  }
}

IvChart *
iv_trace_chart_diff (const IvTraceDiff *d, guint n)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree double *slower = NULL, *faster = NULL;
  g_autofree char *sub = NULL;
  IvChart *c;
  guint k = 0;

  for (guint i = 0; d && i < d->entries->len && k < n; i++)
    k += iv_trace_diff_delta_ns (&g_array_index (d->entries, IvTraceDiffEntry, i)) != 0;
  n = k;
  if (n == 0)
    return NULL;
  slower = g_new0 (double, n);
  faster = g_new0 (double, n);
  /* the largest change on top: categories run down the y axis in order */
  for (guint i = 0, j = 0; i < d->entries->len && j < n; i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (d->entries, IvTraceDiffEntry, i);
      gint64 delta = iv_trace_diff_delta_ns (e);
      g_autofree char *shown = NULL;
      if (delta == 0)
        continue;
      shown = short_name (e->name);
      /* a CPU operator's call path is in the table; here the name, GPU work marked (CPU
       * operators are most rows) and whether the name is new or gone */
      g_ptr_array_add (names, g_strdup_printf ("%s%s%s", shown,
                                               e->kind == IV_ROW_NESTED     ? ""
                                               : e->kind == IV_ROW_GPU_WORK ? _ (" · GPU")
                                                                            : _ (" · GPU range"),
                                               e->count[0] == 0   ? _ (" (new)")
                                               : e->count[1] == 0 ? _ (" (gone)")
                                                                  : ""));
      if (delta > 0)
        slower[j] = delta * 1e-9;
      else
        faster[j] = delta * 1e-9;
      j++;
    }
  c = iv_chart_new ();
  sub = d->step[0] >= 0 ? g_strdup_printf (_ ("ProfilerStep#%" G_GINT64_FORMAT
                                              " against ProfilerStep#%" G_GINT64_FORMAT
                                              "; change in recorded time, second minus first"),
                                           d->step[1], d->step[0])
                        : g_strdup (_ ("whole traces; change in recorded time, second minus "
                                       "first"));
  iv_chart_set_title (c, _ ("Largest changes by name"), sub);
  iv_chart_axis_set_title (c, IV_AXIS_Y, NULL);
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_STACKED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("Δ time"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  /* vermilion and blue: apart for every colour vision (Okabe–Ito) */
  iv_series_set_color (iv_chart_add_bars (c, _ ("slower (more time)"), slower, n), 0xd55e00);
  iv_series_set_color (iv_chart_add_bars (c, _ ("faster (less time)"), faster, n), 0x0072b2);
  return c;
}

IvChart *
iv_trace_chart_steps (const GArray *steps)
{
  const char *names[IV_N_KCLASSES]
      = { _ ("GEMM"), _ ("attention"), _ ("collectives"), _ ("other") };
  const guint32 colors[IV_N_KCLASSES] = { 0x0072b2, 0xe69f00, 0xd55e00, 0xc0bfbc };
  g_autoptr (GPtrArray) cats = g_ptr_array_new_with_free_func (g_free);
  g_autofree double *by_class = NULL;
  guint n = steps ? steps->len : 0;
  IvChart *c;

  if (n == 0)
    return NULL;
  by_class = g_new0 (double, IV_N_KCLASSES *(gsize) n);
  for (guint i = 0; i < n; i++)
    {
      const IvStepStats *st = &g_array_index (steps, IvStepStats, i);
      g_ptr_array_add (cats, g_strdup_printf ("#%" G_GINT64_FORMAT, st->step));
      for (int k = 0; k < IV_N_KCLASSES; k++)
        by_class[(gsize) k * n + i] = st->class_ns[k] * 1e-9;
    }
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("GPU busy time per ProfilerStep"),
                      _ ("the union of the streams' work in each step, by stage group"));
  iv_chart_set_categories (c, (const char *const *) cats->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_STACKED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("GPU busy"));
  iv_chart_axis_set_title (c, IV_AXIS_Y, NULL);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  for (int k = 0; k < IV_N_KCLASSES; k++)
    iv_series_set_color (iv_chart_add_bars (c, names[k], by_class + (gsize) k * n, n), colors[k]);
  return c;
}

IvChart *
iv_trace_chart_launches (const IvLaunchStats *st)
{
  const char *cats[] = { _ ("runtime call"), _ ("GPU work"), _ ("launch delay") };
  const IvLaunchSummary *sum[3];
  double p50[3], p95[3], top = 0;
  g_autofree char *sub = NULL, *m0 = NULL, *m1 = NULL, *m2 = NULL;
  IvChart *c;

  if (!st || st->launches->len == 0)
    return NULL;
  sum[0] = &st->cpu;
  sum[1] = &st->gpu;
  sum[2] = &st->delay;
  for (int i = 0; i < 3; i++)
    {
      p50[i] = sum[i]->p50_ns * 1e-9;
      p95[i] = sum[i]->p95_ns * 1e-9;
      top = MAX (top, MAX (p50[i], p95[i]));
    }
  /* the longest in words, not as bars (no-break spaces keep a number by its unit): one slow call (a
   * first launch, an allocation) runs seconds where the rest run microseconds, and bars cannot
   * stand on a log axis */
  m0 = iv_units_format_seconds (st->cpu.max_ns * 1e-9);
  m1 = iv_units_format_seconds (st->gpu.max_ns * 1e-9);
  m2 = iv_units_format_seconds (st->delay.max_ns * 1e-9);
  sub = g_strdup_printf (_ ("%u launches, %" G_GUINT64_FORMAT
                            " calls over 50\u00a0µs, %" G_GUINT64_FORMAT
                            " delays over 100\u00a0µs; longest call %s, work %s, delay %s"),
                         st->launches->len, st->runtime_outliers, st->delay_outliers, m0, m1, m2);
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Kernel launches"), sub);
  iv_chart_set_categories (c, cats, 3);
  iv_chart_set_bar_mode (c, IV_BARS_GROUPED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("time"));
  iv_chart_axis_set_title (c, IV_AXIS_Y, NULL);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("median"), p50, 3), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("p95"), p95, 3), 0xe69f00);
  /* HTA's outlier thresholds, drawn only where the bars reach them: a rule far past the
   * longest bar would squeeze the bars to the axis */
  if (top >= IV_LAUNCH_RUNTIME_CUTOFF_NS * 1e-9)
    iv_chart_add_vline (c, IV_LAUNCH_RUNTIME_CUTOFF_NS * 1e-9, _ ("50 µs"));
  if (top >= IV_LAUNCH_DELAY_CUTOFF_NS * 1e-9)
    iv_chart_add_vline (c, IV_LAUNCH_DELAY_CUTOFF_NS * 1e-9, _ ("100 µs"));
  return c;
}

IvChart *
iv_trace_chart_queues (const IvTrace *t, const IvLaunchStats *st)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree double *longest = NULL, *mean = NULL;
  guint n = st ? st->queues->len : 0;
  IvChart *c;

  if (n == 0)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  longest = g_new (double, n);
  mean = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      const IvQueueStats *q = &g_array_index (st->queues, IvQueueStats, i);
      g_ptr_array_add (names, stream_label (t, q->track));
      longest[i] = (double) q->max;
      mean[i] = q->time_weighted;
    }
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Queue length per stream"),
                      _ ("work launched and not yet started; mean weighted by time"));
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_GROUPED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_COUNT, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("launches queued"));
  iv_chart_axis_set_title (c, IV_AXIS_Y, NULL);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("longest"), longest, n), 0xd55e00);
  iv_series_set_color (iv_chart_add_bars (c, _ ("mean over time"), mean, n), 0x0072b2);
  return c;
}

IvChart *
iv_trace_chart_queue_series (const IvTrace *t, const IvLaunchStats *st)
{
  static const guint32 colors[]
      = { 0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7, 0xe69f00, 0x56b4e9, 0xf0e442, 0x000000 };
  guint n = st && st->queue_series ? st->queue_series->len : 0;
  double top = -1, top_x = 0;
  IvChart *c;

  if (n == 0)
    return NULL;
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Queue length over time"),
                      _ ("per stream: launched and not yet started"));
  iv_chart_axis_set_unit (c, IV_AXIS_X, SECONDS);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("time since the trace began"));
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_COUNT, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_Y, _ ("launches queued"));
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  for (guint i = 0; i < n; i++)
    {
      const IvQueueSeries *s = st->queue_series->pdata[i];
      g_autoptr (GArray) pts = iv_queue_series_decimate (s, IV_QUEUE_CHART_POINTS);
      /* the level carried into the range first, at the first change */
      guint m = pts->len + 1;
      g_autofree double *x = g_new (double, m), *y = g_new (double, m);
      g_autofree char *name = stream_label (t, s->track);
      IvSeries *se;
      if (pts->len == 0)
        continue;
      x[0] = (g_array_index (pts, IvQueuePoint, 0).ts_ns - t->t0_ns) * 1e-9, y[0] = s->initial;
      for (guint j = 0; j < pts->len; j++)
        {
          const IvQueuePoint *p = &g_array_index (pts, IvQueuePoint, j);
          x[j + 1] = (p->ts_ns - t->t0_ns) * 1e-9, y[j + 1] = (double) p->length;
        }
      se = iv_chart_add_step (c, name, x, y, m);
      iv_series_set_color (se, colors[i % G_N_ELEMENTS (colors)]);
      if ((double) s->max > top)
        top = (double) s->max, top_x = (MAX (s->max_ns, t->t0_ns) - t->t0_ns) * 1e-9;
    }
  if (iv_chart_get_n_series (c) == 0)
    {
      iv_chart_free (c);
      return NULL;
    }
  {
    /* the longest queue as a marker named in the legend: a text beside a peak at the
     * right edge would be cut in a narrow figure */
    g_autofree char *peak = g_strdup_printf (_ ("longest: %.0f"), top);
    IvSeries *se = iv_chart_add_scatter (c, peak, &top_x, &top, 1);
    iv_series_set_color (se, 0x000000);
    iv_series_set_marker (se, IV_MARKER_TRIANGLE, 7);
  }
  return c;
}

IvChart *
iv_trace_chart_copies (const GArray *copies)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autofree double *overall = NULL, *mean = NULL, *max = NULL;
  guint n = copies ? copies->len : 0;
  gboolean any = FALSE;
  IvChart *c;

  for (guint i = 0; i < n; i++)
    any |= g_array_index (copies, IvMemcpyStats, i).max_gbps > 0
           || g_array_index (copies, IvMemcpyStats, i).effective_gbps > 0;
  if (!any)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  overall = g_new (double, n);
  mean = g_new (double, n);
  max = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      const IvMemcpyStats *m = &g_array_index (copies, IvMemcpyStats, i);
      g_ptr_array_add (names, g_strdup_printf ("%s (%" G_GUINT64_FORMAT ")", m->type, m->count));
      overall[i] = m->effective_gbps;
      mean[i] = m->mean_gbps;
      max[i] = m->max_gbps;
    }
  c = iv_chart_new ();
  iv_chart_set_title (c, _ ("Memory copies and sets"),
                      _ ("bandwidth by type (count); overall: bytes over summed time"));
  iv_chart_set_categories (c, (const char *const *) names->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_GROUPED, TRUE);
  /* the profiler writes GB/s, as the table shows them */
  iv_chart_axis_set_unit (c, IV_AXIS_X, IV_UNIT_PLAIN);
  iv_chart_axis_set_title (c, IV_AXIS_X, _ ("bandwidth (GB/s)"));
  iv_chart_axis_set_title (c, IV_AXIS_Y, NULL);
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, _ ("overall"), overall, n), 0x0072b2);
  iv_series_set_color (iv_chart_add_bars (c, _ ("mean"), mean, n), 0xe69f00);
  iv_series_set_color (iv_chart_add_bars (c, _ ("max"), max, n), 0xd55e00);
  return c;
}
