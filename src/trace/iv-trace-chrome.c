/* iv-trace-chrome.c: the Chrome Trace Event Format, read with the pull reader
 * (iv-json-pull): one event at a time straight from the window, no callback per token —
 * the parse is most of a load, and a yajl walk with callbacks cost twice a bare scan.
 * Each event's fields are collected as they come (keys come in any order), then the
 * event is dispatched by phase. "args" objects are not kept: their byte range is, and
 * they are decoded again when a slice is selected. Numbers are read as their text so
 * timestamps go straight to int64 nanoseconds without a double in between. */
#define G_LOG_DOMAIN "iv-trace"

#include <math.h>
#include <string.h>

#include "iv-json-pull.h"
#include "iv-safe-text.h"
#include "iv-trace-private.h"

#define MAX_SMALL_ARGS 16
/* Names and categories are kept whole up to NAME_LIMIT bytes: C++ kernel names run to a few
 * kilobytes (templates), and a name cut short is a different kernel. A longer one (only a
 * hostile file has one) is cut at a character boundary, so it stays valid UTF-8 and is
 * still drawn, and counted. Each distinct name is held once (the string pool), so memory
 * stays bounded by the file. Pids and tids keep 63 bytes, ids and argument text 95. */
#define NAME_LIMIT (64 * 1024)

typedef struct
{
  char key[64];
  char text[96];
  gboolean is_number;
} SmallArg;

/* A name or category of the event being read: copied out of the window (the value's
 * string may be in the reader's scratch, which the next string reuses). Grown by trying,
 * up to NAME_LIMIT + 1 bytes. */
typedef struct
{
  char *text; /* NUL-terminated */
  gsize len, cap;
} Text;

/* How often something was left out, and where the first one is: each warning names a
 * place the user can look at. */
typedef struct
{
  guint64 count;
  guint line, column;
} Place;

typedef enum
{
  F_NONE,
  F_PH,
  F_NAME,
  F_CAT,
  F_TS,
  F_DUR,
  F_PID,
  F_TID,
  F_ID,
  F_ID2,
  F_BP,
  F_S,
  F_ARGS,
  F_BIND_ID,
  F_FLOW_IN,
  F_FLOW_OUT, /* flow events v2, on the slices they bind */
} Field;

typedef struct
{
  IvTraceBuilder *b;
  IvJsonPull r;

  gboolean top_object;
  gboolean seen_events; /* an event array was found */
  guint64 events;

  /* the event being read */
  gsize event_at; /* its '{' in the window (for the places of warnings) */
  char ph;
  Text name, cat;
  char pid[64], tid[64], id[96], s_scope;
  char bind_id[96];
  gboolean has_ts, has_dur, bad_dur, bp_e, flow_in, flow_out;
  gboolean has_pid, has_tid, has_id, id_local, name_cut, saw_field;
  gint64 ts_ns, dur_ns;
  guint64 args_off, args_end;
  SmallArg args[MAX_SMALL_ARGS];
  guint n_args;
  Text last_cat;
  guint32 last_cat_id;
  gboolean last_cat_set;
  /* names seen lately, by a hash of their ends: one comparison instead of a copy, a full
   * hash and a table lookup per event (the pool's strings never move) */
  struct
  {
    const char *text;
    gsize len;
    guint32 id;
  } names[256];

  /* what was left out, for the warnings at the end of the load */
  Place no_ts, no_dur, no_async_id, cut_names, undirected_flows;
} Parser;

/* @v (@len bytes) as the text of @t, cut at NAME_LIMIT bytes at a character boundary;
 * FALSE when it was cut. Out of memory for it, the text is empty and the builder marked
 * (the load stops after this event). */
static gboolean
set_text (Parser *p, Text *t, const char *v, gsize len)
{
  gsize n = iv_text_prefix_len (v, len, NAME_LIMIT);

  if (n + 1 > t->cap)
    {
      gsize cap = MIN (MAX (t->cap * 2, n + 1), (gsize) NAME_LIMIT + 1);
      char *grown = g_try_realloc (t->text, cap);
      if (!grown)
        {
          p->b->out_of_memory = TRUE;
          t->len = 0;
          if (t->text)
            t->text[0] = '\0';
          return TRUE;
        }
      t->text = grown;
      t->cap = cap;
    }
  memcpy (t->text, v, n);
  t->text[n] = '\0';
  t->len = n;
  return n == len;
}

static void
clear_text (Text *t)
{
  g_clear_pointer (&t->text, g_free);
  t->len = t->cap = 0;
}

/* Counts one of @place, keeping the first one's line and column (the event's '{'). */
static void
count_place (Parser *p, Place *place)
{
  if (place->count++ == 0)
    iv_json_pull_where (&p->r, p->event_at, &place->line, &place->column);
}

/* ---------- numbers ---------- */

typedef enum
{
  US_OK,
  US_BAD,  /* not a number */
  US_HIGH, /* a number, beyond IV_TRACE_TIME_MAX */
  US_LOW,  /* a number, below −IV_TRACE_TIME_MAX */
} UsResult;

/* JSON's number grammar exactly: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. A time
 * written as a string must be one whole, as Perfetto requires (json_trace_tokenizer.cc,
 * CoerceToTs: the string's text goes through json::ParseValue and trailing characters are
 * refused): "100a", "invalid", "+5", "1." and "" are not times. */
