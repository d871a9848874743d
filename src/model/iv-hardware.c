/* iv-hardware.c: hardware descriptions as JSON. Every field is validated (positive,
 * finite, whole where it counts things) and an error names the field, so a typo in a
 * hand-edited file is found at once rather than as a strange latency. */
#define G_LOG_DOMAIN "iv-model"

#include "iv-hardware.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "iv-atomic-file.h"
#include "iv-json-doc.h"
#include "iv-json-writer.h"
#include "iv-units.h"

IvHardware *
iv_hardware_copy (const IvHardware *hw)
{
  IvHardware *c = g_memdup2 (hw, sizeof *hw);
  c->name = g_strdup (hw->name);
  c->description = g_strdup (hw->description);
  return c;
}

void
iv_hardware_free (IvHardware *hw)
{
  if (!hw)
    return;
  g_free (hw->name);
  g_free (hw->description);
  g_free (hw);
}

const char *
iv_topology_to_string (IvTopology t)
{
  return t == IV_TOPOLOGY_MESH2D            ? "mesh2d"
         : t == IV_TOPOLOGY_TORUS2D         ? "torus2d"
         : t == IV_TOPOLOGY_SWITCH          ? "switch"
         : t == IV_TOPOLOGY_FULLY_CONNECTED ? "fully_connected"
                                            : "ring";
}

gboolean
iv_hardware_is_gpu_server (const IvHardware *hw)
{
  return hw->n_pe == 1
         && (hw->topology == IV_TOPOLOGY_SWITCH || hw->topology == IV_TOPOLOGY_FULLY_CONNECTED);
}

const char *
iv_hardware_pe_word (const IvHardware *hw, gboolean plural)
{
  if (iv_hardware_is_gpu_server (hw))
    return plural ? "GPUs" : "GPU";
  return plural ? "PEs" : "PE";
}

char *
iv_hardware_format_bytes (const IvHardware *hw, double bytes)
{
  return iv_hardware_is_gpu_server (hw) ? iv_units_format_si (bytes, "B")
                                        : iv_units_format_bytes (bytes);
}

gboolean
iv_topology_from_string (const char *name, IvTopology *t)
{
  if (g_strcmp0 (name, "ring") == 0)
    *t = IV_TOPOLOGY_RING;
  else if (g_strcmp0 (name, "mesh2d") == 0 || g_strcmp0 (name, "mesh") == 0)
    *t = IV_TOPOLOGY_MESH2D;
  else if (g_strcmp0 (name, "torus2d") == 0 || g_strcmp0 (name, "torus") == 0)
    *t = IV_TOPOLOGY_TORUS2D;
  else if (g_strcmp0 (name, "switch") == 0)
    *t = IV_TOPOLOGY_SWITCH;
  else if (g_strcmp0 (name, "fully_connected") == 0 || g_strcmp0 (name, "fully-connected") == 0)
    *t = IV_TOPOLOGY_FULLY_CONNECTED;
  else
    return FALSE;
  return TRUE;
}

/* Far above any SIP worth modelling, far below where cube and PE counts multiplied
 * together (ranks, links, bytes) could overflow. */
#define MAX_CUBES_PER_SIDE 4096
#define MAX_PES_PER_CUBE 65536

/* The JSON keys, in the order files are written. */
typedef struct
{
  const char *key;
  gsize offset;
  gboolean integral;
  gboolean fraction; /* an efficiency: 0 < x ≤ 1 */
  gboolean may_be_zero;
  gboolean optional; /* absent: 0, and left out when written as 0 */
} Field;

#define F(key, member, integral, fraction, zero)                                                   \
  {                                                                                                \
    key, G_STRUCT_OFFSET (IvHardware, member), integral, fraction, zero, FALSE                     \
  }
#define OPTIONAL(key, member)                                                                      \
  {                                                                                                \
    key, G_STRUCT_OFFSET (IvHardware, member), FALSE, FALSE, TRUE, TRUE                            \
  }

