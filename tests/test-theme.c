/* test-theme.c: every mark colour (series palette, bounds, the ring loop, the topology's
 * group links) stands out from the plot background by WCAG 2.x contrast: 3:1 on white
 * (but for the published colours listed), 4.5:1 on the dark background. And the figures'
 * typography of symbols: T_q drawn as T with a subscript q, text from data still escaped. */
#include <glib.h>
#include <math.h>

#include "iv-palette.h"
#include "iv-render-model.h"
#include "iv-text.h"
#include "iv-theme.h"

static const IvTheme themes[] = { IV_THEME_LIGHT, IV_THEME_DARK, IV_THEME_PRINT };

/* The formula against values worked by hand. */
static void
test_contrast_formula (void)
{
  IvColor white = { 1, 1, 1, 1 }, black = { 0, 0, 0, 1 };
  /* #777777: 0x77/255 = 0.46667; ((0.46667 + 0.055) / 1.055)^2.4 = 0.18447;
   * (1 + 0.05) / (0.18447 + 0.05) = 4.478 */
  IvColor grey = iv_color_from_rgb (0x777777, 1);
  /* #1e1e1e, the dark plot background: 0x1e/255 = 0.11765 → 0.012983; with #0072b2
   * (0.2126 · 0 + 0.7152 · 0.16827 + 0.0722 · 0.44520 = 0.15249): 0.20249 / 0.06298 */
  IvColor dark = iv_color_from_rgb (0x1e1e1e, 1), blue = iv_color_from_rgb (0x0072b2, 1);

  g_assert_cmpfloat_with_epsilon (iv_color_contrast (&white, &black), 21, 1e-9);
  g_assert_cmpfloat_with_epsilon (iv_color_contrast (&black, &white), 21, 1e-9);
  g_assert_cmpfloat_with_epsilon (iv_color_luminance (&grey), 0.18447, 1e-4);
  g_assert_cmpfloat_with_epsilon (iv_color_contrast (&grey, &white), 4.478, 1e-3);
  g_assert_cmpfloat_with_epsilon (iv_color_contrast (&blue, &dark), 3.215, 2e-3);
}

/* On white, the published colours under 3:1, kept as they are (see iv_theme_mark_color):
 * Okabe–Ito's orange, sky blue and (darkened) yellow, and the trivial bound's grey. */
static const guint32 light_exceptions[] = { 0xe69f00, 0x56b4e9, 0xc9b800, 0xa9a9a9 };

static void
assert_stands_out (IvTheme theme, const char *what, IvColor c)
{
  const IvColor *bg = &iv_theme_get_colors (theme)->background;
  double ratio = iv_color_contrast (&c, bg);
  guint32 rgb = ((guint32) lround (c.r * 255) << 16) | ((guint32) lround (c.g * 255) << 8)
                | (guint32) lround (c.b * 255);

  if (theme != IV_THEME_DARK)
    for (guint i = 0; i < G_N_ELEMENTS (light_exceptions); i++)
      if (rgb == light_exceptions[i])
        return;
  if (ratio < 3.0 || ratio < iv_theme_min_contrast (theme) - 1e-6)
    g_error ("%s theme: %s (%.3f, %.3f, %.3f) has contrast %.2f:1 against the background",
             iv_theme_to_string (theme), what, c.r, c.g, c.b, ratio);
}

static void
test_marks_stand_out (void)
{
  /* the topology's TP, CP and EP links (iv-render-topology.c) */
  static const guint32 links[] = { IV_TP_GROUP_RGB, IV_CP_GROUP_RGB, IV_EP_GROUP_RGB };
  static const IvBound bounds[]
      = { IV_BOUND_COMPUTE, IV_BOUND_MEMORY, IV_BOUND_COMM, IV_BOUND_TRIVIAL };

  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    {
      IvTheme theme = themes[t];
      for (guint i = 0; i < IV_PALETTE_SIZE; i++)
        {
          g_autofree char *what = g_strdup_printf ("series colour %u", i);
          assert_stands_out (theme, what, iv_palette_color (theme, i));
        }
      for (guint i = 0; i < G_N_ELEMENTS (bounds); i++)
        {
          g_autofree char *what = g_strdup_printf ("bound colour %u", i);
          assert_stands_out (theme, what,
                             iv_theme_mark_color (theme, iv_bound_color (bounds[i]), 1));
        }
      assert_stands_out (theme, "ring loop", iv_theme_mark_color (theme, IV_RING_LOOP_RGB, 1));
      for (guint i = 0; i < G_N_ELEMENTS (links); i++)
        assert_stands_out (theme, "group link", iv_theme_mark_color (theme, links[i], 1));
    }
}

