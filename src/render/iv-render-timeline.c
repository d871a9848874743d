/* iv-render-timeline.c: the timeline, drawn from the trace engine's level of detail so a
 * frame costs what the pixels cost, not what the trace holds: every row asks for its
 * items at the plot's width, runs narrower than a pixel come back merged. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-timeline.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "iv-palette.h"
#include "iv-scale.h"
#include "iv-text.h"
#include "iv-units.h"

#define PAD 12.0
#define TITLE_H 40.0
#define RULER_H 26.0
#define GUTTER_W 190.0
#define ROW_H 18.0
#define HEADER_H 22.0
#define TRACK_GAP 4.0
#define COUNTER_H 34.0
#define NOTE_H 24.0

static void
range_of (const IvTimelineFigure *fig, gint64 *t0, gint64 *t1)
{
  *t0 = fig->t0_ns, *t1 = fig->t1_ns;
  if (*t1 <= *t0)
    *t0 = fig->trace->t0_ns, *t1 = fig->trace->t1_ns;
  if (*t1 <= *t0)
    *t1 = *t0 + 1000;
}

void
iv_timeline_layout (const IvTimelineFigure *fig, double width, double height, IvTimelineLayout *L)
{
  const IvTrace *t = fig->trace;
  guint last_process = G_MAXUINT;
  double y;

  /* the names' gutter: 190 units in a window, at most a quarter of a narrow page (a paper
   * column), so that the time axis keeps most of the width */
  L->plot_x = MIN (GUTTER_W, MAX (90, width * 0.26));
  L->plot_w = MAX (10, width - L->plot_x - PAD);
  L->ruler_h = RULER_H;
  L->row_h = ROW_H;
  range_of (fig, &L->t0_ns, &L->t1_ns);
  if (!L->row_y)
    L->row_y = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (L->row_y, t->rows->len);
  for (guint r = 0; r < t->rows->len; r++)
    g_array_index (L->row_y, double, r) = -1;
  if (!L->series_y)
    L->series_y = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (L->series_y, t->series->len);
  for (guint i = 0; i < t->series->len; i++)
    g_array_index (L->series_y, double, i) = -1;
  L->series_h = COUNTER_H;
  if (!L->header_y)
    L->header_y = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (L->header_y, t->processes->len);
  for (guint i = 0; i < t->processes->len; i++)
    g_array_index (L->header_y, double, i) = -1;
  L->cut_processes = L->cut_tracks = 0;
  y = TITLE_H + RULER_H + 2 - MAX (0, fig->scroll_y);
  {
    /* a note about what is cut takes the last line of an export */
    double bottom = height - PAD / 2 - (fig->note_cut ? NOTE_H : 0);
    guint cut_process = G_MAXUINT;
    for (guint k = 0; k < t->tracks->len; k++)
      {
        const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
        gboolean cut = FALSE;
        if (tr->n_rows == 0 && tr->n_series == 0)
          continue;
        if (fig->hidden && tr->process < fig->hidden->len && fig->hidden->data[tr->process])
          continue;
        if (fig->hidden_tracks && k < fig->hidden_tracks->len && fig->hidden_tracks->data[k])
          continue;
        if (tr->process != last_process)
          {
            if (y + 2 >= TITLE_H + RULER_H && y + HEADER_H <= bottom)
              g_array_index (L->header_y, double, tr->process) = y + 2;
            y += HEADER_H, last_process = tr->process;
          }
        /* A collapsed process keeps only its header. */
        if (fig->collapsed && tr->process < fig->collapsed->len
            && fig->collapsed->data[tr->process])
          continue;
        for (guint r = 0; r < tr->n_rows; r++, y += ROW_H)
          if (y >= TITLE_H + RULER_H && y + ROW_H <= bottom)
            g_array_index (L->row_y, double, tr->first_row + r) = y;
          else
            cut |= y + ROW_H > bottom;
        /* A counter track: one band per series (a track's series are contiguous). */
        for (guint i = tr->first_series; i < tr->first_series + tr->n_series; i++)
          {
            if (y >= TITLE_H + RULER_H && y + COUNTER_H <= bottom)
              g_array_index (L->series_y, double, i) = y;
            else
              cut |= y + COUNTER_H > bottom;
            y += COUNTER_H;
          }
        y += TRACK_GAP;
        if (cut)
          {
            L->cut_tracks++;
            if (cut_process != tr->process)
              L->cut_processes++, cut_process = tr->process;
          }
      }
  }
  L->content_h = y + MAX (0, fig->scroll_y) + PAD / 2 + (fig->note_cut ? NOTE_H : 0);
}

double
iv_timeline_content_height (const IvTimelineFigure *fig, double width)
{
  IvTimelineLayout L = { 0 };
  double h;

  iv_timeline_layout (fig, width, G_MAXINT32, &L);
  h = L.content_h;
  iv_timeline_layout_clear (&L);
  return h;
}

void
iv_timeline_layout_clear (IvTimelineLayout *L)
{
  g_clear_pointer (&L->row_y, g_array_unref);
  g_clear_pointer (&L->series_y, g_array_unref);
  g_clear_pointer (&L->header_y, g_array_unref);
}

guint
iv_timeline_header_at (const IvTimelineLayout *L, double y)
{
  for (guint p = 0; L->header_y && p < L->header_y->len; p++)
    {
      double hy = g_array_index (L->header_y, double, p);
      if (hy >= 0 && y >= hy && y < hy + HEADER_H - 3)
        return p;
    }
  return G_MAXUINT;
}

/* iv_timeline_x, inlined in the loops over a row's items (thousands a row): the same
 * arithmetic, so the same pixels. */
static inline double
timeline_x (const IvTimelineLayout *L, gint64 t_ns)
{
  return L->plot_x + (double) (t_ns - L->t0_ns) / (double) (L->t1_ns - L->t0_ns) * L->plot_w;
}

