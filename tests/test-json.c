/* test-json.c: the JSON writer prints every number as valid JSON that reads back to the
 * same bits, and the guarded document parser refuses what would hurt json-glib (deep
 * nesting, special files, huge files, UTF-16) with the file, the place and the problem. */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "iv-json-doc.h"
#include "iv-json-writer.h"
#include "iv-test-util.h"

static char *tmpdir;

static double
read_back (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *doc = g_strdup_printf ("[%s]", text);
  g_autoptr (JsonNode) root = iv_json_parse (doc, strlen (doc), "number", &error);
  JsonNode *n;

  g_assert_no_error (error);
  n = json_array_get_element (json_node_get_array (root), 0);
  /* Doubles stay doubles: an integer node would lose -0.0 and the type. */
  g_assert_cmpint (json_node_get_value_type (n), ==, G_TYPE_DOUBLE);
  return json_node_get_double (n);
}

static void
test_doubles (void)
{
  /* The expected texts are the shortest decimal forms (as Python's repr gives them,
   * with a ".0" where repr prints an integer-looking double). */
  static const struct
  {
    double v;
    const char *text;
  } cases[] = {
    { 1e-8, "1e-08" },
    { 1e-10, "1e-10" },
    { 3e-11, "3e-11" },
    { 6e-10, "6e-10" },
    { 1e17, "1e+17" },
    { 1e308, "1e+308" },
    { 5e-324, "4.94065645841247e-324" },
    { 9007199254740992.0, "9007199254740992.0" },
    { 0.1, "0.1" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 2.5, "2.5" },
    { 3.0, "3.0" },
    { 123456789012.0, "123456789012.0" },
  };
  char buf[IV_JSON_DOUBLE_BUF];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (iv_json_format_double (cases[i].v, buf), ==, cases[i].text);
      g_assert_true (read_back (buf) == cases[i].v);
    }
  g_assert_cmpstr (iv_json_format_double (-0.0, buf), ==, "-0.0");
  g_assert_true (signbit (read_back (buf)) && read_back (buf) == 0.0);
  g_assert_cmpstr (iv_json_format_double (NAN, buf), ==, "null");
  g_assert_cmpstr (iv_json_format_double (INFINITY, buf), ==, "null");
  g_assert_cmpstr (iv_json_format_double (-INFINITY, buf), ==, "null");
}

/* Any finite double, including denormals and extremes, survives the text exactly. */
static void
test_doubles_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (12345);
  char buf[IV_JSON_DOUBLE_BUF];

  for (guint i = 0; i < 200000; i++)
    {
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double v;
      memcpy (&v, &bits, sizeof v);
      if (!isfinite (v))
        continue;
      iv_json_format_double (v, buf);
      g_assert_true (strpbrk (buf, ".e") != NULL);
      g_assert_true (memcmp (&(double){ g_ascii_strtod (buf, NULL) }, &v, sizeof v) == 0);
    }
}

static void
test_writer_text (void)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *compact = NULL, *pretty = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "zeta");
  json_builder_add_string_value (b, "q\" b\\ n\n t\t c\x01 é");
  json_builder_set_member_name (b, "alpha");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, G_MININT64);
  json_builder_add_double_value (b, 1e-10);
  json_builder_add_boolean_value (b, TRUE);
  json_builder_add_null_value (b);
  json_builder_add_double_value (b, NAN);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "empty");
  json_builder_begin_object (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);

  compact = iv_json_to_string (root, FALSE);
  /* Members in the order they were added; NaN as null. */
  g_assert_cmpstr (compact, ==,
                   "{\"zeta\":\"q\\\" b\\\\ n\\n t\\t c\\u0001 é\","
                   "\"alpha\":[-9223372036854775808,1e-10,true,null,null],\"empty\":{}}");
  pretty = iv_json_to_string (root, TRUE);
  g_assert_cmpstr (pretty, ==,
                   "{\n  \"zeta\": \"q\\\" b\\\\ n\\n t\\t c\\u0001 é\",\n  \"alpha\": [\n"
                   "    -9223372036854775808,\n    1e-10,\n    true,\n    null,\n    null\n  ],\n"
                   "  \"empty\": {}\n}");

  /* and it reads back to the same tree (NaN aside) */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (JsonNode) back = iv_json_parse (pretty, strlen (pretty), "pretty", &error);
    JsonObject *o;
    g_assert_no_error (error);
    o = json_node_get_object (back);
    g_assert_cmpstr (json_object_get_string_member (o, "zeta"), ==, "q\" b\\ n\n t\t c\x01 é");
    g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (o, "alpha"), 0), ==,
                     G_MININT64);
  }
}

static void
test_writer_invalid_utf8 (void)
{
  g_autoptr (JsonNode) n = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;

  json_node_set_string (n, "a\xff"
                           "b");
  text = iv_json_to_string (n, FALSE);
  g_assert_cmpstr (text, ==,
                   "\"a\xef\xbf\xbd"
                   "b\"");
}

static char *
nested (guint depth, const char *open, const char *close)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < depth; i++)
    g_string_append (s, open);
  for (guint i = 0; i < depth; i++)
    g_string_append (s, close);
  return g_string_free (s, FALSE);
}

