/* iv-first-frame.h: work that waits until a window has shown its first frame. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef void (*IvFirstFrameFunc) (GtkWidget *widget, gpointer data);

/* Calls @func (@widget, @data) once, right after the first frame painted by @widget's
 * window once @widget is realized (at once from the frame clock's "after-paint"; defer
 * heavy work to an idle from there). Not called if @widget is finalized first. */
void iv_first_frame_connect (GtkWidget *widget, IvFirstFrameFunc func, gpointer data);

G_END_DECLS
