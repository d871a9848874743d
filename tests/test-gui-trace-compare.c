/* test-gui-trace-compare.c: issue 33 in the window, headless (xvfb-run +
 * dbus-run-session). Comparing two traces: the sidebar's "Compare with" on a generated pair
 * of known changes (the pair of tests/test-trace-diff.py, the second shifted by 5 ms so the
 * step starts apart), the table against those changes and against iv_trace_diff_new, its
 * sorting, the GPU totals, the two timelines aligned at a step and scrolling together. The
 * Analyses page against what `inferview trace FILE --stats --json` prints for the same
 * HTA trace, whole and scoped to a step. Skips (77) without a display. */
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "iv-gui-test-util.h"
#include "iv-render-timeline.h"
#include "iv-sidebar.h"
#include "iv-trace-analyses-view.h"
#include "iv-trace-compare-view.h"
#include "iv-trace-steps.h"
#include "iv-units.h"
#include "iv-window-private.h"
#include "iv-workspace-page.h"

#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())

/* One complete event; @ts, @dur in µs as the file writes them. */
static void
x (GString *s, const char *name, const char *cat, int ts, int dur, int pid, int tid)
{
  g_string_append_printf (s,
                          "%s{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"%s\",\"ts\":%d,\"dur\":%d,"
                          "\"pid\":%d,\"tid\":%d}",
                          s->str[s->len - 1] == '[' ? "" : ",\n", name, cat, ts, dur, pid, tid);
}

/* test-trace-diff.py's generated trace, every time @shift µs later: a step where
 * aten::mm under forward takes @mm_fwd µs, @gemms GEMM kernels of 50 µs, a relu kernel or
 * not, a GPU annotation of 400 µs or not. */
