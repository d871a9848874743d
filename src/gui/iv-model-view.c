/* iv-model-view.c: the Model workspace's live view. Every control change re-evaluates
 * the model (a few microseconds) and redraws the visible figure with the same renderer
 * the command line exports with. A combination the model rejects keeps the last valid
 * result on screen, greyed, with the reason under the controls. The Details page (waste,
 * hints, formulas, glossary) is rebuilt only while it is shown. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

#include "iv-hardware-editor.h"
#include "iv-model-details.h"
#include "iv-model-stages.h"
#include "iv-saved.h"
#include "iv-render-model.h"
#include "iv-text.h"
#include "iv-units.h"

typedef struct
{
  const char *name;    /* stack page name, also the exported file's name */
  const char *title;
  IvRenderFunc render;
} FigureInfo;

static const FigureInfo figure_info[] = {
  { "pipeline", N_("Pipeline"), iv_render_pipeline },
  { "stages", N_("Stages"), iv_render_stages },
  { "memory", N_("Memory"), iv_render_memory },
  { "roofline", N_("Roofline"), iv_render_roofline },
  { "sharding", N_("Sharding"), iv_render_sharding },
  { "topology", N_("Topology"), iv_render_topology },
  { "sweep", N_("Sweep"), iv_render_sweep },
};

struct _IvModelView
{
  GtkWidget parent_instance;

  GPtrArray *models;          /* const IvModel *: the presets, then imported models */
  GPtrArray *imported;        /* IvModel *, owned; outlive any result pointing at them */
  GPtrArray *hardware;        /* const IvHardware * (the presets) */

  IvResult result;            /* the last configuration that evaluated */
  gboolean has_result;
  char *error;                /* why the current controls do not evaluate, or NULL */
  IvModelFigure model_figure;
  IvFigure figure;

  GtkWidget *paned;
  GtkStringList *model_names;
  GtkDropDown *model_drop;
  GtkDropDown *hardware_drop;
  IvHardwareEditor *hw_editor;
  GPtrArray *custom_hw;       /* IvHardware *, owned: every edited SIP a result may point at */
  const IvHardware *hw_current; /* the preset, or the last valid edit of it */
  char *hw_error;             /* why the edited fields are not a SIP, or NULL */
  GtkDropDown *bytes_drops[4]; /* weights, activations, KV cache, partials */
  GtkDropDown *mode_drop;
  GtkSpinButton *batch_spin;
  GtkRange *tp_scale;
  GtkRange *cp_scale;
  GtkRange *tq_scale;
  GtkSpinButton *context_spin;
  GtkDropDown *tp_place_drop;
  GtkDropDown *cp_place_drop;
  GtkDropDown *ring_drop;
  GtkDropDown *kind_drop;
  GtkStringList *kind_names;
  GtkLabel *error_label;
  GtkLabel *summary_label;
  GtkStack *figure_stack;
  GtkWidget *areas[G_N_ELEMENTS (figure_info)];
  GtkWidget *details_box;     /* holds the Details page, rebuilt when shown and stale */
  gboolean details_stale;
  IvModelStages *stages;      /* the Stages page on screen (Export draws the typeset table) */
  gboolean stages_stale;

  /* Save & compare */
  char *saved_path;
  GPtrArray *saved;           /* IvSaved */
  GPtrArray *imported_paths;  /* char *, the config.json of each imported model */
  GArray *compare_results;    /* IvResult, one per saved configuration that evaluates */
  IvCompareTable *compare;
  IvFigure compare_figure;
  GtkEntry *save_entry;
  GtkListBox *saved_list;
  GtkLabel *saved_error;
  GtkWidget *compare_area;
  GtkWidget *tabs;            /* linked toggle buttons, one per stack page */
  gboolean updating;          /* controls being set from code: no re-evaluation */
};

G_DEFINE_FINAL_TYPE (IvModelView, iv_model_view, GTK_TYPE_WIDGET)

enum { SIGNAL_CHANGED, SIGNAL_SAVED_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static gint64
pow2 (GtkRange *range)
{
  return (gint64) 1 << (int) lround (gtk_range_get_value (range));
}

static char *
format_pow2 (GtkScale *scale, double value, gpointer user_data)
{
  (void) scale, (void) user_data;
  return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) 1 << (int) lround (value));
}

static const IvModel *
current_model (IvModelView *self)
{
  guint i = gtk_drop_down_get_selected (self->model_drop);
  return i < self->models->len ? self->models->pdata[i] : NULL;
}

static const IvHardware *
selected_preset (IvModelView *self)
{
  guint i = gtk_drop_down_get_selected (self->hardware_drop);
  return i < self->hardware->len ? self->hardware->pdata[i] : NULL;
}

static const IvHardware *
current_hardware (IvModelView *self)
{
  return self->hw_current ? self->hw_current : selected_preset (self);
}

/* Bytes per element offered for each datatype, widest first. */
static const double bytes_choices[] = { 4, 2, 1, 0.5 };

static double
bytes_of (GtkDropDown *drop)
{
  return bytes_choices[MIN (gtk_drop_down_get_selected (drop), G_N_ELEMENTS (bytes_choices) - 1)];
}

static void
select_bytes (GtkDropDown *drop, double bytes)
{
  for (guint i = 0; i < G_N_ELEMENTS (bytes_choices); i++)
    if (bytes_choices[i] == bytes)
      gtk_drop_down_set_selected (drop, i);
}

