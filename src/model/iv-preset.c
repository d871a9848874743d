/* iv-preset.c: model architectures. Parameter counts are derived from the architecture
 * (embeddings included, tied embeddings counted once, MTP layers excluded), the same
 * way the published sizes are counted, and checked against them in the tests. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-preset.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-json-doc.h"

IvModel *
iv_model_copy (const IvModel *m)
{
  IvModel *c = g_memdup2 (m, sizeof *m);
  c->name = g_strdup (m->name);
  c->hf_id = g_strdup (m->hf_id);
  c->family = g_strdup (m->family);
  c->source = g_strdup (m->source);
  c->notes = g_strdup (m->notes);
  return c;
}

void
iv_model_free (IvModel *m)
{
  if (!m)
    return;
  g_free (m->name);
  g_free (m->hf_id);
  g_free (m->family);
  g_free (m->source);
  g_free (m->notes);
  g_free (m);
}

gint64
iv_model_value_head_dim (const IvModel *m)
{
  return m->attention == IV_ATTENTION_MLA ? m->d_v : m->dh;
}

void
iv_model_count_params (IvModel *m)
{
  double d = m->d, H = m->H, dh = m->dh;
  double emb = (double) m->V * d * (m->tied ? 1 : 2);
  double attn, norms = (double) m->norms_per_layer * d;
  double dense_ffn = 3.0 * d * m->F;
  double total, active;

  if (m->attention == IV_ATTENTION_MLA)
    {
      double qk = m->d_n + m->d_r;
      attn = m->r_q > 0 ? d * m->r_q + m->r_q + m->r_q * H * qk : d * H * qk;
      attn += d * (m->r_kv + m->d_r) + m->r_kv + m->r_kv * H * (m->d_n + m->d_v) + H * m->d_v * d;
    }
  else
    {
      attn = 2 * d * H * dh + 2 * d * m->Hkv * dh;
      if (m->qkv_bias)
        attn += H * dh + 2.0 * m->Hkv * dh;
      if (m->qk_norm)
        attn += 2 * dh;
    }
  total = active = emb + d + m->n_layers * (attn + norms);
  if (m->E > 0)
    {
      double moe_total = d * m->E + m->E * 3.0 * d * m->F_e + m->E_s * 3.0 * d * m->F_s;
      double moe_active = d * m->E + m->k * 3.0 * d * m->F_e + m->E_s * 3.0 * d * m->F_s;
      total += m->n_dense * dense_ffn + (m->n_layers - m->n_dense) * moe_total;
      active += m->n_dense * dense_ffn + (m->n_layers - m->n_dense) * moe_active;
    }
  else
    {
      total += m->n_layers * dense_ffn;
      active += m->n_layers * dense_ffn;
    }
  m->params_total = total;
  m->params_active = active;
}

/* -------- shape rules -------- */

/* Sizes well beyond any published model (the largest have d = 16,384, 128 heads, 256
 * experts, a 256k vocabulary) and small enough that the model's products of them stay
 * exact in doubles and far from overflowing in integers. */
#define MAX_WIDTH (G_GINT64_CONSTANT (1) << 20) /* d, F, F_e, F_s, ranks, head dims */
#define MAX_COUNT (G_GINT64_CONSTANT (1) << 16) /* layers, heads, experts */
#define MAX_VOCAB (G_GINT64_CONSTANT (1) << 24)
#define MAX_WINDOW (G_GINT64_CONSTANT (1) << 32)

static gboolean
out_of_range (GError **error, const char *source, const char *field, gint64 v, gint64 lo, gint64 hi)
{
  if (v >= lo && v <= hi)
    return FALSE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "%s: “%s” must be from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
               ", not %" G_GINT64_FORMAT,
               source, field, lo, hi, v);
  return TRUE;
}

