/* iv-cli-runs.c: `inferview runs PATH... [--json]`: what was discovered under the paths
 * — each run's configuration, request and error counts (records present beside the
 * summary's request count), every metric's statistics (AIPerf's summary where it has
 * the metric, else the per-request records; each says which) and the notes and
 * warnings that say what a number holds. For scripts and regression checks. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>

#include "config.h"
#include "iv-cli-bound.h"
#include "iv-cli-private.h"
#include "iv-runs-notes.h"
#include "iv-runs-table.h"
#include "iv-json-writer.h"
#include "iv-cli.h"
#include "iv-preset.h"
#include "iv-run-bound.h"
#include "iv-sweep.h"
#include "iv-units.h"

/* The output is written as it goes, not built as a tree: a run of a million metrics
 * costs its text, not the kilobytes a tree spends per member. */
static void
member_string (IvJsonWriter *b, const char *key, const char *value)
{
  iv_json_writer_key (b, key);
  if (value)
    iv_json_writer_string (b, value);
  else
    iv_json_writer_null (b);
}

static void
member_int (IvJsonWriter *b, const char *key, gint64 value)
{
  iv_json_writer_key (b, key);
  iv_json_writer_int (b, value);
}

/* NaN is not JSON: an absent number is null. */
static void
add_number (IvJsonWriter *b, const char *key, double v)
{
  iv_json_writer_key (b, key);
  if (isfinite (v))
    iv_json_writer_double (b, v);
  else
    iv_json_writer_null (b);
}

/* "prediction": §9 for the run on the hardware asked for (see iv-run-bound.h). */
static void
add_prediction (IvJsonWriter *b, const IvRunBound *pb, const IvHardware *hw)
{
  iv_json_writer_key (b, "prediction");
  iv_json_writer_begin_object (b);
  member_string (b, "model", pb->model_name);
  member_string (b, "preset", pb->model ? pb->model->name : NULL);
  member_string (b, "hardware", hw->name);
  member_string (b, "caveat", IV_BOUND_CAVEAT);
  if (!pb->ok)
    {
      member_string (b, "error", pb->error);
      iv_json_writer_end_object (b);
      return;
    }
  member_int (b, "tp", pb->pred.tp);
  add_number (b, "concurrency", pb->pred.concurrency);
  member_string (b, "concurrency_source", pb->concurrency_from_config ? "config" : "little");
  add_number (b, "isl", pb->pred.isl);
  add_number (b, "osl", pb->pred.osl);
  iv_json_writer_key (b, "fits");
  iv_json_writer_bool (b, pb->pred.fits);
  add_number (b, "memory_bytes_per_gpu", pb->pred.memory_bytes);
  for (int i = 0; i < IV_N_BOUND_MEASURES; i++)
    {
      /* times in seconds here (the metrics above keep AIPerf's milliseconds) */
      iv_json_writer_key (b, iv_bound_measure_key (i));
      iv_json_writer_begin_object (b);
      member_string (b, "unit",
                     iv_bound_measure_is_time (i) ? "s"
                     : i == IV_BOUND_THROUGHPUT   ? "tokens/sec"
                                                  : "tokens/sec/gpu");
      add_number (b, "predicted", pb->predicted[i]);
      add_number (b, "measured", pb->measured[i]);
      add_number (b, "efficiency", pb->efficiency[i]);
      iv_json_writer_end_object (b);
    }
  iv_json_writer_end_object (b);
}

