/* iv-ranks-view.c: a distributed job's Ranks page and the bar over its timeline (see the
 * header). Every number is the job's (iv-trace-ranks.c), as `trace DIR --stats` prints
 * it; the figures are iv-rank-charts.c's, as `trace DIR -o FIGURE` draws them. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-ranks-view.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-chart-view.h"
#include "iv-document.h"
#include "iv-plain-text.h"
#include "iv-rank-charts.h"
#include "iv-safe-text.h"
#include "iv-units.h"
#include "iv-window.h"

/* ---------- the Ranks page ---------- */

struct _IvRanksView
{
  GtkWidget parent_instance;

  IvTraceJob *job;
  GObject *owner;
  GtkWidget *scroll;
  GtkWidget *grid;
  GtkWidget *note;
  IvChartView *bars, *heat;
  GtkWidget *heat_frame;
  IvChartGrid *export_grid;
  IvFigure figure;
  double *values;
  char **texts;
  guint n_rows;
};

G_DEFINE_FINAL_TYPE (IvRanksView, iv_ranks_view, GTK_TYPE_WIDGET)

static void
clear_cells (IvRanksView *self)
{
  for (guint i = 0; self->texts && i < self->n_rows * IV_RANKS_N_COLS; i++)
    g_free (self->texts[i]);
  g_clear_pointer (&self->texts, g_free);
  g_clear_pointer (&self->values, g_free);
  self->n_rows = 0;
}

static void
iv_ranks_view_dispose (GObject *object)
{
  IvRanksView *self = IV_RANKS_VIEW (object);

  g_clear_pointer (&self->scroll, gtk_widget_unparent);
  g_clear_pointer (&self->export_grid, iv_chart_grid_free);
  clear_cells (self);
  self->job = NULL;
  g_clear_object (&self->owner);
  G_OBJECT_CLASS (iv_ranks_view_parent_class)->dispose (object);
}

static void
iv_ranks_view_class_init (IvRanksViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = iv_ranks_view_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static GtkWidget *
framed (GtkWidget *child)
{
  GtkWidget *frame = gtk_frame_new (NULL);
  gtk_frame_set_child (GTK_FRAME (frame), child);
  gtk_widget_set_hexpand (frame, TRUE);
  gtk_widget_set_vexpand (frame, TRUE);
  return frame;
}

static void
iv_ranks_view_init (IvRanksView *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *charts = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  /* one scrolled page: a height given to it never asks its text for more width (a label
   * that wraps would want one line as wide as its text) */
  self->scroll = gtk_scrolled_window_new ();
  gtk_widget_set_parent (self->scroll, GTK_WIDGET (self));
  self->grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 4);
  gtk_widget_set_halign (self->grid, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->grid, 12);
  gtk_widget_set_margin_end (self->grid, 12);
  gtk_widget_set_margin_top (self->grid, 12);
  self->note = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->note), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_widget_add_css_class (self->note, "dim-label");
  gtk_widget_set_margin_start (self->note, 12);
  gtk_widget_set_margin_end (self->note, 12);
  self->bars = IV_CHART_VIEW (iv_chart_view_new ());
  self->heat = IV_CHART_VIEW (iv_chart_view_new ());
  gtk_box_append (GTK_BOX (charts), framed (GTK_WIDGET (self->bars)));
  self->heat_frame = framed (GTK_WIDGET (self->heat));
  gtk_box_append (GTK_BOX (charts), self->heat_frame);
  gtk_widget_set_margin_start (charts, 12);
  gtk_widget_set_margin_end (charts, 12);
  gtk_widget_set_margin_bottom (charts, 12);
  gtk_widget_set_margin_top (charts, 6);
  gtk_widget_set_size_request (charts, -1, 340);
  gtk_widget_set_vexpand (charts, TRUE);
  gtk_box_append (GTK_BOX (content), self->grid);
  gtk_box_append (GTK_BOX (content), self->note);
  gtk_box_append (GTK_BOX (content), charts);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroll), content);
  self->figure = (IvFigure){ iv_chart_grid_render, NULL, "ranks", G_OBJECT (self) };
}

GtkWidget *
iv_ranks_view_new (void)
{
  return g_object_new (IV_TYPE_RANKS_VIEW, NULL);
}

