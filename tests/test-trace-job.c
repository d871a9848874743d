/* test-trace-job.c: a distributed job put on the other clock while other threads read it
 * (what the window does when Align on Collectives is toggled while the Analyses and Query
 * pages' workers read the job shown). The job read is never written — the unit suites run
 * under ThreadSanitizer in CI — and the copy equals a fresh load on that clock, slice by
 * slice, sample by sample, wait by wait. Jobs are written by tests/gen-rank-traces.py. */
#include <glib/gstdio.h>
#include <string.h>

#include "iv-trace-job.h"
#include "iv-trace-report.h"

static char *
generate (const char *dir, const char *clock)
{
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "gen-rank-traces.py", NULL);
  char *out = g_build_filename (dir, clock, NULL);
  const char *argv[] = { "python3", gen,   out,        "--ranks",   "4",  "--steps", "8",
                         "--clock", clock, "--memory", "--cpu-ops", "20", NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static IvTraceJob *
fresh (const char *dir, gboolean aligned)
{
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  IvTraceRanks *ranks
      = iv_trace_ranks_load (paths, aligned ? IV_RANKS_ALIGN : IV_RANKS_DEFAULT, NULL, &error);
  IvTraceJob *job;

  g_assert_no_error (error);
  job = iv_trace_job_new (ranks, &error);
  g_assert_no_error (error);
  return job;
}

typedef struct
{
  const IvTraceJob *job;
  gint64 sum; /* of every start, as read on the thread */
  guint64 slices;
} Reader;

/* What the Analyses page's worker does, and a plain pass over the columns. */
static gpointer
read_job (gpointer data)
{
  Reader *r = data;
  const IvTrace *t = r->job->trace;

  for (int k = 0; k < 3; k++)
    {
      g_autoptr (GError) error = NULL;
      IvTraceReport *rep
          = iv_trace_report_new (t, G_MININT64, G_MAXINT64, FALSE, IV_STATS_PER_PROCESS, &error);
      g_assert_no_error (error);
      r->slices += (guint64) rep->busy_ns + rep->by_name->len;
      iv_trace_report_free (rep);
      for (gsize s = 0; s < t->n_slices; s++)
        r->sum += t->start_ns[s] & 0xffff;
    }
  return NULL;
}

static void
assert_same (const IvTraceJob *a, const IvTraceJob *b)
{
  const IvTrace *ta = a->trace, *tb = b->trace;

  g_assert_cmpint (a->ranks->aligned, ==, b->ranks->aligned);
  g_assert_cmpint (a->ranks->stragglers, ==, b->ranks->stragglers);
  g_assert_cmpuint (ta->n_slices, ==, tb->n_slices);
  g_assert_cmpint (ta->t0_ns, ==, tb->t0_ns);
  g_assert_cmpint (ta->t1_ns, ==, tb->t1_ns);
  g_assert_cmpmem (ta->start_ns, ta->n_slices * sizeof (gint64), tb->start_ns,
                   tb->n_slices * sizeof (gint64));
  g_assert_cmpmem (ta->dur_ns, ta->n_slices * sizeof (gint64), tb->dur_ns,
                   tb->n_slices * sizeof (gint64));
  g_assert_cmpmem (ta->name, ta->n_slices * sizeof (guint32), tb->name,
                   tb->n_slices * sizeof (guint32));
  g_assert_cmpuint (ta->n_samples, ==, tb->n_samples);
  g_assert_cmpmem (ta->sample_ns, ta->n_samples * sizeof (gint64), tb->sample_ns,
                   tb->n_samples * sizeof (gint64));
  g_assert_cmpuint (ta->instants->len, ==, tb->instants->len);
  for (guint i = 0; i < ta->instants->len; i++)
    g_assert_cmpint (g_array_index (ta->instants, IvInstant, i).ts_ns, ==,
                     g_array_index (tb->instants, IvInstant, i).ts_ns);
  for (gsize g = 0; g * IV_TRACE_COARSE < ta->n_slices; g++)
    g_assert_cmpint (ta->coarse_start[g], ==, tb->coarse_start[g]);
  for (guint r = 0; r < a->ranks->ranks->len; r++)
    {
      const IvRank *ra = a->ranks->ranks->pdata[r], *rb = b->ranks->ranks->pdata[r];
      g_assert_cmpint (ra->offset_ns, ==, rb->offset_ns);
      g_assert_cmpint (ra->waited_ns, ==, rb->waited_ns);
      g_assert_cmpint (ra->caused_ns, ==, rb->caused_ns);
      /* the report is the loaded one's, shared */
      g_assert_nonnull (ra->report);
      g_assert_cmpint (ra->report->busy_ns, ==, rb->report->busy_ns);
    }
  for (guint c = 0; c < a->ranks->instances->len; c++)
    {
      const IvCollectiveInstance *ca
          = &g_array_index (a->ranks->instances, IvCollectiveInstance, c);
      const IvCollectiveInstance *cb
          = &g_array_index (b->ranks->instances, IvCollectiveInstance, c);
      g_assert_cmpuint (ca->last, ==, cb->last);
      g_assert_cmpmem (ca->wait_ns, a->ranks->ranks->len * sizeof (gint64), cb->wait_ns,
                       b->ranks->ranks->len * sizeof (gint64));
    }
}

/* Skewed clocks open aligned; wall clocks do not: each put on the other clock, then back,
 * while two threads read the job being copied. */
static void
check_clock (const char *clock)
{
  g_autofree char *tmp = g_dir_make_tmp ("iv-trace-job-XXXXXX", NULL);
  g_autofree char *dir = generate (tmp, clock);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (IvTraceJob) job = iv_trace_job_load (paths, NULL, NULL, NULL, &error);
  gboolean aligned;
  Reader readers[2];
  GThread *threads[2];
  g_autoptr (IvTraceJob) other = NULL, back = NULL, want_other = NULL, want_back = NULL;
  gint64 before;

  g_assert_no_error (error);
  aligned = job->ranks->aligned;
  g_assert_cmpint (aligned, ==, strcmp (clock, "skewed") == 0);
  before = job->trace->start_ns[job->slice_base[1]];
  for (int i = 0; i < 2; i++)
    {
      readers[i] = (Reader){ job, 0, 0 };
      threads[i] = g_thread_new ("reader", read_job, &readers[i]);
    }
  other = iv_trace_job_realign (job, !aligned, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 2; i++)
    g_thread_join (threads[i]);
  /* both read the same, unmoved job */
  g_assert_cmpint (readers[0].sum, ==, readers[1].sum);
  g_assert_cmpuint (readers[0].slices, ==, readers[1].slices);
  g_assert_cmpint (job->ranks->aligned, ==, aligned);
  g_assert_cmpint (job->trace->start_ns[job->slice_base[1]], ==, before);
  want_other = fresh (dir, !aligned);
  assert_same (other, want_other);
  back = iv_trace_job_realign (other, aligned, &error);
  g_assert_no_error (error);
  want_back = fresh (dir, aligned);
  assert_same (back, want_back);
  assert_same (back, job);
  {
    /* the memory curves, one a rank, named with it */
    const IvTrace *t = other->trace;
    g_assert_cmpuint (t->series->len, ==, 4);
    for (guint i = 0; i < t->series->len; i++)
      {
        const IvCounterSeries *cs = &g_array_index (t->series, IvCounterSeries, i);
        g_autofree char *want
            = g_strdup_printf ("memory · rank %u · GPU 0 · allocated",
                               g_array_index (t->tracks, IvTrack, cs->track).process);
        g_assert_cmpstr (iv_trace_string (t, cs->name), ==, want);
      }
  }
  {
    /* the generated files and their folder go */
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);
        g_unlink (p);
      }
    g_rmdir (dir);
    g_rmdir (tmp);
  }
}

