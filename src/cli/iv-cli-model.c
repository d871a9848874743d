/* iv-cli-model.c: `inferview model`, `inferview presets` and `inferview hardware`: the
 * analytical model from the command line, every knob an option, as a table, CSV or the
 * JSON the issue specifies. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-private.h"
#include "iv-json-writer.h"
#include "iv-cli.h"
#include "iv-glossary.h"
#include "iv-model-state.h"
#include "iv-export.h"
#include "iv-model-figures.h"
#include "iv-model.h"
#include "iv-render-model.h"
#include "iv-render-serving.h"
#include "iv-run-bound.h"
#include "iv-run-series.h"
#include "iv-saved.h"
#include "iv-serving-measured.h"
#include "iv-theme.h"
#include "iv-units.h"

typedef struct
{
  char *preset, *hf_config, *hardware, *mode, *batch, *tq, *context, *tp, *cp;
  char *tp_place, *cp_place, *ring, *format;
  char *cubes, *topology, *pes_per_cube, *pe_flops, *pe_vector_flops, *pe_mem_bw;
  char *pe_mem_capacity, *pe_link_bw, *pe_link_latency, *cube_link_bw, *cube_link_latency;
  char *bidirectional, *eta_compute, *eta_memory, *eta_comm;
  char *weight_bytes, *act_bytes, *kv_bytes, *partial_bytes;
  char *figure, *output, *kind, *sweep;
  char *quant, *weight_format, *act_format, *kv_format, *ep, *ep_place, *imbalance, *reserve;
  char *isl, *osl, *pe_flops_fp8, *pe_flops_int8, *pe_flops_fp4, *switch_reduction;
  char *measured;      /* an AIPerf sweep's folder, drawn over the serving curve */
  IvCliFigureArgs fig; /* char* only, like the rest: options_clear frees them all */
  gboolean annotate;   /* the flags, after every string */
  gboolean overlap, serving;
} Options;

static void
options_clear (Options *o)
{
  char **fields = (char **) o;
  for (gsize i = 0; i < G_STRUCT_OFFSET (Options, annotate) / sizeof (char *); i++)
    g_free (fields[i]);
}

static gboolean
whole (const char *option, const char *text, gboolean allow_zero, gint64 *out)
{
  double v = (double) *out;

  if (!_iv_cli_number ("model", option, text, allow_zero, &v))
    return FALSE;
  if (v != floor (v))
    {
      _iv_cli_printf (stderr, "inferview model: --%s: “%s” must be a whole number\n", option, text);
      return FALSE;
    }
  /* a whole number, too large: said so (the model's own limits come later, by option) */
  if (v > 1e15)
    {
      _iv_cli_printf (stderr,
                      "inferview model: --%s: “%s” is too large (the limit is 1000000000000000)\n",
                      option, text);
      return FALSE;
    }
  *out = (gint64) v;
  return TRUE;
}

static gboolean
choice (const char *option, const char *text, const char *a, const char *b, int *out)
{
  if (!text)
    return TRUE;
  if (g_str_equal (text, a))
    *out = 0;
  else if (g_str_equal (text, b))
    *out = 1;
  else
    {
      _iv_cli_printf (stderr, "inferview model: --%s must be %s or %s, not “%s”\n", option, a, b,
                      text);
      return FALSE;
    }
  return TRUE;
}

/* The hardware option a field of a hardware description is set by ("eta_compute" →
 * "eta-compute"), when it was given; else NULL. */
static const char *
option_of_field (const Options *o, const char *message)
{
  static const char *const options[]
      = { "cubes",           "topology",     "pes-per-cube",      "pe-flops",
          "pe-vector-flops", "pe-mem-bw",    "pe-mem-capacity",   "pe-link-bw",
          "pe-link-latency", "cube-link-bw", "cube-link-latency", "eta-compute",
          "eta-memory",      "eta-comm",     "bidirectional",     "pe-flops-fp8",
          "pe-flops-int8",   "pe-flops-fp4" };
  const char *const given[]
      = { o->cubes,           o->topology,     o->pes_per_cube,      o->pe_flops,
          o->pe_vector_flops, o->pe_mem_bw,    o->pe_mem_capacity,   o->pe_link_bw,
          o->pe_link_latency, o->cube_link_bw, o->cube_link_latency, o->eta_compute,
          o->eta_memory,      o->eta_comm,     o->bidirectional,     o->pe_flops_fp8,
          o->pe_flops_int8,   o->pe_flops_fp4 };

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *field = g_strdelimit (g_strdup (options[i]), "-", '_');
      g_autofree char *quoted = g_strdup_printf ("“%s”", field);
      if (given[i] && strstr (message, quoted))
        return options[i];
    }
  /* a ring's one row: what --cubes or --topology set */
  if (strstr (message, "ring of cubes"))
    return o->cubes ? "cubes" : o->topology ? "topology" : NULL;
  return NULL;
}

/* The hardware the options name, overrides applied and named in its name ("ring4 +
 * overrides: torus2d 4×4, 4 PEs/cube") so every output says what was used. NULL with
 * @status: IV_EXIT_USAGE for a malformed value, IV_EXIT_BAD_INPUT for an unreadable
 * file or a value the hardware rejects, after one line on stderr naming the option. */
