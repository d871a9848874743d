/* iv-render-pipelined.c: the pipelined I/O timeline figure (see the header). */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-pipelined.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-scale.h"
#include "iv-text.h"
#include "iv-units.h"

#define PAD IV_FIGURE_PAD
#define TITLE_H 26.0
#define LEGEND_ROW_H 22.0
#define GUTTER_W 118.0
#define AXIS_H 34.0
#define LANE_MAX_H 110.0
#define BAR_INSET 6.0
#define BD_REGION_W 268.0
#define BD_BAR_W 46.0
#define TOOTH_PX 7.0

/* One colour per event name in every view: the palette's, by name (the reference
 * figure's names have fixed slots there). */
IvColor
iv_pipelined_color (const IvPipelinedFigure *fig, const char *name, IvTheme theme)
{
  return iv_palette_color (theme, iv_palette_index_for (name));
}

static guint
legend_rows (const IvPipelinedFigure *fig, double avail)
{
  /* An estimate (7 px per character) good enough to reserve room; drawing measures. */
  double x = 0;
  guint rows = 1;
  for (guint i = 0; i < fig->plot->names->len; i++)
    {
      double w = 34 + 7 * strlen (fig->plot->names->pdata[i]) + 70;
      if (x + w > avail && x > 0)
        rows++, x = 0;
      x += w;
    }
  return MIN (rows, 3);
}

void
iv_pipelined_layout (const IvPipelinedFigure *fig, double width, double height, IvPipelinedLayout *L)
{
  double right = fig->breakdown ? BD_REGION_W : 0;
  double top, bottom;

  memset (L, 0, sizeof *L);
  L->plot_x = GUTTER_W;
  L->plot_w = MAX (20, width - GUTTER_W - PAD - right);
  L->legend_y = PAD + TITLE_H;
  top = L->legend_y + LEGEND_ROW_H * legend_rows (fig, L->plot_w + GUTTER_W - PAD) + 10;
  bottom = height - PAD - AXIS_H;
  L->lane_h = CLAMP ((bottom - top) / IV_N_LANES, 14, LANE_MAX_H);
  for (guint l = 0; l < IV_N_LANES; l++)
    L->lane_y[l] = top + l * L->lane_h;
  L->axis_y = top + IV_N_LANES * L->lane_h;
  if (fig->breakdown)
    {
      L->bd_x = L->plot_x + L->plot_w + 28;
      L->bd_w = BD_BAR_W;
      L->bd_y = top + BAR_INSET;
      L->bd_h = IV_N_LANES * L->lane_h - 2 * BAR_INSET;
    }
}

double
iv_pipelined_x (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, gint64 t_ns)
{
  const IvPipelinePlot *p = fig->plot;
  double span = (double) MAX (1, p->t1_ns - p->t0_ns);
  return L->plot_x + (double) (t_ns - p->t0_ns) / span * L->plot_w;
}

/* A bar's drawn extent: clipped to the window, at least a pixel wide. */
static void
bar_extent (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, const IvPipelineBar *b,
            double *x0, double *x1, gboolean *cut0, gboolean *cut1)
{
  *cut0 = b->start_ns < fig->plot->t0_ns;
  *cut1 = b->end_ns > fig->plot->t1_ns;
  *x0 = iv_pipelined_x (fig, L, MAX (b->start_ns, fig->plot->t0_ns));
  *x1 = iv_pipelined_x (fig, L, MIN (b->end_ns, fig->plot->t1_ns));
  if (*x1 - *x0 < 1)
    *x1 = *x0 + 1;
}

