/* iv-hints.c: docs/model.md §5: replication waste, and hints that are rules over
 * the evaluated numbers. Each hint names the numbers that fired it, so it can be
 * checked by hand and argued with. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-model.h"

#include <math.h>
#include <stdarg.h>

#include "iv-units.h"

static void waste (IvResult *r, const char *id, double bytes, double percent, const char *format,
                   ...) G_GNUC_PRINTF (5, 6);

static void
waste (IvResult *r, const char *id, double bytes, double percent, const char *format, ...)
{
  IvWaste *w;
  va_list args;

  if (r->n_waste >= IV_MAX_WASTE || !(percent > 0))
    return;
  w = &r->waste[r->n_waste++];
  w->id = id;
  w->bytes = bytes;
  w->percent = percent;
  va_start (args, format);
  g_vsnprintf (w->text, sizeof w->text, format, args);
  va_end (args);
}

static void hint (IvResult *r, const char *id, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
hint (IvResult *r, const char *id, const char *format, ...)
{
  IvHint *h;
  va_list args;

  if (r->n_hints >= IV_MAX_HINTS)
    return;
  h = &r->hints[r->n_hints++];
  h->id = id;
  va_start (args, format);
  g_vsnprintf (h->text, sizeof h->text, format, args);
  va_end (args);
}

/* The smallest TP (@vary_tp) or CP, the other kept, whose memory per PE fits and which
 * this SIP can place (at the current level, else the other): FALSE when none up to every
 * PE of the SIP does. Memory first (cheap, and falls as the size grows), then placement.
 * Sizes no level can hold are not tried: placement refuses them all. The memory test is
 * iv_model_evaluate ()'s own (the same sum against the same usable bytes; NaN fits
 * neither), so a candidate that passes it and placement is one whose evaluation fits. */
static gboolean
smallest_fitting (const IvResult *r, gboolean vary_tp, gint64 *size, IvPlace *place)
{
  const IvHardware *hw = r->hw;
  gint64 limit = MIN (MIN ((gint64) hw->X * hw->Y * hw->n_pe, 4096),
                      _iv_model_largest_placeable (&r->config, hw, vary_tp));
  IvConfig c = r->config;
  double usable = iv_config_usable_bytes (&c, hw);

  for (gint64 v = 1; v <= limit; v++)
    {
      IvPlace now = vary_tp ? r->config.place_tp : r->config.place_cp;
      if (vary_tp)
        c.t = v;
      else
        c.c = v;
      if (!(iv_model_memory_per_pe (r->model, &c, NULL, NULL) <= usable))
        continue;
      for (int k = 0; k < 2; k++)
        {
          IvPlace p = k == 0 ? now : (now == IV_PLACE_PE ? IV_PLACE_CUBE : IV_PLACE_PE);
          if (vary_tp)
            c.place_tp = p;
          else
            c.place_cp = p;
          if (_iv_model_placeable (r->model, hw, &c))
            {
              *size = v;
              *place = p;
              return TRUE;
            }
        }
      c.place_tp = r->config.place_tp, c.place_cp = r->config.place_cp;
    }
  return FALSE;
}

static char *
fitting_text (const IvResult *r, gboolean vary_tp)
{
  gint64 v;
  IvPlace p;
  const char *what = vary_tp ? "TP" : "CP";
  gboolean gpu = iv_hardware_is_gpu_server (r->hw);

  if (!smallest_fitting (r, vary_tp, &v, &p))
    return g_strdup_printf (gpu ? "no %s this server can hold fits"
                                : "no %s that this SIP can "
                                  "place fits",
                            what);
  if (gpu && p == IV_PLACE_CUBE)
    return g_strdup_printf ("%s=%" G_GINT64_FORMAT " across GPUs fits", what, v);
  return g_strdup_printf ("%s=%" G_GINT64_FORMAT " on %s fits and can be placed", what, v,
                          p == IV_PLACE_PE ? "PEs" : "cubes");
}

