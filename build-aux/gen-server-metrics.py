#!/usr/bin/env python3
"""Writes the inference server's Prometheus metrics of an AIPerf run, as AIPerf records
them (server_metrics_export.jsonl, server_metrics_metadata.json and the aggregated
server_metrics_export.json), for a run folder that has none.

There is no public AIPerf run with server metrics, so the bundled samples' are
synthesised here, to the format AIPerf documents (docs/server-metrics/server-metrics.md:
the JSONL's endpoint_url / timestamp_ns / metrics with {"value"} or {"buckets", "sum",
"count"} samples; the metadata's endpoints → metric_schemas; the aggregated JSON's
metrics → series → stats), with the metric names each server exports (vLLM, SGLang,
TRT-LLM). The values follow the run's own summary: the server runs `concurrency`
requests while the benchmark runs, generates tokens at the measured inter-token
latency, takes ISL prompt tokens per request, and fills its KV cache with the tokens of
the requests it holds. They are plausible, not measured: say so wherever they are used.

    gen-server-metrics.py RUN_FOLDER [--server vllm|sglang|trtllm] [--interval S] [--seed N]
"""
import argparse
import datetime
import json
import math
import os
import random
import sys

NAMES = {
    "vllm": {
        "running": "vllm:num_requests_running",
        "waiting": "vllm:num_requests_waiting",
        "kv": "vllm:kv_cache_usage_perc",
        "gen": "vllm:generation_tokens",
        "prompt": "vllm:prompt_tokens",
        "hits": "vllm:prefix_cache_hits",
        "queries": "vllm:prefix_cache_queries",
        "queue": "vllm:request_queue_time_seconds",
        "ttft": "vllm:time_to_first_token_seconds",
        "success": "vllm:request_success",
    },
    "sglang": {
        "running": "sglang:num_running_reqs",
        "waiting": "sglang:num_queue_reqs",
        "kv": "sglang:token_usage",
        "gen": "sglang:generation_tokens",
        "prompt": "sglang:prompt_tokens",
        "hit_rate": "sglang:cache_hit_rate",
        "gen_gauge": "sglang:gen_throughput",
        "queue": "sglang:queue_time_seconds",
        "ttft": "sglang:time_to_first_token_seconds",
    },
    "trtllm": {
        "running": "trtllm_num_requests_running",
        "waiting": "trtllm_num_requests_waiting",
        "kv": "trtllm_kv_cache_utilization",
        "gen": "trtllm_generation_tokens",
        "prompt": "trtllm_prompt_tokens",
        "hit_rate": "trtllm_kv_cache_hit_rate",
        "queue": "trtllm_request_queue_time_seconds",
        "ttft": "trtllm_time_to_first_token_seconds",
        "success": "trtllm_request_success",
    },
}
HELP = {
    "running": ("gauge", "Number of requests in model execution batches."),
    "waiting": ("gauge", "Number of requests waiting to be processed."),
    "kv": ("gauge", "KV-cache usage. 1 means 100 percent usage."),
    "gen": ("counter", "Number of generation tokens processed."),
    "prompt": ("counter", "Number of prefill tokens processed."),
    "hits": ("counter", "Prefix cache hits, in terms of number of cached tokens."),
    "queries": ("counter", "Prefix cache queries, in terms of number of queried tokens."),
    "hit_rate": ("gauge", "The prefix cache hit rate."),
    "gen_gauge": ("gauge", "The generation throughput (token/s)."),
    "queue": ("histogram", "Histogram of time spent waiting in the queue, in seconds."),
    "ttft": ("histogram", "Histogram of time to first token in seconds."),
    "success": ("counter", "Count of successfully processed requests."),
}
QUEUE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5]
TTFT_BUCKETS = [0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0]


def stat(summary, key, field="avg", default=None):
    v = summary.get(key)
    if isinstance(v, dict) and isinstance(v.get(field), (int, float)):
        return float(v[field])
    return default


def percentile(sorted_values, q):
    if not sorted_values:
        return 0.0
    h = (len(sorted_values) - 1) * q
    i = int(math.floor(h))
    if i + 1 < len(sorted_values):
        return sorted_values[i] + (h - i) * (sorted_values[i + 1] - sorted_values[i])
    return sorted_values[-1]


