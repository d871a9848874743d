/* iv-cli-private.h: what the sub-command files share with the dispatcher. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef int (*IvCliCommandFunc) (int argc, char **argv);

typedef struct
{
  const char *name;
  const char *args;    /* usage after the command name */
  const char *summary;
  IvCliCommandFunc run;
} IvCliCommand;

int  _iv_cli_identify       (int           argc,
                             char        **argv);
int  _iv_cli_model          (int           argc,
                             char        **argv);
int  _iv_cli_presets        (int           argc,
                             char        **argv);
int  _iv_cli_hardware       (int           argc,
                             char        **argv);
int  _iv_cli_trace          (int           argc,
                             char        **argv);
int  _iv_cli_usage_error    (const char   *command,
                             const char   *format,
                             ...) G_GNUC_PRINTF (2, 3);
void _iv_cli_print_error    (const GError *error);

G_END_DECLS
