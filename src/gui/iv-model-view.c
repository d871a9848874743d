/* iv-model-view.c: the Model workspace's live view. Every control change re-evaluates
 * the model (a few microseconds) and redraws the visible figure with the same renderer
 * the command line exports with. A combination the model rejects keeps the last valid
 * result on screen, greyed, with the reason under the controls. The Details page (waste,
 * hints, formulas, glossary) is rebuilt only while it is shown.
 *
 * Where things are: the layout is ui/iv-model-view.ui; the configuration is an
 * IvModelState the controls are bound to (set a property and the controls follow, move a
 * control and the property follows); every "changed" of it re-evaluates here. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

#include "iv-hardware-editor.h"
#include "iv-model-details.h"
#include "iv-model-state.h"
#include "iv-model-stages.h"
#include "iv-plain-text.h"
#include "iv-safe-text.h"
#include "iv-saved.h"
#include "iv-render-model.h"
#include "iv-render-serving.h"
#include "iv-text.h"
#include "iv-units.h"

typedef struct
{
  const char *name; /* stack page name, also the exported file's name */
  const char *title;
  IvRenderFunc render;
} FigureInfo;

static const FigureInfo figure_info[] = {
  { "pipeline", N_ ("Pipeline"), iv_render_pipeline },
  { "stages", N_ ("Stages"), iv_render_stages },
  { "memory", N_ ("Memory"), iv_render_memory },
  { "roofline", N_ ("Roofline"), iv_render_roofline },
  { "sharding", N_ ("Sharding"), iv_render_sharding },
  { "topology", N_ ("Topology"), iv_render_topology },
  { "sweep", N_ ("Sweep"), iv_render_sweep },
  { "serving", N_ ("Serving"), iv_render_serving },
};

struct _IvModelView
{
  GtkWidget parent_instance;

  GPtrArray *models;   /* const IvModel *: the presets, then imported models */
  GPtrArray *imported; /* IvModel *, owned; outlive any result pointing at them */
  GPtrArray *hardware; /* const IvHardware * (the presets) */
  IvModelState *state; /* what is evaluated: the controls are bound to it */

  IvResult result; /* the last configuration that evaluated */
  gboolean has_result;
  char *error; /* why the current configuration does not evaluate, or NULL */
  IvModelFigure model_figure;
  IvFigure figure;
  GPtrArray *custom_hw; /* IvHardware *, owned: every edited SIP a result may point at */
  char *hw_error;       /* why the edited fields are not a SIP, or NULL */
  gboolean details_stale;
  gboolean stages_stale;

  /* template children */
  GtkWidget *paned;
  GtkStringList *model_names;
  GtkDropDown *model_drop;
  GtkStringList *hardware_names;
  GtkDropDown *hardware_drop;
  IvHardwareEditor *hw_editor;
  GtkDropDown *bytes_drops[4]; /* formats of weights, activations, KV cache; partials' bytes */
  GtkSpinButton *ep_spin, *imbalance_spin, *reserve_spin;
  GtkCheckButton *overlap_check;
  GtkSpinButton *isl_spin, *osl_spin;
  /* the Serving page: its curve, computed when the page is shown and the result changed */
  IvServingCurve *serving_curve;
  IvServingFigure serving_figure;
  gboolean serving_stale;
  GtkDropDown *mode_drop;
  GtkSpinButton *batch_spin;
  GtkRange *tp_scale;
  GtkRange *cp_scale;
  GtkRange *tq_scale;
  GtkSpinButton *context_spin;
  GtkDropDown *tp_place_drop;
  GtkDropDown *cp_place_drop;
  GtkDropDown *ring_drop;
  GtkDropDown *kind_drop;
  GtkStringList *kind_names;
  GtkLabel *error_label;
  GtkWidget *result_bar;
  GtkLabel *result_step, *result_step_caption, *result_tps, *result_memory, *result_memory_caption;
  GtkLabel *result_idle, *result_idle_caption, *result_stale;
  GtkStack *figure_stack;
  GtkWidget *areas[G_N_ELEMENTS (figure_info)];
  GtkWidget *details_box; /* holds the Details page, rebuilt when shown and stale */
  IvModelStages *stages;  /* the Stages page on screen (Export draws the typeset table) */
  GtkWidget *tabs;        /* toggle buttons named after the stack's pages */
  GtkEntry *save_entry;
  GtkListBox *saved_list;
  GtkLabel *saved_error;
  GtkWidget *compare_area;

  /* Save & compare */
  char *saved_path;
  GPtrArray *saved;          /* IvSaved; empty until loaded (see SavedLoad) */
  int saved_state;           /* SAVED_UNLOADED, SAVED_LOADING, SAVED_LOADED */
  struct _SavedLoad *load;   /* the load under way */
  guint rows_built;          /* saved_list holds rows for saved[0 .. rows_built - 1] */
  guint rows_idle;           /* builds the rest, a slice per main-loop turn */
  GPtrArray *imported_paths; /* char *, the config.json of each imported model */
  GArray *compare_results;   /* IvResult, one per saved configuration that evaluates */
  IvCompareTable *compare;
  gboolean compare_stale; /* computed when the Compare page shows it, not before */
  IvFigure compare_figure;
};

enum
{
  SAVED_UNLOADED,
  SAVED_LOADING,
  SAVED_LOADED,
};

G_DEFINE_FINAL_TYPE (IvModelView, iv_model_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_CHANGED,
  SIGNAL_SAVED_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static char *
format_pow2 (GtkScale *scale, double value, gpointer user_data)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) 1 << (int) lround (value));
}

static const IvHardware *
selected_preset (IvModelView *self)
{
  guint i = gtk_drop_down_get_selected (self->hardware_drop);
  return i < self->hardware->len ? self->hardware->pdata[i] : NULL;
}

/* ---- the controls' bindings to the state ------------------------------------------ */

/* Bytes per element offered for each datatype, widest first (the drop-downs' order). */
static const double bytes_choices[] = { 4, 2, 1, 0.5 };

