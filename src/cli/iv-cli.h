/* iv-cli.h: the `inferview SUBCOMMAND` dispatcher (no display needed). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit statuses shared by every sub-command. */
#define IV_EXIT_OK 0
#define IV_EXIT_BAD_INPUT 1
#define IV_EXIT_USAGE 2

gboolean iv_cli_handles (int argc, char **argv);
int iv_cli_run (int argc, char **argv);

G_END_DECLS
