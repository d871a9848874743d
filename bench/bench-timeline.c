/* bench-timeline: one timeline frame at 1920×1080 (issue 7: median ≤ 8 ms, p95 ≤ 16 ms),
 * zoomed out to the whole trace and zoomed in to a thousandth of it, on a generated trace
 * shaped like Chromium's 348k-event startup trace (25 processes, 250 threads, deep task
 * trees, instants, async slices, flows, counters) and on generated Kineto-like traces of
 * 1 M and 10 M slices; beside a baseline measured in the same run:
 * the same rows drawn naively, one rectangle per slice, without the level of detail; and
 * the size of a PDF of the whole trace (target ≤ 5 MB).
 * Usage: bench-timeline [--quick] (quick: the Chromium shape and 1 M slices only). */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"
#include "bench-trace-gen.h"
#include "iv-export.h"
#include "iv-render-timeline.h"

#define W 1920
#define H 1080

static void
frame_times (IvTimelineFigure *fig, int runs, double *median_ms, double *p95_ms)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  IvRenderOptions options = { IV_THEME_LIGHT, 1.0 };
  double *t = g_new (double, runs);

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      cairo_t *cr = cairo_create (s);
      iv_render_timeline (cr, fig, &options, W, H, NULL);
      cairo_destroy (cr);
      cairo_surface_flush (s);
      t[i] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  *median_ms = bench_median (t, runs); /* sorts t */
  *p95_ms = t[(int) (runs * 0.95) < runs ? (int) (runs * 0.95) : runs - 1];
  g_free (t);
  cairo_surface_destroy (s);
}

/* Every slice of the rows a frame shows, one rectangle each. */
static double
naive_ms (const IvTrace *trace, gint64 t0, gint64 t1)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  gint64 start = g_get_monotonic_time ();
  double scale = (W - 200.0) / (double) (t1 - t0);

  for (guint r = 0; r < trace->rows->len && r < 50; r++)
    {
      const IvRow *row = &g_array_index (trace->rows, IvRow, r);
      for (gsize i = row->first; i < row->first + row->n; i++)
        if (trace->start_ns[i] + trace->dur_ns[i] >= t0 && trace->start_ns[i] <= t1)
          cairo_rectangle (cr, 200 + (trace->start_ns[i] - t0) * scale, 100 + r * 18,
                           MAX (1, trace->dur_ns[i] * scale), 16);
      cairo_set_source_rgb (cr, 0.2, 0.4, 0.8);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return (g_get_monotonic_time () - start) / 1000.0;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  g_autofree char *dir = g_dir_make_tmp ("iv-bench-timeline-XXXXXX", NULL);
  static const struct
  {
    const char *label;
    gsize (*generate) (const char *path, gsize n);
    gsize n;
  } traces[] = {
    { "events, Chromium startup shape", bench_generate_chromium_trace, 348000 },
    { "slices, Kineto-like", bench_generate_trace, 1000000 },
    { "slices, Kineto-like", bench_generate_trace, 10000000 },
  };
  int missed = 0;

  printf ("bench-timeline: one frame at %d×%d, median and p95 of 31 frames\n\n", W, H);
  for (guint k = 0; k < (quick ? 2u : G_N_ELEMENTS (traces)); k++)
    {
      g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (IvTrace) trace = NULL;
      gsize n = traces[k].generate (path, traces[k].n);
      IvTimelineFigure fig = { NULL, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
      gint64 span;

      trace = iv_trace_load (path, NULL, NULL, NULL, &error);
      g_unlink (path);
      if (!trace)
        {
          fprintf (stderr, "bench-timeline: %s\n", error->message);
          return 1;
        }
      fig.trace = trace;
      span = trace->t1_ns - trace->t0_ns;
      printf ("== %" G_GSIZE_FORMAT " %s (%" G_GSIZE_FORMAT " slices, %u rows)\n", n,
              traces[k].label, trace->n_slices, trace->rows->len);
      for (int zoom = 0; zoom < 2; zoom++)
        {
          double med, p95, naive;
          fig.t0_ns = trace->t0_ns + (zoom ? span / 2 : 0);
          fig.t1_ns = zoom ? fig.t0_ns + span / 1000 : trace->t1_ns;
          frame_times (&fig, 31, &med, &p95);
          naive = naive_ms (trace, fig.t0_ns, fig.t1_ns);
          printf ("%-22s median %6.2f ms  p95 %6.2f ms   baseline (every slice drawn) %8.2f ms   "
                  "target ≤ 8 / ≤ 16 ms %s\n",
                  zoom ? "zoomed in (1/1000)" : "zoomed out (all)", med, p95, naive,
                  med <= 8 && p95 <= 16 ? "ok" : "MISSED");
          missed += med > 8 || p95 > 16;
        }
      /* The whole trace as a PDF: the level of detail keeps it to what the pixels show. */
      {
        g_autofree char *pdf = g_build_filename (dir, "timeline.pdf", NULL);
        IvFigure figure = { iv_render_timeline, &fig, "timeline", NULL };
        IvExportOptions eo;
        GStatBuf st;
        fig.t0_ns = trace->t0_ns, fig.t1_ns = trace->t1_ns;
        iv_export_options_init (&eo);
        eo.format = IV_EXPORT_PDF, eo.width = W, eo.height = H;
        if (iv_export_to_file (&figure, &eo, pdf, NULL) && g_stat (pdf, &st) == 0)
          {
            printf ("%-22s %6.2f MB   target ≤ 5 MB %s\n", "PDF of the whole trace",
                    st.st_size / 1e6, st.st_size <= 5000000 ? "ok" : "MISSED");
            missed += st.st_size > 5000000;
          }
        g_unlink (pdf);
      }
    }
  g_rmdir (dir);
  printf ("\n%s\n", missed ? "some targets missed" : "all targets met");
  return missed ? 1 : 0;
}
