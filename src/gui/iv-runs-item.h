/* iv-runs-item.h: an entry of a Runs workspace list (a plot, a quantity, a grouping field,
 * a hardware or model preset): the key the state holds and the title shown, for
 * GListModels that drop-downs show through expressions (ui/iv-runs-item-button.ui and
 * ui/iv-runs-item-row.ui look up "title"). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define IV_TYPE_RUNS_ITEM (iv_runs_item_get_type ())
G_DECLARE_FINAL_TYPE (IvRunsItem, iv_runs_item, IV, RUNS_ITEM, GObject)

/* Properties "key" (NULL: none, e.g. each run's own model) and "title", both construct-only;
 * "terms", read-only: the title and the key with its underscores as spaces, what a search
 * of a list matches. */
IvRunsItem *iv_runs_item_new (const char *key, const char *title);
const char *iv_runs_item_get_key (IvRunsItem *self);
const char *iv_runs_item_get_title (IvRunsItem *self);

/* Appends an item to @store (a GListStore of IvRunsItem). */
void iv_runs_items_add (GListStore *store, const char *key, const char *title);
/* The position of the item whose key is @key (NULL matches a NULL key) in @items, or
 * GTK_INVALID_LIST_POSITION. */
guint iv_runs_items_find (GListModel *items, const char *key);
/* The key of the item at @position, or NULL. */
const char *iv_runs_items_key_at (GListModel *items, guint position);

/* Shows @items in @dropdown with the item keyed @key selected (the first when none is);
 * the drop-down notifies once it shows both, so a control bound to a state finds the
 * state's value there rather than the passing first entry of a new list. */
void iv_runs_drop_down_show (GtkDropDown *dropdown, GListModel *items, const char *key);

/* Bindings between a string property of a state and a drop-down's "selected", for
 * g_object_bind_property_full with the drop-down (its model a list of IvRunsItem) as
 * @data: the key's position (the first entry for a key not listed), and the key at the
 * position (nothing for no position or for the entry already selected). */
gboolean iv_runs_key_to_position (GBinding *binding, const GValue *from, GValue *to, gpointer data);
gboolean iv_runs_position_to_key (GBinding *binding, const GValue *from, GValue *to, gpointer data);

G_END_DECLS
