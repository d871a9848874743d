/* test-live.c: a sweep followed while a writer thread writes it as AIPerf does — records
 * and telemetry appended in pieces that cut lines anywhere, a second run folder made
 * half-way, summaries written last (one of them half-written first) — and read by the
 * main thread as it goes: every record read exactly once, in order, the runs finished
 * when their summaries appear. The writer shares nothing with the reader but the files
 * and one atomic flag. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#include <time.h>

#include "iv-run.h"
#include "iv-sweep.h"
#include "iv-test-util.h"

#define N_RECORDS 400
#define BASE_NS G_GINT64_CONSTANT (1762551534000000000)

static char *tmpdir;

static char *
record_line (guint i)
{
  /* request i starts at i ms, takes 10 ms; its TTFT is i + 0.5 ms */
  return g_strdup_printf (
      "{\"metadata\": {\"request_start_ns\": %" G_GINT64_FORMAT ", \"request_ack_ns\": null, "
      "\"request_end_ns\": %" G_GINT64_FORMAT ", \"worker_id\": \"worker_%u\", "
      "\"benchmark_phase\": \"profiling\", \"was_cancelled\": false}, "
      "\"metrics\": {\"time_to_first_token\": {\"value\": %u.5, \"unit\": \"ms\"}, "
      "\"request_latency\": {\"value\": 10.0, \"unit\": \"ms\"}}, \"error\": null}\n",
      BASE_NS + (gint64) i * 1000000, BASE_NS + (gint64) i * 1000000 + 10000000, i % 3, i);
}

static char *
telemetry_line (guint i)
{
  return g_strdup_printf (
      "{\"timestamp_ns\": %" G_GINT64_FORMAT ", \"dcgm_url\": \"http://localhost:9400/metrics\", "
      "\"gpu_index\": 0, \"gpu_uuid\": \"GPU-live\", \"gpu_model_name\": \"Test GPU\", "
      "\"telemetry_data\": {\"gpu_utilization\": %u.0}}\n",
      BASE_NS + (gint64) i * 5000000, i % 100);
}

static void
write_all (int fd, const char *text, gsize len)
{
  while (len > 0)
    {
      gssize n = write (fd, text, len);
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      text += n;
      len -= (gsize) n;
    }
}

