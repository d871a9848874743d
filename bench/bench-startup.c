/* bench-startup: time from starting a process to its window's first painted frame
 * (issue 14: ≤ 300 ms for an empty start, ≤ 1 s with the samples), for Inferview with no
 * files, Inferview opening every bundled sample, and beside them the baselines measured
 * in the same run: a minimal GTK window, and an empty libadwaita application window
 * registered on the session bus (bench-startup-minimal). Each child reports its
 * first "after-paint" through INFERVIEW_STARTUP_PROBE (src/gui/iv-startup-probe.c); its
 * settings live in memory and its data folders in a fresh temporary folder, so every
 * start is a first start. Needs a display: run it as
 *   xvfb-run -a dbus-run-session build/bench/bench-startup [--quick]
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"

/* Milliseconds from spawning @argv to its first frame; < 0 when it reported none. */
static double
first_frame_ms (char **argv, char **envp)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  int status = 0;
  gint64 t0 = g_get_monotonic_time ();
  const char *line;
  gint64 frame;

  if (!g_spawn_sync (NULL, argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
                     &error))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return -1;
    }
  line = out ? strstr (out, "first-frame ") : NULL;
  if (!line)
    return -1;
  frame = g_ascii_strtoll (line + strlen ("first-frame "), NULL, 10);
  return (frame - t0) / 1000.0;
}

/* The children's temporary home and everything they wrote in it. */
static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static char **
child_env (const char *home)
{
  char **env = g_get_environ ();
  const char *vars[][2] = {
    { "INFERVIEW_STARTUP_PROBE", "quit" }, { "GSETTINGS_BACKEND", "memory" },
    { "XDG_DATA_HOME", "data" },           { "XDG_CONFIG_HOME", "config" },
    { "XDG_CACHE_HOME", "cache" },         { "NO_AT_BRIDGE", "1" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *value
          = i >= 2 && i <= 4 ? g_build_filename (home, vars[i][1], NULL) : g_strdup (vars[i][1]);
      env = g_environ_setenv (env, vars[i][0], value, TRUE);
    }
  return env;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int runs = quick ? 3 : 9;
  g_autofree char *home = g_dir_make_tmp ("iv-bench-startup-XXXXXX", NULL);
  g_auto (GStrv) env = child_env (home);
  char *baseline[] = { (char *) BENCH_MINIMAL, NULL };
  char *adw[] = { (char *) BENCH_MINIMAL, (char *) "--adw", NULL };
  char *empty[] = { (char *) BENCH_INFERVIEW, NULL };
  char *samples[] = { (char *) BENCH_INFERVIEW,
                      (char *) SAMPLES "/aiperf",
                      (char *) SAMPLES "/traces/kineto_a100_simple_add.json.gz",
                      (char *) SAMPLES "/traces/catapult_flow_simple.json",
                      (char *) SAMPLES "/traces/pipelined_timeline_sample.json",
                      NULL };
  const struct
  {
    const char *what;
    char **argv;
    double goal_ms;
  } cases[] = {
    { "minimal GTK window (baseline)", baseline, 0 },
    { "empty libadwaita app window", adw, 0 },
    { "Inferview, empty", empty, 300 },
    { "Inferview, the samples", samples, 1000 },
  };
  double medians[G_N_ELEMENTS (cases)];
  int missed = 0;

  if (!g_getenv ("DISPLAY") && !g_getenv ("WAYLAND_DISPLAY"))
    {
      g_printerr ("bench-startup needs a display: xvfb-run -a dbus-run-session %s\n", argv[0]);
      return 2;
    }
  /* one start of each unmeasured: the page cache and the font cache warm */
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    first_frame_ms (cases[c].argv, env);
  printf ("time to the first frame, median of %d starts (min–max):\n", runs);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree double *t = g_new (double, runs);
      double lo = G_MAXDOUBLE, hi = 0;
      for (int i = 0; i < runs; i++)
        {
          t[i] = first_frame_ms (cases[c].argv, env);
          if (t[i] < 0)
            {
              g_printerr ("%s: no first frame reported\n", cases[c].what);
              return 1;
            }
          lo = MIN (lo, t[i]), hi = MAX (hi, t[i]);
        }
      medians[c] = bench_median (t, runs);
      printf ("  %-32s %7.0f ms  (%.0f–%.0f)", cases[c].what, medians[c], lo, hi);
      if (c > 0)
        printf ("  %.1f× the baseline", medians[c] / medians[0]);
      if (cases[c].goal_ms > 0)
        {
          printf (", goal ≤ %.0f ms%s", cases[c].goal_ms,
                  medians[c] <= cases[c].goal_ms ? "" : "  MISSED");
          missed += medians[c] > cases[c].goal_ms;
        }
      printf ("\n");
    }
  remove_tree (home);
  return missed ? 1 : 0;
}
