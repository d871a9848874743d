/* iv-json-stream.h: feed an IvInput through yajl callbacks with progress, cancellation
 * and errors that name the line and column. */
#pragma once

#include <gio/gio.h>
#include <yajl/yajl_parse.h>

#include "iv-input.h"

G_BEGIN_DECLS

#define IV_JSON_STREAM_ERROR (iv_json_stream_error_quark ())

typedef enum
{
  IV_JSON_STREAM_ERROR_SYNTAX,    /* not JSON at some place */
  IV_JSON_STREAM_ERROR_TRUNCATED, /* valid so far, but the text ends inside a value */
} IvJsonStreamError;

/* Called after each chunk with the compressed bytes consumed and the file size. */
typedef void (*IvProgressFunc) (guint64 done, guint64 total, gpointer user_data);

typedef struct
{
  guint64 bytes;       /* decompressed bytes fed to the parser */
  guint line;          /* 1-based position where parsing stopped */
  guint column;
  gboolean stopped;    /* a callback returned 0: the client had what it wanted */
} IvJsonStreamStats;

typedef enum
{
  IV_JSON_STREAM_DEFAULT = 0,
  IV_JSON_STREAM_MULTIPLE_VALUES = 1 << 0, /* JSON Lines: one value after another */
} IvJsonStreamFlags;

/* Where the parser is, for callbacks that record byte ranges (to decode them later). */
typedef struct
{
  yajl_handle handle;
  guint64 base;      /* decompressed bytes before the chunk being parsed */
} IvJsonStreamPos;

/* The offset just past the token whose callback is running. */
static inline guint64
iv_json_stream_pos_tell (const IvJsonStreamPos *pos)
{
  return pos->base + yajl_get_bytes_consumed (pos->handle);
}

GQuark   iv_json_stream_error_quark (void);

gboolean iv_json_stream_parse (IvInput               *input,
                               const yajl_callbacks  *callbacks,
                               gpointer               ctx,
                               IvJsonStreamFlags      flags,
                               IvProgressFunc         progress,
                               gpointer               progress_data,
                               GCancellable          *cancellable,
                               IvJsonStreamStats     *stats,
                               GError               **error);
gboolean iv_json_stream_parse_at (IvInput              *input,
                                  const yajl_callbacks *callbacks,
                                  gpointer              ctx,
                                  IvJsonStreamFlags     flags,
                                  IvProgressFunc        progress,
                                  gpointer              progress_data,
                                  GCancellable         *cancellable,
                                  IvJsonStreamPos      *pos,
                                  IvJsonStreamStats    *stats,
                                  GError              **error);

G_END_DECLS
