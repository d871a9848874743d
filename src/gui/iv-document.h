/* iv-document.h: one thing the user opened (a run, a sweep, a trace, a model
 * configuration), with its loading state. */
#pragma once

#include <gio/gio.h>

#include "iv-plot-configs.h"
#include "iv-sniff.h"
#include "iv-sweep.h"
#include "iv-trace-job.h"
#include "iv-trace.h"

G_BEGIN_DECLS

typedef enum
{
  IV_DOCUMENT_LOADING,
  IV_DOCUMENT_READY,
  IV_DOCUMENT_FAILED,
} IvDocumentState;

#define IV_TYPE_DOCUMENT (iv_document_get_type ())
G_DECLARE_FINAL_TYPE (IvDocument, iv_document, IV, DOCUMENT, GObject)

IvDocument *iv_document_new (GFile *file);
/* Several rank traces opened together as one distributed job (its file: the first one's
 * folder). A folder of rank traces opened with iv_document_new is a job too. */
IvDocument *iv_document_new_job (GFile **files, guint n_files);
/* @job_doc's distributed job on the wall clock (@aligned FALSE) or aligned on its
 * collectives, as a new document to load (iv_document_load_async builds it from
 * @job_doc's, which it holds meanwhile) and show in @job_doc's place: a job shown is never
 * changed under the pages and workers reading it. */
IvDocument *iv_document_new_realigned (IvDocument *job_doc, gboolean aligned);
/* A distributed job's ranks and their joined trace (iv_document_get_trace gives the
 * same trace), or NULL. */
IvTraceJob *iv_document_get_job (IvDocument *self);
GFile *iv_document_get_file (IvDocument *self);
const char *iv_document_get_title (IvDocument *self);
const char *iv_document_get_subtitle (IvDocument *self);
IvDocumentState iv_document_get_state (IvDocument *self);
double iv_document_get_progress (IvDocument *self);
IvGroup iv_document_get_group (IvDocument *self);
const IvSniffResult *iv_document_get_info (IvDocument *self);
const char *iv_document_get_icon_name (IvDocument *self);
const IvTrace *iv_document_get_trace (IvDocument *self);
/* The candidate breakdown files found beside a pipelined trace when it was loaded
 * (IvBreakdownFile*), or NULL. */
const GPtrArray *iv_document_get_breakdowns (IvDocument *self);
/* The plot configurations of a run or sweep document, read with its runs. */
const IvPlotConfigs *iv_document_get_plot_configs (IvDocument *self);
/* The runs of a run or sweep document, once loaded. */
const IvSweep *iv_document_get_sweep (IvDocument *self);
void iv_document_load_async (IvDocument *self, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data);
gboolean iv_document_load_finish (IvDocument *self, GAsyncResult *result, GError **error);
void iv_document_cancel (IvDocument *self);
/* A run or sweep still being written is followed: "runs-changed" says it grew (or that
 * a run stopped being live), "follow-stopped" (const char *why) that a run could no
 * longer be followed and why. This reads what was written since the last read at once. */
void iv_document_follow_now (IvDocument *self);

G_END_DECLS
