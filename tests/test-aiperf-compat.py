#!/usr/bin/env python3
"""test-aiperf-compat.py: issue 29's "Done when". aiperf's published fixture runs
(tests/data/aiperf: the qwen runs of aiperf's tests/unit/plot/fixtures) are plotted with
`inferview plot --aiperf-compatible --json`, and every default plot's points are checked,
value by value, against values computed here the way aiperf's source computes them — each
computation below names the aiperf function it follows (src/aiperf/plot/...). The same
runs in Inferview's default mode carry figure notes saying where its numbers differ; those
are checked too, with the numbers in them.

Fixtures derived here from aiperf's files, each said where it is made: a copy of a run with
its time slices written as aiperf's TimesliceMetricsCsvExporter writes them, a sweep with a
second trial of one concurrency for the uncertainty intervals, and a folder of runs aiperf
plot would not all read. Nothing is taken from Inferview's own computations.
"""
import csv
import datetime
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

BINARY = os.environ.get("IV_BINARY")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(__file__), "data"))
SAMPLES = os.environ.get("IV_SAMPLES_DIR",
                         os.path.join(os.path.dirname(__file__), "..", "data", "samples"))
QWEN = os.path.join(DATA, "aiperf")
MODEL = "Qwen/Qwen3-0.6B"
# scipy.stats.t.ppf (0.975, df=1): the critical value of a 95 % interval over two trials
T_975_DF1 = 12.706204736174698


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", self.n, what))
        if not ok:
            self.failed += 1
            for line in str(detail).splitlines()[:40]:
                print("# " + line)

    def done(self):
        print("1..%d" % self.n)
        return 1 if self.failed else 0


def duration(ms):
    """A duration as Inferview prints it (src/util/iv-units.c, iv_units_format_seconds): the
    largest of s, ms, µs, ns it reaches once rounded (min and h above a minute), with 0, 1
    or 2 decimals by magnitude (≥ 100, ≥ 10, smaller) and trailing zeros dropped."""
    s = ms / 1e3
    if abs(s) >= 3600:
        v, unit = s / 3600, "h"
    elif abs(s) >= 60:
        v, unit = s / 60, "min"
    else:
        for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
            v = s / scale
            if abs(v) >= 0.9995 or unit == "ns":
                break
    text = "%.*f" % (0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2, v)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "%s %s" % (text, unit)


def close(a, b, rel=1e-12):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def same_list(a, b, rel=1e-12):
    return len(a) == len(b) and all(close(x, y, rel) for x, y in zip(a, b))


