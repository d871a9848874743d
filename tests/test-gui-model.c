/* test-gui-model.c: the Model workspace in the real window, headless (xvfb-run +
 * dbus-run-session): the controls and the state both ways, the result bar, a stale
 * result, the hardware editor, Stages, Details, Serving, saving and comparing, the
 * sidebar's presets, an opened config.json; and every figure of the registry
 * (src/render/iv-model-figures.c) with its tab and page, drawn as it is exported. Skips
 * (77) without a display. Each case starts from a new window (iv_gui_run_cases). */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "iv-gui-test-util.h"
#include "iv-model-command.h"
#include "iv-model-compare-page.h"
#include "iv-model-controls.h"
#include "iv-model-details.h"
#include "iv-model-figures.h"
#include "iv-model-notebook.h"
#include "iv-model-stages.h"
#include "iv-model-view.h"
#include "iv-preset.h"
#include "iv-render-model.h"
#include "iv-saved.h"
#include "iv-sidebar.h"
#include "iv-test-util.h"
#include "iv-units.h"
#include "iv-window-private.h"
#include "iv-window.h"
#include "iv-workspace-page.h"
#include "iv-wrap-label.h"

/* The running case's window and scratch folder (iv-gui-test-util.h). */
#define window (iv_gui_window ())
#define tmpdir (iv_gui_tmpdir ())

static void
expand_all (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_EXPANDER (c))
        gtk_expander_set_expanded (GTK_EXPANDER (c), TRUE);
      expand_all (c);
    }
}

static GtkListBoxRow *
find_preset_row (GtkWidget *root, const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkListBoxRow *found;
      const IvModel *m = g_object_get_data (G_OBJECT (c), "iv-preset");
      if (GTK_IS_LIST_BOX_ROW (c) && m && g_str_equal (m->name, name))
        return GTK_LIST_BOX_ROW (c);
      if ((found = find_preset_row (c, name)))
        return found;
    }
  return NULL;
}

static GtkStack *
stack_with_page (GtkWidget *root, const char *page)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkStack *found;
      if (GTK_IS_STACK (c) && gtk_stack_get_child_by_name (GTK_STACK (c), page))
        return GTK_STACK (c);
      if ((found = stack_with_page (c, page)))
        return found;
    }
  return NULL;
}

static gboolean
has_label (GtkWidget *root, const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
        || has_label (c, text))
      return TRUE;
  return FALSE;
}

static gboolean
has_label_containing (GtkWidget *root, const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (c)), text)
         && strchr (gtk_label_get_text (GTK_LABEL (c)), '\n'))
        || has_label_containing (c, text))
      return TRUE;
  return FALSE;
}

/* A label under @root whose text contains @needle. */
static gboolean
some_label_contains (GtkWidget *root, const char *needle)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if ((GTK_IS_LABEL (c) && strstr (gtk_label_get_text (GTK_LABEL (c)), needle))
        || some_label_contains (c, needle))
      return TRUE;
  return FALSE;
}

static cairo_surface_t *
render_view_figure (IvModelView *view)
{
  const IvFigure *f = iv_model_view_get_figure (view);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 460);
  cairo_t *cr = cairo_create (s);
  IvRenderOptions o = { IV_THEME_LIGHT, 1.0 };

  g_assert_nonnull (f);
  g_assert_true (f->render (cr, f->data, &o, 1200, 460, NULL));
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

static gboolean
surfaces_equal (cairo_surface_t *a, cairo_surface_t *b)
{
  return memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                 (gsize) cairo_image_surface_get_stride (a) * cairo_image_surface_get_height (a))
         == 0;
}

/* The Model workspace works before anything is opened: moving the TP slider re-evaluates
 * and redraws the pipeline; a combination the SIP cannot hold keeps the last result
 * (greyed) and says why; an opened config.json becomes the model. */
