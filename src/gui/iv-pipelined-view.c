/* iv-pipelined-view.c: the pipelined I/O timeline in the Traces workspace. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-pipelined-view.h"
#include "iv-tooltip.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-plain-text.h"
#include "iv-units.h"

struct _IvPipelinedView
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkWidget *area;
  GtkSpinButton *first;
  GtkDropDown *bd_choice;
  GtkStringList *bd_names;
  GtkLabel *error_label;
  GtkLabel *details;
  GtkGrid *candidates;

  GPtrArray *choices;  /* IvBreakdownFile*, parallel to bd_names after its "None" */
  GCancellable *loads; /* breakdowns being read for the trace shown */
  /* The spin buttons are set from the plot (its range, a window that had to shrink);
   * their value-changed must then not rebuild the plot a second time. */
  gboolean updating;

  const IvTrace *trace;
  GObject *owner;
  IvPipelinePlot *plot;
  const IvBreakdown *breakdown; /* one of choices' */
  IvPipelinedFigure fig;
  IvPipelinedLayout layout; /* of the last frame, for hit testing */
  IvFigure figure;
};

G_DEFINE_FINAL_TYPE (IvPipelinedView, iv_pipelined_view, GTK_TYPE_WIDGET)

static void
show_error (IvPipelinedView *self, const char *message)
{
  iv_label_set_valid_text (self->error_label, message); /* names a file of the user's */
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  IvPipelinedView *self = data;
  AdwStyleManager *style = adw_style_manager_get_default ();
  IvRenderOptions ro = { adw_style_manager_get_dark (style) ? IV_THEME_DARK : IV_THEME_LIGHT, 1.0 };

  if (!self->plot)
    return;
  iv_pipelined_layout (&self->fig, width, height, &self->layout);
  iv_render_pipelined (cr, &self->fig, &ro, width, height, NULL);
}

static char *
ms_text (gint64 ns)
{
  return iv_units_format_seconds (ns * 1e-9);
}

static const IvCandidate *
find_candidate (const IvTrace *t, gint64 id)
{
  for (guint i = 0; t->candidates && i < t->candidates->len; i++)
    if (g_array_index (t->candidates, IvCandidate, i).id == id)
      return &g_array_index (t->candidates, IvCandidate, i);
  return NULL;
}

static char *
describe_bar (IvPipelinedView *self, const IvPipelineBar *b)
{
  const IvPipelinePlot *p = self->plot;
  GString *s = g_string_new (NULL);
  g_autofree char *start = ms_text (b->start_ns - p->t0_ns);
  g_autofree char *end = ms_text (b->end_ns - p->t0_ns);
  g_autofree char *dur = ms_text (b->end_ns - b->start_ns);
  g_autofree char *name = iv_markup_from_text (b->name); /* details are markup */

  if (b->candidate >= 0)
    g_string_append_printf (s, _ ("<b>%s</b> · candidate %" G_GINT64_FORMAT "\n"), name,
                            b->candidate);
  else
    g_string_append_printf (s, "<b>%s</b>\n", name);
  g_string_append_printf (s, _ ("%s · from %s to %s · %s"), iv_lane_name (b->lane, p->legacy),
                          start, end, dur);
  if (b->cut_left || b->cut_right)
    g_string_append (s, _ (" · runs past the window"));
  g_string_append_c (s, '\n');
  switch (b->kind)
    {
    case IV_BAR_MERGED_IO:
      g_string_append_printf (
          s,
          g_dngettext (NULL,
                       "%u I/O event of the candidate, drawn as one bar "
                       "from the end of its GPU buffer wait to the end of its last read.",
                       "%u I/O events of the candidate, drawn as one bar from the end "
                       "of its GPU buffer wait to the end of its last read.",
                       b->n_events),
          b->n_events);
      {
        const IvCandidate *c = self->trace ? find_candidate (self->trace, b->candidate) : NULL;
        if (c && c->io_start_ns >= 0)
          {
            g_autofree char *hidden = ms_text (c->io_hidden_ns),
                            *exposed = ms_text (c->io_exposed_ns);
            g_string_append_printf (s, _ (" %s of it under GPU compute, %s exposed."), hidden,
                                    exposed);
          }
      }
      break;
    case IV_BAR_FILLED:
      g_string_append (
          s, _ ("Not in the file: no main-thread event of this candidate covers the gap "
                "between the end of its I/O and the start of its GPU compute, so the gap is "
                "drawn as await_dispatch (gaps of 1 ms or more)."));
      break;
    case IV_BAR_EVENT:
      if (b->slice != G_MAXSIZE && self->trace)
        {
          g_autofree char *args = iv_trace_slice_args (self->trace, b->slice, NULL);
          if (args && *args && !g_str_equal (args, "{}"))
            {
              g_autofree char *escaped = iv_markup_from_text (args); /* the file's bytes */
              g_string_append_printf (s, _ ("Arguments: <tt>%s</tt>"), escaped);
            }
        }
      break;
    }
  return g_string_free (s, FALSE);
}