/* TP, CP and T_q move in powers of two: the scales hold the exponent. */
static gboolean
exponent_to_count (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_int64 (to, (gint64) 1 << (int) CLAMP (lround (g_value_get_double (from)), 0, 62));
  return TRUE;
}

static gboolean
count_to_exponent (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_double (to, round (log2 ((double) MAX (g_value_get_int64 (from), 1))));
  return TRUE;
}

static gboolean
index_to_bytes (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);
  if (i >= G_N_ELEMENTS (bytes_choices))
    return FALSE;
  g_value_set_double (to, bytes_choices[i]);
  return TRUE;
}

static gboolean
bytes_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  for (guint i = 0; i < G_N_ELEMENTS (bytes_choices); i++)
    if (bytes_choices[i] == g_value_get_double (from))
      {
        g_value_set_uint (to, i);
        return TRUE;
      }
  return FALSE;
}

/* The runtime reserve is a share (0–0.9) in the state, a percentage on screen. */
static gboolean
share_to_percent (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_double (to, round (100 * g_value_get_double (from) * 1e6) / 1e6);
  return TRUE;
}

static gboolean
percent_to_share (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_double (to, g_value_get_double (from) / 100);
  return TRUE;
}

/* A format drop-down lists IvFormat in order: the index is the format. */
static gboolean
format_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_uint (to, (guint) g_value_get_int (from));
  return TRUE;
}

static gboolean
index_to_format (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);
  if (i >= IV_N_FORMATS)
    return FALSE;
  g_value_set_int (to, (int) i);
  return TRUE;
}

static gboolean
index_to_model (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  IvModelView *self = data;
  guint i = g_value_get_uint (from);
  if (i >= self->models->len)
    return FALSE;
  g_value_set_pointer (to, self->models->pdata[i]);
  return TRUE;
}

static gboolean
model_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  IvModelView *self = data;
  guint i;
  if (!g_ptr_array_find (self->models, g_value_get_pointer (from), &i))
    return FALSE;
  g_value_set_uint (to, i);
  return TRUE;
}

static void
bind_controls (IvModelView *self)
{
  const GBindingFlags both = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;
  static const char *const format_props[] = { "weight-format", "act-format", "kv-format" };
  struct
  {
    const char *prop;
    GtkRange *scale;
  } exponents[] = {
    { "tq", self->tq_scale },
    { "tp", self->tp_scale },
    { "cp", self->cp_scale },
  };

  g_object_bind_property_full (self->state, "model", self->model_drop, "selected", both,
                               model_to_index, index_to_model, self, NULL);
  g_object_bind_property (self->state, "mode", self->mode_drop, "selected", both);
  g_object_bind_property (self->state, "batch", gtk_spin_button_get_adjustment (self->batch_spin),
                          "value", both);
  g_object_bind_property (self->state, "context",
                          gtk_spin_button_get_adjustment (self->context_spin), "value", both);
  for (guint i = 0; i < G_N_ELEMENTS (exponents); i++)
    g_object_bind_property_full (self->state, exponents[i].prop,
                                 gtk_range_get_adjustment (exponents[i].scale), "value", both,
                                 count_to_exponent, exponent_to_count, NULL, NULL);
  g_object_bind_property (self->state, "tp-place", self->tp_place_drop, "selected", both);
  g_object_bind_property (self->state, "cp-place", self->cp_place_drop, "selected", both);
  g_object_bind_property (self->state, "ring", self->ring_drop, "selected", both);
  g_object_bind_property (self->state, "layer-kind", self->kind_drop, "selected", both);
  for (guint i = 0; i < G_N_ELEMENTS (format_props); i++)
    g_object_bind_property_full (self->state, format_props[i], self->bytes_drops[i], "selected",
                                 both, format_to_index, index_to_format, NULL, NULL);
  g_object_bind_property_full (self->state, "partial-bytes", self->bytes_drops[3], "selected", both,
                               bytes_to_index, index_to_bytes, NULL, NULL);
  g_object_bind_property (self->state, "ep", gtk_spin_button_get_adjustment (self->ep_spin),
                          "value", both);
  g_object_bind_property (self->state, "imbalance",
                          gtk_spin_button_get_adjustment (self->imbalance_spin), "value", both);
  g_object_bind_property_full (self->state, "reserve",
                               gtk_spin_button_get_adjustment (self->reserve_spin), "value", both,
                               share_to_percent, percent_to_share, NULL, NULL);
  g_object_bind_property (self->state, "overlap", self->overlap_check, "active", both);
}

static void refresh_compare (IvModelView *self);

/* The serving curve of the current result's model, hardware and configuration (§10), for
 * the lengths on the page; NULL when it cannot be drawn (the reason is logged). */
static void
ensure_serving (IvModelView *self)
{
  g_autoptr (GError) error = NULL;

  if (!self->serving_stale || !self->has_result)
    return;
  g_clear_pointer (&self->serving_curve, iv_serving_free);
  self->serving_curve
      = iv_serving_compute (self->result.model, self->result.hw, &self->result.config,
                            gtk_spin_button_get_value (self->isl_spin),
                            gtk_spin_button_get_value (self->osl_spin), &error);
  if (!self->serving_curve)
    g_message ("serving curve: %s", error->message);
  self->serving_figure = (IvServingFigure){ self->serving_curve, NULL, 0, NULL };
  self->serving_stale = FALSE;
}

static void
on_serving_lengths (IvModelView *self)
{
  self->serving_stale = TRUE;
  if (self->figure_stack
      && g_strcmp0 (gtk_stack_get_visible_child_name (self->figure_stack), "serving") == 0)
    {
      ensure_serving (self);
      for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
        if (figure_info[i].render == iv_render_serving)
          gtk_widget_queue_draw (self->areas[i]);
    }
}

