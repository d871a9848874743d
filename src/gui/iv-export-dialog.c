/* iv-export-dialog.c: the dialog only gathers options and previews them; the drawing
 * and writing are iv_export_*, the same code `inferview … -o FILE` uses, so what the
 * dialog previews is what lands in the file. Choices are remembered in GSettings. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-export-dialog.h"

#include <glib/gi18n.h>
#include <math.h>

#include "config.h"
#include "iv-plot-config.h"
#include "iv-plain-text.h"
#include "iv-settings.h"
#include "iv-theme.h"

struct _IvExportDialog
{
  AdwWindow parent_instance;

  IvFigure figure;
  GSettings *settings;
  guint n_presets;
  const IvExportPreset *presets;
  gboolean syncing; /* set while rows are updated from code */

  /* template children */
  AdwToastOverlay *toast_overlay;
  GtkDrawingArea *preview;
  AdwEntryRow *path_row;
  AdwActionRow *format_row;
  AdwComboRow *preset_row;
  AdwActionRow *width_row;
  AdwActionRow *height_row;
  GtkSpinButton *width_spin;
  GtkSpinButton *height_spin;
  GtkSpinButton *dpi_spin;
  GtkSpinButton *text_spin;
  AdwActionRow *pixels_row;
  AdwComboRow *theme_row;
  GtkButton *export_button;
};

G_DEFINE_FINAL_TYPE (IvExportDialog, iv_export_dialog, ADW_TYPE_WINDOW)

static const IvTheme theme_order[] = { IV_THEME_LIGHT, IV_THEME_DARK, IV_THEME_PRINT };

/* The preset's name as the list shows it: short, so it is not cut at 1024 px (the size
 * and text are in the rows under it). */
static const char *
preset_name (const IvExportPreset *preset)
{
  if (g_str_equal (preset->id, "slide"))
    return _ ("Slide");
  if (g_str_equal (preset->id, "single-column"))
    return _ ("Column");
  if (g_str_equal (preset->id, "double-column"))
    return _ ("Double column");
  return _ (preset->label);
}

/* The spin buttons speak inches; the figure's unit stays 1/96 in. */
static double
spin_units (GtkSpinButton *spin)
{
  return gtk_spin_button_get_value (spin) * IV_UNITS_PER_INCH;
}

static void
set_spin_units (GtkSpinButton *spin, double units)
{
  gtk_spin_button_set_value (spin, units / IV_UNITS_PER_INCH);
}

void
iv_export_dialog_get_options (IvExportDialog *self, IvExportOptions *options)
{
  guint theme = adw_combo_row_get_selected (self->theme_row);

  iv_export_options_init (options);
  if (!iv_export_format_from_path (gtk_editable_get_text (GTK_EDITABLE (self->path_row)),
                                   &options->format))
    options->format = IV_EXPORT_PNG;
  options->width = spin_units (self->width_spin);
  options->height = spin_units (self->height_spin);
  options->dpi = gtk_spin_button_get_value (self->dpi_spin);
  options->text_pt = gtk_spin_button_get_value (self->text_spin);
  options->render.theme = theme < G_N_ELEMENTS (theme_order) ? theme_order[theme] : IV_THEME_LIGHT;
}

static void
draw_preview (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvExportDialog *self = user_data;
  IvExportOptions options;
  g_autoptr (GError) error = NULL;
  double scale, x, y;

  iv_export_dialog_get_options (self, &options);
  scale = MIN ((width - 24) / options.width, (height - 24) / options.height);
  if (!(scale > 0))
    return;
  x = floor ((width - options.width * scale) / 2);
  y = floor ((height - options.height * scale) / 2);

  /* A soft shadow makes the page edge visible in every theme. */
  cairo_set_source_rgba (cr, 0, 0, 0, 0.15);
  cairo_rectangle (cr, x + 2, y + 3, options.width * scale, options.height * scale);
  cairo_fill (cr);

  cairo_save (cr);
  cairo_translate (cr, x, y);
  cairo_rectangle (cr, 0, 0, options.width * scale, options.height * scale);
  cairo_clip (cr);
  cairo_scale (cr, scale, scale);
  if (!iv_export_render (cr, &self->figure, &options, &error))
    {
      cairo_restore (cr);
      gtk_widget_set_tooltip_text (GTK_WIDGET (area), error ? error->message : NULL);
      return;
    }
  cairo_restore (cr);
}

