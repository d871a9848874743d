/* test-cli.c: the command line, run as a user runs it: exit statuses, messages, JSON. */
#include <errno.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>
#include <zlib.h>

#include "iv-test-util.h"

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

/* In the child: a file-size limit, as a full disk or a quota would impose, or (with
 * the high bit of @data set) an address-space limit, as a small machine would. */
#define MEMORY_LIMIT ((gsize) 1 << 62)

static void
limit_file_size (gpointer data)
{
  gsize v = GPOINTER_TO_SIZE (data);
  struct rlimit lim = { v & ~MEMORY_LIMIT, v & ~MEMORY_LIMIT };
  setrlimit (v & MEMORY_LIMIT ? RLIMIT_AS : RLIMIT_FSIZE, &lim);
}

static Result
run_valist_limited (gsize fsize_limit, const char *first, va_list ap)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  Result r = { 0 };
  int wait_status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("IV_BINARY"));
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                               fsize_limit ? limit_file_size : NULL, GSIZE_TO_POINTER (fsize_limit),
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

static Result
run_valist (const char *first, va_list ap)
{
  return run_valist_limited (0, first, ap);
}

/* `inferview ARGS…` with writes limited to @limit bytes per file. */
static Result
run_limited (gsize limit, const char *first, ...)
{
  Result r;
  va_list ap;

  va_start (ap, first);
  r = run_valist_limited (limit, first, ap);
  va_end (ap);
  return r;
}

/* `inferview ARGS…` (NULL-terminated): its exit status and what it printed. */
static Result
run (const char *first, ...)
{
  Result r;
  va_list ap;

  va_start (ap, first);
  r = run_valist (first, ap);
  va_end (ap);
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

  /* A listing takes no paths: one named is refused, not ignored. */
  r = run ("presets", "Llama-3.1-8B", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "unexpected argument “Llama-3.1-8B”"));
  g_assert_cmpstr (r.out, ==, "");
  result_clear (&r);
}

static void
test_model_json (void)
{
  Result r = run ("model", "--preset", "Llama-3.1-8B", "--hardware", "ring4", "--mode", "decode",
                  "--batch", "8", "--tq", "1", "--context", "4096", "--tp", "4", "--cp", "2",
                  "--tp-place", "pe", "--cp-place", "cube", "--pe-mem-capacity", "64GiB",
                  "--format", "json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o, *kind, *s1;
  JsonArray *stages;
  static const char *const top[]
      = { "model",  "hardware", "config", "layer_kinds", "lm_head_s", "step_s", "tokens_per_s",
          "memory", "idle",     "waste",  "hints",       "glossary",  NULL };
  static const char *const stage_keys[]
      = { "id",       "name", "flops",     "bytes", "comm_bytes", "t_compute_s", "t_memory_s",
          "t_comm_s", "t_s",  "visible_s", "bound", "formula",    NULL };

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  for (guint i = 0; top[i]; i++)
    g_assert_true (json_object_has_member (o, top[i]));
  g_assert_cmpstr (
      json_object_get_string_member (json_object_get_object_member (o, "model"), "name"), ==,
      "Llama-3.1-8B");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "config"), "cp"),
                   ==, 2);
  g_assert_cmpstr (
      json_object_get_string_member (json_object_get_object_member (o, "config"), "cp_place"), ==,
      "cube");
  /* The override reached the model: 64 GiB per PE. */
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (o, "memory"),
                                                    "capacity_bytes_per_pe"),
                     ==, 64.0 * 1073741824);
  kind = json_array_get_object_element (json_object_get_array_member (o, "layer_kinds"), 0);
  g_assert_cmpint (json_object_get_int_member (kind, "layers"), ==, 32);
  stages = json_object_get_array_member (kind, "stages");
  s1 = json_array_get_object_element (stages, 0);
  for (guint i = 0; stage_keys[i]; i++)
    g_assert_true (json_object_has_member (s1, stage_keys[i]));
  g_assert_cmpstr (json_object_get_string_member (s1, "id"), ==, "S1");
  /* S1 = 4·B·T_l·d = 4·8·1·4096 = 131,072 FLOPs. */
  g_assert_cmpfloat (json_object_get_double_member (s1, "flops"), ==, 131072);
  result_clear (&r);
}

/* yajl is strict and independent of the writer: "1e-10.0", NaN or a bare Infinity fail. */
static void
assert_strict_json (const char *text, const char *what)
{
  char err[256];
  yajl_val v = yajl_tree_parse (text, err, sizeof err);

  if (!v)
    g_error ("%s: invalid JSON: %s", what, err);
  yajl_tree_free (v);
}

/* --format json for every preset, in the configurations json-glib's generator broke on
 * (~4 % of ordinary ones: tiny latencies printed "6e-10.0"), and presets/hardware --json. */
static void
test_model_json_valid (void)
{
  static const char *const shapes[][8] = {
    { "--mode", "decode", "--tp", "3", "--batch", "3", "--context", "100000" },
    { "--mode", "prefill", "--tp", "4", "--cp", "2", "--tq", "8192" },
  };
  Result list = run ("presets", "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *presets;

  g_assert_cmpint (list.status, ==, 0);
  assert_strict_json (list.out, "presets --json");
  g_assert_true (json_parser_load_from_data (parser, list.out, -1, NULL));
  presets = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (presets), ==, 46);
  for (guint i = 0; i < json_array_get_length (presets); i++)
    for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
      {
        const char *name
            = json_object_get_string_member (json_array_get_object_element (presets, i), "name");
        Result r = run ("model", "--preset", name, "--tp-place", "pe", "--format", "json",
                        shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3], shapes[k][4],
                        shapes[k][5], shapes[k][6], shapes[k][7], NULL);
        g_autofree char *what = g_strdup_printf ("model %s (shape %u)", name, k);
        /* some shapes do not fit a preset's SIP: then it is one error line, not JSON */
        if (r.status == 0)
          assert_strict_json (r.out, what);
        else
          g_assert_cmpint (r.status, ==, 1);
        result_clear (&r);
      }
  result_clear (&list);
  list = run ("hardware", "--json", NULL);
  assert_strict_json (list.out, "hardware --json");
  result_clear (&list);
}

static void
test_model_errors (void)
{
  Result r = run ("model", "--preset", "Llama-3.1-8B", "--tp", "32", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, ==,
                   "inferview model: --tp: TP=32 on PEs needs 32 PEs per cube; this SIP has 16\n");
  result_clear (&r);

  /* malformed values exit 2, constraint violations 1; each error names its option */
  {
    static const struct
    {
      const char *a[5];
      int status;
      const char *option;
    } cases[] = {
      { { "--preset", "No-Such-Model" }, 2, "--preset" },
      { { "--cubes", "abc" }, 2, "--cubes" },
      { { "--topology", "hypercube" }, 2, "--topology" },
      { { "--pes-per-cube", "2.5" }, 2, "--pes-per-cube" },
      { { "--tp", "abc" }, 2, "--tp" },
      { { "--eta-compute", "2" }, 1, "--eta-compute" },
      { { "--cubes", "3x3", "--topology", "ring" }, 1, "--cubes" },
      { { "--weight-bytes", "100" }, 1, "--weight-bytes" },
      { { "--cp", "64", "--cp-place", "cube" }, 1, "--cp" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        r = run ("model", cases[i].a[0], cases[i].a[1], cases[i].a[2], cases[i].a[3], NULL);
        g_assert_cmpint (r.status, ==, cases[i].status);
        g_assert_true (g_str_has_prefix (r.err, "inferview model: "));
        g_assert_nonnull (strstr (r.err, cases[i].option));
        result_clear (&r);
      }
  }
  /* the header says the hardware used, overrides and all */
  r = run ("model", "--preset", "Llama-3.1-8B", "--topology", "torus2d", "--cubes", "4x4",
           "--pes-per-cube", "4", "--tp", "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (
      r.out, "Llama-3.1-8B on ring4 + overrides: torus2d, 4×4 cubes, 4 PEs/cube · "));
  result_clear (&r);

  r = run ("model", "--pe-flops", "lots", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--pe-flops"));
  result_clear (&r);

  r = run ("model", "--mode", "train", NULL);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);

  r = run ("model", "--hardware", "/nonexistent/hw.json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/hw.json"));
  result_clear (&r);
}

