/* iv-model-result-bar.c: the Model workspace's headline figures above the tabs: the step
 * (what it means in this mode), tokens/s, memory against what each PE or GPU has as a
 * badge in the colour of its verdict, the idle PEs or GPUs; while the settings cannot be
 * evaluated, the last of them dimmed with the reason. The figures flow onto a second line
 * when the pane is narrow (ui/iv-model-result-bar.ui). */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-result-bar.h"

#include <glib/gi18n.h>

#include "iv-units.h"

struct _IvModelResultBar
{
  GtkBox parent_instance;

  GtkLabel *step, *step_caption, *tps, *memory, *memory_caption;
  GtkLabel *idle, *idle_caption, *stale;
  GtkFlowBox *figures; /* the four figures, wrapping when the pane is narrow */
  char *memory_tip;    /* the memory caption's tooltip, shown when asked for (on_query_tooltip) */
};

G_DEFINE_FINAL_TYPE (IvModelResultBar, iv_model_result_bar, GTK_TYPE_BOX)

static void
iv_model_result_bar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_MODEL_RESULT_BAR);
  G_OBJECT_CLASS (iv_model_result_bar_parent_class)->dispose (object);
}

static void
iv_model_result_bar_finalize (GObject *object)
{
  g_free (IV_MODEL_RESULT_BAR (object)->memory_tip);
  G_OBJECT_CLASS (iv_model_result_bar_parent_class)->finalize (object);
}

/* The captions' tooltips (the whole caption, which may be ellipsized; the memory's
 * meaning) are made when the pointer asks for them: setting a tooltip's text makes GTK
 * look for the pointer and the monitor's work area on the X server at once, which at
 * every slider step cost as much as updating the Details page (issue 31). */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  IvModelResultBar *self)
{
  const char *text = widget == GTK_WIDGET (self->memory_caption)
                         ? self->memory_tip
                         : gtk_label_get_text (GTK_LABEL (widget));

  if (!text || !*text)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
iv_model_result_bar_class_init (IvModelResultBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iv_model_result_bar_dispose;
  G_OBJECT_CLASS (klass)->finalize = iv_model_result_bar_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-result-bar.ui");
#define CHILD(name, id)                                                                            \
  gtk_widget_class_bind_template_child_full (widget_class, id, FALSE,                              \
                                             G_STRUCT_OFFSET (IvModelResultBar, name))
  CHILD (step, "result_step");
  CHILD (step_caption, "result_step_caption");
  CHILD (tps, "result_tps");
  CHILD (memory, "result_memory");
  CHILD (memory_caption, "result_memory_caption");
  CHILD (idle, "result_idle");
  CHILD (idle_caption, "result_idle_caption");
  CHILD (stale, "result_stale");
  CHILD (figures, "figures");
#undef CHILD
}

static void
iv_model_result_bar_init (IvModelResultBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* figures to read, not items to pick: the keyboard passes them by */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->figures)); c;
       c = gtk_widget_get_next_sibling (c))
    gtk_widget_set_focusable (c, FALSE);
  for (int i = 0; i < 2; i++)
    {
      GtkWidget *caption = GTK_WIDGET (i == 0 ? self->step_caption : self->memory_caption);
      gtk_widget_set_has_tooltip (caption, TRUE);
      g_signal_connect (caption, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
    }
}

/* The step (what it means in this mode), tokens/s, memory per PE against
 * its capacity as a badge, the idle PEs. */
void
iv_model_result_bar_show (IvModelResultBar *self, const IvResult *r)
{
  double used = r->weights_bytes_per_pe + r->kv_bytes_per_pe + r->act_bytes_per_pe;
  g_autofree char *step = iv_units_format_seconds (r->step_s);
  g_autofree char *tps = iv_units_format_si (r->tokens_per_s, NULL);
  /* a GPU server's in the datasheet's decimal units; against what the runtime reserve
   * leaves (§5), the same figure the fit is decided on */
  g_autofree char *mem = iv_hardware_format_bytes (r->hw, used),
                  *cap = iv_hardware_format_bytes (r->hw, r->usable_bytes_per_pe);
  gboolean gpu = iv_hardware_is_gpu_server (r->hw);
  g_autofree char *memory = NULL, *memory_caption = NULL, *step_caption = NULL, *idle = NULL,
                  *idle_caption = NULL;
  gint64 all = r->hw->X * r->hw->Y * r->hw->n_pe;

  if (r->config.mode == IV_MODE_PREFILL)
    step_caption = g_strdup_printf (
        _ ("to first token · %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " tokens"), r->config.B,
        r->config.T);
  else
    step_caption = g_strdup_printf (
        _ ("per token · %" G_GINT64_FORMAT " seq. at %" G_GINT64_FORMAT), r->config.B, r->config.P);
  memory = r->fits ? g_strdup_printf (_ ("fits · %.0f %%"),
                                      100 * used / MAX (r->usable_bytes_per_pe, 1))
                   : g_strdup_printf (_ ("does not fit · %.0f %%"),
                                      100 * used / MAX (r->usable_bytes_per_pe, 1));
  memory_caption = g_strdup_printf (gpu ? _ ("%s of %s per GPU") : _ ("%s of %s per PE"), mem, cap);
  g_free (self->memory_tip);
  self->memory_tip
      = g_strdup_printf (gpu ? _ ("%s of the %s each GPU has once %.0f %% is kept for the runtime")
                             : _ ("%s of the %s each PE has once %.0f %% is kept for the runtime"),
                         mem, cap, 100 * r->config.reserve);
  idle = g_strdup_printf ("%" G_GINT64_FORMAT, r->idle_pes);
  idle_caption = g_strdup_printf (
      gpu ? _ ("of %" G_GINT64_FORMAT " GPUs idle") : _ ("of %" G_GINT64_FORMAT " PEs idle"), all);
  gtk_label_set_text (self->step, step);
  gtk_label_set_text (self->step_caption, step_caption);
  gtk_label_set_text (self->tps, tps);
  gtk_label_set_text (self->memory, memory);
  gtk_label_set_text (self->memory_caption, memory_caption);
  gtk_widget_remove_css_class (GTK_WIDGET (self->memory), r->fits ? "error" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->memory), r->fits ? "success" : "error");
  gtk_label_set_text (self->idle, idle);
  gtk_label_set_text (self->idle_caption, idle_caption);
}

/* While the settings cannot be evaluated, the last answer stays, dimmed, with the reason
 * beside it: never a stale number that looks current. */
void
iv_model_result_bar_set_stale (IvModelResultBar *self, gboolean has_result, const char *error)
{
  gboolean stale = error != NULL;
  g_autofree char *why = stale ? g_strdup_printf (_ ("Not updated: %s"), error) : NULL;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); c;
       c = gtk_widget_get_next_sibling (c))
    if (c != GTK_WIDGET (self->stale))
      {
        if (stale)
          gtk_widget_add_css_class (c, "iv-stale");
        else
          gtk_widget_remove_css_class (c, "iv-stale");
      }
  gtk_label_set_text (self->stale, why ? why : "");
  /* a tooltip set again costs X requests (on_query_tooltip): only when it changes */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->stale)), why) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->stale), why);
  gtk_widget_set_visible (GTK_WIDGET (self->stale), stale);
  gtk_widget_set_visible (GTK_WIDGET (self), has_result || stale);
}
