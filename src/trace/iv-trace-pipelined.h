/* iv-trace-pipelined.h: the candidate breakdown file of pipelined timelines. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;
  double ms;
} IvFamily;

typedef struct
{
  gint64 candidate;
  IvFamily *families;
  guint n_families;
  double total_ms;
} IvBreakdown;

IvBreakdown *iv_breakdown_load (const char *path, GError **error);
IvBreakdown *iv_breakdown_copy (const IvBreakdown *breakdown);
void iv_breakdown_free (IvBreakdown *breakdown);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvBreakdown, iv_breakdown_free)

/* A breakdown file and what it holds (iv_breakdown_file_new takes @breakdown). */
typedef struct
{
  char *path;
  IvBreakdown *breakdown;
} IvBreakdownFile;

IvBreakdownFile *iv_breakdown_file_new (const char *path, IvBreakdown *breakdown);
void iv_breakdown_file_free (IvBreakdownFile *file);

/* The candidate breakdown files in the folder of the trace at @trace_path, read whole,
 * sorted by path (IvBreakdownFile*, owned by the array; empty when there are none). Reads
 * files: call it off the main thread (the document loader does). */
GPtrArray *iv_breakdowns_beside (const char *trace_path, GCancellable *cancellable);

G_END_DECLS
