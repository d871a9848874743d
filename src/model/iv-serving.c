/* iv-serving.c: docs/model.md §10. Every TP (and EP for a MoE model) this hardware places,
 * each with batches 1, 2, 3, 4, 6, 8, … up to 4096: one prefill step for TTFT per TP × EP,
 * one decode step per batch for ITL, both evaluated without the hints (which search other
 * configurations), so a whole curve is a few hundred evaluations. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-serving.h"

#include <math.h>

#define MAX_BATCH 4096

void
iv_serving_free (IvServingCurve *c)
{
  if (!c)
    return;
  if (c->points) /* a curve refused before its sweep has none */
    g_array_unref (c->points);
  g_free (c);
}

void
iv_pareto (const double *x, const double *y, const gboolean *eligible, guint n, gboolean x_higher,
           gboolean *front)
{
  for (guint i = 0; i < n; i++)
    {
      gboolean ok = (!eligible || eligible[i]) && isfinite (x[i]) && isfinite (y[i]);
      for (guint j = 0; ok && j < n; j++)
        {
          double xi = x_higher ? x[i] : -x[i], xj = x_higher ? x[j] : -x[j];
          if (j == i || (eligible && !eligible[j]) || !isfinite (x[j]) || !isfinite (y[j]))
            continue;
          /* j beats i: at least as good on both, better on one */
          if (xj >= xi && y[j] >= y[i] && (xj > xi || y[j] > y[i]))
            ok = FALSE;
        }
      front[i] = ok;
    }
}

/* The steps of one (t, e): TTFT, then every batch. */
static gboolean
sweep_one (IvServingCurve *curve, IvConfig c, IvResult *r)
{
  double ttft;
  double usable = iv_config_usable_bytes (&c, curve->hw);
  gboolean any = FALSE;

  c.mode = IV_MODE_PREFILL, c.B = 1, c.T = (gint64) llround (curve->isl), c.P = 0;
  if (!iv_model_evaluate_plain (curve->model, curve->hw, &c, r))
    return FALSE;
  ttft = r->step_s;
  for (gint64 b = 1; b <= MAX_BATCH; b = (b < 2 ? 2 : (b & (b - 1)) == 0 ? b / 2 * 3 : b / 3 * 4))
    {
      IvServingPoint p = { c.t, c.e, b };
      c.mode = IV_MODE_DECODE, c.B = b, c.T = 1;
      /* memory at the peak context, ISL + OSL positions */
      c.P = (gint64) llround (curve->isl + curve->osl) - 1;
      p.memory_bytes = iv_model_memory_per_pe (curve->model, &c, NULL, NULL);
      p.fits = p.memory_bytes <= usable;
      c.P = (gint64) llround (curve->isl + curve->osl / 2);
      if (!iv_model_evaluate_plain (curve->model, curve->hw, &c, r))
        continue;
      p.ttft_s = ttft;
      p.itl_s = r->step_s;
      p.latency_s = ttft + (curve->osl - 1) * p.itl_s;
      p.per_user = 1 / p.itl_s;
      p.per_gpu = (double) c.e * b * curve->osl / p.latency_s / (double) (c.t * c.e);
      g_array_append_val (curve->points, p);
      curve->n_fit += p.fits;
      any = TRUE;
    }
  return any;
}

