/* iv-trace-info.c: see iv-trace-info.h. A member's value reaches here whole (the Chrome
 * loader has already checked it while passing over it), and is read again in detail by a
 * pull reader over that text. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-info.h"

#include <errno.h>
#include <string.h>

#include "iv-json-pull.h"
#include "iv-safe-text.h"
#include "iv-units.h"

/* Keys longer than this are cut (at a character boundary): they are labels. */
#define KEY_MAX 256

static void
item_free (gpointer data)
{
  IvInfoItem *it = data;

  g_free (it->key);
  g_free (it->value);
  g_free (it);
}

static GPtrArray *
group_new (void)
{
  return g_ptr_array_new_with_free_func (item_free);
}

IvTraceInfo *
iv_trace_info_new (void)
{
  IvTraceInfo *info = g_new0 (IvTraceInfo, 1);

  info->metadata = group_new ();
  info->attributes = group_new ();
  info->distributed = group_new ();
  info->process_groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  info->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  return info;
}

void
iv_trace_info_free (IvTraceInfo *info)
{
  if (!info)
    return;
  g_ptr_array_unref (info->metadata);
  g_ptr_array_unref (info->attributes);
  g_ptr_array_unref (info->distributed);
  g_ptr_array_unref (info->process_groups);
  g_ptr_array_unref (info->devices);
  g_free (info);
}

gboolean
iv_trace_info_is_empty (const IvTraceInfo *info)
{
  return !info
         || (info->metadata->len == 0 && info->attributes->len == 0 && info->distributed->len == 0
             && info->process_groups->len == 0 && info->devices->len == 0);
}

const IvInfoItem *
iv_trace_info_find (const GPtrArray *items, const char *key)
{
  for (guint i = 0; items && i < items->len; i++)
    {
      const IvInfoItem *it = items->pdata[i];
      if (strcmp (it->key, key) == 0)
        return it;
    }
  return NULL;
}

const char *
iv_trace_info_value (const GPtrArray *items, const char *key)
{
  const IvInfoItem *it = iv_trace_info_find (items, key);
  return it ? it->value : NULL;
}

/* @text (@len bytes, from a file) as valid UTF-8 of at most @max bytes, cut at a character
 * boundary; *@cut says whether anything was left out. */
static char *
bounded_text (const char *text, gsize len, gsize max, gboolean *cut)
{
  gsize n = iv_text_prefix_len (text, len, max);
  char *valid = iv_text_valid (text, (gssize) n);
  gsize vlen = strlen (valid);

  /* invalid bytes became U+FFFD (three bytes each): cut again to stay within @max */
  if (vlen > max)
    valid[iv_text_prefix_len (valid, vlen, max)] = '\0';
  if (cut)
    *cut = n < len || vlen > max;
  return valid;
}

/* Adds a member to @items unless the group is full (then it is counted as dropped). */
static void
add_item (IvTraceInfo *info, GPtrArray *items, const char *key, gsize klen, const char *value,
          gsize len, IvInfoKind kind)
{
  IvInfoItem *it;

  if (items->len >= IV_TRACE_INFO_MAX_ITEMS)
    {
      info->n_dropped++;
      return;
    }
  it = g_new0 (IvInfoItem, 1);
  it->key = bounded_text (key, klen, KEY_MAX, NULL);
  it->value = bounded_text (value, len, IV_TRACE_INFO_MAX_TEXT, &it->cut);
  it->kind = kind;
  g_ptr_array_add (items, it);
}

/* A list of ranks in one line: "0–299 (300 ranks)" when they run on, else the first few
 * and the count. NULL when @json (an array's text) is not a list of whole numbers. */
