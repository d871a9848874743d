/* bench-ranks: issue 32's figures for a distributed job on generated rank traces (8 ranks
 * of about 50 MB of Kineto-like JSON each, bench-trace-gen's shape):
 *   the whole-job timeline frame at 1920×1080 — the ranks joined into one trace as the
 *     window shows them (iv-trace-job.c), zoomed out and in — as the window draws it while
 *     the user scrolls, pans and zooms, through the view's frame cache (target median
 *     ≤ 8 ms), and each frame laid out afresh without the cache, as an export is;
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
#include <time.h>
#include <unistd.h>

#include "iv-render-timeline.h"
#include "iv-trace-job.h"
#include "iv-trace-ranks.h"

#include "bench-common.h"
#include "bench-trace-gen.h"

#define N_RANKS 8
#define W 1920
#define H 1080

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

/* Plain arithmetic for @data iterations; its result returned, so the loop stays. */
static gpointer
spin (gpointer data)
{
  double x = 0;
  for (gint64 i = 0, n = GPOINTER_TO_SIZE (data); i < n; i++)
    x += 1e-9 * (double) i;
  return GSIZE_TO_POINTER ((gsize) x);
}

/* The cores the machine gives this process now, running @n threads of plain arithmetic:
 * their CPU time over their wall time. On a machine others load, the kernel shares the
 * CPU between sessions (autogroup), not threads, so a process of n threads may get no
 * more than one of a single thread; what the job's load can reach is this, not @n. */
static double
cores_given (guint n)
{
  GThread *th[64];
  double c0 = cpu_s (), t0 = now_s ();

  n = MIN (n, G_N_ELEMENTS (th));
  for (guint i = 0; i < n; i++)
    th[i] = g_thread_new ("spin", spin, GSIZE_TO_POINTER ((gsize) 150000000));
  for (guint i = 0; i < n; i++)
    g_thread_join (th[i]);
  return (cpu_s () - c0) / MAX (now_s () - t0, 1e-9);
}

/* This thread's CPU time, in ms: a frame's cost whatever else the machine runs. */
static double
thread_cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* How a frame's figure moves between frames in the window: MOVE_NONE redraws the same
 * view (no cache: every frame laid out afresh, as an export or a first frame is);
 * MOVE_INTERACT cycles through what a user does — a scroll step down or up, a pan by a
 * twentieth of the span (zoomed in) or a zoom in by a tenth (zoomed out), a zoom in by a
 * tenth about the middle, a zoom back out — drawn through a view's frame cache. */
typedef enum
{
  MOVE_NONE,
  MOVE_INTERACT,
} Move;

static void
move (IvTimelineFigure *fig, int i, gboolean zoomed_in)
{
  gint64 w = fig->t1_ns - fig->t0_ns, mid = fig->t0_ns + w / 2;

  switch (i % 4)
    {
    case 0:
      fig->scroll_y = fig->scroll_y > 0 ? 0 : 60;
      break;
    case 1:
      if (zoomed_in)
        fig->t0_ns += w / 20, fig->t1_ns += w / 20;
      else
        fig->t0_ns = mid - w * 9 / 20, fig->t1_ns = mid + w * 9 / 20;
      break;
    case 2:
      fig->t0_ns = mid - w * 9 / 20, fig->t1_ns = mid + w * 9 / 20;
      break;
    default:
      /* back out (twice when case 1 zoomed in too) */
      w = zoomed_in ? w * 10 / 9 : w * 100 / 81;
      fig->t0_ns = mid - w / 2, fig->t1_ns = fig->t0_ns + w;
      break;
    }
}

/* The median and p95 of @runs frames of @fig at W × H, as bench-timeline measures one,
 * and the median CPU time they took; moved between frames as @how says. */
static void
frame_times (const IvTimelineFigure *start, Move how, gboolean zoomed_in, int runs,
             double *median_ms, double *p95_ms, double *cpu_ms, IvTimelineCacheStats *stats)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  IvRenderOptions options = { IV_THEME_LIGHT, 1.0 };
  double *t = g_new (double, runs), *c = g_new (double, runs);
  IvTimelineFigure fig = *start;
  g_autoptr (IvTimelineCache) cache = how == MOVE_INTERACT ? iv_timeline_cache_new () : NULL;

  fig.cache = cache;
  if (cache)
    {
      /* the view as it was before the first move: what the window had drawn */
      cairo_t *cr = cairo_create (s);
      iv_render_timeline (cr, &fig, &options, W, H, NULL);
      cairo_destroy (cr);
    }
  for (int i = 0; i < runs; i++)
    {
      gint64 t0;
      double c0;
      cairo_t *cr;
      if (how == MOVE_INTERACT)
        move (&fig, i, zoomed_in);
      t0 = g_get_monotonic_time ();
      c0 = thread_cpu_ms ();
      cr = cairo_create (s);
      iv_render_timeline (cr, &fig, &options, W, H, NULL);
      cairo_destroy (cr);
      cairo_surface_flush (s);
      t[i] = (g_get_monotonic_time () - t0) / 1000.0;
      c[i] = thread_cpu_ms () - c0;
    }
  if (cache)
    iv_timeline_cache_get_stats (cache, stats);
  *median_ms = bench_median (t, runs);
  *p95_ms = t[(int) (runs * 0.95) < runs ? (int) (runs * 0.95) : runs - 1];
  *cpu_ms = bench_median (c, runs);
  g_free (t);
  g_free (c);
  cairo_surface_destroy (s);
}

