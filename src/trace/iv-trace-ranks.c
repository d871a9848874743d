/* iv-trace-ranks.c: a distributed job, one trace per rank (see the header). Each rank is
 * loaded and analysed on a worker thread of its own, touching nothing but its own IvRank;
 * the clock and the matching of collectives across ranks run afterwards, on the caller's
 * thread. */
#define G_LOG_DOMAIN "iv-trace"

#include "iv-trace-ranks.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "iv-input.h"
#include "iv-intervals.h"
#include "iv-json-stream.h"

/* ---------- HTA's kernel types ---------- */

static gboolean
starts (const char *s, const char *prefix)
{
  return g_str_has_prefix (s, prefix);
}

/* hta/common/types.py, ComputeKernelGroupingPattern: names matched (re.match, so anchored
 * at the start; ".*X" then means "contains X") are not computation. */
static gboolean
compute_excluded (const char *n)
{
  static const char *const prefixes[] = { "nccl",
                                          "Stream Wait Event",
                                          "runFunction",
                                          "hip",
                                          "job_exe",
                                          "packet",
                                          "pe_exe",
                                          "hccl",
                                          "cpum_exe_subgraph",
                                          "collective_subgraph_execution",
                                          NULL };
  for (guint i = 0; prefixes[i]; i++)
    if (starts (n, prefixes[i]))
      return TRUE;
  if (strstr (n, "Memcpy") || strstr (n, "Memset") || strstr (n, "dma") || strstr (n, "Sync"))
    return TRUE;
  /* (cuda.*LaunchKernel) */
  return starts (n, "cuda") && strstr (n + 4, "LaunchKernel");
}

IvHtaKernelType
iv_hta_kernel_type (const char *n)
{
  /* CommunicateKernelGroupingPattern: (^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*) */
  if (starts (n, "nccl") || starts (n, "hip") || starts (n, "hccl") || strstr (n, "ncclKernel"))
    return IV_HTA_COMMUNICATION;
  /* MemoryKernelGroupingPattern: (^(hip)?Memcpy)|(^(hip)?Memset)|(^dma) */
  if (starts (n, "Memcpy") || starts (n, "Memset") || starts (n, "dma"))
    return IV_HTA_MEMORY;
  if (!compute_excluded (n))
    return IV_HTA_COMPUTATION;
  return IV_HTA_OTHER;
}

const char *
iv_hta_kernel_type_name (IvHtaKernelType type)
{
  static const char *const names[IV_N_HTA_TYPES]
      = { "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER" };
  return type < IV_N_HTA_TYPES ? names[type] : "";
}

char *
iv_hta_mask_label (guint mask)
{
  GString *s = g_string_new (NULL);
  /* the order of HTA's kernel_type_to_analysis, which its labels follow */
  for (guint t = 0; t < 3; t++)
    if (mask & (1u << t))
      g_string_append_printf (s, "%s%s", s->len ? " overlapping " : "",
                              iv_hta_kernel_type_name (t));
  return g_string_free (s, FALSE);
}

GPtrArray *
iv_trace_ranks_expand (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; paths && paths[i]; i++)
    {
      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr (GPtrArray) files = iv_rank_folder_traces (paths[i], error);
          if (!files)
            return NULL;
          if (files->len == 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "%s: no trace file in this folder (.json, .json.gz, .trace)", paths[i]);
              return NULL;
            }
          for (guint k = 0; k < files->len; k++)
            g_ptr_array_add (out, g_strdup (files->pdata[k]));
        }
      else
        g_ptr_array_add (out, g_strdup (paths[i]));
    }
  if (out->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no trace named");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* ---------- one rank, on its worker thread ---------- */

typedef struct _Workers Workers;

typedef struct
{
  IvRank *rank;
  GCancellable *cancellable;
  Workers *workers;
  gint permille; /* of this rank's file read, atomically */
  GError *error;
  /* the collective keys this rank found, as "group\x1fname" (merged across ranks later) */
  GPtrArray *keys;
} RankJob;

/* The slices of the rank's GPU work rows (kernels, copies, sets: HTA's
 * KERNEL_CATEGORY_PATTERN, kernel|gpu_mem.+|mtia_ccp_events) that ended. */
static GArray *
gpu_work (const IvTrace *t)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gsize));

  for (guint r = 0; r < t->rows->len; r++)
    {
      const IvRow *row = &g_array_index (t->rows, IvRow, r);
      const IvTrack *tr = &g_array_index (t->tracks, IvTrack, row->track);
      if (tr->kind != IV_TRACK_GPU || row->kind != IV_ROW_GPU_WORK)
        continue;
      for (gsize s = row->first; s < row->first + row->n; s++)
        if (!iv_trace_slice_is_open (t, s))
          g_array_append_val (ids, s);
    }
  return ids;
}

typedef struct
{
  gint64 t;
  int delta; /* +mask at a start, −mask at an end */
} Edge;

static int
compare_edge (const void *pa, const void *pb)
{
  const Edge *a = pa, *b = pb;
  return a->t < b->t ? -1 : a->t > b->t;
}

