/* iv-chart-html.c: a chart as inline SVG for an HTML page, drawn by the same renderer as
 * every export: the frame (titles, grid, axes) and each series as its own layer, so a
 * reader can show and hide series, and for each series the points a pointer can hover
 * (a few thousand at most: one per cell of a few pixels) with their values written out.
 * The frame is laid out once; each series is then drawn alone where that layout puts it
 * (chart->keep_layout), so a figure of n series costs n small drawings, not n whole ones.
 * cairo's SVG names its glyphs and clips "glyph0-1", "clip1" in every document: each
 * layer's names get a prefix of their own, made from the figure's number, so that many
 * figures share one page. cairo 1.16 writes style="fill:…;stroke:…" on every shape: those
 * are rewritten as the equivalent presentation attributes (fill="…"), which a Content
 * Security Policy without 'unsafe-inline' for styles still applies. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-chart-html.h"

#include <cairo-svg.h>
#include <math.h>
#include <string.h>

#include "iv-chart-private.h"
#include "iv-json-writer.h"
#include "iv-safe-text.h"

/* Hover targets: one per cell of this many units, at most this many per series. */
#define HOVER_CELL 5.0
#define HOVER_MAX 4000

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
at (const char *p, const char *end, const char *what)
{
  gsize n = strlen (what);
  return (gsize) (end - p) >= n && memcmp (p, what, n) == 0;
}

static void append_svg (GString *out, const char *p, const char *end, const char *prefix);

/* The declarations of a style attribute ("fill:none;stroke-width:1;") as presentation
 * attributes (fill="none" stroke-width="1"): every property cairo writes (fill, stroke,
 * their opacities, widths, caps, joins, dashes, rules) is one. */
static void
append_presentation (GString *out, const char *p, const char *end, const char *prefix)
{
  gboolean first = TRUE;

  while (p < end)
    {
      const char *semi = memchr (p, ';', (gsize) (end - p));
      const char *colon, *n0, *n1, *v0, *v1;
      gboolean name_ok = TRUE;
      if (!semi)
        semi = end;
      colon = memchr (p, ':', (gsize) (semi - p));
      if (colon)
        {
          for (n0 = p; n0 < colon && g_ascii_isspace (*n0); n0++)
            ;
          for (n1 = colon; n1 > n0 && g_ascii_isspace (n1[-1]); n1--)
            ;
          for (v0 = colon + 1; v0 < semi && g_ascii_isspace (*v0); v0++)
            ;
          for (v1 = semi; v1 > v0 && g_ascii_isspace (v1[-1]); v1--)
            ;
          for (const char *c = n0; c < n1; c++)
            name_ok &= g_ascii_islower (*c) || *c == '-';
          if (n1 > n0 && name_ok)
            {
              if (!first)
                g_string_append_c (out, ' ');
              g_string_append_len (out, n0, n1 - n0);
              g_string_append (out, "=\"");
              append_svg (out, v0, v1, prefix);
              g_string_append_c (out, '"');
              first = FALSE;
            }
        }
      p = semi + 1;
    }
}