static void
test_model_view (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  g_autofree char *dir = g_build_filename (tmpdir, "Qwen3-8B", NULL);
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  GtkRange *tp;
  cairo_surface_t *before, *after;
  IvPipelineLayout L;
  IvModelFigure fig;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  g_assert_true (_iv_window_get_visible_page (window) == page);
  g_assert_nonnull (view);
  g_assert_nonnull (iv_workspace_page_get_figure (page));
  g_assert_cmpstr (iv_model_view_get_result (view)->model->name, ==, "Llama-3.1-8B");
  g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 8);
  g_assert_null (iv_model_view_get_error (view));
  /* it opens on a configuration that fits, and the result bar says so */
  g_assert_true (iv_model_view_get_result (view)->fits);
  g_assert_false (has_label_containing (GTK_WIDGET (view), "does not fit"));

  tp = GTK_RANGE (iv_gui_control_labelled (GTK_WIDGET (view), "T_P"));
  g_assert_nonnull (tp);
  before = render_view_figure (view);
  gtk_range_set_value (tp, 0); /* TP = 1: nothing to all-reduce */
  g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 1);
  fig = (IvModelFigure){ iv_model_view_get_result (view), 0 };
  iv_pipeline_layout (&fig, 1200, 460, &L);
  g_assert_cmpfloat (L.box[IV_C2].w, ==, 0);
  after = render_view_figure (view);
  g_assert_false (surfaces_equal (before, after));
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);

  /* The state object both ways: a property moves the control and re-evaluates (the
   * figure changes); a control moves the property. */
  {
    IvModelState *state = iv_model_view_get_state (view);
    GtkRange *cp = GTK_RANGE (iv_gui_control_labelled (GTK_WIDGET (view), "_CP"));
    GtkDropDown *mode = GTK_DROP_DOWN (iv_gui_control_labelled (GTK_WIDGET (view), "M_ode"));
    GtkDropDown *weights = GTK_DROP_DOWN (iv_gui_control_labelled (GTK_WIDGET (view), "_Weights"));
    gint64 cp_value;
    double bytes;
    g_assert_nonnull (cp);
    before = render_view_figure (view);
    g_object_set (state, "tp", (gint64) 2, NULL);
    g_assert_cmpfloat (gtk_range_get_value (tp), ==, 1);
    g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 2);
    after = render_view_figure (view);
    g_assert_false (surfaces_equal (before, after));
    cairo_surface_destroy (before);
    cairo_surface_destroy (after);
    gtk_range_set_value (cp, 1); /* CP = 2 */
    g_object_get (state, "cp", &cp_value, NULL);
    g_assert_cmpint (cp_value, ==, 2);
    g_assert_cmpint (iv_model_view_get_result (view)->config.c, ==, 2);
    gtk_range_set_value (cp, 0);
    g_object_set (state, "mode", IV_MODE_DECODE, NULL);
    g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, 1);
    g_assert_cmpint (iv_model_view_get_result (view)->config.mode, ==, IV_MODE_DECODE);
    g_assert_cmpint (iv_model_view_get_result (view)->config.T, ==, 1); /* one token per step */
    gtk_drop_down_set_selected (mode, 0);
    g_assert_cmpint (iv_model_view_get_result (view)->config.mode, ==, IV_MODE_PREFILL);
    g_assert_cmpint (iv_model_view_get_result (view)->config.T, ==,
                     8192); /* the prefill's T_q back */
    /* the weights' drop-down is their format (§2.3): FP8 E4M3 brings its 1 byte */
    gtk_drop_down_set_selected (weights, IV_FORMAT_FP8);
    g_object_get (state, "weight-bytes", &bytes, NULL);
    g_assert_cmpfloat (bytes, ==, 1);
    g_assert_cmpfloat (iv_model_view_get_result (view)->config.e_w, ==, 1);
    g_assert_cmpint (iv_model_view_get_result (view)->config.f_w, ==, IV_FORMAT_FP8);
    g_object_set (state, "weight-format", IV_FORMAT_BF16, NULL);
    g_assert_cmpuint (gtk_drop_down_get_selected (weights), ==, IV_FORMAT_BF16);
    g_assert_cmpfloat (iv_model_view_get_result (view)->config.e_w, ==, 2);
    /* EP's placement (issue 34, as --ep-place): across cubes by default, both ways */
    {
      GtkDropDown *ep_on = GTK_DROP_DOWN (iv_gui_control_labelled (GTK_WIDGET (view), "EP on"));
      g_assert_nonnull (ep_on);
      g_assert_cmpint (iv_model_view_get_result (view)->config.place_ep, ==, IV_PLACE_CUBE);
      g_assert_cmpuint (gtk_drop_down_get_selected (ep_on), ==, IV_PLACE_CUBE);
      gtk_drop_down_set_selected (ep_on, IV_PLACE_PE);
      g_assert_cmpint (iv_model_view_get_result (view)->config.place_ep, ==, IV_PLACE_PE);
      g_object_set (state, "ep-place", IV_PLACE_CUBE, NULL);
      g_assert_cmpuint (gtk_drop_down_get_selected (ep_on), ==, IV_PLACE_CUBE);
      g_assert_cmpint (iv_model_view_get_result (view)->config.place_ep, ==, IV_PLACE_CUBE);
    }
  }

  gtk_range_set_value (tp, 3); /* TP = 8 */
  g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 8);
  /* The answer first: the result bar shows the step, tokens/s (SI, never e-notation),
   * the memory badge in the colour of its verdict and the idle PEs. */
  {
    GtkWidget *bar = iv_model_view_get_result_bar (view);
    const IvResult *res = iv_model_view_get_result (view);
    g_autofree char *step = iv_units_format_seconds (res->step_s);
    g_autofree char *tps = iv_units_format_si (res->tokens_per_s, NULL);
    g_autofree char *idle = g_strdup_printf ("%" G_GINT64_FORMAT, res->idle_pes);
    g_assert_true (has_label (bar, step));
    g_assert_true (has_label (bar, tps));
    g_assert_null (strchr (tps, 'e'));
    g_assert_true (has_label (bar, idle));
    g_assert_true (some_label_contains (bar, res->fits ? "fits ·" : "does not fit ·"));
    g_assert_false (some_label_contains (bar, "Not updated"));
  }
  gtk_range_set_value (tp, 6); /* TP = 64 on PEs: ring4 cubes have 16 */
  g_assert_nonnull (iv_model_view_get_error (view));
  g_assert_nonnull (strstr (iv_model_view_get_error (view), "TP=64"));
  g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 8);
  g_assert_nonnull (iv_workspace_page_get_figure (page));
  /* stale: the last answer dimmed, the reason beside it */
  {
    GtkWidget *bar = iv_model_view_get_result_bar (view);
    g_assert_true (some_label_contains (bar, "Not updated: "));
    g_assert_true (some_label_contains (bar, "TP=64"));
    g_assert_true (gtk_widget_has_css_class (gtk_widget_get_first_child (bar), "iv-stale"));
  }
  gtk_range_set_value (tp, 2);
  g_assert_null (iv_model_view_get_error (view));
  g_assert_false (gtk_widget_has_css_class (
      gtk_widget_get_first_child (iv_model_view_get_result_bar (view)), "iv-stale"));

  /* Hardware details: TP 32 on PEs does not fit ring4's 16 PEs per cube until the cube
   * is edited to 32; then the result runs on the edited SIP, whose TP slider reaches 128. */
  expand_all (GTK_WIDGET (view));
  {
    GtkSpinButton *pes
        = GTK_SPIN_BUTTON (iv_gui_control_labelled (GTK_WIDGET (view), "PEs per cube"));
    GtkSpinButton *flops
        = GTK_SPIN_BUTTON (iv_gui_control_labelled (GTK_WIDGET (view), "Matrix TFLOP/s per PE"));
    g_assert_nonnull (pes);
    g_assert_nonnull (flops);
    g_assert_cmpfloat (gtk_spin_button_get_value (flops), ==, 32); /* ring4: 32e12 */
    gtk_range_set_value (tp, 5);
    g_assert_nonnull (iv_model_view_get_error (view));
    gtk_spin_button_set_value (pes, 32);
    g_assert_null (iv_model_view_get_error (view));
    g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 32);
    g_assert_cmpstr (iv_model_view_get_result (view)->hw->name, ==, "ring4 (edited)");
    g_assert_cmpint (iv_model_view_get_result (view)->hw->n_pe, ==, 32);
    g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_range_get_adjustment (tp)), ==, 7);
    /* A ring of cubes with two rows is no SIP: greyed, the rule shown, the result kept. */
    gtk_spin_button_set_value (
        GTK_SPIN_BUTTON (iv_gui_control_labelled (GTK_WIDGET (view), "Cubes down (Y)")), 2);
    g_assert_nonnull (strstr (iv_model_view_get_error (view), "N × 1"));
    g_assert_cmpint (iv_model_view_get_result (view)->hw->n_pe, ==, 32);
    gtk_spin_button_set_value (
        GTK_SPIN_BUTTON (iv_gui_control_labelled (GTK_WIDGET (view), "Cubes down (Y)")), 1);
    g_assert_null (iv_model_view_get_error (view));
    /* A GPU server edited keeps what the editor does not show (issue 34): MI300X stays
     * fully connected with its FP8 peak, and its memory reads in GB as its data sheet */
    {
      GtkDropDown *server
          = GTK_DROP_DOWN (iv_gui_control_labelled (GTK_WIDGET (view), "_Hardware"));
      GtkSpinButton *mem
          = GTK_SPIN_BUTTON (iv_gui_control_labelled (GTK_WIDGET (view), "Memory GB per PE"));
      const IvHardware *mi300 = iv_hardware_find ("mi300x8");
      guint at = GTK_INVALID_LIST_POSITION;
      GListModel *names = gtk_drop_down_get_model (server);
      for (guint i = 0; i < g_list_model_get_n_items (names); i++)
        if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (names), i), "mi300x8") == 0)
          at = i;
      g_assert_cmpuint (at, !=, GTK_INVALID_LIST_POSITION);
      gtk_drop_down_set_selected (server, at);
      g_assert_cmpfloat (gtk_spin_button_get_value (mem), ==, 192);
      /* a GPU server's fields are per GPU (issue 34), a SIP's per PE */
      g_assert_true (iv_gui_control_labelled (GTK_WIDGET (view), "Memory GB per GPU")
                     == GTK_WIDGET (mem));
      g_assert_true (iv_gui_control_labelled (GTK_WIDGET (view), "Matrix TFLOP/s per GPU")
                     == GTK_WIDGET (flops));
      g_assert_null (iv_gui_control_labelled (GTK_WIDGET (view), "Memory GB per PE"));
      gtk_spin_button_set_value (flops, 1000);
      g_assert_null (iv_model_view_get_error (view));
      g_assert_cmpstr (iv_model_view_get_result (view)->hw->name, ==, "mi300x8 (edited)");
      g_assert_cmpint (iv_model_view_get_result (view)->hw->topology, ==,
                       IV_TOPOLOGY_FULLY_CONNECTED);
      g_assert_cmpfloat (iv_model_view_get_result (view)->hw->P_fp8, ==, mi300->P_fp8);
      g_assert_cmpfloat (iv_model_view_get_result (view)->hw->P_c, ==, 1000e12);
      gtk_drop_down_set_selected (server, 0); /* back to ring4 */
      g_assert_true (iv_gui_control_labelled (GTK_WIDGET (view), "Memory GB per PE")
                     == GTK_WIDGET (mem));
      gtk_range_set_value (tp, 2);
      g_assert_null (iv_model_view_get_error (view));
    }
  }

  /* Stages on screen: one row per present stage, sortable by visible time (the largest
   * first is the result's largest), the CSV is the result's. */
  {
    GtkStack *stack = stack_with_page (GTK_WIDGET (view), "stages");
    IvModelStages *stages = IV_MODEL_STAGES (gtk_stack_get_child_by_name (stack, "stages"));
    GtkColumnView *cv = iv_model_stages_get_column_view (stages);
    GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (cv));
    g_autoptr (GtkColumnViewColumn) visible_col
        = g_list_model_get_item (gtk_column_view_get_columns (cv), 2);
    const IvResult *res = iv_model_view_get_result (view);
    guint present = 0;
    double most = 0, first_visible = -1, order = -1;
    g_autofree char *csv = NULL;

    gtk_stack_set_visible_child_name (stack, "stages");
    for (int st = 0; st < IV_N_STAGES; st++)
      if (res->kinds[0].stages[st].present)
        present++, most = MAX (most, res->kinds[0].stages[st].visible_s);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, present);
    g_assert_cmpstr (gtk_column_view_column_get_title (visible_col), ==, "Visible");
    gtk_column_view_sort_by_column (cv, visible_col, GTK_SORT_DESCENDING);
    {
      g_autoptr (GObject) top = g_list_model_get_item (rows, 0);
      g_object_get (top, "visible", &first_visible, "order", &order, NULL);
    }
    g_assert_cmpfloat (first_visible, ==, most);
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (rows), 0);
    g_assert_true (has_label_containing (GTK_WIDGET (stages), iv_stage_id ((IvStageId) order)));
    csv = iv_result_to_csv (res);
    g_assert_cmpstr (iv_model_stages_get_csv (stages), ==, csv);
    /* a slider step that keeps the stages keeps the rows' items, with the new numbers, the
     * order by visible time made again and the CSV the new result's */
    {
      g_autoptr (GObject) first_row = g_list_model_get_item (rows, 0);
      g_autofree char *csv2 = NULL;
      double v_before, v_after, v_top = 0;
      g_object_get (first_row, "visible", &v_before, NULL);
      g_object_set (iv_model_view_get_state (view), "tq", (gint64) 2048, NULL);
      res = iv_model_view_get_result (view);
      g_assert_cmpint (res->config.T, ==, 2048);
      g_object_get (first_row, "visible", &v_after, NULL);
      g_assert_cmpfloat (v_after, !=, v_before);
      for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr (GObject) it = g_list_model_get_item (rows, i);
          double v;
          g_object_get (it, "visible", &v, NULL);
          if (i == 0)
            v_top = v;
          g_assert_cmpfloat (v, <=, v_top);
        }
      {
        gboolean kept = FALSE;
        for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
          {
            g_autoptr (GObject) it = g_list_model_get_item (rows, i);
            kept |= it == first_row;
          }
        g_assert_true (kept);
      }
      csv2 = iv_result_to_csv (res);
      g_assert_cmpstr (iv_model_stages_get_csv (stages), ==, csv2);
      g_object_set (iv_model_view_get_state (view), "tq", (gint64) 8192, NULL);
    }
    gtk_stack_set_visible_child_name (stack, "pipeline");
  }

  /* Details: built when shown, with this result's waste and the glossary's symbols. */
  {
    GtkStack *stack = stack_with_page (GTK_WIDGET (view), "details");
    GtkWidget *details;
    g_assert_nonnull (stack);
    details = gtk_stack_get_child_by_name (stack, "details");
    g_assert_false (has_label (details, "Replication Waste"));
    gtk_stack_set_visible_child_name (stack, "details");
    /* made for the frame that shows it */
    iv_gui_wait_for_paint (GTK_WINDOW (window));
    g_assert_true (has_label (details, "Replication Waste"));
    g_assert_true (has_label (details, "d_ff") || has_label (details, "F"));
    gtk_range_set_value (tp, 1); /* rebuilt while shown */
    iv_gui_wait_for_paint (GTK_WINDOW (window));
    g_assert_true (has_label (details, "Replication Waste"));
    gtk_stack_set_visible_child_name (stack, "pipeline");
  }

  /* Serving: the curve of this result, computed when its page is shown and drawn as it is
   * exported (§10); the formats, EP's imbalance, the overlap and the reserve reach the
   * model through the state the controls are bound to, and the curve follows them. */
  {
    GtkStack *stack = stack_with_page (GTK_WIDGET (view), "serving");
    IvModelState *state = iv_model_view_get_state (view);
    cairo_surface_t *shown, *moved;
    g_assert_nonnull (stack);
    gtk_stack_set_visible_child_name (stack, "serving");
    g_assert_cmpstr (iv_model_view_get_figure (view)->name, ==, "serving");
    shown = render_view_figure (view);
    g_object_set (state, "reserve", 0.5, "overlap", TRUE, "imbalance", 1.5, NULL);
    g_assert_cmpfloat (iv_model_view_get_result (view)->config.reserve, ==, 0.5);
    g_assert_true (iv_model_view_get_result (view)->config.overlap);
    g_assert_cmpfloat (iv_model_view_get_result (view)->config.imbalance, ==, 1.5);
    moved = render_view_figure (view);
    g_assert_false (surfaces_equal (shown, moved)); /* less memory: fewer points fit */
    cairo_surface_destroy (shown);
    cairo_surface_destroy (moved);
    g_object_set (state, "reserve", 0.1, "overlap", FALSE, "imbalance", 1.0, NULL);
    gtk_stack_set_visible_child_name (stack, "pipeline");
    g_assert_cmpstr (iv_model_view_get_figure (view)->name, ==, "pipeline");
  }

  /* Save & compare: saved with TP 4, loaded back after moving the slider, compared in
   * CSV, persisted for the next window, and a damaged file set aside rather than lost. */
  {
    g_autofree char *path
        = g_build_filename (g_get_user_data_dir (), "inferview", "model-configurations.json", NULL);
    g_autofree char *aside = g_strconcat (path, ".corrupt", NULL);
    g_autofree char *csv = NULL;
    g_autoptr (GError) error = NULL;
    GPtrArray *saved = iv_model_view_get_saved (view);
    guint n0 = saved->len, baseline;
    IvModelView *other;

    gtk_range_set_value (tp, 2);
    g_assert_true (iv_model_view_save (view, "baseline-tp4", &error));
    g_assert_no_error (error);
    baseline = saved->len - 1;
    g_assert_false (iv_model_view_save (view, "baseline-tp4", &error));
    g_assert_nonnull (strstr (error->message, "already saved"));
    g_clear_error (&error);
    gtk_range_set_value (tp, 0);
    g_assert_true (iv_model_view_save (view, NULL, &error));
    g_assert_cmpuint (saved->len, ==, n0 + 2);
    g_assert_true (g_str_has_prefix (((IvSaved *) saved->pdata[saved->len - 1])->name, "config"));
    g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 1);
    g_assert_true (iv_model_view_load_saved (view, baseline, &error));
    g_assert_cmpint (iv_model_view_get_result (view)->config.t, ==, 4);
    /* loading sets the state: it holds exactly the saved configuration */
    {
      IvConfig now;
      iv_model_state_get_config (iv_model_view_get_state (view), &now);
      g_assert_cmpmem (&now, sizeof now, &((IvSaved *) saved->pdata[baseline])->config, sizeof now);
      g_assert_cmpfloat (gtk_range_get_value (tp), ==, 2);
    }
    csv = iv_model_view_get_compare_csv (view);
    g_assert_nonnull (strstr (csv, ",baseline-tp4,"));
    g_assert_nonnull (strstr (csv, "\nTP,"));

    other = g_object_ref_sink (IV_MODEL_VIEW (iv_model_view_new ()));
    g_assert_cmpuint (iv_model_view_get_saved (other)->len, ==, saved->len);
    g_assert_cmpstr (((IvSaved *) iv_model_view_get_saved (other)->pdata[baseline])->name, ==,
                     "baseline-tp4");
    g_object_unref (other);

    g_assert_true (g_file_set_contents (path, "{\"configurations\": [", -1, NULL));
    g_remove (aside);
    other = g_object_ref_sink (IV_MODEL_VIEW (iv_model_view_new ()));
    g_assert_cmpuint (iv_model_view_get_saved (other)->len, ==, 0);
    g_assert_true (g_file_test (aside, G_FILE_TEST_IS_REGULAR));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_object_unref (other);

    /* Nested 100,000 deep (it once crashed the app at every launch): set aside too, under
     * a name of its own; the earlier copy is kept. */
    {
      g_autofree char *deep = g_strnfill (100000, '[');
      g_autofree char *aside2 = g_strconcat (path, ".corrupt-2", NULL);
      g_autofree char *kept = NULL;
      g_assert_true (g_file_set_contents (path, deep, -1, NULL));
      other = g_object_ref_sink (IV_MODEL_VIEW (iv_model_view_new ()));
      g_assert_cmpuint (iv_model_view_get_saved (other)->len, ==, 0);
      g_assert_true (g_file_test (aside2, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, "{\"configurations\": [");
      g_object_unref (other);
      g_remove (aside2);
    }

    /* One bad configuration among good ones: the good ones load, the file as it was is
     * kept aside, and the next save keeps the good ones. */
    {
      g_autofree char *good = NULL;
      GPtrArray *list;
      g_assert_true (g_file_set_contents (
          path,
          "{\"configurations\": [{\"name\": \"keep-me\", \"model\": \"Llama-3.1-8B\", "
          "\"hardware\": \"ring4\","
          " \"mode\": \"decode\", \"batch\": 1, \"tq\": 1, \"context\": 0, \"tp\": 1, \"cp\": 1,"
          " \"tp_place\": \"pe\", \"cp_place\": \"pe\", \"ring\": \"kv\"}, {\"name\": 5}]}",
          -1, NULL));
      g_remove (aside);
      other = g_object_ref_sink (IV_MODEL_VIEW (iv_model_view_new ()));
      list = iv_model_view_get_saved (other);
      g_assert_cmpuint (list->len, ==, 1);
      g_assert_cmpstr (((IvSaved *) list->pdata[0])->name, ==, "keep-me");
      g_assert_true (g_file_test (aside, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
      g_assert_true (iv_model_view_save (other, "another", &error));
      g_assert_true (g_file_get_contents (path, &good, NULL, NULL));
      g_assert_nonnull (strstr (good, "keep-me"));
      g_assert_nonnull (strstr (good, "another"));
      g_object_unref (other);
      g_remove (path);
    }
    g_remove (aside);
  }

  /* The sidebar's presets: three DeepSeek rows (as in model-presets.tsv); activating one
   * opens it in the Model workspace; saved configurations are listed there too. */
  {
    IvSidebar *sidebar = window->sidebar;
    GtkListBoxRow *mixtral = NULL;
    g_assert_cmpuint (iv_sidebar_count_presets_shown (sidebar), ==, 46);
    iv_sidebar_set_preset_filter (sidebar, "deepseek");
    g_assert_cmpuint (iv_sidebar_count_presets_shown (sidebar), ==, 3);
    iv_sidebar_set_preset_filter (sidebar, "");
    mixtral = find_preset_row (GTK_WIDGET (sidebar), "Mixtral-8x22B");
    g_assert_nonnull (mixtral);
    gtk_widget_activate (GTK_WIDGET (mixtral));
    g_assert_cmpstr (iv_model_view_get_result (view)->model->name, ==, "Mixtral-8x22B");
    g_assert_true (_iv_window_get_visible_page (window) == page);
    g_assert_true (has_label (GTK_WIDGET (sidebar), "baseline-tp4"));
  }

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (
      config,
      "{\"model_type\": \"qwen3\", \"hidden_size\": 4096, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936}",
      -1, NULL));
  iv_gui_open_paths (window, config, NULL);
  iv_gui_settle (window);
  g_assert_cmpstr (iv_model_view_get_result (view)->model->name, ==, "Qwen3-8B");
  g_assert_cmpint (iv_model_view_get_result (view)->kinds[0].layers, ==, 36);
}

