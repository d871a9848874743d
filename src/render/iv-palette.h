/* iv-palette.h: series colours (colour-blind safe, stable per name) and a sequential
 * colour map for heatmaps. */
#pragma once

#include "iv-theme.h"

G_BEGIN_DECLS

#define IV_PALETTE_SIZE 8

IvColor iv_palette_color      (IvTheme     theme,
                               guint       index);
guint   iv_palette_index_for  (const char *name);
IvColor iv_colormap_viridis   (double      t);

G_END_DECLS
