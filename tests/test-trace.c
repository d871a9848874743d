/* test-trace.c: every sample trace loads with counts checked independently (a Python
 * json pass over the same files gave slices, flows, dangling flow events, instants,
 * tracks, processes and depths), the speedscope edge cases each have an asserted outcome,
 * and the engine's pieces are checked on small traces written here: precision, merged
 * tids, truncation, partial overlaps, level of detail, search, analyses, pipelined files. */
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iv-palette.h"
#include "iv-render-timeline.h"
#include "iv-test-util.h"
#include "iv-trace-pipelined.h"
#include "iv-pipeline-plot.h"
#include "iv-render-pipelined.h"
#include "iv-chart-private.h"
#include "iv-trace-charts.h"
#include "iv-trace-memcpy.h"
#include "iv-trace-query.h"
#include "iv-trace-queue.h"
#include "iv-trace-report.h"
#include "iv-timeline-state.h"

static char *tmpdir;

static char *
shared (const char *rel)
{
  /* The public traces are copied into tests/data (tests/data/ATTRIBUTION.md): a missing one
   * is a broken checkout, and fails. */
  char *path = g_build_filename (g_getenv ("IV_TEST_DATA"), "traces", rel, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_error ("test data %s is missing", path);
  return path;
}

static IvTrace *
load_text (const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GError) error = NULL;
  IvTrace *t;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  t = iv_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static gboolean
has_warning (const IvTrace *t, const char *fragment)
{
  for (guint i = 0; i < t->warnings->len; i++)
    if (strstr (t->warnings->pdata[i], fragment))
      return TRUE;
  return FALSE;
}

static gsize
find_slice (const IvTrace *t, const char *name)
{
  for (gsize i = 0; i < t->n_slices; i++)
    if (g_str_equal (iv_trace_string (t, t->name[i]), name))
      return i;
  g_error ("no slice named %s", name);
}

/* Kineto's [memory] instants as a memory curve per device: the running sum of "Bytes"
 * in time order. Peaks and levels from an independent pass (Python's json, Decimal,
 * stable sort by ts): GPU 0 peaks at 2,791,636,480 bytes at ts 1623142623582083 µs and
 * ends at 0 over 8,220 events; the CPU peaks at 57,803,264 bytes at 1623142623704921 µs
 * and ends at 19,267,840 over 4,618. */
static void
test_memory_counter (void)
{
  g_autofree char *path = shared ("kineto_legacy2021_resnet50_v100.json.gz");
  g_autoptr (IvTrace) t = iv_trace_load (path, NULL, NULL, NULL, NULL);
  static const struct
  {
    const char *name;
    gsize n;
    double peak;
    gint64 peak_ns;
    double last;
  } want[] = {
    { "memory · GPU 0 · since start", 8220, 2791636480.0, G_GINT64_CONSTANT (1623142623582083000),
      0 },
    { "memory · CPU · since start", 4618, 57803264.0, G_GINT64_CONSTANT (1623142623704921000),
      19267840.0 },
  };

  g_assert_nonnull (t);
  for (guint w = 0; w < G_N_ELEMENTS (want); w++)
    {
      const IvCounterSeries *se = NULL;
      gint64 at = 0;
      for (guint i = 0; i < t->series->len && !se; i++)
        if (g_str_equal (iv_trace_string (t, g_array_index (t->series, IvCounterSeries, i).name),
                         want[w].name))
          se = &g_array_index (t->series, IvCounterSeries, i);
      g_assert_nonnull (se);
      g_assert_true (se->cumulative);
      g_assert_cmpuint (se->n, ==, want[w].n);
      g_assert_cmpfloat (se->max, ==, want[w].peak);
      for (gsize i = se->first; i < se->first + se->n && !at; i++)
        if (t->sample_value[i] == se->max)
          at = t->sample_ns[i];
      g_assert_cmpint (at, ==, want[w].peak_ns);
      g_assert_cmpfloat (t->sample_value[se->first + se->n - 1], ==, want[w].last);
    }
}

static void
test_shared_files (void)
{
  static const struct
  {
    const char *file;
    gsize slices, async;
    guint flows, dangling, instants, tracks, processes, depth;
  } cases[] = {
    { "catapult_async_begin_end.json", 3, 12, 0, 0, 7, 10, 4, 1 },
    { "catapult_flow_simple.json", 5, 0, 3, 0, 0, 5, 5, 0 },
    /* 16 thread tracks and 2 async ones: every async stage of a frame is nested (one id)
     * under its process's PipelineReporter span, not a track of its own name */
    { "chrome116_devtools_trace.json", 2456, 234, 13, 0, 110, 18, 4, 10 },
    { "edge_uint64_comms_id.json.gz", 2, 0, 0, 0, 0, 2, 1, 0 },
    { "kineto_a100_event_sync_multistream.json.gz", 57, 0, 8, 34, 2, 6, 10, 2 },
    { "kineto_a100_simple_add.json.gz", 838, 0, 139, 192, 2, 5, 10, 8 },
    { "kineto_cpu_only_gloo.json.gz", 16, 0, 0, 0, 2, 4, 2, 0 },
    { "kineto_cupti_range_profiler.json.gz", 2324, 0, 0, 1862, 3, 4, 10, 9 },
    { "kineto_gp100_gpu_user_annotation.json.gz", 984, 0, 140, 40, 2, 4, 11, 6 },
    /* its 12,838 [memory] instants are two memory counters (GPU 0, CPU): 2 instants left,
     * 2 counter tracks more */
    { "kineto_legacy2021_resnet50_v100.json.gz", 44666, 0, 9096, 0, 2, 6, 10, 7 },
    { "kineto_rocm_mi250.json.gz", 113, 0, 20, 5, 2, 4, 18, 6 },
    { "kineto_sampled_rank0_no_flows.json.gz", 4811, 0, 0, 0, 0, 8, 10, 10 },
    { "kineto_train_rank0_68k_events.json.gz", 45420, 0, 7000, 9234, 2, 5, 10, 8 },
    { "kineto_triton_tiny.json.gz", 8, 0, 1, 1, 2, 4, 19, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = shared (cases[i].file);
      g_autoptr (IvTrace) t = NULL;
      g_autoptr (GError) error = NULL;

      t = iv_trace_load (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s", cases[i].file);
      g_assert_cmpuint (t->n_slices - t->n_async_slices, ==, cases[i].slices);
      g_assert_cmpuint (t->n_async_slices, ==, cases[i].async);
      g_assert_cmpuint (t->flows->len, ==, cases[i].flows);
      g_assert_cmpuint (t->n_dangling_flows, ==, cases[i].dangling);
      g_assert_cmpuint (t->instants->len, ==, cases[i].instants);
      g_assert_cmpuint (t->tracks->len, ==, cases[i].tracks);
      g_assert_cmpuint (t->processes->len, ==, cases[i].processes);
      g_assert_cmpuint (t->max_depth, ==, cases[i].depth);
      if (cases[i].dangling)
        g_assert_true (has_warning (t, "flow events dangle"));
      /* Every bound flow leaves a slice that starts no later than its own time. */
      for (guint f = 0; f < t->flows->len; f++)
        {
          IvFlow *fl = &g_array_index (t->flows, IvFlow, f);
          if (fl->from != G_MAXSIZE)
            g_assert_cmpint (t->start_ns[fl->from], <=, fl->from_ns);
        }
    }
}

static void
test_kineto_layout (void)
{
  g_autofree char *path = shared ("kineto_a100_simple_add.json.gz");
  g_autoptr (IvTrace) t = NULL;
  g_autoptr (IvGpuStats) gpu = NULL;
  gboolean seen_cpu = FALSE;

  t = iv_trace_load (path, NULL, NULL, NULL, NULL);
  /* The CPU process comes first, then GPU 0 with its stream rows named. */
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      IvProcess *p = t->processes->pdata[tr->process];
      if (p->kind == IV_PROCESS_CPU)
        seen_cpu = TRUE;
      if (tr->kind == IV_TRACK_GPU)
        {
          g_assert_true (seen_cpu);
          g_assert_cmpint (p->kind, ==, IV_PROCESS_GPU);
          /* streams, and Kineto's "Device 0" row of device-wide syncs */
          g_assert_true (g_str_has_prefix (tr->name, "stream ")
                         || g_str_has_prefix (tr->name, "Device "));
        }
    }
  gpu = iv_trace_gpu_stats (t, G_MININT64, G_MAXINT64);
  g_assert_cmpuint (gpu->streams->len, >=, 1);
  /* Busy plus idle is each stream's active span (first kernel to last), and the idle
   * time's three parts add up to it. */
  for (guint i = 0; i < gpu->streams->len; i++)
    {
      IvStreamStats *st = &g_array_index (gpu->streams, IvStreamStats, i);
      g_assert_cmpint (st->busy_ns + st->idle_ns, ==, st->last_ns - st->first_ns);
      g_assert_cmpint (st->first_ns, >=, t->t0_ns);
      g_assert_cmpint (st->last_ns, <=, t->t1_ns);
      g_assert_cmpint (st->idle_host_wait_ns + st->idle_kernel_wait_ns + st->idle_other_ns, ==,
                       st->idle_ns);
      g_assert_cmpint (st->busy_ns, >, 0);
      /* every kernel of this trace has its launch's flow */
      g_assert_cmpuint (st->launched, ==, st->kernels);
    }
  /* Arguments come back from the gzip file on demand. */
  {
    gsize s = find_slice (t, "aten::to");
    g_autoptr (GError) error = NULL;
    g_autofree char *args = iv_trace_slice_args (t, s, &error);
    g_assert_no_error (error);
    g_assert_true (args[0] == '{' && args[strlen (args) - 1] == '}');
    g_assert_nonnull (strstr (args, "\"External id\""));
  }
}

static void
test_speedscope_edge_cases (void)
{
  static const struct
  {
    const char *file;
    gsize slices;
    guint depth;
    const char *warning;
  } cases[] = {
    /* An X with tdur but no dur ("epsilon") is skipped, as Perfetto skips it. */
    { "simple.json", 3, 2, "1 events without a usable duration" },
    { "simple-object.json", 2, 1, "1 events without a usable duration" },
    /* Unterminated, or ending with a comma: the complete events are kept. */
    { "simple-partial.json", 3, 2, "ends early" },
    { "simple-partial-trailing-comma.json", 3, 2, "ends early" },
    { "simple-partial-whitespace.json", 3, 2, "ends early" },
    /* Two B never closed: they did not end, and are drawn to the end of the trace. */
    { "not-enough-end-events.json", 3, 2, "2 begin events (B) did not end" },
    { "only-begin-events.json", 3, 1, "did not end" },
    /* E events beyond the open B: skipped and counted. */
    { "too-many-end-events.json", 2, 1, "2 end (E) events had no matching B" },
    { "end-event-with-empty-stack.json", 1, 0, "had no matching B" },
    /* X events that overlap without nesting: both kept, the second on a row of its own. */
    { "invalid-x-nesting.json", 2, 0, "1 slices partially overlap their parent" },
    /* An E closes the innermost B of its name (Perfetto's rule): "beta" closes nothing,
     * and "alpha" stays open. */
    { "mismatched-name.json", 1, 0, "1 end (E) events had no matching B" },
    /* "E C" comes before "B C" (same time): it closes nothing; "E A" closes A, and C, still
     * open inside it, ends there. */
    { "zero-duration-events.json", 4, 2, "1 begin events (B) were still open" },
    /* Four processes of two threads, one slice each, named by their metadata. */
    { "multiprocess.json", 8, 0, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rel = g_build_filename ("speedscope_trace_event", cases[i].file, NULL);
      g_autofree char *path = shared (rel);
      g_autoptr (IvTrace) t = NULL;
      g_autoptr (GError) error = NULL;

      t = iv_trace_load (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s", cases[i].file);
      g_assert_cmpuint (t->n_slices, ==, cases[i].slices);
      g_assert_cmpuint (t->max_depth, ==, cases[i].depth);
      if (cases[i].warning)
        g_assert_true (has_warning (t, cases[i].warning));
      else
        g_assert_cmpuint (t->warnings->len, ==, 0);
    }
}

static void
test_simple_nesting_and_self (void)
{
  /* speedscope's simple.json, inline: alpha [0,14] ⊃ beta [1,13] ⊃ gamma [2,7] and
   * epsilon (no dur: 0) at 7. Self: alpha 14 − 12 = 2 µs; beta 12 − 5 − 0 = 7 µs. */
  g_autoptr (IvTrace) t = load_text (
      "simple.json",
      "[{\"pid\": 0, \"tid\": 0, \"ph\": \"B\", \"name\": \"alpha\", \"ts\": 0},"
      " {\"pid\": 0, \"tid\": 0, \"ph\": \"B\", \"name\": \"beta\", \"ts\": 1},"
      " {\"pid\": 0, \"tid\": 0, \"ph\": \"X\", \"name\": \"gamma\", \"ts\": 2, \"dur\": 5, "
      "\"args\": {\"detail\": \"foobar\"}},"
      " {\"pid\": 0, \"tid\": 0, \"ph\": \"X\", \"name\": \"epsilon\", \"ts\": 7, \"tdur\": 4},"
      " {\"pid\": 0, \"tid\": 0, \"ph\": \"E\", \"name\": \"beta\", \"ts\": 13},"
      " {\"pid\": 0, \"tid\": 0, \"ph\": \"E\", \"name\": \"alpha\", \"ts\": 14}]");
  gsize alpha = find_slice (t, "alpha"), beta = find_slice (t, "beta"),
        gamma = find_slice (t, "gamma");
  g_autofree char *args = iv_trace_slice_args (t, gamma, NULL);

  g_assert_cmpint (t->dur_ns[alpha], ==, 14000);
  g_assert_cmpint (t->self_ns[alpha], ==, 2000);
  g_assert_cmpint (t->self_ns[beta], ==, 7000);
  g_assert_cmpint (t->self_ns[gamma], ==, 5000);
  g_assert_cmpuint (g_array_index (t->rows, IvRow, t->row[gamma]).depth, ==, 2);
  g_assert_cmpuint (iv_trace_parent (t, gamma), ==, beta);
  g_assert_cmpuint (iv_trace_parent (t, beta), ==, alpha);
  /* The args object, exactly as written in the file. */
  g_assert_cmpstr (args, ==, "{\"detail\": \"foobar\"}");
}

static void
test_precision_and_tids (void)
{
  g_autoptr (IvTrace) t
      = load_text ("precise.json", "{\"traceEvents\": ["
                                   "{\"ph\": \"X\", \"name\": \"a\", \"pid\": \"1\", \"tid\": "
                                   "\"25738\", \"ts\": 1712195495520014.900, \"dur\": 0.5},"
                                   "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 25738, "
                                   "\"ts\": 1712195495520016.0004, \"dur\": 1e1}],"
                                   " \"deviceProperties\": [{\"id\": 0}], \"schemaVersion\": 1}");
  gsize a = find_slice (t, "a"), b = find_slice (t, "b");

  /* 1712195495520014.900 µs keeps its 0.9 µs: a double would not. */
  g_assert_cmpint (t->start_ns[a], ==, G_GINT64_CONSTANT (1712195495520014900));
  g_assert_cmpint (t->dur_ns[a], ==, 500);
  g_assert_cmpint (t->start_ns[b], ==, G_GINT64_CONSTANT (1712195495520016000));
  g_assert_cmpint (t->dur_ns[b], ==, 10000);
  /* "25738" and 25738 are one thread; arrays after traceEvents are not events. */
  g_assert_cmpuint (t->tracks->len, ==, 1);
  g_assert_cmpuint (t->processes->len, ==, 1);
  g_assert_cmpuint (t->n_slices, ==, 2);
}

static void
test_truncated_and_errors (void)
{
  g_autofree char *bad = g_build_filename (tmpdir, "notes.json", NULL);
  g_autofree char *other = g_build_filename (tmpdir, "other.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvTrace) t = load_text (
      "cut.json",
      "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n"
      " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1},\n"
      " {\"ph\": \"X\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"du");

  g_assert_cmpuint (t->n_slices, ==, 2);
  g_assert_true (t->truncated);
  g_assert_true (has_warning (t, "the file ends early at line 3"));

  g_assert_true (g_file_set_contents (bad, "hello", -1, NULL));
  g_assert_null (iv_trace_load (bad, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "notes.json: line 1, column 1"));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (other, "{\"model_type\": \"llama\"}", -1, NULL));
  g_assert_null (iv_trace_load (other, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "other.json: not a trace"));
}

static void
test_partial_overlap_row (void)
{
  g_autoptr (IvTrace) t = load_text (
      "overlap.json",
      "[{\"ph\": \"X\", \"name\": \"parent\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 10},"
      " {\"ph\": \"X\", \"name\": \"child\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 3},"
      " {\"ph\": \"X\", \"name\": \"straddles\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 10}]");
  gsize s = find_slice (t, "straddles");
  IvRow *row = &g_array_index (t->rows, IvRow, t->row[s]);

  /* Not dropped, not nested: its own row, after the track's nesting rows (0 and 1). */
  g_assert_cmpuint (t->n_slices, ==, 3);
  g_assert_true (row->overflow);
  g_assert_cmpuint (row->depth, ==, 2);
  g_assert_cmpuint (t->max_depth, ==, 1);
  g_assert_true (has_warning (t, "1 slices partially overlap"));
}

static void
test_lod (void)
{
  GString *json = g_string_new ("[");
  g_autoptr (IvTrace) t = NULL;
  g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
  g_autoptr (GArray) first = g_array_new (FALSE, FALSE, sizeof (guint));
  const gint64 t0 = 0, t1 = 1000000000; /* 1 s in ns */

  /* 20,000 slices of 1 µs every 10 µs (sub-pixel at 1000 px over 200 ms) and one of 50 ms. */
  for (int i = 0; i < 20000; i++)
    g_string_append_printf (
        json, "%s{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1}",
        i ? "," : "", i * 10);
  g_string_append (json, ",{\"ph\": \"X\", \"name\": \"wide\", \"pid\": 1, \"tid\": 1, \"ts\": "
                         "300000, \"dur\": 50000}]");
  t = load_text ("lod.json", json->str);
  g_string_free (json, TRUE);

  iv_trace_lod (t, t0, t1, 1000, items, first);
  g_assert_cmpuint (first->len, ==, t->rows->len + 1);
  {
    guint64 counted = 0;
    gsize wide = find_slice (t, "wide");
    gboolean wide_alone = FALSE;
    /* No more than a few items per pixel; every slice in exactly one item. */
    g_assert_cmpuint (items->len, <=, 3 * 1000);
    for (guint i = 0; i < items->len; i++)
      {
        IvLodItem *it = &g_array_index (items, IvLodItem, i);
        counted += it->count;
        if (it->slice == wide && it->count == 1)
          wide_alone = TRUE;
        /* A merged run covers the span of all its slices. */
        g_assert_cmpint (it->start_ns, ==, t->start_ns[it->slice]);
        g_assert_cmpint (it->end_ns, ==,
                         t->start_ns[it->slice + it->count - 1]
                             + t->dur_ns[it->slice + it->count - 1]);
      }
    g_assert_cmpuint (counted, ==, t->n_slices);
    g_assert_true (wide_alone);
  }
  /* Random windows and widths: the items account for exactly the slices that overlap the
   * window (counted by brute force), whatever path the searches take. */
  {
    GRand *rng = g_rand_new_with_seed (5);
    for (int k = 0; k < 200; k++)
      {
        gint64 a = g_rand_int_range (rng, 0, 200000) * 1000,
               b = a + g_rand_int_range (rng, 1, 200000) * 1000;
        double w = g_rand_int_range (rng, 1, 3000);
        guint64 expected = 0, counted = 0;
        for (gsize i = 0; i < t->n_slices; i++)
          expected += t->start_ns[i] + t->dur_ns[i] > a && t->start_ns[i] < b;
        iv_trace_lod (t, a, b, w, items, first);
        for (guint i = 0; i < items->len; i++)
          counted += g_array_index (items, IvLodItem, i).count;
        g_assert_cmpuint (counted, ==, expected);
      }
    g_rand_free (rng);
  }
  /* The per-row searches agree with a scan of the row, at slice starts, between them and
   * past both ends (every row, including the one with the wide slice). */
  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      gint64 probes[] = { G_MININT64, -1,        0,         1,         9999,      10000,     10001,
                          299999999,  300000000, 300000001, 199990000, 199990001, G_MAXINT64 };
      for (guint p = 0; p < G_N_ELEMENTS (probes); p++)
        {
          gsize first_at = row->first + row->n, last_by = G_MAXSIZE;
          for (gsize i = row->first; i < row->first + row->n; i++)
            {
              if (t->start_ns[i] >= probes[p] && first_at == row->first + row->n)
                first_at = i;
              if (t->start_ns[i] <= probes[p])
                last_by = i;
            }
          g_assert_cmpuint (iv_trace_row_first_at (t, r, probes[p]), ==, first_at);
          g_assert_cmpuint (iv_trace_row_last_by (t, r, probes[p]), ==, last_by);
        }
    }
  /* Zoomed in to 100 µs over 1000 px: every slice is wider than a pixel, none merged. */
  iv_trace_lod (t, 0, 100000, 1000, items, first);
  for (guint i = 0; i < items->len; i++)
    g_assert_cmpuint (g_array_index (items, IvLodItem, i).count, ==, 1);
  g_assert_cmpuint (items->len, ==, 10);
}

static void
test_search_and_stats (void)
{
  g_autoptr (IvTrace) t = load_text (
      "names.json",
      "[{\"ph\": \"X\", \"name\": \"MatMul\", \"pid\": 1, \"tid\": 1, \"ts\": 50, \"dur\": 10},"
      " {\"ph\": \"X\", \"name\": \"softmax\", \"pid\": 1, \"tid\": 1, \"ts\": 52, \"dur\": 2},"
      " {\"ph\": \"X\", \"name\": \"matmul_kernel\", \"pid\": 1, \"tid\": 2, \"ts\": 10, \"dur\": "
      "30},"
      " {\"ph\": \"X\", \"name\": \"MatMul\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 20}]");
  g_autoptr (GArray) found = iv_trace_search (t, "MATMUL");
  g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
  g_autoptr (GArray) window = iv_trace_stats_by_name (t, 0, 60000);

  /* Case-insensitive, in time order: matmul_kernel (10), MatMul (50), MatMul (100). */
  g_assert_cmpuint (found->len, ==, 3);
  g_assert_cmpint (t->start_ns[g_array_index (found, gsize, 0)], ==, 10000);
  g_assert_cmpint (t->start_ns[g_array_index (found, gsize, 2)], ==, 100000);
  /* By total descending: MatMul 30 µs (self 30 − 2 = 28), matmul_kernel 30 µs, softmax 2. */
  {
    IvNameStats *top = &g_array_index (stats, IvNameStats, 0);
    gboolean matmul_first = g_str_equal (iv_trace_string (t, top->name), "MatMul")
                            || g_str_equal (iv_trace_string (t, top->name), "matmul_kernel");
    g_assert_true (matmul_first);
  }
  for (guint i = 0; i < stats->len; i++)
    {
      IvNameStats *s = &g_array_index (stats, IvNameStats, i);
      if (g_str_equal (iv_trace_string (t, s->name), "MatMul"))
        {
          g_assert_cmpuint (s->count, ==, 2);
          g_assert_cmpint (s->total_ns, ==, 30000);
          g_assert_cmpint (s->self_ns, ==, 28000);
          g_assert_cmpint (s->min_ns, ==, 10000);
          g_assert_cmpint (s->max_ns, ==, 20000);
          g_assert_cmpfloat (s->mean_ns, ==, 15000);
        }
    }
  /* Only slices starting in [0, 60 µs): the second MatMul is out. */
  for (guint i = 0; i < window->len; i++)
    if (g_str_equal (iv_trace_string (t, g_array_index (window, IvNameStats, i).name), "MatMul"))
      g_assert_cmpuint (g_array_index (window, IvNameStats, i).count, ==, 1);
}

static void
test_gpu_analysis (void)
{
  /* GPU 0, streams 7 and 8: compute [0,10) µs on 7, an NCCL all-reduce [5,15) on 8,
   * a memcpy [20,22) on 7. Busy: 7 → 12 µs, 8 → 10 µs of the 22 µs trace.
   * Communication under compute: [5,10) = 5 of 10 µs = 50 %. */
  g_autoptr (IvTrace) t = load_text (
      "gpu.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"args\": {\"name\": \"GPU 0\"}},"
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": {\"name\": "
      "\"stream 7\"}},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 0, "
      "\"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"pid\": 0, "
      "\"tid\": 8, \"ts\": 5, \"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", \"pid\": 0, \"tid\": 7, "
      "\"ts\": 20, \"dur\": 2},"
      "{\"ph\": \"C\", \"name\": \"GPU memory\", \"pid\": 0, \"ts\": 0, \"args\": {\"allocated\": "
      "5, \"reserved\": 8}},"
      "{\"ph\": \"C\", \"name\": \"GPU memory\", \"pid\": 0, \"ts\": 10, \"args\": {\"allocated\": "
      "7, \"reserved\": 8}}"
      "]}");
  g_autoptr (IvGpuStats) g = iv_trace_gpu_stats (t, G_MININT64, G_MAXINT64);

  g_assert_cmpuint (g->streams->len, ==, 2);
  for (guint i = 0; i < g->streams->len; i++)
    {
      IvStreamStats *s = &g_array_index (g->streams, IvStreamStats, i);
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, s->track);
      if (g_str_equal (tr->name, "stream 7"))
        {
          g_assert_cmpint (s->busy_ns, ==, 12000);
          g_assert_cmpint (s->idle_ns, ==, 10000);
        }
      else
        {
          g_assert_cmpstr (tr->name, ==, "stream 8");
          g_assert_cmpint (s->busy_ns, ==, 10000);
        }
    }
  g_assert_cmpint (g->by_kind_ns[IV_KERNEL_COMPUTE], ==, 10000);
  g_assert_cmpint (g->by_kind_ns[IV_KERNEL_COMM], ==, 10000);
  g_assert_cmpint (g->by_kind_ns[IV_KERNEL_MEMORY], ==, 2000);
  g_assert_cmpint (g->comm_overlapped_ns, ==, 5000);
  g_assert_cmpfloat (g->comm_overlap_share, ==, 0.5);
  /* Counters: one track, two series in time order. */
  g_assert_cmpuint (t->series->len, ==, 2);
  g_assert_cmpuint (t->n_samples, ==, 4);
  for (guint i = 0; i < t->series->len; i++)
    {
      IvCounterSeries *s = &g_array_index (t->series, IvCounterSeries, i);
      if (g_str_equal (iv_trace_string (t, s->name), "allocated"))
        {
          g_assert_cmpfloat (s->min, ==, 5);
          g_assert_cmpfloat (s->max, ==, 7);
          g_assert_cmpint (t->sample_ns[s->first + 1], ==, 10000);
        }
    }
  /* A restricted range clips: [0, 8 µs) has 8 µs of compute and 3 of communication. */
  {
    g_autoptr (IvGpuStats) part = iv_trace_gpu_stats (t, 0, 8000);
    g_assert_cmpint (part->by_kind_ns[IV_KERNEL_COMPUTE], ==, 8000);
    g_assert_cmpint (part->by_kind_ns[IV_KERNEL_COMM], ==, 3000);
  }
}

/* A Kineto-like trace cut down to its events, without the naming metadata: the kernel
 * categories make pid 0 a GPU and tid 7 its stream. On the stream, annotations ("step"
 * [0, 100) µs over "inner" [10, 60)) and a sync are rows of their own and never work;
 * kernels are a list: "pdl" [20, 30) overlaps "gemm" [5, 25) (programmatic dependent
 * launch) and goes on a row below, counted like the rest. Busy: [5, 30) ∪ [40, 45) ∪
 * [80, 90) = 40 µs of the active span [5, 90): idle 45 µs, of which the gap before
 * "elementwise" (launched at 35 µs, after the stream went idle at 30) is host wait (10)
 * and the 35 µs gap before the copy, launched by nothing known, other. */
static void
test_gpu_tracks (void)
{
  g_autoptr (IvTrace) t = load_text (
      "gpu-list.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"step\", \"pid\": 100, \"tid\": 100, "
      "\"ts\": 0, \"dur\": 40},"
      "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100, "
      "\"tid\": 100, \"ts\": 35, \"dur\": 1},"
      "{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": 9, \"pid\": 100, \"tid\": "
      "100, \"ts\": 35},"
      "{\"ph\": \"f\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": 9, \"pid\": 0, \"tid\": 7, "
      "\"ts\": 40, \"bp\": \"e\"},"
      "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"step\", \"pid\": 0, \"tid\": "
      "7, \"ts\": 0, \"dur\": 100},"
      "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"inner\", \"pid\": 0, "
      "\"tid\": 7, \"ts\": 10, \"dur\": 50},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 5, "
      "\"dur\": 20},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"pdl\", \"pid\": 0, \"tid\": 7, \"ts\": 20, "
      "\"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"elementwise\", \"pid\": 0, \"tid\": 7, "
      "\"ts\": 40, \"dur\": 5},"
      "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoH\", \"pid\": 0, \"tid\": "
      "7, \"ts\": 80, \"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Sync\", \"pid\": 0, \"tid\": 7, "
      "\"ts\": 90, \"dur\": 5}"
      "]}");
  gsize gemm = find_slice (t, "gemm"), pdl = find_slice (t, "pdl");
  gsize elementwise = find_slice (t, "elementwise"), inner = find_slice (t, "inner");
  gsize sync = find_slice (t, "Stream Sync");
  const IvRow *row_pdl = &g_array_index (t->rows, IvRow, t->row[pdl]);
  const IvRow *row_gemm = &g_array_index (t->rows, IvRow, t->row[gemm]);
  const IvTrack *tr = &g_array_index (t->tracks, IvTrack, row_gemm->track);
  const IvProcess *p = t->processes->pdata[tr->process];
  g_autoptr (IvGpuStats) g = iv_trace_gpu_stats (t, G_MININT64, G_MAXINT64);
  g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
  const IvStreamStats *st;
  gint64 by_class[IV_N_KCLASSES], busy;
  guint64 kernels[IV_N_KCLASSES];
  guint steps = 0;

  g_assert_cmpint (tr->kind, ==, IV_TRACK_GPU);
  g_assert_cmpstr (tr->name, ==, "stream 7");
  g_assert_cmpint (p->kind, ==, IV_PROCESS_GPU);
  g_assert_cmpstr (p->name, ==, "GPU 0");
  /* kernels: a list; the overlapping one below, on an overflow row */
  g_assert_cmpint (row_gemm->kind, ==, IV_ROW_GPU_WORK);
  g_assert_false (row_gemm->overflow);
  g_assert_cmpint (row_pdl->kind, ==, IV_ROW_GPU_WORK);
  g_assert_true (row_pdl->overflow);
  g_assert_cmpuint (t->row[elementwise], ==, t->row[gemm]);
  g_assert_cmpuint (t->n_list_overlaps, ==, 1);
  g_assert_true (has_warning (t, "1 GPU kernels or syncs overlap another"));
  g_assert_cmpint (iv_trace_slice_row_kind (t, inner), ==, IV_ROW_GPU_ANNOTATION);
  g_assert_cmpint (iv_trace_slice_row_kind (t, sync), ==, IV_ROW_GPU_SYNC);
  /* annotations nest among themselves; nothing is a kernel's parent */
  {
    /* "step" the annotation (not the CPU op) */
    gsize parent = iv_trace_parent (t, inner);
    g_assert_cmpuint (parent, !=, inner);
    g_assert_cmpstr (iv_trace_string (t, t->name[parent]), ==, "step");
    g_assert_cmpint (iv_trace_slice_row_kind (t, parent), ==, IV_ROW_GPU_ANNOTATION);
  }
  g_assert_cmpuint (iv_trace_parent (t, gemm), ==, gemm);
  g_assert_cmpint (t->self_ns[pdl], ==, 10000);
  g_assert_cmpint (t->self_ns[gemm], ==, 20000);
  g_assert_cmpint (t->self_ns[inner], ==, 50000);
  /* the launch's flow enters the kernel, not the annotation drawn over it */
  g_assert_cmpuint (t->flows->len, ==, 1);
  g_assert_cmpuint (g_array_index (t->flows, IvFlow, 0).to, ==, elementwise);

  g_assert_cmpuint (g->streams->len, ==, 1);
  st = &g_array_index (g->streams, IvStreamStats, 0);
  g_assert_cmpuint (st->kernels, ==, 4);
  g_assert_cmpint (st->busy_ns, ==, 40000);
  g_assert_cmpint (st->first_ns, ==, 5000);
  g_assert_cmpint (st->last_ns, ==, 90000);
  g_assert_cmpint (st->idle_ns, ==, 45000);
  g_assert_cmpint (st->idle_host_wait_ns, ==, 10000);
  g_assert_cmpint (st->idle_kernel_wait_ns, ==, 0);
  g_assert_cmpint (st->idle_other_ns, ==, 35000);
  g_assert_cmpuint (st->launched, ==, 1);
  /* overlapping kernels each count their own time */
  g_assert_cmpint (g->by_kind_ns[IV_KERNEL_COMPUTE], ==, 35000);
  g_assert_cmpint (g->by_kind_ns[IV_KERNEL_MEMORY], ==, 10000);
  iv_trace_class_times (t, G_MININT64, G_MAXINT64, by_class, kernels, &busy);
  g_assert_cmpint (busy, ==, 40000);
  g_assert_cmpuint (kernels[IV_KCLASS_GEMM] + kernels[IV_KCLASS_OTHER], ==, 4);
  /* "step" on the CPU and "step" the GPU annotation: two entries */
  for (guint i = 0; i < stats->len; i++)
    {
      const IvNameStats *s = &g_array_index (stats, IvNameStats, i);
      if (!g_str_equal (iv_trace_string (t, s->name), "step"))
        continue;
      steps++;
      g_assert_cmpint (s->total_ns, ==, s->kind == IV_ROW_GPU_ANNOTATION ? 100000 : 40000);
      g_assert_cmpint (s->self_ns, ==, s->kind == IV_ROW_GPU_ANNOTATION ? 50000 : 39000);
    }
  g_assert_cmpuint (steps, ==, 2);
  /* a thread that runs other categories too is a CPU thread, whatever one slice is
   * called: its "kernel" nests under the op it runs in */
  {
    g_autoptr (IvTrace) mixed = load_text (
        "mixed.json",
        "[{\"ph\": \"X\", \"name\": \"outer\", \"pid\": 1, \"tid\": 2, \"ts\": 0, \"dur\": "
        "100},"
        " {\"ph\": \"X\", \"name\": \"inner\", \"cat\": \"kernel\", \"pid\": 1, \"tid\": 2, "
        "\"ts\": 10, \"dur\": 50}]");
    gsize in = find_slice (mixed, "inner");
    g_assert_cmpint (g_array_index (mixed->tracks, IvTrack, 0).kind, ==, IV_TRACK_THREAD);
    g_assert_cmpint (iv_trace_slice_row_kind (mixed, in), ==, IV_ROW_NESTED);
    g_assert_cmpuint (iv_trace_parent (mixed, in), ==, find_slice (mixed, "outer"));
  }
  /* a range scopes it: [0, 22 µs) holds gemm's 17 µs and pdl's 2 µs, busy 17 */
  {
    g_autoptr (IvGpuStats) part = iv_trace_gpu_stats (t, 0, 22000);
    st = &g_array_index (part->streams, IvStreamStats, 0);
    g_assert_cmpuint (st->kernels, ==, 2);
    g_assert_cmpint (st->busy_ns, ==, 17000);
    g_assert_cmpint (part->by_kind_ns[IV_KERNEL_COMPUTE], ==, 19000);
  }
}

/* Durations as recorded: a child ending 1 µs after its parent (Kineto's rounding) is
 * drawn nested, and keeps its 89 µs; every instant goes to the innermost slice covering
 * it (of those covering it, the one that began last), so linear's self is
 * 100 − 10 − (100 − 12) = 2 µs, and addmm's 89 − 10 (launch) − 1 (its last µs, which
 * "next" [100, 150) and its child, begun later, cover) = 78 µs: the thread's 150 µs of
 * busy time, each instant once. With a tolerance of 0 addmm is drawn on a row of its
 * own: the numbers do not move. */
static void
test_overrun_keeps_durations (void)
{
  const char *text
      = "[{\"ph\": \"X\", \"name\": \"aten::linear\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": "
        "100},"
        " {\"ph\": \"X\", \"name\": \"aten::t\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 10},"
        " {\"ph\": \"X\", \"name\": \"aten::addmm\", \"pid\": 1, \"tid\": 1, \"ts\": 12, \"dur\": "
        "89},"
        " {\"ph\": \"X\", \"name\": \"launch\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": 10},"
        " {\"ph\": \"X\", \"name\": \"next\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 50},"
        " {\"ph\": \"X\", \"name\": \"child\", \"pid\": 1, \"tid\": 1, \"ts\": 100.5, \"dur\": "
        "10}]";
  gint64 saved = iv_trace_get_overlap_tolerance ();

  for (int strict = 0; strict < 2; strict++)
    {
      g_autoptr (IvTrace) t = NULL;
      gsize addmm, linear, next, child;
      const IvRow *row;
      iv_trace_set_overlap_tolerance (strict ? 0 : 1000);
      t = load_text ("overrun.json", text);
      iv_trace_set_overlap_tolerance (saved);
      addmm = find_slice (t, "aten::addmm"), linear = find_slice (t, "aten::linear");
      next = find_slice (t, "next"), child = find_slice (t, "child");
      row = &g_array_index (t->rows, IvRow, t->row[addmm]);
      g_assert_cmpint (t->dur_ns[addmm], ==, 89000);
      g_assert_cmpint (t->self_ns[addmm], ==, 78000);
      g_assert_cmpint (t->self_ns[linear], ==, 2000);
      g_assert_cmpint (t->self_ns[next], ==, 40000);
      g_assert_cmpint (t->self_ns[child], ==, 10000);
      g_assert_cmpint (t->overlap_tolerance_ns, ==, strict ? 0 : 1000);
      if (!strict)
        {
          /* nested, and "next" (at 100, where linear ends) is linear's sibling, though
           * addmm's recorded end is 101 */
          g_assert_false (row->overflow);
          g_assert_cmpuint (row->depth, ==, 1);
          g_assert_cmpuint (t->n_overrun, ==, 1);
          g_assert_cmpint (t->max_overrun_ns, ==, 1000);
          g_assert_cmpuint (g_array_index (t->rows, IvRow, t->row[next]).depth, ==, 0);
          g_assert_true (has_warning (t, "1 slices overrun their parent by at most 1 µs"));
        }
      else
        {
          g_assert_true (row->overflow);
          g_assert_cmpuint (t->n_overrun, ==, 0);
          g_assert_cmpuint (t->n_partial, ==, 1);
        }
      /* addmm [12, 101) ends after next's child starts (100.5): a view starting at 100.7
       * still finds it on its row */
      {
        g_autoptr (GArray) items = g_array_new (FALSE, FALSE, sizeof (IvLodItem));
        gboolean seen = FALSE;
        iv_trace_lod_row (t, t->row[addmm], 100700, 110000, 1000, items);
        for (guint i = 0; i < items->len; i++)
          seen |= g_array_index (items, IvLodItem, i).slice == addmm;
        g_assert_true (seen);
      }
    }
}

/* Spans that did not end: a B never closed, an async b never ended. They are drawn to
 * the end of the trace and kept out of the statistics (unless asked for), and they never
 * take time from a closed slice: "outer" [0, 50) keeps its 50 µs though "open" begins
 * inside it at 10 and runs on. */
static void
test_open_spans (void)
{
  g_autoptr (IvTrace) t = load_text (
      "open.json",
      "[{\"ph\": \"X\", \"name\": \"outer\", \"pid\": 1, \"tid\": 3, \"ts\": 0, \"dur\": 50},"
      " {\"ph\": \"B\", \"name\": \"open\", \"pid\": 1, \"tid\": 3, \"ts\": 10},"
      " {\"ph\": \"b\", \"name\": \"req\", \"cat\": \"net\", \"id\": \"1\", \"pid\": 1, \"ts\": "
      "20},"
      " {\"ph\": \"b\", \"name\": \"req\", \"cat\": \"net\", \"id\": \"2\", \"pid\": 1, \"ts\": "
      "30},"
      " {\"ph\": \"e\", \"name\": \"req\", \"cat\": \"net\", \"id\": \"2\", \"pid\": 1, \"ts\": "
      "40},"
      " {\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 3, \"ts\": 100}]");
  gsize outer = find_slice (t, "outer"), open = find_slice (t, "open");
  g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
  g_autoptr (GArray) all
      = iv_trace_stats_by_name_full (t, G_MININT64, G_MAXINT64, IV_STATS_INCLUDE_OPEN, NULL);
  g_autoptr (GArray) part = iv_trace_stats_by_name (t, 0, 25000);

  g_assert_cmpuint (t->n_open, ==, 2);
  g_assert_true (iv_trace_slice_is_open (t, open));
  g_assert_false (iv_trace_slice_is_open (t, outer));
  g_assert_cmpint (t->dur_ns[open], ==, 90000); /* drawn to the end */
  g_assert_cmpint (t->self_ns[outer], ==, 50000);
  g_assert_cmpint (t->self_ns[open], ==, 50000);
  g_assert_true (has_warning (t, "1 begin events (B) did not end"));
  g_assert_true (has_warning (t, "1 async spans (b) did not end"));
  for (int pass = 0; pass < 3; pass++)
    {
      GArray *a = pass == 0 ? stats : pass == 1 ? all : part;
      guint seen = 0;
      for (guint i = 0; i < a->len; i++)
        {
          const IvNameStats *s = &g_array_index (a, IvNameStats, i);
          const char *name = iv_trace_string (t, s->name);
          if (g_str_equal (name, "open"))
            {
              seen++;
              g_assert_cmpuint (s->open, ==, 1);
              g_assert_cmpuint (s->count, ==, pass == 1 ? 1 : 0);
              g_assert_cmpint (s->total_ns, ==, pass == 1 ? 90000 : 0);
            }
          else if (g_str_equal (name, "req"))
            {
              /* one closed [30, 40), one open from 20 */
              seen++;
              g_assert_cmpuint (s->open, ==, 1);
              g_assert_cmpuint (s->count, ==, pass == 0 ? 1 : pass == 1 ? 2 : 0);
              g_assert_cmpint (s->total_ns, ==, pass == 0 ? 10000 : pass == 1 ? 90000 : 0);
            }
          else if (g_str_equal (name, "outer"))
            {
              seen++;
              g_assert_cmpint (s->total_ns, ==, pass == 2 ? 25000 : 50000);
              g_assert_cmpint (s->self_ns, ==, pass == 2 ? 25000 : 50000);
            }
        }
      g_assert_cmpuint (seen, ==, 3);
    }
}

/* A range's statistics are Perfetto's area selection's: the slices that intersect it,
 * their durations clipped to it, and self time the part of the range each had to itself.
 * By hand: A [0, 100) ⊃ B [20, 40), C [60, 100) ⊃ D [60, 61); the range [30, 70): A 40 µs,
 * self 40 − 10 − 10 = 20; B 10 of its 20; C 10, self 9; D 1. */
static void
test_range_stats (void)
{
  g_autoptr (IvTrace) t = load_text (
      "range.json",
      "[{\"ph\": \"X\", \"name\": \"A\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 100},"
      " {\"ph\": \"X\", \"name\": \"B\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": 20},"
      " {\"ph\": \"X\", \"name\": \"C\", \"pid\": 1, \"tid\": 1, \"ts\": 60, \"dur\": 40},"
      " {\"ph\": \"X\", \"name\": \"D\", \"pid\": 1, \"tid\": 1, \"ts\": 60, \"dur\": 1},"
      " {\"ph\": \"X\", \"name\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 70, \"dur\": 0}]");
  g_autoptr (GArray) part = iv_trace_stats_by_name (t, 30000, 70000);
  static const struct
  {
    const char *name;
    gint64 total, self;
  } want[]
      = { { "A", 40000, 20000 }, { "B", 10000, 10000 }, { "C", 10000, 9000 }, { "D", 1000, 1000 } };

  /* E, at the range's end, is not in it */
  g_assert_cmpuint (part->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < part->len; i++)
    {
      const IvNameStats *s = &g_array_index (part, IvNameStats, i);
      for (guint k = 0; k < G_N_ELEMENTS (want); k++)
        if (g_str_equal (iv_trace_string (t, s->name), want[k].name))
          {
            g_assert_cmpuint (s->count, ==, 1);
            g_assert_cmpint (s->total_ns, ==, want[k].total);
            g_assert_cmpint (s->self_ns, ==, want[k].self);
          }
    }
}