static char *
write_trace (const char *file, int shift, int mm_fwd, int gemms, gboolean relu, gboolean annot)
{
  char *path = g_build_filename (tmpdir, file, NULL);
  GString *s = g_string_new ("{\"traceEvents\":[");

  x (s, "ProfilerStep#3", "user_annotation", shift, 2000, 1, 1);
  x (s, "forward", "user_annotation", shift + 10, 900, 1, 1);
  x (s, "aten::mm", "cpu_op", shift + 20, mm_fwd, 1, 1);
  x (s, "backward", "user_annotation", shift + 1000, 900, 1, 1);
  x (s, "aten::mm", "cpu_op", shift + 1010, 200, 1, 1);
  for (int i = 0; i < gemms; i++)
    x (s, "gemm_kernel", "kernel", shift + 100 + 100 * i, 50, 0, 7);
  if (relu)
    x (s, "relu_kernel", "kernel", shift + 1500, 10, 0, 7);
  if (annot)
    x (s, "fwd_range", "gpu_user_annotation", shift + 90, 400, 0, 7);
  g_string_append (s, "]}\n");
  g_assert_true (g_file_set_contents (path, s->str, (gssize) s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

static gboolean
compare_done (gpointer view)
{
  return !iv_trace_compare_view_is_busy (view) && iv_trace_compare_view_get_diff (view);
}

static GtkWindow *
find_compare_window (void)
{
  GListModel *tops = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GtkWindow) w = g_list_model_get_item (tops, i);
      if (iv_trace_compare_window_get_view (w))
        return w;
    }
  return NULL;
}

static guint
doc_position (const char *title)
{
  GListModel *docs = iv_window_get_documents (window);
  for (guint i = 0; i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr (IvDocument) d = g_list_model_get_item (docs, i);
      if (g_str_equal (iv_document_get_title (d), title))
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

static double
step_x (IvTimelineView *tv, gint64 t_ns)
{
  const IvFigure *f = iv_timeline_view_get_figure (tv);
  IvTimelineLayout L = { 0 };
  double xv;

  g_assert_nonnull (f);
  iv_timeline_layout (f->data, gtk_widget_get_width (GTK_WIDGET (tv)),
                      gtk_widget_get_height (GTK_WIDGET (tv)), &L);
  xv = iv_timeline_x (&L, t_ns);
  iv_timeline_layout_clear (&L);
  return xv;
}

static char *
seconds (gint64 ns)
{
  return iv_units_format_seconds (ns * 1e-9);
}

static void
test_compare (void)
{
  g_autofree char *a = write_trace ("before.json", 0, 100, 2, FALSE, TRUE);
  g_autofree char *b = write_trace ("after.json", 5000, 150, 3, TRUE, FALSE);
  g_autoptr (GMenuModel) menu = NULL;
  g_autoptr (GVariant) target = NULL;
  g_autoptr (IvDocument) da = NULL;
  g_autoptr (IvDocument) db = NULL;
  g_autoptr (IvTraceDiff) expected = NULL;
  IvTraceCompareView *view;
  GtkWindow *cw;
  guint pa, pb;

  iv_gui_open_paths (window, a, b, NULL);
  iv_gui_settle (window);
  pa = doc_position ("before.json"), pb = doc_position ("after.json");
  da = iv_gui_doc_at (window, pa), db = iv_gui_doc_at (window, pb);
  g_assert_nonnull (iv_document_get_trace (da));
  g_assert_nonnull (iv_document_get_trace (db));

  /* the first trace's context menu offers the second, and its item compares them */
  menu = iv_sidebar_compare_menu (window->sidebar, da);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 1);
  {
    g_autofree char *label = NULL;
    g_assert_true (g_menu_model_get_item_attribute (menu, 0, "label", "s", &label));
    g_assert_cmpstr (label, ==, "Compare with “after.json”");
  }
  target = g_menu_model_get_item_attribute_value (menu, 0, "target", G_VARIANT_TYPE ("(uu)"));
  g_assert_nonnull (target);
  g_assert_true (
      gtk_widget_activate_action_variant (GTK_WIDGET (window), "win.compare-traces", target));
  cw = find_compare_window ();
  g_assert_nonnull (cw);
  view = iv_trace_compare_window_get_view (cw);
  gtk_window_set_default_size (cw, 1280, 720);
  g_assert_true (iv_gui_wait_for (compare_done, view, 30));
  iv_gui_wait_for_paint (cw);

  /* the known changes: the GPU annotation gone (−400 µs) is the largest */
  {
    g_autofree char *top = iv_trace_compare_view_row_text (view, 0);
    g_assert_cmpstr (top, ==, "annotation | fwd_range | 1 | 0 | 400000 | 0 | -400000 | gone");
  }
  /* every row as iv_trace_diff_new says, in its order */
  expected
      = iv_trace_diff_new (iv_document_get_trace (da), iv_document_get_trace (db), -1, -1, NULL);
  g_assert_nonnull (expected);
  g_assert_cmpuint (iv_trace_compare_view_get_n_rows (view), ==, expected->entries->len);
  for (guint i = 0; i < expected->entries->len; i++)
    {
      const IvTraceDiffEntry *e = &g_array_index (expected->entries, IvTraceDiffEntry, i);
      g_autofree char *row = iv_trace_compare_view_row_text (view, i);
      g_autofree char *want = g_strdup_printf (
          "%s | %s | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT " | %" G_GINT64_FORMAT
          " | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | ",
          iv_row_kind_key (e->kind), e->path ? e->path : e->name, e->count[0], e->count[1],
          e->total_ns[0], e->total_ns[1], iv_trace_diff_delta_ns (e));
      g_assert_true (g_str_has_prefix (row, want));
    }
  /* sorted by Δ, largest first: the two +50 µs changes (aten::mm under forward, one more
   * GEMM), then relu_kernel (new, +10 µs); smallest first: fwd_range */
  iv_trace_compare_view_sort (view, "delta", GTK_SORT_DESCENDING);
  {
    g_autofree char *r0 = iv_trace_compare_view_row_text (view, 0);
    g_autofree char *r1 = iv_trace_compare_view_row_text (view, 1);
    g_autofree char *r2 = iv_trace_compare_view_row_text (view, 2);
    g_assert_true (strstr (r0, "| 50000 |") && strstr (r1, "| 50000 |"));
    g_assert_true (strstr (r0, "gemm_kernel | 2 | 3 |") || strstr (r1, "gemm_kernel | 2 | 3 |"));
    g_assert_true (strstr (r0, "forward › aten::mm | 1 | 1 | 100000 | 150000")
                   || strstr (r1, "forward › aten::mm | 1 | 1 | 100000 | 150000"));
    g_assert_cmpstr (r2, ==, "gpu | relu_kernel | 0 | 1 | 0 | 10000 | 10000 | new");
  }
  iv_trace_compare_view_sort (view, "delta", GTK_SORT_ASCENDING);
  {
    g_autofree char *r0 = iv_trace_compare_view_row_text (view, 0);
    g_assert_true (g_str_has_prefix (r0, "annotation | fwd_range |"));
  }
  iv_trace_compare_view_sort (view, "name", GTK_SORT_ASCENDING);
  {
    g_autofree char *r0 = iv_trace_compare_view_row_text (view, 0);
    g_autofree char *last
        = iv_trace_compare_view_row_text (view, iv_trace_compare_view_get_n_rows (view) - 1);
    /* "ProfilerStep#* › …" sorts before the lower-case kernel names, "relu_kernel" last */
    g_assert_true (g_str_has_prefix (last, "gpu | relu_kernel |"));
    g_assert_nonnull (r0);
  }
  iv_trace_compare_view_sort (view, NULL, GTK_SORT_ASCENDING);

  /* GPU busy 100 µs → 160 µs (two and three GEMMs of 50 µs, a relu of 10 µs) */
  {
    g_autofree char *totals = iv_trace_compare_view_totals_text (view);
    g_autofree char *b0 = seconds (100000), *b1 = seconds (160000), *d = seconds (60000);
    g_autofree char *line = g_strdup_printf ("Busy | %s | %s | +%s\n", b0, b1, d);
    g_assert_nonnull (strstr (totals, line));
    g_assert_nonnull (strstr (totals, "Streams | 1 | 1 | +0\n"));
  }
  g_assert_nonnull (iv_trace_compare_view_get_figure (view));

  /* step 3 of both: the timelines aligned at its start (0 and 5 ms), at one x */
  g_assert_false (iv_trace_compare_view_set_step (view, 4));
  g_assert_true (iv_trace_compare_view_set_step (view, 3));
  iv_trace_compare_view_show_page (view, "timelines");
  g_assert_true (iv_gui_wait_for (compare_done, view, 30));
  iv_gui_wait_for_paint (cw);
  {
    IvTimelineView *ta = iv_trace_compare_view_get_timeline (view, 0);
    IvTimelineView *tb = iv_trace_compare_view_get_timeline (view, 1);
    gint64 a0, a1, b0, b1;

    g_assert_cmpint (iv_trace_compare_view_get_anchor (view, 0), ==, 0);
    g_assert_cmpint (iv_trace_compare_view_get_anchor (view, 1), ==, 5000000);
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (ta)), ==,
                     gtk_widget_get_width (GTK_WIDGET (tb)));
    g_assert_cmpfloat (fabs (step_x (ta, 0) - step_x (tb, 5000000)), <, 0.5);
    /* zoom in on the first, pan it: the second shows the same part of its step */
    iv_timeline_view_zoom (ta, 0.25, 0.5);
    iv_timeline_view_pan (ta, 0.3);
    iv_timeline_view_get_range (ta, &a0, &a1);
    iv_timeline_view_get_range (tb, &b0, &b1);
    g_assert_cmpint (a1 - a0, <, 1000000);
    g_assert_cmpint (b0 - 5000000, ==, a0);
    g_assert_cmpint (b1 - b0, ==, a1 - a0);
    /* and the other way */
    iv_timeline_view_pan (tb, -0.2);
    iv_timeline_view_get_range (ta, &a0, &a1);
    iv_timeline_view_get_range (tb, &b0, &b1);
    g_assert_cmpint (b0 - 5000000, ==, a0);
    g_assert_cmpint (b1 - b0, ==, a1 - a0);
    iv_gui_wait_for_paint (cw);
    g_assert_cmpfloat (fabs (step_x (ta, 700000) - step_x (tb, 5700000)), <, 0.5);
  }
  gtk_window_destroy (cw);
}

