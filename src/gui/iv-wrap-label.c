/* iv-wrap-label.c: wrapping text laid out once per width. GTK sizes a wrapping text by
 * asking its width, then its height at one width or several, sometimes its width for a
 * height; GtkLabel answers each question with a new layout of the text (a binary search
 * of layouts for the last), which for a sentence that changes at every slider step was
 * most of a step's cost (issue 31). This label keeps its text laid out at the last few
 * widths asked about, which it also draws with, and answers width questions without
 * regard to the height: its widths are those of the text unwrapped (natural) and of a
 * few characters (minimum), which do not depend on how tall it may be. The text is drawn wrapped at
 * word boundaries, at characters when a word is wider than the line, left-aligned, in the widget's
 * font and colour. */
#define G_LOG_DOMAIN "iv-gui"

#include "iv-wrap-label.h"

/* widths kept: a frame asks about one to three */
#define N_SIZES 4
/* the minimum width, in average characters (a longer word wraps at characters) */
#define MIN_CHARS 8

/* The text laid out at one width. */
typedef struct
{
  int width;            /* pixels, -1: unwrapped */
  int text_width;       /* of the lines (pixels) */
  int height, baseline; /* pixels */
  PangoLayout *layout;
} Size;

struct _IvWrapLabel
{
  GtkWidget parent_instance;

  char *text;
  guint serial;   /* the Pango context's serial when the sizes below were made */
  int char_width; /* an average character's width (pixels), -1 until measured */
  Size sizes[N_SIZES];
  guint n_sizes, next_size;
  guint layouts;
};

G_DEFINE_FINAL_TYPE (IvWrapLabel, iv_wrap_label, GTK_TYPE_WIDGET)

/* Forgets every size: the text or the font changed. */
static void
forget_sizes (IvWrapLabel *self)
{
  for (guint i = 0; i < self->n_sizes; i++)
    g_clear_object (&self->sizes[i].layout);
  self->n_sizes = self->next_size = 0;
  self->char_width = -1;
}

/* The text laid out at @width pixels (-1: unwrapped): kept from an earlier question if
 * neither the text nor the font (the widget's Pango context, which follows its CSS) has
 * changed since, laid out now otherwise, in the place of the oldest width kept. */
static const Size *
size_at (IvWrapLabel *self, int width)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoRectangle logical;
  Size *s;

  if (pango_context_get_serial (context) != self->serial)
    {
      forget_sizes (self);
      self->serial = pango_context_get_serial (context);
    }
  for (guint i = 0; i < self->n_sizes; i++)
    if (self->sizes[i].width == width)
      return &self->sizes[i];
  s = &self->sizes[self->next_size];
  g_clear_object (&s->layout);
  self->next_size = (self->next_size + 1) % N_SIZES;
  self->n_sizes = MAX (self->n_sizes, self->next_size == 0 ? N_SIZES : self->next_size);
  s->layout = pango_layout_new (context);
  pango_layout_set_wrap (s->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width (s->layout, width < 0 ? -1 : width * PANGO_SCALE);
  pango_layout_set_text (s->layout, self->text ? self->text : "", -1);
  pango_layout_get_extents (s->layout, NULL, &logical);
  self->layouts++;
  s->width = width;
  s->text_width = PANGO_PIXELS_CEIL (logical.width);
  s->height = PANGO_PIXELS_CEIL (logical.height);
  s->baseline = PANGO_PIXELS_CEIL (pango_layout_get_baseline (s->layout));
  return s;
}

static void
iv_wrap_label_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                       int *natural, int *minimum_baseline, int *natural_baseline)
{
  IvWrapLabel *self = IV_WRAP_LABEL (widget);

  if (!self->text || !*self->text)
    {
      *minimum = *natural = 0;
      return;
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* whatever the height: the text unwrapped, and a few characters */
      const Size *unwrapped = size_at (self, -1);
      if (self->char_width < 0)
        {
          PangoFontMetrics *metrics
              = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);
          self->char_width
              = PANGO_PIXELS_CEIL (pango_font_metrics_get_approximate_char_width (metrics));
          pango_font_metrics_unref (metrics);
        }
      *natural = unwrapped->text_width;
      *minimum = MIN (*natural, self->char_width * MIN_CHARS);
    }
  else
    {
      const Size *s = size_at (self, for_size);
      *minimum = *natural = s->height;
      *minimum_baseline = *natural_baseline = s->baseline;
    }
}

static GtkSizeRequestMode
iv_wrap_label_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
iv_wrap_label_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  IvWrapLabel *self = IV_WRAP_LABEL (widget);
  GdkRGBA color;

  if (!self->text || !*self->text)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* at the width it was measured at for the allocation: no new layout */
  gtk_snapshot_append_layout (snapshot, size_at (self, gtk_widget_get_width (widget))->layout,
                              &color);
}

static void
iv_wrap_label_finalize (GObject *object)
{
  IvWrapLabel *self = IV_WRAP_LABEL (object);

  g_free (self->text);
  forget_sizes (self);
  G_OBJECT_CLASS (iv_wrap_label_parent_class)->finalize (object);
}

static void
iv_wrap_label_class_init (IvWrapLabelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = iv_wrap_label_finalize;
  widget_class->measure = iv_wrap_label_measure;
  widget_class->get_request_mode = iv_wrap_label_get_request_mode;
  widget_class->snapshot = iv_wrap_label_snapshot;
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
iv_wrap_label_init (IvWrapLabel *self)
{
  self->char_width = -1;
}

GtkWidget *
iv_wrap_label_new (const char *text)
{
  IvWrapLabel *self = g_object_new (IV_TYPE_WRAP_LABEL, NULL);

  iv_wrap_label_set_text (self, text);
  return GTK_WIDGET (self);
}

void
iv_wrap_label_set_text (IvWrapLabel *self, const char *text)
{
  g_return_if_fail (IV_IS_WRAP_LABEL (self));
  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  forget_sizes (self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text ? text : "", -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

const char *
iv_wrap_label_get_text (IvWrapLabel *self)
{
  g_return_val_if_fail (IV_IS_WRAP_LABEL (self), NULL);
  return self->text;
}

guint
iv_wrap_label_get_layouts (IvWrapLabel *self)
{
  g_return_val_if_fail (IV_IS_WRAP_LABEL (self), 0);
  return self->layouts;
}
