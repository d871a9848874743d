/* iv-collective.h: how a TP or CP group is embedded in the PEs of a cube or the cubes of
 * a SIP, and what its collectives cost (α–β model). */
#pragma once

#include "iv-hardware.h"

G_BEGIN_DECLS

typedef enum
{
  IV_EMBED_SINGLE, /* N = 1: nothing to communicate */
  IV_EMBED_LINE_X,
  IV_EMBED_LINE_Y,
  IV_EMBED_SUBGRID,
  IV_EMBED_SWITCH, /* any cubes of a switched server: a ring through the switch */
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

typedef struct
{
  double total_s;
  double latency_s;   /* the α terms */
  double bandwidth_s; /* the β terms */
} IvCollectiveCost;

/* FALSE with a sentence in @error when the group cannot be embedded. */
gboolean iv_group_embed (IvCommGroup *group, gint64 N, gint64 stride, gboolean on_pes,
                         const IvHardware *hw, char *error, gsize error_len);
IvCollectiveCost iv_allreduce (const IvCommGroup *group, const IvHardware *hw, double bytes);
IvCollectiveCost iv_ring_step (const IvCommGroup *group, const IvHardware *hw, double bytes);
gint64 iv_group_dilation (const IvCommGroup *group);
const char *iv_embed_kind_to_string (IvEmbedKind kind);

G_END_DECLS
