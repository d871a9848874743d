/* iv-slice-details.h: the details of one slice of a trace — its name, a two-column list
 * of its properties (category, start, duration, self time, thread, process, the slices
 * it is in), the flows out of it and into it as buttons, and its arguments as a tree. */
#pragma once

#include <gtk/gtk.h>

#include "iv-trace.h"

G_BEGIN_DECLS

#define IV_TYPE_SLICE_DETAILS (iv_slice_details_get_type ())
G_DECLARE_FINAL_TYPE (IvSliceDetails, iv_slice_details, IV, SLICE_DETAILS, GtkWidget)

/* Signal "follow" (gsize slice): a flow's button was clicked. */
GtkWidget *iv_slice_details_new (void);
/* Shows slice @slice of @trace; G_MAXSIZE or a NULL trace: nothing. */
void iv_slice_details_set (IvSliceDetails *self, const IvTrace *trace, gsize slice);
/* What is shown, as text (tests, copying): one "name: value" line per property. */
char *iv_slice_details_to_text (IvSliceDetails *self);

G_END_DECLS
