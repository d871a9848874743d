/* iv-cli-trace.c: `inferview trace FILE --stats [--json]`: what a trace holds and where
 * its time goes; `inferview trace PATH... --stats [--json] [--align]`: a distributed job,
 * a trace per rank (several files or a folder), per rank and across ranks;
 * `inferview trace FILE -o FIGURE [--from MS --to MS]`: its timeline as a figure; for
 * pipelined timelines (and PyTorch traces with Candidate_Eval_N windows)
 * `-o FIGURE [--start-candidate N --num-candidates N --breakdown FILE --min-runtime-pct P]`
 * draws the pipelined figure. None needs a display. */
#define G_LOG_DOMAIN "iv-cli"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "iv-cli-bound.h"
#include "iv-cli-private.h"
#include "iv-cli-ranks.h"
#include "iv-cli-trace-diff.h"
#include "iv-trace-memcpy.h"
#include "iv-trace-steps.h"
#include "iv-safe-text.h"
#include "iv-preset.h"
#include "iv-model.h"
#include "iv-hardware.h"
#include "iv-json-writer.h"
#include "iv-cli.h"
#include "iv-export.h"
#include "iv-render-pipelined.h"
#include "iv-render-timeline.h"
#include "iv-trace-query.h"
#include "iv-trace-job.h"
#include "iv-trace-ranks.h"
#include "iv-trace-report.h"
#include "iv-units.h"

static const char *const kind_names[IV_N_KERNEL_KINDS] = { "compute", "communication", "memory" };

/* The members of the model comparison (--against), inside the stats document. */
static void against_json (IvJsonWriter *w, const IvTraceReport *rep, const IvResult *r,
                          double n_steps);

static const char *
kind_label (IvRowKind kind)
{
  switch (kind)
    {
    case IV_ROW_GPU_WORK:
      return "GPU";
    case IV_ROW_GPU_ANNOTATION:
      return "GPU annot.";
    case IV_ROW_GPU_SYNC:
      return "GPU sync";
    case IV_ROW_GPU_OTHER:
      return "GPU other";
    case IV_ROW_NESTED:
    case IV_N_ROW_KINDS:
    default:
      return "CPU";
    }
}

/* Streamed, not built as a tree: a trace of a million distinct names has a million
 * by_name entries. */
static char *
stats_json (const IvTrace *t, const IvTraceReport *rep, const GArray *copies,
            const IvResult *against, double n_steps)
{
  IvJsonWriter *w = iv_json_writer_new (TRUE);
  GArray *by_name = rep->by_name;
  IvGpuStats *gpu = rep->gpu;

#define INT(k, v) (iv_json_writer_key (w, k), iv_json_writer_int (w, v))
#define STR(k, v) (iv_json_writer_key (w, k), iv_json_writer_string (w, v))
#define BOOL(k, v) (iv_json_writer_key (w, k), iv_json_writer_bool (w, v))
  iv_json_writer_begin_object (w);
  STR ("format", t->format == IV_TRACE_PIPELINED ? "pipelined-timeline" : "chrome-trace");
  INT ("slices", t->n_slices - t->n_async_slices);
  INT ("async_slices", t->n_async_slices);
  INT ("instants", t->instants->len);
  INT ("counter_series", t->series->len);
  INT ("counter_samples", t->n_samples);
  INT ("flows", t->flows->len);
  INT ("dangling_flow_events", t->n_dangling_flows);
  INT ("processes", t->processes->len);
  INT ("tracks", t->tracks->len);
  INT ("start_ns", t->t0_ns);
  INT ("end_ns", t->t1_ns);
  INT ("max_depth", t->max_depth);
  /* what the statistics below cover */
  iv_json_writer_key (w, "range");
  iv_json_writer_begin_object (w);
  INT ("start_ns", MAX (rep->t0_ns, t->t0_ns));
  INT ("end_ns", MIN (rep->t1_ns, t->t1_ns));
  BOOL ("whole_trace", !rep->scoped);
  BOOL ("include_open", (rep->flags & IV_STATS_INCLUDE_OPEN) != 0);
  iv_json_writer_end_object (w);
  /* profiler rounding: how many children end after their parent, by how much at most;
   * drawn nested, their durations untouched */
  iv_json_writer_key (w, "overrun_parent");
  iv_json_writer_begin_object (w);
  INT ("slices", t->n_overrun);
  INT ("max_ns", t->max_overrun_ns);
  INT ("tolerance_ns", t->overlap_tolerance_ns);
  iv_json_writer_end_object (w);
  INT ("partial_overlaps", t->n_partial);
  INT ("gpu_overlaps", t->n_list_overlaps);
  BOOL ("truncated", t->truncated);
  iv_json_writer_key (w, "warnings");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < t->warnings->len; i++)
    iv_json_writer_string (w, t->warnings->pdata[i]);
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "open_names");
  iv_json_writer_begin_array (w);
  for (guint i = 0; t->open_names && i < t->open_names->len; i++)
    iv_json_writer_string (w, iv_trace_string (t, g_array_index (t->open_names, guint32, i)));
  iv_json_writer_end_array (w);
  /* what the file says about itself: metadata, distributedInfo, deviceProperties */
  iv_json_writer_key (w, "info");
  iv_trace_info_write_json (t->info, w);
  /* spans that did not end, in the range, by name: counted apart from by_name */
  iv_json_writer_key (w, "open_spans");
  iv_json_writer_begin_object (w);
  INT ("count", rep->open);
  iv_json_writer_key (w, "by_name");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < by_name->len; i++)
    {
      IvNameStats *s = &g_array_index (by_name, IvNameStats, i);
      if (!s->open)
        continue;
      iv_json_writer_begin_object (w);
      STR ("name", iv_trace_string (t, s->name));
      STR ("track_kind", iv_row_kind_key (s->kind));
      INT ("count", s->open);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_end_object (w);
  iv_json_writer_key (w, "process_list");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < t->processes->len; i++)
    {
      const IvProcess *p = t->processes->pdata[i];
      iv_json_writer_begin_object (w);
      STR ("pid", p->key);
      STR ("name", p->name);
      STR ("kind", p->kind == IV_PROCESS_GPU ? "gpu" : p->kind == IV_PROCESS_CPU ? "cpu" : "other");
      /* its tracks by the names the timeline shows */
      iv_json_writer_key (w, "tracks");
      iv_json_writer_begin_array (w);
      for (guint k = 0; k < t->tracks->len; k++)
        if (g_array_index (t->tracks, IvTrack, k).process == i)
          iv_json_writer_string (w, g_array_index (t->tracks, IvTrack, k).name);
      iv_json_writer_end_array (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  /* by name and the kind of row it is on: a CPU op and a GPU annotation of one name are
   * two entries; durations as recorded, clipped to the range */
  iv_json_writer_key (w, "by_name");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < by_name->len; i++)
    {
      IvNameStats *s = &g_array_index (by_name, IvNameStats, i);
      if (s->count == 0)
        continue;
      iv_json_writer_begin_object (w);
      STR ("name", iv_trace_string (t, s->name));
      STR ("track_kind", iv_row_kind_key (s->kind));
      INT ("count", s->count);
      INT ("total_ns", s->total_ns);
      INT ("self_ns", s->self_ns);
      INT ("min_ns", s->min_ns);
      INT ("max_ns", s->max_ns);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  if (gpu && gpu->streams->len)
    {
      iv_json_writer_key (w, "gpu");
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "streams");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < gpu->streams->len; i++)
        {
          IvStreamStats *st = &g_array_index (gpu->streams, IvStreamStats, i);
          const IvTrack *tr = &g_array_index (t->tracks, IvTrack, st->track);
          const IvProcess *p = t->processes->pdata[tr->process];
          iv_json_writer_begin_object (w);
          STR ("process", p->name);
          STR ("stream", tr->name);
          STR ("pid", p->key);
          STR ("tid", tr->key);
          INT ("kernels", st->kernels);
          INT ("busy_ns", st->busy_ns);
          INT ("first_ns", st->first_ns);
          INT ("last_ns", st->last_ns);
          INT ("active_ns", st->last_ns - st->first_ns);
          INT ("idle_ns", st->idle_ns);
          iv_json_writer_key (w, "idle");
          iv_json_writer_begin_object (w);
          INT ("host_wait_ns", st->idle_host_wait_ns);
          INT ("kernel_wait_ns", st->idle_kernel_wait_ns);
          INT ("other_ns", st->idle_other_ns);
          iv_json_writer_end_object (w);
          INT ("launched", st->launched);
          iv_json_writer_key (w, "kernel_ns");
          iv_json_writer_begin_object (w);
          for (int k = 0; k < IV_N_KERNEL_KINDS; k++)
            INT (kind_names[k], st->by_kind_ns[k]);
          iv_json_writer_end_object (w);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_array (w);
      iv_json_writer_key (w, "kernel_ns");
      iv_json_writer_begin_object (w);
      for (int k = 0; k < IV_N_KERNEL_KINDS; k++)
        INT (kind_names[k], gpu->by_kind_ns[k]);
      iv_json_writer_end_object (w);
      INT ("communication_overlapped_ns", gpu->comm_overlapped_ns);
      iv_json_writer_key (w, "communication_overlap_share");
      iv_json_writer_double (w, gpu->comm_overlap_share);
      /* the busy time split by what the model calls its stages (sums to busy_ns) */
      INT ("busy_ns", rep->busy_ns);
      iv_json_writer_key (w, "classes");
      iv_json_writer_begin_object (w);
      for (int k = 0; k < IV_N_KCLASSES; k++)
        {
          iv_json_writer_key (w, iv_kernel_class_name (k));
          iv_json_writer_begin_object (w);
          INT ("ns", rep->class_ns[k]);
          INT ("slices", rep->class_slices[k]);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_object (w);
      iv_json_writer_end_object (w);
    }
  {
    /* the iterations, each with the GPU's time in it (the whole trace's, whatever range) */
    g_autoptr (GArray) steps = iv_trace_step_stats (t);
    if (steps->len)
      {
        iv_json_writer_key (w, "steps");
        iv_json_writer_begin_array (w);
        for (guint i = 0; i < steps->len; i++)
          {
            const IvStepStats *st = &g_array_index (steps, IvStepStats, i);
            iv_json_writer_begin_object (w);
            INT ("step", st->step);
            INT ("start_ns", st->t0_ns);
            INT ("dur_ns", st->t1_ns - st->t0_ns);
            INT ("gpu_busy_ns", st->busy_ns);
            INT ("gpu_work", st->kernels);
            iv_json_writer_key (w, "busy_by_class_ns");
            iv_json_writer_begin_object (w);
            for (int k = 0; k < IV_N_KCLASSES; k++)
              INT (iv_kernel_class_name (k), st->class_ns[k]);
            iv_json_writer_end_object (w);
            iv_json_writer_end_object (w);
          }
        iv_json_writer_end_array (w);
      }
  }
  if (copies && copies->len)
    {
      /* HTA's memory bandwidth by copy type, bytes from each copy's arguments */
      iv_json_writer_key (w, "memory_copies");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < copies->len; i++)
        {
          const IvMemcpyStats *m = &g_array_index (copies, IvMemcpyStats, i);
          iv_json_writer_begin_object (w);
          STR ("type", m->type);
          INT ("count", m->count);
          INT ("with_bytes", m->with_bytes);
          iv_json_writer_key (w, "bytes");
          iv_json_writer_double (w, m->bytes);
          INT ("time_ns", m->time_ns);
          iv_json_writer_key (w, "mean_gbps");
          iv_json_writer_double (w, m->mean_gbps);
          iv_json_writer_key (w, "max_gbps");
          iv_json_writer_double (w, m->max_gbps);
          iv_json_writer_key (w, "effective_gbps");
          iv_json_writer_double (w, m->effective_gbps);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_array (w);
    }
  if (rep->memory && rep->memory->len)
    {
      /* each [memory] curve's peak in the range (the Analyses page shows the same) */
      iv_json_writer_key (w, "memory");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < rep->memory->len; i++)
        {
          const IvMemoryPeak *m = &g_array_index (rep->memory, IvMemoryPeak, i);
          const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, m->series);
          iv_json_writer_begin_object (w);
          STR ("name", iv_trace_string (t, cs->name));
          BOOL ("since_start", cs->cumulative);
          iv_json_writer_key (w, "peak_bytes");
          iv_json_writer_double (w, m->peak);
          INT ("peak_ns", m->peak_ns);
          INT ("samples", m->samples);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_array (w);
    }
  if (rep->launch && rep->launch->launches->len)
    {
      iv_json_writer_key (w, "launches");
      iv_launch_stats_write_json (t, rep->launch, w);
    }
  if (t->format == IV_TRACE_PIPELINED)
    {
      iv_json_writer_key (w, "candidates");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < t->candidates->len; i++)
        {
          IvCandidate *c = &g_array_index (t->candidates, IvCandidate, i);
          iv_json_writer_begin_object (w);
          INT ("candidate", c->id);
          INT ("buffer", c->buffer);
          INT ("io_ns", c->io_start_ns >= 0 ? c->io_end_ns - c->io_start_ns : 0);
          INT ("io_hidden_ns", c->io_hidden_ns);
          INT ("io_exposed_ns", c->io_exposed_ns);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_array (w);
    }
  if (against)
    {
      iv_json_writer_key (w, "against");
      against_json (w, rep, against, n_steps);
    }
  iv_json_writer_end_object (w);
#undef INT
#undef STR
#undef BOOL
  return iv_json_writer_finish (w);
}