def plot(paths, out, *extra):
    p = subprocess.run([BINARY, "plot", *paths, "-o", out, "--json", *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    if p.returncode != 0:
        raise RuntimeError("plot exited %d: %s" % (p.returncode, p.stderr.decode()[-2000:]))
    return json.loads(p.stdout)


def figure(doc, preset):
    for p in doc["plots"]:
        if p["preset"] == preset:
            return p
    raise KeyError(preset)


def series(fig, name):
    for s in fig["figure"]["series"]:
        if s["name"] == name:
            return s
    raise KeyError("%s: no series %r (%s)" % (fig["preset"], name,
                                            [s["name"] for s in fig["figure"]["series"]]))


# ---------------------------------------------------------------------------------------
# aiperf's computations, written out from its source

def summary(run):
    with open(os.path.join(run, "profile_export_aiperf.json")) as f:
        return json.load(f)


def gpu_count(agg):
    """TelemetryMixin.calculate_gpu_count_from_telemetry: the GPUs of every endpoint of the
    summary's telemetry_data, summed; None without any."""
    tel = agg.get("telemetry_data")
    if not isinstance(tel, dict) or "summary" not in tel or "endpoints" not in tel:
        return None
    n = sum(len(e.get("gpus", {})) for e in tel["endpoints"].values() if isinstance(e, dict))
    return n or None


def row_value(agg, metric):
    """MultiRunPNGExporter._runs_to_dataframe: DEFAULT_PERCENTILE (p50) when the metric has
    it, else avg; output_token_throughput_per_gpu from DerivedMetricCalculator
    .per_gpu_throughput (every statistic over the GPU count); concurrency 1 when unsaid."""
    if metric == "concurrency":
        return agg["input_config"]["loadgen"].get("concurrency") or 1
    if metric == "output_token_throughput_per_gpu":
        n = gpu_count(agg)
        if not n:
            return None
        agg = {metric: {k: v / n for k, v in agg["output_token_throughput"].items()
                        if k != "unit" and isinstance(v, (int, float))}}
    value = agg.get(metric)
    if not isinstance(value, dict):
        return None
    if value.get("p50") is not None:
        return value["p50"]
    return value.get("avg")


def higher_is_better(metric):
    # MetricRegistry's LARGER_IS_BETTER for these metrics, DERIVED_METRIC_DIRECTIONS for
    # the per-GPU throughput
    return "throughput" in metric


def pareto(points, x_hi, y_hi):
    """create_pareto_plot sorts by [x, y] (y best first), then _compute_pareto_frontier sweeps
    with non-strict comparisons; the frontier is drawn sorted by x."""
    pts = sorted(points, key=lambda p: (p[0], p[1] if not y_hi else -p[1]))
    on, best = [], -math.inf if y_hi else math.inf
    order = reversed(pts) if x_hi else pts
    for p in order:
        if (p[1] >= best) if y_hi else (p[1] <= best):
            on.append(p)
            best = p[1]
    return sorted(on, key=lambda p: p[0])


def is_run_dir(d):
    """ModeDetector._is_run_directory (single-run markers; no aggregates here)."""
    def has(name):
        return os.path.isfile(os.path.join(d, name)) or os.path.isfile(os.path.join(d, name + ".zst"))
    return has("profile_export.jsonl") and has("profile_export_aiperf.json")


def mode_runs(root):
    """ModeDetector.find_run_directories: every run folder at any depth, sorted as Python
    sorts Paths (part by part)."""
    found = []
    for dirpath, dirnames, _ in os.walk(root):
        if is_run_dir(dirpath):
            found.append(dirpath)
    return sorted(found, key=lambda p: os.path.normpath(p).split(os.sep))


def records(run):
    """FileReaderMixin._load_jsonl: each line a row, its metadata and its metrics' values."""
    rows = []
    with open(os.path.join(run, "profile_export.jsonl")) as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                row = dict(rec["metadata"])
                for k, v in rec["metrics"].items():
                    if k != "inter_chunk_latency":
                        row[k] = v["value"]
                rows.append(row)
    return rows


def throughput_events(rows):
    """calculate_throughput_events: tokens spread evenly from the first token to the end;
    the running sum after each event, on seconds from the first event. Returned as the sum
    after the last event of each instant (what an "hv" line shows; independent of the
    order of events of one instant)."""
    events = []
    for row in rows:
        s, e = row.get("request_start_ns"), row.get("request_end_ns")
        if s is None or e is None:
            continue
        ttft = row.get("time_to_first_token") or 0
        first = s + int(ttft * 1e6) if ttft > 0 else s
        osl = row.get("output_sequence_length") or 0
        if e - first > 0 and osl > 0:
            rate = osl / ((e - first) / 1e9)
            events += [(first, rate), (e, -rate)]
    events.sort(key=lambda ev: ev[0])
    start, level, last = events[0][0], 0.0, {}
    for t, d in events:
        level += d
        last[(t - start) / 1e9] = level
    return len(events), last


def gpu_utilization(run, rows):
    """_load_gpu_telemetry_jsonl (seconds from the earliest request start) and
    aggregate_gpu_telemetry (the mean of the lines of one timestamp)."""
    start = min(r["request_start_ns"] for r in rows if r.get("request_start_ns") is not None)
    by_t = {}
    with open(os.path.join(run, "gpu_telemetry_export.jsonl")) as f:
        for line in f:
            d = json.loads(line)
            u = d["telemetry_data"].get("gpu_utilization")
            if u is not None:
                by_t.setdefault((d["timestamp_ns"] - start) / 1e9, []).append(u)
    ts = sorted(by_t)
    return ts, [sum(by_t[t]) / len(by_t[t]) for t in ts]


def timeline(rows, y="time_to_first_token"):
    """RequestTimelineHandler._prepare_timeline_data and create_request_timeline: the rows
    with a start, an end, a TTFT and y; seconds from their earliest start; a TTFT longer
    than the request left out; decode drawn when it lasts over a millisecond."""
    keep = [r for r in rows if r.get("request_start_ns") is not None and
            r.get("request_end_ns") is not None and r.get("time_to_first_token") is not None
            and r.get(y) is not None]
    start = min(r["request_start_ns"] for r in keep)
    prefill, decode = [], []
    for r in keep:
        s, e = (r["request_start_ns"] - start) / 1e9, (r["request_end_ns"] - start) / 1e9
        t = r["time_to_first_token"] / 1000.0
        if not t <= e - s:
            continue
        prefill.append((s, s + t, r[y]))
        if e - (s + t) > 0.001:
            decode.append((s + t, e, r[y]))
    return sorted(prefill), sorted(decode)


def timeslice_points(rows_csv, display, stat, width, agg, tag):
    """prepare_timeslice_metrics (the CSV's rows of the metric and stat, with its std),
    TimeSliceHandler._get_average_for_timeslice_metric (the run's avg and std, none for a
    metric of one number) and create_timeslice_scatter with detect_directional_outliers
    (above avg + std + the slice's std; below for a throughput)."""
    values = {int(r["Timeslice"]): float(r["Value"]) for r in rows_csv
              if r["Metric"] == display and r["Stat"] == stat}
    stds = {int(r["Timeslice"]): float(r["Value"]) for r in rows_csv
            if r["Metric"] == display and r["Stat"] == "std"}
    run = agg.get(tag, {})
    single = all(run.get(k) is None for k in ("p1", "p5", "p10", "p25", "p50", "p75", "p90",
                                               "p95", "p99", "std", "min", "max"))
    avg, std = (None, None) if single else (run.get("avg"), run.get("std"))
    normal, outliers = [], []
    for i in sorted(values):
        v, sd = values[i], stds.get(i, 0.0)
        x = i * width + width / 2
        if avg is None or std is None:
            bad = False
        elif "throughput" in display.lower():
            bad = v < avg - std - sd
        else:
            bad = v > avg + std + sd
        (outliers if bad else normal).append((x, v, sd))
    return normal, outliers, avg, std


def uncertainty(runs, x_metric, y_metric, ci_level=0.95):
    """LatencyThroughputUncertaintyHandler and _build_uncertainty_points: a series per model,
    a point per concurrency: the mean of its runs' values (each the row value above) with
    Student-t half-widths, none for one run."""
    by_c = {}
    for agg in runs:
        x, y = row_value(agg, x_metric), row_value(agg, y_metric)
        if x is None or y is None:
            continue
        by_c.setdefault(row_value(agg, "concurrency"), []).append((x, y))
    points = []
    for c in sorted(by_c):
        xs, ys = [p[0] for p in by_c[c]], [p[1] for p in by_c[c]]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        hx = hy = 0.0
        if n >= 2:
            assert ci_level == 0.95 and n == 2, "only the critical value for two trials is here"
            sx = math.sqrt(sum((v - mx) ** 2 for v in xs) / (n - 1))
            sy = math.sqrt(sum((v - my) ** 2 for v in ys) / (n - 1))
            hx, hy = T_975_DF1 * sx / math.sqrt(n), T_975_DF1 * sy / math.sqrt(n)
        points.append((c, mx, my, hx, hy))
    return points


# ---------------------------------------------------------------------------------------
# fixtures made from aiperf's files

def with_timeslices(tmp):
    """qwen_concurrency1 with time slices as TimesliceMetricsCsvExporter writes them: tidy rows
    Timeslice,Metric,Unit,Stat,Value, metrics by tag order under their headers, STAT_KEYS per
    metric, values with two decimals (_format_number); slices of 5 s by request start, from
    the run's own records. Slice 1's TTFT is made 10 ms slower, so the outlier rule has a
    slow slice to find; the summary's input_config gains output.slice_duration = 5."""
    run = os.path.join(tmp, "slices", "qwen_concurrency1")
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), run)
    agg = summary(run)
    agg["input_config"].setdefault("output", {})["slice_duration"] = 5
    with open(os.path.join(run, "profile_export_aiperf.json"), "w") as f:
        json.dump(agg, f, indent=2)
    rows = records(run)
    t0 = min(r["request_start_ns"] for r in rows)
    slices = {}
    for r in rows:
        slices.setdefault(int((r["request_start_ns"] - t0) // 5_000_000_000), []).append(r)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["Timeslice", "Metric", "Unit", "Stat", "Value"])
    for k in sorted(slices):
        for tag, header in (("inter_token_latency", "Inter Token Latency"),
                            ("time_to_first_token", "Time to First Token")):
            vals = sorted(r[tag] + (10.0 if (k == 1 and tag == "time_to_first_token") else 0.0)
                          for r in slices[k])
            n = len(vals)
            mean = sum(vals) / n
            std = math.sqrt(sum((v - mean) ** 2 for v in vals) / n)
            for stat, value in (("avg", mean), ("min", vals[0]), ("max", vals[-1]),
                                ("std", std)):
                w.writerow([k, header, "ms", stat, "%.2f" % value])
    with open(os.path.join(run, "profile_export_aiperf_timeslices.csv"), "w") as f:
        f.write(out.getvalue())
    return run


def with_second_trial(tmp):
    """The sweep with concurrency 1 run twice: the second trial aiperf's summary of the first
    with its latencies 2 % slower and its throughput 2 % lower."""
    root = os.path.join(tmp, "trials")
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), os.path.join(root, "c1_trial1"))
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), os.path.join(root, "c1_trial2"))
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency2"), os.path.join(root, "c2"),
                    ignore=shutil.ignore_patterns("qwen_concurrency4"))
    path = os.path.join(root, "c1_trial2", "profile_export_aiperf.json")
    agg = summary(os.path.join(root, "c1_trial2"))
    for k in ("p50", "avg"):
        if agg["request_latency"].get(k) is not None:
            agg["request_latency"][k] *= 1.02
    agg["output_token_throughput"]["avg"] *= 0.98
    with open(path, "w") as f:
        json.dump(agg, f, indent=2)
    return root


