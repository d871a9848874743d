/* iv-chart-html.c: a chart as inline SVG for an HTML page, drawn by the same renderer as
 * every export: the frame (titles, grid, axes) and each series as its own layer, so a
 * reader can show and hide series, and for each series the points a pointer can hover
 * (a few thousand at most: one per cell of a few pixels) with their values written out.
 * cairo's SVG names its glyphs and clips "glyph0-1", "clip1" in every document: each
 * layer's names get a prefix of their own so that many figures share one page. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-html.h"

#include <cairo-svg.h>
#include <math.h>
#include <string.h>

#include "iv-chart-private.h"
#include "iv-json-writer.h"

/* Hover targets: one per cell of this many units, at most this many per series. */
#define HOVER_CELL 5.0
#define HOVER_MAX 4000

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* The body of one SVG document of @figure, names prefixed with @prefix. */
static char *
figure_svg (const IvFigure *figure, const IvExportOptions *eo, const char *prefix, GError **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface
      = cairo_svg_surface_create_for_stream (append_bytes, bytes, eo->width, eo->height);
  cairo_t *cr;
  gboolean ok;
  g_autofree char *text = NULL;
  const char *open, *body, *close;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *id = g_strdup_printf ("id=\"%s-", prefix);
  g_autofree char *href = g_strdup_printf ("href=\"#%s-", prefix);
  g_autofree char *url = g_strdup_printf ("url(#%s-", prefix);

  cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_USER);
  cr = cairo_create (surface);
  ok = iv_export_render (cr, figure, eo, error);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (ok && cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "drawing the SVG failed: %s",
                   cairo_status_to_string (cairo_surface_status (surface)));
      ok = FALSE;
    }
  cairo_surface_destroy (surface);
  if (!ok)
    return NULL;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  text = (char *) g_byte_array_free (g_steal_pointer (&bytes), FALSE);
  /* what is inside the root element */
  open = strstr (text, "<svg");
  body = open ? strchr (open, '>') : NULL;
  close = g_strrstr (text, "</svg>");
  if (!body || !close || close < body)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "cairo wrote an SVG without a root element");
      return NULL;
    }
  body++;
  for (const char *p = body; p < close;)
    {
      if (g_str_has_prefix (p, "id=\""))
        g_string_append (out, id), p += 4;
      else if (g_str_has_prefix (p, "href=\"#"))
        g_string_append (out, href), p += 7;
      else if (g_str_has_prefix (p, "url(#"))
        g_string_append (out, url), p += 5;
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The chart drawn at @layer (a series, or its frame). */
static char *
layer_svg (IvChart *chart, gint layer, const IvExportOptions *eo, const char *prefix,
           GError **error)
{
  IvFigure figure = { iv_chart_render, chart, NULL, NULL };
  char *body;

  chart->layer = layer;
  body = figure_svg (&figure, eo, prefix, error);
  chart->layer = IV_CHART_LAYER_ALL;
  return body;
}

void
iv_html_escape (GString *out, const char *s)
{
  for (const char *p = s ? s : ""; *p; p++)
    switch (*p)
      {
      case '<':
        g_string_append (out, "&lt;");
        break;
      case '>':
        g_string_append (out, "&gt;");
        break;
      case '&':
        g_string_append (out, "&amp;");
        break;
      case '"':
        g_string_append (out, "&quot;");
        break;
      default:
        g_string_append_c (out, *p);
      }
}

/* The hover targets of one series: [x, y, "text"] in the figure's units, the first point
 * of each cell kept. Kinds without single points (bars, heat maps, spans) have none. */
static void
hover_target (IvJsonWriter *out, double px, double py, const char *text)
{
  iv_json_writer_begin_array (out);
  iv_json_writer_double (out, round (px * 10) / 10);
  iv_json_writer_double (out, round (py * 10) / 10);
  iv_json_writer_string (out, text);
  iv_json_writer_end_array (out);
}

/* A heat map's cells: each centre, with what the window's hover card says of it. */
static void
heatmap_targets (IvChart *chart, guint index, IvSeries *s, double dx, double dy, IvJsonWriter *out)
{
  const IvChartLayout *L = &chart->layout;
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;

  for (guint j = 0; j < s->ny; j++)
    for (guint i = 0; i < s->nx; i++)
      {
        double cx = s->x0 + (i + 0.5) * (s->x1 - s->x0) / s->nx,
               cy = s->y0 + (j + 0.5) * (s->y1 - s->y0) / s->ny;
        IvChartHit hit = {
          s, index, (gsize) j * s->nx + i, cx, cy, _iv_px_x (L, cx), _iv_px_y (L, ya, cy), 0
        };
        g_autofree char *text = NULL;
        if (!isfinite (s->y[hit.index]))
          continue;
        text = iv_chart_describe_hit (chart, &hit);
        hover_target (out, hit.px + dx, hit.py + dy, text);
      }
}

static void
hover_points (IvChart *chart, guint index, IvSeries *s, double dx, double dy, IvJsonWriter *out)
{
  const IvChartLayout *L = &chart->layout;
  IvAxisId ya = s->y2 ? IV_AXIS_Y2 : IV_AXIS_Y;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  const IvUnit *ux = iv_chart_axis_get_unit (chart, IV_AXIS_X),
               *uy = iv_chart_axis_get_unit (chart, ya);
  guint kept = 0;
  double cell = HOVER_CELL;

  iv_json_writer_begin_array (out);
  if (s->kind == IV_SERIES_HEATMAP)
    heatmap_targets (chart, index, s, dx, dy, out);
  if (s->kind != IV_SERIES_SCATTER && s->kind != IV_SERIES_LINE && s->kind != IV_SERIES_STEP
      && s->kind != IV_SERIES_AREA && s->kind != IV_SERIES_CDF)
    {
      iv_json_writer_end_array (out);
      return;
    }
  /* a coarser grid when the series would have more targets than a page needs */
  while ((L->plot_w / cell) * (L->plot_h / cell) > HOVER_MAX * 8.0)
    cell *= 1.5;
  for (gsize i = 0; i < s->n && kept < HOVER_MAX; i++)
    {
      double px = _iv_px_x (L, s->x[i]), py = _iv_px_y (L, ya, s->y[i]);
      guint key;
      g_autofree char *tx = NULL, *ty = NULL;
      if (!isfinite (px) || !isfinite (py) || px < L->plot_x - 0.5
          || px > L->plot_x + L->plot_w + 0.5 || py < L->plot_y - 0.5
          || py > L->plot_y + L->plot_h + 0.5)
        continue;
      key = 1 + (guint) ((px - L->plot_x) / cell) * 65536u + (guint) ((py - L->plot_y) / cell);
      if (g_hash_table_contains (seen, GUINT_TO_POINTER (key)))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (key));
      tx = iv_unit_format_value (ux, s->x[i]);
      ty = iv_unit_format_value (uy, s->y[i]);
      kept++;
      {
        g_autofree char *label = s->labels && s->labels[i]
                                     ? g_strdup_printf ("%s: %s, %s", s->labels[i], tx, ty)
                                     : g_strdup_printf ("%s, %s", tx, ty);
        hover_target (out, px + dx, py + dy, label);
      }
    }
  iv_json_writer_end_array (out);
}

