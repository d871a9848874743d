/* iv-tooltip.h: tooltips whose text wraps inside the window. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The label such a tooltip shows: wraps at about 60 characters, inside words if need be. */
GtkWidget *iv_tooltip_label_new (const char *text);
/* Shows @text in @tooltip wrapped at about 60 characters, breaking inside a word when
 * it has to: a kernel or run name has no spaces, and the toolkit's own tooltip label
 * would run off the window with it. */
void iv_tooltip_set_text (GtkTooltip *tooltip, const char *text);
/* A "query-tooltip" handler that shows the widget's tooltip-text that way; connect it to
 * (or name it in a template for) a widget whose tooltip is a name from the data. */
gboolean iv_tooltip_query_wrapped (GtkWidget *widget, int x, int y, gboolean keyboard,
                                   GtkTooltip *tooltip, gpointer data);
/* Connects iv_tooltip_query_wrapped () to @widget. */
void iv_tooltip_wrap (GtkWidget *widget);

G_END_DECLS
