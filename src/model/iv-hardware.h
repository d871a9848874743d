/* iv-hardware.h: a SIP (system in package): a grid of cubes of PEs and its links. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  IV_TOPOLOGY_RING,
  IV_TOPOLOGY_MESH2D,
  IV_TOPOLOGY_TORUS2D,
  IV_TOPOLOGY_SWITCH,          /* GPUs on a non-blocking switch (§8) */
  IV_TOPOLOGY_FULLY_CONNECTED, /* GPUs joined pairwise, one link per pair (§8) */
} IvTopology;

typedef struct
{
  char *name;
  char *description;
  gint64 X, Y; /* cube grid; a ring has Y = 1 */
  IvTopology topology;
  gint64 n_pe;                 /* PEs per cube */
  double P_c, P_v;             /* FLOP/s per PE: matrix (BF16), vector */
  double P_fp8, P_int8, P_fp4; /* matrix FLOP/s per format; 0: no unit of its own (§2.3) */
  double BW;                   /* local memory bandwidth per PE, B/s */
  double M_pe;                 /* local memory per PE, B */
  double B_pe, a_pe;           /* PE-to-PE link: B/s per direction, s per step */
  double B_cu, a_cu;           /* cube-to-cube link */
  gboolean bidir;
  gboolean switch_reduce; /* the switch reduces in the network (NVLink SHARP, §8) */
  double eta_c, eta_m, eta_n;
} IvHardware;

IvHardware *iv_hardware_copy (const IvHardware *hw);
void iv_hardware_free (IvHardware *hw);
gboolean iv_hardware_validate (const IvHardware *hw, const char *source, GError **error);
IvHardware *iv_hardware_from_json (const char *json, const char *source, GError **error);
IvHardware *iv_hardware_from_node (JsonNode *root, const char *source, GError **error);
JsonNode *iv_hardware_to_node (const IvHardware *hw);
IvHardware *iv_hardware_load (const char *path, GError **error);
char *iv_hardware_to_json (const IvHardware *hw);
gboolean iv_hardware_save (const IvHardware *hw, const char *path, GError **error);
const char *iv_topology_to_string (IvTopology topology);
/* One PE per cube on a switch or a fully connected fabric: a GPU server (§8), described
 * as GPUs and links, in the datasheet's decimal units. */
gboolean iv_hardware_is_gpu_server (const IvHardware *hw);
/* "GPU" on a GPU server, else "PE"; and its plural. */
const char *iv_hardware_pe_word (const IvHardware *hw, gboolean plural);
/* Bytes as the hardware's vendor writes them: decimal (80 GB) on a GPU server, binary
 * (4 GiB) on a SIP. */
char *iv_hardware_format_bytes (const IvHardware *hw, double bytes);
gboolean iv_topology_from_string (const char *name, IvTopology *topology);

GPtrArray *iv_hardware_presets (void);
const IvHardware *iv_hardware_find (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvHardware, iv_hardware_free)

G_END_DECLS
