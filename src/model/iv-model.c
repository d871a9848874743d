/* iv-model.c: docs/model.md §2, §4 and §5 in code. Everything is computed per PE
 * and per layer, for each layer kind of the model, then weighted by layer counts. No
 * allocation happens here: a slider move re-evaluates in a few microseconds. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-model.h"

#include <math.h>
#include <string.h>

#define MAX_TOKENS (G_GINT64_CONSTANT (1) << 40)
#define MAX_RANKS (G_GINT64_CONSTANT (1) << 24)

static const char *const stage_ids[IV_N_STAGES] = {
  "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "C1",
  "C2", "C3", "F1", "R",  "A1", "F2", "F3", "F4", "F5", "A2",  "CF1",
};

static const char *const stage_names[IV_N_STAGES] = {
  "RMSNorm",
  "W_Q",
  "W_K+W_V",
  "KV append",
  "Q·Kᵀ",
  "softmax",
  "P·V",
  "merge O/m/l",
  "norm O/l",
  "W_O",
  "CP ring",
  "TP all-reduce",
  "score all-reduce",
  "RMSNorm",
  "router",
  "EP dispatch",
  "W_gate",
  "W_up",
  "SwiGLU",
  "W_down",
  "EP combine",
  "FFN all-reduce",
};

const char *
iv_stage_id (IvStageId s)
{
  return s < IV_N_STAGES ? stage_ids[s] : "?";
}
const char *
iv_stage_name (IvStageId s)
{
  return s < IV_N_STAGES ? stage_names[s] : "?";
}

const char *
iv_bound_to_string (IvBound b)
{
  static const char *const names[] = { "compute", "memory", "comm", "trivial" };
  return b <= IV_BOUND_TRIVIAL ? names[b] : "?";
}

gboolean
iv_stage_shown (const IvKindResult *k, IvStageId s)
{
  const IvStage *st = &k->stages[s];
  if (!st->present)
    return FALSE;
  if (s == IV_C1 || s == IV_C2 || s == IV_C3 || s == IV_CF1 || s == IV_A1 || s == IV_A2)
    return st->t_s > 0;
  return TRUE;
}

const char *
iv_mode_to_string (IvMode m)
{
  return m == IV_MODE_PREFILL ? "prefill" : "decode";
}
const char *
iv_place_to_string (IvPlace p)
{
  return p == IV_PLACE_CUBE ? "cube" : "pe";
}
const char *
iv_ring_to_string (IvRing r)
{
  return r == IV_RING_QOML ? "qoml" : "kv";
}

void
iv_result_class_times (const IvResult *r, double seconds[4])
{
  static const int class_of[IV_N_STAGES] = {
    [IV_S1] = 3, [IV_S2] = 0, [IV_S3] = 0, [IV_S4] = 3,  [IV_S5] = 1, [IV_S6] = 1,
    [IV_S7] = 1, [IV_S8] = 1, [IV_S9] = 1, [IV_S10] = 0, [IV_C1] = 2, [IV_C2] = 2,
    [IV_C3] = 2, [IV_F1] = 3, [IV_R] = 0,  [IV_A1] = 2,  [IV_F2] = 0, [IV_F3] = 0,
    [IV_F4] = 3, [IV_F5] = 0, [IV_A2] = 2, [IV_CF1] = 2,
  };

  for (int c = 0; c < 4; c++)
    seconds[c] = 0;
  for (guint k = 0; k < r->n_kinds; k++)
    for (int s = 0; s < IV_N_STAGES; s++)
      if (r->kinds[k].stages[s].present)
        seconds[class_of[s]] += r->kinds[k].layers * r->kinds[k].stages[s].visible_s;
  seconds[0] += r->lm_head.t_s;
}

char *
iv_result_config_text (const IvResult *r)
{
  const IvConfig *c = &r->config;
  GString *s = g_string_new (NULL);
  gboolean gpu = iv_hardware_is_gpu_server (r->hw);

  g_string_append_printf (
      s, "%s · B=%" G_GINT64_FORMAT " T_q=%" G_GINT64_FORMAT " P=%" G_GINT64_FORMAT " · ",
      iv_mode_to_string (c->mode), c->B, c->T, c->P);
  /* a GPU server's groups all span GPUs: no placement to name, and CP (with its ring)
   * only when there is one — GPUs and links, not a SIP's cubes and PEs (§8) */
  if (gpu && c->place_tp == IV_PLACE_CUBE && c->place_cp == IV_PLACE_CUBE)
    {
      g_string_append_printf (s, "TP=%" G_GINT64_FORMAT, c->t);
      if (c->c > 1)
        g_string_append_printf (s, " CP=%" G_GINT64_FORMAT " (%s ring)", c->c,
                                iv_ring_to_string (c->ring));
    }
  else
    g_string_append_printf (s, "TP=%" G_GINT64_FORMAT " (%s) CP=%" G_GINT64_FORMAT " (%s, %s ring)",
                            c->t, iv_place_to_string (c->place_tp), c->c,
                            iv_place_to_string (c->place_cp), iv_ring_to_string (c->ring));
  if (c->e > 1)
    g_string_append_printf (
        s, gpu ? " EP=%" G_GINT64_FORMAT " (ι %.3g)" : " EP=%" G_GINT64_FORMAT " (ι %.3g, %s)",
        c->e, c->imbalance, iv_place_to_string (c->place_ep));
  if (c->f_w != IV_FORMAT_BF16 || c->f_a != IV_FORMAT_BF16 || c->f_kv != IV_FORMAT_BF16)
    g_string_append_printf (s, " · W %s A %s KV %s", iv_format_id (c->f_w), iv_format_id (c->f_a),
                            iv_format_id (c->f_kv));
  if (c->overlap)
    g_string_append (s, " · overlap");
  return g_string_free (s, FALSE);
}