/* The range code (clipping, self time within the range) gives the load's numbers when the
 * range clips nothing, on every public trace: [start, end] is worked out slice by slice,
 * the whole trace from the columns. (A zero-length slice at the very end is the one
 * thing [start, end) leaves out.) */
static void
test_range_matches_whole (void)
{
  g_autoptr (GDir) dir = NULL;
  g_autofree char *folder = g_build_filename (g_getenv ("IV_TEST_DATA"), "traces", NULL);
  const char *name;

  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr (IvTrace) t = NULL;
      g_autoptr (GArray) whole = NULL, ranged = NULL;
      g_autoptr (GHashTable) at_end = g_hash_table_new (g_direct_hash, g_direct_equal);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      t = iv_trace_load (path, NULL, NULL, NULL, NULL);
      if (!t)
        continue;
      g_test_message ("%s", name);
      for (gsize s = 0; s < t->n_slices; s++)
        if (t->dur_ns[s] == 0 && t->start_ns[s] == t->t1_ns)
          g_hash_table_add (at_end, GUINT_TO_POINTER (t->name[s] + 1));
      whole = iv_trace_stats_by_name_full (t, G_MININT64, G_MAXINT64, IV_STATS_INCLUDE_OPEN, NULL);
      ranged = iv_trace_stats_by_name_full (t, t->t0_ns, t->t1_ns, IV_STATS_INCLUDE_OPEN, NULL);
      g_assert_nonnull (whole);
      g_assert_nonnull (ranged);
      for (guint i = 0; i < whole->len; i++)
        {
          const IvNameStats *a = &g_array_index (whole, IvNameStats, i);
          gboolean found = FALSE;
          if (g_hash_table_contains (at_end, GUINT_TO_POINTER (a->name + 1)))
            continue;
          for (guint k = 0; k < ranged->len && !found; k++)
            {
              const IvNameStats *b = &g_array_index (ranged, IvNameStats, k);
              if (b->name != a->name || b->kind != a->kind)
                continue;
              found = TRUE;
              g_assert_cmpuint (b->count, ==, a->count);
              g_assert_cmpint (b->total_ns, ==, a->total_ns);
              g_assert_cmpint (b->self_ns, ==, a->self_ns);
              g_assert_cmpint (b->min_ns, ==, a->min_ns);
              g_assert_cmpint (b->max_ns, ==, a->max_ns);
            }
          g_assert_true (found);
        }
    }
}

