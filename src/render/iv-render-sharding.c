/* iv-render-sharding.c: how one layer's weights and KV cache are split. Each matrix is a
 * bar divided into its TP shards, coloured per TP rank and labelled with the rank and
 * where it sits (cube·PE); a shard that repeats another (K/V heads when TP > Hkv, MLA's
 * shared latent projections) is hatched. The KV cache is a grid: CP ranks hold slices of
 * the sequence (rows), TP ranks slices of the heads (columns). Weights are the same on
 * every CP rank, which the subtitle says rather than drawing c copies. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-model.h"

#include "iv-palette.h"
#include "iv-text.h"
#include "iv-units.h"

#include <math.h>

#define PAD IV_FIGURE_PAD
#define LABEL_W 210.0

typedef struct
{
  char name[48];
  char note[40];       /* under the shape: the experts an EP rank holds */
  gint64 rows, cols;   /* the matrix's shape */
  gint64 distinct;     /* distinct shards among the TP ranks (< t: copies, hatched) */
  gboolean split_rows; /* TP splits the input dimension (W_O, W_down) */
} Matrix;

/* Where TP rank @tp of CP rank @cp sits (docs/model.md §2.2: TP fastest when both
 * groups share a level). */
void
iv_sharding_place (const IvConfig *c, gint64 tp, gint64 cp, gint64 *cube, gint64 *pe)
{
  gint64 cp_stride = c->place_tp == c->place_cp ? c->t : 1;
  *cube = (c->place_tp == IV_PLACE_CUBE ? tp : 0)
          + (c->place_cp == IV_PLACE_CUBE ? cp * cp_stride : 0);
  *pe = (c->place_tp == IV_PLACE_PE ? tp : 0) + (c->place_cp == IV_PLACE_PE ? cp * cp_stride : 0);
}

static guint
layer_matrices (const IvResult *r, const IvKindResult *k, Matrix *out)
{
  const IvModel *m = r->model;
  gint64 t = r->config.t, d = m->d;
  guint n = 0;

#define ADD(label, R, C, D, SPLIT_ROWS)                                                            \
  (g_snprintf (out[n].name, sizeof out[n].name, "%s", label), out[n].rows = (R),                   \
   out[n].cols = (C), out[n].distinct = MIN (t, MAX (1, (D))), out[n].split_rows = (SPLIT_ROWS),   \
   out[n].note[0] = '\0', n++)

  if (m->attention == IV_ATTENTION_MLA)
    {
      if (m->r_q > 0)
        {
          ADD ("W_DQ (down)", d, m->r_q, 1, FALSE);
          ADD ("W_UQ (up)", m->r_q, m->H * (m->d_n + m->d_r), m->H, FALSE);
        }
      else
        ADD ("W_Q", d, m->H * (m->d_n + m->d_r), m->H, FALSE);
      ADD ("W_DKV (latent)", d, m->r_kv + m->d_r, 1, FALSE);
      ADD ("W_UK", m->r_kv, m->H * m->d_n, m->H, FALSE);
      ADD ("W_UV", m->r_kv, m->H * m->d_v, m->H, FALSE);
      ADD ("W_O", m->H * m->d_v, d, m->H, TRUE);
    }
  else
    {
      ADD ("W_Q", d, m->H * m->dh, m->H, FALSE);
      ADD ("W_K", d, m->Hkv * m->dh, m->Hkv, FALSE);
      ADD ("W_V", d, m->Hkv * m->dh, m->Hkv, FALSE);
      ADD ("W_O", m->H * m->dh, d, m->H, TRUE);
    }
  if (k->moe)
    {
      char label[48];
      g_snprintf (label, sizeof label, "W_gate, W_up per expert (×%" G_GINT64_FORMAT ")", m->E);
      ADD (label, d, m->F_e, m->F_e, FALSE);
      g_snprintf (label, sizeof label, "W_down per expert (×%" G_GINT64_FORMAT ")", m->E);
      ADD (label, m->F_e, d, m->F_e, TRUE);
      /* with EP each rank holds ⌈E/e⌉ of the routed experts (§4.4) */
      for (guint i = n - 2; r->config.e > 1 && i < n; i++)
        g_snprintf (out[i].note, sizeof out[i].note, "%.0f per EP rank", k->sh.E_loc);
    }
  else
    {
      ADD ("W_gate, W_up (each)", d, m->F, m->F, FALSE);
      ADD ("W_down", m->F, d, m->F, TRUE);
    }
#undef ADD
  return n;
}

