/* iv-model-details.c: the Model workspace's Details page — replication waste, the hints
 * with the numbers that fired them, each stage's formula with symbols and with numbers,
 * and the glossary filtered by a search entry. Built from one result; the view rebuilds
 * it only while it is on screen. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-details.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "iv-glossary.h"
#include "iv-plain-text.h"
#include "iv-safe-text.h"
#include "iv-units.h"

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

static GtkWidget *
text_row (const char *title, const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  /* hints and waste name the model and the hardware, which may come from a file: plain
   * text, valid UTF-8 */
  g_autofree char *valid_title = iv_text_valid (title, -1);
  g_autofree char *valid_subtitle = subtitle ? iv_text_valid (subtitle, -1) : NULL;
  iv_row_set_plain (row);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), valid_title);
  if (valid_subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), valid_subtitle);
  return row;
}

static GtkWidget *
formula_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
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

static void
on_search_changed (GtkSearchEntry *entry, GtkWidget *glossary)
{
  g_autofree char *needle = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (entry)), -1);
  GtkWidget *list = g_object_get_data (G_OBJECT (glossary), "iv-list");

  for (GtkWidget *row = gtk_widget_get_first_child (list); row;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *hay = g_object_get_data (G_OBJECT (row), "iv-search");
      if (hay)
        gtk_widget_set_visible (row, !*needle || strstr (hay, needle) != NULL);
    }
}

GtkWidget *
iv_model_details_new (const IvResult *r, guint kind)
{
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *waste = group (_ ("Replication Waste"),
                            _ ("Memory and PEs spent on copies rather than on the model"));
  GtkWidget *hints = group (_ ("Hints"), _ ("What would make this configuration faster, and why"));
  GtkWidget *formulas
      = group (_ ("Stage Formulas"), _ ("FLOPs, bytes and communication of each stage, with "
                                        "symbols and with this configuration's numbers"));
  GtkWidget *glossary
      = group (_ ("Glossary"), _ ("Every symbol, its meaning, unit and current value"));
  GtkWidget *search = gtk_search_entry_new ();
  GtkWidget *list = gtk_list_box_new ();
  IvGlossaryEntry entries[128];
  guint n;

  for (guint i = 0; i < r->n_waste; i++)
    {
      g_autofree char *bytes = iv_units_format_bytes (r->waste[i].bytes);
      g_autofree char *sub = r->waste[i].bytes > 0
                                 ? g_strdup_printf ("%s · %.1f %%", bytes, r->waste[i].percent)
                                 : g_strdup_printf ("%.1f %%", r->waste[i].percent);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (waste), text_row (r->waste[i].text, sub));
    }
  if (r->n_waste == 0)
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (waste),
                               text_row (_ ("Nothing is replicated"), NULL));

  for (guint i = 0; i < r->n_hints; i++)
    {
      GtkWidget *row = text_row (r->hints[i].text, NULL);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (hints), row);
    }
  if (r->n_hints == 0)
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (hints),
                               text_row (_ ("No hints: nothing stands out"), NULL));

  for (int s = 0; s < IV_N_STAGES; s++)
    {
      const IvStage *st = &r->kinds[kind].stages[s];
      g_autofree char *with_symbols = NULL, *with_values = NULL, *title = NULL, *time = NULL;
      GtkWidget *row;
      if (!st->present)
        continue;
      with_symbols = iv_stage_formula (r, kind, s, FALSE);
      with_values = iv_stage_formula (r, kind, s, TRUE);
      time = iv_units_format_seconds (st->visible_s);
      title = g_strdup_printf ("%s  %s", iv_stage_id (s), iv_stage_name (s));
      row = adw_expander_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      {
        g_autofree char *sub = g_strdup_printf ("%s · %s", time, iv_bound_to_string (st->bound));
        adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), sub);
      }
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), formula_label (with_symbols));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), formula_label (with_values));
      /* the time, with the peak of the stage's format, and a collective's cost with its
       * algorithm and numbers (§6): every time on screen can be redone by hand */
      {
        g_autofree char *t = iv_stage_time_formula (r, kind, s, TRUE);
        g_autofree char *comm = iv_stage_comm_formula (r, kind, s, TRUE);
        if (t && *t)
          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), formula_label (t));
        if (comm)
          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), formula_label (comm));
      }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (formulas), row);
    }

  n = iv_glossary (r, kind, entries, G_N_ELEMENTS (entries));
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = format_value (entries[i].unit, entries[i].value);
      g_autofree char *hay = g_strdup_printf ("%s %s", entries[i].symbol, entries[i].meaning);
      GtkWidget *row = text_row (entries[i].symbol, entries[i].meaning);
      GtkWidget *v = gtk_label_new (value);
      gtk_label_set_selectable (GTK_LABEL (v), TRUE);
      gtk_widget_add_css_class (v, "numeric");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), v);
      g_object_set_data_full (G_OBJECT (row), "iv-search", g_utf8_casefold (hay, -1), g_free);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  g_object_set_data (G_OBJECT (glossary), "iv-list", list);
  /* gtk_search_entry_set_placeholder_text () is GTK 4.10; the property is older. */
  g_object_set (search, "placeholder-text", _ ("Search symbols"), NULL);
  gtk_widget_set_margin_bottom (search, 6);
  g_signal_connect (search, "search-changed", G_CALLBACK (on_search_changed), glossary);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (glossary), search);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (glossary), list);

  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (waste));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (hints));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (formulas));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (glossary));
  return page;
}
