/* iv-marker.c: scatter plots of up to millions of points. Points falling on a pixel
 * already drawn are skipped (a bitmap per series). On an image surface with an
 * axis-aligned transform the marker is rasterised once and composited straight into the
 * pixels, which is an order of magnitude faster than a cairo path per point; elsewhere
 * (PDF, SVG, the screen's recording surface) the markers go into one path, culled on a
 * grid so a vector file of a million points stays a few megabytes. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-private.h"

#include <math.h>
#include <string.h>

void
_iv_chart_draw_marker (cairo_t *cr, IvMarker marker, double x, double y, double size)
{
  double r = size / 2;

  switch (marker)
    {
    case IV_MARKER_SQUARE:
      r *= 0.886; /* same area as the circle */
      cairo_rectangle (cr, x - r, y - r, 2 * r, 2 * r);
      break;
    case IV_MARKER_TRIANGLE:
      r *= 1.2;
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r * 0.866, y + r * 0.5);
      cairo_line_to (cr, x - r * 0.866, y + r * 0.5);
      cairo_close_path (cr);
      break;
    case IV_MARKER_DIAMOND:
      r *= 1.1;
      cairo_move_to (cr, x, y - r);
      cairo_line_to (cr, x + r, y);
      cairo_line_to (cr, x, y + r);
      cairo_line_to (cr, x - r, y);
      cairo_close_path (cr);
      break;
    case IV_MARKER_CIRCLE:
    default:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      cairo_close_path (cr);
      break;
    }
}

/* Linear map from a data value to a device coordinate: device = a · f(v) + b, where
 * f is the identity or the logarithm. */
typedef struct
{
  double a, b;
  gboolean log;
} AxisMap;

static AxisMap
axis_map (const IvChartLayout *L, IvAxisId axis, double scale, double offset)
{
  gboolean lg = L->kind[axis] == IV_SCALE_LOG10 || L->kind[axis] == IV_SCALE_LOG2;
  double lo = lg ? log (L->lo[axis]) : L->lo[axis];
  double hi = lg ? log (L->hi[axis]) : L->hi[axis];
  AxisMap m = { 0, 0, lg };

  if (axis == IV_AXIS_X)
    {
      m.a = L->plot_w / (hi - lo) * scale;
      m.b = (L->plot_x - lo * L->plot_w / (hi - lo)) * scale + offset;
    }
  else
    {
      m.a = -L->plot_h / (hi - lo) * scale;
      m.b = (L->plot_y + L->plot_h + lo * L->plot_h / (hi - lo)) * scale + offset;
    }
  return m;
}

static inline double
map (const AxisMap *m, double v)
{
  return m->a * (m->log ? log (v) : v) + m->b;
}

/* Premultiplied ARGB "over", with the usual exact-enough division by 255. */
static inline guint32
over (guint32 src, guint32 dst)
{
  guint32 ia = 255 - (src >> 24);
  guint32 rb = (dst & 0x00ff00ffu) * ia;
  guint32 ag = ((dst >> 8) & 0x00ff00ffu) * ia;

  rb = ((rb + ((rb >> 8) & 0x00ff00ffu) + 0x00800080u) >> 8) & 0x00ff00ffu;
  ag = (ag + ((ag >> 8) & 0x00ff00ffu) + 0x00800080u) & 0xff00ff00u;
  return src + rb + ag;
}

