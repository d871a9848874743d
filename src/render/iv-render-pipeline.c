/* iv-render-pipeline.c: the per-layer pipeline of one PE, the Model workspace's main
 * figure: an attention row S1 → … → S10 → C2 (wrapped before S5 when the boxes would be
 * too narrow to read) and an FFN row F1 → … → F5 → CF1, each box
 * filled by what bounds it and labelled with its visible time; the CP exchanges that run
 * under the attention core drawn above it, and the ring-attention loop as an arc. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-model.h"

#include <math.h>

#include "iv-text.h"
#include "iv-units.h"

#define PAD IV_FIGURE_PAD
#define LABEL_W 118.0
#define GAP 14.0
#define ROW_GAP 34.0
#define ARC_H 46.0
/* … and on a narrow page, where boxes hold only stage ids */
#define NARROW_GAP 7.0
#define NARROW_ROW_GAP 30.0
#define NARROW_ARC_H 40.0
#define NARROW_MIN_BOX_W 24.0
#define KEY_SCALE 0.8 /* the stage ids' key */

static const char *const short_names[IV_N_STAGES] = {
  "RMSNorm",  "W_Q",  "W_K+W_V", "KV append", "Q·Kᵀ",     "softmax", "P·V",    "merge",
  "norm O/l", "W_O",  "CP ring", "TP AR",     "score AR", "RMSNorm", "router", "EP send",
  "W_gate",   "W_up", "SwiGLU",  "W_down",    "EP back",  "FFN AR",
};

const char *
iv_stage_short_name (IvStageId stage)
{
  return stage < IV_N_STAGES ? short_names[stage] : "";
}

guint32
iv_bound_color (IvBound bound)
{
  switch (bound)
    {
    case IV_BOUND_COMPUTE:
      return IV_BOUND_COMPUTE_RGB;
    case IV_BOUND_MEMORY:
      return IV_BOUND_MEMORY_RGB;
    case IV_BOUND_COMM:
      return IV_BOUND_COMM_RGB;
    case IV_BOUND_TRIVIAL:
    default:
      return IV_BOUND_TRIVIAL_RGB;
    }
}

/* A translucent colour flattened onto the background, for print. */
static IvColor
blend (IvColor c, const IvColor *bg, IvTheme theme)
{
  if (theme != IV_THEME_PRINT || c.a >= 1)
    return c;
  return (IvColor){ bg->r + (c.r - bg->r) * c.a, bg->g + (c.g - bg->g) * c.a,
                    bg->b + (c.b - bg->b) * c.a, 1 };
}

static const IvStageId attention_order[]
    = { IV_S1, IV_S2, IV_S3, IV_S4, IV_S5, IV_S6, IV_S7, IV_S8, IV_S9, IV_S10, IV_C2 };
static const IvStageId ffn_order[]
    = { IV_F1, IV_R, IV_A1, IV_F2, IV_F3, IV_F4, IV_F5, IV_A2, IV_CF1 };

/* Boxes narrower than this wrap the attention row before S5, so each name and time
 * still reads (the core S5–S8, its loop and its exchanges stay on one line). */
#define MIN_BOX_W 76.0
/* Boxes narrower than this set their names smaller. */
#define SMALL_BOX_W 70.0
/* Narrower figures put the row names above their rows. */
#define NARROW_W 640.0

/* Places the shown stages of @order[from, to) left to right from @x0 on @y. */
static void
place_line (IvPipelineLayout *L, const IvKindResult *k, const IvStageId *order, guint from,
            guint to, double x0, double y, double bw, double bh)
{
  double x = x0;
  for (guint i = from; i < to; i++)
    if (iv_stage_shown (k, order[i]))
      {
        L->box[order[i]] = (IvRect){ x, y, bw, bh };
        x += bw + L->gap;
      }
}

static guint
count_shown (const IvKindResult *k, const IvStageId *order, guint from, guint to)
{
  guint n = 0;
  for (guint i = from; i < to; i++)
    n += iv_stage_shown (k, order[i]);
  return n;
}

/* The title (model, mode, T_q) and the subtitle: the layer and everything else that
 * tells one export from another — batch, context, TP and CP with their placements, the
 * ring (iv_result_config_text), the hardware. A narrow page drops the local sequence from
 * the title; the subtitle wraps. */