static void
add_run (IvJsonWriter *b, const IvSweep *sweep, const IvRun *r, const IvRunBound *pb,
         const IvHardware *hw)
{
  g_autoptr (GPtrArray) tags = iv_run_metric_tags (r);
  g_autoptr (GHashTable) written = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *label = iv_sweep_run_label (sweep, r);
  GHashTableIter it;
  gpointer key, value;

  iv_json_writer_begin_object (b);
  member_string (b, "path", r->path);
  member_string (b, "name", r->name);
  member_string (b, "label", label);
  iv_json_writer_key (b, "config");
  iv_json_writer_begin_object (b);
  for (IvField f = 0; f < IV_N_FIELDS; f++)
    {
      g_autofree char *text = iv_run_field_text (r, f);
      double v = iv_run_field_number (r, f);
      iv_json_writer_key (b, iv_field_key (f));
      if (!text)
        iv_json_writer_null (b);
      else if (f == IV_FIELD_STREAMING)
        iv_json_writer_bool (b, r->streaming);
      else if (isfinite (v))
        iv_json_writer_double (b, v);
      else
        iv_json_writer_string (b, text);
    }
  iv_json_writer_end_object (b);
  iv_json_writer_key (b, "requests");
  iv_json_writer_int (b, r->has_records
                             ? (gint64) r->n_requests
                             : (iv_run_get_summary (r, "request_count")
                                    ? (gint64) iv_run_get_summary (r, "request_count")->avg
                                    : 0));
  member_int (b, "warmup_requests", (gint64) r->n_warmup);
  member_int (b, "errors", (gint64) r->n_errors);
  iv_json_writer_key (b, "error_types");
  iv_json_writer_begin_object (b);
  g_hash_table_iter_init (&it, r->error_types);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      member_int (b, key, GPOINTER_TO_UINT (value));
    }
  iv_json_writer_end_object (b);
  member_string (b, "source", r->has_records ? "records" : "summary");
  /* what the records hold beside what the summary counted */
  member_int (b, "records_present", r->has_records ? (gint64) r->n_requests : 0);
  member_int (b, "damaged_lines", (gint64) r->damaged_lines);
  add_number (b, "request_count", iv_run_summary_requests (r));
  iv_json_writer_key (b, "notes");
  iv_json_writer_begin_array (b);
  {
    g_autofree char *note = iv_run_records_note (r);
    g_autofree char *gpu_note = iv_run_gpu_note (r);
    if (note)
      iv_json_writer_string (b, note);
    if (gpu_note)
      iv_json_writer_string (b, gpu_note);
    for (guint i = 0; i < tags->len; i++)
      {
        g_autofree char *disagree = iv_run_stats_note (r, tags->pdata[i]);
        if (disagree)
          iv_json_writer_string (b, disagree);
      }
  }
  iv_json_writer_end_array (b);
  iv_json_writer_key (b, "warnings");
  iv_json_writer_begin_array (b);
  for (guint i = 0; i < r->warnings->len; i++)
    iv_json_writer_string (b, r->warnings->pdata[i]);
  iv_json_writer_end_array (b);
  add_number (b, "duration_s", r->duration_s);
  /* a run without its summary whose files stopped growing (AIPerf ended or died before it) */
  iv_json_writer_key (b, "incomplete");
  iv_json_writer_bool (b, r->incomplete);
  iv_json_writer_key (b, "aggregate_only");
  iv_json_writer_bool (b, r->aggregate_only);
  member_string (b, "aggregation_type", r->aggregation_type);
  member_int (b, "trials", r->n_trials);
  member_int (b, "profile_runs", r->n_profile_runs);
  add_number (b, "slice_duration_s", r->slice_duration_s);
  member_int (b, "timeslices", r->timeslices->len);
  member_int (b, "timeslices_csv", r->timeslices_csv->len);
  iv_json_writer_key (b, "telemetry_collected");
  iv_json_writer_bool (b, r->telemetry_collected);
  {
    IvGpuCountSource from;
    guint n = iv_run_gpu_count (r, &from);
    static const char *const sources[] = { "telemetry", "summary", "user", "assumed" };
    member_int (b, "gpu_count", n);
    member_string (b, "gpu_count_source", sources[from]);
    member_int (b, "gpu_count_aiperf", iv_run_gpu_count_aiperf (r));
  }
  iv_json_writer_key (b, "gpus");
  iv_json_writer_begin_array (b);
  for (guint i = 0; i < r->gpus->len; i++)
    {
      const IvGpu *g = r->gpus->pdata[i];
      iv_json_writer_begin_object (b);
      member_string (b, "uuid", g->uuid);
      member_int (b, "index", g->index);
      member_string (b, "model", g->model);
      member_int (b, "samples", g->ts_ns->len);
      iv_json_writer_end_object (b);
    }
  iv_json_writer_end_array (b);
  iv_json_writer_key (b, "metrics");
  iv_json_writer_begin_object (b);
  for (guint i = 0; i < tags->len; i++)
    {
      IvMetricSummary s = { 0 };
      /* a summary metric named like a server quantity is listed twice: one member */
      if (!g_hash_table_add (written, tags->pdata[i])
          || !iv_run_metric_stats (r, tags->pdata[i], &s))
        continue;
      iv_json_writer_key (b, tags->pdata[i]);
      iv_json_writer_begin_object (b);
      member_string (b, "unit", s.unit);
      /* an aggregate-only cell's "summary" is its trials' means */
      member_string (b, "source",
                     s.source == IV_STATS_SUMMARY && r->aggregate_only ? "aggregate"
                     : s.source == IV_STATS_SUMMARY                    ? "summary"
                     : s.source == IV_STATS_SERVER_AGGREGATE           ? "server_aggregate"
                     : s.source == IV_STATS_SERVER_SERIES              ? "server_series"
                                                                       : "records");
      add_number (b, "count", s.count);
      add_number (b, "avg", s.avg);
      add_number (b, "min", s.min);
      add_number (b, "max", s.max);
      add_number (b, "std", s.std);
      add_number (b, "p1", s.p1);
      add_number (b, "p5", s.p5);
      add_number (b, "p10", s.p10);
      add_number (b, "p25", s.p25);
      add_number (b, "p50", s.p50);
      add_number (b, "p75", s.p75);
      add_number (b, "p90", s.p90);
      add_number (b, "p95", s.p95);
      add_number (b, "p99", s.p99);
      iv_json_writer_end_object (b);
      iv_metric_summary_clear (&s);
    }
  iv_json_writer_end_object (b);
  if (pb)
    add_prediction (b, pb, hw);
  iv_json_writer_end_object (b);
}

