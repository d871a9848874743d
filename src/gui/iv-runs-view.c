/* iv-runs-view.c: a run or a sweep in the Runs workspace (see the header). The header,
 * table, card and notes follow the state's sweep, run and bound; the plot area follows the
 * rest; the folder's memory is saved whenever a part of it changes. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-runs-view.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-plain-text.h"
#include "iv-run-card.h"
#include "iv-runs-bound-row.h"
#include "iv-runs-notes-bar.h"
#include "iv-runs-plot-area.h"
#include "iv-runs-table-view.h"
#include "iv-settings.h"

struct _IvRunsView
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkLabel *title, *subtitle;
  GtkWidget *live_badge; /* AIPerf is still writing what is shown */
  IvRunsNotesBar *notes;
  GtkButton *back;
  IvRunCard *card;           /* one run: the summary (in Run Details' popover) */
  GtkWidget *details_button; /* one run: opens the card */
  IvRunsTableView *table;    /* one run's metrics, or the runs */
  GtkWidget *paned;          /* the table above the plot */
  IvRunsPlotArea *plot_area;

  IvRunsState *state;
  GSettings *settings;
  guint64 shown;         /* the state's generation the header and table show */
  const IvRun *laid_out; /* what the divider was placed for (a run, or the sweep's first) */
  const IvSweep *laid_out_sweep;
  gboolean place_pending; /* the divider waits for the pane's first height */
  int placed;             /* where the divider was put (a drag puts it elsewhere) */
};

G_DEFINE_FINAL_TYPE (IvRunsView, iv_runs_view, GTK_TYPE_WIDGET)

/* The folder whose choices are remembered: the first path opened. */
static const char *
folder_key (const IvSweep *sweep)
{
  return sweep && sweep->paths && sweep->paths[0] ? sweep->paths[0] : NULL;
}

/* The least share of the page's height the figure has where the divider is placed
 * (issue 31: at least half at 1024 × 700), with a margin for the handle's pixels. */
#define PLOT_SHARE 0.54

/* The table above the plot, both the page's width: a run's eight statistics side by side
 * and a time series as wide as it can be. The divider is placed where the figure has
 * PLOT_SHARE of the page, or more (a sweep of a few runs: the table only as tall as its
 * header and rows), less only where the table's minimum (its header and a row) needs it.
 * Placed from the pane's height when another run or sweep is shown (or on the pane's
 * first allocation, before which it has none). Then the table gives way first: a smaller
 * window moves a divider the user has not dragged up, to keep the figure its share; a
 * larger one leaves it, and one the user dragged stays where it was put. */
static int
wanted_position (IvRunsView *self)
{
  int tall = gtk_widget_get_height (self->paned);
  int page = gtk_widget_get_height (GTK_WIDGET (self));
  int controls
      = iv_runs_plot_area_get_controls_height (self->plot_area, gtk_widget_get_width (self->paned));
  /* the wide handle's height: the pane less its children's, where they are allocated */
  int handle = 6;
  int pos = tall - handle - controls - (int) ceil (PLOT_SHARE * page);

  if (!self->laid_out)
    pos = MIN (pos, 60 + 34 * (int) self->laid_out_sweep->runs->len);
  return pos;
}

static void
set_position (IvRunsView *self, int pos)
{
  int lo = 0, hi = 0;

  /* within the children's minimums (the table's header and a row, the plot's controls
   * and a chart), as a drag is: set during an allocation, the pane would not */
  g_object_get (self->paned, "min-position", &lo, "max-position", &hi, NULL);
  if (hi >= lo)
    pos = CLAMP (pos, lo, hi);
  self->placed = pos;
  gtk_paned_set_position (GTK_PANED (self->paned), pos);
}

static void
place_now (IvRunsView *self)
{
  if (gtk_widget_get_height (self->paned) <= 0)
    return;
  self->place_pending = FALSE;
  set_position (self, wanted_position (self));
}

static void
place_divider (IvRunsView *self, const IvSweep *sweep, const IvRun *r)
{
  if (sweep == self->laid_out_sweep && r == self->laid_out)
    return;
  self->laid_out_sweep = sweep;
  self->laid_out = r;
  self->place_pending = TRUE;
  place_now (self);
}

/* The pane's allocation changed (its range of positions with it): the first one places a
 * divider that waited for a height; later ones move a divider still where it was placed
 * (or where the pane's range pushed it) up when the figure would have less than its
 * share, never down, and never one the user dragged. */
static void
on_paned_allocated (IvRunsView *self)
{
  int pos = gtk_paned_get_position (GTK_PANED (self->paned)), hi = 0, want;

  if (!self->laid_out_sweep)
    return;
  if (self->place_pending)
    {
      place_now (self);
      return;
    }
  g_object_get (self->paned, "max-position", &hi, NULL);
  if (pos != self->placed && pos != hi)
    return;
  want = wanted_position (self);
  if (want < pos)
    set_position (self, want);
}