def with_runs_aiperf_leaves(tmp):
    """Runs aiperf plot reads and runs it does not (records only, summary only), named so that
    Python's path order and a string order differ ("r/sub" before "r-2")."""
    root = os.path.join(tmp, "leaves")
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), os.path.join(root, "r-2"))
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), os.path.join(root, "r", "sub"))
    os.makedirs(os.path.join(root, "records_only"))
    shutil.copy(os.path.join(QWEN, "qwen_concurrency1", "profile_export.jsonl"),
                os.path.join(root, "records_only"))
    os.makedirs(os.path.join(root, "summary_only"))
    shutil.copy(os.path.join(QWEN, "qwen_concurrency1", "profile_export_aiperf.json"),
                os.path.join(root, "summary_only"))
    return root


# ---------------------------------------------------------------------------------------

def check_multi_run(t, tmp):
    doc = plot([QWEN], os.path.join(tmp, "multi"), "--aiperf-compatible")
    runs = mode_runs(QWEN)
    t.check([os.path.normpath(p) for p in doc["runs"]] == [os.path.normpath(p) for p in runs],
            "multi-run: aiperf's run set in its order (ModeDetector)", "%s\n%s" % (doc["runs"], runs))
    aggs = [summary(r) for r in runs]
    for preset, xm, ym in (("pareto_curve_throughput_per_gpu_vs_latency", "request_latency",
                            "output_token_throughput_per_gpu"),
                           ("pareto_curve_throughput_per_gpu_vs_interactivity",
                            "output_token_throughput_per_user", "output_token_throughput_per_gpu"),
                           ("ttft_vs_throughput", "time_to_first_token", "request_throughput")):
        fig = figure(doc, preset)
        pts = sorted(((row_value(a, xm), row_value(a, ym), str(row_value(a, "concurrency")))
                      for a in aggs), key=lambda p: p[0])
        s = series(fig, MODEL)
        ok = (same_list(s["x"], [p[0] for p in pts]) and same_list(s["y"], [p[1] for p in pts])
              and s["labels"] == [p[2] for p in pts])
        t.check(ok, "%s: each run's point (p50 else avg; per GPU over %s GPUs), labels" %
                (preset, gpu_count(aggs[0])), json.dumps(s) + "\n" + str(pts))
        if preset.startswith("pareto"):
            front = pareto([p[:2] for p in pts], higher_is_better(xm), higher_is_better(ym))
            f = series(fig, MODEL + " frontier")
            t.check(same_list(f["x"], [p[0] for p in front]) and
                    same_list(f["y"], [p[1] for p in front]),
                    "%s: aiperf's frontier (%d of %d runs)" % (preset, len(front), len(pts)),
                    json.dumps(f) + "\n" + str(front))
        t.check(not fig["notes"], "%s: drawn as aiperf draws it, no notes" % preset, fig["notes"])
    fig = figure(doc, "latency_throughput_uncertainty")
    s = series(fig, "model = " + MODEL)
    pts = uncertainty(aggs, "request_latency", "output_token_throughput_per_gpu")
    t.check(same_list(s["x"], [p[1] for p in pts]) and same_list(s["y"], [p[2] for p in pts])
            and s["labels"] == [str(p[0]) for p in pts],
            "latency_throughput_uncertainty: a point per concurrency, the mean of its runs",
            json.dumps(s) + "\n" + str(pts))
    names = [x["name"] for x in fig["figure"]["series"]]
    t.check(not any(n.endswith("interval") for n in names),
            "latency_throughput_uncertainty: one run per concurrency, no interval", names)