static char *
ranks_summary (const char *json, gsize len)
{
  g_autoptr (GString) s = g_string_new (NULL);
  gint64 first = 0, prev = 0;
  guint64 n = 0;
  gboolean runs_on = TRUE;
  gsize i = 1; /* past the '[' */

  while (i < len)
    {
      gint64 v;
      gsize start;
      gboolean neg = FALSE;

      while (i < len
             && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t'
                 || json[i] == ','))
        i++;
      if (i >= len || json[i] == ']')
        break;
      if (json[i] == '-')
        neg = TRUE, i++;
      start = i;
      v = 0;
      while (i < len && g_ascii_isdigit (json[i]) && i - start < 15)
        v = v * 10 + (json[i++] - '0');
      if (i == start || (i < len && json[i] != ',' && json[i] != ']' && !g_ascii_isspace (json[i])))
        return NULL; /* not a whole number (or one of 16 digits and more) */
      if (neg)
        v = -v;
      if (n == 0)
        first = v;
      else if (v != prev + 1)
        runs_on = FALSE;
      if (n < 8)
        g_string_append_printf (s, "%s%" G_GINT64_FORMAT, n ? ", " : "", v);
      prev = v;
      n++;
    }
  if (n == 0)
    return g_strdup ("none");
  if (runs_on && n > 2)
    return g_strdup_printf (
        "%" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " (%" G_GUINT64_FORMAT " ranks)", first, prev, n);
  if (n > 8)
    g_string_append (s, ", …");
  g_string_append_printf (s, " (%" G_GUINT64_FORMAT " %s)", n, n == 1 ? "rank" : "ranks");
  return g_strdup (s->str);
}

typedef struct
{
  IvTraceInfo *info;
  GPtrArray *items;
  const char *prefix;   /* prepended to keys ("otherData.") */
  gboolean distributed; /* pg_config is the process groups */
  gboolean ranks;       /* "ranks" lists are summarised */
} Group;

static IvPullStatus read_object (IvJsonPull *r, Group *g);

/* Each element of the array at the cursor: objects as new groups in @groups, the rest
 * passed over. */
static IvPullStatus
read_groups (IvJsonPull *r, IvTraceInfo *info, GPtrArray *groups, gboolean ranks)
{
  IvPullStatus st;

  r->pos++;
  for (;;)
    {
      if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
        return st;
      if (r->at[r->pos] == ']')
        {
          r->pos++;
          return IV_PULL_OK;
        }
      if (r->at[r->pos] == ',')
        {
          r->pos++;
          continue;
        }
      if (r->at[r->pos] != '{')
        st = iv_json_pull_skip (r);
      else if (groups->len >= IV_TRACE_INFO_MAX_ITEMS)
        {
          info->n_dropped++;
          st = iv_json_pull_skip (r);
        }
      else
        {
          GPtrArray *items = group_new ();
          Group g = { info, items, "", FALSE, ranks };
          g_ptr_array_add (groups, items);
          st = read_object (r, &g);
        }
      if (st != IV_PULL_OK)
        return st;
    }
}

static IvPullStatus
read_member (IvJsonPull *r, const char *k, gsize klen, gpointer data)
{
  Group *g = data;
  char c = r->at[r->pos];
  g_autofree char *key = NULL;
  const char *v;
  gsize vlen, from;
  gboolean is_number;
  IvPullStatus st;

  /* the key's text may be in the buffer the value's strings reuse */
  key = g_strdup_printf ("%s%.*s", g->prefix, (int) MIN (klen, KEY_MAX), k);
  if (g->distributed && c == '[' && strcmp (key, "pg_config") == 0)
    return read_groups (r, g->info, g->info->process_groups, TRUE);
  if (c == '{' || c == '[')
    {
      from = r->pos;
      if ((st = iv_json_pull_skip (r)) != IV_PULL_OK)
        return st;
      if (g->ranks && c == '[' && strcmp (key, "ranks") == 0)
        {
          g_autofree char *summary = ranks_summary (r->at + from, r->pos - from);
          if (summary)
            {
              add_item (g->info, g->items, key, strlen (key), summary, strlen (summary),
                        IV_INFO_STRING);
              return IV_PULL_OK;
            }
        }
      add_item (g->info, g->items, key, strlen (key), r->at + from, r->pos - from, IV_INFO_JSON);
      return IV_PULL_OK;
    }
  if ((st = iv_json_pull_scalar (r, &v, &vlen, &is_number)) != IV_PULL_OK)
    return st;
  /* null says nothing (Perfetto drops it too: MetadataValueFromJson) */
  if (v)
    add_item (g->info, g->items, key, strlen (key), v, vlen,
              is_number  ? IV_INFO_NUMBER
              : c == '"' ? IV_INFO_STRING
                         : IV_INFO_BOOL);
  return IV_PULL_OK;
}

static IvPullStatus
read_object (IvJsonPull *r, Group *g)
{
  return iv_json_pull_object (r, read_member, g);
}

/* Top-level members that are events or their data, not facts about the file. */
static gboolean
is_event_data (const char *key)
{
  static const char *const keys[]
      = { "traceEvents", "systemTraceEvents", "stackFrames", "samples", "powerTraceAsString" };
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (key, keys[i]) == 0)
      return TRUE;
  return FALSE;
}

