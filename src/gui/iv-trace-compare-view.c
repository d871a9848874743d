/* iv-trace-compare-view.c: see the header. The diff is computed on a worker (a 100 MB pair
 * takes seconds); both documents are held by the task, and the traces are read-only once
 * loaded. A result for a step no longer chosen is dropped (the generation). The table's
 * rows copy what they show, so a row a list item still holds never points into a diff
 * that was replaced. The timelines scroll together: a range change in one is carried to the
 * other shifted by the difference of their anchors (the step's start in each), with the
 * same span, so the same offset into the step lies at the same x in both. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-compare-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-chart-view.h"
#include "iv-export-dialog.h"
#include "iv-plain-text.h"
#include "iv-safe-text.h"
#include "iv-trace-charts.h"
#include "iv-trace-page.h"
#include "iv-trace-steps.h"
#include "iv-units.h"

/* The largest changes drawn as bars (the table lists every one). */
#define CHART_CHANGES 15

/* ---------- a row of the table ---------- */

#define IV_TYPE_COMPARE_ROW (iv_compare_row_get_type ())
G_DECLARE_FINAL_TYPE (IvCompareRow, iv_compare_row, IV, COMPARE_ROW, GObject)

struct _IvCompareRow
{
  GObject parent_instance;
  char *key; /* the call path of a CPU operator, else the name */
  char *name;
  IvRowKind kind;
  guint64 count[2];
  gint64 total_ns[2];
  guint order; /* in the diff: by |Δ| descending */
};

G_DEFINE_FINAL_TYPE (IvCompareRow, iv_compare_row, G_TYPE_OBJECT)

static void
iv_compare_row_finalize (GObject *object)
{
  IvCompareRow *r = IV_COMPARE_ROW (object);
  g_free (r->key);
  g_free (r->name);
  G_OBJECT_CLASS (iv_compare_row_parent_class)->finalize (object);
}

static void
iv_compare_row_class_init (IvCompareRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = iv_compare_row_finalize;
}

static void
iv_compare_row_init (IvCompareRow *r)
{
}

static gint64
row_delta (const IvCompareRow *r)
{
  return r->total_ns[1] - r->total_ns[0];
}

/* "new" (only in the second), "gone" (only in the first), or "" */
static const char *
row_change (const IvCompareRow *r)
{
  return r->count[0] == 0 ? _ ("new") : r->count[1] == 0 ? _ ("gone") : "";
}

static const char *
kind_title (IvRowKind kind)
{
  switch (kind)
    {
    case IV_ROW_NESTED:
      return _ ("CPU op");
    case IV_ROW_GPU_WORK:
      return _ ("kernel");
    default:
      return _ ("GPU range");
    }
}

/* ---------- the view ---------- */

struct _IvTraceCompareView
{
  GtkWidget parent_instance;

  IvDocument *doc[2];
  gint64 step; /* -1: the whole traces */
  gint64 anchor[2];
  guint generation;
  gboolean busy;
  gboolean syncing;       /* one timeline is being moved to follow the other */
  gboolean setting_steps; /* the drop-down is being filled: not a choice */
  GArray *common_steps;   /* gint64: the steps both traces have */
  IvTraceDiff *diff;

  GtkWidget *box;
  GtkWidget *title_a, *title_b;
  GtkWidget *steps_dropdown;
  GtkWidget *status;
  GtkStack *stack;
  GListStore *rows;
  GtkSortListModel *sorted;
  GtkColumnView *table;
  GtkGrid *totals;
  GString *totals_text;
  IvChartView *chart;
  GtkWidget *no_changes;
  IvTimelineView *timeline[2];
  GtkWidget *timeline_label[2];
};

G_DEFINE_FINAL_TYPE (IvTraceCompareView, iv_trace_compare_view, GTK_TYPE_WIDGET)

typedef struct
{
  const IvTrace *a, *b;
  IvDocument *doc[2];
  gint64 step;
  guint generation;
  IvStatsFlags flags[2]; /* IV_STATS_PER_PROCESS for a side that is a distributed job */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->doc[0]);
  g_clear_object (&job->doc[1]);
  g_free (job);
}

