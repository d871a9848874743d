/* iv-widgets.h: small widget helpers the views share. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* "_Label" and @widget side by side, the label's mnemonic focusing the widget. */
GtkWidget *iv_labelled (const char *mnemonic,
                        GtkWidget  *widget);

G_END_DECLS
