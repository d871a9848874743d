/* iv-pipeline-plot.c: bars of the pipelined I/O timeline (see the header for the rules). */
#define G_LOG_DOMAIN "iv-trace"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "iv-pipeline-plot.h"

#include "iv-intervals.h"

#define LEGACY_WINDOW "Candidate_Eval_"

const char *
iv_lane_name (IvLane lane)
{
  switch (lane)
    {
    case IV_LANE_MAIN: return _("Main thread");
    case IV_LANE_IO: return _("I/O");
    case IV_LANE_GPU0: return _("GPU stream 0");
    case IV_LANE_GPU1: return _("GPU stream 1");
    case IV_N_LANES: break;
    }
  g_return_val_if_reached ("");
}

void
iv_pipeline_plot_free (IvPipelinePlot *plot)
{
  if (!plot)
    return;
  g_array_unref (plot->bars);
  g_ptr_array_unref (plot->names);
  g_free (plot);
}

/* N of "Candidate_Eval_N", or -1. */
static gint64
legacy_candidate (const char *name)
{
  const char *digits;
  char *end;
  gint64 n;

  if (!g_str_has_prefix (name, LEGACY_WINDOW))
    return -1;
  digits = name + strlen (LEGACY_WINDOW);
  if (!g_ascii_isdigit (*digits))
    return -1;
  n = g_ascii_strtoll (digits, &end, 10);
  return *end == '\0' && n <= IV_CANDIDATE_MAX ? n : -1;
}

static gboolean
legacy_is_io (const char *name)
{
  return g_str_has_prefix (name, "POSIX_Lustre_Read") || g_str_has_prefix (name, "IO_Wait_For_GPU");
}

static gboolean
legacy_is_compute (const char *name)
{
  return g_str_has_prefix (name, "Math_Operations") || g_str_has_prefix (name, "H2D_Transfer");
}

gboolean
iv_pipeline_plot_supported (const IvTrace *t)
{
  guint32 window;

  if (t->format == IV_TRACE_PIPELINED)
    return TRUE;
  /* Asked for every trace opened: the string pool answers for almost all of them, and
   * the rest compare ids, not text. */
  window = iv_intern_lookup (t->strings, LEGACY_WINDOW "0");
  if (window == IV_INTERN_NONE)
    return FALSE;
  for (gsize i = 0; i < t->n_slices; i++)
    if (t->name[i] == window)
      return TRUE;
  return FALSE;
}

static int
compare_bars (const void *pa, const void *pb)
{
  const IvPipelineBar *a = pa, *b = pb;
  if (a->lane != b->lane)
    return a->lane < b->lane ? -1 : 1;
  if (a->start_ns != b->start_ns)
    return a->start_ns < b->start_ns ? -1 : 1;
  return (a->end_ns > b->end_ns) - (a->end_ns < b->end_ns);
}

typedef struct
{
  gint64 id;
  gint64 io_start, io_end, gpu_start;
  guint n_io;
} CandidateSpan;

/* The candidates' spans in order of first appearance, indexed by id: a file of 50,000
 * candidates must not search the list once per event. */
typedef struct
{
  GArray *list;       /* CandidateSpan */
  GHashTable *index;  /* gint64* id → index + 1 */
} Spans;