gboolean
iv_model_check_shape (const IvModel *m, const char *source, GError **error)
{
  gboolean moe = m->E > 0;

  g_return_val_if_fail (m != NULL && source != NULL, FALSE);

  if (out_of_range (error, source, "hidden_size", m->d, 1, MAX_WIDTH)
      || out_of_range (error, source, "num_hidden_layers", m->n_layers, 1, MAX_COUNT)
      || out_of_range (error, source, "num_attention_heads", m->H, 1, MAX_COUNT)
      || out_of_range (error, source, "num_key_value_heads", m->Hkv, 1, m->H)
      || out_of_range (error, source, "head_dim", m->dh, 1, MAX_WIDTH)
      || out_of_range (error, source, "intermediate_size", m->F, 0, MAX_WIDTH)
      || out_of_range (error, source, "vocab_size", m->V, 1, MAX_VOCAB)
      || out_of_range (error, source, "num_experts", m->E, 0, MAX_COUNT)
      || out_of_range (error, source, "sliding_window", m->window, 0, MAX_WINDOW)
      || out_of_range (error, source, "first_k_dense_replace", m->n_dense, 0, m->n_layers)
      || out_of_range (error, source, "n_shared_experts", m->E_s, 0, MAX_COUNT)
      || out_of_range (error, source, "shared_expert_intermediate_size", m->F_s, 0, MAX_WIDTH))
    return FALSE;
  if (m->H % m->Hkv != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “num_key_value_heads” (%" G_GINT64_FORMAT ") must divide "
                   "“num_attention_heads” (%" G_GINT64_FORMAT ")",
                   source, m->Hkv, m->H);
      return FALSE;
    }
  if (moe
      && (out_of_range (error, source, "num_experts_per_tok", m->k, 1, m->E)
          || out_of_range (error, source, "moe_intermediate_size", m->F_e, 1, MAX_WIDTH)))
    return FALSE;
  if (!moe && m->F < 1)
    return !out_of_range (error, source, "intermediate_size", m->F, 1, MAX_WIDTH);
  if (m->attention == IV_ATTENTION_MLA
      && (out_of_range (error, source, "q_lora_rank", m->r_q, 0, MAX_WIDTH)
          || out_of_range (error, source, "kv_lora_rank", m->r_kv, 1, MAX_WIDTH)
          || out_of_range (error, source, "qk_nope_head_dim", m->d_n, 1, MAX_WIDTH)
          || out_of_range (error, source, "qk_rope_head_dim", m->d_r, 1, MAX_WIDTH)
          || out_of_range (error, source, "v_head_dim", m->d_v, 1, MAX_WIDTH)))
    return FALSE;
  return TRUE;
}

/* -------- presets (TSV) -------- */

static const char *
family_of (const char *name)
{
  static const char *const families[][2] = {
    { "Qwen2.5", "Qwen 2.5" },  { "Qwen2", "Qwen 2" },    { "Qwen3", "Qwen 3" },
    { "Llama-2", "Llama 2" },   { "Llama-3", "Llama 3" }, { "Mistral", "Mistral" },
    { "Mixtral", "Mistral" },   { "Gemma", "Gemma" },     { "Phi", "Phi" },
    { "DeepSeek", "DeepSeek" }, { "Grok", "Grok" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (g_str_has_prefix (name, families[i][0]))
      return families[i][1];
  return "Other";
}

typedef struct
{
  char **cells;
  GHashTable *columns;
  const char *source;
  guint line;
} Row;

static const char *
cell (Row *r, const char *column)
{
  gpointer index;
  if (!g_hash_table_lookup_extended (r->columns, column, NULL, &index))
    return NULL;
  return r->cells[GPOINTER_TO_UINT (index)];
}

/* "-", "null", "?" and prose mean "none": 0. Leading digits count ("4096 (alternating)"). */
static gboolean
cell_int (Row *r, const char *column, gboolean required, gint64 *out, GError **error)
{
  const char *v = cell (r, column);
  char *end;
  gint64 x;

  *out = 0;
  if (!v || !g_ascii_isdigit (v[0]))
    {
      if (required)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: line %u: column “%s” must be a whole number, not “%s”", r->source,
                       r->line, column, v ? v : "");
          return FALSE;
        }
      return TRUE;
    }
  errno = 0;
  x = g_ascii_strtoll (v, &end, 10);
  if (errno == ERANGE)
    {
      /* strtoll stops at its limit: a larger number is not that number */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: line %u: column “%s”: “%s” is too large (the limit is %" G_GINT64_FORMAT
                   ")",
                   r->source, r->line, column, v, G_MAXINT64);
      return FALSE;
    }
  if (x <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: line %u: column “%s” must be positive, not “%s”", r->source, r->line,
                   column, v);
      return FALSE;
    }
  *out = x;
  return TRUE;
}

