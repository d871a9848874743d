/* iv-settings.c: GSettings aborts the process when a schema is missing; a window that
 * refuses to open because a preferences file is not installed is worse than one that
 * forgets its size. The fallback is built once, on the main thread, and never changes. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-settings.h"

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <glib/gstdio.h>

#include "config.h"

#define SCHEMA_RESOURCE "/io/github/inferview/Inferview/schema/gschemas.compiled"

typedef struct
{
  GSettingsSchema *schema;
  GSettingsBackend *backend; /* shared, so every GSettings of this run sees the others' changes */
} Fallback;

/* The schema source wants a folder: the compiled schema goes to a private temporary one
 * and is removed once mapped (the mapping outlives the name). */
static GSettingsSchema *
load_carried_schema (void)
{
  g_autoptr (GBytes) bytes = g_resources_lookup_data (SCHEMA_RESOURCE, 0, NULL);
  g_autoptr (GSettingsSchemaSource) source = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  GSettingsSchema *schema = NULL;

  if (!bytes || !(dir = g_dir_make_tmp ("inferview-schema-XXXXXX", &error)))
    return NULL;
  file = g_build_filename (dir, "gschemas.compiled", NULL);
  if (g_file_set_contents (file, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                           &error))
    {
      source = g_settings_schema_source_new_from_directory (dir, NULL, TRUE, &error);
      if (source)
        schema = g_settings_schema_source_lookup (source, APP_ID, FALSE);
    }
  g_unlink (file);
  g_rmdir (dir);
  if (error)
    g_warning ("the settings schema carried in the binary is unusable: %s", error->message);
  return schema;
}

static const Fallback *
get_fallback (void)
{
  static Fallback fallback;
  static gsize init;

  if (g_once_init_enter (&init))
    {
      fallback.schema = load_carried_schema ();
      fallback.backend = g_memory_settings_backend_new ();
      g_warning ("the settings schema %s is not installed: preferences and the window size "
                 "are kept for this run only",
                 APP_ID);
      g_once_init_leave (&init, 1);
    }
  return &fallback;
}

GSettings *
iv_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) installed
      = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  const Fallback *fallback;

  if (installed)
    return g_settings_new_full (installed, NULL, NULL);
  fallback = get_fallback ();
  g_return_val_if_fail (fallback->schema != NULL, NULL);
  return g_settings_new_full (fallback->schema, fallback->backend, NULL);
}
