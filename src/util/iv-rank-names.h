/* iv-rank-names.h: which files are the rank traces of a distributed job, by their names
 * alone — what `trace DIR`, `identify` and the folder sniffing agree on. GLib only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The rank a file name gives — rank-3, rank3, rank_3 (any case) anywhere, or a number
 * before the extension (job_3.pt.trace.json) — or -1. */
int iv_rank_from_file_name (const char *basename);
/* Whether @name is named as a trace file: .json, .json.gz, .trace(.gz). */
gboolean iv_rank_is_trace_name (const char *name);
/* The trace files (by name) that are regular files in folder @dir, sorted; NULL with
 * @error when it cannot be read. Not descending. */
GPtrArray *iv_rank_folder_traces (const char *dir, GError **error);
/* How many files of @dir are rank traces by name (0: not a folder of rank traces). */
guint iv_rank_traces_in_folder (const char *dir);

G_END_DECLS
