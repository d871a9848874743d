/* bench-trace-gen.c: the generated Kineto-like trace the trace benchmarks load. */
#include "bench-trace-gen.h"

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
    fprintf (f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"%s %d\"}},\n",
             tid < 8 ? 4242 : 0, tid, tid < 8 ? "thread" : "stream", tid);
  while (written < n_slices)
    {
      int tid = (int) (written % 10);
      gboolean gpu = tid >= 8;
      gint64 start = ts[tid];
      int op = g_rand_int_range (rng, 0, 200);
      /* A parent of 30–60 µs with two children when on the CPU. */
      gint64 dur = g_rand_int_range (rng, 30000, 60000);
      fprintf (f, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s_%d\", \"pid\": %d, \"tid\": %d, "
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
              fprintf (f, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::child_%d\", \"pid\": 4242, \"tid\": %d, "
                          "\"ts\": %" G_GINT64_FORMAT ".%03d, \"dur\": %" G_GINT64_FORMAT ".%03d, \"args\": {\"External id\": %" G_GSIZE_FORMAT "}},\n",
                       op % 50, tid, cs / 1000, (int) (cs % 1000), cd / 1000, (int) (cd % 1000), written);
              written++;
            }
        }
      ts[tid] = start + dur + g_rand_int_range (rng, 1000, 20000);
    }
  fputs ("{\"ph\": \"i\", \"name\": \"Record Window End\", \"pid\": 4242, \"tid\": 0, \"ts\": 0, \"s\": \"g\"}\n]}\n", f);
  fclose (f);
  g_rand_free (rng);
  return written;
}

