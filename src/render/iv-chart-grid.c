/* iv-chart-grid.c: panels share an axis by drawing with the union of their data ranges;
 * a shared x axis is labelled on the bottom row only and a shared y axis in the first
 * column only, as small multiples are read. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-grid.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "iv-chart-private.h"
#include "iv-text.h"

struct _IvChartGrid
{
  guint rows, columns;
  IvChart **charts;
  char *title;
  gboolean share_x, share_y;
  gboolean share_colorbar; /* one colour bar right of all panels, theirs hidden */
  int legend_panel;        /* whose legend is drawn once below all panels; -1: each its own */
  double reflow;           /* > 0: the panels' shape sought (iv_chart_grid_set_reflow) */
  double left, top, cell_w, cell_h; /* where the last drawing put the panels */
  /* … the first column wider and the bottom row taller by their axis labels, so every
   * panel's plot has the same size (the inner ones' labels are hidden) */
  double extra_left, extra_bottom;
  double title_scale; /* the panels' titles' (PANEL_TITLE_SCALE, less where they would wrap) */
  gboolean drawn;
};

IvChartGrid *
iv_chart_grid_new (guint rows, guint columns)
{
  IvChartGrid *g = g_new0 (IvChartGrid, 1);

  g_return_val_if_fail (rows > 0 && columns > 0, NULL);
  g->rows = rows;
  g->columns = columns;
  g->legend_panel = -1;
  g->charts = g_new0 (IvChart *, rows * columns);
  return g;
}

void
iv_chart_grid_free (IvChartGrid *grid)
{
  if (!grid)
    return;
  for (guint i = 0; i < grid->rows * grid->columns; i++)
    iv_chart_free (grid->charts[i]);
  g_free (grid->charts);
  g_free (grid->title);
  g_free (grid);
}

void
iv_chart_grid_set (IvChartGrid *grid, guint row, guint column, IvChart *chart)
{
  g_return_if_fail (row < grid->rows && column < grid->columns);
  iv_chart_free (grid->charts[row * grid->columns + column]);
  grid->charts[row * grid->columns + column] = chart;
}

IvChart *
iv_chart_grid_get (IvChartGrid *grid, guint row, guint column)
{
  g_return_val_if_fail (row < grid->rows && column < grid->columns, NULL);
  return grid->charts[row * grid->columns + column];
}

void
iv_chart_grid_set_title (IvChartGrid *grid, const char *title)
{
  g_free (grid->title);
  grid->title = g_strdup (title);
}

const char *
iv_chart_grid_get_title (const IvChartGrid *grid)
{
  return grid->title;
}

void
iv_chart_grid_set_legend (IvChartGrid *grid, int row, int column)
{
  grid->legend_panel
      = row >= 0 && column >= 0 && (guint) row < grid->rows && (guint) column < grid->columns
            ? row * (int) grid->columns + column
            : -1;
}

void
iv_chart_grid_share_axes (IvChartGrid *grid, gboolean share_x, gboolean share_y)
{
  grid->share_x = share_x;
  grid->share_y = share_y;
}

void
iv_chart_grid_share_colorbar (IvChartGrid *grid, gboolean share)
{
  grid->share_colorbar = share;
}

void
iv_chart_grid_set_reflow (IvChartGrid *grid, double aspect)
{
  grid->reflow = aspect;
}

/* The panels in order into the columns whose cells' shape is nearest grid->reflow at
 * @width × @height (the grid's own title and labels aside: a first guess is enough);
 * the cells there are now. */
