/* iv-runs-state.c: what the Runs workspace shows (see the header). Values are compared
 * before they are stored, so a control bound both ways settles after one round, and a
 * name that is not listed is refused rather than stored. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-runs-state.h"

enum
{
  PROP_0,
  /* the strings first: their fields are strings[] in this order */
  PROP_PLOT,
  PROP_CUSTOM_X,
  PROP_CUSTOM_Y,
  PROP_STATISTIC,
  PROP_GROUP_BY,
  PROP_HARDWARE,
  PROP_MODEL,
  PROP_LOG_X,
  PROP_LOG_Y,
  PROP_AIPERF,
  PROP_TP,
  PROP_RUN,
  PROP_SWEEP,
  PROP_N_SELECTED,
  N_PROPS,
};

#define N_STRINGS (PROP_MODEL - PROP_PLOT + 1)
#define STRING(self, prop) ((self)->strings[(prop) -PROP_PLOT])

/* The custom plot's axes for a new sweep: concurrency against TTFT. */
#define CUSTOM_X "concurrency"
#define CUSTOM_Y "time_to_first_token"

struct _IvRunsState
{
  GObject parent_instance;

  char *strings[N_STRINGS];
  gboolean flags[PROP_AIPERF - PROP_LOG_X + 1]; /* log-x, log-y, aiperf */
  gint64 tp;
  guint run;         /* G_MAXUINT: comparing */
  char *run_path;    /* the run opened, found again when the sweep grows */
  GArray *selection; /* guint32 */
  guint64 generation;

  const IvSweep *sweep;
  GObject *owner;
  const IvPlotConfigs *configs;
  IvPlotConfig *builtin;      /* without configs: the built-in one, loaded once */
  const IvPlotConfig *config; /* the one that applies to what is shown */
  const char *config_error;
};

