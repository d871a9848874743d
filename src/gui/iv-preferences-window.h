/* iv-preferences-window.h: the application's preferences. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define IV_TYPE_PREFERENCES_WINDOW (iv_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (IvPreferencesWindow, iv_preferences_window, IV, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

IvPreferencesWindow *iv_preferences_window_new (GtkWindow *parent);

G_END_DECLS
