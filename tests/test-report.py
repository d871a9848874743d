#!/usr/bin/env python3
"""test-report.py: `inferview plot --html` as a reader gets it (TAP).

The report of the bundled sweep and of one run: one file and nothing else, nothing it
could fetch (no src/href but in-page anchors, a Content Security Policy of
default-src 'none'), every figure inline with its layers and hover targets; an HTML
checker (tidy, where installed) finds nothing to say; and in a real browser engine
(headless Chromium, where installed) the figures are counted, a pointer hovers a point
and its tooltip says that point's values, a series toggle hides its layer, and a column
header sorts its table. A dense generated run stays under 5 MB. The page's Content
Security Policy allows no inline code but the page's own script and style, by their
SHA-256 hashes (a probe added to a copy is allowed the same way), and every id in the
page is one the report generates from a counter (fig-N), none from a preset's name.
"""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN = os.environ["IV_BINARY"]
SAMPLES = os.environ["IV_SAMPLES_DIR"]
results = []


def check(ok, name, detail=""):
    results.append(ok)
    print(("ok" if ok else "not ok") + " %d - %s%s" % (len(results), name, "" if ok else " # " + detail))


def skip(name, why):
    results.append(True)
    print("ok %d - %s # SKIP %s" % (len(results), name, why))


# The ids the report makes: a figure's number, the names cairo gives inside its SVG
# layers (prefixed with the figure's id and layer), the tables and the tooltip.
GENERATED_ID = re.compile(r"^(fig-[0-9]+(-(f|s[0-9]+)-[A-Za-z0-9_-]+)?|runs|metrics-[0-9]+|iv-tip)$")


def sha256_source(content):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode()


def with_probe(html, probe_script):
    """The page with @probe_script (script elements) before </body>, each allowed by its
    hash in the copy's script-src: the page's policy otherwise as written."""
    hashes = " ".join(sha256_source(c) for c in re.findall(r"<script>(.*?)</script>", probe_script, re.S))
    html = html.replace("script-src ", "script-src %s " % hashes, 1)
    return html.replace("</body>", probe_script + "</body>")


def csp_refusals(stderr):
    """Chromium's console lines refusing something under the page's policy (navigate-to,
    which it does not know, is only noted)."""
    return [l for l in stderr.splitlines() if "Content Security Policy" in l and "navigate-to" not in l]


def report(path, out, *extra):
    r = subprocess.run([BIN, "plot", path, "--html", "-o", out] + list(extra), capture_output=True, text=True)
    return r, os.path.join(out, "report.html")


# Injected into a copy of the page: what a reader's pointer and clicks do, reported back
# through the DOM that --dump-dom prints.
PROBE = r"""
<script>
window.addEventListener('load', function () {
  var out = {figures: document.querySelectorAll('figure.iv-figure').length};
  var fig = null, data = null, pt = null;
  document.querySelectorAll('figure.iv-figure').forEach(function (f) {
    var d = JSON.parse(f.querySelector('script.iv-points').textContent);
    d.forEach(function (s) {
      if (!pt && s.points.length && f.querySelector('.iv-toggle[data-series="' + s.series + '"]')) {
        fig = f; data = s; pt = s.points[0];
      }
    });
  });
  if (pt) {
    var svg = fig.querySelector('svg');
    var p = svg.createSVGPoint(); p.x = pt[0]; p.y = pt[1];
    p = p.matrixTransform(svg.getScreenCTM());
    svg.dispatchEvent(new MouseEvent('mousemove', {clientX: p.x, clientY: p.y, bubbles: true}));
    var tip = document.getElementById('iv-tip');
    out.tip = tip.hidden ? null : tip.textContent;
    out.expected = data.name + ' \u2014 ' + pt[2];
    var b = fig.querySelector('.iv-toggle[data-series="' + data.series + '"]');
    if (b) {
      b.click();
      out.layer_hidden = fig.querySelector('g.iv-layer[data-series="' + data.series + '"]').style.display === 'none';
      svg.dispatchEvent(new MouseEvent('mousemove', {clientX: p.x, clientY: p.y, bubbles: true}));
      out.tip_after_hide = tip.hidden ? null : tip.textContent;
    }
  }
  var t = document.getElementById('runs');
  t.querySelectorAll('th')[1].click(); t.querySelectorAll('th')[1].click();
  out.sorted = Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[1].getAttribute('data-value'); });
  document.body.setAttribute('data-probe', JSON.stringify(out));
});
</script>
"""


