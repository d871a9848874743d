#!/usr/bin/env python3
"""Issue 26, finding 1 and the report parts of findings 3 and 6: `inferview plot --html`
of a run folder made by someone else.

The folder's hidden .aiperf-plot-config.yaml names a preset
  x"><img src=x onerror="location='http://127.0.0.1:PORT/'">
(PORT: a server this test listens on), its summary names the model `evil<!--<script>model`
(profile_export_aiperf.json, input_config.endpoint.model_names, which a preset grouping by
model turns into a series name, a hover text and a button), and the folder's own name has
a byte that is not UTF-8. The report must

  - create no element or attribute from data (Python's html.parser: no img element, no
    on* attribute, no attribute twice on one element, every id one the report generates:
    fig-N and the names inside its SVGs, runs, metrics-N, iv-tip);
  - keep every figure and table after the injected names (as many as the same folder
    with harmless names gives), the preset's name as an attribute value and the model's
    as JSON text that reads back exactly, with no "<!--", "<script" or "</" inside a
    script element;
  - be valid UTF-8, the folder name's bad byte replaced by U+FFFD;
  - carry a Content Security Policy with no 'unsafe-inline' (the page's own script and
    style allowed by hash, base-uri and form-action 'none');
  - and in headless Chromium: no handler runs and no request reaches the server, the
    page stays where it is with every figure and table, and the page's own script works
    (hovering the model's point shows its name as text).

A sweep of 1,500 runs, each its own model (1,500 series in each runs figure), is
reported in under a minute (the code before drew the whole chart once per series: about
6 minutes here).

Each case fails on the code before the fix: the preset's name ended the id attribute and
made an img element whose handler navigated to the server, the model's "<!--<script>"
was written raw into the figure's JSON (Chromium then read the rest of the page as
script text), the bad byte was copied into the page, and the policy allowed
'unsafe-inline'. Run by meson with IV_BINARY and IV_TEST_DATA set; without chromium or
tidy the checks that need them are skipped, naming the tool to install.
"""
import base64
import hashlib
import html.parser
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import hostile  # noqa: E402

TEST_DATA = os.environ.get("IV_TEST_DATA") or os.path.join(os.path.dirname(__file__), "..",
                                                             "data")
SAMPLE_RUN = os.path.join(TEST_DATA, "aiperf", "qwen_concurrency1")
MODEL = "evil<!--<script>model"
# ids the report makes: a figure's number, the names cairo gives inside its SVG layers
# (prefixed with the figure's number and its layer), the tables and the tooltip
GENERATED_ID = re.compile(r"^(fig-[0-9]+(-(f|s[0-9]+)-[A-Za-z0-9_-]+)?|runs|metrics-[0-9]+|iv-tip)$")
SWEEP_RUNS = 1500
SWEEP_LIMIT_S = float(os.environ.get("IV_REPORT_SWEEP_LIMIT", "60"))


def evil_preset(port):
    return "x\"><img src=x onerror=\"location='http://127.0.0.1:%d/'\">" % port


def yaml_string(s):
    return json.dumps(s)  # a JSON string is a YAML double-quoted scalar


def plot_config(preset):
    return """visualization:
  single_run_plots:
    %s:
      type: scatter
      x: request_number
      y: time_to_first_token
      title: "TTFT of every request"
    by_model:
      type: pareto
      x:
        metric: request_latency
        stat: avg
      y:
        metric: output_token_throughput
        stat: avg
      labels: [model]
      groups: [model]
      title: "Throughput against latency by model"
""" % yaml_string(preset)


def make_run(root, name, preset, model):
    """A copy of the sample run named @name (bytes), its model and hidden configuration."""
    run = os.path.join(os.fsencode(root), name)
    shutil.copytree(os.fsencode(SAMPLE_RUN), run)
    summary = os.path.join(run, b"profile_export_aiperf.json")
    with open(summary, encoding="utf-8") as f:
        d = json.load(f)
    d["input_config"]["endpoint"]["model_names"] = [model]
    with open(summary, "w", encoding="utf-8") as f:
        json.dump(d, f)
    with open(os.path.join(run, b".aiperf-plot-config.yaml"), "w", encoding="utf-8") as f:
        f.write(plot_config(preset))
    return run


