/* iv-trace-analysis.c: the analyses people otherwise script by hand: time per name
 * (total and self), GPU streams busy and idle, kernel time by kind, and how much of the
 * communication runs under compute. Intervals are clipped to the range asked for. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-query.h"

#include "iv-intervals.h"

#include <stdlib.h>
#include <string.h>

static int
compare_stats (const void *pa, const void *pb)
{
  const IvNameStats *a = pa, *b = pb;
  if (a->total_ns != b->total_ns)
    return a->total_ns > b->total_ns ? -1 : 1;
  return a->name < b->name ? -1 : a->name > b->name;
}

/* The smallest power of two ≥ @n: what GArray allocates for @n bytes. */
static gsize
pow2_at_least (gsize n)
{
  gsize p = 1;
  while (p < n && p <= G_MAXSIZE / 2)
    p <<= 1;
  return p < n ? n : p;
}

GArray *
iv_trace_stats_by_name_checked (const IvTrace *t, gint64 t0, gint64 t1, GError **error)
{
  guint n_names = iv_intern_size (t->strings);
  /* name → its entry in the result, or G_MAXUINT32: 4 bytes a name, not a whole entry */
  g_autofree guint32 *slot = g_try_new (guint32, MAX (n_names, 1));
  guint used = 0;
  gpointer probe;
  GArray *out;

  if (!slot)
    goto out_of_memory;
  memset (slot, 0xff, (gsize) MAX (n_names, 1) * sizeof (guint32));
  for (gsize s = 0; s < t->n_slices; s++)
    if (t->start_ns[s] >= t0 && t->start_ns[s] < t1 && slot[t->name[s]] == G_MAXUINT32)
      slot[t->name[s]] = used++;
  /* GArray aborts when it cannot be had: its size — the power of two GArray rounds up to
   * — is asked for first with try-allocation and given back. (Another thread could take
   * that memory in between; the array is made at once, so that window is small.) */
  probe = g_try_malloc (pow2_at_least ((gsize) MAX (used, 1) * sizeof (IvNameStats)));
  if (!probe)
    goto out_of_memory;
  g_free (probe);
  out = g_array_sized_new (FALSE, TRUE, sizeof (IvNameStats), used);
  g_array_set_size (out, used);
  for (gsize s = 0; s < t->n_slices; s++)
    {
      IvNameStats *a;
      if (t->start_ns[s] < t0 || t->start_ns[s] >= t1)
        continue;
      a = &g_array_index (out, IvNameStats, slot[t->name[s]]);
      if (a->count == 0)
        {
          a->name = t->name[s];
          a->min_ns = G_MAXINT64;
          a->max_ns = G_MININT64;
        }
      a->count++;
      a->total_ns = iv_trace_add_ns (a->total_ns, t->dur_ns[s]);
      a->self_ns = iv_trace_add_ns (a->self_ns, t->self_ns[s]);
      a->min_ns = MIN (a->min_ns, t->dur_ns[s]);
      a->max_ns = MAX (a->max_ns, t->dur_ns[s]);
    }
  for (guint i = 0; i < used; i++)
    {
      IvNameStats *a = &g_array_index (out, IvNameStats, i);
      a->mean_ns = (double) a->total_ns / a->count;
    }
  /* glibc's qsort falls back to sorting in place when it cannot get its scratch: it
   * never aborts */
  if (out->len > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (out->data, out->len, sizeof (IvNameStats), compare_stats);
  return out;

out_of_memory:
  {
    g_autofree char *display = g_filename_display_name (t->path ? t->path : "the trace");
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                 "%s: not enough memory to summarise its %u names", display, n_names);
  }
  return NULL;
}

GArray *
iv_trace_stats_by_name (const IvTrace *t, gint64 t0, gint64 t1)
{
  GArray *out = iv_trace_stats_by_name_checked (t, t0, t1, NULL);
  return out ? out : g_array_new (FALSE, TRUE, sizeof (IvNameStats));
}

static gboolean
contains_ci (const char *hay, const char *needle)
{
  gsize n = strlen (needle);
  for (; *hay; hay++)
    if (g_ascii_strncasecmp (hay, needle, n) == 0)
      return TRUE;
  return FALSE;
}

/* Kineto categories (kernel, gpu_memcpy, gpu_memset; 2021: Kernel, Memcpy, Memset) and
 * NCCL/collective kernel names decide the kind. */
