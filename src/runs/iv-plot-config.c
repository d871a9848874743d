/* iv-plot-config.c: reading `aiperf plot`'s configuration (see the header). */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-plot-config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <yaml.h>

#include "iv-input.h"
#include "iv-safe-text.h"
#include "iv-server-metrics.h"

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
  { "distribution", IV_PLOT_DISTRIBUTION },
  { "percentile_bands", IV_PLOT_PERCENTILE_BANDS },
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
  "primary_style", "secondary_style", "supplementary_col", "mode", NULL,
};

const char *const iv_plot_stat_keys[] = {
  "p50", "avg", "p90", "p95", "p99", "min", "max", "std", "p1", "p5", "p10", "p25", "p75", NULL,
};

/* The characters two strings share as Python's difflib.SequenceMatcher counts them: the
 * longest common block (the earliest in @a, then in @b, when several are as long), then
 * the same on either side of it. */
static guint
matching_chars (const char *a, gsize alo, gsize ahi, const char *b, gsize blo, gsize bhi)
{
  gsize best_i = alo, best_j = blo, best_k = 0;

  if (alo >= ahi || blo >= bhi)
    return 0;
  for (gsize i = alo; i < ahi; i++)
    for (gsize j = blo; j < bhi; j++)
      {
        gsize k = 0;
        while (i + k < ahi && j + k < bhi && a[i + k] == b[j + k])
          k++;
        if (k > best_k)
          best_i = i, best_j = j, best_k = k;
      }
  if (best_k == 0)
    return 0;
  return (guint) best_k + matching_chars (a, alo, best_i, b, blo, best_j)
         + matching_chars (a, best_i + best_k, ahi, b, best_j + best_k, bhi);
}

typedef struct
{
  double ratio;
  const char *word;
} Close;

static gint
compare_close (gconstpointer pa, gconstpointer pb)
{
  const Close *x = pa, *y = pb;
  /* heapq.nlargest on (ratio, word): the best first, a tie to the larger word */
  if (x->ratio != y->ratio)
    return x->ratio > y->ratio ? -1 : 1;
  return -strcmp (x->word, y->word);
}

gboolean
iv_plot_parse_metric_shortcut (const char *shortcut, char **metric, char **stat, GError **error)
{
  const char *us = strrchr (shortcut, '_');
  const char *tail;
  gboolean digits;

  *metric = *stat = NULL;
  if (!us)
    {
      *metric = g_strdup (shortcut);
      return TRUE;
    }
  tail = us + 1;
  if (g_strv_contains (iv_plot_stat_keys, tail))
    {
      *metric = g_strndup (shortcut, (gsize) (us - shortcut));
      *stat = g_strdup (tail);
      return TRUE;
    }
  /* _detect_invalid_stat_pattern: "p" and digits that name no statistic */
  digits = tail[0] == 'p' && tail[1];
  for (const char *q = tail + 1; digits && *q; q++)
    digits = g_ascii_isdigit (*q);
  if (!digits)
    {
      *metric = g_strdup (shortcut);
      return TRUE;
    }
  {
    /* difflib.get_close_matches (tail, ALL_STAT_KEYS, n=3, cutoff=0.6) */
    g_autoptr (GArray) close = g_array_new (FALSE, FALSE, sizeof (Close));
    g_autoptr (GString) valid = g_string_new (NULL), guess = g_string_new (NULL);
    gsize lt = strlen (tail);
    for (guint i = 0; iv_plot_stat_keys[i]; i++)
      {
        const char *k = iv_plot_stat_keys[i];
        gsize lk = strlen (k);
        Close c = { 2.0 * matching_chars (k, 0, lk, tail, 0, lt) / (double) (lk + lt), k };
        g_string_append_printf (valid, "%s%s", i ? ", " : "", k);
        if (c.ratio >= 0.6)
          g_array_append_val (close, c);
      }
    g_array_sort (close, compare_close);
    for (guint i = 0; i < close->len && i < 3; i++)
      g_string_append_printf (guess, "%s%.*s_%s", i ? ", " : "", (int) (us - shortcut), shortcut,
                              g_array_index (close, Close, i).word);
    if (guess->len)
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("“%s” ends in “%s”, which is no statistic (they are %s); did you mean %s?"),
                   shortcut, tail, valid->str, guess->str);
    else
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _ ("“%s” ends in “%s”, which is no statistic (they are %s)"), shortcut, tail,
                   valid->str);
  }
  return FALSE;
}

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
  g_clear_pointer (&c->multi_index, g_hash_table_unref);
  g_clear_pointer (&c->single_index, g_hash_table_unref);
  g_strfreev (c->baselines);
  g_strfreev (c->treatments);
  g_free (c->classification_default);
  g_clear_pointer (&c->group_display_names, g_hash_table_unref);
  g_free (c->downsampling.method);
  g_free (c);
}