static void
test_model_hf_config_and_csv (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *model_dir = g_build_filename (dir, "Qwen3-8B", NULL);
  g_autofree char *path = g_build_filename (model_dir, "config.json", NULL);
  Result r;

  g_mkdir (model_dir, 0755);
  g_assert_true (g_file_set_contents (
      path,
      "{\"model_type\": \"qwen3\", \"hidden_size\": 4096, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936}",
      -1, NULL));
  r = run ("model", "--hf-config", path, "--format", "csv", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "kind,layers,id,name,flops"));
  g_assert_nonnull (strstr (r.out, "\ndense,36,S2,\"W_Q\","));
  result_clear (&r);
  /* an FP8 checkpoint (§2.3): its quantization_config makes the weights and activations
   * FP8, one byte each, computing at the FP8 peak; --quant says otherwise when given */
  g_assert_true (g_file_set_contents (
      path,
      "{\"model_type\": \"qwen3\", \"hidden_size\": 4096, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936,"
      " \"quantization_config\": {\"quant_method\": \"fp8\", \"fmt\": \"e4m3\"}}",
      -1, NULL));
  r = run ("model", "--hf-config", path, "--hardware", "h100x8", "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"weight_format\": \"fp8\""));
  g_assert_nonnull (strstr (r.out, "\"peak_flops\": 1.979e+15"));
  result_clear (&r);
  r = run ("model", "--hf-config", path, "--quant", "bf16", "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "\"format\": \"fp8\""));
  result_clear (&r);
  /* a method §2.3 does not know is refused, naming the file and the field */
  g_assert_true (g_file_set_contents (
      path,
      "{\"model_type\": \"qwen3\", \"hidden_size\": 4096, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936,"
      " \"quantization_config\": {\"quant_method\": \"hqq\"}}",
      -1, NULL));
  r = run ("model", "--hf-config", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "quant_method"));
  result_clear (&r);
  g_unlink (path);
  g_rmdir (model_dir);
  g_rmdir (dir);
}

/* --hardware, --tp and the model, read by one parser for `plot`, `runs --predict` and
 * `trace --against`: the same mistake gets the same sentence from each, with its name. */
static void
test_bound_options (void)
{
  g_autofree char *runs
      = g_build_filename (g_getenv ("IV_SAMPLES_DIR"), "aiperf", "qwen_concurrency1", NULL);
  g_autofree char *trace = sample ("traces/catapult_flow_simple.json");
  g_autofree char *out = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (out, "plots", NULL);
  struct
  {
    const char *argv[12];
    const char *said; /* the first line on stderr */
  } cases[] = {
    /* a --tp that is not a whole number of the hardware's GPUs */
    { { "plot", runs, "-o", png, "--hardware", "h100x8", "--tp", "2.5" },
      "inferview plot: --tp: must be a whole number from 1 to the 8 GPUs of h100x8, not “2.5”" },
    { { "runs", runs, "--predict", "--hardware", "h100x8", "--tp", "2.5" },
      "inferview runs: --tp: must be a whole number from 1 to the 8 GPUs of h100x8, not “2.5”" },
    { { "trace", trace, "--stats", "--against", "Llama-3.1-8B", "--hardware", "h100x8", "--tp",
        "2.5" },
      "inferview trace: --tp: must be a whole number from 1 to the 8 GPUs of h100x8, not “2.5”" },
    /* on a SIP the trace's TP is over a cube's PEs, as the model places it */
    { { "trace", trace, "--stats", "--against", "Llama-3.1-8B", "--hardware", "ring4", "--tp",
        "17" },
      "inferview trace: --tp: must be a whole number from 1 to the 16 PEs of a cube of ring4, not "
      "“17”" },
    /* an unknown hardware preset */
    { { "plot", runs, "-o", png, "--hardware", "nope" },
      "inferview plot: --hardware: no hardware preset named “nope” (inferview hardware lists "
      "them)" },
    { { "runs", runs, "--predict", "--hardware", "nope" },
      "inferview runs: --hardware: no hardware preset named “nope” (inferview hardware lists "
      "them)" },
    { { "trace", trace, "--stats", "--against", "Llama-3.1-8B", "--hardware", "nope" },
      "inferview trace: --hardware: no hardware preset named “nope” (inferview hardware lists "
      "them)" },
    /* no hardware for the model */
    { { "runs", runs, "--predict" },
      "inferview runs: --predict needs --hardware NAME (inferview hardware lists them)" },
    { { "trace", trace, "--stats", "--against", "Llama-3.1-8B" },
      "inferview trace: --against needs --hardware NAME (inferview hardware lists them)" },
    /* an option without the one it goes with */
    { { "plot", runs, "-o", png, "--tp", "2" }, "inferview plot: --tp goes with --hardware" },
    { { "runs", runs, "--tp", "2" },
      "inferview runs: --hardware, --tp, --model and --hf-config go with --predict" },
    { { "trace", trace, "--stats", "--hardware", "h100x8" },
      "inferview trace: --hardware and --tp go with --against" },
    /* an unknown model preset */
    { { "runs", runs, "--predict", "--hardware", "h100x8", "--model", "nope" },
      "inferview runs: --model: no preset named “nope” (inferview presets lists them)" },
    { { "trace", trace, "--stats", "--against", "nope", "--hardware", "h100x8" },
      "inferview trace: --against: no preset named “nope” (inferview presets lists them)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const *a = cases[i].argv;
      g_auto (GStrv) lines = NULL;
      Result r = run (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], NULL);
      g_test_message ("%s: %s", a[0], cases[i].said);
      g_assert_cmpint (r.status, ==, 2);
      lines = g_strsplit (r.err, "\n", 2);
      g_assert_cmpstr (lines[0], ==, cases[i].said);
      result_clear (&r);
    }
  /* within the range, the trace's TP on a SIP is the model's */
  {
    Result r = run ("trace", trace, "--stats", "--against", "Llama-3.1-8B", "--hardware", "ring4",
                    "--tp", "16", NULL);
    g_assert_cmpint (r.status, ==, 0);
    result_clear (&r);
  }
  iv_test_remove_tree (out);
}

/* Text from data is printed with its control characters as escapes: an argument in a
 * usage error, an option's text, a model named by its folder. ESC [ 2J would clear the
 * terminal; OSC 52 (ESC ] 52 ; c ; … BEL) would write the clipboard. */
static void
test_text_printable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *model_dir = g_build_filename (dir, "Qwen3-8B\x1b[2J\x1b]52;c;aGk=\x07", NULL);
  g_autofree char *path = g_build_filename (model_dir, "config.json", NULL);
  g_autofree char *trace = sample ("traces/catapult_flow_simple.json");
  Result r;

  r = run ("trace", "--stats", "--against", "x\x1b[2J\x07", "--hardware", "h100x8", trace, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "“x\\e[2J\\x07”"));
  g_assert_null (strchr (r.err, '\x1b'));
  g_assert_null (strchr (r.err, '\x07'));
  result_clear (&r);

  r = run ("model", "--batch", "two\x1b[2J", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "“two\\e[2J”"));
  g_assert_null (strchr (r.err, '\x1b'));
  result_clear (&r);

  g_mkdir (model_dir, 0755);
  g_assert_true (g_file_set_contents (
      path,
      "{\"model_type\": \"qwen3\", \"hidden_size\": 4096, \"num_hidden_layers\": 36,"
      " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128,"
      " \"intermediate_size\": 12288, \"vocab_size\": 151936}",
      -1, NULL));
  r = run ("model", "--hf-config", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Qwen3-8B\\e[2J\\e]52;c;aGk=\\x07 on "));
  g_assert_null (strchr (r.out, '\x1b'));
  g_assert_null (strchr (r.out, '\x07'));
  result_clear (&r);
  g_unlink (path);
  g_rmdir (model_dir);
  g_rmdir (dir);
}

static void
test_presets_and_hardware (void)
{
  Result r = run ("presets", "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *a;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  a = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (a), ==, 46);
  result_clear (&r);
  r = run ("hardware", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  /* three SIPs and four GPU servers */
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (parser))), ==,
                    7);
  result_clear (&r);
  /* a GPU server's groups span its GPUs without being told: TP 8 on h100x8 */
  r = run ("model", "--preset", "Llama-3.1-70B", "--hardware", "h100x8", "--mode", "decode", "--tq",
           "1", "--context", "4096", "--tp", "8", "--batch", "32", NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* described as GPUs: no cube placement, no CP of 1 */
  g_assert_nonnull (strstr (r.out, "on h100x8 · decode · B=32 T_q=1 P=4096 · TP=8\n"));
  g_assert_nonnull (strstr (r.out, "memory per GPU: "));
  g_assert_nonnull (strstr (r.out, "idle: 0 GPUs\n"));
  result_clear (&r);
}

