/* iv-parquet.c: reading flat Parquet files (see the header). The layout, from
 * apache/parquet-format (README.md, Encodings.md, src/main/thrift/parquet.thrift):
 *
 *   "PAR1" · column chunks (pages) · footer (FileMetaData, Thrift compact) · 4-byte
 *   footer length · "PAR1"
 *
 * A column chunk is a run of pages, each a Thrift PageHeader then its bytes: at most one
 * dictionary page first, then data pages. A data page v1 is compressed whole and holds
 * the definition levels (a 4-byte length, then the RLE/bit-packed hybrid) before the
 * values; a v2 page keeps its levels uncompressed ahead of the compressed values. Values
 * are PLAIN, or indices into the dictionary (a bit width byte, then the hybrid).
 *
 * Every count and size comes from the file, so each is checked against the bytes that
 * hold it before it sizes a loop or an allocation: a Thrift list has at most as many
 * elements as bytes left, a page at most the bytes of its chunk, a page's values at most
 * the rows its row group has left, and the rows of the file at most what its size allows
 * (the header). A refusal names the column, the row group and the byte where its page
 * starts. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-parquet.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>
#include <zstd.h>

#include "iv-input.h"
#include "iv-safe-text.h"
#include "iv-snappy.h"

/* ---------- the footer's structures ---------- */

enum
{
  ENC_PLAIN = 0,
  ENC_PLAIN_DICTIONARY = 2,
  ENC_RLE = 3,
  ENC_BIT_PACKED = 4,
  ENC_RLE_DICTIONARY = 8,
};

enum
{
  CODEC_UNCOMPRESSED = 0,
  CODEC_SNAPPY = 1,
  CODEC_ZSTD = 6,
};

enum
{
  PAGE_DATA = 0,
  PAGE_INDEX = 1,
  PAGE_DICTIONARY = 2,
  PAGE_DATA_V2 = 3,
};

typedef struct
{
  gint32 type, codec;
  gint64 data_page_offset, dictionary_page_offset, total_compressed_size;
  gint64 num_values;
  gboolean has_dictionary_offset;
} Chunk;

typedef struct
{
  gint64 num_rows;
  guint64 first_row; /* the rows of the groups before it */
  Chunk *chunks;     /* one per column (checked: n_chunks is the schema's column count) */
  guint n_chunks;
} RowGroup;

struct _IvParquet
{
  char *name; /* for messages, valid UTF-8 */
  GBytes *bytes;
  const guint8 *data;
  gsize size;
  gsize data_end; /* where the footer begins: pages lie before it */
  guint n_columns;
  IvParquetColumnInfo *columns;
  guint n_groups;
  RowGroup *groups;
  guint64 rows;
  GHashTable *metadata; /* key → value */
  char *created_by;
};

/* ---------- Thrift compact protocol ---------- */

enum
{
  T_STOP = 0,
  T_TRUE = 1,
  T_FALSE = 2,
  T_BYTE = 3,
  T_I16 = 4,
  T_I32 = 5,
  T_I64 = 6,
  T_DOUBLE = 7,
  T_BINARY = 8,
  T_LIST = 9,
  T_SET = 10,
  T_MAP = 11,
  T_STRUCT = 12,
};

/* Structures nest a few levels in parquet.thrift; a file may nest unknown ones deeper,
 * which are skipped, but not without end. */
#define THRIFT_MAX_DEPTH 32

typedef struct
{
  const guint8 *base; /* the file, for offsets */
  const guint8 *p, *end;
  guint depth;
  const char *bad; /* what was wrong (static), NULL while all is well */
  gsize bad_at;    /* its offset in the file */
} Thrift;

static gboolean
t_fail (Thrift *t, const char *what)
{
  if (!t->bad)
    {
      t->bad = what;
      t->bad_at = (gsize) (t->p - t->base);
    }
  return FALSE;
}

static gboolean
t_varint (Thrift *t, guint64 *v)
{
  guint64 r = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;
      if (t->p >= t->end)
        return t_fail (t, "a number is cut off");
      b = *t->p++;
      r |= (guint64) (b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *v = r;
          return TRUE;
        }
    }
  return t_fail (t, "a number is longer than 64 bits");
}

static gboolean
t_i64 (Thrift *t, gint64 *v)
{
  guint64 u;
  if (!t_varint (t, &u))
    return FALSE;
  *v = (gint64) (u >> 1) ^ -(gint64) (u & 1);
  return TRUE;
}

static gboolean
t_i32 (Thrift *t, gint32 *v)
{
  gint64 w;
  if (!t_i64 (t, &w))
    return FALSE;
  if (w < G_MININT32 || w > G_MAXINT32)
    return t_fail (t, "a 32-bit number is out of range");
  *v = (gint32) w;
  return TRUE;
}

static gboolean
t_binary (Thrift *t, const guint8 **data, gsize *len)
{
  guint64 n;
  if (!t_varint (t, &n))
    return FALSE;
  if (n > (guint64) (t->end - t->p))
    return t_fail (t, "a string runs past the end of its structure");
  *data = t->p;
  *len = (gsize) n;
  t->p += n;
  return TRUE;
}

/* A string field as a new UTF-8 string (invalid bytes replaced). */
static gboolean
t_string (Thrift *t, char **out)
{
  const guint8 *d;
  gsize n;
  if (!t_binary (t, &d, &n))
    return FALSE;
  g_free (*out);
  *out = iv_text_valid ((const char *) d, (gssize) n);
  return TRUE;
}

/* The next field of a structure: FALSE at its end (or with t->bad set). */
static gboolean
t_field (Thrift *t, gint16 *last, gint16 *id, guint8 *type)
{
  guint8 b;

  if (t->bad)
    return FALSE;
  if (t->p >= t->end)
    return t_fail (t, "a structure is cut off");
  b = *t->p++;
  *type = b & 0x0f;
  if (*type == T_STOP)
    return FALSE;
  if (b >> 4)
    *id = (gint16) (*last + (b >> 4));
  else
    {
      gint32 v;
      if (!t_i32 (t, &v))
        return FALSE;
      if (v < G_MININT16 || v > G_MAXINT16)
        return t_fail (t, "a field number is out of range");
      *id = (gint16) v;
    }
  *last = *id;
  return TRUE;
}

/* A list's (or set's) element type and size; at most as many elements as bytes left,
 * since every element takes at least one. */
static gboolean
t_list (Thrift *t, guint8 *elem, guint64 *size)
{
  guint8 b;
  if (t->p >= t->end)
    return t_fail (t, "a list is cut off");
  b = *t->p++;
  *elem = b & 0x0f;
  *size = b >> 4;
  if (*size == 15 && !t_varint (t, size))
    return FALSE;
  if (*size > (guint64) (t->end - t->p))
    return t_fail (t, "a list says it has more elements than there are bytes");
  return TRUE;
}

static gboolean t_skip (Thrift *t, guint8 type);

static gboolean
t_skip_struct (Thrift *t)
{
  gint16 last = 0, id;
  guint8 type;

  if (++t->depth > THRIFT_MAX_DEPTH)
    return t_fail (t, "structures nest too deeply");
  while (t_field (t, &last, &id, &type))
    if (!t_skip (t, type))
      return FALSE;
  t->depth--;
  return t->bad == NULL;
}

