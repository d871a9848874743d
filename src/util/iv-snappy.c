/* iv-snappy.c: raw Snappy decompression (see the header). The format
 * (github.com/google/snappy, format_description.txt): a varint with the decompressed
 * length, then elements, each a tag byte whose low two bits say what it is — a literal
 * (its length in the tag or in 1–4 bytes after it, then the bytes), or a copy of earlier
 * output (length and offset in the tag and 1, 2 or 4 bytes after it). A copy may overlap
 * what it writes (offset 1 repeats the last byte), so it goes byte by byte when it does.
 * Written here rather than linked: these few lines are all Parquet needs. */
#include "iv-snappy.h"

#include <string.h>

gboolean
iv_snappy_length (const guint8 *src, gsize src_len, gsize *length)
{
  guint64 v = 0;

  for (gsize i = 0; i < src_len && i < 5; i++)
    {
      v |= (guint64) (src[i] & 0x7f) << (7 * i);
      if (!(src[i] & 0x80))
        {
          if (v > G_MAXUINT32)
            return FALSE;
          *length = (gsize) v;
          return TRUE;
        }
    }
  return FALSE;
}

/* The varint's own length (it was checked by iv_snappy_length). */
static gsize
varint_len (const guint8 *src)
{
  gsize n = 1;
  while (src[n - 1] & 0x80)
    n++;
  return n;
}

static gboolean
fail (gsize at, const char *what, gsize *where, const char **why)
{
  *where = at;
  *why = what;
  return FALSE;
}

gboolean
iv_snappy_decompress (const guint8 *src, gsize src_len, guint8 *dst, gsize dst_len, gsize *where,
                      const char **why)
{
  gsize announced, ip, op = 0;

  if (!iv_snappy_length (src, src_len, &announced))
    return fail (0, "the length at its start is cut or too large", where, why);
  if (announced != dst_len)
    return fail (0, "the length at its start differs from the page's", where, why);
  ip = varint_len (src);
  while (ip < src_len)
    {
      gsize at = ip;
      guint64 len, offset; /* 64 bits: a 4-byte literal length plus one fits on any host */
      guint8 tag = src[ip++];

      switch (tag & 3)
        {
        case 0:
          len = tag >> 2;
          if (len >= 60)
            {
              gsize extra = len - 59; /* 1 to 4 bytes of length follow */
              if (src_len - ip < extra)
                return fail (at, "a literal's length is cut", where, why);
              len = 0;
              for (gsize i = 0; i < extra; i++)
                len |= (guint64) src[ip + i] << (8 * i);
              ip += extra;
            }
          len += 1;
          if (src_len - ip < len)
            return fail (at, "a literal runs past the end of the block", where, why);
          if (dst_len - op < len)
            return fail (at, "a literal runs past the announced length", where, why);
          memcpy (dst + op, src + ip, len);
          ip += len, op += len;
          continue;
        case 1:
          if (src_len - ip < 1)
            return fail (at, "a copy is cut", where, why);
          len = 4 + ((tag >> 2) & 7);
          offset = ((guint64) (tag >> 5) << 8) | src[ip];
          ip += 1;
          break;
        case 2:
          if (src_len - ip < 2)
            return fail (at, "a copy is cut", where, why);
          len = 1 + (tag >> 2);
          offset = (guint64) src[ip] | (guint64) src[ip + 1] << 8;
          ip += 2;
          break;
        default:
          if (src_len - ip < 4)
            return fail (at, "a copy is cut", where, why);
          len = 1 + (tag >> 2);
          offset = (guint64) src[ip] | (guint64) src[ip + 1] << 8 | (guint64) src[ip + 2] << 16
                   | (guint64) src[ip + 3] << 24;
          ip += 4;
          break;
        }
      if (offset == 0 || offset > op)
        return fail (at, "a copy reaches before the start of the output", where, why);
      if (dst_len - op < len)
        return fail (at, "a copy runs past the announced length", where, why);
      if (offset >= len)
        memcpy (dst + op, dst + op - offset, len);
      else
        for (gsize i = 0; i < len; i++)
          dst[op + i] = dst[op + i - offset];
      op += len;
    }
  if (op != dst_len)
    return fail (src_len, "it ends before the announced length", where, why);
  return TRUE;
}
