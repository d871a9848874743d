/* iv-model-controls.c: the Model workspace's controls, each bound both ways to a property
 * of the IvModelState the view evaluates (set a property and the control follows, move
 * the control and the property follows); TP, CP and T_q move in powers of two. It also
 * shows why the settings do not evaluate, right under the parallelism they are nearly
 * always about. "preset-selected" says a hardware preset was chosen, "hardware-edited"
 * that the hardware editor's fields changed: the view decides what hardware runs. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-controls.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "iv-plain-text.h"
#include "iv-safe-text.h"

struct _IvModelControls
{
  GtkGrid parent_instance;

  GPtrArray *models;   /* const IvModel *: the presets, then imported models */
  GPtrArray *hardware; /* const IvHardware * (the presets) */
  IvModelState *state; /* bound to (not owned: the view's) */

  /* template children */
  GtkStringList *model_names;
  GtkDropDown *model_drop;
  GtkStringList *hardware_names;
  GtkDropDown *hardware_drop;
  IvHardwareEditor *hw_editor;
  GtkDropDown *bytes_drops[4]; /* formats of weights, activations, KV cache; partials' bytes */
  GtkSpinButton *ep_spin, *imbalance_spin, *reserve_spin;
  GtkCheckButton *overlap_check;
  GtkDropDown *mode_drop;
  GtkSpinButton *batch_spin;
  GtkRange *tp_scale, *cp_scale, *tq_scale;
  GtkSpinButton *context_spin;
  GtkDropDown *tp_place_drop, *cp_place_drop, *ep_place_drop, *ring_drop;
  GtkDropDown *kind_drop;
  GtkStringList *kind_names;
  GtkLabel *error_label;
  /* the TP and CP scales' marks as last made: how many, which say "×" (refresh_marks) */
  int marks_top[2];
  guint64 marks_refused[2];
};

G_DEFINE_FINAL_TYPE (IvModelControls, iv_model_controls, GTK_TYPE_GRID)

enum
{
  SIGNAL_PRESET_SELECTED,
  SIGNAL_HARDWARE_EDITED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static char *
format_pow2 (GtkScale *scale, double value, gpointer user_data)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) 1 << (int) lround (value));
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
  IvModelControls *self = data;
  guint i = g_value_get_uint (from);
  if (i >= self->models->len)
    return FALSE;
  g_value_set_pointer (to, self->models->pdata[i]);
  return TRUE;
}

static gboolean
model_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  IvModelControls *self = data;
  guint i;
  if (!g_ptr_array_find (self->models, g_value_get_pointer (from), &i))
    return FALSE;
  g_value_set_uint (to, i);
  return TRUE;
}

/* The TP and CP sliders' marks: a plain tick at each size the hardware can place with the
 * current placements (and the rest of the configuration), a "×" under each it cannot, so
 * that the refusal is seen before the slider is dragged there. */
static void
refresh_marks (IvModelControls *self)
{
  const IvHardware *hw = self->state ? iv_model_state_get_hardware (self->state) : NULL;
  const IvModel *model = self->state ? iv_model_state_get_model (self->state) : NULL;
  IvConfig c;

  if (!hw || !model)
    return;
  iv_model_state_get_config (self->state, &c);
  for (int i = 0; i < 2; i++)
    {
      GtkRange *range = i == 0 ? self->tp_scale : self->cp_scale;
      int top = MIN ((int) gtk_adjustment_get_upper (gtk_range_get_adjustment (range)), 62);
      guint64 refused = 0;
      gboolean any;

      for (int v = 0; v <= top; v++)
        {
          IvConfig candidate = c;
          if (i == 0)
            candidate.t = (gint64) 1 << v;
          else
            candidate.c = (gint64) 1 << v;
          if (!_iv_model_placeable (model, hw, &candidate))
            refused |= (guint64) 1 << v;
        }
      /* A scale's marks are widgets: made again only when they change, not at every
       * slider step (remaking them was a large part of a step's layout, issue 31). */
      if (self->marks_top[i] == top + 1 && self->marks_refused[i] == refused)
        continue;
      self->marks_top[i] = top + 1;
      self->marks_refused[i] = refused;
      any = refused != 0;
      gtk_scale_clear_marks (GTK_SCALE (range));
      for (int v = 0; v <= top; v++)
        gtk_scale_add_mark (GTK_SCALE (range), v, GTK_POS_BOTTOM,
                            refused & ((guint64) 1 << v) ? "×" : NULL);
      gtk_widget_set_tooltip_text (
          GTK_WIDGET (range),
          any ? (i == 0 ? _ ("× marks a TP size this hardware cannot take with these placements")
                        : _ ("× marks a CP size this hardware cannot take with these placements"))
              : NULL);
    }
}

