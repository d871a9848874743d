/* bench-trace: the trace engine's figures from issue 6 on generated Kineto-like files of
 * 1 M and 10 M slices:
 *   load speed (MB/s of uncompressed JSON, median of 5; target ≥ 150 MB/s), beside
 *     json-glib's DOM load of the 1 M file as the baseline;
 *   resident memory per slice after loading (target ≤ 64 B plus interned strings);
 *   a level-of-detail query of all tracks for a 2,000-pixel view (target ≤ 2 ms at 10 M);
 *   (issue 15) the load beside a bare yajl scan of the same bytes — no callbacks doing
 *     anything — plain and gzip (target ≤ 1.5×), and the peak resident memory of a load
 *     beside what the loaded trace keeps (target ≤ 1.3×), measured in a child process.
 * Usage: bench-trace [--quick] (quick: 1 M slices only, 3 runs). The files are written to
 * a temporary folder and removed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "iv-trace-query.h"

#include "bench-common.h"
#include "bench-trace-gen.h"

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static gsize
rss_bytes (void)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  gint64 pages = 0;
  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    {
      fields = g_strsplit (text, " ", -1);
      if (fields[0] && fields[1])
        pages = g_ascii_strtoll (fields[1], NULL, 10);
    }
  return (gsize) pages * (gsize) sysconf (_SC_PAGESIZE);
}

/* The least any streaming JSON load does: yajl over the file's bytes with no callbacks,
 * read (and for .gz decompressed) in 256 KiB chunks as the loader reads them. */
static double
yajl_scan_s (const char *path, gboolean gz)
{
  static unsigned char buf[256 * 1024];
  double t0 = now_s ();
  yajl_handle h = yajl_alloc (NULL, NULL, NULL);
  int n;

  yajl_config (h, yajl_allow_comments, 1);
  if (gz)
    {
      gzFile f = gzopen (path, "rb");
      gzbuffer (f, 256 * 1024);
      while ((n = gzread (f, buf, sizeof buf)) > 0)
        yajl_parse (h, buf, (size_t) n);
      gzclose (f);
    }
  else
    {
      FILE *f = fopen (path, "rb");
      size_t got;
      while ((got = fread (buf, 1, sizeof buf, f)) > 0)
        yajl_parse (h, buf, got);
      fclose (f);
    }
  yajl_complete_parse (h);
  yajl_free (h);
  return now_s () - t0;
}

static double
load_s (const char *path, gsize slices)
{
  double t0 = now_s ();
  IvTrace *tr = iv_trace_load (path, NULL, NULL, NULL, NULL);
  double t = now_s () - t0;
  g_assert (tr && tr->n_slices == slices);
  iv_trace_free (tr);
  return t;
}

static gsize
status_kib (const char *field)
{
  g_autofree char *text = NULL;
  const char *at;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL) || !(at = strstr (text, field)))
    return 0;
  return (gsize) g_ascii_strtoull (at + strlen (field), NULL, 10);
}

/* Peak over steady memory of one load, in a fresh child so earlier loads do not count:
 * the peak (VmHWM) and the resident size after the load, each less what the child had
 * before it. */
static double
peak_ratio (const char *path)
{
  int fds[2];
  pid_t pid;
  double ratio = 0;

  if (pipe (fds) != 0)
    return 0;
  pid = fork ();
  if (pid == 0)
    {
      gsize before, peak, after;
      IvTrace *tr;
      FILE *w = fdopen (fds[1], "w");
      /* a fresh high-water mark from here */
      FILE *clear = fopen ("/proc/self/clear_refs", "w");
      if (clear)
        fputs ("5", clear), fclose (clear);
      before = status_kib ("VmRSS:");
      tr = iv_trace_load (path, NULL, NULL, NULL, NULL);
      peak = status_kib ("VmHWM:");
      after = status_kib ("VmRSS:");
      fprintf (w, "%f\n",
               after > before ? (double) (peak - before) / (double) (after - before) : 0.0);
      fclose (w);
      iv_trace_free (tr);
      _exit (0);
    }
  close (fds[1]);
  {
    FILE *r = fdopen (fds[0], "r");
    if (fscanf (r, "%lf", &ratio) != 1)
      ratio = 0;
    fclose (r);
  }
  waitpid (pid, NULL, 0);
  return ratio;
}

static void
gzip_file (const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len;
  gzFile f;

  g_assert (g_file_get_contents (from, &data, &len, NULL));
  f = gzopen (to, "wb6");
  for (gsize off = 0; off < len; off += 1 << 20)
    gzwrite (f, data + off, (unsigned) MIN ((gsize) 1 << 20, len - off));
  gzclose (f);
}