static IvHardware *
hardware_from_options (Options *o, int *status)
{
  g_autoptr (IvHardware) hw = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  const IvHardware *preset;
  int bidir = -1, reduce = -1;
  gint64 x = 0, y = 1, pes = 0;
  IvTopology topology = IV_TOPOLOGY_RING;

  *status = IV_EXIT_USAGE;
  if (o->cubes)
    {
      char *end;
      x = g_ascii_strtoll (o->cubes, &end, 10);
      if (*end == 'x' || *end == 'X')
        y = g_ascii_strtoll (end + 1, &end, 10);
      if (*end || x < 1 || y < 1 || x > 4096 || y > 4096)
        {
          _iv_cli_usage_error (
              "model", "--cubes: must be X or XxY (whole numbers, 1 to 4096), not “%s”", o->cubes);
          return NULL;
        }
    }
  if (o->topology && !iv_topology_from_string (o->topology, &topology))
    {
      _iv_cli_usage_error (
          "model", "--topology: must be ring, mesh2d, torus2d, switch or fully_connected, not “%s”",
          o->topology);
      return NULL;
    }
  if (!whole ("pes-per-cube", o->pes_per_cube, FALSE, &pes)
      || !choice ("bidirectional", o->bidirectional, "no", "yes", &bidir)
      || !choice ("switch-reduction", o->switch_reduction, "no", "yes", &reduce))
    return NULL;

  *status = IV_EXIT_BAD_INPUT;
  preset = iv_hardware_find (o->hardware ? o->hardware : IV_MODEL_STATE_DEFAULT_HARDWARE);
  if (preset)
    hw = iv_hardware_copy (preset);
  else if (!(hw = iv_hardware_load (o->hardware, &error)))
    {
      _iv_cli_printf (
          stderr,
          "inferview model: --hardware: “%s” is not a hardware preset (inferview hardware "
          "lists them), "
          "and as a file: %s\n",
          o->hardware, error->message);
      return NULL;
    }
  if (o->topology)
    {
      hw->topology = topology;
      g_ptr_array_add (changes, g_strdup (iv_topology_to_string (topology)));
    }
  if (o->cubes)
    {
      hw->X = x, hw->Y = y;
      g_ptr_array_add (changes,
                       g_strdup_printf ("%" G_GINT64_FORMAT "×%" G_GINT64_FORMAT " cubes", x, y));
    }
  if (o->pes_per_cube)
    {
      hw->n_pe = pes;
      g_ptr_array_add (changes, g_strdup_printf ("%" G_GINT64_FORMAT " PEs/cube", pes));
    }
  {
    struct
    {
      const char *option, *text;
      double *field;
      gboolean zero;
    } numbers[] = {
      { "pe-flops", o->pe_flops, &hw->P_c, FALSE },
      { "pe-vector-flops", o->pe_vector_flops, &hw->P_v, FALSE },
      { "pe-mem-bw", o->pe_mem_bw, &hw->BW, FALSE },
      { "pe-mem-capacity", o->pe_mem_capacity, &hw->M_pe, FALSE },
      { "pe-link-bw", o->pe_link_bw, &hw->B_pe, FALSE },
      { "pe-link-latency", o->pe_link_latency, &hw->a_pe, TRUE },
      { "cube-link-bw", o->cube_link_bw, &hw->B_cu, FALSE },
      { "cube-link-latency", o->cube_link_latency, &hw->a_cu, TRUE },
      { "eta-compute", o->eta_compute, &hw->eta_c, FALSE },
      { "eta-memory", o->eta_memory, &hw->eta_m, FALSE },
      { "eta-comm", o->eta_comm, &hw->eta_n, FALSE },
      { "pe-flops-fp8", o->pe_flops_fp8, &hw->P_fp8, TRUE },
      { "pe-flops-int8", o->pe_flops_int8, &hw->P_int8, TRUE },
      { "pe-flops-fp4", o->pe_flops_fp4, &hw->P_fp4, TRUE },
    };
    for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
      {
        if (!numbers[i].text)
          continue;
        if (!_iv_cli_number ("model", numbers[i].option, numbers[i].text, numbers[i].zero,
                             numbers[i].field))
          {
            *status = IV_EXIT_USAGE;
            return NULL;
          }
        g_ptr_array_add (changes, g_strdup_printf ("%s %s", numbers[i].option, numbers[i].text));
      }
  }
  if (bidir >= 0)
    {
      hw->bidir = bidir;
      g_ptr_array_add (changes, g_strdup (bidir ? "bidirectional" : "one-way links"));
    }
  if (reduce >= 0)
    {
      hw->switch_reduce = reduce;
      g_ptr_array_add (changes, g_strdup (reduce ? "switch reduction" : "no switch reduction"));
    }
  if (!iv_hardware_validate (hw, "hardware", &error))
    {
      const char *option = option_of_field (o, error->message);
      const char *text
          = g_str_has_prefix (error->message, "hardware: ") ? error->message + 10 : error->message;
      if (option)
        _iv_cli_printf (stderr, "inferview model: --%s: %s\n", option, text);
      else
        _iv_cli_printf (stderr, "inferview model: --hardware %s: %s\n",
                        o->hardware ? o->hardware : IV_MODEL_STATE_DEFAULT_HARDWARE, text);
      return NULL;
    }
  if (changes->len)
    {
      g_autofree char *list = NULL;
      g_ptr_array_add (changes, NULL);
      list = g_strjoinv (", ", (char **) changes->pdata);
      {
        char *name = g_strdup_printf ("%s + overrides: %s", hw->name, list);
        g_free (hw->name);
        hw->name = name;
      }
    }
  *status = IV_EXIT_OK;
  return g_steal_pointer (&hw);
}

static void
add_stage_json (JsonBuilder *b, const IvResult *r, guint kind, IvStageId id, const IvStage *s)
{
  g_autofree char *formula = iv_stage_formula (r, kind, id, FALSE);
  g_autofree char *values = iv_stage_formula (r, kind, id, TRUE);
  g_autofree char *time = iv_stage_time_formula (r, kind, id, TRUE);
  g_autofree char *comm = iv_stage_comm_formula (r, kind, id, TRUE);

  json_builder_begin_object (b);
  iv_json_member_string (b, "id", iv_stage_id (id));
  iv_json_member_string (b, "name", iv_stage_name (id));
  iv_json_member_double (b, "flops", s->flops);
  iv_json_member_double (b, "bytes", s->bytes);
  iv_json_member_double (b, "comm_bytes", s->comm_bytes);
  iv_json_member_double (b, "t_compute_s", s->t_compute_s);
  iv_json_member_double (b, "t_memory_s", s->t_memory_s);
  iv_json_member_double (b, "t_comm_s", s->t_comm_s);
  iv_json_member_double (b, "t_s", s->t_s);
  iv_json_member_double (b, "visible_s", s->visible_s);
  iv_json_member_string (b, "bound", iv_bound_to_string (s->bound));
  iv_json_member_string (b, "formula", formula);
  iv_json_member_string (b, "formula_values", values);
  iv_json_member_string (b, "time_formula", time);
  if (s->matrix)
    {
      iv_json_member_string (b, "format", iv_format_id (s->fmt));
      iv_json_member_double (b, "peak_flops", s->peak);
    }
  if (comm)
    {
      iv_json_member_string (b, "algorithm", iv_coll_algo_name (s->comm.algo));
      iv_json_member_string (b, "comm_formula", comm);
    }
  json_builder_end_object (b);
}

/* What was evaluated: the model, the hardware and the configuration. */
static void
add_inputs_json (JsonBuilder *b, const IvResult *r)
{
  json_builder_set_member_name (b, "model");
  json_builder_begin_object (b);
  iv_json_member_string (b, "name", r->model->name);
  iv_json_member_string (b, "weight_format", iv_format_id (r->model->fmt_w));
  iv_json_member_string (b, "act_format", iv_format_id (r->model->fmt_a));
  iv_json_member_double (b, "params_total", r->model->params_total);
  iv_json_member_double (b, "params_active", r->model->params_active);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "hardware");
  json_builder_add_value (b, iv_hardware_to_node (r->hw));
  json_builder_set_member_name (b, "config");
  json_builder_begin_object (b);
  iv_config_build_json (b, &r->config);
  json_builder_end_object (b);
}

