/* test-json-pull.c: the pull reader reads the same values, and reports the same errors
 * at the same line and column, whatever its window's size — every step cut at every
 * byte by windows of 1 to 40 bytes — and a value far larger than the window is read
 * whole. */
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "iv-json-pull.h"

/* One element of an array: its scalar as "s:text", "n:text", "l:1" / "l:0" / "l:null",
 * or "skip" for a container. */
static IvPullStatus
element (IvJsonPull *r, GString *out)
{
  const char *text;
  gsize len;
  int value;
  IvPullStatus st;
  char c = r->at[r->pos];

  if (c == '"')
    {
      if ((st = iv_json_pull_string (r, &text, &len)) == IV_PULL_OK)
        g_string_append (out, "s:"), g_string_append_len (out, text, (gssize) len);
    }
  else if (c == '-' || g_ascii_isdigit (c))
    {
      if ((st = iv_json_pull_number (r, &text, &len)) == IV_PULL_OK)
        g_string_append (out, "n:"), g_string_append_len (out, text, (gssize) len);
    }
  else if (c == '{' || c == '[')
    {
      if ((st = iv_json_pull_skip (r)) == IV_PULL_OK)
        g_string_append (out, "skip");
    }
  else if ((st = iv_json_pull_literal (r, &value)) == IV_PULL_OK)
    g_string_append_printf (out, "l:%s", value < 0 ? "null" : value ? "1" : "0");
  if (st == IV_PULL_OK)
    g_string_append_c (out, '|');
  return st;
}

/* One step: the separator before an element (or the opening bracket), then the element.
 * A step cut by the window's end is run again from its start after a refill. */
static IvPullStatus
step (IvJsonPull *r, gboolean *first, gboolean *done, GString *out)
{
  IvPullStatus st;
  gsize mark = out->len;

  if (!iv_json_pull_ws (r))
    return r->eof ? iv_json_pull_fail (r, r->len, "ends") : IV_PULL_MORE;
  if (*first)
    {
      if (r->at[r->pos] != '[')
        return iv_json_pull_fail (r, r->pos, "not an array");
      r->pos++;
    }
  else if (r->at[r->pos] == ']')
    {
      r->pos++;
      *done = TRUE;
      return IV_PULL_OK;
    }
  else if (r->at[r->pos] != ',')
    return iv_json_pull_fail (r, r->pos, "no comma");
  else
    r->pos++;
  if (!iv_json_pull_ws (r))
    return r->eof ? iv_json_pull_fail (r, r->len, "ends") : IV_PULL_MORE;
  if (*first && r->at[r->pos] == ']')
    {
      r->pos++;
      *done = TRUE;
      return IV_PULL_OK;
    }
  st = element (r, out);
  if (st != IV_PULL_OK)
    g_string_truncate (out, mark);
  else
    *first = FALSE;
  return st;
}

static char *read_all_with (const char *text, gsize length, gsize window, gboolean lenient,
                            IvJsonPull *done_reader);

/* The elements of the array in @text read with a window of @window bytes; on an error,
 * "error L:C" (and whether the text ended there) instead. */
static char *
read_all (const char *text, gsize length, gsize window)
{
  return read_all_with (text, length, window, FALSE, NULL);
}

/* The same, leniently or not; the reader as it ended in *@done (unless NULL), cleared. */
static char *
read_all_with (const char *text, gsize length, gsize window, gboolean lenient,
               IvJsonPull *done_reader)
{
  g_autoptr (GBytes) bytes = g_bytes_new (text, length);
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "doc.json", NULL);
  GString *out = g_string_new (NULL);
  IvJsonPull r;
  gboolean first = TRUE, done = FALSE;

  g_assert_true (iv_json_pull_init_sized (&r, in, window, NULL, NULL, NULL, NULL));
  r.lenient = lenient;
  while (!done)
    {
      gsize from = r.pos;
      gboolean was_first = first;
      IvPullStatus st = step (&r, &first, &done, out);
      if (st == IV_PULL_MORE)
        {
          first = was_first;
          if (r.eof)
            st = iv_json_pull_fail (&r, r.len, "ends");
          else
            {
              g_assert_true (iv_json_pull_refill (&r, from, NULL));
              continue;
            }
        }
      if (st == IV_PULL_ERROR)
        {
          guint line, column;
          iv_json_pull_where (&r, r.error_at, &line, &column);
          g_string_assign (out, "");
          g_string_append_printf (out, "error %u:%u%s", line, column,
                                  r.eof && r.error_at >= r.len ? " at the end" : "");
          break;
        }
    }
  iv_json_pull_clear (&r);
  if (done_reader)
    *done_reader = r;
  return g_string_free (out, FALSE);
}

