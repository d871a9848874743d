/* test-parquet.c: the Parquet reader against files of known content. The files in
 * tests/data/parquet/ were written by build-aux/gen-parquet.py with the layout pyarrow
 * gives AIPerf's server_metrics_export.parquet; each holds the same 12 rows (its
 * test_rows ()), spelled out again here by hand, in every encoding × codec × page version
 * AIPerf's files can have. Damaged and truncated files are refused with the file, the
 * column and the byte of the page at fault; every one-byte change of a file is either
 * read or refused, never a crash. */
#include <gio/gio.h>
#include <math.h>
#include <string.h>
#include <zstd.h>

#include "iv-test-util.h"

#include "iv-parquet.h"
#include "iv-snappy.h"

#define T0 G_GINT64_CONSTANT (1765793061967310848)
#define EP_A "http://localhost:8000/metrics"
#define EP_B "http://localhost:8001/metrics"
#define QWEN "Qwen/Qwen3-0.6B"
#define KV "vllm:kv_cache_usage_perc"
#define GEN "vllm:generation_tokens"
#define QUEUE "vllm:request_queue_time_seconds"
#define KV_HELP "KV-cache usage. 1 means 100 percent usage."
#define GEN_HELP "Number of generation tokens processed."
#define QUEUE_HELP "Histogram of time spent in WAITING phase for request."
#define N 12

/* The table, column by column (NULL or NAN: null). */
static const char *const endpoint_url[N]
    = { EP_A, EP_A, EP_A, EP_A, EP_A, EP_A, EP_B, EP_B, EP_B, EP_B, EP_B, EP_B };
static const char *const metric_name[N]
    = { KV, KV, KV, GEN, GEN, GEN, QUEUE, QUEUE, QUEUE, QUEUE, QUEUE, QUEUE };
static const char *const metric_type[N]
    = { "gauge",     "gauge",     "gauge",     "counter",   "counter",   "counter",
        "histogram", "histogram", "histogram", "histogram", "histogram", "histogram" };
static const char *const unit[N]
    = { "ratio",   "ratio",   "ratio",   "tokens",  "tokens",  "tokens",
        "seconds", "seconds", "seconds", "seconds", "seconds", "seconds" };
static const char *const description[N]
    = { KV_HELP,    KV_HELP,    KV_HELP,    GEN_HELP,   GEN_HELP,   GEN_HELP,
        QUEUE_HELP, QUEUE_HELP, QUEUE_HELP, QUEUE_HELP, QUEUE_HELP, QUEUE_HELP };
static const gint64 timestamp_ns[N] = { T0,
                                        T0 + 1000000000,
                                        T0 + 2000000000,
                                        T0,
                                        T0 + 1000000000,
                                        T0 + 2000000000,
                                        T0,
                                        T0,
                                        T0,
                                        T0 + 1000000000,
                                        T0 + 1000000000,
                                        T0 + 1000000000 };
static const char *const engine[N]
    = { "0", "0", "0", NULL, NULL, NULL, "0", "0", "0", "0", "0", "0" };
static const char *const model_name[N]
    = { QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN, QWEN };
static const double value[N] = { 0.25, 0.5, 0.75, 0, 120, 300, NAN, NAN, NAN, NAN, NAN, NAN };
static const double sum[N] = { NAN, NAN, NAN, NAN, NAN, NAN, 0, 0, 0, 0.35, 0.35, 0.35 };
static const double count[N] = { NAN, NAN, NAN, NAN, NAN, NAN, 0, 0, 0, 3, 3, 3 };
static const char *const bucket_le[N]
    = { NULL, NULL, NULL, NULL, NULL, NULL, "0.1", "1.0", "+Inf", "0.1", "1.0", "+Inf" };
static const double bucket_count[N] = { NAN, NAN, NAN, NAN, NAN, NAN, 0, 0, 0, 1, 3, 3 };

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("IV_TEST_DATA"), "parquet", name, NULL);
}

static IvParquet *
open_ok (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr (GError) error = NULL;
  IvParquet *f = iv_parquet_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f);
  return f;
}

static IvParquetColumn *
column (IvParquet *f, const char *name)
{
  g_autoptr (GError) error = NULL;
  gint i = iv_parquet_find_column (f, name);
  IvParquetColumn *c;
  g_assert_cmpint (i, >=, 0);
  c = iv_parquet_read_column (f, (guint) i, &error);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->n, ==, N);
  return c;
}

