#!/usr/bin/env python3
"""test-hostile.py: hostile inputs through every command, as a user (or an attacker) could
hand them over. Each input is generated here into a temporary folder: broken, deep,
enormous-in-effect, wrongly encoded or special files, traces, run folders, plot
configurations, model and hardware files. For every command that reads them:

  - the process ends by itself within TIMEOUT seconds (no hang) and is not killed by a
    signal (no crash, no abort), with status 0 (read) or 1 (refused);
  - --json output, when the command succeeds, is strict JSON (no NaN, no "1e-10.0");
  - a refusal is written to stderr and names the file it is about;
  - nothing a sanitizer or GLib would shout about appears on stderr;
  - a figure either appears whole or not at all, and no temporary file is left.

Run by meson with IV_BINARY set (in CI also on the ASan/UBSan build); prints TAP.
"""
import gzip
import json
import os
import shutil
import socket
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile"))
import hostile  # noqa: E402  (the shared harness: Tap, running with a time limit, checks)
from hostile import Tap, hidden_files, no_nan  # noqa: E402

SAMPLES = os.environ["IV_SAMPLES_DIR"]

DEEP = "[" * 100000
DEEP_OBJ = '{"a":' * 50000
BOM = b"\xef\xbb\xbf"


def chrome(events):
    return json.dumps({"traceEvents": events})


# ---------------------------------------------------------------- inputs

