#!/usr/bin/env python3
"""Issue 35's "Done when": `inferview query` against computations made here.

- Per name over every public trace (tests/data/traces, data/samples/traces): the count of
  slices, the sum of the durations of those that ended and the number that did not, from
  `SELECT name, count(*), ... FROM slice GROUP BY name`, against the independent parse of
  tests/test-trace-stats.py (its Model, with Decimal times) plus the instants (Perfetto's
  JSON importer makes them slices of no duration).
- Perfetto's documentation examples (docs/analysis/perfetto-sql-getting-started.md) and
  queries of its own test suite (test/trace_processor/...), run unchanged on a trace
  written here, whose every answer this script knows from what it wrote.
- AIPerf runs: TTFT p99 per run and per ISL bucket of the sample sweep from `percentile()`
  against a p99 computed here from each run's profile_export.jsonl (linear interpolation
  between closest ranks, as AIPerf and numpy compute it).
- Read-only: ATTACH, load_extension, CREATE TABLE, INSERT, PRAGMA writes refused, naming
  the line and column, and no file appears; a query past --time-limit stops.
- The output formats: CSV (read back with Python's csv) and table agree with JSON; an
  error in a --file names the file, the line and the column.

Prints TAP."""
import csv
import importlib.util
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

BINARY = os.environ.get("IV_BINARY", "inferview")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("IV_TEST_DATA", os.path.join(HERE, "data"))
SAMPLES = os.environ.get("IV_SAMPLES_DIR", os.path.join(HERE, "..", "data", "samples"))
results = []


def check(ok, what, detail=""):
    results.append((bool(ok), what, detail))


def query(paths, sql=None, fmt="json", extra=(), timeout=300, env=None):
    args = [BINARY, "query", *paths]
    if sql is not None:
        args.append(sql)
    args += ["--format", fmt, *extra]
    r = subprocess.run(args, capture_output=True, timeout=timeout,
                       env=dict(os.environ, **env) if env else None)
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace").strip()
    if r.returncode == 0 and fmt == "json":
        return r.returncode, (json.loads(out) if out.strip() else []), err
    return r.returncode, out, err


# ---------- per name, on every public trace ----------