static void
check_strings (IvParquet *f, const char *name, const char *const *want)
{
  g_autoptr (IvParquetColumn) c = column (f, name);
  g_assert_cmpint (c->info->type, ==, IV_PARQUET_BYTE_ARRAY);
  for (guint i = 0; i < N; i++)
    {
      g_assert_cmpint (c->present[i], ==, want[i] != NULL);
      g_assert_cmpstr (iv_parquet_column_string (c, i), ==, want[i]);
    }
}

static void
check_doubles (IvParquet *f, const char *name, const double *want)
{
  g_autoptr (IvParquetColumn) c = column (f, name);
  g_assert_cmpint (c->info->type, ==, IV_PARQUET_DOUBLE);
  for (guint i = 0; i < N; i++)
    {
      g_assert_cmpint (c->present[i], ==, !isnan (want[i]));
      if (isnan (want[i]))
        g_assert_true (isnan (c->doubles[i]));
      else
        g_assert_cmpfloat (c->doubles[i], ==, want[i]);
    }
}

static void
check_table (const char *name)
{
  g_autoptr (IvParquet) f = open_ok (name);
  g_autoptr (IvParquetColumn) ts = NULL;
  static const char *const order[]
      = { "endpoint_url", "metric_name", "metric_type", "unit",  "description",
          "timestamp_ns", "engine",      "model_name",  "value", "sum",
          "count",        "bucket_le",   "bucket_count" };

  g_test_message ("%s", name);
  g_assert_cmpuint (iv_parquet_get_rows (f), ==, N);
  g_assert_cmpuint (iv_parquet_get_columns (f), ==, G_N_ELEMENTS (order));
  /* AIPerf's column order: fixed, labels sorted, values */
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_cmpstr (iv_parquet_get_column_info (f, i)->name, ==, order[i]);
  check_strings (f, "endpoint_url", endpoint_url);
  check_strings (f, "metric_name", metric_name);
  check_strings (f, "metric_type", metric_type);
  check_strings (f, "unit", unit);
  check_strings (f, "description", description);
  check_strings (f, "engine", engine);
  check_strings (f, "model_name", model_name);
  check_strings (f, "bucket_le", bucket_le);
  check_doubles (f, "value", value);
  check_doubles (f, "sum", sum);
  check_doubles (f, "count", count);
  check_doubles (f, "bucket_count", bucket_count);
  ts = column (f, "timestamp_ns");
  g_assert_cmpint (ts->info->type, ==, IV_PARQUET_INT64);
  for (guint i = 0; i < N; i++)
    {
      g_assert_true (ts->present[i]);
      g_assert_cmpint (ts->ints[i], ==, timestamp_ns[i]);
    }
  /* the strings of a column are held once each */
  {
    g_autoptr (IvParquetColumn) m = column (f, "metric_name");
    g_assert_cmpuint (iv_intern_size (m->strings), ==, 3);
  }
}

/* Every encoding × codec × page version: the same 12 rows. */
static void
test_table (void)
{
  static const char *const encodings[] = { "dict", "plaindict", "plain" };
  static const char *const codecs[] = { "none", "snappy", "zstd" };

  for (guint e = 0; e < G_N_ELEMENTS (encodings); e++)
    for (guint c = 0; c < G_N_ELEMENTS (codecs); c++)
      for (guint v = 1; v <= 2; v++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%s-v%u.parquet", encodings[e], codecs[c], v);
          check_table (name);
        }
}

/* Two row groups (7 and 5 rows), pages of 3 rows, a dictionary that stops after the
 * first page of each chunk (then PLAIN), Snappy copies with 4-byte offsets. */
static void
test_fallback_groups (void)
{
  g_autoptr (IvParquet) f = open_ok ("fallback-groups-snappy-v1.parquet");
  g_assert_cmpuint (iv_parquet_get_row_groups (f), ==, 2);
  check_table ("fallback-groups-snappy-v1.parquet");
}