static IvModel *
parse_row (Row *r, GError **error)
{
  g_autoptr (IvModel) m = g_new0 (IvModel, 1);
  const char *attention = cell (r, "attention");
  const char *shared = cell (r, "shared_expert_intermediate_size");
  const char *window = cell (r, "sliding_window");
  const char *notes = cell (r, "notes");
  const char *tie = cell (r, "tie_word_embeddings");

  m->name = g_strdup (cell (r, "name"));
  m->hf_id = g_strdup (cell (r, "hf_id"));
  m->family = g_strdup (family_of (m->name ? m->name : ""));
  m->source = g_strdup (cell (r, "SOURCES"));
  m->notes = g_strdup (notes);
  if (!m->name || !m->name[0])
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: line %u: no name", r->source,
                   r->line);
      return NULL;
    }
  if (!cell_int (r, "hidden_size", TRUE, &m->d, error)
      || !cell_int (r, "num_layers", TRUE, &m->n_layers, error)
      || !cell_int (r, "num_heads", TRUE, &m->H, error)
      || !cell_int (r, "num_kv_heads", TRUE, &m->Hkv, error)
      || !cell_int (r, "head_dim", TRUE, &m->dh, error)
      || !cell_int (r, "intermediate_size", TRUE, &m->F, error)
      || !cell_int (r, "vocab_size", TRUE, &m->V, error)
      || !cell_int (r, "q_lora_rank", FALSE, &m->r_q, error)
      || !cell_int (r, "kv_lora_rank", FALSE, &m->r_kv, error)
      || !cell_int (r, "qk_nope_head_dim", FALSE, &m->d_n, error)
      || !cell_int (r, "qk_rope_head_dim", FALSE, &m->d_r, error)
      || !cell_int (r, "v_head_dim", FALSE, &m->d_v, error)
      || !cell_int (r, "num_experts", FALSE, &m->E, error)
      || !cell_int (r, "experts_per_token", FALSE, &m->k, error)
      || !cell_int (r, "moe_intermediate_size", FALSE, &m->F_e, error))
    return NULL;
  {
    gint64 nd;
    /* first_k_dense_layers may be 0, which cell_int treats as "none": same thing. */
    const char *v = cell (r, "first_k_dense_layers");
    nd = v && g_ascii_isdigit (v[0]) ? g_ascii_strtoll (v, NULL, 10) : 0;
    m->n_dense = nd;
  }
  m->attention = attention && g_str_equal (attention, "MLA") ? IV_ATTENTION_MLA : IV_ATTENTION_GQA;
  if (m->attention == IV_ATTENTION_MLA
      && (m->r_kv <= 0 || m->d_n <= 0 || m->d_r <= 0 || m->d_v <= 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: line %u: an MLA model needs kv_lora_rank, qk_nope_head_dim, "
                   "qk_rope_head_dim and v_head_dim",
                   r->source, r->line);
      return NULL;
    }
  /* "2x1408": two shared experts of 1408; "20480": one of 20480. */
  if (shared && g_ascii_isdigit (shared[0]))
    {
      const char *x = strchr (shared, 'x');
      m->E_s = x ? g_ascii_strtoll (shared, NULL, 10) : 1;
      m->F_s = g_ascii_strtoll (x ? x + 1 : shared, NULL, 10);
    }
  if (m->E > 0 && m->F_e == 0)
    m->F_e = m->F;
  if (window && g_ascii_isdigit (window[0]))
    {
      m->window = g_ascii_strtoll (window, NULL, 10);
      m->window_kind = strstr (window, "alternating") ? IV_WINDOW_ALTERNATING : IV_WINDOW_ALL;
    }
  m->tied = tie && g_str_has_prefix (tie, "true");
  m->qkv_bias = notes && strstr (notes, "qkv bias") != NULL;
  m->qk_norm = g_str_has_prefix (m->name, "Qwen3");
  m->norms_per_layer = g_str_has_prefix (m->name, "Gemma-2") ? 4 : 2;
  {
    g_autofree char *where = g_strdup_printf ("%s: line %u", r->source, r->line);
    if (!iv_model_check_shape (m, where, error))
      return NULL;
  }
  {
    const char *t = cell (r, "params_total_B"), *a = cell (r, "params_active_B");
    m->published_total = t && g_ascii_isdigit (t[0]) ? g_ascii_strtod (t, NULL) * 1e9 : 0;
    m->published_active = a && g_ascii_isdigit (a[0]) ? g_ascii_strtod (a, NULL) * 1e9 : 0;
  }
  iv_model_count_params (m);
  return g_steal_pointer (&m);
}