static guint32
be32 (const guchar *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* Runs `inferview ARGS…`, expects success and a PNG of @width × @height (0: any) at @png. */
static void
assert_png_written (const char *png, guint32 width, guint32 height, const char *first, ...)
{
  g_autofree char *data = NULL;
  gsize len;
  Result r;
  va_list ap;

  va_start (ap, first);
  r = run_valist (first, ap);
  va_end (ap);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (png, &data, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  if (width)
    g_assert_cmpuint (be32 ((guchar *) data + 16), ==, width);
  if (height)
    g_assert_cmpuint (be32 ((guchar *) data + 20), ==, height);
}

/* --figure writes the named figure in the format its extension names, at the figure's
 * default size or the one asked for; usage errors and failed evaluations write nothing. */
/* The serving curve (§10) from the command line: the table's points, the JSON a script
 * reads, an AIPerf sweep set against it, the figure, and a folder with no runs refused. */
static void
test_model_serving (void)
{
  g_autofree char *runs = g_build_filename (g_getenv ("IV_SAMPLES_DIR"), "aiperf", NULL);
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "serving.png", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;
  JsonArray *points, *measured;
  guint n_front = 0;
  Result r;

  r = run ("model", "--preset", "Llama-3.1-70B", "--hardware", "h100x8", "--quant", "fp8",
           "--serving", "--isl", "1000", "--osl", "200", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (
      strstr (r.out, "Llama-3.1-70B on h100x8 · serving curve, ISL 1000, OSL 200 · "));
  g_assert_nonnull (strstr (r.out, "does not fit"));
  g_assert_nonnull (strstr (r.out, "frontier"));
  g_assert_nonnull (strstr (r.out, "a bound, not a forecast"));
  result_clear (&r);

  r = run ("model", "--preset", "Qwen3-0.6B", "--hardware", "h100x8", "--serving", "--measured",
           runs, "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  /* the bound for the runs' own mean lengths */
  g_assert_cmpfloat (json_object_get_double_member (o, "isl"), >, 0);
  points = json_object_get_array_member (o, "points");
  g_assert_cmpuint (json_array_get_length (points), >, 20);
  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      JsonObject *p = json_array_get_object_element (points, i);
      gboolean fits = json_object_get_boolean_member (p, "fits");
      if (json_object_get_boolean_member (p, "frontier_per_user"))
        {
          n_front++;
          g_assert_true (fits);
        }
    }
  g_assert_cmpuint (n_front, >, 0);
  measured = json_object_get_array_member (o, "measured");
  g_assert_cmpuint (json_array_get_length (measured), >=, 2);
  for (guint i = 0; i < json_array_get_length (measured); i++)
    {
      JsonObject *m = json_array_get_object_element (measured, i);
      /* a real run stays under the bound: at most 100 % of it */
      g_assert_cmpfloat (json_object_get_double_member (m, "share_of_bound"), >, 0);
      g_assert_cmpfloat (json_object_get_double_member (m, "share_of_bound"), <=, 1);
      g_assert_cmpfloat (json_object_get_double_member (m, "tokens_per_s_per_gpu"), >, 0);
    }
  result_clear (&r);

  assert_png_written (png, 1200, 620, "model", "--preset", "Qwen3-0.6B", "--hardware", "h100x8",
                      "--figure", "serving", "--measured", runs, "-o", png, NULL);

  r = run ("model", "--preset", "Qwen3-0.6B", "--hardware", "h100x8", "--serving", "--measured",
           dir, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "inferview"));
  result_clear (&r);
  r = run ("model", "--preset", "Qwen3-0.6B", "--serving", "--osl", "0", NULL);
  g_assert_cmpint (r.status, !=, 0);
  result_clear (&r);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_model_figure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "pipeline.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "roofline.pdf", NULL);
  g_autofree char *svg = g_build_filename (dir, "stages.svg", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.png", NULL);
  g_autofree char *data = NULL;
  gsize len;
  Result r;

  assert_png_written (png, 1600, 520, "model", "--preset", "Llama-3.1-8B", "--mode", "prefill",
                      "--tq", "8192", "--context", "0", "--tp", "4", "--cp", "4", "--cp-place",
                      "cube", "--figure", "pipeline", "-o", png, NULL);

  /* pages by name: a slide is 1920 × 1080 px, a column 3.5 in at 300 dpi; --width
   * still wins over the page's */
  assert_png_written (png, 1920, 1080, "model", "--figure", "pipeline", "--size", "slide", "-o",
                      png, NULL);
  assert_png_written (png, 1050, 788, "model", "--figure", "stages", "--size", "column", "-o", png,
                      NULL);
  assert_png_written (png, 1500, 1080, "model", "--figure", "stages", "--size", "slide", "--width",
                      "1000", "-o", png, NULL);
  r = run ("model", "--figure", "pipeline", "--size", "poster", "-o", png, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--size is slide, column or double-column"));
  result_clear (&r);
  r = run ("model", "--figure", "pipeline", "--text-size", "200", "-o", png, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--text-size is 4 to 72 points"));
  result_clear (&r);

  r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "roofline", "-o", pdf, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
  g_clear_pointer (&data, g_free);

  r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "stages", "--theme", "print", "--width",
           "900", "--height", "500", "-o", svg, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (svg, &data, &len, NULL));
  g_assert_nonnull (strstr (data, "<svg"));
  /* 900 px at 96 per inch is 675 pt. */
  g_assert_nonnull (strstr (data, "width=\"675pt\""));
  g_clear_pointer (&data, g_free);

  assert_png_written (png, 1100, 0, "model", "--preset", "Llama-3.1-8B", "--hardware", "torus4x4",
                      "--tp", "4", "--tp-place", "cube", "--figure", "topology", "-o", png, NULL);

  r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "sweep", "--sweep", "pp", "-o", bad,
           NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--sweep must be tp, cp, tq or context"));
  result_clear (&r);
  r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "sankey", "-o", bad, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (
      strstr (r.err, "pipeline, stages, memory, roofline, sharding, topology, sweep or serving"));
  /* every figure the refusal names (the registry's, src/render/iv-model-figures.c) is
   * drawn: a figure added there without a way through the command line fails here */
  {
    const char *list = strstr (r.err, "must be ") + strlen ("must be ");
    g_autofree char *line = g_strndup (list, strcspn (list, "\n"));
    g_auto (GStrv) names = g_regex_split_simple ("(?:, | or )", line, 0, 0);
    for (guint i = 0; names[i]; i++)
      assert_png_written (png, 0, 0, "model", "--preset", "Llama-3.1-8B", "--figure", names[i],
                          "-o", png, NULL);
    g_assert_cmpuint (g_strv_length (names), >=, 8);
  }
  result_clear (&r);
  r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "pipeline", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "-o FILE"));
  result_clear (&r);
  r = run ("model", "--preset", "Llama-3.1-8B", "--tp", "32", "--figure", "pipeline", "-o", bad,
           NULL);
  g_assert_cmpint (r.status, ==, 1);
  result_clear (&r);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  g_unlink (png), g_unlink (pdf), g_unlink (svg);
  g_rmdir (dir);
}

/* `trace PIPELINED -o FIGURE`: the pipelined figure at its default size, a candidate window
 * and a breakdown; a candidate that is not there is bad input and writes nothing; --from
 * and --to do not window a pipelined figure. */
static void
test_trace_pipelined_figure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "pipe.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "pipe.svg", NULL);
  g_autofree char *trace = sample ("traces/pipelined_timeline_sample.json");
  g_autofree char *bd = sample ("traces/candidate_breakdown_sample.json");
  g_autofree char *data = NULL;
  gsize len;
  Result r;

  /* the reference's 10 × 3.2 in figure */
  assert_png_written (png, 1440, 460, "trace", trace, "-o", png, NULL);
  /* The SVG holds the breakdown's merged families and the lane names as text. */
  r = run ("trace", trace, "-o", svg, "--start-candidate", "3", "--num-candidates", "2",
           "--breakdown", bd, "--min-runtime-pct", "5", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (svg, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "<?xml"));
  g_clear_pointer (&data, g_free);
  g_unlink (svg);
  /* --pipeline-json: the window of candidate 3 and its bars, every one inside it or cut */
  r = run ("trace", trace, "--pipeline-json", "--start-candidate", "3", NULL);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *o, *w;
    JsonArray *bars;
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (o, "start_candidate"), ==, 3);
    w = json_object_get_object_member (o, "window");
    bars = json_object_get_array_member (o, "bars");
    g_assert_cmpuint (json_array_get_length (bars), >, 8);
    for (guint i = 0; i < json_array_get_length (bars); i++)
      {
        JsonObject *b = json_array_get_object_element (bars, i);
        g_assert_cmpfloat (json_object_get_double_member (b, "end_ms"), >=,
                           json_object_get_double_member (w, "start_ms"));
        g_assert_cmpfloat (json_object_get_double_member (b, "start_ms"), <=,
                           json_object_get_double_member (w, "end_ms"));
      }
  }
  result_clear (&r);
  r = run ("trace", trace, "-o", svg, "--start-candidate", "42", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "no events to draw for start candidate 42"));
  g_assert_nonnull (strstr (r.err, "candidates 0–9"));
  result_clear (&r);
  g_assert_false (g_file_test (svg, G_FILE_TEST_EXISTS));
  r = run ("trace", trace, "-o", svg, "--num-candidates", "2.5", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--num-candidates"));
  result_clear (&r);
  r = run ("trace", trace, "-o", svg, "--from", "1", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--start-candidate"));
  result_clear (&r);
  r = run ("trace", trace, "-o", svg, "--breakdown", trace, NULL);
  g_assert_cmpint (r.status, ==, 1);
  result_clear (&r);
  g_assert_false (g_file_test (svg, G_FILE_TEST_EXISTS));
  g_unlink (png);
  g_rmdir (dir);
}

/* `trace FILE -o FIGURE`: the timeline at its default size or a range of it; a range that
 * ends before it starts, or nothing to do, is bad usage and writes nothing. */
static void
test_trace_figure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "timeline.pdf", NULL);
  g_autofree char *trace = sample ("traces/kineto_a100_simple_add.json.gz");
  g_autofree char *data = NULL;
  gsize len;
  Result r;

  /* a height asked for is kept; without one the figure is as tall as its rows (this
   * trace's 4 processes and 7 tracks need far less than 900 px, and at least 300 px) */
  assert_png_written (png, 1600, 900, "trace", trace, "-o", png, "--height", "900", NULL);
  assert_png_written (png, 1600, 0, "trace", trace, "-o", png, NULL);
  {
    g_autofree char *head = NULL;
    gsize n;
    g_assert_true (g_file_get_contents (png, &head, &n, NULL));
    g_assert_cmpuint (be32 ((guchar *) head + 20), <, 900);
    g_assert_cmpuint (be32 ((guchar *) head + 20), >=, 300);
  }
  /* --threads keeps the tracks it names: one GPU stream needs less height than the whole
   * trace (the height fits the content), and naming nothing is a usage error */
  {
    g_autofree char *head = NULL;
    gsize n;
    guint32 all_h;
    g_assert_true (g_file_get_contents (png, &head, &n, NULL));
    all_h = be32 ((guchar *) head + 20);
    g_clear_pointer (&head, g_free);
    assert_png_written (png, 1600, 0, "trace", trace, "-o", png, "--threads", "stream 7", NULL);
    g_assert_true (g_file_get_contents (png, &head, &n, NULL));
    g_assert_cmpuint (be32 ((guchar *) head + 20), <, all_h);
  }
  r = run ("trace", trace, "-o", png, "--threads", "no-such-thread", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--threads"));
  result_clear (&r);
  /* --processes naming nothing in the trace is a usage error */
  r = run ("trace", trace, "-o", png, "--processes", "no-such-process", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--processes"));
  result_clear (&r);
  r = run ("trace", trace, "-o", pdf, "--processes", "python,GPU", "--flows", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  r = run ("trace", trace, "-o", pdf, "--from", "41300", "--to", "41500", "--theme", "print", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
  g_unlink (pdf);
  r = run ("trace", trace, "-o", pdf, "--from", "5", "--to", "2", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--to must be after --from"));
  result_clear (&r);
  g_assert_false (g_file_test (pdf, G_FILE_TEST_EXISTS));
  r = run ("trace", trace, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--stats, --pipeline-json or -o FIGURE"));
  result_clear (&r);
  g_unlink (png);
  g_rmdir (dir);
}

/* `runs PATH --json`: the bundled sweep's three runs with their configuration and a
 * metric's statistics from the requests (checked against the JSONL in test-runs). */
static void
test_runs_json (void)
{
  g_autofree char *dir = sample ("aiperf");
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *root, *last, *ttft;
  JsonArray *runs;
  Result r = run ("runs", dir, "--json", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p, r.out, -1, NULL));
  root = json_node_get_object (json_parser_get_root (p));
  runs = json_object_get_array_member (root, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 3);
  g_assert_cmpstr (
      json_array_get_string_element (json_object_get_array_member (root, "varying"), 0), ==,
      "concurrency");
  last = json_array_get_object_element (runs, 2);
  g_assert_cmpfloat (
      json_object_get_double_member (json_object_get_object_member (last, "config"), "concurrency"),
      ==, 4);
  g_assert_cmpint (json_object_get_int_member (last, "requests"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (last, "errors"), ==, 0);
  ttft = json_object_get_object_member (json_object_get_object_member (last, "metrics"),
                                        "time_to_first_token");
  g_assert_cmpstr (json_object_get_string_member (ttft, "unit"), ==, "ms");
  /* 10 records, 64 requests in AIPerf's summary: the statistics are the summary's
   * (profile_export_aiperf.json of qwen_concurrency4), and the notes say why */
  g_assert_cmpint (json_object_get_int_member (last, "records_present"), ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (last, "request_count"), ==, 64);
  g_assert_cmpstr (json_object_get_string_member (ttft, "source"), ==, "summary");
  g_assert_true (json_object_has_member (ttft, "p99"));
  g_assert_true (json_object_has_member (ttft, "p1") && json_object_has_member (ttft, "p5")
                 && json_object_has_member (ttft, "p10") && json_object_has_member (ttft, "p25")
                 && json_object_has_member (ttft, "p75"));
  g_assert_nonnull (
      strstr (json_array_get_string_element (json_object_get_array_member (last, "notes"), 0),
              "10 of 64 requests have per-request records"));
  {
    /* the server's metrics among the run's, from AIPerf's aggregate of them
     * (server_metrics_export.json of qwen_concurrency4: vllm:num_requests_running avg) */
    JsonObject *kv = json_object_get_object_member (json_object_get_object_member (last, "metrics"),
                                                    "server_requests_running");
    g_assert_nonnull (kv);
    g_assert_cmpstr (json_object_get_string_member (kv, "source"), ==, "server_aggregate");
    g_assert_cmpstr (json_object_get_string_member (kv, "unit"), ==, "requests");
    g_assert_cmpfloat (json_object_get_double_member (kv, "max"), ==, 4);
  }
  result_clear (&r);
  /* the GPU count: by UUID, with AIPerf's beside it; --gpus sets it, and must be whole */
  g_assert_cmpint (json_object_get_int_member (last, "gpu_count"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (last, "gpu_count_aiperf"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (last, "gpu_count_source"), ==, "telemetry");
  r = run ("runs", dir, "--gpus", "0.5", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--gpus"));
  result_clear (&r);
  r = run ("runs", "/nonexistent/folder", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/folder"));
  result_clear (&r);
}

/* `plot`: every default plot of the mode, named as aiperf names them, and summary.txt
 * saying why the others were skipped; a bad --format writes nothing. */

/* A write that fails (here: a 20 kB file-size limit) is exit status 1 with the file and
 * the reason, the previous file intact, no temporary left; plot fails if any plot does;
 * -o naming the wrong kind of thing says so. */
static void
test_write_failures (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *fig = g_build_filename (dir, "pipeline.pdf", NULL);
  g_autofree char *plots = g_build_filename (dir, "plots", NULL);
  g_autofree char *one = sample ("aiperf/qwen_concurrency1");
  g_autofree char *trace = sample ("traces/catapult_flow_simple.json");
  g_autofree char *contents = NULL;
  Result r;

  g_assert_true (g_file_set_contents (fig, "the previous figure", -1, NULL));
  r = run_limited (20000, "model", "--preset", "Llama-3.1-8B", "--figure", "pipeline", "-o", fig,
                   NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "pipeline.pdf"));
  g_assert_nonnull (strstr (r.err, g_strerror (EFBIG)));
  g_assert_true (g_file_get_contents (fig, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "the previous figure");
  g_assert_cmpuint (iv_test_count_hidden (dir), ==, 0);
  result_clear (&r);

  r = run_limited (20000, "plot", one, "-o", plots, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "could not be written"));
  g_assert_cmpuint (iv_test_count_hidden (plots), ==, 0);
  result_clear (&r);

  r = run ("plot", one, "-o", fig, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "pipeline.pdf: is a file; -o names the folder"));
  result_clear (&r);

  r = run ("trace", trace, "-o", dir, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "is a folder; -o names the figure file to write"));
  result_clear (&r);

  /* a FIFO (or a device) is never replaced by a figure */
  {
    g_autofree char *pipe = g_build_filename (dir, "pipe.pdf", NULL);
    g_assert_cmpint (mkfifo (pipe, 0600), ==, 0);
    r = run ("model", "--preset", "Llama-3.1-8B", "--figure", "pipeline", "-o", pipe, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "pipe.pdf: exists and is not a regular file"));
    result_clear (&r);
  }
  iv_test_remove_tree (dir);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* A trace larger than the memory allowed: one error naming the file and how far it got,
 * exit status 1, not GLib's abort. (Sanitizers reserve terabytes of address space, so
 * the limit cannot be tried under them.) */
static void
test_out_of_memory (void)
{
#ifdef UNDER_SANITIZER
  g_test_skip ("an address-space limit cannot be combined with a sanitizer");
#else
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.json.gz", NULL);
  gzFile gz = gzopen (path, "wb1");
  Result r;

  g_assert_nonnull (gz);
  gzputs (gz, "[");
  for (guint i = 0; i < 1500000; i++)
    gzprintf (gz, "{\"ph\":\"X\",\"name\":\"k%u\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":1},",
              i % 50, i % 4, i * 2);
  gzputs (gz, "{}]");
  g_assert_cmpint (gzclose (gz), ==, Z_OK);

  r = run_limited (MEMORY_LIMIT | (120u << 20), "trace", path, "--stats", NULL);
  g_assert_cmpint (r.status, ==, 1);
  /* the load fails alone, saying what it could not hold (names and events read so far) */
  g_assert_nonnull (strstr (r.err, "big.json.gz: not enough memory to load "));
  g_assert_null (strstr (r.err, "GLib-ERROR"));
  result_clear (&r);
  /* and with room enough it loads */
  r = run ("trace", path, "--stats", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "1500000"));
  result_clear (&r);
  iv_test_remove_tree (dir);
#endif
}

static void
test_plot (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *multi = g_build_filename (dir, "multi", NULL);
  g_autofree char *single = g_build_filename (dir, "single", NULL);
  g_autofree char *sweep = sample ("aiperf");
  g_autofree char *one = sample ("aiperf/qwen_concurrency1");
  g_autofree char *summary = NULL;
  g_autofree char *path = NULL;
  Result r;

  path = g_build_filename (multi, "pareto_curve_throughput_per_gpu_vs_latency.png", NULL);
  assert_png_written (path, 2400, 1280, "plot", sweep, "-o", multi, NULL);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (multi, "summary.txt", NULL);
  g_assert_true (g_file_get_contents (path, &summary, NULL, NULL));
  g_assert_nonnull (strstr (summary, "multi-run mode, 3 run(s)"));
  g_assert_nonnull (strstr (summary, "ttft_vs_throughput: ttft_vs_throughput.png"));
  g_assert_nonnull (
      strstr (summary, "latency_throughput_uncertainty: skipped, no repeated trials"));
  g_clear_pointer (&summary, g_free);
  g_clear_pointer (&path, g_free);

  r = run ("plot", one, "-o", single, "--format", "svg", "--theme", "dark", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  path = g_build_filename (single, "summary.txt", NULL);
  g_assert_true (g_file_get_contents (path, &summary, NULL, NULL));
  g_assert_nonnull (strstr (summary, "single-run mode"));
  g_assert_nonnull (strstr (summary, "ttft_over_time: ttft_over_time.svg"));
  g_assert_nonnull (strstr (summary, "ttft_timeline: ttft_timeline.svg"));
  g_assert_nonnull (strstr (
      summary,
      "gpu_utilization_and_throughput_over_time: gpu_utilization_and_throughput_over_time.svg"));
  g_assert_nonnull (strstr (summary, "timeslices_ttft: skipped, no time slices"));
  g_clear_pointer (&path, g_free);
  path = g_build_filename (single, "ttft_over_time.svg", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  r = run ("plot", one, "-o", dir, "--format", "gif", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--format is png, pdf or svg"));
  result_clear (&r);

  /* a configuration whose defaults name nothing is an error, never "0 plots" */
  {
    g_autofree char *cfg = g_build_filename (dir, "none.yaml", NULL);
    g_autofree char *out = g_build_filename (dir, "none", NULL);
    g_assert_true (
        g_file_set_contents (cfg, "visualization:\n  single_run_defaults: []\n", -1, NULL));
    r = run ("plot", one, "-o", out, "--config", cfg, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "none.yaml: no single-run plot to draw"));
    result_clear (&r);
  }

  /* Every plot the window draws, from the command line: --plot names presets (Inferview's
   * own too), --plot all draws each, --list names them with the defaults marked. */
  {
    g_autofree char *chosen = g_build_filename (dir, "chosen", NULL);
    g_autofree char *every = g_build_filename (dir, "every", NULL);
    g_autofree char *cdf = g_build_filename (chosen, "ttft_cdf.png", NULL);
    g_autofree char *boxes = g_build_filename (every, "ttft_per_run.png", NULL);
    g_autofree char *pareto
        = g_build_filename (every, "pareto_curve_throughput_per_gpu_vs_latency.png", NULL);
    g_autofree char *not_default = g_build_filename (chosen, "ttft_over_time.png", NULL);

    r = run ("plot", one, "-o", chosen, "--plot", "ttft_cdf", "--plot", "gpu_power", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "gpu_power: gpu_power.png"));
    g_assert_nonnull (strstr (r.out, "2 plot(s)"));
    result_clear (&r);
    g_assert_true (g_file_test (cdf, G_FILE_TEST_IS_REGULAR));
    g_assert_false (g_file_test (not_default, G_FILE_TEST_EXISTS));

    r = run ("plot", sweep, "-o", every, "--plot", "all", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "itl_vs_concurrency: itl_vs_concurrency.png"));
    g_assert_nonnull (strstr (r.out, "9 plot(s)")); /* 10 presets, the uncertainty one skipped */
    g_assert_nonnull (strstr (r.out, "kv_cache_vs_concurrency: kv_cache_vs_concurrency.png"));
    result_clear (&r);
    g_assert_true (g_file_test (boxes, G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_file_test (pareto, G_FILE_TEST_IS_REGULAR));

    r = run ("plot", sweep, "--list", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "* ttft_vs_throughput"));
    g_assert_nonnull (strstr (r.out, "+ latency_per_run"));
    g_assert_null (strstr (r.out, "gpu_power")); /* a single-run preset */
    result_clear (&r);

    r = run ("plot", sweep, "-o", every, "--plot", "gpu_power", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "no multi-run preset “gpu_power”"));
    result_clear (&r);
  }
  iv_test_remove_tree (dir);
}

/* The lines of @text that begin with @prefix, without it. */
static GPtrArray *
lines_after (const char *text, const char *prefix)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], prefix))
      g_ptr_array_add (out, g_strdup (lines[i] + strlen (prefix)));
  return out;
}

