/* iv-timeline-cache.c: the timeline's frame cache (see the header; § The timeline's
 * frame cache in docs/architecture.md).
 *
 * Rows: kept for exactly the range, plot width and colouring they were made for, so a
 * kept row is the row the level of detail would give again.
 *
 * Names: a bar's name is set by Pango at the bar's width, ellipsized at the end when it
 * does not fit. What Pango draws for a width depends on the width only through which
 * text is kept: Pango removes clusters from the end until the rest and the ellipsis fit
 * (pango/ellipsize.c, a greedy loop whose stopping width falls as the gap grows), so the
 * kept text is a step function of the width, falling as the width does. Hence, per
 * string and font, every outcome seen is kept with the narrowest and widest width it
 * was seen at, and any width between them gives it again; a string seen whole at some
 * width is whole at any wider one. Only what that argument covers is reused across
 * widths: one left-to-right line, no attributes (a symbol's subscript shapes its own
 * run), ellipsized at the end and placed by its left edge (the ellipsis is padded to
 * the width, which moves a right-aligned string and the tail of a middle-ellipsized
 * one). Anything else is reused at its exact width only. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-timeline-cache.h"

#include <string.h>

/* Layouts kept before the names start over: a trace with more distinct names shown than
 * this lays the others out again (a layout is a few kB). */
#define MAX_VARIANTS 8192

typedef enum
{
  WHOLE,   /* not ellipsized: the same at any width from lo up, and with none */
  CUT,     /* ellipsized at the end to the glyphs @glyphs: the same from lo to hi */
  EXACT_W, /* only at width lo (-1: none) */
} Kind;

typedef struct
{
  Kind kind;
  int lo, hi;     /* widths in Pango units it was seen at (WHOLE: lo only; G_MAXINT: none) */
  guint64 glyphs; /* CUT: the glyphs drawn, hashed with their count */
  PangoLayout *layout;
  double w, h;
} Variant;

typedef struct
{
  char *str;
  double size; /* px, the scale applied */
  gboolean bold, middle;
  GArray *variants; /* Variant */
} TextEntry;

typedef struct
{
  GArray *items;
  GByteArray *buckets;
  guint present;
} Row;

struct _IvTimelineCache
{
  /* rows */
  const IvTrace *trace;
  gint64 t0_ns, t1_ns;
  double plot_w;
  gboolean by_category;
  GPtrArray *rows; /* Row *, per trace row, or NULL */
  /* names */
  PangoFontMap *fontmap;
  PangoContext *context;
  cairo_matrix_t matrix;         /* of the context's cairo_t, translation aside */
  cairo_font_options_t *options; /* its target's, merged with its own */
  GHashTable *texts;             /* TextEntry * → itself */
  guint n_variants;
  IvTimelineCacheStats stats;
};

static void
row_free (gpointer data)
{
  Row *r = data;
  if (!r)
    return;
  g_array_unref (r->items);
  g_byte_array_unref (r->buckets);
  g_free (r);
}

static void
text_entry_free (gpointer data)
{
  TextEntry *e = data;
  for (guint i = 0; i < e->variants->len; i++)
    g_object_unref (g_array_index (e->variants, Variant, i).layout);
  g_array_unref (e->variants);
  g_free (e->str);
  g_free (e);
}

static guint
text_hash (gconstpointer key)
{
  const TextEntry *e = key;
  gint64 size_bits = (gint64) (e->size * 1024);
  return g_str_hash (e->str) ^ (guint) size_bits * 31u ^ (guint) e->bold * 2u ^ (guint) e->middle;
}

static gboolean
text_equal (gconstpointer a, gconstpointer b)
{
  const TextEntry *x = a, *y = b;
  return x->size == y->size && x->bold == y->bold && x->middle == y->middle
         && strcmp (x->str, y->str) == 0;
}

IvTimelineCache *
iv_timeline_cache_new (void)
{
  IvTimelineCache *c = g_new0 (IvTimelineCache, 1);

  c->rows = g_ptr_array_new_with_free_func (row_free);
  c->texts = g_hash_table_new_full (text_hash, text_equal, NULL, text_entry_free);
  return c;
}