static void
redraw (IvModelView *self)
{
  const char *name;

  if (!self->figure_stack)
    return;
  name = gtk_stack_get_visible_child_name (self->figure_stack);
  if (g_strcmp0 (name, "details") == 0 && self->details_stale && self->has_result)
    {
      GtkWidget *old = gtk_widget_get_first_child (self->details_box);
      GtkWidget *details = iv_model_details_new (&self->result, self->model_figure.kind);
      if (old)
        gtk_box_remove (GTK_BOX (self->details_box), old);
      gtk_widget_set_vexpand (details, TRUE);
      gtk_box_append (GTK_BOX (self->details_box), details);
      self->details_stale = FALSE;
    }
  if (g_strcmp0 (name, "compare") == 0)
    gtk_widget_queue_draw (self->compare_area);
  if (g_strcmp0 (name, "stages") == 0 && self->stages_stale && self->has_result)
    {
      iv_model_stages_set_result (self->stages, &self->result, self->model_figure.kind);
      self->stages_stale = FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
    if (g_strcmp0 (name, figure_info[i].name) == 0)
      {
        self->figure.render = figure_info[i].render;
        self->figure.name = figure_info[i].name;
        gtk_widget_queue_draw (self->areas[i]);
      }
  /* Greyed while the controls break a constraint: what is shown is the last valid result. */
  gtk_widget_set_opacity (GTK_WIDGET (self->figure_stack), self->error ? 0.4 : 1.0);
}

/* The layer kinds of the current result (dense, moe, local, global…), keeping the
 * selection when the kinds stay the same. */
static void
sync_kinds (IvModelView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->kind_names));
  gboolean same = n == self->result.n_kinds;

  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (self->kind_names, i),
                      self->result.kinds[i].name) == 0;
  if (!same)
    {
      const char *names[IV_MAX_KINDS + 1] = { NULL };
      guint most = 0;
      for (guint i = 0; i < self->result.n_kinds; i++)
        {
          names[i] = self->result.kinds[i].name;
          if (self->result.kinds[i].layers > self->result.kinds[most].layers)
            most = i;
        }
      gtk_string_list_splice (self->kind_names, 0, n, names);
      gtk_drop_down_set_selected (self->kind_drop, most);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->kind_drop), self->result.n_kinds > 1);
  self->model_figure.kind = MIN (gtk_drop_down_get_selected (self->kind_drop),
                                 self->result.n_kinds - 1);
}