static const Field fields[] = {
  F ("pes_per_cube", n_pe, TRUE, FALSE, FALSE),
  F ("pe_flops", P_c, FALSE, FALSE, FALSE),
  F ("pe_vector_flops", P_v, FALSE, FALSE, FALSE),
  F ("pe_mem_bw", BW, FALSE, FALSE, FALSE),
  F ("pe_mem_capacity", M_pe, FALSE, FALSE, FALSE),
  F ("pe_link_bw", B_pe, FALSE, FALSE, FALSE),
  F ("pe_link_latency", a_pe, FALSE, FALSE, TRUE),
  F ("cube_link_bw", B_cu, FALSE, FALSE, FALSE),
  F ("cube_link_latency", a_cu, FALSE, FALSE, TRUE),
  F ("eta_compute", eta_c, FALSE, TRUE, FALSE),
  F ("eta_memory", eta_m, FALSE, TRUE, FALSE),
  F ("eta_comm", eta_n, FALSE, TRUE, FALSE),
  OPTIONAL ("pe_flops_fp8", P_fp8),
  OPTIONAL ("pe_flops_int8", P_int8),
  OPTIONAL ("pe_flops_fp4", P_fp4),
};

static double
field_value (const IvHardware *hw, const Field *f)
{
  if (f->integral)
    return (double) G_STRUCT_MEMBER (gint64, hw, f->offset);
  return G_STRUCT_MEMBER (double, hw, f->offset);
}

gboolean
iv_hardware_validate (const IvHardware *hw, const char *source, GError **error)
{
  if (hw->X < 1 || hw->Y < 1 || hw->X > MAX_CUBES_PER_SIDE || hw->Y > MAX_CUBES_PER_SIDE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “cubes” must be from 1 × 1 to %d × %d, not %" G_GINT64_FORMAT
                   " × %" G_GINT64_FORMAT,
                   source, MAX_CUBES_PER_SIDE, MAX_CUBES_PER_SIDE, hw->X, hw->Y);
      return FALSE;
    }
  if (hw->n_pe < 1 || hw->n_pe > MAX_PES_PER_CUBE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “pes_per_cube” must be from 1 to %d, not %" G_GINT64_FORMAT, source,
                   MAX_PES_PER_CUBE, hw->n_pe);
      return FALSE;
    }
  if (hw->topology == IV_TOPOLOGY_RING && hw->Y != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: a ring of cubes has one row: “cubes” must be N × 1", source);
      return FALSE;
    }
  if (hw->topology == IV_TOPOLOGY_SWITCH && hw->Y != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: a switch joins one row of GPUs: “cubes” must be N × 1", source);
      return FALSE;
    }
  if (hw->topology == IV_TOPOLOGY_FULLY_CONNECTED && hw->Y != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: fully connected GPUs are one row: “cubes” must be N × 1", source);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      double v = field_value (hw, &fields[i]);
      if (!isfinite (v) || v < 0 || (v == 0 && !fields[i].may_be_zero)
          || (fields[i].fraction && v > 1))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       fields[i].fraction ? "%s: “%s” must be in (0, 1], not %g"
                                          : "%s: “%s” must be a positive number, not %g",
                       source, fields[i].key, v);
          return FALSE;
        }
    }
  return TRUE;
}

typedef enum
{
  COUNT_OK,
  COUNT_BAD,       /* not a whole number of at least 1 */
  COUNT_TOO_LARGE, /* a whole number past @max: said so, not "must be a whole number" */
} CountRead;

