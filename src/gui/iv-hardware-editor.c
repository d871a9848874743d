/* iv-hardware-editor.c: the SIP's fields in the units people quote them in (TFLOP/s,
 * GB/s, GB, ns) and converted to the model's SI units on the way out. The fields are
 * laid out in ui/iv-hardware-editor.ui; this file maps them to IvHardware. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-hardware-editor.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-plain-text.h"

/* A spin button of the template (by id) and the IvHardware double it edits. */
typedef struct
{
  const char *id;
  double scale; /* model value = shown value × scale */
  gsize offset; /* of the double in IvHardware */
} NumberField;

static const NumberField number_fields[] = {
  { "pe_flops", 1e12, G_STRUCT_OFFSET (IvHardware, P_c) },
  { "pe_vector_flops", 1e12, G_STRUCT_OFFSET (IvHardware, P_v) },
  { "pe_mem_bw", 1e9, G_STRUCT_OFFSET (IvHardware, BW) },
  /* GB as datasheets quote them (an H100's 80 GB, not 74.5 GiB) */
  { "pe_mem_capacity", 1e9, G_STRUCT_OFFSET (IvHardware, M_pe) },
  { "pe_link_bw", 1e9, G_STRUCT_OFFSET (IvHardware, B_pe) },
  { "pe_link_latency", 1e-9, G_STRUCT_OFFSET (IvHardware, a_pe) },
  { "cube_link_bw", 1e9, G_STRUCT_OFFSET (IvHardware, B_cu) },
  { "cube_link_latency", 1e-9, G_STRUCT_OFFSET (IvHardware, a_cu) },
  { "eta_compute", 1, G_STRUCT_OFFSET (IvHardware, eta_c) },
  { "eta_memory", 1, G_STRUCT_OFFSET (IvHardware, eta_m) },
  { "eta_comm", 1, G_STRUCT_OFFSET (IvHardware, eta_n) },
};

/* The fields whose labels name what they are per: a PE on a SIP, a GPU on a GPU server
 * (one PE per GPU: its "cubes" are the GPUs). */
static const struct
{
  const char *id;
  const char *per_pe, *per_gpu;
} per_labels[] = {
  { "pe_flops", N_ ("Matrix TFLOP/s per PE"), N_ ("Matrix TFLOP/s per GPU") },
  { "pe_vector_flops", N_ ("Vector TFLOP/s per PE"), N_ ("Vector TFLOP/s per GPU") },
  { "pe_mem_bw", N_ ("Memory GB/s per PE"), N_ ("Memory GB/s per GPU") },
  { "pe_mem_capacity", N_ ("Memory GB per PE"), N_ ("Memory GB per GPU") },
};

struct _IvHardwareEditor
{
  GtkWidget parent_instance;

  /* template children (the grid is bound so dispose_template unparents it) */
  GtkWidget *grid;
  GtkDropDown *topology;
  GtkSpinButton *cubes_x, *cubes_y, *pes;
  GtkSwitch *duplex;
  GtkSpinButton *numbers[G_N_ELEMENTS (number_fields)];
  GtkLabel *message;

  char *description;
  /* what was set, for the fields this editor does not show: the per-format peaks and
   * the switch's own reduction (§2.3, §8) survive an edit of the others */
  IvHardware *base;
  /* Filling the fields from a description is not an edit: "changed" means the user
   * changed something, and every field's own signal would otherwise report it. */
  gboolean setting;
};

G_DEFINE_FINAL_TYPE (IvHardwareEditor, iv_hardware_editor, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
on_field_changed (IvHardwareEditor *self)
{
  if (!self->setting)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
show_message (IvHardwareEditor *self, const char *text, gboolean error)
{
  iv_label_set_valid_text (self->message, text); /* a message naming the user's file */
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
}

static void
on_load_response (GtkNativeDialog *dialog, int response, IvHardwareEditor *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      if (!iv_hardware_editor_load (self, path, &error))
        show_message (self, error->message, TRUE);
    }
  g_object_unref (dialog);
}

static void
on_save_response (GtkNativeDialog *dialog, int response, IvHardwareEditor *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *base = g_path_get_basename (path);
      g_autoptr (GError) error = NULL;
      g_autoptr (IvHardware) hw = NULL;
      char *dot = strrchr (base, '.');
      if (dot)
        *dot = '\0';
      hw = iv_hardware_editor_get (self, base, &error);
      if (!hw || !iv_hardware_save (hw, path, &error))
        show_message (self, error->message, TRUE);
      else
        {
          g_autofree char *done = g_strdup_printf (_ ("Saved %s"), path);
          show_message (self, done, FALSE);
        }
    }
  g_object_unref (dialog);
}

static GtkFileChooserNative *
chooser (IvHardwareEditor *self, const char *title, GtkFileChooserAction action, const char *accept)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, action, accept, NULL);
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _ ("Hardware descriptions (JSON)"));
  gtk_file_filter_add_suffix (filter, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  return dialog;
}

