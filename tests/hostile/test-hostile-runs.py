#!/usr/bin/env python3
"""Issue 26, findings 5 and 6 (the runs part): AIPerf run folders that exhaust memory or
time, and discovery that leaves the opened folder.

  - A profile_export.jsonl whose last line is a sparse gigabyte and a half without a
    newline (a crashed writer, a preallocated file) loads under a 1 GiB address-space
    cap: the records before it are read and a warning names the file, the line and the
    limit (256 MiB). A line past a lowered limit (INFERVIEW_RECORD_LINE_MAX_MIB=1) in the
    middle of the file is skipped and named, the records after it read. (Before: the
    line was buffered whole, GLib aborted.)
  - A telemetry line holding one 300 MB string, under a 256 MiB cap: refused naming the
    file and the line (or skipped and named). (Before: yajl buffered the string and
    crashed when its allocation failed.)
  - A JSON summary and a CSV summary of 300,000 metrics load and print as JSON under a
    768 MiB cap. (Before: ~4 KB a metric, 1.1 GB, abort.)
  - server_metrics_export.jsonl with 100,000 distinct endpoints and a telemetry export
    of 100,000 GPUs load within the hostile time limit. (Before: both quadratic, 40-65 s
    for the endpoints.)
  - A sweep with a link to / and a link to a folder of runs elsewhere lists only its own
    runs, names both links in a warning, and is quick; opening the other folder too
    lists its runs without the warning. (Before: discovery walked the disk and pulled the
    other runs in.)

Run by meson with IV_BINARY set; prints TAP.
"""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

TEST_DATA = os.environ.get("IV_TEST_DATA") or os.path.join(os.path.dirname(__file__), "..",
                                                             "data")
SAMPLE_RUN = os.path.join(TEST_DATA, "aiperf", "qwen_concurrency1")
# Sanitizers reserve terabytes of shadow memory: no address-space cap under them.
SANITIZED = any(k in os.environ for k in ("ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
                                          "MSAN_OPTIONS"))
# Reading a sparse 1.5 GiB file takes seconds on a busy machine: more than the default.
LONG_TIMEOUT = max(hostile.TIMEOUT, 90)


def capped(limit):
    def apply():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return None if SANITIZED else apply


def record(i):
    return json.dumps({
        "metadata": {"request_start_ns": 1762551534000000000 + i * 1000000,
                     "request_ack_ns": None,
                     "request_end_ns": 1762551534000000000 + i * 1000000 + 10000000,
                     "worker_id": "w", "benchmark_phase": "profiling", "was_cancelled": False},
        "metrics": {"time_to_first_token": {"value": i + 0.5, "unit": "ms"},
                    "request_latency": {"value": 10.0, "unit": "ms"}},
        "error": None}) + "\n"


def runs_json(p):
    try:
        return json.loads(p.stdout, parse_constant=hostile.no_nan)
    except ValueError as e:
        return {"error": str(e)}


def one_run(doc):
    runs = doc.get("runs") or [{}]
    return runs[0]


def check_long_lines(t, tmp):
    # 3 records, then a line of 1.5 GiB of holes with no newline
    run = os.path.join(tmp, "sparse-tail")
    os.mkdir(run)
    path = os.path.join(run, "profile_export.jsonl")
    with open(path, "wb") as f:
        f.write("".join(record(i) for i in range(3)).encode())
        f.write(b'{"metadata": ')
        f.truncate(3 << 29)
    start = time.monotonic()
    p = hostile.run(["runs", run, "--json"], timeout=LONG_TIMEOUT, preexec_fn=capped(1 << 30))
    took = time.monotonic() - start
    problems = hostile.common_problems(p, about=path, expect=(0,))
    r = one_run(runs_json(p)) if p is not None and p.returncode == 0 else {}
    warnings = " ".join(r.get("warnings", []))
    if p is not None and r.get("requests") != 3:
        problems.append("requests %r, not the 3 before the long line" % r.get("requests"))
    if p is not None and not all(w in warnings for w in ("profile_export.jsonl", "line 4",
                                                          "256 MiB")):
        problems.append("no warning naming the file, line 4 and the 256 MiB limit: %r"
                        % warnings)
    t.check(not problems, "a 1.5 GiB last line without a newline: the 3 records before it "
            "load under a 1 GiB cap, line 4 named (%.1f s)" % took,
            "\n".join(problems) + "\n" + hostile.stderr_of(p))

    # a lowered limit: a 2 MiB record in the middle is skipped, the rest read
    run = os.path.join(tmp, "long-middle")
    os.mkdir(run)
    path = os.path.join(run, "profile_export.jsonl")
    big = record(2).replace('"w"', '"' + "x" * (2 << 20) + '"')
    with open(path, "w") as f:
        f.write(record(0) + record(1) + big + record(3) + record(4))
    env = dict(os.environ, INFERVIEW_RECORD_LINE_MAX_MIB="1")
    p = hostile.run(["runs", run, "--json"], env=env)
    problems = hostile.common_problems(p, about=path, expect=(0,))
    r = one_run(runs_json(p)) if p is not None and p.returncode == 0 else {}
    warnings = " ".join(r.get("warnings", []))
    if p is not None and r.get("requests") != 4:
        problems.append("requests %r, not 4" % r.get("requests"))
    if p is not None and not all(w in warnings for w in ("line 3", "1 MiB",
                                                          "INFERVIEW_RECORD_LINE_MAX_MIB")):
        problems.append("no warning naming line 3, the 1 MiB limit and its variable: %r"
                        % warnings)
    t.check(not problems, "INFERVIEW_RECORD_LINE_MAX_MIB=1: a 2 MiB line is skipped and "
            "named, the records after it read", "\n".join(problems) + "\n" + hostile.stderr_of(p))

    # a limit that is not a number is said, and the default used
    env = dict(os.environ, INFERVIEW_RECORD_LINE_MAX_MIB="lots")
    p = hostile.run(["runs", run, "--json"], env=env)
    problems = hostile.common_problems(p, expect=(0,))
    r = one_run(runs_json(p)) if p is not None and p.returncode == 0 else {}
    warnings = " ".join(r.get("warnings", []))
    if p is not None and (r.get("requests") != 5 or "INFERVIEW_RECORD_LINE_MAX_MIB=lots"
                          not in warnings):
        problems.append("requests %r, warnings %r" % (r.get("requests"), warnings))
    t.check(not problems, "INFERVIEW_RECORD_LINE_MAX_MIB=lots is named and 256 MiB used",
            "\n".join(problems) + "\n" + hostile.stderr_of(p))


