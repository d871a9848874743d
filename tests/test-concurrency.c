/* test-concurrency.c: traces and runs loaded on several threads at once (as opening many
 * files from the file manager does) come out identical to the same files loaded one
 * after another. Run under ThreadSanitizer in CI, this is where shared mutable state in
 * a loader shows itself. */
#include <glib/gstdio.h>
#include <string.h>

#include "iv-run.h"
#include "iv-test-util.h"
#include "iv-trace.h"

#define N_THREADS 4

static char *tmpdir;

/* A Chrome trace of @n complete events on 6 processes × 8 threads, in shuffled time
 * order with nesting, so that matching, sorting and row placement all have work. */
static char *
write_trace (const char *name, guint n, guint32 seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr (GString) s = g_string_new ("{\"traceEvents\": [\n");
  char *path = g_build_filename (tmpdir, name, NULL);

  for (guint p = 0; p < 6; p++)
    g_string_append_printf (s,
                            "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %u, "
                            "\"args\": {\"name\": \"proc %u\"}},\n",
                            p, (p * 7) % 6);
  for (guint i = 0; i < n; i++)
    {
      guint pid = g_rand_int_range (rand, 0, 6), tid = g_rand_int_range (rand, 0, 8);
      guint64 ts = g_rand_int_range (rand, 0, 50000000);
      guint dur = g_rand_int_range (rand, 1, 4000);
      g_string_append_printf (s,
                              "{\"ph\": \"X\", \"name\": \"op_%u\", \"cat\": \"c%u\", \"pid\": %u, "
                              "\"tid\": %u, \"ts\": %" G_GUINT64_FORMAT ".%03u, \"dur\": %u, "
                              "\"args\": {\"i\": %u}},\n",
                              g_rand_int_range (rand, 0, 300), i % 5, pid, tid, ts,
                              g_rand_int_range (rand, 0, 1000), dur, i);
      /* a child starting with its parent: nesting */
      if (i % 3 == 0)
        g_string_append_printf (s,
                                "{\"ph\": \"X\", \"name\": \"child\", \"pid\": %u, \"tid\": %u, "
                                "\"ts\": %" G_GUINT64_FORMAT ", \"dur\": %u},\n",
                                pid, tid, ts, dur / 2);
      if (i % 50 == 0)
        g_string_append_printf (
            s,
            "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": %u, \"ts\": %" G_GUINT64_FORMAT
            ", \"args\": {\"bytes\": %u}},\n",
            pid, ts, i);
    }
  g_string_append (s, "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 0, \"tid\": 0, \"ts\": 1}]}\n");
  g_assert_true (g_file_set_contents (path, s->str, (gssize) s->len, NULL));
  return path;
}

/* Everything a loaded trace holds that the views read, as one digest. */
static char *
trace_digest (const IvTrace *t)
{
  g_autoptr (GChecksum) c = g_checksum_new (G_CHECKSUM_SHA256);

#define ADD(ptr, bytes) g_checksum_update (c, (const guchar *) (ptr), (gssize) (bytes))
  ADD (&t->n_slices, sizeof t->n_slices);
  ADD (t->start_ns, t->n_slices * sizeof (gint64));
  ADD (t->dur_ns, t->n_slices * sizeof (gint64));
  ADD (t->self_ns, t->n_slices * sizeof (gint64));
  ADD (t->row, t->n_slices * sizeof (guint32));
  for (gsize i = 0; i < t->n_slices; i++)
    {
      const char *name = iv_trace_string (t, t->name[i]);
      ADD (name, strlen (name) + 1);
    }
  for (guint i = 0; i < t->processes->len; i++)
    {
      const IvProcess *p = t->processes->pdata[i];
      ADD (p->name, strlen (p->name) + 1);
    }
  for (guint i = 0; i < t->tracks->len; i++)
    {
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      ADD (tr->name, strlen (tr->name) + 1);
      ADD (&tr->process, sizeof tr->process);
      ADD (&tr->n_rows, sizeof tr->n_rows);
    }
  ADD (t->sample_ns, t->n_samples * sizeof (gint64));
  ADD (t->sample_value, t->n_samples * sizeof (double));
  ADD (&t->t0_ns, sizeof t->t0_ns);
  ADD (&t->t1_ns, sizeof t->t1_ns);
#undef ADD
  return g_strdup (g_checksum_get_string (c));
}

