/* test-input.c: the decompressing reader gives back exactly the bytes that were
 * compressed, and says clearly when compressed data is damaged or cut short. */
#include <gio/gio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <sys/stat.h>

#include "iv-test-util.h"

#include "iv-input.h"

/* Deterministic text long enough to cross several 256 KiB chunks. */
static GBytes *
make_text (gsize size)
{
  GString *s = g_string_sized_new (size);
  guint i = 0;
  while (s->len < size)
    g_string_append_printf (s, "{\"ts\": %u, \"name\": \"kernel_%u\"},\n", i * 7919u, i % 97), i++;
  g_string_truncate (s, size);
  return g_string_free_to_bytes (s);
}

static GBytes *
gzip_bytes (GBytes *plain)
{
  z_stream z = { 0 };
  gsize len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  gsize cap = compressBound (len) + 64;
  guint8 *out = g_malloc (cap);

  g_assert_cmpint (deflateInit2 (&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==,
                   Z_OK);
  z.next_in = (guint8 *) data;
  z.avail_in = len;
  z.next_out = out;
  z.avail_out = cap;
  g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&z);
  return g_bytes_new_take (out, z.total_out);
}

static GBytes *
zstd_bytes (GBytes *plain)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  gsize cap = ZSTD_compressBound (len);
  guint8 *out = g_malloc (cap);
  gsize n = ZSTD_compress (out, cap, data, len, 3);
  g_assert_false (ZSTD_isError (n));
  return g_bytes_new_take (out, n);
}

static GBytes *
read_all (IvInput *in, GError **error)
{
  GByteArray *out = g_byte_array_new ();
  guint8 buf[10007]; /* an odd size, to cross every boundary */
  gssize n;

  while ((n = iv_input_read (in, buf, sizeof buf, error)) > 0)
    g_byte_array_append (out, buf, n);
  if (n < 0)
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}

static void
roundtrip (GBytes *plain, GBytes *stored, IvCompression expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (stored, "sample", &error);
  g_autoptr (GBytes) back = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (iv_input_get_compression (in), ==, expected);
  back = read_all (in, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (back, plain));
  g_assert_cmpuint (iv_input_get_raw_offset (in), ==, g_bytes_get_size (stored));
}

static void
test_plain (void)
{
  g_autoptr (GBytes) plain = make_text (700 * 1024);
  roundtrip (plain, plain, IV_COMPRESSION_NONE);
}

static void
test_gzip (void)
{
  g_autoptr (GBytes) plain = make_text (3 * 1024 * 1024 + 17);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  roundtrip (plain, gz, IV_COMPRESSION_GZIP);
}

