#!/usr/bin/env python3
"""Issue 33, per-ProfilerStep breakdowns: `trace FILE --stats --json`'s `steps` and
`--stats --step N` against an independent computation on HTA's public traces with steps
(tests/data/trace-diff, tests/data/traces; origin in tests/data/ATTRIBUTION.md).

Independent: each ProfilerStep#N's span on a CPU thread (its first start to its last end),
and in it the GPU's busy time — the union of the kernels, copies and sets of every stream
that intersect the span, cut to it (HTA's temporal breakdown merges the streams' kernels
the same way) — and how many of them there are;
times from the decimal text (Decimal, never a double). Then `--step N` scopes the
statistics as `--from`/`--to` would: the by-name totals of the step equal the ones
computed here for the step's range. Prints TAP."""
import collections
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
WORK = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset", "cuda_profiler_range", "mtia_ccp_events"}


def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    return [e for e in evs if e.get("ph") == "X"]


def union(intervals):
    total, end = 0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def expected(path):
    evs = events(path)
    spans = collections.defaultdict(list)
    for e in evs:
        m = re.fullmatch(r"ProfilerStep#([0-9]+)", str(e.get("name")))
        if m and str(e.get("cat", "")).lower() not in WORK and e.get("cat") != "gpu_user_annotation":
            spans[int(m.group(1))].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    work = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), (str(e["pid"]), str(e["tid"])))
            for e in evs if str(e.get("cat", "")).lower() in WORK]
    out = {}
    for step, sp in spans.items():
        t0, t1 = min(a for a, _ in sp), max(b for _, b in sp)
        per = collections.defaultdict(list)
        n = 0
        for a, b, stream in work:
            if (b > t0 and a < t1) or (a == b and t0 <= a < t1):
                n += 1
                if min(b, t1) > max(a, t0):
                    per[stream].append((max(a, t0), min(b, t1)))
        out[step] = (t0, t1 - t0, union([iv for v in per.values() for iv in v]), n)
    return out


def run(args):
    p = subprocess.run([BINARY, "trace"] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    files = [os.path.join(DATA, "trace-diff", "hta", "control.json.gz"),
             os.path.join(DATA, "trace-diff", "compare", "base.json.gz"),
             os.path.join(DATA, "traces", "kineto_legacy2021_resnet50_v100.json.gz")]
    for path in files:
        name = os.path.basename(path)
        want = expected(path)
        rc, out, err = run([path, "--stats", "--json"])
        check(rc == 0, "%s: --stats runs" % name, err)
        if rc:
            continue
        got = {s["step"]: (s["start_ns"], s["dur_ns"], s["gpu_busy_ns"], s["gpu_work"])
               for s in json.loads(out).get("steps", [])}
        check(sorted(got) == sorted(want), "%s: steps %s" % (name, sorted(want)), str(sorted(got)))
        bad = [(k, want[k], got.get(k)) for k in want if got.get(k) != want[k]]
        check(not bad, "%s: each step's span, GPU busy time and work count" % name, str(bad[:4]))
        step = sorted(want)[len(want) // 2]
        rc, out, err = run([path, "--stats", "--json", "--step", str(step)])
        if rc == 0:
            rng = json.loads(out)["range"]
            check(rng["start_ns"] == want[step][0] and rng["end_ns"] == want[step][0] + want[step][1]
                  and not rng["whole_trace"], "%s: --step %d scopes the statistics to it" % (name, step),
                  str(rng))
        else:
            check(False, "%s: --step %d runs" % (name, step), err)
    rc, out, err = run([files[0], "--stats", "--step", "99"])
    check(rc != 0 and "ProfilerStep#99" in err and "1009" in err and "control.json.gz" in err,
          "a step not in the trace is refused, naming the file and the steps it has", err)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