# Hovers one target of each figure named in window.IV_FIGS, chosen by a text it holds.
PROBE_FIGS = r"""
<script>
window.addEventListener('load', function () {
  var out = {figures: document.querySelectorAll('figure.iv-figure').length, hovers: {}};
  Object.keys(window.IV_FIGS).forEach(function (id) {
    var fig = document.querySelector('figure[data-preset="' + id + '"]'), want = window.IV_FIGS[id], hit = null;
    if (!fig) return;
    JSON.parse(fig.querySelector('script.iv-points').textContent).forEach(function (s) {
      s.points.forEach(function (q) { if (!hit && q[2].indexOf(want) >= 0) hit = {s: s, q: q}; });
    });
    if (!hit) { out.hovers[id] = {missing: want}; return; }
    var svg = fig.querySelector('svg'), p = svg.createSVGPoint();
    p.x = hit.q[0]; p.y = hit.q[1];
    p = p.matrixTransform(svg.getScreenCTM());
    svg.dispatchEvent(new MouseEvent('mousemove', {clientX: p.x, clientY: p.y, bubbles: true}));
    var tip = document.getElementById('iv-tip');
    out.hovers[id] = {tip: tip.hidden ? null : tip.textContent, expected: hit.s.name + ' \u2014 ' + hit.q[2]};
  });
  document.body.setAttribute('data-probe', JSON.stringify(out));
});
</script>
"""


