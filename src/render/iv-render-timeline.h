/* iv-render-timeline.h: a trace's timeline for a time range — ruler, process headers,
 * tracks with their nested rows, slices coloured stably by name (or category) with their
 * names inside when they fit, runs narrower than a pixel merged, instants as markers. The
 * same renderer draws the Traces workspace and `inferview trace FILE -o FIGURE`. */
#pragma once

#include "iv-render.h"
#include "iv-theme.h"
#include "iv-timeline-cache.h"
#include "iv-trace-query.h"

G_BEGIN_DECLS

typedef struct
{
  const IvTrace *trace;
  gint64 t0_ns, t1_ns; /* the visible range; t1 ≤ t0 means the whole trace */
  gboolean color_by_category;
  double scroll_y;                 /* pixels of rows scrolled out above the ruler */
  gsize selected;                  /* a slice outlined, or G_MAXSIZE */
  GArray *matches;                 /* gsize slices found by a search, in time order, or NULL */
  gint64 area_t0_ns, area_t1_ns;   /* an area selection, shaded; none unless t1 > t0 */
  const GByteArray *collapsed;     /* per process: non-zero hides its tracks; NULL: none */
  gboolean all_flows;              /* every flow, not only the selection's */
  const GByteArray *hidden;        /* per process: non-zero leaves it out entirely; NULL: none */
  const GByteArray *hidden_tracks; /* per track: the same for one track (a process none of
                                    * whose tracks is left has no header); NULL: none */
  gboolean note_cut;               /* an export: say at the bottom what did not fit */
  const GArray *linked;            /* gsize slices that are one with the hovered or selected
                                    * one (a collective on every rank): outlined; or NULL */
  const char *name;                /* what the title calls the trace (a job's folder); NULL:
                                    * its file's name */
  IvTimelineCache *cache;          /* a view's, kept between its frames (the same pixels,
                                    * less work); NULL: none (exports) */
} IvTimelineFigure;

/* Where the timeline puts things, for hit testing and tests. */
typedef struct
{
  double plot_x, plot_w; /* the time axis spans these pixels */
  double ruler_h;
  double row_h;
  gint64 t0_ns, t1_ns; /* the range actually drawn */
  GArray *row_y;       /* double per trace row: top of the row, or -1 when off the figure */
  GArray *series_y;    /* double per counter series: top of its band, or -1 */
  GArray *header_y;    /* double per process: top of its header, or -1 */
  double series_h;
  double content_h;                /* the height that shows every row (unscrolled) */
  guint cut_processes, cut_tracks; /* below the figure's bottom, in part or whole */
} IvTimelineLayout;

void iv_timeline_layout (const IvTimelineFigure *figure, double width, double height,
                         IvTimelineLayout *layout);
void iv_timeline_layout_clear (IvTimelineLayout *layout);
/* The height at @width that shows every process and row of @figure, unscrolled. */
double iv_timeline_content_height (const IvTimelineFigure *figure, double width);
double iv_timeline_x (const IvTimelineLayout *layout, gint64 t_ns);
/* The slice under (@x, @y), or G_MAXSIZE; a slice thinner than a pixel is hit within
 * half a pixel of it. */
gsize iv_timeline_slice_at (const IvTimelineFigure *figure, const IvTimelineLayout *layout,
                            double x, double y);
/* The counter series whose band is under (@x, @y), or G_MAXUINT; *@value its value as
 * drawn in that pixel's column (the level there, or the highest sample in it). */
guint iv_timeline_counter_at (const IvTimelineFigure *figure, const IvTimelineLayout *layout,
                              double x, double y, double *value);
/* The process whose header is under @y, or G_MAXUINT. */
guint iv_timeline_header_at (const IvTimelineLayout *layout, double y);
/* The fill of a slice (by its name, or its category). */
IvColor iv_timeline_slice_color (const IvTimelineFigure *figure, gsize slice, IvTheme theme);
gboolean iv_render_timeline (cairo_t *cr, gconstpointer figure, const IvRenderOptions *options,
                             double width, double height, GError **error);

G_END_DECLS