/* The toggle button named @name under @root (the notebook's tab of that page), or NULL. */
static GtkToggleButton *
find_tab (GtkWidget *root, const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkToggleButton *found;
      if (GTK_IS_TOGGLE_BUTTON (c) && g_strcmp0 (gtk_widget_get_name (c), name) == 0)
        return GTK_TOGGLE_BUTTON (c);
      if ((found = find_tab (c, name)))
        return found;
    }
  return NULL;
}

/* The pixels of @s unlike its top-left corner's: what a figure drew on its background. */
static guint
ink_pixels (cairo_surface_t *s)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  guint32 bg = *(const guint32 *) data;
  guint n = 0;

  for (int y = 0; y < cairo_image_surface_get_height (s); y++)
    for (int x = 0; x < cairo_image_surface_get_width (s); x++)
      n += ((const guint32 *) (data + y * stride))[x] != bg;
  return n;
}

/* Every figure of the registry has its tab and its page in the window, named as on the
 * command line; shown, it is the figure Export takes and it draws (the serving curve's
 * from the curve). A figure added to the registry that the window cannot show fails
 * here. */
static void
test_model_figures (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  GtkStack *stack;
  guint n;
  const IvModelFigureInfo *figures = iv_model_figures (&n);

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  stack = stack_with_page (GTK_WIDGET (view), figures[0].name);
  g_assert_nonnull (stack);
  for (guint i = 0; i < n; i++)
    {
      GtkToggleButton *tab = find_tab (GTK_WIDGET (view), figures[i].name);
      const IvFigure *f;
      cairo_surface_t *s;
      g_assert_nonnull (gtk_stack_get_child_by_name (stack, figures[i].name));
      g_assert_nonnull (tab);
      g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tab)), ==, figures[i].title);
      /* the tab shows the page */
      gtk_toggle_button_set_active (tab, TRUE);
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, figures[i].name);
      f = iv_model_view_get_figure (view);
      g_assert_nonnull (f);
      g_assert_cmpstr (f->name, ==, figures[i].name);
      g_assert_true (f->render == figures[i].render);
      s = render_view_figure (view);
      g_assert_cmpuint (ink_pixels (s), >, 1200 * 460 / 100);
      cairo_surface_destroy (s);
    }
  /* then Details and Compare, which are the window's own */
  g_assert_nonnull (gtk_stack_get_child_by_name (stack, "details"));
  g_assert_nonnull (gtk_stack_get_child_by_name (stack, "compare"));
}

