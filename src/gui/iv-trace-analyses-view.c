/* iv-trace-analyses-view.c: see the header. The report (iv_trace_report_new), the steps and
 * the memory copies (which read the file's arguments again) take from tens of
 * milliseconds to seconds on a 100 MB trace, so they are computed on a worker; the trace is
 * read-only once loaded and its document is held by the task while it runs. A result that
 * arrives after the trace or the step changed is dropped (the generation). Every cell is
 * plain text from iv_text_valid: names come from the file. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-analyses-view.h"

#include <glib/gi18n.h>

#include "iv-chart-view.h"
#include "iv-safe-text.h"
#include "iv-trace-charts.h"
#include "iv-trace-memcpy.h"
#include "iv-trace-page.h"
#include "iv-trace-report.h"
#include "iv-trace-steps.h"
#include "iv-units.h"

/* The longest launch delays listed (the JSON lists as many). */
#define MAX_DELAYS 10
/* Steps listed in the table (the chart shows them all). */
#define MAX_STEP_ROWS 200

struct _IvTraceAnalysesView
{
  GtkWidget parent_instance;

  const IvTrace *trace;
  GObject *owner;
  IvTimelineView *timeline; /* weak: see iv_trace_analyses_view_set_timeline */
  gint64 step;
  guint generation;
  gboolean busy;
  gboolean pending;       /* to compute once shown */
  gboolean setting_steps; /* the drop-down is being filled: not a choice */
  GArray *step_numbers;   /* gint64: the drop-down's items after "Whole trace" */

  GtkWidget *scroller;
  GtkWidget *steps_dropdown;
  GtkWidget *status;
  GtkWidget *sections;
  GtkGrid *grid; /* the table being filled */
  guint n_rows;
  GString *text;
  IvChartView *figure_chart; /* the chart Export draws, or NULL */
};

G_DEFINE_FINAL_TYPE (IvTraceAnalysesView, iv_trace_analyses_view, GTK_TYPE_WIDGET)

/* ---------- the worker ---------- */

typedef struct
{
  const IvTrace *trace;
  GObject *owner;
  gint64 t0_ns, t1_ns;
  gboolean scoped;
  guint generation;
} Job;

typedef struct
{
  IvTraceReport *report;
  GArray *steps;  /* IvStepStats */
  GArray *copies; /* IvMemcpyStats, or NULL */
  char *copies_error;
  guint generation;
} Result;

static void
job_free (Job *job)
{
  g_clear_object (&job->owner);
  g_free (job);
}

static void
result_free (Result *r)
{
  iv_trace_report_free (r->report);
  g_clear_pointer (&r->steps, g_array_unref);
  g_clear_pointer (&r->copies, g_array_unref);
  g_free (r->copies_error);
  g_free (r);
}

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  Result *r = g_new0 (Result, 1);
  GError *error = NULL;

  r->generation = job->generation;
  /* on a worker: a trace without flows has its launches joined on args.correlation */
  r->report = iv_trace_report_new (job->trace, job->t0_ns, job->t1_ns, job->scoped,
                                   IV_STATS_READ_ARGS, &error);
  if (!r->report)
    {
      result_free (r);
      g_task_return_error (task, error);
      return;
    }
  r->steps = iv_trace_step_stats (job->trace);
  r->copies = iv_trace_memcpy_stats (job->trace, job->t0_ns, job->t1_ns, &error);
  if (!r->copies)
    {
      r->copies_error = g_strdup (error->message);
      g_clear_error (&error);
    }
  g_task_return_pointer (task, r, (GDestroyNotify) result_free);
}

/* ---------- building the page ---------- */

static void
add_heading (IvTraceAnalysesView *self, const char *title, const char *note)
{
  iv_trace_page_heading (self->sections, self->text, title, 14);
  if (note)
    {
      GtkWidget *n = gtk_label_new (note);
      gtk_label_set_xalign (GTK_LABEL (n), 0);
      gtk_label_set_wrap (GTK_LABEL (n), TRUE);
      gtk_widget_add_css_class (n, "dim-label");
      gtk_widget_add_css_class (n, "caption");
      gtk_box_append (GTK_BOX (self->sections), n);
    }
}

