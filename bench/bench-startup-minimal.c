/* bench-startup-minimal: the least a GTK 4 window costs to show — one empty window, its
 * first frame reported by the same probe as Inferview's — bench-startup's baseline. */
#include <gtk/gtk.h>

#include "iv-startup-probe.h"

int
main (void)
{
  GtkWidget *window;

  gtk_init ();
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "baseline");
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
  iv_startup_probe_watch (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
  for (;;)
    g_main_context_iteration (NULL, TRUE);
}
