/* iv-cli-private.h: what the sub-command files share with the dispatcher. */
#pragma once

#include "iv-sweep.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "iv-export.h"

G_BEGIN_DECLS

typedef int (*IvCliCommandFunc) (int argc, char **argv);

typedef struct
{
  const char *name;
  const char *args; /* usage after the command name */
  const char *summary;
  IvCliCommandFunc run;
} IvCliCommand;

int _iv_cli_identify (int argc, char **argv);
int _iv_cli_model (int argc, char **argv);
int _iv_cli_presets (int argc, char **argv);
int _iv_cli_hardware (int argc, char **argv);
int _iv_cli_plot (int argc, char **argv);
int _iv_cli_query (int argc, char **argv);
int _iv_cli_runs (int argc, char **argv);
int _iv_cli_trace (int argc, char **argv);
/* Parses @command's options (@summary for --help; NULL for none). FALSE after a usage
 * error on stderr: exit with IV_EXIT_USAGE. */
gboolean _iv_cli_parse (const char *command, const char *summary, const GOptionEntry *entries,
                        int *argc, char ***argv);
/* A listing command: --json, and PATH… into @paths (at least one, else @no_paths as the
 * usage error) or, with @paths NULL, no arguments at all. FALSE after a usage error. */
gboolean _iv_cli_parse_listing (const char *command, const char *summary, const char *no_paths,
                                gboolean *json, char ***paths, int argc, char **argv);
/* Text output of a command: like fprintf () and g_string_append_printf (), but what lies
 * between the newlines @format begins and ends with is made printable (iv_text_printable:
 * valid UTF-8, control characters as visible escapes). Every line that holds a name, a
 * path or a message from data is printed through them; --json output has its writer. */
#define _iv_cli_printf(out, ...) _iv_cli_put ((out), _iv_cli_printable (__VA_ARGS__))
#define _iv_cli_append_printf(string, ...)                                                         \
  _iv_cli_append ((string), _iv_cli_printable (__VA_ARGS__))
/* What both are made of, so that the formatting is written once: the text made printable,
 * and the text (taken) written out or appended. */
char *_iv_cli_printable (const char *format, ...) G_GNUC_PRINTF (1, 2);
void _iv_cli_put (FILE *out, char *text);
void _iv_cli_append (GString *string, char *text);
/* The message and the pointer to --help on stderr; the message made printable. */
int _iv_cli_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);
void _iv_cli_print_error (const GError *error);
/* A number option of @command: SI suffixes and units accepted (100T, 1e12, 1us, 64GiB);
 * positive, or ≥ 0 with @allow_zero. A missing option (NULL) leaves @out. FALSE after
 * one line on stderr naming the option and the text. */
gboolean _iv_cli_number (const char *command, const char *option, const char *text,
                         gboolean allow_zero, double *out);

/* --gpus N: every run of @sweep served by N GPUs (per-GPU throughput divides by it).
 * NULL leaves the runs' own counts. FALSE after one line on stderr naming the option. */
gboolean _iv_cli_apply_gpus (const char *command, const char *text, IvSweep *sweep);
/* Its GOptionEntry row, the same for every command that takes it. */
#define IV_CLI_GPUS_ENTRY(text)                                                                    \
  {                                                                                                \
    "gpus", 0, 0, G_OPTION_ARG_STRING, text,                                                       \
        N_ ("The GPUs that served each run (per-GPU throughput divides by it; default: the "       \
            "telemetry's)"),                                                                       \
        "N"                                                                                        \
  }

/* TRUE, after one line on stderr, when -o @output is an existing folder. */
gboolean _iv_cli_output_is_folder (const char *command, const char *output);

/* The texts of a figure's options, NULL where absent. */
typedef struct
{
  char *size; /* --size slide|column|double-column: page size, resolution, text size */
  char *theme, *width, *height, *dpi;
  char *text_size; /* --text-size PT: body text on the page */
} IvCliFigureArgs;

/* The GOptionEntry rows of IvCliFigureArgs (five), for a command's table. */
#define IV_CLI_FIGURE_ENTRIES(a)                                                                   \
  { "size",                                                                                        \
    0,                                                                                             \
    0,                                                                                             \
    G_OPTION_ARG_STRING,                                                                           \
    &(a)->size,                                                                                    \
    N_ ("A page: slide (13.33 × 7.5 in, 18 pt), column (3.5 in, 8.5 pt) or double-column (7 in, " \
        "9 pt)"),                                                                                  \
    "SIZE" },                                                                                      \
      { "width", 0, 0, G_OPTION_ARG_STRING, &(a)->width, N_ ("Figure width in 1/96 in"), "W" },    \
      { "height", 0, 0, G_OPTION_ARG_STRING, &(a)->height, N_ ("Figure height in 1/96 in"), "H" }, \
      { "dpi", 0, 0, G_OPTION_ARG_STRING, &(a)->dpi, N_ ("PNG resolution"), "DPI" },               \
  {                                                                                                \
    "text-size", 0, 0, G_OPTION_ARG_STRING, &(a)->text_size,                                       \
        N_ ("Body text in points on the page"), "PT"                                               \
  }

void _iv_cli_figure_args_clear (IvCliFigureArgs *args);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (IvCliFigureArgs, _iv_cli_figure_args_clear)

/* --size, then --width, --height, --dpi and --text-size over it, into @eo. */
int _iv_cli_figure_size (const char *command, const IvCliFigureArgs *args, IvExportOptions *eo);
/* The options of a figure written to -o @output into @eo: --size first, then --width,
 * --height, --dpi, --text-size and --theme over it; @eo's defaults stay where nothing is
 * said. IV_EXIT_OK, or the exit status after one line on stderr: a folder as the output
 * is bad input, the rest usage. */
int _iv_cli_figure_options (const char *command, const char *output, const IvCliFigureArgs *args,
                            IvExportOptions *eo);

/* Every --json output: @root indented, through Inferview's JSON writer, and a newline. */
void _iv_cli_print_json (JsonNode *root);
void _iv_cli_print_json_builder (JsonBuilder *builder);

G_END_DECLS
