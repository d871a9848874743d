/* iv-render-pipelined.c: the pipelined I/O timeline figure (see the header). Sizes follow
 * the reference's proportions (its 10-inch figure: the timeline 1.75 parts to the
 * breakdown's 1.05, bars filling their lane), in pixels of the size it is given. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-pipelined.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-scale.h"
#include "iv-text.h"

#define PAD IV_FIGURE_PAD
#define AXIS_H 46.0   /* tick labels and "Time (ms)" */
#define LEGEND_H 34.0 /* the legend row below, framed */
#define EDGE_W 0.8    /* BAR_EDGE_LW 0.6 pt */
#define TEETH 4
#define ZIGZAG_FRAC 0.012 /* of the visible span, between 6 and 14 ms */
#define ZIGZAG_MIN_MS 6.0
#define ZIGZAG_MAX_MS 14.0

static const IvColor black = { 0, 0, 0, 1 };

/* The reference's colours: by name on the main lane (the palette's fixed colours, which
 * the All Events timeline uses too), grey I/O, green compute — a lighter green on stream 1. */
static IvColor
bar_color (const IvPipelineBar *b)
{
  switch (b->lane)
    {
    case IV_LANE_MAIN:
      /* a main event the reference does not name is drawn as await_dispatch */
      return iv_color_slot_color (IV_THEME_LIGHT,
                                  iv_color_slot_for (g_str_equal (b->name, "wait_for_io")
                                                             || g_str_equal (b->name, "trsm_host")
                                                         ? b->name
                                                         : "await_dispatch"));
    case IV_LANE_IO:
      return iv_color_slot_color (IV_THEME_LIGHT, iv_color_slot_for ("hdf5_io"));
    case IV_LANE_GPU1:
      return iv_color_from_rgb (0x3DA56A, 1);
    case IV_LANE_GPU0:
    case IV_N_LANES:
    default:
      return iv_color_slot_color (IV_THEME_LIGHT, iv_color_slot_for ("compute"));
    }
}
static const IvColor white = { 1, 1, 1, 1 };

static double
ms_of (const IvPipelinePlot *p, gint64 t_ns)
{
  return (double) (t_ns - p->t0_ns) / 1e6;
}

/* The PyTorch variant draws its bars whole: its axis reaches them. */
static void
axis_range (const IvPipelinePlot *p, double *lo, double *hi)
{
  *lo = 0;
  *hi = MAX (ms_of (p, p->t1_ns), 1e-3);
  if (p->legacy)
    for (guint i = 0; i < p->bars->len; i++)
      {
        const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
        *lo = MIN (*lo, ms_of (p, b->start_ns));
        *hi = MAX (*hi, ms_of (p, b->end_ns));
      }
}

#define LEGEND_ROW_H 22.0        /* a further row of the legend on a narrow page */
#define NARROW_BREAKDOWN_W 640.0 /* narrower: the breakdown goes under the timeline */
#define STACKED_KEY_H 62.0       /* …with its legend in up to three lines above it */

/* Where each legend entry goes when the entries flow into rows no wider than @avail:
 * the x of each from the row's start (NULL: not wanted) and its row; the rows' count,
 * each row's width in @row_w (up to 8 rows). */
static guint
legend_rows (IvText *text, const IvPipelinePlot *p, double avail, double *x, guint *row,
             double row_w[8])
{
  double at = 0;
  guint r = 0;

  for (guint i = 0; i < p->legend->len; i++)
    {
      double w, th, entry;
      iv_text_measure (text, g_array_index (p->legend, IvPipelineKey, i).label, 0.85, FALSE, 0, &w,
                       &th);
      entry = 22 + w;
      if (at > 0 && at + entry > avail && r < 7)
        row_w[r++] = at - 18, at = 0;
      if (x)
        x[i] = at;
      if (row)
        row[i] = r;
      at += entry + 18;
    }
  row_w[r] = at - 18;
  return p->legend->len ? r + 1 : 0;
}

