/* gst-cudaedge: what the core test families share.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The families run in one program, runner.c, on GLib's test framework.
 * Each registers its cases with ce_test_add ().  A case draws its random
 * data from ce_test_rand (), seeded from the case's path before it runs,
 * so that it gives the same bytes alone (-p PATH) as in the whole run.
 *
 * The runner makes assertions non-fatal: a failed g_assert_cmpint (),
 * g_assert_true () or ce_assert_* () prints where and what, marks its case
 * failed, and the case goes on, so that one run lists every failure.  A
 * case that cannot go on (a failed allocation, launch or CUDA call)
 * returns by itself.
 */
#ifndef CE_CORE_TEST_H
#define CE_CORE_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "cudaedge-core.h"

/* ---- the families ---- */

void ce_test_register_reference (void);
void ce_test_register_cpu_fast (void);
void ce_test_register_cpu_upscale (void);
void ce_test_register_cuda_entry (void);
void ce_test_register_fused_layout (void);
void ce_test_register_upscale_threads (void);
void ce_test_register_fused_out (void);
void ce_test_register_gpu_core (void);
void ce_test_register_gpu_runtime (void);
void ce_test_register_gpu_host_path (void);

/* --quick (runner.c): the GPU families leave out frames larger than
 * 613x611, for compute-sanitizer runs. */
extern gboolean ce_test_quick;

/* ---- cases ---- */

typedef void (*ce_test_func) (void);
typedef void (*ce_test_data_func) (gconstpointer data);

/* A case at path; the random data are seeded from the path first. */
void ce_test_add (const char *path, ce_test_func func);
void ce_test_add_data (const char *path, gconstpointer data,
    ce_test_data_func func);

/* Work the runner does after the last case (contexts, cached frames). */
void ce_test_at_end (void (*func) (void));
void ce_test_run_at_end (void);

/* ---- failures ---- */

/* One failed check with a message of its own, like a failed g_assert_*:
 * "ERROR:file:line:function: message", the case marked failed. */
#define ce_test_fail(...) \
  ce_test_fail_at (__FILE__, __LINE__, G_STRFUNC, __VA_ARGS__)
void ce_test_fail_at (const char *file, int line, const char *func,
    const char *format, ...) G_GNUC_PRINTF (4, 5);

/* call returns want; otherwise says what it returned and ce_last_error. */
#define ce_assert_status(call, want) G_STMT_START { \
    ce_status s_ = (call), w_ = (want); \
    if (s_ != w_) \
      ce_test_fail ("%s returned %s (%d: %s), want %s", #call, \
          ce_status_string (s_), (int) s_, ce_last_error (), \
          ce_status_string (w_)); \
  } G_STMT_END

/* CE_STATUS_INVALID_ARGUMENT, with ce_last_error () naming word ("" for
 * any message). */
#define ce_assert_invalid(call, word) G_STMT_START { \
    ce_status s_ = (call); \
    const char *w_ = (word); \
    if (s_ != CE_STATUS_INVALID_ARGUMENT) \
      ce_test_fail ("%s returned %s (%d: %s), want " \
          "CE_STATUS_INVALID_ARGUMENT", #call, ce_status_string (s_), \
          (int) s_, ce_last_error ()); \
    else if (w_[0] && !strstr (ce_last_error (), w_)) \
      ce_test_fail ("%s: message \"%s\" does not name \"%s\"", #call, \
          ce_last_error (), w_); \
  } G_STMT_END

/* ---- comparisons ---- */

/* Bytes written where nothing should be: outputs are filled with these
 * before a run, so that unwritten pixels and stray writes both show. */
#define CE_TEST_POISON 0xA5
#define CE_TEST_POISON2 0x5A

/* Rows [y0, y1) of two images, row_bytes each, by memcmp.  On a
 * difference: one failure that says what, how many bytes differ and the
 * first one's x, y, expected and got values (and "never written" when got
 * is the poison).  TRUE when equal. */
#define ce_assert_rows_equal(what, exp, exp_stride, got, got_stride, \
    row_bytes, y0, y1, poison) \
  ce_test_rows_equal (__FILE__, __LINE__, G_STRFUNC, what, exp, exp_stride, \
      got, got_stride, row_bytes, y0, y1, poison)
gboolean ce_test_rows_equal (const char *file, int line, const char *func,
    const char *what, const guint8 * exp, gsize exp_stride,
    const guint8 * got, gsize got_stride, gsize row_bytes, int y0, int y1,
    int poison);

/* Bytes [x0, x1) of rows [y0, y1) still hold poison.  On a difference: one
 * failure with the first written byte's x, y and value.  TRUE when so. */
#define ce_assert_poisoned(what, buf, stride, x0, x1, y0, y1, poison) \
  ce_test_poisoned (__FILE__, __LINE__, G_STRFUNC, what, buf, stride, \
      x0, x1, y0, y1, poison)
gboolean ce_test_poisoned (const char *file, int line, const char *func,
    const char *what, const guint8 * buf, gsize stride, gsize x0, gsize x1,
    int y0, int y1, int poison);

/* ---- random data ---- */

void ce_test_seed (guint64 seed);
guint32 ce_test_rand (void);
/* In [lo, hi]. */
int ce_test_rand_range (int lo, int hi);
void ce_test_fill_random (guint8 * p, gsize n);

/* ---- frames and parameters ---- */

/* Bytes of one row of plane 0: YUY2 and UYVY rows hold whole pixel pairs
 * (an odd width still ends on a full pair). */
gsize ce_test_row_bytes (ce_format format, int width);

ce_frame ce_test_frame (const guint8 * data, gsize stride, int width,
    int height, ce_format format);

/* Edge parameters spelled out in one call. */
ce_edge_params ce_test_params (double threshold, int blur,
    ce_border_mode border, ce_norm norm, ce_output output);

/* Their constants; a failure when ce_edge_consts_init refuses them. */
ce_edge_consts ce_test_consts (double threshold, int blur,
    ce_border_mode border, ce_norm norm, ce_output output);

const char *ce_test_border_name (ce_border_mode border);
const char *ce_test_norm_name (ce_norm norm);
const char *ce_test_output_name (ce_output output);

/* ---- row bands ---- */

/* How a frame is cut into row bands: one call for the whole frame,
 * random bands, or every row alone. */
typedef enum
{
  CE_TEST_BANDS_WHOLE = 0,
  CE_TEST_BANDS_RANDOM,
  CE_TEST_BANDS_SINGLE_ROWS,
  CE_TEST_BANDS_COUNT
} ce_test_bands;

/* The end of the band that starts at row r0 of rows. */
int ce_test_band_end (ce_test_bands bands, int r0, int rows);

/* Rows [0, rows) in n_threads equal bands, each on a thread of its own at
 * once; statuses[i] is band i's return. */
typedef ce_status (*ce_test_band_func) (gpointer data, int r0, int r1);
void ce_test_bands_on_threads (int n_threads, int rows,
    ce_test_band_func func, gpointer data, ce_status * statuses);

/* ---- time ---- */

/* Monotonic seconds, for the informative timings. */
double ce_test_now (void);

#endif /* CE_CORE_TEST_H */
