/* main.c: `inferview SUBCOMMAND …` runs the command line without a display; anything
 * else opens the window. */
#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>

#include "config.h"
#include "iv-atomic-file.h"
#include "iv-cli.h"
#ifdef IV_WITH_GUI
#include "iv-application.h"
#endif

/* Ctrl+C, kill or a closed terminal while a figure or a file is written: the hidden
 * temporaries of the writes in progress go, then the signal ends the process as it would
 * have (SA_RESETHAND restored the default; the signal raised here is held until the
 * handler returns), so the shell still sees "killed by SIGTERM". */
static void
on_ending_signal (int sig)
{
  int saved = errno;

  iv_atomic_file_remove_pending ();
  raise (sig);
  errno = saved;
}

/* For the command line and the window alike: nothing else here handles these signals
 * (`plot --watch` replaces the handler with GLib's for its loop, which stops between
 * writes). A signal ignored by whoever started us (nohup) stays ignored. */
static void
remove_temporaries_on_signals (void)
{
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction action = { 0 }, old;

      if (sigaction (signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        continue;
      action.sa_handler = on_ending_signal;
      sigemptyset (&action.sa_mask);
      action.sa_flags = SA_RESETHAND;
      sigaction (signals[i], &action, NULL);
    }
}

int
main (int argc, char **argv)
{
  /* Past a file-size limit a write should fail with EFBIG, which the atomic writer
   * reports and cleans up after, not kill the process half-way through a file. */
  signal (SIGXFSZ, SIG_IGN);
  remove_temporaries_on_signals ();
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
