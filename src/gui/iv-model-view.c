/* iv-model-view.c: the Model workspace's live view. Every control change re-evaluates
 * the model (a few microseconds) and redraws the visible figure with the same renderer
 * the command line exports with. A combination the model rejects keeps the last valid
 * result on screen, greyed, with the reason under the controls. The Details page (waste,
 * hints, formulas, glossary) is updated in place only while it is shown, once a frame
 * however many values came before it, and the waste and hints, which search other
 * configurations, are made only then.
 *
 * Where things are: the layout is ui/iv-model-view.ui, five widgets — IvModelControls
 * (bound to the IvModelState evaluated here at every "changed"), IvModelSavedList,
 * IvModelResultBar, IvModelNotebook (a tab per figure of the registry,
 * src/render/iv-model-figures.c, then Details and IvModelComparePage). This file holds
 * the result and the serving curve they show, the hardware in use, the imported models. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-model-command.h"
#include "iv-model-controls.h"
#include "iv-model-details.h"
#include "iv-model-notebook.h"
#include "iv-model-result-bar.h"
#include "iv-model-saved-list.h"
#include "iv-model-state.h"
#include "iv-saved.h"
#include "iv-window.h"

struct _IvModelView
{
  GtkWidget parent_instance;

  GPtrArray *imported; /* IvModel *, owned; outlive any result pointing at them */
  IvModelState *state; /* what is evaluated: the controls are bound to it */

  IvResult result; /* the last configuration that evaluated */
  gboolean has_result;
  char *error; /* why the current configuration does not evaluate, or NULL */
  IvModelFigure model_figure;
  IvFigure figure;
  GPtrArray *custom_hw; /* IvHardware *, owned: every edited SIP a result may point at */
  char *hw_error;       /* why the edited fields are not a SIP, or NULL */
  gboolean details_stale;
  guint details_tick; /* the tick callback that updates the Details page, or 0 */
  gboolean stages_stale;
  IvModelDetails *details; /* the Details page's content, once it was shown (the box owns it) */

  /* template children */
  GtkWidget *paned;
  IvModelControls *controls;
  /* the Serving page: its curve, computed when the page is shown and the result changed */
  IvServingCurve *serving_curve;
  IvServingFigure serving_figure;
  gboolean serving_stale;
  IvModelResultBar *result_bar;
  IvModelNotebook *notebook; /* the figures, Details and Compare */
  IvModelSavedList *saved_list;

  /* Save & compare */
  GPtrArray *imported_paths; /* char *, the config.json of each imported model */
};

