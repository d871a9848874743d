/* iv-run-live.c: following a run while AIPerf writes it. Each file is read from where
 * the last read stopped to its last newline: a line AIPerf is half-way through writing
 * waits for the next call, so no record is read twice or cut. The appended bytes go
 * through the same readers as a whole load, which keep their place between pieces.
 *
 * Memory and time are bounded by what a call may read, not by what was appended: the
 * bytes come in pieces of at most the call's budget (a piece of LIVE_PIECE when it has
 * none), and a line with no newline yet is not read again and again — only where the
 * search for its newline stopped is kept, and the search goes on from there. A line
 * longer than the limit of a record line (iv_run_line_max) is passed over when its end
 * is found, with a warning naming it. */
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

/* A call without a budget (starting, finishing) reads in pieces this size. */
#define LIVE_PIECE ((gsize) 16 << 20)
/* The newline ending a long line is looked for this many bytes at a time. */
#define SCAN_BUF ((gsize) 1 << 20)
/* A summary that does not parse is being written: it is read again at the next call,
 * and taken as damaged only when it still does not parse this long (µs) after. */
#define LIVE_SUMMARY_PATIENCE (10 * G_USEC_PER_SEC)

typedef struct
{
  char *path;
  guint64 offset;  /* bytes read: everything before it was whole lines */
  guint64 scanned; /* above offset: the line at offset has no newline before here */
  dev_t dev;
  ino_t ino;
} Stream;

typedef struct _IvRunLive IvRunLive;
struct _IvRunLive
{
  Stream records, telemetry;
  IvRecordReader *reader;
  IvTelemetryReader *telemetry_reader;
  gsize max_line; /* the longest line read (iv_run_line_max) */
  guint64 telemetry_long;
  gint64 last_growth_us;
  gint64 summary_failing_since; /* 0: the summary did not fail to parse */
};

/* What one read of a stream did. */
typedef struct
{
  gboolean restarted; /* the file was replaced or cut shorter */
  gboolean moved;     /* the read or the search for a newline went on */
  gboolean at_end;    /* everything the file holds was read */
  guint64 long_line;  /* bytes of a line past the limit, passed over (0: none) */
} Step;

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

/* @len bytes at @at of @fd into @buf; FALSE with @error naming @display. *@got: the bytes
 * there were (fewer at the file's end). */
static gboolean
read_at (int fd, char *buf, gsize len, guint64 at, const char *display, gsize *got, GError **error)
{
  *got = 0;
  while (*got < len)
    {
      gssize n = pread (fd, buf + *got, len - *got, (off_t) (at + *got));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", display,
                       g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        break;
      *got += (gsize) n;
    }
  return TRUE;
}

/* @bytes of memory for a share of @display, or NULL with an error saying so. */
static char *
try_buffer (gsize bytes, const char *display, guint64 at, GError **error)
{
  char *buf = g_try_malloc (MAX (bytes, 1));

  if (!buf)
    g_set_error (
        error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
        _ ("%s: out of memory reading %" G_GSIZE_FORMAT " bytes at byte %" G_GUINT64_FORMAT),
        display, bytes, at);
  return buf;
}

/* Looks for the newline ending the line at s->offset, from where the last search
 * stopped, through at most @budget bytes; its offset, or -1. */
static gint64
scan_for_newline (int fd, Stream *s, guint64 size, gsize budget, const char *display,
                  GError **error)
{
  guint64 to = MIN (size, s->scanned + budget);
  g_autofree char *buf = try_buffer (SCAN_BUF, display, s->scanned, error);

  if (!buf)
    return -2;
  while (s->scanned < to)
    {
      gsize got;
      const char *nl;
      if (!read_at (fd, buf, (gsize) MIN (SCAN_BUF, to - s->scanned), s->scanned, display, &got,
                    error))
        return -2;
      if (got == 0)
        break;
      if ((nl = memchr (buf, '\n', got)) != NULL)
        return (gint64) (s->scanned + (guint64) (nl - buf));
      s->scanned += got;
    }
  return -1;
}

/* The whole lines appended to @s since its offset, at most @budget bytes of them (a
 * line longer than that, up to @max_line, once its end is found), or NULL when there
 * are none yet. @all: the writer is done, a last line without its newline is read too. */
