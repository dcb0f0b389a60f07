/* bench-util: what the benchmark programs share (bench-util.h).
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"

static const char *program = "bench";
static FILE *csv_file;

void
bench_init (const char *name)
{
  program = name;
}

const char *
bench_program (void)
{
  return program;
}

/* ------------------------------------------------------------------ */
/* Errors */

/* "<program>: <kind><message>" on stderr, stdout flushed first. */
static void
report (const char *kind, const char *fmt, va_list ap)
{
  fflush (stdout);
  fprintf (stderr, "%s: %s", program, kind);
  vfprintf (stderr, fmt, ap);
  fprintf (stderr, "\n");
}

void
bench_die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  report ("error: ", fmt, ap);
  va_end (ap);
  exit (1);
}

void
bench_bad_option (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  report ("", fmt, ap);
  va_end (ap);
  exit (2);
}

/* ------------------------------------------------------------------ */
/* Options */

int
bench_parse_int (const char *s, int lo, int hi, const char *what)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi)
    bench_bad_option ("bad %s '%s' (%d ... %d)", what, s, lo, hi);
  return (int) v;
}

gboolean
bench_try_parse_size (const char *s, int max, size2 * r)
{
  char *end;
  long w, h;

  errno = 0;
  w = strtol (s, &end, 10);
  if (errno || end == s || (*end != 'x' && *end != 'X'))
    return FALSE;
  s = end + 1;
  h = strtol (s, &end, 10);
  if (errno || end == s || *end)
    return FALSE;
  if (w < 8 || h < 8 || w > max || h > max)
    return FALSE;
  r->w = (int) w;
  r->h = (int) h;
  return TRUE;
}

size2
bench_parse_size (const char *s, int max)
{
  size2 r = { 0, 0 };

  if (!bench_try_parse_size (s, max, &r))
    bench_bad_option ("bad --size '%s' (WxH, 8 ... %d)", s, max);
  return r;
}

const char *
bench_opt_value (int argc, char **argv, int *i, const char *name)
{
  size_t n = strlen (name);
  const char *a = argv[*i];

  if (strncmp (a, name, n) != 0)
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n] != '\0')
    return NULL;
  if (*i + 1 >= argc)
    bench_bad_option ("%s needs a value", name);
  (*i)++;
  return argv[*i];
}

/* ------------------------------------------------------------------ */
/* Order statistics */

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

void
bench_sort (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
}

double
bench_percentile (const double *sorted, int n, double q)
{
  double pos = q * (n - 1);
  int i = (int) pos;

  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

double
bench_median (double *v, int n, double *spread)
{
  double med;

  bench_sort (v, n);
  med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  if (spread)
    *spread = med > 0 ? 100.0 * (v[n - 1] - v[0]) / med : 0;
  return med;
}

/* ------------------------------------------------------------------ */
/* --csv */

#define CSV_HEADER "bench,variant,width,height,format,parallel,unit," \
  "median,q1,q3,iqr,bytes,gbps,fps,ceiling,ceiling_value,share"

void
bench_csv_open (const char *path)
{
  char line[512];
  long size;
  FILE *f = fopen (path, "a+");

  if (!f)
    bench_die ("cannot open --csv '%s': %s", path, strerror (errno));
  if (fseek (f, 0, SEEK_END) != 0 || (size = ftell (f)) < 0)
    bench_die ("cannot seek in --csv '%s': %s", path, strerror (errno));
  if (size > 0) {
    rewind (f);
    if (!fgets (line, sizeof line, f))
      bench_die ("cannot read the first line of --csv '%s'", path);
    line[strcspn (line, "\r\n")] = '\0';
    if (strcmp (line, CSV_HEADER) != 0)
      bench_die ("--csv '%s' has other columns (first line '%s', expected "
          "'%s')", path, line, CSV_HEADER);
    if (fseek (f, 0, SEEK_END) != 0)
      bench_die ("cannot seek in --csv '%s': %s", path, strerror (errno));
  } else if (fputs (CSV_HEADER "\n", f) == EOF || fflush (f) != 0) {
    bench_die ("cannot write --csv '%s': %s", path, strerror (errno));
  }
  csv_file = f;
}

void
bench_csv_close (void)
{
  if (csv_file && fclose (csv_file) != 0)
    bench_die ("error closing --csv: %s", strerror (errno));
  csv_file = NULL;
}

gboolean
bench_csv_enabled (void)
{
  return csv_file != NULL;
}

/* A field, quoted when it holds a comma, a quote or a line break. */
static void
csv_text (GString * s, const char *t)
{
  if (s->len)
    g_string_append_c (s, ',');
  if (!strpbrk (t, ",\"\r\n")) {
    g_string_append (s, t);
    return;
  }
  g_string_append_c (s, '"');
  for (; *t; t++) {
    if (*t == '"')
      g_string_append_c (s, '"');
    g_string_append_c (s, *t);
  }
  g_string_append_c (s, '"');
}

/* An empty field unless @ok; '.' as the decimal point in every locale. */
static void
csv_num (GString * s, double v, int ok)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (s, ',');
  if (ok && isfinite (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

void
bench_csv_row (const char *variant, int w, int h, const char *format,
    int parallel, const char *unit, double med, double q1, double q3,
    double bytes, const char *ceiling, double ceiling_fps)
{
  GString *s;
  double fps, gbps;
  int has_ceiling = ceiling && *ceiling && ceiling_fps > 0;

  if (!csv_file)
    return;
  fps = !strcmp (unit, "ms") ? (med > 0 ? 1e3 / med : 0) : med;
  gbps = bytes > 0 && fps > 0 ? bytes * fps / 1e9 : 0;
  s = g_string_new (NULL);
  csv_text (s, program);
  csv_text (s, variant);
  g_string_append_printf (s, ",%d,%d", w, h);
  csv_text (s, format);
  g_string_append_printf (s, ",%d", parallel);
  csv_text (s, unit);
  csv_num (s, med, 1);
  csv_num (s, q1, 1);
  csv_num (s, q3, 1);
  csv_num (s, q3 - q1, 1);
  if (bytes > 0)
    g_string_append_printf (s, ",%.0f", bytes);
  else
    g_string_append_c (s, ',');
  csv_num (s, gbps, gbps > 0);
  csv_num (s, fps, fps > 0);
  csv_text (s, has_ceiling ? ceiling : "");
  csv_num (s, ceiling_fps, has_ceiling);
  csv_num (s, fps / ceiling_fps, has_ceiling && fps > 0);
  g_string_append_c (s, '\n');
  if (fputs (s->str, csv_file) == EOF || fflush (csv_file) != 0)
    bench_die ("write error on --csv: %s", strerror (errno));
  g_string_free (s, TRUE);
}
