/* iv-units.c: auto-scaled unit formatting shared by the window, the figures and the
 * command line, so a duration reads the same everywhere. */
#include "iv-units.h"

#include <math.h>
#include <string.h>

/* Three significant digits is what a reader compares at a glance; trailing zeros are
 * kept out so "1.5 ms" does not become "1.50 ms". */
static char *
format_scaled (double value, const char *unit)
{
  double mag = fabs (value);
  int decimals = mag >= 100.0 ? 0 : mag >= 10.0 ? 1 : 2;
  g_autofree char *num = g_strdup_printf ("%.*f", decimals, value);

  if (decimals > 0)
    {
      char *end = num + strlen (num) - 1;
      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  if (g_str_equal (num, "-0"))
    num[0] = '0', num[1] = '\0';
  return g_strdup_printf ("%s %s", num, unit);
}

char *
iv_units_format_seconds (double seconds)
{
  static const struct
  {
    double scale;
    const char *unit;
  } steps[] = {
    { 1.0, "s" },
    { 1e-3, "ms" },
    { 1e-6, "µs" },
    { 1e-9, "ns" },
  };
  double mag = fabs (seconds);

  if (!isfinite (seconds))
    return g_strdup ("–");
  if (mag == 0.0)
    return g_strdup ("0 s");
  if (mag >= 60.0 && mag < 3600.0)
    return format_scaled (seconds / 60.0, "min");
  if (mag >= 3600.0)
    return format_scaled (seconds / 3600.0, "h");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      /* Round first so 999.999 µs becomes "1 ms", not "1000 µs". */
      double scaled = seconds / steps[i].scale;
      if (fabs (scaled) >= 0.9995 || i == G_N_ELEMENTS (steps) - 1)
        return format_scaled (scaled, steps[i].unit);
    }
  g_assert_not_reached ();
}

char *
iv_units_format_bytes (double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  double value = bytes;
  guint i = 0;

  if (!isfinite (bytes))
    return g_strdup ("–");
  while (fabs (value) >= 1023.5 && i < G_N_ELEMENTS (units) - 1)
    {
      value /= 1024.0;
      i++;
    }
  if (i == 0)
    return g_strdup_printf ("%.0f B", value);
  return format_scaled (value, units[i]);
}

char *
iv_units_format_count (double count)
{
  /* P and E too: past T a count would read "2500000T" */
  static const char *suffix[] = { "", "k", "M", "G", "T", "P", "E" };
  double value = count;
  guint i = 0;

  if (!isfinite (count))
    return g_strdup ("–");
  while (fabs (value) >= 999.5 && i < G_N_ELEMENTS (suffix) - 1)
    {
      value /= 1000.0;
      i++;
    }
  if (i == 0 && value == floor (value))
    return g_strdup_printf ("%.0f", value);
  {
    g_autofree char *s = format_scaled (value, suffix[i]);
    /* format_scaled puts a space before the unit; "12.3 k" reads worse than "12.3k". */
    g_strchomp (s);
    if (i > 0)
      {
        char *space = strrchr (s, ' ');
        memmove (space, space + 1, strlen (space));
      }
    return g_steal_pointer (&s);
  }
}

gboolean
iv_units_parse (const char *text, double *value)
{
  static const struct
  {
    const char *prefix;
    double factor;
  } prefixes[] = {
    { "Ki", 1024.0 },
    { "Mi", 1048576.0 },
    { "Gi", 1073741824.0 },
    { "Ti", 1099511627776.0 },
    { "Pi", 1125899906842624.0 },
    { "k", 1e3 },
    { "K", 1e3 },
    { "M", 1e6 },
    { "G", 1e9 },
    { "T", 1e12 },
    { "P", 1e15 },
  };
  static const struct
  {
    const char *unit;
    double factor;
  } times[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
  };
  static const char *const units[] = { "", "B", "B/s", "FLOP/s", "FLOPS", "flops", "FLOP" };
  char *end;
  double v;

  if (!text)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;
  v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v))
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    if (strcmp (end, times[i].unit) == 0)
      {
        *value = v * times[i].factor;
        return TRUE;
      }
  for (guint i = 0; i <= G_N_ELEMENTS (prefixes); i++)
    {
      const char *rest = end;
      double factor = 1;
      if (i < G_N_ELEMENTS (prefixes))
        {
          if (!g_str_has_prefix (end, prefixes[i].prefix))
            continue;
          rest = end + strlen (prefixes[i].prefix);
          factor = prefixes[i].factor;
        }
      for (guint u = 0; u < G_N_ELEMENTS (units); u++)
        if (strcmp (rest, units[u]) == 0)
          {
            *value = v * factor;
            return TRUE;
          }
    }
  return FALSE;
}