def check_long_telemetry(t, tmp):
    # a telemetry line of one 300 MB string, under a 256 MiB cap
    run = os.path.join(tmp, "long-telemetry")
    os.mkdir(run)
    with open(os.path.join(run, "profile_export.jsonl"), "w") as f:
        f.write(record(0))
    path = os.path.join(run, "gpu_telemetry_export.jsonl")
    with open(path, "w") as f:
        f.write('{"timestamp_ns": 1762551534000000000, "gpu_uuid": "A", '
                '"telemetry_data": {"u": 1}}\n{"gpu_uuid": "')
        chunk = "a" * (1 << 20)
        for _ in range(300):
            f.write(chunk)
        f.write('"}\n')
    p = hostile.run(["runs", run, "--json"], timeout=LONG_TIMEOUT, preexec_fn=capped(256 << 20))
    problems = hostile.common_problems(p, about=path)
    err = hostile.stderr_of(p)
    if p is not None and p.returncode == 1 and ("line 2" not in err or "memory" not in err):
        problems.append("the refusal does not name line 2 and the memory")
    if p is not None and p.returncode == 0:
        warnings = " ".join(one_run(runs_json(p)).get("warnings", []))
        if "line 2 is longer than 256 MiB" not in warnings:
            problems.append("no warning naming line 2: %r" % warnings)
    t.check(not problems, "a telemetry line of a 300 MB string under a 256 MiB cap: refused "
            "naming line 2, or skipped and named", "\n".join(problems) + "\n" + err)
    os.remove(path)


def check_big_summaries(t, tmp):
    n = 300000
    cases = []
    run = os.path.join(tmp, "summary-json")
    os.mkdir(run)
    with open(os.path.join(run, "profile_export_aiperf.json"), "w") as f:
        f.write("{")
        f.write("".join('"m%d": {"unit": "ms", "avg": %d, "p99": %d.5},' % (i, i, i)
                        for i in range(n)))
        f.write('"benchmark_duration": {"unit": "sec", "avg": 2.0}}')
    cases.append(("JSON", run, "m299999", 299999.0))
    run = os.path.join(tmp, "summary-csv")
    os.mkdir(run)
    with open(os.path.join(run, "profile_export_aiperf.csv"), "w") as f:
        f.write("Metric,avg,min,max,p99\n")
        f.write("".join("Metric %d (ms),%d,1,2,3\n" % (i, i) for i in range(n)))
    cases.append(("CSV", run, "metric_299999", 299999.0))
    for kind, run, last, value in cases:
        start = time.monotonic()
        p = hostile.run(["runs", run, "--json"], timeout=LONG_TIMEOUT,
                        preexec_fn=capped(768 << 20))
        took = time.monotonic() - start
        problems = hostile.common_problems(p, expect=(0,))
        metrics = one_run(runs_json(p)).get("metrics", {}) if p is not None else {}
        if p is not None and p.returncode == 0:
            if len(metrics) < n:
                problems.append("%d metrics printed, not %d" % (len(metrics), n))
            elif metrics.get(last, {}).get("avg") != value:
                problems.append("%s is %r" % (last, metrics.get(last)))
        t.check(not problems, "a %s summary of %d metrics loads and prints under a 768 MiB "
                "cap (%.1f s)" % (kind, n, took),
                "\n".join(problems) + "\n" + hostile.stderr_of(p))


