/* bench-trace-gen.h: a generated Kineto-like Chrome trace of about @n_slices slices
 * (8 CPU threads with nested operators, 2 GPU streams of kernels), deterministic. */
#pragma once

#include <glib.h>

gsize bench_generate_trace (const char *path,
                            gsize       n_slices);
