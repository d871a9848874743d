/* iv-trace-memcpy.c: memory copies and sets by direction (see the header). */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-memcpy.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-json-doc.h"
#include "iv-trace-query.h"

/* hta/utils/utils.py, get_memory_kernel_type: "Memset", else the first 11 characters of a
 * "Memcpy…" name ("Memcpy DtoH"), else "Memcpy Unknown". */
static char *
memory_type (const char *name)
{
  if (g_str_has_prefix (name, "Memset"))
    return g_strdup ("Memset");
  if (!g_str_has_prefix (name, "Memcpy"))
    return g_strdup ("Memcpy Unknown");
  return g_strndup (name, MIN (strlen (name), 11));
}

typedef struct
{
  GHashTable *index; /* slice → its IvMemcpyStats' place, + 1 */
  GArray *out;
  double *sum_gbps;
} Ctx;

static void
clear_stats (gpointer p)
{
  g_free (((IvMemcpyStats *) p)->type);
}

static gboolean
number_member (JsonObject *o, const char *key, double *v)
{
  JsonNode *n = json_object_get_member (o, key);
  if (!n || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) == G_TYPE_STRING
      || json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return FALSE;
  *v = json_node_get_double (n);
  return isfinite (*v);
}

static void
read_args (const IvTrace *t, gsize slice, const char *json, gpointer data)
{
  Ctx *c = data;
  g_autoptr (JsonParser) parser = json_parser_new ();
  IvMemcpyStats *st = &g_array_index (
      c->out, IvMemcpyStats,
      GPOINTER_TO_UINT (g_hash_table_lookup (c->index, GSIZE_TO_POINTER (slice))) - 1);
  JsonNode *root;
  double v;
  guint line, column;

  (void) t;
  /* json-glib recurses: the depth is checked first, as everywhere (iv-json-doc.h) */
  if (!iv_json_check_depth (json, strlen (json), IV_JSON_MAX_DEPTH, &line, &column)
      || !json_parser_load_from_data (parser, json, -1, NULL)
      || !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  if (number_member (json_node_get_object (root), "bytes", &v) && v >= 0)
    {
      st->bytes += v;
      st->with_bytes++;
    }
  if (number_member (json_node_get_object (root), "memory bandwidth (GB/s)", &v))
    {
      c->sum_gbps[st - (IvMemcpyStats *) c->out->data] += v;
      st->max_gbps = MAX (st->max_gbps, v);
    }
}

static int
by_time (gconstpointer a, gconstpointer b)
{
  gint64 u = ((const IvMemcpyStats *) a)->time_ns, v = ((const IvMemcpyStats *) b)->time_ns;
  return (u < v) - (u > v);
}

GArray *
iv_trace_memcpy_stats (const IvTrace *t, gint64 t0, gint64 t1, GError **error)
{
  g_autoptr (GArray) slices = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GHashTable) by_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (IvMemcpyStats));
  g_autofree double *sum_gbps = NULL;
  Ctx c;

  g_array_set_clear_func (out, clear_stats);
  for (gsize s = 0; s < t->n_slices; s++)
    {
      g_autofree char *type = NULL;
      gpointer at;
      IvMemcpyStats *st;
      if (iv_trace_slice_row_kind (t, s) != IV_ROW_GPU_WORK || iv_trace_slice_is_open (t, s)
          || t->start_ns[s] < t0 || t->start_ns[s] >= t1
          || iv_trace_kernel_kind (t, s) != IV_KERNEL_MEMORY)
        continue;
      type = memory_type (iv_trace_string (t, t->name[s]));
      if (!(at = g_hash_table_lookup (by_type, type)))
        {
          IvMemcpyStats n = { g_strdup (type) };
          g_array_append_val (out, n);
          at = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (by_type, g_steal_pointer (&type), at);
        }
      st = &g_array_index (out, IvMemcpyStats, GPOINTER_TO_UINT (at) - 1);
      st->count++;
      /* HTA rounds a 0 µs copy up to 1 µs (its issue 20): here too, for the bandwidth */
      st->time_ns = iv_trace_add_ns (st->time_ns, MAX (t->dur_ns[s], 1000));
      g_hash_table_insert (index, GSIZE_TO_POINTER (s), at);
      g_array_append_val (slices, s);
    }
  sum_gbps = g_new0 (double, MAX (out->len, 1));
  c = (Ctx){ index, out, sum_gbps };
  if (!iv_trace_args_foreach (t, (const gsize *) slices->data, slices->len, read_args, &c, error))
    {
      g_array_unref (out);
      return NULL;
    }
  for (guint i = 0; i < out->len; i++)
    {
      IvMemcpyStats *st = &g_array_index (out, IvMemcpyStats, i);
      st->mean_gbps = st->count ? sum_gbps[i] / (double) st->count : 0;
      st->effective_gbps = st->time_ns > 0 ? st->bytes / (double) st->time_ns : 0;
    }
  g_array_sort (out, by_time);
  return out;
}
