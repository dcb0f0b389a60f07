/* gst-cudaedge: the small check kit of the core test programs.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Header-only, one copy per test program: a failed check prints where and
 * what, counts, and the program goes on so that one run shows every
 * failure.  Set ce_test_label to say which image or size is being tested.
 */
#ifndef CE_TEST_H
#define CE_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cudaedge-core.h"

static int n_check_failures;
static const char *ce_test_label = "";

#if defined(__GNUC__)
__attribute__ ((format (printf, 3, 4), unused))
#endif
static void
report_failure (const char *file, int line, const char *fmt, ...)
{
  va_list ap;
  if (ce_test_label[0])
    fprintf (stderr, "%s:%d: [%s] CHECK failed: ", file, line,
        ce_test_label);
  else
    fprintf (stderr, "%s:%d: CHECK failed: ", file, line);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  n_check_failures++;
  /* Not fatal: the case goes on, so that one run lists every failure. */
  g_test_fail_printf ("%s:%d: CHECK failed", file, line);
}

#define CHECK(expr) do { \
    if (!(expr)) \
      report_failure (__FILE__, __LINE__, "%s", #expr); \
  } while (0)

/* Integer equality that prints both sides. */
#define CHECK_EQ(a, b) do { \
    long long a_ = (long long) (a), b_ = (long long) (b); \
    if (a_ != b_) \
      report_failure (__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
          #a, #b, a_, b_); \
  } while (0)

#define CHECK_STATUS(call, status) do { \
    ce_status s_ = (call); \
    if (s_ != (status)) \
      report_failure (__FILE__, __LINE__, "%s returned %d (%s: %s), want %d", \
          #call, (int) s_, ce_status_string (s_), ce_last_error (), \
          (int) (status)); \
  } while (0)

/* CE_STATUS_INVALID_ARGUMENT, with ce_last_error () naming `word`. */
#define CHECK_INVALID(call, word) do { \
    ce_status s_ = (call); \
    if (s_ != CE_STATUS_INVALID_ARGUMENT) \
      report_failure (__FILE__, __LINE__, "%s returned %d (%s), want " \
          "CE_STATUS_INVALID_ARGUMENT", #call, (int) s_, \
          ce_status_string (s_)); \
    else if ((word)[0] && !strstr (ce_last_error (), (word))) \
      report_failure (__FILE__, __LINE__, "%s: message \"%s\" does not " \
          "name \"%s\"", #call, ce_last_error (), (word)); \
  } while (0)

/* Edge parameters spelled out in one call. */
#if defined(__GNUC__)
__attribute__ ((unused))
#endif
static ce_edge_params
make_params (double threshold, int blur, ce_border_mode border, ce_norm norm,
    ce_output output)
{
  ce_edge_params p;
  ce_edge_params_init (&p);
  p.threshold = threshold;
  p.blur = blur;
  p.border = border;
  p.norm = norm;
  p.output = output;
  return p;
}

#endif /* CE_TEST_H */
