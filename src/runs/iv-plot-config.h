/* iv-plot-config.h: the plot presets of `aiperf plot` and its configuration file
 * (visualization.{multi_run_defaults, single_run_defaults, multi_run_plots,
 * single_run_plots}), read with libyaml. Found from --config, then
 * <run>/.aiperf-plot-config.yaml, then ~/.aiperf/plot_config.yaml, then the built-in
 * default (a copy of AIPerf's own); Inferview's own presets are added to whichever is
 * read. Unknown keys are warnings, never failures; a warning said many times is said
 * once, with its count.
 *
 * The file may come with a run folder, from whoever made it, so it is read under a
 * budget (see iv-plot-config.c): its values are capped (IV_PLOT_CONFIG_NODES), so is what
 * aliases expand to (IV_PLOT_CONFIG_ALIAS_BYTES and _NODES), an alias inside the node it
 * names is refused, merge keys are resolved
 * once per preset, anchors and presets are hashed — reading takes time linear in the
 * file. A preset's name becomes a file name only through IvPlotFileNames. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  IV_PLOT_SCATTER,             /* a metric per request */
  IV_PLOT_SCATTER_PERCENTILES, /* … with rolling p50/p95/p99 */
  IV_PLOT_AREA,                /* dispersed output-token throughput over time */
  IV_PLOT_REQUEST_TIMELINE,    /* one bar per request: prefill and decode */
  IV_PLOT_TIMESLICE,           /* a statistic per time slice with ±std */
  IV_PLOT_DUAL_AXIS,           /* throughput with GPU utilisation on a second axis */
  IV_PLOT_HISTOGRAM,           /* aiperf's: a time-slice statistic as bars, one per window */
  IV_PLOT_DISTRIBUTION,        /* Inferview's: the distribution of a per-request metric */
  IV_PLOT_PERCENTILE_BANDS,    /* p50 line with p95 and p99 bands over time */
  IV_PLOT_CDF,                 /* its cumulative distribution, percentiles marked */
  IV_PLOT_GPU,                 /* a telemetry field per GPU over time */
  IV_PLOT_PARETO,              /* runs: the frontier of y against x */
  IV_PLOT_SCATTER_LINE,        /* runs: y against x, one line per group */
  IV_PLOT_UNCERTAINTY,         /* runs: means with confidence intervals of repeated trials */
  IV_PLOT_BOX,                 /* runs: a metric's distribution per run, side by side */
  IV_PLOT_SERVER,              /* the server's metrics over time, beside the client's */
  IV_PLOT_ISL_OSL_HEATMAP,     /* runs: a metric over input × output length, a panel per load */
  IV_PLOT_ISL_OSL_PARETO,      /* runs: small multiples, a pareto panel per (ISL, OSL) */
  IV_PLOT_PARETO_SURFACE,      /* runs: the pareto curves of each ISL as a surface, one per OSL */
  IV_PLOT_BOUND,               /* runs: how much of the model's bound each run reached */
  IV_PLOT_UNKNOWN,
} IvPlotType;

/* settings.server_metrics_downsampling: how server metrics are thinned for drawing. */
typedef struct
{
  gboolean enabled;
  double window_s;
  char *method; /* mean, max, min, median */
} IvDownsampling;

typedef struct
{
  char *metric; /* a metric tag, a config field or a derived quantity ("request_number") */
  char *stat;   /* avg, p50, p90, p99 … (runs), NULL for per-request values */
} IvPlotAxis;