static gboolean
t_skip (Thrift *t, guint8 type)
{
  guint64 v, n;
  guint8 elem;
  const guint8 *d;
  gsize len;

  switch (type)
    {
    case T_TRUE:
    case T_FALSE:
      return TRUE; /* a field's boolean is in its type */
    case T_BYTE:
      if (t->p >= t->end)
        return t_fail (t, "a byte is cut off");
      t->p++;
      return TRUE;
    case T_I16:
    case T_I32:
    case T_I64:
      return t_varint (t, &v);
    case T_DOUBLE:
      if (t->end - t->p < 8)
        return t_fail (t, "a double is cut off");
      t->p += 8;
      return TRUE;
    case T_BINARY:
      return t_binary (t, &d, &len);
    case T_LIST:
    case T_SET:
      if (!t_list (t, &elem, &n))
        return FALSE;
      if (++t->depth > THRIFT_MAX_DEPTH)
        return t_fail (t, "structures nest too deeply");
      for (guint64 i = 0; i < n; i++)
        {
          /* booleans in a list take a byte each */
          if ((elem == T_TRUE || elem == T_FALSE) ? !t_skip (t, T_BYTE) : !t_skip (t, elem))
            return FALSE;
        }
      t->depth--;
      return TRUE;
    case T_MAP:
      {
        guint8 kv = 0;
        if (!t_varint (t, &n))
          return FALSE;
        if (n == 0)
          return TRUE;
        if (n > (guint64) (t->end - t->p))
          return t_fail (t, "a map says it has more entries than there are bytes");
        if (t->p >= t->end)
          return t_fail (t, "a map is cut off");
        kv = *t->p++;
        if (++t->depth > THRIFT_MAX_DEPTH)
          return t_fail (t, "structures nest too deeply");
        for (guint64 i = 0; i < n; i++)
          {
            guint8 k = kv >> 4, val = kv & 0x0f;
            if (!t_skip (t, k == T_TRUE || k == T_FALSE ? T_BYTE : k)
                || !t_skip (t, val == T_TRUE || val == T_FALSE ? T_BYTE : val))
              return FALSE;
          }
        t->depth--;
        return TRUE;
      }
    case T_STRUCT:
      return t_skip_struct (t);
    default:
      return t_fail (t, "a field has an unknown type");
    }
}

/* Reading a field of the type the structure defines; anything else is damage. */
static gboolean
want_i32 (Thrift *t, guint8 type, gint32 *v)
{
  return type == T_I32 ? t_i32 (t, v) : t_fail (t, "a field has the wrong type");
}

static gboolean
want_i64 (Thrift *t, guint8 type, gint64 *v)
{
  return type == T_I64 ? t_i64 (t, v) : t_fail (t, "a field has the wrong type");
}

static gboolean
want_bool (Thrift *t, guint8 type, gboolean *v)
{
  if (type != T_TRUE && type != T_FALSE)
    return t_fail (t, "a field has the wrong type");
  *v = type == T_TRUE;
  return TRUE;
}

static gboolean
want_string (Thrift *t, guint8 type, char **out)
{
  return type == T_BINARY ? t_string (t, out) : t_fail (t, "a field has the wrong type");
}

/* A list field whose elements must be of type @elem: its length in @n; @not_elem says
 * what is wrong when they are of another. */
static gboolean
want_list (Thrift *t, guint8 type, guint8 elem, guint64 *n, const char *not_elem)
{
  guint8 got;

  if (type != T_LIST)
    return t_fail (t, "a field has the wrong type");
  if (!t_list (t, &got, n))
    return FALSE;
  return got == elem ? TRUE : t_fail (t, not_elem);
}

/* Entering a structure (a field's or a list element's), which struct_done () leaves. */
static gboolean
enter_struct (Thrift *t)
{
  return ++t->depth <= THRIFT_MAX_DEPTH ? TRUE : t_fail (t, "structures nest too deeply");
}

static gboolean
want_struct (Thrift *t, guint8 type)
{
  if (type != T_STRUCT)
    return t_fail (t, "a field has the wrong type");
  return enter_struct (t);
}

/* The end of a structure read field by field: FALSE when it stopped on damage. */
static gboolean
struct_done (Thrift *t)
{
  t->depth--;
  return t->bad == NULL;
}

/* The fields of a structure parquet.thrift defines, read by read_fields (): a scalar
 * field goes to its offset in the structure read (or nowhere, checked and dropped, at
 * NOT_KEPT), and sets bit @seen in the mask read_fields returns. */
typedef enum
{
  FIELD_I32,
  FIELD_I64,
  FIELD_BOOL,
} FieldKind;

#define NOT_KEPT G_MAXSIZE

typedef struct
{
  gint16 id;
  FieldKind kind;
  gsize offset;
  guint seen;
} Field;

/* Reads another field, not in the table: FALSE on damage; may set bits of @seen. */
typedef gboolean (*OtherField) (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen);

static gboolean
read_field (Thrift *t, const Field *f, guint8 type, gpointer base)
{
  gint32 i32;
  gint64 i64;
  gboolean b;

  switch (f->kind)
    {
    case FIELD_I32:
      if (!want_i32 (t, type, &i32))
        return FALSE;
      if (f->offset != NOT_KEPT)
        G_STRUCT_MEMBER (gint32, base, f->offset) = i32;
      return TRUE;
    case FIELD_I64:
      if (!want_i64 (t, type, &i64))
        return FALSE;
      if (f->offset != NOT_KEPT)
        G_STRUCT_MEMBER (gint64, base, f->offset) = i64;
      return TRUE;
    case FIELD_BOOL:
    default:
      if (!want_bool (t, type, &b))
        return FALSE;
      if (f->offset != NOT_KEPT)
        G_STRUCT_MEMBER (gboolean, base, f->offset) = b;
      return TRUE;
    }
}

/* The fields of a structure to its stop: those of @fields (@n) into @base, the others to
 * @other (or skipped without one). The bits of the fields seen go to @seen. FALSE on
 * damage; the caller then ends the structure (struct_done () for a nested one). */
static gboolean
read_fields (Thrift *t, const Field *fields, guint n, gpointer base, OtherField other,
             gpointer data, guint *seen)
{
  gint16 last = 0, id;
  guint8 type;

  *seen = 0;
  while (t_field (t, &last, &id, &type))
    {
      const Field *f = NULL;
      gboolean ok;
      for (guint i = 0; i < n && !f; i++)
        if (fields[i].id == id)
          f = &fields[i];
      if (f)
        {
          ok = read_field (t, f, type, base);
          *seen |= f->seen;
        }
      else if (other)
        ok = other (t, id, type, data, seen);
      else
        ok = t_skip (t, type);
      if (!ok)
        return FALSE;
    }
  return t->bad == NULL;
}

/* Whether a structure has every field it requires (@required, of read_fields's bits). */
static gboolean
has_required (Thrift *t, guint seen, guint required, const char *lacks)
{
  return (seen & required) == required ? TRUE : t_fail (t, lacks);
}

/* A nested structure of scalar fields only, all of @required (of read_fields's bits)
 * there: FALSE on damage, or saying it @lacks one. */
static gboolean
read_scalars (Thrift *t, const Field *fields, guint n, gpointer base, guint required,
              const char *lacks)
{
  guint seen;

  if (!read_fields (t, fields, n, base, NULL, NULL, &seen) || !struct_done (t))
    return FALSE;
  return has_required (t, seen, required, lacks);
}

/* ---------- errors ---------- */

static void
footer_error (GError **error, const IvParquet *f, gsize at, const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "%s: the footer, at byte %" G_GSIZE_FORMAT ", is damaged: %s", f->name, at, what);
}

static void
unsupported (GError **error, const IvParquet *f, const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s: %s", f->name, what);
}

/* ---------- the footer ---------- */

typedef struct
{
  gint32 type, repetition, num_children;
  gboolean has_type, has_repetition;
  char *name;
} SchemaElement;

static gboolean
schema_element_name (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  SchemaElement *e = data;

  if (id != 4)
    return t_skip (t, type);
  *seen |= 1;
  return want_string (t, type, &e->name);
}

static gboolean
read_schema_element (Thrift *t, SchemaElement *e)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (SchemaElement, type), 2 },
    { 3, FIELD_I32, G_STRUCT_OFFSET (SchemaElement, repetition), 4 },
    { 5, FIELD_I32, G_STRUCT_OFFSET (SchemaElement, num_children), 0 },
  };
  guint seen;

  if (!read_fields (t, fields, G_N_ELEMENTS (fields), e, schema_element_name, e, &seen)
      || !struct_done (t))
    return FALSE;
  e->has_type = (seen & 2) != 0;
  e->has_repetition = (seen & 4) != 0;
  return has_required (t, seen, 1, "a schema element has no name");
}