def load_stats_model():
    spec = importlib.util.spec_from_file_location("trace_stats", os.path.join(HERE, "test-trace-stats.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def expected_by_name(mod, path):
    events = mod.events_of(path)
    if events is None:
        return None
    m = mod.parse(events)
    want = {}
    for _track, name, _cat, _ts, dur, is_open in m.slices:
        n, total, opened = want.get(name, (0, 0, 0))
        want[name] = (n + 1, total + (0 if is_open else dur), opened + (1 if is_open else 0))
    # instants, whatever their scope, and async instants and steps (n; the legacy T and p
    # read as n) of a span with an id and a pid: a slice of no duration each, as
    # Perfetto's JSON importer makes them
    for e in events:
        ph = e.get("ph")
        ph = ph[:1] if isinstance(ph, str) else ""
        if mod.ns_of(e.get("ts")) is None:
            continue
        id2 = e.get("id2") if isinstance(e.get("id2"), dict) else {}
        has_id = e.get("id") is not None or "local" in id2 or "global" in id2
        if ph in ("i", "I", "R") or (ph in ("n", "T", "p") and has_id and e.get("pid") is not None):
            name = mod.text_of(e.get("name"))
            n, total, opened = want.get(name, (0, 0, 0))
            want[name] = (n + 1, total, opened)
    return want


def is_chrome(path):
    opener = __import__("gzip").open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    return "traceEvents" in head or head.lstrip().startswith("[")


def test_by_name():
    mod = load_stats_model()
    paths = []
    for root in (os.path.join(DATA, "traces"), os.path.join(SAMPLES, "traces")):
        for folder, _, files in sorted(os.walk(root)):
            for n in sorted(files):
                if n.endswith((".json", ".json.gz")):
                    paths.append(os.path.join(folder, n))
    sql = ("SELECT name, count(*) AS n, sum(CASE WHEN dur > 0 THEN dur ELSE 0 END) AS total, "
           "sum(dur = -1) AS open FROM slice GROUP BY name")
    tried = 0
    for path in paths:
        if not is_chrome(path):
            continue
        want = expected_by_name(mod, path)
        if want is None:
            continue
        tried += 1
        # the native GROUP BY (docs/queries.md, Accelerated GROUP BY) and SQLite's general
        # path print the same JSON, byte for byte
        for fast_sql in ("SELECT name, count(*) AS n, sum(dur), min(dur), max(dur), avg(dur), "
                         "total(dur) AS t, count(category) FROM slice GROUP BY name "
                         "ORDER BY t DESC",
                         "SELECT track_id, max(depth) AS d, count(*) FROM slice WHERE dur > 0 "
                         "GROUP BY track_id ORDER BY 3 DESC LIMIT 5",
                         "SELECT category, avg(dur) FROM slice GROUP BY category"):
            fast = query([path], fast_sql, fmt="csv")
            general = query([path], fast_sql, fmt="csv", env={"IV_QUERY_NO_FAST": "1"})
            check(fast[0] == 0 and fast == general,
                  "native GROUP BY as the general path: %s: %s" % (os.path.basename(path), fast_sql),
                  "%r vs %r" % (fast[1][:300], general[1][:300]))
        rc, rows, err = query([path], sql)
        if rc != 0:
            check(False, "by name: %s" % os.path.basename(path), err)
            continue
        got = {r["name"]: (r["n"], r["total"], r["open"]) for r in rows}
        # Kineto's allocator instants ("[memory]" with a byte count) may be read as a memory
        # counter rather than as instants (iv-trace-chrome.c, memory_sample): those samples
        # are not in slice, and the count expected of the instants drops by theirs
        rc, mem, err = query([path], "SELECT count(*) AS n FROM counter JOIN counter_track ON "
                             "counter.track_id = counter_track.id WHERE counter_track.name LIKE 'memory%'")
        if rc == 0 and mem[0]["n"] and "[memory]" in want:
            n, total, opened = want["[memory]"]
            want["[memory]"] = (n - mem[0]["n"], total, opened)
            if want["[memory]"][0] == 0:
                del want["[memory]"]
        diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
        check(not diff, "by name: %s (%d names, %d slices)" % (
            os.path.basename(path), len(want), sum(v[0] for v in want.values())),
            "; ".join("%r: got %s want %s" % (k, got.get(k), want.get(k)) for k in diff[:5]))
    check(tried >= 20, "by name: %d public traces compared" % tried)


# ---------- Perfetto's examples on a trace written here ----------

class Written:
    """A trace written here, with what it holds kept beside it."""

    def __init__(self):
        self.events = []
        self.slices = []  # dict: name, ts, dur, pid, tid, depth, args (ns)
        self.threads = {}  # (pid, tid) → name
        self.processes = {1: "browser", 2: "renderer"}
        self.counters = []  # (pid, perfetto name, ts, value)
        for pid, name in self.processes.items():
            self.events.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": name}})
        tids = [(1, 42), (1, 43)] + [(2, t) for t in range(10, 22)]
        for i, (pid, tid) in enumerate(tids):
            name = "main" if tid == 42 else "worker %d" % i
            self.threads[(pid, tid)] = name
            self.events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}})
        names = ["measure", "layout", "paint"]
        for i, (pid, tid) in enumerate(tids):
            for k in range(20):
                ts = 1000 + k * 100 + i  # µs
                name = names[(k + i) % 3]
                args = {"frame": k, "kind": "k%d" % (k % 4), "ratio": 0.25 * (k % 5)} if k % 2 == 0 else None
                self.add_x(pid, tid, name, ts, 60, 0, args)
                # a child inside, on depth 1
                self.add_x(pid, tid, "child" if k % 3 else "measure", ts + 10, 20, 1, None)
            # B/E pairs on the worker threads of process 2, nested two deep
            if pid == 2:
                self.events.append({"ph": "B", "name": "task", "pid": pid, "tid": tid, "ts": 5000})
                self.events.append({"ph": "B", "name": "measure", "pid": pid, "tid": tid, "ts": 5010})
                self.events.append({"ph": "E", "pid": pid, "tid": tid, "ts": 5030})
                self.events.append({"ph": "E", "pid": pid, "tid": tid, "ts": 5100})
                self.slices.append(dict(name="task", ts=5000000, dur=100000, pid=pid, tid=tid, depth=0, args=None))
                self.slices.append(dict(name="measure", ts=5010000, dur=20000, pid=pid, tid=tid, depth=1, args=None))
        # thread-scoped instants: slices of no duration on the thread's track
        for k in range(5):
            self.events.append({"ph": "i", "name": "vsync", "pid": 1, "tid": 42, "ts": 3000 + k, "s": "t"})
            self.slices.append(dict(name="vsync", ts=(3000 + k) * 1000, dur=0, pid=1, tid=42, depth=0, args=None))
        for k in range(10):
            v = {"swap": 400 * k, "rss": 10 * k}
            self.events.append({"ph": "C", "name": "mem", "pid": 1, "tid": 42, "ts": 100 * k, "args": v})
            for key, val in v.items():
                self.counters.append((1, "mem " + key, 100000 * k, val))

    def add_x(self, pid, tid, name, ts, dur, depth, args):
        e = {"ph": "X", "name": name, "cat": "c", "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if args:
            e["args"] = args
        self.events.append(e)
        self.slices.append(dict(name=name, ts=ts * 1000, dur=dur * 1000, pid=pid, tid=tid, depth=depth, args=args))


def flat_args(args):
    out = []
    for k, v in args.items():
        if isinstance(v, bool):
            out.append(("args." + k, int(v), None))
        elif isinstance(v, int):
            out.append(("args." + k, v, None))
        elif isinstance(v, str):
            out.append(("args." + k, None, v))
        else:
            out.append(("args." + k, None, None))  # reals have neither int nor string
    return out


def test_perfetto_examples(tmp):
    w = Written()
    path = os.path.join(tmp, "written.json")
    with open(path, "w") as f:
        json.dump({"traceEvents": w.events}, f)

    def run(sql):
        rc, rows, err = query([path], sql)
        if rc != 0:
            check(False, "perfetto example runs: %s" % sql.split("\n")[0], err)
            return None
        return rows

    measure_threads = {(s["pid"], s["tid"]) for s in w.slices if s["name"] == "measure"}

    # getting started, "Basic Queries"
    rows = run("SELECT ts, dur, name FROM slice LIMIT 10;")
    known = {(s["ts"], s["dur"], s["name"]) for s in w.slices}
    check(rows is not None and len(rows) == 10 and all((r["ts"], r["dur"], r["name"]) in known for r in rows),
          "perfetto docs: SELECT ts, dur, name FROM slice LIMIT 10")

    # "Getting More Context with JOINs": the utid of every measure slice's thread
    rows = run("SELECT utid\nFROM slice\nJOIN thread_track ON thread_track.id = slice.track_id\n"
               "WHERE slice.name = 'measure'")
    threads = run("SELECT utid, tid, name, upid FROM thread")
    procs = run("SELECT upid, pid, name FROM process")
    if rows is not None and threads is not None and procs is not None:
        pid_of = {p["upid"]: p["pid"] for p in procs}
        by_utid = {t["utid"]: (pid_of.get(t["upid"]), t["tid"]) for t in threads}
        want = sorted((s["pid"], s["tid"]) for s in w.slices if s["name"] == "measure")
        got = sorted(by_utid.get(r["utid"]) for r in rows)
        check(got == want, "perfetto docs: utid of measure slices (%d)" % len(want), "got %s" % got[:5])
        check(sorted((pid_of.get(t["upid"]), t["tid"], t["name"]) for t in threads)
              == sorted((p, t, n) for (p, t), n in w.threads.items()),
              "thread: tid, name and process of every thread")
        check(sorted((p["pid"], p["name"]) for p in procs) == sorted(w.processes.items()),
              "process: pid and name of every process")

    # "Thread and process tables": utid 10 (utids are dense from 0)
    rows = run("SELECT tid, name\nFROM thread\nWHERE utid = 10")
    check(rows is not None and len(rows) == 1 and (rows[0]["tid"], rows[0]["name"]) in
          {(t, n) for (_, t), n in w.threads.items()},
          "perfetto docs: SELECT tid, name FROM thread WHERE utid = 10", str(rows))

    # the threads which emitted a measure slice
    rows = run("SELECT thread.name AS thread_name\nFROM slice\n"
               "JOIN thread_track ON slice.track_id = thread_track.id\nJOIN thread USING(utid)\n"
               "WHERE slice.name = 'measure'\nGROUP BY thread_name")
    check(rows is not None and sorted(r["thread_name"] for r in rows)
          == sorted({w.threads[k] for k in measure_threads}),
          "perfetto docs: threads which emitted a measure slice")

    # the counter example, with the counter named as Perfetto's JSON importer names it
    # ("mem swap": the event's name, a space, the argument's key)
    rows = run("SELECT upid\nFROM counter\n"
               "JOIN process_counter_track ON process_counter_track.id = counter.track_id\n"
               "WHERE process_counter_track.name = 'mem swap' AND value > 1000")
    want = sum(1 for (_, n, _, v) in w.counters if n == "mem swap" and v > 1000)
    check(rows is not None and len(rows) == want and all(pid_of.get(r["upid"]) == 1 for r in rows),
          "perfetto docs: processes with a mem swap counter above 1000 (%d samples)" % want)

    # Perfetto's own tests: test/trace_processor/process_tracking/slice_with_pid_test.sql
    rows = run("SELECT s.name, dur, tid, pid FROM slice s JOIN thread_track t ON s.track_id = t.id "
               "JOIN thread USING(utid) LEFT JOIN process USING(upid);")
    check(rows is not None and sorted((r["name"], r["dur"], r["tid"], r["pid"]) for r in rows)
          == sorted((s["name"], s["dur"], s["tid"], s["pid"]) for s in w.slices),
          "perfetto tests: slice_with_pid (%d slices)" % len(w.slices))

    # test/trace_processor/atrace/sys_write_and_atrace_test.sql: a thread's slices and depths
    rows = run("SELECT slice.ts, slice.dur, slice.name, slice.depth FROM slice JOIN thread_track "
               "ON (slice.track_id = thread_track.id) JOIN thread USING (utid) WHERE tid = 42;")
    check(rows is not None and sorted((r["ts"], r["dur"], r["name"], r["depth"]) for r in rows)
          == sorted((s["ts"], s["dur"], s["name"], s["depth"]) for s in w.slices if s["tid"] == 42),
          "perfetto tests: slices of tid 42 with their depths")

    # test/trace_processor/graphics/drm_thread_track_test.sql: slices joined with their args
    rows = run("SELECT utid, ts, dur, slice.name, flat_key, int_value, string_value FROM thread_track "
               "JOIN slice ON slice.track_id = thread_track.id JOIN args ON slice.arg_set_id = "
               "args.arg_set_id ORDER BY ts;")
    want = sorted((s["ts"], s["name"], k, i, t) for s in w.slices if s["args"] for (k, i, t) in flat_args(s["args"]))
    check(rows is not None and sorted((r["ts"], r["name"], r["flat_key"], r["int_value"], r["string_value"])
                                      for r in rows) == want
          and [r["ts"] for r in rows] == sorted(r["ts"] for r in rows),
          "perfetto tests: slices joined with args, by ts (%d args)" % len(want))

    # test/trace_processor/atrace/instant_with_thread_test.sql: instants are slices of dur 0
    rows = run("SELECT thread.name AS thread_name, instant.name AS track_name, instant.ts FROM slice "
               "instant JOIN thread_track ON instant.track_id = thread_track.id JOIN thread USING(utid) "
               "WHERE dur = 0;")
    check(rows is not None and sorted((r["thread_name"], r["track_name"], r["ts"]) for r in rows)
          == sorted((w.threads[(s["pid"], s["tid"])], s["name"], s["ts"]) for s in w.slices if s["dur"] == 0),
          "perfetto tests: instants with their thread")

    # EXTRACT_ARG, as the docs use it
    rows = run("SELECT id, EXTRACT_ARG(arg_set_id, 'args.frame') AS frame, "
               "EXTRACT_ARG(arg_set_id, 'args.ratio') AS ratio FROM slice WHERE arg_set_id IS NOT NULL "
               "ORDER BY ts, id")
    want = sorted((s["ts"], s["args"]["frame"], s["args"]["ratio"]) for s in w.slices if s["args"])
    got_rows = run("SELECT ts, EXTRACT_ARG(arg_set_id, 'args.frame') AS frame, "
                   "EXTRACT_ARG(arg_set_id, 'args.ratio') AS ratio FROM slice WHERE arg_set_id IS NOT NULL")
    check(rows is not None and got_rows is not None
          and sorted((r["ts"], r["frame"], r["ratio"]) for r in got_rows) == want,
          "EXTRACT_ARG of an int and a real argument (%d slices)" % len(want))

    # the docs' CREATE VIEW, then a query over it
    rows = run("CREATE VIEW interesting_slices AS\nSELECT id, ts, dur, track_id\n"
               "FROM slice WHERE name LIKE \"%measure%\";\nSELECT count(*) AS n FROM interesting_slices")
    check(rows is not None and rows[0]["n"] == sum(1 for s in w.slices if "measure" in s["name"]),
          "perfetto docs: CREATE VIEW interesting_slices, then a query over it")

    # the docs' ancestor_slice example: the top-level slice of each slice of interest
    rows = run("CREATE VIEW interesting_slices AS\nSELECT id, ts, dur, track_id\n"
               "FROM slice WHERE name LIKE \"%child%\";\n\nSELECT\n  *\nFROM\n"
               "  interesting_slices LEFT JOIN\n"
               "  ancestor_slice(interesting_slices.id) AS ancestor ON ancestor.depth = 0")
    children = [s for s in w.slices if "child" in s["name"]]
    # a row: the child's id, ts, dur, track_id, then its ancestor's columns (id:1, ts:1, …)
    check(rows is not None and len(rows) == len(children)
          and all(r["ts:1"] == r["ts"] - 10000 and r["depth"] == 0 and r["name"] != "child" for r in rows),
          "perfetto docs: interesting_slices LEFT JOIN ancestor_slice (%d)" % len(children),
          str(rows[:2]) if rows else "")
    # descendant_slice: each top-level slice holds one child; task holds measure
    rows = run("SELECT s.name, s.depth, (SELECT COUNT(*) FROM descendant_slice(s.id)) AS total_descendants "
               "FROM slice s WHERE s.dur > 0")
    check(rows is not None and len(rows) == sum(1 for s in w.slices if s["dur"] > 0)
          and all(r["total_descendants"] == (1 if r["depth"] == 0 else 0) for r in rows),
          "perfetto docs: COUNT(*) FROM descendant_slice(id) of every slice")

    # a time range (the index's path) against the slices written
    lo, hi = 1_500_000, 2_300_000
    rows = run("SELECT count(*) AS n, sum(dur) AS total FROM slice WHERE ts >= %d AND ts < %d" % (lo, hi))
    inside = [s for s in w.slices if lo <= s["ts"] < hi]
    check(rows is not None and rows[0]["n"] == len(inside) and rows[0]["total"] == sum(s["dur"] for s in inside),
          "a ts range: count and total of the slices starting in it (%d)" % len(inside))


# ---------- AIPerf runs ----------

def p99(values):
    v = sorted(values)
    ix = 0.99 * (len(v) - 1)
    lo = math.floor(ix)
    return v[lo] if lo + 1 >= len(v) else v[lo] + (v[lo + 1] - v[lo]) * (ix - lo)


def records_of(folder):
    """TTFT (ms) and ISL of each profiling record without an error, read here."""
    out = []
    with open(os.path.join(folder, "profile_export.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            md = r.get("metadata", {})
            if md.get("benchmark_phase") != "profiling" or r.get("error") or md.get("was_cancelled"):
                continue
            m = r.get("metrics", {})
            if "time_to_first_token" in m:
                out.append((m["time_to_first_token"]["value"], m.get("input_sequence_length", {}).get("value")))
    return out


def test_runs():
    sweep = os.path.join(SAMPLES, "isl-osl-sweep")
    folders = sorted(os.path.dirname(os.path.join(d, n)) for d, _, files in os.walk(sweep)
                     for n in files if n == "profile_export.jsonl")
    rc, rows, err = query([sweep], "SELECT run.path AS path, percentile(time_to_first_token, 99) AS p99, "
                          "count(time_to_first_token) AS n FROM request JOIN run USING (run_id) GROUP BY run_id")
    if rc != 0:
        check(False, "runs: TTFT p99 per run", err)
        return
    got = {os.path.realpath(r["path"]): (r["p99"], r["n"]) for r in rows}
    bad = []
    for folder in folders:
        rec = records_of(folder)
        g = got.get(os.path.realpath(folder))
        if not g or g[1] != len(rec) or not math.isclose(g[0], p99([t for t, _ in rec]), rel_tol=1e-12):
            bad.append((folder, g, len(rec), p99([t for t, _ in rec]) if rec else None))
    check(folders and not bad, "runs: TTFT p99 of each of %d runs against their records read here" % len(folders),
          str(bad[:3]))

    # by ISL bucket (the request's own input length, rounded down to a power of two)
    rc, rows, err = query([sweep], "SELECT CAST(pow(2, floor(log2(input_sequence_length))) AS INTEGER) AS bucket, "
                          "percentile(time_to_first_token, 99) AS p99, count(*) AS n FROM request "
                          "WHERE time_to_first_token IS NOT NULL GROUP BY bucket ORDER BY bucket")
    want = {}
    for folder in folders:
        for t, isl in records_of(folder):
            want.setdefault(2 ** math.floor(math.log2(isl)), []).append(t)
    check(rc == 0 and {r["bucket"]: r["n"] for r in rows} == {k: len(v) for k, v in want.items()}
          and all(math.isclose(r["p99"], p99(want[r["bucket"]]), rel_tol=1e-12) for r in rows),
          "runs: TTFT p99 by ISL bucket (%d buckets)" % len(want), err or str(rows))

    # the run table says the configuration
    rc, rows, err = query([os.path.join(SAMPLES, "aiperf", "qwen_concurrency1")],
                          "SELECT model, concurrency, streaming, requests FROM run")
    with open(os.path.join(SAMPLES, "aiperf", "qwen_concurrency1", "profile_export.jsonl")) as f:
        n_lines = sum(1 for line in f if line.strip())
    check(rc == 0 and rows == [{"model": "Qwen/Qwen3-0.6B", "concurrency": 1.0, "streaming": 1, "requests": n_lines}],
          "runs: the run table's configuration", err or str(rows))


# ---------- read-only, time limit, formats, errors ----------

def test_safety(tmp):
    trace = os.path.join(SAMPLES, "traces", "kineto_a100_simple_add.json.gz")
    target = os.path.join(tmp, "attached.db")
    cases = [
        ("ATTACH DATABASE '%s' AS x" % target, "line 1, column 1", "ATTACH"),
        ("SELECT 1;\nSELECT load_extension('%s')" % os.path.join(tmp, "x.so"), "line 2, column 8", "load_extension"),
        ("CREATE TABLE t(a)", "line 1, column 1", "CREATE TABLE"),
        ("INSERT INTO slice(id) VALUES (1)", "line 1, column 1", "INSERT"),
        ("PRAGMA writable_schema = 1", "line 1, column 1", "PRAGMA"),
        ("VACUUM INTO '%s'" % target, "line 1, column 1", "refused"),
    ]
    for sql, place, word in cases:
        rc, out, err = query([trace], sql, fmt="table")
        check(rc == 1 and place in err and word in err and not os.path.exists(target),
              "refused: %s" % sql.replace("\n", " ")[:40], err)
    rc, rows, err = query([trace], "CREATE TEMP TABLE t AS SELECT name FROM slice; SELECT count(*) AS n FROM t")
    check(rc == 0 and rows[0]["n"] > 0, "a temporary table may be made", err)

    t0 = time.monotonic()
    rc, out, err = query([trace], "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                         "SELECT count(*) FROM c", fmt="table", extra=("--time-limit", "0.3"))
    took = time.monotonic() - t0
    check(rc == 1 and "time limit" in err and took < 20, "a query past --time-limit 0.3 stops (%.1f s)" % took, err)

    sql = "SELECT name, count(*) AS n, sum(dur) AS total FROM slice GROUP BY name ORDER BY total DESC, name"
    rc, rows, err = query([trace], sql)
    rc2, text, err2 = query([trace], sql, fmt="csv")
    table = list(csv.reader(io.StringIO(text, newline="")))
    as_csv = [[r["name"], str(r["n"]), str(r["total"])] for r in rows]
    check(rc == 0 and rc2 == 0 and table[0] == ["name", "n", "total"] and table[1:] == as_csv,
          "CSV read back equals JSON (%d rows)" % len(rows), err or err2)
    rc3, text, err3 = query([trace], sql, fmt="table")
    check(rc3 == 0 and text.rstrip().endswith("(%d rows)" % len(rows)) and len(text.splitlines()) == len(rows) + 3,
          "the table has a header, a rule, every row and the count", err3)
    rc, text, err = query([trace], "SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z, 'two\nlines' AS w", fmt="csv")
    check(rc == 0 and list(csv.reader(io.StringIO(text, newline=""))) == [["x", "y", "z", "w"], ["a,b", 'say "hi"', "", "two\nlines"]],
          "CSV quotes commas, quotes and line breaks", text)

    qfile = os.path.join(tmp, "q.sql")
    with open(qfile, "w") as f:
        f.write("-- a comment\nSELECT name\nFROM slice WHERE nmae = 1\n")
    rc, out, err = query([trace], None, fmt="table", extra=("--file", qfile))
    check(rc == 1 and "%s: line 3, column 18: no such column: nmae" % qfile in err,
          "an error in --file names the file, line and column", err)


def test_hostile(tmp):
    """What a query file or a trace's names may hold: refused or made harmless, with the
    place named."""
    trace = os.path.join(tmp, "escapes.json")
    with open(trace, "w") as f:
        f.write('{"traceEvents":[{"ph":"X","name":"a\\u001b[31mred\\u0007","pid":1,"tid":1,"ts":1,"dur":2}]}')
    rc, out, err = query([trace], "SELECT name FROM slice", fmt="table")
    check(rc == 0 and "\x1b" not in out and "\x07" not in out and "a\\e[31mred" in out,
          "a name's control characters are shown escaped in the table", repr(out))
    rc, rows, err = query([trace], "SELECT name FROM slice")
    check(rc == 0 and rows == [{"name": "a\x1b[31mred\x07"}], "and kept exactly in JSON", repr(rows))

    fifo = os.path.join(tmp, "q.fifo")
    os.mkfifo(fifo)
    rc, out, err = query([trace], None, fmt="table", extra=("--file", fifo), timeout=30)
    check(rc == 1 and fifo in err and "regular" in err, "a FIFO as --file is refused, not waited on", err)
    bad = os.path.join(tmp, "bad.sql")
    with open(bad, "wb") as f:
        f.write(b"SELECT 1,\n  \xff\xfe")
    rc, out, err = query([trace], None, fmt="table", extra=("--file", bad))
    check(rc == 1 and "%s: line 2, column 3: the SQL is not UTF-8 text" % bad in err,
          "SQL that is not UTF-8 is refused at its place", err)
    big = os.path.join(tmp, "big.sql")
    with open(big, "w") as f:
        f.write("SELECT 1;" + " " * (2 << 20))
    rc, out, err = query([trace], None, fmt="table", extra=("--file", big))
    check(rc == 1 and big in err, "a query file past 1 MiB is refused, naming it", err)
    rc, out, err = query([trace, trace], "SELECT 1", fmt="table")
    check(rc == 1 and "one trace" in err, "a second trace is refused, naming both", err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_by_name()
        test_perfetto_examples(tmp)
        test_runs()
        test_safety(tmp)
        test_hostile(tmp)
    print("1..%d" % len(results))
    for i, (ok, what, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
        if not ok and detail:
            for line in str(detail).splitlines()[:10]:
                print("# " + line)
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
