/* iv-run-live.c: following a run while AIPerf writes it. Each file is read from where
 * the last read stopped to its last newline: a line AIPerf is half-way through writing
 * waits for the next call, so no record is read twice or cut. The appended bytes go
 * through the same readers as a whole load, which keep their place between pieces. */
#define G_LOG_DOMAIN "iv-runs"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iv-input.h"
#include "iv-run.h"

#include "iv-run-private.h"

/* A line longer than this is not a record AIPerf writes: refused rather than buffered. */
#define LIVE_MAX_LINE ((gsize) 64 << 20)
/* A summary that does not parse is being written: it is read again at the next call,
 * and taken as damaged only when it still does not parse this long (µs) after. */
#define LIVE_SUMMARY_PATIENCE (10 * G_USEC_PER_SEC)

typedef struct
{
  char *path;
  guint64 offset; /* bytes read: everything before it was whole lines */
  dev_t dev;
  ino_t ino;
} Stream;

typedef struct _IvRunLive IvRunLive;
struct _IvRunLive
{
  Stream records, telemetry;
  IvRecordReader *reader;
  IvTelemetryReader *telemetry_reader;
  gint64 last_growth_us;
  gint64 summary_failing_since; /* 0: the summary did not fail to parse */
};

static void
stream_clear (Stream *s)
{
  g_clear_pointer (&s->path, g_free);
}

void
_iv_run_live_free (struct _IvRunLive *live)
{
  if (!live)
    return;
  stream_clear (&live->records);
  stream_clear (&live->telemetry);
  _iv_record_reader_free (live->reader);
  _iv_telemetry_reader_free (live->telemetry_reader);
  g_free (live);
}

/* The whole lines appended to @s since its offset, at most @max bytes of them (0: no
 * limit), or NULL when there are none. @all: the writer is done, a last line without
 * its newline is read too. *restarted: the file was replaced or cut shorter. */
static GBytes *
read_appended (Stream *s, gsize max, gboolean all, gboolean *restarted, GError **error)
{
  g_autofree char *display = g_filename_display_name (s->path);
  guint64 size;
  struct stat st;
  int fd = iv_input_open_regular_fd (s->path, &size, error);
  gsize want, got = 0, keep;
  g_autofree char *buf = NULL;

  *restarted = FALSE;
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) == 0 && s->offset > 0 && (st.st_dev != s->dev || st.st_ino != s->ino))
    *restarted = TRUE;
  s->dev = st.st_dev;
  s->ino = st.st_ino;
  if (size < s->offset)
    *restarted = TRUE;
  if (*restarted || size == s->offset)
    {
      close (fd);
      return NULL;
    }
  want = (gsize) MIN (size - s->offset, max ? (guint64) max : G_MAXSIZE);
  for (;;)
    {
      buf = g_realloc (buf, want);
      while (got < want)
        {
          gssize n = pread (fd, buf + got, want - got, (off_t) (s->offset + got));
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0)
            {
              int saved = errno;
              g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", display,
                           g_strerror (saved));
              close (fd);
              return NULL;
            }
          if (n == 0)
            break;
          got += (gsize) n;
        }
      /* whole lines only: up to and with the last newline */
      for (keep = got; keep > 0 && buf[keep - 1] != '\n'; keep--)
        ;
      if (keep > 0 || got < want || s->offset + got >= size || all)
        break;
      /* no newline in the share read: a long line, read on to its end */
      if (want >= LIVE_MAX_LINE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("%s: a line at byte %" G_GUINT64_FORMAT " is longer than 64 MiB"),
                       display, s->offset);
          close (fd);
          return NULL;
        }
      want = (gsize) MIN (MIN (want * 2, LIVE_MAX_LINE), size - s->offset);
    }
  close (fd);
  if (all)
    keep = got;
  if (keep == 0)
    return NULL;
  s->offset += keep;
  return g_bytes_new_take (g_steal_pointer (&buf), keep);
}

