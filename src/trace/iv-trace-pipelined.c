/* iv-trace-pipelined.c: pipelined-timeline JSON (I/O for iteration k+1 overlapped with
 * GPU compute of iteration k) on the same track model: one process, lanes main, io, gpu0
 * and gpu1; the candidate of each event is kept as its category ("candidate 3"). These
 * files are small, so json-glib reads them whole. Also the candidate breakdown file. */
#define G_LOG_DOMAIN "iv-trace"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "iv-big-alloc.h"
#include "iv-intervals.h"
#include "iv-json-doc.h"
#include "iv-sniff.h"
#include "iv-trace-pipelined.h"
#include "iv-trace-private.h"

/* Pipelined timelines are read whole by json-glib: real ones are a few MB; this is far
 * above them and far below what a DOM of it would cost in memory. */
#define PIPELINED_MAX_BYTES ((gsize) 256 << 20)

/* Typed members with fallbacks, over the shared typed getters. */
static const char *
member_string (JsonObject *o, const char *key, const char *fallback)
{
  const char *v = iv_json_string (o, key);
  return v ? v : fallback;
}

static gboolean
member_number (JsonObject *o, const char *key, double *out)
{
  /* ms: beyond 30 years is not a trace (and keeps every ns sum far from overflowing) */
  return iv_json_number (o, key, out) && fabs (*out) < 1e12;
}

static gint64
member_int (JsonObject *o, const char *key, gint64 fallback)
{
  gint64 v;
  return iv_json_int (o, key, &v) ? v : fallback;
}

/* json-glib's tree of a pipelined file costs about this many times its text (measured:
 * objects of six members; the tree's nodes, hash tables and strings). */
#define DOM_BYTES_PER_TEXT_BYTE 12

/* The file's JSON tree, or NULL with @error. json-glib aborts when it runs out of memory
 * and cannot be told otherwise; so the memory the tree will take is asked for first, with
 * try-allocation, and given back: when it cannot be had, the load is refused with an error
 * the user reads. (Another thread could take that memory between the question and the
 * parse; the parse follows at once, and the question is for several times what it needs
 * on average, so that window is small.) */
static JsonNode *
parse_within_memory (IvInput *input, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  gpointer probe;

  text = iv_input_read_all (input, PIPELINED_MAX_BYTES, &len, error);
  if (!text)
    return NULL;
  probe = len > G_MAXSIZE / DOM_BYTES_PER_TEXT_BYTE
              ? NULL
              : iv_big_alloc (MAX (len, 1) * DOM_BYTES_PER_TEXT_BYTE);
  if (!probe)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "%s: not enough memory to load its %" G_GSIZE_FORMAT
                   " MB of events (about %d times that is needed); close other files",
                   iv_input_get_name (input), len / 1000000, DOM_BYTES_PER_TEXT_BYTE);
      return NULL;
    }
  iv_big_free (probe);
  return iv_json_parse (text, len, iv_input_get_name (input), error);
}

/* A candidate's buffer waits and reads, kept apart until the I/O span is decided. */
typedef struct
{
  gint64 wait_start, wait_end, read_start, read_end;
} IoParts;

static gint64
ms_to_ns (double ms)
{
  return (gint64) llround (ms * 1e6);
}

