#!/usr/bin/env python3
"""Issue 32: `inferview trace PATH... --stats --json` on a distributed job (a trace per
rank), every per-rank number against an independent computation written here:

- on HolisticTraceAnalysis' two-rank set (tests/data/ranks/hta-trace-filter, origin in
  tests/data/ATTRIBUTION.md): a Python json parse of the same files (µs → ns by Decimal)
  computing HTA's definitions with HTA's own regular expressions
  (hta/common/types.py; hta/analyzers/breakdown_analysis.py get_temporal_breakdown and
  _get_gpu_kernel_type_time; hta/analyzers/communication_analysis.py
  get_comm_comp_overlap): temporal breakdown, time per kernel-type combination,
  communication under computation, and per collective instance the last rank and the
  waits;
- on jobs written by tests/gen-rank-traces.py, whose waits and clock offsets are known
  by construction: the last rank and every wait of every instance, the offsets the
  alignment applies (skewed clocks), wall clock through epoch timestamps and through
  baseTimeNanoseconds, ranks from file names, ranks from distributedInfo alone under
  names that say none (and `identify` of that folder), and the refusals (two files of one rank, a
  file with no rank).

Prints TAP."""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("IV_TEST_DATA", os.path.join(HERE, "data"))
GEN = os.path.join(HERE, "gen-rank-traces.py")
WORK = {"kernel", "gpu_memcpy", "gpu_memset"}

# hta/common/types.py, verbatim
COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
MEMORY = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
NOT_COMPUTE = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)"
    r"|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)"
    r"|(^collective_subgraph_execution)")


def kernel_type(name):  # hta/utils/utils.py get_kernel_type
    if COMM.match(name):
        return "COMMUNICATION"
    if MEMORY.match(name):
        return "MEMORY"
    if not NOT_COMPUTE.match(name):
        return "COMPUTATION"
    return "OTHER"


def ns(v):
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def merge(iv):  # hta/utils/utils.py merge_kernel_intervals (touching intervals merge)
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def total(m):
    return sum(b - a for a, b in m)


def kernels_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.loads(f.read(), parse_float=Decimal)
    out = []
    for e in doc["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") in WORK:
            a = ns(e["ts"])
            out.append((a, a + ns(e["dur"]), e["name"], (e.get("args") or {}).get("Process Group Name", "")))
    return doc, out


def hta_rank(kernels):
    """HTA's numbers for one rank, from its kernels (start, end, name)."""
    allm = merge([(a, b) for a, b, _, _ in kernels])
    kt = allm[-1][1] - allm[0][0] if allm else 0
    idle = kt - total(allm)
    per = {t: merge([(a, b) for a, b, n, _ in kernels if kernel_type(n) == t])
           for t in ("COMPUTATION", "COMMUNICATION", "MEMORY")}
    comp = total(per["COMPUTATION"])
    # the sweep of _get_gpu_kernel_type_time with bit values 1, 2, 4 in that order
    edges = []
    for bit, t in enumerate(("COMPUTATION", "COMMUNICATION", "MEMORY")):
        for a, b in per[t]:
            edges += [(a, 1 << bit), (b, -(1 << bit))]
    edges.sort(key=lambda e: e[0])
    masks = {}
    running, last = 0, None
    for t, d in edges:
        if last is not None and running > 0:
            masks[running] = masks.get(running, 0) + t - last
        running += d
        last = t
    # get_comm_comp_overlap: running == 3 over the comm (1) and comp (2) sweep
    e2 = sorted([(a, 1) for a, b in per["COMMUNICATION"]] + [(b, -1) for a, b in per["COMMUNICATION"]]
                + [(a, 2) for a, b in per["COMPUTATION"]] + [(b, -2) for a, b in per["COMPUTATION"]],
                key=lambda e: e[0])
    overlap, running, last = 0, 0, None
    for t, d in e2:
        if last is not None and running == 3:
            overlap += t - last
        running += d
        last = t
    return {"kernel_time_ns": kt, "idle_ns": idle, "compute_ns": comp, "non_compute_ns": kt - comp - idle,
            "masks": masks, "comm_ns": total(per["COMMUNICATION"]), "overlapped_ns": overlap}


def label(mask):
    return " overlapping ".join(t for bit, t in enumerate(("COMPUTATION", "COMMUNICATION", "MEMORY"))
                                if mask & (1 << bit))


