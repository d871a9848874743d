"""hostile.py: what every hostile-input test shares (tests/hostile/test-*.py and
tests/test-hostile.py): TAP output, running `inferview` with a time limit in its own
session, and the checks every run must pass whatever the input:

  - the process ends by itself within TIMEOUT seconds (no hang) and is not killed by a
    signal (no crash, no abort);
  - nothing a sanitizer or GLib would shout about appears on stderr;
  - a refusal (status 1) is written to stderr and names the file it is about.

A test adds the assertions of its own finding on the returned process (the victim file
still there, the report's ids, ...). Run by meson with IV_BINARY and IV_SAMPLES_DIR set.
"""
import os
import signal
import subprocess
import sys

TIMEOUT = float(os.environ.get("IV_HOSTILE_TIMEOUT", "20"))
BINARY = os.environ.get("IV_BINARY", "")
SAMPLES = os.environ.get("IV_SAMPLES_DIR", "")
BAD_STDERR = ("GLib-CRITICAL", "GLib-ERROR", "GLib-GIO-CRITICAL", "Json-CRITICAL",
              "runtime error:", "AddressSanitizer", "LeakSanitizer", "ThreadSanitizer",
              "Segmentation fault", "core dumped")


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        if ok:
            print("ok %d - %s" % (self.n, what))
        else:
            self.failed += 1
            print("not ok %d - %s" % (self.n, what))
            for line in str(detail).splitlines()[:30]:
                print("# " + line)
        sys.stdout.flush()

    def skip(self, what, why):
        self.n += 1
        print("ok %d - %s # SKIP %s" % (self.n, what, why))
        sys.stdout.flush()

    def done(self):
        print("1..%d" % self.n)
        return 0


def no_nan(_):
    raise ValueError("non-finite number in JSON")


def hidden_files(folder):
    out = []
    for root, _dirs, files in os.walk(folder):
        out += [os.path.join(root, f) for f in files if f.startswith(".")]
    return out


def run(args, timeout=None, env=None, **kw):
    """`inferview ARGS` in its own session; returns the CompletedProcess, or None on a hang
    (the whole session is killed)."""
    try:
        return subprocess.run([BINARY] + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout or TIMEOUT, start_new_session=True, env=env, **kw)
    except subprocess.TimeoutExpired:
        return None


def common_problems(p, about=None, expect=(0, 1)):
    """The problems every run is checked for (an empty list when there are none)."""
    if p is None:
        return ["did not finish within %d s" % TIMEOUT]
    err = p.stderr.decode("utf-8", "replace")
    problems = []
    if p.returncode < 0:
        problems.append("killed by signal %s" % signal.Signals(-p.returncode).name)
    elif p.returncode not in expect:
        problems.append("exit status %d" % p.returncode)
    for bad in BAD_STDERR:
        if bad in err:
            problems.append("stderr has %r" % bad)
    if p.returncode == 1 and about:
        name = os.path.basename(about.rstrip("/"))
        if not err.strip():
            problems.append("refused without a message")
        elif name not in err:
            problems.append("the message does not name %s" % name)
    return problems


def describe(args):
    return "inferview " + " ".join(os.path.basename(a) if os.path.isabs(a) else a for a in args)


def stderr_of(p):
    return "" if p is None else p.stderr.decode("utf-8", "replace")[-2000:]