/* "Copy as command": the view's action puts on the clipboard the `inferview model` line of
 * the state and the figure shown (test-model's /model/command-line runs such a line). */
static void
test_model_copy_command (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  IvModelState *state;
  GdkContentProvider *content;
  g_auto (GValue) value = G_VALUE_INIT;
  g_autofree char *expected = NULL;
  g_autofree char *toast = NULL;
  IvConfig c;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  state = iv_model_view_get_state (view);
  g_object_set (state, "cp", (gint64) 2, "ring", IV_RING_QOML, "batch", (gint64) 3, NULL);
  iv_gui_settle (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "model.copy-command", NULL));
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (view)));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  iv_model_state_get_config (state, &c);
  expected = iv_model_command_line (iv_model_state_get_model (state), NULL,
                                    iv_model_state_get_hardware (state), &c,
                                    iv_model_view_get_figure (view)->name, NULL);
  g_assert_cmpstr (g_value_get_string (&value), ==, expected);
  g_assert_nonnull (strstr (expected, " --batch 3 "));
  g_assert_nonnull (strstr (expected, " --cp 2 --cp-place cube --ring qoml "));
  g_assert_true (g_str_has_suffix (expected, " --figure pipeline -o pipeline.png"));
  toast = iv_gui_last_toast_text (window);
  g_assert_cmpstr (toast, ==, "Command copied");
}

