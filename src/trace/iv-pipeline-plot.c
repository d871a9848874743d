/* iv-pipeline-plot.c: the reference script's rules for the pipelined I/O timeline (see
 * the header); times are the file's milliseconds as nanoseconds, thresholds likewise. */
#define G_LOG_DOMAIN "iv-trace"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iv-pipeline-plot.h"

#define MS 1000000              /* ns */
#define MAIN_MIN_NS (1 * MS)    /* MAIN_MIN_MS: shorter main events and gaps are not drawn */
#define COVER_EPS_NS 50000      /* 0.05 ms: a main bar "covers" a gap within this */
#define EDGE_CLIP_EPS_NS 500000 /* EDGE_CLIP_EPS_MS: cut only past this */
#define LABEL_MIN_NS (40 * MS)  /* CANDIDATE_LABEL_MIN_MS */
#define PAD_FRAC 0.03
#define LEGACY_WINDOW "Candidate_Eval_0"

const char *
iv_lane_name (IvLane lane, gboolean legacy)
{
  switch (lane)
    {
    case IV_LANE_MAIN:
      return _ ("Main Thread");
    case IV_LANE_IO:
      return legacy ? _ ("I/O") : _ ("I/O Thread");
    case IV_LANE_GPU0:
      return legacy ? _ ("GPU compute") : _ ("GPU Stream 0");
    case IV_LANE_GPU1:
      return _ ("GPU Stream 1");
    case IV_N_LANES:
      break;
    }
  g_return_val_if_reached ("");
}

const char *
iv_lane_key (IvLane lane)
{
  static const char *const keys[IV_N_LANES] = { "main", "io", "gpu0", "gpu1" };
  g_return_val_if_fail (lane < IV_N_LANES, "");
  return keys[lane];
}

void
iv_pipeline_plot_free (IvPipelinePlot *plot)
{
  if (!plot)
    return;
  g_array_unref (plot->bars);
  g_array_unref (plot->legend);
  g_free (plot);
}

/* The Candidate_Eval_0 slice that starts first (the reference takes the first in the
 * file, which for a profiler's output is the same one), or G_MAXSIZE. */
static gsize
legacy_window (const IvTrace *t)
{
  guint32 window = iv_intern_lookup (t->strings, LEGACY_WINDOW);
  gsize best = G_MAXSIZE;

  if (window == IV_INTERN_NONE)
    return G_MAXSIZE;
  for (gsize i = 0; i < t->n_slices; i++)
    if (t->name[i] == window && (best == G_MAXSIZE || t->start_ns[i] < t->start_ns[best]))
      best = i;
  return best;
}

gboolean
iv_pipeline_plot_supported (const IvTrace *t)
{
  return t->format == IV_TRACE_PIPELINED || legacy_window (t) != G_MAXSIZE;
}

static gint64
candidate_of (const IvTrace *t, gsize i)
{
  const char *cat = iv_trace_string (t, t->cat[i]);
  if (!cat || !g_str_has_prefix (cat, "candidate "))
    return -1;
  return g_ascii_strtoll (cat + strlen ("candidate "), NULL, 10);
}

static IvLane
lane_of (const IvTrace *t, gsize i)
{
  const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
  const char *key = g_array_index (t->tracks, IvTrack, row->track).key;
  return g_str_equal (key, "main")   ? IV_LANE_MAIN
         : g_str_equal (key, "io")   ? IV_LANE_IO
         : g_str_equal (key, "gpu1") ? IV_LANE_GPU1
                                     : IV_LANE_GPU0;
}

static gboolean
is_gpu (IvLane lane)
{
  return lane == IV_LANE_GPU0 || lane == IV_LANE_GPU1;
}

/* Per candidate of the I/O range: its buffer waits' and reads' extents. */
typedef struct
{
  gint64 wait_start, wait_end, read_start, read_end;
  guint n_waits, n_reads;
} IoSpan;

/* _events_for_plot, _merge_io_events, _fill_dispatch_gaps and _build_plot_events of the
 * reference: the bars before the window, I/O then main then GPU. */
