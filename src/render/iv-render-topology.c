/* iv-render-topology.c: the SIP as the model sees it — cubes in their grid (or ring) with
 * their links, each cube's ring of PEs, the first TP and the first CP group outlined in
 * their colours with the links their collectives use emphasised, idle PEs and cubes
 * greyed. Positions follow docs/model.md §2.2: cubes row-major, TP fastest when both
 * groups share a level, PE groups from PE 0 of every used cube. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-model.h"

#include <math.h>

#include "iv-text.h"

#define PAD IV_FIGURE_PAD
#define TITLE_H 56.0
#define LEGEND_ROW_H 18.0
#define LEGEND_SCALE 0.88 /* iv_text_legend_label's */

/* Member @k of a group of @n with stride @s, or -1 past its end. */
static gint64
member (gint64 k, gint64 n, gint64 s)
{
  return k < n ? k * s : -1;
}

/* The strides of the two groups at each level: TP varies fastest at a shared level. */
static gint64
cp_stride (const IvConfig *c)
{
  return c->place_tp == c->place_cp ? c->t : 1;
}

static double titles_height (IvText *text, const IvResult *r, double width);

/* The key's entries, in order: shape 0 a dot, 1 a ring, 2 a line, 3 a dashed line, 4 an
 * arrow; @color_ids index the colours draw_legend passes. Returns the count. */
typedef struct
{
  int color, shape;
  const char *name;
} LegendItem;

static guint
legend_items (const IvModelFigure *fig, gboolean short_names, LegendItem items[7])
{
  const IvHardware *hw = fig->result->hw;
  const IvConfig *c = &fig->result->config;
  gboolean gpu = iv_hardware_is_gpu_server (hw);
  guint n = 0;

  items[n++] = (LegendItem){ 0, 0, "first TP group and its links" };
  /* CP 1 draws no CP group: a key entry for it would name nothing on the figure */
  if (c->c > 1)
    items[n++] = (LegendItem){ 1, 0, "first CP group and its links" };
  /* EP only when there is an EP group across cubes to point at */
  if (c->e > 1 && c->place_ep == IV_PLACE_CUBE)
    items[n++] = (LegendItem){ 2, 3, "first EP group and its links" };
  /* short cube names are keyed on the first entry about them */
  items[n++]
      = (LegendItem){ 3, 0,
                      short_names ? (gpu ? "GPU in use (G3: GPU 3)" : "PE in use (c3: cube 3)")
                      : gpu       ? "GPU in use"
                                  : "PE in use" };
  items[n++] = (LegendItem){ 4, 1, gpu ? "idle GPU" : "idle PE" };
  items[n++] = (LegendItem){ 5, 2, "link" };
  if (hw->topology == IV_TOPOLOGY_TORUS2D && hw->Y > 1)
    items[n++] = (LegendItem){ 5, 4, "wrap-around: a row's (column's) two arrows are one link" };
  return n;
}

/* Where each entry of the key goes, flowing into rows as wide as the page allows:
 * x of its swatch and its row (0 the first); returns the number of rows. */
static guint
legend_flow (IvText *text, const LegendItem *items, guint n, double width, double *x, guint *row)
{
  double at = PAD;
  guint r = 0;

  for (guint i = 0; i < n; i++)
    {
      double w;
      iv_text_measure (text, items[i].name, LEGEND_SCALE, FALSE, 0, &w, NULL);
      if (at > PAD && at + 20 + w > width - PAD)
        at = PAD, r++;
      x[i] = at, row[i] = r;
      at += 20 + w + 22;
    }
  return n ? r + 1 : 0;
}

/* The scale of a cube's name: under 0.8 of the body it would read under 6.5 pt at a
 * column (issue 31). */
static double
cube_label_scale (const IvTopologyLayout *L)
{
  return L->cube_size < 90 ? 0.8 : 0.85;
}

/* A cube's name, "GPU 3" or "cube 3", or "G3"/"c3" when the layout says so. */
static char *
cube_label (const IvTopologyLayout *L, gboolean gpu, gint64 cube)
{
  return g_strdup_printf (L->short_names ? (gpu ? "G%" G_GINT64_FORMAT : "c%" G_GINT64_FORMAT)
                          : gpu          ? "GPU %" G_GINT64_FORMAT
                                         : "cube %" G_GINT64_FORMAT,
                          cube);
}

static void layout_pass (const IvModelFigure *fig, double width, double height,
                         gboolean short_names, IvTopologyLayout *L);