static void
update_derived (IvExportDialog *self)
{
  IvExportOptions options;
  IvExportFormat format;
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_row));
  gboolean known = iv_export_format_from_path (path, &format);
  g_autofree char *pixels = NULL;
  g_autofree char *width_text = NULL;
  g_autofree char *height_text = NULL;
  gboolean png;
  int w, h;

  iv_export_dialog_get_options (self, &options);
  if (known)
    {
      g_autofree char *upper = g_ascii_strup (iv_export_format_to_string (format), -1);
      adw_action_row_set_subtitle (self->format_row, upper);
    }
  else
    adw_action_row_set_subtitle (self->format_row,
                                 _ ("The file name must end in .png, .pdf or .svg"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), known && path[0] != '\0');
  gtk_widget_set_sensitive (GTK_WIDGET (self->dpi_spin), !known || format == IV_EXPORT_PNG);

  iv_export_pixel_size (&options, &w, &h);
  png = !known || format == IV_EXPORT_PNG;
  /* Each side in the units a reader knows: millimetres, and the pixels a PNG gets. */
  if (png)
    {
      width_text = g_strdup_printf (_ ("%.1f mm · %d px at %.0f dpi"),
                                    options.width / IV_UNITS_PER_INCH * 25.4, w, options.dpi);
      height_text = g_strdup_printf (_ ("%.1f mm · %d px at %.0f dpi"),
                                     options.height / IV_UNITS_PER_INCH * 25.4, h, options.dpi);
    }
  else
    {
      width_text = g_strdup_printf (_ ("%.1f mm"), options.width / IV_UNITS_PER_INCH * 25.4);
      height_text = g_strdup_printf (_ ("%.1f mm"), options.height / IV_UNITS_PER_INCH * 25.4);
    }
  adw_action_row_set_subtitle (self->width_row, width_text);
  adw_action_row_set_subtitle (self->height_row, height_text);
  /* What the file will be: pixels only mean something for a PNG. */
  if (png)
    pixels = g_strdup_printf (_ ("%.2f × %.2f in · %d × %d px PNG · text %.3g pt"),
                              options.width / IV_UNITS_PER_INCH, options.height / IV_UNITS_PER_INCH,
                              w, h, options.text_pt);
  else
    pixels = g_strdup_printf (_ ("%.2f × %.2f in · vector %s · text %.3g pt"),
                              options.width / IV_UNITS_PER_INCH, options.height / IV_UNITS_PER_INCH,
                              format == IV_EXPORT_PDF ? "PDF" : "SVG", options.text_pt);
  adw_action_row_set_subtitle (self->pixels_row, pixels);
  gtk_widget_queue_draw (GTK_WIDGET (self->preview));
}

static void
on_size_changed (IvExportDialog *self)
{
  if (self->syncing)
    return;
  /* Typing a size makes it a custom one. */
  self->syncing = TRUE;
  for (guint i = 0; i < self->n_presets; i++)
    if (fabs (self->presets[i].width - spin_units (self->width_spin)) < 0.5
        && fabs (self->presets[i].height - spin_units (self->height_spin)) < 0.5
        && fabs (self->presets[i].text_pt - gtk_spin_button_get_value (self->text_spin)) < 0.05)
      {
        adw_combo_row_set_selected (self->preset_row, i);
        goto done;
      }
  adw_combo_row_set_selected (self->preset_row, self->n_presets);
done:
  self->syncing = FALSE;
  update_derived (self);
}

static void
on_preset_changed (IvExportDialog *self)
{
  guint i = adw_combo_row_get_selected (self->preset_row);

  if (self->syncing)
    return;
  if (i < self->n_presets)
    {
      self->syncing = TRUE;
      set_spin_units (self->width_spin, self->presets[i].width);
      set_spin_units (self->height_spin, self->presets[i].height);
      gtk_spin_button_set_value (self->dpi_spin, self->presets[i].dpi);
      gtk_spin_button_set_value (self->text_spin, self->presets[i].text_pt);
      self->syncing = FALSE;
    }
  update_derived (self);
}

/* Changing the format in the name keeps the rest of it. */
static void
on_path_changed (IvExportDialog *self)
{
  update_derived (self);
}

static void
remember (IvExportDialog *self, IvExportFormat format)
{
  IvExportOptions options;
  guint preset = adw_combo_row_get_selected (self->preset_row);
  g_autofree char *dir = g_path_get_dirname (gtk_editable_get_text (GTK_EDITABLE (self->path_row)));

  iv_export_dialog_get_options (self, &options);
  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, "export-preset",
                         preset < self->n_presets ? self->presets[preset].id : "custom");
  g_settings_set_double (self->settings, "export-width", options.width);
  g_settings_set_double (self->settings, "export-height", options.height);
  g_settings_set_double (self->settings, "export-dpi", options.dpi);
  g_settings_set_double (self->settings, "export-text-pt", options.text_pt);
  g_settings_set_string (self->settings, "export-theme", iv_theme_to_string (options.render.theme));
  g_settings_set_string (self->settings, "export-folder", dir);
  g_settings_set_string (self->settings, "export-format", iv_export_format_to_string (format));
  g_settings_apply (self->settings);
}