static void
spans_clear (Spans *spans)
{
  g_clear_pointer (&spans->list, g_array_unref);
  g_clear_pointer (&spans->index, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Spans, spans_clear)

static CandidateSpan *
span_for (Spans *spans, gint64 id)
{
  CandidateSpan fresh = { id, G_MAXINT64, G_MININT64, G_MAXINT64, 0 };
  guint at = GPOINTER_TO_UINT (g_hash_table_lookup (spans->index, &id));

  if (!at)
    {
      g_array_append_val (spans->list, fresh);
      at = spans->list->len;
      g_hash_table_insert (spans->index, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (at));
    }
  return &g_array_index (spans->list, CandidateSpan, at - 1);
}

/* Adds one event: I/O of a candidate only widens its merged bar; the rest are bars. */
static void
add_event (GArray *bars, Spans *spans, IvLane lane, gsize slice, const char *name,
           gint64 start, gint64 end, gint64 candidate)
{
  IvPipelineBar bar = { lane, IV_BAR_EVENT, start, end, candidate, name, 1, slice };

  if (candidate >= 0)
    {
      CandidateSpan *s = span_for (spans, candidate);
      if (lane == IV_LANE_IO)
        {
          s->io_start = MIN (s->io_start, start);
          s->io_end = MAX (s->io_end, end);
          s->n_io++;
          return;
        }
      if (lane == IV_LANE_GPU0 || lane == IV_LANE_GPU1)
        s->gpu_start = MIN (s->gpu_start, start);
    }
  g_array_append_val (bars, bar);
}

/* Merged I/O bars, then the await_dispatch fills: the parts of [I/O end, GPU start) of
 * each candidate that no Main-lane bar covers, when at least IV_PIPELINE_FILL_MIN_NS. */
static void
merge_and_fill (GArray *bars, Spans *spans)
{
  g_autoptr (GArray) main_iv = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (bars, IvPipelineBar, i);
      if (b->lane == IV_LANE_MAIN)
        iv_intervals_add (main_iv, b->start_ns, b->end_ns);
    }
  /* Merged into their union, so each gap below starts at a binary search rather than at
   * the first Main bar (which was quadratic in candidates). */
  iv_intervals_merge (main_iv);

  for (guint k = 0; k < spans->list->len; k++)
    {
      const CandidateSpan *s = &g_array_index (spans->list, CandidateSpan, k);
      gint64 at;
      guint first;

      if (s->n_io == 0)
        continue;
      {
        IvPipelineBar io = { IV_LANE_IO, IV_BAR_MERGED_IO, s->io_start, s->io_end, s->id,
                             "I/O", s->n_io, G_MAXSIZE };
        g_array_append_val (bars, io);
      }
      if (s->gpu_start == G_MAXINT64 || s->gpu_start - s->io_end < IV_PIPELINE_FILL_MIN_NS)
        continue;
      /* Walk the gap, skipping what the Main lane covers (intervals sorted by start). */
      at = s->io_end;
      first = (guint) iv_intervals_first_ending_after (main_iv, at);
      for (guint i = first; i <= main_iv->len / 2 && at < s->gpu_start; i++)
        {
          gint64 lo = i < main_iv->len / 2 ? g_array_index (main_iv, gint64, 2 * i) : s->gpu_start;
          gint64 hi = i < main_iv->len / 2 ? g_array_index (main_iv, gint64, 2 * i + 1) : s->gpu_start;
          gint64 piece_end = MIN (lo, s->gpu_start);

          if (hi <= at)
            continue;
          if (piece_end - at >= IV_PIPELINE_FILL_MIN_NS)
            {
              IvPipelineBar fill = { IV_LANE_MAIN, IV_BAR_FILLED, at, piece_end, s->id,
                                     "await_dispatch", 0, G_MAXSIZE };
              g_array_append_val (bars, fill);
            }
          at = MAX (at, hi);
        }
    }
}

static gint64
candidate_of_category (const char *cat)
{
  if (!g_str_has_prefix (cat, "candidate "))
    return -1;
  return g_ascii_strtoll (cat + strlen ("candidate "), NULL, 10);
}

static IvLane
lane_of_key (const char *key)
{
  return g_str_equal (key, "main") ? IV_LANE_MAIN : g_str_equal (key, "io") ? IV_LANE_IO
         : g_str_equal (key, "gpu1") ? IV_LANE_GPU1 : IV_LANE_GPU0;
}

static void
collect_pipelined (const IvTrace *t, GArray *bars, Spans *spans)
{
  for (gsize i = 0; i < t->n_slices; i++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
      const IvTrack *track = &g_array_index (t->tracks, IvTrack, row->track);
      add_event (bars, spans, lane_of_key (track->key), i, iv_trace_string (t, t->name[i]),
                 t->start_ns[i], t->start_ns[i] + t->dur_ns[i],
                 candidate_of_category (iv_trace_string (t, t->cat[i])));
    }
}

typedef struct
{
  gint64 id, start, end;
  guint track, depth;
} EvalWindow;

static int
compare_windows (const void *pa, const void *pb)
{
  const EvalWindow *a = pa, *b = pb;
  if (a->id != b->id)
    return (a->id > b->id) - (a->id < b->id);
  return (a->start > b->start) - (a->start < b->start);
}

/* The PyTorch variant: the first Candidate_Eval_N slice of each N is candidate N's window;
 * POSIX_Lustre_Read* / IO_Wait_For_GPU* are its I/O, Math_Operations* / H2D_Transfer* its
 * compute (the first GPU track seen is stream 0, any other stream 1); the other children
 * of the window slices are the Main lane. */
