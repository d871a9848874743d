/* iv-run-bound.c: the run's side of §9. Concurrency comes from the run's configuration,
 * else from Little's law (requests per second × mean latency: the mean in flight); ISL
 * and OSL are the means over its profiled records, else its configuration's. Measured
 * times are AIPerf's averages (ms), throughputs its per-run figures. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-run-bound.h"

#include <math.h>
#include <string.h>

#include "iv-render-runs.h"
#include "iv-run-series.h"

static const char *const keys[IV_N_BOUND_MEASURES] = {
  [IV_BOUND_TTFT] = "time_to_first_token",
  [IV_BOUND_ITL] = "inter_token_latency",
  [IV_BOUND_LATENCY] = "request_latency",
  [IV_BOUND_THROUGHPUT] = "output_token_throughput",
  [IV_BOUND_THROUGHPUT_PER_GPU] = "output_token_throughput_per_gpu",
};

const char *
iv_bound_measure_key (IvBoundMeasure m)
{
  g_return_val_if_fail (m < IV_N_BOUND_MEASURES, "");
  return keys[m];
}

gboolean
iv_bound_measure_is_time (IvBoundMeasure m)
{
  return m == IV_BOUND_TTFT || m == IV_BOUND_ITL || m == IV_BOUND_LATENCY;
}

void
iv_run_bound_clear (IvRunBound *b)
{
  g_clear_pointer (&b->model_name, g_free);
  g_clear_pointer (&b->error, g_free);
}

void
iv_run_bound_compute (const IvRun *r, const IvModel *model, const IvHardware *hw, gint64 tp,
                      IvRunBound *b)
{
  double C, isl, osl;
  g_autoptr (GError) error = NULL;

  memset (b, 0, sizeof *b);
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    b->predicted[i] = b->measured[i] = b->efficiency[i] = NAN;
  b->model_name = g_strdup (r->model ? r->model : "");
  b->model = model ? model : iv_predict_match_model (r->model);
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    {
      double v = iv_run_axis_value (r, keys[i], "avg");
      /* AIPerf's times are in milliseconds */
      b->measured[i] = iv_bound_measure_is_time (i) ? v * 1e-3 : v;
    }
  if (!b->model)
    {
      b->error = g_strdup_printf (
          "the run's model “%s” matches no preset: choose the model beside the hardware "
          "(window), or --model PRESET (command line)",
          r->model ? r->model : "?");
      return;
    }
  b->concurrency_from_config = isfinite (r->concurrency);
  C = b->concurrency_from_config
          ? r->concurrency
          : iv_run_axis_value (r, "request_throughput", "avg") * b->measured[IV_BOUND_LATENCY];
  isl = iv_run_axis_value (r, "input_sequence_length", "avg");
  osl = iv_run_axis_value (r, "output_sequence_length", "avg");
  if (!isfinite (isl))
    isl = r->isl;
  if (!isfinite (osl))
    osl = r->osl;
  if (!iv_predict (b->model, hw, tp, C, isl, osl, &b->pred, &error))
    {
      b->error = g_strdup (error->message);
      return;
    }
  b->ok = TRUE;
  b->predicted[IV_BOUND_TTFT] = b->pred.ttft_s;
  b->predicted[IV_BOUND_ITL] = b->pred.itl_s;
  b->predicted[IV_BOUND_LATENCY] = b->pred.latency_s;
  b->predicted[IV_BOUND_THROUGHPUT] = b->pred.throughput;
  b->predicted[IV_BOUND_THROUGHPUT_PER_GPU] = b->pred.throughput_per_gpu;
  /* per GPU: the run's own throughput over the GPUs the prediction assumed */
  b->measured[IV_BOUND_THROUGHPUT_PER_GPU] = b->measured[IV_BOUND_THROUGHPUT] / (double) b->pred.tp;
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    b->efficiency[i]
        = iv_predict_efficiency (b->predicted[i], b->measured[i], iv_bound_measure_is_time (i));
}

static int
compare_x (const void *a, const void *b, void *data)
{
  const double *x = data;
  double u = x[*(const guint *) a], v = x[*(const guint *) b];
  return (u > v) - (u < v);
}