/* The wheel over a slider moves it only when it has the focus: otherwise the scroll goes
 * on to the pane, which a user scrolling the controls means (run before the slider's own
 * scroll handling, this turns that off while the slider is not focused). */
static gboolean
on_slider_wheel (GtkEventControllerScroll *guard, double dx, double dy, gpointer user_data)
{
  GtkWidget *scale = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (guard));
  GListModel *controllers = gtk_widget_observe_controllers (scale);
  gboolean focused = gtk_widget_has_focus (scale);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (c != GTK_EVENT_CONTROLLER (guard) && GTK_IS_EVENT_CONTROLLER_SCROLL (c))
        gtk_event_controller_set_propagation_phase (c, focused ? GTK_PHASE_BUBBLE : GTK_PHASE_NONE);
    }
  g_object_unref (controllers);
  return GDK_EVENT_PROPAGATE;
}

void
iv_model_controls_bind (IvModelControls *self, IvModelState *state)
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

  self->state = state;
  g_object_bind_property_full (state, "model", self->model_drop, "selected", both, model_to_index,
                               index_to_model, self, NULL);
  g_object_bind_property (state, "mode", self->mode_drop, "selected", both);
  g_object_bind_property (state, "batch", gtk_spin_button_get_adjustment (self->batch_spin),
                          "value", both);
  g_object_bind_property (state, "context", gtk_spin_button_get_adjustment (self->context_spin),
                          "value", both);
  for (guint i = 0; i < G_N_ELEMENTS (exponents); i++)
    g_object_bind_property_full (state, exponents[i].prop,
                                 gtk_range_get_adjustment (exponents[i].scale), "value", both,
                                 count_to_exponent, exponent_to_count, NULL, NULL);
  g_object_bind_property (state, "tp-place", self->tp_place_drop, "selected", both);
  g_object_bind_property (state, "cp-place", self->cp_place_drop, "selected", both);
  g_object_bind_property (state, "ep-place", self->ep_place_drop, "selected", both);
  g_object_bind_property (state, "ring", self->ring_drop, "selected", both);
  g_object_bind_property (state, "layer-kind", self->kind_drop, "selected", both);
  for (guint i = 0; i < G_N_ELEMENTS (format_props); i++)
    g_object_bind_property_full (state, format_props[i], self->bytes_drops[i], "selected", both,
                                 format_to_index, index_to_format, NULL, NULL);
  g_object_bind_property_full (state, "partial-bytes", self->bytes_drops[3], "selected", both,
                               bytes_to_index, index_to_bytes, NULL, NULL);
  g_object_bind_property (state, "ep", gtk_spin_button_get_adjustment (self->ep_spin), "value",
                          both);
  g_object_bind_property (state, "imbalance", gtk_spin_button_get_adjustment (self->imbalance_spin),
                          "value", both);
  g_object_bind_property_full (state, "reserve",
                               gtk_spin_button_get_adjustment (self->reserve_spin), "value", both,
                               share_to_percent, percent_to_share, NULL, NULL);
  g_object_bind_property (state, "overlap", self->overlap_check, "active", both);
  g_signal_connect_object (state, "changed", G_CALLBACK (refresh_marks), self, G_CONNECT_SWAPPED);
  refresh_marks (self);
}