G_DEFINE_FINAL_TYPE (IvModelView, iv_model_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_CHANGED,
  SIGNAL_SAVED_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* The serving curve of the current result's model, hardware and configuration (§10), for
 * the lengths on the page; NULL when it cannot be drawn (the reason is logged). */
static void
ensure_serving (IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  double isl, osl;

  if (!self->serving_stale || !self->has_result)
    return;
  iv_model_notebook_get_lengths (self->notebook, &isl, &osl);
  g_clear_pointer (&self->serving_curve, iv_serving_free);
  self->serving_curve = iv_serving_compute (self->result.model, self->result.hw,
                                            &self->result.config, isl, osl, &error);
  if (!self->serving_curve)
    g_message ("serving curve: %s", error->message);
  self->serving_figure = (IvServingFigure){ self->serving_curve, NULL, 0, NULL };
  self->serving_stale = FALSE;
}

static void redraw (IvModelView *self);

static void
on_serving_lengths (IvModelView *self)
{
  self->serving_stale = TRUE;
  redraw (self);
}

/* What the notebook draws for @info: the serving curve for the figures of the curve, the
 * result for the others; nothing before the first result. */
static gconstpointer
figure_data (const IvModelFigureInfo *info, gpointer user_data)
{
  IvModelView *self = user_data;

  if (!self->has_result)
    return NULL;
  if (info->input == IV_MODEL_FIGURE_OF_SERVING)
    {
      ensure_serving (self);
      return self->serving_curve ? &self->serving_figure : NULL;
    }
  return &self->model_figure;
}

/* The Details page shows the current result: made on the first showing, then updated
 * in place; the waste and hints (a search of other configurations) only now that they
 * are shown. A tick callback, run when the frame clock starts a frame, before its layout:
 * however many slider values came since the last frame (a drag sends several), the page
 * is updated once, with the last (issue 31). */
static gboolean
update_details (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  IvModelView *self = IV_MODEL_VIEW (widget);

  self->details_tick = 0;
  if (!self->notebook || g_strcmp0 (iv_model_notebook_get_page (self->notebook), "details") != 0
      || !self->details_stale || !self->has_result)
    return G_SOURCE_REMOVE;
  if (!self->details)
    {
      GtkBox *box = iv_model_notebook_get_details_box (self->notebook);
      self->details = IV_MODEL_DETAILS (iv_model_details_new ());
      gtk_widget_set_vexpand (GTK_WIDGET (self->details), TRUE);
      gtk_box_append (box, GTK_WIDGET (self->details));
    }
  iv_result_ensure_hints (&self->result);
  iv_model_details_set_result (self->details, &self->result, self->model_figure.kind);
  self->details_stale = FALSE;
  return G_SOURCE_REMOVE;
}

static void
redraw (IvModelView *self)
{
  const char *name;
  const IvModelFigureInfo *info;

  if (!self->notebook)
    return;
  name = iv_model_notebook_get_page (self->notebook);
  info = iv_model_notebook_get_figure (self->notebook);
  /* the Details page, at the next frame: all the changes before it cost one update */
  if (g_strcmp0 (name, "details") == 0 && self->details_stale && self->has_result
      && !self->details_tick)
    self->details_tick
        = gtk_widget_add_tick_callback (GTK_WIDGET (self), update_details, NULL, NULL);
  if (g_strcmp0 (name, "compare") == 0)
    iv_model_compare_page_show (iv_model_notebook_get_compare_page (self->notebook));
  if (g_strcmp0 (name, "stages") == 0 && self->stages_stale && self->has_result)
    {
      iv_model_stages_set_result (iv_model_notebook_get_stages (self->notebook), &self->result,
                                  self->model_figure.kind);
      self->stages_stale = FALSE;
    }
  if (info)
    {
      self->figure.render = info->render;
      self->figure.name = info->name;
      /* the figures of the serving curve draw it; the rest the result */
      if (info->input == IV_MODEL_FIGURE_OF_SERVING)
        {
          ensure_serving (self);
          self->figure.data = &self->serving_figure;
        }
      else
        self->figure.data = &self->model_figure;
    }
  /* Greyed while the controls break a constraint: what is shown is the last valid result. */
  iv_model_notebook_redraw (self->notebook, self->error != NULL);
}

static void
recompute (IvModelView *self)
{
  const IvModel *model = iv_model_state_get_model (self->state);
  const IvHardware *hw = iv_model_state_get_hardware (self->state);
  IvConfig c;
  IvResult r;

  if (!model || !hw)
    return;
  iv_model_state_get_config (self->state, &c);
  iv_model_controls_set_config (self->controls, &c);

  g_clear_pointer (&self->error, g_free);
  if (self->hw_error)
    {
      /* Edited hardware that is not a SIP: like any other broken constraint. */
      self->error = g_strdup (self->hw_error);
    }
  /* plain: the waste and hints are made when Details shows them (redraw) */
  else if (iv_model_evaluate_plain (model, hw, &c, &r))
    {
      self->result = r;
      self->has_result = TRUE;
      self->details_stale = TRUE;
      self->stages_stale = TRUE;
      self->serving_stale = TRUE;
      iv_model_controls_set_kinds (self->controls, &r);
      self->model_figure.kind
          = MIN (iv_model_state_get_layer_kind (self->state), self->result.n_kinds - 1);
      iv_model_result_bar_show (self->result_bar, &r);
    }
  else
    self->error = g_strdup (r.error);
  iv_model_controls_set_error (self->controls, self->error);
  iv_model_result_bar_set_stale (self->result_bar, self->has_result, self->error);
  redraw (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_kind_selected (IvModelView *self)
{
  if (self->has_result)
    self->model_figure.kind
        = MIN (iv_model_state_get_layer_kind (self->state), self->result.n_kinds - 1);
  self->details_stale = TRUE;
  self->stages_stale = TRUE;
  redraw (self);
}

/* Makes @hw the SIP the model runs on: the editor shows it and the sliders cover what it
 * can hold (TP and CP up to all of its PEs). */
static void
use_hardware (IvModelView *self, const IvHardware *hw)
{
  g_clear_pointer (&self->hw_error, g_free);
  iv_model_controls_set_hardware (self->controls, hw);
  /* The same SIP again (after an edit that broke a rule, say): nothing changes in the
   * state, but the rule's message must go. */
  if (iv_model_state_get_hardware (self->state) == hw)
    recompute (self);
  else
    iv_model_state_set_hardware (self->state, hw);
}

static void
on_hardware_selected (IvModelView *self)
{
  const IvHardware *hw = iv_model_controls_get_preset (self->controls);

  if (!hw || !self->state)
    return;
  iv_hardware_editor_set (iv_model_controls_get_editor (self->controls), hw);
  use_hardware (self, hw);
}

/* An edit makes a new SIP (kept: earlier results and saved comparisons point at it); one
 * that breaks a rule keeps the last result greyed with the rule. */
static void
on_hardware_edited (IvModelView *self)
{
  const IvHardware *preset = iv_model_controls_get_preset (self->controls);
  g_autofree char *name = g_strdup_printf ("%s (edited)", preset ? preset->name : "custom");
  g_autoptr (GError) error = NULL;
  IvHardware *hw
      = iv_hardware_editor_get (iv_model_controls_get_editor (self->controls), name, &error);

  if (!hw)
    {
      g_free (self->hw_error);
      self->hw_error = g_strdup (error->message);
      recompute (self);
      return;
    }
  g_ptr_array_add (self->custom_hw, hw);
  use_hardware (self, hw);
}

/* ---- save & compare --------------------------------------------------------------- */

static const char *
imported_path (IvModelView *self, const IvModel *model)
{
  for (guint i = 0; i < self->imported->len; i++)
    if (self->imported->pdata[i] == model)
      return self->imported_paths->pdata[i];
  return NULL;
}

static gboolean
compare_shown (IvModelView *self)
{
  return self->notebook && g_strcmp0 (iv_model_notebook_get_page (self->notebook), "compare") == 0;
}

/* The saved list or the imported models changed: the comparison is made again now if it
 * is on screen, else when it next is. */
static void
invalidate_compare (IvModelView *self)
{
  iv_model_compare_page_invalidate (iv_model_notebook_get_compare_page (self->notebook),
                                    compare_shown (self));
}

/* The sharding's annotations or the sweep's axis. */
static void
on_figure_options (IvModelView *self)
{
  self->model_figure.annotate = iv_model_notebook_get_annotate (self->notebook);
  self->model_figure.sweep = iv_model_notebook_get_sweep_axis (self->notebook);
  redraw (self);
}

static void
iv_model_view_dispose (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  if (self->details_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->details_tick);
  self->details_tick = 0;
  /* The bindings go with the state, before the controls they hold go with the template. */
  g_clear_object (&self->state);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_MODEL_VIEW);
  G_OBJECT_CLASS (iv_model_view_parent_class)->dispose (object);
}

static void
iv_model_view_finalize (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  g_ptr_array_unref (self->imported);
  g_ptr_array_unref (self->imported_paths);
  g_ptr_array_unref (self->custom_hw);
  g_free (self->hw_error);
  g_free (self->error);
  g_clear_pointer (&self->serving_curve, iv_serving_free);
  G_OBJECT_CLASS (iv_model_view_parent_class)->finalize (object);
}

static void copy_command_action (GtkWidget *widget, const char *action_name, GVariant *param);

static void
iv_model_view_class_init (IvModelViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_model_view_dispose;
  object_class->finalize = iv_model_view_finalize;
  /* After every re-evaluation, valid or not. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* After the saved list changes: a save, a delete. */
  signals[SIGNAL_SAVED_CHANGED]
      = g_signal_new ("saved-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  g_type_ensure (IV_TYPE_MODEL_CONTROLS);
  g_type_ensure (IV_TYPE_MODEL_NOTEBOOK);
  g_type_ensure (IV_TYPE_MODEL_RESULT_BAR);
  g_type_ensure (IV_TYPE_MODEL_SAVED_LIST);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-view.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvModelView, name)
  CHILD (paned);
  CHILD (controls);
  CHILD (result_bar);
  CHILD (notebook);
  CHILD (saved_list);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_hardware_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_hardware_edited);
  gtk_widget_class_install_action (widget_class, "model.copy-command", NULL, copy_command_action);
}

/* "Copy as command": the `inferview model` line that draws the figure shown, from this
 * configuration (iv-model-command.c), on the clipboard. */
static void
copy_command_action (GtkWidget *widget, const char *action_name, GVariant *param)
{
  IvModelView *self = IV_MODEL_VIEW (widget);
  const IvModel *model = iv_model_state_get_model (self->state);
  const IvHardware *hw = iv_model_state_get_hardware (self->state);
  const IvModelFigureInfo *info = iv_model_notebook_get_figure (self->notebook);
  g_autofree char *line = NULL;
  GtkRoot *root;
  IvConfig c;

  if (!model || !hw)
    return;
  iv_model_state_get_config (self->state, &c);
  line = iv_model_command_line (model, imported_path (self, model), hw, &c,
                                info ? info->name : NULL, NULL);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), line);
  root = gtk_widget_get_root (widget);
  if (IV_IS_WINDOW (root))
    iv_window_toast (IV_WINDOW (root), _ ("Command copied"));
}

