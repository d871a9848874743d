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

static void
iv_runs_notes_bar_class_init (IvRunsNotesBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_notes_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
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