/* ---- warnings: each said once, with its count ---- */

/* Distinct warnings past this many, from one file, are counted, not listed: a generated
 * file can have one per line, and they go to a terminal. */
#define MAX_WARNINGS 200

/* The warnings added to a configuration's list while reading one file: a message said
 * again (a base with a bad value merged into 5,000 presets) counts, it is not repeated. */
typedef struct
{
  GPtrArray *into;   /* the configuration's warnings */
  guint base;        /* @into's length when this set began */
  GHashTable *index; /* message (in @into) → GUINT_TO_POINTER (its place after @base) */
  GArray *counts;    /* guint: how often each was said, from @base on */
  guint dropped;     /* warnings past MAX_WARNINGS */
  const char *file;
} Warnings;

static void
warnings_begin (Warnings *w, GPtrArray *into, const char *file)
{
  w->into = into;
  w->base = into->len;
  w->index = g_hash_table_new (g_str_hash, g_str_equal);
  w->counts = g_array_new (FALSE, FALSE, sizeof (guint));
  w->dropped = 0;
  w->file = file;
}

/* @message (taken) into the list, or counted when it is there already. */
static void
warnings_add (Warnings *w, char *message)
{
  gpointer at;
  guint one = 1;

  if (g_hash_table_lookup_extended (w->index, message, NULL, &at))
    {
      g_array_index (w->counts, guint, GPOINTER_TO_UINT (at))++;
      g_free (message);
      return;
    }
  if (w->counts->len >= MAX_WARNINGS)
    {
      w->dropped++;
      g_free (message);
      return;
    }
  g_hash_table_insert (w->index, message, GUINT_TO_POINTER (w->counts->len));
  g_ptr_array_add (w->into, message);
  g_array_append_val (w->counts, one);
}

/* Each warning said more than once gets its count; the ones not listed are said as one. */
static void
warnings_end (Warnings *w)
{
  if (!w->index)
    return;
  g_clear_pointer (&w->index, g_hash_table_unref);
  for (guint i = 0; i < w->counts->len; i++)
    {
      guint n = g_array_index (w->counts, guint, i);
      char **slot = (char **) &w->into->pdata[w->base + i];
      if (n > 1)
        {
          char *counted = g_strdup_printf (
              ngettext ("%s (repeated %'u time)", "%s (repeated %'u times)", n), *slot, n);
          g_free (*slot);
          *slot = counted;
        }
    }
  g_clear_pointer (&w->counts, g_array_unref);
  if (w->dropped)
    g_ptr_array_add (w->into,
                     g_strdup_printf (ngettext ("%s: %'u more warning, not listed",
                                                "%s: %'u more warnings, not listed", w->dropped),
                                      w->file, w->dropped));
}

