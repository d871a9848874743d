/* iv-surface.c: each axis is normalised to [−1, 1] (on its own scale, log or linear), so
 * the box is a cube whatever the units; the view turns it about the vertical by the
 * azimuth and tilts it by the elevation, and the picture is that cube projected
 * orthographically and fitted to the room left by the title, labels and legend.
 * Quads are filled back to front (painter's order by their centres' depth), shaded by
 * how squarely they face a light from the upper left, so the shape reads without
 * perspective. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-surface.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>

#include "iv-text.h"
#include "iv-theme.h"

typedef struct
{
  char *name;
  guint rows, columns;
  double *v[IV_SURFACE_N_AXES];
  char **labels;
  guint32 rgb;
} Mesh;

typedef struct
{
  char *title;
  IvUnit unit;
  IvScaleKind kind;
  double lo, hi;
} Axis;

typedef struct
{
  double px, py;
  char *text;
} DrawnPoint;

struct _IvSurface
{
  char *title, *subtitle;
  Axis axis[IV_SURFACE_N_AXES];
  GPtrArray *meshes;
  double azimuth, elevation;
  GArray *drawn; /* DrawnPoint, from the last drawing */
};

/* Where a point of the cube goes: screen offsets (up is +) and how near the viewer. */
typedef struct
{
  double sx, sy, near;
} Projected;

static void
mesh_free (gpointer p)
{
  Mesh *m = p;
  g_free (m->name);
  for (int a = 0; a < IV_SURFACE_N_AXES; a++)
    g_free (m->v[a]);
  g_strfreev (m->labels);
  g_free (m);
}

static void
drawn_clear (gpointer p)
{
  g_free (((DrawnPoint *) p)->text);
}

IvSurface *
iv_surface_new (void)
{
  IvSurface *s = g_new0 (IvSurface, 1);

  s->meshes = g_ptr_array_new_with_free_func (mesh_free);
  s->drawn = g_array_new (FALSE, FALSE, sizeof (DrawnPoint));
  g_array_set_clear_func (s->drawn, drawn_clear);
  s->azimuth = IV_SURFACE_AZIMUTH;
  s->elevation = IV_SURFACE_ELEVATION;
  for (int a = 0; a < IV_SURFACE_N_AXES; a++)
    s->axis[a].unit = IV_UNIT_PLAIN;
  return s;
}

void
iv_surface_free (IvSurface *s)
{
  if (!s)
    return;
  g_free (s->title);
  g_free (s->subtitle);
  for (int a = 0; a < IV_SURFACE_N_AXES; a++)
    g_free (s->axis[a].title);
  g_ptr_array_unref (s->meshes);
  g_array_unref (s->drawn);
  g_free (s);
}

void
iv_surface_set_title (IvSurface *s, const char *title, const char *subtitle)
{
  g_free (s->title);
  g_free (s->subtitle);
  s->title = g_strdup (title);
  s->subtitle = g_strdup (subtitle);
}

const char *
iv_surface_get_title (const IvSurface *s)
{
  return s->title;
}

void
iv_surface_set_axis (IvSurface *s, IvSurfaceAxis axis, const char *title, IvUnit unit,
                     IvScaleKind kind)
{
  g_return_if_fail (axis < IV_SURFACE_N_AXES);
  g_free (s->axis[axis].title);
  s->axis[axis].title = g_strdup (title);
  s->axis[axis].unit = unit;
  s->axis[axis].kind = kind;
}

void
iv_surface_add_mesh (IvSurface *s, const char *name, guint rows, guint columns, const double *x,
                     const double *y, const double *z, const char *const *labels, guint32 rgb)
{
  Mesh *m = g_new0 (Mesh, 1);
  gsize n = (gsize) rows * columns;

  m->name = g_strdup (name);
  m->rows = rows, m->columns = columns;
  m->v[IV_SURFACE_X] = g_memdup2 (x, n * sizeof (double));
  m->v[IV_SURFACE_Y] = g_memdup2 (y, n * sizeof (double));
  m->v[IV_SURFACE_Z] = g_memdup2 (z, n * sizeof (double));
  m->labels = g_new0 (char *, n + 1);
  for (gsize i = 0; i < n; i++)
    m->labels[i] = g_strdup (labels && labels[i] ? labels[i] : "");
  m->rgb = rgb;
  g_ptr_array_add (s->meshes, m);
}

