/* iv-workspace-page.c: the frame every workspace shares. With nothing selected it says
 * what to open and offers the bundled samples (never made-up data); while an item loads
 * it shows the progress; once loaded it shows what was found in it. The workspaces'
 * own views plug in here and provide the figure that Export draws. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-workspace-page.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-model-view.h"
#include "iv-pipelined-view.h"
#include "iv-plain-text.h"
#include "iv-query-page.h"
#include "iv-ranks-view.h"
#include "iv-safe-text.h"
#include "iv-timeline-view.h"
#include "iv-trace-analyses-view.h"
#include "iv-units.h"
#include "iv-window.h"

struct _IvWorkspacePage
{
  GtkWidget parent_instance;

  IvGroup group;
  IvDocument *document;
  GSignalGroup *document_signals;
  GtkWidget *run_rows[64];
  guint n_run_rows;
  IvModelView *model_view;       /* the Model workspace only */
  IvTimelineView *timeline;      /* the Traces workspace only, created with the first trace */
  IvPipelinedView *pipelined;    /* beside it, for traces that are pipelined timelines */
  IvTraceAnalysesView *analyses; /* beside it: the trace's analyses */
  IvRunsView *runs;              /* the Runs workspace only, created with the first run */
  IvQueryPage *query;            /* the Query page beside the timeline or the runs */
  GtkStack *runs_stack;          /* "runs" and "query" */
  GtkStack *trace_stack;         /* "pipeline" and "timeline" */
  GtkWidget *trace_switcher;
  IvJobBar *job_bar;       /* over the timeline of a distributed job */
  IvRanksView *ranks_view; /* a job's Ranks page beside its timeline */
  IvDocument *imported;    /* the HF config last added to the model view */

  /* template children */
  GtkStack *stack;
  AdwStatusPage *empty_status;
  GtkButton *open_button;
  GtkButton *samples_button;
  AdwStatusPage *loading_status;
  GtkProgressBar *loading_progress;
  AdwPreferencesGroup *overview_group;
  AdwActionRow *kind_row;
  AdwActionRow *location_row;
  AdwActionRow *size_row;
  AdwActionRow *events_row;
  AdwPreferencesGroup *runs_group;
};

G_DEFINE_FINAL_TYPE (IvWorkspacePage, iv_workspace_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_GROUP,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
kind_title (IvKind kind)
{
  switch (kind)
    {
    case IV_KIND_RUN:
      return _ ("AIPerf run");
    case IV_KIND_SWEEP:
      return _ ("AIPerf sweep (several runs)");
    case IV_KIND_CHROME_TRACE:
      return _ ("Chrome trace event format");
    case IV_KIND_PIPELINED_TIMELINE:
      return _ ("Pipelined I/O timeline");
    case IV_KIND_CANDIDATE_BREAKDOWN:
      return _ ("Candidate GPU-time breakdown");
    case IV_KIND_HF_CONFIG:
      return _ ("Hugging Face model configuration");
    case IV_KIND_UNKNOWN:
    default:
      return _ ("Unknown");
    }
}

/* The overview's rows are plain text (iv_workspace_page_init): @value holds names and
 * paths from data. */
static void
set_row (AdwActionRow *row, const char *value)
{
  g_autofree char *valid = iv_text_valid (value ? value : "–", -1);
  adw_action_row_set_subtitle (row, valid);
  gtk_widget_set_visible (GTK_WIDGET (row), value != NULL);
}

static void
clear_run_rows (IvWorkspacePage *self)
{
  for (guint i = 0; i < self->n_run_rows; i++)
    adw_preferences_group_remove (self->runs_group, self->run_rows[i]);
  self->n_run_rows = 0;
}

static void
show_overview (IvWorkspacePage *self, IvDocument *doc)
{
  const IvSniffResult *info = iv_document_get_info (doc);
  g_autofree char *path = g_file_get_path (iv_document_get_file (doc));
  g_autofree char *shown_path = path ? g_filename_display_name (path) : NULL;
  g_autofree char *size = info->size ? iv_units_format_bytes ((double) info->size) : NULL;
  g_autofree char *events = NULL;
  g_autofree char *title = NULL, *subtitle = NULL;

  if (info->events >= 0)
    events
        = g_strdup_printf ("%" G_GINT64_FORMAT "%s", info->events,
                           info->truncated ? _ (" (the file ends early; kept up to there)") : "");
  /* a group's title and description are markup, with no switch (libadwaita 1.2) */
  title = iv_markup_from_text (iv_document_get_title (doc));
  subtitle = iv_markup_from_text (iv_document_get_subtitle (doc));
  adw_preferences_group_set_title (self->overview_group, title);
  adw_preferences_group_set_description (self->overview_group, subtitle);
  set_row (self->kind_row, kind_title (info->kind));
  set_row (self->location_row, shown_path);
  set_row (self->size_row, size);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->events_row),
                                 self->group == IV_GROUP_RUNS ? _ ("Requests") : _ ("Events"));
  set_row (self->events_row, events);

  clear_run_rows (self);
  for (guint i = 0; i < info->runs->len && i < G_N_ELEMENTS (self->run_rows); i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *base = g_filename_display_basename (info->runs->pdata[i]);
      g_autofree char *run_path = g_filename_display_name (info->runs->pdata[i]);
      iv_row_set_plain (row);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), base);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), run_path);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
      adw_preferences_group_add (self->runs_group, row);
      self->run_rows[self->n_run_rows++] = row;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->runs_group), info->runs->len > 0);
  gtk_stack_set_visible_child_name (self->stack, "overview");
}

