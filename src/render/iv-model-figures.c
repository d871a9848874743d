/* iv-model-figures.c: the registry of the Model workspace's figures (see the header). */
#include "iv-model-figures.h"

#include <glib/gi18n.h>

/* The sizes are those each figure was designed at: wide for the pipeline's row of
 * stages, tall for the roofline's two decades of intensity. */
static const IvModelFigureInfo figures[] = {
  { "pipeline", N_ ("Pipeline"), NULL, iv_render_pipeline, 1600, 520, IV_MODEL_FIGURE_OF_RESULT },
  { "stages", N_ ("Stages"), NULL, iv_render_stages, 1200, 720, IV_MODEL_FIGURE_OF_RESULT },
  { "memory", N_ ("Memory"), NULL, iv_render_memory, 1000, 360, IV_MODEL_FIGURE_OF_RESULT },
  { "roofline", N_ ("Roofline"), NULL, iv_render_roofline, 1000, 640, IV_MODEL_FIGURE_OF_RESULT },
  { "sharding", N_ ("Sharding"), NULL, iv_render_sharding, 1200, 640, IV_MODEL_FIGURE_OF_RESULT },
  { "topology", N_ ("Topology"), NULL, iv_render_topology, 1100, 700, IV_MODEL_FIGURE_OF_RESULT },
  { "sweep", N_ ("Sweep"), NULL, iv_render_sweep, 1000, 560, IV_MODEL_FIGURE_OF_RESULT },
  { "serving", N_ ("Serving"),
    N_ ("Per-GPU throughput against per-user throughput and TTFT over every TP, EP and batch: "
        "the bound frontier (docs/model.md §10)"),
    iv_render_serving, 1200, 620, IV_MODEL_FIGURE_OF_SERVING },
};

const IvModelFigureInfo *
iv_model_figures (guint *n_figures)
{
  *n_figures = G_N_ELEMENTS (figures);
  return figures;
}

const IvModelFigureInfo *
iv_model_figure_find (const char *name)
{
  for (guint i = 0; name && i < G_N_ELEMENTS (figures); i++)
    if (g_str_equal (figures[i].name, name))
      return &figures[i];
  return NULL;
}

char *
iv_model_figure_names (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    g_string_append_printf (s, "%s%s",
                            i == 0                           ? ""
                            : i + 1 < G_N_ELEMENTS (figures) ? ", "
                                                             : " or ",
                            figures[i].name);
  return g_string_free (s, FALSE);
}
