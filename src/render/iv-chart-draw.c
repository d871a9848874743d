/* iv-chart-draw.c: drawing each kind of series inside the plot rectangle. Long sorted
 * lines are decimated to the first, lowest, highest and last point of every pixel
 * column first, which draws the same picture from a few thousand points. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-private.h"

#include <math.h>
#include <string.h>

#include "iv-palette.h"

static IvAxisId
y_axis (const IvSeries *s)
{
  return s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
}

static void
set_stroke (IvChartCtx *ctx, const IvSeries *s)
{
  static const double dash[] = { 6, 3 };
  IvColor c = s->color;

  iv_color_set_source (ctx->cr, &c);
  cairo_set_line_width (ctx->cr, s->line_width);
  cairo_set_line_join (ctx->cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (ctx->cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_dash (ctx->cr, s->dashed ? dash : NULL, s->dashed ? 2 : 0, 0);
}

static void
set_fill (IvChartCtx *ctx, const IvSeries *s, double alpha)
{
  IvColor c = s->color;

  /* Print has no transparency: blend with white instead. */
  if (ctx->theme == IV_THEME_PRINT)
    {
      c.r = 1 - alpha * (1 - c.r);
      c.g = 1 - alpha * (1 - c.g);
      c.b = 1 - alpha * (1 - c.b);
    }
  else
    c.a = alpha;
  iv_color_set_source (ctx->cr, &c);
}

/* The visible slice of a sorted series, one point beyond each edge so lines leave the plot. */
static void
visible_slice (const IvChartLayout *L, const IvSeries *s, gsize *from, gsize *to)
{
  double lo = MIN (L->lo[IV_AXIS_X], L->hi[IV_AXIS_X]);
  double hi = MAX (L->lo[IV_AXIS_X], L->hi[IV_AXIS_X]);

  *from = 0;
  *to = s->n;
  if (!s->sorted_x)
    return;
  *from = iv_stats_lower_bound (s->x, s->n, lo);
  *from = *from > 0 ? *from - 1 : 0;
  *to = iv_stats_lower_bound (s->x, s->n, hi);
  *to = MIN (s->n, *to + 1);
}

static void
path_xy (IvChartCtx *ctx, const double *x, const double *y, gsize n, IvAxisId ya, gboolean step)
{
  cairo_t *cr = ctx->cr;
  gboolean pen = FALSE;
  double prev_y = 0;

  for (gsize i = 0; i < n; i++)
    {
      double px = _iv_px_x (ctx->L, x[i]), py = _iv_px_y (ctx->L, ya, y[i]);
      if (!isfinite (px) || !isfinite (py))
        {
          pen = FALSE; /* a gap in the data is a gap in the line */
          continue;
        }
      if (!pen)
        cairo_move_to (cr, px, py);
      else
        {
          if (step)
            cairo_line_to (cr, px, prev_y);
          cairo_line_to (cr, px, py);
        }
      pen = TRUE;
      prev_y = py;
    }
}

static void
draw_line (IvChartCtx *ctx, IvSeries *s, gboolean step)
{
  IvAxisId ya = y_axis (s);
  gsize from, to, n;
  double ux = 1, uy = 0;
  guint columns;

  /* One column per device pixel: as many as the output can show. */
  cairo_user_to_device_distance (ctx->cr, &ux, &uy);
  columns = (guint) ceil (ctx->L->plot_w * MAX (hypot (ux, uy), 1.0));

  visible_slice (ctx->L, s, &from, &to);
  n = to - from;
  set_stroke (ctx, s);
  if (s->sorted_x && !step && n > 4 * (gsize) columns && ctx->L->kind[IV_AXIS_X] == IV_SCALE_LINEAR)
    {
      g_autofree double *dx = g_new (double, 4 * ((gsize) columns + 2));
      g_autofree double *dy = g_new (double, 4 * ((gsize) columns + 2));
      gsize m = iv_stats_decimate (s->x + from, s->y + from, n, ctx->L->lo[IV_AXIS_X],
                                   ctx->L->hi[IV_AXIS_X], columns, dx, dy);
      /* A column-dense zigzag looks the same with bevel joins, and cairo strokes those
       * several times faster than round ones. */
      cairo_set_line_join (ctx->cr, CAIRO_LINE_JOIN_BEVEL);
      path_xy (ctx, dx, dy, m, ya, FALSE);
    }
  else
    path_xy (ctx, s->x + from, s->y + from, n, ya, step);
  cairo_stroke (ctx->cr);
}

/* A dense area (telemetry of 200,000 samples, throughput of as many requests) as the
 * same first, lowest, highest and last point of every pixel column a line keeps: the
 * filled shape is the same at that width, and the path no longer a black band. */