static void
test_pipelined (void)
{
  /* Candidate 3 waits for a free buffer [10, 20) ms, then reads [20, 45.2): its I/O, as the
   * reference draws it, is [20, 45.2). GPU compute of candidate 2 [0, 30) ms on buffer 0
   * and of candidate 3 [49.3, 129.3) ms on buffer 1. I/O under GPU: [20, 30) = 10 ms;
   * exposed 15.2 ms. */
  g_autoptr (IvTrace) t = load_text (
      "pipe.json",
      "{\"format\": \"pipelined_timeline_v2\", \"timeline_record_from\": 2, \"events\": ["
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 0, \"dur_ms\": 30, \"candidate\": "
      "2},"
      "{\"lane\": \"io\", \"name\": \"gpu_buffer_wait\", \"start_ms\": 10.0, \"dur_ms\": 10.0, "
      "\"candidate\": 3},"
      "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 20.0, \"dur_ms\": 25.2, "
      "\"candidate\": 3},"
      "{\"lane\": \"main\", \"name\": \"wait_for_io\", \"start_ms\": 45.1, \"dur_ms\": 4.0, "
      "\"candidate\": 3},"
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 49.3, \"dur_ms\": 80.0, "
      "\"candidate\": 3, \"buffer\": 1}]}");
  IvCandidate *c3 = NULL;

  g_assert_cmpint (t->format, ==, IV_TRACE_PIPELINED);
  g_assert_cmpint (t->start_candidate, ==, 2);
  g_assert_cmpint (t->num_candidates, ==, 3);
  g_assert_cmpuint (t->n_slices, ==, 5);
  /* Lanes in order: main, I/O, GPU stream 0, GPU stream 1. */
  g_assert_cmpuint (t->tracks->len, ==, 4);
  g_assert_cmpstr (g_array_index (t->tracks, IvTrack, 0).name, ==, "Main thread");
  g_assert_cmpstr (g_array_index (t->tracks, IvTrack, 1).name, ==, "I/O");
  g_assert_cmpstr (g_array_index (t->tracks, IvTrack, 2).name, ==, "GPU stream 0");
  g_assert_cmpstr (g_array_index (t->tracks, IvTrack, 3).name, ==, "GPU stream 1");
  for (guint i = 0; i < t->candidates->len; i++)
    if (g_array_index (t->candidates, IvCandidate, i).id == 3)
      c3 = &g_array_index (t->candidates, IvCandidate, i);
  g_assert_nonnull (c3);
  g_assert_cmpint (c3->io_start_ns, ==, 20000000);
  g_assert_cmpint (c3->io_end_ns, ==, 45200000);
  g_assert_cmpint (c3->io_hidden_ns, ==, 10000000);
  g_assert_cmpint (c3->io_exposed_ns, ==, 15200000);
  g_assert_cmpint (c3->buffer, ==, 1);
  g_assert_cmpstr (iv_trace_string (t, t->cat[find_slice (t, "hdf5_read")]), ==, "candidate 3");
}

static void
test_breakdown (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "bd.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvBreakdown) bd = NULL;

  g_assert_true (
      g_file_set_contents (path,
                           "{\"format\": \"candidate_breakdown_v1\", \"candidate\": 3, \"gpu_ms\": "
                           "{\"trsm\": 12.1, \"schur_gemm\": 3.0, \"_other_raw\": 0.4}}",
                           -1, NULL));
  bd = iv_breakdown_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bd->candidate, ==, 3);
  g_assert_cmpuint (bd->n_families, ==, 3);
  g_assert_cmpfloat_with_epsilon (bd->total_ms, 15.5, 1e-12);
  g_assert_true (g_file_set_contents (
      path, "{\"format\": \"candidate_breakdown_v1\", \"gpu_ms\": {\"a\": -1}}", -1, NULL));
  g_assert_null (iv_breakdown_load (path, &error) ? (gpointer) 1 : NULL);
}

/* The breakdowns beside a trace: only regular .json files that sniff as breakdowns and
 * read whole, sorted by path; the trace itself, other JSON, a folder, a FIFO and a
 * damaged breakdown are passed over. */
static void
test_breakdowns_beside (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "beside", NULL);
  g_autofree char *trace = g_build_filename (dir, "timeline.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b-breakdown.json", NULL);
  g_autofree char *a = g_build_filename (dir, "a-breakdown.json", NULL);
  g_autofree char *damaged = g_build_filename (dir, "c-breakdown.json", NULL);
  g_autofree char *other = g_build_filename (dir, "other.json", NULL);
  g_autofree char *folder = g_build_filename (dir, "folder.json", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autoptr (GPtrArray) found = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_true (g_file_set_contents (trace, "{\"traceEvents\": []}", -1, NULL));
  g_assert_true (g_file_set_contents (
      b, "{\"format\": \"candidate_breakdown_v1\", \"candidate\": 7, \"gpu_ms\": {\"x\": 1}}", -1,
      NULL));
  g_assert_true (g_file_set_contents (
      a, "{\"format\": \"candidate_breakdown_v1\", \"candidate\": 2, \"gpu_ms\": {\"y\": 2.5}}", -1,
      NULL));
  g_assert_true (g_file_set_contents (
      damaged, "{\"format\": \"candidate_breakdown_v1\", \"gpu_ms\": {\"z\": -1}}", -1, NULL));
  g_assert_true (g_file_set_contents (other, "{\"a\": 1}", -1, NULL));

  found = iv_breakdowns_beside (trace, NULL);
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_cmpstr (((IvBreakdownFile *) found->pdata[0])->path, ==, a);
  g_assert_cmpint (((IvBreakdownFile *) found->pdata[0])->breakdown->candidate, ==, 2);
  g_assert_cmpfloat (((IvBreakdownFile *) found->pdata[0])->breakdown->total_ms, ==, 2.5);
  g_assert_cmpstr (((IvBreakdownFile *) found->pdata[1])->path, ==, b);
  g_assert_cmpint (((IvBreakdownFile *) found->pdata[1])->breakdown->candidate, ==, 7);
  g_unlink (fifo);
}

/* The report trace --stats and the window's area print: on HTA's DDP trace, stream 7's
 * 3,753 kernels and their union of 118.309345 ms (the issue's figures, checked against a
 * decimal parse in test-trace-stats.py), the GPU busy time by class summing to the busy
 * time, and a range that reports only what intersects it. */
static void
test_report (void)
{
  g_autofree char *path = shared ("kineto_hta_nccl_ddp_rank0.json.gz");
  g_autoptr (IvTrace) t = iv_trace_load (path, NULL, NULL, NULL, NULL);
  g_autoptr (IvTraceReport) whole = NULL, early = NULL;
  g_autoptr (GError) error = NULL;
  gint64 sum = 0;
  gboolean seen = FALSE;

  g_assert_nonnull (t);
  whole = iv_trace_report_new (t, G_MININT64, G_MAXINT64, FALSE, IV_STATS_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_false (whole->scoped);
  g_assert_cmpuint (whole->open, ==, 0);
  for (guint i = 0; i < whole->gpu->streams->len; i++)
    {
      const IvStreamStats *st = &g_array_index (whole->gpu->streams, IvStreamStats, i);
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, st->track);
      if (g_str_equal (tr->key, "7"))
        {
          seen = TRUE;
          g_assert_cmpuint (st->kernels, ==, 3753);
          g_assert_cmpint (st->busy_ns, ==, 118309345);
        }
    }
  g_assert_true (seen);
  for (int k = 0; k < IV_N_KCLASSES; k++)
    sum += whole->class_ns[k];
  g_assert_cmpint (sum, ==, whole->busy_ns);
  g_assert_cmpint (whole->busy_ns, >=, 118309345);
  /* the first millisecond of the work: less of everything, nothing outside it */
  early = iv_trace_report_new (t, t->t0_ns, t->t0_ns + 1000000, TRUE, IV_STATS_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_true (early->scoped);
  g_assert_cmpint (early->busy_ns, <=, 1000000);
  g_assert_cmpint (early->busy_ns, <, whole->busy_ns);
}

static void
test_memory_per_slice (void)
{
  g_autofree char *path = shared ("kineto_train_rank0_68k_events.json.gz");
  g_autoptr (IvTrace) t = NULL;

  t = iv_trace_load (path, NULL, NULL, NULL, NULL);
  /* Columns: ≤ 64 bytes per slice plus interned strings (rows and tracks are few). */
  g_assert_cmpuint (iv_trace_memory_bytes (t) - iv_intern_bytes (t->strings)
                        - t->instants->len * sizeof (IvInstant) - t->flows->len * sizeof (IvFlow),
                    <=, 64 * t->n_slices);
}

static guint32
tl_pixel (cairo_surface_t *s, double x, double y)
{
  int ix = (int) floor (x), iy = (int) floor (y);
  return ((guint32 *) (cairo_image_surface_get_data (s)
                       + iy * cairo_image_surface_get_stride (s)))[ix]
         & 0xffffff;
}

static guint32
rgb24 (IvColor c)
{
  return (guint32) lround (c.r * 255) << 16 | (guint32) lround (c.g * 255) << 8
         | (guint32) lround (c.b * 255);
}

static guint
row_of (const IvTrace *t, const char *tid, guint depth)
{
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (g_strcmp0 (tr->key, tid) == 0)
        return tr->first_row + depth;
    }
  g_assert_not_reached ();
}

/* The timeline draws each slice where its time says, in its name's colour, with its name
 * inside when it fits; 200 slices of 100 ns inside 20 µs at this zoom become one merged,
 * lighter block. */