static gboolean
is_json_number (const char *t, gsize len)
{
  gsize i = 0, from;

  if (i < len && t[i] == '-')
    i++;
  if (i < len && t[i] == '0')
    i++;
  else if (i < len && t[i] >= '1' && t[i] <= '9')
    while (i < len && g_ascii_isdigit (t[i]))
      i++;
  else
    return FALSE;
  if (i < len && t[i] == '.')
    {
      from = ++i;
      while (i < len && g_ascii_isdigit (t[i]))
        i++;
      if (i == from)
        return FALSE;
    }
  if (i < len && (t[i] == 'e' || t[i] == 'E'))
    {
      i++;
      if (i < len && (t[i] == '+' || t[i] == '-'))
        i++;
      from = i;
      while (i < len && g_ascii_isdigit (t[i]))
        i++;
      if (i == from)
        return FALSE;
    }
  return i == len;
}

/* Decimal µs text → ns, exact for plain decimals (the common case: no double between). */
static UsResult
parse_us (const char *t, gsize len, gint64 *ns)
{
  gboolean neg;
  gint64 whole = 0, frac = 0;
  int frac_digits = 0;
  gsize i = 0;

  if (!is_json_number (t, len))
    return US_BAD;
  neg = t[0] == '-';
  i = neg;
  for (; i < len && g_ascii_isdigit (t[i]); i++)
    {
      if (whole > G_MAXINT64 / 10 - 10)
        return neg ? US_LOW : US_HIGH;
      whole = whole * 10 + (t[i] - '0');
    }
  if (i < len && t[i] == '.')
    {
      i++;
      /* Keep three digits (ns) and round on the fourth. */
      for (; i < len && g_ascii_isdigit (t[i]); i++)
        {
          if (frac_digits < 3)
            frac = frac * 10 + (t[i] - '0'), frac_digits++;
          else if (frac_digits == 3)
            {
              if (t[i] >= '5')
                frac++;
              frac_digits++;
            }
        }
    }
  if (i < len)
    {
      /* An exponent: rare, so a double is fine here. */
      g_autofree char *buf = g_strndup (t, len);
      double v = g_ascii_strtod (buf, NULL) * 1000.0;
      if (!(v > -(double) IV_TRACE_TIME_MAX))
        return US_LOW;
      if (!(v < (double) IV_TRACE_TIME_MAX))
        return US_HIGH;
      *ns = (gint64) llround (v);
      return US_OK;
    }
  while (frac_digits < 3)
    frac *= 10, frac_digits++;
  if (whole > (IV_TRACE_TIME_MAX - 1000) / 1000)
    return neg ? US_LOW : US_HIGH;
  *ns = whole * 1000 + frac;
  if (neg)
    *ns = -*ns;
  return US_OK;
}

gboolean
_iv_trace_parse_us (const char *t, gsize len, gint64 *ns)
{
  return parse_us (t, len, ns) == US_OK;
}

/* A counter value written as a string ("0.75", ".75", "+10.5", "050"): a number when the
 * whole text is one, as Perfetto reads it (json_trace_parser.cc, the 'C' case:
 * base::StringToDouble, strtod over the whole string). Infinities and NaN are not drawn. */
static gboolean
parse_counter_text (const char *text, double *value)
{
  char *end;

  if (!*text)
    return FALSE;
  *value = g_ascii_strtod (text, &end);
  return *end == '\0' && isfinite (*value);
}

/* ---------- event dispatch ---------- */

static const char *small_arg (Parser *p, const char *key);

/* Kineto's allocator events, "[memory]" instants with args "Total Allocated" (bytes in use
 * after the event; newer Kineto), "Bytes" (the change: + allocated, − freed), "Device
 * Type" (0 CPU, 1 CUDA) and "Device Id": drawn as instants they are thousands of markers
 * over the labels; as a counter per device they are the memory curve. "Total Allocated"
 * is the level; a trace with "Bytes" only gets the running sum of the changes, from 0
 * where the trace began (what was allocated before is not in it): "since start" in its
 * name.
 * FALSE when the event says neither: it stays an instant. */
static gboolean
memory_sample (IvTraceBuilder *b, Parser *p)
{
  const char *total = small_arg (p, "Total Allocated"), *bytes = small_arg (p, "Bytes");
  const char *type = small_arg (p, "Device Type"), *id = small_arg (p, "Device Id");
  const char *v = total ? total : bytes;
  gboolean gpu = type && strcmp (type, "0") != 0;
  g_autofree char *counter = NULL;
  char *end = NULL;
  double value;
  guint track, series;

  if (!v)
    return FALSE;
  value = g_ascii_strtod (v, &end);
  if (end == v || *end || !isfinite (value))
    return FALSE;
  counter = gpu ? g_strdup_printf ("memory · GPU %s", id ? id : "?") : g_strdup ("memory · CPU");
  track = _iv_trace_builder_track (b, p->pid, counter, IV_TRACK_COUNTER);
  if (track == IV_BUILDER_NONE)
    return TRUE;
  {
    g_autofree char *label
        = g_strdup_printf ("%s · %s", counter, total ? "allocated" : "since start");
    series = _iv_trace_builder_series (b, track, label);
  }
  if (series == IV_BUILDER_NONE)
    return TRUE;
  if (!total)
    g_array_index (b->trace->series, IvCounterSeries, series).cumulative = TRUE;
  {
    IvRawSample s = { p->ts_ns, series, value };
    _iv_trace_builder_add (b, b->samples, &s);
  }
  return TRUE;
}

static const char *
small_arg (Parser *p, const char *key)
{
  for (guint i = 0; i < p->n_args; i++)
    if (strcmp (p->args[i].key, key) == 0)
      return p->args[i].text;
  return NULL;
}

/* @v (an argument's text, at most 95 bytes) as the new value of *@field; the builder is
 * out of memory when even that cannot be had. */