static gboolean
draw_area_decimated (IvChartCtx *ctx, IvSeries *s, gsize from, gsize to)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  double ux = 1, uy = 0;
  guint columns;
  gsize n = to - from, m;
  g_autofree double *dx = NULL, *dy = NULL;

  cairo_user_to_device_distance (cr, &ux, &uy);
  columns = (guint) ceil (ctx->L->plot_w * MAX (hypot (ux, uy), 1.0));
  if (!s->sorted_x || s->base || n <= 4 * (gsize) columns
      || ctx->L->kind[IV_AXIS_X] != IV_SCALE_LINEAR)
    return FALSE;
  dx = g_new (double, 4 * ((gsize) columns + 2));
  dy = g_new (double, 4 * ((gsize) columns + 2));
  m = iv_stats_decimate (s->x + from, s->y + from, n, ctx->L->lo[IV_AXIS_X], ctx->L->hi[IV_AXIS_X],
                         columns, dx, dy);
  {
    /* absent samples (NaN) are not part of the shape */
    gsize k = 0;
    for (gsize i = 0; i < m; i++)
      if (isfinite (dy[i]))
        dx[k] = dx[i], dy[k++] = dy[i];
    m = k;
  }
  if (m == 0)
    return TRUE;
  cairo_move_to (cr, _iv_px_x (ctx->L, dx[0]), _iv_px_y (ctx->L, ya, dy[0]));
  for (gsize i = 1; i < m; i++)
    cairo_line_to (cr, _iv_px_x (ctx->L, dx[i]), _iv_px_y (ctx->L, ya, dy[i]));
  cairo_line_to (cr, _iv_px_x (ctx->L, dx[m - 1]), _iv_px_y (ctx->L, ya, 0));
  cairo_line_to (cr, _iv_px_x (ctx->L, dx[0]), _iv_px_y (ctx->L, ya, 0));
  cairo_close_path (cr);
  set_fill (ctx, s, s->alpha);
  cairo_fill (cr);
  set_stroke (ctx, s);
  cairo_set_line_width (cr, MIN (s->line_width, 1.5));
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_BEVEL);
  path_xy (ctx, dx, dy, m, ya, FALSE);
  cairo_stroke (cr);
  return TRUE;
}

static void
draw_area (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  gsize from, to;

  visible_slice (ctx->L, s, &from, &to);
  if (to <= from)
    return;
  if (draw_area_decimated (ctx, s, from, to))
    return;
  for (gsize i = from; i < to; i++)
    {
      double base = s->base ? s->base[i] : 0;
      double px = _iv_px_x (ctx->L, s->x[i]), py = _iv_px_y (ctx->L, ya, base + s->y[i]);
      if (i == from)
        cairo_move_to (cr, px, py);
      else
        cairo_line_to (cr, px, py);
    }
  for (gsize i = to; i-- > from;)
    {
      double base = s->base ? s->base[i] : 0;
      cairo_line_to (cr, _iv_px_x (ctx->L, s->x[i]), _iv_px_y (ctx->L, ya, base));
    }
  cairo_close_path (cr);
  set_fill (ctx, s, s->stacked ? MAX (s->alpha, 0.75) : s->alpha);
  cairo_fill (cr);
  /* The top edge in full colour. */
  {
    g_autofree double *top = g_new (double, to - from);
    for (gsize i = from; i < to; i++)
      top[i - from] = (s->base ? s->base[i] : 0) + s->y[i];
    set_stroke (ctx, s);
    cairo_set_line_width (cr, MIN (s->line_width, 1.5));
    path_xy (ctx, s->x + from, top, to - from, ya, FALSE);
    cairo_stroke (cr);
  }
}

/* Fills the rectangles on the path in the series' colour, each outlined by a hairline in
 * the background colour that separates stacked segments and neighbouring bins. */
static void
fill_outlined (IvChartCtx *ctx, IvSeries *s)
{
  set_fill (ctx, s, s->alpha);
  cairo_fill_preserve (ctx->cr);
  iv_color_set_source (ctx->cr, &ctx->colors->background);
  cairo_set_line_width (ctx->cr, 0.75);
  cairo_stroke (ctx->cr);
}

static void
draw_bars (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;

  for (gsize k = 0; k < s->n; k++)
    {
      double x0, y0, x1, y1;
      _iv_chart_bar_rect (ctx->chart, s, k, &x0, &y0, &x1, &y1);
      cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
    }
  fill_outlined (ctx, s);
}

static void
draw_histogram (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  double y0 = _iv_px_y (ctx->L, ya, ctx->L->kind[ya] == IV_SCALE_LINEAR ? 0 : ctx->L->lo[ya]);

  for (gsize k = 0; k < s->n; k++)
    {
      double x0 = _iv_px_x (ctx->L, s->x[k]), x1 = _iv_px_x (ctx->L, s->x[k + 1]);
      double y1 = _iv_px_y (ctx->L, ya, s->y[k]);
      if (s->y[k] <= 0 || !isfinite (y1))
        continue;
      cairo_rectangle (cr, x0, y1, x1 - x0, y0 - y1);
    }
  fill_outlined (ctx, s);
}

