#!/usr/bin/env python3
"""Issue 33's "Done when", the comparison half: `inferview trace A B --diff --json` against
an independent computation written here, on HTA's public trace pairs (tests/data/trace-diff,
origin in tests/data/ATTRIBUTION.md) and on generated pairs with known changes.

The independent computation reads the events with Python's json (integer microseconds
times 1000 = ns), sorts each CPU thread's complete events by start (longer first) and
nests them with a stack — a child ends within its parent's end plus the loader's 1 µs
tolerance, else it is a partial overlap and counts as an outermost call — to spell each
CPU operator's call path. GPU work (kernel, gpu_memcpy, gpu_memset) and GPU annotations
(gpu_user_annotation) go by name. Per (kind, path or name): the count and the summed
durations in each trace, exactly; a ProfilerStep compared is [its start, its end) with the
events that intersect it cut to it (as the loader's statistics cut to a range).

Then HTA's own statement about its base/test pair (hta tests/test_trace_diff.py, step
1010): AddmmBackward0, All2All_Pooled_Req and CatBackward0 are added, nccl:all_reduce
removed. Prints TAP."""
import collections
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
SEP = " › "
TOLERANCE_NS = 1000
WORK = {"kernel", "gpu_memcpy", "gpu_memset"}


def events_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return [e for e in events if e.get("ph") == "X"]


def ns(v):
    return int(round(v * 1000)) if isinstance(v, float) else int(v) * 1000


def expected(path, step=None):
    """{(kind, key): [count, total_ns]} and the step's range."""
    evs = events_of(path)
    t0, t1 = None, None
    if step is not None:
        name = "ProfilerStep#%d" % step
        spans = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in evs
                 if e.get("name") == name and e.get("cat") not in WORK and e.get("cat") != "gpu_user_annotation"]
        t0, t1 = min(s for s, _ in spans), max(e for _, e in spans)
    out = collections.defaultdict(lambda: [0, 0])

    def add(kind, key, s, d):
        if t0 is not None:
            e = s + d
            if (d == 0 and not (t0 <= s < t1)) or (d > 0 and (e <= t0 or s >= t1)):
                return
            d = min(e, t1) - max(s, t0)
        out[(kind, key)][0] += 1
        out[(kind, key)][1] += d

    threads = collections.defaultdict(list)
    for i, e in enumerate(evs):
        cat = e.get("cat", "")
        if str(e.get("pid")) in ("Spans", "Traces"):  # Kineto's capture-wide spans
            continue
        s, d = ns(e["ts"]), ns(e.get("dur", 0))
        if cat in WORK:
            add("gpu", e["name"], s, d)
        elif cat == "gpu_user_annotation":
            add("annotation", e["name"], s, d)
        else:
            # equal start and length: the one written first is the parent, as the loader
            # keeps the file's order among equals
            threads[(str(e.get("pid")), str(e.get("tid")))].append((s, -d, i, e["name"]))
    for evs_t in threads.values():
        evs_t.sort()
        stack = []  # (end, path)
        for s, negd, _, name in evs_t:
            # a ProfilerStep#N is ProfilerStep#* on the CPU side: steps numbered apart match
            if re.fullmatch(r"ProfilerStep#[0-9]+", name):
                name = "ProfilerStep#*"
            d = -negd
            while stack and stack[-1][0] <= s:
                stack.pop()
            if stack and s + d <= stack[-1][0] + TOLERANCE_NS:
                path = stack[-1][1] + SEP + name
            else:
                path = name
                if stack:  # a partial overlap: an outermost call of its own
                    stack = []
            stack.append((s + d, path))
            add("cpu", path, s, d)
    return out