void
iv_config_init (IvConfig *c)
{
  *c = (IvConfig){ .mode = IV_MODE_DECODE,
                   .B = 1,
                   .T = 1,
                   .P = 4096,
                   .t = 1,
                   .c = 1,
                   .place_tp = IV_PLACE_PE,
                   .place_cp = IV_PLACE_PE,
                   .ring = IV_RING_KV,
                   .e_w = 2,
                   .e_a = 2,
                   .e_kv = 2,
                   .e_p = 4,
                   .f_w = IV_FORMAT_BF16,
                   .f_a = IV_FORMAT_BF16,
                   .f_kv = IV_FORMAT_BF16,
                   .e = 1,
                   .place_ep = IV_PLACE_CUBE,
                   .imbalance = 1,
                   .overlap = FALSE,
                   /* what vLLM's default gpu_memory_utilization of 0.9 leaves aside (§5) */
                   .reserve = 0.10 };
}

void
iv_config_set_weight_format (IvConfig *c, IvFormat f)
{
  c->f_w = f, c->e_w = iv_format_bytes (f);
}

void
iv_config_set_act_format (IvConfig *c, IvFormat f)
{
  c->f_a = f, c->e_a = iv_format_bytes (f);
}

void
iv_config_set_kv_format (IvConfig *c, IvFormat f)
{
  c->f_kv = f, c->e_kv = iv_format_bytes (f);
}

double
iv_config_usable_bytes (const IvConfig *c, const IvHardware *hw)
{
  return (1 - c->reserve) * hw->M_pe;
}

static inline double
ceil_div (double a, double b)
{
  return ceil (a / b);
}