typedef struct
{
  yaml_document_t *doc;
  IvPlotConfig *config;
  const char *file;
  Warnings warnings;
  /* merge keys: the mappings a preset has taken keys from, marked with the preset's
   * generation (one slot per node of the document) */
  guint *seen;
  guint generation;
  GError *fatal; /* the first error that makes the file unusable (a statistic that is none) */
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
  warnings_add (&r->warnings, g_strdup_printf ("%s:%lu: %s", r->file,
                                               (unsigned long) at->start_mark.line + 1, message));
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

/* The first error of the file, at @at: "FILE:LINE: plot “NAME”: …". */
static void
fail_at (Reader *r, yaml_node_t *at, const char *name, const GError *why)
{
  if (r->fatal)
    return;
  g_set_error (&r->fatal, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s:%lu: plot “%s”: %s"), r->file,
               (unsigned long) at->start_mark.line + 1, name, why->message);
}

/* A statistic a preset names (stat: p67) must be one, as a shortcut's must. */
static void
check_stat (Reader *r, yaml_node_t *at, const char *name, const char *stat)
{
  g_autoptr (GError) why = NULL;

  if (!stat || g_strv_contains (iv_plot_stat_keys, stat) || g_str_equal (stat, "value"))
    return;
  {
    g_autofree char *as_shortcut = g_strdup_printf ("metric_%s", stat);
    g_autofree char *m = NULL, *st = NULL;
    if (!iv_plot_parse_metric_shortcut (as_shortcut, &m, &st, &why) || !st)
      {
        if (!why)
          g_set_error (&why, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("“%s” is no statistic (p50, avg, p90, p95, p99, min, max, std, p1, p5, "
                          "p10, p25, p75)"),
                       stat);
        fail_at (r, at, name, why);
      }
  }
}

/* x: request_number, x: request_latency_p90 (aiperf's shortcut: the metric and its
 * statistic), or x: {metric: request_latency, stat: avg, source: …}. */
static void
axis (Reader *r, const char *name, yaml_node_t *n, IvPlotAxis *a)
{
  if (n->type == YAML_SCALAR_NODE)
    {
      g_autofree char *text = scalar (n);
      g_autoptr (GError) why = NULL;
      char *metric = NULL, *stat = NULL;
      if (!iv_plot_parse_metric_shortcut (text, &metric, &stat, &why))
        {
          fail_at (r, n, name, why);
          return;
        }
      g_free (a->metric), a->metric = metric;
      g_free (a->stat), a->stat = stat;
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
        {
          g_free (a->stat), a->stat = scalar (v);
          check_stat (r, v, name, a->stat);
        }
      else if (scalar_is (k, "source"))
        continue; /* the data source: Inferview finds a metric wherever the run has it */
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
    {
      TEXT (stat);
      check_stat (r, v, name, s->stat);
    }
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
    axis (r, name, v, &s->x);
  else if (g_str_equal (key, "y"))
    axis (r, name, v, &s->y);
  else if (g_str_equal (key, "y2"))
    axis (r, name, v, &s->y2);
  else if (g_str_equal (key, "use_slice_duration"))
    {
      g_autofree char *value = scalar (v);
      s->use_slice_duration
          = value && (g_ascii_strcasecmp (value, "true") == 0 || g_str_equal (value, "1"));
    }
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

/* The mapping behind a merge key's value (an alias of a mapping, or a list of them),
 * pushed on @stack so that the first in the list is taken first. */
static void
push_merged (Reader *r, GPtrArray *stack, yaml_node_t *v)
{
  if (v->type == YAML_MAPPING_NODE)
    g_ptr_array_add (stack, v);
  else if (v->type == YAML_SEQUENCE_NODE)
    {
      for (yaml_node_item_t *i = v->data.sequence.items.top; i > v->data.sequence.items.start; i--)
        {
          yaml_node_t *m = node (r, i[-1]);
          if (m && m->type == YAML_MAPPING_NODE)
            g_ptr_array_add (stack, m);
        }
    }
  else
    warn (r, v, _ ("a merge key (<<) takes a mapping or a list of them; ignored"));
}

/* The keys of preset mapping @n into @s, YAML merge keys resolved: its own keys win over
 * what "<<: *base" (or a list of them, the first winning) brings, and a base's own keys
 * over what it merges in turn. The mappings are ordered by that precedence (a walk, the
 * mapping first, then each merged one in list order), each taken once however often it
 * is reached — so a list naming one anchor ten times, or nine presets each merging the
 * previous one ten times, cost one visit per mapping, not 10^9 — and their keys are then
 * applied from the lowest precedence to the highest, later ones replacing earlier ones. */
static void
spec_keys (Reader *r, IvPlotSpec *s, const char *name, yaml_node_t *n)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GPtrArray) order = g_ptr_array_new ();

  r->generation++;
  g_ptr_array_add (stack, n);
  while (stack->len)
    {
      yaml_node_t *m = g_ptr_array_steal_index (stack, stack->len - 1);
      gsize id = (gsize) (m - r->doc->nodes.start);
      if (r->seen[id] == r->generation)
        continue;
      r->seen[id] = r->generation;
      g_ptr_array_add (order, m);
      /* the last merge key of the mapping is taken last */
      for (yaml_node_pair_t *p = m->data.mapping.pairs.top; p > m->data.mapping.pairs.start; p--)
        {
          yaml_node_t *k = node (r, p[-1].key), *v = node (r, p[-1].value);
          if (scalar_is (k, "<<") && v)
            push_merged (r, stack, v);
        }
    }
  for (guint i = order->len; i > 0; i--)
    {
      yaml_node_t *m = order->pdata[i - 1];
      for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++)
        {
          yaml_node_t *k = node (r, p->key), *v = node (r, p->value);
          g_autofree char *key = scalar (k);
          if (key && v && !g_str_equal (key, "<<"))
            spec_key (r, s, name, k, v, key);
        }
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
  s->use_slice_duration = -1;
  s->line = (guint) n->start_mark.line + 1;
  spec_keys (r, s, name, n);
  /* a server metric by its Prometheus name (aiperf: source: server_metrics, or a name such
   * as vllm:…) is drawn over time from the server's series, as aiperf's single-run
   * handlers draw it whatever over-time type the preset gives */
  if ((s->type == IV_PLOT_SCATTER || s->type == IV_PLOT_SCATTER_PERCENTILES
       || s->type == IV_PLOT_AREA || s->type == IV_PLOT_TIMESLICE || s->type == IV_PLOT_DUAL_AXIS)
      && iv_prom_is_server_metric (s->source, s->y.metric))
    s->type = IV_PLOT_SERVER;
  return s;
}

/* The presets of mapping @n into @into, and their places into @index (name → place + 1):
 * a name defined again replaces the earlier definition where it stood, as a YAML
 * mapping with a repeated key reads in AIPerf. */
static void
read_plots (Reader *r, yaml_node_t *n, GPtrArray *into, GHashTable *index)
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
      guint at;
      if (!s)
        continue;
      if ((at = GPOINTER_TO_UINT (g_hash_table_lookup (index, s->name))))
        {
          g_autofree char *msg
              = g_strdup_printf (_ ("plot “%s” is defined again; this definition is used"), name);
          warn (r, node (r, p->key), msg);
          /* the index's key is the old preset's name: replaced before that is freed */
          g_hash_table_replace (index, s->name, GUINT_TO_POINTER (at));
          spec_free (into->pdata[at - 1]);
          into->pdata[at - 1] = s;
          continue;
        }
      g_ptr_array_add (into, s);
      g_hash_table_insert (index, s->name, GUINT_TO_POINTER (into->len));
    }
}

