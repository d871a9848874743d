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
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no evaluated configuration to draw%s%s",
                   r && r->error[0] ? ": " : "", r ? r->error : "");
      return FALSE;
    }
  return TRUE;
}

static char *
fmt_time (double s)
{
  return s > 0 ? iv_units_format_seconds (s) : g_strdup ("–");
}

gboolean
iv_render_stages (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                  double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvThemeColors *colors = iv_theme_get_colors (options->theme);
  static const char *const headers[] = { "stage", "", "FLOPs", "bytes", "comm", "compute",
                                         "memory", "comm time", "visible", "bound" };
  static const double weights[] = { 0.6, 1.4, 1, 1, 1, 1, 1, 1, 1, 1.1 };
  const IvKindResult *k;
  IvText text;
  double pad = 16, x, col_w[G_N_ELEMENTS (headers)], total_w = 0, row_h, y;
  guint rows = 0;
  g_autofree char *title = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  k = kind_of (fig);
  for (int s = 0; s < IV_N_STAGES; s++)
    rows += k->stages[s].present;
  for (guint i = 0; i < G_N_ELEMENTS (weights); i++)
    total_w += weights[i];
  for (guint i = 0; i < G_N_ELEMENTS (weights); i++)
    col_w[i] = (width - 2 * pad) * weights[i] / total_w;
  row_h = CLAMP ((height - 2 * pad - 60) / (rows + 1), 14, 30);
  iv_text_init (&text, cr, MIN (13 * (options->font_scale > 0 ? options->font_scale : 1), row_h * 0.62));

  cairo_save (cr);
  iv_color_set_source (cr, &colors->background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  {
    g_autofree char *att = iv_units_format_seconds (k->attention_s);
    g_autofree char *ffn = iv_units_format_seconds (k->ffn_s);
    title = g_strdup_printf ("%s · %s layer · per PE · %s · attention %s, FFN %s",
                             fig->result->model->name, k->name,
                             iv_mode_to_string (fig->result->config.mode), att, ffn);
  }
  iv_text_show (&text, cr, title, pad, pad, 0, 0, 1.2, TRUE, width - 2 * pad, &colors->foreground);
  y = pad + 40;
  x = pad;
  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    {
      iv_text_show (&text, cr, headers[c], c < 2 ? x : x + col_w[c] - 6, y + row_h / 2, c < 2 ? 0 : 1, 0.5,
                    0.9, TRUE, col_w[c] - 8, &colors->foreground_dim);
      x += col_w[c];
    }
  y += row_h;
  iv_color_set_source (cr, &colors->grid);
  cairo_rectangle (cr, pad, y - 1, width - 2 * pad, 1);
  cairo_fill (cr);
  for (int s = 0, r = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      char *cells[G_N_ELEMENTS (headers)];
      guint32 bc = iv_bound_color (st->bound);
      IvColor chip = { ((bc >> 16) & 0xff) / 255.0, ((bc >> 8) & 0xff) / 255.0, (bc & 0xff) / 255.0, 1 };

      if (!st->present)
        continue;
      if (r++ % 2 == 1)
        {
          IvColor band = colors->grid;
          band.a *= options->theme == IV_THEME_PRINT ? 1 : 0.5;
          iv_color_set_source (cr, options->theme == IV_THEME_PRINT ? &(IvColor) { 0.96, 0.96, 0.96, 1 } : &band);
          cairo_rectangle (cr, pad, y, width - 2 * pad, row_h);
          cairo_fill (cr);
        }
      cells[0] = g_strdup (iv_stage_id (s));
      cells[1] = g_strdup (iv_stage_name (s));
      cells[2] = st->flops > 0 ? iv_units_format_count (st->flops) : g_strdup ("–");
      cells[3] = st->bytes > 0 ? iv_units_format_bytes (st->bytes) : g_strdup ("–");
      cells[4] = st->comm_bytes > 0 ? iv_units_format_bytes (st->comm_bytes) : g_strdup ("–");
      cells[5] = fmt_time (st->t_compute_s);
      cells[6] = fmt_time (st->t_memory_s);
      cells[7] = fmt_time (st->t_comm_s);
      cells[8] = fmt_time (st->visible_s);
      cells[9] = g_strdup (iv_bound_to_string (st->bound));
      x = pad;
      for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
        {
          if (c == 9)
            {
              cairo_rectangle (cr, x + 4, y + row_h * 0.25, row_h * 0.5, row_h * 0.5);
              iv_color_set_source (cr, &chip);
              cairo_fill (cr);
              iv_text_show (&text, cr, cells[c], x + 8 + row_h * 0.5, y + row_h / 2, 0, 0.5, 0.9, FALSE,
                            col_w[c] - row_h, &colors->foreground);
            }
          else
            iv_text_show (&text, cr, cells[c], c < 2 ? x : x + col_w[c] - 6, y + row_h / 2, c < 2 ? 0 : 1,
                          0.5, 0.9, c == 0, col_w[c] - 8, &colors->foreground);
          x += col_w[c];
          g_free (cells[c]);
        }
      y += row_h;
    }
  cairo_restore (cr);
  iv_text_clear (&text);
  return TRUE;
}

gboolean
iv_render_memory (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                  double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  g_autoptr (IvChart) c = NULL;
  const char *cats[] = { "per PE" };
  double used, weights, kv, act, free_b;
  g_autofree char *title = NULL, *cap = NULL, *sub = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  weights = r->weights_bytes_per_pe, kv = r->kv_bytes_per_pe, act = r->act_bytes_per_pe;
  used = weights + kv + act;
  free_b = MAX (0, r->capacity_bytes_per_pe - used);
  c = iv_chart_new ();
  title = g_strdup_printf ("Memory per PE · %s on %s", r->model->name, r->hw->name);
  cap = iv_units_format_bytes (r->capacity_bytes_per_pe);
  {
    g_autofree char *used_text = iv_units_format_bytes (used);
    sub = g_strdup_printf (r->fits ? "fits: %s of %s used" : "does not fit: %s needed, %s available",
                           used_text, cap);
  }
  iv_chart_set_title (c, title, sub);
  iv_chart_set_categories (c, cats, 1);
  iv_chart_set_bar_mode (c, IV_BARS_STACKED, TRUE);
  iv_chart_axis_set_unit (c, IV_AXIS_X, (IvUnit) { IV_UNIT_BYTES, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_X, "Memory");
  iv_chart_set_legend (c, IV_LEGEND_BOTTOM);
  iv_series_set_color (iv_chart_add_bars (c, "weights", &weights, 1), 0x4682b4);
  iv_series_set_color (iv_chart_add_bars (c, "KV cache", &kv, 1), 0xe37400);
  iv_series_set_color (iv_chart_add_bars (c, "activations", &act, 1), 0x009e73);
  if (free_b > 0)
    iv_series_set_color (iv_chart_add_bars (c, "free", &free_b, 1), 0xd0d0d0);
  {
    g_autofree char *label = g_strdup_printf ("capacity %s", cap);
    iv_chart_add_vline (c, r->capacity_bytes_per_pe, label);
  }
  return iv_chart_render (cr, c, options, width, height, error);
}

gboolean
iv_render_roofline (cairo_t *cr, gconstpointer data, const IvRenderOptions *options, double width,
                    double height, GError **error)
{
  const IvModelFigure *fig = data;
  const IvResult *r = fig->result;
  const IvHardware *hw;
  const IvKindResult *k;
  g_autoptr (IvChart) c = NULL;
  double xs[64], ys[64], roof_x[2], ridge;
  const char *labels[64];
  gsize n = 0;
  double lo = INFINITY, hi = 0;
  g_autofree char *title = NULL, *ridge_label = NULL;

  if (!iv_model_figure_check (fig, error))
    return FALSE;
  hw = r->hw;
  k = kind_of (fig);
  for (int s = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &k->stages[s];
      if (!st->present || st->flops <= 0 || st->bytes <= 0 || st->t_s <= 0)
        continue;
      xs[n] = st->flops / st->bytes;
      ys[n] = st->flops / st->t_s;
      labels[n] = iv_stage_id (s);
      lo = MIN (lo, xs[n]);
      hi = MAX (hi, xs[n]);
      n++;
    }
  ridge = hw->eta_c * hw->P_c / (hw->eta_m * hw->BW);
  lo = MIN (lo, 0.1);
  hi = MAX (hi, ridge * 10);
  roof_x[0] = lo / 2, roof_x[1] = hi * 2;
  c = iv_chart_new ();
  title = g_strdup_printf ("Roofline of one PE · %s %s layer", r->model->name, k->name);
  iv_chart_set_title (c, title, "each stage at its arithmetic intensity and achieved FLOP/s");
  iv_chart_axis_set_scale (c, IV_AXIS_X, IV_SCALE_LOG10);
  iv_chart_axis_set_scale (c, IV_AXIS_Y, IV_SCALE_LOG10);
  iv_chart_axis_set_title (c, IV_AXIS_X, "Arithmetic intensity (FLOP/B)");
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit) { IV_UNIT_COUNT, 1, "FLOP/s" });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "Performance");
  iv_chart_axis_set_grid (c, IV_AXIS_X, TRUE);
  /* Ceilings: min(peak, intensity × bandwidth) for the matrix and the vector units. */
  {
    double xx[64], yc[64], yv[64];
    for (int i = 0; i < 64; i++)
      {
        xx[i] = roof_x[0] * pow (roof_x[1] / roof_x[0], i / 63.0);
        yc[i] = MIN (hw->eta_c * hw->P_c, xx[i] * hw->eta_m * hw->BW);
        yv[i] = MIN (hw->eta_c * hw->P_v, xx[i] * hw->eta_m * hw->BW);
      }
    iv_series_set_color (iv_chart_add_line (c, "matrix ceiling", xx, yc, 64), 0x4682b4);
    iv_series_set_dashed (iv_chart_add_line (c, "vector ceiling", xx, yv, 64), TRUE);
  }
  if (n > 0)
    {
      IvSeries *pts = iv_chart_add_scatter (c, "stages", xs, ys, n);
      iv_series_set_marker (pts, IV_MARKER_DIAMOND, 9);
      iv_series_set_alpha (pts, 1);
      iv_series_set_color (pts, 0xc62828);
      iv_series_set_labels (pts, labels);
    }
  ridge_label = g_strdup_printf ("ridge %.0f FLOP/B", ridge);
  iv_chart_add_vline (c, ridge, ridge_label);
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
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
  static const struct { const char *name; guint32 rgb; IvStageId stages[6]; guint n; } groups[] = {
    { "norms", 0xa9a9a9, { IV_S1, IV_F1 }, 2 },
    { "attention projections", 0x56b4e9, { IV_S2, IV_S3, IV_S10 }, 3 },
    { "attention core", 0x0072b2, { IV_S4, IV_S5, IV_S6, IV_S7, IV_S8, IV_S9 }, 6 },
    { "FFN", 0xe69f00, { IV_R, IV_F2, IV_F3, IV_F4, IV_F5 }, 5 },
    { "communication", 0xc62828, { IV_C1, IV_C2, IV_C3, IV_CF1 }, 4 },
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
  current = fig->sweep == IV_SWEEP_TP ? r->config.t : fig->sweep == IV_SWEEP_CP ? r->config.c
            : fig->sweep == IV_SWEEP_TQ ? r->config.T : r->config.P;
  for (guint i = 0; i < n; i++)
    {
      IvConfig cfg = r->config;
      IvResult e;
      gboolean valid;
      switch (fig->sweep)
        {
        case IV_SWEEP_TP: cfg.t = values[i]; break;
        case IV_SWEEP_CP: cfg.c = values[i]; break;
        case IV_SWEEP_TQ: cfg.T = values[i]; break;
        case IV_SWEEP_CONTEXT:
        default: cfg.P = values[i]; break;
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
        }
      {
        g_autofree char *num = fig->sweep == IV_SWEEP_CONTEXT && values[i] >= 1024
                               ? g_strdup_printf ("%" G_GINT64_FORMAT "k", values[i] / 1024)
                               : g_strdup_printf ("%" G_GINT64_FORMAT, values[i]);
        g_ptr_array_add (labels, values[i] == current ? g_strdup_printf ("[%s]", num)
                                 : valid ? g_strdup (num) : g_strdup_printf ("%s ✕", num));
      }
    }
  if (ok == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "no value of %s evaluates on %s", axis_names[fig->sweep], r->hw->name);
      return FALSE;
    }
  c = iv_chart_new ();
  title = g_strdup_printf ("%s layer time against %s · %s on %s", r->model->name,
                           axis_names[fig->sweep], iv_mode_to_string (r->config.mode), r->hw->name);
  subtitle = g_strdup_printf ("%s layer, one PE; the rest as configured; [ ] current, ✕ not possible on this SIP",
                              r->kinds[MIN (fig->kind, r->n_kinds - 1)].name);
  iv_chart_set_title (c, title, subtitle);
  iv_chart_set_categories (c, (const char *const *) labels->pdata, n);
  iv_chart_set_bar_mode (c, IV_BARS_STACKED, FALSE);
  xtitle = g_strdup (axis_names[fig->sweep]);
  iv_chart_axis_set_title (c, IV_AXIS_X, xtitle);
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit) { IV_UNIT_SECONDS, 1, NULL });
  iv_chart_axis_set_title (c, IV_AXIS_Y, "Layer time");
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    iv_series_set_color (iv_chart_add_bars (c, groups[g].name, stacks[g], n), groups[g].rgb);
  iv_chart_set_legend (c, IV_LEGEND_AUTO);
  return iv_chart_render (cr, c, options, width, height, error);
}
