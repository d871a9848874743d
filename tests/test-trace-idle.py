#!/usr/bin/env python3
"""Issue 33, idle time per GPU stream: `trace FILE --stats --json`'s gpu.streams[].idle
(host wait, kernel wait, other) against an independent computation written here, on every
public Kineto trace in tests/data/traces (HTA's and kineto's, origin in
tests/data/ATTRIBUTION.md).

The definition is HTA's (hta/analyzers/breakdown_analysis.py, _analyze_idle_time_for_stream,
with get_idle_time_breakdown's consecutive_kernel_delay of 30 µs): a stream's idle time is
split at each kernel — host wait when the runtime call that launched it started after the
stream went idle, else kernel wait when the gap is under 30 µs, else other. Inferview
measures the gaps of the union of a stream's work (so overlapping kernels, whose HTA gaps are
negative, do not subtract time and the three add up to the idle time); on a stream whose
work never overlaps the two are the same sums, which is checked here against HTA's own
per-kernel formulation too.

The events are read with Python's json, numbers as decimals (µs × 1000 = ns exactly). GPU
work: complete events of HTA's kernel categories (kernel, gpu_memcpy, gpu_memset,
mtia_ccp_events, and the 2021 format's Kernel, Memcpy, Memset; plus cuda_profiler_range) by
(pid, tid). A kernel's launch is the start of the
runtime event with its args.correlation — only in traces that carry Kineto's launch flows,
through which the loader ties launches (docs/formats.md). Prints TAP."""
import collections
import decimal
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
# HTA's kernel categories (get_idle_time_breakdown's kernel_cats), and CUPTI's range
# profiler ranges, which the loader draws on the device as its work too
WORK = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "mtia_ccp_events",
        "cuda_profiler_range"}
KERNEL_WAIT_NS = 30000


def ns(v):
    return int(decimal.Decimal(v) * 1000)


def load(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def streams_of(evs):
    """{(pid, tid): [(start, end, launch or None)]}"""
    has_flows = any(e.get("ph") in ("s", "f") for e in evs)
    launch = {}
    if has_flows:
        for e in evs:
            a = e.get("args") or {}
            if e.get("ph") == "X" and e.get("cat") not in WORK and "correlation" in a:
                launch.setdefault(a["correlation"], ns(e["ts"]))
    out = collections.defaultdict(list)
    for e in evs:
        if e.get("ph") != "X" or e.get("cat") not in WORK:
            continue
        s = ns(e["ts"])
        corr = (e.get("args") or {}).get("correlation")
        out[(str(e["pid"]), str(e["tid"]))].append((s, s + ns(e.get("dur", 0)), launch.get(corr)))
    return out


def union_split(kernels):
    """Inferview's: the gaps of the union of the stream's work."""
    ks = sorted(kernels, key=lambda k: k[0])
    merged = []
    for s, e, _ in ks:
        if e <= s:
            continue
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    first, last = min(k[0] for k in ks), max(k[1] for k in ks)
    busy = sum(e - s for s, e in merged)
    host = kern = other = 0
    for (_, gap_from), (gap_to, _) in zip(merged, merged[1:]):
        gap = gap_to - gap_from
        launches = [l for s, _, l in ks if s == gap_to and l is not None]
        if launches and min(launches) > gap_from:
            host += gap
        elif gap < KERNEL_WAIT_NS:
            kern += gap
        else:
            other += gap
    return {"idle_ns": last - first - busy, "host_wait_ns": host, "kernel_wait_ns": kern,
            "other_ns": other}


def hta_split(kernels):
    """HTA's _analyze_idle_time_for_stream: per kernel, from the end of the one before."""
    ks = sorted(kernels, key=lambda k: k[0])
    out = {"host_wait_ns": 0, "kernel_wait_ns": 0, "other_ns": 0}
    for (_, prev_end, _), (s, _, launch) in zip(ks, ks[1:]):
        idle = s - prev_end
        if launch is not None and launch > prev_end:
            out["host_wait_ns"] += idle
        elif idle < KERNEL_WAIT_NS:
            out["kernel_wait_ns"] += idle
        else:
            out["other_ns"] += idle
    return out


def overlaps(kernels):
    ks = sorted(kernels, key=lambda k: k[0])
    return any(b[0] < a[1] for a, b in zip(ks, ks[1:]))


def main():
    compared = hta_compared = 0
    for name in sorted(os.listdir(os.path.join(DATA, "traces"))):
        if not (name.startswith("kineto_") and name.endswith(".json.gz")):
            continue
        path = os.path.join(DATA, "traces", name)
        want = streams_of(load(path))
        p = subprocess.run([BINARY, "trace", path, "--stats", "--json"], capture_output=True,
                           text=True, timeout=300)
        if not check(p.returncode == 0, "%s: --stats runs" % name, p.stderr):
            continue
        got = {(s["pid"], s["tid"]): s for s in json.loads(p.stdout).get("gpu", {}).get("streams", [])}
        check(set(got) == set(want), "%s: the streams with GPU work" % name,
              "got %s, expected %s" % (sorted(got), sorted(want)))
        for key in sorted(set(got) & set(want)):
            g = got[key]
            mine = union_split(want[key])
            have = {"idle_ns": g["idle_ns"], **g["idle"]}
            check(have == mine, "%s stream %s/%s: idle %d ns split as host wait / kernel wait / "
                  "other" % (name, key[0], key[1], mine["idle_ns"]), "got %s\nexpected %s" % (have, mine))
            check(g["idle"]["host_wait_ns"] + g["idle"]["kernel_wait_ns"] + g["idle"]["other_ns"]
                  == g["idle_ns"], "%s stream %s/%s: the three add up to the idle time" % (name, *key))
            compared += 1
            if not overlaps(want[key]):
                hta = hta_split(want[key])
                check(g["idle"] == hta, "%s stream %s/%s: no overlaps, the same as HTA's per-kernel "
                      "split" % (name, *key), "got %s\nHTA %s" % (g["idle"], hta))
                hta_compared += 1
    check(compared >= 5, "at least five streams compared", str(compared))
    check(hta_compared >= 2, "at least two streams compared with HTA's formulation", str(hta_compared))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