/* A colour that already stands out is kept exactly, and every light one (figures
 * elsewhere are compared with these values); one that does not keeps its hue: the ring
 * stays purple on dark. */
static void
test_mark_color_keeps_what_it_can (void)
{
  IvColor blue = iv_theme_mark_color (IV_THEME_DARK, 0x56b4e9, 1);
  IvColor orange = iv_theme_mark_color (IV_THEME_LIGHT, 0xe69f00, 1);
  IvColor ring = iv_theme_mark_color (IV_THEME_DARK, IV_RING_LOOP_RGB, 1);
  IvColor raw = iv_color_from_rgb (IV_RING_LOOP_RGB, 1);
  const IvColor *dark = &iv_theme_get_colors (IV_THEME_DARK)->background;

  g_assert_cmpfloat (blue.r, ==, 0x56 / 255.0);
  g_assert_cmpfloat (blue.g, ==, 0xb4 / 255.0);
  g_assert_cmpfloat (blue.b, ==, 0xe9 / 255.0);
  g_assert_cmpfloat (orange.r, ==, 0xe6 / 255.0);
  g_assert_cmpfloat (orange.g, ==, 0x9f / 255.0);
  g_assert_cmpfloat (orange.b, ==, 0);
  /* the ring as it was: under 3:1 on the dark background */
  g_assert_cmpfloat (iv_color_contrast (&raw, dark), <, 3.0);
  g_assert_cmpfloat (ring.b, >, ring.g);
  g_assert_cmpfloat (ring.r, >, ring.g);
  /* no more than needed: within 2 % of the goal */
  g_assert_cmpfloat (iv_color_contrast (&ring, dark), <,
                     1.02 * iv_theme_min_contrast (IV_THEME_DARK));
}