/* Per layer kind, its stages; then the step's totals. */
static void
add_times_json (JsonBuilder *b, const IvResult *r)
{
  json_builder_set_member_name (b, "layer_kinds");
  json_builder_begin_array (b);
  for (guint k = 0; k < r->n_kinds; k++)
    {
      const IvKindResult *kr = &r->kinds[k];
      json_builder_begin_object (b);
      iv_json_member_string (b, "kind", kr->name);
      iv_json_member_int (b, "layers", kr->layers);
      json_builder_set_member_name (b, "stages");
      json_builder_begin_array (b);
      for (int s = 0; s < IV_N_STAGES; s++)
        if (kr->stages[s].present)
          add_stage_json (b, r, k, s, &kr->stages[s]);
      json_builder_end_array (b);
      iv_json_member_double (b, "attention_s", kr->attention_s);
      iv_json_member_double (b, "ffn_s", kr->ffn_s);
      iv_json_member_double (b, "layer_s", kr->layer_s);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  iv_json_member_double (b, "lm_head_s", r->lm_head.t_s);
  iv_json_member_double (b, "step_s", r->step_s);
  iv_json_member_double (b, "tokens_per_s", r->tokens_per_s);
  iv_json_member_int (b, "pes", r->pes);
  iv_json_member_double (b, "tokens_per_s_per_pe", r->tokens_per_s / (double) r->pes);
}

/* Memory per PE, what is idle, and how the TP and CP groups sit on the interconnect. */
static void
add_placement_json (JsonBuilder *b, const IvResult *r)
{
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  iv_json_member_double (b, "weights_bytes_per_pe", r->weights_bytes_per_pe);
  iv_json_member_double (b, "kv_bytes_per_pe", r->kv_bytes_per_pe);
  iv_json_member_double (b, "activation_bytes_per_pe", r->act_bytes_per_pe);
  iv_json_member_double (b, "capacity_bytes_per_pe", r->capacity_bytes_per_pe);
  iv_json_member_double (b, "reserve", r->config.reserve);
  iv_json_member_double (b, "usable_bytes_per_pe", r->usable_bytes_per_pe);
  iv_json_member_bool (b, "fits", r->fits);
  iv_json_member_int (b, "batch_max", r->batch_max);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "idle");
  json_builder_begin_object (b);
  iv_json_member_int (b, "pes", r->idle_pes);
  iv_json_member_int (b, "cubes", r->idle_cubes);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "groups");
  json_builder_begin_object (b);
  for (int g = 0; g < 3; g++)
    {
      const IvCommGroup *grp = g == 0 ? &r->tp_group : g == 1 ? &r->cp_group : &r->ep_group;
      json_builder_set_member_name (b, g == 0 ? "tp" : g == 1 ? "cp" : "ep");
      json_builder_begin_object (b);
      iv_json_member_string (b, "embedding", iv_embed_kind_to_string (grp->kind));
      iv_json_member_int (b, "members", grp->N);
      iv_json_member_int (b, "hops", grp->h);
      iv_json_member_bool (b, "wraps", grp->wrap || grp->wrap_x || grp->wrap_y);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

/* One member of a record written by add_records: where it is and what it holds. */
typedef struct
{
  const char *key;
  enum
  {
    FIELD_STRING, /* a const char * */
    FIELD_TEXT,   /* a char array */
    FIELD_NUMBER, /* a double */
  } type;
  gsize offset;
} Field;

/* @n records @stride bytes apart from @base as the array @name of objects of @fields. */
static void
add_records (JsonBuilder *b, const char *name, gconstpointer base, gsize stride, guint n,
             const Field *fields, guint n_fields)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const char *rec = (const char *) base + i * stride;
      json_builder_begin_object (b);
      for (guint f = 0; f < n_fields; f++)
        if (fields[f].type == FIELD_NUMBER)
          iv_json_member_double (b, fields[f].key, *(const double *) (rec + fields[f].offset));
        else
          iv_json_member_string (b, fields[f].key,
                                 fields[f].type == FIELD_TEXT
                                     ? rec + fields[f].offset
                                     : *(const char *const *) (rec + fields[f].offset));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* Replication waste, hints and the glossary of the symbols used. */
static void
add_advice_json (JsonBuilder *b, const IvResult *r)
{
  static const Field waste[] = {
    { "id", FIELD_STRING, G_STRUCT_OFFSET (IvWaste, id) },
    { "bytes", FIELD_NUMBER, G_STRUCT_OFFSET (IvWaste, bytes) },
    { "percent", FIELD_NUMBER, G_STRUCT_OFFSET (IvWaste, percent) },
    { "text", FIELD_TEXT, G_STRUCT_OFFSET (IvWaste, text) },
  };
  static const Field hints[] = {
    { "id", FIELD_STRING, G_STRUCT_OFFSET (IvHint, id) },
    { "text", FIELD_TEXT, G_STRUCT_OFFSET (IvHint, text) },
  };
  static const Field glossary[] = {
    { "symbol", FIELD_STRING, G_STRUCT_OFFSET (IvGlossaryEntry, symbol) },
    { "meaning", FIELD_STRING, G_STRUCT_OFFSET (IvGlossaryEntry, meaning) },
    { "unit", FIELD_STRING, G_STRUCT_OFFSET (IvGlossaryEntry, unit) },
    { "value", FIELD_NUMBER, G_STRUCT_OFFSET (IvGlossaryEntry, value) },
  };
  IvGlossaryEntry gl[80];
  guint n_gl = iv_glossary (r, r->n_kinds - 1, gl, G_N_ELEMENTS (gl));

  add_records (b, "waste", r->waste, sizeof r->waste[0], r->n_waste, waste, G_N_ELEMENTS (waste));
  add_records (b, "hints", r->hints, sizeof r->hints[0], r->n_hints, hints, G_N_ELEMENTS (hints));
  add_records (b, "glossary", gl, sizeof gl[0], n_gl, glossary, G_N_ELEMENTS (glossary));
}

static void
print_result_json (const IvResult *r)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_inputs_json (b, r);
  add_times_json (b, r);
  add_placement_json (b, r);
  add_advice_json (b, r);
  json_builder_end_object (b);
  _iv_cli_print_json_builder (b);
}

static char *
fmt_s (double s)
{
  return s > 0 ? iv_units_format_seconds (s) : g_strdup ("–");
}

static void
print_table (const IvResult *r)
{
  const IvModel *m = r->model;

  {
    g_autofree char *config = iv_result_config_text (r);
    _iv_cli_printf (stdout, "%s on %s · %s\n", m->name, r->hw->name, config);
  }
  for (guint k = 0; k < r->n_kinds; k++)
    {
      const IvKindResult *kr = &r->kinds[k];
      _iv_cli_printf (stdout, "\n%s layers × %" G_GINT64_FORMAT "\n", kr->name, kr->layers);
      _iv_cli_printf (stdout, "  %-4s %-15s %10s %10s %10s %10s %10s %10s %10s  %s\n", "id",
                      "stage", "FLOPs", "bytes", "comm B", "compute", "memory", "comm", "visible",
                      "bound");
      for (int s = 0; s < IV_N_STAGES; s++)
        {
          const IvStage *st = &kr->stages[s];
          g_autofree char *fl = iv_units_format_count (st->flops);
          g_autofree char *by = iv_hardware_format_bytes (r->hw, st->bytes);
          g_autofree char *cb = iv_hardware_format_bytes (r->hw, st->comm_bytes);
          g_autofree char *tc = fmt_s (st->t_compute_s), *tm = fmt_s (st->t_memory_s);
          g_autofree char *tn = fmt_s (st->t_comm_s), *tv = fmt_s (st->visible_s);
          if (!st->present)
            continue;
          _iv_cli_printf (stdout, "  %-4s %-15s %10s %10s %10s %10s %10s %10s %10s  %s\n",
                          iv_stage_id (s), iv_stage_name (s), fl, by, cb, tc, tm, tn, tv,
                          iv_bound_to_string (st->bound));
        }
      {
        g_autofree char *a = fmt_s (kr->attention_s), *f = fmt_s (kr->ffn_s),
                        *l = fmt_s (kr->layer_s);
        _iv_cli_printf (stdout, "  attention %s · FFN %s · layer %s\n", a, f, l);
      }
      /* each collective's cost with its numbers (§6): communication can be redone by hand */
      for (int s = 0; s < IV_N_STAGES; s++)
        {
          g_autofree char *comm = iv_stage_comm_formula (r, k, s, TRUE);
          if (comm)
            _iv_cli_printf (stdout, "  %-4s %s\n", iv_stage_id (s), comm);
        }
    }
  {
    g_autofree char *lm = fmt_s (r->lm_head.t_s), *step = fmt_s (r->step_s);
    const IvHardware *hw = r->hw;
    g_autofree char *w = iv_hardware_format_bytes (hw, r->weights_bytes_per_pe);
    g_autofree char *kv = iv_hardware_format_bytes (hw, r->kv_bytes_per_pe);
    g_autofree char *act = iv_hardware_format_bytes (hw, r->act_bytes_per_pe);
    g_autofree char *cap = iv_hardware_format_bytes (hw, r->usable_bytes_per_pe);
    g_autofree char *tps = iv_units_format_si (r->tokens_per_s, NULL);
    const char *pe = iv_hardware_pe_word (hw, FALSE);
    _iv_cli_printf (stdout, "\nLM head %s · step %s · %s tokens/s\n", lm, step, tps);
    _iv_cli_printf (stdout,
                    "memory per %s: weights %s + KV %s + activations %s of %s usable "
                    "(%.0f %% kept for the runtime): %s\n",
                    pe, w, kv, act, cap, 100 * r->config.reserve,
                    r->fits ? "fits" : "DOES NOT FIT");
    if (iv_hardware_is_gpu_server (hw))
      _iv_cli_printf (stdout, "idle: %" G_GINT64_FORMAT " GPUs\n", r->idle_pes);
    else
      _iv_cli_printf (stdout, "idle: %" G_GINT64_FORMAT " PEs, %" G_GINT64_FORMAT " cubes\n",
                      r->idle_pes, r->idle_cubes);
  }
  for (guint i = 0; i < r->n_waste; i++)
    _iv_cli_printf (stdout, "waste %-18s %5.1f %%  %s\n", r->waste[i].id, r->waste[i].percent,
                    r->waste[i].text);
  for (guint i = 0; i < r->n_hints; i++)
    _iv_cli_printf (stdout, "hint  %s\n", r->hints[i].text);
}