G_DEFINE_FINAL_TYPE (IvRunsState, iv_runs_state, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

enum
{
  SELECTION_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
notify (IvRunsState *self, guint prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_string (IvRunsState *self, guint prop, const char *value)
{
  char **field = &STRING (self, prop);

  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  notify (self, prop);
}

static void
set_flag (IvRunsState *self, guint prop, gboolean value)
{
  gboolean *field = &self->flags[prop - PROP_LOG_X];

  if (*field == !!value)
    return;
  *field = !!value;
  notify (self, prop);
}

static void
set_tp (IvRunsState *self, gint64 tp)
{
  if (self->tp == tp)
    return;
  self->tp = tp;
  notify (self, PROP_TP);
}

static void
selection_changed (IvRunsState *self)
{
  notify (self, PROP_N_SELECTED);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

const IvRun *
iv_runs_state_get_run (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  if (!self->sweep)
    return NULL;
  if (self->sweep->runs->len == 1)
    return self->sweep->runs->pdata[0];
  return self->run < self->sweep->runs->len ? self->sweep->runs->pdata[self->run] : NULL;
}

/* The configuration for what is shown; read with the runs, so nothing is read here. */
static void
find_config (IvRunsState *self)
{
  const IvRun *r = iv_runs_state_get_run (self);

  self->config_error = NULL;
  self->config = NULL;
  if (!self->sweep)
    return;
  if (self->configs)
    self->config = iv_plot_configs_get (self->configs, r ? r->path : NULL, &self->config_error);
  else
    {
      if (!self->builtin)
        self->builtin = iv_plot_config_load (NULL, NULL);
      self->config = self->builtin;
    }
}

GPtrArray *
iv_runs_state_get_presets (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  if (!self->config)
    return NULL;
  return iv_runs_state_get_run (self) ? self->config->single_plots : self->config->multi_plots;
}

/* The measured runs over the serving curve's bound (docs/model.md §10), named as `plot
 * --hardware` names its file: it needs the hardware, so it is listed only with one. */

/* Whether the plot list of what is shown has @name: a preset, the custom comparison, or
 * the serving bound while "hardware" is set. */
static gboolean
plot_listed (IvRunsState *self, const char *name)
{
  GPtrArray *presets = iv_runs_state_get_presets (self);

  if (!name || !presets)
    return FALSE;
  if (!iv_runs_state_get_run (self) && g_str_equal (name, "custom"))
    return TRUE;
  if (STRING (self, PROP_HARDWARE) && g_str_equal (name, IV_PLOT_SERVING_BOUND))
    return TRUE;
  for (guint i = 0; i < presets->len; i++)
    if (g_str_equal (((const IvPlotSpec *) presets->pdata[i])->name, name))
      return TRUE;
  return FALSE;
}

/* The plot what is shown opens on: the first preset, except that a comparison of runs
 * over input and output lengths (ISL and OSL both vary) opens on the first heat map over
 * ISL × OSL, its cells side by side — a pareto grouped by model would join every cell's
 * runs into one curve. */
static const char *
default_plot (IvRunsState *self)
{
  GPtrArray *presets = iv_runs_state_get_presets (self);

  if (!presets || !presets->len)
    return NULL;
  if (!iv_runs_state_get_run (self) && self->sweep
      && g_ptr_array_find (self->sweep->varying, GUINT_TO_POINTER (IV_FIELD_ISL), NULL)
      && g_ptr_array_find (self->sweep->varying, GUINT_TO_POINTER (IV_FIELD_OSL), NULL))
    for (guint i = 0; i < presets->len; i++)
      if (((const IvPlotSpec *) presets->pdata[i])->type == IV_PLOT_ISL_OSL_HEATMAP)
        return ((const IvPlotSpec *) presets->pdata[i])->name;
  return ((const IvPlotSpec *) presets->pdata[0])->name;
}

static void
first_plot (IvRunsState *self)
{
  set_string (self, PROP_PLOT, default_plot (self));
}

static void
set_plot (IvRunsState *self, const char *name)
{
  if (plot_listed (self, name))
    set_string (self, PROP_PLOT, name);
}

static void
set_run (IvRunsState *self, guint index)
{
  if (!self->sweep || index >= self->sweep->runs->len)
    index = G_MAXUINT;
  if (self->run == index)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->run = index;
  g_free (self->run_path);
  self->run_path = index != G_MAXUINT
                       ? g_strdup (((const IvRun *) self->sweep->runs->pdata[index])->path)
                       : NULL;
  notify (self, PROP_RUN);
  /* the picked requests were another run's; a run opens on its first plot */
  iv_runs_state_clear_selection (self);
  find_config (self);
  first_plot (self);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
iv_runs_state_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  if (prop >= PROP_PLOT && prop <= PROP_MODEL)
    g_value_set_string (value, STRING (self, prop));
  else if (prop >= PROP_LOG_X && prop <= PROP_AIPERF)
    g_value_set_boolean (value, self->flags[prop - PROP_LOG_X]);
  else if (prop == PROP_TP)
    g_value_set_int64 (value, self->tp);
  else if (prop == PROP_RUN)
    g_value_set_uint (value, self->run);
  else if (prop == PROP_SWEEP)
    g_value_set_pointer (value, (gpointer) self->sweep);
  else if (prop == PROP_N_SELECTED)
    g_value_set_uint (value, self->selection->len);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_runs_state_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  if (prop == PROP_PLOT)
    set_plot (self, g_value_get_string (value));
  else if (prop > PROP_PLOT && prop <= PROP_MODEL)
    {
      set_string (self, prop, g_value_get_string (value));
      /* without hardware the serving bound is no longer listed: back to the first plot */
      if (prop == PROP_HARDWARE && g_strcmp0 (STRING (self, PROP_PLOT), IV_PLOT_SERVING_BOUND) == 0
          && !plot_listed (self, IV_PLOT_SERVING_BOUND))
        first_plot (self);
    }
  else if (prop >= PROP_LOG_X && prop <= PROP_AIPERF)
    set_flag (self, prop, g_value_get_boolean (value));
  else if (prop == PROP_TP)
    set_tp (self, g_value_get_int64 (value));
  else if (prop == PROP_RUN)
    set_run (self, g_value_get_uint (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

/* One batch of notifications, however many properties it holds: one generation. */
static void
iv_runs_state_dispatch_properties_changed (GObject *object, guint n, GParamSpec **pspecs)
{
  IV_RUNS_STATE (object)->generation++;
  G_OBJECT_CLASS (iv_runs_state_parent_class)->dispatch_properties_changed (object, n, pspecs);
}

static void
iv_runs_state_finalize (GObject *object)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  for (guint i = 0; i < N_STRINGS; i++)
    g_free (self->strings[i]);
  g_free (self->run_path);
  g_array_unref (self->selection);
  g_clear_object (&self->owner);
  g_clear_pointer (&self->builtin, iv_plot_config_free);
  G_OBJECT_CLASS (iv_runs_state_parent_class)->finalize (object);
}

static void
iv_runs_state_class_init (IvRunsStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags read_only = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  static const char *const strings[N_STRINGS]
      = { "plot", "custom-x", "custom-y", "statistic", "group-by", "hardware", "model" };

  object_class->get_property = iv_runs_state_get_property;
  object_class->set_property = iv_runs_state_set_property;
  object_class->dispatch_properties_changed = iv_runs_state_dispatch_properties_changed;
  object_class->finalize = iv_runs_state_finalize;
  for (guint i = 0; i < N_STRINGS; i++)
    properties[PROP_PLOT + i] = g_param_spec_string (strings[i], NULL, NULL, NULL, flags);
  properties[PROP_LOG_X] = g_param_spec_boolean ("log-x", NULL, NULL, FALSE, flags);
  properties[PROP_LOG_Y] = g_param_spec_boolean ("log-y", NULL, NULL, FALSE, flags);
  properties[PROP_AIPERF] = g_param_spec_boolean ("aiperf", NULL, NULL, FALSE, flags);
  properties[PROP_TP] = g_param_spec_int64 ("tp", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_RUN] = g_param_spec_uint ("run", NULL, NULL, 0, G_MAXUINT, G_MAXUINT, flags);
  properties[PROP_SWEEP] = g_param_spec_pointer ("sweep", NULL, NULL, read_only);
  properties[PROP_N_SELECTED]
      = g_param_spec_uint ("n-selected", NULL, NULL, 0, G_MAXUINT, 0, read_only);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
}

static void
iv_runs_state_init (IvRunsState *self)
{
  self->run = G_MAXUINT;
  self->selection = g_array_new (FALSE, FALSE, sizeof (guint32));
  STRING (self, PROP_CUSTOM_X) = g_strdup (CUSTOM_X);
  STRING (self, PROP_CUSTOM_Y) = g_strdup (CUSTOM_Y);
}

IvRunsState *
iv_runs_state_new (void)
{
  return g_object_new (IV_TYPE_RUNS_STATE, NULL);
}

void
iv_runs_state_set_sweep (IvRunsState *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                         GObject *owner)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  g_object_freeze_notify (G_OBJECT (self));
  self->sweep = sweep;
  self->configs = configs;
  g_set_object (&self->owner, owner);
  self->run = G_MAXUINT;
  g_clear_pointer (&self->run_path, g_free);
  notify (self, PROP_SWEEP);
  notify (self, PROP_RUN);
  find_config (self);
  first_plot (self);
  set_string (self, PROP_STATISTIC, NULL);
  set_string (self, PROP_GROUP_BY, NULL);
  set_string (self, PROP_CUSTOM_X, CUSTOM_X);
  set_string (self, PROP_CUSTOM_Y, CUSTOM_Y);
  iv_runs_state_clear_selection (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
iv_runs_state_grew (IvRunsState *self)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  if (!self->sweep)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  if (self->run_path)
    {
      guint at = G_MAXUINT;
      for (guint i = 0; i < self->sweep->runs->len; i++)
        if (g_str_equal (((const IvRun *) self->sweep->runs->pdata[i])->path, self->run_path))
          at = i;
      if (at != self->run)
        {
          self->run = at;
          notify (self, PROP_RUN);
        }
    }
  /* the presets listed stay those of this configuration (they point into it) */
  if (!self->config)
    find_config (self);
  notify (self, PROP_SWEEP);
  g_object_thaw_notify (G_OBJECT (self));
}

const IvSweep *
iv_runs_state_get_sweep (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  return self->sweep;
}

const IvPlotConfig *
iv_runs_state_get_config (IvRunsState *self, const char **error)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  if (error)
    *error = self->config_error;
  return self->config;
}

#define GETTER(name, prop)                                                                         \
  const char *iv_runs_state_get_##name (IvRunsState *self)                                         \
  {                                                                                                \
    g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);                                          \
    return STRING (self, prop);                                                                    \
  }
GETTER (plot, PROP_PLOT)
GETTER (custom_x, PROP_CUSTOM_X)
GETTER (custom_y, PROP_CUSTOM_Y)
GETTER (statistic, PROP_STATISTIC)
GETTER (group_by, PROP_GROUP_BY)
GETTER (hardware, PROP_HARDWARE)
GETTER (model, PROP_MODEL)
#undef GETTER

gboolean
iv_runs_state_get_aiperf (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), FALSE);
  return self->flags[PROP_AIPERF - PROP_LOG_X];
}

gint64
iv_runs_state_get_tp (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), 0);
  return self->tp;
}