void
iv_topology_layout (const IvModelFigure *fig, double width, double height, IvTopologyLayout *L)
{
  gboolean gpu = iv_hardware_is_gpu_server (fig->result->hw);
  g_autofree char *widest = NULL;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  IvText text;
  double w, h;

  /* the full names where the widest fits its cube, else the short ones with a key */
  layout_pass (fig, width, height, FALSE, L);
  widest = cube_label (L, gpu, L->X * L->Y - 1);
  iv_text_init (&text, cr, 13);
  iv_text_measure (&text, widest, cube_label_scale (L), FALSE, 0, &w, &h);
  iv_text_clear (&text);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  if (w > L->cube_size - 8)
    layout_pass (fig, width, height, TRUE, L);
}

static void
layout_pass (const IvModelFigure *fig, double width, double height, gboolean short_names,
             IvTopologyLayout *L)
{
  const IvHardware *hw = fig->result->hw;
  double avail_w, avail_h, cs, rows;
  LegendItem items[7];
  double lx[7];
  guint lrow[7], n_items;

  memset (L, 0, sizeof *L);
  L->short_names = short_names;
  {
    /* the key measured as it is drawn, on a scratch context: the window's hit tests and
     * the drawing get the same layout */
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create (s);
    IvText text;
    iv_text_init (&text, cr, 13);
    n_items = legend_items (fig, short_names, items);
    L->legend_h = legend_flow (&text, items, n_items, width, lx, lrow) * LEGEND_ROW_H + 16;
    L->title_h = MAX (TITLE_H, titles_height (&text, fig->result, width));
    iv_text_clear (&text);
    cairo_destroy (cr);
    cairo_surface_destroy (s);
  }
  L->X = hw->X, L->Y = hw->Y, L->n_pe = hw->n_pe;
  /* Cubes of side cs, gaps of 0.45·cs, and 0.4·cs of margin on each side for the
   * wrap-around stubs (a ring's arc above): the grid as large as the canvas allows. */
  avail_w = width - 2 * PAD;
  avail_h = height - L->title_h - L->legend_h - 2 * PAD;
  /* a GPU server: the GPUs' row and, under it, the switch they all plug into or the
   * links of every pair */
  rows = hw->topology == IV_TOPOLOGY_SWITCH || hw->topology == IV_TOPOLOGY_FULLY_CONNECTED
             ? L->Y + 0.9
             : L->Y;
  cs = MIN (avail_w / (L->X + 0.45 * (L->X - 1) + 0.8), avail_h / (rows + 0.45 * (L->Y - 1) + 0.8));
  cs = MIN (cs, 0.3 * width); /* one or two GPUs: not the whole page */
  L->cube_size = MAX (cs, 8);
  L->gap = 0.45 * L->cube_size;
  L->x0 = (width - (L->X * L->cube_size + (L->X - 1) * L->gap)) / 2;
  L->y0
      = L->title_h + PAD + 0.4 * L->cube_size
        + MAX (0, (avail_h - (rows * L->cube_size + (L->Y - 1) * L->gap + 0.8 * L->cube_size)) / 2);
  L->pe_ring_radius = 0.28 * L->cube_size;
  L->pe_radius = MIN (0.07 * L->cube_size, 0.8 * G_PI * L->pe_ring_radius / MAX (1, L->n_pe));
}

IvRect
iv_topology_cube_rect (const IvTopologyLayout *L, gint64 cube)
{
  gint64 x = cube % L->X, y = cube / L->X;
  return (IvRect){ L->x0 + x * (L->cube_size + L->gap), L->y0 + y * (L->cube_size + L->gap),
                   L->cube_size, L->cube_size };
}

void
iv_topology_pe_center (const IvTopologyLayout *L, gint64 cube, gint64 pe, double *x, double *y)
{
  IvRect r = iv_topology_cube_rect (L, cube);
  double a = -G_PI / 2 + 2 * G_PI * pe / MAX (1, L->n_pe);

  *x = r.x + r.w / 2 + L->pe_ring_radius * cos (a);
  *y = r.y + 0.44 * r.h + L->pe_ring_radius * sin (a);
}

static void
centre (const IvTopologyLayout *L, gint64 cube, double *x, double *y)
{
  IvRect r = iv_topology_cube_rect (L, cube);
  /* The PE ring sits a little high, leaving room for the cube's label. */
  *x = r.x + r.w / 2, *y = r.y + 0.44 * r.h;
}

