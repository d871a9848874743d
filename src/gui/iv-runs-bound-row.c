/* iv-runs-bound-row.c: the "Bound on" row of the Runs workspace (see the header).
 *
 * Each drop-down sets only its own part of the choice, and a part set to what it already
 * is changes nothing: so code that sets the choice first and the drop-downs after (a
 * folder's remembered choice, a test) emits nothing twice and needs no re-entry guard. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-bound-row.h"

#include <glib/gi18n.h>

#include "iv-preset.h"
#include "iv-safe-text.h"
#include "iv-settings.h"

struct _IvRunsBoundRow
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkDropDown *bound_hardware, *bound_model, *bound_tp;
  GtkStringList *hardware_names, *model_names;

  GSettings *settings;
  char *key; /* the folder the choice is remembered for */
  IvRunsBoundChoice choice;
  IvModel *imported; /* a config.json the user gave (listed after the presets) */
  char *imported_path;
  char *error;
};

G_DEFINE_FINAL_TYPE (IvRunsBoundRow, iv_runs_bound_row, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const gint64 tps[] = { 0, 1, 2, 4, 8 };

/* The model drop-down: the run's own, the presets, an imported config.json's model when
 * there is one, then "config.json…" to import one. */
static guint
import_index (IvRunsBoundRow *self)
{
  return 1 + iv_presets_get ()->len + (self->imported ? 1 : 0);
}

static const IvModel *
model_at (IvRunsBoundRow *self, guint i)
{
  GPtrArray *models = iv_presets_get ();

  if (i >= 1 && i <= models->len)
    return models->pdata[i - 1];
  if (self->imported && i == models->len + 1)
    return self->imported;
  return NULL;
}

static guint
model_index (IvRunsBoundRow *self, const IvModel *m)
{
  for (guint i = 1; m && i < import_index (self); i++)
    if (model_at (self, i) == m)
      return i;
  return 0;
}

static guint
hardware_index (const IvHardware *hw)
{
  GPtrArray *presets = iv_hardware_presets ();

  for (guint i = 0; hw && i < presets->len; i++)
    if (presets->pdata[i] == hw)
      return i + 1;
  return 0;
}

static guint
tp_index (gint64 tp)
{
  for (guint i = 0; i < G_N_ELEMENTS (tps); i++)
    if (tps[i] == tp)
      return i;
  return 0;
}

static void
fill_models (IvRunsBoundRow *self)
{
  GPtrArray *models = iv_presets_get ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (names, g_strdup (_ ("Model as each run names it")));
  for (guint i = 0; i < models->len; i++)
    g_ptr_array_add (names, g_strdup (((IvModel *) models->pdata[i])->name));
  if (self->imported)
    {
      g_autofree char *label = g_strdup_printf (_ ("%s (config.json)"), self->imported->name);
      g_ptr_array_add (names, iv_text_valid (label, -1)); /* the name is the file's */
    }
  g_ptr_array_add (names, g_strdup (_ ("config.json…")));
  g_ptr_array_add (names, NULL);
  gtk_string_list_splice (self->model_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->model_names)),
                          (const char *const *) names->pdata);
}

/* The drop-downs to the choice (each handler then finds its part unchanged). */
static void
show_choice (IvRunsBoundRow *self)
{
  gtk_drop_down_set_selected (self->bound_hardware, hardware_index (self->choice.hardware));
  gtk_drop_down_set_selected (self->bound_tp, tp_index (self->choice.tp));
  gtk_drop_down_set_selected (self->bound_model, model_index (self, self->choice.model));
  gtk_widget_set_visible (GTK_WIDGET (self->bound_tp), self->choice.hardware != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->bound_model), self->choice.hardware != NULL);
}

/* Remembered for the folder: {path: "hardware:tp:model"}, the model empty for each run's
 * own, "@/path/config.json" for an imported one. */
