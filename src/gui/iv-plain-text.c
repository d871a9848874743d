/* iv-plain-text.c: text from data shown as written (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-plain-text.h"

#include "iv-safe-text.h"

char *
iv_markup_from_text (const char *text)
{
  g_autofree char *valid = iv_text_valid (text ? text : "", -1);
  return g_markup_escape_text (valid, -1);
}

AdwToast *
iv_toast_new_plain (const char *text)
{
  g_autofree char *markup = iv_markup_from_text (text);
  return adw_toast_new (markup);
}

void
iv_row_set_plain (gpointer row)
{
  g_return_if_fail (ADW_IS_PREFERENCES_ROW (row));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
}

void
iv_label_set_valid_text (GtkLabel *label, const char *text)
{
  g_autofree char *valid = iv_text_valid (text ? text : "", -1);
  gtk_label_set_text (label, valid);
}