void
iv_surface_set_view (IvSurface *s, double azimuth, double elevation)
{
  s->azimuth = isfinite (azimuth) ? fmod (azimuth, 360.0) : IV_SURFACE_AZIMUTH;
  s->elevation = isfinite (elevation) ? CLAMP (elevation, 0.0, 90.0) : IV_SURFACE_ELEVATION;
}

void
iv_surface_get_view (const IvSurface *s, double *azimuth, double *elevation)
{
  *azimuth = s->azimuth;
  *elevation = s->elevation;
}

/* A value of @a in the cube's coordinates [−1, 1]. */
static double
cube (const Axis *a, double v)
{
  return 2 * iv_scale_normalize (a->kind, a->lo, a->hi, v) - 1;
}

static gboolean
usable (const Axis *a, double v)
{
  return isfinite (v) && (a->kind == IV_SCALE_LINEAR || a->kind == IV_SCALE_TIME || v > 0);
}

static Projected
project (const IvSurface *s, double X, double Y, double Z)
{
  double az = s->azimuth * G_PI / 180, el = s->elevation * G_PI / 180;
  double x1 = X * cos (az) - Y * sin (az), y1 = X * sin (az) + Y * cos (az);
  return (Projected){ x1, y1 * sin (el) + Z * cos (el), -y1 * cos (el) + Z * sin (el) };
}

/* Each axis's range: its data's, padded a little. FALSE when there are no points. */
static gboolean
fit_axes (IvSurface *s)
{
  for (int a = 0; a < IV_SURFACE_N_AXES; a++)
    {
      Axis *ax = &s->axis[a];
      ax->lo = INFINITY, ax->hi = -INFINITY;
      for (guint k = 0; k < s->meshes->len; k++)
        {
          const Mesh *m = s->meshes->pdata[k];
          for (gsize i = 0; i < (gsize) m->rows * m->columns; i++)
            if (usable (ax, m->v[a][i]))
              ax->lo = MIN (ax->lo, m->v[a][i]), ax->hi = MAX (ax->hi, m->v[a][i]);
        }
      if (!(ax->hi >= ax->lo))
        return FALSE;
      iv_range_pad (ax->kind, &ax->lo, &ax->hi, 0.04);
    }
  return TRUE;
}

typedef struct
{
  double near;
  const Mesh *mesh;
  gsize corner[4];
} Quad;

static int
compare_quads (gconstpointer pa, gconstpointer pb)
{
  const Quad *a = pa, *b = pb;
  return (a->near > b->near) - (a->near < b->near);
}

typedef struct
{
  cairo_t *cr;
  IvText text;
  const IvThemeColors *colors;
  double cx, cy, kx,
      ky; /* the cube's centre on the page and its units per cube unit, across and up */
  const IvSurface *s;
  double width, height; /* the page's: titles kept on it */
  double placed[4];     /* the floor title drawn first (x, y, w, h), w < 0 before: the second
                         * goes under it rather than over it */
} Ctx;

/* Whether (@x, @y, @w, @h) comes within 8 px across (or touches up and down) the floor
 * title drawn first. */
static gboolean
near_placed (const Ctx *c, double x, double y, double w, double h)
{
  return c->placed[2] >= 0 && x < c->placed[0] + c->placed[2] + 8 && c->placed[0] < x + w + 8
         && y < c->placed[1] + c->placed[3] && c->placed[1] < y + h;
}

/* A floor axis's title at (@x, @y) aligned by @xa, @ya, kept on the page: moved in from
 * an edge (the bottom too: on a 220 px pane both floor titles fell off it, issue 31),
 * wrapped where wider than the page; the second beside the first where it would run
 * into it, under it where there is no room beside and room below. */