static void
recompute (IvModelView *self)
{
  const IvModel *model = current_model (self);
  const IvHardware *hw = current_hardware (self);
  IvConfig c;
  IvResult r;

  if (self->updating || !model || !hw)
    return;
  iv_config_init (&c);
  c.mode = gtk_drop_down_get_selected (self->mode_drop) == 0 ? IV_MODE_PREFILL : IV_MODE_DECODE;
  c.B = gtk_spin_button_get_value_as_int (self->batch_spin);
  c.T = pow2 (self->tq_scale);
  c.P = gtk_spin_button_get_value_as_int (self->context_spin);
  c.t = pow2 (self->tp_scale);
  c.c = pow2 (self->cp_scale);
  c.place_tp = gtk_drop_down_get_selected (self->tp_place_drop) == 0 ? IV_PLACE_PE : IV_PLACE_CUBE;
  c.place_cp = gtk_drop_down_get_selected (self->cp_place_drop) == 0 ? IV_PLACE_PE : IV_PLACE_CUBE;
  c.ring = gtk_drop_down_get_selected (self->ring_drop) == 0 ? IV_RING_KV : IV_RING_QOML;
  c.e_w = bytes_of (self->bytes_drops[0]);
  c.e_a = bytes_of (self->bytes_drops[1]);
  c.e_kv = bytes_of (self->bytes_drops[2]);
  c.e_p = bytes_of (self->bytes_drops[3]);
  /* The ring variant only exists in prefill with CP > 1. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->ring_drop), c.mode == IV_MODE_PREFILL && c.c > 1);

  g_clear_pointer (&self->error, g_free);
  if (self->hw_error)
    {
      /* Edited hardware that is not a SIP: like any other broken constraint. */
      self->error = g_strdup (self->hw_error);
      gtk_label_set_text (self->error_label, self->hw_error);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
  else if (iv_model_evaluate (model, hw, &c, &r))
    {
      g_autofree char *step = iv_units_format_seconds (r.step_s);
      g_autofree char *summary = NULL;
      self->result = r;
      self->has_result = TRUE;
      self->details_stale = TRUE;
      self->stages_stale = TRUE;
      sync_kinds (self);
      summary = g_strdup_printf (_("Step %s · %.4g tokens/s · %s"), step, r.tokens_per_s,
                                 r.fits ? _("fits in memory") : _("does not fit in memory"));
      gtk_label_set_text (self->summary_label, summary);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
    }
  else
    {
      self->error = g_strdup (r.error);
      gtk_label_set_text (self->error_label, r.error);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
  redraw (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_kind_selected (IvModelView *self)
{
  if (self->has_result)
    self->model_figure.kind = MIN (gtk_drop_down_get_selected (self->kind_drop),
                                   self->result.n_kinds - 1);
  self->details_stale = TRUE;
  self->stages_stale = TRUE;
  redraw (self);
}

/* Makes @hw the SIP the model runs on: the editor shows it and the sliders cover what it
 * can hold (TP and CP up to all of its PEs). */
static void
use_hardware (IvModelView *self, const IvHardware *hw)
{
  gboolean was_updating = self->updating;
  double top = floor (log2 ((double) hw->n_pe * hw->X * hw->Y));

  self->hw_current = hw;
  g_clear_pointer (&self->hw_error, g_free);
  self->updating = TRUE;
  for (int i = 0; i < 2; i++)
    {
      GtkRange *range = i == 0 ? self->tp_scale : self->cp_scale;
      gtk_range_set_range (range, 0, top);
      gtk_scale_clear_marks (GTK_SCALE (range));
      for (int v = 0; v <= top; v++)
        gtk_scale_add_mark (GTK_SCALE (range), v, GTK_POS_BOTTOM, NULL);
    }
  self->updating = was_updating;
}

static void
on_hardware_selected (IvModelView *self)
{
  const IvHardware *hw = selected_preset (self);

  if (!hw || self->updating)
    return;
  use_hardware (self, hw);
  iv_hardware_editor_set (self->hw_editor, hw);
  recompute (self);
}

/* An edit makes a new SIP (kept: earlier results and saved comparisons point at it); one
 * that breaks a rule keeps the last result greyed with the rule. */
static void
on_hardware_edited (IvModelView *self)
{
  const IvHardware *preset = selected_preset (self);
  g_autofree char *name = g_strdup_printf ("%s (edited)", preset ? preset->name : "custom");
  g_autoptr (GError) error = NULL;
  IvHardware *hw = iv_hardware_editor_get (self->hw_editor, name, &error);

  if (!hw)
    {
      g_free (self->hw_error);
      self->hw_error = g_strdup (error->message);
      recompute (self);
      return;
    }
  g_ptr_array_add (self->custom_hw, hw);
  use_hardware (self, hw);
  recompute (self);
}

static void
draw_figure (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelView *self = IV_MODEL_VIEW (user_data);
  const FigureInfo *info = g_object_get_data (G_OBJECT (area), "iv-figure");
  IvRenderOptions options = { adw_style_manager_get_dark (adw_style_manager_get_default ())
                                  ? IV_THEME_DARK : IV_THEME_LIGHT, 1.0 };
  g_autoptr (GError) error = NULL;

  if (!self->has_result)
    return;
  if (!info->render (cr, &self->model_figure, &options, width, height, &error))
    g_warning ("%s: %s", info->name, error->message);
}


/* ---- save & compare --------------------------------------------------------------- */

static const char *
imported_path (IvModelView *self, const IvModel *model)
{
  for (guint i = 0; i < self->imported->len; i++)
    if (self->imported->pdata[i] == model)
      return self->imported_paths->pdata[i];
  return NULL;
}

static void
show_saved_error (IvModelView *self, const char *message)
{
  gtk_label_set_text (self->saved_error, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->saved_error), message != NULL);
}

/* Every saved configuration evaluated again (a preset may have changed since), in the
 * comparison table; those that no longer resolve are named under the list. */
static void
refresh_compare (IvModelView *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) results = g_ptr_array_new ();
  g_autoptr (GString) problems = g_string_new (NULL);

  g_array_set_size (self->compare_results, self->saved->len);
  for (guint i = 0; i < self->saved->len; i++)
    {
      const IvSaved *sv = self->saved->pdata[i];
      IvResult *r = &g_array_index (self->compare_results, IvResult, i);
      const IvModel *model;
      const IvHardware *hw;
      g_autoptr (GError) error = NULL;
      if (!iv_saved_resolve (sv, self->imported, &model, &hw, &error))
        {
          g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "", error->message);
          continue;
        }
      if (!iv_model_evaluate (model, hw, &sv->config, r))
        {
          g_string_append_printf (problems, "%s%s: %s", problems->len ? "\n" : "", sv->name, r->error);
          continue;
        }
      g_ptr_array_add (names, sv->name);
      g_ptr_array_add (results, r);
    }
  g_clear_pointer (&self->compare, iv_compare_free);
  self->compare = iv_compare_build ((const IvResult *const *) results->pdata,
                                    (const char *const *) names->pdata, results->len);
  self->compare_figure.data = self->compare;
  if (problems->len)
    show_saved_error (self, problems->str);
  if (self->compare_area)
    gtk_widget_queue_draw (self->compare_area);
}

static void
update_save_placeholder (IvModelView *self)
{
  g_autofree char *next = iv_saved_next_name (self->saved);
  g_object_set (self->save_entry, "placeholder-text", next, NULL);
}

static void rebuild_saved_list (IvModelView *self);

static gboolean
write_saved (IvModelView *self, GError **error)
{
  return iv_saved_save (self->saved, self->saved_path, error);
}

static void
on_delete_clicked (GtkButton *button, IvModelView *self)
{
  IvSaved *target = g_object_get_data (G_OBJECT (button), "iv-saved");
  g_autoptr (GError) error = NULL;
  guint index;

  if (!g_ptr_array_find (self->saved, target, &index))
    return;
  {
    IvSaved *removed = g_ptr_array_steal_index (self->saved, index);
    if (!write_saved (self, &error))
      {
        /* Nothing changes unless the file does. */
        g_ptr_array_insert (self->saved, (int) index, removed);
        show_saved_error (self, error->message);
        return;
      }
    iv_saved_free (removed);
  }
  show_saved_error (self, NULL);
  rebuild_saved_list (self);
  refresh_compare (self);
  update_save_placeholder (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
}

static void
on_saved_activated (GtkListBox *box, GtkListBoxRow *row, IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  if (!iv_model_view_load_saved (self, (guint) gtk_list_box_row_get_index (row), &error))
    show_saved_error (self, error->message);
}

static void
rebuild_saved_list (IvModelView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->saved_list))))
    gtk_list_box_remove (self->saved_list, child);
  for (guint i = 0; i < self->saved->len; i++)
    {
      IvSaved *sv = self->saved->pdata[i];
      g_autofree char *sub = g_strdup_printf ("%s · %s · %s · TP %" G_GINT64_FORMAT " · CP %" G_GINT64_FORMAT,
                                              sv->model, sv->hardware, iv_mode_to_string (sv->config.mode),
                                              sv->config.t, sv->config.c);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *del = gtk_button_new_from_icon_name ("user-trash-symbolic");
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sv->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), sub);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_widget_set_tooltip_text (del, _("Delete this saved configuration"));
      gtk_widget_set_valign (del, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (del, "flat");
      g_object_set_data (G_OBJECT (del), "iv-saved", sv);
      g_signal_connect (del, "clicked", G_CALLBACK (on_delete_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), del);
      gtk_list_box_append (self->saved_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->saved_list), self->saved->len > 0);
}