static void
draw_box (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  const IvBoxStats *b = &s->box;
  double xc = _iv_px_x (ctx->L, s->position);
  double half = fabs (_iv_px_x (ctx->L, s->position + 0.3) - xc);
  double q1 = _iv_px_y (ctx->L, ya, b->q1), q3 = _iv_px_y (ctx->L, ya, b->q3);
  double med = _iv_px_y (ctx->L, ya, b->median);
  double wlo = _iv_px_y (ctx->L, ya, b->whisker_lo), whi = _iv_px_y (ctx->L, ya, b->whisker_hi);

  if (b->n == 0)
    return;
  cairo_rectangle (cr, xc - half, q3, 2 * half, q1 - q3);
  set_fill (ctx, s, s->alpha);
  cairo_fill_preserve (cr);
  set_stroke (ctx, s);
  cairo_set_line_width (cr, 1.25);
  cairo_stroke (cr);
  cairo_move_to (cr, xc, q3);
  cairo_line_to (cr, xc, whi);
  cairo_move_to (cr, xc, q1);
  cairo_line_to (cr, xc, wlo);
  cairo_move_to (cr, xc - half / 2, whi);
  cairo_line_to (cr, xc + half / 2, whi);
  cairo_move_to (cr, xc - half / 2, wlo);
  cairo_line_to (cr, xc + half / 2, wlo);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 2.25);
  cairo_move_to (cr, xc - half, med);
  cairo_line_to (cr, xc + half, med);
  cairo_stroke (cr);
  for (gsize k = 0; k < s->n; k++)
    _iv_chart_draw_marker (cr, IV_MARKER_CIRCLE, xc, _iv_px_y (ctx->L, ya, s->y[k]), 4);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
draw_error_bars (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);

  set_stroke (ctx, s);
  for (gsize k = 0; k < s->n; k++)
    {
      double x = _iv_px_x (ctx->L, s->x[k]);
      double lo = _iv_px_y (ctx->L, ya, s->lo[k]), hi = _iv_px_y (ctx->L, ya, s->hi[k]);
      if (!isfinite (x) || !isfinite (lo) || !isfinite (hi))
        continue;
      cairo_move_to (cr, x, lo);
      cairo_line_to (cr, x, hi);
      cairo_move_to (cr, x - 3.5, lo);
      cairo_line_to (cr, x + 3.5, lo);
      cairo_move_to (cr, x - 3.5, hi);
      cairo_line_to (cr, x + 3.5, hi);
    }
  cairo_stroke (cr);
  for (gsize k = 0; k < s->n; k++)
    {
      double x = _iv_px_x (ctx->L, s->x[k]), y = _iv_px_y (ctx->L, ya, s->y[k]);
      if (isfinite (x) && isfinite (y))
        _iv_chart_draw_marker (cr, s->marker, x, y, s->size);
    }
  cairo_fill (cr);
}

/* Bars a row tall (80 % of it, 1 to 16 px): thousands of rows stay one pixel each. */
static void
draw_spans (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  double h = fabs (_iv_px_y (ctx->L, ya, 1) - _iv_px_y (ctx->L, ya, 0)) * 0.8;

  h = CLAMP (isfinite (h) ? h : 1, 1, 16);
  for (gsize k = 0; k < s->n; k++)
    {
      double x0 = _iv_px_x (ctx->L, s->lo[k]), x1 = _iv_px_x (ctx->L, s->hi[k]);
      double y = _iv_px_y (ctx->L, ya, s->y[k]);
      if (!isfinite (x0) || !isfinite (x1) || !isfinite (y))
        continue;
      cairo_rectangle (cr, x0, y - h / 2, MAX (0.5, x1 - x0), h);
    }
  set_fill (ctx, s, s->alpha);
  cairo_fill (cr);
}

static void
draw_band (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  IvAxisId ya = y_axis (s);
  gboolean started = FALSE;

  for (gsize k = 0; k < s->n; k++)
    {
      double x = _iv_px_x (ctx->L, s->x[k]), y = _iv_px_y (ctx->L, ya, s->hi[k]);
      if (!isfinite (x) || !isfinite (y))
        continue;
      if (!started)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
      started = TRUE;
    }
  for (gsize k = s->n; k-- > 0;)
    {
      double x = _iv_px_x (ctx->L, s->x[k]), y = _iv_px_y (ctx->L, ya, s->lo[k]);
      if (isfinite (x) && isfinite (y))
        cairo_line_to (cr, x, y);
    }
  cairo_close_path (cr);
  set_fill (ctx, s, s->alpha);
  cairo_fill (cr);
}

