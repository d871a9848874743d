/* iv-export-dialog.h: export the current figure to PNG, PDF or SVG, or copy it. */
#pragma once

#include <adwaita.h>

#include "iv-export.h"

G_BEGIN_DECLS

#define IV_TYPE_EXPORT_DIALOG (iv_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (IvExportDialog, iv_export_dialog, IV, EXPORT_DIALOG, AdwWindow)

IvExportDialog *iv_export_dialog_new (GtkWindow *parent, const IvFigure *figure);
void iv_export_dialog_set_path (IvExportDialog *self, const char *path);
void iv_export_dialog_set_preset (IvExportDialog *self, const char *preset_id);
void iv_export_dialog_set_theme (IvExportDialog *self, IvTheme theme);
void iv_export_dialog_get_options (IvExportDialog *self, IvExportOptions *options);
gboolean iv_export_dialog_export (IvExportDialog *self, GError **error);
gboolean iv_export_dialog_copy (IvExportDialog *self, GError **error);
const char *iv_export_dialog_get_path (IvExportDialog *self);
/* The line saying what the file will be: inches, then pixels (PNG) or "vector", text. */
const char *iv_export_dialog_get_summary (IvExportDialog *self);

G_END_DECLS
