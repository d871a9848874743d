/* iv-timeline-state.c: the timeline's view state. A range is set as a pair under a
 * notification freeze, so whoever redraws on "start-ns" sees the matching "end-ns". */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-timeline-state.h"

struct _IvTimelineState
{
  GObject parent_instance;

  gint64 start_ns, end_ns;
  guint64 selected;
  gint64 area_start_ns, area_end_ns;
  char *search;
};

G_DEFINE_FINAL_TYPE (IvTimelineState, iv_timeline_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_START_NS,
  PROP_END_NS,
  PROP_SELECTED,
  PROP_AREA_START_NS,
  PROP_AREA_END_NS,
  PROP_SEARCH,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static gint64 *
time_member (IvTimelineState *self, guint prop)
{
  switch (prop)
    {
    case PROP_START_NS:
      return &self->start_ns;
    case PROP_END_NS:
      return &self->end_ns;
    case PROP_AREA_START_NS:
      return &self->area_start_ns;
    case PROP_AREA_END_NS:
      return &self->area_end_ns;
    default:
      return NULL;
    }
}

static void
set_time (IvTimelineState *self, guint prop, gint64 value)
{
  gint64 *m = time_member (self, prop);
  g_return_if_fail (m != NULL);
  if (*m == value)
    return;
  *m = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
iv_timeline_state_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  IvTimelineState *self = IV_TIMELINE_STATE (object);

  gint64 *m = time_member (self, prop);

  if (m)
    g_value_set_int64 (value, *m);
  else if (prop == PROP_SELECTED)
    g_value_set_uint64 (value, self->selected);
  else if (prop == PROP_SEARCH)
    g_value_set_string (value, self->search);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_timeline_state_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  IvTimelineState *self = IV_TIMELINE_STATE (object);

  if (time_member (self, prop))
    set_time (self, prop, g_value_get_int64 (value));
  else if (prop == PROP_SELECTED)
    {
      if (self->selected != g_value_get_uint64 (value))
        {
          self->selected = g_value_get_uint64 (value);
          g_object_notify_by_pspec (object, pspec);
        }
    }
  else if (prop == PROP_SEARCH)
    {
      /* never NULL: an entry shows it */
      const char *text = g_value_get_string (value) ? g_value_get_string (value) : "";
      if (g_strcmp0 (self->search, text) != 0)
        {
          g_free (self->search);
          self->search = g_strdup (text);
          g_object_notify_by_pspec (object, pspec);
        }
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_timeline_state_finalize (GObject *object)
{
  g_free (IV_TIMELINE_STATE (object)->search);
  G_OBJECT_CLASS (iv_timeline_state_parent_class)->finalize (object);
}

static void
iv_timeline_state_class_init (IvTimelineStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = iv_timeline_state_get_property;
  object_class->set_property = iv_timeline_state_set_property;
  object_class->finalize = iv_timeline_state_finalize;
  properties[PROP_START_NS]
      = g_param_spec_int64 ("start-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_END_NS]
      = g_param_spec_int64 ("end-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_SELECTED]
      = g_param_spec_uint64 ("selected", NULL, NULL, 0, G_MAXUINT64, IV_TIMELINE_NONE, flags);
  properties[PROP_AREA_START_NS]
      = g_param_spec_int64 ("area-start-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_AREA_END_NS]
      = g_param_spec_int64 ("area-end-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_SEARCH] = g_param_spec_string ("search", NULL, NULL, "", flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
iv_timeline_state_init (IvTimelineState *self)
{
  self->selected = IV_TIMELINE_NONE;
  self->search = g_strdup ("");
}

IvTimelineState *
iv_timeline_state_new (void)
{
  return g_object_new (IV_TYPE_TIMELINE_STATE, NULL);
}

static void
set_pair (IvTimelineState *self, guint start_prop, gint64 start, gint64 end)
{
  g_object_freeze_notify (G_OBJECT (self));
  set_time (self, start_prop, start);
  set_time (self, start_prop + 1, end);
  g_object_thaw_notify (G_OBJECT (self));
}

void
iv_timeline_state_set_range (IvTimelineState *self, gint64 start_ns, gint64 end_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_STATE (self));
  set_pair (self, PROP_START_NS, start_ns, end_ns);
}

void
iv_timeline_state_get_range (IvTimelineState *self, gint64 *start_ns, gint64 *end_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_STATE (self));
  *start_ns = self->start_ns, *end_ns = self->end_ns;
}

void
iv_timeline_state_set_area (IvTimelineState *self, gint64 start_ns, gint64 end_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_STATE (self));
  set_pair (self, PROP_AREA_START_NS, start_ns, end_ns);
}

void
iv_timeline_state_get_area (IvTimelineState *self, gint64 *start_ns, gint64 *end_ns)
{
  g_return_if_fail (IV_IS_TIMELINE_STATE (self));
  *start_ns = self->area_start_ns, *end_ns = self->area_end_ns;
}

guint64
iv_timeline_state_get_selected (IvTimelineState *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_STATE (self), IV_TIMELINE_NONE);
  return self->selected;
}

const char *
iv_timeline_state_get_search (IvTimelineState *self)
{
  g_return_val_if_fail (IV_IS_TIMELINE_STATE (self), NULL);
  return self->search;
}
