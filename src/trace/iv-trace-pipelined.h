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
void iv_breakdown_free (IvBreakdown *breakdown);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvBreakdown, iv_breakdown_free)

G_END_DECLS