static void
collect_legacy (const IvTrace *t, GArray *windows, GArray *bars, Spans *spans)
{
  guint gpu0_track = G_MAXUINT;

  for (gsize i = 0; i < t->n_slices; i++)
    {
      gint64 id = legacy_candidate (iv_trace_string (t, t->name[i]));
      const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
      if (id >= 0)
        {
          EvalWindow w = { id, t->start_ns[i], t->start_ns[i] + t->dur_ns[i], row->track, row->depth };
          g_array_append_val (windows, w);
        }
    }
  if (windows->len)
    qsort (windows->data, windows->len, sizeof (EvalWindow), compare_windows);
  /* keep the first window of each candidate */
  for (guint i = 1; i < windows->len;)
    if (g_array_index (windows, EvalWindow, i).id == g_array_index (windows, EvalWindow, i - 1).id)
      g_array_remove_index (windows, i);
    else
      i++;

  for (gsize i = 0; i < t->n_slices; i++)
    {
      const char *name = iv_trace_string (t, t->name[i]);
      const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
      gint64 start = t->start_ns[i], end = start + t->dur_ns[i], cand = -1;
      gboolean io = legacy_is_io (name), compute = legacy_is_compute (name), child = FALSE;
      IvLane lane;

      for (guint k = 0; k < windows->len; k++)
        {
          const EvalWindow *w = &g_array_index (windows, EvalWindow, k);
          if (start >= w->start && start < w->end)
            {
              cand = w->id;
              child = row->track == w->track && row->depth == w->depth + 1;
              break;
            }
        }
      if (io)
        lane = IV_LANE_IO;
      else if (compute)
        {
          if (gpu0_track == G_MAXUINT)
            gpu0_track = row->track;
          lane = row->track == gpu0_track ? IV_LANE_GPU0 : IV_LANE_GPU1;
        }
      else if (child)
        lane = IV_LANE_MAIN;
      else
        continue;
      add_event (bars, spans, lane, i, name, start, end, cand);
    }
}

IvPipelinePlot *
iv_pipeline_plot_new (const IvTrace *t, gint64 first, gint64 n, GError **error)
{
  g_autoptr (IvPipelinePlot) plot = g_new0 (IvPipelinePlot, 1);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));
  g_auto (Spans) spans = { g_array_new (FALSE, FALSE, sizeof (CandidateSpan)),
                           g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL) };
  g_autoptr (GArray) windows = g_array_new (FALSE, FALSE, sizeof (EvalWindow));
  const char *file = t->path ? t->path : _("the trace");

  plot->bars = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));
  plot->names = g_ptr_array_new ();
  plot->legacy = t->format != IV_TRACE_PIPELINED;
  plot->min_candidate = G_MAXINT64;
  plot->max_candidate = G_MININT64;

  if (plot->legacy)
    {
      collect_legacy (t, windows, all, &spans);
      /* sorted by id: the first is 0 when there is a Candidate_Eval_0 */
      if (windows->len == 0 || g_array_index (windows, EvalWindow, 0).id != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: no “Candidate_Eval_0” slice, so it is not a pipelined timeline"), file);
          return NULL;
        }
      for (guint k = 0; k < windows->len; k++)
        {
          plot->min_candidate = MIN (plot->min_candidate, g_array_index (windows, EvalWindow, k).id);
          plot->max_candidate = MAX (plot->max_candidate, g_array_index (windows, EvalWindow, k).id);
        }
    }
  else
    {
      collect_pipelined (t, all, &spans);
      for (guint k = 0; k < t->candidates->len; k++)
        {
          gint64 id = g_array_index (t->candidates, IvCandidate, k).id;
          plot->min_candidate = MIN (plot->min_candidate, id);
          plot->max_candidate = MAX (plot->max_candidate, id);
        }
    }
  merge_and_fill (all, &spans);

  if (plot->min_candidate > plot->max_candidate)
    {
      /* no candidates at all: the whole file, nothing to choose */
      plot->first_candidate = plot->n_candidates = 0;
      plot->t0_ns = t->t0_ns;
      plot->t1_ns = t->t1_ns;
    }
  else
    {
      if (first < 0)
        first = plot->legacy ? 0 : t->start_candidate;
      if (first < plot->min_candidate && first == 0 && !plot->legacy)
        first = plot->min_candidate; /* "start_candidate" absent: the first there is */
      if (n <= 0)
        n = plot->legacy ? 1 : MAX (1, t->num_candidates);
      if (first < plot->min_candidate || first > plot->max_candidate)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: there is no candidate %" G_GINT64_FORMAT " (candidates %"
                         G_GINT64_FORMAT "–%" G_GINT64_FORMAT ")"),
                       file, first, plot->min_candidate, plot->max_candidate);
          return NULL;
        }
      n = MIN (n, plot->max_candidate - first + 1);
      plot->first_candidate = first;
      plot->n_candidates = n;
      plot->t0_ns = G_MAXINT64;
      plot->t1_ns = G_MININT64;
      if (plot->legacy)
        for (guint k = 0; k < windows->len; k++)
          {
            const EvalWindow *w = &g_array_index (windows, EvalWindow, k);
            if (w->id >= first && w->id < first + n)
              {
                plot->t0_ns = MIN (plot->t0_ns, w->start);
                plot->t1_ns = MAX (plot->t1_ns, w->end);
              }
          }
      else
        for (guint i = 0; i < all->len; i++)
          {
            const IvPipelineBar *b = &g_array_index (all, IvPipelineBar, i);
            if (b->candidate >= first && b->candidate < first + n)
              {
                plot->t0_ns = MIN (plot->t0_ns, b->start_ns);
                plot->t1_ns = MAX (plot->t1_ns, b->end_ns);
              }
          }
      if (plot->t0_ns > plot->t1_ns)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("%s: candidates %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " have no events"),
                       file, first, first + n - 1);
          return NULL;
        }
    }

  for (guint i = 0; i < all->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (all, IvPipelineBar, i);
      gboolean inside = b->end_ns > b->start_ns ? b->end_ns > plot->t0_ns && b->start_ns < plot->t1_ns
                                                : b->start_ns >= plot->t0_ns && b->start_ns <= plot->t1_ns;
      if (inside)
        g_array_append_val (plot->bars, *b);
    }
  if (plot->bars->len)
    qsort (plot->bars->data, plot->bars->len, sizeof (IvPipelineBar), compare_bars);
  {
    /* names in order of first appearance; a set, since there may be thousands */
    g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
    for (guint i = 0; i < plot->bars->len; i++)
      {
        const char *name = g_array_index (plot->bars, IvPipelineBar, i).name;
        if (g_hash_table_add (seen, (gpointer) name))
          g_ptr_array_add (plot->names, (gpointer) name);
      }
  }
  return g_steal_pointer (&plot);
}