/* HTA's numbers for one rank: the temporal breakdown (breakdown_analysis.py,
 * get_temporal_breakdown with _get_idle_time_for_kernels), the time under each
 * combination of kernel types (_get_gpu_kernel_type_time: a sweep over the merged
 * intervals of each type, its running mask deciding the label) and the communication
 * under computation (communication_analysis.py, get_comm_comp_overlap). Kernels of every
 * stream of the rank are merged together, as HTA merges a rank's whole frame. */
static void
analyse_types (IvRank *rk, const GArray *ids)
{
  const IvTrace *t = rk->trace;
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *per[3];
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  gint64 busy, run = 0;
  int running = 0;

  for (int k = 0; k < 3; k++)
    per[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < ids->len; i++)
    {
      gsize s = g_array_index (ids, gsize, i);
      IvHtaKernelType ty = iv_hta_kernel_type (iv_trace_string (t, t->name[s]));
      gint64 a = t->start_ns[s], b = a + t->dur_ns[s];
      rk->type_kernels[ty]++;
      iv_intervals_add (all, a, b);
      if (ty < 3)
        iv_intervals_add (per[ty], a, b);
    }
  iv_intervals_merge (all);
  busy = iv_intervals_total (all);
  if (all->len >= 2)
    rk->temporal.kernel_time_ns
        = g_array_index (all, gint64, all->len - 1) - g_array_index (all, gint64, 0);
  rk->temporal.idle_ns = rk->temporal.kernel_time_ns - busy;
  for (int k = 0; k < 3; k++)
    {
      iv_intervals_merge (per[k]);
      for (guint i = 0; i < per[k]->len; i += 2)
        {
          Edge up = { g_array_index (per[k], gint64, i), 1 << k };
          Edge down = { g_array_index (per[k], gint64, i + 1), -(1 << k) };
          g_array_append_val (edges, up);
          g_array_append_val (edges, down);
        }
    }
  rk->temporal.compute_ns = iv_intervals_total (per[IV_HTA_COMPUTATION]);
  rk->temporal.non_compute_ns
      = rk->temporal.kernel_time_ns - rk->temporal.compute_ns - rk->temporal.idle_ns;
  rk->comm_ns = iv_intervals_total (per[IV_HTA_COMMUNICATION]);
  rk->comm_overlapped_ns
      = iv_intervals_intersection (per[IV_HTA_COMMUNICATION], per[IV_HTA_COMPUTATION]);
  /* the sweep: what runs between consecutive edges (ties last no time, whatever their
   * order) */
  if (edges->len)
    qsort (edges->data, edges->len, sizeof (Edge), compare_edge);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      if (i > 0 && running > 0)
        rk->type_ns[running] += e->t - run;
      running += e->delta;
      run = e->t;
    }
  for (int k = 0; k < 3; k++)
    g_array_unref (per[k]);
}

typedef struct
{
  gsize slice;
  guint64 off;
} ArgsAt;

static int
compare_args_at (const void *pa, const void *pb)
{
  const ArgsAt *a = pa, *b = pb;
  return a->off < b->off ? -1 : a->off > b->off;
}

/* Kineto names a collective's process group in its kernel's arguments ("Process Group
 * Name", PyTorch 2.3+). They stay in the file (the loader keeps their offsets): read
 * here in one forward pass over the file for every collective kernel at once. @groups[i]
 * gets the group of @slices[i], or stays NULL when its arguments name none. */
