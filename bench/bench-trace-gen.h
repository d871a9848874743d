/* bench-trace-gen.h: generated Chrome traces for the benchmarks, deterministic: a
 * Kineto-like one of about @n_slices slices (8 CPU threads with nested operators, 2 GPU
 * streams of kernels) and one shaped like a Chromium startup trace. */
#pragma once

#include <glib.h>

gsize bench_generate_trace (const char *path, gsize n_slices);

/* About @n_events events shaped like Chromium's startup trace (348k events): ~25
 * processes of ~10 threads, deep task trees with heavy-tailed durations, instants, async
 * slices, flows between threads and counters. */
gsize bench_generate_chromium_trace (const char *path, gsize n_events);