GPtrArray *
iv_presets_parse_tsv (const char *text, const char *source_name, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_auto (GStrv) header = NULL;
  g_autoptr (GHashTable) columns = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) models = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_model_free);

  if (!lines[0] || !lines[0][0])
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: empty", source_name);
      return NULL;
    }
  header = g_strsplit (g_strchomp (lines[0]), "\t", -1);
  for (guint i = 0; header[i]; i++)
    g_hash_table_insert (columns, header[i], GUINT_TO_POINTER (i));
  for (guint l = 1; lines[l]; l++)
    {
      g_auto (GStrv) cells = NULL;
      Row row;
      IvModel *m;

      g_strchomp (lines[l]);
      if (!lines[l][0] || lines[l][0] == '#')
        continue;
      cells = g_strsplit (lines[l], "\t", -1);
      if (g_strv_length (cells) < g_strv_length (header))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: line %u: %u columns, the header has %u", source_name, l + 1,
                       g_strv_length (cells), g_strv_length (header));
          return NULL;
        }
      row = (Row){ cells, columns, source_name, l + 1 };
      m = parse_row (&row, error);
      if (!m)
        return NULL;
      g_ptr_array_add (models, m);
    }
  return g_steal_pointer (&models);
}

GPtrArray *
iv_presets_get (void)
{
  static GPtrArray *presets;
  static gsize init;

  if (g_once_init_enter (&init))
    {
      g_autoptr (GBytes) bytes = g_resources_lookup_data (
          "/io/github/inferview/Inferview/presets/model-presets.tsv", 0, NULL);
      g_autoptr (GError) error = NULL;
      g_autofree char *text
          = bytes ? g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)) : NULL;
      presets = text ? iv_presets_parse_tsv (text, "model-presets.tsv", &error) : NULL;
      if (!presets)
        {
          /* The file ships inside the binary: failing here is a build error. */
          g_critical ("bundled model presets unusable: %s", error ? error->message : "missing");
          presets = g_ptr_array_new ();
        }
      g_once_init_leave (&init, 1);
    }
  return presets;
}

const IvModel *
iv_presets_find (const char *name)
{
  GPtrArray *p = iv_presets_get ();

  for (guint i = 0; i < p->len; i++)
    if (g_ascii_strcasecmp (((IvModel *) p->pdata[i])->name, name) == 0)
      return p->pdata[i];
  return NULL;
}

/* -------- Hugging Face config.json -------- */

typedef struct
{
  JsonObject *o;
  const char *file;
} Config;

