/* iv-collective.h: how a TP, CP or EP group is embedded in the PEs of a cube or the cubes
 * of a SIP, and what its collectives cost (α–β model, docs/model.md §3; GPU servers §8). */
#pragma once

#include "iv-hardware.h"

G_BEGIN_DECLS

typedef enum
{
  IV_EMBED_SINGLE, /* N = 1: nothing to communicate */
  IV_EMBED_LINE_X,
  IV_EMBED_LINE_Y,
  IV_EMBED_SUBGRID,
  IV_EMBED_SWITCH,    /* GPUs through a switch, one link each per direction */
  IV_EMBED_FULL_MESH, /* GPUs joined pairwise, one link per pair */
} IvEmbedKind;

typedef struct
{
  IvEmbedKind kind;
  gint64 N;      /* members */
  gint64 stride; /* s: distance of neighbours in the level's numbering */
  gint64 h;      /* hop distance between neighbours on a line */
  gint64 Xg, Yg; /* sub-grid sides */
  gboolean wrap; /* a line that closes into a ring */
  gboolean wrap_x, wrap_y;
  gboolean on_pes; /* inside a cube (PE links) or across cubes */
  double B, alpha; /* the level's link bandwidth per direction and step latency */
} IvCommGroup;

/* Which algorithm a cost is of (§3, §8): what the formulas on screen name. */
typedef enum
{
  IV_ALGO_NONE,
  IV_ALGO_RING,          /* ring (or line) all-reduce */
  IV_ALGO_GRID,          /* dimension-ordered all-reduce on a sub-grid */
  IV_ALGO_ONE_SHOT,      /* GPU server: every GPU reads every other's buffer */
  IV_ALGO_TWO_SHOT,      /* GPU server: direct reduce-scatter, then direct all-gather */
  IV_ALGO_SWITCH_REDUCE, /* GPU server: the switch reduces (NVLink SHARP) */
  IV_ALGO_RING_STEP,     /* one CP ring step, point to point */
  IV_ALGO_ALL_TO_ALL,    /* EP dispatch or combine */
} IvCollAlgo;

/* total = latency + bandwidth, with latency = n_alpha·alpha and bandwidth =
 * n_beta·bytes/bw: the form the Details page prints with numbers. */
typedef struct
{
  double total_s;
  double latency_s;   /* the α terms */
  double bandwidth_s; /* the β terms */
  IvCollAlgo algo;
  double n_alpha, n_beta; /* latency steps; bandwidth factor */
  double alpha, bw;       /* α' and B' of the group */
  double bytes;           /* S */
} IvCollectiveCost;

/* FALSE with a sentence in @error (unless NULL) when the group cannot be embedded. */
gboolean iv_group_embed (IvCommGroup *group, gint64 N, gint64 stride, gboolean on_pes,
                         const IvHardware *hw, char *error, gsize error_len);
IvCollectiveCost iv_allreduce (const IvCommGroup *group, const IvHardware *hw, double bytes);
IvCollectiveCost iv_ring_step (const IvCommGroup *group, const IvHardware *hw, double bytes);
/* @bytes: what each member sends in all, an equal share to each of the others. */
IvCollectiveCost iv_alltoall (const IvCommGroup *group, const IvHardware *hw, double bytes);
/* @cost repeated @times (a CP ring's steps): every term multiplied. */
IvCollectiveCost iv_collective_times (IvCollectiveCost cost, double times);
gint64 iv_group_dilation (const IvCommGroup *group);
const char *iv_embed_kind_to_string (IvEmbedKind kind);
/* "two-shot all-reduce", "ring step", … */
const char *iv_coll_algo_name (IvCollAlgo algo);

G_END_DECLS
