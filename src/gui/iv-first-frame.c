/* iv-first-frame.c: a start-up shows its window first and builds what the first frame
 * does not need afterwards; this is the one place that knows how to wait for that frame
 * (realize gives the frame clock, whose first "after-paint" is the frame on screen). */
#include "iv-first-frame.h"

typedef struct
{
  GWeakRef widget;
  IvFirstFrameFunc func;
  gpointer data;
  gulong handler;    /* on the frame clock */
  gulong realize;    /* on the widget, until realized */
  gboolean on_clock; /* the clock's handler owns it */
} Pending;

static void
pending_free (gpointer p, GClosure *closure)
{
  Pending *pending = p;
  g_weak_ref_clear (&pending->widget);
  g_free (pending);
}

static void
on_after_paint (GdkFrameClock *clock, Pending *pending)
{
  g_autoptr (GtkWidget) widget = g_weak_ref_get (&pending->widget);
  IvFirstFrameFunc func = pending->func;
  gpointer data = pending->data;

  /* frees @pending */
  g_signal_handler_disconnect (clock, pending->handler);
  if (widget)
    func (widget, data);
}

static void
watch_clock (GtkWidget *widget, Pending *pending)
{
  pending->on_clock = TRUE;
  pending->handler = g_signal_connect_data (gtk_widget_get_frame_clock (widget), "after-paint",
                                            G_CALLBACK (on_after_paint), pending, pending_free, 0);
}

/* A widget finalized before it was realized takes its waiting work with it. */
static void
realize_notify (gpointer p, GClosure *closure)
{
  Pending *pending = p;
  if (!pending->on_clock)
    pending_free (pending, closure);
}

static void
on_realize (GtkWidget *widget, Pending *pending)
{
  watch_clock (widget, pending);
  g_signal_handler_disconnect (widget, pending->realize);
}

void
iv_first_frame_connect (GtkWidget *widget, IvFirstFrameFunc func, gpointer data)
{
  Pending *pending;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  pending = g_new0 (Pending, 1);
  g_weak_ref_init (&pending->widget, widget);
  pending->func = func;
  pending->data = data;
  if (gtk_widget_get_realized (widget))
    watch_clock (widget, pending);
  else
    pending->realize = g_signal_connect_data (widget, "realize", G_CALLBACK (on_realize), pending,
                                              realize_notify, 0);
}