static void
stats_text (const IvTrace *t, const IvTraceReport *rep, const GArray *copies)
{
  g_autofree char *span = iv_units_format_seconds ((t->t1_ns - t->t0_ns) * 1e-9);
  GArray *by_name = rep->by_name;
  IvGpuStats *gpu = rep->gpu;
  guint64 open = rep->open;
  guint rows = 0;

  _iv_cli_printf (stdout,
                  "%s: %s, %" G_GSIZE_FORMAT " slices (%" G_GSIZE_FORMAT " async), %u instants, "
                  "%u counter series, %u flows, %u processes, %u tracks, depth %u, %s\n",
                  t->path, t->format == IV_TRACE_PIPELINED ? "pipelined timeline" : "Chrome trace",
                  t->n_slices - t->n_async_slices, t->n_async_slices, t->instants->len,
                  t->series->len, t->flows->len, t->processes->len, t->tracks->len, t->max_depth,
                  span);
  for (guint i = 0; i < t->warnings->len; i++)
    _iv_cli_printf (stdout, "warning: %s\n", (char *) t->warnings->pdata[i]);
  {
    g_auto (GStrv) lines = iv_trace_info_lines (t->info);
    for (guint i = 0; lines[i]; i++)
      {
        g_autofree char *shown = iv_text_printable (lines[i]);
        _iv_cli_printf (stdout, "%s\n", shown);
      }
  }
  if (rep->scoped)
    {
      g_autofree char *from = iv_units_format_seconds ((rep->t0_ns - t->t0_ns) * 1e-9);
      g_autofree char *to
          = iv_units_format_seconds ((MIN (rep->t1_ns, t->t1_ns) - t->t0_ns) * 1e-9);
      _iv_cli_printf (stdout,
                      "\nFrom %s to %s of the trace: slices in the range, their durations cut "
                      "to it\n",
                      from, to);
    }
  _iv_cli_printf (stdout, "\n%-48s %-10s %8s %12s %12s\n", "name", "kind", "count", "total",
                  "self");
  for (guint i = 0; i < by_name->len && rows < 25; i++)
    {
      IvNameStats *s = &g_array_index (by_name, IvNameStats, i);
      g_autofree char *tot = NULL, *self = NULL, *shown_name = NULL, *name = NULL;
      if (s->count == 0)
        continue;
      rows++;
      tot = iv_units_format_seconds (s->total_ns * 1e-9);
      self = iv_units_format_seconds (s->self_ns * 1e-9);
      /* escaped first, so the 48 characters are the ones the terminal shows */
      shown_name = iv_text_printable (iv_trace_string (t, s->name));
      name = g_utf8_substring (shown_name, 0, MIN (g_utf8_strlen (shown_name, -1), 48));
      _iv_cli_printf (stdout, "%-48s %-10s %8" G_GUINT64_FORMAT " %12s %12s\n", name,
                      kind_label (s->kind), s->count, tot, self);
    }
  {
    guint with_count = 0;
    for (guint i = 0; i < by_name->len; i++)
      with_count += g_array_index (by_name, IvNameStats, i).count > 0;
    if (with_count > rows)
      _iv_cli_printf (stdout, "… and %u more names (--json lists all)\n", with_count - rows);
  }
  if (open)
    {
      /* what did not end is said apart: its "duration" is only when the trace stopped */
      GString *names = g_string_new (NULL);
      guint n = 0;
      for (guint i = 0; i < by_name->len; i++)
        {
          IvNameStats *s = &g_array_index (by_name, IvNameStats, i);
          g_autofree char *nm = NULL;
          if (!s->open)
            continue;
          if (n++ == 8)
            {
              g_string_append (names, ", …");
              break;
            }
          nm = iv_text_printable (iv_trace_string (t, s->name));
          g_string_append_printf (names, "%s%s (%" G_GUINT64_FORMAT ")", n > 1 ? ", " : "", nm,
                                  s->open);
        }
      _iv_cli_printf (stdout, "\nDid not end: %" G_GUINT64_FORMAT " span%s, %s — %s\n", open,
                      open == 1 ? "" : "s",
                      rep->flags & IV_STATS_INCLUDE_OPEN
                          ? "counted above up to the end of the trace (--include-open)"
                          : "not in the totals above (--include-open counts them)",
                      names->str);
      g_string_free (names, TRUE);
    }
  if (gpu && gpu->streams->len)
    {
      _iv_cli_printf (stdout, "\nGPU streams (idle: gaps between a stream's first and last "
                              "kernel; host wait / kernel wait / other as HTA splits them)\n");
      for (guint i = 0; i < gpu->streams->len; i++)
        {
          IvStreamStats *st = &g_array_index (gpu->streams, IvStreamStats, i);
          const IvTrack *tr = &g_array_index (t->tracks, IvTrack, st->track);
          g_autofree char *busy = iv_units_format_seconds (st->busy_ns * 1e-9);
          g_autofree char *idle = iv_units_format_seconds (st->idle_ns * 1e-9);
          g_autofree char *host = iv_units_format_seconds (st->idle_host_wait_ns * 1e-9);
          g_autofree char *kern = iv_units_format_seconds (st->idle_kernel_wait_ns * 1e-9);
          g_autofree char *other = iv_units_format_seconds (st->idle_other_ns * 1e-9);
          g_autofree char *pname
              = iv_text_printable (((IvProcess *) t->processes->pdata[tr->process])->name);
          g_autofree char *sname = iv_text_printable (tr->name);
          _iv_cli_printf (stdout,
                          "  %-10s %-12s %" G_GUINT64_FORMAT " kernels, busy %s, idle %s "
                          "(host wait %s, kernel wait %s, other %s)\n",
                          pname, sname, st->kernels, busy, idle, host, kern, other);
        }
      for (int k = 0; k < IV_N_KERNEL_KINDS; k++)
        {
          g_autofree char *v = iv_units_format_seconds (gpu->by_kind_ns[k] * 1e-9);
          _iv_cli_printf (stdout, "  %-14s %s\n", kind_names[k], v);
        }
      _iv_cli_printf (stdout, "  communication under compute: %.1f %%\n",
                      100 * gpu->comm_overlap_share);
      {
        g_autofree char *b = iv_units_format_seconds (rep->busy_ns * 1e-9);
        _iv_cli_printf (
            stdout, "\nGPU busy %s, by what the model calls it (each busy instant counted once)\n",
            b);
        for (int k = 0; k < IV_N_KCLASSES; k++)
          {
            g_autofree char *v = iv_units_format_seconds (rep->class_ns[k] * 1e-9);
            _iv_cli_printf (stdout, "  %-12s %-10s %5.1f %%  %" G_GUINT64_FORMAT " slices\n",
                            iv_kernel_class_name (k), v,
                            rep->busy_ns > 0 ? 100.0 * rep->class_ns[k] / rep->busy_ns : 0,
                            rep->class_slices[k]);
          }
      }
    }
  {
    g_autoptr (GArray) steps = iv_trace_step_stats (t);
    if (steps->len)
      {
        _iv_cli_printf (stdout, "\n");
        _iv_cli_printf (stdout, "Iterations (ProfilerStep; --step N scopes --stats to one)\n");
        _iv_cli_printf (stdout, "  %-10s %12s %12s %7s %10s %10s %10s %10s\n", "step", "time",
                        "GPU busy", "busy", "gemm", "attention", "collective", "other");
        for (guint i = 0; i < steps->len && i < 50; i++)
          {
            const IvStepStats *st = &g_array_index (steps, IvStepStats, i);
            gint64 dur = st->t1_ns - st->t0_ns;
            g_autofree char *d = iv_units_format_seconds (dur * 1e-9);
            g_autofree char *b = iv_units_format_seconds (st->busy_ns * 1e-9);
            g_autofree char *c0 = iv_units_format_seconds (st->class_ns[0] * 1e-9);
            g_autofree char *c1 = iv_units_format_seconds (st->class_ns[1] * 1e-9);
            g_autofree char *c2 = iv_units_format_seconds (st->class_ns[2] * 1e-9);
            g_autofree char *c3 = iv_units_format_seconds (st->class_ns[3] * 1e-9);
            _iv_cli_printf (
                stdout, "  #%-9" G_GINT64_FORMAT " %12s %12s %6.1f%% %10s %10s %10s %10s\n",
                st->step, d, b, dur > 0 ? 100.0 * st->busy_ns / dur : 0, c0, c1, c2, c3);
          }
        if (steps->len > 50)
          _iv_cli_printf (stdout, "  … %u steps in all (--json lists every one)\n", steps->len);
      }
  }
  if (copies && copies->len)
    {
      _iv_cli_printf (stdout, "\n");
      _iv_cli_printf (stdout, "Memory copies and sets (bytes and GB/s from their arguments, as "
                              "HTA's memory bandwidth)\n");
      for (guint i = 0; i < copies->len; i++)
        {
          const IvMemcpyStats *m = &g_array_index (copies, IvMemcpyStats, i);
          g_autofree char *bytes = iv_units_format_bytes (m->bytes);
          g_autofree char *time = iv_units_format_seconds (m->time_ns * 1e-9);
          _iv_cli_printf (stdout,
                          "  %-15s %7" G_GUINT64_FORMAT " × %10s in %-10s  %.1f GB/s overall, "
                          "mean %.1f, max %.1f GB/s\n",
                          m->type, m->count, bytes, time, m->effective_gbps, m->mean_gbps,
                          m->max_gbps);
        }
    }
  if (rep->memory && rep->memory->len)
    {
      _iv_cli_printf (stdout, "\n");
      _iv_cli_printf (stdout, "Memory (the allocator's [memory] events as a curve per device)\n");
      for (guint i = 0; i < rep->memory->len; i++)
        {
          const IvMemoryPeak *m = &g_array_index (rep->memory, IvMemoryPeak, i);
          const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, m->series);
          g_autofree char *name = iv_text_printable (iv_trace_string (t, cs->name));
          g_autofree char *peak = iv_units_format_bytes (m->peak);
          g_autofree char *at = iv_units_format_seconds ((m->peak_ns - t->t0_ns) * 1e-9);
          _iv_cli_printf (stdout, "  %-34s peak %-10s at %s (%" G_GUINT64_FORMAT " samples)\n",
                          name, peak, at, m->samples);
        }
    }
  if (rep->launch && rep->launch->launches->len)
    {
      const IvLaunchStats *ls = rep->launch;
      const IvLaunchSummary *sm[] = { &ls->cpu, &ls->gpu, &ls->delay };
      const char *what[] = { "runtime call", "GPU work", "launch delay" };
      _iv_cli_printf (stdout, "\n");
      _iv_cli_printf (stdout,
                      "Launches (HTA's kernel launch statistics): %u runtime calls tied to "
                      "their GPU work\n",
                      ls->launches->len);
      for (guint k = 0; k < G_N_ELEMENTS (sm); k++)
        {
          g_autofree char *mean = iv_units_format_seconds (sm[k]->mean_ns * 1e-9);
          g_autofree char *p50 = iv_units_format_seconds (sm[k]->p50_ns * 1e-9);
          g_autofree char *p95 = iv_units_format_seconds (sm[k]->p95_ns * 1e-9);
          g_autofree char *max = iv_units_format_seconds (sm[k]->max_ns * 1e-9);
          _iv_cli_printf (stdout, "  %-13s mean %-10s median %-10s p95 %-10s max %s\n", what[k],
                          mean, p50, p95, max);
        }
      _iv_cli_printf (stdout,
                      "  outliers: %" G_GUINT64_FORMAT " calls over 50 µs, %" G_GUINT64_FORMAT
                      " delays over 100 µs, %" G_GUINT64_FORMAT
                      " short kernels (shorter than their call)\n",
                      ls->runtime_outliers, ls->delay_outliers, ls->short_kernels);
      for (guint i = 0; i < ls->queues->len; i++)
        {
          const IvQueueStats *q = &g_array_index (ls->queues, IvQueueStats, i);
          const IvTrack *tr = &g_array_index (t->tracks, IvTrack, q->track);
          g_autofree char *pname
              = iv_text_printable (((IvProcess *) t->processes->pdata[tr->process])->name);
          g_autofree char *sname = iv_text_printable (tr->name);
          _iv_cli_printf (stdout,
                          "  queue %-10s %-12s longest %" G_GINT64_FORMAT
                          ", mean %.2f over time (%.2f at its changes)\n",
                          pname, sname, q->max, q->time_weighted, q->mean_at_changes);
        }
    }
  if (t->format == IV_TRACE_PIPELINED)
    for (guint i = 0; i < t->candidates->len; i++)
      {
        IvCandidate *c = &g_array_index (t->candidates, IvCandidate, i);
        g_autofree char *hid = iv_units_format_seconds (c->io_hidden_ns * 1e-9);
        g_autofree char *exp = iv_units_format_seconds (c->io_exposed_ns * 1e-9);
        _iv_cli_printf (stdout, "candidate %" G_GINT64_FORMAT ": I/O hidden %s, exposed %s\n",
                        c->id, hid, exp);
      }
}