/* Feeds the new lines of one stream to its reader. */
static gboolean
follow_stream (IvRun *r, Stream *s, gboolean records, gsize max, gboolean all, guint *count,
               gboolean *restarted, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (IvInput) in = NULL;
  g_autofree char *name = NULL;
  IvRunLive *live = r->live;
  gsize before;

  if (!s->path)
    return TRUE;
  bytes = read_appended (s, max, all, restarted, &local);
  if (!bytes)
    {
      /* a file that vanished is a restart (AIPerf clears its exports when it begins) */
      if (local && g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        *restarted = TRUE;
      else if (local)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      return TRUE;
    }
  name = g_filename_display_name (s->path);
  in = iv_input_new_from_bytes (bytes, name, error);
  if (!in)
    return FALSE;
  if (records)
    {
      before = r->n_requests + r->n_warmup;
      if (!_iv_record_reader_feed (live->reader, in, NULL, NULL, NULL, error))
        return FALSE;
      *count += (guint) (r->n_requests + r->n_warmup - before);
    }
  else
    {
      before = 0;
      for (guint i = 0; i < r->gpus->len; i++)
        before += ((IvGpu *) r->gpus->pdata[i])->ts_ns->len;
      if (!_iv_telemetry_reader_feed (live->telemetry_reader, in, NULL, error))
        return FALSE;
      for (guint i = 0; i < r->gpus->len; i++)
        *count += ((IvGpu *) r->gpus->pdata[i])->ts_ns->len;
      *count -= (guint) before;
    }
  live->last_growth_us = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
follow_streams (IvRun *r, gsize max, gboolean all, IvRunFollow *out, GError **error)
{
  IvRunLive *live = r->live;

  /* the telemetry file may appear after the records */
  if (!live->telemetry.path)
    {
      g_autofree char *records = NULL;
      _iv_run_find_streams (r->path, &records, &live->telemetry.path);
    }
  if (live->telemetry.path && !live->telemetry_reader)
    live->telemetry_reader = _iv_telemetry_reader_new (r);
  if (!follow_stream (r, &live->records, TRUE, max, all, &out->new_records, &out->restarted, error))
    return FALSE;
  if (!out->restarted
      && !follow_stream (r, &live->telemetry, FALSE, max, all, &out->new_samples, &out->restarted,
                         error))
    return FALSE;
  if (r->t1_ns > r->t0_ns)
    r->duration_s = (r->t1_ns - r->t0_ns) * 1e-9;
  return TRUE;
}

gboolean
_iv_run_live_start (IvRun *r, const char *records, const char *telemetry, IvProgressFunc progress,
                    gpointer progress_data, GCancellable *cancellable, GError **error)
{
  IvRunFollow out = { 0 };

  r->live = g_new0 (IvRunLive, 1);
  r->live->records.path = g_strdup (records);
  r->live->telemetry.path = g_strdup (telemetry);
  r->live->reader = _iv_record_reader_new (r, TRUE);
  r->live->last_growth_us = g_get_monotonic_time ();
  (void) progress, (void) progress_data, (void) cancellable;
  if (!follow_streams (r, 0, FALSE, &out, error))
    return FALSE;
  if (out.restarted)
    {
      g_autofree char *display = g_filename_display_name (records);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("%s: the file changed while it was read"),
                   display);
      return FALSE;
    }
  return TRUE;
}

gboolean
iv_run_follow (IvRun *r, gsize max_bytes, IvRunFollow *out, GError **error)
{
  IvRunLive *live = r->live;
  g_autoptr (GError) local = NULL;

  memset (out, 0, sizeof *out);
  if (!live)
    return TRUE;
  if (!follow_streams (r, max_bytes, FALSE, out, error))
    return FALSE;
  if (out->restarted)
    return TRUE;
  /* More may be waiting than one call reads: the summary can wait for it. */
  if (max_bytes && (out->new_records || out->new_samples))
    {
      struct stat st;
      if (g_stat (live->records.path, &st) == 0 && (guint64) st.st_size > live->records.offset + 1)
        return TRUE;
    }
  /* Is the summary there? AIPerf writes it last: everything else is complete. */
  if (!_iv_run_is_complete (r->path))
    return TRUE;
  /* The writer is done: a last line without its newline is read (and warned about). */
  if (!follow_streams (r, 0, TRUE, out, error))
    return FALSE;
  if (!_iv_run_complete (r, &local))
    {
      /* a summary half-written parses badly: try again, for a while */
      gint64 now = g_get_monotonic_time ();
      if (!live->summary_failing_since)
        live->summary_failing_since = now;
      if (now - live->summary_failing_since < LIVE_SUMMARY_PATIENCE)
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  {
    g_autofree char *display = g_filename_display_name (live->records.path);
    _iv_record_reader_finish (live->reader, display);
  }
  r->live = NULL;
  _iv_run_live_free (live);
  out->finished = TRUE;
  return TRUE;
}

gint64
iv_run_live_last_growth (const IvRun *r)
{
  return r->live ? r->live->last_growth_us : 0;
}

void
iv_run_unfollow (IvRun *r)
{
  g_clear_pointer (&r->live, _iv_run_live_free);
}