static void
redraw (IvModelView *self)
{
  const char *name;

  if (!self->figure_stack)
    return;
  name = gtk_stack_get_visible_child_name (self->figure_stack);
  if (g_strcmp0 (name, "details") == 0 && self->details_stale && self->has_result)
    {
      GtkWidget *old = gtk_widget_get_first_child (self->details_box);
      GtkWidget *details = iv_model_details_new (&self->result, self->model_figure.kind);
      if (old)
        gtk_box_remove (GTK_BOX (self->details_box), old);
      gtk_widget_set_vexpand (details, TRUE);
      gtk_box_append (GTK_BOX (self->details_box), details);
      self->details_stale = FALSE;
    }
  if (g_strcmp0 (name, "compare") == 0)
    {
      if (self->compare_stale && self->saved_state == SAVED_LOADED)
        refresh_compare (self);
      gtk_widget_queue_draw (self->compare_area);
    }
  if (g_strcmp0 (name, "stages") == 0 && self->stages_stale && self->has_result)
    {
      iv_model_stages_set_result (self->stages, &self->result, self->model_figure.kind);
      self->stages_stale = FALSE;
    }
  if (g_strcmp0 (name, "serving") == 0)
    ensure_serving (self);
  for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
    if (g_strcmp0 (name, figure_info[i].name) == 0)
      {
        self->figure.render = figure_info[i].render;
        self->figure.name = figure_info[i].name;
        /* the Serving page draws its curve; the rest the result */
        self->figure.data = figure_info[i].render == iv_render_serving
                                ? (gconstpointer) &self->serving_figure
                                : (gconstpointer) &self->model_figure;
        gtk_widget_queue_draw (self->areas[i]);
      }
  /* Greyed while the controls break a constraint: what is shown is the last valid result. */
  gtk_widget_set_opacity (GTK_WIDGET (self->figure_stack), self->error ? 0.4 : 1.0);
}

/* The layer kinds of the current result (dense, moe, local, global…), keeping the
 * selection when the kinds stay the same. */
static void
sync_kinds (IvModelView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->kind_names));
  gboolean same = n == self->result.n_kinds;

  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (self->kind_names, i), self->result.kinds[i].name)
           == 0;
  if (!same)
    {
      const char *names[IV_MAX_KINDS + 1] = { NULL };
      guint most = 0;
      for (guint i = 0; i < self->result.n_kinds; i++)
        {
          names[i] = self->result.kinds[i].name;
          if (self->result.kinds[i].layers > self->result.kinds[most].layers)
            most = i;
        }
      gtk_string_list_splice (self->kind_names, 0, n, names);
      g_object_set (self->state, "layer-kind", most, NULL);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->kind_drop), self->result.n_kinds > 1);
  self->model_figure.kind
      = MIN (iv_model_state_get_layer_kind (self->state), self->result.n_kinds - 1);
}

/* The result bar: the step (what it means in this mode), tokens/s, memory per PE against
 * its capacity as a badge, the idle PEs. */
static void
show_result (IvModelView *self, const IvResult *r)
{
  double used = r->weights_bytes_per_pe + r->kv_bytes_per_pe + r->act_bytes_per_pe;
  g_autofree char *step = iv_units_format_seconds (r->step_s);
  g_autofree char *tps = iv_units_format_si (r->tokens_per_s, NULL);
  /* a GPU server's in the datasheet's decimal units; against what the runtime reserve
   * leaves (§5), the same figure the fit is decided on */
  g_autofree char *mem = iv_hardware_format_bytes (r->hw, used),
                  *cap = iv_hardware_format_bytes (r->hw, r->usable_bytes_per_pe);
  gboolean gpu = iv_hardware_is_gpu_server (r->hw);
  g_autofree char *memory = NULL, *memory_caption = NULL, *memory_tip = NULL, *step_caption = NULL,
                  *idle = NULL, *idle_caption = NULL;
  gint64 all = r->hw->X * r->hw->Y * r->hw->n_pe;

  if (r->config.mode == IV_MODE_PREFILL)
    step_caption = g_strdup_printf (
        _ ("to first token · %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " tokens"), r->config.B,
        r->config.T);
  else
    step_caption = g_strdup_printf (
        _ ("per token · %" G_GINT64_FORMAT " seq. at %" G_GINT64_FORMAT), r->config.B, r->config.P);
  memory = r->fits ? g_strdup_printf (_ ("fits · %.0f %%"),
                                      100 * used / MAX (r->usable_bytes_per_pe, 1))
                   : g_strdup_printf (_ ("does not fit · %.0f %%"),
                                      100 * used / MAX (r->usable_bytes_per_pe, 1));
  memory_caption = g_strdup_printf (gpu ? _ ("%s of %s per GPU") : _ ("%s of %s per PE"), mem, cap);
  memory_tip
      = g_strdup_printf (gpu ? _ ("%s of the %s each GPU has once %.0f %% is kept for the runtime")
                             : _ ("%s of the %s each PE has once %.0f %% is kept for the runtime"),
                         mem, cap, 100 * r->config.reserve);
  idle = g_strdup_printf ("%" G_GINT64_FORMAT, r->idle_pes);
  idle_caption = g_strdup_printf (
      gpu ? _ ("of %" G_GINT64_FORMAT " GPUs idle") : _ ("of %" G_GINT64_FORMAT " PEs idle"), all);
  gtk_label_set_text (self->result_step, step);
  gtk_label_set_text (self->result_step_caption, step_caption);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->result_step_caption), step_caption);
  gtk_label_set_text (self->result_tps, tps);
  gtk_label_set_text (self->result_memory, memory);
  gtk_label_set_text (self->result_memory_caption, memory_caption);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->result_memory_caption), memory_tip);
  gtk_widget_remove_css_class (GTK_WIDGET (self->result_memory), r->fits ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->result_memory), r->fits ? "success" : "error");
  gtk_label_set_text (self->result_idle, idle);
  gtk_label_set_text (self->result_idle_caption, idle_caption);
}

/* While the settings cannot be evaluated, the last answer stays, dimmed, with the reason
 * beside it: never a stale number that looks current. */