guint
iv_pipelined_bar_at (const IvPipelinedFigure *fig, const IvPipelinedLayout *L, double x, double y)
{
  guint best = G_MAXUINT;
  for (guint i = 0; i < fig->plot->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (fig->plot->bars, IvPipelineBar, i);
      double x0, x1, y0 = L->lane_y[b->lane] + BAR_INSET, y1 = L->lane_y[b->lane] + L->lane_h - BAR_INSET;
      gboolean c0, c1;
      bar_extent (fig, L, b, &x0, &x1, &c0, &c1);
      /* the last bar drawn wins, as it is the one on top */
      if (x >= x0 - 0.5 && x <= x1 + 0.5 && y >= y0 && y <= y1)
        best = i;
    }
  return best;
}

/* A bar's outline; a cut edge is a zig-zag whose teeth point inwards, so a bar that runs
 * on past the window cannot be mistaken for one that ends there. */
static void
bar_path (cairo_t *cr, double x0, double x1, double y0, double y1, gboolean cut0, gboolean cut1)
{
  int n = MAX (2, 2 * (int) round ((y1 - y0) / (2 * TOOTH_PX)));
  double a = MIN (IV_PIPELINED_ZIGZAG_PX, (x1 - x0) / 2);

  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y0);
  for (int k = 1; cut1 && k <= n; k++)
    cairo_line_to (cr, x1 - (k % 2 ? a : 0), y0 + (y1 - y0) * k / n);
  cairo_line_to (cr, x1, y1);
  cairo_line_to (cr, x0, y1);
  for (int k = 1; cut0 && k <= n; k++)
    cairo_line_to (cr, x0 + (k % 2 ? a : 0), y1 - (y1 - y0) * k / n);
  cairo_close_path (cr);
}

static void
hatch (cairo_t *cr, const IvColor *ink, double x0, double y0, double x1, double y1)
{
  cairo_save (cr);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.2);
  cairo_set_source_rgba (cr, ink->r, ink->g, ink->b, 0.55);
  for (double s = x0 - (y1 - y0); s < x1; s += 6)
    {
      cairo_move_to (cr, s, y1);
      cairo_line_to (cr, s + (y1 - y0), y0);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_swatch (cairo_t *cr, const IvColor *fill, gboolean filled_gap, double x, double y)
{
  cairo_rectangle (cr, x, y - 6, 14, 12);
  iv_color_set_source (cr, fill);
  if (filled_gap)
    {
      IvColor light = *fill;
      light.a = 0.35;
      iv_color_set_source (cr, &light);
      cairo_fill_preserve (cr);
      hatch (cr, fill, x, y - 6, x + 14, y + 6);
      return;
    }
  cairo_fill (cr);
}

static void
draw_legend (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
             IvTheme theme, const IvThemeColors *colors)
{
  const IvPipelinePlot *p = fig->plot;
  gboolean any_filled = FALSE, real_await = FALSE;
  double x = L->plot_x, y = L->legend_y + LEGEND_ROW_H / 2, right = L->plot_x + L->plot_w;

  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      any_filled |= b->kind == IV_BAR_FILLED;
      real_await |= b->kind != IV_BAR_FILLED && g_str_equal (b->name, "await_dispatch");
    }
  for (guint i = 0; i <= p->names->len; i++)
    {
      const char *name = i < p->names->len ? p->names->pdata[i] : "await_dispatch";
      gboolean gap = i == p->names->len;
      g_autofree char *label = NULL;
      IvColor fill;
      double w, h;

      if (gap && !any_filled)
        break;
      if (!gap && g_str_equal (name, "await_dispatch") && !real_await)
        continue;
      label = gap ? g_strdup (_("await_dispatch, gap ≥ 1 ms filled"))
              : g_str_equal (name, "I/O") ? g_strdup (_("I/O, merged per candidate"))
              : g_strdup (name);
      iv_text_measure (text, label, 0.9, FALSE, 0, &w, &h);
      if (x + 20 + w > right && x > L->plot_x)
        {
          x = L->plot_x;
          y += LEGEND_ROW_H;
        }
      fill = iv_pipelined_color (fig, name, theme);
      draw_swatch (cr, &fill, gap, x, y);
      x = iv_text_legend_label (text, cr, label, x, y, &colors->foreground);
    }
}

