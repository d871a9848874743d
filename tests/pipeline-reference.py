#!/usr/bin/env python3
"""What the reference script (tests/data/reference/pipelined_timeline_reference.py) draws
for a pipelined file, as the JSON `inferview trace FILE --pipeline-json` prints: the
script's own functions are run, with matplotlib and seaborn stubbed out (only their
drawing needs them), so the oracle is the reference itself, not a re-reading of it.

usage: pipeline-reference.py REFERENCE.py TRACE.json [START] [BREAKDOWN.json]"""
import importlib.util
import json
import sys
import types


def stub_modules():
    class Anything:
        def __init__(self, *a, **k):
            pass

        def __call__(self, *a, **k):
            return Anything()

        def __getattr__(self, name):
            return Anything()

    mpl = types.ModuleType("matplotlib")
    pyplot = types.ModuleType("matplotlib.pyplot")
    pyplot.rcParams = {"axes.labelsize": 12, "xtick.labelsize": 10}
    for name in ("figure", "subplots", "close", "Rectangle", "tight_layout", "savefig"):
        setattr(pyplot, name, Anything())
    gridspec = types.ModuleType("matplotlib.gridspec")
    gridspec.GridSpec = Anything
    lines = types.ModuleType("matplotlib.lines")
    lines.Line2D = Anything
    patches = types.ModuleType("matplotlib.patches")
    patches.Polygon = Anything
    seaborn = types.ModuleType("seaborn")
    seaborn.set_context = seaborn.set_style = lambda *a, **k: None
    mpl.pyplot, mpl.gridspec, mpl.lines, mpl.patches = pyplot, gridspec, lines, patches
    sys.modules.update({"matplotlib": mpl, "matplotlib.pyplot": pyplot, "matplotlib.gridspec": gridspec,
                        "matplotlib.lines": lines, "matplotlib.patches": patches, "seaborn": seaborn})


def load_reference(path):
    stub_modules()
    spec = importlib.util.spec_from_file_location("reference", path)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    return ref


def manual(ref, data, start, breakdown):
    """The data plot_manual_timeline draws, step by step as it computes it."""
    events = data.get("events", [])
    if start is None:
        start = data.get("start_candidate", data.get("timeline_record_from", data.get("focus_candidate", 0)))
    filtered = ref._events_for_plot(events, start, None)
    if not filtered:
        return None
    plot_events = ref._build_plot_events(filtered, events, start)
    present = {e["lane"] for e in plot_events}
    lanes = [lane for lane in ref.BASE_LANE_ORDER if lane in present]
    plot_start, plot_end = ref._plot_window_bounds(plot_events, start, None)
    visible = [e for e in plot_events if e["start_ms"] + e["dur_ms"] >= plot_start and e["start_ms"] <= plot_end]
    bars = []
    for event in visible:
        lane = event["lane"]
        end_ms = event["start_ms"] + event["dur_ms"]
        bar_start, bar_end = max(event["start_ms"], plot_start), min(end_ms, plot_end)
        if bar_end <= bar_start:
            continue
        width = bar_end - bar_start
        cut_left = event["start_ms"] < plot_start - ref.EDGE_CLIP_EPS_MS
        cut_right = end_ms > plot_end + ref.EDGE_CLIP_EPS_MS
        candidate = event.get("candidate")
        label_ok = False
        if candidate is not None and width >= ref.CANDIDATE_LABEL_MIN_MS:
            if lane == "io" and (cut_left or cut_right):
                label_ok = False
            elif candidate >= start:
                label_ok = True
            elif lane.startswith("gpu") and cut_left:
                label_ok = True
        bars.append({"lane": lane, "name": event["name"], "candidate": candidate, "start_ms": event["start_ms"],
                     "end_ms": end_ms, "cut_left": cut_left, "cut_right": cut_right,
                     "label": ref._candidate_label(candidate) if label_ok else None})
    legend = legend_labels(ref, visible)
    out = {"format": "manual", "start_candidate": start, "window": {"start_ms": plot_start, "end_ms": plot_end},
           "lanes": lanes, "bars": bars, "legend": legend, "breakdown": None}
    if breakdown is not None and breakdown.get("gpu_ms"):
        rows = ref._breakdown_rows(breakdown, 0)
        segments = []
        for _, labels, values, _colors in rows:
            widths = ref._display_bar_widths(values)
            for label, value, width in zip(labels, values, widths):
                segments.append({"label": label, "percent": value, "width_percent": width})
        out["breakdown"] = {"candidate": breakdown.get("candidate"), "segments": segments}
    return out


def legend_labels(ref, visible):
    """_legend_handles builds matplotlib handles; the labels are its texts, in its order."""
    seen = {e.get("name") for e in visible if e.get("lane") == "main"}
    labels = []
    for name in ("trsm_host", "wait_for_io", "await_dispatch"):
        if name in seen:
            labels.append(ref.MAIN_LABELS[name])
    return labels + ["HDF5 read", "GPU compute"]


def main():
    ref = load_reference(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        data = json.load(f)
    start = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "-" else None
    breakdown = None
    if len(sys.argv) > 4:
        with open(sys.argv[4], encoding="utf-8") as f:
            breakdown = json.load(f)
    print(json.dumps(manual(ref, data, start, breakdown)))


if __name__ == "__main__":
    main()
