#!/usr/bin/env python3
"""Differential test of the analytical model: `inferview model --format json` against a
second implementation written from the specification (tests/model-reference.py) on
hundreds of configurations drawn with a fixed seed — every preset (dense, GQA, MLA, MoE,
sliding-window and alternating), both modes, TP, CP and EP on PEs and cubes, both rings,
the SIP presets and the GPU servers (a switch with its own reduction, a fully connected
fabric), every number format, EP with a load imbalance, the TP all-reduce overlapped or
not — every stage's FLOPs, bytes, bytes communicated and time, the layer totals, the step
and the KV cache; a configuration one side rejects, the other must reject too. Then the
serving curve (§10) of four models on the GPU servers: each point's TTFT, ITL and
throughputs, and both frontiers, redone with the reference. TAP on stdout."""
import importlib.util
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("IV_BINARY", "inferview")
spec = importlib.util.spec_from_file_location("model_reference", os.path.join(HERE, "model-reference.py"))
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

N_CONFIGS = int(os.environ.get("IV_MODEL_REFERENCE_N", "480"))
results = []


def check(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), name,
                            "" if ok or not detail else " # " + detail.replace("\n", " ")))


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


FORMATS_W = ["bf16", "fp16", "fp8", "fp8-e5m2", "int8", "int4", "nvfp4", "mxfp4"]
FORMATS_A = [f for f in FORMATS_W if f != "int4"]
GPU_SERVERS = ("h100x8", "h200x8", "b200x8", "mi300x8")


def draw(rng, names):
    mode = rng.choice(["prefill", "decode"])
    cfg = {
        "preset": rng.choice(names),
        "hardware": rng.choice(["ring4", "mesh4x4", "torus4x4", "h100x8", "b200x8", "mi300x8"]),
        "mode": mode, "B": rng.choice([1, 2, 8, 32]),
        "T": rng.choice([1, 1, 4]) if mode == "decode" else rng.choice([7, 128, 1000, 4096]),
        "P": rng.choice([0, 511, 3000, 8192, 40000]), "t": rng.choice([1, 2, 3, 4, 8, 12, 16, 32]),
        "c": rng.choice([1, 1, 2, 3, 4, 8]), "place_tp": rng.choice(["pe", "cube"]),
        "place_cp": rng.choice(["pe", "cube"]), "ring": rng.choice(["kv", "qoml"]),
        "e_w": 2.0, "e_a": 2.0, "e_kv": 2.0, "e_p": 4.0,
    }
    # §2.3 formats: a third of the draws keep BF16 (the configurations before issue 34)
    if rng.random() < 0.67:
        cfg["f_w"], cfg["f_a"], cfg["f_kv"] = rng.choice(FORMATS_W), rng.choice(FORMATS_A), rng.choice(FORMATS_A)
    # §4.4 EP with its imbalance, §4 overlap
    cfg["e"] = rng.choice([1, 1, 1, 2, 4])
    cfg["place_ep"] = rng.choice(["pe", "cube", "cube", "cube"])
    cfg["imbalance"] = rng.choice([1.0, 1.0, 1.25, 2.0])
    cfg["overlap"] = rng.random() < 0.3
    if cfg["hardware"] in GPU_SERVERS:
        # one GPU per "cube": groups live across GPUs, through the switch or the mesh
        cfg.update(place_tp="cube", place_cp="cube", place_ep="cube", t=rng.choice([1, 2, 4, 8]),
                   c=rng.choice([1, 1, 2]))
        # mostly what an 8-GPU server holds; now and then more, which both must refuse
        fits = [x for x in (1, 2, 4, 8) if cfg["t"] * cfg["c"] * x <= 8] or [1]
        cfg["e"] = rng.choice(fits + fits + [2, 4])
    return cfg


