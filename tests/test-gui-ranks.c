/* test-gui-ranks.c: a distributed job in the real window, headless (xvfb-run +
 * dbus-run-session): a folder of rank traces, or the rank files opened together, is one
 * document on the Traces workspace; its timeline has a group (a process) per rank and
 * hiding a rank takes its rows away; the Ranks table holds the numbers
 * `inferview trace DIR --stats --json` prints for the same folder (which test-ranks.py
 * checks against an independent parse); hovering a collective outlines the same instance
 * on every rank, and the bar names the rank that arrived last as the generator wrote it;
 * the alignment toggle applies the offsets the generator's skewed clocks call for. Jobs
 * are written by tests/gen-rank-traces.py. Skips (77) without a display. */
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-gui-test-util.h"
#include "iv-ranks-view.h"
#include "iv-window-private.h"
#include "iv-window.h"
#include "iv-workspace-page.h"

#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())

/* Writes a job of @ranks ranks with @clock into a new folder of the case's, and returns
 * the folder. */
static char *
generate (const char *name, int ranks, const char *clock)
{
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "gen-rank-traces.py", NULL);
  char *dir = g_build_filename (tmpdir, name, NULL);
  g_autofree char *n = g_strdup_printf ("%d", ranks);
  const char *argv[]
      = { "python3", gen, dir, "--ranks", n, "--steps", "6", "--clock", clock, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return dir;
}

static JsonNode *
read_json (const char *path)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_autoptr (GError) error = NULL;
  json_parser_load_from_file (p, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (p));
}

/* `inferview trace DIR --stats --json`, parsed. */
static JsonNode *
cli_stats (const char *dir)
{
  const char *binary = g_getenv ("IV_BINARY");
  const char *argv[] = { binary, "trace", dir, "--stats", "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) p = json_parser_new ();
  int status = 0;

  g_assert_nonnull (binary);
  g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  json_parser_load_from_data (p, out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (p));
}

static IvWorkspacePage *
traces_page (void)
{
  return _iv_window_get_page (window, IV_GROUP_TRACES);
}

/* Opens @paths, waits for the loads, and returns the one document (a reference). */
static IvDocument *
open_job (const char *const *paths, guint n)
{
  IvDocument *doc;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  iv_window_open (window, (GFile **) files->pdata, (int) files->len);
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 1);
  doc = iv_gui_doc_at (window, 0);
  g_assert_cmpint (iv_document_get_state (doc), ==, IV_DOCUMENT_READY);
  g_assert_cmpint (iv_document_get_group (doc), ==, IV_GROUP_TRACES);
  g_assert_nonnull (iv_document_get_job (doc));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  return doc;
}

/* How many process headers and rows of process @p the last frame drew. */
static void
drawn (IvTimelineView *view, guint process, gboolean *header, guint *rows)
{
  const IvTrace *t = iv_document_get_trace (iv_workspace_page_get_document (traces_page ()));
  IvTimelineLayout layout = { 0 };
  IvTimelineFigure fig = *(const IvTimelineFigure *) iv_timeline_view_get_figure (view)->data;

  iv_timeline_layout (&fig, 1200, 4000, &layout);
  *header = g_array_index (layout.header_y, double, process) >= 0;
  *rows = 0;
  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, row->track);
      if (tr->process == process && g_array_index (layout.row_y, double, r) >= 0)
        (*rows)++;
    }
  iv_timeline_layout_clear (&layout);
}

