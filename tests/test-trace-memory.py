#!/usr/bin/env python3
"""Issue 33, the memory curve: `trace FILE --stats --json`'s memory[] (each [memory] curve's
peak, its time and its samples) against an independent computation written here, on every
public Kineto trace in tests/data/traces that has allocator events (origin in
tests/data/ATTRIBUTION.md).

Kineto writes an allocator event as a "[memory]" instant with args "Total Allocated" (the
bytes in use after it, newer Kineto) or only "Bytes" (the change), "Device Type" (0 CPU)
and "Device Id". A curve per process and device: with "Total Allocated" its values, else
the running sum of "Bytes" in time order from 0 (what was allocated before the capture is
not in it: "since start"); its peak is the highest value, at the first time it is reached.
Read with Python's json, numbers as decimals (µs × 1000 = ns exactly). Prints TAP."""
import collections
import decimal
import gzip
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))


def curves(path):
    """{name: (since_start, [(ns, value)])} in time order, values as the curve has them."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    raw = collections.defaultdict(list)
    for e in evs:
        a = e.get("args") or {}
        if e.get("ph") not in ("i", "I") or e.get("name") != "[memory]":
            continue
        total, change = a.get("Total Allocated"), a.get("Bytes")
        if total is None and change is None:
            continue
        gpu = str(a.get("Device Type", "0")) != "0"
        device = "GPU %s" % a.get("Device Id", "?") if gpu else "CPU"
        kind = "allocated" if total is not None else "since start"
        raw[(e.get("pid"), "memory · %s · %s" % (device, kind))].append(
            (int(decimal.Decimal(e["ts"]) * 1000), decimal.Decimal(total if total is not None else change)))
    out = {}
    for (_, name), samples in raw.items():
        samples.sort(key=lambda s: s[0])
        if name.endswith("since start"):
            run, summed = 0, []
            for t, v in samples:
                run += v
                summed.append((t, run))
            samples = summed
        out.setdefault(name, []).append((name.endswith("since start"), samples))
    return out


def main():
    traces = 0
    for name in sorted(os.listdir(os.path.join(DATA, "traces"))):
        if not (name.startswith("kineto_") and name.endswith(".json.gz")):
            continue
        path = os.path.join(DATA, "traces", name)
        want = curves(path)
        p = subprocess.run([BINARY, "trace", path, "--stats", "--json"], capture_output=True,
                           text=True, timeout=300)
        if not check(p.returncode == 0, "%s: --stats runs" % name, p.stderr):
            continue
        got = json.loads(p.stdout).get("memory", [])
        if not want:
            check(got == [], "%s: no [memory] events, no memory curve" % name, str(got)[:200])
            continue
        traces += 1
        check(sorted(m["name"] for m in got) == sorted(n for n, cs in want.items() for _ in cs),
              "%s: a curve per process and device" % name,
              "got %s\nexpected %s" % ([m["name"] for m in got], list(want)))
        for m in got:
            # one process's curve of that name, told from another's by its samples
            same = [c for c in want.get(m["name"], []) if len(c[1]) == m["samples"]]
            if not check(same, "%s %s: a curve of %d samples" % (name, m["name"], m["samples"]),
                         "expected %s" % [len(c[1]) for c in want.get(m["name"], [])]):
                continue
            since, samples = same[0]
            peak = max(v for _, v in samples)
            at = next(t for t, v in samples if v == peak)
            check(abs(decimal.Decimal(repr(m["peak_bytes"])) - peak) < 1 and m["peak_ns"] == at
                  and m["since_start"] == since,
                  "%s %s: peak %s bytes at %d ns" % (name, m["name"], peak, at), "got %s" % m)
    check(traces >= 1, "at least one trace with allocator events", str(traces))
    # newer Kineto's level ("Total Allocated") on GPU 1, and a CPU curve of changes whose
    # running sum peaks twice (the first time counts): known by hand
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mem.json")
        def mem(ts, **args):
            return {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": ts,
                    "args": args}
        evs = [{"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
               mem(10, **{"Total Allocated": 1000, "Device Type": 1, "Device Id": 1}),
               mem(20, **{"Total Allocated": 5000, "Device Type": 1, "Device Id": 1}),
               mem(30, **{"Total Allocated": 2000, "Device Type": 1, "Device Id": 1}),
               mem(15, **{"Bytes": 300, "Device Type": 0}), mem(25, **{"Bytes": -100, "Device Type": 0}),
               mem(35, **{"Bytes": 100, "Device Type": 0}), mem(45, **{"Bytes": -300, "Device Type": 0})]
        with open(path, "w") as f:
            json.dump({"traceEvents": evs}, f)
        p = subprocess.run([BINARY, "trace", path, "--stats", "--json"], capture_output=True,
                           text=True, timeout=60)
        got = {m["name"]: m for m in json.loads(p.stdout).get("memory", [])} if p.returncode == 0 else {}
        g = got.get("memory · GPU 1 · allocated", {})
        check(g.get("peak_bytes") == 5000 and g.get("peak_ns") == 20000 and g.get("samples") == 3
              and g.get("since_start") is False, "generated: GPU 1's level peaks at 5000 B at 20 µs", str(got))
        c = got.get("memory · CPU · since start", {})
        check(c.get("peak_bytes") == 300 and c.get("peak_ns") == 15000 and c.get("samples") == 4
              and c.get("since_start") is True, "generated: the CPU's running sum peaks at 300 B, first at 15 µs",
              str(got))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
