/* iv-window-private.h: what iv-window.c shares with iv-window-actions.c. */
#pragma once

#include "iv-sidebar.h"
#include "iv-window.h"
#include "iv-workspace-page.h"

G_BEGIN_DECLS

struct _IvWindow
{
  AdwApplicationWindow parent_instance;

  GSettings *settings;
  GListStore *documents;
  IvDocument *selected;
  gboolean sidebar_visible;
  gulong recent_changed_id;
  guint deferred_id; /* building what the first frame does not show */
  guint n_opened;
  guint n_peeking;      /* opens whose files are being looked at before they become documents */
  AdwToast *last_toast; /* the last one shown or queued (tests read its title) */

  /* template children */
  AdwToastOverlay *toast_overlay;
  AdwHeaderBar *header_bar;
  AdwFlap *flap;
  AdwViewStack *view_stack;
  AdwViewSwitcherTitle *switcher_title;
  IvSidebar *sidebar;
  IvWorkspacePage *runs_page;
  IvWorkspacePage *traces_page;
  IvWorkspacePage *model_page;
  GMenu *recent_section;
};

void _iv_window_class_init_actions (GtkWidgetClass *widget_class);
void _iv_window_update_actions (IvWindow *self);
IvWorkspacePage *_iv_window_get_page (IvWindow *self, IvGroup group);
IvWorkspacePage *_iv_window_get_visible_page (IvWindow *self);
/* The last toast iv_window_toast () showed or queued, or NULL. */
AdwToast *_iv_window_get_last_toast (IvWindow *self);

G_END_DECLS
