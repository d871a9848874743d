/* iv-test-util.h: helpers shared by the test programs. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *iv_test_make_tmpdir (const char *name_template);
void iv_test_remove_tree (const char *path);
/* Writes @text to @dir/@name, making the folders it needs. */
void iv_test_write_file (const char *dir, const char *name, const char *text);

/* Files in @dir whose name starts with "." (what an interrupted atomic write would leave). */
guint iv_test_count_hidden (const char *dir);

G_END_DECLS