static void
build_bars (const IvTrace *t, gint64 x, GArray *bars)
{
  gint64 gpu_min = x > 0 ? x - 1 : x, gpu_max = x + 4, main_min = x, main_max = x + 4;
  gint64 io_min = x, io_max = x + 5;
  IoSpan io[6] = { { 0 } };
  gint64 gpu_start[6];
  gboolean has_gpu[6] = { FALSE };
  g_autoptr (GArray) main_bars = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));
  g_autoptr (GArray) gpu_bars = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));

  for (gsize i = 0; i < t->n_slices; i++)
    {
      gint64 c = candidate_of (t, i), start = t->start_ns[i], end = start + t->dur_ns[i];
      IvLane lane = lane_of (t, i);
      const char *name = iv_trace_string (t, t->name[i]);
      IvPipelineBar bar = { lane, IV_BAR_EVENT, start, end, c, name, 1, i };

      if (c < 0)
        continue;
      if (lane == IV_LANE_IO && c >= io_min && c <= io_max)
        {
          IoSpan *s = &io[c - io_min];
          if (g_str_equal (name, "gpu_buffer_wait"))
            {
              s->wait_start = s->n_waits ? MIN (s->wait_start, start) : start;
              s->wait_end = s->n_waits ? MAX (s->wait_end, end) : end;
              s->n_waits++;
            }
          else if (g_str_equal (name, "hdf5_read"))
            {
              s->read_start = s->n_reads ? MIN (s->read_start, start) : start;
              s->read_end = s->n_reads ? MAX (s->read_end, end) : end;
              s->n_reads++;
            }
        }
      else if (lane == IV_LANE_MAIN && c >= main_min && c <= main_max && t->dur_ns[i] >= MAIN_MIN_NS
               && (g_str_equal (name, "wait_for_io") || g_str_equal (name, "await_dispatch")
                   || g_str_equal (name, "trsm_host")))
        g_array_append_val (main_bars, bar);
      else if (is_gpu (lane) && c >= gpu_min && c <= gpu_max && g_str_equal (name, "compute"))
        {
          g_array_append_val (gpu_bars, bar);
          /* the GPU start a gap runs to; with several, the latest (the reference keeps
           * the last one it reads, and files are written in time order) */
          if (c >= io_min && c <= io_max
              && (!has_gpu[c - io_min] || start >= gpu_start[c - io_min]))
            {
              gpu_start[c - io_min] = start;
              has_gpu[c - io_min] = TRUE;
            }
        }
    }

  /* one I/O bar per candidate */
  for (gint64 c = io_min; c <= io_max; c++)
    {
      const IoSpan *s = &io[c - io_min];
      IvPipelineBar bar = { IV_LANE_IO, IV_BAR_MERGED_IO,        0,        0, c,
                            "hdf5_io",  s->n_waits + s->n_reads, G_MAXSIZE };
      if (s->n_reads && s->n_waits)
        bar.start_ns = s->wait_end, bar.end_ns = s->read_end;
      else if (s->n_reads)
        bar.start_ns = s->read_start, bar.end_ns = s->read_end;
      else if (s->n_waits)
        bar.start_ns = s->wait_start, bar.end_ns = s->wait_end;
      else
        continue;
      if (bar.end_ns - bar.start_ns <= 0)
        continue;
      g_array_append_val (bars, bar);
    }

  /* await_dispatch where nothing on the main lane of that candidate covers the gap */
  for (guint k = 0; k < bars->len; k++)
    {
      const IvPipelineBar *b = &g_array_index (bars, IvPipelineBar, k);
      gint64 c = b->candidate, io_end = b->end_ns, gstart;
      gboolean covered = FALSE;
      if (!has_gpu[c - io_min])
        continue;
      gstart = gpu_start[c - io_min];
      if (gstart - io_end < MAIN_MIN_NS)
        continue;
      for (guint m = 0; m < main_bars->len && !covered; m++)
        {
          const IvPipelineBar *mb = &g_array_index (main_bars, IvPipelineBar, m);
          covered = mb->candidate == c && mb->start_ns <= io_end + COVER_EPS_NS
                    && mb->end_ns >= gstart - COVER_EPS_NS;
        }
      if (!covered)
        {
          IvPipelineBar fill
              = { IV_LANE_MAIN, IV_BAR_FILLED, io_end, gstart, c, "await_dispatch", 0, G_MAXSIZE };
          g_array_append_val (main_bars, fill);
        }
    }
  g_array_append_vals (bars, main_bars->data, main_bars->len);
  g_array_append_vals (bars, gpu_bars->data, gpu_bars->len);
}

/* _plot_window_bounds: from GPU x and I/O x+1; to the last end among x…x+3, plus 3 % of
 * the span (at least 1 ms). */