static guint
reflow (IvChartGrid *grid, double width, double height)
{
  guint n = 0, best = grid->columns, rows;
  double best_cost = INFINITY;
  IvChart **charts;

  if (grid->reflow <= 0 || grid->legend_panel >= 0 || width <= 0 || height <= 0)
    return grid->rows * grid->columns;
  for (guint i = 0; i < grid->rows * grid->columns; i++)
    n += grid->charts[i] != NULL;
  for (guint cols = 1; cols <= n; cols++)
    {
      double cost;
      rows = (n + cols - 1) / cols;
      /* full rows only (or the grid as set): under a gap in the last row a column's
       * panels would have no x labels, the inner ones hiding theirs */
      if (n % cols != 0 && cols != grid->columns)
        continue;
      /* each row loses its panels' title line (~18 px), the grid its shared x labels and
       * title (~40 px): at 740 × 220 three rows of paretos had plots 20 px tall for
       * cells that looked 3.4 : 1 without them (issue 31) */
      cost = fabs (log ((width / cols) / MAX (1, (height - 40) / rows - 18) / grid->reflow));
      if (cost < best_cost - 1e-9)
        best_cost = cost, best = cols;
    }
  rows = (n + best - 1) / best;
  if (best == grid->columns && rows == grid->rows)
    return rows * best;
  charts = g_new0 (IvChart *, rows * best);
  for (guint i = 0, k = 0; i < grid->rows * grid->columns; i++)
    if (grid->charts[i])
      charts[k++] = grid->charts[i];
  g_free (grid->charts);
  grid->charts = charts;
  grid->rows = rows, grid->columns = best;
  return rows * best;
}

/* The range a chart would pick for an axis, from a throw-away drawing. */
static void
natural_range (IvChart *chart, IvAxisId axis, double *lo, double *hi)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };

  iv_chart_render (cr, chart, &opt, 400, 300, NULL);
  *lo = chart->layout.lo[axis];
  *hi = chart->layout.hi[axis];
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

typedef struct
{
  gboolean fixed;
  double lo, hi;
  gboolean hide;
  char *title;
} SavedAxis;

/* A panel's title under the grid's, smaller, but never under 6.5 pt on a paper page: an
 * export scales the whole drawing to its body size (iv_export_zoom), and at a column's
 * 8.5 pt body three quarters of it were 6.4 pt (issue 31); 0.78 is 6.6 pt there. */
#define PANEL_TITLE_SCALE 0.78
/* … and where even the panels' short titles would wrap, the least they are made (0.62 of
 * the body: 8 px in a window) before they wrap after all */
#define PANEL_TITLE_MIN 0.62

/* Where column @col and row @r of the last layout start, and their sizes. */
static double
col_x (const IvChartGrid *g, guint col)
{
  return g->left + (col > 0 ? g->extra_left + col * g->cell_w : 0);
}

static double
col_w (const IvChartGrid *g, guint col)
{
  return g->cell_w + (col == 0 ? g->extra_left : 0);
}

static double
row_y (const IvChartGrid *g, guint r)
{
  return g->top + r * g->cell_h;
}

static double
row_h (const IvChartGrid *g, guint r)
{
  return g->cell_h + (r + 1 == g->rows ? g->extra_bottom : 0);
}

/* Panel @i's axes as the grid draws them: the shared ranges, an inner panel's labels and
 * a shared axis's title left out; what they were saved in @saved[i * 2 …]. */
static void
panel_axes_set (IvChartGrid *grid, guint i, SavedAxis *saved, const double *union_lo,
                const double *union_hi, char *const *shared_title)
{
  IvChart *c = grid->charts[i];
  guint r = i / grid->columns, col = i % grid->columns;

  for (int a = 0; a < 2; a++)
    {
      IvAxis *ax = &c->axis[a == 0 ? IV_AXIS_X : IV_AXIS_Y];
      gboolean shared = a == 0 ? grid->share_x : grid->share_y;
      gboolean inner = a == 0 ? r + 1 < grid->rows : col > 0;
      SavedAxis *sv = &saved[i * 2 + a];
      sv->fixed = ax->fixed, sv->lo = ax->lo, sv->hi = ax->hi, sv->hide = ax->hide_labels;
      sv->title = ax->title;
      if (!shared)
        continue;
      ax->fixed = TRUE;
      ax->lo = union_lo[a];
      ax->hi = union_hi[a];
      if (inner)
        ax->hide_labels = TRUE;
      if (inner || shared_title[a])
        ax->title = NULL;
    }
}

