/* iv-workspace-page.h: one workspace (Runs, Traces, Model) showing its selected item,
 * or what to open when it has none. */
#pragma once

#include <gtk/gtk.h>

#include "iv-document.h"
#include "iv-model-view.h"
#include "iv-pipelined-view.h"
#include "iv-ranks-view.h"
#include "iv-query-page.h"
#include "iv-runs-view.h"
#include "iv-timeline-view.h"
#include "iv-trace-analyses-view.h"
#include "iv-render.h"

G_BEGIN_DECLS

#define IV_TYPE_WORKSPACE_PAGE (iv_workspace_page_get_type ())
G_DECLARE_FINAL_TYPE (IvWorkspacePage, iv_workspace_page, IV, WORKSPACE_PAGE, GtkWidget)

IvGroup iv_workspace_page_get_group (IvWorkspacePage *self);
IvDocument *iv_workspace_page_get_document (IvWorkspacePage *self);
void iv_workspace_page_set_document (IvWorkspacePage *self, IvDocument *document);
void iv_workspace_page_set_has_samples (IvWorkspacePage *self, gboolean has_samples);
const IvFigure *iv_workspace_page_get_figure (IvWorkspacePage *self);
IvModelView *iv_workspace_page_get_model_view (IvWorkspacePage *self);
/* The Traces workspace's timeline, once a trace has been shown; NULL before. */
IvTimelineView *iv_workspace_page_get_timeline (IvWorkspacePage *self);
/* A distributed job's Ranks page and the bar over its timeline, once a trace has been
 * shown; NULL before. */
IvRanksView *iv_workspace_page_get_ranks_view (IvWorkspacePage *self);
IvJobBar *iv_workspace_page_get_job_bar (IvWorkspacePage *self);
/* The Traces workspace's Analyses page, once a trace has been shown; NULL before. */
IvTraceAnalysesView *iv_workspace_page_get_analyses (IvWorkspacePage *self);
/* The Query page of the Traces or Runs workspace (Alt+Q), once a trace or a run has been
 * shown; NULL before. */
IvQueryPage *iv_workspace_page_get_query (IvWorkspacePage *self);
/* The Runs workspace's view of runs, once a run has been shown; NULL before. */
IvRunsView *iv_workspace_page_get_runs (IvWorkspacePage *self);
/* Its pipeline view (hidden unless the trace is a pipelined timeline); NULL before. */
IvPipelinedView *iv_workspace_page_get_pipelined (IvWorkspacePage *self);

G_END_DECLS
