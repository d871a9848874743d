/* iv-rank-names.c: which files are the rank traces of a distributed job, by their names
 * (see the header). */
#include "iv-rank-names.h"

#include <string.h>

static int
parse_rank_digits (const char *p, const char **end)
{
  gint64 v = 0;
  const char *q = p;
  while (g_ascii_isdigit (*q) && q - p < 7)
    v = v * 10 + (*q++ - '0');
  if (q == p || g_ascii_isdigit (*q))
    return -1;
  *end = q;
  return (int) v;
}

int
iv_rank_from_file_name (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  const char *p = lower, *end;
  const char *ext;

  /* rank-3, rank_3, rank3 anywhere (the first) */
  while ((p = strstr (p, "rank")))
    {
      const char *q = p + 4;
      int r;
      if (*q == '-' || *q == '_' || *q == '.')
        q++;
      if ((r = parse_rank_digits (q, &end)) >= 0)
        return r;
      p += 4;
    }
  /* a number just before the extension: job_3.pt.trace.json, worker_3.json.gz */
  ext = strstr (lower, ".pt.trace");
  if (!ext)
    ext = strstr (lower, ".json");
  if (!ext)
    return -1;
  p = ext;
  while (p > lower && g_ascii_isdigit (p[-1]))
    p--;
  if (p == ext || p == lower || (p[-1] != '_' && p[-1] != '-'))
    return -1;
  {
    int r = parse_rank_digits (p, &end);
    return end == ext ? r : -1;
  }
}

gboolean
iv_rank_is_trace_name (const char *name)
{
  return g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".json.gz")
         || g_str_has_suffix (name, ".trace") || g_str_has_suffix (name, ".trace.gz");
}

static int
compare_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The trace files of folder @dir, by name; NULL with @error when it cannot be read. */
GPtrArray *
iv_rank_folder_traces (const char *dir, GError **error)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, error);
  GPtrArray *out;
  const char *name;

  if (!d)
    return NULL;
  out = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      /* regular files only (iv-input refuses the rest when opened; a folder of rank
       * traces is not searched further down) */
      if (iv_rank_is_trace_name (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
  g_ptr_array_sort (out, compare_str);
  return out;
}

guint
iv_rank_traces_in_folder (const char *dir)
{
  g_autoptr (GPtrArray) files = iv_rank_folder_traces (dir, NULL);
  guint n = 0;

  for (guint i = 0; files && i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      n += iv_rank_from_file_name (base) >= 0;
    }
  return n;
}
