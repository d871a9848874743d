/* iv-trace-analysis.c: the analyses people otherwise script by hand: time per name
 * (total and self) and row kind, GPU streams busy and idle, kernel time by kind, and how
 * much of the communication runs under compute. Durations are the ones recorded,
 * clipped to the range asked for; spans that did not end are counted apart. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-query.h"

#include "iv-intervals.h"
#include "iv-trace-private.h"

#include <stdlib.h>
#include <string.h>

const char *
iv_row_kind_key (IvRowKind kind)
{
  static const char *const keys[IV_N_ROW_KINDS]
      = { "cpu", "annotation", "gpu", "sync", "gpu_other" };
  return kind < IV_N_ROW_KINDS ? keys[kind] : "";
}

static int
compare_stats (const void *pa, const void *pb)
{
  const IvNameStats *a = pa, *b = pb;
  if (a->total_ns != b->total_ns)
    return a->total_ns > b->total_ns ? -1 : 1;
  if (a->name != b->name)
    return a->name < b->name ? -1 : 1;
  return a->kind < b->kind ? -1 : a->kind > b->kind;
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

/* Whether slice @s is in [t0, t1): it overlaps it, or is a zero-length slice in it. */
static inline gboolean
in_range (const IvTrace *t, gsize s, gint64 t0, gint64 t1)
{
  gint64 a = t->start_ns[s], b = a + t->dur_ns[s];
  return a < t1 && (b > t0 || (a == b && a >= t0));
}

static inline gint64
clipped (const IvTrace *t, gsize s, gint64 t0, gint64 t1)
{
  gint64 a = MAX (t->start_ns[s], t0), b = MIN (t->start_ns[s] + t->dur_ns[s], t1);
  return MAX (b - a, 0);
}

/* Whether [t0, t1) holds the whole trace: no slice is clipped, and the self times are the
 * ones the load computed. */
static gboolean
whole (const IvTrace *t, gint64 t0, gint64 t1)
{
  return t0 <= t->t0_ns && t1 > t->t1_ns;
}

/* The entries of one name: the first one's index in @slot, the others chained through
 * @next (a name seldom has more than one row kind). */
typedef struct
{
  guint32 *slot; /* name → entry, or G_MAXUINT32 */
  GArray *next;  /* guint32 per entry: the next entry of the same name, or G_MAXUINT32 */
  GArray *out;   /* IvNameStats */
} Table;

/* The entry of (@name, @kind), made when new (the arrays were sized for every one, so
 * appending never grows them). */
static IvNameStats *
entry (Table *tb, guint32 name, IvRowKind kind)
{
  guint32 i = tb->slot[name], none = G_MAXUINT32;
  IvNameStats fresh = { 0 };

  for (; i != G_MAXUINT32; i = g_array_index (tb->next, guint32, i))
    if (g_array_index (tb->out, IvNameStats, i).kind == kind)
      return &g_array_index (tb->out, IvNameStats, i);
  fresh.name = name;
  fresh.kind = kind;
  fresh.min_ns = G_MAXINT64;
  fresh.max_ns = G_MININT64;
  g_array_append_val (tb->out, fresh);
  g_array_append_val (tb->next, none);
  i = tb->out->len - 1;
  /* the new entry goes first in the name's chain */
  g_array_index (tb->next, guint32, i) = tb->slot[name];
  tb->slot[name] = i;
  return &g_array_index (tb->out, IvNameStats, i);
}

static void
add (IvNameStats *a, gint64 dur, gint64 self, gboolean open, IvStatsFlags flags)
{
  if (open)
    {
      a->open++;
      if (!(flags & IV_STATS_INCLUDE_OPEN))
        return;
    }
  a->count++;
  a->total_ns = iv_trace_add_ns (a->total_ns, dur);
  a->self_ns = iv_trace_add_ns (a->self_ns, self);
  a->min_ns = MIN (a->min_ns, dur);
  a->max_ns = MAX (a->max_ns, dur);
}

/* What sorting one group's slices reads. */
typedef struct
{
  const IvTrace *t;
} GroupOrder;

/* By start, longer first, then by row (a slice on a deeper row is further in): the order
 * the load nested them in. */
