/* iv-application.c: one instance per session (a second `inferview FILE` hands FILE to
 * the running window), app.* actions, every shortcut, and the style preference. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-application.h"

#include <glib/gi18n.h>

#include "config.h"
#include "iv-settings.h"
#include "iv-startup-probe.h"
#include "iv-input.h"
#include "iv-preferences-window.h"
#include "iv-window.h"

struct _IvApplication
{
  AdwApplication parent_instance;

  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (IvApplication, iv_application, ADW_TYPE_APPLICATION)

/* The one table of shortcuts; gtk/help-overlay.ui lists the same actions. */
static const struct
{
  const char *action;
  const char *accels[3];
} shortcuts[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.open-folder", { "<Control><Shift>o", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.close-item", { "<Control>w", NULL } },
  { "win.toggle-sidebar", { "F9", NULL } },
  { "win.show-workspace::runs", { "<Alt>1", NULL } },
  { "win.show-workspace::traces", { "<Alt>2", NULL } },
  { "win.show-workspace::model", { "<Alt>3", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
};

static IvWindow *
get_window (IvApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  IvWindow *created;

  if (IV_IS_WINDOW (window))
    return IV_WINDOW (window);
  created = iv_window_new (ADW_APPLICATION (self));
  iv_startup_probe_watch (GTK_WINDOW (created));
  return created;
}

static void
apply_color_scheme (IvApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");
  AdwColorScheme value = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (scheme, "light"))
    value = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (scheme, "dark"))
    value = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), value);
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GApplication *app = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  /* Closing through close-request saves each window's size. */
  for (GList *l = windows; l;)
    {
      GtkWindow *window = l->data;
      l = l->next;
      gtk_window_close (window);
    }
  g_application_quit (app);
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IvApplication *self = user_data;
  IvPreferencesWindow *prefs
      = iv_preferences_window_new (gtk_application_get_active_window (GTK_APPLICATION (self)));
  gtk_window_present (GTK_WINDOW (prefs));
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IvApplication *self = user_data;
  const char *developers[] = { "The Inferview developers", NULL };
  GtkWidget *about = adw_about_window_new ();

  g_object_set (about, "transient-for", gtk_application_get_active_window (GTK_APPLICATION (self)),
                "application-name", _ ("Inferview"), "application-icon", APP_ID, "version",
                PACKAGE_VERSION, "developer-name", _ ("The Inferview developers"), "developers",
                developers, "comments",
                _ ("AI inference benchmark runs, profiler traces and an analytical "
                   "model of transformer inference, in one fast native tool."),
                "website", "https://github.com/inferview/inferview", "issue-url",
                "https://github.com/inferview/inferview/issues", "license-type",
                GTK_LICENSE_GPL_3_0, "copyright", "© 2026 The Inferview developers", NULL);
  adw_about_window_add_credit_section (
      ADW_ABOUT_WINDOW (about), _ ("Sample data"),
      (const char *[]){ "AIPerf (ai-dynamo/aiperf, Apache-2.0)",
                        "HolisticTraceAnalysis (facebookresearch, BSD-3-Clause)",
                        "Catapult (catapult-project, BSD-3-Clause)", NULL });
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "preferences", preferences_action },
  { "about", about_action },
};

static void
iv_application_startup (GApplication *app)
{
  IvApplication *self = IV_APPLICATION (app);

  G_APPLICATION_CLASS (iv_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), shortcuts[i].action,
                                           shortcuts[i].accels);

  self->settings = iv_settings_new ();
  g_signal_connect_swapped (self->settings, "changed::color-scheme",
                            G_CALLBACK (apply_color_scheme), self);
  apply_color_scheme (self);
}

static void
iv_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (get_window (IV_APPLICATION (app))));
}

static void
iv_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  IvWindow *window = get_window (IV_APPLICATION (app));

  iv_window_open (window, files, n_files);
  gtk_window_present (GTK_WINDOW (window));
}

static void
iv_application_dispose (GObject *object)
{
  IvApplication *self = IV_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (iv_application_parent_class)->dispose (object);
}

/* Handled in the process that was started (before any load runs on a worker thread);
 * with a running instance, files passed on to it follow that instance's policy. */
static int
iv_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  if (g_variant_dict_contains (options, "allow-huge"))
    iv_input_set_allow_huge (TRUE);
  return -1;
}

static void
iv_application_class_init (IvApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = iv_application_dispose;
  app_class->startup = iv_application_startup;
  app_class->activate = iv_application_activate;
  app_class->open = iv_application_open;
  app_class->handle_local_options = iv_application_handle_local_options;
}

static void
iv_application_init (IvApplication *self)
{
  static const GOptionEntry entries[] = {
    { "allow-huge", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_ ("Open compressed files even when they expand more than 1000-fold (refused by default as "
          "likely decompression bombs)"),
      NULL },
    { NULL },
  };
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

IvApplication *
iv_application_new (void)
{
  return g_object_new (IV_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/io/github/inferview/Inferview", NULL);
}
