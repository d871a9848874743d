/* iv-trace-info-view.c: see the header. Everything shown comes from the file: made valid
 * UTF-8 and set as plain text; values are ellipsized with the whole in the tooltip (a
 * value may be 4 KiB of JSON), warnings wrap and are shown whole. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-trace-info-view.h"

#include <glib/gi18n.h>

#include "iv-safe-text.h"
#include "iv-trace-page.h"
#include "iv-tooltip.h"

/* Names of spans that did not end shown at most (the trace keeps up to 1,000). */
#define MAX_OPEN_NAMES 20

struct _IvTraceInfoView
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkWidget *sections;
  GtkGrid *grid; /* the section being filled */
  guint n_rows;
  GString *text; /* what is shown, for iv_trace_info_view_to_text */
};

G_DEFINE_FINAL_TYPE (IvTraceInfoView, iv_trace_info_view, GTK_TYPE_WIDGET)

/* A new section: its heading, then a grid of name | value rows. */
static void
begin_section (IvTraceInfoView *self, const char *title)
{
  iv_trace_page_heading (self->sections, self->text, title, 8);
  self->grid = iv_trace_page_grid (self->sections, 3);
  self->n_rows = 0;
}

/* A row of the current section; @wrap: the value wraps and is shown whole (warnings). */
static void
add_row (IvTraceInfoView *self, const char *name, const char *raw, gboolean wrap)
{
  g_autofree char *value = iv_text_valid (raw ? raw : "", -1);
  g_autofree char *key = iv_text_valid (name ? name : "", -1);
  GtkWidget *k = gtk_label_new (key), *v = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_label_set_yalign (GTK_LABEL (k), 0);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_set_hexpand (v, TRUE);
  if (wrap)
    {
      gtk_label_set_wrap (GTK_LABEL (v), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
    }
  else
    {
      gtk_label_set_ellipsize (GTK_LABEL (v), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (v, value);
      iv_tooltip_wrap (v);
    }
  gtk_grid_attach (self->grid, k, 0, (int) self->n_rows, 1, 1);
  gtk_grid_attach (self->grid, v, 1, (int) self->n_rows, 1, 1);
  self->n_rows++;
  g_string_append_printf (self->text, "%s: %s\n", key, value);
}

static void
add_items (IvTraceInfoView *self, const GPtrArray *items)
{
  for (guint i = 0; i < items->len; i++)
    {
      const IvInfoItem *it = items->pdata[i];
      add_row (self, it->key, it->value, FALSE);
    }
}

/* A group of items (a process group, a device) in one line: "key = value; …". */
static char *
items_line (const GPtrArray *items)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const IvInfoItem *it = items->pdata[i];
      g_string_append_printf (s, "%s%s = %s", i ? "; " : "", it->key, it->value);
    }
  return g_string_free (s, FALSE);
}

static void
show_import (IvTraceInfoView *self, const IvTrace *t)
{
  begin_section (self, _ ("Import"));
  add_row (self, _ ("Read"),
           t->truncated ? _ ("Not whole: the events before the place named below are kept")
                        : _ ("Whole"),
           TRUE);
  if (t->warnings->len == 0)
    add_row (self, _ ("Warnings"), _ ("None"), FALSE);
  for (guint i = 0; i < t->warnings->len; i++)
    add_row (self, i == 0 ? _ ("Warnings") : "", t->warnings->pdata[i], TRUE);
  if (t->open_names && t->open_names->len)
    {
      GString *names = g_string_new (NULL);
      for (guint i = 0; i < t->open_names->len && i < MAX_OPEN_NAMES; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "",
                                iv_trace_string (t, g_array_index (t->open_names, guint32, i)));
      if (t->open_names->len > MAX_OPEN_NAMES)
        g_string_append_printf (names, _ (", … (%u names)"), t->open_names->len);
      add_row (self, _ ("Did not end"), names->str, TRUE);
      g_string_free (names, TRUE);
    }
}

static void
show_info (IvTraceInfoView *self, const IvTraceInfo *info)
{
  if (info->distributed->len || info->process_groups->len)
    {
      g_autofree char *summary = iv_trace_info_distributed_summary (info);
      begin_section (self, _ ("Distributed"));
      if (summary)
        add_row (self, _ ("Summary"), summary, FALSE);
      add_items (self, info->distributed);
      for (guint i = 0; i < info->process_groups->len; i++)
        {
          g_autofree char *line = items_line (info->process_groups->pdata[i]);
          g_autofree char *name = g_strdup_printf (_ ("Process group %u"), i + 1);
          add_row (self, name, line, FALSE);
        }
    }
  if (info->devices->len)
    {
      begin_section (self, _ ("Devices"));
      for (guint i = 0; i < info->devices->len; i++)
        {
          const char *id = iv_trace_info_value (info->devices->pdata[i], "id");
          g_autofree char *summary = iv_trace_info_device_summary (info->devices->pdata[i]);
          g_autofree char *name
              = id ? g_strdup_printf (_ ("Device %s"), id) : g_strdup (_ ("Device"));
          add_row (self, name, summary, FALSE);
        }
    }
  if (info->metadata->len)
    {
      begin_section (self, _ ("Metadata"));
      add_items (self, info->metadata);
    }
  if (info->attributes->len)
    {
      begin_section (self, _ ("File values"));
      add_items (self, info->attributes);
    }
  if (info->n_dropped)
    {
      g_autofree char *dropped
          = g_strdup_printf (_ ("%" G_GUINT64_FORMAT " more values not kept (past %d a group)"),
                             info->n_dropped, IV_TRACE_INFO_MAX_ITEMS);
      begin_section (self, _ ("Not kept"));
      add_row (self, "", dropped, TRUE);
    }
}

void
iv_trace_info_view_set_trace (IvTraceInfoView *self, const IvTrace *trace)
{
  g_return_if_fail (IV_IS_TRACE_INFO_VIEW (self));
  iv_trace_page_clear (self->sections);
  g_string_truncate (self->text, 0);
  self->grid = NULL;
  if (!trace)
    return;
  show_import (self, trace);
  if (iv_trace_info_is_empty (trace->info))
    {
      begin_section (self, _ ("The File"));
      add_row (self, "", _ ("No metadata, distributed run or devices besides the events"), TRUE);
    }
  else
    show_info (self, trace->info);
}

char *
iv_trace_info_view_to_text (IvTraceInfoView *self)
{
  g_return_val_if_fail (IV_IS_TRACE_INFO_VIEW (self), NULL);
  return g_strdup (self->text->str);
}

GtkWidget *
iv_trace_info_view_new (void)
{
  return g_object_new (IV_TYPE_TRACE_INFO_VIEW, NULL);
}

static void
iv_trace_info_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_TRACE_INFO_VIEW);
  G_OBJECT_CLASS (iv_trace_info_view_parent_class)->dispose (object);
}

static void
iv_trace_info_view_finalize (GObject *object)
{
  g_string_free (IV_TRACE_INFO_VIEW (object)->text, TRUE);
  G_OBJECT_CLASS (iv_trace_info_view_parent_class)->finalize (object);
}

static void
iv_trace_info_view_class_init (IvTraceInfoViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_trace_info_view_dispose;
  object_class->finalize = iv_trace_info_view_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-trace-info-view.ui");
  gtk_widget_class_bind_template_child (widget_class, IvTraceInfoView, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvTraceInfoView, sections);
}

static void
iv_trace_info_view_init (IvTraceInfoView *self)
{
  self->text = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}
