#!/usr/bin/env python3
"""test-hostile-text.py: issue 26, finding 3 — text from data reaches other interpreters raw.

Names, paths and messages from files a user did not write are printed as text by
`trace --stats`, `identify`, `runs`, `model` and `plot`, and written into plot's
summary.txt. A terminal interprets what it is given: ESC [ 2J clears the screen, an OSC 52
sequence (ESC ] 52 ; c ; BASE64 BEL) writes the clipboard. Every such string must come
out with its control characters as visible escapes ("\\e", "\\x07") and as valid UTF-8.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

OSC52 = "\x1b]52;c;aGVsbG8=\x07"  # writes "hello" to the clipboard
CLEAR = "\x1b[2J"                  # clears the screen
RAW = (b"\x1b", b"\x07")           # ESC and BEL: neither may reach the terminal


def raw_controls(data):
    return [repr(c) for c in RAW if c in data]


def is_utf8(data):
    try:
        data.decode("utf-8", "strict")
        return True
    except UnicodeDecodeError:
        return False


def sample_run():
    return os.path.join(hostile.SAMPLES, "aiperf", "qwen_concurrency1")


def make_run(parent, name, model_json=None):
    """A copy of the sample run as PARENT/NAME (bytes allowed), its model named by the
    JSON text MODEL_JSON (a quoted string, escapes and all) when given."""
    run = os.path.join(os.fsencode(parent), os.fsencode(name))
    shutil.copytree(os.fsencode(sample_run()), run)
    if model_json is not None:
        path = os.path.join(run, b"profile_export_aiperf.json")
        with open(path, "rb") as f:
            text = f.read()
        assert b'"Qwen/Qwen3-0.6B"' in text
        with open(path, "wb") as f:
            f.write(text.replace(b'"Qwen/Qwen3-0.6B"', model_json.encode("ascii"), 1))
    return run


def main():
    tap = hostile.Tap()
    if not hostile.BINARY or not hostile.SAMPLES or not os.path.isdir(sample_run()):
        tap.skip("text from data", "IV_BINARY and IV_SAMPLES_DIR are needed")
        return tap.done()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-text-")
    try:
        check_trace_stats(tap, tmp)
        check_trace_refusal(tap, tmp)
        check_identify_and_runs(tap, tmp)
        check_model(tap, tmp)
        check_plot_summary(tap, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.done()


def check_trace_stats(tap, tmp):
    """Event names holding an OSC 52 clipboard write and a clear-screen."""
    path = os.path.join(tmp, "names.json")
    events = [{"ph": "X", "name": "copy" + OSC52 + "me", "ts": 1, "dur": 5, "pid": 1, "tid": 1},
              {"ph": "X", "name": "wipe" + CLEAR + "out", "ts": 10, "dur": 3, "pid": 1, "tid": 1}]
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)
    args = ["trace", "--stats", path]
    p = hostile.run(args)
    problems = hostile.common_problems(p, path, expect=(0,))
    if p is not None:
        problems += ["stdout has " + c for c in raw_controls(p.stdout)]
        problems += ["stderr has " + c for c in raw_controls(p.stderr)]
        out = p.stdout.decode("utf-8", "replace")
        for shown in ("copy\\e]52;c;aGVsbG8=\\x07me", "wipe\\e[2Jout"):
            if shown not in out:
                problems.append("%r is not shown escaped" % shown)
    tap.check(not problems, hostile.describe(args) + ": event names' ESC and BEL shown as escapes",
              "\n".join(problems) + "\n" + (p.stdout.decode("utf-8", "replace")[:1500] if p else ""))


def check_trace_refusal(tap, tmp):
    """A damaged trace in a folder whose name clears the screen: the refusal names the
    file, escaped."""
    folder = os.path.join(tmp, "dir" + CLEAR + "x")
    os.mkdir(folder)
    path = os.path.join(folder, "broken.json")
    with open(path, "w") as f:
        f.write('{"traceEvents": [,]}')
    args = ["trace", "--stats", path]
    p = hostile.run(args)
    problems = hostile.common_problems(p, path, expect=(1,))
    if p is not None:
        problems += ["stderr has " + c for c in raw_controls(p.stderr)]
        if "dir\\e[2Jx" not in p.stderr.decode("utf-8", "replace"):
            problems.append("the refusal does not name the folder, escaped")
    tap.check(not problems, "trace --stats DIR\\e[2Jx/broken.json: the refusal's path escaped",
              "\n".join(problems) + "\n" + hostile.stderr_of(p))


def check_identify_and_runs(tap, tmp):
    """A sweep whose run folders are named with an OSC 52 write and whose model names hold
    ESC [ 2J and BEL (JSON escapes: the summary is valid JSON)."""
    sweep = os.path.join(tmp, "sweep")
    os.mkdir(sweep)
    hostile_run = make_run(sweep, "run" + OSC52 + "a", '"Qwen\\u001b[2J\\u0007x"')
    make_run(sweep, "plain", None)
    # a damaged line in the hostile run only: its warning, said of that run alone, names
    # the folder (a note said of every run names none)
    with open(os.path.join(hostile_run, b"profile_export.jsonl"), "ab") as f:
        f.write(b"not a record\n")

    args = ["identify", sweep]
    p = hostile.run(args)
    problems = hostile.common_problems(p, sweep, expect=(0,))
    if p is not None:
        problems += ["stdout has " + c for c in raw_controls(p.stdout)]
        if "run\\e]52;c;aGVsbG8=\\x07a" not in p.stdout.decode("utf-8", "replace"):
            problems.append("the run folder is not listed escaped")
    tap.check(not problems, "identify SWEEP: a run folder named with OSC 52 listed escaped",
              "\n".join(problems) + "\n" + (p.stdout.decode("utf-8", "replace") if p else ""))

    args = ["runs", sweep]
    p = hostile.run(args)
    problems = hostile.common_problems(p, sweep, expect=(0,))
    if p is not None:
        problems += ["stdout has " + c for c in raw_controls(p.stdout)]
        problems += ["stderr has " + c for c in raw_controls(p.stderr)]
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if "Qwen\\e[2J\\x07x" not in out:
            problems.append("the model name is not shown escaped on stdout")
        if "run\\e]52;c;aGVsbG8=\\x07a" not in err:
            problems.append("the notes on stderr do not name the run folder escaped")
    tap.check(not problems, "runs SWEEP: model and folder names' ESC and BEL shown as escapes",
              "\n".join(problems) + "\n" + (p.stdout.decode("utf-8", "replace") if p else "")
              + hostile.stderr_of(p))


def check_model(tap, tmp):
    """A Hugging Face config.json in a folder whose name (the model's name) clears the
    screen."""
    folder = os.path.join(tmp, "Qwen3-8B" + CLEAR + OSC52)
    os.mkdir(folder)
    path = os.path.join(folder, "config.json")
    with open(path, "w") as f:
        json.dump({"model_type": "qwen3", "hidden_size": 4096, "num_hidden_layers": 36,
                   "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                   "intermediate_size": 12288, "vocab_size": 151936}, f)
    args = ["model", "--hf-config", path]
    p = hostile.run(args)
    problems = hostile.common_problems(p, path, expect=(0,))
    if p is not None:
        problems += ["stdout has " + c for c in raw_controls(p.stdout)]
        if "Qwen3-8B\\e[2J\\e]52;c;aGVsbG8=\\x07" not in p.stdout.decode("utf-8", "replace"):
            problems.append("the model's name is not shown escaped")
    tap.check(not problems, "model --hf-config DIR/config.json: the folder's name shown escaped",
              "\n".join(problems) + "\n" + (p.stdout.decode("utf-8", "replace")[:800] if p else ""))


def check_plot_summary(tap, tmp):
    """Runs whose model name is a lone surrogate (\\ud800: json-glib keeps it as bytes that
    are not UTF-8) and whose folder names hold ESC: summary.txt is valid UTF-8 with no
    control character, and so are stdout and stderr."""
    sweep = os.path.join(tmp, "surrogates")
    os.mkdir(sweep)
    runs = [make_run(sweep, "a" + CLEAR, '"Qwen\\ud800x"'),
            make_run(sweep, "b" + OSC52, '"Qwen\\ud800x"')]
    # a damaged line in each: its warning, said of that run, names the folder (plot's
    # notes are the window's, and a note said of every run names none)
    for run in runs:
        with open(os.path.join(run, b"profile_export.jsonl"), "ab") as f:
            f.write(b"not a record\n")
    out = os.path.join(tmp, "plots")
    # the bound's figure is skipped with a reason naming the run's model
    args = ["plot", sweep, "-o", out, "--hardware", "h100x8", "--plot", "bound_efficiency"]
    p = hostile.run(args, timeout=max(hostile.TIMEOUT, 60))
    problems = hostile.common_problems(p, sweep, expect=(0, 1))
    summary_path = os.path.join(out, "summary.txt")
    summary = b""
    if not os.path.exists(summary_path):
        problems.append("no summary.txt")
    else:
        with open(summary_path, "rb") as f:
            summary = f.read()
        if not is_utf8(summary):
            problems.append("summary.txt is not valid UTF-8")
        problems += ["summary.txt has " + c for c in raw_controls(summary)]
        text = summary.decode("utf-8", "replace")
        if "Qwen\ufffd" not in text:
            problems.append("summary.txt does not name the model (its bad bytes replaced)")
        if "a\\e[2J" not in text or "b\\e]52;c;aGVsbG8=\\x07" not in text:
            problems.append("summary.txt does not name the run folders escaped")
    if p is not None:
        for name, data in (("stdout", p.stdout), ("stderr", p.stderr)):
            if not is_utf8(data):
                problems.append(name + " is not valid UTF-8")
            problems += [name + " has " + c for c in raw_controls(data)]
    tap.check(not problems, hostile.describe(args) + ": summary.txt valid UTF-8, controls escaped",
              "\n".join(problems) + "\n" + summary.decode("utf-8", "replace")[:1500]
              + hostile.stderr_of(p))


if __name__ == "__main__":
    sys.exit(main())
