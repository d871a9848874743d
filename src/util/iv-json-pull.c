/* iv-json-pull.c: see iv-json-pull.h. */
#define G_LOG_DOMAIN "iv-util"

#include "iv-json-pull.h"

#include <string.h>

#define WINDOW (256 * 1024)

gboolean
iv_json_pull_init (IvJsonPull *r, IvInput *input, IvProgressFunc progress, gpointer progress_data,
                   GCancellable *cancellable, GError **error)
{
  return iv_json_pull_init_sized (r, input, WINDOW, progress, progress_data, cancellable, error);
}

gboolean
iv_json_pull_init_sized (IvJsonPull *r, IvInput *input, gsize window, IvProgressFunc progress,
                         gpointer progress_data, GCancellable *cancellable, GError **error)
{
  memset (r, 0, sizeof *r);
  r->input = input;
  r->progress = progress;
  r->progress_data = progress_data;
  r->cancellable = cancellable;
  r->line = r->column = 1;
  r->retry_from = G_MAXSIZE;
  r->cap = MAX (window, 1);
  r->max_step = IV_JSON_PULL_MAX_STEP;
  r->buf = g_try_malloc (r->cap);
  if (!r->buf)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "%s: out of memory",
                   iv_input_get_name (input));
      return FALSE;
    }
  r->at = r->buf;
  return iv_json_pull_refill (r, 0, error);
}

void
iv_json_pull_init_text (IvJsonPull *r, const char *text, gsize len)
{
  memset (r, 0, sizeof *r);
  r->at = text;
  r->len = len;
  r->eof = TRUE; /* nothing follows: no token ever waits for more */
  r->line = r->column = 1;
  r->retry_from = G_MAXSIZE;
  r->max_step = IV_JSON_PULL_MAX_STEP;
}

void
iv_json_pull_clear (IvJsonPull *r)
{
  g_clear_pointer (&r->buf, g_free);
  g_clear_pointer (&r->scratch, g_free);
  r->scratch_len = r->scratch_cap = 0;
}

/* Line and column after @len bytes from (@line, @column). */
static void
advance (guint *line, guint *column, const char *p, gsize len)
{
  const char *end = p + len, *nl;

  while ((nl = memchr (p, '\n', (gsize) (end - p))) != NULL)
    {
      (*line)++;
      *column = 1;
      p = nl + 1;
    }
  *column += (guint) (end - p);
}

void
iv_json_pull_where (const IvJsonPull *r, gsize i, guint *line, guint *column)
{
  *line = r->line;
  *column = r->column;
  advance (line, column, r->at, MIN (i, r->len));
}

gboolean
iv_json_pull_refill (IvJsonPull *r, gsize keep_from, GError **error)
{
  gboolean again;
  gsize kept;

  keep_from = MIN (keep_from, r->len);
  /* the same step as the last refill's, run out again */
  again = r->retry_from == r->base + keep_from;
  /* the bytes dropped still count for line numbers */
  advance (&r->line, &r->column, r->buf, keep_from);
  kept = r->len - keep_from;
  memmove (r->buf, r->buf + keep_from, kept);
  r->base += keep_from;
  r->len = kept;
  r->pos = 0;
  /* A step that needs more than the window holds: a bigger window, up to a limit no
   * real event or member reaches (a gigabyte of one value is an attack, not a trace). */
  if (again && kept > r->cap / 2)
    {
      gsize cap = r->cap > G_MAXSIZE / 2 ? G_MAXSIZE : r->cap * 2;
      char *grown;
      if (cap > r->max_step)
        {
          guint line, column;
          iv_json_pull_where (r, 0, &line, &column);
          g_set_error (error, IV_JSON_STREAM_ERROR, IV_JSON_STREAM_ERROR_SYNTAX,
                       "%s: line %u, column %u: one value longer than %" G_GSIZE_FORMAT
                       " bytes, the most read",
                       iv_input_get_name (r->input), line, column, r->max_step);
          return FALSE;
        }
      grown = cap > r->cap ? g_try_realloc (r->buf, cap) : NULL;
      if (!grown)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                       "%s: out of memory for a value of more than %" G_GSIZE_FORMAT " bytes",
                       iv_input_get_name (r->input), kept);
          return FALSE;
        }
      r->buf = grown;
      r->cap = cap;
    }
  r->at = r->buf;
  /* A step retried: fill the window, so it is rescanned only once per doubling. */
  do
    {
      gssize n;
      if (g_cancellable_set_error_if_cancelled (r->cancellable, error))
        return FALSE;
      n = iv_input_read (r->input, r->buf + r->len, r->cap - r->len, error);
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          r->eof = TRUE;
          break;
        }
      r->len += (gsize) n;
      if (r->progress)
        r->progress (iv_input_get_raw_offset (r->input), iv_input_get_raw_size (r->input),
                     r->progress_data);
    }
  while (again && r->len < r->cap);
  r->retry_from = r->base;
  return TRUE;
}

