/* iv-document.c: loading runs on a worker thread; progress travels back to the main
 * thread through the main context and is throttled to whole per-mille steps, so a
 * fast loader does not flood the main loop with notifications. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-document.h"

#include <glib/gi18n.h>

#include "iv-live-follow.h"
#include "iv-pipeline-plot.h"
#include "iv-preset.h"
#include "iv-rank-names.h"
#include "iv-safe-text.h"
#include "iv-trace-pipelined.h"
#include "iv-trace-queue.h"
#include "iv-units.h"

struct _IvDocument
{
  GObject parent_instance;

  GFile *file;
  char *title;
  char *subtitle;
  IvDocumentState state;
  double progress;
  IvSniffResult *info;
  IvTrace *trace;
  IvTraceJob *job;          /* a distributed job: its ranks joined into one trace */
  GPtrArray *job_files;     /* char*: the rank traces opened together, or NULL (a folder) */
  IvDocument *realign_from; /* a job on another clock: its ranks, read while this loads */
  gboolean realign_aligned;
  GPtrArray *breakdowns;       /* IvBreakdownFile* beside a pipelined trace */
  IvSweep *sweep;              /* runs and sweeps: every run loaded */
  IvPlotConfigs *plot_configs; /* the sweep's, read on the worker */
  IvLiveFollow *follow;        /* keeps the sweep up to date while AIPerf writes it */
  GCancellable *cancellable;
  GMainContext *context;
  gint progress_permille; /* last value sent from the worker, atomically */
};

G_DEFINE_FINAL_TYPE (IvDocument, iv_document, G_TYPE_OBJECT)

enum
{
  SIGNAL_RUNS_CHANGED,
  SIGNAL_FOLLOW_STOPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum
{
  PROP_0,
  PROP_FILE,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_subtitle (IvDocument *self, const char *subtitle)
{
  if (g_strcmp0 (self->subtitle, subtitle) == 0)
    return;
  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
}

static void
set_state (IvDocument *self, IvDocumentState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
iv_document_finalize (GObject *object)
{
  IvDocument *self = IV_DOCUMENT (object);

  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->info, iv_sniff_result_free);
  if (self->follow)
    iv_live_follow_stop (self->follow);
  g_clear_object (&self->follow);
  g_clear_pointer (&self->trace, iv_trace_free);
  g_clear_pointer (&self->job, iv_trace_job_free);
  g_clear_pointer (&self->job_files, g_ptr_array_unref);
  g_clear_object (&self->realign_from);
  g_clear_pointer (&self->breakdowns, g_ptr_array_unref);
  g_clear_pointer (&self->sweep, iv_sweep_free);
  g_clear_pointer (&self->plot_configs, iv_plot_configs_free);
  g_free (self->title);
  g_free (self->subtitle);
  G_OBJECT_CLASS (iv_document_parent_class)->finalize (object);
}

static void
iv_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  IvDocument *self = IV_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->state == IV_DOCUMENT_LOADING);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_document_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  IvDocument *self = IV_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:
      {
        /* the title is shown (sidebar, toasts, status pages): a file name's bytes made
         * valid UTF-8, as the loaders' messages name it */
        g_autofree char *base = NULL;
        self->file = g_value_dup_object (value);
        base = g_file_get_basename (self->file);
        self->title = iv_text_valid (base, -1);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_document_class_init (IvDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = iv_document_finalize;
  object_class->get_property = iv_document_get_property;
  object_class->set_property = iv_document_set_property;

  properties[PROP_FILE]
      = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE]
      = g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUBTITLE]
      = g_param_spec_string ("subtitle", NULL, NULL, NULL,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] = g_param_spec_int (
      "state", NULL, NULL, IV_DOCUMENT_LOADING, IV_DOCUMENT_FAILED, IV_DOCUMENT_LOADING,
      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS]
      = g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING]
      = g_param_spec_boolean ("loading", NULL, NULL, TRUE,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* A followed sweep grew: new requests, new runs, or runs that finished. */
  signals[SIGNAL_RUNS_CHANGED]
      = g_signal_new ("runs-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
  /* A run could no longer be followed: the sentence says which, when and why. */
  signals[SIGNAL_FOLLOW_STOPPED]
      = g_signal_new ("follow-stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
iv_document_init (IvDocument *self)
{
  self->state = IV_DOCUMENT_LOADING;
  self->subtitle = g_strdup (_ ("Waiting to load…"));
}

IvDocument *
iv_document_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  return g_object_new (IV_TYPE_DOCUMENT, "file", file, NULL);
}

IvDocument *
iv_document_new_job (GFile **files, guint n_files)
{
  g_autoptr (GFile) folder = NULL;
  IvDocument *self;

  g_return_val_if_fail (files && n_files > 0, NULL);
  folder = g_file_get_parent (files[0]);
  self = iv_document_new (folder ? folder : files[0]);
  self->job_files = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);
      if (path)
        g_ptr_array_add (self->job_files, path);
    }
  {
    /* "4 ranks · run-7": the files' count and their folder */
    g_autofree char *title = g_strdup_printf (
        g_dngettext (NULL, "%u rank · %s", "%u ranks · %s", n_files), n_files, self->title);
    g_free (self->title);
    self->title = g_steal_pointer (&title);
  }
  return self;
}