static void
on_save_clicked (IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->save_entry));

  if (!iv_model_view_save (self, *name ? name : NULL, &error))
    {
      show_saved_error (self, error->message);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->save_entry), "");
}

/* A file that cannot be read is moved aside under a name of its own (never overwriting
 * an earlier copy, never overwritten by the next save) and the reason stays on screen.
 * Configurations that cannot be read are left out and named; the file as it was is kept
 * aside too, since the next save writes only the good ones. */
static void
load_saved_file (IvModelView *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) skipped = NULL;
  GPtrArray *list = iv_saved_load (self->saved_path, &skipped, &error);
  g_autofree char *aside = NULL;
  g_autofree char *message = NULL;

  if (!list || (skipped && skipped->len > 0))
    {
      g_autoptr (GError) aside_error = NULL;
      g_autoptr (GString) text = g_string_new (error ? error->message : NULL);
      aside = iv_saved_set_aside (self->saved_path, list == NULL, &aside_error);
      for (guint i = 0; list && i < skipped->len; i++)
        g_string_append_printf (text, "%s%s", i ? "\n" : "", (const char *) skipped->pdata[i]);
      if (list)
        g_string_append_printf (text, ngettext ("\nThat configuration was left out.",
                                                "\nThose configurations were left out.",
                                                skipped->len));
      if (aside)
        g_string_append_printf (text, list ? _("\nThe file as it was is kept as %s.")
                                           : _("\nThe file was kept as %s."), aside);
      else if (aside_error)
        g_string_append_printf (text, "\n%s", aside_error->message);
      message = g_string_free (g_steal_pointer (&text), FALSE);
      g_message ("%s", message);
      show_saved_error (self, message);
    }
  if (!list)
    list = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_saved_free);
  g_clear_pointer (&self->saved, g_ptr_array_unref);
  self->saved = list;
}

static void
draw_compare (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelView *self = IV_MODEL_VIEW (user_data);
  IvRenderOptions options = { adw_style_manager_get_dark (adw_style_manager_get_default ())
                                  ? IV_THEME_DARK : IV_THEME_LIGHT, 1.0 };
  IvText text;

  if (self->compare && self->compare->n > 0)
    {
      iv_render_compare (cr, self->compare, &options, width, height, NULL);
      return;
    }
  iv_text_init (&text, cr, 14);
  iv_text_show (&text, cr, _("Save configurations to compare them here."), width / 2.0,
                height / 2.0, 0.5, 0.5, 1.0, FALSE, width - 40,
                &iv_theme_get_colors (options.theme)->foreground_dim);
  iv_text_clear (&text);
}

static void
on_copy_csv (IvModelView *self)
{
  g_autofree char *csv = iv_model_view_get_compare_csv (self);
  if (csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

static GtkWidget *
build_saved_section (IvModelView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Saved Configurations"));
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Save"));

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_margin_top (box, 18);
  self->save_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->save_entry), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_entry),
                               _("A name for this configuration (empty: the next configN)"));
  g_signal_connect_swapped (self->save_entry, "activate", G_CALLBACK (on_save_clicked), self);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_tooltip_text (button, _("Save this configuration to compare it later"));
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (on_save_clicked), self);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->save_entry));
  gtk_box_append (GTK_BOX (row), button);
  self->saved_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->saved_list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->saved_list), "boxed-list");
  g_signal_connect (self->saved_list, "row-activated", G_CALLBACK (on_saved_activated), self);
  self->saved_error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->saved_error, TRUE);
  gtk_label_set_wrap_mode (self->saved_error, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->saved_error, 0);
  gtk_label_set_selectable (self->saved_error, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->saved_error), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->saved_error), FALSE);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->saved_error));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->saved_list));
  return box;
}

static GtkWidget *
build_compare_page (IvModelView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *copy = gtk_button_new_with_mnemonic (_("Copy as _CSV"));

  gtk_widget_set_halign (copy, GTK_ALIGN_END);
  gtk_widget_set_margin_end (copy, 12);
  gtk_widget_set_margin_top (copy, 6);
  gtk_widget_set_tooltip_text (copy, _("Copy the comparison to the clipboard as CSV"));
  g_signal_connect_swapped (copy, "clicked", G_CALLBACK (on_copy_csv), self);
  self->compare_area = gtk_drawing_area_new ();
  gtk_widget_set_vexpand (self->compare_area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->compare_area), draw_compare, self, NULL);
  gtk_box_append (GTK_BOX (box), copy);
  gtk_box_append (GTK_BOX (box), self->compare_area);
  return box;
}