/* Required columns have no definition levels; the file says which are. */
static void
test_required (void)
{
  const char *const files[] = { "required-snappy-v1.parquet", "required-zstd-v2.parquet" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (IvParquet) f = open_ok (files[i]);
      g_assert_false (
          iv_parquet_get_column_info (f, iv_parquet_find_column (f, "metric_name"))->optional);
      g_assert_false (
          iv_parquet_get_column_info (f, iv_parquet_find_column (f, "timestamp_ns"))->optional);
      g_assert_true (
          iv_parquet_get_column_info (f, iv_parquet_find_column (f, "engine"))->optional);
      g_assert_true (iv_parquet_get_column_info (f, iv_parquet_find_column (f, "value"))->optional);
      check_table (files[i]);
    }
}

/* One page of 40 rows: runs of more than 8 equal values become RLE runs in the levels
 * and the dictionary indices; the values are min(i, 20) / 4 rounded down. */
static void
test_runs (void)
{
  g_autoptr (IvParquet) f = open_ok ("runs-snappy-v1.parquet");
  g_autoptr (GError) error = NULL;
  g_autoptr (IvParquetColumn) v
      = iv_parquet_read_column (f, iv_parquet_find_column (f, "value"), &error);
  g_autoptr (IvParquetColumn) e
      = iv_parquet_read_column (f, iv_parquet_find_column (f, "engine"), &error);
  g_autoptr (IvParquetColumn) t
      = iv_parquet_read_column (f, iv_parquet_find_column (f, "timestamp_ns"), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (v->n, ==, 40);
  for (guint i = 0; i < 40; i++)
    {
      g_assert_cmpfloat (v->doubles[i], ==, (double) (MIN (i, 20) / 4));
      g_assert_false (e->present[i]);
      g_assert_cmpint (t->ints[i], ==, T0 + (gint64) i * 333000000);
    }
}

/* The footer's key-value metadata and writer. */
static void
test_metadata (void)
{
  g_autoptr (IvParquet) f = open_ok ("dict-snappy-v1.parquet");

  g_assert_cmpstr (iv_parquet_get_metadata (f, "aiperf.schema_version"), ==, "1.0");
  g_assert_cmpstr (iv_parquet_get_metadata (f, "aiperf.label_columns"), ==,
                   "[\"engine\", \"model_name\"]");
  g_assert_cmpstr (iv_parquet_get_metadata (f, "aiperf.time_filter_start_ns"), ==,
                   "1765793061967310848");
  g_assert_null (iv_parquet_get_metadata (f, "no such key"));
  g_assert_true (
      g_str_has_prefix (iv_parquet_get_created_by (f), "Inferview build-aux/gen-parquet.py"));
  g_assert_cmpint (iv_parquet_find_column (f, "no such column"), ==, -1);
}

/* What the reader refuses: the message names the file, the column (and, for a page, the
 * row group and the byte it starts at) and the feature or the damage. */
static void
test_refusals (void)
{
  static const struct
  {
    const char *file, *column, *want;
    gboolean at_open;
  } cases[] = {
    { "refuse-gzip.parquet", "metric_type",
      "column “metric_type”, row group 0, page at byte 376: it is compressed with GZIP; Inferview "
      "reads uncompressed, SNAPPY and ZSTD pages",
      FALSE },
    { "refuse-delta.parquet", "timestamp_ns",
      "column “timestamp_ns”, row group 0, page at byte 833: its values are "
      "DELTA_BINARY_PACKED-encoded; Inferview reads PLAIN and dictionary pages",
      FALSE },
    { "refuse-nested.parquet", NULL,
      "column “bucket_count_group” is a group of columns (Inferview reads flat tables only)",
      TRUE },
    { "refuse-repeated.parquet", NULL,
      "column “value” is repeated (Inferview reads flat tables only)", TRUE },
    { "hostile-rows.parquet", NULL,
      "row group 0 says it has 1099511627776 rows, more than a file of", TRUE },
    { "hostile-dict-index.parquet", "metric_name",
      "column “metric_name”, row group 0, page at byte 221: value 6 refers to entry 2 of a "
      "dictionary of 2 entries",
      FALSE },
    { "hostile-snappy.parquet", "unit",
      "column “unit”, row group 0, page at byte 497: its Snappy data is damaged at byte 536: a "
      "copy reaches before the start of the output",
      FALSE },
    { "hostile-page-size.parquet", "description",
      "column “description”, row group 0, page at byte 706: a page of 14 compressed bytes says it "
      "holds 209715200",
      FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = data_path (cases[i].file);
      g_autoptr (GError) error = NULL;
      g_autoptr (IvParquet) f = iv_parquet_open (path, &error);
      g_autoptr (IvParquetColumn) c = NULL;

      g_test_message ("%s", cases[i].file);
      if (cases[i].at_open)
        {
          g_assert_null (f);
          g_assert_nonnull (error);
        }
      else
        {
          g_assert_no_error (error);
          /* the other columns still read */
          for (guint k = 0; k < iv_parquet_get_columns (f); k++)
            {
              g_autoptr (IvParquetColumn) other = NULL;
              if (g_str_equal (iv_parquet_get_column_info (f, k)->name, cases[i].column))
                continue;
              other = iv_parquet_read_column (f, k, &error);
              g_assert_no_error (error);
            }
          c = iv_parquet_read_column (f, iv_parquet_find_column (f, cases[i].column), &error);
          g_assert_null (c);
        }
      g_test_message ("%s", error->message);
      g_assert_true (strstr (error->message, cases[i].file) != NULL);
      g_assert_true (strstr (error->message, cases[i].want) != NULL);
    }
}

static GBytes *
load (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr (GError) error = NULL;
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  return g_bytes_new_take (data, len);
}

/* Reads every column; TRUE when all read. An error always names the file. */
static gboolean
read_all (GBytes *bytes, GError **error)
{
  g_autoptr (IvParquet) f = iv_parquet_new_from_bytes (bytes, "mangled.parquet", error);
  if (!f)
    return FALSE;
  for (guint c = 0; c < iv_parquet_get_columns (f); c++)
    {
      g_autoptr (IvParquetColumn) col = iv_parquet_read_column (f, c, error);
      if (!col)
        return FALSE;
      g_assert_cmpuint (col->n, ==, iv_parquet_get_rows (f));
    }
  return TRUE;
}

/* A file cut anywhere is refused: it no longer ends with the footer's magic. */
static void
test_truncated (void)
{
  g_autoptr (GBytes) whole = load ("dict-snappy-v1.parquet");
  gsize len;
  const guint8 *data = g_bytes_get_data (whole, &len);

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr (GBytes) part = g_bytes_new_static (data, cut);
      g_autoptr (GError) error = NULL;
      g_assert_false (read_all (part, &error));
      g_assert_true (g_str_has_prefix (error->message, "mangled.parquet: "));
      if (cut >= 12)
        g_assert_nonnull (strstr (error->message, "the file is cut or damaged"));
    }
  /* cut in the middle, with the tail kept (a file whose pages were lost): the footer
   * points past what is left */
  {
    g_autoptr (GByteArray) b = g_byte_array_new ();
    g_autoptr (GBytes) mangled = NULL;
    g_autoptr (GError) error = NULL;
    gsize footer = (gsize) data[len - 8] | (gsize) data[len - 7] << 8;
    g_byte_array_append (b, data, 4);
    g_byte_array_append (b, data + len - 8 - footer, footer + 8);
    mangled = g_byte_array_free_to_bytes (g_steal_pointer (&b));
    g_assert_false (read_all (mangled, &error));
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "column “endpoint_url”, row group 0, page at byte"));
    g_assert_nonnull (strstr (error->message, "lies outside the file's pages"));
  }
}