static void
forget_texts (IvTimelineCache *c)
{
  g_hash_table_remove_all (c->texts);
  c->n_variants = 0;
}

void
iv_timeline_cache_reset (IvTimelineCache *c)
{
  g_return_if_fail (c != NULL);
  c->trace = NULL;
  g_ptr_array_set_size (c->rows, 0);
  forget_texts (c);
  g_clear_object (&c->context);
  g_clear_pointer (&c->options, cairo_font_options_destroy);
  c->fontmap = NULL;
}

void
iv_timeline_cache_free (IvTimelineCache *c)
{
  if (!c)
    return;
  iv_timeline_cache_reset (c);
  g_ptr_array_unref (c->rows);
  g_hash_table_unref (c->texts);
  g_free (c);
}

void
iv_timeline_cache_get_stats (const IvTimelineCache *c, IvTimelineCacheStats *stats)
{
  *stats = c->stats;
}

void
_iv_timeline_cache_begin (IvTimelineCache *c, cairo_t *cr, const IvTrace *trace, gint64 t0_ns,
                          gint64 t1_ns, double plot_w, gboolean by_category)
{
  PangoFontMap *fontmap = pango_cairo_font_map_get_default ();

  if (trace != c->trace || t0_ns != c->t0_ns || t1_ns != c->t1_ns || plot_w != c->plot_w
      || by_category != c->by_category)
    {
      g_ptr_array_set_size (c->rows, 0);
      c->trace = trace, c->t0_ns = t0_ns, c->t1_ns = t1_ns, c->plot_w = plot_w;
      c->by_category = by_category;
    }
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *own = cairo_font_options_create ();
  cairo_matrix_t m;

  /* The layouts are made in a context set up from @cr as pango_cairo_create_layout sets
   * up the one iv_text_init makes each frame: the thread's default font map, and what
   * pango_cairo_update_context reads of @cr (its target's font options merged with its
   * own, its matrix without the translation). When any of that changes, the context is
   * set up again and every layout made before goes. The context is not updated when
   * nothing changed: Pango counts every update as a change, and each layout would then
   * be laid out again on its next use. */
  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, own);
  cairo_font_options_merge (options, own);
  cairo_font_options_destroy (own);
  cairo_get_matrix (cr, &m);
  m.x0 = m.y0 = 0;
  if (fontmap != c->fontmap || !c->context || !c->options
      || !cairo_font_options_equal (options, c->options) || memcmp (&m, &c->matrix, sizeof m) != 0)
    {
      forget_texts (c);
      g_clear_object (&c->context);
      g_clear_pointer (&c->options, cairo_font_options_destroy);
      c->fontmap = fontmap;
      c->context = pango_cairo_create_context (cr);
      c->options = g_steal_pointer (&options);
      c->matrix = m;
    }
  if (options)
    cairo_font_options_destroy (options);
}

gboolean
_iv_timeline_cache_row (IvTimelineCache *c, guint row, GArray **items, GByteArray **buckets,
                        guint *present)
{
  Row *r = row < c->rows->len ? c->rows->pdata[row] : NULL;

  if (!r)
    return FALSE;
  *items = r->items, *buckets = r->buckets, *present = r->present;
  c->stats.rows_hit++;
  return TRUE;
}

void
_iv_timeline_cache_keep_row (IvTimelineCache *c, guint row, GArray *items, GByteArray *buckets,
                             guint present)
{
  Row *r = g_new (Row, 1);

  *r = (Row){ items, buckets, present };
  if (row >= c->rows->len)
    g_ptr_array_set_size (c->rows, row + 1);
  row_free (c->rows->pdata[row]);
  c->rows->pdata[row] = r;
  c->stats.rows_made++;
}

/* The glyphs of @layout's first line, hashed with their count: one value per text
 * Pango keeps (each cluster removed takes a glyph or more with it). */