static void
test_timeline_render (void)
{
  g_autoptr (GString) json = g_string_new (
      "{\"traceEvents\": ["
      "{\"ph\": \"X\", \"name\": \"Alpha\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1000},"
      "{\"ph\": \"X\", \"name\": \"Beta\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 200}");
  g_autoptr (IvTrace) t = NULL;
  IvTimelineFigure fig;
  IvTimelineLayout L = { 0 };
  cairo_surface_t *s;
  cairo_t *cr;
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  double y, x;
  guint32 alpha_rgb, tiny_rgb;
  gboolean label_ink = FALSE;

  for (int i = 0; i < 200; i++)
    g_string_append_printf (json,
                            ", {\"ph\": \"X\", \"name\": \"tiny\", \"pid\": 1, \"tid\": 2, "
                            "\"ts\": %.1f, \"dur\": 0.1}",
                            2000 + i * 0.1);
  /* A flow from inside Alpha (500 µs) to the tiny slice at 2005 µs on thread 2. */
  g_string_append (json, ", {\"ph\": \"s\", \"id\": 7, \"name\": \"flow\", \"cat\": \"c\", "
                         "\"pid\": 1, \"tid\": 1, \"ts\": 500},"
                         " {\"ph\": \"f\", \"bp\": \"e\", \"id\": 7, \"name\": \"flow\", \"cat\": "
                         "\"c\", \"pid\": 1, \"tid\": 2, \"ts\": 2005.05}");
  g_string_append (json, "]}");
  t = load_text ("timeline.json", json->str);
  fig = (IvTimelineFigure){
    t, t->t0_ns, t->t0_ns + 3000000, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL
  };
  iv_timeline_layout (&fig, 1000, 400, &L);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
  cr = cairo_create (s);
  g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
  cairo_destroy (cr);
  cairo_surface_flush (s);

  /* Alpha: 0–1000 µs of a 3000 µs view across plot_w pixels; sampled at 700 µs, clear
   * of its label at the left end. */
  y = g_array_index (L.row_y, double, row_of (t, "1", 0)) + L.row_h / 2;
  x = L.plot_x + 700.0 / 3000.0 * L.plot_w;
  g_assert_cmpfloat (fabs (iv_timeline_x (&L, t->t0_ns + 700000) - x), <, 1e-6);
  alpha_rgb = rgb24 (iv_timeline_slice_color (&fig, 0, IV_THEME_LIGHT));
  g_assert_cmphex (tl_pixel (s, x, y), ==, alpha_rgb);
  /* Its name is inside: some pixel of the first 40 px after the left edge is ink. */
  for (double lx = L.plot_x + 3; lx < L.plot_x + 40; lx++)
    label_ink |= tl_pixel (s, lx, y) != alpha_rgb;
  g_assert_true (label_ink);
  /* Beta (100–300 µs) one row down, in its own colour. */
  y = g_array_index (L.row_y, double, row_of (t, "1", 1)) + L.row_h / 2;
  g_assert_cmphex (tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 250000), y), ==,
                   rgb24 (iv_timeline_slice_color (&fig, t->n_slices > 1 ? 1 : 0, IV_THEME_LIGHT)));
  /* The tiny run: the name's colour at 55 % over white. */
  {
    IvColor c = iv_palette_color (IV_THEME_LIGHT, iv_palette_index_for ("tiny"));
    guint32 got;
    int r, g, b;
    y = g_array_index (L.row_y, double, row_of (t, "2", 0)) + L.row_h / 2;
    got = tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 2010000), y);
    r = got >> 16 & 0xff, g = got >> 8 & 0xff, b = got & 0xff;
    tiny_rgb = rgb24 ((IvColor){ c.r * 0.55 + 0.45, c.g * 0.55 + 0.45, c.b * 0.55 + 0.45, 1 });
    g_assert_cmpint (ABS (r - (int) (tiny_rgb >> 16 & 0xff)), <=, 2);
    g_assert_cmpint (ABS (g - (int) (tiny_rgb >> 8 & 0xff)), <=, 2);
    g_assert_cmpint (ABS (b - (int) (tiny_rgb & 0xff)), <=, 2);
    /* Nothing between Alpha's end and the run (clear of the ruler's grid lines). */
    g_assert_cmphex (tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 1730000), y), ==, 0xffffff);
  }
  /* Hit testing finds the same slices where they were drawn, and nothing in the gap. */
  {
    gsize alpha = G_MAXSIZE, beta = G_MAXSIZE;
    double y0 = g_array_index (L.row_y, double, row_of (t, "1", 0)) + L.row_h / 2;
    double y1 = g_array_index (L.row_y, double, row_of (t, "1", 1)) + L.row_h / 2;
    for (gsize i = 0; i < t->n_slices; i++)
      {
        if (g_str_equal (iv_trace_string (t, t->name[i]), "Alpha"))
          alpha = i;
        if (g_str_equal (iv_trace_string (t, t->name[i]), "Beta"))
          beta = i;
      }
    g_assert_cmpuint (iv_timeline_slice_at (&fig, &L, iv_timeline_x (&L, t->t0_ns + 700000), y0),
                      ==, alpha);
    g_assert_cmpuint (iv_timeline_slice_at (&fig, &L, iv_timeline_x (&L, t->t0_ns + 250000), y1),
                      ==, beta);
    g_assert_cmpuint (iv_timeline_slice_at (&fig, &L, iv_timeline_x (&L, t->t0_ns + 1500000), y0),
                      ==, G_MAXSIZE);
    g_assert_cmpuint (iv_timeline_slice_at (&fig, &L, 5, y0), ==, G_MAXSIZE);
  }
  /* Selecting Alpha draws its flow: the arrowhead ends at 2005 µs on thread 2's row. */
  {
    gsize alpha = G_MAXSIZE;
    guint32 tip;
    for (gsize i = 0; i < t->n_slices; i++)
      if (g_str_equal (iv_trace_string (t, t->name[i]), "Alpha"))
        alpha = i;
    g_assert_cmpuint (t->flows->len, ==, 1);
    g_assert_cmpuint (g_array_index (t->flows, IvFlow, 0).from, ==, alpha);
    fig.selected = alpha;
    cr = cairo_create (s);
    g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
    cairo_destroy (cr);
    cairo_surface_flush (s);
    y = g_array_index (L.row_y, double, row_of (t, "2", 0)) + L.row_h / 2;
    tip = tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 2005050) - 2, y);
    g_assert_cmpuint (tip >> 16 & 0xff, <, 0x60);
    g_assert_cmpuint (tip >> 8 & 0xff, <, 0x60);
    g_assert_cmpuint (tip & 0xff, <, 0x60);
    /* Nothing selected: no arrow, unless every flow is asked for. */
    for (int all = 0; all < 2; all++)
      {
        fig.selected = G_MAXSIZE;
        fig.all_flows = all;
        cr = cairo_create (s);
        g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
        cairo_destroy (cr);
        cairo_surface_flush (s);
        tip = tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 2005050) - 2, y);
        g_assert_cmpint ((tip >> 16 & 0xff) < 0x60, ==, all);
      }
    fig.all_flows = FALSE;
  }
  /* Folding the process keeps its header (a click there finds it) and hides its rows. */
  {
    g_autoptr (GByteArray) folded = g_byte_array_new ();
    double hy;
    g_byte_array_set_size (folded, t->processes->len);
    memset (folded->data, 1, folded->len);
    fig.collapsed = folded;
    iv_timeline_layout (&fig, 1000, 400, &L);
    hy = g_array_index (L.header_y, double, 0);
    g_assert_cmpfloat (hy, >, 0);
    g_assert_cmpuint (iv_timeline_header_at (&L, hy + 5), ==, 0);
    g_assert_cmpuint (iv_timeline_header_at (&L, hy - 20), ==, G_MAXUINT);
    for (guint r = 0; r < t->rows->len; r++)
      g_assert_cmpfloat (g_array_index (L.row_y, double, r), <, 0);
    fig.collapsed = NULL;
  }
  iv_timeline_layout_clear (&L);
  cairo_surface_destroy (s);
}

/* A counter is a step area scaled to its maximum: at 1.3 ms it holds its maximum (20),
 * at 2.7 ms a quarter of it (5), so a pixel halfway up the band is filled at the first
 * and empty at the second. */
static void
test_timeline_counter (void)
{
  g_autoptr (IvTrace) t = load_text (
      "counter.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"X\", \"name\": \"work\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 3000},"
      "{\"ph\": \"C\", \"name\": \"memory\", \"pid\": 1, \"ts\": 0, \"args\": {\"bytes\": 10}},"
      "{\"ph\": \"C\", \"name\": \"memory\", \"pid\": 1, \"ts\": 1000, \"args\": {\"bytes\": 20}},"
      "{\"ph\": \"C\", \"name\": \"memory\", \"pid\": 1, \"ts\": 2000, \"args\": {\"bytes\": "
      "5}}]}");
  IvTimelineFigure fig = { t, t->t0_ns, t->t0_ns + 3000000, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
  IvTimelineLayout L = { 0 };
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
  cairo_t *cr = cairo_create (s);
  double sy, mid;

  g_assert_cmpuint (t->series->len, ==, 1);
  g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
  cairo_destroy (cr);
  cairo_surface_flush (s);
  iv_timeline_layout (&fig, 1000, 400, &L);
  sy = g_array_index (L.series_y, double, 0);
  g_assert_cmpfloat (sy, >, 0);
  mid = sy + L.series_h / 2;
  g_assert_cmphex (tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 1300000), mid), !=, 0xffffff);
  g_assert_cmphex (tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 2700000), mid), ==, 0xffffff);
  /* …and the bottom of the band is filled at 2.7 ms too (clear of the ruler's grid lines). */
  g_assert_cmphex (tl_pixel (s, iv_timeline_x (&L, t->t0_ns + 2700000), sy + L.series_h - 3), !=,
                   0xffffff);
  iv_timeline_layout_clear (&L);
  cairo_surface_destroy (s);
}

/* Series of one counter track that arrive interleaved with another track's are grouped
 * (first_series … + n_series) with their samples, and the layout gives each its band. */
static void
test_counter_series_grouped (void)
{
  g_autoptr (IvTrace) t = load_text (
      "counters2.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": 0, \"args\": {\"a\": 1}},"
      "{\"ph\": \"C\", \"name\": \"net\", \"pid\": 1, \"ts\": 0, \"args\": {\"x\": 100}},"
      "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": 5, \"args\": {\"b\": 7}},"
      "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"ts\": 9, \"args\": {\"a\": 3}}]}");
  IvTimelineFigure fig = { t, t->t0_ns, t->t1_ns, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
  IvTimelineLayout L = { 0 };
  guint seen = 0;

  /* three series: mem·a, net·x, mem·b, in that order of first appearance */
  g_assert_cmpuint (t->series->len, ==, 3);
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      for (guint i = tr->first_series; i < tr->first_series + tr->n_series; i++)
        {
          const IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, i);
          const char *name = iv_trace_string (t, se->name);
          g_assert_cmpuint (se->track, ==, k);
          seen++;
          /* each series reads "counter · key" */
          if (g_str_equal (name, "mem · a"))
            {
              /* samples at 0 and 9 µs: 1 then 3 */
              g_assert_cmpuint (se->n, ==, 2);
              g_assert_cmpfloat (t->sample_value[se->first], ==, 1);
              g_assert_cmpfloat (t->sample_value[se->first + 1], ==, 3);
              g_assert_cmpint (t->sample_ns[se->first + 1], ==, 9000);
            }
          else if (g_str_equal (name, "mem · b"))
            g_assert_true (se->n == 1 && t->sample_value[se->first] == 7);
          else
            g_assert_true (g_str_equal (name, "net · x") && se->n == 1
                           && t->sample_value[se->first] == 100);
        }
    }
  g_assert_cmpuint (seen, ==, 3);
  /* mem's two series are next to each other: same track, adjacent bands */
  iv_timeline_layout (&fig, 800, 600, &L);
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (tr->n_series == 2)
        g_assert_cmpfloat (g_array_index (L.series_y, double, tr->first_series + 1)
                               - g_array_index (L.series_y, double, tr->first_series),
                           ==, L.series_h);
    }
  iv_timeline_layout_clear (&L);
}

/* ---------- pipelined I/O timelines: the reference script's rules ---------- */

/* Written as the old paraphrase had it (the buffer wait after the reads), times in ms:
 *   0: GPU [0, 20) buffer 0; trsm_host [24, 29).
 *   1: reads [5, 12), [13, 18), then gpu_buffer_wait [18, 21): the reference's bar runs
 *      from the wait's end (21) to the reads' end (18) — empty, so not drawn;
 *      wait_for_io [2, 5); GPU [30, 50) on buffer 1 (1 % 2).
 *   2: reads [22, 40); GPU [40.5, 60) on buffer 0: a 0.5 ms gap, not filled.
 *   3: reads [45, 70); GPU [70, 90) on buffer 1: no gap. */
static const char pipe_file[] = "{\"format\": \"pipelined_timeline_v1\", \"focus_candidate\": 1, "
                                "\"num_candidates\": 2, \"events\": ["
                                "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 0, "
                                "\"dur_ms\": 20, \"candidate\": 0, \"buffer\": 0},"
                                "{\"lane\": \"main\", \"name\": \"trsm_host\", \"start_ms\": 24, "
                                "\"dur_ms\": 5, \"candidate\": 0},"
                                "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 5, "
                                "\"dur_ms\": 7, \"candidate\": 1},"
                                "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 13, "
                                "\"dur_ms\": 5, \"candidate\": 1},"
                                "{\"lane\": \"io\", \"name\": \"gpu_buffer_wait\", \"start_ms\": "
                                "18, \"dur_ms\": 3, \"candidate\": 1},"
                                "{\"lane\": \"main\", \"name\": \"wait_for_io\", \"start_ms\": 2, "
                                "\"dur_ms\": 3, \"candidate\": 1},"
                                "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 30, "
                                "\"dur_ms\": 20, \"candidate\": 1},"
                                "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 22, "
                                "\"dur_ms\": 18, \"candidate\": 2},"
                                "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 40.5, "
                                "\"dur_ms\": 19.5, \"candidate\": 2},"
                                "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 45, "
                                "\"dur_ms\": 25, \"candidate\": 3},"
                                "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 70, "
                                "\"dur_ms\": 20, \"candidate\": 3}]}";

/* In the reference's layout (wait, then reads), ms:
 *   0: GPU [0, 50) buffer 0.
 *   1: wait [0, 10), reads [10, 30), [31, 40) → I/O bar [10, 40); GPU [55, 100) buffer 1:
 *      the 15 ms gap [40, 55) is covered by nothing → await_dispatch.
 *   2: wait [40, 52), read [52, 60) → [52, 60); wait_for_io [59.96, 101.04) covers the gap
 *      [60, 101) within 0.05 ms → no fill; GPU [101, 150) buffer 0. */
static const char pipe_ref_file[]
    = "{\"format\": \"pipelined_timeline_v2\", \"start_candidate\": 1, \"events\": ["
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 0, \"dur_ms\": 50, \"candidate\": "
      "0},"
      "{\"lane\": \"io\", \"name\": \"gpu_buffer_wait\", \"start_ms\": 0, \"dur_ms\": 10, "
      "\"candidate\": 1},"
      "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 10, \"dur_ms\": 20, "
      "\"candidate\": 1},"
      "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 31, \"dur_ms\": 9, \"candidate\": "
      "1},"
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 55, \"dur_ms\": 45, \"candidate\": "
      "1},"
      "{\"lane\": \"io\", \"name\": \"gpu_buffer_wait\", \"start_ms\": 40, \"dur_ms\": 12, "
      "\"candidate\": 2},"
      "{\"lane\": \"io\", \"name\": \"hdf5_read\", \"start_ms\": 52, \"dur_ms\": 8, \"candidate\": "
      "2},"
      "{\"lane\": \"main\", \"name\": \"wait_for_io\", \"start_ms\": 59.96, \"dur_ms\": 41.08, "
      "\"candidate\": 2},"
      "{\"lane\": \"gpu\", \"name\": \"compute\", \"start_ms\": 101, \"dur_ms\": 49, "
      "\"candidate\": 2}]}";

#define MS(x) ((gint64) llround ((x) *1000000.0))

/* The bar of @lane and @candidate (and @kind), or NULL. */
static const IvPipelineBar *
find_bar (const IvPipelinePlot *p, IvLane lane, IvBarKind kind, gint64 candidate)
{
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      if (b->lane == lane && b->kind == kind && b->candidate == candidate)
        return b;
    }
  return NULL;
}

static void
assert_bar (const IvPipelinePlot *p, IvLane lane, IvBarKind kind, gint64 candidate,
            const char *name, double start_ms, double end_ms, gboolean cut_left, gboolean labelled)
{
  const IvPipelineBar *b = find_bar (p, lane, kind, candidate);
  if (!b)
    g_error ("no %s bar of candidate %" G_GINT64_FORMAT, name, candidate);
  g_assert_cmpstr (b->name, ==, name);
  g_assert_cmpint (b->start_ns, ==, MS (start_ms));
  g_assert_cmpint (b->end_ns, ==, MS (end_ms));
  g_assert_cmpint (b->cut_left, ==, cut_left);
  g_assert_false (b->cut_right);
  g_assert_cmpint (b->labelled, ==, labelled);
}

