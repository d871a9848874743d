/* iv-plain-text.h: text from data shown as written. Names, paths and messages come from
 * files a user did not write; in libadwaita 1.2 an AdwToast's title, an
 * AdwPreferencesGroup's title and description and an AdwStatusPage's description are
 * always Pango markup, and AdwActionRow/AdwExpanderRow titles and subtitles are markup
 * unless told otherwise: "R&D" would be refused (an empty toast) and "<b>" rendered. And
 * Pango draws nothing of a text that is not valid UTF-8. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* @text (NULL: "") as markup that shows it as written: invalid UTF-8 replaced
 * (iv_text_valid), then escaped. For the widgets that only take markup. */
char *iv_markup_from_text (const char *text);
/* A toast whose title shows @text as written. */
AdwToast *iv_toast_new_plain (const char *text);
/* @row's title and subtitle (an AdwActionRow's, an AdwExpanderRow's) read as plain text
 * from now on; set them with valid UTF-8 (iv_text_valid). */
void iv_row_set_plain (gpointer row);
/* gtk_label_set_text () with invalid UTF-8 in @text (NULL: "") replaced. */
void iv_label_set_valid_text (GtkLabel *label, const char *text);

G_END_DECLS
