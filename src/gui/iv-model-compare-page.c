/* iv-model-compare-page.c: the Compare page. Every saved configuration is evaluated again
 * (a preset may have changed since) into the comparison table; those that no longer
 * resolve or evaluate are named under the saved list. Only when the page is shown or
 * asked for: it evaluates every saved configuration, and thousands of them cost
 * seconds. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-compare-page.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "iv-render-model.h"
#include "iv-text.h"
#include "iv-theme.h"

struct _IvModelComparePage
{
  GtkBox parent_instance;

  IvModelSavedList *saved; /* not owned */
  GPtrArray *imported;     /* IvModel *, not owned */
  GArray *results;         /* IvResult, one per saved configuration that evaluates */
  IvCompareTable *compare;
  gboolean stale; /* made again when next shown or asked for */
  IvFigure figure;

  GtkWidget *compare_area;
};

G_DEFINE_FINAL_TYPE (IvModelComparePage, iv_model_compare_page, GTK_TYPE_BOX)

static void
refresh (IvModelComparePage *self)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) results = g_ptr_array_new ();
  g_autoptr (GString) problems = g_string_new (NULL);
  GPtrArray *saved = iv_model_saved_list_get (self->saved);

  self->stale = FALSE;
  g_array_set_size (self->results, saved->len);
  for (guint i = 0; i < saved->len; i++)
    {
      const IvSaved *sv = saved->pdata[i];
      IvResult *r = &g_array_index (self->results, IvResult, i);
      const IvModel *model;
      const IvHardware *hw;
      g_autoptr (GError) error = NULL;
      if (!iv_saved_resolve (sv, self->imported, &model, &hw, &error))
        {
          g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "", error->message);
          continue;
        }
      if (!iv_model_evaluate (model, hw, &sv->config, r))
        {
          g_string_append_printf (problems, "%s%s: %s", problems->len ? "\n" : "", sv->name,
                                  r->error);
          continue;
        }
      g_ptr_array_add (names, sv->name);
      g_ptr_array_add (results, r);
    }
  g_clear_pointer (&self->compare, iv_compare_free);
  self->compare = iv_compare_build ((const IvResult *const *) results->pdata,
                                    (const char *const *) names->pdata, results->len);
  self->figure.data = self->compare;
  if (problems->len)
    iv_model_saved_list_show_error (self->saved, problems->str);
  gtk_widget_queue_draw (self->compare_area);
}

/* Made again if stale; the list read first if it is not yet. */
static gboolean
ensure (IvModelComparePage *self)
{
  if (!self->saved)
    return FALSE;
  iv_model_saved_list_get (self->saved);
  if (self->stale)
    refresh (self);
  return self->compare && self->compare->n > 0;
}

static void
draw_compare (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IvModelComparePage *self = IV_MODEL_COMPARE_PAGE (user_data);
  IvRenderOptions options
      = { adw_style_manager_get_dark (adw_style_manager_get_default ()) ? IV_THEME_DARK
                                                                        : IV_THEME_LIGHT,
          1.0 };
  IvText text;

  if (self->compare && self->compare->n > 0)
    {
      iv_render_compare (cr, self->compare, &options, width, height, NULL);
      return;
    }
  iv_text_init (&text, cr, 14);
  iv_text_show (&text, cr, _ ("Save configurations to compare them here."), width / 2.0,
                height / 2.0, 0.5, 0.5, 1.0, FALSE, width - 40,
                &iv_theme_get_colors (options.theme)->foreground_dim);
  iv_text_clear (&text);
}

static void
on_copy_csv (IvModelComparePage *self)
{
  g_autofree char *csv = iv_model_compare_page_get_csv (self);
  if (csv)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

static void
iv_model_compare_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), IV_TYPE_MODEL_COMPARE_PAGE);
  G_OBJECT_CLASS (iv_model_compare_page_parent_class)->dispose (object);
}

static void
iv_model_compare_page_finalize (GObject *object)
{
  IvModelComparePage *self = IV_MODEL_COMPARE_PAGE (object);

  g_array_unref (self->results);
  g_clear_pointer (&self->compare, iv_compare_free);
  G_OBJECT_CLASS (iv_model_compare_page_parent_class)->finalize (object);
}

static void
iv_model_compare_page_class_init (IvModelComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iv_model_compare_page_dispose;
  object_class->finalize = iv_model_compare_page_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/inferview/Inferview/ui/iv-model-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, IvModelComparePage, compare_area);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_csv);
}

static void
iv_model_compare_page_init (IvModelComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->results = g_array_new (FALSE, TRUE, sizeof (IvResult));
  self->figure = (IvFigure){ iv_render_compare, NULL, "compare", self };
  self->stale = TRUE;
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->compare_area), draw_compare, self, NULL);
}

void
iv_model_compare_page_set_sources (IvModelComparePage *self, IvModelSavedList *saved,
                                   GPtrArray *imported)
{
  g_return_if_fail (IV_IS_MODEL_COMPARE_PAGE (self));
  self->saved = saved;
  self->imported = imported;
}

void
iv_model_compare_page_invalidate (IvModelComparePage *self, gboolean shown)
{
  g_return_if_fail (IV_IS_MODEL_COMPARE_PAGE (self));
  self->stale = TRUE;
  if (shown && self->saved && iv_model_saved_list_is_loaded (self->saved))
    refresh (self);
}

void
iv_model_compare_page_show (IvModelComparePage *self)
{
  g_return_if_fail (IV_IS_MODEL_COMPARE_PAGE (self));
  if (self->stale && self->saved && iv_model_saved_list_is_loaded (self->saved))
    refresh (self);
  gtk_widget_queue_draw (self->compare_area);
}

const IvFigure *
iv_model_compare_page_get_figure (IvModelComparePage *self)
{
  g_return_val_if_fail (IV_IS_MODEL_COMPARE_PAGE (self), NULL);
  return ensure (self) ? &self->figure : NULL;
}

char *
iv_model_compare_page_get_csv (IvModelComparePage *self)
{
  g_return_val_if_fail (IV_IS_MODEL_COMPARE_PAGE (self), NULL);
  return ensure (self) ? iv_compare_to_csv (self->compare) : NULL;
}