/* The options, as offsets into Options: the table is data, bound to one Options when
 * parsed. */
static const struct
{
  const char *name;
  char short_name;
  GOptionArg arg;
  gsize offset;
  const char *description, *arg_description;
} model_options[] = {
#define OPT(name, field, description, arg)                                                         \
  {                                                                                                \
    name, 0, G_OPTION_ARG_STRING, G_STRUCT_OFFSET (Options, field), description, arg               \
  }
  OPT ("preset", preset, N_ ("Model preset (see inferview presets)"), "NAME"),
  { "hf-config", 0, G_OPTION_ARG_FILENAME, G_STRUCT_OFFSET (Options, hf_config),
    N_ ("Hugging Face config.json to import"), "FILE" },
  OPT ("hardware", hardware, N_ ("Hardware preset or JSON file (default ring4)"), "NAME|FILE"),
  OPT ("mode", mode, N_ ("prefill or decode (default prefill)"), "MODE"),
  OPT ("batch", batch, N_ ("Sequences B (default 1)"), "B"),
  OPT ("tq", tq, N_ ("New tokens per sequence T_q (default 8192)"), "T"),
  OPT ("context", context, N_ ("Tokens already cached P (default 0)"), "P"),
  OPT ("tp", tp, N_ ("Tensor-parallel size (default 8)"), "N"),
  OPT ("cp", cp, N_ ("Context-parallel size (default 1)"), "N"),
  OPT ("tp-place", tp_place, N_ ("TP group on pe or cube (default pe)"), "pe|cube"),
  OPT ("cp-place", cp_place, N_ ("CP group on pe or cube (default cube)"), "pe|cube"),
  OPT ("ring", ring, N_ ("CP ring variant in prefill (default kv)"), "kv|qoml"),
  OPT ("format", format, N_ ("Output: table, json or csv"), "FORMAT"),
  OPT ("cubes", cubes, N_ ("Cube grid"), "X[xY]"),
  OPT ("topology", topology, N_ ("ring, mesh2d, torus2d, switch or fully_connected"), "T"),
  OPT ("pes-per-cube", pes_per_cube, N_ ("PEs per cube"), "N"),
  OPT ("pe-flops", pe_flops, N_ ("Matrix FLOP/s per PE"), "F"),
  OPT ("pe-vector-flops", pe_vector_flops, N_ ("Vector FLOP/s per PE"), "F"),
  OPT ("pe-mem-bw", pe_mem_bw, N_ ("Memory bandwidth per PE"), "B/s"),
  OPT ("pe-mem-capacity", pe_mem_capacity, N_ ("Memory per PE"), "B"),
  OPT ("pe-link-bw", pe_link_bw, N_ ("PE link bandwidth per direction"), "B/s"),
  OPT ("pe-link-latency", pe_link_latency, N_ ("PE link step latency"), "S"),
  OPT ("cube-link-bw", cube_link_bw, N_ ("Cube link bandwidth per direction"), "B/s"),
  OPT ("cube-link-latency", cube_link_latency, N_ ("Cube link step latency"), "S"),
  OPT ("bidirectional", bidirectional, N_ ("Full-duplex links"), "yes|no"),
  OPT ("eta-compute", eta_compute, N_ ("Achieved fraction of peak FLOP/s"), "X"),
  OPT ("eta-memory", eta_memory, N_ ("Achieved fraction of memory bandwidth"), "X"),
  OPT ("eta-comm", eta_comm, N_ ("Achieved fraction of link bandwidth"), "X"),
  OPT ("quant", quant,
       N_ ("Weights and activations together: bf16, fp16, fp8 (W8A8), int8 (W8A8), awq, gptq, "
           "int4 or w4a16 (INT4 weights), nvfp4 (W4A4) or mxfp4 (MXFP4 weights)"),
       "SCHEME"),
  OPT ("weight-format", weight_format,
       N_ ("Weight format: bf16, fp16, fp8, fp8-e5m2, int8, int4, nvfp4 or mxfp4"), "FMT"),
  OPT ("act-format", act_format, N_ ("Activation format (as --weight-format, not int4)"), "FMT"),
  OPT ("kv-format", kv_format, N_ ("KV-cache format (as --weight-format, not int4)"), "FMT"),
  OPT ("ep", ep, N_ ("Expert-parallel size: replicas sharing a MoE model's experts"), "N"),
  OPT ("ep-place", ep_place, N_ ("EP group on pe or cube"), "pe|cube"),
  OPT ("imbalance", imbalance,
       N_ ("EP load imbalance: the busiest rank's tokens over the mean (default 1)"), "X"),
  { "overlap", 0, G_OPTION_ARG_NONE, G_STRUCT_OFFSET (Options, overlap),
    N_ ("Overlap each TP all-reduce with the next GEMM"), NULL },
  OPT ("reserve", reserve,
       N_ ("Share of each PE's memory kept for the runtime, 0 to 0.9 (default 0.1)"), "X"),
  { "serving", 0, G_OPTION_ARG_NONE, G_STRUCT_OFFSET (Options, serving),
    N_ ("Print the serving curve (TP, EP and batch swept; --isl, --osl) instead of one step"),
    NULL },
  OPT ("isl", isl, N_ ("Serving curve: input tokens per request (default 1000)"), "N"),
  OPT ("osl", osl, N_ ("Serving curve: output tokens per request (default 1000)"), "N"),
  { "measured", 0, G_OPTION_ARG_FILENAME, G_STRUCT_OFFSET (Options, measured),
    N_ ("Serving curve: an AIPerf sweep's folder, its runs set against the bound (ISL and OSL "
        "default to the runs' means)"),
    "DIR" },
  OPT ("pe-flops-fp8", pe_flops_fp8, N_ ("FP8 matrix FLOP/s per PE (0: none)"), "F"),
  OPT ("pe-flops-int8", pe_flops_int8, N_ ("INT8 matrix FLOP/s per PE (0: none)"), "F"),
  OPT ("pe-flops-fp4", pe_flops_fp4, N_ ("FP4 matrix FLOP/s per PE (0: none)"), "F"),
  OPT ("switch-reduction", switch_reduction, N_ ("The switch reduces (NVLink SHARP)"), "yes|no"),
  OPT ("weight-bytes", weight_bytes, N_ ("Bytes per weight (default: its format's)"), "N"),
  OPT ("act-bytes", act_bytes, N_ ("Bytes per activation (default: its format's)"), "N"),
  OPT ("kv-bytes", kv_bytes, N_ ("Bytes per KV element (default: its format's)"), "N"),
  OPT ("partial-bytes", partial_bytes, N_ ("Bytes per partial accumulator (default 4)"), "N"),
  /* the description lists the registry's names: filled in by parse_options */
  OPT ("figure", figure, NULL, "NAME"),
  { "output", 'o', G_OPTION_ARG_FILENAME, G_STRUCT_OFFSET (Options, output),
    N_ ("The figure's file: .png, .pdf or .svg"), "FILE" },
  OPT ("theme", fig.theme, N_ ("Figure theme: light, dark or print"), "THEME"),
  OPT ("size", fig.size,
       N_ ("A page: slide (13.33 × 7.5 in, 18 pt text), column (3.5 in, 8.5 pt) or double-column "
           "(7 in, 9 pt)"),
       "SIZE"),
  OPT ("width", fig.width, N_ ("Figure width in 1/96 in (default depends on the figure)"), "W"),
  OPT ("height", fig.height, N_ ("Figure height in 1/96 in (default depends on the figure)"), "H"),
  OPT ("dpi", fig.dpi, N_ ("PNG resolution (default 96)"), "DPI"),
  OPT ("text-size", fig.text_size, N_ ("Body text in points on the page (default: as on screen)"),
       "PT"),
  OPT ("sweep", sweep, N_ ("What the sweep figure varies: tp, cp, tq or context (default tp)"),
       "AXIS"),
  OPT ("kind", kind,
       N_ ("Layer kind to draw: dense, moe, local, global… (default: the most numerous)"), "KIND"),
  { "annotate", 0, G_OPTION_ARG_NONE, G_STRUCT_OFFSET (Options, annotate),
    N_ ("Sharding figure: write each shard's cube and PE in it"), NULL },
#undef OPT
};