static void
read_groups (const IvTrace *t, const GArray *slices, char **groups, GCancellable *cancellable)
{
  g_autoptr (IvInput) in = NULL;
  g_autofree ArgsAt *at = g_new (ArgsAt, MAX (slices->len, 1));
  g_autofree char *buf = NULL;
  guint64 pos = 0;
  guint n = 0;
  char skip[65536];

  for (guint i = 0; i < slices->len; i++)
    {
      gsize s = g_array_index (slices, gsize, i);
      /* an argument object past 1 MiB names no group worth reading */
      if (t->args_len[s] > 0 && t->args_len[s] <= (1u << 20))
        at[n].slice = i, at[n].off = t->args_off[s], n++;
    }
  if (n == 0 || !t->path || !(in = iv_input_open (t->path, NULL)))
    return;
  qsort (at, n, sizeof *at, compare_args_at);
  buf = g_malloc ((1u << 20) + 1);
  for (guint i = 0; i < n; i++)
    {
      gsize s = g_array_index (slices, gsize, at[i].slice);
      guint64 len = t->args_len[s], got = 0;
      g_autoptr (JsonParser) p = NULL;
      JsonNode *root;
      if (g_cancellable_is_cancelled (cancellable) || at[i].off < pos)
        continue;
      while (pos < at[i].off)
        {
          gssize r = iv_input_read (in, skip, MIN (at[i].off - pos, sizeof skip), NULL);
          if (r <= 0)
            return;
          pos += (guint64) r;
        }
      while (got < len)
        {
          gssize r = iv_input_read (in, buf + got, len - got, NULL);
          if (r <= 0)
            return;
          got += (guint64) r;
        }
      pos += len;
      buf[len] = 0;
      p = json_parser_new ();
      if (!json_parser_load_from_data (p, buf, (gssize) len, NULL)
          || !(root = json_parser_get_root (p)) || !JSON_NODE_HOLDS_OBJECT (root))
        continue;
      {
        JsonObject *o = json_node_get_object (root);
        JsonNode *v = json_object_get_member (o, "Process Group Name");
        if (v && JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
          groups[at[i].slice] = g_strdup (json_node_get_string (v));
      }
    }
}

typedef struct
{
  gsize slice;
  gint64 start;
} ByStart;

static int
compare_by_start (const void *pa, const void *pb)
{
  const ByStart *a = pa, *b = pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return a->slice < b->slice ? -1 : a->slice > b->slice;
}

/* The rank's collectives (HTA's communication kernels), each numbered within its
 * (process group, name) by start: the n-th of one key is the rank's part of the n-th
 * instance of that collective. Keys are local to the rank here, merged later. */
static void
find_collectives (RankJob *job, const GArray *ids, GCancellable *cancellable)
{
  IvRank *rk = job->rank;
  const IvTrace *t = rk->trace;
  g_autoptr (GArray) comm = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr (GHashTable) key_index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_autofree ByStart *order = NULL;
  char **groups;

  for (guint i = 0; i < ids->len; i++)
    {
      gsize s = g_array_index (ids, gsize, i);
      if (iv_hta_kernel_type (iv_trace_string (t, t->name[s])) == IV_HTA_COMMUNICATION)
        g_array_append_val (comm, s);
    }
  rk->collectives = g_array_new (FALSE, FALSE, sizeof (IvRankCollective));
  if (comm->len == 0)
    return;
  order = g_new (ByStart, comm->len);
  for (guint i = 0; i < comm->len; i++)
    order[i].slice = g_array_index (comm, gsize, i), order[i].start = t->start_ns[order[i].slice];
  qsort (order, comm->len, sizeof *order, compare_by_start);
  for (guint i = 0; i < comm->len; i++)
    g_array_index (comm, gsize, i) = order[i].slice;
  groups = g_new0 (char *, comm->len + 1);
  read_groups (t, comm, groups, cancellable);
  for (guint i = 0; i < comm->len; i++)
    {
      gsize s = g_array_index (comm, gsize, i);
      g_autofree char *key = g_strdup_printf ("%s\x1f%s", groups[i] ? groups[i] : "",
                                              iv_trace_string (t, t->name[s]));
      gpointer idx;
      IvRankCollective c = { s, 0, 0 };
      if (!g_hash_table_lookup_extended (key_index, key, NULL, &idx))
        {
          guint64 zero = 0;
          idx = GUINT_TO_POINTER (job->keys->len);
          g_ptr_array_add (job->keys, g_strdup (key));
          g_hash_table_insert (key_index, job->keys->pdata[job->keys->len - 1], idx);
          g_array_append_val (counts, zero);
        }
      c.key = GPOINTER_TO_UINT (idx);
      c.ordinal = g_array_index (counts, guint64, c.key)++;
      g_array_append_val (rk->collectives, c);
    }
  g_strfreev (groups);
}

static void rank_progress (guint64 done, guint64 total, gpointer data);

static void
load_rank (gpointer data, gpointer user_data)
{
  RankJob *job = data;
  IvRank *rk = job->rank;
  g_autoptr (GArray) ids = NULL;

  (void) user_data;
  rk->trace = iv_trace_load (rk->path, rank_progress, job, job->cancellable, &job->error);
  if (!rk->trace)
    return;
  rk->t0_ns = rk->trace->t0_ns, rk->t1_ns = rk->trace->t1_ns;
  rk->report = iv_trace_report_new (rk->trace, G_MININT64, G_MAXINT64, FALSE, IV_STATS_DEFAULT,
                                    &job->error);
  if (!rk->report)
    return;
  ids = gpu_work (rk->trace);
  analyse_types (rk, ids);
  find_collectives (job, ids, job->cancellable);
}

/* ---------- the job ---------- */

static void
rank_free (IvRank *rk)
{
  if (!rk)
    return;
  g_free (rk->path);
  /* the report is the job's (IvTraceRanks.reports), shared with its copies */
  if (rk->trace)
    iv_trace_free (rk->trace);
  if (rk->collectives)
    g_array_unref (rk->collectives);
  g_free (rk);
}

void
iv_trace_ranks_free (IvTraceRanks *job)
{
  if (!job)
    return;
  g_ptr_array_unref (job->ranks);
  if (job->reports)
    g_ptr_array_unref (job->reports);
  g_free (job->backend);
  g_ptr_array_unref (job->key_names);
  g_ptr_array_unref (job->key_groups);
  for (guint i = 0; job->instances && i < job->instances->len; i++)
    {
      IvCollectiveInstance *c = &g_array_index (job->instances, IvCollectiveInstance, i);
      g_free (c->start_ns);
      g_free (c->end_ns);
      g_free (c->wait_ns);
      g_free (c->raw_start_ns);
      g_free (c->raw_end_ns);
    }
  if (job->instances)
    g_array_unref (job->instances);
  g_ptr_array_unref (job->warnings);
  g_free (job);
}

/* A whole number of the file's (distributedInfo's rank, world_size): −1 when absent or
 * not one in [0, 2^31). */
static int
info_int (const GPtrArray *items, const char *key)
{
  const char *v = iv_trace_info_value (items, key);
  gint64 n;
  char *end;
  if (!v)
    return -1;
  n = g_ascii_strtoll (v, &end, 10);
  return *v && !*end && n >= 0 && n < G_MAXINT ? (int) n : -1;
}

static int
compare_rank (gconstpointer pa, gconstpointer pb)
{
  const IvRank *a = *(IvRank *const *) pa, *b = *(IvRank *const *) pb;
  return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* Epoch nanoseconds from 2001-09-09 on: timestamps this large are wall-clock time. */
#define EPOCH_FLOOR_NS G_GINT64_CONSTANT (1000000000000000000)

/* Where each rank's times lie on the wall clock: HTA's reading (hta/common/trace.py:
 * unix time = ts + baseTimeNanoseconds), unless the timestamps are already epoch ones
 * (older Kineto, and Kineto leaves them absolute when below its base); epoch timestamps
 * without a base are wall clock as they are. */
static void
wall_clock (IvTraceRanks *job)
{
  gboolean all = TRUE;
  guint n_wall = 0;

  for (guint i = 0; i < job->ranks->len; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      const char *base = iv_trace_info_value (rk->trace->info->attributes, "baseTimeNanoseconds");
      gint64 b = 0;
      char *end = NULL;
      gboolean base_ok = base && *base && (b = g_ascii_strtoll (base, &end, 10), !*end) && b > 0
                         && b < IV_TRACE_TIME_MAX / 2;
      if (rk->trace->t0_ns >= EPOCH_FLOOR_NS)
        rk->has_wall = TRUE, rk->wall_ns = 0;
      else if (base_ok)
        rk->has_wall = TRUE, rk->wall_ns = b;
      all = all && rk->has_wall;
      n_wall += rk->has_wall;
    }
  job->clock = all ? IV_RANKS_CLOCK_WALL : IV_RANKS_CLOCK_OWN;
  for (guint i = 0; i < job->ranks->len; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      if (!all)
        {
          /* one warning when no rank has one; else the ranks that lack it */
          if (!rk->has_wall && (i == 0 || n_wall > 0))
            g_ptr_array_add (job->warnings,
                             n_wall > 0
                                 ? g_strdup_printf ("rank %d (%s) has no wall clock (no "
                                                    "baseTimeNanoseconds, timestamps not since "
                                                    "the epoch): every rank stays on its own "
                                                    "clock",
                                                    rk->rank, rk->path)
                                 : g_strdup ("no rank has a wall clock (no baseTimeNanoseconds, "
                                             "timestamps not since the epoch): every rank "
                                             "stays on its own clock"));
          rk->wall_ns = 0;
        }
      rk->offset_ns = rk->wall_ns;
    }
}

/* Merges the ranks' local collective keys into the job's, renumbering each rank's. */
static void
merge_keys (IvTraceRanks *job, RankJob *jobs)
{
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < job->ranks->len; i++)
    {
      RankJob *rj = &jobs[i];
      IvRank *rk = rj->rank;
      g_autofree guint *map = g_new (guint, MAX (rj->keys->len, 1));
      for (guint k = 0; k < rj->keys->len; k++)
        {
          const char *key = rj->keys->pdata[k];
          gpointer idx;
          if (!g_hash_table_lookup_extended (index, key, NULL, &idx))
            {
              const char *sep = strchr (key, 0x1f);
              idx = GUINT_TO_POINTER (job->key_names->len);
              g_ptr_array_add (job->key_groups, g_strndup (key, (gsize) (sep - key)));
              g_ptr_array_add (job->key_names, g_strdup (sep + 1));
              g_hash_table_insert (index, g_strdup (key), idx);
            }
          map[k] = GPOINTER_TO_UINT (idx);
        }
      for (guint c = 0; c < rk->collectives->len; c++)
        {
          IvRankCollective *rc = &g_array_index (rk->collectives, IvRankCollective, c);
          rc->key = map[rc->key];
        }
    }
}

/* The instances: for each key, as many as the rank holding the most of it has. */
static void
build_instances (IvTraceRanks *job)
{
  guint n = job->ranks->len, nk = job->key_names->len;
  g_autofree guint64 *most = g_new0 (guint64, MAX (nk, 1));
  g_autofree gsize *first = g_new0 (gsize, nk + 1);

  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      for (guint c = 0; c < rk->collectives->len; c++)
        {
          IvRankCollective *rc = &g_array_index (rk->collectives, IvRankCollective, c);
          most[rc->key] = MAX (most[rc->key], rc->ordinal + 1);
        }
    }
  for (guint k = 0; k < nk; k++)
    first[k + 1] = first[k] + most[k];
  job->instances = g_array_sized_new (FALSE, TRUE, sizeof (IvCollectiveInstance), first[nk]);
  g_array_set_size (job->instances, first[nk]);
  for (guint k = 0; k < nk; k++)
    for (guint64 o = 0; o < most[k]; o++)
      {
        IvCollectiveInstance *ci
            = &g_array_index (job->instances, IvCollectiveInstance, first[k] + o);
        ci->key = k, ci->ordinal = o;
        ci->start_ns = g_new (gint64, n);
        ci->end_ns = g_new (gint64, n);
        ci->wait_ns = g_new (gint64, n);
        ci->raw_start_ns = g_new (gint64, n);
        ci->raw_end_ns = g_new (gint64, n);
        for (guint i = 0; i < n; i++)
          ci->start_ns[i] = ci->end_ns[i] = ci->wait_ns[i] = ci->raw_start_ns[i] = ci->raw_end_ns[i]
              = G_MININT64;
      }
  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      const IvTrace *t = rk->trace;
      for (guint c = 0; c < rk->collectives->len; c++)
        {
          IvRankCollective *rc = &g_array_index (rk->collectives, IvRankCollective, c);
          IvCollectiveInstance *ci
              = &g_array_index (job->instances, IvCollectiveInstance, first[rc->key] + rc->ordinal);
          /* as recorded, on the rank's own clock; the offsets come after */
          ci->raw_start_ns[i] = t->start_ns[rc->slice];
          ci->raw_end_ns[i] = t->start_ns[rc->slice] + t->dur_ns[rc->slice];
          ci->n_present++;
        }
    }
}