class Page(html.parser.HTMLParser):
    """What the report's markup makes: elements, attributes, ids, script contents."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []  # (tag, attrs list)
        self.scripts = []  # (attrs dict, text)
        self.text = []
        self._script = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if tag == "script":
            self._script = (dict(attrs), [])

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1].append(data)
        else:
            self.text.append(data)


def parse(text):
    p = Page()
    p.feed(text)
    p.close()
    return p


def figures(page):
    return [dict(a) for t, a in page.tags if t == "figure"]


def tables(page):
    return [dict(a).get("id") for t, a in page.tags if t == "table"]


def csp_of(text):
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    return m.group(1) if m else ""


def sha256_source(content):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode()


class Listener:
    """An HTTP server on 127.0.0.1 that counts what reaches it (nothing should)."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                hits.append(self.path)
                body = b"<html><body id='navigated'>left the report</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def chromium_dom(chromium, path, extra_args=()):
    c = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--window-size=1280,900", "--virtual-time-budget=5000",
                        "--enable-logging=stderr", "--v=0"] + list(extra_args) +
                       ["--dump-dom", "file://" + path],
                       capture_output=True, text=True, timeout=180)
    return c.stdout, c.stderr


# Run inside a copy of the page (allowed by its hash, added to the copy's policy): hovers
# the model's point and reports what the reader would see.
PROBE = r"""
window.addEventListener('load', function () {
  var out = {href: location.href, figures: document.querySelectorAll('figure.iv-figure').length,
             tables: document.querySelectorAll('table').length,
             imgs: document.querySelectorAll('img').length,
             handlers: document.querySelectorAll('[onerror],[onload],[onclick]').length};
  document.querySelectorAll('figure.iv-figure').forEach(function (f) {
    JSON.parse(f.querySelector('script.iv-points').textContent).forEach(function (s) {
      if (out.tip !== undefined || s.name !== window.IV_MODEL || !s.points.length) return;
      var svg = f.querySelector('svg'), p = svg.createSVGPoint();
      p.x = s.points[0][0]; p.y = s.points[0][1];
      p = p.matrixTransform(svg.getScreenCTM());
      svg.dispatchEvent(new MouseEvent('mousemove', {clientX: p.x, clientY: p.y, bubbles: true}));
      var tip = document.getElementById('iv-tip');
      out.tip = tip.hidden ? null : tip.textContent;
      out.tip_elements = tip.children.length;
      out.expected = s.name + ' \u2014 ' + s.points[0][2];
    });
  });
  document.body.setAttribute('data-probe', JSON.stringify(out));
});
"""


def with_probe(text, probe, model):
    """The page with @probe before </body>, its hash added to script-src."""
    setup = "window.IV_MODEL=%s;" % json.dumps(model).replace("<", "\\u003c")
    extra = sha256_source(setup) + " " + sha256_source(probe)
    text = text.replace("script-src ", "script-src %s " % extra, 1)
    return text.replace("</body>", "<script>%s</script><script>%s</script></body>" % (setup, probe), 1)