def chromium_probe(chromium, html, probe_script, tmp, name):
    probe = os.path.join(tmp, name)
    with open(probe, "w", encoding="utf-8") as f:
        f.write(with_probe(html, probe_script))
    c = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--window-size=1280,900", "--virtual-time-budget=3000", "--enable-logging=stderr",
                        "--v=0", "--dump-dom", "file://" + probe], capture_output=True, text=True, timeout=120)
    m = re.search(r'data-probe="([^"]*)"', c.stdout)
    return (json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")) if m else {}), c.stderr


def isl_osl(tmp, tidy, chromium):
    """The ISL x OSL sweep's report: the heat maps, small multiples and surface, hovered."""
    sweep = os.path.join(SAMPLES, "isl-osl-sweep")
    r, page = report(sweep, os.path.join(tmp, "isl-osl"))
    check(r.returncode == 0 and os.path.isfile(page), "an ISL x OSL sweep's report", r.stderr)
    html = open(page, encoding="utf-8").read()
    presets = ["isl_osl_throughput_heatmap", "isl_osl_ttft_heatmap", "isl_osl_pareto_grid",
               "isl_osl_pareto_surface"]
    for name in presets:
        m = re.search(r'<figure class="iv-figure" id="([^"]*)" data-preset="%s">' % name, html)
        check(m and GENERATED_ID.match(m.group(1)), "the report draws " + name + " (a numbered figure)")
    # the cell ISL 128, OSL 128 at concurrency 64, read from the run's own summary
    with open(os.path.join(sweep, "isl128_osl128", "concurrency64", "profile_export_aiperf.json")) as f:
        tps = json.load(f)["output_token_throughput"]["avg"]
    want = "%.2gk" % (tps / 1000)
    if tidy:
        t = subprocess.run([tidy, "-q", "-e", page], capture_output=True, text=True)
        check(t.returncode == 0 and not t.stderr.strip(), "tidy finds nothing to say: isl-osl", t.stderr[:300])
    if not chromium:
        skip("ISL x OSL in a browser engine", "chromium is not installed")
        return
    figs = {"isl_osl_throughput_heatmap": "Output tokens (OSL): 128\nInput tokens (ISL): 128",
            "isl_osl_pareto_grid": "64:", "isl_osl_pareto_surface": "OSL 2048 \u2014 concurrency 16"}
    script = "<script>window.IV_FIGS=%s;</script>" % json.dumps(figs) + PROBE_FIGS
    out, err = chromium_probe(chromium, html, script, tmp, "probe-isl-osl.html")
    check(not csp_refusals(err), "Chromium refuses nothing of the ISL x OSL page under its policy",
          "\n".join(csp_refusals(err)[:3]))
    for fid in figs:
        h = (out.get("hovers") or {}).get(fid) or {}
        check(h.get("tip") is not None and h.get("expected") in h.get("tip"),
              "hovering " + fid + " shows its card", "%s; %s" % (h, err[-300:]))
    heat = ((out.get("hovers") or {}).get("isl_osl_throughput_heatmap") or {}).get("tip") or ""
    with open(os.path.join(sweep, "isl128_osl128", "concurrency1", "profile_export_aiperf.json")) as f:
        one = "%.3g" % json.load(f)["output_token_throughput"]["avg"]
    check(heat.startswith("concurrency 1 \u2014 Output token throughput per GPU (avg): %s tokens/s/GPU" % one),
          "the heat map card names its panel and the cell's value", heat)
    # the same cell at concurrency 64: its value as the summary has it
    check(want in html, "the heat map writes the summary's throughput (%s) in its cell" % want)


def main():
    tmp = tempfile.mkdtemp(prefix="iv-report-")
    try:
        sweep = os.path.join(SAMPLES, "aiperf")
        r, page = report(sweep, os.path.join(tmp, "sweep"))
        check(r.returncode == 0 and os.path.isfile(page), "plot --html writes report.html", r.stderr)
        check(os.listdir(os.path.dirname(page)) == ["report.html"], "and nothing else",
              str(os.listdir(os.path.dirname(page))))
        html = open(page, encoding="utf-8").read()
        fetches = re.findall(r'\s(?:src|href|xlink:href|action|poster|data)="(?!#)[^"]*"', html)
        check(not fetches, "no attribute that could fetch anything", str(fetches[:3]))
        check("url(http" not in html and "@import" not in html, "no stylesheet fetch")
        check("default-src 'none'" in html, "a Content Security Policy forbids every request")
        csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', html)
        csp = dict((d.split()[0], d.split()[1:]) for d in (csp.group(1) if csp else "").split(";") if d.strip())
        own_script = re.findall(r"<script>(.*?)</script>", html, re.S)
        own_style = re.findall(r"<style>(.*?)</style>", html, re.S)
        check(len(own_script) == 1 and csp.get("script-src") == [sha256_source(own_script[0])],
              "script-src allows the page's own script by its hash, nothing inline else", str(csp))
        check(len(own_style) == 1 and csp.get("style-src") == [sha256_source(own_style[0])],
              "style-src allows the page's own style by its hash", str(csp))
        check(csp.get("base-uri") == ["'none'"] and csp.get("form-action") == ["'none'"]
              and csp.get("navigate-to") == ["'none'"], "base-uri, form-action and navigate-to are 'none'",
              str(csp))
        inline = re.findall(r"<[a-zA-Z][^>]*?\s(on[a-z]+|style)\s*=",
                            re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S))
        check(not inline, "no style attribute, no inline handler (the policy would refuse them)",
              str(inline[:3]))
        figures = html.count('<figure class="iv-figure"')
        # every multi-run preset but the one of repeated trials, which the samples lack
        check(figures == 9, "the sweep's figures are inline", "%d figures" % figures)
        check("latency_throughput_uncertainty: not drawn, no repeated trials" in html,
              "a preset that cannot be drawn says why")
        check(html.count('<svg class="iv-svg"') == figures and html.count('class="iv-points"') == figures,
              "each figure an inline SVG with its hover targets")
        ids = re.findall(r'\sid="([^"]+)"', html)
        check(len(ids) == len(set(ids)), "every id unique across the figures' layers",
              str([i for i in set(ids) if ids.count(i) > 1][:3]))
        check(all(GENERATED_ID.match(i) for i in ids), "every id generated (fig-N, its layers' names)",
              str([i for i in ids if not GENERATED_ID.match(i)][:3]))
        check(re.findall(r'<figure class="iv-figure" id="(fig-[0-9]+)"', html)
              == ["fig-%d" % (k + 1) for k in range(figures)], "the figures numbered fig-1 to fig-%d" % figures)
        check("concurrency 4" in html and "Server KV cache avg" in html,
              "the runs table, with the server's metrics")
        runs_at = html.find('id="runs"')
        shared = html.rfind('<p class="dim">Model: Qwen/Qwen3-0.6B \u00b7 ', 0, runs_at)
        runs_head = html[runs_at:html.find("</thead>", runs_at)]
        check(shared > 0 and "<th>Model</th>" not in runs_head and ">Model<" not in runs_head,
              "what every run shares is said once above the runs table, not a column",
              runs_head[:300])
        check("Server: KV-cache usage" in html, "each run's metrics table has the server's metrics")

        one = os.path.join(SAMPLES, "aiperf", "qwen_concurrency1")
        r, page_one = report(one, os.path.join(tmp, "one"), "--plot", "all")
        check(r.returncode == 0, "a run's report with every preset", r.stderr)

        r = subprocess.run([BIN, "plot", sweep, "--html", "--watch"], capture_output=True, text=True)
        check(r.returncode == 2 and "--html" in r.stderr, "--html with --watch is a usage error", r.stderr)

        # a dense run: 100,000 requests stay under 5 MB (hover targets and markers thinned
        # per cell, lines per pixel column)
        dense = os.path.join(tmp, "dense")
        os.makedirs(dense)
        with open(os.path.join(SAMPLES, "aiperf", "qwen_concurrency1", "profile_export.jsonl")) as f:
            line = json.loads(f.readline())
        with open(os.path.join(dense, "profile_export.jsonl"), "w") as f:
            t0 = line["metadata"]["request_start_ns"]
            for i in range(100000):
                rec = line
                rec["metadata"]["request_start_ns"] = t0 + i * 2000000
                rec["metadata"]["request_ack_ns"] = t0 + i * 2000000 + 1000000
                rec["metadata"]["request_end_ns"] = t0 + i * 2000000 + 3000000000 + (i * 7919) % 900000000
                rec["metrics"]["time_to_first_token"]["value"] = 20 + (i * 7919) % 1000 / 10.0
                rec["metrics"]["request_latency"]["value"] = 3000 + (i * 104729) % 900
                rec["metrics"]["inter_chunk_latency"]["value"] = [18.0, 18.5]
                f.write(json.dumps(rec) + "\n")
        r, page_dense = report(dense, os.path.join(tmp, "dense-out"))
        size = os.path.getsize(page_dense) if os.path.exists(page_dense) else 0
        check(r.returncode == 0 and 0 < size <= 5 * 1024 * 1024, "a 100,000-request run's report is at most 5 MB",
              "%d bytes; %s" % (size, r.stderr))
        print("# 100k-request report: %.2f MB" % (size / 1e6))

        tidy = shutil.which("tidy")
        if tidy:
            for p in (page, page_one):
                t = subprocess.run([tidy, "-q", "-e", p], capture_output=True, text=True)
                check(t.returncode == 0 and not t.stderr.strip(), "tidy finds nothing to say: " +
                      os.path.basename(os.path.dirname(p)), t.stderr[:300])
        else:
            skip("HTML checker", "tidy is not installed")

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium:
            out, err = chromium_probe(chromium, html, PROBE, tmp, "probe.html")
            check(out.get("figures") == figures, "Chromium counts the figures",
                  "%s; %s" % (out, err[-300:]))
            check(not csp_refusals(err), "Chromium refuses nothing of the page under its policy",
                  "\n".join(csp_refusals(err)[:3]))
            check(out.get("tip") is not None and out.get("expected") in out.get("tip").split("\n"),
                  "hovering a point shows its tooltip (every series drawn there)", str(out))
            check(out.get("layer_hidden") is True, "its series' toggle hides its layer", str(out))
            check(out.get("expected") not in (out.get("tip_after_hide") or "").split("\n"),
                  "a hidden series is not hovered", str(out))
            sorted_ = out.get("sorted") or []
            check(sorted_ and [float(x) for x in sorted_] == sorted([float(x) for x in sorted_], reverse=True),
                  "a header click sorts the runs (twice: descending)", str(sorted_))
        else:
            skip("browser engine", "chromium is not installed")
        isl_osl(tmp, tidy, chromium)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
