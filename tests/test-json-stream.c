/* test-json-stream.c: errors name the right line and column; truncation is told apart
 * from a syntax error; progress and cancellation work. */
#include <gio/gio.h>
#include <string.h>

#include "iv-json-stream.h"

static int
count_values (void *ctx)
{
  (*(int *) ctx)++;
  return 1;
}
static int
count_number (void *ctx, const char *s, size_t l)
{
  return count_values (ctx);
}
static int
count_string (void *ctx, const unsigned char *s, size_t l)
{
  return count_values (ctx);
}
static int
count_bool (void *ctx, int b)
{
  return count_values (ctx);
}
static int
stop_at_string (void *ctx, const unsigned char *s, size_t l)
{
  return 0;
}
static int
ok_map (void *ctx)
{
  return 1;
}
static int
ok_key (void *ctx, const unsigned char *s, size_t l)
{
  return 1;
}

static const yajl_callbacks counting = {
  .yajl_null = count_values,
  .yajl_boolean = count_bool,
  .yajl_number = count_number,
  .yajl_string = count_string,
  .yajl_start_map = ok_map,
  .yajl_map_key = ok_key,
  .yajl_end_map = ok_map,
  .yajl_start_array = ok_map,
  .yajl_end_array = ok_map,
};

static gboolean
parse_text (const char *text, int *values, IvJsonStreamFlags flags, IvJsonStreamStats *stats,
            GError **error)
{
  g_autoptr (GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "doc.json", NULL);
  return iv_json_stream_parse (in, &counting, values, flags, NULL, NULL, NULL, stats, error);
}

static void
test_valid (void)
{
  int values = 0;
  IvJsonStreamStats stats;
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_text ("{\"a\": [1, 2.5, \"x\", true, null],\n \"b\": 18446744073709551616}",
                             &values, 0, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpint (values, ==, 6);
  g_assert_cmpuint (stats.line, ==, 2);
}

static void
test_syntax_error_position (void)
{
  int values = 0;
  g_autoptr (GError) error = NULL;

  /* The bad token "tru" starts at line 3, column 8 (1-based). */
  g_assert_false (parse_text ("{\n  \"a\": 1,\n  \"b\": tru }", &values, 0, NULL, &error));
  g_assert_error (error, IV_JSON_STREAM_ERROR, IV_JSON_STREAM_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "doc.json: line 3, column "));
  g_test_message ("%s", error->message);
}

static void
test_error_column (void)
{
  int values = 0;
  g_autoptr (GError) error = NULL;

  /* A stray 'x' at line 2 column 4. */
  g_assert_false (parse_text ("[1,\n  2x]", &values, 0, NULL, &error));
  g_assert_nonnull (strstr (error->message, "line 2, column 4:"));
}

static void
test_truncated (void)
{
  int values = 0;
  g_autoptr (GError) error = NULL;

  g_assert_false (parse_text ("[{\"ts\": 1},\n {\"ts\": 2},\n {\"ts\"", &values, 0, NULL, &error));
  g_assert_error (error, IV_JSON_STREAM_ERROR, IV_JSON_STREAM_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "ends early"));
  g_assert_cmpint (values, ==, 2);
}

static void
test_multiple_values (void)
{
  int values = 0;
  g_autoptr (GError) error = NULL;

  g_assert_false (parse_text ("{\"a\": 1}\n{\"a\": 2}\n", &values, 0, NULL, &error));
  g_clear_error (&error);
  values = 0;
  g_assert_true (parse_text ("{\"a\": 1}\n{\"a\": 2}\n", &values, IV_JSON_STREAM_MULTIPLE_VALUES,
                             NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (values, ==, 2);
}

static void
test_client_stop (void)
{
  const yajl_callbacks stopping
      = { .yajl_string = stop_at_string, .yajl_start_map = ok_map, .yajl_map_key = ok_key };
  g_autoptr (GBytes) bytes = g_bytes_new_static ("{\"a\": \"stop here\", \"b\": [", 26);
  g_autoptr (IvInput) in = iv_input_new_from_bytes (bytes, "doc.json", NULL);
  IvJsonStreamStats stats;
  g_autoptr (GError) error = NULL;

  /* Stopping early is success even though the text is incomplete. */
  g_assert_true (iv_json_stream_parse (in, &stopping, NULL, 0, NULL, NULL, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_true (stats.stopped);
}

static void
on_progress (guint64 done, guint64 total, gpointer data)
{
  GArray *calls = data;
  g_assert_cmpuint (done, <=, total);
  g_array_append_val (calls, done);
}

static void
test_progress_and_cancel (void)
{
  GString *s = g_string_new ("[");
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (IvInput) in = NULL;
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  int values = 0;

  for (int i = 0; i < 200000; i++)
    g_string_append_printf (s, "%s%d", i ? "," : "", i);
  g_string_append (s, "]");
  bytes = g_string_free_to_bytes (s);
  in = iv_input_new_from_bytes (bytes, "big.json", NULL);
  g_assert_true (
      iv_json_stream_parse (in, &counting, &values, 0, on_progress, calls, NULL, NULL, &error));
  g_assert_cmpint (values, ==, 200000);
  g_assert_cmpuint (calls->len, >=, 2);
  g_assert_cmpuint (g_array_index (calls, guint64, calls->len - 1), ==, g_bytes_get_size (bytes));

  g_clear_pointer (&in, iv_input_free);
  in = iv_input_new_from_bytes (bytes, "big.json", NULL);
  g_cancellable_cancel (cancel);
  g_assert_false (
      iv_json_stream_parse (in, &counting, &values, 0, NULL, NULL, cancel, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-stream/valid", test_valid);
  g_test_add_func ("/json-stream/syntax-error-position", test_syntax_error_position);
  g_test_add_func ("/json-stream/error-column", test_error_column);
  g_test_add_func ("/json-stream/truncated", test_truncated);
  g_test_add_func ("/json-stream/multiple-values", test_multiple_values);
  g_test_add_func ("/json-stream/client-stop", test_client_stop);
  g_test_add_func ("/json-stream/progress-and-cancel", test_progress_and_cancel);
  return g_test_run ();
}
