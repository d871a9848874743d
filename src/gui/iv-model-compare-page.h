/* iv-model-compare-page.h: the Model workspace's Compare page — every saved configuration
 * evaluated again, side by side — made only when shown or asked for. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model-saved-list.h"
#include "iv-render.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_COMPARE_PAGE (iv_model_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (IvModelComparePage, iv_model_compare_page, IV, MODEL_COMPARE_PAGE, GtkBox)

/* The saved configurations to compare, and the imported models (IvModel *) they may name;
 * both outlive the page. */
void iv_model_compare_page_set_sources (IvModelComparePage *self, IvModelSavedList *saved,
                                        GPtrArray *imported);
/* The saved list or the imported models changed: compared again now if @shown (and the
 * list is read), else when next asked. */
void iv_model_compare_page_invalidate (IvModelComparePage *self, gboolean shown);
/* The page is on screen: made again now if it is stale and the list is read (a read under
 * way says when it is in), and drawn. */
void iv_model_compare_page_show (IvModelComparePage *self);
/* The comparison as a figure (for Export), made first if it is stale; NULL when no saved
 * configuration evaluates. */
const IvFigure *iv_model_compare_page_get_figure (IvModelComparePage *self);
/* The comparison as CSV, or NULL when no saved configuration evaluates. */
char *iv_model_compare_page_get_csv (IvModelComparePage *self);
/* The size in px the table's text is drawn at (0 with nothing to compare), and the body
 * text's: what a test compares. */
double iv_model_compare_page_get_text_px (IvModelComparePage *self);
double iv_model_compare_page_get_body_px (IvModelComparePage *self);

G_END_DECLS
