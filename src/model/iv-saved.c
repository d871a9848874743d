/* iv-saved.c: saved model configurations as JSON:
 *   {"version": 1, "configurations": [{"name": "config1", "model": "Llama-3.1-8B",
 *    "hardware": "ring4", "mode": "prefill", "batch": 1, "tq": 8192, "context": 0,
 *    "tp": 4, "cp": 1, "tp_place": "pe", "cp_place": "cube", "ring": "kv",
 *    "weight_bytes": 2, "act_bytes": 2, "kv_bytes": 2, "partial_bytes": 4,
 *    "weight_format": "bf16", "act_format": "bf16", "kv_format": "bf16", "ep": 1,
 *    "ep_place": "cube", "imbalance": 1, "overlap": false, "reserve": 0.1}]}
 * (the members from "weight_format" on are optional: older files have none)
 * Every member is checked on load. A configuration with a problem is left out and
 * described (naming it and the member); the others load, so one bad entry never costs
 * the user the rest. A file that is not a configurations file at all fails whole. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-saved.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iv-atomic-file.h"
#include "iv-input.h"
#include "iv-json-doc.h"
#include "iv-json-writer.h"

void
iv_saved_free (IvSaved *s)
{
  if (!s)
    return;
  g_free (s->name);
  g_free (s->model);
  g_free (s->hf_config);
  g_free (s->hardware);
  iv_hardware_free (s->hardware_spec);
  g_free (s);
}

IvSaved *
iv_saved_copy (const IvSaved *s)
{
  IvSaved *c = g_new0 (IvSaved, 1);
  c->name = g_strdup (s->name);
  c->model = g_strdup (s->model);
  c->hf_config = g_strdup (s->hf_config);
  c->hardware = g_strdup (s->hardware);
  c->hardware_spec = s->hardware_spec ? iv_hardware_copy (s->hardware_spec) : NULL;
  c->config = s->config;
  return c;
}

static gboolean
fail (GError **error, const char *path, guint index, const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: configuration %u: %s", path,
               index + 1, what);
  return FALSE;
}

static gboolean
get_string (JsonObject *o, const char *key, const char *path, guint i, gboolean optional,
            char **out, GError **error)
{
  JsonNode *n = json_object_get_member (o, key);
  g_autofree char *what = NULL;

  if (!n && optional)
    return TRUE;
  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
      && *json_node_get_string (n))
    {
      *out = g_strdup (json_node_get_string (n));
      return TRUE;
    }
  what = g_strdup_printf ("“%s” must be a non-empty string", key);
  return fail (error, path, i, what);
}

static gboolean
get_int (JsonObject *o, const char *key, gint64 lo, gint64 hi, const char *path, guint i,
         gint64 *out, GError **error)
{
  JsonNode *n = json_object_get_member (o, key);
  g_autofree char *what = NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64
      && json_node_get_int (n) >= lo && json_node_get_int (n) <= hi)
    {
      *out = json_node_get_int (n);
      return TRUE;
    }
  what = g_strdup_printf ("“%s” must be an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                          key, lo, hi);
  return fail (error, path, i, what);
}

/* An optional number from @lo (excluded when @lo_open) to @hi; @unit names what it counts
 * in the refusal (" of bytes"), or is "". */
static gboolean
get_number (JsonObject *o, const char *key, double lo, gboolean lo_open, double hi,
            const char *unit, const char *path, guint i, double *out, GError **error)
{
  JsonNode *n = json_object_get_member (o, key);
  g_autofree char *what = NULL;

  if (!n)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (n)
      && (json_node_get_value_type (n) == G_TYPE_INT64
          || json_node_get_value_type (n) == G_TYPE_DOUBLE)
      && (lo_open ? json_node_get_double (n) > lo : json_node_get_double (n) >= lo)
      && json_node_get_double (n) <= hi)
    {
      *out = json_node_get_double (n);
      return TRUE;
    }
  what = g_strdup_printf ("“%s” must be a number%s from %g to %g", key, unit, lo, hi);
  return fail (error, path, i, what);
}

/* Bytes per element: optional (the defaults), a positive number when present. */
static gboolean
get_bytes (JsonObject *o, const char *key, const char *path, guint i, double *out, GError **error)
{
  return get_number (o, key, 0, TRUE, 64, " of bytes", path, i, out, error);
}

static gboolean
get_choice (JsonObject *o, const char *key, const char *a, const char *b, const char *path, guint i,
            int *out, GError **error)
{
  g_autofree char *v = NULL;
  g_autofree char *what = NULL;

  if (!get_string (o, key, path, i, FALSE, &v, error))
    return FALSE;
  if (g_str_equal (v, a) || g_str_equal (v, b))
    {
      *out = g_str_equal (v, b);
      return TRUE;
    }
  what = g_strdup_printf ("“%s” must be %s or %s", key, a, b);
  return fail (error, path, i, what);
}