/* The RGB of every pixel of an 8-bit RGB or RGBA PNG (cairo's), rows unfiltered; NULL when
 * it is not one. */
static guint8 *
png_pixels (const char *path, guint32 *width, guint32 *height)
{
  g_autofree char *data = NULL;
  g_autoptr (GByteArray) idat = g_byte_array_new ();
  g_autofree guint8 *raw = NULL, *rgb = NULL;
  guint32 w = 0, h = 0, channels = 0;
  gsize len, stride;
  z_stream z = { 0 };

  if (!g_file_get_contents (path, &data, &len, NULL) || len < 33
      || memcmp (data, "\x89PNG\r\n\x1a\n", 8) != 0)
    return NULL;
  for (gsize at = 8; at + 12 <= len;)
    {
      guint32 n = be32 ((guchar *) data + at);
      const char *type = data + at + 4;
      if (at + 12 + (gsize) n > len)
        return NULL;
      if (memcmp (type, "IHDR", 4) == 0)
        {
          w = be32 ((guchar *) data + at + 8), h = be32 ((guchar *) data + at + 12);
          if (data[at + 16] != 8 || (data[at + 17] != 2 && data[at + 17] != 6))
            return NULL;
          channels = data[at + 17] == 6 ? 4 : 3;
        }
      else if (memcmp (type, "IDAT", 4) == 0)
        g_byte_array_append (idat, (guint8 *) data + at + 8, n);
      at += 12 + (gsize) n;
    }
  if (!channels || !w || !h)
    return NULL;
  stride = (gsize) w * channels;
  raw = g_malloc ((stride + 1) * h);
  g_assert_cmpint (inflateInit (&z), ==, Z_OK);
  z.next_in = idat->data, z.avail_in = idat->len;
  z.next_out = raw, z.avail_out = (uInt) ((stride + 1) * h);
  g_assert_cmpint (inflate (&z, Z_FINISH), ==, Z_STREAM_END);
  inflateEnd (&z);
  rgb = g_malloc ((gsize) w * h * 3);
  for (guint32 y = 0; y < h; y++)
    {
      guint8 *row = raw + y * (stride + 1) + 1, filter = row[-1];
      const guint8 *up = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
      for (gsize i = 0; i < stride; i++)
        {
          int a = i >= channels ? row[i - channels] : 0, b = up ? up[i] : 0;
          int c = up && i >= channels ? up[i - channels] : 0, p = a + b - c;
          int pa = ABS (p - a), pb = ABS (p - b), pc = ABS (p - c);
          row[i] += filter == 1   ? a
                    : filter == 2 ? b
                    : filter == 3 ? (a + b) / 2
                    : filter == 4 ? (pa <= pb && pa <= pc ? a
                                     : pb <= pc           ? b
                                                          : c)
                                  : 0;
        }
      for (guint32 x = 0; x < w; x++)
        memcpy (rgb + ((gsize) y * w + x) * 3, row + (gsize) x * channels, 3);
    }
  *width = w, *height = h;
  return g_steal_pointer (&rgb);
}

