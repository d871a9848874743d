/* iv-cli.c: sub-command dispatch, --help and --version. Each sub-command lives in its
 * own iv-cli-*.c and is listed here only once it works. */
#define G_LOG_DOMAIN "iv-cli"

#include "iv-cli.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-private.h"
#include "iv-input.h"

static const IvCliCommand commands[] = {
  { "identify", "PATH... [--json]",
    N_ ("Say what each path is: an AIPerf run or sweep, a trace, a model configuration"),
    _iv_cli_identify },
  { "model",
    "[--preset NAME | --hf-config FILE] [--hardware NAME|FILE] [--mode prefill|decode] "
    "[--batch B] [--tq T] [--context P] [--tp N] [--cp N] [--tp-place pe|cube] "
    "[--cp-place pe|cube] [--ring kv|qoml] [hardware overrides] [--format table|json|csv] "
    "[--figure pipeline|stages|memory|roofline|topology|sweep|sharding -o FILE [--sweep "
    "tp|cp|tq|context] [--theme T --width W --height H]]",
    N_ ("Evaluate the analytical model of one inference step (--help lists every option)"),
    _iv_cli_model },
  { "presets", "[--json]", N_ ("List the model presets with their parameter counts"),
    _iv_cli_presets },
  { "hardware", "[--json]", N_ ("List the hardware presets"), _iv_cli_hardware },
  { "plot",
    "[PATH...] [--paths PATH...] [-o DIR] [--format png|pdf|svg] [--theme light|dark] [--config "
    "FILE] [--plot NAME|all] [--list] [--aiperf-compatible] [--json] [--verbose]",
    N_ ("Draw every default plot of the runs under the paths, as aiperf plot does, or the presets "
        "named"),
    _iv_cli_plot },
  { "query", "PATH... \"SQL\" | PATH... --file FILE [--format table|csv|json] [--time-limit S]",
    N_ ("SQL over traces and AIPerf runs, with Perfetto's table names (slice, thread_track, "
        "request, …)"),
    _iv_cli_query },
  { "runs", "PATH... [--json]",
    N_ ("The AIPerf runs under the paths: configuration, requests, errors, metric statistics"),
    _iv_cli_runs },
  { "trace",
    "FILE --stats [--json] | FILE -o FIGURE [--from MS --to MS] [--start-candidate N "
    "--num-candidates N --breakdown FILE --min-runtime-pct P]",
    N_ ("What a Chrome trace or pipelined timeline holds (counts, time by name, GPU streams), or "
        "its timeline as a figure"),
    _iv_cli_trace },
};

static void
print_help (FILE *out)
{
  fprintf (out, "%s\n\n", _ ("Inferview: AI inference runs, traces and models, natively."));
  fprintf (out, "%s\n", _ ("Usage:"));
  fprintf (out, "  inferview [FILE|FOLDER...]        %s\n",
           _ ("Open the window on runs, sweeps, traces and model configurations"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  inferview %s %s\n      %s\n", commands[i].name, commands[i].args,
             _ (commands[i].summary));
  fprintf (out, "  inferview --help | --version\n\n");
  fprintf (out, "%s\n",
           _ ("Every command also takes --allow-huge: read a compressed file even when it "
              "expands more than 1000-fold past its first gigabyte (refused by default "
              "as a likely decompression bomb)."));
  fprintf (out, "%s\n", _ ("Exit status: 0 success, 1 bad input, 2 bad usage."));
}

gboolean
iv_cli_handles (int argc, char **argv)
{
  int first = 1;

  while (first < argc && strcmp (argv[first], "--allow-huge") == 0)
    first++;
  if (first >= argc)
    return FALSE;
  if (strcmp (argv[first], "--help") == 0 || strcmp (argv[first], "-h") == 0
      || strcmp (argv[first], "--version") == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[first], commands[i].name) == 0)
      return TRUE;
  return FALSE;
}

/* --allow-huge is the same for every command: taken out of @argv here, before the
 * command parses its own options. */
static int
take_global_options (int argc, char **argv)
{
  int out = 1;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--allow-huge") == 0)
        {
          iv_input_set_allow_huge (TRUE);
          continue;
        }
      argv[out++] = argv[i];
    }
  argv[out] = NULL;
  return out;
}

int
iv_cli_run (int argc, char **argv)
{
  g_return_val_if_fail (argc >= 2, IV_EXIT_USAGE);

  argc = take_global_options (argc, argv);
  if (argc < 2)
    {
      print_help (stderr);
      return IV_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_help (stdout);
      return IV_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("inferview %s\n", PACKAGE_VERSION);
      return IV_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  print_help (stderr);
  return IV_EXIT_USAGE;
}