/* A table under the last heading: @headers (NULL-terminated) as its first row, the first
 * column at the start and the others (numbers) at the end. */
static void
begin_table (IvTraceAnalysesView *self, const char *const *headers)
{
  self->grid = iv_trace_page_grid (self->sections, 2);
  gtk_widget_set_margin_top (GTK_WIDGET (self->grid), 4);
  for (guint i = 0; headers[i]; i++)
    {
      GtkWidget *l = gtk_label_new (headers[i]);
      gtk_label_set_xalign (GTK_LABEL (l), i == 0 ? 0 : 1);
      gtk_widget_add_css_class (l, "dim-label");
      gtk_widget_add_css_class (l, "caption-heading");
      gtk_grid_attach (self->grid, l, (int) i, 0, 1, 1);
    }
  self->n_rows = 1;
}

/* A row of @n cells (each may be NULL: empty); the cells are text from data. */
static void
add_cells (IvTraceAnalysesView *self, const char *const *cells, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *v = iv_text_valid (cells[i] ? cells[i] : "", -1);
      GtkWidget *l = gtk_label_new (v);
      gtk_label_set_xalign (GTK_LABEL (l), i == 0 ? 0 : 1);
      gtk_label_set_selectable (GTK_LABEL (l), TRUE);
      if (i == 0)
        {
          gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_max_width_chars (GTK_LABEL (l), 48);
          gtk_widget_set_tooltip_text (l, v);
        }
      else
        gtk_widget_add_css_class (l, "numeric");
      gtk_grid_attach (self->grid, l, (int) i, (int) self->n_rows, 1, 1);
      g_string_append_printf (self->text, "%s%s", i ? " | " : "", v);
    }
  g_string_append_c (self->text, '\n');
  self->n_rows++;
}

static void
add_line (IvTraceAnalysesView *self, const char *raw)
{
  g_autofree char *v = iv_text_valid (raw, -1);
  GtkWidget *l = gtk_label_new (v);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_selectable (GTK_LABEL (l), TRUE);
  gtk_box_append (GTK_BOX (self->sections), l);
  g_string_append_printf (self->text, "%s\n", v);
}

static IvChartView *
add_chart (IvTraceAnalysesView *self, IvChart *chart, const char *name, int height)
{
  GtkWidget *view;

  if (!chart)
    return NULL;
  view = iv_chart_view_new ();
  gtk_widget_set_size_request (view, -1, height);
  gtk_widget_set_margin_top (view, 6);
  iv_chart_view_set_chart (IV_CHART_VIEW (view), chart, name);
  gtk_box_append (GTK_BOX (self->sections), view);
  return IV_CHART_VIEW (view);
}

#define SEC(ns) iv_units_format_seconds ((ns) *1e-9)

static char *
stream_name (const IvTrace *t, guint track)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, track);
  const IvProcess *p = t->processes->pdata[tr->process];
  return g_strdup_printf ("%s · %s", p->name ? p->name : p->key, tr->name ? tr->name : tr->key);
}

