/* iv-model.h: the analytical model of one transformer step on a SIP
 * (docs/model.md): per-stage FLOPs, bytes, communication and
 * time per PE and layer, with totals, memory, waste and hints. */
#pragma once

#include "iv-collective.h"
#include "iv-format.h"
#include "iv-hardware.h"
#include "iv-preset.h"

G_BEGIN_DECLS

typedef enum
{
  IV_MODE_PREFILL,
  IV_MODE_DECODE
} IvMode;
typedef enum
{
  IV_PLACE_PE,
  IV_PLACE_CUBE
} IvPlace;
typedef enum
{
  IV_RING_KV,
  IV_RING_QOML
} IvRing;

typedef struct
{
  IvMode mode;
  gint64 B;    /* sequences */
  gint64 T;    /* new query tokens per sequence */
  gint64 P;    /* tokens already cached before the step */
  gint64 t, c; /* TP and CP sizes */
  IvPlace place_tp, place_cp;
  IvRing ring;
  double e_w, e_a, e_kv, e_p; /* bytes per element */
  IvFormat f_w, f_a, f_kv;    /* number formats (§2.3): the peaks; the bytes above */
  gint64 e;                   /* EP size (§4.4); 1 without EP */
  IvPlace place_ep;
  double imbalance; /* ι ≥ 1: the busiest EP rank's tokens over the mean */
  gboolean overlap; /* the TP all-reduce runs under the next GEMM (§4) */
  double reserve;   /* r_m: share of each PE's memory kept for the runtime (§5) */
} IvConfig;

typedef enum
{
  IV_S1,
  IV_S2,
  IV_S3,
  IV_S4,
  IV_S5,
  IV_S6,
  IV_S7,
  IV_S8,
  IV_S9,
  IV_S10,
  IV_C1,
  IV_C2,
  IV_C3,
  IV_F1,
  IV_R,
  IV_A1, /* EP dispatch (§4.4) */
  IV_F2,
  IV_F3,
  IV_F4,
  IV_F5,
  IV_A2, /* EP combine */
  IV_CF1,
  IV_N_STAGES
} IvStageId;

typedef enum
{
  IV_BOUND_COMPUTE,
  IV_BOUND_MEMORY,
  IV_BOUND_COMM,
  IV_BOUND_TRIVIAL,
} IvBound;

typedef struct
{
  gboolean present;
  gboolean matrix; /* computes at the peak of its format (else P_v) */
  IvFormat fmt;    /* a matrix stage's compute format (§2.3) */
  double peak;     /* FLOP/s it computes at, before η_c */
  double flops, bytes, comm_bytes;
  double t_compute_s, t_memory_s, t_comm_s, t_s, visible_s;
  double comm_latency_s, comm_bandwidth_s;
  IvCollectiveCost comm; /* the collective's cost in full (§3, §8): what Details prints */
  IvBound bound;
} IvStage;

/* The per-PE shares of one layer kind: the symbols its formulas use. */
typedef struct
{
  double H_l, Hkv_l, F_l, T_l, L, L_eff, L_l, N_pairs, dv;
  double d_o;                 /* per head out of the attention core: dv, r_kv in MLA decode */
  double F_act, F_w, E_touch; /* MoE */
  double E_loc, imb;          /* routed experts per EP rank; ι' (ι with EP, else 1) */
  double n_hops;              /* C1: ring steps */
} IvShares;

typedef struct
{
  char name[16]; /* "dense", "moe", "local", "global", "sliding" */
  gint64 layers;
  gboolean moe;
  gint64 window; /* 0: attends to everything */
  IvShares sh;
  IvStage stages[IV_N_STAGES];
  double attention_s, ffn_s, layer_s;
} IvKindResult;

typedef enum
{
  IV_FIELD_NONE,
  IV_FIELD_BATCH,
  IV_FIELD_TQ,
  IV_FIELD_CONTEXT,
  IV_FIELD_TP,
  IV_FIELD_CP,
  IV_FIELD_TP_PLACE,
  IV_FIELD_CP_PLACE,
  IV_FIELD_DTYPE,
  IV_FIELD_EP,
  IV_FIELD_EP_PLACE,
  IV_FIELD_IMBALANCE,
  IV_FIELD_RESERVE,
  IV_FIELD_FORMAT,
} IvConfigField;

typedef struct
{
  const char *id;
  double bytes;
  double percent;
  char text[200];
} IvWaste;

typedef struct
{
  const char *id;
  char text[300];
} IvHint;

#define IV_MAX_KINDS 3
#define IV_MAX_WASTE 10
#define IV_MAX_HINTS 10

