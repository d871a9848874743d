/* iv-glossary.c: one table of symbols drives both the glossary and the formulas with
 * numbers, so what the glossary says a symbol is worth is what the formula uses. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-glossary.h"

#include <string.h>

#include "iv-units.h"

#define MAX_SYMBOLS 80

static guint
fill (const IvResult *r, guint kind, IvGlossaryEntry *e, guint max)
{
  const IvModel *m = r->model;
  const IvHardware *hw = r->hw;
  const IvConfig *c = &r->config;
  const IvKindResult *k = &r->kinds[MIN (kind, r->n_kinds - 1)];
  const IvShares *sh = &k->sh;
  guint n = 0;

#define ADD(sym, mean, unit, val)                                                                  \
  if (n < max)                                                                                     \
  e[n++] = (IvGlossaryEntry){ sym, mean, unit, (double) (val) }

  ADD ("B", "batch: sequences in the step", "–", c->B);
  ADD ("T", "new query tokens per sequence (T_q)", "tokens", c->T);
  ADD ("P", "tokens already cached before the step", "tokens", c->P);
  ADD ("L",
       "KV positions touched in the step: P + T, or with a window W min(P + T, T + W − 1) in "
       "prefill and min(P + T, W) in decode",
       "tokens", sh->L_eff);
  ADD ("t", "tensor-parallel size (TP)", iv_hardware_pe_word (hw, TRUE), c->t);
  ADD ("c", "context-parallel size (CP)", iv_hardware_pe_word (hw, TRUE), c->c);
  ADD ("e", "expert-parallel size (EP): replicas sharing the routed experts",
       iv_hardware_pe_word (hw, TRUE), c->e);
  ADD ("d", "hidden size", "–", m->d);
  ADD ("H", "query heads", "–", m->H);
  ADD ("Hkv", "KV heads", "–", m->Hkv);
  ADD ("dh", "head dimension (query/key)", "–", m->dh);
  ADD ("dv", "value head dimension", "–", sh->dv);
  ADD ("F", "FFN intermediate size", "–", m->F);
  ADD ("V", "vocabulary", "tokens", m->V);
  ADD ("H_l", "query heads per PE, ceil(H/t)", "–", sh->H_l);
  ADD ("Hkv_l", "KV heads per PE, ceil(Hkv/t), or 1 when t > Hkv", "–", sh->Hkv_l);
  ADD ("F_l", "FFN columns per PE, ceil(F/t)", "–", sh->F_l);
  ADD ("T_l", "query tokens per PE: ceil(T/c) in prefill, T in decode", "tokens", sh->T_l);
  ADD ("L_l", "KV positions per CP rank, ceil(L/c)", "tokens", sh->L_l);
  ADD ("N_pairs", "query–key pairs this PE evaluates", "pairs", sh->N_pairs);
  if (k->window > 0)
    ADD ("W", "sliding window of this layer kind", "tokens", k->window);
  if (m->attention == IV_ATTENTION_MLA)
    {
      ADD ("r_q", "MLA query latent rank (0: W_Q applied directly)", "–", m->r_q);
      ADD ("r_kv", "MLA key/value latent rank", "–", m->r_kv);
      ADD ("d_n", "MLA no-RoPE part of the query/key head", "–", m->d_n);
      ADD ("d_r", "MLA RoPE part of the query/key head", "–", m->d_r);
    }
  if (k->moe)
    {
      ADD ("E", "routed experts", "–", m->E);
      ADD ("k", "experts per token", "–", m->k);
      ADD ("F_e", "expert FFN size", "–", m->F_e);
      ADD ("E_s", "shared experts", "–", m->E_s);
      ADD ("F_s", "shared expert FFN size", "–", m->F_s);
      ADD ("ι",
           "EP load imbalance in effect: the busiest rank's tokens over the mean (1 "
           "without EP)",
           "–", sh->imb);
      ADD ("E_loc", "routed experts per EP rank, ceil(E/e)", "–", sh->E_loc);
      ADD ("F_act", "active FFN width per token on the busiest rank, ι·k·F_e + E_s·F_s", "–",
           sh->F_act);
      ADD ("E_touch",
           "own experts touched by the e replicas' tokens, E_loc·(1 − (1 − k/E)^(e·B·T_l))", "–",
           sh->E_touch);
      ADD ("F_w", "FFN width of weights read, E_touch·F_e + E_s·F_s", "–", sh->F_w);
    }
  ADD ("e_w", "bytes per weight", "B", c->e_w);
  ADD ("e_a", "bytes per activation", "B", c->e_a);
  ADD ("e_kv", "bytes per KV-cache element", "B", c->e_kv);
  ADD ("e_p", "bytes per partial accumulator", "B", c->e_p);
  ADD ("P_c", "matrix throughput per PE, BF16/FP16", "FLOP/s", hw->P_c);
  if (hw->P_fp8 > 0)
    ADD ("P_fp8", "matrix throughput per PE, FP8", "FLOP/s", hw->P_fp8);
  if (hw->P_int8 > 0)
    ADD ("P_int8", "matrix throughput per PE, INT8", "FLOP/s", hw->P_int8);
  if (hw->P_fp4 > 0)
    ADD ("P_fp4", "matrix throughput per PE, FP4", "FLOP/s", hw->P_fp4);
  ADD ("P_v", "vector throughput per PE", "FLOP/s", hw->P_v);
  ADD ("BW", "local memory bandwidth per PE", "B/s", hw->BW);
  ADD ("M_pe", "local memory per PE", "B", hw->M_pe);
  ADD ("B_pe", "PE-to-PE link bandwidth per direction", "B/s", hw->B_pe);
  ADD ("α_pe", "PE-to-PE step latency", "s", hw->a_pe);
  ADD ("B_cu", "cube-to-cube link bandwidth per direction", "B/s", hw->B_cu);
  ADD ("α_cu", "cube-to-cube step latency", "s", hw->a_cu);
  ADD ("η_c", "achieved fraction of peak FLOP/s", "–", hw->eta_c);
  ADD ("η_m", "achieved fraction of memory bandwidth", "–", hw->eta_m);
  ADD ("η_n", "achieved fraction of link bandwidth", "–", hw->eta_n);
  ADD ("n_pe", "PEs per cube", "–", hw->n_pe);
  ADD ("X", "cubes along X", "–", hw->X);
  ADD ("Y", "cubes along Y", "–", hw->Y);
#undef ADD
  return n;
}

guint
iv_glossary (const IvResult *r, guint kind, IvGlossaryEntry *out, guint max)
{
  g_return_val_if_fail (r && r->ok, 0);
  return fill (r, kind, out, max);
}

/* Formulas with symbols: FLOPs | bytes | comm. */
typedef struct
{
  const char *flops, *bytes, *comm;
} Formula;

