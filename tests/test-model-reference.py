#!/usr/bin/env python3
"""Differential test of the analytical model: `inferview model --format json` against a
second implementation written from the specification (tests/model-reference.py) on
hundreds of configurations drawn with a fixed seed — every preset (dense, GQA, MLA, MoE,
sliding-window and alternating), both modes, TP and CP on PEs and cubes, both rings, the
three hardware presets — every stage's FLOPs, bytes, bytes communicated and time, the
layer totals, the step and the KV cache; a configuration one side rejects, the other must
reject too. TAP on stdout."""
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

N_CONFIGS = int(os.environ.get("IV_MODEL_REFERENCE_N", "400"))
results = []


def check(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), name,
                            "" if ok or not detail else " # " + detail.replace("\n", " ")))


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def draw(rng, names):
    mode = rng.choice(["prefill", "decode"])
    cfg = {
        "preset": rng.choice(names), "hardware": rng.choice(["ring4", "mesh4x4", "torus4x4", "h100x8", "mi300x8"]),
        "mode": mode, "B": rng.choice([1, 2, 8, 32]),
        "T": rng.choice([1, 1, 4]) if mode == "decode" else rng.choice([7, 128, 1000, 4096]),
        "P": rng.choice([0, 511, 3000, 8192, 40000]), "t": rng.choice([1, 2, 3, 4, 8, 12, 16, 32]),
        "c": rng.choice([1, 1, 2, 3, 4, 8]), "place_tp": rng.choice(["pe", "cube"]),
        "place_cp": rng.choice(["pe", "cube"]), "ring": rng.choice(["kv", "qoml"]),
        "e_w": 2.0, "e_a": 2.0, "e_kv": 2.0, "e_p": 4.0,
    }
    if cfg["hardware"] in ("h100x8", "mi300x8"):
        # one GPU per "cube": groups live across GPUs, through the switch
        cfg.update(place_tp="cube", place_cp="cube", t=rng.choice([1, 2, 4, 8]), c=rng.choice([1, 1, 2]))
    return cfg


def run(cfg):
    args = [BIN, "model", "--preset", cfg["preset"], "--hardware", cfg["hardware"], "--mode", cfg["mode"],
            "--batch", str(cfg["B"]), "--tq", str(cfg["T"]), "--context", str(cfg["P"]), "--tp", str(cfg["t"]),
            "--cp", str(cfg["c"]), "--tp-place", cfg["place_tp"], "--cp-place", cfg["place_cp"],
            "--ring", cfg["ring"], "--format", "json"]
    return subprocess.run(args, capture_output=True, text=True)


def compare(cfg, models):
    r = run(cfg)
    label = "%(preset)s %(hardware)s %(mode)s B=%(B)d T=%(T)d P=%(P)d TP=%(t)d(%(place_tp)s) " \
            "CP=%(c)d(%(place_cp)s) %(ring)s" % cfg
    m = models[cfg["preset"]]
    if r.returncode != 0:
        # the reference must reject it too: a placement it cannot embed, or sizes over the SIP
        try:
            hw = ref.hardware(json.loads(run({**cfg, "t": 1, "c": 1}).stdout)["hardware"])
            on_pe = (cfg["t"] if cfg["place_tp"] == "pe" else 1) * (cfg["c"] if cfg["place_cp"] == "pe" else 1)
            on_cube = (cfg["t"] if cfg["place_tp"] == "cube" else 1) * (cfg["c"] if cfg["place_cp"] == "cube" else 1)
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
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