static void
show_stale (IvModelView *self)
{
  gboolean stale = self->error != NULL;
  g_autofree char *why = stale ? g_strdup_printf (_ ("Not updated: %s"), self->error) : NULL;

  for (GtkWidget *c = gtk_widget_get_first_child (self->result_bar); c;
       c = gtk_widget_get_next_sibling (c))
    if (c != GTK_WIDGET (self->result_stale))
      {
        if (stale)
          gtk_widget_add_css_class (c, "iv-stale");
        else
          gtk_widget_remove_css_class (c, "iv-stale");
      }
  gtk_label_set_text (self->result_stale, why ? why : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->result_stale), why);
  gtk_widget_set_visible (GTK_WIDGET (self->result_stale), stale);
  gtk_widget_set_visible (self->result_bar, self->has_result || stale);
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
  /* The ring variant only exists in prefill with CP > 1. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->ring_drop), c.mode == IV_MODE_PREFILL && c.c > 1);

  g_clear_pointer (&self->error, g_free);
  if (self->hw_error)
    {
      /* Edited hardware that is not a SIP: like any other broken constraint. */
      self->error = g_strdup (self->hw_error);
      iv_label_set_valid_text (self->error_label, self->hw_error);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
  else if (iv_model_evaluate (model, hw, &c, &r))
    {
      self->result = r;
      self->has_result = TRUE;
      self->details_stale = TRUE;
      self->stages_stale = TRUE;
      self->serving_stale = TRUE;
      sync_kinds (self);
      show_result (self, &r);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
    }
  else
    {
      self->error = g_strdup (r.error);
      iv_label_set_valid_text (self->error_label, r.error);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
  show_stale (self);
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
  double top = floor (log2 ((double) hw->n_pe * hw->X * hw->Y));

  g_clear_pointer (&self->hw_error, g_free);
  for (int i = 0; i < 2; i++)
    {
      GtkRange *range = i == 0 ? self->tp_scale : self->cp_scale;
      gtk_range_set_range (range, 0, top);
      gtk_scale_clear_marks (GTK_SCALE (range));
      for (int v = 0; v <= top; v++)
        gtk_scale_add_mark (GTK_SCALE (range), v, GTK_POS_BOTTOM, NULL);
    }
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
  const IvHardware *hw = selected_preset (self);

  if (!hw || !self->state)
    return;
  iv_hardware_editor_set (self->hw_editor, hw);
  use_hardware (self, hw);
}

/* An edit makes a new SIP (kept: earlier results and saved comparisons point at it); one
 * that breaks a rule keeps the last result greyed with the rule. */
static void
on_hardware_edited (IvModelView *self)
{
  const IvHardware *preset = selected_preset (self);
  g_autofree char *name = g_strdup_printf ("%s (edited)", preset ? preset->name : "custom");
  g_autoptr (GError) error = NULL;
  IvHardware *hw = iv_hardware_editor_get (self->hw_editor, name, &error);

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

static void
draw_figure (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelView *self = IV_MODEL_VIEW (user_data);
  const FigureInfo *info = g_object_get_data (G_OBJECT (area), "iv-figure");
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };
  g_autoptr (GError) error = NULL;

  if (!self->has_result)
    return;
  if (info->render == iv_render_serving)
    {
      ensure_serving (self);
      if (!self->serving_curve)
        return;
    }
  if (!info->render (cr,
                     info->render == iv_render_serving ? (gconstpointer) &self->serving_figure
                                                       : (gconstpointer) &self->model_figure,
                     &options, width, height, &error))
    g_warning ("%s: %s", info->name, error->message);
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

static void
show_saved_error (IvModelView *self, const char *message)
{
  iv_label_set_valid_text (self->saved_error, message); /* names the user's file */
  gtk_widget_set_visible (GTK_WIDGET (self->saved_error), message != NULL);
}

/* Every saved configuration evaluated again (a preset may have changed since), in the
 * comparison table; those that no longer resolve are named under the list. Only when
 * the Compare page is shown or asked for (compare_stale otherwise): it evaluates every
 * saved configuration, and thousands of them cost seconds. */
static void
refresh_compare (IvModelView *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) results = g_ptr_array_new ();
  g_autoptr (GString) problems = g_string_new (NULL);

  self->compare_stale = FALSE;
  g_array_set_size (self->compare_results, self->saved->len);
  for (guint i = 0; i < self->saved->len; i++)
    {
      const IvSaved *sv = self->saved->pdata[i];
      IvResult *r = &g_array_index (self->compare_results, IvResult, i);
      const IvModel *model;
      const IvHardware *hw;
      g_autoptr (GError) error = NULL;
      if (!iv_saved_resolve (sv, self->imported, &model, &hw, &error))
        {
          g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "", error->message);
          continue;
        }
      if (!iv_model_evaluate (model, hw, &sv->config, r))
        {
          g_string_append_printf (problems, "%s%s: %s", problems->len ? "\n" : "", sv->name,
                                  r->error);
          continue;
        }
      g_ptr_array_add (names, sv->name);
      g_ptr_array_add (results, r);
    }
  g_clear_pointer (&self->compare, iv_compare_free);
  self->compare = iv_compare_build ((const IvResult *const *) results->pdata,
                                    (const char *const *) names->pdata, results->len);
  self->compare_figure.data = self->compare;
  if (problems->len)
    show_saved_error (self, problems->str);
  if (self->compare_area)
    gtk_widget_queue_draw (self->compare_area);
}

static gboolean
compare_shown (IvModelView *self)
{
  return self->figure_stack
         && g_strcmp0 (gtk_stack_get_visible_child_name (self->figure_stack), "compare") == 0;
}

/* The saved list or the imported models changed: the comparison is made again now if it
 * is on screen, else when it next is. */
static void
invalidate_compare (IvModelView *self)
{
  self->compare_stale = TRUE;
  if (compare_shown (self) && self->saved_state == SAVED_LOADED)
    refresh_compare (self);
}

static void
update_save_placeholder (IvModelView *self)
{
  g_autofree char *next = iv_saved_next_name (self->saved);
  g_object_set (self->save_entry, "placeholder-text", next, NULL);
}