/* Parses argv into @o. FALSE after a usage error. */
static gboolean
parse_options (Options *o, int *argc, char ***argv)
{
  GOptionEntry entries[G_N_ELEMENTS (model_options) + 1] = { { NULL } };
  g_autofree char *names = iv_model_figure_names ();
  g_autofree char *figure_help = g_strdup_printf (_ ("Draw a figure: %s"), names);

  for (guint i = 0; i < G_N_ELEMENTS (model_options); i++)
    entries[i]
        = (GOptionEntry){ model_options[i].name,
                          model_options[i].short_name,
                          0,
                          model_options[i].arg,
                          G_STRUCT_MEMBER_P (o, model_options[i].offset),
                          model_options[i].description ? model_options[i].description : figure_help,
                          model_options[i].arg_description };
  if (!_iv_cli_parse ("model", _ ("Evaluate the analytical model of one inference step on a SIP."),
                      entries, argc, argv))
    return FALSE;
  if (*argc > 1)
    {
      _iv_cli_usage_error ("model", "unexpected argument “%s”", (*argv)[1]);
      return FALSE;
    }
  return TRUE;
}

/* --quant SCHEME: the weight and activation formats it stands for. */
static gboolean
quant_scheme (const char *text, IvFormat *w, IvFormat *a)
{
  static const struct
  {
    const char *name;
    IvFormat w, a;
    gboolean keep_a; /* weight-only: the activations keep their format */
  } schemes[] = {
    { "bf16", IV_FORMAT_BF16, IV_FORMAT_BF16, FALSE },
    { "fp16", IV_FORMAT_FP16, IV_FORMAT_FP16, FALSE },
    { "fp8", IV_FORMAT_FP8, IV_FORMAT_FP8, FALSE },
    { "int8", IV_FORMAT_INT8, IV_FORMAT_INT8, FALSE },
    { "w8a8", IV_FORMAT_INT8, IV_FORMAT_INT8, FALSE },
    { "awq", IV_FORMAT_INT4, IV_FORMAT_BF16, TRUE },
    { "gptq", IV_FORMAT_INT4, IV_FORMAT_BF16, TRUE },
    { "int4", IV_FORMAT_INT4, IV_FORMAT_BF16, TRUE },
    { "w4a16", IV_FORMAT_INT4, IV_FORMAT_BF16, TRUE },
    { "nvfp4", IV_FORMAT_NVFP4, IV_FORMAT_NVFP4, FALSE },
    { "mxfp4", IV_FORMAT_MXFP4, IV_FORMAT_BF16, TRUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_ascii_strcasecmp (text, schemes[i].name) == 0)
      {
        *w = schemes[i].w;
        if (!schemes[i].keep_a || iv_format_weights_only (*a))
          *a = schemes[i].keep_a ? IV_FORMAT_BF16 : schemes[i].a;
        return TRUE;
      }
  return FALSE;
}

/* The formats the options name, over the model's own (a quantized config.json), and the
 * bytes given on their own over the formats'. FALSE after a usage error on stderr (the
 * strings are checked in config_from_options, before any file is read). */
static gboolean
apply_formats (const Options *o, const IvModel *model, IvConfig *c)
{
  IvFormat w = model->fmt_w, a = model->fmt_a, kv = c->f_kv;

  if (o->quant && !quant_scheme (o->quant, &w, &a))
    return FALSE;
  if ((o->weight_format && !iv_format_from_string (o->weight_format, &w))
      || (o->act_format && !iv_format_from_string (o->act_format, &a))
      || (o->kv_format && !iv_format_from_string (o->kv_format, &kv)))
    return FALSE;
  iv_config_set_weight_format (c, w);
  iv_config_set_act_format (c, a);
  iv_config_set_kv_format (c, kv);
  return _iv_cli_number ("model", "weight-bytes", o->weight_bytes, FALSE, &c->e_w)
         && _iv_cli_number ("model", "act-bytes", o->act_bytes, FALSE, &c->e_a)
         && _iv_cli_number ("model", "kv-bytes", o->kv_bytes, FALSE, &c->e_kv);
}

/* The configuration the options name, and every number checked before any file is read
 * (a malformed hardware number is a usage error, 2, not bad input). FALSE after one
 * line on stderr. */
static gboolean
config_from_options (const Options *o, IvConfig *config)
{
  const char *hw_numbers[][2] = {
    { "pes-per-cube", o->pes_per_cube },
    { "pe-flops", o->pe_flops },
    { "pe-vector-flops", o->pe_vector_flops },
    { "pe-mem-bw", o->pe_mem_bw },
    { "pe-mem-capacity", o->pe_mem_capacity },
    { "pe-link-bw", o->pe_link_bw },
    { "pe-link-latency", o->pe_link_latency },
    { "cube-link-bw", o->cube_link_bw },
    { "cube-link-latency", o->cube_link_latency },
    { "eta-compute", o->eta_compute },
    { "eta-memory", o->eta_memory },
    { "eta-comm", o->eta_comm },
    { "pe-flops-fp8", o->pe_flops_fp8 },
    { "pe-flops-int8", o->pe_flops_int8 },
    { "pe-flops-fp4", o->pe_flops_fp4 },
  };
  IvFormat fw = IV_FORMAT_BF16, fa = IV_FORMAT_BF16;
  double isl = 1000, osl = 1000;
  int mode, tpp, cpp, ring, epp;

  /* the window's defaults: a figure drawn with no options is the one the window opens on */
  iv_model_state_default_config (config);
  mode = config->mode == IV_MODE_DECODE, tpp = config->place_tp == IV_PLACE_CUBE;
  cpp = config->place_cp == IV_PLACE_CUBE, ring = config->ring == IV_RING_QOML;
  epp = config->place_ep == IV_PLACE_CUBE;
  if (!choice ("mode", o->mode, "prefill", "decode", &mode)
      || !choice ("tp-place", o->tp_place, "pe", "cube", &tpp)
      || !choice ("cp-place", o->cp_place, "pe", "cube", &cpp)
      || !choice ("ring", o->ring, "kv", "qoml", &ring)
      || !whole ("batch", o->batch, FALSE, &config->B) || !whole ("tq", o->tq, FALSE, &config->T)
      || !whole ("context", o->context, TRUE, &config->P) || !whole ("tp", o->tp, FALSE, &config->t)
      || !whole ("cp", o->cp, FALSE, &config->c)
      || !_iv_cli_number ("model", "weight-bytes", o->weight_bytes, FALSE, &config->e_w)
      || !_iv_cli_number ("model", "act-bytes", o->act_bytes, FALSE, &config->e_a)
      || !_iv_cli_number ("model", "kv-bytes", o->kv_bytes, FALSE, &config->e_kv)
      || !_iv_cli_number ("model", "partial-bytes", o->partial_bytes, FALSE, &config->e_p)
      || !choice ("ep-place", o->ep_place, "pe", "cube", &epp)
      || !whole ("ep", o->ep, FALSE, &config->e)
      || !_iv_cli_number ("model", "imbalance", o->imbalance, FALSE, &config->imbalance)
      || !_iv_cli_number ("model", "reserve", o->reserve, TRUE, &config->reserve)
      || !_iv_cli_number ("model", "isl", o->isl, FALSE, &isl)
      || !_iv_cli_number ("model", "osl", o->osl, FALSE, &osl))
    return FALSE;
  /* the formats are applied once the model (and its own formats) is known */
  if (o->quant && !quant_scheme (o->quant, &fw, &fa))
    {
      _iv_cli_usage_error ("model",
                           "--quant must be bf16, fp16, fp8, int8, w8a8, awq, gptq, int4, w4a16, "
                           "nvfp4 or mxfp4, not “%s”",
                           o->quant);
      return FALSE;
    }
  {
    const char *given[][2] = { { "weight-format", o->weight_format },
                               { "act-format", o->act_format },
                               { "kv-format", o->kv_format } };
    for (guint i = 0; i < G_N_ELEMENTS (given); i++)
      {
        if (!given[i][1])
          continue;
        if (!iv_format_from_string (given[i][1], &fw))
          {
            _iv_cli_usage_error ("model",
                                 "--%s must be bf16, fp16, fp8, fp8-e5m2, int8, int4, nvfp4 or "
                                 "mxfp4, not “%s”",
                                 given[i][0], given[i][1]);
            return FALSE;
          }
        if (i > 0 && iv_format_weights_only (fw))
          {
            _iv_cli_usage_error ("model", "--%s: %s is a weight-only format", given[i][0],
                                 given[i][1]);
            return FALSE;
          }
      }
  }
  for (guint i = 0; i < G_N_ELEMENTS (hw_numbers); i++)
    {
      double unused;
      if (hw_numbers[i][1]
          && !_iv_cli_number ("model", hw_numbers[i][0], hw_numbers[i][1], TRUE, &unused))
        return FALSE;
    }
  if (o->format && !g_strv_contains ((const char *[]){ "table", "json", "csv", NULL }, o->format))
    {
      _iv_cli_usage_error ("model", "--format must be table, json or csv");
      return FALSE;
    }
  config->mode = mode == 0 ? IV_MODE_PREFILL : IV_MODE_DECODE;
  config->place_tp = tpp ? IV_PLACE_CUBE : IV_PLACE_PE;
  config->place_cp = cpp ? IV_PLACE_CUBE : IV_PLACE_PE;
  config->place_ep = epp ? IV_PLACE_CUBE : IV_PLACE_PE;
  config->ring = ring ? IV_RING_QOML : IV_RING_KV;
  config->overlap = o->overlap;
  return TRUE;
}

/* The model the options name: imported from --hf-config (into @imported) or a preset.
 * NULL after one line on stderr. */
static const IvModel *
model_from_options (const Options *o, IvModel **imported, int *status)
{
  g_autoptr (GError) error = NULL;
  const IvModel *model;

  *status = IV_EXIT_BAD_INPUT;
  if (o->hf_config)
    {
      if (!(*imported = iv_model_from_hf_config (o->hf_config, &error)))
        _iv_cli_printf (stderr, "inferview model: --hf-config: %s\n", error->message);
      return *imported;
    }
  if (!(model = iv_presets_find (o->preset ? o->preset : IV_MODEL_STATE_DEFAULT_MODEL)))
    {
      /* a name that is none of the presets: a malformed value */
      _iv_cli_usage_error ("model", "--preset: no preset named “%s” (inferview presets lists them)",
                           o->preset);
      *status = IV_EXIT_USAGE;
    }
  return model;
}

/* The option that sets a configuration field the model refused. */
static const char *
option_of_error (const IvConfig *c, IvConfigField field)
{
  switch (field)
    {
    case IV_FIELD_BATCH:
      return "--batch";
    case IV_FIELD_TQ:
      return "--tq";
    case IV_FIELD_CONTEXT:
      return "--context";
    case IV_FIELD_TP:
      return "--tp";
    case IV_FIELD_CP:
      return "--cp";
    case IV_FIELD_TP_PLACE:
      return "--tp-place";
    case IV_FIELD_CP_PLACE:
      return "--cp-place";
    case IV_FIELD_EP:
      return "--ep";
    case IV_FIELD_EP_PLACE:
      return "--ep-place";
    case IV_FIELD_IMBALANCE:
      return "--imbalance";
    case IV_FIELD_RESERVE:
      return "--reserve";
    case IV_FIELD_FORMAT:
      return "--act-format";
    case IV_FIELD_DTYPE:
      /* the first size out of range */
      return !(c->e_w > 0 && c->e_w <= 64)     ? "--weight-bytes"
             : !(c->e_a > 0 && c->e_a <= 64)   ? "--act-bytes"
             : !(c->e_kv > 0 && c->e_kv <= 64) ? "--kv-bytes"
                                               : "--partial-bytes";
    case IV_FIELD_NONE:
    default:
      return "--hardware";
    }
}

/* The export of --figure @info: its default size, then -o and the figure options. An
 * exit status; a name that is none of the registry's is refused with the list. */
static int
figure_export_options (const Options *o, const IvModelFigureInfo *info, IvExportOptions *eo)
{
  if (!info)
    {
      g_autofree char *names = iv_model_figure_names ();
      return _iv_cli_usage_error ("model", "--figure must be %s", names);
    }
  if (!o->output)
    return _iv_cli_usage_error ("model", "--figure needs -o FILE (.png, .pdf or .svg)");
  iv_export_options_init (eo);
  eo->width = info->width, eo->height = info->height, eo->dpi = 96;
  return _iv_cli_figure_options ("model", o->output, &o->fig, eo);
}

/* --figure NAME -o FILE: the figure of @result, drawn to the file. An exit status. */
static int
draw_figure (const Options *o, const IvResult *result)
{
  const IvModelFigureInfo *info = iv_model_figure_find (o->figure);
  IvModelFigure fig = { result, 0, IV_SWEEP_TP, o->annotate };
  IvFigure figure = { NULL, &fig, o->figure, NULL };
  g_autoptr (GError) error = NULL;
  IvExportOptions eo;
  int rc;

  if ((rc = figure_export_options (o, info, &eo)) != IV_EXIT_OK)
    return rc;
  if (o->sweep && !iv_sweep_axis_from_string (o->sweep, &fig.sweep))
    return _iv_cli_usage_error ("model", "--sweep must be tp, cp, tq or context");
  /* The most numerous layer kind unless one is named. */
  for (guint k = 0; k < result->n_kinds; k++)
    if (o->kind ? g_str_equal (result->kinds[k].name, o->kind)
                : result->kinds[k].layers > result->kinds[fig.kind].layers)
      fig.kind = k;
  if (o->kind && !g_str_equal (result->kinds[fig.kind].name, o->kind))
    {
      _iv_cli_printf (stderr, "inferview model: this model has no “%s” layers\n", o->kind);
      return IV_EXIT_BAD_INPUT;
    }
  figure.render = info->render;
  if (!iv_export_to_file (&figure, &eo, o->output, &error))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}

static void
print_serving (const Options *o, const IvServingCurve *c, const GArray *measured)
{
  const char *fmt = o->format ? o->format : "table";

  if (g_str_equal (fmt, "json"))
    {
      IvJsonWriter *w = iv_json_writer_new (TRUE);
      g_autoptr (JsonBuilder) cb = json_builder_new ();
      g_autoptr (JsonNode) config = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (cb);
      iv_config_build_json (cb, &c->base);
      json_builder_end_object (cb);
      config = json_builder_get_root (cb);
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "model");
      iv_json_writer_string (w, c->model->name);
      iv_json_writer_key (w, "hardware");
      iv_json_writer_string (w, c->hw->name);
      iv_json_writer_key (w, "isl");
      iv_json_writer_double (w, c->isl);
      iv_json_writer_key (w, "osl");
      iv_json_writer_double (w, c->osl);
      iv_json_writer_key (w, "config");
      iv_json_writer_node (w, config);
      iv_json_writer_key (w, "points");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < c->points->len; i++)
        {
          iv_serving_point_write_json (w, &g_array_index (c->points, IvServingPoint, i));
        }
      iv_json_writer_end_array (w);
      if (measured)
        {
          iv_json_writer_key (w, "measured");
          iv_serving_measured_write_json (w, measured);
        }
      iv_json_writer_key (w, "caveat");
      iv_json_writer_string (w, "a bound, not a forecast: the model ignores queueing, "
                                "scheduling and prefill–decode interference");
      iv_json_writer_end_object (w);
      text = iv_json_writer_finish (w);
      printf ("%s\n", text);
      return;
    }
  if (g_str_equal (fmt, "csv"))
    {
      _iv_cli_printf (stdout, "tp,ep,batch,ttft_s,itl_s,latency_s,tokens_per_s_per_user,"
                              "tokens_per_s_per_gpu,memory_bytes_per_gpu,fits,frontier_per_user,"
                              "frontier_ttft\n");
      for (guint i = 0; i < c->points->len; i++)
        {
          const IvServingPoint *p = &g_array_index (c->points, IvServingPoint, i);
          _iv_cli_printf (stdout,
                          "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                          ",%.9g,%.9g,%.9g,%.9g,%.9g,%.17g,%s,%s,%s\n",
                          p->t, p->e, p->B, p->ttft_s, p->itl_s, p->latency_s, p->per_user,
                          p->per_gpu, p->memory_bytes, p->fits ? "true" : "false",
                          p->front_user ? "true" : "false", p->front_ttft ? "true" : "false");
        }
      return;
    }
  _iv_cli_printf (stdout,
                  "%s on %s · serving curve, ISL %.0f, OSL %.0f · %u points, %u fit "
                  "(%.0f %% of each %s kept for the runtime)\n",
                  c->model->name, c->hw->name, c->isl, c->osl, c->points->len, c->n_fit,
                  100 * c->base.reserve, iv_hardware_pe_word (c->hw, FALSE));
  _iv_cli_printf (stdout, "%4s %4s %6s %10s %10s %14s %14s  %s\n", "TP", "EP", "B", "TTFT", "ITL",
                  "tok/s/user", "tok/s/GPU", "");
  for (guint i = 0; i < c->points->len; i++)
    {
      const IvServingPoint *p = &g_array_index (c->points, IvServingPoint, i);
      g_autofree char *ttft = iv_units_format_seconds (p->ttft_s);
      g_autofree char *itl = iv_units_format_seconds (p->itl_s);
      _iv_cli_printf (stdout,
                      "%4" G_GINT64_FORMAT " %4" G_GINT64_FORMAT " %6" G_GINT64_FORMAT
                      " %10s %10s %14.1f %14.1f  %s%s%s\n",
                      p->t, p->e, p->B, ttft, itl, p->per_user, p->per_gpu,
                      p->fits ? "" : "does not fit", p->front_user ? "frontier" : "",
                      p->front_ttft && !p->front_user ? "frontier (TTFT)" : "");
    }
  for (guint i = 0; measured && i < measured->len; i++)
    {
      const IvServingMeasured *m = &g_array_index (measured, IvServingMeasured, i);
      g_autofree char *ttft = iv_units_format_seconds (m->ttft_s);
      g_autofree char *share = NULL;
      /* a whole percent from 10 %; below, the unit formatter's decimals ("0.0123 %"): %g
       * printed "1.2e-05 %" */
      if (!isfinite (m->efficiency))
        share = g_strdup ("faster per user than the bound allows");
      else if (m->efficiency >= 0.1)
        share = g_strdup_printf ("%.0f %% of the bound", 100 * m->efficiency);
      else
        {
          g_autofree char *percent = iv_units_format_amount (100 * m->efficiency, "%");
          share = g_strdup_printf ("%s of the bound", percent);
        }
      if (i == 0)
        _iv_cli_printf (stdout, "measured (%s):\n", o->measured);
      _iv_cli_printf (stdout, "  %-28s TTFT %10s %14.1f tok/s/user %14.1f tok/s/GPU  %s%s\n",
                      m->label, ttft, m->per_user, m->per_gpu, share,
                      m->front_user ? " · frontier" : "");
    }
  _iv_cli_printf (stdout, "a bound, not a forecast: the model ignores queueing, scheduling and "
                          "prefill–decode interference\n");
}

