/* test-live-follow.c: the one follower of a live sweep (the window's and plot --watch's),
 * driven without a display: a run folder written in steps by the test — records appended
 * past the follower's per-read share, a second run made, the summary written last, a run
 * folder removed, a run that stops growing — and what the follower reports observed
 * through the main loop: each read takes no more than its share, and every change is
 * said (new records, new runs, finished, stopped with its reason, incomplete with its
 * reason). */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "iv-live-follow.h"
#include "iv-test-util.h"

#define BASE_NS G_GINT64_CONSTANT (1762551534000000000)
/* long enough for a busy machine: reads are at least 500 ms apart, new runs looked for
 * every 2 s, and without folder events a read every 2 s */
#define WAIT_S 30

static char *tmpdir;

static char *
record_line (guint i)
{
  return g_strdup_printf (
      "{\"metadata\": {\"request_start_ns\": %" G_GINT64_FORMAT ", \"request_ack_ns\": null, "
      "\"request_end_ns\": %" G_GINT64_FORMAT ", \"worker_id\": \"worker_0\", "
      "\"benchmark_phase\": \"profiling\", \"was_cancelled\": false}, "
      "\"metrics\": {\"time_to_first_token\": {\"value\": %u.5, \"unit\": \"ms\"}, "
      "\"request_latency\": {\"value\": 10.0, \"unit\": \"ms\"}}, \"error\": null}\n",
      BASE_NS + (gint64) i * 1000000, BASE_NS + (gint64) i * 1000000 + 10000000, i);
}

static void
append_records (const char *dir, guint from, guint to)
{
  g_autofree char *path = g_build_filename (dir, "profile_export.jsonl", NULL);
  g_autoptr (GString) text = g_string_new (NULL);
  FILE *f;

  for (guint i = from; i < to; i++)
    {
      g_autofree char *line = record_line (i);
      g_string_append (text, line);
    }
  /* in one write: more than one read's share arrives at once */
  f = fopen (path, "a");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (text->str, 1, text->len, f), ==, text->len);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* What the follower said, summed over its reports. */
typedef struct
{
  guint reports, records, most_records, runs, finished, stopped, incomplete;
  guint stopped_signals;
  char *stopped_why, *incomplete_why, *stopped_signal_why;
} Seen;

static void
on_changed (IvLiveFollow *follow, const IvSweepFollow *f, Seen *seen)
{
  seen->reports++;
  seen->records += f->new_records;
  seen->most_records = MAX (seen->most_records, f->new_records);
  seen->runs += f->new_runs;
  seen->finished += f->finished_runs;
  if (f->stopped_runs)
    {
      /* "stopped" came first, with the same sentence */
      g_assert_cmpuint (seen->stopped_signals, ==, seen->stopped + 1);
      g_assert_cmpstr (f->stopped_why, ==, seen->stopped_signal_why);
      seen->stopped += f->stopped_runs;
      g_free (seen->stopped_why);
      seen->stopped_why = g_strdup (f->stopped_why);
    }
  if (f->incomplete_runs)
    {
      seen->incomplete += f->incomplete_runs;
      g_free (seen->incomplete_why);
      seen->incomplete_why = g_strdup (f->incomplete_why);
    }
}

static void
on_stopped (IvLiveFollow *follow, const char *why, Seen *seen)
{
  seen->stopped_signals++;
  g_free (seen->stopped_signal_why);
  seen->stopped_signal_why = g_strdup (why);
}

static void
seen_clear (Seen *seen)
{
  g_free (seen->stopped_why);
  g_free (seen->incomplete_why);
  g_free (seen->stopped_signal_why);
}