static void
assert_legend (const IvPipelinePlot *p, const char *const *labels)
{
  guint n = g_strv_length ((char **) labels);
  g_assert_cmpuint (p->legend->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (g_array_index (p->legend, IvPipelineKey, i).label, ==, labels[i]);
}

static void
test_pipeline_plot (void)
{
  g_autoptr (IvTrace) t = load_text ("pipe-plot.json", pipe_file);
  g_autoptr (IvTrace) r = load_text ("pipe-ref.json", pipe_ref_file);
  g_autoptr (IvPipelinePlot) p = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (iv_pipeline_plot_supported (t));
  /* x = 1 (focus_candidate): anchored at GPU 1 (30) and I/O 2 (22) → 22; the core 1…4
   * ends at 90; + 3 % of 68 ms = 92.04. Candidate 1's I/O is empty (its wait ends after its
   * reads), its wait_for_io and GPU 0 end before the window, trsm_host is candidate 0's:
   * main is not in the range at all. */
  p = iv_pipeline_plot_new (t, -1, &error);
  g_assert_no_error (error);
  g_assert_false (p->legacy);
  g_assert_cmpint (p->first_candidate, ==, 1);
  g_assert_cmpint (p->min_candidate, ==, 0);
  g_assert_cmpint (p->max_candidate, ==, 3);
  g_assert_cmpint (p->t0_ns, ==, MS (22));
  g_assert_cmpint (p->t1_ns, ==, MS (92.04));
  g_assert_cmpuint (p->bars->len, ==, 5);
  g_assert_null (find_bar (p, IV_LANE_IO, IV_BAR_MERGED_IO, 1));
  assert_bar (p, IV_LANE_IO, IV_BAR_MERGED_IO, 2, "hdf5_io", 22, 40, FALSE, FALSE);
  assert_bar (p, IV_LANE_IO, IV_BAR_MERGED_IO, 3, "hdf5_io", 45, 70, FALSE, FALSE);
  assert_bar (p, IV_LANE_GPU1, IV_BAR_EVENT, 1, "compute", 30, 50, FALSE, FALSE);
  assert_bar (p, IV_LANE_GPU0, IV_BAR_EVENT, 2, "compute", 40.5, 60, FALSE, FALSE);
  assert_bar (p, IV_LANE_GPU1, IV_BAR_EVENT, 3, "compute", 70, 90, FALSE, FALSE);
  g_assert_null (find_bar (p, IV_LANE_MAIN, IV_BAR_FILLED, 2)); /* a 0.5 ms gap */
  g_assert_true (
      p->has_lane[IV_LANE_MAIN]); /* wait_for_io is drawn in no window here, but exists */
  assert_legend (p, (const char *const[]){ "HDF5 read", "GPU compute", NULL });
  g_clear_pointer (&p, iv_pipeline_plot_free);

  /* x = 0: anchored at GPU 0 (0); the core 0…3 ends at 90 → [0, 92.7]; trsm_host of 0 and
   * wait_for_io of 1 are in; the legend names them in the reference's order. */
  p = iv_pipeline_plot_new (t, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (p->t0_ns, ==, 0);
  g_assert_cmpint (p->t1_ns, ==, MS (92.7));
  g_assert_cmpuint (p->bars->len, ==, 8);
  assert_bar (p, IV_LANE_MAIN, IV_BAR_EVENT, 0, "trsm_host", 24, 29, FALSE, FALSE);
  assert_legend (p, (const char *const[]){ "TRSM (host)", "Wait for prefetch", "HDF5 read",
                                           "GPU compute", NULL });
  g_clear_pointer (&p, iv_pipeline_plot_free);

  /* Past the file's candidates: one error naming the file and what each lane would show. */
  g_assert_null (iv_pipeline_plot_new (t, 9, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "pipe-plot.json"));
  g_assert_nonnull (strstr (error->message, "candidates 0–3"));
  g_clear_error (&error);

  /* The reference layout, x = 1: anchored at min(GPU 1 at 55, I/O 2 at 52) = 52; the core
   * ends at 150; + 3 % of 98 = 152.94. The fill [40, 55) starts 12 ms before the window:
   * cut on the left, 3 ms drawn, no label. GPU 1 (45 ms), GPU 2 (49 ms) and wait_for_io of
   * 2 (41.08 ms) are labelled; the I/O bar of 2 (8 ms) is not; candidate 1's I/O [10, 40)
   * and GPU 0 [0, 50) end before the window. */
  p = iv_pipeline_plot_new (r, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (p->t0_ns, ==, MS (52));
  g_assert_cmpint (p->t1_ns, ==, MS (152.94));
  assert_bar (p, IV_LANE_MAIN, IV_BAR_FILLED, 1, "await_dispatch", 40, 55, TRUE, FALSE);
  assert_bar (p, IV_LANE_IO, IV_BAR_MERGED_IO, 2, "hdf5_io", 52, 60, FALSE, FALSE);
  assert_bar (p, IV_LANE_MAIN, IV_BAR_EVENT, 2, "wait_for_io", 59.96, 101.04, FALSE, TRUE);
  assert_bar (p, IV_LANE_GPU1, IV_BAR_EVENT, 1, "compute", 55, 100, FALSE, TRUE);
  assert_bar (p, IV_LANE_GPU0, IV_BAR_EVENT, 2, "compute", 101, 150, FALSE, TRUE);
  g_assert_null (find_bar (p, IV_LANE_MAIN, IV_BAR_FILLED, 2)); /* covered by wait_for_io */
  g_assert_null (find_bar (p, IV_LANE_IO, IV_BAR_MERGED_IO, 1));
  g_assert_null (find_bar (p, IV_LANE_GPU0, IV_BAR_EVENT, 0));
  g_assert_cmpuint (p->bars->len, ==, 5);
  assert_legend (p, (const char *const[]){ "Wait for prefetch", "Ready → launch", "HDF5 read",
                                           "GPU compute", NULL });
  for (guint l = 0; l < IV_N_LANES; l++)
    g_assert_true (p->has_lane[l]);
}

static void
test_pipeline_legacy (void)
{
  /* Times in µs. The window is Candidate_Eval_0 [1, 51) ms widened by 2 % (1 ms) before
   * and 5 % (2.5 ms) after: [0, 53.5). POSIX_Lustre_Read_* and IO_Wait_For_GPU are I/O,
   * Math_Operations_* and H2D_Transfer_* GPU compute, drawn whole; "prepare" is neither;
   * the read at 55 ms is outside. */
  g_autoptr (IvTrace) t = load_text (
      "legacy.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"X\", \"name\": \"Candidate_Eval_0\", \"pid\": 1, \"tid\": 1, \"ts\": 1000, "
      "\"dur\": 50000},"
      "{\"ph\": \"X\", \"name\": \"prepare\", \"pid\": 1, \"tid\": 1, \"ts\": 1500, \"dur\": 3000},"
      "{\"ph\": \"X\", \"name\": \"POSIX_Lustre_Read_a\", \"pid\": 1, \"tid\": 2, \"ts\": 2000, "
      "\"dur\": 10000},"
      "{\"ph\": \"X\", \"name\": \"IO_Wait_For_GPU\", \"pid\": 1, \"tid\": 2, \"ts\": 18000, "
      "\"dur\": 2000},"
      "{\"ph\": \"X\", \"name\": \"Math_Operations_gemm\", \"pid\": 2, \"tid\": 7, \"ts\": 25000, "
      "\"dur\": 40000},"
      "{\"ph\": \"X\", \"name\": \"H2D_Transfer_x\", \"pid\": 2, \"tid\": 8, \"ts\": 21000, "
      "\"dur\": 3000},"
      "{\"ph\": \"X\", \"name\": \"POSIX_Lustre_Read_c\", \"pid\": 1, \"tid\": 2, \"ts\": 55000, "
      "\"dur\": 10000},"
      "{\"ph\": \"X\", \"name\": \"Candidate_Eval_1\", \"pid\": 1, \"tid\": 1, \"ts\": 60000, "
      "\"dur\": 30000}]}");
  g_autoptr (IvTrace) plain
      = load_text ("plain.json", "[{\"ph\": \"X\", \"name\": \"Candidate_Eval_1\", \"pid\": 1, "
                                 "\"tid\": 1, \"ts\": 0, \"dur\": 5}]");
  g_autoptr (IvPipelinePlot) p = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (iv_pipeline_plot_supported (t));
  g_assert_false (iv_pipeline_plot_supported (plain)); /* no Candidate_Eval_0 */
  p = iv_pipeline_plot_new (t, -1, &error);
  g_assert_no_error (error);
  g_assert_true (p->legacy);
  g_assert_cmpint (p->t0_ns, ==, 0);
  g_assert_cmpint (p->t1_ns, ==, MS (53.5));
  g_assert_cmpuint (p->bars->len, ==, 4);
  g_assert_true (p->has_lane[IV_LANE_IO] && p->has_lane[IV_LANE_GPU0]);
  g_assert_false (p->has_lane[IV_LANE_MAIN] || p->has_lane[IV_LANE_GPU1]);
  for (guint i = 0; i < p->bars->len; i++)
    {
      const IvPipelineBar *b = &g_array_index (p->bars, IvPipelineBar, i);
      gboolean io = g_str_has_prefix (b->name, "POSIX") || g_str_has_prefix (b->name, "IO_Wait");
      g_assert_cmpint (b->lane, ==, io ? IV_LANE_IO : IV_LANE_GPU0);
      g_assert_false (b->cut_left || b->cut_right || b->labelled);
      g_assert_cmpstr (b->name, !=, "POSIX_Lustre_Read_c");
    }
  g_assert_cmpstr (iv_lane_name (IV_LANE_GPU0, TRUE), ==, "GPU compute");
  g_assert_null (iv_pipeline_plot_new (plain, -1, &error));
  g_assert_nonnull (strstr (error->message, "Candidate_Eval_0"));
}

/* The reference's breakdown: families merged, unknown ones and _other_raw into
 * Preprocess, drawn widths at least 1.2 % and renormalised. By hand: Preprocess = h2d_si
 * 0.2 + cast_ii 0.1 + potrf 0.3 (unknown) + _other_raw 0.4 = 1.0 ms, Triangular Solve 12,
 * Cholesky + Schur Complement = schur_gemm 3 + chol 0.1 = 3.1; total 16.1 ms. */
static void
test_breakdown_segments (void)
{
  IvFamily fam[]
      = { { "h2d_si", 0.2 }, { "trsm", 12.0 },   { "_other_raw", 0.4 }, { "schur_gemm", 3.0 },
          { "potrf", 0.3 },  { "cast_ii", 0.1 }, { "chol", 0.1 } };
  IvBreakdown bd = { 3, fam, G_N_ELEMENTS (fam), 16.1 };
  g_autoptr (GArray) segs = iv_breakdown_segments (&bd);
  const IvBreakdownSegment *s = (const IvBreakdownSegment *) segs->data;
  IvFamily tiny_fam[] = { { "trsm", 99.5 }, { "chol", 0.5 } };
  IvBreakdown tiny = { 1, tiny_fam, 2, 100 };
  g_autoptr (GArray) t = iv_breakdown_segments (&tiny);

  g_assert_cmpuint (segs->len, ==, 3);
  g_assert_cmpstr (s[0].label, ==, "Preprocess");
  g_assert_cmpfloat_with_epsilon (s[0].ms, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s[0].pct, 100 * 1.0 / 16.1, 1e-9);
  g_assert_cmpstr (s[1].label, ==, "Triangular Solve");
  g_assert_cmpfloat_with_epsilon (s[1].pct, 100 * 12 / 16.1, 1e-9);
  g_assert_cmpstr (s[2].label, ==, "Cholesky + Schur Complement");
  g_assert_cmpfloat_with_epsilon (s[2].pct, 100 * 3.1 / 16.1, 1e-9);
  g_assert_cmphex (s[0].rgb, ==, 0xAA3377);
  g_assert_cmphex (s[1].rgb, ==, 0x004488);
  g_assert_cmphex (s[2].rgb, ==, 0xC9A227);
  /* 0.5 % is drawn as 1.2 of 100.7: 1.1917 %, the rest 98.8083 % */
  g_assert_cmpuint (t->len, ==, 2);
  g_assert_cmpfloat_with_epsilon (g_array_index (t, IvBreakdownSegment, 1).width, 100 * 1.2 / 100.7,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (t, IvBreakdownSegment, 0).width,
                                  100 * 99.5 / 100.7, 1e-9);
}

static double
color_distance (guint32 px, IvColor c)
{
  guint32 want = rgb24 (c);
  return fabs ((double) ((px >> 16) & 0xff) - ((want >> 16) & 0xff))
         + fabs ((double) ((px >> 8) & 0xff) - ((want >> 8) & 0xff))
         + fabs ((double) (px & 0xff) - (want & 0xff));
}

/* The figure: bars in the reference's colours where the plot puts them, a zig-zag where
 * the window cuts one, the breakdown's segments on the right. */
static void
test_pipelined_render (void)
{
  g_autoptr (IvTrace) t = load_text ("pipe-render.json", pipe_ref_file);
  g_autoptr (IvPipelinePlot) p = iv_pipeline_plot_new (t, -1, NULL);
  IvFamily fam[] = { { "trsm", 12.0 }, { "schur_gemm", 4.0 } };
  IvBreakdown bd = { 1, fam, 2, 16.0 };
  IvPipelinedFigure fig = { t, p, &bd, G_MAXUINT };
  IvRenderOptions ro = { IV_THEME_LIGHT, 1.0 };
  IvPipelinedLayout L;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1440, 460);
  cairo_t *cr = cairo_create (s);
  IvColor io = iv_color_from_rgb (0xB8B8B8, 1), gpu1 = iv_color_from_rgb (0x3DA56A, 1);
  IvColor dispatch = iv_color_from_rgb (0xE67E22, 1), wait = iv_color_from_rgb (0xD35400, 1);
  double y, xl;

  g_assert_nonnull (p);
  g_assert_true (iv_render_pipelined (cr, &fig, &ro, 1440, 460, NULL));
  cairo_surface_flush (s);
  iv_pipelined_layout (&fig, 1440, 460, &L);
  /* lanes top to bottom: Main, I/O, GPU 0, GPU 1 */
  g_assert_cmpfloat (L.lane_y[IV_LANE_MAIN], <, L.lane_y[IV_LANE_IO]);
  g_assert_cmpfloat (L.lane_y[IV_LANE_IO], <, L.lane_y[IV_LANE_GPU0]);
  g_assert_cmpfloat (L.lane_y[IV_LANE_GPU0], <, L.lane_y[IV_LANE_GPU1]);
  /* the I/O bar of candidate 2, [52, 60) ms, in grey; nothing in its lane at 70 ms */
  y = L.lane_y[IV_LANE_IO] + L.lane_h * 0.25;
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_pipelined_x (&fig, &L, MS (56)), y), io), <,
                     6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_pipelined_x (&fig, &L, MS (70)), y), io), >,
                     100);
  /* GPU 1's compute [55, 100) in the second green; wait_for_io of 2 in its orange-red */
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_pipelined_x (&fig, &L, MS (65)),
                                               L.lane_y[IV_LANE_GPU1] + L.lane_h * 0.25),
                                     gpu1),
                     <, 6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_pipelined_x (&fig, &L, MS (80)),
                                               L.lane_y[IV_LANE_MAIN] + L.lane_h * 0.25),
                                     wait),
                     <, 6);
  /* the await_dispatch fill, cut on the left: at the plot's left edge its zig-zag leaves
   * notches (background) between teeth, while 2 px further in it is filled */
  xl = L.plot_x + 2.5;
  {
    guint notches = 0, filled = 0;
    for (y = L.lane_y[IV_LANE_MAIN] + 2; y < L.lane_y[IV_LANE_MAIN] + L.lane_h - 2; y++)
      {
        double d = color_distance (tl_pixel (s, xl, y), dispatch);
        notches += d > 100, filled += d < 6;
      }
    g_assert_cmpuint (notches, >, 3);
    g_assert_cmpuint (filled, >, 3);
  }
  /* one colour per event name: the All Events timeline gives each slice the colour its
   * name has in this figure (wait_for_io, compute on stream 0, the I/O events' grey) */
  {
    IvTimelineFigure tf = { t, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
    g_assert_cmphex (
        rgb24 (iv_timeline_slice_color (&tf, find_slice (t, "wait_for_io"), IV_THEME_LIGHT)), ==,
        rgb24 (wait));
    g_assert_cmphex (
        rgb24 (iv_timeline_slice_color (&tf, find_slice (t, "hdf5_read"), IV_THEME_LIGHT)), ==,
        rgb24 (io));
    g_assert_cmphex (
        rgb24 (iv_timeline_slice_color (&tf, find_slice (t, "compute"), IV_THEME_LIGHT)), ==,
        0x2E8B57);
    g_assert_cmpfloat (color_distance (tl_pixel (s, iv_pipelined_x (&fig, &L, MS (120)),
                                                 L.lane_y[IV_LANE_GPU0] + L.lane_h * 0.25),
                                       iv_color_from_rgb (0x2E8B57, 1)),
                       <, 6);
  }
  /* the breakdown: Triangular Solve (75 %) first from the left in its blue */
  g_assert_cmpfloat (L.bd_w, >, 0);
  g_assert_cmpfloat (
      color_distance (tl_pixel (s, L.bd_x + L.bd_w * 0.3, L.bd_y + L.bd_h * (1 - 0.2 / 0.72)),
                      iv_color_from_rgb (0x004488, 1)),
      <, 6);
  g_assert_cmpfloat (
      color_distance (tl_pixel (s, L.bd_x + L.bd_w * 0.9, L.bd_y + L.bd_h * (1 - 0.2 / 0.72)),
                      iv_color_from_rgb (0xC9A227, 1)),
      <, 6);
  /* hit testing finds the bar under the pointer */
  {
    guint i = iv_pipelined_bar_at (&fig, &L, iv_pipelined_x (&fig, &L, MS (56)),
                                   L.lane_y[IV_LANE_IO] + 10);
    g_assert_cmpuint (i, <, p->bars->len);
    g_assert_cmpint (g_array_index (p->bars, IvPipelineBar, i).candidate, ==, 2);
    g_assert_cmpuint (iv_pipelined_bar_at (&fig, &L, iv_pipelined_x (&fig, &L, MS (70)),
                                           L.lane_y[IV_LANE_IO] + 10),
                      ==, G_MAXUINT);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Rows on an image surface are drawn as scanlines; through a recording surface (what a
 * PDF or SVG gets) as rectangles. Both give the same pixels for the Chromium-like dense
 * rows of a hand-made trace: sub-pixel runs, narrow boxes, wide boxes with their gaps. */
static void
test_timeline_raster_matches_vector (void)
{
  g_autoptr (GString) json = g_string_new ("[");
  g_autoptr (IvTrace) t = NULL;
  IvTimelineFigure fig;
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  cairo_surface_t *direct = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 300);
  cairo_surface_t *replayed = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 300);
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr;
  guint64 differ = 0;
  guint32 bg = rgb24 (iv_theme_get_colors (IV_THEME_LIGHT)->background);
  GRand *rng = g_rand_new_with_seed (5);
  double at = 0;

  for (int i = 0; i < 3000; i++)
    {
      double dur = g_rand_double_range (rng, 0.05, i % 50 == 0 ? 400 : 20);
      g_string_append_printf (json,
                              "%s{\"ph\": \"X\", \"name\": \"n%d\", \"pid\": 1, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": %.3f}",
                              i ? "," : "", i % 7, 1 + i % 3, at, dur);
      at += i % 3 == 2 ? dur + g_rand_double_range (rng, 0, 30) : 0;
    }
  g_string_append (json, "]");
  g_rand_free (rng);
  t = load_text ("dense.json", json->str);
  fig = (IvTimelineFigure){ t, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
  cr = cairo_create (direct);
  g_assert_true (iv_render_timeline (cr, &fig, &opt, 900, 300, NULL));
  cairo_destroy (cr);
  cr = cairo_create (rec);
  g_assert_true (iv_render_timeline (cr, &fig, &opt, 900, 300, NULL));
  cairo_destroy (cr);
  cr = cairo_create (replayed);
  cairo_set_source_surface (cr, rec, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (direct);
  cairo_surface_flush (replayed);
  /* Where two boxes of different colours share a pixel column, rectangles filled colour
   * by colour and a scanline written in time order may pick different winners; what
   * must agree is where something is drawn and where nothing is. */
  for (int y = 0; y < 300; y++)
    for (int x = 0; x < 900; x++)
      differ += (tl_pixel (direct, x, y) == bg) != (tl_pixel (replayed, x, y) == bg);
  g_assert_cmpuint (differ, <, 900 * 300 / 1000);
  cairo_surface_destroy (direct);
  cairo_surface_destroy (replayed);
  cairo_surface_destroy (rec);
}

/* A frame drawn through a view's frame cache is the frame drawn without one, byte for
 * byte, through scroll, pan and zoom steps, a return to an earlier range and a change of
 * colouring: rows and names reused from earlier frames draw exactly what the level of
 * detail and Pango give afresh. Names repeat at every width (so each is cut to many
 * lengths), one carries a typeset symbol, one is right-to-left, one did not end. */
static void
test_timeline_cache_matches (void)
{
  g_autoptr (GString) json = g_string_new ("[");
  g_autoptr (IvTrace) t = NULL;
  g_autoptr (IvTimelineCache) cache = iv_timeline_cache_new ();
  static const char *const names[] = {
    "aten::convolution_backward",
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
    "W_Q projection",
    "\u05d7\u05d9\u05e9\u05d5\u05d1 kernel",
    "void at::native::vectorized_elementwise_kernel",
  };
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  cairo_surface_t *cached = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
  cairo_surface_t *fresh = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
  IvTimelineCacheStats stats;
  GRand *rng = g_rand_new_with_seed (32);
  IvTimelineFigure fig = { 0 };
  double at = 0;
  gint64 span;

  for (int i = 0; i < 4000; i++)
    {
      /* mostly narrow, every 9th wide enough for a name at most zoom levels */
      double dur = g_rand_double_range (rng, 0.2, i % 9 == 0 ? 900 : 40);
      g_string_append_printf (json,
                              "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": %.3f},",
                              names[i % G_N_ELEMENTS (names)], 1 + i % 2, 1 + i % 4, at, dur);
      at += i % 4 == 3 ? dur + g_rand_double_range (rng, 0, 20) : 0;
    }
  g_rand_free (rng);
  /* a thread of bars 10–32 px wide in the whole view, 25–80 px zoomed in: each name cut
   * to many lengths, and the same length at many widths */
  rng = g_rand_new_with_seed (33);
  for (int k = 0; k < 25; k++)
    g_string_append_printf (json,
                            "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": 1, "
                            "\"ts\": %.3f, \"dur\": %.3f},",
                            names[k % G_N_ELEMENTS (names)], at * k / 25,
                            at / 25 * g_rand_double_range (rng, 0.3, 1.0));
  /* a span that did not end: named "… (did not end)" */
  g_string_append_printf (json,
                          "{\"ph\": \"B\", \"name\": \"open step\", \"pid\": 1, "
                          "\"tid\": 9, \"ts\": %.3f}]",
                          at / 2);
  g_rand_free (rng);
  t = load_text ("cache.json", json->str);
  fig.trace = t, fig.selected = G_MAXSIZE;
  fig.t0_ns = t->t0_ns, fig.t1_ns = t->t1_ns;
  span = t->t1_ns - t->t0_ns;
  for (int step = 0; step < 24; step++)
    {
      cairo_t *cr;
      gint64 w = fig.t1_ns - fig.t0_ns, mid = fig.t0_ns + w / 2;
      if (step >= 1 && step < 4) /* scrolled down and back */
        fig.scroll_y = step == 3 ? 0 : 30 * step;
      else if (step >= 4 && step < 12) /* zoomed in about the middle, a tenth a step */
        fig.t0_ns = mid - w * 9 / 20, fig.t1_ns = mid + w * 9 / 20;
      else if (step >= 12 && step < 17) /* panned right */
        fig.t0_ns += w / 7, fig.t1_ns += w / 7;
      else if (step == 17) /* back to the whole trace */
        fig.t0_ns = t->t0_ns, fig.t1_ns = t->t0_ns + span;
      else if (step == 18)
        fig.color_by_category = TRUE;
      else if (step == 19)
        fig.color_by_category = FALSE, fig.selected = 3;
      else if (step >= 20) /* zoomed out from a third of the way in */
        fig.t0_ns = t->t0_ns + span / 3 - w / 2, fig.t1_ns = fig.t0_ns + w * 11 / 10;
      fig.cache = cache;
      cr = cairo_create (cached);
      g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
      cairo_destroy (cr);
      fig.cache = NULL;
      cr = cairo_create (fresh);
      g_assert_true (iv_render_timeline (cr, &fig, &opt, 1000, 400, NULL));
      cairo_destroy (cr);
      cairo_surface_flush (cached);
      cairo_surface_flush (fresh);
      if (memcmp (cairo_image_surface_get_data (cached), cairo_image_surface_get_data (fresh),
                  (gsize) cairo_image_surface_get_stride (fresh) * 400)
          != 0)
        g_error ("step %d: the frame drawn through the cache differs from the one without", step);
    }
  /* and the cache did serve: rows kept across the scroll steps, names laid out once for
   * many bars */
  iv_timeline_cache_get_stats (cache, &stats);
  g_assert_cmpuint (stats.rows_hit, >, 0);
  g_assert_cmpuint (stats.texts_hit, >, 2 * stats.texts_made);
  cairo_surface_destroy (cached);
  cairo_surface_destroy (fresh);
}

