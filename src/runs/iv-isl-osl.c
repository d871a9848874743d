/* iv-isl-osl.c: sequence lengths are read from each run's configuration (the prompt's
 * mean input and output tokens), rounded to whole tokens, so runs of one configuration
 * land in one cell however their floats were printed. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-isl-osl.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-run-series.h"

static int
compare_doubles (gconstpointer pa, gconstpointer pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a > b) - (a < b);
}

/* The distinct values of @v (@n of them, NaN skipped), ascending. */
static double *
distinct (const double *v, guint n, guint *n_out)
{
  g_autoptr (GArray) a = g_array_new (FALSE, FALSE, sizeof (double));
  guint k = 0;

  for (guint i = 0; i < n; i++)
    if (isfinite (v[i]))
      g_array_append_val (a, v[i]);
  g_array_sort (a, compare_doubles);
  for (guint i = 0; i < a->len; i++)
    if (k == 0 || g_array_index (a, double, i) != g_array_index (a, double, k - 1))
      g_array_index (a, double, k++) = g_array_index (a, double, i);
  *n_out = k;
  g_array_set_size (a, MAX (k, 1));
  return (double *) g_array_free (g_steal_pointer (&a), FALSE);
}

static guint
position (const double *values, guint n, double v)
{
  for (guint i = 0; i < n; i++)
    if (values[i] == v)
      return i;
  g_return_val_if_reached (0);
}

guint
iv_isl_osl_index (const IvIslOslGrid *grid, guint load, guint isl, guint osl)
{
  return (load * grid->n_isl + isl) * grid->n_osl + osl;
}

IvIslOslGrid *
iv_isl_osl_grid_new (const IvSweep *sweep, char **reason)
{
  guint n = sweep->runs->len, cells = 0;
  g_autofree double *isl = g_new (double, MAX (n, 1)), *osl = g_new (double, MAX (n, 1));
  g_autofree double *load = g_new (double, MAX (n, 1));
  g_autoptr (IvIslOslGrid) g = g_new0 (IvIslOslGrid, 1);
  gboolean any_concurrency = FALSE;

  for (guint i = 0; i < n; i++)
    any_concurrency |= isfinite (((const IvRun *) sweep->runs->pdata[i])->concurrency);
  g->load_field = any_concurrency ? IV_FIELD_CONCURRENCY : IV_FIELD_REQUEST_RATE;
  for (guint i = 0; i < n; i++)
    {
      const IvRun *r = sweep->runs->pdata[i];
      isl[i] = round (r->isl), osl[i] = round (r->osl);
      load[i] = iv_run_field_number (r, g->load_field);
      if (!isfinite (isl[i]) || !isfinite (osl[i]) || !isfinite (load[i]))
        isl[i] = osl[i] = load[i] = NAN, g->n_left_out++;
    }
  g->isl = distinct (isl, n, &g->n_isl);
  g->osl = distinct (osl, n, &g->n_osl);
  g->load = distinct (load, n, &g->n_load);
  if (g->n_isl * g->n_osl > 0)
    g->cells = g_new0 (GPtrArray *, (gsize) g->n_load * g->n_isl * g->n_osl);
  {
    g_autofree gboolean *filled = g_new0 (gboolean, MAX (g->n_isl * g->n_osl, 1));
    for (guint i = 0; i < n; i++)
      {
        guint a, b, c, k;
        if (isnan (isl[i]))
          continue;
        a = position (g->load, g->n_load, load[i]);
        b = position (g->isl, g->n_isl, isl[i]);
        c = position (g->osl, g->n_osl, osl[i]);
        k = iv_isl_osl_index (g, a, b, c);
        if (!g->cells[k])
          g->cells[k] = g_ptr_array_new ();
        g_ptr_array_add (g->cells[k], sweep->runs->pdata[i]);
        g->n_runs++;
        if (!filled[b * g->n_osl + c])
          filled[b * g->n_osl + c] = TRUE, cells++;
      }
  }
  if (cells < 2)
    {
      *reason = g->n_left_out == n
                    ? g_strdup (_ ("no run records its input and output lengths and its load"))
                    : g_strdup (_ (
                        "the runs do not vary their input or output length (one ISL × OSL cell)"));
      return NULL;
    }
  return g_steal_pointer (&g);
}

void
iv_isl_osl_grid_free (IvIslOslGrid *g)
{
  if (!g)
    return;
  for (gsize i = 0; g->cells && i < (gsize) g->n_load * g->n_isl * g->n_osl; i++)
    if (g->cells[i])
      g_ptr_array_unref (g->cells[i]);
  g_free (g->cells);
  g_free (g->isl);
  g_free (g->osl);
  g_free (g->load);
  g_free (g);
}

double
iv_isl_osl_value (const IvIslOslGrid *g, guint load, guint isl, guint osl, const char *metric,
                  const char *stat)
{
  GPtrArray *cell = g->cells[iv_isl_osl_index (g, load, isl, osl)];
  double sum = 0;
  guint k = 0;

  for (guint i = 0; cell && i < cell->len; i++)
    {
      double v = iv_run_axis_value (cell->pdata[i], metric, stat);
      if (isfinite (v))
        sum += v, k++;
    }
  return k ? sum / k : NAN;
}

const IvRun *
iv_isl_osl_any_run (const IvIslOslGrid *g, const char *metric)
{
  for (gsize i = 0; i < (gsize) g->n_load * g->n_isl * g->n_osl; i++)
    for (guint j = 0; g->cells[i] && j < g->cells[i]->len; j++)
      if (isfinite (iv_run_axis_value (g->cells[i]->pdata[j], metric, NULL)))
        return g->cells[i]->pdata[j];
  return NULL;
}
