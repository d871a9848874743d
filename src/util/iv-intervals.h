/* iv-intervals.h: sets of [start, end) times held as gint64 pairs in a GArray
 * (start₀, end₀, start₁, end₁, …) — busy time, overlap and cover, as the trace analyses
 * and the pipelined figure measure them. GLib only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends [start, end) to @pairs. */
void iv_intervals_add (GArray *pairs, gint64 start, gint64 end);
/* Sorts @pairs by start and merges those that overlap or touch, in place: afterwards
 * they are disjoint and in order. Returns how many intervals remain. */
gsize iv_intervals_merge (GArray *pairs);
/* In merged @pairs: the index of the first interval ending after @t (the count when
 * none does), by binary search. */
gsize iv_intervals_first_ending_after (const GArray *pairs, gint64 t);
/* In merged @pairs: the total length. */
gint64 iv_intervals_total (const GArray *pairs);
/* In merged @pairs: how much of [a0, a1) they cover. */
gint64 iv_intervals_covered (const GArray *pairs, gint64 a0, gint64 a1);
/* The length of the intersection of two merged sets. */
gint64 iv_intervals_intersection (const GArray *a, const GArray *b);

G_END_DECLS