void
iv_pipelined_layout (const IvPipelinedFigure *fig, double width, double height,
                     IvPipelinedLayout *L)
{
  const IvPipelinePlot *p = fig->plot;
  double gutter = 118, bottom;
  guint n = 0;

  gboolean stacked = fig->breakdown && width < NARROW_BREAKDOWN_W;

  memset (L, 0, sizeof *L);
  for (guint l = 0; l < IV_N_LANES; l++)
    n += L->shown[l] = p->has_lane[l];
  n = MAX (n, 1);
  axis_range (p, &L->t0_ms, &L->t1_ms);
  L->plot_x = gutter;
  L->plot_y = PAD + 8;
  if (stacked)
    {
      /* a narrow page: the breakdown under the timeline, across the page */
      L->plot_w = MAX (40, width - gutter - PAD);
      bottom = height * 0.42 - AXIS_H;
      L->bd_x = PAD + 8;
      L->bd_w = MAX (40, width - 2 * PAD - 16);
    }
  else if (fig->breakdown)
    {
      double total = width - gutter - 2 * PAD;
      L->plot_w = MAX (40, total * 1.75 / (1.75 + 1.05) - 24);
      L->bd_x = L->plot_x + L->plot_w + 36;
      L->bd_w = MAX (40, width - PAD - L->bd_x);
      bottom = height - PAD - AXIS_H;
    }
  else
    {
      /* the legend's rows, measured as drawn on a scratch context (hit tests get the same
       * layout): on a narrow page it takes more than one */
      cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
      cairo_t *cr = cairo_create (scratch);
      IvText text;
      double row_w[8];
      guint rows;
      iv_text_init (&text, cr, 13);
      rows = legend_rows (&text, p, width - 2 * PAD - 20, NULL, NULL, row_w);
      iv_text_clear (&text);
      cairo_destroy (cr);
      cairo_surface_destroy (scratch);
      L->legend_h = rows ? LEGEND_H + (rows - 1) * LEGEND_ROW_H : 0;
      L->plot_w = MAX (40, width - gutter - PAD);
      bottom = height - PAD - MAX (L->legend_h, LEGEND_H) - 8 - AXIS_H;
    }
  L->plot_h = MAX (4 * n, bottom - L->plot_y);
  L->lane_h = L->plot_h / n;
  {
    /* top to bottom; the PyTorch variant has GPU compute above I/O */
    static const IvLane order[IV_N_LANES]
        = { IV_LANE_MAIN, IV_LANE_IO, IV_LANE_GPU0, IV_LANE_GPU1 };
    static const IvLane legacy[IV_N_LANES]
        = { IV_LANE_GPU0, IV_LANE_IO, IV_LANE_MAIN, IV_LANE_GPU1 };
    guint k = 0;
    for (guint i = 0; i < IV_N_LANES; i++)
      {
        IvLane l = (p->legacy ? legacy : order)[i];
        if (L->shown[l])
          L->lane_y[l] = L->plot_y + L->lane_h * k++;
      }
  }
  if (stacked)
    {
      /* under the timeline's axis, its own ticks and title below it */
      L->bd_y = L->plot_y + L->plot_h + AXIS_H + STACKED_KEY_H;
      L->bd_h = MAX (40, height - PAD - 44 - L->bd_y);
    }
  else if (fig->breakdown)
    {
      /* the reference's inset: a bar at 0.20 of a 0.72-high axes, 0.28 high */
      L->bd_y = L->plot_y;
      L->bd_h = L->plot_h;
    }
}

double
iv_pipelined_x (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, gint64 t_ns)
{
  double ms = ms_of (fig->plot, t_ns);
  return L->plot_x + (ms - L->t0_ms) / MAX (1e-9, L->t1_ms - L->t0_ms) * L->plot_w;
}