static void
show_streams (IvTraceAnalysesView *self, const IvTraceReport *rep)
{
  const char *headers[] = { _ ("Stream"),    _ ("Kernels"),     _ ("Busy"),  _ ("Idle"),
                            _ ("Host wait"), _ ("Kernel wait"), _ ("Other"), NULL };
  const IvGpuStats *gpu = rep->gpu;

  add_heading (
      self, _ ("GPU streams: busy and idle"),
      _ ("Between each stream's first and last kernel. Idle as HTA splits it "
         "(hta/analyzers/breakdown_analysis.py): host wait when the kernel ending a gap was "
         "launched after the gap began, kernel wait when the gap is under 30 µs, other the "
         "rest."));
  if (!gpu || gpu->streams->len == 0)
    {
      add_line (self, _ ("No GPU work in this range."));
      return;
    }
  begin_table (self, headers);
  for (guint i = 0; i < gpu->streams->len; i++)
    {
      const IvStreamStats *st = &g_array_index (gpu->streams, IvStreamStats, i);
      g_autofree char *name = stream_name (self->trace, st->track);
      g_autofree char *k = g_strdup_printf ("%" G_GUINT64_FORMAT, st->kernels);
      g_autofree char *b = SEC (st->busy_ns), *idle = SEC (st->idle_ns);
      g_autofree char *h = SEC (st->idle_host_wait_ns), *kw = SEC (st->idle_kernel_wait_ns);
      g_autofree char *o = SEC (st->idle_other_ns);
      const char *cells[] = { name, k, b, idle, h, kw, o };
      add_cells (self, cells, G_N_ELEMENTS (cells));
    }
  add_chart (self, iv_trace_chart_streams (self->trace, gpu), "gpu-streams",
             90 + 34 * (int) MIN (gpu->streams->len, 8));
}

static void
show_steps (IvTraceAnalysesView *self, const GArray *steps)
{
  const char *headers[]
      = { _ ("Step"),      _ ("Time"),        _ ("GPU busy"), _ ("Busy %"),   _ ("GEMM"),
          _ ("Attention"), _ ("Collectives"), _ ("Other"),    _ ("GPU work"), NULL };
  IvChartView *chart;

  add_heading (self, _ ("ProfilerSteps"),
               _ ("Each iteration from its first start to its last end on a CPU thread, with "
                  "the GPU streams' busy time in it (their union) by stage group. Choose a "
                  "step above to scope this page and the timeline to it."));
  begin_table (self, headers);
  for (guint i = 0; i < steps->len && i < MAX_STEP_ROWS; i++)
    {
      const IvStepStats *st = &g_array_index (steps, IvStepStats, i);
      gint64 dur = st->t1_ns - st->t0_ns;
      g_autofree char *n = g_strdup_printf ("#%" G_GINT64_FORMAT, st->step);
      g_autofree char *d = SEC (dur), *b = SEC (st->busy_ns);
      g_autofree char *pct = g_strdup_printf ("%.1f %%", dur > 0 ? 100.0 * st->busy_ns / dur : 0);
      g_autofree char *c0 = SEC (st->class_ns[0]), *c1 = SEC (st->class_ns[1]);
      g_autofree char *c2 = SEC (st->class_ns[2]), *c3 = SEC (st->class_ns[3]);
      g_autofree char *k = g_strdup_printf ("%" G_GUINT64_FORMAT, st->kernels);
      const char *cells[] = { n, d, b, pct, c0, c1, c2, c3, k };
      add_cells (self, cells, G_N_ELEMENTS (cells));
    }
  if (steps->len > MAX_STEP_ROWS)
    {
      g_autofree char *more
          = g_strdup_printf (_ ("… %u steps in all (the chart shows each)"), steps->len);
      add_line (self, more);
    }
  chart = add_chart (self, iv_trace_chart_steps (steps), "profiler-steps",
                     160 + 26 * (int) MIN (steps->len, 24));
  if (chart)
    self->figure_chart = chart;
}

static void
summary_cells (IvTraceAnalysesView *self, const char *what, const IvLaunchSummary *s)
{
  g_autofree char *mean = SEC (s->mean_ns), *p50 = SEC (s->p50_ns);
  g_autofree char *p95 = SEC (s->p95_ns), *max = SEC (s->max_ns);
  const char *cells[] = { what, mean, p50, p95, max };
  add_cells (self, cells, G_N_ELEMENTS (cells));
}

static int
by_delay_desc (gconstpointer a, gconstpointer b)
{
  const IvLaunch *x = *(const IvLaunch *const *) a, *y = *(const IvLaunch *const *) b;
  return (y->delay_ns > x->delay_ns) - (y->delay_ns < x->delay_ns);
}