/* path_in_schema: one name for a flat column */
static gboolean
column_path (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  char **path = data;
  guint64 n;
  gboolean ok;

  if (id != 3)
    return t_skip (t, type);
  *seen |= 2;
  ok = want_list (t, type, T_BINARY, &n, "a column's path is not a list of names");
  for (guint64 i = 0; ok && i < n; i++)
    {
      if (i == 0)
        ok = t_string (t, path);
      else
        ok = t_skip (t, T_BINARY);
    }
  return ok;
}

static gboolean
read_column_meta (Thrift *t, Chunk *c, char **path)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (Chunk, type), 1 },
    { 4, FIELD_I32, G_STRUCT_OFFSET (Chunk, codec), 4 },
    { 5, FIELD_I64, G_STRUCT_OFFSET (Chunk, num_values), 0 },
    { 7, FIELD_I64, G_STRUCT_OFFSET (Chunk, total_compressed_size), 8 },
    { 9, FIELD_I64, G_STRUCT_OFFSET (Chunk, data_page_offset), 16 },
    { 11, FIELD_I64, G_STRUCT_OFFSET (Chunk, dictionary_page_offset), 32 },
  };
  guint seen;

  if (!read_fields (t, fields, G_N_ELEMENTS (fields), c, column_path, path, &seen)
      || !struct_done (t))
    return FALSE;
  if (seen & 32)
    c->has_dictionary_offset = TRUE;
  return has_required (t, seen, 31, "a column chunk's metadata lacks a required field");
}

typedef struct
{
  Chunk *c;
  char **path;
  gboolean *encrypted;
} ChunkRead;

static gboolean
column_chunk_field (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  ChunkRead *r = data;

  switch (id)
    {
    case 3:
      *seen |= 1;
      return want_struct (t, type) && read_column_meta (t, r->c, r->path);
    case 8:
    case 9:
      *r->encrypted = TRUE;
      return t_skip (t, type);
    default:
      return t_skip (t, type);
    }
}

static gboolean
read_column_chunk (Thrift *t, Chunk *c, char **path, gboolean *encrypted)
{
  ChunkRead r = { c, path, encrypted };
  guint seen;

  if (!read_fields (t, NULL, 0, NULL, column_chunk_field, &r, &seen) || !struct_done (t))
    return FALSE;
  return seen || *encrypted ? TRUE : t_fail (t, "a column chunk has no metadata");
}

typedef struct
{
  RowGroup *g;
  GPtrArray *paths;
  gboolean *encrypted;
} GroupRead;

static gboolean
row_group_columns (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  GroupRead *r = data;
  RowGroup *g = r->g;
  guint64 n;
  gboolean ok;

  if (id != 1)
    return t_skip (t, type);
  *seen |= 1;
  ok = want_list (t, type, T_STRUCT, &n, "a row group's columns are not a list of structures");
  if (ok && g->chunks)
    ok = t_fail (t, "a row group lists its columns twice");
  /* as many as the list says (at most one a byte): whether that is the schema's count is
   * checked once the schema is known to be flat */
  if (ok)
    {
      g->chunks = g_new0 (Chunk, MAX (n, 1));
      g->n_chunks = (guint) n;
    }
  for (guint64 i = 0; ok && i < n; i++)
    {
      char *path = NULL;
      ok = enter_struct (t) && read_column_chunk (t, &g->chunks[i], &path, r->encrypted);
      g_ptr_array_add (r->paths, path);
    }
  return ok;
}

/* A row group: @columns chunks, each named by its path. */
static gboolean
read_row_group (Thrift *t, RowGroup *g, GPtrArray *paths, gboolean *encrypted)
{
  static const Field fields[] = {
    { 3, FIELD_I64, G_STRUCT_OFFSET (RowGroup, num_rows), 2 },
  };
  GroupRead r = { g, paths, encrypted };
  guint seen;

  if (!read_fields (t, fields, G_N_ELEMENTS (fields), g, row_group_columns, &r, &seen)
      || !struct_done (t))
    return FALSE;
  return has_required (t, seen, 3, "a row group lacks its columns or rows");
}

typedef struct
{
  GArray *schema;   /* SchemaElement */
  GArray *groups;   /* RowGroup */
  GPtrArray *paths; /* char*, n_columns per group */
  gint64 num_rows;
  gboolean has_rows, encrypted;
} Footer;

static gboolean
read_key_values (Thrift *t, IvParquet *f, guint8 type)
{
  guint64 n;

  if (!want_list (t, type, T_STRUCT, &n, "the key-value metadata is not a list of pairs"))
    return FALSE;
  for (guint64 i = 0; i < n; i++)
    {
      gint16 last = 0, id;
      guint8 ft;
      const guint8 *key = NULL, *value = NULL;
      gsize key_len = 0, value_len = 0;
      if (!enter_struct (t))
        return FALSE;
      while (t_field (t, &last, &id, &ft))
        {
          gboolean ok;
          if ((id == 1 || id == 2) && ft == T_BINARY)
            ok = id == 1 ? t_binary (t, &key, &key_len) : t_binary (t, &value, &value_len);
          else
            ok = t_skip (t, ft);
          if (!ok)
            return FALSE;
        }
      if (!struct_done (t))
        return FALSE;
      if (key)
        g_hash_table_replace (f->metadata, g_strndup ((const char *) key, key_len),
                              value ? g_strndup ((const char *) value, value_len) : g_strdup (""));
    }
  return TRUE;
}

typedef struct
{
  IvParquet *f;
  Footer *ft;
} FooterRead;

static gboolean
file_meta_field (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  IvParquet *f = ((FooterRead *) data)->f;
  Footer *ft = ((FooterRead *) data)->ft;
  gboolean ok = TRUE;
  guint64 n = 0;

  switch (id)
    {
    case 2:
      /* row groups are read against the schema's column count: it must not change */
      if (*seen & 1)
        ok = t_fail (t, "the schema is given twice");
      else
        ok = want_list (t, type, T_STRUCT, &n, "the schema is not a list of elements");
      for (guint64 i = 0; ok && i < n; i++)
        {
          SchemaElement e = { 0 };
          ok = enter_struct (t) && read_schema_element (t, &e);
          g_array_append_val (ft->schema, e);
        }
      /* the number of columns is known once the schema is: row groups need it */
      if (ok)
        f->n_columns = ft->schema->len > 0 ? ft->schema->len - 1 : 0;
      *seen |= 1;
      return ok;
    case 4:
      if (!(*seen & 1))
        ok = t_fail (t, "the row groups come before the schema");
      else
        ok = want_list (t, type, T_STRUCT, &n, "the row groups are not a list of structures");
      for (guint64 i = 0; ok && i < n; i++)
        {
          RowGroup g = { 0 };
          ok = enter_struct (t) && read_row_group (t, &g, ft->paths, &ft->encrypted);
          g_array_append_val (ft->groups, g);
        }
      *seen |= 2;
      return ok;
    case 5:
      return read_key_values (t, f, type);
    case 6:
      return want_string (t, type, &f->created_by);
    case 8:
      ft->encrypted = TRUE;
      return t_skip (t, type);
    default:
      return t_skip (t, type);
    }
}

static gboolean
read_file_meta (Thrift *t, IvParquet *f, Footer *ft)
{
  static const Field fields[] = {
    { 3, FIELD_I64, G_STRUCT_OFFSET (Footer, num_rows), 4 },
  };
  FooterRead r = { f, ft };
  guint seen;

  if (!read_fields (t, fields, G_N_ELEMENTS (fields), ft, file_meta_field, &r, &seen))
    return FALSE;
  ft->has_rows = (seen & 4) != 0;
  return has_required (t, seen, 7, "it lacks the schema, the row groups or the row count");
}

