/* iv-json-stream.c: the streaming JSON reader under every bulk loader. yajl reports
 * errors as a byte offset inside the last chunk; users need a line and a column, so the
 * reader counts newlines as it feeds the parser (a memchr per chunk, not per byte). */
#define G_LOG_DOMAIN "iv-util"

#include "iv-json-stream.h"

#include <string.h>

#define CHUNK (256 * 1024)

G_DEFINE_QUARK (iv - json - stream - error - quark, iv_json_stream_error)

typedef struct
{
  guint line;   /* 1-based line of the next byte */
  guint column; /* 1-based column (in bytes) of the next byte */
} Position;

static void
advance (Position *pos, const guint8 *buf, gsize len)
{
  const guint8 *p = buf, *end = buf + len, *nl;

  while ((nl = memchr (p, '\n', (gsize) (end - p))) != NULL)
    {
      pos->line++;
      pos->column = 1;
      p = nl + 1;
    }
  pos->column += (guint) (end - p);
}

/* yajl's message is multi-line with a caret drawing; keep its first line only. */
static char *
yajl_reason (yajl_handle h, const guint8 *buf, gsize len)
{
  unsigned char *msg = yajl_get_error (h, 0, buf, len);
  g_autofree char *copy = g_strdup ((const char *) msg);
  char *nl;

  yajl_free_error (h, msg);
  g_strstrip (copy);
  nl = strchr (copy, '\n');
  if (nl)
    *nl = '\0';
  /* "lexical error: invalid char in json text." reads better without its prefix noise. */
  return g_strdup (copy);
}

/* The next chunk of @input into @buf (CHUNK bytes): its length, 0 at the end, or -1 with
 * @error when reading fails or @cancellable is cancelled. */
static gssize
read_chunk (IvInput *input, guint8 *buf, GCancellable *cancellable, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;
  return iv_input_read (input, buf, CHUNK, error);
}

gboolean
iv_json_stream_parse (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                      IvJsonStreamFlags flags, IvProgressFunc progress, gpointer progress_data,
                      GCancellable *cancellable, IvJsonStreamStats *stats, GError **error)
{
  return iv_json_stream_parse_at (input, callbacks, ctx, flags, progress, progress_data,
                                  cancellable, NULL, stats, error);
}

gboolean
iv_json_stream_parse_at (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                         IvJsonStreamFlags flags, IvProgressFunc progress, gpointer progress_data,
                         GCancellable *cancellable, IvJsonStreamPos *pos_out,
                         IvJsonStreamStats *stats, GError **error)
{
  g_autofree guint8 *buf = g_malloc (CHUNK);
  Position pos = { 1, 1 };
  yajl_handle h;
  yajl_status st = yajl_status_ok;
  guint64 fed = 0;
  gboolean ok = TRUE;
  gboolean stopped = FALSE;

  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (callbacks != NULL, FALSE);

  h = yajl_alloc (callbacks, NULL, ctx);
  /* Strings are validated as UTF-8 by whoever keeps them; skipping it here is a third
   * of yajl's time on traces. */
  yajl_config (h, yajl_dont_validate_strings, 1);
  if (flags & IV_JSON_STREAM_MULTIPLE_VALUES)
    yajl_config (h, yajl_allow_multiple_values, 1);
  if (pos_out)
    pos_out->handle = h;

  for (;;)
    {
      gssize n;

      n = read_chunk (input, buf, cancellable, error);
      if (n < 0)
        {
          ok = FALSE;
          break;
        }
      if (n == 0)
        {
          if (pos_out)
            pos_out->base = fed;
          st = yajl_complete_parse (h);
          if (st == yajl_status_error)
            {
              g_autofree char *reason = yajl_reason (h, NULL, 0);
              /* At end of input yajl only fails when a value is still open. */
              g_set_error (error, IV_JSON_STREAM_ERROR, IV_JSON_STREAM_ERROR_TRUNCATED,
                           "%s: line %u, column %u: the JSON text ends early (%s)",
                           iv_input_get_name (input), pos.line, pos.column, reason);
              ok = FALSE;
            }
          break;
        }
      if (pos_out)
        pos_out->base = fed;
      st = yajl_parse (h, buf, (size_t) n);
      if (st == yajl_status_client_canceled)
        {
          gsize used = yajl_get_bytes_consumed (h);
          advance (&pos, buf, MIN (used, (gsize) n));
          fed += used;
          stopped = TRUE;
          break;
        }
      if (st == yajl_status_error)
        {
          gsize used = yajl_get_bytes_consumed (h);
          g_autofree char *reason = yajl_reason (h, buf, (gsize) n);
          /* yajl points one past the offending byte. */
          advance (&pos, buf, used > 0 ? used - 1 : 0);
          fed += used;
          g_set_error (error, IV_JSON_STREAM_ERROR, IV_JSON_STREAM_ERROR_SYNTAX,
                       "%s: line %u, column %u: %s", iv_input_get_name (input), pos.line,
                       pos.column, reason);
          ok = FALSE;
          break;
        }
      advance (&pos, buf, (gsize) n);
      fed += (guint64) n;
      if (progress)
        progress (iv_input_get_raw_offset (input), iv_input_get_raw_size (input), progress_data);
    }

  yajl_free (h);
  if (stats)
    {
      stats->bytes = fed;
      stats->line = pos.line;
      stats->column = pos.column;
      stats->stopped = stopped;
    }
  return ok;
}

/* One line through a fresh parser; FALSE with the column (1-based) and reason when it is
 * not one complete value. */