/* ---------- the Analyses page against the command line ---------- */

static JsonNode *
cli_stats (const char *path, gint64 step)
{
  g_autofree char *out = NULL, *err = NULL, *s = g_strdup_printf ("%" G_GINT64_FORMAT, step);
  const char *argv_whole[] = { g_getenv ("IV_BINARY"), "trace", path, "--stats", "--json", NULL };
  const char *argv_step[]
      = { g_getenv ("IV_BINARY"), "trace", path, "--stats", "--json", "--step", s, NULL };
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) (step < 0 ? argv_whole : argv_step), NULL,
                               G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  return json_from_string (out, NULL);
}

static gboolean
analyses_done (gpointer view)
{
  return !iv_trace_analyses_view_is_busy (view);
}

static void
assert_has_line (const char *text, const char *line)
{
  g_autofree char *with = g_strdup_printf ("%s\n", line);
  if (!strstr (text, with))
    g_error ("the Analyses page lacks «%s»:\n%s", line, text);
}

/* The page's rows hold what the command line's JSON says: streams (idle split), launches,
 * queues, copies, and (whole trace) every step. */
static void
check_against_cli (const char *text, JsonObject *o, gboolean steps)
{
  JsonArray *streams
      = json_object_get_array_member (json_object_get_object_member (o, "gpu"), "streams");
  JsonObject *l = json_object_get_object_member (o, "launches");
  JsonArray *copies = json_object_get_array_member (o, "memory_copies");

  g_assert_cmpuint (json_array_get_length (streams), >, 0);
  for (guint i = 0; i < json_array_get_length (streams); i++)
    {
      JsonObject *s = json_array_get_object_element (streams, i);
      JsonObject *idle = json_object_get_object_member (s, "idle");
      g_autofree char *busy = seconds (json_object_get_int_member (s, "busy_ns"));
      g_autofree char *id = seconds (json_object_get_int_member (s, "idle_ns"));
      g_autofree char *h = seconds (json_object_get_int_member (idle, "host_wait_ns"));
      g_autofree char *k = seconds (json_object_get_int_member (idle, "kernel_wait_ns"));
      g_autofree char *ot = seconds (json_object_get_int_member (idle, "other_ns"));
      g_autofree char *line = g_strdup_printf (
          "%s · %s | %" G_GINT64_FORMAT " | %s | %s | %s | %s | %s",
          json_object_get_string_member (s, "process"), json_object_get_string_member (s, "stream"),
          json_object_get_int_member (s, "kernels"), busy, id, h, k, ot);
      assert_has_line (text, line);
    }
  {
    g_autofree char *count
        = g_strdup_printf ("%" G_GINT64_FORMAT " runtime calls tied to their GPU work",
                           json_object_get_int_member (l, "count"));
    JsonObject *delay = json_object_get_object_member (l, "launch_delay");
    g_autofree char *m = seconds (json_object_get_int_member (delay, "mean_ns"));
    g_autofree char *p50 = seconds (json_object_get_int_member (delay, "p50_ns"));
    g_autofree char *p95 = seconds (json_object_get_int_member (delay, "p95_ns"));
    g_autofree char *max = seconds (json_object_get_int_member (delay, "max_ns"));
    g_autofree char *row = g_strdup_printf ("Launch delay | %s | %s | %s | %s", m, p50, p95, max);
    g_autofree char *outl = g_strdup_printf (
        "Outliers: %" G_GINT64_FORMAT " calls over 50 µs, %" G_GINT64_FORMAT
        " delays over 100 µs, %" G_GINT64_FORMAT " short kernels (shorter than their call)",
        json_object_get_int_member (l, "runtime_outliers"),
        json_object_get_int_member (l, "launch_delay_outliers"),
        json_object_get_int_member (l, "short_kernels"));
    JsonArray *queues = json_object_get_array_member (l, "queues");
    assert_has_line (text, count);
    assert_has_line (text, row);
    assert_has_line (text, outl);
    for (guint i = 0; i < json_array_get_length (queues); i++)
      {
        JsonObject *q = json_array_get_object_element (queues, i);
        g_autofree char *qline
            = g_strdup_printf (" | %" G_GINT64_FORMAT " | %.2f | %.2f | %" G_GINT64_FORMAT,
                               json_object_get_int_member (q, "max"),
                               json_object_get_double_member (q, "time_weighted_mean"),
                               json_object_get_double_member (q, "mean_at_changes"),
                               json_object_get_int_member (q, "changes"));
        g_assert_nonnull (strstr (text, qline));
      }
  }
  for (guint i = 0; i < json_array_get_length (copies); i++)
    {
      JsonObject *c = json_array_get_object_element (copies, i);
      g_autofree char *bytes = iv_units_format_bytes (json_object_get_double_member (c, "bytes"));
      g_autofree char *t = seconds (json_object_get_int_member (c, "time_ns"));
      g_autofree char *line = g_strdup_printf (
          "%s | %" G_GINT64_FORMAT " | %s | %s | %.1f GB/s | %.1f GB/s | %.1f GB/s",
          json_object_get_string_member (c, "type"), json_object_get_int_member (c, "count"), bytes,
          t, json_object_get_double_member (c, "effective_gbps"),
          json_object_get_double_member (c, "mean_gbps"),
          json_object_get_double_member (c, "max_gbps"));
      assert_has_line (text, line);
    }
  if (steps)
    {
      JsonArray *st = json_object_get_array_member (o, "steps");
      for (guint i = 0; i < json_array_get_length (st); i++)
        {
          JsonObject *s = json_array_get_object_element (st, i);
          g_autofree char *d = seconds (json_object_get_int_member (s, "dur_ns"));
          g_autofree char *b = seconds (json_object_get_int_member (s, "gpu_busy_ns"));
          g_autofree char *head = g_strdup_printf ("#%" G_GINT64_FORMAT " | %s | %s | ",
                                                   json_object_get_int_member (s, "step"), d, b);
          g_assert_nonnull (strstr (text, head));
        }
    }
}