/* The wrap-around link of row @row (or of column @col when @row < 0), routed outside the
 * cubes: a ring's one row closes in an arc above it; a torus's rows and columns each end
 * in two stubs leaving the grid from their end cubes, arrowed outwards (a line across the
 * grid would cross every cube between) — the legend says the two stubs are one link. */
static void
wrap_arc (cairo_t *cr, const IvTopologyLayout *L, gint64 row, gint64 col)
{
  double bulge = 0.45 * L->cube_size, st = 0.3 * L->cube_size, ah = MAX (3, 0.06 * L->cube_size);

  if (row >= 0 && L->Y == 1)
    {
      IvRect a = iv_topology_cube_rect (L, L->X - 1), b = iv_topology_cube_rect (L, 0);
      cairo_move_to (cr, a.x + a.w / 2, a.y);
      cairo_curve_to (cr, a.x + a.w / 2, a.y - bulge, b.x + b.w / 2, b.y - bulge, b.x + b.w / 2,
                      b.y);
      return;
    }
  if (row >= 0)
    {
      IvRect a = iv_topology_cube_rect (L, row * L->X + L->X - 1),
             b = iv_topology_cube_rect (L, row * L->X);
      double y = a.y + a.h / 2;
      cairo_move_to (cr, b.x, y), cairo_line_to (cr, b.x - st, y);
      cairo_move_to (cr, b.x - st + ah, y - ah), cairo_line_to (cr, b.x - st, y),
          cairo_line_to (cr, b.x - st + ah, y + ah);
      cairo_move_to (cr, a.x + a.w, y), cairo_line_to (cr, a.x + a.w + st, y);
      cairo_move_to (cr, a.x + a.w + st - ah, y - ah), cairo_line_to (cr, a.x + a.w + st, y);
      cairo_line_to (cr, a.x + a.w + st - ah, y + ah);
    }
  else
    {
      IvRect a = iv_topology_cube_rect (L, (L->Y - 1) * L->X + col),
             b = iv_topology_cube_rect (L, col);
      double x = a.x + a.w / 2;
      cairo_move_to (cr, x, b.y), cairo_line_to (cr, x, b.y - st);
      cairo_move_to (cr, x - ah, b.y - st + ah), cairo_line_to (cr, x, b.y - st),
          cairo_line_to (cr, x + ah, b.y - st + ah);
      cairo_move_to (cr, x, a.y + a.h), cairo_line_to (cr, x, a.y + a.h + st);
      cairo_move_to (cr, x - ah, a.y + a.h + st - ah), cairo_line_to (cr, x, a.y + a.h + st);
      cairo_line_to (cr, x + ah, a.y + a.h + st - ah);
    }
}

/* Straight link between grid neighbours @a and @b, edge to edge. */
static void
grid_link (cairo_t *cr, const IvTopologyLayout *L, gint64 a, gint64 b)
{
  IvRect ra = iv_topology_cube_rect (L, MIN (a, b)), rb = iv_topology_cube_rect (L, MAX (a, b));

  if (ra.y == rb.y)
    {
      cairo_move_to (cr, ra.x + ra.w, ra.y + ra.h / 2);
      cairo_line_to (cr, rb.x, rb.y + rb.h / 2);
    }
  else
    {
      cairo_move_to (cr, ra.x + ra.w / 2, ra.y + ra.h);
      cairo_line_to (cr, rb.x + rb.w / 2, rb.y);
    }
}

/* The switch under a row of GPUs: where its bar sits. */
static IvRect
switch_rect (const IvTopologyLayout *L)
{
  IvRect first = iv_topology_cube_rect (L, 0), last = iv_topology_cube_rect (L, L->X - 1);
  return (IvRect){ first.x, first.y + first.h + 0.45 * L->cube_size, last.x + last.w - first.x,
                   0.3 * L->cube_size };
}

/* GPU @cube's link down into the switch. */
static void
switch_link (cairo_t *cr, const IvTopologyLayout *L, gint64 cube)
{
  IvRect r = iv_topology_cube_rect (L, cube), sw = switch_rect (L);
  cairo_move_to (cr, r.x + r.w / 2, r.y + r.h);
  cairo_line_to (cr, r.x + r.w / 2, sw.y);
}

/* The own link of GPUs @a and @b of a fully connected server: a curve under the row,
 * deeper the farther apart they are, leaving each GPU at its own point of the bottom edge
 * (one per peer) so that the X − 1 links of a GPU stay apart. */
