/* iv-input.c: decompress on the fly so every loader streams gzip and zstd files the
 * same way as plain ones, without ever holding the whole decompressed text. The
 * compression is recognised by its magic bytes, not the file name: traces are often
 * renamed. Raw offsets are exposed so progress is reported against the file size.
 *
 * It is also where untrusted input is first met, so the rules every loader relies on
 * live here: only regular files are read (a FIFO would block for ever, /dev/zero never
 * ends), a UTF-8 byte-order mark is dropped and UTF-16/32 text refused by name, and a
 * compressed file that expands beyond any real trace's ratio is refused before it
 * fills the disk cache or the memory. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-input.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_CHUNK (256 * 1024)

/* Real traces compress 5–30×; a deflate stream of one repeated byte peaks near 1,030×.
 * Beyond the first gigabyte a file expanding more than this is refused. */
#define HUGE_FLOOR_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define HUGE_RATIO 1000

/* Process-wide policy, set once from the command line (--allow-huge); read atomically so
 * loads on worker threads see it without a data race. */
static gint allow_huge;

struct _IvInput
{
  char *name;
  FILE *file; /* NULL when reading from bytes */
  GBytes *bytes;
  gsize bytes_pos;
  guint64 raw_offset;
  guint64 raw_size;
  IvCompression compression;

  guint8 *raw; /* compressed bytes waiting to be decoded */
  gsize raw_len;
  gsize raw_pos;
  gboolean raw_eof;

  z_stream z;
  gboolean z_ready;
  gboolean z_member_done;
  ZSTD_DStream *zstd;
  gboolean stream_done;

  /* The first decoded bytes, held back until the encoding has been checked. */
  guint8 head[4];
  guint head_len, head_pos;
  gboolean head_checked;
  guint64 decoded;    /* decompressed bytes handed out so far */
  guint64 read_limit; /* 0: none; else the text ends here for the reader */
  gboolean hit_limit;
  guint64 huge_floor;
  guint huge_ratio;
};

static gsize
fill_raw (IvInput *in, GError **error)
{
  gsize n;

  if (in->raw_eof)
    return 0;
  if (in->file)
    {
      n = fread (in->raw, 1, RAW_CHUNK, in->file);
      if (n < RAW_CHUNK && ferror (in->file))
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: read failed: %s",
                       in->name, g_strerror (saved));
          return 0;
        }
    }
  else
    {
      gsize total;
      const guint8 *data = g_bytes_get_data (in->bytes, &total);
      n = MIN (RAW_CHUNK, total - in->bytes_pos);
      memcpy (in->raw, data + in->bytes_pos, n);
      in->bytes_pos += n;
    }
  if (n == 0)
    in->raw_eof = TRUE;
  in->raw_len = n;
  in->raw_pos = 0;
  in->raw_offset += n;
  return n;
}

static gboolean
sniff_compression (IvInput *in, GError **error)
{
  GError *local = NULL;

  fill_raw (in, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b)
    {
      in->compression = IV_COMPRESSION_GZIP;
      memset (&in->z, 0, sizeof in->z);
      /* 16 + MAX_WBITS: expect a gzip header. */
      if (inflateInit2 (&in->z, 16 + MAX_WBITS) != Z_OK)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot start gzip decoder",
                       in->name);
          return FALSE;
        }
      in->z_ready = TRUE;
    }
  else if (in->raw_len >= 4 && in->raw[0] == 0x28 && in->raw[1] == 0xb5 && in->raw[2] == 0x2f
           && in->raw[3] == 0xfd)
    {
      in->compression = IV_COMPRESSION_ZSTD;
      in->zstd = ZSTD_createDStream ();
      if (!in->zstd || ZSTD_isError (ZSTD_initDStream (in->zstd)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot start zstd decoder",
                       in->name);
          return FALSE;
        }
    }
  return TRUE;
}

static IvInput *
input_new (const char *name)
{
  IvInput *in = g_new0 (IvInput, 1);
  in->name = g_strdup (name);
  in->raw = g_malloc (RAW_CHUNK);
  in->huge_floor = HUGE_FLOOR_BYTES;
  in->huge_ratio = HUGE_RATIO;
  return in;
}