static gboolean
parse_line (const yajl_callbacks *callbacks, gpointer ctx, const guint8 *line, gsize len,
            guint *column, char **reason)
{
  yajl_handle h = yajl_alloc (callbacks, NULL, ctx);
  yajl_status st;

  yajl_config (h, yajl_dont_validate_strings, 1);
  st = yajl_parse (h, line, len);
  if (st == yajl_status_ok)
    st = yajl_complete_parse (h);
  if (st != yajl_status_ok)
    {
      gsize used = yajl_get_bytes_consumed (h);
      /* cut short: the column after the line's end; else the offending byte */
      *column = (guint) MIN ((used > 0 && used <= len ? used : len + 1), G_MAXUINT);
      *reason = st == yajl_status_error ? yajl_reason (h, line, len)
                                        : g_strdup ("stopped by the reader");
    }
  yajl_free (h);
  return st == yajl_status_ok;
}

static gboolean
blank (const guint8 *p, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
      return FALSE;
  return TRUE;
}

/* A line that began in an earlier chunk, held until its newline: grown by try-allocation
 * (a line is as long as its writer made it) and never past the caller's limit. */
typedef struct
{
  guint8 *data;
  gsize len, cap;
} Carry;

/* Appends @n bytes at @p to the line being held (line @line_no of @input): FALSE, with
 * @error, when there is no memory for it. */
static gboolean
carry_append (Carry *c, const guint8 *p, gsize n, gsize max, IvInput *input, guint line_no,
              GError **error)
{
  if (c->len + n > c->cap)
    {
      /* doubling, but never to more room than the longest line takes */
      gsize cap = MAX (MIN (c->cap * 2, max), c->len + n);
      guint8 *grown = g_try_realloc (c->data, cap);
      if (!grown)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: line %u: out of memory holding a line of %" G_GSIZE_FORMAT " bytes",
                       iv_input_get_name (input), line_no, c->len + n);
          return FALSE;
        }
      c->data = grown, c->cap = cap;
    }
  /* nothing to hold may come before any room (c->data NULL): memcpy may not see it */
  if (n == 0)
    return TRUE;
  memcpy (c->data + c->len, p, n);
  c->len += n;
  return TRUE;
}

gboolean
iv_json_stream_parse_lines (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                            IvJsonLineDone line_done, gsize max_line, IvProgressFunc progress,
                            gpointer progress_data, GCancellable *cancellable,
                            IvJsonLinesStats *stats, GError **error)
{
  g_autofree guint8 *buf = g_malloc (CHUNK);
  Carry carry = { NULL, 0, 0 }; /* a line begun in an earlier chunk */
  gboolean too_long = FALSE;    /* the line being read is past @max_line: passed over */
  guint line_no = 1;
  gboolean first = TRUE, ok = TRUE;

  memset (stats, 0, sizeof *stats);
  if (max_line == 0)
    max_line = IV_JSON_LINE_MAX_DEFAULT;
  for (;;)
    {
      gssize n;
      const guint8 *p, *end;

      n = read_chunk (input, buf, cancellable, error);
      if (n < 0)
        {
          ok = FALSE;
          break;
        }
      p = buf, end = buf + n;
      if (first && n > 0)
        {
          /* a byte order mark (some Windows tools write one) */
          if (n >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
            p += 3;
          first = FALSE;
        }
      for (;;)
        {
          const guint8 *nl = n > 0 ? memchr (p, '\n', (gsize) (end - p)) : NULL;
          const guint8 *line;
          gsize len, piece = (gsize) ((nl ? nl : end) - p);
          guint column = 0;
          g_autofree char *reason = NULL;
          gboolean parsed;

          /* A line past the limit is not held: its bytes are passed over to its newline
           * (a crashed writer's preallocated gigabytes cost a scan, not the memory). */
          if (!too_long && carry.len + piece > max_line)
            {
              too_long = TRUE;
              carry.len = 0;
              stats->lines++;
              stats->long_lines++;
              if (!stats->first_long_line)
                stats->first_long_line = line_no;
              if (line_done)
                line_done (ctx, FALSE);
            }
          if (too_long)
            {
              if (!nl && n > 0)
                break;
              too_long = FALSE;
              if (!nl)
                break;
              line_no++;
              p = nl + 1;
              continue;
            }
          if (!nl && n > 0)
            {
              /* the rest of the chunk starts a line the next chunk ends */
              if (!carry_append (&carry, p, piece, max_line, input, line_no, error))
                ok = FALSE;
              break;
            }
          if (!nl)
            {
              /* end of input: a last line without its newline */
              if (carry.len == 0)
                break;
              line = carry.data, len = carry.len;
            }
          else if (carry.len)
            {
              if (!carry_append (&carry, p, piece, max_line, input, line_no, error))
                {
                  ok = FALSE;
                  break;
                }
              line = carry.data, len = carry.len;
            }
          else
            line = p, len = piece;
          if (!blank (line, len))
            {
              stats->lines++;
              parsed = parse_line (callbacks, ctx, line, len, &column, &reason);
              if (!parsed)
                {
                  stats->damaged++;
                  if (!stats->first_damaged_line)
                    {
                      stats->first_damaged_line = line_no;
                      stats->first_damaged_column = column;
                      stats->first_damaged_reason = g_steal_pointer (&reason);
                    }
                  stats->last_line_cut = !nl;
                }
              else
                stats->last_line_cut = FALSE;
              if (line_done)
                line_done (ctx, parsed);
            }
          carry.len = 0;
          if (!nl)
            break;
          line_no++;
          p = nl + 1;
        }
      if (!ok || n == 0)
        break;
      if (progress)
        progress (iv_input_get_raw_offset (input), iv_input_get_raw_size (input), progress_data);
    }
  g_free (carry.data);
  if (!ok)
    g_clear_pointer (&stats->first_damaged_reason, g_free);
  return ok;
}