static void
show_on_page (Ctx *c, const char *title, double x, double y, double xa, double ya)
{
  double w, h, max_w = c->width - 2 * IV_FIGURE_PAD;
  double bottom;

  iv_text_measure_wrapped (&c->text, title, 0.92, TRUE, max_w, &w, &h);
  bottom = c->height - IV_FIGURE_PAD - h;
  x = CLAMP (x - w * xa, IV_FIGURE_PAD, c->width - IV_FIGURE_PAD - w);
  y = MIN (y - h * ya, bottom);
  if (near_placed (c, x, y, w, h))
    {
      double right = c->placed[0] + c->placed[2] + 16, left = c->placed[0] - 16 - w;
      if (right + w <= c->width - IV_FIGURE_PAD)
        x = right;
      else if (left >= IV_FIGURE_PAD)
        x = left;
      else if (c->placed[1] + c->placed[3] + 2 <= bottom)
        y = c->placed[1] + c->placed[3] + 2;
      else
        y = c->placed[1] - 2 - h;
    }
  iv_text_show_wrapped (&c->text, c->cr, title, x, y, 0.92, TRUE, max_w, &c->colors->foreground);
  c->placed[0] = x, c->placed[1] = y, c->placed[2] = w, c->placed[3] = h;
}

static void
to_page (const Ctx *c, Projected p, double *x, double *y)
{
  *x = c->cx + p.sx * c->kx;
  *y = c->cy - p.sy * c->ky;
}

static Projected
point_of (const IvSurface *s, const Mesh *m, gsize i)
{
  return project (s, cube (&s->axis[0], m->v[0][i]), cube (&s->axis[1], m->v[1][i]),
                  cube (&s->axis[2], m->v[2][i]));
}

static gboolean
point_usable (const IvSurface *s, const Mesh *m, gsize i)
{
  for (int a = 0; a < IV_SURFACE_N_AXES; a++)
    if (!usable (&s->axis[a], m->v[a][i]))
      return FALSE;
  return TRUE;
}

static void
line (const Ctx *c, Projected a, Projected b)
{
  double x0, y0, x1, y1;
  to_page (c, a, &x0, &y0);
  to_page (c, b, &x1, &y1);
  cairo_move_to (c->cr, x0, y0);
  cairo_line_to (c->cr, x1, y1);
}

/* One axis's ticks and title along the box edge from @from to @to (cube coordinates,
 * the varying one ignored), labels pushed away from the cube's centre on the page. */