/* A bar's drawn extent: clipped to the window (the PyTorch variant's are whole). */
static void
bar_extent (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, const IvPipelineBar *b,
            double *x0, double *x1)
{
  const IvPipelinePlot *p = fig->plot;
  gint64 lo = p->legacy ? b->start_ns : MAX (b->start_ns, p->t0_ns);
  gint64 hi = p->legacy ? b->end_ns : MIN (b->end_ns, p->t1_ns);
  *x0 = iv_pipelined_x (fig, L, lo);
  *x1 = iv_pipelined_x (fig, L, hi);
}

guint
iv_pipelined_bar_at (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, double x, double y)
{
  guint best = G_MAXUINT;
  for (guint i = 0; i < fig->plot->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (fig->plot->bars, IvPipelineBar, i);
      double x0, x1, y0 = L->lane_y[b->lane], y1 = y0 + L->lane_h;
      if (!L->shown[b->lane])
        continue;
      bar_extent (fig, L, b, &x0, &x1);
      /* the last bar drawn wins, as it is the one on top */
      if (x >= MIN (x0, x1 - 2) && x <= MAX (x1, x0 + 2) && y >= y0 && y <= y1)
        best = i;
    }
  return best;
}

/* _draw_timeline_bar: bottom edge, right edge (zig-zag when cut), top edge, left edge;
 * the teeth of a zig-zag point into the bar, @amp px deep, at most 35 % of its width. */
static void
bar_path (cairo_t *cr, double x0, double x1, double y0, double y1, gboolean cut0, gboolean cut1,
          double amp)
{
  const int pts = 2 * TEETH + 1;
  amp = MIN (amp, MAX ((x1 - x0) * 0.35, 0));
  cairo_move_to (cr, x0, y1);
  cairo_line_to (cr, x1, y1);
  if (cut1 && amp > 0)
    for (int i = 1; i < pts; i++)
      cairo_line_to (cr, x1 - (i % 2 ? amp : 0), y1 + (y0 - y1) * i / (pts - 1));
  else
    cairo_line_to (cr, x1, y0);
  cairo_line_to (cr, x0, y0);
  if (cut0 && amp > 0)
    for (int i = 1; i < pts; i++)
      cairo_line_to (cr, x0 + (i % 2 ? amp : 0), y0 + (y1 - y0) * i / (pts - 1));
  cairo_close_path (cr);
}

static void
swatch (cairo_t *cr, double x, double y, IvColor c)
{
  cairo_rectangle (cr, x, y - 6, 16, 12);
  iv_color_set_source (cr, &c);
  cairo_fill_preserve (cr);
  iv_color_set_source (cr, &black);
  cairo_set_line_width (cr, EDGE_W);
  cairo_stroke (cr);
}

static void
draw_x_axis (cairo_t *cr, IvText *text, double x, double w, double y, double lo, double hi,
             guint target, const char *title, const IvThemeColors *colors, double grid_top,
             gboolean dashed)
{
  IvScaleSpec spec = { IV_SCALE_LINEAR, IV_UNIT_PLAIN, FALSE, 0 };
  g_autoptr (IvTicks) ticks = iv_ticks_compute (&spec, lo, hi, target);
  static const double dash[] = { 4, 3 };

  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      const IvTick *tk = &ticks->ticks[i];
      double px = x + (tk->value - lo) / MAX (1e-12, hi - lo) * w;
      if (px < x - 0.5 || px > x + w + 0.5 || !tk->major)
        continue;
      {
        IvColor grid = { 0.5, 0.5, 0.5, 0.3 };
        iv_color_set_source (cr, &grid);
        cairo_set_line_width (cr, 1);
        if (dashed)
          cairo_set_dash (cr, dash, 2, 0);
        cairo_move_to (cr, round (px) + 0.5, grid_top);
        cairo_line_to (cr, round (px) + 0.5, y);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
      }
      iv_color_set_source (cr, &colors->foreground);
      cairo_rectangle (cr, round (px), y, 1, 4);
      cairo_fill (cr);
      if (tk->label)
        iv_text_show (text, cr, tk->label, px, y + 6, 0.5, 0, 0.9, FALSE, 0, &colors->foreground);
    }
  iv_text_show (text, cr, title, x + w / 2, y + 24, 0.5, 0, 1.0, TRUE, 0, &colors->foreground);
}