static void
panel_axes_restore (IvChartGrid *grid, guint i, const SavedAxis *saved)
{
  IvChart *c = grid->charts[i];

  for (int a = 0; a < 2; a++)
    {
      IvAxis *ax = &c->axis[a == 0 ? IV_AXIS_X : IV_AXIS_Y];
      const SavedAxis *sv = &saved[i * 2 + a];
      ax->fixed = sv->fixed, ax->lo = sv->lo, ax->hi = sv->hi, ax->hide_labels = sv->hide;
      ax->title = sv->title;
    }
}

/* What the first column's and the bottom row's labels take beyond an inner panel's, from
 * a throw-away drawing of every panel at @cell_w × @cell_h: equal cells gave the bottom
 * row of a paper column's heat maps plots half as tall as the row above (issue 31). */
static void
label_margins (IvChartGrid *grid, const IvRenderOptions *options, double cell_w, double cell_h,
               SavedAxis *saved, const double *union_lo, const double *union_hi,
               char *const *shared_title, gboolean has_strip, double *extra_left,
               double *extra_bottom)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  double left0 = 0, left_inner = 0, below_last = 0, below_inner = 0;

  for (guint i = 0; i < grid->rows * grid->columns; i++)
    {
      IvChart *c = grid->charts[i];
      guint r = i / grid->columns, col = i % grid->columns;
      double below;
      if (!c)
        continue;
      panel_axes_set (grid, i, saved, union_lo, union_hi, shared_title);
      c->title_scale = PANEL_TITLE_SCALE;
      c->colorbar_off = has_strip;
      iv_chart_render (cr, c, options, cell_w, cell_h, NULL);
      c->title_scale = 0;
      c->colorbar_off = FALSE;
      panel_axes_restore (grid, i, saved);
      below = cell_h - c->layout.plot_y - c->layout.plot_h;
      if (col == 0)
        left0 = MAX (left0, c->layout.plot_x);
      else
        left_inner = MAX (left_inner, c->layout.plot_x);
      if (r + 1 == grid->rows)
        below_last = MAX (below_last, below);
      else
        below_inner = MAX (below_inner, below);
    }
  *extra_left = grid->columns > 1 ? MAX (0, left0 - left_inner) : 0;
  *extra_bottom = grid->rows > 1 ? MAX (0, below_last - below_inner) : 0;
  /* never more than a cell: a panel's own plot keeps most of its share */
  *extra_left = MIN (*extra_left, cell_w / 2);
  *extra_bottom = MIN (*extra_bottom, cell_h / 2);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* A layout for the grid's own text in @font at @size px, scaled as @options ask. */
static PangoLayout *
grid_layout (cairo_t *cr, const IvRenderOptions *options, const char *font, double size)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *fd = pango_font_description_from_string (font);

  pango_font_description_set_absolute_size (
      fd, size * (options->font_scale > 0 ? options->font_scale : 1) * PANGO_SCALE);
  pango_layout_set_font_description (layout, fd);
  pango_font_description_free (fd);
  return layout;
}