static void
draw_axis (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
           const IvThemeColors *colors)
{
  const IvPipelinePlot *p = fig->plot;
  /* Milliseconds from the window's start: what the reference plot's axis reads. */
  IvScaleSpec spec = { IV_SCALE_TIME, { IV_UNIT_SECONDS, 1e-9, NULL }, FALSE, (double) p->t0_ns };
  g_autoptr (IvTicks) ticks = iv_ticks_compute (&spec, (double) p->t0_ns, (double) p->t1_ns,
                                                MAX (2, (guint) (L->plot_w / 120)));
  double top = L->lane_y[0];

  iv_color_set_source (cr, &colors->foreground_dim);
  cairo_rectangle (cr, L->plot_x, L->axis_y, L->plot_w, 1);
  cairo_fill (cr);
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      const IvTick *tk = &ticks->ticks[i];
      double x = iv_pipelined_x (fig, L, (gint64) llround (tk->value));
      if (x < L->plot_x - 0.5 || x > L->plot_x + L->plot_w + 0.5)
        continue;
      if (tk->major)
        {
          iv_color_set_source (cr, &colors->grid);
          cairo_rectangle (cr, floor (x), top, 1, L->axis_y - top);
          cairo_fill (cr);
        }
      iv_color_set_source (cr, &colors->foreground_dim);
      cairo_rectangle (cr, floor (x), L->axis_y, 1, tk->major ? 5 : 3);
      cairo_fill (cr);
      if (tk->label)
        {
          g_autofree char *label = ticks->unit_label ? g_strdup_printf ("%s %s", tk->label, ticks->unit_label)
                                                     : g_strdup (tk->label);
          iv_text_show (text, cr, label, x, L->axis_y + 7, 0.5, 0, 0.85, FALSE, 0, &colors->foreground_dim);
        }
    }
  iv_text_show (text, cr, _("time from the window’s start"), L->plot_x + L->plot_w, L->axis_y + 21, 1, 0,
                0.8, FALSE, 0, &colors->foreground_dim);
}

static void
draw_bars (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
           IvTheme theme, const IvThemeColors *colors)
{
  const IvPipelinePlot *p = fig->plot;

  cairo_save (cr);
  cairo_rectangle (cr, L->plot_x, L->lane_y[0], L->plot_w, L->axis_y - L->lane_y[0]);
  cairo_clip (cr);
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      double y0 = L->lane_y[b->lane] + BAR_INSET, y1 = L->lane_y[b->lane] + L->lane_h - BAR_INSET;
      double x0, x1, w, h, room;
      gboolean cut0, cut1;
      IvColor fill = iv_pipelined_color (fig, b->name, theme), ink;

      bar_extent (fig, L, b, &x0, &x1, &cut0, &cut1);
      bar_path (cr, x0, x1, y0, y1, cut0, cut1);
      if (b->kind == IV_BAR_FILLED)
        {
          IvColor light = fill;
          light.a = 0.35;
          iv_color_set_source (cr, &light);
          cairo_fill_preserve (cr);
          hatch (cr, &fill, x0, y0, x1, y1);
          ink = colors->foreground;
        }
      else
        {
          iv_color_set_source (cr, &fill);
          cairo_fill_preserve (cr);
          /* a hairline of the background between abutting bars of one colour */
          iv_color_set_source (cr, &colors->background);
          cairo_set_line_width (cr, 0.75);
          cairo_stroke (cr);
          ink = iv_color_ink_for (&fill);
        }
      cairo_new_path (cr);
      if (i == fig->highlighted)
        {
          bar_path (cr, x0, x1, y0, y1, cut0, cut1);
          iv_color_set_source (cr, &colors->foreground);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }

      /* "Candidate N" when it fits, else "N"; the teeth are not room for text. */
      room = x1 - x0 - 8 - (cut0 ? IV_PIPELINED_ZIGZAG_PX : 0) - (cut1 ? IV_PIPELINED_ZIGZAG_PX : 0);
      if (b->candidate >= 0 && room > 6)
        {
          g_autofree char *full = g_strdup_printf (_("Candidate %" G_GINT64_FORMAT), b->candidate);
          g_autofree char *brief = g_strdup_printf ("%" G_GINT64_FORMAT, b->candidate);
          const char *label = full;
          iv_text_measure (text, full, 0.85, FALSE, 0, &w, &h);
          if (w > room)
            {
              label = brief;
              iv_text_measure (text, brief, 0.85, FALSE, 0, &w, &h);
            }
          if (w <= room && h <= y1 - y0)
            iv_text_show (text, cr, label, (MAX (x0, L->plot_x) + MIN (x1, L->plot_x + L->plot_w)) / 2,
                          (y0 + y1) / 2, 0.5, 0.5, 0.85, FALSE, 0, &ink);
        }
    }
  cairo_restore (cr);
}