static void
draw_bars (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L)
{
  const IvPipelinePlot *p = fig->plot;
  double span = L->t1_ms - L->t0_ms;
  double amp_ms = MIN (ZIGZAG_MAX_MS, MAX (ZIGZAG_MIN_MS, ZIGZAG_FRAC * span));
  double amp = amp_ms / MAX (1e-9, span) * L->plot_w;

  cairo_save (cr);
  cairo_rectangle (cr, L->plot_x, L->plot_y, L->plot_w, L->plot_h);
  cairo_clip (cr);
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      IvColor fill = bar_color (b);
      double x0, x1, y0 = L->lane_y[b->lane], y1 = y0 + L->lane_h;
      if (!L->shown[b->lane])
        continue;
      bar_extent (fig, L, b, &x0, &x1);
      bar_path (cr, x0, x1, y0, y1, b->cut_left, b->cut_right, amp);
      iv_color_set_source (cr, &fill);
      cairo_fill_preserve (cr);
      iv_color_set_source (cr, &black);
      cairo_set_line_width (cr, i == fig->highlighted ? 3 : EDGE_W);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      g_autofree char *label = NULL;
      double x0, x1;
      if (!b->labelled || !L->shown[b->lane])
        continue;
      bar_extent (fig, L, b, &x0, &x1);
      label = g_strdup_printf ("%" G_GINT64_FORMAT, b->candidate);
      iv_text_show (text, cr, label, (x0 + x1) / 2, L->lane_y[b->lane] + L->lane_h / 2, 0.5, 0.5,
                    0.85, TRUE, 0, b->lane == IV_LANE_IO ? &black : &white);
    }
}

static void
draw_legend (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
             double width, double y, const IvThemeColors *colors)
{
  const IvPipelinePlot *p = fig->plot;
  double h = 26, row_w[8], widest = 0, x0;
  g_autofree double *xs = NULL;
  g_autofree guint *rows = NULL;
  guint n_rows;

  if (p->legend->len == 0)
    return;
  xs = g_new0 (double, p->legend->len);
  rows = g_new0 (guint, p->legend->len);
  /* one framed row under the timeline, centred on it; rows on a narrow page, the last
   * at @y */
  n_rows = legend_rows (text, p, width - 2 * PAD - 20, xs, rows, row_w);
  for (guint r = 0; r < n_rows; r++)
    widest = MAX (widest, row_w[r]);
  x0 = CLAMP (L->plot_x + L->plot_w / 2 - widest / 2, PAD + 10, width - PAD - 10 - widest);
  y -= (n_rows - 1) * LEGEND_ROW_H;
  iv_color_set_source (cr, &colors->grid);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, round (x0 - 10) + 0.5, round (y - h / 2) + 0.5, round (widest + 20),
                   h + (n_rows - 1) * LEGEND_ROW_H);
  cairo_stroke (cr);
  for (guint i = 0; i < p->legend->len; i++)
    {
      const IvPipelineKey *k = &g_array_index (p->legend, IvPipelineKey, i);
      double x = x0 + xs[i], ky = y + rows[i] * LEGEND_ROW_H;
      swatch (cr, x, ky, iv_color_slot_color (IV_THEME_LIGHT, iv_color_slot_for (k->name)));
      iv_text_show (text, cr, k->label, x + 22, ky, 0, 0.5, 0.85, FALSE, 0, &colors->foreground);
    }
}

/* _draw_breakdown_panel: one horizontal bar, 0–100 %, segments at their drawn widths,
 * "N%" inside those of at least 10 % (white above 20 %), and a legend titled with the
 * candidate above it. */