/* Whole candidate numbers: "3", not "3.5" or "3k". */
static gboolean
candidate_number (const char *option, const char *text, gboolean positive, gint64 *out)
{
  guint64 v;
  g_autoptr (GError) error = NULL;

  if (!text)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, positive ? 1 : 0, G_MAXINT32, &v, &error))
    {
      /* digits past the limit are a whole number, too large — not "not a whole number" */
      if (g_error_matches (error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS)
          && text[0] != '-' && strspn (text, "0") < strlen (text))
        _iv_cli_printf (stderr, "inferview trace: --%s: “%s” is too large (the limit is %d)\n",
                        option, text, G_MAXINT32);
      else
        _iv_cli_printf (stderr, "inferview trace: --%s: “%s” is not a %s whole number\n", option,
                        text, positive ? "positive" : "non-negative");
      return FALSE;
    }
  *out = (gint64) v;
  return TRUE;
}

/* The pipelined options, checked, and the plot (and breakdown) they ask for. */
typedef struct
{
  const char *start_cand, *num_cand, *breakdown_path, *min_pct;
  IvPipelinePlot *plot;
  IvBreakdown *breakdown;
} PipelineArgs;

static int
load_pipeline (IvTrace *trace, PipelineArgs *a)
{
  g_autoptr (GError) error = NULL;
  gint64 first = -1, n = 0;
  double min_pct = 0;

  /* --num-candidates and --min-runtime-pct are the reference script's options: taken and
   * checked, but its rules fix the window (x−1…x+5) and always show the three merged
   * breakdown families, so neither changes the figure */
  if (!candidate_number ("start-candidate", a->start_cand, FALSE, &first)
      || !candidate_number ("num-candidates", a->num_cand, TRUE, &n)
      || !_iv_cli_number ("trace", "min-runtime-pct", a->min_pct, TRUE, &min_pct))
    return IV_EXIT_USAGE;
  if (min_pct > 100)
    return _iv_cli_usage_error ("trace", "%s", _ ("--min-runtime-pct is a percentage, 0 to 100"));
  if (!iv_pipeline_plot_supported (trace))
    {
      _iv_cli_printf (
          stderr, "inferview trace: %s: %s\n", trace->path,
          _ ("not a pipelined timeline (no pipelined_timeline format and no Candidate_Eval_0 "
             "slice)"));
      return IV_EXIT_BAD_INPUT;
    }
  a->plot = iv_pipeline_plot_new (trace, first, &error);
  if (a->plot && a->breakdown_path)
    a->breakdown = iv_breakdown_load (a->breakdown_path, &error);
  if (!a->plot || (a->breakdown_path && !a->breakdown))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}