gboolean
_iv_trace_load_pipelined (IvTraceBuilder *b, IvInput *input, GCancellable *cancellable,
                          GError **error)
{
  IvTrace *t = b->trace;
  g_autoptr (JsonNode) doc = NULL;
  g_autoptr (GArray) gpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* per candidate; a candidate's number (as text) → its index, as a pool whose ids are
   * the indices: both grow with the file, with try-allocation */
  g_autoptr (IvGrowArray) io_parts = NULL;
  g_autoptr (IvIntern) cands = NULL;
  JsonObject *root;
  JsonArray *events;
  const char *name = iv_input_get_name (input);

  doc = parse_within_memory (input, error);
  if (!doc)
    return FALSE;
  io_parts = _iv_grow_array_new (sizeof (IoParts));
  cands = iv_intern_new ();
  if (!JSON_NODE_HOLDS_OBJECT (doc))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", name);
      return FALSE;
    }
  root = json_node_get_object (doc);
  if (!iv_json_array (root, "events"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: “events” must be an array",
                   name);
      return FALSE;
    }
  t->start_candidate = member_int (
      root, "start_candidate",
      member_int (root, "timeline_record_from", member_int (root, "focus_candidate", 0)));
  t->num_candidates = member_int (root, "num_candidates", 3);
  t->start_candidate = CLAMP (t->start_candidate, 0, IV_CANDIDATE_MAX);
  t->num_candidates = CLAMP (t->num_candidates, 0, IV_CANDIDATE_MAX);

  events = iv_json_array (root, "events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *n = json_array_get_element (events, i);
      JsonObject *e;
      const char *lane, *ev_name;
      gint64 cand, buffer, start, dur;
      double start_ms, dur_ms;
      char tid[16], cat[48];
      IvRawSlice s;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: event %u is not an object",
                       name, i);
          return FALSE;
        }
      e = json_node_get_object (n);
      lane = member_string (e, "lane", NULL);
      ev_name = member_string (e, "name", "");
      if (!lane || !member_number (e, "start_ms", &start_ms)
          || !member_number (e, "dur_ms", &dur_ms))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: event %u needs “lane” (text), “start_ms” and “dur_ms” (numbers)", name,
                       i);
          return FALSE;
        }
      start = ms_to_ns (start_ms);
      dur = MAX (0, ms_to_ns (dur_ms));
      cand = member_int (e, "candidate", -1);
      if (cand > IV_CANDIDATE_MAX)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: event %u: “candidate” must be from 0 to %" G_GINT64_FORMAT, name, i,
                       IV_CANDIDATE_MAX);
          return FALSE;
        }
      buffer = member_int (e, "buffer", cand >= 0 ? cand % 2 : 0);
      if (buffer < 0 || buffer > 1)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: event %u: “buffer” must be 0 or 1", name, i);
          return FALSE;
        }
      if (g_str_equal (lane, "gpu"))
        g_snprintf (tid, sizeof tid, "gpu%" G_GINT64_FORMAT, buffer);
      else if (g_str_equal (lane, "main") || g_str_equal (lane, "io"))
        g_strlcpy (tid, lane, sizeof tid);
      else
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: event %u: lane “%s” is not main, io or gpu", name, i, lane);
          return FALSE;
        }
      if (cand >= 0)
        g_snprintf (cat, sizeof cat, "candidate %" G_GINT64_FORMAT, cand);
      else
        cat[0] = '\0';
      s = (IvRawSlice){ start,
                        dur,
                        0,
                        0,
                        _iv_trace_builder_intern (b, ev_name, -1),
                        _iv_trace_builder_intern (b, cat, -1),
                        _iv_trace_builder_track (b, "pipeline", tid, IV_TRACK_LANE) };
      /* (refused when any of those ran out of memory) */
      if (!_iv_trace_builder_add_slice (b, &s))
        {
          _iv_trace_set_oom_error (b, i, error);
          return FALSE;
        }

      if (cand >= 0)
        {
          /* The pool maps a candidate to its index: pointers into the array would move
           * as it grows. */
          char number[24];
          guint before = iv_intern_size (cands), index;
          IvCandidate *c;
          g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, cand);
          index = iv_intern_try_add (cands, number, -1);
          if (index == before)
            {
              IvCandidate fresh = { cand, -1, -1, -1, -1, 0, 0, (gint) buffer };
              IoParts none = { G_MAXINT64, G_MININT64, G_MAXINT64, G_MININT64 };
              if (!_iv_trace_builder_add (b, t->candidates, &fresh)
                  || !_iv_trace_builder_add (b, io_parts, &none))
                index = IV_INTERN_NONE;
            }
          if (index == IV_INTERN_NONE)
            {
              _iv_trace_set_oom_error (b, i, error);
              return FALSE;
            }
          c = &g_array_index (t->candidates, IvCandidate, index);
          if (g_str_equal (lane, "io"))
            {
              IoParts *io = &g_array_index (io_parts, IoParts, index);
              if (g_str_equal (ev_name, "gpu_buffer_wait"))
                io->wait_start = MIN (io->wait_start, start),
                io->wait_end = MAX (io->wait_end, start + dur);
              else if (g_str_equal (ev_name, "hdf5_read"))
                io->read_start = MIN (io->read_start, start),
                io->read_end = MAX (io->read_end, start + dur);
            }
          else if (g_str_equal (lane, "gpu"))
            {
              c->gpu_start_ns = c->gpu_start_ns < 0 ? start : MIN (c->gpu_start_ns, start);
              c->gpu_end_ns = MAX (c->gpu_end_ns, start + dur);
              c->buffer = (gint) buffer;
            }
        }
      if (g_str_equal (lane, "gpu"))
        iv_intervals_add (gpu, start, start + dur);
    }

  /* Each candidate's I/O as the reference figure draws it: from the end of its buffer
   * wait to the end of its reads (the reads, or the waits, alone when only those exist);
   * then the part of it during which some GPU stream was busy. */
  iv_intervals_merge (gpu);
  for (guint k = 0; k < t->candidates->len; k++)
    {
      IvCandidate *c = &g_array_index (t->candidates, IvCandidate, k);
      const IoParts *io = &g_array_index (io_parts, IoParts, k);
      gboolean waits = io->wait_end > G_MININT64, reads = io->read_end > G_MININT64;
      gint64 lo = waits && reads ? io->wait_end : reads ? io->read_start : io->wait_start;
      gint64 hi = reads ? io->read_end : io->wait_end;
      if (!(waits || reads) || hi <= lo)
        continue;
      c->io_start_ns = lo, c->io_end_ns = hi;
      c->io_hidden_ns = iv_intervals_covered (gpu, c->io_start_ns, c->io_end_ns);
      c->io_exposed_ns = c->io_end_ns - c->io_start_ns - c->io_hidden_ns;
    }
  {
    IvProcess *p = t->processes->len ? t->processes->pdata[0] : NULL;
    if (p && !p->name)
      p->name = g_strdup ("Pipeline");
  }
  for (guint i = 0; i < t->tracks->len; i++)
    {
      IvTrack *tr = &g_array_index (t->tracks, IvTrack, i);
      tr->name = g_strdup (g_str_equal (tr->key, "main")   ? "Main thread"
                           : g_str_equal (tr->key, "io")   ? "I/O"
                           : g_str_equal (tr->key, "gpu0") ? "GPU stream 0"
                           : g_str_equal (tr->key, "gpu1") ? "GPU stream 1"
                                                           : tr->key);
      tr->sort_index = g_str_equal (tr->key, "main") ? 0
                       : g_str_equal (tr->key, "io") ? 1
                                                     : 2 + atoi (tr->key + 3);
    }
  return TRUE;
}

