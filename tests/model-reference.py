#!/usr/bin/env python3
"""A second implementation of the analytical model, written from
docs/model.md alone (not from the C code), for the differential
test: every stage's FLOPs, bytes, bytes communicated and time, each layer kind's totals,
the step and the KV cache per PE.

Model symbols are read from the presets' TSV (data/presets/model-presets.tsv) the way the
specification names them; the hardware is the one the program reports it used (its JSON
"hardware" block), so a test feeds both the same machine.
"""
import csv
import math

STAGES = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "C1", "C2", "C3",
          "F1", "R", "A1", "F2", "F3", "F4", "F5", "A2", "CF1"]
MATRIX = {"S2", "S3", "S5", "S7", "S10", "F2", "F3", "F5", "R"}
ATTENTION = STAGES[:STAGES.index("F1")]


def load_presets(path):
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            def num(col, default=0):
                v = (row.get(col) or "").strip()
                return int(v) if v[:1].isdigit() else default
            m = {
                "name": row["name"], "d": num("hidden_size"), "nL": num("num_layers"),
                "H": num("num_heads"), "Hkv": num("num_kv_heads"), "dh": num("head_dim"),
                "F": num("intermediate_size"), "V": num("vocab_size"),
                "mla": row["attention"].strip() == "MLA",
                "r_q": num("q_lora_rank"), "r_kv": num("kv_lora_rank"), "d_n": num("qk_nope_head_dim"),
                "d_r": num("qk_rope_head_dim"), "d_v": num("v_head_dim"),
                "E": num("num_experts"), "k": num("experts_per_token"), "F_e": num("moe_intermediate_size"),
                "nL_dense": num("first_k_dense_layers"), "E_s": 0, "F_s": 0, "W": 0, "alternating": False,
            }
            shared = (row.get("shared_expert_intermediate_size") or "").strip()
            if shared[:1].isdigit():
                if "x" in shared:
                    a, b = shared.split("x", 1)
                    m["E_s"], m["F_s"] = int(a), int(b)
                else:
                    m["E_s"], m["F_s"] = 1, int(shared)
            if m["E"] and not m["F_e"]:
                m["F_e"] = m["F"]
            w = (row.get("sliding_window") or "").strip()
            if w[:1].isdigit():
                m["W"] = int(w.split()[0])
                m["alternating"] = "alternating" in w
            m["dv"] = m["d_v"] if m["mla"] else m["dh"]
            out[m["name"]] = m
    return out


def hardware(hw_json):
    h = hw_json
    return {
        "topology": h["topology"], "X": h["cubes"][0], "Y": h["cubes"][1], "n_pe": h["pes_per_cube"],
        "P_c": h["pe_flops"], "P_v": h["pe_vector_flops"], "BW": h["pe_mem_bw"], "M_pe": h["pe_mem_capacity"],
        "B_pe": h["pe_link_bw"], "a_pe": h["pe_link_latency"], "B_cu": h["cube_link_bw"],
        "a_cu": h["cube_link_latency"], "bidir": h["bidirectional"],
        "eta_c": h["eta_compute"], "eta_m": h["eta_memory"], "eta_n": h["eta_comm"],
        # §1: the other peaks are optional (absent: no unit of their own); §8: the switch's reduction
        "P_fp8": h.get("pe_flops_fp8", 0.0), "P_int8": h.get("pe_flops_int8", 0.0),
        "P_fp4": h.get("pe_flops_fp4", 0.0), "reduce": h.get("switch_reduction", False),
    }


# ---- §2.3 number formats ----

# id: (bytes per element, nominal bits, unit: c, fp8, int8, fp4, or None for weights only)
FORMATS = {
    "bf16": (2.0, 16, "c"), "fp16": (2.0, 16, "c"),
    "fp8": (1.0, 8, "fp8"), "fp8-e5m2": (1.0, 8, "fp8"), "int8": (1.0, 8, "int8"),
    "int4": (0.5 + 2.5 / 128, 4, None),
    "nvfp4": (0.5 + 1 / 16, 4, "fp4"), "mxfp4": (0.5 + 1 / 32, 4, "fp4"),
}


def fmt_bytes(f):
    return FORMATS[f][0]


def compute_format(weights, activation):
    """The wider of the two operands' formats; at equal width the activations'."""
    return weights if FORMATS[weights][1] > FORMATS[activation][1] else activation