IvDocument *
iv_document_new_realigned (IvDocument *job_doc, gboolean aligned)
{
  IvDocument *self;

  g_return_val_if_fail (IV_IS_DOCUMENT (job_doc) && job_doc->job, NULL);
  self = iv_document_new (job_doc->file);
  g_free (self->title);
  self->title = g_strdup (job_doc->title);
  if (job_doc->job_files)
    {
      self->job_files = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < job_doc->job_files->len; i++)
        g_ptr_array_add (self->job_files, g_strdup (job_doc->job_files->pdata[i]));
    }
  self->realign_from = g_object_ref (job_doc);
  self->realign_aligned = aligned;
  return self;
}

IvTraceJob *
iv_document_get_job (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->job;
}

GFile *
iv_document_get_file (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->file;
}

const char *
iv_document_get_title (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->title;
}

const char *
iv_document_get_subtitle (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->subtitle;
}

IvDocumentState
iv_document_get_state (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), IV_DOCUMENT_FAILED);
  return self->state;
}

double
iv_document_get_progress (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), 0.0);
  return self->progress;
}

const IvSniffResult *
iv_document_get_info (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->info;
}

/* Until it is loaded a document is grouped by what it looks like: folders are runs. */
IvGroup
iv_document_get_group (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), IV_GROUP_RUNS);
  if (self->info)
    return iv_kind_get_group (self->info->kind);
  return IV_GROUP_RUNS;
}

const char *
iv_document_get_icon_name (IvDocument *self)
{
  switch (self->info ? self->info->kind : IV_KIND_UNKNOWN)
    {
    case IV_KIND_SWEEP:
      return "iv-sweep-symbolic";
    case IV_KIND_CHROME_TRACE:
    case IV_KIND_PIPELINED_TIMELINE:
    case IV_KIND_CANDIDATE_BREAKDOWN:
      return "iv-traces-symbolic";
    case IV_KIND_HF_CONFIG:
      return "iv-model-symbolic";
    case IV_KIND_RUN:
      return "iv-runs-symbolic";
    case IV_KIND_UNKNOWN:
    default:
      return "folder-symbolic";
    }
}

static char *
describe (const IvSniffResult *r)
{
  g_autofree char *events
      = r->events >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, r->events) : NULL;
  switch (r->kind)
    {
    case IV_KIND_RUN:
      return events ? g_strdup_printf (_ ("AIPerf run · %s requests"), events)
                    : g_strdup (_ ("AIPerf run · summary only"));
    case IV_KIND_SWEEP:
      return g_strdup_printf (_ ("%u runs · %s requests"), r->runs->len, events ? events : "–");
    case IV_KIND_CHROME_TRACE:
      /* the damage first, where the sidebar's ellipsis cannot hide it */
      return g_strdup_printf (r->truncated ? _ ("Damaged, opens in part · Trace · %s events")
                                           : _ ("Trace · %s events"),
                              events ? events : "–");
    case IV_KIND_PIPELINED_TIMELINE:
      return g_strdup_printf (_ ("Pipelined timeline · %s events"), events ? events : "–");
    case IV_KIND_CANDIDATE_BREAKDOWN:
      return g_strdup (_ ("Candidate GPU breakdown"));
    case IV_KIND_HF_CONFIG:
      return g_strdup (_ ("Hugging Face model configuration"));
    case IV_KIND_UNKNOWN:
    default:
      return g_strdup ("");
    }
}

static char *
describe_trace (const IvTrace *t)
{
  const char *kind = t->format == IV_TRACE_PIPELINED ? _ ("Pipelined timeline") : _ ("Trace");
  g_autofree char *span = iv_units_format_seconds ((t->t1_ns - t->t0_ns) * 1e-9);

  /* the damage first, where the sidebar's ellipsis cannot hide it; the banner over the
   * timeline says where */
  return g_strdup_printf (t->truncated ? _ ("Damaged, loaded in part · %s · %" G_GSIZE_FORMAT
                                            " slices · %u tracks · %s")
                                       : _ ("%s · %" G_GSIZE_FORMAT " slices · %u tracks · %s"),
                          kind, t->n_slices, t->tracks->len - t->n_derived_tracks, span);
}

