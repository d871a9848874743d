/* iv-plot-config.c: reading `aiperf plot`'s configuration (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-plot-config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include <yaml.h>

#include "iv-input.h"

#define DEFAULT_RESOURCE "/io/github/inferview/Inferview/aiperf/default_plot_config.yaml"
#define OWN_RESOURCE "/io/github/inferview/Inferview/aiperf/inferview_plots.yaml"

static const struct
{
  const char *name;
  IvPlotType type;
} type_names[] = {
  { "scatter", IV_PLOT_SCATTER },
  { "scatter_with_percentiles", IV_PLOT_SCATTER_PERCENTILES },
  { "area", IV_PLOT_AREA },
  { "request_timeline", IV_PLOT_REQUEST_TIMELINE },
  { "timeslice", IV_PLOT_TIMESLICE },
  { "dual_axis", IV_PLOT_DUAL_AXIS },
  { "histogram", IV_PLOT_HISTOGRAM },
  { "cdf", IV_PLOT_CDF },
  { "gpu_telemetry", IV_PLOT_GPU },
  { "pareto", IV_PLOT_PARETO },
  { "scatter_line", IV_PLOT_SCATTER_LINE },
  { "latency_throughput_uncertainty", IV_PLOT_UNCERTAINTY },
  { "box", IV_PLOT_BOX },
  { "server_metrics", IV_PLOT_SERVER },
  { "isl_osl_heatmap", IV_PLOT_ISL_OSL_HEATMAP },
  { "isl_osl_pareto", IV_PLOT_ISL_OSL_PARETO },
  { "pareto_surface", IV_PLOT_PARETO_SURFACE },
  { "bound_efficiency", IV_PLOT_BOUND },
};

/* Keys a preset may have that change nothing here (styling of AIPerf's plotly output). */
static const char *const ignored_keys[] = {
  "primary_style", "secondary_style", "supplementary_col", "use_slice_duration", "mode", NULL,
};

static void
spec_free (gpointer p)
{
  IvPlotSpec *s = p;
  g_free (s->name);
  g_free (s->type_name);
  g_free (s->title);
  g_free (s->description);
  g_free (s->x.metric), g_free (s->x.stat);
  g_free (s->y.metric), g_free (s->y.stat);
  g_free (s->y2.metric), g_free (s->y2.stat);
  g_free (s->stat);
  g_free (s->source);
  g_strfreev (s->labels);
  g_strfreev (s->groups);
  g_free (s->x_label);
  g_free (s->y_label);
  g_free (s->autoscale);
  g_free (s);
}

void
iv_plot_config_free (IvPlotConfig *c)
{
  if (!c)
    return;
  g_free (c->origin);
  g_ptr_array_unref (c->multi_defaults);
  g_ptr_array_unref (c->single_defaults);
  g_ptr_array_unref (c->multi_plots);
  g_ptr_array_unref (c->single_plots);
  g_ptr_array_unref (c->warnings);
  g_strfreev (c->baselines);
  g_strfreev (c->treatments);
  g_free (c->classification_default);
  g_free (c->downsampling.method);
  g_free (c);
}

typedef struct
{
  yaml_document_t *doc;
  IvPlotConfig *config;
  const char *file;
} Reader;

static yaml_node_t *
node (Reader *r, int id)
{
  return yaml_document_get_node (r->doc, id);
}

static char *
scalar (yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE
             ? g_strndup ((const char *) n->data.scalar.value, n->data.scalar.length)
             : NULL;
}

static gboolean
scalar_is (yaml_node_t *n, const char *s)
{
  return n && n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen (s)
         && memcmp (n->data.scalar.value, s, n->data.scalar.length) == 0;
}

static void
warn (Reader *r, yaml_node_t *at, const char *message)
{
  g_ptr_array_add (
      r->config->warnings,
      g_strdup_printf ("%s:%lu: %s", r->file, (unsigned long) at->start_mark.line + 1, message));
}

/* "unknown key “K” in SECTION, ignored", at the key. */
static void
warn_unknown (Reader *r, yaml_node_t *k, const char *section)
{
  g_autofree char *key = scalar (k);
  g_autofree char *msg
      = g_strdup_printf (_ ("unknown key “%s” in %s, ignored"), key ? key : "?", section);
  warn (r, k, msg);
}

