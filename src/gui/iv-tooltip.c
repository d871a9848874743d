/* iv-tooltip.c: GTK's tooltip label wraps at word boundaries only, so a 300-character
 * C++ kernel name makes a tooltip as wide as the screen and more. A custom label that
 * may break inside words keeps every tooltip a readable width. */
#include "iv-tooltip.h"

#include "iv-safe-text.h"

#define MAX_CHARS 60

GtkWidget *
iv_tooltip_label_new (const char *raw)
{
  /* names from data: plain text (a label's default), valid UTF-8 before Pango */
  g_autofree char *text = iv_text_valid (raw ? raw : "", -1);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), MAX_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

void
iv_tooltip_set_text (GtkTooltip *tooltip, const char *text)
{
  gtk_tooltip_set_custom (tooltip, iv_tooltip_label_new (text));
}

gboolean
iv_tooltip_query_wrapped (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                          gpointer data)
{
  const char *text = gtk_widget_get_tooltip_text (widget);

  if (!text || !*text)
    return FALSE;
  iv_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
iv_tooltip_wrap (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (iv_tooltip_query_wrapped), NULL);
}