static gboolean
get_int (Config *c, const char *key, gboolean required, gint64 fallback, gint64 *out,
         GError **error)
{
  JsonNode *n = json_object_get_member (c->o, key);

  if (!n || JSON_NODE_HOLDS_NULL (n))
    {
      if (required)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the field “%s” is missing",
                       c->file, key);
          return FALSE;
        }
      *out = fallback;
      return TRUE;
    }
  /* JSON has numbers, not integers: 4096.0 is the whole number 4096. A number too large
   * for a 64-bit integer is said to be so; json-glib wraps one written as digits round to
   * a negative value, so a negative value gets the whole range, limit included. */
  if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (n);
      if (v == floor (v) && v >= 9223372036854775808.0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: the field “%s” is %g, too large (the limit is %" G_GINT64_FORMAT ")",
                       c->file, key, v, G_MAXINT64);
          return FALSE;
        }
      if (v == floor (v) && v >= 0)
        {
          *out = (gint64) v;
          return TRUE;
        }
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64
      || json_node_get_int (n) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: the field “%s” must be a whole number from 0 to %" G_GINT64_FORMAT, c->file,
                   key, G_MAXINT64);
      return FALSE;
    }
  *out = json_node_get_int (n);
  return TRUE;
}

static gboolean
get_bool (Config *c, const char *key, gboolean fallback)
{
  JsonNode *n = json_object_get_member (c->o, key);
  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN
             ? json_node_get_boolean (n)
             : fallback;
}

static const char *const supported_types[] = {
  "llama",     "mistral", "mixtral", "qwen2",       "qwen2_moe",   "qwen3",
  "qwen3_moe", "gemma2",  "phi3",    "deepseek_v2", "deepseek_v3", NULL,
};

IvModel *
iv_model_from_hf_json (const char *json, const char *name, GError **error)
{
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (json != NULL && name != NULL, NULL);

  root = iv_json_parse (json, strlen (json), name, error);
  return root ? iv_model_from_hf_node (root, name, error) : NULL;
}

