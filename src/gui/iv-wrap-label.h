/* iv-wrap-label.h: a label of wrapping text that lays its text out once per width it is
 * asked about, however often and in whichever order GTK asks (GtkLabel lays a wrapping
 * text out again at every question, and answers "how wide for this height?" by a binary
 * search of a dozen layouts). For text that changes while the user drags a slider
 * (issue 31); not selectable, no markup, no mnemonics. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define IV_TYPE_WRAP_LABEL (iv_wrap_label_get_type ())
G_DECLARE_FINAL_TYPE (IvWrapLabel, iv_wrap_label, IV, WRAP_LABEL, GtkWidget)

/* Its CSS name is "label", so that style sheets treat it as one (.title, .subtitle). */
GtkWidget *iv_wrap_label_new (const char *text);
/* The same text again changes nothing: no relayout, no redraw. */
void iv_wrap_label_set_text (IvWrapLabel *self, const char *text);
const char *iv_wrap_label_get_text (IvWrapLabel *self);
/* How many times the text was laid out since the label was made: at most one more per
 * width a frame asks about, and none for a question asked before (tests, benches). */
guint iv_wrap_label_get_layouts (IvWrapLabel *self);

G_END_DECLS