static const char *const column_titles[IV_RANKS_N_COLS] = {
  N_ ("Rank"),          N_ ("Span"),        N_ ("Compute"),       N_ ("%"),
  N_ ("Non-compute"),   N_ ("%"),           N_ ("Idle"),          N_ ("%"),
  N_ ("Comm. overlap"), N_ ("Wait caused"), N_ ("Wait suffered"),
};

static const char *const column_tips[IV_RANKS_N_COLS] = {
  NULL,
  N_ ("First GPU kernel's start to the last one's end, all streams (HTA's temporal breakdown)"),
  N_ ("Time computation kernels run"),
  NULL,
  N_ ("Time other kernels (communication, memory) run and no computation"),
  NULL,
  N_ ("Time no kernel runs"),
  NULL,
  N_ ("Of the communication kernels' time, the part computation kernels also cover "
      "(HTA's get_comm_comp_overlap)"),
  N_ ("The other ranks' wait at the collectives this rank arrived at last"),
  N_ ("This rank's wait for the last rank, over every collective"),
};

static double
pct (gint64 part, gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : NAN;
}

static void
set_cell (IvRanksView *self, guint row, IvRanksColumn col, double value, gboolean seconds)
{
  gsize at = (gsize) row * IV_RANKS_N_COLS + col;
  self->values[at] = value;
  if (isnan (value))
    self->texts[at] = g_strdup ("—");
  else if (col == IV_RANKS_COL_RANK)
    self->texts[at] = g_strdup_printf ("%.0f", value);
  else if (seconds)
    self->texts[at] = iv_units_format_seconds (value);
  else
    self->texts[at] = g_strdup_printf ("%.1f %%", value);
}

static void
fill_table (IvRanksView *self)
{
  GtkWidget *child;
  const IvTraceRanks *job = self->job ? self->job->ranks : NULL;

  while ((child = gtk_widget_get_first_child (self->grid)))
    gtk_grid_remove (GTK_GRID (self->grid), child);
  clear_cells (self);
  if (!job)
    return;
  self->n_rows = job->ranks->len;
  self->values = g_new (double, (gsize) self->n_rows *IV_RANKS_N_COLS);
  self->texts = g_new0 (char *, (gsize) self->n_rows *IV_RANKS_N_COLS);
  for (guint c = 0; c < IV_RANKS_N_COLS; c++)
    {
      GtkWidget *h = gtk_label_new (_ (column_titles[c]));
      gtk_label_set_xalign (GTK_LABEL (h), c == IV_RANKS_COL_RANK ? 0 : 1);
      gtk_widget_add_css_class (h, "heading");
      if (column_tips[c])
        gtk_widget_set_tooltip_text (h, _ (column_tips[c]));
      gtk_grid_attach (GTK_GRID (self->grid), h, (int) c, 0, 1, 1);
    }
  for (guint i = 0; i < self->n_rows; i++)
    {
      const IvRank *rk = job->ranks->pdata[i];
      const IvRankTemporal *tb = &rk->temporal;
      set_cell (self, i, IV_RANKS_COL_RANK, rk->rank, FALSE);
      set_cell (self, i, IV_RANKS_COL_SPAN, tb->kernel_time_ns * 1e-9, TRUE);
      set_cell (self, i, IV_RANKS_COL_COMPUTE, tb->compute_ns * 1e-9, TRUE);
      set_cell (self, i, IV_RANKS_COL_COMPUTE_PCT, pct (tb->compute_ns, tb->kernel_time_ns), FALSE);
      set_cell (self, i, IV_RANKS_COL_NON_COMPUTE, tb->non_compute_ns * 1e-9, TRUE);
      set_cell (self, i, IV_RANKS_COL_NON_COMPUTE_PCT, pct (tb->non_compute_ns, tb->kernel_time_ns),
                FALSE);
      set_cell (self, i, IV_RANKS_COL_IDLE, tb->idle_ns * 1e-9, TRUE);
      set_cell (self, i, IV_RANKS_COL_IDLE_PCT, pct (tb->idle_ns, tb->kernel_time_ns), FALSE);
      set_cell (self, i, IV_RANKS_COL_OVERLAP_PCT, pct (rk->comm_overlapped_ns, rk->comm_ns),
                FALSE);
      /* the waits only on one clock: without it they would be the clocks' difference */
      set_cell (self, i, IV_RANKS_COL_CAUSED, job->stragglers ? rk->caused_ns * 1e-9 : NAN, TRUE);
      set_cell (self, i, IV_RANKS_COL_WAITED, job->stragglers ? rk->waited_ns * 1e-9 : NAN, TRUE);
      for (guint c = 0; c < IV_RANKS_N_COLS; c++)
        {
          GtkWidget *l = gtk_label_new (self->texts[(gsize) i * IV_RANKS_N_COLS + c]);
          gtk_label_set_xalign (GTK_LABEL (l), c == IV_RANKS_COL_RANK ? 0 : 1);
          gtk_widget_add_css_class (l, "numeric");
          gtk_grid_attach (GTK_GRID (self->grid), l, (int) c, (int) i + 1, 1, 1);
        }
    }
}

