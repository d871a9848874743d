/* iv-model-details.c: the Model workspace's Details page — replication waste, the hints
 * with the numbers that fired them, each stage's formula with symbols and with numbers,
 * and the glossary filtered by a search entry. The view sets a result on it only while it
 * is on screen; a slider step then rewrites the text of the rows it has (rebuilding the
 * page cost hundreds of milliseconds a step, issue 31). A stage's formulas, the costliest
 * text, are written only for the rows expanded. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-details.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "iv-glossary.h"
#include "iv-plain-text.h"
#include "iv-safe-text.h"
#include "iv-text.h"
#include "iv-units.h"
#include "iv-wrap-label.h"

/* The formula lines under a stage's row: with symbols, with numbers, its time, its
 * collective's cost. */
enum
{
  LINE_SYMBOLS,
  LINE_VALUES,
  LINE_TIME,
  LINE_COMM,
  N_LINES
};

typedef struct
{
  IvStageId id;
  GtkWidget *row;  /* AdwExpanderRow */
  GtkWidget *time; /* its time and bound, a GtkInscription beside the title */
  GtkWidget *lines[N_LINES];
} StageRow;

#define MAX_GLOSSARY 128
/* characters of a stage's time and bound: "999 min · compute" */
#define TIME_CHARS 17

struct _IvModelDetails
{
  GtkWidget parent_instance;

  GtkWidget *page;
  GtkWidget *waste, *hints, *formulas, *glossary; /* AdwPreferencesGroup */
  GtkWidget *search, *list;
  GPtrArray *waste_rows, *hint_rows, *glossary_rows; /* borrowed: their groups own them */
  StageRow stages[IV_N_STAGES];
  guint n_stages;
  /* the glossary's symbols in the rows' order: while they stay the same, the rows do */
  const char *symbols[MAX_GLOSSARY];
  guint n_symbols;

  IvResult result; /* what an expanded row's formulas are made from */
  gboolean has_result;
  guint kind;
  guint updates;
};

G_DEFINE_FINAL_TYPE (IvModelDetails, iv_model_details, GTK_TYPE_WIDGET)

static char *
format_value (const char *unit, double value)
{
  if (g_strcmp0 (unit, "B") == 0)
    return iv_units_format_bytes (value);
  if (g_strcmp0 (unit, "s") == 0)
    return iv_units_format_seconds (value);
  if (!unit || g_str_equal (unit, "–"))
    return iv_units_format_si (value, NULL);
  return iv_units_format_si (value, unit);
}

static GtkWidget *
group (const char *title, const char *description)
{
  GtkWidget *g = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (g), title);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (g), description);
  return g;
}

/* Sets a row's text; the same text again changes nothing (no relayout). */
static void
set_text (GtkWidget *row, const char *title, const char *subtitle)
{
  /* hints and waste name the model and the hardware, which may come from a file: plain
   * text, valid UTF-8 */
  g_autofree char *valid_title = iv_text_valid (title, -1);
  g_autofree char *valid_subtitle = iv_text_valid (subtitle ? subtitle : "", -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), valid_title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), valid_subtitle);
}

static GtkWidget *
text_row (const char *title, const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  iv_row_set_plain (row);
  set_text (row, title, subtitle);
  return row;
}

static GtkWidget *
formula_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  return label;
}

/* A row of a title and a subtitle that wrap, which looks like an AdwActionRow (the
 * sizes of its style sheet's row > box.header > box.title, the title and subtitle
 * styles) but is made of IvWrapLabels: the hints and the waste are sentences that change
 * with the sliders, and a GtkLabel lays a wrapping text out again at every size GTK asks
 * (issue 31). Nothing in it is aligned other than to fill: GTK 4.8 allocates a widget
 * that is not filling by asking its width for the height it gets, which a box of wrapping
 * labels answers by a search over widths, a layout of each label at each (AdwActionRow's
 * centred header and title box do that, and so lay a changed title out some fifty times).
 * Two expanding spacers centre the titles instead. */
static GtkWidget *
wrap_row_new (void)
{
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *title = iv_wrap_label_new (NULL), *subtitle = iv_wrap_label_new (NULL);

  /* its title is the title label's text, for searches and screen readers */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_size_request (header, -1, 50);
  gtk_widget_set_margin_top (titles, 6);
  gtk_widget_set_margin_bottom (titles, 6);
  gtk_widget_add_css_class (title, "title");
  gtk_widget_add_css_class (subtitle, "subtitle");
  gtk_widget_set_visible (subtitle, FALSE);
  gtk_box_append (GTK_BOX (titles), title);
  gtk_box_append (GTK_BOX (titles), subtitle);
  for (int i = 0; i < 3; i++)
    {
      GtkWidget *spacer = i == 1 ? titles : gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_widget_set_vexpand (spacer, i != 1);
      gtk_box_append (GTK_BOX (header), spacer);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), header);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_RELATION_LABELLED_BY, title,
                                  NULL, GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, subtitle, NULL, -1);
  g_object_set_data (G_OBJECT (row), "iv-title", title);
  g_object_set_data (G_OBJECT (row), "iv-subtitle", subtitle);
  return row;
}

