#!/usr/bin/env python3
"""Issue 26, findings 2, 4 and the fan-out of 8: a run folder's hidden plot configuration
(.aiperf-plot-config.yaml, read by `inferview plot RUN` and by the window) is data from
whoever made the folder.

  - A preset named like a path (../../victim/holiday) does not reach outside `-o DIR`:
    the file there is byte-identical afterwards and the figure is inside DIR under a safe
    name; two presets whose names map to one file name both keep their figure.
  - The five memory and time bombs of finding 4 end within seconds: the alias bomb and
    the merge bombs are refused naming the file, its line and the rule (or read right),
    100,000 presets and 500,000 anchors are read in linear time.
  - A 3-way merge fan-out nine levels deep says its warning once, not 19,683 times;
    so do 5,000 presets that all merge one base with a bad value (the count is given).

Run by meson with IV_BINARY set; each case also fails on the code before the fix (the
path preset wrote through, the bombs took 25 s to minutes or aborted, the fan-out printed
19,683 lines).
"""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

# The old code copied a 1 MiB scalar 20,000 times: without an address-space cap it would
# take the machine's memory before aborting. Sanitizers reserve terabytes of shadow
# memory, so the cap is only set without them.
SANITIZED = any(k in os.environ for k in ("ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"))
# The bombs must end well within this (they take 0.2-3 s, drawing included; sanitizers
# make that a few times slower); the code before the fix took 2 minutes or more.
LIMIT_S = float(os.environ.get("IV_CONFIG_BOMB_LIMIT", "30" if SANITIZED else "10"))
AS_CAP = 6 << 30
TEST_DATA = os.environ.get("IV_TEST_DATA") or os.path.join(os.path.dirname(__file__), "..",
                                                             "data")
SAMPLE_RUN = os.path.join(TEST_DATA, "aiperf", "qwen_concurrency1")
CONFIG = ".aiperf-plot-config.yaml"


def cap_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (AS_CAP, AS_CAP))


def plot(args, timeout=None):
    """`inferview plot ARGS`: (process or None on a hang, seconds taken)."""
    env = dict(os.environ)
    env.setdefault("LC_ALL", "C.UTF-8")
    start = time.monotonic()
    p = hostile.run(["plot"] + args, timeout=timeout or max(hostile.TIMEOUT, 2 * LIMIT_S),
                    env=env, preexec_fn=None if SANITIZED else cap_memory)
    return p, time.monotonic() - start


def make_run(root, name, config_text):
    run = os.path.join(root, name)
    shutil.copytree(SAMPLE_RUN, run)
    with open(os.path.join(run, CONFIG), "w", encoding="utf-8") as f:
        f.write(config_text)
    return run


def err_of(p):
    return "" if p is None else p.stderr.decode("utf-8", "replace")


def files_under(top, skip):
    out = {}
    for d, dirs, files in os.walk(top):
        if os.path.abspath(d).startswith(os.path.abspath(skip)):
            continue
        for f in files:
            path = os.path.join(d, f)
            with open(path, "rb") as fh:
                out[path] = fh.read()
    return out


# ---- configurations ----

# a per-request distribution (aiperf's "histogram" is bars per time slice, which the
# sample run has none of)
HISTOGRAM = "{type: distribution, y: request_latency}"


def path_preset_config():
    return ("visualization:\n"
            "  single_run_defaults: [\"../../victim/holiday\", \"x/y\", \"x_y\", \"..\"]\n"
            "  single_run_plots:\n"
            "    \"../../victim/holiday\": %s\n"
            "    \"x/y\": %s\n"
            "    \"x_y\": %s\n"
            "    \"..\": %s\n" % (HISTOGRAM, HISTOGRAM, HISTOGRAM, HISTOGRAM))