/* The runs of an AIPerf sweep as points on the serving curve's axes (§10, see
 * iv-serving-measured.h; what `plot --hardware` draws too), with --tp if given. @isl,
 * @osl: the runs' mean lengths (NaN when none says). NULL after a message on stderr. */
static GArray *
load_measured (const Options *o, const IvModel *model, const IvHardware *hw, const IvConfig *config,
               double *isl, double *osl)
{
  const char *paths[] = { o->measured, NULL };
  g_autoptr (GError) error = NULL;
  g_auto (IvServingMeasuredSet) set = { NULL };
  IvSweep *sweep = iv_sweep_load (paths, NULL, NULL, NULL, &error);

  *isl = *osl = NAN;
  if (!sweep)
    {
      _iv_cli_print_error (error);
      return NULL;
    }
  iv_serving_measured_from_sweep (sweep, model, hw, config, o->tp ? config->t : 0, &set);
  iv_sweep_free (sweep);
  for (guint i = 0; i < set.left_out->len; i++)
    _iv_cli_printf (stderr, "inferview model: --measured: %s\n",
                    (const char *) set.left_out->pdata[i]);
  *isl = set.isl, *osl = set.osl;
  if (set.points->len == 0)
    {
      _iv_cli_printf (stderr,
                      "inferview model: --measured: no run of %s can be set against the "
                      "bound\n",
                      o->measured);
      return NULL;
    }
  return g_steal_pointer (&set.points);
}