static void
draw_breakdown (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
                const IvThemeColors *colors)
{
  g_autoptr (GArray) segs = iv_breakdown_segments (fig->breakdown);
  double bar_h = L->bd_h * 0.28 / 0.72, bar_y = L->bd_y + L->bd_h * (1 - 0.20 / 0.72) - bar_h / 2;
  double x = L->bd_x, ly;
  g_autofree char *title
      = fig->breakdown->candidate >= 0
            ? g_strdup_printf (_ ("Candidate %" G_GINT64_FORMAT), fig->breakdown->candidate)
            : g_strdup ("Candidate ?");

  /* the top spine and the axis, as the reference keeps them */
  iv_color_set_source (cr, &colors->foreground);
  cairo_rectangle (cr, L->bd_x, L->bd_y, L->bd_w, 1);
  cairo_fill (cr);
  cairo_rectangle (cr, L->bd_x, L->bd_y + L->bd_h, L->bd_w, 1);
  cairo_fill (cr);
  for (int m = 0; m <= 100; m += 5)
    {
      double px = round (L->bd_x + m / 100.0 * L->bd_w) + 0.5;
      IvColor grid = { 0.5, 0.5, 0.5, m % 25 ? 0.15 : 0.3 };
      iv_color_set_source (cr, &grid);
      cairo_set_line_width (cr, m % 25 ? 1 : 1.2);
      cairo_move_to (cr, px, L->bd_y);
      cairo_line_to (cr, px, L->bd_y + L->bd_h);
      cairo_stroke (cr);
      if (m % 25 == 0)
        {
          g_autofree char *label = g_strdup_printf ("%d", m);
          iv_text_show (text, cr, label, px, L->bd_y + L->bd_h + 6, 0.5, 0, 0.9, FALSE, 0,
                        &colors->foreground);
        }
    }
  iv_text_show (text, cr, _ ("GPU Runtime Breakdown (%)"), L->bd_x + L->bd_w / 2,
                L->bd_y + L->bd_h + 24, 0.5, 0, 1.0, TRUE, 0, &colors->foreground);
  for (guint i = 0; i < segs->len; i++)
    {
      const IvBreakdownSegment *s = &g_array_index (segs, IvBreakdownSegment, i);
      double w = s->width / 100 * L->bd_w;
      IvColor c = iv_color_from_rgb (s->rgb, 1);
      cairo_rectangle (cr, x, bar_y, w, bar_h);
      iv_color_set_source (cr, &c);
      cairo_fill_preserve (cr);
      iv_color_set_source (cr, &black);
      cairo_set_line_width (cr, 0.7);
      cairo_stroke (cr);
      if (s->pct >= 10)
        {
          g_autofree char *pct = g_strdup_printf ("%.0f%%", s->pct);
          iv_text_show (text, cr, pct, x + w / 2, bar_y + bar_h / 2, 0.5, 0.5, 0.8, TRUE, 0,
                        s->pct > 20 ? &white : &black);
        }
      x += w;
    }
  /* a narrow page: the breakdown under the timeline, its legend a line above it (over
   * the bar it would hide the segments) */
  if (L->bd_x < L->plot_x)
    {
      double at = 0, ly0 = L->bd_y - STACKED_KEY_H + 6, w, h;
      g_autofree char *head = g_strdup_printf ("%s:", title);
      iv_text_measure (text, head, 0.85, TRUE, 0, &w, &h);
      iv_text_show (text, cr, head, L->bd_x, ly0 + h / 2, 0, 0.5, 0.85, TRUE, 0,
                    &colors->foreground);
      at = w + 10;
      for (guint i = 0; i < segs->len; i++)
        {
          const IvBreakdownSegment *sg = &g_array_index (segs, IvBreakdownSegment, i);
          iv_text_measure (text, sg->label, 0.85, FALSE, 0, &w, &h);
          if (at > 0 && L->bd_x + at + 22 + w > L->bd_x + L->bd_w)
            at = 0, ly0 += 18;
          swatch (cr, L->bd_x + at, ly0 + h / 2, iv_color_from_rgb (sg->rgb, 1));
          iv_text_show (text, cr, sg->label, L->bd_x + at + 22, ly0 + h / 2, 0, 0.5, 0.85, FALSE, 0,
                        &colors->foreground);
          at += 22 + w + 14;
        }
      return;
    }
  /* legend, upper centre: the candidate as an underlined bold title, then each family */
  {
    double tw, th, lw = 0, row = 20, lx, top = L->bd_y + 8, frame_h;
    iv_text_measure (text, title, 0.85, TRUE, 0, &tw, &th);
    lw = tw;
    for (guint i = 0; i < segs->len; i++)
      {
        double w, h;
        iv_text_measure (text, g_array_index (segs, IvBreakdownSegment, i).label, 0.85, FALSE, 0,
                         &w, &h);
        lw = MAX (lw, 22 + w);
      }
    frame_h = 10 + th + 6 + segs->len * row;
    lx = L->bd_x + L->bd_w / 2 - lw / 2;
    iv_color_set_source (cr, &colors->background);
    cairo_rectangle (cr, lx - 8, top, lw + 16, frame_h);
    cairo_fill_preserve (cr);
    iv_color_set_source (cr, &colors->grid);
    cairo_set_line_width (cr, 1);
    cairo_stroke (cr);
    iv_text_show (text, cr, title, L->bd_x + L->bd_w / 2, top + 5, 0.5, 0, 0.85, TRUE, 0,
                  &colors->foreground);
    iv_color_set_source (cr, &colors->foreground);
    cairo_rectangle (cr, L->bd_x + L->bd_w / 2 - tw / 2, top + 5 + th + 1, tw, 1);
    cairo_fill (cr);
    ly = top + 10 + th + 6 + row / 2;
    for (guint i = 0; i < segs->len; i++, ly += row)
      {
        const IvBreakdownSegment *s = &g_array_index (segs, IvBreakdownSegment, i);
        swatch (cr, lx, ly, iv_color_from_rgb (s->rgb, 1));
        iv_text_show (text, cr, s->label, lx + 22, ly, 0, 0.5, 0.85, FALSE, 0, &colors->foreground);
      }
  }
}