/* The hover targets as JSON in a script element that ends the figure. */
static void
append_points (GString *out, const char *points_text)
{
  g_string_append (out, "<script type=\"application/json\" class=\"iv-points\">");
  /* "</" would end the script element: "<\/" is the same JSON */
  for (const char *p = points_text; *p; p++)
    {
      if (p[0] == '<' && p[1] == '/')
        g_string_append (out, "<\\");
      else
        g_string_append_c (out, *p);
    }
  g_string_append (out, "</script>\n</figure>\n");
}

char *
iv_chart_to_html (IvChart *chart, const IvExportOptions *eo, const char *id, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  IvJsonWriter *points = iv_json_writer_new (FALSE);
  g_autofree char *points_text = NULL;
  IvLegendPlacement legend = chart->legend;
  g_autofree char *frame = NULL;
  char prefix[64];

  /* the page's buttons are the legend: the figure keeps the room for its data */
  chart->legend = IV_LEGEND_HIDDEN;
  iv_json_writer_begin_array (points);
  g_snprintf (prefix, sizeof prefix, "%s-f", id);
  frame = layer_svg (chart, IV_CHART_LAYER_FRAME, eo, prefix, error);
  if (!frame)
    {
      chart->legend = legend;
      g_free (iv_json_writer_finish (points));
      return NULL;
    }
  g_string_append_printf (
      out,
      "<figure class=\"iv-figure\" id=\"%s\">\n<svg class=\"iv-svg\" viewBox=\"0 0 %.0f %.0f\" "
      "role=\"img\" aria-label=\"",
      id, eo->width, eo->height);
  iv_html_escape (out, chart->title);
  g_string_append (
      out,
      "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n");
  g_string_append_printf (out, "<g class=\"iv-frame\">%s</g>\n", frame);
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      g_autofree char *body = NULL;
      g_snprintf (prefix, sizeof prefix, "%s-s%u", id, i);
      if (!s->visible)
        continue;
      body = layer_svg (chart, (gint) i, eo, prefix, error);
      if (!body)
        {
          chart->legend = legend;
          g_free (iv_json_writer_finish (points));
          return NULL;
        }
      g_string_append_printf (out, "<g class=\"iv-layer\" data-series=\"%u\">%s</g>\n", i, body);
      iv_json_writer_begin_object (points);
      iv_json_writer_key (points, "series");
      iv_json_writer_int (points, i);
      iv_json_writer_key (points, "name");
      iv_json_writer_string (points, s->name ? s->name : "");
      iv_json_writer_key (points, "points");
      hover_points (chart, i, s, 0, 0, points);
      iv_json_writer_end_object (points);
    }
  iv_json_writer_end_array (points);
  points_text = iv_json_writer_finish (points);
  g_string_append (out, "</svg>\n<div class=\"iv-legend\">");
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (!s->visible || !s->in_legend || !s->name || !*s->name)
        continue;
      g_string_append_printf (
          out,
          "<button type=\"button\" class=\"iv-toggle\" aria-pressed=\"true\" data-series=\"%u\">"
          "<span class=\"iv-swatch\" aria-hidden=\"true\" "
          "style=\"color:#%02x%02x%02x\">&#9679;</span>",
          i, (guint) lround (s->color.r * 255), (guint) lround (s->color.g * 255),
          (guint) lround (s->color.b * 255));
      iv_html_escape (out, s->name);
      g_string_append (out, "</button>");
    }
  g_string_append (out, "</div>\n");
  append_points (out, points_text);
  chart->legend = legend;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A panel grid's hover targets: each panel's series where the grid put the panel. */