/* Runs the main loop until *@count reaches @want; FALSE after WAIT_S without. */
static gboolean
wait_for (const guint *count, guint want)
{
  gint64 until = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (*count < want)
    {
      if (g_get_monotonic_time () > until)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
  return TRUE;
}

static gsize
line_len (guint i)
{
  g_autofree char *line = record_line (i);
  return strlen (line);
}

/* Records appended past the share: read a share at a time, all of them, in order; a run
 * that appears is joined; a summary finishes its run; a removed run is no longer followed,
 * said with its reason. */
static void
test_follow (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "sweep", NULL);
  g_autofree char *run_a = g_build_filename (root, "run_a", NULL);
  g_autofree char *run_b = g_build_filename (root, "run_b", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
  g_autoptr (IvLiveFollow) follow = NULL;
  Seen seen = { 0 };
  /* three whole lines fit a read's share, a fourth does not */
  gsize share = 3 * line_len (99) + 20;
  const IvRun *a;

  g_assert_cmpuint (4 * line_len (2), >, share);
  g_assert_cmpint (g_mkdir_with_parents (run_a, 0755), ==, 0);
  append_records (run_a, 0, 2);
  s = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->runs->len, ==, 1);
  a = s->runs->pdata[0];
  g_assert_cmpuint (a->n_requests, ==, 2);
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 1);
  follow = iv_live_follow_new (s, share);
  g_signal_connect (follow, "changed", G_CALLBACK (on_changed), &seen);
  g_signal_connect (follow, "stopped", G_CALLBACK (on_stopped), &seen);

  /* 15 records at once: five reads of three, one after the other, nothing lost */
  append_records (run_a, 2, 17);
  g_assert_true (wait_for (&seen.records, 15));
  g_assert_cmpuint (seen.records, ==, 15);
  g_assert_cmpuint (seen.most_records, <=, 3);
  g_assert_cmpuint (seen.reports, >=, 5);
  g_assert_cmpuint (a->n_requests, ==, 17);
  for (guint i = 0; i < 17; i++)
    g_assert_cmpint (g_array_index (a->start_ns, gint64, i), ==, BASE_NS + (gint64) i * 1000000);

  /* a second run appears: it joins the sweep, followed too */
  g_assert_cmpint (g_mkdir_with_parents (run_b, 0755), ==, 0);
  append_records (run_b, 0, 1);
  g_assert_true (wait_for (&seen.runs, 1));
  g_assert_cmpuint (s->runs->len, ==, 2);
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 2);

  /* AIPerf writes the summary last: the run is finished */
  iv_test_write_file (run_a, "profile_export_aiperf.json",
                      "{\"request_count\": {\"unit\": \"requests\", \"avg\": 17.0}}\n");
  g_assert_true (wait_for (&seen.finished, 1));
  g_assert_null (a->live);
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 1);

  /* the second run's folder is removed: no longer followed, said with the reason */
  iv_test_remove_tree (run_b);
  g_assert_true (wait_for (&seen.stopped, 1));
  g_assert_cmpuint (seen.stopped_signals, ==, 1);
  g_assert_nonnull (strstr (seen.stopped_why, "run_b: no longer followed since "));
  g_assert_nonnull (strstr (seen.stopped_why, "run_b was removed or renamed"));
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 0);
  g_assert_cmpuint (seen.incomplete, ==, 0);

  /* stopped: nothing more is read or said */
  iv_live_follow_stop (follow);
  {
    guint reports = seen.reports;
    iv_live_follow_poll (follow);
    g_assert_cmpuint (seen.reports, ==, reports);
  }
  seen_clear (&seen);
}

/* A run without its summary whose files stop growing is incomplete after the sweep's
 * stale time: reported, with the sentence saying so. */
static void
test_incomplete (void)
{
  g_autofree char *root = g_build_filename (tmpdir, "quiet", NULL);
  g_autofree char *run = g_build_filename (root, "run_q", NULL);
  const char *paths[] = { root, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvSweep) s = NULL;
  g_autoptr (IvLiveFollow) follow = NULL;
  Seen seen = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (run, 0755), ==, 0);
  append_records (run, 0, 1);
  s = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s->stale_after_s = 1;
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 1);
  follow = iv_live_follow_new (s, 0);
  g_signal_connect (follow, "changed", G_CALLBACK (on_changed), &seen);
  g_signal_connect (follow, "stopped", G_CALLBACK (on_stopped), &seen);
  append_records (run, 1, 3);
  g_assert_true (wait_for (&seen.records, 2));
  /* then nothing more: incomplete, no longer live, the records kept */
  g_assert_true (wait_for (&seen.incomplete, 1));
  g_assert_nonnull (strstr (seen.incomplete_why, "run_q: incomplete: no summary"));
  g_assert_cmpuint (iv_sweep_n_live (s), ==, 0);
  g_assert_cmpuint (((IvRun *) s->runs->pdata[0])->n_requests, ==, 3);
  g_assert_cmpuint (seen.stopped_signals, ==, 0);
  g_assert_cmpuint (seen.finished, ==, 0);
  seen_clear (&seen);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-live-follow-XXXXXX");
  g_test_add_func ("/live-follow/follow", test_follow);
  g_test_add_func ("/live-follow/incomplete", test_incomplete);
  ret = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return ret;
}
