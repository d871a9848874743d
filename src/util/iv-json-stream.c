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

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      n = iv_input_read (input, buf, CHUNK, error);
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

gboolean
iv_json_stream_parse_lines (IvInput *input, const yajl_callbacks *callbacks, gpointer ctx,
                            IvJsonLineDone line_done, IvProgressFunc progress,
                            gpointer progress_data, GCancellable *cancellable,
                            IvJsonLinesStats *stats, GError **error)
{
  g_autofree guint8 *buf = g_malloc (CHUNK);
  g_autoptr (GByteArray) carry = g_byte_array_new (); /* a line begun in an earlier chunk */
  guint line_no = 1;
  gboolean first = TRUE;

  memset (stats, 0, sizeof *stats);
  for (;;)
    {
      gssize n;
      const guint8 *p, *end;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      n = iv_input_read (input, buf, CHUNK, error);
      if (n < 0)
        return FALSE;
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
          gsize len;
          guint column = 0;
          g_autofree char *reason = NULL;
          gboolean ok;

          if (!nl && n > 0)
            {
              /* the rest of the chunk starts a line the next chunk ends */
              g_byte_array_append (carry, p, (guint) (end - p));
              break;
            }
          if (!nl)
            {
              /* end of input: a last line without its newline */
              if (carry->len == 0)
                break;
              line = carry->data, len = carry->len;
            }
          else if (carry->len)
            {
              g_byte_array_append (carry, p, (guint) (nl - p));
              line = carry->data, len = carry->len;
            }
          else
            line = p, len = (gsize) (nl - p);
          if (!blank (line, len))
            {
              stats->lines++;
              ok = parse_line (callbacks, ctx, line, len, &column, &reason);
              if (!ok)
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
                line_done (ctx, ok);
            }
          g_byte_array_set_size (carry, 0);
          if (!nl)
            break;
          line_no++;
          p = nl + 1;
        }
      if (n == 0)
        break;
      if (progress)
        progress (iv_input_get_raw_offset (input), iv_input_get_raw_size (input), progress_data);
    }
  return TRUE;
}
