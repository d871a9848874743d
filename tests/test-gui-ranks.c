/* test-gui-ranks.c: a distributed job in the real window, headless (xvfb-run +
 * dbus-run-session): a folder of rank traces, or the rank files opened together, is one
 * document on the Traces workspace; its timeline has a group (a process) per rank and
 * hiding a rank takes its rows away; the Ranks table holds the numbers
 * `inferview trace DIR --stats --json` prints for the same folder (which test-ranks.py
 * checks against an independent parse); hovering a collective outlines the same instance
 * on every rank, and the bar names the rank that arrived last as the generator wrote it;
 * the alignment toggle applies the offsets the generator's skewed clocks call for, as a new
 * document equal to a fresh load on that clock, while the Analyses and Query pages' workers
 * read the job shown (ThreadSanitizer's leg runs this), keeping the selection and moving the
 * view with it; closing the job lets every view go of it; memory curves are named with
 * their rank; files whose names say no rank join by their distributedInfo. Jobs are written
 * by tests/gen-rank-traces.py. Skips (77) without a display. */
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-gui-test-util.h"
#include "iv-query-page.h"
#include "iv-ranks-view.h"
#include "iv-trace-analyses-view.h"
#include "iv-trace-report.h"
#include "iv-window-private.h"
#include "iv-window.h"
#include "iv-workspace-page.h"

#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())

/* Writes a job of @ranks ranks with @clock into a new folder of the case's, and returns
 * the folder. */
static char *
generate_full (const char *name, int ranks, const char *clock, const char *extra,
               const char *extra2)
{
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "gen-rank-traces.py", NULL);
  char *dir = g_build_filename (tmpdir, name, NULL);
  g_autofree char *n = g_strdup_printf ("%d", ranks);
  const char *argv[] = { "python3", gen,       dir,   "--ranks", n,      "--steps",
                         "6",       "--clock", clock, extra,     extra2, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return dir;
}