static guint64
glyphs_of (PangoLayout *layout)
{
  PangoLayoutLine *line = pango_layout_get_line_readonly (layout, 0);
  guint64 h = 14695981039346656037ull, n = 0;

  for (GSList *l = line ? line->runs : NULL; l; l = l->next)
    {
      const PangoGlyphItem *run = l->data;
      for (int i = 0; i < run->glyphs->num_glyphs; i++, n++)
        h = (h ^ run->glyphs->glyphs[i].glyph) * 1099511628211ull;
    }
  return h ^ n << 48;
}

/* Whether a variant gives what Pango would at width @w (-1: none). */
static gboolean
variant_fits (const Variant *v, int w)
{
  switch (v->kind)
    {
    case WHOLE:
      return w < 0 || w >= v->lo;
    case CUT:
      return w >= v->lo && w <= v->hi;
    case EXACT_W:
    default:
      return w == v->lo;
    }
}

PangoLayout *
_iv_timeline_cache_text (IvTimelineCache *c, const IvText *proto, const char *str, double scale,
                         gboolean bold, double max_width, double xalign, double *width,
                         double *height)
{
  TextEntry probe
      = { (char *) (str ? str : ""), proto->size_px * scale, bold, proto->middle, NULL };
  /* the width as iv-text.c hands it to Pango */
  int w = max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1;
  TextEntry *e;
  IvText made;
  Variant v = { 0 };
  PangoLayoutLine *line;
  gboolean one_ltr_line, plain;

  if (!c->context || (xalign != 0 && w >= 0))
    return NULL;
  e = g_hash_table_lookup (c->texts, &probe);
  for (guint i = 0; e && i < e->variants->len; i++)
    {
      const Variant *k = &g_array_index (e->variants, Variant, i);
      if (variant_fits (k, w))
        {
          c->stats.texts_hit++;
          *width = k->w, *height = k->h;
          return k->layout;
        }
    }
  /* laid out here as iv_text_measure lays out the frame's own */
  made = (IvText){ pango_layout_new (c->context), proto->size_px, proto->middle, proto->allow };
  iv_text_measure (&made, probe.str, scale, bold, max_width, &v.w, &v.h);
  v.layout = made.layout;
  c->stats.texts_made++;
  line = pango_layout_get_line_readonly (v.layout, 0);
  one_ltr_line = pango_layout_get_line_count (v.layout) == 1 && line
                 && line->resolved_dir == PANGO_DIRECTION_LTR;
  plain = pango_layout_get_attributes (v.layout) == NULL;
  if (one_ltr_line && !pango_layout_is_ellipsized (v.layout))
    v.kind = WHOLE, v.lo = w < 0 ? G_MAXINT : w;
  else if (one_ltr_line && plain && !proto->middle && w >= 0)
    v.kind = CUT, v.lo = v.hi = w, v.glyphs = glyphs_of (v.layout);
  else
    v.kind = EXACT_W, v.lo = v.hi = w;
  *width = v.w, *height = v.h;
  if (c->n_variants >= MAX_VARIANTS)
    forget_texts (c);
  if (!(e = g_hash_table_lookup (c->texts, &probe)))
    {
      e = g_new (TextEntry, 1);
      *e = probe;
      e->str = g_strdup (probe.str);
      e->variants = g_array_new (FALSE, FALSE, sizeof (Variant));
      g_hash_table_add (c->texts, e);
    }
  /* the same outcome seen at another width: every width between gives it too (the kept
   * layout stands for them; the new one goes) */
  for (guint i = 0; i < e->variants->len; i++)
    {
      Variant *k = &g_array_index (e->variants, Variant, i);
      if (k->kind != v.kind || (v.kind == CUT && k->glyphs != v.glyphs) || v.kind == EXACT_W)
        continue;
      k->lo = MIN (k->lo, v.lo), k->hi = MAX (k->hi, v.hi);
      g_object_unref (v.layout);
      *width = k->w, *height = k->h;
      return k->layout;
    }
  g_array_append_val (e->variants, v);
  c->n_variants++;
  return v.layout;
}
