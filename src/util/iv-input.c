/* iv-input.c: decompress on the fly so every loader streams gzip and zstd files the
 * same way as plain ones, without ever holding the whole decompressed text. The
 * compression is recognised by its magic bytes, not the file name: traces are often
 * renamed. Raw offsets are exposed so progress is reported against the file size.
 *
 * Compressed streams are read as their own tools read them: gzip's concatenated members
 * one after the other and zero padding after the last one ignored (as `gzip -dc` does),
 * zstd's concatenated and skippable frames (as `zstd -dc` does). A decompressed text that
 * is itself compressed (a gzip of a gzip) is decompressed again: the user opened a trace,
 * and a second `gzip -dc` is what they would do by hand.
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
#include <zstd_errors.h>

#define RAW_CHUNK (256 * 1024)

/* Real traces compress 5–30×; a deflate stream of one repeated byte peaks near 1,030×.
 * Beyond the first gigabyte a file expanding more than this is refused. */
#define HUGE_FLOOR_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define HUGE_RATIO 1000

/* Compression inside compression: a gzip of a gzip is met in practice (a trace gzipped
 * by the profiler, then again by an upload tool); more than this many layers is not a
 * file anyone made by accident, and each layer holds a decoder (zstd's window can be
 * 128 MiB). */
#define MAX_LAYERS 4

/* Process-wide policy, set once from the command line (--allow-huge); read atomically so
 * loads on worker threads see it without a data race. */
static gint allow_huge;

/* One decoding stage: compressed bytes in (from the file, or from the layer below when
 * the text of one compressed stream is another), their decompressed text out. */
typedef struct _Layer Layer;
struct _Layer
{
  Layer *below; /* NULL: the bytes come from the file (or the GBytes) */
  IvCompression compression;

  guint8 *raw; /* bytes waiting to be decoded: raw[raw_pos .. raw_len) */
  gsize raw_len;
  gsize raw_pos;
  gboolean raw_eof;
  guint64 raw_offset; /* bytes taken from the source so far */

  z_stream z;
  gboolean z_ready;
  gboolean member_done; /* a gzip member or zstd frame ended, and no other began yet */
  ZSTD_DStream *zstd;
  gboolean stream_done;

  /* gzip: what followed the last member was not gzip (read as gzip does: ignored) */
  gboolean garbage;
  guint64 garbage_at;
};

struct _IvInput
{
  char *name;
  FILE *file; /* NULL when reading from bytes */
  GBytes *bytes;
  gsize bytes_pos;
  guint64 raw_size;

  Layer *bottom; /* reads the file */
  Layer *top;    /* gives the text */
  guint n_layers;

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

static gssize layer_read (IvInput *in, Layer *l, guint8 *out, gsize size, GError **error);

static const char *
format_name (IvCompression c)
{
  return c == IV_COMPRESSION_GZIP ? "gzip" : c == IV_COMPRESSION_ZSTD ? "zstd" : "plain";
}

/* Refills @l->raw, keeping the bytes not yet decoded at its start (a gzip magic number
 * may be cut by the end of a read). Returns the bytes added; 0 at the end of the source
 * (raw_eof) or with @error set. */
static gsize
fill_raw (IvInput *in, Layer *l, GError **error)
{
  gsize kept, n = 0;

  if (l->raw_eof)
    return 0;
  kept = l->raw_len - l->raw_pos;
  memmove (l->raw, l->raw + l->raw_pos, kept);
  l->raw_len = kept;
  l->raw_pos = 0;
  if (l->below)
    {
      gssize got = layer_read (in, l->below, l->raw + kept, RAW_CHUNK - kept, error);
      if (got < 0)
        return 0;
      n = (gsize) got;
    }
  else if (in->file)
    {
      n = fread (l->raw + kept, 1, RAW_CHUNK - kept, in->file);
      if (n < RAW_CHUNK - kept && ferror (in->file))
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
      n = MIN (RAW_CHUNK - kept, total - in->bytes_pos);
      memcpy (l->raw + kept, data + in->bytes_pos, n);
      in->bytes_pos += n;
    }
  if (n == 0)
    l->raw_eof = TRUE;
  l->raw_len = kept + n;
  l->raw_offset += n;
  return n;
}

/* The layer's offset in its own input (the file, for the bottom layer). */
static guint64
layer_offset (const Layer *l)
{
  return l->raw_offset - (l->raw_len - l->raw_pos);
}

static gboolean
is_zstd_magic (const guint8 *p, gsize len)
{
  /* a frame (FD2FB528), or a skippable frame (184D2A50–184D2A5F), little-endian */
  return len >= 4
         && ((p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd)
             || ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18));
}