typedef struct
{
  gboolean ok;
  char error[256];
  IvConfigField error_field;

  const IvModel *model; /* borrowed: keep alive while the result is used */
  const IvHardware *hw;
  IvConfig config;

  IvCommGroup tp_group, cp_group, c3_group, ep_group;
  IvKindResult kinds[IV_MAX_KINDS];
  guint n_kinds;
  IvStage lm_head;
  double step_s, tokens_per_s; /* tokens/s of all e replicas */
  gint64 pes;                  /* the step's PEs (GPUs): t·c·e */

  double weights_bytes_per_pe, kv_bytes_per_pe, act_bytes_per_pe, capacity_bytes_per_pe;
  double usable_bytes_per_pe; /* (1 − reserve)·capacity: what fits is checked against */
  gboolean fits;
  gint64 batch_max; /* the largest B that fits, the rest kept (§5); 0: not even B = 1 */
  gint64 used_pes_per_cube, used_cubes, idle_pes, idle_cubes;

  /* Whether waste and hints below were made: iv_model_evaluate () makes them, a plain
   * evaluation does not (then both counts are 0 and say nothing) until
   * iv_result_ensure_hints (). */
  gboolean has_hints;
  IvWaste waste[IV_MAX_WASTE];
  guint n_waste;
  IvHint hints[IV_MAX_HINTS];
  guint n_hints;
} IvResult;

void iv_config_init (IvConfig *config);
gboolean iv_model_evaluate (const IvModel *model, const IvHardware *hw, const IvConfig *config,
                            IvResult *result);
/* Whether a stage belongs in views of this kind: present, and for exchanges (C1, C2, C3,
 * CF1) only when they cost something. */
gboolean iv_stage_shown (const IvKindResult *kind, IvStageId stage);
const char *iv_stage_id (IvStageId stage);
const char *iv_stage_name (IvStageId stage);
const char *iv_bound_to_string (IvBound bound);
const char *iv_mode_to_string (IvMode mode);
const char *iv_place_to_string (IvPlace place);
const char *iv_ring_to_string (IvRing ring);
/* Sets @format and the bytes that go with it (weights, activations or KV cache). */
void iv_config_set_weight_format (IvConfig *config, IvFormat format);
void iv_config_set_act_format (IvConfig *config, IvFormat format);
void iv_config_set_kv_format (IvConfig *config, IvFormat format);
/* The step's time by the groups a profiler trace's kernels fall into (iv-trace-query.h:
 * 0 GEMM — S2, S3, S10, router, F2, F3, F5, the LM head; 1 attention — S5–S9;
 * 2 collectives — C1, C2, C3, CF1; 3 the rest — norms, KV append, activation), summed
 * over the layers of every kind: seconds per step, visible time. */
void iv_result_class_times (const IvResult *result, double seconds[4]);
/* "decode · B=1 T_q=1 P=4096 · TP=4 (pe) CP=2 (cube, kv ring)": the step evaluated. */
char *iv_result_config_text (const IvResult *result);

/* iv-model-csv.c: every present stage of every kind, one CSV row each, with a header. */
char *iv_result_to_csv (const IvResult *result);

/* Memory only (weights + KV + activations per PE), for searching configurations. */
double iv_model_memory_per_pe (const IvModel *model, const IvConfig *config, double *weights,
                               double *kv);
/* What a PE may hold for @config on @hw: (1 − reserve)·M_pe. */
double iv_config_usable_bytes (const IvConfig *config, const IvHardware *hw);

/* iv-hints.c */
void _iv_model_waste_and_hints (IvResult *result);
/* The waste and hints of a result evaluated without them (iv_model_evaluate_plain), made
 * now, once: they search other configurations, so a view that evaluates at every slider
 * step makes them only while it shows them. Nothing for a refused result or one that has
 * them. */
void iv_result_ensure_hints (IvResult *result);
/* Evaluations of the step a sweep makes (iv-serving.c, the sweep figure): without the
 * waste and hints, which search other configurations. */
gboolean iv_model_evaluate_plain (const IvModel *model, const IvHardware *hw,
                                  const IvConfig *config, IvResult *result);
/* iv_model_evaluate () without the waste and hints. */
gboolean _iv_model_evaluate_plain (const IvModel *model, const IvHardware *hw,
                                   const IvConfig *config, IvResult *result);
/* Whether @config passes iv_model_evaluate ()'s checks and placement, without a sentence
 * for a refusal: what the hints' search asks of each candidate. */
gboolean _iv_model_placeable (const IvModel *model, const IvHardware *hw, const IvConfig *config);
/* The largest TP (@vary_tp) or CP, the others kept, whose groups' count at one level or the
 * other (PEs, cubes) is within what it holds: every larger size is refused placement. */
gint64 _iv_model_largest_placeable (const IvConfig *config, const IvHardware *hw, gboolean vary_tp);
/* The CP ring stage (C1) of kind @kind under @ring, evaluated: what the hints compare. */
void _iv_model_ring_stage (const IvResult *result, const IvKindResult *kind, IvRing ring,
                           IvStage *out);

G_END_DECLS