static int
open_append (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  int fd = open (path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static char *
summary_text (guint n)
{
  return g_strdup_printf ("{\"request_count\": {\"unit\": \"requests\", \"avg\": %u.0}, "
                          "\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": %.1f}, "
                          "\"input_config\": {\"loadgen\": {\"concurrency\": 4}}}\n",
                          n, (n - 1) / 2.0 + 0.5);
}

typedef struct
{
  char *run1, *run2;
  gint done;
} Writer;

/* Appends record i to @fd in up to three pieces cut at places that vary. */
static void
write_record (int fd, guint i)
{
  g_autofree char *line = record_line (i);
  gsize len = strlen (line), a = (i * 37) % len, b = a + (len - a) / 2;

  write_all (fd, line, a);
  if (i % 5 == 0)
    g_usleep (200);
  write_all (fd, line + a, b - a);
  write_all (fd, line + b, len - b);
}

static gpointer
writer_thread (gpointer data)
{
  Writer *w = data;
  int rec1 = open_append (w->run1, "profile_export.jsonl");
  int tel1 = -1, rec2 = -1;

  for (guint i = 0; i < N_RECORDS; i++)
    {
      write_record (rec1, i);
      if (i == 50)
        tel1 = open_append (w->run1, "gpu_telemetry_export.jsonl");
      if (tel1 >= 0 && i % 4 == 0)
        {
          g_autofree char *t = telemetry_line (i / 4);
          write_all (tel1, t, strlen (t));
        }
      if (i == N_RECORDS / 2)
        {
          /* a second run of the sweep begins */
          g_assert_cmpint (g_mkdir_with_parents (w->run2, 0755), ==, 0);
          rec2 = open_append (w->run2, "profile_export.jsonl");
        }
      if (rec2 >= 0)
        write_record (rec2, i - N_RECORDS / 2);
      if (i % 16 == 0)
        g_usleep (1000);
    }
  close (rec1);
  close (tel1);
  close (rec2);
  {
    /* run 1's summary appears half-written first, as a plain write would leave it */
    g_autofree char *text = summary_text (N_RECORDS);
    int fd = open_append (w->run1, "profile_export_aiperf.json");
    write_all (fd, text, strlen (text) / 2);
    g_usleep (30000);
    write_all (fd, text + strlen (text) / 2, strlen (text) - strlen (text) / 2);
    close (fd);
  }
  {
    g_autofree char *text = summary_text (N_RECORDS - N_RECORDS / 2);
    g_autofree char *path = g_build_filename (w->run2, "profile_export_aiperf.json", NULL);
    g_assert_true (g_file_set_contents (path, text, -1, NULL));
  }
  g_atomic_int_set (&w->done, 1);
  return NULL;
}

static void
assert_run_exact (const IvRun *r, guint n)
{
  const IvRunMetric *ttft = iv_run_get_metric (r, "time_to_first_token");

  g_assert_null (r->live);
  g_assert_cmpuint (r->n_requests, ==, n);
  g_assert_nonnull (ttft);
  g_assert_cmpuint (ttft->values->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      /* in order, each once: a record read twice or cut would break the sequence */
      g_assert_cmpint (g_array_index (r->start_ns, gint64, i), ==, BASE_NS + (gint64) i * 1000000);
      g_assert_cmpfloat (g_array_index (ttft->values, double, i), ==, i + 0.5);
    }
  g_assert_cmpfloat (iv_run_summary_requests (r), ==, n);
  g_assert_cmpfloat (r->concurrency, ==, 4);
  g_assert_cmpuint (r->damaged_lines, ==, 0);
  g_assert_cmpuint (r->warnings->len, ==, 0);
}

static void
test_follow_sweep (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "sweep", NULL);
  Writer w
      = { g_build_filename (root, "run_c1", NULL), g_build_filename (root, "run_c2", NULL), 0 };
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
  GThread *thread;
  guint polls = 0, seen_live_runs = 0, max_seen = 0;
  gboolean growing_seen = FALSE;

  g_assert_cmpint (g_mkdir_with_parents (w.run1, 0755), ==, 0);
  iv_test_write_file (w.run1, "profile_export.jsonl", "");
  s = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->runs->len, ==, 1);
  g_assert_nonnull (((IvRun *) s->runs->pdata[0])->live);
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 1);

  thread = g_thread_new ("writer", writer_thread, &w);
  for (;;)
    {
      gboolean writer_done = g_atomic_int_get (&w.done);
      IvSweepFollow f;
      /* a few kilobytes a call: lines are cut by the reader's limit too */
      iv_sweep_follow (s, 3000, TRUE, &f);
      polls++;
      if (s->runs->len == 2)
        seen_live_runs = MAX (seen_live_runs, iv_sweep_n_live (s));
      {
        const IvRun *r1 = s->runs->pdata[0];
        if (r1->live && r1->n_requests > max_seen)
          {
            /* the run is read while it grows: what is there is exact so far */
            for (guint i = max_seen; i < r1->n_requests; i++)
              g_assert_cmpint (g_array_index (r1->start_ns, gint64, i), ==,
                               BASE_NS + (gint64) i * 1000000);
            if (max_seen > 0 && r1->n_requests < N_RECORDS)
              growing_seen = TRUE;
            max_seen = (guint) r1->n_requests;
          }
      }
      if (writer_done && iv_sweep_n_live (s) == 0 && s->runs->len == 2)
        break;
      g_assert_cmpuint (polls, <, 200000);
      g_usleep (500);
    }
  g_thread_join (thread);
  g_assert_true (growing_seen);
  g_assert_cmpuint (seen_live_runs, ==, 2);
  for (guint i = 0; i < s->warnings->len; i++)
    g_test_message ("warning: %s", (char *) s->warnings->pdata[i]);
  g_assert_cmpuint (s->warnings->len, ==, 0);
  assert_run_exact (s->runs->pdata[0], N_RECORDS);
  assert_run_exact (s->runs->pdata[1], N_RECORDS - N_RECORDS / 2);
  {
    /* telemetry followed too: a sample every 4 records from record 52 on */
    const IvRun *r1 = s->runs->pdata[0];
    const IvGpu *gpu;
    g_assert_cmpuint (r1->gpus->len, ==, 1);
    gpu = r1->gpus->pdata[0];
    g_assert_cmpuint (gpu->ts_ns->len, ==, (N_RECORDS - 52 + 3) / 4);
    for (guint i = 0; i < gpu->ts_ns->len; i++)
      g_assert_cmpint (g_array_index (gpu->ts_ns, gint64, i), ==,
                       BASE_NS + (gint64) (13 + i) * 5000000);
  }
  {
    /* the concurrency came with the summary: the runs no longer differ by folder only */
    g_assert_cmpuint (s->varying->len, ==, 0);
  }
  g_free (w.run1);
  g_free (w.run2);
}