static char *
matrix_size_text (const Matrix *mt, double ew, const IvHardware *hw)
{
  /* a GPU server's in the datasheet's decimal units, per GPU */
  g_autofree char *total = iv_hardware_format_bytes (hw, ew * mt->rows * mt->cols);
  g_autofree char *per = iv_hardware_format_bytes (hw, ew * mt->rows * mt->cols / mt->distinct);
  return g_strdup_printf ("%s · %s per %s", total, per, iv_hardware_pe_word (hw, FALSE));
}

/* "4096 × 4096 · per expert": a matrix's shape. */
static char *
matrix_shape_text (const Matrix *mt)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT " × %" G_GINT64_FORMAT "%s%s", mt->rows, mt->cols,
                          mt->note[0] ? " · " : "", mt->note);
}

/* "32 MiB · 4 MiB per PE": the KV cache of the batch, and what one rank holds. */
static char *
kv_size_text (const IvResult *r, const IvKindResult *k, gint64 t, gint64 cp_n)
{
  gboolean mla = r->model->attention == IV_ATTENTION_MLA;
  gint64 width_elems = mla ? r->model->r_kv + r->model->d_r : 2 * r->model->Hkv * r->model->dh;
  gint64 kv_heads = mla ? 1 : r->model->Hkv;
  double total_bytes = r->config.e_kv * k->sh.L * width_elems * r->config.B;
  g_autofree char *total = iv_hardware_format_bytes (r->hw, total_bytes);
  g_autofree char *per = iv_hardware_format_bytes (r->hw, total_bytes / cp_n / MIN (t, kv_heads));

  return g_strdup_printf ("%s · %s per %s", total, per, iv_hardware_pe_word (r->hw, FALSE));
}

/* "CP 1: positions 3072–6143": the rows of the KV cache a CP rank holds. */
static char *
cp_range_text (const IvKindResult *k, gint64 cp, gint64 cp_n)
{
  double per = ceil (k->sh.L_eff / cp_n), first = cp * per,
         last = MIN (k->sh.L_eff, (cp + 1) * per) - 1;

  if (last < first)
    return g_strdup_printf ("CP %" G_GINT64_FORMAT ": none", cp);
  return g_strdup_printf ("CP %" G_GINT64_FORMAT ": positions %.0f–%.0f", cp, first, last);
}