/* A sequence of scalars (or one scalar) as a NULL-terminated vector. */
static GStrv
strings (Reader *r, yaml_node_t *n)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();

  if (n && n->type == YAML_SCALAR_NODE)
    {
      g_autofree char *s = scalar (n);
      g_strv_builder_add (b, s);
    }
  else if (n && n->type == YAML_SEQUENCE_NODE)
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
      {
        g_autofree char *s = scalar (node (r, *i));
        if (s)
          g_strv_builder_add (b, s);
      }
  return g_strv_builder_end (b);
}

/* x: request_number, or x: {metric: request_latency, stat: avg}. */
static void
axis (Reader *r, yaml_node_t *n, IvPlotAxis *a)
{
  if (n->type == YAML_SCALAR_NODE)
    {
      g_free (a->metric);
      a->metric = scalar (n);
      return;
    }
  if (n->type != YAML_MAPPING_NODE)
    {
      warn (r, n, _ ("an axis is a metric name or {metric, stat}"));
      return;
    }
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
      if (scalar_is (k, "metric"))
        g_free (a->metric), a->metric = scalar (v);
      else if (scalar_is (k, "stat"))
        g_free (a->stat), a->stat = scalar (v);
      else
        {
          g_autofree char *key = scalar (k);
          g_autofree char *msg
              = g_strdup_printf (_ ("unknown axis key “%s”, ignored"), key ? key : "?");
          warn (r, k, msg);
        }
    }
}

/* One key of a preset. */
static void
spec_key (Reader *r, IvPlotSpec *s, const char *name, yaml_node_t *k, yaml_node_t *v,
          const char *key)
{
  if (g_str_equal (key, "type"))
    {
      g_free (s->type_name);
      s->type_name = scalar (v);
      s->type = IV_PLOT_UNKNOWN;
      for (guint i = 0; s->type_name && i < G_N_ELEMENTS (type_names); i++)
        if (g_str_equal (type_names[i].name, s->type_name))
          s->type = type_names[i].type;
      if (s->type == IV_PLOT_UNKNOWN)
        {
          g_autofree char *msg = g_strdup_printf (_ ("plot “%s”: unknown type “%s”"), name,
                                                  s->type_name ? s->type_name : "?");
          warn (r, v, msg);
        }
    }
#define TEXT(field) (g_free (s->field), s->field = scalar (v))
  else if (g_str_equal (key, "title"))
    TEXT (title);
  else if (g_str_equal (key, "description"))
    TEXT (description);
  else if (g_str_equal (key, "x_label"))
    TEXT (x_label);
  else if (g_str_equal (key, "y_label"))
    TEXT (y_label);
  else if (g_str_equal (key, "stat"))
    TEXT (stat);
  else if (g_str_equal (key, "source"))
    TEXT (source);
#undef TEXT
  else if (g_str_equal (key, "autoscale"))
    {
      g_autofree char *value = scalar (v);
      if (value
          && (g_str_equal (value, "none") || g_str_equal (value, "x") || g_str_equal (value, "y")
              || g_str_equal (value, "both")))
        g_free (s->autoscale), s->autoscale = g_steal_pointer (&value);
      else
        warn (r, v, _ ("autoscale is none, x, y or both; ignored"));
    }
  else if (g_str_equal (key, "x"))
    axis (r, v, &s->x);
  else if (g_str_equal (key, "y"))
    axis (r, v, &s->y);
  else if (g_str_equal (key, "y2"))
    axis (r, v, &s->y2);
  else if (g_str_equal (key, "labels"))
    g_strfreev (s->labels), s->labels = strings (r, v);
  else if (g_str_equal (key, "groups"))
    g_strfreev (s->groups), s->groups = strings (r, v);
  else if (g_str_equal (key, "ci_level"))
    {
      g_autofree char *text = scalar (v);
      double level = text ? g_ascii_strtod (text, NULL) : NAN;
      if (level > 0 && level < 1)
        s->ci_level = level;
      else
        warn (r, v, _ ("ci_level must be between 0 and 1; 0.95 used"));
    }
  else if (!g_strv_contains (ignored_keys, key))
    {
      g_autofree char *msg
          = g_strdup_printf (_ ("plot “%s”: unknown key “%s”, ignored"), name, key);
      warn (r, k, msg);
    }
}