/* The Model workspace's view, made the first time it is shown or asked for: it is the
 * largest tree of widgets in the window, and an empty start that opens on Runs should
 * not pay for it before its first frame. */
static void sync_view (IvWorkspacePage *self);

static IvModelView *
ensure_model_view (IvWorkspacePage *self)
{
  if (self->group != IV_GROUP_MODEL)
    return NULL;
  if (!self->model_view)
    {
      self->model_view = IV_MODEL_VIEW (iv_model_view_new ());
      gtk_stack_add_named (self->stack, GTK_WIDGET (self->model_view), "model");
      /* shown in place of the empty page (or of the document's view) */
      sync_view (self);
    }
  return self->model_view;
}

/* An opened config.json joins the model choices once and is selected; one that does not
 * import leaves the view as it was, with the reason in a toast by the window. */
static void
show_model (IvWorkspacePage *self, IvDocument *doc)
{
  if (doc != self->imported && iv_document_get_info (doc)->kind == IV_KIND_HF_CONFIG)
    {
      g_autofree char *path = g_file_get_path (iv_document_get_file (doc));
      g_autoptr (GError) error = NULL;
      g_set_object (&self->imported, doc);
      if (!iv_model_view_add_hf_config (ensure_model_view (self), path, &error))
        {
          /* the refusal is the user's to read, once, in the window's toast */
          GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
          if (IV_IS_WINDOW (root))
            iv_window_toast (IV_WINDOW (root), error->message);
          else
            g_warning ("%s", error->message);
        }
    }
  gtk_stack_set_visible_child_name (self->stack, "model");
}

/* A result row with a slice id selects that slice on the timeline (and brings it into
 * view); an activated row (double-click, Enter) also shows the timeline. */
static void
on_query_slice (IvWorkspacePage *self, guint64 slice, gboolean show)
{
  iv_timeline_view_follow (self->timeline, (gsize) slice);
  if (show)
    gtk_stack_set_visible_child_name (self->trace_stack, "timeline");
}

