/* gst-cudaedge: what the core test families share (see ce-core-test.h).
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdarg.h>
#include <stdio.h>

#include "ce-core-test.h"

gboolean ce_test_quick;

/* ---- cases ---- */

typedef struct
{
  ce_test_func func;
  ce_test_data_func data_func;
  gconstpointer data;
  guint64 seed;
} test_case;

/* FNV-1a: the same seed for the same path on every run and machine. */
static guint64
path_seed (const char *path)
{
  guint64 h = 0xCBF29CE484222325ull;
  for (const char *p = path; *p; p++) {
    h ^= (guint8) * p;
    h *= 0x100000001B3ull;
  }
  return h;
}

static void
run_case (gconstpointer data)
{
  const test_case *c = data;

  ce_test_seed (c->seed);
  if (c->func)
    c->func ();
  else
    c->data_func (c->data);
}

void
ce_test_add (const char *path, ce_test_func func)
{
  test_case *c = g_new0 (test_case, 1);

  c->func = func;
  c->seed = path_seed (path);
  g_test_add_data_func_full (path, c, run_case, g_free);
}

void
ce_test_add_data (const char *path, gconstpointer data,
    ce_test_data_func func)
{
  test_case *c = g_new0 (test_case, 1);

  c->data_func = func;
  c->data = data;
  c->seed = path_seed (path);
  g_test_add_data_func_full (path, c, run_case, g_free);
}

static GSList *at_end;

void
ce_test_at_end (void (*func) (void))
{
  at_end = g_slist_prepend (at_end, (gpointer) func);
}

/* Last registered, first run. */
void
ce_test_run_at_end (void)
{
  for (GSList * l = at_end; l; l = l->next)
    ((void (*)(void)) l->data) ();
  g_slist_free (at_end);
  at_end = NULL;
}

/* ---- failures ---- */

void
ce_test_fail_at (const char *file, int line, const char *func,
    const char *format, ...)
{
  va_list ap;
  char *msg;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  /* What g_assert_* () calls: with non-fatal assertions it prints the
   * message (a TAP comment under --tap), fails the case and returns. */
  g_assertion_message (G_LOG_DOMAIN, file, line, func, msg);
  g_free (msg);
}

/* ---- comparisons ---- */

gboolean
ce_test_rows_equal (const char *file, int line, const char *func,
    const char *what, const guint8 * exp, gsize exp_stride,
    const guint8 * got, gsize got_stride, gsize row_bytes, int y0, int y1,
    int poison)
{
  guint64 n = 0;
  gsize fx = 0;
  int fy = -1;

  for (int y = y0; y < y1; y++) {
    const guint8 *e = exp + (gsize) y * exp_stride;
    const guint8 *g = got + (gsize) y * got_stride;
    if (memcmp (e, g, row_bytes) == 0)
      continue;
    for (gsize x = 0; x < row_bytes; x++) {
      if (e[x] == g[x])
        continue;
      if (fy < 0) {
        fx = x;
        fy = y;
      }
      n++;
    }
  }
  if (fy < 0)
    return TRUE;
  ce_test_fail_at (file, line, func, "%s: %" G_GUINT64_FORMAT " of "
      "%" G_GSIZE_FORMAT "x%d bytes differ, first at x %" G_GSIZE_FORMAT
      " y %d: expected %d, got %d%s", what, n, row_bytes, y1 - y0, fx, fy,
      exp[(gsize) fy * exp_stride + fx], got[(gsize) fy * got_stride + fx],
      got[(gsize) fy * got_stride + fx] == poison ? " (never written?)" : "");
  return FALSE;
}

gboolean
ce_test_poisoned (const char *file, int line, const char *func,
    const char *what, const guint8 * buf, gsize stride, gsize x0, gsize x1,
    int y0, int y1, int poison)
{
  for (int y = y0; y < y1; y++)
    for (gsize x = x0; x < x1; x++)
      if (buf[(gsize) y * stride + x] != poison) {
        ce_test_fail_at (file, line, func, "%s: byte at x %" G_GSIZE_FORMAT
            " y %d written (0x%02x), want the poison 0x%02x", what, x, y,
            buf[(gsize) y * stride + x], poison);
        return FALSE;
      }
  return TRUE;
}

/* ---- random data ---- */