static guint
count_labels (GtkWidget *root, const char *text)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    n += (GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
         + count_labels (c, text);
  return n;
}

/* The phase of @scale's own scroll handling (the one that moves it), and its wheel guard. */
static GtkPropagationPhase
slider_scroll_phase (GtkWidget *scale, GtkEventController **guard)
{
  GListModel *controllers = gtk_widget_observe_controllers (scale);
  GtkPropagationPhase phase = GTK_PHASE_NONE;
  guint n_own = 0;

  *guard = NULL;
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (!GTK_IS_EVENT_CONTROLLER_SCROLL (c))
        continue;
      if (g_strcmp0 (gtk_event_controller_get_name (c), "iv-wheel-guard") == 0)
        *guard = c;
      else
        phase = gtk_event_controller_get_propagation_phase (c), n_own++;
    }
  g_object_unref (controllers);
  g_assert_cmpuint (n_own, ==, 1);
  g_assert_nonnull (*guard);
  return phase;
}

/* The TP and CP sliders: the wheel moves one only when it has the focus (else its own
 * scroll handling is off and the scroll goes on to the pane); sizes the placement cannot
 * take are marked "×", again when the placement changes. */
static void
test_model_sliders (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  IvModelState *state;
  GtkWidget *tp, *cp;
  GtkEventController *guard;
  gboolean stopped = TRUE;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  state = iv_model_view_get_state (view);
  tp = iv_gui_control_labelled (GTK_WIDGET (view), "T_P");
  cp = iv_gui_control_labelled (GTK_WIDGET (view), "_CP");
  g_assert_nonnull (tp);
  g_assert_nonnull (cp);

  /* ring4: 16 PEs per cube, 4 cubes. TP 8 on PEs: TP 32 and 64 cannot be placed; CP on
   * cubes with TP 8 on PEs: up to 4, so 8 to 64 cannot. */
  g_assert_cmpuint (count_labels (tp, "×"), ==, 2);
  g_assert_cmpuint (count_labels (cp, "×"), ==, 4);
  g_assert_nonnull (gtk_widget_get_tooltip_text (tp));
  /* TP on cubes: at most 4 */
  g_object_set (state, "tp", (gint64) 2, "tp-place", IV_PLACE_CUBE, NULL);
  iv_gui_settle (window);
  g_assert_cmpuint (count_labels (tp, "×"), ==, 4);
  g_object_set (state, "tp-place", IV_PLACE_PE, NULL);
  iv_gui_settle (window);
  g_assert_cmpuint (count_labels (tp, "×"), ==, 2);

  /* not focused: the guard (capture phase) lets the scroll through with the slider's own
   * handling off, so the pane scrolls and the value stays */
  gtk_widget_grab_focus (GTK_WIDGET (iv_gui_control_labelled (GTK_WIDGET (view), "M_ode")));
  g_assert_false (gtk_widget_has_focus (tp));
  slider_scroll_phase (tp, &guard);
  g_signal_emit_by_name (guard, "scroll", 0.0, 1.0, &stopped);
  g_assert_false (stopped);
  g_assert_cmpint (slider_scroll_phase (tp, &guard), ==, GTK_PHASE_NONE);
  /* focused: the slider takes it */
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_grab_focus (tp);
  iv_gui_settle (window);
  if (gtk_widget_has_focus (tp))
    {
      g_signal_emit_by_name (guard, "scroll", 0.0, 1.0, &stopped);
      g_assert_false (stopped);
      g_assert_cmpint (slider_scroll_phase (tp, &guard), ==, GTK_PHASE_BUBBLE);
    }
  else
    g_test_message ("the window has no input focus under this display: focused case skipped");
}

static const char *
saved_subtitle (GtkWidget *root, const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *found;
      if (ADW_IS_ACTION_ROW (c)
          && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c)), title) == 0)
        return adw_action_row_get_subtitle (ADW_ACTION_ROW (c));
      if ((found = saved_subtitle (c, title)))
        return found;
    }
  return NULL;
}

/* Saved configurations that differ only in the CP placement or the ring have subtitles
 * that tell them apart. */
static void
test_model_saved_subtitles (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  IvModelState *state;
  g_autoptr (GError) error = NULL;
  const char *kv, *qoml, *pes;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  state = iv_model_view_get_state (view);
  g_object_set (state, "cp", (gint64) 2, "cp-place", IV_PLACE_CUBE, "ring", IV_RING_KV, NULL);
  g_assert_true (iv_model_view_save (view, "subtitle kv", &error));
  g_object_set (state, "ring", IV_RING_QOML, NULL);
  g_assert_true (iv_model_view_save (view, "subtitle qoml", &error));
  g_object_set (state, "ring", IV_RING_KV, "cp-place", IV_PLACE_PE, NULL);
  g_assert_true (iv_model_view_save (view, "subtitle pes", &error));
  g_assert_no_error (error);
  iv_gui_settle (window);
  kv = saved_subtitle (GTK_WIDGET (view), "subtitle kv");
  qoml = saved_subtitle (GTK_WIDGET (view), "subtitle qoml");
  pes = saved_subtitle (GTK_WIDGET (view), "subtitle pes");
  g_assert_nonnull (kv);
  g_assert_nonnull (qoml);
  g_assert_nonnull (pes);
  g_assert_cmpstr (kv, ==,
                   "Llama-3.1-8B · ring4 · prefill · TP 8 on PEs · CP 2 on cubes, K/V ring");
  g_assert_cmpstr (qoml, ==,
                   "Llama-3.1-8B · ring4 · prefill · TP 8 on PEs · CP 2 on cubes, Q+O/m/l ring");
  g_assert_cmpstr (pes, ==, "Llama-3.1-8B · ring4 · prefill · TP 8 on PEs · CP 2 on PEs, K/V ring");
}