/* Every byte of two files changed in turn (all bits flipped): read or refused, never a
 * crash; a refusal names the file. */
static void
test_flipped (void)
{
  static const char *const files[] = { "dict-snappy-v1.parquet", "plain-zstd-v2.parquet" };

  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    {
      g_autoptr (GBytes) whole = load (files[k]);
      gsize len;
      const guint8 *data = g_bytes_get_data (whole, &len);
      guint refused = 0;
      for (gsize i = 0; i < len; i++)
        {
          guint8 *copy = g_memdup2 (data, len);
          g_autoptr (GBytes) b = NULL;
          g_autoptr (GError) error = NULL;
          copy[i] ^= 0xff;
          b = g_bytes_new_take (copy, len);
          if (!read_all (b, &error))
            {
              g_assert_true (g_str_has_prefix (error->message, "mangled.parquet: "));
              refused++;
            }
        }
      g_test_message ("%s: %u of %" G_GSIZE_FORMAT " changed bytes refused", files[k], refused,
                      len);
      g_assert_cmpuint (refused, >, 0);
    }
}

/* A footer by hand: "PAR1", the FileMetaData @footer, its length, "PAR1". */
static GBytes *
with_footer (const guint8 *footer, gsize len)
{
  GByteArray *b = g_byte_array_new ();
  guint8 n[4] = { len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, len >> 24 };
  g_byte_array_append (b, (const guint8 *) "PAR1", 4);
  g_byte_array_append (b, footer, len);
  g_byte_array_append (b, n, 4);
  g_byte_array_append (b, (const guint8 *) "PAR1", 4);
  return g_byte_array_free_to_bytes (b);
}

