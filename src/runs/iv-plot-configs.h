/* iv-plot-configs.h: the plot configurations that apply to a sweep's runs, read once (by
 * the document loader's worker thread) so that showing a run never reads a file. */
#pragma once

#include "iv-plot-config.h"
#include "iv-sweep.h"

G_BEGIN_DECLS

typedef struct _IvPlotConfigs IvPlotConfigs;

/* Reads the configuration of the comparison (~/.aiperf/plot_config.yaml, else the built-in
 * one) and of each run that has its own .aiperf-plot-config.yaml (iv_plot_config_find's
 * rules). One that cannot be read is replaced by the built-in one, with the reason kept. */
IvPlotConfigs *iv_plot_configs_new (const IvSweep *sweep);
/* The configuration for @run_path (NULL: the comparison) and, when it replaced a broken
 * one, why (else NULL). A run not seen when read (one that joined a followed sweep later)
 * gets the comparison's. */
const IvPlotConfig *iv_plot_configs_get (const IvPlotConfigs *configs, const char *run_path,
                                         const char **error);
void iv_plot_configs_free (IvPlotConfigs *configs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPlotConfigs, iv_plot_configs_free)

G_END_DECLS
