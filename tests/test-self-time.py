#!/usr/bin/env python3
"""Self time under profiler rounding (issues 15 and 28), checked against sums derived here.

Self time gives every instant a thread was busy to the innermost slice covering it: of
the slices covering it, the one that began last. For properly nested slices that is
Perfetto's thread_slice self time (dur − the children's durs); where a child overruns
its parent (Kineto rounds to whole µs) the parent loses only what the child covers of it,
and the child keeps its overrun. Durations are never changed.

1. On every PyTorch (Kineto) trace in tests/data/traces, the self times that
   `inferview trace --stats --json` reports add up, exactly, to what they must, computed
   here with exact decimal arithmetic: on a CPU thread the time it was busy (the union
   of its slices); on a GPU stream, whose kernels are a list and not a call stack, the
   kernels', copies' and syncs' own durations, plus the union of its annotations. A
   child counted twice, or not taken from its parent, breaks the equality.
2. A hand-made Kineto-style trace whose children overrun their parents by 1 µs: with
   the default tolerance they are drawn nested, keep their recorded durations, and are
   reported as overrunning; self times are the hand-computed ones. With
   --overlap-tolerance 0 they are partial overlaps on rows of their own — and the
   numbers are the same: the tolerance decides where a slice is drawn, nothing else.
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


# GPU work (a list: each its own duration), annotations (nested), syncs (a list), as
# Kineto names them (the 2021 schema's Kernel, Memcpy, Memset too)
WORK = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset", "cuda_profiler_range", "mtia_ccp_events"}


def ns(text):
    """µs as written → ns, rounded as Inferview rounds (to the nearest, halves away)."""
    return (Decimal(str(text)) * 1000).quantize(Decimal(1), rounding="ROUND_HALF_UP")


def union(spans):
    total = Decimal(0)
    spans = sorted(spans)
    if not spans:
        return total
    lo, hi = spans[0]
    for s, e in spans[1:]:
        if s > hi:
            total += hi - lo
            lo, hi = s, e
        else:
            hi = max(hi, e)
    return total + hi - lo


def expected_self_ns(events):
    """Σ of every slice's self time, as it must come out: per CPU thread its busy time; per
    GPU stream (a thread holding GPU categories only) its kernels', copies' and syncs'
    durations and the union of its annotations (and of anything else on it)."""
    by_thread = collections.defaultdict(list)
    other = set()
    for e in events:
        if e.get("ph") == "X" and "ts" in e and "dur" in e:
            start = ns(e["ts"])
            end = start + max(ns(e["dur"]), 0)
            key = (str(e.get("pid")), str(e.get("tid", e.get("pid"))))
            cat = str(e.get("cat", "")).lower()
            by_thread[key].append((start, end, cat))
            if not (cat in WORK or cat in ("gpu_user_annotation", "cuda_sync")):
                other.add(key)
    # a GPU stream holds GPU categories only (no trace here needs the naming fallback)
    gpu = set(by_thread) - other
    total = Decimal(0)
    for key, spans in by_thread.items():
        if key not in gpu:
            total += union([(s, e) for s, e, _ in spans])
            continue
        total += sum(e - s for s, e, c in spans if c in WORK or c == "cuda_sync")
        total += union([(s, e) for s, e, c in spans if c == "gpu_user_annotation"])
        total += union([(s, e) for s, e, c in spans if c not in WORK and c not in ("cuda_sync", "gpu_user_annotation")])
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
    busy = expected_self_ns(events)
    check(Decimal(self_sum) == busy,
          f"{os.path.basename(path)}: self times add up to the busy time ({self_sum} ns, by hand {busy} ns)")

# The hand-made trace: aten::linear [0, 100) µs; its children aten::t [1, 11) and
# aten::addmm [12, 101) — 1 µs past the parent's end; addmm's child cudaLaunchKernel
# [20, 30). addmm keeps its 89 µs: linear self = 100 − 10 − 88 (what addmm covers of it)
# = 2 µs, addmm self = 89 − 10 = 79 µs, t 10 µs, the kernel launch 10 µs; the four add up
# to the 101 µs the thread was busy. aten::max_pool2d [200, 300) with child
# aten::max_pool2d_with_indices [201, 301) overrunning by 1 µs: pool self 1 µs, not 100,
# and the child its whole 100 µs.
events = [
    {"ph": "X", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "name": "aten::t", "pid": 1, "tid": 1, "ts": 1, "dur": 10},
    {"ph": "X", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 12, "dur": 89},
    {"ph": "X", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
    {"ph": "X", "name": "aten::max_pool2d", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
    {"ph": "X", "name": "aten::max_pool2d_with_indices", "pid": 1, "tid": 1, "ts": 201, "dur": 100},
]
expected = {"aten::linear": 2000, "aten::t": 10000, "aten::addmm": 79000, "cudaLaunchKernel": 10000,
            "aten::max_pool2d": 1000, "aten::max_pool2d_with_indices": 100000}
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "rounded.json")
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)
    got = stats(path)
    selfs = {n["name"]: n["self_ns"] for n in got["by_name"]}
    totals = {n["name"]: n["total_ns"] for n in got["by_name"]}
    for name, want in expected.items():
        check(selfs.get(name) == want, f"default tolerance: {name} self {selfs.get(name)} ns, by hand {want} ns")
    check(totals.get("aten::addmm") == 89000 and totals.get("aten::max_pool2d_with_indices") == 100000,
          f"durations as recorded (addmm {totals.get('aten::addmm')} ns, 89 µs in the file)")
    over = got["overrun_parent"]
    check(over["slices"] == 2 and over["max_ns"] == 1000 and over["tolerance_ns"] == 1000,
          f"two children reported as overrunning their parents by ≤ 1 µs ({over})")
    check(any("2 slices overrun their parent by at most 1 µs" in w for w in got["warnings"]), "… and said so")
    check(got["max_depth"] == 2, f"drawn nested three deep (max depth {got['max_depth']})")
    check(not any("partially overlap" in w for w in got["warnings"]), "no partial-overlap warning")
    check(sum(selfs.values()) == 202000, f"self times add up to the 202 µs busy ({sum(selfs.values())})")

    strict = stats(path, "--overlap-tolerance", "0")
    strict_selfs = {n["name"]: n["self_ns"] for n in strict["by_name"]}
    check(strict["overrun_parent"]["slices"] == 0, "tolerance 0: nothing drawn nested past its parent")
    check(any("2 slices partially overlap" in w for w in strict["warnings"]), "tolerance 0: two partial overlaps")
    # the tolerance decides where a slice is drawn, never its numbers
    check(strict_selfs == selfs, f"tolerance 0: the same self times ({strict_selfs})")
    check({n["name"]: n["total_ns"] for n in strict["by_name"]} == totals, "tolerance 0: the same totals")

    bad = subprocess.run([BINARY, "trace", path, "--stats", "--overlap-tolerance", "-1"],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "overlap-tolerance" in bad.stderr, "a negative tolerance is refused by name")

if not shared_traces():
    results.append((False, "the public traces in tests/data/traces are missing"))
print(f"1..{len(results)}")
for i, (ok, what) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {what}")
sys.exit(0 if all(ok for ok, _ in results) else 1)
