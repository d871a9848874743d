/* iv-collective.c: docs/model.md §2.2 (embedding) and §3 (collective costs).
 * A group of N members whose neighbours are s apart in row-major numbering becomes a
 * line along X, a line along Y or a sub-grid; interleaved groups share links, which the
 * hop distance h turns into a per-group bandwidth B/h and a step latency h·α. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-collective.h"

#include <math.h>

const char *
iv_embed_kind_to_string (IvEmbedKind kind)
{
  switch (kind)
    {
    case IV_EMBED_LINE_X:
      return "line-x";
    case IV_EMBED_LINE_Y:
      return "line-y";
    case IV_EMBED_SUBGRID:
      return "subgrid";
    case IV_EMBED_SWITCH:
      return "switch";
    case IV_EMBED_FULL_MESH:
      return "fully-connected";
    case IV_EMBED_SINGLE:
    default:
      return "single";
    }
}

const char *
iv_coll_algo_name (IvCollAlgo algo)
{
  static const char *const names[] = {
    [IV_ALGO_NONE] = "none",
    [IV_ALGO_RING] = "ring all-reduce",
    [IV_ALGO_GRID] = "dimension-ordered all-reduce",
    [IV_ALGO_ONE_SHOT] = "one-shot all-reduce",
    [IV_ALGO_TWO_SHOT] = "two-shot all-reduce",
    [IV_ALGO_SWITCH_REDUCE] = "all-reduce in the switch",
    [IV_ALGO_RING_STEP] = "ring step",
    [IV_ALGO_ALL_TO_ALL] = "all-to-all",
  };
  return algo <= IV_ALGO_ALL_TO_ALL ? names[algo] : "?";
}

gboolean
iv_group_embed (IvCommGroup *g, gint64 N, gint64 s, gboolean on_pes, const IvHardware *hw,
                char *error, gsize error_len)
{
  gint64 X = on_pes ? hw->n_pe : hw->X;
  gint64 Y = on_pes ? 1 : hw->Y;
  IvTopology topo = on_pes ? IV_TOPOLOGY_RING : hw->topology;
  const char *unit = on_pes ? "PEs" : "cubes";

  *g = (IvCommGroup){ IV_EMBED_SINGLE,
                      N,
                      s,
                      1,
                      1,
                      1,
                      FALSE,
                      FALSE,
                      FALSE,
                      on_pes,
                      on_pes ? hw->B_pe : hw->B_cu,
                      on_pes ? hw->a_pe : hw->a_cu };
  if (N <= 1)
    return TRUE;
  if (topo == IV_TOPOLOGY_SWITCH || topo == IV_TOPOLOGY_FULLY_CONNECTED)
    {
      /* §8: no embedding rule; any set of GPUs, through the switch or pairwise links */
      g->kind = topo == IV_TOPOLOGY_SWITCH ? IV_EMBED_SWITCH : IV_EMBED_FULL_MESH;
      g->wrap = TRUE;
      return TRUE;
    }
  if (s * N <= X)
    {
      g->kind = IV_EMBED_LINE_X;
      g->h = s;
      g->wrap = (topo == IV_TOPOLOGY_RING || topo == IV_TOPOLOGY_TORUS2D) && s * N == X;
      return TRUE;
    }
  if (s % X == 0 && (s / X) * N <= Y)
    {
      g->kind = IV_EMBED_LINE_Y;
      g->h = s / X;
      g->wrap = topo == IV_TOPOLOGY_TORUS2D && g->h * N == Y;
      return TRUE;
    }
  if (s == 1 && N % X == 0 && N / X <= Y)
    {
      g->kind = IV_EMBED_SUBGRID;
      g->Xg = X;
      g->Yg = N / X;
      g->wrap_x = topo == IV_TOPOLOGY_TORUS2D;
      g->wrap_y = topo == IV_TOPOLOGY_TORUS2D && N / X == Y;
      return TRUE;
    }
  if (error)
    g_snprintf (error, error_len,
                "cannot embed a group of %" G_GINT64_FORMAT " %s with stride %" G_GINT64_FORMAT
                " on %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT,
                N, unit, s, X, Y);
  return FALSE;
}

/* A cost of the form n_alpha·alpha + n_beta·S/bw. */
static IvCollectiveCost
cost (IvCollAlgo algo, double n_alpha, double alpha, double n_beta, double S, double bw)
{
  IvCollectiveCost c = { 0 };
  c.algo = algo;
  c.n_alpha = n_alpha, c.alpha = alpha;
  c.n_beta = n_beta, c.bytes = S, c.bw = bw;
  c.latency_s = n_alpha * alpha;
  c.bandwidth_s = n_beta * S / bw;
  c.total_s = c.latency_s + c.bandwidth_s;
  return c;
}

IvCollectiveCost
iv_collective_times (IvCollectiveCost c, double times)
{
  c.n_alpha *= times, c.n_beta *= times;
  c.latency_s *= times, c.bandwidth_s *= times, c.total_s *= times;
  return c;
}

static gboolean
gpu_fabric (const IvCommGroup *g)
{
  return g->kind == IV_EMBED_SWITCH || g->kind == IV_EMBED_FULL_MESH;
}

/* §8: the cheapest all-reduce the fabric runs, as a library picks by message size; on a
 * tie the first of the table. */