/* @v (|v| < 1000, ≠ 0) with three significant digits, trailing zeros dropped. */
static char *
significant (double v)
{
  int decimals = (int) CLAMP (2 - floor (log10 (fabs (v))), 0, 15);
  char *num = g_strdup_printf ("%.*f", decimals, v);

  if (decimals > 0)
    {
      char *end = num + strlen (num) - 1;
      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  return num;
}

/* @small_prefixes: m, µ, n, p for values under 1 (with a unit, or compact). */
static char *
format_si (double value, const char *unit, gboolean small_prefixes)
{
  static const struct
  {
    double scale;
    const char *prefix;
  } steps[] = {
    { 1e18, "E" }, { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" },  { 1e6, "M" },   { 1e3, "k" },
    { 1, "" },     { 1e-3, "m" }, { 1e-6, "µ" }, { 1e-9, "n" }, { 1e-12, "p" },
  };
  const guint unit_step = 6;
  gboolean has_unit = unit && *unit;
  g_autofree char *num = NULL;
  guint i;

  if (!isfinite (value))
    return g_strdup ("–");
  if (value == 0)
    return has_unit ? g_strdup_printf ("0 %s", unit) : g_strdup ("0");
  /* 3 significant digits rounded first, so 999.96 becomes "1k", not "1000". */
  for (i = 0; i < G_N_ELEMENTS (steps) - 1; i++)
    if (fabs (value) / steps[i].scale >= 0.9995 || (!small_prefixes && i == unit_step))
      break;
  num = significant (value / steps[i].scale);
  if (fabs (value / steps[i].scale) >= 999.5 && i > 0)
    num = (g_free (num), significant (value / steps[--i].scale));
  if (g_str_equal (num, "-0"))
    num = (g_free (num), g_strdup ("0"));
  return has_unit ? g_strdup_printf ("%s %s%s", num, steps[i].prefix, unit)
                  : g_strdup_printf ("%s%s", num, steps[i].prefix);
}

/* The factor of a time unit to seconds, or 0 when @unit is none: a duration given in
 * milliseconds is still a duration, and an SI prefix on it would read "3.91 kms". */
static double
time_unit_factor (const char *unit)
{
  static const struct
  {
    const char *unit;
    double factor;
  } times[] = {
    { "s", 1 }, { "ms", 1e-3 }, { "µs", 1e-6 }, { "us", 1e-6 }, { "ns", 1e-9 },
  };

  for (guint i = 0; unit && i < G_N_ELEMENTS (times); i++)
    if (strcmp (unit, times[i].unit) == 0)
      return times[i].factor;
  return 0;
}

char *
iv_units_format_si (double value, const char *unit)
{
  double to_seconds = time_unit_factor (unit);

  if (to_seconds > 0)
    return iv_units_format_seconds (value * to_seconds);
  /* Without a unit a fraction stays a fraction: 0.95, not 950m. */
  return format_si (value, unit, unit && *unit);
}

char *
iv_units_format_amount (double value, const char *unit)
{
  double to_seconds = time_unit_factor (unit);
  g_autofree char *num = NULL;

  if (to_seconds > 0)
    return iv_units_format_seconds (value * to_seconds);
  num = format_si (value, NULL, FALSE);
  if (!isfinite (value) || !unit || !*unit)
    return g_steal_pointer (&num);
  return g_strdup_printf ("%s %s", num, unit);
}

char *
iv_units_format_compact (double value)
{
  if (isfinite (value) && value == rint (value) && fabs (value) < 1e6)
    return g_strdup_printf ("%.0f", value);
  return format_si (value, NULL, fabs (value) < 1e-3);
}