static void wait_for_saved (IvModelView *self);

static gboolean
write_saved (IvModelView *self, GError **error)
{
  return iv_saved_save (self->saved, self->saved_path, error);
}

static void
on_delete_clicked (GtkButton *button, IvModelView *self)
{
  IvSaved *target = g_object_get_data (G_OBJECT (button), "iv-saved");
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);
  g_autoptr (GError) error = NULL;
  guint index;

  if (!g_ptr_array_find (self->saved, target, &index))
    return;
  {
    IvSaved *removed = g_ptr_array_steal_index (self->saved, index);
    if (!write_saved (self, &error))
      {
        /* Nothing changes unless the file does. */
        g_ptr_array_insert (self->saved, (int) index, removed);
        show_saved_error (self, error->message);
        return;
      }
    iv_saved_free (removed);
  }
  /* the one row goes; the others stay as they are (rows are saved[0 .. rows_built - 1]) */
  if (row)
    {
      gtk_list_box_remove (self->saved_list, row);
      self->rows_built--;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->saved_list), self->saved->len > 0);
  show_saved_error (self, NULL);
  invalidate_compare (self);
  update_save_placeholder (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
}

static void
on_saved_activated (GtkListBox *box, GtkListBoxRow *row, IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  if (!iv_model_view_load_saved (self, (guint) gtk_list_box_row_get_index (row), &error))
    show_saved_error (self, error->message);
}

static void
append_saved_row (IvModelView *self, IvSaved *sv)
{
  g_autofree char *sub = g_strdup_printf (
      "%s · %s · %s · TP %" G_GINT64_FORMAT " · CP %" G_GINT64_FORMAT, sv->model, sv->hardware,
      iv_mode_to_string (sv->config.mode), sv->config.t, sv->config.c);
  /* names from the saved file (json-glib keeps a lone \ud800 as bytes that are not UTF-8):
   * plain text, valid UTF-8 */
  g_autofree char *shown_name = iv_text_valid (sv->name, -1);
  g_autofree char *shown_sub = iv_text_valid (sub, -1);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *del = gtk_button_new_from_icon_name ("user-trash-symbolic");
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), shown_name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown_sub);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  /* Set while the button is hidden: on a shown widget GTK asks the display server where
   * the pointer is at every tooltip change, one round trip per row. */
  gtk_widget_set_visible (del, FALSE);
  gtk_widget_set_tooltip_text (del, _ ("Delete this saved configuration"));
  gtk_widget_set_visible (del, TRUE);
  gtk_widget_set_valign (del, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (del, "flat");
  g_object_set_data (G_OBJECT (del), "iv-saved", sv);
  g_signal_connect (del, "clicked", G_CALLBACK (on_delete_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), del);
  gtk_list_box_append (self->saved_list, row);
}

/* Rows for the saved configurations not yet shown, for at most @budget_us; TRUE when
 * every one has its row. A few rows come at once; thousands come a slice per main-loop
 * turn, so the window keeps drawing while they do. */
static gboolean
build_rows (IvModelView *self, gint64 budget_us)
{
  gint64 until = g_get_monotonic_time () + budget_us;

  while (self->rows_built < self->saved->len && g_get_monotonic_time () < until)
    append_saved_row (self, self->saved->pdata[self->rows_built++]);
  gtk_widget_set_visible (GTK_WIDGET (self->saved_list), self->saved->len > 0);
  return self->rows_built == self->saved->len;
}

static gboolean
build_rows_idle (gpointer data)
{
  IvModelView *self = data;

  if (!build_rows (self, 8000)) /* half a frame at 60 Hz */
    return G_SOURCE_CONTINUE;
  self->rows_idle = 0;
  return G_SOURCE_REMOVE;
}

/* Only while the view is on screen (the map handler calls this too): rows no one sees
 * are not worth the main thread's time at start-up. */
static void
show_saved_rows (IvModelView *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && !self->rows_idle && !build_rows (self, 20000))
    self->rows_idle = g_idle_add (build_rows_idle, self);
}

static void
on_save_clicked (IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->save_entry));

  if (!iv_model_view_save (self, *name ? name : NULL, &error))
    {
      show_saved_error (self, error->message);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->save_entry), "");
}

/* ---- loading the saved configurations ----------------------------------------------- */

/* The file is read on a worker thread, and only once something needs it: the Model
 * workspace shown, or the sidebar listing the configurations (iv_model_view_peek_saved).
 * Read on the main thread at every start, 20,000 configurations froze the window for
 * ~38 s. What must have the list itself — a save (which writes the whole list: done on a
 * half-read list it would lose the rest), loading one, the comparison — waits for it.
 * Shared between the thread and the view: the thread fills it under the lock; the view
 * (on the main thread only) takes the result, or drops it if the view has gone. */
typedef struct _SavedLoad
{
  gint ref;
  GMutex lock;
  GCond cond;
  gboolean done;
  char *path;
  GPtrArray *list; /* the result until taken */
  char *message;   /* for under the list, or NULL */
  GWeakRef view;
} SavedLoad;

static SavedLoad *
saved_load_ref (SavedLoad *load)
{
  g_atomic_int_inc (&load->ref);
  return load;
}

static void
saved_load_unref (SavedLoad *load)
{
  if (!g_atomic_int_dec_and_test (&load->ref))
    return;
  g_mutex_clear (&load->lock);
  g_cond_clear (&load->cond);
  g_free (load->path);
  g_clear_pointer (&load->list, g_ptr_array_unref);
  g_free (load->message);
  g_weak_ref_clear (&load->view);
  g_free (load);
}

/* A file that cannot be read is moved aside under a name of its own (never overwriting
 * an earlier copy, never overwritten by the next save) and the reason stays on screen.
 * Configurations that cannot be read are left out and named; the file as it was is kept
 * aside too, since the next save writes only the good ones. Touches nothing but its
 * arguments and the file: it runs on the worker thread. */
