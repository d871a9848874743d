/* test-gui-layout.c: the window at the small sizes people use (1024×700, 1280×720),
 * headless: every sample is opened, every workspace and every tab of it shown, a slice
 * selected (the one with the longest name, flows and all), a search stepped, an area
 * selected, a run opened — and after each step the window still has the size it was
 * given, no page asks for more, and the folded sidebar is an opaque overlay that closes
 * after a choice. The screens are saved as layout-WxH-*.png beside the test for review. */
#include <adwaita.h>
#include <stdlib.h>
#include <string.h>

#include "iv-application.h"
#include "iv-gui-test-util.h"
#include "iv-runs-notes-bar.h"
#include "iv-runs-view.h"
#include "iv-test-util.h"
#include "iv-timeline-view.h"
#include "iv-window-private.h"

typedef struct
{
  int width, height; /* asked for */
} Size;

/* What the window got at the start (the default size less its decorations): every later
 * step must leave it so. */
static int start_width, start_height;

static IvApplication *app;

static char *
sample (const char *rel)
{
  return g_build_filename (g_getenv ("IV_SAMPLES_DIR"), rel, NULL);
}

static gboolean
flap_open (gpointer data)
{
  return adw_flap_get_reveal_progress (data) >= 1.0;
}

/* On failure: the chain of widgets that ask for more than @limit pixels of width. */
static void
print_wide (GtkWidget *w, int limit, int depth)
{
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      int min;
      if (!gtk_widget_get_visible (c))
        continue;
      gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min <= limit)
        continue;
      g_printerr ("%*s%s #%s .%s min %d\n", 2 * depth, "", G_OBJECT_TYPE_NAME (c),
                  gtk_widget_get_name (c), gtk_widget_get_css_name (c), min);
      print_wide (c, limit, depth + 1);
    }
}

/* The window kept its size, and nothing in it asks for more (a minimum wider than the
 * window is what makes it grow, or clips it). */
static void
assert_size (IvWindow *window, const Size *size, const char *what)
{
  int min_w, min_h, nat;

  iv_gui_wait_for_paint (GTK_WINDOW (window));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat, NULL,
                      NULL);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, size->width, &min_h, &nat,
                      NULL, NULL);
  if (gtk_widget_get_width (GTK_WIDGET (window)) != start_width
      || gtk_widget_get_height (GTK_WIDGET (window)) != start_height || min_w > start_width
      || min_h > start_height)
    {
      print_wide (GTK_WIDGET (window),
                  g_getenv ("IV_LAYOUT_LIMIT") ? atoi (g_getenv ("IV_LAYOUT_LIMIT"))
                                               : start_width - 200,
                  0);
      g_error ("%s at %d×%d: the window is %d×%d (was %d×%d) and asks for at least %d×%d", what,
               size->width, size->height, gtk_widget_get_width (GTK_WIDGET (window)),
               gtk_widget_get_height (GTK_WIDGET (window)), start_width, start_height, min_w,
               min_h);
    }
}

typedef struct
{
  GtkWidget *label;
  graphene_rect_t box; /* in window coordinates, clipped to what scrolls it */
} Shown;

/* Every mapped, non-empty label under @w with where it shows, clipped by @clip (the
 * nearest scrolled window's visible box, or the window). */
static void
collect_labels (GtkWidget *w, GtkWidget *window, const graphene_rect_t *clip, GArray *out)
{
  graphene_rect_t inner = *clip;

  if (!gtk_widget_get_mapped (w) || gtk_widget_get_opacity (w) == 0)
    return;
  /* a tooltip or a popover is a surface of its own, over the window by design (and its
   * bounds are not in the window's coordinates): the pointer left over a bar by an
   * earlier step shows one */
  if (w != window && GTK_IS_NATIVE (w))
    return;
  if (GTK_IS_SCROLLED_WINDOW (w) || GTK_IS_VIEWPORT (w))
    {
      graphene_rect_t b;
      if (!gtk_widget_compute_bounds (w, window, &b)
          || !graphene_rect_intersection (clip, &b, &inner))
        return;
    }
  if (GTK_IS_LABEL (w) && *gtk_label_get_text (GTK_LABEL (w)))
    {
      Shown s = { w };
      graphene_rect_t b;
      if (gtk_widget_compute_bounds (w, window, &b)
          && graphene_rect_intersection (&inner, &b, &s.box) && s.box.size.width > 1
          && s.box.size.height > 1)
        g_array_append_val (out, s);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, window, &inner, out);
}