static int
compare_i64 (const void *pa, const void *pb)
{
  gint64 a = *(const gint64 *) pa, b = *(const gint64 *) pb;
  return a < b ? -1 : a > b;
}

/* The alignment on collectives: a blocking collective ends together on every rank that
 * takes part (HTA's straggler analysis rests on the same: straggler.py,
 * _compute_normalized_start_time_of_significant_comm_kernels), so each rank is shifted
 * by the median, over the instances it shares with the reference rank (the lowest that
 * has collectives), of the difference of their ends. */
static void
compute_alignment (IvTraceRanks *job)
{
  guint n = job->ranks->len, ref = G_MAXUINT;
  g_autoptr (GArray) diffs = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (job->align_computed)
    return;
  job->align_computed = TRUE;

  for (guint i = 0; i < n && ref == G_MAXUINT; i++)
    if (((IvRank *) job->ranks->pdata[i])->collectives->len > 0)
      ref = i;
  if (ref == G_MAXUINT)
    {
      g_ptr_array_add (job->warnings,
                       g_strdup ("no rank has a collective kernel: nothing to align the ranks on"));
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = job->ranks->pdata[i], *rr = job->ranks->pdata[ref];
      gsize m;
      g_array_set_size (diffs, 0);
      for (guint c = 0; c < job->instances->len && i != ref; c++)
        {
          IvCollectiveInstance *ci = &g_array_index (job->instances, IvCollectiveInstance, c);
          if (ci->raw_end_ns[i] == G_MININT64 || ci->raw_end_ns[ref] == G_MININT64)
            continue;
          gint64 d = (ci->raw_end_ns[ref] + rr->wall_ns) - (ci->raw_end_ns[i] + rk->wall_ns);
          g_array_append_val (diffs, d);
        }
      rk->align_matched = i == ref ? 0 : diffs->len;
      if (i == ref || diffs->len == 0)
        {
          if (i != ref)
            g_ptr_array_add (job->warnings,
                             g_strdup_printf ("rank %d shares no collective with rank %d: not "
                                              "aligned",
                                              rk->rank, rr->rank));
          continue;
        }
      qsort (diffs->data, diffs->len, sizeof (gint64), compare_i64);
      m = diffs->len;
      /* the median; of an even count the lower middle (an exact, whole offset) */
      rk->align_ns = g_array_index (diffs, gint64, (m - 1) / 2);
    }
}