static Formula
formula_for (const IvResult *r, const IvKindResult *k, IvStageId s)
{
  gboolean mla = r->model->attention == IV_ATTENTION_MLA;
  gboolean decode = r->config.mode == IV_MODE_DECODE;
  gboolean kv = r->config.ring == IV_RING_KV;
  gboolean direct_q = r->model->r_q == 0;

  switch (s)
    {
    case IV_S1:
    case IV_F1:
      return (Formula){ "4·B·T_l·d", "e_a·2·B·T_l·d + e_w·d", NULL };
    case IV_S2:
      if (mla && decode)
        return direct_q ? (Formula){ "2·B·T·(d·H_l·(d_n+d_r) + H_l·d_n·r_kv)",
                                     "e_w·(d·H_l·(d_n+d_r) + H_l·d_n·r_kv) + e_a·B·T_l·(d + "
                                     "H_l·(r_kv+d_r))",
                                     NULL }
                        : (Formula){ "2·B·T·(d·r_q + r_q·H_l·(d_n+d_r) + H_l·d_n·r_kv)",
                                     "e_w·(d·r_q + r_q·H_l·(d_n+d_r) + H_l·d_n·r_kv) + "
                                     "e_a·B·T_l·(d + H_l·(r_kv+d_r))",
                                     NULL };
      if (mla)
        return direct_q
                   ? (Formula){ "2·B·T_l·d·H_l·(d_n+d_r)",
                                "e_w·d·H_l·(d_n+d_r) + e_a·B·T_l·(d + H_l·(d_n+d_r))", NULL }
                   : (Formula){ "2·B·T_l·(d·r_q + r_q·H_l·(d_n+d_r))",
                                "e_w·(d·r_q + r_q·H_l·(d_n+d_r)) + e_a·B·T_l·(d + H_l·(d_n+d_r))",
                                NULL };
      return (Formula){ "2·B·T_l·d·H_l·dh", "e_w·d·H_l·dh + e_a·B·T_l·(d + H_l·dh)", NULL };
    case IV_S3:
      if (mla && decode)
        return (Formula){ "2·B·T·d·(r_kv+d_r)", "e_w·d·(r_kv+d_r) + e_a·B·T_l·(d + r_kv+d_r)",
                          NULL };
      if (mla)
        return (Formula){
          "2·B·T_l·d·(r_kv+d_r) + 2·B·T_l·r_kv·H_l·(d_n+dv)",
          "e_w·(d·(r_kv+d_r) + r_kv·H_l·(d_n+dv)) + e_a·B·T_l·(d + r_kv+d_r + H_l·(d_n+dv))", NULL
        };
      return (Formula){ "2·B·T_l·d·2·Hkv_l·dh", "e_w·2·d·Hkv_l·dh + e_a·B·T_l·(d + 2·Hkv_l·dh)",
                        NULL };
    case IV_S4:
      return mla ? (Formula){ "0", "e_kv·B·T_l·(r_kv+d_r)", NULL }
                 : (Formula){ "0", "e_kv·2·B·T_l·Hkv_l·dh", NULL };
    case IV_S5:
      if (mla && decode)
        return (Formula){ "2·H_l·(r_kv+d_r)·N_pairs",
                          "e_a·B·T_l·H_l·(r_kv+d_r) + e_kv·B·L_l·(r_kv+d_r)", NULL };
      if (mla)
        return (Formula){ "2·H_l·(d_n+d_r)·N_pairs",
                          "e_a·B·T_l·H_l·(d_n+d_r) + e_kv·B·L_l·(r_kv+d_r)", NULL };
      return (Formula){ "2·H_l·dh·N_pairs", "e_a·B·T_l·H_l·dh + e_kv·B·L_l·Hkv_l·dh", NULL };
    case IV_S6:
      return (Formula){ "5·H_l·N_pairs", "0", NULL };
    case IV_S7:
      if (mla)
        return (Formula){ decode ? "2·H_l·r_kv·N_pairs" : "2·H_l·dv·N_pairs", "0 (fused with S5)",
                          NULL };
      return (Formula){ "2·H_l·dv·N_pairs", "e_kv·B·L_l·Hkv_l·dv", NULL };
    case IV_S8:
      if (mla && decode)
        return (Formula){ "(c−1)·B·T_l·H_l·(3·r_kv + 8)", "c·B·T_l·H_l·(e_p·r_kv + 8) if c > 1",
                          "all-reduce of B·T·H_l·(e_p·r_kv + 8) over the CP group" };
      return (Formula){ "(c−1)·B·T_l·H_l·(3·dv + 8)", "c·B·T_l·H_l·(e_p·dv + 8) if c > 1",
                        decode ? "all-reduce of B·T·H_l·(e_p·dv + 8) over the CP group" : NULL };
    case IV_S9:
      if (mla && decode)
        return (Formula){ "B·T_l·H_l·r_kv", "e_a·B·T_l·H_l·r_kv", NULL };
      return (Formula){ "B·T_l·H_l·dv", "e_a·B·T_l·H_l·dv", NULL };
    case IV_S10:
      if (mla && decode)
        return (Formula){ "2·B·T·H_l·r_kv·dv + 2·B·T_l·H_l·dv·d",
                          "e_w·(H_l·r_kv·dv + H_l·dv·d) + e_a·B·T_l·(H_l·r_kv + d)", NULL };
      return (Formula){ "2·B·T_l·H_l·dv·d", "e_w·H_l·dv·d + e_a·B·T_l·(H_l·dv + d)", NULL };
    case IV_C1:
      return (Formula){ NULL, NULL,
                        kv ? (mla ? "(c−1) ring steps of e_kv·B·L_l·(r_kv+d_r)"
                                  : "(c−1) ring steps of e_kv·2·B·L_l·Hkv_l·dh")
                           : "c ring steps of e_a·B·T_l·H_l·dh + B·T_l·H_l·(e_p·dv + 8)" };
    case IV_C2:
      return (Formula){ NULL, NULL, "all-reduce of e_a·B·T_l·d over the TP group" };
    case IV_C3:
      return (Formula){ NULL, NULL,
                        "all-reduce of e_p·B·T_l·H_l·L_l over the ⌈t/H⌉ PEs sharing a head" };
    case IV_R:
      return (Formula){ "2·B·T_l·d·E", "e_w·d·E + e_a·B·T_l·(d + E)", NULL };
    case IV_A1:
      return (Formula){ NULL, NULL,
                        "all-to-all over the EP group, each sending "
                        "ι·e_a·B·T_l·d·(e − 1)·(1 − (1 − 1/e)^k)" };
    case IV_A2:
      return (Formula){ NULL, NULL,
                        "all-to-all back over the EP group, each sending "
                        "ι·e_a·B·T_l·d·(e − 1)·(1 − (1 − 1/e)^k)" };
    case IV_F2:
    case IV_F3:
      return k->moe
                 ? (Formula){ "2·B·T_l·d·F_act/t", "e_w·d·F_w/t + e_a·B·T_l·(d + F_act/t)", NULL }
                 : (Formula){ "2·B·T_l·d·F_l", "e_w·d·F_l + e_a·B·T_l·(d + F_l)", NULL };
    case IV_F4:
      return k->moe ? (Formula){ "5·B·T_l·F_act/t", "3·e_a·B·T_l·F_act/t", NULL }
                    : (Formula){ "5·B·T_l·F_l", "3·e_a·B·T_l·F_l", NULL };
    case IV_F5:
      return k->moe
                 ? (Formula){ "2·B·T_l·F_act/t·d", "e_w·F_w/t·d + e_a·B·T_l·(F_act/t + d)", NULL }
                 : (Formula){ "2·B·T_l·F_l·d", "e_w·F_l·d + e_a·B·T_l·(F_l + d)", NULL };
    case IV_CF1:
      return (Formula){ NULL, NULL, "all-reduce of e_a·B·T_l·d over the TP group" };
    case IV_N_STAGES:
    default:
      return (Formula){ NULL, NULL, NULL };
    }
}