static void
diff_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  IvTraceDiff *d
      = iv_trace_diff_new_full (job->a, job->b, job->step, job->step, job->flags, &error);

  if (d)
    g_task_return_pointer (task, d, (GDestroyNotify) iv_trace_diff_free);
  else
    g_task_return_error (task, error);
}

static const IvTrace *
trace_of (IvTraceCompareView *self, guint side)
{
  return self->doc[side] ? iv_document_get_trace (self->doc[side]) : NULL;
}

/* ---------- the GPU totals ---------- */

static void
totals_row (IvTraceCompareView *self, guint row, const char *name, gint64 a, gint64 b,
            gboolean time)
{
  g_autofree char *va
      = time ? iv_units_format_seconds (a * 1e-9) : g_strdup_printf ("%" G_GINT64_FORMAT, a);
  g_autofree char *vb
      = time ? iv_units_format_seconds (b * 1e-9) : g_strdup_printf ("%" G_GINT64_FORMAT, b);
  g_autofree char *d = NULL;
  const char *cells[4];

  if (time)
    {
      g_autofree char *abs = iv_units_format_seconds (ABS (b - a) * 1e-9);
      d = b == a ? g_strdup ("0") : g_strdup_printf ("%s%s", b > a ? "+" : "−", abs);
    }
  else
    d = g_strdup_printf ("%+" G_GINT64_FORMAT, b - a);
  cells[0] = name, cells[1] = va, cells[2] = vb, cells[3] = d;
  for (guint i = 0; i < 4; i++)
    {
      GtkWidget *l = gtk_label_new (cells[i]);
      gtk_label_set_xalign (GTK_LABEL (l), i == 0 ? 0 : 1);
      if (i)
        gtk_widget_add_css_class (l, "numeric");
      if (row == 0)
        gtk_widget_add_css_class (l, "heading");
      gtk_grid_attach (self->totals, l, (int) i, (int) row + 1, 1, 1);
    }
  g_string_append_printf (self->totals_text, "%s | %s | %s | %s\n", name, va, vb, d);
}

static void
show_totals (IvTraceCompareView *self, const IvTraceDiff *d)
{
  const char *class_names[IV_N_KCLASSES]
      = { _ ("GEMM"), _ ("Attention"), _ ("Collectives"), _ ("Other") };
  const char *headers[] = { _ ("GPU"), _ ("First"), _ ("Second"), _ ("Δ") };
  GtkWidget *c;

  while ((c = gtk_widget_get_first_child (GTK_WIDGET (self->totals))))
    gtk_grid_remove (self->totals, c);
  g_string_truncate (self->totals_text, 0);
  if (!d)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      GtkWidget *l = gtk_label_new (headers[i]);
      gtk_label_set_xalign (GTK_LABEL (l), i == 0 ? 0 : 1);
      gtk_widget_add_css_class (l, "caption-heading");
      gtk_widget_add_css_class (l, "dim-label");
      gtk_grid_attach (self->totals, l, (int) i, 0, 1, 1);
    }
  totals_row (self, 0,
              d->per_process[0] || d->per_process[1] ? _ ("Busy (a job's ranks summed)")
                                                     : _ ("Busy"),
              d->busy_ns[0], d->busy_ns[1], TRUE);
  totals_row (self, 1, _ ("Idle"), d->idle_ns[0], d->idle_ns[1], TRUE);
  for (int k = 0; k < IV_N_KCLASSES; k++)
    totals_row (self, 2 + k, class_names[k], d->class_ns[0][k], d->class_ns[1][k], TRUE);
  totals_row (self, 2 + IV_N_KCLASSES, _ ("Streams"), d->n_streams[0], d->n_streams[1], FALSE);
}

/* ---------- the table ---------- */