static void
test_folder (void)
{
  g_autofree char *dir = generate ("job", 4, "wall");
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);
  IvTraceJob *job = iv_document_get_job (doc);
  IvTimelineView *view = iv_workspace_page_get_timeline (traces_page ());
  IvJobBar *bar = iv_workspace_page_get_job_bar (traces_page ());
  const IvTrace *t = iv_document_get_trace (doc);
  gboolean header;
  guint rows, rows_before[4];

  /* one group a rank: rank r's GPU streams 7 and 20 and its CPU thread */
  g_assert_cmpuint (job->ranks->ranks->len, ==, 4);
  g_assert_cmpuint (t->processes->len, ==, 4);
  for (guint p = 0; p < 4; p++)
    {
      g_autofree char *name = g_strdup_printf ("rank %u", p);
      guint tracks = 0;
      g_assert_cmpstr (((IvProcess *) t->processes->pdata[p])->name, ==, name);
      for (guint k = 0; k < t->tracks->len; k++)
        tracks += g_array_index (t->tracks, IvTrack, k).process == p;
      g_assert_cmpuint (tracks, ==, 3);
      drawn (view, p, &header, &rows_before[p]);
      g_assert_true (header);
      g_assert_cmpuint (rows_before[p], >=, 3);
    }
  /* every slice of the four files, once */
  {
    gsize slices = 0;
    for (guint r = 0; r < 4; r++)
      slices += job->slice_base[r + 1] - job->slice_base[r];
    g_assert_cmpuint (slices, ==, t->n_slices);
    /* 6 steps × (2 compute kernels + all-reduce + memset + 4 CPU ops) per rank */
    g_assert_cmpuint (t->n_slices, ==, 4 * 6 * 8);
  }
  /* hiding rank 2 takes its header and rows away, and only those */
  iv_job_bar_set_rank_visible (bar, 2, FALSE);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  for (guint p = 0; p < 4; p++)
    {
      drawn (view, p, &header, &rows);
      g_assert_cmpint (header, ==, p != 2);
      g_assert_cmpuint (rows, ==, p == 2 ? 0 : rows_before[p]);
    }
  iv_job_bar_set_rank_visible (bar, 2, TRUE);
  drawn (view, 2, &header, &rows);
  g_assert_true (header);
  g_assert_cmpuint (rows, ==, rows_before[2]);
}

/* Four rank files opened together (as a drop or the command line gives them), with a
 * trace that is no rank's: the ranks are one job, the other its own document. */
static void
test_files (void)
{
  g_autofree char *dir = generate ("job", 4, "wall");
  g_autofree char *other = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (IvDocument) a = NULL, b = NULL;
  IvDocument *job_doc;

  for (int r = 3; r >= 0; r--)
    {
      g_autofree char *p = g_strdup_printf ("%s/rank-%d.pt.trace.json", dir, r);
      g_ptr_array_add (files, g_file_new_for_path (p));
    }
  g_ptr_array_add (files, g_file_new_for_path (other));
  iv_window_open (window, (GFile **) files->pdata, (int) files->len);
  iv_gui_settle (window);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 2);
  a = iv_gui_doc_at (window, 0);
  b = iv_gui_doc_at (window, 1);
  g_assert_cmpint (iv_document_get_state (a), ==, IV_DOCUMENT_READY);
  g_assert_cmpint (iv_document_get_state (b), ==, IV_DOCUMENT_READY);
  g_assert_true ((iv_document_get_job (a) != NULL) != (iv_document_get_job (b) != NULL));
  job_doc = iv_document_get_job (a) ? a : b;
  g_assert_cmpuint (iv_document_get_job (job_doc)->ranks->ranks->len, ==, 4);
  /* ranks in rank order, whatever order the files came in */
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (((IvRank *) iv_document_get_job (job_doc)->ranks->ranks->pdata[i])->rank, ==,
                     (int) i);
  g_assert_cmpstr (iv_document_get_title (job_doc), ==, "4 ranks · job");
}

static double
member_double (JsonObject *o, const char *path)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  for (guint i = 0; parts[i + 1]; i++)
    o = json_object_get_object_member (o, parts[i]);
  return json_node_is_null (json_object_get_member (o, parts[g_strv_length (parts) - 1]))
             ? NAN
             : json_object_get_double_member (o, parts[g_strv_length (parts) - 1]);
}

static void
assert_same (double table, double cli)
{
  if (isnan (cli))
    g_assert_true (isnan (table));
  else
    g_assert_cmpfloat_with_epsilon (table, cli, fabs (cli) * 1e-12 + 1e-15);
}