/* ---------- breakdown ---------- */

void
iv_breakdown_free (IvBreakdown *bd)
{
  if (!bd)
    return;
  for (guint i = 0; i < bd->n_families; i++)
    g_free (bd->families[i].name);
  g_free (bd->families);
  g_free (bd);
}

IvBreakdown *
iv_breakdown_load (const char *path, GError **error)
{
  g_autoptr (JsonNode) doc = iv_json_load (path, error);
  g_autofree char *display = g_filename_display_name (path);
  JsonObject *root, *gpu;
  IvBreakdown *bd;
  g_autoptr (GList) members = NULL;

  if (!doc)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (doc))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", display);
      return NULL;
    }
  root = json_node_get_object (doc);
  if (g_strcmp0 (member_string (root, "format", ""), "candidate_breakdown_v1") != 0
      || !(gpu = iv_json_object (root, "gpu_ms")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a candidate_breakdown_v1 file with a “gpu_ms” object", display);
      return NULL;
    }
  bd = g_new0 (IvBreakdown, 1);
  bd->candidate = member_int (root, "candidate", -1);
  members = json_object_get_members (gpu);
  bd->families = g_new0 (IvFamily, g_list_length (members) + 1);
  for (GList *l = members; l; l = l->next)
    {
      JsonNode *n = json_object_get_member (gpu, l->data);
      double ms = NAN;
      if (JSON_NODE_HOLDS_VALUE (n)
          && (json_node_get_value_type (n) == G_TYPE_INT64
              || json_node_get_value_type (n) == G_TYPE_DOUBLE))
        ms = json_node_get_double (n);
      if (!isfinite (ms) || ms < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: gpu_ms “%s” must be a non-negative number", display, (char *) l->data);
          iv_breakdown_free (bd);
          return NULL;
        }
      bd->families[bd->n_families++] = (IvFamily){ g_strdup (l->data), ms };
      bd->total_ms += ms;
    }
  return bd;
}