static void
show_launches (IvTraceAnalysesView *self, const IvLaunchStats *ls)
{
  const char *headers[] = { "", _ ("Mean"), _ ("Median"), _ ("p95"), _ ("Max"), NULL };
  const char *delay_headers[]
      = { _ ("Kernel"), _ ("Runtime call"), _ ("Delay"), _ ("Call"), _ ("GPU"), NULL };
  const char *queue_headers[] = { _ ("Stream"),          _ ("Longest"), _ ("Mean over time"),
                                  _ ("Mean at changes"), _ ("Changes"), NULL };
  const IvTrace *t = self->trace;
  g_autoptr (GPtrArray) sorted = NULL;
  g_autofree char *count = NULL, *outliers = NULL;

  add_heading (self, _ ("Kernel launches"),
               _ ("HTA's kernel launch statistics (hta/analyzers/cuda_kernel_analysis.py): each "
                  "runtime call tied to its GPU work by correlation id; the launch delay is the "
                  "work's start minus the call's end."));
  if (!ls || ls->launches->len == 0)
    {
      add_line (self, _ ("No runtime call in this range is tied to GPU work (the trace has no "
                         "launch flows)."));
      return;
    }
  count = g_strdup_printf (_ ("%u runtime calls tied to their GPU work"), ls->launches->len);
  add_line (self, count);
  begin_table (self, headers);
  summary_cells (self, _ ("Runtime call"), &ls->cpu);
  summary_cells (self, _ ("GPU work"), &ls->gpu);
  summary_cells (self, _ ("Launch delay"), &ls->delay);
  outliers = g_strdup_printf (
      _ ("Outliers: %" G_GUINT64_FORMAT " calls over 50 µs, %" G_GUINT64_FORMAT
         " delays over 100 µs, %" G_GUINT64_FORMAT " short kernels (shorter than their call)"),
      ls->runtime_outliers, ls->delay_outliers, ls->short_kernels);
  add_line (self, outliers);
  add_chart (self, iv_trace_chart_launches (ls), "kernel-launches", 300);

  /* the longest delays: the launches most worth a look */
  sorted = g_ptr_array_sized_new (ls->launches->len);
  for (guint i = 0; i < ls->launches->len; i++)
    g_ptr_array_add (sorted, &g_array_index (ls->launches, IvLaunch, i));
  g_ptr_array_sort (sorted, by_delay_desc);
  add_heading (self, _ ("Longest launch delays"), NULL);
  begin_table (self, delay_headers);
  for (guint i = 0; i < sorted->len && i < MAX_DELAYS; i++)
    {
      const IvLaunch *l = sorted->pdata[i];
      g_autofree char *d = SEC (l->delay_ns), *c = SEC (l->cpu_ns), *g = SEC (l->gpu_ns);
      const char *cells[] = { iv_trace_string (t, t->name[l->work]),
                              iv_trace_string (t, t->name[l->call]), d, c, g };
      add_cells (self, cells, G_N_ELEMENTS (cells));
    }

  if (ls->queues->len)
    {
      add_heading (self, _ ("Queue length per stream"),
                   _ ("Work launched on a stream and not yet started (hta/analyzers/"
                      "trace_counters.py): +1 at a runtime call's start, −1 when its work "
                      "starts."));
      begin_table (self, queue_headers);
      for (guint i = 0; i < ls->queues->len; i++)
        {
          const IvQueueStats *q = &g_array_index (ls->queues, IvQueueStats, i);
          g_autofree char *name = stream_name (t, q->track);
          g_autofree char *max = g_strdup_printf ("%" G_GINT64_FORMAT, q->max);
          g_autofree char *tw = g_strdup_printf ("%.2f", q->time_weighted);
          g_autofree char *mc = g_strdup_printf ("%.2f", q->mean_at_changes);
          g_autofree char *ch = g_strdup_printf ("%" G_GUINT64_FORMAT, q->changes);
          const char *cells[] = { name, max, tw, mc, ch };
          add_cells (self, cells, G_N_ELEMENTS (cells));
        }
      add_chart (self, iv_trace_chart_queues (t, ls), "queue-length",
                 130 + 48 * (int) MIN (ls->queues->len, 8));
      /* HTA's time series itself (get_queue_length_time_series): the table's numbers
       * describe it */
      add_chart (self, iv_trace_chart_queue_series (t, ls), "queue-length-over-time",
                 250 + 20 * (int) MIN (ls->queue_series->len, 8));
    }
}