static void
mesh_link (cairo_t *cr, const IvTopologyLayout *L, gint64 a, gint64 b)
{
  IvRect ra = iv_topology_cube_rect (L, a), rb = iv_topology_cube_rect (L, b);
  double n = MAX (1, L->X - 1);
  double xa = ra.x + ra.w * (0.12 + 0.76 * b / n), xb = rb.x + rb.w * (0.12 + 0.76 * a / n);
  double depth = L->cube_size * (0.15 + 0.75 * fabs ((double) (b - a)) / n);

  cairo_move_to (cr, xa, ra.y + ra.h);
  cairo_curve_to (cr, xa, ra.y + ra.h + depth, xb, rb.y + rb.h + depth, xb, rb.y + rb.h);
}

/* The links of the @nx × @ny grid at the SIP's first cube, stroked. */
static void
grid_links (cairo_t *cr, const IvTopologyLayout *L, gint64 nx, gint64 ny)
{
  for (gint64 y = 0; y < ny; y++)
    for (gint64 x = 0; x < nx; x++)
      {
        if (x + 1 < nx)
          grid_link (cr, L, y * L->X + x, y * L->X + x + 1);
        if (y + 1 < ny)
          grid_link (cr, L, y * L->X + x, (y + 1) * L->X + x);
      }
  cairo_stroke (cr);
}

/* The wrap-around links of that grid's rows (@wrap_x) and columns (@wrap_y), stroked:
 * none along a side of two cubes or fewer, where a wrap is a grid link already. */
static void
wrap_arcs (cairo_t *cr, const IvTopologyLayout *L, gint64 nx, gint64 ny, gboolean wrap_x,
           gboolean wrap_y)
{
  for (gint64 y = 0; wrap_x && L->X > 2 && y < ny; y++)
    wrap_arc (cr, L, y, -1);
  for (gint64 x = 0; wrap_y && L->Y > 2 && x < nx; x++)
    wrap_arc (cr, L, -1, x);
  cairo_stroke (cr);
}

/* Every link of the SIP's topology, in @color at @width. */
static void
draw_cube_links (cairo_t *cr, const IvTopologyLayout *L, IvTopology topology, const IvColor *color,
                 double width)
{
  if (topology == IV_TOPOLOGY_FULLY_CONNECTED)
    {
      iv_color_set_source (cr, color);
      cairo_set_line_width (cr, width * 0.6);
      for (gint64 a = 0; a < L->X; a++)
        for (gint64 b = a + 1; b < L->X; b++)
          mesh_link (cr, L, a, b);
      cairo_stroke (cr);
      return;
    }
  if (topology == IV_TOPOLOGY_SWITCH)
    {
      iv_color_set_source (cr, color);
      cairo_set_line_width (cr, width);
      for (gint64 x = 0; x < L->X; x++)
        switch_link (cr, L, x);
      cairo_stroke (cr);
      return;
    }
  iv_color_set_source (cr, color);
  cairo_set_line_width (cr, width);
  grid_links (cr, L, L->X, L->Y);
  if (topology == IV_TOPOLOGY_MESH2D)
    return;
  wrap_arcs (cr, L, L->X, L->Y, TRUE, topology == IV_TOPOLOGY_TORUS2D);
}

/* The links a cube-level group's collectives use: the path through its members (a line
 * with hop h passes the cubes between them), the wrap when it closes, or a sub-grid's
 * edges. */
static void
draw_group_cube_links (cairo_t *cr, const IvTopologyLayout *L, const IvCommGroup *g, gint64 stride)
{
  if (g->kind == IV_EMBED_SINGLE)
    return;
  if (g->kind == IV_EMBED_FULL_MESH)
    {
      /* every pair of members on its own link */
      for (gint64 i = 0; i < g->N; i++)
        for (gint64 j = i + 1; j < g->N; j++)
          mesh_link (cr, L, member (i, g->N, stride), member (j, g->N, stride));
      cairo_stroke (cr);
      return;
    }
  if (g->kind == IV_EMBED_SWITCH)
    {
      /* the members' links into the switch carry the group's traffic */
      for (gint64 k = 0; k < g->N; k++)
        switch_link (cr, L, member (k, g->N, stride));
      cairo_stroke (cr);
      return;
    }
  if (g->kind == IV_EMBED_SUBGRID)
    {
      grid_links (cr, L, g->Xg, g->Yg);
      wrap_arcs (cr, L, g->Xg, g->Yg, g->wrap_x, g->wrap_y);
      return;
    }
  {
    gint64 step = g->kind == IV_EMBED_LINE_X ? 1 : L->X;
    gint64 last = member (g->N - 1, g->N, stride);
    for (gint64 c = 0; c + step <= last; c += step)
      grid_link (cr, L, c, c + step);
    cairo_stroke (cr);
    if (g->wrap && g->N > 2)
      {
        if (g->kind == IV_EMBED_LINE_X)
          wrap_arc (cr, L, 0, -1);
        else
          wrap_arc (cr, L, -1, 0);
        cairo_stroke (cr);
      }
  }
}