def check_uncertainty_trials(t, tmp):
    root = with_second_trial(tmp)
    doc = plot([root], os.path.join(tmp, "trials-out"), "--aiperf-compatible",
               "--plot", "latency_throughput_uncertainty")
    aggs = [summary(r) for r in mode_runs(root)]
    pts = uncertainty(aggs, "request_latency", "output_token_throughput_per_gpu")
    fig = figure(doc, "latency_throughput_uncertainty")
    s = series(fig, "model = " + MODEL)
    t.check(same_list(s["x"], [p[1] for p in pts]) and same_list(s["y"], [p[2] for p in pts]),
            "uncertainty over two trials: the means", json.dumps(s) + "\n" + str(pts))
    e = series(fig, "model = %s interval" % MODEL)
    c, mx, my, hx, hy = pts[0]
    t.check(close(max(e["x"]), mx + hx, 1e-9) and close(min(e["x"]), mx - hx, 1e-9) and
            close(max(e["y"]), my + hy, 1e-9) and close(min(e["y"]), my - hy, 1e-9) and hx > 0,
            "uncertainty over two trials: Student-t 95 %% half-widths (%.4g, %.4g)" % (hx, hy),
            json.dumps(e)[:600])


def check_run_set(t, tmp):
    root = with_runs_aiperf_leaves(tmp)
    doc = plot([root], os.path.join(tmp, "leaves-out"), "--aiperf-compatible",
               "--plot", "ttft_vs_throughput")
    want = mode_runs(root)
    t.check([os.path.relpath(p, root) for p in doc["runs"]] ==
            [os.path.relpath(p, root) for p in want] == ["r/sub", "r-2"],
            "run set: records-only and summary-only runs left out, r/sub before r-2",
            "%s\n%s" % (doc["runs"], want))
    doc = plot([root], os.path.join(tmp, "leaves-default"), "--plot", "ttft_vs_throughput")
    notes = figure(doc, "ttft_vs_throughput")["notes"]
    t.check(any(n.startswith("aiperf plot leaves out 2 runs (records_only, summary_only)")
                for n in notes),
            "default mode: the figure says which runs aiperf plot leaves out", notes)