static GPtrArray *
read_saved_file (const char *path, char **message_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) skipped = NULL;
  GPtrArray *list = iv_saved_load (path, &skipped, &error);

  *message_out = NULL;
  if (!list || (skipped && skipped->len > 0))
    {
      g_autoptr (GError) aside_error = NULL;
      g_autoptr (GString) text = g_string_new (error ? error->message : NULL);
      g_autofree char *aside = iv_saved_set_aside (path, list == NULL, &aside_error);
      for (guint i = 0; list && i < skipped->len; i++)
        g_string_append_printf (text, "%s%s", i ? "\n" : "", (const char *) skipped->pdata[i]);
      if (list)
        g_string_append_printf (text,
                                ngettext ("\nThat configuration was left out.",
                                          "\nThose configurations were left out.", skipped->len));
      if (aside)
        g_string_append_printf (text,
                                list ? _ ("\nThe file as it was is kept as %s.")
                                     : _ ("\nThe file was kept as %s."),
                                aside);
      else if (aside_error)
        g_string_append_printf (text, "\n%s", aside_error->message);
      g_message ("%s", text->str);
      *message_out = g_string_free (g_steal_pointer (&text), FALSE);
    }
  if (!list)
    list = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  return list;
}

static gboolean saved_load_landed (gpointer data);

static gpointer
saved_load_thread (gpointer data)
{
  SavedLoad *load = data;
  char *message = NULL;
  GPtrArray *list = read_saved_file (load->path, &message);

  g_mutex_lock (&load->lock);
  load->list = list;
  load->message = message;
  load->done = TRUE;
  g_cond_signal (&load->cond);
  g_mutex_unlock (&load->lock);
  /* this thread's reference goes to the callback */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, saved_load_landed, load,
                   (GDestroyNotify) saved_load_unref);
  return NULL;
}

/* On the main thread: the list in place, its rows on their way, the others told. */
static void
apply_saved (IvModelView *self, GPtrArray *list, const char *message)
{
  g_clear_pointer (&self->load, saved_load_unref);
  g_clear_pointer (&self->saved, g_ptr_array_unref);
  self->saved = list;
  self->saved_state = SAVED_LOADED;
  if (message)
    show_saved_error (self, message);
  self->rows_built = 0;
  show_saved_rows (self);
  update_save_placeholder (self);
  invalidate_compare (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
}

/* Takes the thread's result (waiting for it if @wait) and applies it; FALSE when the
 * thread is not done and @wait is not set. */
static gboolean
take_saved_load (IvModelView *self, gboolean wait)
{
  SavedLoad *load = self->load;
  GPtrArray *list;
  g_autofree char *message = NULL;

  g_mutex_lock (&load->lock);
  while (wait && !load->done)
    g_cond_wait (&load->cond, &load->lock);
  if (!load->done)
    {
      g_mutex_unlock (&load->lock);
      return FALSE;
    }
  list = g_steal_pointer (&load->list);
  message = g_steal_pointer (&load->message);
  g_mutex_unlock (&load->lock);
  apply_saved (self, list, message);
  return TRUE;
}

/* On the main thread, once the thread is done (g_idle_add is safe from any thread). */
static gboolean
saved_load_landed (gpointer data)
{
  SavedLoad *load = data;
  g_autoptr (IvModelView) self = g_weak_ref_get (&load->view);

  if (self && self->load == load && self->saved_state == SAVED_LOADING)
    take_saved_load (self, FALSE);
  return G_SOURCE_REMOVE;
}

/* Starts reading the file on a worker thread, once. */
static void
start_saved_load (IvModelView *self)
{
  SavedLoad *load;
  GThread *thread;

  if (self->saved_state != SAVED_UNLOADED)
    return;
  load = g_new0 (SavedLoad, 1);
  load->ref = 1;
  g_mutex_init (&load->lock);
  g_cond_init (&load->cond);
  load->path = g_strdup (self->saved_path);
  g_weak_ref_init (&load->view, self);
  thread = g_thread_try_new ("iv-saved-load", saved_load_thread, saved_load_ref (load), NULL);
  if (!thread)
    {
      /* no thread to be had: read here, as before */
      saved_load_unref (load); /* the thread's reference */
      saved_load_unref (load);
      wait_for_saved (self);
      return;
    }
  g_thread_unref (thread);
  self->load = load;
  self->saved_state = SAVED_LOADING;
}

static void
on_map (GtkWidget *widget, gpointer user_data)
{
  start_saved_load (IV_MODEL_VIEW (widget));
  if (IV_MODEL_VIEW (widget)->saved_state == SAVED_LOADED)
    show_saved_rows (IV_MODEL_VIEW (widget));
}

/* The list loaded, whatever it takes: read here when no thread was started, else the
 * thread waited for. */
static void
wait_for_saved (IvModelView *self)
{
  if (self->saved_state == SAVED_LOADED)
    return;
  if (self->saved_state == SAVED_LOADING)
    {
      take_saved_load (self, TRUE);
      return;
    }
  {
    g_autofree char *message = NULL;
    GPtrArray *list = read_saved_file (self->saved_path, &message);
    apply_saved (self, list, message);
  }
}

static void
draw_compare (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelView *self = IV_MODEL_VIEW (user_data);
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };
  IvText text;

  if (self->compare && self->compare->n > 0)
    {
      iv_render_compare (cr, self->compare, &options, width, height, NULL);
      return;
    }
  iv_text_init (&text, cr, 14);
  iv_text_show (&text, cr, _ ("Save configurations to compare them here."), width / 2.0,
                height / 2.0, 0.5, 0.5, 1.0, FALSE, width - 40,
                &iv_theme_get_colors (options.theme)->foreground_dim);
  iv_text_clear (&text);
}

