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
  GtkToggleButton *more; /* opens the notes past the first line */

  char *text;    /* every note, one a line */
  guint n_lines; /* how many */
};

#define SPACING 6 /* between the notes and the button */

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

/* Closed, the first note on one line (cut at its end); open, every note, wrapped. The
 * button says how many more there are. */
static void
show_text (IvRunsNotesBar *self)
{
  gboolean open = gtk_toggle_button_get_active (self->more);
  const char *end = strchr (self->text, '\n');
  g_autofree char *first
      = g_strndup (self->text, end ? (gsize) (end - self->text) : strlen (self->text));
  g_autofree char *more = NULL;

  gtk_label_set_wrap (self->notes, open);
  gtk_label_set_ellipsize (self->notes, open ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  /* names and messages from the runs: valid UTF-8 before Pango */
  iv_label_set_valid_text (self->notes, open ? self->text : first);
  if (open)
    gtk_button_set_label (GTK_BUTTON (self->more), _ ("Less"));
  else if (self->n_lines > 1)
    {
      more = g_strdup_printf (g_dngettext (NULL, "%u more", "%u more", self->n_lines - 1),
                              self->n_lines - 1);
      gtk_button_set_label (GTK_BUTTON (self->more), more);
    }
  else
    gtk_button_set_label (GTK_BUTTON (self->more), _ ("More"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->more),
                               open ? _ ("Show the first note only") : _ ("Show every note"));
  /* closed, the whole text on hover */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->notes),
                               open ? NULL : gtk_label_get_text (self->notes));
}