/* "Qwen3-0.6B · concurrency 1 · 64 requests · 0 errors": the card's headline facts, so
 * its popover is for the rest. */
static char *
run_subtitle (const IvSweep *sweep, const IvRun *r)
{
  g_autofree char *label = iv_sweep_run_label (sweep, r);
  double summary = iv_run_summary_requests (r);
  g_autofree char *reqs
      = r->has_records && isfinite (summary) && (double) iv_run_good_records (r) < summary
            ? g_strdup_printf (_ ("%" G_GSIZE_FORMAT " of %.0f requests"), r->n_requests, summary)
            : g_strdup_printf (g_dngettext (NULL, "%" G_GSIZE_FORMAT " request",
                                            "%" G_GSIZE_FORMAT " requests", r->n_requests),
                               r->n_requests);
  g_autofree char *errs = g_strdup_printf (
      g_dngettext (NULL, "%" G_GSIZE_FORMAT " error", "%" G_GSIZE_FORMAT " errors", r->n_errors),
      r->n_errors);

  return g_strdup_printf ("%s%s%s · %s · %s", r->model ? r->model : "", r->model ? " · " : "",
                          label, reqs, errs);
}

/* What every run shares, said once (the table leaves those columns out), then how to go
 * on: "Model: Qwen/Qwen3-0.6B · Errors: 0 — click a point or a row to open that run". The
 * run names say what varies. */
static char *
sweep_subtitle (const IvRunsTable *t)
{
  g_autofree char *shared = iv_runs_table_constants_text (t);

  if (!shared)
    return g_strdup (_ ("click a point or a row to open that run"));
  return g_strdup_printf (_ ("%s — click a point or a row to open that run"), shared);
}

static void
show_notes (IvRunsView *self)
{
  IvRunsBoundRow *row = iv_runs_plot_area_get_bound_row (self->plot_area);
  const IvSweep *sweep = iv_runs_state_get_sweep (self->state);
  const char *config_error = NULL;
  const IvPlotConfig *config = iv_runs_state_get_config (self->state, &config_error);
  IvRunsBoundChoice bound;

  if (!sweep)
    return;
  iv_runs_bound_row_get_choice (row, &bound);
  iv_runs_notes_bar_show (self->notes, sweep, iv_runs_state_get_run (self->state), config,
                          config_error, &bound, iv_runs_bound_row_get_error (row),
                          iv_runs_plot_area_get_notes (self->plot_area));
}

/* The header, the table, the card and the notes, once per change of the state. */
static void
show (IvRunsView *self)
{
  const IvSweep *sweep = iv_runs_state_get_sweep (self->state);
  const IvRun *r = iv_runs_state_get_run (self->state);
  IvRunsBoundChoice bound;
  g_autofree char *sub = NULL;

  if (!sweep || self->shown == iv_runs_state_get_generation (self->state))
    return;
  self->shown = iv_runs_state_get_generation (self->state);
  iv_runs_bound_row_get_choice (iv_runs_plot_area_get_bound_row (self->plot_area), &bound);
  gtk_widget_set_visible (GTK_WIDGET (self->back), r && sweep->runs->len > 1);
  gtk_widget_set_visible (self->details_button, r != NULL);
  gtk_widget_set_visible (self->live_badge, r ? r->live != NULL : iv_sweep_n_live (sweep) > 0);
  place_divider (self, sweep, r);
  if (r)
    {
      g_autoptr (IvRunsTable) t = iv_runs_table_metrics (r);
      iv_label_set_valid_text (self->title, r->name);
      sub = run_subtitle (sweep, r);
      iv_run_card_set_run (self->card, r, &bound);
      iv_runs_table_view_show (self->table, t, 230);
    }
  else
    {
      g_autoptr (IvRunsTable) t = iv_runs_table_comparison (sweep, &bound);
      g_autofree char *title = g_strdup_printf (
          g_dngettext (NULL, "%u run", "%u runs", sweep->runs->len), sweep->runs->len);
      gtk_label_set_text (self->title, title);
      sub = sweep_subtitle (t);
      /* a run's label is short (what varies); the headline numbers get the room */
      iv_runs_table_view_show (self->table, t, 150);
    }
  iv_label_set_valid_text (self->subtitle, sub); /* the run's model name, from its files */
  /* ellipsized when the window is narrow: whole on hover */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle), gtk_label_get_text (self->subtitle));
  show_notes (self);
}