static void
grid_targets (IvChartGrid *grid, IvJsonWriter *out)
{
  for (guint r = 0; r < iv_chart_grid_get_rows (grid); r++)
    for (guint c = 0; c < iv_chart_grid_get_columns (grid); c++)
      {
        IvChart *chart = iv_chart_grid_get (grid, r, c);
        double x, y;
        if (!chart || !iv_chart_grid_panel_origin (grid, r, c, &x, &y))
          continue;
        for (guint i = 0; i < chart->series->len; i++)
          {
            IvSeries *s = chart->series->pdata[i];
            if (!s->visible)
              continue;
            iv_json_writer_begin_object (out);
            iv_json_writer_key (out, "series");
            iv_json_writer_int (out, i);
            iv_json_writer_key (out, "name");
            iv_json_writer_string (out, chart->title ? chart->title : "");
            iv_json_writer_key (out, "points");
            hover_points (chart, i, s, x, y, out);
            iv_json_writer_end_object (out);
          }
      }
}

static void
surface_targets (IvSurface *surface, IvJsonWriter *out)
{
  iv_json_writer_begin_object (out);
  iv_json_writer_key (out, "series");
  iv_json_writer_int (out, 0);
  iv_json_writer_key (out, "name");
  iv_json_writer_string (out, iv_surface_get_title (surface) ? iv_surface_get_title (surface) : "");
  iv_json_writer_key (out, "points");
  iv_json_writer_begin_array (out);
  for (guint i = 0; i < iv_surface_get_n_points (surface); i++)
    {
      double px, py;
      g_autofree char *text = NULL;
      if (iv_surface_get_point (surface, i, &px, &py, &text))
        hover_target (out, px, py, text);
    }
  iv_json_writer_end_array (out);
  iv_json_writer_end_object (out);
}

static char *
whole_figure_html (const IvFigure *figure, IvChartGrid *grid, IvSurface *surface, const char *title,
                   const IvExportOptions *eo, const char *id, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  IvJsonWriter *points = iv_json_writer_new (FALSE);
  g_autofree char *points_text = NULL, *body = NULL;
  char prefix[64];

  g_snprintf (prefix, sizeof prefix, "%s-f", id);
  /* drawn once to the page's size: the hover targets are where this drawing put things */
  if (!(body = figure_svg (figure, eo, prefix, error)))
    {
      g_free (iv_json_writer_finish (points));
      return NULL;
    }
  g_string_append_printf (
      out,
      "<figure class=\"iv-figure\" id=\"%s\">\n<svg class=\"iv-svg\" viewBox=\"0 0 %.0f %.0f\" "
      "role=\"img\" aria-label=\"",
      id, eo->width, eo->height);
  iv_html_escape (out, title);
  g_string_append (
      out,
      "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n");
  g_string_append_printf (out, "<g class=\"iv-frame\">%s</g>\n</svg>\n", body);
  iv_json_writer_begin_array (points);
  if (grid)
    grid_targets (grid, points);
  else
    surface_targets (surface, points);
  iv_json_writer_end_array (points);
  points_text = iv_json_writer_finish (points);
  append_points (out, points_text);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
iv_chart_grid_to_html (IvChartGrid *grid, const IvExportOptions *eo, const char *id, GError **error)
{
  IvFigure figure = { iv_chart_grid_render, grid, NULL, NULL };
  return whole_figure_html (&figure, grid, NULL, iv_chart_grid_get_title (grid), eo, id, error);
}

char *
iv_surface_to_html (IvSurface *surface, const IvExportOptions *eo, const char *id, GError **error)
{
  IvFigure figure = { iv_surface_render, surface, NULL, NULL };
  return whole_figure_html (&figure, NULL, surface, iv_surface_get_title (surface), eo, id, error);
}