/* A partial last line waits for its newline; a run whose writer died mid-line is read in
 * full once its summary says it is over, the cut line warned about. */
static void
test_partial_line (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "partial", NULL);
  g_autofree char *l0 = record_line (0), *l1 = record_line (1);
  g_autofree char *text = g_strdup_printf ("%s%.*s", l0, 40, l1);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  IvRunFollow f;
  int fd;

  iv_test_write_file (dir, "profile_export.jsonl", text);
  r = iv_run_load_full (dir, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r->live);
  g_assert_cmpuint (r->n_requests, ==, 1);
  g_assert_cmpuint (r->damaged_lines, ==, 0);
  /* nothing new: nothing read */
  g_assert_true (iv_run_follow (r, 0, &f, &error));
  g_assert_cmpuint (f.new_records, ==, 0);
  g_assert_false (f.finished);
  /* the rest of the line arrives */
  fd = open_append (dir, "profile_export.jsonl");
  write_all (fd, l1 + 40, strlen (l1) - 40);
  g_assert_true (iv_run_follow (r, 0, &f, &error));
  g_assert_cmpuint (f.new_records, ==, 1);
  g_assert_cmpuint (r->n_requests, ==, 2);
  /* a third line cut by a writer that dies, then the summary */
  {
    g_autofree char *l2 = record_line (2);
    write_all (fd, l2, 30);
  }
  close (fd);
  iv_test_write_file (dir, "profile_export_aiperf.json", "{\"request_count\": {\"avg\": 3}}");
  g_assert_true (iv_run_follow (r, 0, &f, &error));
  g_assert_no_error (error);
  g_assert_true (f.finished);
  g_assert_null (r->live);
  g_assert_cmpuint (r->n_requests, ==, 2);
  g_assert_cmpuint (r->damaged_lines, ==, 1);
  g_assert_cmpuint (r->warnings->len, >=, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0], "last line is cut short (line 3)"));
  /* the whole-file load of the same folder agrees */
  {
    g_autoptr (IvRun) whole = iv_run_load (dir, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (whole->n_requests, ==, r->n_requests);
    g_assert_cmpstr (whole->warnings->pdata[0], ==, r->warnings->pdata[0]);
  }
}

/* AIPerf clears its exports when a run begins again in the same folder: the followed run
 * starts over instead of appending to the old requests. */
static void
test_restart (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "restart", NULL);
  g_autofree char *dir = g_build_filename (root, "run", NULL);
  g_autofree char *l0 = record_line (0), *l1 = record_line (1), *l7 = record_line (7);
  g_autofree char *two = g_strconcat (l0, l1, NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
  IvSweepFollow f;

  iv_test_write_file (dir, "profile_export.jsonl", two);
  s = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((IvRun *) s->runs->pdata[0])->n_requests, ==, 2);
  iv_test_write_file (dir, "profile_export.jsonl", l7);
  iv_sweep_follow (s, 0, FALSE, &f);
  g_assert_cmpuint (((IvRun *) s->runs->pdata[0])->n_requests, ==, 1);
  g_assert_cmpint (g_array_index (((IvRun *) s->runs->pdata[0])->start_ns, gint64, 0), ==,
                   BASE_NS + 7000000);
  g_assert_nonnull (((IvRun *) s->runs->pdata[0])->live);
}

/* Without following, a run with no summary yet is read as it is, as before. */
static void
test_not_followed (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "plain", NULL);
  g_autofree char *l0 = record_line (0);
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  IvRunFollow f;

  iv_test_write_file (dir, "profile_export.jsonl", l0);
  r = iv_run_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (r->live);
  g_assert_true (iv_run_follow (r, 0, &f, &error));
  g_assert_cmpuint (f.new_records, ==, 0);
}

/* Reads are bounded by the call's budget: a line longer than it is read whole once its
 * newline comes, a line past the limit (lowered to 1 MiB) is passed over and named, and
 * the records after either are read in order. */