/* The table against the command line's JSON, cell by cell. */
static void
check_table (const char *dir)
{
  IvRanksView *rv = iv_workspace_page_get_ranks_view (traces_page ());
  g_autoptr (JsonNode) root = cli_stats (dir);
  JsonArray *ranks = json_object_get_array_member (json_node_get_object (root), "ranks");
  gboolean measured
      = json_object_get_boolean_member (json_node_get_object (root), "stragglers_measured");

  g_assert_cmpuint (iv_ranks_view_get_n_rows (rv), ==, json_array_get_length (ranks));
  for (guint i = 0; i < json_array_get_length (ranks); i++)
    {
      JsonObject *o = json_array_get_object_element (ranks, i);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_RANK), member_double (o, "rank"));
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_SPAN),
                   member_double (o, "temporal.kernel_time_ns") * 1e-9);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_COMPUTE),
                   member_double (o, "temporal.compute_ns") * 1e-9);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_COMPUTE_PCT),
                   member_double (o, "temporal.compute_pct"));
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_NON_COMPUTE),
                   member_double (o, "temporal.non_compute_ns") * 1e-9);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_NON_COMPUTE_PCT),
                   member_double (o, "temporal.non_compute_pct"));
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_IDLE),
                   member_double (o, "temporal.idle_ns") * 1e-9);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_IDLE_PCT),
                   member_double (o, "temporal.idle_pct"));
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_OVERLAP_PCT),
                   member_double (o, "comm_comp_overlap.pct"));
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_CAUSED),
                   measured ? member_double (o, "straggler.caused_wait_ns") * 1e-9 : NAN);
      assert_same (iv_ranks_view_get_value (rv, i, IV_RANKS_COL_WAITED),
                   measured ? member_double (o, "straggler.waited_ns") * 1e-9 : NAN);
      /* and the text shown is of that number */
      {
        g_autofree char *rank
            = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (o, "rank"));
        g_assert_cmpstr (iv_ranks_view_get_text (rv, i, IV_RANKS_COL_RANK), ==, rank);
      }
    }
}

static void
test_table (void)
{
  g_autofree char *dir = generate ("job", 4, "wall");
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);
  IvRanksView *rv = iv_workspace_page_get_ranks_view (traces_page ());
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (rv)));
  const IvFigure *fig;

  g_assert_cmpuint (iv_ranks_view_get_n_rows (rv), ==,
                    iv_document_get_job (doc)->ranks->ranks->len);
  check_table (dir);
  /* the Ranks page is what Export draws while it is shown */
  gtk_stack_set_visible_child_name (stack, "ranks");
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  fig = iv_workspace_page_get_figure (traces_page ());
  g_assert_nonnull (fig);
  g_assert_true (fig == iv_ranks_view_get_figure (rv));
  {
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 900);
    cairo_t *cr = cairo_create (s);
    IvRenderOptions o = { IV_THEME_LIGHT, 1.0 };
    g_autoptr (GError) error = NULL;
    g_assert_true (fig->render (cr, fig->data, &o, 1200, 900, &error));
    g_assert_no_error (error);
    cairo_destroy (cr);
    cairo_surface_destroy (s);
  }
}

/* HTA's own two-rank set (tests/data/ranks/hta-trace-filter). */
static void
test_table_hta (void)
{
  g_autofree char *dir
      = g_build_filename (g_getenv ("IV_TEST_DATA"), "ranks", "hta-trace-filter", NULL);
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);

  g_assert_cmpuint (iv_document_get_job (doc)->ranks->ranks->len, ==, 2);
  check_table (dir);
}