/* The measured run of @measured (a figure's "measured" array) labelled @run. */
static JsonObject *
measured_run (JsonArray *measured, const char *run)
{
  for (guint i = 0; i < json_array_get_length (measured); i++)
    {
      JsonObject *m = json_array_get_object_element (measured, i);
      if (g_str_equal (json_object_get_string_member (m, "run"), run))
        return m;
    }
  g_assert_not_reached ();
}

/* `plot --hardware`: the measured runs over the serving curve's bound frontier
 * (docs/model.md §10), from the function `model --serving --measured` uses. */
static void
test_plot_serving (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "plots", NULL);
  g_autofree char *png = g_build_filename (out, "serving_bound.png", NULL);
  g_autofree char *summary_path = g_build_filename (out, "summary.txt", NULL);
  g_autofree char *mixed = g_build_filename (dir, "mixed", NULL);
  g_autofree char *sweep = sample ("aiperf");
  g_autofree char *summary = NULL, *text = NULL;
  g_autofree guint8 *rgb = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) model_parser = json_parser_new ();
  JsonObject *plot, *figure, *m, *mm;
  JsonArray *plots, *measured;
  guint32 w = 0, h = 0;
  guint ink = 0, red = 0;
  Result r;

  /* --plot serving_bound alone, TP 2 given so the GPUs are known by hand */
  r = run ("plot", sweep, "--hardware", "h100x8", "--tp", "2", "--plot", "serving_bound", "-o", out,
           "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
  result_clear (&r);
  plots = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "plots");
  g_assert_cmpuint (json_array_get_length (plots), ==, 1);
  plot = json_array_get_object_element (plots, 0);
  g_assert_cmpstr (json_object_get_string_member (plot, "preset"), ==, "serving_bound");
  g_assert_cmpstr (json_object_get_string_member (plot, "file"), ==, "serving_bound.png");
  figure = json_object_get_object_member (plot, "figure");
  g_assert_cmpstr (json_object_get_string_member (figure, "model"), ==, "Qwen3-0.6B");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (figure, "bound_frontier")),
                    >, 1);
  measured = json_object_get_array_member (figure, "measured");
  g_assert_cmpuint (json_array_get_length (measured), ==, 3);
  /* by hand from qwen_concurrency1/profile_export_aiperf.json (iv-serving-measured.c):
   * per GPU = output_token_throughput.avg 50.08213863971112 tokens/s over TP 2 × EP 1;
   * per user = AIPerf's output_token_throughput_per_user.avg 54.96763210350922 (1000 /
   * inter_token_latency.avg only when absent); TTFT = time_to_first_token.avg
   * 30.814987671875 ms */
  m = measured_run (measured, "concurrency 1");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (m, "tokens_per_s_per_gpu"),
                                  50.08213863971112 / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (m, "tokens_per_s_per_user"),
                                  54.96763210350922, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (m, "ttft_s"), 0.030814987671875,
                                  1e-12);
  g_assert_cmpfloat (json_object_get_double_member (m, "share_of_bound"), >, 0);
  g_assert_cmpfloat (json_object_get_double_member (m, "share_of_bound"), <=, 1);

  /* the same points as `model --serving --measured` draws */
  r = run ("model", "--preset", "Qwen3-0.6B", "--hardware", "h100x8", "--tp", "2", "--serving",
           "--measured", sweep, "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (model_parser, r.out, -1, NULL));
  result_clear (&r);
  mm = measured_run (json_object_get_array_member (
                         json_node_get_object (json_parser_get_root (model_parser)), "measured"),
                     "concurrency 1");
  g_assert_cmpfloat (json_object_get_double_member (mm, "tokens_per_s_per_gpu"), ==,
                     json_object_get_double_member (m, "tokens_per_s_per_gpu"));
  g_assert_cmpfloat (json_object_get_double_member (mm, "tokens_per_s_per_user"), ==,
                     json_object_get_double_member (m, "tokens_per_s_per_user"));

  /* the figure: a PNG with ink, and the measured squares in their red (0xc62828) */
  g_assert_nonnull ((rgb = png_pixels (png, &w, &h)));
  g_assert_cmpuint (w, ==, 2400);
  g_assert_cmpuint (h, ==, 1280);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      const guint8 *p = rgb + i * 3;
      ink += p[0] < 128 && p[1] < 128 && p[2] < 128;
      red += p[0] > 170 && p[1] < 70 && p[2] < 70;
    }
  g_assert_cmpuint (ink, >, 5000);
  g_assert_cmpuint (red, >, 500);
  g_assert_true (g_file_get_contents (summary_path, &summary, NULL, NULL));
  g_assert_nonnull (strstr (summary, "serving_bound: serving_bound.png\n"));
  g_clear_pointer (&summary, g_free);
  g_unlink (png);

  /* by default with --hardware, beside the presets; not without it */
  r = run ("plot", sweep, "--hardware", "h100x8", "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "serving_bound: serving_bound.png"));
  result_clear (&r);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_unlink (png);
  r = run ("plot", sweep, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "serving_bound"));
  result_clear (&r);
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  r = run ("plot", sweep, "--plot", "serving_bound", "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "serving_bound needs --hardware NAME"));
  result_clear (&r);

  /* a run whose model matches no preset is left out, said on stderr and in summary.txt */
  {
    g_autofree char *a = g_build_filename (mixed, "a", NULL);
    g_autofree char *b = g_build_filename (mixed, "b", NULL);
    g_autofree char *src = sample ("aiperf/qwen_concurrency1/profile_export_aiperf.json");
    g_autofree char *pa = g_build_filename (a, "profile_export_aiperf.json", NULL);
    g_autofree char *pb = g_build_filename (b, "profile_export_aiperf.json", NULL);
    g_autoptr (GString) other = NULL;
    const char *said = "Mystery/Unknown-1B left out: the run's model “Mystery/Unknown-1B” "
                       "matches no preset";
    g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
    g_assert_cmpint (g_mkdir_with_parents (a, 0755), ==, 0);
    g_assert_cmpint (g_mkdir_with_parents (b, 0755), ==, 0);
    g_assert_true (g_file_set_contents (pa, text, -1, NULL));
    other = g_string_new (text);
    g_assert_cmpuint (g_string_replace (other, "Qwen/Qwen3-0.6B", "Mystery/Unknown-1B", 0), >, 0);
    g_assert_true (g_file_set_contents (pb, other->str, -1, NULL));
    r = run ("plot", mixed, "--hardware", "h100x8", "--plot", "serving_bound", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "inferview plot: serving_bound: "));
    g_assert_nonnull (strstr (r.err, said));
    result_clear (&r);
    g_assert_true (g_file_get_contents (summary_path, &summary, NULL, NULL));
    g_assert_nonnull (strstr (summary, "serving_bound: serving_bound.png\n  note: "));
    g_assert_nonnull (strstr (summary, said));
    g_unlink (pa), g_unlink (pb), g_rmdir (a), g_rmdir (b), g_rmdir (mixed);
  }
  iv_test_remove_tree (out);
  g_rmdir (dir);
}