static void
axis_labels (Ctx *c, int a, const double from[3], double other_x)
{
  const Axis *ax = &c->s->axis[a];
  IvScaleSpec spec = { ax->kind, ax->unit, FALSE, 0 };
  g_autoptr (IvTicks) ticks = iv_ticks_compute (&spec, ax->lo, ax->hi, 5);
  double p[3] = { from[0], from[1], from[2] }, ox, oy, len, ux, uy, tx = 0, ty = 0;
  double mid[3] = { from[0], from[1], from[2] };
  g_autofree char *title = NULL;
  Projected centre = project (c->s, 0, 0, 0), pm;
  double label_w = 0;

  mid[a] = 0;
  pm = project (c->s, mid[0], mid[1], mid[2]);
  /* outward: from the centre of the cube to the edge's middle, on the page */
  ox = pm.sx - centre.sx, oy = -(pm.sy - centre.sy);
  len = hypot (ox, oy);
  ux = len > 1e-6 ? ox / len : 0, uy = len > 1e-6 ? oy / len : 1;
  double last[4] = { 0, 0, -1, -1 }; /* the last label drawn: the next must clear it */
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      IvTick *t = &ticks->ticks[i];
      double x, y, w, h, lx, ly;
      if (!t->major || !t->label || t->value < MIN (ax->lo, ax->hi)
          || t->value > MAX (ax->lo, ax->hi))
        continue;
      p[a] = cube (ax, t->value);
      to_page (c, project (c->s, p[0], p[1], p[2]), &x, &y);
      iv_color_set_source (c->cr, &c->colors->foreground_dim);
      cairo_move_to (c->cr, x, y);
      cairo_line_to (c->cr, x + ux * 5, y + uy * 5);
      cairo_stroke (c->cr);
      iv_text_measure (&c->text, t->label, 0.85, FALSE, 0, &w, &h);
      label_w = MAX (label_w, fabs (ux) * w + fabs (uy) * h);
      /* a label that would touch the one before is left out (its tick stays): a short
       * edge on a small page holds fewer */
      lx = x + ux * 9 - w * (0.5 - 0.5 * ux), ly = y + uy * 9 - h * (0.5 - 0.5 * uy);
      if (last[2] >= 0 && lx < last[0] + last[2] + 2 && last[0] < lx + w + 2
          && ly < last[1] + last[3] && last[1] < ly + h)
        continue;
      last[0] = lx, last[1] = ly, last[2] = w, last[3] = h;
      iv_text_show (&c->text, c->cr, t->label, x + ux * 9, y + uy * 9, 0.5 - 0.5 * ux,
                    0.5 - 0.5 * uy, 0.85, FALSE, 0, &c->colors->foreground);
    }
  title = ticks->unit_label
              ? g_strdup_printf ("%s (%s)", ax->title ? ax->title : "", ticks->unit_label)
              : g_strdup (ax->title ? ax->title : "");
  to_page (c, pm, &tx, &ty);
  if (a == IV_SURFACE_Z)
    {
      /* the vertical's title runs up beside its labels */
      cairo_save (c->cr);
      cairo_translate (c->cr, tx + ux * (label_w + 14), ty);
      double edge = fabs (project (c->s, 0, 0, 1).sy - project (c->s, 0, 0, -1).sy) * c->ky;
      cairo_rotate (c->cr, ux < 0 ? -G_PI / 2 : G_PI / 2);
      /* no longer than the vertical it names (a little more when that is short): its
       * unit on a second line rather than cut */
      {
        double w, h, max_w = MAX (edge * 1.3, 140);
        iv_text_measure_wrapped (&c->text, title, 0.92, TRUE, max_w, &w, &h);
        iv_text_show_wrapped (&c->text, c->cr, title, -w / 2, -h, 0.92, TRUE, max_w,
                              &c->colors->foreground);
      }
      cairo_restore (c->cr);
      return;
    }
  if (fabs (uy) >= fabs (ux))
    {
      /* under (or over) a slanted edge, clear of the labels at both its ends */
      double x0, y0, x1, y1, lo_end[3] = { from[0], from[1], from[2] },
                             hi_end[3] = { from[0], from[1], from[2] };
      lo_end[a] = -1, hi_end[a] = 1;
      to_page (c, project (c->s, lo_end[0], lo_end[1], lo_end[2]), &x0, &y0);
      to_page (c, project (c->s, hi_end[0], hi_end[1], hi_end[2]), &x1, &y1);
      /* and away from the other floor axis's title: it ends (or starts) near the middle */
      show_on_page (c, title, tx, ty + (uy >= 0 ? 1 : -1) * (label_w + 16 + fabs (y1 - y0) / 2),
                    other_x > tx ? 0.85 : 0.15, uy >= 0 ? 0 : 1);
      return;
    }
  show_on_page (c, title, tx + ux * (label_w + 18), ty + uy * (label_w + 18), 0.5 - 0.5 * ux,
                0.5 - 0.5 * uy);
}