static void
window_bounds (const GArray *bars, gint64 x, gint64 *t0, gint64 *t1)
{
  gboolean anchored = FALSE, any_core = FALSE;
  gint64 start = 0, end = G_MININT64;
  double span;

  for (guint i = 0; i < bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (bars, IvPipelineBar, i);
      if ((is_gpu (b->lane) && b->candidate == x)
          || (b->lane == IV_LANE_IO && b->candidate == x + 1))
        {
          start = anchored ? MIN (start, b->start_ns) : b->start_ns;
          anchored = TRUE;
        }
      any_core |= b->candidate >= x && b->candidate <= x + 3;
    }
  for (guint i = 0; i < bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (bars, IvPipelineBar, i);
      if (!any_core || (b->candidate >= x && b->candidate <= x + 3))
        end = MAX (end, b->end_ns);
    }
  span = MAX ((double) (end - start), (double) MS);
  *t0 = start;
  *t1 = end + (gint64) llround (PAD_FRAC * span);
}

static void
add_key (GArray *legend, const char *label, const char *name)
{
  IvPipelineKey k = { label, name };
  g_array_append_val (legend, k);
}

/* Cuts, labels and the legend, for the bars the window shows. */
static void
finish (IvPipelinePlot *plot, GArray *all, gint64 x)
{
  gboolean seen_wait = FALSE, seen_dispatch = FALSE, seen_trsm = FALSE;

  for (guint i = 0; i < all->len; i++)
    {
      IvPipelineBar b = g_array_index (all, IvPipelineBar, i);
      gint64 lo, hi;

      plot->has_lane[b.lane] = TRUE;
      if (b.end_ns < plot->t0_ns || b.start_ns > plot->t1_ns)
        continue;
      if (b.lane == IV_LANE_MAIN)
        {
          seen_wait |= g_str_equal (b.name, "wait_for_io");
          seen_dispatch |= g_str_equal (b.name, "await_dispatch");
          seen_trsm |= g_str_equal (b.name, "trsm_host");
        }
      lo = MAX (b.start_ns, plot->t0_ns);
      hi = MIN (b.end_ns, plot->t1_ns);
      if (hi <= lo)
        continue;
      b.cut_left = b.start_ns < plot->t0_ns - EDGE_CLIP_EPS_NS;
      b.cut_right = b.end_ns > plot->t1_ns + EDGE_CLIP_EPS_NS;
      if (!plot->legacy && b.candidate >= 0 && hi - lo >= LABEL_MIN_NS)
        {
          if (b.lane == IV_LANE_IO && (b.cut_left || b.cut_right))
            b.labelled = FALSE;
          else
            b.labelled = b.candidate >= x || (is_gpu (b.lane) && b.cut_left);
        }
      g_array_append_val (plot->bars, b);
    }
  if (plot->legacy)
    return;
  if (seen_trsm)
    add_key (plot->legend, _ ("TRSM (host)"), "trsm_host");
  if (seen_wait)
    add_key (plot->legend, _ ("Wait for prefetch"), "wait_for_io");
  if (seen_dispatch)
    add_key (plot->legend, _ ("Ready → launch"), "await_dispatch");
  add_key (plot->legend, _ ("HDF5 read"), "hdf5_io");
  add_key (plot->legend, _ ("GPU compute"), "compute");
}

static gboolean
legacy_is_io (const char *name)
{
  return strstr (name, "POSIX_Lustre_Read") || g_str_equal (name, "IO_Wait_For_GPU");
}

static gboolean
legacy_is_compute (const char *name)
{
  return strstr (name, "Math_Operations") || strstr (name, "H2D_Transfer");
}

/* plot_pytorch_trace: the window is the first Candidate_Eval_0 widened by 2 % before and
 * 5 % after; every I/O and compute slice touching it is drawn whole. */
static void
build_legacy (IvPipelinePlot *plot, const IvTrace *t, gsize window)
{
  gint64 s = t->start_ns[window], d = t->dur_ns[window];
  gint64 lo = s - (gint64) llround (d * 0.02), hi = s + d + (gint64) llround (d * 0.05);

  for (gsize i = 0; i < t->n_slices; i++)
    {
      const char *name = iv_trace_string (t, t->name[i]);
      gint64 start = t->start_ns[i], end = start + t->dur_ns[i];
      IvPipelineBar bar = { IV_LANE_IO, IV_BAR_EVENT, start, end, -1, name, 1, i };
      if (end < lo || start > hi)
        continue;
      if (legacy_is_io (name))
        bar.lane = IV_LANE_IO;
      else if (legacy_is_compute (name))
        bar.lane = IV_LANE_GPU0;
      else
        continue;
      g_array_append_val (plot->bars, bar);
    }
  /* the reference's window; its bars are drawn whole, the axis reaching them */
  plot->t0_ns = lo;
  plot->t1_ns = hi;
}

