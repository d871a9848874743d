#!/usr/bin/env python3
"""The pipelined figure's content against the reference script (issue 15): for the
bundled sample (with and without its breakdown) and for 300 generated files that walk
the rules' corners — buffer waits without reads and reads without waits, waits ending
after the reads, main events covering a gap or not, short main events, gaps under 1 ms,
start candidate 0, candidates without GPU compute, explicit GPU buffers, events of no
candidate, unknown names — `inferview trace FILE --pipeline-json` must print exactly the
window, lanes, bars (cuts and labels included), legend and breakdown segments that the
reference's own functions compute (tests/pipeline-reference.py runs them). Prints TAP."""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ["IV_BINARY"]
SAMPLES = os.environ["IV_SAMPLES_DIR"]
REFERENCE = os.path.join(os.environ.get("IV_TEST_DATA", os.path.join(HERE, "data")), "reference",
                         "pipelined_timeline_reference.py")
EPS = 1e-6
results = []


def ours(path, start=None, breakdown=None):
    cmd = [BINARY, "trace", path, "--pipeline-json"]
    if start is not None:
        cmd += ["--start-candidate", str(start)]
    if breakdown:
        cmd += ["--breakdown", breakdown]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return out.returncode, (json.loads(out.stdout) if out.returncode == 0 else out.stderr)


def theirs(path, start=None, breakdown=None):
    cmd = [sys.executable, os.path.join(HERE, "pipeline-reference.py"), REFERENCE, path,
           "-" if start is None else str(start)] + ([breakdown] if breakdown else [])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def bar_key(b):
    return (b["lane"], b["name"], -1 if b["candidate"] is None else b["candidate"], round(b["start_ms"], 6))


def differences(got, want):
    """What differs, in words; empty when the two agree."""
    out = []
    for key in ("start_ms", "end_ms"):
        if abs(got["window"][key] - want["window"][key]) > EPS:
            out.append(f"window {key} {got['window'][key]} vs {want['window'][key]}")
    if got["start_candidate"] != want["start_candidate"]:
        out.append(f"start candidate {got['start_candidate']} vs {want['start_candidate']}")
    if got["lanes"] != want["lanes"]:
        out.append(f"lanes {got['lanes']} vs {want['lanes']}")
    if got["legend"] != want["legend"]:
        out.append(f"legend {got['legend']} vs {want['legend']}")
    g, w = sorted(got["bars"], key=bar_key), sorted(want["bars"], key=bar_key)
    if len(g) != len(w):
        out.append(f"{len(g)} bars vs {len(w)}: {[bar_key(b) for b in g]} vs {[bar_key(b) for b in w]}")
    else:
        for a, b in zip(g, w):
            for key in ("lane", "name", "candidate", "cut_left", "cut_right", "label"):
                if a[key] != b[key]:
                    out.append(f"bar {bar_key(b)}: {key} {a[key]} vs {b[key]}")
            for key in ("start_ms", "end_ms"):
                if abs(a[key] - b[key]) > EPS:
                    out.append(f"bar {bar_key(b)}: {key} {a[key]} vs {b[key]}")
    gb, wb = got.get("breakdown"), want.get("breakdown")
    if (gb is None) != (wb is None):
        out.append(f"breakdown {gb} vs {wb}")
    elif gb:
        if gb["candidate"] != wb["candidate"] or len(gb["segments"]) != len(wb["segments"]):
            out.append(f"breakdown {gb} vs {wb}")
        else:
            for a, b in zip(gb["segments"], wb["segments"]):
                if a["label"] != b["label"] or abs(a["percent"] - b["percent"]) > 1e-9 \
                        or abs(a["width_percent"] - b["width_percent"]) > 1e-9:
                    out.append(f"segment {a} vs {b}")
    return out


def compare(what, path, start=None, breakdown=None):
    want = theirs(path, start, breakdown)
    rc, got = ours(path, start, breakdown)
    if want is None:
        results.append((rc != 0, f"{what}: nothing to draw, and inferview says so ({rc})"))
        return
    if rc != 0:
        results.append((False, f"{what}: inferview failed: {got}"))
        return
    diff = differences(got, want)
    results.append((not diff, f"{what}" + (": " + "; ".join(diff[:4]) if diff else "")))