double
iv_timeline_x (const IvTimelineLayout *L, gint64 t_ns)
{
  return timeline_x (L, t_ns);
}

guint
iv_timeline_counter_at (const IvTimelineFigure *fig, const IvTimelineLayout *L, double x, double y,
                        double *value)
{
  const IvTrace *t = fig->trace;
  double ns_per_px = (double) (L->t1_ns - L->t0_ns) / L->plot_w;
  gint64 at, next;

  if (!L->series_y || x < L->plot_x || x > L->plot_x + L->plot_w)
    return G_MAXUINT;
  at = L->t0_ns + (gint64) (floor (x - L->plot_x) * ns_per_px);
  next = at + (gint64) ceil (ns_per_px);
  for (guint i = 0; i < t->series->len && i < L->series_y->len; i++)
    {
      const IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, i);
      double sy = g_array_index (L->series_y, double, i);
      gsize lo = se->first, hi = se->first + se->n;
      double v;
      if (sy < 0 || y < sy || y >= sy + L->series_h)
        continue;
      /* as draw_counter draws the column: the level at its start, or the highest sample
       * in it */
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;
          if (t->sample_ns[mid] <= at)
            lo = mid + 1;
          else
            hi = mid;
        }
      v = lo > se->first ? t->sample_value[lo - 1] : 0;
      for (gsize j = lo; j < se->first + se->n && t->sample_ns[j] < next; j++)
        v = MAX (v, t->sample_value[j]);
      *value = v;
      return i;
    }
  return G_MAXUINT;
}

gsize
iv_timeline_slice_at (const IvTimelineFigure *fig, const IvTimelineLayout *L, double x, double y)
{
  const IvTrace *t = fig->trace;
  double ns_per_px = (double) (L->t1_ns - L->t0_ns) / L->plot_w;
  gint64 at;

  if (x < L->plot_x || x > L->plot_x + L->plot_w)
    return G_MAXSIZE;
  at = L->t0_ns + (gint64) ((x - L->plot_x) * ns_per_px);
  for (guint r = 0; r < t->rows->len; r++)
    {
      double ry = g_array_index (L->row_y, double, r);
      gsize s;
      if (ry < 0 || y < ry || y >= ry + L->row_h)
        continue;
      /* Slices of one row do not overlap: the last one starting by the pointer (give or
       * take half a pixel) is the only candidate. */
      s = iv_trace_row_last_by (t, r, at + (gint64) floor (ns_per_px / 2));
      if (s != G_MAXSIZE && t->start_ns[s] + t->dur_ns[s] >= at - ns_per_px / 2)
        return s;
      return G_MAXSIZE;
    }
  return G_MAXSIZE;
}

IvColor
iv_timeline_slice_color (const IvTimelineFigure *fig, gsize slice, IvTheme theme)
{
  const char *key = iv_trace_string (fig->trace, fig->color_by_category ? fig->trace->cat[slice]
                                                                        : fig->trace->name[slice]);
  return iv_color_slot_color (theme, iv_color_slot_for (key ? key : ""));
}

/* The palette slot of a slice's name (or category), remembered per string for the frame:
 * hashing each name once instead of once per item. */
static guint
palette_slot (const IvTimelineFigure *fig, GByteArray **slots, gsize slice)
{
  guint32 id = fig->color_by_category ? fig->trace->cat[slice] : fig->trace->name[slice];
  const char *key;

  if (!*slots)
    *slots = g_byte_array_new ();
  if (id >= (*slots)->len)
    {
      guint old = (*slots)->len;
      g_byte_array_set_size (*slots, id + 64);
      memset ((*slots)->data + old, 0xff, (*slots)->len - old);
    }
  if ((*slots)->data[id] == 0xff)
    {
      key = iv_trace_string (fig->trace, id);
      (*slots)->data[id] = (guint8) iv_color_slot_for (key ? key : "");
    }
  return (*slots)->data[id];
}

static void
draw_ruler (cairo_t *cr, IvText *text, IvTimelineCache *cache, const IvThemeColors *colors,
            const IvTimelineLayout *L, const IvTrace *t, double height)
{
  /* Times relative to the trace's start, in the unit that suits the visible span. */
  IvScaleSpec spec = { IV_SCALE_TIME, { IV_UNIT_SECONDS, 1e-9, NULL }, FALSE, (double) t->t0_ns };
  g_autoptr (IvTicks) ticks = iv_ticks_compute (&spec, (double) L->t0_ns, (double) L->t1_ns,
                                                MAX (2, (guint) (L->plot_w / 110)));
  double y0 = TITLE_H, y1 = TITLE_H + RULER_H;

  iv_color_set_source (cr, &colors->grid);
  cairo_rectangle (cr, L->plot_x, y1 - 1, L->plot_w, 1);
  cairo_fill (cr);
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      const IvTick *tk = &ticks->ticks[i];
      double x = iv_timeline_x (L, (gint64) tk->value);
      if (x < L->plot_x - 0.5 || x > L->plot_x + L->plot_w + 0.5)
        continue;
      iv_color_set_source (cr, &colors->grid);
      cairo_rectangle (cr, floor (x), tk->major ? y0 + 12 : y1 - 5, 1,
                       tk->major ? height - y0 - 12 : 5);
      cairo_fill (cr);
      if (tk->label)
        {
          g_autofree char *label = ticks->unit_label
                                       ? g_strdup_printf ("%s %s", tk->label, ticks->unit_label)
                                       : g_strdup (tk->label);
          double w, h;
          /* (a view's cache keeps the layouts of the labels it showed before) */
          PangoLayout *layout
              = cache ? _iv_timeline_cache_text (cache, text, label, 0.8, FALSE, 0, 0, &w, &h)
                      : NULL;
          if (!layout)
            iv_text_measure (text, label, 0.8, FALSE, 0, &w, &h), layout = text->layout;
          /* right of its tick; near the plot's end, left of it; never cut. The layout
           * just measured is the one iv_text_show would set up again: drawn as it does. */
          if (x + 3 + w <= L->plot_x + L->plot_w || x - 3 - w >= L->plot_x)
            {
              iv_color_set_source (cr, &colors->foreground_dim);
              cairo_move_to (cr, x + 3 + w <= L->plot_x + L->plot_w ? x + 3 : x - 3 - w, y0 + 2);
              iv_text_show_layout (cr, layout, text->allow);
            }
        }
    }
}