/* Each cell's value as a bare number in the colour bar's unit (the bar's title names it):
 * a value with its own unit where it fitted and a bare one where not mixed "980" and
 * "1.2k" in one map (issue 31). One size and one precision for every cell of the map,
 * the largest at which they all fit; a cell whose number still does not fit stays empty. */
static void
heatmap_labels (IvChartCtx *ctx, IvSeries *s, double x0, double x1, double y0, double y1)
{
  double cw = (x1 - x0) / s->nx, ch = (y0 - y1) / s->ny;
  double span = s->vmax > s->vmin ? s->vmax - s->vmin : 1;
  double largest = MAX (fabs (s->vmin), fabs (s->vmax)), scale = 0.92;
  gsize n = (gsize) s->nx * s->ny;
  g_autofree char **text = g_new0 (char *, n);
  int digits;

  for (digits = 3; digits >= 2; digits--)
    {
      for (scale = 0.92; scale > 0.55; scale -= 0.04)
        {
          gboolean all = TRUE;
          for (gsize k = 0; k < n && all; k++)
            {
              double w, h;
              if (!s->labels[k] || !s->labels[k][0] || !isfinite (s->y[k]))
                continue;
              if (!text[k])
                text[k] = iv_unit_format_bare (&s->value_unit, s->y[k], largest, digits);
              _iv_chart_text_size (ctx, text[k], scale, FALSE, &w, &h);
              all = w <= cw - 4 && h <= ch - 1;
            }
          if (all)
            goto fits;
        }
      if (digits > 2)
        for (gsize k = 0; k < n; k++)
          g_clear_pointer (&text[k], g_free);
    }
  scale = 0.56;
fits:
  for (guint j = 0; j < s->ny; j++)
    for (guint i = 0; i < s->nx; i++)
      {
        gsize k = (gsize) j * s->nx + i;
        double v = s->y[k], w, h;
        IvColor c, ink;
        if (!text[k])
          continue;
        _iv_chart_text_size (ctx, text[k], scale, FALSE, &w, &h);
        if (w <= cw - 2 && h <= ch)
          {
            c = iv_colormap_viridis (CLAMP ((v - s->vmin) / span, 0, 1));
            ink = iv_color_ink_for (&c);
            _iv_chart_show_text (ctx, text[k], x0 + (i + 0.5) * cw, y0 - (j + 0.5) * ch, 0.5, 0.5,
                                 scale, FALSE, &ink);
          }
      }
  for (gsize k = 0; k < n; k++)
    g_free (text[k]);
}

static void
draw_heatmap (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, s->nx, s->ny);
  guint8 *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  double span = s->vmax > s->vmin ? s->vmax - s->vmin : 1;
  double x0 = _iv_px_x (ctx->L, s->x0), x1 = _iv_px_x (ctx->L, s->x1);
  double y0 = _iv_px_y (ctx->L, y_axis (s), s->y0), y1 = _iv_px_y (ctx->L, y_axis (s), s->y1);
  cairo_pattern_t *pattern;
  cairo_matrix_t m;

  cairo_surface_flush (img);
  for (guint j = 0; j < s->ny; j++)
    {
      /* Row 0 of the data is the bottom (y0) of the map. */
      guint32 *row = (guint32 *) (data + (gsize) (s->ny - 1 - j) * stride);
      for (guint i = 0; i < s->nx; i++)
        {
          double v = s->y[(gsize) j * s->nx + i];
          IvColor c;
          if (!isfinite (v))
            {
              row[i] = 0;
              continue;
            }
          c = iv_colormap_viridis (CLAMP ((v - s->vmin) / span, 0, 1));
          row[i] = 0xff000000u | ((guint32) (c.r * 255 + 0.5) << 16)
                   | ((guint32) (c.g * 255 + 0.5) << 8) | (guint32) (c.b * 255 + 0.5);
        }
    }
  cairo_surface_mark_dirty (img);
  pattern = cairo_pattern_create_for_surface (img);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_matrix_init_scale (&m, s->nx / (x1 - x0), s->ny / (y0 - y1));
  cairo_matrix_translate (&m, -x0, -y1);
  cairo_pattern_set_matrix (pattern, &m);
  cairo_set_source (cr, pattern);
  cairo_rectangle (cr, x0, y1, x1 - x0, y0 - y1);
  cairo_fill (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (img);
  if (s->labels)
    heatmap_labels (ctx, s, x0, x1, y0, y1);
}

typedef struct
{
  double x, y, w, h;
} Rect;

static double
overlap (const Rect *a, const Rect *b)
{
  double w = MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x);
  double h = MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y);
  return w > 0 && h > 0 ? w * h : 0;
}

/* The rectangles already placed (marks and labels), bucketed in a coarse grid over the
 * plot so that a candidate is checked only against its neighbours: with every point
 * labelled, a sweep of thousands of runs would otherwise compare each label with every
 * earlier one (quadratic: 5,000 runs spent a third of a report in here). Rectangles
 * outside the grid are clamped to its edge cells, which keeps any two that intersect in a
 * shared cell. */
