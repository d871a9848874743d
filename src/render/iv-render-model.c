/* iv-render-model.c: the Model workspace's other figures: the per-stage table typeset,
 * memory per PE against capacity, the PE's roofline with every stage on it, and the
 * sweep of one parameter. The last three are charts built with the chart toolkit. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-render-model.h"

#include <math.h>

#include "iv-chart.h"
#include "iv-text.h"
#include "iv-units.h"

static const IvKindResult *
kind_of (const IvModelFigure *fig)
{
  return &fig->result->kinds[MIN (fig->kind, fig->result->n_kinds - 1)];
}

gboolean
iv_model_figure_check (const IvModelFigure *fig, GError **error)
{
  const IvResult *r = fig ? fig->result : NULL;

  if (!r || !r->ok || r->n_kinds == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "no evaluated configuration to draw%s%s", r && r->error[0] ? ": " : "",
                   r ? r->error : "");
      return FALSE;
    }
  return TRUE;
}

static char *
fmt_time (double s)
{
  return s > 0 ? iv_units_format_seconds (s) : g_strdup ("–");
}

/* The figure's subtitle: the model, hardware and step, so an exported figure says what it shows. */
static char *
config_subtitle (const IvResult *r, const char *what)
{
  g_autofree char *config = iv_result_config_text (r);
  return g_strdup_printf ("%s%s%s on %s · %s", what ? what : "", what ? " · " : "", r->model->name,
                          r->hw->name, config);
}

#define N_STAGE_COLS 10

static gboolean stages_draw (cairo_t *cr, const IvModelFigure *fig, const IvRenderOptions *options,
                             double width, double height, GError **error);

/* In a large window the table is drawn larger (iv_model_figure_zoom): its rows stop at
 * 30 px, and at 1920 × 1080 they left the figure's lower part empty (issue 31). */
gboolean
iv_render_stages (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                  double height, GError **error)
{
  double z = iv_model_figure_zoom (width, height);
  gboolean ok;

  cairo_save (cr);
  cairo_scale (cr, z, z);
  ok = stages_draw (cr, data, options, width / z, height / z, error);
  cairo_restore (cr);
  return ok;
}