IvKernelKind
iv_trace_kernel_kind (const IvTrace *t, gsize s)
{
  const char *cat = iv_trace_string (t, t->cat[s]);
  const char *name = iv_trace_string (t, t->name[s]);

  if (g_ascii_strcasecmp (cat, "gpu_memcpy") == 0 || g_ascii_strcasecmp (cat, "gpu_memset") == 0
      || g_ascii_strcasecmp (cat, "memcpy") == 0 || g_ascii_strcasecmp (cat, "memset") == 0
      || g_str_has_prefix (name, "Memcpy") || g_str_has_prefix (name, "Memset"))
    return IV_KERNEL_MEMORY;
  if (contains_ci (name, "nccl") || contains_ci (name, "allreduce")
      || contains_ci (name, "all_reduce") || contains_ci (name, "allgather")
      || contains_ci (name, "reducescatter") || contains_ci (cat, "collective")
      || contains_ci (name, "rccl"))
    return IV_KERNEL_COMM;
  return IV_KERNEL_COMPUTE;
}

/* Name patterns, matched case-insensitively anywhere in the kernel's name:
 * collectives: NCCL/RCCL kernels and all-reduce/all-gather/reduce-scatter/all-to-all;
 * attention: FlashAttention, fused MHA (fmha), SDPA, paged attention, xformers,
 * "attention"/"attn", and softmax (the attention core's);
 * GEMM: cuBLAS/cuBLASLt/CUTLASS (gemm, xmma, cutlass, nvjet, s/h/i884–16816 tile names),
 * rocBLAS/hipBLASLt Tensile (Cijk_), and matmul/gemv/addmm/bmm.
 * The order matters: a flash-attention kernel built on CUTLASS is attention. GPU user
 * annotations (ranges over kernels) are "other", the lowest class, so the kernels under
 * them keep theirs (iv_trace_class_times leaves them, and stream syncs, out of the busy
 * time altogether). */
static const char *const attention_patterns[]
    = { "flash",    "fmha",    "attention", "attn", "sdpa", "scaled_dot_product",
        "xformers", "softmax", NULL };
static const char *const gemm_patterns[]
    = { "gemm", "xmma",  "cutlass", "nvjet",  "cijk_",  "matmul", "gemv",  "addmm", "bmm_",  "s884",
        "h884", "s1688", "h1688",   "s16816", "h16816", "i8816",  "sm80_", "sm90_", "wgmma", NULL };

static gboolean
matches_any (const char *name, const char *const *patterns)
{
  for (guint i = 0; patterns[i]; i++)
    if (contains_ci (name, patterns[i]))
      return TRUE;
  return FALSE;
}

IvKernelClass
iv_trace_kernel_class (const IvTrace *t, gsize s)
{
  const char *cat = iv_trace_string (t, t->cat[s]);
  const char *name = iv_trace_string (t, t->name[s]);

  if (contains_ci (cat, "annotation"))
    return IV_KCLASS_OTHER;
  if (iv_trace_kernel_kind (t, s) == IV_KERNEL_COMM || contains_ci (name, "alltoall")
      || contains_ci (name, "all_to_all"))
    return IV_KCLASS_COLLECTIVE;
  if (iv_trace_kernel_kind (t, s) == IV_KERNEL_MEMORY)
    return IV_KCLASS_OTHER;
  if (matches_any (name, attention_patterns))
    return IV_KCLASS_ATTENTION;
  if (matches_any (name, gemm_patterns))
    return IV_KCLASS_GEMM;
  return IV_KCLASS_OTHER;
}

const char *
iv_kernel_class_name (IvKernelClass k)
{
  static const char *const names[IV_N_KCLASSES] = { "gemm", "attention", "collective", "other" };
  return k < IV_N_KCLASSES ? names[k] : "";
}