/* On an image surface a row is one scanline of pixels: each item written into it, the
 * line copied down the row's height, then the block composited in one call. Thousands of
 * one-to-four pixel boxes per row cost cairo far more than the pixels do; the result is
 * the same pixel-aligned boxes. The block is as tall as the row (not one line stretched):
 * an unscaled source takes pixman's fast OVER path, a stretched one its slow general
 * path, which was a third of a dense frame. Vector targets (PDF, SVG) keep the
 * rectangles. */
typedef struct
{
  cairo_surface_t *line; /* ARGB32, the plot's width in device pixels × RASTER_ROWS */
  double scale;          /* device pixels per unit */
  int n_px;
} RowRaster;

/* The rows of the raster block: a slice bar's height in units (ROW_H − 2). */
#define RASTER_ROWS 16

static gboolean
row_raster_init (RowRaster *rr, cairo_t *cr, const IvTimelineLayout *L)
{
  cairo_matrix_t m;

  rr->line = NULL;
  if (cairo_surface_get_type (cairo_get_target (cr)) != CAIRO_SURFACE_TYPE_IMAGE)
    return FALSE;
  cairo_get_matrix (cr, &m);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || m.yy <= 0)
    return FALSE;
  rr->scale = m.xx;
  rr->n_px = MAX (1, (int) ceil ((L->plot_w + 2) * rr->scale));
  rr->line = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, rr->n_px, RASTER_ROWS);
  return cairo_surface_status (rr->line) == CAIRO_STATUS_SUCCESS;
}

/* lround for 0 ≤ @v < 2³¹ without the libm call (two a slice in a dense row): the
 * truncation is the floor there and v − floor(v) is exact, so halves round up as
 * lround's do. */
static inline int
round_px (double v)
{
  int r;
  if (!(v >= 0 && v < G_MAXINT32))
    return (int) lround (v);
  r = (int) v;
  return r + (v - r >= 0.5);
}

static guint32
premultiplied (const IvColor *c)
{
  double a = CLAMP (c->a, 0, 1);
  return (guint32) lround (a * 255) << 24 | (guint32) lround (c->r * a * 255) << 16
         | (guint32) lround (c->g * a * 255) << 8 | (guint32) lround (c->b * a * 255);
}

/* @px: per item, the box [x0, x0 + w) in units (already rounded to pixels); @argb per
 * bucket. Boxes are written in order, so a later one wins where two touch. */