/* No two pieces of text print over each other (a folded sidebar, when open, covers the
 * workspace with an opaque overlay: that page is checked with it closed). */
static void
assert_no_overlapping_text (IvWindow *window, const char *what)
{
  g_autoptr (GArray) labels = g_array_new (FALSE, FALSE, sizeof (Shown));
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (GTK_WIDGET (window)),
                                            gtk_widget_get_height (GTK_WIDGET (window)));

  collect_labels (GTK_WIDGET (window), GTK_WIDGET (window), &all, labels);
  g_test_message ("%s: %u labels shown", what, labels->len);
  g_assert_cmpuint (labels->len, >, 5);
  for (guint i = 0; i < labels->len; i++)
    for (guint j = i + 1; j < labels->len; j++)
      {
        Shown *a = &g_array_index (labels, Shown, i), *b = &g_array_index (labels, Shown, j);
        graphene_rect_t both;
        /* a pixel of touching is not overlapping */
        if (graphene_rect_intersection (&a->box, &b->box, &both) && both.size.width > 2
            && both.size.height > 2)
          g_error ("%s: “%s” and “%s” overlap (%.0f×%.0f px at %.0f,%.0f)", what,
                   gtk_label_get_text (GTK_LABEL (a->label)),
                   gtk_label_get_text (GTK_LABEL (b->label)), both.size.width, both.size.height,
                   both.origin.x, both.origin.y);
      }
}

static void
save_screen (IvWindow *window, const Size *size, const char *name)
{
  g_autofree char *file = g_strdup_printf ("layout-%dx%d-%s.png", size->width, size->height, name);
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), file, NULL);
  g_assert_cmpuint (iv_gui_snapshot (GTK_WINDOW (window), path), >, 20);
  if (!g_str_equal (name, "sidebar-open"))
    assert_no_overlapping_text (window, path);
}

/* Every page of every GtkStack under @root shown in turn, the size checked on each. */
static void
visit_stacks (IvWindow *window, const Size *size, GtkWidget *root, const char *what)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_STACK (c) && gtk_widget_get_mapped (c))
        {
          g_autoptr (GListModel) pages = G_LIST_MODEL (gtk_stack_get_pages (GTK_STACK (c)));
          GtkWidget *was = gtk_stack_get_visible_child (GTK_STACK (c));
          for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
            {
              g_autoptr (GObject) item = g_list_model_get_item (pages, i);
              GtkStackPage *page = GTK_STACK_PAGE (item);
              GtkWidget *child = gtk_stack_page_get_child (page);
              g_autofree char *step = g_strdup_printf (
                  "%s, tab %s", what,
                  gtk_stack_page_get_name (page) ? gtk_stack_page_get_name (page) : "?");
              if (!gtk_stack_page_get_visible (page))
                continue;
              gtk_stack_set_visible_child (GTK_STACK (c), child);
              assert_size (window, size, step);
              visit_stacks (window, size, child, step);
            }
          gtk_stack_set_visible_child (GTK_STACK (c), was);
        }
      else
        visit_stacks (window, size, c, what);
    }
}

static GtkStack *
find_stack_with (GtkWidget *root, const char *page)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkStack *found;
      if (GTK_IS_STACK (c) && gtk_stack_get_child_by_name (GTK_STACK (c), page))
        return GTK_STACK (c);
      if ((found = find_stack_with (c, page)))
        return found;
    }
  return NULL;
}

