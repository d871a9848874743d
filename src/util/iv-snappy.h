/* iv-snappy.h: decompressing raw Snappy blocks (the format of Google's snappy library
 * without its framing), as Parquet pages compressed with SNAPPY hold them. Only what
 * Parquet needs: one block into a buffer of known size. GLib only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The length a block says it decompresses to (its leading varint), FALSE when @src does
 * not begin with one that fits 32 bits. */
gboolean iv_snappy_length (const guint8 *src, gsize src_len, gsize *length);

/* Decompresses the block @src (@src_len bytes) into @dst, which must be exactly the
 * length the block announces (@dst_len). FALSE, with @where set to the offset in @src of
 * the first bad byte and @why to a static English phrase, when the block is damaged: a
 * copy reaching before the start or past the end, a literal running past the input, an
 * announced length that differs from @dst_len or from what the block makes. Never reads
 * outside @src nor writes outside @dst. */
gboolean iv_snappy_decompress (const guint8 *src, gsize src_len, guint8 *dst, gsize dst_len,
                               gsize *where, const char **why);

G_END_DECLS
