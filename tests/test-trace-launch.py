#!/usr/bin/env python3
"""Issue 33, HTA's analyses that read event arguments: `trace FILE --stats --json`'s
`launches` section against an independent computation written here, on the public Kineto
traces under tests/data/traces (origin in tests/data/ATTRIBUTION.md).

Independent: the runtime calls and the GPU work are joined on the `correlation` argument
of each event — as HTA joins them (hta/analyzers/cuda_kernel_analysis.py,
cuda_kernel_launch_stats), not through the flows Inferview follows — and for each pair:
the call's duration, the work's duration, and the launch delay, work start − call end
clipped at 0; outliers as HTA's visualize_cuda_launch_kernel_info: calls over 50 µs,
delays over 100 µs, short kernels (call ≤ 50 µs and work shorter than the call). Queue
length as hta/analyzers/trace_counters.py: per stream +1 at each call's start, −1 at its
work's start; the longest queue and the mean of the values at the changes; and the series
itself (HTA's get_queue_length_time_series: one row per event, the running sum after it,
the enqueues before the starts at one instant), [ts_ns, length] exactly, on these traces,
on hand-made ones of known shape, in a range, and past the JSON's cap (decimated by the
documented rule, re-derived here). Memory copies
and sets by type (HTA's get_memory_kernel_type: "Memset", else the first 11 characters of
a "Memcpy" name): their count, the bytes and "memory bandwidth (GB/s)" of their args (the
mean as HTA describes it, the max), and bytes ÷ time with a 0 µs copy counted as 1 µs.
Times are integer microseconds × 1000 (these traces write integers). Prints TAP."""
import collections
import gzip
import json
import os
import subprocess
import tempfile
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
CALLS = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
         "cudaMemcpyAsync", "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution",
         "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
         "hipMemcpyWithStream"}
# GPU work as the loader's categories make it (iv_trace_gpu_category_kind): Kineto's, the
# 2021 schema's, profiled ranges and MTIA's
WORK = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset", "cuda_profiler_range", "mtia_ccp_events"}


