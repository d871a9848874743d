/* iv-trace-area.h: what a time range of a trace holds — slices by name (count, total,
 * self, mean, max; sortable; Copy as CSV) and the GPU analyses for the range. */
#pragma once

#include <gtk/gtk.h>

#include "iv-model.h"

#include "iv-chart.h"
#include "iv-trace-query.h"

G_BEGIN_DECLS

#define IV_TYPE_TRACE_AREA (iv_trace_area_get_type ())
G_DECLARE_FINAL_TYPE (IvTraceArea, iv_trace_area, IV, TRACE_AREA, GtkWidget)

GtkWidget *iv_trace_area_new (void);
/* Aggregates slices starting in [t0, t1) of @trace (NULL: clears). */
void iv_trace_area_set_range (IvTraceArea *self, const IvTrace *trace, gint64 t0_ns, gint64 t1_ns);
/* name,count,total_s,self_s,mean_s,max_s — one row per name, by total descending. */
const char *iv_trace_area_get_csv (IvTraceArea *self);
GtkColumnView *iv_trace_area_get_column_view (IvTraceArea *self);
/* The small charts of the range: 0 top names, 1 GPU streams, 2 kernel time by kind;
 * NULL when that analysis has nothing for the range. */
IvChart *iv_trace_area_get_chart (IvTraceArea *self, guint index);

/* The Model workspace's evaluated step (owned there; NULL: none): the stage-group chart
 * sets the range's GPU time beside it. */
void iv_trace_area_set_model (IvTraceArea *self, const IvResult *model);

G_END_DECLS