static void
fill_rows (IvTraceCompareView *self, const IvTraceDiff *d)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; d && i < d->entries->len; i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (d->entries, IvTraceDiffEntry, i);
      IvCompareRow *r = g_object_new (IV_TYPE_COMPARE_ROW, NULL);
      r->name = iv_text_valid (e->name, -1);
      r->key = e->path ? iv_text_valid (e->path, -1) : g_strdup (r->name);
      r->kind = e->kind;
      r->count[0] = e->count[0], r->count[1] = e->count[1];
      r->total_ns[0] = e->total_ns[0], r->total_ns[1] = e->total_ns[1];
      r->order = i;
      g_ptr_array_add (items, r);
    }
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
}

/* A CPU operator's callers, outermost first, without the operator itself; "" for others. */
static char *
row_callers (const IvCompareRow *r)
{
  const char *leaf = g_strrstr (r->key, IV_TRACE_DIFF_PATH_SEP);
  return leaf ? g_strndup (r->key, (gsize) (leaf - r->key)) : g_strdup ("");
}

static char *
cell_text (const IvCompareRow *r, const char *id)
{
  if (g_str_equal (id, "name"))
    return g_strdup (r->name);
  if (g_str_equal (id, "callers"))
    return row_callers (r);
  if (g_str_equal (id, "kind"))
    return g_strdup (kind_title (r->kind));
  if (g_str_equal (id, "count-a"))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, r->count[0]);
  if (g_str_equal (id, "count-b"))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, r->count[1]);
  if (g_str_equal (id, "time-a"))
    return iv_units_format_seconds (r->total_ns[0] * 1e-9);
  if (g_str_equal (id, "time-b"))
    return iv_units_format_seconds (r->total_ns[1] * 1e-9);
  if (g_str_equal (id, "delta"))
    {
      gint64 d = row_delta (r);
      g_autofree char *abs = iv_units_format_seconds (ABS (d) * 1e-9);
      return d == 0 ? g_strdup ("0") : g_strdup_printf ("%s%s", d > 0 ? "+" : "−", abs);
    }
  return g_strdup (row_change (r));
}

static void
setup_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer id)
{
  GtkWidget *l = gtk_label_new (NULL);
  gboolean text = g_str_equal (id, "name") || g_str_equal (id, "callers")
                  || g_str_equal (id, "kind") || g_str_equal (id, "change");

  gtk_label_set_xalign (GTK_LABEL (l), text ? 0 : 1);
  if (g_str_equal (id, "callers"))
    {
      /* the nearest caller says the most: the outermost give way first */
      gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_START);
      gtk_widget_add_css_class (l, "dim-label");
    }
  else if (g_str_equal (id, "name"))
    gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (l, "numeric");
  gtk_list_item_set_child (item, l);
}

static void
bind_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer id)
{
  IvCompareRow *r = gtk_list_item_get_item (item);
  GtkWidget *l = gtk_list_item_get_child (item);
  g_autofree char *text = cell_text (r, id);
  gint64 d = row_delta (r);

  gtk_label_set_text (GTK_LABEL (l), text);
  if (g_str_equal (id, "name") || g_str_equal (id, "callers"))
    gtk_widget_set_tooltip_text (l, r->key);
  /* slower in the warning colour, faster in the success colour: the sign is also written */
  gtk_widget_remove_css_class (l, "warning");
  gtk_widget_remove_css_class (l, "success");
  if (g_str_equal (id, "delta") && d != 0)
    gtk_widget_add_css_class (l, d > 0 ? "warning" : "success");
}

static int
compare_rows (gconstpointer pa, gconstpointer pb, gpointer id)
{
  const IvCompareRow *a = pa, *b = pb;
  int c = 0;

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))
  if (g_str_equal (id, "name"))
    c = g_utf8_collate (a->name, b->name) ? g_utf8_collate (a->name, b->name)
                                          : g_utf8_collate (a->key, b->key);
  else if (g_str_equal (id, "callers"))
    c = g_utf8_collate (a->key, b->key);
  else if (g_str_equal (id, "kind"))
    c = CMP (a->kind, b->kind);
  else if (g_str_equal (id, "count-a"))
    c = CMP (a->count[0], b->count[0]);
  else if (g_str_equal (id, "count-b"))
    c = CMP (a->count[1], b->count[1]);
  else if (g_str_equal (id, "time-a"))
    c = CMP (a->total_ns[0], b->total_ns[0]);
  else if (g_str_equal (id, "time-b"))
    c = CMP (a->total_ns[1], b->total_ns[1]);
  else if (g_str_equal (id, "delta"))
    c = CMP (row_delta (a), row_delta (b));
  else if (g_str_equal (id, "change"))
    c = g_strcmp0 (row_change (a), row_change (b));
  /* ties keep the diff's order (largest |Δ| first) */
  return c ? c : CMP (a->order, b->order);