static void
footer_clear (Footer *ft)
{
  for (guint i = 0; i < ft->schema->len; i++)
    g_free (g_array_index (ft->schema, SchemaElement, i).name);
  g_array_unref (ft->schema);
  for (guint i = 0; i < ft->groups->len; i++)
    g_free (g_array_index (ft->groups, RowGroup, i).chunks);
  g_array_unref (ft->groups);
  g_ptr_array_unref (ft->paths);
}

static const char *
type_name (gint32 type)
{
  static const char *const names[] = { "BOOLEAN", "INT32",  "INT64",      "INT96",
                                       "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY" };
  return type >= 0 && type < (gint32) G_N_ELEMENTS (names) ? names[type] : "an unknown type";
}

/* The schema as flat columns, and each row group checked against it. */
static gboolean
check_footer (IvParquet *f, Footer *ft, gsize footer_at, GError **error)
{
  const SchemaElement *root;
  guint64 max_rows;

  if (ft->encrypted)
    {
      unsupported (error, f,
                   "its columns are encrypted (Parquet modular encryption), which "
                   "Inferview does not read");
      return FALSE;
    }
  if (ft->schema->len < 2)
    {
      footer_error (error, f, footer_at, "the schema has no columns");
      return FALSE;
    }
  /* a group or a repeated field, named, before the counts that they upset */
  for (guint i = 1; i < ft->schema->len; i++)
    {
      const SchemaElement *e = &g_array_index (ft->schema, SchemaElement, i);
      const char *what = e->num_children > 0 || !e->has_type       ? "a group of columns"
                         : e->has_repetition && e->repetition == 2 ? "repeated"
                                                                   : NULL;
      if (what)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "%s: column “%s” is %s (Inferview reads flat tables only)", f->name, e->name,
                       what);
          return FALSE;
        }
    }
  root = &g_array_index (ft->schema, SchemaElement, 0);
  if (root->num_children < 0 || (guint) root->num_children != ft->schema->len - 1)
    {
      unsupported (error, f,
                   "its schema is not a flat list of columns (Inferview reads flat tables only)");
      return FALSE;
    }
  for (guint g = 0; g < ft->groups->len; g++)
    if (g_array_index (ft->groups, RowGroup, g).n_chunks != f->n_columns)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: row group %u has %u columns, the schema %u", f->name, g,
                     g_array_index (ft->groups, RowGroup, g).n_chunks, f->n_columns);
        return FALSE;
      }
  f->columns = g_new0 (IvParquetColumnInfo, f->n_columns);
  for (guint i = 0; i < f->n_columns; i++)
    {
      const SchemaElement *e = &g_array_index (ft->schema, SchemaElement, i + 1);
      IvParquetColumnInfo *c = &f->columns[i];
      c->name = g_strdup (e->name);
      if (e->type < 0 || e->type > IV_PARQUET_FIXED_LEN_BYTE_ARRAY)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: column “%s” has an unknown type (%d)", f->name, c->name, e->type);
          return FALSE;
        }
      c->type = e->type;
      c->optional = e->has_repetition && e->repetition == 1;
    }
  if (ft->has_rows && ft->num_rows < 0)
    {
      footer_error (error, f, footer_at, "the row count is negative");
      return FALSE;
    }
  max_rows = MAX (IV_PARQUET_ROWS_FLOOR, (guint64) f->size * IV_PARQUET_ROWS_PER_BYTE);
  f->n_groups = ft->groups->len;
  f->groups = (RowGroup *) g_array_free (g_steal_pointer (&ft->groups), FALSE);
  ft->groups = g_array_new (FALSE, FALSE, sizeof (RowGroup));
  for (guint g = 0; g < f->n_groups; g++)
    {
      RowGroup *rg = &f->groups[g];
      if (rg->num_rows < 0 || (guint64) rg->num_rows > max_rows - f->rows)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: row group %u says it has %" G_GINT64_FORMAT
                       " rows, more than a file of %" G_GSIZE_FORMAT
                       " bytes can hold (at most %" G_GUINT64_FORMAT " in all)",
                       f->name, g, rg->num_rows, f->size, max_rows);
          return FALSE;
        }
      rg->first_row = f->rows;
      f->rows += (guint64) rg->num_rows;
      for (guint c = 0; c < f->n_columns; c++)
        {
          const char *path = ft->paths->pdata[(gsize) g * f->n_columns + c];
          if (!path || !g_str_equal (path, f->columns[c].name)
              || rg->chunks[c].type != (gint32) f->columns[c].type)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s: column “%s” of row group %u does not match the schema (%s, %s)",
                           f->name, f->columns[c].name, g, path ? path : "no name",
                           type_name (rg->chunks[c].type));
              return FALSE;
            }
        }
    }
  if ((guint64) ft->num_rows != f->rows)
    {
      footer_error (error, f, footer_at,
                    "the file's row count differs from the sum of its row groups'");
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_footer (IvParquet *f, GError **error)
{
  static const char magic[4] = { 'P', 'A', 'R', '1' };
  guint32 len;
  gsize at;
  Thrift t = { 0 };
  Footer ft = { 0 };
  gboolean ok;

  if (f->size < 12 || memcmp (f->data, magic, 4) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a Parquet file (it does not begin with “PAR1”)", f->name);
      return FALSE;
    }
  if (memcmp (f->data + f->size - 4, "PARE", 4) == 0)
    {
      unsupported (error, f,
                   "its footer is encrypted (Parquet modular encryption), which "
                   "Inferview does not read");
      return FALSE;
    }
  if (memcmp (f->data + f->size - 4, magic, 4) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: the file is cut or damaged: it does not end with “PAR1” (%" G_GSIZE_FORMAT
                   " bytes)",
                   f->name, f->size);
      return FALSE;
    }
  len = (guint32) f->data[f->size - 8] | (guint32) f->data[f->size - 7] << 8
        | (guint32) f->data[f->size - 6] << 16 | (guint32) f->data[f->size - 5] << 24;
  if (len > f->size - 12)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: the footer's length (%u bytes, at byte %" G_GSIZE_FORMAT
                   ") is more than the file holds",
                   f->name, len, f->size - 8);
      return FALSE;
    }
  at = f->size - 8 - len;
  f->data_end = at;
  t.base = f->data;
  t.p = f->data + at;
  t.end = f->data + f->size - 8;
  ft.schema = g_array_new (FALSE, TRUE, sizeof (SchemaElement));
  ft.groups = g_array_new (FALSE, TRUE, sizeof (RowGroup));
  ft.paths = g_ptr_array_new_with_free_func (g_free);
  ok = read_file_meta (&t, f, &ft);
  if (!ok)
    footer_error (error, f, t.bad_at, t.bad ? t.bad : "it could not be read");
  else
    ok = check_footer (f, &ft, at, error);
  footer_clear (&ft);
  return ok;
}

IvParquet *
iv_parquet_new_from_bytes (GBytes *bytes, const char *name, GError **error)
{
  IvParquet *f = g_new0 (IvParquet, 1);

  f->name = iv_text_valid (name ? name : "Parquet file", -1);
  f->bytes = g_bytes_ref (bytes);
  f->data = g_bytes_get_data (bytes, &f->size);
  f->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!parse_footer (f, error))
    {
      iv_parquet_free (f);
      return NULL;
    }
  return f;
}

IvParquet *
iv_parquet_open (const char *path, GError **error)
{
  g_autoptr (IvInput) in = iv_input_open (path, error);
  g_autofree char *display = g_filename_display_name (path);
  g_autoptr (GBytes) bytes = NULL;
  char *text;
  gsize len;

  if (!in)
    return NULL;
  text = iv_input_read_all (in, IV_PARQUET_FILE_MAX, &len, error);
  if (!text)
    return NULL;
  bytes = g_bytes_new_take (text, len);
  return iv_parquet_new_from_bytes (bytes, display, error);
}

