/* iv-settings.h: the application's GSettings, installed schema or not. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The settings of io.github.inferview.Inferview. With the schema installed, the real
 * thing; without it (run from a build folder, a copied binary), settings from the schema
 * carried in the binary, kept in memory for this run, and one warning saying so. */
GSettings *iv_settings_new (void);

G_END_DECLS