/* The floor's grid, the box's edges at the back and the three axes' labels. */
static void
draw_box (Ctx *c)
{
  static const double signs[2] = { -1, 1 };
  double best_y = -INFINITY, best_x = -INFINITY, best_left = INFINITY;
  double y_edge = -1, x_edge = -1, zx = -1, zy = -1;

  cairo_set_line_width (c->cr, 1);
  iv_color_set_source (c->cr, &c->colors->grid);
  for (int a = 0; a < 2; a++)
    {
      const Axis *ax = &c->s->axis[a];
      IvScaleSpec spec = { ax->kind, ax->unit, FALSE, 0 };
      g_autoptr (IvTicks) ticks = iv_ticks_compute (&spec, ax->lo, ax->hi, 5);
      for (guint i = 0; i < ticks->n_ticks; i++)
        {
          double v;
          if (!ticks->ticks[i].major || ticks->ticks[i].value < ax->lo
              || ticks->ticks[i].value > ax->hi)
            continue;
          v = cube (ax, ticks->ticks[i].value);
          if (a == 0)
            line (c, project (c->s, v, -1, -1), project (c->s, v, 1, -1));
          else
            line (c, project (c->s, -1, v, -1), project (c->s, 1, v, -1));
        }
    }
  cairo_stroke (c->cr);
  /* the floor's outline */
  iv_color_set_source (c->cr, &c->colors->foreground_dim);
  for (int i = 0; i < 2; i++)
    {
      line (c, project (c->s, -1, signs[i], -1), project (c->s, 1, signs[i], -1));
      line (c, project (c->s, signs[i], -1, -1), project (c->s, signs[i], 1, -1));
    }
  cairo_stroke (c->cr);
  /* labels on the floor edges nearest the viewer; the vertical at the leftmost corner */
  for (int i = 0; i < 2; i++)
    {
      Projected py = project (c->s, 0, signs[i], -1), px = project (c->s, signs[i], 0, -1);
      if (py.near > best_y)
        best_y = py.near, y_edge = signs[i];
      if (px.near > best_x)
        best_x = px.near, x_edge = signs[i];
      for (int j = 0; j < 2; j++)
        {
          Projected corner = project (c->s, signs[i], signs[j], -1);
          if (corner.sx < best_left)
            best_left = corner.sx, zx = signs[i], zy = signs[j];
        }
    }
  line (c, project (c->s, zx, zy, -1), project (c->s, zx, zy, 1));
  cairo_stroke (c->cr);
  {
    double xm, ym, dummy;
    to_page (c, project (c->s, 0, y_edge, -1), &xm, &dummy);
    to_page (c, project (c->s, x_edge, 0, -1), &ym, &dummy);
    axis_labels (c, IV_SURFACE_X, (double[3]){ 0, y_edge, -1 }, ym);
    axis_labels (c, IV_SURFACE_Y, (double[3]){ x_edge, 0, -1 }, xm);
    axis_labels (c, IV_SURFACE_Z, (double[3]){ zx, zy, 0 }, xm);
  }
}

/* How squarely a quad faces the light: 0.55 (edge-on) … 1 (facing it). */
static double
shade (const IvSurface *s, const Mesh *m, const gsize k[4])
{
  double P[4][3], u[3], v[3], n[3], len;
  static const double light[3] = { -0.4, -0.5, 0.77 };

  for (int q = 0; q < 4; q++)
    for (int a = 0; a < 3; a++)
      P[q][a] = cube (&s->axis[a], m->v[a][k[q]]);
  for (int a = 0; a < 3; a++)
    u[a] = P[2][a] - P[0][a], v[a] = P[3][a] - P[1][a];
  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len < 1e-12)
    return 0.8;
  return 0.55 + 0.45 * fabs ((n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len);
}

