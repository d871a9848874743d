/* iv-runs-bound-row.c: the bound of the Runs workspace (see the header): a button saying
 * it, its drop-downs in the popover under it. The drop-downs are bound to the state both
 * ways; the model list (presets, an imported
 * config.json's model, "config.json…") is a list of IvRunsItem keyed as the state's
 * "model" is. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-bound-row.h"

#include <glib/gi18n.h>

#include "iv-preset.h"
#include "iv-runs-item.h"
#include "iv-safe-text.h"

struct _IvRunsBoundRow
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box; /* the menu button */
  GtkLabel *bound_label;
  GtkWidget *model_title, *tp_title;
  GtkDropDown *bound_hardware, *bound_model, *bound_tp;

  IvRunsState *state;
  GListStore *hardware; /* IvRunsItem: "No bound", then the presets */
  IvModel *imported;    /* a config.json read (listed after the presets) */
  char *imported_path;  /* its path */
  char *reading;        /* the config.json being read, or NULL */
  GCancellable *cancel; /* the read, cancelled with the row */
  char *error;
};

G_DEFINE_FINAL_TYPE (IvRunsBoundRow, iv_runs_bound_row, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The key of "config.json…": never a model, it asks for one. */
#define IMPORT_KEY "@"

static const gint64 tps[] = { 0, 1, 2, 4, 8 };

static void show_choice (IvRunsBoundRow *self);

static void
set_error (IvRunsBoundRow *self, const char *error)
{
  if (g_strcmp0 (self->error, error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* The model drop-down: the run's own, the presets, an imported config.json's model when
 * there is one, then "config.json…" to import one. */
static void
list_models (IvRunsBoundRow *self)
{
  GPtrArray *models = iv_presets_get ();
  g_autoptr (GListStore) store = g_list_store_new (IV_TYPE_RUNS_ITEM);

  iv_runs_items_add (store, NULL, _ ("Model as each run names it"));
  for (guint i = 0; i < models->len; i++)
    {
      const char *name = ((IvModel *) models->pdata[i])->name;
      iv_runs_items_add (store, name, name);
    }
  if (self->imported)
    {
      g_autofree char *key = g_strconcat ("@", self->imported_path, NULL);
      g_autofree char *label = g_strdup_printf (_ ("%s (config.json)"), self->imported->name);
      g_autofree char *valid = iv_text_valid (label, -1); /* the name is the file's */
      iv_runs_items_add (store, key, valid);
    }
  iv_runs_items_add (store, IMPORT_KEY, _ ("config.json…"));
  iv_runs_drop_down_show (self->bound_model, G_LIST_MODEL (store),
                          self->state ? iv_runs_state_get_model (self->state) : NULL);
}

typedef struct
{
  char *path;
  gboolean chosen; /* by the user (say why it fails), not restored */
} Read;

static void
read_free (gpointer p)
{
  Read *r = p;
  g_free (r->path);
  g_free (r);
}

static void
read_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
  const Read *r = data;
  GError *error = NULL;
  IvModel *m = iv_model_from_hf_config (r->path, &error);

  if (m)
    g_task_return_pointer (task, m, (GDestroyNotify) iv_model_free);
  else
    g_task_return_error (task, error);
}

static void
on_read (GObject *source, GAsyncResult *result, gpointer data)
{
  IvRunsBoundRow *self = IV_RUNS_BOUND_ROW (source);
  Read *r = g_task_get_task_data (G_TASK (result));
  g_autofree char *key = g_strconcat ("@", r->path, NULL);
  g_autoptr (GError) error = NULL;
  IvModel *m = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || !self->state)
    {
      g_clear_pointer (&m, iv_model_free);
      return;
    }
  if (g_strcmp0 (self->reading, r->path) == 0)
    g_clear_pointer (&self->reading, g_free);
  if (!m)
    {
      if (r->chosen)
        set_error (self, error->message); /* said in the view's notes */
      else if (g_strcmp0 (iv_runs_state_get_model (self->state), key) == 0)
        /* a folder's config.json gone or broken since: each run's own */
        g_object_set (self->state, "model", NULL, NULL);
      return;
    }
  if (!r->chosen && g_strcmp0 (iv_runs_state_get_model (self->state), key) != 0)
    {
      iv_model_free (m); /* another model was chosen meanwhile */
      return;
    }
  set_error (self, NULL);
  g_clear_pointer (&self->imported, iv_model_free);
  g_free (self->imported_path);
  self->imported = m;
  self->imported_path = g_strdup (r->path);
  list_models (self);
  if (r->chosen)
    g_object_set (self->state, "model", key, NULL);
  else
    iv_runs_state_model_loaded (self->state);
  show_choice (self); /* the model's name, now read */
}

static void
read_config (IvRunsBoundRow *self, const char *path, gboolean chosen)
{
  g_autoptr (GTask) task = g_task_new (self, self->cancel, on_read, NULL);
  Read *r = g_new0 (Read, 1);

  r->path = g_strdup (path);
  r->chosen = chosen;
  g_free (self->reading);
  self->reading = g_strdup (path);
  g_task_set_task_data (task, r, read_free);
  g_task_run_in_thread (task, read_in_thread);
}

void
iv_runs_bound_row_choose_file (IvRunsBoundRow *self, const char *path)
{
  g_return_if_fail (IV_IS_RUNS_BOUND_ROW (self));
  g_return_if_fail (path != NULL);
  read_config (self, path, TRUE);
}

/* The state's model names a config.json not read yet (a folder's, restored): read it. */
static void
on_model (IvRunsBoundRow *self)
{
  const char *model = iv_runs_state_get_model (self->state);

  if (!model || model[0] != '@' || !model[1])
    return;
  if (g_strcmp0 (model + 1, self->imported_path) == 0 || g_strcmp0 (model + 1, self->reading) == 0)
    return;
  read_config (self, model + 1, FALSE);
}

void
iv_runs_bound_row_get_choice (IvRunsBoundRow *self, IvRunsBoundChoice *out)
{
  const char *hardware, *model;

  g_return_if_fail (IV_IS_RUNS_BOUND_ROW (self));
  *out = (IvRunsBoundChoice){ 0 };
  if (!self->state)
    return;
  hardware = iv_runs_state_get_hardware (self->state);
  model = iv_runs_state_get_model (self->state);
  out->hardware = hardware ? iv_hardware_find (hardware) : NULL;
  out->tp = iv_runs_state_get_tp (self->state);
  if (model && model[0] == '@')
    out->model = g_strcmp0 (model + 1, self->imported_path) == 0 ? self->imported : NULL;
  else if (model)
    out->model = iv_presets_find (model);
}

const char *
iv_runs_bound_row_get_error (IvRunsBoundRow *self)
{
  g_return_val_if_fail (IV_IS_RUNS_BOUND_ROW (self), NULL);
  return self->error;
}

static void
on_config_json_response (GtkNativeDialog *dialog, int response, IvRunsBoundRow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      if (path)
        iv_runs_bound_row_choose_file (self, path);
    }
  g_object_unref (dialog);
}

static void
choose_config_json (IvRunsBoundRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      _ ("The Model the Runs Served"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Choose"), NULL);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("Hugging Face config.json"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_config_json_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* "config.json…" is no model: the drop-down goes back to the state's, and a file is asked
 * for (the binding refuses the entry: see model_to_key). */
static void
on_model_selected (IvRunsBoundRow *self)
{
  GListModel *items = gtk_drop_down_get_model (self->bound_model);
  guint at = gtk_drop_down_get_selected (self->bound_model);

  if (!self->state || g_strcmp0 (iv_runs_items_key_at (items, at), IMPORT_KEY) != 0)
    return;
  iv_runs_drop_down_show (self->bound_model, items, iv_runs_state_get_model (self->state));
  choose_config_json (self);
}

static gboolean
position_to_model (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  GListModel *items = gtk_drop_down_get_model (data);

  if (g_strcmp0 (iv_runs_items_key_at (items, g_value_get_uint (from)), IMPORT_KEY) == 0)
    return FALSE;
  return iv_runs_position_to_key (binding, from, to, data);
}

static gboolean
tp_to_position (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint at = 0;

  for (guint i = 0; i < G_N_ELEMENTS (tps); i++)
    if (tps[i] == g_value_get_int64 (from))
      at = i;
  g_value_set_uint (to, at);
  return TRUE;
}

static gboolean
position_to_tp (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint i = g_value_get_uint (from);

  if (i >= G_N_ELEMENTS (tps))
    return FALSE;
  g_value_set_int64 (to, tps[i]);
  return TRUE;
}

/* TP and model are asked only with hardware chosen. */
static gboolean
named (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_boolean (to, g_value_get_string (from) != NULL);
  return TRUE;
}

/* The button says the bound chosen: "No bound", "Bound: h100x8", "Bound: h100x8 · TP 8 ·
 * Qwen3-8B" (the model only when one is chosen over each run's own). */
static void
show_choice (IvRunsBoundRow *self)
{
  const char *hardware = iv_runs_state_get_hardware (self->state);
  const char *model = iv_runs_state_get_model (self->state);
  gint64 tp = iv_runs_state_get_tp (self->state);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *valid = NULL;

  if (!hardware)
    {
      gtk_label_set_text_with_mnemonic (self->bound_label, _ ("No _bound"));
      return;
    }
  g_string_printf (text, _ ("_Bound: %s"), hardware);
  if (tp > 0)
    g_string_append_printf (text, " · TP %" G_GINT64_FORMAT, tp);
  if (model && model[0] == '@' && self->imported && g_strcmp0 (model + 1, self->imported_path) == 0)
    g_string_append_printf (text, " · %s", self->imported->name);
  else if (model && model[0] != '@')
    g_string_append_printf (text, " · %s", model);
  /* the names are the user's (a config.json's model name): valid UTF-8 before Pango */
  valid = iv_text_valid (text->str, -1);
  gtk_label_set_text_with_mnemonic (self->bound_label, valid);
}

static void
clear_error (IvRunsBoundRow *self)
{
  set_error (self, NULL);
}

void
iv_runs_bound_row_set_state (IvRunsBoundRow *self, IvRunsState *state)
{
  const GBindingFlags both = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;
  static const char *const choice[] = { "notify::hardware", "notify::tp", "notify::model" };

  g_return_if_fail (IV_IS_RUNS_BOUND_ROW (self));
  g_return_if_fail (self->state == NULL);
  self->state = g_object_ref (state);
  iv_runs_drop_down_show (self->bound_hardware, G_LIST_MODEL (self->hardware),
                          iv_runs_state_get_hardware (state));
  list_models (self);
  g_object_bind_property_full (state, "hardware", self->bound_hardware, "selected", both,
                               iv_runs_key_to_position, iv_runs_position_to_key,
                               self->bound_hardware, NULL);
  g_object_bind_property_full (state, "model", self->bound_model, "selected", both,
                               iv_runs_key_to_position, position_to_model, self->bound_model, NULL);
  g_object_bind_property_full (state, "tp", self->bound_tp, "selected", both, tp_to_position,
                               position_to_tp, NULL, NULL);
  g_object_bind_property_full (state, "hardware", self->bound_model, "visible",
                               G_BINDING_SYNC_CREATE, named, NULL, NULL, NULL);
  g_object_bind_property_full (state, "hardware", self->bound_tp, "visible", G_BINDING_SYNC_CREATE,
                               named, NULL, NULL, NULL);
  g_object_bind_property_full (state, "hardware", self->model_title, "visible",
                               G_BINDING_SYNC_CREATE, named, NULL, NULL, NULL);
  g_object_bind_property_full (state, "hardware", self->tp_title, "visible", G_BINDING_SYNC_CREATE,
                               named, NULL, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (choice); i++)
    g_signal_connect_object (state, choice[i], G_CALLBACK (show_choice), self, G_CONNECT_SWAPPED);
  show_choice (self);
  g_signal_connect_object (state, "notify::model", G_CALLBACK (on_model), self, G_CONNECT_SWAPPED);
  /* a refusal is said of a choice: another choice replaces it */
  for (guint i = 0; i < G_N_ELEMENTS (choice); i++)
    g_signal_connect_object (state, choice[i], G_CALLBACK (clear_error), self, G_CONNECT_SWAPPED);
  on_model (self);
}

static void
iv_runs_bound_row_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  if (prop == PROP_ERROR)
    g_value_set_string (value, IV_RUNS_BOUND_ROW (object)->error);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_runs_bound_row_dispose (GObject *object)
{
  IvRunsBoundRow *self = IV_RUNS_BOUND_ROW (object);

  g_cancellable_cancel (self->cancel);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_RUNS_BOUND_ROW);
  g_clear_object (&self->state);
  g_clear_object (&self->hardware);
  g_clear_object (&self->cancel);
  g_clear_pointer (&self->imported, iv_model_free);
  g_clear_pointer (&self->imported_path, g_free);
  g_clear_pointer (&self->reading, g_free);
  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (iv_runs_bound_row_parent_class)->dispose (object);
}

static void
iv_runs_bound_row_class_init (IvRunsBoundRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_runs_bound_row_dispose;
  object_class->get_property = iv_runs_bound_row_get_property;
  properties[PROP_ERROR]
      = g_param_spec_string ("error", NULL, NULL, NULL,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (IV_TYPE_RUNS_ITEM);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-runs-bound-row.ui");
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, box);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_label);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, model_title);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, tp_title);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_hardware);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_model);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_tp);
  gtk_widget_class_bind_template_callback (widget_class, on_model_selected);
}

static void
iv_runs_bound_row_init (IvRunsBoundRow *self)
{
  GPtrArray *presets = iv_hardware_presets ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancel = g_cancellable_new ();
  self->hardware = g_list_store_new (IV_TYPE_RUNS_ITEM);
  iv_runs_items_add (self->hardware, NULL, _ ("No bound"));
  for (guint i = 0; i < presets->len; i++)
    {
      const char *name = ((IvHardware *) presets->pdata[i])->name;
      iv_runs_items_add (self->hardware, name, name);
    }
}

GtkWidget *
iv_runs_bound_row_new (void)
{
  return g_object_new (IV_TYPE_RUNS_BOUND_ROW, NULL);
}