/* Whether any rank has a collective kernel to align on. */
static gboolean
can_align (const IvTraceRanks *job)
{
  for (guint i = 0; i < job->ranks->len; i++)
    if (((IvRank *) job->ranks->pdata[i])->collectives->len > 0)
      return TRUE;
  return FALSE;
}

/* Who arrived last at each instance and how long every other rank waited for it: its
 * start to the last rank's start, at most its own duration (HTA's straggler metric is
 * the start of a blocking collective: "the later a kernel starts, the bigger the delay
 * it causes", straggler.py). */
static void
stragglers (IvTraceRanks *job)
{
  guint n = job->ranks->len;

  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      rk->last_count = 0, rk->caused_ns = 0, rk->waited_ns = 0;
    }
  for (guint c = 0; c < job->instances->len; c++)
    {
      IvCollectiveInstance *ci = &g_array_index (job->instances, IvCollectiveInstance, c);
      gint64 latest = G_MININT64;
      IvRank *last;
      ci->last = 0;
      for (guint i = 0; i < n; i++)
        ci->wait_ns[i] = G_MININT64;
      for (guint i = 0; i < n; i++)
        if (ci->raw_start_ns[i] != G_MININT64)
          {
            IvRank *rk = job->ranks->pdata[i];
            ci->start_ns[i] = iv_trace_add_ns (ci->raw_start_ns[i], rk->offset_ns);
            ci->end_ns[i] = iv_trace_add_ns (ci->raw_end_ns[i], rk->offset_ns);
            if (ci->start_ns[i] > latest)
              latest = ci->start_ns[i], ci->last = i;
          }
      if (ci->n_present < 2 || !job->stragglers)
        continue;
      last = job->ranks->pdata[ci->last];
      last->last_count++;
      for (guint i = 0; i < n; i++)
        if (ci->start_ns[i] != G_MININT64)
          {
            IvRank *rk = job->ranks->pdata[i];
            gint64 w = CLAMP (latest - ci->start_ns[i], 0, ci->end_ns[i] - ci->start_ns[i]);
            ci->wait_ns[i] = w;
            rk->waited_ns = iv_trace_add_ns (rk->waited_ns, w);
            if (i != ci->last)
              last->caused_ns = iv_trace_add_ns (last->caused_ns, w);
          }
    }
}