#define LABEL_CELL 24.0
#define LABEL_GRID_MAX 256

typedef struct
{
  GArray *rects;  /* Rect */
  GArray *stamp;  /* guint per rect: the query that last saw it */
  GArray **cells; /* guint rect indices, NULL until used */
  GArray *seen;   /* guint: this query's rects */
  guint query;
  int nx, ny;
  double x0, y0, cw, ch; /* origin and cell size (larger cells on a huge plot) */
} LabelGrid;

static void
label_grid_init (LabelGrid *g, const IvChartLayout *L)
{
  g->rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  g->stamp = g_array_new (FALSE, FALSE, sizeof (guint));
  g->seen = g_array_new (FALSE, FALSE, sizeof (guint));
  g->query = 0;
  g->x0 = L->plot_x;
  g->y0 = L->plot_y;
  g->cw = MAX (LABEL_CELL, L->plot_w / LABEL_GRID_MAX);
  g->ch = MAX (LABEL_CELL, L->plot_h / LABEL_GRID_MAX);
  g->nx = (int) CLAMP (ceil (L->plot_w / g->cw), 1, LABEL_GRID_MAX);
  g->ny = (int) CLAMP (ceil (L->plot_h / g->ch), 1, LABEL_GRID_MAX);
  g->cells = g_new0 (GArray *, (gsize) g->nx * g->ny);
}

static void
label_grid_clear (LabelGrid *g)
{
  for (int i = 0; i < g->nx * g->ny; i++)
    if (g->cells[i])
      g_array_unref (g->cells[i]);
  g_free (g->cells);
  g_array_unref (g->rects);
  g_array_unref (g->stamp);
  g_array_unref (g->seen);
}

static int
label_cell (double v, double origin, double cell_size, int n)
{
  double c = floor ((v - origin) / cell_size);
  return isfinite (c) ? (int) CLAMP (c, 0, n - 1) : 0;
}

static void
label_grid_cells (const LabelGrid *g, const Rect *r, int *cx0, int *cy0, int *cx1, int *cy1)
{
  *cx0 = label_cell (r->x, g->x0, g->cw, g->nx);
  *cx1 = label_cell (r->x + r->w, g->x0, g->cw, g->nx);
  *cy0 = label_cell (r->y, g->y0, g->ch, g->ny);
  *cy1 = label_cell (r->y + r->h, g->y0, g->ch, g->ny);
}