/* The job as the window shows it: one trace, a process per rank; a frame of all of it
 * and of a thousandth of it, with a collective's instance outlined on every rank. */
static int
frames (const char *const *paths)
{
  g_autoptr (GError) error = NULL;
  double c0 = cpu_s (), t0 = now_s ();
  g_autoptr (IvTraceJob) job = iv_trace_job_load (paths, NULL, NULL, NULL, &error);
  double load_t = now_s () - t0, load_cpu = cpu_s () - c0;
  IvTimelineFigure fig = { 0 };
  g_autoptr (GArray) linked = g_array_new (FALSE, FALSE, sizeof (gsize));
  gint64 span;
  int missed = 0;

  if (!job)
    {
      fprintf (stderr, "bench-ranks: %s\n", error->message);
      exit (1);
    }
  /* what the window waits for: the job's load above, and the ranks joined into one
   * trace (iv-trace-job.c, on one thread) */
  printf ("the window's load of the job (the ranks loaded, then joined into one trace): %.2f s "
          "(CPU %.2f s)\n",
          load_t, load_cpu);
  fig.trace = job->trace;
  fig.selected = G_MAXSIZE;
  /* the first collective instance, outlined as a hover does */
  for (guint r = 0; job->ranks->instances->len && r < job->ranks->ranks->len; r++)
    {
      gsize s = iv_trace_job_instance_slice (job, 0, r);
      if (s != G_MAXSIZE)
        g_array_append_val (linked, s);
    }
  fig.linked = linked->len ? linked : NULL;
  span = job->trace->t1_ns - job->trace->t0_ns;
  printf ("whole-job timeline: %u ranks joined, %" G_GSIZE_FORMAT " slices, %u rows, %u "
          "collective instances\n",
          job->ranks->ranks->len, job->trace->n_slices, job->trace->rows->len,
          job->ranks->instances->len);
  for (int zoom = 0; zoom < 2; zoom++)
    {
      double med, p95, cpu;
      IvTimelineCacheStats st = { 0 };
      fig.t0_ns = job->trace->t0_ns + (zoom ? span / 2 : 0);
      fig.t1_ns = zoom ? fig.t0_ns + span / 1000 : job->trace->t1_ns;
      /* the window's frames: scrolled, panned and zoomed, through the view's cache (the
       * same pixels as without it, tests/test-trace.c /trace/timeline-cache-matches).
       * The CPU a frame took says what the wall clock says on an idle machine. */
      frame_times (&fig, MOVE_INTERACT, zoom, 31, &med, &p95, &cpu, &st);
      printf ("  frame at %d×%d, %-18s scroll/pan/zoom steps in the window: median %6.2f ms "
              "(CPU %5.2f ms)  p95 %6.2f ms   target median ≤ 8 ms: %s\n"
              "      (rows kept %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", names laid "
              "out %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " shown)\n",
              W, H, zoom ? "zoomed in (1/1000)" : "zoomed out (all)", med, cpu, p95,
              med <= 8 ? "target met" : "target MISSED", st.rows_hit, st.rows_hit + st.rows_made,
              st.texts_made, st.texts_hit + st.texts_made);
      missed += med > 8;
      /* every frame laid out afresh: an export, or the window's first frame of a view */
      frame_times (&fig, MOVE_NONE, zoom, 31, &med, &p95, &cpu, &st);
      printf ("  %*s without the cache (export, first frame):     median %6.2f ms (CPU %5.2f "
              "ms)  p95 %6.2f ms   (≤ 8 ms: %s)\n",
              (int) strlen ("frame at 1920×1080, zoomed in (1/1000)") - 2, "", med, cpu, p95,
              med <= 8 ? "yes" : "no");
    }
  /* one rank's trace alone, zoomed out, for scale: what a frame costs per rank shown */
  {
    g_autoptr (IvTrace) one = iv_trace_load (paths[0], NULL, NULL, NULL, NULL);
    IvTimelineFigure f1 = { 0 };
    double med, p95, cpu;
    if (one)
      {
        f1.trace = one, f1.selected = G_MAXSIZE;
        f1.t0_ns = one->t0_ns, f1.t1_ns = one->t1_ns;
        frame_times (&f1, MOVE_NONE, FALSE, 31, &med, &p95, &cpu, NULL);
        printf ("  one rank alone (%" G_GSIZE_FORMAT " slices, %u rows), zoomed out: median %6.2f "
                "ms (CPU %5.2f ms)\n",
                one->n_slices, one->rows->len, med, cpu);
      }
  }
  return missed;
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
  /* how many cores the job's threads ran on at once, beside how many the machine gives
   * a process of as many threads right now */
  {
    double one = cores_given (1), all = cores_given (MIN (cores, N_RANKS));
    printf ("parallelism: the job's load ran on %.2f cores (CPU ÷ wall); the machine gives "
            "this process %.2f cores on 1 thread, %.2f on %u now\n",
            job_cpu / job_t, one, all, MIN (cores, N_RANKS));
  }
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
  frames ((const char *const *) paths);
  for (int r = 0; r < N_RANKS; r++)
    {
      g_unlink (paths[r]);
      g_free (paths[r]);
    }
  g_rmdir (dir);
  return 0;
}