static void
on_preset_selected (IvModelControls *self)
{
  g_signal_emit (self, signals[SIGNAL_PRESET_SELECTED], 0);
}

static void
on_editor_changed (IvModelControls *self)
{
  g_signal_emit (self, signals[SIGNAL_HARDWARE_EDITED], 0);
}

static void
iv_model_controls_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_MODEL_CONTROLS);
  G_OBJECT_CLASS (iv_model_controls_parent_class)->dispose (object);
}

static void
iv_model_controls_finalize (GObject *object)
{
  g_ptr_array_unref (IV_MODEL_CONTROLS (object)->models);
  G_OBJECT_CLASS (iv_model_controls_parent_class)->finalize (object);
}

static void
iv_model_controls_class_init (IvModelControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const bytes[] = { "weight_drop", "act_drop", "kv_drop", "partial_drop" };

  object_class->dispose = iv_model_controls_dispose;
  object_class->finalize = iv_model_controls_finalize;
  signals[SIGNAL_PRESET_SELECTED]
      = g_signal_new ("preset-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_HARDWARE_EDITED]
      = g_signal_new ("hardware-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  g_type_ensure (IV_TYPE_HARDWARE_EDITOR);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-controls.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvModelControls, name)
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
  CHILD (ep_place_drop);
  CHILD (ring_drop);
  CHILD (kind_drop);
  CHILD (kind_names);
  CHILD (error_label);
  CHILD (ep_spin);
  CHILD (imbalance_spin);
  CHILD (reserve_spin);
  CHILD (overlap_check);
#undef CHILD
  for (guint i = 0; i < G_N_ELEMENTS (bytes); i++)
    gtk_widget_class_bind_template_child_full (widget_class, bytes[i], FALSE,
                                               G_STRUCT_OFFSET (IvModelControls, bytes_drops)
                                                   + i * sizeof (GtkDropDown *));
  gtk_widget_class_bind_template_callback (widget_class, on_preset_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_editor_changed);
}

/* What the data decides: the model and hardware lists, the scales' marks. */
static void
iv_model_controls_init (IvModelControls *self)
{
  GPtrArray *presets = iv_presets_get ();

  self->models = g_ptr_array_new ();
  self->hardware = iv_hardware_presets ();
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < presets->len; i++)
    iv_model_controls_add_model (self, presets->pdata[i]);
  for (guint i = 0; i < self->hardware->len; i++)
    {
      const IvHardware *hw = self->hardware->pdata[i];
      gtk_string_list_append (self->hardware_names, hw->name);
      /* the hardware `inferview model` uses when given none */
      if (g_str_equal (hw->name, IV_MODEL_STATE_DEFAULT_HARDWARE))
        gtk_drop_down_set_selected (self->hardware_drop, i);
    }
  for (int i = 0; i < 3; i++)
    gtk_scale_set_format_value_func (GTK_SCALE (i == 0   ? self->tq_scale
                                                : i == 1 ? self->tp_scale
                                                         : self->cp_scale),
                                     format_pow2, NULL, NULL);
  for (int v = 0; v <= 17; v++)
    gtk_scale_add_mark (GTK_SCALE (self->tq_scale), v, GTK_POS_BOTTOM, NULL);
  for (int i = 0; i < 3; i++)
    {
      GtkEventController *guard
          = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
      gtk_event_controller_set_propagation_phase (guard, GTK_PHASE_CAPTURE);
      gtk_event_controller_set_name (guard, "iv-wheel-guard");
      g_signal_connect (guard, "scroll", G_CALLBACK (on_slider_wheel), NULL);
      gtk_widget_add_controller (GTK_WIDGET (i == 0   ? self->tq_scale
                                             : i == 1 ? self->tp_scale
                                                      : self->cp_scale),
                                 guard);
    }
}

void
iv_model_controls_add_model (IvModelControls *self, const IvModel *model)
{
  /* an imported model's name is its file's: valid UTF-8 before it reaches a label */
  g_autofree char *shown = iv_text_valid (model->name, -1);

  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  g_ptr_array_add (self->models, (gpointer) model);
  gtk_string_list_append (self->model_names, shown);
}

const IvModel *
iv_model_controls_find_model (IvModelControls *self, const char *name)
{
  g_return_val_if_fail (IV_IS_MODEL_CONTROLS (self), NULL);
  for (guint i = 0; i < self->models->len; i++)
    if (g_strcmp0 (((const IvModel *) self->models->pdata[i])->name, name) == 0)
      return self->models->pdata[i];
  return NULL;
}

const IvHardware *
iv_model_controls_get_preset (IvModelControls *self)
{
  guint i;

  g_return_val_if_fail (IV_IS_MODEL_CONTROLS (self), NULL);
  i = gtk_drop_down_get_selected (self->hardware_drop);
  return i < self->hardware->len ? self->hardware->pdata[i] : NULL;
}

void
iv_model_controls_show_preset_of (IvModelControls *self, const IvHardware *hw)
{
  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  /* choosing it there must not replace the edit: "preset-selected" waits */
  g_signal_handlers_block_by_func (self->hardware_drop, on_preset_selected, self);
  for (guint i = 0; i < self->hardware->len; i++)
    if (g_str_has_prefix (hw->name, ((IvHardware *) self->hardware->pdata[i])->name))
      gtk_drop_down_set_selected (self->hardware_drop, i);
  g_signal_handlers_unblock_by_func (self->hardware_drop, on_preset_selected, self);
}

IvHardwareEditor *
iv_model_controls_get_editor (IvModelControls *self)
{
  g_return_val_if_fail (IV_IS_MODEL_CONTROLS (self), NULL);
  return self->hw_editor;
}

void
iv_model_controls_set_hardware (IvModelControls *self, const IvHardware *hw)
{
  double top = floor (log2 ((double) hw->n_pe * hw->X * hw->Y));

  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  for (int i = 0; i < 2; i++)
    {
      GtkRange *range = i == 0 ? self->tp_scale : self->cp_scale;
      gtk_range_set_range (range, 0, top);
      gtk_scale_clear_marks (GTK_SCALE (range));
      for (int v = 0; v <= top; v++)
        gtk_scale_add_mark (GTK_SCALE (range), v, GTK_POS_BOTTOM, NULL);
      self->marks_top[i] = 0; /* refresh_marks makes them again */
    }
  /* again on "changed", once the state has this hardware */
  refresh_marks (self);
}

void
iv_model_controls_set_config (IvModelControls *self, const IvConfig *c)
{
  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  /* The ring variant only exists in prefill with CP > 1. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->ring_drop), c->mode == IV_MODE_PREFILL && c->c > 1);
}

void
iv_model_controls_set_error (IvModelControls *self, const char *error)
{
  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  if (error)
    iv_label_set_valid_text (self->error_label, error);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
}

void
iv_model_controls_set_kinds (IvModelControls *self, const IvResult *r)
{
  guint n;
  gboolean same;

  g_return_if_fail (IV_IS_MODEL_CONTROLS (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->kind_names));
  same = n == r->n_kinds;
  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (self->kind_names, i), r->kinds[i].name) == 0;
  if (!same)
    {
      const char *names[IV_MAX_KINDS + 1] = { NULL };
      guint most = 0;
      for (guint i = 0; i < r->n_kinds; i++)
        {
          names[i] = r->kinds[i].name;
          if (r->kinds[i].layers > r->kinds[most].layers)
            most = i;
        }
      gtk_string_list_splice (self->kind_names, 0, n, names);
      if (self->state)
        g_object_set (self->state, "layer-kind", most, NULL);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->kind_drop), r->n_kinds > 1);
}
