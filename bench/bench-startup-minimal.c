/* bench-startup-minimal: the least a window costs to show, bench-startup's baselines,
 * each reporting its first frame by the same probe as Inferview's:
 *   (no argument)  one empty GTK 4 window;
 *   --adw          an AdwApplication (registered on the session bus, as Inferview is)
 *                  with an empty AdwApplicationWindow under a header bar — what any
 *                  libadwaita application pays before drawing anything of its own. */
#include <adwaita.h>
#include <string.h>

#include "iv-startup-probe.h"

static void
on_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
  iv_startup_probe_watch (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  GtkWidget *window;

  if (argc > 1 && strcmp (argv[1], "--adw") == 0)
    {
      g_autoptr (AdwApplication) app
          = adw_application_new ("io.github.inferview.BenchStartup", G_APPLICATION_NON_UNIQUE);
      g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
      return g_application_run (G_APPLICATION (app), 1, argv);
    }
  gtk_init ();
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "baseline");
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
  iv_startup_probe_watch (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
  for (;;)
    g_main_context_iteration (NULL, TRUE);
}