static gboolean fail (IvResult *r, IvConfigField field, const char *format, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
fail (IvResult *r, IvConfigField field, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_vsnprintf (r->error, sizeof r->error, format, args);
  va_end (args);
  r->ok = FALSE;
  r->error_field = field;
  return FALSE;
}

/* -------- layer kinds -------- */

/* What a layer kind is before it is evaluated: all memory () reads of it, so the hints can
 * size memory for each TP and CP without an IvKindResult (22 stages) per candidate. */
typedef struct
{
  const char *name;
  gint64 layers;
  gboolean moe;
  gint64 window; /* 0: attends to everything */
} KindShape;

static void
add_shape (KindShape *shapes, guint *n, const char *name, gint64 layers, gboolean moe,
           gint64 window)
{
  if (layers <= 0)
    return;
  shapes[(*n)++] = (KindShape){ name, layers, moe, window };
}

/* The model's layer kinds, at most IV_MAX_KINDS: their number. */
static guint
kind_shapes (const IvModel *m, KindShape shapes[IV_MAX_KINDS])
{
  guint n = 0;

  if (m->window_kind == IV_WINDOW_ALTERNATING)
    {
      /* Gemma 2: layer 0 is local, then they alternate. */
      add_shape (shapes, &n, "local", (m->n_layers + 1) / 2, FALSE, m->window);
      add_shape (shapes, &n, "global", m->n_layers / 2, FALSE, 0);
      return n;
    }
  if (m->E > 0)
    {
      add_shape (shapes, &n, "dense", m->n_dense, FALSE, 0);
      add_shape (shapes, &n, "moe", m->n_layers - m->n_dense, TRUE,
                 m->window_kind == IV_WINDOW_ALL ? m->window : 0);
      return n;
    }
  add_shape (shapes, &n, m->window_kind == IV_WINDOW_ALL ? "sliding" : "dense", m->n_layers, FALSE,
             m->window_kind == IV_WINDOW_ALL ? m->window : 0);
  return n;
}

/* The result's kinds, zeroed but for their shape; @shapes gets the shapes too. */
static void
make_kinds (IvResult *r, KindShape shapes[IV_MAX_KINDS])
{
  r->n_kinds = kind_shapes (r->model, shapes);
  for (guint i = 0; i < r->n_kinds; i++)
    {
      IvKindResult *k = &r->kinds[i];
      memset (k, 0, sizeof *k);
      g_strlcpy (k->name, shapes[i].name, sizeof k->name);
      k->layers = shapes[i].layers;
      k->moe = shapes[i].moe;
      k->window = shapes[i].window;
    }
}

/* -------- stage timing -------- */

static void
set_compute (IvStage *s, gboolean matrix, double flops, double bytes)
{
  s->present = TRUE;
  s->matrix = matrix;
  s->flops = flops;
  s->bytes = bytes;
}

static void
time_stage (IvStage *s, const IvHardware *hw)
{
  double p = s->matrix ? s->peak : hw->P_v;

  /* Never 0/0: a stage with nothing to do costs nothing. */
  s->t_compute_s = s->flops > 0 ? s->flops / (hw->eta_c * p) : 0;
  s->t_memory_s = s->bytes > 0 ? s->bytes / (hw->eta_m * hw->BW) : 0;
  s->t_s = MAX (s->t_compute_s, MAX (s->t_memory_s, s->t_comm_s));
  s->visible_s = s->t_s;
  if (s->t_s <= 0)
    s->bound = IV_BOUND_TRIVIAL;
  else if (s->t_s == s->t_compute_s)
    s->bound = IV_BOUND_COMPUTE;
  else if (s->t_s == s->t_memory_s)
    s->bound = IV_BOUND_MEMORY;
  else
    s->bound = IV_BOUND_COMM;
}

static void
set_comm (IvStage *s, IvCollectiveCost cost, double bytes)
{
  s->present = TRUE;
  s->comm_bytes = bytes;
  s->t_comm_s = cost.total_s;
  s->comm_latency_s = cost.latency_s;
  s->comm_bandwidth_s = cost.bandwidth_s;
  s->comm = cost;
}

/* The peaks of the two compute formats of §2.3: the weight GEMMs and the attention core. */
static void
stage_formats (IvStage *st, const IvConfig *c, const IvHardware *hw)
{
  IvFormat w = iv_format_compute (c->f_w, c->f_a), kv = iv_format_compute (c->f_kv, c->f_a);
  double pw = iv_format_peak (hw, w), pkv = iv_format_peak (hw, kv);

  for (int i = 0; i < IV_N_STAGES; i++)
    if (st[i].matrix)
      {
        gboolean core = i == IV_S5 || i == IV_S7;
        st[i].fmt = core ? kv : w;
        st[i].peak = core ? pkv : pw;
      }
}

/* -------- one layer kind -------- */

void
_iv_model_ring_stage (const IvResult *r, const IvKindResult *k, IvRing ring, IvStage *out)
{
  const IvModel *m = r->model;
  const IvConfig *c = &r->config;
  const IvShares *sh = &k->sh;
  double B = c->B, cp = c->c, msg, hops = ring == IV_RING_KV ? cp - 1 : cp;
  IvCollectiveCost step;

  memset (out, 0, sizeof *out);
  out->present = TRUE;
  if (cp > 1)
    {
      if (ring == IV_RING_KV)
        msg = m->attention == IV_ATTENTION_MLA ? c->e_kv * B * sh->L_l * (m->r_kv + m->d_r)
                                               : c->e_kv * 2 * B * sh->L_l * sh->Hkv_l * m->dh;
      else
        msg = c->e_a * B * sh->T_l * sh->H_l * m->dh
              + B * sh->T_l * sh->H_l * (c->e_p * sh->d_o + 8);
      step = iv_collective_times (iv_ring_step (&r->cp_group, r->hw, msg), hops);
      set_comm (out, step, msg * hops);
    }
  time_stage (out, r->hw);
}

static void
evaluate_kind (IvResult *r, IvKindResult *k)
{
  const IvModel *m = r->model;
  const IvHardware *hw = r->hw;
  const IvConfig *c = &r->config;
  IvShares *sh = &k->sh;
  IvStage *st = k->stages;
  gboolean prefill = c->mode == IV_MODE_PREFILL;
  gboolean mla = m->attention == IV_ATTENTION_MLA;
  double B = c->B, T = c->T, P = c->P, t = c->t, cp = c->c, d = m->d, dh = m->dh;
  double ew = c->e_w, ea = c->e_a, ekv = c->e_kv, ep = c->e_p;
  double H_l, Hkv_l, T_l, L_l, Np, dv;

  sh->H_l = H_l = ceil_div (m->H, t);
  sh->Hkv_l = Hkv_l = t <= m->Hkv ? ceil_div (m->Hkv, t) : 1;
  sh->F_l = ceil_div (m->F, t);
  sh->L = P + T;
  /* A sliding window caps the positions touched: in decode the last W; in prefill the
   * T queries together reach back W − 1 before the first of them, so T + W − 1. */
  sh->L_eff = k->window <= 0 ? sh->L
              : prefill      ? MIN (sh->L, T + (double) k->window - 1)
                             : MIN (sh->L, (double) k->window);
  sh->T_l = T_l = prefill ? ceil_div (T, cp) : T;
  sh->L_l = L_l = ceil_div (sh->L_eff, cp);
  sh->dv = dv = iv_model_value_head_dim (m);
  if (!prefill)
    Np = B * T * L_l;
  else if (k->window > 0)
    {
      /* Query i (1…T) attends min(P + i, W) positions. */
      double W = k->window, i0 = CLAMP (W - P, 0, T);
      Np = B * (i0 * P + i0 * (i0 + 1) / 2 + (T - i0) * W) / cp;
    }
  else
    Np = B * (T * P + T * (T + 1) / 2) / cp;
  sh->N_pairs = Np;

  /* the stages are zero already: make_kinds () zeroed the whole kind */

  /* S1 RMSNorm */
  set_compute (&st[IV_S1], FALSE, 4 * B * T_l * d, ea * 2 * B * T_l * d + ew * d);

  if (!mla)
    {
      set_compute (&st[IV_S2], TRUE, 2 * B * T_l * d * H_l * dh,
                   ew * d * H_l * dh + ea * B * T_l * (d + H_l * dh));
      set_compute (&st[IV_S3], TRUE, 2 * B * T_l * d * 2 * Hkv_l * dh,
                   ew * 2 * d * Hkv_l * dh + ea * B * T_l * (d + 2 * Hkv_l * dh));
      set_compute (&st[IV_S4], FALSE, 0, ekv * 2 * B * T_l * Hkv_l * dh);
      set_compute (&st[IV_S5], TRUE, 2 * H_l * dh * Np,
                   ea * B * T_l * H_l * dh + ekv * B * L_l * Hkv_l * dh);
      set_compute (&st[IV_S7], TRUE, 2 * H_l * dv * Np, ekv * B * L_l * Hkv_l * dv);
      set_compute (&st[IV_S10], TRUE, 2 * B * T_l * H_l * dv * d,
                   ew * H_l * dv * d + ea * B * T_l * (H_l * dv + d));
    }
  else
    {
      double rq = m->r_q, rkv = m->r_kv, dn = m->d_n, dr = m->d_r, lat = rkv + dr;
      /* Down-projections are replicated on every TP rank; the rest splits by heads. */
      double q_in_w = rq > 0 ? d * rq + rq * H_l * (dn + dr) : d * H_l * (dn + dr);
      if (!prefill)
        {
          /* Absorbed decode: q is taken into the latent space through W_UK. */
          set_compute (&st[IV_S2], TRUE, 2 * B * T * (q_in_w + H_l * dn * rkv),
                       ew * (q_in_w + H_l * dn * rkv) + ea * B * T_l * (d + H_l * lat));
          set_compute (&st[IV_S3], TRUE, 2 * B * T * d * lat,
                       ew * d * lat + ea * B * T_l * (d + lat));
          set_compute (&st[IV_S5], TRUE, 2 * H_l * lat * Np,
                       ea * B * T_l * H_l * lat + ekv * B * L_l * lat);
          set_compute (&st[IV_S7], TRUE, 2 * H_l * rkv * Np, 0);
          set_compute (&st[IV_S10], TRUE, 2 * B * T * H_l * rkv * dv + 2 * B * T_l * H_l * dv * d,
                       ew * (H_l * rkv * dv + H_l * dv * d) + ea * B * T_l * (H_l * rkv + d));
        }
      else
        {
          /* Naive prefill: keys and values are up-projected per head. */
          set_compute (&st[IV_S2], TRUE, 2 * B * T_l * q_in_w,
                       ew * q_in_w + ea * B * T_l * (d + H_l * (dn + dr)));
          set_compute (
              &st[IV_S3], TRUE, 2 * B * T_l * d * lat + 2 * B * T_l * rkv * H_l * (dn + dv),
              ew * (d * lat + rkv * H_l * (dn + dv)) + ea * B * T_l * (d + lat + H_l * (dn + dv)));
          set_compute (&st[IV_S5], TRUE, 2 * H_l * (dn + dr) * Np,
                       ea * B * T_l * H_l * (dn + dr) + ekv * B * L_l * lat);
          set_compute (&st[IV_S7], TRUE, 2 * H_l * dv * Np, 0);
          set_compute (&st[IV_S10], TRUE, 2 * B * T_l * H_l * dv * d,
                       ew * H_l * dv * d + ea * B * T_l * (H_l * dv + d));
        }
      set_compute (&st[IV_S4], FALSE, 0, ekv * B * T_l * lat);
    }
  set_compute (&st[IV_S6], FALSE, 5 * H_l * Np, 0);

  /* What leaves the attention core per head: dv wide, but r_kv in MLA's absorbed decode
   * (W_UV is applied only in S10), so S8, S9 and a Q+O/m/l ring carry r_kv there. */
  sh->d_o = mla && !prefill ? m->r_kv : dv;

  /* S8: merging partial O, m, l across CP ranks. */
  set_compute (&st[IV_S8], FALSE, (cp - 1) * B * T_l * H_l * (3 * sh->d_o + 8),
               cp > 1 ? cp * B * T_l * H_l * (ep * sh->d_o + 8) : 0);
  if (!prefill && cp > 1)
    {
      double bytes = B * T * H_l * (ep * sh->d_o + 8);
      set_comm (&st[IV_S8], iv_allreduce (&r->cp_group, hw, bytes), bytes);
    }
  set_compute (&st[IV_S9], FALSE, B * T_l * H_l * sh->d_o, ea * B * T_l * H_l * sh->d_o);

  /* C1: the CP ring in prefill, overlapped with the attention core. */
  if (prefill)
    {
      _iv_model_ring_stage (r, k, r->config.ring, &st[IV_C1]);
      sh->n_hops = cp > 1 ? (r->config.ring == IV_RING_KV ? cp - 1 : cp) : 0;
    }
  /* C2: the TP all-reduce after W_O. */
  {
    double bytes = ea * B * T_l * d;
    st[IV_C2].present = TRUE;
    if (t > 1)
      set_comm (&st[IV_C2], iv_allreduce (&r->tp_group, hw, bytes), bytes);
  }
  /* C3: more TP ranks than heads split a head; its scores are all-reduced. */
  if (t > m->H)
    {
      double bytes = ep * B * T_l * H_l * L_l;
      set_comm (&st[IV_C3], iv_allreduce (&r->c3_group, hw, bytes), bytes);
    }

  /* FFN */
  set_compute (&st[IV_F1], FALSE, 4 * B * T_l * d, ea * 2 * B * T_l * d + ew * d);
  if (k->moe)
    {
      double E = m->E, kk = m->k, n = B * T_l, ne = c->e;
      double Fa, Fw;
      /* §4.2, §4.4: the busiest EP rank's routed pairs, and its own experts the e
       * replicas' tokens touch */
      sh->E_loc = ceil_div (E, ne);
      sh->imb = ne > 1 ? c->imbalance : 1;
      sh->F_act = Fa = sh->imb * kk * m->F_e + (double) m->E_s * m->F_s;
      sh->E_touch = sh->E_loc * (1 - pow (1 - kk / E, ne * n));
      sh->F_w = Fw = sh->E_touch * m->F_e + (double) m->E_s * m->F_s;
      set_compute (&st[IV_R], TRUE, 2 * B * T_l * d * E, ew * d * E + ea * B * T_l * (d + E));
      if (ne > 1)
        {
          /* a token goes once to each other rank holding one of its k experts */
          double bytes = sh->imb * ea * B * T_l * d * (ne - 1) * (1 - pow (1 - 1 / ne, kk));
          IvCollectiveCost a2a = iv_alltoall (&r->ep_group, hw, bytes);
          set_comm (&st[IV_A1], a2a, bytes);
          set_comm (&st[IV_A2], a2a, bytes);
        }
      set_compute (&st[IV_F2], TRUE, 2 * B * T_l * d * Fa / t,
                   ew * d * Fw / t + ea * B * T_l * (d + Fa / t));
      st[IV_F3] = st[IV_F2];
      set_compute (&st[IV_F4], FALSE, 5 * B * T_l * Fa / t, 3 * ea * B * T_l * Fa / t);
      set_compute (&st[IV_F5], TRUE, 2 * B * T_l * Fa / t * d,
                   ew * Fw / t * d + ea * B * T_l * (Fa / t + d));
    }
  else
    {
      double F_l = sh->F_l;
      set_compute (&st[IV_F2], TRUE, 2 * B * T_l * d * F_l,
                   ew * d * F_l + ea * B * T_l * (d + F_l));
      st[IV_F3] = st[IV_F2];
      set_compute (&st[IV_F4], FALSE, 5 * B * T_l * F_l, 3 * ea * B * T_l * F_l);
      set_compute (&st[IV_F5], TRUE, 2 * B * T_l * F_l * d,
                   ew * F_l * d + ea * B * T_l * (F_l + d));
    }
  {
    double bytes = ea * B * T_l * d;
    st[IV_CF1].present = TRUE;
    if (t > 1)
      set_comm (&st[IV_CF1], iv_allreduce (&r->tp_group, hw, bytes), bytes);
  }

  stage_formats (st, c, hw);
  for (int i = 0; i < IV_N_STAGES; i++)
    if (st[i].present)
      time_stage (&st[i], hw);

  /* C1 runs under the attention core of the blocks already held. */
  if (st[IV_C1].present)
    st[IV_C1].visible_s
        = MAX (0, st[IV_C1].t_s - (cp - 1) / cp * (st[IV_S5].t_s + st[IV_S6].t_s + st[IV_S7].t_s));
  /* With overlap, each TP all-reduce hides, at best, behind the next GEMM: F2 after C2, the
   * next layer's W_Q (this kind's) after CF1. */
  if (c->overlap && t > 1)
    {
      st[IV_C2].visible_s = MAX (0, st[IV_C2].t_s - st[IV_F2].t_s);
      st[IV_CF1].visible_s = MAX (0, st[IV_CF1].t_s - st[IV_S2].t_s);
    }

  k->attention_s = k->ffn_s = 0;
  for (int i = IV_S1; i <= IV_C3; i++)
    k->attention_s += st[i].present ? st[i].visible_s : 0;
  for (int i = IV_F1; i <= IV_CF1; i++)
    k->ffn_s += st[i].present ? st[i].visible_s : 0;
  k->layer_s = k->attention_s + k->ffn_s;
  for (int i = 0; i < IV_N_STAGES; i++)
    if (st[i].present && st[i].t_s < 0.01 * k->layer_s)
      st[i].bound = IV_BOUND_TRIVIAL;
}

/* -------- memory -------- */

static double
kind_weights (const IvModel *m, const IvConfig *c, const KindShape *k)
{
  double d = m->d, t = c->t, H_l = ceil_div (m->H, t), dv = iv_model_value_head_dim (m);
  double Hkv_l = t <= m->Hkv ? ceil_div (m->Hkv, t) : 1;
  double attn, ffn;

  if (m->attention == IV_ATTENTION_MLA)
    {
      double rq = m->r_q, lat = m->r_kv + m->d_r;
      attn = (rq > 0 ? d * rq + rq * H_l * (m->d_n + m->d_r) : d * H_l * (m->d_n + m->d_r))
             + d * lat + m->r_kv * H_l * (m->d_n + dv) + H_l * dv * d;
    }
  else
    attn = d * H_l * m->dh + 2 * d * Hkv_l * m->dh + H_l * dv * d;
  if (k->moe)
    ffn = d * m->E
          + 3 * d * (ceil_div ((double) m->E, (double) c->e) * m->F_e + (double) m->E_s * m->F_s)
                / t;
  else
    ffn = 3 * d * ceil_div (m->F, t);
  return c->e_w * (attn + ffn + m->norms_per_layer * d);
}

static double
kind_kv (const IvModel *m, const IvConfig *c, const KindShape *k)
{
  double L = (double) c->P + c->T;
  double L_l = ceil_div (k->window > 0 ? MIN (L, (double) k->window) : L, c->c);
  double Hkv_l = c->t <= m->Hkv ? ceil_div (m->Hkv, c->t) : 1;

  if (m->attention == IV_ATTENTION_MLA)
    return c->B * L_l * (m->r_kv + m->d_r) * c->e_kv;
  return 2 * c->B * L_l * Hkv_l * m->dh * c->e_kv;
}

static double
memory (const IvModel *m, const IvConfig *c, const KindShape *shapes, guint n_kinds,
        double *weights, double *kv, double *act)
{
  double w = 0, v = 0, a = 0;

  for (guint i = 0; i < n_kinds; i++)
    {
      const KindShape *k = &shapes[i];
      double T_l = c->mode == IV_MODE_PREFILL ? ceil_div (c->T, c->c) : c->T;
      double H_l = ceil_div (m->H, c->t), Hkv_l = c->t <= m->Hkv ? ceil_div (m->Hkv, c->t) : 1;
      double imb = c->e > 1 ? c->imbalance : 1;
      double widest = k->moe ? (imb * m->k * m->F_e + (double) m->E_s * m->F_s) / c->t
                             : ceil_div (m->F, c->t);
      w += k->layers * kind_weights (m, c, k);
      v += k->layers * kind_kv (m, c, k);
      a = MAX (a, c->e_a * c->B * T_l * (m->d + MAX (widest, H_l * m->dh + 2 * Hkv_l * m->dh)));
    }
  /* Embedding and LM head are vocab-parallel over TP; tied, they are one table. */
  w += c->e_w * (m->tied ? 1 : 2) * (double) m->V * m->d / c->t + c->e_w * m->d;
  *weights = w;
  *kv = v;
  *act = a;
  return w + v + a;
}

double
iv_model_memory_per_pe (const IvModel *model, const IvConfig *config, double *weights, double *kv)
{
  /* No IvResult: the hints call this for every TP and CP a server allows, and setting up
   * a result's kinds (22 stages each, every collective's cost in full) each time was most
   * of an evaluation's time. memory () reads only the model, the configuration and the
   * kinds' shapes. */
  KindShape shapes[IV_MAX_KINDS];
  guint n = kind_shapes (model, shapes);
  double w, v, a, total;

  total = memory (model, config, shapes, n, &w, &v, &a);
  if (weights)
    *weights = w;
  if (kv)
    *kv = v;
  return total;
}

/* -------- evaluation -------- */

static gboolean
check_config (IvResult *r)
{
  const IvConfig *c = &r->config;

  if (c->B < 1)
    return fail (r, IV_FIELD_BATCH, "the batch must be at least 1, not %" G_GINT64_FORMAT, c->B);
  if (c->T < 1)
    return fail (r, IV_FIELD_TQ, "T_q must be at least 1, not %" G_GINT64_FORMAT, c->T);
  if (c->P < 0)
    return fail (r, IV_FIELD_CONTEXT, "the context must be 0 or more, not %" G_GINT64_FORMAT, c->P);
  if (c->t < 1)
    return fail (r, IV_FIELD_TP, "TP must be at least 1, not %" G_GINT64_FORMAT, c->t);
  if (c->c < 1)
    return fail (r, IV_FIELD_CP, "CP must be at least 1, not %" G_GINT64_FORMAT, c->c);
  /* The upper bounds keep every product of counts (TP×CP, ranks × stride, cubes × PEs)
   * far inside 64 bits; no real step comes near them. */
  if (c->B > MAX_TOKENS)
    return fail (r, IV_FIELD_BATCH, "the batch must be at most %" G_GINT64_FORMAT, MAX_TOKENS);
  if (c->T > MAX_TOKENS)
    return fail (r, IV_FIELD_TQ, "T_q must be at most %" G_GINT64_FORMAT, MAX_TOKENS);
  if (c->P > MAX_TOKENS)
    return fail (r, IV_FIELD_CONTEXT, "the context must be at most %" G_GINT64_FORMAT, MAX_TOKENS);
  if (c->t > MAX_RANKS)
    return fail (r, IV_FIELD_TP, "TP must be at most %" G_GINT64_FORMAT, MAX_RANKS);
  if (c->c > MAX_RANKS)
    return fail (r, IV_FIELD_CP, "CP must be at most %" G_GINT64_FORMAT, MAX_RANKS);
  if (!(c->e_w > 0 && c->e_a > 0 && c->e_kv > 0 && c->e_p > 0))
    return fail (r, IV_FIELD_DTYPE, "bytes per element must be positive");
  if (!(c->e_w <= 64 && c->e_a <= 64 && c->e_kv <= 64 && c->e_p <= 64))
    return fail (r, IV_FIELD_DTYPE, "bytes per element must be at most 64");
  if (c->e < 1)
    return fail (r, IV_FIELD_EP, "EP must be at least 1, not %" G_GINT64_FORMAT, c->e);
  if (c->e > MAX_RANKS)
    return fail (r, IV_FIELD_EP, "EP must be at most %" G_GINT64_FORMAT, MAX_RANKS);
  if (!(c->imbalance >= 1 && c->imbalance <= 64))
    return fail (r, IV_FIELD_IMBALANCE, "the EP load imbalance must be from 1 to 64, not %g",
                 c->imbalance);
  if (!(c->reserve >= 0 && c->reserve <= 0.9))
    return fail (r, IV_FIELD_RESERVE, "the runtime reserve must be from 0 to 0.9, not %g",
                 c->reserve);
  if ((guint) c->f_w >= IV_N_FORMATS || (guint) c->f_a >= IV_N_FORMATS
      || (guint) c->f_kv >= IV_N_FORMATS)
    return fail (r, IV_FIELD_FORMAT, "unknown number format");
  if (iv_format_weights_only (c->f_a) || iv_format_weights_only (c->f_kv))
    return fail (r, IV_FIELD_FORMAT,
                 "%s is a weight-only format: activations and the KV cache "
                 "cannot be %s",
                 iv_format_name (IV_FORMAT_INT4), iv_format_name (IV_FORMAT_INT4));
  return TRUE;
}

/* The groups at one level (PEs or cubes) larger than 1, as "TP×EP", their product, and
 * the field of the first: what a refusal names. */
static gint64
level_groups (const IvConfig *c, IvPlace level, char *names, gsize len, IvConfigField *field)
{
  const struct
  {
    const char *name;
    gint64 size;
    IvPlace place;
    IvConfigField field;
  } groups[] = {
    { "TP", c->t, c->place_tp, IV_FIELD_TP },
    { "CP", c->c, c->place_cp, IV_FIELD_CP },
    { "EP", c->e, c->place_ep, IV_FIELD_EP },
  };
  gint64 product = 1;

  names[0] = '\0';
  *field = IV_FIELD_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (groups[i].place == level && groups[i].size > 1)
      {
        product *= groups[i].size;
        if (names[0])
          g_strlcat (names, "×", len);
        g_strlcat (names, groups[i].name, len);
        if (*field == IV_FIELD_NONE)
          *field = groups[i].field;
      }
  return product;
}

/* @quiet: FALSE without a sentence (the hints' search, which tries many and reports none). */
static gboolean
place (IvResult *r, gboolean quiet)
{
  const IvConfig *c = &r->config;
  const IvHardware *hw = r->hw;
  gint64 cubes = hw->X * hw->Y, on_pe, on_cube;
  gboolean gpu = iv_hardware_is_gpu_server (hw);
  char err[200], names[32];
  IvConfigField f;

  on_pe = level_groups (c, IV_PLACE_PE, names, sizeof names, &f);
  if (on_pe > hw->n_pe)
    return !quiet
           && fail (r, f,
                    gpu ? "%s=%" G_GINT64_FORMAT " on one GPU needs %" G_GINT64_FORMAT
                          " PEs in it; a GPU is one PE (place it across GPUs)"
                        : "%s=%" G_GINT64_FORMAT " on PEs needs %" G_GINT64_FORMAT
                          " PEs per cube; this SIP has %" G_GINT64_FORMAT,
                    names, on_pe, on_pe, hw->n_pe);
  on_cube = level_groups (c, IV_PLACE_CUBE, names, sizeof names, &f);
  if (on_cube > cubes)
    return !quiet
           && fail (r, f,
                    gpu ? "%s=%" G_GINT64_FORMAT " across GPUs needs %" G_GINT64_FORMAT
                          " GPUs; this server has %" G_GINT64_FORMAT
                        : "%s=%" G_GINT64_FORMAT " on cubes needs %" G_GINT64_FORMAT
                          " cubes; this SIP has %" G_GINT64_FORMAT,
                    names, on_cube, on_cube, cubes);
  r->used_pes_per_cube = on_pe;
  r->used_cubes = on_cube;
  r->idle_cubes = cubes - on_cube;
  r->idle_pes = cubes * hw->n_pe - on_pe * on_cube;

  /* TP varies fastest, then CP, then EP: at a shared level a group's neighbours are the
   * faster groups' sizes apart. */
  if (!iv_group_embed (&r->tp_group, c->t, 1, c->place_tp == IV_PLACE_PE, hw, quiet ? NULL : err,
                       sizeof err))
    return !quiet && fail (r, IV_FIELD_TP_PLACE, "TP: %s", err);
  if (!iv_group_embed (&r->cp_group, c->c, c->place_tp == c->place_cp ? c->t : 1,
                       c->place_cp == IV_PLACE_PE, hw, quiet ? NULL : err, sizeof err))
    return !quiet && fail (r, IV_FIELD_CP_PLACE, "CP: %s", err);
  if (!iv_group_embed (&r->ep_group, c->e,
                       (c->place_tp == c->place_ep ? c->t : 1)
                           * (c->place_cp == c->place_ep ? c->c : 1),
                       c->place_ep == IV_PLACE_PE, hw, quiet ? NULL : err, sizeof err))
    return !quiet && fail (r, IV_FIELD_EP_PLACE, "EP: %s", err);
  /* ⌈t/H⌉ PEs share a head (an uneven split still splits each head over that many) */
  if (c->t > r->model->H
      && !iv_group_embed (&r->c3_group, (c->t + r->model->H - 1) / r->model->H, 1,
                          c->place_tp == IV_PLACE_PE, hw, quiet ? NULL : err, sizeof err))
    return !quiet && fail (r, IV_FIELD_TP, "TP (score all-reduce): %s", err);
  return TRUE;
}

gboolean
_iv_model_placeable (const IvModel *model, const IvHardware *hw, const IvConfig *config)
{
  /* Not zeroed: check_config () and place () read only these three. */
  IvResult r;

  r.model = model;
  r.hw = hw;
  r.config = *config;
  return check_config (&r) && place (&r, TRUE);
}

gint64
_iv_model_largest_placeable (const IvConfig *config, const IvHardware *hw, gboolean vary_tp)
{
  IvConfig c = *config;
  char names[32];
  IvConfigField f;
  gint64 others_pe, others_cube;

  /* place () refuses a level where the product of its groups' sizes exceeds what it holds:
   * the varied size times the others' there. */
  if (vary_tp)
    c.t = 1;
  else
    c.c = 1;
  others_pe = level_groups (&c, IV_PLACE_PE, names, sizeof names, &f);
  others_cube = level_groups (&c, IV_PLACE_CUBE, names, sizeof names, &f);
  return MAX (hw->n_pe / others_pe, hw->X * hw->Y / others_cube);
}

static gboolean evaluate (const IvModel *model, const IvHardware *hw, const IvConfig *config,
                          IvResult *r, gboolean hints);

gboolean
iv_model_evaluate (const IvModel *model, const IvHardware *hw, const IvConfig *config, IvResult *r)
{
  return evaluate (model, hw, config, r, TRUE);
}

gboolean
_iv_model_evaluate_plain (const IvModel *model, const IvHardware *hw, const IvConfig *config,
                          IvResult *r)
{
  return evaluate (model, hw, config, r, FALSE);
}

gboolean
iv_model_evaluate_plain (const IvModel *model, const IvHardware *hw, const IvConfig *config,
                         IvResult *r)
{
  return evaluate (model, hw, config, r, FALSE);
}

/* @hints: the waste and hints too (the hints evaluate other configurations without). */
static gboolean
evaluate (const IvModel *model, const IvHardware *hw, const IvConfig *config, IvResult *r,
          gboolean hints)
{
  const IvConfig *c = config;
  KindShape shapes[IV_MAX_KINDS];
  double n_h, weights, kv, act;

  g_return_val_if_fail (model && hw && config && r, FALSE);

  r->ok = TRUE;
  r->error[0] = '\0';
  r->error_field = IV_FIELD_NONE;
  r->model = model;
  r->hw = hw;
  r->config = *config;
  r->n_waste = r->n_hints = 0;
  r->has_hints = FALSE;
  memset (&r->c3_group, 0, sizeof r->c3_group);
  memset (&r->ep_group, 0, sizeof r->ep_group);
  if (!check_config (r) || !place (r, FALSE))
    return FALSE;

  make_kinds (r, shapes);
  r->step_s = 0;
  for (guint i = 0; i < r->n_kinds; i++)
    {
      evaluate_kind (r, &r->kinds[i]);
      r->step_s += r->kinds[i].layers * r->kinds[i].layer_s;
    }

  /* LM head, vocab-parallel: every token in decode, each sequence's last in prefill. */
  n_h = c->mode == IV_MODE_DECODE ? (double) c->B * c->T : (double) c->B;
  memset (&r->lm_head, 0, sizeof r->lm_head);
  set_compute (&r->lm_head, TRUE, 2 * n_h * model->d * model->V / c->t,
               c->e_w * model->d * model->V / c->t
                   + c->e_a * n_h * (model->d + (double) model->V / c->t));
  r->lm_head.fmt = iv_format_compute (c->f_w, c->f_a);
  r->lm_head.peak = iv_format_peak (hw, r->lm_head.fmt);
  time_stage (&r->lm_head, hw);
  r->step_s += r->lm_head.t_s;
  /* every one of the e replicas makes its B·T tokens in the step (§4.4) */
  r->tokens_per_s = r->step_s > 0 ? (double) c->e * c->B * c->T / r->step_s : 0;
  r->pes = c->t * c->c * c->e;

  memory (model, c, shapes, r->n_kinds, &weights, &kv, &act);
  r->weights_bytes_per_pe = weights;
  r->kv_bytes_per_pe = kv;
  r->act_bytes_per_pe = act;
  r->capacity_bytes_per_pe = hw->M_pe;
  r->usable_bytes_per_pe = iv_config_usable_bytes (c, hw);
  r->fits = weights + kv + act <= r->usable_bytes_per_pe;
  /* KV and activations grow with B, the weights do not (§5) */
  {
    double per_seq = (kv + act) / (double) c->B, room = r->usable_bytes_per_pe - weights;
    r->batch_max = room <= 0 || per_seq <= 0 ? 0 : (gint64) MIN (floor (room / per_seq), 1e15);
  }

  if (hints)
    {
      _iv_model_waste_and_hints (r);
      r->has_hints = TRUE;
    }
  return TRUE;
}