/* Arcs along cube @cube's PE ring between consecutive members of a PE-level group, and the
 * closing arc when the group fills the ring. */
static void
draw_group_pe_links (cairo_t *cr, const IvTopologyLayout *L, gint64 cube, const IvCommGroup *g,
                     gint64 stride)
{
  double cx, cy, step = 2 * G_PI / MAX (1, L->n_pe);

  if (g->kind == IV_EMBED_SINGLE)
    return;
  centre (L, cube, &cx, &cy);
  for (gint64 k = 0; k + 1 < g->N; k++)
    {
      cairo_new_sub_path (cr);
      cairo_arc (cr, cx, cy, L->pe_ring_radius, -G_PI / 2 + step * k * stride,
                 -G_PI / 2 + step * (k + 1) * stride);
    }
  if (g->wrap && g->N > 2)
    {
      cairo_new_sub_path (cr);
      cairo_arc (cr, cx, cy, L->pe_ring_radius, -G_PI / 2 + step * (g->N - 1) * stride,
                 3 * G_PI / 2);
    }
  cairo_stroke (cr);
}

static gboolean
in_group (gint64 index, gint64 n, gint64 stride)
{
  return index % stride == 0 && index / stride < n;
}

/* What every phase of one topology drawing reads. */
typedef struct
{
  cairo_t *cr;
  const IvResult *r;
  const IvConfig *c;
  const IvThemeColors *colors;
  IvTopologyLayout L;
  IvText text;
  IvColor tp, cp, ep, link, idle, used;
  gint64 tp_pe, cp_pe, tp_cube, cp_cube; /* group sizes at each level (1 when elsewhere) */
  gint64 cp_s;                           /* the CP group's stride */
  gint64 ep_cube, ep_s; /* EP's size across cubes (GPUs; 1 when not there) and stride */
  gboolean gpu;         /* a GPU server: GPUs and links, never cubes and PEs (§8) */
} Topo;

/* The title (the hardware) and subtitle (the model and the whole step: mode, batch, T_q,
 * context, TP and CP with their placements, the ring) — two exports of different
 * placements must not read the same. */
static void
topology_titles (const IvResult *r, char **title, char **subtitle)
{
  const IvHardware *hw = r->hw;
  gboolean gpu = iv_hardware_is_gpu_server (hw);
  g_autofree char *config = iv_result_config_text (r);

  *title
      = hw->topology == IV_TOPOLOGY_SWITCH
            ? g_strdup_printf ("%s · %" G_GINT64_FORMAT " GPUs on a switch%s", hw->name, hw->X,
                               hw->switch_reduce ? " that reduces (NVLink SHARP)" : "")
        : hw->topology == IV_TOPOLOGY_FULLY_CONNECTED
            ? g_strdup_printf ("%s · %" G_GINT64_FORMAT " GPUs, fully connected: a link per pair",
                               hw->name, hw->X)
            : g_strdup_printf ("%s · %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT
                               " cubes (%s) × %" G_GINT64_FORMAT " PEs",
                               hw->name, hw->X, hw->Y, iv_topology_to_string (hw->topology),
                               hw->n_pe);
  *subtitle = g_strdup_printf (
      "%s · %s · %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " %s idle", r->model->name, config,
      r->idle_pes, gpu ? hw->X * hw->Y : hw->X * hw->Y * hw->n_pe, gpu ? "GPUs" : "PEs");
}

/* The titles' height at @width: the subtitle wraps on a narrow page. */
static double
titles_height (IvText *text, const IvResult *r, double width)
{
  g_autofree char *title = NULL, *subtitle = NULL;
  double th, sh;

  topology_titles (r, &title, &subtitle);
  iv_text_measure_wrapped (text, title, 1.25, TRUE, width - 2 * PAD, NULL, &th);
  iv_text_measure_wrapped (text, subtitle, 0.95, FALSE, width - 2 * PAD, NULL, &sh);
  return th + 2 + sh + 8;
}

