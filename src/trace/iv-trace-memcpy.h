/* iv-trace-memcpy.h: the GPU's memory copies and sets by direction, with the bytes and
 * bandwidth Kineto writes in their arguments ("bytes", "memory bandwidth (GB/s)") — HTA's
 * memory bandwidth counters (hta/analyzers/trace_counters.py,
 * _get_memory_bw_time_series_for_rank, types by hta/utils/utils.py get_memory_kernel_type:
 * "Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", "Memset", …). The arguments are read back
 * from the file in one pass, so this is for the command line, not a frame of the window. */
#pragma once

#include "iv-trace.h"

G_BEGIN_DECLS

typedef struct
{
  char *type;         /* "Memcpy HtoD", "Memset", "Memcpy Unknown" */
  guint64 count;      /* copies (sets) of this type in the range */
  guint64 with_bytes; /* of them, those whose arguments say their bytes */
  double bytes;       /* their bytes */
  gint64 time_ns;     /* their summed durations (as HTA, a 0 ns one counts 1 µs) */
  double mean_gbps;   /* the mean of their "memory bandwidth (GB/s)", as HTA describes it */
  double max_gbps;
  double effective_gbps; /* bytes ÷ summed time: what the copies achieved overall */
} IvMemcpyStats;

/* The copies and sets whose start lies in [@t0_ns, @t1_ns) by type, by time descending;
 * NULL with @error when the file cannot be read again. Empty without copies. */
GArray *iv_trace_memcpy_stats (const IvTrace *trace, gint64 t0_ns, gint64 t1_ns, GError **error);

G_END_DECLS