/* What the folder remembers (iv_runs_state_serialize), saved as it changes. */
static void
remember (IvRunsView *self)
{
  const char *key = folder_key (iv_runs_state_get_sweep (self->state));
  g_autofree char *value = NULL;
  g_autoptr (GVariant) old = NULL;
  GVariantBuilder b;
  GVariantIter it;
  const char *k, *v;

  if (!key)
    return;
  value = iv_runs_state_serialize (self->state);
  old = g_settings_get_value (self->settings, "run-bounds");
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&it, old);
  while (g_variant_iter_next (&it, "{&s&s}", &k, &v))
    if (!g_str_equal (k, key))
      g_variant_builder_add (&b, "{ss}", k, v);
  if (value)
    g_variant_builder_add (&b, "{ss}", key, value);
  g_settings_set_value (self->settings, "run-bounds", g_variant_builder_end (&b));
}

void
iv_runs_view_set_sweep (IvRunsView *self, const IvSweep *sweep, const IvPlotConfigs *configs,
                        GObject *owner)
{
  g_autoptr (GVariant) map = NULL;
  g_autofree char *memory = NULL;
  const char *key = folder_key (sweep);

  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  if (key)
    {
      map = g_settings_get_value (self->settings, "run-bounds");
      g_variant_lookup (map, key, "s", &memory);
    }
  /* one change: the new sweep with its folder's choices, drawn once */
  g_object_freeze_notify (G_OBJECT (self->state));
  iv_runs_state_set_sweep (self->state, sweep, configs, owner);
  iv_runs_state_restore (self->state, memory);
  g_object_thaw_notify (G_OBJECT (self->state));
}

void
iv_runs_view_update (IvRunsView *self)
{
  g_return_if_fail (IV_IS_RUNS_VIEW (self));
  iv_runs_state_grew (self->state);
}

const IvFigure *
iv_runs_view_get_figure (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return iv_runs_plot_area_get_figure (self->plot_area);
}

IvRunsState *
iv_runs_view_get_state (IvRunsView *self)
{
  g_return_val_if_fail (IV_IS_RUNS_VIEW (self), NULL);
  return self->state;
}

/* A row of the comparison opens its run. */
static void
on_row_activated (IvRunsView *self, guint index)
{
  if (!iv_runs_state_get_run (self->state))
    g_object_set (self->state, "run", index, NULL);
}

static void
on_back (IvRunsView *self)
{
  g_object_set (self->state, "run", G_MAXUINT, NULL);
}

static void
iv_runs_view_dispose (GObject *object)
{
  IvRunsView *self = IV_RUNS_VIEW (object);

  if (self->state)
    g_signal_handlers_disconnect_by_data (self->state, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), IV_TYPE_RUNS_VIEW);
  g_clear_object (&self->state);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (iv_runs_view_parent_class)->dispose (object);
}

static void
iv_runs_view_class_init (IvRunsViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_runs_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (IV_TYPE_RUNS_TABLE_VIEW);
  g_type_ensure (IV_TYPE_RUNS_NOTES_BAR);
  g_type_ensure (IV_TYPE_RUNS_PLOT_AREA);
  g_type_ensure (IV_TYPE_RUN_CARD);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-runs-view.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, IvRunsView, name)
  CHILD (box);
  CHILD (title);
  CHILD (subtitle);
  CHILD (live_badge);
  CHILD (notes);
  CHILD (back);
  CHILD (card);
  CHILD (details_button);
  CHILD (table);
  CHILD (paned);
  CHILD (plot_area);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_back);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
}

static void
iv_runs_view_init (IvRunsView *self)
{
  static const char *const shown_on[]
      = { "notify::sweep", "notify::run", "notify::hardware", "notify::tp", "notify::model" };
  static const char *const remembered[]
      = { "notify::hardware", "notify::tp",       "notify::model",
          "notify::plot",     "notify::custom-x", "notify::custom-y" };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = iv_settings_new ();
  self->state = iv_runs_state_new ();
  /* the plot area first: the bound row resolves the model the table is set against */
  iv_runs_plot_area_set_state (self->plot_area, self->state);
  for (guint i = 0; i < G_N_ELEMENTS (shown_on); i++)
    g_signal_connect_swapped (self->state, shown_on[i], G_CALLBACK (show), self);
  for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
    g_signal_connect_swapped (self->state, remembered[i], G_CALLBACK (remember), self);
  g_signal_connect_swapped (self->paned, "notify::max-position", G_CALLBACK (on_paned_allocated),
                            self);
  /* a config.json that could not be read is said in the notes */
  g_signal_connect_swapped (iv_runs_plot_area_get_bound_row (self->plot_area), "notify::error",
                            G_CALLBACK (show_notes), self);
  /* and the runs the plot leaves out (the serving bound's) */
  g_signal_connect_swapped (self->plot_area, "notify::notes", G_CALLBACK (show_notes), self);
}

GtkWidget *
iv_runs_view_new (void)
{
  return g_object_new (IV_TYPE_RUNS_VIEW, NULL);
}