IvPipelinePlot *
iv_pipeline_plot_new (const IvTrace *t, gint64 first, GError **error)
{
  g_autoptr (IvPipelinePlot) plot = g_new0 (IvPipelinePlot, 1);
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));
  const char *file = t->path ? t->path : _ ("the trace");

  plot->bars = g_array_new (FALSE, FALSE, sizeof (IvPipelineBar));
  plot->legend = g_array_new (FALSE, FALSE, sizeof (IvPipelineKey));
  plot->legacy = t->format != IV_TRACE_PIPELINED;
  plot->min_candidate = G_MAXINT64;
  plot->max_candidate = G_MININT64;

  if (plot->legacy)
    {
      gsize window = legacy_window (t);
      if (window == G_MAXSIZE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("%s: no “Candidate_Eval_0” slice, so it is not a pipelined timeline"),
                       file);
          return NULL;
        }
      plot->min_candidate = plot->max_candidate = plot->first_candidate = 0;
      build_legacy (plot, t, window);
      /* both lanes are always drawn */
      plot->has_lane[IV_LANE_IO] = plot->has_lane[IV_LANE_GPU0] = TRUE;
      return g_steal_pointer (&plot);
    }

  for (guint k = 0; k < t->candidates->len; k++)
    {
      gint64 id = g_array_index (t->candidates, IvCandidate, k).id;
      plot->min_candidate = MIN (plot->min_candidate, id);
      plot->max_candidate = MAX (plot->max_candidate, id);
    }
  if (first < 0)
    first = t->start_candidate;
  /* candidates are bounded on load; x+5 must not overflow */
  first = MIN (first, IV_CANDIDATE_MAX);
  plot->first_candidate = first;
  build_bars (t, first, all);
  if (all->len == 0)
    {
      if (plot->min_candidate > plot->max_candidate)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _ ("%s: no event names a candidate"), file);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _ ("%s: no events to draw for start candidate %" G_GINT64_FORMAT
                        " (GPU %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT ", main %" G_GINT64_FORMAT
                        "–%" G_GINT64_FORMAT ", I/O %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                        "; the file has candidates %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT ")"),
                     file, first, MAX (0, first - 1), first + 4, first, first + 4, first, first + 5,
                     plot->min_candidate, plot->max_candidate);
      return NULL;
    }
  window_bounds (all, first, &plot->t0_ns, &plot->t1_ns);
  finish (plot, all, first);
  return g_steal_pointer (&plot);
}

/* ---------- the GPU runtime breakdown ---------- */

GArray *
iv_breakdown_segments (const IvBreakdown *bd)
{
  static const struct
  {
    const char *family;
    const char *label;
    guint32 rgb;
  } groups[3] = {
    { "cast", N_ ("Preprocess"), 0xAA3377 },
    { "trsm", N_ ("Triangular Solve"), 0x004488 },
    { "gemm_chol", N_ ("Cholesky + Schur Complement"), 0xC9A227 },
  };
  GArray *out = g_array_new (FALSE, FALSE, sizeof (IvBreakdownSegment));
  double ms[3] = { 0, 0, 0 }, total = 0, boosted = 0;

  for (guint i = 0; i < bd->n_families; i++)
    {
      const char *name = bd->families[i].name;
      /* the h2d/cast/scale families and add_identity are Preprocess, and so is everything
       * the reference does not place (unknown families, _other_raw) */
      guint g = 0;
      if (g_str_equal (name, "trsm"))
        g = 1;
      else if (g_str_equal (name, "schur_gemm") || g_str_equal (name, "chol"))
        g = 2;
      ms[g] += MAX (0, bd->families[i].ms);
    }
  for (guint g = 0; g < 3; g++)
    total += ms[g];
  if (total <= 0)
    return out;
  for (guint g = 0; g < 3; g++)
    if (ms[g] > 0)
      {
        IvBreakdownSegment s
            = { groups[g].family, _ (groups[g].label), ms[g], 100.0 * ms[g] / total, 0,
                groups[g].rgb };
        boosted += MAX (s.pct, 1.2);
        g_array_append_val (out, s);
      }
  for (guint i = 0; i < out->len; i++)
    {
      IvBreakdownSegment *s = &g_array_index (out, IvBreakdownSegment, i);
      s->width = 100.0 * MAX (s->pct, 1.2) / boosted;
    }
  return out;
}