void
iv_trace_class_times (const IvTrace *t, gint64 t0, gint64 t1, gint64 by_class[IV_N_KCLASSES],
                      guint64 kernels[IV_N_KCLASSES], gint64 *busy_ns)
{
  g_autoptr (GArray) covered = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *per[IV_N_KCLASSES];
  gint64 lo = MAX (t0, t->t0_ns), hi = MIN (t1, t->t1_ns), before = 0;

  for (int k = 0; k < IV_N_KCLASSES; k++)
    per[k] = g_array_new (FALSE, FALSE, sizeof (gint64)), by_class[k] = 0, kernels[k] = 0;
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (!tr->gpu_stream)
        continue;
      for (guint r = 0; r < tr->n_rows; r++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
          for (gsize s = row->first; s < row->first + row->n; s++)
            {
              gint64 a = MAX (t->start_ns[s], lo), b = MIN (t->start_ns[s] + t->dur_ns[s], hi);
              const char *cat = iv_trace_string (t, t->cat[s]);
              IvKernelClass c;
              /* work only: a stream waiting (cuda_sync) or a range drawn over kernels (a
               * user annotation) is not the GPU being busy */
              if (b <= a || contains_ci (cat, "annotation")
                  || g_ascii_strcasecmp (cat, "cuda_sync") == 0)
                continue;
              c = iv_trace_kernel_class (t, s);
              iv_intervals_add (per[c], a, b);
              kernels[c]++;
            }
        }
    }
  /* class k gets what it covers beyond classes 0 … k−1 */
  for (int k = 0; k < IV_N_KCLASSES; k++)
    {
      gint64 now;
      for (guint i = 0; i < per[k]->len; i += 2)
        iv_intervals_add (covered, g_array_index (per[k], gint64, i),
                          g_array_index (per[k], gint64, i + 1));
      iv_intervals_merge (covered);
      now = iv_intervals_total (covered);
      by_class[k] = now - before;
      before = now;
      g_array_unref (per[k]);
    }
  *busy_ns = before;
}

void
iv_gpu_stats_free (IvGpuStats *s)
{
  if (!s)
    return;
  g_array_unref (s->streams);
  g_free (s);
}

IvGpuStats *
iv_trace_gpu_stats (const IvTrace *t, gint64 t0, gint64 t1)
{
  IvGpuStats *g = g_new0 (IvGpuStats, 1);
  g_autoptr (GArray) comm = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) compute = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 lo = MAX (t0, t->t0_ns), hi = MIN (t1, t->t1_ns);

  g->streams = g_array_new (FALSE, TRUE, sizeof (IvStreamStats));
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      g_autoptr (GArray) busy = g_array_new (FALSE, FALSE, sizeof (gint64));
      IvStreamStats st = { k };

      if (!tr->gpu_stream)
        continue;
      for (guint r = 0; r < tr->n_rows; r++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
          for (gsize s = row->first; s < row->first + row->n; s++)
            {
              gint64 a = MAX (t->start_ns[s], lo), b = MIN (t->start_ns[s] + t->dur_ns[s], hi);
              IvKernelKind kind;
              if (b <= a && !(t->dur_ns[s] == 0 && t->start_ns[s] >= lo && t->start_ns[s] < hi))
                continue;
              /* Nested GPU slices (annotations over kernels) count once via the union. */
              iv_intervals_add (busy, a, b);
              if (row->depth > 0 && !row->overflow)
                continue;
              kind = iv_trace_kernel_kind (t, s);
              st.by_kind_ns[kind] = iv_trace_add_ns (st.by_kind_ns[kind], MAX (b - a, 0));
              st.kernels++;
              iv_intervals_add (kind == IV_KERNEL_COMM ? comm : compute, a, b);
            }
        }
      iv_intervals_merge (busy);
      st.busy_ns = iv_intervals_total (busy);
      st.idle_ns = MAX (hi - lo, 0) - st.busy_ns;
      for (int i = 0; i < IV_N_KERNEL_KINDS; i++)
        g->by_kind_ns[i] = iv_trace_add_ns (g->by_kind_ns[i], st.by_kind_ns[i]);
      g_array_append_val (g->streams, st);
    }
  iv_intervals_merge (comm);
  iv_intervals_merge (compute);
  g->comm_ns = iv_intervals_total (comm);
  g->comm_overlapped_ns = iv_intervals_intersection (comm, compute);
  g->comm_overlap_share = g->comm_ns > 0 ? (double) g->comm_overlapped_ns / g->comm_ns : 0;
  return g;
}

/* ---------- the range of the work ---------- */

/* At most this many slice starts and ends are sorted to find outliers (a few milliseconds);
 * the exact first start and last end are always among them. */
#define RANGE_SAMPLE 65536

static int
compare_i64 (const void *pa, const void *pb)
{
  gint64 a = *(const gint64 *) pa, b = *(const gint64 *) pb;
  return a < b ? -1 : a > b;
}