/* Symbols are ASCII letters, digits and '_', plus Greek letters (α_pe, η_c: two-byte
 * UTF-8 sequences starting 0xCE); everything else is an operator or a number. */
static gboolean
symbol_char (const char *p, gboolean first)
{
  if ((guchar) p[0] == 0xce && p[1])
    return TRUE;
  return first ? g_ascii_isalpha (*p) : (g_ascii_isalnum (*p) || *p == '_');
}

/* The glossary a formula is written with: each symbol's length, and its value as text
 * once it has been needed (a formula names B, T_l or d several times). */
typedef struct
{
  IvGlossaryEntry entries[MAX_SYMBOLS];
  gsize len[MAX_SYMBOLS];
  char *text[MAX_SYMBOLS];
  guint n;
} Symbols;

/* Replaces every known symbol in @text by its value. */
static void
substitute (GString *out, const char *text, Symbols *sy)
{
  const char *p = text;

  while (*p)
    {
      if (symbol_char (p, TRUE))
        {
          const char *start = p;
          gboolean replaced = FALSE;
          while (*p && symbol_char (p, FALSE))
            p += (guchar) *p == 0xce ? 2 : 1;
          for (guint i = 0; i < sy->n; i++)
            if (sy->len[i] == (gsize) (p - start)
                && strncmp (sy->entries[i].symbol, start, p - start) == 0)
              {
                if (!sy->text[i])
                  sy->text[i] = iv_units_format_compact (sy->entries[i].value);
                g_string_append (out, sy->text[i]);
                replaced = TRUE;
                break;
              }
          if (!replaced)
            g_string_append_len (out, start, p - start);
        }
      else
        {
          const char *next = g_utf8_next_char (p);
          g_string_append_len (out, p, next - p);
          p = next;
        }
    }
}

