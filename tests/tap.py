"""tap.py: what the Python tests share — checks collected, then printed as TAP (the
protocol meson reads), a failing check's detail under it as comments.

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tap import check, finish
    check(value == expected, "what is checked", "detail shown when it fails")
    sys.exit(finish())
"""

results = []


def check(ok, what, detail=""):
    """Record one check: @what says what it checks, @detail (text) why it failed."""
    results.append((bool(ok), what, detail))
    return bool(ok)


def finish(max_detail_lines=10):
    """Print the plan and every check as TAP; the exit status (0: all passed)."""
    print("1..%d" % len(results))
    for i, (ok, what, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
        if not ok and detail:
            for line in str(detail).splitlines()[:max_detail_lines]:
                print("#   " + line)
    return 0 if all(ok for ok, _, _ in results) else 1