static void
on_more_toggled (IvRunsNotesBar *self)
{
  show_text (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
iv_runs_notes_bar_show (IvRunsNotesBar *self, const IvSweep *sweep, const IvRun *run,
                        const IvPlotConfig *config, const char *config_error,
                        const IvRunsBoundChoice *bound, const char *bound_error,
                        const char *plot_notes)
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
  /* the plot's own (the runs the serving bound leaves out) */
  if (plot_notes && *plot_notes)
    line (text, plot_notes);
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
  g_free (self->text);
  self->n_lines = text->len ? 1 : 0;
  for (const char *p = text->str; *p; p++)
    self->n_lines += *p == '\n';
  self->text = g_string_free (g_steal_pointer (&text), FALSE);
  show_text (self);
  /* hidden with its margins when there is nothing to say */
  gtk_widget_set_visible (GTK_WIDGET (self), self->n_lines > 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

const char *
iv_runs_notes_bar_get_text (IvRunsNotesBar *self)
{
  g_return_val_if_fail (IV_IS_RUNS_NOTES_BAR (self), NULL);
  return self->text ? self->text : "";
}

void
iv_runs_notes_bar_set_open (IvRunsNotesBar *self, gboolean open)
{
  g_return_if_fail (IV_IS_RUNS_NOTES_BAR (self));
  gtk_toggle_button_set_active (self->more, open);
}

gboolean
iv_runs_notes_bar_get_open (IvRunsNotesBar *self)
{
  g_return_val_if_fail (IV_IS_RUNS_NOTES_BAR (self), FALSE);
  return gtk_toggle_button_get_active (self->more);
}

static void
iv_runs_notes_bar_dispose (GObject *object)
{
  g_clear_pointer (&IV_RUNS_NOTES_BAR (object)->text, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_RUNS_NOTES_BAR);
  G_OBJECT_CLASS (iv_runs_notes_bar_parent_class)->dispose (object);
}

static GtkSizeRequestMode
iv_runs_notes_bar_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* Whether the button beside the notes is offered at @width: open, to close them; closed,
 * when there is more than the line shows (another note, or the first cut short). */
static gboolean
offers_more (IvRunsNotesBar *self, int width)
{
  int whole = 0;

  if (gtk_toggle_button_get_active (self->more) || self->n_lines > 1)
    return TRUE;
  if (width < 0)
    return FALSE;
  /* an ellipsized label's natural width is its whole line's */
  gtk_widget_measure (self->scroller, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &whole, NULL, NULL);
  return whole > width;
}

static int
button_width (IvRunsNotesBar *self)
{
  int w = 0;

  gtk_widget_measure (GTK_WIDGET (self->more), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL,
                      NULL);
  return w;
}

/* As tall as the notes are at the width given, up to the scroller's most (about five
 * lines; more scroll), and one line closed. A scrolled window that propagates its child's
 * height asks a wrapping label for its height at no particular width, which is the height
 * of its narrowest wrapping: one line of notes took three lines of the page. */
static void
iv_runs_notes_bar_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  IvRunsNotesBar *self = IV_RUNS_NOTES_BAR (widget);
  GtkWidget *label = GTK_WIDGET (self->notes);
  int most = gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (self->scroller));
  int scroller_w = 0, label_w = 0, scroller_h = 0, label_h = 0, tall = 0, bmin = 0, bnat = 0;
  int beside = button_width (self) + SPACING;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      gtk_widget_measure (self->scroller, orientation, -1, minimum, natural, NULL, NULL);
      /* room for the button kept at the least: it comes as the bar narrows */
      *minimum += beside;
      *natural = MAX (*minimum, *natural + (offers_more (self, -1) ? beside : 0));
      return;
    }
  gtk_widget_measure (GTK_WIDGET (self->more), orientation, -1, &bmin, &bnat, NULL, NULL);
  if (for_size >= 0 && offers_more (self, for_size))
    for_size = MAX (for_size - beside, 1);
  gtk_widget_measure (self->scroller, orientation, for_size, minimum, natural, NULL, NULL);
  if (for_size >= 0 && most >= 0 && gtk_toggle_button_get_active (self->more))
    {
      /* the scroller's frame (its padding and border) around the label, both ways */
      gtk_widget_measure (self->scroller, GTK_ORIENTATION_HORIZONTAL, -1, &scroller_w, NULL, NULL,
                          NULL);
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, &label_w, NULL, NULL, NULL);
      gtk_widget_measure (self->scroller, GTK_ORIENTATION_VERTICAL, -1, NULL, &scroller_h, NULL,
                          NULL);
      gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, -1, NULL, &label_h, NULL, NULL);
      gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL,
                          MAX (for_size - (scroller_w - label_w), 1), NULL, &tall, NULL, NULL);
      *natural = MAX (*minimum, MIN (tall, most) + scroller_h - MIN (label_h, most));
    }
  *minimum = MAX (*minimum, bmin);
  *natural = MAX (*natural, bnat);
}

static void
iv_runs_notes_bar_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  IvRunsNotesBar *self = IV_RUNS_NOTES_BAR (widget);
  gboolean more = offers_more (self, width);
  int bw = more ? button_width (self) : 0, bh = 0;

  /* the button shows only where it opens something: set as the width is known */
  gtk_widget_set_child_visible (GTK_WIDGET (self->more), more);
  gtk_widget_allocate (self->scroller, more ? MAX (width - bw - SPACING, 1) : width, height, -1,
                       NULL);
  if (more)
    {
      gtk_widget_measure (GTK_WIDGET (self->more), GTK_ORIENTATION_VERTICAL, bw, NULL, &bh, NULL,
                          NULL);
      gtk_widget_allocate (GTK_WIDGET (self->more), bw, MIN (bh, height), -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - bw, 0)));
    }
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
  gtk_widget_class_bind_template_child (widget_class, IvRunsNotesBar, more);
  gtk_widget_class_bind_template_callback (widget_class, on_more_toggled);
}

static void
iv_runs_notes_bar_init (IvRunsNotesBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* its child-visible set as it is allocated */
  gtk_widget_set_visible (GTK_WIDGET (self->more), TRUE);
  self->text = g_strdup ("");
}

GtkWidget *
iv_runs_notes_bar_new (void)
{
  return g_object_new (IV_TYPE_RUNS_NOTES_BAR, NULL);
}
