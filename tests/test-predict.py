#!/usr/bin/env python3
"""`inferview runs PATH --predict --hardware NAME --json` against §9 of the specification
computed here: the run's concurrency, ISL and OSL read from its own summary, the two model
steps evaluated by the second implementation (tests/model-reference.py), then TTFT, ITL,
latency, throughput and each efficiency by hand. On the bundled AIPerf samples (Qwen3-0.6B)
and the generated ISL x OSL sweep (Llama-3.1-8B-Instruct, matched to its preset). TAP."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("IV_BINARY", "inferview")
SAMPLES = os.environ.get("IV_SAMPLES_DIR", os.path.join(HERE, "..", "data", "samples"))
SHARED = os.environ.get("IV_DATA_DIR", os.path.join(HERE, "..", "data"))
spec = importlib.util.spec_from_file_location("model_reference", os.path.join(HERE, "model-reference.py"))
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
results = []


def check(ok, name, detail=""):
    results.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), name,
                            "" if ok or not detail else " # " + str(detail).replace("\n", " ")))


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def by_hand(run_path, model, hw, tp):
    with open(os.path.join(run_path, "profile_export_aiperf.json")) as f:
        s = json.load(f)
    C = float(s["input_config"]["loadgen"]["concurrency"])
    isl = s["input_sequence_length"]["avg"]
    osl = s["output_sequence_length"]["avg"]
    base = {"t": tp, "c": 1, "place_tp": "cube", "place_cp": "cube", "ring": "kv",
            "e_w": 2.0, "e_a": 2.0, "e_kv": 2.0, "e_p": 4.0}
    _, ttft, _ = ref.evaluate(model, hw, dict(base, mode="prefill", B=1, T=round(isl), P=0))
    _, itl, _ = ref.evaluate(model, hw, dict(base, mode="decode", B=round(C), T=1, P=round(isl + osl / 2)))
    lat = ttft + (osl - 1) * itl
    thr = C * osl / lat
    measured = {"time_to_first_token": s["time_to_first_token"]["avg"] * 1e-3,
                "inter_token_latency": s["inter_token_latency"]["avg"] * 1e-3,
                "request_latency": s["request_latency"]["avg"] * 1e-3,
                "output_token_throughput": s["output_token_throughput"]["avg"]}
    predicted = {"time_to_first_token": ttft, "inter_token_latency": itl, "request_latency": lat,
                 "output_token_throughput": thr}
    eff = {k: (predicted[k] / measured[k] if k != "output_token_throughput" else measured[k] / predicted[k])
           for k in predicted}
    return predicted, measured, eff, C, isl, osl


def sweep(path, hw_name, preset_name, tp_expected):
    r = subprocess.run([BIN, "runs", path, "--predict", "--hardware", hw_name, "--json"], capture_output=True, text=True)
    check(r.returncode == 0, "runs --predict on %s" % os.path.basename(path), r.stderr[-300:])
    if r.returncode != 0:
        return
    d = json.loads(r.stdout)
    models = ref.load_presets(os.path.join(SHARED, "presets", "model-presets.tsv"))
    hw = ref.hardware(json.loads(subprocess.run([BIN, "model", "--hardware", hw_name, "--format", "json"],
                                                capture_output=True, text=True).stdout)["hardware"])
    bad, effs = [], []
    for run in d["runs"]:
        p = run["prediction"]
        if p.get("preset") != preset_name or "error" in p:
            bad.append("%s: %s" % (run["path"], p.get("error") or p.get("preset")))
            continue
        predicted, measured, eff, C, isl, osl = by_hand(run["path"], models[preset_name], hw, p["tp"])
        if p["tp"] != tp_expected or not close(p["concurrency"], C) or not close(p["isl"], isl) \
                or not close(p["osl"], osl):
            bad.append("%s: inputs %s" % (run["path"], (p["tp"], p["concurrency"], p["isl"], p["osl"])))
        for k in predicted:
            for field, want in (("predicted", predicted[k]), ("measured", measured[k]), ("efficiency", eff[k])):
                if not close(p[k][field], want, 1e-6):
                    bad.append("%s: %s %s %r, by hand %r" % (os.path.basename(run["path"]), k, field, p[k][field], want))
            effs.append(p[k]["efficiency"])
    check(not bad, "%d runs: every prediction and efficiency as §9 computes it by hand" % len(d["runs"]),
          "; ".join(bad[:3]))
    check(effs and max(effs) < 1.0, "every efficiency below 100 %% (highest %.1f %%)" % (100 * max(effs or [0])))
    check(all("queueing" in run["prediction"]["caveat"] for run in d["runs"]), "the caveat travels with the numbers")


def main():
    sweep(os.path.join(SAMPLES, "aiperf"), "h100x8", "Qwen3-0.6B", 1)
    sweep(os.path.join(SAMPLES, "isl-osl-sweep"), "h100x8", "Llama-3.1-8B", 1)
    r = subprocess.run([BIN, "runs", os.path.join(SAMPLES, "aiperf"), "--predict"], capture_output=True, text=True)
    check(r.returncode == 2 and "--hardware" in r.stderr, "--predict without --hardware is a usage error", r.stderr)
    r = subprocess.run([BIN, "runs", os.path.join(SAMPLES, "aiperf"), "--predict", "--hardware", "h100x8", "--tp", "9"],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "--tp" in r.stderr, "--tp beyond the server's GPUs is a usage error", r.stderr)
    # a model the run's name does not give: chosen, and said when not
    tmp = tempfile.mkdtemp(prefix="iv-predict-")
    run = os.path.join(tmp, "renamed")
    shutil.copytree(os.path.join(SAMPLES, "aiperf", "qwen_concurrency1"), run)
    with open(os.path.join(run, "profile_export_aiperf.json")) as f:
        s = json.load(f)
    s["input_config"]["endpoint"]["model_names"] = ["my-private-finetune"]
    with open(os.path.join(run, "profile_export_aiperf.json"), "w") as f:
        json.dump(s, f)
    r = subprocess.run([BIN, "runs", run, "--predict", "--hardware", "h100x8", "--json"], capture_output=True, text=True)
    p = json.loads(r.stdout)["runs"][0]["prediction"] if r.returncode == 0 else {}
    check("my-private-finetune" in p.get("error", "") and "tp" not in p,
          "an unknown model gives no number, and says so with its name", p)
    r = subprocess.run([BIN, "runs", run, "--predict", "--hardware", "h100x8", "--model", "Qwen3-0.6B", "--json"],
                       capture_output=True, text=True)
    p = json.loads(r.stdout)["runs"][0]["prediction"] if r.returncode == 0 else {}
    check(p.get("preset") == "Qwen3-0.6B" and p.get("tp") == 1, "--model names it", p)
    # … or its config.json: Qwen3-0.6B's own numbers give the preset's prediction
    cfg = os.path.join(tmp, "Qwen3-0.6B", "config.json")
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as f:
        json.dump({"model_type": "qwen3", "hidden_size": 1024, "num_hidden_layers": 28, "num_attention_heads": 16,
                   "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 3072, "vocab_size": 151936,
                   "tie_word_embeddings": True, "max_position_embeddings": 40960}, f)
    r = subprocess.run([BIN, "runs", run, "--predict", "--hardware", "h100x8", "--hf-config", cfg, "--json"],
                       capture_output=True, text=True)
    q = json.loads(r.stdout)["runs"][0]["prediction"] if r.returncode == 0 else {}
    check(q.get("time_to_first_token") == p.get("time_to_first_token")
          and q.get("inter_token_latency") == p.get("inter_token_latency"),
          "--hf-config: the model from its config.json", "%s %s" % (q, r.stderr[-200:]))
    shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