/* The queue length of each stream with launches (iv-trace-queue.h): a counter track right
 * after the stream's, "queue · <stream>", its peak the command line's; hovering its band
 * where the queue peaked reads that peak. */
static void
check_queue_tracks (IvWorkspacePage *page, JsonObject *whole)
{
  const IvTrace *t = iv_document_get_trace (iv_workspace_page_get_document (page));
  IvTimelineView *tv = iv_workspace_page_get_timeline (page);
  const IvFigure *f = iv_timeline_view_get_figure (tv);
  JsonArray *qs = json_object_get_array_member (json_object_get_object_member (whole, "launches"),
                                                "queue_series");
  IvTimelineLayout L = { 0 };

  g_assert_nonnull (f);
  /* tall enough for every band */
  iv_timeline_layout (f->data, 1200, 100000, &L);
  g_assert_cmpuint (json_array_get_length (qs), >, 0);
  for (guint i = 0; i < json_array_get_length (qs); i++)
    {
      JsonObject *q = json_array_get_object_element (qs, i);
      const char *pid = json_object_get_string_member (q, "pid");
      const char *tid = json_object_get_string_member (q, "tid");
      gint64 max = json_object_get_int_member (q, "max");
      gint64 max_ns = json_object_get_int_member (q, "max_ns");
      guint k = G_MAXUINT, hit;
      const IvTrack *stream, *counter;
      const IvCounterSeries *se;
      g_autofree char *name = NULL;
      double v = -1, sy;

      for (guint j = 0; j + 1 < t->tracks->len && k == G_MAXUINT; j++)
        {
          const IvTrack *tr = &g_array_index (t->tracks, IvTrack, j);
          const IvProcess *p = t->processes->pdata[tr->process];
          if (tr->kind != IV_TRACK_COUNTER && g_str_equal (tr->key, tid)
              && g_str_equal (p->key, pid))
            k = j;
        }
      g_assert_cmpuint (k, !=, G_MAXUINT);
      stream = &g_array_index (t->tracks, IvTrack, k);
      counter = &g_array_index (t->tracks, IvTrack, k + 1);
      name = g_strdup_printf ("queue · %s", stream->name ? stream->name : stream->key);
      g_assert_cmpint (counter->kind, ==, IV_TRACK_COUNTER);
      g_assert_cmpuint (counter->process, ==, stream->process);
      g_assert_cmpuint (counter->n_series, ==, 1);
      se = &g_array_index (t->series, IvCounterSeries, counter->first_series);
      g_assert_cmpstr (iv_trace_string (t, se->name), ==, name);
      g_assert_cmpfloat (se->max, ==, (double) max);
      sy = g_array_index (L.series_y, double, counter->first_series);
      g_assert_cmpfloat (sy, >=, 0);
      hit = iv_timeline_counter_at (f->data, &L, iv_timeline_x (&L, max_ns), sy + L.series_h / 2,
                                    &v);
      g_assert_cmpuint (hit, ==, counter->first_series);
      g_assert_cmpfloat (v, ==, (double) max);
    }
  iv_timeline_layout_clear (&L);
}