/* @c's name → place tables, made again from its lists. */
static void
reindex (IvPlotConfig *c)
{
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *plots = multi ? c->multi_plots : c->single_plots;
      GHashTable *index = multi ? c->multi_index : c->single_index;
      g_hash_table_remove_all (index);
      for (guint i = 0; i < plots->len; i++)
        g_hash_table_replace (index, ((IvPlotSpec *) plots->pdata[i])->name,
                              GUINT_TO_POINTER (i + 1));
    }
}

static void
read_names (Reader *r, yaml_node_t *n, GPtrArray *into)
{
  g_auto (GStrv) names = strings (r, n);
  for (guint i = 0; names[i]; i++)
    g_ptr_array_add (into, g_strdup (names[i]));
}

/* ---- the document, built from libyaml's events under a budget ----
 *
 * libyaml's own loader (yaml_parser_load) is not used: it looks every anchor up in a list
 * (500,000 anchors: quadratic, minutes), goes quadratic on deep nesting (100,000 levels:
 * 82 s) and leaves aliases unbounded — one 1 MiB scalar aliased 20,000 times is a 20 GB
 * configuration once each alias is read as a copy. Here the document is built from the
 * event stream with its anchors in a hash table (so their number needs no limit of its
 * own beyond the nodes'); a document holds at most IV_PLOT_CONFIG_NODES nodes (each costs
 * libyaml ~130 bytes: 32 million one-character list items fit in the 64 MiB a file may
 * have, and would take 4 GB); each node's size counts what aliases
 * inside it expand to, each alias adds its anchor's size to a budget
 * (IV_PLOT_CONFIG_ALIAS_BYTES, _NODES) and is refused past it, where it stands; an alias
 * inside the node it names (a loop: AIPerf's own reader recurses on it until Python
 * gives up) is refused, and so is nesting past MAX_YAML_DEPTH (a plot configuration is
 * five levels deep). Every step is constant time per event. */
#define MAX_YAML_DEPTH 64

typedef struct
{
  guint64 nodes, bytes; /* what a node holds, aliases inside it expanded */
} Cost;

typedef struct
{
  int id;
  gsize line;    /* where it is defined, for a second definition's message */
  gboolean open; /* its node is still being read: an alias to it is inside it */
  Cost cost;
} Anchor;

typedef struct
{
  int id;
  int key;        /* a mapping's key waiting for its value, or 0 */
  Cost cost;      /* so far */
  Anchor *anchor; /* the anchor it defines, or NULL */
} Open;

typedef struct
{
  yaml_document_t *doc;
  const char *file;
  GArray *stack;       /* Open: the collections being read, innermost last */
  GHashTable *anchors; /* name → Anchor* */
  Cost aliases;        /* what the aliases so far expand to */
  guint64 nodes;       /* made so far */
  GError **error;
} Loader;

static gboolean G_GNUC_PRINTF (3, 4)
    load_fail (Loader *l, yaml_mark_t mark, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (l->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("%s:%lu:%lu: %s"), l->file,
               (unsigned long) mark.line + 1, (unsigned long) mark.column + 1, message);
  return FALSE;
}

static gboolean
out_of_memory (Loader *l, yaml_mark_t mark)
{
  return load_fail (l, mark, "%s", g_strerror (ENOMEM));
}

/* Node @id, just made at @mark and costing @cost, into the collection that holds it (the
 * root has none). */
static gboolean
attach (Loader *l, int id, Cost cost, yaml_mark_t mark)
{
  Open *parent;
  int ok;

  if (l->stack->len == 0)
    return TRUE;
  parent = &g_array_index (l->stack, Open, l->stack->len - 1);
  parent->cost.nodes += cost.nodes;
  parent->cost.bytes += cost.bytes;
  if (yaml_document_get_node (l->doc, parent->id)->type == YAML_SEQUENCE_NODE)
    ok = yaml_document_append_sequence_item (l->doc, parent->id, id);
  else if (!parent->key)
    parent->key = id, ok = TRUE;
  else
    {
      ok = yaml_document_append_mapping_pair (l->doc, parent->id, parent->key, id);
      parent->key = 0;
    }
  return ok || out_of_memory (l, mark);
}

