/* iv-report.c: the offline HTML report (see the header). Everything is in the page: the
 * style, a small script (sorting, toggles, tooltips) and the figures; a Content Security
 * Policy forbids the page any request, and runs no script and applies no style but the
 * page's own (by their SHA-256 hashes): a name from data that slipped past escaping still
 * could not run a handler, fetch a file or leave the page. Every id is made from a
 * counter, none from data. The figures are drawn in the light theme; a dark reader gets
 * them inverted with their hues turned back, which keeps each series' colour
 * recognisable. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-report.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "iv-chart-html.h"
#include "iv-render-runs.h"
#include "iv-run-series.h"
#include "iv-runs-notes.h"
#include "iv-runs-table.h"
#include "iv-units.h"

static const char style[]
    = ":root{color-scheme:light "
      "dark;--fg:#1d1d1f;--dim:#5e5e66;--bg:#ffffff;--rule:#d8d8de;--head:#f3f3f6;--accent:#1c71d8}"
      "@media "
      "(prefers-color-scheme:dark){:root{--fg:#eeeef2;--dim:#a8a8b3;--bg:#1e1e22;--rule:#3a3a42;--"
      "head:#2a2a30;"
      "--accent:#78aeed}.iv-svg{filter:invert(1) hue-rotate(180deg)}}"
      "body{font:15px/1.45 system-ui,-apple-system,'Cantarell','Segoe "
      "UI',sans-serif;color:var(--fg);background:var(--bg);"
      "margin:0 auto;max-width:1280px;padding:24px}"
      "h1{font-size:1.6em;margin:0 0 4px}h2{font-size:1.25em;margin:32px 0 "
      "8px}p.dim{color:var(--dim);margin:0 0 16px}"
      "table{border-collapse:collapse;width:100%;margin:8px 0 "
      "16px;font-variant-numeric:tabular-nums}"
      "th,td{padding:4px 8px;border-bottom:1px solid "
      "var(--rule);text-align:right;white-space:nowrap}"
      "th:first-child,td:first-child{text-align:left}th{background:var(--head);cursor:pointer;user-"
      "select:none}"
      "th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' "
      "\\25BC'}"
      ".notes{color:var(--dim);font-size:.92em}.iv-figure{margin:16px 0 28px}"
      ".iv-svg{display:block;width:100%;height:auto;background:#fff;border-radius:6px}"
      ".iv-legend{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}"
      ".iv-toggle{font:inherit;font-size:.9em;color:var(--fg);background:var(--head);border:1px "
      "solid var(--rule);"
      "border-radius:999px;padding:2px "
      "10px;cursor:pointer}.iv-toggle[aria-pressed=false]{opacity:.45;text-decoration:line-through}"
      ".iv-swatch{margin-right:6px;vertical-align:-1px}.wrap{overflow-x:auto}"
      ".iv-skip{color:var(--dim);font-style:italic}"
      "#iv-tip{position:fixed;pointer-events:none;background:var(--fg);color:var(--bg);padding:4px "
      "8px;border-radius:4px;"
      "font-size:.85em;max-width:420px;z-index:2;white-space:pre-line}";

/* Sorting by a header click (numbers by their value), series toggles, and the nearest
 * hover target under the pointer. */
static const char script[]
    = "(function(){'use strict';\n"
      "document.querySelectorAll('table.sortable').forEach(function(t){\n"
      " t.querySelectorAll('th').forEach(function(th,col){th.addEventListener('click',function(){\n"
      "  var up=th.getAttribute('aria-sort')!=='ascending';\n"
      "  t.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort');});\n"
      "  th.setAttribute('aria-sort',up?'ascending':'descending');\n"
      "  var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
      "  rows.sort(function(a,b){var x=a.cells[col],y=b.cells[col];\n"
      "   var "
      "p=parseFloat(x.getAttribute('data-value')),q=parseFloat(y.getAttribute('data-value'));\n"
      "   var "
      "r=(!isNaN(p)||!isNaN(q))?((isNaN(p)?Infinity:p)-(isNaN(q)?Infinity:q)):x.textContent."
      "localeCompare(y.textContent,undefined,{numeric:true});\n"
      "   return up?r:-r;});\n"
      "  rows.forEach(function(r){body.appendChild(r);});});});});\n"
      "var tip=document.getElementById('iv-tip');\n"
      "document.querySelectorAll('figure.iv-figure').forEach(function(fig){\n"
      " var "
      "svg=fig.querySelector('svg'),data=JSON.parse(fig.querySelector('script.iv-points')."
      "textContent);\n"
      " var hidden={};\n"
      " fig.querySelectorAll('.iv-toggle').forEach(function(b){b.addEventListener('click',function("
      "){\n"
      "  var s=b.getAttribute('data-series'),on=b.getAttribute('aria-pressed')!=='true';\n"
      "  b.setAttribute('aria-pressed',on?'true':'false');hidden[s]=!on;\n"
      "  var "
      "g=svg.querySelector('g.iv-layer[data-series=\"'+s+'\"]');if(g)g.style.display=on?'':'none';}"
      ");});\n"
      " svg.addEventListener('mousemove',function(e){\n"
      "  var m=svg.getScreenCTM();if(!m)return;var "
      "p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;p=p.matrixTransform(m.inverse());\n"
      "  var hits=[],bd=12/m.a;\n"
      "  data.forEach(function(s){if(hidden[s.series])return;s.points.forEach(function(q){\n"
      "   var d=Math.hypot(q[0]-p.x,q[1]-p.y);if(d<=bd)hits.push({d:d,t:s.name+' \\u2014 "
      "'+q[2]});});});\n"
      "  if(!hits.length){tip.hidden=true;return;}\n"
      "  var near=Math.min.apply(null,hits.map(function(h){return h.d;}));\n"
      "  tip.textContent=hits.filter(function(h){return h.d<=near+0.5;}).map(function(h){return "
      "h.t;}).join('\\n');\n"
      "  tip.hidden=false;\n"
      "  tip.style.left=(e.clientX+14)+'px';tip.style.top=(e.clientY+14)+'px';});\n"
      " svg.addEventListener('mouseleave',function(){tip.hidden=true;});});\n"
      "})();\n";