struct _Workers
{
  RankJob *jobs;
  guint n;
  gint next; /* the next rank to load, taken atomically */
  IvProgressFunc progress;
  gpointer progress_data;
};

/* On a worker: this rank's share, then all ranks' together to the caller's function
 * (each rank's file counts the same: sizes differ little within a job). */
static void
rank_progress (guint64 done, guint64 total, gpointer data)
{
  RankJob *job = data;
  Workers *w = job->workers;
  guint64 sum = 0;

  if (!w || !w->progress || total == 0)
    return;
  g_atomic_int_set (&job->permille, (gint) MIN (1000, done * 1000 / total));
  for (guint i = 0; i < w->n; i++)
    sum += (guint64) g_atomic_int_get (&w->jobs[i].permille);
  w->progress (sum, (guint64) w->n * 1000, w->progress_data);
}

static gpointer
work_ranks (gpointer data)
{
  Workers *w = data;

  for (;;)
    {
      gint i = g_atomic_int_add (&w->next, 1);
      if (i < 0 || (guint) i >= w->n)
        return NULL;
      load_rank (&w->jobs[i], NULL);
    }
}

/* Every rank's offset for the clock asked for, then the stragglers and the extent. */
static void
place (IvTraceRanks *job, gboolean aligned)
{
  if (aligned)
    compute_alignment (job);
  job->aligned = aligned && can_align (job);
  for (guint i = 0; i < job->ranks->len; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      rk->offset_ns = job->aligned ? iv_trace_add_ns (rk->wall_ns, rk->align_ns) : rk->wall_ns;
    }
  job->stragglers = job->clock == IV_RANKS_CLOCK_WALL || job->aligned;
  stragglers (job);
  job->t0_ns = G_MAXINT64, job->t1_ns = G_MININT64;
  for (guint i = 0; i < job->ranks->len; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      job->t0_ns = MIN (job->t0_ns, iv_trace_add_ns (rk->t0_ns, rk->offset_ns));
      job->t1_ns = MAX (job->t1_ns, iv_trace_add_ns (rk->t1_ns, rk->offset_ns));
    }
}

void
iv_trace_ranks_set_aligned (IvTraceRanks *job, gboolean aligned)
{
  g_return_if_fail (job != NULL);
  place (job, aligned);
}

IvTraceRanks *
iv_trace_ranks_load (const char *const *paths, IvRanksFlags flags, GCancellable *cancellable,
                     GError **error)
{
  return iv_trace_ranks_load_full (paths, flags, NULL, NULL, cancellable, error);
}

