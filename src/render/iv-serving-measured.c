/* iv-serving-measured.c: an AIPerf sweep's runs on the serving curve's axes (see the
 * header). */
#define G_LOG_DOMAIN "iv-render"

#include <glib/gi18n.h>
#include <math.h>

#include "config.h"
#include "iv-json-writer.h"
#include "iv-run-bound.h"
#include "iv-run-series.h"
#include "iv-serving-measured.h"

static void
measured_free (IvServingMeasured *m)
{
  g_free (m->label);
}

void
iv_serving_measured_from_sweep (const IvSweep *sweep, const IvModel *model, const IvHardware *hw,
                                const IvConfig *config, gint64 tp, IvServingMeasuredSet *out)
{
  double isl_sum = 0, osl_sum = 0;
  guint n_len = 0;

  out->points = g_array_new (FALSE, TRUE, sizeof (IvServingMeasured));
  g_array_set_clear_func (out->points, (GDestroyNotify) measured_free);
  out->left_out = g_ptr_array_new_with_free_func (g_free);
  out->model = model;
  out->isl = out->osl = NAN;
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      IvRunBound b;
      IvServingMeasured m = { 0 };
      const char *why = NULL;
      g_autofree char *other = NULL;
      double itl = iv_run_axis_value (r, "inter_token_latency", "avg");
      double thr = iv_run_axis_value (r, "output_token_throughput", "avg");
      double li = iv_run_axis_value (r, "input_sequence_length", "avg");
      double lo = iv_run_axis_value (r, "output_sequence_length", "avg");

      iv_run_bound_compute (r, model, hw, tp, &b);
      if (isfinite (li) && isfinite (lo))
        isl_sum += li, osl_sum += lo, n_len++;
      m.per_user = iv_run_axis_value (r, "output_token_throughput_per_user", "avg");
      if (!(m.per_user > 0) && itl > 0)
        m.per_user = 1e3 / itl; /* AIPerf's ITL is in ms */
      m.ttft_s = iv_run_axis_value (r, "time_to_first_token", "avg") * 1e-3;
      if (!b.ok)
        why = b.error;
      else if (!(thr > 0) || !(m.per_user > 0))
        why = _ ("it has no output throughput or inter-token latency");
      else if (!out->model)
        out->model = b.model; /* the first run matched names the curve's model */
      if (!why && b.model != out->model)
        why = other = g_strdup_printf (_ ("it ran %s, and the curve is of %s"), b.model->name,
                                       out->model->name);
      if (why)
        {
          g_autofree char *label = iv_sweep_run_label (sweep, r);
          g_ptr_array_add (out->left_out, g_strdup_printf (_ ("%s left out: %s"), label, why));
          iv_run_bound_clear (&b);
          continue;
        }
      /* per GPU: over the GPUs the run's bound assumed, times the experts' split */
      m.per_gpu = thr / (double) (b.pred.tp * config->e);
      m.label = iv_sweep_run_label (sweep, r);
      m.efficiency = NAN;
      g_array_append_val (out->points, m);
      iv_run_bound_clear (&b);
    }
  if (n_len)
    out->isl = isl_sum / n_len, out->osl = osl_sum / n_len;
}

void
iv_serving_measured_set_clear (IvServingMeasuredSet *set)
{
  g_clear_pointer (&set->points, g_array_unref);
  g_clear_pointer (&set->left_out, g_ptr_array_unref);
  set->model = NULL;
}

void
iv_serving_measured_write_json (IvJsonWriter *w, const GArray *points)
{
  iv_json_writer_begin_array (w);
  for (guint i = 0; points && i < points->len; i++)
    {
      const IvServingMeasured *m = &g_array_index (points, IvServingMeasured, i);
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "run");
      iv_json_writer_string (w, m->label);
      iv_json_writer_key (w, "ttft_s");
      iv_json_writer_double (w, m->ttft_s);
      iv_json_writer_key (w, "tokens_per_s_per_user");
      iv_json_writer_double (w, m->per_user);
      iv_json_writer_key (w, "tokens_per_s_per_gpu");
      iv_json_writer_double (w, m->per_gpu);
      iv_json_writer_key (w, "frontier_per_user");
      iv_json_writer_bool (w, m->front_user);
      iv_json_writer_key (w, "frontier_ttft");
      iv_json_writer_bool (w, m->front_ttft);
      /* per-GPU throughput over the bound's at the same per-user throughput; null when
       * the run is faster per user than the bound allows */
      iv_json_writer_key (w, "share_of_bound");
      if (isfinite (m->efficiency))
        iv_json_writer_double (w, m->efficiency);
      else
        iv_json_writer_null (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
}

void
iv_serving_point_write_json (IvJsonWriter *w, const IvServingPoint *p)
{
  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "tp");
  iv_json_writer_int (w, p->t);
  iv_json_writer_key (w, "ep");
  iv_json_writer_int (w, p->e);
  iv_json_writer_key (w, "batch");
  iv_json_writer_int (w, p->B);
  iv_json_writer_key (w, "ttft_s");
  iv_json_writer_double (w, p->ttft_s);
  iv_json_writer_key (w, "itl_s");
  iv_json_writer_double (w, p->itl_s);
  iv_json_writer_key (w, "latency_s");
  iv_json_writer_double (w, p->latency_s);
  iv_json_writer_key (w, "tokens_per_s_per_user");
  iv_json_writer_double (w, p->per_user);
  iv_json_writer_key (w, "tokens_per_s_per_gpu");
  iv_json_writer_double (w, p->per_gpu);
  iv_json_writer_key (w, "memory_bytes_per_gpu");
  iv_json_writer_double (w, p->memory_bytes);
  iv_json_writer_key (w, "fits");
  iv_json_writer_bool (w, p->fits);
  iv_json_writer_key (w, "frontier_per_user");
  iv_json_writer_bool (w, p->front_user);
  iv_json_writer_key (w, "frontier_ttft");
  iv_json_writer_bool (w, p->front_ttft);
  iv_json_writer_end_object (w);
}