static char *
generate (const char *name, int ranks, const char *clock)
{
  return generate_full (name, ranks, clock, NULL, NULL);
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

/* `inferview trace DIR --stats --json [--align]`, parsed. */
static JsonNode *
cli_stats_full (const char *dir, gboolean align)
{
  const char *binary = g_getenv ("IV_BINARY");
  const char *argv[]
      = { binary, "trace", dir, "--stats", "--json", align ? "--align" : NULL, NULL };
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

/* The table against the command line's JSON, cell by cell (aligned on collectives with
 * @align). */
static void
check_table_full (const char *dir, gboolean align)
{
  IvRanksView *rv = iv_workspace_page_get_ranks_view (traces_page ());
  g_autoptr (JsonNode) root = cli_stats_full (dir, align);
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
check_table (const char *dir)
{
  check_table_full (dir, FALSE);
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

static gboolean
query_done (gpointer q)
{
  return !iv_query_page_is_running (q);
}

static gboolean
realigned (gpointer bar)
{
  return !iv_job_bar_is_realigning (bar);
}

/* Toggles the alignment and waits for the job on the other clock: a new document, shown
 * in the old one's place (returned, a reference), the old one let go. */
static IvDocument *
realign (gboolean aligned)
{
  IvJobBar *bar = iv_workspace_page_get_job_bar (traces_page ());
  IvDocument *before = iv_workspace_page_get_document (traces_page ());
  IvDocument *doc;

  iv_job_bar_set_aligned (bar, aligned);
  g_assert_true (iv_job_bar_is_realigning (bar));
  g_assert_true (iv_gui_wait_for (realigned, bar, 60));
  iv_gui_settle (window);
  doc = iv_workspace_page_get_document (traces_page ());
  g_assert_true (doc != before);
  g_assert_true (iv_window_get_selected (window) == doc);
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 1);
  g_assert_cmpint (iv_document_get_state (doc), ==, IV_DOCUMENT_READY);
  g_assert_cmpint (iv_document_get_job (doc)->ranks->aligned, ==, aligned);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  return g_object_ref (doc);
}

static gboolean
weak_gone (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* Skewed clocks: no wall clock, so the job opens aligned, each rank shifted by the
 * negative of the offset the generator added; the toggle takes them back, as a new
 * document, and lets the old one go. */
static void
test_align (void)
{
  g_autofree char *dir = generate ("job", 4, "skewed");
  g_autofree char *expected_path = g_build_filename (dir, "expected.json.txt", NULL);
  g_autoptr (JsonNode) expected = read_json (expected_path);
  JsonArray *offsets = json_object_get_array_member (json_node_get_object (expected), "offsets_ns");
  const char *paths[] = { dir };
  IvDocument *doc = open_job (paths, 1);
  gpointer weak = doc;
  IvTraceJob *job = iv_document_get_job (doc);
  IvJobBar *bar = iv_workspace_page_get_job_bar (traces_page ());
  gint64 first_start[4];
  g_autoptr (IvDocument) off = NULL, on = NULL;

  g_assert_true (job->ranks->aligned);
  for (guint r = 0; r < 4; r++)
    {
      IvRank *rk = job->ranks->ranks->pdata[r];
      g_assert_cmpint (rk->align_ns, ==, -json_array_get_int_element (offsets, r));
      first_start[r] = job->trace->start_ns[job->slice_base[r]];
    }
  g_assert_nonnull (strstr (iv_job_bar_get_offsets_text (bar), "Aligned on collectives"));
  g_object_add_weak_pointer (G_OBJECT (doc), &weak);
  g_object_unref (doc);
  off = realign (FALSE);
  /* the job shown before is never changed: it goes once nothing holds it */
  g_assert_true (iv_gui_wait_for (weak_gone, &weak, 20));
  job = iv_document_get_job (off);
  g_assert_false (job->ranks->aligned);
  g_assert_false (job->ranks->stragglers);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (job->trace->start_ns[job->slice_base[r]], ==,
                     first_start[r] + json_array_get_int_element (offsets, r));
  g_assert_nonnull (strstr (iv_job_bar_get_offsets_text (bar), "own clock"));
  /* no common clock: the table measures no waits */
  g_assert_true (isnan (iv_ranks_view_get_value (iv_workspace_page_get_ranks_view (traces_page ()),
                                                 0, IV_RANKS_COL_WAITED)));
  on = realign (TRUE);
  job = iv_document_get_job (on);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (job->trace->start_ns[job->slice_base[r]], ==, first_start[r]);
  g_assert_nonnull (strstr (iv_job_bar_get_offsets_text (bar), "Aligned on collectives"));
}

/* @a and @b are the same job: every slice, sample, instant and flow at the same time,
 * every rank at the same offset, every wait the same. */
static void
assert_same_job (const IvTraceJob *a, const IvTraceJob *b)
{
  const IvTrace *ta = a->trace, *tb = b->trace;
  guint n = a->ranks->ranks->len;

  g_assert_cmpuint (ta->n_slices, ==, tb->n_slices);
  g_assert_cmpint (ta->t0_ns, ==, tb->t0_ns);
  g_assert_cmpint (ta->t1_ns, ==, tb->t1_ns);
  for (gsize s = 0; s < ta->n_slices; s++)
    {
      g_assert_cmpint (ta->start_ns[s], ==, tb->start_ns[s]);
      g_assert_cmpint (ta->dur_ns[s], ==, tb->dur_ns[s]);
      g_assert_cmpuint (ta->row[s], ==, tb->row[s]);
      g_assert_cmpstr (iv_trace_string (ta, ta->name[s]), ==, iv_trace_string (tb, tb->name[s]));
    }
  for (gsize g = 0; g * IV_TRACE_COARSE < ta->n_slices; g++)
    {
      g_assert_cmpint (ta->coarse_start[g], ==, tb->coarse_start[g]);
      g_assert_cmpint (ta->coarse_max_dur[g], ==, tb->coarse_max_dur[g]);
    }
  g_assert_cmpuint (ta->n_samples, ==, tb->n_samples);
  for (gsize k = 0; k < ta->n_samples; k++)
    {
      g_assert_cmpint (ta->sample_ns[k], ==, tb->sample_ns[k]);
      g_assert_cmpfloat (ta->sample_value[k], ==, tb->sample_value[k]);
    }
  g_assert_cmpuint (ta->series->len, ==, tb->series->len);
  for (guint i = 0; i < ta->series->len; i++)
    g_assert_cmpstr (iv_trace_string (ta, g_array_index (ta->series, IvCounterSeries, i).name), ==,
                     iv_trace_string (tb, g_array_index (tb->series, IvCounterSeries, i).name));
  g_assert_cmpuint (ta->instants->len, ==, tb->instants->len);
  for (guint i = 0; i < ta->instants->len; i++)
    g_assert_cmpint (g_array_index (ta->instants, IvInstant, i).ts_ns, ==,
                     g_array_index (tb->instants, IvInstant, i).ts_ns);
  g_assert_cmpuint (ta->flows->len, ==, tb->flows->len);
  for (guint i = 0; i < ta->flows->len; i++)
    g_assert_cmpint (g_array_index (ta->flows, IvFlow, i).from_ns, ==,
                     g_array_index (tb->flows, IvFlow, i).from_ns);
  g_assert_cmpint (a->ranks->aligned, ==, b->ranks->aligned);
  g_assert_cmpint (a->ranks->stragglers, ==, b->ranks->stragglers);
  g_assert_cmpint (a->ranks->t0_ns, ==, b->ranks->t0_ns);
  for (guint r = 0; r < n; r++)
    {
      const IvRank *ra = a->ranks->ranks->pdata[r], *rb = b->ranks->ranks->pdata[r];
      g_assert_cmpint (ra->offset_ns, ==, rb->offset_ns);
      g_assert_cmpint (ra->caused_ns, ==, rb->caused_ns);
      g_assert_cmpint (ra->waited_ns, ==, rb->waited_ns);
      g_assert_cmpuint (ra->last_count, ==, rb->last_count);
    }
  g_assert_cmpuint (a->ranks->instances->len, ==, b->ranks->instances->len);
  for (guint c = 0; c < a->ranks->instances->len; c++)
    {
      const IvCollectiveInstance *ca
          = &g_array_index (a->ranks->instances, IvCollectiveInstance, c);
      const IvCollectiveInstance *cb
          = &g_array_index (b->ranks->instances, IvCollectiveInstance, c);
      g_assert_cmpuint (ca->last, ==, cb->last);
      for (guint r = 0; r < n; r++)
        {
          g_assert_cmpint (ca->wait_ns[r], ==, cb->wait_ns[r]);
          g_assert_cmpint (ca->start_ns[r], ==, cb->start_ns[r]);
        }
    }
}

/* A fresh load of @dir, aligned or on the wall clock. */
static IvTraceJob *
fresh_job (const char *dir, gboolean aligned)
{
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  IvTraceRanks *ranks
      = iv_trace_ranks_load (paths, aligned ? IV_RANKS_ALIGN : IV_RANKS_DEFAULT, NULL, &error);
  IvTraceJob *job;

  g_assert_no_error (error);
  job = iv_trace_job_new (ranks, &error);
  g_assert_no_error (error);
  return job;
}

/* The toggle while the Analyses page's worker and a query read the job shown: the job on
 * the other clock is a copy (the one they read never moves; ThreadSanitizer's leg checks
 * that no write meets their reads), and what is shown then is a fresh load's on that
 * clock — the timeline's trace, the Ranks table, the command line's `--align` numbers. The
 * selection stays and the view moves with its rank. */
static void
test_align_busy (void)
{
  g_autofree char *dir = generate_full ("job", 4, "wall", "--memory", "--cpu-ops=60");
  const char *paths[] = { dir };
  IvDocument *doc = open_job (paths, 1);
  gpointer weak = doc;
  IvTraceJob *job = iv_document_get_job (doc);
  IvTimelineView *view = iv_workspace_page_get_timeline (traces_page ());
  IvTraceAnalysesView *analyses = iv_workspace_page_get_analyses (traces_page ());
  IvQueryPage *query = iv_workspace_page_get_query (traces_page ());
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (analyses)));
  g_autoptr (IvTraceJob) want_on = fresh_job (dir, TRUE), want_off = fresh_job (dir, FALSE);
  g_autoptr (IvDocument) on = NULL, off = NULL;
  gsize sel = G_MAXSIZE;
  gint64 t0, t1, d;

  g_assert_false (job->ranks->aligned);
  assert_same_job (job, want_off);
  /* a collective of rank 2 selected, the view around it */
  for (gsize s = job->slice_base[2]; s < job->slice_base[3] && sel == G_MAXSIZE; s++)
    if (iv_trace_job_instance_of (job, s) == 3)
      sel = s;
  g_assert_cmpuint (sel, !=, G_MAXSIZE);
  iv_timeline_view_select (view, sel);
  t0 = job->trace->start_ns[sel] - 1000000, t1 = job->trace->start_ns[sel] + 1000000;
  iv_timeline_view_set_range (view, t0, t1);
  /* the Query page's worker reading the job, and the Analyses page's */
  gtk_stack_set_visible_child (stack, GTK_WIDGET (query));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_query_page_set_text (query, "SELECT count(*) FROM slice a JOIN slice b ON a.ts < b.ts");
  g_assert_true (iv_query_page_run (query));
  /* shown, the page starts its worker: the toggle comes while it reads (and while the
   * query does, unless it was quicker) */
  gtk_stack_set_visible_child (stack, GTK_WIDGET (analyses));
  g_assert_true (iv_trace_analyses_view_is_busy (analyses));
  g_object_add_weak_pointer (G_OBJECT (doc), &weak);
  g_object_unref (doc);
  on = realign (TRUE);
  assert_same_job (iv_document_get_job (on), want_on);
  g_assert_true (iv_document_get_trace (on) == iv_document_get_job (on)->trace);
  /* every page shows the new job: the timeline, the Ranks table (as `--align` says) */
  {
    const IvTimelineFigure *fig = iv_timeline_view_get_figure (view)->data;
    g_assert_true (fig->trace == iv_document_get_job (on)->trace);
  }
  check_table_full (dir, TRUE);
  /* the page shown stays; the selection too, and the view moved as its rank did */
  g_assert_true (gtk_stack_get_visible_child (stack) == GTK_WIDGET (analyses));
  g_assert_cmpuint (iv_timeline_view_get_selected (view), ==, sel);
  d = ((IvRank *) iv_document_get_job (on)->ranks->ranks->pdata[2])->offset_ns
      - ((IvRank *) want_off->ranks->ranks->pdata[2])->offset_ns;
  {
    gint64 v0, v1;
    iv_timeline_view_get_range (view, &v0, &v1);
    g_assert_cmpint (v0, ==, t0 + d);
    g_assert_cmpint (v1, ==, t1 + d);
  }
  /* no page, no worker holds the job shown before */
  g_assert_true (iv_gui_wait_for (weak_gone, &weak, 20));
  off = realign (FALSE);
  assert_same_job (iv_document_get_job (off), want_off);
  check_table_full (dir, FALSE);
}

/* Closing a job: no view keeps its document (and its joined trace) alive. */
static void
test_close (void)
{
  g_autofree char *dir = generate ("job", 4, "wall");
  const char *paths[] = { dir };
  IvDocument *doc = open_job (paths, 1);
  gpointer weak = doc;
  IvTraceAnalysesView *analyses = iv_workspace_page_get_analyses (traces_page ());
  IvQueryPage *query = iv_workspace_page_get_query (traces_page ());
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (analyses)));

  /* every page shown once, the Query page with a result */
  gtk_stack_set_visible_child (stack, GTK_WIDGET (analyses));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  gtk_stack_set_visible_child_name (stack, "ranks");
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  gtk_stack_set_visible_child (stack, GTK_WIDGET (query));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_query_page_set_text (query, "SELECT count(*) FROM slice");
  g_assert_true (iv_query_page_run (query));
  g_object_add_weak_pointer (G_OBJECT (doc), &weak);
  g_object_unref (doc);
  iv_window_close_document (window, weak);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_true (iv_gui_wait_for (weak_gone, &weak, 20));
  g_assert_cmpuint (g_list_model_get_n_items (iv_window_get_documents (window)), ==, 0);
}