static void
draw_titles (Topo *T, double width)
{
  g_autofree char *title = NULL, *subtitle = NULL;
  double y = PAD;

  topology_titles (T->r, &title, &subtitle);
  y += iv_text_show_wrapped (&T->text, T->cr, title, PAD, y, 1.25, TRUE, width - 2 * PAD,
                             &T->colors->foreground);
  iv_text_show_wrapped (&T->text, T->cr, subtitle, PAD, y + 2, 0.95, FALSE, width - 2 * PAD,
                        &T->colors->foreground_dim);
}

/* Cube links under everything, then the cube-level groups' links over them. */
static void
draw_links (Topo *T)
{
  draw_cube_links (T->cr, &T->L, T->r->hw->topology, &T->link, MAX (2, T->L.cube_size * 0.05));
  cairo_set_line_width (T->cr, MAX (3, T->L.cube_size * 0.07));
  iv_color_set_source (T->cr, &T->tp);
  if (T->c->place_tp == IV_PLACE_CUBE)
    draw_group_cube_links (T->cr, &T->L, &T->r->tp_group, 1);
  iv_color_set_source (T->cr, &T->cp);
  if (T->c->place_cp == IV_PLACE_CUBE)
    draw_group_cube_links (T->cr, &T->L, &T->r->cp_group, T->cp_s);
  iv_color_set_source (T->cr, &T->ep);
  if (T->ep_cube > 1)
    draw_group_cube_links (T->cr, &T->L, &T->r->ep_group, T->ep_s);
}

/* A cube: its outline, the cube-level groups' outlines (TP outside, CP inside), its name. */
static void
draw_cube (Topo *T, gint64 cube)
{
  cairo_t *cr = T->cr;
  IvRect rc = iv_topology_cube_rect (&T->L, cube);
  gboolean cube_used = cube < T->r->used_cubes;
  g_autofree char *label = cube_label (&T->L, T->gpu, cube);

  iv_rounded_rect (cr, rc, T->L.cube_size * 0.08);
  iv_color_set_source (cr, &T->colors->background);
  cairo_fill_preserve (cr);
  iv_color_set_source (cr, cube_used ? &T->colors->foreground_dim : &T->idle);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  if (T->c->place_tp == IV_PLACE_CUBE && T->tp_cube > 1 && in_group (cube, T->tp_cube, 1))
    {
      iv_rounded_rect (cr, (IvRect){ rc.x - 5, rc.y - 5, rc.w + 10, rc.h + 10 },
                       T->L.cube_size * 0.1);
      iv_color_set_source (cr, &T->tp);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
    }
  if (T->c->place_cp == IV_PLACE_CUBE && T->cp_cube > 1 && in_group (cube, T->cp_cube, T->cp_s))
    {
      iv_rounded_rect (cr, (IvRect){ rc.x + 3, rc.y + 3, rc.w - 6, rc.h - 6 },
                       T->L.cube_size * 0.07);
      iv_color_set_source (cr, &T->cp);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
    }
  if (T->ep_cube > 1 && in_group (cube, T->ep_cube, T->ep_s))
    {
      /* the first EP group: dashed, outside TP's outline */
      double dash[] = { 6, 4 };
      iv_rounded_rect (cr, (IvRect){ rc.x - 10, rc.y - 10, rc.w + 20, rc.h + 20 },
                       T->L.cube_size * 0.12);
      iv_color_set_source (cr, &T->ep);
      cairo_set_line_width (cr, 3);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  iv_text_show (&T->text, cr, label, rc.x + rc.w / 2, rc.y + rc.h - 4, 0.5, 1,
                cube_label_scale (&T->L), FALSE, rc.w - 4,
                cube_used ? &T->colors->foreground : &T->colors->foreground_dim);
}

/* A cube's ring of PEs: the ring, the PE-level groups' links along it, then each PE —
 * idle hollow, in use filled, a member of a first group in its group's colour (a PE in
 * both: TP fill, CP ring). */
static void
draw_pe_ring (Topo *T, gint64 cube)
{
  cairo_t *cr = T->cr;
  const IvTopologyLayout *L = &T->L;
  gboolean cube_used = cube < T->r->used_cubes;
  double cx, cy;

  centre (L, cube, &cx, &cy);
  /* a GPU is one PE: no ring to draw around it */
  if (!T->gpu)
    {
      iv_color_set_source (cr, &T->link);
      cairo_set_line_width (cr, MAX (1, L->pe_radius * 0.35));
      cairo_new_sub_path (cr);
      cairo_arc (cr, cx, cy, L->pe_ring_radius, 0, 2 * G_PI);
      cairo_stroke (cr);
    }
  /* The first TP group and the first CP group only: a PE-level group is in cube 0; a
   * cube-level group's members are PE 0 of its cubes (TP rank 0, CP rank 0). */
  gboolean first_tp_cube
      = T->c->place_tp == IV_PLACE_PE ? cube == 0 : in_group (cube, T->tp_cube, 1);
  gboolean first_cp_cube
      = T->c->place_cp == IV_PLACE_PE ? cube == 0 : in_group (cube, T->cp_cube, T->cp_s);

  if (cube_used && cube == 0)
    {
      cairo_set_line_width (cr, MAX (2, L->pe_radius * 0.6));
      iv_color_set_source (cr, &T->tp);
      if (T->c->place_tp == IV_PLACE_PE)
        draw_group_pe_links (cr, L, cube, &T->r->tp_group, 1);
      iv_color_set_source (cr, &T->cp);
      if (T->c->place_cp == IV_PLACE_PE)
        draw_group_pe_links (cr, L, cube, &T->r->cp_group, T->cp_s);
    }
  /* Idle PEs, then PEs in use outside the first groups, each kind one path: a 4×4 torus
   * of 16-PE cubes is 256 circles, and one fill per circle is most of a redraw. */
  cairo_new_path (cr);
  for (gint64 pe = cube_used ? T->r->used_pes_per_cube : 0; pe < L->n_pe; pe++)
    {
      double px, py;
      iv_topology_pe_center (L, cube, pe, &px, &py);
      cairo_new_sub_path (cr);
      cairo_arc (cr, px, py, L->pe_radius, 0, 2 * G_PI);
    }
  iv_color_set_source (cr, &T->colors->background);
  cairo_fill_preserve (cr);
  iv_color_set_source (cr, &T->idle);
  cairo_set_line_width (cr, 1.2);
  cairo_stroke (cr);
  for (gint64 pe = 0; pe < L->n_pe; pe++)
    {
      gboolean pe_used = cube_used && pe < T->r->used_pes_per_cube;
      gboolean is_tp = pe_used && T->c->t > 1 && first_tp_cube
                       && (T->c->place_tp == IV_PLACE_PE ? in_group (pe, T->tp_pe, 1) : pe == 0);
      gboolean is_cp
          = pe_used && T->c->c > 1 && first_cp_cube
            && (T->c->place_cp == IV_PLACE_PE ? in_group (pe, T->cp_pe, T->cp_s) : pe == 0);
      double px, py;
      iv_topology_pe_center (L, cube, pe, &px, &py);
      cairo_new_sub_path (cr);
      cairo_arc (cr, px, py, L->pe_radius, 0, 2 * G_PI);
      if (!pe_used)
        {
          cairo_new_path (cr); /* drawn above, with the other idle PEs */
          continue;
        }
      iv_color_set_source (cr, is_tp ? &T->tp : is_cp ? &T->cp : &T->used);
      cairo_fill (cr);
      if (is_tp && is_cp)
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, px, py, L->pe_radius + 2.5, 0, 2 * G_PI);
          iv_color_set_source (cr, &T->cp);
          cairo_set_line_width (cr, 2);
          cairo_stroke (cr);
        }
    }
}