static GtkWidget *
label_for (GtkGrid *grid, int row, const char *text, GtkWidget *control)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
  gtk_widget_set_hexpand (control, TRUE);
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, control, 1, row, 1, 1);
  return control;
}

static GtkDropDown *
choice (const char *const *items, GCallback changed, IvModelView *self)
{
  GtkDropDown *drop = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (items));
  g_signal_connect_swapped (drop, "notify::selected", changed, self);
  return drop;
}

static GtkRange *
log2_scale (double top, double value, IvModelView *self)
{
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, top, 1);
  gtk_scale_set_digits (GTK_SCALE (scale), 0);
  gtk_scale_set_draw_value (GTK_SCALE (scale), TRUE);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_RIGHT);
  gtk_scale_set_format_value_func (GTK_SCALE (scale), format_pow2, NULL, NULL);
  gtk_range_set_round_digits (GTK_RANGE (scale), 0);
  gtk_range_set_value (GTK_RANGE (scale), value);
  for (int v = 0; v <= top; v++)
    gtk_scale_add_mark (GTK_SCALE (scale), v, GTK_POS_BOTTOM, NULL);
  g_signal_connect_swapped (scale, "value-changed", G_CALLBACK (recompute), self);
  return GTK_RANGE (scale);
}

static GtkSpinButton *
spin (double lo, double hi, double step, double value, IvModelView *self)
{
  GtkWidget *s = gtk_spin_button_new_with_range (lo, hi, step);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (s), value);
  g_signal_connect_swapped (s, "value-changed", G_CALLBACK (recompute), self);
  return GTK_SPIN_BUTTON (s);
}

static GtkWidget *
build_controls (IvModelView *self)
{
  static const char *const modes[] = { N_("Prefill"), N_("Decode"), NULL };
  static const char *const places[] = { N_("PEs"), N_("Cubes"), NULL };
  static const char *const rings[] = { N_("K/V ring"), N_("Q+O/m/l ring"), NULL };
  const char *translated_modes[] = { _(modes[0]), _(modes[1]), NULL };
  const char *translated_places[] = { _(places[0]), _(places[1]), NULL };
  const char *translated_rings[] = { _(rings[0]), _(rings[1]), NULL };
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  GtkWidget *scroller = gtk_scrolled_window_new (), *box;
  g_autoptr (GtkStringList) hw_names = gtk_string_list_new (NULL);
  GtkExpression *expression;
  int row = 0;

  gtk_grid_set_row_spacing (grid, 10);
  gtk_grid_set_column_spacing (grid, 12);

  /* Models: searchable by name; the presets come grouped by family from their table. */
  self->model_names = gtk_string_list_new (NULL);
  for (guint i = 0; i < self->models->len; i++)
    gtk_string_list_append (self->model_names, ((const IvModel *) self->models->pdata[i])->name);
  self->model_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->model_names)), NULL));
  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  gtk_drop_down_set_expression (self->model_drop, expression);
  gtk_expression_unref (expression);
  gtk_drop_down_set_enable_search (self->model_drop, TRUE);
  for (guint i = 0; i < self->models->len; i++)
    if (g_str_equal (((const IvModel *) self->models->pdata[i])->name, "Llama-3.1-8B"))
      gtk_drop_down_set_selected (self->model_drop, i);
  g_signal_connect_swapped (self->model_drop, "notify::selected", G_CALLBACK (recompute), self);
  {
    /* Any Hugging Face config.json joins the models through the window's Open. */
    GtkWidget *pick = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
    GtkWidget *import = gtk_button_new_from_icon_name ("document-open-symbolic");
    gtk_actionable_set_action_name (GTK_ACTIONABLE (import), "win.open");
    gtk_widget_set_tooltip_text (import, _("Import a Hugging Face config.json"));
    gtk_widget_set_hexpand (GTK_WIDGET (self->model_drop), TRUE);
    gtk_box_append (GTK_BOX (pick), GTK_WIDGET (self->model_drop));
    gtk_box_append (GTK_BOX (pick), import);
    label_for (grid, row++, _("_Model"), pick);
    gtk_label_set_mnemonic_widget (GTK_LABEL (gtk_grid_get_child_at (grid, 0, row - 1)),
                                   GTK_WIDGET (self->model_drop));
  }

  for (guint i = 0; i < self->hardware->len; i++)
    gtk_string_list_append (hw_names, ((const IvHardware *) self->hardware->pdata[i])->name);
  self->hardware_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (hw_names)), NULL));
  g_signal_connect_swapped (self->hardware_drop, "notify::selected",
                            G_CALLBACK (on_hardware_selected), self);
  label_for (grid, row++, _("_Hardware"), GTK_WIDGET (self->hardware_drop));

  self->mode_drop = choice (translated_modes, G_CALLBACK (recompute), self);
  label_for (grid, row++, _("M_ode"), GTK_WIDGET (self->mode_drop));
  self->batch_spin = spin (1, 65536, 1, 1, self);
  label_for (grid, row++, _("_Batch"), GTK_WIDGET (self->batch_spin));
  /* T_q in powers of two from 1 to 131,072; prefill of 8192 tokens to start with. */
  self->tq_scale = log2_scale (17, 13, self);
  label_for (grid, row++, _("_New tokens T__q"), GTK_WIDGET (self->tq_scale));
  self->context_spin = spin (0, 1 << 22, 1024, 0, self);
  label_for (grid, row++, _("Conte_xt"), GTK_WIDGET (self->context_spin));
  self->tp_scale = log2_scale (6, 2, self);
  label_for (grid, row++, _("T_P"), GTK_WIDGET (self->tp_scale));
  self->tp_place_drop = choice (translated_places, G_CALLBACK (recompute), self);
  label_for (grid, row++, _("TP on"), GTK_WIDGET (self->tp_place_drop));
  self->cp_scale = log2_scale (6, 0, self);
  label_for (grid, row++, _("_CP"), GTK_WIDGET (self->cp_scale));
  self->cp_place_drop = choice (translated_places, G_CALLBACK (recompute), self);
  gtk_drop_down_set_selected (self->cp_place_drop, 1);
  label_for (grid, row++, _("CP on"), GTK_WIDGET (self->cp_place_drop));
  self->ring_drop = choice (translated_rings, G_CALLBACK (recompute), self);
  label_for (grid, row++, _("CP _ring"), GTK_WIDGET (self->ring_drop));
  /* Right under the parallelism controls, which is what nearly every constraint is about
   * (edited hardware's rules also appear in its editor). */
  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_xalign (self->error_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_grid_attach (grid, GTK_WIDGET (self->error_label), 0, row++, 2, 1);
  self->kind_names = gtk_string_list_new (NULL);
  self->kind_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->kind_names)), NULL));
  g_signal_connect_swapped (self->kind_drop, "notify::selected", G_CALLBACK (on_kind_selected), self);
  label_for (grid, row++, _("_Layer kind"), GTK_WIDGET (self->kind_drop));
  {
    static const char *const bytes_names[] = { N_("4 B (FP32)"), N_("2 B (BF16)"), N_("1 B (FP8)"),
                                               N_("0.5 B (FP4)"), NULL };
    static const char *const labels[] = { N_("_Weights"), N_("_Activations"), N_("KV cac_he"), N_("_Partials") };
    static const double defaults[] = { 2, 2, 2, 4 };
    const char *translated[G_N_ELEMENTS (bytes_names)] = { NULL };
    for (guint i = 0; bytes_names[i]; i++)
      translated[i] = _(bytes_names[i]);
    for (guint i = 0; i < 4; i++)
      {
        self->bytes_drops[i] = choice (translated, G_CALLBACK (recompute), self);
        select_bytes (self->bytes_drops[i], defaults[i]);
        label_for (grid, row++, _(labels[i]), GTK_WIDGET (self->bytes_drops[i]));
      }
  }
  {
    GtkWidget *expander = gtk_expander_new_with_mnemonic (_("Hardware _details"));
    self->hw_editor = IV_HARDWARE_EDITOR (iv_hardware_editor_new ());
    gtk_widget_set_margin_top (GTK_WIDGET (self->hw_editor), 6);
    g_signal_connect_swapped (self->hw_editor, "changed", G_CALLBACK (on_hardware_edited), self);
    gtk_expander_set_child (GTK_EXPANDER (expander), GTK_WIDGET (self->hw_editor));
    gtk_grid_attach (grid, expander, 0, row++, 2, 1);
  }

  self->summary_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->summary_label, TRUE);
  gtk_label_set_xalign (self->summary_label, 0);
  gtk_label_set_selectable (self->summary_label, TRUE);
  gtk_grid_attach (grid, GTK_WIDGET (self->summary_label), 0, row++, 2, 1);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (grid));
  gtk_box_append (GTK_BOX (box), build_saved_section (self));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_size_request (scroller, 300, -1);
  return scroller;
}