static void
show_copies (IvTraceAnalysesView *self, const Result *r)
{
  const char *headers[] = { _ ("Type"),    _ ("Count"), _ ("Bytes"), _ ("Time"),
                            _ ("Overall"), _ ("Mean"),  _ ("Max"),   NULL };

  add_heading (self, _ ("Memory copies and sets"),
               _ ("By direction, bytes and GB/s from each copy's arguments, as HTA's memory "
                  "bandwidth (hta/analyzers/trace_counters.py). Overall: bytes over summed "
                  "time; mean and max of the GB/s the profiler wrote."));
  if (r->copies_error)
    {
      add_line (self, r->copies_error);
      return;
    }
  if (!r->copies || r->copies->len == 0)
    {
      add_line (self, _ ("No memory copies or sets in this range."));
      return;
    }
  begin_table (self, headers);
  for (guint i = 0; i < r->copies->len; i++)
    {
      const IvMemcpyStats *m = &g_array_index (r->copies, IvMemcpyStats, i);
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, m->count);
      g_autofree char *bytes = iv_units_format_bytes (m->bytes), *time = SEC (m->time_ns);
      g_autofree char *eff = g_strdup_printf ("%.1f GB/s", m->effective_gbps);
      g_autofree char *mean = g_strdup_printf ("%.1f GB/s", m->mean_gbps);
      g_autofree char *max = g_strdup_printf ("%.1f GB/s", m->max_gbps);
      const char *cells[] = { m->type, n, bytes, time, eff, mean, max };
      add_cells (self, cells, G_N_ELEMENTS (cells));
    }
  add_chart (self, iv_trace_chart_copies (r->copies), "memory-copies",
             130 + 60 * (int) MIN (r->copies->len, 8));
}

/* Kineto's [memory] instants are a counter per device ("memory · GPU 0 · allocated",
 * iv-trace-chrome.c); the report has each one's peak in the range. */
static void
show_memory (IvTraceAnalysesView *self, const IvTraceReport *rep)
{
  const char *headers[] = { _ ("Curve"), _ ("Peak"), _ ("At"), _ ("Samples"), NULL };
  const IvTrace *t = self->trace;

  if (!rep->memory || rep->memory->len == 0)
    return;
  add_heading (self, _ ("Memory"),
               _ ("The allocator's [memory] events as a curve per device and its peak: the "
                  "bytes in use (allocated), or their running sum from where the trace began "
                  "(since start) when the events give only the changes."));
  begin_table (self, headers);
  for (guint i = 0; i < rep->memory->len; i++)
    {
      const IvMemoryPeak *m = &g_array_index (rep->memory, IvMemoryPeak, i);
      const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, m->series);
      g_autofree char *peak = iv_units_format_bytes (m->peak);
      g_autofree char *when = iv_units_format_seconds ((m->peak_ns - t->t0_ns) * 1e-9);
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, m->samples);
      const char *cells[] = { iv_trace_string (t, cs->name), peak, when, n };
      add_cells (self, cells, G_N_ELEMENTS (cells));
    }
}

static void
set_status (IvTraceAnalysesView *self, const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status), text ? text : "");
}

