/* iv-trace.h: a loaded trace as columns: processes, tracks, rows (a track's nesting
 * depths), slices ordered by row then start, instants, counter series and flows. Plain
 * data shared read-only by the queries, the analyses and the timeline. */
#pragma once

#include <gio/gio.h>

#include "iv-intern.h"
#include "iv-json-stream.h"
#include "iv-trace-info.h"

G_BEGIN_DECLS

#define IV_TRACE_COARSE 64

/* Every time in a trace (start and end, in ns) lies in (−IV_TRACE_TIME_MAX,
 * IV_TRACE_TIME_MAX]: ±146 years around whatever the clock's zero is, so any two times
 * can be subtracted and any slice's start and duration added without overflowing. */
#define IV_TRACE_TIME_MAX (G_GINT64_CONSTANT (1) << 62)

/* Candidate numbers of pipelined timelines lie in [0, IV_CANDIDATE_MAX]: windows of them
 * (first + count) are then sums that cannot overflow. */
#define IV_CANDIDATE_MAX (G_GINT64_CONSTANT (1) << 40)

/* Sums of many durations (a name's total time) can pass what 64 bits hold on a hostile
 * trace; they stop at the limit instead of wrapping. */
static inline gint64
iv_trace_add_ns (gint64 a, gint64 b)
{
  gint64 r;
  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

typedef enum
{
  IV_TRACE_CHROME,
  IV_TRACE_PIPELINED,
} IvTraceFormat;

typedef enum
{
  IV_PROCESS_OTHER,
  IV_PROCESS_CPU,
  IV_PROCESS_GPU,
} IvProcessKind;

/* What a track holds. A GPU track is a thread track (Kineto: pid = device, tid =
 * stream) holding GPU work — kernels, copies, sets — GPU user annotations and stream
 * syncs, and nothing else (their categories decide; `stream N` thread names and `GPU N`
 * processes are the fallback). Its rows are not call stacks: see IvRowKind. */
typedef enum
{
  IV_TRACK_THREAD,
  IV_TRACK_GPU,
  IV_TRACK_ASYNC,
  IV_TRACK_COUNTER,
  IV_TRACK_LANE, /* pipelined timelines: main, io, gpu0, gpu1 */
} IvTrackKind;

/* What a row of a track holds, in the order a track's rows come. Slices of a nested kind
 * form call stacks (depth 0, 1, …, then overflow rows for partial overlaps); slices of a
 * list kind never nest: each goes on the first row free at its start, row 0 or an
 * overflow row, so overlapping kernels are all drawn and all counted. */
typedef enum
{
  IV_ROW_NESTED,         /* thread, async and lane tracks: call stacks */
  IV_ROW_GPU_ANNOTATION, /* gpu_user_annotation ranges on a GPU track: nested, never work */
  IV_ROW_GPU_WORK,       /* kernels, copies, sets, profiled kernel ranges: a list */
  IV_ROW_GPU_SYNC,       /* cuda_sync waits: a list, never work */
  IV_ROW_GPU_OTHER,      /* any other category on a GPU track: nested, never work */
  IV_N_ROW_KINDS,
} IvRowKind;

typedef struct
{
  char *key; /* pid as text: "25738" and 25738 are one process */
  char *name;
  char *labels;
  gint64 sort_index;
  IvProcessKind kind;
  int gpu_index; /* -1 unless a GPU device */
} IvProcess;

typedef struct
{
  guint process;
  char *key; /* tid as text, or the async/counter name */
  char *name;
  gint64 sort_index;
  IvTrackKind kind;
  guint first_row, n_rows;
  guint first_series, n_series; /* counters */
} IvTrack;

typedef struct
{
  guint track;
  guint depth;       /* rows of one kind in a track are depth 0, 1, …, then overflow rows */
  guint8 kind;       /* IvRowKind */
  gboolean overflow; /* slices that partially overlap their parent (lists: overlap row 0) */
  gsize first, n;    /* range in the slice columns */
} IvRow;

typedef struct
{
  gint64 ts_ns;
  guint32 name;
  guint track; /* G_MAXUINT: global */
  char scope;  /* 'g', 'p', 't' */
} IvInstant;

typedef struct
{
  guint32 name;
  guint track;
  gsize first, n; /* range in the sample columns */
  double min, max;
  /* the samples were changes (Kineto's [memory] "Bytes"): the values are their running
   * sum in time order, from 0 where the trace began */
  gboolean cumulative;
} IvCounterSeries;

typedef struct
{
  gsize from, to; /* slice indices; G_MAXSIZE when unbound */
  gint64 from_ns, to_ns;
  guint32 name, cat;
} IvFlow;

/* A pipelined-timeline candidate (one pipeline iteration). */
typedef struct
{
  gint64 id;
  gint64 io_start_ns, io_end_ns; /* merged I/O of the candidate, -1 if none */
  gint64 gpu_start_ns, gpu_end_ns;
  gint64 io_hidden_ns, io_exposed_ns;
  gint buffer;
} IvCandidate;

/* A growable array whose growth can fail (iv-big-alloc memory): a trace's arrays are sized
 * by its file, and running out of memory there is an error the loader reports, not
 * GLib's abort (GArray and GPtrArray abort when they cannot grow). Read as a GArray is:
 * g_array_index (a, T, i) and a->len; an array of pointers as a GPtrArray is: a->pdata[i]. */
typedef struct
{
  union
  {
    gchar *data;
    gpointer *pdata;
  };
  guint len;
  guint capacity;
  guint item_size;
} IvGrowArray;

typedef struct
{
  IvTraceFormat format;
  char *path;
  IvIntern *strings;
  IvGrowArray *processes; /* IvProcess* (->pdata[i]) */
  IvGrowArray *tracks;    /* IvTrack, ordered for display */
  guint n_derived_tracks; /* of @tracks, those made from the others (queue length),
                           * not in the file: counts of the file's tracks leave them out */
  IvGrowArray *rows;      /* IvRow, grouped by track */

  /* slices, ordered by row, then start */
  gsize n_slices;
  gint64 *start_ns, *dur_ns, *self_ns;
  guint32 *name, *cat;
  guint64 *args_off; /* decompressed byte offset of the "args" object, or 0 */
  guint32 *args_len;
  guint32 *row;           /* the row of each slice */
  gint64 *coarse_start;   /* start_ns of every IV_TRACE_COARSE-th slice: a cache-sized
                           * index for searches over millions of slices */
  gint64 *coarse_max_dur; /* the longest slice of each block of IV_TRACE_COARSE */

  gsize n_async_slices;
  IvGrowArray *instants; /* IvInstant, by time */
  IvGrowArray *series;   /* IvCounterSeries */
  gsize n_samples;
  gint64 *sample_ns;
  double *sample_value;
  IvGrowArray *flows; /* IvFlow */
  gsize n_dangling_flows;

  gint64 t0_ns, t1_ns; /* the extent of everything in the trace */
  guint max_depth;
  GPtrArray *warnings; /* char*, one sentence each */
  gboolean truncated;
  /* Nesting under profiler rounding: a child ending at most overlap_tolerance_ns after
   * its parent is drawn nested; its duration stays as recorded. */
  gint64 overlap_tolerance_ns;
  guint64 n_overrun;       /* children that end after their parent, within the tolerance */
  gint64 max_overrun_ns;   /* by how much, at most */
  guint64 n_partial;       /* slices past the tolerance: drawn on overflow rows */
  guint64 n_list_overlaps; /* GPU kernels (or syncs) overlapping another: overflow rows */
  GArray *open_names;      /* guint32 names of B/b events never closed, each once, in order seen */
  /* Spans that did not end (a B without its E, an async b without its e): drawn to the
   * end of the trace, kept out of the statistics unless asked for. A bit per slice, NULL
   * when there are none. */
  guint8 *open_bits;
  gsize n_open;
  IvTraceInfo *info; /* what the file says about itself: metadata, distributedInfo, devices */

  /* pipelined timelines */
  IvGrowArray *candidates; /* IvCandidate */
  gint64 start_candidate, num_candidates;
} IvTrace;

IvTrace *iv_trace_load (const char *path, IvProgressFunc progress, gpointer progress_data,
                        GCancellable *cancellable, GError **error);
IvTrace *iv_trace_load_input (IvInput *input, const char *path, IvProgressFunc progress,
                              gpointer progress_data, GCancellable *cancellable, GError **error);
void iv_trace_free (IvTrace *trace);
/* How far (ns) a slice may end after the slice it starts in and still be drawn as its
 * child: profilers round times (Kineto to whole microseconds), so children overrun
 * parents by up to 1 µs, the default. It decides only the row a slice is drawn on; every
 * duration stays as recorded. Set on the main thread before loading (the command line's
 * --overlap-tolerance); a load reads it once. */
void iv_trace_set_overlap_tolerance (gint64 ns);
gint64 iv_trace_get_overlap_tolerance (void);
const char *iv_trace_string (const IvTrace *trace, guint32 id);
gsize iv_trace_memory_bytes (const IvTrace *trace);
/* The arguments of a slice as JSON text, read back from the file on demand. */
char *iv_trace_slice_args (const IvTrace *trace, gsize slice, GError **error);
/* The arguments of many slices, read back in one pass over the file: @func gets each
 * slice of @slices that has arguments, in the file's order, with their JSON text. FALSE
 * with @error when the file cannot be read again as it was loaded. */
typedef void (*IvTraceArgsFunc) (const IvTrace *trace, gsize slice, const char *json,
                                 gpointer data);
gboolean iv_trace_args_foreach (const IvTrace *trace, const gsize *slices, gsize n,
                                IvTraceArgsFunc func, gpointer data, GError **error);
/* The row holding slice @slice's parent (depth − 1 of its track), or the slice itself. */
gsize iv_trace_parent (const IvTrace *trace, gsize slice);
/* Whether slice @slice did not end (its begin was never closed). */
static inline gboolean
iv_trace_slice_is_open (const IvTrace *trace, gsize slice)
{
  return trace->open_bits && (trace->open_bits[slice / 8] >> (slice % 8) & 1);
}
/* The kind of row slice @slice is on (IvRowKind). */
IvRowKind iv_trace_slice_row_kind (const IvTrace *trace, gsize slice);
/* What a category makes a slice on a GPU track (IvRowKind), by Kineto's names: kernel,
 * gpu_memcpy, gpu_memset (2021: Kernel, Memcpy, Memset), cuda_profiler_range and
 * mtia_ccp_events are work; gpu_user_annotation an annotation; cuda_sync a sync;
 * IV_ROW_NESTED for anything else (which on a GPU track is IV_ROW_GPU_OTHER). */
IvRowKind iv_trace_gpu_category_kind (const char *cat);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTrace, iv_trace_free)

G_END_DECLS
