/* fuzz-plot-config.c: libFuzzer target for `aiperf plot`'s configuration as Inferview
 * reads it (a run folder's hidden .aiperf-plot-config.yaml is anyone's): anchors,
 * aliases, merge keys and their budget. Whatever is read must be consistent — every
 * preset found by its name, every warning valid text — and every preset's name must map
 * to one safe, distinct file name. The input's first line is also mapped as a name on
 * its own, so the mapping sees arbitrary bytes. */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "iv-plot-config.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* @file: one component that is neither hidden nor a parent, valid, capped. */
static void
check_file_name (const char *file)
{
  g_assert_true (g_utf8_validate (file, -1, NULL));
  g_assert_null (strchr (file, '/'));
  g_assert_null (strchr (file, '\\'));
  g_assert_null (strstr (file, ".."));
  g_assert_cmpint (file[0], !=, '.');
  g_assert_cmpint (file[0], !=, '-');
  g_assert_cmpint (file[0], !=, '\0');
  /* the stem, "-N" for a collision and ".svg" */
  g_assert_cmpuint (strlen (file), <=, IV_PLOT_FILE_STEM_MAX + 16);
  for (const char *p = file; *p; p = g_utf8_next_char (p))
    {
      GUnicodeType type = g_unichar_type (g_utf8_get_char (p));
      g_assert_true (type != G_UNICODE_CONTROL && type != G_UNICODE_FORMAT);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvPlotConfig) c
      = iv_plot_config_parse ((const char *) data, size, "fuzz.yaml", &error);

  g_assert_true ((c != NULL) != (error != NULL));
  {
    /* the first line as a preset name */
    const uint8_t *nl = memchr (data, '\n', size);
    g_autofree char *name = g_strndup ((const char *) data, nl ? (gsize) (nl - data) : size);
    g_autofree char *stem = iv_plot_file_stem (name);
    check_file_name (stem);
    g_assert_false (g_str_equal (stem, ".") || g_str_equal (stem, ".."));
  }
  if (!c)
    {
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      g_assert_true (g_str_has_prefix (error->message, "fuzz.yaml"));
      return 0;
    }
  for (guint i = 0; i < c->warnings->len; i++)
    g_assert_true (g_utf8_validate (c->warnings->pdata[i], -1, NULL));
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *plots = multi ? c->multi_plots : c->single_plots;
      g_autoptr (IvPlotFileNames) names = iv_plot_file_names_new ("svg");
      g_autoptr (GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      g_assert_cmpuint (g_hash_table_size (multi ? c->multi_index : c->single_index), ==,
                        plots->len);
      for (guint i = 0; i < plots->len; i++)
        {
          const IvPlotSpec *s = plots->pdata[i];
          const char *file = iv_plot_file_names_get (names, s->name);
          g_autofree char *normal = g_utf8_normalize (file, -1, G_NORMALIZE_DEFAULT);
          g_assert_true (iv_plot_config_get (c, multi, s->name) == s);
          check_file_name (file);
          /* distinct however a file system folds names */
          g_assert_true (g_hash_table_add (files, g_utf8_casefold (normal, -1)));
          /* the same preset, the same file */
          g_assert_true (iv_plot_file_names_get (names, s->name) == file);
        }
    }
  return 0;
}