/* What leniency let through at window index @at, counted once however often the step
 * holding it is run again; the first one's place kept for the warning. */
void
iv_json_pull_note_trailing_comma (IvJsonPull *r, gsize at)
{
  guint64 offset = r->base + at;

  if (offset < r->comma_mark)
    return;
  r->comma_mark = offset + 1;
  if (r->n_trailing_commas++ == 0)
    iv_json_pull_where (r, at, &r->comma_line, &r->comma_column);
}

static void
note_raw_control (IvJsonPull *r, gsize at)
{
  guint64 offset = r->base + at;

  if (offset < r->control_mark)
    return;
  r->control_mark = offset + 1;
  if (r->n_raw_controls++ == 0)
    iv_json_pull_where (r, at, &r->control_line, &r->control_column);
}

/* The escape of control character @c, as JSON writes it. */
static gsize
control_escape (guchar c, char out[7])
{
  switch (c)
    {
    case '\n':
      return (gsize) g_snprintf (out, 7, "\\n");
    case '\r':
      return (gsize) g_snprintf (out, 7, "\\r");
    case '\t':
      return (gsize) g_snprintf (out, 7, "\\t");
    default:
      return (gsize) g_snprintf (out, 7, "\\u%04x", c);
    }
}

/* One pass of iv_json_pull_strict_text (): the bytes it writes to @dst (counted only,
 * when @dst is NULL). */
static gsize
strict_pass (const char *text, gsize len, char *dst)
{
  gsize n = 0;
  gboolean in_string = FALSE, escaped = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];
      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          else if (c < 0x20)
            {
              char esc[7];
              gsize e = control_escape (c, esc);
              if (dst)
                memcpy (dst + n, esc, e);
              n += e;
              continue;
            }
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == ',')
        {
          /* a comma whose next byte past whitespace closes its container: dropped */
          gsize k = i + 1;
          while (k < len
                 && (text[k] == ' ' || text[k] == '\n' || text[k] == '\r' || text[k] == '\t'))
            k++;
          if (k < len && (text[k] == '}' || text[k] == ']'))
            continue;
        }
      if (dst)
        dst[n] = (char) c;
      n++;
    }
  return n;
}

char *
iv_json_pull_strict_text (const char *text, gsize len)
{
  gsize n = strict_pass (text, len, NULL);
  char *out = n < G_MAXSIZE ? g_try_malloc (n + 1) : NULL;

  if (!out)
    return NULL;
  strict_pass (text, len, out);
  out[n] = '\0';
  return out;
}

IvPullStatus
iv_json_pull_fail (IvJsonPull *r, gsize at, const char *reason)
{
  r->error_at = at;
  r->error_reason = reason;
  return IV_PULL_ERROR;
}