static void
test_link (void)
{
  g_autofree char *dir = generate ("job", 4, "wall");
  g_autofree char *expected_path = g_build_filename (dir, "expected.json.txt", NULL);
  g_autoptr (JsonNode) expected = read_json (expected_path);
  JsonArray *instances
      = json_object_get_array_member (json_node_get_object (expected), "instances");
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);
  IvTraceJob *job = iv_document_get_job (doc);
  const IvTrace *t = job->trace;
  IvTimelineView *view = iv_workspace_page_get_timeline (traces_page ());
  IvJobBar *bar = iv_workspace_page_get_job_bar (traces_page ());
  guint checked = 0;

  /* every all-reduce kernel of rank 1, in time order: the k-th is instance k */
  for (gsize s = job->slice_base[1]; s < job->slice_base[2]; s++)
    {
      const char *name = iv_trace_string (t, t->name[s]);
      const GArray *linked;
      JsonObject *inst;
      guint k;
      gint64 last;
      if (!g_str_has_prefix (name, "ncclKernel"))
        continue;
      iv_timeline_view_hover (view, s);
      linked = iv_timeline_view_get_linked (view);
      g_assert_nonnull (linked);
      g_assert_cmpuint (linked->len, ==, 4);
      /* one on every rank, each the same collective starting where the generator put it */
      k = iv_trace_job_instance_of (job, s);
      g_assert_cmpuint (k, <, json_array_get_length (instances));
      inst = json_array_get_object_element (instances, k);
      last = json_object_get_int_member (inst, "last_rank");
      for (guint r = 0; r < 4; r++)
        {
          gsize l = g_array_index (linked, gsize, r);
          g_assert_cmpuint (iv_trace_job_rank_of (job, l), ==, r);
          g_assert_cmpstr (iv_trace_string (t, t->name[l]), ==, name);
        }
      /* the last to arrive started last: every other waited from its start to that one */
      {
        JsonArray *waits = json_object_get_array_member (inst, "waits_ns");
        gsize sl = g_array_index (linked, gsize, (guint) last);
        for (guint r = 0; r < 4; r++)
          {
            gsize l = g_array_index (linked, gsize, r);
            g_assert_cmpint (t->start_ns[sl] - t->start_ns[l], ==,
                             json_array_get_int_element (waits, r));
          }
      }
      {
        /* the bar says it as the tooltip does */
        GtkWidget *label = NULL;
        g_autofree char *want = g_strdup_printf ("rank %" G_GINT64_FORMAT " arrived last", last);
        for (GtkWidget *c
             = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (bar)));
             c; c = gtk_widget_get_next_sibling (c))
          label = GTK_IS_LABEL (c) ? c : label;
        g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), want));
      }
      checked++;
    }
  g_assert_cmpuint (checked, ==, 6);
  /* a compute kernel links nothing */
  for (gsize s = job->slice_base[1]; s < job->slice_base[2]; s++)
    if (g_str_has_prefix (iv_trace_string (t, t->name[s]), "sm90"))
      {
        iv_timeline_view_hover (view, s);
        g_assert_null (iv_timeline_view_get_linked (view));
        break;
      }
  iv_timeline_view_hover (view, G_MAXSIZE);
  g_assert_null (iv_timeline_view_get_linked (view));
}

/* Skewed clocks: no wall clock, so the job opens aligned, each rank shifted by the
 * negative of the offset the generator added; the toggle takes them back. */
static void
test_align (void)
{
  g_autofree char *dir = generate ("job", 4, "skewed");
  g_autofree char *expected_path = g_build_filename (dir, "expected.json.txt", NULL);
  g_autoptr (JsonNode) expected = read_json (expected_path);
  JsonArray *offsets = json_object_get_array_member (json_node_get_object (expected), "offsets_ns");
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);
  IvTraceJob *job = iv_document_get_job (doc);
  IvJobBar *bar = iv_workspace_page_get_job_bar (traces_page ());
  gint64 first_start[4];

  g_assert_true (job->ranks->aligned);
  for (guint r = 0; r < 4; r++)
    {
      IvRank *rk = job->ranks->ranks->pdata[r];
      g_assert_cmpint (rk->align_ns, ==, -json_array_get_int_element (offsets, r));
      first_start[r] = job->trace->start_ns[job->slice_base[r]];
    }
  g_assert_nonnull (strstr (iv_job_bar_get_offsets_text (bar), "Aligned on collectives"));
  iv_job_bar_set_aligned (bar, FALSE);
  g_assert_false (job->ranks->aligned);
  g_assert_false (job->ranks->stragglers);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (job->trace->start_ns[job->slice_base[r]], ==,
                     first_start[r] + json_array_get_int_element (offsets, r));
  g_assert_nonnull (strstr (iv_job_bar_get_offsets_text (bar), "own clock"));
  /* no common clock: the table measures no waits */
  g_assert_true (isnan (iv_ranks_view_get_value (iv_workspace_page_get_ranks_view (traces_page ()),
                                                 0, IV_RANKS_COL_WAITED)));
  iv_job_bar_set_aligned (bar, TRUE);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (job->trace->start_ns[job->slice_base[r]], ==, first_start[r]);
}

static const IvGuiCase cases[] = {
  { "/gui/ranks/folder", test_folder, FALSE }, { "/gui/ranks/files", test_files, FALSE },
  { "/gui/ranks/table", test_table, FALSE },   { "/gui/ranks/table-hta", test_table_hta, FALSE },
  { "/gui/ranks/link", test_link, FALSE },     { "/gui/ranks/align", test_align, FALSE },
};

int
main (int argc, char **argv)
{
  return iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
}