gboolean
iv_chart_grid_render (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                      double height, GError **error)
{
  IvChartGrid *grid = (IvChartGrid *) data;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  double top = 0, left = 0, bottom = 0, band = 0, cell_w, cell_h, strip = 0;
  double bar_top = INFINITY, bar_bottom = -INFINITY;
  IvChart *strip_chart = NULL;
  IvChart *legend_chart = grid->legend_panel >= 0 ? grid->charts[grid->legend_panel] : NULL;
  IvLegendPlacement legend_saved = IV_LEGEND_HIDDEN;
  char *shared_title[2] = { NULL, NULL };
  double union_lo[2] = { INFINITY, INFINITY }, union_hi[2] = { -INFINITY, -INFINITY };
  gboolean ok = TRUE, swapped = FALSE;
  guint n = reflow (grid, width, height);
  g_autofree SavedAxis *saved = g_new0 (SavedAxis, n * 2);

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  if (grid->title)
    {
      PangoLayout *layout = grid_layout (cr, options, "Cantarell, Sans Bold", 16.5);
      int tw, th;
      pango_layout_set_width (layout, (int) ((width - 20) * PANGO_SCALE));
      /* a figure's title names its configuration: on a paper column it wraps to a second
       * line rather than losing the end */
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_height (layout, -2);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      iv_text_layout_set_text (layout, grid->title);
      pango_layout_get_pixel_size (layout, &tw, &th);
      iv_color_set_source (cr, &colors->foreground);
      cairo_move_to (cr, 10, 10);
      iv_text_show_layout (cr, layout, 0);
      top = 10 + th + 4;
      g_object_unref (layout);
    }

  /* One legend for all panels, across the page's width below them: under one panel it
   * would squeeze that panel and leave its neighbour's plot a different height. */
  if (legend_chart)
    {
      band = iv_chart_render_legend (cr, legend_chart, options, width, FALSE);
      if (band > 0)
        {
          cairo_save (cr);
          cairo_translate (cr, 0, height - band);
          iv_chart_render_legend (cr, legend_chart, options, width, TRUE);
          cairo_restore (cr);
        }
      legend_saved = legend_chart->legend;
      legend_chart->legend = IV_LEGEND_HIDDEN;
    }
  bottom = band;

  /* Shared ranges: the union of what each panel would show alone. */
  for (guint i = 0; i < n; i++)
    for (int a = 0; a < 2; a++)
      {
        IvChart *c = grid->charts[i];
        double lo, hi;
        if (!c || !(a == 0 ? grid->share_x : grid->share_y))
          continue;
        natural_range (c, a == 0 ? IV_AXIS_X : IV_AXIS_Y, &lo, &hi);
        union_lo[a] = MIN (union_lo[a], lo);
        union_hi[a] = MAX (union_hi[a], hi);
      }

  /* Shared axes: one title each, for the whole grid (a panel's would not fit its side) */
  {
    IvChart *first = NULL;
    for (guint i = 0; i < n && !first; i++)
      first = grid->charts[i];
    for (int a = 0; first && a < 2; a++)
      {
        IvAxis *ax = &first->axis[a == 0 ? IV_AXIS_X : IV_AXIS_Y];
        if ((a == 0 ? grid->share_x : grid->share_y) && ax->title && isfinite (union_lo[a])
            && union_hi[a] > union_lo[a])
          {
            g_autoptr (IvTicks) t = iv_ticks_compute (&ax->spec, union_lo[a], union_hi[a], 5);
            shared_title[a] = t->unit_label ? g_strdup_printf ("%s (%s)", ax->title, t->unit_label)
                                            : g_strdup (ax->title);
            /* the axis's short title where the whole one would take two lines: on a paper
             * column the pareto grid's y title wrapped into the grid's title (issue 31) */
            if (ax->short_title)
              {
                PangoLayout *m = grid_layout (cr, options, "Cantarell, Sans", 13.0);
                double room = a == 0 ? width - 20 : height - top - band - 34;
                int tw, th;
                iv_text_layout_set_text (m, shared_title[a]);
                pango_layout_get_pixel_size (m, &tw, &th);
                if (tw > room)
                  {
                    g_free (shared_title[a]);
                    shared_title[a] = t->unit_label ? g_strdup_printf ("%s (%s)", ax->short_title,
                                                                       t->unit_label)
                                                    : g_strdup (ax->short_title);
                  }
                g_object_unref (m);
              }
          }
      }
  }
  if (shared_title[0] || shared_title[1])
    {
      PangoLayout *layout = grid_layout (cr, options, "Cantarell, Sans", 13.0);
      int tw, th;
      iv_color_set_source (cr, &colors->foreground);
      if (shared_title[0])
        {
          iv_text_layout_set_text (layout, shared_title[0]);
          pango_layout_get_pixel_size (layout, &tw, &th);
          bottom = band + th + 8;
          cairo_move_to (cr, left + (width - left - tw) / 2, height - band - th - 4);
          iv_text_show_layout (cr, layout, 0);
        }
      if (shared_title[1])
        {
          /* never longer than the panels' height (it would run into the title): wrapped
           * to a second line, centred, before it is cut */
          pango_layout_set_width (layout, (int) (MAX (40, height - top - bottom) * PANGO_SCALE));
          pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
          pango_layout_set_height (layout, -2);
          pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
          iv_text_layout_set_text (layout, shared_title[1]);
          pango_layout_get_pixel_size (layout, &tw, &th);
          left = th + 8;
          cairo_save (cr);
          cairo_translate (cr, 4, top + (height - top - bottom + tw) / 2);
          cairo_rotate (cr, -G_PI / 2);
          cairo_move_to (cr, 0, 0);
          iv_text_show_layout (cr, layout, 0);
          cairo_restore (cr);
        }
      g_object_unref (layout);
    }

  {
    IvChart *first = NULL;
    for (guint i = 0; i < n && !first; i++)
      first = grid->charts[i];
    strip = grid->share_colorbar && first
                ? _iv_chart_colorbar_strip (cr, first, options, 0, 0, 0, FALSE)
                : 0;
    strip_chart = strip > 0 ? first : NULL;
  }
  cell_w = (width - left - strip) / grid->columns;
  cell_h = (height - top - bottom) / grid->rows;
  label_margins (grid, options, cell_w, cell_h, saved, union_lo, union_hi, shared_title,
                 strip_chart != NULL, &grid->extra_left, &grid->extra_bottom);
  grid->left = left;
  grid->top = top;
  grid->cell_w = cell_w - grid->extra_left / grid->columns;
  grid->cell_h = cell_h - grid->extra_bottom / grid->rows;
  grid->drawn = TRUE;
  /* every panel its short title where one title would wrap in its cell ("ISL 1024 · OSL
   * 2048" took two lines of a column's panel, its plot shorter than its neighbours'); and
   * where a short one still would ("1024 ×" over "2048" in nine panels across a 740 px
   * pane, issue 31), every title smaller alike, down to PANEL_TITLE_MIN. Measured in the
   * cells as drawn: an inner column is narrower by its share of the first's labels. A
   * title may start at the panel's pad (iv_chart_render), and a pixel is kept for
   * rounding. */
  {
    PangoLayout *m = grid_layout (cr, options, "Cantarell, Sans Bold", 13.0 * PANEL_TITLE_SCALE);
    double room = (grid->columns > 1 ? grid->cell_w : col_w (grid, 0)) - 2 * IV_CHART_PAD - 2;
    double widest = 0;
    gboolean all_short = TRUE;
    for (guint i = 0; i < n; i++)
      {
        IvChart *c = grid->charts[i];
        int tw, th;
        if (!c || !c->title)
          continue;
        all_short &= c->short_title != NULL;
        iv_text_layout_set_text (m, c->title);
        pango_layout_get_pixel_size (m, &tw, &th);
        widest = MAX (widest, tw);
      }
    if (widest > room && all_short)
      {
        widest = 0;
        for (guint i = 0; i < n; i++)
          if (grid->charts[i] && grid->charts[i]->title)
            {
              IvChart *c = grid->charts[i];
              char *t = c->title;
              int tw, th;
              c->title = c->short_title, c->short_title = t;
              swapped = TRUE;
              iv_text_layout_set_text (m, c->title);
              pango_layout_get_pixel_size (m, &tw, &th);
              widest = MAX (widest, tw);
            }
      }
    g_object_unref (m);
    grid->title_scale = PANEL_TITLE_SCALE;
    if (widest > room && room > 0)
      grid->title_scale = MAX (PANEL_TITLE_MIN, PANEL_TITLE_SCALE * room / widest);
  }
  for (guint r = 0; r < grid->rows && ok; r++)
    for (guint col = 0; col < grid->columns && ok; col++)
      {
        guint i = r * grid->columns + col;
        IvChart *c = grid->charts[i];
        double x = col_x (grid, col), y = row_y (grid, r), w = col_w (grid, col),
               h = row_h (grid, r);
        if (!c)
          continue;
        panel_axes_set (grid, i, saved, union_lo, union_hi, shared_title);
        cairo_save (cr);
        cairo_translate (cr, x, y);
        cairo_rectangle (cr, 0, 0, w, h);
        cairo_clip (cr);
        /* a panel's title under the grid's, smaller (PANEL_TITLE_SCALE): at the
         * figure's size two lines of "ISL 128 · OSL 2048" took a paper column's panel */
        c->title_scale = grid->title_scale;
        c->colorbar_off = strip_chart != NULL;
        ok = iv_chart_render (cr, c, options, w, h, error);
        c->title_scale = 0;
        c->colorbar_off = FALSE;
        cairo_restore (cr);
        bar_top = MIN (bar_top, y + c->layout.plot_y);
        bar_bottom = MAX (bar_bottom, y + c->layout.plot_y + c->layout.plot_h);
        panel_axes_restore (grid, i, saved);
      }
  /* the panels share one colour scale: its bar once, as tall as the panels' plots */
  if (ok && strip_chart && bar_bottom > bar_top)
    _iv_chart_colorbar_strip (cr, strip_chart, options, width - strip, bar_top,
                              bar_bottom - bar_top, TRUE);
  cairo_restore (cr);
  if (swapped)
    for (guint i = 0; i < n; i++)
      if (grid->charts[i] && grid->charts[i]->short_title)
        {
          IvChart *c = grid->charts[i];
          char *t = c->title;
          c->title = c->short_title, c->short_title = t;
        }
  if (legend_chart)
    legend_chart->legend = legend_saved;
  g_free (shared_title[0]);
  g_free (shared_title[1]);
  return ok;
}