static gboolean
save_named (const char *name, gpointer user_data, GError **error)
{
  return iv_model_view_save (IV_MODEL_VIEW (user_data), name, error);
}

static gboolean
load_index (guint index, gpointer user_data, GError **error)
{
  return iv_model_view_load_saved (IV_MODEL_VIEW (user_data), index, error);
}

/* Read in, saved to or deleted from: the comparison follows, and the sidebar. */
static void
on_saved_changed (IvModelView *self)
{
  invalidate_compare (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
}

/* The notebook draws the view's result and serving curve, and says what changed. */
static void
connect_notebook (IvModelView *self)
{
  iv_model_notebook_set_source (self->notebook, figure_data, self);
  iv_model_compare_page_set_sources (iv_model_notebook_get_compare_page (self->notebook),
                                     self->saved_list, self->imported);
  g_signal_connect_swapped (self->notebook, "page-changed", G_CALLBACK (redraw), self);
  g_signal_connect_swapped (self->notebook, "options-changed", G_CALLBACK (on_figure_options),
                            self);
  g_signal_connect_swapped (self->notebook, "lengths-changed", G_CALLBACK (on_serving_lengths),
                            self);
}

static void
iv_model_view_init (IvModelView *self)
{
  self->imported = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_model_free);
  self->imported_paths = g_ptr_array_new_with_free_func (g_free);
  self->custom_hw = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_hardware_free);
  self->model_figure.result = &self->result;
  self->figure = (IvFigure){ iv_render_pipeline, &self->model_figure, "pipeline", self };

  gtk_widget_init_template (GTK_WIDGET (self));
  connect_notebook (self);
  self->state = iv_model_state_new ();
  iv_model_state_set_model (self->state, iv_presets_find (IV_MODEL_STATE_DEFAULT_MODEL));
  iv_model_controls_bind (self->controls, self->state);
  g_signal_connect_swapped (self->state, "changed", G_CALLBACK (recompute), self);
  g_signal_connect_swapped (self->state, "notify::layer-kind", G_CALLBACK (on_kind_selected), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (redraw),
                           self, G_CONNECT_SWAPPED);
  iv_model_saved_list_set_handlers (self->saved_list, save_named, load_index, self);
  g_signal_connect_swapped (self->saved_list, "changed", G_CALLBACK (on_saved_changed), self);
  on_hardware_selected (self);
}