void
_iv_trace_info_add_member (IvTraceInfo *info, const char *key, const char *value, gsize len)
{
  IvJsonPull r;
  IvPullStatus st = IV_PULL_OK;
  char c;

  if (is_event_data (key))
    return;
  iv_json_pull_init_text (&r, value, len);
  r.lenient = TRUE; /* as the loader that checked it */
  if (iv_json_pull_need (&r) != IV_PULL_OK)
    return;
  c = r.at[r.pos];
  if (strcmp (key, "metadata") == 0 && c == '{')
    {
      /* Perfetto: each member becomes json_metadata.<key> (ParseMetadataDictionary) */
      Group g = { info, info->metadata, "", FALSE, FALSE };
      st = read_object (&r, &g);
    }
  else if (strcmp (key, "distributedInfo") == 0 && c == '{')
    {
      Group g = { info, info->distributed, "", TRUE, TRUE };
      st = read_object (&r, &g);
    }
  else if (strcmp (key, "deviceProperties") == 0 && c == '[')
    st = read_groups (&r, info, info->devices, FALSE);
  else if (c == '{')
    {
      /* a top-level object (catapult's otherData): its members one level down */
      g_autofree char *prefix = g_strdup_printf ("%.*s.", KEY_MAX, key);
      Group g = { info, info->attributes, prefix, FALSE, FALSE };
      st = read_object (&r, &g);
    }
  else
    {
      Group g = { info, info->attributes, "", FALSE, FALSE };
      st = read_member (&r, key, strlen (key), &g);
    }
  /* The text was checked as it streamed by; an error here can only be memory for a
   * decoded string: what was read is kept. */
  if (st != IV_PULL_OK)
    g_debug ("trace info: %s not read whole", key);
  iv_json_pull_clear (&r);
}

/* ---------- summaries ---------- */

static gboolean
value_int (const GPtrArray *items, const char *key, gint64 *v)
{
  const IvInfoItem *it = iv_trace_info_find (items, key);
  char *end;

  if (!it || it->kind != IV_INFO_NUMBER)
    return FALSE;
  *v = g_ascii_strtoll (it->value, &end, 10);
  return *end == '\0';
}

char *
iv_trace_info_device_summary (const GPtrArray *device)
{
  g_autoptr (GString) s = g_string_new (NULL);
  const char *name = iv_trace_info_value (device, "name");
  gint64 major, minor, sms, mem;

  g_string_append (s, name && *name ? name : "GPU");
  if (value_int (device, "computeMajor", &major) && value_int (device, "computeMinor", &minor))
    g_string_append_printf (s, " · compute %" G_GINT64_FORMAT ".%" G_GINT64_FORMAT, major, minor);
  if (value_int (device, "numSms", &sms))
    g_string_append_printf (s, " · %" G_GINT64_FORMAT " SMs", sms);
  if (value_int (device, "totalGlobalMem", &mem) && mem > 0)
    {
      g_autofree char *bytes = iv_units_format_bytes ((double) mem);
      g_string_append_printf (s, " · %s", bytes);
    }
  return g_strdup (s->str);
}

char *
iv_trace_info_distributed_summary (const IvTraceInfo *info)
{
  g_autoptr (GString) s = g_string_new (NULL);
  const char *rank, *world, *backend;

  if (!info || info->distributed->len == 0)
    return NULL;
  rank = iv_trace_info_value (info->distributed, "rank");
  world = iv_trace_info_value (info->distributed, "world_size");
  backend = iv_trace_info_value (info->distributed, "backend");
  if (rank)
    g_string_append_printf (s, "rank %s", rank);
  if (world)
    g_string_append_printf (s, "%s%s", rank ? " of " : "world size ", world);
  if (backend)
    g_string_append_printf (s, "%s%s", s->len ? " · " : "", backend);
  if (info->process_groups->len)
    g_string_append_printf (s, "%s%u process group%s", s->len ? " · " : "",
                            info->process_groups->len, info->process_groups->len == 1 ? "" : "s");
  if (s->len == 0)
    return NULL;
  return g_strdup (s->str);
}

/* ---------- output ---------- */