/* Counts from the footer are checked against its bytes before anything is allocated. */
static void
test_hostile_footer (void)
{
  /* version = 2, then a schema list that says it has 2^40 elements */
  static const guint8 list_bomb[]
      = { 0x15, 0x04, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x00 };
  /* version, then field 9 (unknown): a struct nested 100 deep */
  guint8 deep[2 + 100 + 1];
  /* a list of 3 schema elements (root of 2 children) and no row groups, and the row
   * count -5 */
  static const guint8 negative_rows[]
      = { 0x15, 0x04, 0x19, 0x3c, 0x48, 0x01, 'r',  0x15, 0x04, 0x00, 0x15,
          0x0c, 0x25, 0x02, 0x18, 0x01, 'a',  0x00, 0x15, 0x04, 0x25, 0x02,
          0x18, 0x01, 'b',  0x00, 0x16, 0x09, 0x19, 0x0c, 0x00 };
  struct
  {
    const guint8 *footer;
    gsize len;
    const char *want;
  } cases[] = {
    { list_bomb, sizeof list_bomb, "a list says it has more elements than there are bytes" },
    { deep, sizeof deep, "structures nest too deeply" },
    { negative_rows, sizeof negative_rows, "the row count is negative" },
  };

  deep[0] = 0x15, deep[1] = 0x04;
  deep[2] = 0x8c; /* field 9 (delta 8 after 1): a struct */
  for (guint i = 3; i < sizeof deep; i++)
    deep[i] = 0x1c; /* its field 1: a struct, and so on */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GBytes) b = with_footer (cases[i].footer, cases[i].len);
      g_autoptr (GError) error = NULL;
      g_assert_false (read_all (b, &error));
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, cases[i].want));
    }
  /* not Parquet at all, and a footer longer than the file */
  {
    g_autoptr (GBytes) json = g_bytes_new_static ("{\"metrics\": {}}\n", 16);
    g_autoptr (GError) error = NULL;
    static const guint8 long_footer[]
        = { 'P', 'A', 'R', '1', 0, 0, 0, 0, 0xff, 0xff, 0, 0, 'P', 'A', 'R', '1' };
    g_autoptr (GBytes) b = g_bytes_new_static (long_footer, sizeof long_footer);
    g_assert_false (read_all (json, &error));
    g_assert_nonnull (strstr (error->message, "not a Parquet file"));
    g_clear_error (&error);
    g_assert_false (read_all (b, &error));
    g_assert_nonnull (
        strstr (error->message,
                "the footer's length (65535 bytes, at byte 8) is more than the file holds"));
  }
}

/* A file inside zstd (server_metrics_export.parquet.zst) reads as the file. */
static void
test_compressed_file (void)
{
  g_autoptr (GBytes) whole = load ("dict-zstd-v2.parquet");
  g_autofree char *dir = iv_test_make_tmpdir ("iv-parquet-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "server_metrics_export.parquet.zst", NULL);
  g_autoptr (GError) error = NULL;
  gsize len, cap;
  const guint8 *data = g_bytes_get_data (whole, &len);
  g_autofree guint8 *z = g_malloc (cap = ZSTD_compressBound (len));
  size_t zlen = ZSTD_compress (z, cap, data, len, 3);
  g_autoptr (IvParquet) f = NULL;

  g_assert_false (ZSTD_isError (zlen));
  g_assert_true (g_file_set_contents (path, (const char *) z, (gssize) zlen, &error));
  f = iv_parquet_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iv_parquet_get_rows (f), ==, N);
  g_assert_nonnull (strstr (iv_parquet_get_name (f), "server_metrics_export.parquet.zst"));
  iv_test_remove_tree (dir);
}