def trace_inputs(d):
    """name → bytes of files offered as traces."""
    x = {"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 1, "dur": 2}
    ok = chrome([x]).encode()
    t = {
        "empty.json": b"",
        "spaces.json": b" " * 100000,
        "null.json": b"null",
        "array-empty.json": b"[]",
        "object-empty.json": b"{}",
        "numbers.json": b"[1, 2, 3]",
        "strings.json": b'["a", "b"]',
        "deep-array.json": DEEP.encode(),
        "deep-events.json": ('{"traceEvents": ' + DEEP).encode(),
        "deep-args.json": ('[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": '
                           + DEEP_OBJ + "1" + "}" * 50000 + "}]").encode(),
        # no flows: --stats reads the launch's and the kernel's arguments back for
        # args.correlation (json-glib recurses: the depth is checked first)
        "deep-args-launch.json": ('[{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, '
                                  '"tid": 1, "ts": 1, "dur": 2, "args": {"correlation": 1}}, {"ph": "X", '
                                  '"cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 5, "dur": 3, '
                                  '"args": {"correlation": 1, "x": ' + DEEP_OBJ + "1" + "}" * 50000
                                  + "}}]").encode(),
        "bom.json": BOM + ok,
        "utf16.json": chrome([x]).encode("utf-16"),
        "utf16le-nobom.json": chrome([x]).encode("utf-16-le"),
        "utf32.json": chrome([x]).encode("utf-32"),
        "latin1-names.json": b'[{"ph": "X", "name": "caf\xe9 \xff\xfe", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]',
        "nul-bytes.json": b'[{"ph": "X", "name": "a\x00b", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]\x00\x00',
        "truncated.json": ok[: len(ok) // 2],
        "trailing-garbage.json": ok + b" }}}]]] garbage",
        "trailing-comma.json": b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},',
        "extreme-numbers.json": json.dumps([
            {"ph": "X", "name": "max", "pid": 1, "tid": 1, "ts": 9223372036854775.807, "dur": 9223372036854775.807},
            {"ph": "X", "name": "edge", "pid": 1, "tid": 1, "ts": 4611686018427387.903, "dur": 1e30},
            {"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": -4611686018427387.9, "dur": 5},
            {"ph": "X", "name": "tiny", "pid": 1, "tid": 1, "ts": 1e-320, "dur": -1e308},
            {"ph": "B", "name": "b", "pid": 1, "tid": 2, "ts": -4611686018427387},
            {"ph": "E", "pid": 1, "tid": 2, "ts": 4611686018427387},
            {"ph": "i", "name": "i", "pid": 99999999999999999999, "tid": -1, "ts": 2, "s": "g"},
        ]).replace("1e+30", "1e30").encode(),
        "inf-counters.json": b'[{"ph": "C", "name": "c", "pid": 1, "ts": 3, "args": {"v": 1e999, "w": -1e999}},'
                             b' {"ph": "C", "name": "c", "pid": 1, "ts": 1, "args": {"v": 5e-324}}]',
        "string-counters.json": chrome([{"ph": "C", "name": "c", "pid": 1, "ts": 1, "args": {"v": "12"}}]).encode(),
        "counters-backwards.json": chrome([{"ph": "C", "name": "c", "pid": 1, "ts": 20000 - i, "args": {"v": i}}
                                           for i in range(20000)]).encode(),
        "many-counter-tracks.json": chrome([{"ph": "C", "name": "c%d" % i, "pid": 1, "ts": i, "args": {"v": i}}
                                            for i in range(20000)]).encode(),
        "many-names.json": chrome([{"ph": "X", "name": "n%d" % i, "pid": 1, "tid": i % 4, "ts": i, "dur": 1}
                                   for i in range(50000)]).encode(),
        "many-threads.json": chrome([{"ph": "X", "name": "n", "pid": i % 50, "tid": i, "ts": i, "dur": 1}
                                     for i in range(20000)]).encode(),
        "long-strings.json": chrome([{"ph": "X", "name": "n" * 200000, "cat": "c" * 100000, "pid": "p" * 5000,
                                      "tid": "t" * 5000, "ts": 1, "dur": 1}]).encode(),
        "mismatched-be.json": chrome([{"ph": "E", "pid": 1, "tid": 1, "ts": 1}] * 100 +
                                     [{"ph": "B", "name": "b", "pid": 1, "tid": 1, "ts": 2}] * 100).encode(),
        "same-start-nesting.json": chrome([{"ph": "X", "name": "n%d" % i, "pid": 1, "tid": 1, "ts": 0, "dur": 5000 - i}
                                           for i in range(5000)]).encode(),
        "overlaps.json": chrome([{"ph": "X", "name": "o", "pid": 1, "tid": 1, "ts": i, "dur": 3}
                                 for i in range(20000)]).encode(),
        "flows-dangling.json": chrome([{"ph": "s", "id": i, "name": "f", "pid": 1, "tid": 1, "ts": i} for i in range(1000)] +
                                      [{"ph": "f", "id": 18446744073709551615, "name": "f", "pid": 1, "tid": 1, "ts": 2, "bp": "e"}]).encode(),
        "async-unclosed.json": chrome([{"ph": "b", "id": i, "cat": "c", "name": "a", "pid": 1, "ts": i}
                                       for i in range(2000)]).encode(),
        "wrong-types.json": chrome([{"ph": 7, "name": [], "pid": {}, "tid": None, "ts": "12", "dur": True,
                                     "args": 5, "id": [1], "s": 3, "bp": {}},
                                    {"ph": "X", "name": {"a": 1}, "pid": [1], "tid": 1.5, "ts": [], "dur": {}}]).encode(),
        "metadata-only.json": chrome([{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": [1]}},
                                      {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 1,
                                       "args": {"sort_index": 1e999}}]).encode(),
        "png-renamed.json": b"\x89PNG\r\n\x1a\n" + os.urandom(2000),
        "random-bytes.json": os.urandom(50000),
        "one-long-line.json": b'["' + b"x" * 5000000 + b'"]',
        "kineto-shaped.json": json.dumps({"schemaVersion": 1, "deviceProperties": [{"id": "x"}],
                                          "traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclKernel", "pid": 0,
                                                           "tid": "stream 7", "ts": i, "dur": 1} for i in range(100)],
                                          "displayTimeUnit": "ns"}).encode(),
        # pipelined timelines and breakdowns
        "pipelined-deep.json": ('{"format": "pipelined_timeline_v2", "events": ' + DEEP).encode(),
        "pipelined-extreme.json": BOM + json.dumps({"format": "pipelined_timeline_v2", "events": [
            {"lane": "gpu", "name": "g", "start_ms": 1e308, "dur_ms": 1e308, "candidate": 9223372036854775807, "buffer": 1},
            {"lane": "io", "name": "r", "start_ms": -999999999999, "dur_ms": 999999999999, "candidate": -9223372036854775807},
            {"lane": "main", "name": "m", "start_ms": 5e-324, "dur_ms": 0, "candidate": 3}]}).encode(),
        "pipelined-bad-lane.json": json.dumps({"format": "pipelined_timeline_v1", "events": [
            {"lane": "disk", "name": "x", "start_ms": 1, "dur_ms": 1}]}).encode(),
        "pipelined-not-array.json": b'{"format": "pipelined_timeline_v2", "events": {"a": 1}}',
        "pipelined-wrong-types.json": json.dumps({"format": "pipelined_timeline_v2", "start_candidate": "x",
                                                  "num_candidates": -5, "events": [
            {"lane": ["gpu"], "name": 5, "start_ms": "1", "dur_ms": None},
            7, None, {"lane": "gpu", "name": "g", "start_ms": 1, "dur_ms": 1, "buffer": 9}]}).encode(),
        "pipelined-many-candidates.json": json.dumps({"format": "pipelined_timeline_v2", "events": [
            {"lane": "io" if i % 2 else "gpu", "name": "x", "start_ms": i, "dur_ms": 0.5, "candidate": i}
            for i in range(50000)]}).encode(),
        "breakdown-weird.json": json.dumps({"format": "candidate_breakdown_v1", "candidate": "x",
                                            "gpu_ms": {"a": -1, "b": "x", "c": 1e308}}).encode(),
    }
    # compressed
    t["truncated.json.gz"] = gzip.compress(ok * 1000)[:500]
    damaged = bytearray(gzip.compress(ok * 1000))
    for i in range(40, 80):
        damaged[i] ^= 0x5A
    t["damaged.json.gz"] = bytes(damaged)
    t["concatenated.json.gz"] = gzip.compress(b'[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}') + \
        gzip.compress(b', {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 3, "dur": 2}]')
    t["zstd-damaged.json"] = b"\x28\xb5\x2f\xfd" + os.urandom(3000)
    t["gz-spaces.json.gz"] = gzip_stream(b"", b" ", 200 << 20, b"")
    # the real thing: over a gigabyte of text from a 1 MB file, refused past the first GiB
    t["bomb.json.gz"] = gzip_stream(b'{"traceEvents": [', b" ", 1100 << 20, b"]}")
    return t


