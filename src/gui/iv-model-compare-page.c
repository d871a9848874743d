/* iv-model-compare-page.c: the Compare page. Every saved configuration is evaluated again
 * (a preset may have changed since) into the comparison table; those that no longer
 * resolve or evaluate are named under the saved list. Only when the page is shown or
 * asked for: it evaluates every saved configuration, and thousands of them cost
 * seconds. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-model-compare-page.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

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

/* iv_render_compare () draws 13 px text times the font scale, times MIN (0.9, row / 22)
 * where a row gets (height − 2 pad − 60) / (rows + 1), at most 26 px: the page asks for
 * full-height rows and a font scale that makes the table's text the body text's size
 * (it was 6–7 px with thirty rows at 700 px). */
#define COMPARE_ROW 26.0
#define COMPARE_TEXT (13.0 * 0.9)

/* The body text's size in px, from the widget's font (11 pt Cantarell: 14.7 px). */
static double
body_px (GtkWidget *widget)
{
  const PangoFontDescription *font
      = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  double size = font ? pango_font_description_get_size (font) / (double) PANGO_SCALE : 0;

  if (!(size > 0))
    return 14.7;
  return font && pango_font_description_get_size_is_absolute (font) ? size : size * 96 / 72;
}

/* The font scale the table is drawn with. */
static double
compare_font_scale (IvModelComparePage *self)
{
  return MAX (1.0, body_px (GTK_WIDGET (self)) / COMPARE_TEXT);
}

/* The table's size for its rows and columns at that text size: taller or wider than the
 * page, it scrolls. */
static void
size_area (IvModelComparePage *self)
{
  double fs = compare_font_scale (self);
  guint rows = self->compare ? self->compare->rows->len : 0;
  guint cols = self->compare ? self->compare->n : 0;

  if (!rows)
    {
      gtk_widget_set_size_request (self->compare_area, -1, -1);
      return;
    }
  gtk_widget_set_size_request (self->compare_area, (int) ceil ((200 + 150 * cols) * fs),
                               (int) ceil ((rows + 1) * COMPARE_ROW + 2 * IV_FIGURE_PAD + 60));
}

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
  size_area (self);
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
          compare_font_scale (self) };
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

double
iv_model_compare_page_get_text_px (IvModelComparePage *self)
{
  int height;

  g_return_val_if_fail (IV_IS_MODEL_COMPARE_PAGE (self), 0);
  if (!self->compare || !self->compare->rows->len)
    return 0;
  height = MAX (gtk_widget_get_height (self->compare_area),
                (int) ((self->compare->rows->len + 1) * COMPARE_ROW + 2 * IV_FIGURE_PAD + 60));
  return 13 * compare_font_scale (self)
         * MIN (0.9,
                CLAMP ((height - 2 * IV_FIGURE_PAD - 60) / (self->compare->rows->len + 1), 12, 26)
                    / 22);
}

double
iv_model_compare_page_get_body_px (IvModelComparePage *self)
{
  g_return_val_if_fail (IV_IS_MODEL_COMPARE_PAGE (self), 0);
  return body_px (GTK_WIDGET (self));
}