void
iv_pipelined_view_select (IvPipelinedView *self, guint index)
{
  g_return_if_fail (IV_IS_PIPELINED_VIEW (self));
  if (!self->plot || index >= self->plot->bars->len)
    index = G_MAXUINT;
  self->fig.highlighted = index;
  if (index == G_MAXUINT)
    gtk_label_set_markup (self->details, _ ("Click a bar for its details."));
  else
    {
      g_autofree char *text
          = describe_bar (self, &g_array_index (self->plot->bars, IvPipelineBar, index));
      gtk_label_set_markup (self->details, text);
    }
  gtk_widget_queue_draw (self->area);
}

const char *
iv_pipelined_view_get_details (IvPipelinedView *self)
{
  g_return_val_if_fail (IV_IS_PIPELINED_VIEW (self), NULL);
  return gtk_label_get_text (self->details);
}

/* Per candidate of the window: where its I/O went. */
static void
fill_candidates (IvPipelinedView *self)
{
  GtkWidget *child;
  static const char *const heads[]
      = { N_ ("Candidate"), N_ ("I/O"), N_ ("Under compute"), N_ ("Exposed"), N_ ("GPU compute") };
  int row = 1;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->candidates))))
    gtk_grid_remove (self->candidates, child);
  if (!self->plot || self->plot->legacy || !self->trace)
    return;
  for (int c = 0; c < (int) G_N_ELEMENTS (heads); c++)
    {
      GtkWidget *l = gtk_label_new (_ (heads[c]));
      gtk_label_set_xalign (GTK_LABEL (l), c ? 1 : 0);
      gtk_widget_add_css_class (l, "heading");
      gtk_grid_attach (self->candidates, l, c, 0, 1, 1);
    }
  /* the candidates the window is made for: x…x+3 */
  for (gint64 id = self->plot->first_candidate; id <= self->plot->first_candidate + 3; id++)
    {
      const IvCandidate *c = find_candidate (self->trace, id);
      g_autofree char *name = g_strdup_printf ("%" G_GINT64_FORMAT, id);
      g_autofree char *io = NULL, *hidden = NULL, *exposed = NULL, *gpu = NULL;
      const char *cells[5];

      if (!c)
        continue;
      io = c->io_start_ns >= 0 ? ms_text (c->io_end_ns - c->io_start_ns) : g_strdup ("–");
      hidden = c->io_start_ns >= 0 ? ms_text (c->io_hidden_ns) : g_strdup ("–");
      exposed = c->io_start_ns >= 0 ? ms_text (c->io_exposed_ns) : g_strdup ("–");
      gpu = c->gpu_start_ns >= 0 ? ms_text (c->gpu_end_ns - c->gpu_start_ns) : g_strdup ("–");
      cells[0] = name, cells[1] = io, cells[2] = hidden, cells[3] = exposed, cells[4] = gpu;
      for (int k = 0; k < 5; k++)
        {
          GtkWidget *l = gtk_label_new (cells[k]);
          gtk_label_set_xalign (GTK_LABEL (l), k ? 1 : 0);
          gtk_widget_add_css_class (l, "numeric");
          gtk_grid_attach (self->candidates, l, k, row, 1, 1);
        }
      row++;
    }
}

static void
sync_controls (IvPipelinedView *self)
{
  const IvPipelinePlot *p = self->plot;
  gboolean choose = p && !p->legacy && p->min_candidate <= p->max_candidate;

  self->updating = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->first), choose);
  if (choose)
    {
      gtk_spin_button_set_range (self->first, MIN (p->min_candidate, p->first_candidate),
                                 MAX (p->max_candidate, p->first_candidate));
      gtk_spin_button_set_value (self->first, p->first_candidate);
    }
  self->updating = FALSE;
}

/* Rebuilds the plot for a window; an impossible window keeps the one shown. */
static gboolean
rebuild (IvPipelinedView *self, gint64 first, GError **error)
{
  IvPipelinePlot *plot = iv_pipeline_plot_new (self->trace, first, error);

  if (!plot)
    return FALSE;
  g_clear_pointer (&self->plot, iv_pipeline_plot_free);
  self->plot = plot;
  self->fig.plot = plot;
  sync_controls (self);
  fill_candidates (self);
  iv_pipelined_view_select (self, G_MAXUINT);
  show_error (self, NULL);
  return TRUE;
}

void
iv_pipelined_view_set_window (IvPipelinedView *self, gint64 first)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (IV_IS_PIPELINED_VIEW (self));
  if (self->trace && !rebuild (self, first, &error))
    {
      show_error (self, error->message);
      sync_controls (self);
    }
}