/* A followed sweep's line: live while a run is being written, its requests so far. */
static void
on_runs_changed (IvDocument *self)
{
  guint64 requests = 0;
  guint live = iv_sweep_n_live (self->sweep), runs = self->sweep->runs->len;
  g_autofree char *text = NULL;

  for (guint i = 0; i < runs; i++)
    requests += ((const IvRun *) self->sweep->runs->pdata[i])->n_requests;
  if (live)
    text = runs == 1
               ? g_strdup_printf (_ ("Live AIPerf run · %" G_GUINT64_FORMAT " requests so far"),
                                  requests)
               : g_strdup_printf (_ ("%u runs (%u live) · %" G_GUINT64_FORMAT " requests so far"),
                                  runs, live, requests);
  else
    text = runs == 1
               ? g_strdup_printf (_ ("AIPerf run · %" G_GUINT64_FORMAT " requests"), requests)
               : g_strdup_printf (_ ("%u runs · %" G_GUINT64_FORMAT " requests"), runs, requests);
  set_subtitle (self, text);
  g_signal_emit (self, signals[SIGNAL_RUNS_CHANGED], 0);
}

static void
on_follow_stopped (IvDocument *self, const char *why)
{
  g_signal_emit (self, signals[SIGNAL_FOLLOW_STOPPED], 0, why);
}

/* Reads what AIPerf wrote since the last read now (tests; the user's refresh). */
void
iv_document_follow_now (IvDocument *self)
{
  g_return_if_fail (IV_IS_DOCUMENT (self));
  if (self->follow)
    iv_live_follow_poll (self->follow);
}

const GPtrArray *
iv_document_get_breakdowns (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->breakdowns;
}

const IvPlotConfigs *
iv_document_get_plot_configs (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->plot_configs;
}

const IvSweep *
iv_document_get_sweep (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->sweep;
}

const IvTrace *
iv_document_get_trace (IvDocument *self)
{
  g_return_val_if_fail (IV_IS_DOCUMENT (self), NULL);
  return self->trace ? self->trace : self->job ? self->job->trace : NULL;
}

typedef struct
{
  IvDocument *self; /* a reference */
  double fraction;
} ProgressUpdate;