typedef struct
{
  char *name;
  IvPlotType type;
  char *type_name;
  char *title, *description;
  IvPlotAxis x, y, y2;
  char *stat; /* time slices: the statistic */
  char *source;
  GStrv labels, groups; /* runs: what labels points, what makes series */
  double ci_level;
  char *x_label, *y_label; /* axis titles replacing the metric's, or NULL */
  char *autoscale;         /* none, x, y, both: Inferview's axes always fit their data */
  /* use_slice_duration: time slices on a seconds axis ("0-5", "5-10") when the run says
   * their width; aiperf's TimeSlicePlotSpec only when the key is there: -1 absent, 0, 1 */
  gint use_slice_duration;
  /* experiment_classification.group_display_names, borrowed: a group's legend name */
  GHashTable *group_display_names;
  /* settings.server_metrics_downsampling, borrowed from the configuration: how aiperf plot
   * thins a Parquet file's server metrics (drawn so with aiperf_compatible); NULL: its
   * default, 5-s windows of their mean */
  const IvDownsampling *downsampling;
  /* draw as `aiperf plot` does (its GPU count, p50 on multi-run axes, its run set, its
   * orderings and rules), set by the viewer (plot --aiperf-compatible, the window's
   * toggle); else Inferview's numbers, with notes where they differ */
  gboolean aiperf_compatible;
  /* experiment_classification, borrowed from the configuration (multi-run plots): runs
   * are grouped by experiment and each is a baseline or a treatment (see
   * iv_plot_spec_is_baseline ()); NULL when off */
  const char *const *baselines, *const *treatments;
  gboolean default_baseline;
  /* runs against the model's bound (IV_PLOT_BOUND): an IvHardware* the viewer chose (the
   * runs layer does not know the model's types) and TP over its GPUs, 0 for the smallest
   * that fits; NULL: none chosen */
  gconstpointer bound_hardware;
  gint64 bound_tp;
  gconstpointer
      bound_model;    /* an IvModel* the viewer chose for every run, or NULL: each run's own */
  guint line;         /* where it is defined, for messages */
  gboolean inferview; /* one of Inferview's own presets, beyond the configuration */
  /* defined by the built-in configuration (AIPerf's default or Inferview's own), not a
   * user's file: its groups ([model]) are a default Inferview may refine */
  gboolean builtin;
  /* drawn for a paper page (plot --size column|double-column): where it differs from
   * aiperf plot is said in summary.txt only, not in the figure's subtitle */
  gboolean notes_off_figure;
} IvPlotSpec;

typedef struct
{
  char *origin; /* the file read, or "built-in" */
  GStrv baselines,
      treatments; /* experiment_classification: glob patterns of run names; NULL: off */
  char *classification_default;    /* "baseline" or "treatment" when no pattern matches */
  GHashTable *group_display_names; /* experiment group → its legend name, or NULL */
  IvDownsampling downsampling;
  gboolean has_multi_defaults,
      has_single_defaults; /* the file lists them (else a user file keeps the built-in lists) */
  GPtrArray *multi_defaults, *single_defaults; /* char* preset names */
  GPtrArray *multi_plots, *single_plots;       /* IvPlotSpec* */
  GPtrArray *warnings;                         /* char*: "FILE:LINE: …" */
  GHashTable *multi_index, *single_index;      /* name → IvPlotSpec* of the arrays above */
} IvPlotConfig;

/* The values (scalars, lists and mappings) a configuration may hold: AIPerf's default
 * has about 300; 100,000 presets of a few keys fit. */
#define IV_PLOT_CONFIG_NODES ((guint64) 1000000)
/* What aliases (*name, merge keys among them) may add to a configuration, counted as
 * what they expand to: a plot configuration has a few anchors aliased a few times. */
#define IV_PLOT_CONFIG_ALIAS_BYTES ((guint64) 4 << 20)
#define IV_PLOT_CONFIG_ALIAS_NODES ((guint64) 1000000)

/* The statistics a metric shortcut may end in ("request_latency_p90"), in aiperf's
 * order (ALL_STAT_KEYS in aiperf/plot/constants.py). */
extern const char *const iv_plot_stat_keys[];
/* aiperf's parse_and_validate_metric_name: "request_latency_p90" → "request_latency" and
 * "p90"; a name without such a suffix is the metric (stat NULL). FALSE with @error when
 * the suffix looks like a statistic that is not one ("p67"): the valid ones and the
 * closest ("did you mean request_latency_p75?", difflib's get_close_matches). */
