#!/usr/bin/env python3
"""Issue 26, findings 5 and 8 (the live part): `inferview plot --watch` following a run
AIPerf is writing, when what it follows turns hostile.

  - The run's folder is removed, or its records file becomes a FIFO or a device: the
    watch says so on stderr (naming the run and why), rewrites summary.txt so that it no
    longer counts the run as live and says why, and exits 1. (Before: it stopped without
    a word, exit 0, "1 live" left in summary.txt — or waited for ever.)
  - A 1 GiB sparse line without a newline appended at once, under a 768 MiB address-space
    cap: read in bounded shares, passed over as longer than the 256 MiB limit with a
    warning, the run finished when its summary appears. (Before: every appended byte was
    read into one buffer: an abort.)
  - A 200 MB line without a newline yet: its end is searched for once, not re-read every
    half second (the bytes the watcher read stay under twice the line). (Before: the
    whole line was read again at every tick.)

Run by meson with IV_BINARY set; prints TAP.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

SANITIZED = any(k in os.environ for k in ("ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS",
                                          "MSAN_OPTIONS"))
# Starting a watch draws a figure; a busy machine takes seconds for it.
START_S = 90
END_S = 90
SUMMARY = {"request_count": {"unit": "requests", "avg": 3.0},
           "time_to_first_token": {"unit": "ms", "avg": 1.5}}


def record(i):
    return json.dumps({
        "metadata": {"request_start_ns": 1762551534000000000 + i * 1000000,
                     "request_ack_ns": None,
                     "request_end_ns": 1762551534000000000 + i * 1000000 + 10000000,
                     "worker_id": "w", "benchmark_phase": "profiling", "was_cancelled": False},
        "metrics": {"time_to_first_token": {"value": i + 0.5, "unit": "ms"},
                    "request_latency": {"value": 10.0, "unit": "ms"}},
        "error": None}) + "\n"


def capped(limit):
    def apply():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return None if SANITIZED else apply


class Watch:
    """`inferview plot --watch RUN -o OUT` in the background, in its own session."""

    def __init__(self, run, out, preexec_fn=None):
        self.out = out
        self.summary = os.path.join(out, "summary.txt")
        self.p = subprocess.Popen(
            [hostile.BINARY, "plot", "--watch", "--linger", "0", "--plot", "ttft_over_time",
             run, "-o", out], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=preexec_fn)
        self.stdout = self.stderr = b""

    def started(self):
        """Waits for the first summary.txt: the watch is following."""
        end = time.monotonic() + START_S
        while time.monotonic() < end:
            if os.path.exists(self.summary) or self.p.poll() is not None:
                return os.path.exists(self.summary)
            time.sleep(0.1)
        return False

    def read_bytes(self):
        """Bytes the watcher has read so far (/proc/PID/io), or None."""
        try:
            with open("/proc/%d/io" % self.p.pid) as f:
                for line in f:
                    if line.startswith("rchar:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def finish(self):
        """The exit status, or None after killing a watch that did not end."""
        try:
            self.stdout, self.stderr = self.p.communicate(timeout=END_S)
            return self.p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.stdout, self.stderr = self.p.communicate()
            return None

    def err(self):
        return self.stderr.decode("utf-8", "replace")

    def summary_text(self):
        try:
            with open(self.summary, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""


def live_run(tmp, name, n=3):
    run = os.path.join(tmp, name, "run")
    os.makedirs(run)
    with open(os.path.join(run, "profile_export.jsonl"), "w") as f:
        f.write("".join(record(i) for i in range(n)))
    return run


def common(w, status, expect):
    problems = []
    if status is None:
        problems.append("did not end within %d s" % END_S)
    elif status < 0:
        problems.append("killed by signal %s" % signal.Signals(-status).name)
    elif status != expect:
        problems.append("exit status %d, not %d" % (status, expect))
    for bad in hostile.BAD_STDERR:
        if bad in w.err():
            problems.append("stderr has %r" % bad)
    return problems


def check_stops(t, tmp):
    def remove_folder(run):
        shutil.rmtree(run)

    def fifo(run):
        path = os.path.join(run, "profile_export.jsonl")
        os.remove(path)
        os.mkfifo(path)

    def device(run):
        path = os.path.join(run, "profile_export.jsonl")
        os.remove(path)
        os.symlink("/dev/zero", path)

    cases = [("removed", remove_folder, "removed or renamed"),
             ("fifo", fifo, "named pipe (FIFO)"),
             ("device", device, "a device")]
    for name, act, why in cases:
        run = live_run(tmp, "stop-" + name)
        out = os.path.join(tmp, "stop-" + name, "out")
        w = Watch(run, out)
        if not w.started():
            status = w.finish()
            t.check(False, "watch %s: started" % name, w.err())
            continue
        act(run)
        status = w.finish()
        problems = common(w, status, 1)
        err, summary = w.err(), w.summary_text()
        said = [line for line in err.splitlines() if "no longer followed" in line]
        if not said or why not in said[0] or "run" not in said[0]:
            problems.append("stderr does not say the run is no longer followed because %r"
                            % why)
        first = summary.splitlines()[0] if summary else ""
        if not first or "live" in first:
            problems.append("summary.txt still counts the run as live: %r" % first)
        if "no longer followed" not in summary or why not in summary:
            problems.append("summary.txt does not say why following stopped")
        t.check(not problems, "watched run, records %s: said on stderr and in summary.txt "
                "(not live), exit 1" % {"removed": "folder removed",
                                        "fifo": "file became a FIFO",
                                        "device": "file became a device"}[name],
                "\n".join(problems) + "\n" + err[-1500:] + "\n" + summary[:600])


def check_huge_append(t, tmp):
    run = live_run(tmp, "huge-append")
    out = os.path.join(tmp, "huge-append", "out")
    w = Watch(run, out, preexec_fn=capped(768 << 20))
    if not w.started():
        w.finish()
        t.check(False, "watch under a 768 MiB cap: started", w.err())
        return
    path = os.path.join(run, "profile_export.jsonl")
    with open(path, "ab") as f:
        f.write(b'{"metadata": ')
        f.truncate(f.tell() + (1 << 30))
    time.sleep(2)
    with open(os.path.join(run, "profile_export_aiperf.json"), "w") as f:
        json.dump(SUMMARY, f)
    status = w.finish()
    problems = common(w, status, 0)
    summary = w.summary_text()
    if "line 4 is longer than 256 MiB" not in summary:
        problems.append("summary.txt does not name line 4 as longer than 256 MiB")
    t.check(not problems, "1 GiB appended without a newline, under a 768 MiB cap: read in "
            "shares, the line skipped and named, the run finished",
            "\n".join(problems) + "\n" + w.err()[-1500:] + "\n" + summary[:600])


def check_no_reread(t, tmp):
    line = 200 * 1000 * 1000
    run = live_run(tmp, "pending-line")
    out = os.path.join(tmp, "pending-line", "out")
    w = Watch(run, out)
    if not w.started():
        w.finish()
        t.check(False, "watch: started", w.err())
        return
    path = os.path.join(run, "profile_export.jsonl")
    before = w.read_bytes()
    with open(path, "ab") as f:
        f.write(b'{"metadata": "')
        f.truncate(f.tell() + line)
    # sixteen ticks of the watch
    time.sleep(8)
    after = w.read_bytes()
    with open(os.path.join(run, "profile_export_aiperf.json"), "w") as f:
        json.dump(SUMMARY, f)
    status = w.finish()
    problems = common(w, status, 0)
    if before is None or after is None:
        t.skip("a 200 MB line without a newline is not read again at every tick",
               "/proc/PID/io cannot be read here")
        return
    if after - before > 2 * line:
        problems.append("read %d MB in 8 s for a line of %d MB" % ((after - before) // 10 ** 6,
                                                                     line // 10 ** 6))
    t.check(not problems, "a 200 MB line without a newline: searched once, not read again "
            "at every tick (%d MB read in 8 s)" % ((after - before) // 10 ** 6),
            "\n".join(problems) + "\n" + w.err()[-1500:])


def main():
    t = hostile.Tap()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-live-")
    try:
        check_stops(t, tmp)
        check_huge_append(t, tmp)
        check_no_reread(t, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