gboolean
iv_export_dialog_export (IvExportDialog *self, GError **error)
{
  IvExportOptions options;
  g_autofree char *path = NULL;
  IvExportFormat format;

  g_return_val_if_fail (IV_IS_EXPORT_DIALOG (self), FALSE);

  path = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->path_row)));
  if (!iv_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _ ("%s: the file name must end in .png, .pdf or .svg"), path);
      return FALSE;
    }
  iv_export_dialog_get_options (self, &options);
  if (!iv_export_to_file (&self->figure, &options, path, error))
    return FALSE;
  remember (self, format);
  return TRUE;
}

gboolean
iv_export_dialog_copy (IvExportDialog *self, GError **error)
{
  IvExportOptions options;
  g_autoptr (GBytes) png = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  g_return_val_if_fail (IV_IS_EXPORT_DIALOG (self), FALSE);

  iv_export_dialog_get_options (self, &options);
  options.format = IV_EXPORT_PNG;
  png = iv_export_to_png_bytes (&self->figure, &options, error);
  if (!png)
    return FALSE;
  texture = gdk_texture_new_from_bytes (png, error);
  if (!texture)
    return FALSE;
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (GTK_WIDGET (self)), texture);
  return TRUE;
}

static void
on_export_clicked (IvExportDialog *self)
{
  g_autoptr (GError) error = NULL;

  if (!iv_export_dialog_export (self, &error))
    {
      adw_toast_overlay_add_toast (self->toast_overlay, iv_toast_new_plain (error->message));
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_copy_clicked (IvExportDialog *self)
{
  g_autoptr (GError) error = NULL;

  if (!iv_export_dialog_copy (self, &error))
    adw_toast_overlay_add_toast (self->toast_overlay, iv_toast_new_plain (error->message));
  else
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_ ("Copied as PNG")));
}

static void
on_save_chooser_response (GtkNativeDialog *chooser, int response, IvExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);
      if (path)
        iv_export_dialog_set_path (self, path);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
on_choose_clicked (IvExportDialog *self)
{
  GtkFileChooserNative *chooser
      = gtk_file_chooser_native_new (_ ("Export Figure"), GTK_WINDOW (self),
                                     GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Select"), _ ("_Cancel"));
  g_autofree char *name
      = g_path_get_basename (gtk_editable_get_text (GTK_EDITABLE (self->path_row)));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
iv_export_dialog_dispose (GObject *object)
{
  IvExportDialog *self = IV_EXPORT_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_EXPORT_DIALOG);
  g_clear_object (&self->settings);
  if (self->figure.owner)
    g_clear_object ((GObject **) &self->figure.owner);
  G_OBJECT_CLASS (iv_export_dialog_parent_class)->dispose (object);
}

static void
iv_export_dialog_finalize (GObject *object)
{
  IvExportDialog *self = IV_EXPORT_DIALOG (object);

  g_free ((char *) self->figure.name);
  G_OBJECT_CLASS (iv_export_dialog_parent_class)->finalize (object);
}

static void
iv_export_dialog_class_init (IvExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_export_dialog_dispose;
  object_class->finalize = iv_export_dialog_finalize;

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, preview);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, path_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, preset_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, text_spin);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, width_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, height_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, dpi_spin);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, pixels_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, theme_row);
  gtk_widget_class_bind_template_child (widget_class, IvExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_choose_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_size_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_preset_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_path_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
iv_export_dialog_init (IvExportDialog *self)
{
  g_autoptr (GtkStringList) presets = gtk_string_list_new (NULL);
  g_autoptr (GtkStringList) themes = gtk_string_list_new (NULL);

  self->syncing = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = iv_settings_new ();
  self->presets = iv_export_get_presets (&self->n_presets);
  for (guint i = 0; i < self->n_presets; i++)
    gtk_string_list_append (presets, preset_name (&self->presets[i]));
  gtk_string_list_append (presets, _ ("Custom"));
  adw_combo_row_set_model (self->preset_row, G_LIST_MODEL (presets));
  gtk_string_list_append (themes, _ ("Light"));
  gtk_string_list_append (themes, _ ("Dark"));
  gtk_string_list_append (themes, _ ("Print (white, no transparency)"));
  adw_combo_row_set_model (self->theme_row, G_LIST_MODEL (themes));
  gtk_drawing_area_set_draw_func (self->preview, draw_preview, self, NULL);
  /* Enter exports, from the file name (activates-default in the template) and from every
   * number: GTK 4.8's spin buttons have no activates-default of their own, their text
   * does, and it runs after the spin button has taken the typed value. */
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->export_button));
  {
    GtkSpinButton *spins[]
        = { self->width_spin, self->height_spin, self->dpi_spin, self->text_spin };
    for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
      {
        GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (spins[i]));
        if (GTK_IS_TEXT (text))
          gtk_text_set_activates_default (GTK_TEXT (text), TRUE);
      }
  }
  self->syncing = FALSE;
}