/* The keys of preset mapping @n into @s: YAML merge keys first ("<<: *base", or a list
 * of them; the mapping's own keys override what they bring), then its own keys. */
static void
spec_keys (Reader *r, IvPlotSpec *s, const char *name, yaml_node_t *n, int depth)
{
  if (depth > 8)
    {
      warn (r, n, _ ("merge keys (<<) nested more than 8 deep; ignored"));
      return;
    }
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
      if (!scalar_is (k, "<<") || !v)
        continue;
      if (v->type == YAML_MAPPING_NODE)
        spec_keys (r, s, name, v, depth + 1);
      else if (v->type == YAML_SEQUENCE_NODE)
        {
          /* earlier mappings in the list win: apply them last */
          for (yaml_node_item_t *i = v->data.sequence.items.top; i > v->data.sequence.items.start;
               i--)
            {
              yaml_node_t *m = node (r, i[-1]);
              if (m && m->type == YAML_MAPPING_NODE)
                spec_keys (r, s, name, m, depth + 1);
            }
        }
      else
        warn (r, v, _ ("a merge key (<<) takes a mapping or a list of them; ignored"));
    }
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
      g_autofree char *key = scalar (k);
      if (key && !g_str_equal (key, "<<"))
        spec_key (r, s, name, k, v, key);
    }
}

static IvPlotSpec *
read_spec (Reader *r, const char *name, yaml_node_t *n)
{
  IvPlotSpec *s;

  if (n->type != YAML_MAPPING_NODE)
    {
      g_autofree char *msg = g_strdup_printf (_ ("plot “%s” is not a mapping, skipped"), name);
      warn (r, n, msg);
      return NULL;
    }
  s = g_new0 (IvPlotSpec, 1);
  s->name = g_strdup (name);
  s->type = IV_PLOT_UNKNOWN;
  s->ci_level = 0.95;
  s->line = (guint) n->start_mark.line + 1;
  spec_keys (r, s, name, n, 0);
  return s;
}

static void
read_plots (Reader *r, yaml_node_t *n, GPtrArray *into)
{
  if (n->type != YAML_MAPPING_NODE)
    {
      warn (r, n, _ ("the plots are a mapping of names to presets; ignored"));
      return;
    }
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      g_autofree char *name = scalar (node (r, p->key));
      IvPlotSpec *s = name ? read_spec (r, name, node (r, p->value)) : NULL;
      if (s)
        g_ptr_array_add (into, s);
    }
}

static void
read_names (Reader *r, yaml_node_t *n, GPtrArray *into)
{
  g_auto (GStrv) names = strings (r, n);
  for (guint i = 0; names[i]; i++)
    g_ptr_array_add (into, g_strdup (names[i]));
}

/* A plot configuration is five levels deep; libyaml's loader takes quadratic time on
 * deep nesting (20,000 levels: seconds; 100,000: minutes). Its event parser streams, so
 * a first pass over the events refuses such a file at the level where it goes too deep,
 * before the loader sees it. Syntax errors are left to the loader, which reports them. */
#define MAX_YAML_DEPTH 64

static gboolean
check_depth (const char *text, gsize len, const char *file, GError **error)
{
  yaml_parser_t parser;
  yaml_event_t event;
  int depth = 0;
  gboolean ok = TRUE;

  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  while (yaml_parser_parse (&parser, &event))
    {
      gboolean end = event.type == YAML_STREAM_END_EVENT;
      if (event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT)
        depth++;
      else if (event.type == YAML_SEQUENCE_END_EVENT || event.type == YAML_MAPPING_END_EVENT)
        depth--;
      if (depth > MAX_YAML_DEPTH)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("%s:%lu:%lu: nested more than %d levels deep"), file,
                       (unsigned long) event.start_mark.line + 1,
                       (unsigned long) event.start_mark.column + 1, MAX_YAML_DEPTH);
          ok = FALSE;
          end = TRUE;
        }
      yaml_event_delete (&event);
      if (end)
        break;
    }
  yaml_parser_delete (&parser);
  return ok;
}