/* The bound of each run, as text: one line per run under its row. */
static void
print_predictions (const IvSweep *s, const IvRunBound *bounds, const IvHardware *hw)
{
  _iv_cli_printf (stdout, "\n%s %s (%s)\n", _ ("Against the model on"), hw->name, IV_BOUND_CAVEAT);
  for (guint i = 0; i < s->runs->len; i++)
    {
      const IvRunBound *pb = &bounds[i];
      const IvRun *r = s->runs->pdata[i];
      if (!pb->ok)
        {
          _iv_cli_printf (stdout, "%s: %s\n", r->name, pb->error);
          continue;
        }
      {
        g_autofree char *ttft = iv_units_format_seconds (pb->predicted[IV_BOUND_TTFT]);
        g_autofree char *itl = iv_units_format_seconds (pb->predicted[IV_BOUND_ITL]);
        g_autofree char *tps
            = iv_units_format_amount (pb->predicted[IV_BOUND_THROUGHPUT], "tokens/s");
        _iv_cli_printf (stdout,
                        "%s: %s TP=%" G_GINT64_FORMAT
                        " C=%g ISL=%.0f OSL=%.0f · bound TTFT %s (%.0f %%), ITL %s (%.0f %%), "
                        "%s (%.0f %%)\n",
                        r->name, pb->model->name, pb->pred.tp, pb->pred.concurrency, pb->pred.isl,
                        pb->pred.osl, ttft, 100 * pb->efficiency[IV_BOUND_TTFT], itl,
                        100 * pb->efficiency[IV_BOUND_ITL], tps,
                        100 * pb->efficiency[IV_BOUND_THROUGHPUT]);
      }
    }
}

static void
print_text (const IvSweep *s)
{
  _iv_cli_printf (stdout, g_dngettext (NULL, "%u run", "%u runs", s->runs->len), s->runs->len);
  if (s->varying->len)
    {
      _iv_cli_printf (stdout, " · %s", _ ("varying:"));
      for (guint i = 0; i < s->varying->len; i++)
        _iv_cli_printf (stdout, " %s", iv_field_key (GPOINTER_TO_UINT (s->varying->pdata[i])));
    }
  _iv_cli_printf (stdout, "\n");
  {
    /* the window's and the report's table (iv-runs-table.c), in aligned columns: text
     * to the left, numbers to the right */
    g_autoptr (IvRunsTable) t = iv_runs_table_comparison (s, NULL);
    g_autofree guint *width = g_new0 (guint, t->n_columns);
    g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *shared = iv_runs_table_constants_text (t);
    /* what every run shares, once above the table, as the window says it */
    if (shared)
      _iv_cli_printf (stdout, "%s\n", shared);
    for (guint c = 0; c < t->n_columns; c++)
      width[c] = (guint) g_utf8_strlen (t->titles->pdata[c], -1);
    for (guint i = 0; i < t->rows->len; i++)
      for (guint c = 0; c < t->n_columns; c++)
        {
          char *text
              = iv_runs_table_cell_text (&g_array_index (t->rows, IvRunsTableRow, i).cells[c]);
          width[c] = MAX (width[c], (guint) g_utf8_strlen (text, -1));
          g_ptr_array_add (cells, text);
        }
    for (guint i = 0; i <= t->rows->len; i++)
      {
        g_autoptr (GString) line = g_string_new (NULL);
        for (guint c = 0; c < t->n_columns; c++)
          {
            const char *text
                = i == 0 ? t->titles->pdata[c] : cells->pdata[(i - 1) * t->n_columns + c];
            guint pad = width[c] - (guint) g_utf8_strlen (text, -1);
            /* a title over its column: left over text (the run, the model), right over
             * numbers, whichever columns the table kept */
            guint at = i == 0 ? 0 : i - 1;
            gboolean left
                = (i == 0 && c == 0)
                  || (at < t->rows->len
                      && g_array_index (t->rows, IvRunsTableRow, at).cells[c].text != NULL
                      && !isfinite (g_array_index (t->rows, IvRunsTableRow, at).cells[c].value));
            if (c)
              g_string_append (line, "  ");
            if (!left)
              for (guint k = 0; k < pad; k++)
                g_string_append_c (line, ' ');
            g_string_append (line, text);
            if (left && c + 1 < t->n_columns)
              for (guint k = 0; k < pad; k++)
                g_string_append_c (line, ' ');
          }
        _iv_cli_printf (stdout, "%s\n", line->str);
      }
  }
  {
    /* what each run's numbers hold and what was skipped, as the window says it */
    g_autoptr (GPtrArray) said = iv_runs_notes (s, NULL, IV_RUNS_NOTES_GPU);
    for (guint i = 0; i < said->len; i++)
      {
        g_autofree char *line = iv_runs_note_line (said->pdata[i], s, NULL);
        _iv_cli_printf (stderr, "inferview runs: %s\n", line);
      }
  }
}

