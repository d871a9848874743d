/* iv-cli-identify.c: `inferview identify`, what the window would make of each path;
 * handy to check a file association or a folder layout from a script. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include "config.h"
#include <stdio.h>

#include "iv-cli-private.h"
#include "iv-json-writer.h"
#include "iv-cli.h"
#include "iv-sniff.h"
#include "iv-trace-ranks.h"

#define IDENTIFY_HEAD_BYTES (G_GUINT64_CONSTANT (64) << 20)

static JsonNode *
result_to_json (const char *path, const IvSniffResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  iv_json_member_string (b, "path", path);
  iv_json_member_string (b, "kind", iv_kind_to_string (r->kind));
  iv_json_member_int (b, "events", r->events);
  iv_json_member_bool (b, "events_partial", r->events_partial);
  iv_json_member_bool (b, "truncated", r->truncated);
  iv_json_member_bool (b, "folders_cut", r->folders_cut);
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->runs->len; i++)
    json_builder_add_string_value (b, r->runs->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_text (const char *path, const IvSniffResult *r)
{
  _iv_cli_printf (stdout, "%s: %s", path, iv_kind_to_string (r->kind));
  if (r->runs->len > 0)
    _iv_cli_printf (stdout, ", %u run%s", r->runs->len, r->runs->len == 1 ? "" : "s");
  if (r->events >= 0)
    _iv_cli_printf (stdout, ", %s%" G_GINT64_FORMAT " %s%s", r->events_partial ? "at least " : "",
                    r->events, iv_kind_get_group (r->kind) == IV_GROUP_RUNS ? "requests" : "events",
                    r->events_partial ? " (counted in the head of each file)" : "");
  if (r->truncated)
    _iv_cli_printf (stdout, ", %s", "truncated");
  if (r->folders_cut)
    _iv_cli_printf (stdout, ", stopped looking after %d folders", IV_SNIFF_MAX_FOLDERS);
  _iv_cli_printf (stdout, "\n");
  for (guint i = 0; i < r->runs->len; i++)
    _iv_cli_printf (stdout, "  %s\n", (const char *) r->runs->pdata[i]);
}

int
_iv_cli_identify (int argc, char **argv)
{
  gboolean json = FALSE;
  g_auto (GStrv) paths = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonArray) out = json_array_new ();
  int status = IV_EXIT_OK;

  if (!_iv_cli_parse_listing ("identify",
                              _ ("Say what each path is: an AIPerf run or sweep, a trace, "
                                 "a model configuration."),
                              _ ("name at least one file or folder"), &json, &paths, argc, argv))
    return IV_EXIT_USAGE;

  for (guint i = 0; paths[i]; i++)
    {
      /* a folder of rank traces (rank-0…rank-N by name) is one distributed job, which
       * `trace FOLDER --stats` reads; it holds no AIPerf run */
      guint ranks
          = g_file_test (paths[i], G_FILE_TEST_IS_DIR) ? iv_rank_traces_in_folder (paths[i]) : 0;
      /* or whose files' distributedInfo (read from their heads) makes them ranks of one
       * world, whatever their names, as the window opens them */
      if (ranks < 2 && g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr (GPtrArray) by_info = iv_trace_ranks_in_folder (paths[i], NULL);
          ranks = by_info ? by_info->len : 0;
        }
      if (ranks >= 2)
        {
          if (json)
            {
              g_autoptr (JsonBuilder) b = json_builder_new ();
              json_builder_begin_object (b);
              iv_json_member_string (b, "path", paths[i]);
              iv_json_member_string (b, "kind", "distributed-trace");
              iv_json_member_int (b, "ranks", ranks);
              json_builder_end_object (b);
              json_array_add_element (out, json_builder_get_root (b));
            }
          else
            _iv_cli_printf (stdout, "%s: %u ranks of a distributed trace\n", paths[i], ranks);
          continue;
        }
      /* Only the head of each file: identify answers at once, whatever the size (a
       * compressed file could expand to terabytes). */
      g_autoptr (IvSniffResult) r
          = iv_sniff_path_head (paths[i], TRUE, IDENTIFY_HEAD_BYTES, NULL, NULL, NULL, &error);
      if (!r)
        {
          _iv_cli_print_error (error);
          g_clear_error (&error);
          status = IV_EXIT_BAD_INPUT;
          continue;
        }
      if (json)
        json_array_add_element (out, result_to_json (paths[i], r));
      else
        print_text (paths[i], r);
    }
  if (json)
    {
      g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
      json_node_set_array (root, out);
      _iv_cli_print_json (root);
    }
  return status;
}