static IvCompression
compression_of (const guint8 *p, gsize len)
{
  if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
    return IV_COMPRESSION_GZIP;
  if (is_zstd_magic (p, len))
    return IV_COMPRESSION_ZSTD;
  return IV_COMPRESSION_NONE;
}

/* Starts @l's decoder for what its first bytes (already in raw) say it is. */
static gboolean
start_decoder (IvInput *in, Layer *l, GError **error)
{
  l->compression = compression_of (l->raw + l->raw_pos, l->raw_len - l->raw_pos);
  if (l->compression == IV_COMPRESSION_GZIP)
    {
      memset (&l->z, 0, sizeof l->z);
      /* 16 + MAX_WBITS: expect a gzip header. */
      if (inflateInit2 (&l->z, 16 + MAX_WBITS) != Z_OK)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: not enough memory to start the gzip decoder", in->name);
          return FALSE;
        }
      l->z_ready = TRUE;
    }
  else if (l->compression == IV_COMPRESSION_ZSTD)
    {
      l->zstd = ZSTD_createDStream ();
      if (!l->zstd || ZSTD_isError (ZSTD_initDStream (l->zstd)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: not enough memory to start the zstd decoder", in->name);
          return FALSE;
        }
    }
  return TRUE;
}

static Layer *
layer_new (Layer *below)
{
  Layer *l = g_try_new0 (Layer, 1);
  if (!l)
    return NULL;
  l->raw = g_try_malloc (RAW_CHUNK);
  if (!l->raw)
    {
      g_free (l);
      return NULL;
    }
  l->below = below;
  return l;
}

static void
layer_free (Layer *l)
{
  if (l->z_ready)
    inflateEnd (&l->z);
  if (l->zstd)
    ZSTD_freeDStream (l->zstd);
  g_free (l->raw);
  g_free (l);
}

static IvInput *
input_new (const char *name)
{
  IvInput *in = g_new0 (IvInput, 1);
  in->name = g_strdup (name);
  in->huge_floor = HUGE_FLOOR_BYTES;
  in->huge_ratio = HUGE_RATIO;
  return in;
}

/* The bottom layer over the file or bytes, its compression sniffed from its first
 * bytes. */
static gboolean
open_bottom (IvInput *in, GError **error)
{
  GError *local = NULL;

  in->bottom = in->top = layer_new (NULL);
  if (!in->bottom)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "%s: not enough memory to read it",
                   in->name);
      return FALSE;
    }
  in->n_layers = 1;
  /* the magic numbers are at most 4 bytes: read until there are that many, or the end */
  while (in->bottom->raw_len < 4 && fill_raw (in, in->bottom, &local) > 0)
    ;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return start_decoder (in, in->bottom, error);
}

