/* bench-trace-diff.c: `trace A B --diff` (issue 33): two generated Kineto-like traces of
 * about 100 MB each, a little apart (5 % more slices in the second), loaded, then
 * compared; the comparison beside the loads of both, in the same run.
 * Target: loading both and comparing them ≤ 1.2 × loading both (the comparison costs at
 * most a fifth of the loads). `--quick`: 20 MB traces, one round. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "iv-trace-diff.h"

#include "bench-common.h"
#include "bench-trace-gen.h"

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  g_autofree char *dir = g_dir_make_tmp ("bench-trace-diff-XXXXXX", NULL);
  g_autofree char *pa = g_build_filename (dir, "a.json", NULL);
  g_autofree char *pb = g_build_filename (dir, "b.json", NULL);
  gsize n = quick ? 150000 : 750000;
  int rounds = quick ? 1 : 3;
  double load[3], cmp[3], mb;
  GStatBuf sa, sb;
  guint entries = 0;

  bench_generate_trace (pa, n);
  bench_generate_trace (pb, n + n / 20);
  g_stat (pa, &sa);
  g_stat (pb, &sb);
  mb = (sa.st_size + sb.st_size) / 2e6;
  for (int r = 0; r < rounds; r++)
    {
      gint64 t0 = g_get_monotonic_time (), t1;
      g_autoptr (IvTrace) a = iv_trace_load (pa, NULL, NULL, NULL, NULL);
      g_autoptr (IvTrace) b = iv_trace_load (pb, NULL, NULL, NULL, NULL);
      g_autoptr (IvTraceDiff) d = NULL;
      g_assert (a && b);
      t1 = g_get_monotonic_time ();
      d = iv_trace_diff_new (a, b, -1, -1, NULL);
      g_assert (d);
      entries = d->entries->len;
      load[r] = (t1 - t0) / 1e6;
      cmp[r] = (g_get_monotonic_time () - t1) / 1e6;
    }
  {
    double l = bench_median (load, rounds), c = bench_median (cmp, rounds);
    double ratio = (l + c) / l;
    printf ("bench-trace-diff: two generated Kineto-like traces of %.0f MB each\n\n", mb);
    printf ("%-34s %8.2f s\n", "load both (baseline)", l);
    printf ("%-34s %8.2f s  (%u entries)\n", "compare (--diff)", c, entries);
    printf ("%-34s %8.2f ×   target ≤ 1.2 × %s\n", "load both and compare / load both", ratio,
            ratio <= 1.2 ? "ok" : "MISSED");
    g_unlink (pa);
    g_unlink (pb);
    g_rmdir (dir);
    printf ("\n%s\n", ratio <= 1.2 ? "all targets met" : "some targets missed");
    return ratio <= 1.2 ? 0 : 1;
  }
}
