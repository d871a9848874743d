/* iv-model-notebook.h: the Model workspace's figures — a tab and a page per figure of the
 * registry (iv-model-figures.h), the controls some figures have above them, then the
 * Details and Compare pages. It draws what its source gives it for each figure. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model-compare-page.h"
#include "iv-model-figures.h"
#include "iv-model-stages.h"

G_BEGIN_DECLS

#define IV_TYPE_MODEL_NOTEBOOK (iv_model_notebook_get_type ())
G_DECLARE_FINAL_TYPE (IvModelNotebook, iv_model_notebook, IV, MODEL_NOTEBOOK, GtkWidget)

/* What @figure draws now (an IvModelFigure or an IvServingFigure, as its entry says), or
 * NULL to leave its page empty. */
typedef gconstpointer (*IvModelNotebookSource) (const IvModelFigureInfo *figure,
                                                gpointer user_data);

void iv_model_notebook_set_source (IvModelNotebook *self, IvModelNotebookSource source,
                                   gpointer user_data);
/* The page shown: a figure's name, "details" or "compare". */
const char *iv_model_notebook_get_page (IvModelNotebook *self);
/* The registry's entry of the page shown, or NULL on Details and Compare. */
const IvModelFigureInfo *iv_model_notebook_get_figure (IvModelNotebook *self);
/* Draws the page shown again; @dimmed greys the figures (the result is not current). */
void iv_model_notebook_redraw (IvModelNotebook *self, gboolean dimmed);

IvModelStages *iv_model_notebook_get_stages (IvModelNotebook *self);
/* The Details page's box (its content is the view's). */
GtkBox *iv_model_notebook_get_details_box (IvModelNotebook *self);
IvModelComparePage *iv_model_notebook_get_compare_page (IvModelNotebook *self);

/* The figures' own controls: the sharding's annotations, the sweep's axis, the serving
 * curve's request lengths. */
gboolean iv_model_notebook_get_annotate (IvModelNotebook *self);
IvSweepAxis iv_model_notebook_get_sweep_axis (IvModelNotebook *self);
void iv_model_notebook_get_lengths (IvModelNotebook *self, double *isl, double *osl);

G_END_DECLS