void
iv_ranks_view_update (IvRanksView *self)
{
  const IvTraceRanks *job;
  IvChart *heat;
  g_autofree char *note = NULL;

  g_return_if_fail (IV_IS_RANKS_VIEW (self));
  fill_table (self);
  g_clear_pointer (&self->export_grid, iv_chart_grid_free);
  self->figure.data = NULL;
  if (!self->job)
    {
      iv_chart_view_set_chart (self->bars, NULL, "ranks");
      iv_chart_view_set_chart (self->heat, NULL, "stragglers");
      return;
    }
  job = self->job->ranks;
  iv_chart_view_set_chart (self->bars, iv_rank_chart_breakdown (job), "rank-breakdown");
  heat = iv_rank_chart_stragglers (job);
  gtk_widget_set_visible (self->heat_frame, heat != NULL);
  iv_chart_view_set_chart (self->heat, heat, "stragglers");
  self->export_grid = iv_rank_charts_grid (job);
  self->figure.data = self->export_grid;
  note = g_strdup_printf (
      job->stragglers
          ? _ ("%u ranks (world size %d%s%s) · %u collective instances matched across ranks. Wait: "
               "from a rank's start of a collective to the last rank's start (HTA's straggler "
               "metric).")
          : _ ("%u ranks (world size %d%s%s) · %u collective instances. The ranks share no "
               "clock: turn on Align on collectives to measure the waits."),
      job->ranks->len, job->world_size, job->backend ? ", " : "", job->backend ? job->backend : "",
      job->instances->len);
  iv_label_set_valid_text (GTK_LABEL (self->note), note);
}

void
iv_ranks_view_set_job (IvRanksView *self, IvTraceJob *job, GObject *owner)
{
  g_return_if_fail (IV_IS_RANKS_VIEW (self));
  g_set_object (&self->owner, owner);
  self->job = job;
  iv_ranks_view_update (self);
}

guint
iv_ranks_view_get_n_rows (IvRanksView *self)
{
  g_return_val_if_fail (IV_IS_RANKS_VIEW (self), 0);
  return self->n_rows;
}

double
iv_ranks_view_get_value (IvRanksView *self, guint row, IvRanksColumn column)
{
  g_return_val_if_fail (IV_IS_RANKS_VIEW (self), NAN);
  if (row >= self->n_rows || column >= IV_RANKS_N_COLS)
    return NAN;
  return self->values[(gsize) row * IV_RANKS_N_COLS + column];
}

const char *
iv_ranks_view_get_text (IvRanksView *self, guint row, IvRanksColumn column)
{
  g_return_val_if_fail (IV_IS_RANKS_VIEW (self), NULL);
  if (row >= self->n_rows || column >= IV_RANKS_N_COLS)
    return NULL;
  return self->texts[(gsize) row * IV_RANKS_N_COLS + column];
}

const IvFigure *
iv_ranks_view_get_figure (IvRanksView *self)
{
  g_return_val_if_fail (IV_IS_RANKS_VIEW (self), NULL);
  return self->figure.data ? &self->figure : NULL;
}

/* ---------- the bar over the job's timeline ---------- */

struct _IvJobBar
{
  GtkWidget parent_instance;

