/* iv-runs-table-view.c: a Runs table on screen (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-table-view.h"

#include <math.h>
#include <string.h>

#include "iv-safe-text.h"
#include "iv-tooltip.h"

/* A row: its cells as shown, and numbers to sort by. */

#define IV_TYPE_TABLE_ROW (iv_table_row_get_type ())
G_DECLARE_FINAL_TYPE (IvTableRow, iv_table_row, IV, TABLE_ROW, GObject)

struct _IvTableRow
{
  GObject parent_instance;
  GStrv cells;
  double *keys; /* per column: NaN sorts by the text */
  guint index;  /* the run or metric it shows */
};

G_DEFINE_FINAL_TYPE (IvTableRow, iv_table_row, G_TYPE_OBJECT)

static void
iv_table_row_finalize (GObject *object)
{
  IvTableRow *self = IV_TABLE_ROW (object);
  g_strfreev (self->cells);
  g_free (self->keys);
  G_OBJECT_CLASS (iv_table_row_parent_class)->finalize (object);
}

static void
iv_table_row_class_init (IvTableRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = iv_table_row_finalize;
}

static void
iv_table_row_init (IvTableRow *self)
{
}

struct _IvRunsTableView
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *scroller;
  GtkColumnView *columns;
  GListStore *rows;
};

G_DEFINE_FINAL_TYPE (IvRunsTableView, iv_runs_table_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_ROW_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
setup_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_UINT (data) == 0 ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), GPOINTER_TO_UINT (data) == 0 ? PANGO_ELLIPSIZE_MIDDLE
                                                                           : PANGO_ELLIPSIZE_NONE);
  if (GPOINTER_TO_UINT (data) == 0)
    iv_tooltip_wrap (label);
  if (GPOINTER_TO_UINT (data))
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
  IvTableRow *row = gtk_list_item_get_item (item);
  guint col = GPOINTER_TO_UINT (data);
  const char *cell = row && col < g_strv_length (row->cells) ? row->cells[col] : "";
  /* run and model names come from the runs' files: valid UTF-8 before Pango */
  g_autofree char *text = iv_text_valid (cell, -1);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  /* the name column is a fixed width: its whole text on hover */
  if (col == 0)
    gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), text);
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const IvTableRow *x = a, *y = b;
  guint col = GPOINTER_TO_UINT (data);
  double u = x->keys[col], v = y->keys[col];

  if (isnan (u) && isnan (v))
    {
      /* as a file manager sorts names: "c 2" before "c 16", "isl 128" before "isl 1024" */
      g_autofree char *kx = g_utf8_collate_key_for_filename (x->cells[col], -1);
      g_autofree char *ky = g_utf8_collate_key_for_filename (y->cells[col], -1);
      return strcmp (kx, ky);
    }
  if (isnan (u) != isnan (v))
    return isnan (u) ? 1 : -1; /* absent values last */
  return (u > v) - (u < v);
}

/* A long title on two lines, broken at the space nearest its middle ("Output\ntokens/s",
 * "Tokens/s\nof bound"): a column is as wide as its title or its numbers, and numbers are
 * short — a comparison with the bound's three columns stays on a 1024 px screen. */
static char *
title_lines (const char *title)
{
  gsize n = strlen (title), best = 0;

  if (g_utf8_strlen (title, -1) <= 10)
    return g_strdup (title);
  for (gsize i = 1; i + 1 < n; i++)
    if (title[i] == ' '
        && (best == 0
            || ABS ((gssize) (2 * i) - (gssize) n) < ABS ((gssize) (2 * best) - (gssize) n)))
      best = i;
  if (best == 0)
    return g_strdup (title);
  return g_strdup_printf ("%.*s\n%s", (int) best, title, title + best + 1);
}