static void
draw_meshes (Ctx *c)
{
  const IvSurface *s = c->s;
  g_autoptr (GArray) quads = g_array_new (FALSE, FALSE, sizeof (Quad));

  for (guint k = 0; k < s->meshes->len; k++)
    {
      const Mesh *m = s->meshes->pdata[k];
      for (guint r = 0; r + 1 < m->rows; r++)
        for (guint col = 0; col + 1 < m->columns; col++)
          {
            Quad q = { 0,
                       m,
                       { (gsize) r * m->columns + col, (gsize) r * m->columns + col + 1,
                         (gsize) (r + 1) * m->columns + col + 1,
                         (gsize) (r + 1) * m->columns + col } };
            gboolean ok = TRUE;
            for (int i = 0; i < 4 && ok; i++)
              ok = point_usable (s, m, q.corner[i]);
            if (!ok)
              continue;
            for (int i = 0; i < 4; i++)
              q.near += point_of (s, m, q.corner[i]).near / 4;
            g_array_append_val (quads, q);
          }
    }
  g_array_sort (quads, compare_quads);
  cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < quads->len; i++)
    {
      const Quad *q = &g_array_index (quads, Quad, i);
      IvColor col = iv_color_from_rgb (q->mesh->rgb, 0.82);
      double f = shade (s, q->mesh, q->corner);
      for (int k = 0; k < 4; k++)
        {
          double x, y;
          to_page (c, point_of (s, q->mesh, q->corner[k]), &x, &y);
          if (k == 0)
            cairo_move_to (c->cr, x, y);
          else
            cairo_line_to (c->cr, x, y);
        }
      cairo_close_path (c->cr);
      col.r *= f, col.g *= f, col.b *= f;
      iv_color_set_source (c->cr, &col);
      cairo_fill_preserve (c->cr);
      cairo_set_source_rgba (c->cr, col.r * 0.6, col.g * 0.6, col.b * 0.6, 0.9);
      cairo_set_line_width (c->cr, 0.6);
      cairo_stroke (c->cr);
    }
  /* each row (one curve) and its points on top */
  for (guint k = 0; k < s->meshes->len; k++)
    {
      const Mesh *m = s->meshes->pdata[k];
      IvColor col = iv_color_from_rgb (m->rgb, 1);
      for (guint r = 0; r < m->rows; r++)
        {
          gboolean pen = FALSE;
          for (guint j = 0; j < m->columns; j++)
            {
              gsize i = (gsize) r * m->columns + j;
              double x, y;
              if (!point_usable (s, m, i))
                {
                  pen = FALSE;
                  continue;
                }
              to_page (c, point_of (s, m, i), &x, &y);
              if (pen)
                cairo_line_to (c->cr, x, y);
              else
                cairo_move_to (c->cr, x, y);
              pen = TRUE;
            }
          iv_color_set_source (c->cr, &col);
          cairo_set_line_width (c->cr, 2);
          cairo_stroke (c->cr);
        }
      for (gsize i = 0; i < (gsize) m->rows * m->columns; i++)
        {
          DrawnPoint d;
          if (!point_usable (s, m, i))
            continue;
          to_page (c, point_of (s, m, i), &d.px, &d.py);
          cairo_arc (c->cr, d.px, d.py, 3, 0, 2 * G_PI);
          iv_color_set_source (c->cr, &col);
          cairo_fill_preserve (c->cr);
          iv_color_set_source (c->cr, &c->colors->background);
          cairo_set_line_width (c->cr, 1);
          cairo_stroke (c->cr);
          {
            g_autoptr (GString) t = g_string_new (m->name);
            if (m->labels[i][0])
              g_string_append_printf (t, " — %s", m->labels[i]);
            for (int a = 0; a < IV_SURFACE_N_AXES; a++)
              {
                g_autofree char *v = iv_unit_format_value (&s->axis[a].unit, m->v[a][i]);
                g_string_append_printf (t, "\n%s: %s", s->axis[a].title ? s->axis[a].title : "", v);
              }
            d.text = g_string_free (g_steal_pointer (&t), FALSE);
          }
          g_array_append_val (((IvSurface *) s)->drawn, d);
        }
    }
}