static void
replace_text (IvTraceBuilder *b, char **field, const char *v)
{
  gsize n = strlen (v) + 1;
  char *copy = g_try_malloc (n);

  if (!copy)
    {
      b->out_of_memory = TRUE;
      return;
    }
  memcpy (copy, v, n);
  g_free (*field);
  *field = copy;
}

static void
apply_metadata (Parser *p)
{
  IvTraceBuilder *b = p->b;
  const char *v = NULL;
  char **text = NULL; /* the field a name or labels replace, once the index is known */
  enum
  {
    NAME,
    LABELS,
    SORT
  } what
      = NAME;
  gboolean process = TRUE;
  guint index;

  if (strcmp (p->name.text, "process_name") == 0)
    what = NAME, v = small_arg (p, "name");
  else if (strcmp (p->name.text, "process_labels") == 0)
    what = LABELS, v = small_arg (p, "labels");
  else if (strcmp (p->name.text, "process_sort_index") == 0)
    what = SORT, v = small_arg (p, "sort_index");
  else if (strcmp (p->name.text, "thread_name") == 0)
    what = NAME, v = small_arg (p, "name"), process = FALSE;
  else if (strcmp (p->name.text, "thread_sort_index") == 0)
    what = SORT, v = small_arg (p, "sort_index"), process = FALSE;
  if (!v)
    return;
  /* Index first: creating the track may move the array. IV_BUILDER_NONE: out of memory,
   * and the load stops after this event. */
  index = process ? _iv_trace_builder_process (b, p->pid)
                  : _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD);
  if (index == IV_BUILDER_NONE)
    return;
  if (process)
    {
      IvProcess *proc = b->trace->processes->pdata[index];
      if (what == SORT)
        proc->sort_index = g_ascii_strtoll (v, NULL, 10);
      else
        text = what == NAME ? &proc->name : &proc->labels;
    }
  else
    {
      IvTrack *t = &g_array_index (b->trace->tracks, IvTrack, index);
      if (what == SORT)
        t->sort_index = g_ascii_strtoll (v, NULL, 10);
      else
        text = &t->name;
    }
  if (text)
    replace_text (b, text, v);
}

/* The id of a key joining three texts (a flow's or an async span's); 0 when out of
 * memory (the builder is then marked, and the load stops after this event). */
static guint32
intern_key (IvTraceBuilder *b, const char *a, const char *c, const char *d)
{
  guint32 id = _iv_trace_intern_joined (b->trace->strings, a, c, d);
  if (id != IV_INTERN_NONE)
    return id;
  b->out_of_memory = TRUE;
  return 0;
}

/* An async event's track: its name's, unless a span of the same category and id is open
 * (in file order) — then that span's, so nested async slices nest under their parent
 * instead of each going to a track of its own name. The (pid, category, id) keys are a
 * pool whose ids index their IvAsyncOpen (depth 0 when none is open): a pool's growth can
 * fail as an error, a hash table's cannot. */
static guint
async_track (Parser *p)
{
  IvTraceBuilder *b = p->b;
  guint before = iv_intern_size (b->async_keys);
  guint32 id = _iv_trace_intern_joined (b->async_keys, p->pid, p->cat.text, p->id);
  IvAsyncOpen *open = NULL;
  guint track;

  if (id == IV_INTERN_NONE)
    {
      b->out_of_memory = TRUE;
      return IV_BUILDER_NONE;
    }
  if (id == before)
    {
      IvAsyncOpen none = { 0, 0 };
      if (!_iv_trace_builder_add (b, b->async_open, &none))
        return IV_BUILDER_NONE;
    }
  open = &g_array_index (b->async_open, IvAsyncOpen, id);
  if (open->depth > 0)
    {
      if (p->ph == 'b')
        open->depth++;
      else if (p->ph == 'e')
        open->depth--;
      return open->track;
    }
  track = _iv_trace_builder_track (b, p->pid, p->name.text, IV_TRACK_ASYNC);
  /* the array is not grown between the lookup and here: @open still points into it */
  if (p->ph == 'b' && p->id[0] && track != IV_BUILDER_NONE)
    open->track = track, open->depth = 1;
  return track;
}

static guint32
intern_name (Parser *p)
{
  const char *text = p->name.text;
  gsize len = p->name.len;
  guint32 h = (guint32) len * 2654435761u;
  guint slot;

  /* the first and last four bytes: kernel names share long prefixes, numbered ops their
   * stems */
  for (gsize i = 0; i < MIN (len, 4); i++)
    h = (h ^ (guchar) text[i]) * 16777619u;
  for (gsize i = len > 4 ? MAX (len - 4, 4) : len; i < len; i++)
    h = (h ^ (guchar) text[i]) * 16777619u;
  slot = (h ^ (h >> 16)) % G_N_ELEMENTS (p->names);
  if (p->names[slot].text && p->names[slot].len == len
      && memcmp (p->names[slot].text, text, len) == 0)
    return p->names[slot].id;
  p->names[slot].id = iv_intern_try_add (p->b->trace->strings, text, (gssize) len);
  if (p->names[slot].id == IV_INTERN_NONE)
    {
      /* out of memory: the load stops after this event */
      p->b->out_of_memory = TRUE;
      p->names[slot].text = NULL;
      return 0;
    }
  p->names[slot].text = iv_intern_get (p->b->trace->strings, p->names[slot].id);
  /* a name with a NUL inside (\u0000) is kept up to it: never cached, never over-read */
  p->names[slot].len = strlen (p->names[slot].text) == len ? len : G_MAXSIZE;
  return p->names[slot].id;
}