static void
on_copy_csv (IvModelView *self)
{
  g_autofree char *csv = iv_model_view_get_compare_csv (self);
  if (csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

static void
on_annotate (GtkCheckButton *check, IvModelView *self)
{
  self->model_figure.annotate = gtk_check_button_get_active (check);
  redraw (self);
}

static void
on_sweep_axis (GtkDropDown *drop, GParamSpec *pspec, IvModelView *self)
{
  self->model_figure.sweep = (IvSweepAxis) gtk_drop_down_get_selected (drop);
  redraw (self);
}

/* Each tab is named after its page in the template. */
static void
on_tab_toggled (GtkToggleButton *button, IvModelView *self)
{
  if (gtk_toggle_button_get_active (button) && self->figure_stack)
    gtk_stack_set_visible_child_name (self->figure_stack,
                                      gtk_widget_get_name (GTK_WIDGET (button)));
}

/* The tabs follow the stack when code switches it (tests, restoring a page). */
static void
on_page_changed (IvModelView *self)
{
  const char *name;

  if (!self->figure_stack || !self->tabs)
    return;
  name = gtk_stack_get_visible_child_name (self->figure_stack);
  for (GtkWidget *b = gtk_widget_get_first_child (self->tabs); b;
       b = gtk_widget_get_next_sibling (b))
    if (g_strcmp0 (gtk_widget_get_name (b), name) == 0)
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b), TRUE);
  redraw (self);
}

static void
iv_model_view_dispose (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  /* The bindings go with the state, before the controls they hold go with the template. */
  g_clear_object (&self->state);
  g_clear_handle_id (&self->rows_idle, g_source_remove);
  /* a load under way finishes on its own and finds no view to give its list to */
  g_clear_pointer (&self->load, saved_load_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_MODEL_VIEW);
  G_OBJECT_CLASS (iv_model_view_parent_class)->dispose (object);
}

static void
iv_model_view_finalize (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  g_ptr_array_unref (self->models);
  g_ptr_array_unref (self->imported);
  g_ptr_array_unref (self->imported_paths);
  g_ptr_array_unref (self->custom_hw);
  g_free (self->hw_error);
  g_clear_pointer (&self->saved, g_ptr_array_unref);
  g_array_unref (self->compare_results);
  g_clear_pointer (&self->compare, iv_compare_free);
  g_free (self->saved_path);
  g_free (self->error);
  g_clear_pointer (&self->serving_curve, iv_serving_free);
  G_OBJECT_CLASS (iv_model_view_parent_class)->finalize (object);
}

static void
iv_model_view_class_init (IvModelViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  /* the Stages page is bound as "stages"; its slot in areas is filled in init */
  static const char *const areas[G_N_ELEMENTS (figure_info)] = {
    "area_pipeline", NULL,         "area_memory",  "area_roofline", "area_sharding",
    "area_topology", "area_sweep", "area_serving",
  };
  static const char *const bytes[] = { "weight_drop", "act_drop", "kv_drop", "partial_drop" };

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

  g_type_ensure (IV_TYPE_HARDWARE_EDITOR);
  g_type_ensure (IV_TYPE_MODEL_STAGES);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-view.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvModelView, name)
  CHILD (paned);
  CHILD (model_names);
  CHILD (model_drop);
  CHILD (hardware_names);
  CHILD (hardware_drop);
  CHILD (hw_editor);
  CHILD (mode_drop);
  CHILD (batch_spin);
  CHILD (tp_scale);
  CHILD (cp_scale);
  CHILD (tq_scale);
  CHILD (context_spin);
  CHILD (tp_place_drop);
  CHILD (cp_place_drop);
  CHILD (ring_drop);
  CHILD (kind_drop);
  CHILD (kind_names);
  CHILD (error_label);
  CHILD (result_bar);
  CHILD (result_step);
  CHILD (result_step_caption);
  CHILD (result_tps);
  CHILD (result_memory);
  CHILD (result_memory_caption);
  CHILD (result_idle);
  CHILD (result_idle_caption);
  CHILD (result_stale);
  CHILD (figure_stack);
  CHILD (details_box);
  CHILD (stages);
  CHILD (tabs);
  CHILD (save_entry);
  CHILD (saved_list);
  CHILD (saved_error);
  CHILD (compare_area);
  CHILD (ep_spin);
  CHILD (imbalance_spin);
  CHILD (reserve_spin);
  CHILD (overlap_check);
  CHILD (isl_spin);
  CHILD (osl_spin);
#undef CHILD
  for (guint i = 0; i < G_N_ELEMENTS (areas); i++)
    if (areas[i])
      gtk_widget_class_bind_template_child_full (widget_class, areas[i], FALSE,
                                                 G_STRUCT_OFFSET (IvModelView, areas)
                                                     + i * sizeof (GtkWidget *));
  for (guint i = 0; i < G_N_ELEMENTS (bytes); i++)
    gtk_widget_class_bind_template_child_full (widget_class, bytes[i], FALSE,
                                               G_STRUCT_OFFSET (IvModelView, bytes_drops)
                                                   + i * sizeof (GtkDropDown *));
  gtk_widget_class_bind_template_callback (widget_class, on_hardware_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_hardware_edited);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_saved_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_sweep_axis);
  gtk_widget_class_bind_template_callback (widget_class, on_serving_lengths);
  gtk_widget_class_bind_template_callback (widget_class, on_annotate);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_csv);
  gtk_widget_class_bind_template_callback (widget_class, on_tab_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_page_changed);
}

/* What the data decides: the model and hardware lists, and how each area draws. */
static void
fill_controls (IvModelView *self)
{
  for (guint i = 0; i < self->models->len; i++)
    gtk_string_list_append (self->model_names, ((const IvModel *) self->models->pdata[i])->name);
  for (guint i = 0; i < self->hardware->len; i++)
    gtk_string_list_append (self->hardware_names,
                            ((const IvHardware *) self->hardware->pdata[i])->name);
  for (int i = 0; i < 3; i++)
    gtk_scale_set_format_value_func (GTK_SCALE (i == 0   ? self->tq_scale
                                                : i == 1 ? self->tp_scale
                                                         : self->cp_scale),
                                     format_pow2, NULL, NULL);
  for (int v = 0; v <= 17; v++)
    gtk_scale_add_mark (GTK_SCALE (self->tq_scale), v, GTK_POS_BOTTOM, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
    if (figure_info[i].render != iv_render_stages)
      {
        g_object_set_data (G_OBJECT (self->areas[i]), "iv-figure", (gpointer) &figure_info[i]);
        gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->areas[i]), draw_figure, self, NULL);
      }
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->compare_area), draw_compare, self, NULL);
}