def check_markup(t, text, page, control, preset):
    tags = [tag for tag, _ in page.tags]
    t.check("img" not in tags, "no img element made from the preset's name",
            "elements: %s" % sorted(set(tags)))
    handlers = [(tag, k) for tag, attrs in page.tags for k, _ in attrs if k.startswith("on")]
    t.check(not handlers, "no on* attribute anywhere", str(handlers[:5]))
    doubled = [tag for tag, attrs in page.tags if len({k for k, _ in attrs}) != len(attrs)]
    t.check(not doubled, "no attribute twice on one element", str(doubled[:5]))
    ids = [v for _, attrs in page.tags for k, v in attrs if k == "id"]
    bad = [i for i in ids if not GENERATED_ID.match(i or "")]
    t.check(ids and not bad, "every id is one the report generates", str(bad[:5]))
    t.check(len(ids) == len(set(ids)), "every id unique")
    refs = re.findall(r'(?:href="#|url\(#)([^")]*)', text)
    t.check(all(GENERATED_ID.match(r) for r in refs), "every in-page reference a generated id",
            str([r for r in refs if not GENERATED_ID.match(r)][:5]))
    figs, control_figs = figures(page), figures(control)
    t.check(len(figs) == len(control_figs) and len(figs) >= 2,
            "every figure is there after the injected names (%d, as with harmless ones)" % len(figs),
            "%d figures, %d with harmless names" % (len(figs), len(control_figs)))
    t.check(any(f.get("data-preset") == preset for f in figs),
            "the preset's figure carries its name as an attribute value, exactly")
    t.check(tables(page) == tables(control) and "runs" in tables(page),
            "every table is there (%d)" % len(tables(page)), "%s / %s" % (tables(page), tables(control)))
    t.check(page.scripts and page.scripts[-1][0] == {} and "addEventListener" in page.scripts[-1][1],
            "the page's own script is the last element, a script still")
    data = [s for a, s in page.scripts if a.get("type") == "application/json"]
    raw = [s for s in data if re.search(r"<!--|<script|</", s, re.I)]
    t.check(len(data) == len(figs) and not raw,
            "no <!--, <script or </ inside a figure's JSON", raw[0][:200] if raw else "")
    names = set()
    for s in data:
        try:
            names |= {series["name"] for series in json.loads(s)}
        except ValueError as e:
            t.check(False, "a figure's JSON reads", str(e))
    t.check(MODEL in names, "the model's name reads back exactly from the JSON", str(sorted(names))[:300])
    buttons = "".join(page.text)
    t.check(MODEL in buttons, "and is written as text where the page shows it")


def check_policy(t, text, page):
    csp = csp_of(text)
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    t.check("'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp,
            "the policy has no 'unsafe-inline' (no inline handler runs)", csp)
    own = page.scripts[-1][1] if page.scripts else ""
    t.check(directives.get("script-src") == [sha256_source(own)],
            "script-src allows the page's own script by its SHA-256 only", csp)
    m = re.search(r"<style>(.*?)</style>", text, re.S)
    t.check(m and directives.get("style-src") == [sha256_source(m.group(1))],
            "style-src allows the page's own style by its SHA-256 only", csp)
    t.check(directives.get("default-src") == ["'none'"] and directives.get("base-uri") == ["'none'"]
            and directives.get("form-action") == ["'none'"],
            "default-src, base-uri and form-action are 'none'", csp)
    styled = [tag for tag, attrs in page.tags for k, _ in attrs if k == "style"]
    t.check(not styled, "no style attribute (the policy would refuse it)", str(styled[:5]))


def check_chromium(t, chromium, tmp, report_path, text, n_figures, n_tables):
    listener = Listener()
    try:
        # the report as written, nothing added
        dom, err = chromium_dom(chromium, report_path)
        t.check(not listener.hits, "Chromium: no request reaches the server", str(listener.hits))
        t.check("navigated" not in dom and dom.count('class="iv-figure"') == n_figures,
                "Chromium: the page stays, every figure in its DOM (%d)" % n_figures,
                "%d figures in the DOM; %s" % (dom.count('class="iv-figure"'), err[-500:]))
        t.check(dom.count("<table") == n_tables and "<img" not in dom,
                "Chromium: every table, no img element", "%d tables" % dom.count("<table"))
        refused = [l for l in err.splitlines() if "Content Security Policy" in l
                   and "navigate-to" not in l]
        t.check(not refused, "Chromium refuses nothing of the page's own (no script, no style)",
                "\n".join(refused[:5]))
        # a copy with a probe that hovers the model's point: the page's script works
        probe_path = os.path.join(tmp, "probe.html")
        with open(probe_path, "w", encoding="utf-8") as f:
            f.write(with_probe(text, PROBE, MODEL))
        dom, err = chromium_dom(chromium, probe_path)
        m = re.search(r'data-probe="([^"]*)"', dom)
        out = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                         .replace("&amp;", "&")) if m else {}
        t.check(out.get("href", "").startswith("file://") and out.get("figures") == n_figures
                and out.get("tables") == n_tables and out.get("imgs") == 0 and out.get("handlers") == 0,
                "Chromium: after load, still the file, every figure and table, no img, no handler",
                "%s; %s" % (out, err[-500:]))
        t.check(out.get("tip") is not None and out.get("expected") in out["tip"].split("\n")
                and MODEL in out["tip"] and out.get("tip_elements") == 0,
                "Chromium: the page's script works, the model's name shown as text in the tooltip",
                str(out))
        t.check(not listener.hits, "Chromium: still no request after the probe", str(listener.hits))
    finally:
        listener.close()


