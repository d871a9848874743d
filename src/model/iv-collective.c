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
    case IV_EMBED_SINGLE:
    default:
      return "single";
    }
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
  if (topo == IV_TOPOLOGY_SWITCH)
    {
      /* §8: no embedding rule; one link per GPU into the switch, a ring of N steps */
      g->kind = IV_EMBED_SWITCH;
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
  g_snprintf (error, error_len,
              "cannot embed a group of %" G_GINT64_FORMAT " %s with stride %" G_GINT64_FORMAT
              " on %" G_GINT64_FORMAT "×%" G_GINT64_FORMAT,
              N, unit, s, X, Y);
  return FALSE;
}

IvCollectiveCost
iv_allreduce (const IvCommGroup *g, const IvHardware *hw, double S)
{
  IvCollectiveCost c = { 0, 0, 0 };

  if (g->kind == IV_EMBED_SINGLE || g->N <= 1 || S <= 0)
    return c;
  if (g->kind == IV_EMBED_SUBGRID)
    {
      /* Reduce-scatter along X, all-reduce along Y on S/Xg, all-gather along X. */
      double Bp = hw->eta_n * g->B, ap = g->alpha;
      double ex = g->wrap_x && hw->bidir ? 2 : 1, ey = g->wrap_y && hw->bidir ? 2 : 1;
      double Xg = g->Xg, Yg = g->Yg;
      c.latency_s = 2 * (Xg - 1) * ap + 2 * (Yg - 1) * ap;
      c.bandwidth_s = 2 * (Xg - 1) / Xg * S / (ex * Bp) + 2 * (Yg - 1) / Yg * (S / Xg) / (ey * Bp);
    }
  else
    {
      /* through a switch each GPU's one link per direction carries the ring: η_dir = 1 */
      double Bp = hw->eta_n * g->B / g->h, ap = g->h * g->alpha;
      double edir = g->wrap && hw->bidir && g->kind != IV_EMBED_SWITCH ? 2 : 1;
      double N = g->N;
      c.latency_s = 2 * (N - 1) * ap;
      c.bandwidth_s = 2 * (N - 1) / N * S / (edir * Bp);
    }
  c.total_s = c.latency_s + c.bandwidth_s;
  return c;
}

/* A ring embedded in a line that does not close zig-zags: every other step is two hops. */
gint64
iv_group_dilation (const IvCommGroup *g)
{
  if (g->kind == IV_EMBED_SUBGRID)
    return g->wrap_x || g->wrap_y || g->Xg % 2 == 0 || g->Yg % 2 == 0 ? 1 : 2;
  if (g->kind == IV_EMBED_SWITCH)
    return 1;
  return g->wrap || g->N == 2 ? 1 : 2;
}

IvCollectiveCost
iv_ring_step (const IvCommGroup *g, const IvHardware *hw, double S)
{
  IvCollectiveCost c = { 0, 0, 0 };
  double h = g->kind == IV_EMBED_SUBGRID ? 1 : g->h;

  if (g->kind == IV_EMBED_SINGLE || g->N <= 1)
    return c;
  c.latency_s = h * g->alpha * iv_group_dilation (g);
  c.bandwidth_s = S / (hw->eta_n * g->B / h);
  c.total_s = c.latency_s + c.bandwidth_s;
  return c;
}