/* The label reading @text under @w, or NULL. */
static GtkWidget *
find_label (GtkWidget *w, const char *text)
{
  if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);
      if (found)
        return found;
    }
  return NULL;
}

/* The user guide's pictures of the queue length (with IV_SCREENSHOTS=DIR only): the
 * Analyses page at its queue section, and the timeline with only the GPU's tracks open,
 * each stream's queue under it (and the memory curves). */
static void
shoot_queues (IvWorkspacePage *page, IvTraceAnalysesView *view, const char *dir)
{
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (view)));
  GtkWidget *scroller = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *heading = find_label (GTK_WIDGET (view), "Queue length per stream");
  IvTimelineView *tv = iv_workspace_page_get_timeline (page);
  const IvTrace *t = iv_document_get_trace (iv_workspace_page_get_document (page));
  g_autofree char *chart_png = g_build_filename (dir, "trace-queue-chart.png", NULL);
  g_autofree char *timeline_png = g_build_filename (dir, "trace-queue-timeline.png", NULL);
  graphene_point_t at;
  gint64 t0, t1;

  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  g_assert_nonnull (heading);
  gtk_stack_set_visible_child_name (stack, "analyses");
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_true (gtk_widget_compute_point (
      heading, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
      &GRAPHENE_POINT_INIT (0, 0), &at));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)),
                            at.y - 8);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_gui_snapshot (GTK_WINDOW (window), chart_png);

  gtk_stack_set_visible_child_name (stack, "timeline");
  for (guint p = 0; p < t->processes->len; p++)
    if (((const IvProcess *) t->processes->pdata[p])->kind != IV_PROCESS_GPU)
      iv_timeline_view_toggle_process (tv, p);
  iv_trace_activity_range (t, &t0, &t1);
  iv_timeline_view_set_range (tv, t0, t1);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_gui_snapshot (GTK_WINDOW (window), timeline_png);
  for (guint p = 0; p < t->processes->len; p++)
    if (((const IvProcess *) t->processes->pdata[p])->kind != IV_PROCESS_GPU)
      iv_timeline_view_toggle_process (tv, p);

  /* the memory curves: every process open, the first iteration */
  {
    g_autofree char *memory_png = g_build_filename (dir, "trace-memory.png", NULL);
    iv_timeline_view_set_range (tv, t0, t0 + (t1 - t0) / 5);
    iv_gui_wait_for_paint (GTK_WINDOW (window));
    iv_gui_snapshot (GTK_WINDOW (window), memory_png);
  }
}