#undef CMP
}

static void
add_column (IvTraceCompareView *self, const char *id, const char *title, int width)
{
  GtkListItemFactory *f = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;
  GtkSorter *sorter
      = GTK_SORTER (gtk_custom_sorter_new (compare_rows, (gpointer) g_intern_string (id), NULL));

  g_signal_connect (f, "setup", G_CALLBACK (setup_cell), (gpointer) g_intern_string (id));
  g_signal_connect (f, "bind", G_CALLBACK (bind_cell), (gpointer) g_intern_string (id));
  col = gtk_column_view_column_new (title, f);
  /* gtk_column_view_column_set_id is GTK 4.10 */
  g_object_set_data (G_OBJECT (col), "iv-id", (gpointer) g_intern_string (id));
  gtk_column_view_column_set_sorter (col, sorter);
  gtk_column_view_column_set_resizable (col, TRUE);
  /* the name takes what the fixed columns leave */
  gtk_column_view_column_set_expand (col, width < 0);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (col, width);
  gtk_column_view_append_column (self->table, col);
  g_object_unref (sorter);
  g_object_unref (col);
}

/* ---------- the timelines ---------- */

/* Moves the timeline @to so that it shows what @from shows, relative to the anchors. */
static void
follow (IvTraceCompareView *self, guint from)
{
  guint to = 1 - from;
  gint64 t0, t1, u0, u1;

  if (self->syncing || !trace_of (self, 0) || !trace_of (self, 1))
    return;
  self->syncing = TRUE;
  iv_timeline_view_get_range (self->timeline[from], &t0, &t1);
  iv_timeline_view_set_range (self->timeline[to], t0 - self->anchor[from] + self->anchor[to],
                              t1 - self->anchor[from] + self->anchor[to]);
  /* the other trace's extent may have cut it: then the first follows the second */
  iv_timeline_view_get_range (self->timeline[to], &u0, &u1);
  if (u0 - self->anchor[to] != t0 - self->anchor[from] || u1 - u0 != t1 - t0)
    iv_timeline_view_set_range (self->timeline[from], u0 - self->anchor[to] + self->anchor[from],
                                u1 - self->anchor[to] + self->anchor[from]);
  self->syncing = FALSE;
}

static void
on_range_a (IvTraceCompareView *self)
{
  follow (self, 0);
}

static void
on_range_b (IvTraceCompareView *self)
{
  follow (self, 1);
}

/* Both timelines at the anchors: the longer of the two steps (or works) in view, from a
 * little before its start. */
static void
align (IvTraceCompareView *self)
{
  gint64 span = 0;

  for (guint s = 0; s < 2; s++)
    {
      const IvTrace *t = trace_of (self, s);
      gint64 t0 = 0, t1 = 0;
      if (!t)
        return;
      if (self->step < 0 || !iv_trace_step_range (t, self->step, &t0, &t1))
        iv_trace_activity_range (t, &t0, &t1);
      self->anchor[s] = t0;
      span = MAX (span, t1 - t0);
    }
  span = MAX (span, 1000);
  iv_timeline_view_set_range (self->timeline[0], self->anchor[0] - span / 20,
                              self->anchor[0] - span / 20 + span + span / 10);
  follow (self, 0);
}

/* ---------- computing ---------- */

static void
set_status (IvTraceCompareView *self, const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status), text ? text : "");
}