static void
hatch (cairo_t *cr, double x, double y, double w, double h, const IvColor *color)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  iv_color_set_source (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (double o = -h; o < w; o += 7)
    {
      cairo_move_to (cr, x + o, y + h);
      cairo_line_to (cr, x + o + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A TP rank's colour: the rank palette's eight hues (none a bound colour), then the same hues
 * lighter, darker and lighter still, so 32 ranks stay apart (beyond that, the labels tell them
 * apart). */
static IvColor
rank_color (IvTheme theme, gint64 tp)
{
  IvColor c = iv_palette_rank_color (theme, (guint) (tp % IV_RANK_COLORS));
  static const double mix[4] = { 0, 0.45, -0.4, 0.7 };
  double m = mix[(tp / IV_RANK_COLORS) % 4];

  if (m > 0)
    c.r += (1 - c.r) * m, c.g += (1 - c.g) * m, c.b += (1 - c.b) * m;
  else if (m < 0)
    c.r *= 1 + m, c.g *= 1 + m, c.b *= 1 + m;
  return c;
}

/* One shard: fill in the rank's colour, hatched if a copy, the rank (and with @where its
 * cube and PE) inside when there is room. */
static void
shard (cairo_t *cr, IvText *text, const IvRenderOptions *options, const IvConfig *c, double x,
       double y, double w, double h, gint64 tp, gint64 cp, gboolean copy, gboolean labelled,
       gboolean where_too)
{
  IvColor fill = rank_color (options->theme, tp);
  /* Dark ink on the light rank colours (yellow, cyan), white on the rest. */
  IvColor ink = iv_color_ink_for (&fill);
  IvColor hatch_ink = { 1, 1, 1, 0.55 };
  gint64 cube, pe;

  iv_color_set_source (cr, &fill);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  if (copy)
    hatch (cr, x, y, w, h, &hatch_ink);
  iv_color_set_source (cr, &(IvColor){ 1, 1, 1, 1 });
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, h - 1);
  cairo_stroke (cr);
  if (!labelled)
    return;
  iv_sharding_place (c, tp, cp, &cube, &pe);
  /* no text under 0.78 of the body (6.5 pt at a column): a shard too small for it goes
   * unlabelled, its colour still saying the rank (issue 31) */
  if (where_too && w >= 44 && h >= 32)
    {
      g_autofree char *rank = g_strdup_printf ("TP %" G_GINT64_FORMAT, tp);
      g_autofree char *where
          = g_strdup_printf ("c%" G_GINT64_FORMAT "·p%" G_GINT64_FORMAT, cube, pe);
      iv_text_show (text, cr, rank, x + w / 2, y + h / 2 - 1, 0.5, 1, 0.8, TRUE, w - 4, &ink);
      iv_text_show (text, cr, where, x + w / 2, y + h / 2 + 1, 0.5, 0, 0.78, FALSE, w - 4, &ink);
    }
  else if (w >= 46 && h >= 15)
    {
      g_autofree char *rank = g_strdup_printf ("TP %" G_GINT64_FORMAT, tp);
      iv_text_show (text, cr, rank, x + w / 2, y + h / 2, 0.5, 0.5, 0.8, TRUE, w - 2, &ink);
    }
  else if (w >= 15 && h >= 14)
    {
      g_autofree char *rank = g_strdup_printf ("%" G_GINT64_FORMAT, tp);
      iv_text_show (text, cr, rank, x + w / 2, y + h / 2, 0.5, 0.5, 0.8, TRUE, w - 1, &ink);
    }
}

gboolean
iv_render_sharding (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  const IvKindResult *k;
  const IvConfig *c;
  Matrix mats[12];
  guint n;
  gint64 t, cp_n, kv_heads;
  double bar_x, bar_w, row_h, y, ew, size_w, label_w, inline_w, shapes_w, top;
  IvText text;
  gboolean named, stacked, beside;
  g_autofree char *title = NULL, *subtitle = NULL, *config = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  k = &r->kinds[MIN (fig->kind, r->n_kinds - 1)];
  c = &r->config;
  t = c->t, cp_n = c->c;
  named = t > IV_RANK_COLORS; /* past the rank palette's eight hues, every shard says its rank */
  ew = c->e_w;
  n = layer_matrices (r, k, mats);
  iv_text_init (&text, cr, 13 * (options->font_scale > 0 ? options->font_scale : 1));
  {
    g_autofree char *ep
        = c->e > 1 ? g_strdup_printf (", EP %" G_GINT64_FORMAT, c->e) : g_strdup ("");
    title = iv_hardware_is_gpu_server (r->hw)
                ? g_strdup_printf ("Sharding of one %s layer · %s · TP %" G_GINT64_FORMAT
                                   ", CP %" G_GINT64_FORMAT "%s",
                                   k->name, r->model->name, t, cp_n, ep)
                : g_strdup_printf ("Sharding of one %s layer · %s · TP %" G_GINT64_FORMAT
                                   " on %s, CP %" G_GINT64_FORMAT " on %s%s",
                                   k->name, r->model->name, t,
                                   c->place_tp == IV_PLACE_PE ? "PEs" : "cubes", cp_n,
                                   c->place_cp == IV_PLACE_PE ? "PEs" : "cubes", ep);
  }
  /* the whole step first (mode, batch, T_q, context, placements, ring): two exports of
   * different configurations must not read the same */
  config = iv_result_config_text (r);
  subtitle = g_strdup_printf (
      "%s · colour = TP rank%s%s%s; hatched = a copy of another rank's shard", config,
      fig->annotate ? ", with its cube·PE in the first row and the KV cache" : "",
      cp_n > 1 ? "; every CP rank holds the same weights" : "",
      c->e > 1 && k->moe ? "; each EP rank holds its share of the routed experts, split over TP"
                         : "");
  {
    /* The columns as wide as their widest text: the names and shapes on the left, the
     * sizes (and the CP rows' ranges) on the right; the bars take what is left. On a
     * narrow page the title and subtitle wrap rather than lose their end. */
    double w, h, title_h, sub_h, name_h, shape_h;
    double names_w = 0;
    label_w = size_w = shapes_w = 0;
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *size = matrix_size_text (&mats[i], ew, r->hw);
        g_autofree char *shape = matrix_shape_text (&mats[i]);
        double nw;
        iv_text_measure (&text, size, 0.8, FALSE, 0, &w, &h);
        size_w = MAX (size_w, w);
        iv_text_measure (&text, mats[i].name, 0.9, TRUE, 0, &nw, &name_h);
        iv_text_measure (&text, shape, 0.8, FALSE, 0, &w, &shape_h);
        label_w = MAX (label_w, MAX (nw, w));
        names_w = MAX (names_w, nw);
        shapes_w = MAX (shapes_w, w);
      }
    for (gint64 cp = 0; cp_n > 1 && cp < cp_n; cp++)
      {
        g_autofree char *cpl = cp_range_text (k, cp, cp_n);
        iv_text_measure (&text, cpl, 0.78, FALSE, 0, &w, &h);
        size_w = MAX (size_w, w);
      }
    {
      g_autofree char *kv = kv_size_text (r, k, t, cp_n);
      iv_text_measure (&text, kv, 0.8, FALSE, 0, &w, &h);
      label_w = MAX (label_w, w);
    }
    /* shapes beside their names start in one column */
    inline_w = names_w + 8 + shapes_w;
    label_w = MIN (label_w + 12, LABEL_W);
    size_w += 12;
    iv_text_measure_wrapped (&text, title, 1.2, TRUE, width - 2 * PAD, NULL, &title_h);
    iv_text_measure_wrapped (&text, subtitle, 0.9, FALSE, width - 2 * PAD, NULL, &sub_h);
    top = PAD + title_h + 2 + sub_h + 10;
    /* n weight rows and a KV block of about three rows below them */
    row_h = CLAMP ((height - top - PAD - name_h - 8) / (n * 1.15 + 2.8), 12, 56);
    /* a name over its shape needs both lines in a row's pitch; else the shape goes
     * beside the name when the column can take it, or is left out */
    stacked = row_h * 1.15 >= name_h + shape_h + 2;
    beside = !stacked && inline_w + 12 <= width * 0.4;
    if (beside)
      label_w = MAX (label_w, MIN (inline_w + 12, LABEL_W + 60));
  }
  bar_x = PAD + label_w;
  bar_w = MAX (40, width - bar_x - size_w - PAD);

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_paint (cr);
  y = PAD;
  y += iv_text_show_wrapped (&text, cr, title, PAD, y, 1.2, TRUE, width - 2 * PAD,
                             &colors->foreground);
  iv_text_show_wrapped (&text, cr, subtitle, PAD, y + 2, 0.9, FALSE, width - 2 * PAD,
                        &colors->foreground_dim);

  y = top;
  for (guint i = 0; i < n; i++, y += row_h * 1.15)
    {
      const Matrix *mt = &mats[i];
      g_autofree char *shape = matrix_shape_text (mt);
      g_autofree char *size = matrix_size_text (mt, ew, r->hw);
      double h = row_h;
      if (stacked)
        {
          iv_text_show (&text, cr, mt->name, PAD, y + h / 2 - 1, 0, 1, 0.9, TRUE, 0,
                        &colors->foreground);
          iv_text_show (&text, cr, shape, PAD, y + h / 2 + 1, 0, 0, 0.8, FALSE, 0,
                        &colors->foreground_dim);
        }
      else
        {
          iv_text_show (&text, cr, mt->name, PAD, y + h / 2, 0, 0.5, 0.9, TRUE, 0,
                        &colors->foreground);
          if (beside)
            iv_text_show (&text, cr, shape, PAD + inline_w - shapes_w, y + h / 2, 0, 0.5, 0.8,
                          FALSE, 0, &colors->foreground_dim);
        }
      for (gint64 tp = 0; tp < t; tp++)
        {
          double x0 = bar_x + bar_w * tp / t, x1 = bar_x + bar_w * (tp + 1) / t;
          /* With fewer distinct shards than ranks, rank tp holds shard tp·distinct/t; the
           * first rank holding a shard owns it, the others copy it. */
          gboolean copy = mt->distinct < t
                          && (tp * mt->distinct) / t == ((tp - 1) * mt->distinct) / t && tp > 0;
          /* A rank keeps its colour down the figure: naming it in the first row and in
           * the KV grid is enough, and keeps a slider step well inside a frame. */
          shard (cr, &text, options, c, x0, y, x1 - x0, h, tp, 0, copy, i == 0 || named,
                 i == 0 && fig->annotate);
        }
      iv_text_show (&text, cr, size, bar_x + bar_w + 10, y + h / 2, 0, 0.5, 0.8, FALSE, 0,
                    &colors->foreground_dim);
    }

  /* The KV cache: CP rows by TP columns. */
  {
    gboolean mla = r->model->attention == IV_ATTENTION_MLA;
    gint64 width_elems = mla ? r->model->r_kv + r->model->d_r : 2 * r->model->Hkv * r->model->dh;
    double block_h = row_h * 2.4, cell_h = block_h / cp_n;
    g_autofree char *label = g_strdup_printf ("KV cache (%s)", mla ? "latent" : "K and V");
    g_autofree char *shape = g_strdup_printf ("%.0f × %" G_GINT64_FORMAT, k->sh.L, width_elems);
    g_autofree char *size = kv_size_text (r, k, t, cp_n);
    double lh;
    kv_heads = mla ? 1 : r->model->Hkv;
    y += row_h * 0.4;
    /* the label, its shape and its size stacked in the label column, centred on the block */
    iv_text_measure (&text, label, 0.9, TRUE, 0, NULL, &lh);
    iv_text_show (&text, cr, label, PAD, y + block_h / 2 - lh / 2, 0, 1, 0.9, TRUE, 0,
                  &colors->foreground);
    if (stacked || beside)
      iv_text_show (&text, cr, shape, PAD, y + block_h / 2 - lh / 2, 0, 0, 0.8, FALSE, 0,
                    &colors->foreground_dim);
    for (gint64 cp = 0; cp < cp_n; cp++)
      for (gint64 tp = 0; tp < t; tp++)
        {
          double x0 = bar_x + bar_w * tp / t, x1 = bar_x + bar_w * (tp + 1) / t;
          gint64 distinct = MIN (t, kv_heads);
          gboolean copy
              = distinct < t && tp > 0 && (tp * distinct) / t == ((tp - 1) * distinct) / t;
          shard (cr, &text, options, c, x0, y + cp * cell_h, x1 - x0, cell_h, tp, cp, copy, TRUE,
                 fig->annotate);
        }
    /* CP ranks name their rows on the right; the size goes under the label. */
    if (cp_n > 1)
      for (gint64 cp = 0; cp < cp_n; cp++)
        {
          g_autofree char *cpl = cp_range_text (k, cp, cp_n);
          if (cell_h >= 12)
            iv_text_show (&text, cr, cpl, bar_x + bar_w + 10, y + (cp + 0.5) * cell_h, 0, 0.5, 0.78,
                          FALSE, 0, &colors->foreground_dim);
        }
    iv_text_show (&text, cr, size, PAD, y + block_h / 2 + (stacked || beside ? lh * 0.8 : 0), 0,
                  stacked || beside ? 0 : 0.5, 0.8, FALSE, 0, &colors->foreground_dim);
  }
  cairo_restore (cr);
  iv_text_clear (&text);
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}
