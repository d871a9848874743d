/* iv-hardware-editor.h: every field of a SIP description, editable, with Load… and Save…
 * of hardware JSON files. Emits "changed" when the user edits a field or loads a file. */
#pragma once

#include <gtk/gtk.h>

#include "iv-hardware.h"

G_BEGIN_DECLS

#define IV_TYPE_HARDWARE_EDITOR (iv_hardware_editor_get_type ())
G_DECLARE_FINAL_TYPE (IvHardwareEditor, iv_hardware_editor, IV, HARDWARE_EDITOR, GtkWidget)

GtkWidget *iv_hardware_editor_new (void);
/* Shows @hw without emitting "changed". */
void iv_hardware_editor_set (IvHardwareEditor *self, const IvHardware *hw);
/* A new hardware description from the fields, named @name; NULL with @error (the field
 * and the rule) when they do not describe a valid SIP. */
IvHardware *iv_hardware_editor_get (IvHardwareEditor *self, const char *name, GError **error);
/* Loads a hardware JSON file into the fields and emits "changed"; FALSE with @error
 * naming the file and the problem, the fields untouched. */
gboolean iv_hardware_editor_load (IvHardwareEditor *self, const char *path, GError **error);

G_END_DECLS