static void
label_grid_add (LabelGrid *g, const Rect *r)
{
  guint index = g->rects->len, zero = 0;
  int cx0, cy0, cx1, cy1;

  g_array_append_val (g->rects, *r);
  g_array_append_val (g->stamp, zero);
  label_grid_cells (g, r, &cx0, &cy0, &cx1, &cy1);
  for (int cy = cy0; cy <= cy1; cy++)
    for (int cx = cx0; cx <= cx1; cx++)
      {
        GArray **cell = &g->cells[cy * g->nx + cx];
        if (!*cell)
          *cell = g_array_new (FALSE, FALSE, sizeof (guint));
        g_array_append_val (*cell, index);
      }
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

/* The area of @c covered by placed rectangles, summed in the order they were placed (the
 * same sum, to the bit, as a plain loop over all of them). */
static double
label_grid_overlap (LabelGrid *g, const Rect *c)
{
  int cx0, cy0, cx1, cy1;
  double cost = 0;

  g->query++;
  g_array_set_size (g->seen, 0);
  label_grid_cells (g, c, &cx0, &cy0, &cx1, &cy1);
  for (int cy = cy0; cy <= cy1; cy++)
    for (int cx = cx0; cx <= cx1; cx++)
      {
        GArray *cell = g->cells[cy * g->nx + cx];
        for (guint i = 0; cell && i < cell->len; i++)
          {
            guint index = g_array_index (cell, guint, i);
            guint *stamp = &g_array_index (g->stamp, guint, index);
            if (*stamp == g->query)
              continue;
            *stamp = g->query;
            g_array_append_val (g->seen, index);
          }
      }
  g_array_sort (g->seen, compare_uint);
  for (guint i = 0; i < g->seen->len; i++)
    cost += overlap (c, &g_array_index (g->rects, Rect, g_array_index (g->seen, guint, i)));
  return cost;
}

static gboolean
has_point_labels (const IvSeries *s)
{
  return s->visible && s->labels && s->x && s->y && s->kind != IV_SERIES_HEATMAP;
}

/* Whether the segment (x0, y0)–(x1, y1) passes through @r (Liang–Barsky clipping). */
static gboolean
segment_crosses (const Rect *r, double x0, double y0, double x1, double y1)
{
  double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
  const double p[4] = { -dx, dx, -dy, dy };
  const double q[4] = { x0 - r->x, r->x + r->w - x0, y0 - r->y, r->y + r->h - y0 };

  for (int i = 0; i < 4; i++)
    {
      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      {
        double t = q[i] / p[i];
        if (p[i] < 0)
          t0 = MAX (t0, t);
        else
          t1 = MIN (t1, t);
      }
      if (t0 > t1)
        return FALSE;
    }
  return TRUE;
}

/* Whether @r, a label of the point (@px, @py), lies across a line series that does not
 * pass through that point: another group's line, on which the label reads as naming it
 * (issue 31: "ITL vs concurrency" on a paper column). Its own line may run under it. */
static gboolean
crosses_other_line (const IvChartCtx *ctx, const Rect *r, double px, double py)
{
  const IvChartLayout *L = ctx->L;
  /* the text's ink, not its line's leading, is what a line must not cross */
  Rect ink = { r->x, r->y + 1.5, r->w, MAX (0, r->h - 3) };

  for (guint i = 0; i < ctx->chart->series->len; i++)
    {
      const IvSeries *l = ctx->chart->series->pdata[i];
      gboolean own = FALSE, crosses = FALSE;
      if (!l->visible || l->kind != IV_SERIES_LINE || !l->x || !l->y || l->n > 512)
        continue;
      for (gsize k = 0; k < l->n && !own; k++)
        own = fabs (_iv_px_x (L, l->x[k]) - px) < 0.5
              && fabs (_iv_px_y (L, y_axis (l), l->y[k]) - py) < 0.5;
      for (gsize k = 0; !own && !crosses && k + 1 < l->n; k++)
        {
          double x0 = _iv_px_x (L, l->x[k]), y0 = _iv_px_y (L, y_axis (l), l->y[k]);
          double x1 = _iv_px_x (L, l->x[k + 1]), y1 = _iv_px_y (L, y_axis (l), l->y[k + 1]);
          crosses = isfinite (x0 + y0 + x1 + y1) && segment_crosses (&ink, x0, y0, x1, y1);
        }
      if (crosses)
        return TRUE;
    }
  return FALSE;
}

/* Point labels of every series, placed greedily in order: the first of eight spots
 * around the point that neither leaves the plot nor covers a label or a point already
 * there; when every near spot is taken, the same spots farther out, with a leader line
 * back to the point; failing all, the least covered spot inside the plot, over points
 * but never over another label nor across another series' line — where there is none,
 * the label is left out (hovering the point still names it): a paper column cannot name
 * 36 runs. */
void
_iv_chart_place_labels (IvChartCtx *ctx)
{
  IvChart *chart = ctx->chart;
  const IvChartLayout *L = ctx->L;
  LabelGrid placed, labels;
  static const double dirs[8][2]
      = { { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } };
  /* near, or a short leader away: long leaders across a crowded plot read as a scribble */
  static const double reach[] = { 1, 2.4 };

  label_grid_init (&placed, L);
  label_grid_init (&labels, L);
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (!has_point_labels (s))
        continue;
      for (gsize k = 0; k < s->n; k++)
        {
          double px = _iv_px_x (L, s->x[k]), py = _iv_px_y (L, y_axis (s), s->y[k]);
          Rect mark = { px - s->size / 2, py - s->size / 2, s->size, s->size };
          if (isfinite (px) && isfinite (py))
            label_grid_add (&placed, &mark);
        }
    }
  /* the lines a label should not sit on (issue 31: a roofline's ridge through "S2", its
   * ceiling under "F1"): each vertical rule, and each line series sampled every 4 px */
  for (guint i = 0; i < chart->annotations->len; i++)
    {
      const IvAnnotation *a = &g_array_index (chart->annotations, IvAnnotation, i);
      Rect rule = { _iv_px_x (L, a->x) - 1.5, L->plot_y, 3, L->plot_h };
      if (a->kind == IV_ANNOTATION_VLINE && isfinite (rule.x))
        label_grid_add (&placed, &rule);
    }
  /* … nor on a bar: the memory figure's values sat on their bars' ends where the
   * capacity lines took the spot right of them (issue 31); as draw_spans () draws them */
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      double h = fabs (_iv_px_y (L, y_axis (s), 1) - _iv_px_y (L, y_axis (s), 0)) * 0.8;
      if (!s->visible || s->kind != IV_SERIES_SPANS || s->n > 512)
        continue;
      h = CLAMP (isfinite (h) ? h : 1, 1, 16);
      for (gsize k = 0; k < s->n; k++)
        {
          double x0 = _iv_px_x (L, s->lo[k]), x1 = _iv_px_x (L, s->hi[k]);
          double y = _iv_px_y (L, y_axis (s), s->y[k]);
          Rect bar = { x0, y - h / 2 - 1, MAX (0.5, x1 - x0), h + 2 };
          if (isfinite (x0) && isfinite (x1) && isfinite (y))
            label_grid_add (&placed, &bar);
        }
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (!s->visible || s->kind != IV_SERIES_LINE || !s->x || !s->y || s->n > 512)
        continue;
      for (gsize k = 0; k + 1 < s->n; k++)
        {
          double x0 = _iv_px_x (L, s->x[k]), y0 = _iv_px_y (L, y_axis (s), s->y[k]);
          double x1 = _iv_px_x (L, s->x[k + 1]), y1 = _iv_px_y (L, y_axis (s), s->y[k + 1]);
          double len = hypot (x1 - x0, y1 - y0);
          if (!isfinite (len))
            continue;
          for (double d = 0; d <= len && d < 4096; d += 4)
            {
              double f = len > 0 ? d / len : 0;
              Rect dot = { x0 + f * (x1 - x0) - 1.5, y0 + f * (y1 - y0) - 1.5, 3, 3 };
              label_grid_add (&placed, &dot);
            }
        }
    }
  /* in a small plot (a grid's panel on a paper column) a label away from its point, on
   * a leader, floats loose among the few others: near spots only there (issue 31) */
  guint reaches = L->plot_w < 110 || L->plot_h < 90 ? 1 : G_N_ELEMENTS (reach);

  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      double r0 = s->size / 2 + 3;
      g_clear_pointer (&s->label_at, g_free);
      g_clear_pointer (&s->label_leader, g_free);
      if (!has_point_labels (s))
        continue;
      s->label_at = g_new (double, 2 * MAX (s->n, 1));
      s->label_leader = g_new0 (gboolean, MAX (s->n, 1));
      for (gsize k = 0; k < s->n; k++)
        {
          const char *label = s->labels[k];
          double px = _iv_px_x (L, s->x[k]), py = _iv_px_y (L, y_axis (s), s->y[k]);
          double w, h, best_cost = INFINITY, best_text = INFINITY;
          Rect best = { 0 };
          guint best_reach = 0;

          s->label_at[2 * k] = s->label_at[2 * k + 1] = NAN;
          if (!label || !label[0] || !isfinite (px) || !isfinite (py))
            continue;
          _iv_chart_text_size (ctx, label, 0.85, FALSE, &w, &h);
          for (guint q = 0; q < reaches && best_cost > 0; q++)
            for (guint d = 0; d < 8; d++)
              {
                double r = r0 * reach[q] + (q ? h * 0.5 : 0);
                Rect c = { px + dirs[d][0] * r
                               - (dirs[d][0] < 0    ? w
                                  : dirs[d][0] == 0 ? w / 2
                                                    : 0),
                           py + dirs[d][1] * r
                               - (dirs[d][1] < 0    ? h
                                  : dirs[d][1] == 0 ? h / 2
                                                    : 0),
                           w, h };
                double cost = 0, text;
                if (c.x < L->plot_x || c.y < L->plot_y || c.x + w > L->plot_x + L->plot_w
                    || c.y + h > L->plot_y + L->plot_h)
                  cost += w * h;
                cost += label_grid_overlap (&placed, &c);
                /* a space's width between two labels, or "S5F3" reads as one */
                {
                  Rect spaced = { c.x - 3, c.y, c.w + 6, c.h };
                  text = label_grid_overlap (&labels, &spaced);
                }
                /* a spot clear of every label beats one over a label; then a farther spot
                 * has to be free to beat a nearer one */
                if ((text == 0 && best_text > 0)
                    || (cost < best_cost - 1e-9 && (q == 0 || cost == 0)
                        && (text == 0 || best_text > 0)))
                  {
                    best_cost = cost;
                    best_text = text;
                    best = c;
                    best_reach = q;
                  }
                if (cost == 0)
                  break;
              }
          if (best_text > 0 || best.x < L->plot_x || best.y < L->plot_y
              || best.x + w > L->plot_x + L->plot_w || best.y + h > L->plot_y + L->plot_h)
            continue;
          /* where the least covered spot still lies across another group's line, the
           * label is left out: on that line it names the wrong group */
          if (best_cost > 0 && crosses_other_line (ctx, &best, px, py))
            continue;
          label_grid_add (&placed, &best);
          label_grid_add (&labels, &best);
          s->label_at[2 * k] = best.x, s->label_at[2 * k + 1] = best.y;
          s->label_leader[k] = best_reach > 0;
        }
    }
  label_grid_clear (&placed);
  label_grid_clear (&labels);
}