static GBytes *
read_appended (Stream *s, gsize max_line, gsize budget, gboolean all, Step *step, GError **error)
{
  g_autofree char *display = g_filename_display_name (s->path);
  guint64 size, need = 0;
  struct stat st;
  int fd = iv_input_open_regular_fd (s->path, &size, error);
  g_autofree char *buf = NULL;
  gsize want, got, keep;

  memset (step, 0, sizeof *step);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) == 0 && s->offset > 0 && (st.st_dev != s->dev || st.st_ino != s->ino))
    step->restarted = TRUE;
  s->dev = st.st_dev;
  s->ino = st.st_ino;
  if (size < s->offset)
    step->restarted = TRUE;
  if (step->restarted || size == s->offset)
    {
      step->at_end = !step->restarted;
      s->scanned = 0;
      close (fd);
      return NULL;
    }
  if (s->scanned > s->offset)
    {
      /* a long line: its newline looked for from where the last search stopped */
      guint64 before = s->scanned;
      gint64 nl = scan_for_newline (fd, s, size, budget, display, error);
      guint64 end;
      if (nl == -2)
        {
          close (fd);
          return NULL;
        }
      step->moved = nl >= 0 || s->scanned > before;
      if (nl < 0 && !(all && s->scanned == size))
        {
          close (fd);
          return NULL;
        }
      end = nl >= 0 ? (guint64) nl + 1 : size;
      s->scanned = 0;
      if ((nl >= 0 ? (guint64) nl : size) - s->offset > max_line)
        {
          /* past the limit: passed over, never held */
          step->long_line = end - s->offset;
          s->offset = end;
          step->at_end = s->offset == size;
          close (fd);
          return NULL;
        }
      need = end - s->offset;
    }
  /* a share of what was appended (the whole long line, at least), to its last newline */
  want = (gsize) MAX (need, MIN (size - s->offset, (guint64) budget));
  if (!(buf = try_buffer (want, display, s->offset, error))
      || !read_at (fd, buf, want, s->offset, display, &got, error))
    {
      close (fd);
      return NULL;
    }
  close (fd);
  for (keep = got; keep > 0 && buf[keep - 1] != '\n'; keep--)
    ;
  if (all && s->offset + got == size)
    keep = got;
  if (keep == 0)
    {
      /* no newline in the share: a long line, whose end is looked for from here on (or
       * the file was cut meanwhile, which the next call sees) */
      s->scanned = s->offset + got;
      step->moved = step->moved || got > 0;
      return NULL;
    }
  s->offset += keep;
  step->moved = TRUE;
  step->at_end = s->offset == size;
  return g_bytes_new_take (g_steal_pointer (&buf), keep);
}

/* Feeds the new lines of one stream to its reader: one share of @max bytes, or every
 * share there is when @max is 0. *@at_end: the stream was read to its end. */
static gboolean
follow_stream (IvRun *r, Stream *s, gboolean records, gsize max, gboolean all, guint *count,
               gboolean *restarted, gboolean *at_end, GError **error)
{
  IvRunLive *live = r->live;
  g_autofree char *name = NULL;

  *at_end = TRUE;
  if (!s->path)
    return TRUE;
  name = g_filename_display_name (s->path);
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (IvInput) in = NULL;
      Step step;
      gsize before;

      bytes = read_appended (s, live->max_line, max ? max : LIVE_PIECE, all, &step, &local);
      *at_end = step.at_end;
      if (local)
        {
          /* a file that vanished is a restart (AIPerf clears its exports when it begins) */
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)
              || g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            {
              *restarted = TRUE;
              return TRUE;
            }
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (step.restarted)
        {
          *restarted = TRUE;
          return TRUE;
        }
      /* the file grew, by whole lines or not: AIPerf is writing it */
      if (step.moved)
        live->last_growth_us = g_get_monotonic_time ();
      if (step.long_line)
        {
          if (records)
            _iv_record_reader_skip_long (live->reader, name);
          else if (live->telemetry_long++ == 0)
            _iv_run_warn (r,
                          _ ("%s: a line longer than %u MiB, the most a line may hold (%s sets "
                             "it), was skipped"),
                          name, (guint) (live->max_line >> 20), IV_RUN_LINE_MAX_ENV);
        }
      if (bytes)
        {
          if (!(in = iv_input_new_from_bytes (bytes, name, error)))
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
        }
      /* with a budget, one share a call; without, on until nothing moves */
      if (max || !step.moved || step.at_end)
        return TRUE;
    }
}

/* *@drained: both files were read to their end. */
static gboolean
follow_streams (IvRun *r, gsize max, gboolean all, IvRunFollow *out, gboolean *drained,
                GError **error)
{
  IvRunLive *live = r->live;
  gboolean records_end, telemetry_end = TRUE;

  /* the telemetry file may appear after the records */
  if (!live->telemetry.path)
    {
      g_autofree char *records = NULL;
      _iv_run_find_streams (r->path, &records, &live->telemetry.path);
    }
  if (live->telemetry.path && !live->telemetry_reader)
    live->telemetry_reader = _iv_telemetry_reader_new (r);
  if (!follow_stream (r, &live->records, TRUE, max, all, &out->new_records, &out->restarted,
                      &records_end, error))
    return FALSE;
  if (!out->restarted
      && !follow_stream (r, &live->telemetry, FALSE, max, all, &out->new_samples, &out->restarted,
                         &telemetry_end, error))
    return FALSE;
  if (r->t1_ns > r->t0_ns)
    r->duration_s = (r->t1_ns - r->t0_ns) * 1e-9;
  *drained = records_end && telemetry_end;
  return TRUE;
}