/* Sets a wrap row's text; the same text again changes nothing (no relayout). */
static void
set_wrap_text (GtkWidget *row, const char *title, const char *subtitle)
{
  /* hints and waste name the model and the hardware, which may come from a file: plain
   * text, valid UTF-8 */
  g_autofree char *valid_title = iv_text_valid (title, -1);
  g_autofree char *valid_subtitle = iv_text_valid (subtitle ? subtitle : "", -1);
  GtkWidget *sub = g_object_get_data (G_OBJECT (row), "iv-subtitle");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), valid_title);
  iv_wrap_label_set_text (g_object_get_data (G_OBJECT (row), "iv-title"), valid_title);
  iv_wrap_label_set_text (IV_WRAP_LABEL (sub), valid_subtitle);
  gtk_widget_set_visible (sub, *valid_subtitle != '\0');
}

/* @rows (in @grp) made @n long: rows added at the end or taken from it, the rest kept. */
static void
resize_rows (GtkWidget *grp, GPtrArray *rows, guint n)
{
  while (rows->len < n)
    {
      GtkWidget *row = wrap_row_new ();
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (grp), row);
      g_ptr_array_add (rows, row);
    }
  while (rows->len > n)
    {
      adw_preferences_group_remove (ADW_PREFERENCES_GROUP (grp), rows->pdata[rows->len - 1]);
      g_ptr_array_remove_index (rows, rows->len - 1);
    }
}

static void
show_waste (IvModelDetails *self, const IvResult *r)
{
  resize_rows (self->waste, self->waste_rows, MAX (r->n_waste, 1));
  if (r->n_waste == 0)
    set_wrap_text (self->waste_rows->pdata[0], _ ("Nothing is replicated"), NULL);
  for (guint i = 0; i < r->n_waste; i++)
    {
      g_autofree char *bytes = iv_units_format_bytes (r->waste[i].bytes);
      g_autofree char *sub = r->waste[i].bytes > 0
                                 ? g_strdup_printf ("%s · %.1f %%", bytes, r->waste[i].percent)
                                 : g_strdup_printf ("%.1f %%", r->waste[i].percent);
      set_wrap_text (self->waste_rows->pdata[i], r->waste[i].text, sub);
    }
}

static void
show_hints (IvModelDetails *self, const IvResult *r)
{
  resize_rows (self->hints, self->hint_rows, MAX (r->n_hints, 1));
  if (r->n_hints == 0)
    set_wrap_text (self->hint_rows->pdata[0], _ ("No hints: nothing stands out"), NULL);
  for (guint i = 0; i < r->n_hints; i++)
    set_wrap_text (self->hint_rows->pdata[i], r->hints[i].text, NULL);
}

/* An expanded stage's lines, from the result shown; a collapsed one's wait until it is
 * expanded (writing every stage's formulas cost more than the rest of an update). */
static void
fill_stage (IvModelDetails *self, StageRow *sr)
{
  char *text[N_LINES];

  if (!self->has_result || !adw_expander_row_get_expanded (ADW_EXPANDER_ROW (sr->row)))
    return;
  text[LINE_SYMBOLS] = iv_stage_formula (&self->result, self->kind, sr->id, FALSE);
  text[LINE_VALUES] = iv_stage_formula (&self->result, self->kind, sr->id, TRUE);
  /* the time, with the peak of the stage's format, and a collective's cost with its
   * algorithm and numbers (§6): every time on screen can be redone by hand */
  text[LINE_TIME] = iv_stage_time_formula (&self->result, self->kind, sr->id, TRUE);
  text[LINE_COMM] = iv_stage_comm_formula (&self->result, self->kind, sr->id, TRUE);
  for (int i = 0; i < N_LINES; i++)
    {
      gboolean shown = text[i] && *text[i];
      gtk_label_set_text (GTK_LABEL (sr->lines[i]), shown ? text[i] : "");
      gtk_widget_set_visible (sr->lines[i], shown);
      g_free (text[i]);
    }
}

