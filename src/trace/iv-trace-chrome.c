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
/* Names and categories are kept up to 511 bytes, pids and tids 63, ids and argument text
 * 95: far beyond real ones, and each is cut at a character boundary (a cut name stays
 * valid UTF-8, so it is still drawn). */
#define TEXT_MAX 512

typedef struct
{
  char key[64];
  char text[96];
  gboolean is_number;
} SmallArg;

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
  char ph;
  char name[TEXT_MAX], cat[TEXT_MAX], pid[64], tid[64], id[96], s_scope;
  char bind_id[96];
  gsize name_len, cat_len;
  gboolean has_ts, has_dur, bp_e, flow_in, flow_out;
  gint64 ts_ns, dur_ns;
  guint64 args_off, args_end;
  SmallArg args[MAX_SMALL_ARGS];
  guint n_args;
  char last_cat[TEXT_MAX];
  gsize last_cat_len;
  guint32 last_cat_id;
  /* names seen lately, by a hash of their ends: one comparison instead of a copy, a full
   * hash and a table lookup per event (the pool's strings never move) */
  struct
  {
    const char *text;
    gsize len;
    guint32 id;
  } names[256];
} Parser;

/* ---------- numbers ---------- */

gboolean
_iv_trace_parse_us (const char *t, gsize len, gint64 *ns)
{
  gboolean neg = FALSE;
  gint64 whole = 0, frac = 0;
  int frac_digits = 0;
  gsize i = 0;

  if (len && (t[0] == '-' || t[0] == '+'))
    neg = t[0] == '-', i++;
  if (i == len)
    return FALSE;
  for (; i < len && g_ascii_isdigit (t[i]); i++)
    {
      if (whole > G_MAXINT64 / 10 - 10)
        return FALSE;
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
      /* Exponents and the like: rare, so a double is fine here. */
      char buf[64];
      double v;
      if (len >= sizeof buf)
        return FALSE;
      memcpy (buf, t, len);
      buf[len] = '\0';
      v = g_ascii_strtod (buf, NULL) * 1000.0;
      if (!(v > -(double) IV_TRACE_TIME_MAX && v < (double) IV_TRACE_TIME_MAX))
        return FALSE;
      *ns = (gint64) llround (v);
      return TRUE;
    }
  while (frac_digits < 3)
    frac *= 10, frac_digits++;
  if (whole > (IV_TRACE_TIME_MAX - 1000) / 1000)
    return FALSE;
  *ns = whole * 1000 + frac;
  if (neg)
    *ns = -*ns;
  return TRUE;
}

/* ---------- event dispatch ---------- */

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

  if (strcmp (p->name, "process_name") == 0)
    what = NAME, v = small_arg (p, "name");
  else if (strcmp (p->name, "process_labels") == 0)
    what = LABELS, v = small_arg (p, "labels");
  else if (strcmp (p->name, "process_sort_index") == 0)
    what = SORT, v = small_arg (p, "sort_index");
  else if (strcmp (p->name, "thread_name") == 0)
    what = NAME, v = small_arg (p, "name"), process = FALSE;
  else if (strcmp (p->name, "thread_sort_index") == 0)
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
  guint32 id = _iv_trace_intern_joined (b->async_keys, p->pid, p->cat, p->id);
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
  track = _iv_trace_builder_track (b, p->pid, p->name, IV_TRACK_ASYNC);
  /* the array is not grown between the lookup and here: @open still points into it */
  if (p->ph == 'b' && p->id[0] && track != IV_BUILDER_NONE)
    open->track = track, open->depth = 1;
  return track;
}