static void
pipeline_args_clear (PipelineArgs *a)
{
  g_clear_pointer (&a->plot, iv_pipeline_plot_free);
  g_clear_pointer (&a->breakdown, iv_breakdown_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PipelineArgs, pipeline_args_clear)

static void
json_ms (IvJsonWriter *w, const char *key, gint64 ns)
{
  iv_json_writer_key (w, key);
  iv_json_writer_double (w, (double) ns / 1e6);
}

/* --pipeline-json: the window, every drawn bar and the breakdown's segments, in the
 * file's milliseconds — the figure's content, checkable without pixels. */
static int
print_pipeline_json (const IvPipelinePlot *p, const IvBreakdown *bd)
{
  IvJsonWriter *w = iv_json_writer_new (TRUE);
  g_autofree char *text = NULL;

  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "format");
  iv_json_writer_string (w, p->legacy ? "pytorch" : "manual");
  iv_json_writer_key (w, "start_candidate");
  iv_json_writer_int (w, p->first_candidate);
  iv_json_writer_key (w, "window");
  iv_json_writer_begin_object (w);
  json_ms (w, "start_ms", p->t0_ns);
  json_ms (w, "end_ms", p->t1_ns);
  iv_json_writer_end_object (w);
  iv_json_writer_key (w, "lanes");
  iv_json_writer_begin_array (w);
  for (guint l = 0; l < IV_N_LANES; l++)
    if (p->has_lane[l])
      iv_json_writer_string (w, iv_lane_key (l));
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "bars");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      g_autofree char *label
          = b->labelled ? g_strdup_printf ("%" G_GINT64_FORMAT, b->candidate) : NULL;
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "lane");
      iv_json_writer_string (w, iv_lane_key (b->lane));
      iv_json_writer_key (w, "name");
      iv_json_writer_string (w, b->name);
      iv_json_writer_key (w, "candidate");
      if (b->candidate >= 0)
        iv_json_writer_int (w, b->candidate);
      else
        iv_json_writer_null (w);
      json_ms (w, "start_ms", b->start_ns);
      json_ms (w, "end_ms", b->end_ns);
      iv_json_writer_key (w, "cut_left");
      iv_json_writer_bool (w, b->cut_left);
      iv_json_writer_key (w, "cut_right");
      iv_json_writer_bool (w, b->cut_right);
      iv_json_writer_key (w, "label");
      if (label)
        iv_json_writer_string (w, label);
      else
        iv_json_writer_null (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "legend");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < p->legend->len; i++)
    iv_json_writer_string (w, g_array_index (p->legend, IvPipelineKey, i).label);
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "breakdown");
  if (!bd)
    iv_json_writer_null (w);
  else
    {
      g_autoptr (GArray) segs = iv_breakdown_segments (bd);
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "candidate");
      iv_json_writer_int (w, bd->candidate);
      iv_json_writer_key (w, "segments");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < segs->len; i++)
        {
          const IvBreakdownSegment *sg = &g_array_index (segs, IvBreakdownSegment, i);
          iv_json_writer_begin_object (w);
          iv_json_writer_key (w, "family");
          iv_json_writer_string (w, sg->family);
          iv_json_writer_key (w, "label");
          iv_json_writer_string (w, sg->label);
          iv_json_writer_key (w, "percent");
          iv_json_writer_double (w, sg->pct);
          iv_json_writer_key (w, "width_percent");
          iv_json_writer_double (w, sg->width);
          iv_json_writer_end_object (w);
        }
      iv_json_writer_end_array (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_object (w);
  text = iv_json_writer_finish (w);
  printf ("%s\n", text);
  return IV_EXIT_OK;
}

static int
export_pipelined (IvTrace *trace, const char *output, PipelineArgs *a, gboolean ranged,
                  const IvCliFigureArgs *fig_args)
{
  g_autoptr (GError) error = NULL;
  IvPipelinedFigure fig = { trace, NULL, NULL, G_MAXUINT };
  IvFigure figure = { iv_render_pipelined, &fig, "pipeline", NULL };
  IvExportOptions eo;
  int rc;

  iv_export_options_init (&eo);
  /* the reference's 10-inch figure, about 3.2 inches high */
  eo.width = 1440, eo.height = 460, eo.dpi = 96;
  if (_iv_cli_output_is_folder ("trace", output))
    return IV_EXIT_BAD_INPUT;
  if (ranged)
    return _iv_cli_usage_error ("trace", "%s",
                                _ ("a pipelined figure is windowed by --start-candidate, "
                                   "not --from and --to"));
  if ((rc = _iv_cli_figure_options ("trace", output, fig_args, &eo)) != IV_EXIT_OK)
    return rc;
  if (!a->plot && (rc = load_pipeline (trace, a)) != IV_EXIT_OK)
    return rc;
  fig.plot = a->plot;
  fig.breakdown = a->breakdown;
  if (!iv_export_to_file (&figure, &eo, output, &error))
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  return IV_EXIT_OK;
}

/* Whether an item of @items names a process or track: its key (pid, tid) exactly, or part
 * of its name, case-folded. */
static gboolean
list_names (char **items, const char *key, const char *name)
{
  g_autofree char *folded = g_utf8_casefold (name ? name : "", -1);

  for (guint i = 0; items[i]; i++)
    {
      g_autofree char *item = g_utf8_casefold (g_strstrip (items[i]), -1);
      if (*item && (g_str_equal (item, key) || strstr (folded, item)))
        return TRUE;
    }
  return FALSE;
}

