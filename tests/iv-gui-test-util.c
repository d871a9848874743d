/* iv-gui-test-util.c: see the header. */
#include "iv-gui-test-util.h"

#include "iv-document.h"
#include "iv-sidebar.h"
#include "iv-window-private.h"
#include "iv-test-util.h"

#include <adwaita.h>
#include <glib/gstdio.h>

static gboolean
timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
iv_gui_wait_for (gboolean (*done) (gpointer), gpointer data, guint seconds)
{
  gboolean expired = FALSE;
  guint id = g_timeout_add_seconds (seconds, timed_out, &expired);

  while (!done (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (id);
  return done (data);
}

void
iv_gui_reset_settings (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.inferview.Inferview");
  g_autoptr (GSettingsSchema) schema = NULL;
  g_auto (GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i]; i++)
    g_settings_reset (settings, keys[i]);
  g_settings_sync ();
}

gboolean
iv_gui_is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget));
}

static gboolean
presets_listed (gpointer data)
{
  return iv_sidebar_count_presets_shown (data) > 0;
}

IvWindow *
iv_gui_new_window (IvApplication *app, int width, int height, gboolean shown)
{
  IvWindow *window = iv_window_new (ADW_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  if (!shown)
    return window;
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iv_gui_wait_for (iv_gui_is_mapped, window, 10));
  iv_gui_wait_for_paint (GTK_WINDOW (window));
  /* the presets are listed by the idle the first frame schedules, which also makes the
   * Model workspace */
  g_assert_true (iv_gui_wait_for (presets_listed, window->sidebar, 10));
  iv_gui_settle (window);
  return window;
}

void
iv_gui_destroy_toplevels (void)
{
  GList *tops = gtk_window_list_toplevels ();

  /* destroying one window may destroy another (a dialog with its parent): hold them all */
  for (GList *l = tops; l; l = l->next)
    g_object_ref (l->data);
  for (GList *l = tops; l; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free_full (tops, g_object_unref);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (gtk_window_list_toplevels ());
}

static gboolean
none_loading (gpointer data)
{
  GListModel *docs = iv_window_get_documents (data);
  /* files opened together may become documents only once their heads are read */
  if (iv_window_is_opening (data))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr (IvDocument) doc = g_list_model_get_item (docs, i);
      if (iv_document_get_state (doc) == IV_DOCUMENT_LOADING)
        return FALSE;
    }
  return TRUE;
}

void
iv_gui_settle (IvWindow *window)
{
  g_assert_true (iv_gui_wait_for (none_loading, window, 20));
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

void
iv_gui_wait_for_paint (GtkWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  gboolean painted = FALSE;
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);

  gtk_widget_queue_draw (GTK_WIDGET (window));
  g_assert_true (iv_gui_wait_for (flag_set, &painted, 10));
  g_signal_handler_disconnect (clock, id);
}

void
iv_gui_open_paths (IvWindow *window, const char *first, ...)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  va_list ap;

  va_start (ap, first);
  for (const char *p = first; p; p = va_arg (ap, const char *))
    g_ptr_array_add (files, g_file_new_for_path (p));
  va_end (ap);
  iv_window_open (window, (GFile **) files->pdata, (int) files->len);
}

static gboolean
transitioning (GtkWidget *w)
{
  if (GTK_IS_STACK (w) && gtk_stack_get_transition_running (GTK_STACK (w)))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    if (transitioning (c))
      return TRUE;
  return FALSE;
}

static gboolean
settled (gpointer data)
{
  return !transitioning (data);
}

static gboolean
has_size (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0
         && gtk_widget_get_height (data) > 0;
}

guint
iv_gui_snapshot (GtkWindow *window, const char *png)
{
  /* Snapshot the window's children the way a frame does (a widget paintable of a
   * toplevel stays empty until a compositor asks for it). */
  GtkSnapshot *snapshot;
  int w, h;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);

  /* a window just presented has no size until its first layout */
  g_assert_true (iv_gui_wait_for (has_size, window, 5));
  /* no page half-faded into the next */
  g_assert_true (iv_gui_wait_for (settled, window, 5));
  iv_gui_wait_for_paint (window);
  snapshot = gtk_snapshot_new ();
  w = gtk_widget_get_width (GTK_WIDGET (window));
  h = gtk_widget_get_height (GTK_WIDGET (window));
  gtk_snapshot_append_color (snapshot, &(GdkRGBA){ 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, w, h));
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (window)); child;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_mapped (child))
      gtk_widget_snapshot_child (GTK_WIDGET (window), child, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture
      = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                     /* the window's own box: a dialog's shadow draws outside it */
                                     &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (int i = 0; i < w * h; i += 7)
    g_hash_table_add (colours, GUINT_TO_POINTER (((guint32 *) pixels)[i]));
  if (png)
    g_assert_true (gdk_texture_save_to_png (texture, png));
  return g_hash_table_size (colours);
}