/* Flow events v2 (Perfetto's MaybeAddFlow, json_trace_parser.cc: on B, b, n and X):
 * the slice the event starts leaves (flow_out) or receives (flow_in) the flow named by
 * bind_id — a v1 flow start, or an end binding its enclosing slice, at the event's time
 * on @track; both is a step. A bind_id with neither direction is counted. */
static void
add_flow_v2 (Parser *p, guint track, guint32 name, guint32 cat)
{
  IvTraceBuilder *b = p->b;
  guint32 key;

  if (!p->bind_id[0])
    return;
  if (!p->flow_out && !p->flow_in)
    {
      count_place (p, &p->undirected_flows);
      return;
    }
  if (track == IV_BUILDER_NONE)
    return;
  key = intern_key (b, "\x1fv2", "", p->bind_id);
  {
    /* in and out: a step (Perfetto: FlowTracker::Step), the flow passing through */
    char ph = p->flow_in && p->flow_out ? 't' : p->flow_out ? 's' : 'f';
    IvRawFlow f = { p->ts_ns, track, key, name, cat, ph, TRUE, b->seq++ };
    _iv_trace_builder_add (b, b->flows, &f);
  }
}

/* The thread of an event without one is its process's main thread, tid = pid, as in
 * Perfetto (json_trace_tokenizer.cc, ParseTraceEventContents: "Make the tid equal to the
 * pid if tid is not set"); a missing or null tid. Perfetto's test cannot tell a missing
 * tid from a written 0 and moves "tid": 0 as well, merging thread 0 into thread pid
 * (speedscope's multiprocess.json has both); Inferview keeps a written 0. */
static void
default_tid (Parser *p)
{
  if (!p->has_tid && p->has_pid)
    g_strlcpy (p->tid, p->pid, sizeof p->tid);
}

static void
dispatch (Parser *p)
{
  IvTraceBuilder *b = p->b;
  IvTrace *t = b->trace;
  guint32 name = intern_name (p);
  guint32 cat;

  /* Categories repeat from one event to the next: skip the hash most of the time. */
  if (p->last_cat_set && p->cat.len == p->last_cat.len
      && memcmp (p->cat.text, p->last_cat.text, p->cat.len) == 0)
    cat = p->last_cat_id;
  else
    {
      cat = _iv_trace_builder_intern (b, p->cat.text, (gssize) p->cat.len);
      set_text (p, &p->last_cat, p->cat.text, p->cat.len);
      p->last_cat_id = cat;
      p->last_cat_set = TRUE;
    }
  guint32 args_len
      = p->args_end > p->args_off ? (guint32) MIN (p->args_end - p->args_off, G_MAXUINT32) : 0;

  if (p->name_cut)
    count_place (p, &p->cut_names);
  default_tid (p);
  if (p->ph == 'M')
    {
      /* metadata needs no time (Perfetto: "Don't check ts for metadata events") */
      apply_metadata (p);
      return;
    }
  if (!p->has_ts)
    {
      /* Perfetto skips such an event too (json_tokenizer_failure), never time 0 */
      count_place (p, &p->no_ts);
      return;
    }
  if (p->bad_dur || (p->ph == 'X' && !p->has_dur))
    {
      /* Perfetto: a dur that is not a number fails the event (CoerceToTs), and an X
       * without one is a json_parser_failure (JsonTraceParser::ParseJsonPacket) */
      count_place (p, &p->no_dur);
      return;
    }
  /* The legacy async phases: S start, T/p step, F finish. */
  if (p->ph == 'S')
    p->ph = 'b';
  else if (p->ph == 'F')
    p->ph = 'e';
  else if (p->ph == 'T' || p->ph == 'p')
    p->ph = 'n';
  switch (p->ph)
    {
    case 'X':
      {
        /* Clamped so that the end, too, stays a representable time. */
        gint64 dur = CLAMP (p->dur_ns, 0, IV_TRACE_TIME_MAX - p->ts_ns);
        IvRawSlice s = { p->ts_ns,
                         dur,
                         p->args_off,
                         args_len,
                         name,
                         cat,
                         _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD) };
        if (_iv_trace_builder_add_slice (b, &s))
          add_flow_v2 (p, s.track, name, cat);
        break;
      }
    case 'B':
    case 'E':
      {
        guint track = _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD);
        IvRawEdge e = { p->ts_ns, b->seq++, p->args_off, args_len, name, cat, track, track, p->ph };
        if (_iv_trace_builder_add (b, b->edges, &e) && p->ph == 'B')
          add_flow_v2 (p, track, name, cat);
        break;
      }
    case 'i':
    case 'I':
      if (strcmp (p->name.text, "[memory]") == 0 && memory_sample (b, p))
        break;
      /* fall through */
    case 'R':
      {
        char scope = p->s_scope ? p->s_scope : 't';
        IvInstant in = { p->ts_ns, name, G_MAXUINT, scope };
        if (scope == 't' || p->ph == 'R')
          in.track = _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD);
        else if (scope == 'p')
          in.track = _iv_trace_builder_track (b, p->pid, "", IV_TRACK_THREAD);
        _iv_trace_builder_add (b, t->instants, &in);
        break;
      }
    case 'C':
      {
        /* a counter is its name and id (two "memory" counters of ids 1 and 2 are two);
         * each series reads "name · key". */
        g_autofree char *counter = p->id[0] ? g_strdup_printf ("%s (id %s)", p->name.text, p->id)
                                            : g_strdup (p->name.text);
        guint track = _iv_trace_builder_track (b, p->pid, counter, IV_TRACK_COUNTER);
        for (guint i = 0; i < p->n_args && track != IV_BUILDER_NONE; i++)
          {
            double value;
            guint series;
            if (p->args[i].is_number)
              value = g_ascii_strtod (p->args[i].text, NULL);
            else if (!parse_counter_text (p->args[i].text, &value))
              {
                b->text_counter_values++;
                continue;
              }
            {
              g_autofree char *label = g_strdup_printf ("%s · %s", counter, p->args[i].key);
              series = _iv_trace_builder_series (b, track, label);
            }
            if (series == IV_BUILDER_NONE)
              break;
            IvRawSample s = { p->ts_ns, series, value };
            _iv_trace_builder_add (b, b->samples, &s);
          }
        break;
      }
    case 'b':
    case 'n':
    case 'e':
      {
        /* Perfetto needs an id (or id2's local or global) and a pid to tell which span an
         * async event belongs to, and skips the event without them (json_trace_parser.cc,
         * json_parser_failure); an empty string "" is an id like any other. */
        if (!p->has_id || !p->has_pid)
          {
            count_place (p, &p->no_async_id);
            break;
          }
        if (p->id_local)
          {
            /* id2.local: the id is the process's own (Perfetto: source_id_is_process_scoped) */
            char scoped[sizeof p->id];
            g_snprintf (scoped, sizeof scoped, "%s\x1elocal\x1e%s", p->pid, p->id);
            g_strlcpy (p->id, scoped, sizeof p->id);
          }
        guint track = async_track (p);
        IvRawEdge e
            = { p->ts_ns, b->seq++, p->args_off, args_len,
                name,     cat,      track,       intern_key (b, p->cat.text, p->name.text, p->id),
                p->ph };
        if (_iv_trace_builder_add (b, b->async_edges, &e) && p->ph == 'b')
          add_flow_v2 (p, track, name, cat);
        break;
      }
    case 's':
    case 't':
    case 'f':
      {
        IvRawFlow f = { p->ts_ns,
                        _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD),
                        intern_key (b, p->cat.text, p->name.text, p->id),
                        name,
                        cat,
                        p->ph,
                        p->bp_e,
                        b->seq++ };
        _iv_trace_builder_add (b, b->flows, &f);
        break;
      }
    default:
      if ((guchar) p->ph < 128)
        b->skipped[(guchar) p->ph]++;
      else
        b->unknown_phase++;
      break;
    }
}