def ns(v):
    """µs as written → ns, halves away from zero, from the decimal text (never a double)."""
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def expected(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    evs = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    calls = {}
    for e in evs:
        c = (e.get("args") or {}).get("correlation")
        if e.get("name") in CALLS and c is not None and str(e.get("cat", "")).lower() not in WORK:
            calls[c] = e
    pairs = []
    for e in evs:
        c = (e.get("args") or {}).get("correlation")
        if str(e.get("cat", "")).lower() in WORK and c in calls:
            call = calls[c]
            cpu, gpu = ns(call["dur"]), ns(e["dur"])
            delay = max(0, ns(e["ts"]) - (ns(call["ts"]) + cpu))
            pairs.append((cpu, gpu, delay, ns(call["ts"]), ns(e["ts"]), (str(e["pid"]), str(e["tid"]))))
    queues = collections.defaultdict(list)
    for cpu, gpu, delay, cts, kts, stream in pairs:
        queues[stream] += [(cts, +1), (kts, -1)]
    qstats = {}
    for stream, ev in queues.items():
        ev.sort(key=lambda x: (x[0], -x[1]))
        n, top, total = 0, 0, 0
        for _, step in ev:
            n += step
            top = max(top, n)
            total += n
        qstats[stream] = (top, total / len(ev))
    return pairs, qstats


def queue_series(pairs, t0=None, t1=None):
    """HTA's time series per stream from (…, call ts, work ts, stream) pairs: +1 at the call,
    −1 at the work, sorted by time with the enqueues first at a tie, the running sum after
    each; clipped to [t0, t1) with the level carried in. {stream: (initial, [[ts, len]])}"""
    ev = collections.defaultdict(list)
    for pr in pairs:
        cts, kts, stream = pr[3], pr[4], pr[5]
        ev[stream] += [(cts, +1), (kts, -1)]
    out = {}
    for stream, e in ev.items():
        e.sort(key=lambda x: (x[0], -x[1]))
        n, initial, pts = 0, 0, []
        for ts, step in e:
            n += step
            if t0 is not None and ts < t0:
                initial = n
            elif t1 is None or ts < t1:
                pts.append([ts, n])
        if pts or initial:
            out[stream] = (initial, pts)
    return out


def decimate(pts, cap):
    """The documented rule: runs of ceil(n / (cap // 2)) points, each run's first highest
    point and its last point."""
    if len(pts) <= cap:
        return pts
    runs = cap // 2
    run = -(-len(pts) // runs)
    out = []
    for a in range(0, len(pts), run):
        chunk = pts[a:a + run]
        top = max(range(len(chunk)), key=lambda i: (chunk[i][1], -i))
        out.append(chunk[top])
        if top != len(chunk) - 1:
            out.append(chunk[-1])
    return out


def check_series(name, got, want):
    """@got: the JSON's queue_series; @want: queue_series()'s."""
    cap = got.get("queue_series_max_points")
    have = {(q["pid"], q["tid"]): q for q in got["queue_series"]}
    check(set(have) == set(want), "%s: queue series for the streams %s" % (name, sorted(want)),
          "got %s" % sorted(have))
    for stream, (initial, pts) in want.items():
        q = have.get(stream)
        if not q:
            continue
        exp = decimate(pts, cap)
        top = max([initial] + [p[1] for p in pts])
        ok = (q["points"] == exp and q["initial"] == initial and q["changes"] == len(pts)
              and q["max"] == top and q["decimated"] == (len(pts) > cap))
        check(ok, "%s %s: queue series, %d changes%s" % (name, stream, len(pts),
                                                      " (decimated)" if len(pts) > cap else ""),
              "want %s… got %s…" % (exp[:8], q["points"][:8]))


def launch_trace(path, launches, stream_tid=7):
    """A hand-made Kineto-like trace: @launches (call ts µs, call dur, kernel ts, kernel
    dur), tied by ac2g flows and by args.correlation."""
    evs = [{"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}}]
    for i, (cts, cdur, kts, kdur) in enumerate(launches, 1):
        evs.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 1,
                    "ts": cts, "dur": cdur, "args": {"correlation": i}})
        evs.append({"ph": "X", "cat": "kernel", "name": "k%d" % i, "pid": 0, "tid": stream_tid,
                    "ts": kts, "dur": kdur, "args": {"correlation": i, "stream": stream_tid}})
        evs.append({"ph": "s", "id": i, "pid": 100, "tid": 1, "ts": cts, "cat": "ac2g", "name": "ac2g"})
        evs.append({"ph": "f", "id": i, "pid": 0, "tid": stream_tid, "ts": kts, "cat": "ac2g",
                    "name": "ac2g", "bp": "e"})
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"traceEvents": evs}, f)