/* ---------- the runtime breakdown ---------- */

static int
compare_segments (const void *pa, const void *pb)
{
  const IvBreakdownSegment *a = pa, *b = pb;
  if (a->ms != b->ms)
    return a->ms > b->ms ? -1 : 1;
  return strcmp (a->name, b->name);
}

GArray *
iv_breakdown_fold (const IvBreakdown *bd, double min_pct)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (IvBreakdownSegment));
  IvBreakdownSegment other = { "Other", 0, 0, 0 };
  double total = 0;

  for (guint i = 0; i < bd->n_families; i++)
    total += MAX (0, bd->families[i].ms);
  if (total <= 0)
    return out;
  for (guint i = 0; i < bd->n_families; i++)
    {
      IvBreakdownSegment s = { bd->families[i].name, MAX (0, bd->families[i].ms), 0, 0 };
      s.pct = 100.0 * s.ms / total;
      if (s.ms <= 0)
        continue;
      if (s.pct < min_pct || s.name[0] == '_' || g_str_equal (s.name, "Other"))
        {
          other.ms += s.ms;
          other.n_folded++;
        }
      else
        g_array_append_val (out, s);
    }
  if (out->len)
    qsort (out->data, out->len, sizeof (IvBreakdownSegment), compare_segments);
  if (other.n_folded)
    {
      other.pct = 100.0 * other.ms / total;
      g_array_append_val (out, other);
    }
  return out;
}

void
iv_stack_widths (const double *frac, guint n, double total, double min_width, double *widths)
{
  g_autofree gboolean *pinned = g_new0 (gboolean, n);
  gboolean changed = TRUE;

  if (n == 0)
    return;
  if (min_width * n >= total)
    {
      for (guint i = 0; i < n; i++)
        widths[i] = total / n;
      return;
    }
  /* Pin segments below the minimum to it; the rest share what is left in proportion.
   * Shrinking the rest can push another under the minimum, hence the loop (≤ n rounds). */
  while (changed)
    {
      double free_total = total, free_frac = 0;
      changed = FALSE;
      for (guint i = 0; i < n; i++)
        if (pinned[i])
          free_total -= min_width;
        else
          free_frac += frac[i];
      for (guint i = 0; i < n; i++)
        {
          if (pinned[i])
            {
              widths[i] = min_width;
              continue;
            }
          widths[i] = free_frac > 0 ? free_total * frac[i] / free_frac : 0;
          if (widths[i] < min_width)
            {
              pinned[i] = TRUE;
              changed = TRUE;
            }
        }
    }
}