static void
draw_point_labels (IvChartCtx *ctx, IvSeries *s)
{
  if (!s->label_at)
    return;
  for (gsize k = 0; k < s->n; k++)
    {
      double lx = s->label_at[2 * k], ly = s->label_at[2 * k + 1], w, h;
      if (!isfinite (lx) || !s->labels[k])
        continue;
      _iv_chart_text_size (ctx, s->labels[k], 0.85, FALSE, &w, &h);
      if (s->label_leader[k])
        {
          /* from the point's edge to the nearest point of the label's box */
          double px = _iv_px_x (ctx->L, s->x[k]), py = _iv_px_y (ctx->L, y_axis (s), s->y[k]);
          double qx = CLAMP (px, lx, lx + w), qy = CLAMP (py, ly, ly + h),
                 len = hypot (qx - px, qy - py);
          if (len > s->size / 2 + 2)
            {
              cairo_save (ctx->cr);
              cairo_set_line_width (ctx->cr, 0.8);
              iv_color_set_source (ctx->cr, &ctx->colors->foreground_dim);
              cairo_move_to (ctx->cr, px + (qx - px) / len * (s->size / 2 + 1),
                             py + (qy - py) / len * (s->size / 2 + 1));
              cairo_line_to (ctx->cr, qx, qy);
              cairo_stroke (ctx->cr);
              cairo_restore (ctx->cr);
            }
        }
      _iv_chart_show_text (ctx, s->labels[k], lx, ly, 0, 0, 0.85, FALSE, &ctx->colors->foreground);
    }
}