/* A process's or a track's key and name, and whether it counts as something drawn (a
 * track without slices or counters does not). */
typedef gboolean (*ItemNames) (const IvTrace *t, guint i, const char **key, const char **name);

static gboolean
process_names (const IvTrace *t, guint i, const char **key, const char **name)
{
  const IvProcess *pr = t->processes->pdata[i];
  *key = pr->key, *name = pr->name;
  return TRUE;
}

static gboolean
track_names (const IvTrace *t, guint i, const char **key, const char **name)
{
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
  *key = tr->key, *name = tr->name ? tr->name : tr->key;
  return tr->n_rows || tr->n_series;
}

/* --processes (@names process_names) or --threads (track_names): which of the @n items to
 * leave out, those no entry of @list names (a pid or tid, or part of the name,
 * case-folded); NULL after a usage error when nothing drawn is left. */
static GByteArray *
hidden_items (const IvTrace *t, const char *list, guint n, ItemNames names)
{
  g_auto (GStrv) items = g_strsplit (list, ",", -1);
  GByteArray *hidden = g_byte_array_sized_new (n);
  guint shown = 0;

  g_byte_array_set_size (hidden, n);
  for (guint i = 0; i < n; i++)
    {
      const char *key, *name;
      gboolean counts = names (t, i, &key, &name);
      gboolean keep = list_names (items, key, name);
      hidden->data[i] = !keep;
      shown += keep && counts;
    }
  if (shown)
    return hidden;
  g_byte_array_unref (hidden);
  if (names == process_names)
    _iv_cli_usage_error ("trace", _ ("--processes “%s” names none of the trace's %u processes"),
                         list, n);
  else
    _iv_cli_usage_error ("trace", _ ("--threads “%s” names none of the trace's %u tracks"), list,
                         n);
  return NULL;
}

/* Measured GPU time by class beside the model's step: per step (the range's time over
 * --steps) and as shares, so a trace of many steps reads against one. */
static void
print_against_text (const IvTraceReport *rep, const IvResult *r, double n_steps)
{
  const gint64 *by_class = rep->class_ns, busy = rep->busy_ns;
  double model[4], model_total = 0;
  g_autofree char *config = iv_result_config_text (r);

  iv_result_class_times (r, model);
  for (int k = 0; k < 4; k++)
    model_total += model[k];
  _iv_cli_printf (stdout,
                  "\nAgainst the model: %s on %s · %s · per step (the trace over %g step%s)\n",
                  r->model->name, r->hw->name, config, n_steps, n_steps == 1 ? "" : "s");
  _iv_cli_printf (stdout, "  %-12s %12s %8s %12s %8s %8s\n", "class", "measured", "share", "model",
                  "share", "ratio");
  for (int k = 0; k < IV_N_KCLASSES; k++)
    {
      g_autofree char *mt = iv_units_format_seconds (by_class[k] * 1e-9 / n_steps);
      g_autofree char *mo = iv_units_format_seconds (model[k]);
      /* no ratio to a class the model gives no time: a dash, not "nan" */
      g_autofree char *ratio
          = model[k] > 0 ? g_strdup_printf ("%.2f", by_class[k] * 1e-9 / n_steps / model[k])
                         : g_strdup ("—");
      _iv_cli_printf (stdout, "  %-12s %12s %7.1f%% %12s %7.1f%% %8s\n", iv_kernel_class_name (k),
                      mt, busy > 0 ? 100.0 * by_class[k] / busy : 0, mo,
                      model_total > 0 ? 100 * model[k] / model_total : 0, ratio);
    }
  _iv_cli_printf (
      stdout,
      "  the model's step is a bound at %s's datasheet speed: a ratio is how many times longer "
      "the trace took\n",
      r->hw->name);
}

static void
against_json (IvJsonWriter *w, const IvTraceReport *rep, const IvResult *r, double n_steps)
{
  const gint64 *by_class = rep->class_ns;
  double model[4];

  iv_result_class_times (r, model);
  iv_json_writer_begin_object (w);
  iv_json_writer_key (w, "model");
  iv_json_writer_string (w, r->model->name);
  iv_json_writer_key (w, "hardware");
  iv_json_writer_string (w, r->hw->name);
  iv_json_writer_key (w, "steps");
  iv_json_writer_double (w, n_steps);
  iv_json_writer_key (w, "classes");
  iv_json_writer_begin_object (w);
  for (int k = 0; k < IV_N_KCLASSES; k++)
    {
      iv_json_writer_key (w, iv_kernel_class_name (k));
      iv_json_writer_begin_object (w);
      iv_json_writer_key (w, "measured_s_per_step");
      iv_json_writer_double (w, by_class[k] * 1e-9 / n_steps);
      iv_json_writer_key (w, "model_s");
      iv_json_writer_double (w, model[k]);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_object (w);
  iv_json_writer_end_object (w);
}

/* ---------- a distributed job: several rank traces, or a folder of them ---------- */

static double
pct (gint64 part, gint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0;
}

/* The `ranks` section of --stats --json for a job: per rank HTA's temporal breakdown,
 * kernel types and communication under computation, the report's kernel classes, the
 * clock offsets applied and the straggler totals; then every collective instance. */
static char *
ranks_json (const IvTraceRanks *job)
{
  IvJsonWriter *w = iv_json_writer_new (TRUE);

#define INT(k, v) (iv_json_writer_key (w, k), iv_json_writer_int (w, v))
#define STR(k, v) (iv_json_writer_key (w, k), iv_json_writer_string (w, v))
#define DBL(k, v) (iv_json_writer_key (w, k), iv_json_writer_double (w, v))
#define BOOL(k, v) (iv_json_writer_key (w, k), iv_json_writer_bool (w, v))
  iv_json_writer_begin_object (w);
  STR ("format", "distributed-trace");
  INT ("rank_count", job->ranks->len);
  INT ("world_size", job->world_size);
  iv_json_writer_key (w, "backend");
  if (job->backend)
    iv_json_writer_string (w, job->backend);
  else
    iv_json_writer_null (w);
  STR ("clock", job->clock == IV_RANKS_CLOCK_WALL ? "wall" : "own");
  BOOL ("aligned", job->aligned);
  BOOL ("stragglers_measured", job->stragglers);
  INT ("start_ns", job->t0_ns);
  INT ("end_ns", job->t1_ns);
  iv_json_writer_key (w, "warnings");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < job->warnings->len; i++)
    iv_json_writer_string (w, job->warnings->pdata[i]);
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "ranks");
  iv_json_writer_begin_array (w);
  for (guint i = 0; i < job->ranks->len; i++)
    {
      const IvRank *rk = job->ranks->pdata[i];
      const IvRankTemporal *tb = &rk->temporal;
      const IvTraceReport *rep = rk->report;
      iv_json_writer_begin_object (w);
      INT ("rank", rk->rank);
      STR ("rank_from", rk->rank_source);
      STR ("path", rk->path);
      INT ("slices", rk->trace->n_slices - rk->trace->n_async_slices);
      INT ("start_ns", rk->trace->t0_ns);
      INT ("end_ns", rk->trace->t1_ns);
      iv_json_writer_key (w, "clock");
      iv_json_writer_begin_object (w);
      BOOL ("wall", rk->has_wall);
      INT ("wall_offset_ns", rk->wall_ns);
      INT ("align_offset_ns", rk->align_ns);
      INT ("align_matched", rk->align_matched);
      INT ("offset_ns", rk->offset_ns);
      iv_json_writer_end_object (w);
      /* hta/analyzers/breakdown_analysis.py, get_temporal_breakdown */
      iv_json_writer_key (w, "temporal");
      iv_json_writer_begin_object (w);
      INT ("kernel_time_ns", tb->kernel_time_ns);
      INT ("idle_ns", tb->idle_ns);
      INT ("compute_ns", tb->compute_ns);
      INT ("non_compute_ns", tb->non_compute_ns);
      DBL ("idle_pct", pct (tb->idle_ns, tb->kernel_time_ns));
      DBL ("compute_pct", pct (tb->compute_ns, tb->kernel_time_ns));
      DBL ("non_compute_pct", pct (tb->non_compute_ns, tb->kernel_time_ns));
      iv_json_writer_end_object (w);
      /* get_gpu_kernel_breakdown's kernel types, memory included */
      iv_json_writer_key (w, "kernel_types");
      iv_json_writer_begin_object (w);
      for (guint m = 1; m < IV_HTA_N_MASKS; m++)
        {
          g_autofree char *label = iv_hta_mask_label (m);
          INT (label, rk->type_ns[m]);
        }
      iv_json_writer_end_object (w);
      iv_json_writer_key (w, "kernel_counts");
      iv_json_writer_begin_object (w);
      for (guint ty = 0; ty < IV_N_HTA_TYPES; ty++)
        INT (iv_hta_kernel_type_name (ty), rk->type_kernels[ty]);
      iv_json_writer_end_object (w);
      /* communication_analysis.py, get_comm_comp_overlap */
      iv_json_writer_key (w, "comm_comp_overlap");
      iv_json_writer_begin_object (w);
      INT ("communication_ns", rk->comm_ns);
      INT ("overlapped_ns", rk->comm_overlapped_ns);
      DBL ("pct", pct (rk->comm_overlapped_ns, rk->comm_ns));
      iv_json_writer_end_object (w);
      /* the single-trace report's classes, as `trace FILE --stats` gives them */
      INT ("gpu_busy_ns", rep->busy_ns);
      iv_json_writer_key (w, "classes");
      iv_json_writer_begin_object (w);
      for (int k = 0; k < IV_N_KCLASSES; k++)
        INT (iv_kernel_class_name (k), rep->class_ns[k]);
      iv_json_writer_end_object (w);
      iv_json_writer_key (w, "straggler");
      iv_json_writer_begin_object (w);
      INT ("collectives", rk->collectives->len);
      INT ("arrived_last", rk->last_count);
      INT ("caused_wait_ns", rk->caused_ns);
      INT ("waited_ns", rk->waited_ns);
      iv_json_writer_end_object (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_key (w, "collectives");
  iv_json_writer_begin_array (w);
  for (guint c = 0; c < job->instances->len; c++)
    {
      const IvCollectiveInstance *ci = &g_array_index (job->instances, IvCollectiveInstance, c);
      iv_json_writer_begin_object (w);
      STR ("name", job->key_names->pdata[ci->key]);
      STR ("process_group", job->key_groups->pdata[ci->key]);
      INT ("instance", ci->ordinal);
      INT ("ranks", ci->n_present);
      iv_json_writer_key (w, "last_rank");
      if (ci->n_present >= 2 && job->stragglers)
        iv_json_writer_int (w, ((IvRank *) job->ranks->pdata[ci->last])->rank);
      else
        iv_json_writer_null (w);
      /* per rank, in the order of "ranks"; null where the rank has no such instance */
      iv_json_writer_key (w, "start_ns");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < job->ranks->len; i++)
        if (ci->start_ns[i] == G_MININT64)
          iv_json_writer_null (w);
        else
          iv_json_writer_int (w, ci->start_ns[i]);
      iv_json_writer_end_array (w);
      iv_json_writer_key (w, "wait_ns");
      iv_json_writer_begin_array (w);
      for (guint i = 0; i < job->ranks->len; i++)
        if (ci->wait_ns[i] == G_MININT64)
          iv_json_writer_null (w);
        else
          iv_json_writer_int (w, ci->wait_ns[i]);
      iv_json_writer_end_array (w);
      iv_json_writer_end_object (w);
    }
  iv_json_writer_end_array (w);
  iv_json_writer_end_object (w);
#undef INT
#undef STR
#undef DBL
#undef BOOL
  return iv_json_writer_finish (w);
}

