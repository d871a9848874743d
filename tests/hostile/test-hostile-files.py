#!/usr/bin/env python3
"""Issue 26, findings 6 (vector sizes), 7 (saves that lose data) and 8 (leftovers, a number
too large): what Inferview writes, and the options that size it.

  - A PDF or SVG --width/--height of 1e9 or 1e15 is refused at once for every figure kind
    (plot, trace, model), naming the option and the limit; nothing is written. (Before:
    a trace ran for minutes into gigabytes, a model figure came out blank with exit 0.)
  - SIGTERM, SIGINT or SIGHUP while a large SVG/PDF is being written ends the process as
    the signal does, and leaves no hidden temporary beside the destination. (Before: the
    temporary stayed.)
  - A figure written through a symbolic link to a 0600 file lands in the target, keeps
    0600, and the link stays a link; a dangling link gets its target created instead of
    being replaced by a file; a file with a second hard link is refused (naming the file
    and the hard links) and both names keep their contents. (Before: 0600 became 0644,
    the dangling link was replaced, the hard link split silently.)
  - A whole number too large is said to be too large, with the limit, not "must be a
    whole number".

The saved model configurations' own cases (a symlinked, damaged file; 20,000 of them)
are in tests/test-settings.c. Run by meson with IV_BINARY set; prints TAP.
"""
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

TEST_DATA = os.environ.get("IV_TEST_DATA") or os.path.join(os.path.dirname(__file__), "..",
                                                             "data")
SAMPLES = hostile.SAMPLES or os.path.join(os.path.dirname(__file__), "..", "..", "data",
                                          "samples")
SAMPLE_RUN = os.path.join(TEST_DATA, "aiperf", "qwen_concurrency1")
SAMPLE_TRACE = os.path.join(SAMPLES, "traces", "kineto_a100_simple_add.json.gz")
PIPELINED = os.path.join(SAMPLES, "traces", "pipelined_timeline_sample.json")
# A refusal of a size takes no drawing: well under this even on a busy machine (the code
# before the fix took minutes on --width 1e9).
REFUSAL_S = 10


def err_of(p):
    return hostile.stderr_of(p)


def hidden(folder):
    return [f for f in os.listdir(folder) if f.startswith(".")]


def check_sizes(t, tmp):
    figure_commands = [
        ("plot", lambda out, fmt: ["plot", SAMPLE_RUN, "-o", out, "--format", fmt]),
        ("trace", lambda out, fmt: ["trace", SAMPLE_TRACE, "-o", os.path.join(out, "t." + fmt)]),
        ("model", lambda out, fmt: ["model", "--preset", "Llama-3.1-8B", "--figure", "pipeline",
                                    "-o", os.path.join(out, "m." + fmt)]),
    ]
    for name, args_of in figure_commands:
        for fmt in ("svg", "pdf"):
            for option, value in (("--width", "1e9"), ("--height", "1e15")):
                out = os.path.join(tmp, "sizes-%s-%s-%s" % (name, fmt, option.strip("-")))
                os.mkdir(out)
                args = args_of(out, fmt) + [option, value]
                start = time.monotonic()
                p = hostile.run(args, timeout=max(hostile.TIMEOUT, 3 * REFUSAL_S))
                took = time.monotonic() - start
                err = err_of(p)
                problems = hostile.common_problems(p, expect=(2,))
                if p is not None and took > REFUSAL_S:
                    problems.append("took %.1f s" % took)
                if option not in err or "too large" not in err or "19200" not in err:
                    problems.append("the refusal does not name %s, say too large and give the "
                                    "limit" % option)
                if os.listdir(out):
                    problems.append("left %s" % os.listdir(out))
                t.check(not problems, "%s: %s %s %s refused, naming the option and the limit"
                        % (name, fmt, option, value), "; ".join(problems) + "\n" + err)


def big_trace(path, events=300000):
    ev = [{"name": "kernel_%d" % (i % 997), "ph": "X", "cat": "kernel", "pid": 1 + i % 4,
           "tid": i % 48, "ts": i * 3, "dur": 2} for i in range(events)]
    with open(path, "w") as f:
        json.dump({"traceEvents": ev}, f)


