/* iv-input.h: a byte stream over a regular file that may be plain, gzip or zstd
 * compressed (concatenated gzip members, zstd frames and skippable frames, and a
 * compressed text compressed again, all read as their tools read them): the one way
 * Inferview reads what a user opens. */
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

/* The cap on a small document (a summary, a config, a hardware or saved-configurations
 * file): far above any real one, far below what would take the memory with it. */
#define IV_INPUT_DOCUMENT_MAX ((gsize) 64 << 20)

/* Opens @path for reading only if it is a regular file (never blocking on a FIFO);
 * returns the descriptor and the size, or -1 with an error naming the file and why. */
int iv_input_open_regular_fd (const char *path, guint64 *size, GError **error);
/* What @path is, for a message: "a file" (a regular one), "a folder", "a named pipe (FIFO)",
 * "a socket", "a device"; NULL when it cannot be looked at (missing). */
const char *iv_input_file_kind (const char *path);
IvInput *iv_input_open (const char *path, GError **error);
IvInput *iv_input_new_from_bytes (GBytes *bytes, const char *display_name, GError **error);
gssize iv_input_read (IvInput *input, void *buffer, gsize size, GError **error);
const char *iv_input_get_name (IvInput *input);
/* The file's own compression (the outer one when the text was compressed twice). */
IvCompression iv_input_get_compression (IvInput *input);
/* How many layers of compression the text came out of (2 for a gzip of a gzip). Known
 * once the first byte has been read. */
guint iv_input_get_layers (IvInput *input);
/* TRUE when bytes that are not gzip followed the last gzip member and were ignored, as
 * `gzip -d` ignores them ("trailing garbage ignored"); @offset: where they began. Zero
 * padding is ignored silently, as gzip does, and is not reported. */
gboolean iv_input_get_trailing_garbage (IvInput *input, guint64 *offset);
guint64 iv_input_get_raw_offset (IvInput *input);
guint64 iv_input_get_raw_size (IvInput *input);
void iv_input_free (IvInput *input);

/* The whole (decompressed) text, NUL-terminated; refused past @max_bytes. */
char *iv_input_read_all (IvInput *input, gsize max_bytes, gsize *length, GError **error);
char *iv_input_load_document (const char *path, gsize max_bytes, gsize *length, GError **error);

/* Reading stops (as at the end) after @max_bytes of text, 0 for no limit; then
 * iv_input_hit_read_limit() says the text went on. For looking at a file's head only. */
void iv_input_set_read_limit (IvInput *input, guint64 max_bytes);
gboolean iv_input_hit_read_limit (IvInput *input);

/* --allow-huge: read compressed files whatever their expansion ratio (process-wide). */
void iv_input_set_allow_huge (gboolean allow);
/* For tests: refuse past @floor_bytes when the text outgrows @ratio × the compressed bytes. */
void iv_input_set_expansion_limit (IvInput *input, guint64 floor_bytes, guint ratio);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvInput, iv_input_free)

G_END_DECLS
