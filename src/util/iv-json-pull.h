/* iv-json-pull.h: a pull reader for JSON too large to hold and too hot for callbacks —
 * a window of the (decompressed) input that refills, and tokens read straight from it.
 *
 * The caller reads in steps that change nothing until they complete (one event, one
 * member of the top object): a step that runs past the window's end answers
 * IV_PULL_MORE; the caller puts the cursor back where the step began, refills (the bytes
 * from there on are kept) and runs the step again. The window grows when one step needs
 * more than it holds, so a step may span any length; a step that fails again after a
 * refill gets the window filled to its capacity first, so a value of many megabytes is
 * rescanned a logarithmic number of times, not once per read.
 *
 * Everything JSON requires is checked (control characters in strings, escapes, the
 * number grammar, literals, nesting), as yajl does; UTF-8 is not validated, as the yajl
 * readers here are configured: whoever keeps a string validates it.
 *
 * A lenient reader (lenient set after init) accepts two departures from JSON that
 * Perfetto's JSON importer loads (src/trace_processor/util/json_parser.h: Iterator's
 * OnPostValue takes a ',' then lets the next call see '}' or ']'; ScanString looks only
 * for the closing quote): one trailing comma before a '}' or ']', and raw control
 * characters (a line break) inside a string, kept as they are. Each kind is counted, and
 * the first one's line and column kept, for the caller's warning. */
#pragma once

#include <gio/gio.h>

#include "iv-input.h"
#include "iv-json-stream.h"

G_BEGIN_DECLS

/* The most one step may span (a refill past it is an error naming the place). */
#define IV_JSON_PULL_MAX_STEP ((gsize) 512 << 20)

typedef enum
{
  IV_PULL_OK,
  IV_PULL_MORE,  /* the window ended first: refill and retry the step */
  IV_PULL_ERROR, /* not JSON: iv_json_pull_fail () was called */
} IvPullStatus;

typedef struct
{
  const char *at; /* the window: at[0 .. len) */
  gsize pos;      /* the cursor */
  gsize len;
  gboolean eof; /* nothing follows the window */
  /* set by the token readers on IV_PULL_ERROR */
  gsize error_at;
  const char *error_reason;
  gboolean out_of_memory; /* the error is that the memory for a token could not be had */
  gboolean lenient;       /* accept what Perfetto accepts (above); set after init */
  /* what leniency let through: counts, and where the first of each kind is (1-based) */
  guint64 n_trailing_commas, n_raw_controls;
  guint comma_line, comma_column, control_line, control_column;
  /* private */
  char *buf;
  gsize cap;
  guint64 base; /* input bytes before at[0] */
  guint line;   /* 1-based line and column of at[0] */
  guint column;
  gsize retry_from;                 /* G_MAXSIZE, or where the last refill's step began */
  guint64 comma_mark, control_mark; /* input offsets past the last one counted: a step run
                                     * again after a refill does not count twice */
  gsize max_step;                   /* IV_JSON_PULL_MAX_STEP unless a test lowers it */
  char *scratch;                    /* strings with escapes, decoded; grown with try-allocation */
  gsize scratch_len, scratch_cap;
  IvInput *input;
  IvProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
} IvJsonPull;

/* Reads the first window (256 KiB). FALSE with @error when the input cannot be read. */
gboolean iv_json_pull_init (IvJsonPull *r, IvInput *input, IvProgressFunc progress,
                            gpointer progress_data, GCancellable *cancellable, GError **error);
/* The same with a window of @window bytes (at least 1): tests cut steps everywhere. */
gboolean iv_json_pull_init_sized (IvJsonPull *r, IvInput *input, gsize window,
                                  IvProgressFunc progress, gpointer progress_data,
                                  GCancellable *cancellable, GError **error);
/* A reader over @len bytes of complete text in memory (@text stays the caller's): values
 * already checked by a stream reader, read again in detail. Never answers IV_PULL_MORE. */
void iv_json_pull_init_text (IvJsonPull *r, const char *text, gsize len);
void iv_json_pull_clear (IvJsonPull *r);

/* Drops the bytes before @keep_from, reads more after the rest, and puts the cursor at
 * the first kept byte. FALSE with @error when reading fails, memory runs out or the
 * load is cancelled; at the end of the input it only sets eof. */
gboolean iv_json_pull_refill (IvJsonPull *r, gsize keep_from, GError **error);

/* The input offset of window index @i (for byte ranges read again later). */
static inline guint64
iv_json_pull_offset (const IvJsonPull *r, gsize i)
{
  return r->base + i;
}

/* Line and column (1-based, bytes) of window index @i. */
void iv_json_pull_where (const IvJsonPull *r, gsize i, guint *line, guint *column);

/* A trailing comma a lenient caller accepted itself (before the ']' of its own array) at
 * window index @at: counted with the reader's own. */
void iv_json_pull_note_trailing_comma (IvJsonPull *r, gsize at);

/* @text (@len bytes of JSON a lenient reader accepted) as strict JSON: trailing commas
 * dropped, raw control characters inside strings written as escapes ("\n"), everything
 * else byte for byte — for readers that are strict (json-glib). NULL when the memory for
 * it cannot be had. */
char *iv_json_pull_strict_text (const char *text, gsize len);

/* Records a syntax error at window index @at; returns IV_PULL_ERROR. */
IvPullStatus iv_json_pull_fail (IvJsonPull *r, gsize at, const char *reason);

/* Moves past whitespace; TRUE when a byte follows in the window. */
static inline gboolean
iv_json_pull_ws (IvJsonPull *r)
{
  while (r->pos < r->len)
    {
      char c = r->at[r->pos];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        return TRUE;
      r->pos++;
    }
  return FALSE;
}

/* A string at the cursor ('"'): its text (decoded; valid until the next string read)
 * and length. */
IvPullStatus iv_json_pull_string (IvJsonPull *r, const char **text, gsize *len);
/* A number at the cursor: its text as written. */
IvPullStatus iv_json_pull_number (IvJsonPull *r, const char **text, gsize *len);
/* true, false or null at the cursor: 1, 0, or -1 for null in @value. */
IvPullStatus iv_json_pull_literal (IvJsonPull *r, int *value);
/* The cursor past whitespace to a byte: MORE (or an error at the end of the input) when
 * the window ends first. */
IvPullStatus iv_json_pull_need (IvJsonPull *r);
/* A string, number or literal at the cursor: its text (numbers as written, true and
 * false as words, NULL for null) and whether it is a number. */
IvPullStatus iv_json_pull_scalar (IvJsonPull *r, const char **text, gsize *len,
                                  gboolean *is_number);
/* "key": at the cursor, the cursor moved to the value after it. */
IvPullStatus iv_json_pull_key (IvJsonPull *r, const char **key, gsize *len);
/* Called with the cursor at a member's value, which it must read or skip; @key is valid
 * only until the next string is read. */
typedef IvPullStatus (*IvPullMemberFunc) (IvJsonPull *r, const char *key, gsize key_len,
                                          gpointer data);
/* The object at the cursor ('{'), each member handed to @member. */
IvPullStatus iv_json_pull_object (IvJsonPull *r, IvPullMemberFunc member, gpointer data);
/* Any value at the cursor, checked and passed over. */
IvPullStatus iv_json_pull_skip (IvJsonPull *r);

G_END_DECLS
