/* iv-test-util.c: temporary folders and files for tests, removed recursively without a shell. */
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

void
iv_test_write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

guint
iv_test_count_hidden (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d && (name = g_dir_read_name (d)) != NULL)
    n += name[0] == '.';
  return n;
}
