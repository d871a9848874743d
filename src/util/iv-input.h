/* iv-input.h: a byte stream over a file that may be plain, gzip or zstd compressed. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  IV_COMPRESSION_NONE,
  IV_COMPRESSION_GZIP,
  IV_COMPRESSION_ZSTD,
} IvCompression;

typedef struct _IvInput IvInput;

IvInput      *iv_input_open            (const char  *path,
                                        GError     **error);
IvInput      *iv_input_new_from_bytes  (GBytes      *bytes,
                                        const char  *display_name,
                                        GError     **error);
gssize        iv_input_read            (IvInput     *input,
                                        void        *buffer,
                                        gsize        size,
                                        GError     **error);
const char   *iv_input_get_name        (IvInput     *input);
IvCompression iv_input_get_compression (IvInput     *input);
guint64       iv_input_get_raw_offset  (IvInput     *input);
guint64       iv_input_get_raw_size    (IvInput     *input);
void          iv_input_free            (IvInput     *input);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvInput, iv_input_free)

G_END_DECLS