/* The members issue 34 added, each optional (older files have none): the formats, EP, its
 * imbalance and placement, overlap and the runtime reserve. */
static gboolean
get_format (JsonObject *o, const char *key, const char *path, guint i, IvFormat *out,
            GError **error)
{
  g_autofree char *v = NULL;
  g_autofree char *what = NULL;

  if (!json_object_has_member (o, key))
    return TRUE;
  if (!get_string (o, key, path, i, FALSE, &v, error))
    return FALSE;
  if (iv_format_from_string (v, out))
    return TRUE;
  what = g_strdup_printf ("“%s” must be a number format (bf16, fp16, fp8, fp8-e5m2, int8, int4, "
                          "nvfp4 or mxfp4)",
                          key);
  return fail (error, path, i, what);
}

static gboolean
get_range (JsonObject *o, const char *key, double lo, double hi, const char *path, guint i,
           double *out, GError **error)
{
  return get_number (o, key, lo, FALSE, hi, "", path, i, out, error);
}

static gboolean
parse_issue34 (JsonObject *o, const char *path, guint i, IvConfig *c, GError **error)
{
  int epp = 1;

  if (!get_format (o, "weight_format", path, i, &c->f_w, error)
      || !get_format (o, "act_format", path, i, &c->f_a, error)
      || !get_format (o, "kv_format", path, i, &c->f_kv, error)
      || (json_object_has_member (o, "ep") && !get_int (o, "ep", 1, 1 << 20, path, i, &c->e, error))
      || (json_object_has_member (o, "ep_place")
          && !get_choice (o, "ep_place", "pe", "cube", path, i, &epp, error))
      || !get_range (o, "imbalance", 1, 64, path, i, &c->imbalance, error)
      || !get_range (o, "reserve", 0, 0.9, path, i, &c->reserve, error))
    return FALSE;
  c->place_ep = epp ? IV_PLACE_CUBE : IV_PLACE_PE;
  if (json_object_has_member (o, "overlap") && !iv_json_bool (o, "overlap", &c->overlap))
    return fail (error, path, i, "“overlap” must be true or false");
  if (iv_format_weights_only (c->f_a) || iv_format_weights_only (c->f_kv))
    return fail (error, path, i, "INT4 is a weight-only format: not for activations or KV");
  return TRUE;
}

static IvSaved *
parse_one (JsonNode *node, const char *path, guint i, GError **error)
{
  g_autoptr (IvSaved) s = g_new0 (IvSaved, 1);
  JsonObject *o;
  int mode, tpp, cpp, ring;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, path, i, "not a JSON object");
      return NULL;
    }
  o = json_node_get_object (node);
  iv_config_init (&s->config);
  if (!get_string (o, "name", path, i, FALSE, &s->name, error)
      || !get_string (o, "model", path, i, FALSE, &s->model, error)
      || !get_string (o, "hf_config", path, i, TRUE, &s->hf_config, error)
      || !get_string (o, "hardware", path, i, FALSE, &s->hardware, error)
      || !get_choice (o, "mode", "prefill", "decode", path, i, &mode, error)
      || !get_int (o, "batch", 1, G_MAXINT32, path, i, &s->config.B, error)
      || !get_int (o, "tq", 1, G_MAXINT32, path, i, &s->config.T, error)
      || !get_int (o, "context", 0, G_MAXINT32, path, i, &s->config.P, error)
      || !get_int (o, "tp", 1, 1 << 20, path, i, &s->config.t, error)
      || !get_int (o, "cp", 1, 1 << 20, path, i, &s->config.c, error)
      || !get_choice (o, "tp_place", "pe", "cube", path, i, &tpp, error)
      || !get_choice (o, "cp_place", "pe", "cube", path, i, &cpp, error)
      || !get_choice (o, "ring", "kv", "qoml", path, i, &ring, error)
      || !get_bytes (o, "weight_bytes", path, i, &s->config.e_w, error)
      || !get_bytes (o, "act_bytes", path, i, &s->config.e_a, error)
      || !get_bytes (o, "kv_bytes", path, i, &s->config.e_kv, error)
      || !get_bytes (o, "partial_bytes", path, i, &s->config.e_p, error)
      || !parse_issue34 (o, path, i, &s->config, error))
    return NULL;
  /* An edited SIP travels with the configuration, checked like a hardware file. */
  {
    JsonNode *spec = json_object_get_member (o, "hardware_spec");
    if (spec)
      {
        g_autofree char *source
            = g_strdup_printf ("%s: configuration %u: hardware_spec", path, i + 1);
        if (!JSON_NODE_HOLDS_OBJECT (spec))
          {
            fail (error, path, i, "“hardware_spec” must be a hardware object");
            return NULL;
          }
        s->hardware_spec = iv_hardware_from_node (spec, source, error);
        if (!s->hardware_spec)
          return NULL;
        g_free (s->hardware_spec->name);
        s->hardware_spec->name = g_strdup (s->hardware);
      }
  }
  s->config.mode = mode ? IV_MODE_DECODE : IV_MODE_PREFILL;
  s->config.place_tp = tpp ? IV_PLACE_CUBE : IV_PLACE_PE;
  s->config.place_cp = cpp ? IV_PLACE_CUBE : IV_PLACE_PE;
  s->config.ring = ring ? IV_RING_QOML : IV_RING_KV;
  return g_steal_pointer (&s);
}