static void
test_gzip_concatenated (void)
{
  g_autoptr (GBytes) a = make_text (1000);
  g_autoptr (GBytes) b = make_text (2000);
  g_autoptr (GBytes) gza = gzip_bytes (a);
  g_autoptr (GBytes) gzb = gzip_bytes (b);
  GByteArray *cat = g_byte_array_new (), *plain = g_byte_array_new ();
  g_autoptr (GBytes) stored = NULL, expected = NULL;

  g_byte_array_append (cat, g_bytes_get_data (gza, NULL), g_bytes_get_size (gza));
  g_byte_array_append (cat, g_bytes_get_data (gzb, NULL), g_bytes_get_size (gzb));
  g_byte_array_append (plain, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (plain, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  stored = g_byte_array_free_to_bytes (cat);
  expected = g_byte_array_free_to_bytes (plain);
  roundtrip (expected, stored, IV_COMPRESSION_GZIP);
}

static void
test_zstd (void)
{
  g_autoptr (GBytes) plain = make_text (2 * 1024 * 1024 + 5);
  g_autoptr (GBytes) zs = zstd_bytes (plain);
  roundtrip (plain, zs, IV_COMPRESSION_ZSTD);
}

static void
expect_failure (GBytes *stored, int code, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (stored, "broken.gz", &error);
  g_autoptr (GBytes) back = NULL;

  g_assert_no_error (error);
  back = read_all (in, &error);
  g_assert_null (back);
  g_assert_error (error, G_IO_ERROR, code);
  g_assert_nonnull (strstr (error->message, "broken.gz"));
  g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_truncated (void)
{
  g_autoptr (GBytes) plain = make_text (500 * 1024);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  g_autoptr (GBytes) zs = zstd_bytes (plain);
  g_autoptr (GBytes) gz_cut = g_bytes_new_from_bytes (gz, 0, g_bytes_get_size (gz) / 2);
  g_autoptr (GBytes) zs_cut = g_bytes_new_from_bytes (zs, 0, g_bytes_get_size (zs) / 2);

  expect_failure (gz_cut, G_IO_ERROR_PARTIAL_INPUT, "truncated");
  expect_failure (zs_cut, G_IO_ERROR_PARTIAL_INPUT, "truncated");
}

static void
test_damaged (void)
{
  g_autoptr (GBytes) plain = make_text (200 * 1024);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  gsize len = g_bytes_get_size (gz);
  guint8 *copy = g_memdup2 (g_bytes_get_data (gz, NULL), len);
  g_autoptr (GBytes) bad = NULL;

  /* Flip bytes in the middle of the deflate stream. */
  for (gsize i = len / 3; i < len / 3 + 64; i++)
    copy[i] ^= 0xa5;
  bad = g_bytes_new_take (copy, len);
  expect_failure (bad, G_IO_ERROR_INVALID_DATA, "damaged gzip data");
}

static void
test_missing_file (void)
{
  g_autoptr (GError) error = NULL;
  IvInput *in = iv_input_open ("/nonexistent/trace.json", &error);

  g_assert_null (in);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/trace.json"));
}

static GBytes *
bytes_of (const char *data, gsize len)
{
  return g_bytes_new (data, len);
}

/* A UTF-8 byte-order mark is dropped, in plain and compressed files alike. */
static void
test_bom (void)
{
  g_autoptr (GBytes) with_bom = bytes_of ("\xef\xbb\xbf{\"a\": 1}", 11);
  g_autoptr (GBytes) without = bytes_of ("{\"a\": 1}", 8);
  g_autoptr (GBytes) gz = gzip_bytes (with_bom);
  g_autoptr (GBytes) tiny = bytes_of ("\xef\xbb\xbf", 3);
  g_autoptr (GBytes) empty = bytes_of ("", 0);

  roundtrip (without, with_bom, IV_COMPRESSION_NONE);
  roundtrip (without, gz, IV_COMPRESSION_GZIP);
  roundtrip (empty, tiny, IV_COMPRESSION_NONE);
  /* Short files are passed through whole. */
  {
    g_autoptr (GBytes) one = bytes_of ("7", 1);
    roundtrip (one, one, IV_COMPRESSION_NONE);
  }
}

static void
expect_encoding_refused (const char *data, gsize len, const char *message)
{
  g_autoptr (GBytes) stored = bytes_of (data, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (stored, "wide.json", &error);
  g_autoptr (GBytes) back = NULL;

  g_assert_no_error (error);
  back = read_all (in, &error);
  g_assert_null (back);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_utf16 (void)
{
  expect_encoding_refused ("\xff\xfe{\0}\0", 6, "wide.json: UTF-16 text: save the file as UTF-8");
  expect_encoding_refused ("\xfe\xff\0{\0}", 6, "wide.json: UTF-16 text: save the file as UTF-8");
  expect_encoding_refused ("{\0\"\0", 4, "wide.json: UTF-16 text: save the file as UTF-8");
  expect_encoding_refused ("\0{\0\"", 4, "wide.json: UTF-16 text: save the file as UTF-8");
  expect_encoding_refused ("\xff\xfe\0\0{\0\0\0", 8,
                           "wide.json: UTF-32 text: save the file as UTF-8");
  expect_encoding_refused ("\0\0\xfe\xff\0\0\0{", 8,
                           "wide.json: UTF-32 text: save the file as UTF-8");
}

/* Past the floor, a stream that outgrows the ratio is refused, naming the ratio; with
 * --allow-huge it reads to the end. 8 MiB of spaces deflate about 1,000-fold. */
static void
test_expansion_limit (void)
{
  gsize size = 8 << 20;
  g_autoptr (GBytes) plain = g_bytes_new_take (memset (g_malloc (size), ' ', size), size);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  g_autoptr (GBytes) zs = zstd_bytes (plain);
  GBytes *stored[] = { gz, zs };

  for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (IvInput) in = iv_input_new_from_bytes (stored[i], "bomb.json.gz", &error);
      g_autoptr (GBytes) back = NULL;

      g_assert_no_error (error);
      iv_input_set_expansion_limit (in, 1 << 20, 50);
      back = read_all (in, &error);
      g_assert_null (back);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
      g_assert_nonnull (strstr (error->message, "bomb.json.gz: the "));
      g_assert_nonnull (strstr (error->message, "more than the 50:1 a real file reaches"));
      g_assert_nonnull (strstr (error->message, "--allow-huge"));
      g_clear_error (&error);
      g_clear_pointer (&in, iv_input_free);

      iv_input_set_allow_huge (TRUE);
      in = iv_input_new_from_bytes (stored[i], "bomb.json.gz", &error);
      iv_input_set_expansion_limit (in, 1 << 20, 50);
      back = read_all (in, &error);
      iv_input_set_allow_huge (FALSE);
      g_assert_no_error (error);
      g_assert_cmpuint (g_bytes_get_size (back), ==, size);
    }
  /* A plain file is never a bomb, whatever the limit. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (plain, "plain.json", &error);
    g_autoptr (GBytes) back = NULL;
    iv_input_set_expansion_limit (in, 1 << 20, 1);
    back = read_all (in, &error);
    g_assert_no_error (error);
  }
}

/* FIFOs, devices and folders are refused at open, before anything is read. */
static void
test_special_files (void)
{
  g_autofree char *dir = iv_test_make_tmpdir ("iv-input-XXXXXX");
  g_autofree char *fifo = g_build_filename (dir, "trace.json", NULL);
  g_autoptr (GError) error = NULL;
  IvInput *in;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  in = iv_input_open (fifo, &error);
  g_assert_null (in);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (error->message, "trace.json: is a named pipe (FIFO)"));
  g_clear_error (&error);

  in = iv_input_open ("/dev/null", &error);
  g_assert_null (in);
  g_assert_cmpstr (error->message, ==,
                   "/dev/null: is a device; Inferview reads only regular files");
  g_clear_error (&error);

  in = iv_input_open (dir, &error);
  g_assert_null (in);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);
  iv_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/input/plain", test_plain);
  g_test_add_func ("/input/gzip", test_gzip);
  g_test_add_func ("/input/gzip-concatenated", test_gzip_concatenated);
  g_test_add_func ("/input/zstd", test_zstd);
  g_test_add_func ("/input/truncated", test_truncated);
  g_test_add_func ("/input/damaged", test_damaged);
  g_test_add_func ("/input/missing-file", test_missing_file);
  g_test_add_func ("/input/bom", test_bom);
  g_test_add_func ("/input/utf16", test_utf16);
  g_test_add_func ("/input/expansion-limit", test_expansion_limit);
  g_test_add_func ("/input/special-files", test_special_files);
  return g_test_run ();
}
