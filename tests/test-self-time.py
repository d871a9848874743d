#!/usr/bin/env python3
"""Self time under profiler rounding (issue 15), checked against sums derived here.

1. On every PyTorch (Kineto) trace in tests/data/traces, the self times that
   `inferview trace --stats --json` reports add up, exactly, to the time each thread was
   busy: the union of its slices' intervals, computed here with exact decimal
   arithmetic. A child counted twice, or not taken from its parent, breaks the equality.
2. A hand-made Kineto-style trace whose children overrun their parents by 1 µs (whole
   microseconds, as Kineto writes them): with the default tolerance they nest and are
   clamped, and self times are the hand-computed ones; with --overlap-tolerance 0 they
   are partial overlaps on rows of their own, and every busy instant still counts once,
   for the innermost (latest-started) slice covering it.
Prints TAP."""
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

BINARY = os.environ["IV_BINARY"]
SHARED = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
results = []


def check(ok, what):
    results.append((bool(ok), what))


def stats(path, *extra):
    out = subprocess.run([BINARY, "trace", path, "--stats", "--json", *extra],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"{path}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def busy_ns(events):
    """Σ over threads of the union of their complete slices, in ns, exactly."""
    by_thread = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and "ts" in e and "dur" in e:
            start = Decimal(str(e["ts"])) * 1000
            by_thread[(str(e.get("pid")), str(e.get("tid")))].append((start, start + Decimal(str(e["dur"])) * 1000))
    total = Decimal(0)
    for spans in by_thread.values():
        spans.sort()
        lo, hi = spans[0]
        for s, e in spans[1:]:
            if s > hi:
                total += hi - lo
                lo, hi = s, e
            else:
                hi = max(hi, e)
        total += hi - lo
    return total


def shared_traces():
    folder = os.path.join(SHARED, "traces")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("kineto_"))


for path in shared_traces():
    with gzip.open(path) if path.endswith(".gz") else open(path, "rb") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    got = stats(path)
    self_sum = sum(n["self_ns"] for n in got["by_name"])
    busy = busy_ns(events)
    check(Decimal(self_sum) == busy,
          f"{os.path.basename(path)}: self times add up to the busy time ({self_sum} ns, busy {busy} ns)")

# The hand-made trace: aten::linear [0, 100) µs; its children aten::t [1, 11) and
# aten::addmm [12, 101) — 1 µs past the parent's end; addmm's child cudaLaunchKernel
# [20, 30). Clamped, addmm is [12, 100): linear self = 100 − 10 − 88 = 2 µs, addmm self
# = 88 − 10 = 78 µs, t 10 µs, the kernel launch 10 µs; the four add up to the 100 µs the
# thread was busy. aten::max_pool2d [200, 300) with child aten::max_pool2d_with_indices
# [201, 301) overrunning by 1 µs: pool self 1 µs, not 100.
events = [
    {"ph": "X", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "name": "aten::t", "pid": 1, "tid": 1, "ts": 1, "dur": 10},
    {"ph": "X", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 12, "dur": 89},
    {"ph": "X", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
    {"ph": "X", "name": "aten::max_pool2d", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
    {"ph": "X", "name": "aten::max_pool2d_with_indices", "pid": 1, "tid": 1, "ts": 201, "dur": 100},
]
expected = {"aten::linear": 2000, "aten::t": 10000, "aten::addmm": 78000, "cudaLaunchKernel": 10000,
            "aten::max_pool2d": 1000, "aten::max_pool2d_with_indices": 99000}
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "rounded.json")
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)
    got = stats(path)
    selfs = {n["name"]: n["self_ns"] for n in got["by_name"]}
    for name, want in expected.items():
        check(selfs.get(name) == want, f"default tolerance: {name} self {selfs.get(name)} ns, by hand {want} ns")
    check(got["clamped_to_parent"] == 2, f"two children clamped to their parents ({got['clamped_to_parent']})")
    check(got["max_depth"] == 2, f"nested three deep (max depth {got['max_depth']})")
    check(not any("partially overlap" in w for w in got["warnings"]), "no partial-overlap warning")
    check(sum(selfs.values()) == 200000, f"self times add up to the 200 µs busy ({sum(selfs.values())})")

    strict = stats(path, "--overlap-tolerance", "0")
    selfs = {n["name"]: n["self_ns"] for n in strict["by_name"]}
    check(strict["clamped_to_parent"] == 0, "tolerance 0 clamps nothing")
    check(any("2 slices partially overlap" in w for w in strict["warnings"]), "tolerance 0: two partial overlaps")
    # addmm keeps its 89 µs on a row of its own; linear loses only [12, 100) of it
    check(selfs.get("aten::linear") == 2000, f"tolerance 0: linear self {selfs.get('aten::linear')} ns")
    # every instant goes to the innermost (latest-started) slice: addmm has [12, 20) and
    # [30, 101), the kernel launch inside it [20, 30)
    check(selfs.get("aten::addmm") == 79000, f"tolerance 0: addmm self {selfs.get('aten::addmm')} ns, by hand 79000")
    check(sum(selfs.values()) == 202000, f"tolerance 0: self times add up to the 202 µs busy ({sum(selfs.values())})")
    check(selfs.get("aten::max_pool2d") == 1000, f"tolerance 0: max_pool2d self {selfs.get('aten::max_pool2d')} ns")

    bad = subprocess.run([BINARY, "trace", path, "--stats", "--overlap-tolerance", "-1"],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "overlap-tolerance" in bad.stderr, "a negative tolerance is refused by name")

if not shared_traces():
    results.append((False, "the public traces in tests/data/traces are missing"))
print(f"1..{len(results)}")
for i, (ok, what) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
sys.exit(0 if all(ok for ok, _ in results) else 1)