static void
pipeline_titles (const IvResult *r, const IvKindResult *k, gboolean narrow, char **title,
                 char **subtitle)
{
  g_autofree char *config = iv_result_config_text (r);

  *title = narrow ? g_strdup_printf ("%s · %s · T_q = %" G_GINT64_FORMAT, r->model->name,
                                     iv_mode_to_string (r->config.mode), r->config.T)
                  : g_strdup_printf ("%s · %s · T_q = %" G_GINT64_FORMAT
                                     " · local sequence %.0f of %.0f",
                                     r->model->name, iv_mode_to_string (r->config.mode),
                                     r->config.T, k->sh.L_l, k->sh.L);
  *subtitle
      = g_strdup_printf ("%s layer × %" G_GINT64_FORMAT " on one %s of %s · %s", k->name, k->layers,
                         iv_hardware_is_gpu_server (r->hw) ? "GPU" : "PE", r->hw->name, config);
}

void
iv_pipeline_layout (const IvModelFigure *fig, double width, double height, IvPipelineLayout *L)
{
  const IvResult *r = fig->result;
  const IvKindResult *k = &r->kinds[MIN (fig->kind, r->n_kinds - 1)];
  const guint core = 4; /* attention_order[4] is S5 */
  guint n_att = count_shown (k, attention_order, 0, G_N_ELEMENTS (attention_order));
  guint n_ffn = count_shown (k, ffn_order, 0, G_N_ELEMENTS (ffn_order));
  guint n_head = count_shown (k, attention_order, 0, core), n_core = n_att - n_head, n;
  gboolean c1 = iv_stage_shown (k, IV_C1), c3 = iv_stage_shown (k, IV_C3), conc = c1 || c3;
  /* a narrow page (a paper's column): row names above the rows, the legend in two lines */
  gboolean narrow = width < NARROW_W;
  double top, bottom = height - PAD - 30, bw, bh;
  double x0 = PAD + (narrow ? 0 : LABEL_W), y, above, used;
  /* the rows end a box gap inside the page's margin: at PAD alone the last box (TP AR)
   * met the window's edge once the figure was drawn larger (issue 31) */
  double margin = narrow ? NARROW_GAP : GAP;
  double avail_w = width - x0 - PAD - margin;
  gboolean wrap;
  /* the exchanges' boxes, as a share of a stage box's height: on a narrow page a stage
   * box is short, and at 0.55 of it the exchange's text met its dashed border */
  double cf = narrow ? 0.8 : 0.55;

  memset (L, 0, sizeof *L);
  {
    /* under the title, the subtitle as many lines as it wraps to, measured as drawn on a
     * scratch context (the window's hit tests get the same layout) */
    cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create (scratch);
    g_autofree char *title = NULL, *subtitle = NULL;
    IvText text;
    double sub_h;
    iv_text_init (&text, cr, 13);
    pipeline_titles (r, k, narrow, &title, &subtitle);
    iv_text_measure_wrapped (&text, subtitle, 0.95, FALSE, width - 2 * PAD, NULL, &sub_h);
    iv_text_clear (&text);
    cairo_destroy (cr);
    cairo_surface_destroy (scratch);
    /* a narrow page has the rows' names above them */
    top = PAD + 24 + sub_h + (narrow ? 20 : 10);
  }
  L->gap = narrow ? NARROW_GAP : GAP;
  L->row_gap = narrow ? NARROW_ROW_GAP : ROW_GAP;
  n = MAX (n_att, n_ffn);
  wrap = n_head > 0 && (avail_w - (n - 1) * L->gap) / n < (narrow ? NARROW_MIN_BOX_W : MIN_BOX_W);
  if (wrap)
    n = MAX (MAX (n_head, n_core), n_ffn);
  /* unless that margin alone would set the names smaller: legible names come first */
  if ((avail_w - (n - 1) * L->gap) / n < SMALL_BOX_W
      && (avail_w + margin - (n - 1) * L->gap) / n >= SMALL_BOX_W)
    avail_w += margin;
  bw = MAX (20, (avail_w - (n - 1) * L->gap) / n);
  L->has_arc = r->config.c > 1;
  /* what sits above the core's line: the loop, then the exchanges (cf of a box) */
  above = (L->has_arc ? (narrow ? NARROW_ARC_H : ARC_H) : 0) + (conc ? 8 : 0);
  bh = (bottom - top - above - L->row_gap * (wrap ? 2 : 1)) / ((wrap ? 3 : 2) + (conc ? cf : 0));
  bh = CLAMP (bh, narrow ? 20 : 28, 92);
  used = above + (conc ? cf * bh : 0) + (wrap ? 3 : 2) * bh + L->row_gap * (wrap ? 2 : 1);
  /* Boxes stop growing at 92 px; centre what is left between the title and the legend. */
  top += MAX (0, (bottom - top - used) / 2);

  y = top;
  if (wrap)
    {
      place_line (L, k, attention_order, 0, core, x0, y, bw, bh);
      y += bh + L->row_gap;
    }
  {
    double core_top = y;
    y += above + (conc ? cf * bh : 0);
    place_line (L, k, attention_order, wrap ? core : 0, G_N_ELEMENTS (attention_order), x0, y, bw,
                bh);
    L->attention_row = (IvRect){ x0, wrap ? top : y, avail_w, y + bh - (wrap ? top : y) };
    if (L->has_arc)
      {
        IvRect s5 = L->box[IV_S5], s8 = L->box[IV_S8];
        L->arc = (IvRect){ s5.x + s5.w / 2, core_top + 14, s8.x + s8.w / 2 - (s5.x + s5.w / 2),
                           (narrow ? NARROW_ARC_H : ARC_H) - 14 };
      }
  }
  /* Concurrent exchanges sit above S5–S7, the attention core they overlap. */
  if (conc)
    {
      IvRect a = L->box[IV_S5], b = L->box[IV_S7];
      double cy = y - cf * bh - 8, cw = b.x + b.w - a.x;
      gboolean both = c1 && c3;
      if (c1)
        L->box[IV_C1] = (IvRect){ a.x, cy, both ? cw / 2 - L->gap / 2 : cw, cf * bh };
      if (c3)
        L->box[IV_C3] = (IvRect){ both ? a.x + cw / 2 + L->gap / 2 : a.x, cy,
                                  both ? cw / 2 - L->gap / 2 : cw, cf * bh };
    }
  y += bh + L->row_gap;
  L->ffn_row = (IvRect){ x0, y, avail_w, bh };
  place_line (L, k, ffn_order, 0, G_N_ELEMENTS (ffn_order), x0, y, bw, bh);
}

