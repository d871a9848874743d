/* iv-scale.c: tick positions a reader can add up at a glance (1-2-5 steps, decades),
 * labelled in one shared, auto-scaled unit on linear axes ("0 0.5 1 1.5" with "ms" in
 * the axis title) and each with its own unit on log axes ("1 µs 10 µs 100 µs"), where a
 * single unit cannot span the range. */
#define G_LOG_DOMAIN "iv-render"

#include "iv-scale.h"

#include <math.h>
#include <string.h>

#include "iv-units.h"

double
iv_nice_step (double raw)
{
  double exp10, f, nice;

  if (!(raw > 0) || !isfinite (raw))
    return 1.0;
  exp10 = floor (log10 (raw));
  f = raw / pow (10, exp10);
  nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  return nice * pow (10, exp10);
}

static gboolean
is_log (IvScaleKind kind)
{
  return kind == IV_SCALE_LOG10 || kind == IV_SCALE_LOG2;
}

void
iv_range_pad (IvScaleKind kind, double *lo, double *hi, double margin)
{
  if (!isfinite (*lo) || !isfinite (*hi) || *lo > *hi)
    {
      *lo = is_log (kind) ? 1 : 0;
      *hi = is_log (kind) ? 10 : 1;
      return;
    }
  if (is_log (kind))
    {
      double f;
      if (*lo <= 0)
        *lo = *hi > 0 ? *hi / 10 : 1;
      if (*hi <= 0)
        *hi = *lo * 10;
      if (*lo == *hi)
        {
          *lo /= 2;
          *hi *= 2;
          return;
        }
      f = pow (*hi / *lo, margin);
      *lo /= f;
      *hi *= f;
      return;
    }
  if (*lo == *hi)
    {
      double d = *lo == 0 ? 1 : fabs (*lo) * 0.1;
      *lo -= d;
      *hi += d;
      return;
    }
  {
    double d = (*hi - *lo) * margin;
    *lo -= d;
    *hi += d;
  }
}

double
iv_scale_normalize (IvScaleKind kind, double lo, double hi, double value)
{
  if (is_log (kind))
    {
      if (!(value > 0))
        return NAN;
      return (log (value) - log (lo)) / (log (hi) - log (lo));
    }
  return (value - lo) / (hi - lo);
}

double
iv_scale_denormalize (IvScaleKind kind, double lo, double hi, double t)
{
  if (is_log (kind))
    return exp (log (lo) + t * (log (hi) - log (lo)));
  return lo + t * (hi - lo);
}

/* -------- labels -------- */

static const char *const superscripts[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };

static char *
power_of_ten (int exponent)
{
  GString *s = g_string_new ("10");
  char digits[16];

  if (exponent < 0)
    g_string_append (s, "⁻");
  g_snprintf (digits, sizeof digits, "%d", abs (exponent));
  for (char *d = digits; *d; d++)
    g_string_append (s, superscripts[*d - '0']);
  return g_string_free (s, FALSE);
}

/* Fixed decimals; "-0" never appears. */
static char *
format_fixed (double value, int decimals)
{
  char *s = g_strdup_printf ("%.*f", MAX (decimals, 0), value);
  if (s[0] == '-' && strspn (s + 1, "0.") == strlen (s + 1))
    memmove (s, s + 1, strlen (s));
  return s;
}

typedef struct
{
  double factor;     /* display = value × to_base / factor */
  const char *label; /* unit shared by the labels, or NULL */
} DisplayUnit;