void
iv_parquet_free (IvParquet *f)
{
  if (!f)
    return;
  for (guint i = 0; f->columns && i < f->n_columns; i++)
    g_free (f->columns[i].name);
  g_free (f->columns);
  for (guint g = 0; g < f->n_groups; g++)
    g_free (f->groups[g].chunks);
  g_free (f->groups);
  g_hash_table_unref (f->metadata);
  g_bytes_unref (f->bytes);
  g_free (f->created_by);
  g_free (f->name);
  g_free (f);
}

const char *
iv_parquet_get_name (const IvParquet *f)
{
  return f->name;
}

guint64
iv_parquet_get_rows (const IvParquet *f)
{
  return f->rows;
}

guint
iv_parquet_get_row_groups (const IvParquet *f)
{
  return f->n_groups;
}

guint
iv_parquet_get_columns (const IvParquet *f)
{
  return f->n_columns;
}

const IvParquetColumnInfo *
iv_parquet_get_column_info (const IvParquet *f, guint column)
{
  return column < f->n_columns ? &f->columns[column] : NULL;
}

gint
iv_parquet_find_column (const IvParquet *f, const char *name)
{
  for (guint i = 0; i < f->n_columns; i++)
    if (g_str_equal (f->columns[i].name, name))
      return (gint) i;
  return -1;
}

const char *
iv_parquet_get_metadata (const IvParquet *f, const char *key)
{
  return g_hash_table_lookup (f->metadata, key);
}

const char *
iv_parquet_get_created_by (const IvParquet *f)
{
  return f->created_by;
}

/* ---------- pages ---------- */

typedef struct
{
  gint32 type, uncompressed, compressed;
  /* v1 and dictionary */
  gint32 num_values, encoding, def_encoding;
  /* v2 */
  gint32 num_nulls, num_rows, def_len, rep_len;
  gboolean is_compressed;
  gboolean has_v1, has_dict, has_v2;
} PageHeader;

static gboolean
read_data_page_header (Thrift *t, PageHeader *h)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (PageHeader, num_values), 1 },
    { 2, FIELD_I32, G_STRUCT_OFFSET (PageHeader, encoding), 2 },
    { 3, FIELD_I32, G_STRUCT_OFFSET (PageHeader, def_encoding), 4 },
    { 4, FIELD_I32, NOT_KEPT, 0 }, /* the repetition levels' encoding: a flat column has none */
  };

  return read_scalars (t, fields, G_N_ELEMENTS (fields), h, 7,
                       "a data page header lacks a required field");
}

static gboolean
read_dictionary_page_header (Thrift *t, PageHeader *h)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (PageHeader, num_values), 1 },
    { 2, FIELD_I32, G_STRUCT_OFFSET (PageHeader, encoding), 2 },
  };

  return read_scalars (t, fields, G_N_ELEMENTS (fields), h, 3,
                       "a dictionary page header lacks a required field");
}

static gboolean
read_data_page_header_v2 (Thrift *t, PageHeader *h)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (PageHeader, num_values), 1 },
    { 2, FIELD_I32, G_STRUCT_OFFSET (PageHeader, num_nulls), 2 },
    { 3, FIELD_I32, G_STRUCT_OFFSET (PageHeader, num_rows), 4 },
    { 4, FIELD_I32, G_STRUCT_OFFSET (PageHeader, encoding), 8 },
    { 5, FIELD_I32, G_STRUCT_OFFSET (PageHeader, def_len), 16 },
    { 6, FIELD_I32, G_STRUCT_OFFSET (PageHeader, rep_len), 32 },
    { 7, FIELD_BOOL, G_STRUCT_OFFSET (PageHeader, is_compressed), 0 },
  };

  h->is_compressed = TRUE;
  return read_scalars (t, fields, G_N_ELEMENTS (fields), h, 63,
                       "a data page v2 header lacks a required field");
}

/* The page header's nested headers, one per kind of page. */
static gboolean
page_header_kind (Thrift *t, gint16 id, guint8 type, gpointer data, guint *seen)
{
  PageHeader *h = data;

  switch (id)
    {
    case 5:
      h->has_v1 = TRUE;
      return want_struct (t, type) && read_data_page_header (t, h);
    case 7:
      h->has_dict = TRUE;
      return want_struct (t, type) && read_dictionary_page_header (t, h);
    case 8:
      h->has_v2 = TRUE;
      return want_struct (t, type) && read_data_page_header_v2 (t, h);
    default:
      return t_skip (t, type);
    }
}

static gboolean
read_page_header (Thrift *t, PageHeader *h)
{
  static const Field fields[] = {
    { 1, FIELD_I32, G_STRUCT_OFFSET (PageHeader, type), 1 },
    { 2, FIELD_I32, G_STRUCT_OFFSET (PageHeader, uncompressed), 2 },
    { 3, FIELD_I32, G_STRUCT_OFFSET (PageHeader, compressed), 4 },
  };
  guint seen;

  memset (h, 0, sizeof *h);
  if (!read_fields (t, fields, G_N_ELEMENTS (fields), h, page_header_kind, h, &seen))
    return FALSE;
  return has_required (t, seen, 7, "a page header lacks a required field");
}

/* ---------- reading a column ---------- */

typedef struct
{
  IvParquet *f;
  IvParquetColumn *col;
  guint column, group;
  gsize page_at; /* the page being read, for messages */
  GError **error;
  /* the row group's dictionary */
  gboolean has_dict;
  guint64 dict_n;
  gint64 *dict_ints;
  double *dict_doubles;
  guint32 *dict_ids;
  /* scratch */
  guint8 *buf;
  gsize buf_size;
  guint32 *levels, *indices;
  gsize levels_size, indices_size;
} Reader;

static gboolean page_error (Reader *r, GQuark domain, gint code, const char *fmt, ...)
    G_GNUC_PRINTF (4, 5);

static gboolean
page_error (Reader *r, GQuark domain, gint code, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *what = NULL;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (r->error, domain, code,
               "%s: column “%s”, row group %u, page at byte %" G_GSIZE_FORMAT ": %s", r->f->name,
               r->f->columns[r->column].name, r->group, r->page_at, what);
  return FALSE;
}

#define DAMAGED(r, ...) page_error ((r), G_IO_ERROR, G_IO_ERROR_INVALID_DATA, __VA_ARGS__)
#define UNSUPPORTED(r, ...) page_error ((r), G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, __VA_ARGS__)

static const char *
encoding_name (gint32 e)
{
  static const char *const names[] = { "PLAIN",
                                       "GROUP_VAR_INT",
                                       "PLAIN_DICTIONARY",
                                       "RLE",
                                       "BIT_PACKED",
                                       "DELTA_BINARY_PACKED",
                                       "DELTA_LENGTH_BYTE_ARRAY",
                                       "DELTA_BYTE_ARRAY",
                                       "RLE_DICTIONARY",
                                       "BYTE_STREAM_SPLIT",
                                       "ALP" };
  return e >= 0 && e < (gint32) G_N_ELEMENTS (names) ? names[e] : "an unknown encoding";
}

static const char *
codec_name (gint32 c)
{
  static const char *const names[]
      = { "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW" };
  return c >= 0 && c < (gint32) G_N_ELEMENTS (names) ? names[c] : "an unknown codec";
}

/* A scratch buffer of at least @n elements of @size bytes, or NULL (an error set) when
 * that memory cannot be had. */
static gpointer
scratch (Reader *r, gpointer *mem, gsize *have, gsize n, gsize size)
{
  if (n > *have)
    {
      gpointer p = g_try_realloc_n (*mem, MAX (n, 16), size);
      if (!p)
        {
          DAMAGED (r, "out of memory for %" G_GSIZE_FORMAT " values", n);
          return NULL;
        }
      *mem = p;
      *have = MAX (n, 16);
    }
  return *mem;
}

/* The page's bytes after decompression into r->buf (or the file's own bytes when not
 * compressed): @src of @src_len into @dst_len bytes. */