static void
show_diff (IvTraceCompareView *self)
{
  IvChart *chart = self->diff ? iv_trace_chart_diff (self->diff, CHART_CHANGES) : NULL;

  fill_rows (self, self->diff);
  show_totals (self, self->diff);
  if (chart)
    iv_chart_view_set_chart (self->chart, chart, "trace-changes");
  gtk_widget_set_visible (GTK_WIDGET (self->chart), chart != NULL);
  gtk_widget_set_visible (self->no_changes, self->diff && !chart);
  if (self->diff)
    {
      g_autofree char *s
          = g_strdup_printf (_ ("%u names compared: %u new, %u gone. Δ: second minus first."),
                             self->diff->entries->len, self->diff->n_added, self->diff->n_removed);
      set_status (self, s);
    }
}

static void
on_diff (GObject *source, GAsyncResult *res, gpointer user_data)
{
  IvTraceCompareView *self = IV_TRACE_COMPARE_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (res));
  g_autoptr (GError) error = NULL;
  IvTraceDiff *d = g_task_propagate_pointer (G_TASK (res), &error);

  /* the documents are released here, on the main thread, never by the worker's last
   * reference to the task (a document's finalize frees its trace) */
  g_clear_object (&job->doc[0]);
  g_clear_object (&job->doc[1]);
  if (job->generation != self->generation)
    {
      g_clear_pointer (&d, iv_trace_diff_free);
      return;
    }
  self->busy = FALSE;
  g_clear_pointer (&self->diff, iv_trace_diff_free);
  self->diff = d;
  show_diff (self);
  if (!d)
    set_status (self, error->message);
}

static void
start (IvTraceCompareView *self)
{
  Job *job;

  self->generation++;
  g_clear_pointer (&self->diff, iv_trace_diff_free);
  show_diff (self);
  self->busy = FALSE;
  if (!trace_of (self, 0) || !trace_of (self, 1))
    return;
  job = g_new0 (Job, 1);
  job->a = trace_of (self, 0), job->b = trace_of (self, 1);
  job->doc[0] = g_object_ref (self->doc[0]), job->doc[1] = g_object_ref (self->doc[1]);
  job->step = self->step;
  job->generation = self->generation;
  /* a job's ranks each have their own GPU: busy is summed per rank, as `trace A B --diff` */
  for (int i = 0; i < 2; i++)
    job->flags[i] = iv_document_get_job (self->doc[i]) ? IV_STATS_PER_PROCESS : IV_STATS_DEFAULT;
  self->busy = TRUE;
  set_status (self, _ ("Comparing…"));
  iv_trace_page_run (self, job, (GDestroyNotify) job_free, diff_thread, on_diff);
}

static void
on_step_chosen (IvTraceCompareView *self)
{
  if (self->setting_steps || !self->common_steps)
    return;
  iv_trace_compare_view_set_step (
      self, iv_trace_page_chosen_step (GTK_DROP_DOWN (self->steps_dropdown), self->common_steps));
}

/* The steps both traces have, ascending. */
static GArray *
common_steps (const IvTrace *a, const IvTrace *b)
{
  g_autoptr (GArray) sa = iv_trace_profiler_steps (a);
  g_autoptr (GArray) sb = iv_trace_profiler_steps (b);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0, j = 0; i < sa->len && j < sb->len;)
    {
      gint64 x = g_array_index (sa, gint64, i), y = g_array_index (sb, gint64, j);
      if (x == y)
        g_array_append_val (out, x);
      i += x <= y, j += y <= x;
    }
  return out;
}

void
iv_trace_compare_view_set_documents (IvTraceCompareView *self, IvDocument *a, IvDocument *b)
{
  g_return_if_fail (IV_IS_TRACE_COMPARE_VIEW (self));
  g_set_object (&self->doc[0], a);
  g_set_object (&self->doc[1], b);
  self->step = -1;
  /* the timelines follow each other once both show their trace (align, below) */
  self->syncing = TRUE;
  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *title
          = g_strdup_printf (s == 0 ? _ ("First: %s") : _ ("Second: %s"),
                             self->doc[s] ? iv_document_get_title (self->doc[s]) : "–");
      iv_label_set_valid_text (GTK_LABEL (s == 0 ? self->title_a : self->title_b), title);
      iv_label_set_valid_text (GTK_LABEL (self->timeline_label[s]), title);
      iv_timeline_view_set_trace (self->timeline[s], trace_of (self, s),
                                  self->doc[s] ? G_OBJECT (self->doc[s]) : NULL);
    }
  self->syncing = FALSE;
  g_clear_pointer (&self->common_steps, g_array_unref);
  if (trace_of (self, 0) && trace_of (self, 1))
    self->common_steps = common_steps (trace_of (self, 0), trace_of (self, 1));
  iv_trace_page_set_steps (GTK_DROP_DOWN (self->steps_dropdown), self->common_steps,
                           _ ("Whole traces"), &self->setting_steps);
  align (self);
  start (self);
}

