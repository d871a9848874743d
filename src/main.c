/* main.c: `inferview SUBCOMMAND …` runs the command line without a display; anything
 * else opens the window. */
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>

#include "config.h"
#include "iv-cli.h"
#ifdef IV_WITH_GUI
#include "iv-application.h"
#endif

int
main (int argc, char **argv)
{
  /* Past a file-size limit a write should fail with EFBIG, which the atomic writer
   * reports and cleans up after, not kill the process half-way through a file. */
  signal (SIGXFSZ, SIG_IGN);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name ("Inferview");

  if (iv_cli_handles (argc, argv))
    return iv_cli_run (argc, argv);

#ifdef IV_WITH_GUI
  {
    g_autoptr (IvApplication) app = iv_application_new ();
    return g_application_run (G_APPLICATION (app), argc, argv);
  }
#else
  if (argc < 2)
    return iv_cli_run (argc, argv);
  return iv_cli_run (2, (char *[]){ argv[0], (char *) "--help", NULL });
#endif
}