/* `plot`'s notes (summary.txt and stderr) are the ones `inferview runs`, the window and
 * report.html say, composed once: a note every run of the sweep shares is said once, of
 * "every run". */
static void
test_plot_notes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *sweep = sample ("aiperf");
  g_autofree char *summary_path = g_build_filename (dir, "summary.txt", NULL);
  g_autofree char *summary = NULL;
  g_autoptr (GPtrArray) runs_notes = NULL, plot_notes = NULL, plot_said = NULL;
  Result r = run ("runs", sweep, NULL);

  g_assert_cmpint (r.status, ==, 0);
  runs_notes = lines_after (r.err, "inferview runs: ");
  /* the window's table: what every run shares once above it, the runs by what varies */
  g_assert_nonnull (strstr (r.out, "\nModel: Qwen/Qwen3-0.6B · "));
  g_assert_nonnull (strstr (r.out, "\nconcurrency 4 "));
  result_clear (&r);
  r = run ("plot", sweep, "-o", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  plot_said = lines_after (r.err, "inferview plot: ");
  result_clear (&r);
  g_assert_true (g_file_get_contents (summary_path, &summary, NULL, NULL));
  plot_notes = lines_after (summary, "note: ");
  g_assert_cmpuint (runs_notes->len, >=, 2);
  g_assert_cmpuint (plot_notes->len, ==, runs_notes->len);
  for (guint i = 0; i < runs_notes->len; i++)
    {
      g_assert_cmpstr (plot_notes->pdata[i], ==, runs_notes->pdata[i]);
      g_assert_true (
          g_ptr_array_find_with_equal_func (plot_said, runs_notes->pdata[i], g_str_equal, NULL));
    }
  /* the sample's runs share their records note */
  g_assert_true (g_str_has_prefix (plot_notes->pdata[0], "every run: "));
  iv_test_remove_tree (dir);
}