def r3(x):
    return round(x, 3)


def generate(rng):
    """A pipelined_timeline_v2 file shaped like the real ones, with the corners mixed in."""
    n = rng.randint(3, 12)
    events, t = [], rng.uniform(0, 50)
    for c in range(n):
        io_start = t + rng.uniform(-5, 20)
        kind = rng.random()
        wait_dur = rng.uniform(0.5, 30)
        if kind < 0.7:   # a buffer wait, then reads
            events.append({"lane": "io", "name": "gpu_buffer_wait", "start_ms": r3(io_start), "dur_ms": r3(wait_dur),
                           "candidate": c})
            rs = io_start + wait_dur + rng.uniform(-3, 2)
            for _ in range(rng.randint(1, 3)):
                d = rng.uniform(1, 35)
                events.append({"lane": "io", "name": "hdf5_read", "start_ms": r3(rs), "dur_ms": r3(d), "candidate": c})
                rs += d + rng.uniform(0, 2)
        elif kind < 0.85:  # reads only
            events.append({"lane": "io", "name": "hdf5_read", "start_ms": r3(io_start), "dur_ms": r3(rng.uniform(5, 40)),
                           "candidate": c})
        elif kind < 0.93:  # a wait only
            events.append({"lane": "io", "name": "gpu_buffer_wait", "start_ms": r3(io_start), "dur_ms": r3(wait_dur),
                           "candidate": c})
        io_end = max([e["start_ms"] + e["dur_ms"] for e in events if e.get("candidate") == c and e["lane"] == "io"]
                     or [io_start])
        gpu_start = io_end + rng.choice([rng.uniform(0, 0.9), rng.uniform(1, 25), rng.uniform(-2, 0.5)])
        for _ in range(rng.randint(0, 2)):
            name = rng.choice(["wait_for_io", "await_dispatch", "trsm_host", "other_host"])
            ms = io_end + rng.uniform(-3, 10)
            events.append({"lane": "main", "name": name, "start_ms": r3(ms),
                           "dur_ms": r3(rng.choice([rng.uniform(0.1, 0.99), rng.uniform(1, 30)])), "candidate": c})
        if rng.random() < 0.3:  # a main event covering the whole gap
            events.append({"lane": "main", "name": "wait_for_io", "start_ms": r3(io_end - 0.02),
                           "dur_ms": r3(gpu_start - io_end + 0.04), "candidate": c})
        if rng.random() < 0.92:
            gpu = {"lane": "gpu", "name": "compute", "start_ms": r3(gpu_start), "dur_ms": r3(rng.uniform(20, 70)),
                   "candidate": c}
            if rng.random() < 0.2:
                gpu["buffer"] = rng.randint(0, 1)
            events.append(gpu)
            if rng.random() < 0.2:
                events.append({"lane": "gpu", "name": "trsm", "start_ms": r3(gpu_start + 1), "dur_ms": 5.0,
                               "candidate": c})
        t = gpu_start + rng.uniform(5, 40)
    if rng.random() < 0.3:
        events.append({"lane": "main", "name": "wait_for_io", "start_ms": r3(t), "dur_ms": 3.0})
    rng.shuffle(events)
    doc = {"format": rng.choice(["pipelined_timeline_v1", "pipelined_timeline_v2"]), "events": events}
    if rng.random() < 0.6:
        doc["start_candidate"] = rng.randint(0, n - 1)
    return doc, n


def main():
    sample = os.path.join(SAMPLES, "traces", "pipelined_timeline_sample.json")
    bd = os.path.join(SAMPLES, "traces", "candidate_breakdown_sample.json")
    compare("the bundled sample", sample)
    compare("the bundled sample with its breakdown", sample, None, bd)
    for start in (0, 1, 4):
        compare(f"the bundled sample from candidate {start}", sample, start)
    rng = random.Random(15)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(300):
            doc, n = generate(rng)
            path = os.path.join(tmp, f"gen{i}.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            start = rng.choice([None, 0, rng.randint(0, n - 1)])
            compare(f"generated file {i} (seed 15), start {start}", path, start)
    print(f"1..{len(results)}")
    for i, (ok, what) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