static const char *
file_type_name (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a folder";
  if (S_ISFIFO (mode))
    return "a named pipe (FIFO)";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  return "not a regular file";
}

int
iv_input_open_regular_fd (const char *path, guint64 *size, GError **error)
{
  g_autofree char *display = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  display = g_filename_display_name (path);
  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer for ever.
   * Nothing is read before fstat() has said it is a regular file. */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      if (S_ISDIR (st.st_mode))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s: is a folder, not a file",
                     display);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                     "%s: is %s; Inferview reads only regular files", display,
                     file_type_name (st.st_mode));
      close (fd);
      return -1;
    }
  /* A regular file never blocks; clear the flag so reads behave as usual. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (size)
    *size = (guint64) st.st_size;
  return fd;
}

IvInput *
iv_input_open (const char *path, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  g_autofree char *display = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  in = input_new (display);
  fd = iv_input_open_regular_fd (path, &in->raw_size, error);
  if (fd < 0)
    return NULL;
  in->file = fdopen (fd, "rb");
  if (!in->file)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      return NULL;
    }
  if (!sniff_compression (in, error))
    return NULL;
  return g_steal_pointer (&in);
}

IvInput *
iv_input_new_from_bytes (GBytes *bytes, const char *display_name, GError **error)
{
  g_autoptr (IvInput) in = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  in = input_new (display_name ? display_name : "(memory)");
  in->bytes = g_bytes_ref (bytes);
  in->raw_size = g_bytes_get_size (bytes);
  if (!sniff_compression (in, error))
    return NULL;
  return g_steal_pointer (&in);
}

static gssize
read_plain (IvInput *in, guint8 *out, gsize size, GError **error)
{
  if (in->raw_pos == in->raw_len)
    {
      GError *local = NULL;
      fill_raw (in, &local);
      if (local)
        {
          g_propagate_error (error, local);
          return -1;
        }
    }
  gsize n = MIN (size, in->raw_len - in->raw_pos);
  memcpy (out, in->raw + in->raw_pos, n);
  in->raw_pos += n;
  return (gssize) n;
}

/* Refills the compressed buffer: 1 when there is more, 0 at a clean end of the stream,
 * -1 with @error when reading failed or the data stops inside a gzip member or zstd frame. */
static int
refill_compressed (IvInput *in, const char *format_name, GError **error)
{
  GError *local = NULL;

  if (fill_raw (in, &local) > 0)
    return 1;
  if (local)
    {
      g_propagate_error (error, local);
      return -1;
    }
  if (!in->z_member_done)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                   "%s: the %s data ends early (the file is truncated)", in->name, format_name);
      return -1;
    }
  in->stream_done = TRUE;
  return 0;
}

static gssize
read_gzip (IvInput *in, guint8 *out, gsize size, GError **error)
{
  in->z.next_out = out;
  in->z.avail_out = (uInt) MIN (size, G_MAXUINT32);

  while (in->z.avail_out == size && !in->stream_done)
    {
      int rc;

      if (in->raw_pos == in->raw_len)
        {
          int more = refill_compressed (in, "gzip", error);
          if (more < 0)
            return -1;
          if (more == 0)
            break;
          /* A concatenated gzip member starts right after the previous one ended. */
          if (in->z_member_done)
            {
              inflateReset (&in->z);
              in->z_member_done = FALSE;
            }
        }
      in->z.next_in = in->raw + in->raw_pos;
      in->z.avail_in = (uInt) (in->raw_len - in->raw_pos);
      rc = inflate (&in->z, Z_NO_FLUSH);
      in->raw_pos = in->raw_len - in->z.avail_in;
      if (rc == Z_STREAM_END)
        {
          in->z_member_done = TRUE;
          if (in->raw_pos < in->raw_len)
            inflateReset (&in->z), in->z_member_done = FALSE;
        }
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: damaged gzip data near byte %" G_GUINT64_FORMAT " (%s)", in->name,
                       in->raw_offset - (in->raw_len - in->raw_pos),
                       in->z.msg ? in->z.msg : "inflate failed");
          return -1;
        }
    }
  return (gssize) (size - in->z.avail_out);
}