static void
restore (IvExportDialog *self)
{
  g_autofree char *preset = g_settings_get_string (self->settings, "export-preset");
  g_autofree char *theme_name = g_settings_get_string (self->settings, "export-theme");
  g_autofree char *folder = g_settings_get_string (self->settings, "export-folder");
  g_autofree char *format = g_settings_get_string (self->settings, "export-format");
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  IvTheme theme = IV_THEME_LIGHT;

  self->syncing = TRUE;
  set_spin_units (self->width_spin, g_settings_get_double (self->settings, "export-width"));
  set_spin_units (self->height_spin, g_settings_get_double (self->settings, "export-height"));
  gtk_spin_button_set_value (self->dpi_spin, g_settings_get_double (self->settings, "export-dpi"));
  gtk_spin_button_set_value (self->text_spin,
                             g_settings_get_double (self->settings, "export-text-pt"));
  self->syncing = FALSE;
  if (iv_export_find_preset (preset))
    iv_export_dialog_set_preset (self, preset);
  else
    on_size_changed (self);
  iv_theme_from_string (theme_name, &theme);
  iv_export_dialog_set_theme (self, theme);

  if (!folder[0] || !g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_free (folder);
      folder = g_strdup (g_get_user_special_dir (G_USER_DIRECTORY_PICTURES));
      if (!folder || !g_file_test (folder, G_FILE_TEST_IS_DIR))
        {
          g_free (folder);
          folder = g_strdup (g_get_home_dir ());
        }
    }
  {
    /* a run's figure is named by its preset, from the run folder: one safe file name */
    g_autofree char *stem = iv_plot_file_stem (self->figure.name ? self->figure.name : "figure");
    /* the format the last export chose, not PNG again */
    name = g_strdup_printf ("%s.%s", stem, format[0] ? format : "png");
  }
  path = g_build_filename (folder, name, NULL);
  iv_export_dialog_set_path (self, path);
}

IvExportDialog *
iv_export_dialog_new (GtkWindow *parent, const IvFigure *figure)
{
  IvExportDialog *self;

  g_return_val_if_fail (figure != NULL && figure->render != NULL, NULL);

  self = g_object_new (IV_TYPE_EXPORT_DIALOG, "transient-for", parent, "modal", TRUE, NULL);
  self->figure = *figure;
  self->figure.name = g_strdup (figure->name);
  if (figure->owner)
    g_object_ref (figure->owner);
  restore (self);
  return self;
}

void
iv_export_dialog_set_path (IvExportDialog *self, const char *path)
{
  g_return_if_fail (IV_IS_EXPORT_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->path_row), path);
  update_derived (self);
}

void
iv_export_dialog_set_preset (IvExportDialog *self, const char *preset_id)
{
  g_return_if_fail (IV_IS_EXPORT_DIALOG (self));
  for (guint i = 0; i < self->n_presets; i++)
    if (g_str_equal (self->presets[i].id, preset_id))
      {
        adw_combo_row_set_selected (self->preset_row, i);
        on_preset_changed (self);
        return;
      }
}

void
iv_export_dialog_set_theme (IvExportDialog *self, IvTheme theme)
{
  g_return_if_fail (IV_IS_EXPORT_DIALOG (self));
  for (guint i = 0; i < G_N_ELEMENTS (theme_order); i++)
    if (theme_order[i] == theme)
      adw_combo_row_set_selected (self->theme_row, i);
  update_derived (self);
}

const char *
iv_export_dialog_get_path (IvExportDialog *self)
{
  g_return_val_if_fail (IV_IS_EXPORT_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->path_row));
}

const char *
iv_export_dialog_get_summary (IvExportDialog *self)
{
  g_return_val_if_fail (IV_IS_EXPORT_DIALOG (self), NULL);
  return adw_action_row_get_subtitle (self->pixels_row);
}