gboolean
iv_trace_compare_view_set_step (IvTraceCompareView *self, gint64 step)
{
  gint64 t0, t1;

  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), FALSE);
  if (!trace_of (self, 0) || !trace_of (self, 1))
    return FALSE;
  if (step >= 0
      && (!iv_trace_step_range (trace_of (self, 0), step, &t0, &t1)
          || !iv_trace_step_range (trace_of (self, 1), step, &t0, &t1)))
    return FALSE;
  iv_trace_page_select_step (GTK_DROP_DOWN (self->steps_dropdown), self->common_steps, step,
                             &self->setting_steps);
  if (step == self->step)
    return TRUE;
  self->step = step;
  align (self);
  start (self);
  return TRUE;
}

gboolean
iv_trace_compare_view_is_busy (IvTraceCompareView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), FALSE);
  return self->busy;
}

const IvTraceDiff *
iv_trace_compare_view_get_diff (IvTraceCompareView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), NULL);
  return self->busy ? NULL : self->diff;
}

guint
iv_trace_compare_view_get_n_rows (IvTraceCompareView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

char *
iv_trace_compare_view_row_text (IvTraceCompareView *self, guint position)
{
  g_autoptr (IvCompareRow) r = NULL;

  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), NULL);
  r = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  if (!r)
    return NULL;
  return g_strdup_printf ("%s | %s | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT
                          " | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT
                          " | %s",
                          iv_row_kind_key (r->kind), r->key, r->count[0], r->count[1],
                          r->total_ns[0], r->total_ns[1], row_delta (r), row_change (r));
}

void
iv_trace_compare_view_sort (IvTraceCompareView *self, const char *id, GtkSortType order)
{
  GListModel *columns;
  GtkColumnViewColumn *found = NULL;

  g_return_if_fail (IV_IS_TRACE_COMPARE_VIEW (self));
  columns = gtk_column_view_get_columns (self->table);
  for (guint i = 0; id && i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
      if (g_strcmp0 (g_object_get_data (G_OBJECT (c), "iv-id"), id) == 0)
        found = c;
    }
  gtk_column_view_sort_by_column (self->table, found, order);
}

char *
iv_trace_compare_view_totals_text (IvTraceCompareView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), NULL);
  return g_strdup (self->totals_text->str);
}

IvTimelineView *
iv_trace_compare_view_get_timeline (IvTraceCompareView *self, guint side)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self) && side < 2, NULL);
  return self->timeline[side];
}

gint64
iv_trace_compare_view_get_anchor (IvTraceCompareView *self, guint side)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self) && side < 2, 0);
  return self->anchor[side];
}

const IvFigure *
iv_trace_compare_view_get_figure (IvTraceCompareView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_COMPARE_VIEW (self), NULL);
  return !self->busy && self->diff && gtk_widget_get_visible (GTK_WIDGET (self->chart))
             ? iv_chart_view_get_figure (self->chart)
             : NULL;
}

void
iv_trace_compare_view_show_page (IvTraceCompareView *self, const char *name)
{
  g_return_if_fail (IV_IS_TRACE_COMPARE_VIEW (self));
  gtk_stack_set_visible_child_name (self->stack, name);
}

GtkWidget *
iv_trace_compare_view_new (void)
{
  return g_object_new (IV_TYPE_TRACE_COMPARE_VIEW, NULL);
}