def stats_json(path, *extra):
    p = subprocess.run([BINARY, "trace", path, "--stats", "--json"] + list(extra),
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        check(False, "%s: --stats runs" % os.path.basename(path), p.stderr)
        return None
    return json.loads(p.stdout).get("launches")


def hand_made(tmp):
    """Known shapes: three launches back to back before the first kernel starts queue
    1, 2, 3, then drain 2, 1, 0; a call at the very instant a kernel starts is counted
    before it; a range carries its level in; past the cap the series is decimated."""
    path = os.path.join(tmp, "queue3.json")
    launch_trace(path, [(10, 2, 20, 5), (13, 2, 25, 5), (16, 2, 30, 5)])
    got = stats_json(path)
    if got:
        q = got["queue_series"]
        check(len(q) == 1 and [p[1] for p in q[0]["points"]] == [1, 2, 3, 2, 1, 0]
              and [p[0] for p in q[0]["points"]] == [10000, 13000, 16000, 20000, 25000, 30000]
              and q[0]["max"] == 3 and q[0]["max_ns"] == 16000,
              "three launches back to back: 1, 2, 3, 2, 1, 0, longest 3 at 16 µs", str(q))
    # the range 14 µs … 26 µs of it (ms from the trace's start at 10 µs): 2 carried in
    got = stats_json(path, "--from=0.004", "--to=0.016")
    if got:
        q = got["queue_series"]
        check(len(q) == 1 and q[0]["initial"] == 2
              and q[0]["points"] == [[16000, 3], [20000, 2], [25000, 1]],
              "a range carries the queue in (2) and keeps its changes", str(q))
    # 21 µs … 40 µs: the first launch ran wholly before it, two still queued at its start
    got = stats_json(path, "--from=0.011", "--to=0.030")
    if got:
        q = got["queue_series"]
        check(len(q) == 1 and q[0]["initial"] == 2 and q[0]["points"] == [[25000, 1], [30000, 0]]
              and q[0]["max"] == 2 and q[0]["max_ns"] == 21000,
              "a later range: 2 carried in, then 1, 0; its longest (2) at its start", str(q))
    # a tie: the second call starts when the first kernel does (20 µs): 1, 2, 1, 0 (HTA's
    # order at a tie is unspecified; enqueue first never goes below zero)
    path = os.path.join(tmp, "queue-tie.json")
    launch_trace(path, [(10, 2, 20, 5), (20, 2, 30, 5)])
    got = stats_json(path)
    if got:
        q = got["queue_series"]
        check(len(q) == 1 and q[0]["points"] == [[10000, 1], [20000, 2], [20000, 1], [30000, 0]],
              "a call at the instant a kernel starts: enqueue first (1, 2, 1, 0)", str(q))
    # past the cap: 6,000 launches, each queued behind the next (12,000 changes)
    launches = [(10 * i, 1, 10 * i + 5 + (i % 7), 1) for i in range(6000)]
    path = os.path.join(tmp, "queue-many.json")
    launch_trace(path, launches)
    got = stats_json(path)
    if got:
        pairs = [(0, 0, 0, cts * 1000, kts * 1000, ("0", "7")) for cts, _, kts, _ in launches]
        want = queue_series(pairs)
        check(got["queue_series"][0]["decimated"] and len(got["queue_series"][0]["points"]) <= 10000,
              "12,000 changes: decimated to at most the cap", str(len(got["queue_series"][0]["points"])))
        check_series("queue-many", got, want)


def memory_copies(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    out = {}
    for e in evs:
        if e.get("ph") != "X" or str(e.get("cat", "")).lower() not in WORK:
            continue
        name = str(e.get("name", ""))
        cat = str(e.get("cat", "")).lower()
        if not (cat in ("gpu_memcpy", "gpu_memset", "memcpy", "memset")
                or name.startswith("Memcpy") or name.startswith("Memset")):
            continue
        t = "Memset" if name.startswith("Memset") else name[:11] if name.startswith("Memcpy") else "Memcpy Unknown"
        m = out.setdefault(t, {"count": 0, "with_bytes": 0, "bytes": 0.0, "time_ns": 0, "sum": 0.0, "max_gbps": 0.0})
        m["count"] += 1
        m["time_ns"] += max(ns(e["dur"]), 1000)
        args = e.get("args") or {}
        b = args.get("bytes")
        if isinstance(b, (int, Decimal)) and not isinstance(b, bool) and b >= 0:
            m["bytes"] += float(b)
            m["with_bytes"] += 1
        g = args.get("memory bandwidth (GB/s)")
        if isinstance(g, (int, Decimal)) and not isinstance(g, bool):
            m["sum"] += float(g)
            m["max_gbps"] = max(m["max_gbps"], float(g))
    for m in out.values():
        m["mean_gbps"] = m["sum"] / m["count"]
    return out


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2


def without_flows(tmp):
    """Copies of the Kineto traces that have flows, their flow events taken out: the
    launches must then come from the args.correlation join, and equal the same pairs."""
    out = []
    for name in sorted(os.listdir(os.path.join(DATA, "traces"))):
        if not (name.startswith("kineto_") and name.endswith(".json.gz")):
            continue
        with gzip.open(os.path.join(DATA, "traces", name), "rt", encoding="utf-8") as f:
            raw = json.load(f)
        if not isinstance(raw, dict) or not any(e.get("ph") in ("s", "f") for e in raw["traceEvents"]):
            continue
        raw["traceEvents"] = [e for e in raw["traceEvents"] if e.get("ph") not in ("s", "f", "t")]
        path = os.path.join(tmp, "noflows_" + name)
        with gzip.open(path, "wt", encoding="utf-8") as f:
            json.dump(raw, f)
        out.append(path)
        if len(out) == 3:
            break
    return out


def main():
    tried = flowless = 0
    tmp = tempfile.TemporaryDirectory()
    names = [os.path.join(DATA, "traces", n) for n in sorted(os.listdir(os.path.join(DATA, "traces")))
             if n.startswith("kineto_") and n.endswith(".json.gz")]
    for path in names + without_flows(tmp.name):
        name = os.path.basename(path)
        pairs, qstats = expected(path)
        with gzip.open(path, "rt", encoding="utf-8") as f:
            raw = json.load(f)
        evs = raw["traceEvents"] if isinstance(raw, dict) else raw
        has_flows = any(e.get("ph") in ("s", "f") for e in evs)
        p = subprocess.run([BINARY, "trace", path, "--stats", "--json"], capture_output=True,
                           text=True, timeout=300)
        if p.returncode != 0:
            check(False, "%s: --stats runs" % name, p.stderr)
            continue
        got = json.loads(p.stdout).get("launches")
        if not pairs:
            check(got is None, "%s: no launches tied by correlation, none reported" % name, str(got)[:200])
            continue
        tried += 1
        flowless += not has_flows
        if got is None:
            check(False, "%s: launches reported" % name)
            continue
        check(got["count"] == len(pairs), "%s: %d launches" % (name, len(pairs)), "got %d" % got["count"])
        for key, idx in (("cpu_duration", 0), ("gpu_duration", 1), ("launch_delay", 2)):
            vals = [pr[idx] for pr in pairs]
            want = {"max_ns": max(vals), "p50_ns": median(vals),
                    "mean_ns": int(sum(vals) / len(vals) + 0.5)}
            have = {k: got[key][k] for k in want}
            check(have == want, "%s: %s max, median, mean" % (name, key), "want %s got %s" % (want, have))
        outl = (sum(1 for pr in pairs if pr[0] > 50000), sum(1 for pr in pairs if pr[2] > 100000),
                sum(1 for pr in pairs if pr[0] <= 50000 and pr[1] < pr[0]))
        check((got["runtime_outliers"], got["launch_delay_outliers"], got["short_kernels"]) == outl,
              "%s: outliers (calls > 50 µs, delays > 100 µs, short kernels) %s" % (name, outl),
              str((got["runtime_outliers"], got["launch_delay_outliers"], got["short_kernels"])))
        hq = {(q["pid"], q["tid"]): (q["max"], q["mean_at_changes"]) for q in got["queues"]}
        ok = set(hq) == set(qstats) and all(hq[s][0] == qstats[s][0] and abs(hq[s][1] - qstats[s][1]) < 1e-9
                                            for s in qstats)
        check(ok, "%s: queue length per stream (longest, mean at changes)" % name,
              "want %s got %s" % (qstats, hq))
        check_series(name, got, queue_series(pairs))
    hand_made(tmp.name)
    check(tried >= 3, "at least three traces with launches compared", str(tried))
    check(flowless >= 3, "at least three traces without flows joined on args.correlation", str(flowless))
    tmp.cleanup()
    copies_seen = 0
    for name in sorted(os.listdir(os.path.join(DATA, "traces"))):
        if not (name.startswith("kineto_") and name.endswith(".json.gz")):
            continue
        path = os.path.join(DATA, "traces", name)
        want = memory_copies(path)
        p = subprocess.run([BINARY, "trace", path, "--stats", "--json"], capture_output=True,
                           text=True, timeout=300)
        if p.returncode != 0:
            check(False, "%s: --stats runs" % name, p.stderr)
            continue
        got = {m["type"]: m for m in json.loads(p.stdout).get("memory_copies", [])}
        if not want:
            check(not got, "%s: no copies, none reported" % name, str(got)[:200])
            continue
        copies_seen += 1
        bad = []
        for t, w in want.items():
            g = got.get(t)
            if (not g or g["count"] != w["count"] or g["with_bytes"] != w["with_bytes"]
                    or abs(g["bytes"] - w["bytes"]) > 1e-6 * max(1, w["bytes"]) or g["time_ns"] != w["time_ns"]
                    or abs(g["mean_gbps"] - w["mean_gbps"]) > 1e-9 * max(1, w["mean_gbps"])
                    or abs(g["max_gbps"] - w["max_gbps"]) > 1e-12):
                bad.append((t, w, g))
        check(not bad and set(got) == set(want), "%s: copies by type %s" % (name, sorted(want)), str(bad[:3]))
    check(copies_seen >= 3, "at least three traces with copies compared", str(copies_seen))

    return finish()


if __name__ == "__main__":
    sys.exit(main())
