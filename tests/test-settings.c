/* test-settings.c: without an installed schema (a build folder, a copied binary) the
 * window's settings still work, from the schema carried in the binary, kept in memory,
 * with one warning; with the schema installed, the installed one is used.
 *
 * The saved model configurations (the user's other settings file) survive what dotfile
 * setups do to them: a symbolic link into a repository, a private mode, a second hard
 * link, a link whose target is not there yet; and 20,000 of them load in linear time. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iv-saved.h"
#include "iv-settings.h"

static char *
make_dir (void)
{
  char *dir = g_dir_make_tmp ("iv-saved-XXXXXX", NULL);
  g_assert_nonnull (dir);
  return dir;
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GFile) f = g_file_new_for_path (dir);
  g_autoptr (GFileEnumerator) e = g_file_enumerate_children (
      f, G_FILE_ATTRIBUTE_STANDARD_NAME, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  GFileInfo *info;

  while (e && (info = g_file_enumerator_next_file (e, NULL, NULL)))
    {
      g_autofree char *child = g_build_filename (dir, g_file_info_get_name (info), NULL);
      GStatBuf st;
      if (g_lstat (child, &st) == 0 && S_ISDIR (st.st_mode))
        remove_tree (child);
      else
        g_remove (child);
      g_object_unref (info);
    }
  g_rmdir (dir);
}

static IvSaved *
saved_new (const char *name)
{
  IvSaved *s = g_new0 (IvSaved, 1);
  s->name = g_strdup (name);
  s->model = g_strdup ("Llama-3.1-8B");
  s->hardware = g_strdup ("ring4");
  iv_config_init (&s->config);
  return s;
}

static GPtrArray *
list_of (guint n)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("config%u", i + 1);
      g_ptr_array_add (list, saved_new (name));
    }
  return list;
}

static void
assert_link (const char *path)
{
  GStatBuf st;
  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
}

static void
assert_bytes (const char *path, const char *bytes, gsize len)
{
  g_autofree char *got = NULL;
  gsize got_len = 0;
  g_assert_true (g_file_get_contents (path, &got, &got_len, NULL));
  g_assert_cmpmem (got, got_len, bytes, len);
}

/* What the Model workspace does on load (iv-model-view.c): a file that cannot be read is
 * moved aside, one with bad configurations is copied aside, then the next save writes. */
static char *
load_as_the_window_does (const char *path, GPtrArray **list)
{
  g_autoptr (GPtrArray) skipped = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) aside_error = NULL;
  char *aside;

  *list = iv_saved_load (path, &skipped, &error);
  g_assert_true (*list == NULL || skipped->len > 0);
  aside = iv_saved_set_aside (path, *list == NULL, &aside_error);
  g_assert_no_error (aside_error);
  if (!*list)
    *list = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  return aside;
}

/* model-configurations.json a link into a dotfiles repository, its contents damaged: the
 * damaged bytes survive, byte for byte, beside the link's target; the next save lands in
 * the target and the link stays a link. (The old code link()ed the link itself: the
 * "copy" was a second link, the save wrote through it, and the damaged contents were
 * gone from both names.) */
static void
test_saved_symlink_damaged (void)
{
  /* one good configuration, one bad; CRLF and odd spacing a rewrite would not keep */
  static const char partly[]
      = "{\"configurations\": [ {\"name\": \"keep-me\", \"model\": \"Llama-3.1-8B\",\r\n"
        "  \"hardware\": \"ring4\", \"mode\": \"decode\", \"batch\": 1, \"tq\": 1,"
        " \"context\": 0, \"tp\": 1, \"cp\": 1, \"tp_place\": \"pe\", \"cp_place\": \"pe\","
        " \"ring\": \"kv\"},\r\n {\"name\": 5} ]}   \r\n";
  /* not JSON at all, with bytes that are no UTF-8 */
  static const char broken[] = "{\"configurations\": [\xff\xfe\x80 {\"name\": \"lost?\"";
  const struct
  {
    const char *bytes;
    gsize len;
    guint kept;
  } cases[] = { { partly, sizeof partly - 1, 1 }, { broken, sizeof broken - 1, 0 } };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *dir = make_dir ();
      g_autofree char *repo = g_build_filename (dir, "dotfiles", NULL);
      g_autofree char *data = g_build_filename (dir, "data", NULL);
      g_autofree char *target = g_build_filename (repo, "model-configurations.json", NULL);
      g_autofree char *link = g_build_filename (data, "model-configurations.json", NULL);
      g_autofree char *expect_aside = g_strconcat (target, ".corrupt", NULL);
      g_autofree char *link_aside = g_strconcat (link, ".corrupt", NULL);
      g_autofree char *aside = NULL;
      g_autofree char *saved_text = NULL;
      g_autoptr (GPtrArray) list = NULL;
      g_autoptr (GError) error = NULL;
      GStatBuf st;

      g_assert_cmpint (g_mkdir (repo, 0700), ==, 0);
      g_assert_cmpint (g_mkdir (data, 0700), ==, 0);
      g_assert_true (g_file_set_contents (target, cases[c].bytes, (gssize) cases[c].len, NULL));
      g_assert_cmpint (g_chmod (target, 0600), ==, 0);
      g_assert_cmpint (symlink ("../dotfiles/model-configurations.json", link), ==, 0);

      aside = load_as_the_window_does (link, &list);
      g_assert_cmpuint (list->len, ==, cases[c].kept);
      g_assert_cmpstr (aside, ==, expect_aside);
      g_assert_false (g_file_test (link_aside, G_FILE_TEST_EXISTS));
      g_assert_cmpint (g_lstat (aside, &st), ==, 0);
      g_assert_true (S_ISREG (st.st_mode));
      g_assert_cmpuint (st.st_mode & 07777, ==, 0600); /* a private file's copy is private */
      g_assert_cmpuint (st.st_nlink, ==, 1);
      assert_bytes (aside, cases[c].bytes, cases[c].len);
      assert_link (link);

      g_ptr_array_add (list, saved_new ("after"));
      g_assert_true (iv_saved_save (list, link, &error));
      g_assert_no_error (error);
      assert_link (link);
      g_assert_true (g_file_get_contents (target, &saved_text, NULL, NULL));
      g_assert_nonnull (strstr (saved_text, "\"after\""));
      /* the damaged contents are where they were set aside, unchanged */
      assert_bytes (aside, cases[c].bytes, cases[c].len);
      remove_tree (dir);
    }
}

