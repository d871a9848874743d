/* bench-trace-gen.c: the generated Kineto-like trace the trace benchmarks load. */
#include "bench-trace-gen.h"

#include <math.h>
#include <stdio.h>

/* 8 CPU threads with three levels of operators, plus 2 GPU streams of kernels. */
gsize
bench_generate_trace (const char *path, gsize n_slices)
{
  FILE *f = fopen (path, "w");
  GRand *rng = g_rand_new_with_seed (11);
  gsize written = 0;
  gint64 ts[10] = { 0 };

  fputs ("{\"schemaVersion\": 1, \"traceEvents\": [\n", f);
  for (int tid = 0; tid < 10; tid++)
    fprintf (f,
             "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, \"args\": "
             "{\"name\": \"%s %d\"}},\n",
             tid < 8 ? 4242 : 0, tid, tid < 8 ? "thread" : "stream", tid);
  while (written < n_slices)
    {
      int tid = (int) (written % 10);
      gboolean gpu = tid >= 8;
      gint64 start = ts[tid];
      int op = g_rand_int_range (rng, 0, 200);
      /* A parent of 30–60 µs with two children when on the CPU. */
      gint64 dur = g_rand_int_range (rng, 30000, 60000);
      fprintf (f,
               "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s_%d\", \"pid\": %d, \"tid\": %d, "
               "\"ts\": %" G_GINT64_FORMAT ".%03d, \"dur\": %" G_GINT64_FORMAT ".%03d, "
               "\"args\": {\"External id\": %" G_GSIZE_FORMAT ", \"Sequence number\": %d}},\n",
               gpu ? "kernel" : "cpu_op", gpu ? "kernel" : "aten::op", op, gpu ? 0 : 4242, tid,
               start / 1000, (int) (start % 1000), dur / 1000, (int) (dur % 1000), written, op);
      written++;
      if (!gpu && written + 2 <= n_slices)
        {
          for (int c = 0; c < 2; c++)
            {
              gint64 cs = start + 1000 + c * (dur / 2);
              gint64 cd = dur / 2 - 2000;
              fprintf (f,
                       "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::child_%d\", "
                       "\"pid\": 4242, \"tid\": %d, "
                       "\"ts\": %" G_GINT64_FORMAT ".%03d, \"dur\": %" G_GINT64_FORMAT
                       ".%03d, \"args\": {\"External id\": %" G_GSIZE_FORMAT "}},\n",
                       op % 50, tid, cs / 1000, (int) (cs % 1000), cd / 1000, (int) (cd % 1000),
                       written);
              written++;
            }
        }
      ts[tid] = start + dur + g_rand_int_range (rng, 1000, 20000);
    }
  fputs ("{\"ph\": \"i\", \"name\": \"Record Window End\", \"pid\": 4242, \"tid\": 0, \"ts\": 0, "
         "\"s\": \"g\"}\n]}\n",
         f);
  fclose (f);
  g_rand_free (rng);
  return written;
}

typedef struct
{
  FILE *f;
  GRand *rng;
  gsize written;
  guint flow_id;
} Gen;

static void
put_time (FILE *f, const char *key, gint64 ns)
{
  fprintf (f, "\"%s\": %" G_GINT64_FORMAT ".%03d", key, ns / 1000, (int) (ns % 1000));
}

/* A task and, within it, up to four children each a fraction of the time left. */
static void
task_tree (Gen *g, int pid, int tid, gint64 start, gint64 dur, int depth, gsize budget)
{
  static const char *const names[] = {
    "ThreadControllerImpl::RunTask",
    "SimpleWatcher::OnHandleReady",
    "v8.callFunction",
    "ParseHTML",
    "Layout",
    "UpdateLayoutTree",
    "Paint",
    "CompositeLayers",
    "v8.compile",
    "ResourceDispatcher::OnReceivedResponse",
    "SequenceManager::DoIdleWork",
    "LocalFrameView::RunPostLifecycleSteps",
    "RenderWidget::OnBeginMainFrame",
    "Graphics.Pipeline",
    "GpuChannel::ExecuteDeferredRequest",
    "URLLoader::OnReceiveResponse",
    "ScheduledTasks",
    "TaskGraphRunner::RunTask",
  };
  int children;
  gint64 at;

  fprintf (g->f, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, ",
           depth ? "blink,devtools.timeline" : "toplevel",
           names[g_rand_int_range (g->rng, 0, G_N_ELEMENTS (names))], pid, tid);
  put_time (g->f, "ts", start);
  fputs (", ", g->f);
  put_time (g->f, "dur", dur);
  fputs (", \"args\": {}},\n", g->f);
  g->written++;
  if (depth >= 8 || dur < 4000 || g->written >= budget)
    return;
  children = g_rand_int_range (g->rng, 0, 4);
  at = start + dur / 20;
  for (int c = 0; c < children && g->written < budget; c++)
    {
      gint64 left = start + dur - at;
      gint64 cd = (gint64) (left * g_rand_double_range (g->rng, 0.1, 0.6));
      if (cd < 1000)
        break;
      task_tree (g, pid, tid, at, cd, depth + 1, budget);
      at += cd + (gint64) (left * 0.05);
    }
}

