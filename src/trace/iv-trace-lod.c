/* iv-trace-lod.c: level of detail for a 60 fps timeline. Slices in a row are sorted by
 * start and overlap at most by the overlap tolerance (a child drawn nested keeps its
 * recorded end), so a binary search finds the first visible one, and a run of sub-pixel
 * slices is skipped with one more binary search to the next pixel boundary. Cost: O(log n) per
 * emitted item, at most a few per pixel. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-query.h"

#include <math.h>
#include <string.h>

/* The first index in [@lo, @hi) of ascending @times whose time is >= @ts (@hi when none). */
static gsize
lower_bound (const gint64 *times, gsize lo, gsize hi, gint64 ts)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (times[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First index in [lo, hi) whose start is >= ts, galloping from lo: the answer is usually
 * close (the next pixel). Far jumps go through the coarse index (every 64th start, small
 * enough to stay in cache), then a binary search within one block. */
static gsize
first_starting_at (const IvTrace *t, gsize lo, gsize hi, gint64 ts)
{
  gsize step = 1;

  while (lo + step < hi && step < IV_TRACE_COARSE && t->start_ns[lo + step] < ts)
    {
      lo += step;
      step *= 2;
    }
  if (lo + step < hi && t->start_ns[lo + step] < ts)
    {
      /* Still short: search the coarse entries inside [lo, hi). */
      gsize g_lo = lower_bound (t->coarse_start, (lo + step) / IV_TRACE_COARSE + 1,
                                (hi - 1) / IV_TRACE_COARSE + 1, ts);
      /* Every start in [lo, g_lo·64) before the last block is < ts. */
      lo = MAX (lo + step, (g_lo - 1) * IV_TRACE_COARSE);
      hi = MIN (hi, g_lo * IV_TRACE_COARSE + 1);
    }
  else
    hi = MIN (hi, lo + step + 1);
  return lower_bound (t->start_ns, lo, hi, ts);
}

gsize
iv_trace_row_first_at (const IvTrace *t, guint row, gint64 ts_ns)
{
  const IvRow *r = &g_array_index (t->rows, IvRow, row);
  return first_starting_at (t, r->first, r->first + r->n, ts_ns);
}

gsize
iv_trace_row_last_by (const IvTrace *t, guint row, gint64 ts_ns)
{
  const IvRow *r = &g_array_index (t->rows, IvRow, row);
  gsize j = ts_ns == G_MAXINT64 ? r->first + r->n
                                : first_starting_at (t, r->first, r->first + r->n, ts_ns + 1);
  return j > r->first ? j - 1 : G_MAXSIZE;
}

/* How far the slices of row @r may overlap one another: nested rows by the trace's
 * overlap tolerance (a child drawn nested though it ends a little after its parent, and
 * so after its next sibling's start); overflow rows and lists never. */
static gint64
row_slack (const IvTrace *t, const IvRow *r)
{
  return r->overflow || r->kind == IV_ROW_GPU_WORK || r->kind == IV_ROW_GPU_SYNC
             ? 0
             : t->overlap_tolerance_ns;
}

/* First index in [lo, hi) from which every slice ending after @ts is found: the first
 * starting at or after ts, or an earlier one that reaches past it. A slice reaches at
 * most @slack past where its row lets the next one start, so only those starting within
 * @slack before ts (and the one before them) can; at most @max_back of them are looked
 * at (drawing needs no more: what is missed is narrower than the slack). */
static gsize
first_ending_after (const IvTrace *t, gsize lo, gsize hi, gint64 ts, gint64 slack, gsize max_back)
{
  gsize j = first_starting_at (t, lo, hi, ts), from = j;
  gsize k = slack > 0 ? first_starting_at (t, lo, j, ts > G_MININT64 + slack ? ts - slack : ts) : j;

  k = k > lo ? k - 1 : lo;
  if (j - k > max_back)
    k = j - max_back;
  for (gsize i = j; i > k; i--)
    if (t->start_ns[i - 1] + t->dur_ns[i - 1] > ts)
      from = i - 1;
  return from;
}

gsize
iv_trace_row_first_reaching (const IvTrace *t, guint row, gint64 ts_ns)
{
  const IvRow *r = &g_array_index (t->rows, IvRow, row);
  return first_ending_after (t, r->first, r->first + r->n, ts_ns, row_slack (t, r), G_MAXSIZE);
}

/* Where a run of sub-pixel slices starting at @i ends: the first slice at or after
 * @boundary, or, far out where a pixel holds hundreds of slices, the end of the coarse
 * block holding @boundary when that block has no slice as wide as a pixel and ends
 * before the window does. The run then reaches a few slices past the pixel edge, which
 * nothing can see, and costs no search in the big arrays. */
static gsize
run_end (const IvTrace *t, gsize i, gsize end, gint64 boundary, gint64 t1, double px_ns)
{
  gsize b = (i + 1) / IV_TRACE_COARSE + 1, last = (end - 1) / IV_TRACE_COARSE + 1, hi = last;
  gsize lo = b;

  if (b >= last || t->coarse_start[b] >= boundary)
    return first_starting_at (t, i + 1, end, boundary);
  /* The first coarse entry at or after the boundary, inside the row: usually a block or
   * two on (a pixel holds a few blocks at most), so galloping to it before the binary
   * search costs a few comparisons, not one for every halving of the rest of the row
   * (the same entry either way). */
  {
    gsize step = 1;
    while (lo + step < hi && t->coarse_start[lo + step] < boundary)
      {
        lo += step;
        step *= 2;
      }
    hi = MIN (hi, lo + step);
    lo++;
  }
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (t->coarse_start[mid] < boundary)
        lo = mid + 1;
      else
        hi = mid;
    }
  {
    gsize j = MIN (lo * IV_TRACE_COARSE, end);
    if ((double) t->coarse_max_dur[lo - 1] < px_ns && t->start_ns[j - 1] < t1)
      return j;
  }
  return first_starting_at (t, (lo - 1) * IV_TRACE_COARSE, end, boundary);
}

gsize
iv_trace_lod_row (const IvTrace *t, guint row, gint64 t0, gint64 t1, double width_px, GArray *items)
{
  const IvRow *r = &g_array_index (t->rows, IvRow, row);
  gsize end = r->first + r->n, i, emitted = 0;
  double px_ns = (double) (t1 - t0) / MAX (width_px, 1.0);

  if (t1 <= t0)
    return 0;
  i = first_ending_after (t, r->first, end, t0, row_slack (t, r), 64);
  while (i < end && t->start_ns[i] < t1)
    {
      IvLodItem item;
      if ((double) t->dur_ns[i] >= px_ns)
        {
          item = (IvLodItem){ i, 1, t->start_ns[i], t->start_ns[i] + t->dur_ns[i] };
          g_array_append_val (items, item);
          emitted++;
          i++;
          continue;
        }
      {
        /* A sub-pixel slice: merge everything that starts before the next pixel edge. */
        double pixel = floor ((double) (t->start_ns[i] - t0) / px_ns) + 1;
        gint64 boundary = MIN (t0 + (gint64) ceil (pixel * px_ns), t1);
        gsize j = run_end (t, i, end, MAX (boundary, t->start_ns[i] + 1), t1, px_ns);
        /* Far out a run is a coarse block or so, and the frame waits on memory for the
         * last slice of each (its end is the run's): the next two blocks' last slices
         * are asked for now, so they are there when the runs get to them. */
        if (j + 2 * IV_TRACE_COARSE <= end)
          {
            __builtin_prefetch (&t->start_ns[j + IV_TRACE_COARSE - 1]);
            __builtin_prefetch (&t->dur_ns[j + IV_TRACE_COARSE - 1]);
            __builtin_prefetch (&t->start_ns[j + 2 * IV_TRACE_COARSE - 1]);
            __builtin_prefetch (&t->dur_ns[j + 2 * IV_TRACE_COARSE - 1]);
          }
        /* Only the run's last slice can be wide (it would start before the edge and
         * reach past it): draw it on its own. */
        if (j - i > 1 && (double) t->dur_ns[j - 1] >= px_ns)
          j--;
        item = (IvLodItem){ i, (guint32) MIN (j - i, G_MAXUINT32), t->start_ns[i],
                            t->start_ns[j - 1] + t->dur_ns[j - 1] };
        g_array_append_val (items, item);
        emitted++;
        i = j;
      }
    }
  return emitted;
}

gsize
iv_trace_lod (const IvTrace *t, gint64 t0, gint64 t1, double width_px, GArray *items,
              GArray *row_first)
{
  gsize total = 0;

  g_array_set_size (items, 0);
  g_array_set_size (row_first, 0);
  for (guint r = 0; r < t->rows->len; r++)
    {
      guint first = items->len;
      g_array_append_val (row_first, first);
      total += iv_trace_lod_row (t, r, t0, t1, width_px, items);
    }
  {
    guint last = items->len;
    g_array_append_val (row_first, last);
  }
  return total;
}

static int
compare_by_start (const void *pa, const void *pb, gpointer data)
{
  const IvTrace *t = data;
  gsize a = *(const gsize *) pa, b = *(const gsize *) pb;
  if (t->start_ns[a] != t->start_ns[b])
    return t->start_ns[a] < t->start_ns[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

GArray *
iv_trace_search (const IvTrace *t, const char *needle)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *lower = g_utf8_casefold (needle ? needle : "", -1);
  guint n_names = iv_intern_size (t->strings);
  g_autofree guint8 *match = g_new0 (guint8, MAX (n_names, 1));
  gboolean any = FALSE;

  if (!lower[0])
    return out;
  /* Match the distinct names once, then pick slices by id. */
  for (guint i = 0; i < n_names; i++)
    {
      g_autofree char *name = g_utf8_casefold (iv_intern_get (t->strings, i), -1);
      match[i] = strstr (name, lower) != NULL;
      any |= match[i];
    }
  if (!any)
    return out;
  for (gsize s = 0; s < t->n_slices; s++)
    if (match[t->name[s]])
      g_array_append_val (out, s);
  g_qsort_with_data (out->data, out->len, sizeof (gsize), compare_by_start, (gpointer) t);
  return out;
}