static IvDocument *
open_document (IvWindow *window, const char *rel)
{
  g_autofree char *path = sample (rel);
  GListModel *docs = iv_window_get_documents (window);

  iv_gui_open_paths (window, path, NULL);
  iv_gui_settle (window);
  for (guint i = 0; i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (docs, i);
      g_autofree char *p = g_file_get_path (iv_document_get_file (doc));
      if (g_str_equal (p, path))
        {
          iv_window_select (window, doc);
          iv_gui_settle (window);
          return doc;
        }
    }
  g_error ("%s did not open", rel);
}

/* The slice whose name is longest, preferring one with a flow (its flow buttons carry
 * the other end's name too). */
static gsize
longest_slice (const IvTrace *t)
{
  gsize best = 0, best_len = 0;

  for (gsize i = 0; i < t->n_slices; i++)
    {
      gsize len = strlen (iv_trace_string (t, t->name[i]));
      for (guint f = 0; f < t->flows->len; f++)
        {
          const IvFlow *fl = &g_array_index (t->flows, IvFlow, f);
          if (fl->from == i || fl->to == i)
            len += strlen (iv_trace_string (t, t->name[fl->from == i ? fl->to : fl->from]));
        }
      if (len > best_len)
        best = i, best_len = len;
    }
  return best;
}

/* The Runs page gives its figure at least half its height (issue 31), the table above
 * giving way first: what the plot's stack (chart, panels, surface) is allocated against
 * the whole page (header, notes, table, controls and figure). */
static void
assert_plot_share (IvWindow *window, const Size *size, IvRunsView *rv, const char *what)
{
  GtkWidget *plot = iv_gui_find_by_id (GTK_WIDGET (rv), "plot_stack");
  GtkWidget *table = iv_gui_find_by_id (GTK_WIDGET (rv), "table");
  int page, plot_h;

  iv_gui_wait_for_paint (GTK_WINDOW (window));
  /* the divider placed on the pane's allocation, then drawn */
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_nonnull (plot);
  page = gtk_widget_get_height (GTK_WIDGET (rv));
  plot_h = gtk_widget_get_height (plot);
  g_test_message ("%s at %d×%d: page %d px, table %d px, plot %d px", what, size->width,
                  size->height, page, gtk_widget_get_height (table), plot_h);
  g_assert_cmpint (page, >, size->height / 2);
  if (plot_h * 2 < page)
    g_error ("%s at %d×%d: the plot has %d px of the Runs page's %d (table %d px)", what,
             size->width, size->height, plot_h, page, gtk_widget_get_height (table));
  /* and the table keeps its header and a row in view */
  g_assert_cmpint (gtk_widget_get_height (table), >=, 70);
}

/* Opens the sweep under @rel and checks the plot's share as it opens and set against a
 * bound (its columns in the table, its notes, its button on the plot's row), then takes
 * the bound away. */