/* &@name on node @id: a name defined twice is refused, as libyaml and PyYAML refuse it. */
static gboolean
define_anchor (Loader *l, const char *name, int id, yaml_mark_t mark, Anchor **out)
{
  Anchor *a = g_hash_table_lookup (l->anchors, name);

  if (a)
    return load_fail (l, mark, _ ("the anchor &%s is defined again (first on line %lu)"), name,
                      (unsigned long) a->line + 1);
  a = g_new0 (Anchor, 1);
  a->id = id;
  a->line = mark.line;
  a->open = TRUE;
  g_hash_table_insert (l->anchors, g_strdup (name), a);
  *out = a;
  return TRUE;
}

/* *@name: its node again, its size added to the budget. */
static gboolean
load_alias (Loader *l, const char *name, yaml_mark_t mark)
{
  Anchor *a = g_hash_table_lookup (l->anchors, name);

  if (!a)
    return load_fail (l, mark, _ ("the alias *%s names no anchor before it"), name);
  if (a->open)
    return load_fail (l, mark, _ ("the alias *%s refers to the node it is inside, a loop"), name);
  l->aliases.nodes += a->cost.nodes;
  l->aliases.bytes += a->cost.bytes;
  if (l->aliases.bytes > IV_PLOT_CONFIG_ALIAS_BYTES)
    return load_fail (
        l, mark,
        _ ("aliases expand past %" G_GUINT64_FORMAT " MiB (the limit for a plot configuration)"),
        IV_PLOT_CONFIG_ALIAS_BYTES >> 20);
  if (l->aliases.nodes > IV_PLOT_CONFIG_ALIAS_NODES)
    return load_fail (
        l, mark,
        _ ("aliases expand past %" G_GUINT64_FORMAT " nodes (the limit for a plot configuration)"),
        IV_PLOT_CONFIG_ALIAS_NODES);
  return attach (l, a->id, a->cost, mark);
}

static gboolean
load_event (Loader *l, yaml_event_t *e)
{
  yaml_node_t *n;
  int id;

  if ((e->type == YAML_SCALAR_EVENT || e->type == YAML_SEQUENCE_START_EVENT
       || e->type == YAML_MAPPING_START_EVENT)
      && ++l->nodes > IV_PLOT_CONFIG_NODES)
    return load_fail (
        l, e->start_mark,
        _ ("more than %" G_GUINT64_FORMAT " values (the limit for a plot configuration)"),
        IV_PLOT_CONFIG_NODES);
  switch (e->type)
    {
    case YAML_SCALAR_EVENT:
      {
        Cost cost = { 1, e->data.scalar.length };
        Anchor *a = NULL;
        /* tags are not read: a plot configuration has none that matter */
        if (!(id = yaml_document_add_scalar (l->doc, NULL, e->data.scalar.value,
                                             (int) MIN (e->data.scalar.length, G_MAXINT),
                                             e->data.scalar.style)))
          return out_of_memory (l, e->start_mark);
        n = yaml_document_get_node (l->doc, id);
        n->start_mark = e->start_mark, n->end_mark = e->end_mark;
        if (e->data.scalar.anchor
            && !define_anchor (l, (const char *) e->data.scalar.anchor, id, e->start_mark, &a))
          return FALSE;
        if (a)
          a->open = FALSE, a->cost = cost;
        return attach (l, id, cost, e->start_mark);
      }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
      {
        gboolean seq = e->type == YAML_SEQUENCE_START_EVENT;
        const yaml_char_t *anchor
            = seq ? e->data.sequence_start.anchor : e->data.mapping_start.anchor;
        Open open = { 0, 0, { 1, 0 }, NULL };
        if (l->stack->len >= MAX_YAML_DEPTH)
          return load_fail (l, e->start_mark, _ ("nested more than %d levels deep"),
                            MAX_YAML_DEPTH);
        id = seq ? yaml_document_add_sequence (l->doc, NULL, e->data.sequence_start.style)
                 : yaml_document_add_mapping (l->doc, NULL, e->data.mapping_start.style);
        if (!id)
          return out_of_memory (l, e->start_mark);
        n = yaml_document_get_node (l->doc, id);
        n->start_mark = e->start_mark;
        open.id = id;
        if (anchor && !define_anchor (l, (const char *) anchor, id, e->start_mark, &open.anchor))
          return FALSE;
        g_array_append_val (l->stack, open);
        return TRUE;
      }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      {
        Open done = g_array_index (l->stack, Open, l->stack->len - 1);
        g_array_set_size (l->stack, l->stack->len - 1);
        yaml_document_get_node (l->doc, done.id)->end_mark = e->end_mark;
        if (done.anchor)
          done.anchor->open = FALSE, done.anchor->cost = done.cost;
        return attach (l, done.id, done.cost, e->start_mark);
      }
    case YAML_ALIAS_EVENT:
      return load_alias (l, (const char *) e->data.alias.anchor, e->start_mark);
    default:
      return TRUE;
    }
}

