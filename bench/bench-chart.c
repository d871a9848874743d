/* bench-chart: the chart toolkit's four figures from issue 3, each beside a naive cairo
 * baseline measured in the same run:
 *   1. 100,000-point scatter redraw at 1920×1080      (target ≤ 16 ms, median)
 *   2. 1,000,000-point scatter redraw at 1920×1080    (target ≤ 60 ms, median)
 *   3. 1,000,000-point line redraw (decimated)         (median; baseline draws every point)
 *   4. PDF of 1,000,000 scatter points                 (target ≤ 5 MB)
 * Usage: bench-chart [--quick]. Times are wall-clock medians on one core. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iv-chart.h"
#include "iv-export.h"

#include "bench-common.h"

#define W 1920
#define H 1080

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* Latency-like data: uniform in time, log-normal in value, as a TTFT scatter is. */
static void
make_points (gsize n, double **x, double **y, GRand *rng)
{
  *x = g_new (double, n);
  *y = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      double u = g_rand_double (rng) + 1e-12, v = g_rand_double (rng);
      (*x)[i] = 1e9 * 600.0 * i / n;
      (*y)[i] = exp (3.5 + 0.45 * sqrt (-2 * log (u)) * cos (2 * G_PI * v));
    }
}

static IvChart *
scatter_chart (const double *x, const double *y, gsize n)
{
  IvChart *c = iv_chart_new ();
  iv_chart_set_title (c, "Time to first token", NULL);
  iv_chart_axis_set_time (c, IV_AXIS_X, 0, FALSE);
  iv_chart_axis_set_title (c, IV_AXIS_X, "Time since start");
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_SECONDS, 1e-3, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "TTFT");
  iv_series_set_marker (iv_chart_add_scatter (c, "TTFT", x, y, n), IV_MARKER_CIRCLE, 4);
  return c;
}

static double
time_render (IvChart *chart, int runs)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  double *t = g_new (double, runs), m;

  for (int i = 0; i < runs; i++)
    {
      cairo_t *cr = cairo_create (surface);
      double t0 = now_ms ();
      iv_chart_render (cr, chart, &opt, W, H, NULL);
      cairo_surface_flush (surface);
      t[i] = now_ms () - t0;
      cairo_destroy (cr);
    }
  m = bench_median (t, runs);
  g_free (t);
  cairo_surface_destroy (surface);
  return m;
}

typedef void (*DrawFunc) (cairo_t *cr, const double *x, const double *y, gsize n);

static double
time_drawing (DrawFunc draw, const double *x, const double *y, gsize n, int runs)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  double *t = g_new (double, runs), m;

  for (int r = 0; r < runs; r++)
    {
      cairo_t *cr = cairo_create (surface);
      double t0 = now_ms ();
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      draw (cr, x, y, n);
      cairo_surface_flush (surface);
      t[r] = now_ms () - t0;
      cairo_destroy (cr);
    }
  m = bench_median (t, runs);
  g_free (t);
  cairo_surface_destroy (surface);
  return m;
}

/* The baselines: what a straightforward cairo plot does, every point drawn. */
static void
naive_scatter (cairo_t *cr, const double *x, const double *y, gsize n)
{
  cairo_set_source_rgba (cr, 0, 0.45, 0.7, 0.85);
  for (gsize i = 0; i < n; i++)
    {
      cairo_arc (cr, 60 + x[i] / x[n - 1] * (W - 80), H - 40 - y[i] / 200 * (H - 80), 2, 0,
                 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
naive_line (cairo_t *cr, const double *x, const double *y, gsize n)
{
  cairo_set_source_rgb (cr, 0, 0.45, 0.7);
  cairo_set_line_width (cr, 1.75);
  for (gsize i = 0; i < n; i++)
    cairo_line_to (cr, 60 + x[i] / x[n - 1] * (W - 80), H / 2.0 - y[i]);
  cairo_stroke (cr);
}

static void
row (const char *what, double value, const char *unit, double baseline, const char *target,
     gboolean ok)
{
  printf ("%-44s %9.2f %-3s  baseline %9.2f %-3s  %-10s %s\n", what, value, unit, baseline, unit,
          target, ok ? "ok" : "MISSED");
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int runs = quick ? 3 : 11;
  GRand *rng = g_rand_new_with_seed (7);
  double *x1, *y1, *x2, *y2;
  int missed = 0;

  printf ("bench-chart: medians of %d runs at %d×%d, one core\n\n", runs, W, H);
  make_points (100000, &x1, &y1, rng);
  make_points (1000000, &x2, &y2, rng);

  {
    g_autoptr (IvChart) c = scatter_chart (x1, y1, 100000);
    double t = time_render (c, runs),
           b = time_drawing (naive_scatter, x1, y1, 100000, MAX (3, runs / 3));
    row ("scatter, 100,000 points (full redraw)", t, "ms", b, "≤ 16 ms", t <= 16);
    missed += t > 16;
  }
  {
    g_autoptr (IvChart) c = scatter_chart (x2, y2, 1000000);
    double t = time_render (c, runs), b = time_drawing (naive_scatter, x2, y2, 1000000, 1);
    row ("scatter, 1,000,000 points (full redraw)", t, "ms", b, "≤ 60 ms", t <= 60);
    missed += t > 60;
  }
  {
    g_autoptr (IvChart) c = iv_chart_new ();
    double *walk = g_new (double, 1000000), t, b;
    double v = 0;
    for (gsize i = 0; i < 1000000; i++)
      walk[i] = (v += g_rand_double_range (rng, -1, 1));
    iv_chart_add_line (c, "walk", x2, walk, 1000000);
    t = time_render (c, runs);
    b = time_drawing (naive_line, x2, walk, 1000000, MAX (3, runs / 3));
    row ("line, 1,000,000 points (decimated)", t, "ms", b, "", TRUE);
    g_free (walk);
  }
  {
    g_autoptr (IvChart) c = scatter_chart (x2, y2, 1000000);
    g_autofree char *dir = g_dir_make_tmp ("bench-chart-XXXXXX", NULL);
    g_autofree char *pdf = g_build_filename (dir, "scatter.pdf", NULL);
    IvFigure fig = { iv_chart_render, c, "scatter", NULL };
    IvExportOptions opt;
    GStatBuf st;
    double t0, t, mb;

    iv_export_options_init (&opt);
    opt.format = IV_EXPORT_PDF;
    t0 = now_ms ();
    iv_export_to_file (&fig, &opt, pdf, NULL);
    t = now_ms () - t0;
    g_stat (pdf, &st);
    mb = st.st_size / 1e6;
    printf ("%-44s %9.2f %-3s  (written in %.0f ms)           %-10s %s\n",
            "PDF of 1,000,000 scatter points (slide)", mb, "MB", t, "≤ 5 MB",
            mb <= 5 ? "ok" : "MISSED");
    missed += mb > 5;
    g_unlink (pdf);
    g_rmdir (dir);
  }
  g_free (x1), g_free (y1), g_free (x2), g_free (y2);
  g_rand_free (rng);
  printf ("\n%s\n", missed ? "some targets missed" : "all targets met");
  return missed ? 1 : 0;
}