static void
reset_event (Parser *p)
{
  p->ph = 0;
  p->name.len = p->cat.len = 0;
  p->name.text[0] = p->cat.text[0] = p->id[0] = '\0';
  g_strlcpy (p->pid, "0", sizeof p->pid);
  g_strlcpy (p->tid, "0", sizeof p->tid);
  p->s_scope = 0;
  p->has_ts = p->has_dur = p->bad_dur = p->bp_e = p->flow_in = p->flow_out = FALSE;
  p->has_pid = p->has_tid = p->has_id = p->id_local = p->name_cut = p->saw_field = FALSE;
  p->bind_id[0] = '\0';
  p->args_off = p->args_end = 0;
  p->n_args = 0;
}

/* ---------- fields ---------- */

static Field
field_of (const unsigned char *k, size_t len)
{
  switch (len)
    {
    case 1:
      return k[0] == 's' ? F_S : F_NONE;
    case 2:
      if (k[0] == 'p' && k[1] == 'h')
        return F_PH;
      if (k[0] == 't' && k[1] == 's')
        return F_TS;
      if (k[0] == 'i' && k[1] == 'd')
        return F_ID;
      if (k[0] == 'b' && k[1] == 'p')
        return F_BP;
      return F_NONE;
    case 3:
      if (memcmp (k, "pid", 3) == 0)
        return F_PID;
      if (memcmp (k, "tid", 3) == 0)
        return F_TID;
      if (memcmp (k, "cat", 3) == 0)
        return F_CAT;
      if (memcmp (k, "dur", 3) == 0)
        return F_DUR;
      if (memcmp (k, "id2", 3) == 0)
        return F_ID2;
      return F_NONE;
    case 4:
      if (memcmp (k, "name", 4) == 0)
        return F_NAME;
      if (memcmp (k, "args", 4) == 0)
        return F_ARGS;
      return F_NONE;
    case 7:
      if (memcmp (k, "bind_id", 7) == 0)
        return F_BIND_ID;
      if (memcmp (k, "flow_in", 7) == 0)
        return F_FLOW_IN;
      return F_NONE;
    case 8:
      if (memcmp (k, "flow_out", 8) == 0)
        return F_FLOW_OUT;
      return F_NONE;
    default:
      return F_NONE;
    }
}

/* @src into @dst of @cap bytes, cut (when it must be) at a character boundary: a name
 * cut inside a character would be invalid UTF-8, and not drawn. */
static void
copy_text (char *dst, gsize cap, const char *src, gsize len, gsize *out_len)
{
  gsize n = len < cap ? len : iv_text_prefix_len (src, len, cap - 1);
  memcpy (dst, src, n);
  dst[n] = '\0';
  if (out_len)
    *out_len = n;
}