static void
test_long_lines (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "long", NULL);
  g_autofree char *l0 = record_line (0), *l1 = record_line (1), *l2 = record_line (2);
  g_autofree char *l3 = record_line (3), *l4 = record_line (4);
  g_autofree char *pad = g_strnfill (50000, 'w');
  g_autofree char *wide = NULL;
  g_autofree char *huge = g_strnfill ((gsize) 3 << 20, 'h');
  g_autoptr (GError) error = NULL;
  g_autoptr (IvRun) r = NULL;
  IvRunFollow f;
  guint calls = 0;
  int fd;

  /* record 1 with a 50 kB worker id: longer than a call's 3000 bytes */
  {
    char *at = strstr (l1, "worker_1");
    wide = g_strdup_printf ("%.*sworker_%s%s", (int) (at - l1), l1, pad, at + strlen ("worker_1"));
  }
  iv_test_write_file (dir, "profile_export.jsonl", l0);
  g_setenv (IV_RUN_LINE_MAX_ENV, "1", TRUE);
  r = iv_run_load_full (dir, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  fd = open_append (dir, "profile_export.jsonl");
  write_all (fd, wide, strlen (wide));
  write_all (fd, l2, strlen (l2));
  /* line 4: 3 MiB without its newline yet */
  write_all (fd, huge, strlen (huge));
  do
    g_assert_true (iv_run_follow (r, 3000, &f, &error));
  while (++calls < 100000 && r->n_requests < 3);
  g_assert_cmpuint (r->n_requests, ==, 3);
  g_assert_cmpuint (strlen (iv_intern_get (r->strings, g_array_index (r->worker, guint32, 1))), ==,
                    strlen ("worker_") + 50000);
  /* searching on for its newline, in 3000-byte steps, reads nothing of it */
  for (guint i = 0; i < 2000; i++)
    {
      g_assert_true (iv_run_follow (r, 3000, &f, &error));
      g_assert_cmpuint (f.new_records, ==, 0);
    }
  write_all (fd, "\n", 1);
  write_all (fd, l3, strlen (l3));
  write_all (fd, l4, strlen (l4));
  close (fd);
  for (calls = 0; calls < 100000 && r->n_requests < 5; calls++)
    g_assert_true (iv_run_follow (r, 3000, &f, &error));
  g_unsetenv (IV_RUN_LINE_MAX_ENV);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_requests, ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (g_array_index (r->start_ns, gint64, i), ==, BASE_NS + (gint64) i * 1000000);
  g_assert_cmpuint (r->damaged_lines, ==, 1);
  g_assert_cmpuint (r->warnings->len, ==, 1);
  g_assert_nonnull (strstr (r->warnings->pdata[0],
                            "profile_export.jsonl: line 4 is longer than 1 MiB, the most a line "
                            "may hold (INFERVIEW_RECORD_LINE_MAX_MIB sets it); it was skipped"));
}

/* A run that can no longer be followed stops being live and says since when and why; a
 * run whose files were cleared (AIPerf starting it again) is waited for. */
static void
test_stops (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "stops", NULL);
  g_autofree char *fifo = g_build_filename (root, "fifo", NULL);
  g_autofree char *gone = g_build_filename (root, "gone", NULL);
  g_autofree char *cleared = g_build_filename (root, "cleared", NULL);
  g_autofree char *l0 = record_line (0);
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
  IvSweepFollow f;

  iv_test_write_file (fifo, "profile_export.jsonl", l0);
  iv_test_write_file (gone, "profile_export.jsonl", l0);
  iv_test_write_file (cleared, "profile_export.jsonl", l0);
  s = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 3);
  iv_sweep_follow (s, 0, FALSE, &f);
  g_assert_cmpuint (f.stopped_runs, ==, 0);

  /* the records of "fifo" become a FIFO */
  {
    g_autofree char *path = g_build_filename (fifo, "profile_export.jsonl", NULL);
    g_assert_cmpint (g_unlink (path), ==, 0);
    g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  }
  iv_sweep_follow (s, 0, FALSE, &f);
  g_assert_cmpuint (f.stopped_runs, ==, 1);
  g_assert_nonnull (strstr (f.stopped_why, "fifo: no longer followed since "));
  g_assert_nonnull (strstr (f.stopped_why, "(what was read until then is kept): "));
  g_assert_nonnull (strstr (f.stopped_why, "profile_export.jsonl: is a named pipe (FIFO)"));
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 2);
  {
    /* the run keeps its record and says it */
    const IvRun *r = s->runs->pdata[1];
    g_assert_cmpstr (r->name, ==, "fifo");
    g_assert_null (r->live);
    g_assert_cmpuint (r->n_requests, ==, 1);
    g_assert_cmpstr (r->warnings->pdata[r->warnings->len - 1], ==, f.stopped_why);
  }

  /* "gone" is removed, "cleared" loses its records (it is waited for) */
  {
    g_autofree char *path = g_build_filename (cleared, "profile_export.jsonl", NULL);
    iv_test_remove_tree (gone);
    g_assert_cmpint (g_unlink (path), ==, 0);
  }
  iv_sweep_follow (s, 0, FALSE, &f);
  g_assert_cmpuint (f.stopped_runs, ==, 1);
  g_assert_nonnull (strstr (f.stopped_why, "gone: no longer followed since "));
  g_assert_nonnull (strstr (f.stopped_why, "gone was removed or renamed"));
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 1);
  g_assert_nonnull (((IvRun *) s->runs->pdata[0])->live);
  g_assert_cmpstr (((IvRun *) s->runs->pdata[0])->name, ==, "cleared");
  /* nothing more to say */
  iv_sweep_follow (s, 0, FALSE, &f);
  g_assert_cmpuint (f.stopped_runs, ==, 0);
  g_assert_cmpuint (s->warnings->len, ==, 0);
}