static gssize
read_zstd (IvInput *in, guint8 *out, gsize size, GError **error)
{
  ZSTD_outBuffer ob = { out, size, 0 };
  size_t last_rc;

  while (ob.pos == 0 && !in->stream_done)
    {
      if (in->raw_pos == in->raw_len)
        {
          int more = refill_compressed (in, "zstd", error);
          if (more < 0)
            return -1;
          if (more == 0)
            break;
        }
      ZSTD_inBuffer ib = { in->raw, in->raw_len, in->raw_pos };
      last_rc = ZSTD_decompressStream (in->zstd, &ob, &ib);
      in->raw_pos = ib.pos;
      if (ZSTD_isError (last_rc))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: damaged zstd data near byte %" G_GUINT64_FORMAT " (%s)", in->name,
                       in->raw_offset - (in->raw_len - in->raw_pos), ZSTD_getErrorName (last_rc));
          return -1;
        }
      /* 0 means a frame is complete; anything else means more input is needed. */
      in->z_member_done = (last_rc == 0);
    }
  return (gssize) ob.pos;
}

static gssize
decode_read (IvInput *input, void *buffer, gsize size, GError **error)
{
  switch (input->compression)
    {
    case IV_COMPRESSION_GZIP:
      return read_gzip (input, buffer, size, error);
    case IV_COMPRESSION_ZSTD:
      return read_zstd (input, buffer, size, error);
    case IV_COMPRESSION_NONE:
    default:
      return read_plain (input, buffer, size, error);
    }
}

/* Reads the first bytes of the text and decides whether they can be parsed as UTF-8:
 * a UTF-8 byte-order mark is dropped (editors on Windows write one), UTF-16 and UTF-32
 * (with a mark, or with the zero bytes every ASCII character of them has) are refused
 * with what to do about it, rather than a parser's "invalid char" at column 1. */
static gboolean
check_head (IvInput *in, GError **error)
{
  const guint8 *h = in->head;
  guint n = 0;

  in->head_checked = TRUE;
  while (n < sizeof in->head)
    {
      gssize got = decode_read (in, in->head + n, sizeof in->head - n, error);
      if (got < 0)
        return FALSE;
      if (got == 0)
        break;
      n += (guint) got;
    }
  in->head_len = n;
  in->head_pos = 0;
  if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf)
    {
      in->head_pos = 3;
      return TRUE;
    }
  if (n >= 4
      && ((h[0] == 0 && h[1] == 0 && h[2] == 0xfe && h[3] == 0xff)
          || (h[0] == 0xff && h[1] == 0xfe && h[2] == 0 && h[3] == 0)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: UTF-32 text: save the file as UTF-8", in->name);
      return FALSE;
    }
  if (n >= 2
      && ((h[0] == 0xfe && h[1] == 0xff) || (h[0] == 0xff && h[1] == 0xfe)
          || (h[0] == 0 && h[1] != 0) || (h[0] != 0 && h[1] == 0)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: UTF-16 text: save the file as UTF-8", in->name);
      return FALSE;
    }
  return TRUE;
}

/* A bomb is refused as soon as it is one: past the floor, the text so far must stay
 * within the ratio of the compressed bytes consumed so far. */
static gboolean
check_expansion (IvInput *in, GError **error)
{
  guint64 raw = MAX (iv_input_get_raw_offset (in), 1);

  if (in->compression == IV_COMPRESSION_NONE || in->decoded <= in->huge_floor
      || in->decoded / raw <= in->huge_ratio || g_atomic_int_get (&allow_huge))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               "%s: the %s data expands %" G_GUINT64_FORMAT ":1 (%" G_GUINT64_FORMAT
               " MB of text from %" G_GUINT64_FORMAT " kB), more than the %u:1 a real file "
               "reaches; it looks like a decompression bomb (use --allow-huge to read it anyway)",
               in->name, in->compression == IV_COMPRESSION_GZIP ? "gzip" : "zstd",
               in->decoded / raw, in->decoded / 1000000, raw / 1000, in->huge_ratio);
  return FALSE;
}