static guint64 rng_state = 0x9E3779B97F4A7C15ull;

void
ce_test_seed (guint64 seed)
{
  /* splitmix64 of the seed: never the all-zero state of xorshift */
  guint64 z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  rng_state = z ? z : 0x2545F4914F6CDD1Dull;
}

guint32
ce_test_rand (void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (guint32) ((rng_state * 2685821657736338717ull) >> 32);
}

int
ce_test_rand_range (int lo, int hi)
{
  return lo + (int) (ce_test_rand () % (guint32) (hi - lo + 1));
}

void
ce_test_fill_random (guint8 * p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    p[i] = (guint8) ce_test_rand ();
}

/* ---- frames and parameters ---- */

gsize
ce_test_row_bytes (ce_format format, int width)
{
  ce_luma_layout l;

  if (ce_luma_layout_get (format, &l) != CE_STATUS_OK)
    return 0;
  if (format == CE_FORMAT_YUY2 || format == CE_FORMAT_UYVY)
    return 4 * (((gsize) width + 1) / 2);
  return (gsize) width * l.bytes_per_pixel;
}

ce_frame
ce_test_frame (const guint8 * data, gsize stride, int width, int height,
    ce_format format)
{
  ce_frame f;

  memset (&f, 0, sizeof f);
  f.data = data;
  f.stride = stride;
  f.width = width;
  f.height = height;
  f.format = format;
  return f;
}

ce_edge_params
ce_test_params (double threshold, int blur, ce_border_mode border,
    ce_norm norm, ce_output output)
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

ce_edge_consts
ce_test_consts (double threshold, int blur, ce_border_mode border,
    ce_norm norm, ce_output output)
{
  ce_edge_params p = ce_test_params (threshold, blur, border, norm, output);
  ce_edge_consts c;

  memset (&c, 0, sizeof c);
  ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
  return c;
}

const char *
ce_test_border_name (ce_border_mode border)
{
  static const char *const names[] = { "replicate", "zero", "reflect" };
  return (unsigned) border < G_N_ELEMENTS (names) ? names[border] : "?";
}

const char *
ce_test_norm_name (ce_norm norm)
{
  return norm == CE_NORM_L1 ? "l1" : norm == CE_NORM_L2 ? "l2" : "?";
}

const char *
ce_test_output_name (ce_output output)
{
  return output == CE_OUTPUT_EDGES ? "edges" :
      output == CE_OUTPUT_MAGNITUDE ? "magnitude" : "?";
}

/* ---- row bands ---- */

int
ce_test_band_end (ce_test_bands bands, int r0, int rows)
{
  int r1;

  if (bands == CE_TEST_BANDS_WHOLE)
    r1 = rows;
  else if (bands == CE_TEST_BANDS_SINGLE_ROWS)
    r1 = r0 + 1;
  else
    r1 = r0 + (ce_test_rand () % 4 == 0 ? 1 :
        ce_test_rand_range (1, rows / 3 + 2));
  return r1 > rows ? rows : r1;
}

typedef struct
{
  ce_test_band_func func;
  gpointer data;
  int r0, r1;
  ce_status status;
} band_job;

static gpointer
run_band (gpointer data)
{
  band_job *j = data;

  j->status = j->func (j->data, j->r0, j->r1);
  return NULL;
}

void
ce_test_bands_on_threads (int n_threads, int rows, ce_test_band_func func,
    gpointer data, ce_status * statuses)
{
  band_job *jobs = g_new0 (band_job, n_threads);
  GThread **threads = g_new0 (GThread *, n_threads);

  for (int i = 0; i < n_threads; i++) {
    jobs[i].func = func;
    jobs[i].data = data;
    jobs[i].r0 = (int) ((gint64) rows * i / n_threads);
    jobs[i].r1 = (int) ((gint64) rows * (i + 1) / n_threads);
    jobs[i].status = CE_STATUS_OK;
    threads[i] = g_thread_new ("ce-test-band", run_band, &jobs[i]);
  }
  for (int i = 0; i < n_threads; i++) {
    g_thread_join (threads[i]);
    statuses[i] = jobs[i].status;
  }
  g_free (threads);
  g_free (jobs);
}

/* ---- time ---- */

double
ce_test_now (void)
{
  return g_get_monotonic_time () / 1e6;
}