GPtrArray *
iv_saved_parse (const char *text, gsize len, const char *source, GPtrArray **skipped,
                GError **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  g_autoptr (JsonNode) root = NULL;
  gint64 version = 1;
  JsonArray *items;
  JsonObject *o;

  if (skipped)
    *skipped = g_ptr_array_new_with_free_func (g_free);
  root = iv_json_parse (text, len, source, error);
  if (!root)
    return NULL;
  o = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (!(items = iv_json_array (o, "configurations")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a configurations file (an object with a “configurations” array)",
                   source);
      return NULL;
    }
  if (json_object_has_member (o, "version")
      && (!iv_json_int (o, "version", &version) || version != 1))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: version %" G_GINT64_FORMAT " is not one this Inferview reads (1)", source,
                   version);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      g_autoptr (GError) bad = NULL;
      IvSaved *s = parse_one (json_array_get_element (items, i), source, i, &bad);
      if (s)
        g_ptr_array_add (list, s);
      else if (skipped)
        g_ptr_array_add (*skipped, g_strdup (bad->message));
    }
  return g_steal_pointer (&list);
}

GPtrArray *
iv_saved_load (const char *path, GPtrArray **skipped, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  if (skipped)
    *skipped = NULL;
  text = iv_input_load_document (path, IV_INPUT_DOCUMENT_MAX, &len, &local);
  if (!text)
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          if (skipped)
            *skipped = g_ptr_array_new_with_free_func (g_free);
          return g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return iv_saved_parse (text, len, path, skipped, error);
}

/* A copy under @aside, never replacing anything that has the name by then; its bytes are
 * the file's as they are (a damaged file is kept for what it was, not re-encoded) and its
 * permissions the file's (a private file's copy stays private). FALSE with
 * G_FILE_ERROR_EXIST when the name was taken meanwhile. */
static gboolean
copy_aside (const char *aside, const char *text, gsize len, guint mode, GError **error)
{
  g_autoptr (IvAtomicFile) copy = iv_atomic_file_new_full (aside, IV_ATOMIC_FILE_NO_REPLACE, error);

  if (!copy)
    return FALSE;
  iv_atomic_file_set_mode (copy, mode);
  return iv_atomic_file_write (copy, text, len, error) && iv_atomic_file_commit (copy, error);
}

char *
iv_saved_set_aside (const char *path, gboolean move, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *target = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;
  GStatBuf st;

  /* A linked dotfile (kept in a repository, say) is set aside where it really is: a
   * link() of the link itself would make a second link to the same file, which the next
   * save writes through — and the contents that could not be read would be gone from
   * both names. */
  if (!(target = iv_atomic_file_resolve_links (path, error)))
    return NULL;
  if (g_stat (target, &st) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", display, g_strerror (e));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   "%s: not a regular file; only a regular file is set aside", display);
      return NULL;
    }
  for (guint n = 1; n < 1000; n++)
    {
      g_autofree char *aside = n == 1 ? g_strconcat (target, ".corrupt", NULL)
                                      : g_strdup_printf ("%s.corrupt-%u", target, n);
      g_autoptr (GError) local = NULL;
      GStatBuf taken;

      /* a name something has — a file, a link — is never followed or replaced */
      if (g_lstat (aside, &taken) == 0)
        continue;
      /* Moved: a second name, then the first one removed; link() never replaces either.
       * Kept in place: a copy, not a link, so the file keeps one name and stays a file
       * the next save may replace (see iv-atomic-file.c on hard links). */
      if (move && link (target, aside) == 0)
        {
          if (g_unlink (target) != 0)
            {
              int e = errno;
              g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", display,
                           g_strerror (e));
              return NULL;
            }
          return g_steal_pointer (&aside);
        }
      if (move && errno == EEXIST)
        continue;
      /* a copy (also where the file system has no hard links), then the removal */
      if (!text && !g_file_get_contents (target, &text, &len, error))
        return NULL;
      if (!copy_aside (aside, text, len, st.st_mode & 07777, &local))
        {
          if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_EXIST))
            continue;
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (move)
        g_unlink (target);
      return g_steal_pointer (&aside);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               "%s: too many set-aside copies already; remove some", display);
  return NULL;
}