/* The value of an event's field, as text (numbers as written, booleans as true/false). */
static void
event_field (Parser *p, Field field, const char *v, size_t len, gboolean is_number)
{
  switch (field)
    {
    case F_PH:
      p->ph = len ? v[0] : 0;
      break;
    case F_NAME:
      p->name_cut |= !set_text (p, &p->name, v, len);
      break;
    case F_CAT:
      p->name_cut |= !set_text (p, &p->cat, v, len);
      break;
    case F_TS:
      p->has_ts = parse_us (v, len, &p->ts_ns) == US_OK;
      break;
    case F_DUR:
      switch (parse_us (v, len, &p->dur_ns))
        {
        case US_OK:
          p->has_dur = TRUE;
          break;
        case US_HIGH: /* a number too large: clamped to what a trace holds */
          p->dur_ns = IV_TRACE_TIME_MAX, p->has_dur = TRUE;
          break;
        case US_LOW:
          p->dur_ns = 0, p->has_dur = TRUE;
          break;
        case US_BAD:
        default:
          p->has_dur = FALSE, p->bad_dur = TRUE;
          break;
        }
      break;
    case F_PID:
      copy_text (p->pid, sizeof p->pid, v, len, NULL);
      p->has_pid = TRUE;
      break;
    case F_TID:
      copy_text (p->tid, sizeof p->tid, v, len, NULL);
      p->has_tid = TRUE;
      break;
    case F_ID:
      copy_text (p->id, sizeof p->id, v, len, NULL);
      p->has_id = TRUE;
      break;
    case F_BP:
      p->bp_e = len == 1 && v[0] == 'e';
      break;
    case F_S:
      p->s_scope = len ? v[0] : 0;
      break;
    case F_BIND_ID:
      copy_text (p->bind_id, sizeof p->bind_id, v, len, NULL);
      break;
    case F_FLOW_IN:
      p->flow_in = !is_number && len == 4 && memcmp (v, "true", 4) == 0;
      break;
    case F_FLOW_OUT:
      p->flow_out = !is_number && len == 4 && memcmp (v, "true", 4) == 0;
      break;
    case F_NONE:
    case F_ID2:
    case F_ARGS:
    default:
      break;
    }
}

/* A member of args or id2 (one level deep: containers inside are passed over). */
typedef void (*MemberFunc) (Parser *p, const char *key, gsize key_len, const char *v, gsize len,
                            gboolean is_number);

typedef struct
{
  Parser *p;
  MemberFunc member;
} FlatObject;

static IvPullStatus
flat_member (IvJsonPull *r, const char *k, gsize klen, gpointer data)
{
  FlatObject *o = data;
  const char *v;
  gsize vlen;
  gboolean is_number;
  char key[64];
  IvPullStatus st;

  if (r->at[r->pos] == '{' || r->at[r->pos] == '[')
    return iv_json_pull_skip (r);
  /* the key's text may live in the scratch buffer the value's string reuses */
  copy_text (key, sizeof key, k, klen, &klen);
  if ((st = iv_json_pull_scalar (r, &v, &vlen, &is_number)) == IV_PULL_OK && v)
    o->member (o->p, key, klen, v, vlen, is_number);
  return st;
}

static IvPullStatus
read_flat_object (Parser *p, MemberFunc member)
{
  FlatObject o = { p, member };
  return iv_json_pull_object (&p->r, flat_member, &o);
}

/* Only metadata and counters need their args now (the phase usually comes first; when
 * it does not, the args are kept just in case). */
static void
small_arg_member (Parser *p, const char *key, gsize key_len, const char *v, gsize len,
                  gboolean is_number)
{
  if (p->n_args < MAX_SMALL_ARGS)
    {
      SmallArg *a = &p->args[p->n_args++];
      copy_text (a->key, sizeof a->key, key, key_len, NULL);
      copy_text (a->text, sizeof a->text, v, len, NULL);
      a->is_number = is_number;
    }
}

/* id2: {"local": …} or {"global": …} stands in for id; other keys say nothing (Perfetto's
 * ParseId2 reads only these two). A local id belongs to its process. */
static void
id2_member (Parser *p, const char *key, gsize key_len, const char *v, gsize len, gboolean is_number)
{
  gboolean local = key_len == 5 && memcmp (key, "local", 5) == 0;

  if (!local && !(key_len == 6 && memcmp (key, "global", 6) == 0))
    return;
  copy_text (p->id, sizeof p->id, v, len, NULL);
  p->has_id = TRUE;
  p->id_local = local;
}