/* settings.server_metrics_downsampling: {enabled, window_size_seconds, aggregation_method}. */
static void
read_settings (Reader *r, yaml_node_t *n)
{
  IvDownsampling *d = &r->config->downsampling;

  if (!n || n->type != YAML_MAPPING_NODE)
    return;
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
      if (!scalar_is (k, "server_metrics_downsampling"))
        {
          warn_unknown (r, k, "settings");
          continue;
        }
      if (!v || v->type != YAML_MAPPING_NODE)
        continue;
      for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++)
        {
          yaml_node_t *kk = node (r, q->key), *vv = node (r, q->value);
          g_autofree char *value = scalar (vv);
          if (scalar_is (kk, "enabled"))
            d->enabled
                = value && (g_ascii_strcasecmp (value, "true") == 0 || g_str_equal (value, "1"));
          else if (scalar_is (kk, "window_size_seconds"))
            {
              double w = value ? g_ascii_strtod (value, NULL) : NAN;
              if (w > 0 && w < 1e6)
                d->window_s = w;
              else
                warn (r, vv,
                      _ ("window_size_seconds must be a positive number of seconds; 5 used"));
            }
          else if (scalar_is (kk, "aggregation_method"))
            {
              if (value
                  && (g_str_equal (value, "mean") || g_str_equal (value, "max")
                      || g_str_equal (value, "min") || g_str_equal (value, "median")))
                g_free (d->method), d->method = g_steal_pointer (&value);
              else
                warn (r, vv, _ ("aggregation_method is mean, max, min or median; mean used"));
            }
          else
            warn_unknown (r, kk, "server_metrics_downsampling");
        }
    }
}

/* experiment_classification: {baselines: [globs], treatments: [globs], default}. */
static void
read_classification (Reader *r, yaml_node_t *n)
{
  IvPlotConfig *c = r->config;

  if (!n || n->type != YAML_MAPPING_NODE)
    {
      if (n)
        warn (r, n,
              _ ("experiment_classification is a mapping of baselines, treatments and default; "
                 "ignored"));
      return;
    }
  g_clear_pointer (&c->baselines, g_strfreev);
  g_clear_pointer (&c->treatments, g_strfreev);
  c->baselines = g_new0 (char *, 1);
  c->treatments = g_new0 (char *, 1);
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
      if (scalar_is (k, "baselines"))
        g_strfreev (c->baselines), c->baselines = strings (r, v);
      else if (scalar_is (k, "treatments"))
        g_strfreev (c->treatments), c->treatments = strings (r, v);
      else if (scalar_is (k, "default"))
        {
          g_autofree char *value = scalar (v);
          if (value && (g_str_equal (value, "baseline") || g_str_equal (value, "treatment")))
            g_free (c->classification_default),
                c->classification_default = g_steal_pointer (&value);
          else
            warn (r, v, _ ("default is baseline or treatment; treatment used"));
        }
      else
        warn_unknown (r, k, "experiment_classification");
    }
}

static IvPlotConfig *
parse (const char *text, gsize len, const char *file, GError **error)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_node_t *root, *vis = NULL;
  g_autoptr (IvPlotConfig) c = g_new0 (IvPlotConfig, 1);
  Reader r = { &doc, c, file };

  c->origin = g_strdup (file);
  c->multi_defaults = g_ptr_array_new_with_free_func (g_free);
  c->single_defaults = g_ptr_array_new_with_free_func (g_free);
  c->multi_plots = g_ptr_array_new_with_free_func (spec_free);
  c->single_plots = g_ptr_array_new_with_free_func (spec_free);
  c->warnings = g_ptr_array_new_with_free_func (g_free);
  c->downsampling.enabled = TRUE;
  c->downsampling.window_s = 5.0;
  c->downsampling.method = g_strdup ("mean");

  if (!check_depth (text, len, file, error))
    return NULL;
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  if (!yaml_parser_load (&parser, &doc))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s:%lu:%lu: %s"), file,
                   (unsigned long) parser.problem_mark.line + 1,
                   (unsigned long) parser.problem_mark.column + 1,
                   parser.problem ? parser.problem : _ ("not YAML"));
      yaml_parser_delete (&parser);
      return NULL;
    }
  yaml_parser_delete (&parser);
  root = yaml_document_get_root_node (&doc);
  if (root && root->type == YAML_MAPPING_NODE)
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++)
      {
        if (scalar_is (node (&r, p->key), "visualization"))
          vis = node (&r, p->value);
        else if (scalar_is (node (&r, p->key), "settings"))
          read_settings (&r, node (&r, p->value));
        else if (scalar_is (node (&r, p->key), "experiment_classification"))
          read_classification (&r, node (&r, p->value));
        else
          {
            g_autofree char *key = scalar (node (&r, p->key));
            g_autofree char *msg
                = g_strdup_printf (_ ("unknown key “%s”, ignored"), key ? key : "?");
            warn (&r, node (&r, p->key), msg);
          }
      }
  if (!vis || vis->type != YAML_MAPPING_NODE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s: no “visualization” section"),
                   file);
      yaml_document_delete (&doc);
      return NULL;
    }
  for (yaml_node_pair_t *p = vis->data.mapping.pairs.start; p < vis->data.mapping.pairs.top; p++)
    {
      yaml_node_t *k = node (&r, p->key), *v = node (&r, p->value);
      if (scalar_is (k, "multi_run_defaults"))
        read_names (&r, v, c->multi_defaults), c->has_multi_defaults = TRUE;
      else if (scalar_is (k, "single_run_defaults"))
        read_names (&r, v, c->single_defaults), c->has_single_defaults = TRUE;
      else if (scalar_is (k, "multi_run_plots"))
        read_plots (&r, v, c->multi_plots);
      else if (scalar_is (k, "single_run_plots"))
        read_plots (&r, v, c->single_plots);
      else
        warn_unknown (&r, k, "visualization");
    }
  yaml_document_delete (&doc);
  return g_steal_pointer (&c);
}