static char *
run_digest (const IvRun *r)
{
  g_autoptr (GChecksum) c = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (c, (const guchar *) &r->n_requests, sizeof r->n_requests);
  g_checksum_update (c, (const guchar *) r->start_ns->data, r->start_ns->len * sizeof (gint64));
  g_checksum_update (c, (const guchar *) r->end_ns->data, r->end_ns->len * sizeof (gint64));
  for (guint i = 0; i < r->metrics->len; i++)
    {
      const IvRunMetric *m = r->metrics->pdata[i];
      g_checksum_update (c, (const guchar *) m->tag, (gssize) strlen (m->tag));
      g_checksum_update (c, (const guchar *) m->values->data, m->values->len * sizeof (double));
    }
  for (guint i = 0; i < r->summary_tags->len; i++)
    {
      const IvMetricSummary *s = g_hash_table_lookup (r->summary, r->summary_tags->pdata[i]);
      g_checksum_update (c, (const guchar *) &s->avg, sizeof s->avg);
      g_checksum_update (c, (const guchar *) &s->p99, sizeof s->p99);
    }
  g_checksum_update (c, (const guchar *) &r->gpus->len, sizeof r->gpus->len);
  return g_strdup (g_checksum_get_string (c));
}

typedef struct
{
  const char *path;
  gboolean is_run;
  char *digest;
} Job;

static char *
load_digest (const char *path, gboolean is_run)
{
  g_autoptr (GError) error = NULL;

  if (is_run)
    {
      g_autoptr (IvRun) r = iv_run_load (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      return run_digest (r);
    }
  else
    {
      IvTrace *t = iv_trace_load (path, NULL, NULL, NULL, &error);
      char *d;
      g_assert_no_error (error);
      d = trace_digest (t);
      iv_trace_free (t);
      return d;
    }
}

static gpointer
load_thread (gpointer data)
{
  Job *job = data;
  job->digest = load_digest (job->path, job->is_run);
  return NULL;
}

static void
test_concurrent_loads (void)
{
  g_autofree char *big1 = write_trace ("big1.json", 200000, 1);
  g_autofree char *big2 = write_trace ("big2.json", 200000, 2);
  g_autofree char *shared = g_strdup (g_getenv ("IV_TEST_DATA"));
  g_autofree char *samples = g_strdup (g_getenv ("IV_SAMPLES_DIR"));
  g_autofree char *kineto
      = g_build_filename (shared, "traces", "kineto_train_rank0_68k_events.json.gz", NULL);
  g_autofree char *chrome
      = g_build_filename (shared, "traces", "chrome116_devtools_trace.json", NULL);
  g_autofree char *run1 = g_build_filename (shared, "aiperf", "qwen_concurrency1", NULL);
  g_autofree char *run2 = g_build_filename (shared, "aiperf", "qwen_concurrency2", NULL);
  g_autofree char *pipelined
      = g_build_filename (samples, "traces", "pipelined_timeline_sample.json", NULL);
  Job jobs[] = {
    { big1, FALSE },      { big2, FALSE }, { kineto, FALSE }, { chrome, FALSE },
    { pipelined, FALSE }, { run1, TRUE },  { run2, TRUE },    { big1, FALSE },
  };
  g_autoptr (GPtrArray) serial = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    g_ptr_array_add (serial, load_digest (jobs[i].path, jobs[i].is_run));
  /* Same file twice gives the same digest; different files differ (the digest sees). */
  g_assert_cmpstr (serial->pdata[0], ==, serial->pdata[7]);
  g_assert_cmpstr (serial->pdata[0], !=, serial->pdata[1]);

  for (guint round = 0; round < 2; round++)
    for (guint first = 0; first < G_N_ELEMENTS (jobs); first += N_THREADS)
      {
        GThread *threads[N_THREADS] = { NULL };
        for (guint k = 0; k < N_THREADS && first + k < G_N_ELEMENTS (jobs); k++)
          threads[k] = g_thread_new ("load", load_thread, &jobs[first + k]);
        for (guint k = 0; k < N_THREADS; k++)
          if (threads[k])
            g_thread_join (threads[k]);
        for (guint k = 0; k < N_THREADS && first + k < G_N_ELEMENTS (jobs); k++)
          {
            Job *j = &jobs[first + k];
            if (g_strcmp0 (j->digest, serial->pdata[first + k]) != 0)
              g_error ("%s loaded concurrently differs from the serial load", j->path);
            g_clear_pointer (&j->digest, g_free);
          }
      }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = iv_test_make_tmpdir ("iv-concurrency-XXXXXX");
  g_test_add_func ("/concurrency/loads", test_concurrent_loads);
  rc = g_test_run ();
  iv_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return rc;
}