static void
check_every_window (const char *text, const char *expected)
{
  for (gsize w = 1; w <= 40; w++)
    {
      g_autofree char *got = read_all (text, strlen (text), w);
      if (g_strcmp0 (got, expected) != 0)
        g_error ("window %" G_GSIZE_FORMAT ": “%s”, expected “%s” (text: %s)", w, got, expected,
                 text);
    }
  {
    g_autofree char *got = read_all (text, strlen (text), 1 << 16);
    g_assert_cmpstr (got, ==, expected);
  }
}

static void
test_values (void)
{
  /* é is C3 A9; U+1F600 (a surrogate pair) is F0 9F 98 80; a lone surrogate reads as
   * the replacement character EF BF BD */
  check_every_window (
      "[ \"plain\", \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\ud83d\\ude00\\udc00\","
      " -12.5e+3, 0, 7, 1E5, 0.25, true, false, null,"
      " {\"a\": [1, {\"b\": \"c,]}\"}], \"d\": {}}, [], [[[\"deep\"]]], \"last\" ]",
      "s:plain|s:a\"b\\c/d\b\f\n\r\t|s:\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd|"
      "n:-12.5e+3|n:0|n:7|n:1E5|n:0.25|l:1|l:0|l:null|skip|skip|skip|s:last|");
  /* an empty array, and whitespace of every kind */
  check_every_window (" \t\r\n[ ]\n", "");
}

static void
test_errors (void)
{
  static const struct
  {
    const char *text, *expected;
  } cases[] = {
    /* the offending byte's line and column */
    { "[1, 2,\n  x]", "error 2:3" },
    { "[\"a\x01\"]", "error 1:4" },
    { "[01]", "error 1:3" },
    { "[1.]", "error 1:4" },
    { "[1e]", "error 1:4" },
    { "[-]", "error 1:3" },
    { "[tru]", "error 1:5" },
    { "[nulL]", "error 1:5" },
    { "[\"\\x\"]", "error 1:4" },
    { "[\"\\u12G4\"]", "error 1:3" },
    { "[{\"a\" 1}]", "error 1:7" },
    { "[{1: 2}]", "error 1:3" },
    { "[{\"a\": 1,}]", "error 1:10" },
    { "[[1 2]]", "error 1:5" },
    /* the text ends inside a value: the error is at its end */
    { "[1, {\"a\": ", "error 1:11 at the end" },
    { "[\"abc", "error 1:6 at the end" },
    { "[1, 2", "error 1:6 at the end" },
    { "[tr", "error 1:4 at the end" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_every_window (cases[i].text, cases[i].expected);
}

/* A string of 3 MB read through a window of 16 bytes: the window grows to hold it, and
 * (as the text arrives) is rescanned a number of times that grows with the log of the
 * value's size, not with the number of reads. */
static void
test_large_value (void)
{
  gsize n = 3 << 20;
  g_autofree char *text = g_malloc (n + 16);
  g_autofree char *got = NULL;

  memcpy (text, "[\"", 2);
  memset (text + 2, 'x', n);
  memcpy (text + 2 + n, "\", 5]", 6);
  got = read_all (text, strlen (text), 16);
  g_assert_cmpuint (strlen (got), ==, n + 2 + 1 + 4);
  g_assert_true (g_str_has_prefix (got, "s:xxxx"));
  g_assert_true (g_str_has_suffix (got, "x|n:5|"));
}

/* A string of 3 MB with an escape every 1,000 bytes: decoded whole, its scratch buffer
 * grown (with try-allocation) across many doublings, the plain runs between escapes
 * copied as they are; a short escaped string after it reuses the buffer. */
static void
test_large_escaped_value (void)
{
  GString *text = g_string_new ("[\"");
  GString *want = g_string_new ("s:");
  g_autofree char *got = NULL;
  g_autofree char *run = g_strnfill (999, 'y');

  for (guint i = 0; i < 3000; i++)
    {
      g_string_append (text, run);
      g_string_append (text, i % 2 ? "\\n" : "\\u00e9");
      g_string_append (want, run);
      g_string_append (want, i % 2 ? "\n" : "\xc3\xa9");
    }
  g_string_append (text, "\", \"a\\tb\"]");
  g_string_append (want, "|s:a\tb|");
  got = read_all (text->str, text->len, 4096);
  g_assert_cmpuint (strlen (got), ==, want->len);
  g_assert_true (strcmp (got, want->str) == 0);
  g_string_free (text, TRUE);
  g_string_free (want, TRUE);
}

/* A value longer than the most one step may span is an error naming its place, not a
 * window grown without end (a gigabyte of one string is an attack). */
static void
test_step_limit (void)
{
  g_autofree char *xs = g_strnfill (5000, 'x');
  g_autofree char *text = g_strdup_printf ("\"%s\"", xs);
  g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "doc.json", NULL);
  g_autoptr (GError) error = NULL;
  IvJsonPull r;
  const char *s;
  gsize len;

  g_assert_true (iv_json_pull_init_sized (&r, in, 64, NULL, NULL, NULL, NULL));
  r.max_step = 1024;
  while (iv_json_pull_string (&r, &s, &len) == IV_PULL_MORE)
    if (!iv_json_pull_refill (&r, 0, &error))
      break;
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==,
                   "doc.json: line 1, column 1: one value longer than 1024 bytes, the most read");
  iv_json_pull_clear (&r);
}

