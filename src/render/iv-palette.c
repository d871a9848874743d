/* iv-palette.c: the Okabe–Ito palette (Okabe & Ito 2008), designed to stay tellable
 * apart under the common colour-vision deficiencies. Its black becomes a light grey on
 * dark backgrounds. A series name hashes to a palette slot so "p99" has the same colour
 * in every chart of a session; charts resolve collisions by probing (iv-chart.c). */
#include "iv-palette.h"

#include <string.h>

#include <math.h>

static const guint32 okabe_ito[IV_PALETTE_SIZE] = {
  0x0072b2, /* blue */
  0xe69f00, /* orange */
  0x009e73, /* bluish green */
  0xd55e00, /* vermillion */
  0xcc79a7, /* reddish purple */
  0x56b4e9, /* sky blue */
  0xf0e442, /* yellow */
  0x000000, /* black */
};

IvColor
iv_palette_color (IvTheme theme, guint index)
{
  guint32 rgb = okabe_ito[index % IV_PALETTE_SIZE];

  if (theme == IV_THEME_DARK && rgb == 0x000000)
    rgb = 0xc0bfbc;
  /* Yellow on white is hard to read in print: darken it a little. */
  if (theme != IV_THEME_DARK && rgb == 0xf0e442)
    rgb = 0xc9b800;
  /* Okabe–Ito is made for white paper: on the dark background its blue and purple fall
   * under 3:1, on white its orange, sky blue and yellow do. */
  return iv_theme_mark_color (theme, rgb, 1.0);
}

/* Rank colours: hues none of the bound colours (steel blue, orange, red, grey) nor the
 * ring's purple uses, so a rank never reads as a verdict (issue 31: one colour meaning
 * per concept across figures), and none of the topology's group colours (TP olive, CP
 * bluish green, EP teal): the lime, olive and green ranks read as groups. The first four
 * (TP up to 4) far apart. */
static const guint32 rank_rgb[IV_RANK_COLORS] = {
  0x4fc3f7, /* sky blue */
  0xe6c300, /* gold */
  0xe7298a, /* magenta */
  0x000000, /* black (light grey on a dark page) */
  0xddcc77, /* sand */
  0xf781bf, /* pink */
  0xa6761d, /* ochre */
  0x5c2a00, /* dark brown */
};

IvColor
iv_palette_rank_color (IvTheme theme, guint index)
{
  return iv_theme_mark_color (theme, rank_rgb[index % IV_RANK_COLORS], 1.0);
}

/* The reference script's colours (pipelined_timeline_reference.py), by event name. */
static const struct
{
  const char *name;
  guint index;
} fixed_names[] = {
  { "wait_for_io", 0 },     { "await_dispatch", 1 }, { "trsm_host", 2 }, { "hdf5_read", 3 },
  { "gpu_buffer_wait", 3 }, { "hdf5_io", 3 },        { "compute", 4 },
};
static const guint32 fixed_rgb[IV_FIXED_COLORS]
    = { 0xD35400, 0xE67E22, 0x5B2C6F, 0xB8B8B8, 0x2E8B57 };

guint
iv_color_slot_for (const char *name)
{
  for (guint i = 0; name && i < G_N_ELEMENTS (fixed_names); i++)
    if (strcmp (fixed_names[i].name, name) == 0)
      return IV_PALETTE_SIZE + fixed_names[i].index;
  return iv_palette_index_for (name);
}

IvColor
iv_color_slot_color (IvTheme theme, guint slot)
{
  if (slot >= IV_PALETTE_SIZE && slot < IV_COLOR_SLOTS)
    return iv_color_from_rgb (fixed_rgb[slot - IV_PALETTE_SIZE], 1.0);
  return iv_palette_color (theme, slot);
}

guint
iv_palette_index_for (const char *name)
{
  /* FNV-1a: stable across runs and platforms, unlike g_str_hash's seedless but
   * unspecified value. */
  guint32 h = 2166136261u;

  for (const guchar *p = (const guchar *) (name ? name : ""); *p; p++)
    {
      h ^= *p;
      h *= 16777619u;
    }
  /* Black (the last slot) is reached only by probing, when the others are taken: a
   * black series among coloured ones reads as an axis or an annotation. */
  return h % (IV_PALETTE_SIZE - 1);
}

/* viridis, sampled at 9 points and interpolated linearly. */
IvColor
iv_colormap_viridis (double t)
{
  static const double stops[9][3] = {
    { 0.267, 0.005, 0.329 }, { 0.283, 0.141, 0.458 }, { 0.254, 0.265, 0.530 },
    { 0.207, 0.372, 0.553 }, { 0.164, 0.471, 0.558 }, { 0.128, 0.567, 0.551 },
    { 0.135, 0.659, 0.518 }, { 0.478, 0.821, 0.318 }, { 0.993, 0.906, 0.144 },
  };
  double x, f;
  int i;

  if (!isfinite (t))
    t = 0;
  t = CLAMP (t, 0.0, 1.0);
  x = t * 8;
  i = MIN ((int) x, 7);
  f = x - i;
  return (IvColor){ stops[i][0] + f * (stops[i + 1][0] - stops[i][0]),
                    stops[i][1] + f * (stops[i + 1][1] - stops[i][1]),
                    stops[i][2] + f * (stops[i + 1][2] - stops[i][2]), 1.0 };
}