IvTraceRanks *
iv_trace_ranks_load_full (const char *const *paths, IvRanksFlags flags, IvProgressFunc progress,
                          gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) files = iv_trace_ranks_expand (paths, error);
  g_autoptr (IvTraceRanks) job = NULL;
  g_autofree RankJob *jobs = NULL;
  guint n;

  if (!files)
    return NULL;
  n = files->len;
  job = g_new0 (IvTraceRanks, 1);
  job->ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) rank_free);
  job->reports = g_ptr_array_new_with_free_func ((GDestroyNotify) iv_trace_report_free);
  job->key_names = g_ptr_array_new_with_free_func (g_free);
  job->key_groups = g_ptr_array_new_with_free_func (g_free);
  job->warnings = g_ptr_array_new_with_free_func (g_free);
  jobs = g_new0 (RankJob, n);
  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = g_new0 (IvRank, 1);
      rk->path = g_strdup (files->pdata[i]);
      rk->rank = -1;
      g_ptr_array_add (job->ranks, rk);
      jobs[i].rank = rk;
      jobs[i].cancellable = cancellable;
      jobs[i].workers = NULL; /* set once the Workers exist */
      jobs[i].keys = g_ptr_array_new_with_free_func (g_free);
    }
  /* one worker a core: each load is independent and owns all it writes (its RankJob and
   * IvRank); the overlap tolerance they read was set before, on this thread. Threads of
   * our own, joined, and an atomic counter handing out the ranks: a GThreadPool hands
   * work over through GLib's futex-based mutexes, which ThreadSanitizer cannot see, so
   * it reported each rank's load as racing with this thread's setup */
  {
    Workers w = { jobs, n, 0, progress, progress_data };
    guint nt = MIN (n, MAX (g_get_num_processors (), 1));
    g_autofree GThread **threads = g_new0 (GThread *, nt);
    for (guint i = 0; i < n; i++)
      jobs[i].workers = &w;
    for (guint t = 0; t < nt; t++)
      threads[t] = g_thread_try_new ("iv-rank", work_ranks, &w, NULL);
    for (guint t = 0; t < nt; t++)
      if (threads[t])
        g_thread_join (threads[t]);
    /* no thread could be had: the loads run here */
    work_ranks (&w);
  }
  /* the job owns the reports (freed with it, whatever follows) */
  for (guint i = 0; i < n; i++)
    if (jobs[i].rank->report)
      g_ptr_array_add (job->reports, jobs[i].rank->report);
  for (guint i = 0; i < n; i++)
    if (jobs[i].error && !(error && *error))
      g_propagate_error (error, g_steal_pointer (&jobs[i].error));
  if (error && *error)
    goto fail;
  for (guint i = 0; i < n; i++)
    if (!jobs[i].rank->trace || !jobs[i].rank->report)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: not loaded", jobs[i].rank->path);
        goto fail;
      }
  /* ranks: distributedInfo's, else the file name's */
  for (guint i = 0; i < n; i++)
    {
      IvRank *rk = job->ranks->pdata[i];
      g_autofree char *base = g_path_get_basename (rk->path);
      int world = info_int (rk->trace->info->distributed, "world_size");
      const char *backend = iv_trace_info_value (rk->trace->info->distributed, "backend");
      if ((rk->rank = info_int (rk->trace->info->distributed, "rank")) >= 0)
        rk->rank_source = "distributedInfo";
      else if ((rk->rank = iv_rank_from_file_name (base)) >= 0)
        rk->rank_source = "file name";
      else
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: no rank — neither distributedInfo.rank nor a rank in the file name "
                       "(rank-3, rank3, job_3.pt.trace.json)",
                       rk->path);
          goto fail;
        }
      if (world > 0 && job->world_size > 0 && world != job->world_size)
        g_ptr_array_add (job->warnings,
                         g_strdup_printf ("%s says the world size is %d, another rank %d", rk->path,
                                          world, job->world_size));
      if (world > 0 && job->world_size <= 0)
        job->world_size = world;
      if (backend && !job->backend)
        job->backend = g_strdup (backend);
    }
  /* the same order in both arrays: the rank jobs hold the local keys */
  {
    g_autofree RankJob *sorted = g_new (RankJob, n);
    g_ptr_array_sort (job->ranks, compare_rank);
    for (guint i = 0; i < n; i++)
      for (guint k = 0; k < n; k++)
        if (jobs[k].rank == job->ranks->pdata[i])
          sorted[i] = jobs[k];
    memcpy (jobs, sorted, n * sizeof (RankJob));
  }
  for (guint i = 1; i < n; i++)
    {
      IvRank *a = job->ranks->pdata[i - 1], *b = job->ranks->pdata[i];
      if (a->rank == b->rank)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s and %s both are rank %d (by their %s and %s)", a->path, b->path, a->rank,
                       a->rank_source, b->rank_source);
          goto fail;
        }
    }
  if (job->world_size <= 0)
    job->world_size = ((IvRank *) job->ranks->pdata[n - 1])->rank + 1;
  merge_keys (job, jobs);
  build_instances (job);
  wall_clock (job);
  place (job, (flags & IV_RANKS_ALIGN) != 0);
  if (!job->stragglers)
    g_ptr_array_add (job->warnings, g_strdup ("the ranks share no clock: stragglers need the "
                                              "alignment on collectives"));
  for (guint i = 0; i < n; i++)
    g_ptr_array_unref (jobs[i].keys);
  return g_steal_pointer (&job);

fail:
  for (guint i = 0; i < n; i++)
    {
      g_clear_error (&jobs[i].error);
      g_ptr_array_unref (jobs[i].keys);
    }
  return NULL;
}

static gpointer
copy_string (gconstpointer str, gpointer data)
{
  (void) data;
  return g_strdup (str);
}

static IvRank *
rank_copy (const IvRank *rk)
{
  IvRank *c = g_memdup2 (rk, sizeof *rk);

  c->path = g_strdup (rk->path);
  c->trace = NULL;
  c->collectives = rk->collectives ? g_array_copy (rk->collectives) : NULL;
  return c;
}

static gint64 *
dup_i64 (const gint64 *v, guint n)
{
  return v ? g_memdup2 (v, (gsize) n * sizeof (gint64)) : NULL;
}