/* Compare at 1024 × 700 with many rows: the table's text is at least the body text's size
 * (it shrank to 6–7 px), its rows full height, and the page scrolls instead. */
static void
test_model_compare_readable (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  IvModelState *state;
  IvModelComparePage *compare;
  GtkToggleButton *tab;
  g_autoptr (GError) error = NULL;
  int w, h;

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  state = iv_model_view_get_state (view);
  g_assert_true (iv_model_view_save (view, "readable tp8", &error));
  g_object_set (state, "cp", (gint64) 2, NULL);
  g_assert_true (iv_model_view_save (view, "readable cp2", &error));
  g_assert_no_error (error);
  tab = find_tab (GTK_WIDGET (view), "compare");
  g_assert_nonnull (tab);
  gtk_toggle_button_set_active (tab, TRUE);
  iv_gui_settle (window);
  compare
      = IV_MODEL_COMPARE_PAGE (iv_gui_find_child (GTK_WIDGET (view), IV_TYPE_MODEL_COMPARE_PAGE));
  g_assert_nonnull (compare);
  g_assert_cmpfloat (iv_model_compare_page_get_body_px (compare), >=, 10);
  g_assert_cmpfloat (iv_model_compare_page_get_text_px (compare), >=,
                     iv_model_compare_page_get_body_px (compare) - 0.01);
  gtk_widget_get_size_request (iv_gui_find_child (GTK_WIDGET (compare), GTK_TYPE_DRAWING_AREA), &w,
                               &h);
  /* two columns and some thirty rows of 26 px */
  g_assert_cmpint (h, >=, 26 * 20);
}

/* The drop-down under @root that offers @title among its items (the notebook's narrow
 * form; the sweep's axis is another drop-down), or NULL; *@index is the item's. */
static GtkDropDown *
drop_down_offering (GtkWidget *root, const char *title, guint *index)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkDropDown *found;
      GListModel *items = GTK_IS_DROP_DOWN (c) ? gtk_drop_down_get_model (GTK_DROP_DOWN (c)) : NULL;
      for (guint i = 0; GTK_IS_STRING_LIST (items) && i < g_list_model_get_n_items (items); i++)
        if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (items), i), title))
          {
            *index = i;
            return GTK_DROP_DOWN (c);
          }
      if ((found = drop_down_offering (c, title, index)))
        return found;
    }
  return NULL;
}

/* At 1024 × 700 with the sidebar open every page of the Model workspace (each figure of
 * the registry, Details, Compare) can be reached: its tab lies whole within the
 * notebook, which lies within the window, or a drop-down on screen lists it (Details and
 * Compare were tabs clipped off the right edge); Compare chosen there shows Compare; and
 * the window stays as wide as it was asked to be. */
static void
test_model_tabs_reachable (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  GtkWidget *notebook;
  GtkStack *stack;
  GtkDropDown *drop;
  int win_width;
  guint n, index;
  const IvModelFigureInfo *figures = iv_model_figures (&n);
  const char *names[32], *titles[32];

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  g_object_set (window, "sidebar-visible", TRUE, NULL);
  iv_gui_settle (window);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->sidebar)));
  notebook = iv_gui_find_child (GTK_WIDGET (view), IV_TYPE_MODEL_NOTEBOOK);
  g_assert_nonnull (notebook);
  win_width = gtk_widget_get_width (GTK_WIDGET (window));
  stack = stack_with_page (notebook, "compare");
  g_assert_nonnull (stack);

  g_assert_cmpuint (n + 2, <=, G_N_ELEMENTS (names));
  for (guint i = 0; i < n; i++)
    {
      names[i] = figures[i].name;
      titles[i] = figures[i].title;
    }
  names[n] = "details";
  titles[n] = "Details";
  names[n + 1] = "compare";
  titles[n + 1] = "Compare";
  for (guint i = 0; i < n + 2; i++)
    {
      GtkToggleButton *tab = find_tab (notebook, names[i]);
      graphene_rect_t b;
      gboolean on_row, listed;

      on_row = tab && gtk_widget_get_mapped (GTK_WIDGET (tab))
               && gtk_widget_compute_bounds (GTK_WIDGET (tab), GTK_WIDGET (window), &b)
               && b.origin.x >= 0 && b.origin.x + b.size.width <= win_width;
      drop = drop_down_offering (notebook, titles[i], &index);
      listed = drop && gtk_widget_get_mapped (GTK_WIDGET (drop))
               && gtk_widget_compute_bounds (GTK_WIDGET (drop), GTK_WIDGET (window), &b)
               && b.origin.x >= 0 && b.origin.x + b.size.width <= win_width;
      if (!on_row && !listed)
        g_error ("the %s page can be reached neither by a tab on screen nor by a drop-down",
                 names[i]);
    }

  /* the result bar wraps its figures rather than push the pane past the window's edge
   * (in one row it needed about 530 px) */
  {
    GtkWidget *bar = iv_model_view_get_result_bar (view);
    graphene_rect_t b;
    int min_width;
    gtk_widget_measure (bar, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_assert_cmpint (min_width, <=, 400);
    g_assert_true (gtk_widget_compute_bounds (bar, GTK_WIDGET (window), &b));
    g_assert_cmpfloat (b.origin.x + b.size.width, <=, win_width);
  }

  /* the narrow form at this size: choosing Compare there shows it, and it says so */
  drop = drop_down_offering (notebook, "Compare", &index);
  g_assert_nonnull (drop);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (drop)));
  gtk_drop_down_set_selected (drop, index);
  iv_gui_settle (window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "compare");
  g_assert_cmpstr (iv_model_notebook_get_page (IV_MODEL_NOTEBOOK (notebook)), ==, "compare");
  /* and a tab (or code) switching the page moves the drop-down with it */
  gtk_toggle_button_set_active (find_tab (notebook, names[0]), TRUE);
  g_assert_cmpuint (gtk_drop_down_get_selected (drop), ==, 0);
  iv_gui_snapshot (GTK_WINDOW (window), g_getenv ("IV_MODEL_TABS_PNG"));
}

/* The row under @root whose title is @title, or NULL. */
static GtkWidget *
row_titled (GtkWidget *root, const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      if (ADW_IS_PREFERENCES_ROW (c)
          && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c)), title) == 0)
        return c;
      if ((found = row_titled (c, title)))
        return found;
    }
  return NULL;
}

/* A label under @root with the style class @cls, or NULL. */
static GtkLabel *
label_with_class (GtkWidget *root, const char *cls)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found;
      if (GTK_IS_LABEL (c) && gtk_widget_has_css_class (c, cls))
        return GTK_LABEL (c);
      if ((found = label_with_class (c, cls)))
        return found;
    }
  return NULL;
}

/* Issue 31: a slider step with Details shown updates its rows in place — the glossary's
 * row for T and its value label are the same widgets before and after, with the new
 * value — and the waste and hints, a search of other configurations, are made only while
 * Details shows them: with a figure shown the view's result has none, though TP 16
 * exceeds Llama-3.1-8B's 8 KV heads. */