char *
iv_stage_formula (const IvResult *r, guint kind, IvStageId stage, gboolean with_values)
{
  Symbols sy;
  Formula f;
  GString *s = g_string_new (NULL);
  const char *parts[3][2];

  g_return_val_if_fail (r && r->ok && kind < r->n_kinds, g_string_free (s, FALSE));
  f = formula_for (r, &r->kinds[kind], stage);
  sy.n = with_values ? fill (r, kind, sy.entries, MAX_SYMBOLS) : 0;
  for (guint i = 0; i < sy.n; i++)
    {
      sy.len[i] = strlen (sy.entries[i].symbol);
      sy.text[i] = NULL;
    }
  parts[0][0] = "FLOPs = ", parts[0][1] = f.flops;
  parts[1][0] = "bytes = ", parts[1][1] = f.bytes;
  parts[2][0] = "comm: ", parts[2][1] = f.comm;
  for (guint i = 0; i < 3; i++)
    {
      if (!parts[i][1])
        continue;
      if (s->len)
        g_string_append (s, "; ");
      g_string_append (s, parts[i][0]);
      if (with_values)
        substitute (s, parts[i][1], &sy);
      else
        g_string_append (s, parts[i][1]);
    }
  for (guint i = 0; i < sy.n; i++)
    g_free (sy.text[i]);
  return g_string_free (s, FALSE);
}