/* A default naming a preset that is not defined is reported, not fatal. */
static void
check_defaults (IvPlotConfig *c, const char *file)
{
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *names = multi ? c->multi_defaults : c->single_defaults;
      for (guint i = 0; i < names->len; i++)
        if (!iv_plot_config_get (c, multi, names->pdata[i]))
          g_ptr_array_add (c->warnings, g_strdup_printf (_ ("%s: default plot “%s” is not defined"),
                                                         file, (const char *) names->pdata[i]));
    }
}

/* @user over @base, as a user's copy of AIPerf's default would be: its presets replace
 * those of the same name and add the rest, its default lists (where it has them) replace
 * the built-in ones, its classification and settings apply. @user is emptied. */
static void
merge_over (IvPlotConfig *base, IvPlotConfig *user)
{
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *from = multi ? user->multi_plots : user->single_plots;
      GPtrArray *into = multi ? base->multi_plots : base->single_plots;
      while (from->len)
        {
          IvPlotSpec *s = g_ptr_array_steal_index (from, 0);
          for (guint i = 0; i < into->len; i++)
            if (g_str_equal (((IvPlotSpec *) into->pdata[i])->name, s->name))
              {
                g_ptr_array_remove_index (into, i);
                break;
              }
          g_ptr_array_add (into, s);
        }
      if (multi ? user->has_multi_defaults : user->has_single_defaults)
        {
          GPtrArray **names = multi ? &base->multi_defaults : &base->single_defaults;
          g_ptr_array_unref (*names);
          *names = g_ptr_array_ref (multi ? user->multi_defaults : user->single_defaults);
        }
    }
  if (user->baselines)
    {
      g_strfreev (base->baselines), base->baselines = g_steal_pointer (&user->baselines);
      g_strfreev (base->treatments), base->treatments = g_steal_pointer (&user->treatments);
      g_free (base->classification_default);
      base->classification_default = g_steal_pointer (&user->classification_default);
    }
  g_free (base->downsampling.method);
  base->downsampling = user->downsampling;
  user->downsampling.method = NULL;
  g_ptr_array_extend_and_steal (base->warnings, g_ptr_array_ref (user->warnings));
  g_free (base->origin);
  base->origin = g_strdup (user->origin);
}

IvPlotConfig *
iv_plot_config_parse (const char *text, gsize len, const char *source, GError **error)
{
  g_return_val_if_fail (text != NULL || len == 0, NULL);
  IvPlotConfig *c;

  g_return_val_if_fail (source != NULL, NULL);
  c = parse (text ? text : "", len, source, error);
  if (c)
    check_defaults (c, source);
  return c;
}