static void
row_raster_draw (RowRaster *rr, cairo_t *cr, const IvTimelineLayout *L, const GArray *items,
                 const guint8 *buckets, const guint32 *argb, double y, double h)
{
  guint32 *px;
  guint8 *data;
  int stride;
  double origin = L->plot_x - 1;

  cairo_surface_flush (rr->line);
  data = cairo_image_surface_get_data (rr->line);
  stride = cairo_image_surface_get_stride (rr->line);
  px = (guint32 *) data;
  memset (px, 0, (gsize) rr->n_px * 4);
  for (guint i = 0; i < items->len; i++)
    {
      const IvLodItem *it = &g_array_index (items, IvLodItem, i);
      double x0 = floor (MAX (timeline_x (L, it->start_ns), L->plot_x - 1));
      double x1 = ceil (MIN (timeline_x (L, it->end_ns), L->plot_x + L->plot_w + 1));
      double w = MAX (1, x1 - x0);
      int a = round_px ((x0 - origin) * rr->scale);
      int b = round_px ((x0 + (w > 4 ? w - 1 : w) - origin) * rr->scale);
      guint32 c = argb[buckets[i]];
      a = MAX (a, 0), b = MIN (b, rr->n_px);
      for (int x = a; x < b; x++)
        px[x] = c;
    }
  for (int k = 1; k < RASTER_ROWS; k++)
    memcpy (data + (gsize) k * stride, data, (gsize) rr->n_px * 4);
  cairo_surface_mark_dirty (rr->line);
  cairo_save (cr);
  cairo_translate (cr, origin, y);
  /* h is RASTER_ROWS: one source row per unit of height, so at scale 1 the source is
   * not transformed at all (every row is the same line: which one a pixel takes does
   * not matter, and the edges fall where the stretched line's did) */
  cairo_scale (cr, 1 / rr->scale, h / RASTER_ROWS);
  cairo_set_source_surface (cr, rr->line, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, 0, 0, rr->n_px, RASTER_ROWS);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* One frame's drawing context: what every phase of iv_render_timeline reads, and the
 * per-frame caches (palette slots, colour buckets, the row raster) they share. */
typedef struct
{
  cairo_t *cr;
  const IvTimelineFigure *fig;
  const IvTrace *t;
  const IvRenderOptions *options;
  const IvThemeColors *colors;
  double width, height;
  IvTimelineLayout L;
  IvText text;
  GArray *items;                           /* IvLodItem, one row's at a time */
  GByteArray *buckets;                     /* per item: colour slot, + IV_COLOR_SLOTS when merged */
  GByteArray *slots;                       /* palette slot per string id, see palette_slot */
  guint32 bucket_argb[2 * IV_COLOR_SLOTS]; /* premultiplied, per bucket */
  RowRaster raster;                        /* .line NULL on vector targets */
  IvTimelineCache *cache;                  /* the figure's, or NULL */
} Frame;

static void
frame_init (Frame *f, cairo_t *cr, const IvTimelineFigure *fig, const IvRenderOptions *options,
            double width, double height)
{
  *f = (Frame){ cr, fig, fig->trace, options, iv_theme_get_colors (options->theme), width, height };
  f->items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
  f->buckets = g_byte_array_new ();
  iv_timeline_layout (fig, width, height, &f->L);
  row_raster_init (&f->raster, cr, &f->L);
  for (guint b = 0; b < 2 * IV_COLOR_SLOTS; b++)
    {
      IvColor fill = iv_color_slot_color (options->theme, b % IV_COLOR_SLOTS);
      /* A merged run is the colour of its first slice, lighter: many things here. */
      if (b >= IV_COLOR_SLOTS)
        fill.a = 0.55;
      f->bucket_argb[b] = premultiplied (&fill);
    }
  iv_text_init (&f->text, cr, 12 * (options->font_scale > 0 ? options->font_scale : 1));
  if ((f->cache = fig->cache))
    _iv_timeline_cache_begin (f->cache, cr, f->t, f->L.t0_ns, f->L.t1_ns, f->L.plot_w,
                              fig->color_by_category);
}

/* iv_text_show, through the view's cache when there is one (the same layout, laid out
 * once for every frame and bar that sets the same text the same way). */
static void
frame_text_show (Frame *f, const char *str, double x, double y, double xalign, double yalign,
                 double scale, gboolean bold, double max_width, const IvColor *color)
{
  double w, h;
  PangoLayout *layout = f->cache ? _iv_timeline_cache_text (f->cache, &f->text, str, scale, bold,
                                                            max_width, xalign, &w, &h)
                                 : NULL;

  if (!layout)
    {
      iv_text_show (&f->text, f->cr, str, x, y, xalign, yalign, scale, bold, max_width, color);
      return;
    }
  iv_color_set_source (f->cr, color);
  cairo_move_to (f->cr, x - w * xalign, y - h * yalign);
  iv_text_show_layout (f->cr, layout, f->text.allow);
}

static void
frame_clear (Frame *f)
{
  iv_text_clear (&f->text);
  g_clear_pointer (&f->raster.line, cairo_surface_destroy);
  iv_timeline_layout_clear (&f->L);
  g_clear_pointer (&f->items, g_array_unref);
  g_clear_pointer (&f->buckets, g_byte_array_unref);
  g_clear_pointer (&f->slots, g_byte_array_unref);
}

/* The file, the visible span and where it starts. */
static void
draw_title (Frame *f)
{
  const IvTrace *t = f->t;
  g_autofree char *base
      = f->fig->name ? g_strdup (f->fig->name) : g_path_get_basename (t->path ? t->path : "trace");
  g_autofree char *span = iv_units_format_seconds ((f->L.t1_ns - f->L.t0_ns) * 1e-9);
  g_autofree char *from = iv_units_format_seconds ((f->L.t0_ns - t->t0_ns) * 1e-9);
  g_autofree char *title
      = g_strdup_printf ("%s · %s from %s", base, span, f->L.t0_ns > t->t0_ns ? from : "the start");

  frame_text_show (f, title, PAD, PAD, 0, 0, 1.2, TRUE, f->width - 2 * PAD, &f->colors->foreground);
}

/* Process headers, with ▾ when open and ▸ when collapsed (a click toggles). */
static void
draw_headers (Frame *f)
{
  const IvTrace *t = f->t;

  for (guint p = 0; p < t->processes->len; p++)
    {
      const IvProcess *pr = t->processes->pdata[p];
      double hy = g_array_index (f->L.header_y, double, p);
      gboolean shut = f->fig->collapsed && p < f->fig->collapsed->len && f->fig->collapsed->data[p];
      g_autofree char *label = NULL;
      if (hy < 0)
        continue;
      label = g_strdup_printf ("%s %s", shut ? "▸" : "▾", pr->name ? pr->name : pr->key);
      iv_color_set_source (f->cr, &f->colors->grid);
      cairo_rectangle (f->cr, 0, hy, f->width, HEADER_H - 3);
      cairo_fill (f->cr);
      frame_text_show (f, label, PAD, hy + (HEADER_H - 3) / 2, 0, 0.5, 0.9, TRUE,
                       f->width - 2 * PAD, &f->colors->foreground);
    }
}

/* Each item's bucket (palette slot, merged or whole), found once per frame and row;
 * returns the set of buckets present, one bit each. */
static guint
bucket_items (Frame *f)
{
  guint present = 0;

  g_byte_array_set_size (f->buckets, f->items->len);
  for (guint i = 0; i < f->items->len; i++)
    {
      const IvLodItem *it = &g_array_index (f->items, IvLodItem, i);
      /* zoomed out, items are a block of slices apart and each name a miss in memory:
       * asked for a few items ahead */
      if (i + 8 < f->items->len)
        {
          gsize ahead = g_array_index (f->items, IvLodItem, i + 8).slice;
          __builtin_prefetch (f->fig->color_by_category ? &f->t->cat[ahead] : &f->t->name[ahead]);
        }
      f->buckets->data[i] = (guint8) (palette_slot (f->fig, &f->slots, it->slice)
                                      + (it->count > 1 ? IV_COLOR_SLOTS : 0));
      present |= 1u << f->buckets->data[i];
    }
  return present;
}

/* A row's items as vector rectangles: one path per bucket, filled once — a zoomed-out
 * row has as many items as pixels, and a fill per item would dominate the frame. */
static void
fill_row_vector (Frame *f, guint present, double y)
{
  cairo_t *cr = f->cr;
  const IvTimelineLayout *L = &f->L;

  for (guint b = 0; b < 2 * IV_COLOR_SLOTS; b++)
    {
      gboolean any = FALSE;
      double run_x0 = 0, run_x1 = -1; /* narrow boxes that touch, drawn as one */
      IvColor fill;
      if (!(present & (1u << b)))
        continue;
      for (guint i = 0; i < f->items->len; i++)
        {
          const IvLodItem *it = &g_array_index (f->items, IvLodItem, i);
          double x0, x1, w;
          if (f->buckets->data[i] != b)
            continue;
          x0 = floor (MAX (timeline_x (L, it->start_ns), L->plot_x - 1));
          x1 = ceil (MIN (timeline_x (L, it->end_ns), L->plot_x + L->plot_w + 1));
          w = MAX (1, x1 - x0);
          any = TRUE;
          /* Items come in time order: a narrow box touching the run before it extends
           * it — the same pixels, a fraction of the boxes to fill in a dense row. */
          if (w <= 4 && run_x1 >= x0)
            {
              run_x1 = MAX (run_x1, x0 + w);
              continue;
            }
          /* (a run ends where this box starts: boxes that never overlap are filled
           * without cairo's sweep over overlapping rectangles) */
          if (run_x1 > run_x0)
            cairo_rectangle (cr, run_x0, y + 1, MAX (1, MIN (run_x1, x0) - run_x0), ROW_H - 2);
          run_x1 = -1;
          if (w <= 4)
            {
              run_x0 = x0, run_x1 = x0 + w;
              continue;
            }
          /* Neighbours of one colour stay apart by a pixel once there is room. */
          cairo_rectangle (cr, x0, y + 1, w - 1, ROW_H - 2);
        }
      if (run_x1 > run_x0)
        cairo_rectangle (cr, run_x0, y + 1, run_x1 - run_x0, ROW_H - 2);
      if (!any)
        continue;
      fill = iv_color_slot_color (f->options->theme, b % IV_COLOR_SLOTS);
      if (b >= IV_COLOR_SLOTS)
        fill.a = 0.55;
      /* Whole-pixel rectangles need no antialiasing, and a zoomed-out row of them fills
       * several times faster without it. */
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
      iv_color_set_source (cr, &fill);
      cairo_fill (cr);
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
    }
}

/* Names on the slices wide enough to carry one, in the ink that reads on their colour. */
static void
label_row (Frame *f, double y)
{
  const IvTimelineLayout *L = &f->L;

  for (guint i = 0; i < f->items->len; i++)
    {
      const IvLodItem *it = &g_array_index (f->items, IvLodItem, i);
      double x0, x1;
      IvColor fill, ink;
      if (it->count != 1)
        continue;
      x0 = MAX (timeline_x (L, it->start_ns), L->plot_x - 1);
      x1 = MIN (timeline_x (L, it->end_ns), L->plot_x + L->plot_w + 1);
      if (x1 - x0 < 28)
        continue;
      fill = iv_color_slot_color (f->options->theme, palette_slot (f->fig, &f->slots, it->slice));
      ink = iv_color_ink_for (&fill);
      if (iv_trace_slice_is_open (f->t, it->slice))
        {
          /* what did not end says so: its length is only "until the trace stopped" */
          g_autofree char *label = g_strdup_printf (_ ("%s (did not end)"),
                                                    iv_trace_string (f->t, f->t->name[it->slice]));
          f->text.allow = IV_TEXT_MAY_ELLIPSIZE | IV_TEXT_MAY_OVERLAP;
          frame_text_show (f, label, x0 + 3, y + ROW_H / 2, 0, 0.5, 0.8, FALSE, x1 - x0 - 6, &ink);
          f->text.allow = 0;
          continue;
        }
      /* a slice's name inside its bar, as much of it as the bar holds (hovering names
       * it in full); a bar starting left of the view has its name cut at the view's edge */
      f->text.allow = IV_TEXT_MAY_ELLIPSIZE | IV_TEXT_MAY_OVERLAP;
      frame_text_show (f, iv_trace_string (f->t, f->t->name[it->slice]), x0 + 3, y + ROW_H / 2, 0,
                       0.5, 0.8, FALSE, x1 - x0 - 6, &ink);
      f->text.allow = 0;
    }
}

/* Spans that did not end are drawn to the end of the trace with an open end: their right
 * edge torn into teeth of the background's colour, so a bar that merely reaches the end
 * is not read as one that stopped there. */
static void
mark_open_ends (Frame *f, double y)
{
  const IvTimelineLayout *L = &f->L;
  gboolean any = FALSE;

  if (!f->t->open_bits)
    return;
  for (guint i = 0; i < f->items->len; i++)
    {
      const IvLodItem *it = &g_array_index (f->items, IvLodItem, i);
      double x1, x0, h = ROW_H - 2;
      if (it->count != 1 || !iv_trace_slice_is_open (f->t, it->slice))
        continue;
      x1 = ceil (timeline_x (L, it->end_ns));
      x0 = floor (MAX (timeline_x (L, it->start_ns), L->plot_x - 1));
      if (x1 > L->plot_x + L->plot_w + 1 || x1 - x0 < 4)
        continue;
      /* three teeth cut into the bar's last pixels */
      for (int k = 0; k < 3; k++)
        {
          double ty = y + 1 + k * h / 3;
          cairo_move_to (f->cr, x1 + 0.5, ty);
          cairo_line_to (f->cr, x1 - MIN (5, x1 - x0 - 1), ty + h / 6);
          cairo_line_to (f->cr, x1 + 0.5, ty + h / 3);
          cairo_close_path (f->cr);
        }
      any = TRUE;
    }
  if (any)
    {
      iv_color_set_source (f->cr, &f->colors->background);
      cairo_fill (f->cr);
    }
}

/* One row at the plot's width: its level-of-detail items, filled, then named. */
static void
draw_row (Frame *f, guint row, double y)
{
  guint present;
  GArray *own_items = f->items;
  GByteArray *own_buckets = f->buckets;

  if (!f->cache || !_iv_timeline_cache_row (f->cache, row, &f->items, &f->buckets, &present))
    {
      g_array_set_size (f->items, 0);
      iv_trace_lod_row (f->t, row, f->L.t0_ns, f->L.t1_ns, f->L.plot_w, f->items);
      present = bucket_items (f);
      if (f->cache)
        {
          /* the cache takes the row's arrays; the frame goes on with new ones */
          _iv_timeline_cache_keep_row (f->cache, row, f->items, f->buckets, present);
          own_items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
          own_buckets = g_byte_array_new ();
        }
    }
  if (f->raster.line)
    row_raster_draw (&f->raster, f->cr, &f->L, f->items, f->buckets->data, f->bucket_argb, y + 1,
                     ROW_H - 2);
  else
    fill_row_vector (f, present, y);
  mark_open_ends (f, y);
  label_row (f, y);
  f->items = own_items, f->buckets = own_buckets;
}

/* How the gutter names a GPU track's group of rows. */
static const char *
row_kind_label (guint kind)
{
  switch (kind)
    {
    case IV_ROW_GPU_ANNOTATION:
      return _ ("annotations");
    case IV_ROW_GPU_WORK:
      return _ ("kernels");
    case IV_ROW_GPU_SYNC:
      return _ ("syncs");
    case IV_ROW_GPU_OTHER:
      return _ ("other");
    default:
      return "";
    }
}

/* Rows: track names in the gutter, the slices clipped to the plot. */
static void
draw_tracks (Frame *f)
{
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;

  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      double ty;
      if (tr->n_rows == 0)
        continue; /* counter tracks: each series is named by draw_counters */
      ty = g_array_index (L->row_y, double, tr->first_row);
      if (ty < 0)
        continue;
      /* "ThreadPoolForegroundWorker (13571)": the tid at the end tells the rows apart */
      f->text.middle = TRUE;
      f->text.allow = IV_TEXT_MAY_ELLIPSIZE;
      frame_text_show (f, tr->name ? tr->name : tr->key, PAD + 8, ty + ROW_H / 2, 0, 0.5, 0.85,
                       FALSE, f->L.plot_x - PAD - 14, &f->colors->foreground_dim);
      f->text.allow = 0;
      f->text.middle = FALSE;
      /* A GPU track's row groups, named where each begins: its kernels are a list (rows
       * below the first hold those overlapping it), annotations and syncs apart */
      if (tr->kind == IV_TRACK_GPU)
        for (guint r = 1; r < tr->n_rows; r++)
          {
            const IvRow *row = &g_array_index (t->rows, IvRow, tr->first_row + r);
            const IvRow *prev = &g_array_index (t->rows, IvRow, tr->first_row + r - 1);
            double ry = g_array_index (L->row_y, double, tr->first_row + r);
            if (ry < 0 || row->kind == prev->kind)
              continue;
            frame_text_show (f, row_kind_label (row->kind), PAD + 20, ry + ROW_H / 2, 0, 0.5, 0.75,
                             FALSE, f->L.plot_x - PAD - 26, &f->colors->foreground_dim);
          }
      cairo_save (f->cr);
      cairo_rectangle (f->cr, L->plot_x, 0, L->plot_w, f->height);
      cairo_clip (f->cr);
      for (guint r = 0; r < tr->n_rows; r++)
        {
          double y = g_array_index (L->row_y, double, tr->first_row + r);
          if (y < 0)
            break;
          draw_row (f, tr->first_row + r, y);
        }
      cairo_restore (f->cr);
    }
}