static void
remember (IvRunsBoundRow *self)
{
  g_autoptr (GVariant) old = NULL;
  GVariantBuilder b;
  GVariantIter it;
  const char *k, *v;

  if (!self->settings || !self->key)
    return;
  old = g_settings_get_value (self->settings, "run-bounds");
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&it, old);
  while (g_variant_iter_next (&it, "{&s&s}", &k, &v))
    if (!g_str_equal (k, self->key))
      g_variant_builder_add (&b, "{ss}", k, v);
  if (self->choice.hardware)
    {
      g_autofree char *which = !self->choice.model ? g_strdup ("")
                               : self->choice.model == self->imported
                                   ? g_strdup_printf ("@%s", self->imported_path)
                                   : g_strdup (self->choice.model->name);
      g_autofree char *value = g_strdup_printf (
          "%s:%" G_GINT64_FORMAT ":%s", self->choice.hardware->name, self->choice.tp, which);
      g_variant_builder_add (&b, "{ss}", self->key, value);
    }
  g_settings_set_value (self->settings, "run-bounds", g_variant_builder_end (&b));
}

static void
changed (IvRunsBoundRow *self)
{
  g_clear_pointer (&self->error, g_free); /* said of a choice now replaced */
  gtk_widget_set_visible (GTK_WIDGET (self->bound_tp), self->choice.hardware != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->bound_model), self->choice.hardware != NULL);
  remember (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void choose_config_json (IvRunsBoundRow *self);

static void
on_chosen (IvRunsBoundRow *self, GParamSpec *pspec, GtkDropDown *which)
{
  guint i = gtk_drop_down_get_selected (which);
  GPtrArray *presets = iv_hardware_presets ();

  if (i == GTK_INVALID_LIST_POSITION)
    return;
  if (which == self->bound_hardware)
    {
      const IvHardware *hw = i > 0 && i <= presets->len ? presets->pdata[i - 1] : NULL;
      if (hw == self->choice.hardware)
        return;
      self->choice.hardware = hw;
    }
  else if (which == self->bound_tp)
    {
      gint64 tp = i < G_N_ELEMENTS (tps) ? tps[i] : 0;
      if (tp == self->choice.tp)
        return;
      self->choice.tp = tp;
    }
  else
    {
      if (i == import_index (self))
        {
          /* "config.json…": back to the choice it was, and ask for the file */
          gtk_drop_down_set_selected (self->bound_model, model_index (self, self->choice.model));
          choose_config_json (self);
          return;
        }
      if (model_at (self, i) == self->choice.model)
        return;
      self->choice.model = model_at (self, i);
    }
  changed (self);
}

gboolean
iv_runs_bound_row_set_model_file (IvRunsBoundRow *self, const char *path, GError **error)
{
  IvModel *m;

  g_return_val_if_fail (IV_IS_RUNS_BOUND_ROW (self), FALSE);
  if (!(m = iv_model_from_hf_config (path, error)))
    return FALSE;
  /* to "each run's own" while the list changes under the drop-down: nothing to say yet */
  self->choice.model = NULL;
  gtk_drop_down_set_selected (self->bound_model, 0);
  g_clear_pointer (&self->imported, iv_model_free);
  g_free (self->imported_path);
  self->imported = m;
  self->imported_path = g_strdup (path);
  fill_models (self);
  self->choice.model = m;
  show_choice (self);
  changed (self);
  return TRUE;
}

static void
on_config_json_response (GtkNativeDialog *dialog, int response, IvRunsBoundRow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;
      if (path && !iv_runs_bound_row_set_model_file (self, path, &error))
        {
          /* said where the numbers would be: the view's notes */
          g_free (self->error);
          self->error = g_strdup (error->message);
          g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
        }
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

void
iv_runs_bound_row_set_folder (IvRunsBoundRow *self, const char *key)
{
  g_autofree char *value = NULL;
  IvRunsBoundChoice was = self->choice;
  IvRunsBoundChoice now = { NULL, NULL, 0 };

  g_return_if_fail (IV_IS_RUNS_BOUND_ROW (self));
  g_free (self->key);
  self->key = g_strdup (key);
  g_clear_pointer (&self->error, g_free);
  if (self->settings && key)
    {
      g_autoptr (GVariant) map = g_settings_get_value (self->settings, "run-bounds");
      g_variant_lookup (map, key, "s", &value);
    }
  if (value)
    {
      /* "hardware:tp:model" (the model empty: each run's own) */
      g_auto (GStrv) parts = g_strsplit (value, ":", 3);
      now.hardware = parts[0] ? iv_hardware_find (parts[0]) : NULL;
      now.tp = parts[0] && parts[1] ? g_ascii_strtoll (parts[1], NULL, 10) : 0;
      now.tp = tps[tp_index (now.tp)];
      if (parts[0] && parts[1] && parts[2] && parts[2][0] == '@')
        {
          /* the config.json given for this folder, read again (gone or broken: each
           * run's own) */
          IvModel *m = iv_model_from_hf_config (parts[2] + 1, NULL);
          if (m)
            {
              self->choice.model = NULL;
              gtk_drop_down_set_selected (self->bound_model, 0);
              g_clear_pointer (&self->imported, iv_model_free);
              g_free (self->imported_path);
              self->imported = m;
              self->imported_path = g_strdup (parts[2] + 1);
              fill_models (self);
              now.model = m;
            }
        }
      else if (parts[0] && parts[1] && parts[2] && *parts[2])
        now.model = iv_presets_find (parts[2]);
    }
  self->choice = now;
  show_choice (self);
  if (was.hardware != now.hardware || was.tp != now.tp || was.model != now.model)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

const IvRunsBoundChoice *
iv_runs_bound_row_get_choice (IvRunsBoundRow *self)
{
  g_return_val_if_fail (IV_IS_RUNS_BOUND_ROW (self), NULL);
  return &self->choice;
}

void
iv_runs_bound_row_set_bound (IvRunsBoundRow *self, const char *name, gint64 tp)
{
  IvRunsBoundChoice was;

  g_return_if_fail (IV_IS_RUNS_BOUND_ROW (self));
  was = self->choice;
  /* the choice first, then the drop-downs: one "changed" for both parts */
  self->choice.hardware = name ? iv_hardware_find (name) : NULL;
  self->choice.tp = tps[tp_index (tp)];
  show_choice (self);
  if (was.hardware != self->choice.hardware || was.tp != self->choice.tp)
    changed (self);
}

const char *
iv_runs_bound_row_get_error (IvRunsBoundRow *self)
{
  g_return_val_if_fail (IV_IS_RUNS_BOUND_ROW (self), NULL);
  return self->error;
}

static void
iv_runs_bound_row_dispose (GObject *object)
{
  IvRunsBoundRow *self = IV_RUNS_BOUND_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_RUNS_BOUND_ROW);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->key, g_free);
  self->choice.model = NULL;
  g_clear_pointer (&self->imported, iv_model_free);
  g_clear_pointer (&self->imported_path, g_free);
  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (iv_runs_bound_row_parent_class)->dispose (object);
}

static void
iv_runs_bound_row_class_init (IvRunsBoundRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_bound_row_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-runs-bound-row.ui");
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, box);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_hardware);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_model);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, bound_tp);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, hardware_names);
  gtk_widget_class_bind_template_child (widget_class, IvRunsBoundRow, model_names);
  gtk_widget_class_bind_template_callback (widget_class, on_chosen);
}

static void
iv_runs_bound_row_init (IvRunsBoundRow *self)
{
  GPtrArray *presets = iv_hardware_presets ();

  gtk_widget_init_template (GTK_WIDGET (self));
  /* the lists before the handlers can see a choice: the choice starts as "none" and the
   * drop-downs at their first entries, which mean the same */
  gtk_string_list_append (self->hardware_names, _ ("No bound"));
  for (guint i = 0; i < presets->len; i++)
    gtk_string_list_append (self->hardware_names, ((IvHardware *) presets->pdata[i])->name);
  fill_models (self);
  self->settings = iv_settings_new ();
}

GtkWidget *
iv_runs_bound_row_new (void)
{
  return g_object_new (IV_TYPE_RUNS_BOUND_ROW, NULL);
}
