/* test-safe-text.c: text from data made safe for Pango, terminals and text files; every
 * expectation written out by hand. */
#include <glib.h>
#include <string.h>

#include "iv-safe-text.h"

static void
check (char *got, const char *want)
{
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

static void
test_valid (void)
{
  check (iv_text_valid ("plain", -1), "plain");
  check (iv_text_valid ("caf\xc3\xa9", -1), "caf\xc3\xa9");
  /* Latin-1 é (0xE9) followed by 'x' is one bad byte, replaced; 'x' survives. */
  check (iv_text_valid ("caf\xe9x", -1), "caf\xef\xbf\xbdx");
  /* A NUL inside the given length is replaced, not an end. */
  check (iv_text_valid ("a\0b", 3), "a\xef\xbf\xbd"
                                    "b");
  /* A 4-byte emoji cut after 2 bytes: both bytes replaced one by one. */
  check (iv_text_valid ("\xf0\x9f", 2), "\xef\xbf\xbd\xef\xbf\xbd");
  g_assert_null (iv_text_valid (NULL, -1));
}

static void
test_printable (void)
{
  check (iv_text_printable ("stream 7"), "stream 7");
  check (iv_text_printable ("a\x1b[2Jb"), "a\\e[2Jb");
  /* OSC 52 (clipboard write) ended by BEL: neither byte reaches the terminal. */
  check (iv_text_printable ("\x1b]52;c;aGk=\x07"), "\\e]52;c;aGk=\\x07");
  check (iv_text_printable ("tab\there\nnext\r"), "tab\\there\\nnext\\r");
  check (iv_text_printable ("del\x7f"), "del\\x7f");
  /* C1 CSI (U+009B) is a control on many terminals. */
  check (iv_text_printable ("c1\xc2\x9b"), "c1\\u009b");
  check (iv_text_printable ("bad\xff"), "bad\xef\xbf\xbd");
  check (iv_text_printable ("µs · ≤"), "µs · ≤");
  g_assert_null (iv_text_printable (NULL));
}

static void
test_prefix (void)
{
  const char *emoji = "ab\xf0\x9f\x98\x80"; /* "ab😀": 6 bytes */
  g_assert_cmpuint (iv_text_prefix_len (emoji, 6, 6), ==, 6);
  g_assert_cmpuint (iv_text_prefix_len (emoji, 6, 5), ==, 2);
  g_assert_cmpuint (iv_text_prefix_len (emoji, 6, 3), ==, 2);
  g_assert_cmpuint (iv_text_prefix_len (emoji, 6, 2), ==, 2);
  g_assert_cmpuint (iv_text_prefix_len (emoji, 6, 1), ==, 1);
  g_assert_cmpuint (iv_text_prefix_len ("\xc3\xa9\xc3\xa9", 4, 3), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/safe-text/valid", test_valid);
  g_test_add_func ("/safe-text/printable", test_printable);
  g_test_add_func ("/safe-text/prefix", test_prefix);
  return g_test_run ();
}