def alias_scalar_bomb():
    """One 1 MiB anchored scalar aliased 20,000 times (20 GB once every alias is copied)."""
    big = "x" * (1 << 20)
    aliases = ", ".join(["*big"] * 20000)
    return ("visualization:\n"
            "  single_run_defaults: [bomb]\n"
            "  single_run_plots:\n"
            "    bomb:\n"
            "      type: histogram\n"
            "      y: request_latency\n"
            "      title: &big %s\n"
            "      labels: [%s]\n" % (big, aliases))


def self_merge_bomb():
    """A merge key listing its own anchor ten times (10^9 lookups before the fix)."""
    return ("visualization:\n"
            "  single_run_defaults: [loop]\n"
            "  single_run_plots:\n"
            "    loop: &a\n"
            "      type: histogram\n"
            "      y: request_latency\n"
            "      <<: [%s]\n" % ", ".join(["*a"] * 10))


def chain_merge_bomb():
    """Nine presets each merging the previous one ten times (10^8 lookups before)."""
    lines = ["visualization:", "  single_run_defaults: [p9]", "  single_run_plots:",
             "    p0: &p0 {type: histogram, y: request_latency, title: base}"]
    for i in range(1, 10):
        lines.append("    p%d: &p%d {<<: [%s]}" % (i, i, ", ".join(["*p%d" % (i - 1)] * 10)))
    return "\n".join(lines) + "\n"


def many_presets():
    """100,000 presets (looked up linearly before the fix: 25 s)."""
    lines = ["visualization:", "  single_run_defaults: [p99999]", "  single_run_plots:"]
    lines += ["    p%d: %s" % (i, HISTOGRAM) for i in range(100000)]
    return "\n".join(lines) + "\n"


def many_anchors():
    """500,000 anchors (libyaml's loader checks each against all before: > 120 s)."""
    items = ", ".join("&a%d %d" % (i, i) for i in range(500000))
    return ("visualization:\n"
            "  single_run_defaults: [h]\n"
            "  single_run_plots:\n"
            "    h: %s\n"
            "settings:\n"
            "  numbers: [%s]\n" % (HISTOGRAM, items))


def fan_out():
    """A 3-way merge fan-out nine levels deep: the base's bad key was warned 3^9 = 19,683
    times."""
    lines = ["visualization:", "  single_run_defaults: [l9]", "  single_run_plots:",
             "    l0: &l0 {type: histogram, y: request_latency, colour: red}"]
    for i in range(1, 10):
        lines.append("    l%d: &l%d {<<: [*l%d, *l%d, *l%d]}" % (i, i, i - 1, i - 1, i - 1))
    return "\n".join(lines) + "\n"


def shared_bad_base():
    """5,000 presets merging one base whose ci_level is out of range: one warning, counted."""
    lines = ["visualization:", "  single_run_defaults: [p0]", "  single_run_plots:",
             "    base: &base {type: histogram, y: request_latency, ci_level: 7}"]
    lines += ["    p%d: {<<: *base}" % i for i in range(5000)]
    return "\n".join(lines) + "\n"