static void
exercise_runs_share (IvWindow *window, const Size *size, const char *rel)
{
  IvRunsView *rv;
  g_autofree char *bound = g_strdup_printf ("%s, bound h100x8", rel);

  open_document (window, rel);
  rv = iv_workspace_page_get_runs (_iv_window_get_page (window, IV_GROUP_RUNS));
  assert_plot_share (window, size, rv, rel);
  g_object_set (iv_runs_view_get_state (rv), "hardware", "h100x8", NULL);
  iv_gui_settle (window);
  assert_size (window, size, bound);
  assert_plot_share (window, size, rv, bound);
  /* the notes opened (every note, wrapped): the table gives them the height, not the
   * plot, and nothing overlaps; closed again, one line */
  {
    IvRunsNotesBar *notes = IV_RUNS_NOTES_BAR (iv_gui_find_by_id (GTK_WIDGET (rv), "notes"));
    g_autofree char *open = g_strdup_printf ("%s, notes open", bound);
    g_autofree char *shot = g_strdup_printf ("runs-notes-open-%s", rel);
    int closed_h = gtk_widget_get_height (GTK_WIDGET (notes));
    if (strchr (iv_runs_notes_bar_get_text (notes), '\n'))
      {
        iv_runs_notes_bar_set_open (notes, TRUE);
        assert_size (window, size, open);
        assert_plot_share (window, size, rv, open);
        g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (notes)), >, closed_h);
        save_screen (window, size, shot);
        iv_runs_notes_bar_set_open (notes, FALSE);
        iv_gui_wait_for_paint (GTK_WINDOW (window));
        g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (notes)), ==, closed_h);
      }
    /* one line closed: a line of text and the bar's padding */
    g_assert_cmpint (closed_h, <=, 36);
  }
  g_object_set (iv_runs_view_get_state (rv), "hardware", NULL, NULL);
  iv_gui_settle (window);
}

static void
exercise_trace (IvWindow *window, const Size *size, const char *rel, const char *shot)
{
  IvDocument *doc = open_document (window, rel);
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_TRACES);
  IvTimelineView *tl = iv_workspace_page_get_timeline (page);
  const IvTrace *t = iv_document_get_trace (doc);
  gint64 t0, t1;

  g_assert_nonnull (t);
  assert_size (window, size, rel);
  visit_stacks (window, size, GTK_WIDGET (page), rel);
  if (tl && gtk_widget_get_mapped (GTK_WIDGET (tl)) && t->n_slices)
    {
      iv_timeline_view_select (tl, longest_slice (t));
      assert_size (window, size, "a slice with a long name selected");
      {
        g_autofree char *name = g_strdup_printf ("%s-selected", shot);
        save_screen (window, size, name);
      }
      g_object_set (iv_timeline_view_get_state (tl), "search", "a", NULL);
      iv_timeline_view_step_match (tl, 1);
      iv_timeline_view_step_match (tl, 1);
      assert_size (window, size, "a search stepped");
      iv_timeline_view_get_range (tl, &t0, &t1);
      iv_timeline_view_set_area (tl, t0, t0 + (t1 - t0) / 2);
      assert_size (window, size, "an area selected");
    }
  save_screen (window, size, shot);
}

