/* iv-trace-page.c: see the header. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-page.h"

#include <glib/gi18n.h>

void
iv_trace_page_clear (GtkWidget *box)
{
  GtkWidget *c;
  while ((c = gtk_widget_get_first_child (box)))
    gtk_widget_unparent (c);
}

void
iv_trace_page_heading (GtkWidget *box, GString *text, const char *title, int margin_top)
{
  GtkWidget *heading = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  if (gtk_widget_get_first_child (box))
    gtk_widget_set_margin_top (heading, margin_top);
  gtk_box_append (GTK_BOX (box), heading);
  g_string_append_printf (text, "%s\n", title);
}

GtkGrid *
iv_trace_page_grid (GtkWidget *box, int row_spacing)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());

  gtk_grid_set_column_spacing (grid, 18);
  gtk_grid_set_row_spacing (grid, row_spacing);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (grid));
  return grid;
}

void
iv_trace_page_set_steps (GtkDropDown *dropdown, const GArray *steps, const char *whole,
                         gboolean *setting)
{
  g_autoptr (GtkStringList) items = gtk_string_list_new (NULL);

  gtk_string_list_append (items, whole);
  for (guint i = 0; steps && i < steps->len; i++)
    {
      g_autofree char *s
          = g_strdup_printf (_ ("Step %" G_GINT64_FORMAT), g_array_index (steps, gint64, i));
      gtk_string_list_append (items, s);
    }
  *setting = TRUE;
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (items));
  gtk_drop_down_set_selected (dropdown, 0);
  *setting = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (dropdown), steps && steps->len > 0);
}

gint64
iv_trace_page_chosen_step (GtkDropDown *dropdown, const GArray *steps)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  return !steps || i == 0 || i > steps->len ? -1 : g_array_index (steps, gint64, i - 1);
}

void
iv_trace_page_select_step (GtkDropDown *dropdown, const GArray *steps, gint64 step,
                           gboolean *setting)
{
  guint index = 0;

  for (guint i = 0; step >= 0 && steps && i < steps->len; i++)
    if (g_array_index (steps, gint64, i) == step)
      index = i + 1;
  *setting = TRUE;
  gtk_drop_down_set_selected (dropdown, index);
  *setting = FALSE;
}

void
iv_trace_page_run (gpointer source, gpointer job, GDestroyNotify job_free, GTaskThreadFunc func,
                   GAsyncReadyCallback done)
{
  g_autoptr (GTask) task = g_task_new (source, NULL, done, NULL);

  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, func);
}