static void
on_load_clicked (IvHardwareEditor *self)
{
  GtkFileChooserNative *dialog
      = chooser (self, _ ("Load Hardware"), GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Load"));
  g_signal_connect (dialog, "response", G_CALLBACK (on_load_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_save_clicked (IvHardwareEditor *self)
{
  GtkFileChooserNative *dialog
      = chooser (self, _ ("Save Hardware"), GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "hardware.json");
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
iv_hardware_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_HARDWARE_EDITOR);
  G_OBJECT_CLASS (iv_hardware_editor_parent_class)->dispose (object);
}

static void
iv_hardware_editor_finalize (GObject *object)
{
  g_free (IV_HARDWARE_EDITOR (object)->description);
  g_clear_pointer (&IV_HARDWARE_EDITOR (object)->base, iv_hardware_free);
  G_OBJECT_CLASS (iv_hardware_editor_parent_class)->finalize (object);
}

static void
iv_hardware_editor_class_init (IvHardwareEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_hardware_editor_dispose;
  object_class->finalize = iv_hardware_editor_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-hardware-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, grid);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, topology);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, cubes_x);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, cubes_y);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, pes);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, duplex);
  gtk_widget_class_bind_template_child (widget_class, IvHardwareEditor, message);
  for (guint i = 0; i < G_N_ELEMENTS (number_fields); i++)
    gtk_widget_class_bind_template_child_full (widget_class, number_fields[i].id, FALSE,
                                               G_STRUCT_OFFSET (IvHardwareEditor, numbers)
                                                   + i * sizeof (GtkSpinButton *));
  gtk_widget_class_bind_template_callback (widget_class, on_field_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_load_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
}

static void
iv_hardware_editor_init (IvHardwareEditor *self)
{
  self->setting = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->setting = FALSE;
}

GtkWidget *
iv_hardware_editor_new (void)
{
  return g_object_new (IV_TYPE_HARDWARE_EDITOR, NULL);
}

/* The labels say per GPU on a GPU server, per PE on a SIP. */
static void
label_per (IvHardwareEditor *self, gboolean gpu)
{
  for (guint i = 0; i < G_N_ELEMENTS (per_labels); i++)
    for (guint f = 0; f < G_N_ELEMENTS (number_fields); f++)
      if (g_str_equal (number_fields[f].id, per_labels[i].id))
        {
          GList *labels = gtk_widget_list_mnemonic_labels (GTK_WIDGET (self->numbers[f]));
          for (GList *l = labels; l; l = l->next)
            gtk_label_set_label (GTK_LABEL (l->data),
                                 _ (gpu ? per_labels[i].per_gpu : per_labels[i].per_pe));
          g_list_free (labels);
        }
}

void
iv_hardware_editor_set (IvHardwareEditor *self, const IvHardware *hw)
{
  g_return_if_fail (IV_IS_HARDWARE_EDITOR (self));
  self->setting = TRUE;
  gtk_drop_down_set_selected (self->topology, hw->topology);
  gtk_spin_button_set_value (self->cubes_x, (double) hw->X);
  gtk_spin_button_set_value (self->cubes_y, (double) hw->Y);
  gtk_spin_button_set_value (self->pes, (double) hw->n_pe);
  gtk_switch_set_active (self->duplex, hw->bidir);
  for (guint i = 0; i < G_N_ELEMENTS (number_fields); i++)
    gtk_spin_button_set_value (self->numbers[i],
                               G_STRUCT_MEMBER (double, hw, number_fields[i].offset)
                                   / number_fields[i].scale);
  g_free (self->description);
  self->description = g_strdup (hw->description);
  g_clear_pointer (&self->base, iv_hardware_free);
  self->base = iv_hardware_copy (hw);
  label_per (self, iv_hardware_is_gpu_server (hw));
  show_message (self, NULL, FALSE);
  self->setting = FALSE;
}

IvHardware *
iv_hardware_editor_get (IvHardwareEditor *self, const char *name, GError **error)
{
  g_autoptr (IvHardware) hw = g_new0 (IvHardware, 1);
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (IV_IS_HARDWARE_EDITOR (self), NULL);
  hw->name = g_strdup (name);
  hw->description = g_strdup (self->description ? self->description : "");
  hw->topology = (IvTopology) gtk_drop_down_get_selected (self->topology);
  hw->X = gtk_spin_button_get_value_as_int (self->cubes_x);
  hw->Y = gtk_spin_button_get_value_as_int (self->cubes_y);
  hw->n_pe = gtk_spin_button_get_value_as_int (self->pes);
  hw->bidir = gtk_switch_get_active (self->duplex);
  for (guint i = 0; i < G_N_ELEMENTS (number_fields); i++)
    G_STRUCT_MEMBER (double, hw, number_fields[i].offset)
        = gtk_spin_button_get_value (self->numbers[i]) * number_fields[i].scale;
  if (self->base)
    {
      hw->P_fp8 = self->base->P_fp8, hw->P_int8 = self->base->P_int8;
      hw->P_fp4 = self->base->P_fp4, hw->switch_reduce = self->base->switch_reduce;
    }
  if (!iv_hardware_validate (hw, name, &local))
    {
      show_message (self, local->message, TRUE);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  show_message (self, NULL, FALSE);
  return g_steal_pointer (&hw);
}

gboolean
iv_hardware_editor_load (IvHardwareEditor *self, const char *path, GError **error)
{
  g_autoptr (IvHardware) hw = iv_hardware_load (path, error);

  if (!hw)
    return FALSE;
  iv_hardware_editor_set (self, hw);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}