IvServingCurve *
iv_serving_compute (const IvModel *model, const IvHardware *hw, const IvConfig *base, double isl,
                    double osl, GError **error)
{
  g_autoptr (IvServingCurve) curve = g_new0 (IvServingCurve, 1);
  g_autofree IvResult *r = g_new0 (IvResult, 1);
  gint64 pes = hw->X * hw->Y * hw->n_pe;
  gint64 e_max = model->E > 0 ? pes : 1;

  g_return_val_if_fail (model && hw && base, NULL);
  if (!(isl >= 1 && osl >= 1 && isl + osl <= 1e9))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the serving curve needs an ISL and an OSL of at least 1 and together at most "
                   "1000000000 (have %g and %g)",
                   isl, osl);
      return NULL;
    }
  curve->model = model, curve->hw = hw, curve->base = *base;
  curve->isl = isl, curve->osl = osl;
  curve->points = g_array_new (FALSE, FALSE, sizeof (IvServingPoint));
  for (gint64 t = 1; t <= pes; t *= 2)
    for (gint64 e = 1; e <= e_max && t * e <= pes; e *= 2)
      {
        IvConfig c = *base;
        c.t = t, c.e = e, c.c = 1;
        sweep_one (curve, c, r);
      }
  if (curve->points->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "no TP%s of %s can be placed on %s",
                   model->E > 0 ? " or EP" : "", model->name, hw->name);
      return NULL;
    }
  {
    guint n = curve->points->len;
    g_autofree double *x = g_new (double, n), *y = g_new (double, n), *tt = g_new (double, n);
    g_autofree gboolean *ok = g_new (gboolean, n), *fu = g_new (gboolean, n),
                        *ft = g_new (gboolean, n);
    for (guint i = 0; i < n; i++)
      {
        const IvServingPoint *p = &g_array_index (curve->points, IvServingPoint, i);
        x[i] = p->per_user, y[i] = p->per_gpu, tt[i] = p->ttft_s, ok[i] = p->fits;
      }
    iv_pareto (x, y, ok, n, TRUE, fu);
    iv_pareto (tt, y, ok, n, FALSE, ft);
    for (guint i = 0; i < n; i++)
      {
        IvServingPoint *p = &g_array_index (curve->points, IvServingPoint, i);
        p->front_user = fu[i], p->front_ttft = ft[i];
      }
  }
  return g_steal_pointer (&curve);
}

static int
by_per_user (gconstpointer a, gconstpointer b)
{
  double u = ((const IvServingPoint *) a)->per_user, v = ((const IvServingPoint *) b)->per_user;
  return (u > v) - (u < v);
}

double
iv_serving_bound_at (const IvServingCurve *curve, double per_user)
{
  g_autoptr (GArray) front = g_array_new (FALSE, FALSE, sizeof (IvServingPoint));

  for (guint i = 0; i < curve->points->len; i++)
    {
      const IvServingPoint *p = &g_array_index (curve->points, IvServingPoint, i);
      if (p->front_user)
        g_array_append_val (front, *p);
    }
  if (front->len == 0 || !(per_user > 0))
    return NAN;
  g_array_sort (front, by_per_user);
  /* slower users than the bound's slowest point: the bound's best throughput holds */
  if (per_user <= g_array_index (front, IvServingPoint, 0).per_user)
    return g_array_index (front, IvServingPoint, 0).per_gpu;
  for (guint i = 1; i < front->len; i++)
    {
      const IvServingPoint *a = &g_array_index (front, IvServingPoint, i - 1);
      const IvServingPoint *b = &g_array_index (front, IvServingPoint, i);
      if (per_user <= b->per_user)
        {
          double f = (log (per_user) - log (a->per_user)) / (log (b->per_user) - log (a->per_user));
          return exp (log (a->per_gpu) + f * (log (b->per_gpu) - log (a->per_gpu)));
        }
    }
  return NAN; /* faster per user than the hardware allows */
}

void
iv_serving_mark_measured (const IvServingCurve *curve, IvServingMeasured *m, guint n)
{
  g_autofree double *x = g_new (double, MAX (n, 1)), *y = g_new (double, MAX (n, 1)),
                    *tt = g_new (double, MAX (n, 1));
  g_autofree gboolean *fu = g_new (gboolean, MAX (n, 1)), *ft = g_new (gboolean, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    x[i] = m[i].per_user, y[i] = m[i].per_gpu, tt[i] = m[i].ttft_s;
  iv_pareto (x, y, NULL, n, TRUE, fu);
  iv_pareto (tt, y, NULL, n, FALSE, ft);
  for (guint i = 0; i < n; i++)
    {
      double bound = curve ? iv_serving_bound_at (curve, m[i].per_user) : NAN;
      m[i].front_user = fu[i], m[i].front_ttft = ft[i];
      m[i].efficiency = bound > 0 && m[i].per_gpu > 0 ? m[i].per_gpu / bound : NAN;
    }
}