static int
compare_group (const void *pa, const void *pb, gpointer data)
{
  const IvTrace *t = ((const GroupOrder *) data)->t;
  gsize a = *(const gsize *) pa, b = *(const gsize *) pb;
  if (t->start_ns[a] != t->start_ns[b])
    return t->start_ns[a] < t->start_ns[b] ? -1 : 1;
  if (t->dur_ns[a] != t->dur_ns[b])
    return t->dur_ns[a] > t->dur_ns[b] ? -1 : 1;
  if (t->row[a] != t->row[b])
    return t->row[a] < t->row[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The slices of track @k's rows of @kind that are in [t0, t1), by start. */
static void
gather (const IvTrace *t, guint k, IvRowKind kind, gint64 t0, gint64 t1, GArray *ids)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);

  g_array_set_size (ids, 0);
  for (guint r = tr->first_row; r < tr->first_row + tr->n_rows; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      if (row->kind != kind)
        continue;
      for (gsize s = iv_trace_row_first_reaching (t, r, t0);
           s < row->first + row->n && t->start_ns[s] < t1; s++)
        if (in_range (t, s, t0, t1))
          g_array_append_val (ids, s);
    }
}

/* How many (name, row kind) entries [t0, t1) makes, counted in @slot (zeroed: a bit
 * per row kind for each name), so that the table is allocated once, at its size. */
static gsize
count_entries (const IvTrace *t, gint64 t0, gint64 t1, gboolean all, guint32 *slot)
{
  gsize n = 0;

  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      guint32 bit = 1u << row->kind;
      gsize s = all ? row->first : iv_trace_row_first_reaching (t, r, t0);
      for (; s < row->first + row->n && (all || t->start_ns[s] < t1); s++)
        if ((all || in_range (t, s, t0, t1)) && !(slot[t->name[s]] & bit))
          {
            slot[t->name[s]] |= bit;
            n++;
          }
    }
  return n;
}

/* Adds the slices of one group (one kind of row in one track) within [t0, t1): their
 * clipped durations, and the part of the range each had to itself — lists (kernels,
 * syncs) their clipped durations, nested rows what _iv_trace_attribute_self gives within
 * the range. FALSE when out of memory. */
static gboolean
add_group (const IvTrace *t, Table *tb, IvRowKind kind, GArray *ids, gint64 t0, gint64 t1,
           IvStatsFlags flags)
{
  gsize n = ids->len;
  gboolean list = kind == IV_ROW_GPU_WORK || kind == IV_ROW_GPU_SYNC;
  g_autofree gint64 *start = NULL, *dur = NULL, *self = NULL;
  g_autofree guint32 *order = NULL;
  g_autofree guint8 *open = NULL;
  GroupOrder go = { t };

  if (n == 0)
    return TRUE;
  if (!list)
    {
      if (!_iv_trace_sort (ids->data, n, sizeof (gsize), compare_group, &go))
        return FALSE;
      start = g_try_new (gint64, n);
      dur = g_try_new (gint64, n);
      self = g_try_new (gint64, n);
      order = g_try_new (guint32, n);
      open = t->open_bits ? g_try_malloc0 (n / 8 + 1) : NULL;
      if (!start || !dur || !self || !order || (t->open_bits && !open))
        return FALSE;
      for (gsize i = 0; i < n; i++)
        {
          gsize s = g_array_index (ids, gsize, i);
          start[i] = t->start_ns[s], dur[i] = t->dur_ns[s], order[i] = (guint32) i;
          if (iv_trace_slice_is_open (t, s))
            open[i / 8] |= (guint8) (1u << (i % 8));
        }
      if (!_iv_trace_attribute_self (start, dur, order, n, open, t0, t1, self))
        return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      gsize s = g_array_index (ids, gsize, i);
      gint64 d = clipped (t, s, t0, t1);
      IvNameStats *a = entry (tb, t->name[s], kind);
      if (!a)
        return FALSE;
      add (a, d, list ? d : self[i], iv_trace_slice_is_open (t, s), flags);
    }
  return TRUE;
}