static void
show_result (IvTraceAnalysesView *self, const Result *r)
{
  iv_trace_page_clear (self->sections);
  g_string_truncate (self->text, 0);
  self->figure_chart = NULL;
  if (self->step >= 0)
    {
      g_autofree char *scope
          = g_strdup_printf (_ ("Scoped to ProfilerStep#%" G_GINT64_FORMAT), self->step);
      g_string_append_printf (self->text, "%s\n", scope);
    }
  show_streams (self, r->report);
  if (r->steps && r->steps->len)
    show_steps (self, r->steps);
  show_launches (self, r->report->launch);
  show_copies (self, r);
  show_memory (self, r->report);
  /* without steps, the streams' idle breakdown is the page's figure */
  if (!self->figure_chart)
    {
      GtkWidget *c;
      for (c = gtk_widget_get_first_child (self->sections); c; c = gtk_widget_get_next_sibling (c))
        if (IV_IS_CHART_VIEW (c))
          {
            self->figure_chart = IV_CHART_VIEW (c);
            break;
          }
    }
}

static void
on_computed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  IvTraceAnalysesView *self = IV_TRACE_ANALYSES_VIEW (source);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (res), &error);
  Job *job = g_task_get_task_data (G_TASK (res));

  /* the document is released here, on the main thread, never by the worker's last
   * reference to the task (a document's finalize frees its trace) */
  g_clear_object (&job->owner);
  if (job->generation != self->generation)
    {
      g_clear_pointer (&r, result_free);
      return;
    }
  self->busy = FALSE;
  if (!r)
    {
      set_status (self, error->message);
      return;
    }
  set_status (self, NULL);
  show_result (self, r);
  result_free (r);
}

static void
start (IvTraceAnalysesView *self)
{
  Job *job;

  self->generation++;
  iv_trace_page_clear (self->sections);
  g_string_truncate (self->text, 0);
  self->figure_chart = NULL;
  self->busy = FALSE;
  self->pending = FALSE;
  if (!self->trace)
    {
      set_status (self, NULL);
      return;
    }
  /* computed when first shown: the copies read the file again, which a trace opened and
   * never looked at here should not cost */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->pending = TRUE;
      set_status (self, NULL);
      return;
    }
  job = g_new0 (Job, 1);
  job->trace = self->trace;
  job->owner = self->owner ? g_object_ref (self->owner) : NULL;
  job->generation = self->generation;
  job->t0_ns = G_MININT64, job->t1_ns = G_MAXINT64;
  if (self->step >= 0)
    {
      iv_trace_step_range (self->trace, self->step, &job->t0_ns, &job->t1_ns);
      job->scoped = TRUE;
    }
  self->busy = TRUE;
  set_status (self, _ ("Computing…"));
  iv_trace_page_run (self, job, (GDestroyNotify) job_free, compute_thread, on_computed);
}

static void
on_step_chosen (IvTraceAnalysesView *self)
{
  if (self->setting_steps || !self->step_numbers)
    return;
  iv_trace_analyses_view_set_step (
      self, iv_trace_page_chosen_step (GTK_DROP_DOWN (self->steps_dropdown), self->step_numbers));
}

void
iv_trace_analyses_view_set_trace (IvTraceAnalysesView *self, const IvTrace *trace, GObject *owner)
{
  g_return_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self));
  self->trace = trace;
  g_set_object (&self->owner, owner);
  self->step = -1;
  g_clear_pointer (&self->step_numbers, g_array_unref);
  self->step_numbers = trace ? iv_trace_profiler_steps (trace) : NULL;
  iv_trace_page_set_steps (GTK_DROP_DOWN (self->steps_dropdown), self->step_numbers,
                           _ ("Whole trace"), &self->setting_steps);
  start (self);
}

void
iv_trace_analyses_view_set_timeline (IvTraceAnalysesView *self, IvTimelineView *timeline)
{
  g_return_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self));
  self->timeline = timeline;
}