GtkWidget *
iv_gui_find_child (GtkWidget *root, GType type)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;
      if ((found = iv_gui_find_child (c, type)))
        return found;
    }
  return NULL;
}

GtkWidget *
iv_gui_find_by_id (GtkWidget *root, const char *id)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      if (g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (c)), id) == 0)
        return c;
      if ((found = iv_gui_find_by_id (c, id)))
        return found;
    }
  return NULL;
}

GtkEventController *
iv_gui_find_controller (GtkWidget *widget, GType type)
{
  GListModel *controllers;
  GtkEventController *found = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !found; i++)
    {
      /* the widget holds its controllers, so the borrowed pointer outlives the list */
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        found = c;
    }
  g_object_unref (controllers);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c && !found;
       c = gtk_widget_get_next_sibling (c))
    found = iv_gui_find_controller (c, type);
  return found;
}

GtkLabel *
iv_gui_find_ellipsized_label (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found;
      if (!gtk_widget_get_mapped (c))
        continue;
      if (GTK_IS_LABEL (c) && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (c))))
        return GTK_LABEL (c);
      if ((found = iv_gui_find_ellipsized_label (c)))
        return found;
    }
  return NULL;
}

GtkWidget *
iv_gui_control_labelled (GtkWidget *root, const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      if (GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (c)), label) == 0)
        return gtk_label_get_mnemonic_widget (GTK_LABEL (c));
      if ((found = iv_gui_control_labelled (c, label)))
        return found;
    }
  return NULL;
}

GtkButton *
iv_gui_find_button_with_prefix (GtkWidget *root, const char *prefix)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkButton *found;
      if (GTK_IS_BUTTON (c) && gtk_button_get_label (GTK_BUTTON (c))
          && g_str_has_prefix (gtk_button_get_label (GTK_BUTTON (c)), prefix))
        return GTK_BUTTON (c);
      if ((found = iv_gui_find_button_with_prefix (c, prefix)))
        return found;
    }
  return NULL;
}

char *
iv_gui_last_toast_text (IvWindow *window)
{
  AdwToast *toast = _iv_window_get_last_toast (window);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_nonnull (toast);
  g_assert_true (
      pango_parse_markup (adw_toast_get_title (toast), -1, 0, NULL, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

char *
iv_gui_sample (const char *rel)
{
  return g_build_filename (g_getenv ("IV_SAMPLES_DIR"), rel, NULL);
}

IvDocument *
iv_gui_doc_at (IvWindow *window, guint i)
{
  return g_list_model_get_item (iv_window_get_documents (window), i);
}

/* The program's application, and the running case's window and scratch folder, made new
 * for each case by case_setup. */
static IvApplication *app;
static IvWindow *window;
static char *tmpdir;

IvApplication *
iv_gui_app (void)
{
  return app;
}

IvWindow *
iv_gui_window (void)
{
  return window;
}

void
iv_gui_forget_window (void)
{
  window = NULL;
}

const char *
iv_gui_tmpdir (void)
{
  return tmpdir;
}

/* What a case may have changed outside its window is put back before the next one makes
 * its own: the settings, the saved model configurations (a file under XDG_DATA_HOME). */
static void
case_setup (gpointer fixture, gconstpointer data)
{
  const IvGuiCase *c = data;
  g_autofree char *saved
      = g_build_filename (g_get_user_data_dir (), "inferview", "model-configurations.json", NULL);
  const char *suffixes[] = { "", ".corrupt", ".corrupt-2" };

  iv_gui_reset_settings ();
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (saved, suffixes[i], NULL);
      g_remove (path);
    }
  tmpdir = iv_test_make_tmpdir ("iv-gui-XXXXXX");
  window = iv_gui_new_window (app, 1200, 760, !c->unshown);
}

static void
case_run (gpointer fixture, gconstpointer data)
{
  ((const IvGuiCase *) data)->run ();
}

static void
case_teardown (gpointer fixture, gconstpointer data)
{
  /* a load still running (a live run's follow, a cancelled load) ends with its window */
  if (window)
    iv_gui_settle (window);
  window = NULL;
  iv_gui_destroy_toplevels ();
  iv_test_remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
}

int
iv_gui_run_cases (int *argc, char ***argv, const IvGuiCase *cases, guint n_cases)
{
  int rc;

  g_test_init (argc, argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: skipping the GUI tests\n");
      return 77;
    }
  adw_init ();

  app = iv_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  for (guint i = 0; i < n_cases; i++)
    g_test_add_vtable (cases[i].path, 0, &cases[i], case_setup, case_run, case_teardown);
  rc = g_test_run ();

  g_clear_object (&app);
  return rc;
}
