/* iv-model-saved-list.c: the Model workspace's saved configurations — the name entry and
 * Save, the list (a row per configuration: activate to load it, the bin to delete it),
 * what went wrong under it. It owns the list and its file: read on a worker thread once
 * shown or asked for, written whole (atomically, through iv_saved_save) at each change.
 * Saving and loading one need the workspace's configuration: the view hands them in
 * (iv_model_saved_list_set_handlers). "changed" says when the list changed. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-saved-list.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-plain-text.h"
#include "iv-safe-text.h"

struct _IvModelSavedList
{
  GtkBox parent_instance;

  IvModelSavedSave save_func;
  IvModelSavedLoad load_func;
  gpointer func_data;

  char *saved_path;
  GPtrArray *saved;        /* IvSaved; empty until loaded (see SavedLoad) */
  int saved_state;         /* SAVED_UNLOADED, SAVED_LOADING, SAVED_LOADED */
  struct _SavedLoad *load; /* the load under way */
  guint rows_built;        /* saved_list holds rows for saved[0 .. rows_built - 1] */
  guint rows_idle;         /* builds the rest, a slice per main-loop turn */

  /* template children */
  GtkEntry *save_entry;
  GtkListBox *saved_list;
  GtkLabel *saved_error;
};

enum
{
  SAVED_UNLOADED,
  SAVED_LOADING,
  SAVED_LOADED,
};

G_DEFINE_FINAL_TYPE (IvModelSavedList, iv_model_saved_list, GTK_TYPE_BOX)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void wait_for_saved (IvModelSavedList *self);
static void start_saved_load (IvModelSavedList *self);

static void
show_saved_error (IvModelSavedList *self, const char *message)
{
  iv_label_set_valid_text (self->saved_error, message); /* names the user's file */
  gtk_widget_set_visible (GTK_WIDGET (self->saved_error), message != NULL);
}

static void
update_save_placeholder (IvModelSavedList *self)
{
  g_autofree char *next = iv_saved_next_name (self->saved);
  g_object_set (self->save_entry, "placeholder-text", next, NULL);
}

static gboolean
write_saved (IvModelSavedList *self, GError **error)
{
  return iv_saved_save (self->saved, self->saved_path, error);
}

static void
on_delete_clicked (GtkButton *button, IvModelSavedList *self)
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
  update_save_placeholder (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_saved_activated (GtkListBox *box, GtkListBoxRow *row, IvModelSavedList *self)
{
  g_autoptr (GError) error = NULL;
  if (self->load_func
      && !self->load_func ((guint) gtk_list_box_row_get_index (row), self->func_data, &error))
    show_saved_error (self, error->message);
}

static void
append_saved_row (IvModelSavedList *self, IvSaved *sv)
{
  const IvConfig *c = &sv->config;
  /* what tells two saved configurations apart, placements and ring included (two that
   * differ only there read the same otherwise); the ring only where there is one */
  g_autofree char *ring
      = c->mode == IV_MODE_PREFILL && c->c > 1
            ? g_strdup_printf (_ (", %s ring"), c->ring == IV_RING_KV ? "K/V" : "Q+O/m/l")
            : g_strdup ("");
  g_autofree char *tp = g_strdup_printf ("%" G_GINT64_FORMAT, c->t);
  g_autofree char *cp = g_strdup_printf ("%" G_GINT64_FORMAT, c->c);
  /* TRANSLATORS: model · hardware · mode · TP size on PEs or cubes · CP size on …, ring */
  g_autofree char *sub = g_strdup_printf (
      _ ("%s · %s · %s · TP %s on %s · CP %s on %s%s"), sv->model, sv->hardware,
      iv_mode_to_string (c->mode), tp, c->place_tp == IV_PLACE_PE ? _ ("PEs") : _ ("cubes"), cp,
      c->place_cp == IV_PLACE_PE ? _ ("PEs") : _ ("cubes"), ring);
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
build_rows (IvModelSavedList *self, gint64 budget_us)
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
  IvModelSavedList *self = data;

  if (!build_rows (self, 8000)) /* half a frame at 60 Hz */
    return G_SOURCE_CONTINUE;
  self->rows_idle = 0;
  return G_SOURCE_REMOVE;
}

/* Only while the view is on screen (the map handler calls this too): rows no one sees
 * are not worth the main thread's time at start-up. */
static void
show_saved_rows (IvModelSavedList *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && !self->rows_idle && !build_rows (self, 20000))
    self->rows_idle = g_idle_add (build_rows_idle, self);
}

static void
on_save_clicked (IvModelSavedList *self)
{
  g_autoptr (GError) error = NULL;
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->save_entry));

  if (!self->save_func || !self->save_func (*name ? name : NULL, self->func_data, &error))
    {
      show_saved_error (self, error->message);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->save_entry), "");
}

/* ---- loading the saved configurations ----------------------------------------------- */

