/* iv-trace-private.h: the builder the loaders fill and iv-trace.c turns into an
 * indexed IvTrace. */
#pragma once

#include "iv-trace.h"

G_BEGIN_DECLS

/* A slice before indexing, as a loader hands it over. */
typedef struct
{
  gint64 start_ns, dur_ns;
  guint64 args_off;
  guint32 args_len;
  guint32 name, cat;
  guint32 track;
} IvRawSlice;

/* The slices before indexing, kept as the columns they become (iv-big-alloc memory): the
 * finish step orders them in place and the track column turns into the row column, so a
 * load never holds the slices twice (peak memory close to the steady 48 B a slice). At
 * most IV_SLICES_MAX: the finish step's indices are 32-bit. */
typedef struct
{
  gsize len, capacity;
  gint64 *start_ns, *dur_ns;
  guint64 *args_off;
  guint32 *args_len, *name, *cat, *track;
} IvSliceColumns;

#define IV_SLICES_MAX (G_MAXUINT32 / 2)

/* A B/E or b/n/e event, matched into slices after loading (events are not sorted). */
typedef struct
{
  gint64 ts_ns;
  guint64 seq;
  guint64 args_off;
  guint32 args_len;
  guint32 name, cat;
  guint32 track;
  guint32 key; /* async: interned cat+id; B/E: unused */
  char ph;
} IvRawEdge;

typedef struct
{
  gint64 ts_ns;
  guint32 track; /* the thread it was emitted on */
  guint32 key;   /* interned cat+name+id */
  guint32 name, cat;
  char ph;            /* s, t, f */
  gboolean enclosing; /* bp: "e" */
  guint64 seq;
} IvRawFlow;

typedef struct
{
  gint64 ts_ns;
  guint32 series;
  double value;
} IvRawSample;

/* A growable array whose growth can fail: the builder's big arrays hold millions of
 * events, and running out of memory there must be an error the user reads ("out of
 * memory after N events"), not GLib's abort. Its first two fields are named as GArray's,
 * so g_array_index() reads it. */
typedef struct
{
  gchar *data;
  guint len;
  guint capacity;
  guint item_size;
} IvGrowArray;

IvGrowArray *_iv_grow_array_new (guint item_size);
void _iv_grow_array_free (IvGrowArray *array);
/* FALSE (nothing added) when the memory for it cannot be had. */
gboolean _iv_grow_array_append (IvGrowArray *array, const void *item);
gboolean _iv_grow_array_reserve (IvGrowArray *array, gsize n);

typedef struct
{
  IvTrace *trace;
  GHashTable *process_index; /* pid key → index + 1 */
  GHashTable *track_index;   /* "pid\x1ftid", "pid\x1fasync\x1fname", … → index + 1 */
  GHashTable *series_index;  /* "track\x1fname" → index + 1 */
  IvSliceColumns slices;
  IvGrowArray *edges;       /* B/E */
  IvGrowArray *async_edges; /* b/n/e */
  IvGrowArray *flows;       /* IvRawFlow */
  IvGrowArray *samples;     /* IvRawSample */
  gboolean out_of_memory;   /* an append failed: the load stops with an error */
  guint64 seq;
  /* The last tracks looked up: consecutive events mostly come from a few threads. */
  struct
  {
    char pid[64], tid[64];
    IvTrackKind kind;
    guint track;
    gboolean used;
  } cache[64];
  /* counts for the warnings */
  guint64 skipped[128]; /* by phase letter */
  guint64 no_ts;
  guint64 unknown_phase;
  gint64 overlap_tolerance_ns; /* read once per load: iv_trace_set_overlap_tolerance () */
  guint64 text_counter_values; /* counter args that are not numbers: reported, not drawn */
  GHashTable *async_open; /* "pid\x1fcat\x1fid" → open async spans (track, depth), in file order */
  gsize window;           /* the Chrome reader's window in bytes; 0: its default (fuzzing
                           * sets a few bytes, so every event is cut by a refill) */
} IvTraceBuilder;

IvTraceBuilder *_iv_trace_builder_new (const char *path, IvTraceFormat format);
void _iv_trace_builder_free (IvTraceBuilder *b);
guint _iv_trace_builder_process (IvTraceBuilder *b, const char *pid);
guint _iv_trace_builder_track (IvTraceBuilder *b, const char *pid, const char *tid,
                               IvTrackKind kind);
guint _iv_trace_builder_series (IvTraceBuilder *b, guint track, const char *name);
void _iv_trace_warn (IvTrace *trace, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* NULL with @error when the memory for the indexed trace cannot be had. */
IvTrace *_iv_trace_builder_finish (IvTraceBuilder *b, GError **error);
/* Appends to one of the builder's arrays; on failure marks the builder out of memory. */
gboolean _iv_trace_builder_add (IvTraceBuilder *b, IvGrowArray *array, const void *item);
/* Appends a slice; on failure marks the builder out of memory. */
gboolean _iv_trace_builder_add_slice (IvTraceBuilder *b, const IvRawSlice *slice);
/* The error for a builder that ran out of memory after @events events. */
void _iv_trace_set_oom_error (IvTraceBuilder *b, guint64 events, GError **error);

/* Decimal text ("1712195495520014.900", "-3", "1.5e3") in µs → int64 ns. */
gboolean _iv_trace_parse_us (const char *text, gsize len, gint64 *ns);

gboolean _iv_trace_load_chrome (IvTraceBuilder *b, IvInput *input, IvProgressFunc progress,
                                gpointer progress_data, GCancellable *cancellable, GError **error);
gboolean _iv_trace_load_pipelined (IvTraceBuilder *b, IvInput *input, GCancellable *cancellable,
                                   GError **error);

G_END_DECLS