static void
test_symbols_markup (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *fd = pango_font_description_from_string ("Sans");
  PangoAttrIterator *it;
  PangoAttribute *size;
  int start, end;

  /* "Tq" on the layout, its q 0.7 of the figure's absolute size (36 px: 25.2 px) */
  pango_font_description_set_absolute_size (fd, 36 * PANGO_SCALE);
  pango_layout_set_font_description (layout, fd);
  pango_font_description_free (fd);
  iv_text_layout_set_text (layout, "sweep of T_q");
  g_assert_cmpstr (pango_layout_get_text (layout), ==, "sweep of Tq");
  it = pango_attr_list_get_iterator (pango_layout_get_attributes (layout));
  do
    {
      pango_attr_iterator_range (it, &start, &end);
      size = pango_attr_iterator_get (it, PANGO_ATTR_ABSOLUTE_SIZE);
      if (size)
        break;
    }
  while (pango_attr_iterator_next (it));
  g_assert_nonnull (size);
  g_assert_cmpint (start, ==, 10);
  g_assert_cmpint (end, ==, 11);
  g_assert_cmpint (((PangoAttrSize *) size)->size, ==, (int) (0.7 * 36 * PANGO_SCALE));
  pango_attr_iterator_destroy (it);
  /* a name from data: shown as written, markup included; the symbol alone is typeset */
  iv_text_layout_set_text (layout, "<b>T_q</b> & GEMM_T_qkv T_q2 (T_q)");
  g_assert_cmpstr (pango_layout_get_text (layout), ==, "<b>Tq</b> & GEMM_T_qkv T_q2 (Tq)");
  /* the weight names: W with a subscript, each alone; a name from data as written */
  iv_text_layout_set_text (layout, "W_Q · W_K+W_V · W_gate · GEMM_W_Q · w_q_proj");
  g_assert_cmpstr (pango_layout_get_text (layout), ==, "WQ · WK+WV · Wgate · GEMM_W_Q · w_q_proj");
  it = pango_attr_list_get_iterator (pango_layout_get_attributes (layout));
  {
    int subs = 0;
    do
      {
        pango_attr_iterator_range (it, &start, &end);
        if (pango_attr_iterator_get (it, PANGO_ATTR_ABSOLUTE_SIZE))
          subs += end - start;
      }
    while (pango_attr_iterator_next (it));
    /* Q, K, V and "gate": seven characters set small */
    g_assert_cmpint (subs, ==, 7);
  }
  pango_attr_iterator_destroy (it);
  /* plain text after it: as written, with no subscript left over */
  iv_text_layout_set_text (layout, "<i>T_qkv</i>");
  g_assert_cmpstr (pango_layout_get_text (layout), ==, "<i>T_qkv</i>");
  g_assert_null (pango_layout_get_attributes (layout));
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The window's stage names typeset as the figures draw them: the symbols alone become
 * <sub> markup, everything else is escaped, invalid bytes become U+FFFD; the markup
 * parses to the figure's plain text. */
static void
test_symbols_gtk_markup (void)
{
  static const struct
  {
    const char *in, *markup, *plain;
  } cases[] = {
    { "S2  W_Q", "S2  W<sub>Q</sub>", "S2  WQ" },
    { "W_K+W_V", "W<sub>K</sub>+W<sub>V</sub>", "WK+WV" },
    { "<b>T_q</b> & GEMM_T_qkv T_q2 (T_q)",
      "&lt;b&gt;T<sub>q</sub>&lt;/b&gt; &amp; GEMM_T_qkv T_q2 (T<sub>q</sub>)",
      "<b>Tq</b> & GEMM_T_qkv T_q2 (Tq)" },
    { "softmax", "softmax", "softmax" },
    { "bad \xff W_up", "bad \xef\xbf\xbd W<sub>up</sub>", "bad \xef\xbf\xbd Wup" },
    { "", "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *m = iv_text_symbols_markup (cases[i].in);
      g_autofree char *text = NULL;
      g_assert_cmpstr (m, ==, cases[i].markup);
      g_assert_true (pango_parse_markup (m, -1, 0, NULL, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, cases[i].plain);
    }
  g_free (iv_text_symbols_markup (NULL));
}

/* Issue 31: one colour meaning per concept — no rank colour is near a bound's colour or
 * the ring's, in any theme (the old ranks took the Okabe–Ito blue and orange: within 45
 * of steel blue's and the memory-bound orange's 0…255 RGB values). */
static void
test_rank_colors_not_bounds (void)
{
  static const guint32 verdicts[] = { IV_BOUND_COMPUTE_RGB, IV_BOUND_MEMORY_RGB, IV_BOUND_COMM_RGB,
                                      IV_BOUND_TRIVIAL_RGB, IV_RING_LOOP_RGB };

  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    for (guint i = 0; i < IV_RANK_COLORS; i++)
      {
        IvColor rank = iv_palette_rank_color (themes[t], i);
        for (guint j = 0; j < G_N_ELEMENTS (verdicts); j++)
          {
            IvColor v = iv_theme_mark_color (themes[t], verdicts[j], 1.0);
            double d = 255
                       * sqrt ((rank.r - v.r) * (rank.r - v.r) + (rank.g - v.g) * (rank.g - v.g)
                               + (rank.b - v.b) * (rank.b - v.b));
            if (d < 60)
              g_error ("theme %u: rank colour %u is %.0f from verdict colour %06x", t, i, d,
                       verdicts[j]);
          }
        /* and the ranks apart from each other */
        for (guint j = 0; j < i; j++)
          {
            IvColor o = iv_palette_rank_color (themes[t], j);
            g_assert_cmpfloat (fabs (rank.r - o.r) + fabs (rank.g - o.g) + fabs (rank.b - o.b), >,
                               0.2);
          }
      }
}

/* CIE L*a*b* of @c (sRGB, D65): how far apart two colours look (CIE76 ΔE). */
static void
to_lab (const IvColor *c, double lab[3])
{
  double rgb[3] = { c->r, c->g, c->b }, xyz[3], f[3];
  static const double white[3] = { 0.95047, 1.0, 1.08883 };

  for (int i = 0; i < 3; i++)
    rgb[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92 : pow ((rgb[i] + 0.055) / 1.055, 2.4);
  xyz[0] = 0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2];
  xyz[1] = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  xyz[2] = 0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2];
  for (int i = 0; i < 3; i++)
    {
      double t = xyz[i] / white[i];
      f[i] = t > 0.008856 ? cbrt (t) : 7.787 * t + 16.0 / 116;
    }
  lab[0] = 116 * f[1] - 16, lab[1] = 500 * (f[0] - f[1]), lab[2] = 200 * (f[1] - f[2]);
}

static double
delta_e (const IvColor *a, const IvColor *b)
{
  double la[3], lb[3];

  to_lab (a, la), to_lab (b, lb);
  return sqrt ((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
               + (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* Issue 31: the topology's TP group was Okabe–Ito blue, ΔE 11 from the compute-bound
 * steel blue — one hue for two meanings. Each group colour is now at least ΔE 25 from
 * every verdict colour, the ring's and the other groups', in every theme. The formula:
 * #ffffff is L* 100, a* = b* = 0; #000000 is L* 0. */
static void
test_group_colors_distinct (void)
{
  static const guint32 groups[] = { IV_TP_GROUP_RGB, IV_CP_GROUP_RGB, IV_EP_GROUP_RGB };
  static const guint32 others[] = { IV_BOUND_COMPUTE_RGB, IV_BOUND_MEMORY_RGB, IV_BOUND_COMM_RGB,
                                    IV_BOUND_TRIVIAL_RGB, IV_RING_LOOP_RGB };
  IvColor white = { 1, 1, 1, 1 }, black = { 0, 0, 0, 1 };
  double lab[3];

  to_lab (&white, lab);
  g_assert_cmpfloat (fabs (lab[0] - 100) + fabs (lab[1]) + fabs (lab[2]), <, 0.05);
  to_lab (&black, lab);
  g_assert_cmpfloat (fabs (lab[0]), <, 1e-9);
  /* the old pair, as the comment says */
  {
    IvColor okabe = iv_color_from_rgb (0x0072b2, 1), steel = iv_color_from_rgb (0x4682b4, 1);
    g_assert_cmpfloat (delta_e (&okabe, &steel), <, 12);
  }
  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
      {
        IvColor g = iv_theme_mark_color (themes[t], groups[i], 1);
        for (guint j = 0; j < G_N_ELEMENTS (others) + i; j++)
          {
            guint32 rgb = j < G_N_ELEMENTS (others) ? others[j] : groups[j - G_N_ELEMENTS (others)];
            IvColor o = iv_theme_mark_color (themes[t], rgb, 1);
            double d = delta_e (&g, &o);
            if (d < 25)
              g_error ("theme %u: group colour %06x is ΔE %.0f from %06x", t, groups[i], d, rgb);
          }
        /* and from the sharding figure's rank colours: its olive rank was ΔE 24 from the
         * TP group's olive, its bluish green the CP group's own (issue 31) */
        for (guint j = 0; j < IV_RANK_COLORS; j++)
          {
            IvColor rank = iv_palette_rank_color (themes[t], j);
            double d = delta_e (&g, &rank);
            if (d < 25)
              g_error ("theme %u: group colour %06x is ΔE %.0f from rank colour %u", t, groups[i],
                       d, j);
          }
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/theme/contrast-formula", test_contrast_formula);
  g_test_add_func ("/theme/marks-stand-out", test_marks_stand_out);
  g_test_add_func ("/theme/mark-color-keeps-what-it-can", test_mark_color_keeps_what_it_can);
  g_test_add_func ("/text/symbols-markup", test_symbols_markup);
  g_test_add_func ("/text/symbols-gtk-markup", test_symbols_gtk_markup);
  g_test_add_func ("/theme/rank-colors-not-bounds", test_rank_colors_not_bounds);
  g_test_add_func ("/theme/group-colors-distinct", test_group_colors_distinct);
  return g_test_run ();
}