/* The file is read on a worker thread, and only once something needs it: the Model
 * workspace shown, or the sidebar listing the configurations (iv_model_saved_list_peek).
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
apply_saved (IvModelSavedList *self, GPtrArray *list, const char *message)
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
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Takes the thread's result (waiting for it if @wait) and applies it; FALSE when the
 * thread is not done and @wait is not set. */
static gboolean
take_saved_load (IvModelSavedList *self, gboolean wait)
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
  g_autoptr (IvModelSavedList) self = g_weak_ref_get (&load->view);

  if (self && self->load == load && self->saved_state == SAVED_LOADING)
    take_saved_load (self, FALSE);
  return G_SOURCE_REMOVE;
}

/* Starts reading the file on a worker thread, once. */
static void
start_saved_load (IvModelSavedList *self)
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

/* Shown: the list is wanted now. */
static void
iv_model_saved_list_map (GtkWidget *widget)
{
  IvModelSavedList *self = IV_MODEL_SAVED_LIST (widget);

  GTK_WIDGET_CLASS (iv_model_saved_list_parent_class)->map (widget);
  start_saved_load (self);
  if (self->saved_state == SAVED_LOADED)
    show_saved_rows (self);
}

/* The list loaded, whatever it takes: read here when no thread was started, else the
 * thread waited for. */
static void
wait_for_saved (IvModelSavedList *self)
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
iv_model_saved_list_dispose (GObject *object)
{
  IvModelSavedList *self = IV_MODEL_SAVED_LIST (object);

  g_clear_handle_id (&self->rows_idle, g_source_remove);
  /* a load under way finishes on its own and finds no list to give its result to */
  g_clear_pointer (&self->load, saved_load_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_MODEL_SAVED_LIST);
  G_OBJECT_CLASS (iv_model_saved_list_parent_class)->dispose (object);
}

static void
iv_model_saved_list_finalize (GObject *object)
{
  IvModelSavedList *self = IV_MODEL_SAVED_LIST (object);

  g_clear_pointer (&self->saved, g_ptr_array_unref);
  g_free (self->saved_path);
  G_OBJECT_CLASS (iv_model_saved_list_parent_class)->finalize (object);
}

static void
iv_model_saved_list_class_init (IvModelSavedListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_model_saved_list_dispose;
  object_class->finalize = iv_model_saved_list_finalize;
  widget_class->map = iv_model_saved_list_map;
  /* After the list changes: read in, a save, a delete. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-saved-list.ui");
  gtk_widget_class_bind_template_child (widget_class, IvModelSavedList, save_entry);
  gtk_widget_class_bind_template_child (widget_class, IvModelSavedList, saved_list);
  gtk_widget_class_bind_template_child (widget_class, IvModelSavedList, saved_error);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_saved_activated);
}

static void
iv_model_saved_list_init (IvModelSavedList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->saved_path = iv_saved_default_path ();
  /* the saved configurations are read when first needed: shown, or asked for */
  self->saved = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
}

void
iv_model_saved_list_set_handlers (IvModelSavedList *self, IvModelSavedSave save,
                                  IvModelSavedLoad load, gpointer user_data)
{
  g_return_if_fail (IV_IS_MODEL_SAVED_LIST (self));
  self->save_func = save;
  self->load_func = load;
  self->func_data = user_data;
}

GPtrArray *
iv_model_saved_list_get (IvModelSavedList *self)
{
  g_return_val_if_fail (IV_IS_MODEL_SAVED_LIST (self), NULL);
  wait_for_saved (self);
  return self->saved;
}

GPtrArray *
iv_model_saved_list_peek (IvModelSavedList *self)
{
  g_return_val_if_fail (IV_IS_MODEL_SAVED_LIST (self), NULL);
  start_saved_load (self);
  return self->saved_state == SAVED_LOADED ? self->saved : NULL;
}

gboolean
iv_model_saved_list_is_loaded (IvModelSavedList *self)
{
  g_return_val_if_fail (IV_IS_MODEL_SAVED_LIST (self), FALSE);
  return self->saved_state == SAVED_LOADED;
}

gboolean
iv_model_saved_list_add (IvModelSavedList *self, IvSaved *sv, GError **error)
{
  g_return_val_if_fail (IV_IS_MODEL_SAVED_LIST (self), FALSE);
  /* the file is written whole from the list: the list must be whole first */
  wait_for_saved (self);
  g_ptr_array_add (self->saved, sv);
  if (!write_saved (self, error))
    {
      g_ptr_array_remove_index (self->saved, self->saved->len - 1);
      return FALSE;
    }
  show_saved_error (self, NULL);
  show_saved_rows (self);
  update_save_placeholder (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

void
iv_model_saved_list_show_error (IvModelSavedList *self, const char *message)
{
  g_return_if_fail (IV_IS_MODEL_SAVED_LIST (self));
  show_saved_error (self, message);
}