IvTraceRanks *
iv_trace_ranks_copy (const IvTraceRanks *job)
{
  IvTraceRanks *c;
  guint n;

  g_return_val_if_fail (job != NULL, NULL);
  n = job->ranks->len;
  c = g_memdup2 (job, sizeof *job);
  c->ranks = g_ptr_array_new_full (n, (GDestroyNotify) rank_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (c->ranks, rank_copy (job->ranks->pdata[i]));
  c->reports = job->reports ? g_ptr_array_ref (job->reports) : NULL;
  c->backend = g_strdup (job->backend);
  c->key_names = g_ptr_array_copy (job->key_names, copy_string, NULL);
  g_ptr_array_set_free_func (c->key_names, g_free);
  c->key_groups = g_ptr_array_copy (job->key_groups, copy_string, NULL);
  g_ptr_array_set_free_func (c->key_groups, g_free);
  c->warnings = g_ptr_array_copy (job->warnings, copy_string, NULL);
  g_ptr_array_set_free_func (c->warnings, g_free);
  c->instances = g_array_copy (job->instances);
  for (guint i = 0; i < c->instances->len; i++)
    {
      IvCollectiveInstance *ci = &g_array_index (c->instances, IvCollectiveInstance, i);
      ci->start_ns = dup_i64 (ci->start_ns, n);
      ci->end_ns = dup_i64 (ci->end_ns, n);
      ci->wait_ns = dup_i64 (ci->wait_ns, n);
      ci->raw_start_ns = dup_i64 (ci->raw_start_ns, n);
      ci->raw_end_ns = dup_i64 (ci->raw_end_ns, n);
    }
  return c;
}

/* ---------- ranks by distributedInfo ---------- */

/* The most of a file's head read for its distributedInfo: Kineto writes it before the
 * events, so it is in the first kilobytes. */
#define PEEK_BYTES ((guint64) 4 << 20)

typedef struct
{
  int depth;        /* maps and arrays open */
  gboolean in_info; /* inside the top-level distributedInfo object */
  int key;          /* of its members, the one whose value comes: 1 rank, 2 world_size */
  gint64 rank, world;
} Peek;

static int
peek_number (void *ctx, const char *text, size_t len)
{
  Peek *p = ctx;
  char buf[32];
  char *end;
  gint64 v;

  if (p->in_info && p->depth == 2 && p->key && len < sizeof buf)
    {
      memcpy (buf, text, len);
      buf[len] = 0;
      v = g_ascii_strtoll (buf, &end, 10);
      if (!*end && v >= 0 && v < G_MAXINT)
        *(p->key == 1 ? &p->rank : &p->world) = v;
    }
  p->key = 0;
  return 1;
}

static int
peek_value (void *ctx)
{
  ((Peek *) ctx)->key = 0;
  return 1;
}

static int
peek_bool (void *ctx, int v)
{
  (void) v;
  return peek_value (ctx);
}

static int
peek_string (void *ctx, const unsigned char *text, size_t len)
{
  (void) text, (void) len;
  return peek_value (ctx);
}

static int
peek_open (void *ctx)
{
  Peek *p = ctx;
  p->depth++;
  p->key = 0;
  return 1;
}

static int
peek_close (void *ctx)
{
  Peek *p = ctx;
  p->depth--;
  if (p->in_info && p->depth == 1)
    return 0; /* distributedInfo read whole: enough */
  return 1;
}

static int
peek_key (void *ctx, const unsigned char *key, size_t len)
{
  Peek *p = ctx;

#define KEY_IS(s) (len == sizeof (s) - 1 && memcmp (key, s, len) == 0)
  if (p->depth == 1)
    {
      /* the events come: a distributedInfo written after them is not read */
      if (KEY_IS ("traceEvents"))
        return 0;
      p->in_info = KEY_IS ("distributedInfo");
    }
  else if (p->in_info && p->depth == 2)
    p->key = KEY_IS ("rank") ? 1 : KEY_IS ("world_size") ? 2 : 0;
#undef KEY_IS
  return 1;
}

gboolean
iv_trace_peek_rank (const char *path, int *rank, int *world_size)
{
  static const yajl_callbacks callbacks = {
    .yajl_null = peek_value,
    .yajl_boolean = peek_bool,
    .yajl_number = peek_number,
    .yajl_string = peek_string,
    .yajl_start_map = peek_open,
    .yajl_map_key = peek_key,
    .yajl_end_map = peek_close,
    .yajl_start_array = peek_open,
    .yajl_end_array = peek_close,
  };
  g_autoptr (IvInput) in = iv_input_open (path, NULL);
  Peek p = { 0, FALSE, 0, -1, -1 };

  if (!in)
    return FALSE;
  iv_input_set_read_limit (in, PEEK_BYTES);
  /* what was read before the head ended, or did not parse, is what there is */
  iv_json_stream_parse (in, &callbacks, &p, IV_JSON_STREAM_DEFAULT, NULL, NULL, NULL, NULL, NULL);
  if (p.rank < 0 || p.world <= 0 || p.rank >= p.world)
    return FALSE;
  *rank = (int) p.rank;
  *world_size = (int) p.world;
  return TRUE;
}

GPtrArray *
iv_trace_ranks_by_info (const char *const *paths, guint n, GCancellable *cancellable)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  int world = -1;

  for (guint i = 0; i < n; i++)
    {
      int rank, w;
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (!iv_trace_peek_rank (paths[i], &rank, &w))
        continue;
      /* one world, each rank once: else these are traces of different jobs */
      if ((world >= 0 && w != world) || g_hash_table_contains (seen, GINT_TO_POINTER (rank + 1)))
        return NULL;
      world = w;
      g_hash_table_add (seen, GINT_TO_POINTER (rank + 1));
      g_ptr_array_add (out, g_strdup (paths[i]));
    }
  return out->len >= 2 ? g_steal_pointer (&out) : NULL;
}

GPtrArray *
iv_trace_ranks_in_folder (const char *dir, GCancellable *cancellable)
{
  g_autoptr (GPtrArray) files = iv_rank_folder_traces (dir, NULL);
  guint by_name = 0;

  if (!files)
    return NULL;
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      by_name += iv_rank_from_file_name (base) >= 0;
    }
  if (by_name >= 2)
    return g_steal_pointer (&files);
  return iv_trace_ranks_by_info ((const char *const *) files->pdata, files->len, cancellable);
}
