/* iv-plot-configs.c: the plot configurations of a sweep, read once (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-plot-configs.h"

#include <glib/gi18n.h>

typedef struct
{
  IvPlotConfig *config;
  char *error; /* why the configuration found was replaced by the built-in one */
} Entry;

struct _IvPlotConfigs
{
  Entry sweep;
  GHashTable *runs; /* run path → Entry*, only runs with a configuration of their own */
};

static void
entry_clear (Entry *e)
{
  g_clear_pointer (&e->config, iv_plot_config_free);
  g_clear_pointer (&e->error, g_free);
}

static void
entry_free (gpointer p)
{
  entry_clear (p);
  g_free (p);
}

static void
entry_read (Entry *e, const char *run_dir)
{
  g_autoptr (GError) error = NULL;

  e->config = iv_plot_config_find (NULL, run_dir, &error);
  if (!e->config)
    {
      /* a broken configuration is said, then the built-in one is used */
      e->error
          = g_strdup_printf (_ ("%s — the built-in plot configuration is used"), error->message);
      e->config = iv_plot_config_load (NULL, NULL);
    }
}

IvPlotConfigs *
iv_plot_configs_new (const IvSweep *sweep)
{
  IvPlotConfigs *c = g_new0 (IvPlotConfigs, 1);

  c->runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  entry_read (&c->sweep, NULL);
  for (guint i = 0; sweep && i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      g_autofree char *own
          = r->path ? g_build_filename (r->path, ".aiperf-plot-config.yaml", NULL) : NULL;
      Entry *e;
      if (!own || !g_file_test (own, G_FILE_TEST_IS_REGULAR)
          || g_hash_table_contains (c->runs, r->path))
        continue;
      e = g_new0 (Entry, 1);
      entry_read (e, r->path);
      g_hash_table_insert (c->runs, g_strdup (r->path), e);
    }
  return c;
}

const IvPlotConfig *
iv_plot_configs_get (const IvPlotConfigs *c, const char *run_path, const char **error)
{
  const Entry *e = run_path ? g_hash_table_lookup (c->runs, run_path) : NULL;

  if (!e)
    e = &c->sweep;
  if (error)
    *error = e->error;
  return e->config;
}

void
iv_plot_configs_free (IvPlotConfigs *c)
{
  if (!c)
    return;
  entry_clear (&c->sweep);
  g_hash_table_unref (c->runs);
  g_free (c);
}