def check_single_run(t, tmp):
    run = os.path.join(QWEN, "qwen_concurrency1")
    doc = plot([run], os.path.join(tmp, "single"), "--aiperf-compatible")
    rows = records(run)
    fig = figure(doc, "ttft_over_time")
    s = series(fig, "time_to_first_token")
    want = [(i, r["time_to_first_token"]) for i, r in enumerate(rows)
            if r.get("time_to_first_token") is not None]
    t.check(same_list(s["x"], [p[0] for p in want]) and same_list(s["y"], [p[1] for p in want]),
            "ttft_over_time: request_number (file order from 0) against TTFT "
            "(prepare_request_timeseries)", json.dumps(s) + "\n" + str(want))
    fig = figure(doc, "ttft_timeline")
    prefill, decode = timeline(rows)
    p, d = series(fig, "Prefill Phase"), series(fig, "Decode Phase")
    got_p = sorted(zip(p["lo"], p["hi"], p["y"]))
    got_d = sorted(zip(d["lo"], d["hi"], d["y"]))
    t.check(len(got_p) == len(prefill) and all(same_list(a, b) for a, b in zip(got_p, prefill)),
            "ttft_timeline: prefill from each start to its first token", str(got_p[:3]))
    t.check(len(got_d) == len(decode) and all(same_list(a, b) for a, b in zip(got_d, decode)),
            "ttft_timeline: decode from the first token to the end", str(got_d[:3]))
    fig = figure(doc, "gpu_utilization_and_throughput_over_time")
    n, last = throughput_events(rows)
    s = series(fig, "Throughput Tokens Per Sec")
    got = {}
    for x, y in zip(s["x"], s["y"]):
        got[x] = y
    t.check(len(s["x"]) == n and sorted(got) == sorted(last) and
            all(close(got[k], last[k], 1e-9) for k in last),
            "dual axis: throughput events and their running sum (calculate_throughput_events)",
            json.dumps(s)[:800] + "\n" + str(sorted(last.items())[:6]))
    ts, util = gpu_utilization(run, rows)
    s = series(fig, "Gpu Utilization")
    t.check(same_list(s["x"], ts) and same_list(s["y"], util),
            "dual axis: GPU utilisation, every telemetry line, mean per timestamp "
            "(aggregate_gpu_telemetry)", json.dumps(s)[:800] + "\n" + str(list(zip(ts, util))[:6]))
    for preset in ("timeslices_ttft", "timeslices_itl"):
        t.check(figure(doc, preset)["skipped"] is not None,
                "%s: skipped, the run has no time slices" % preset)


def check_timeslices(t, tmp):
    run = with_timeslices(tmp)
    doc = plot([run], os.path.join(tmp, "slices-out"), "--aiperf-compatible")
    agg = summary(run)
    with open(os.path.join(run, "profile_export_aiperf_timeslices.csv")) as f:
        rows_csv = list(csv.DictReader(f))
    for preset, display, tag in (("timeslices_ttft", "Time to First Token", "time_to_first_token"),
                                 ("timeslices_itl", "Inter Token Latency", "inter_token_latency")):
        fig = figure(doc, preset)
        normal, outliers, avg, std = timeslice_points(rows_csv, display, "avg", 5, agg, tag)
        ax = fig["figure"]["axes"]["x"]
        last = max(int(r["Timeslice"]) for r in rows_csv)
        t.check(ax["categories"] == ["%d-%d" % (i * 5, (i + 1) * 5) for i in range(last + 1)]
                and ax["title"] == "Timeslice (s)",
                "%s: aiperf's axis, each slice's range in seconds" % preset, ax)

        def as_aiperf(s):
            # the chart's x is the slice's index on that axis: aiperf's x is its middle
            return [(i * 5 + 2.5, y, (hi - lo) / 2)
                    for i, y, lo, hi in zip(s["x"], s["y"], s.get("lo", s["y"]), s.get("hi", s["y"]))]

        got = as_aiperf(series(fig, "±1 Timeslice Std"))
        t.check(len(got) == len(normal) and all(same_list(a, b, 1e-9) for a, b in zip(got, normal)),
                "%s: slices within the band, with their std" % preset, "%s\n%s" % (got, normal))
        if outliers:
            got = as_aiperf(series(fig, "±1 Timeslice Std (outliers)"))
            t.check(len(got) == len(outliers) and
                    all(same_list(a, b, 1e-9) for a, b in zip(got, outliers)),
                    "%s: %d outlier(s) by detect_directional_outliers" % (preset, len(outliers)),
                    "%s\n%s" % (got, outliers))
        else:
            names = [s["name"] for s in fig["figure"]["series"]]
            t.check("Outliers" not in names, "%s: no outlier" % preset, names)
        line = series(fig, "Run Average: %.2f ms" % avg)
        band = series(fig, "Run Std: %.2f ms" % std)
        t.check(same_list(line["y"], [avg, avg]) and same_list(band["lo"], [avg - std] * 2) and
                same_list(band["hi"], [avg + std] * 2),
                "%s: the run's average and ± its std across (%.2f, %.2f)" % (preset, avg, std),
                json.dumps([line, band]))
    t.check(len(timeslice_points(rows_csv, "Time to First Token", "avg", 5, agg,
                                 "time_to_first_token")[1]) >= 1,
            "timeslices: the slow slice is an outlier by aiperf's rule")