/* @first_width: the name column's width (names ellipsize, the full text on hover). */
static void
set_columns (IvRunsTableView *self, const char *const *titles, int first_width)
{
  GListModel *cols = gtk_column_view_get_columns (self->columns);

  while (g_list_model_get_n_items (cols) > 0)
    {
      g_autoptr (GtkColumnViewColumn) c = g_list_model_get_item (cols, 0);
      gtk_column_view_remove_column (self->columns, c);
    }
  for (guint i = 0; titles[i]; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (i));
      g_autofree char *title = title_lines (titles[i]);
      col = gtk_column_view_column_new (title, factory);
      gtk_column_view_column_set_sorter (
          col, GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (i), NULL)));
      gtk_column_view_column_set_expand (col, i == 0);
      gtk_column_view_column_set_resizable (col, TRUE);
      if (i == 0)
        gtk_column_view_column_set_fixed_width (col, first_width);
      gtk_column_view_append_column (self->columns, col);
      g_object_unref (col);
    }
}

void
iv_runs_table_view_show (IvRunsTableView *self, const IvRunsTable *t, int first_width)
{
  g_autofree const char **titles = NULL;

  g_return_if_fail (IV_IS_RUNS_TABLE_VIEW (self));
  titles = g_new0 (const char *, t->n_columns + 1);
  for (guint c = 0; c < t->n_columns; c++)
    titles[c] = t->titles->pdata[c];
  set_columns (self, titles, first_width);
  g_list_store_remove_all (self->rows);
  for (guint i = 0; i < t->rows->len; i++)
    {
      const IvRunsTableRow *from = &g_array_index (t->rows, IvRunsTableRow, i);
      IvTableRow *row = g_object_new (IV_TYPE_TABLE_ROW, NULL);
      row->cells = g_new0 (char *, t->n_columns + 1);
      row->keys = g_new (double, t->n_columns);
      for (guint c = 0; c < t->n_columns; c++)
        {
          row->cells[c] = iv_runs_table_cell_text (&from->cells[c]);
          /* a text cell sorts by its number when it has one ("10 of 64"), else by its text */
          row->keys[c] = from->cells[c].value;
        }
      row->index = from->index;
      g_list_store_append (self->rows, row);
      g_object_unref (row);
    }
}

static void
on_activate (GtkColumnView *view, guint position, IvRunsTableView *self)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr (IvTableRow) row = g_list_model_get_item (model, position);

  if (row)
    g_signal_emit (self, signals[SIGNAL_ROW_ACTIVATED], 0, row->index);
}

GtkColumnView *
iv_runs_table_view_get_column_view (IvRunsTableView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_TABLE_VIEW (self), NULL);
  return self->columns;
}

const char *
iv_runs_table_view_get_cell (IvRunsTableView *self, guint row, guint column)
{
  g_autoptr (IvTableRow) r = NULL;

  g_return_val_if_fail (IV_IS_RUNS_TABLE_VIEW (self), NULL);
  /* in the order shown (sorted by a column when one is chosen) */
  r = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (self->columns)), row);
  if (!r || column >= g_strv_length (r->cells))
    return NULL;
  /* the store holds the row, so its cells outlive this reference */
  return r->cells[column];
}

static void
iv_runs_table_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_RUNS_TABLE_VIEW);
  G_OBJECT_CLASS (iv_runs_table_view_parent_class)->dispose (object);
}

static void
iv_runs_table_view_class_init (IvRunsTableViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_table_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_ROW_ACTIVATED]
      = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  g_type_ensure (IV_TYPE_TABLE_ROW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-runs-table-view.ui");
  gtk_widget_class_bind_template_child (widget_class, IvRunsTableView, scroller);
  gtk_widget_class_bind_template_child (widget_class, IvRunsTableView, columns);
  gtk_widget_class_bind_template_child (widget_class, IvRunsTableView, rows);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
}

static void
iv_runs_table_view_init (IvRunsTableView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
iv_runs_table_view_new (void)
{
  return g_object_new (IV_TYPE_RUNS_TABLE_VIEW, NULL);
}