static gboolean
stages_draw (cairo_t *cr, const IvModelFigure *fig, const IvRenderOptions *options, double width,
             double height, GError **error)
{
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  static const char *const headers[N_STAGE_COLS]
      = { "stage",   "",       "FLOPs",     "bytes",   "comm",
          "compute", "memory", "comm time", "visible", "bound" };
  /* on a narrow page the columns least needed go first: the communicated bytes, the
   * bytes moved, the FLOPs and the communication time (the visible time and the bound
   * say the rest); then the names shorten to the pipeline's, the bound is its colour
   * alone (a key under the table names the colours), and the ids go — never the names
   * (a column page showed ids only, issue 31) */
  static const int drop_order[] = { 4, 3, 2, 7, 5, 6 };
  static const IvBound key_bounds[]
      = { IV_BOUND_COMPUTE, IV_BOUND_MEMORY, IV_BOUND_COMM, IV_BOUND_TRIVIAL };
  gboolean short_names = FALSE, chips_only = FALSE;
  double key_h = 0;
  const IvKindResult *k;
  IvText text;
  double pad = 16, x, col_w[N_STAGE_COLS], row_h, y, top, font, gap = 10, total, block_w;
  double block_gap = 18;
  guint blocks = 1, per_block;
  gboolean shown[N_STAGE_COLS];
  guint rows = 0, n_cells;
  g_autofree char *title = NULL, *subtitle = NULL;
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  k = kind_of (fig);
  for (int s = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      if (!st->present)
        continue;
      rows++;
      g_ptr_array_add (cells, g_strdup (iv_stage_id (s)));
      g_ptr_array_add (cells, g_strdup (iv_stage_name (s)));
      g_ptr_array_add (cells, st->flops > 0 ? iv_units_format_count (st->flops) : g_strdup ("–"));
      g_ptr_array_add (cells, st->bytes > 0 ? iv_hardware_format_bytes (fig->result->hw, st->bytes)
                                            : g_strdup ("–"));
      g_ptr_array_add (cells, st->comm_bytes > 0
                                  ? iv_hardware_format_bytes (fig->result->hw, st->comm_bytes)
                                  : g_strdup ("–"));
      g_ptr_array_add (cells, fmt_time (st->t_compute_s));
      g_ptr_array_add (cells, fmt_time (st->t_memory_s));
      g_ptr_array_add (cells, fmt_time (st->t_comm_s));
      g_ptr_array_add (cells, fmt_time (st->visible_s));
      g_ptr_array_add (cells, g_strdup (iv_bound_to_string (st->bound)));
    }
  n_cells = cells->len;
  {
    g_autofree char *att = iv_units_format_seconds (k->attention_s);
    g_autofree char *ffn = iv_units_format_seconds (k->ffn_s);
    g_autofree char *config = iv_result_config_text (fig->result);
    /* a time never breaks from its unit ("10.1 / ms" on a narrow page) */
    g_autoptr (GString) att_nb = g_string_new (att), ffn_nb = g_string_new (ffn);
    g_string_replace (att_nb, " ", "\u00a0", 0);
    g_string_replace (ffn_nb, " ", "\u00a0", 0);
    title = g_strdup_printf (
        "%s · %s layer · per %s · attention %s, FFN %s", fig->result->model->name, k->name,
        iv_hardware_pe_word (fig->result->hw, FALSE), att_nb->str, ffn_nb->str);
    subtitle = g_strdup_printf ("%s · %s", fig->result->hw->name, config);
  }
  font = 13 * (options->font_scale > 0 ? options->font_scale : 1);
  iv_text_init (&text, cr, font);
  {
    double th, sh;
    iv_text_measure_wrapped (&text, title, 1.2, TRUE, width - 2 * pad, NULL, &th);
    iv_text_measure_wrapped (&text, subtitle, 0.9, FALSE, width - 2 * pad, NULL, &sh);
    top = pad + th + 2 + sh + 8;
  }
  /* the rows share what is left under the titles: the text as large as a row holds. A
   * row's text under 0.765 of the body (6.5 pt at a column's 8.5 pt) is too small to
   * read: the rows then go into two or three blocks side by side, each with fewer
   * columns (issue 31: fewer columns rather than tiny text) */
  for (blocks = 1;; blocks++)
    {
      per_block = (rows + blocks - 1) / blocks;
      row_h = MIN (30, (height - top - pad) / (per_block + 1));
      if (0.9 * row_h / 1.3 >= 0.765 * font || blocks == 3)
        break;
    }
  block_w = (width - 2 * pad - (blocks - 1) * block_gap) / blocks;
  iv_text_clear (&text);
  iv_text_init (&text, cr, MIN (font, row_h / 1.3));
  /* each column as wide as its widest cell; on a narrow page the least needed go */
  for (guint c = 0; c < N_STAGE_COLS; c++)
    {
      double w, h;
      shown[c] = TRUE;
      iv_text_measure (&text, headers[c], 0.9, TRUE, 0, &col_w[c], &h);
      for (guint i = c; i < n_cells; i += N_STAGE_COLS)
        {
          iv_text_measure (&text, cells->pdata[i], 0.9, c == 0, 0, &w, &h);
          col_w[c] = MAX (col_w[c], w + (c == 9 ? row_h * 0.5 + 6 : 0));
        }
      col_w[c] += gap;
    }
  for (guint d = 0;; d++)
    {
      total = 0;
      for (guint c = 0; c < N_STAGE_COLS; c++)
        total += shown[c] ? col_w[c] : 0;
      if (total <= block_w)
        break;
      if (d < G_N_ELEMENTS (drop_order))
        shown[drop_order[d]] = FALSE;
      else if (!short_names)
        {
          /* the pipeline's names: "W_K+W_V" for "K and V projections" */
          double w, h;
          short_names = TRUE;
          iv_text_measure (&text, headers[1], 0.9, TRUE, 0, &col_w[1], &h);
          for (int st = 0, r = 0; st < IV_N_STAGES; st++)
            if (k->stages[st].present)
              {
                g_free (cells->pdata[r * N_STAGE_COLS + 1]);
                cells->pdata[r * N_STAGE_COLS + 1] = g_strdup (iv_stage_short_name (st));
                iv_text_measure (&text, cells->pdata[r * N_STAGE_COLS + 1], 0.9, FALSE, 0, &w, &h);
                col_w[1] = MAX (col_w[1], w);
                r++;
              }
          col_w[1] += gap;
        }
      else if (!chips_only)
        {
          double h;
          chips_only = TRUE;
          iv_text_measure (&text, headers[9], 0.9, TRUE, 0, &col_w[9], &h);
          col_w[9] = MAX (col_w[9], row_h * 0.5 + 8) + gap;
        }
      else if (shown[0])
        shown[0] = FALSE;
      else
        break;
    }
  if (chips_only)
    {
      /* the key's one line takes its height from the rows */
      key_h = 18;
      row_h = MIN (row_h, (height - top - pad - key_h) / (per_block + 1));
    }
  /* what the columns leave spreads over them */
  for (guint c = 0; c < N_STAGE_COLS; c++)
    if (shown[c] && total < block_w)
      col_w[c] += (block_w - total) * col_w[c] / total;

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  {
    IvText big;
    double th;
    iv_text_init (&big, cr, font);
    th = iv_text_show_wrapped (&big, cr, title, pad, pad, 1.2, TRUE, width - 2 * pad,
                               &colors->foreground);
    iv_text_show_wrapped (&big, cr, subtitle, pad, pad + th + 2, 0.9, FALSE, width - 2 * pad,
                          &colors->foreground_dim);
    iv_text_clear (&big);
  }
  for (guint blk = 0; blk < blocks; blk++)
    {
      double x0 = pad + blk * (block_w + block_gap);
      y = top;
      x = x0;
      for (guint c = 0; c < N_STAGE_COLS; c++)
        {
          if (!shown[c])
            continue;
          iv_text_show (&text, cr, c == 1 && !shown[0] ? headers[0] : headers[c],
                        c < 2 ? x : x + col_w[c] - gap / 2, y + row_h / 2, c < 2 ? 0 : 1, 0.5, 0.9,
                        TRUE, 0, &colors->foreground_dim);
          x += col_w[c];
        }
      y += row_h;
      iv_color_set_source (cr, &colors->grid);
      cairo_rectangle (cr, x0, y - 1, block_w, 1);
      cairo_fill (cr);
    }
  for (int s = 0, r = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      guint32 bc = iv_bound_color (st->bound);
      IvColor chip
          = { ((bc >> 16) & 0xff) / 255.0, ((bc >> 8) & 0xff) / 255.0, (bc & 0xff) / 255.0, 1 };
      char **row;
      double x0;

      if (!st->present)
        continue;
      row = (char **) &cells->pdata[r * N_STAGE_COLS];
      x0 = pad + (r / per_block) * (block_w + block_gap);
      y = top + row_h * (1 + r % per_block);
      if (r++ % 2 == 1)
        {
          IvColor band = colors->grid;
          band.a *= options->theme == IV_THEME_PRINT ? 1 : 0.5;
          iv_color_set_source (
              cr, options->theme == IV_THEME_PRINT ? &(IvColor){ 0.96, 0.96, 0.96, 1 } : &band);
          cairo_rectangle (cr, x0, y, block_w, row_h);
          cairo_fill (cr);
        }
      x = x0;
      for (guint c = 0; c < N_STAGE_COLS; c++)
        {
          if (!shown[c])
            continue;
          if (c == 9)
            {
              cairo_rectangle (cr, x + 4, y + row_h * 0.25, row_h * 0.5, row_h * 0.5);
              iv_color_set_source (cr, &chip);
              cairo_fill (cr);
              if (!chips_only)
                iv_text_show (&text, cr, row[c], x + 8 + row_h * 0.5, y + row_h / 2, 0, 0.5, 0.9,
                              FALSE, 0, &colors->foreground);
            }
          else
            iv_text_show (&text, cr, row[c], c < 2 ? x : x + col_w[c] - gap / 2, y + row_h / 2,
                          c < 2 ? 0 : 1, 0.5, 0.9, c == 0, 0, &colors->foreground);
          x += col_w[c];
        }
    }
  /* the bounds' colours named, under the table, where the bound column shows them alone */
  if (chips_only)
    {
      double kx = pad, ky = top + row_h * (per_block + 1) + key_h / 2 + 2;
      for (guint i = 0; i < G_N_ELEMENTS (key_bounds); i++)
        {
          guint32 bc = iv_bound_color (key_bounds[i]);
          IvColor chip
              = { ((bc >> 16) & 0xff) / 255.0, ((bc >> 8) & 0xff) / 255.0, (bc & 0xff) / 255.0, 1 };
          double w, h;
          const char *name = iv_bound_to_string (key_bounds[i]);
          cairo_rectangle (cr, kx, ky - row_h * 0.25, row_h * 0.5, row_h * 0.5);
          iv_color_set_source (cr, &chip);
          cairo_fill (cr);
          iv_text_show (&text, cr, name, kx + row_h * 0.5 + 4, ky, 0, 0.5, 0.9, FALSE, 0,
                        &colors->foreground);
          iv_text_measure (&text, name, 0.9, FALSE, 0, &w, &h);
          kx += row_h * 0.5 + 4 + w + 12;
        }
    }
  cairo_restore (cr);
  iv_text_clear (&text);
  return TRUE;
}