def check_default_notes(t, tmp):
    doc = plot([QWEN], os.path.join(tmp, "default"))
    runs = mode_runs(QWEN)
    aggs = [summary(r) for r in runs]
    fig = figure(doc, "pareto_curve_throughput_per_gpu_vs_latency")
    notes = fig["notes"]
    first = aggs[0]
    gpu = "per GPU: 1 GPU by UUID; aiperf plot counts %d from 2 telemetry endpoint(s) → %.3g " \
          "tokens/s/GPU (concurrency %d; 3 runs alike)" % (
              gpu_count(first), row_value(first, "output_token_throughput_per_gpu"),
              row_value(first, "concurrency"))
    t.check(gpu in notes, "default mode: the per-GPU note with aiperf's count and value", notes)
    stat = "x: each run's avg here; aiperf plot puts its p50 there (%s for concurrency %d, " \
           "%s here)" % (duration(first["request_latency"]["p50"]), row_value(first, "concurrency"),
                         duration(first["request_latency"]["avg"]))
    t.check(stat in notes, "default mode: the statistic note with both numbers", notes)
    # Inferview's frontier (avg, per GPU by UUID: the throughput itself here, one GPU) against
    # aiperf's (p50, two GPUs): the note when they differ
    ours = [(a["request_latency"]["avg"], a["output_token_throughput"]["avg"],
             row_value(a, "concurrency")) for a in aggs]
    theirs = [(row_value(a, "request_latency"), row_value(a, "output_token_throughput_per_gpu"),
               row_value(a, "concurrency")) for a in aggs]
    dominated = lambda p, pts: any(q[0] <= p[0] and q[1] >= p[1] and q[:2] != p[:2] for q in pts)
    on_ours = {p[2] for p in ours if not dominated(p, ours)}
    front = set(pareto([p[:2] for p in theirs], False, True))
    on_theirs = {c for (x, y, c) in theirs if (x, y) in front}
    said = [n for n in notes if n.startswith("frontier:")]
    t.check(bool(said) == (on_ours != on_theirs),
            "default mode: a frontier note exactly when the frontiers differ (%s vs %s)" %
            (sorted(on_ours), sorted(on_theirs)), notes)
    fig = figure(doc, "ttft_vs_throughput")
    t.check(any(n.startswith("x: each run's avg here; aiperf plot puts its p50 there (%s " %
                             duration(first["time_to_first_token"]["p50"])) for n in fig["notes"]),
            "default mode: ttft_vs_throughput says aiperf's x is the p50", fig["notes"])
    one = plot([os.path.join(QWEN, "qwen_concurrency1")], os.path.join(tmp, "default-one"))
    t.check("x: requests in start order from 1; aiperf plot numbers them in file order from 0"
            in figure(one, "ttft_over_time")["notes"],
            "default mode: ttft_over_time says how aiperf numbers requests",
            figure(one, "ttft_over_time")["notes"])
    t.check(any(n.startswith("GPU utilisation per GPU (by UUID)")
                for n in figure(one, "gpu_utilization_and_throughput_over_time")["notes"]),
            "default mode: the dual-axis figure says how aiperf averages telemetry")


def check_server_metrics_schema(t):
    """aiperf's ServerMetricsSummary requires endpoints_configured, endpoints_successful,
    start_time and end_time (datetimes): the bundled synthetic server metrics have them."""
    for dirpath, _, files in os.walk(os.path.join(SAMPLES, "aiperf")):
        if "server_metrics_export.json" not in files:
            continue
        with open(os.path.join(dirpath, "server_metrics_export.json")) as f:
            s = json.load(f)["summary"]
        ok = (isinstance(s.get("endpoints_configured"), list) and
              isinstance(s.get("endpoints_successful"), list))
        try:
            a = datetime.datetime.fromisoformat(s["start_time"])
            b = datetime.datetime.fromisoformat(s["end_time"])
            ok = ok and a < b
        except (KeyError, ValueError, TypeError):
            ok = False
        t.check(ok, "%s: server metrics summary as aiperf's schema has it" %
                os.path.relpath(dirpath, SAMPLES), s)


SERVER_JSON = os.path.join(DATA, "aiperf-docs", "server-json", "server_metrics_export.json")
HIST = "dynamo_component_request_duration_seconds"
GAUGE = "dynamo_component_inflight_requests"
COUNTER = "dynamo_component_request_bytes"
PREFILL = "{dynamo_component=prefill,dynamo_endpoint=generate,model=Qwen/Qwen3-0.6B}"
BACKEND = "{dynamo_component=backend,dynamo_endpoint=generate,model=Qwen/Qwen3-0.6B}"