static void
on_window_changed (IvPipelinedView *self)
{
  if (self->updating)
    return;
  iv_pipelined_view_set_window (self, gtk_spin_button_get_value_as_int (self->first));
}

static void
set_breakdown (IvPipelinedView *self, const IvBreakdown *bd)
{
  self->breakdown = bd;
  self->fig.breakdown = bd;
  gtk_widget_queue_draw (self->area);
}

const IvBreakdown *
iv_pipelined_view_get_breakdown (IvPipelinedView *self)
{
  g_return_val_if_fail (IV_IS_PIPELINED_VIEW (self), NULL);
  return self->breakdown;
}

/* Offers @bd (taken) read from @path; a path offered already has its breakdown replaced
 * (the file may have changed). Returns its position in the drop-down. */
static guint
add_breakdown_choice (IvPipelinedView *self, const char *path, IvBreakdown *bd)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *label
      = g_strdup_printf (_ ("Candidate %" G_GINT64_FORMAT " · %s"), bd->candidate, base);

  for (guint i = 0; i < self->choices->len; i++)
    {
      IvBreakdownFile *f = self->choices->pdata[i];
      if (g_str_equal (f->path, path))
        {
          if (self->breakdown == f->breakdown)
            set_breakdown (self, NULL);
          iv_breakdown_free (f->breakdown);
          f->breakdown = bd;
          return i + 1;
        }
    }
  g_ptr_array_add (self->choices, iv_breakdown_file_new (path, bd));
  gtk_string_list_append (self->bd_names, label);
  return self->choices->len;
}

static void
show_choice (IvPipelinedView *self, guint at)
{
  self->updating = TRUE;
  gtk_drop_down_set_selected (self->bd_choice, at);
  self->updating = FALSE;
  set_breakdown (self, at ? ((IvBreakdownFile *) self->choices->pdata[at - 1])->breakdown : NULL);
  show_error (self, NULL);
}

static void
load_breakdown_thread (GTask *task, gpointer source, gpointer path, GCancellable *cancellable)
{
  GError *error = NULL;
  IvBreakdown *bd = iv_breakdown_load (path, &error);

  if (bd)
    g_task_return_pointer (task, bd, (GDestroyNotify) iv_breakdown_free);
  else
    g_task_return_error (task, error);
}

void
iv_pipelined_view_load_breakdown_async (IvPipelinedView *self, const char *path,
                                        GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (IV_IS_PIPELINED_VIEW (self));
  task = g_task_new (self, self->loads, callback, user_data);
  g_task_set_source_tag (task, iv_pipelined_view_load_breakdown_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_breakdown_thread);
}

gboolean
iv_pipelined_view_load_breakdown_finish (IvPipelinedView *self, GAsyncResult *result,
                                         GError **error)
{
  g_autoptr (GError) local = NULL;
  IvBreakdown *bd;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  bd = g_task_propagate_pointer (G_TASK (result), &local);
  if (!bd)
    {
      /* a load for a trace no longer shown says nothing over the one shown now */
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  show_choice (self, add_breakdown_choice (self, g_task_get_task_data (G_TASK (result)), bd));
  return TRUE;
}

static void
on_breakdown_chosen (IvPipelinedView *self)
{
  guint i = gtk_drop_down_get_selected (self->bd_choice);

  if (self->updating)
    return;
  show_choice (self, i == GTK_INVALID_LIST_POSITION || i > self->choices->len ? 0 : i);
}

static void
on_breakdown_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  /* the view shows the error, if any */
  iv_pipelined_view_load_breakdown_finish (IV_PIPELINED_VIEW (source), result, NULL);
}

static void
on_open_response (GtkNativeDialog *dialog, int response, IvPipelinedView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      if (path)
        iv_pipelined_view_load_breakdown_async (self, path, on_breakdown_loaded, NULL);
    }
  g_object_unref (dialog);
}

