/* iv-safe-text.h: text from data made safe for the place it goes. Names, paths and
 * messages come from files a user did not write; before they reach Pango, a terminal or
 * a text file they must be valid UTF-8, and on a terminal no byte of them may be a
 * control sequence (ESC [ … moves the cursor, OSC 52 writes the clipboard, BEL rings).
 * HTML has its own escaping, by context, in render/iv-report.c. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @s (of @len bytes, or up to its NUL when @len < 0) as valid UTF-8: each invalid byte
 * becomes U+FFFD; NUL bytes inside @len become U+FFFD too. Never NULL for a non-NULL @s. */
char *iv_text_valid (const char *s, gssize len);

/* @s made valid (as iv_text_valid) and printable on one terminal line: C0 controls, DEL
 * and C1 controls (U+0080–U+009F) are written as visible escapes — "\n", "\t", "\r",
 * "\e" for ESC, "\xHH" for the rest of C0 and DEL, "\u0085" for C1 — and a backslash
 * stays a single backslash. Plain text comes back unchanged. NULL gives NULL. */
char *iv_text_printable (const char *s);

/* The longest prefix of the valid UTF-8 @s that is at most @max_bytes long and ends on a
 * character boundary (a name cut at a byte limit must stay valid UTF-8). */
gsize iv_text_prefix_len (const char *s, gsize len, gsize max_bytes);

G_END_DECLS