def sweep(t, tmp):
    """1,500 runs, each its own model: a series each in every runs figure."""
    root = os.path.join(tmp, "sweep")
    with open(os.path.join(SAMPLE_RUN, "profile_export_aiperf.json"), encoding="utf-8") as f:
        d = json.load(f)
    d.pop("telemetry_data", None)
    for i in range(SWEEP_RUNS):
        run = os.path.join(root, "run%04d" % i)
        os.makedirs(run)
        d["input_config"]["endpoint"]["model_names"] = ["model-%d" % i]
        d["input_config"]["loadgen"]["concurrency"] = 1 + i % 64
        d["request_throughput"]["avg"] = 0.25 + i * 0.01
        with open(os.path.join(run, "profile_export_aiperf.json"), "w", encoding="utf-8") as f:
            json.dump(d, f)
    out = os.path.join(tmp, "sweep-out")
    start = time.monotonic()
    p = hostile.run(["plot", root, "--html", "-o", out], timeout=max(SWEEP_LIMIT_S * 3, hostile.TIMEOUT))
    took = time.monotonic() - start
    problems = hostile.common_problems(p, root, expect=(0,))
    layers = 0
    if os.path.exists(os.path.join(out, "report.html")):
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            layers = f.read().count('class="iv-layer"')
    t.check(not problems and took <= SWEEP_LIMIT_S and layers >= SWEEP_RUNS,
            "a report of %d runs, each its own series, in %.1f s (limit %.0f s; %d layers)"
            % (SWEEP_RUNS, took, SWEEP_LIMIT_S, layers), "; ".join(problems) + hostile.stderr_of(p)[-500:])


def main():
    t = hostile.Tap()
    tmp = tempfile.mkdtemp(prefix="iv-hostile-report-")
    listener_port = Listener()  # only reserves a port nobody else gets for the payload
    port = listener_port.port
    listener_port.close()
    try:
        preset = evil_preset(port)
        env = dict(os.environ, LC_ALL="C.UTF-8")
        evil = make_run(tmp, b"run-\xff-<b>", preset, MODEL)
        calm = make_run(tmp, b"calm", "harmless", "Qwen/Qwen3-0.6B")
        outs = {}
        for name, run in (("evil", evil), ("calm", calm)):
            out = os.path.join(tmp, "out-" + name)
            p = hostile.run(["plot", run, "--html", "-o", out], env=env)
            problems = hostile.common_problems(p, os.fsdecode(run), expect=(0,))
            t.check(not problems, "plot --html of the %s run writes its report" % name,
                    "; ".join(problems) + "\n" + hostile.stderr_of(p))
            outs[name] = os.path.join(out, "report.html")
        if not all(os.path.exists(p) for p in outs.values()):
            return t.done()
        with open(outs["evil"], "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
            t.check("run-\ufffd-&lt;b&gt;" in text, "the folder's bad byte is U+FFFD in the page")
        except UnicodeDecodeError as e:
            t.check(False, "the report is valid UTF-8", str(e))
            text = raw.decode("utf-8", "replace")
        with open(outs["calm"], encoding="utf-8") as f:
            control = parse(f.read())
        page = parse(text)
        check_markup(t, text, page, control, preset)
        check_policy(t, text, page)

        tidy = shutil.which("tidy")
        if tidy:
            r = subprocess.run([tidy, "-q", "-e", outs["evil"]], capture_output=True, text=True)
            t.check(r.returncode == 0 and not r.stderr.strip(), "tidy finds nothing to say",
                    r.stderr[:500])
        else:
            t.skip("tidy finds nothing to say", "install tidy")
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium:
            check_chromium(t, chromium, tmp, outs["evil"], text, len(figures(page)), len(tables(page)))
        else:
            t.skip("Chromium: no handler runs, no request leaves, every figure and table",
                   "install chromium")
        sweep(t, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