/* A lenient reader takes what Perfetto takes — one trailing comma before a closing '}' or
 * ']', raw control characters inside strings (kept) — and counts each once, with the
 * first one's place, however the window cuts the text and the steps are run again. A
 * strict reader still refuses them (test_errors). */
static void
test_lenient (void)
{
  const char *text = "[{\"a\": [1, 2,], \"b\": {\"c\": 1,},},\n \"x\ny\", \"\t\"]";

  for (gsize w = 1; w <= 48; w++)
    {
      IvJsonPull r;
      g_autofree char *got = read_all_with (text, strlen (text), w, TRUE, &r);
      g_assert_cmpstr (got, ==, "skip|s:x\ny|s:\t|");
      g_assert_cmpuint (r.n_trailing_commas, ==, 3);
      g_assert_cmpuint (r.comma_line, ==, 1);
      g_assert_cmpuint (r.comma_column, ==, 14);
      g_assert_cmpuint (r.n_raw_controls, ==, 2);
      g_assert_cmpuint (r.control_line, ==, 2);
      g_assert_cmpuint (r.control_column, ==, 4);
    }
  {
    g_autofree char *strict = read_all (text, strlen (text), 8);
    g_assert_cmpstr (strict, ==, "error 1:14");
  }
}

static IvPullStatus
collect_member (IvJsonPull *r, const char *key, gsize key_len, gpointer data)
{
  GString *out = data;
  const char *v;
  gsize len;
  gboolean is_number;
  IvPullStatus st;

  g_string_append_len (out, key, (gssize) key_len);
  g_string_append_c (out, '=');
  if ((st = iv_json_pull_scalar (r, &v, &len, &is_number)) == IV_PULL_OK)
    g_string_append_len (out, v, (gssize) len), g_string_append_c (out, ';');
  return st;
}

/* A reader over text in memory (a value read again in detail) reads an object's members,
 * leniently, and never asks for more; iv_json_pull_strict_text makes such text strict JSON
 * for json-glib: trailing commas dropped (not those inside strings), control characters
 * escaped. */
static void
test_text_reader_and_strict (void)
{
  const char *text = "{\"a\": 1, \"s\": \"x\ny\", \"c\": \"a,]\",}";
  g_autoptr (GString) out = g_string_new (NULL);
  IvJsonPull r;
  g_autofree char *strict = NULL;
  g_autoptr (JsonNode) node = NULL;

  iv_json_pull_init_text (&r, text, strlen (text));
  r.lenient = TRUE;
  g_assert_cmpint (iv_json_pull_object (&r, collect_member, out), ==, IV_PULL_OK);
  g_assert_cmpstr (out->str, ==, "a=1;s=x\ny;c=a,];");
  g_assert_cmpuint (r.pos, ==, strlen (text));
  g_assert_cmpuint (r.n_trailing_commas, ==, 1);
  iv_json_pull_clear (&r);

  strict = iv_json_pull_strict_text (text, strlen (text));
  g_assert_cmpstr (strict, ==, "{\"a\": 1, \"s\": \"x\\ny\", \"c\": \"a,]\"}");
  {
    const char *odd = "[\"\x01\t\", [1 , ] ,\r\n]";
    g_autofree char *s2 = iv_json_pull_strict_text (odd, strlen (odd));
    g_assert_cmpstr (s2, ==, "[\"\\u0001\\t\", [1  ] \r\n]");
  }
  node = json_from_string (strict, NULL);
  g_assert_nonnull (node);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-pull/values", test_values);
  g_test_add_func ("/json-pull/errors", test_errors);
  g_test_add_func ("/json-pull/large-value", test_large_value);
  g_test_add_func ("/json-pull/large-escaped-value", test_large_escaped_value);
  g_test_add_func ("/json-pull/step-limit", test_step_limit);
  g_test_add_func ("/json-pull/lenient", test_lenient);
  g_test_add_func ("/json-pull/text-reader-and-strict", test_text_reader_and_strict);
  return g_test_run ();
}