static IvCollectiveCost
gpu_allreduce (const IvCommGroup *g, const IvHardware *hw, double S)
{
  double N = g->N, a = g->alpha, Bp = hw->eta_n * g->B;
  gboolean mesh = g->kind == IV_EMBED_FULL_MESH;
  IvCollectiveCost c[4];
  int n = 0, best = 0;

  c[n++] = cost (IV_ALGO_RING, 2 * (N - 1), a, 2 * (N - 1) / N, S, Bp);
  c[n++] = cost (IV_ALGO_ONE_SHOT, 1, a, mesh ? 1 : N - 1, S, Bp);
  c[n++] = cost (IV_ALGO_TWO_SHOT, 2, a, mesh ? 2 / N : 2 * (N - 1) / N, S, Bp);
  if (!mesh && hw->switch_reduce)
    c[n++] = cost (IV_ALGO_SWITCH_REDUCE, 2, a, 1, S, Bp);
  for (int i = 1; i < n; i++)
    if (c[i].total_s < c[best].total_s)
      best = i;
  return c[best];
}

IvCollectiveCost
iv_allreduce (const IvCommGroup *g, const IvHardware *hw, double S)
{
  IvCollectiveCost c = { 0 };

  if (g->kind == IV_EMBED_SINGLE || g->N <= 1 || S <= 0)
    return c;
  if (gpu_fabric (g))
    return gpu_allreduce (g, hw, S);
  if (g->kind == IV_EMBED_SUBGRID)
    {
      /* Reduce-scatter along X, all-reduce along Y on S/Xg, all-gather along X. */
      double Bp = hw->eta_n * g->B, ap = g->alpha;
      double ex = g->wrap_x && hw->bidir ? 2 : 1, ey = g->wrap_y && hw->bidir ? 2 : 1;
      double Xg = g->Xg, Yg = g->Yg;
      return cost (IV_ALGO_GRID, 2 * (Xg - 1) + 2 * (Yg - 1), ap,
                   2 * (Xg - 1) / Xg / ex + 2 * (Yg - 1) / Yg / Xg / ey, S, Bp);
    }
  {
    double Bp = hw->eta_n * g->B / g->h, ap = g->h * g->alpha;
    double edir = g->wrap && hw->bidir ? 2 : 1;
    double N = g->N;
    return cost (IV_ALGO_RING, 2 * (N - 1), ap, 2 * (N - 1) / N / edir, S, Bp);
  }
}

/* A ring embedded in a line that does not close zig-zags: every other step is two hops. */
gint64
iv_group_dilation (const IvCommGroup *g)
{
  if (g->kind == IV_EMBED_SUBGRID)
    return g->wrap_x || g->wrap_y || g->Xg % 2 == 0 || g->Yg % 2 == 0 ? 1 : 2;
  if (gpu_fabric (g))
    return 1;
  return g->wrap || g->N == 2 ? 1 : 2;
}

IvCollectiveCost
iv_ring_step (const IvCommGroup *g, const IvHardware *hw, double S)
{
  IvCollectiveCost c = { 0 };
  double h = g->kind == IV_EMBED_SUBGRID || gpu_fabric (g) ? 1 : g->h;

  if (g->kind == IV_EMBED_SINGLE || g->N <= 1)
    return c;
  return cost (IV_ALGO_RING_STEP, iv_group_dilation (g), h * g->alpha, 1, S, hw->eta_n * g->B / h);
}

/* §3: the busiest link's share of the bytes a member sends, on a line or ring of n. */
static double
alltoall_load (gint64 n, gboolean wrap, gboolean bidir)
{
  double lambda;

  if (n <= 1)
    return 0;
  if (wrap)
    {
      double sum = 0;
      for (gint64 j = 1; j < n; j++)
        sum += (double) MIN (j, n - j);
      lambda = sum / (2.0 * (n - 1));
    }
  else
    lambda = (double) (n / 2) * (double) ((n + 1) / 2) / (double) (n - 1);
  return bidir ? lambda : 2 * lambda;
}

IvCollectiveCost
iv_alltoall (const IvCommGroup *g, const IvHardware *hw, double S)
{
  IvCollectiveCost c = { 0 };
  double N = g->N;

  if (g->kind == IV_EMBED_SINGLE || g->N <= 1 || S <= 0)
    return c;
  if (gpu_fabric (g))
    /* §8: through the switch a GPU's one link carries all it sends; fully connected,
     * each peer's share has a link of its own */
    return cost (IV_ALGO_ALL_TO_ALL, 1, g->alpha, g->kind == IV_EMBED_SWITCH ? 1 : 1 / (N - 1), S,
                 hw->eta_n * g->B);
  if (g->kind == IV_EMBED_SUBGRID)
    {
      /* dimension order: along X the pieces for other columns, then along Y the pieces
       * for other rows */
      double Xg = g->Xg, Yg = g->Yg;
      double sx = Yg * (Xg - 1) / (N - 1), sy = Xg * (Yg - 1) / (N - 1);
      double lx = alltoall_load (g->Xg, g->wrap_x, hw->bidir);
      double ly = alltoall_load (g->Yg, g->wrap_y, hw->bidir);
      return cost (IV_ALGO_ALL_TO_ALL, (Xg - 1) + (Yg - 1), g->alpha, lx * sx + ly * sy, S,
                   hw->eta_n * g->B);
    }
  return cost (IV_ALGO_ALL_TO_ALL, N - 1, g->h * g->alpha, alltoall_load (g->N, g->wrap, hw->bidir),
               S, hw->eta_n * g->B / g->h);
}