static void
on_stage_expanded (GtkWidget *row, GParamSpec *pspec, IvModelDetails *self)
{
  for (guint i = 0; i < self->n_stages; i++)
    if (self->stages[i].row == row)
      fill_stage (self, &self->stages[i]);
}

static void
show_stages (IvModelDetails *self, const IvResult *r, guint kind)
{
  const IvKindResult *k = &r->kinds[kind];
  IvStageId ids[IV_N_STAGES];
  guint n = 0;
  gboolean same;

  for (int s = 0; s < IV_N_STAGES; s++)
    if (k->stages[s].present)
      ids[n++] = s;
  same = n == self->n_stages;
  for (guint i = 0; same && i < n; i++)
    same = self->stages[i].id == ids[i];
  if (!same)
    {
      /* another set of stages (another model or layer kind, CP turned on): new rows, those
       * expanded before still expanded */
      gboolean expanded[IV_N_STAGES] = { FALSE };
      for (guint i = 0; i < self->n_stages; i++)
        {
          expanded[self->stages[i].id]
              = adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self->stages[i].row));
          adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self->formulas),
                                        self->stages[i].row);
        }
      for (guint i = 0; i < n; i++)
        {
          StageRow *sr = &self->stages[i];
          g_autofree char *title
              = g_strdup_printf ("%s  %s", iv_stage_id (ids[i]), iv_stage_name (ids[i]));
          /* "W_Q" typeset as the figures draw it, W with a subscript Q */
          g_autofree char *markup = iv_text_symbols_markup (title);
          sr->id = ids[i];
          sr->row = adw_expander_row_new ();
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (sr->row), TRUE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (sr->row), markup);
          /* the time changes with every step: beside the title, not in the row's subtitle,
           * which wraps (GTK measures a wrapping label by laying its text out again at
           * each width it is asked about), and in a GtkInscription as wide as the widest
           * time and bound ("999 min · compute"), set right: a new text is drawn where the
           * old one was, without the layout pass a GtkLabel asks for at every text (a
           * Details step at 1920×1080 about 2 ms cheaper, bench-model-details) */
          sr->time = gtk_inscription_new (NULL);
          gtk_inscription_set_min_chars (GTK_INSCRIPTION (sr->time), TIME_CHARS);
          gtk_inscription_set_nat_chars (GTK_INSCRIPTION (sr->time), TIME_CHARS);
          gtk_inscription_set_xalign (GTK_INSCRIPTION (sr->time), 1);
          gtk_inscription_set_text_overflow (GTK_INSCRIPTION (sr->time),
                                             GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
          gtk_widget_set_valign (sr->time, GTK_ALIGN_CENTER);
          gtk_widget_add_css_class (sr->time, "numeric");
          gtk_widget_add_css_class (sr->time, "dim-label");
          adw_expander_row_add_action (ADW_EXPANDER_ROW (sr->row), sr->time);
          for (int l = 0; l < N_LINES; l++)
            {
              sr->lines[l] = formula_label ();
              adw_expander_row_add_row (ADW_EXPANDER_ROW (sr->row), sr->lines[l]);
            }
          adw_expander_row_set_expanded (ADW_EXPANDER_ROW (sr->row), expanded[ids[i]]);
          g_signal_connect (sr->row, "notify::expanded", G_CALLBACK (on_stage_expanded), self);
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->formulas), sr->row);
        }
      self->n_stages = n;
    }
  for (guint i = 0; i < n; i++)
    {
      const IvStage *st = &k->stages[ids[i]];
      g_autofree char *time = iv_units_format_seconds (st->visible_s);
      g_autofree char *sub = g_strdup_printf ("%s · %s", time, iv_bound_to_string (st->bound));
      gtk_inscription_set_text (GTK_INSCRIPTION (self->stages[i].time), sub);
      fill_stage (self, &self->stages[i]);
    }
}

static void
filter_glossary (IvModelDetails *self)
{
  g_autofree char *needle
      = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->search)), -1);

  for (guint i = 0; i < self->glossary_rows->len; i++)
    {
      GtkWidget *row = self->glossary_rows->pdata[i];
      const char *hay = g_object_get_data (G_OBJECT (row), "iv-search");
      gtk_widget_set_visible (row, !*needle || (hay && strstr (hay, needle) != NULL));
    }
}