/* The analyses' charts carry the statistics they are drawn from, bar for bar, and are
 * NULL when there is nothing to draw. Values made by hand. */
static void
test_analysis_charts (void)
{
  g_autoptr (IvTrace) t = load_text (
      "launch-charts.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"args\": {\"name\": \"GPU 0\"}},"
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": {\"name\": "
      "\"stream 7\"}},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 0, "
      "\"dur\": 10}]}");
  IvLaunchStats st = { 0 };
  IvLaunch l = { 0 };
  IvQueueStats q = { 0 };
  IvMemcpyStats m[2] = { { "Memcpy HtoD", 3, 3, 3e9, 250000000, 12.0, 20.0, 12.0 },
                         { "Memset", 2, 0, 0, 2000, 0, 0, 0 } };
  g_autoptr (GArray) copies = g_array_new (FALSE, FALSE, sizeof (IvMemcpyStats));
  const IvTrack *tr;
  IvChart *c;
  IvSeries *s;

  st.launches = g_array_new (FALSE, FALSE, sizeof (IvLaunch));
  st.queues = g_array_new (FALSE, FALSE, sizeof (IvQueueStats));
  g_assert_null (iv_trace_chart_launches (NULL));
  g_assert_null (iv_trace_chart_launches (&st));
  g_assert_null (iv_trace_chart_queues (t, &st));
  g_assert_null (iv_trace_chart_copies (NULL));
  g_assert_null (iv_trace_chart_copies (copies));

  /* launches: median and p95 of call, work, delay as bars, the longest in the subtitle;
   * the largest bar (80 µs) passes 50 µs, not 100 µs: one rule */
  g_array_append_val (st.launches, l);
  st.cpu = (IvLaunchSummary){ 8000, 5000, 20000, 4000000000 };
  st.gpu = (IvLaunchSummary){ 3000, 2000, 9000, 30000 };
  st.delay = (IvLaunchSummary){ 30000, 40000, 80000, 300000 };
  c = iv_trace_chart_launches (&st);
  g_assert_nonnull (c);
  g_assert_cmpuint (iv_chart_get_n_series (c), ==, 2);
  g_assert_cmpuint (c->n_categories, ==, 3);
  s = iv_chart_get_series (c, 0); /* median */
  g_assert_cmpfloat_with_epsilon (s->y[0], 5e-6, 1e-15);
  g_assert_cmpfloat_with_epsilon (s->y[1], 2e-6, 1e-15);
  g_assert_cmpfloat_with_epsilon (s->y[2], 40e-6, 1e-15);
  s = iv_chart_get_series (c, 1); /* p95 */
  g_assert_cmpfloat_with_epsilon (s->y[0], 20e-6, 1e-15);
  g_assert_cmpfloat_with_epsilon (s->y[1], 9e-6, 1e-15);
  g_assert_cmpfloat_with_epsilon (s->y[2], 80e-6, 1e-15);
  g_assert_nonnull (strstr (c->subtitle, "longest call 4 s"));
  g_assert_cmpuint (c->annotations->len, ==, 1);
  g_assert_cmpfloat_with_epsilon (g_array_index (c->annotations, IvAnnotation, 0).x, 50e-6, 1e-15);
  iv_chart_free (c);
  st.delay.p95_ns = 150000; /* now a delay bar passes 100 µs too */
  c = iv_trace_chart_launches (&st);
  g_assert_cmpuint (c->annotations->len, ==, 2);
  g_assert_cmpfloat_with_epsilon (g_array_index (c->annotations, IvAnnotation, 1).x, 100e-6, 1e-15);
  iv_chart_free (c);

  /* queues: stream 7, longest 4, 1.5 on average over time; named as the streams chart */
  for (guint i = 0; i < t->tracks->len; i++)
    if (g_strcmp0 (g_array_index (t->tracks, IvTrack, i).name, "stream 7") == 0)
      q.track = i;
  tr = &g_array_index (t->tracks, IvTrack, q.track);
  g_assert_cmpstr (tr->name, ==, "stream 7");
  q.max = 4;
  q.time_weighted = 1.5;
  q.mean_at_changes = 2.25;
  g_array_append_val (st.queues, q);
  c = iv_trace_chart_queues (t, &st);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->n_categories, ==, 1);
  g_assert_cmpstr (c->categories[0], ==, "GPU 0 · stream 7");
  g_assert_cmpfloat (iv_chart_get_series (c, 0)->y[0], ==, 4);
  g_assert_cmpfloat (iv_chart_get_series (c, 1)->y[0], ==, 1.5);
  iv_chart_free (c);

  /* the queue over time: 1 carried in, then 2 at 3 µs and 0 at 5 µs after the trace's start,
   * as steps from the first change; the longest (2) a marker named in the legend */
  g_assert_null (iv_trace_chart_queue_series (t, &st));
  {
    IvQueueSeries *qs = g_new0 (IvQueueSeries, 1);
    IvQueuePoint pts[] = { { t->t0_ns + 3000, 2 }, { t->t0_ns + 5000, 0 } };
    qs->track = q.track, qs->initial = 1, qs->max = 2, qs->max_ns = t->t0_ns + 3000;
    qs->points = g_array_new (FALSE, FALSE, sizeof (IvQueuePoint));
    g_array_append_vals (qs->points, pts, 2);
    st.queue_series = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_queue_series_free);
    g_ptr_array_add (st.queue_series, qs);
  }
  c = iv_trace_chart_queue_series (t, &st);
  g_assert_nonnull (c);
  s = iv_chart_get_series (c, 0);
  g_assert_cmpint (s->kind, ==, IV_SERIES_STEP);
  g_assert_cmpstr (iv_series_get_name (s), ==, "GPU 0 · stream 7");
  g_assert_cmpuint (s->n, ==, 3);
  g_assert_cmpfloat_with_epsilon (s->x[0], 3e-6, 1e-15);
  g_assert_cmpfloat (s->y[0], ==, 1);
  g_assert_cmpfloat (s->y[1], ==, 2);
  g_assert_cmpfloat_with_epsilon (s->x[2], 5e-6, 1e-15);
  g_assert_cmpfloat (s->y[2], ==, 0);
  s = iv_chart_get_series (c, 1);
  g_assert_cmpstr (iv_series_get_name (s), ==, "longest: 2");
  g_assert_cmpfloat_with_epsilon (s->x[0], 3e-6, 1e-15);
  g_assert_cmpfloat (s->y[0], ==, 2);
  iv_chart_free (c);
  g_clear_pointer (&st.queue_series, g_ptr_array_unref);

  /* copies: a set without bandwidth alone draws nothing; with a copy, both types */
  g_array_append_val (copies, m[1]);
  g_assert_null (iv_trace_chart_copies (copies));
  g_array_prepend_val (copies, m[0]);
  c = iv_trace_chart_copies (copies);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->n_categories, ==, 2);
  g_assert_cmpstr (c->categories[0], ==, "Memcpy HtoD (3)");
  g_assert_cmpstr (c->categories[1], ==, "Memset (2)");
  s = iv_chart_get_series (c, 0); /* overall: 3 GB over 0.25 s */
  g_assert_cmpfloat (s->y[0], ==, 12.0);
  g_assert_cmpfloat (s->y[1], ==, 0);
  g_assert_cmpfloat (iv_chart_get_series (c, 1)->y[0], ==, 12.0); /* mean */
  g_assert_cmpfloat (iv_chart_get_series (c, 2)->y[0], ==, 20.0); /* max */
  g_assert_cmpstr (iv_chart_axis_get_title (c, IV_AXIS_X), ==, "bandwidth (GB/s)");
  iv_chart_free (c);

  g_array_unref (st.launches);
  g_array_unref (st.queues);
}

/* The area charts carry the analyses' numbers: on the hand-made GPU trace of
 * /trace/gpu-analysis, communication (10 µs) is half under compute — green to 5 µs,
 * vermillion from 5 to 10 — and compute is 10 µs of blue; stream 7 is 12/22 busy. */
static void
test_area_charts (void)
{
  g_autoptr (IvTrace) t = load_text (
      "gpu-charts.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"args\": {\"name\": \"GPU 0\"}},"
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": {\"name\": "
      "\"stream 7\"}},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 0, "
      "\"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"pid\": 0, "
      "\"tid\": 8, \"ts\": 5, \"dur\": 10},"
      "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", \"pid\": 0, \"tid\": 7, "
      "\"ts\": 20, \"dur\": 2}]}");
  g_autoptr (IvGpuStats) gpu = iv_trace_gpu_stats (t, t->t0_ns, t->t1_ns);
  g_autoptr (GArray) stats = iv_trace_stats_by_name (t, G_MININT64, G_MAXINT64);
  IvChart *kernels = iv_trace_chart_kernels (gpu);
  IvChart *streams = iv_trace_chart_streams (t, gpu);
  IvChart *names = iv_trace_chart_top_names (t, stats, 2);
  IvRenderOptions opt = { IV_THEME_LIGHT, 1.0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 500, 300);
  cairo_t *cr = cairo_create (s);
  const IvChartLayout *L;
  double y;

  g_assert_nonnull (kernels);
  g_assert_nonnull (streams);
  g_assert_nonnull (names);
  g_assert_cmpuint (iv_chart_get_n_series (names), ==, 2);
  g_assert_null (iv_trace_chart_top_names (t, stats, 0));

  g_assert_true (iv_chart_render (cr, kernels, &opt, 500, 300, NULL));
  cairo_surface_flush (s);
  L = iv_chart_get_layout (kernels);
  y = iv_chart_to_pixel (L, IV_AXIS_Y, 0); /* communication, the last category, at the bottom */
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 2.5e-6), y),
                                     iv_color_from_rgb (0x009e73, 1)),
                     <, 6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 7.5e-6), y),
                                     iv_color_from_rgb (0xd55e00, 1)),
                     <, 6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 10.5e-6), y),
                                     iv_color_from_rgb (0xd55e00, 1)),
                     >, 60);
  y = iv_chart_to_pixel (L, IV_AXIS_Y, 2); /* compute: 10 µs */
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 9.5e-6), y),
                                     iv_color_from_rgb (0x0072b2, 1)),
                     <, 6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 10.5e-6), y),
                                     iv_color_from_rgb (0x0072b2, 1)),
                     >, 60);
  cairo_destroy (cr);

  /* Streams in percent: stream 7 (the first) busy 12 of the 22 µs from its first kernel
   * to its last = 54.5 %; the 10 µs gap is under 30 µs and no launch says the host was
   * late: kernel wait. */
  cr = cairo_create (s);
  g_assert_true (iv_chart_render (cr, streams, &opt, 500, 300, NULL));
  cairo_surface_flush (s);
  L = iv_chart_get_layout (streams);
  y = iv_chart_to_pixel (L, IV_AXIS_Y, gpu->streams->len - 1);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 52), y),
                                     iv_color_from_rgb (0x0072b2, 1)),
                     <, 6);
  g_assert_cmpfloat (color_distance (tl_pixel (s, iv_chart_to_pixel (L, IV_AXIS_X, 57), y),
                                     iv_color_from_rgb (0x56b4e9, 1)),
                     <, 6);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  iv_chart_free (kernels);
  iv_chart_free (streams);
  iv_chart_free (names);
}

/* Logs each notification with the range as it stands then. */
static void
log_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  GString *log = data;
  gint64 a, b;
  iv_timeline_state_get_range (IV_TIMELINE_STATE (object), &a, &b);
  g_string_append_printf (log, "%s %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT ";", pspec->name, a, b);
}

/* The timeline's state: a range notifies its two ends once each, after both are set (a
 * reader of "start-ns" already sees the new end); setting what is already there notifies
 * nothing; the search is never NULL. */
static void
test_timeline_state (void)
{
  g_autoptr (IvTimelineState) st = iv_timeline_state_new ();
  g_autoptr (GString) log = g_string_new (NULL);
  gint64 a, b;
  char *search = NULL;

  g_assert_cmpuint (iv_timeline_state_get_selected (st), ==, IV_TIMELINE_NONE);
  g_assert_cmpstr (iv_timeline_state_get_search (st), ==, "");
  g_signal_connect (st, "notify", G_CALLBACK (log_notify), log);
  iv_timeline_state_set_range (st, 100, 900);
  /* GLib dispatches a thawed queue newest first; either way both ends are already set. */
  g_assert_cmpstr (log->str, ==, "end-ns 100-900;start-ns 100-900;");
  iv_timeline_state_get_range (st, &a, &b);
  g_assert_cmpint (a, ==, 100);
  g_assert_cmpint (b, ==, 900);
  g_string_truncate (log, 0);
  iv_timeline_state_set_range (st, 100, 900);
  iv_timeline_state_set_range (st, 100, 950);
  g_assert_cmpstr (log->str, ==, "end-ns 100-950;");
  g_string_truncate (log, 0);
  iv_timeline_state_set_area (st, 200, 300);
  g_object_set (st, "selected", (guint64) 42, "search", "gemm", NULL);
  g_object_set (st, "selected", (guint64) 42, "search", NULL, NULL);
  g_assert_cmpstr (log->str, ==,
                   "area-end-ns 100-950;area-start-ns 100-950;search 100-950;"
                   "selected 100-950;search 100-950;");
  iv_timeline_state_get_area (st, &a, &b);
  g_assert_cmpint (a, ==, 200);
  g_assert_cmpint (b, ==, 300);
  g_assert_cmpuint (iv_timeline_state_get_selected (st), ==, 42);
  g_object_get (st, "search", &search, NULL);
  g_assert_cmpstr (search, ==, "");
  g_free (search);
}

/* What exports show: names that tell tracks apart, the extent of the work, every process
 * or a note of what was cut, and only the processes asked for. */