def format_peak(hw, f):
    """Its own unit; FP4 without one on FP8's, FP8 and INT8 without theirs on P_c; never
    below P_c."""
    unit = FORMATS[f][2] or "c"
    if unit == "fp4" and not hw["P_fp4"] > 0:
        unit = "fp8"
    if unit == "fp8" and not hw["P_fp8"] > 0:
        unit = "c"
    if unit == "int8" and not hw["P_int8"] > 0:
        unit = "c"
    peak = {"c": hw["P_c"], "fp8": hw["P_fp8"], "int8": hw["P_int8"], "fp4": hw["P_fp4"]}[unit]
    return max(hw["P_c"], peak)


# ---- §2.2 embedding, §3 collectives ----

def embed(N, s, on_pe, hw):
    """(kind, h, wrap_x, wrap_y, Xg, Yg, B, alpha) or raises ValueError."""
    if on_pe:
        X, Y, topo, B, a = hw["n_pe"], 1, "ring", hw["B_pe"], hw["a_pe"]
    else:
        X, Y, topo, B, a = hw["X"], hw["Y"], hw["topology"], hw["B_cu"], hw["a_cu"]
    if N == 1:
        return ("one", 1, False, False, 1, 1, B, a)
    if topo in ("switch", "fully_connected"):
        # §8: any set of GPUs; through the switch, or one link per pair
        return (topo, 1, False, False, N, 1, B, a)
    if s * N <= X:
        return ("line", s, topo in ("ring", "torus2d") and s * N == X, False, N, 1, B, a)
    if s % X == 0 and (s // X) * N <= Y:
        h = s // X
        return ("line", h, topo == "torus2d" and h * N == Y, False, N, 1, B, a)
    if s == 1 and N % X == 0 and N // X <= Y:
        return ("grid", 1, topo == "torus2d", topo == "torus2d" and N // X == Y, X, N // X, B, a)
    raise ValueError("cannot embed a group of %d with stride %d" % (N, s))


def gpu_allreduce(g, S, hw):
    """§8: the cheapest of ring, one-shot, two-shot and (with the switch's reduction) the
    switch's own, for the fabric."""
    kind, h, wx, wy, N, Yg, B, a = g
    Bp = hw["eta_n"] * B
    mesh = kind == "fully_connected"
    costs = [2 * (N - 1) * a + 2 * (N - 1) / N * S / Bp,
             a + (S / Bp if mesh else (N - 1) * S / Bp),
             2 * a + (2 * S / (N * Bp) if mesh else 2 * (N - 1) / N * S / Bp)]
    if not mesh and hw["reduce"]:
        costs.append(2 * a + S / Bp)
    return min(costs)


def allreduce(g, S, hw):
    kind, h, wx, wy, Xg, Yg, B, a = g
    if kind == "one" or S <= 0:
        return 0.0
    if kind in ("switch", "fully_connected"):
        return gpu_allreduce(g, S, hw)
    Bp, ap = hw["eta_n"] * B / h, h * a
    if kind == "line":
        N = Xg
        ed = 2 if (wx and hw["bidir"]) else 1
        return 2 * (N - 1) * ap + 2 * (N - 1) / N * S / (ed * Bp)
    ex = 2 if (wx and hw["bidir"]) else 1
    ey = 2 if (wy and hw["bidir"]) else 1
    return (2 * ((Xg - 1) * ap + (Xg - 1) / Xg * S / (ex * Bp))
            + (2 * (Yg - 1) * ap + 2 * (Yg - 1) / Yg * (S / Xg) / (ey * Bp)))


def ring_step(g, S, hw):
    kind, h, wx, wy, Xg, Yg, B, a = g
    if kind == "one":
        return 0.0
    Bp, ap = hw["eta_n"] * B / h, h * a
    if kind in ("switch", "fully_connected"):
        delta = 1
    elif kind == "line":
        delta = 1 if (wx or Xg == 2) else 2
    else:
        delta = 1 if (wx or wy or Xg % 2 == 0 or Yg % 2 == 0) else 2
    return ap * delta + S / Bp


def a2a_load(n, wrap, bidir):
    """§3: the busiest link's load over the bytes a member sends, a line or ring of n."""
    if n <= 1:
        return 0.0
    if wrap:
        lam = sum(min(j, n - j) for j in range(1, n)) / (2.0 * (n - 1))
    else:
        lam = (n // 2) * ((n + 1) // 2) / (n - 1)
    return lam if bidir else 2 * lam


def alltoall(g, S, hw):
    """§3 on a SIP, §8 on a GPU server; S: what each member sends in all."""
    kind, h, wx, wy, Xg, Yg, B, a = g
    if kind == "one" or S <= 0:
        return 0.0
    if kind == "switch":
        return a + S / (hw["eta_n"] * B)
    if kind == "fully_connected":
        return a + S / ((Xg - 1) * hw["eta_n"] * B)
    if kind == "line":
        N = Xg
        Bp, ap = hw["eta_n"] * B / h, h * a
        return (N - 1) * ap + a2a_load(N, wx, hw["bidir"]) * S / Bp
    N = Xg * Yg
    Bp = hw["eta_n"] * B
    sx, sy = S * Yg * (Xg - 1) / (N - 1), S * Xg * (Yg - 1) / (N - 1)
    return ((Xg - 1) * a + a2a_load(Xg, wx, hw["bidir"]) * sx / Bp
            + (Yg - 1) * a + a2a_load(Yg, wy, hw["bidir"]) * sy / Bp)


# ---- §4 stages ----

def cdiv(a, b):
    return -(-a // b)


def evaluate(m, hw, cfg):
    """cfg: mode, B, T, P, t, c, place_tp, place_cp ('pe'/'cube'), ring ('kv'/'qoml'),
    e_w, e_a, e_kv, e_p; and optionally (§2.3, §4.4) f_w, f_a, f_kv (formats, default
    bf16: the peaks; the bytes stay e_*), e and place_ep (EP), imbalance, overlap.
    Returns {kind name: {layers, stages: {id: dict}, attention, ffn, layer}}, step_s,
    kv_bytes_per_pe."""
    B, T, P, t, c = cfg["B"], cfg["T"], cfg["P"], cfg["t"], cfg["c"]
    ew, ea, ekv, ep = cfg["e_w"], cfg["e_a"], cfg["e_kv"], cfg["e_p"]
    fw, fa, fkv = cfg.get("f_w", "bf16"), cfg.get("f_a", "bf16"), cfg.get("f_kv", "bf16")
    e = cfg.get("e", 1)
    place_ep = cfg.get("place_ep", "cube")
    imb_cfg = cfg.get("imbalance", 1.0)
    overlap = cfg.get("overlap", False)
    prefill = cfg["mode"] == "prefill"
    same_level = cfg["place_tp"] == cfg["place_cp"]
    tp_g = embed(t, 1, cfg["place_tp"] == "pe", hw)
    cp_g = embed(c, t if same_level else 1, cfg["place_cp"] == "pe", hw)
    # §2.2: TP fastest, then CP, then EP
    ep_stride = (t if cfg["place_tp"] == place_ep else 1) * (c if cfg["place_cp"] == place_ep else 1)
    ep_g = embed(e, ep_stride, place_ep == "pe", hw)
    c3_g = embed(cdiv(t, m["H"]), 1, cfg["place_tp"] == "pe", hw) if t > m["H"] else None
    # §2.3: the peaks of the weight GEMMs and of the attention core
    peak_w = format_peak(hw, compute_format(fw, fa))
    peak_kv = format_peak(hw, compute_format(fkv, fa))

    kinds = []
    if m["alternating"]:
        kinds = [("local", (m["nL"] + 1) // 2, False, m["W"]), ("global", m["nL"] // 2, False, 0)]
    elif m["E"]:
        kinds = [("dense", m["nL_dense"], False, 0), ("moe", m["nL"] - m["nL_dense"], True, m["W"])]
    else:
        kinds = [("sliding" if m["W"] else "dense", m["nL"], False, m["W"])]
    kinds = [k for k in kinds if k[1] > 0]

    d, dh, dv, mla = m["d"], m["dh"], m["dv"], m["mla"]
    H_l = cdiv(m["H"], t)
    Hkv_l = cdiv(m["Hkv"], t) if t <= m["Hkv"] else 1
    F_l = cdiv(m["F"], t)
    T_l = cdiv(T, c) if prefill else T
    L = P + T
    out, step, kv_total = {}, 0.0, 0.0
    for name, layers, moe, W in kinds:
        if W:
            L_w = min(L, T + W - 1) if prefill else min(L, W)
        else:
            L_w = L
        L_l = cdiv(L_w, c)
        if not prefill:
            Np = B * T * L_l
        elif W:
            i0 = min(max(W - P, 0), T)
            Np = B * (i0 * P + i0 * (i0 + 1) / 2 + (T - i0) * W) / c
        else:
            Np = B * (T * P + T * (T + 1) / 2) / c
        st = {}

        def comp(sid, flops, bytes_):
            st[sid] = {"flops": flops, "bytes": bytes_, "comm_bytes": 0.0, "t_comm": 0.0}

        comp("S1", 4 * B * T_l * d, ea * 2 * B * T_l * d + ew * d)
        d_o = dv
        if not mla:
            comp("S2", 2 * B * T_l * d * H_l * dh, ew * d * H_l * dh + ea * B * T_l * (d + H_l * dh))
            comp("S3", 2 * B * T_l * d * 2 * Hkv_l * dh, ew * 2 * d * Hkv_l * dh + ea * B * T_l * (d + 2 * Hkv_l * dh))
            comp("S4", 0, ekv * 2 * B * T_l * Hkv_l * dh)
            comp("S5", 2 * H_l * dh * Np, ea * B * T_l * H_l * dh + ekv * B * L_l * Hkv_l * dh)
            comp("S7", 2 * H_l * dv * Np, ekv * B * L_l * Hkv_l * dv)
            comp("S10", 2 * B * T_l * H_l * dv * d, ew * H_l * dv * d + ea * B * T_l * (H_l * dv + d))
        else:
            rq, rkv, dn, dr = m["r_q"], m["r_kv"], m["d_n"], m["d_r"]
            lat = rkv + dr
            q_w = d * rq + rq * H_l * (dn + dr) if rq else d * H_l * (dn + dr)
            if not prefill:
                comp("S2", 2 * B * T * (q_w + H_l * dn * rkv), ew * (q_w + H_l * dn * rkv) + ea * B * T_l * (d + H_l * lat))
                comp("S3", 2 * B * T * d * lat, ew * d * lat + ea * B * T_l * (d + lat))
                comp("S5", 2 * H_l * lat * Np, ea * B * T_l * H_l * lat + ekv * B * L_l * lat)
                comp("S7", 2 * H_l * rkv * Np, 0)
                comp("S10", 2 * B * T * H_l * rkv * dv + 2 * B * T_l * H_l * dv * d,
                     ew * (H_l * rkv * dv + H_l * dv * d) + ea * B * T_l * (H_l * rkv + d))
                d_o = rkv
            else:
                comp("S2", 2 * B * T_l * q_w, ew * q_w + ea * B * T_l * (d + H_l * (dn + dr)))
                comp("S3", 2 * B * T_l * d * lat + 2 * B * T_l * rkv * H_l * (dn + dv),
                     ew * (d * lat + rkv * H_l * (dn + dv)) + ea * B * T_l * (d + lat + H_l * (dn + dv)))
                comp("S5", 2 * H_l * (dn + dr) * Np, ea * B * T_l * H_l * (dn + dr) + ekv * B * L_l * lat)
                comp("S7", 2 * H_l * dv * Np, 0)
                comp("S10", 2 * B * T_l * H_l * dv * d, ew * H_l * dv * d + ea * B * T_l * (H_l * dv + d))
            comp("S4", 0, ekv * B * T_l * lat)
        comp("S6", 5 * H_l * Np, 0)
        comp("S8", (c - 1) * B * T_l * H_l * (3 * d_o + 8), c * B * T_l * H_l * (ep * d_o + 8) if c > 1 else 0)
        if not prefill and c > 1:
            S = B * T * H_l * (ep * d_o + 8)
            st["S8"]["comm_bytes"], st["S8"]["t_comm"] = S, allreduce(cp_g, S, hw)
        comp("S9", B * T_l * H_l * d_o, ea * B * T_l * H_l * d_o)
        if prefill:
            comp("C1", 0, 0)
            if c > 1:
                if cfg["ring"] == "kv":
                    msg = ekv * B * L_l * (m["r_kv"] + m["d_r"]) if mla else ekv * 2 * B * L_l * Hkv_l * dh
                    steps = c - 1
                else:
                    msg = ea * B * T_l * H_l * dh + B * T_l * H_l * (ep * d_o + 8)
                    steps = c
                st["C1"]["comm_bytes"] = msg * steps
                st["C1"]["t_comm"] = steps * ring_step(cp_g, msg, hw)
        comp("C2", 0, 0)
        if t > 1:
            st["C2"]["comm_bytes"] = ea * B * T_l * d
            st["C2"]["t_comm"] = allreduce(tp_g, ea * B * T_l * d, hw)
        if t > m["H"]:
            comp("C3", 0, 0)
            S = ep * B * T_l * H_l * L_l
            st["C3"]["comm_bytes"], st["C3"]["t_comm"] = S, allreduce(c3_g, S, hw)
        comp("F1", 4 * B * T_l * d, ea * 2 * B * T_l * d + ew * d)
        if moe:
            E, kk, n = m["E"], m["k"], B * T_l
            imb = imb_cfg if e > 1 else 1.0
            E_loc = cdiv(E, e)
            Fa = imb * kk * m["F_e"] + m["E_s"] * m["F_s"]
            Et = E_loc * (1 - (1 - kk / E) ** (e * n))
            Fw = Et * m["F_e"] + m["E_s"] * m["F_s"]
            comp("R", 2 * B * T_l * d * E, ew * d * E + ea * B * T_l * (d + E))
            if e > 1:
                # §4.4: dispatch and combine, the same all-to-all each way
                S = imb * ea * B * T_l * d * (e - 1) * (1 - (1 - 1 / e) ** kk)
                for sid in ("A1", "A2"):
                    comp(sid, 0, 0)
                    st[sid]["comm_bytes"], st[sid]["t_comm"] = S, alltoall(ep_g, S, hw)
            comp("F2", 2 * B * T_l * d * Fa / t, ew * d * Fw / t + ea * B * T_l * (d + Fa / t))
            comp("F3", 2 * B * T_l * d * Fa / t, ew * d * Fw / t + ea * B * T_l * (d + Fa / t))
            comp("F4", 5 * B * T_l * Fa / t, 3 * ea * B * T_l * Fa / t)
            comp("F5", 2 * B * T_l * Fa / t * d, ew * Fw / t * d + ea * B * T_l * (Fa / t + d))
        else:
            comp("F2", 2 * B * T_l * d * F_l, ew * d * F_l + ea * B * T_l * (d + F_l))
            comp("F3", 2 * B * T_l * d * F_l, ew * d * F_l + ea * B * T_l * (d + F_l))
            comp("F4", 5 * B * T_l * F_l, 3 * ea * B * T_l * F_l)
            comp("F5", 2 * B * T_l * F_l * d, ew * F_l * d + ea * B * T_l * (F_l + d))
        comp("CF1", 0, 0)
        if t > 1:
            st["CF1"]["comm_bytes"] = ea * B * T_l * d
            st["CF1"]["t_comm"] = allreduce(tp_g, ea * B * T_l * d, hw)
        for sid, s in st.items():
            if sid in ("S5", "S7"):
                peak = peak_kv
            elif sid in MATRIX:
                peak = peak_w
            else:
                peak = hw["P_v"]
            s["t_compute"] = s["flops"] / (hw["eta_c"] * peak) if s["flops"] else 0.0
            s["t_memory"] = s["bytes"] / (hw["eta_m"] * hw["BW"]) if s["bytes"] else 0.0
            s["t"] = max(s["t_compute"], s["t_memory"], s["t_comm"])
            s["visible"] = s["t"]
        if "C1" in st:
            core = st["S5"]["t"] + st["S6"]["t"] + st["S7"]["t"]
            st["C1"]["visible"] = max(0.0, st["C1"]["t"] - (c - 1) / c * core)
        if overlap and t > 1:
            # §4: each TP all-reduce hides behind the next GEMM at best
            st["C2"]["visible"] = max(0.0, st["C2"]["t"] - st["F2"]["t"])
            st["CF1"]["visible"] = max(0.0, st["CF1"]["t"] - st["S2"]["t"])
        attn = sum(s["visible"] for sid, s in st.items() if sid in ATTENTION)
        ffn = sum(s["visible"] for sid, s in st.items() if sid not in ATTENTION)
        out[name] = {"layers": layers, "stages": st, "attention": attn, "ffn": ffn, "layer": attn + ffn}
        step += layers * (attn + ffn)
        if mla:
            kv_total += layers * B * cdiv(L_w if W else L, c) * (m["r_kv"] + m["d_r"]) * ekv
        else:
            kv_total += layers * 2 * B * cdiv(min(L, W) if W else L, c) * Hkv_l * dh * ekv
    n_h = B * T if not prefill else B
    head_f = 2 * n_h * d * m["V"] / t
    head_b = ew * d * m["V"] / t + ea * n_h * (d + m["V"] / t)
    step += max(head_f / (hw["eta_c"] * peak_w), head_b / (hw["eta_m"] * hw["BW"]))
    return out, step, kv_total