/* --serving or --figure serving: the curve of §10 over the configuration's formats,
 * placements, overlap, imbalance and reserve, and a measured sweep over it. */
static int
run_serving (const Options *o, const IvModel *model, const IvHardware *hw, const IvConfig *config)
{
  g_autoptr (GError) error = NULL;
  double isl = 1000, osl = 1000, m_isl = NAN, m_osl = NAN;
  g_autoptr (IvServingCurve) curve = NULL;
  g_autoptr (GArray) measured = NULL;
  g_autofree char *measured_name = NULL;
  const IvModelFigureInfo *info = iv_model_figure_find (o->figure);

  if (o->measured)
    {
      if (!(measured = load_measured (o, model, hw, config, &m_isl, &m_osl)))
        return IV_EXIT_BAD_INPUT;
      /* the bound for the runs' own lengths unless told otherwise */
      if (!o->isl && isfinite (m_isl))
        isl = round (m_isl);
      if (!o->osl && isfinite (m_osl))
        osl = round (m_osl);
      g_autofree char *base = g_path_get_basename (o->measured);
      measured_name = g_strdup_printf ("measured (%s)", base);
    }
  _iv_cli_number ("model", "isl", o->isl, FALSE, &isl);
  _iv_cli_number ("model", "osl", o->osl, FALSE, &osl);
  if (!(curve = iv_serving_compute (model, hw, config, isl, osl, &error)))
    {
      _iv_cli_printf (stderr, "inferview model: --serving: %s\n", error->message);
      return IV_EXIT_BAD_INPUT;
    }
  if (measured)
    iv_serving_mark_measured (curve, (IvServingMeasured *) measured->data, measured->len);
  if (info && info->input == IV_MODEL_FIGURE_OF_SERVING)
    {
      IvServingFigure fig = { curve, measured ? (const IvServingMeasured *) measured->data : NULL,
                              measured ? measured->len : 0, measured_name };
      IvFigure figure = { info->render, &fig, info->name, NULL };
      IvExportOptions eo;
      int rc;
      if ((rc = figure_export_options (o, info, &eo)) != IV_EXIT_OK)
        return rc;
      if (!iv_export_to_file (&figure, &eo, o->output, &error))
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      return IV_EXIT_OK;
    }
  print_serving (o, curve, measured);
  return IV_EXIT_OK;
}