static char *
secs (gint64 ns)
{
  return iv_units_format_seconds ((double) ns * 1e-9);
}

static void
ranks_text (const IvTraceRanks *job)
{
  guint n = job->ranks->len;
  g_autofree char *span = secs (job->t1_ns - job->t0_ns);

  _iv_cli_printf (stdout, "%u rank%s of a distributed trace (world size %d%s%s), %s, %s\n", n,
                  n == 1 ? "" : "s", job->world_size, job->backend ? ", " : "",
                  job->backend ? job->backend : "",
                  job->clock == IV_RANKS_CLOCK_WALL ? "on the wall clock" : "each on its own clock",
                  span);
  for (guint i = 0; i < job->warnings->len; i++)
    {
      g_autofree char *shown = iv_text_printable (job->warnings->pdata[i]);
      _iv_cli_printf (stdout, "warning: %s\n", shown);
    }
  _iv_cli_printf (stdout, "\nPer rank, HTA's temporal breakdown (first → last GPU kernel), "
                          "communication under computation, stragglers\n");
  _iv_cli_printf (stdout, "%5s %11s %7s %9s %12s %9s %11s %5s %11s %11s  %s\n", "rank", "span",
                  "idle", "compute", "non-compute", "overlap", "collectives", "last", "caused",
                  "waited", "file");
  for (guint i = 0; i < n; i++)
    {
      const IvRank *rk = job->ranks->pdata[i];
      g_autofree char *kt = secs (rk->temporal.kernel_time_ns);
      g_autofree char *caused = secs (rk->caused_ns);
      g_autofree char *waited = secs (rk->waited_ns);
      g_autofree char *base = g_path_get_basename (rk->path);
      g_autofree char *shown = iv_text_printable (base);
      _iv_cli_printf (
          stdout,
          "%5d %11s %6.1f%% %8.1f%% %11.1f%% %8.1f%% %11u %5" G_GUINT64_FORMAT " %11s %11s  %s\n",
          rk->rank, kt, pct (rk->temporal.idle_ns, rk->temporal.kernel_time_ns),
          pct (rk->temporal.compute_ns, rk->temporal.kernel_time_ns),
          pct (rk->temporal.non_compute_ns, rk->temporal.kernel_time_ns),
          pct (rk->comm_overlapped_ns, rk->comm_ns), rk->collectives->len, rk->last_count,
          job->stragglers ? caused : "—", job->stragglers ? waited : "—", shown);
    }
  _iv_cli_printf (stdout, "\nGPU busy time by kernel class, per rank\n");
  _iv_cli_printf (stdout, "%5s", "rank");
  for (int k = 0; k < IV_N_KCLASSES; k++)
    _iv_cli_printf (stdout, " %12s", iv_kernel_class_name (k));
  _iv_cli_printf (stdout, "\n");
  for (guint i = 0; i < n; i++)
    {
      const IvRank *rk = job->ranks->pdata[i];
      _iv_cli_printf (stdout, "%5d", rk->rank);
      for (int k = 0; k < IV_N_KCLASSES; k++)
        {
          g_autofree char *v = secs (rk->report->class_ns[k]);
          _iv_cli_printf (stdout, " %12s", v);
        }
      _iv_cli_printf (stdout, "\n");
    }
  if (job->aligned)
    {
      _iv_cli_printf (stdout, "\nAligned on collectives (each rank shifted so the n-th instance "
                              "of a collective ends with the reference rank's)\n");
      for (guint i = 0; i < n; i++)
        {
          const IvRank *rk = job->ranks->pdata[i];
          g_autofree char *off = secs (rk->align_ns);
          _iv_cli_printf (stdout, "  rank %d: %s%s (%" G_GUINT64_FORMAT " instances)\n", rk->rank,
                          rk->align_ns > 0 ? "+" : "", off, rk->align_matched);
        }
    }
}

/* `trace PATH... --stats [--json] [--align] [-o FIGURE]` on several traces or a folder
 * of them. */
static int
trace_ranks (char **files, gboolean json, gboolean align_ranks, gboolean stats, const char *output,
             const IvCliFigureArgs *fig)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (IvTraceRanks) job = iv_trace_ranks_load (
      (const char *const *) files, align_ranks ? IV_RANKS_ALIGN : IV_RANKS_DEFAULT, NULL, &error);

  if (!job)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (output)
    {
      int rc = _iv_cli_ranks_figure (job, output, fig);
      if (rc != IV_EXIT_OK || !stats)
        return rc;
    }
  if (json)
    {
      g_autofree char *text = ranks_json (job);
      printf ("%s\n", text);
    }
  else
    ranks_text (job);
  return IV_EXIT_OK;
}