static const char *
file_type_name (mode_t mode)
{
  if (S_ISREG (mode))
    return "a file";
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

const char *
iv_input_file_kind (const char *path)
{
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  return g_stat (path, &st) == 0 ? file_type_name (st.st_mode) : NULL;
}

static void
set_not_regular (const char *display, mode_t mode, GError **error)
{
  if (S_ISDIR (mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s: is a folder, not a file",
                 display);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                 "%s: is %s; Inferview reads only regular files", display, file_type_name (mode));
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
      /* A socket cannot be opened at all (ENXIO, "No such device or address"): say what
       * it is rather than what open() says. */
      if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
        set_not_regular (display, st.st_mode, error);
      else
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
      set_not_regular (display, st.st_mode, error);
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
  if (!open_bottom (in, error))
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
  if (!open_bottom (in, error))
    return NULL;
  return g_steal_pointer (&in);
}

/* fill_raw () where only a failure matters (reading may fail with @error NULL): FALSE,
 * @error set, when reading fails. */
static gboolean
refill (IvInput *in, Layer *l, GError **error)
{
  GError *local = NULL;

  fill_raw (in, l, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gssize
read_plain (IvInput *in, Layer *l, guint8 *out, gsize size, GError **error)
{
  gsize n;

  if (l->raw_pos == l->raw_len && !refill (in, l, error))
    return -1;
  n = MIN (size, l->raw_len - l->raw_pos);
  memcpy (out, l->raw + l->raw_pos, n);
  l->raw_pos += n;
  return (gssize) n;
}

/* Makes sure @want bytes wait in @l->raw, or as many as remain: FALSE with @error when
 * reading fails. */
static gboolean
have_raw (IvInput *in, Layer *l, gsize want, GError **error)
{
  while (l->raw_len - l->raw_pos < want && !l->raw_eof)
    if (!refill (in, l, error))
      return FALSE;
  return TRUE;
}

/* After a gzip member, as gzip reads on: another member when its magic number follows;
 * nothing but zero bytes to the end (padding: a tape block, a preallocated file) is
 * ignored silently; anything else ends the data too, with the rest ignored — gzip says
 * "decompression OK, trailing garbage ignored" and so does iv_input_get_trailing_garbage
 * (). TRUE when another member starts; FALSE at the end, or with @error. */
static gboolean
next_gzip_member (IvInput *in, Layer *l, GError **error)
{
  if (!have_raw (in, l, 2, error))
    return FALSE;
  if (l->raw_pos == l->raw_len)
    return FALSE;
  if (l->raw[l->raw_pos] == 0x1f && (l->raw_len - l->raw_pos < 2 || l->raw[l->raw_pos + 1] == 0x8b))
    {
      /* a member (a lone 0x1f at the very end is one cut short: inflate says so) */
      inflateReset (&l->z);
      l->member_done = FALSE;
      return TRUE;
    }
  if (l->raw[l->raw_pos] == 0)
    {
      guint64 from = layer_offset (l);
      for (;;)
        {
          while (l->raw_pos < l->raw_len && l->raw[l->raw_pos] == 0)
            l->raw_pos++;
          if (l->raw_pos < l->raw_len)
            {
              /* zeros, then something else: garbage from where the zeros began */
              l->garbage = TRUE;
              l->garbage_at = from;
              return FALSE;
            }
          if (!have_raw (in, l, 1, error) || l->raw_pos == l->raw_len)
            return FALSE;
        }
    }
  l->garbage = TRUE;
  l->garbage_at = layer_offset (l);
  return FALSE;
}

static gssize
read_gzip (IvInput *in, Layer *l, guint8 *out, gsize size, GError **error)
{
  GError *local = NULL;

  l->z.next_out = out;
  l->z.avail_out = (uInt) MIN (size, G_MAXUINT32);

  while (l->z.avail_out == size && !l->stream_done)
    {
      int rc;

      if (l->member_done)
        {
          if (!next_gzip_member (in, l, &local))
            {
              if (local)
                {
                  g_propagate_error (error, local);
                  return -1;
                }
              l->stream_done = TRUE;
              break;
            }
        }
      if (l->raw_pos == l->raw_len)
        {
          if (!refill (in, l, error))
            return -1;
          if (l->raw_pos == l->raw_len)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           "%s: the gzip data ends early (the file is truncated)", in->name);
              return -1;
            }
        }
      l->z.next_in = l->raw + l->raw_pos;
      l->z.avail_in = (uInt) (l->raw_len - l->raw_pos);
      rc = inflate (&l->z, Z_NO_FLUSH);
      l->raw_pos = l->raw_len - l->z.avail_in;
      if (rc == Z_STREAM_END)
        l->member_done = TRUE;
      else if (rc == Z_MEM_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: not enough memory to decompress the gzip data", in->name);
          return -1;
        }
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: damaged gzip data near byte %" G_GUINT64_FORMAT " (%s)", in->name,
                       layer_offset (l), l->z.msg ? l->z.msg : "inflate failed");
          return -1;
        }
    }
  return (gssize) (size - l->z.avail_out);
}