/* A CSP source that allows exactly @text as an inline element's content:
 * 'sha256-BASE64'. */
static char *
csp_hash (const char *text)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;
  g_autofree char *b64 = NULL;

  g_checksum_update (sum, (const guchar *) text, (gssize) strlen (text));
  g_checksum_get_digest (sum, digest, &len);
  b64 = g_base64_encode (digest, len);
  return g_strdup_printf ("'sha256-%s'", b64);
}

static void
cell_number (GString *out, double v, const char *unit)
{
  if (!isfinite (v))
    {
      g_string_append (out, "<td data-value=\"\">–</td>");
      return;
    }
  g_string_append_printf (out, "<td data-value=\"%.17g\">", v);
  /* whole numbers from 10,000 up ("15460", not "1.546e+04"); far out an SI prefix
   * ("3.2T", "120µ"), never an exponent */
  if (fabs (v) >= 1e4 && fabs (v) < 1e12)
    g_string_append_printf (out, "%.0f", v);
  else if (fabs (v) >= 1e12 || (fabs (v) < 1e-3 && v != 0))
    {
      g_autofree char *n = iv_units_format_compact (v);
      g_string_append (out, n);
    }
  else
    g_string_append_printf (out, "%.4g", v);
  if (unit && *unit)
    {
      g_string_append_c (out, ' ');
      iv_html_escape (out, unit);
    }
  g_string_append (out, "</td>");
}

static void
cell_text (GString *out, const char *text)
{
  g_string_append (out, "<td>");
  iv_html_escape (out, text ? text : "–");
  g_string_append (out, "</td>");
}

static void
header_row (GString *out, const char *const *titles)
{
  g_string_append (out, "<thead><tr>");
  for (guint i = 0; titles[i]; i++)
    {
      g_string_append (out, "<th scope=\"col\">");
      iv_html_escape (out, titles[i]);
      g_string_append (out, "</th>");
    }
  g_string_append (out, "</tr></thead>\n<tbody>\n");
}