/* One counter series as a step area scaled to its own maximum, one column per pixel
 * holding the largest value in it, named with that maximum in the gutter. */
static void
draw_counter (Frame *f, const IvCounterSeries *se, double sy)
{
  cairo_t *cr = f->cr;
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;
  double top = MAX (se->max, 0), px_prev, v, col_max, base, scale;
  gsize a = se->first, b = se->first + se->n, lo = a, hi = b;
  IvColor fill = iv_palette_color (
      f->options->theme, iv_palette_index_for (iv_trace_string (t, se->name)) % IV_PALETTE_SIZE);
  const char *name = iv_trace_string (t, se->name);
  /* a memory curve (Kineto's [memory] events) in bytes, its peak marked */
  gboolean bytes = g_str_has_prefix (name, "memory · ");
  /* and a stream's queue length (iv-trace-queue.h): its peak marked the same way */
  gboolean peaked = bytes || g_str_has_prefix (name, "queue · ");
  g_autofree char *max
      = bytes ? iv_units_format_bytes (se->max) : iv_units_format_si (se->max, NULL);
  /* a peak is written at its notch: the gutter keeps the name whole */
  g_autofree char *label = peaked ? g_strdup (name) : g_strdup_printf ("%s (max %s)", name, max);
  double peak_x = -1;

  iv_text_show (&f->text, cr, label, PAD + 8, sy + COUNTER_H / 2, 0, 0.5, 0.8, FALSE,
                f->L.plot_x - PAD - 14, &f->colors->foreground_dim);
  /* The last sample at or before the view's start holds the value there. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (t->sample_ns[mid] <= L->t0_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  cairo_save (cr);
  cairo_rectangle (cr, L->plot_x, sy, L->plot_w, COUNTER_H);
  cairo_clip (cr);
  cairo_move_to (cr, L->plot_x, sy + COUNTER_H - 1);
  /* @v is the level (the last sample's value); a column with samples is drawn at its
   * highest, the level it starts at included, and the level after it is its last value:
   * a queue back at 0 within the pixel is drawn at 0 up to the next change, not at the
   * column's peak */
  v = lo > a ? t->sample_value[lo - 1] : 0, col_max = v;
  base = sy + COUNTER_H - 1, scale = top > 0 ? (COUNTER_H - 4) / top : 0;
  px_prev = L->plot_x;
  cairo_line_to (cr, L->plot_x, base - MAX (0, v) * scale);
  for (gsize j = lo; j < b && t->sample_ns[j] <= L->t1_ns; j++)
    {
      double x = floor (iv_timeline_x (L, t->sample_ns[j]));
      if (peak_x < 0 && t->sample_value[j] == se->max)
        peak_x = x;
      if (x > px_prev)
        {
          cairo_line_to (cr, px_prev + 1, base - MAX (0, col_max) * scale);
          cairo_line_to (cr, px_prev + 1, base - MAX (0, v) * scale);
          cairo_line_to (cr, x, base - MAX (0, v) * scale);
          px_prev = x;
          col_max = MAX (v, t->sample_value[j]);
        }
      else
        col_max = MAX (col_max, t->sample_value[j]);
      v = t->sample_value[j];
      cairo_line_to (cr, x, base - MAX (0, col_max) * scale);
    }
  cairo_line_to (cr, px_prev + 1, base - MAX (0, col_max) * scale);
  cairo_line_to (cr, px_prev + 1, base - MAX (0, v) * scale);
  cairo_line_to (cr, L->plot_x + L->plot_w, base - MAX (0, v) * scale);
  cairo_line_to (cr, L->plot_x + L->plot_w, base);
  cairo_close_path (cr);
  fill.a = 0.6;
  iv_color_set_source (cr, &fill);
  cairo_fill (cr);
  if (peaked && peak_x >= L->plot_x)
    {
      /* where the curve peaked: a notch above its top */
      cairo_move_to (cr, peak_x - 4, sy);
      cairo_line_to (cr, peak_x + 4, sy);
      cairo_line_to (cr, peak_x, sy + 5);
      cairo_close_path (cr);
      iv_color_set_source (cr, &f->colors->foreground);
      cairo_fill (cr);
    }
  cairo_restore (cr);
  if (peaked && peak_x >= L->plot_x)
    {
      g_autofree char *peak = g_strdup_printf ("peak %s", max);
      /* right of the notch, or left of it near the view's right edge */
      gboolean left = peak_x > L->plot_x + L->plot_w - 120;
      iv_text_show (&f->text, cr, peak, left ? peak_x - 7 : peak_x + 7, sy + 6, left ? 1 : 0, 0.5,
                    0.75, FALSE, 0, &f->colors->foreground);
    }
}

