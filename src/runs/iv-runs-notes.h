/* iv-runs-notes.h: what the numbers shown of runs hold and what was left out, composed once
 * for the window, the HTML report and the command line. */
#pragma once

#include "iv-sweep.h"

G_BEGIN_DECLS

typedef enum
{
  IV_RUNS_NOTE_NOT_LOADED, /* a run that did not load: one of the sweep's warnings */
  IV_RUNS_NOTE_OF_RUNS,    /* what the numbers of the runs it names hold (records, GPUs) */
  IV_RUNS_NOTE_WARNING,    /* a run's warning, which names its file */
  IV_RUNS_NOTE_DIFFER,     /* with a run alone: the metrics its records would tell otherwise */
} IvRunsNoteKind;

typedef struct
{
  char *text;
  GPtrArray *runs; /* const IvRun*, the runs it is said of; empty: said of the sweep */
  IvRunsNoteKind kind;
} IvRunsNote;

typedef enum
{
  IV_RUNS_NOTES_DEFAULT = 0,
  /* the GPU-count note: where per-GPU throughput is drawn (across runs) */
  IV_RUNS_NOTES_GPU = 1 << 0,
} IvRunsNotesFlags;

/* The notes on @sweep's runs, or on the run @only: the runs that did not load (not with
 * @only), each run's records-versus-summary note and GPU note (@flags), its warnings (which
 * name their file) and, with @only, the metrics whose records would tell them otherwise.
 * A note said of several runs comes once, with them. IvRunsNote*, in that order. */
GPtrArray *iv_runs_notes (const IvSweep *sweep, const IvRun *only, IvRunsNotesFlags flags);
/* @note as one line: its text alone for the sweep or one run shown alone (@only), "every
 * run: …" when it is said of all of several runs, else "run, run: …". */
char *iv_runs_note_line (const IvRunsNote *note, const IvSweep *sweep, const IvRun *only);

G_END_DECLS