static void
iv_trace_compare_view_dispose (GObject *object)
{
  IvTraceCompareView *self = IV_TRACE_COMPARE_VIEW (object);

  self->generation++;
  g_clear_object (&self->doc[0]);
  g_clear_object (&self->doc[1]);
  g_clear_pointer (&self->common_steps, g_array_unref);
  g_clear_pointer (&self->diff, iv_trace_diff_free);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->rows);
  G_OBJECT_CLASS (iv_trace_compare_view_parent_class)->dispose (object);
}

static void
iv_trace_compare_view_finalize (GObject *object)
{
  g_string_free (IV_TRACE_COMPARE_VIEW (object)->totals_text, TRUE);
  G_OBJECT_CLASS (iv_trace_compare_view_parent_class)->finalize (object);
}

static void
iv_trace_compare_view_class_init (IvTraceCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_trace_compare_view_dispose;
  object_class->finalize = iv_trace_compare_view_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static GtkWidget *
build_changes (IvTraceCompareView *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkSorter *sorter;
  GtkSelectionModel *selection;

  self->rows = g_list_store_new (IV_TYPE_COMPARE_ROW);
  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->table, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->table), "data-table");
  add_column (self, "name", _ ("Name"), -1);
  add_column (self, "callers", _ ("Called from"), 130);
  add_column (self, "kind", _ ("Kind"), 80);
  add_column (self, "count-a", _ ("Count 1st"), 72);
  add_column (self, "count-b", _ ("Count 2nd"), 76);
  add_column (self, "time-a", _ ("Time 1st"), 74);
  add_column (self, "time-b", _ ("Time 2nd"), 78);
  add_column (self, "delta", _ ("Δ time"), 80);
  add_column (self, "change", _ ("Change"), 62);
  sorter = gtk_column_view_get_sorter (self->table);
  self->sorted
      = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)), g_object_ref (sorter));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_column_view_set_model (self->table, selection);
  g_object_unref (selection);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->table));
  gtk_widget_set_size_request (scroller, 420, 200);

  self->totals = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->totals, 16);
  gtk_grid_set_row_spacing (self->totals, 2);
  self->chart = IV_CHART_VIEW (iv_chart_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->chart), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->chart), 300, 260);
  self->no_changes = gtk_label_new (_ ("No name's recorded time changed."));
  gtk_widget_add_css_class (self->no_changes, "dim-label");
  gtk_widget_set_visible (self->no_changes, FALSE);
  gtk_box_append (GTK_BOX (side), GTK_WIDGET (self->totals));
  gtk_box_append (GTK_BOX (side), GTK_WIDGET (self->chart));
  gtk_box_append (GTK_BOX (side), self->no_changes);
  gtk_widget_set_margin_start (side, 12);
  gtk_widget_set_margin_end (side, 12);
  gtk_widget_set_margin_top (side, 8);
  gtk_widget_set_margin_bottom (side, 8);

  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  gtk_paned_set_end_child (GTK_PANED (paned), side);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 900);
  return paned;
}

static GtkWidget *
build_timelines (IvTraceCompareView *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);

  for (guint s = 0; s < 2; s++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      self->timeline_label[s] = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (self->timeline_label[s]), 0);
      gtk_label_set_ellipsize (GTK_LABEL (self->timeline_label[s]), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (self->timeline_label[s], "heading");
      gtk_widget_set_margin_start (self->timeline_label[s], 12);
      gtk_widget_set_margin_top (self->timeline_label[s], 4);
      self->timeline[s] = IV_TIMELINE_VIEW (iv_timeline_view_new ());
      gtk_widget_set_vexpand (GTK_WIDGET (self->timeline[s]), TRUE);
      gtk_box_append (GTK_BOX (box), self->timeline_label[s]);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->timeline[s]));
      if (s == 0)
        gtk_paned_set_start_child (GTK_PANED (paned), box);
      else
        gtk_paned_set_end_child (GTK_PANED (paned), box);
    }
  g_signal_connect_swapped (iv_timeline_view_get_state (self->timeline[0]), "notify::start-ns",
                            G_CALLBACK (on_range_a), self);
  g_signal_connect_swapped (iv_timeline_view_get_state (self->timeline[0]), "notify::end-ns",
                            G_CALLBACK (on_range_a), self);
  g_signal_connect_swapped (iv_timeline_view_get_state (self->timeline[1]), "notify::start-ns",
                            G_CALLBACK (on_range_b), self);
  g_signal_connect_swapped (iv_timeline_view_get_state (self->timeline[1]), "notify::end-ns",
                            G_CALLBACK (on_range_b), self);
  return paned;
}