/* `trace A B --diff`: both loaded, then compared (iv-cli-trace-diff.c prints). */
static int
trace_diff (char **files, const char *steps, gboolean json, guint top, const char *output,
            const IvCliFigureArgs *fig)
{
  g_autoptr (IvTrace) owned_a = NULL, owned_b = NULL;
  g_autoptr (IvTraceJob) job_a = NULL, job_b = NULL;
  IvTrace **owned[2] = { &owned_a, &owned_b };
  IvTraceJob **jobp[2] = { &job_a, &job_b };
  const IvTrace *tr[2] = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  IvExportOptions eo;
  int rc;

  /* the figure's options refused before either trace is read */
  iv_export_options_init (&eo);
  eo.width = 1000, eo.height = 620;
  if (output && (rc = _iv_cli_figure_options ("trace", output, fig, &eo)) != IV_EXIT_OK)
    return rc;

  /* a folder is a distributed job: its ranks joined into one trace on the job's clock */
  for (int i = 0; i < 2; i++)
    {
      IvTrace *t = NULL;
      if (g_file_test (files[i], G_FILE_TEST_IS_DIR))
        {
          const char *paths[] = { files[i], NULL };
          if ((*jobp[i] = iv_trace_job_load (paths, NULL, NULL, NULL, &error)))
            t = (*jobp[i])->trace;
        }
      else if ((*owned[i] = iv_trace_load (files[i], NULL, NULL, NULL, &error)))
        t = *owned[i];
      if (!t)
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      tr[i] = t;
    }
  return _iv_cli_trace_diff (tr[0], tr[1], (const char *const *) files,
                             (gboolean[2]){ job_a != NULL, job_b != NULL }, steps, json, top,
                             output, &eo);
}