def gzip_stream(head, fill, size, tail):
    """gzip of head + fill × size + tail, without holding the text."""
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = fill * (1 << 20)
    parts = [z.compress(head)]
    for _ in range(size >> 20):
        parts.append(z.compress(chunk))
    parts.append(z.compress(tail))
    parts.append(z.flush())
    return b"".join(parts)


def write_files(d, files):
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


RECORD = {"metadata": {"request_start_ns": 1000, "request_end_ns": 5000, "benchmark_phase": "profiling",
                       "worker_id": "w"},
          "metrics": {"request_latency": {"value": 4.0, "unit": "ms"},
                      "time_to_first_token": {"value": 1.0, "unit": "ms"}}}
SUMMARY = {"request_latency": {"unit": "ms", "avg": 4.0, "p99": 4.0},
           "input_config": {"endpoint": {"model_names": ["m"], "type": "chat", "streaming": True},
                            "loadgen": {"concurrency": 1}}}


def run_inputs(d):
    """Run folders: name → {file: bytes or None (FIFO) or ('link', target)}."""
    rec = (json.dumps(RECORD) + "\n").encode()
    summ = json.dumps(SUMMARY).encode()
    runs = {
        "run-empty-files": {"profile_export.jsonl": b"", "profile_export_aiperf.json": b""},
        "run-fifo-records": {"profile_export.jsonl": None},
        "run-fifo-summary": {"profile_export_aiperf.json": None, "profile_export.jsonl": rec},
        "run-devzero-summary": {"profile_export_aiperf.json": ("link", "/dev/zero")},
        "run-devnull-records": {"profile_export.jsonl": ("link", "/dev/null")},
        "run-dir-as-file": {"profile_export.jsonl/": b""},
        "run-summary-deep": {"profile_export_aiperf.json": DEEP.encode()},
        "run-summary-bom": {"profile_export_aiperf.json": BOM + summ, "profile_export.jsonl": BOM + rec},
        "run-summary-utf16": {"profile_export_aiperf.json": json.dumps(SUMMARY).encode("utf-16")},
        "run-summary-types": {"profile_export_aiperf.json": json.dumps({
            "request_latency": {"unit": 5, "avg": "x"}, "ttft": [], "input_config": {
                "endpoint": {"model_names": [], "urls": [{}], "streaming": "yes", "type": 7},
                "loadgen": {"concurrency": "many"}, "phases": [7, {"name": 1}],
                "models": {"items": [5]}}}).encode()},
        "run-summary-extreme": {"profile_export_aiperf.json": json.dumps({
            "request_latency": {"unit": "ms", "avg": 1e308, "min": -1e308, "p99": 5e-324, "count": 1e300},
            "benchmark_duration": {"unit": "sec", "avg": 1e308}}).encode()},
        "run-records-garbage": {"profile_export.jsonl": rec + b"not json\n{\n" + rec + b"[1,2]\n\x00\xff\n" + rec},
        "run-records-extreme": {"profile_export.jsonl": json.dumps({
            "metadata": {"request_start_ns": 9223372036854775807, "request_end_ns": -9223372036854775808,
                         "benchmark_phase": "profiling"},
            "metrics": {"request_latency": {"value": 1e308, "unit": "ms"},
                        "inter_chunk_latency": {"value": [1e308, -0.0, 5e-324], "unit": "ms"}}}).encode()
                                 + b"\n" + b'{"metadata": {"request_start_ns": 1e999}, "metrics": {"x": {"value": 1e999}}}\n'},
        "run-records-deep": {"profile_export.jsonl": rec + DEEP.encode() + b"\n" + rec},
        "run-records-types": {"profile_export.jsonl": b'{"metadata": [], "metrics": 5}\n{"metadata": {"request_start_ns": "1"}, "metrics": {"a": {"value": {"b": 1}}}}\n'},
        "run-records-truncated-gz": {"profile_export.jsonl.gz": gzip.compress(rec * 1000)[:700]},
        "run-records-many": {"profile_export.jsonl": rec * 50000},
        "run-telemetry-garbage": {"profile_export.jsonl": rec,
                                  "gpu_telemetry_export.jsonl": b'{"timestamp_ns": "x", "gpu_uuid": 5}\n[]\n' + DEEP.encode()},
        "run-timeslices-types": {"profile_export_aiperf.json": summ,
                                 "profile_export_aiperf_timeslices.json": b'{"timeslices": [{"is_complete": 1, "ttft": {"unit": []}}, [], 7]}'},
        "run-aggregate-deep": {"aggregate/profile_export_aiperf_aggregate.json": DEEP.encode(),
                               "profile_runs/run_0001/profile_export_aiperf.json": summ},
        "run-aggregate-types": {"aggregate/profile_export_aiperf_aggregate.json":
                                b'{"metrics": {"a": 5, "b": {"mean": "x", "ci_low": []}}, "trials": 1e999}',
                                "profile_runs/run_0001/profile_export_aiperf.json": b"[]"},
        "run-plain-text": {"profile_export_aiperf.json": b"hello, this is not json"},
    }
    return runs