GtkWidget *
iv_model_view_new (void)
{
  return g_object_new (IV_TYPE_MODEL_VIEW, NULL);
}

gboolean
iv_model_view_add_hf_config (IvModelView *self, const char *path, GError **error)
{
  IvModel *model;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  model = iv_model_from_hf_config (path, error);
  if (!model)
    return FALSE;
  g_ptr_array_add (self->imported, model);
  g_ptr_array_add (self->imported_paths, g_strdup (path));
  iv_model_controls_add_model (self->controls, model);
  iv_model_state_set_model (self->state, model);
  /* Saved configurations of this model can be compared now. */
  invalidate_compare (self);
  return TRUE;
}

const IvResult *
iv_model_view_get_result (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->has_result ? &self->result : NULL;
}

const IvFigure *
iv_model_view_get_figure (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  if (compare_shown (self))
    return iv_model_compare_page_get_figure (iv_model_notebook_get_compare_page (self->notebook));
  if (self->figure.data == (gconstpointer) &self->serving_figure)
    {
      ensure_serving (self);
      return self->serving_curve ? &self->figure : NULL;
    }
  return self->has_result ? &self->figure : NULL;
}

const char *
iv_model_view_get_error (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->error;
}

gboolean
iv_model_view_save (IvModelView *self, const char *name, GError **error)
{
  const IvModel *model;
  GPtrArray *saved;
  IvSaved *sv;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  if (!self->has_result || self->error)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("Only a configuration that evaluates can be saved"));
      return FALSE;
    }
  /* the file is written whole from the list: the list must be whole first */
  saved = iv_model_saved_list_get (self->saved_list);
  for (guint i = 0; name && i < saved->len; i++)
    if (g_str_equal (((IvSaved *) saved->pdata[i])->name, name))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     _ ("A configuration named “%s” is already saved"), name);
        return FALSE;
      }
  model = iv_model_state_get_model (self->state);
  {
    g_autofree char *chosen = name ? g_strdup (name) : iv_saved_next_name (saved);
    const IvHardware *hw = iv_model_state_get_hardware (self->state);
    /* The state is what evaluated (no error): saving serialises it. */
    sv = iv_model_state_to_saved (self->state, chosen, imported_path (self, model),
                                  iv_hardware_find (hw->name) == hw);
  }
  /* the list says "changed": the comparison and the sidebar follow */
  return iv_model_saved_list_add (self->saved_list, sv, error);
}