/* Load ÷ scan, plain and gzip, and peak ÷ steady memory, each against its target. */
static void
bench_ratios (const char *path, gsize slices, int runs, int *missed)
{
  g_autofree char *gz = g_strdup_printf ("%s.gz", path);
  double load[5], scan[5], loadz[5], scanz[5], r_plain, r_gz, peak;

  gzip_file (path, gz);
  for (int r = 0; r < runs; r++)
    {
      scan[r] = yajl_scan_s (path, FALSE);
      load[r] = load_s (path, slices);
      scanz[r] = yajl_scan_s (gz, TRUE);
      loadz[r] = load_s (gz, slices);
    }
  r_plain = bench_median (load, runs) / bench_median (scan, runs);
  r_gz = bench_median (loadz, runs) / bench_median (scanz, runs);
  printf ("%-34s %8.2f s vs %.2f s   %5.2f×   target ≤ 1.5× %s\n", "load ÷ bare yajl scan, plain",
          bench_median (load, runs), bench_median (scan, runs), r_plain,
          r_plain <= 1.5 ? "ok" : "MISSED");
  printf ("%-34s %8.2f s vs %.2f s   %5.2f×   target ≤ 1.5× %s\n", "load ÷ bare yajl scan, gzip",
          bench_median (loadz, runs), bench_median (scanz, runs), r_gz,
          r_gz <= 1.5 ? "ok" : "MISSED");
  *missed += (r_plain > 1.5) + (r_gz > 1.5);
  peak = peak_ratio (path);
  printf ("%-34s %8.2f×   target ≤ 1.3× %s\n", "peak ÷ steady memory of a load", peak,
          peak > 0 && peak <= 1.3 ? "ok" : "MISSED");
  *missed += !(peak > 0 && peak <= 1.3);
  g_unlink (gz);
}

static void
bench_file (const char *dir, gsize n, int runs, gboolean baseline, int *missed)
{
  g_autofree char *path = g_strdup_printf ("%s/trace-%" G_GSIZE_FORMAT ".json", dir, n);
  double *t = g_new (double, runs), mb, speed;
  gsize slices = bench_generate_trace (path, n), rss0, rss1;
  GStatBuf st;
  IvTrace *trace = NULL;

  g_stat (path, &st);
  mb = st.st_size / 1e6;
  for (int r = 0; r < runs; r++)
    {
      double t0 = now_s ();
      IvTrace *tr = iv_trace_load (path, NULL, NULL, NULL, NULL);
      t[r] = now_s () - t0;
      g_assert (tr && tr->n_slices == slices);
      iv_trace_free (tr);
    }
  speed = mb / bench_median (t, runs);
  printf ("%-34s %8.0f MB  %8.2f s  %7.0f MB/s   target ≥ 150 MB/s %s\n", "load", mb,
          bench_median (t, runs), speed, speed >= 150 ? "ok" : "MISSED");
  *missed += speed < 150;

  rss0 = rss_bytes ();
  trace = iv_trace_load (path, NULL, NULL, NULL, NULL);
  rss1 = rss_bytes ();
  {
    double per = (double) (rss1 > rss0 ? rss1 - rss0 : 0) / trace->n_slices;
    double strings = (double) iv_intern_bytes (trace->strings) / trace->n_slices;
    printf ("%-34s %8.1f B per slice (%.2f of them strings)   target ≤ 64 + strings %s\n",
            "resident memory after load", per, strings, per <= 64 + strings + 4 ? "ok" : "MISSED");
    *missed += per > 64 + strings + 4;
  }
  {
    g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
    g_autoptr (GArray) first = g_array_new (FALSE, FALSE, sizeof (guint));
    double q[21];
    for (int r = 0; r < 21; r++)
      {
        double t0 = now_s ();
        iv_trace_lod (trace, trace->t0_ns, trace->t1_ns, 2000, items, first);
        q[r] = (now_s () - t0) * 1e3;
      }
    printf ("%-34s %8.3f ms (%u rows, %u items)   target ≤ 2 ms %s\n", "LOD, whole trace, 2000 px",
            bench_median (q, 21), trace->rows->len, items->len,
            bench_median (q, 21) <= 2 ? "ok" : "MISSED");
    *missed += bench_median (q, 21) > 2;
    for (int r = 0; r < 21; r++)
      {
        gint64 span = (trace->t1_ns - trace->t0_ns) / 1000;
        gint64 from = trace->t0_ns + span * r * 40;
        double t0 = now_s ();
        iv_trace_lod (trace, from, from + span, 2000, items, first);
        q[r] = (now_s () - t0) * 1e3;
      }
    printf ("%-34s %8.3f ms (%u items)\n", "LOD, 1/1000 of the trace, 2000 px",
            bench_median (q, 21), items->len);
  }
  iv_trace_free (trace);
  bench_ratios (path, slices, MIN (runs, 5), missed);

  if (baseline)
    {
      double t0 = now_s ();
      g_autoptr (JsonParser) parser = json_parser_new ();
      json_parser_load_from_file (parser, path, NULL);
      double dom = now_s () - t0;
      printf ("%-34s %8.2f s  %7.0f MB/s   (%.1f× slower than the streaming load)\n",
              "baseline: json-glib DOM load", dom, mb / dom, dom / bench_median (t, runs));
    }
  g_unlink (path);
  g_free (t);
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  g_autofree char *dir = g_dir_make_tmp ("bench-trace-XXXXXX", NULL);
  int missed = 0;

  printf (
      "bench-trace: generated Kineto-like traces, one core for parsing\n\n== 1,000,000 slices\n");
  bench_file (dir, 1000000, quick ? 3 : 5, TRUE, &missed);
  if (!quick)
    {
      printf ("\n== 10,000,000 slices\n");
      bench_file (dir, 10000000, 3, FALSE, &missed);
    }
  g_rmdir (dir);
  printf ("\n%s\n", missed ? "some targets missed" : "all targets met");
  return missed ? 1 : 0;
}