/* A run without its summary is live only while its files grow: one whose records stopped
 * growing an hour ago is incomplete as soon as it is opened (the window said "7 runs ·
 * Live (2 live)" forever, plot --watch never ended); one being written is live until it
 * has not grown for the sweep's stale time, then incomplete, with a warning, the records
 * kept — and a last line without its newline read as cut. */
static void
test_incomplete (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "incomplete", NULL);
  g_autofree char *old_dir = g_build_filename (root, "old", NULL);
  g_autofree char *new_dir = g_build_filename (root, "new", NULL);
  g_autofree char *old_records = g_build_filename (old_dir, "profile_export.jsonl", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (IvSweep) sweep = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  IvSweepFollow f;
  IvRun *old_run = NULL, *new_run = NULL;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *line = record_line (i);
      g_string_append (text, line);
    }
  iv_test_write_file (old_dir, "profile_export.jsonl", text->str);
  /* half of a fourth line: a writer that died mid-line */
  g_string_append_len (text, "{\"metadata\": {\"request_start", 28);
  iv_test_write_file (new_dir, "profile_export.jsonl", text->str);
  {
    struct utimbuf hour_ago = { time (NULL) - 3600, time (NULL) - 3600 };
    g_assert_cmpint (utime (old_records, &hour_ago), ==, 0);
  }
  sweep = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < sweep->runs->len; i++)
    {
      IvRun *r = sweep->runs->pdata[i];
      if (g_str_equal (r->name, "old"))
        old_run = r;
      else
        new_run = r;
    }
  g_assert_nonnull (old_run);
  g_assert_nonnull (new_run);
  g_assert_null (old_run->live);
  g_assert_true (old_run->incomplete);
  g_assert_cmpuint (old_run->n_requests, ==, 3);
  g_assert_nonnull (strstr (old_run->warnings->pdata[old_run->warnings->len - 1],
                            "old: incomplete: no summary, and its files have not grown for"));
  g_assert_nonnull (new_run->live);
  g_assert_cmpuint (iv_sweep_n_live (sweep), ==, 1);
  /* a stale time of 0: the next read finds it has not grown since */
  sweep->stale_after_s = 0;
  iv_sweep_follow (sweep, 0, FALSE, &f);
  g_assert_cmpuint (f.incomplete_runs, ==, 1);
  g_assert_nonnull (strstr (f.incomplete_why, "new: incomplete: no summary"));
  g_assert_null (new_run->live);
  g_assert_true (new_run->incomplete);
  g_assert_cmpuint (iv_sweep_n_live (sweep), ==, 0);
  g_assert_cmpuint (new_run->n_requests, ==, 3);
  /* the cut last line was read at the end and said */
  g_assert_cmpuint (new_run->damaged_lines, ==, 1);
  {
    gboolean said = FALSE;
    for (guint i = 0; i < new_run->warnings->len; i++)
      said |= strstr (new_run->warnings->pdata[i], "the last line is cut short (line 4)") != NULL;
    g_assert_true (said);
  }
  iv_test_remove_tree (root);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-live-XXXXXX");
  g_test_add_func ("/live/follow-sweep", test_follow_sweep);
  g_test_add_func ("/live/partial-line", test_partial_line);
  g_test_add_func ("/live/restart", test_restart);
  g_test_add_func ("/live/not-followed", test_not_followed);
  g_test_add_func ("/live/long-lines", test_long_lines);
  g_test_add_func ("/live/stops", test_stops);
  g_test_add_func ("/live/incomplete", test_incomplete);
  ret = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return ret;
}