  IvTraceJob *job;
  GObject *owner;
  IvTimelineView *timeline;
  IvRanksView *ranks;
  GByteArray *hidden; /* per rank index (= process of the joined trace) */
  GtkWidget *box;
  GtkWidget *ranks_button;
  GtkWidget *checks_box;
  GPtrArray *checks; /* GtkCheckButton*, per rank index */
  GtkWidget *align;
  GtkWidget *offsets;
  GtkWidget *link;
  gboolean updating;
  GCancellable *realign; /* the job being built on the other clock, or NULL */
};

G_DEFINE_FINAL_TYPE (IvJobBar, iv_job_bar, GTK_TYPE_WIDGET)

static void
iv_job_bar_dispose (GObject *object)
{
  IvJobBar *self = IV_JOB_BAR (object);

  if (self->timeline)
    iv_timeline_view_set_link_func (self->timeline, NULL, NULL);
  if (self->realign)
    g_cancellable_cancel (self->realign);
  g_clear_object (&self->realign);
  g_clear_object (&self->timeline);
  g_clear_object (&self->ranks);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->hidden, g_byte_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  self->job = NULL;
  g_clear_object (&self->owner);
  G_OBJECT_CLASS (iv_job_bar_parent_class)->dispose (object);
}

static void
iv_job_bar_class_init (IvJobBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = iv_job_bar_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static char *
signed_seconds (gint64 ns)
{
  g_autofree char *t = iv_units_format_seconds (fabs ((double) ns) * 1e-9);
  return g_strdup_printf ("%s%s", ns < 0 ? "−" : "+", t);
}

static void
update_offsets (IvJobBar *self)
{
  const IvTraceRanks *job = self->job ? self->job->ranks : NULL;
  g_autoptr (GString) s = g_string_new (NULL);

  if (!job)
    return;
  if (job->aligned)
    {
      /* the reference is the rank that moved by nothing: the first with collectives */
      g_string_append (s, _ ("Aligned on collectives:"));
      for (guint i = 0; i < job->ranks->len; i++)
        {
          const IvRank *rk = job->ranks->pdata[i];
          g_autofree char *d = signed_seconds (rk->align_ns);
          g_string_append_printf (s, "%s rank %d %s", i ? "," : "", rk->rank, d);
        }
    }
  else if (job->clock == IV_RANKS_CLOCK_WALL)
    g_string_append (s, _ ("On the wall clock the traces share"));
  else
    g_string_append (s, _ ("Each rank on its own clock: the traces share no wall clock"));
  iv_label_set_valid_text (GTK_LABEL (self->offsets), s->str);
  gtk_widget_set_tooltip_text (self->offsets, s->str);
}

static void
update_ranks_label (IvJobBar *self)
{
  guint shown = 0, n = self->hidden ? self->hidden->len : 0;
  g_autofree char *label = NULL;

  for (guint i = 0; i < n; i++)
    shown += !self->hidden->data[i];
  label = shown == n ? g_strdup_printf (_ ("All %u Ranks"), n)
                     : g_strdup_printf (_ ("%u of %u Ranks"), shown, n);
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->ranks_button), label);
}

/* The kin of a collective kernel: the same instance on every rank, and a sentence on who
 * arrived last and how long this rank waited. */