int
_iv_cli_trace (int argc, char **argv)
{
  gboolean stats = FALSE, json = FALSE, include_open = FALSE;
  g_auto (GStrv) files = NULL;
  g_autofree char *output = NULL, *from = NULL, *to = NULL, *color_by = NULL;
  g_auto (IvCliFigureArgs) fig = { NULL };
  g_autofree char *start_cand = NULL, *num_cand = NULL, *breakdown = NULL, *min_pct = NULL;
  g_autofree char *tolerance = NULL, *processes = NULL, *threads = NULL;
  gboolean pipeline_json = FALSE, flows = FALSE, align_ranks = FALSE, diff = FALSE;
  g_autofree char *diff_step = NULL, *top_text = NULL;
  static const IvCliBoundSpec bound_spec = { "trace", "against", "against", TRUE };
  g_auto (IvCliBound) bound = { NULL };
  g_autofree char *mode = NULL, *batch = NULL, *tq = NULL, *context = NULL, *steps = NULL;
  GOptionEntry entries[] = {
    /* the model: --against PRESET, read as --model is elsewhere */
    { "against", 0, 0, G_OPTION_ARG_STRING, &bound.model,
      N_ ("With --stats: the model preset whose step the GPU time by kernel class is set beside"),
      "PRESET" },
    IV_CLI_BOUND_HARDWARE_ENTRY (&bound, N_ ("With --against: the hardware preset (e.g. h100x8)")),
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode,
      N_ ("With --against: prefill or decode (default decode)"), "MODE" },
    { "batch", 0, 0, G_OPTION_ARG_STRING, &batch, N_ ("With --against: sequences B (default 1)"),
      "B" },
    { "tq", 0, 0, G_OPTION_ARG_STRING, &tq,
      N_ ("With --against: new tokens per sequence (default 1)"), "T" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &context,
      N_ ("With --against: tokens already cached (default 0)"), "P" },
    IV_CLI_BOUND_TP_ENTRY (&bound, N_ ("With --against: TP over the GPUs (default 1)")),
    { "steps", 0, 0, G_OPTION_ARG_STRING, &steps,
      N_ ("With --against: the steps the trace holds (default 1)"), "N" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats,
      N_ ("Print what the trace holds and its time by name"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print JSON"), NULL },
    { "diff", 0, 0, G_OPTION_ARG_NONE, &diff,
      N_ ("Compare two traces: count and time per name (CPU operators by call path), the "
          "largest changes first"),
      NULL },
    { "step", 0, 0, G_OPTION_ARG_STRING, &diff_step,
      N_ ("With --stats: only ProfilerStep N; with --diff: step N of both, or N:M (step N of "
          "the first, M of the second)"),
      "N" },
    { "top", 0, 0, G_OPTION_ARG_STRING, &top_text,
      N_ ("With --diff: the changes listed (default 40, 0 for all)"), "N" },
    { "align", 0, 0, G_OPTION_ARG_NONE, &align_ranks,
      N_ ("Several rank traces: shift each rank so the n-th instance of a collective ends "
          "together on every rank, and report the offsets"),
      NULL },
    { "include-open", 0, 0, G_OPTION_ARG_NONE, &include_open,
      N_ ("With --stats: count spans that did not end as if they ended with the trace"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("Draw the timeline to FILE (.png, .pdf or .svg)"), "FILE" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from,
      N_ ("Start of the range (figure and --stats), in ms from the trace's start"), "MS" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_ ("End of the range, in ms from the trace's start"),
      "MS" },
    IV_CLI_FIGURE_ENTRIES (&fig),
    { "theme", 0, 0, G_OPTION_ARG_STRING, &fig.theme, N_ ("light, dark or print"), "THEME" },
    { "color-by", 0, 0, G_OPTION_ARG_STRING, &color_by, N_ ("Colour slices by name or category"),
      "name|category" },
    { "processes", 0, 0, G_OPTION_ARG_STRING, &processes,
      N_ ("Draw only these processes: comma-separated pids or parts of their names"), "LIST" },
    { "threads", 0, 0, G_OPTION_ARG_STRING, &threads,
      N_ ("Draw only these threads (and other tracks): comma-separated tids or parts of their "
          "names"),
      "LIST" },
    { "flows", 0, 0, G_OPTION_ARG_NONE, &flows, N_ ("Draw every flow as an arrow"), NULL },
    { "start-candidate", 0, 0, G_OPTION_ARG_STRING, &start_cand,
      N_ ("Pipelined timelines: the first candidate shown (default: the file's choice)"), "N" },
    { "num-candidates", 0, 0, G_OPTION_ARG_STRING, &num_cand,
      N_ ("Pipelined timelines: taken as the reference script takes it; its rules fix the window"),
      "N" },
    { "breakdown", 0, 0, G_OPTION_ARG_FILENAME, &breakdown,
      N_ ("Pipelined timelines: a candidate_breakdown_v1 file drawn as a stacked bar"), "FILE" },
    { "min-runtime-pct", 0, 0, G_OPTION_ARG_STRING, &min_pct,
      N_ ("Taken as the reference script takes it; the three merged families always show"), "P" },
    { "pipeline-json", 0, 0, G_OPTION_ARG_NONE, &pipeline_json,
      N_ ("Pipelined timelines: print the figure's window, bars and breakdown as JSON"), NULL },
    { "overlap-tolerance", 0, 0, G_OPTION_ARG_STRING, &tolerance,
      N_ ("A slice ending at most US microseconds after the slice it starts in is drawn as its "
          "child, its duration kept (profiler rounding; default 1)"),
      "US" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_ ("FILE") },
    { NULL },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvTrace) trace = NULL;
  g_autoptr (IvTraceReport) report = NULL;
  g_autoptr (GArray) copies = NULL;
  double from_ms = 0, to_ms = 0;
  /* what --stats reports on: the whole trace, or --from/--to; and the flags */
  struct
  {
    gint64 t0_ns, t1_ns;
    gboolean scoped;
    IvStatsFlags flags;
  } scope = { G_MININT64, G_MAXINT64, FALSE, IV_STATS_DEFAULT };
  g_autofree IvResult *model = NULL;
  double n_steps = 1;
  int bound_rc;

  if (!_iv_cli_parse ("trace", _ ("Load a Chrome trace or a pipelined timeline and report on it."),
                      entries, &argc, &argv))
    return IV_EXIT_USAGE;
  if (!files || !files[0])
    return _iv_cli_usage_error ("trace", "%s",
                                _ ("name a trace file, several rank traces or a folder of them"));
  /* before any load: it decides how slices nest */
  if (tolerance)
    {
      double us = 0;
      if (!_iv_cli_number ("trace", "overlap-tolerance", tolerance, TRUE, &us))
        return IV_EXIT_USAGE;
      if (us > 1e6)
        return _iv_cli_usage_error ("trace", "%s",
                                    _ ("--overlap-tolerance is at most 1000000 µs (1 s)"));
      iv_trace_set_overlap_tolerance ((gint64) llround (us * 1e3));
    }
  if (diff || top_text || (diff_step && !stats))
    {
      guint64 top = 40;
      if (!diff)
        return _iv_cli_usage_error ("trace", "%s",
                                    _ ("--top is for --diff; --step for --diff or --stats"));
      if (g_strv_length (files) != 2 || stats || pipeline_json || from || to || bound.model
          || align_ranks || (output && json))
        return _iv_cli_usage_error ("trace", "%s",
                                    _ ("--diff compares two traces: trace A B --diff [--json | "
                                       "-o FIGURE] [--step N|N:M] [--top N]"));
      if (top_text && !g_ascii_string_to_unsigned (top_text, 10, 0, G_MAXUINT, &top, NULL))
        return _iv_cli_usage_error ("trace", _ ("--top takes a count (0: all), not “%s”"),
                                    top_text);
      return trace_diff (files, diff_step, json, (guint) top, output, &fig);
    }
  /* several files, or a folder: one distributed job, a trace per rank */
  if (files[1] || g_file_test (files[0], G_FILE_TEST_IS_DIR))
    {
      if ((!stats && !output) || pipeline_json || from || to || bound.model || include_open)
        return _iv_cli_usage_error (
            "trace", "%s",
            _ ("several rank traces (or a folder) take --stats [--json] [--align] and -o "
               "FIGURE only; --from, --to, --against and --include-open are for one trace"));
      return trace_ranks (files, json, align_ranks, stats, output, &fig);
    }
  if (align_ranks)
    return _iv_cli_usage_error ("trace", "%s", _ ("--align is for several rank traces"));
  if (!stats && !output && !pipeline_json)
    return _iv_cli_usage_error ("trace", "%s",
                                _ ("say what to do: --stats, --pipeline-json or -o FIGURE"));
  /* --from and --to scope the figure and the statistics alike */
  if (!_iv_cli_number ("trace", "from", from, TRUE, &from_ms)
      || !_iv_cli_number ("trace", "to", to, TRUE, &to_ms))
    return IV_EXIT_USAGE;
  if (to && to_ms <= from_ms)
    return _iv_cli_usage_error ("trace", "%s", _ ("--to must be after --from"));
  /* the model, its hardware and TP: refused before the trace is read */
  if ((bound_rc = _iv_cli_bound_read (&bound_spec, bound.model != NULL, &bound)) != IV_EXIT_OK)
    return bound_rc;
  trace = iv_trace_load (files[0], NULL, NULL, NULL, &error);
  if (!trace)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (pipeline_json
      || (output
          && (trace->format == IV_TRACE_PIPELINED || start_cand || num_cand || breakdown
              || min_pct)))
    {
      g_auto (PipelineArgs) pa = { start_cand, num_cand, breakdown, min_pct, NULL, NULL };
      int rc = load_pipeline (trace, &pa);
      if (rc == IV_EXIT_OK && pipeline_json)
        rc = print_pipeline_json (pa.plot, pa.breakdown);
      if (rc == IV_EXIT_OK && output)
        rc = export_pipelined (trace, output, &pa, from || to, &fig);
      if (rc != IV_EXIT_OK || !stats)
        return rc;
    }
  else if (output)
    {
      IvTimelineFigure tl = { trace, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
      IvFigure figure = { iv_render_timeline, &tl, "timeline", NULL };
      g_autoptr (GByteArray) hidden = NULL;
      g_autoptr (GByteArray) hidden_tracks = NULL;
      IvExportOptions eo;
      int rc;

      iv_export_options_init (&eo);
      eo.width = 1600, eo.height = 900, eo.dpi = 96;
      if ((rc = _iv_cli_figure_options ("trace", output, &fig, &eo)) != IV_EXIT_OK)
        return rc;
      if (color_by && !g_str_equal (color_by, "name") && !g_str_equal (color_by, "category"))
        return _iv_cli_usage_error ("trace", "%s", _ ("--color-by is name or category"));
      tl.color_by_category = color_by && g_str_equal (color_by, "category");
      tl.all_flows = flows;
      tl.note_cut = TRUE;
      if (processes
          && !(hidden = hidden_items (trace, processes, trace->processes->len, process_names)))
        return IV_EXIT_USAGE;
      if (threads
          && !(hidden_tracks = hidden_items (trace, threads, trace->tracks->len, track_names)))
        return IV_EXIT_USAGE;
      tl.hidden = hidden;
      tl.hidden_tracks = hidden_tracks;
      /* Milliseconds from the trace's start, as the ruler shows them; without a range,
       * the extent of the work rather than of a capture-wide profiler span */
      if (from || to)
        {
          tl.t0_ns = trace->t0_ns + (gint64) llround (from_ms * 1e6);
          tl.t1_ns = to ? trace->t0_ns + (gint64) llround (to_ms * 1e6) : trace->t1_ns;
        }
      else
        iv_trace_activity_range (trace, &tl.t0_ns, &tl.t1_ns);
      /* without a height or a page, as tall as every row needs (within reason) */
      if (!fig.height && !fig.size)
        eo.height = (int) CLAMP (ceil (iv_timeline_content_height (&tl, eo.width)), 300, 16000);
      if (!iv_export_to_file (&figure, &eo, output, &error))
        {
          _iv_cli_print_error (error);
          return IV_EXIT_BAD_INPUT;
        }
      if (!stats)
        return IV_EXIT_OK;
    }
  if (from || to)
    {
      /* ms are at most 1e6 × the ±146 years a time may span: the sums stay in 64 bits */
      scope.scoped = TRUE;
      scope.t0_ns = from ? trace->t0_ns + (gint64) llround (MIN (from_ms, 9e12) * 1e6) : G_MININT64;
      scope.t1_ns = to ? trace->t0_ns + (gint64) llround (MIN (to_ms, 9e12) * 1e6) : G_MAXINT64;
    }
  if (diff_step)
    {
      /* one iteration: its ProfilerStep span, as --from and --to would give it */
      guint64 n;
      if (from || to)
        return _iv_cli_usage_error ("trace", "%s", _ ("--step and --from/--to both say a range"));
      if (!g_ascii_string_to_unsigned (diff_step, 10, 0, G_MAXINT64, &n, NULL))
        return _iv_cli_usage_error ("trace", _ ("--step takes a ProfilerStep number, not “%s”"),
                                    diff_step);
      if (!iv_trace_step_range (trace, (gint64) n, &scope.t0_ns, &scope.t1_ns))
        {
          g_autofree char *has = iv_trace_steps_text (trace);
          _iv_cli_printf (
              stderr, "inferview trace: %s: no ProfilerStep#%" G_GUINT64_FORMAT " (it has %s)\n",
              trace->path, n, has);
          return IV_EXIT_BAD_INPUT;
        }
      scope.scoped = TRUE;
    }
  if (include_open)
    scope.flags |= IV_STATS_INCLUDE_OPEN;
  /* a trace without flows: its launches joined on args.correlation, read back */
  scope.flags |= IV_STATS_READ_ARGS;
  /* one report, printed as text or JSON */
  report = iv_trace_report_new (trace, scope.t0_ns, scope.t1_ns, scope.scoped, scope.flags, &error);
  if (!report)
    {
      _iv_cli_print_error (error);
      return IV_EXIT_BAD_INPUT;
    }
  if (bound.m)
    {
      /* the model's step on the configuration asked for, by the same classes */
      const IvHardware *hw = bound.hw;
      IvConfig c;
      double v;
      iv_config_init (&c);
      c.P = 0;
      if (bound.tp_n)
        c.t = bound.tp_n;
      if (hw->n_pe == 1)
        c.place_tp = c.place_cp = IV_PLACE_CUBE;
      if (mode && !g_str_equal (mode, "prefill") && !g_str_equal (mode, "decode"))
        return _iv_cli_usage_error ("trace", "%s", _ ("--mode is prefill or decode"));
      c.mode = mode && g_str_equal (mode, "prefill") ? IV_MODE_PREFILL : IV_MODE_DECODE;
      if ((batch && !_iv_cli_number ("trace", "batch", batch, FALSE, &v))
          || (batch && (c.B = (gint64) v) < 1)
          || (tq && !_iv_cli_number ("trace", "tq", tq, FALSE, &v))
          || (tq && (c.T = (gint64) v) < 1)
          || (context && !_iv_cli_number ("trace", "context", context, TRUE, &v))
          || (context && (c.P = (gint64) v) < 0)
          || (steps && !_iv_cli_number ("trace", "steps", steps, FALSE, &n_steps)))
        return IV_EXIT_USAGE;
      model = g_new0 (IvResult, 1);
      if (!iv_model_evaluate (bound.m, hw, &c, model))
        {
          _iv_cli_printf (stderr, "inferview trace: --against: %s\n", model->error);
          return IV_EXIT_BAD_INPUT;
        }
    }
  /* the copies' bytes are in their arguments: read back from the file, once */
  copies = iv_trace_memcpy_stats (trace, scope.t0_ns, scope.t1_ns, &error);
  if (!copies)
    {
      _iv_cli_printf (stderr, "inferview trace: the copies' bytes were not read: %s\n",
                      error->message);
      g_clear_error (&error);
    }
  if (json)
    {
      /* one document: the comparison with the model is a member of it */
      g_autofree char *text = stats_json (trace, report, copies, model, n_steps);
      printf ("%s\n", text);
    }
  else
    {
      stats_text (trace, report, copies);
      if (model)
        print_against_text (report, model, n_steps);
    }
  return IV_EXIT_OK;
}