static void
exercise_window (gconstpointer data)
{
  const Size *size = data;
  IvWindow *window;
  IvWorkspacePage *runs;
  IvRunsView *rv;

  /* each size from the same start, whichever ran before: default settings (the sidebar
   * shown or not, a remembered size), a new window past its first frame */
  iv_gui_reset_settings ();
  window = iv_gui_new_window (app, size->width, size->height, TRUE);
  start_width = gtk_widget_get_width (GTK_WIDGET (window));
  start_height = gtk_widget_get_height (GTK_WIDGET (window));
  g_assert_cmpint (start_width, >, size->width - 60);
  g_assert_cmpint (start_height, >, size->height - 60);
  assert_size (window, size, "an empty start");
  save_screen (window, size, "empty");

  /* Runs: the plot's share on the 36-run ISL × OSL sweep, then the sample runs' (with and
   * without a bound each); the sweep's every tab, then one run opened. */
  exercise_runs_share (window, size, "isl-osl-sweep");
  exercise_runs_share (window, size, "aiperf");
  open_document (window, "aiperf");
  runs = _iv_window_get_page (window, IV_GROUP_RUNS);
  rv = iv_workspace_page_get_runs (runs);
  assert_size (window, size, "a sweep");
  visit_stacks (window, size, GTK_WIDGET (runs), "a sweep");
  save_screen (window, size, "runs-sweep");
  /* set against a bound: its hardware, model and TP choices in the same row */
  g_object_set (iv_runs_view_get_state (rv), "hardware", "h100x8", NULL);
  iv_gui_settle (window);
  assert_size (window, size, "a sweep set against a bound");
  g_object_set (iv_runs_view_get_state (rv), "hardware", NULL, NULL);
  iv_gui_settle (window);
  g_object_set (iv_runs_view_get_state (rv), "run", 0u, NULL);
  iv_gui_settle (window);
  assert_size (window, size, "one run");
  visit_stacks (window, size, GTK_WIDGET (runs), "one run");
  save_screen (window, size, "runs-one");
  /* every statistic of the run's metrics in view, none behind a sideways scroll */
  {
    GtkWidget *table
        = iv_gui_find_child (iv_gui_find_by_id (GTK_WIDGET (rv), "table"), GTK_TYPE_COLUMN_VIEW);
    GtkWidget *scroller = gtk_widget_get_ancestor (table, GTK_TYPE_SCROLLED_WINDOW);
    if (gtk_widget_get_width (table) > gtk_widget_get_width (scroller))
      g_error ("at %d×%d the run's metrics table is %d px in a %d px pane", size->width,
               size->height, gtk_widget_get_width (table), gtk_widget_get_width (scroller));
  }

  /* Traces: every sample. */
  exercise_trace (window, size, "traces/kineto_a100_simple_add.json.gz", "trace-kineto");
  exercise_trace (window, size, "traces/catapult_flow_simple.json", "trace-catapult");
  exercise_trace (window, size, "traces/pipelined_timeline_sample.json", "trace-pipelined");

  /* Model: every tab. */
  adw_view_stack_set_visible_child_name (window->view_stack, "model");
  assert_size (window, size, "the Model workspace");
  visit_stacks (window, size, GTK_WIDGET (_iv_window_get_page (window, IV_GROUP_MODEL)),
                "the Model workspace");
  save_screen (window, size, "model");
  /* each of the Model's figures, for review */
  {
    static const char *const tabs[] = { "stages", "memory",  "roofline", "sharding", "topology",
                                        "sweep",  "serving", "details",  "compare" };
    GtkStack *stack
        = find_stack_with (GTK_WIDGET (_iv_window_get_page (window, IV_GROUP_MODEL)), "stages");
    g_assert_nonnull (stack);
    for (guint i = 0; i < G_N_ELEMENTS (tabs); i++)
      {
        g_autofree char *name = g_strdup_printf ("model-%s", tabs[i]);
        gtk_stack_set_visible_child_name (stack, tabs[i]);
        assert_size (window, size, name);
        save_screen (window, size, name);
      }
    gtk_stack_set_visible_child_name (stack, "pipeline");
  }

  /* Folded, the sidebar lies over the workspace: opaque, and gone after a choice. */
  if (adw_flap_get_folded (window->flap))
    {
      g_autoptr (IvDocument) first = g_list_model_get_item (iv_window_get_documents (window), 0);
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window->sidebar), "background"));
      /* folded, it starts closed; F9 opens it */
      g_assert_false (adw_flap_get_reveal_flap (window->flap));
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
      g_assert_true (adw_flap_get_reveal_flap (window->flap));
      g_assert_true (iv_gui_wait_for (flap_open, window->flap, 5));
      save_screen (window, size, "sidebar-open");
      g_signal_emit_by_name (window->sidebar, "document-activated", first);
      iv_gui_settle (window);
      g_assert_false (adw_flap_get_reveal_flap (window->flap));
    }
  iv_gui_destroy_toplevels ();
}

int
main (int argc, char **argv)
{
  static const Size sizes[] = { { 1024, 700 }, { 1280, 720 } };
  int rc;

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: skipping the GUI layout tests\n");
      return 77;
    }
  adw_init ();
  app = iv_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/layout/%dx%d", sizes[i].width, sizes[i].height);
      g_test_add_data_func (path, &sizes[i], exercise_window);
    }
  rc = g_test_run ();
  g_object_unref (app);
  return rc;
}