static const guint8 *
decompress (Reader *r, gint32 codec, const guint8 *src, gsize src_len, gsize dst_len)
{
  if (codec == CODEC_UNCOMPRESSED)
    {
      if (src_len != dst_len)
        {
          DAMAGED (r,
                   "an uncompressed page of %" G_GSIZE_FORMAT " bytes says it has %" G_GSIZE_FORMAT,
                   src_len, dst_len);
          return NULL;
        }
      return src;
    }
  if (dst_len > IV_PARQUET_PAGE_MAX
      || (dst_len > IV_PARQUET_PAGE_FREE && dst_len / IV_PARQUET_PAGE_RATIO > src_len))
    {
      DAMAGED (r,
               "a page of %" G_GSIZE_FORMAT " compressed bytes says it holds %" G_GSIZE_FORMAT
               " (more than Inferview decompresses from so little)",
               src_len, dst_len);
      return NULL;
    }
  if (!scratch (r, (gpointer *) &r->buf, &r->buf_size, MAX (dst_len, 1), 1))
    return NULL;
  if (codec == CODEC_SNAPPY)
    {
      gsize where;
      const char *why;
      if (!iv_snappy_decompress (src, src_len, r->buf, dst_len, &where, &why))
        {
          DAMAGED (r, "its Snappy data is damaged at byte %" G_GSIZE_FORMAT ": %s",
                   (gsize) (src - r->f->data) + where, why);
          return NULL;
        }
      return r->buf;
    }
  if (codec == CODEC_ZSTD)
    {
      size_t got = ZSTD_decompress (r->buf, dst_len, src, src_len);
      if (ZSTD_isError (got))
        {
          DAMAGED (r, "its zstd data is damaged: %s", ZSTD_getErrorName (got));
          return NULL;
        }
      if (got != dst_len)
        {
          DAMAGED (r,
                   "its zstd data makes %" G_GSIZE_FORMAT " bytes, not the %" G_GSIZE_FORMAT
                   " the page says",
                   (gsize) got, dst_len);
          return NULL;
        }
      return r->buf;
    }
  UNSUPPORTED (r, "it is compressed with %s; Inferview reads uncompressed, SNAPPY and ZSTD pages",
               codec_name (codec));
  return NULL;
}

/* The RLE / bit-packed hybrid (Encodings.md): @n values of @width bits from [@p, @end)
 * into @out. FALSE when the runs end first or a value is wider than @width. */
static gboolean
hybrid (const guint8 *p, const guint8 *end, guint width, guint32 *out, guint64 n, const char **why)
{
  guint64 done = 0;
  guint value_bytes = (width + 7) / 8;

  while (done < n)
    {
      guint64 header = 0;
      guint shift = 0;
      for (;;)
        {
          if (p >= end)
            {
              *why = "its levels or indices end before its values";
              return FALSE;
            }
          if (shift > 63)
            {
              *why = "a run's header is longer than 64 bits";
              return FALSE;
            }
          header |= (guint64) (*p & 0x7f) << shift;
          shift += 7;
          if (!(*p++ & 0x80))
            break;
        }
      if (header & 1)
        {
          /* bit-packed: groups of 8 values, least significant bit first */
          guint64 groups = header >> 1, count, take, bytes_needed, bit = 0;
          guint64 mask = width == 32 ? G_MAXUINT32 : ((guint64) 1 << width) - 1;
          if (groups > G_MAXUINT64 / 8 / 33)
            {
              *why = "a run's length is out of range";
              return FALSE;
            }
          count = groups * 8;
          take = MIN (count, n - done);
          bytes_needed = (take * width + 7) / 8;
          if (bytes_needed > (guint64) (end - p))
            {
              *why = "a bit-packed run is cut off";
              return FALSE;
            }
          for (guint64 i = 0; i < take; i++, bit += width)
            {
              /* the value's bytes (at most 5), all within the run's: bit + width fits */
              guint64 w = 0, at = bit >> 3;
              guint sh = bit & 7, nb = (sh + width + 7) / 8;
              for (guint k = 0; k < nb; k++)
                w |= (guint64) p[at + k] << (8 * k);
              out[done + i] = (guint32) ((w >> sh) & mask);
            }
          /* the whole run's bytes, or what is left of them */
          p += MIN ((guint64) (end - p), groups * width);
          done += take;
        }
      else
        {
          guint64 count = header >> 1, take = MIN (count, n - done);
          guint32 v = 0;
          if ((guint64) (end - p) < value_bytes)
            {
              *why = "a run's value is cut off";
              return FALSE;
            }
          for (guint b = 0; b < value_bytes; b++)
            v |= (guint32) p[b] << (8 * b);
          p += value_bytes;
          if (width < 32 && v >> width)
            {
              *why = "a run's value is wider than its bit width";
              return FALSE;
            }
          for (guint64 i = 0; i < take; i++)
            out[done + i] = v;
          done += take;
        }
    }
  return TRUE;
}

/* @n PLAIN values from [@p, @end) to rows @rows[0..n) of the column (or the dictionary,
 * when @dict). Returns the bytes used, or -1 (error set). */