static void
test_export_names_and_extent (void)
{
  g_autoptr (IvTrace) t = load_text (
      "names.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"Renderer\"}},"
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 11, \"args\": {\"name\": "
      "\"Worker\"}},"
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 12, \"args\": {\"name\": "
      "\"Worker\"}},"
      "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 11, \"ts\": 400, \"dur\": 50},"
      "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 12, \"ts\": 450, \"dur\": 50},"
      "{\"ph\": \"X\", \"name\": \"c\", \"pid\": 1, \"tid\": -247463936, \"ts\": 420, \"dur\": 10},"
      "{\"ph\": \"X\", \"name\": \"k\", \"pid\": \"GPU 0\", \"tid\": \"stream 7\", \"ts\": 430, "
      "\"dur\": 20},"
      "{\"ph\": \"X\", \"name\": \"PyTorch Profiler (0)\", \"cat\": \"Trace\", \"pid\": \"Spans\", "
      "\"tid\": \"PyTorch Profiler\", \"ts\": 0, \"dur\": 10000}]}");
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  IvTimelineFigure fig = { t, 0, 0, FALSE, 0, G_MAXSIZE, NULL, 0, 0, NULL };
  IvTimelineLayout L = { 0 };
  g_autoptr (GByteArray) hidden = g_byte_array_new ();
  gint64 t0, t1;
  double full;
  guint renderer = G_MAXUINT;

  for (guint k = 0; k < t->tracks->len; k++)
    g_ptr_array_add (names, g_array_index (t->tracks, IvTrack, k).name);
  /* two "Worker"s carry their tids; a negative tid reads as the unsigned 32-bit number;
   * a GPU stream named "stream 7" stays "stream 7" */
  g_assert_true (g_ptr_array_find_with_equal_func (names, "Worker (11)", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (names, "Worker (12)", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (names, "Thread 4047503360", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (names, "stream 7", g_str_equal, NULL));
  for (guint p = 0; p < t->processes->len; p++)
    {
      const IvProcess *pr = t->processes->pdata[p];
      /* a pid that is text is the name */
      g_assert_false (g_str_has_prefix (pr->name, "GPU GPU")
                      || g_str_has_prefix (pr->name, "Process Spans"));
      if (g_str_equal (pr->name, "Renderer"))
        renderer = p;
    }
  g_assert_cmpuint (renderer, !=, G_MAXUINT);

  /* the work, [400, 500) µs, not the 10 ms profiler span */
  iv_trace_activity_range (t, &t0, &t1);
  g_assert_cmpint (t0, ==, 400000);
  g_assert_cmpint (t1, ==, 500000);

  /* every row fits the content height; 60 px less cuts tracks and says how many */
  fig.note_cut = TRUE;
  full = iv_timeline_content_height (&fig, 1200);
  iv_timeline_layout (&fig, 1200, full, &L);
  g_assert_cmpuint (L.cut_tracks, ==, 0);
  iv_timeline_layout (&fig, 1200, full - 60, &L);
  g_assert_cmpuint (L.cut_tracks, >, 0);
  g_assert_cmpuint (L.cut_processes, >, 0);
  /* the Renderer left out: no header for it, nothing of its rows */
  g_byte_array_set_size (hidden, t->processes->len);
  memset (hidden->data, 0, hidden->len);
  hidden->data[renderer] = 1;
  fig.hidden = hidden;
  iv_timeline_layout (&fig, 1200, full, &L);
  g_assert_cmpfloat (g_array_index (L.header_y, double, renderer), <, 0);
  for (guint k = 0; k < t->tracks->len; k++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, k);
      if (tr->process == renderer && tr->n_rows)
        g_assert_cmpfloat (g_array_index (L.row_y, double, tr->first_row), <, 0);
    }
  g_assert_cmpfloat (iv_timeline_content_height (&fig, 1200), <, full);
  iv_timeline_layout_clear (&L);
}

/* The format's less common corners: counters by name and id with "name · key" series and
 * text values reported; flow events v2 bound to their slices; what was left open named;
 * async instants kept. */
static void
test_format_corners (void)
{
  g_autoptr (IvTrace) t = load_text (
      "corners.json",
      "{\"traceEvents\": ["
      "{\"ph\": \"C\", \"name\": \"mem\", \"id\": \"1\", \"pid\": 1, \"ts\": 0, \"args\": "
      "{\"used\": 5, \"state\": \"on\"}},"
      "{\"ph\": \"C\", \"name\": \"mem\", \"id\": \"2\", \"pid\": 1, \"ts\": 0, \"args\": "
      "{\"used\": 7, \"state\": \"off\"}},"
      "{\"ph\": \"C\", \"name\": \"mem\", \"id\": \"1\", \"pid\": 1, \"ts\": 10, \"args\": "
      "{\"used\": 6}},"
      "{\"ph\": \"X\", \"name\": \"send\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 10, "
      "\"bind_id\": \"0x7\", \"flow_out\": true},"
      "{\"ph\": \"X\", \"name\": \"recv\", \"pid\": 1, \"tid\": 2, \"ts\": 20, \"dur\": 10, "
      "\"bind_id\": \"0x7\", \"flow_in\": true},"
      "{\"ph\": \"B\", \"name\": \"left-open\", \"pid\": 1, \"tid\": 3, \"ts\": 5},"
      "{\"ph\": \"b\", \"name\": \"req\", \"cat\": \"net\", \"id\": \"9\", \"pid\": 1, \"ts\": 1},"
      "{\"ph\": \"n\", \"name\": \"req-step\", \"cat\": \"net\", \"id\": \"9\", \"pid\": 1, "
      "\"ts\": 3},"
      "{\"ph\": \"e\", \"name\": \"req\", \"cat\": \"net\", \"id\": \"9\", \"pid\": 1, \"ts\": 8},"
      "{\"ph\": \"b\", \"name\": \"outer\", \"cat\": \"c\", \"id\": \"5\", \"pid\": 1, \"ts\": 30},"
      "{\"ph\": \"b\", \"name\": \"inner\", \"cat\": \"c\", \"id\": \"5\", \"pid\": 1, \"ts\": 32},"
      "{\"ph\": \"e\", \"name\": \"inner\", \"cat\": \"c\", \"id\": \"5\", \"pid\": 1, \"ts\": 36},"
      "{\"ph\": \"e\", \"name\": \"outer\", \"cat\": \"c\", \"id\": \"5\", \"pid\": 1, \"ts\": "
      "40}]}");
  guint counters = 0, instants = 0;
  gboolean used1 = FALSE, text_warned = FALSE;

  for (guint k = 0; k < t->tracks->len; k++)
    counters += g_array_index (t->tracks, IvTrack, k).kind == IV_TRACK_COUNTER;
  g_assert_cmpuint (counters, ==, 2);
  for (guint i = 0; i < t->series->len; i++)
    used1 |= g_str_equal (iv_trace_string (t, g_array_index (t->series, IvCounterSeries, i).name),
                          "mem (id 1) · used");
  g_assert_true (used1);
  g_assert_cmpuint (t->series->len, ==, 2); /* the text "state" makes no series */
  for (guint i = 0; i < t->warnings->len; i++)
    text_warned |= strstr (t->warnings->pdata[i], "2 counter values that are not numbers") != NULL;
  g_assert_true (text_warned);

  g_assert_cmpuint (t->flows->len, ==, 1);
  {
    const IvFlow *f = &g_array_index (t->flows, IvFlow, 0);
    g_assert_cmpuint (f->from, ==, find_slice (t, "send"));
    g_assert_cmpuint (f->to, ==, find_slice (t, "recv"));
  }
  g_assert_cmpuint (t->open_names->len, ==, 1);
  g_assert_cmpstr (iv_trace_string (t, g_array_index (t->open_names, guint32, 0)), ==, "left-open");
  for (guint i = 0; i < t->instants->len; i++)
    instants += g_str_equal (iv_trace_string (t, g_array_index (t->instants, IvInstant, i).name),
                             "req-step");
  g_assert_cmpuint (instants, ==, 1);
  /* nested async spans of one id: the inner one under the outer, on its track */
  {
    gsize outer = find_slice (t, "outer"), inner = find_slice (t, "inner");
    const IvRow *ro = &g_array_index (t->rows, IvRow, t->row[outer]);
    const IvRow *ri = &g_array_index (t->rows, IvRow, t->row[inner]);
    g_assert_cmpuint (ro->track, ==, ri->track);
    g_assert_cmpuint (ri->depth, ==, ro->depth + 1);
    g_assert_cmpuint (iv_trace_parent (t, inner), ==, outer);
  }
}

static char *
repeat (const char *unit, guint times)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < times; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* Names and categories are kept whole (a C++ kernel name runs to kilobytes; up to 64 KiB
 * is kept): a name of 150 emoji (600 bytes) is all there. Pids and argument text are cut
 * at a character boundary, never inside one; and track keys are never cut at all: two
 * async names that differ only after their 250th byte are two tracks. */
static void
test_long_names (void)
{
  g_autofree char *emoji = repeat ("😀", 150);
  g_autofree char *accent = repeat ("é", 300);
  g_autofree char *pid = repeat ("ü", 40);
  g_autofree char *label = repeat ("日", 40);
  g_autofree char *stem = repeat ("a", 300);
  g_autofree char *text = g_strdup_printf (
      "{\"traceEvents\": ["
      "{\"ph\": \"X\", \"name\": \"%s\", \"cat\": \"%s\", \"ts\": 1, \"dur\": 5, \"pid\": \"%s\", "
      "\"tid\": 1},"
      "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": \"%s\", \"args\": {\"name\": \"%s\"}},"
      "{\"ph\": \"b\", \"name\": \"%sx\", \"cat\": \"c\", \"id\": 1, \"ts\": 1, \"pid\": 2},"
      "{\"ph\": \"e\", \"name\": \"%sx\", \"cat\": \"c\", \"id\": 1, \"ts\": 2, \"pid\": 2},"
      "{\"ph\": \"b\", \"name\": \"%sy\", \"cat\": \"c\", \"id\": 2, \"ts\": 1, \"pid\": 2},"
      "{\"ph\": \"e\", \"name\": \"%sy\", \"cat\": \"c\", \"id\": 2, \"ts\": 2, \"pid\": 2}]}",
      emoji, accent, pid, pid, label, stem, stem, stem, stem);
  g_autoptr (IvTrace) t = load_text ("long-names.json", text);
  const char *name = NULL, *cat = NULL, *proc_name = NULL, *proc_key = NULL;
  guint async_tracks = 0;

  for (gsize i = 0; i < t->n_slices; i++)
    if (g_str_has_prefix (iv_trace_string (t, t->name[i]), "😀"))
      name = iv_trace_string (t, t->name[i]), cat = iv_trace_string (t, t->cat[i]);
  g_assert_nonnull (name);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_cmpstr (name, ==, emoji);
  g_assert_cmpstr (cat, ==, accent);
  for (guint i = 0; i < t->processes->len; i++)
    {
      const IvProcess *p = t->processes->pdata[i];
      if (g_str_has_prefix (p->key, "ü"))
        proc_key = p->key, proc_name = p->name;
    }
  g_assert_nonnull (proc_key);
  g_assert_true (g_utf8_validate (proc_key, -1, NULL));
  g_assert_cmpuint (strlen (proc_key), ==, 31 * 2); /* 63 bytes kept: 31 characters */
  g_assert_true (g_utf8_validate (proc_name, -1, NULL));
  g_assert_cmpuint (strlen (proc_name), ==, 31 * 3); /* 95 bytes kept: 31 characters */
  for (guint k = 0; k < t->tracks->len; k++)
    async_tracks += g_array_index (t->tracks, IvTrack, k).kind == IV_TRACK_ASYNC;
  g_assert_cmpuint (async_tracks, ==, 2);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)                            \
    || __has_feature(memory_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

#ifndef UNDER_SANITIZER /* the out-of-memory test's helpers: that test is skipped there */
typedef struct
{
  const char *path;
  GMutex lock;
  GCond cond;
  gboolean ready, go;
  IvTrace *trace;
  GError *error;
} OomLoad;

static gpointer
oom_load_thread (gpointer data)
{
  OomLoad *l = data;
  /* this thread's malloc arena (64 MB of address space reserved) exists before the
   * limit is measured and set */
  g_free (g_malloc (64));
  g_mutex_lock (&l->lock);
  l->ready = TRUE;
  g_cond_signal (&l->cond);
  while (!l->go)
    g_cond_wait (&l->cond, &l->lock);
  g_mutex_unlock (&l->lock);
  l->trace = iv_trace_load (l->path, NULL, NULL, NULL, &l->error);
  return NULL;
}

/* The process's address space now, from /proc/self/statm (pages). */
static guint64
address_space_bytes (void)
{
  g_autofree char *statm = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  return g_ascii_strtoull (statm, NULL, 10) * (guint64) sysconf (_SC_PAGESIZE);
}
#endif

/* Out of memory, a load fails alone: two loads of a trace of 250,000 distinct names of 400
 * bytes on worker threads (as the window loads), under an address-space limit far below
 * what the names need, each end with an error naming the file and the memory — no abort
 * (the string pool's GHashTable and GStringChunk aborted) — and the process then loads a
 * small trace as if nothing had happened. */
static void
test_out_of_memory (void)
{
#ifdef UNDER_SANITIZER
  g_test_skip ("sanitizer runtimes reserve terabytes of address space: RLIMIT_AS cannot apply");
  return;
#else
  if (g_test_subprocess ())
    {
      g_autofree char *path = g_build_filename (tmpdir, "many-names.json.gz", NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GFileOutputStream) raw = g_file_replace (file, NULL, FALSE, 0, NULL, NULL);
      g_autoptr (GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
      g_autoptr (GOutputStream) out
          = g_converter_output_stream_new (G_OUTPUT_STREAM (raw), G_CONVERTER (gz));
      g_autoptr (GString) chunk = g_string_new ("{\"traceEvents\": [\n");
      g_autofree char *padding = repeat ("n", 400);
      OomLoad loads[2] = { 0 };
      GThread *threads[2];
      struct rlimit cap;
      IvTrace *small;

      /* long distinct names: the names (100 MB) run out before the slices (12 MB) would */
      for (guint i = 0; i < 250000; i++)
        {
          g_string_append_printf (chunk,
                                  "{\"ph\":\"X\",\"name\":\"%s-%u\",\"ts\":%u,\"dur\":1,"
                                  "\"pid\":1,\"tid\":1},\n",
                                  padding, i, 2 * i);
          if (chunk->len > (1 << 20))
            {
              g_assert_true (
                  g_output_stream_write_all (out, chunk->str, chunk->len, NULL, NULL, NULL));
              g_string_truncate (chunk, 0);
            }
        }
      g_string_append (chunk, "{\"ph\":\"i\",\"name\":\"end\",\"ts\":0,\"pid\":1,\"tid\":1}]}\n");
      g_assert_true (g_output_stream_write_all (out, chunk->str, chunk->len, NULL, NULL, NULL));
      g_assert_true (g_output_stream_close (out, NULL, NULL));

      for (guint i = 0; i < 2; i++)
        {
          loads[i].path = path;
          g_mutex_init (&loads[i].lock);
          g_cond_init (&loads[i].cond);
          threads[i] = g_thread_new ("load", oom_load_thread, &loads[i]);
          g_mutex_lock (&loads[i].lock);
          while (!loads[i].ready)
            g_cond_wait (&loads[i].cond, &loads[i].lock);
          g_mutex_unlock (&loads[i].lock);
        }
      /* 24 MB more than now (and than the arenas reserved, 64 MB each): each load's names
       * alone take 100 MB */
      cap.rlim_cur = cap.rlim_max = address_space_bytes () + (24 << 20);
      g_assert_cmpint (setrlimit (RLIMIT_AS, &cap), ==, 0);
      for (guint i = 0; i < 2; i++)
        {
          g_mutex_lock (&loads[i].lock);
          loads[i].go = TRUE;
          g_cond_signal (&loads[i].cond);
          g_mutex_unlock (&loads[i].lock);
        }
      for (guint i = 0; i < 2; i++)
        {
          g_thread_join (threads[i]);
          g_assert_null (loads[i].trace);
          g_assert_error (loads[i].error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
          g_assert_nonnull (
              strstr (loads[i].error->message, "many-names.json.gz: not enough memory"));
          g_clear_error (&loads[i].error);
        }
      /* the process goes on, with what it had */
      small = load_text ("small.json", "[{\"ph\": \"X\", \"name\": \"a\", \"ts\": 0, \"dur\": 1}]");
      g_assert_cmpuint (small->n_slices, ==, 1);
      iv_trace_free (small);
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
#endif
}

/* ---------- Perfetto's JSON import rules, on Perfetto's own fixtures ----------
 * Each file of tests/data/traces/perfetto/ is a trace from Perfetto's diff tests
 * (test/trace_processor/diff_tests/parser/json/tests.py, the Json(…) of the test named
 * like the file, and parser/parsing/flow_events_json_v2.json), Apache-2.0 (see its
 * README.md). Each case checks what Perfetto's expected output says, and where a rule
 * is Perfetto's code rather than its tests' output, the code is named. */

static IvTrace *
load_perfetto (const char *file)
{
  g_autofree char *rel = g_build_filename ("perfetto", file, NULL);
  g_autofree char *path = shared (rel);
  g_autoptr (GError) error = NULL;
  IvTrace *t = iv_trace_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static guint
count_named (const IvTrace *t, const char *name)
{
  guint n = 0;
  for (gsize i = 0; i < t->n_slices; i++)
    n += g_str_equal (iv_trace_string (t, t->name[i]), name);
  return n;
}

static const IvTrack *
track_of (const IvTrace *t, gsize slice)
{
  return &g_array_index (t->tracks, IvTrack, g_array_index (t->rows, IvRow, t->row[slice]).track);
}

static gboolean
has_flow (const IvTrace *t, const char *from, const char *to)
{
  for (guint i = 0; i < t->flows->len; i++)
    {
      const IvFlow *f = &g_array_index (t->flows, IvFlow, i);
      if (f->from < t->n_slices && f->to < t->n_slices
          && g_str_equal (iv_trace_string (t, t->name[f->from]), from)
          && g_str_equal (iv_trace_string (t, t->name[f->to]), to))
        return TRUE;
    }
  return FALSE;
}

/* The value of the first sample of the counter series named @name; NAN when none. */
static double
series_value (const IvTrace *t, const char *name)
{
  for (guint i = 0; i < t->series->len; i++)
    {
      const IvCounterSeries *se = &g_array_index (t->series, IvCounterSeries, i);
      if (se->n > 0 && g_str_equal (iv_trace_string (t, se->name), name))
        return t->sample_value[se->first];
    }
  return NAN;
}

static gboolean
is_open (const IvTrace *t, const char *name)
{
  for (guint i = 0; i < t->open_names->len; i++)
    if (g_str_equal (iv_trace_string (t, g_array_index (t->open_names, guint32, i)), name))
      return TRUE;
  return FALSE;
}

/* Flow events v2 (parser/parsing/tests.py, test_flow_events_json_v2): bind_id on X and on
 * a B event; a slice with flow_in and flow_out is a step; two ends after one start are two
 * arrows from it. */
static void
test_perfetto_flows_v2 (void)
{
  g_autoptr (IvTrace) t = load_perfetto ("flow_events_json_v2.json");
  gsize other = find_slice (t, "SomeOtherSlice");

  g_assert_cmpuint (t->flows->len, ==, 4);
  g_assert_true (has_flow (t, "SenderB", "Blergh"));
  g_assert_true (has_flow (t, "SenderA", "OtherSlice"));
  g_assert_true (has_flow (t, "OtherSlice", "SomeSlice"));
  /* the B event's bind_id: its slice receives the flow */
  g_assert_true (has_flow (t, "OtherSlice", "SomeOtherSlice"));
  g_assert_cmpint (t->dur_ns[other], ==, 997000);
  g_assert_cmpuint (t->n_dangling_flows, ==, 0);
}

/* test_json_metadata: an X with a pid and no tid is on thread pid (Perfetto's output: tid
 * 33), one with neither on 0; a nameless E closes the open B; the numeric string "25.7"
 * is a counter value. */
static void
test_perfetto_tid_and_counters (void)
{
  g_autoptr (IvTrace) t = load_perfetto ("json_metadata.json");
  gsize pid_only = find_slice (t, "PidOnlyEvent"), none = find_slice (t, "NoPidNoTidEvent");
  gsize missing = find_slice (t, "EventMissingCatAndArgs");
  gsize activity = find_slice (t, "ActivityOnThread31");

  g_assert_cmpuint (t->n_slices, ==, 4);
  g_assert_cmpstr (track_of (t, pid_only)->key, ==, "33");
  g_assert_cmpstr (((IvProcess *) t->processes->pdata[track_of (t, pid_only)->process])->key, ==,
                   "33");
  g_assert_cmpstr (track_of (t, none)->key, ==, "0");
  g_assert_cmpint (t->start_ns[missing], ==, 900000);
  g_assert_cmpint (t->dur_ns[missing], ==, 50000);
  g_assert_cmpint (t->start_ns[activity], ==, 790000);
  g_assert_cmpint (t->dur_ns[activity], ==, 25000);
  g_assert_cmpstr (track_of (t, activity)->name, ==, "MyRevisedThread31Name");
  g_assert_cmpfloat (series_value (t, "MyCounters (id counter_group_1) · counter3_str_num"), ==,
                     25.7);
  g_assert_cmpfloat (series_value (t, "MyCounters (id counter_group_1) · counter2_int"), ==, -50);
  g_assert_cmpuint (t->series->len, ==, 3);
  g_assert_cmpuint (t->open_names->len, ==, 0);
}

/* test_json_counter_args: string counter values are numbers when the whole string is one
 * (".75", "246.", "01.23", "050", "+10.5"); "1.5e", "2e+", ".", "+", "-" are not. */
static void
test_perfetto_counter_strings (void)
{
  g_autoptr (IvTrace) t = load_perfetto ("json_counter_args.json");

  g_assert_cmpuint (t->series->len, ==, 5);
  g_assert_cmpfloat (series_value (t, "CounterStringEdgeCases · leading_dot"), ==, 0.75);
  g_assert_cmpfloat (series_value (t, "CounterStringEdgeCases · trailing_dot"), ==, 246);
  g_assert_cmpfloat (series_value (t, "CounterStringEdgeCases · leading_zero_float"), ==, 1.23);
  g_assert_cmpfloat (series_value (t, "CounterStringEdgeCases · leading_zero_int_str"), ==, 50);
  g_assert_cmpfloat (series_value (t, "CounterStringEdgeCases · plus_val"), ==, 10.5);
  g_assert_true (has_warning (t, "5 counter values that are not numbers"));
}

/* test_json_all_slice_types and test_json_extreme_vals: an E of another name closes
 * nothing (the B "did not end", dur −1 in Perfetto), and an X without dur is skipped. */
static void
test_perfetto_end_names_and_missing_dur (void)
{
  g_autoptr (IvTrace) all = load_perfetto ("json_all_slice_types.json");
  g_autoptr (IvTrace) extreme = load_perfetto ("json_extreme_vals.json");

  g_assert_cmpuint (count_named (all, "BeginEvent"), ==, 1);
  g_assert_cmpuint (count_named (all, "EndEvent"), ==, 0);
  g_assert_true (is_open (all, "BeginEvent"));
  g_assert_true (has_warning (all, "1 end (E) events had no matching B"));
  g_assert_cmpuint (count_named (all, "CompleteEvent"), ==, 1);

  g_assert_cmpuint (count_named (extreme, "CompleteNoDur"), ==, 0);
  g_assert_true (is_open (extreme, "BeginNoTTS"));
  g_assert_cmpuint (count_named (extreme, "CompleteNoTDUR"), ==, 1);
  g_assert_true (has_warning (extreme, "1 events without a usable duration (an X event without "
                                       "\"dur\", or a \"dur\" that is not a number) skipped, "
                                       "the first at line 3, column 13"));
}

/* test_string_ts_and_dur, test_invalid_string_ts_and_dur, test_string_ts_trailing_chars:
 * times written as strings are read when the string is a number, exactly; "invalid" and
 * "100a" skip the event (never time 0), with the place of the first. */
static void
test_perfetto_string_times (void)
{
  g_autoptr (IvTrace) good = load_perfetto ("json_string_ts_and_dur.json");
  g_autoptr (IvTrace) invalid = load_perfetto ("json_invalid_string_ts_and_dur.json");
  g_autoptr (IvTrace) trailing = load_perfetto ("json_string_ts_trailing_chars.json");
  gsize begin = find_slice (good, "BeginEvent"), complete = find_slice (good, "CompleteEvent");

  g_assert_cmpint (good->start_ns[begin], ==, 100000);
  g_assert_cmpint (good->dur_ns[begin], ==, 100500);
  g_assert_cmpint (good->start_ns[complete], ==, 250000);
  g_assert_cmpint (good->dur_ns[complete], ==, 50500);
  g_assert_cmpuint (invalid->n_slices, ==, 0);
  g_assert_true (has_warning (invalid, "1 events without a usable timestamp (missing, not a "
                                       "number, or beyond ±146 years) skipped, the first at "
                                       "line 11, column 13"));
  g_assert_true (has_warning (invalid, "1 events without a usable duration"));
  g_assert_cmpuint (trailing->n_slices, ==, 0);
  g_assert_true (has_warning (trailing, "1 events without a usable timestamp"));
  g_assert_true (has_warning (trailing, "1 events without a usable duration"));
}

/* Perfetto loads what strict JSON refuses: a trailing comma in the event array
 * (test_json_trailing_comma) and inside args (test_args_ordered), and raw line breaks in
 * strings (test_json_pid_tid_zero: Python turned its "\n" into a line break). Each is
 * read past with a warning naming the first place; a slice's args then show as strict
 * JSON. */
static void
test_perfetto_lenient_json (void)
{
  g_autoptr (IvTrace) comma = load_perfetto ("json_trailing_comma.json");
  g_autoptr (IvTrace) args = load_perfetto ("json_args_ordered.json");
  g_autoptr (IvTrace) raw = load_perfetto ("json_pid_tid_zero.json");
  gsize bar = find_slice (comma, "Bar"), foo = find_slice (comma, "Foo");
  static const struct
  {
    const char *name;
    gint64 ts, dur;
  } expect[] = {
    { "RoutineControl Reeq", 0, 4000 },   { "31 ", 0, 1000 },
    { "RoutineControl", 0, 1000 },        { "01 ", 1000, 1000 },
    { "startRoutine", 1000, 1000 },       { "02 03 ", 2000, 2000 },
    { "Routine Identifier", 2000, 2000 },
  };

  /* Perfetto's output, to the nanosecond */
  g_assert_cmpint (comma->start_ns[bar], ==, 4890000);
  g_assert_cmpint (comma->dur_ns[bar], ==, 3764289708);
  g_assert_cmpint (comma->start_ns[foo], ==, 3473608458);
  g_assert_cmpint (comma->dur_ns[foo], ==, 295555500);
  g_assert_false (comma->truncated);
  g_assert_true (has_warning (comma, "1 trailing commas (a ',' right before a closing '}' or "
                                     "']', which JSON does not allow) were read past, the first "
                                     "before line 5, column 11"));

  g_assert_cmpuint (args->n_async_slices, ==, 2);
  g_assert_true (has_warning (args, "2 trailing commas"));
  {
    g_autofree char *text = iv_trace_slice_args (args, find_slice (args, "Event2"), NULL);
    g_autoptr (JsonNode) node = json_from_string (text, NULL);
    g_assert_nonnull (node);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "01.step1"), ==, 1);
  }

  g_assert_cmpuint (raw->n_slices, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      gsize s = find_slice (raw, expect[i].name);
      g_assert_cmpint (raw->start_ns[s], ==, expect[i].ts);
      g_assert_cmpint (raw->dur_ns[s], ==, expect[i].dur);
    }
  g_assert_true (has_warning (raw, "14 control characters (line breaks, tabs) inside strings, "
                                   "which JSON does not allow, were kept as written, the first "
                                   "at line 17, column 68"));
  {
    g_autofree char *text = iv_trace_slice_args (raw, find_slice (raw, "01 "), NULL);
    g_autoptr (JsonNode) node = json_from_string (text, NULL);
    g_assert_nonnull (node);
    g_assert_true (g_str_has_suffix (
        json_object_get_string_member (json_node_get_object (node), "raw"), "cc cc cc \n"));
  }
}

/* Async ids (json_trace_tokenizer.cc, ExtractId and ParseId2; json_trace_parser.cc, the
 * 'b'/'e'/'n' case): an async event needs an id or id2's "local"/"global"; "" is an id
 * like any other (test_json_async); an id2 of another key is no id (test_json_id2). */
static void
test_perfetto_async_ids (void)
{
  g_autoptr (IvTrace) async = load_perfetto ("json_async.json");
  g_autoptr (IvTrace) id2 = load_perfetto ("json_id2.json");

  g_assert_cmpuint (async->n_async_slices, ==, 3);
  g_assert_cmpint (async->dur_ns[find_slice (async, "AsyncEmptyStringId")], ==, 100000);
  g_assert_cmpuint (id2->n_async_slices, ==, 1);
  g_assert_cmpuint (count_named (id2, "AsyncId2StandardGlobalKey"), ==, 1);
  g_assert_cmpuint (count_named (id2, "AsyncId2EmptyGlobalKey"), ==, 0);
  g_assert_true (has_warning (id2, "2 async events (b, n, e) without an id or a pid skipped, "
                                   "the first at line 25, column 13"));
}

/* test_json_trace_metadata: the top-level "metadata" object is kept (Perfetto's
 * json_metadata.*): numbers as numbers, text as text. test_trailing_empty_event: a
 * closing "{}" is no event and no warning. test_json_metadata_missing_or_invalid_ts:
 * metadata needs no time. test_x_event_order: an X without tid nests on thread pid. */
static void
test_perfetto_metadata (void)
{
  g_autoptr (IvTrace) meta = load_perfetto ("json_trace_metadata.json");
  g_autoptr (IvTrace) empty = load_perfetto ("json_trailing_empty_event.json");
  g_autoptr (IvTrace) names = load_perfetto ("json_metadata_missing_or_invalid_ts.json");
  g_autoptr (IvTrace) order = load_perfetto ("json_x_event_order.json");
  const IvInfoItem *it;
  guint named = 0;

  g_assert_cmpuint (meta->info->metadata->len, ==, 5);
  g_assert_cmpstr (iv_trace_info_value (meta->info->metadata, "source"), ==, "DevTools");
  g_assert_cmpstr (iv_trace_info_value (meta->info->metadata, "startTime"), ==,
                   "2023-09-21T21:04:15.706Z");
  it = iv_trace_info_find (meta->info->metadata, "hardwareConcurrency");
  g_assert_nonnull (it);
  g_assert_cmpint (it->kind, ==, IV_INFO_NUMBER);
  g_assert_cmpstr (it->value, ==, "12");

  g_assert_cmpuint (empty->n_slices, ==, 1);
  g_assert_cmpuint (empty->warnings->len, ==, 0);

  for (guint i = 0; i < names->processes->len; i++)
    {
      const char *n = ((IvProcess *) names->processes->pdata[i])->name;
      named += g_strcmp0 (n, "MissingTs") == 0 || g_strcmp0 (n, "NullTs") == 0
               || g_strcmp0 (n, "InvalidTs") == 0;
    }
  g_assert_cmpuint (named, ==, 3);

  g_assert_true (track_of (order, find_slice (order, "Child"))
                 == track_of (order, find_slice (order, "Parent")));
  g_assert_cmpuint (
      g_array_index (order->rows, IvRow, order->row[find_slice (order, "Child")]).depth, ==, 1);
}

/* Kineto's distributedInfo and deviceProperties (a public HTA trace): rank, world size,
 * backend, the process groups with their ranks summarised, and each device. */
static void
test_trace_info_kineto (void)
{
  g_autofree char *path = shared ("kineto_train_rank0_68k_events.json.gz");
  g_autoptr (IvTrace) t = iv_trace_load (path, NULL, NULL, NULL, NULL);
  g_autofree char *summary = NULL, *device = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_nonnull (t);
  summary = iv_trace_info_distributed_summary (t->info);
  g_assert_cmpstr (summary, ==, "rank 0 of 1 · nccl · 1 process group");
  g_assert_cmpuint (t->info->process_groups->len, ==, 1);
  g_assert_cmpstr (iv_trace_info_value (t->info->process_groups->pdata[0], "ranks"), ==,
                   "0 (1 rank)");
  g_assert_cmpstr (iv_trace_info_value (t->info->distributed, "nccl_version"), ==, "2.17.1");
  g_assert_cmpuint (t->info->devices->len, ==, 8);
  device = iv_trace_info_device_summary (t->info->devices->pdata[0]);
  g_assert_cmpstr (device, ==, "Tesla V100-SXM2-32GB · compute 7.0 · 80 SMs · 31.7 GiB");
  g_assert_cmpstr (iv_trace_info_value (t->info->attributes, "schemaVersion"), ==, "1");
  lines = iv_trace_info_lines (t->info);
  g_assert_cmpstr (lines[0], ==, "distributed: rank 0 of 1 · nccl · 1 process group");
  g_assert_cmpstr (lines[1], ==,
                   "devices: 8 × Tesla V100-SXM2-32GB · compute 7.0 · 80 SMs · 31.7 GiB");
}

/* The range a trace opens on leaves out a few slices far from the work (catapult's
 * fuchsia_trace.json: 0.3 % of its events, async spans on another clock, 312 hours before
 * the 2.55 s of work, made the default figure 312 hours wide): 200 slices in one second
 * and one async span 1,000 s before them open on that second; two halves of a trace far
 * apart are both work, and stay. */
static void
test_activity_range_outliers (void)
{
  GString *text = g_string_new ("[");
  GString *halves = g_string_new ("[");
  gint64 t0, t1;

  for (guint i = 0; i < 200; i++)
    {
      g_string_append_printf (text,
                              "{\"ph\": \"X\", \"name\": \"w\", \"pid\": 1, \"tid\": 1, "
                              "\"ts\": %u, \"dur\": 4000},",
                              1000000000u + i * 5000u);
      g_string_append_printf (halves,
                              "{\"ph\": \"X\", \"name\": \"w\", \"pid\": 1, \"tid\": 1, "
                              "\"ts\": %u, \"dur\": 4000},",
                              (i < 100 ? 0u : 1000000000u) + i * 5000u);
    }
  g_string_append (text, "{\"ph\": \"b\", \"name\": \"early\", \"cat\": \"gfx\", \"id\": 1, "
                         "\"pid\": 2, \"ts\": 0},"
                         "{\"ph\": \"e\", \"name\": \"early\", \"cat\": \"gfx\", \"id\": 1, "
                         "\"pid\": 2, \"ts\": 1000}]");
  g_string_append (halves, "{}]");
  {
    g_autoptr (IvTrace) t = load_text ("outliers.json", text->str);
    g_assert_cmpint (t->t0_ns, ==, 0);
    iv_trace_activity_range (t, &t0, &t1);
    g_assert_cmpint (t0, ==, G_GINT64_CONSTANT (1000000000000));
    g_assert_cmpint (t1, ==, G_GINT64_CONSTANT (1000000000000) + 199 * 5000000 + 4000000);
  }
  {
    g_autoptr (IvTrace) t = load_text ("halves.json", halves->str);
    iv_trace_activity_range (t, &t0, &t1);
    g_assert_cmpint (t0, ==, t->t0_ns);
    g_assert_cmpint (t1, ==, t->t1_ns);
  }
  g_string_free (text, TRUE);
  g_string_free (halves, TRUE);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-trace-XXXXXX");
  g_test_add_func ("/trace/shared-files", test_shared_files);
  g_test_add_func ("/trace/kineto-layout", test_kineto_layout);
  g_test_add_func ("/trace/speedscope-edge-cases", test_speedscope_edge_cases);
  g_test_add_func ("/trace/nesting-and-self", test_simple_nesting_and_self);
  g_test_add_func ("/trace/precision-and-tids", test_precision_and_tids);
  g_test_add_func ("/trace/truncated-and-errors", test_truncated_and_errors);
  g_test_add_func ("/trace/partial-overlap-row", test_partial_overlap_row);
  g_test_add_func ("/trace/lod", test_lod);
  g_test_add_func ("/trace/search-and-stats", test_search_and_stats);
  g_test_add_func ("/trace/gpu-analysis", test_gpu_analysis);
  g_test_add_func ("/trace/gpu-tracks", test_gpu_tracks);
  g_test_add_func ("/trace/overrun-keeps-durations", test_overrun_keeps_durations);
  g_test_add_func ("/trace/open-spans", test_open_spans);
  g_test_add_func ("/trace/range-stats", test_range_stats);
  g_test_add_func ("/trace/range-matches-whole", test_range_matches_whole);
  g_test_add_func ("/trace/pipelined", test_pipelined);
  g_test_add_func ("/trace/breakdown", test_breakdown);
  g_test_add_func ("/trace/breakdowns-beside", test_breakdowns_beside);
  g_test_add_func ("/trace/report", test_report);
  g_test_add_func ("/trace/pipeline-plot", test_pipeline_plot);
  g_test_add_func ("/trace/pipeline-legacy", test_pipeline_legacy);
  g_test_add_func ("/trace/breakdown-segments", test_breakdown_segments);
  g_test_add_func ("/trace/pipelined-render", test_pipelined_render);
  g_test_add_func ("/trace/memory-per-slice", test_memory_per_slice);
  g_test_add_func ("/trace/timeline-render", test_timeline_render);
  g_test_add_func ("/trace/timeline-counter", test_timeline_counter);
  g_test_add_func ("/trace/counter-series-grouped", test_counter_series_grouped);
  g_test_add_func ("/trace/memory-counter", test_memory_counter);
  g_test_add_func ("/trace/timeline-raster-matches-vector", test_timeline_raster_matches_vector);
  g_test_add_func ("/trace/timeline-cache-matches", test_timeline_cache_matches);
  g_test_add_func ("/trace/area-charts", test_area_charts);
  g_test_add_func ("/trace/analysis-charts", test_analysis_charts);
  g_test_add_func ("/trace/timeline-state", test_timeline_state);
  g_test_add_func ("/trace/export-names-and-extent", test_export_names_and_extent);
  g_test_add_func ("/trace/format-corners", test_format_corners);
  g_test_add_func ("/trace/long-names", test_long_names);
  g_test_add_func ("/trace/out-of-memory", test_out_of_memory);
  g_test_add_func ("/trace/perfetto/flows-v2", test_perfetto_flows_v2);
  g_test_add_func ("/trace/perfetto/tid-and-counters", test_perfetto_tid_and_counters);
  g_test_add_func ("/trace/perfetto/counter-strings", test_perfetto_counter_strings);
  g_test_add_func ("/trace/perfetto/end-names-and-missing-dur",
                   test_perfetto_end_names_and_missing_dur);
  g_test_add_func ("/trace/perfetto/string-times", test_perfetto_string_times);
  g_test_add_func ("/trace/perfetto/lenient-json", test_perfetto_lenient_json);
  g_test_add_func ("/trace/perfetto/async-ids", test_perfetto_async_ids);
  g_test_add_func ("/trace/perfetto/metadata", test_perfetto_metadata);
  g_test_add_func ("/trace/trace-info-kineto", test_trace_info_kineto);
  g_test_add_func ("/trace/activity-range-outliers", test_activity_range_outliers);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
