/* iv-sidebar.h: the list of what is open, grouped into Runs, Traces and Model. */
#pragma once

#include <gtk/gtk.h>

#include "iv-document.h"

G_BEGIN_DECLS

#define IV_TYPE_SIDEBAR (iv_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (IvSidebar, iv_sidebar, IV, SIDEBAR, GtkWidget)

void        iv_sidebar_set_model    (IvSidebar  *self,
                                     GListModel *documents);
void        iv_sidebar_select       (IvSidebar  *self,
                                     IvDocument *document);
const char *iv_sidebar_group_title  (IvGroup     group);

G_END_DECLS
