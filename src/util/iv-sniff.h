/* iv-sniff.h: what an opened path is (an AIPerf run or sweep, a trace, a model
 * configuration), so the window and the command line route it to the right workspace. */
#pragma once

#include <gio/gio.h>

#include "iv-json-stream.h"

G_BEGIN_DECLS

typedef enum
{
  IV_KIND_UNKNOWN,
  IV_KIND_RUN,                 /* a folder holding one AIPerf run (or a file of one) */
  IV_KIND_SWEEP,               /* a folder holding several runs at any depth */
  IV_KIND_CHROME_TRACE,        /* Chrome Trace Event Format (PyTorch profiler, Chromium) */
  IV_KIND_PIPELINED_TIMELINE,  /* pipelined_timeline_v1/_v2 */
  IV_KIND_CANDIDATE_BREAKDOWN, /* candidate_breakdown_v1 */
  IV_KIND_HF_CONFIG,           /* a Hugging Face config.json: a model for the Model workspace */
} IvKind;

/* Folder discovery looks into at most this many folders (a sweep has tens; a symlink to
 * / would otherwise mean the whole disk). */
#define IV_SNIFF_MAX_FOLDERS 10000

typedef enum
{
  IV_GROUP_RUNS,
  IV_GROUP_TRACES,
  IV_GROUP_MODEL,
} IvGroup;

typedef struct
{
  IvKind kind;
  char *root;              /* the path to load: the run folder for a file inside a run */
  GPtrArray *runs;         /* run folders found (RUN, SWEEP), sorted naturally */
  gint64 events;           /* top-level events (traces) or request records (runs); -1 unknown */
  guint64 size;            /* bytes on disk */
  gboolean truncated;      /* a trace whose text ends early: usable up to there */
  gboolean events_partial; /* only the head was read: events is a lower bound */
  gboolean folders_cut;    /* a folder: discovery stopped at IV_SNIFF_MAX_FOLDERS */
  /* symbolic links inside the folder to folders outside it: not followed (discovery
   * stays in what was opened) — each link's path, and where it leads (resolved) */
  GPtrArray *links_out, *links_out_targets;
} IvSniffResult;

IvGroup iv_kind_get_group (IvKind kind);
const char *iv_kind_to_string (IvKind kind);

/* deep = FALSE decides from the first keys; TRUE also reads everything to count events. */
IvSniffResult *iv_sniff_path (const char *path, gboolean deep, IvProgressFunc progress,
                              gpointer progress_data, GCancellable *cancellable, GError **error);
/* As iv_sniff_path; a deep sniff counts only in the first @head_bytes of text of each
 * file (0: all of it), setting events_partial when there was more. */
IvSniffResult *iv_sniff_path_head (const char *path, gboolean deep, guint64 head_bytes,
                                   IvProgressFunc progress, gpointer progress_data,
                                   GCancellable *cancellable, GError **error);
IvSniffResult *iv_sniff_input (IvInput *input, gboolean deep, IvProgressFunc progress,
                               gpointer progress_data, GCancellable *cancellable, GError **error);
void iv_sniff_result_free (IvSniffResult *result);

/* @name without a .gz or .zst suffix (newly allocated). */
char *iv_sniff_strip_compression (const char *name);
int iv_natural_compare (const char *a, const char *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvSniffResult, iv_sniff_result_free)

G_END_DECLS
