/* iv-input.c: decompress on the fly so every loader streams gzip and zstd files the
 * same way as plain ones, without ever holding the whole decompressed text. The
 * compression is recognised by its magic bytes, not the file name: traces are often
 * renamed. Raw offsets are exposed so progress is reported against the file size. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-input.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_CHUNK (256 * 1024)

struct _IvInput
{
  char *name;
  FILE *file;           /* NULL when reading from bytes */
  GBytes *bytes;
  gsize bytes_pos;
  guint64 raw_offset;
  guint64 raw_size;
  IvCompression compression;

  guint8 *raw;          /* compressed bytes waiting to be decoded */
  gsize raw_len;
  gsize raw_pos;
  gboolean raw_eof;

  z_stream z;
  gboolean z_ready;
  gboolean z_member_done;
  ZSTD_DStream *zstd;
  gboolean stream_done;
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
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "%s: read failed: %s", in->name, g_strerror (saved));
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
  return in;
}

IvInput *
iv_input_open (const char *path, GError **error)
{
  g_autoptr (IvInput) in = NULL;
  g_autofree char *display = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  in = input_new (display);
  in->file = g_fopen (path, "rb");
  if (!in->file)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      return NULL;
    }
  if (fstat (fileno (in->file), &st) == 0)
    {
      if (S_ISDIR (st.st_mode))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s: is a folder, not a file",
                       display);
          return NULL;
        }
      in->raw_size = (guint64) st.st_size;
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
                       in->raw_offset - (in->raw_len - in->raw_pos),
                       ZSTD_getErrorName (last_rc));
          return -1;
        }
      /* 0 means a frame is complete; anything else means more input is needed. */
      in->z_member_done = (last_rc == 0);
    }
  return (gssize) ob.pos;
}

gssize
iv_input_read (IvInput *input, void *buffer, gsize size, GError **error)
{
  g_return_val_if_fail (input != NULL, -1);
  g_return_val_if_fail (buffer != NULL || size == 0, -1);

  if (size == 0)
    return 0;
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