void
_iv_model_waste_and_hints (IvResult *r)
{
  const IvModel *m = r->model;
  const IvConfig *c = &r->config;
  const IvHardware *hw = r->hw;
  const IvKindResult *k = &r->kinds[r->n_kinds - 1]; /* the most numerous kind comes last */
  gboolean mla = m->attention == IV_ATTENTION_MLA;
  double t = c->t, cp = c->c;
  /* a GPU server is GPUs and links, never cubes and PEs (§8) */
  gboolean gpu = iv_hardware_is_gpu_server (hw);
  const char *pes = iv_hardware_pe_word (hw, TRUE);

  for (guint i = 0; i < r->n_kinds; i++)
    if (r->kinds[i].layers > k->layers)
      k = &r->kinds[i];

  /* -------- waste -------- */
  if (!mla && t > m->Hkv)
    waste (r, "kv-replication", r->kv_bytes_per_pe * (1 - m->Hkv / t), 100 * (1 - m->Hkv / t),
           "TP=%.0f exceeds the %" G_GINT64_FORMAT " KV heads: each KV head is stored on %.0f %s",
           t, m->Hkv, t / m->Hkv, pes);
  if (mla && t > 1)
    {
      double per_rank
          = r->kv_bytes_per_pe
            + c->e_w * m->n_layers * ((double) m->d * m->r_q + (double) m->d * (m->r_kv + m->d_r));
      waste (r, "mla-replication", per_rank * (t - 1) / t, 100 * (t - 1) / t,
             "the MLA latent cache and down-projections are held by each of the %.0f TP ranks", t);
    }
  if (cp > 1)
    waste (r, "cp-weights", r->weights_bytes_per_pe * (cp - 1) / cp, 100 * (cp - 1) / cp,
           "CP=%.0f holds %.0f copies of the weights", cp, cp);
  if (c->mode == IV_MODE_DECODE && cp > 1)
    waste (r, "decode-cp-linear", 0, 100 * (cp - 1) / cp,
           "decode with CP=%.0f computes the linear layers on every CP rank (%.0f×)", cp, cp);
  if (t > m->H && fmod (t, m->H) != 0)
    {
      /* more ranks than heads: each head split over ⌈t/H⌉ PEs, some over fewer — a split
       * (C3 pays for it), no head slot is empty */
      double per = ceil (t / m->H);
      waste (r, "uneven-head-split", 0, 100 * (per * m->H - t) / (per * m->H),
             "TP=%.0f splits the %" G_GINT64_FORMAT
             " heads unevenly: a head is split over up to %.0f %s, "
             "some over %.0f",
             t, m->H, per, pes, per - 1);
    }
  else if (t <= m->H && t * k->sh.H_l > m->H)
    waste (r, "padding-heads", 0, 100 * (t * k->sh.H_l - m->H) / (t * k->sh.H_l),
           "TP=%.0f does not divide the %" G_GINT64_FORMAT " heads: %.0f head slots are padding", t,
           m->H, t * k->sh.H_l - m->H);
  if (!k->moe && t * k->sh.F_l > m->F)
    waste (r, "padding-ffn", 0, 100 * (t * k->sh.F_l - m->F) / (t * k->sh.F_l),
           "TP=%.0f does not divide F=%" G_GINT64_FORMAT ": %.0f FFN columns are padding", t, m->F,
           t * k->sh.F_l - m->F);
  if (c->mode == IV_MODE_PREFILL && cp * k->sh.T_l > c->T)
    waste (r, "padding-tokens", 0, 100 * (cp * k->sh.T_l - c->T) / (cp * k->sh.T_l),
           "CP=%.0f does not divide T=%" G_GINT64_FORMAT ": %.0f token slots are padding", cp, c->T,
           cp * k->sh.T_l - c->T);
  if (r->idle_pes > 0)
    {
      double total = (double) hw->X * hw->Y * hw->n_pe;
      if (gpu)
        waste (r, "idle", 0, 100 * r->idle_pes / total,
               "%" G_GINT64_FORMAT " of %.0f GPUs are idle", r->idle_pes, total);
      else
        waste (r, "idle", 0, 100 * r->idle_pes / total,
               "%" G_GINT64_FORMAT " of %.0f PEs (%" G_GINT64_FORMAT " whole cubes) are idle",
               r->idle_pes, total, r->idle_cubes);
    }

  /* -------- hints -------- */
  {
    /* Linear layers below the ridge point are starved by memory, not compute; a larger
     * batch helps only if it fits (§5: no hint contradicts the memory check). */
    const IvStage *f2 = &k->stages[IV_F2];
    double intensity = f2->bytes > 0 ? f2->flops / f2->bytes : 0;
    double ridge = hw->eta_c * f2->peak / (hw->eta_m * hw->BW);
    if (f2->bound == IV_BOUND_MEMORY && intensity < ridge && r->fits && r->batch_max > c->B)
      hint (r, "raise-batch",
            "W_gate (F2) is memory-bound at %.1f FLOP/B, below the ridge of %.0f FLOP/B: "
            "raise B (now %" G_GINT64_FORMAT ", up to %" G_GINT64_FORMAT
            " fit) or T_q to reuse each weight for more tokens",
            intensity, ridge, c->B, r->batch_max);
  }
  if (!mla && t > m->Hkv)
    hint (r, "tp-exceeds-kv-heads",
          "TP=%.0f exceeds the %" G_GINT64_FORMAT " KV heads, so each is stored on %.0f %s: "
          "keep TP ≤ %" G_GINT64_FORMAT "%s and use CP for the rest",
          t, m->Hkv, t / m->Hkv, pes, m->Hkv, gpu ? "" : " (inside a cube)");
  {
    /* fewer hops: only what is not already so — TP inside a cube, or a torus for TP
     * across cubes on a ring or mesh */
    const IvStage *st = &k->stages[IV_C2];
    if (st->t_comm_s > 0 && st->comm_latency_s > st->comm_bandwidth_s)
      {
        g_autofree char *lat = iv_units_format_seconds (st->comm_latency_s);
        g_autofree char *bw = iv_units_format_seconds (st->comm_bandwidth_s);
        gboolean fits_pe = c->place_tp == IV_PLACE_CUBE
                           && c->t * (c->place_cp == IV_PLACE_PE ? c->c : 1) <= hw->n_pe;
        gboolean torus = c->place_tp == IV_PLACE_CUBE && hw->topology == IV_TOPOLOGY_MESH2D;
        if (fits_pe || torus)
          hint (r, "allreduce-latency",
                "the TP all-reduce spends %s in hop latency and %s moving data: fewer hops help "
                "(%s%s%s)",
                lat, bw, fits_pe ? "TP on PEs" : "", fits_pe && torus ? ", or " : "",
                torus ? "a torus" : "");
        else if (r->fits && r->batch_max > c->B)
          hint (r, "allreduce-latency",
                "the TP all-reduce spends %s in latency and %s moving data: fewer TP ranks, or "
                "more tokens per all-reduce (a larger B, up to %" G_GINT64_FORMAT
                " fit), pay the latency less often",
                lat, bw, r->batch_max);
        else
          hint (r, "allreduce-latency",
                "the TP all-reduce spends %s in latency and %s moving data: fewer TP ranks pay "
                "it less often",
                lat, bw);
      }
  }
  if (c->mode == IV_MODE_PREFILL && cp > 1)
    {
      /* the other ring, evaluated: switch only when its C1 is cheaper */
      IvRing other = c->ring == IV_RING_KV ? IV_RING_QOML : IV_RING_KV;
      IvStage alt;
      const IvStage *now = &k->stages[IV_C1];
      _iv_model_ring_stage (r, k, other, &alt);
      if (alt.t_s < now->t_s)
        {
          g_autofree char *t_alt = iv_units_format_seconds (alt.t_s),
                          *t_now = iv_units_format_seconds (now->t_s);
          g_autofree char *b_alt = iv_units_format_bytes (alt.comm_bytes),
                          *b_now = iv_units_format_bytes (now->comm_bytes);
          hint (r, other == IV_RING_QOML ? "ring-qoml" : "ring-kv",
                "the %s ring's C1 would take %s moving %s per %s, against %s moving %s for the %s "
                "ring now set: "
                "switch to %s",
                other == IV_RING_QOML ? "Q+O/m/l" : "K/V", t_alt, b_alt,
                iv_hardware_pe_word (hw, FALSE), t_now, b_now,
                c->ring == IV_RING_KV ? "K/V" : "Q+O/m/l", other == IV_RING_QOML ? "qoml" : "kv");
        }
    }
  if (t > m->H)
    hint (r, "reshard-heads",
          "TP=%.0f exceeds the %" G_GINT64_FORMAT " heads: a head is split over %.0f %s and its "
          "scores need an all-reduce (C3); shard by heads (TP ≤ %" G_GINT64_FORMAT ") and add CP",
          t, m->H, ceil (t / m->H), pes, m->H);
  if (mla && t > 1)
    hint (r, "mla-cp",
          "MLA with TP=%.0f keeps the whole latent cache on every TP rank: CP splits it instead",
          t);
  if (!r->fits)
    {
      g_autofree char *need = iv_hardware_format_bytes (
          hw, r->weights_bytes_per_pe + r->kv_bytes_per_pe + r->act_bytes_per_pe);
      g_autofree char *have = iv_hardware_format_bytes (hw, r->usable_bytes_per_pe);
      g_autofree char *tp_text = fitting_text (r, TRUE), *cp_text = fitting_text (r, FALSE);
      hint (r, "memory",
            "%s per %s does not fit in the %s it may hold (%.0f %% kept for the runtime): %s "
            "(CP=%.0f kept); %s (TP=%.0f kept)",
            need, iv_hardware_pe_word (hw, FALSE), have, 100 * c->reserve, tp_text, cp, cp_text, t);
    }
}

void
iv_result_ensure_hints (IvResult *r)
{
  g_return_if_fail (r != NULL);
  if (!r->ok || r->has_hints)
    return;
  r->n_waste = r->n_hints = 0;
  _iv_model_waste_and_hints (r);
  r->has_hints = TRUE;
}