def labels_json(labels):
    """orjson.dumps (labels, option=OPT_SORT_KEYS): compact, keys sorted."""
    return json.dumps(labels, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def server_rows(doc, metric, labels=None):
    """ServerMetricsLoaderMixin._collect_server_metrics_json / _timeslice_to_row (a series'
    windows: timestamp_ns (start + end) // 2; a gauge's and a histogram's avg, a counter's
    rate), then filter_server_metrics_dataframe (the exact name, labels_json equal to the
    filter's) with timestamp_s from the earliest row."""
    m = doc["metrics"][metric]
    rows = []
    for sr in m["series"]:
        key = labels_json(sr["labels"]) if sr.get("labels") else "{}"
        if labels is not None and key != labels_json(labels):
            continue
        for ts in sr.get("timeslices") or []:
            v = ts.get("rate") if m["type"] == "counter" else ts.get("avg")
            rows.append(((ts["start_ns"] + ts["end_ns"]) // 2, v))
    t0 = min(t for t, _ in rows)
    return [(t - t0) / 1e9 for t, _ in rows], [v for _, v in rows]


def prometheus_quantile(q, buckets, total):
    """histogram_percentiles._prometheus_quantile: the rank q · total in the first bucket
    whose cumulative count reaches it, placed linearly from the bound below (0 below the
    first); in +Inf, the last finite bound."""
    keys = sorted(buckets, key=lambda k: math.inf if k == "+Inf" else float(k))
    rank, prev_bound, prev_count = q * total, 0.0, 0.0
    for k in keys:
        if k == "+Inf":
            return prev_bound
        if buckets[k] >= rank:
            n = buckets[k] - prev_count
            return prev_bound if n == 0 else prev_bound + (float(k) - prev_bound) * (rank - prev_count) / n
        prev_bound, prev_count = float(k), buckets[k]
    return prev_bound


def band_rows(doc, metric, labels):
    """PercentileBandsHandler._resolve_series_data (the first endpoint's series whose
    labels_json is the filter's) and _build_percentile_rows: each window at
    (start_ns + end_ns) / 2 / 1e9; a histogram's p50/p95/p99 from its buckets, a gauge's
    avg, max, max and min (p05)."""
    m = doc["metrics"][metric]
    sr = [x for x in m["series"] if labels_json(x["labels"]) == labels_json(labels)][0]
    rows = []
    for ts in sr["timeslices"]:
        x = (ts["start_ns"] + ts["end_ns"]) / 2 / 1e9
        if m["type"] == "histogram":
            rows.append((x, *(prometheus_quantile(q, ts["buckets"], ts["count"])
                              for q in (0.50, 0.95, 0.99)), None))
        else:
            rows.append((x, ts["avg"], ts["max"], ts["max"], ts["min"]))
    return rows


def with_server_json(tmp):
    """qwen_concurrency1 with the server metrics of aiperf's documentation
    (tests/data/aiperf-docs), and a configuration of server-metric plots."""
    run = os.path.join(tmp, "server-json-run")
    shutil.copytree(os.path.join(QWEN, "qwen_concurrency1"), run)
    shutil.copy(SERVER_JSON, run)
    cfg = os.path.join(tmp, "server-plots.yaml")
    with open(cfg, "w") as f:
        f.write("visualization:\n"
                "  single_run_defaults: [hist_bands, gauge_bands, partial_bands, dual, sc, ar,"
                " ar_filtered, swp]\n"
                "  single_run_plots:\n"
                "    hist_bands: {type: percentile_bands, y: \"%s%s\"}\n"
                "    gauge_bands: {type: percentile_bands, y: \"%s%s\"}\n"
                "    partial_bands: {type: percentile_bands, y: \"%s{dynamo_component=backend}\"}\n"
                "    dual: {type: dual_axis, x: timestamp_s, y: throughput_tokens_per_sec,\n"
                "           y2: %s}\n"
                "    sc: {type: scatter, x: timestamp_s, y: %s, source: server_metrics}\n"
                "    ar: {type: area, x: timestamp_s, y: %s, source: server_metrics}\n"
                "    ar_filtered: {type: area, x: timestamp_s, y: \"%s%s\"}\n"
                "    swp: {type: scatter_with_percentiles, x: timestamp_s, y: %s,"
                " source: server_metrics}\n"
                % (HIST, PREFILL, GAUGE, BACKEND, GAUGE, GAUGE, COUNTER, GAUGE, GAUGE, BACKEND,
                   GAUGE))
    return run, cfg


def check_server_metrics_plots(t, tmp):
    run, cfg = with_server_json(tmp)
    with open(SERVER_JSON) as f:
        doc = json.load(f)
    out = plot([run], os.path.join(tmp, "server-out"), "--aiperf-compatible", "--config", cfg)
    fig = figure(out, "dual")
    xs, ys = server_rows(doc, GAUGE)
    s = series(fig, "Dynamo Component Inflight Requests")
    t.check(s["y2"] and same_list(s["x"], xs) and same_list(s["y"], ys),
            "dual axis, server metric on y2: the JSON's windows at (start + end) // 2, seconds "
            "from the earliest (_timeslice_to_row, filter_server_metrics_dataframe)",
            json.dumps(s) + "\n" + str((xs, ys)))
    for preset, metric, labels in (("hist_bands", HIST, PREFILL), ("gauge_bands", GAUGE, BACKEND)):
        want = band_rows(doc, metric, dict(kv.split("=", 1) for kv in labels[1:-1].split(",")))
        x = [r[0] for r in want]
        fig = figure(out, preset)
        hi, mid = series(fig, "p95-p99 band"), series(fig, "p50-p95 band")
        line = series(fig, "p50 (median)")
        ok = (same_list(hi["x"], x) and same_list(hi["lo"], [r[2] for r in want]) and
              same_list(hi["hi"], [r[3] for r in want]) and
              same_list(mid["lo"], [r[1] for r in want]) and same_list(line["y"], [r[1] for r in want]))
        # the legend of create_percentile_bands' traces: the p50 line's fill has none
        legend = [x["name"] for x in fig["figure"]["series"] if x.get("in_legend", True)]
        ok = ok and legend == ["p95-p99 band", "p50 (median)"] + (["p05-p50 band"] if metric == GAUGE else [])
        if metric == GAUGE:
            low = series(fig, "p05-p50 band")
            ok = ok and same_list(low["lo"], [r[4] for r in want]) and same_list(low["hi"], [r[1] for r in want])
        t.check(ok, "%s: percentile bands as PercentileBandsHandler makes them" % preset,
                json.dumps(fig["figure"]["series"])[:1500] + "\n" + str(want))
    # ScatterHandler: every row of the frame as markers, "<metric> Raw Data Points Over
    # Time", y "<metric> (<unit>)"; AreaHandler: one hv line of the bare name's column,
    # title and label from get_metric_display_name (str.title ()); a filtered name has no
    # such column and fails
    fig = figure(out, "sc")
    xs, ys = server_rows(doc, COUNTER)
    s = series(fig, "%s (bytes)" % COUNTER)
    t.check(fig["figure"]["title"] == "%s Raw Data Points Over Time" % COUNTER and
            same_list(s["x"], xs) and same_list(s["y"], ys),
            "scatter of a server metric: the frame's rows (ScatterHandler)", json.dumps(fig)[:1500])
    fig = figure(out, "ar")
    xs, ys = server_rows(doc, GAUGE)
    name = GAUGE.replace("_", " ").title()
    s = series(fig, name)
    t.check(fig["figure"]["title"] == name + " Over Time" and
            same_list(s["x"][1::2], xs) and same_list(s["y"][1::2], ys),
            "area of a server metric: its column as steps (AreaHandler, create_time_series_area)",
            json.dumps(fig)[:1500])
    t.check(figure(out, "swp")["skipped"] is not None,
            "scatter_with_percentiles of a server metric: ScatterWithPercentilesHandler reads "
            "the requests only, aiperf plot fails", figure(out, "swp"))
    t.check(figure(out, "ar_filtered")["skipped"] is not None,
            "area of a filtered server metric: no column of that name, aiperf plot fails",
            figure(out, "ar_filtered"))
    # a run with the JSONL's scrapes and a JSON without windows: Inferview draws the
    # scrapes and says aiperf plot draws nothing (its frame is the Parquet file, else the
    # JSON's windows: _collect_server_metrics_json)
    scraped = os.path.join(tmp, "scraped-run")
    shutil.copytree(os.path.join(SAMPLES, "aiperf", "qwen_concurrency2"), scraped,
                    ignore=shutil.ignore_patterns("qwen_concurrency4"))
    kv_cfg = os.path.join(tmp, "kv.yaml")
    with open(kv_cfg, "w") as f:
        f.write("visualization:\n  single_run_defaults: [kv]\n  single_run_plots:\n"
                "    kv: {type: scatter, x: timestamp_s, y: \"vllm:kv_cache_usage_perc\"}\n")
    kv = figure(plot([scraped], os.path.join(tmp, "kv-out"), "--config", kv_cfg), "kv")
    t.check(kv["skipped"] is None and
            any(n.startswith("“vllm:kv_cache_usage_perc”: aiperf plot draws nothing — ")
                and "has no windows in server_metrics_export.json" in n for n in kv["notes"]),
            "default mode: a server metric scraped in the JSONL, which aiperf plot never reads",
            kv["notes"])
    t.check(figure(out, "partial_bands")["skipped"] is not None,
            "percentile bands: a filter naming some of a series' labels finds nothing in aiperf "
            "plot (_resolve_series_data)", figure(out, "partial_bands"))
    ours = plot([run], os.path.join(tmp, "server-out-default"), "--config", cfg)
    t.check(figure(ours, "partial_bands")["skipped"] is None,
            "percentile bands, default mode: a filter keeps the series that have those labels")
    notes = figure(ours, "partial_bands")["notes"]
    t.check(any(n.startswith("aiperf plot draws no bands: labels {\"dynamo_component\":\"backend\"}")
                for n in notes), "default mode: the bands' note says aiperf plot draws none", notes)


def check_log_appended(t, tmp):
    """aiperf's setup_plot_logging opens aiperf_plot.log with logging.FileHandler, whose
    mode is "a": a second plot into one folder adds its lines after the first's, and a
    line already there stays whole."""
    out = os.path.join(tmp, "log-out")
    run = os.path.join(QWEN, "qwen_concurrency1")
    os.makedirs(out)
    log = os.path.join(out, "aiperf_plot.log")
    with open(log, "w") as f:
        f.write("2025-01-01 00:00:00 - aiperf.plot - INFO - an earlier run")
    plot([run], out)
    plot([run], out, "--verbose")
    with open(log) as f:
        lines = f.read().splitlines()
    starts = [i for i, l in enumerate(lines) if l.endswith("INFO - Using config: built-in")]
    t.check(lines[0] == "2025-01-01 00:00:00 - aiperf.plot - INFO - an earlier run" and
            len(starts) == 2 and starts[0] == 1 and
            any(" - DEBUG - " in l for l in lines[starts[1]:]) and
            not any(" - DEBUG - " in l for l in lines[:starts[1]]),
            "aiperf_plot.log: each plot's lines appended after the last's", "\n".join(lines[:12]))


def main():
    t = Tap()
    if not BINARY or not os.path.isdir(QWEN):
        print("1..0 # SKIP IV_BINARY or tests/data/aiperf missing")
        return 0
    tmp = tempfile.mkdtemp(prefix="iv-aiperf-compat-")
    try:
        for check in (check_multi_run, check_uncertainty_trials, check_run_set, check_single_run,
                      check_timeslices, check_default_notes, check_server_metrics_plots,
                      check_log_appended):
            try:
                check(t, tmp)
            except Exception as e:  # a crash of one check is its failure, the rest go on
                t.check(False, "%s ran" % check.__name__, repr(e))
        check_server_metrics_schema(t)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
