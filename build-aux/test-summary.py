#!/usr/bin/env python3
"""Counts test results from meson's testlog.json files and prints one line
'N passed, N failed' (', N skipped' when any). TAP programs (every g_test suite) count
per test case; others count once. Each skip is named first, with its reason ("skipped:
report - install chromium"), so a missing optional tool is never silent. Exit status 1
when anything failed."""
import json
import re
import sys

TAP = re.compile(r"^(ok|not ok)\b(.*)$")


def count(path, reasons):
    passed = failed = skipped = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            result = entry["result"]
            cases = [TAP.match(l) for l in entry.get("stdout", "").splitlines()]
            cases = [m for m in cases if m]
            if result in ("SKIP",):
                skipped += 1
                lines = [l for l in entry.get("stdout", "").splitlines() if l.strip()]
                reasons.append((entry["name"], lines[-1].strip() if lines else "no reason given"))
                continue
            if not cases:
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                else:
                    failed += 1
                continue
            for m in cases:
                if "# SKIP" in m.group(2):
                    skipped += 1
                    why = m.group(2).split("# SKIP", 1)[1].strip() or "no reason given"
                    reasons.append((entry["name"], why))
                elif m.group(1) == "ok":
                    passed += 1
                else:
                    failed += 1
            # A crash after the last reported case is a failure of its own.
            if result not in ("OK", "EXPECTEDFAIL") and all(m.group(1) == "ok" for m in cases):
                failed += 1
    return passed, failed, skipped


def main():
    total = [0, 0, 0]
    reasons = []
    args = sys.argv[1:]
    if args[:1] == ["--failed-stages"]:
        # CI stages with no test log (a build, the fuzzers) that failed: one each.
        total[1] += int(args[1])
        args = args[2:]
    for path in args:
        for i, n in enumerate(count(path, reasons)):
            total[i] += n
    for name, why in reasons:
        print(f"skipped: {name} - {why}")
    line = f"{total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