/* A count in [1, @max]: an integer, or a double with no fraction. */
static CountRead
read_count (JsonNode *n, gint64 max, gint64 *out)
{
  double v;

  if (!n || !JSON_NODE_HOLDS_VALUE (n))
    return COUNT_BAD;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    {
      gint64 i = json_node_get_int (n);
      if (i > max)
        return COUNT_TOO_LARGE;
      if (i < 1)
        return COUNT_BAD;
      *out = i;
      return COUNT_OK;
    }
  if (json_node_get_value_type (n) != G_TYPE_DOUBLE)
    return COUNT_BAD;
  v = json_node_get_double (n);
  if (v == floor (v) && v > (double) max)
    return COUNT_TOO_LARGE;
  if (!(v >= 1 && v <= (double) max) || v != floor (v))
    return COUNT_BAD;
  *out = (gint64) v;
  return COUNT_OK;
}

IvHardware *
iv_hardware_from_node (JsonNode *root, const char *source, GError **error)
{
  g_autoptr (IvHardware) hw = g_new0 (IvHardware, 1);
  JsonObject *o;
  JsonArray *cubes;
  const char *text;

  g_return_val_if_fail (source != NULL, NULL);

  if (!root || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", source);
      return NULL;
    }
  o = json_node_get_object (root);
  text = iv_json_string (o, "name");
  hw->name = g_strdup (text && *text ? text : "custom");
  text = iv_json_string (o, "description");
  hw->description = g_strdup (text ? text : "");
  if (!iv_topology_from_string (iv_json_string (o, "topology"), &hw->topology))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “topology” must be ring, mesh2d, torus2d, switch or fully_connected",
                   source);
      return NULL;
    }
  cubes = iv_json_array (o, "cubes");
  {
    CountRead x = cubes && json_array_get_length (cubes) == 2
                      ? read_count (json_array_get_element (cubes, 0), MAX_CUBES_PER_SIDE, &hw->X)
                      : COUNT_BAD;
    CountRead y = x == COUNT_OK
                      ? read_count (json_array_get_element (cubes, 1), MAX_CUBES_PER_SIDE, &hw->Y)
                      : COUNT_BAD;
    if (x == COUNT_TOO_LARGE || y == COUNT_TOO_LARGE)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: “cubes”: %s is too large (the limit is %d a side)", source,
                     x == COUNT_TOO_LARGE ? "X" : "Y", MAX_CUBES_PER_SIDE);
        return NULL;
      }
    if (x != COUNT_OK || y != COUNT_OK)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s: “cubes” must be [X, Y], two whole numbers from 1 to %d", source,
                     MAX_CUBES_PER_SIDE);
        return NULL;
      }
  }
  hw->bidir = TRUE;
  if (json_object_has_member (o, "bidirectional") && !iv_json_bool (o, "bidirectional", &hw->bidir))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “bidirectional” must be true or false", source);
      return NULL;
    }
  if (json_object_has_member (o, "switch_reduction")
      && !iv_json_bool (o, "switch_reduction", &hw->switch_reduce))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: “switch_reduction” must be true or false", source);
      return NULL;
    }
  hw->eta_c = hw->eta_m = hw->eta_n = 1.0;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const Field *f = &fields[i];
      JsonNode *n = json_object_get_member (o, f->key);
      double v;

      if (!n)
        {
          if (f->fraction || f->optional)
            continue; /* efficiencies default to 1, the other peaks to none */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: “%s” is missing", source,
                       f->key);
          return NULL;
        }
      if (f->integral)
        {
          CountRead got
              = read_count (n, MAX_PES_PER_CUBE, &G_STRUCT_MEMBER (gint64, hw, f->offset));
          if (got == COUNT_TOO_LARGE)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s: “%s” is %g, too large (the limit is %d)", source, f->key,
                           json_node_get_double (n), MAX_PES_PER_CUBE);
              return NULL;
            }
          if (got != COUNT_OK)
            {
              g_autofree char *was = iv_json_number (o, f->key, &v)
                                         ? g_strdup_printf (", not %g", v)
                                         : g_strdup ("");
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s: “%s” must be a whole number from 1 to %d%s", source, f->key,
                           MAX_PES_PER_CUBE, was);
              return NULL;
            }
          continue;
        }
      if (!iv_json_number (o, f->key, &v))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: “%s” must be a number",
                       source, f->key);
          return NULL;
        }
      G_STRUCT_MEMBER (double, hw, f->offset) = v;
    }
  if (!iv_hardware_validate (hw, source, error))
    return NULL;
  return g_steal_pointer (&hw);
}