gboolean
iv_surface_render (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                   double height, GError **error)
{
  IvSurface *s = (IvSurface *) data;
  Ctx c = { cr,     { 0 },          iv_theme_get_colors (options->theme), 0, 0, 0, 0, s, width,
            height, { 0, 0, -1, 0 } };
  double fs = options->font_scale > 0 ? options->font_scale : 1;
  double top = IV_FIGURE_PAD, w, h, legend_x, legend_y, lo_x = INFINITY, hi_x = -INFINITY,
         lo_y = INFINITY, hi_y = -INFINITY;
  double room_x, room_y, room_w, room_h, x;

  g_array_set_size (s->drawn, 0);
  if (!fit_axes (s))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("the surface has no point with all three values"));
      return FALSE;
    }
  cairo_save (cr);
  iv_color_set_source (cr, &c.colors->background);
  cairo_paint (cr);
  iv_text_init (&c.text, cr, 13.0 * fs);
  /* titles wrap on a narrow page rather than lose their end */
  if (s->title)
    top += iv_text_show_wrapped (&c.text, cr, s->title, IV_FIGURE_PAD, top, 1.27, TRUE,
                                 width - 2 * IV_FIGURE_PAD, &c.colors->foreground)
           + 2;
  if (s->subtitle)
    top += iv_text_show_wrapped (&c.text, cr, s->subtitle, IV_FIGURE_PAD, top, 0.92, FALSE,
                                 width - 2 * IV_FIGURE_PAD, &c.colors->foreground_dim)
           + 4;
  /* the legend: one row at the top right, under the titles when it does not fit beside them */
  {
    double lw = 0, tw = 0, th;
    for (guint k = 0; k < s->meshes->len; k++)
      {
        iv_text_measure (&c.text, ((const Mesh *) s->meshes->pdata[k])->name, 0.88, FALSE, 0, &w,
                         &h);
        lw += 20 + w + 22;
      }
    if (s->title)
      iv_text_measure (&c.text, s->title, 1.27, TRUE, 0, &tw, &th);
    legend_x = width - IV_FIGURE_PAD - lw + 22;
    legend_y = IV_FIGURE_PAD + 10;
    if (legend_x < IV_FIGURE_PAD + tw + 24)
      {
        legend_x = IV_FIGURE_PAD;
        legend_y = top + 10;
        top += 22;
      }
  }
  /* the cube's eight corners fix its extent on the page; the labels need a margin */
  for (int i = 0; i < 8; i++)
    {
      Projected p = project (s, i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
      lo_x = MIN (lo_x, p.sx), hi_x = MAX (hi_x, p.sx), lo_y = MIN (lo_y, p.sy),
      hi_y = MAX (hi_y, p.sy);
    }
  /* room for the labels around the box: less of it on a small page, never all of it */
  room_x = IV_FIGURE_PAD + MIN (110 * fs, width * 0.18), room_w = MAX (20, width - 2 * room_x);
  room_y = top + MIN (20 * fs, height * 0.04);
  /* a narrow page stacks the two floor titles: a line more under the box */
  room_h = MAX (20, height - room_y - MIN (80 * fs, height * 0.22) - (width < 500 ? 16 * fs : 0));
  /* the room filled, the box's proportions bent by at most 1.5 (a wide page takes a wide box) */
  c.kx = MAX (1, room_w / (hi_x - lo_x));
  c.ky = MAX (1, room_h / (hi_y - lo_y));
  c.kx = MIN (c.kx, 1.5 * c.ky), c.ky = MIN (c.ky, 1.5 * c.kx);
  c.cx = room_x + room_w / 2 - (lo_x + hi_x) / 2 * c.kx;
  c.cy = room_y + room_h / 2 + (lo_y + hi_y) / 2 * c.ky;
  draw_box (&c);
  draw_meshes (&c);
  x = legend_x;
  for (guint k = 0; k < s->meshes->len; k++)
    {
      const Mesh *m = s->meshes->pdata[k];
      IvColor col = iv_color_from_rgb (m->rgb, 1);
      double y = legend_y;
      iv_color_set_source (cr, &col);
      cairo_rectangle (cr, x, y - 5, 14, 10);
      cairo_fill (cr);
      x = iv_text_legend_label (&c.text, cr, m->name, x, y, &c.colors->foreground);
    }
  iv_text_clear (&c.text);
  cairo_restore (cr);
  return TRUE;
}

guint
iv_surface_get_n_points (const IvSurface *s)
{
  return s->drawn->len;
}

gboolean
iv_surface_get_point (const IvSurface *s, guint index, double *px, double *py, char **text)
{
  const DrawnPoint *d;

  if (index >= s->drawn->len)
    return FALSE;
  d = &g_array_index (s->drawn, DrawnPoint, index);
  *px = d->px, *py = d->py;
  *text = g_strdup (d->text);
  return TRUE;
}

char *
iv_surface_describe_at (const IvSurface *s, double px, double py, double radius)
{
  const DrawnPoint *best = NULL;
  double best_d = radius;

  for (guint i = 0; i < s->drawn->len; i++)
    {
      const DrawnPoint *d = &g_array_index (s->drawn, DrawnPoint, i);
      double dist = hypot (d->px - px, d->py - py);
      if (dist <= best_d)
        best = d, best_d = dist;
    }
  return best ? g_strdup (best->text) : NULL;
}
