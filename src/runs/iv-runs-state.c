/* iv-runs-state.c: the Runs workspace's view state. Strings are compared before they are
 * stored, so a control bound both ways settles after one round. */
#define G_LOG_DOMAIN "iv-runs"

#include "iv-runs-state.h"

struct _IvRunsState
{
  GObject parent_instance;

  char *statistic;
  char *group_by;
  gboolean log_x, log_y;
  GArray *selection; /* guint32 */
};

G_DEFINE_FINAL_TYPE (IvRunsState, iv_runs_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STATISTIC,
  PROP_GROUP_BY,
  PROP_LOG_X,
  PROP_LOG_Y,
  PROP_N_SELECTED,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

enum
{
  SELECTION_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
set_string (IvRunsState *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_flag (IvRunsState *self, gboolean *field, gboolean value, guint prop)
{
  if (*field == !!value)
    return;
  *field = !!value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
selection_changed (IvRunsState *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SELECTED]);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
iv_runs_state_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  switch (prop)
    {
    case PROP_STATISTIC:
      g_value_set_string (value, self->statistic);
      break;
    case PROP_GROUP_BY:
      g_value_set_string (value, self->group_by);
      break;
    case PROP_LOG_X:
      g_value_set_boolean (value, self->log_x);
      break;
    case PROP_LOG_Y:
      g_value_set_boolean (value, self->log_y);
      break;
    case PROP_N_SELECTED:
      g_value_set_uint (value, self->selection->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
iv_runs_state_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  switch (prop)
    {
    case PROP_STATISTIC:
      set_string (self, &self->statistic, g_value_get_string (value), prop);
      break;
    case PROP_GROUP_BY:
      set_string (self, &self->group_by, g_value_get_string (value), prop);
      break;
    case PROP_LOG_X:
      set_flag (self, &self->log_x, g_value_get_boolean (value), prop);
      break;
    case PROP_LOG_Y:
      set_flag (self, &self->log_y, g_value_get_boolean (value), prop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
    }
}

static void
iv_runs_state_finalize (GObject *object)
{
  IvRunsState *self = IV_RUNS_STATE (object);

  g_free (self->statistic);
  g_free (self->group_by);
  g_array_unref (self->selection);
  G_OBJECT_CLASS (iv_runs_state_parent_class)->finalize (object);
}

static void
iv_runs_state_class_init (IvRunsStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = iv_runs_state_get_property;
  object_class->set_property = iv_runs_state_set_property;
  object_class->finalize = iv_runs_state_finalize;
  properties[PROP_STATISTIC] = g_param_spec_string ("statistic", NULL, NULL, NULL, flags);
  properties[PROP_GROUP_BY] = g_param_spec_string ("group-by", NULL, NULL, NULL, flags);
  properties[PROP_LOG_X] = g_param_spec_boolean ("log-x", NULL, NULL, FALSE, flags);
  properties[PROP_LOG_Y] = g_param_spec_boolean ("log-y", NULL, NULL, FALSE, flags);
  properties[PROP_N_SELECTED]
      = g_param_spec_uint ("n-selected", NULL, NULL, 0, G_MAXUINT, 0,
                           G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SELECTION_CHANGED]
      = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
}

static void
iv_runs_state_init (IvRunsState *self)
{
  self->selection = g_array_new (FALSE, FALSE, sizeof (guint32));
}

IvRunsState *
iv_runs_state_new (void)
{
  return g_object_new (IV_TYPE_RUNS_STATE, NULL);
}

const char *
iv_runs_state_get_statistic (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  return self->statistic;
}

const char *
iv_runs_state_get_group_by (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  return self->group_by;
}

void
iv_runs_state_toggle_request (IvRunsState *self, guint32 request)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  for (guint j = 0; j < self->selection->len; j++)
    if (g_array_index (self->selection, guint32, j) == request)
      {
        g_array_remove_index (self->selection, j);
        selection_changed (self);
        return;
      }
  g_array_append_val (self->selection, request);
  selection_changed (self);
}

void
iv_runs_state_clear_selection (IvRunsState *self)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  if (self->selection->len == 0)
    return;
  g_array_set_size (self->selection, 0);
  selection_changed (self);
}

const GArray *
iv_runs_state_get_selection (IvRunsState *self)
{
  g_return_val_if_fail (IV_IS_RUNS_STATE (self), NULL);
  return self->selection;
}

void
iv_runs_state_reset (IvRunsState *self)
{
  g_return_if_fail (IV_IS_RUNS_STATE (self));
  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->statistic, NULL, PROP_STATISTIC);
  set_string (self, &self->group_by, NULL, PROP_GROUP_BY);
  iv_runs_state_clear_selection (self);
  g_object_thaw_notify (G_OBJECT (self));
}
