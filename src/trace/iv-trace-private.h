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

/* IvGrowArray (iv-trace.h): the builder's big arrays and the trace's own. */
IvGrowArray *_iv_grow_array_new (guint item_size);
void _iv_grow_array_free (IvGrowArray *array);
/* FALSE (nothing added) when the memory for it cannot be had. */
gboolean _iv_grow_array_append (IvGrowArray *array, const void *item);
gboolean _iv_grow_array_reserve (IvGrowArray *array, gsize n);
/* NULL when the memory for @n items cannot be had. */
IvGrowArray *_iv_grow_array_sized_new (guint item_size, gsize n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvGrowArray, _iv_grow_array_free)

/* @a, @b and (unless NULL) @c joined by 0x1f, interned in @pool; IV_INTERN_NONE when out
 * of memory. Keys are never cut, however long. */
guint32 _iv_trace_intern_joined (IvIntern *pool, const char *a, const char *b, const char *c);
/* Fills @t's coarse index (coarse_start, coarse_max_dur: allocated for n_slices) from its
 * start and duration columns. */
void _iv_trace_index_coarse (IvTrace *t);
/* A stable sort (a merge sort) whose scratch is tried: FALSE, @base as it was, when out of
 * memory. Items of at most 64 bytes. */
gboolean _iv_trace_sort (void *base, gsize n, gsize size, GCompareDataFunc compare, gpointer data);

/* What the builder's lookups answer when the memory for a new entry cannot be had (the
 * builder is then out of memory, and the load stops with an error). */
#define IV_BUILDER_NONE G_MAXUINT

/* An async span open in file order (iv-trace-chrome.c): its track and nesting depth. */
typedef struct
{
  guint track, depth;
} IvAsyncOpen;

typedef struct
{
  IvTrace *trace;
  /* Keys to indices, as string pools whose ids are the indices: a pool's lookups and
   * growth can fail without aborting (a GHashTable's cannot). */
  IvIntern *process_keys; /* pid → process */
  IvIntern *track_keys;   /* "pid\x1fkind\x1ftid" → track */
  IvIntern *series_keys;  /* "track\x1fname" → series */
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
  IvGrowArray *open_raw;       /* guint32: slices made of a begin never closed */
  gboolean too_deep;           /* a track's rows passed IV_TRACE_LEVEL_MAX: the load fails */
  IvIntern *async_keys;        /* "pid\x1fcat\x1fid" → its IvAsyncOpen in async_open */
  IvGrowArray *async_open;     /* IvAsyncOpen (depth 0: none open) */
  gsize window;                /* the Chrome reader's window in bytes; 0: its default (fuzzing
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
/* A new string of the trace's pool, or 0 (the empty string) when the memory cannot be
 * had, the builder then marked out of memory. */
guint32 _iv_trace_builder_intern (IvTraceBuilder *b, const char *str, gssize len);
/* The error for a builder that ran out of memory after @events events. */
void _iv_trace_set_oom_error (IvTraceBuilder *b, guint64 events, GError **error);

/* Rows of one kind in a track are numbered up to this (nesting depth or overflow row). */
#define IV_TRACE_LEVEL_MAX ((1u << 28) - 1)

/* Self times over one group of slices that nest (a thread's, a GPU track's annotations):
 * every instant of [@clip_lo, @clip_hi) that the group is busy goes to the innermost
 * slice covering it — of those closed, the one that started last (@order: the ids by
 * start, longer first; later is further in). A slice that did not end (@open_bits, by
 * id; NULL: none) takes only what no closed slice covers, so what did not end never
 * changes a closed slice's self time. @self[id] receives each one's. FALSE when out of
 * memory. */
gboolean _iv_trace_attribute_self (const gint64 *start_ns, const gint64 *dur_ns,
                                   const guint32 *order, gsize n, const guint8 *open_bits,
                                   gint64 clip_lo, gint64 clip_hi, gint64 *self);

/* Decimal text ("1712195495520014.900", "-3", "1.5e3") in µs → int64 ns. */
gboolean _iv_trace_parse_us (const char *text, gsize len, gint64 *ns);

gboolean _iv_trace_load_chrome (IvTraceBuilder *b, IvInput *input, IvProgressFunc progress,
                                gpointer progress_data, GCancellable *cancellable, GError **error);
gboolean _iv_trace_load_pipelined (IvTraceBuilder *b, IvInput *input, GCancellable *cancellable,
                                   GError **error);

G_END_DECLS