def main():
    tap = hostile.Tap()
    if not hostile.BINARY or not os.path.isdir(SAMPLE_RUN):
        tap.skip("hostile plot configurations", "IV_BINARY or the sample run is missing")
        return tap.done()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-config-")
    try:
        check_path_preset(tap, tmp)
        check_links_in_output(tap, tmp)
        check_bombs(tap, tmp)
        check_repeats(tap, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.done()


def check_path_preset(tap, tmp):
    """A preset named ../../victim/holiday: the victim is intact, the figure is in OUT."""
    top = os.path.join(tmp, "path")
    victim_dir = os.path.join(top, "victim")
    os.makedirs(victim_dir)
    victim = os.path.join(victim_dir, "holiday.png")
    original = b"\x89PNG\r\n\x1a\n my holiday, not a plot"
    with open(victim, "wb") as f:
        f.write(original)
    run = make_run(os.path.join(top, "a", "runs"), "run1", path_preset_config())
    out = os.path.join(top, "a", "out")
    before = files_under(top, out)
    p, took = plot([run, "-o", out])
    what = "a preset named ../../victim/holiday stays inside -o DIR"
    problems = hostile.common_problems(p, about=run, expect=(0,))
    with open(victim, "rb") as f:
        if f.read() != original:
            problems.append("victim/holiday.png was replaced")
    after = files_under(top, out)
    if after != before:
        problems.append("files outside OUT changed: %s" % sorted(
            k for k in set(before) | set(after) if before.get(k) != after.get(k)))
    made = sorted(os.listdir(out)) if os.path.isdir(out) else []
    figures = [f for f in made if f.endswith(".png")]
    for f in figures:
        if f.startswith(".") or ".." in f or "\\" in f or len(f.encode()) > 110:
            problems.append("unsafe file name %r" % f)
        with open(os.path.join(out, f), "rb") as fh:
            if fh.read(8) != b"\x89PNG\r\n\x1a\n":
                problems.append("%s is not a PNG" % f)
    # four presets, four figures named as aiperf names them (f"{name}.png"): x/y's slash
    # is a dash, x_y keeps its underscore, and ".." is a name, not the parent folder
    if len(figures) != 4:
        problems.append("%d figures in OUT, 4 expected: %s" % (len(figures), made))
    if "victim-holiday.png" not in figures:
        problems.append("no victim-holiday.png in OUT: %s" % made)
    if not {"x-y.png", "x_y.png"} <= set(figures):
        problems.append("x/y and x_y are not x-y.png and x_y.png: %s" % made)
    summary = os.path.join(out, "summary.txt")
    if os.path.exists(summary):
        with open(summary, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "../../victim/holiday: victim-holiday.png" not in text:
            problems.append("summary.txt does not map the preset to its file:\n" + text)
    else:
        problems.append("no summary.txt")
    tap.check(not problems, what + " (%.1f s)" % took,
              "\n".join(problems) + "\n" + err_of(p)[-1500:])


def check_links_in_output(tap, tmp):
    """A run folder that ships plots/ (the default output folder) with links in it: the
    figure's file, summary.txt and report.html link to files outside; another run's
    plots/ is itself a link to the victims' folder.
    Atomic writes follow links to their targets (so a saved configuration kept in a
    dotfiles repository stays a link): here they must not, and the victims stay."""
    top = os.path.join(tmp, "links")
    victim_dir = os.path.join(top, "victim")
    os.makedirs(victim_dir)
    victims = {}
    for name in ("notes.txt", "figure.png", "report.html"):
        victims[name] = ("mine: %s\n" % name).encode()
        with open(os.path.join(victim_dir, name), "wb") as f:
            f.write(victims[name])
    run = make_run(os.path.join(top, "runs"), "run1",
                   "visualization:\n  single_run_defaults: [p]\n"
                   "  single_run_plots:\n    p: %s\n" % HISTOGRAM)
    plots = os.path.join(run, "plots")
    os.makedirs(plots)
    os.symlink(os.path.join(victim_dir, "notes.txt"), os.path.join(plots, "summary.txt"))
    os.symlink(os.path.join(victim_dir, "figure.png"), os.path.join(plots, "p.png"))
    os.symlink(os.path.join(victim_dir, "report.html"), os.path.join(plots, "report.html"))
    run2 = make_run(os.path.join(top, "runs"), "run2",
                    "visualization:\n  single_run_defaults: [figure]\n"
                    "  single_run_plots:\n    figure: %s\n" % HISTOGRAM)
    os.symlink(victim_dir, os.path.join(run2, "plots"))
    cases = [([run], "the figure and summary.txt"), ([run, "--html"], "report.html"),
             ([run2], "a linked plots/ folder")]
    for args, what in cases:
        p, took = plot(args)
        err = err_of(p)
        problems = hostile.common_problems(p, about=args[0], expect=(1,))
        for name, content in victims.items():
            with open(os.path.join(victim_dir, name), "rb") as f:
                if f.read() != content:
                    problems.append("victim/%s was written through a link" % name)
        if p is not None and "is a symbolic link" not in err:
            problems.append("the refusal does not say the output is a symbolic link")
        tap.check(not problems, "links in the default output folder: %s not written "
                  "through (%.1f s)" % (what, took), "\n".join(problems) + "\n" + err[-1500:])


def check_bombs(tap, tmp):
    top = os.path.join(tmp, "bombs")
    line_of_rule = re.compile(re.escape(CONFIG) + r":(\d+):(\d+): ")
    cases = [
        # name, configuration, expected: "refuse" (with a phrase of the rule and the line
        # it names) or "draw" (the preset drawn)
        ("alias-scalar", alias_scalar_bomb(), ("refuse", "aliases expand past", 8)),
        ("self-merge", self_merge_bomb(), ("refuse", "refers to the node it is inside", 7)),
        ("chain-merge", chain_merge_bomb(), ("refuse", "aliases expand past", None)),
        ("many-presets", many_presets(), ("draw", "p99999", None)),
        ("many-anchors", many_anchors(), ("draw", "h", None)),
    ]
    for name, text, (outcome, phrase, line) in cases:
        run = make_run(top, name, text)
        out = os.path.join(top, name + "-out")
        p, took = plot([run, "-o", out])
        err = err_of(p)
        problems = hostile.common_problems(p, about=run, expect=(1,) if outcome == "refuse" else (0,))
        if took > LIMIT_S:
            problems.append("took %.1f s (limit %.0f s)" % (took, LIMIT_S))
        if p is not None and outcome == "refuse":
            m = line_of_rule.search(err)
            if not m or phrase not in err:
                problems.append("the refusal does not name the file, a line and “%s”" % phrase)
            elif line is not None and int(m.group(1)) != line:
                problems.append("the refusal names line %s, not %d" % (m.group(1), line))
        if p is not None and outcome == "draw":
            drawn = os.path.join(out, phrase.replace("_", "-") + ".png")
            if not os.path.exists(drawn):
                problems.append("%s was not drawn" % os.path.basename(drawn))
        if p is not None and len(err.splitlines()) > 20:
            problems.append("%d lines on stderr" % len(err.splitlines()))
        tap.check(not problems, "%s: %s in %.1f s" % (name, outcome, took),
                  "\n".join(problems) + "\n" + err[-1500:])


def check_repeats(tap, tmp):
    top = os.path.join(tmp, "repeats")
    cases = [
        ("fan-out", fan_out(), "plot “l9”: unknown key “colour”, ignored", None),
        # the base reads it too: 5,001 times in all, however the locale groups digits
        ("shared-bad-base", shared_bad_base(), "ci_level must be between 0 and 1",
         re.compile(r"\(repeated 5\D?001 times\)")),
    ]
    for name, text, warning, count in cases:
        run = make_run(top, name, text)
        out = os.path.join(top, name + "-out")
        p, took = plot([run, "-o", out])
        err = err_of(p)
        problems = hostile.common_problems(p, about=run, expect=(0,))
        if took > LIMIT_S:
            problems.append("took %.1f s (limit %.0f s)" % (took, LIMIT_S))
        said = [ln for ln in err.splitlines() if warning in ln]
        if len(said) != 1:
            problems.append("the warning is said %d times, once expected" % len(said))
        elif count and not count.search(said[0]):
            problems.append("the warning does not say how often: %s" % said[0])
        if len(err.splitlines()) > 30:
            problems.append("%d lines on stderr" % len(err.splitlines()))
        tap.check(not problems, "%s: one warning, counted, in %.1f s" % (name, took),
                  "\n".join(problems) + "\n" + err[-1500:])


if __name__ == "__main__":
    sys.exit(main())
