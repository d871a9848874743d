/* iv-application.h: the single-instance application: opens files, owns the actions. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define IV_TYPE_APPLICATION (iv_application_get_type ())
G_DECLARE_FINAL_TYPE (IvApplication, iv_application, IV, APPLICATION, AdwApplication)

IvApplication *iv_application_new (void);

G_END_DECLS