GPtrArray *
iv_model_view_get_saved (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return iv_model_saved_list_get (self->saved_list);
}

GPtrArray *
iv_model_view_peek_saved (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return iv_model_saved_list_peek (self->saved_list);
}

gboolean
iv_model_view_load_saved (IvModelView *self, guint index, GError **error)
{
  GPtrArray *saved;
  const IvSaved *sv;
  const IvModel *model;
  const IvHardware *hw;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  saved = iv_model_saved_list_get (self->saved_list);
  g_return_val_if_fail (index < saved->len, FALSE);
  sv = saved->pdata[index];
  if (!iv_saved_resolve (sv, self->imported, &model, &hw, error))
    return FALSE;
  /* The preset list shows the SIP the edit started from. */
  iv_model_controls_show_preset_of (self->controls, hw);
  if (sv->hardware_spec)
    {
      /* An edited SIP comes back as an edit: the view keeps its own copy. */
      IvHardware *copy = iv_hardware_copy (sv->hardware_spec);
      g_ptr_array_add (self->custom_hw, copy);
      hw = copy;
    }
  iv_hardware_editor_set (iv_model_controls_get_editor (self->controls), hw);
  iv_model_state_set_model (self->state, model);
  use_hardware (self, hw); /* the sliders' ranges for this SIP */
  iv_model_state_set_config (self->state, &sv->config);
  return TRUE;
}

char *
iv_model_view_get_compare_csv (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return iv_model_compare_page_get_csv (iv_model_notebook_get_compare_page (self->notebook));
}

gboolean
iv_model_view_select_model (IvModelView *self, const char *name)
{
  const IvModel *model;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  if (!(model = iv_model_controls_find_model (self->controls, name)))
    return FALSE;
  iv_model_state_set_model (self->state, model);
  return TRUE;
}

IvModelState *
iv_model_view_get_state (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->state;
}

GtkWidget *
iv_model_view_get_result_bar (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return GTK_WIDGET (self->result_bar);
}
