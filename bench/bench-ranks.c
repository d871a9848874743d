/* bench-ranks: issue 32's figures for a distributed job on generated rank traces (8 ranks
 * of about 50 MB of Kineto-like JSON each, bench-trace-gen's shape):
 *   the job's load — every rank loaded and analysed on the worker threads — beside the
 *     sum of the same single-rank loads ÷ the cores (target ≤ 1.2×);
 *   the peak resident memory of the job's load beside the memory it keeps once loaded
 *     (target ≤ 1.3×), measured in a child process.
 * Medians of 3 runs (1 with --quick, which also makes the ranks 5 MB). The files are
 * written to a temporary folder and removed.
 * Usage: bench-ranks [--quick] */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iv-trace-ranks.h"

#include "bench-common.h"
#include "bench-trace-gen.h"

#define N_RANKS 8

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* VmHWM and VmRSS of this process, in bytes. */
static void
memory (gsize *peak, gsize *now)
{
  g_autofree char *text = NULL;
  *peak = *now = 0;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return;
  for (char *line = text; line && *line;
       line = strchr (line, '\n') ? strchr (line, '\n') + 1 : NULL)
    {
      if (g_str_has_prefix (line, "VmHWM:"))
        *peak = (gsize) g_ascii_strtoull (line + 6, NULL, 10) * 1024;
      else if (g_str_has_prefix (line, "VmRSS:"))
        *now = (gsize) g_ascii_strtoull (line + 6, NULL, 10) * 1024;
    }
}

/* CPU time of this process (every thread), user and system, in s. */
static double
cpu_s (void)
{
  struct rusage u;
  getrusage (RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec
         + u.ru_stime.tv_usec / 1e6;
}

/* The CPU time of the last load_s. */
static double last_cpu;

static double
load_s (const char *const *paths)
{
  g_autoptr (GError) error = NULL;
  double c0 = cpu_s ();
  double t0 = now_s ();
  g_autoptr (IvTraceRanks) job = iv_trace_ranks_load (paths, IV_RANKS_ALIGN, NULL, &error);
  double t = now_s () - t0;
  last_cpu = cpu_s () - c0;
  if (!job)
    {
      fprintf (stderr, "bench-ranks: %s\n", error->message);
      exit (1);
    }
  return t;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && g_str_equal (argv[1], "--quick");
  int runs = quick ? 1 : 3;
  gsize slices = quick ? 40000 : 400000;
  g_autofree char *dir = g_dir_make_tmp ("bench-ranks-XXXXXX", NULL);
  char *paths[N_RANKS + 1] = { NULL };
  double single_sum = 0, job_v[3], mb = 0, job_t, target, single_cpu = 0, job_cpu = 0;
  guint cores = MAX (g_get_num_processors (), 1);

  for (int r = 0; r < N_RANKS; r++)
    {
      paths[r] = g_strdup_printf ("%s/rank-%d.pt.trace.json", dir, r);
      bench_generate_trace (paths[r], slices);
      {
        GStatBuf st;
        if (g_stat (paths[r], &st) == 0)
          mb += st.st_size / 1e6;
      }
    }
  printf ("%d ranks, %.0f MB of JSON (%.1f MB a rank), %u cores\n", N_RANKS, mb, mb / N_RANKS,
          cores);
  /* peak memory in a child, forked before this process starts any thread (a thread pool
   * does not survive a fork): nothing loaded before */
  fflush (stdout);
  {
    pid_t pid = fork ();
    if (pid == 0)
      {
        g_autoptr (GError) error = NULL;
        gsize peak0, now0, peak, now;
        IvTraceRanks *job;
        memory (&peak0, &now0);
        job = iv_trace_ranks_load ((const char *const *) paths, IV_RANKS_ALIGN, NULL, &error);
        memory (&peak, &now);
        if (!job)
          _exit (1);
        printf ("peak memory of the job's load: %.0f MB beside %.0f MB kept = %.2f×; target "
                "≤ 1.3×: %s\n",
                (peak - now0) / 1e6, (now - now0) / 1e6, (double) (peak - now0) / (now - now0),
                (peak - now0) <= 1.3 * (now - now0) ? "target met" : "target MISSED");
        fflush (stdout);
        _exit (0);
      }
    waitpid (pid, NULL, 0);
  }
  /* each rank alone: the same load and analyses, one at a time */
  for (int r = 0; r < N_RANKS; r++)
    {
      const char *one[2] = { paths[r], NULL };
      double v[3];
      for (int i = 0; i < runs; i++)
        v[i] = load_s (one), single_cpu += last_cpu / runs;
      single_sum += bench_median (v, runs);
    }
  for (int i = 0; i < runs; i++)
    job_v[i] = load_s ((const char *const *) paths), job_cpu += last_cpu / runs;
  job_t = bench_median (job_v, runs);
  target = 1.2 * single_sum / cores;
  printf ("single-rank loads: %.2f s in all; ÷ %u cores = %.2f s\n", single_sum, cores,
          single_sum / cores);
  /* the CPU the job spends beside the ranks alone: what running them together costs,
   * whatever else the machine is running (the wall-clock figures depend on it) */
  {
    g_autofree char *load = NULL;
    g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
    printf ("CPU time: single-rank loads %.2f s, the job %.2f s (%.2f×); load average %s",
            single_cpu, job_cpu, job_cpu / single_cpu, load ? load : "?\n");
  }
  printf ("job load (%d ranks on worker threads): %.2f s = %.2f× the ideal; target ≤ 1.2× "
          "(%.2f s): %s\n",
          N_RANKS, job_t, job_t / (single_sum / cores), target,
          job_t <= target ? "target met" : "target MISSED");
  for (int r = 0; r < N_RANKS; r++)
    {
      g_unlink (paths[r]);
      g_free (paths[r]);
    }
  g_rmdir (dir);
  return 0;
}