def check_signals(t, tmp):
    """Each signal, a few times, sent once the hidden temporary exists; it must be gone
    afterwards. A run that finished before the signal arrived still counts for "no
    temporary", and at least one run per signal must have been cut short."""
    trace = os.path.join(tmp, "big-trace.json")
    big_trace(trace)
    rng = random.Random(26)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        cut = 0
        tried = 0
        problems = []
        # three attempts, and more (up to eight) until one is cut short: on a loaded
        # machine the write may finish between seeing the temporary and the signal
        for attempt in range(8):
            if attempt >= 3 and cut:
                break
            tried += 1
            out = os.path.join(tmp, "signal-%s-%d" % (sig.name, attempt))
            os.mkdir(out)
            fmt = ("svg", "pdf")[attempt % 2]
            dest = os.path.join(out, "timeline." + fmt)
            # each signal at its default disposition in the child, whatever this test
            # inherited (under nohup SIGHUP is ignored, and an ignored signal stays so)
            p = subprocess.Popen([hostile.BINARY, "trace", trace, "-o", dest, "--width", "19200"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, start_new_session=True,
                                 preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
            deadline = time.monotonic() + 120
            while p.poll() is None and not hidden(out) and time.monotonic() < deadline:
                time.sleep(0.005)
            if p.poll() is None and hidden(out):
                # after a miss, at once
                time.sleep(rng.uniform(0, 0.2) if attempt < 3 else 0)
                p.send_signal(sig)
            try:
                p.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
                problems.append("attempt %d: did not end after %s" % (attempt, sig.name))
                continue
            left = hidden(out)
            if left:
                problems.append("attempt %d (%s): left %s" % (attempt, fmt, left))
            if p.returncode == -sig:
                cut += 1
                if os.path.exists(dest):
                    problems.append("attempt %d: a figure appeared though the write was cut"
                                    % attempt)
            elif p.returncode != 0:
                problems.append("attempt %d: exit status %d" % (attempt, p.returncode))
        if cut == 0:
            problems.append("no attempt was cut short by %s (the write finished first)"
                            % sig.name)
        t.check(not problems, "%s while a large trace figure is written: no hidden temporary "
                "left, %d of %d cut short" % (sig.name, cut, tried), "\n".join(problems))


def model_figure(dest):
    return hostile.run(["model", "--preset", "Llama-3.1-8B", "--figure", "pipeline", "-o", dest])


def check_destinations(t, tmp):
    real = os.path.join(tmp, "real")
    out = os.path.join(tmp, "out")
    os.mkdir(real)
    os.mkdir(out)

    # a link to a private file: written through, mode kept, link kept
    target = os.path.join(real, "private.svg")
    with open(target, "w") as f:
        f.write("old")
    os.chmod(target, 0o600)
    link = os.path.join(out, "linked.svg")
    os.symlink(os.path.join("..", "real", "private.svg"), link)
    p = model_figure(link)
    problems = hostile.common_problems(p, expect=(0,))
    if not os.path.islink(link):
        problems.append("the link was replaced")
    with open(target, "rb") as f:
        if not f.read(64).lstrip().startswith(b"<?xml"):
            problems.append("the target does not hold the figure")
    mode = stat.S_IMODE(os.stat(target).st_mode)
    if mode != 0o600:
        problems.append("the target's mode became %o" % mode)
    if hidden(real) or hidden(out):
        problems.append("left %s" % (hidden(real) + hidden(out)))
    t.check(not problems, "a figure through a link to a 0600 file: written there, still 0600, "
            "the link kept", "; ".join(problems) + "\n" + err_of(p))

    # a dangling link: its target is created
    dangling = os.path.join(out, "dangling.svg")
    new_target = os.path.join(real, "new.svg")
    os.symlink(os.path.join("..", "real", "new.svg"), dangling)
    p = model_figure(dangling)
    problems = hostile.common_problems(p, expect=(0,))
    if not os.path.islink(dangling):
        problems.append("the dangling link was replaced by a file")
    if not os.path.isfile(new_target):
        problems.append("the link's target was not created")
    t.check(not problems, "a figure through a dangling link: the target is created, the link "
            "kept", "; ".join(problems) + "\n" + err_of(p))

    # a second hard link: refused, both names as they were
    first = os.path.join(out, "figure.svg")
    second = os.path.join(real, "figure-in-paper.svg")
    with open(first, "w") as f:
        f.write("the paper's figure")
    os.link(first, second)
    p = model_figure(first)
    err = err_of(p)
    problems = hostile.common_problems(p, about=first, expect=(1,))
    if "hard link" not in err:
        problems.append("the refusal does not say why (hard links)")
    for name in (first, second):
        with open(name) as f:
            if f.read() != "the paper's figure":
                problems.append("%s changed" % os.path.basename(name))
    if os.stat(first).st_ino != os.stat(second).st_ino:
        problems.append("the hard link was split")
    if hidden(out):
        problems.append("left %s" % hidden(out))
    t.check(not problems, "a figure over a file with a second hard link: refused, both names "
            "unchanged", "; ".join(problems) + "\n" + err)


def check_numbers(t):
    cases = [
        (["model", "--preset", "Llama-3.1-8B", "--batch", "1e16"], "--batch",
         "1000000000000000"),
        (["trace", PIPELINED, "-o", "/nonexistent-dir/x.png", "--start-candidate",
          "99999999999"], "--start-candidate", "2147483647"),
        (["runs", SAMPLE_RUN, "--gpus", "2000000"], "--gpus", "1000000"),
    ]
    for args, option, limit in cases:
        p = hostile.run(args)
        err = err_of(p)
        problems = hostile.common_problems(p, expect=(1, 2))
        if "too large (the limit is %s)" % limit not in err or option not in err:
            problems.append("does not say %s is too large, with the limit %s" % (option, limit))
        if "whole number" in err:
            problems.append("still says \"whole number\"")
        t.check(not problems, "%s past its limit is \"too large (the limit is %s)\""
                % (option, limit), "; ".join(problems) + "\n" + err)


def main():
    t = hostile.Tap()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-files-")
    try:
        check_sizes(t, tmp)
        check_destinations(t, tmp)
        check_numbers(t)
        check_signals(t, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