static void
draw_breakdown (cairo_t *cr, IvText *text, const IvPipelinedFigure *fig, const IvPipelinedLayout *L,
                IvTheme theme, const IvThemeColors *colors)
{
  g_autoptr (GArray) segs = iv_breakdown_fold (fig->breakdown, fig->min_runtime_pct);
  g_autofree double *frac = g_new0 (double, MAX (1, segs->len));
  g_autofree double *hs = g_new0 (double, MAX (1, segs->len));
  g_autofree double *label_y = g_new0 (double, MAX (1, segs->len));
  double y, line_h, w, h, label_x = L->bd_x + L->bd_w + 12;
  double right = label_x + (BD_REGION_W - 28 - L->bd_w - 12) - 4;

  {
    g_autofree char *total = iv_units_format_seconds (fig->breakdown->total_ms * 1e-3);
    g_autofree char *sub = g_strdup_printf (_("candidate %" G_GINT64_FORMAT " · %s"),
                                            fig->breakdown->candidate, total);
    iv_text_show (text, cr, _("GPU runtime"), L->bd_x, L->legend_y, 0, 0, 0.95, TRUE, 0, &colors->foreground);
    iv_text_show (text, cr, sub, L->bd_x, L->legend_y + 17, 0, 0, 0.8, FALSE, right - L->bd_x,
                  &colors->foreground_dim);
  }
  if (segs->len == 0)
    {
      iv_text_show (text, cr, _("no GPU time"), L->bd_x, L->bd_y, 0, 0, 0.85, FALSE, 0, &colors->foreground_dim);
      return;
    }
  for (guint i = 0; i < segs->len; i++)
    frac[i] = g_array_index (segs, IvBreakdownSegment, i).pct / 100;
  iv_stack_widths (frac, segs->len, L->bd_h, IV_PIPELINED_MIN_SEGMENT_PX, hs);

  iv_text_measure (text, "Xg", 0.8, FALSE, 0, &w, &line_h);
  y = L->bd_y;
  for (guint i = 0; i < segs->len; i++)
    {
      const IvBreakdownSegment *s = &g_array_index (segs, IvBreakdownSegment, i);
      IvColor fill = s->n_folded ? colors->foreground_dim : iv_palette_color (theme, i % (IV_PALETTE_SIZE - 1));
      IvColor ink = iv_color_ink_for (&fill);

      if (s->n_folded)
        fill.a = 0.55, ink = colors->foreground;
      cairo_rectangle (cr, L->bd_x, y, L->bd_w, hs[i]);
      iv_color_set_source (cr, &fill);
      cairo_fill_preserve (cr);
      iv_color_set_source (cr, &colors->background);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      if (s->pct >= 10)
        {
          g_autofree char *pct = g_strdup_printf ("%.0f%%", s->pct);
          iv_text_measure (text, pct, 0.85, TRUE, 0, &w, &h);
          if (h <= hs[i])
            iv_text_show (text, cr, pct, L->bd_x + L->bd_w / 2, y + hs[i] / 2, 0.5, 0.5, 0.85, TRUE, 0, &ink);
        }
      label_y[i] = y + hs[i] / 2;
      y += hs[i];
    }

  /* Names beside the bar at their segment's middle, pushed apart to stay readable, with
   * a leader line when pushed. */
  for (guint i = 1; i < segs->len; i++)
    label_y[i] = MAX (label_y[i], label_y[i - 1] + line_h);
  for (guint i = segs->len; i-- > 0;)
    {
      double limit = i + 1 < segs->len ? label_y[i + 1] - line_h : L->bd_y + L->bd_h + line_h;
      label_y[i] = MIN (label_y[i], limit);
    }
  y = L->bd_y;
  for (guint i = 0; i < segs->len; i++)
    {
      const IvBreakdownSegment *s = &g_array_index (segs, IvBreakdownSegment, i);
      g_autofree char *label = s->n_folded
        ? g_strdup_printf (g_dngettext (NULL, "Other (%u family) %.1f %%", "Other (%u families) %.1f %%", s->n_folded),
                           s->n_folded, s->pct)
        : g_strdup_printf ("%s %.1f %%", s->name, s->pct);
      double mid = y + hs[i] / 2;

      iv_color_set_source (cr, &colors->foreground_dim);
      cairo_set_line_width (cr, 0.75);
      cairo_move_to (cr, L->bd_x + L->bd_w + 1, mid);
      cairo_line_to (cr, label_x - 3, label_y[i]);
      cairo_stroke (cr);
      iv_text_show (text, cr, label, label_x, label_y[i], 0, 0.5, 0.8, FALSE, right - label_x,
                    &colors->foreground);
      y += hs[i];
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

  if (!fig || !fig->plot || !fig->trace)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no pipelined timeline to draw");
      return FALSE;
    }
  iv_pipelined_layout (fig, width, height, &L);
  iv_text_init (&text, cr, 12 * (options->font_scale > 0 ? options->font_scale : 1));
  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_paint (cr);

  {
    const IvPipelinePlot *p = fig->plot;
    g_autofree char *base = g_path_get_basename (fig->trace->path ? fig->trace->path : "pipeline");
    g_autofree char *span = iv_units_format_seconds ((p->t1_ns - p->t0_ns) * 1e-9);
    g_autofree char *which = p->n_candidates == 0 ? g_strdup (_("whole file"))
      : p->n_candidates == 1 ? g_strdup_printf (_("candidate %" G_GINT64_FORMAT), p->first_candidate)
      : g_strdup_printf (_("candidates %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT), p->first_candidate,
                         p->first_candidate + p->n_candidates - 1);
    g_autofree char *title = g_strdup_printf ("%s · %s · %s", base, which, span);
    iv_text_show (&text, cr, title, PAD, PAD, 0, 0, 1.2, TRUE, L.plot_x + L.plot_w - PAD, &colors->foreground);
  }
  draw_legend (cr, &text, fig, &L, options->theme, colors);

  for (guint l = 0; l < IV_N_LANES; l++)
    {
      if (l % 2 == 0)
        {
          IvColor band = colors->grid;
          band.a *= 0.35;
          iv_color_set_source (cr, &band);
          cairo_rectangle (cr, L.plot_x, L.lane_y[l], L.plot_w, L.lane_h);
          cairo_fill (cr);
        }
      iv_text_show (&text, cr, iv_lane_name (l), L.plot_x - 10, L.lane_y[l] + L.lane_h / 2, 1, 0.5, 0.9,
                    FALSE, L.plot_x - PAD - 10, &colors->foreground);
    }
  draw_axis (cr, &text, fig, &L, colors);
  draw_bars (cr, &text, fig, &L, options->theme, colors);
  if (fig->breakdown)
    draw_breakdown (cr, &text, fig, &L, options->theme, colors);

  cairo_restore (cr);
  iv_text_clear (&text);
  return TRUE;
}