IvModel *
iv_model_from_hf_node (JsonNode *root, const char *name, GError **error)
{
  g_autoptr (IvModel) m = g_new0 (IvModel, 1);
  Config c = { NULL, name };
  const char *type;
  gboolean ok = TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", name);
      return NULL;
    }
  c.o = json_node_get_object (root);
  type = iv_json_string (c.o, "model_type");
  if (!type)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: the field “model_type” is missing", name);
      return NULL;
    }
  if (!g_strv_contains (supported_types, type))
    {
      g_autofree char *list = g_strjoinv (", ", (char **) supported_types);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: model_type “%s” is not supported (supported: %s)", name, type, list);
      return NULL;
    }

  ok = get_int (&c, "hidden_size", TRUE, 0, &m->d, error)
       && get_int (&c, "num_hidden_layers", TRUE, 0, &m->n_layers, error)
       && get_int (&c, "num_attention_heads", TRUE, 0, &m->H, error)
       && get_int (&c, "vocab_size", TRUE, 0, &m->V, error)
       && get_int (&c, "intermediate_size", TRUE, 0, &m->F, error)
       && get_int (&c, "num_key_value_heads", FALSE, m->H, &m->Hkv, error);
  if (ok && (m->d == 0 || m->n_layers == 0 || m->H == 0 || m->V == 0))
    {
      g_set_error (
          error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
          "%s: hidden_size, num_hidden_layers, num_attention_heads and vocab_size must be positive",
          name);
      return NULL;
    }
  if (ok)
    ok = get_int (&c, "head_dim", FALSE, m->d / m->H, &m->dh, error);
  if (ok && m->dh == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “head_dim” must be at least 1 (hidden_size / num_attention_heads is 0)",
                   name);
      return NULL;
    }
  if (!ok)
    return NULL;

  m->name = g_strdup (name);
  m->source = g_strdup ("Hugging Face config.json");
  m->tied = get_bool (&c, "tie_word_embeddings", g_str_equal (type, "gemma2"));
  m->norms_per_layer = g_str_equal (type, "gemma2") ? 4 : 2;
  m->qkv_bias = g_str_has_prefix (type, "qwen2") ? TRUE : get_bool (&c, "attention_bias", FALSE);
  m->qk_norm = g_str_has_prefix (type, "qwen3");

  if (g_str_equal (type, "mixtral"))
    {
      ok = get_int (&c, "num_local_experts", TRUE, 0, &m->E, error)
           && get_int (&c, "num_experts_per_tok", TRUE, 0, &m->k, error);
      m->F_e = m->F;
    }
  else if (g_str_equal (type, "qwen2_moe") || g_str_equal (type, "qwen3_moe"))
    {
      ok = get_int (&c, "num_experts", TRUE, 0, &m->E, error)
           && get_int (&c, "num_experts_per_tok", TRUE, 0, &m->k, error)
           && get_int (&c, "moe_intermediate_size", TRUE, 0, &m->F_e, error)
           && get_int (&c, "shared_expert_intermediate_size", FALSE, 0, &m->F_s, error);
      m->E_s = m->F_s > 0 ? 1 : 0;
    }
  else if (g_str_has_prefix (type, "deepseek"))
    {
      gint64 first_dense;
      m->attention = IV_ATTENTION_MLA;
      ok = get_int (&c, "q_lora_rank", FALSE, 0, &m->r_q, error)
           && get_int (&c, "kv_lora_rank", TRUE, 0, &m->r_kv, error)
           && get_int (&c, "qk_nope_head_dim", TRUE, 0, &m->d_n, error)
           && get_int (&c, "qk_rope_head_dim", TRUE, 0, &m->d_r, error)
           && get_int (&c, "v_head_dim", TRUE, 0, &m->d_v, error)
           && get_int (&c, "n_routed_experts", TRUE, 0, &m->E, error)
           && get_int (&c, "num_experts_per_tok", TRUE, 0, &m->k, error)
           && get_int (&c, "n_shared_experts", FALSE, 0, &m->E_s, error)
           && get_int (&c, "moe_intermediate_size", TRUE, 0, &m->F_e, error)
           && get_int (&c, "first_k_dense_replace", FALSE, 0, &first_dense, error);
      if (ok)
        {
          m->F_s = m->F_e;
          m->n_dense = first_dense;
          m->dh = m->d_n + m->d_r;
          m->Hkv = m->H;
        }
    }
  if (!ok)
    return NULL;

  /* Sliding windows: Mistral and Phi-3 on every layer; Qwen 2 only when enabled;
   * Gemma 2 on every other layer. */
  {
    gint64 w = 0;
    if (!get_int (&c, "sliding_window", FALSE, 0, &w, error))
      return NULL;
    if (w > 0 && g_str_equal (type, "gemma2"))
      m->window_kind = IV_WINDOW_ALTERNATING;
    else if (w > 0
             && (g_str_equal (type, "mistral") || g_str_equal (type, "phi3")
                 || (g_str_has_prefix (type, "qwen")
                     && get_bool (&c, "use_sliding_window", FALSE))))
      m->window_kind = IV_WINDOW_ALL;
    m->window = m->window_kind != IV_WINDOW_NONE ? w : 0;
  }
  /* §2.3: a quantized checkpoint names its formats */
  {
    JsonObject *q = iv_json_object (c.o, "quantization_config");
    if (json_object_has_member (c.o, "quantization_config") && !q)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: the field “quantization_config” must be an object", name);
        return NULL;
      }
    if (q && !iv_format_from_quantization (q, name, &m->fmt_w, &m->fmt_a, error))
      return NULL;
  }
  m->family = g_strdup (family_of (name));
  if (!iv_model_check_shape (m, name, error))
    return NULL;
  iv_model_count_params (m);
  return g_steal_pointer (&m);
}

IvModel *
iv_model_from_hf_config (const char *path, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (dir);
  g_autoptr (JsonNode) root = iv_json_load (path, error);
  IvModel *m;

  if (!root)
    return NULL;
  m = iv_model_from_hf_node (root, display, error);
  if (m)
    {
      /* Hugging Face checkouts name the folder after the model. */
      g_free (m->name);
      m->name = g_strdup (g_str_equal (name, ".") ? "imported model" : name);
    }
  return m;
}