static gssize
plain (Reader *r, const guint8 *p, const guint8 *end, guint64 n, const guint64 *rows, gboolean dict)
{
  IvParquetColumn *c = r->col;
  const guint8 *start = p;
  gint32 type = (gint32) c->info->type;
  gsize width = type == IV_PARQUET_INT32 || type == IV_PARQUET_FLOAT ? 4 : 8;

  if (type != IV_PARQUET_BYTE_ARRAY && n > (guint64) (end - p) / width)
    return DAMAGED (r,
                    "%" G_GUINT64_FORMAT " values of %" G_GSIZE_FORMAT
                    " bytes do not fit in its %" G_GSIZE_FORMAT " bytes",
                    n, width, (gsize) (end - p)),
           -1;
  for (guint64 i = 0; i < n; i++)
    {
      guint64 row = dict ? i : rows[i];
      switch (type)
        {
        case IV_PARQUET_INT32:
          {
            gint32 v = (gint32) ((guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16
                                 | (guint32) p[3] << 24);
            (dict ? r->dict_ints : c->ints)[row] = v;
            p += 4;
          }
          break;
        case IV_PARQUET_INT64:
          {
            guint64 u = 0;
            for (guint b = 0; b < 8; b++)
              u |= (guint64) p[b] << (8 * b);
            (dict ? r->dict_ints : c->ints)[row] = (gint64) u;
            p += 8;
          }
          break;
        case IV_PARQUET_FLOAT:
          {
            guint32 u = (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16
                        | (guint32) p[3] << 24;
            float v;
            memcpy (&v, &u, 4);
            (dict ? r->dict_doubles : c->doubles)[row] = v;
            p += 4;
          }
          break;
        case IV_PARQUET_DOUBLE:
          {
            guint64 u = 0;
            double v;
            for (guint b = 0; b < 8; b++)
              u |= (guint64) p[b] << (8 * b);
            memcpy (&v, &u, 8);
            (dict ? r->dict_doubles : c->doubles)[row] = v;
            p += 8;
          }
          break;
        default:
          {
            guint32 len, id;
            if (end - p < 4)
              return DAMAGED (r, "a string's length is cut off at byte %" G_GSIZE_FORMAT,
                              (gsize) (p - start)),
                     -1;
            len = (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16
                  | (guint32) p[3] << 24;
            p += 4;
            if (len > (guint64) (end - p))
              return DAMAGED (r, "a string of %u bytes runs past the end of its page", len), -1;
            id = iv_intern_try_add (c->strings, (const char *) p, (gssize) len);
            if (id == IV_INTERN_NONE)
              return DAMAGED (r, "out of memory for its strings"), -1;
            (dict ? r->dict_ids : c->ids)[row] = id;
            p += len;
          }
        }
    }
  return p - start;
}

static gboolean
read_dictionary (Reader *r, const PageHeader *h, const guint8 *p, const guint8 *end)
{
  IvParquetColumn *c = r->col;
  gsize min_size = c->info->type == IV_PARQUET_BYTE_ARRAY                                   ? 4
                   : c->info->type == IV_PARQUET_INT32 || c->info->type == IV_PARQUET_FLOAT ? 4
                                                                                            : 8;

  if (h->encoding != ENC_PLAIN && h->encoding != ENC_PLAIN_DICTIONARY)
    return UNSUPPORTED (r, "its dictionary is %s-encoded; Inferview reads PLAIN dictionaries",
                        encoding_name (h->encoding));
  if (h->num_values < 0 || (guint64) h->num_values > (guint64) (end - p) / min_size)
    return DAMAGED (
        r, "its dictionary says it has %d values, more than its %" G_GSIZE_FORMAT " bytes hold",
        h->num_values, (gsize) (end - p));
  r->dict_n = (guint64) h->num_values;
  g_clear_pointer (&r->dict_ints, g_free);
  g_clear_pointer (&r->dict_doubles, g_free);
  g_clear_pointer (&r->dict_ids, g_free);
  if (c->ints)
    r->dict_ints = g_try_new (gint64, MAX (r->dict_n, 1));
  else if (c->doubles)
    r->dict_doubles = g_try_new (double, MAX (r->dict_n, 1));
  else
    r->dict_ids = g_try_new (guint32, MAX (r->dict_n, 1));
  if (!r->dict_ints && !r->dict_doubles && !r->dict_ids)
    return DAMAGED (r, "out of memory for its dictionary");
  if (plain (r, p, end, r->dict_n, NULL, TRUE) < 0)
    return FALSE;
  r->has_dict = TRUE;
  return TRUE;
}

/* A data page's values (v1 after its levels, v2 after decompression): @present of @n
 * rows from row @first on, @nonnull of them with a value. */
static gboolean
read_values (Reader *r, gint32 encoding, const guint8 *p, const guint8 *end, guint64 first,
             guint64 n, guint64 nonnull)
{
  IvParquetColumn *c = r->col;
  guint64 *rows;
  g_autofree guint64 *owned = NULL;

  /* where the values go: the rows that have one */
  owned = rows = g_try_new (guint64, MAX (nonnull, 1));
  if (!rows)
    return DAMAGED (r, "out of memory for %" G_GUINT64_FORMAT " values", nonnull);
  for (guint64 i = 0, k = 0; i < n; i++)
    if (c->present[first + i])
      rows[k++] = first + i;
  if (encoding == ENC_PLAIN)
    return plain (r, p, end, nonnull, rows, FALSE) >= 0;
  if (encoding == ENC_PLAIN_DICTIONARY || encoding == ENC_RLE_DICTIONARY)
    {
      const char *why = NULL;
      guint width;
      guint32 *idx;
      if (!r->has_dict)
        return DAMAGED (r, "its values are dictionary indices, but the column chunk has no "
                           "dictionary page before it");
      if (nonnull == 0)
        return TRUE;
      if (p >= end)
        return DAMAGED (r, "its dictionary indices are missing");
      width = *p++;
      if (width > 32)
        return DAMAGED (r, "its dictionary indices are %u bits wide (at most 32)", width);
      idx = scratch (r, (gpointer *) &r->indices, &r->indices_size, nonnull, sizeof (guint32));
      if (!idx)
        return FALSE;
      if (!hybrid (p, end, width, idx, nonnull, &why))
        return DAMAGED (r, "%s", why);
      for (guint64 i = 0; i < nonnull; i++)
        {
          if (idx[i] >= r->dict_n)
            return DAMAGED (r,
                            "value %" G_GUINT64_FORMAT
                            " refers to entry %u of a dictionary of %" G_GUINT64_FORMAT " entries",
                            i, idx[i], r->dict_n);
          if (c->ints)
            c->ints[rows[i]] = r->dict_ints[idx[i]];
          else if (c->doubles)
            c->doubles[rows[i]] = r->dict_doubles[idx[i]];
          else
            c->ids[rows[i]] = r->dict_ids[idx[i]];
        }
      return TRUE;
    }
  return UNSUPPORTED (r, "its values are %s-encoded; Inferview reads PLAIN and dictionary pages",
                      encoding_name (encoding));
}

/* Definition levels of @n rows from row @first: 1 where the row has a value. Returns
 * how many do, or -1. */
static gint64
read_levels (Reader *r, const guint8 *p, const guint8 *end, guint64 first, guint64 n)
{
  const char *why = NULL;
  guint32 *lv;
  guint64 nonnull = 0;

  lv = scratch (r, (gpointer *) &r->levels, &r->levels_size, MAX (n, 1), sizeof (guint32));
  if (!lv)
    return -1;
  if (n && !hybrid (p, end, 1, lv, n, &why))
    return DAMAGED (r, "%s", why), -1;
  for (guint64 i = 0; i < n; i++)
    {
      r->col->present[first + i] = lv[i] ? 1 : 0;
      nonnull += lv[i] ? 1 : 0;
    }
  return (gint64) nonnull;
}

static gboolean
read_data_page_v1 (Reader *r, const PageHeader *h, gint32 codec, const guint8 *src, gsize src_len,
                   guint64 first)
{
  const guint8 *p, *end;
  guint64 n = (guint64) h->num_values, nonnull = n;

  p = decompress (r, codec, src, src_len, (gsize) h->uncompressed);
  if (!p)
    return FALSE;
  end = p + h->uncompressed;
  if (r->col->info->optional)
    {
      guint32 len;
      gint64 got;
      if (h->def_encoding != ENC_RLE)
        return UNSUPPORTED (r, "its definition levels are %s-encoded; Inferview reads RLE levels",
                            encoding_name (h->def_encoding));
      if (end - p < 4)
        return DAMAGED (r, "its definition levels' length is cut off");
      len = (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
      p += 4;
      if (len > (guint64) (end - p))
        return DAMAGED (r, "its definition levels (%u bytes) run past the end of the page", len);
      got = read_levels (r, p, p + len, first, n);
      if (got < 0)
        return FALSE;
      nonnull = (guint64) got;
      p += len;
    }
  else
    memset (r->col->present + first, 1, n);
  return read_values (r, h->encoding, p, end, first, n, nonnull);
}

static gboolean
read_data_page_v2 (Reader *r, const PageHeader *h, gint32 codec, const guint8 *src, gsize src_len,
                   guint64 first)
{
  guint64 n = (guint64) h->num_values, nonnull;
  gsize levels, values_len, values_raw;
  const guint8 *values;

  if (h->def_len < 0 || h->rep_len < 0 || h->num_nulls < 0 || h->num_nulls > h->num_values)
    return DAMAGED (r, "its header's level lengths or null count are out of range");
  if (h->rep_len != 0)
    return UNSUPPORTED (r, "it has repetition levels (Inferview reads flat tables only)");
  if (h->num_rows != h->num_values)
    return DAMAGED (r, "it says it has %d rows and %d values in a flat column", h->num_rows,
                    h->num_values);
  levels = (gsize) h->def_len;
  if (levels > src_len || levels > (gsize) h->uncompressed)
    return DAMAGED (
        r, "its definition levels (%" G_GSIZE_FORMAT " bytes) run past the end of the page",
        levels);
  nonnull = n - (guint64) h->num_nulls;
  if (r->col->info->optional)
    {
      gint64 got = read_levels (r, src, src + levels, first, n);
      if (got < 0)
        return FALSE;
      if ((guint64) got != nonnull)
        return DAMAGED (r,
                        "its definition levels give %" G_GINT64_FORMAT
                        " values, its header %" G_GUINT64_FORMAT,
                        got, nonnull);
    }
  else
    {
      if (h->num_nulls != 0)
        return DAMAGED (r, "a required column has %d nulls", h->num_nulls);
      memset (r->col->present + first, 1, n);
    }
  values_raw = src_len - levels;
  values_len = (gsize) h->uncompressed - levels;
  if (h->is_compressed && codec != CODEC_UNCOMPRESSED && values_raw > 0)
    values = decompress (r, codec, src + levels, values_raw, values_len);
  else if (values_raw == 0 && values_len == 0)
    values = src + levels; /* nothing to decompress: an empty section is not a stream */
  else
    values = decompress (r, CODEC_UNCOMPRESSED, src + levels, values_raw, values_len);
  if (!values)
    return FALSE;
  return read_values (r, h->encoding, values, values + values_len, first, n, nonnull);
}

static gboolean
read_chunk (Reader *r)
{
  IvParquet *f = r->f;
  const RowGroup *g = &f->groups[r->group];
  const Chunk *ch = &g->chunks[r->column];
  gint64 start = ch->data_page_offset;
  guint64 want = (guint64) g->num_rows, done = 0;
  gsize pos, end;
  gboolean any_data = FALSE;

  r->has_dict = FALSE;
  r->dict_n = 0;
  if (want == 0)
    return TRUE; /* an empty group's chunk may be anywhere, or nowhere */
  /* the chunk begins at its dictionary page when it has one (some writers say 0 for
   * none) */
  if (ch->has_dictionary_offset && ch->dictionary_page_offset > 0
      && ch->dictionary_page_offset < start)
    start = ch->dictionary_page_offset;
  r->page_at = (gsize) MAX (start, 0);
  if (ch->codec != CODEC_UNCOMPRESSED && ch->codec != CODEC_SNAPPY && ch->codec != CODEC_ZSTD)
    return UNSUPPORTED (r,
                        "it is compressed with %s; Inferview reads uncompressed, SNAPPY and "
                        "ZSTD pages",
                        codec_name (ch->codec));
  if (start < 4 || (guint64) start >= f->data_end || ch->total_compressed_size < 0
      || (guint64) ch->total_compressed_size > f->data_end - (guint64) start)
    return DAMAGED (r,
                    "the column chunk (%" G_GINT64_FORMAT " bytes from byte %" G_GINT64_FORMAT
                    ") lies outside the file's pages (bytes 4 to %" G_GSIZE_FORMAT ")",
                    ch->total_compressed_size, start, f->data_end);
  pos = (gsize) start;
  end = pos + (gsize) ch->total_compressed_size;
  while (done < want)
    {
      Thrift t = { f->data, f->data + pos, f->data + end, 0, NULL, 0 };
      PageHeader h;
      gsize body;

      r->page_at = pos;
      if (pos >= end)
        return DAMAGED (r,
                        "the column chunk ends after %" G_GUINT64_FORMAT
                        " of its %" G_GUINT64_FORMAT " rows",
                        done, want);
      if (!read_page_header (&t, &h))
        return DAMAGED (r, "its header is damaged at byte %" G_GSIZE_FORMAT ": %s", t.bad_at,
                        t.bad);
      body = (gsize) (t.p - f->data);
      if (h.compressed < 0 || h.uncompressed < 0 || (gsize) h.compressed > end - body)
        return DAMAGED (
            r, "its %d bytes run past the end of the column chunk (byte %" G_GSIZE_FORMAT ")",
            h.compressed, end);
      switch (h.type)
        {
        case PAGE_DICTIONARY:
          {
            const guint8 *p;
            if (!h.has_dict)
              return DAMAGED (r, "a dictionary page has no dictionary header");
            if (r->has_dict || any_data)
              return DAMAGED (r, "a second dictionary page, or one after the data");
            p = decompress (r, ch->codec, f->data + body, (gsize) h.compressed,
                            (gsize) h.uncompressed);
            if (!p || !read_dictionary (r, &h, p, p + h.uncompressed))
              return FALSE;
          }
          break;
        case PAGE_DATA:
        case PAGE_DATA_V2:
          {
            gboolean ok;
            if (h.type == PAGE_DATA ? !h.has_v1 : !h.has_v2)
              return DAMAGED (r, "a data page lacks its header");
            if (h.num_values < 0 || (guint64) h.num_values > want - done)
              return DAMAGED (r,
                              "it says it has %d values where %" G_GUINT64_FORMAT
                              " rows of the row group are left",
                              h.num_values, want - done);
            ok = h.type == PAGE_DATA
                     ? read_data_page_v1 (r, &h, ch->codec, f->data + body, (gsize) h.compressed,
                                          g->first_row + done)
                     : read_data_page_v2 (r, &h, ch->codec, f->data + body, (gsize) h.compressed,
                                          g->first_row + done);
            if (!ok)
              return FALSE;
            done += (guint64) h.num_values;
            any_data = TRUE;
          }
          break;
        case PAGE_INDEX:
          break;
        default:
          return DAMAGED (r, "it is of an unknown kind (%d)", h.type);
        }
      pos = body + (gsize) h.compressed;
    }
  return TRUE;
}

IvParquetColumn *
iv_parquet_read_column (IvParquet *f, guint column, GError **error)
{
  g_autoptr (IvParquetColumn) c = NULL;
  Reader r = { 0 };
  gboolean ok = TRUE;
  gsize n;

  g_return_val_if_fail (column < f->n_columns, NULL);
  c = g_new0 (IvParquetColumn, 1);
  c->info = &f->columns[column];
  c->n = f->rows;
  n = (gsize) MAX (c->n, 1);
  switch (c->info->type)
    {
    case IV_PARQUET_INT32:
    case IV_PARQUET_INT64:
      c->ints = g_try_new0 (gint64, n);
      break;
    case IV_PARQUET_FLOAT:
    case IV_PARQUET_DOUBLE:
      c->doubles = g_try_new (double, n);
      for (gsize i = 0; c->doubles && i < n; i++)
        c->doubles[i] = NAN;
      break;
    case IV_PARQUET_BYTE_ARRAY:
      c->ids = g_try_new (guint32, n);
      for (gsize i = 0; c->ids && i < n; i++)
        c->ids[i] = IV_INTERN_NONE;
      c->strings = iv_intern_try_new ();
      break;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: column “%s” holds %s values; Inferview reads INT32, INT64, FLOAT, DOUBLE "
                   "and BYTE_ARRAY columns",
                   f->name, c->info->name, type_name (c->info->type));
      return NULL;
    }
  c->present = g_try_malloc0 (n);
  if (!c->present || (!c->ints && !c->doubles && (!c->ids || !c->strings)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "%s: out of memory for the %" G_GUINT64_FORMAT " rows of column “%s”", f->name,
                   c->n, c->info->name);
      return NULL;
    }
  r.f = f;
  r.col = c;
  r.column = column;
  r.error = error;
  for (guint g = 0; ok && g < f->n_groups; g++)
    {
      r.group = g;
      ok = read_chunk (&r);
    }
  g_free (r.dict_ints);
  g_free (r.dict_doubles);
  g_free (r.dict_ids);
  g_free (r.buf);
  g_free (r.levels);
  g_free (r.indices);
  /* a null's value stays 0, NaN or no string, whatever a page put there */
  if (ok)
    for (guint64 i = 0; i < c->n; i++)
      if (!c->present[i])
        {
          if (c->ints)
            c->ints[i] = 0;
          else if (c->doubles)
            c->doubles[i] = NAN;
          else
            c->ids[i] = IV_INTERN_NONE;
        }
  return ok ? g_steal_pointer (&c) : NULL;
}

const char *
iv_parquet_column_string (const IvParquetColumn *c, guint64 row)
{
  if (!c->ids || row >= c->n || c->ids[row] == IV_INTERN_NONE)
    return NULL;
  return iv_intern_get (c->strings, c->ids[row]);
}

void
iv_parquet_column_free (IvParquetColumn *c)
{
  if (!c)
    return;
  g_free (c->present);
  g_free (c->ints);
  g_free (c->doubles);
  g_free (c->ids);
  if (c->strings)
    iv_intern_free (c->strings);
  g_free (c);
}