/* Alt+Q: the Query page of the workspace shown, or back to what it queries. */
static gboolean
on_toggle_query (GtkWidget *widget, GVariant *args, gpointer data)
{
  IvWorkspacePage *self = IV_WORKSPACE_PAGE (widget);
  GtkStack *stack = self->group == IV_GROUP_RUNS ? self->runs_stack : self->trace_stack;
  gboolean on;

  (void) args, (void) data;
  if (!stack || !self->query)
    return FALSE;
  on = g_strcmp0 (gtk_stack_get_visible_child_name (stack), "query") == 0;
  gtk_stack_set_visible_child_name (stack, on ? (self->group == IV_GROUP_RUNS ? "runs" : "timeline")
                                              : "query");
  if (!on)
    gtk_widget_grab_focus (GTK_WIDGET (self->query));
  return TRUE;
}

/* A loaded trace opens on its timeline, the whole trace in view; a pipelined timeline
 * opens on its pipeline view, with the timeline of every event a click away (and a
 * PyTorch trace with Candidate_Eval windows offers the pipeline view the same way). */
static void
show_timeline (IvWorkspacePage *self, IvDocument *doc)
{
  const IvTrace *trace = iv_document_get_trace (doc);
  gboolean pipelined = FALSE;

  if (!self->timeline)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      self->timeline = IV_TIMELINE_VIEW (iv_timeline_view_new ());
      self->pipelined = IV_PIPELINED_VIEW (iv_pipelined_view_new ());
      self->trace_stack = GTK_STACK (gtk_stack_new ());
      gtk_widget_set_vexpand (GTK_WIDGET (self->trace_stack), TRUE);
      gtk_stack_add_titled (self->trace_stack, GTK_WIDGET (self->pipelined), "pipeline",
                            _ ("Pipeline"));
      gtk_stack_add_titled (self->trace_stack, GTK_WIDGET (self->timeline), "timeline",
                            _ ("All Events"));
      self->analyses = IV_TRACE_ANALYSES_VIEW (iv_trace_analyses_view_new ());
      iv_trace_analyses_view_set_timeline (self->analyses, self->timeline);
      gtk_stack_add_titled (self->trace_stack, GTK_WIDGET (self->analyses), "analyses",
                            _ ("Analyses"));
      self->query = IV_QUERY_PAGE (iv_query_page_new ());
      g_signal_connect_object (self->query, "slice-selected", G_CALLBACK (on_query_slice), self,
                               G_CONNECT_SWAPPED);
      gtk_stack_add_titled (self->trace_stack, GTK_WIDGET (self->query), "query", _ ("Query"));
      self->trace_switcher = gtk_stack_switcher_new ();
      gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->trace_switcher), self->trace_stack);
      gtk_widget_set_halign (self->trace_switcher, GTK_ALIGN_CENTER);
      gtk_widget_set_margin_top (self->trace_switcher, 6);
      gtk_box_append (GTK_BOX (box), self->trace_switcher);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->trace_stack));
      gtk_stack_add_named (self->stack, box, "timeline");
      /* a distributed job: its bar over the timeline, its Ranks page beside it */
      self->job_bar = IV_JOB_BAR (iv_job_bar_new ());
      gtk_box_insert_child_after (GTK_BOX (box), GTK_WIDGET (self->job_bar), self->trace_switcher);
      self->ranks_view = IV_RANKS_VIEW (iv_ranks_view_new ());
      gtk_stack_add_titled (self->trace_stack, GTK_WIDGET (self->ranks_view), "ranks", _ ("Ranks"));
    }
  iv_timeline_view_set_trace (self->timeline, trace, G_OBJECT (doc));
  {
    IvTraceJob *job = iv_document_get_job (doc);
    iv_ranks_view_set_job (self->ranks_view, job, G_OBJECT (doc));
    iv_job_bar_set_job (self->job_bar, job, G_OBJECT (doc), self->timeline, self->ranks_view);
    gtk_widget_set_visible (GTK_WIDGET (self->job_bar), job != NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->ranks_view), job != NULL);
    /* the switcher offers the Ranks page only for a job */
    gtk_stack_page_set_visible (
        gtk_stack_get_page (self->trace_stack, GTK_WIDGET (self->ranks_view)), job != NULL);
  }
  iv_query_page_set_trace (self->query, trace, G_OBJECT (doc));
  iv_trace_analyses_view_set_trace (self->analyses, trace, G_OBJECT (doc));
  if (iv_pipeline_plot_supported (trace))
    {
      g_autoptr (GError) error = NULL;
      pipelined = iv_pipelined_view_set_trace (
          self->pipelined, trace, iv_document_get_breakdowns (doc), G_OBJECT (doc), &error);
      if (!pipelined)
        g_warning ("%s", error->message);
    }
  /* the Query and Analyses pages are beside every trace's timeline */
  gtk_widget_set_visible (self->trace_switcher, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->pipelined), pipelined);
  /* the switcher, shown for every trace now, offers the pipeline only where there is one */
  gtk_stack_page_set_visible (gtk_stack_get_page (self->trace_stack, GTK_WIDGET (self->pipelined)),
                              pipelined);
  gtk_stack_set_visible_child_name (self->trace_stack,
                                    pipelined && trace->format == IV_TRACE_PIPELINED ? "pipeline"
                                                                                     : "timeline");
  gtk_stack_set_visible_child_name (self->stack, "timeline");
}

