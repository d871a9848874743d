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
  guint64 bytes; /* decompressed bytes fed to the parser */
  guint line;    /* 1-based position where parsing stopped */
  guint column;
  gboolean stopped; /* a callback returned 0: the client had what it wanted */
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
  guint64 base; /* decompressed bytes before the chunk being parsed */
} IvJsonStreamPos;

/* The offset just past the token whose callback is running. */
static inline guint64
iv_json_stream_pos_tell (const IvJsonStreamPos *pos)
{
  return pos->base + yajl_get_bytes_consumed (pos->handle);
}

GQuark iv_json_stream_error_quark (void);

gboolean iv_json_stream_parse (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                               IvJsonStreamFlags flags, IvProgressFunc progress,
                               gpointer progress_data, GCancellable *cancellable,
                               IvJsonStreamStats *stats, GError **error);
gboolean iv_json_stream_parse_at (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                                  IvJsonStreamFlags flags, IvProgressFunc progress,
                                  gpointer progress_data, GCancellable *cancellable,
                                  IvJsonStreamPos *pos, IvJsonStreamStats *stats, GError **error);

/* JSON Lines read line by line, each line parsed on its own, so that one damaged line
 * (bad JSON, or cut short by a writer that was killed) is skipped and counted instead of
 * ending the file. A UTF-8 byte order mark before the first line is ignored; blank lines
 * are not values. */
typedef struct
{
  guint64 lines;            /* lines holding a value (blank ones not counted) */
  guint64 damaged;          /* of those, the lines skipped */
  guint first_damaged_line; /* 1-based; 0 when none */
  guint first_damaged_column;
  char *first_damaged_reason; /* yajl's reason; free it with g_free */
  gboolean last_line_cut;     /* the last line had no newline and did not parse */
  guint64 long_lines;         /* lines past the limit, passed over unread (in lines, not
                               * in damaged) */
  guint first_long_line;      /* 1-based; 0 when none */
} IvJsonLinesStats;

/* The longest line iv_json_stream_parse_lines() holds when the caller sets no limit. */
#define IV_JSON_LINE_MAX_DEFAULT ((gsize) 256 << 20)

/* Called after each line holding a value with whether it parsed: the client keeps what
 * the callbacks collected from a good line and drops what it took from a damaged one. */
typedef void (*IvJsonLineDone) (gpointer ctx, gboolean ok);

/* A line longer than @max_line bytes (0: IV_JSON_LINE_MAX_DEFAULT) is never held: it is
 * passed over to its newline and counted in long_lines. FALSE with @error only when the
 * input cannot be read, memory for a line runs out, or the load is cancelled. */
gboolean iv_json_stream_parse_lines (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                                     IvJsonLineDone line_done, gsize max_line,
                                     IvProgressFunc progress, gpointer progress_data,
                                     GCancellable *cancellable, IvJsonLinesStats *stats,
                                     GError **error);

G_END_DECLS