def with_format_bytes(cfg):
    """The bytes a format gives (§2.3), as the program sets them from its options."""
    out = dict(cfg)
    for f, key in (("f_w", "e_w"), ("f_a", "e_a"), ("f_kv", "e_kv")):
        if f in cfg:
            out[key] = ref.fmt_bytes(cfg[f])
    return out


def run(cfg):
    args = [BIN, "model", "--preset", cfg["preset"], "--hardware", cfg["hardware"], "--mode", cfg["mode"],
            "--batch", str(cfg["B"]), "--tq", str(cfg["T"]), "--context", str(cfg["P"]), "--tp", str(cfg["t"]),
            "--cp", str(cfg["c"]), "--tp-place", cfg["place_tp"], "--cp-place", cfg["place_cp"],
            "--ring", cfg["ring"], "--format", "json"]
    for f, opt in (("f_w", "--weight-format"), ("f_a", "--act-format"), ("f_kv", "--kv-format")):
        if f in cfg:
            args += [opt, cfg[f]]
    if "e" in cfg:
        args += ["--ep", str(cfg["e"]), "--ep-place", cfg["place_ep"], "--imbalance", repr(cfg["imbalance"])]
    if cfg.get("overlap"):
        args.append("--overlap")
    return subprocess.run(args, capture_output=True, text=True)


def compare(cfg, models):
    r = run(cfg)
    label = "%(preset)s %(hardware)s %(mode)s B=%(B)d T=%(T)d P=%(P)d TP=%(t)d(%(place_tp)s) " \
            "CP=%(c)d(%(place_cp)s) %(ring)s" % cfg
    label += " EP=%s(%s) ι=%s W %s A %s KV %s%s" % (
        cfg.get("e", 1), cfg.get("place_ep", "cube"), cfg.get("imbalance", 1), cfg.get("f_w", "bf16"),
        cfg.get("f_a", "bf16"), cfg.get("f_kv", "bf16"), " overlap" if cfg.get("overlap") else "")
    m = models[cfg["preset"]]
    cfg = with_format_bytes(cfg)
    if r.returncode != 0:
        # the reference must reject it too: a placement it cannot embed, or sizes over the SIP
        try:
            hw = ref.hardware(json.loads(run({**cfg, "t": 1, "c": 1, "e": 1}).stdout)["hardware"])
            e, pep = cfg.get("e", 1), cfg.get("place_ep", "cube")
            on_pe = (cfg["t"] if cfg["place_tp"] == "pe" else 1) * (cfg["c"] if cfg["place_cp"] == "pe" else 1) \
                * (e if pep == "pe" else 1)
            on_cube = (cfg["t"] if cfg["place_tp"] == "cube" else 1) * (cfg["c"] if cfg["place_cp"] == "cube" else 1) \
                * (e if pep == "cube" else 1)
            if on_pe > hw["n_pe"] or on_cube > hw["X"] * hw["Y"]:
                return True, "rejected by both (sizes)"
            ref.evaluate(m, hw, cfg)
        except ValueError:
            return True, "rejected by both (embedding)"
        return False, label + ": the program rejected it (%s), the reference did not" % r.stderr.strip()
    got = json.loads(r.stdout)
    hw = ref.hardware(got["hardware"])
    try:
        kinds, step, kv = ref.evaluate(m, hw, cfg)
    except ValueError as e:
        return False, label + ": the reference rejects it (%s), the program did not" % e
    if len(got["layer_kinds"]) != len(kinds):
        return False, label + ": %d layer kinds, the reference %d" % (len(got["layer_kinds"]), len(kinds))
    for gk in got["layer_kinds"]:
        rk = kinds.get(gk["kind"])
        if rk is None or rk["layers"] != gk["layers"]:
            return False, label + ": kind %s × %d not in the reference" % (gk["kind"], gk["layers"])
        ids = {s["id"] for s in gk["stages"]}
        if ids != set(rk["stages"]):
            return False, label + ": %s stages %s, the reference %s" % (gk["kind"], sorted(ids), sorted(rk["stages"]))
        for s in gk["stages"]:
            want = rk["stages"][s["id"]]
            for key, rkey in (("flops", "flops"), ("bytes", "bytes"), ("comm_bytes", "comm_bytes"),
                              ("t_comm_s", "t_comm"), ("t_s", "t"), ("visible_s", "visible")):
                if not close(s[key], want[rkey]):
                    return False, "%s: %s %s %s = %r, the reference %r" % (label, gk["kind"], s["id"], key, s[key],
                                                                          want[rkey])
    if not close(got["step_s"], step):
        return False, label + ": step %r, the reference %r" % (got["step_s"], step)
    if not close(got["memory"]["kv_bytes_per_pe"], kv):
        return False, label + ": KV per PE %r, the reference %r" % (got["memory"]["kv_bytes_per_pe"], kv)
    return True, "agree"