static void
draw_counters (Frame *f)
{
  for (guint i = 0; i < f->t->series->len; i++)
    {
      const IvCounterSeries *se = &g_array_index (f->t->series, IvCounterSeries, i);
      double sy = g_array_index (f->L.series_y, double, i);
      if (sy >= 0 && se->n > 0)
        draw_counter (f, se, sy);
    }
}

/* The area selection: the range shaded in the accent colour, edges drawn. */
static void
draw_area (Frame *f)
{
  const IvTimelineLayout *L = &f->L;
  double x0 = MAX (iv_timeline_x (L, f->fig->area_t0_ns), L->plot_x);
  double x1 = MIN (iv_timeline_x (L, f->fig->area_t1_ns), L->plot_x + L->plot_w);
  IvColor shade = f->colors->accent;

  if (f->fig->area_t1_ns <= f->fig->area_t0_ns || x1 <= x0)
    return;
  shade.a = 0.15;
  iv_color_set_source (f->cr, &shade);
  cairo_rectangle (f->cr, x0, TITLE_H, x1 - x0, f->height - TITLE_H);
  cairo_fill (f->cr);
  iv_color_set_source (f->cr, &f->colors->accent);
  cairo_rectangle (f->cr, x0, TITLE_H, 1, f->height - TITLE_H);
  cairo_rectangle (f->cr, x1 - 1, TITLE_H, 1, f->height - TITLE_H);
  cairo_fill (f->cr);
}