IvChart *
iv_run_bound_chart (const IvSweep *sweep, const IvHardware *hw, gint64 tp, const IvModel *model,
                    const char *x_metric, const char *title, char **reason)
{
  static const struct
  {
    IvBoundMeasure m;
    const char *name;
    guint32 rgb;
    IvMarker marker;
  } lines[] = {
    { IV_BOUND_TTFT, "time to first token", 0x0072b2, IV_MARKER_CIRCLE },
    { IV_BOUND_ITL, "inter-token latency", 0xe69f00, IV_MARKER_SQUARE },
    { IV_BOUND_THROUGHPUT, "output throughput", 0x009e73, IV_MARKER_TRIANGLE },
  };
  guint n = sweep->runs->len, usable = 0;
  g_autofree IvRunBound *b = g_new0 (IvRunBound, MAX (n, 1));
  g_autofree double *x = g_new (double, MAX (n, 1));
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *first_error = NULL, *sub = NULL, *xt = NULL;
  const char *xm = x_metric ? x_metric : "concurrency";
  IvChart *c;

  if (!hw)
    {
      *reason = g_strdup (
          "choose the hardware to set the runs against (“Bound on”, or --hardware NAME)");
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      iv_run_bound_compute (r, model, hw, tp, &b[i]);
      x[i] = iv_run_axis_value (r, xm, NULL);
      if (b[i].ok && isfinite (x[i]))
        g_array_append_val (order, i), usable++;
      else if (!first_error && b[i].error)
        first_error = g_strdup (b[i].error);
    }
  if (usable == 0)
    {
      *reason
          = first_error ? g_steal_pointer (&first_error) : g_strdup_printf ("no run has “%s”", xm);
      for (guint i = 0; i < n; i++)
        iv_run_bound_clear (&b[i]);
      return NULL;
    }
  g_array_sort_with_data (order, compare_x, x);
  c = iv_chart_new ();
  /* the caveat in brief: whole, it was cut ("…queueing, s…") on a paper column; the run
   * card and the CLI say it in full */
  sub = g_strdup_printf ("%s on %s, TP %" G_GINT64_FORMAT
                         " · 100 %% = the bound (no queueing or interference)",
                         b[g_array_index (order, guint, 0)].model->name, hw->name,
                         b[g_array_index (order, guint, 0)].pred.tp);
  iv_chart_set_title (c, title ? title : "Measured vs Bound", sub);
  xt = iv_metric_title (xm);
  iv_chart_axis_set_title (c, IV_AXIS_X, xt);
  /* short: "Share of the bound reached" was cut to "Share of the…" on a paper column */
  iv_chart_axis_set_title (c, IV_AXIS_Y, "Share of bound");
  iv_chart_axis_set_unit (c, IV_AXIS_Y, (IvUnit){ IV_UNIT_PERCENT, 1, NULL });
  /* a line joins the runs only where each x is one run; a sweep of other fields too
   * (sequence lengths at each concurrency) is a cloud of points per x */
  gboolean unique = TRUE;
  for (guint j = 1; j < usable; j++)
    unique &= x[g_array_index (order, guint, j)] != x[g_array_index (order, guint, j - 1)];
  for (guint k = 0; k < G_N_ELEMENTS (lines); k++)
    {
      g_autofree double *xs = g_new (double, usable), *ys = g_new (double, usable);
      IvSeries *s;
      for (guint j = 0; j < usable; j++)
        {
          guint i = g_array_index (order, guint, j);
          xs[j] = x[i];
          ys[j] = 100 * b[i].efficiency[lines[k].m];
        }
      s = iv_chart_add_scatter (c, lines[k].name, xs, ys, usable);
      iv_series_set_color (s, lines[k].rgb);
      iv_series_set_marker (s, lines[k].marker, 9);
      if (unique)
        {
          s = iv_chart_add_line (c, lines[k].name, xs, ys, usable);
          iv_series_set_color (s, lines[k].rgb);
          iv_series_set_line_width (s, 2);
          iv_series_set_show_in_legend (s, FALSE);
        }
    }
  iv_chart_add_hline (c, 100, "the bound");
  {
    /* room above the 100 % line for its label, which the plot's top edge cut */
    double top = 100;
    for (guint j = 0; j < usable; j++)
      for (guint k = 0; k < G_N_ELEMENTS (lines); k++)
        {
          double v = 100 * b[g_array_index (order, guint, j)].efficiency[lines[k].m];
          if (isfinite (v))
            top = MAX (top, v);
        }
    iv_chart_axis_set_range (c, IV_AXIS_Y, 0, top * 1.15);
  }
  iv_chart_set_legend (c, IV_LEGEND_RIGHT);
  for (guint i = 0; i < n; i++)
    iv_run_bound_clear (&b[i]);
  return c;
}