static gboolean
apply_progress (gpointer data)
{
  ProgressUpdate *u = data;

  if (u->self->state == IV_DOCUMENT_LOADING && u->self->progress != u->fraction)
    {
      g_autofree char *text = g_strdup_printf (_ ("Loading… %.0f %%"), 100.0 * u->fraction);
      u->self->progress = u->fraction;
      g_object_notify_by_pspec (G_OBJECT (u->self), properties[PROP_PROGRESS]);
      set_subtitle (u->self, text);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_update_free (gpointer data)
{
  ProgressUpdate *u = data;
  g_object_unref (u->self);
  g_free (u);
}

/* Runs on the worker thread. */
static void
on_worker_progress (guint64 done, guint64 total, gpointer user_data)
{
  IvDocument *self = user_data;
  gint permille;
  ProgressUpdate *u;

  if (total == 0)
    return;
  permille = (gint) MIN (1000, done * 1000 / total);
  if (permille - g_atomic_int_get (&self->progress_permille) < 10)
    return;
  g_atomic_int_set (&self->progress_permille, permille);
  u = g_new (ProgressUpdate, 1);
  u->self = g_object_ref (self);
  u->fraction = permille / 1000.0;
  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, apply_progress, u,
                              progress_update_free);
}

/* What the worker hands over besides its result; freed with the task if not taken. */
typedef struct
{
  IvTrace *trace;
  IvTraceJob *job;
  GPtrArray *breakdowns;
  IvSweep *sweep;
  IvPlotConfigs *plot_configs;
} LoadData;

static void
load_data_free (gpointer p)
{
  LoadData *data = p;
  g_clear_pointer (&data->trace, iv_trace_free);
  g_clear_pointer (&data->job, iv_trace_job_free);
  g_clear_pointer (&data->breakdowns, g_ptr_array_unref);
  g_clear_pointer (&data->sweep, iv_sweep_free);
  g_clear_pointer (&data->plot_configs, iv_plot_configs_free);
  g_free (data);
}

static IvSniffResult *job_info (const IvTraceJob *job, const char *path, GCancellable *cancellable);

static char *
describe_job (const IvTraceJob *job)
{
  const IvTraceRanks *r = job->ranks;
  g_autofree char *span = iv_units_format_seconds ((r->t1_ns - r->t0_ns) * 1e-9);

  return g_strdup_printf (_ ("Distributed trace · %u ranks · %" G_GSIZE_FORMAT " slices · %s"),
                          r->ranks->len, job->trace->n_slices, span);
}

/* A distributed job, on the worker: every rank on a thread of its own (iv-trace-ranks),
 * joined into one trace; what the sidebar and overview say of it as a sniff would. */
static IvSniffResult *
load_job (IvDocument *self, GTask *task, const char *path, const GPtrArray *files,
          GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  const char *const *paths;
  IvTraceJob *job;
  IvSniffResult *r;

  /* the rank files (opened together, or the folder's ranks), borrowed, NULL-terminated */
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (list, files->pdata[i]);
  g_ptr_array_add (list, NULL);
  paths = (const char *const *) list->pdata;
  job = iv_trace_job_load (paths, on_worker_progress, self, cancellable, error);
  if (!job)
    return NULL;
  r = job_info (job, path, cancellable);
  ((LoadData *) g_task_get_task_data (task))->job = job;
  return r;
}

/* What the sidebar and overview say of a job, as a sniff would. */
static IvSniffResult *
job_info (const IvTraceJob *job, const char *path, GCancellable *cancellable)
{
  IvSniffResult *r = g_new0 (IvSniffResult, 1);

  r->kind = IV_KIND_CHROME_TRACE;
  r->root = g_strdup (path);
  r->runs = g_ptr_array_new_with_free_func (g_free);
  r->links_out = g_ptr_array_new_with_free_func (g_free);
  r->links_out_targets = g_ptr_array_new_with_free_func (g_free);
  r->events = (gint64) (job->trace->n_slices + job->trace->instants->len);
  r->truncated = job->trace->truncated;
  for (guint i = 0; i < job->ranks->ranks->len; i++)
    {
      g_autoptr (GFile) f = g_file_new_for_path (((IvRank *) job->ranks->ranks->pdata[i])->path);
      g_autoptr (GFileInfo) fi
          = g_file_query_info (f, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, cancellable, NULL);
      if (fi)
        r->size += (guint64) g_file_info_get_size (fi);
    }
  return r;
}

/* The same job on the other clock, from the document shown (only read: its pages may be
 * reading it too), into a new trace the window shows in its place. */
static IvSniffResult *
realign_job (IvDocument *self, GTask *task, const char *path, GCancellable *cancellable,
             GError **error)
{
  IvTraceJob *job = iv_trace_job_realign (self->realign_from->job, self->realign_aligned, error);

  if (!job)
    return NULL;
  ((LoadData *) g_task_get_task_data (task))->job = job;
  return job_info (job, path, cancellable);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  IvDocument *self = source;
  g_autofree char *path = g_file_get_path (self->file);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ranks = NULL;
  IvSniffResult *r;

  if (!path)
    {
      g_autofree char *uri = g_file_get_uri (self->file);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _ ("%s: only local files can be opened"), uri);
      return;
    }
  /* A quick look decides how to load: traces are loaded whole (and kept), runs and
   * model configurations are read through to count and check them. */
  /* With progress: a file of nothing but whitespace is read up to the sniff's limit. */
  /* rank traces opened together, or a folder of them (by their names, as `identify`
   * tells them): one distributed job */
  if (self->realign_from)
    r = realign_job (self, task, path, cancellable, &error);
  else if (self->job_files)
    r = load_job (self, task, path, self->job_files, cancellable, &error);
  /* a folder's ranks: by their names, or by the distributedInfo their heads hold */
  else if (g_file_test (path, G_FILE_TEST_IS_DIR)
           && (ranks = iv_trace_ranks_in_folder (path, cancellable)))
    r = load_job (self, task, path, ranks, cancellable, &error);
  else
    r = iv_sniff_path (path, FALSE, on_worker_progress, self, cancellable, &error);
  if (r && ((LoadData *) g_task_get_task_data (task))->job)
    ; /* loaded whole already */
  else if (r && (r->kind == IV_KIND_CHROME_TRACE || r->kind == IV_KIND_PIPELINED_TIMELINE))
    {
      IvTrace *trace = iv_trace_load (path, on_worker_progress, self, cancellable, &error);
      if (!trace)
        g_clear_pointer (&r, iv_sniff_result_free);
      else
        {
          /* the queue length per GPU stream as counter tracks (iv-trace-queue.h), made
           * here on the worker before the trace is shared: they renumber its tracks, and
           * a trace without launch flows reads its arguments back for them */
          if (!iv_trace_add_queue_tracks (trace, TRUE))
            g_debug ("%s: no memory for the queue length tracks", path);
          r->events = (gint64) (trace->n_slices + trace->instants->len);
          r->truncated = trace->truncated;
          LoadData *data = g_task_get_task_data (task);
          data->trace = trace;
          /* the pipeline view offers the breakdowns beside it: read here, not on the main
           * thread when the view is shown */
          if (iv_pipeline_plot_supported (trace))
            data->breakdowns = iv_breakdowns_beside (path, cancellable);
        }
    }
  else if (r)
    {
      gboolean runs = r->kind == IV_KIND_RUN || r->kind == IV_KIND_SWEEP;
      iv_sniff_result_free (r);
      r = iv_sniff_path (path, TRUE, on_worker_progress, self, cancellable, &error);
      /* Runs are loaded whole too: every request, the summary, telemetry, time slices. */
      if (r && runs)
        {
          const char *paths[] = { path, NULL };
          /* followed: a run AIPerf is still writing keeps growing in the window */
          IvSweep *sweep
              = iv_sweep_load_full (paths, IV_RUN_LOAD_FOLLOW, NULL, NULL, cancellable, &error);
          if (!sweep)
            g_clear_pointer (&r, iv_sniff_result_free);
          else
            {
              LoadData *data = g_task_get_task_data (task);
              data->sweep = sweep;
              /* the plot configurations are read here too, not when a run is shown */
              data->plot_configs = iv_plot_configs_new (sweep);
            }
        }
      /* A model configuration is read now as the Model workspace will read it: one it
       * would refuse is refused here, by the window's toast that names the file, the key
       * and the problem, instead of being listed as opened. */
      else if (r && r->kind == IV_KIND_HF_CONFIG)
        {
          g_autoptr (IvModel) model = iv_model_from_hf_config (path, &error);
          if (!model)
            g_clear_pointer (&r, iv_sniff_result_free);
        }
    }
  if (!r)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, r, (GDestroyNotify) iv_sniff_result_free);
}