static char *
link_collective (gsize slice, GArray *out, gpointer data)
{
  IvJobBar *self = data;
  const IvTraceRanks *job;
  const IvCollectiveInstance *ci;
  guint inst, r;
  g_autofree char *wait = NULL, *short_text = NULL;
  char *text;

  if (!self->job || (inst = iv_trace_job_instance_of (self->job, slice)) == G_MAXUINT)
    return NULL;
  job = self->job->ranks;
  ci = &g_array_index (job->instances, IvCollectiveInstance, inst);
  r = iv_trace_job_rank_of (self->job, slice);
  for (guint i = 0; i < job->ranks->len; i++)
    {
      gsize s = iv_trace_job_instance_slice (self->job, inst, i);
      if (s != G_MAXSIZE)
        g_array_append_val (out, s);
    }
  if (!job->stragglers || ci->n_present < 2)
    {
      text = g_strdup_printf (_ ("collective #%" G_GUINT64_FORMAT " of its kind, on %u ranks"),
                              ci->ordinal + 1, ci->n_present);
      short_text = g_strdup_printf (_ ("Collective #%" G_GUINT64_FORMAT " on %u ranks"),
                                    ci->ordinal + 1, ci->n_present);
    }
  else
    {
      int last = ((IvRank *) job->ranks->pdata[ci->last])->rank;
      int self_rank = ((IvRank *) job->ranks->pdata[r])->rank;
      wait = iv_units_format_seconds (ci->wait_ns[r] * 1e-9);
      text = g_strdup_printf (_ ("collective #%" G_GUINT64_FORMAT
                                 " of its kind, on %u ranks · rank %d arrived last "
                                 "· rank %d waited %s"),
                              ci->ordinal + 1, ci->n_present, last, self_rank, wait);
      /* the bar's line, short enough to stay whole beside the offsets */
      short_text = g_strdup_printf (_ ("Collective #%" G_GUINT64_FORMAT ": rank %d arrived "
                                       "last, rank %d waited %s"),
                                    ci->ordinal + 1, last, self_rank, wait);
    }
  iv_label_set_valid_text (GTK_LABEL (self->link), short_text);
  return text;
}

static void
on_check (GtkCheckButton *check, IvJobBar *self)
{
  guint i;

  if (self->updating || !self->checks || !g_ptr_array_find (self->checks, check, &i))
    return;
  iv_job_bar_set_rank_visible (self, i, gtk_check_button_get_active (check));
}

static void
on_align (GtkCheckButton *check, IvJobBar *self)
{
  if (!self->updating)
    iv_job_bar_set_aligned (self, gtk_check_button_get_active (check));
}

static void
on_show_all (GtkButton *button, IvJobBar *self)
{
  for (guint i = 0; self->hidden && i < self->hidden->len; i++)
    iv_job_bar_set_rank_visible (self, i, TRUE);
}

static void
iv_job_bar_init (IvJobBar *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *pop_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *all = gtk_button_new_with_mnemonic (_ ("Show _All"));

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);
  self->ranks_button = gtk_menu_button_new ();
  gtk_widget_set_tooltip_text (self->ranks_button, _ ("Which ranks the timeline shows"));
  self->checks_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), self->checks_box);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroll), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroll), 360);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_box_append (GTK_BOX (pop_box), scroll);
  g_signal_connect (all, "clicked", G_CALLBACK (on_show_all), self);
  gtk_box_append (GTK_BOX (pop_box), all);
  gtk_popover_set_child (GTK_POPOVER (popover), pop_box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->ranks_button), popover);
  self->align = gtk_check_button_new_with_mnemonic (_ ("A_lign on Collectives"));
  gtk_widget_set_tooltip_text (
      self->align, _ ("Shift each rank so the n-th instance of a collective ends together on "
                      "every rank (the median over the instances shared with the reference rank)"));
  g_signal_connect (self->align, "toggled", G_CALLBACK (on_align), self);
  self->offsets = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->offsets), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (self->offsets), 0);
  gtk_widget_add_css_class (self->offsets, "dim-label");
  gtk_widget_set_hexpand (self->offsets, TRUE);
  self->link = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->link), PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (GTK_LABEL (self->link), 1);
  gtk_widget_set_tooltip_text (self->link, _ ("The collective last hovered or selected"));
  gtk_box_append (GTK_BOX (self->box), self->ranks_button);
  gtk_box_append (GTK_BOX (self->box), self->align);
  gtk_box_append (GTK_BOX (self->box), self->offsets);
  gtk_box_append (GTK_BOX (self->box), self->link);
}

GtkWidget *
iv_job_bar_new (void)
{
  return g_object_new (IV_TYPE_JOB_BAR, NULL);
}