/* Memory per PE: weights, KV cache, activations and their total as bars on a log axis
 * (weights are often a thousand times the rest: on a linear axis the others vanish),
 * each with its value, against the capacity. */
gboolean
iv_render_memory (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                  double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  g_autoptr (IvChart) c = NULL;
  const char *rows[] = { "total", "activations", "KV cache", "weights" };
  double v[4], lo = INFINITY, hi;
  const guint32 rgb[] = { 0x505050, 0x009e73, 0xcc79a7, 0x0072b2 };
  g_autofree char *title = NULL, *cap = NULL, *sub = NULL, *config = NULL, *full = NULL;
  g_autofree char *line_label = NULL;
  gboolean label_fits;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  v[3] = r->weights_bytes_per_pe, v[2] = r->kv_bytes_per_pe, v[1] = r->act_bytes_per_pe;
  v[0] = v[1] + v[2] + v[3];
  for (int i = 0; i < 4; i++)
    if (v[i] > 0)
      lo = MIN (lo, v[i]);
  if (!isfinite (lo))
    lo = 1;
  lo = pow (2, floor (log2 (lo)) - 1);
  /* what fits is decided on the memory the runtime reserve leaves (§5) */
  cap = iv_hardware_format_bytes (r->hw, r->usable_bytes_per_pe);
  config = config_subtitle (r, NULL);
  full = iv_hardware_format_bytes (r->hw, r->capacity_bytes_per_pe);
  line_label = r->usable_bytes_per_pe < r->capacity_bytes_per_pe
                   ? g_strdup_printf ("usable %s of %s", cap, full)
                   : g_strdup_printf ("capacity %s", full);
  /* The longest bar ends three quarters of the way, its value after it. The lines' label
   * goes right of the capacity line, the rightmost, so that it crosses neither (left of
   * it, it ran across the other line, issue 31); where the quarter right of it is too
   * narrow for the label (a paper column), the title names the lines instead. */
  hi = MAX (v[0], r->capacity_bytes_per_pe);
  hi = exp (log (lo) + (log (hi) - log (lo)) / 0.75);
  {
    cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
    cairo_t *mcr = cairo_create (scratch);
    IvText t;
    double lw, lh;
    iv_text_init (&t, mcr, 13);
    iv_text_measure (&t, line_label, 0.85, FALSE, 0, &lw, &lh);
    iv_text_clear (&t);
    cairo_destroy (mcr);
    cairo_surface_destroy (scratch);
    /* the plot's width: the page less the row names and the margins */
    label_fits = lw + 16 <= 0.25 * (width - 130);
  }
  c = iv_chart_new ();
  /* the verdict in the title, which wraps: in the subtitle it pushed the configuration
   * (T_q, TP, CP) past the two lines a column gives it */
  {
    g_autofree char *used_text = iv_hardware_format_bytes (r->hw, v[0]);
    /* the reserve here too: the subtitle is the configuration's, whole */
    g_autofree char *lines
        = label_fits ? g_strdup_printf (" (%.0f %%)", 100 * (1 - r->config.reserve))
          : r->usable_bytes_per_pe < r->capacity_bytes_per_pe
              ? g_strdup_printf (" (%.0f %% of %s; dashed)", 100 * (1 - r->config.reserve), full)
              : g_strdup (" (dashed)");
    title = g_strdup_printf (r->fits ? "Memory per %s · fits: %s of %s usable%s"
                                     : "Memory per %s · does not fit: %s needed, %s usable%s",
                             iv_hardware_pe_word (r->hw, FALSE), used_text, cap, lines);
    sub = g_strdup (config);
  }
  iv_chart_set_title (c, title, sub);
  iv_chart_axis_set_range (c, IV_AXIS_X, lo, hi);
  if (iv_hardware_is_gpu_server (r->hw))
    {
      /* a GPU's memory in the datasheet's decimal units: GB, not GiB */
      iv_chart_axis_set_scale (c, IV_AXIS_X, IV_SCALE_LOG10);
      iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_COUNT, 1, "B" });
      iv_chart_axis_set_title (c, IV_AXIS_X, "Bytes per GPU, log scale");
    }
  else
    {
      /* powers of two: bytes read as KiB, MiB, GiB */
      iv_chart_axis_set_scale (c, IV_AXIS_X, IV_SCALE_LOG2);
      iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit){ IV_UNIT_BYTES, 1, NULL });
      iv_chart_axis_set_title (c, IV_AXIS_X, "Bytes per PE (log scale)");
    }
  iv_chart_axis_set_categories (c, IV_AXIS_Y, rows, 4);
  iv_chart_axis_set_range (c, IV_AXIS_Y, -0.6, 3.6);
  iv_chart_axis_set_grid (c, IV_AXIS_Y, FALSE);
  iv_chart_set_legend (c, IV_LEGEND_HIDDEN);
  for (int i = 0; i < 4; i++)
    {
      double y = i, x0 = lo, x1 = MAX (v[i], lo);
      g_autofree char *value = iv_hardware_format_bytes (r->hw, v[i]);
      const char *label[] = { value, NULL };
      IvSeries *bar = iv_chart_add_spans (c, rows[i], &x0, &x1, &y, 1);
      IvSeries *end;
      iv_series_set_color (bar, rgb[i]);
      /* the value right of the bar's end */
      end = iv_chart_add_scatter (c, rows[i], &x1, &y, 1);
      iv_series_set_marker (end, IV_MARKER_CIRCLE, 0.1);
      iv_series_set_color (end, rgb[i]);
      iv_series_set_labels (end, label);
      iv_series_set_show_in_legend (end, FALSE);
    }
  /* one label for the two lines, which sit too close for two: on the capacity line, the
   * rightmost, so that it crosses neither */
  if (r->usable_bytes_per_pe < r->capacity_bytes_per_pe)
    iv_chart_add_vline (c, r->usable_bytes_per_pe, NULL);
  iv_chart_add_vline (c, r->capacity_bytes_per_pe, label_fits ? line_label : NULL);
  return iv_chart_render (cr, c, options, width, height, error);
}

