/* iv-run-private.h: the run loader's pieces, for the loader's own files and the fuzz
 * targets (which feed each parser bytes without a folder). */
#pragma once

#include "iv-input.h"
#include "iv-run.h"

G_BEGIN_DECLS

IvRun *_iv_run_new (const char *path);
/* Adds a warning (one sentence naming the file) to the run. */
void _iv_run_warn (IvRun *run, const char *format, ...) G_GNUC_PRINTF (2, 3);
GHashTable *_iv_run_summary_table_new (void);
void _iv_timeslice_free (gpointer slice);
/* Metric @tag's statistics into the run's summary (both taken), in file order; a tag
 * seen before takes the new numbers in its place. */
void _iv_run_add_summary (IvRun *run, char *tag, IvMetricSummary *summary);
/* A new per-request metric named by @len bytes of @tag, indexed by its tag. */
IvRunMetric *_iv_run_add_metric (IvRun *run, const char *tag, gsize len);
/* The per-request file read in pieces (@pieces: a run followed as it is written), and
 * the telemetry the same way. */
typedef struct _IvRecordReader IvRecordReader;
IvRecordReader *_iv_record_reader_new (IvRun *run, gboolean pieces);
gboolean _iv_record_reader_feed (IvRecordReader *reader, IvInput *input, IvProgressFunc progress,
                                 gpointer progress_data, GCancellable *cancellable, GError **error);
/* A line longer than the limit, passed over by a followed run's reader (@name: the file). */
void _iv_record_reader_skip_long (IvRecordReader *reader, const char *name);
/* Warns, once, about the lines skipped and the values not counted. */
void _iv_record_reader_finish (IvRecordReader *reader, const char *name);
void _iv_record_reader_free (IvRecordReader *reader);
typedef struct _IvTelemetryReader IvTelemetryReader;
IvTelemetryReader *_iv_telemetry_reader_new (IvRun *run);
gboolean _iv_telemetry_reader_feed (IvTelemetryReader *reader, IvInput *input,
                                    GCancellable *cancellable, GError **error);
/* Warns, once, about the lines skipped. */
void _iv_telemetry_reader_finish (IvTelemetryReader *reader, const char *name);
void _iv_telemetry_reader_free (IvTelemetryReader *reader);
gboolean _iv_run_load_records (IvRun *run, IvInput *input, IvProgressFunc progress,
                               gpointer progress_data, GCancellable *cancellable, GError **error);
gboolean _iv_run_load_summary (IvRun *run, IvInput *input, GError **error);
/* Whether a summary's key is a metric's display name ("Time to First Token (TTFT)",
 * "Request Latency") rather than its tag. */
gboolean _iv_run_is_display_name (const char *key);
/* A display name folded to its tag: a trailing "(…)" dropped, words joined by '_' in lower
 * case ("Time to First Token (TTFT)" → "time_to_first_token"). */
char *_iv_run_fold_display_name (const char *display);
/* AIPerf's CSV summary, for a run without the JSON one. */
gboolean _iv_run_load_summary_csv (IvRun *run, IvInput *input, GError **error);
gboolean _iv_run_load_telemetry (IvRun *run, IvInput *input, GCancellable *cancellable,
                                 GError **error);
gboolean _iv_run_load_timeslices (IvRun *run, IvInput *input, GError **error);
/* *_timeslices.csv into run->timeslices_csv. */
gboolean _iv_run_load_timeslices_csv (IvRun *run, IvInput *input, GError **error);

/* Starts following a run being written: reads the complete lines of @records (and of
 * @telemetry, either may be NULL). */
gboolean _iv_run_live_start (IvRun *run, const char *records, const char *telemetry,
                             IvProgressFunc progress, gpointer progress_data,
                             GCancellable *cancellable, GError **error);
/* The run's per-request and telemetry files, if it has them. */
void _iv_run_find_streams (const char *dir, char **records, char **telemetry);
void _iv_run_live_free (struct _IvRunLive *live);
/* Whether AIPerf has finished the run in @dir (written its summary). */
gboolean _iv_run_is_complete (const char *dir);
/* Reads a finished run's documents (summary, time slices, aggregate) into @run. */
gboolean _iv_run_complete (IvRun *run, GError **error);

G_END_DECLS