static guint32
intern_name (Parser *p)
{
  gsize len = p->name_len;
  guint32 h = (guint32) len * 2654435761u;
  guint slot;

  /* the first and last four bytes: kernel names share long prefixes, numbered ops their
   * stems */
  for (gsize i = 0; i < MIN (len, 4); i++)
    h = (h ^ (guchar) p->name[i]) * 16777619u;
  for (gsize i = len > 4 ? MAX (len - 4, 4) : len; i < len; i++)
    h = (h ^ (guchar) p->name[i]) * 16777619u;
  slot = (h ^ (h >> 16)) % G_N_ELEMENTS (p->names);
  if (p->names[slot].text && p->names[slot].len == len
      && memcmp (p->names[slot].text, p->name, len) == 0)
    return p->names[slot].id;
  p->names[slot].id = iv_intern_try_add (p->b->trace->strings, p->name, (gssize) len);
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

static void
dispatch (Parser *p)
{
  IvTraceBuilder *b = p->b;
  IvTrace *t = b->trace;
  guint32 name = intern_name (p);
  guint32 cat;

  /* Categories repeat from one event to the next: skip the hash most of the time. */
  if (p->cat_len == p->last_cat_len && memcmp (p->cat, p->last_cat, p->cat_len) == 0)
    cat = p->last_cat_id;
  else
    {
      cat = _iv_trace_builder_intern (b, p->cat, (gssize) p->cat_len);
      memcpy (p->last_cat, p->cat, p->cat_len);
      p->last_cat_len = p->cat_len;
      p->last_cat_id = cat;
    }
  guint32 args_len
      = p->args_end > p->args_off ? (guint32) MIN (p->args_end - p->args_off, G_MAXUINT32) : 0;

  if (p->ph == 'M')
    {
      apply_metadata (p);
      return;
    }
  if (!p->has_ts)
    {
      b->no_ts++;
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
        gint64 dur = p->has_dur ? CLAMP (p->dur_ns, 0, IV_TRACE_TIME_MAX - p->ts_ns) : 0;
        IvRawSlice s = { p->ts_ns,
                         dur,
                         p->args_off,
                         args_len,
                         name,
                         cat,
                         _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD) };
        _iv_trace_builder_add_slice (b, &s);
        /* flow events v2: the slice itself leaves (flow_out) or receives (flow_in) the
         * flow named by bind_id; as a v1 flow start or an enclosing-slice end at its start */
        if (p->bind_id[0] && (p->flow_out || p->flow_in))
          {
            guint32 key = intern_key (b, "\x1fv2", "", p->bind_id);
            if (p->flow_out)
              {
                IvRawFlow f = { p->ts_ns, s.track, key, name, cat, 's', FALSE, b->seq++ };
                _iv_trace_builder_add (b, b->flows, &f);
              }
            if (p->flow_in)
              {
                IvRawFlow f = { p->ts_ns, s.track, key, name, cat, 'f', TRUE, b->seq++ };
                _iv_trace_builder_add (b, b->flows, &f);
              }
          }
        break;
      }
    case 'B':
    case 'E':
      {
        guint track = _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD);
        IvRawEdge e = { p->ts_ns, b->seq++, p->args_off, args_len, name, cat, track, track, p->ph };
        _iv_trace_builder_add (b, b->edges, &e);
        break;
      }
    case 'i':
    case 'I':
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
         * each series reads "name · key". On the stack: every part is bounded, so the
         * buffers hold them whole. */
        char counter[TEXT_MAX + sizeof p->id + 8];
        guint track;
        if (p->id[0])
          g_snprintf (counter, sizeof counter, "%s (id %s)", p->name, p->id);
        else
          g_strlcpy (counter, p->name, sizeof counter);
        track = _iv_trace_builder_track (b, p->pid, counter, IV_TRACK_COUNTER);
        for (guint i = 0; i < p->n_args && track != IV_BUILDER_NONE; i++)
          if (p->args[i].is_number)
            {
              char label[sizeof counter + sizeof p->args[i].key + 8];
              guint series;
              g_snprintf (label, sizeof label, "%s · %s", counter, p->args[i].key);
              series = _iv_trace_builder_series (b, track, label);
              if (series == IV_BUILDER_NONE)
                break;
              IvRawSample s = { p->ts_ns, series, g_ascii_strtod (p->args[i].text, NULL) };
              _iv_trace_builder_add (b, b->samples, &s);
            }
          else
            b->text_counter_values++;
        break;
      }
    case 'b':
    case 'n':
    case 'e':
      {
        IvRawEdge e = { p->ts_ns, b->seq++, p->args_off,     args_len,
                        name,     cat,      async_track (p), intern_key (b, p->cat, p->name, p->id),
                        p->ph };
        _iv_trace_builder_add (b, b->async_edges, &e);
        break;
      }
    case 's':
    case 't':
    case 'f':
      {
        IvRawFlow f = { p->ts_ns,
                        _iv_trace_builder_track (b, p->pid, p->tid, IV_TRACK_THREAD),
                        intern_key (b, p->cat, p->name, p->id),
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
  p->name[0] = p->cat[0] = p->id[0] = '\0';
  p->name_len = p->cat_len = 0;
  g_strlcpy (p->pid, "0", sizeof p->pid);
  g_strlcpy (p->tid, "0", sizeof p->tid);
  p->s_scope = 0;
  p->has_ts = p->has_dur = p->bp_e = p->flow_in = p->flow_out = FALSE;
  p->bind_id[0] = '\0';
  p->args_off = p->args_end = 0;
  p->n_args = 0;
}

/* ---------- yajl callbacks ---------- */

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
      copy_text (p->name, sizeof p->name, v, len, &p->name_len);
      break;
    case F_CAT:
      copy_text (p->cat, sizeof p->cat, v, len, &p->cat_len);
      break;
    case F_TS:
      p->has_ts = _iv_trace_parse_us (v, len, &p->ts_ns);
      break;
    case F_DUR:
      p->has_dur = _iv_trace_parse_us (v, len, &p->dur_ns);
      break;
    case F_PID:
      copy_text (p->pid, sizeof p->pid, v, len, NULL);
      break;
    case F_TID:
      copy_text (p->tid, sizeof p->tid, v, len, NULL);
      break;
    case F_ID:
      copy_text (p->id, sizeof p->id, v, len, NULL);
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

/* id2: {"local": …} or {"global": …} stands in for id. */
static void
id2_member (Parser *p, const char *key, gsize key_len, const char *v, gsize len, gboolean is_number)
{
  copy_text (p->id, sizeof p->id, v, len, NULL);
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

  if (c == '{' && field == F_ARGS)
    {
      gsize from = r->pos;
      st = p->ph == 0 || p->ph == 'M' || p->ph == 'C' ? read_flat_object (p, small_arg_member)
                                                      : iv_json_pull_skip (r);
      p->args_off = iv_json_pull_offset (r, from);
      p->args_end = iv_json_pull_offset (r, r->pos);
      return st;
    }
  if (c == '{' && field == F_ID2)
    return read_flat_object (p, id2_member);
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
      if (*first && c == '}')
        {
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
      if ((st = iv_json_pull_skip (r)) == IV_PULL_OK)
        *state = AT_MEMBER_NEXT;
      return st;
    case AT_MEMBER_NEXT:
      if (c != ',' && c != '}')
        return iv_json_pull_fail (r, r->pos, "a missing ',' or '}' in the top object");
      r->pos++, *first = FALSE;
      *state = c == ',' ? AT_MEMBER : AT_END;
      return IV_PULL_OK;
    case AT_ELEMENT:
      if (*first && c == ']')
        {
          r->pos++;
          *state = p->top_object ? AT_MEMBER_NEXT : AT_END;
          return IV_PULL_OK;
        }
      if (c == '{')
        {
          if ((st = read_event (p)) != IV_PULL_OK)
            return st;
          p->events++;
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
  if (!(b->window ? iv_json_pull_init_sized (r, input, b->window, progress, progress_data,
                                             cancellable, error)
                  : iv_json_pull_init (r, input, progress, progress_data, cancellable, error)))
    {
      iv_json_pull_clear (r);
      return FALSE;
    }
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
          /* A writer killed mid-file: keep every complete event before the damage. */
          b->trace->truncated = TRUE;
          _iv_trace_warn (b->trace,
                          "the file %s at line %u, column %u; the %" G_GUINT64_FORMAT
                          " complete events before that point are kept",
                          early ? "ends early" : "is damaged", line, column, p->events);
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
  iv_json_pull_clear (r);
  return ok;
}