def make_runs(d, runs):
    for name, files in runs.items():
        root = os.path.join(d, name)
        os.makedirs(root, exist_ok=True)
        for rel, data in files.items():
            path = os.path.join(root, rel)
            if rel.endswith("/"):
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if data is None:
                os.mkfifo(path)
            elif isinstance(data, tuple):
                os.symlink(data[1], path)
            else:
                with open(path, "wb") as f:
                    f.write(data)
    # a sweep whose links make discovery loop or multiply
    sweep = os.path.join(d, "run-sweep-links")
    for i in range(3):
        os.makedirs(os.path.join(sweep, "c%d" % i), exist_ok=True)
        with open(os.path.join(sweep, "c%d" % i, "profile_export.jsonl"), "wb") as f:
            f.write(rec_line())
    for i in range(6):
        os.symlink(".", os.path.join(sweep, "self%d" % i))
    os.symlink("..", os.path.join(sweep, "c0", "up"))
    os.symlink("/", os.path.join(sweep, "c1", "root"))
    # a folder of 30,000 entries with one run deep inside
    wide = os.path.join(d, "run-wide-folder")
    os.makedirs(os.path.join(wide, "a", "b", "run"))
    with open(os.path.join(wide, "a", "b", "run", "profile_export.jsonl"), "wb") as f:
        f.write(rec_line())
    for i in range(30000):
        open(os.path.join(wide, "f%05d.txt" % i), "wb").close()
    return list(runs) + ["run-sweep-links", "run-wide-folder"]


