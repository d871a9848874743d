#!/usr/bin/env python3
"""Writes a synthetic AIPerf sweep over input length (ISL), output length (OSL) and
concurrency: one run folder per combination (profile_export_aiperf.json and a short
profile_export.jsonl), to AIPerf's own layout, for the ISL × OSL figures.

No public AIPerf sweep varies ISL and OSL, so this one is synthesised. The numbers come
from a plain model of one GPU serving an 8B-parameter model, not from a measurement:
  decode step (ms)  = 7 + 0.06·c + 2.4e-4 · c · (ISL + OSL/2)   (weights, then KV reads)
  prefill (ms)      = ISL / 11 tokens per ms, slowed by the decodes it shares the GPU with
  TTFT              = prefill · (1 + 0.5·(c − 1)·ISL/(ISL + OSL)) + one step
  latency           = TTFT + (OSL − 1) · step
  tokens/s/user     = 1000 / step; tokens/s = c · OSL / latency
Each request scatters by a few per cent (fixed seed). Say "synthetic" wherever used.

    gen-isl-osl-sweep.py OUT_DIR [--isl 128,1024,4096] [--osl 128,512,2048]
                         [--concurrency 1,4,16,64] [--requests 12] [--seed N]
"""
import argparse
import json
import os
import random
import statistics

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
PCTS = [1, 5, 10, 25, 50, 75, 90, 95, 99]


def stats(values, unit):
    v = sorted(values)
    out = {"unit": unit, "avg": statistics.fmean(v)}
    for p in PCTS:
        k = (len(v) - 1) * p / 100
        lo, hi = int(k), min(int(k) + 1, len(v) - 1)
        out["p%d" % p] = v[lo] + (v[hi] - v[lo]) * (k - lo)
    out["min"], out["max"] = v[0], v[-1]
    out["std"] = statistics.pstdev(v)
    return out


def model(isl, osl, c):
    step = 7.0 + 0.06 * c + 2.4e-4 * c * (isl + osl / 2)
    prefill = isl / 11.0
    ttft = prefill * (1 + 0.5 * (c - 1) * isl / (isl + osl)) + step
    return step, ttft


def write_run(folder, isl, osl, c, n, rng, t0):
    step, ttft = model(isl, osl, c)
    records, start = [], t0
    for i in range(n):
        s = step * rng.uniform(0.97, 1.03)
        f = ttft * rng.uniform(0.95, 1.06)
        lat = f + (osl - 1) * s
        begin = start + int(i * lat * 1e6 / c)
        records.append({
            "metadata": {"session_num": i, "x_request_id": "synthetic-%d-%d-%d-%d" % (isl, osl, c, i),
                         "conversation_id": None, "turn_index": 0,
                         "request_start_ns": begin, "request_ack_ns": begin + 2_000_000,
                         "request_end_ns": begin + int(lat * 1e6), "worker_id": "worker_%d" % (i % 4),
                         "record_processor_id": "record_processor_0", "benchmark_phase": "profiling",
                         "was_cancelled": False, "cancellation_time_ns": None},
            "metrics": {
                "input_sequence_length": {"value": isl, "unit": "tokens"},
                "output_sequence_length": {"value": osl, "unit": "tokens"},
                "output_token_count": {"value": osl, "unit": "tokens"},
                "time_to_first_token": {"value": f, "unit": "ms"},
                "inter_token_latency": {"value": s, "unit": "ms"},
                "request_latency": {"value": lat, "unit": "ms"},
                "output_token_throughput_per_user": {"value": 1000.0 / s, "unit": "tokens/sec/user"},
            },
            "error": None,
        })
    ttfts = [r["metrics"]["time_to_first_token"]["value"] for r in records]
    itls = [r["metrics"]["inter_token_latency"]["value"] for r in records]
    lats = [r["metrics"]["request_latency"]["value"] for r in records]
    first = min(r["metadata"]["request_start_ns"] for r in records)
    last = max(r["metadata"]["request_end_ns"] for r in records)
    duration = (last - first) / 1e9
    mean_lat = statistics.fmean(lats)
    summary = {
        "request_throughput": {"unit": "requests/sec", "avg": c * 1000.0 / mean_lat},
        "request_latency": stats(lats, "ms"),
        "request_count": {"unit": "requests", "avg": float(n)},
        "time_to_first_token": stats(ttfts, "ms"),
        "inter_token_latency": stats(itls, "ms"),
        "output_token_throughput": {"unit": "tokens/sec", "avg": c * osl * 1000.0 / mean_lat},
        "output_token_throughput_per_user": stats([1000.0 / s for s in itls], "tokens/sec/user"),
        "output_sequence_length": stats([float(osl)] * n, "tokens"),
        "input_sequence_length": stats([float(isl)] * n, "tokens"),
        "min_request_timestamp": {"unit": "ns", "avg": float(first)},
        "max_response_timestamp": {"unit": "ns", "avg": float(last)},
        "benchmark_duration": {"unit": "sec", "avg": duration},
        "total_isl": {"unit": "tokens", "avg": float(isl * n)},
        "total_osl": {"unit": "tokens", "avg": float(osl * n)},
        "error_request_count": {"unit": "requests", "avg": 0.0},
        "input_config": {
            "endpoint": {"model_names": [MODEL], "type": "chat", "streaming": True, "url": "localhost:8000"},
            "input": {"prompt": {"input_tokens": {"mean": isl, "stddev": 0.0},
                                 "output_tokens": {"mean": osl, "stddev": 0.0}},
                      "random_seed": 100},
            "loadgen": {"concurrency": c, "request_count": n},
            "cli_command": "synthetic: build-aux/gen-isl-osl-sweep.py (not a measurement)",
        },
        "was_cancelled": False,
    }
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "profile_export.jsonl"), "w") as out:
        for r in records:
            out.write(json.dumps(r, separators=(",", ":")) + "\n")
    with open(os.path.join(folder, "profile_export_aiperf.json"), "w") as out:
        json.dump(summary, out, indent=1)
        out.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--isl", default="128,1024,4096")
    ap.add_argument("--osl", default="128,512,2048")
    ap.add_argument("--concurrency", default="1,4,16,64")
    ap.add_argument("--requests", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    t0 = 1_764_000_000_000_000_000
    for isl in (int(x) for x in a.isl.split(",")):
        for osl in (int(x) for x in a.osl.split(",")):
            for c in (int(x) for x in a.concurrency.split(",")):
                name = "isl%d_osl%d/concurrency%d" % (isl, osl, c)
                write_run(os.path.join(a.out, name), isl, osl, c, a.requests, rng, t0)
                t0 += 3_600_000_000_000


if __name__ == "__main__":
    main()
