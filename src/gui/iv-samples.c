/* iv-samples.c: the samples are found in IV_SAMPLES_DIR (tests, meson devenv), then
 * where they are installed, then in the source tree of a build that was never
 * installed, so the quick start works straight from the build folder. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-samples.h"

#include "iv-sniff.h"

#include "config.h"

const char *
iv_samples_get_dir (void)
{
  static char *dir;
  static gsize init;

  if (g_once_init_enter (&init))
    {
      const char *candidates[]
          = { g_getenv ("IV_SAMPLES_DIR"), SAMPLES_INSTALL_DIR, SAMPLES_SOURCE_DIR };
      for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
        if (candidates[i] && g_file_test (candidates[i], G_FILE_TEST_IS_DIR))
          {
            dir = g_strdup (candidates[i]);
            break;
          }
      g_once_init_leave (&init, 1);
    }
  return dir;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* GFiles to open for a workspace's "Open the Samples" button. */
GPtrArray *
iv_samples_for_group (IvGroup group)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);
  const char *dir = iv_samples_get_dir ();

  if (!dir)
    return files;
  if (group == IV_GROUP_RUNS)
    {
      g_autofree char *aiperf = g_build_filename (dir, "aiperf", NULL);
      g_ptr_array_add (files, g_file_new_for_path (aiperf));
    }
  else if (group == IV_GROUP_TRACES)
    {
      g_autofree char *traces = g_build_filename (dir, "traces", NULL);
      g_autoptr (GDir) d = g_dir_open (traces, 0, NULL);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      while (d && (name = g_dir_read_name (d)) != NULL)
        if (name[0] != '.' && (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".gz")))
          {
            /* A breakdown is not a trace: the pipeline view finds it beside its timeline. */
            g_autofree char *path = g_build_filename (traces, name, NULL);
            g_autoptr (IvSniffResult) kind = iv_sniff_path (path, FALSE, NULL, NULL, NULL, NULL);
            if (!kind || kind->kind != IV_KIND_CANDIDATE_BREAKDOWN)
              g_ptr_array_add (names, g_steal_pointer (&path));
          }
      g_ptr_array_sort (names, compare_strings);
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (files, g_file_new_for_path (names->pdata[i]));
    }
  return files;
}