static void
test_model_details_in_place (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  GtkWidget *controls = iv_gui_find_child (GTK_WIDGET (view), IV_TYPE_MODEL_CONTROLS);
  GtkRange *tq
      = GTK_RANGE (gtk_widget_get_template_child (controls, IV_TYPE_MODEL_CONTROLS, "tq_scale"));
  GtkRange *tp = GTK_RANGE (iv_gui_control_labelled (GTK_WIDGET (view), "T_P"));
  GtkStack *stack = stack_with_page (GTK_WIDGET (view), "details");
  GtkWidget *details, *row_before, *hint_row;
  GtkLabel *value_before;
  g_autofree char *text_before = NULL;
  const IvResult *r;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  g_assert_nonnull (tq);
  g_assert_nonnull (tp);
  g_assert_nonnull (stack);

  /* hidden: TP 16 evaluated, no waste or hints made */
  gtk_stack_set_visible_child_name (stack, "pipeline");
  gtk_range_set_value (tp, 4);
  r = iv_model_view_get_result (view);
  g_assert_cmpint (r->config.t, ==, 16);
  g_assert_false (r->has_hints);
  g_assert_cmpuint (r->n_hints, ==, 0);
  g_assert_cmpuint (r->n_waste, ==, 0);

  /* shown: made for the frame that shows it, and on the page */
  gtk_stack_set_visible_child_name (stack, "details");
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  r = iv_model_view_get_result (view);
  g_assert_true (r->has_hints);
  g_assert_cmpuint (r->n_hints, >, 0);
  g_assert_cmpuint (r->n_waste, >, 0);
  details
      = iv_gui_find_child (gtk_stack_get_child_by_name (stack, "details"), IV_TYPE_MODEL_DETAILS);
  g_assert_nonnull (details);
  hint_row = row_titled (details, r->hints[0].text);
  g_assert_nonnull (hint_row);

  /* a T_q step while shown: the same rows, new text */
  gtk_range_set_value (tq, 13); /* T_q 8192 */
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  row_before = row_titled (details, "T");
  g_assert_nonnull (row_before);
  value_before = label_with_class (row_before, "numeric");
  g_assert_nonnull (value_before);
  text_before = g_strdup (gtk_label_get_text (value_before));
  gtk_range_set_value (tq, 12); /* T_q 4096 */
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpint (iv_model_view_get_result (view)->config.T, ==, 4096);
  g_assert_true (iv_model_view_get_result (view)->has_hints);
  g_assert_true (row_titled (details, "T") == row_before);
  g_assert_true (label_with_class (row_before, "numeric") == value_before);
  g_assert_cmpstr (gtk_label_get_text (value_before), !=, text_before);
  /* the hint about the KV heads does not depend on T_q: its row is the one it was */
  g_assert_true (row_titled (details, r->hints[0].text) == hint_row);

  /* hidden again: the next step makes none */
  gtk_stack_set_visible_child_name (stack, "pipeline");
  gtk_range_set_value (tq, 13);
  g_assert_false (iv_model_view_get_result (view)->has_hints);
  g_assert_cmpuint (iv_model_view_get_result (view)->n_hints, ==, 0);
}

/* The titles of the rows in @root's preferences group titled @group, in order, into
 * @titles (at most @max): how many. */
static guint
group_row_titles (GtkWidget *root, const char *group, const char **titles, guint max)
{
  GtkWidget *grp = NULL;
  guint n = 0;

  for (GtkWidget *c = root; c;)
    {
      if (ADW_IS_PREFERENCES_GROUP (c)
          && g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (c)), group) == 0)
        {
          grp = c;
          break;
        }
      /* depth first */
      if (gtk_widget_get_first_child (c))
        c = gtk_widget_get_first_child (c);
      else
        {
          while (c && c != root && !gtk_widget_get_next_sibling (c))
            c = gtk_widget_get_parent (c);
          c = c && c != root ? gtk_widget_get_next_sibling (c) : NULL;
        }
    }
  g_assert_nonnull (grp);
  for (GtkWidget *c = gtk_widget_get_first_child (grp); c;)
    {
      if (ADW_IS_PREFERENCES_ROW (c) && n < max)
        titles[n++] = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c));
      if (!ADW_IS_PREFERENCES_ROW (c) && gtk_widget_get_first_child (c))
        c = gtk_widget_get_first_child (c);
      else
        {
          while (c && c != grp && !gtk_widget_get_next_sibling (c))
            c = gtk_widget_get_parent (c);
          c = c && c != grp ? gtk_widget_get_next_sibling (c) : NULL;
        }
    }
  return n;
}

/* Issue 31: slider values that come between two frames (a drag sends several) cost one
 * update of the Details page, at the frame, with the last of them: what it then shows is
 * what a fresh evaluation of the last configuration gives — its hints and waste in order,
 * and the glossary's T at T_q 4096 ("4.1 ktokens", by hand: 4096 in SI with 3 digits). */
