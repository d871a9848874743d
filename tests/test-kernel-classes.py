#!/usr/bin/env python3
"""GPU kernels classified as the analytical model groups its stages (GEMM, attention,
collective, other): by hand on a small trace whose kernels overlap across streams, and on
the shared Kineto samples, where the classes must sum to the GPU busy time computed here
from the raw events (the union of every kernel, copy and set: not annotations, not
syncs). `--stats --json --against` prints one document. TAP."""
import gzip
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("IV_BINARY", "inferview")
SHARED = os.environ.get("IV_TEST_DATA", os.path.join(HERE, "data"))
# the GPU's work: kernels, copies, sets, and the CUPTI range profiler's kernel ranges; not
# stream syncs (waiting) nor user annotations (ranges drawn over kernels)
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "cuda_profiler_range",
            "mtia_ccp_events"}
results = []


def check(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), name,
                            "" if ok or not detail else " # " + str(detail).replace("\n", " ")))


def classes(path):
    r = subprocess.run([BIN, "trace", path, "--stats", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    return json.loads(r.stdout).get("gpu"), ""


def union_ns(events):
    iv = sorted((round(e["ts"] * 1000), round((e["ts"] + e.get("dur", 0)) * 1000)) for e in events)
    total, cur_a, cur_b = 0, None, None
    for a, b in iv:
        if b <= a:
            continue
        if cur_b is None or a > cur_b:
            if cur_b is not None:
                total += cur_b - cur_a
            cur_a, cur_b = a, b
        else:
            cur_b = max(cur_b, b)
    if cur_b is not None:
        total += cur_b - cur_a
    return total


def main():
    # by hand: stream 7 runs a GEMM [0, 100 µs) and a softmax [200, 230); stream 8 an
    # all-reduce [50, 150) and an elementwise kernel [220, 260). GEMM 100 µs; the
    # all-reduce's 50 µs beyond it; attention 30; "other" the 30 µs after the softmax.
    def k(name, ts, dur, stream):
        return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
                "args": {"device": 0, "stream": stream}}
    trace = {"traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}},
        {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
        {"ph": "M", "name": "thread_name", "pid": 0, "tid": 8, "args": {"name": "stream 8"}},
        k("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn", 0, 100, 7),
        k("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 50, 100, 8),
        k("void at::native::softmax_warp_forward<c10::BFloat16>", 200, 30, 7),
        k("void at::native::vectorized_elementwise_kernel<4>", 220, 40, 8),
    ]}
    tmp = tempfile.mkdtemp(prefix="iv-kc-")
    path = os.path.join(tmp, "hand.json")
    with open(path, "w") as f:
        json.dump(trace, f)
    g, err = classes(path)
    want = {"gemm": 100000, "attention": 30000, "collective": 50000, "other": 30000}
    got = {c: (g or {}).get("classes", {}).get(c, {}).get("ns") for c in want}
    check(got == want, "a hand-made trace: each class its share of the busy time", "%s %s" % (got, err))
    check(g and g.get("busy_ns") == 210000, "… which sums to the 210 µs the GPU was busy", g and g.get("busy_ns"))

    for name in sorted(os.listdir(os.path.join(SHARED, "traces"))):
        if not name.startswith("kineto_") or not name.endswith(".json.gz"):
            continue
        p = os.path.join(SHARED, "traces", name)
        with gzip.open(p, "rt") as f:
            raw = json.load(f)
        events = raw["traceEvents"] if isinstance(raw, dict) else raw
        gpu_events = [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and e.get("cat") in GPU_CATS
                      and isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur", 0), (int, float))]
        g, err = classes(p)
        if not gpu_events:
            check(g is None or not g.get("classes") or g.get("busy_ns", 0) == 0, name + ": no GPU slices, no classes",
                  err)
            continue
        busy = union_ns(gpu_events)
        total = sum(c["ns"] for c in g["classes"].values()) if g and "classes" in g else -1
        # µs timestamps become ns: a rounding of at most 1 ns an edge
        check(g is not None and abs(total - g["busy_ns"]) == 0 and abs(g["busy_ns"] - busy) <= 2 * len(gpu_events),
              "%s: the classes sum to the GPU busy time (%d ns; from the raw events %d ns)"
              % (name, g["busy_ns"] if g else -1, busy), err)
    # beside the model's step: its classes add up to the step `model` evaluates for the same
    # configuration (trace --against takes TP 1 unless told; `model` defaults to the window's TP)
    p = os.path.join(SHARED, "traces", "kineto_train_rank0_68k_events.json.gz")
    r = subprocess.run([BIN, "trace", p, "--stats", "--json", "--against", "Llama-3.1-8B", "--hardware", "h100x8",
                        "--mode", "prefill", "--tq", "2048", "--steps", "4"], capture_output=True, text=True)
    # one JSON document: the comparison is its "against" member
    try:
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
    except ValueError:
        doc = {}
    against = doc.get("against")
    m = subprocess.run([BIN, "model", "--preset", "Llama-3.1-8B", "--hardware", "h100x8", "--mode", "prefill", "--tq",
                        "2048", "--context", "0", "--tp", "1", "--format", "json"], capture_output=True, text=True)
    step = json.loads(m.stdout)["step_s"] if m.returncode == 0 else -1
    total = sum(c["model_s"] for c in against["classes"].values()) if against else -2
    check(against is not None and abs(total - step) <= 1e-12 * step,
          "--against: the model's classes sum to its step (%r s vs %r s)" % (total, step), r.stderr[-200:])
    # the text beside a class the model gives no time (collectives on one GPU): a dash,
    # never "nan"
    text = subprocess.run([BIN, "trace", p, "--stats", "--against", "Llama-3.1-8B", "--hardware", "h100x8",
                           "--mode", "prefill", "--tq", "2048"], capture_output=True, text=True)
    row = [ln for ln in text.stdout.splitlines() if ln.strip().startswith("collective")]
    check(text.returncode == 0 and "nan" not in text.stdout.lower() and row and row[-1].rstrip().endswith("—"),
          "--against as text: no nan; a class the model gives no time has a dash for its ratio", row)
    g, _ = classes(p)
    check(against is not None and abs(against["classes"]["gemm"]["measured_s_per_step"] * 4 * 1e9
                                      - g["classes"]["gemm"]["ns"]) < 1,
          "--steps divides the measured time per step")
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