gsize
bench_generate_chromium_trace (const char *path, gsize n_events)
{
  enum
  {
    N_PROC = 25,
    N_THREAD = 10
  };
  Gen g = { fopen (path, "w"), g_rand_new_with_seed (348), 0, 0 };
  gint64 clock[N_PROC][N_THREAD] = { { 0 } };
  gint64 counter_at[N_PROC] = { 0 };

  fputs ("{\"traceEvents\": [\n", g.f);
  for (int p = 0; p < N_PROC; p++)
    {
      fprintf (g.f,
               "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"tid\": 0, \"args\": "
               "{\"name\": \"%s\"}},\n",
               1000 + p,
               p == 0   ? "Browser"
               : p == 1 ? "GPU Process"
               : p < 4  ? "Utility"
                        : "Renderer");
      for (int t = 0; t < N_THREAD; t++)
        fprintf (g.f,
                 "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, \"args\": "
                 "{\"name\": \"%s\"}},\n",
                 1000 + p, t,
                 t == 0   ? "CrBrowserMain"
                 : t == 1 ? "Chrome_IOThread"
                 : t == 2 ? "Compositor"
                          : "ThreadPoolForegroundWorker");
    }
  while (g.written < n_events)
    {
      /* Main threads and the first processes are the busiest, as at startup. */
      int p = MIN (N_PROC - 1, (int) (g_rand_double (g.rng) * g_rand_double (g.rng) * N_PROC));
      int t = MIN (N_THREAD - 1, (int) (g_rand_double (g.rng) * g_rand_double (g.rng) * N_THREAD));
      double kind = g_rand_double (g.rng);
      gint64 start = clock[p][t];

      if (kind < 0.12) /* an instant */
        {
          fprintf (g.f,
                   "{\"ph\": \"i\", \"name\": \"MarkDOMContent\", \"cat\": \"devtools.timeline\", "
                   "\"pid\": %d, \"tid\": %d, \"s\": \"t\", ",
                   1000 + p, t);
          put_time (g.f, "ts", start);
          fputs ("},\n", g.f);
          g.written++;
        }
      else if (kind < 0.45) /* an async pair */
        {
          gint64 d = g_rand_int_range (g.rng, 100000, 50000000);
          for (int e = 0; e < 2; e++)
            {
              fprintf (g.f,
                       "{\"ph\": \"%c\", \"name\": \"NavigationRequest\", \"cat\": \"navigation\", "
                       "\"id\": \"0x%x\", \"pid\": %d, \"tid\": %d, ",
                       e ? 'e' : 'b', (unsigned) g.written, 1000 + p, t);
              put_time (g.f, "ts", start + e * d);
              fputs ("},\n", g.f);
            }
          g.written += 2;
        }
      else if (kind < 0.48) /* a flow to another thread, a little later */
        {
          int p2 = g_rand_int_range (g.rng, 0, N_PROC), t2 = g_rand_int_range (g.rng, 0, N_THREAD);
          g.flow_id++;
          fprintf (g.f,
                   "{\"ph\": \"s\", \"name\": \"mojo\", \"cat\": \"toplevel.flow\", \"id\": %u, "
                   "\"pid\": %d, \"tid\": %d, ",
                   g.flow_id, 1000 + p, t);
          put_time (g.f, "ts", start);
          fprintf (g.f,
                   "},\n{\"ph\": \"f\", \"bp\": \"e\", \"name\": \"mojo\", \"cat\": "
                   "\"toplevel.flow\", \"id\": %u, \"pid\": %d, \"tid\": %d, ",
                   g.flow_id, 1000 + p2, t2);
          put_time (g.f, "ts", MAX (start, clock[p2][t2]) + 5000);
          fputs ("},\n", g.f);
          g.written += 2;
        }
      else if (kind < 0.52) /* a counter sample */
        {
          counter_at[p] = MAX (counter_at[p], start);
          fprintf (g.f,
                   "{\"ph\": \"C\", \"name\": \"MemoryUsage\", \"pid\": %d, \"tid\": 0, \"args\": "
                   "{\"JSHeap\": %u}, ",
                   1000 + p, g_rand_int_range (g.rng, 1000000, 90000000));
          put_time (g.f, "ts", counter_at[p]);
          fputs ("},\n", g.f);
          counter_at[p] += g_rand_int_range (g.rng, 1000000, 5000000);
          g.written++;
        }
      else
        {
          /* Heavy-tailed: most tasks are microseconds, a few are tens of milliseconds. */
          gint64 dur = (gint64) (2000 * pow (10, g_rand_double_range (g.rng, 0, 4)));
          task_tree (&g, 1000 + p, t, start, dur, 0, n_events);
          clock[p][t] = start + dur;
        }
      clock[p][t] += g_rand_int_range (g.rng, 500, 200000);
    }
  fputs ("{\"ph\": \"M\", \"name\": \"trace_end\", \"pid\": 1000, \"tid\": 0}\n]}\n", g.f);
  fclose (g.f);
  g_rand_free (g.rng);
  return g.written;
}