/* One field of an event. */
static IvPullStatus
event_member (IvJsonPull *r, const char *k, gsize klen, gpointer data)
{
  Parser *p = data;
  Field field = field_of ((const unsigned char *) k, klen);
  char c = r->at[r->pos];
  const char *v;
  gsize vlen;
  gboolean is_number;
  IvPullStatus st;

  p->saw_field = TRUE;
  if (c == '{' && field == F_ARGS)
    {
      gsize from = r->pos;
      /* and the allocator's [memory] instants: they become a memory counter */
      st = p->ph == 0 || p->ph == 'M' || p->ph == 'C'
                   || ((p->ph == 'i' || p->ph == 'I') && strcmp (p->name.text, "[memory]") == 0)
               ? read_flat_object (p, small_arg_member)
               : iv_json_pull_skip (r);
      p->args_off = iv_json_pull_offset (r, from);
      p->args_end = iv_json_pull_offset (r, r->pos);
      return st;
    }
  if (c == '{' && field == F_ID2)
    return read_flat_object (p, id2_member);
  /* a duration that is no number (an object, true, null): Perfetto fails the event */
  if (field == F_DUR && (c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n'))
    p->bad_dur = TRUE;
  if (c == '{' || c == '[')
    return iv_json_pull_skip (r);
  if ((st = iv_json_pull_scalar (r, &v, &vlen, &is_number)) == IV_PULL_OK
      && v
      /* true and false mean something to the flow fields only */
      && ((c != 't' && c != 'f') || field == F_FLOW_IN || field == F_FLOW_OUT))
    event_field (p, field, v, vlen, is_number);
  return st;
}

/* One event object at the cursor, its fields collected; dispatched by the caller. */
static IvPullStatus
read_event (Parser *p)
{
  reset_event (p);
  p->event_at = p->r.pos;
  return iv_json_pull_object (&p->r, event_member, p);
}

/* Where the reader is between steps. */
typedef enum
{
  AT_START,        /* before the top value */
  AT_MEMBER,       /* in the top object: before a member, or its end */
  AT_MEMBER_NEXT,  /* in the top object: after a member */
  AT_ELEMENT,      /* in the event array: before an element, or its end */
  AT_ELEMENT_NEXT, /* in the event array: after an element */
  AT_END,          /* after the top value */
} State;

/* One step from @state: a member of the top object, an event, a separator. Nothing is
 * changed until the step completes (an event is dispatched last), so a step cut by the
 * window's end is simply run again. */
static IvPullStatus
step (Parser *p, State *state, gboolean *first)
{
  IvJsonPull *r = &p->r;
  IvPullStatus st;
  const char *k;
  gsize klen;
  char c;

  if (*state == AT_END)
    {
      if (iv_json_pull_ws (r))
        return iv_json_pull_fail (r, r->pos, "more text after the JSON value");
      return r->eof ? IV_PULL_OK : IV_PULL_MORE;
    }
  if ((st = iv_json_pull_need (r)) != IV_PULL_OK)
    return st;
  c = r->at[r->pos];
  switch (*state)
    {
    case AT_START:
      if (c == '[')
        r->pos++, *state = AT_ELEMENT, *first = TRUE, p->seen_events = TRUE;
      else if (c == '{')
        r->pos++, *state = AT_MEMBER, *first = TRUE, p->top_object = TRUE;
      else if ((st = iv_json_pull_skip (r)) == IV_PULL_OK)
        *state = AT_END;
      return st;
    case AT_MEMBER:
      if (c == '}')
        {
          /* after a comma: a trailing one, which Perfetto's reader takes */
          if (!*first)
            iv_json_pull_note_trailing_comma (r, r->pos);
          r->pos++, *state = AT_END;
          return IV_PULL_OK;
        }
      if ((st = iv_json_pull_key (r, &k, &klen)) != IV_PULL_OK)
        return st;
      if (klen == 11 && memcmp (k, "traceEvents", 11) == 0 && r->at[r->pos] == '[')
        {
          r->pos++, *state = AT_ELEMENT, *first = TRUE, p->seen_events = TRUE;
          return IV_PULL_OK;
        }
      {
        /* Any other member: passed over, then read for what the file says about itself
         * (metadata, distributedInfo, deviceProperties) once it is whole. The key first:
         * its text may be in the buffer the value's strings reuse. */
        char key[256];
        gsize from = r->pos;
        gsize n = iv_text_prefix_len (k, klen, sizeof key - 1);
        memcpy (key, k, n);
        key[n] = '\0';
        if ((st = iv_json_pull_skip (r)) != IV_PULL_OK)
          return st;
        _iv_trace_info_add_member (p->b->trace->info, key, r->at + from, r->pos - from);
        *state = AT_MEMBER_NEXT;
        return IV_PULL_OK;
      }
    case AT_MEMBER_NEXT:
      if (c != ',' && c != '}')
        return iv_json_pull_fail (r, r->pos, "a missing ',' or '}' in the top object");
      r->pos++, *first = FALSE;
      *state = c == ',' ? AT_MEMBER : AT_END;
      return IV_PULL_OK;
    case AT_ELEMENT:
      if (c == ']')
        {
          /* after a comma: a trailing one, which Perfetto takes (its issue 1822) */
          if (!*first)
            iv_json_pull_note_trailing_comma (r, r->pos);
          r->pos++;
          *state = p->top_object ? AT_MEMBER_NEXT : AT_END;
          return IV_PULL_OK;
        }
      if (c == '{')
        {
          if ((st = read_event (p)) != IV_PULL_OK)
            return st;
          p->events++;
          /* "{}" ends many arrays (the JAX/XLA profiler writes one to avoid a trailing
           * comma): passed over without a word, as Perfetto does (its issue 6251) */
          if (p->saw_field)
            dispatch (p);
        }
      else if ((st = iv_json_pull_skip (r)) != IV_PULL_OK)
        return st;
      *state = AT_ELEMENT_NEXT;
      return IV_PULL_OK;
    case AT_ELEMENT_NEXT:
      if (c != ',' && c != ']')
        return iv_json_pull_fail (r, r->pos, "a missing ',' or ']' in the event array");
      r->pos++, *first = FALSE;
      *state = c == ',' ? AT_ELEMENT : p->top_object ? AT_MEMBER_NEXT : AT_END;
      return IV_PULL_OK;
    case AT_END:
    default:
      g_assert_not_reached ();
    }
}

static void
warn_place (IvTrace *t, const Place *place, const char *what)
{
  if (place->count)
    _iv_trace_warn (t, "%" G_GUINT64_FORMAT " %s, the first at line %u, column %u", place->count,
                    what, place->line, place->column);
}

/* What was left out or taken leniently, each kind once, with its first place. */
static void
warn_left_out (Parser *p)
{
  IvTrace *t = p->b->trace;
  IvJsonPull *r = &p->r;

  if (r->n_trailing_commas)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT " trailing commas (a ',' right before a closing '}' or "
                    "']', which JSON does not allow) were read past, the first before line %u, "
                    "column %u",
                    r->n_trailing_commas, r->comma_line, r->comma_column);
  if (r->n_raw_controls)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT " control characters (line breaks, tabs) inside strings, "
                    "which JSON does not allow, were kept as written, the first at line %u, "
                    "column %u",
                    r->n_raw_controls, r->control_line, r->control_column);
  warn_place (t, &p->no_ts,
              "events without a usable timestamp (missing, not a number, or beyond ±146 years) "
              "skipped");
  warn_place (t, &p->no_dur,
              "events without a usable duration (an X event without \"dur\", or a \"dur\" that "
              "is not a number) skipped");
  warn_place (t, &p->no_async_id, "async events (b, n, e) without an id or a pid skipped");
  warn_place (t, &p->undirected_flows,
              "events with a bind_id but neither flow_in nor flow_out bound no flow");
  warn_place (t, &p->cut_names, "names or categories longer than 64 KiB were cut");
  if (t->info && t->info->n_dropped)
    _iv_trace_warn (t,
                    "%" G_GUINT64_FORMAT " members of the file's metadata past the first %d of "
                    "their group were not kept",
                    t->info->n_dropped, IV_TRACE_INFO_MAX_ITEMS);
}