void
iv_runs_state_model_loaded (IvRunsState *self)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  notify (self, PROP_MODEL);
}

void
iv_runs_state_toggle_request (IvRunsState *self, guint32 request)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  for (guint j = 0; j < self->selection->len; j++)
    if (g_array_index (self->selection, guint32, j) == request)
      {
        g_array_remove_index (self->selection, j);
        selection_changed (self);
        return;
      }
  g_array_append_val (self->selection, request);
  selection_changed (self);
}

void
iv_runs_state_clear_selection (IvRunsState *self)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  if (self->selection->len == 0)
    return;
  g_array_set_size (self->selection, 0);
  selection_changed (self);
}

const GArray *
iv_runs_state_get_selection (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  return self->selection;
}

guint64
iv_runs_state_get_generation (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), 0);
  return self->generation;
}

/* What a folder remembers, by key: the properties whose defaults are NULL, then TP. */
static const guint remembered[]
    = { PROP_HARDWARE, PROP_MODEL, PROP_PLOT, PROP_CUSTOM_X, PROP_CUSTOM_Y };

/* Whether nothing is chosen that a folder should remember: no bound, the default axes and
 * the plot it opens on. */
static gboolean
at_defaults (IvRunsState *self)
{
  const char *plot = STRING (self, PROP_PLOT);

  return !STRING (self, PROP_HARDWARE) && !STRING (self, PROP_MODEL) && !self->tp
         && g_strcmp0 (STRING (self, PROP_CUSTOM_X), CUSTOM_X) == 0
         && g_strcmp0 (STRING (self, PROP_CUSTOM_Y), CUSTOM_Y) == 0
         && (!plot || g_strcmp0 (plot, default_plot (self)) == 0);
}