/* The first document of @text into @doc (initialised here, deleted on failure), or
 * FALSE with @error naming the file, line, column and the problem. */
static gboolean
load_document (yaml_document_t *doc, const char *text, gsize len, const char *file, GError **error)
{
  yaml_parser_t parser;
  yaml_event_t event;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Open));
  g_autoptr (GHashTable) anchors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  Loader l = { doc, file, stack, anchors, { 0, 0 }, 0, error };
  gboolean ok = TRUE, done = FALSE;
  yaml_mark_t start = { 0, 0, 0 };

  if (!yaml_document_initialize (doc, NULL, NULL, NULL, 1, 1))
    return out_of_memory (&l, start);
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  while (ok && !done)
    {
      if (!yaml_parser_parse (&parser, &event))
        {
          ok = load_fail (&l, parser.problem_mark, "%s",
                          parser.problem ? parser.problem : _ ("not YAML"));
          break;
        }
      done = event.type == YAML_DOCUMENT_END_EVENT || event.type == YAML_STREAM_END_EVENT
             || event.type == YAML_NO_EVENT;
      ok = load_event (&l, &event);
      yaml_event_delete (&event);
    }
  yaml_parser_delete (&parser);
  if (!ok)
    yaml_document_delete (doc);
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
            {
              /* as aiperf tests what PyYAML loads (`if not enabled`): off only for YAML's
               * false, no, off, a zero or null (an empty value) */
              char *end = NULL;
              double number = value ? g_ascii_strtod (value, &end) : 0;
              d->enabled = !(!value || !*value || g_ascii_strcasecmp (value, "false") == 0
                             || g_ascii_strcasecmp (value, "no") == 0
                             || g_ascii_strcasecmp (value, "off") == 0
                             || g_ascii_strcasecmp (value, "null") == 0 || g_str_equal (value, "~")
                             || (end != value && *end == 0 && number == 0));
            }
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
      else if (scalar_is (k, "group_display_names"))
        {
          /* {experiment group: its name in legends} (ExperimentClassificationConfig) */
          if (!v || v->type != YAML_MAPPING_NODE)
            {
              warn (r, v ? v : k,
                    _ ("group_display_names is a mapping of experiment groups to names; "
                       "ignored"));
              continue;
            }
          g_clear_pointer (&c->group_display_names, g_hash_table_unref);
          c->group_display_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
               q++)
            {
              char *group = scalar (node (r, q->key)), *shown = scalar (node (r, q->value));
              if (group && shown)
                g_hash_table_replace (c->group_display_names, group, shown);
              else
                {
                  warn (r, node (r, q->key), _ ("a group's display name is text; ignored"));
                  g_free (group), g_free (shown);
                }
            }
        }
      else if (scalar_is (k, "group_extraction_pattern"))
        continue; /* a regular expression aiperf reads and does not use in its plots */
      else
        warn_unknown (r, k, "experiment_classification");
    }
}

static IvPlotConfig *
config_new (const char *origin)
{
  IvPlotConfig *c = g_new0 (IvPlotConfig, 1);

  c->origin = g_strdup (origin);
  c->multi_defaults = g_ptr_array_new_with_free_func (g_free);
  c->single_defaults = g_ptr_array_new_with_free_func (g_free);
  c->multi_plots = g_ptr_array_new_with_free_func (spec_free);
  c->single_plots = g_ptr_array_new_with_free_func (spec_free);
  c->multi_index = g_hash_table_new (g_str_hash, g_str_equal);
  c->single_index = g_hash_table_new (g_str_hash, g_str_equal);
  c->warnings = g_ptr_array_new_with_free_func (g_free);
  c->downsampling.enabled = TRUE;
  c->downsampling.window_s = 5.0;
  c->downsampling.method = g_strdup ("mean");
  return c;
}

static IvPlotConfig *
parse (const char *text, gsize len, const char *file, GError **error)
{
  yaml_document_t doc;
  yaml_node_t *root, *vis = NULL;
  g_autoptr (IvPlotConfig) c = config_new (file);
  Reader r = { &doc, c, file };
  g_autofree guint *seen = NULL;

  if (!load_document (&doc, text, len, file, error))
    return NULL;
  r.seen = seen = g_new0 (guint, doc.nodes.top - doc.nodes.start + 1);
  warnings_begin (&r.warnings, c->warnings, file);
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
      warnings_end (&r.warnings);
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
        read_plots (&r, v, c->multi_plots, c->multi_index);
      else if (scalar_is (k, "single_run_plots"))
        read_plots (&r, v, c->single_plots, c->single_index);
      else
        warn_unknown (&r, k, "visualization");
    }
  warnings_end (&r.warnings);
  yaml_document_delete (&doc);
  if (r.fatal)
    {
      g_propagate_error (error, r.fatal);
      return NULL;
    }
  return g_steal_pointer (&c);
}