def check_many_endpoints(t, tmp):
    n = 100000
    run = os.path.join(tmp, "endpoints")
    os.mkdir(run)
    # 10 requests over 19 ms, every scrape inside them
    with open(os.path.join(run, "profile_export.jsonl"), "w") as f:
        f.write("".join(record(i) for i in range(10)))
    t0 = 1762551534000000000
    with open(os.path.join(run, "server_metrics_export.jsonl"), "w") as f:
        f.write("".join('{"endpoint_url": "http://h%d:8000/metrics", "timestamp_ns": %d, '
                        '"metrics": {"vllm:num_requests_running": [{"value": %d}]}}\n'
                        % (i, t0 + 100 * i, i % 7) for i in range(n)))
    with open(os.path.join(run, "gpu_telemetry_export.jsonl"), "w") as f:
        f.write("".join('{"timestamp_ns": %d, "dcgm_url": "http://d:9400/metrics", '
                        '"gpu_index": 0, "gpu_uuid": "GPU-%d", "telemetry_data": '
                        '{"gpu_utilization": %d.0}}\n' % (t0 + i, i, i % 100) for i in range(n)))
    start = time.monotonic()
    p = hostile.run(["runs", run, "--json"])
    took = time.monotonic() - start
    problems = hostile.common_problems(p, expect=(0,))
    r = one_run(runs_json(p)) if p is not None and p.returncode == 0 else {}
    if p is not None and p.returncode == 0:
        running = r.get("metrics", {}).get("server_requests_running", {})
        if r.get("gpu_count") != n:
            problems.append("gpu_count %r, not %d" % (r.get("gpu_count"), n))
        if running.get("max") != 6.0:
            problems.append("server_requests_running %r" % running)
    t.check(not problems, "100,000 server endpoints and 100,000 telemetry GPUs load within "
            "%d s (%.1f s)" % (hostile.TIMEOUT, took),
            "\n".join(problems) + "\n" + hostile.stderr_of(p))


def check_links(t, tmp):
    sweep = os.path.join(tmp, "sweep-links")
    elsewhere = os.path.join(tmp, "elsewhere")
    for i in range(3):
        os.makedirs(os.path.join(sweep, "c%d" % i))
        with open(os.path.join(sweep, "c%d" % i, "profile_export.jsonl"), "w") as f:
            f.write(record(i))
    os.makedirs(os.path.join(elsewhere, "other-run"))
    with open(os.path.join(elsewhere, "other-run", "profile_export.jsonl"), "w") as f:
        f.write(record(9))
    os.symlink("/", os.path.join(sweep, "c1", "root"))
    os.symlink(elsewhere, os.path.join(sweep, "theirs"))
    os.symlink(".", os.path.join(sweep, "self"))
    os.symlink("c0", os.path.join(sweep, "latest"))

    start = time.monotonic()
    p = hostile.run(["runs", sweep, "--json"])
    took = time.monotonic() - start
    problems = hostile.common_problems(p, expect=(0,))
    doc = runs_json(p) if p is not None and p.returncode == 0 else {}
    names = sorted(r.get("name") for r in doc.get("runs", []))
    warnings = doc.get("warnings", [])
    if p is not None and names != ["c0", "c1", "c2"]:
        problems.append("runs %r, not c0 c1 c2" % names)
    for link, target in (("c1/root", "/"), ("theirs", os.path.realpath(elsewhere))):
        said = [w for w in warnings if link in w and "not followed" in w]
        if p is not None and (not said or "a link to %s," % target not in said[0]):
            problems.append("no warning that the link %s to %s is not followed: %r"
                            % (link, target, warnings))
    if p is not None and any("latest" in w or "self" in w for w in warnings):
        problems.append("a link inside the sweep is warned about: %r" % warnings)
    t.check(not problems, "links to / and to runs elsewhere are named, not followed; only "
            "the sweep's 3 runs (%.1f s)" % took, "\n".join(problems) + "\n" + hostile.stderr_of(p))

    p = hostile.run(["runs", sweep, elsewhere, "--json"])
    problems = hostile.common_problems(p, expect=(0,))
    doc = runs_json(p) if p is not None and p.returncode == 0 else {}
    names = sorted(r.get("name") for r in doc.get("runs", []))
    warnings = doc.get("warnings", [])
    if p is not None and names != ["c0", "c1", "c2", "other-run"]:
        problems.append("runs %r" % names)
    if p is not None and any("theirs" in w for w in warnings):
        problems.append("the link to a folder that was opened too is warned about: %r"
                        % warnings)
    t.check(not problems, "opening the link's target too: its run listed once, no warning "
            "about that link", "\n".join(problems) + "\n" + hostile.stderr_of(p))


def main():
    t = hostile.Tap()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-runs-")
    try:
        check_long_lines(t, tmp)
        check_long_telemetry(t, tmp)
        check_big_summaries(t, tmp)
        check_many_endpoints(t, tmp)
        check_links(t, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