/* A 0600 file stays 0600 after a save (the atomic replace once made it 0644). */
static void
test_saved_keeps_mode (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "model-configurations.json", NULL);
  g_autoptr (GPtrArray) list = list_of (2);
  GStatBuf st;

  g_assert_true (iv_saved_save (list, path, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_ptr_array_add (list, saved_new ("third"));
  g_assert_true (iv_saved_save (list, path, NULL));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 07777, ==, 0600);
  remove_tree (dir);
}

/* A file with a second hard link is not replaced (the rename would leave the other name
 * with the old list): the save is refused, naming the file and why, and both names
 * keep the list they had. */
static void
test_saved_hard_link (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "model-configurations.json", NULL);
  g_autofree char *other = g_build_filename (dir, "backup.json", NULL);
  g_autofree char *before = NULL, *a = NULL, *b = NULL;
  g_autoptr (GPtrArray) list = list_of (2);
  g_autoptr (GError) error = NULL;

  g_assert_true (iv_saved_save (list, path, NULL));
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
  g_assert_cmpint (link (path, other), ==, 0);
  g_ptr_array_add (list, saved_new ("third"));
  g_assert_false (iv_saved_save (list, path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "model-configurations.json"));
  g_assert_nonnull (strstr (error->message, "hard links"));
  g_assert_true (g_file_get_contents (path, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (other, &b, NULL, NULL));
  g_assert_cmpstr (a, ==, before);
  g_assert_cmpstr (b, ==, before);
  remove_tree (dir);
}

/* A link whose target is not there yet (or was moved aside): the target is created, the
 * link stays a link. */
static void
test_saved_dangling_link (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *target = g_build_filename (dir, "repo-configurations.json", NULL);
  g_autofree char *link = g_build_filename (dir, "model-configurations.json", NULL);
  g_autoptr (GPtrArray) list = list_of (1);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (symlink ("repo-configurations.json", link), ==, 0);
  /* a dangling link reads as no file: an empty list, nothing set aside */
  back = iv_saved_load (link, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 0);
  g_assert_true (iv_saved_save (list, link, &error));
  g_assert_no_error (error);
  assert_link (link);
  g_assert_true (g_file_test (target, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&back, g_ptr_array_unref);
  back = iv_saved_load (link, NULL, &error);
  g_assert_cmpuint (back->len, ==, 1);
  remove_tree (dir);
}

/* 20,000 saved configurations: saved, loaded whole and in order, the next free name found
 * (a gap is filled first). Finding it compared every name with every number once — 4e8
 * comparisons at every start and every save; now one pass. The timings are printed, not
 * asserted (machines differ). */
static void
test_saved_many (void)
{
  const guint n = 20000;
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "model-configurations.json", NULL);
  g_autoptr (GPtrArray) list = list_of (n);
  g_autoptr (GPtrArray) back = NULL;
  g_autoptr (GPtrArray) skipped = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *next = NULL;
  gint64 t0, t1, t2, t3;

  t0 = g_get_monotonic_time ();
  g_assert_true (iv_saved_save (list, path, &error));
  t1 = g_get_monotonic_time ();
  back = iv_saved_load (path, &skipped, &error);
  t2 = g_get_monotonic_time ();
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, n);
  g_assert_cmpuint (skipped->len, ==, 0);
  g_assert_cmpstr (((IvSaved *) back->pdata[n - 1])->name, ==, "config20000");
  next = iv_saved_next_name (back);
  t3 = g_get_monotonic_time ();
  g_assert_cmpstr (next, ==, "config20001");
  g_test_message ("20,000 saved configurations: save %.3f s, load %.3f s, next name %.4f s",
                  (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
  g_clear_pointer (&next, g_free);
  g_ptr_array_remove_index (back, 776); /* config777 */
  next = iv_saved_next_name (back);
  g_assert_cmpstr (next, ==, "config777");
  remove_tree (dir);
}

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
  g_test_add_func ("/settings/saved-symlink-damaged", test_saved_symlink_damaged);
  g_test_add_func ("/settings/saved-keeps-mode", test_saved_keeps_mode);
  g_test_add_func ("/settings/saved-hard-link", test_saved_hard_link);
  g_test_add_func ("/settings/saved-dangling-link", test_saved_dangling_link);
  g_test_add_func ("/settings/saved-many", test_saved_many);
  return g_test_run ();
}
