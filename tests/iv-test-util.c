/* iv-test-util.c: temporary folders for tests, removed recursively without a shell. */
#include "iv-test-util.h"

#include <glib/gstdio.h>

char *
iv_test_make_tmpdir (const char *name_template)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (name_template, &error);

  g_assert_no_error (error);
  return dir;
}

void
iv_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      iv_test_remove_tree (child);
    }
  g_rmdir (path);
}