void
iv_rounded_rect (cairo_t *cr, IvRect r, double radius)
{
  radius = MIN (radius, MIN (r.w, r.h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, r.x + r.w - radius, r.y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, r.x + r.w - radius, r.y + r.h - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, r.x + radius, r.y + r.h - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, r.x + radius, r.y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
arrow (cairo_t *cr, double x0, double y0, double x1, double y1, const IvColor *c)
{
  double a = atan2 (y1 - y0, x1 - x0), s = 6;

  iv_color_set_source (cr, c);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1 - cos (a) * s * 0.8, y1 - sin (a) * s * 0.8);
  cairo_stroke (cr);
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - s * cos (a - 0.45), y1 - s * sin (a - 0.45));
  cairo_line_to (cr, x1 - s * cos (a + 0.45), y1 - s * sin (a + 0.45));
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* The scale a box's name is set at, and whether every shown name fits its box at it
 * (else every box shows its stage id: one rule for the whole figure). */
static double
name_scale (const IvRect *r)
{
  return r->w < SMALL_BOX_W ? 0.78 : 0.9;
}

static gboolean
names_fit (IvText *text, const IvPipelineLayout *L)
{
  for (int id = 0; id < IV_N_STAGES; id++)
    {
      double w, h, scale = name_scale (&L->box[id]) * 0.82;
      if (L->box[id].w <= 0 || id == IV_C1 || id == IV_C3)
        continue;
      iv_text_measure (text, short_names[id], scale, TRUE, -1, &w, &h);
      if (w > L->box[id].w - 6)
        return FALSE;
    }
  return TRUE;
}

/* Whether every box can show its visible time under its name: else none does. */
static gboolean
times_fit (IvText *text, const IvPipelineLayout *L, const IvKindResult *k)
{
  for (int id = 0; id < IV_N_STAGES; id++)
    {
      double w, h;
      g_autofree char *time = NULL;
      if (L->box[id].w <= 0 || id == IV_C1 || id == IV_C3)
        continue;
      if (L->box[id].h < 40)
        return FALSE;
      time = iv_units_format_seconds (k->stages[id].visible_s);
      iv_text_measure (text, time, name_scale (&L->box[id]) * 0.92, FALSE, -1, &w, &h);
      if (w > L->box[id].w - 6)
        return FALSE;
    }
  return TRUE;
}

static void
draw_box (cairo_t *cr, IvText *text, const IvThemeColors *colors, IvTheme theme, IvRect r,
          IvStageId id, const IvStage *st, gboolean concurrent, gboolean use_ids,
          gboolean with_time)
{
  /* An exchange hidden under compute costs nothing: drawn calm (the theme's dim ink), not
   * in its bound's colour, whose red reads as an alarm (issue 31). */
  gboolean hidden = concurrent && st->visible_s <= 0;
  IvColor fill
      = hidden ? (IvColor){ colors->foreground_dim.r, colors->foreground_dim.g,
                            colors->foreground_dim.b, 0.15 }
               : iv_theme_mark_color (theme, iv_bound_color (st->bound), concurrent ? 0.3 : 1);
  IvColor ink = st->bound == IV_BOUND_TRIVIAL && !concurrent ? (IvColor){ 0.12, 0.12, 0.12, 1 }
                : concurrent                                 ? colors->foreground
                                                             : (IvColor){ 1, 1, 1, 1 };
  g_autofree char *time = iv_units_format_seconds (st->visible_s);
  g_autofree char *label = NULL;
  const char *name = use_ids ? iv_stage_id (id) : short_names[id];
  double scale = name_scale (&r);

  if (concurrent)
    {
      g_autofree char *total = iv_units_format_seconds (st->t_s);
      double w, h;
      label = st->visible_s > 0
                  ? g_strdup_printf ("%s · %s, %s not hidden", short_names[id], total, time)
                  : g_strdup_printf ("%s · %s, hidden under compute", short_names[id], total);
      /* shorter where the box is narrow: "C1 134 µs", then "C1" */
      iv_text_measure (text, label, 0.85, FALSE, -1, &w, &h);
      if (w > r.w - 8)
        {
          g_free (label);
          label = g_strdup_printf ("%s %s", iv_stage_id (id), total);
          iv_text_measure (text, label, 0.85, FALSE, -1, &w, &h);
          if (w > r.w - 8)
            {
              g_free (label);
              label = g_strdup (iv_stage_id (id));
            }
        }
    }
  iv_rounded_rect (cr, r, 7);
  iv_color_set_source (cr, (IvColor[]){ blend (fill, &colors->background, theme) });
  cairo_fill_preserve (cr);
  if (concurrent)
    {
      static const double dash[] = { 5, 3 };
      IvColor edge = hidden ? colors->foreground_dim
                            : iv_theme_mark_color (theme, iv_bound_color (st->bound), 1);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_set_line_width (cr, 1.5);
      iv_color_set_source (cr, &edge);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      iv_text_show (text, cr, label, r.x + r.w / 2, r.y + r.h / 2, 0.5, 0.5, 0.85, FALSE, r.w - 8,
                    &ink);
      return;
    }
  cairo_new_path (cr);
  /* A name too wide for its box shrinks once (names_fit () made sure it then fits). */
  {
    double w, h;
    iv_text_measure (text, name, scale, TRUE, -1, &w, &h);
    if (w > r.w - 6)
      scale *= 0.82;
  }
  if (with_time)
    {
      iv_text_show (text, cr, name, r.x + r.w / 2, r.y + r.h / 2 - 1, 0.5, 1, scale, TRUE, r.w - 6,
                    &ink);
      iv_text_show (text, cr, st->visible_s > 0 ? time : "–", r.x + r.w / 2, r.y + r.h / 2 + 2, 0.5,
                    0, scale * 0.92, FALSE, r.w - 6, &ink);
    }
  else
    iv_text_show (text, cr, name, r.x + r.w / 2, r.y + r.h / 2, 0.5, 0.5, scale, TRUE, r.w - 6,
                  &ink);
}

/* The legend of the four bounds: full names where they fit on a line from @x0, else from
 * the left margin, else the entries flowed into as many lines as they take (a window
 * 650 px wide cut "trivial (< 1 % of the la…" off, issue 31); a narrow page has the short
 * names. Fills @x and @line (entry i at x[i] on line line[i]); returns the lines. */
#define LEGEND_LINE_H 18.0
static const char *const legend_names[]
    = { "compute-bound", "memory-bound", "communication-bound", "trivial (< 1 % of the layer)" };
static const char *const legend_short[] = { "compute", "memory", "comm.", "trivial" };

static guint
legend_flow (IvText *text, gboolean narrow, double x0, double width, double *x, guint *line)
{
  const char *const *names = narrow ? legend_short : legend_names;
  double w[4], total = 0, right = width - PAD;
  guint lines = 1;

  for (guint i = 0; i < 4; i++)
    {
      double h;
      iv_text_measure (text, names[i], 0.88, FALSE, 0, &w[i], &h);
      /* iv_text_legend_label's: a 20 px swatch before, 22 px after */
      w[i] += 20 + (i < 3 ? 22 : 0);
      total += w[i];
    }
  if (x0 + total > right)
    x0 = PAD;
  for (guint i = 0, xi = 0; i < 4; i++)
    {
      double at = xi == 0 ? x0 : x[i - 1] + w[i - 1];
      if (xi > 0 && at + w[i] - (i < 3 ? 22 : 0) > right)
        at = x0, lines++;
      x[i] = at, line[i] = lines - 1, xi = 1;
    }
  return lines;
}

/* A window much larger than the figure needs (1920 × 1080): the whole figure drawn larger,
 * up to half as large again, so it fills the height rather than two rows of boxes at
 * 92 px floating in the middle (issue 31); exports and smaller windows draw at 1. */
#define ZOOM_REF_W 900.0
#define ZOOM_REF_H 600.0

double
iv_model_figure_zoom (double width, double height)
{
  return CLAMP (MIN (width / ZOOM_REF_W, height / ZOOM_REF_H), 1.0, 1.5);
}

static gboolean pipeline_draw (cairo_t *cr, const IvModelFigure *fig,
                               const IvRenderOptions *options, double width, double height,
                               GError **error);

gboolean
iv_render_pipeline (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  double z = iv_model_figure_zoom (width, height);
  gboolean ok;

  cairo_save (cr);
  cairo_scale (cr, z, z);
  ok = pipeline_draw (cr, data, options, width / z, height / z, error);
  cairo_restore (cr);
  return ok;
}

static gboolean
pipeline_draw (cairo_t *cr, const IvModelFigure *fig, const IvRenderOptions *options, double width,
               double height, GError **error)
{
  const IvResult *r = fig->result;
  const IvKindResult *k;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  IvPipelineLayout L;
  IvText text;
  g_autofree char *title = NULL, *subtitle = NULL, *key = NULL;
  gboolean narrow = width < NARROW_W, use_ids, with_time;
  double key_h = 0, legend_x[4], legend_h;
  guint legend_line[4], legend_lines;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  k = &r->kinds[MIN (fig->kind, r->n_kinds - 1)];
  iv_text_init (&text, cr, 13 * (options->font_scale > 0 ? options->font_scale : 1));
  legend_lines
      = legend_flow (&text, narrow, PAD + (narrow ? 0 : LABEL_W), width, legend_x, legend_line);
  /* the layout keeps one line of legend below the rows; more lines take from the rows */
  legend_h = (legend_lines - 1) * LEGEND_LINE_H;
  iv_pipeline_layout (fig, width, height - legend_h, &L);
  /* Boxes too small for their names show ids (S1, F2, C1): a key above the legend then
   * names them, and the rows make room for it. */
  if (!names_fit (&text, &L))
    {
      g_autoptr (GString) s = g_string_new (NULL);
      for (int id = 0; id < IV_N_STAGES; id++)
        if (iv_stage_shown (k, id))
          g_string_append_printf (s, "%s%s %s", s->len ? " · " : "", iv_stage_id (id),
                                  short_names[id]);
      key = g_string_free (g_steal_pointer (&s), FALSE);
      iv_text_measure_wrapped (&text, key, KEY_SCALE, FALSE, width - 2 * PAD, NULL, &key_h);
      iv_pipeline_layout (fig, width, height - legend_h - key_h - 8, &L);
    }

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  pipeline_titles (r, k, narrow, &title, &subtitle);
  iv_text_show (&text, cr, title, PAD, PAD, 0, 0, 1.25, TRUE, 0, &colors->foreground);
  iv_text_show_wrapped (&text, cr, subtitle, PAD, PAD + 24, 0.95, FALSE, width - 2 * PAD,
                        &colors->foreground_dim);

  /* Row labels with their totals. */
  {
    g_autofree char *att = iv_units_format_seconds (k->attention_s);
    g_autofree char *ffn = iv_units_format_seconds (k->ffn_s);
    IvRect a = L.attention_row, f = L.ffn_row;
    if (narrow)
      {
        /* above each row: "Attention · 15.5 ms" */
        g_autofree char *al = g_strdup_printf ("Attention · %s", att),
                        *fl = g_strdup_printf ("FFN · %s", ffn);
        iv_text_show (&text, cr, al, PAD, a.y - 4, 0, 1, 0.9, TRUE, width - 2 * PAD,
                      &colors->foreground);
        iv_text_show (&text, cr, fl, PAD, f.y - 4, 0, 1, 0.9, TRUE, width - 2 * PAD,
                      &colors->foreground);
      }
    else
      {
        iv_text_show (&text, cr, "Attention", PAD, a.y + a.h / 2 - 1, 0, 1, 1.0, TRUE, LABEL_W - 8,
                      &colors->foreground);
        iv_text_show (&text, cr, att, PAD, a.y + a.h / 2 + 1, 0, 0, 0.95, FALSE, LABEL_W - 8,
                      &colors->foreground_dim);
        iv_text_show (&text, cr, "FFN", PAD, f.y + f.h / 2 - 1, 0, 1, 1.0, TRUE, LABEL_W - 8,
                      &colors->foreground);
        iv_text_show (&text, cr, ffn, PAD, f.y + f.h / 2 + 1, 0, 0, 0.95, FALSE, LABEL_W - 8,
                      &colors->foreground_dim);
      }
  }
  use_ids = !names_fit (&text, &L);
  with_time = times_fit (&text, &L, k);

  /* Boxes and the arrows between them, row by row. */
  for (int row = 0; row < 2; row++)
    {
      const IvStageId *order = row == 0 ? attention_order : ffn_order;
      guint n = row == 0 ? G_N_ELEMENTS (attention_order) : G_N_ELEMENTS (ffn_order);
      IvRect prev = { 0 };
      for (guint i = 0; i < n; i++)
        {
          IvRect b = L.box[order[i]];
          if (b.w <= 0)
            continue;
          if (prev.w > 0 && prev.y == b.y)
            arrow (cr, prev.x + prev.w + 1, prev.y + prev.h / 2, b.x - 1, b.y + b.h / 2,
                   &colors->foreground_dim);
          else if (prev.w > 0)
            {
              /* a wrapped row: down from the line's last box, back along the gap and
               * into the next line's first box from its left */
              double xm = prev.x + prev.w / 2, ym = prev.y + prev.h + L.row_gap / 2,
                     xl = b.x - L.gap / 2 - 4;
              iv_color_set_source (cr, &colors->foreground_dim);
              cairo_set_line_width (cr, 1.5);
              cairo_move_to (cr, xm, prev.y + prev.h + 1);
              cairo_line_to (cr, xm, ym);
              cairo_line_to (cr, xl, ym);
              cairo_line_to (cr, xl, b.y + b.h / 2);
              cairo_stroke (cr);
              arrow (cr, xl, b.y + b.h / 2, b.x - 1, b.y + b.h / 2, &colors->foreground_dim);
            }
          draw_box (cr, &text, colors, options->theme, b, order[i], &k->stages[order[i]], FALSE,
                    use_ids, with_time);
          prev = b;
        }
    }
  for (IvStageId s = IV_C1; s <= IV_C3; s += 2)
    if (L.box[s].w > 0)
      draw_box (cr, &text, colors, options->theme, L.box[s], s, &k->stages[s], TRUE, use_ids,
                FALSE);

  /* The ring-attention loop: from S8 back over the core to S5. */
  if (L.has_arc)
    {
      IvRect a = L.arc;
      double x0 = a.x + a.w, x1 = a.x,
             ybase = L.box[IV_S5].y
                     - (L.box[IV_C1].w > 0 || L.box[IV_C3].w > 0
                            ? L.box[IV_C1].h + L.box[IV_C3].h * 0 + 13
                            : 2);
      IvColor c = iv_theme_mark_color (options->theme, IV_RING_LOOP_RGB, 1);
      gboolean prefill = r->config.mode == IV_MODE_PREFILL;
      g_autofree char *label
          = prefill ? g_strdup_printf (
                r->config.ring == IV_RING_KV
                    ? "ring attention loop (K/V ring per hop; S8 merges partial O,m,l)"
                    : "ring attention loop (Q+O/m/l ring per hop; S8 merges partial O,m,l)")
                    : g_strdup ("decode: local pass only; S8 fires O/m/l all-reduce");
      double ytop = a.y + 6;

      iv_color_set_source (cr, &c);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x0, ybase);
      cairo_curve_to (cr, x0, ytop, x1, ytop, x1, ybase - 7);
      cairo_stroke (cr);
      arrow (cr, x1, ybase - 12, x1, ybase, &c);
      {
        /* the whole sentence where it fits over the loop, else its first words; in
         * prefill the hop count's pill follows it on its line: under it, inside the
         * loop, it ran into the exchanges' boxes on a narrow page (issue 31) */
        const IvKindResult *kr = &r->kinds[MIN (fig->kind, r->n_kinds - 1)];
        g_autofree char *badge = prefill ? g_strdup_printf ("× %.0f hop%s", kr->sh.n_hops,
                                                            kr->sh.n_hops == 1 ? "" : "s")
                                         : NULL;
        double lw, lh, bw = 0, bh = 0, gw, gx;
        iv_text_measure (&text, label, 0.85, FALSE, -1, &lw, &lh);
        if (narrow || lw > MIN (a.w + 200, width - 2 * PAD))
          {
            g_free (label);
            label = g_strdup (prefill ? "ring attention loop" : "decode: O/m/l all-reduce");
            iv_text_measure (&text, label, 0.85, FALSE, -1, &lw, &lh);
          }
        if (badge)
          iv_text_measure (&text, badge, 0.8, TRUE, 0, &bw, &bh);
        gw = lw + (badge ? 8 + bw + 12 : 0);
        gx = CLAMP ((x0 + x1) / 2 - gw / 2, PAD, width - PAD - gw);
        iv_text_show (&text, cr, label, gx, ytop - 4, 0, 1, 0.85, FALSE, width - 2 * PAD,
                      &colors->foreground);
        if (badge)
          {
            /* the steps C1 is charged: c − 1 for the K/V ring, c for Q+O/m/l */
            double bx = gx + lw + 8, by = ytop - 4 - lh / 2 - (bh + 2) / 2;
            iv_rounded_rect (cr, (IvRect){ bx, by, bw + 12, bh + 2 }, (bh + 2) / 2);
            iv_color_set_source (cr, &c);
            cairo_fill (cr);
            iv_text_show (&text, cr, badge, bx + 6, by + 1, 0, 0, 0.8, TRUE, 0,
                          &(IvColor){ 1, 1, 1, 1 });
          }
      }
    }

  /* Legend of the four bounds (legend_flow), the stage ids' key above it. */
  {
    static const IvBound bounds[]
        = { IV_BOUND_COMPUTE, IV_BOUND_MEMORY, IV_BOUND_COMM, IV_BOUND_TRIVIAL };
    double y_last = height - PAD - 8;
    if (key)
      iv_text_show_wrapped (&text, cr, key, PAD, height - PAD - 18 - legend_h - key_h, KEY_SCALE,
                            FALSE, width - 2 * PAD, &colors->foreground_dim);
    for (guint i = 0; i < G_N_ELEMENTS (bounds); i++)
      {
        IvColor col = iv_theme_mark_color (options->theme, iv_bound_color (bounds[i]), 1);
        double x = legend_x[i], y = y_last - (legend_lines - 1 - legend_line[i]) * LEGEND_LINE_H;
        iv_rounded_rect (cr, (IvRect){ x, y - 6, 14, 12 }, 3);
        iv_color_set_source (cr, &col);
        cairo_fill (cr);
        iv_text_legend_label (&text, cr, narrow ? legend_short[i] : legend_names[i], x, y,
                              &colors->foreground);
      }
  }
  cairo_restore (cr);
  iv_text_clear (&text);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
