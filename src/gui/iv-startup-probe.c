/* iv-startup-probe.c: the frame clock's first "after-paint" of a window is the moment a
 * person sees it; bench/bench-startup spawns the application with the probe on and
 * subtracts the time it spawned it. A fresh process has no other clock to share, so the
 * system's monotonic clock is the one both sides read. */
#include "iv-startup-probe.h"

#include "iv-first-frame.h"

#include <stdio.h>
#include <stdlib.h>

static void
on_first_frame (GtkWidget *window, gpointer data)
{
  GApplication *app = g_application_get_default ();

  printf ("first-frame %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  if (g_strcmp0 (g_getenv ("INFERVIEW_STARTUP_PROBE"), "quit") == 0)
    {
      if (app)
        g_application_quit (app);
      else
        exit (0);
    }
}

void
iv_startup_probe_watch (GtkWindow *window)
{
  g_return_if_fail (GTK_IS_WINDOW (window));
  if (g_getenv ("INFERVIEW_STARTUP_PROBE"))
    iv_first_frame_connect (GTK_WIDGET (window), on_first_frame, NULL);
}