char *
iv_runs_state_serialize (IvRunsState *self)
{
  GVariantBuilder b;
  g_autoptr (GVariant) v = NULL;

  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  if (at_defaults (self))
    return NULL;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
    if (STRING (self, remembered[i]))
      g_variant_builder_add (&b, "{ss}", properties[remembered[i]]->name,
                             STRING (self, remembered[i]));
  if (self->tp)
    {
      g_autofree char *tp = g_strdup_printf ("%" G_GINT64_FORMAT, self->tp);
      g_variant_builder_add (&b, "{ss}", "tp", tp);
    }
  v = g_variant_ref_sink (g_variant_builder_end (&b));
  return g_variant_print (v, FALSE);
}

void
iv_runs_state_restore (IvRunsState *self, const char *text)
{
  g_autoptr (GVariant) map = NULL;
  const char *tp = NULL;

  g_return_if_fail (IV_IS_RUNS_STATE (self));
  if (text && text[0] == '{')
    map = g_variant_parse (G_VARIANT_TYPE ("a{ss}"), text, NULL, NULL, NULL);
  else if (text && *text)
    {
      /* the older "hardware:tp:model" (the model last: a config.json's path may hold ':') */
      g_auto (GStrv) parts = g_strsplit (text, ":", 3);
      GVariantBuilder b;
      g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
      g_variant_builder_add (&b, "{ss}", "hardware", parts[0]);
      if (parts[1])
        g_variant_builder_add (&b, "{ss}", "tp", parts[1]);
      if (parts[1] && parts[2] && *parts[2])
        g_variant_builder_add (&b, "{ss}", "model", parts[2]);
      map = g_variant_ref_sink (g_variant_builder_end (&b));
    }
  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
    {
      const char *value = NULL;
      if (map)
        g_variant_lookup (map, properties[remembered[i]]->name, "&s", &value);
      if (remembered[i] == PROP_PLOT)
        {
          if (plot_listed (self, value))
            set_string (self, PROP_PLOT, value);
          else
            first_plot (self);
        }
      else if (remembered[i] == PROP_CUSTOM_X || remembered[i] == PROP_CUSTOM_Y)
        set_string (self, remembered[i],
                    value                            ? value
                    : remembered[i] == PROP_CUSTOM_X ? CUSTOM_X
                                                     : CUSTOM_Y);
      else
        set_string (self, remembered[i], value && *value ? value : NULL);
    }
  if (map)
    g_variant_lookup (map, "tp", "&s", &tp);
  set_tp (self, tp ? MAX (g_ascii_strtoll (tp, NULL, 10), 0) : 0);
  g_object_thaw_notify (G_OBJECT (self));
}