/* `plot --watch`: a run written line by line while the command follows it; summary.txt
 * counts exactly what was written, a half-written line waits, the command ends when the
 * summary appears. */
static gboolean
file_says (const char *path, const char *text, guint seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  do
    {
      g_autofree char *got = NULL;
      if (g_file_get_contents (path, &got, NULL, NULL) && strstr (got, text))
        return TRUE;
      g_usleep (50000);
    }
  while (g_get_monotonic_time () < until);
  return FALSE;
}

/* How long a --watch step may take: the command reads twice a second, but under a
 * sanitizer on a busy machine it is many times slower. A wait ends as soon as the text is
 * there, so this costs time only when the test fails. */
#define WATCH_WAIT_S 120

/* The --watch command being followed by the test. */
typedef struct
{
  GPid pid;
  gboolean ended; /* reaped: @status is its wait status */
  int status;
} Watched;

/* file_says while the command runs, but FALSE at once when it has ended without the text
 * (a crash, a sanitizer's report), with its status said, instead of after the wait. */
static gboolean
watch_says (Watched *w, const char *path, const char *text)
{
  gint64 until = g_get_monotonic_time () + (gint64) WATCH_WAIT_S * G_USEC_PER_SEC;

  while (!file_says (path, text, 0))
    {
      if (!w->ended && waitpid (w->pid, &w->status, WNOHANG) == w->pid)
        w->ended = TRUE;
      if (w->ended)
        {
          /* what it wrote last may have landed after the look above */
          if (file_says (path, text, 0))
            return TRUE;
          g_test_message ("plot --watch ended (wait status %d) before %s said \"%s\"", w->status,
                          path, text);
          return FALSE;
        }
      /* file_says has waited a little */
      if (g_get_monotonic_time () > until)
        return FALSE;
    }
  return TRUE;
}

static void
append_text (const char *path, const char *text, gssize len)
{
  FILE *f = fopen (path, "a");
  g_assert_nonnull (f);
  fwrite (text, 1, len < 0 ? strlen (text) : (gsize) len, f);
  fclose (f);
}

/* `inferview ARGS…` run in the folder @cwd. */
static Result
run_in (const char *cwd, const char *first, ...)
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
  g_assert_true (g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &r.out, &r.err, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  return r;
}

/* aiperf's habits (aiperf/plot/cli_runner.py, plot_controller.py, logging.py): the runs
 * default to ./artifacts and go with --paths too; the figures are <preset>.png beside
 * summary.txt and aiperf_plot.log ("DATE - NAME - LEVEL - message"); --verbose says each
 * step; a statistic that is none is an error with difflib's guesses (exit 1); each figure
 * says where it differs from aiperf plot, and --aiperf-compatible draws aiperf's numbers
 * (--json: the points). */
static void
test_plot_aiperf (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *artifacts = g_build_filename (dir, "artifacts", NULL);
  g_autofree char *src = g_build_filename (g_getenv ("IV_TEST_DATA"), "aiperf", NULL);
  g_autofree char *one = g_build_filename (src, "qwen_concurrency1", NULL);
  g_autofree char *two = g_build_filename (src, "qwen_concurrency2", NULL);
  g_autofree char *log = NULL, *summary = NULL, *path = NULL;
  Result r;

  /* nothing named and no ./artifacts: said */
  r = run_in (dir, "plot", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "no ./artifacts here"));
  result_clear (&r);
  /* ./artifacts: the run there, its plots in ./artifacts/plots */
  {
    g_autofree char *cmd = g_strdup_printf ("cp -r '%s' '%s'", one, artifacts);
    g_assert_cmpint (system (cmd), ==, 0);
  }
  r = run_in (dir, "plot", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  path = g_build_filename (artifacts, "plots", "ttft_over_time.png", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&path, g_free);
  path = g_build_filename (artifacts, "plots", "aiperf_plot.log", NULL);
  g_assert_true (g_file_get_contents (path, &log, NULL, NULL));
  g_assert_true (
      g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d - inferview.plot - "
                            "INFO - Using config: built-in$",
                            log, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (log, "INFO - Generated ttft_over_time.png"));
  g_assert_nonnull (strstr (log, "INFO - Skipping timeslices_ttft - no time slices"));
  g_assert_null (strstr (log, "DEBUG"));
  g_clear_pointer (&log, g_free);
  g_clear_pointer (&path, g_free);

  /* --paths, and --verbose: the details in the log and every line on stderr */
  {
    g_autofree char *out = g_build_filename (dir, "paths", NULL);
    r = run ("plot", "--paths", one, "--paths", two, "-o", out, "--verbose", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "inferview plot: INFO: Detected MULTI_RUN mode: 3 run"));
    g_assert_nonnull (strstr (r.err, "inferview plot: DEBUG: Run qwen_concurrency1"));
    path = g_build_filename (out, "aiperf_plot.log", NULL);
    g_assert_true (g_file_get_contents (path, &log, NULL, NULL));
    g_assert_nonnull (strstr (log, "DEBUG - Run qwen_concurrency4"));
    g_clear_pointer (&log, g_free);
    g_clear_pointer (&path, g_free);
    /* Inferview's numbers, and under each figure where aiperf plot's differ */
    path = g_build_filename (out, "summary.txt", NULL);
    g_assert_true (g_file_get_contents (path, &summary, NULL, NULL));
    g_assert_nonnull (strstr (summary, "pareto_curve_throughput_per_gpu_vs_latency: "
                                       "pareto_curve_throughput_per_gpu_vs_latency.png\n"
                                       "  differs from aiperf plot: per GPU: 1 GPU by UUID; "
                                       "aiperf plot counts 2 from 2 telemetry endpoint(s)"));
    g_assert_nonnull (strstr (summary, "  differs from aiperf plot: x: each run's avg here; "
                                       "aiperf plot puts its p50 there"));
    g_clear_pointer (&summary, g_free);
    g_clear_pointer (&path, g_free);
    result_clear (&r);
  }

  /* --aiperf-compatible --json: the sample sweep's points as aiperf plot draws them */
  {
    g_autofree char *out = g_build_filename (dir, "compat", NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *root, *figure = NULL;
    JsonArray *plots, *series;
    r = run ("plot", src, "-o", out, "--aiperf-compatible", "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_true (json_object_get_boolean_member (root, "aiperf_compatible"));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "runs")), ==, 3);
    plots = json_object_get_array_member (root, "plots");
    for (guint i = 0; i < json_array_get_length (plots); i++)
      {
        JsonObject *p = json_array_get_object_element (plots, i);
        if (g_str_equal (json_object_get_string_member (p, "preset"),
                         "pareto_curve_throughput_per_gpu_vs_latency"))
          figure = json_object_get_object_member (p, "figure");
        /* drawn as aiperf draws it: nothing to say */
        if (json_object_has_member (p, "notes"))
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p, "notes")), ==,
                            0);
      }
    g_assert_nonnull (figure);
    series = json_object_get_array_member (figure, "series");
    {
      /* the points: each run's request_latency p50 (concurrency 1: 3644.0809205 ms) against
       * its output token throughput over 2 GPUs (50.08213863971112 / 2), by latency */
      JsonObject *pts = json_array_get_object_element (series, 1);
      JsonArray *x = json_object_get_array_member (pts, "x"),
                *y = json_object_get_array_member (pts, "y");
      g_assert_cmpstr (json_object_get_string_member (pts, "name"), ==, "Qwen/Qwen3-0.6B");
      g_assert_cmpfloat (json_array_get_double_element (x, 0), ==, 3644.0809205);
      g_assert_cmpfloat (json_array_get_double_element (y, 0), ==, 50.08213863971112 / 2);
      g_assert_cmpstr (
          json_array_get_string_element (json_object_get_array_member (pts, "labels"), 0), ==, "1");
    }
    result_clear (&r);
  }

  /* aiperf's shortcut with a statistic that is none */
  {
    g_autofree char *cfg = g_build_filename (dir, "p67.yaml", NULL);
    g_autofree char *out = g_build_filename (dir, "p67", NULL);
    g_assert_true (g_file_set_contents (cfg,
                                        "visualization:\n"
                                        "  multi_run_defaults: [p]\n"
                                        "  multi_run_plots:\n"
                                        "    p: {type: pareto, x: request_latency_p67, y: "
                                        "request_throughput}\n",
                                        -1, NULL));
    r = run ("plot", src, "-o", out, "--config", cfg, NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_nonnull (strstr (r.err, "p67.yaml:4: plot “p”: “request_latency_p67” ends in “p67”"));
    g_assert_nonnull (strstr (r.err, "did you mean request_latency_p75?"));
    result_clear (&r);
  }
  r = run ("plot", src, "--aiperf-compatible", "--watch", NULL);
  g_assert_cmpint (r.status, ==, 2);
  result_clear (&r);
  iv_test_remove_tree (dir);
}

