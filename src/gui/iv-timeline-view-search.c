/* iv-timeline-view-search.c: the timeline view's search. The entry writes the state's
 * "search" (debounced by GtkSearchEntry, see the template); the state's search gives the
 * matches the figure highlights and their count; Enter and the arrows step through them,
 * each selected and centred. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-timeline-view-private.h"

#include <glib/gi18n.h>

#include "iv-trace-query.h"

void
_iv_timeline_view_search_changed (IvTimelineView *self)
{
  const char *text = iv_timeline_state_get_search (self->state);
  g_autofree char *count = NULL;

  /* State → entry by hand rather than by a binding: GtkText replaces its text by a
   * deletion then an insertion, and the deletion alone would come back as an empty
   * search ("search-changed" is immediate for empty text). */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search), text);

  g_clear_pointer (&self->matches, g_array_unref);
  self->fig.matches = NULL;
  self->match_index = G_MAXUINT;
  if (self->fig.trace && text && *text)
    {
      self->matches = iv_trace_search (self->fig.trace, text);
      self->fig.matches = self->matches;
      count = g_strdup_printf (g_dngettext (NULL, "%u match", "%u matches", self->matches->len),
                               self->matches->len);
    }
  gtk_label_set_text (self->match_count, count ? count : "");
  _iv_timeline_view_queue_redraw (self);
}

/* Enter: the next match after the current one (or after the view's start), selected and
 * centred; Shift+Enter: the previous one. */
void
iv_timeline_view_step_match (IvTimelineView *self, int direction)
{
  const IvTrace *t = self->fig.trace;
  guint n;
  gsize s;
  gint64 span;

  if (!t || !self->matches || self->matches->len == 0)
    return;
  n = self->matches->len;
  if (self->match_index == G_MAXUINT)
    {
      /* The first match at or after the view's start, or the last before it. */
      guint i = 0;
      while (i < n && t->start_ns[g_array_index (self->matches, gsize, i)] < self->fig.t0_ns)
        i++;
      self->match_index = direction > 0 ? (i < n ? i : 0) : (i > 0 ? i - 1 : n - 1);
    }
  else
    self->match_index = (self->match_index + n + (direction > 0 ? 1 : n - 1)) % n;
  s = g_array_index (self->matches, gsize, self->match_index);
  iv_timeline_view_select (self, s);
  span = self->fig.t1_ns - self->fig.t0_ns;
  iv_timeline_view_set_range (self, t->start_ns[s] + t->dur_ns[s] / 2 - span / 2,
                              t->start_ns[s] + t->dur_ns[s] / 2 + span / 2);
  {
    g_autofree char *count = g_strdup_printf (_ ("%u of %u"), self->match_index + 1, n);
    gtk_label_set_text (self->match_count, count);
  }
}

static void
on_search_activate (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, 1);
}

static void
on_search_previous (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, -1);
}

static void
on_search_next (IvTimelineView *self)
{
  iv_timeline_view_step_match (self, 1);
}

static gboolean
on_search_key (GtkEventControllerKey *key, guint keyval, guint code, GdkModifierType state,
               IvTimelineView *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      iv_timeline_view_step_match (self, -1);
      return TRUE;
    }
  return FALSE;
}

static void
on_search_entry_changed (IvTimelineView *self)
{
  g_object_set (self->state, "search", gtk_editable_get_text (GTK_EDITABLE (self->search)), NULL);
}

void
_iv_timeline_view_bind_search (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_key);
}