static void
write_value (IvJsonWriter *w, const IvInfoItem *it)
{
  switch (it->kind)
    {
    case IV_INFO_NUMBER:
      {
        char *end;
        gint64 v;
        errno = 0;
        v = g_ascii_strtoll (it->value, &end, 10);
        /* whole numbers exactly (baseTimeNanoseconds passes what a double holds) */
        if (*end == '\0' && errno == 0)
          iv_json_writer_int (w, v);
        else
          iv_json_writer_double (w, g_ascii_strtod (it->value, NULL));
        break;
      }
    case IV_INFO_BOOL:
      iv_json_writer_bool (w, strcmp (it->value, "true") == 0);
      break;
    case IV_INFO_STRING:
    case IV_INFO_JSON:
    default:
      iv_json_writer_string (w, it->value);
      break;
    }
}

static void
write_items (IvJsonWriter *w, const GPtrArray *items)
{
  for (guint i = 0; i < items->len; i++)
    {
      const IvInfoItem *it = items->pdata[i];
      iv_json_writer_key (w, it->key);
      write_value (w, it);
    }
}

static void
write_groups (IvJsonWriter *w, const GPtrArray *groups)
{
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < groups->len; i++)
    {
      iv_json_writer_begin_object (w);
      write_items (w, groups->pdata[i]);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
}

void
iv_trace_info_write_json (const IvTraceInfo *info, IvJsonWriter *w)
{
  iv_json_writer_begin_object (w);
  if (info)
    {
      iv_json_writer_key (w, "metadata");
      iv_json_writer_begin_object (w);
      write_items (w, info->metadata);
      iv_json_writer_end_object (w);
      iv_json_writer_key (w, "attributes");
      iv_json_writer_begin_object (w);
      write_items (w, info->attributes);
      iv_json_writer_end_object (w);
      iv_json_writer_key (w, "distributed");
      iv_json_writer_begin_object (w);
      write_items (w, info->distributed);
      iv_json_writer_key (w, "process_groups");
      write_groups (w, info->process_groups);
      iv_json_writer_end_object (w);
      iv_json_writer_key (w, "devices");
      write_groups (w, info->devices);
      iv_json_writer_key (w, "dropped");
      iv_json_writer_int (w, (gint64) MIN (info->n_dropped, (guint64) G_MAXINT64));
    }
  iv_json_writer_end_object (w);
}

/* "key = value" pairs of @items, at most @max of them, each value at most 60 characters. */
static void
append_items (GString *s, const GPtrArray *items, guint max)
{
  guint shown = 0, scalars = 0;

  for (guint i = 0; i < items->len; i++)
    {
      const IvInfoItem *it = items->pdata[i];
      glong n;
      g_autofree char *value = NULL;
      /* objects and arrays (Kineto's INFO log) only in the JSON */
      if (it->kind == IV_INFO_JSON)
        continue;
      if (scalars++ >= max)
        continue;
      n = g_utf8_strlen (it->value, -1);
      value = g_utf8_substring (it->value, 0, MIN (n, 60));
      g_string_append_printf (s, "%s%s = %s%s", shown++ ? "; " : "", it->key, value,
                              n > 60 ? "…" : "");
    }
  if (scalars > max)
    g_string_append_printf (s, "; … (%u in all, --json lists them)", scalars);
}

char **
iv_trace_info_lines (const IvTraceInfo *info)
{
  GPtrArray *lines = g_ptr_array_new ();
  g_autofree char *distributed = iv_trace_info_distributed_summary (info);

  if (distributed)
    g_ptr_array_add (lines, g_strdup_printf ("distributed: %s", distributed));
  for (guint i = 0; info && i < info->devices->len;)
    {
      /* identical devices once, counted: a node's eight GPUs are one line */
      g_autofree char *summary = iv_trace_info_device_summary (info->devices->pdata[i]);
      guint n = 1;
      while (i + n < info->devices->len)
        {
          g_autofree char *next = iv_trace_info_device_summary (info->devices->pdata[i + n]);
          if (strcmp (next, summary) != 0)
            break;
          n++;
        }
      g_ptr_array_add (lines, n > 1 ? g_strdup_printf ("devices: %u × %s", n, summary)
                                    : g_strdup_printf ("device: %s", summary));
      i += n;
    }
  for (guint g = 0; info && g < 2; g++)
    {
      GString *s = g_string_new (g == 0 ? "metadata: " : "attributes: ");
      gsize bare = s->len;
      append_items (s, g == 0 ? info->metadata : info->attributes, 6);
      if (s->len > bare)
        g_ptr_array_add (lines, g_string_free (s, FALSE));
      else
        g_string_free (s, TRUE);
    }
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}
