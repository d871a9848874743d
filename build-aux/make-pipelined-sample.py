#!/usr/bin/env python3
"""Writes the bundled pipelined I/O timeline sample and its breakdown file.

No public pipelined_timeline file exists, so this simulates the pipeline that
docs/formats.md §3 and the reference script describe (HDF5 prefetch of candidate k+1 into
the free GPU buffer while candidate k computes: the I/O thread first waits for that
buffer — `gpu_buffer_wait` — then reads) with a fixed seed. Run it from the
repository root:
    python3 build-aux/make-pipelined-sample.py data/samples/traces
"""
import json
import random
import sys

rng = random.Random(20261129)
out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
events = []


def ev(lane, name, start, dur, cand, **extra):
    e = {"lane": lane, "name": name, "start_ms": round(start, 3),
         "dur_ms": round(dur, 3), "candidate": cand}
    e.update(extra)
    events.append(e)


buffer_free = [0.0, 0.0]  # when each GPU buffer's last compute ends
io_free = 0.0
main_free = 0.0
gpu_free = 0.0
for k in range(10):
    buf = k % 2
    t = io_free
    if k >= 2:
        # the buffer this candidate reads into is free when candidate k-2's compute ends
        free_at = max(buffer_free[buf], t + rng.uniform(0.3, 1.5))
        ev("io", "gpu_buffer_wait", t, free_at - t, k)
        t = free_at
    for _ in range(rng.randint(3, 5)):
        d = rng.uniform(5.0, 11.0)
        ev("io", "hdf5_read", t, d, k)
        t += d + rng.uniform(0.05, 0.3)
    io_end = t
    io_free = io_end
    if main_free < io_end:
        ev("main", "wait_for_io", main_free, io_end - main_free, k)
        main_free = io_end
    dispatch = max(main_free, gpu_free) + rng.uniform(0.2, 0.6)
    if k % 3 == 1:
        dispatch += rng.uniform(2.0, 4.0)  # a slow launch: the gap the plot fills
    elif dispatch - main_free >= 1.0:
        ev("main", "await_dispatch", main_free, dispatch - main_free, k)
    gpu = rng.uniform(38.0, 52.0)
    ev("gpu", "compute", dispatch, gpu, k, buffer=buf)
    gpu_free = dispatch + gpu
    buffer_free[buf] = gpu_free
    host = rng.uniform(2.5, 4.5)
    ev("main", "trsm_host", dispatch + 0.1, host, k)
    main_free = dispatch + 0.1 + host

doc = {"format": "pipelined_timeline_v2", "start_candidate": 2, "num_candidates": 3,
       "events": sorted(events, key=lambda e: (e["start_ms"], e["lane"]))}
with open(f"{out_dir}/pipelined_timeline_sample.json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")

# kernel families as the pipeline's profiler names them (the reference merges them into
# Preprocess, Triangular Solve and Cholesky + Schur Complement)
breakdown = {"format": "candidate_breakdown_v1", "candidate": 3,
             "gpu_ms": {"h2d_si": 1.3, "h2d_ii": 0.9, "cast_si": 0.6, "cast_ii": 0.4,
                        "scale_si": 0.5, "scale_ii_diag": 0.2, "scale_ii": 0.3,
                        "add_identity": 0.2, "trsm": 21.4, "schur_gemm": 9.8, "chol": 4.1,
                        "_other_raw": 0.4}}
with open(f"{out_dir}/candidate_breakdown_sample.json", "w") as f:
    json.dump(breakdown, f, indent=1)
    f.write("\n")