guint
iv_chart_grid_get_rows (const IvChartGrid *grid)
{
  return grid->rows;
}

guint
iv_chart_grid_get_columns (const IvChartGrid *grid)
{
  return grid->columns;
}

gboolean
iv_chart_grid_panel_origin (const IvChartGrid *grid, guint row, guint column, double *x, double *y)
{
  if (!grid->drawn || row >= grid->rows || column >= grid->columns)
    return FALSE;
  *x = col_x (grid, column);
  *y = row_y (grid, row);
  return TRUE;
}

IvChart *
iv_chart_grid_panel_at (IvChartGrid *grid, double px, double py, double *lx, double *ly)
{
  guint r, c;

  if (!grid->drawn || px < grid->left || py < grid->top || grid->cell_w <= 0 || grid->cell_h <= 0)
    return NULL;
  for (c = 0; c < grid->columns && px >= col_x (grid, c) + col_w (grid, c); c++)
    ;
  for (r = 0; r < grid->rows && py >= row_y (grid, r) + row_h (grid, r); r++)
    ;
  if (r >= grid->rows || c >= grid->columns)
    return NULL;
  *lx = px - col_x (grid, c);
  *ly = py - row_y (grid, r);
  return grid->charts[r * grid->columns + c];
}

char *
iv_chart_grid_describe_at (IvChartGrid *grid, double px, double py, double radius)
{
  double lx, ly;
  IvChart *c = iv_chart_grid_panel_at (grid, px, py, &lx, &ly);
  IvChartHit hit;
  g_autofree char *text = NULL;

  if (!c || !iv_chart_hit_test (c, lx, ly, radius, &hit))
    return NULL;
  text = iv_chart_describe_hit (c, &hit);
  return c->title ? g_strdup_printf ("%s\n%s", c->title, text) : g_steal_pointer (&text);
}
