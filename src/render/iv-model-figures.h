/* iv-model-figures.h: the Model workspace's figures in one registry. The window builds a
 * tab and a page per entry, the command line's --figure takes the names (its help and
 * its refusal list them from here), the bench and the tests iterate it. Adding a Model
 * figure is one entry here, its renderer and its test. No GTK: the command line uses it. */
#pragma once

#include "iv-render-model.h"
#include "iv-render-serving.h"

G_BEGIN_DECLS

/* What a figure's renderer takes as its data. */
typedef enum
{
  IV_MODEL_FIGURE_OF_RESULT,  /* an IvModelFigure: one evaluated configuration */
  IV_MODEL_FIGURE_OF_SERVING, /* an IvServingFigure: the serving curve (§10) swept from it */
} IvModelFigureInput;

typedef struct
{
  const char *name;    /* --figure NAME, the window's page, the exported file's name */
  const char *title;   /* the tab's label, marked N_(): translate with _() where shown */
  const char *tooltip; /* the tab's tooltip (N_()), or NULL */
  IvRenderFunc render;
  double width, height; /* the exported size when none is asked for, in 1/96 in */
  IvModelFigureInput input;
} IvModelFigureInfo;

/* Every figure, in the window's tab order; @n_figures gets the count. */
const IvModelFigureInfo *iv_model_figures (guint *n_figures);
/* The figure named @name, or NULL. */
const IvModelFigureInfo *iv_model_figure_find (const char *name);
/* The names as a list for a sentence: "pipeline, stages, … or serving". */
char *iv_model_figure_names (void);

G_END_DECLS