def diff_of(a, b, step=None):
    cmd = [BINARY, "trace", a, b, "--diff", "--json", "--top", "0"]
    if step is not None:
        cmd += ["--step", str(step)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return None, p.stderr
    return json.loads(p.stdout), ""


def compare(label, a, b, step=None):
    got, err = diff_of(a, b, step)
    check(got is not None, "%s: --diff runs" % label, err)
    if got is None:
        return None
    sa, sb = (None, None) if step is None else (
        (int(str(step).split(":")[0]), int(str(step).split(":")[-1])))
    ea, eb = expected(a, sa), expected(b, sb)
    want = {}
    for k in set(ea) | set(eb):
        want[k] = (ea.get(k, [0, 0]), eb.get(k, [0, 0]))
    have = {}
    for e in got["entries"]:
        key = (e["kind"], e["path"] if e["path"] is not None else e["name"])
        have[key] = ([e["count"][0], e["total_ns"][0]], [e["count"][1], e["total_ns"][1]])
        if e["delta_ns"] != e["total_ns"][1] - e["total_ns"][0]:
            check(False, "%s: delta of %s" % (label, key))
    missing = [k for k in want if k not in have]
    extra = [k for k in have if k not in want]
    wrong = [(k, want[k], have[k]) for k in want if k in have and
             (list(want[k][0]), list(want[k][1])) != (list(have[k][0]), list(have[k][1]))]
    check(not missing and not extra, "%s: the same %d entries" % (label, len(want)),
          "missing %s; extra %s" % (missing[:5], extra[:5]))
    check(not wrong, "%s: every count and total agrees" % label, str(wrong[:5]))
    deltas = [abs(e["delta_ns"]) for e in got["entries"]]
    check(deltas == sorted(deltas, reverse=True), "%s: sorted by |Δ time|" % label)
    added = sum(1 for k in want if want[k][0][0] == 0)
    removed = sum(1 for k in want if want[k][1][0] == 0)
    check(got["added"] == added and got["removed"] == removed,
          "%s: %d added, %d removed" % (label, added, removed), "got %s, %s" % (got["added"], got["removed"]))
    return got


def write_trace(path, events):
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)


def generated(tmp):
    """A step where aten::mm under forward grew by 50 µs and under backward did not, one
    more GEMM kernel, a new kernel, and an annotation removed."""
    def x(name, cat, ts, dur, tid=1, pid=1):
        return {"ph": "X", "name": name, "cat": cat, "ts": ts, "dur": dur, "pid": pid, "tid": tid}

    def trace(mm_fwd, gemms, relu, annot, step=3):
        ev = [x("ProfilerStep#%d" % step, "user_annotation", 0, 2000),
              x("forward", "user_annotation", 10, 900), x("aten::mm", "cpu_op", 20, mm_fwd),
              x("backward", "user_annotation", 1000, 900), x("aten::mm", "cpu_op", 1010, 200)]
        for i in range(gemms):
            ev.append(x("gemm_kernel", "kernel", 100 + 100 * i, 50, tid=7, pid=0))
        if relu:
            ev.append(x("relu_kernel", "kernel", 1500, 10, tid=7, pid=0))
        if annot:
            ev.append(x("fwd_range", "gpu_user_annotation", 90, 400, tid=7, pid=0))
        return ev

    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    write_trace(a, trace(100, 2, False, True))
    write_trace(b, trace(150, 3, True, False))
    write_trace(os.path.join(tmp, "b7.json"), trace(150, 3, True, False, step=7))
    return a, b


def union_ns(spans):
    total, end = 0, None
    for s, e in sorted(spans):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def job_expected(folder):
    """A distributed job (a folder of rank traces): each rank's entries summed over the
    ranks, and the GPU busy time as the sum of each rank's union of GPU work."""
    out = collections.defaultdict(lambda: [0, 0])
    busy = 0
    for f in sorted(os.listdir(folder)):
        if ".pt.trace.json" not in f:
            continue
        path = os.path.join(folder, f)
        for k, (c, t) in expected(path).items():
            out[k][0] += c
            out[k][1] += t
        busy += union_ns([(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in events_of(path)
                          if e.get("cat") in WORK and ns(e.get("dur", 0)) > 0])
    return out, busy


def compare_jobs(tmp):
    """Two generated distributed jobs (2 ranks, 2 and 3 iterations) compared by folder."""
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-rank-traces.py")
    ja, jb = os.path.join(tmp, "job-a"), os.path.join(tmp, "job-b")
    subprocess.run([sys.executable, gen, ja, "--ranks", "2", "--steps", "2", "--seed", "1"],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, gen, jb, "--ranks", "2", "--steps", "3", "--seed", "2"],
                   check=True, capture_output=True)
    got, err = diff_of(ja, jb)
    check(got is not None, "jobs: --diff of two job folders runs", err)
    if got is None:
        return
    (ea, busy_a), (eb, busy_b) = job_expected(ja), job_expected(jb)
    want = {k: (ea.get(k, [0, 0]), eb.get(k, [0, 0])) for k in set(ea) | set(eb)}
    have = {(e["kind"], e["path"] if e["path"] is not None else e["name"]):
            ([e["count"][0], e["total_ns"][0]], [e["count"][1], e["total_ns"][1]])
            for e in got["entries"]}
    check(set(want) == set(have), "jobs: the same %d entries, summed over the ranks" % len(want),
          "missing %s; extra %s" % (sorted(set(want) - set(have))[:5], sorted(set(have) - set(want))[:5]))
    wrong = [(k, want[k], have[k]) for k in want if k in have and
             (list(want[k][0]), list(want[k][1])) != (list(have[k][0]), list(have[k][1]))]
    check(not wrong, "jobs: every count and total agrees", str(wrong[:5]))
    check(got["gpu"]["busy_ns"] == [busy_a, busy_b] and got["gpu"]["busy_summed_per_rank"] == [True, True],
          "jobs: GPU busy is each rank's, summed (%d, %d ns)" % (busy_a, busy_b),
          "got %s" % got["gpu"])
    check(got["traces"] == [ja, jb], "jobs: the folders are named", str(got["traces"]))