def rec_line():
    return (json.dumps(RECORD) + "\n").encode()


def config_inputs():
    block = "visualization:\n" + "".join("%sk%d:\n" % (" " * (2 * i + 2), i) for i in range(200))
    return {
        "config-deep-flow.yaml": b"[" * 100000,
        "config-deep-block.yaml": block.encode(),
        "config-aliases.yaml": b"visualization:\n  single_run_defaults: [a, *x]\n  single_run_plots:\n"
                               b"    a: &x {type: histogram, y: {metric: [1], stat: {}}, ci_level: 5}\n    b: [*x, *x]\n",
        "config-laughs.yaml": ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n" % ((chr(98 + i),) * 2 + (chr(97 + i),) * 10)
            for i in range(8)) + "visualization:\n  single_run_defaults: *i\n").encode(),
        "config-utf16.yaml": "visualization:\n  single_run_defaults: [a]\n".encode("utf-16"),
        "config-bom.yaml": BOM + b"visualization:\n  single_run_defaults: [ttft_over_time]\n",
        "config-binary.yaml": os.urandom(5000),
        "config-empty.yaml": b"",
        "config-scalar.yaml": b"42",
        "config-not-mapping.yaml": b"visualization: [1, 2]\n",
        "config-types.yaml": b"visualization:\n  single_run_defaults: {a: 1}\n  single_run_plots: [1]\n"
                             b"  multi_run_plots:\n    p: {type: [x], x: [1], y: {metric: {}}, labels: {a: b}}\n",
        "config-tabs.yaml": b"visualization:\n\tsingle_run_defaults: [a]\n",
    }


LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}
HW = {"topology": "ring", "cubes": [4, 1], "pes_per_cube": 8, "pe_flops": 1e14, "pe_vector_flops": 1e13,
      "pe_mem_bw": 1e12, "pe_mem_capacity": 1e10, "pe_link_bw": 1e11, "pe_link_latency": 1e-9,
      "cube_link_bw": 1e11, "cube_link_latency": 1e-8}


def variant(base, **changes):
    v = dict(base)
    v.update(changes)
    return json.dumps(v).encode()


