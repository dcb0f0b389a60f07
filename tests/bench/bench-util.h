/* bench-util: what the benchmark programs share: error exits, option
 * parsing, order statistics and the --csv rows.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every program calls bench_init () first with its name, which prefixes
 * its messages and fills the CSV's "bench" column.  Exits: 1 from
 * bench_die (), 2 from the option parsers (bad options).
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int w, h;
} size2;

void bench_init (const char *program);
/* The name given to bench_init (). */
const char *bench_program (void);

/* "<program>: error: <message>" on stderr (stdout flushed first), exit 1. */
void bench_die (const char *fmt, ...) G_GNUC_PRINTF (1, 2) G_GNUC_NORETURN;
/* "<program>: <message>" on stderr, exit 2. */
void bench_bad_option (const char *fmt, ...) G_GNUC_PRINTF (1, 2)
    G_GNUC_NORETURN;

/* A decimal integer in lo ... hi; @what names the option in the message. */
int bench_parse_int (const char *s, int lo, int hi, const char *what);
/* "WxH" (or "WXH") with both sides in 8 ... @max. */
gboolean bench_try_parse_size (const char *s, int max, size2 * r);
size2 bench_parse_size (const char *s, int max);
/* The value of option @name at argv[*i]: "--name=value", or "--name value"
 * (then *i moves past the value); NULL when argv[*i] is another option. */
const char *bench_opt_value (int argc, char **argv, int *i, const char *name);

/* Sorts @v in place (ascending). */
void bench_sort (double *v, int n);
/* The @q quantile of @sorted (n >= 1), interpolated between neighbours. */
double bench_percentile (const double *sorted, int n, double q);
/* The median of @v (sorted in place); @spread, when not NULL, gets
 * (max - min) / median in percent. */
double bench_median (double *v, int n, double *spread);

/* --csv: the columns documented at the top of tools/perf-plots.py.
 * bench_csv_open () appends to @path, writes the header when the file is
 * new or empty and refuses a file whose first line is another header;
 * without it bench_csv_row () does nothing. */
void bench_csv_open (const char *path);
void bench_csv_close (void);
/* Whether bench_csv_open () was called (and not bench_csv_close ()). */
gboolean bench_csv_enabled (void);
/* One measured row.  @unit "ms": @med, @q1 and @q3 are times per frame;
 * "fps": frames per second.  @bytes <= 0: no bytes (gbps left empty).
 * @ceiling NULL: none; else @ceiling_fps is the frame rate that ceiling
 * allows for this row's bytes, and share = fps / ceiling_fps. */
void bench_csv_row (const char *variant, int w, int h, const char *format,
    int parallel, const char *unit, double med, double q1, double q3,
    double bytes, const char *ceiling, double ceiling_fps);

G_END_DECLS

#endif /* BENCH_UTIL_H */
