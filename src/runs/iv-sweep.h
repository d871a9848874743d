/* iv-sweep.h: what a set of paths holds — one run, a sweep of runs found at any depth
 * (sorted naturally), or several paths compared — and which configuration fields vary
 * across the runs, for grouping and labels. */
#pragma once

#include "iv-run.h"

G_BEGIN_DECLS

/* The configuration fields a run has, by key. */
typedef enum
{
  IV_FIELD_MODEL,
  IV_FIELD_CONCURRENCY,
  IV_FIELD_REQUEST_RATE,
  IV_FIELD_ISL,
  IV_FIELD_OSL,
  IV_FIELD_ENDPOINT_TYPE,
  IV_FIELD_STREAMING,
  IV_FIELD_REQUEST_COUNT,
  IV_N_FIELDS,
} IvField;

typedef struct
{
  GPtrArray *runs;     /* IvRun*, in discovery order */
  GPtrArray *varying;  /* GUINT_TO_POINTER (IvField) of fields that differ across runs */
  GPtrArray *warnings; /* char*: runs that could not be read, and why */
  char **paths;        /* what was opened */
  IvRunLoadFlags flags;
  /* followed: a run without its summary that has not grown for this long is incomplete,
   * no longer live (IV_RUN_LIVE_STALE_S; plot --watch sets its --linger) */
  guint stale_after_s;
  gboolean aiperf;      /* the run set aiperf plot finds (iv_sweep_load_aiperf) */
  gboolean label_model; /* run labels name the model (iv_sweep_run_label) */
} IvSweep;

/* What one iv_sweep_follow() found. */
typedef struct
{
  guint new_records, new_samples; /* over every run */
  guint new_runs;                 /* run folders that appeared */
  guint finished_runs;            /* runs whose summary appeared */
  guint stopped_runs;             /* runs no longer followed: a file became unreadable
                                   * (a FIFO, a device) or their folder went away */
  const char *stopped_why;        /* then the sentence saying which, when and why (one of
                                   * the run's warnings; valid until the next call) */
  guint incomplete_runs;          /* runs whose files stopped growing without a summary */
  const char *incomplete_why;     /* the last such run's sentence (as stopped_why) */
} IvSweepFollow;

/* Loads every run under @paths. A run that cannot be read is skipped with a warning;
 * when none can, the first failure is the error. */
IvSweep *iv_sweep_load (const char *const *paths, IvProgressFunc progress, gpointer progress_data,
                        GCancellable *cancellable, GError **error);
IvSweep *iv_sweep_load_full (const char *const *paths, IvRunLoadFlags flags,
                             IvProgressFunc progress, gpointer progress_data,
                             GCancellable *cancellable, GError **error);
/* For a sweep loaded with IV_RUN_LOAD_FOLLOW: reads what AIPerf appended to each live run
 * (at most @max_bytes per file and call; 0 reads everything, in bounded pieces), and with
 * @discover looks for run folders that appeared since (they join the sweep, followed
 * too). A run that can no longer be followed keeps what was read, stops being live and
 * says why among its warnings (out->stopped_why); the rest goes on. */
void iv_sweep_follow (IvSweep *sweep, gsize max_bytes, gboolean discover, IvSweepFollow *out);
/* The run folders `aiperf plot` finds under @paths, as its ModeDetector does: a folder with
 * both profile_export.jsonl and profile_export_aiperf.json (or their .zst), or with a
 * confidence aggregate that is not the twin of such a run; a per-trial profile_runs/
 * passed over when an aggregate/ beside it holds the cell; each folder once; in Python's
 * path order. Links out of an opened folder are not followed (aiperf follows them). NULL
 * with @error naming a path without one. */
GPtrArray *iv_aiperf_run_dirs (const char *const *paths, GError **error);
/* Those runs loaded (one that fails is left out with a warning, as aiperf plot does). */
IvSweep *iv_sweep_load_aiperf (const char *const *paths, GCancellable *cancellable, GError **error);
/* Runs AIPerf is still writing. */
guint iv_sweep_n_live (const IvSweep *sweep);
void iv_sweep_free (IvSweep *sweep);
const char *iv_field_key (IvField field);
const char *iv_field_title (IvField field);
/* A run's value of @field as text ("8", "Qwen/Qwen3-0.6B"), or NULL when absent. */
char *iv_run_field_text (const IvRun *run, IvField field);
/* The value as a number (NaN for text fields or when absent). */
double iv_run_field_number (const IvRun *run, IvField field);
/* A run's name for people, built from the fields that vary across the sweep, workload
 * first: "concurrency 8" when one field varies, "isl 1024 · osl 128 · c 16" when several;
 * the model only when it alone varies or the runs would read the same without it; the
 * run's folder name when nothing varies or the run lacks a varying field. The one name
 * of a run in the window's table, figures' legends and labels, the report and the CLI. */
char *iv_sweep_run_label (const IvSweep *sweep, const IvRun *run);
/* @run's label in two: @group, the values of every varying field but the last
 * ("1024/128", @group_title naming them: "ISL / OSL"), and @member, the last ("c 16").
 * For figures too narrow for whole labels: the runs of a group side by side, the member
 * told by colour. FALSE (nothing set) when fewer than two fields vary or @run lacks one. */
gboolean iv_sweep_run_label_split (const IvSweep *sweep, const IvRun *run, char **group,
                                   char **member, char **group_title);
/* Whether every run's label names its @field (a table need not repeat it in a column). */
gboolean iv_sweep_labels_name (const IvSweep *sweep, IvField field);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvSweep, iv_sweep_free)

G_END_DECLS