gboolean
_iv_trace_load_chrome (IvTraceBuilder *b, IvInput *input, IvProgressFunc progress,
                       gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree Parser *p = g_new0 (Parser, 1);
  IvJsonPull *r = &p->r;
  State state = AT_START;
  gboolean first = TRUE, ok = TRUE;
  IvPullStatus st = IV_PULL_OK;
  const char *name = iv_input_get_name (input);

  p->b = b;
  /* never NULL: reset_event writes their first byte */
  if (!set_text (p, &p->name, "", 0) || !set_text (p, &p->cat, "", 0) || b->out_of_memory)
    {
      _iv_trace_set_oom_error (b, 0, error);
      clear_text (&p->name);
      clear_text (&p->cat);
      return FALSE;
    }
  if (!(b->window ? iv_json_pull_init_sized (r, input, b->window, progress, progress_data,
                                             cancellable, error)
                  : iv_json_pull_init (r, input, progress, progress_data, cancellable, error)))
    {
      iv_json_pull_clear (r);
      clear_text (&p->name);
      clear_text (&p->cat);
      return FALSE;
    }
  r->lenient = TRUE; /* what Perfetto loads, with a warning (iv-json-pull.h) */
  for (;;)
    {
      gsize from;
      State before = state;
      gboolean first_before = first;

      /* Whitespace between steps is passed over for good: a gigabyte of it (a bomb) must
       * not be kept and rescanned as the start of the next step. */
      if (!iv_json_pull_ws (r) && !r->eof)
        {
          if (!iv_json_pull_refill (r, r->pos, error))
            {
              ok = FALSE;
              break;
            }
          continue;
        }
      from = r->pos;
      st = step (p, &state, &first);
      if (b->out_of_memory)
        {
          _iv_trace_set_oom_error (b, p->events, error);
          ok = FALSE;
          break;
        }
      if (st == IV_PULL_OK && state == AT_END && r->pos == r->len && r->eof)
        break;
      if (st == IV_PULL_MORE)
        {
          /* the window ended inside the step: from its start again, with more text */
          state = before, first = first_before;
          if (r->eof)
            {
              st = iv_json_pull_fail (r, r->len, "the text ends early");
              break;
            }
          if (!iv_json_pull_refill (r, from, error))
            {
              ok = FALSE;
              break;
            }
          continue;
        }
      if (st == IV_PULL_ERROR)
        break;
    }
  if (ok && st == IV_PULL_ERROR && r->out_of_memory)
    {
      /* not damage: a string or a nesting the reader had no memory for */
      _iv_trace_set_oom_error (b, p->events, error);
      ok = FALSE;
    }
  else if (ok && st == IV_PULL_ERROR)
    {
      guint line, column;
      /* at the end of the text: the file stops inside a value */
      gboolean early = r->eof && r->error_at >= r->len;

      iv_json_pull_where (r, r->error_at, &line, &column);
      if (p->events > 0)
        {
          /* A writer killed mid-file, or a file damaged: keep every complete event before
           * the place, and say what is wrong there. The first warning of the trace (the
           * window's banner shows it). */
          b->trace->truncated = TRUE;
          if (early)
            _iv_trace_warn (b->trace,
                            "the file ends early at line %u, column %u; the %" G_GUINT64_FORMAT
                            " complete %s before that point %s kept",
                            line, column, p->events, p->events == 1 ? "event" : "events",
                            p->events == 1 ? "is" : "are");
          else
            _iv_trace_warn (b->trace,
                            "the file is damaged at line %u, column %u (%s); the %" G_GUINT64_FORMAT
                            " complete %s before that point %s kept, nothing after it",
                            line, column, r->error_reason, p->events,
                            p->events == 1 ? "event" : "events", p->events == 1 ? "is" : "are");
        }
      else
        {
          g_set_error (error, IV_JSON_STREAM_ERROR,
                       early ? IV_JSON_STREAM_ERROR_TRUNCATED : IV_JSON_STREAM_ERROR_SYNTAX,
                       "%s: line %u, column %u: %s", name, line, column,
                       early ? "the JSON text ends early" : r->error_reason);
          ok = FALSE;
        }
    }
  else if (ok && !p->seen_events && p->events == 0 && !p->top_object)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: not a Chrome trace (no event array)", name);
      ok = FALSE;
    }
  if (ok)
    warn_left_out (p);
  iv_json_pull_clear (r);
  clear_text (&p->name);
  clear_text (&p->cat);
  clear_text (&p->last_cat);
  return ok;
}