int
_iv_cli_runs (int argc, char **argv)
{
  static const IvCliBoundSpec bound_spec = { "runs", "predict", "model", FALSE };
  gboolean json = FALSE, predict = FALSE;
  g_auto (GStrv) paths = NULL;
  g_autofree char *gpus = NULL;
  g_auto (IvCliBound) bound = { NULL };
  g_autofree IvRunBound *bounds = NULL;
  const IvHardware *hw = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) sweep = NULL;
  int rc;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    IV_CLI_GPUS_ENTRY (&gpus),
    { "predict", 0, 0, G_OPTION_ARG_NONE, &predict,
      N_ ("Set each run against the analytical bound of its model on --hardware (TTFT, ITL, "
          "latency, throughput, efficiency)"),
      NULL },
    IV_CLI_BOUND_HARDWARE_ENTRY (&bound, N_ ("With --predict: the hardware preset (e.g. h100x8)")),
    IV_CLI_BOUND_TP_ENTRY (
        &bound, N_ ("With --predict: TP over the GPUs (default: the smallest that fits)")),
    IV_CLI_BOUND_MODEL_ENTRIES (
        &bound,
        N_ ("With --predict: the model preset the runs served (default: matched from each run's "
            "model name)"),
        N_ ("With --predict: the model the runs served, from its Hugging Face config.json")),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, N_ ("PATH…") },
    { NULL },
  };

  if (!_iv_cli_parse ("runs",
                      _ ("Discover the AIPerf runs under the paths and report their metrics."),
                      entries, &argc, &argv))
    return IV_EXIT_USAGE;
  if (!paths || !paths[0])
    return _iv_cli_usage_error ("runs", "%s", _ ("name at least one run or sweep folder"));
  if ((rc = _iv_cli_bound_read (&bound_spec, predict, &bound)) != IV_EXIT_OK)
    return rc;
  hw = bound.hw;
  sweep = iv_sweep_load ((const char *const *) paths, NULL, NULL, NULL, &error);
  if (!sweep)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (!_iv_cli_apply_gpus ("runs", gpus, sweep))
    return IV_EXIT_USAGE;
  if (predict)
    {
      bounds = g_new0 (IvRunBound, MAX (sweep->runs->len, 1));
      for (guint i = 0; i < sweep->runs->len; i++)
        iv_run_bound_compute (sweep->runs->pdata[i], bound.m, hw, bound.tp_n, &bounds[i]);
    }
  if (json)
    {
      IvJsonWriter *b = iv_json_writer_new (TRUE);
      g_autofree char *text = NULL;

      iv_json_writer_begin_object (b);
      iv_json_writer_key (b, "varying");
      iv_json_writer_begin_array (b);
      for (guint i = 0; i < sweep->varying->len; i++)
        iv_json_writer_string (b, iv_field_key (GPOINTER_TO_UINT (sweep->varying->pdata[i])));
      iv_json_writer_end_array (b);
      iv_json_writer_key (b, "warnings");
      iv_json_writer_begin_array (b);
      for (guint i = 0; i < sweep->warnings->len; i++)
        iv_json_writer_string (b, sweep->warnings->pdata[i]);
      iv_json_writer_end_array (b);
      iv_json_writer_key (b, "runs");
      iv_json_writer_begin_array (b);
      for (guint i = 0; i < sweep->runs->len; i++)
        add_run (b, sweep, sweep->runs->pdata[i], bounds ? &bounds[i] : NULL, hw);
      iv_json_writer_end_array (b);
      iv_json_writer_end_object (b);
      text = iv_json_writer_finish (b);
      printf ("%s\n", text);
    }
  else
    {
      print_text (sweep);
      if (bounds)
        print_predictions (sweep, bounds, hw);
    }
  for (guint i = 0; bounds && i < sweep->runs->len; i++)
    iv_run_bound_clear (&bounds[i]);
  return IV_EXIT_OK;
}