static void
show_glossary (IvModelDetails *self, const IvResult *r, guint kind)
{
  IvGlossaryEntry entries[MAX_GLOSSARY];
  guint n = iv_glossary (r, kind, entries, G_N_ELEMENTS (entries));
  gboolean same = n == self->n_symbols;

  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (self->symbols[i], entries[i].symbol) == 0;
  if (!same)
    {
      /* another set of symbols: the rows made again, filtered as the entry says */
      for (guint i = 0; i < self->glossary_rows->len; i++)
        gtk_list_box_remove (GTK_LIST_BOX (self->list), self->glossary_rows->pdata[i]);
      g_ptr_array_set_size (self->glossary_rows, 0);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *hay = g_strdup_printf ("%s %s", entries[i].symbol, entries[i].meaning);
          GtkWidget *row = text_row (entries[i].symbol, entries[i].meaning);
          GtkWidget *v = gtk_label_new (NULL);
          gtk_label_set_selectable (GTK_LABEL (v), TRUE);
          gtk_widget_add_css_class (v, "numeric");
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), v);
          g_object_set_data (G_OBJECT (row), "iv-value", v);
          g_object_set_data_full (G_OBJECT (row), "iv-search", g_utf8_casefold (hay, -1), g_free);
          gtk_list_box_append (GTK_LIST_BOX (self->list), row);
          g_ptr_array_add (self->glossary_rows, row);
          self->symbols[i] = entries[i].symbol; /* static strings of iv-glossary.c */
        }
      self->n_symbols = n;
      filter_glossary (self);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = format_value (entries[i].unit, entries[i].value);
      GtkWidget *row = self->glossary_rows->pdata[i];
      gtk_label_set_text (g_object_get_data (G_OBJECT (row), "iv-value"), value);
    }
}

static void
iv_model_details_dispose (GObject *object)
{
  IvModelDetails *self = IV_MODEL_DETAILS (object);

  g_clear_pointer (&self->page, gtk_widget_unparent);
  G_OBJECT_CLASS (iv_model_details_parent_class)->dispose (object);
}

static void
iv_model_details_finalize (GObject *object)
{
  IvModelDetails *self = IV_MODEL_DETAILS (object);

  g_ptr_array_unref (self->waste_rows);
  g_ptr_array_unref (self->hint_rows);
  g_ptr_array_unref (self->glossary_rows);
  G_OBJECT_CLASS (iv_model_details_parent_class)->finalize (object);
}

static void
iv_model_details_class_init (IvModelDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_model_details_dispose;
  object_class->finalize = iv_model_details_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
iv_model_details_init (IvModelDetails *self)
{
  self->waste_rows = g_ptr_array_new ();
  self->hint_rows = g_ptr_array_new ();
  self->glossary_rows = g_ptr_array_new ();
  self->page = adw_preferences_page_new ();
  self->waste = group (_ ("Replication Waste"),
                       _ ("Memory and PEs spent on copies rather than on the model"));
  self->hints = group (_ ("Hints"), _ ("What would make this configuration faster, and why"));
  self->formulas = group (_ ("Stage Formulas"), _ ("FLOPs, bytes and communication of each stage, "
                                                   "with symbols and with this configuration's "
                                                   "numbers"));
  self->glossary = group (_ ("Glossary"), _ ("Every symbol, its meaning, unit and current value"));
  self->search = gtk_search_entry_new ();
  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  /* gtk_search_entry_set_placeholder_text () is GTK 4.10; the property is older. */
  g_object_set (self->search, "placeholder-text", _ ("Search symbols"), NULL);
  gtk_widget_set_margin_bottom (self->search, 6);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (filter_glossary), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->glossary), self->search);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->glossary), self->list);

  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self->page), ADW_PREFERENCES_GROUP (self->waste));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self->page), ADW_PREFERENCES_GROUP (self->hints));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self->page),
                            ADW_PREFERENCES_GROUP (self->formulas));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self->page),
                            ADW_PREFERENCES_GROUP (self->glossary));
  gtk_widget_set_parent (self->page, GTK_WIDGET (self));
}

GtkWidget *
iv_model_details_new (void)
{
  return g_object_new (IV_TYPE_MODEL_DETAILS, NULL);
}

void
iv_model_details_set_result (IvModelDetails *self, const IvResult *r, guint kind)
{
  g_return_if_fail (IV_IS_MODEL_DETAILS (self));
  g_return_if_fail (r != NULL && r->ok && r->n_kinds > 0);
  /* a result without its waste and hints would read as "nothing stands out" */
  g_return_if_fail (r->has_hints);

  self->updates++;
  self->result = *r;
  self->has_result = TRUE;
  self->kind = MIN (kind, r->n_kinds - 1);
  show_waste (self, r);
  show_hints (self, r);
  show_stages (self, r, self->kind);
  show_glossary (self, r, self->kind);
}

guint
iv_model_details_get_updates (IvModelDetails *self)
{
  g_return_val_if_fail (IV_IS_MODEL_DETAILS (self), 0);
  return self->updates;
}