gssize
iv_input_read (IvInput *input, void *buffer, gsize size, GError **error)
{
  gssize n;

  g_return_val_if_fail (input != NULL, -1);
  g_return_val_if_fail (buffer != NULL || size == 0, -1);

  if (size == 0)
    return 0;
  if (input->read_limit)
    {
      if (input->decoded >= input->read_limit)
        {
          input->hit_limit = TRUE;
          return 0;
        }
      size = MIN (size, input->read_limit - input->decoded);
    }
  if (!input->head_checked && !check_head (input, error))
    return -1;
  if (input->head_pos < input->head_len)
    {
      n = MIN (size, input->head_len - input->head_pos);
      memcpy (buffer, input->head + input->head_pos, n);
      input->head_pos += n;
      input->decoded += n;
      return n;
    }
  n = decode_read (input, buffer, size, error);
  if (n > 0)
    {
      input->decoded += (guint64) n;
      if (!check_expansion (input, error))
        return -1;
    }
  return n;
}

char *
iv_input_read_all (IvInput *input, gsize max_bytes, gsize *length, GError **error)
{
  g_autoptr (GByteArray) text = g_byte_array_new ();
  guint8 buf[1 << 16];
  gssize n;

  g_return_val_if_fail (input != NULL, NULL);

  while ((n = iv_input_read (input, buf, sizeof buf, error)) > 0)
    {
      if (text->len + (gsize) n > max_bytes)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: larger than the %" G_GSIZE_FORMAT " MiB this kind of file may have",
                       input->name, max_bytes >> 20);
          return NULL;
        }
      g_byte_array_append (text, buf, (guint) n);
    }
  if (n < 0)
    return NULL;
  if (length)
    *length = text->len;
  g_byte_array_append (text, (const guint8 *) "", 1); /* a NUL after the text */
  return (char *) g_byte_array_free (g_steal_pointer (&text), FALSE);
}

char *
iv_input_load_document (const char *path, gsize max_bytes, gsize *length, GError **error)
{
  g_autoptr (IvInput) in = iv_input_open (path, error);

  return in ? iv_input_read_all (in, max_bytes, length, error) : NULL;
}

void
iv_input_set_read_limit (IvInput *input, guint64 max_bytes)
{
  g_return_if_fail (input != NULL);
  input->read_limit = max_bytes;
}

gboolean
iv_input_hit_read_limit (IvInput *input)
{
  g_return_val_if_fail (input != NULL, FALSE);
  return input->hit_limit;
}

void
iv_input_set_allow_huge (gboolean allow)
{
  g_atomic_int_set (&allow_huge, allow ? 1 : 0);
}

void
iv_input_set_expansion_limit (IvInput *input, guint64 floor_bytes, guint ratio)
{
  g_return_if_fail (input != NULL && ratio > 0);
  input->huge_floor = floor_bytes;
  input->huge_ratio = ratio;
}

const char *
iv_input_get_name (IvInput *input)
{
  return input->name;
}

IvCompression
iv_input_get_compression (IvInput *input)
{
  return input->compression;
}

/* How far into the file (compressed bytes) the reader is: the basis of progress bars. */
guint64
iv_input_get_raw_offset (IvInput *input)
{
  return input->raw_offset - (input->raw_len - input->raw_pos);
}

guint64
iv_input_get_raw_size (IvInput *input)
{
  return input->raw_size;
}

void
iv_input_free (IvInput *input)
{
  if (!input)
    return;
  if (input->file)
    fclose (input->file);
  if (input->z_ready)
    inflateEnd (&input->z);
  if (input->zstd)
    ZSTD_freeDStream (input->zstd);
  g_clear_pointer (&input->bytes, g_bytes_unref);
  g_free (input->raw);
  g_free (input->name);
  g_free (input);
}
