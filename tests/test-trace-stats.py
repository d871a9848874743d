#!/usr/bin/env python3
"""Issue 28's "Done when": `inferview trace FILE --stats --json` against an independent
decimal parse written here, on every public trace under tests/data/traces (the project's
sample traces and HolisticTraceAnalysis', Perfetto's and catapult's test data; their origin
in tests/data/ATTRIBUTION.md). Compared, exactly:

- per name and row kind (cpu / gpu / annotation / sync / gpu_other): the count of the
  slices that ended and the sum of their durations as recorded;
- per GPU stream (pid, tid): how many kernels, copies and sets it ran, and the union of
  their intervals;
- the spans that did not end, by name and row kind;

and the same over the middle third of each trace (`--from`/`--to`: the slices that
intersect the range, their durations cut to it, as Perfetto's area selection).

The parse follows the rules of docs/formats.md §2, restated below where they are used,
with the file's decimal text turned into nanoseconds by Python's Decimal (never a
double). Then the two figures the issue quotes: HTA's nccl_data.json.gz, stream 7: 3,753
kernels whose union is 118.3 ms; catapult's multiple_input_latency.json: 869 closed
InputLatency pairs summing to 4.34 s. Prints TAP."""
import collections
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import check, finish  # noqa: E402

BINARY = os.environ.get("IV_BINARY", "inferview")
DATA = os.environ.get("IV_TEST_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
TIME_MAX = 1 << 62  # every time lies within ±2^62 ns (iv-trace.h, IV_TRACE_TIME_MAX)
NAME_MAX = 65536  # names and categories are kept whole up to 64 KiB

# GPU work: a list of kernels, copies, sets (Kineto's categories, the 2021 schema's too)
WORK = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset", "cuda_profiler_range", "mtia_ccp_events"}
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")


# ---------- reading ----------

def events_of(path):
    """The event objects, as Python reads them (numbers with a fraction as Decimal, so no
    double ever holds a timestamp). A file cut short keeps its complete events, as the
    loader does; one Python cannot read at all (a trailing comma inside an object) is
    None."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8-sig", errors="replace")
    try:
        doc = json.loads(text, parse_float=Decimal, strict=False)
        events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []
    except ValueError:
        pass
    # Perfetto reads past a trailing comma before a '}' or ']', and so does the loader
    text = without_trailing_commas(text)
    try:
        doc = json.loads(text, parse_float=Decimal, strict=False)
        events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []
    except ValueError:
        pass
    # damaged or cut short: the events of the array one by one, up to the damage
    decoder = json.JSONDecoder(parse_float=Decimal, strict=False)
    start = text.find("[", text.find("traceEvents") if "traceEvents" in text else 0)
    if start < 0:
        return None
    pos, events = start + 1, []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            break
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError:
            break
        if isinstance(value, dict):
            events.append(value)
    return events


def without_trailing_commas(text):
    """@text with each comma that only whitespace separates from a '}' or ']' (outside
    strings) taken out."""
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j >= n or text[j] not in "}]":
                out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def key_text(v):
    """A pid or tid as the loader keys it: a string as it is, a number as written."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, Decimal)):
        return str(v)
    return None


def ns_of(v):
    """µs as written → ns, rounded to the nearest (halves away from zero), as the loader
    parses the text; None when it is not a usable time. A string must hold a whole JSON
    number ("100", not "100a")."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, str):
        if not NUMBER.match(v):
            return None
        v = Decimal(v)
    if isinstance(v, int):
        v = Decimal(v)
    if not isinstance(v, Decimal):
        return None
    try:
        ns = int((v * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    except InvalidOperation:
        return None
    return ns if abs(ns) < TIME_MAX - 1000 else None


def text_of(v):
    """A name or category: the string (up to a NUL, as C keeps it), a number as written,
    "" for anything else."""
    if isinstance(v, (int, Decimal)) and not isinstance(v, bool):
        return str(v)
    if not isinstance(v, str):
        return ""
    return v.split("\0")[0][:NAME_MAX]


# ---------- the independent model ----------

class Model:
    def __init__(self):
        self.slices = []  # (track, name, cat, start_ns, dur_ns, open)
        self.thread_names = {}  # (pid, tid) → name
        self.process_names = {}  # pid → name
        self.process_labels = {}


def parse(events):
    m = Model()
    edges = []  # B/E: (track, ts, seq, ph, name, cat)
    async_edges = []  # b/e: (key, ts, seq, ph, name, cat, track)
    end = None  # the trace's extent, for what did not end (only counted here)
    for seq, e in enumerate(events):
        ph = e.get("ph")
        ph = ph[:1] if isinstance(ph, str) else ""
        pid = key_text(e.get("pid"))
        tid = key_text(e.get("tid"))
        if tid is None and pid is not None:
            tid = pid  # an event without tid is on its process's main thread
        pid = "0" if pid is None else pid
        tid = "0" if tid is None else tid
        name, cat = text_of(e.get("name")), text_of(e.get("cat"))
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        if ph == "M":
            v = args.get("name")
            if name == "thread_name" and isinstance(v, str):
                m.thread_names[(pid, tid)] = v
            elif name == "process_name" and isinstance(v, str):
                m.process_names[pid] = v
            elif name == "process_labels" and isinstance(args.get("labels"), str):
                m.process_labels[pid] = args["labels"]
            continue
        ts = ns_of(e.get("ts"))
        if ts is None:
            continue
        has_dur = "dur" in e
        dur = ns_of(e.get("dur")) if has_dur else None
        if has_dur and dur is None:
            continue  # a dur that is not a number fails the event
        ph = {"S": "b", "F": "e", "T": "n", "p": "n"}.get(ph, ph)
        if ph == "X":
            if dur is None:
                continue  # an X without dur is skipped
            dur = min(max(dur, 0), TIME_MAX - ts)
            m.slices.append(((pid, tid, "thread"), name, cat, ts, dur, False))
        elif ph in ("B", "E"):
            edges.append(((pid, tid, "thread"), ts, seq, ph, name, cat))
        elif ph in ("b", "e"):
            ident = e.get("id")
            id2 = e.get("id2") if isinstance(e.get("id2"), dict) else None
            if ident is None and id2:
                if "local" in id2:
                    ident = "%s\x1elocal\x1e%s" % (pid, key_text(id2["local"]))
                elif "global" in id2:
                    ident = key_text(id2["global"])
            else:
                ident = key_text(ident) if ident is not None else None
            if ident is None or e.get("pid") is None:
                continue  # async events need an id and a pid
            async_edges.append(((cat, name, ident), ts, seq, ph, name, cat, (pid, name, "async")))
        # the extent, for spans left open
        for t in (ts, ts + (dur or 0) if ph == "X" else ts):
            end = t if end is None else max(end, t)
    # B/E per thread in time order: an E closes the innermost open B of its name and
    # category (a nameless E any name, an E without category any category); the B's still
    # open above it end with it; an E closing nothing is dropped; what is left did not end
    edges.sort(key=lambda x: (x[0], x[1], x[2]))
    for track, group in group_by(edges, lambda x: x[0]):
        stack = []
        for _, ts, _, ph, name, cat in group:
            if ph == "B":
                stack.append((ts, name, cat))
                continue
            k = len(stack)
            while k > 0 and not ((name == "" or name == stack[k - 1][1]) and (cat == "" or cat == stack[k - 1][2])):
                k -= 1
            if k == 0:
                continue
            while len(stack) >= k:
                bts, bname, bcat = stack.pop()
                m.slices.append((track, bname, bcat, bts, ts - bts, False))
        for bts, bname, bcat in stack:
            m.slices.append((track, bname, bcat, bts, max(end - bts, 0), True))
    # async spans by category, name and id, in time order: an e closes the last b
    async_edges.sort(key=lambda x: (x[0], x[1], x[2]))
    for key, group in group_by(async_edges, lambda x: x[0]):
        stack = []
        for _, ts, _, ph, name, cat, track in group:
            if ph == "b":
                stack.append((ts, name, cat, track))
            elif stack:
                bts, bname, bcat, btrack = stack.pop()
                m.slices.append((btrack, bname or name, bcat or cat, bts, ts - bts, False))
        for bts, bname, bcat, btrack in stack:
            m.slices.append((btrack, bname, bcat, bts, max(end - bts, 0), True))
    return m


def group_by(items, key):
    out, cur, k0 = [], [], object()
    for it in items:
        k = key(it)
        if k != k0 and cur:
            out.append((k0, cur))
            cur = []
        k0 = k
        cur.append(it)
    if cur:
        out.append((k0, cur))
    return out


def gpu_tracks(m):
    """Thread tracks that are GPU streams: by their slices' categories (work, annotation,
    sync, and nothing else), else by the naming metadata ("stream N" threads; unnamed
    numbered threads of a "GPU N" process)."""
    threads = set()
    other = set()
    for track, name, cat, *_ in m.slices:
        if track[2] != "thread":
            continue
        threads.add(track)
        c = cat.lower()
        if not (c in WORK or c in ("gpu_user_annotation", "cuda_sync")):
            other.add(track)
    gpu = threads - other
    for track in threads - gpu:
        pid, tid, _ = track
        tname = m.thread_names.get((pid, tid))
        pname = m.process_labels.get(pid) if str(m.process_labels.get(pid, "")).startswith("GPU ") \
            else m.process_names.get(pid)
        device = bool(pname) and (pname.startswith("GPU ") or pname.startswith("gpu ")) \
            and pname[4:].lstrip("-").isdigit() and pname[4:].replace("-", "").isdigit()
        if (tname if tname is not None else tid).startswith("stream ") \
                or (device and tname is None and tid.lstrip("-").isdigit()):
            gpu.add(track)
    return gpu


def kind_of(track, cat, gpu):
    if track not in gpu:
        return "cpu"
    c = cat.lower()
    if c in WORK:
        return "gpu"
    return {"gpu_user_annotation": "annotation", "cuda_sync": "sync"}.get(c, "gpu_other")


def union(spans):
    total, lo, hi = 0, None, None
    for s, e in sorted(spans):
        if e <= s:
            continue
        if hi is None or s > hi:
            if hi is not None:
                total += hi - lo
            lo, hi = s, e
        else:
            hi = max(hi, e)
    return total + (hi - lo if hi is not None else 0)


def expected(m, t0=None, t1=None, end=None):
    """What --stats must say; with a range [t0, t1) (and the trace's @end, where what did
    not end is drawn to), of the slices that intersect it, their durations cut to it."""
    gpu = gpu_tracks(m)
    by_name = collections.defaultdict(lambda: [0, 0])
    opened = collections.Counter()
    streams = collections.defaultdict(list)
    for track, name, cat, start, dur, is_open in m.slices:
        kind = kind_of(track, cat, gpu)
        stop = end if is_open and end is not None else start + dur
        if t0 is not None:
            if not (start < t1 and (stop > t0 or (stop == start and start >= t0))):
                continue
            start, stop = max(start, t0), min(stop, t1)
            dur = max(stop - start, 0)
        if is_open:
            opened[(name, kind)] += 1
            continue
        by_name[(name, kind)][0] += 1
        by_name[(name, kind)][1] += dur
        if kind == "gpu":
            streams[(track[0], track[1])].append((start, start + dur))
    return ({k: tuple(v) for k, v in by_name.items()}, dict(opened),
            {k: (len(v), union(v)) for k, v in streams.items()})


def reported(doc):
    by_name = {(n["name"], n["track_kind"]): (n["count"], n["total_ns"]) for n in doc["by_name"]}
    opened = {(n["name"], n["track_kind"]): n["count"] for n in doc["open_spans"]["by_name"]}
    streams = {(s["pid"], s["tid"]): (s["kernels"], s["busy_ns"]) for s in doc.get("gpu", {}).get("streams", [])}
    return by_name, opened, streams


def differences(want, got, what):
    out = []
    for k in sorted(set(want) | set(got), key=repr):
        if want.get(k) != got.get(k):
            out.append("%s %r: parsed %r, inferview %r" % (what, k, want.get(k), got.get(k)))
    return out


def traces():
    root = os.path.join(DATA, "traces")
    for folder, _, files in sorted(os.walk(root)):
        for n in sorted(files):
            if n.endswith((".json", ".json.gz")):
                yield os.path.join(folder, n)


def stats(path, *extra):
    r = subprocess.run([BINARY, "trace", path, "--stats", "--json", *extra], capture_output=True, timeout=300)
    if r.returncode != 0:
        return None, r.stderr.decode("utf-8", "replace").strip()
    return json.loads(r.stdout), ""


def main():
    figures = {}
    for path in traces():
        rel = os.path.relpath(path, os.path.join(DATA, "traces"))
        events = events_of(path)
        doc, err = stats(path)
        if doc is None:
            # a file the loader refuses is no statistics to compare: it must also be one
            # Python finds no events in
            check(not events, "%s: refused (%s), and holds no event Python reads" % (rel, err))
            continue
        if events is None:
            check(False, "%s: Python cannot read it" % rel)
            continue
        model = parse(events)
        want = expected(model)
        got = reported(doc)
        diffs = (differences(want[0], got[0], "by_name") + differences(want[1], got[1], "open")
                 + differences(want[2], got[2], "stream"))
        n_names = len(want[0])
        n_kernels = sum(v[0] for v in want[2].values())
        check(not diffs, "%s: %d names, %d open spans, %d streams (%d kernels): %d differences"
              % (rel, n_names, sum(want[1].values()), len(want[2]), n_kernels, len(diffs)),
              "\n".join(diffs[:20]))
        figures[os.path.basename(path)] = (want, got)
        # --from/--to: the middle third of the trace, in whole ms from its start
        span_ms = (doc["end_ns"] - doc["start_ns"]) // 1000000
        if span_ms >= 3:
            lo, hi = span_ms // 3, 2 * span_ms // 3
            ranged, err = stats(path, "--from", str(lo), "--to", str(hi))
            if ranged is None:
                check(False, "%s --from %d --to %d: %s" % (rel, lo, hi, err))
                continue
            t0 = doc["start_ns"] + lo * 1000000
            want = expected(model, t0, doc["start_ns"] + hi * 1000000, doc["end_ns"])
            got = reported(ranged)
            diffs = (differences(want[0], got[0], "by_name") + differences(want[1], got[1], "open")
                     + differences(want[2], got[2], "stream"))
            check(not diffs and ranged["range"]["start_ns"] == t0,
                  "%s --from %d --to %d ms: %d names, %d streams: %d differences"
                  % (rel, lo, hi, len(want[0]), len(want[2]), len(diffs)), "\n".join(diffs[:20]))
    # the two figures, from both sides
    nccl = figures.get("kineto_hta_nccl_ddp_rank0.json.gz")
    if nccl:
        for side, (_, _, streams) in (("parsed", nccl[0]), ("inferview", nccl[1])):
            s7 = streams.get(("0", "7"))
            check(s7 == (3753, 118309345), "HTA nccl_data, stream 7 (%s): 3,753 kernels, union 118.309345 ms (%r)"
                  % (side, s7))
    else:
        check(False, "HTA's nccl_data.json.gz is in tests/data/traces")
    # --include-open: what did not end counts too, as if it ended with the trace
    path = os.path.join(DATA, "traces", "catapult_multiple_input_latency.json.gz")
    if os.path.exists(path):
        doc, err = stats(path, "--include-open")
        n = [e for e in (doc or {}).get("by_name", []) if e["name"] == "InputLatency"]
        check(n and n[0]["count"] == 902 and doc["range"]["include_open"],
              "--include-open: the 33 InputLatency spans that did not end count too (902)", err)
    mil = figures.get("catapult_multiple_input_latency.json.gz")
    if mil:
        for side, (by_name, opened, _) in (("parsed", mil[0]), ("inferview", mil[1])):
            count, total = by_name.get(("InputLatency", "cpu"), (0, 0))
            check(count == 869 and round(total / 1e9, 2) == 4.34 and opened.get(("InputLatency", "cpu")) == 33,
                  "catapult multiple_input_latency (%s): 869 closed InputLatency, 4.34 s, 33 did not end "
                  "(%d, %.4f s, %r)" % (side, count, total / 1e9, opened.get(("InputLatency", "cpu"))))
    else:
        check(False, "catapult's multiple_input_latency.json is in tests/data/traces")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