void
iv_config_build_json (JsonBuilder *b, const IvConfig *c)
{
  iv_json_member_string (b, "mode", iv_mode_to_string (c->mode));
  iv_json_member_int (b, "batch", c->B);
  iv_json_member_int (b, "tq", c->T);
  iv_json_member_int (b, "context", c->P);
  iv_json_member_int (b, "tp", c->t);
  iv_json_member_int (b, "cp", c->c);
  iv_json_member_string (b, "tp_place", iv_place_to_string (c->place_tp));
  iv_json_member_string (b, "cp_place", iv_place_to_string (c->place_cp));
  iv_json_member_string (b, "ring", iv_ring_to_string (c->ring));
  iv_json_member_double (b, "weight_bytes", c->e_w);
  iv_json_member_double (b, "act_bytes", c->e_a);
  iv_json_member_double (b, "kv_bytes", c->e_kv);
  iv_json_member_double (b, "partial_bytes", c->e_p);
  iv_json_member_string (b, "weight_format", iv_format_id (c->f_w));
  iv_json_member_string (b, "act_format", iv_format_id (c->f_a));
  iv_json_member_string (b, "kv_format", iv_format_id (c->f_kv));
  iv_json_member_int (b, "ep", c->e);
  iv_json_member_string (b, "ep_place", iv_place_to_string (c->place_ep));
  iv_json_member_double (b, "imbalance", c->imbalance);
  iv_json_member_bool (b, "overlap", c->overlap);
  iv_json_member_double (b, "reserve", c->reserve);
}

gboolean
iv_saved_save (GPtrArray *list, const char *path, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  iv_json_member_int (b, "version", 1);
  json_builder_set_member_name (b, "configurations");
  json_builder_begin_array (b);
  for (guint i = 0; i < list->len; i++)
    {
      const IvSaved *s = list->pdata[i];
      json_builder_begin_object (b);
      iv_json_member_string (b, "name", s->name);
      iv_json_member_string (b, "model", s->model);
      if (s->hf_config)
        iv_json_member_string (b, "hf_config", s->hf_config);
      iv_json_member_string (b, "hardware", s->hardware);
      if (s->hardware_spec)
        {
          json_builder_set_member_name (b, "hardware_spec");
          json_builder_add_value (b, iv_hardware_to_node (s->hardware_spec));
        }
      iv_config_build_json (b, &s->config);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = iv_json_to_string (root, TRUE);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", dir, g_strerror (e));
      return FALSE;
    }
  return iv_atomic_file_set_contents (path, text, -1, error);
}

/* One pass over the names, then the first free number: linear in their count. Probing
 * config1, config2, … against the whole list each time was quadratic — 20,000 saved
 * configurations took seconds at every start and every save. */
char *
iv_saved_next_name (GPtrArray *list)
{
  g_autoptr (GHashTable) taken = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < list->len; i++)
    g_hash_table_add (taken, ((IvSaved *) list->pdata[i])->name);
  /* among list->len + 1 numbers one is free */
  for (guint n = 1;; n++)
    {
      g_autofree char *name = g_strdup_printf ("config%u", n);
      if (!g_hash_table_contains (taken, name))
        return g_steal_pointer (&name);
    }
}

gboolean
iv_saved_resolve (const IvSaved *s, GPtrArray *imported, const IvModel **model,
                  const IvHardware **hardware, GError **error)
{
  *model = iv_presets_find (s->model);
  for (guint i = 0; !*model && imported && i < imported->len; i++)
    if (g_str_equal (((IvModel *) imported->pdata[i])->name, s->model))
      *model = imported->pdata[i];
  *hardware = s->hardware_spec ? s->hardware_spec : iv_hardware_find (s->hardware);
  if (!*model)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: the model “%s” is neither a preset nor open%s%s", s->name, s->model,
                   s->hf_config ? "; open " : "", s->hf_config ? s->hf_config : "");
      return FALSE;
    }
  if (!*hardware)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no hardware preset “%s”", s->name,
                   s->hardware);
      return FALSE;
    }
  return TRUE;
}

char *
iv_saved_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "inferview", "model-configurations.json", NULL);
}