static int
run_model (Options *o, int argc, char **argv)
{
  g_autoptr (IvModel) imported = NULL;
  g_autoptr (IvHardware) hw = NULL;
  const IvModel *model;
  IvConfig config;
  IvResult result;
  const IvModelFigureInfo *figure;
  int status;

  if (!parse_options (o, &argc, &argv) || !config_from_options (o, &config))
    return IV_EXIT_USAGE;
  if (!(hw = hardware_from_options (o, &status)))
    return status;
  /* a GPU server has one "PE" per GPU: its groups live across GPUs unless told otherwise */
  if (hw->n_pe == 1)
    {
      if (!o->tp_place)
        config.place_tp = IV_PLACE_CUBE;
      if (!o->cp_place)
        config.place_cp = IV_PLACE_CUBE;
      if (!o->ep_place)
        config.place_ep = IV_PLACE_CUBE;
    }
  if (!(model = model_from_options (o, &imported, &status)))
    return status;
  if (!apply_formats (o, model, &config))
    return IV_EXIT_USAGE;
  figure = iv_model_figure_find (o->figure);
  /* a figure of the serving curve is drawn from the curve, not from one step */
  if (o->serving || (figure && figure->input == IV_MODEL_FIGURE_OF_SERVING))
    return run_serving (o, model, hw, &config);
  if (!iv_model_evaluate (model, hw, &config, &result))
    {
      /* a constraint of this SIP or of the step, said with the option that sets it */
      _iv_cli_printf (stderr, "inferview model: %s: %s\n",
                      option_of_error (&config, result.error_field), result.error);
      return IV_EXIT_BAD_INPUT;
    }
  if (o->figure)
    return draw_figure (o, &result);
  if (o->format && g_str_equal (o->format, "json"))
    print_result_json (&result);
  else if (o->format && g_str_equal (o->format, "csv"))
    {
      g_autofree char *csv = iv_result_to_csv (&result);
      fputs (csv, stdout);
    }
  else
    print_table (&result);
  return IV_EXIT_OK;
}

int
_iv_cli_model (int argc, char **argv)
{
  Options o = { 0 };
  int status = run_model (&o, argc, argv);

  options_clear (&o);
  return status;
}

int
_iv_cli_presets (int argc, char **argv)
{
  gboolean json = FALSE;
  GPtrArray *presets = iv_presets_get ();

  if (!_iv_cli_parse_listing ("presets", _ ("List the model presets with their parameter counts."),
                              NULL, &json, NULL, argc, argv))
    return IV_EXIT_USAGE;
  if (json)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();

      json_builder_begin_array (b);
      for (guint i = 0; i < presets->len; i++)
        {
          const IvModel *m = presets->pdata[i];
          json_builder_begin_object (b);
          iv_json_member_string (b, "name", m->name);
          iv_json_member_string (b, "family", m->family);
          iv_json_member_string (b, "hf_id", m->hf_id);
          iv_json_member_string (b, "source", m->source);
          iv_json_member_string (b, "attention",
                                 m->attention == IV_ATTENTION_MLA ? "MLA"
                                 : m->H == m->Hkv                 ? "MHA"
                                                                  : "GQA");
          iv_json_member_int (b, "hidden_size", m->d);
          iv_json_member_int (b, "layers", m->n_layers);
          iv_json_member_int (b, "heads", m->H);
          iv_json_member_int (b, "kv_heads", m->Hkv);
          iv_json_member_int (b, "head_dim", m->dh);
          iv_json_member_int (b, "intermediate_size", m->F);
          iv_json_member_int (b, "vocab_size", m->V);
          iv_json_member_int (b, "experts", m->E);
          iv_json_member_int (b, "experts_per_token", m->k);
          iv_json_member_int (b, "sliding_window", m->window);
          iv_json_member_double (b, "params_total", m->params_total);
          iv_json_member_double (b, "params_active", m->params_active);
          iv_json_member_double (b, "published_total", m->published_total);
          iv_json_member_double (b, "published_active", m->published_active);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      _iv_cli_print_json_builder (b);
      return IV_EXIT_OK;
    }
  _iv_cli_printf (stdout, "%-24s %-10s %-4s %10s %10s\n", "name", "family", "attn", "total",
                  "active");
  for (guint i = 0; i < presets->len; i++)
    {
      const IvModel *m = presets->pdata[i];
      _iv_cli_printf (stdout, "%-24s %-10s %-4s %9.2fB %9.2fB\n", m->name, m->family,
                      m->attention == IV_ATTENTION_MLA ? "MLA"
                      : m->H == m->Hkv                 ? "MHA"
                                                       : "GQA",
                      m->params_total / 1e9, m->params_active / 1e9);
    }
  return IV_EXIT_OK;
}

int
_iv_cli_hardware (int argc, char **argv)
{
  gboolean json = FALSE;
  GPtrArray *presets = iv_hardware_presets ();

  if (!_iv_cli_parse_listing ("hardware", _ ("List the hardware presets."), NULL, &json, NULL, argc,
                              argv))
    return IV_EXIT_USAGE;
  if (json)
    {
      g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
      g_autoptr (JsonArray) list = json_array_new ();
      for (guint i = 0; i < presets->len; i++)
        json_array_add_element (list, iv_hardware_to_node (presets->pdata[i]));
      json_node_set_array (root, list);
      _iv_cli_print_json (root);
      return IV_EXIT_OK;
    }
  for (guint i = 0; i < presets->len; i++)
    {
      const IvHardware *hw = presets->pdata[i];
      /* a GPU's in the datasheet's decimal units: 3.35 TB/s and 80 GB */
      g_autofree char *bw = iv_hardware_format_bytes (hw, hw->BW),
                      *mem = iv_hardware_format_bytes (hw, hw->M_pe);
      g_autofree char *flops = iv_units_format_si (hw->P_c, "FLOP/s");
      /* one line at a time: _iv_cli_printf escapes the control characters of what it
       * prints, a newline inside one call included */
      if (iv_hardware_is_gpu_server (hw))
        _iv_cli_printf (
            stdout, "%-10s %-15s %" G_GINT64_FORMAT " GPUs · %s BF16, %s/s, %s per GPU\n", hw->name,
            iv_topology_to_string (hw->topology), hw->X * hw->Y, flops, bw, mem);
      else
        _iv_cli_printf (stdout,
                        "%-10s %-15s %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT
                        " cubes × %" G_GINT64_FORMAT " PEs · %s, %s/s, %s per PE\n",
                        hw->name, iv_topology_to_string (hw->topology), hw->X, hw->Y, hw->n_pe,
                        flops, bw, mem);
      _iv_cli_printf (stdout, "  %s\n", hw->description);
    }
  return IV_EXIT_OK;
}