GArray *
iv_trace_stats_by_name_full (const IvTrace *t, gint64 t0, gint64 t1, IvStatsFlags flags,
                             GError **error)
{
  guint n_names = iv_intern_size (t->strings);
  Table tb = { 0 };
  GArray *out;
  gsize used = 0;
  gpointer probe;

  /* name → its first entry: 4 bytes a name, not a whole entry */
  tb.slot = g_try_new0 (guint32, MAX (n_names, 1));
  if (!tb.slot)
    goto out_of_memory;
  if (t1 > t0)
    used = count_entries (t, t0, t1, whole (t, t0, t1), tb.slot);
  memset (tb.slot, 0xff, (gsize) MAX (n_names, 1) * sizeof (guint32));
  /* GArray aborts when it cannot be had: its size — the power of two GArray rounds up to
   * — is asked for first with try-allocation and given back. (Another thread could take
   * that memory in between; the arrays are made at once, so that window is small.) */
  probe = g_try_malloc (pow2_at_least (MAX (used, 1) * (sizeof (IvNameStats) + sizeof (guint32))));
  if (!probe)
    goto out_of_memory;
  g_free (probe);
  tb.out = g_array_sized_new (FALSE, TRUE, sizeof (IvNameStats), (guint) used);
  tb.next = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) used);
  if (whole (t, t0, t1))
    {
      /* nothing clipped: the recorded durations and the self times of the load */
      for (guint r = 0; r < t->rows->len; r++)
        {
          const IvRow *row = &g_array_index (t->rows, IvRow, r);
          for (gsize s = row->first; s < row->first + row->n; s++)
            {
              IvNameStats *a = entry (&tb, t->name[s], row->kind);
              if (!a)
                goto out_of_memory;
              add (a, t->dur_ns[s], t->self_ns[s], iv_trace_slice_is_open (t, s), flags);
            }
        }
    }
  else if (t1 > t0)
    {
      g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gsize));
      for (guint k = 0; k < t->tracks->len; k++)
        for (guint kind = 0; kind < IV_N_ROW_KINDS; kind++)
          {
            gather (t, k, kind, t0, t1, ids);
            if (!add_group (t, &tb, kind, ids, t0, t1, flags))
              goto out_of_memory;
          }
    }
  for (guint i = 0; i < tb.out->len; i++)
    {
      IvNameStats *a = &g_array_index (tb.out, IvNameStats, i);
      a->mean_ns = a->count ? (double) a->total_ns / a->count : 0;
      if (a->count == 0)
        a->min_ns = a->max_ns = 0;
    }
  /* glibc's qsort falls back to sorting in place when it cannot get its scratch: it
   * never aborts */
  if (tb.out->len > 0) /* qsort's base may not be NULL, even for 0 items */
    qsort (tb.out->data, tb.out->len, sizeof (IvNameStats), compare_stats);
  out = tb.out;
  g_array_unref (tb.next);
  g_free (tb.slot);
  return out;

out_of_memory:
  if (tb.out)
    g_array_unref (tb.out);
  if (tb.next)
    g_array_unref (tb.next);
  g_free (tb.slot);
  {
    g_autofree char *display = g_filename_display_name (t->path ? t->path : "the trace");
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                 "%s: not enough memory to summarise its %u names", display, n_names);
  }
  return NULL;
}

GArray *
iv_trace_stats_by_name_checked (const IvTrace *t, gint64 t0, gint64 t1, GError **error)
{
  return iv_trace_stats_by_name_full (t, t0, t1, IV_STATS_DEFAULT, error);
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

/* The GPU tracks of @process (G_MAXUINT: every one) into by_class, kernels and busy_ns
 * (added to). @cached, @cached_cat: a name's class once per (name, category) — matching
 * some thirty patterns against every kernel's name was most of this function's time. */
static void
class_times_of (const IvTrace *t, gint64 t0, gint64 t1, IvStatsFlags flags, guint process,
                guint8 *cached, guint32 *cached_cat, gint64 by_class[IV_N_KCLASSES],
                guint64 kernels[IV_N_KCLASSES], gint64 *busy_ns)
{
  g_autoptr (GArray) covered = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gsize));
  GArray *per[IV_N_KCLASSES];
  gint64 before = 0;

  for (int k = 0; k < IV_N_KCLASSES; k++)
    per[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint k = 0; k < t->tracks->len && t1 > t0; k++)
    {
      const IvTrack *track = &g_array_index (t->tracks, IvTrack, k);
      if (track->kind != IV_TRACK_GPU || (process != G_MAXUINT && track->process != process))
        continue;
      /* work only: a stream waiting (a sync) or a range drawn over kernels (an
       * annotation) is not the GPU being busy */
      gather (t, k, IV_ROW_GPU_WORK, t0, t1, ids);
      for (guint i = 0; i < ids->len; i++)
        {
          gsize s = g_array_index (ids, gsize, i);
          IvKernelClass c;
          if (iv_trace_slice_is_open (t, s) && !(flags & IV_STATS_INCLUDE_OPEN))
            continue;
          if (cached && cached_cat && cached[t->name[s]] && cached_cat[t->name[s]] == t->cat[s])
            c = (IvKernelClass) (cached[t->name[s]] - 1);
          else
            {
              c = iv_trace_kernel_class (t, s);
              if (cached && cached_cat)
                cached[t->name[s]] = (guint8) (c + 1), cached_cat[t->name[s]] = t->cat[s];
            }
          kernels[c]++;
          if (clipped (t, s, t0, t1) > 0)
            iv_intervals_add (per[c], MAX (t->start_ns[s], t0),
                              MIN (t->start_ns[s] + t->dur_ns[s], t1));
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
      by_class[k] += now - before;
      before = now;
      g_array_unref (per[k]);
    }
  *busy_ns += before;
}

