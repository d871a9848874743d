/* iv-palette.h: series colours (colour-blind safe, stable per name) and a sequential
 * colour map for heatmaps. */
#pragma once

#include "iv-theme.h"

G_BEGIN_DECLS

#define IV_PALETTE_SIZE 8

IvColor iv_palette_color (IvTheme theme, guint index);
guint iv_palette_index_for (const char *name);

/* A parallel rank's colour (TP rank @index modulo IV_RANK_COLORS): hues disjoint from
 * the bound colours, which mean a verdict and never a rank. */
#define IV_RANK_COLORS 8
IvColor iv_palette_rank_color (IvTheme theme, guint index);

/* Colour slots: the palette's, then the colours the pipelined reference figure fixes for
 * its event names (wait_for_io, await_dispatch, trsm_host, the I/O names, compute), so a
 * name has one colour in every view — the Pipeline figure and the All Events timeline. */
#define IV_FIXED_COLORS 5
#define IV_COLOR_SLOTS (IV_PALETTE_SIZE + IV_FIXED_COLORS)
guint iv_color_slot_for (const char *name);
IvColor iv_color_slot_color (IvTheme theme, guint slot);
IvColor iv_colormap_viridis (double t);

G_END_DECLS