static void
test_depth (void)
{
  g_autofree char *ok = nested (IV_JSON_MAX_DEPTH, "[", "]");
  g_autofree char *deep = nested (IV_JSON_MAX_DEPTH + 1, "[", "]");
  g_autofree char *bomb = nested (100000, "{\"a\":", "}");
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonNode *refused;
  guint line = 0, column = 0;

  root = iv_json_parse (ok, strlen (ok), "ok.json", &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);

  refused = iv_json_parse (deep, strlen (deep), "deep.json", &error);
  g_assert_null (refused);
  g_assert_cmpstr (error->message, ==,
                   "deep.json: line 1, column 257: nested more than 256 levels deep");
  g_clear_error (&error);

  g_assert_false (iv_json_check_depth (bomb, strlen (bomb), IV_JSON_MAX_DEPTH, &line, &column));
  g_assert_cmpuint (line, ==, 1);
  g_assert_cmpuint (column, ==, 256 * 5 + 1);
  refused = iv_json_parse (bomb, strlen (bomb), "bomb.json", &error);
  g_assert_null (refused);
  g_assert_nonnull (
      strstr (error->message, "bomb.json: line 1, column 1281: nested more than 256"));
  g_clear_error (&error);

  /* Brackets inside strings, escaped quotes included, do not nest. */
  {
    g_autofree char *inner = nested (1000, "[", "]");
    g_autofree char *doc = g_strdup_printf ("{\"a\\\"%s\": \"%s\\\\\"}", inner, inner);
    g_assert_true (iv_json_check_depth (doc, strlen (doc), 2, &line, &column));
  }
  /* The position is counted in lines. */
  g_assert_false (iv_json_check_depth ("{\n \"x\": [\n  [[1]]]}", 19, 3, &line, &column));
  g_assert_cmpuint (line, ==, 3);
  g_assert_cmpuint (column, ==, 4);
}

static void
test_parse_errors (void)
{
  g_autoptr (GError) error = NULL;
  JsonNode *n;

  n = iv_json_parse ("{\n  \"a\": tru\n}", 14, "cfg.json", &error);
  g_assert_null (n);
  /* json-glib places the error just past the offending token ("tru" is columns 8–10). */
  g_assert_cmpstr (error->message, ==,
                   "cfg.json: line 2, column 10: unexpected identifier `tru', expected value");
  g_clear_error (&error);

  n = iv_json_parse ("   \n", 4, "blank.json", &error);
  g_assert_null (n);
  g_assert_cmpstr (error->message, ==, "blank.json: the file is empty");
  g_clear_error (&error);

  n = iv_json_parse ("{\"a\":\n\"x\xc3(\"}", 11, "latin.json", &error);
  g_assert_null (n);
  g_assert_cmpstr (error->message, ==, "latin.json: line 2, column 3: not UTF-8 text (byte 0xc3)");
  g_clear_error (&error);

  n = iv_json_parse ("{\0\"\0a\0\"\0", 8, "wide.json", &error);
  g_assert_null (n);
  g_assert_cmpstr (error->message, ==, "wide.json: UTF-16 text: save the file as UTF-8");
  g_clear_error (&error);

  /* A UTF-8 byte-order mark is not an error. */
  {
    g_autoptr (JsonNode) ok = iv_json_parse ("\xef\xbb\xbf{\"a\": 1}", 11, "bom.json", &error);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (ok), "a"), ==, 1);
  }
}

static void
test_load_special_files (void)
{
  g_autofree char *fifo = g_build_filename (tmpdir, "fifo.json", NULL);
  g_autofree char *big = g_build_filename (tmpdir, "big.json", NULL);
  g_autoptr (GError) error = NULL;
  JsonNode *n;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* Would block for ever if it were opened as a file. */
  n = iv_json_load (fifo, &error);
  g_assert_null (n);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (
      error->message, "fifo.json: is a named pipe (FIFO); Inferview reads only regular files"));
  g_clear_error (&error);

  n = iv_json_load ("/dev/zero", &error);
  g_assert_null (n);
  g_assert_cmpstr (error->message, ==,
                   "/dev/zero: is a device; Inferview reads only regular files");
  g_clear_error (&error);

  n = iv_json_load (tmpdir, &error);
  g_assert_null (n);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);

  /* A document past the cap is refused without being held whole. */
  {
    FILE *f = fopen (big, "w");
    g_assert_nonnull (f);
    /* text first (zero bytes up front would read as UTF-16), then a sparse hole */
    g_assert_cmpint (fputs ("[    ", f), >=, 0);
    g_assert_cmpint (fseek (f, (long) IV_INPUT_DOCUMENT_MAX, SEEK_SET), ==, 0);
    g_assert_cmpint (fputc (']', f), ==, ']');
    fclose (f);
  }
  n = iv_json_load (big, &error);
  g_assert_null (n);
  g_assert_nonnull (strstr (error->message, "big.json: larger than the 64 MiB"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-json-XXXXXX");
  g_test_add_func ("/json/doubles", test_doubles);
  g_test_add_func ("/json/doubles-random", test_doubles_random);
  g_test_add_func ("/json/writer-text", test_writer_text);
  g_test_add_func ("/json/writer-invalid-utf8", test_writer_invalid_utf8);
  g_test_add_func ("/json/depth", test_depth);
  g_test_add_func ("/json/parse-errors", test_parse_errors);
  g_test_add_func ("/json/load-special-files", test_load_special_files);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