gboolean
iv_render_pipelined (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                     double height, GError **error)
{
  const IvPipelinedFigure *fig = data;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  IvPipelinedLayout L;
  IvText text;

  if (!fig || !fig->plot)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("no pipelined timeline to draw"));
      return FALSE;
    }
  iv_pipelined_layout (fig, width, height, &L);
  iv_text_init (&text, cr, 13 * (options->font_scale > 0 ? options->font_scale : 1));
  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_paint (cr);

  draw_x_axis (cr, &text, L.plot_x, L.plot_w, L.plot_y + L.plot_h, L.t0_ms, L.t1_ms,
               MAX (2, (guint) (L.plot_w / 110)), _ ("Time (ms)"), colors, L.plot_y, TRUE);
  draw_bars (cr, &text, fig, &L);
  /* the left and bottom spines, bold lane names */
  iv_color_set_source (cr, &colors->foreground);
  cairo_rectangle (cr, L.plot_x, L.plot_y, 1, L.plot_h);
  cairo_fill (cr);
  cairo_rectangle (cr, L.plot_x, L.plot_y + L.plot_h, L.plot_w, 1);
  cairo_fill (cr);
  for (guint l = 0; l < IV_N_LANES; l++)
    if (L.shown[l])
      iv_text_show (&text, cr, iv_lane_name (l, fig->plot->legacy), L.plot_x - 8,
                    L.lane_y[l] + L.lane_h / 2, 1, 0.5, 0.95, TRUE, L.plot_x - 12,
                    &colors->foreground);
  if (fig->breakdown)
    draw_breakdown (cr, &text, fig, &L, colors);
  else
    draw_legend (cr, &text, fig, &L, width, height - PAD - LEGEND_H / 2, colors);
  cairo_restore (cr);
  iv_text_clear (&text);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