/* Bytes a string's fast loop stops at: the closing quote, an escape, control characters. */
static const guint8 string_stop[256] = {
  [0 ... 0x1f] = 1,
  ['"'] = 1,
  ['\\'] = 1,
};

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Four hex digits at @p (the window holds them). */
static int
hex4 (const char *p)
{
  int v = 0;
  for (int i = 0; i < 4; i++)
    {
      int d = hex_digit (p[i]);
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

/* Room for @extra more bytes (and a NUL) in the scratch buffer. A string may be as long
 * as a step (hundreds of megabytes): its buffer grows by doubling, with try-allocation, so
 * running out of memory is an error the reader reports (GString would abort). */
static gboolean
scratch_room (IvJsonPull *r, gsize extra)
{
  gsize need = r->scratch_len + extra + 1, cap;
  char *grown;

  if (need <= r->scratch_cap)
    return TRUE;
  cap = MAX (r->scratch_cap, 256);
  while (cap < need)
    cap = cap > G_MAXSIZE / 2 ? need : cap * 2;
  grown = g_try_realloc (r->scratch, cap);
  if (!grown)
    {
      r->out_of_memory = TRUE;
      return FALSE;
    }
  r->scratch = grown;
  r->scratch_cap = cap;
  return TRUE;
}

#define PUT(r, bytes, n)                                                                           \
  G_STMT_START                                                                                     \
  {                                                                                                \
    if (!scratch_room ((r), (n)))                                                                  \
      return iv_json_pull_fail ((r), q, "not enough memory for a string");                         \
    memcpy ((r)->scratch + (r)->scratch_len, (bytes), (n));                                        \
    (r)->scratch_len += (n);                                                                       \
  }                                                                                                \
  G_STMT_END

/* The slow path: a string with escapes, decoded into the scratch buffer. @q is at the
 * first backslash; @start just past the opening quote. */
static IvPullStatus
decode_string (IvJsonPull *r, gsize start, gsize q, const char **text, gsize *len)
{
  char utf8[6];

  r->scratch_len = 0;
  PUT (r, r->at + start, q - start);
  for (;;)
    {
      char c;
      if (q >= r->len)
        return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a string")
                      : IV_PULL_MORE;
      c = r->at[q];
      if (c == '"')
        break;
      if ((guchar) c < 0x20)
        {
          if (!r->lenient)
            return iv_json_pull_fail (r, q, "a control character inside a string");
          /* kept as it is, as Perfetto keeps it */
          note_raw_control (r, q);
          PUT (r, &c, 1);
          q++;
          continue;
        }
      if (c != '\\')
        {
          /* the plain run up to the next quote, escape or control character at once */
          gsize run = q;
          while (run < r->len && r->at[run] != '"' && r->at[run] != '\\'
                 && (guchar) r->at[run] >= 0x20)
            run++;
          PUT (r, r->at + q, run - q);
          q = run;
          continue;
        }
      if (q + 1 >= r->len)
        return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a string")
                      : IV_PULL_MORE;
      switch (r->at[q + 1])
        {
        case '"':
          PUT (r, &(char){ '"' }, 1);
          break;
        case '\\':
          PUT (r, &(char){ '\\' }, 1);
          break;
        case '/':
          PUT (r, &(char){ '/' }, 1);
          break;
        case 'b':
          PUT (r, &(char){ '\b' }, 1);
          break;
        case 'f':
          PUT (r, &(char){ '\f' }, 1);
          break;
        case 'n':
          PUT (r, &(char){ '\n' }, 1);
          break;
        case 'r':
          PUT (r, &(char){ '\r' }, 1);
          break;
        case 't':
          PUT (r, &(char){ '\t' }, 1);
          break;
        case 'u':
          {
            int u, lo;
            if (q + 6 > r->len)
              return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a string")
                            : IV_PULL_MORE;
            if ((u = hex4 (r->at + q + 2)) < 0)
              return iv_json_pull_fail (r, q, "a \\u escape without four hex digits");
            if (u >= 0xd800 && u < 0xdc00)
              {
                /* a high surrogate: its low half follows as a second escape */
                if (q + 12 > r->len && !r->eof)
                  return IV_PULL_MORE;
                if (q + 12 <= r->len && r->at[q + 6] == '\\' && r->at[q + 7] == 'u'
                    && (lo = hex4 (r->at + q + 8)) >= 0xdc00 && lo < 0xe000)
                  {
                    gint n = g_unichar_to_utf8 (
                        0x10000 + ((gunichar) (u - 0xd800) << 10) + (gunichar) (lo - 0xdc00), utf8);
                    PUT (r, utf8, (gsize) n);
                    q += 12;
                    continue;
                  }
                u = 0xfffd; /* an unpaired half stands for nothing: the replacement character */
              }
            else if (u >= 0xdc00 && u < 0xe000)
              u = 0xfffd;
            {
              gint n = g_unichar_to_utf8 ((gunichar) u, utf8);
              PUT (r, utf8, (gsize) n);
            }
            q += 6;
            continue;
          }
        default:
          return iv_json_pull_fail (r, q + 1, "an invalid escape in a string");
        }
      q += 2;
    }
  r->pos = q + 1;
  r->scratch[r->scratch_len] = '\0';
  *text = r->scratch;
  *len = r->scratch_len;
  return IV_PULL_OK;
}
#undef PUT

IvPullStatus
iv_json_pull_string (IvJsonPull *r, const char **text, gsize *len)
{
  gsize start = r->pos + 1, q = start;
  const guint8 *at = (const guint8 *) r->at;

  for (;;)
    {
      while (q < r->len && !string_stop[at[q]])
        q++;
      if (q >= r->len)
        return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a string")
                      : IV_PULL_MORE;
      if (at[q] == '"')
        {
          *text = r->at + start;
          *len = q - start;
          r->pos = q + 1;
          return IV_PULL_OK;
        }
      if (at[q] != '\\')
        {
          if (!r->lenient)
            return iv_json_pull_fail (r, q, "a control character inside a string");
          note_raw_control (r, q);
          q++;
          continue;
        }
      return decode_string (r, start, q, text, len);
    }
}

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? — checked part by part; a number that
 * reaches the window's end may go on in the next read. */
IvPullStatus
iv_json_pull_number (IvJsonPull *r, const char **text, gsize *len)
{
  gsize start = r->pos, q = start;
  const char *at = r->at;

#define NEED(cond_at_end)                                                                          \
  if (q >= r->len)                                                                                 \
  return r->eof ? (cond_at_end) : IV_PULL_MORE
#define BAD(reason) iv_json_pull_fail (r, q, reason)
  if (at[q] == '-')
    q++;
  NEED (BAD ("a number without digits"));
  if (at[q] == '0')
    q++;
  else if (is_digit (at[q]))
    while (q < r->len && is_digit (at[q]))
      q++;
  else
    return BAD ("a number without digits");
  if (q < r->len && at[q] == '.')
    {
      q++;
      NEED (BAD ("a number without digits after its point"));
      if (!is_digit (at[q]))
        return BAD ("a number without digits after its point");
      while (q < r->len && is_digit (at[q]))
        q++;
    }
  if (q < r->len && (at[q] == 'e' || at[q] == 'E'))
    {
      q++;
      NEED (BAD ("a number without digits in its exponent"));
      if (at[q] == '+' || at[q] == '-')
        q++;
      NEED (BAD ("a number without digits in its exponent"));
      if (!is_digit (at[q]))
        return BAD ("a number without digits in its exponent");
      while (q < r->len && is_digit (at[q]))
        q++;
    }
  /* the number may continue past the window */
  if (q >= r->len && !r->eof)
    return IV_PULL_MORE;
#undef NEED
#undef BAD
  *text = at + start;
  *len = q - start;
  r->pos = q;
  return IV_PULL_OK;
}

IvPullStatus
iv_json_pull_literal (IvJsonPull *r, int *value)
{
  static const struct
  {
    const char *word;
    gsize len;
    int value;
  } words[] = {
    { "true", 4, 1 },
    { "false", 5, 0 },
    { "null", 4, -1 },
  };

  for (guint w = 0; w < G_N_ELEMENTS (words); w++)
    {
      gsize have = MIN (r->len - r->pos, words[w].len);
      if (r->at[r->pos] != words[w].word[0])
        continue;
      if (memcmp (r->at + r->pos, words[w].word, have) != 0)
        {
          gsize q = r->pos;
          while (q < r->pos + have && r->at[q] == words[w].word[q - r->pos])
            q++;
          return iv_json_pull_fail (r, q, "an invalid literal (not true, false or null)");
        }
      if (have < words[w].len)
        return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a literal")
                      : IV_PULL_MORE;
      *value = words[w].value;
      r->pos += words[w].len;
      return IV_PULL_OK;
    }
  return iv_json_pull_fail (r, r->pos, "an invalid character where a value should be");
}

IvPullStatus
iv_json_pull_scalar (IvJsonPull *r, const char **text, gsize *len, gboolean *is_number)
{
  char c = r->at[r->pos];
  int value;
  IvPullStatus st;

  *is_number = FALSE;
  if (c == '"')
    return iv_json_pull_string (r, text, len);
  if (c == '-' || is_digit (c))
    {
      *is_number = TRUE;
      return iv_json_pull_number (r, text, len);
    }
  if ((st = iv_json_pull_literal (r, &value)) != IV_PULL_OK)
    return st;
  *text = value < 0 ? NULL : value ? "true" : "false";
  *len = value < 0 ? 0 : value ? 4 : 5;
  return IV_PULL_OK;
}

IvPullStatus
iv_json_pull_need (IvJsonPull *r)
{
  if (iv_json_pull_ws (r))
    return IV_PULL_OK;
  return r->eof ? iv_json_pull_fail (r, r->len, "the text ends inside a value") : IV_PULL_MORE;
}

IvPullStatus
iv_json_pull_key (IvJsonPull *r, const char **key, gsize *len)
{
  IvPullStatus st;

  if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
    return st;
  if (r->at[r->pos] != '"')
    return iv_json_pull_fail (r, r->pos, "an object key that is not a string");
  if ((st = iv_json_pull_string (r, key, len)) != IV_PULL_OK)
    return st;
  if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
    return st;
  if (r->at[r->pos] != ':')
    return iv_json_pull_fail (r, r->pos, "a missing ':' after an object key");
  r->pos++;
  return iv_json_pull_need (r);
}

IvPullStatus
iv_json_pull_object (IvJsonPull *r, IvPullMemberFunc member, gpointer data)
{
  IvPullStatus st;
  gboolean more = TRUE;

  r->pos++;
  if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
    return st;
  if (r->at[r->pos] == '}')
    {
      r->pos++;
      return IV_PULL_OK;
    }
  while (more)
    {
      const char *key;
      gsize len;

      if ((st = iv_json_pull_key (r, &key, &len)) != IV_PULL_OK
          || (st = member (r, key, len, data)) != IV_PULL_OK
          || (st = iv_json_pull_need (r)) != IV_PULL_OK)
        return st;
      if (r->at[r->pos] != ',' && r->at[r->pos] != '}')
        return iv_json_pull_fail (r, r->pos, "a missing ',' or '}' in an object");
      more = r->at[r->pos] == ',';
      r->pos++;
      if (more && r->lenient)
        {
          /* one trailing comma before the '}' */
          if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
            return st;
          if (r->at[r->pos] == '}')
            {
              iv_json_pull_note_trailing_comma (r, r->pos);
              r->pos++;
              return IV_PULL_OK;
            }
        }
    }
  return IV_PULL_OK;
}

IvPullStatus
iv_json_pull_skip (IvJsonPull *r)
{
  /* what each open container is: '{' or '['; deeper than the stack grows onto the heap */
  char local[256];
  g_autofree char *heap = NULL;
  char *stack = local;
  gsize depth = 0, cap = sizeof local, len;
  const char *text;
  gboolean is_number;
  IvPullStatus st;

  for (;;)
    {
      /* a value */
      char c;
      if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
        return st;
      c = r->at[r->pos];
      if (c == '{' || c == '[')
        {
          if (depth == cap)
            {
              char *grown = g_try_realloc (heap, cap * 2);
              if (!grown)
                {
                  r->out_of_memory = TRUE;
                  return iv_json_pull_fail (r, r->pos,
                                            "not enough memory for values nested so deeply");
                }
              if (!heap)
                memcpy (grown, local, sizeof local);
              heap = stack = grown;
              cap *= 2;
            }
          stack[depth++] = c;
          r->pos++;
          if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
            return st;
          if (r->at[r->pos] == (c == '{' ? '}' : ']'))
            {
              r->pos++;
              depth--;
            }
          else
            {
              if (c == '{' && (st = iv_json_pull_key (r, &text, &len)) != IV_PULL_OK)
                return st;
              continue;
            }
        }
      else if ((st = iv_json_pull_scalar (r, &text, &len, &is_number)) != IV_PULL_OK)
        return st;
      /* after a value: the container goes on or closes */
      for (;;)
        {
          char close;
          if (depth == 0)
            return IV_PULL_OK;
          if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
            return st;
          close = stack[depth - 1] == '{' ? '}' : ']';
          c = r->at[r->pos];
          if (c == close)
            {
              r->pos++;
              depth--;
              continue;
            }
          if (c != ',')
            return iv_json_pull_fail (r, r->pos,
                                      stack[depth - 1] == '{' ? "a missing ',' or '}' in an object"
                                                              : "a missing ',' or ']' in an array");
          r->pos++;
          if (r->lenient)
            {
              /* one trailing comma before the container closes */
              if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
                return st;
              if (r->at[r->pos] == close)
                {
                  iv_json_pull_note_trailing_comma (r, r->pos);
                  r->pos++;
                  depth--;
                  continue;
                }
            }
          if (stack[depth - 1] == '{' && (st = iv_json_pull_key (r, &text, &len)) != IV_PULL_OK)
            return st;
          break;
        }
    }
}