static void
iv_model_view_init (IvModelView *self)
{
  GPtrArray *presets = iv_presets_get ();

  self->models = g_ptr_array_new ();
  for (guint i = 0; i < presets->len; i++)
    g_ptr_array_add (self->models, presets->pdata[i]);
  self->imported = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_model_free);
  self->imported_paths = g_ptr_array_new_with_free_func (g_free);
  self->custom_hw = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_hardware_free);
  self->compare_results = g_array_new (FALSE, TRUE, sizeof (IvResult));
  self->compare_figure = (IvFigure){ iv_render_compare, NULL, "compare", self };
  self->saved_path = iv_saved_default_path ();
  self->hardware = iv_hardware_presets ();
  self->model_figure.result = &self->result;
  self->figure = (IvFigure){ iv_render_pipeline, &self->model_figure, "pipeline", self };

  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
    if (figure_info[i].render == iv_render_stages)
      self->areas[i] = GTK_WIDGET (self->stages);
  fill_controls (self);
  self->state = iv_model_state_new ();
  iv_model_state_set_model (self->state, iv_presets_find ("Llama-3.1-8B"));
  bind_controls (self);
  g_signal_connect_swapped (self->state, "changed", G_CALLBACK (recompute), self);
  g_signal_connect_swapped (self->state, "notify::layer-kind", G_CALLBACK (on_kind_selected), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (redraw),
                           self, G_CONNECT_SWAPPED);
  /* the saved configurations are read when first needed: shown, or asked for */
  self->saved = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  self->compare_stale = TRUE;
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
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
  g_ptr_array_add (self->models, model);
  {
    /* the name is the file's: valid UTF-8 before it reaches a label */
    g_autofree char *shown = iv_text_valid (model->name, -1);
    gtk_string_list_append (self->model_names, shown);
  }
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
    {
      wait_for_saved (self);
      if (self->compare_stale)
        refresh_compare (self);
      return self->compare && self->compare->n > 0 ? &self->compare_figure : NULL;
    }
  if (self->figure.render == iv_render_serving)
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
  IvSaved *sv;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  if (!self->has_result || self->error)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("Only a configuration that evaluates can be saved"));
      return FALSE;
    }
  /* the file is written whole from the list: the list must be whole first */
  wait_for_saved (self);
  for (guint i = 0; name && i < self->saved->len; i++)
    if (g_str_equal (((IvSaved *) self->saved->pdata[i])->name, name))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     _ ("A configuration named “%s” is already saved"), name);
        return FALSE;
      }
  model = iv_model_state_get_model (self->state);
  {
    g_autofree char *chosen = name ? g_strdup (name) : iv_saved_next_name (self->saved);
    const IvHardware *hw = iv_model_state_get_hardware (self->state);
    /* The state is what evaluated (no error): saving serialises it. */
    sv = iv_model_state_to_saved (self->state, chosen, imported_path (self, model),
                                  iv_hardware_find (hw->name) == hw);
  }
  g_ptr_array_add (self->saved, sv);
  if (!write_saved (self, error))
    {
      g_ptr_array_remove_index (self->saved, self->saved->len - 1);
      return FALSE;
    }
  show_saved_error (self, NULL);
  show_saved_rows (self);
  update_save_placeholder (self);
  invalidate_compare (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
  return TRUE;
}

GPtrArray *
iv_model_view_get_saved (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  wait_for_saved (self);
  return self->saved;
}

GPtrArray *
iv_model_view_peek_saved (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  start_saved_load (self);
  return self->saved_state == SAVED_LOADED ? self->saved : NULL;
}

gboolean
iv_model_view_load_saved (IvModelView *self, guint index, GError **error)
{
  const IvSaved *sv;
  const IvModel *model;
  const IvHardware *hw;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  wait_for_saved (self);
  g_return_val_if_fail (index < self->saved->len, FALSE);
  sv = self->saved->pdata[index];
  if (!iv_saved_resolve (sv, self->imported, &model, &hw, error))
    return FALSE;
  /* The preset list shows the SIP the edit started from; choosing it there must not
   * replace the edit, so its handler waits. */
  g_signal_handlers_block_by_func (self->hardware_drop, on_hardware_selected, self);
  for (guint i = 0; i < self->hardware->len; i++)
    if (g_str_has_prefix (hw->name, ((IvHardware *) self->hardware->pdata[i])->name))
      gtk_drop_down_set_selected (self->hardware_drop, i);
  g_signal_handlers_unblock_by_func (self->hardware_drop, on_hardware_selected, self);
  if (sv->hardware_spec)
    {
      /* An edited SIP comes back as an edit: the view keeps its own copy. */
      IvHardware *copy = iv_hardware_copy (sv->hardware_spec);
      g_ptr_array_add (self->custom_hw, copy);
      hw = copy;
    }
  iv_hardware_editor_set (self->hw_editor, hw);
  iv_model_state_set_model (self->state, model);
  use_hardware (self, hw); /* the sliders' ranges for this SIP */
  iv_model_state_set_config (self->state, &sv->config);
  return TRUE;
}

char *
iv_model_view_get_compare_csv (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  wait_for_saved (self);
  if (self->compare_stale)
    refresh_compare (self);
  return self->compare && self->compare->n > 0 ? iv_compare_to_csv (self->compare) : NULL;
}

gboolean
iv_model_view_select_model (IvModelView *self, const char *name)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  for (guint i = 0; i < self->models->len; i++)
    if (g_strcmp0 (((const IvModel *) self->models->pdata[i])->name, name) == 0)
      {
        iv_model_state_set_model (self->state, self->models->pdata[i]);
        return TRUE;
      }
  return FALSE;
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
  return self->result_bar;
}
