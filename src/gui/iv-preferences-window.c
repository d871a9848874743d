/* iv-preferences-window.c: the style override (system, light, dark) is stored as a
 * string in GSettings; iv-application.c applies it to AdwStyleManager on every change. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-preferences-window.h"

#include <glib/gi18n.h>

#include "config.h"
#include "iv-settings.h"

struct _IvPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings *settings;
  AdwComboRow *style_row;
};

G_DEFINE_FINAL_TYPE (IvPreferencesWindow, iv_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *const schemes[] = { "system", "light", "dark" };

static gboolean
scheme_to_index (GValue *value, GVariant *variant, gpointer user_data)
{
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_str_equal (s, schemes[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
index_to_scheme (const GValue *value, const GVariantType *type, gpointer user_data)
{
  guint i = g_value_get_uint (value);
  return g_variant_new_string (schemes[i < G_N_ELEMENTS (schemes) ? i : 0]);
}

static void
iv_preferences_window_dispose (GObject *object)
{
  IvPreferencesWindow *self = IV_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (iv_preferences_window_parent_class)->dispose (object);
}

static void
iv_preferences_window_class_init (IvPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_preferences_window_dispose;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, IvPreferencesWindow, style_row);
}

static void
iv_preferences_window_init (IvPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = iv_settings_new ();
  g_settings_bind_with_mapping (self->settings, "color-scheme", self->style_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL,
                                NULL);
}

IvPreferencesWindow *
iv_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (IV_TYPE_PREFERENCES_WINDOW, "transient-for", parent, NULL);
}
