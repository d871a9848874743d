/* iv-json-stream.c: the streaming JSON reader under every bulk loader. yajl reports
 * errors as a byte offset inside the last chunk; users need a line and a column, so the
 * reader counts newlines as it feeds the parser (a memchr per chunk, not per byte). */
#define G_LOG_DOMAIN "iv-util"

#include "iv-json-stream.h"

#include <string.h>

#define CHUNK (256 * 1024)

G_DEFINE_QUARK (iv-json-stream-error-quark, iv_json_stream_error)

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
iv_json_stream_parse (IvInput              *input,
                      const yajl_callbacks *callbacks,
                      gpointer              ctx,
                      IvJsonStreamFlags     flags,
                      IvProgressFunc        progress,
                      gpointer              progress_data,
                      GCancellable         *cancellable,
                      IvJsonStreamStats    *stats,
                      GError              **error)
{
  return iv_json_stream_parse_at (input, callbacks, ctx, flags, progress, progress_data,
                                  cancellable, NULL, stats, error);
}

gboolean
iv_json_stream_parse_at (IvInput              *input,
                         const yajl_callbacks *callbacks,
                         gpointer              ctx,
                         IvJsonStreamFlags     flags,
                         IvProgressFunc        progress,
                         gpointer              progress_data,
                         GCancellable         *cancellable,
                         IvJsonStreamPos      *pos_out,
                         IvJsonStreamStats    *stats,
                         GError              **error)
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