/* Every rank's allocator curve is "memory · GPU 0": in the job each is named with its rank,
 * on the timeline, in the query's counter_track and in the statistics, its peak the
 * generator's. */
static void
test_memory (void)
{
  g_autofree char *dir = generate_full ("job", 4, "wall", "--memory", NULL);
  g_autofree char *expected_path = g_build_filename (dir, "expected.json.txt", NULL);
  g_autoptr (JsonNode) expected = read_json (expected_path);
  JsonArray *peaks = json_object_get_array_member (json_node_get_object (expected), "memory_peaks");
  const char *paths[] = { dir };
  g_autoptr (IvDocument) doc = open_job (paths, 1);
  const IvTrace *t = iv_document_get_trace (doc);
  IvQueryPage *query = iv_workspace_page_get_query (traces_page ());
  g_autoptr (IvTraceReport) report = NULL;
  g_autoptr (GError) error = NULL;
  guint found = 0;

  g_assert_cmpuint (t->series->len, ==, 4);
  for (guint i = 0; i < t->series->len; i++)
    {
      const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, i);
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, cs->track);
      g_autofree char *name = g_strdup_printf ("memory · rank %u · GPU 0 · allocated", tr->process);
      g_autofree char *track = g_strdup_printf ("memory · rank %u · GPU 0", tr->process);
      g_assert_cmpstr (iv_trace_string (t, cs->name), ==, name);
      g_assert_cmpstr (tr->name, ==, track);
    }
  /* the query's counter tracks */
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (query))),
                               GTK_WIDGET (query));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  iv_query_page_set_text (query, "SELECT name FROM counter_track ORDER BY upid");
  g_assert_true (iv_query_page_run (query));
  g_assert_true (iv_gui_wait_for (query_done, query, 60));
  g_assert_null (iv_query_page_get_error (query));
  g_assert_cmpuint (iv_query_page_get_n_rows (query), ==, 4);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *cell = iv_query_page_get_cell (query, r, 0);
      g_autofree char *name = g_strdup_printf ("memory · rank %u · GPU 0 · allocated", r);
      g_assert_cmpstr (cell, ==, name);
    }
  /* the statistics' memory peaks (the Analyses page's, `trace --stats`'s) */
  report = iv_trace_report_new (t, G_MININT64, G_MAXINT64, FALSE, IV_STATS_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->memory->len, ==, 4);
  for (guint i = 0; i < report->memory->len; i++)
    {
      const IvMemoryPeak *m = &g_array_index (report->memory, IvMemoryPeak, i);
      const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, m->series);
      guint r = g_array_index (t->tracks, IvTrack, cs->track).process;
      g_autofree char *name = g_strdup_printf ("memory · rank %u · GPU 0 · allocated", r);
      g_assert_cmpstr (iv_trace_string (t, cs->name), ==, name);
      g_assert_cmpfloat (m->peak, ==, (double) json_array_get_int_element (peaks, r));
      found++;
    }
  g_assert_cmpuint (found, ==, 4);
}