def bucket_estimate(bounds, counts, q):
    """A percentile from per-bucket (not cumulative) counts, by linear interpolation."""
    total = sum(counts)
    if total <= 0:
        return 0.0
    want, seen, lo = q * total, 0.0, 0.0
    for b, c in zip(bounds, counts):
        if seen + c >= want and c > 0:
            return lo + (b - lo) * (want - seen) / c
        seen += c
        lo = b
    return bounds[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--server", default="vllm", choices=sorted(NAMES))
    ap.add_argument("--interval", type=float, default=0.333)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--prefix", default="")
    args = ap.parse_args()

    with open(os.path.join(args.run, "profile_export_aiperf.json")) as f:
        summary = json.load(f)
    cfg = summary.get("input_config", {})
    conc = float(cfg.get("loadgen", {}).get("concurrency", 1))
    model = (cfg.get("endpoint", {}).get("model_names") or ["model"])[0]
    t0 = int(stat(summary, "min_request_timestamp"))
    t1 = int(stat(summary, "max_response_timestamp"))
    isl = stat(summary, "input_sequence_length", default=100.0)
    osl = stat(summary, "output_sequence_length", default=100.0)
    itl_s = stat(summary, "inter_token_latency", default=20.0) / 1000.0
    ttft_s = stat(summary, "time_to_first_token", default=30.0) / 1000.0
    rps = stat(summary, "request_throughput", default=1.0)
    kv_capacity = 56000.0  # tokens of KV cache on the GPU
    names = NAMES[args.server]
    rng = random.Random(args.seed)
    url = "http://localhost:8000/metrics"

    start = t0 - int(2e9)  # AIPerf scrapes from before the warm-up
    end = t1 + int(1e9)
    step = int(args.interval * 1e9)
    counters = {k: 0.0 for k in ("gen", "prompt", "hits", "queries", "success")}
    hist = {k: ([0.0] * (len(b) + 1), 0.0) for k, b in (("queue", QUEUE_BUCKETS), ("ttft", TTFT_BUCKETS))}
    rows = []
    t = start
    while t <= end:
        active = t0 <= t <= t1
        ramp = min(1.0, max(0.0, (t - t0) / 2e9))  # two seconds to fill the batch
        running = round(conc * ramp) if active else 0
        if active and running and rng.random() < 0.06:
            running -= 1  # a request between its end and the next one's start
        waiting = 0 if conc <= 8 or not active else max(0, round(rng.gauss(conc * 0.05, 1)))
        dt = args.interval
        if active:
            started = rps * dt * ramp
            counters["prompt"] += started * isl
            counters["queries"] += started * isl
            counters["hits"] += started * isl * 0.32 * rng.uniform(0.9, 1.1)  # shared system prompt
            counters["gen"] += running * dt / itl_s * rng.uniform(0.97, 1.03)
            counters["success"] += started
            for key, bounds, centre in (("queue", QUEUE_BUCKETS, 0.0015 + 0.0004 * conc),
                                        ("ttft", TTFT_BUCKETS, ttft_s)):
                counts, total = hist[key]
                n = started
                v = max(1e-5, rng.gauss(centre, centre * 0.15))
                i = next((k for k, b in enumerate(bounds) if v <= b), len(bounds))
                counts[i] += n
                hist[key] = (counts, total + n * v)
        # tokens held: each running request's prompt plus half its output on average
        kv = min(1.0, running * (isl + osl * rng.uniform(0.3, 0.7)) / kv_capacity)
        metrics = {
            names["running"]: [{"labels": {"model_name": model}, "value": float(running)}],
            names["waiting"]: [{"labels": {"model_name": model}, "value": float(waiting)}],
            names["kv"]: [{"labels": {"model_name": model}, "value": round(kv, 6)}],
            names["gen"]: [{"labels": {"model_name": model}, "value": round(counters["gen"])}],
            names["prompt"]: [{"labels": {"model_name": model}, "value": round(counters["prompt"])}],
        }
        if "hits" in names:
            metrics[names["hits"]] = [{"labels": {"model_name": model}, "value": round(counters["hits"])}]
            metrics[names["queries"]] = [{"labels": {"model_name": model}, "value": round(counters["queries"])}]
        if "hit_rate" in names:
            rate = counters["hits"] / counters["queries"] if counters["queries"] else 0.0
            metrics[names["hit_rate"]] = [{"labels": {"model_name": model}, "value": round(rate, 4)}]
        if "gen_gauge" in names:
            metrics[names["gen_gauge"]] = [{"labels": {"model_name": model},
                                            "value": round(running / itl_s, 2) if active else 0.0}]
        if "success" in names:
            metrics[names["success"]] = [{"labels": {"model_name": model, "finished_reason": "length"},
                                          "value": math.floor(counters["success"])}]
        for key, bounds in (("queue", QUEUE_BUCKETS), ("ttft", TTFT_BUCKETS)):
            counts, total = hist[key]
            cum, acc = {}, 0.0
            for b, c in zip(bounds + [None], counts):
                acc += c
                cum["+Inf" if b is None else repr(b)] = math.floor(acc)
            metrics[names[key]] = [{"labels": {"model_name": model}, "buckets": cum,
                                    "sum": round(total, 6), "count": math.floor(acc)}]
        latency = int(rng.uniform(2e6, 9e6))
        rows.append({"endpoint_url": url, "timestamp_ns": t + latency, "endpoint_latency_ns": latency,
                     "metrics": metrics, "request_sent_ns": t, "first_byte_ns": t + latency})
        t += step

    prefix = args.prefix + "_" if args.prefix else ""
    base = os.path.join(args.run, prefix + "server_metrics")
    with open(os.path.join(args.run, (args.prefix + "_server_metrics" if args.prefix else "server_metrics_export")
                           + ".jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

    schemas = {}
    for key, name in names.items():
        kind, text = HELP[key]
        schemas[name] = {"type": kind, "help": text}
    with open(os.path.join(args.run, "server_metrics_metadata.json"), "w") as f:
        json.dump({"endpoints": {url: {"endpoint_url": url, "endpoint_display": url,
                                       "metric_schemas": schemas}}}, f, indent=2)
        f.write("\n")

    # the aggregate over the profiling phase, as AIPerf computes it
    prof = [r for r in rows if t0 <= r["timestamp_ns"] <= t1]
    before = [r for r in rows if r["timestamp_ns"] < t0]
    ref = before[-1] if before else prof[0]
    duration = (prof[-1]["timestamp_ns"] - ref["timestamp_ns"]) / 1e9
    out = {}
    for key, name in names.items():
        kind, text = HELP[key]
        sample = prof[-1]["metrics"][name][0]
        labels = sample.get("labels", {})
        if kind == "gauge":
            vals = sorted(r["metrics"][name][0]["value"] for r in prof)
            mean = sum(vals) / len(vals)
            stats = {"avg": mean, "min": vals[0], "max": vals[-1],
                     "std": math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals))}
            for q in (1, 5, 10, 25, 50, 75, 90, 95, 99):
                stats["p%d" % q] = percentile(vals, q / 100)
        elif kind == "counter":
            total = sample["value"] - ref["metrics"][name][0]["value"]
            stats = {"total": total, "rate": total / duration if duration > 0 else 0.0}
        else:
            cum_end, cum_ref = sample["buckets"], ref["metrics"][name][0]["buckets"]
            keys = list(cum_end)
            delta_cum = [cum_end[k] - cum_ref.get(k, 0) for k in keys]
            per = [delta_cum[0]] + [delta_cum[i] - delta_cum[i - 1] for i in range(1, len(keys))]
            bounds = [float(k) for k in keys[:-1]]
            count = sample["count"] - ref["metrics"][name][0]["count"]
            total = sample["sum"] - ref["metrics"][name][0]["sum"]
            stats = {"count": count, "sum": total, "avg": total / count if count else 0.0,
                     "count_rate": count / duration if duration > 0 else 0.0,
                     "sum_rate": total / duration if duration > 0 else 0.0}
            for q in (1, 5, 10, 25, 50, 75, 90, 95, 99):
                stats["p%d_estimate" % q] = bucket_estimate(bounds, per[:-1], q / 100)
        out[name] = {"type": kind, "description": text,
                     "series": [{"endpoint_url": url, "labels": labels, "stats": stats}]}
    # aiperf's ServerMetricsSummary (common/models/export_models.py) requires the collection's
    # start_time and end_time (datetimes): the scrapes' first and last, in UTC so that the
    # file does not depend on the machine that wrote it
    def iso(ns):
        return datetime.datetime.fromtimestamp(ns / 1e9, tz=datetime.timezone.utc).isoformat()

    doc = {"schema_version": "1.0", "aiperf_version": "generated by build-aux/gen-server-metrics.py",
           "summary": {"endpoints_configured": [url], "endpoints_successful": [url],
                       "start_time": iso(rows[0]["timestamp_ns"]),
                       "end_time": iso(rows[-1]["timestamp_ns"])},
           "metrics": out}
    with open(base + ("" if args.prefix else "_export") + ".json", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print("%s: %d scrapes of %s metrics" % (args.run, len(rows), args.server), file=sys.stderr)


if __name__ == "__main__":
    main()
