/* test-input.c: the decompressing reader gives back exactly the bytes that were
 * compressed, and says clearly when compressed data is damaged or cut short. */
#include <gio/gio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

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

static GBytes *
concat_bytes (GBytes *a, GBytes *b)
{
  GByteArray *cat = g_byte_array_new ();
  g_byte_array_append (cat, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (cat, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  return g_byte_array_free_to_bytes (cat);
}

/* A zstd skippable frame (magic 0x184D2A5n, little-endian length, payload). */
static GBytes *
skippable_frame (guint nibble, gsize payload)
{
  guint8 *f = g_malloc0 (8 + payload);
  f[0] = 0x50 | (nibble & 0xf), f[1] = 0x2a, f[2] = 0x4d, f[3] = 0x18;
  f[4] = payload & 0xff, f[5] = (payload >> 8) & 0xff, f[6] = (payload >> 16) & 0xff;
  for (gsize i = 0; i < payload; i++)
    f[8 + i] = (guint8) (i * 31 + 7);
  return g_bytes_new_take (f, 8 + payload);
}

/* What follows the last gzip member is read as gzip reads it: zero padding is ignored
 * silently (gzip -dc exits 0), other bytes end the data and are reported (gzip: "trailing
 * garbage ignored"), a member after padding is garbage too, and a lone first magic byte
 * at the end is a member cut short (gzip: "unexpected end of file"). */
static void
test_gzip_trailing (void)
{
  g_autoptr (GBytes) plain = make_text (300 * 1024 + 3);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  /* padding longer than a read, so the zeros cross chunks */
  g_autoptr (GBytes) zeros = g_bytes_new_take (g_malloc0 (600 * 1024), 600 * 1024);
  g_autoptr (GBytes) padded = concat_bytes (gz, zeros);
  g_autoptr (GBytes) garbage_text = bytes_of ("garbage\n", 8);
  g_autoptr (GBytes) garbage = concat_bytes (gz, garbage_text);
  g_autoptr (GBytes) few_zeros = g_bytes_new_take (g_malloc0 (10), 10);
  g_autoptr (GBytes) padded_short = concat_bytes (gz, few_zeros);
  g_autoptr (GBytes) then_member = concat_bytes (padded_short, gz);
  g_autoptr (GBytes) magic = bytes_of ("\x1f", 1);
  g_autoptr (GBytes) cut = concat_bytes (gz, magic);
  guint64 at = 0;

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (padded, "padded.gz", &error);
    g_autoptr (GBytes) back = read_all (in, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (back, plain));
    g_assert_false (iv_input_get_trailing_garbage (in, NULL));
    g_assert_cmpuint (iv_input_get_raw_offset (in), ==, g_bytes_get_size (padded));
  }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (garbage, "garbage.gz", &error);
    g_autoptr (GBytes) back = read_all (in, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (back, plain));
    g_assert_true (iv_input_get_trailing_garbage (in, &at));
    g_assert_cmpuint (at, ==, g_bytes_get_size (gz));
  }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (then_member, "then-member.gz", &error);
    g_autoptr (GBytes) back = read_all (in, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (back, plain));
    g_assert_true (iv_input_get_trailing_garbage (in, &at));
    g_assert_cmpuint (at, ==, g_bytes_get_size (gz));
  }
  expect_failure (cut, G_IO_ERROR_PARTIAL_INPUT, "truncated");
}

/* zstd frames one after another, and skippable frames anywhere (first included: their
 * magic number is zstd's too), read as `zstd -dc` reads them; zero padding is not zstd
 * for zstd itself ("unsupported format"), and not here either. */
static void
test_zstd_frames (void)
{
  g_autoptr (GBytes) a = make_text (400 * 1024);
  g_autoptr (GBytes) b = make_text (1000);
  g_autoptr (GBytes) za = zstd_bytes (a);
  g_autoptr (GBytes) zb = zstd_bytes (b);
  g_autoptr (GBytes) skip = skippable_frame (0, 300 * 1024);
  g_autoptr (GBytes) skip_small = skippable_frame (0xe, 5);
  g_autoptr (GBytes) ab = concat_bytes (a, b);
  g_autoptr (GBytes) two = concat_bytes (za, zb);
  g_autoptr (GBytes) first = concat_bytes (skip, za);
  g_autoptr (GBytes) middle1 = concat_bytes (za, skip_small);
  g_autoptr (GBytes) middle = concat_bytes (middle1, zb);
  g_autoptr (GBytes) last = concat_bytes (za, skip);
  g_autoptr (GBytes) zeros = g_bytes_new_take (g_malloc0 (16), 16);
  g_autoptr (GBytes) padded = concat_bytes (za, zeros);
  g_autoptr (GBytes) empty = bytes_of ("", 0);

  roundtrip (ab, two, IV_COMPRESSION_ZSTD);
  roundtrip (a, first, IV_COMPRESSION_ZSTD);
  roundtrip (ab, middle, IV_COMPRESSION_ZSTD);
  roundtrip (a, last, IV_COMPRESSION_ZSTD);
  roundtrip (empty, skip_small, IV_COMPRESSION_ZSTD);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (padded, "broken.gz", &error);
    g_autoptr (GBytes) back = read_all (in, &error);
    g_assert_null (back);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "broken.gz: damaged zstd data"));
  }
}

/* A compressed text that is compressed again (a gzip of a gzip, a gzip of a zstd file)
 * is what `gzip -dc` gives; it is decompressed again, as the user would by hand. Past
 * four layers it is refused by name. */