static void
test_plot_watch (void)
{
  g_autofree char *src
      = g_build_filename (g_getenv ("IV_SAMPLES_DIR"), "aiperf", "qwen_concurrency1", NULL);
  g_autofree char *src_records = g_build_filename (src, "profile_export.jsonl", NULL);
  g_autofree char *src_summary = g_build_filename (src, "profile_export_aiperf.json", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("iv-cli-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "run", NULL);
  g_autofree char *out = g_build_filename (tmp, "plots", NULL);
  g_autofree char *records = g_build_filename (dir, "profile_export.jsonl", NULL);
  g_autofree char *summary_txt = g_build_filename (out, "summary.txt", NULL);
  g_autofree char *text = NULL, *summary = NULL, *stdout_text = NULL;
  g_auto (GStrv) lines = NULL;
  Watched w = { 0 };
  int out_fd = -1;
  g_autoptr (GString) got = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (src_records, &text, NULL, NULL));
  g_assert_true (g_file_get_contents (src_summary, &summary, NULL, NULL));
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *line = g_strconcat (lines[i], "\n", NULL);
      if (i == 3)
        {
          /* three records before the command starts, four while it follows */
          /* spawned without GSubprocess, whose GLib worker thread TSan faults in GLib */
          const char *argv[] = {
            /* --linger: a run without its summary stays live while it grows by this much */
            g_getenv ("IV_BINARY"), "plot", dir, "--watch", "--linger", "5", "-o", out, "--plot",
            "ttft_timeline",        NULL
          };
          g_assert_true (g_spawn_async_with_pipes (
              NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
              NULL, NULL, &w.pid, NULL, &out_fd, NULL, &error));
          g_assert_no_error (error);
          g_assert_true (watch_says (&w, summary_txt, "(1 live, 3 requests so far)"));
        }
      append_text (records, line, -1);
    }
  g_assert_true (watch_says (&w, summary_txt, "(1 live, 7 requests so far)"));
  /* half a line: nothing new is read (summary.txt stays at 7 over a few reads) */
  append_text (records, lines[7], 60);
  g_assert_false (file_says (summary_txt, "8 requests", 2));
  {
    g_autofree char *rest = g_strconcat (lines[7] + 60, "\n", NULL);
    append_text (records, rest, -1);
  }
  g_assert_true (watch_says (&w, summary_txt, "(1 live, 8 requests so far)"));
  /* AIPerf writes the summary last: the command draws the finished run and ends */
  {
    g_autofree char *path = g_build_filename (dir, "profile_export_aiperf.json", NULL);
    append_text (path, summary, -1);
  }
  {
    char buf[4096];
    gssize n;
    while ((n = read (out_fd, buf, sizeof buf)) > 0)
      g_string_append_len (got, buf, n);
    close (out_fd);
    if (!w.ended)
      g_assert_cmpint (waitpid (w.pid, &w.status, 0), ==, w.pid);
    g_spawn_close_pid (w.pid);
    stdout_text = g_strdup (got->str);
  }
  g_assert_true (WIFEXITED (w.status));
  g_assert_cmpint (WEXITSTATUS (w.status), ==, 0);
  g_assert_true (file_says (summary_txt, "single-run mode, 1 run(s), configuration", 1));
  g_assert_true (file_says (summary_txt, "8 of 64 requests have per-request records", 1));
  g_assert_true (file_says (summary_txt, "ttft_timeline: ttft_timeline.png", 1));
  g_assert_nonnull (strstr (stdout_text, "7 requests, 1 run(s) (1 live): 1 plot(s) rewritten"));
  g_assert_nonnull (strstr (stdout_text, "8 requests, 1 run(s) (0 live): 1 plot(s) rewritten"));
  /* each count said once: no record was read twice */
  g_assert_null (strstr (stdout_text, "9 requests"));
  iv_test_remove_tree (tmp);
}

/* `trace FILE --stats`: what a Kineto file says about itself (a public HTA trace of rank 34
 * of 300, gloo): one line in the text, and "info" in the JSON with every value as written
 * — baseTimeNanoseconds exact, past what a double holds — and the process groups' ranks
 * summarised. */
static void
test_trace_info (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IV_TEST_DATA"), "traces",
                                            "kineto_cpu_only_gloo.json.gz", NULL);
  g_autoptr (JsonParser) p = json_parser_new ();
  JsonObject *info, *distributed, *attributes, *group;
  Result r = run ("trace", path, "--stats", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\ndistributed: rank 34 of 300 · gloo · 11 process groups\n"));
  g_assert_nonnull (strstr (r.out, "attributes: schemaVersion = 1; username = mojif; "));
  result_clear (&r);
  r = run ("trace", path, "--stats", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p, r.out, -1, NULL));
  info = json_object_get_object_member (json_node_get_object (json_parser_get_root (p)), "info");
  distributed = json_object_get_object_member (info, "distributed");
  g_assert_cmpint (json_object_get_int_member (distributed, "rank"), ==, 34);
  g_assert_cmpint (json_object_get_int_member (distributed, "world_size"), ==, 300);
  g_assert_cmpstr (json_object_get_string_member (distributed, "backend"), ==, "gloo");
  group = json_array_get_object_element (
      json_object_get_array_member (distributed, "process_groups"), 0);
  g_assert_cmpstr (json_object_get_string_member (group, "ranks"), ==, "0–299 (300 ranks)");
  g_assert_cmpstr (json_object_get_string_member (group, "pg_desc"), ==, "default_pg");
  attributes = json_object_get_object_member (info, "attributes");
  g_assert_cmpint (json_object_get_int_member (attributes, "baseTimeNanoseconds"), ==,
                   G_GINT64_CONSTANT (1719853884000000000));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (info, "devices")), ==, 0);
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
  g_test_add_func ("/cli/model-json", test_model_json);
  g_test_add_func ("/cli/model-json-valid", test_model_json_valid);
  g_test_add_func ("/cli/model-errors", test_model_errors);
  g_test_add_func ("/cli/model-hf-config-and-csv", test_model_hf_config_and_csv);
  g_test_add_func ("/cli/text-printable", test_text_printable);
  g_test_add_func ("/cli/bound-options", test_bound_options);
  g_test_add_func ("/cli/presets-and-hardware", test_presets_and_hardware);
  g_test_add_func ("/cli/model-figure", test_model_figure);
  g_test_add_func ("/cli/model-serving", test_model_serving);
  g_test_add_func ("/cli/trace-figure", test_trace_figure);
  g_test_add_func ("/cli/trace-pipelined-figure", test_trace_pipelined_figure);
  g_test_add_func ("/cli/trace-info", test_trace_info);
  g_test_add_func ("/cli/runs-json", test_runs_json);
  g_test_add_func ("/cli/plot", test_plot);
  g_test_add_func ("/cli/plot-aiperf", test_plot_aiperf);
  g_test_add_func ("/cli/plot-notes", test_plot_notes);
  g_test_add_func ("/cli/plot-serving", test_plot_serving);
  g_test_add_func ("/cli/plot-watch", test_plot_watch);
  g_test_add_func ("/cli/write-failures", test_write_failures);
  g_test_add_func ("/cli/out-of-memory", test_out_of_memory);
  return g_test_run ();
}