/* When the files last grew, on the monotonic clock: their modification time, so a run
 * that stopped being written long before it was opened is not taken for a live one. */
static gint64
last_written (const char *records, const char *telemetry)
{
  gint64 now = g_get_monotonic_time (), real = g_get_real_time (), newest = G_MININT64;
  const char *paths[] = { records, telemetry };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      GStatBuf st;
      if (paths[i] && g_stat (paths[i], &st) == 0)
        newest = MAX (newest, (gint64) st.st_mtime * G_USEC_PER_SEC);
    }
  if (newest == G_MININT64 || newest >= real)
    return now;
  return now - (real - newest);
}

gboolean
_iv_run_live_start (IvRun *r, const char *records, const char *telemetry, IvProgressFunc progress,
                    gpointer progress_data, GCancellable *cancellable, GError **error)
{
  IvRunFollow out = { 0 };
  gboolean drained;

  r->live = g_new0 (IvRunLive, 1);
  r->live->records.path = g_strdup (records);
  r->live->telemetry.path = g_strdup (telemetry);
  r->live->reader = _iv_record_reader_new (r, TRUE);
  r->live->max_line = iv_run_line_max (NULL);
  r->live->last_growth_us = last_written (records, telemetry);
  (void) progress, (void) progress_data, (void) cancellable;
  if (!follow_streams (r, 0, FALSE, &out, &drained, error))
    return FALSE;
  if (out.restarted)
    {
      g_autofree char *display = g_filename_display_name (records);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _ ("%s: the file changed while it was read"),
                   display);
      return FALSE;
    }
  /* what was there is not growth: the files last grew when they were last written */
  r->live->last_growth_us = last_written (records, telemetry);
  return TRUE;
}

gboolean
iv_run_follow (IvRun *r, gsize max_bytes, IvRunFollow *out, GError **error)
{
  IvRunLive *live = r->live;
  g_autoptr (GError) local = NULL;
  gboolean complete, drained;

  memset (out, 0, sizeof *out);
  if (!live)
    return TRUE;
  /* Is the summary there? AIPerf writes it last: everything else is complete, and a
   * last line without its newline is read too (and warned about). */
  complete = _iv_run_is_complete (r->path);
  if (!follow_streams (r, max_bytes, complete, out, &drained, error))
    return FALSE;
  /* more than one call reads waits for the next: the summary can wait for it */
  if (out->restarted || !complete || !drained)
    return TRUE;
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
  if (live->telemetry_reader)
    {
      g_autofree char *display = g_filename_display_name (live->telemetry.path);
      _iv_telemetry_reader_finish (live->telemetry_reader, display);
    }
  r->live = NULL;
  _iv_run_live_free (live);
  out->finished = TRUE;
  return TRUE;
}

gboolean
iv_run_expire (IvRun *r, guint stale_s)
{
  IvRunLive *live = r->live;
  gint64 quiet;
  IvRunFollow out = { 0 };
  gboolean drained;

  if (!live)
    return FALSE;
  quiet = g_get_monotonic_time () - live->last_growth_us;
  if (quiet < (gint64) stale_s * G_USEC_PER_SEC)
    return FALSE;
  /* whatever is left, a last line without its newline too (said as cut short) */
  if (!follow_streams (r, 0, TRUE, &out, &drained, NULL) || out.restarted)
    {
      iv_run_unfollow (r);
      r->incomplete = TRUE;
      _iv_run_warn (r,
                    _ ("%s: incomplete: no summary, and its files changed as they were last "
                       "read; what was read is kept"),
                    r->name);
      return TRUE;
    }
  {
    g_autofree char *display = g_filename_display_name (live->records.path);
    _iv_record_reader_finish (live->reader, display);
  }
  if (live->telemetry_reader)
    {
      g_autofree char *display = g_filename_display_name (live->telemetry.path);
      _iv_telemetry_reader_finish (live->telemetry_reader, display);
    }
  iv_run_unfollow (r);
  r->incomplete = TRUE;
  _iv_run_warn (r,
                _ ("%s: incomplete: no summary, and its files have not grown for %" G_GINT64_FORMAT
                   " s — AIPerf is not writing it (it ended without its summary, or stopped); "
                   "the numbers are the records'"),
                r->name, quiet / G_USEC_PER_SEC);
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