IvBreakdown *
iv_breakdown_copy (const IvBreakdown *bd)
{
  IvBreakdown *copy = g_memdup2 (bd, sizeof *bd);

  copy->families = g_new0 (IvFamily, bd->n_families + 1);
  for (guint i = 0; i < bd->n_families; i++)
    copy->families[i] = (IvFamily){ g_strdup (bd->families[i].name), bd->families[i].ms };
  return copy;
}

IvBreakdownFile *
iv_breakdown_file_new (const char *path, IvBreakdown *breakdown)
{
  IvBreakdownFile *f = g_new (IvBreakdownFile, 1);

  f->path = g_strdup (path);
  f->breakdown = breakdown;
  return f;
}

void
iv_breakdown_file_free (IvBreakdownFile *f)
{
  if (!f)
    return;
  g_free (f->path);
  iv_breakdown_free (f->breakdown);
  g_free (f);
}

/* Sibling files looked at: enough for a results folder, bounded so a huge directory does
 * not hold up opening a trace; past it the user opens a breakdown by hand. */
#define BREAKDOWN_MAX_SIBLINGS 400
/* A breakdown is a few hundred bytes; a larger JSON file beside the trace is something
 * else and is not sniffed. */
#define BREAKDOWN_MAX_BYTES (1 << 20)

static int
compare_by_path (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 ((*(IvBreakdownFile *const *) a)->path, (*(IvBreakdownFile *const *) b)->path);
}

GPtrArray *
iv_breakdowns_beside (const char *trace_path, GCancellable *cancellable)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_breakdown_file_free);
  g_autofree char *dir = g_path_get_dirname (trace_path);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint seen = 0;

  while (d && (name = g_dir_read_name (d)) && seen++ < BREAKDOWN_MAX_SIBLINGS
         && !g_cancellable_is_cancelled (cancellable))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (IvSniffResult) kind = NULL;
      IvBreakdown *bd;
      GStatBuf st;

      if (!g_str_has_suffix (name, ".json") || g_strcmp0 (path, trace_path) == 0
          || g_stat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size >= BREAKDOWN_MAX_BYTES)
        continue;
      /* The sniffer decides from the first keys; only breakdowns are then parsed whole. */
      kind = iv_sniff_path (path, FALSE, NULL, NULL, cancellable, NULL);
      if (!kind || kind->kind != IV_KIND_CANDIDATE_BREAKDOWN)
        continue;
      bd = iv_breakdown_load (path, NULL);
      if (!bd)
        continue;
      g_ptr_array_add (found, iv_breakdown_file_new (path, bd));
    }
  g_ptr_array_sort (found, compare_by_path);
  return found;
}
