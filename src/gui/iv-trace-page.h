/* iv-trace-page.h: what the trace pages share — Trace Info, Analyses and Compare: their
 * sections (a heading, then a grid of labels, the page's text kept beside it for copying),
 * the ProfilerStep drop-down that scopes them, and the computation they start on a
 * worker. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Every child of @box removed. */
void iv_trace_page_clear (GtkWidget *box);
/* A heading appended to @box, @margin_top above it unless it is the first child; its
 * title as a line of @text. */
void iv_trace_page_heading (GtkWidget *box, GString *text, const char *title, int margin_top);
/* A grid of labels appended to @box: 18 px between its columns, @row_spacing between rows. */
GtkGrid *iv_trace_page_grid (GtkWidget *box, int row_spacing);

/* @dropdown's items: @whole ("Whole trace"), then "Step N" for each of @steps (gint64;
 * NULL: none), the first selected, the drop-down sensitive only with steps. *@setting
 * is TRUE meanwhile: the drop-down's notify::selected then is not the user's choice. */
void iv_trace_page_set_steps (GtkDropDown *dropdown, const GArray *steps, const char *whole,
                              gboolean *setting);
/* The step selected in @dropdown, -1 for the first item (the whole trace). */
gint64 iv_trace_page_chosen_step (GtkDropDown *dropdown, const GArray *steps);
/* @step selected in @dropdown (the first item when -1 or not a step of @steps), *@setting
 * TRUE meanwhile. */
void iv_trace_page_select_step (GtkDropDown *dropdown, const GArray *steps, gint64 step,
                                gboolean *setting);

/* @func run on a worker with @job, which the task owns (freed by @job_free); @done gets
 * the result on the main thread, @source as its source object. */
void iv_trace_page_run (gpointer source, gpointer job, GDestroyNotify job_free,
                        GTaskThreadFunc func, GAsyncReadyCallback done);

G_END_DECLS