/* Snappy blocks by hand, one of each element (format_description.txt). */
static void
test_snappy (void)
{
  /* "abcabcabcabcX": 3 literal bytes, a 1-byte-offset copy of 9 overlapping its own
   * output (offset 3), a literal "X" */
  static const guint8 overlap[] = { 13, 2 << 2, 'a', 'b', 'c', ((9 - 4) << 2) | 1, 3, 0 << 2, 'X' };
  /* a 2-byte-offset and a 4-byte-offset copy of "hello" */
  static const guint8 copies[]
      = { 15, 4 << 2, 'h', 'e', 'l', 'l', 'o', (4 << 2) | 2, 5, 0, (4 << 2) | 3, 10, 0, 0, 0 };
  /* a 61-byte literal (its length in the byte after the tag: 60 << 2) */
  guint8 lit61[2 + 61 + 1];
  guint8 out[64];
  gsize where, len;
  const char *why;

  g_assert_true (iv_snappy_length (overlap, sizeof overlap, &len));
  g_assert_cmpuint (len, ==, 13);
  g_assert_true (iv_snappy_decompress (overlap, sizeof overlap, out, 13, &where, &why));
  g_assert_cmpmem (out, 13, "abcabcabcabcX", 13);
  g_assert_true (iv_snappy_decompress (copies, sizeof copies, out, 15, &where, &why));
  g_assert_cmpmem (out, 15, "hellohellohello", 15);
  lit61[0] = 61;
  lit61[1] = 60 << 2;
  lit61[2] = 60;
  for (guint i = 0; i < 61; i++)
    lit61[3 + i - 0] = (guint8) ('A' + i % 26);
  g_assert_true (iv_snappy_decompress (lit61, 3 + 61, out, 61, &where, &why));
  g_assert_cmpint (out[60], ==, 'A' + 60 % 26);

  /* damage: where and why */
  {
    static const guint8 before_start[] = { 4, (3 << 2) | 2, 1, 0 };
    static const guint8 zero_offset[] = { 5, 0, 'a', (0 << 2) | 1, 0 };
    static const guint8 literal_past[] = { 5, 4 << 2, 'a', 'b' };
    static const guint8 cut_varint[] = { 0x80, 0x80 };
    static const guint8 short_output[] = { 3, 0, 'a' };
    static const guint8 long_output[] = { 1, 2 << 2, 'a', 'b', 'c' };
    g_assert_false (iv_snappy_decompress (before_start, sizeof before_start, out, 4, &where, &why));
    g_assert_cmpuint (where, ==, 1);
    g_assert_cmpstr (why, ==, "a copy reaches before the start of the output");
    g_assert_false (iv_snappy_decompress (zero_offset, sizeof zero_offset, out, 5, &where, &why));
    g_assert_cmpuint (where, ==, 3);
    g_assert_false (iv_snappy_decompress (literal_past, sizeof literal_past, out, 5, &where, &why));
    g_assert_cmpstr (why, ==, "a literal runs past the end of the block");
    g_assert_false (iv_snappy_decompress (cut_varint, sizeof cut_varint, out, 5, &where, &why));
    g_assert_false (iv_snappy_decompress (short_output, sizeof short_output, out, 3, &where, &why));
    g_assert_cmpstr (why, ==, "it ends before the announced length");
    g_assert_false (iv_snappy_decompress (long_output, sizeof long_output, out, 1, &where, &why));
    g_assert_cmpstr (why, ==, "a literal runs past the announced length");
    g_assert_false (iv_snappy_decompress (overlap, sizeof overlap, out, 12, &where, &why));
    g_assert_cmpstr (why, ==, "the length at its start differs from the page's");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parquet/snappy", test_snappy);
  g_test_add_func ("/parquet/table", test_table);
  g_test_add_func ("/parquet/fallback-groups", test_fallback_groups);
  g_test_add_func ("/parquet/required", test_required);
  g_test_add_func ("/parquet/runs", test_runs);
  g_test_add_func ("/parquet/metadata", test_metadata);
  g_test_add_func ("/parquet/refusals", test_refusals);
  g_test_add_func ("/parquet/truncated", test_truncated);
  g_test_add_func ("/parquet/flipped", test_flipped);
  g_test_add_func ("/parquet/hostile-footer", test_hostile_footer);
  g_test_add_func ("/parquet/compressed-file", test_compressed_file);
  return g_test_run ();
}