void
iv_job_bar_set_job (IvJobBar *self, IvTraceJob *job, GObject *owner, IvTimelineView *timeline,
                    IvRanksView *ranks)
{
  GtkWidget *child;

  g_return_if_fail (IV_IS_JOB_BAR (self));
  /* another document shown: the job on the other clock would be for the one before */
  if (self->realign)
    g_cancellable_cancel (self->realign);
  g_clear_object (&self->realign);
  if (self->timeline)
    {
      iv_timeline_view_set_link_func (self->timeline, NULL, NULL);
      iv_timeline_view_set_hidden (self->timeline, NULL);
      iv_timeline_view_set_name (self->timeline, NULL);
    }
  g_set_object (&self->timeline, timeline);
  g_set_object (&self->ranks, ranks);
  g_set_object (&self->owner, owner);
  self->job = job;
  g_clear_pointer (&self->hidden, g_byte_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  while ((child = gtk_widget_get_first_child (self->checks_box)))
    gtk_box_remove (GTK_BOX (self->checks_box), child);
  gtk_label_set_text (GTK_LABEL (self->link), "");
  if (!job)
    return;
  self->hidden = g_byte_array_new ();
  g_byte_array_set_size (self->hidden, job->ranks->ranks->len);
  memset (self->hidden->data, 0, self->hidden->len);
  self->checks = g_ptr_array_new ();
  for (guint i = 0; i < job->ranks->ranks->len; i++)
    {
      const IvRank *rk = job->ranks->ranks->pdata[i];
      const IvProcess *p = job->trace->processes->pdata[i];
      g_autofree char *label = g_strdup_printf (_ ("rank %d"), rk->rank);
      GtkWidget *check = gtk_check_button_new_with_label (label);
      g_autofree char *tip = iv_text_valid (p->labels ? p->labels : "", -1);
      gtk_widget_set_tooltip_text (check, tip);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
      g_signal_connect (check, "toggled", G_CALLBACK (on_check), self);
      gtk_box_append (GTK_BOX (self->checks_box), check);
      g_ptr_array_add (self->checks, check);
    }
  self->updating = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->align), job->ranks->aligned);
  self->updating = FALSE;
  {
    /* toggles again once this job is shown */
    gboolean any = FALSE;
    for (guint i = 0; i < job->ranks->ranks->len; i++)
      any = any || ((IvRank *) job->ranks->ranks->pdata[i])->collectives->len > 0;
    gtk_widget_set_sensitive (self->align, any);
  }
  iv_timeline_view_set_hidden (timeline, self->hidden);
  iv_timeline_view_set_link_func (timeline, link_collective, self);
  /* the job's title: its document's ("4 ranks · run-7", or the folder) */
  if (IV_IS_DOCUMENT (owner))
    iv_timeline_view_set_name (timeline, iv_document_get_title (IV_DOCUMENT (owner)));
  update_ranks_label (self);
  update_offsets (self);
}

void
iv_job_bar_set_rank_visible (IvJobBar *self, guint rank, gboolean visible)
{
  g_return_if_fail (IV_IS_JOB_BAR (self));
  if (!self->hidden || rank >= self->hidden->len
      || (self->hidden->data[rank] == 0) == (visible != FALSE))
    return;
  self->hidden->data[rank] = !visible;
  self->updating = TRUE;
  gtk_check_button_set_active (self->checks->pdata[rank], visible);
  self->updating = FALSE;
  iv_timeline_view_set_hidden (self->timeline, self->hidden);
  update_ranks_label (self);
}

/* What the user looked at, kept across the job's replacement by itself on another clock
 * (slices keep their indices there). */
typedef struct
{
  GByteArray *hidden;
  gsize selected;
  gint64 t0_ns, t1_ns;
  char *page; /* the workspace's page (Timeline, Ranks, …) */
} ViewState;

static void
restore_view (IvJobBar *self, const IvTraceJob *old, ViewState *v)
{
  const IvTraceRanks *ranks = self->job->ranks;
  guint n = ranks->ranks->len, anchor = 0;
  gint64 d;

  for (guint r = 0; v->hidden && r < v->hidden->len && r < n; r++)
    iv_job_bar_set_rank_visible (self, r, !v->hidden->data[r]);
  /* the view moves with the rank of the selection (so it stays on the same instance),
   * or else with the first rank shown */
  if (v->selected < self->job->trace->n_slices)
    anchor = iv_trace_job_rank_of (self->job, v->selected);
  else
    while (anchor + 1 < n && v->hidden && anchor < v->hidden->len && v->hidden->data[anchor])
      anchor++;
  d = ((IvRank *) ranks->ranks->pdata[anchor])->offset_ns
      - ((IvRank *) old->ranks->ranks->pdata[anchor])->offset_ns;
  if (v->selected < self->job->trace->n_slices)
    iv_timeline_view_select (self->timeline, v->selected);
  if (v->t1_ns > v->t0_ns)
    iv_timeline_view_set_range (self->timeline, iv_trace_add_ns (v->t0_ns, d),
                                iv_trace_add_ns (v->t1_ns, d));
  if (v->page && self->ranks && GTK_IS_STACK (gtk_widget_get_parent (GTK_WIDGET (self->ranks))))
    gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (self->ranks))),
                                      v->page);
}