static void draw_series_shapes (IvChartCtx *ctx, IvSeries *s);

/* Tens of thousands of markers or spans in a vector file are megabytes of paths that look
 * like their picture: past this many they go in as an image of the plot at twice its
 * resolution (as matplotlib's rasterized=True), the axes and text staying vectors. */
#define RASTERIZE_FROM 20000
#define RASTER_SCALE 2.0

static gboolean
draw_rasterized (IvChartCtx *ctx, IvSeries *s)
{
  cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (ctx->cr));
  const IvChartLayout *L = ctx->L;
  cairo_surface_t *image;
  cairo_t *cr;
  IvChartCtx sub = *ctx;
  int w, h;

  if ((type != CAIRO_SURFACE_TYPE_SVG && type != CAIRO_SURFACE_TYPE_PDF
       && type != CAIRO_SURFACE_TYPE_PS)
      || s->n < RASTERIZE_FROM || (s->kind != IV_SERIES_SCATTER && s->kind != IV_SERIES_SPANS))
    return FALSE;
  w = (int) ceil (L->plot_w * RASTER_SCALE);
  h = (int) ceil (L->plot_h * RASTER_SCALE);
  if (w <= 0 || h <= 0 || (gint64) w * h > 64 << 20)
    return FALSE;
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (image);
  cairo_scale (cr, RASTER_SCALE, RASTER_SCALE);
  cairo_translate (cr, -L->plot_x, -L->plot_y);
  sub.cr = cr;
  draw_series_shapes (&sub, s);
  cairo_destroy (cr);
  cairo_save (ctx->cr);
  cairo_translate (ctx->cr, L->plot_x, L->plot_y);
  cairo_scale (ctx->cr, 1 / RASTER_SCALE, 1 / RASTER_SCALE);
  cairo_set_source_surface (ctx->cr, image, 0, 0);
  cairo_paint (ctx->cr);
  cairo_restore (ctx->cr);
  cairo_surface_destroy (image);
  return TRUE;
}

void
_iv_chart_draw_series (IvChartCtx *ctx, IvSeries *s, guint index)
{
  cairo_save (ctx->cr);
  if (!draw_rasterized (ctx, s))
    draw_series_shapes (ctx, s);
  if (s->labels && s->kind != IV_SERIES_HEATMAP) /* a heat map writes them in its cells */
    draw_point_labels (ctx, s);
  cairo_restore (ctx->cr);
}

static void
draw_series_shapes (IvChartCtx *ctx, IvSeries *s)
{
  switch (s->kind)
    {
    case IV_SERIES_SCATTER:
      _iv_chart_draw_scatter (ctx, s);
      break;
    case IV_SERIES_LINE:
      draw_line (ctx, s, FALSE);
      break;
    case IV_SERIES_STEP:
    case IV_SERIES_CDF:
      draw_line (ctx, s, TRUE);
      break;
    case IV_SERIES_AREA:
      draw_area (ctx, s);
      break;
    case IV_SERIES_BARS:
      draw_bars (ctx, s);
      break;
    case IV_SERIES_HISTOGRAM:
      draw_histogram (ctx, s);
      break;
    case IV_SERIES_BOX:
      draw_box (ctx, s);
      break;
    case IV_SERIES_ERROR_BARS:
      draw_error_bars (ctx, s);
      break;
    case IV_SERIES_BAND:
      draw_band (ctx, s);
      break;
    case IV_SERIES_SPANS:
      draw_spans (ctx, s);
      break;
    case IV_SERIES_HEATMAP:
      draw_heatmap (ctx, s);
      break;
    default:
      break;
    }
}
