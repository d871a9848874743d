#!/usr/bin/env python3
"""Writes the traces of a made-up distributed job, one Kineto-style file per rank, whose
collective waits and clock offsets are known by construction (issue 32's tests and
bench/bench-ranks.c's input).

Every step k of the job, on every rank r: a compute kernel runs on stream 7 from the
step's start for a time of its own (drawn at random, all different), so rank r reaches
the step's all-reduce at a(k, r); the all-reduce (one NCCL kernel on stream 20, process
group "0") runs on every rank from its own arrival to one common end, the last arrival
plus the transfer time. So the last rank to arrive is argmax_r a(k, r), and rank r waits
a(k, last) − a(k, r) in it. A second compute kernel on stream 7 starts before the
all-reduce ends (communication partly under compute), a memset starts each step.

Clocks: with --clock wall every rank writes epoch microseconds (the job's one clock);
with --clock base, times relative to a baseTimeNanoseconds each rank writes (different
per rank, so only base + ts is common); with --clock skewed, each rank's times are its
true times plus an offset of its own (rank 0: none), which only the alignment on
collectives can undo: the offset it should apply to rank r is −offset(r).

With --memory each rank also writes the allocator's [memory] events of its GPU 0 (every
rank's is "GPU 0", as on a real job: one GPU a process): after step k's compute kernel
starts, (k + 1) × (r + 1) MiB allocated on rank r. With --name-style opaque the files are
named with no rank in their names (worker-<letter>, letters in the reverse order of the
ranks): only distributedInfo tells the ranks.

expected.json beside the traces says, per rank, the offset written, the file written and
its memory peak (bytes, 0 without --memory) and, per all-reduce instance, the last rank and
every rank's wait, in ns.

Usage: gen-rank-traces.py OUT_DIR [--ranks N] [--steps S] [--seed X]
       [--clock wall|base|skewed] [--cpu-ops N] [--gzip] [--memory]
       [--name-style dash|plain|suffix|opaque]
"""
import argparse
import gzip
import json
import os
import random

EPOCH_US = 1_760_000_000_000_000  # 2025-10-09, in µs: a wall-clock time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=["wall", "base", "skewed"], default="wall")
    ap.add_argument("--cpu-ops", type=int, default=4, help="CPU ops per step (bulk for benches)")
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument("--name-style", choices=["dash", "plain", "suffix", "opaque"], default="dash")
    ap.add_argument("--memory", action="store_true", help="the allocator's [memory] events")
    ap.add_argument("--no-distributed-info", action="store_true")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    n = a.ranks
    # clock offsets (µs) each rank adds to its true times; distinct, rank 0 none
    offsets = [0] + [rnd.randrange(1_000, 900_000) for _ in range(n - 1)]
    if a.clock != "skewed":
        offsets = [0] * n
    step_us = 10_000
    xfer_us = 700
    events = [[] for _ in range(n)]
    instances = []
    for k in range(a.steps):
        t = 1_000 + k * step_us
        comp = rnd.sample(range(3_000, 6_000), n)  # distinct: one last rank
        arrive = [t + c for c in comp]
        last = max(range(n), key=lambda r: arrive[r])
        end = arrive[last] + xfer_us
        instances.append({
            "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
            "process_group": "0",
            "instance": k,
            "last_rank": last,
            "waits_ns": [(arrive[last] - arrive[r]) * 1000 for r in range(n)],
        })
        for r in range(n):
            ev = events[r]
            ev.append(kernel("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64", t, comp[r], 7, r))
            ev.append(kernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
                             arrive[r], end - arrive[r], 20, r, pg=True))
            # compute under the all-reduce: from 100 µs after arrival to 300 µs after its end
            ev.append(kernel("void at::native::vectorized_elementwise_kernel<4>", arrive[r] + 100,
                             end - arrive[r] + 200, 7, r))
            ev.append({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": r, "tid": 7,
                       "ts": t - 300, "dur": 50, "args": {"device": r, "stream": 7}})
            for j in range(a.cpu_ops):
                ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::op%d" % (j % 17), "pid": 1000 + r,
                           "tid": 1000 + r, "ts": t + j * 2, "dur": 1,
                           "args": {"External id": k * 100000 + j, "Sequence number": j}})
    mib = 1 << 20
    peaks = [0] * n
    if a.memory:
        for k in range(a.steps):
            t = 1_000 + k * step_us
            for r in range(n):
                total = (k + 1) * (r + 1) * mib
                peaks[r] = max(peaks[r], total)
                events[r].append({"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]",
                                  "pid": 1000 + r, "tid": 1000 + r, "ts": t + 1,
                                  "args": {"Total Reserved": 2 * total, "Total Allocated": total,
                                           "Bytes": (r + 1) * mib, "Addr": 1 << 30, "Device Id": 0,
                                           "Device Type": 1}})
    base_ns = [None] * n
    files = []
    for r in range(n):
        if a.clock == "wall":
            shift = EPOCH_US
        elif a.clock == "base":
            # each rank's own base, its times relative to it: only base + ts is common
            base_ns[r] = (EPOCH_US - 5_000_000 * (r + 1)) * 1000
            shift = EPOCH_US - base_ns[r] // 1000
        else:
            shift = offsets[r]
        for e in events[r]:
            e["ts"] += shift
        doc = {"schemaVersion": 1}
        if not a.no_distributed_info:
            doc["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": n,
                                      "pg_count": 1,
                                      "pg_config": [{"pg_name": "0", "pg_desc": "default_pg",
                                                     "backend_config": "cuda:nccl", "pg_size": n,
                                                     "ranks": list(range(n))}]}
        if base_ns[r] is not None:
            doc["baseTimeNanoseconds"] = base_ns[r]
        doc["traceEvents"] = [
            {"ph": "M", "name": "process_name", "pid": r, "args": {"name": "GPU %d" % r}},
            {"ph": "M", "name": "thread_name", "pid": r, "tid": 7, "args": {"name": "stream 7"}},
            {"ph": "M", "name": "thread_name", "pid": r, "tid": 20, "args": {"name": "stream 20"}},
        ] + events[r]
        if a.name_style == "opaque":
            name = "worker-%s.pt.trace.json" % chr(ord("a") + (n - 1 - r) % 26)
        else:
            name = {"dash": "rank-%d.pt.trace.json", "plain": "rank%d.json",
                    "suffix": "job_%d.pt.trace.json"}[a.name_style] % r
        path = os.path.join(a.out, name + (".gz" if a.gzip else ""))
        files.append(os.path.basename(path))
        data = json.dumps(doc).encode()
        if a.gzip:
            with gzip.open(path, "wb", compresslevel=1) as f:
                f.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)
    with open(os.path.join(a.out, "expected.json.txt"), "w") as f:
        json.dump({"ranks": n, "clock": a.clock, "offsets_ns": [o * 1000 for o in offsets],
                   "files": files, "memory_peaks": peaks, "instances": instances}, f)


def kernel(name, ts, dur, stream, rank, pg=False):
    args = {"device": rank, "stream": stream, "correlation": ts}
    if pg:
        args.update({"Collective name": "allreduce", "Process Group Name": "0",
                     "Process Group Description": "default_pg"})
    return {"ph": "X", "cat": "kernel", "name": name, "pid": rank, "tid": stream, "ts": ts, "dur": dur,
            "args": args}


if __name__ == "__main__":
    main()