def main():
    base = os.path.join(DATA, "trace-diff", "compare")
    hta = os.path.join(DATA, "trace-diff", "hta")
    with tempfile.TemporaryDirectory() as tmp:
        a, b = generated(tmp)
        got = compare("generated", a, b)
        if got:
            by = {(e["kind"], e["path"] or e["name"]): e for e in got["entries"]}
            fwd = by.get(("cpu", "ProfilerStep#*" + SEP + "forward" + SEP + "aten::mm"))
            bwd = by.get(("cpu", "ProfilerStep#*" + SEP + "backward" + SEP + "aten::mm"))
            check(fwd and fwd["delta_ns"] == 50000, "generated: aten::mm under forward +50 µs", str(fwd))
            check(bwd and bwd["delta_ns"] == 0, "generated: aten::mm under backward unchanged", str(bwd))
            g = by.get(("gpu", "gemm_kernel"))
            check(g and g["count"] == [2, 3] and g["delta_ns"] == 50000, "generated: one more GEMM", str(g))
            r = by.get(("gpu", "relu_kernel"))
            check(r and r["count"] == [0, 1], "generated: relu_kernel added", str(r))
            n = by.get(("annotation", "fwd_range"))
            check(n and n["count"] == [1, 0], "generated: fwd_range removed", str(n))
            check(got["entries"][0]["delta_ns"] in (50000, -400000), "generated: the largest change first")
            check(got["added"] == 1 and got["removed"] == 1, "generated: 1 added, 1 removed",
                  "%s %s" % (got["added"], got["removed"]))
            check(got["gpu"]["busy_ns"] == [100000, 160000], "generated: GPU busy 100 µs → 160 µs",
                  str(got["gpu"]["busy_ns"]))
        ga, gb = generated(tmp)
        got = compare("generated, step 3 against step 7", ga, os.path.join(tmp, "b7.json"), "3:7")
        if got:
            by = {(e["kind"], e["path"] or e["name"]): e for e in got["entries"]}
            fwd = by.get(("cpu", "ProfilerStep#*" + SEP + "forward" + SEP + "aten::mm"))
            check(fwd and fwd["delta_ns"] == 50000 and got["steps"] == [3, 7],
                  "generated: steps numbered apart still match by path", str(fwd))
        png = os.path.join(tmp, "diff.png")
        p = subprocess.run([BINARY, "trace", ga, gb, "--diff", "-o", png, "--size", "column"],
                           capture_output=True, text=True, timeout=120)
        with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as f:
            head = f.read(8)
        check(p.returncode == 0 and head == b"\x89PNG\r\n\x1a\n", "--diff -o draws the changes", p.stderr)
        p = subprocess.run([BINARY, "trace", ga, gb, "--diff", "--json", "-o", png + "2.png"],
                           capture_output=True, text=True, timeout=120)
        check(p.returncode != 0 and not os.path.exists(png + "2.png"), "--json with -o is refused")
        compare_jobs(tmp)
        got, err = diff_of(ga, gb, 4)
        check(got is None and "ProfilerStep#4" in err and "3" in err,
              "a step not in the trace is refused, naming the file and the steps it has", err)

    compare("HTA trace_compare, whole", os.path.join(base, "base.json.gz"), os.path.join(base, "test.json.gz"))
    got = compare("HTA trace_compare, step 1010", os.path.join(base, "base.json.gz"),
                  os.path.join(base, "test.json.gz"), 1010)
    if got:
        names_a = {e["name"] for e in got["entries"] if e["count"][0]}
        names_b = {e["name"] for e in got["entries"] if e["count"][1]}
        check({"AddmmBackward0", "All2All_Pooled_Req", "CatBackward0"} <= names_b - names_a,
              "HTA's statement: AddmmBackward0, All2All_Pooled_Req, CatBackward0 added in step 1010",
              str(sorted(names_b - names_a)))
        check("nccl:all_reduce" in names_a - names_b, "HTA's statement: nccl:all_reduce removed in step 1010",
              str(sorted(names_a - names_b)))
    compare("HTA trace_diff control/test, whole", os.path.join(hta, "control.json.gz"),
            os.path.join(hta, "test.json.gz"))

    return finish()


if __name__ == "__main__":
    sys.exit(main())