def model_inputs():
    return {
        "hf-deep.json": DEEP.encode(),
        "hf-kv0.json": variant(LLAMA, num_key_value_heads=0),
        "hf-kv-not-dividing.json": variant(LLAMA, num_key_value_heads=7),
        "hf-headdim0.json": variant(LLAMA, head_dim=0),
        "hf-huge.json": variant(LLAMA, hidden_size=4611686018427387904, vocab_size=4611686018427387904),
        "hf-layers-huge.json": variant(LLAMA, num_hidden_layers=4611686018427387904),
        "hf-experts.json": variant(LLAMA, model_type="mixtral", num_local_experts=8, num_experts_per_tok=9),
        "hf-experts-zero.json": variant(LLAMA, model_type="mixtral", num_local_experts=0, num_experts_per_tok=0),
        "hf-strings.json": variant(LLAMA, hidden_size="4096", num_attention_heads=[32]),
        "hf-floats.json": variant(LLAMA, hidden_size=4096.5, intermediate_size=1e999),
        "hf-negative.json": variant(LLAMA, num_hidden_layers=-3),
        "hf-unsupported.json": b'{"model_type": "gpt2", "n_embd": 768}',
        "hf-type-wrong.json": b'{"model_type": ["llama"]}',
        "hf-deepseek-broken.json": variant(LLAMA, model_type="deepseek_v3", kv_lora_rank=0, n_routed_experts=4,
                                           num_experts_per_tok=8, moe_intermediate_size=0, qk_nope_head_dim=0,
                                           qk_rope_head_dim=0, v_head_dim=0, first_k_dense_replace=99),
        "hf-bom.json": BOM + json.dumps(LLAMA).encode(),
        "hf-utf16.json": json.dumps(LLAMA).encode("utf-16"),
        "hf-empty.json": b"",
        "hf-array.json": b"[1]",
        "hw-deep.json": DEEP.encode(),
        "hw-extreme.json": variant(HW, topology="torus2d", cubes=[4096, 4096], pes_per_cube=65536,
                                   pe_flops=1e308, pe_vector_flops=5e-324, pe_mem_capacity=1e308),
        "hw-cubes-huge.json": variant(HW, cubes=[10000000000, 1]),
        "hw-cubes-types.json": variant(HW, cubes=["4", None]),
        "hw-pes-huge.json": variant(HW, pes_per_cube=4611686018427387904),
        "hw-negative.json": variant(HW, pe_flops=-1, pe_link_latency=-1e-9),
        "hw-zero.json": variant(HW, pe_mem_bw=0),
        "hw-nan-ish.json": variant(HW, pe_flops=1e999),
        "hw-tiny-latency.json": variant(HW, pe_link_latency=1e-10, cube_link_latency=3e-11),
        "hw-names.json": variant(HW, name=[1], description={"a": 1}, bidirectional="yes"),
        "hw-utf16.json": json.dumps(HW).encode("utf-16"),
        "hw-eta.json": variant(HW, eta_compute=0, eta_memory=2),
    }


# ---------------------------------------------------------------- running

def run_case(tap, args, about, json_out=False, out_dir=None, expect=(0, 1)):
    """Runs `inferview ARGS`; @about is the input the messages must name."""
    p = hostile.run(args)
    problems = hostile.common_problems(p, about, expect)
    if p is not None and json_out and p.returncode == 0:
        try:
            json.loads(p.stdout.decode("utf-8"), parse_constant=no_nan)
        except (ValueError, UnicodeDecodeError) as e:
            problems.append("invalid JSON on stdout: %s" % e)
    if out_dir and os.path.isdir(out_dir):
        left = hidden_files(out_dir)
        if left:
            problems.append("temporary files left: %s" % left[:3])
    tap.check(not problems, hostile.describe(args), "\n".join(problems) + "\n--- stderr:\n" + hostile.stderr_of(p))