static void
on_open_breakdown (IvPipelinedView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      _ ("Open a Candidate Breakdown"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), NULL);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("JSON files"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (self->trace && self->trace->path)
    {
      g_autofree char *dir = g_path_get_dirname (self->trace->path);
      g_autoptr (GFile) folder = g_file_new_for_path (dir);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Offers the breakdowns found beside the trace; shows the one of a candidate in the
 * window (else the first). */
static void
offer_breakdowns (IvPipelinedView *self, const GPtrArray *found)
{
  guint pick = 0;

  for (guint i = 0; found && i < found->len; i++)
    {
      const IvBreakdownFile *f = found->pdata[i];
      guint at = add_breakdown_choice (self, f->path, iv_breakdown_copy (f->breakdown));
      if (!pick
          || (self->plot && f->breakdown->candidate >= self->plot->first_candidate
              && f->breakdown->candidate <= self->plot->first_candidate + 3))
        pick = at;
    }
  if (pick)
    show_choice (self, pick);
}

gboolean
iv_pipelined_view_set_trace (IvPipelinedView *self, const IvTrace *trace,
                             const GPtrArray *breakdowns, GObject *owner, GError **error)
{
  IvPipelinePlot *plot;

  g_return_val_if_fail (IV_IS_PIPELINED_VIEW (self), FALSE);
  plot = iv_pipeline_plot_new (trace, -1, error);
  if (!plot)
    return FALSE;
  g_set_object (&self->owner, owner);
  self->trace = trace;
  self->fig.trace = trace;
  g_clear_pointer (&self->plot, iv_pipeline_plot_free);
  self->plot = plot;
  self->fig.plot = plot;
  set_breakdown (self, NULL);
  /* a breakdown still being read belongs to the trace shown before */
  g_cancellable_cancel (self->loads);
  g_set_object (&self->loads, g_cancellable_new ());
  self->updating = TRUE;
  g_ptr_array_set_size (self->choices, 0);
  gtk_string_list_splice (self->bd_names, 1,
                          g_list_model_get_n_items (G_LIST_MODEL (self->bd_names)) - 1, NULL);
  gtk_drop_down_set_selected (self->bd_choice, 0);
  self->updating = FALSE;
  sync_controls (self);
  fill_candidates (self);
  iv_pipelined_view_select (self, G_MAXUINT);
  show_error (self, NULL);
  offer_breakdowns (self, breakdowns);
  return TRUE;
}

const IvPipelinePlot *
iv_pipelined_view_get_plot (IvPipelinedView *self)
{
  g_return_val_if_fail (IV_IS_PIPELINED_VIEW (self), NULL);
  return self->plot;
}

const IvFigure *
iv_pipelined_view_get_figure (IvPipelinedView *self)
{
  g_return_val_if_fail (IV_IS_PIPELINED_VIEW (self), NULL);
  return self->plot ? &self->figure : NULL;
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
               gpointer data)
{
  IvPipelinedView *self = data;
  const IvPipelineBar *b;
  guint i;
  g_autofree char *start = NULL, *dur = NULL, *text = NULL;

  if (!self->plot || self->layout.lane_h <= 0)
    return FALSE;
  i = iv_pipelined_bar_at (&self->fig, &self->layout, x, y);
  if (i == G_MAXUINT)
    return FALSE;
  b = &g_array_index (self->plot->bars, IvPipelineBar, i);
  start = ms_text (b->start_ns - self->plot->t0_ns);
  dur = ms_text (b->end_ns - b->start_ns);
  text = b->candidate >= 0
             ? g_strdup_printf (_ ("%s · candidate %" G_GINT64_FORMAT "\nstart %s · duration %s"),
                                b->name, b->candidate, start, dur)
             : g_strdup_printf (_ ("%s\nstart %s · duration %s"), b->name, start, dur);
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_click (GtkGestureClick *click, int n_press, double x, double y, IvPipelinedView *self)
{
  if (self->plot && self->layout.lane_h > 0)
    iv_pipelined_view_select (self, iv_pipelined_bar_at (&self->fig, &self->layout, x, y));
}

static void
iv_pipelined_view_dispose (GObject *object)
{
  IvPipelinedView *self = IV_PIPELINED_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_PIPELINED_VIEW);
  g_clear_pointer (&self->plot, iv_pipeline_plot_free);
  self->breakdown = self->fig.breakdown = NULL;
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  if (self->loads)
    g_cancellable_cancel (self->loads);
  g_clear_object (&self->loads);
  g_clear_object (&self->owner);
  G_OBJECT_CLASS (iv_pipelined_view_parent_class)->dispose (object);
}

static void
iv_pipelined_view_class_init (IvPipelinedViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_pipelined_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-pipelined-view.ui");
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, box);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, area);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, first);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, bd_choice);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, bd_names);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, error_label);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, details);
  gtk_widget_class_bind_template_child (widget_class, IvPipelinedView, candidates);
  gtk_widget_class_bind_template_callback (widget_class, on_window_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_breakdown_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_open_breakdown);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip);
  gtk_widget_class_bind_template_callback (widget_class, on_click);
}

static void
iv_pipelined_view_init (IvPipelinedView *self)
{
  self->fig.highlighted = G_MAXUINT;
  self->figure = (IvFigure){ iv_render_pipelined, &self->fig, "pipeline", G_OBJECT (self) };
  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_breakdown_file_free);
  self->loads = g_cancellable_new ();

  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->updating = FALSE;
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
  iv_pipelined_view_select (self, G_MAXUINT);
}

GtkWidget *
iv_pipelined_view_new (void)
{
  return g_object_new (IV_TYPE_PIPELINED_VIEW, NULL);
}