static void
on_sweep_axis (GtkDropDown *drop, GParamSpec *pspec, IvModelView *self)
{
  self->model_figure.sweep = (IvSweepAxis) gtk_drop_down_get_selected (drop);
  redraw (self);
}

/* The sweep figure with its choice of what to vary. */
static GtkWidget *
build_sweep_page (IvModelView *self, GtkWidget *area)
{
  static const char *const axes[] = { N_("TP"), N_("CP"), N_("New tokens T_q"), N_("Context"), NULL };
  const char *translated[G_N_ELEMENTS (axes)] = { NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Vary"));
  GtkWidget *drop;

  for (guint i = 0; axes[i]; i++)
    translated[i] = _(axes[i]);
  drop = gtk_drop_down_new_from_strings (translated);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), drop);
  g_signal_connect (drop, "notify::selected", G_CALLBACK (on_sweep_axis), self);
  gtk_widget_set_halign (row, GTK_ALIGN_END);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 6);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), drop);
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), area);
  return box;
}

static void
on_tab_toggled (GtkToggleButton *button, IvModelView *self)
{
  if (gtk_toggle_button_get_active (button))
    gtk_stack_set_visible_child_name (self->figure_stack,
                                      g_object_get_data (G_OBJECT (button), "iv-page"));
}

/* The tabs follow the stack when code switches it (tests, restoring a page). */
static void
on_page_changed (IvModelView *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->figure_stack);
  /* Each button sits in a GtkFlowBoxChild. */
  for (GtkWidget *c = gtk_widget_get_first_child (self->tabs); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *b = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (c));
      if (g_strcmp0 (g_object_get_data (G_OBJECT (b), "iv-page"), name) == 0)
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b), TRUE);
    }
  redraw (self);
}