static gboolean
draw_scatter_image (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_matrix_t m;
  double ox, oy, scale;
  int sw, sh, stride, cx0, cy0, cx1, cy1, half, side;
  guint8 *data;
  cairo_surface_t *stamp;
  guint32 *stamp_px;
  int stamp_stride;
  g_autofree guint8 *seen = NULL;
  g_autofree int *row_from = NULL;
  g_autofree int *row_to = NULL;
  AxisMap mx, my;
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
  IvColor c = s->color;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return FALSE;
  if (cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32
      && cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24)
    return FALSE;
  cairo_get_matrix (cr, &m);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || fabs (m.xx - m.yy) > 1e-9)
    return FALSE;
  cairo_surface_get_device_offset (target, &ox, &oy);
  scale = m.xx;
  sw = cairo_image_surface_get_width (target);
  sh = cairo_image_surface_get_height (target);
  stride = cairo_image_surface_get_stride (target);

  /* The plot rectangle in pixels, within the surface. */
  cx0 = MAX (0, (int) floor (ctx->L->plot_x * scale + m.x0 + ox));
  cy0 = MAX (0, (int) floor (ctx->L->plot_y * scale + m.y0 + oy));
  cx1 = MIN (sw, (int) ceil ((ctx->L->plot_x + ctx->L->plot_w) * scale + m.x0 + ox));
  cy1 = MIN (sh, (int) ceil ((ctx->L->plot_y + ctx->L->plot_h) * scale + m.y0 + oy));
  if (cx1 <= cx0 || cy1 <= cy0)
    return TRUE;

  /* The marker, rasterised once, centred in a square of odd side. */
  half = (int) ceil (s->size * scale / 2 * 1.25) + 1;
  side = 2 * half + 1;
  stamp = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, side, side);
  {
    cairo_t *scr = cairo_create (stamp);
    c.a *= s->alpha;
    iv_color_set_source (scr, &c);
    _iv_chart_draw_marker (scr, s->marker, half + 0.5, half + 0.5, s->size * scale);
    cairo_fill (scr);
    cairo_destroy (scr);
  }
  cairo_surface_flush (stamp);
  stamp_px = (guint32 *) cairo_image_surface_get_data (stamp);
  stamp_stride = cairo_image_surface_get_stride (stamp) / 4;
  /* Only the stamp's covered span of each row is composited: a round marker touches
   * about half of its square. */
  row_from = g_new (int, side);
  row_to = g_new (int, side);
  for (int sy = 0; sy < side; sy++)
    {
      const guint32 *srow = stamp_px + (gsize) sy * stamp_stride;
      row_from[sy] = side;
      row_to[sy] = 0;
      for (int sx = 0; sx < side; sx++)
        if (srow[sx])
          {
            row_from[sy] = MIN (row_from[sy], sx);
            row_to[sy] = sx + 1;
          }
    }

  mx = axis_map (ctx->L, IV_AXIS_X, scale, m.x0 + ox);
  my = axis_map (ctx->L, ya, scale, m.y0 + oy);
  seen = g_malloc0 (((gsize) (cx1 - cx0) * (cy1 - cy0) + 7) / 8);

  cairo_surface_flush (target);
  data = cairo_image_surface_get_data (target);
  for (gsize i = 0; i < s->n; i++)
    {
      double fx = map (&mx, s->x[i]), fy = map (&my, s->y[i]);
      int ix, iy;
      gsize bit;

      if (!(fx >= cx0 - half && fx < cx1 + half && fy >= cy0 - half && fy < cy1 + half))
        continue; /* also drops NaN */
      ix = (int) floor (fx);
      iy = (int) floor (fy);
      /* Markers centred outside the plot are clipped; dedup only inside it. */
      if (ix >= cx0 && ix < cx1 && iy >= cy0 && iy < cy1)
        {
          bit = (gsize) (iy - cy0) * (cx1 - cx0) + (ix - cx0);
          if (seen[bit >> 3] & (1u << (bit & 7)))
            continue;
          seen[bit >> 3] |= 1u << (bit & 7);
        }
      for (int sy = 0; sy < side; sy++)
        {
          int py = iy - half + sy;
          guint32 *row, *srow;
          int sx0, sx1;
          if (py < cy0 || py >= cy1)
            continue;
          row = (guint32 *) (data + (gsize) py * stride) + (ix - half);
          srow = stamp_px + (gsize) sy * stamp_stride;
          sx0 = MAX (row_from[sy], cx0 - (ix - half));
          sx1 = MIN (row_to[sy], cx1 - (ix - half));
          for (int sx = sx0; sx < sx1; sx++)
            row[sx] = over (srow[sx], row[sx]);
        }
    }
  cairo_surface_mark_dirty_rectangle (target, cx0, cy0, cx1 - cx0, cy1 - cy0);
  cairo_surface_destroy (stamp);
  return TRUE;
}

static void
draw_scatter_path (IvChartCtx *ctx, IvSeries *s)
{
  cairo_t *cr = ctx->cr;
  cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (cr));
  gboolean vector = type == CAIRO_SURFACE_TYPE_PDF || type == CAIRO_SURFACE_TYPE_SVG
                    || type == CAIRO_SURFACE_TYPE_PS;
  const IvChartLayout *L = ctx->L;
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
  double dx = 1, dy = 0, cell, gx0, gy0;
  AxisMap mx = axis_map (L, IV_AXIS_X, 1, 0), my = axis_map (L, ya, 1, 0);
  g_autofree guint8 *seen = NULL;
  gsize gw, gh;
  IvColor c = s->color;
  guint in_path = 0;

  /* One device pixel in user units, or most of a marker in a vector file, where what
   * hides under its neighbours would only cost bytes. */
  cairo_user_to_device_distance (cr, &dx, &dy);
  cell = vector ? s->size * 0.75 : 1.0 / MAX (hypot (dx, dy), 1e-6);
  gx0 = L->plot_x - s->size;
  gy0 = L->plot_y - s->size;
  for (;;)
    {
      gw = (gsize) ceil ((L->plot_w + 2 * s->size) / cell) + 1;
      gh = (gsize) ceil ((L->plot_h + 2 * s->size) / cell) + 1;
      if (gw * gh <= (gsize) 1 << 26)
        break;
      cell *= 2; /* an absurd device scale: coarser culling rather than a huge bitmap */
    }
  seen = g_malloc0 ((gw * gh + 7) / 8);
  c.a *= s->alpha;
  iv_color_set_source (cr, &c);
  for (gsize i = 0; i < s->n; i++)
    {
      double fx = map (&mx, s->x[i]), fy = map (&my, s->y[i]);
      gsize gx, gy, bit;

      if (!(fx >= gx0 && fx <= L->plot_x + L->plot_w + s->size && fy >= gy0
            && fy <= L->plot_y + L->plot_h + s->size))
        continue; /* outside, or NaN */
      gx = (gsize) ((fx - gx0) / cell);
      gy = (gsize) ((fy - gy0) / cell);
      bit = MIN (gy, gh - 1) * gw + MIN (gx, gw - 1);
      if (seen[bit >> 3] & (1u << (bit & 7)))
        continue;
      seen[bit >> 3] |= 1u << (bit & 7);
      _iv_chart_draw_marker (cr, s->marker, fx, fy, s->size);
      /* Long paths tessellate slowly: fill in batches. */
      if (++in_path == 4096)
        {
          cairo_fill (cr);
          in_path = 0;
        }
    }
  cairo_fill (cr);
}

void
_iv_chart_draw_scatter (IvChartCtx *ctx, IvSeries *s)
{
  if (!draw_scatter_image (ctx, s))
    draw_scatter_path (ctx, s);
}