/* Where the sorted @x (@n values) stops holding outliers at its low end (or, @high, its
 * high end): a few values — at most 1 % of them — separated from the rest by a gap more
 * than ten times as long as the rest spans. The cut is the middle of the innermost such
 * gap, so unsampled values near either side stay on it; G_MININT64 (G_MAXINT64) when
 * there is no such gap. */
static gint64
outlier_cut (const gint64 *x, gsize n, gboolean high)
{
  gsize few = MAX (n / 100, 1);
  gint64 cut = high ? G_MAXINT64 : G_MININT64;

  for (gsize k = 0; k < few && k + 1 < n; k++)
    {
      /* the gap between the k outermost values and the rest */
      gsize a = high ? n - 1 - k : k, b = high ? a - 1 : a + 1;
      gint64 gap = high ? x[a] - x[b] : x[b] - x[a];
      gint64 rest = high ? x[b] - x[0] : x[n - 1] - x[b];
      if (gap / 10 > rest)
        cut = high ? x[b] + gap / 2 : x[a] + gap / 2;
    }
  return cut;
}

/* The range of the work: every slice's extent, less Kineto's capture-wide spans (the
 * "Spans" and "Traces" pseudo-processes) and less outliers far from the rest — a few
 * slices whose times lie more than ten times the work's own span away from it (catapult's
 * fuchsia_trace.json: 0.3 % of its events 312 hours before the other 7 seconds, on
 * another clock). The window opens on it and the command line draws it by default; the
 * minimap and the statistics still cover the whole trace. */
void
iv_trace_activity_range (const IvTrace *t, gint64 *t0_ns, gint64 *t1_ns)
{
  /* tried: without the memory for it, no track is set aside and no outlier cut (the
   * extent is the whole trace's, a figure still drawn) */
  g_autofree gboolean *span_track = g_try_new0 (gboolean, MAX (t->tracks->len, 1));
  gsize stride = MAX (t->n_slices / RANGE_SAMPLE, 1), cap = t->n_slices / stride + 3, n = 0;
  g_autofree gint64 *starts = g_try_new (gint64, cap), *ends = g_try_new (gint64, cap);
  gint64 lo = G_MAXINT64, hi = G_MININT64, lo_cut = G_MININT64, hi_cut = G_MAXINT64;

  for (guint k = 0; k < t->tracks->len && span_track; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      const IvProcess *p = t->processes->pdata[tr->process];
      span_track[k] = g_strcmp0 (p->key, "Spans") == 0 || g_strcmp0 (p->key, "Traces") == 0;
    }
  for (gsize i = 0; i < t->n_slices; i++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
      if (span_track && span_track[row->track])
        continue;
      lo = MIN (lo, t->start_ns[i]);
      hi = MAX (hi, t->start_ns[i] + t->dur_ns[i]);
      if (starts && ends && i % stride == 0 && n < cap - 2)
        starts[n] = t->start_ns[i], ends[n] = t->start_ns[i] + t->dur_ns[i], n++;
    }
  if (starts && ends && n > 0)
    {
      /* the extremes themselves, sampled or not: a single far slice is an outlier too */
      starts[n] = lo, ends[n] = hi, n++;
      qsort (starts, n, sizeof *starts, compare_i64);
      qsort (ends, n, sizeof *ends, compare_i64);
      lo_cut = outlier_cut (starts, n, FALSE);
      hi_cut = outlier_cut (ends, n, TRUE);
    }
  if (lo_cut != G_MININT64 || hi_cut != G_MAXINT64)
    {
      gint64 lo2 = G_MAXINT64, hi2 = G_MININT64;
      for (gsize i = 0; i < t->n_slices; i++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, t->row[i]);
          gint64 s = t->start_ns[i], e = s + t->dur_ns[i];
          if (span_track && span_track[row->track])
            continue;
          /* a slice reaching into the work from an outlier's time counts by its part there */
          if (s >= lo_cut && s <= hi_cut)
            lo2 = MIN (lo2, s);
          if (e <= hi_cut && e >= lo_cut)
            hi2 = MAX (hi2, e);
        }
      if (lo2 < hi2)
        lo = lo2, hi = hi2;
    }
  if (lo >= hi)
    lo = t->t0_ns, hi = t->t1_ns;
  *t0_ns = lo;
  *t1_ns = hi;
}
