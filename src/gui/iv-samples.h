/* iv-samples.h: where the bundled sample runs and traces are. */
#pragma once

#include <gio/gio.h>

#include "iv-sniff.h"

G_BEGIN_DECLS

const char *iv_samples_get_dir (void);
GPtrArray *iv_samples_for_group (IvGroup group);

G_END_DECLS