/* A default naming a preset that is not defined is reported, not fatal. */
static void
check_defaults (IvPlotConfig *c, const char *file)
{
  Warnings w;

  warnings_begin (&w, c->warnings, file);
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray *names = multi ? c->multi_defaults : c->single_defaults;
      for (guint i = 0; i < names->len; i++)
        if (!iv_plot_config_get (c, multi, names->pdata[i]))
          warnings_add (&w, g_strdup_printf (_ ("%s: default plot “%s” is not defined"), file,
                                             (const char *) names->pdata[i]));
    }
  warnings_end (&w);
}

/* @user over @base, as a user's copy of AIPerf's default would be: its presets replace
 * those of the same name and add the rest, its default lists (where it has them) replace
 * the built-in ones, its classification and settings apply. @user is emptied. */
static void
merge_over (IvPlotConfig *base, IvPlotConfig *user)
{
  for (int multi = 0; multi < 2; multi++)
    {
      GPtrArray **into = multi ? &base->multi_plots : &base->single_plots;
      GPtrArray *from = multi ? user->multi_plots : user->single_plots;
      GHashTable *replaced = multi ? user->multi_index : user->single_index;
      GPtrArray *merged = g_ptr_array_new_full ((*into)->len + from->len, spec_free);
      gsize n_base, n_user;
      gpointer *kept = g_ptr_array_steal (*into, &n_base);
      gpointer *added = g_ptr_array_steal (from, &n_user);

      /* the built-in presets the user's do not replace, in their order, then the user's */
      for (gsize i = 0; i < n_base; i++)
        if (g_hash_table_contains (replaced, ((IvPlotSpec *) kept[i])->name))
          spec_free (kept[i]);
        else
          g_ptr_array_add (merged, kept[i]);
      for (gsize i = 0; i < n_user; i++)
        g_ptr_array_add (merged, added[i]);
      g_free (kept);
      g_free (added);
      g_hash_table_remove_all (replaced);
      g_ptr_array_unref (*into);
      *into = merged;
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
      g_clear_pointer (&base->group_display_names, g_hash_table_unref);
      base->group_display_names = g_steal_pointer (&user->group_display_names);
    }
  g_free (base->downsampling.method);
  base->downsampling = user->downsampling;
  user->downsampling.method = NULL;
  g_ptr_array_extend_and_steal (base->warnings, g_ptr_array_ref (user->warnings));
  g_free (base->origin);
  base->origin = g_strdup (user->origin);
  reindex (base);
}

/* The presets of a built-in configuration, marked so (IvPlotSpec.builtin). */
static void
mark_builtin (IvPlotConfig *c)
{
  for (guint i = 0; i < c->single_plots->len; i++)
    ((IvPlotSpec *) c->single_plots->pdata[i])->builtin = TRUE;
  for (guint i = 0; i < c->multi_plots->len; i++)
    ((IvPlotSpec *) c->multi_plots->pdata[i])->builtin = TRUE;
}

/* Every preset borrows the configuration's settings (once its presets are in place: a
 * user file's are moved into the configuration they are merged over). */
static void
lend_settings (IvPlotConfig *c)
{
  for (guint i = 0; i < c->single_plots->len; i++)
    ((IvPlotSpec *) c->single_plots->pdata[i])->downsampling = &c->downsampling;
  for (guint i = 0; i < c->multi_plots->len; i++)
    ((IvPlotSpec *) c->multi_plots->pdata[i])->downsampling = &c->downsampling;
}