void
iv_document_load_async (IvDocument *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (IV_IS_DOCUMENT (self));
  g_return_if_fail (self->cancellable == NULL);

  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  set_subtitle (self, _ ("Loading…"));
  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, iv_document_load_async);
  g_task_set_task_data (task, g_new0 (LoadData, 1), load_data_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
iv_document_load_finish (IvDocument *self, GAsyncResult *result, GError **error)
{
  IvSniffResult *r;

  g_return_val_if_fail (IV_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  r = g_task_propagate_pointer (G_TASK (result), error);
  if (!r)
    {
      g_clear_object (&self->realign_from);
      set_subtitle (self, _ ("Failed to load"));
      set_state (self, IV_DOCUMENT_FAILED);
      return FALSE;
    }
  self->info = r;
  g_clear_object (&self->realign_from);
  /* The loaded trace moves from the task to the document. */
  {
    LoadData *data = g_task_get_task_data (G_TASK (result));
    self->trace = g_steal_pointer (&data->trace);
    self->job = g_steal_pointer (&data->job);
    self->breakdowns = g_steal_pointer (&data->breakdowns);
    self->sweep = g_steal_pointer (&data->sweep);
    self->plot_configs = g_steal_pointer (&data->plot_configs);
  }
  {
    g_autofree char *text = self->job     ? describe_job (self->job)
                            : self->trace ? describe_trace (self->trace)
                                          : describe (r);
    set_subtitle (self, text);
  }
  /* Runs still being written are followed, and a sweep for the runs that join it. */
  if (self->sweep && (iv_sweep_n_live (self->sweep) || r->kind == IV_KIND_SWEEP))
    {
      /* 8 MiB a file and read: ~10 ms of parsing, so a burst never holds a frame */
      self->follow = iv_live_follow_new (self->sweep, (gsize) 8 << 20);
      g_signal_connect_swapped (self->follow, "changed", G_CALLBACK (on_runs_changed), self);
      g_signal_connect_swapped (self->follow, "stopped", G_CALLBACK (on_follow_stopped), self);
      if (iv_sweep_n_live (self->sweep))
        on_runs_changed (self);
    }
  self->progress = 1.0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  set_state (self, IV_DOCUMENT_READY);
  return TRUE;
}

void
iv_document_cancel (IvDocument *self)
{
  g_return_if_fail (IV_IS_DOCUMENT (self));
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}
