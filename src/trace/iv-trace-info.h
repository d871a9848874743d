/* iv-trace-info.h: what a trace file says about itself beside its events — the top-level
 * "metadata" object (Chrome, DevTools; Perfetto's json_metadata.*), Kineto's
 * "distributedInfo" (rank, world size, backend, process groups) and "deviceProperties"
 * (one object per GPU), and the other top-level scalars Kineto writes (schemaVersion,
 * traceName, baseTimeNanoseconds, …). Small and bounded: a hostile file cannot make it
 * large (IV_TRACE_INFO_MAX_ITEMS members a group, IV_TRACE_INFO_MAX_TEXT bytes a value). */
#pragma once

#include <glib.h>

#include "iv-json-writer.h"

G_BEGIN_DECLS

/* The most members kept in one group (and devices, process groups); the rest are counted. */
#define IV_TRACE_INFO_MAX_ITEMS 256
/* The most bytes kept of one value (cut at a character boundary); object and array values
 * are kept as their JSON text, as Perfetto keeps them. */
#define IV_TRACE_INFO_MAX_TEXT 4096

typedef enum
{
  IV_INFO_STRING,
  IV_INFO_NUMBER, /* the number as written */
  IV_INFO_BOOL,   /* "true" or "false" */
  IV_INFO_JSON,   /* an object or array, as its JSON text */
} IvInfoKind;

typedef struct
{
  char *key;
  char *value; /* valid UTF-8 */
  IvInfoKind kind;
  gboolean cut; /* the value was longer than IV_TRACE_INFO_MAX_TEXT */
} IvInfoItem;

typedef struct _IvTraceInfo
{
  GPtrArray *metadata;       /* IvInfoItem*: members of the top-level "metadata" object */
  GPtrArray *attributes;     /* IvInfoItem*: other top-level scalars (Kineto's own metadata) */
  GPtrArray *distributed;    /* IvInfoItem*: distributedInfo, without pg_config */
  GPtrArray *process_groups; /* GPtrArray* of IvInfoItem*: distributedInfo.pg_config; each
                              * group's "ranks" list is kept as a summary ("0–299 (300 ranks)") */
  GPtrArray *devices;        /* GPtrArray* of IvInfoItem*: deviceProperties, one per device */
  guint64 n_dropped;         /* members past IV_TRACE_INFO_MAX_ITEMS, not kept */
} IvTraceInfo;

IvTraceInfo *iv_trace_info_new (void);
void iv_trace_info_free (IvTraceInfo *info);
/* TRUE when the file said nothing of this kind. */
gboolean iv_trace_info_is_empty (const IvTraceInfo *info);

/* The value of @key in @items (IvInfoItem*), or NULL. */
const IvInfoItem *iv_trace_info_find (const GPtrArray *items, const char *key);
const char *iv_trace_info_value (const GPtrArray *items, const char *key);

/* A device in one line: "NVIDIA A100-PG509-200 · compute 8.0 · 108 SMs · 39.4 GiB". */
char *iv_trace_info_device_summary (const GPtrArray *device);
/* distributedInfo in one line: "rank 0 of 128 · nccl", or NULL when there is none. */
char *iv_trace_info_distributed_summary (const IvTraceInfo *info);

/* What the file says, as JSON (trace --stats --json's "info"): {"metadata": {…},
 * "attributes": {…}, "distributed": {…, "process_groups": [{…}]}, "devices": [{…}],
 * "dropped": N}. Numbers are numbers (whole ones exact), objects and arrays their JSON text
 * as a string. */
void iv_trace_info_write_json (const IvTraceInfo *info, IvJsonWriter *w);
/* The same in a few lines of plain text (not yet made printable): distributed, devices
 * (identical ones counted), metadata and attributes (the first few). NULL-terminated. */
char **iv_trace_info_lines (const IvTraceInfo *info);

/* Reads one top-level member of a trace object (not "traceEvents"): @value is its complete
 * JSON text. Members the file repeats replace nothing: the first is kept. */
void _iv_trace_info_add_member (IvTraceInfo *info, const char *key, const char *value, gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTraceInfo, iv_trace_info_free)

G_END_DECLS
