/* iv-cli-trace-diff.h: `inferview trace A B --diff`, for the trace command. */
#pragma once

#include "iv-cli-private.h"
#include "iv-trace.h"

G_BEGIN_DECLS

/* @a against @b, printed as a table or (@json) JSON. @steps: "N" compares ProfilerStep#N
 * of both, "N:M" step N of @a with step M of @b, NULL the whole traces. @top: the largest
 * changes listed, 0 for all (and drawn, at most 20, with @eo into @output, when not NULL,
 * instead of printed). The exit status, after one line on stderr when it fails. */
/* @names: what the user named (a file, or a job's folder); @jobs: which side is a
 * distributed job joined into one trace (its GPU busy summed per rank) */
int _iv_cli_trace_diff (const IvTrace *a, const IvTrace *b, const char *const names[2],
                        const gboolean jobs[2], const char *steps, gboolean json, guint top,
                        const char *output, const IvExportOptions *eo);

G_END_DECLS