/* -------- time and communication, with numbers (§6) -------- */

static char *
seconds (double s)
{
  return s > 0 ? iv_units_format_seconds (s) : g_strdup ("0 s");
}

char *
iv_stage_time_formula (const IvResult *r, guint kind, IvStageId stage, gboolean with_values)
{
  const IvStage *st;
  const IvHardware *hw = r->hw;
  const char *peak_sym;
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (r && r->ok && kind < r->n_kinds && stage < IV_N_STAGES,
                        g_string_free (s, FALSE));
  st = &r->kinds[kind].stages[stage];
  if (!st->present)
    return g_string_free (s, FALSE);
  peak_sym = st->matrix ? iv_format_peak_symbol (hw, st->fmt) : "P_v";
  g_string_append_printf (s, "t = max(FLOPs/(η_c·%s), bytes/(η_m·BW), t_comm)", peak_sym);
  if (st->matrix)
    g_string_append_printf (s, " [%s]", iv_format_name (st->fmt));
  if (with_values)
    {
      g_autofree char *fl = iv_units_format_compact (st->flops);
      g_autofree char *by = iv_units_format_compact (st->bytes);
      g_autofree char *ec = iv_units_format_compact (hw->eta_c);
      g_autofree char *em = iv_units_format_compact (hw->eta_m);
      g_autofree char *p = iv_units_format_compact (st->matrix ? st->peak : hw->P_v);
      g_autofree char *bw = iv_units_format_compact (hw->BW);
      g_autofree char *tc = seconds (st->t_compute_s), *tm = seconds (st->t_memory_s);
      g_autofree char *tn = seconds (st->t_comm_s), *t = seconds (st->t_s);
      g_string_append_printf (s, " = max(%s/(%s·%s), %s/(%s·%s), %s) = max(%s, %s, %s) = %s", fl,
                              ec, p, by, em, bw, tn, tc, tm, tn, t);
      if (st->visible_s != st->t_s)
        {
          g_autofree char *v = seconds (st->visible_s);
          g_string_append_printf (s, "; visible %s", v);
        }
    }
  return g_string_free (s, FALSE);
}

char *
iv_stage_comm_formula (const IvResult *r, guint kind, IvStageId stage, gboolean with_values)
{
  const IvStage *st;
  const IvCollectiveCost *c;
  const IvCommGroup *g;
  GString *s;

  g_return_val_if_fail (r && r->ok && kind < r->n_kinds && stage < IV_N_STAGES, NULL);
  st = &r->kinds[kind].stages[stage];
  c = &st->comm;
  if (!st->present || c->algo == IV_ALGO_NONE || !(st->t_comm_s > 0))
    return NULL;
  g = stage == IV_C1 || stage == IV_S8   ? &r->cp_group
      : stage == IV_C3                   ? &r->c3_group
      : stage == IV_A1 || stage == IV_A2 ? &r->ep_group
                                         : &r->tp_group;
  s = g_string_new (NULL);
  {
    /* a CP ring stage is its steps of one ring step: S is one step's message */
    double steps = stage == IV_C1 && r->kinds[kind].sh.n_hops > 0 ? r->kinds[kind].sh.n_hops : 1;
    g_autofree char *na = iv_units_format_compact (c->n_alpha);
    g_autofree char *nb = iv_units_format_compact (c->n_beta);
    g_string_append_printf (s, "%s over %" G_GINT64_FORMAT " %s%s: t_comm = %s·α + %s·S/B′",
                            iv_coll_algo_name (c->algo), g->N,
                            g->on_pes                           ? "PEs"
                            : iv_hardware_is_gpu_server (r->hw) ? "GPUs"
                                                                : "cubes",
                            steps > 1 ? " (all its steps)" : "", na, nb);
    if (with_values)
      {
        g_autofree char *a = iv_units_format_seconds (c->alpha);
        g_autofree char *S = iv_units_format_si (c->bytes, "B");
        g_autofree char *B = iv_units_format_si (c->bw, "B/s");
        g_autofree char *t = iv_units_format_seconds (c->total_s);
        g_string_append_printf (s, " = %s·%s + %s·%s/(%s) = %s", na, a, nb, S, B, t);
      }
  }
  return g_string_free (s, FALSE);
}
