/* iv-runs-state.h: everything the Runs workspace shows, as one object with properties —
 * the sweep and the run shown alone, the plot and the custom plot's axes, the statistic
 * compared and the grouping, log axes, aiperf plot's numbers, the hardware, TP and model
 * the runs are set against, and the requests picked in a plot — with the part remembered
 * per folder as one serialise/restore pair. Controls bind to it; views redraw on its
 * notifications. GLib only: hardware and models are named, the window resolves them. */
#pragma once

#include <glib-object.h>

#include "iv-plot-configs.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

#define IV_TYPE_RUNS_STATE (iv_runs_state_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsState, iv_runs_state, IV, RUNS_STATE, GObject)

/* Properties, each notifying only on change:
 * "sweep" (pointer, read-only: iv_runs_state_set_sweep), "run" (guint: the run shown alone,
 * G_MAXUINT comparing; a change clears the picked requests and starts at the run's first
 * plot), "plot" (string: a preset of the configuration that applies, "custom" when
 * comparing, or "serving_bound" while "hardware" is set; a name that is none is refused),
 * "custom-x", "custom-y" (strings: a field key or metric tag), "statistic", "group-by" (strings or
 * NULL: each preset's own), "log-x", "log-y", "aiperf" (booleans: aiperf plot's numbers),
 * "hardware" (string: a hardware preset's name, NULL: no bound), "tp" (gint64: 0 the smallest that
 * fits), "model" (string: a preset's name, "@" and the path of a config.json, NULL: the model each
 * run names), "n-selected" (read-only: how many requests are picked). Changes made together
 * (g_object_set of several, set_sweep with restore inside g_object_freeze_notify) are dispatched
 * together: iv_runs_state_get_generation tells a view whether it has drawn them already.
 * "selection-changed" follows every change of the picked requests. */
IvRunsState *iv_runs_state_new (void);

/* Shows @sweep (kept alive by @owner, as are its plot configurations @configs, read by the
 * document loader; NULL: the built-in one), compared when it has several runs: the run,
 * statistic, grouping, picked requests and custom axes start over, the plot is the
 * comparison's first (log axes and the bound stay until a restore). */
void iv_runs_state_set_sweep (IvRunsState *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                              GObject *owner);
/* The sweep grew (new requests, runs or summaries): the run shown stays shown wherever new
 * runs put it, the plot and the choices stay; notifies "sweep". */
void iv_runs_state_grew (IvRunsState *self);
const IvSweep *iv_runs_state_get_sweep (IvRunsState *self);
/* The run shown: the one opened, or a sweep's only run; NULL while comparing. */
const IvRun *iv_runs_state_get_run (IvRunsState *self);
/* The plot configuration that applies to what is shown (the run's own or the
 * comparison's), and why the one found could not be read (NULL if it could). */
const IvPlotConfig *iv_runs_state_get_config (IvRunsState *self, const char **error);
/* The presets listed for what is shown (IvPlotSpec*, owned by the configuration). */
GPtrArray *iv_runs_state_get_presets (IvRunsState *self);

const char *iv_runs_state_get_plot (IvRunsState *self);
const char *iv_runs_state_get_custom_x (IvRunsState *self);
const char *iv_runs_state_get_custom_y (IvRunsState *self);
const char *iv_runs_state_get_statistic (IvRunsState *self);
const char *iv_runs_state_get_group_by (IvRunsState *self);
gboolean iv_runs_state_get_aiperf (IvRunsState *self);
const char *iv_runs_state_get_hardware (IvRunsState *self);
gint64 iv_runs_state_get_tp (IvRunsState *self);
const char *iv_runs_state_get_model (IvRunsState *self);
/* The model "model" names was read (a config.json, off the main thread): what depends on
 * it redraws, through a notification of "model". */
void iv_runs_state_model_loaded (IvRunsState *self);

/* Picks @request, or unpicks it when it was picked. */
void iv_runs_state_toggle_request (IvRunsState *self, guint32 request);
void iv_runs_state_clear_selection (IvRunsState *self);
/* guint32 requests, in the order they were picked. */
const GArray *iv_runs_state_get_selection (IvRunsState *self);

/* Counts the batches of notifications dispatched: equal before and after a handler ran,
 * nothing changed in between. */
guint64 iv_runs_state_get_generation (IvRunsState *self);

/* What is remembered for a folder — hardware, TP, model, plot and custom axes — as text
 * (a GVariant a{ss}); NULL when all are at their defaults. */
char *iv_runs_state_serialize (IvRunsState *self);
/* Sets what @text (iv_runs_state_serialize's, or the older "hardware:tp:model") says, the
 * rest to its defaults; NULL or unreadable text: all defaults. A plot the configuration
 * does not list leaves the first. */
void iv_runs_state_restore (IvRunsState *self, const char *text);

G_END_DECLS