IvPlotConfig *
iv_plot_config_parse (const char *text, gsize len, const char *source, GError **error)
{
  g_return_val_if_fail (text != NULL || len == 0, NULL);
  IvPlotConfig *c;

  g_return_val_if_fail (source != NULL, NULL);
  c = parse (text ? text : "", len, source, error);
  if (c)
    {
      check_defaults (c, source);
      lend_settings (c);
    }
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
  mark_builtin (own);
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
          g_hash_table_insert (multi ? c->multi_index : c->single_index, s->name,
                               GUINT_TO_POINTER (into->len));
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
  mark_builtin (c);
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
  lend_settings (c);
  /* every multi-run plot groups by experiment when the classification is on */
  if (c->baselines)
    for (guint i = 0; i < c->multi_plots->len; i++)
      {
        IvPlotSpec *s = c->multi_plots->pdata[i];
        s->baselines = (const char *const *) c->baselines;
        s->treatments = (const char *const *) c->treatments;
        s->default_baseline = g_strcmp0 (c->classification_default, "baseline") == 0;
        s->group_display_names = c->group_display_names;
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
  guint at
      = GPOINTER_TO_UINT (g_hash_table_lookup (multi ? c->multi_index : c->single_index, name));

  return at ? plots->pdata[at - 1] : NULL;
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

/* ---- file names from preset names ---- */

char *
iv_plot_file_stem (const char *name)
{
  g_autofree char *valid = iv_text_valid (name ? name : "", -1);
  g_autoptr (GString) out = g_string_new (NULL);
  gsize start = 0, end;

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);
      /* separators, what a terminal or a file system would take as something else, and
       * invisible characters that reorder or hide the rest of the name */
      if ((c < 0x80 && strchr ("/\\:*?\"<>|", (int) c)) || type == G_UNICODE_CONTROL
          || type == G_UNICODE_FORMAT || type == G_UNICODE_LINE_SEPARATOR
          || type == G_UNICODE_PARAGRAPH_SEPARATOR)
        g_string_append_c (out, '-');
      else if (c == '.' && out->len && out->str[out->len - 1] == '.')
        continue; /* ".." is never a name */
      else
        g_string_append_unichar (out, c);
    }
  /* not hidden, not an option: no leading dot, dash or space */
  while (start < out->len && strchr (".- ", out->str[start]))
    start++;
  end = start + iv_text_prefix_len (out->str + start, out->len - start, IV_PLOT_FILE_STEM_MAX);
  /* no trailing dot or space (Windows drops them: two names would be one file) */
  while (end > start && strchr (". ", out->str[end - 1]))
    end--;
  return end > start ? g_strndup (out->str + start, end - start) : g_strdup ("plot");
}

struct _IvPlotFileNames
{
  char *ext;
  GHashTable *by_preset; /* preset → its file name */
  GHashTable *taken;     /* file names given, folded as a case-insensitive file system would */
  GHashTable *next;      /* a stem (folded) → the next number to try after a collision */
};

IvPlotFileNames *
iv_plot_file_names_new (const char *ext)
{
  IvPlotFileNames *names = g_new0 (IvPlotFileNames, 1);

  names->ext = g_strdup (ext);
  names->by_preset = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  names->taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  names->next = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return names;
}

void
iv_plot_file_names_free (IvPlotFileNames *names)
{
  if (!names)
    return;
  g_free (names->ext);
  g_hash_table_unref (names->by_preset);
  g_hash_table_unref (names->taken);
  g_hash_table_unref (names->next);
  g_free (names);
}

/* @name as a file system that ignores case and normalisation compares it. */
static char *
fold (const char *name)
{
  g_autofree char *normal = g_utf8_normalize (name, -1, G_NORMALIZE_DEFAULT);
  return g_utf8_casefold (normal ? normal : name, -1);
}

const char *
iv_plot_file_names_get (IvPlotFileNames *names, const char *preset)
{
  const char *known = g_hash_table_lookup (names->by_preset, preset);
  g_autofree char *stem = NULL, *folded_stem = NULL;
  char *file = NULL;
  guint n;

  if (known)
    return known;
  /* as aiperf names its files: f"{name}.png" (config.py's _build_spec_kwargs) */
  stem = iv_plot_file_stem (preset);
  folded_stem = fold (stem);
  /* the first free of stem, stem-2, stem-3 …, from where the last collision left off
   * (so that many presets of one stem cost one try each) */
  n = GPOINTER_TO_UINT (g_hash_table_lookup (names->next, folded_stem));
  for (n = MAX (n, 1);; n++)
    {
      g_autofree char *folded = NULL;
      g_free (file);
      file = n == 1 ? g_strdup_printf ("%s.%s", stem, names->ext)
                    : g_strdup_printf ("%s-%u.%s", stem, n, names->ext);
      folded = fold (file);
      if (!g_hash_table_contains (names->taken, folded))
        {
          g_hash_table_add (names->taken, g_steal_pointer (&folded));
          break;
        }
    }
  g_hash_table_replace (names->next, g_steal_pointer (&folded_stem), GUINT_TO_POINTER (n + 1));
  g_hash_table_insert (names->by_preset, g_strdup (preset), file);
  return file;
}

char *
iv_plot_file_path (const char *dir, const char *file, GError **error)
{
  g_autofree char *path = NULL;
  GStatBuf st;

  if (!*file || strchr (file, G_DIR_SEPARATOR) || strchr (file, '/') || g_str_equal (file, ".")
      || g_str_equal (file, ".."))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _ ("%s: “%s” is not a file name inside this folder"), dir, file);
      return NULL;
    }
  path = g_build_filename (dir, file, NULL);
  if (g_lstat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   S_ISLNK (st.st_mode)
                       ? _ ("%s: is a symbolic link; nothing is written through a link in "
                            "the output folder")
                       : _ ("%s: is not a regular file; it is not replaced"),
                   path);
      return NULL;
    }
  return g_steal_pointer (&path);
}