/* A followed document grew: redrawn if it is the one shown. */
static void
on_runs_changed (IvDocument *doc, IvWorkspacePage *self)
{
  if (self->runs && self->document == doc)
    iv_runs_view_update (self->runs);
}

/* A loaded run opens on its summary and first plot; a sweep on the comparison. */
static void
show_runs (IvWorkspacePage *self, IvDocument *doc)
{
  if (!self->runs)
    {
      /* the runs, and the Query page over them a switch away */
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *switcher = gtk_stack_switcher_new ();
      self->runs = IV_RUNS_VIEW (iv_runs_view_new ());
      self->query = IV_QUERY_PAGE (iv_query_page_new ());
      self->runs_stack = GTK_STACK (gtk_stack_new ());
      gtk_widget_set_vexpand (GTK_WIDGET (self->runs_stack), TRUE);
      gtk_stack_add_titled (self->runs_stack, GTK_WIDGET (self->runs), "runs", _ ("Runs"));
      gtk_stack_add_titled (self->runs_stack, GTK_WIDGET (self->query), "query", _ ("Query"));
      gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->runs_stack);
      gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
      gtk_widget_set_margin_top (switcher, 6);
      gtk_box_append (GTK_BOX (box), switcher);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->runs_stack));
      gtk_stack_add_named (self->stack, box, "runs");
    }
  iv_query_page_set_sweep (self->query, iv_document_get_sweep (doc), G_OBJECT (doc));
  iv_runs_view_set_sweep (self->runs, iv_document_get_sweep (doc),
                          iv_document_get_plot_configs (doc), G_OBJECT (doc));
  /* a followed run grows in place: the view keeps the user's choices */
  g_signal_handlers_disconnect_by_func (doc, on_runs_changed, self);
  g_signal_connect_object (doc, "runs-changed", G_CALLBACK (on_runs_changed), self, 0);
  gtk_stack_set_visible_child_name (self->stack, "runs");
}