gboolean iv_plot_parse_metric_shortcut (const char *shortcut, char **metric, char **stat,
                                        GError **error);

/* @text (@len bytes) read as the configuration named @source (for messages). */
IvPlotConfig *iv_plot_config_parse (const char *text, gsize len, const char *source,
                                    GError **error);
/* experiment_classification as aiperf applies it: a run is a baseline when a baseline
 * pattern matches its name or its path, else a treatment when a treatment pattern does,
 * else the configured default; its experiment (the series it joins) is its folder's
 * parent when a pattern matches that parent's name, else the run's own name. */
gboolean iv_plot_spec_is_baseline (const IvPlotSpec *spec, const char *run_name,
                                   const char *run_path);
char *iv_plot_spec_experiment (const IvPlotSpec *spec, const char *run_name, const char *run_path);

/* @path NULL: the built-in default. Either way Inferview's own presets (distributions,
 * CDFs, GPU telemetry, runs side by side: data/aiperf/inferview_plots.yaml) follow the
 * configuration's, except where it defines one of the same name. */
IvPlotConfig *iv_plot_config_load (const char *path, GError **error);
/* The configuration that applies to a plot of @run_dir: @explicit_path if given, else the
 * first of <run_dir>/.aiperf-plot-config.yaml and ~/.aiperf/plot_config.yaml that exists,
 * else the built-in one. */
IvPlotConfig *iv_plot_config_find (const char *explicit_path, const char *run_dir, GError **error);
void iv_plot_config_free (IvPlotConfig *config);
const IvPlotSpec *iv_plot_config_get (const IvPlotConfig *config, gboolean multi, const char *name);
/* The built-in default's text (AIPerf's default_plot_config.yaml). */
GBytes *iv_plot_config_default_text (void);

/* The plot that is not a preset of any configuration: the measured runs over the serving
 * curve's bound frontier (docs/model.md §10), offered once a hardware is given — by
 * `plot --hardware` and by the Runs workspace's *Bound on*. One name for both. */
#define IV_PLOT_SERVING_BOUND "serving_bound"

/* The longest file name stem iv_plot_file_stem () makes, in bytes. */
#define IV_PLOT_FILE_STEM_MAX 100

/* @name (a preset's name, from a file someone else wrote) as one file name component
 * without extension: valid UTF-8; '/', '\\', control characters and the characters
 * Windows forbids (: * ? " < > |) become '-'; a run of dots is one dot; no leading dot,
 * dash or space, no trailing dot or space; at most IV_PLOT_FILE_STEM_MAX bytes, cut at a
 * character boundary; "plot" when nothing is left. Never "." or "..". */
char *iv_plot_file_stem (const char *name);

/* The file names the figures of one set of presets are written to, as aiperf names them
 * (the preset's name with dashes for underscores, then iv_plot_file_stem (), then @ext):
 * the same preset gets the same name; two presets whose names map to one file name (or
 * to names differing only in case or Unicode normalisation, one file on some file
 * systems) get "-2", "-3" … so that neither overwrites the other. */
typedef struct _IvPlotFileNames IvPlotFileNames;
IvPlotFileNames *iv_plot_file_names_new (const char *ext);
const char *iv_plot_file_names_get (IvPlotFileNames *names, const char *preset);
void iv_plot_file_names_free (IvPlotFileNames *names);

/* @dir/@file, after checking that it stays inside @dir: @file is one name (no separator,
 * not "." or ".."), and no symbolic link or other non-regular file is at that path
 * (atomic writes follow links to their target: a link in an output folder that came with
 * a run folder would send the figure, summary.txt or report.html elsewhere). NULL with
 * @error naming the path and the reason. */
char *iv_plot_file_path (const char *dir, const char *file, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPlotConfig, iv_plot_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvPlotFileNames, iv_plot_file_names_free)

G_END_DECLS
