/* iv-serving.h: the serving curve (docs/model.md §10) — for a model on a hardware
 * description, every TP, EP and batch a deployment could choose, with its TTFT, ITL,
 * per-user and per-GPU throughput and whether it fits; the bound frontiers; and a
 * measured sweep's points set against them. */
#pragma once

#include "iv-model.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 t, e, B; /* TP, EP, batch per replica */
  double ttft_s, itl_s, latency_s;
  double per_user;     /* tokens/s a user sees: 1 / ITL */
  double per_gpu;      /* output tokens/s per GPU (PE) */
  double memory_bytes; /* per PE at the peak context */
  gboolean fits;       /* within the usable memory (§5) */
  gboolean front_user; /* on the frontier of per-GPU against per-user throughput */
  gboolean front_ttft; /* on the frontier of per-GPU throughput against TTFT */
} IvServingPoint;

typedef struct
{
  const IvModel *model; /* borrowed */
  const IvHardware *hw; /* borrowed */
  IvConfig base;        /* formats, placements, overlap, imbalance, reserve */
  double isl, osl;
  GArray *points; /* IvServingPoint, by TP, then EP, then B */
  guint n_fit;    /* points that fit */
} IvServingCurve;

/* A measured run on the same axes (§10). */
typedef struct
{
  char *label;
  double per_user, per_gpu, ttft_s;
  gboolean front_user, front_ttft; /* on the measured frontiers */
  double efficiency;               /* per-GPU over the bound's at its per-user, or NaN */
} IvServingMeasured;

/* NULL with @error when @isl or @osl is out of range or no configuration places. */
IvServingCurve *iv_serving_compute (const IvModel *model, const IvHardware *hw,
                                    const IvConfig *base, double isl, double osl, GError **error);
void iv_serving_free (IvServingCurve *curve);
/* The bound frontier's per-GPU throughput at @per_user (log–log interpolation between
 * its points); NaN past the fastest point the bound allows. */
double iv_serving_bound_at (const IvServingCurve *curve, double per_user);
/* Marks the Pareto frontiers of @points (n) on both panels and sets each one's efficiency
 * against @curve. */
void iv_serving_mark_measured (const IvServingCurve *curve, IvServingMeasured *points, guint n);
/* Which of @n points are on the frontier of higher @y against higher (@x_higher) or lower @x,
 * among those @eligible marks (NULL: all); into @front. */
void iv_pareto (const double *x, const double *y, const gboolean *eligible, guint n,
                gboolean x_higher, gboolean *front);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvServingCurve, iv_serving_free)

G_END_DECLS