static GtkWidget *
build_figures (IvModelView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkToggleButton *first = NULL;

  self->figure_stack = GTK_STACK (gtk_stack_new ());
  for (guint i = 0; i < G_N_ELEMENTS (figure_info); i++)
    {
      GtkWidget *area;
      if (figure_info[i].render == iv_render_stages)
        {
          /* On screen a sortable table; Export still draws the typeset one. */
          self->stages = IV_MODEL_STAGES (iv_model_stages_new ());
          self->areas[i] = GTK_WIDGET (self->stages);
          gtk_stack_add_titled (self->figure_stack, self->areas[i], figure_info[i].name,
                                _(figure_info[i].title));
          continue;
        }
      area = gtk_drawing_area_new ();
      g_object_set_data (G_OBJECT (area), "iv-figure", (gpointer) &figure_info[i]);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_figure, self, NULL);
      gtk_widget_set_hexpand (area, TRUE);
      gtk_widget_set_vexpand (area, TRUE);
      self->areas[i] = area;
      if (figure_info[i].render == iv_render_sweep)
        area = build_sweep_page (self, area);
      gtk_stack_add_titled (self->figure_stack, area, figure_info[i].name, _(figure_info[i].title));
    }
  self->details_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_stack_add_titled (self->figure_stack, self->details_box, "details", _("Details"));
  gtk_stack_add_titled (self->figure_stack, build_compare_page (self), "compare", _("Compare"));
  g_signal_connect_swapped (self->figure_stack, "notify::visible-child", G_CALLBACK (on_page_changed), self);

  /* Toggle buttons in a flow box rather than a GtkStackSwitcher: nine equal-width tabs
   * would be as wide as the longest nine times over and push the figure off a laptop
   * screen; these take their own widths and wrap to a second line when they must. */
  self->tabs = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (self->tabs), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (self->tabs), FALSE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (self->tabs), 16);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (self->tabs), 4);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (self->tabs), 4);
  for (GtkWidget *page = gtk_widget_get_first_child (GTK_WIDGET (self->figure_stack)); page;
       page = gtk_widget_get_next_sibling (page))
    {
      GtkStackPage *sp = gtk_stack_get_page (self->figure_stack, page);
      GtkWidget *button = gtk_toggle_button_new_with_label (gtk_stack_page_get_title (sp));
      g_object_set_data_full (G_OBJECT (button), "iv-page", g_strdup (gtk_stack_page_get_name (sp)), g_free);
      if (first)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), first);
      else
        first = GTK_TOGGLE_BUTTON (button);
      g_signal_connect (button, "toggled", G_CALLBACK (on_tab_toggled), self);
      gtk_widget_add_css_class (button, "flat");
      gtk_flow_box_insert (GTK_FLOW_BOX (self->tabs), button, -1);
    }
  gtk_toggle_button_set_active (first, TRUE);
  gtk_widget_set_margin_top (self->tabs, 6);
  gtk_widget_set_margin_start (self->tabs, 12);
  gtk_widget_set_margin_end (self->tabs, 12);
  gtk_box_append (GTK_BOX (box), self->tabs);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->figure_stack));
  return box;
}

static void
iv_model_view_dispose (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model_names);
  g_clear_object (&self->kind_names);
  G_OBJECT_CLASS (iv_model_view_parent_class)->dispose (object);
}

static void
iv_model_view_finalize (GObject *object)
{
  IvModelView *self = IV_MODEL_VIEW (object);

  g_ptr_array_unref (self->models);
  g_ptr_array_unref (self->imported);
  g_ptr_array_unref (self->imported_paths);
  g_ptr_array_unref (self->custom_hw);
  g_free (self->hw_error);
  g_clear_pointer (&self->saved, g_ptr_array_unref);
  g_array_unref (self->compare_results);
  g_clear_pointer (&self->compare, iv_compare_free);
  g_free (self->saved_path);
  g_free (self->error);
  G_OBJECT_CLASS (iv_model_view_parent_class)->finalize (object);
}

static void
iv_model_view_class_init (IvModelViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = iv_model_view_dispose;
  object_class->finalize = iv_model_view_finalize;
  /* After every re-evaluation, valid or not. */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* After the saved list changes: a save, a delete. */
  signals[SIGNAL_SAVED_CHANGED] = g_signal_new ("saved-changed", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
iv_model_view_init (IvModelView *self)
{
  GPtrArray *presets = iv_presets_get ();

  self->models = g_ptr_array_new ();
  for (guint i = 0; i < presets->len; i++)
    g_ptr_array_add (self->models, presets->pdata[i]);
  self->imported = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_model_free);
  self->imported_paths = g_ptr_array_new_with_free_func (g_free);
  self->custom_hw = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_hardware_free);
  self->compare_results = g_array_new (FALSE, TRUE, sizeof (IvResult));
  self->compare_figure = (IvFigure) { iv_render_compare, NULL, "compare", self };
  self->saved_path = iv_saved_default_path ();
  self->hardware = iv_hardware_presets ();
  self->model_figure.result = &self->result;
  self->figure = (IvFigure) { iv_render_pipeline, &self->model_figure, "pipeline", self };

  /* Controls report changes while they are built: nothing to evaluate until all exist. */
  self->updating = TRUE;
  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), build_controls (self));
  gtk_paned_set_end_child (GTK_PANED (self->paned), build_figures (self));
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (redraw), self, G_CONNECT_SWAPPED);
  self->updating = FALSE;
  load_saved_file (self);
  rebuild_saved_list (self);
  update_save_placeholder (self);
  refresh_compare (self);
  on_hardware_selected (self);
}

GtkWidget *
iv_model_view_new (void)
{
  return g_object_new (IV_TYPE_MODEL_VIEW, NULL);
}