def run(args):
    p = subprocess.run([BINARY, "trace"] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def stats(paths, *extra):
    rc, out, err = run(list(paths) + ["--stats", "--json"] + list(extra))
    if rc != 0:
        check(False, "trace %s --stats --json exits 0" % " ".join(paths), err.strip())
        return None
    return json.loads(out)


def compare_ranks(doc, files, offsets, where):
    """Every per-rank HTA number of @doc against the parse of @files (by rank)."""
    instances = {}
    for r, path in enumerate(files):
        _, ks = kernels_of(path)
        want = hta_rank(ks)
        got = doc["ranks"][r]
        for k in ("kernel_time_ns", "idle_ns", "compute_ns", "non_compute_ns"):
            check(got["temporal"][k] == want[k], "%s rank %d temporal %s" % (where, r, k),
                  "got %s want %s" % (got["temporal"][k], want[k]))
        for pk in ("idle", "compute", "non_compute"):
            wp = 100.0 * want[pk + "_ns"] / want["kernel_time_ns"] if want["kernel_time_ns"] else 0
            check(abs(got["temporal"][pk + "_pct"] - wp) < 1e-9, "%s rank %d %s_pct" % (where, r, pk))
        for m in range(1, 8):
            check(got["kernel_types"][label(m)] == want["masks"].get(m, 0),
                  "%s rank %d kernel type %s" % (where, r, label(m)),
                  "got %s want %s" % (got["kernel_types"][label(m)], want["masks"].get(m, 0)))
        cc = got["comm_comp_overlap"]
        check(cc["communication_ns"] == want["comm_ns"] and cc["overlapped_ns"] == want["overlapped_ns"],
              "%s rank %d communication under computation" % (where, r),
              "got %s/%s want %s/%s" % (cc["overlapped_ns"], cc["communication_ns"], want["overlapped_ns"],
                                       want["comm_ns"]))
        # the collective instances: the n-th of each (process group, name) by start
        seen = {}
        for a, b, n, pg in sorted(k for k in ks if kernel_type(k[2]) == "COMMUNICATION"):
            key = (pg, n)
            o = seen.get(key, 0)
            seen[key] = o + 1
            instances.setdefault((pg, n, o), {})[r] = (a + offsets[r], b + offsets[r])
    return instances


def compare_stragglers(doc, instances, where):
    n = len(doc["ranks"])
    caused, waited, lastc = [0] * n, [0] * n, [0] * n
    by_key = {(c["process_group"], c["name"], c["instance"]): c for c in doc["collectives"]}
    check(len(by_key) == len(instances), "%s: %d collective instances" % (where, len(instances)),
          "got %d" % len(by_key))
    bad = 0
    for key, per in instances.items():
        c = by_key.get(key)
        if c is None:
            bad += 1
            continue
        if len(per) < 2:
            continue
        latest = max(per[r][0] for r in per)
        last = min(r for r in per if per[r][0] == latest)
        lastc[last] += 1
        for r in range(n):
            if r not in per:
                bad += c["wait_ns"][r] is not None
                continue
            w = min(max(latest - per[r][0], 0), per[r][1] - per[r][0])
            waited[r] += w
            if r != last:
                caused[last] += w
            bad += c["wait_ns"][r] != w
        bad += c["last_rank"] != doc["ranks"][last]["rank"]
    check(bad == 0, "%s: every instance's last rank and waits" % where, "%d differ" % bad)
    for r in range(n):
        s = doc["ranks"][r]["straggler"]
        check((s["arrived_last"], s["caused_wait_ns"], s["waited_ns"]) == (lastc[r], caused[r], waited[r]),
              "%s rank %d: arrived last, wait caused, wait" % (where, r),
              "got %s want %s" % ((s["arrived_last"], s["caused_wait_ns"], s["waited_ns"]),
                                  (lastc[r], caused[r], waited[r])))


def hta_set():
    d = os.path.join(DATA, "ranks", "hta-trace-filter")
    files = [os.path.join(d, "sampled_rank-%d.json.gz" % r) for r in (0, 1)]
    doc = stats([d])
    if not doc:
        return
    check(doc["rank_count"] == 2 and doc["world_size"] == 128 and doc["backend"] == "nccl",
          "HTA set: 2 of 128 ranks, nccl", "%s %s %s" % (doc["rank_count"], doc["world_size"], doc["backend"]))
    check(doc["clock"] == "wall" and [r["rank_from"] for r in doc["ranks"]] == ["distributedInfo"] * 2,
          "HTA set: wall clock (epoch µs), ranks from distributedInfo")
    inst = compare_ranks(doc, files, [0, 0], "HTA set")
    compare_stragglers(doc, inst, "HTA set")
    # the same two files named one by one, and in the other order, are the same job
    doc2 = stats(files[::-1])
    check(doc2 is not None and doc2["ranks"] == doc["ranks"], "HTA set: files in any order, one job")


def generated(tmp, name, gen_args, trace_args, where):
    out = os.path.join(tmp, name)
    subprocess.run([sys.executable, GEN, out] + gen_args, check=True)
    with open(os.path.join(out, "expected.json.txt")) as f:
        exp = json.load(f)
    doc = stats([out], *trace_args)
    return out, exp, doc


def check_expected(doc, exp, where):
    n = exp["ranks"]
    bad = 0
    for i, e in enumerate(exp["instances"]):
        c = [c for c in doc["collectives"] if c["instance"] == i]
        if len(c) != 1 or c[0]["last_rank"] != e["last_rank"] or c[0]["wait_ns"] != e["waits_ns"]:
            bad += 1
    check(bad == 0, "%s: last rank and waits of all %d instances as generated" % (where, len(exp["instances"])),
          "%d differ" % bad)
    for r in range(n):
        caused = sum(sum(e["waits_ns"]) for e in exp["instances"] if e["last_rank"] == r)
        waited = sum(e["waits_ns"][r] for e in exp["instances"])
        s = doc["ranks"][r]["straggler"]
        check(s["caused_wait_ns"] == caused and s["waited_ns"] == waited,
              "%s rank %d: wait caused %d ns, waited %d ns" % (where, r, caused, waited),
              "got %s, %s" % (s["caused_wait_ns"], s["waited_ns"]))


def main():
    hta_set()
    with tempfile.TemporaryDirectory() as tmp:
        # skewed clocks: only the alignment puts them on one axis
        out, exp, doc = generated(tmp, "skewed", ["--ranks", "6", "--steps", "9", "--clock", "skewed", "--seed", "3"],
                                  ["--align"], "skewed")
        if doc:
            check(doc["clock"] == "own" and doc["aligned"], "skewed: own clocks, aligned")
            offs = [r["clock"]["align_offset_ns"] for r in doc["ranks"]]
            check(offs == [-o for o in exp["offsets_ns"]], "skewed: the alignment applies −offset to each rank",
                  "got %s want %s" % (offs, [-o for o in exp["offsets_ns"]]))
            check(all(r["clock"]["align_matched"] == 9 for r in doc["ranks"][1:]), "skewed: 9 instances matched")
            check_expected(doc, exp, "skewed")
            files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".json"))
            inst = compare_ranks(doc, files, [-o for o in exp["offsets_ns"]], "skewed")
            compare_stragglers(doc, inst, "skewed")
        # the same without --align: no common clock, no stragglers claimed
        doc = stats([out])
        if doc:
            check(doc["clock"] == "own" and not doc["stragglers_measured"]
                  and all(c["last_rank"] is None for c in doc["collectives"])
                  and any("no clock" in w or "own clock" in w for w in doc["warnings"]),
                  "skewed without --align: no straggler claimed, said why")
        # wall clock: epoch µs
        out, exp, doc = generated(tmp, "wall", ["--ranks", "8", "--steps", "7", "--clock", "wall", "--gzip"], [],
                                  "wall")
        if doc:
            check(doc["clock"] == "wall" and not doc["aligned"]
                  and all(r["clock"]["offset_ns"] == 0 for r in doc["ranks"]), "wall: epoch timestamps, no offsets")
            check_expected(doc, exp, "wall")
        # baseTimeNanoseconds, a different one per rank: base + ts is the wall clock
        out, exp, doc = generated(tmp, "base", ["--ranks", "4", "--steps", "5", "--clock", "base"], [], "base")
        if doc:
            bases = []
            for r in range(4):
                with open(os.path.join(out, "rank-%d.pt.trace.json" % r)) as f:
                    bases.append(json.load(f)["baseTimeNanoseconds"])
            check([r["clock"]["wall_offset_ns"] for r in doc["ranks"]] == bases,
                  "base: each rank offset by its baseTimeNanoseconds")
            check_expected(doc, exp, "base")
        # ranks from file names alone
        for style, first in (("plain", "rank0.json"), ("suffix", "job_0.pt.trace.json")):
            out, exp, doc = generated(tmp, style, ["--ranks", "3", "--steps", "3", "--no-distributed-info",
                                                   "--name-style", style], [], style)
            if doc:
                check([r["rank"] for r in doc["ranks"]] == [0, 1, 2]
                      and all(r["rank_from"] == "file name" for r in doc["ranks"])
                      and doc["ranks"][0]["path"].endswith(first),
                      "%s names (%s…): ranks from the file names" % (style, first))
                check_expected(doc, exp, style)
        # ranks from distributedInfo alone, the names saying none (worker-d … worker-a)
        out, exp, doc = generated(tmp, "opaque", ["--ranks", "4", "--steps", "3", "--name-style", "opaque"], [],
                                  "opaque")
        if doc:
            check([r["rank"] for r in doc["ranks"]] == [0, 1, 2, 3]
                  and all(r["rank_from"] == "distributedInfo" for r in doc["ranks"])
                  and [os.path.basename(r["path"]) for r in doc["ranks"]] == exp["files"],
                  "opaque names: ranks from distributedInfo")
            check_expected(doc, exp, "opaque")
        p = subprocess.run([BINARY, "identify", out], capture_output=True, text=True)
        check(p.returncode == 0 and "4 ranks of a distributed trace" in p.stdout,
              "identify FOLDER of opaque names: 4 ranks of a distributed trace", p.stdout.strip() + p.stderr.strip())
        # two traces of rank 0 (two single-GPU runs) in one folder are no job
        solo = os.path.join(tmp, "solo")
        for k in range(2):
            subprocess.run([sys.executable, GEN, os.path.join(solo, str(k)), "--ranks", "1", "--steps", "2",
                            "--name-style", "opaque"], check=True)
            os.rename(os.path.join(solo, str(k), "worker-a.pt.trace.json"),
                      os.path.join(solo, "run-%s.pt.trace.json" % "ab"[k]))
        p = subprocess.run([BINARY, "identify", solo], capture_output=True, text=True)
        check("ranks of a distributed trace" not in p.stdout,
              "identify: two rank-0 traces are not one job", p.stdout.strip() + p.stderr.strip())
        # refusals: one named sentence, exit 1
        d = os.path.join(tmp, "wall")
        rc, _, err = run([os.path.join(d, "rank-0.pt.trace.json.gz"), os.path.join(d, "rank-0.pt.trace.json.gz"),
                          "--stats"])
        check(rc == 1 and "both are rank 0" in err, "the same rank twice is refused, named", err.strip())
        nor = os.path.join(tmp, "norank")
        os.makedirs(nor)
        subprocess.run([sys.executable, GEN, nor, "--ranks", "2", "--no-distributed-info"], check=True)
        os.rename(os.path.join(nor, "rank-1.pt.trace.json"), os.path.join(nor, "worker.json"))
        rc, _, err = run([nor, "--stats"])
        check(rc == 1 and "worker.json: no rank" in err, "a file with no rank is refused, named", err.strip())
        rc, out_text, err = run([os.path.join(tmp, "skewed"), "--stats", "--align"])
        check(rc == 0 and "6 ranks of a distributed trace" in out_text and "Aligned on collectives" in out_text,
              "text: the job, its per-rank table and the offsets", err.strip())
        # the figures: per-rank bars and, on one clock, the straggler heat map below them
        # (the default size: 1200 × 900 with the heat map, 1200 × 500 without)
        def png_size(path):
            with open(path, "rb") as f:
                head = f.read(24)
            ok = head[:8] == b"\x89PNG\r\n\x1a\n"
            return (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")) if ok else None
        png = os.path.join(tmp, "ranks.png")
        rc, _, err = run([os.path.join(tmp, "skewed"), "--align", "-o", png])
        check(rc == 0 and os.path.exists(png) and png_size(png) == (1200, 900),
              "trace DIR --align -o FIGURE: breakdown bars and straggler heat map", err.strip())
        png2 = os.path.join(tmp, "noalign.png")
        rc, _, err = run([os.path.join(tmp, "skewed"), "-o", png2])
        check(rc == 0 and os.path.exists(png2) and png_size(png2) == (1200, 500),
              "without a common clock the figure has no heat map", err.strip())
        # the folder sniffing the window and `runs` share: a job, not "no AIPerf run"
        p = subprocess.run([BINARY, "runs", os.path.join(tmp, "wall")], capture_output=True, text=True)
        check(p.returncode != 0 and "8 ranks of a distributed trace" in p.stderr and "no AIPerf run" not in p.stderr,
              "a folder of rank traces is named a distributed trace, not a folder without runs", p.stderr.strip())
        p = subprocess.run([BINARY, "identify", os.path.join(tmp, "wall")], capture_output=True, text=True)
        check(p.returncode == 0 and "8 ranks of a distributed trace" in p.stdout,
              "identify FOLDER: 8 ranks of a distributed trace", p.stdout.strip() + p.stderr.strip())
    return finish()


if __name__ == "__main__":
    sys.exit(main())