static void
draw_legend (Topo *T, const IvModelFigure *fig, double width, double height)
{
  cairo_t *cr = T->cr;
  const IvColor *colors[] = { &T->tp, &T->cp, &T->ep, &T->used, &T->idle, &T->link };
  LegendItem items[7];
  double lx[7];
  guint lrow[7];
  guint n = legend_items (fig, T->L.short_names, items);
  guint rows = legend_flow (&T->text, items, n, width, lx, lrow);

  for (guint i = 0; i < n; i++)
    {
      double x = lx[i], y = height - PAD - 8 - (rows - 1 - lrow[i]) * LEGEND_ROW_H;
      iv_color_set_source (cr, colors[items[i].color]);
      switch (items[i].shape)
        {
        case 3:
          {
            double dash[] = { 4, 3 };
            cairo_set_line_width (cr, 3);
            cairo_set_dash (cr, dash, 2, 0);
            cairo_move_to (cr, x - 2, y);
            cairo_line_to (cr, x + 14, y);
            cairo_stroke (cr);
            cairo_set_dash (cr, NULL, 0, 0);
            break;
          }
        case 2:
          cairo_set_line_width (cr, 3);
          cairo_move_to (cr, x - 2, y);
          cairo_line_to (cr, x + 14, y);
          cairo_stroke (cr);
          break;
        case 4:
          /* the stubs' key: an arrow leaving the grid */
          cairo_set_line_width (cr, 3);
          cairo_move_to (cr, x - 2, y), cairo_line_to (cr, x + 14, y);
          cairo_move_to (cr, x + 9, y - 5), cairo_line_to (cr, x + 14, y),
              cairo_line_to (cr, x + 9, y + 5);
          cairo_stroke (cr);
          break;
        default:
          cairo_new_sub_path (cr);
          cairo_arc (cr, x + 6, y, 6, 0, 2 * G_PI);
          if (items[i].shape == 1)
            {
              cairo_set_line_width (cr, 1.2);
              cairo_stroke (cr);
            }
          else
            cairo_fill (cr);
        }
      iv_text_legend_label (&T->text, cr, items[i].name, x, y, &T->colors->foreground);
    }
}