/* cairo's SVG text from @p to @end with its names prefixed and its styles as attributes. */
static void
append_svg (GString *out, const char *p, const char *end, const char *prefix)
{
  while (p < end)
    {
      const char *run = p;
      /* copy up to the next place a rule may apply */
      while (p < end && *p != 'i' && *p != 'h' && *p != 'u' && *p != 's')
        p++;
      g_string_append_len (out, run, p - run);
      if (p >= end)
        break;
      if (at (p, end, "id=\""))
        g_string_append_printf (out, "id=\"%s-", prefix), p += 4;
      else if (at (p, end, "href=\"#"))
        g_string_append_printf (out, "href=\"#%s-", prefix), p += 7;
      else if (at (p, end, "url(#"))
        g_string_append_printf (out, "url(#%s-", prefix), p += 5;
      else if (at (p, end, "style=\""))
        {
          const char *close = memchr (p + 7, '"', (gsize) (end - p - 7));
          if (!close)
            break; /* cairo closes its attributes: nothing half-written goes out */
          append_presentation (out, p + 7, close, prefix);
          p = close + 1;
        }
      else
        g_string_append_c (out, *p++);
    }
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
  append_svg (out, body, close, prefix);
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
  g_autofree char *valid = NULL;

  if (!s)
    return;
  if (!g_utf8_validate (s, -1, NULL))
    s = valid = iv_text_valid (s, -1);
  for (const char *p = s; *p; p++)
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
      case '\'':
        g_string_append (out, "&#39;");
        break;
      default:
        if (((guchar) *p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
          g_string_append (out, "\xef\xbf\xbd"); /* U+FFFD */
        else
          g_string_append_c (out, *p);
      }
}

void
iv_html_script_json (GString *out, const char *json)
{
  for (const char *p = json ? json : ""; *p; p++)
    switch (*p)
      {
      case '<':
        g_string_append (out, "\\u003c");
        break;
      case '>':
        g_string_append (out, "\\u003e");
        break;
      case '&':
        g_string_append (out, "\\u0026");
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
  iv_html_script_json (out, points_text);
  g_string_append (out, "</script>\n</figure>\n");
}

/* <figure …><svg …> up to the SVG's first child: the id from @number, the preset's name
 * and the title escaped as attribute values. */
static void
open_figure (GString *out, guint number, const char *name, const char *title,
             const IvExportOptions *eo)
{
  g_string_append_printf (out, "<figure class=\"iv-figure\" id=\"fig-%u\"", number);
  if (name)
    {
      g_string_append (out, " data-preset=\"");
      iv_html_escape (out, name);
      g_string_append_c (out, '"');
    }
  g_string_append_printf (
      out, ">\n<svg class=\"iv-svg\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
      eo->width, eo->height);
  iv_html_escape (out, title);
  g_string_append (
      out,
      "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n");
}

char *
iv_chart_to_html (IvChart *chart, const IvExportOptions *eo, guint number, const char *name,
                  GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  IvJsonWriter *points = iv_json_writer_new (FALSE);
  g_autofree char *points_text = NULL;
  IvLegendPlacement legend = chart->legend;
  g_autofree char *frame = NULL;
  char prefix[64];
  gboolean ok = TRUE;

  /* the page's buttons are the legend: the figure keeps the room for its data */
  chart->legend = IV_LEGEND_HIDDEN;
  iv_json_writer_begin_array (points);
  g_snprintf (prefix, sizeof prefix, "fig-%u-f", number);
  /* the frame lays the whole chart out (ranges, axes, every series' labels); each
   * series after it is drawn where that layout puts it, without laying it out again */
  frame = layer_svg (chart, IV_CHART_LAYER_FRAME, eo, prefix, error);
  if (!frame)
    {
      chart->legend = legend;
      g_free (iv_json_writer_finish (points));
      return NULL;
    }
  open_figure (out, number, name, chart->title, eo);
  g_string_append_printf (out, "<g class=\"iv-frame\">%s</g>\n", frame);
  chart->keep_layout = TRUE;
  for (guint i = 0; i < chart->series->len && ok; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      g_autofree char *body = NULL;
      g_snprintf (prefix, sizeof prefix, "fig-%u-s%u", number, i);
      if (!s->visible)
        continue;
      if (!(body = layer_svg (chart, (gint) i, eo, prefix, error)))
        {
          ok = FALSE;
          break;
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
  chart->keep_layout = FALSE;
  iv_json_writer_end_array (points);
  points_text = iv_json_writer_finish (points);
  if (!ok)
    {
      chart->legend = legend;
      return NULL;
    }
  g_string_append (out, "</svg>\n<div class=\"iv-legend\">");
  for (guint i = 0; i < chart->series->len; i++)
    {
      IvSeries *s = chart->series->pdata[i];
      if (!s->visible || !s->in_legend || !s->name || !*s->name)
        continue;
      /* the swatch is a shape with a fill attribute: no style attribute on the page */
      g_string_append_printf (
          out,
          "<button type=\"button\" class=\"iv-toggle\" aria-pressed=\"true\" data-series=\"%u\">"
          "<svg class=\"iv-swatch\" width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" "
          "aria-hidden=\"true\"><circle cx=\"5\" cy=\"5\" r=\"5\" fill=\"#%02x%02x%02x\"/></svg>",
          i, (guint) lround (CLAMP (s->color.r, 0, 1) * 255),
          (guint) lround (CLAMP (s->color.g, 0, 1) * 255),
          (guint) lround (CLAMP (s->color.b, 0, 1) * 255));
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
                   const IvExportOptions *eo, guint number, const char *name, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  IvJsonWriter *points = iv_json_writer_new (FALSE);
  g_autofree char *points_text = NULL, *body = NULL;
  char prefix[64];

  g_snprintf (prefix, sizeof prefix, "fig-%u-f", number);
  /* drawn once to the page's size: the hover targets are where this drawing put things */
  if (!(body = figure_svg (figure, eo, prefix, error)))
    {
      g_free (iv_json_writer_finish (points));
      return NULL;
    }
  open_figure (out, number, name, title, eo);
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
iv_chart_grid_to_html (IvChartGrid *grid, const IvExportOptions *eo, guint number, const char *name,
                       GError **error)
{
  IvFigure figure = { iv_chart_grid_render, grid, NULL, NULL };
  return whole_figure_html (&figure, grid, NULL, iv_chart_grid_get_title (grid), eo, number, name,
                            error);
}

char *
iv_surface_to_html (IvSurface *surface, const IvExportOptions *eo, guint number, const char *name,
                    GError **error)
{
  IvFigure figure = { iv_surface_render, surface, NULL, NULL };
  return whole_figure_html (&figure, NULL, surface, iv_surface_get_title (surface), eo, number,
                            name, error);
}