static gssize
read_zstd (IvInput *in, Layer *l, guint8 *out, gsize size, GError **error)
{
  ZSTD_outBuffer ob = { out, size, 0 };

  while (ob.pos == 0 && !l->stream_done)
    {
      size_t rc;

      if (l->raw_pos == l->raw_len)
        {
          if (!refill (in, l, error))
            return -1;
          if (l->raw_pos == l->raw_len)
            {
              if (!l->member_done)
                {
                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                               "%s: the zstd data ends early (the file is truncated)", in->name);
                  return -1;
                }
              l->stream_done = TRUE;
              break;
            }
        }
      /* Frames follow one another and skippable frames are passed over by the decoder
       * itself, as `zstd -d` reads them; what is neither (zero padding included) is an
       * error for zstd, and so here. */
      ZSTD_inBuffer ib = { l->raw, l->raw_len, l->raw_pos };
      rc = ZSTD_decompressStream (l->zstd, &ob, &ib);
      l->raw_pos = ib.pos;
      if (ZSTD_isError (rc))
        {
          if (ZSTD_getErrorCode (rc) == ZSTD_error_memory_allocation)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                         "%s: not enough memory to decompress the zstd data", in->name);
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         "%s: damaged zstd data near byte %" G_GUINT64_FORMAT " (%s)", in->name,
                         layer_offset (l), ZSTD_getErrorName (rc));
          return -1;
        }
      /* 0 means a frame is complete and flushed; anything else means more is needed. */
      l->member_done = (rc == 0);
    }
  return (gssize) ob.pos;
}

static gssize
layer_read (IvInput *in, Layer *l, guint8 *out, gsize size, GError **error)
{
  switch (l->compression)
    {
    case IV_COMPRESSION_GZIP:
      return read_gzip (in, l, out, size, error);
    case IV_COMPRESSION_ZSTD:
      return read_zstd (in, l, out, size, error);
    case IV_COMPRESSION_NONE:
    default:
      return read_plain (in, l, out, size, error);
    }
}

/* A layer over the top one when its text starts with a compression's magic number: the
 * text read so far (@head) is the new layer's first input. */
static gboolean
push_layer (IvInput *in, const guint8 *head, gsize len, GError **error)
{
  Layer *l;

  if (in->n_layers == MAX_LAYERS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: compressed more than %d times over; decompress it first", in->name,
                   MAX_LAYERS);
      return FALSE;
    }
  l = layer_new (in->top);
  if (!l)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "%s: not enough memory to read it",
                   in->name);
      return FALSE;
    }
  memcpy (l->raw, head, len);
  l->raw_len = len;
  l->raw_offset = len;
  in->top = l;
  in->n_layers++;
  return start_decoder (in, l, error);
}

/* Reads the first bytes of the text and decides whether they can be parsed as UTF-8:
 * a UTF-8 byte-order mark is dropped (editors on Windows write one), UTF-16 and UTF-32
 * (with a mark, or with the zero bytes every ASCII character of them has) are refused
 * with what to do about it, rather than a parser's "invalid char" at column 1. A text
 * that is compressed again is decompressed again first. */