def pareto(points, xkey, higher):
    """§10's frontier, written again: the points no other beats on both axes."""
    out = set()
    for i, p in enumerate(points):
        xi = p[xkey] if higher else -p[xkey]
        beaten = False
        for j, q in enumerate(points):
            xj = q[xkey] if higher else -q[xkey]
            if j != i and xj >= xi and q["per_gpu"] >= p["per_gpu"] and (xj > xi or q["per_gpu"] > p["per_gpu"]):
                beaten = True
                break
        if not beaten:
            out.add(i)
    return out


def compare_serving(base, isl, osl, models):
    """`--serving --format json` against §10 redone with the reference: each point's TTFT
    (one prompt of ISL), ITL (B sequences at ISL + OSL/2), per-user and per-GPU throughput,
    and both frontiers among the points that fit."""
    args = [BIN, "model", "--preset", base["preset"], "--hardware", base["hardware"], "--serving",
            "--isl", str(isl), "--osl", str(osl), "--format", "json", "--imbalance", repr(base["imbalance"])]
    for f, opt in (("f_w", "--weight-format"), ("f_a", "--act-format"), ("f_kv", "--kv-format")):
        args += [opt, base[f]]
    if base.get("overlap"):
        args.append("--overlap")
    r = subprocess.run(args, capture_output=True, text=True)
    label = "serving %s on %s W %s A %s" % (base["preset"], base["hardware"], base["f_w"], base["f_a"])
    if r.returncode != 0:
        return False, label + ": " + r.stderr.strip()
    got = json.loads(r.stdout)
    hw = ref.hardware(json.loads(run(dict(base, mode="decode", B=1, T=1, P=0, t=1, c=1, e=1)).stdout)["hardware"])
    m = models[base["preset"]]
    ttft = {}
    pts = []
    for p in got["points"]:
        cfg = with_format_bytes(dict(base, t=p["tp"], e=p["ep"], c=1, place_tp="cube", place_cp="cube",
                                     place_ep="cube"))
        key = (p["tp"], p["ep"])
        if key not in ttft:
            ttft[key] = ref.evaluate(m, hw, dict(cfg, mode="prefill", B=1, T=isl, P=0))[1]
        itl = ref.evaluate(m, hw, dict(cfg, mode="decode", B=p["batch"], T=1, P=isl + osl // 2))[1]
        latency = ttft[key] + (osl - 1) * itl
        want = {"ttft_s": ttft[key], "itl_s": itl, "tokens_per_s_per_user": 1 / itl,
                "tokens_per_s_per_gpu": p["ep"] * p["batch"] * osl / latency / (p["tp"] * p["ep"])}
        for k, v in want.items():
            if not close(p[k], v):
                return False, "%s: TP %d EP %d B %d %s %r, the reference %r" % (label, p["tp"], p["ep"], p["batch"],
                                                                              k, p[k], v)
        pts.append(p)
    fit = [p for p in pts if p["fits"]]
    for xkey, higher, flag in (("tokens_per_s_per_user", True, "frontier_per_user"), ("ttft_s", False, "frontier_ttft")):
        front = pareto([dict(p, per_gpu=p["tokens_per_s_per_gpu"]) for p in fit], xkey, higher)
        mine = {i for i, p in enumerate(fit) if p[flag]}
        if front != mine or any(p[flag] for p in pts if not p["fits"]):
            return False, "%s: the %s frontier differs from the reference's" % (label, flag)
    return True, "%s: %d points, %d fit" % (label, len(pts), len(fit))


def main():
    data = os.environ.get("IV_DATA_DIR", os.path.join(HERE, "..", "data"))
    models = ref.load_presets(os.path.join(data, "presets", "model-presets.tsv"))
    names = sorted(models)
    rng = random.Random(20261201)
    agreed = rejected = 0
    failures = []
    # every preset at least once in each mode, then random draws
    cfgs = []
    for n in names:
        for mode in ("prefill", "decode"):
            cfg = draw(rng, names)
            cfg.update(preset=n, mode=mode, T=1 if mode == "decode" else 1000, t=2, c=2, place_tp="pe",
                       place_cp="cube")
            cfgs.append(cfg)
    cfgs += [draw(rng, names) for _ in range(N_CONFIGS)]
    # the cases the corrections are about
    cfgs.append(dict(draw(rng, names), preset="DeepSeek-V3", mode="decode", T=1, c=4, t=2, place_tp="pe",
                     place_cp="cube"))
    cfgs.append(dict(draw(rng, names), preset="Gemma-2-2B", mode="decode", T=1, t=12, c=1, place_tp="pe"))
    cfgs.append(dict(draw(rng, names), preset="Gemma-2-9B", mode="prefill", T=1000, P=8192, c=2, t=1))
    for cfg in cfgs:
        ok, why = compare(cfg, models)
        if not ok:
            failures.append(why)
        elif why.startswith("rejected"):
            rejected += 1
        else:
            agreed += 1
    check(not failures, "%d configurations agree with the reference (%d rejected by both)" % (agreed, rejected),
          "; ".join(failures[:3]) + (" … %d in all" % len(failures) if len(failures) > 3 else ""))
    check(agreed >= 300, "enough configurations were evaluated (%d)" % agreed)
    # the new parts were reached: formats other than BF16, EP's all-to-alls, a fully
    # connected fabric, the switch's reduction
    reached = {"format": 0, "ep": 0, "mesh": 0, "overlap": 0}
    for cfg in cfgs:
        reached["format"] += cfg.get("f_w", "bf16") != "bf16"
        reached["ep"] += cfg.get("e", 1) > 1 and models[cfg["preset"]]["E"] > 0
        reached["mesh"] += cfg["hardware"] == "mi300x8"
        reached["overlap"] += bool(cfg.get("overlap")) and cfg["t"] > 1
    check(min(reached.values()) >= 20, "issue 34's parts drawn often enough: %s" % reached)
    # §10: the serving curve, point by point and frontier by frontier
    for preset, hw_name, fw, fa, imb, overlap, isl, osl in (
            ("Llama-3.1-70B", "h100x8", "fp8", "fp8", 1.0, False, 5000, 500),
            ("Llama-3.1-8B", "mi300x8", "bf16", "bf16", 1.0, True, 1000, 1000),
            ("Mixtral-8x7B", "mi300x8", "int4", "bf16", 1.25, False, 2000, 300),
            ("Qwen3-30B-A3B", "b200x8", "nvfp4", "nvfp4", 1.5, True, 1000, 200)):
        base = {"preset": preset, "hardware": hw_name, "ring": "kv", "f_w": fw, "f_a": fa, "f_kv": "bf16",
                "imbalance": imb, "overlap": overlap, "e_w": 2.0, "e_a": 2.0, "e_kv": 2.0, "e_p": 4.0,
                "place_tp": "cube", "place_cp": "cube", "place_ep": "cube"}
        ok, why = compare_serving(base, isl, osl, models)
        check(ok, why)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
