#!/usr/bin/env python3
"""The baseline bench-runs compares against: what a user scripts today with pandas and
matplotlib on the same run folder — read profile_export.jsonl, compute every metric's
statistics (list metrics exploded, numpy's percentiles), and draw the five default
single-run plots of `aiperf plot` (TTFT per request, the request timeline at TTFT, two
time-slice charts, throughput with GPU utilisation) to PNG at the size Inferview writes
them (2400 × 1280). Prints one line: "pandas+matplotlib SECONDS".

Usage: runs-pandas-baseline.py RUN_FOLDER
Exit status 3 when pandas or matplotlib is missing (the benchmark then says so)."""
import json
import os
import sys
import tempfile
import time

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
except ImportError:
    sys.exit(3)


def main():
    run = sys.argv[1]
    out = tempfile.mkdtemp(prefix="iv-pandas-")
    t0 = time.monotonic()

    df = pd.read_json(os.path.join(run, "profile_export.jsonl"), lines=True, convert_dates=False)
    meta = pd.json_normalize(df["metadata"])
    metrics = df["metrics"]
    keep = (meta["benchmark_phase"] == "profiling").to_numpy()
    meta = meta[keep].reset_index(drop=True)
    metrics = metrics[keep].reset_index(drop=True)
    names = sorted({k for m in metrics for k in m})
    values = {}
    for name in names:
        col = metrics.map(lambda m: m.get(name, {}).get("value") if isinstance(m, dict) else None)
        values[name] = col
        flat = col.explode().dropna().astype(float).to_numpy()
        if flat.size:
            np.percentile(flat, [1, 5, 10, 25, 50, 75, 90, 95, 99])
            flat.mean(), flat.std(), flat.min(), flat.max()

    start = (meta["request_start_ns"] - meta["request_start_ns"].min()) / 1e9
    end = (meta["request_end_ns"] - meta["request_start_ns"].min()) / 1e9
    ttft = values["time_to_first_token"].astype(float)
    order = np.argsort(start.to_numpy())

    def save(fig, name):
        fig.savefig(os.path.join(out, name), dpi=200)
        plt.close(fig)

    fig, ax = plt.subplots(figsize=(12, 6.4))
    ax.scatter(np.arange(1, len(order) + 1), ttft.to_numpy()[order], s=4)
    ax.set_title("TTFT Per Request Over Time")
    save(fig, "ttft_over_time.png")

    fig, ax = plt.subplots(figsize=(12, 6.4))
    s, e, y = start.to_numpy(), end.to_numpy(), ttft.to_numpy()
    ax.hlines(y, s, s + y / 1e3, colors="#76b900", linewidth=2)
    ax.hlines(y, s + y / 1e3, e, colors="#0072b2", linewidth=2)
    ax.set_title("Request Timeline: TTFT Phases Over Time")
    save(fig, "ttft_timeline.png")

    with open(os.path.join(run, "profile_export_aiperf_timeslices.json")) as f:
        slices = json.load(f)["timeslices"]
    for tag, name in (("time_to_first_token", "timeslices_ttft"), ("inter_token_latency", "timeslices_itl")):
        avg = [s[tag]["avg"] for s in slices]
        std = [s[tag]["std"] for s in slices]
        fig, ax = plt.subplots(figsize=(12, 6.4))
        ax.bar(range(len(avg)), avg, yerr=std)
        ax.set_title(name)
        save(fig, name + ".png")

    tel = pd.read_json(os.path.join(run, "gpu_telemetry_export.jsonl"), lines=True, convert_dates=False)
    util = pd.json_normalize(tel["telemetry_data"])["gpu_utilization"]
    tt = (tel["timestamp_ns"] - meta["request_start_ns"].min()) / 1e9
    osl = values["output_sequence_length"].astype(float).to_numpy()
    rate = osl / np.maximum(e - (s + y / 1e3), 1e-9)
    edges = np.concatenate([s + y / 1e3, e])
    steps = np.concatenate([rate, -rate])
    idx = np.argsort(edges)
    fig, ax = plt.subplots(figsize=(12, 6.4))
    ax.step(edges[idx], np.cumsum(steps[idx]), where="post")
    ax2 = ax.twinx()
    ax2.fill_between(tt, util, alpha=0.3)
    ax.set_title("Output Token Throughput with GPU Utilization")
    save(fig, "gpu_utilization_and_throughput_over_time.png")

    print("pandas+matplotlib %.3f" % (time.monotonic() - t0))


if __name__ == "__main__":
    main()