static void
sync_view (IvWorkspacePage *self)
{
  IvDocument *doc = self->document;

  if (!doc || iv_document_get_state (doc) == IV_DOCUMENT_FAILED)
    {
      /* a query on what was closed stops, and the page lets go of it */
      if (self->query)
        iv_query_page_set_trace (self->query, NULL, NULL);
      /* so do the trace's other views: none keeps a closed document alive */
      if (self->timeline)
        {
          iv_job_bar_set_job (self->job_bar, NULL, NULL, self->timeline, NULL);
          iv_ranks_view_set_job (self->ranks_view, NULL, NULL);
          iv_trace_analyses_view_set_trace (self->analyses, NULL, NULL);
          iv_timeline_view_set_trace (self->timeline, NULL, NULL);
        }
      /* The presets make the model useful before anything is opened (its view is made
       * once the page is shown: see on_map). */
      gtk_stack_set_visible_child_name (self->stack, self->model_view ? "model" : "empty");
      return;
    }
  if (iv_document_get_state (doc) == IV_DOCUMENT_LOADING)
    {
      /* the title is plain text, the description markup */
      g_autofree char *description = iv_markup_from_text (iv_document_get_subtitle (doc));
      adw_status_page_set_title (self->loading_status, iv_document_get_title (doc));
      adw_status_page_set_description (self->loading_status, description);
      gtk_progress_bar_set_fraction (self->loading_progress, iv_document_get_progress (doc));
      gtk_stack_set_visible_child_name (self->stack, "loading");
      return;
    }
  if (self->group == IV_GROUP_MODEL)
    {
      show_model (self, doc);
      return;
    }
  if (self->group == IV_GROUP_TRACES && iv_document_get_trace (doc))
    {
      show_timeline (self, doc);
      return;
    }
  if (self->group == IV_GROUP_RUNS && iv_document_get_sweep (doc))
    {
      show_runs (self, doc);
      return;
    }
  show_overview (self, doc);
}

static void
setup_empty (IvWorkspacePage *self)
{
  switch (self->group)
    {
    case IV_GROUP_TRACES:
      adw_status_page_set_icon_name (self->empty_status, "iv-traces-symbolic");
      adw_status_page_set_title (self->empty_status, _ ("No Traces Open"));
      adw_status_page_set_description (
          self->empty_status,
          _ ("Open a Chrome trace (PyTorch profiler, Chromium; .json or .json.gz) or a "
             "pipelined I/O timeline, or drop it on this window."));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "win.open");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->samples_button), "s", "traces");
      break;
    case IV_GROUP_MODEL:
      adw_status_page_set_icon_name (self->empty_status, "iv-model-symbolic");
      adw_status_page_set_title (self->empty_status, _ ("No Model Configurations Open"));
      adw_status_page_set_description (
          self->empty_status,
          _ ("Open a Hugging Face config.json to model its inference on a SIP."));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "win.open");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->samples_button), "s", "model");
      break;
    case IV_GROUP_RUNS:
    default:
      adw_status_page_set_icon_name (self->empty_status, "iv-runs-symbolic");
      adw_status_page_set_title (self->empty_status, _ ("No Runs Open"));
      adw_status_page_set_description (
          self->empty_status,
          _ ("Open an AIPerf result folder: one run, or a sweep of runs to compare. "
             "You can also drop folders on this window."));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "win.open-folder");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->samples_button), "s", "runs");
      break;
    }
}

static void
on_document_notify (IvWorkspacePage *self)
{
  sync_view (self);
}

/* The Model workspace shows its view, with the presets, from the first time it is seen. */
static void
on_map (IvWorkspacePage *self)
{
  if (self->group == IV_GROUP_MODEL)
    ensure_model_view (self);
}

static void
iv_workspace_page_dispose (GObject *object)
{
  IvWorkspacePage *self = IV_WORKSPACE_PAGE (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->imported);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_WORKSPACE_PAGE);
  G_OBJECT_CLASS (iv_workspace_page_parent_class)->dispose (object);
}

