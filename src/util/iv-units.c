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
  static const struct { double scale; const char *unit; } steps[] = {
    { 1.0, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
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
  static const char *suffix[] = { "", "k", "M", "G", "T" };
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