void
iv_trace_class_times_full (const IvTrace *t, gint64 t0, gint64 t1, IvStatsFlags flags,
                           gint64 by_class[IV_N_KCLASSES], guint64 kernels[IV_N_KCLASSES],
                           gint64 *busy_ns)
{
  guint n_names = iv_intern_size (t->strings);
  g_autofree guint32 *cached_cat = g_try_new (guint32, MAX (n_names, 1));
  g_autofree guint8 *cached = g_try_new0 (guint8, MAX (n_names, 1));

  for (int k = 0; k < IV_N_KCLASSES; k++)
    by_class[k] = 0, kernels[k] = 0;
  *busy_ns = 0;
  if (!(flags & IV_STATS_PER_PROCESS))
    {
      class_times_of (t, t0, t1, flags, G_MAXUINT, cached, cached_cat, by_class, kernels, busy_ns);
      return;
    }
  /* a distributed job joined into one trace (iv-trace-job.c) has one process per rank:
   * each rank's GPU is busy on its own, so the job's busy time is the sum of the ranks'
   * unions, not the union of everyone's kernels */
  for (guint p = 0; p < t->processes->len; p++)
    class_times_of (t, t0, t1, flags, p, cached, cached_cat, by_class, kernels, busy_ns);
}

void
iv_trace_class_times (const IvTrace *t, gint64 t0, gint64 t1, gint64 by_class[IV_N_KCLASSES],
                      guint64 kernels[IV_N_KCLASSES], gint64 *busy_ns)
{
  iv_trace_class_times_full (t, t0, t1, IV_STATS_DEFAULT, by_class, kernels, busy_ns);
}

void
iv_gpu_stats_free (IvGpuStats *s)
{
  if (!s)
    return;
  g_array_unref (s->streams);
  g_free (s);
}

/* A kernel's start and when the host launched it (G_MININT64: no flow says). */
typedef struct
{
  gint64 start_ns, launch_ns;
} Launch;

static int
compare_launch (const void *pa, const void *pb)
{
  const Launch *a = pa, *b = pb;
  if (a->start_ns != b->start_ns)
    return a->start_ns < b->start_ns ? -1 : 1;
  return a->launch_ns < b->launch_ns ? -1 : a->launch_ns > b->launch_ns;
}

/* When each kernel was launched: the CPU slice a flow leaves for it (Kineto's ac2g, the
 * 2021 schema's async flows) began then, as HTA reads cudaLaunchKernel's ts through the
 * correlation id. A hash of slice → launch, or NULL when no flow enters GPU work. */
static GHashTable *
launch_times (const IvTrace *t)
{
  GHashTable *h = NULL;

  for (guint i = 0; i < t->flows->len; i++)
    {
      const IvFlow *f = &g_array_index (t->flows, IvFlow, i);
      gint64 *at;
      if (f->to >= t->n_slices || iv_trace_slice_row_kind (t, f->to) != IV_ROW_GPU_WORK
          || (f->from < t->n_slices
              && g_array_index (t->tracks, IvTrack,
                                g_array_index (t->rows, IvRow, t->row[f->from]).track)
                         .kind
                     == IV_TRACK_GPU))
        continue;
      if (!h)
        h = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
      at = g_new (gint64, 1);
      *at = f->from < t->n_slices ? t->start_ns[f->from] : f->from_ns;
      g_hash_table_insert (h, GSIZE_TO_POINTER (f->to + 1), at);
    }
  return h;
}

/* The idle gaps of one stream (@busy merged, @kernels by start), split as HTA splits them:
 * the kernel that ends a gap was launched after the gap began (host wait), or the gap is
 * shorter than IV_KERNEL_WAIT_NS (kernel wait), or neither (other). HTA measures each
 * kernel's gap from the kernel before it, which overlapping kernels make negative; the
 * gaps here are those of the union, so the three add up to the idle time. */