static void
test_model_details_coalesced (void)
{
  IvWorkspacePage *page = _iv_window_get_page (window, IV_GROUP_MODEL);
  IvModelView *view = iv_workspace_page_get_model_view (page);
  GtkWidget *controls = iv_gui_find_child (GTK_WIDGET (view), IV_TYPE_MODEL_CONTROLS);
  GtkRange *tq
      = GTK_RANGE (gtk_widget_get_template_child (controls, IV_TYPE_MODEL_CONTROLS, "tq_scale"));
  GtkRange *tp = GTK_RANGE (iv_gui_control_labelled (GTK_WIDGET (view), "T_P"));
  GtkStack *stack = stack_with_page (GTK_WIDGET (view), "details");
  IvModelState *state = iv_model_view_get_state (view);
  const char *shown[IV_MAX_HINTS + 1];
  IvModelDetails *details;
  GtkWidget *t_row;
  IvResult fresh;
  IvConfig c;
  guint updates, n;

  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-workspace", "s", "model"));
  iv_gui_settle (window);
  g_assert_true (iv_model_view_select_model (view, "DeepSeek-V3"));
  gtk_stack_set_visible_child_name (stack, "details");
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  details = IV_MODEL_DETAILS (
      iv_gui_find_child (gtk_stack_get_child_by_name (stack, "details"), IV_TYPE_MODEL_DETAILS));
  g_assert_nonnull (details);
  updates = iv_model_details_get_updates (details);
  g_assert_cmpuint (updates, >, 0);

  /* six values before the next frame, TP and T_q moved: TP 4 and T_q 4096 at the end */
  gtk_range_set_value (tq, 13);
  gtk_range_set_value (tp, 4);
  gtk_range_set_value (tq, 11);
  gtk_range_set_value (tp, 3);
  gtk_range_set_value (tq, 12);
  gtk_range_set_value (tp, 2);
  g_assert_cmpuint (iv_model_details_get_updates (details), ==, updates);
  /* the waste and hints, a search, not made for values no frame shows */
  g_assert_false (iv_model_view_get_result (view)->has_hints);
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  g_assert_cmpuint (iv_model_details_get_updates (details), ==, updates + 1);

  /* what it shows is a fresh evaluation's */
  iv_model_state_get_config (state, &c);
  g_assert_cmpint (c.t, ==, 4);
  g_assert_cmpint (c.T, ==, 4096);
  g_assert_true (iv_model_evaluate (iv_model_state_get_model (state),
                                    iv_model_state_get_hardware (state), &c, &fresh));
  n = group_row_titles (GTK_WIDGET (details), "Hints", shown, G_N_ELEMENTS (shown));
  if (fresh.n_hints == 0)
    {
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpstr (shown[0], ==, "No hints: nothing stands out");
    }
  else
    {
      g_assert_cmpuint (n, ==, fresh.n_hints);
      for (guint i = 0; i < n; i++)
        g_assert_cmpstr (shown[i], ==, fresh.hints[i].text);
    }
  n = group_row_titles (GTK_WIDGET (details), "Replication Waste", shown, G_N_ELEMENTS (shown));
  g_assert_cmpuint (n, ==, MAX (fresh.n_waste, 1));
  for (guint i = 0; i < fresh.n_waste; i++)
    g_assert_cmpstr (shown[i], ==, fresh.waste[i].text);
  t_row = row_titled (GTK_WIDGET (details), "T");
  g_assert_nonnull (t_row);
  g_assert_cmpstr (gtk_label_get_text (label_with_class (t_row, "numeric")), ==, "4.1 ktokens");

  /* one more step: the hint that DeepSeek-V3 does not fit (its sentence says how much
   * memory a PE needs, which T_q changes) laid out once for each width GTK asks about —
   * unwrapped, for its natural width; at the page's natural width (the paned asks the
   * page's height without a width); at the width it has — not once per question */
  {
    guint i = 0;
    GtkWidget *hint_row;
    IvWrapLabel *hint;
    guint layouts;
    g_autofree char *before = NULL;
    while (i < fresh.n_hints && !strstr (fresh.hints[i].text, "does not fit"))
      i++;
    g_assert_cmpuint (i, <, fresh.n_hints);
    hint_row = row_titled (GTK_WIDGET (details), fresh.hints[i].text);
    hint = IV_WRAP_LABEL (iv_gui_find_child (hint_row, IV_TYPE_WRAP_LABEL));
    layouts = iv_wrap_label_get_layouts (hint);
    before = g_strdup (iv_wrap_label_get_text (hint));
    gtk_range_set_value (tq, 13);
    iv_gui_wait_for_paint (GTK_WINDOW (window));
    g_assert_cmpstr (iv_wrap_label_get_text (hint), !=, before);
    g_assert_cmpstr (iv_wrap_label_get_text (hint), ==,
                     iv_model_view_get_result (view)->hints[i].text);
    g_assert_cmpuint (iv_wrap_label_get_layouts (hint), >=, layouts + 1);
    g_assert_cmpuint (iv_wrap_label_get_layouts (hint), <=, layouts + 3);
  }
}

/* IvWrapLabel, which the Details page's hints and waste are written in: as tall as a
 * GtkLabel wrapping the same text at the same width; its text laid out once per width
 * asked — the unwrapped text for its natural width, then each width asked for a height —
 * and not again for a width asked before (four are kept), for the same text set again,
 * for its width at a height (which GtkLabel finds by a binary search of layouts), or to
 * draw it at the width it was last measured at. */
static void
test_wrap_label (void)
{
  static const char text[] = "158 GiB per PE does not fit in the 3.6 GiB it may hold (10 % kept "
                             "for the runtime): no TP that this SIP can place fits (CP=1 kept)";
  GtkWidget *win = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *wrap = iv_wrap_label_new (text), *label = gtk_label_new (text);
  IvWrapLabel *w = IV_WRAP_LABEL (wrap);
  int min, nat, h300, h200, label_h, unwrapped;
  guint layouts;

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_box_append (GTK_BOX (box), wrap);
  gtk_box_append (GTK_BOX (box), label);
  gtk_window_set_child (GTK_WINDOW (win), box);
  gtk_window_set_default_size (GTK_WINDOW (win), 300, 480);
  gtk_window_present (GTK_WINDOW (win));
  iv_gui_wait_for_paint (GTK_WINDOW (win));
  g_assert_cmpstr (iv_wrap_label_get_text (w), ==, text);
  g_assert_cmpint (gtk_widget_get_height (wrap), ==, gtk_widget_get_height (label));

  /* a new text, asked about as GTK asks */
  iv_wrap_label_set_text (w, text + 4); /* "GiB per PE …" */
  gtk_label_set_text (GTK_LABEL (label), text + 4);
  layouts = iv_wrap_label_get_layouts (w);
  gtk_widget_measure (wrap, GTK_ORIENTATION_HORIZONTAL, -1, &min, &unwrapped, NULL, NULL);
  g_assert_cmpuint (iv_wrap_label_get_layouts (w), ==, layouts + 1);
  g_assert_cmpint (min, <, 300);
  g_assert_cmpint (unwrapped, >, 600);
  gtk_widget_measure (wrap, GTK_ORIENTATION_VERTICAL, 300, &h300, &nat, NULL, NULL);
  g_assert_cmpint (h300, ==, nat);
  g_assert_cmpuint (iv_wrap_label_get_layouts (w), ==, layouts + 2);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, 300, &label_h, NULL, NULL, NULL);
  g_assert_cmpint (h300, ==, label_h);
  gtk_widget_measure (wrap, GTK_ORIENTATION_VERTICAL, 200, &h200, NULL, NULL, NULL);
  g_assert_cmpint (h200, >, h300);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, 200, &label_h, NULL, NULL, NULL);
  g_assert_cmpint (h200, ==, label_h);
  g_assert_cmpuint (iv_wrap_label_get_layouts (w), ==, layouts + 3);
  /* asked before, or a width for a height: no layout */
  gtk_widget_measure (wrap, GTK_ORIENTATION_VERTICAL, 300, &min, NULL, NULL, NULL);
  g_assert_cmpint (min, ==, h300);
  gtk_widget_measure (wrap, GTK_ORIENTATION_HORIZONTAL, h300, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, unwrapped);
  g_assert_cmpuint (iv_wrap_label_get_layouts (w), ==, layouts + 3);

  /* the same text again: nothing to lay out or draw again */
  iv_gui_wait_for_paint (GTK_WINDOW (win));
  g_assert_cmpint (gtk_widget_get_height (wrap), ==, gtk_widget_get_height (label));
  layouts = iv_wrap_label_get_layouts (w);
  iv_wrap_label_set_text (w, text + 4);
  iv_gui_wait_for_paint (GTK_WINDOW (win));
  g_assert_cmpuint (iv_wrap_label_get_layouts (w), ==, layouts);
  gtk_window_destroy (GTK_WINDOW (win));
}

static const IvGuiCase cases[] = {
  { "/gui/model-view", test_model_view },
  { "/gui/model-figures", test_model_figures },
  { "/gui/model-copy-command", test_model_copy_command },
  { "/gui/model-sliders", test_model_sliders },
  { "/gui/model-saved-subtitles", test_model_saved_subtitles },
  { "/gui/model-compare-readable", test_model_compare_readable },
  { "/gui/model-tabs-reachable", test_model_tabs_reachable },
  { "/gui/model-details-in-place", test_model_details_in_place },
  { "/gui/model-details-coalesced", test_model_details_coalesced },
  { "/gui/wrap-label", test_wrap_label },
};

int
main (int argc, char **argv)
{
  return iv_gui_run_cases (&argc, &argv, cases, G_N_ELEMENTS (cases));
}