gboolean
iv_trace_analyses_view_set_step (IvTraceAnalysesView *self, gint64 step)
{
  gint64 t0 = 0, t1 = 0;

  g_return_val_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self), FALSE);
  if (!self->trace || (step >= 0 && !iv_trace_step_range (self->trace, step, &t0, &t1)))
    return FALSE;
  iv_trace_page_select_step (GTK_DROP_DOWN (self->steps_dropdown), self->step_numbers, step,
                             &self->setting_steps);
  if (step == self->step
      && (self->busy || self->pending || gtk_widget_get_first_child (self->sections)))
    return TRUE;
  self->step = step;
  /* the timeline shows what the page counts: the step, or the whole trace again */
  if (self->timeline)
    {
      if (step < 0)
        iv_trace_activity_range (self->trace, &t0, &t1);
      iv_timeline_view_set_range (self->timeline, t0, t1);
    }
  start (self);
  return TRUE;
}

gint64
iv_trace_analyses_view_get_step (IvTraceAnalysesView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self), -1);
  return self->step;
}

gboolean
iv_trace_analyses_view_is_busy (IvTraceAnalysesView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self), FALSE);
  return self->busy;
}

char *
iv_trace_analyses_view_to_text (IvTraceAnalysesView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self), NULL);
  return g_strdup (self->text->str);
}

const IvFigure *
iv_trace_analyses_view_get_figure (IvTraceAnalysesView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_ANALYSES_VIEW (self), NULL);
  return self->figure_chart && !self->busy ? iv_chart_view_get_figure (self->figure_chart) : NULL;
}

GtkWidget *
iv_trace_analyses_view_new (void)
{
  return g_object_new (IV_TYPE_TRACE_ANALYSES_VIEW, NULL);
}

static void
iv_trace_analyses_view_dispose (GObject *object)
{
  IvTraceAnalysesView *self = IV_TRACE_ANALYSES_VIEW (object);

  /* a result still on its way is dropped by its generation */
  self->generation++;
  g_clear_object (&self->owner);
  g_clear_pointer (&self->step_numbers, g_array_unref);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (iv_trace_analyses_view_parent_class)->dispose (object);
}

static void
iv_trace_analyses_view_map (GtkWidget *widget)
{
  IvTraceAnalysesView *self = IV_TRACE_ANALYSES_VIEW (widget);

  GTK_WIDGET_CLASS (iv_trace_analyses_view_parent_class)->map (widget);
  if (self->pending)
    start (self);
}

static void
iv_trace_analyses_view_finalize (GObject *object)
{
  g_string_free (IV_TRACE_ANALYSES_VIEW (object)->text, TRUE);
  G_OBJECT_CLASS (iv_trace_analyses_view_parent_class)->finalize (object);
}

static void
iv_trace_analyses_view_class_init (IvTraceAnalysesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_trace_analyses_view_dispose;
  object_class->finalize = iv_trace_analyses_view_finalize;
  widget_class->map = iv_trace_analyses_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
iv_trace_analyses_view_init (IvTraceAnalysesView *self)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *label = gtk_label_new_with_mnemonic (_ ("_Scope"));
  GtkWidget *clamp = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->text = g_string_new (NULL);
  self->step = -1;
  self->steps_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->steps_dropdown);
  gtk_widget_set_tooltip_text (self->steps_dropdown,
                               _ ("The whole trace, or one ProfilerStep: the analyses and the "
                                  "timeline follow"));
  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_widget_set_hexpand (self->status, TRUE);
  gtk_box_append (GTK_BOX (bar), label);
  gtk_box_append (GTK_BOX (bar), self->steps_dropdown);
  gtk_box_append (GTK_BOX (bar), self->status);
  g_signal_connect_swapped (self->steps_dropdown, "notify::selected", G_CALLBACK (on_step_chosen),
                            self);

  self->sections = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (outer), bar);
  gtk_box_append (GTK_BOX (outer), self->sections);
  gtk_widget_set_margin_start (outer, 18);
  gtk_widget_set_margin_end (outer, 18);
  gtk_widget_set_margin_top (outer, 12);
  gtk_widget_set_margin_bottom (outer, 18);
  gtk_widget_set_size_request (outer, 360, -1);
  gtk_box_append (GTK_BOX (clamp), outer);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), clamp);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}
