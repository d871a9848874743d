/* test-cli.c: the command line, run as a user runs it: exit statuses, messages, JSON. */
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

typedef struct
{
  int status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}

static Result
run (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  Result r = { 0 };
  int wait_status;
  va_list ap;

  g_ptr_array_add (argv, (gpointer) g_getenv ("IV_BINARY"));
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

static char *
sample (const char *rel)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", rel, NULL);
}

static void
test_version_and_help (void)
{
  Result r = run ("--version", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "inferview "));
  g_assert_nonnull (strstr (r.out, PACKAGE_VERSION));
  result_clear (&r);

  r = run ("--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "inferview identify PATH"));
  result_clear (&r);
}

static void
test_identify_json (void)
{
  g_autofree char *runs = sample ("aiperf");
  g_autofree char *trace = sample ("traces/kineto_a100_simple_add.json.gz");
  Result r = run ("identify", "--json", runs, trace, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *items;
  JsonObject *o;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  items = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (items), ==, 2);
  o = json_array_get_object_element (items, 0);
  g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "aiperf-sweep");
  g_assert_cmpint (json_object_get_int_member (o, "events"), ==, 30);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "runs")), ==, 3);
  o = json_array_get_object_element (items, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "chrome-trace");
  g_assert_cmpint (json_object_get_int_member (o, "events"), ==, 1348);
  result_clear (&r);
}

static void
test_bad_input (void)
{
  g_autofree char *trace = sample ("traces/catapult_flow_simple.json");
  Result r = run ("identify", "/nonexistent/trace.json", trace, NULL);

  /* The good path is still reported; the bad one is one line naming it; status 1. */
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "catapult_flow_simple.json: chrome-trace, 10 events"));
  g_assert_nonnull (strstr (r.err, "/nonexistent/trace.json"));
  g_assert_null (strchr (strchr (r.err, '\n') + 1, '\n'));
  result_clear (&r);
}

static void
test_bad_usage (void)
{
  Result r = run ("identify", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "name at least one file or folder"));
  result_clear (&r);

  r = run ("identify", "--frobnicate", "x", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--frobnicate"));
  result_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!g_getenv ("IV_BINARY"))
    return 77;
  g_test_add_func ("/cli/version-and-help", test_version_and_help);
  g_test_add_func ("/cli/identify-json", test_identify_json);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/bad-usage", test_bad_usage);
  return g_test_run ();
}
