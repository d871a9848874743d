/* iv-scale.h: axis scales (linear, log10, log2, time), "nice" ticks and their labels
 * with auto-scaled units. Pure math, no drawing. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  IV_SCALE_LINEAR,
  IV_SCALE_LOG10,
  IV_SCALE_LOG2,
  IV_SCALE_TIME, /* linear, labelled as time: relative to an origin or as a clock */
} IvScaleKind;

typedef enum
{
  IV_UNIT_NONE,    /* plain numbers */
  IV_UNIT_SECONDS, /* s, ms, µs, ns (min, h for large values on log axes) */
  IV_UNIT_BYTES,   /* B, KiB, MiB, GiB, TiB */
  IV_UNIT_COUNT,   /* k, M, G, T */
  IV_UNIT_PERCENT, /* values in percent */
} IvUnitKind;

/* How data values map to a base unit: value × to_base is in seconds or bytes (so data
 * in milliseconds has to_base = 1e-3). @suffix follows COUNT labels ("tokens/s"). */
typedef struct
{
  IvUnitKind kind;
  double to_base;
  const char *suffix;
} IvUnit;

#define IV_UNIT_PLAIN ((IvUnit){ IV_UNIT_NONE, 1.0, NULL })

typedef struct
{
  double value; /* in data units */
  char *label;  /* NULL for minor ticks */
  gboolean major;
} IvTick;

typedef struct
{
  IvTick *ticks;
  guint n_ticks;
  char *unit_label; /* the unit every label shares ("ms", "MiB", "k"), or NULL */
  double step;      /* major step in data units (linear); 0 on log axes */
} IvTicks;

typedef struct
{
  IvScaleKind kind;
  IvUnit unit;
  gboolean clock; /* time: absolute epoch labels (data are epoch seconds × 1/to_base) */
  double origin;  /* time: labels are value − origin */
} IvScaleSpec;

/* Ticks for [lo, hi] with about @target major ticks (at least 2 when the range allows). */
IvTicks *iv_ticks_compute (const IvScaleSpec *spec, double lo, double hi, guint target);
void iv_ticks_free (IvTicks *ticks);

/* The 1-2-5 step nearest to @raw (raw > 0). */
double iv_nice_step (double raw);
/* Expands [lo, hi] by a relative margin; degenerate and empty ranges become usable. */
void iv_range_pad (IvScaleKind kind, double *lo, double *hi, double margin);
/* Forward and inverse transforms to [0, 1]. */
double iv_scale_normalize (IvScaleKind kind, double lo, double hi, double value);
double iv_scale_denormalize (IvScaleKind kind, double lo, double hi, double t);
/* One value with its own unit, as tooltips show it: "12.5 ms", "3.2 GiB". */
char *iv_unit_format_value (const IvUnit *unit, double value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IvTicks, iv_ticks_free)

/* @value as a number in the display unit an axis up to @largest uses, without the unit,
 * to @digits significant digits: 1234 tokens/s with a largest of 4000 → "1.23" (the axis
 * says "k tokens/s"). What a heat map's cells show beside a colour bar that names the
 * unit once. */
char *iv_unit_format_bare (const IvUnit *unit, double value, double largest, int digits);

G_END_DECLS