static DisplayUnit
pick_display_unit (const IvUnit *unit, double magnitude)
{
  static const DisplayUnit seconds[] = {
    { 3600, "h" }, { 60, "min" }, { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
  };
  static const DisplayUnit bytes[] = {
    { 1099511627776.0, "TiB" },
    { 1073741824.0, "GiB" },
    { 1048576.0, "MiB" },
    { 1024.0, "KiB" },
    { 1, "B" },
  };
  static const DisplayUnit counts[] = {
    /* P and E too: a GPU's FLOP/s on a log axis read "2P", not "2e+03T" */
    { 1e18, "E" }, { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" },
    { 1e6, "M" },  { 1e3, "k" },  { 1, NULL },
  };
  double m = magnitude * unit->to_base;

  switch (unit->kind)
    {
    case IV_UNIT_SECONDS:
      for (guint i = 0; i < G_N_ELEMENTS (seconds); i++)
        /* Minutes and hours only for long spans: "300 s" reads better than "5 min". */
        if (m >= seconds[i].factor * (seconds[i].factor >= 60 ? 10 : 1))
          return seconds[i];
      return seconds[G_N_ELEMENTS (seconds) - 1];
    case IV_UNIT_BYTES:
      for (guint i = 0; i < G_N_ELEMENTS (bytes); i++)
        if (m >= bytes[i].factor)
          return bytes[i];
      return bytes[G_N_ELEMENTS (bytes) - 1];
    case IV_UNIT_COUNT:
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        if (m >= counts[i].factor)
          return counts[i];
      return counts[G_N_ELEMENTS (counts) - 1];
    case IV_UNIT_PERCENT:
      return (DisplayUnit){ 1, "%" };
    case IV_UNIT_NONE:
    default:
      return (DisplayUnit){ 1, NULL };
    }
}

char *
iv_unit_format_value (const IvUnit *unit, double value)
{
  double base = value * unit->to_base;

  if (!isfinite (value))
    return g_strdup ("–");
  switch (unit->kind)
    {
    case IV_UNIT_SECONDS:
      return iv_units_format_seconds (base);
    case IV_UNIT_BYTES:
      return iv_units_format_bytes (base);
    case IV_UNIT_COUNT:
      {
        g_autofree char *n = iv_units_format_count (base);
        return unit->suffix ? g_strdup_printf ("%s %s", n, unit->suffix) : g_steal_pointer (&n);
      }
    case IV_UNIT_PERCENT:
      {
        /* three significant digits in plain decimals: "%.3g" printed 1234 % as "1.23e+03 %"
         * (a share of a bound, a KV-cache rise) and an SI prefix on a percent reads as a
         * unit of its own */
        int digits = base == 0 ? 0 : CLAMP (2 - (int) floor (log10 (fabs (base))), 0, 12);
        if (fabs (base) >= 1e6)
          {
            g_autofree char *n = iv_units_format_compact (base);
            return g_strdup_printf ("%s %%", n);
          }
        return g_strdup_printf ("%.*f %%", digits, base);
      }
    case IV_UNIT_NONE:
    default:
      /* "%.4g" only where it prints no exponent; outside, an SI prefix ("123k") */
      if (base != 0 && (fabs (base) >= 1e4 || fabs (base) < 1e-3))
        return iv_units_format_si (base, NULL);
      return g_strdup_printf ("%.4g", base);
    }
}

char *
iv_unit_format_bare (const IvUnit *unit, double value, double largest, int digits)
{
  DisplayUnit du;
  double v;

  if (!isfinite (value))
    return g_strdup ("–");
  du = pick_display_unit (unit, fabs (largest));
  v = value * unit->to_base / du.factor;
  /* three significant digits, plain decimals (never an exponent: past the largest
   * prefix, the compact form) */
  if (fabs (v) >= 1e4)
    return iv_units_format_compact (v);
  return g_strdup_printf ("%.*f", v == 0 ? 0 : CLAMP (2 - (int) floor (log10 (fabs (v))), 0, 6), v);
}

/* -------- tick sets -------- */

static IvTicks *
ticks_new (void)
{
  IvTicks *t = g_new0 (IvTicks, 1);
  t->ticks = g_new0 (IvTick, 64);
  return t;
}

static void
add_tick (IvTicks *t, double value, char *label, gboolean major)
{
  if (t->n_ticks % 64 == 0 && t->n_ticks > 0)
    t->ticks = g_renew (IvTick, t->ticks, t->n_ticks + 64);
  t->ticks[t->n_ticks++] = (IvTick){ value, label, major };
}

void
iv_ticks_free (IvTicks *ticks)
{
  if (!ticks)
    return;
  for (guint i = 0; i < ticks->n_ticks; i++)
    g_free (ticks->ticks[i].label);
  g_free (ticks->ticks);
  g_free (ticks->unit_label);
  g_free (ticks);
}

static int
decimals_for_step (double step)
{
  return (int) MAX (0, ceil (-log10 (step) - 1e-9));
}

static char *
clock_label (double epoch_s, double step_s)
{
  gint64 whole = (gint64) floor (epoch_s);
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_local (whole);
  g_autofree char *hms = NULL;

  if (!dt)
    return g_strdup ("–");
  hms = g_date_time_format (dt, step_s >= 60 ? "%H:%M" : "%H:%M:%S");
  if (step_s < 1)
    {
      int decimals = MIN (decimals_for_step (step_s), 6);
      g_autofree char *frac = format_fixed (epoch_s - (double) whole, decimals);
      return g_strdup_printf ("%s%s", hms, frac + 1); /* frac is "0.xxx" */
    }
  return g_steal_pointer (&hms);
}

/* Clock steps follow the clock: 1, 2, 5, 10, 15, 30 s; 1 … 30 min; 1 … 12 h. */
static double
clock_step (double raw_s)
{
  static const double steps[] = { 1,   2,   5,    10,   15,   30,    60,    120,   300,
                                  600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
  if (raw_s < 1)
    return iv_nice_step (raw_s);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] >= raw_s * 0.75)
      return steps[i];
  return iv_nice_step (raw_s / 86400) * 86400;
}

static void
linear_ticks (IvTicks *t, const IvScaleSpec *spec, double lo, double hi, guint target)
{
  double origin = spec->kind == IV_SCALE_TIME && !spec->clock ? spec->origin : 0;
  double dlo, dhi, step, first;
  DisplayUnit du;
  int decimals;

  if (spec->kind == IV_SCALE_TIME && spec->clock)
    {
      double to_s = spec->unit.to_base;
      double step_s = clock_step ((hi - lo) * to_s / MAX (target, 1));
      double first_s = ceil (lo * to_s / step_s - 1e-9) * step_s;

      for (double s = first_s; s <= hi * to_s + step_s * 1e-9; s += step_s)
        add_tick (t, s / to_s, clock_label (s, step_s), TRUE);
      t->step = step_s / to_s;
      return;
    }

  du = pick_display_unit (&spec->unit, MAX (fabs (lo - origin), fabs (hi - origin)));
  if (du.label)
    t->unit_label = spec->unit.kind == IV_UNIT_COUNT && spec->unit.suffix
                        ? g_strdup_printf ("%s %s", du.label, spec->unit.suffix)
                        : g_strdup (du.label);
  else if (spec->unit.suffix)
    t->unit_label = g_strdup (spec->unit.suffix);
  {
    /* Numbers far from 1 in their unit (plain numbers, or beyond the largest prefix: a
     * 10³⁰⁰ outlier) share a power of ten instead of long digit runs: labels stay a
     * few characters for any magnitude. */
    double m = MAX (fabs (lo - origin), fabs (hi - origin)) * spec->unit.to_base / du.factor;
    if (isfinite (m) && (m >= 1e6 || (m > 0 && m < 1e-3)))
      {
        int e = (int) floor (log10 (m) / 3) * 3;
        g_autofree char *p = power_of_ten (e);
        g_autofree char *rest = g_steal_pointer (&t->unit_label);
        du.factor *= pow (10, e);
        t->unit_label = rest ? g_strdup_printf ("×%s %s", p, rest) : g_strdup_printf ("×%s", p);
      }
  }

  dlo = (lo - origin) * spec->unit.to_base / du.factor;
  dhi = (hi - origin) * spec->unit.to_base / du.factor;
  step = iv_nice_step ((dhi - dlo) / MAX (target, 1));
  /* a span tiny beside its values (10¹⁷ ± 4000) would need more decimals than a double
   * holds: twelve at most */
  decimals = MIN (decimals_for_step (step), 12);
  first = ceil (dlo / step - 1e-9) * step;
  for (double d = first; d <= dhi + step * 1e-9; d += step)
    {
      double snapped = fabs (d) < step * 1e-9 ? 0 : d;
      double value = snapped * du.factor / spec->unit.to_base + origin;
      add_tick (t, value, format_fixed (snapped, decimals), TRUE);
    }
  t->step = step * du.factor / spec->unit.to_base;
}

/* A label for one value on a log axis, carrying its own unit. */
static char *
log_label (const IvScaleSpec *spec, double value)
{
  double base = value * spec->unit.to_base;

  switch (spec->unit.kind)
    {
    case IV_UNIT_NONE:
      {
        double e = log10 (fabs (base));
        if (spec->kind == IV_SCALE_LOG10 && (base >= 1e4 || base < 1e-3)
            && fabs (e - round (e)) < 1e-9)
          return power_of_ten ((int) round (e));
        if (base >= 1e6 || base < 1e-3)
          return iv_units_format_compact (base);
        return g_strdup_printf ("%.10g", base);
      }
    case IV_UNIT_SECONDS:
    case IV_UNIT_BYTES:
    case IV_UNIT_COUNT:
      {
        /* Each label in the unit that suits it ("100 s", not "1.67 min"). */
        DisplayUnit du = pick_display_unit (&spec->unit, value);
        /* past the largest unit or under the smallest, "%.3g" would print an exponent */
        g_autofree char *shown = iv_units_format_compact (base / du.factor);
        if (!du.label)
          return g_steal_pointer (&shown);
        return g_strdup_printf (spec->unit.kind == IV_UNIT_COUNT ? "%s%s" : "%s %s", shown,
                                du.label);
      }
    default:
      return iv_unit_format_value (&spec->unit, value);
    }
}

static void
log_ticks (IvTicks *t, const IvScaleSpec *spec, double lo, double hi, guint target)
{
  double b = spec->kind == IV_SCALE_LOG2 ? 2 : 10;
  double klo = floor (log (lo) / log (b) + 1e-9);
  double khi = ceil (log (hi) / log (b) - 1e-9);
  double span = khi - klo;
  int stride;

  /* Less than one decade: 1-2-5 values inside the range are more useful than one tick. */
  if (spec->kind == IV_SCALE_LOG10 && hi / lo < 10)
    {
      double step = iv_nice_step ((hi - lo) / MAX (target, 2));
      for (double v = ceil (lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
        if (v > 0)
          add_tick (t, v, log_label (spec, v), TRUE);
      return;
    }
  /* Up to a few decades: label 1, then 5, then 2 of each decade, the densest set that
   * fits the target (but at least two labels); the other mantissas are minor ticks. */
  if (spec->kind == IV_SCALE_LOG10 && span <= 3)
    {
      static const int sets[3][3] = { { 1, 0, 0 }, { 1, 5, 0 }, { 1, 2, 5 } };
      int level = 0;
      guint previous = 0;

      for (int l = 0; l < 3; l++)
        {
          guint count = 0;
          for (double k = klo; k <= khi; k++)
            for (int j = 0; j < 3 && sets[l][j]; j++)
              {
                double v = sets[l][j] * pow (10, k);
                count += v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9);
              }
          /* Denser only while it fits, or while there are not yet two labels. */
          if (l > 0 && count > MAX (target, 2) && previous >= 2)
            break;
          level = l;
          previous = count;
        }
      for (double k = klo; k <= khi; k++)
        for (int mt = 1; mt <= 9; mt++)
          {
            double v = mt * pow (10, k);
            gboolean major = mt == sets[level][0] || mt == sets[level][1] || mt == sets[level][2];
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
              add_tick (t, v, major ? log_label (spec, v) : NULL, major);
          }
      return;
    }
  stride = (int) MAX (1, ceil (span / MAX (target, 1)));
  /* but never a single label: an axis of one tick cannot be read (a roofline's "1T") */
  while (stride > 1)
    {
      int labelled = 0;
      for (double k = klo; k <= khi + 1e-9; k++)
        labelled += fmod (k, stride) == 0 && pow (b, k) >= lo * (1 - 1e-9)
                    && pow (b, k) <= hi * (1 + 1e-9);
      if (labelled >= 2)
        break;
      stride--;
    }
  for (double k = klo; k <= khi + 1e-9; k++)
    {
      double v = pow (b, k);
      gboolean major = fmod (k, stride) == 0;

      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
        add_tick (t, v, major ? log_label (spec, v) : NULL, major);
      /* Minor ticks at 2…9 × 10^k when decades are labelled one by one. */
      if (spec->kind == IV_SCALE_LOG10 && stride == 1)
        for (int m = 2; m <= 9; m++)
          {
            double mv = m * v;
            if (mv > lo && mv < hi)
              add_tick (t, mv, NULL, FALSE);
          }
    }
}

IvTicks *
iv_ticks_compute (const IvScaleSpec *spec, double lo, double hi, guint target)
{
  IvTicks *t = ticks_new ();

  g_return_val_if_fail (spec != NULL, t);
  if (!(isfinite (lo) && isfinite (hi) && hi > lo) || spec->unit.to_base <= 0)
    return t;
  if (is_log (spec->kind))
    {
      if (lo <= 0)
        return t;
      log_ticks (t, spec, lo, hi, target);
      /* Labels carry their units; only a count's suffix is left for the title. */
      if (spec->unit.kind == IV_UNIT_COUNT && spec->unit.suffix)
        t->unit_label = g_strdup (spec->unit.suffix);
      else if (spec->unit.kind == IV_UNIT_PERCENT)
        t->unit_label = g_strdup ("%");
    }
  else
    linear_ticks (t, spec, lo, hi, target);
  return t;
}