gboolean
iv_render_topology (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvHardware *hw;
  const IvConfig *c;
  Topo T;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  hw = fig->result->hw, c = &fig->result->config;
  if (hw->X * hw->Y > 256 || hw->n_pe > 1024)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "a SIP of %" G_GINT64_FORMAT " cubes of %" G_GINT64_FORMAT
                   " PEs is too large to draw",
                   hw->X * hw->Y, hw->n_pe);
      return FALSE;
    }
  T = (Topo){ cr, fig->result, c, iv_theme_get_colors (options->theme) };
  T.tp = iv_theme_mark_color (options->theme, IV_TP_GROUP_RGB, 1);
  T.cp = iv_theme_mark_color (options->theme, IV_CP_GROUP_RGB, 1);
  T.ep = iv_theme_mark_color (options->theme, IV_EP_GROUP_RGB, 1);
  T.gpu = iv_hardware_is_gpu_server (hw);
  /* EP nests outside TP and CP (§2.2): across cubes its stride is their sizes there */
  T.ep_cube = c->e > 1 && c->place_ep == IV_PLACE_CUBE ? c->e : 1;
  T.ep_s = (c->place_tp == IV_PLACE_CUBE ? c->t : 1) * (c->place_cp == IV_PLACE_CUBE ? c->c : 1);
  /* Links a little stronger than grid lines; idle PEs fainter than used ones. */
  T.link = T.colors->grid, T.link.a = MIN (1, T.link.a * 3);
  T.idle = T.colors->foreground_dim, T.idle.a *= 0.6;
  T.used = T.colors->foreground_dim;
  T.cp_s = cp_stride (c);
  T.tp_pe = c->place_tp == IV_PLACE_PE ? c->t : 1;
  T.cp_pe = c->place_cp == IV_PLACE_PE ? c->c : 1;
  T.tp_cube = c->place_tp == IV_PLACE_CUBE ? c->t : 1;
  T.cp_cube = c->place_cp == IV_PLACE_CUBE ? c->c : 1;
  iv_topology_layout (fig, width, height, &T.L);
  iv_text_init (&T.text, cr, 13 * (options->font_scale > 0 ? options->font_scale : 1));

  cairo_save (cr);
  iv_color_set_source (cr, &T.colors->background);
  cairo_paint (cr);
  draw_titles (&T, width);
  if (hw->topology == IV_TOPOLOGY_SWITCH)
    {
      IvRect sw = switch_rect (&T.L);
      iv_rounded_rect (cr, sw, sw.h / 3);
      iv_color_set_source (cr, &T.colors->foreground_dim);
      cairo_fill (cr);
      const char *what = hw->switch_reduce
                             ? "NVSwitch — all-reduce one-shot, two-shot or in the switch, by size"
                             : "switch — all-reduce as a ring, one-shot or two-shot, by size";
      double w, h;
      /* a narrow page: the switch's name alone rather than a sentence cut short */
      iv_text_measure (&T.text, what, 0.85, TRUE, 0, &w, &h);
      if (w > sw.w - 8)
        what = hw->switch_reduce ? "NVSwitch (reduces in the switch)" : "switch";
      iv_text_measure (&T.text, what, 0.85, TRUE, 0, &w, &h);
      if (w > sw.w - 8)
        what = hw->switch_reduce ? "NVSwitch" : "switch";
      iv_text_show (&T.text, cr, what, sw.x + sw.w / 2, sw.y + sw.h / 2, 0.5, 0.5, 0.85, TRUE,
                    sw.w - 8, &T.colors->background);
    }
  draw_links (&T);
  for (gint64 cube = 0; cube < T.L.X * T.L.Y; cube++)
    {
      draw_cube (&T, cube);
      draw_pe_ring (&T, cube);
    }
  draw_legend (&T, fig, width, height);
  cairo_restore (cr);
  iv_text_clear (&T.text);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
