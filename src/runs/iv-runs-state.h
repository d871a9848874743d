/* iv-runs-state.h: what the Runs workspace shows of the runs, as one object with
 * properties — the statistic compared ("avg", "p90", …; NULL: each preset's own), the field
 * runs are grouped by (NULL: the preset's own), log axes, and the requests picked in a
 * plot. Controls bind to it; the view redraws on its notifications. GLib only. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define IV_TYPE_RUNS_STATE (iv_runs_state_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsState, iv_runs_state, IV, RUNS_STATE, GObject)

/* Properties: "statistic", "group-by" (strings or NULL), "log-x", "log-y" (booleans),
 * "n-selected" (read-only: how many requests are picked). Each notifies only on change.
 * "selection-changed" follows every change of the picked requests. */
IvRunsState *iv_runs_state_new (void);
const char *iv_runs_state_get_statistic (IvRunsState *self);
const char *iv_runs_state_get_group_by (IvRunsState *self);
/* Picks @request, or unpicks it when it was picked. */
void iv_runs_state_toggle_request (IvRunsState *self, guint32 request);
void iv_runs_state_clear_selection (IvRunsState *self);
/* guint32 requests, in the order they were picked. */
const GArray *iv_runs_state_get_selection (IvRunsState *self);
/* New runs: statistic, grouping and selection back to none (log axes stay). */
void iv_runs_state_reset (IvRunsState *self);

G_END_DECLS