gboolean
iv_render_roofline (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  static const struct
  {
    IvBound bound;
    const char *name;
  } kinds[] = {
    { IV_BOUND_COMPUTE, "compute-bound" },
    { IV_BOUND_MEMORY, "memory-bound" },
    { IV_BOUND_COMM, "communication-bound" },
    { IV_BOUND_TRIVIAL, "trivial (< 1 % of the layer)" },
  };
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  const IvHardware *hw;
  const IvKindResult *k;
  g_autoptr (IvChart) c = NULL;
  double roof_x[2], ridge_m, ridge_v, bw, hi_peak = 0;
  double lo = INFINITY, hi = 0;
  g_autofree char *title = NULL, *sub = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  hw = r->hw;
  k = kind_of (fig);
  bw = hw->eta_m * hw->BW;
  ridge_m = hw->eta_c * hw->P_c / bw;
  ridge_v = hw->eta_c * hw->P_v / bw;
  for (int s = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      if (st->present && st->flops > 0 && st->bytes > 0 && st->t_s > 0)
        lo = MIN (lo, st->flops / st->bytes), hi = MAX (hi, st->flops / st->bytes);
      if (st->present && st->matrix)
        hi_peak = MAX (hi_peak, st->peak);
    }
  lo = MIN (lo, MIN (ridge_v, ridge_m) / 20);
  /* past the highest ridge, that of the fastest format in use */
  hi = MAX (hi, MAX (ridge_v, MAX (ridge_m, hw->eta_c * hi_peak / bw)) * 10);
  roof_x[0] = lo / 2, roof_x[1] = hi * 2;
  c = iv_chart_new ();
  title
      = g_strdup_printf ("Roofline of one %s · %s layer", iv_hardware_pe_word (hw, FALSE), k->name);
  sub = config_subtitle (r, NULL);
  iv_chart_set_title (c, title, sub);
  iv_chart_axis_set_scale (c, IV_AXIS_X, IV_SCALE_LOG10);
  iv_chart_axis_set_scale (c, IV_AXIS_Y, IV_SCALE_LOG10);
  iv_chart_axis_set_title (c, IV_AXIS_X, "Arithmetic intensity (FLOP/B)");
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_COUNT, 1, "FLOP/s" });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "Performance");
  iv_chart_axis_set_grid (c, IV_AXIS_X, TRUE);
  /* Ceilings: min(peak, intensity × bandwidth) for the matrix and the vector units. */
  {
    double xx[64], yc[64], yv[64];
    for (int i = 0; i < 64; i++)
      {
        xx[i] = roof_x[0] * pow (roof_x[1] / roof_x[0], i / 63.0);
        yc[i] = MIN (hw->eta_c * hw->P_c, xx[i] * bw);
        yv[i] = MIN (hw->eta_c * hw->P_v, xx[i] * bw);
      }
    /* mid greys: they read on a light page and on a dark one */
    {
      IvSeries *m = iv_chart_add_line (c, "matrix ceiling (BF16)", xx, yc, 64);
      iv_series_set_color (m, 0x8a8a8a);
      iv_series_set_line_width (m, 2.5);
    }
    /* a narrower format's stages compute under its own, higher ceiling (§2.3): one line
     * for each peak the kind's matrix stages use above P_c */
    for (int s = 0; s < IV_N_STAGES; s++)
      {
        const IvStage *st = &k->stages[s];
        gboolean seen = FALSE;
        double y2[64];
        if (!st->present || !st->matrix || !(st->peak > hw->P_c))
          continue;
        for (int o = 0; o < s; o++)
          seen |= k->stages[o].present && k->stages[o].matrix && k->stages[o].peak == st->peak;
        if (seen)
          continue;
        for (int i = 0; i < 64; i++)
          y2[i] = MIN (hw->eta_c * st->peak, xx[i] * bw);
        {
          g_autofree char *name = g_strdup_printf ("matrix ceiling (%s)", iv_format_name (st->fmt));
          IvSeries *f = iv_chart_add_line (c, name, xx, y2, 64);
          iv_series_set_color (f, 0x5a5a5a);
          iv_series_set_line_width (f, 1.5);
        }
      }
    {
      IvSeries *v = iv_chart_add_line (c, "vector ceiling", xx, yv, 64);
      iv_series_set_dashed (v, TRUE);
      iv_series_set_color (v, 0x8a8a8a);
      iv_series_set_line_width (v, 1.5);
    }
  }
  /* each stage in the colour of its bound (as in the pipeline and the table) */
  for (guint b = 0; b < G_N_ELEMENTS (kinds); b++)
    {
      double xs[IV_N_STAGES], ys[IV_N_STAGES];
      const char *labels[IV_N_STAGES + 1];
      gsize n = 0;
      for (int s = 0; s < IV_N_STAGES; s++)
        {
          const IvStage *st = &k->stages[s];
          if (!st->present || st->flops <= 0 || st->bytes <= 0 || st->t_s <= 0
              || st->bound != kinds[b].bound)
            continue;
          xs[n] = st->flops / st->bytes;
          ys[n] = st->flops / st->t_s;
          labels[n++] = iv_stage_id (s);
        }
      labels[n] = NULL;
      if (n > 0)
        {
          IvSeries *pts = iv_chart_add_scatter (c, kinds[b].name, xs, ys, n);
          iv_series_set_marker (pts, IV_MARKER_DIAMOND, 9);
          iv_series_set_alpha (pts, 1);
          iv_series_set_color (pts, iv_bound_color (kinds[b].bound));
          iv_series_set_labels (pts, labels);
        }
    }
  {
    /* short: the axis says FLOP/B, and the two labels must not run into each other */
    g_autofree char *m_label = g_strdup_printf ("BF16 ridge %.3g", ridge_m);
    g_autofree char *v_label = g_strdup_printf ("vector ridge %.3g", ridge_v);
    iv_chart_add_vline (c, ridge_m, m_label);
    iv_chart_add_vline (c, ridge_v, v_label);
  }
  /* beside the plot: inside, it would cover a ridge label or a stage */
  iv_chart_set_legend (c, IV_LEGEND_RIGHT);
  return iv_chart_render (cr, c, options, width, height, error);
}