gboolean
iv_model_view_add_hf_config (IvModelView *self, const char *path, GError **error)
{
  IvModel *model;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  model = iv_model_from_hf_config (path, error);
  if (!model)
    return FALSE;
  g_ptr_array_add (self->imported, model);
  g_ptr_array_add (self->imported_paths, g_strdup (path));
  g_ptr_array_add (self->models, model);
  gtk_string_list_append (self->model_names, model->name);
  gtk_drop_down_set_selected (self->model_drop, self->models->len - 1);
  /* Saved configurations of this model can be compared now. */
  refresh_compare (self);
  return TRUE;
}

const IvResult *
iv_model_view_get_result (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->has_result ? &self->result : NULL;
}

const IvFigure *
iv_model_view_get_figure (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->figure_stack), "compare") == 0)
    return self->compare && self->compare->n > 0 ? &self->compare_figure : NULL;
  return self->has_result ? &self->figure : NULL;
}

const char *
iv_model_view_get_error (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->error;
}

gboolean
iv_model_view_save (IvModelView *self, const char *name, GError **error)
{
  const IvModel *model;
  IvSaved *sv;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  if (!self->has_result || self->error)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Only a configuration that evaluates can be saved"));
      return FALSE;
    }
  for (guint i = 0; name && i < self->saved->len; i++)
    if (g_str_equal (((IvSaved *) self->saved->pdata[i])->name, name))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     _("A configuration named “%s” is already saved"), name);
        return FALSE;
      }
  model = self->result.model;
  sv = g_new0 (IvSaved, 1);
  sv->name = name ? g_strdup (name) : iv_saved_next_name (self->saved);
  sv->model = g_strdup (model->name);
  sv->hf_config = g_strdup (imported_path (self, model));
  sv->hardware = g_strdup (self->result.hw->name);
  if (!iv_hardware_find (self->result.hw->name))
    sv->hardware_spec = iv_hardware_copy (self->result.hw);
  sv->config = self->result.config;
  g_ptr_array_add (self->saved, sv);
  if (!write_saved (self, error))
    {
      g_ptr_array_remove_index (self->saved, self->saved->len - 1);
      return FALSE;
    }
  show_saved_error (self, NULL);
  rebuild_saved_list (self);
  update_save_placeholder (self);
  refresh_compare (self);
  g_signal_emit (self, signals[SIGNAL_SAVED_CHANGED], 0);
  return TRUE;
}

GPtrArray *
iv_model_view_get_saved (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->saved;
}

static void
select_by_name (GtkDropDown *drop, GtkStringList *names, const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (names)); i++)
    if (g_strcmp0 (gtk_string_list_get_string (names, i), name) == 0)
      gtk_drop_down_set_selected (drop, i);
}

gboolean
iv_model_view_load_saved (IvModelView *self, guint index, GError **error)
{
  const IvSaved *sv;
  const IvModel *model;
  const IvHardware *hw;

  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  g_return_val_if_fail (index < self->saved->len, FALSE);
  sv = self->saved->pdata[index];
  if (!iv_saved_resolve (sv, self->imported, &model, &hw, error))
    return FALSE;
  self->updating = TRUE;
  select_by_name (self->model_drop, self->model_names, model->name);
  for (guint i = 0; i < self->hardware->len; i++)
    if (g_str_has_prefix (hw->name, ((IvHardware *) self->hardware->pdata[i])->name))
      gtk_drop_down_set_selected (self->hardware_drop, i);
  if (sv->hardware_spec)
    {
      /* An edited SIP comes back as an edit: the view keeps its own copy. */
      IvHardware *copy = iv_hardware_copy (sv->hardware_spec);
      g_ptr_array_add (self->custom_hw, copy);
      hw = copy;
    }
  use_hardware (self, hw);       /* the sliders' ranges for this SIP */
  iv_hardware_editor_set (self->hw_editor, hw);
  select_bytes (self->bytes_drops[0], sv->config.e_w);
  select_bytes (self->bytes_drops[1], sv->config.e_a);
  select_bytes (self->bytes_drops[2], sv->config.e_kv);
  select_bytes (self->bytes_drops[3], sv->config.e_p);
  gtk_drop_down_set_selected (self->mode_drop, sv->config.mode == IV_MODE_PREFILL ? 0 : 1);
  gtk_spin_button_set_value (self->batch_spin, (double) sv->config.B);
  gtk_range_set_value (self->tq_scale, round (log2 ((double) sv->config.T)));
  gtk_spin_button_set_value (self->context_spin, (double) sv->config.P);
  gtk_range_set_value (self->tp_scale, round (log2 ((double) sv->config.t)));
  gtk_range_set_value (self->cp_scale, round (log2 ((double) sv->config.c)));
  gtk_drop_down_set_selected (self->tp_place_drop, sv->config.place_tp == IV_PLACE_PE ? 0 : 1);
  gtk_drop_down_set_selected (self->cp_place_drop, sv->config.place_cp == IV_PLACE_PE ? 0 : 1);
  gtk_drop_down_set_selected (self->ring_drop, sv->config.ring == IV_RING_KV ? 0 : 1);
  self->updating = FALSE;
  recompute (self);
  return TRUE;
}

char *
iv_model_view_get_compare_csv (IvModelView *self)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), NULL);
  return self->compare && self->compare->n > 0 ? iv_compare_to_csv (self->compare) : NULL;
}

gboolean
iv_model_view_select_model (IvModelView *self, const char *name)
{
  g_return_val_if_fail (IV_IS_MODEL_VIEW (self), FALSE);
  for (guint i = 0; i < self->models->len; i++)
    if (g_strcmp0 (((const IvModel *) self->models->pdata[i])->name, name) == 0)
      {
        gtk_drop_down_set_selected (self->model_drop, i);
        return TRUE;
      }
  return FALSE;
}
