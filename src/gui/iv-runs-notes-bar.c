/* iv-runs-notes-bar.c: the Runs workspace's notes (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-notes-bar.h"

#include <glib/gi18n.h>

#include "iv-plain-text.h"
#include "iv-runs-notes.h"

struct _IvRunsNotesBar
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkLabel *notes;
};

G_DEFINE_FINAL_TYPE (IvRunsNotesBar, iv_runs_notes_bar, GTK_TYPE_WIDGET)

static void
line (GString *text, const char *str)
{
  if (text->len)
    g_string_append_c (text, '\n');
  g_string_append (text, str);
}

/* A run the bound cannot be computed for says why, once per reason. */
static void
bound_lines (GString *text, const IvSweep *sweep, const IvRun *run, const IvRunsBoundChoice *bound)
{
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < sweep->runs->len; i++)
    {
      IvRunBound b;
      if (run && sweep->runs->pdata[i] != run)
        continue;
      iv_run_bound_compute (sweep->runs->pdata[i], bound->model, bound->hardware, bound->tp, &b);
      if (!b.ok && !g_ptr_array_find_with_equal_func (said, b.error, g_str_equal, NULL))
        {
          g_autofree char *l
              = g_strdup_printf (_ ("Bound on %s: %s"), bound->hardware->name, b.error);
          line (text, l);
          g_ptr_array_add (said, g_strdup (b.error));
        }
      iv_run_bound_clear (&b);
    }
}

void
iv_runs_notes_bar_show (IvRunsNotesBar *self, const IvSweep *sweep, const IvRun *run,
                        const IvPlotConfig *config, const char *config_error,
                        const IvRunsBoundChoice *bound, const char *bound_error)
{
  g_autoptr (GString) text = g_string_new (NULL);

  g_return_if_fail (IV_IS_RUNS_NOTES_BAR (self));
  if (config_error)
    line (text, config_error);
  if (bound_error)
    line (text, bound_error);
  /* the plot configuration's own warnings (unknown keys, undefined defaults) */
  for (guint i = 0; config && i < config->warnings->len; i++)
    line (text, config->warnings->pdata[i]);
  if (sweep && bound && bound->hardware)
    bound_lines (text, sweep, run, bound);
  if (sweep)
    {
      /* the GPU count matters where per-GPU throughput is drawn: across runs */
      g_autoptr (GPtrArray) said
          = iv_runs_notes (sweep, run, run ? IV_RUNS_NOTES_DEFAULT : IV_RUNS_NOTES_GPU);
      for (guint i = 0; i < said->len; i++)
        {
          g_autofree char *l = iv_runs_note_line (said->pdata[i], sweep, run);
          line (text, l);
        }
    }
  iv_label_set_valid_text (self->notes, text->str); /* names and messages from the runs */
  /* hidden with its margins when there is nothing to say */
  gtk_widget_set_visible (GTK_WIDGET (self), text->len > 0);
}

const char *
iv_runs_notes_bar_get_text (IvRunsNotesBar *self)
{
  g_return_val_if_fail (IV_IS_RUNS_NOTES_BAR (self), NULL);
  return gtk_label_get_text (self->notes);
}

static void
iv_runs_notes_bar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_RUNS_NOTES_BAR);
  G_OBJECT_CLASS (iv_runs_notes_bar_parent_class)->dispose (object);
}

static GtkSizeRequestMode
iv_runs_notes_bar_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* As tall as the notes are at the width given, up to the scroller's most (about three
 * lines; more scroll). A scrolled window that propagates its child's height asks a
 * wrapping label for its height at no particular width, which is the height of its
 * narrowest wrapping: one line of notes took three lines of the page. */
static void
iv_runs_notes_bar_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  IvRunsNotesBar *self = IV_RUNS_NOTES_BAR (widget);
  GtkWidget *label = GTK_WIDGET (self->notes);
  int most = gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (self->scroller));
  int scroller_w = 0, label_w = 0, scroller_h = 0, label_h = 0, tall = 0;

  gtk_widget_measure (self->scroller, orientation, for_size, minimum, natural, NULL, NULL);
  if (orientation != GTK_ORIENTATION_VERTICAL || for_size < 0 || most < 0)
    return;
  /* the scroller's frame (its padding and border) around the label, both ways */
  gtk_widget_measure (self->scroller, GTK_ORIENTATION_HORIZONTAL, -1, &scroller_w, NULL, NULL,
                      NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, &label_w, NULL, NULL, NULL);
  gtk_widget_measure (self->scroller, GTK_ORIENTATION_VERTICAL, -1, NULL, &scroller_h, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, -1, NULL, &label_h, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, MAX (for_size - (scroller_w - label_w), 1),
                      NULL, &tall, NULL, NULL);
  *natural = MAX (*minimum, MIN (tall, most) + scroller_h - MIN (label_h, most));
}

static void
iv_runs_notes_bar_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  gtk_widget_allocate (IV_RUNS_NOTES_BAR (widget)->scroller, width, height, baseline, NULL);
}

static void
iv_runs_notes_bar_class_init (IvRunsNotesBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_notes_bar_dispose;
  widget_class->get_request_mode = iv_runs_notes_bar_get_request_mode;
  widget_class->measure = iv_runs_notes_bar_measure;
  widget_class->size_allocate = iv_runs_notes_bar_size_allocate;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-runs-notes-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, IvRunsNotesBar, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvRunsNotesBar, notes);
}

static void
iv_runs_notes_bar_init (IvRunsNotesBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
iv_runs_notes_bar_new (void)
{
  return g_object_new (IV_TYPE_RUNS_NOTES_BAR, NULL);
}