static void
test_nested (void)
{
  g_autoptr (GBytes) plain = make_text (700 * 1024);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  g_autoptr (GBytes) gzgz = gzip_bytes (gz);
  g_autoptr (GBytes) zs = zstd_bytes (plain);
  g_autoptr (GBytes) gzzs = gzip_bytes (zs);
  g_autoptr (GBytes) g3 = gzip_bytes (gzgz);
  g_autoptr (GBytes) g4 = gzip_bytes (g3);
  g_autoptr (GBytes) g5 = gzip_bytes (g4);
  g_autoptr (GBytes) tiny = bytes_of ("[]", 2);
  g_autoptr (GBytes) tiny_gz = gzip_bytes (tiny);
  g_autoptr (GBytes) tiny_gzgz = gzip_bytes (tiny_gz);
  GBytes *twice[] = { gzgz, gzzs };

  for (guint i = 0; i < G_N_ELEMENTS (twice); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (IvInput) in = iv_input_new_from_bytes (twice[i], "twice", &error);
      g_autoptr (GBytes) back = read_all (in, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (back, plain));
      g_assert_cmpint (iv_input_get_compression (in), ==, IV_COMPRESSION_GZIP);
      g_assert_cmpuint (iv_input_get_layers (in), ==, 2);
      g_assert_cmpuint (iv_input_get_raw_offset (in), ==, g_bytes_get_size (twice[i]));
    }
  roundtrip (plain, g4, IV_COMPRESSION_GZIP);
  roundtrip (tiny, tiny_gzgz, IV_COMPRESSION_GZIP);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (IvInput) in = iv_input_new_from_bytes (g5, "five.gz", &error);
    g_autoptr (GBytes) back = read_all (in, &error);
    g_assert_null (back);
    g_assert_cmpstr (error->message, ==,
                     "five.gz: compressed more than 4 times over; decompress it first");
  }
  /* a plain file is no layer; a gzip file one */
  {
    g_autoptr (IvInput) p = iv_input_new_from_bytes (plain, "plain", NULL);
    g_autoptr (IvInput) g = iv_input_new_from_bytes (gz, "gz", NULL);
    g_autoptr (GBytes) pb = read_all (p, NULL);
    g_autoptr (GBytes) gb = read_all (g, NULL);
    g_assert_true (g_bytes_equal (pb, plain) && g_bytes_equal (gb, plain));
    g_assert_cmpuint (iv_input_get_layers (p), ==, 0);
    g_assert_cmpuint (iv_input_get_layers (g), ==, 1);
  }
}

/* iv_input_read_all: the whole text, refused past its maximum by name. */
static void
test_read_all (void)
{
  g_autoptr (GBytes) plain = make_text (900 * 1024 + 1);
  g_autoptr (GBytes) gz = gzip_bytes (plain);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvInput) in = iv_input_new_from_bytes (gz, "doc.json.gz", &error);
  g_autoptr (IvInput) small = iv_input_new_from_bytes (gz, "doc.json.gz", &error);
  gsize len = 0;
  g_autofree char *text = iv_input_read_all (in, 1 << 20, &len, &error);
  g_autofree char *refused = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (len, ==, g_bytes_get_size (plain));
  g_assert_true (memcmp (text, g_bytes_get_data (plain, NULL), len) == 0);
  g_assert_cmpint (text[len], ==, '\0');
  refused = iv_input_read_all (small, 512 * 1024, &len, &error);
  g_assert_null (refused);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_nonnull (strstr (error->message, "doc.json.gz: larger than the 0 MiB"));
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

  /* a socket cannot even be opened (ENXIO): it is said to be a socket all the same */
  {
    g_autofree char *sock = g_build_filename (dir, "trace.sock.json", NULL);
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket (AF_UNIX, SOCK_STREAM, 0);
    g_assert_cmpint (fd, >=, 0);
    if (strlen (sock) < sizeof addr.sun_path)
      {
        g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
        g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
        in = iv_input_open (sock, &error);
        g_assert_null (in);
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
        g_assert_nonnull (strstr (error->message, "trace.sock.json: is a socket;"));
        g_clear_error (&error);
        g_assert_cmpstr (iv_input_file_kind (sock), ==, "a socket");
      }
    close (fd);
  }
  g_assert_cmpstr (iv_input_file_kind (fifo), ==, "a named pipe (FIFO)");
  g_assert_cmpstr (iv_input_file_kind ("/dev/null"), ==, "a device");
  g_assert_cmpstr (iv_input_file_kind (dir), ==, "a folder");
  g_assert_null (iv_input_file_kind ("/nonexistent/x"));
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
  g_test_add_func ("/input/gzip-trailing", test_gzip_trailing);
  g_test_add_func ("/input/zstd-frames", test_zstd_frames);
  g_test_add_func ("/input/nested", test_nested);
  g_test_add_func ("/input/read-all", test_read_all);
  g_test_add_func ("/input/truncated", test_truncated);
  g_test_add_func ("/input/damaged", test_damaged);
  g_test_add_func ("/input/missing-file", test_missing_file);
  g_test_add_func ("/input/bom", test_bom);
  g_test_add_func ("/input/utf16", test_utf16);
  g_test_add_func ("/input/expansion-limit", test_expansion_limit);
  g_test_add_func ("/input/special-files", test_special_files);
  return g_test_run ();
}