gboolean
iv_sweep_axis_from_string (const char *name, IvSweepAxis *axis)
{
  static const char *const names[] = { "tp", "cp", "tq", "context" };
  for (guint i = 0; name && i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      {
        *axis = (IvSweepAxis) i;
        return TRUE;
      }
  return FALSE;
}

guint
iv_sweep_values (const IvResult *r, IvSweepAxis axis, gint64 *values, guint max)
{
  gint64 pes = r->hw->n_pe * r->hw->X * r->hw->Y;
  guint n = 0;

  switch (axis)
    {
    case IV_SWEEP_TP:
    case IV_SWEEP_CP:
      for (gint64 v = 1; v <= pes && n < max; v *= 2)
        values[n++] = v;
      break;
    case IV_SWEEP_TQ:
      for (gint64 v = 1; v <= 131072 && n < max; v *= 2)
        values[n++] = v;
      break;
    case IV_SWEEP_CONTEXT:
    default:
      values[n++] = 0;
      for (gint64 v = 1024; v <= 1 << 20 && n < max; v *= 2)
        values[n++] = v;
      break;
    }
  return n;
}

gboolean
iv_render_sweep (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                 double height, GError **error)
{
  /* Stage groups, each a stacked series: where the layer's visible time goes. */
  static const struct
  {
    const char *name;
    guint32 rgb;
    IvStageId stages[6];
    guint n;
  } groups[] = {
    /* Paul Tol's muted scheme: none of the bound colours (blue, orange, red, grey) */
    { "norms", 0xddcc77, { IV_S1, IV_F1 }, 2 },
    { "attention projections", 0x88ccee, { IV_S2, IV_S3, IV_S10 }, 3 },
    { "attention core", 0x332288, { IV_S4, IV_S5, IV_S6, IV_S7, IV_S8, IV_S9 }, 6 },
    { "FFN", 0x117733, { IV_R, IV_F2, IV_F3, IV_F4, IV_F5 }, 5 },
    { "communication", 0xaa4499, { IV_C1, IV_C2, IV_C3, IV_A1, IV_A2, IV_CF1 }, 6 },
  };
  static const char *const axis_names[] = { "TP", "CP", "T_q", "context" };
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  g_autoptr (IvChart) c = NULL;
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  double stacks[G_N_ELEMENTS (groups)][32] = { { 0 } };
  gint64 values[32], current;
  guint n, ok = 0;
  g_autofree char *title = NULL, *subtitle = NULL, *xtitle = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  n = iv_sweep_values (r, fig->sweep, values, G_N_ELEMENTS (values));
  current = fig->sweep == IV_SWEEP_TP   ? r->config.t
            : fig->sweep == IV_SWEEP_CP ? r->config.c
            : fig->sweep == IV_SWEEP_TQ ? r->config.T
                                        : r->config.P;
  for (guint i = 0; i < n; i++)
    {
      IvConfig cfg = r->config;
      IvResult e;
      gboolean valid, fits = TRUE;
      switch (fig->sweep)
        {
        case IV_SWEEP_TP:
          cfg.t = values[i];
          break;
        case IV_SWEEP_CP:
          cfg.c = values[i];
          break;
        case IV_SWEEP_TQ:
          cfg.T = values[i];
          break;
        case IV_SWEEP_CONTEXT:
        default:
          cfg.P = values[i];
          break;
        }
      valid = iv_model_evaluate (r->model, r->hw, &cfg, &e);
      if (valid)
        {
          const IvKindResult *k = &e.kinds[MIN (fig->kind, e.n_kinds - 1)];
          for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
            for (guint s = 0; s < groups[g].n; s++)
              if (k->stages[groups[g].stages[s]].present)
                stacks[g][i] += k->stages[groups[g].stages[s]].visible_s;
          ok++;
          fits = e.fits; /* memory with the runtime reserve (§5): marked, never hidden */
        }
      {
        g_autofree char *num = fig->sweep == IV_SWEEP_CONTEXT && values[i] >= 1024
                                   ? g_strdup_printf ("%" G_GINT64_FORMAT "k", values[i] / 1024)
                                   : g_strdup_printf ("%" G_GINT64_FORMAT, values[i]);
        const char *mark = !valid ? " ✕" : !fits ? " ⊘" : "";
        g_ptr_array_add (labels, values[i] == current ? g_strdup_printf ("[%s]%s", num, mark)
                                                      : g_strdup_printf ("%s%s", num, mark));
      }
    }
  if (ok == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no value of %s evaluates on %s",
                   axis_names[fig->sweep], r->hw->name);
      return FALSE;
    }
  c = iv_chart_new ();
  title = g_strdup_printf ("Time of one %s layer on one %s against %s",
                           r->kinds[MIN (fig->kind, r->n_kinds - 1)].name,
                           iv_hardware_pe_word (r->hw, FALSE), axis_names[fig->sweep]);
  subtitle = config_subtitle (r, NULL);
  iv_chart_set_title (c, title, subtitle);
  xtitle = g_strdup_printf ("%s   ([ ] current · ✕ not possible on this %s · ⊘ does not fit in "
                            "memory)",
                            axis_names[fig->sweep],
                            iv_hardware_is_gpu_server (r->hw) ? "server" : "SIP");
  iv_chart_axis_set_title (c, IV_AXIS_X, xtitle);
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_SECONDS, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "Layer time");
  {
    double lo = INFINITY, hi = 0, totals[32], xs[32];
    for (guint i = 0; i < n; i++)
      {
        totals[i] = 0, xs[i] = i;
        for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
          totals[i] += stacks[g][i];
        if (totals[i] > 0)
          lo = MIN (lo, totals[i]), hi = MAX (hi, totals[i]);
        else
          totals[i] = NAN;
      }
    if (hi <= 100 * lo)
      {
        /* one scale: where the time goes, stacked */
        iv_chart_set_categories (c, (const char *const *) labels->pdata, n);
        iv_chart_set_bar_mode (c, IV_BARS_STACKED, FALSE);
        for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
          iv_series_set_color (iv_chart_add_bars (c, groups[g].name, stacks[g], n), groups[g].rgb);
      }
    else
      {
        /* more than two decades: on a log axis stacked segments would lie about their
         * shares, so each group is its own line, the layer's total over them */
        iv_chart_axis_set_scale (c, IV_AXIS_Y, IV_SCALE_LOG10);
        iv_chart_axis_set_categories (c, IV_AXIS_X, (const char *const *) labels->pdata, n);
        iv_chart_axis_set_range (c, IV_AXIS_X, -0.5, n - 0.5);
        for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
          {
            double ys[32];
            IvSeries *line;
            gboolean any = FALSE;
            for (guint i = 0; i < n; i++)
              ys[i] = stacks[g][i] > 0 ? stacks[g][i] : NAN, any |= stacks[g][i] > 0;
            if (!any)
              continue;
            line = iv_chart_add_line (c, groups[g].name, xs, ys, n);
            iv_series_set_color (line, groups[g].rgb);
            iv_series_set_line_width (line, 2);
            iv_series_set_marker (line, IV_MARKER_CIRCLE, 6);
          }
        {
          IvSeries *total = iv_chart_add_line (c, "layer total", xs, totals, n);
          iv_series_set_color (total, 0x202020);
          iv_series_set_line_width (total, 3);
          iv_series_set_dashed (total, TRUE);
        }
        {
          g_autofree char *yt = g_strdup_printf ("Layer time, log scale (a %.0f× span)", hi / lo);
          iv_chart_axis_set_title (c, IV_AXIS_Y, yt);
        }
      }
  }
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
  return iv_chart_render (cr, c, options, width, height, error);
}