static void
test_analyses (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "traces",
                                                 "kineto_hta_nccl_ddp_rank0.json.gz", NULL);
  g_autoptr (JsonNode) whole = cli_stats (path, -1);
  g_autoptr (JsonNode) scoped = NULL;
  IvWorkspacePage *page;
  IvTraceAnalysesView *view;
  g_autofree char *text = NULL;
  gint64 step, t0, t1, v0, v1;
  JsonArray *steps;

  iv_gui_open_paths (window, path, NULL);
  iv_gui_settle (window);
  page = _iv_window_get_page (window, IV_GROUP_TRACES);
  view = iv_workspace_page_get_analyses (page);
  g_assert_nonnull (view);
  check_queue_tracks (page, json_node_get_object (whole));
  /* nothing is computed until the page shows */
  g_assert_false (iv_trace_analyses_view_is_busy (view));
  text = iv_trace_analyses_view_to_text (view);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (view))),
                                    "analyses");
  g_assert_true (iv_trace_analyses_view_is_busy (view));
  g_assert_true (iv_gui_wait_for (analyses_done, view, 60));
  text = iv_trace_analyses_view_to_text (view);
  check_against_cli (text, json_node_get_object (whole), TRUE);
  g_assert_nonnull (iv_trace_analyses_view_get_figure (view));

  /* scoped to the second step: the page counts it, the timeline shows it */
  steps = json_object_get_array_member (json_node_get_object (whole), "steps");
  step = json_object_get_int_member (json_array_get_object_element (steps, 1), "step");
  g_assert_true (iv_trace_analyses_view_set_step (view, step));
  g_assert_true (iv_gui_wait_for (analyses_done, view, 60));
  g_clear_pointer (&text, g_free);
  text = iv_trace_analyses_view_to_text (view);
  {
    g_autofree char *scope = g_strdup_printf ("Scoped to ProfilerStep#%" G_GINT64_FORMAT, step);
    g_assert_true (g_str_has_prefix (text, scope));
  }
  scoped = cli_stats (path, step);
  check_against_cli (text, json_node_get_object (scoped), FALSE);
  g_assert_true (iv_trace_step_range (iv_document_get_trace (iv_workspace_page_get_document (page)),
                                      step, &t0, &t1));
  iv_timeline_view_get_range (iv_workspace_page_get_timeline (page), &v0, &v1);
  g_assert_cmpint (v0, ==, t0);
  g_assert_cmpint (v1, ==, t1);
  g_assert_false (iv_trace_analyses_view_set_step (view, 999999));

  /* the memory curves' peaks of a trace with allocator events, as the command line says */
  {
    g_autofree char *legacy = g_test_build_filename (
        G_TEST_DIST, "data", "traces", "kineto_legacy2021_resnet50_v100.json.gz", NULL);
    g_autoptr (JsonNode) mem = cli_stats (legacy, -1);
    JsonObject *o = json_node_get_object (mem);
    JsonArray *peaks = json_object_get_array_member (o, "memory");
    gint64 start = json_object_get_int_member (o, "start_ns");

    iv_gui_open_paths (window, legacy, NULL);
    iv_gui_settle (window);
    /* a trace opens on its timeline: the page computes once shown again */
    gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (view))),
                                      "analyses");
    g_assert_true (iv_gui_wait_for (analyses_done, view, 60));
    g_clear_pointer (&text, g_free);
    text = iv_trace_analyses_view_to_text (view);
    g_assert_cmpuint (json_array_get_length (peaks), ==, 2);
    for (guint i = 0; i < json_array_get_length (peaks); i++)
      {
        JsonObject *m = json_array_get_object_element (peaks, i);
        g_autofree char *peak
            = iv_units_format_bytes (json_object_get_double_member (m, "peak_bytes"));
        g_autofree char *at = seconds (json_object_get_int_member (m, "peak_ns") - start);
        g_autofree char *line = g_strdup_printf ("%s | %s | %s | %" G_GINT64_FORMAT,
                                                 json_object_get_string_member (m, "name"), peak,
                                                 at, json_object_get_int_member (m, "samples"));
        assert_has_line (text, line);
      }
  }
  if (g_getenv ("IV_SCREENSHOTS"))
    {
      g_autofree char *png
          = g_build_filename (g_getenv ("IV_SCREENSHOTS"), "trace-analyses.png", NULL);
      GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (view)));
      iv_trace_analyses_view_set_step (view, -1);
      g_assert_true (iv_gui_wait_for (analyses_done, view, 60));
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
      gtk_stack_set_visible_child_name (stack, "analyses");
      iv_gui_wait_for_paint (GTK_WINDOW (window));
      iv_gui_snapshot (GTK_WINDOW (window), png);
      shoot_queues (page, view, g_getenv ("IV_SCREENSHOTS"));
    }
}