static void
test_realign_wall (void)
{
  check_clock ("wall");
}

static void
test_realign_skewed (void)
{
  check_clock ("skewed");
}

/* distributedInfo read from a file's head: the rank and world size, or nothing. */
static void
test_peek (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("iv-trace-job-XXXXXX", NULL);
  g_autofree char *dir = generate (tmp, "wall");
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) job = NULL;
  int rank = -1, world = -1;

  for (int r = 0; r < 4; r++)
    g_ptr_array_add (files, g_strdup_printf ("%s/rank-%d.pt.trace.json", dir, r));
  g_assert_true (iv_trace_peek_rank (files->pdata[2], &rank, &world));
  g_assert_cmpint (rank, ==, 2);
  g_assert_cmpint (world, ==, 4);
  job = iv_trace_ranks_by_info ((const char *const *) files->pdata, files->len, NULL);
  g_assert_nonnull (job);
  g_assert_cmpuint (job->len, ==, 4);
  /* the same rank twice is no job */
  g_free (files->pdata[1]);
  files->pdata[1] = g_strdup (files->pdata[0]);
  g_clear_pointer (&job, g_ptr_array_unref);
  job = iv_trace_ranks_by_info ((const char *const *) files->pdata, files->len, NULL);
  g_assert_null (job);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);
        g_unlink (p);
      }
    g_rmdir (dir);
    g_rmdir (tmp);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-job/realign/wall", test_realign_wall);
  g_test_add_func ("/trace-job/realign/skewed", test_realign_skewed);
  g_test_add_func ("/trace-job/peek", test_peek);
  return g_test_run ();
}
