/* iv-timeline-cache.h: what a timeline on screen keeps from one frame to the next
 * (docs/architecture.md § The timeline's frame cache). A frame drawn through a cache is
 * the frame drawn without one, pixel for pixel; only the work differs:
 *   - each row's level of detail and palette buckets, for the range, width and colouring
 *     last drawn: reused while only the vertical scroll, the selection, the hover or the
 *     marks change;
 *   - names laid out by Pango (shaped, ellipsized), per string and font: reused by every
 *     bar of the same name whose width gives the same ellipsized text, in this frame and
 *     the next ones, whatever the range.
 * One cache serves one view on one thread. It holds the trace's address, not the trace:
 * whoever frees the trace resets the cache first (the window does when the trace's
 * document goes, iv-timeline-view-draw.c). */
#pragma once

#include <pango/pangocairo.h>

#include "iv-text.h"
#include "iv-trace-query.h"

G_BEGIN_DECLS

typedef struct _IvTimelineCache IvTimelineCache;

IvTimelineCache *iv_timeline_cache_new (void);
void iv_timeline_cache_free (IvTimelineCache *cache);
/* Forgets everything: the trace drawn last is gone, or another one comes. */
void iv_timeline_cache_reset (IvTimelineCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTimelineCache, iv_timeline_cache_free)

/* How much the last frames took from the cache and how much they had to make (for
 * tests and the benchmark). */
typedef struct
{
  guint64 rows_hit, rows_made;
  guint64 texts_hit, texts_made;
} IvTimelineCacheStats;

void iv_timeline_cache_get_stats (const IvTimelineCache *cache, IvTimelineCacheStats *stats);

/* ---- for iv-render-timeline.c ---- */

/* A frame of @trace over @t0_ns..@t1_ns at @plot_w begins on @cr: rows kept for another
 * range, width, colouring or trace are dropped; the text layouts follow @cr's font
 * options and transformation (dropped when those change what Pango measures). */
void _iv_timeline_cache_begin (IvTimelineCache *cache, cairo_t *cr, const IvTrace *trace,
                               gint64 t0_ns, gint64 t1_ns, double plot_w, gboolean by_category);
/* Row @row's items and buckets (and the set of buckets present) when kept, else FALSE. */
gboolean _iv_timeline_cache_row (IvTimelineCache *cache, guint row, GArray **items,
                                 GByteArray **buckets, guint *present);
/* Keeps @items and @buckets (taken over) as row @row's. */
void _iv_timeline_cache_keep_row (IvTimelineCache *cache, guint row, GArray *items,
                                  GByteArray *buckets, guint present);
/* @str laid out as iv_text_measure (@proto's size and middle ellipsizing, @scale, @bold,
 * @max_width) lays it out, and its size: the cache's layout (owned by it, valid until
 * the next call), or NULL when this one must be laid out afresh (a right- or
 * centre-aligned string cut to a width: where it goes depends on the width itself). */
PangoLayout *_iv_timeline_cache_text (IvTimelineCache *cache, const IvText *proto, const char *str,
                                      double scale, gboolean bold, double max_width, double xalign,
                                      double *width, double *height);

G_END_DECLS