IvHardware *
iv_hardware_from_json (const char *json, const char *source, GError **error)
{
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (json != NULL && source != NULL, NULL);

  root = iv_json_parse (json, strlen (json), source, error);
  return root ? iv_hardware_from_node (root, source, error) : NULL;
}

IvHardware *
iv_hardware_load (const char *path, GError **error)
{
  g_autoptr (JsonNode) root = iv_json_load (path, error);
  g_autofree char *display = g_filename_display_name (path);

  return root ? iv_hardware_from_node (root, display, error) : NULL;
}

JsonNode *
iv_hardware_to_node (const IvHardware *hw)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  iv_json_member_string (b, "name", hw->name ? hw->name : "custom");
  iv_json_member_string (b, "description", hw->description ? hw->description : "");
  iv_json_member_string (b, "topology", iv_topology_to_string (hw->topology));
  json_builder_set_member_name (b, "cubes");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, hw->X);
  json_builder_add_int_value (b, hw->Y);
  json_builder_end_array (b);
  iv_json_member_bool (b, "bidirectional", hw->bidir);
  if (hw->switch_reduce)
    iv_json_member_bool (b, "switch_reduction", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      if (fields[i].optional && !(field_value (hw, &fields[i]) > 0))
        continue;
      json_builder_set_member_name (b, fields[i].key);
      if (fields[i].integral)
        json_builder_add_int_value (b, (gint64) field_value (hw, &fields[i]));
      else
        json_builder_add_double_value (b, field_value (hw, &fields[i]));
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
iv_hardware_to_json (const IvHardware *hw)
{
  g_autoptr (JsonNode) root = iv_hardware_to_node (hw);
  return iv_json_to_string (root, TRUE);
}

gboolean
iv_hardware_save (const IvHardware *hw, const char *path, GError **error)
{
  g_autofree char *json = NULL;

  if (!iv_hardware_validate (hw, hw->name ? hw->name : "hardware", error))
    return FALSE;
  json = iv_hardware_to_json (hw);
  return iv_atomic_file_set_contents (path, json, -1, error);
}

GPtrArray *
iv_hardware_presets (void)
{
  static GPtrArray *presets;
  static gsize init;

  if (g_once_init_enter (&init))
    {
      static const char *const files[]
          = { "ring4.json",  "mesh4x4.json", "torus4x4.json", "h100x8.json",
              "h200x8.json", "b200x8.json",  "mi300x8.json" };
      presets = g_ptr_array_new ();
      for (guint i = 0; i < G_N_ELEMENTS (files); i++)
        {
          g_autofree char *path
              = g_strdup_printf ("/io/github/inferview/Inferview/presets/hardware/%s", files[i]);
          g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
          g_autoptr (GError) error = NULL;
          g_autofree char *text
              = bytes ? g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)) : NULL;
          IvHardware *hw = text ? iv_hardware_from_json (text, files[i], &error) : NULL;
          if (hw)
            g_ptr_array_add (presets, hw);
          else
            g_critical ("bundled hardware preset %s unusable: %s", files[i],
                        error ? error->message : "missing");
        }
      g_once_init_leave (&init, 1);
    }
  return presets;
}

const IvHardware *
iv_hardware_find (const char *name)
{
  GPtrArray *p = iv_hardware_presets ();

  for (guint i = 0; i < p->len; i++)
    if (g_ascii_strcasecmp (((IvHardware *) p->pdata[i])->name, name) == 0)
      return p->pdata[i];
  return NULL;
}