/* The user guide's pictures (with IV_SCREENSHOTS=DIR only): HTA's control/test pair
 * (tests/data/trace-diff/hta) compared, its changes and its timelines at step 1011. */
static void
shoot_compare (void)
{
  g_autofree char *a
      = g_test_build_filename (G_TEST_DIST, "data", "trace-diff", "hta", "control.json.gz", NULL);
  g_autofree char *b
      = g_test_build_filename (G_TEST_DIST, "data", "trace-diff", "hta", "test.json.gz", NULL);
  const char *dir = g_getenv ("IV_SCREENSHOTS");
  g_autofree char *changes = g_build_filename (dir, "trace-compare.png", NULL);
  g_autofree char *timelines = g_build_filename (dir, "trace-compare-timelines.png", NULL);
  g_autoptr (IvDocument) da = NULL;
  IvTraceCompareView *view;
  GtkWindow *cw;

  iv_gui_open_paths (window, a, b, NULL);
  iv_gui_settle (window);
  da = iv_gui_doc_at (window, doc_position ("control.json.gz"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-traces", "(uu)",
                                             doc_position ("control.json.gz"),
                                             doc_position ("test.json.gz")));
  cw = find_compare_window ();
  view = iv_trace_compare_window_get_view (cw);
  g_assert_true (iv_gui_wait_for (compare_done, view, 60));
  iv_gui_wait_for_paint (cw);
  iv_gui_wait_for_paint (cw);
  iv_gui_snapshot (cw, changes);
  g_assert_true (iv_trace_compare_view_set_step (view, 1011));
  iv_trace_compare_view_show_page (view, "timelines");
  g_assert_true (iv_gui_wait_for (compare_done, view, 60));
  iv_gui_wait_for_paint (cw);
  iv_gui_wait_for_paint (cw);
  iv_gui_snapshot (cw, timelines);
  gtk_window_destroy (cw);
}

static const IvGuiCase cases[] = {
  { "/gui/trace-compare", test_compare },
  { "/gui/trace-analyses", test_analyses },
  { "/gui/trace-compare-screenshots", shoot_compare },
};

int
main (int argc, char **argv)
{
  /* the pictures are taken on request only: they check nothing the other cases do not */
  return iv_gui_run_cases (&argc, &argv, cases,
                           G_N_ELEMENTS (cases) - (g_getenv ("IV_SCREENSHOTS") ? 0 : 1));
}
