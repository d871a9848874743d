/* bench-inputs: pathological but legal inputs must stay interactive (issue 12). Each
 * figure is printed beside a baseline of the ordinary case, measured in the same run:
 *   - a trace of 10^6 distinct names: load, statistics by name and their JSON
 *     (`trace --stats --json`; target ≤ 3 s), beside the same slices under 50 names;
 *   - 100,000 counter tracks drawn at 1600×900 (target ≤ 5 s), beside one counter track
 *     with as many samples;
 *   - discovering the runs in a folder of 50,000 entries (target about a second), beside a
 *     bare readdir of the same folders;
 *   - a plot configuration nested 100,000 deep refused (target well under a second),
 *     beside reading the built-in configuration.
 * Usage: bench-inputs [--quick] (quick: one sample each instead of three). Files are
 * generated in a temporary folder and removed. */
#include <cairo.h>
#include <dirent.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"
#include "iv-json-writer.h"
#include "iv-plot-config.h"
#include "iv-render-timeline.h"
#include "iv-sniff.h"
#include "iv-trace-query.h"
#include "iv-trace.h"

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static char *tmpdir;

static char *
write_text (const char *name, GString *text)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_assert (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

/* n complete events on 8 threads, named from @n_names names. */
static char *
names_trace (const char *file, guint n, guint n_names)
{
  g_autoptr (GString) s = g_string_sized_new ((gsize) n * 70);
  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (
        s, "%s{\"ph\":\"X\",\"name\":\"n%u\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":1}",
        i ? "," : "", i % n_names, i % 8, i * 2);
  g_string_append_c (s, ']');
  return write_text (file, s);
}

/* n_tracks counter tracks × per_track samples. */
static char *
counters_trace (const char *file, guint n_tracks, guint per_track)
{
  g_autoptr (GString) s = g_string_new ("[");
  gboolean first = TRUE;
  for (guint k = 0; k < n_tracks; k++)
    for (guint j = 0; j < per_track; j++, first = FALSE)
      g_string_append_printf (
          s, "%s{\"ph\":\"C\",\"name\":\"c%u\",\"pid\":1,\"ts\":%u,\"args\":{\"v\":%u}}",
          first ? "" : ",", k, k + j * 50, j);
  g_string_append_c (s, ']');
  return write_text (file, s);
}

static double
stats_json_s (const char *path)
{
  double t0 = now_s ();
  g_autoptr (GError) error = NULL;
  IvTrace *t = iv_trace_load (path, NULL, NULL, NULL, &error);
  g_autoptr (GArray) by_name = NULL;
  IvJsonWriter *w;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  by_name = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
  w = iv_json_writer_new (TRUE);
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < by_name->len; i++)
    {
      IvNameStats *s = &g_array_index (by_name, IvNameStats, i);
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "name");
      iv_json_writer_string (w, iv_trace_string (t, s->name));
      iv_json_writer_key (w, "total_ns");
      iv_json_writer_int (w, s->total_ns);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  text = iv_json_writer_finish (w);
  iv_trace_free (t);
  return now_s () - t0;
}

static double
draw_s (const char *path)
{
  g_autoptr (GError) error = NULL;
  IvTrace *t = iv_trace_load (path, NULL, NULL, NULL, &error);
  IvTimelineFigure fig = { t, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL, FALSE };
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 900);
  cairo_t *cr = cairo_create (s);
  double t0 = now_s ();

  g_assert_no_error (error);
  iv_render_timeline (cr, &fig, &opt, 1600, 900, NULL);
  cairo_surface_flush (s);
  t0 = now_s () - t0;
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  iv_trace_free (t);
  return t0;
}