static void
split_idle (IvStreamStats *st, const GArray *busy, const GArray *kernels)
{
  gsize k = 0;

  for (guint i = 2; i < busy->len; i += 2)
    {
      gint64 gap_from = g_array_index (busy, gint64, i - 1);
      gint64 gap_to = g_array_index (busy, gint64, i), launch = G_MAXINT64, gap = gap_to - gap_from;
      /* the kernels starting the next busy interval: the earliest launch among them */
      while (k < kernels->len && g_array_index (kernels, Launch, k).start_ns < gap_to)
        k++;
      for (gsize j = k; j < kernels->len && g_array_index (kernels, Launch, j).start_ns == gap_to;
           j++)
        launch = MIN (launch, g_array_index (kernels, Launch, j).launch_ns);
      if (launch != G_MAXINT64 && launch != G_MININT64 && launch > gap_from)
        st->idle_host_wait_ns += gap;
      else if (gap < IV_KERNEL_WAIT_NS)
        st->idle_kernel_wait_ns += gap;
      else
        st->idle_other_ns += gap;
    }
}

IvGpuStats *
iv_trace_gpu_stats_full (const IvTrace *t, gint64 t0, gint64 t1, IvStatsFlags flags)
{
  IvGpuStats *g = g_new0 (IvGpuStats, 1);
  g_autoptr (GArray) comm = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) compute = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GArray) busy = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) kernels = g_array_new (FALSE, FALSE, sizeof (Launch));
  g_autoptr (GHashTable) launches = NULL;
  /* a name's kind once per (name, category), as iv_trace_class_times_full does */
  guint n_names = iv_intern_size (t->strings);
  g_autofree guint32 *cached_cat = g_try_new (guint32, MAX (n_names, 1));
  g_autofree guint8 *cached = g_try_new0 (guint8, MAX (n_names, 1));

  g->streams = g_array_new (FALSE, TRUE, sizeof (IvStreamStats));
  for (guint k = 0; k < t->tracks->len && t1 > t0; k++)
    {
      IvStreamStats st = { k };
      if (g_array_index (t->tracks, IvTrack, k).kind != IV_TRACK_GPU)
        continue;
      if (!launches)
        launches = launch_times (t);
      g_array_set_size (busy, 0);
      g_array_set_size (kernels, 0);
      st.first_ns = G_MAXINT64, st.last_ns = G_MININT64;
      /* every kernel, copy and set, on whichever row it was drawn */
      gather (t, k, IV_ROW_GPU_WORK, t0, t1, ids);
      for (guint i = 0; i < ids->len; i++)
        {
          gsize s = g_array_index (ids, gsize, i);
          gint64 a = MAX (t->start_ns[s], t0), b = MIN (t->start_ns[s] + t->dur_ns[s], t1);
          IvKernelKind kind;
          gint64 *at = launches ? g_hash_table_lookup (launches, GSIZE_TO_POINTER (s + 1)) : NULL;
          Launch l = { a, at ? *at : G_MININT64 };
          if (iv_trace_slice_is_open (t, s) && !(flags & IV_STATS_INCLUDE_OPEN))
            continue;
          b = MAX (a, b);
          if (cached && cached_cat && cached[t->name[s]] && cached_cat[t->name[s]] == t->cat[s])
            kind = (IvKernelKind) (cached[t->name[s]] - 1);
          else
            {
              kind = iv_trace_kernel_kind (t, s);
              if (cached && cached_cat)
                cached[t->name[s]] = (guint8) (kind + 1), cached_cat[t->name[s]] = t->cat[s];
            }
          st.by_kind_ns[kind] = iv_trace_add_ns (st.by_kind_ns[kind], b - a);
          st.kernels++;
          st.launched += at != NULL;
          st.first_ns = MIN (st.first_ns, a);
          st.last_ns = MAX (st.last_ns, b);
          g_array_append_val (kernels, l);
          if (b > a)
            {
              iv_intervals_add (busy, a, b);
              iv_intervals_add (kind == IV_KERNEL_COMM ? comm : compute, a, b);
            }
        }
      if (st.kernels == 0)
        continue;
      iv_intervals_merge (busy);
      st.busy_ns = iv_intervals_total (busy);
      st.idle_ns = st.last_ns - st.first_ns - st.busy_ns;
      if (kernels->len > 1)
        qsort (kernels->data, kernels->len, sizeof (Launch), compare_launch);
      split_idle (&st, busy, kernels);
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

IvGpuStats *
iv_trace_gpu_stats (const IvTrace *t, gint64 t0, gint64 t1)
{
  return iv_trace_gpu_stats_full (t, t0, t1, IV_STATS_DEFAULT);
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