/* A table of iv-runs-table.c's, with the id @id: every number carries its value to sort by. */
static void
table_html (GString *out, const IvRunsTable *t, const char *classes, const char *id)
{
  g_autofree const char **titles = g_new0 (const char *, t->n_columns + 1);

  for (guint c = 0; c < t->n_columns; c++)
    titles[c] = t->titles->pdata[c];
  g_string_append_printf (out, "<div class=\"wrap\"><table class=\"%s\" id=\"%s\">\n", classes, id);
  header_row (out, titles);
  for (guint i = 0; i < t->rows->len; i++)
    {
      const IvRunsTableRow *row = &g_array_index (t->rows, IvRunsTableRow, i);
      g_string_append (out, "<tr>");
      for (guint c = 0; c < t->n_columns; c++)
        if (row->cells[c].text && isfinite (row->cells[c].value))
          {
            /* "10 of 64": sorted by its number */
            g_string_append_printf (out, "<td data-value=\"%.17g\">", row->cells[c].value);
            iv_html_escape (out, row->cells[c].text);
            g_string_append (out, "</td>");
          }
        else if (row->cells[c].text)
          cell_text (out, row->cells[c].text);
        else
          cell_number (out, row->cells[c].value, row->cells[c].unit);
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody></table></div>\n");
}

static void
runs_table (GString *out, const IvSweep *sweep)
{
  g_autoptr (IvRunsTable) t = iv_runs_table_comparison (sweep, NULL);
  g_autofree char *shared = iv_runs_table_constants_text (t);
  /* what every run shares, once above the table, as the window says it */
  if (shared)
    {
      g_string_append (out, "<p class=\"dim\">");
      iv_html_escape (out, shared);
      g_string_append (out, "</p>\n");
    }
  table_html (out, t, "sortable", "runs");
}

static void
metrics_table (GString *out, const IvRun *r, guint index)
{
  g_autoptr (IvRunsTable) t = iv_runs_table_metrics (r);
  g_autofree char *id = g_strdup_printf ("metrics-%u", index);
  table_html (out, t, "sortable metrics", id);
}

/* The notes of the sweep and every run, or of the run @only (under its metrics: the cost
 * of that run, not of the sweep), as the window says them (iv-runs-notes.c). */
static void
notes (GString *out, const IvSweep *sweep, const IvRun *only)
{
  g_autoptr (GString) list = g_string_new (NULL);
  g_autoptr (GPtrArray) said = iv_runs_notes (sweep, only, IV_RUNS_NOTES_DEFAULT);

  for (guint i = 0; i < said->len; i++)
    {
      /* under a run's own table its name is in the heading: no "run: …" */
      g_autofree char *line = iv_runs_note_line (said->pdata[i], sweep, only);
      g_string_append (list, "<li>");
      iv_html_escape (list, line);
      g_string_append (list, "</li>");
    }
  if (list->len)
    {
      g_string_append (out, "<ul class=\"notes\">");
      g_string_append_len (out, list->str, (gssize) list->len);
      g_string_append (out, "</ul>\n");
    }
}

GString *
iv_report_html (const IvSweep *sweep, const IvPlotConfig *config, GPtrArray *names, gboolean multi,
                const IvExportOptions *eo, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M");
  const IvRun *first = sweep->runs->pdata[0];
  g_autofree char *title
      = multi ? g_strdup_printf (_ ("%u runs"), sweep->runs->len) : g_strdup (first->name);
  g_autofree char *script_hash = csp_hash (script), *style_hash = csp_hash (style);
  guint number = 0;

  /* default-src covers fetches of every kind; base-uri, form-action and navigate-to do
   * not fall back to it (navigate-to is honoured by no browser yet, ignored by the rest);
   * no 'unsafe-inline': an inline handler or script the page did not write never runs */
  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                        "'none'; script-src ");
  g_string_append (out, script_hash);
  g_string_append (out, "; style-src ");
  g_string_append (out, style_hash);
  g_string_append (out,
                   "; img-src data:; base-uri 'none'; form-action 'none'; "
                   "navigate-to 'none'\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"generator\" content=\"Inferview " PACKAGE_VERSION "\">\n<title>");
  iv_html_escape (out, title);
  g_string_append (out, " — Inferview report</title>\n<style>");
  g_string_append (out, style);
  g_string_append (out, "</style>\n</head>\n<body>\n<header>\n<h1>");
  iv_html_escape (out, title);
  g_string_append (out, "</h1>\n<p class=\"dim\">");
  {
    g_autofree char *line
        = g_strdup_printf (_ ("Inferview %s · %s · %u run(s) · plot configuration %s · "
                              "click a column to sort, a series to show or hide it"),
                           PACKAGE_VERSION, when, sweep->runs->len, config->origin);
    iv_html_escape (out, line);
  }
  g_string_append (out, "</p>\n</header>\n<main>\n<h2>");
  iv_html_escape (out, _ ("Runs"));
  g_string_append (out, "</h2>\n");
  runs_table (out, sweep);
  notes (out, sweep, NULL);

  g_string_append (out, "<h2>");
  iv_html_escape (out, _ ("Figures"));
  g_string_append (out, "</h2>\n");
  for (guint i = 0; i < names->len; i++)
    {
      const IvPlotSpec *spec = iv_plot_config_get (config, multi, names->pdata[i]);
      g_autofree char *reason = NULL, *html = NULL;
      IvRunsFigure figure;
      if (!spec)
        continue;
      if (!iv_runs_figure (spec, sweep, first, &figure, &reason))
        {
          g_string_append (out, "<p class=\"iv-skip\">");
          {
            g_autofree char *line
                = g_strdup_printf (_ ("%s: not drawn, %s"), (const char *) names->pdata[i], reason);
            iv_html_escape (out, line);
          }
          g_string_append (out, "</p>\n");
          continue;
        }
      /* the id is the figure's number: a preset's name is data (a run folder's hidden
       * configuration), written only as an escaped attribute value */
      number++;
      if (figure.grid)
        html = iv_chart_grid_to_html (figure.grid, eo, number, names->pdata[i], error);
      else if (figure.surface)
        html = iv_surface_to_html (figure.surface, eo, number, names->pdata[i], error);
      else
        html = iv_chart_to_html (figure.chart, eo, number, names->pdata[i], error);
      iv_runs_figure_clear (&figure);
      if (!html)
        return NULL;
      g_string_append (out, html);
    }

  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      g_string_append (out, "<h2>");
      {
        g_autofree char *head = g_strdup_printf (_ ("Metrics of %s"), r->name);
        iv_html_escape (out, head);
      }
      g_string_append (out, "</h2>\n");
      metrics_table (out, r, i);
      if (sweep->runs->len > 1)
        notes (out, sweep, r);
    }
  g_string_append (out, "</main>\n<div id=\"iv-tip\" role=\"tooltip\" hidden></div>\n<script>");
  g_string_append (out, script);
  g_string_append (out, "</script>\n</body>\n</html>\n");
  return g_steal_pointer (&out);
}