static char *
wide_folder (void)
{
  char *root = g_build_filename (tmpdir, "wide", NULL);
  for (guint i = 0; i < 500; i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/d%03u", root, i);
      g_assert (g_mkdir_with_parents (dir, 0755) == 0);
      for (guint j = 0; j < 100; j++)
        {
          g_autofree char *f = g_strdup_printf ("%s/f%03u.txt", dir, j);
          g_assert (g_file_set_contents (f, "", 0, NULL));
        }
    }
  {
    g_autofree char *run = g_build_filename (root, "d007", "run", "profile_export.jsonl", NULL);
    g_autofree char *parent = g_path_get_dirname (run);
    g_assert (g_mkdir_with_parents (parent, 0755) == 0);
    g_assert (g_file_set_contents (run, "{}\n", -1, NULL));
  }
  return root;
}

static guint
bare_walk (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  guint n = 0;

  while (d && (e = readdir (d)) != NULL)
    {
      if (e->d_name[0] == '.')
        continue;
      n++;
      if (e->d_type == DT_DIR)
        {
          g_autofree char *sub = g_build_filename (dir, e->d_name, NULL);
          n += bare_walk (sub);
        }
    }
  if (d)
    closedir (d);
  return n;
}

#define MEASURE(out, expr)                                                                         \
  do                                                                                               \
    {                                                                                              \
      double v_[3];                                                                                \
      for (int i_ = 0; i_ < samples; i_++)                                                         \
        v_[i_] = (expr);                                                                           \
      out = bench_median (v_, samples);                                                            \
    }                                                                                              \
  while (0)

static double
discover_s (const char *root)
{
  double t0 = now_s ();
  g_autoptr (IvSniffResult) r = iv_sniff_path (root, FALSE, NULL, NULL, NULL, NULL);
  g_assert (r && r->runs->len == 1);
  return now_s () - t0;
}

static double
walk_s (const char *root)
{
  double t0 = now_s ();
  g_assert (bare_walk (root) > 50000);
  return now_s () - t0;
}

static double
yaml_s (const char *text, gsize len)
{
  double t0 = now_s ();
  g_autoptr (GError) error = NULL;
  IvPlotConfig *c = text ? iv_plot_config_parse (text, len, "deep.yaml", &error)
                         : iv_plot_config_load (NULL, &error);
  g_assert ((c != NULL) == (text == NULL));
  if (c)
    iv_plot_config_free (c);
  return now_s () - t0;
}

int
main (int argc, char **argv)
{
  gboolean quick = argc > 1 && strcmp (argv[1], "--quick") == 0;
  int samples = quick ? 1 : 3;
  g_autofree char *many = NULL, *few = NULL, *tracks = NULL, *one = NULL, *wide = NULL;
  g_autofree char *deep = g_strnfill (100000, '[');
  double a, b;

  tmpdir = g_dir_make_tmp ("bench-inputs-XXXXXX", NULL);
  many = names_trace ("names-1m.json", 1000000, 1000000);
  few = names_trace ("names-50.json", 1000000, 50);
  MEASURE (a, stats_json_s (many));
  MEASURE (b, stats_json_s (few));
  printf ("10^6 distinct names, load + stats + JSON: %.2f s (target <= 3 s); baseline 50 names: "
          "%.2f s\n",
          a, b);

  tracks = counters_trace ("tracks-100k.json", 100000, 2);
  one = counters_trace ("track-1.json", 1, 200000);
  MEASURE (a, draw_s (tracks));
  MEASURE (b, draw_s (one));
  printf ("100,000 counter tracks drawn at 1600x900: %.3f s (target <= 5 s); baseline one track of "
          "as many samples: %.3f s\n",
          a, b);

  wide = wide_folder ();
  MEASURE (a, discover_s (wide));
  MEASURE (b, walk_s (wide));
  printf ("run discovery in 50,500 entries: %.3f s (target about 1 s); baseline bare readdir walk: "
          "%.3f s\n",
          a, b);

  MEASURE (a, yaml_s (deep, strlen (deep)));
  MEASURE (b, yaml_s (NULL, 0));
  printf ("plot config nested 100,000 deep refused: %.4f s (target < 1 s); baseline built-in "
          "config read: %.4f s\n",
          a, b);

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    if (system (cmd) != 0)
      fprintf (stderr, "could not remove %s\n", tmpdir);
  }
  return 0;
}
