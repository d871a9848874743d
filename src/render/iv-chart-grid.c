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
  double left, top, cell_w, cell_h; /* where the last drawing put the panels */
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
  gboolean ok = TRUE;
  guint n = grid->rows * grid->columns;
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
  grid->left = left;
  grid->top = top, grid->cell_w = cell_w, grid->cell_h = cell_h;
  grid->drawn = TRUE;
  for (guint r = 0; r < grid->rows && ok; r++)
    for (guint col = 0; col < grid->columns && ok; col++)
      {
        guint i = r * grid->columns + col;
        IvChart *c = grid->charts[i];
        if (!c)
          continue;
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
        cairo_save (cr);
        cairo_translate (cr, left + col * cell_w, top + r * cell_h);
        cairo_rectangle (cr, 0, 0, cell_w, cell_h);
        cairo_clip (cr);
        /* a panel's title under the grid's, smaller: at the figure's size two lines of
         * "ISL 128 · OSL 2048" took a paper column's panel */
        c->title_scale = 0.75;
        c->colorbar_off = strip_chart != NULL;
        ok = iv_chart_render (cr, c, options, cell_w, cell_h, error);
        c->title_scale = 0;
        c->colorbar_off = FALSE;
        cairo_restore (cr);
        bar_top = MIN (bar_top, top + r * cell_h + c->layout.plot_y);
        bar_bottom = MAX (bar_bottom, top + r * cell_h + c->layout.plot_y + c->layout.plot_h);
        for (int a = 0; a < 2; a++)
          {
            IvAxis *ax = &c->axis[a == 0 ? IV_AXIS_X : IV_AXIS_Y];
            SavedAxis *sv = &saved[i * 2 + a];
            ax->fixed = sv->fixed, ax->lo = sv->lo, ax->hi = sv->hi, ax->hide_labels = sv->hide;
            ax->title = sv->title;
          }
      }
  /* the panels share one colour scale: its bar once, as tall as the panels' plots */
  if (ok && strip_chart && bar_bottom > bar_top)
    _iv_chart_colorbar_strip (cr, strip_chart, options, width - strip, bar_top,
                              bar_bottom - bar_top, TRUE);
  cairo_restore (cr);
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
  *x = grid->left + column * grid->cell_w;
  *y = grid->top + row * grid->cell_h;
  return TRUE;
}

IvChart *
iv_chart_grid_panel_at (IvChartGrid *grid, double px, double py, double *lx, double *ly)
{
  guint r, c;

  if (!grid->drawn || px < grid->left || py < grid->top || grid->cell_w <= 0 || grid->cell_h <= 0)
    return NULL;
  c = (guint) ((px - grid->left) / grid->cell_w);
  r = (guint) ((py - grid->top) / grid->cell_h);
  if (r >= grid->rows || c >= grid->columns)
    return NULL;
  *lx = px - grid->left - c * grid->cell_w;
  *ly = py - grid->top - r * grid->cell_h;
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