def main():
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-")
    try:
        inputs = os.path.join(tmp, "in")
        out = os.path.join(tmp, "out")
        os.makedirs(inputs)
        os.makedirs(out)

        traces = trace_inputs(inputs)
        write_files(inputs, traces)
        # special files offered as traces
        specials = {}
        fifo = os.path.join(inputs, "fifo.json")
        os.mkfifo(fifo)
        specials["fifo.json"] = fifo
        sock_path = os.path.join(inputs, "socket.json")
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(sock_path)
        specials["socket.json"] = sock_path
        os.symlink("loop-b.json", os.path.join(inputs, "loop-a.json"))
        os.symlink("loop-a.json", os.path.join(inputs, "loop-b.json"))
        specials["loop-a.json"] = os.path.join(inputs, "loop-a.json")
        specials["zero"] = "/dev/zero"
        specials["null"] = "/dev/null"
        specials["urandom"] = "/dev/urandom"
        specials["missing.json"] = os.path.join(inputs, "missing.json")
        os.makedirs(os.path.join(inputs, "folder.json"))
        specials["folder.json"] = os.path.join(inputs, "folder.json")

        for name in list(traces) + list(specials):
            path = specials.get(name) or os.path.join(inputs, name)
            run_case(tap, ["trace", path, "--stats", "--json"], path, json_out=True)
            fig = os.path.join(out, name.replace("/", "_") + ".png")
            run_case(tap, ["trace", path, "-o", fig], path, out_dir=out)
            run_case(tap, ["identify", "--json", path], path, json_out=True)
        for name in ("pipelined-extreme.json", "pipelined-many-candidates.json"):
            path = os.path.join(inputs, name)
            run_case(tap, ["trace", path, "-o", os.path.join(out, name + ".pdf"), "--start-candidate", "2147483647",
                           "--breakdown", os.path.join(inputs, "breakdown-weird.json")], path, out_dir=out)

        # run folders
        for name in make_runs(inputs, run_inputs(inputs)):
            path = os.path.join(inputs, name)
            run_case(tap, ["runs", path, "--json"], path, json_out=True)
            run_case(tap, ["identify", "--json", path], path, json_out=True)
            run_case(tap, ["plot", path, "-o", os.path.join(out, "plots-" + name)], path,
                     out_dir=os.path.join(out, "plots-" + name))
        for name in ("zero", "fifo.json"):
            path = specials[name]
            run_case(tap, ["runs", path, "--json"], path, json_out=True)

        # plot configurations
        run = os.path.join(SAMPLES, "aiperf", "qwen_concurrency1")
        configs = config_inputs()
        write_files(inputs, configs)
        for name in list(configs) + ["fifo.json", "zero", "folder.json"]:
            path = specials.get(name) or os.path.join(inputs, name)
            run_case(tap, ["plot", run, "--config", path, "-o", os.path.join(out, "cfg-" + name)], path,
                     out_dir=os.path.join(out, "cfg-" + name))

        # model and hardware files
        models = model_inputs()
        write_files(inputs, models)
        for name in list(models) + ["fifo.json", "zero", "folder.json", "urandom"]:
            path = specials.get(name) or os.path.join(inputs, name)
            if not name.startswith("hw-"):
                run_case(tap, ["model", "--hf-config", path, "--format", "json"], path, json_out=True)
            if not name.startswith("hf-"):
                run_case(tap, ["model", "--preset", "Llama-3.1-8B", "--hardware", path, "--format", "json"], path,
                         json_out=True)
        # extreme knobs on the command line: refused or answered, valid JSON either way
        for knobs in (["--tp", "1e15"], ["--batch", "1e15", "--tq", "1e15", "--context", "1e15"],
                      ["--cp", "16777217"], ["--pe-link-latency", "1e-300"], ["--tp", "3", "--mode", "decode",
                                                                             "--context", "100000"]):
            run_case(tap, ["model", "--preset", "Qwen2-0.5B", "--format", "json"] + knobs, None, json_out=True,
                     expect=(0, 1, 2))
        sock.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % tap.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