static gboolean
check_head (IvInput *in, GError **error)
{
  const guint8 *h = in->head;
  guint n;

  in->head_checked = TRUE;
  for (;;)
    {
      n = 0;
      while (n < sizeof in->head)
        {
          gssize got = layer_read (in, in->top, in->head + n, sizeof in->head - n, error);
          if (got < 0)
            return FALSE;
          if (got == 0)
            break;
          n += (guint) got;
        }
      /* only decompressed text is looked into: a plain file starting with a magic
       * number was taken as compressed already */
      if (in->top->compression == IV_COMPRESSION_NONE
          || compression_of (in->head, n) == IV_COMPRESSION_NONE)
        break;
      if (!push_layer (in, in->head, n, error))
        return FALSE;
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
 * within the ratio of the file's bytes consumed so far (a gzip of a gzip bomb expands
 * by the product of its layers, and that product is what is checked). */
static gboolean
check_expansion (IvInput *in, GError **error)
{
  guint64 raw = MAX (iv_input_get_raw_offset (in), 1);

  if (in->bottom->compression == IV_COMPRESSION_NONE || in->decoded <= in->huge_floor
      || in->decoded / raw <= in->huge_ratio || g_atomic_int_get (&allow_huge))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               "%s: the %s data expands %" G_GUINT64_FORMAT ":1 (%" G_GUINT64_FORMAT
               " MB of text from %" G_GUINT64_FORMAT " kB), more than the %u:1 a real file "
               "reaches; it looks like a decompression bomb (use --allow-huge to read it anyway)",
               in->name, format_name (in->bottom->compression), in->decoded / raw,
               in->decoded / 1000000, raw / 1000, in->huge_ratio);
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
  n = layer_read (input, input->top, buffer, size, error);
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
  g_autofree char *text = NULL;
  gsize len = 0, cap = 0;
  gssize n;

  g_return_val_if_fail (input != NULL, NULL);

  /* Grown by doubling with try-allocation: the text is sized by the file, and running
   * out of memory for it is an error the user reads, not an abort. */
  do
    {
      if (cap - len < (1 << 16) + 1)
        {
          gsize grown_cap = MAX (cap * 2, (gsize) 1 << 17);
          char *grown;
          if (max_bytes < G_MAXSIZE - (1 << 17))
            grown_cap = MIN (grown_cap, max_bytes + (1 << 16) + 1);
          grown = g_try_realloc (text, grown_cap);
          if (!grown)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                           "%s: not enough memory to read it (%" G_GSIZE_FORMAT " MB so far)",
                           input->name, len / 1000000);
              return NULL;
            }
          text = grown;
          cap = grown_cap;
        }
      n = iv_input_read (input, text + len, MIN (cap - len - 1, (gsize) 1 << 16), error);
      if (n < 0)
        return NULL;
      if (len + (gsize) n > max_bytes)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: larger than the %" G_GSIZE_FORMAT " MiB this kind of file may have",
                       input->name, max_bytes >> 20);
          return NULL;
        }
      len += (gsize) n;
    }
  while (n > 0);
  text[len] = '\0'; /* a NUL after the text */
  if (length)
    *length = len;
  return g_steal_pointer (&text);
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
  return input->bottom->compression;
}

guint
iv_input_get_layers (IvInput *input)
{
  g_return_val_if_fail (input != NULL, 0);
  /* the plain text is no layer of compression */
  return input->top->compression == IV_COMPRESSION_NONE ? 0 : input->n_layers;
}

gboolean
iv_input_get_trailing_garbage (IvInput *input, guint64 *offset)
{
  g_return_val_if_fail (input != NULL, FALSE);
  for (Layer *l = input->top; l; l = l->below)
    if (l->garbage)
      {
        if (offset)
          *offset = l->garbage_at;
        return TRUE;
      }
  return FALSE;
}

/* How far into the file (compressed bytes) the reader is: the basis of progress bars. */
guint64
iv_input_get_raw_offset (IvInput *input)
{
  return layer_offset (input->bottom);
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
  while (input->top)
    {
      Layer *below = input->top->below;
      layer_free (input->top);
      input->top = below;
    }
  g_clear_pointer (&input->bytes, g_bytes_unref);
  g_free (input->name);
  g_free (input);
}