/* Search matches: an accent bar under each one in view, at least a pixel wide, so a
 * match shows even when merged into a run. (A slice that starts before the view may
 * reach into it, so every match is looked at; that is a few ms for a million.) */
static void
draw_matches (Frame *f)
{
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;
  const gsize *m;

  if (!f->fig->matches || f->fig->matches->len == 0)
    return;
  m = (const gsize *) f->fig->matches->data;
  iv_color_set_source (f->cr, &f->colors->accent);
  cairo_set_antialias (f->cr, CAIRO_ANTIALIAS_NONE);
  for (guint i = 0; i < f->fig->matches->len && t->start_ns[m[i]] <= L->t1_ns; i++)
    {
      gsize sl = m[i];
      double sy = g_array_index (L->row_y, double, t->row[sl]);
      double x0, x1;
      if (sy < 0 || t->start_ns[sl] + t->dur_ns[sl] < L->t0_ns)
        continue;
      x0 = floor (MAX (iv_timeline_x (L, t->start_ns[sl]), L->plot_x));
      x1 = ceil (MIN (iv_timeline_x (L, t->start_ns[sl] + t->dur_ns[sl]), L->plot_x + L->plot_w));
      cairo_rectangle (f->cr, x0, sy + ROW_H - 4, MAX (1, x1 - x0), 3);
    }
  cairo_fill (f->cr);
  cairo_set_antialias (f->cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* The selection: outlined in the text colour, at least 3 px wide so it can be seen. */
static void
draw_selection (Frame *f)
{
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;
  gsize s = f->fig->selected;
  double sy, x0, x1;

  if (s >= t->n_slices || (sy = g_array_index (L->row_y, double, t->row[s])) < 0)
    return;
  x0 = MAX (iv_timeline_x (L, t->start_ns[s]), L->plot_x - 2);
  x1 = MIN (iv_timeline_x (L, t->start_ns[s] + t->dur_ns[s]), L->plot_x + L->plot_w + 2);
  if (x1 - x0 < 3)
    x0 -= 1.5, x1 += 1.5;
  iv_color_set_source (f->cr, &f->colors->foreground);
  cairo_set_line_width (f->cr, 2);
  cairo_rectangle (f->cr, x0, sy + 0.5, x1 - x0, ROW_H - 1);
  cairo_stroke (f->cr);
}

/* Slices linked to the hovered or selected one (one collective instance on every rank):
 * outlined in the accent colour, at least 3 px wide, so each rank's part shows. */
static void
draw_linked (Frame *f)
{
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;

  if (!f->fig->linked || f->fig->linked->len == 0)
    return;
  iv_color_set_source (f->cr, &f->colors->accent);
  cairo_set_line_width (f->cr, 2);
  for (guint i = 0; i < f->fig->linked->len; i++)
    {
      gsize s = g_array_index (f->fig->linked, gsize, i);
      double sy, x0, x1;
      if (s >= t->n_slices || (sy = g_array_index (L->row_y, double, t->row[s])) < 0
          || t->start_ns[s] > L->t1_ns || t->start_ns[s] + t->dur_ns[s] < L->t0_ns)
        continue;
      x0 = MAX (iv_timeline_x (L, t->start_ns[s]), L->plot_x - 2);
      x1 = MIN (iv_timeline_x (L, t->start_ns[s] + t->dur_ns[s]), L->plot_x + L->plot_w + 2);
      if (x1 - x0 < 3)
        x0 -= 1.5, x1 += 1.5;
      cairo_rectangle (f->cr, x0, sy + 0.5, x1 - x0, ROW_H - 1);
    }
  cairo_stroke (f->cr);
}

/* The selection's flows (or all of them), in and out: a curve from where the flow
 * leaves to where it enters, with an arrowhead. */
static void
draw_flows (Frame *f)
{
  cairo_t *cr = f->cr;
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;
  const IvTimelineFigure *fig = f->fig;

  if (fig->selected >= t->n_slices && !fig->all_flows)
    return;
  for (guint i = 0; i < t->flows->len; i++)
    {
      const IvFlow *fl = &g_array_index (t->flows, IvFlow, i);
      const double a = 0.45;
      double x0, y0, x1, y1;
      if ((!fig->all_flows && fl->from != fig->selected && fl->to != fig->selected)
          || fl->from >= t->n_slices || fl->to >= t->n_slices || fl->to_ns < L->t0_ns
          || fl->from_ns > L->t1_ns)
        continue;
      y0 = g_array_index (L->row_y, double, t->row[fl->from]);
      y1 = g_array_index (L->row_y, double, t->row[fl->to]);
      if (y0 < 0 || y1 < 0)
        continue;
      x0 = iv_timeline_x (L, fl->from_ns), y0 += ROW_H / 2;
      x1 = iv_timeline_x (L, fl->to_ns), y1 += ROW_H / 2;
      iv_color_set_source (cr, &f->colors->foreground);
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0 + 30, y0, x1 - 30, y1, x1, y1);
      cairo_stroke (cr);
      /* The curve arrives horizontally from the left: the head points right. */
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 7 * cos (a), y1 - 7 * sin (a));
      cairo_line_to (cr, x1 - 7 * cos (a), y1 + 7 * sin (a));
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

/* Instants: a small downward triangle at the top of their track (global ones on the ruler). */
static void
draw_instants (Frame *f)
{
  const IvTrace *t = f->t;
  const IvTimelineLayout *L = &f->L;

  for (guint i = 0; i < t->instants->len; i++)
    {
      const IvInstant *in = &g_array_index (t->instants, IvInstant, i);
      double x = iv_timeline_x (L, in->ts_ns), y;
      if (in->ts_ns < L->t0_ns || in->ts_ns > L->t1_ns)
        continue;
      if (in->track == G_MAXUINT)
        y = TITLE_H + RULER_H - 8;
      else
        {
          const IvTrack *tr = &g_array_index (t->tracks, IvTrack, in->track);
          if (tr->n_rows == 0 || g_array_index (L->row_y, double, tr->first_row) < 0)
            continue;
          y = g_array_index (L->row_y, double, tr->first_row);
        }
      iv_color_set_source (f->cr, &f->colors->foreground);
      cairo_move_to (f->cr, x - 4, y);
      cairo_line_to (f->cr, x + 4, y);
      cairo_line_to (f->cr, x, y + 7);
      cairo_close_path (f->cr);
      cairo_fill (f->cr);
    }
}

/* An export that could not show every row says so on its last line. */
static void
draw_cut_note (Frame *f)
{
  g_autofree char *note = NULL;

  if (!f->fig->note_cut || f->L.cut_tracks == 0)
    return;
  note = g_strdup_printf (g_dngettext (NULL, "%u more track in %u process not shown",
                                       "%u more tracks in %u processes not shown", f->L.cut_tracks),
                          f->L.cut_tracks, f->L.cut_processes);
  iv_color_set_source (f->cr, &f->colors->background);
  cairo_rectangle (f->cr, 0, f->height - NOTE_H - PAD / 2, f->width, NOTE_H + PAD / 2);
  cairo_fill (f->cr);
  iv_text_show (&f->text, f->cr, note, PAD, f->height - PAD / 2 - NOTE_H / 2, 0, 0.5, 0.95, TRUE,
                f->width - 2 * PAD, &f->colors->foreground_dim);
}

gboolean
iv_render_timeline (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  const IvTimelineFigure *fig = data;
  Frame f;

  if (!fig || !fig->trace)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no trace to draw");
      return FALSE;
    }
  frame_init (&f, cr, fig, options, width, height);
  cairo_save (cr);
  iv_color_set_source (cr, &f.colors->background);
  cairo_paint (cr);
  draw_title (&f);
  draw_ruler (cr, &f.text, f.cache, f.colors, &f.L, f.t, height);
  draw_headers (&f);
  draw_tracks (&f);
  draw_counters (&f);
  /* What is marked goes over what is drawn, the selection over the matches. */
  draw_area (&f);
  draw_matches (&f);
  draw_linked (&f);
  draw_selection (&f);
  draw_flows (&f);
  draw_instants (&f);
  draw_cut_note (&f);
  cairo_restore (cr);
  frame_clear (&f);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