GBytes *
iv_plot_config_default_text (void)
{
  return g_resources_lookup_data (DEFAULT_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
}

/* Inferview's own presets after @c's, those it does not define itself. */
static void
add_own_presets (IvPlotConfig *c)
{
  g_autoptr (GBytes) bytes
      = g_resources_lookup_data (OWN_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autoptr (IvPlotConfig) own = NULL;
  g_autoptr (GError) error = NULL;

  g_assert (bytes);
  own = parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "built-in", &error);
  g_assert_no_error (error); /* ours, parsed by the tests */
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *from = multi ? own->multi_plots : own->single_plots;
      GPtrArray *into = multi ? c->multi_plots : c->single_plots;
      for (guint i = 0; i < from->len; i++)
        {
          IvPlotSpec *s = from->pdata[i];
          if (iv_plot_config_get (c, multi, s->name))
            continue;
          s->inferview = TRUE;
          g_ptr_array_add (into, g_ptr_array_steal_index (from, i--));
        }
    }
}

IvPlotConfig *
iv_plot_config_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  IvPlotConfig *c;
  gsize len = 0;

  g_autoptr (GBytes) bytes = iv_plot_config_default_text ();

  g_assert (bytes);
  /* the built-in default (AIPerf's), then the user's file over it */
  c = parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "built-in", error);
  g_assert (c); /* ours, parsed by the tests */
  if (path)
    {
      g_autoptr (IvPlotConfig) user = NULL;
      /* A plot configuration is a few kB; the cap keeps /dev/zero and friends out. */
      if (!(text = iv_input_load_document (path, IV_INPUT_DOCUMENT_MAX, &len, error))
          || !(user = parse (text, len, path, error)))
        {
          iv_plot_config_free (c);
          return NULL;
        }
      merge_over (c, user);
    }
  check_defaults (c, c->origin);
  add_own_presets (c);
  /* every multi-run plot groups by experiment when the classification is on */
  if (c->baselines)
    for (guint i = 0; i < c->multi_plots->len; i++)
      {
        IvPlotSpec *s = c->multi_plots->pdata[i];
        s->baselines = (const char *const *) c->baselines;
        s->treatments = (const char *const *) c->treatments;
        s->default_baseline = g_strcmp0 (c->classification_default, "baseline") == 0;
      }
  return c;
}

IvPlotConfig *
iv_plot_config_find (const char *explicit_path, const char *run_dir, GError **error)
{
  g_autofree char *beside
      = run_dir ? g_build_filename (run_dir, ".aiperf-plot-config.yaml", NULL) : NULL;
  g_autofree char *home = g_build_filename (g_get_home_dir (), ".aiperf", "plot_config.yaml", NULL);

  if (explicit_path)
    return iv_plot_config_load (explicit_path, error);
  if (beside && g_file_test (beside, G_FILE_TEST_IS_REGULAR))
    return iv_plot_config_load (beside, error);
  if (g_file_test (home, G_FILE_TEST_IS_REGULAR))
    return iv_plot_config_load (home, error);
  return iv_plot_config_load (NULL, error);
}

const IvPlotSpec *
iv_plot_config_get (const IvPlotConfig *c, gboolean multi, const char *name)
{
  GPtrArray *plots = multi ? c->multi_plots : c->single_plots;
  for (guint i = 0; i < plots->len; i++)
    if (g_str_equal (((IvPlotSpec *) plots->pdata[i])->name, name))
      return plots->pdata[i];
  return NULL;
}

static gboolean
any_matches (const char *const *patterns, const char *text)
{
  for (guint i = 0; patterns && text && patterns[i]; i++)
    if (g_pattern_match_simple (patterns[i], text))
      return TRUE;
  return FALSE;
}

gboolean
iv_plot_spec_is_baseline (const IvPlotSpec *spec, const char *run_name, const char *run_path)
{
  if (any_matches (spec->baselines, run_name) || any_matches (spec->baselines, run_path))
    return TRUE;
  if (any_matches (spec->treatments, run_name) || any_matches (spec->treatments, run_path))
    return FALSE;
  return spec->default_baseline;
}

char *
iv_plot_spec_experiment (const IvPlotSpec *spec, const char *run_name, const char *run_path)
{
  g_autofree char *dir = run_path ? g_path_get_dirname (run_path) : NULL;
  g_autofree char *parent = dir ? g_path_get_basename (dir) : NULL;

  if (parent && (any_matches (spec->baselines, parent) || any_matches (spec->treatments, parent)))
    return g_steal_pointer (&parent);
  return g_strdup (run_name);
}
