/* test-settings.c: without an installed schema (a build folder, a copied binary) the
 * window's settings still work, from the schema carried in the binary, kept in memory,
 * with one warning; with the schema installed, the installed one is used. */
#include <gio/gio.h>

#include "iv-settings.h"

static void
test_missing_schema (void)
{
  g_autoptr (GSettings) a = NULL;
  g_autoptr (GSettings) b = NULL;

  if (g_test_subprocess ())
    {
      g_test_expect_message ("iv-gui", G_LOG_LEVEL_WARNING, "*is not installed*for this run only*");
      a = iv_settings_new ();
      g_test_assert_expected_messages ();
      g_assert_nonnull (a);
      /* the carried schema's defaults… */
      g_assert_cmpint (g_settings_get_int (a, "window-width"), ==, 1280);
      {
        g_autofree char *scheme = g_settings_get_string (a, "color-scheme");
        g_assert_cmpstr (scheme, ==, "system");
      }
      /* …and one store for the whole run, with no second warning */
      g_assert_true (g_settings_set_string (a, "color-scheme", "dark"));
      b = iv_settings_new ();
      {
        g_autofree char *scheme = g_settings_get_string (b, "color-scheme");
        g_assert_cmpstr (scheme, ==, "dark");
      }
      return;
    }
  /* A child with no schema anywhere GSettings would look. */
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  /* Before anything reads them: the default schema source is built once per process. */
  if (g_strv_contains ((const char *const *) argv, "--GTestSubprocess"))
    {
      g_unsetenv ("GSETTINGS_SCHEMA_DIR");
      g_setenv ("XDG_DATA_DIRS", "/nonexistent", TRUE);
      g_setenv ("XDG_DATA_HOME", "/nonexistent", TRUE);
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/settings/missing-schema", test_missing_schema);
  return g_test_run ();
}