static void
iv_trace_compare_view_init (IvTraceCompareView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *step_label = gtk_label_new_with_mnemonic (_ ("_Step"));

  self->step = -1;
  self->totals_text = g_string_new (NULL);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->title_a = gtk_label_new (NULL);
  self->title_b = gtk_label_new (NULL);
  for (GtkWidget *l = self->title_a; l; l = l == self->title_a ? self->title_b : NULL)
    {
      gtk_label_set_xalign (GTK_LABEL (l), 0);
      gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_MIDDLE);
      gtk_box_append (GTK_BOX (titles), l);
    }
  gtk_widget_set_hexpand (titles, TRUE);
  self->steps_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_tooltip_text (self->steps_dropdown,
                               _ ("Compare one ProfilerStep of both (the same number) and align "
                                  "the timelines at its start"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (step_label), self->steps_dropdown);
  g_signal_connect_swapped (self->steps_dropdown, "notify::selected", G_CALLBACK (on_step_chosen),
                            self);
  self->status = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (self->status, 12);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_titled (self->stack, build_changes (self), "changes", _ ("Changes"));
  gtk_stack_add_titled (self->stack, build_timelines (self), "timelines", _ ("Timelines"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);

  gtk_box_append (GTK_BOX (bar), titles);
  gtk_box_append (GTK_BOX (bar), switcher);
  gtk_box_append (GTK_BOX (bar), step_label);
  gtk_box_append (GTK_BOX (bar), self->steps_dropdown);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 8);
  gtk_box_append (GTK_BOX (self->box), bar);
  gtk_box_append (GTK_BOX (self->box), self->status);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->stack));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

/* ---------- its window ---------- */

static void
on_export_clicked (GtkButton *button, GtkWindow *window)
{
  const IvFigure *figure
      = iv_trace_compare_view_get_figure (iv_trace_compare_window_get_view (window));
  if (figure)
    gtk_window_present (GTK_WINDOW (iv_export_dialog_new (window, figure)));
}

GtkWindow *
iv_trace_compare_window_new (GtkWindow *parent, IvDocument *a, IvDocument *b)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *title = adw_window_title_new (_ ("Compare Traces"), NULL);
  GtkWidget *export = gtk_button_new_from_icon_name ("document-save-as-symbolic");
  GtkWidget *view = iv_trace_compare_view_new ();
  g_autofree char *subtitle = NULL, *ta = NULL, *tb = NULL;

  ta = iv_text_valid (iv_document_get_title (a), -1);
  tb = iv_text_valid (iv_document_get_title (b), -1);
  subtitle = g_strdup_printf (_ ("%s → %s"), ta, tb);
  adw_window_title_set_subtitle (ADW_WINDOW_TITLE (title), subtitle);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_widget_set_tooltip_text (export, _ ("Export the Largest Changes…"));
  g_signal_connect (export, "clicked", G_CALLBACK (on_export_clicked), window);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), export);
  gtk_box_append (GTK_BOX (content), header);
  gtk_widget_set_vexpand (view, TRUE);
  gtk_box_append (GTK_BOX (content), view);
  adw_window_set_content (ADW_WINDOW (window), content);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (window), parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
      gtk_window_set_application (GTK_WINDOW (window), gtk_window_get_application (parent));
    }
  g_object_set_data (G_OBJECT (window), "iv-compare-view", view);
  iv_trace_compare_view_set_documents (IV_TRACE_COMPARE_VIEW (view), a, b);
  return GTK_WINDOW (window);
}

IvTraceCompareView *
iv_trace_compare_window_get_view (GtkWindow *window)
{
  return g_object_get_data (G_OBJECT (window), "iv-compare-view");
}
