/* iv-run-card.c: one run's card (see the header). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-run-card.h"

#include <glib/gi18n.h>
#include <math.h>

#include "iv-plain-text.h"
#include "iv-units.h"

struct _IvRunCard
{
  GtkWidget parent_instance;
  GtkGrid *grid;
};

G_DEFINE_FINAL_TYPE (IvRunCard, iv_run_card, GTK_TYPE_WIDGET)

static void
card_line (GtkGrid *grid, int row, const char *key, const char *value)
{
  GtkWidget *k = gtk_label_new (key), *v = gtk_label_new (NULL);
  iv_label_set_valid_text (GTK_LABEL (v), value ? value : "–"); /* a value from the run's files */
  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (v), 60);
  gtk_grid_attach (grid, k, 0, row, 1, 1);
  gtk_grid_attach (grid, v, 1, row, 1, 1);
}

void
iv_run_card_set_run (IvRunCard *self, const IvRun *r, const IvRunsBoundChoice *choice)
{
  GtkWidget *child;
  GtkGrid *grid = self->grid;
  g_autofree char *conc = iv_runs_table_number (r->concurrency, NULL);
  g_autofree char *rate = iv_runs_table_number (r->request_rate, _ ("requests/s"));
  g_autofree char *dur
      = isfinite (r->duration_s) ? g_strdup_printf (_ ("%.1f s"), r->duration_s) : g_strdup ("–");
  g_autofree char *reqs = g_strdup_printf (
      _ ("%" G_GSIZE_FORMAT " (and %" G_GSIZE_FORMAT " warm-up)"), r->n_requests, r->n_warmup);
  g_autoptr (GString) errors = g_string_new (NULL);
  g_autofree char *endpoint = g_strdup_printf (
      "%s%s%s%s", r->endpoint_type ? r->endpoint_type : "–", r->endpoint ? " " : "",
      r->endpoint ? r->endpoint : "", r->streaming ? _ (", streaming") : "");
  g_autofree char *isl = iv_runs_table_number (r->isl, NULL),
                  *osl = iv_runs_table_number (r->osl, NULL);
  g_autofree char *io = g_strdup_printf (_ ("%s in, %s out (tokens, mean)"), isl, osl);
  GHashTableIter it;
  gpointer key, value;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))))
    gtk_grid_remove (grid, child);
  g_string_append_printf (errors, "%" G_GSIZE_FORMAT, r->n_errors);
  g_hash_table_iter_init (&it, r->error_types);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_string_append_printf (errors, "%s%s × %u", errors->len > 3 ? ", " : " — ", (const char *) key,
                            GPOINTER_TO_UINT (value));
  card_line (grid, 0, _ ("Model"), r->model);
  card_line (grid, 1, _ ("Endpoint"), endpoint);
  card_line (grid, 2, _ ("Concurrency"), conc);
  card_line (grid, 3, _ ("Request rate"), rate);
  card_line (grid, 4, _ ("Sequence lengths"), io);
  card_line (grid, 5, _ ("Duration"), dur);
  {
    double summary = iv_run_summary_requests (r);
    g_autofree char *of
        = !r->has_records ? (isnan (summary) ? g_strdup (_ ("summary only"))
                                             : g_strdup_printf (_ ("%.0f (summary only)"), summary))
          : isnan (summary) || (double) iv_run_good_records (r) >= summary
              ? g_strdup (reqs)
              : g_strdup_printf (_ ("%s — records of %" G_GSIZE_FORMAT " of the %.0f requests in "
                                    "AIPerf's summary"),
                                 reqs, iv_run_good_records (r), summary);
    card_line (grid, 6, _ ("Requests"), of);
  }
  card_line (grid, 7, _ ("Errors"), errors->str);
  {
    IvGpuCountSource from;
    guint n = iv_run_gpu_count (r, &from);
    g_autofree char *gpu_note = iv_run_gpu_note (r);
    static const char *const sources[]
        = { N_ ("by UUID in the telemetry"), N_ ("in the summary's telemetry"), N_ ("as set"),
            N_ ("assumed: no telemetry") };
    g_autofree char *gpus = g_strdup_printf (
        "%u × %s (%s)%s%s", n, r->gpus->len ? ((IvGpu *) r->gpus->pdata[0])->model : _ ("GPU"),
        _ (sources[from]), gpu_note ? " — " : "", gpu_note ? gpu_note : "");
    card_line (grid, 8, _ ("GPUs"), gpus);
  }
  card_line (grid, 9, _ ("Folder"), r->path);
  if (choice->hardware)
    {
      IvRunBound b;
      g_autofree char *bound_title = g_strdup_printf (_ ("Bound on %s"), choice->hardware->name);
      iv_run_bound_compute (r, choice->model, choice->hardware, choice->tp, &b);
      if (b.ok)
        {
          g_autofree char *ttft = iv_units_format_seconds (b.predicted[IV_BOUND_TTFT]);
          g_autofree char *itl = iv_units_format_seconds (b.predicted[IV_BOUND_ITL]);
          g_autofree char *lat = iv_units_format_seconds (b.predicted[IV_BOUND_LATENCY]);
          /* "10.3k tokens/s", not "1.034e+04 tokens/s" */
          g_autofree char *tps
              = iv_units_format_amount (b.predicted[IV_BOUND_THROUGHPUT], _ ("tokens/s"));
          g_autofree char *bound = g_strdup_printf (_ ("%s, TP %" G_GINT64_FORMAT
                                                       ", concurrency %g, ISL %.0f, OSL %.0f: "
                                                       "TTFT ≥ %s, ITL ≥ %s, latency ≥ %s, ≤ %s"),
                                                    b.model->name, b.pred.tp, b.pred.concurrency,
                                                    b.pred.isl, b.pred.osl, ttft, itl, lat, tps);
          g_autofree char *reached = g_strdup_printf (
              _ ("TTFT %.0f %%, ITL %.0f %%, latency %.0f %%, throughput %.0f %% "
                 "of the bound"),
              100 * b.efficiency[IV_BOUND_TTFT], 100 * b.efficiency[IV_BOUND_ITL],
              100 * b.efficiency[IV_BOUND_LATENCY], 100 * b.efficiency[IV_BOUND_THROUGHPUT]);
          card_line (grid, 10, bound_title, bound);
          card_line (grid, 11, _ ("Reached"), reached);
          card_line (grid, 12, _ ("Caveat"), IV_BOUND_CAVEAT);
          {
            /* which stage bounds it: the same step in the Model workspace */
            GtkWidget *open
                = gtk_button_new_with_mnemonic (_ ("Open This Step in the _Model Workspace"));
            gtk_widget_set_halign (open, GTK_ALIGN_START);
            gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "win.model-from-run");
            gtk_actionable_set_action_target (GTK_ACTIONABLE (open), "(ssxxx)", b.model->name,
                                              choice->hardware->name, b.pred.tp,
                                              (gint64) llround (b.pred.concurrency),
                                              (gint64) llround (b.pred.isl + b.pred.osl / 2));
            gtk_grid_attach (grid, open, 1, 13, 1, 1);
          }
        }
      else
        card_line (grid, 10, bound_title, b.error);
      iv_run_bound_clear (&b);
    }
}

char *
iv_run_card_to_text (IvRunCard *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  g_return_val_if_fail (IV_IS_RUN_CARD (self), NULL);
  for (int row = 0;; row++)
    {
      GtkWidget *k = gtk_grid_get_child_at (self->grid, 0, row);
      GtkWidget *v = gtk_grid_get_child_at (self->grid, 1, row);
      if (!k && !v)
        break;
      if (GTK_IS_LABEL (k) && GTK_IS_LABEL (v))
        g_string_append_printf (text, "%s: %s\n", gtk_label_get_text (GTK_LABEL (k)),
                                gtk_label_get_text (GTK_LABEL (v)));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
iv_run_card_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_RUN_CARD);
  G_OBJECT_CLASS (iv_run_card_parent_class)->dispose (object);
}

static void
iv_run_card_class_init (IvRunCardClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_run_card_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/inferview/Inferview/ui/iv-run-card.ui");
  gtk_widget_class_bind_template_child (widget_class, IvRunCard, grid);
}

static void
iv_run_card_init (IvRunCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
iv_run_card_new (void)
{
  return g_object_new (IV_TYPE_RUN_CARD, NULL);
}