static gboolean
n_documents_is (gpointer n)
{
  return g_list_model_get_n_items (iv_window_get_documents (window)) == GPOINTER_TO_UINT (n);
}

/* Rank files named with no rank (worker-d … worker-a, the letters against the ranks'
 * order): distributedInfo makes them one job, as a folder and as files opened together
 * (with a trace of no job beside them). */
static void
test_by_info (void)
{
  g_autofree char *dir = generate_full ("job", 4, "wall", "--name-style=opaque", NULL);
  g_autofree char *expected_path = g_build_filename (dir, "expected.json.txt", NULL);
  g_autoptr (JsonNode) expected = read_json (expected_path);
  JsonArray *names = json_object_get_array_member (json_node_get_object (expected), "files");
  g_autofree char *other = iv_gui_sample ("traces/kineto_a100_simple_add.json.gz");
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (IvDocument) a = NULL, b = NULL;
  IvDocument *job_doc;

  {
    const char *paths[] = { dir };
    g_autoptr (IvDocument) doc = open_job (paths, 1);
    IvTraceJob *job = iv_document_get_job (doc);
    g_assert_cmpuint (job->ranks->ranks->len, ==, 4);
    for (guint r = 0; r < 4; r++)
      {
        IvRank *rk = job->ranks->ranks->pdata[r];
        g_autofree char *base = g_path_get_basename (rk->path);
        g_assert_cmpint (rk->rank, ==, (int) r);
        g_assert_cmpstr (rk->rank_source, ==, "distributedInfo");
        g_assert_cmpstr (base, ==, json_array_get_string_element (names, r));
      }
    check_table (dir);
    iv_window_close_document (window, doc);
  }
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *p = g_build_filename (dir, json_array_get_string_element (names, r), NULL);
      g_ptr_array_add (files, g_file_new_for_path (p));
    }
  g_ptr_array_add (files, g_file_new_for_path (other));
  iv_window_open (window, (GFile **) files->pdata, (int) files->len);
  /* the heads are read on a worker before the documents are made */
  g_assert_true (iv_gui_wait_for (n_documents_is, GUINT_TO_POINTER (2), 20));
  iv_gui_settle (window);
  a = iv_gui_doc_at (window, 0);
  b = iv_gui_doc_at (window, 1);
  g_assert_true ((iv_document_get_job (a) != NULL) != (iv_document_get_job (b) != NULL));
  job_doc = iv_document_get_job (a) ? a : b;
  g_assert_cmpuint (iv_document_get_job (job_doc)->ranks->ranks->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (((IvRank *) iv_document_get_job (job_doc)->ranks->ranks->pdata[i])->rank, ==,
                     (int) i);
}

static const IvGuiCase cases[] = {
  { "/gui/ranks/folder", test_folder, FALSE },
  { "/gui/ranks/files", test_files, FALSE },
  { "/gui/ranks/table", test_table, FALSE },
  { "/gui/ranks/table-hta", test_table_hta, FALSE },
  { "/gui/ranks/link", test_link, FALSE },
  { "/gui/ranks/align", test_align, FALSE },
  { "/gui/ranks/align-busy", test_align_busy, FALSE },
  { "/gui/ranks/close", test_close, FALSE },
  { "/gui/ranks/memory", test_memory, FALSE },
  { "/gui/ranks/by-info", test_by_info, FALSE },
};

int
main (int argc, char **argv)
{
  return iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
}
