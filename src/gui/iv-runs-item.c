/* iv-runs-item.c: an entry of a Runs workspace list (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-item.h"

struct _IvRunsItem
{
  GObject parent_instance;
  char *key, *title;
  char *terms; /* what a search looks in: the title and the key, read as words */
};

G_DEFINE_FINAL_TYPE (IvRunsItem, iv_runs_item, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_KEY,
  PROP_TITLE,
  PROP_TERMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
iv_runs_item_get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  IvRunsItem *self = IV_RUNS_ITEM (object);

  if (prop == PROP_KEY)
    g_value_set_string (value, self->key);
  else if (prop == PROP_TITLE)
    g_value_set_string (value, self->title);
  else if (prop == PROP_TERMS)
    {
      /* "isl_osl_throughput_heatmap" as words: a search for "heatmap" finds the plot
       * titled "Token Throughput per GPU by ISL × OSL" */
      if (!self->terms)
        {
          self->terms
              = g_strjoin ("\n", self->title ? self->title : "", self->key ? self->key : "", NULL);
          g_strdelimit (self->terms, "_", ' ');
        }
      g_value_set_string (value, self->terms);
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_runs_item_set_property (GObject *object, guint prop, const GValue *value, GParamSpec *pspec)
{
  IvRunsItem *self = IV_RUNS_ITEM (object);

  if (prop == PROP_KEY)
    self->key = g_value_dup_string (value);
  else if (prop == PROP_TITLE)
    self->title = g_value_dup_string (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
iv_runs_item_finalize (GObject *object)
{
  IvRunsItem *self = IV_RUNS_ITEM (object);

  g_free (self->key);
  g_free (self->title);
  g_free (self->terms);
  G_OBJECT_CLASS (iv_runs_item_parent_class)->finalize (object);
}

static void
iv_runs_item_class_init (IvRunsItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = iv_runs_item_get_property;
  object_class->set_property = iv_runs_item_set_property;
  object_class->finalize = iv_runs_item_finalize;
  properties[PROP_KEY] = g_param_spec_string ("key", NULL, NULL, NULL, flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_TERMS]
      = g_param_spec_string ("terms", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
iv_runs_item_init (IvRunsItem *self)
{
}

IvRunsItem *
iv_runs_item_new (const char *key, const char *title)
{
  return g_object_new (IV_TYPE_RUNS_ITEM, "key", key, "title", title, NULL);
}

const char *
iv_runs_item_get_key (IvRunsItem *self)
{
  g_return_val_if_fail (IV_IS_RUNS_ITEM (self), NULL);
  return self->key;
}

const char *
iv_runs_item_get_title (IvRunsItem *self)
{
  g_return_val_if_fail (IV_IS_RUNS_ITEM (self), NULL);
  return self->title;
}

void
iv_runs_items_add (GListStore *store, const char *key, const char *title)
{
  g_autoptr (IvRunsItem) item = iv_runs_item_new (key, title);
  g_list_store_append (store, item);
}

guint
iv_runs_items_find (GListModel *items, const char *key)
{
  for (guint i = 0; items && i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (IvRunsItem) item = g_list_model_get_item (items, i);
      if (g_strcmp0 (item->key, key) == 0)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

const char *
iv_runs_items_key_at (GListModel *items, guint position)
{
  g_autoptr (IvRunsItem) item = NULL;

  if (!items || position >= g_list_model_get_n_items (items))
    return NULL;
  item = g_list_model_get_item (items, position);
  /* the list holds it after this reference goes */
  return item->key;
}

void
iv_runs_drop_down_show (GtkDropDown *dropdown, GListModel *items, const char *key)
{
  guint at = iv_runs_items_find (items, key);

  g_object_freeze_notify (G_OBJECT (dropdown));
  if (gtk_drop_down_get_model (dropdown) != items)
    gtk_drop_down_set_model (dropdown, items);
  gtk_drop_down_set_selected (dropdown, at == GTK_INVALID_LIST_POSITION ? 0 : at);
  g_object_thaw_notify (G_OBJECT (dropdown));
}

gboolean
iv_runs_key_to_position (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint at = iv_runs_items_find (gtk_drop_down_get_model (data), g_value_get_string (from));

  g_value_set_uint (to, at == GTK_INVALID_LIST_POSITION ? 0 : at);
  return TRUE;
}

gboolean
iv_runs_position_to_key (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  GListModel *items = gtk_drop_down_get_model (data);
  guint i = g_value_get_uint (from);
  g_autoptr (GObject) source = g_binding_dup_source (binding);
  g_autofree char *now = NULL;
  guint shown;

  if (!items || !source || i >= g_list_model_get_n_items (items))
    return FALSE;
  /* the entry that shows the state already (the first also stands for a key not listed):
   * nothing chosen */
  g_object_get (source, g_binding_get_source_property (binding), &now, NULL);
  shown = iv_runs_items_find (items, now);
  if (i == (shown == GTK_INVALID_LIST_POSITION ? 0 : shown))
    return FALSE;
  g_value_set_string (to, iv_runs_items_key_at (items, i));
  return TRUE;
}
