/* iv-parquet.h: a small reader of flat Parquet files — the tables pyarrow writes, such
 * as AIPerf's server_metrics_export.parquet. What it reads: the footer (Thrift compact
 * protocol), a flat schema of required and optional columns (definition levels), INT32,
 * INT64, FLOAT, DOUBLE and BYTE_ARRAY values, PLAIN and dictionary (PLAIN_DICTIONARY,
 * RLE_DICTIONARY) encodings, data pages v1 and v2, and pages that are uncompressed,
 * Snappy or zstd compressed. Anything else (nested or repeated columns, other encodings
 * or codecs, encryption) is refused with the file, the column and what it uses.
 *
 * The file is hostile until read: every size and count it gives is checked against the
 * bytes there are before anything is allocated or looped over, and what a small file may
 * expand to is capped (IV_PARQUET_ROWS_FLOOR, IV_PARQUET_ROWS_PER_BYTE,
 * IV_PARQUET_PAGE_MAX). GLib only; the whole file is held in memory. */
#pragma once

#include <glib.h>

#include "iv-intern.h"

G_BEGIN_DECLS

/* Parquet's own numbers for the physical types that are read. */
typedef enum
{
  IV_PARQUET_BOOLEAN = 0, /* listed, not read */
  IV_PARQUET_INT32 = 1,
  IV_PARQUET_INT64 = 2,
  IV_PARQUET_INT96 = 3, /* listed, not read */
  IV_PARQUET_FLOAT = 4,
  IV_PARQUET_DOUBLE = 5,
  IV_PARQUET_BYTE_ARRAY = 6,
  IV_PARQUET_FIXED_LEN_BYTE_ARRAY = 7, /* listed, not read */
} IvParquetType;

typedef struct
{
  char *name; /* valid UTF-8 */
  IvParquetType type;
  gboolean optional; /* may hold nulls */
} IvParquetColumnInfo;

/* One column of every row group, decoded. */
typedef struct
{
  const IvParquetColumnInfo *info; /* the file's, valid as long as the file */
  guint64 n;                       /* rows */
  guint8 *present;                 /* n: 1 where the row has a value, 0 where it is null */
  gint64 *ints;                    /* INT32, INT64: n values, 0 where null */
  double *doubles;                 /* FLOAT, DOUBLE: n values, NaN where null */
  guint32 *ids;                    /* BYTE_ARRAY: n ids into @strings, IV_INTERN_NONE where null */
  IvIntern *strings; /* BYTE_ARRAY: each distinct value once (raw bytes, up to a NUL) */
} IvParquetColumn;

typedef struct _IvParquet IvParquet;

/* The whole file is read into memory: at most this many bytes (after any gzip or zstd
 * around it). */
#define IV_PARQUET_FILE_MAX ((gsize) 1 << 30)
/* Rows a file may hold: a run of identical values takes a few bytes for any count, so a
 * small file could otherwise claim billions. At most the floor or this many per byte of
 * file, whichever is more (a real table takes far more than a byte for 256 rows). */
#define IV_PARQUET_ROWS_FLOOR ((guint64) 1 << 20)
#define IV_PARQUET_ROWS_PER_BYTE 256
/* A page, decompressed: pyarrow writes 1 MiB pages. Past 4 MiB a page may also grow at
 * most 4096 times from its compressed size. */
#define IV_PARQUET_PAGE_MAX ((gsize) 256 << 20)
#define IV_PARQUET_PAGE_FREE ((gsize) 4 << 20)
#define IV_PARQUET_PAGE_RATIO 4096

/* Reads @path (plain, or inside gzip or zstd) and its footer; NULL with an error naming
 * the file, the place (byte offset) and the problem. */
IvParquet *iv_parquet_open (const char *path, GError **error);
/* The same from bytes in memory, named @name in messages; @bytes is kept. */
IvParquet *iv_parquet_new_from_bytes (GBytes *bytes, const char *name, GError **error);
void iv_parquet_free (IvParquet *file);

const char *iv_parquet_get_name (const IvParquet *file);
guint64 iv_parquet_get_rows (const IvParquet *file);
guint iv_parquet_get_row_groups (const IvParquet *file);
guint iv_parquet_get_columns (const IvParquet *file);
const IvParquetColumnInfo *iv_parquet_get_column_info (const IvParquet *file, guint column);
/* The column named @name, or -1. */
gint iv_parquet_find_column (const IvParquet *file, const char *name);
/* The footer's key-value metadata (pyarrow's "ARROW:schema", AIPerf's "aiperf.*"): the
 * value of @key, NULL when absent. Raw bytes up to a NUL: not checked as UTF-8. */
const char *iv_parquet_get_metadata (const IvParquet *file, const char *key);
/* "parquet-cpp-arrow version 17.0.0" and the like, or NULL. */
const char *iv_parquet_get_created_by (const IvParquet *file);

/* Decodes @column of every row group; NULL with an error naming the file, the column,
 * the row group and the byte offset of the page at fault, and the problem. */
IvParquetColumn *iv_parquet_read_column (IvParquet *file, guint column, GError **error);
/* Row @row's string (NULL where null). */
const char *iv_parquet_column_string (const IvParquetColumn *column, guint64 row);
void iv_parquet_column_free (IvParquetColumn *column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvParquet, iv_parquet_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvParquetColumn, iv_parquet_column_free)

G_END_DECLS