/* The toggle and the offsets as the job shown has them. */
static void
show_clock (IvJobBar *self)
{
  self->updating = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->align), self->job->ranks->aligned);
  self->updating = FALSE;
  update_offsets (self);
}

static void
on_realigned (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (IvJobBar) self = data;
  g_autoptr (IvDocument) doc = IV_DOCUMENT (source); /* the bar's, from iv_job_bar_set_aligned */
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) old_doc = NULL;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  gboolean ok = iv_document_load_finish (doc, result, &error);
  ViewState v = { NULL, G_MAXSIZE, 0, 0, NULL };
  IvTraceJob *old;

  /* another document is shown, or the bar went: nothing to replace */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != self->realign || !self->job)
    return;
  g_clear_object (&self->realign);
  gtk_widget_set_sensitive (self->align, TRUE);
  if (!ok || !IV_IS_WINDOW (root))
    {
      show_clock (self);
      if (error && IV_IS_WINDOW (root))
        iv_window_toast (IV_WINDOW (root), error->message);
      return;
    }
  old_doc = g_object_ref (self->owner);
  old = self->job; /* alive while old_doc is */
  v.hidden = self->hidden ? g_byte_array_ref (self->hidden) : NULL;
  v.selected = iv_timeline_view_get_selected (self->timeline);
  iv_timeline_view_get_range (self->timeline, &v.t0_ns, &v.t1_ns);
  if (self->ranks && GTK_IS_STACK (gtk_widget_get_parent (GTK_WIDGET (self->ranks))))
    v.page = g_strdup (gtk_stack_get_visible_child_name (
        GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (self->ranks)))));
  /* the window shows the new document where the old was: every page takes the new trace
   * (and starts its work again), the old goes once nothing reads it */
  if (!iv_window_replace_document (IV_WINDOW (root), IV_DOCUMENT (old_doc), doc))
    show_clock (self); /* not the window's: the job shown stays */
  else if (self->job == iv_document_get_job (doc))
    restore_view (self, old, &v);
  g_clear_pointer (&v.hidden, g_byte_array_unref);
  g_free (v.page);
}

void
iv_job_bar_set_aligned (IvJobBar *self, gboolean aligned)
{
  IvDocument *doc;

  g_return_if_fail (IV_IS_JOB_BAR (self));
  if (!self->job || self->realign || self->job->ranks->aligned == aligned
      || !IV_IS_DOCUMENT (self->owner))
    return;
  self->updating = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->align), aligned);
  self->updating = FALSE;
  /* The slices move: a new job is built on a worker from this one (which the other pages
   * and their workers may be reading, so it is never shifted in place) and the window
   * shows it in this one's place. */
  gtk_widget_set_sensitive (self->align, FALSE);
  iv_label_set_valid_text (GTK_LABEL (self->offsets),
                           aligned ? _ ("Aligning the ranks on their collectives…")
                                   : _ ("Putting the ranks back on their clocks…"));
  self->realign = g_cancellable_new ();
  doc = iv_document_new_realigned (IV_DOCUMENT (self->owner), aligned);
  iv_document_load_async (doc, self->realign, on_realigned, g_object_ref (self));
}

gboolean
iv_job_bar_is_realigning (IvJobBar *self)
{
  g_return_val_if_fail (IV_IS_JOB_BAR (self), FALSE);
  return self->realign != NULL;
}

const char *
iv_job_bar_get_offsets_text (IvJobBar *self)
{
  g_return_val_if_fail (IV_IS_JOB_BAR (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->offsets));
}