static void
iv_workspace_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  IvWorkspacePage *self = IV_WORKSPACE_PAGE (object);

  switch (prop_id)
    {
    case PROP_GROUP:
      g_value_set_int (value, self->group);
      break;
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_workspace_page_set_property (GObject *object, guint prop_id, const GValue *value,
                                GParamSpec *pspec)
{
  IvWorkspacePage *self = IV_WORKSPACE_PAGE (object);

  switch (prop_id)
    {
    case PROP_GROUP:
      self->group = g_value_get_int (value);
      setup_empty (self);
      break;
    case PROP_DOCUMENT:
      iv_workspace_page_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
iv_workspace_page_class_init (IvWorkspacePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_workspace_page_dispose;
  object_class->get_property = iv_workspace_page_get_property;
  object_class->set_property = iv_workspace_page_set_property;

  properties[PROP_GROUP]
      = g_param_spec_int ("group", NULL, NULL, IV_GROUP_RUNS, IV_GROUP_MODEL, IV_GROUP_RUNS,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DOCUMENT]
      = g_param_spec_object ("document", NULL, NULL, IV_TYPE_DOCUMENT,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-workspace-page.ui");
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, stack);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, empty_status);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, open_button);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, samples_button);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, loading_status);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, overview_group);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, kind_row);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, location_row);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, size_row);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, events_row);
  gtk_widget_class_bind_template_child (widget_class, IvWorkspacePage, runs_group);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_q, GDK_ALT_MASK, on_toggle_query, NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
iv_workspace_page_init (IvWorkspacePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* the overview's rows show a file's path and counts: plain text */
  iv_row_set_plain (self->kind_row);
  iv_row_set_plain (self->location_row);
  iv_row_set_plain (self->size_row);
  iv_row_set_plain (self->events_row);
  self->document_signals = g_signal_group_new (IV_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::state",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::progress",
                                  G_CALLBACK (on_document_notify), self);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  setup_empty (self);
}

IvGroup
iv_workspace_page_get_group (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), IV_GROUP_RUNS);
  return self->group;
}

IvDocument *
iv_workspace_page_get_document (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->document;
}

void
iv_workspace_page_set_document (IvWorkspacePage *self, IvDocument *document)
{
  g_return_if_fail (IV_IS_WORKSPACE_PAGE (self));
  g_return_if_fail (!document || IV_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  sync_view (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
iv_workspace_page_set_has_samples (IvWorkspacePage *self, gboolean has_samples)
{
  g_return_if_fail (IV_IS_WORKSPACE_PAGE (self));
  gtk_widget_set_visible (GTK_WIDGET (self->samples_button), has_samples);
}

/* The overview has no figure; the Model workspace exports the figure on screen. */
const IvFigure *
iv_workspace_page_get_figure (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  if (self->model_view && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "model") == 0)
    return iv_model_view_get_figure (self->model_view);
  if (self->runs && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "runs") == 0)
    return g_strcmp0 (gtk_stack_get_visible_child_name (self->runs_stack), "query") == 0
               ? iv_query_page_get_figure (self->query)
               : iv_runs_view_get_figure (self->runs);
  if (self->timeline && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "timeline") == 0)
    {
      const char *shown = gtk_stack_get_visible_child_name (self->trace_stack);
      if (g_strcmp0 (shown, "ranks") == 0)
        return iv_ranks_view_get_figure (self->ranks_view);
      if (g_strcmp0 (shown, "analyses") == 0)
        return iv_trace_analyses_view_get_figure (self->analyses);
      if (g_strcmp0 (shown, "query") == 0)
        return iv_query_page_get_figure (self->query);
      return g_strcmp0 (shown, "pipeline") == 0 ? iv_pipelined_view_get_figure (self->pipelined)
                                                : iv_timeline_view_get_figure (self->timeline);
    }
  return NULL;
}

IvTimelineView *
iv_workspace_page_get_timeline (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->timeline;
}

IvRanksView *
iv_workspace_page_get_ranks_view (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->ranks_view;
}

IvJobBar *
iv_workspace_page_get_job_bar (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->job_bar;
}

IvTraceAnalysesView *
iv_workspace_page_get_analyses (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->analyses;
}

IvQueryPage *
iv_workspace_page_get_query (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->query;
}

IvRunsView *
iv_workspace_page_get_runs (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->runs;
}

IvPipelinedView *
iv_workspace_page_get_pipelined (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return self->pipelined;
}

IvModelView *
iv_workspace_page_get_model_view (IvWorkspacePage *self)
{
  g_return_val_if_fail (IV_IS_WORKSPACE_PAGE (self), NULL);
  return ensure_model_view (self);
}
