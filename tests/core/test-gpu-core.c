/* gst-cudaedge: the GPU kernels and the CUDA context against the CPU
 * reference, byte for byte.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every kernel runs on padded, oddly pitched and cudaMallocPitch'ed device
 * images whose outputs are poisoned before each run, so unwritten pixels
 * and writes into the padding both show.  Exit code 77 (meson's SKIP) when
 * there is no usable CUDA device.
 *
 * Usage: test-gpu-core [--quick]
 *   --quick   only sizes up to 613x611 (for compute-sanitizer runs)
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "cudaedge-core.h"
#include "cudaedge-testing.h"
#include "ce-test.h"
#include "cudaedge-kernels.h"
#include "cudaedge-staged.h"

/* ---- checks ---- */

/* A CUDA runtime call; on failure reports and makes the caller return. */
#define CUDA_OK(call) cuda_ok ((call), #call, __FILE__, __LINE__)
#define CUDA_TRY(call) do { if (!CUDA_OK (call)) return; } while (0)

static int
cuda_ok (cudaError_t err, const char *expr, const char *file, int line)
{
  if (err == cudaSuccess)
    return 1;
  report_failure (file, line, "%s: %s (%s)", expr, cudaGetErrorName (err),
      cudaGetErrorString (err));
  return 0;
}

/* A launcher: must return CE_STATUS_OK. */
#define LAUNCH_OK(call) launch_ok ((call), #call, __FILE__, __LINE__)
#define LAUNCH_TRY(call) do { if (!LAUNCH_OK (call)) return; } while (0)

static int
launch_ok (ce_status s, const char *expr, const char *file, int line)
{
  if (s == CE_STATUS_OK)
    return 1;
  report_failure (file, line, "%s returned %s: %s", expr,
      ce_status_string (s), ce_last_error ());
  return 0;
}

/* ---- allocations freed after each test ---- */

#define MAX_TRACKED 256
static void *tracked_dev[MAX_TRACKED];
static int n_tracked_dev;
static void *tracked_host[MAX_TRACKED];
static int n_tracked_host;
static void *tracked_pinned[MAX_TRACKED];
static int n_tracked_pinned;
static ce_cuda_ctx *ctx;
static cudaStream_t streams[3];
static int quick;

static void
free_tracked (void)
{
  for (int i = 0; i < n_tracked_dev; i++)
    CUDA_OK (cudaFree (tracked_dev[i]));
  for (int i = 0; i < n_tracked_host; i++)
    free (tracked_host[i]);
  for (int i = 0; i < n_tracked_pinned; i++)
    CHECK_STATUS (ce_cuda_host_free (ctx, tracked_pinned[i]), CE_STATUS_OK);
  n_tracked_dev = n_tracked_host = n_tracked_pinned = 0;
}

static void *
host_alloc (size_t size)
{
  void *p;
  if (n_tracked_host == MAX_TRACKED) {
    fprintf (stderr, "too many host allocations\n");
    exit (2);
  }
  p = malloc (size ? size : 1);
  if (!p) {
    fprintf (stderr, "out of host memory (%zu bytes)\n", size);
    exit (2);
  }
  tracked_host[n_tracked_host++] = p;
  return p;
}

static void *
pinned_alloc (size_t size)
{
  void *p = NULL;
  if (n_tracked_pinned == MAX_TRACKED) {
    fprintf (stderr, "too many pinned allocations\n");
    exit (2);
  }
  if (ce_cuda_host_alloc (ctx, size, &p) != CE_STATUS_OK) {
    report_failure (__FILE__, __LINE__, "ce_cuda_host_alloc (%zu): %s", size,
        ce_last_error ());
    return NULL;
  }
  tracked_pinned[n_tracked_pinned++] = p;
  return p;
}

/* ---- device images ---- */

#define POISON 0xA5
#define POISON2 0x5A

enum
{
  LAYOUT_PADDED = 0,            /* row + 64 + a little, base off alignment */
  LAYOUT_PITCHED                /* cudaMallocPitch */
};

typedef struct
{
  uint8_t *base;                /* allocation */
  uint8_t *p;                   /* image start */
  size_t pitch, row;
  int rows;
  size_t size;                  /* bytes from base */
} dimg;

/* align: what the launchers require of pointer and pitch (1, 2 or 4).
 * LAYOUT_PADDED gives the smallest pitch that is 64 past the row and odd,
 * 2 mod 4 or 4 mod 8 accordingly, and a base that is 1, 2 or 4 bytes past
 * the allocation's: the kernels' unaligned paths. */
static int
dimg_new (dimg * im, size_t row, int rows, int align, int layout)
{
  size_t offset;
  memset (im, 0, sizeof *im);
  im->row = row;
  im->rows = rows;
  if (n_tracked_dev == MAX_TRACKED) {
    fprintf (stderr, "too many device allocations\n");
    exit (2);
  }
  if (layout == LAYOUT_PITCHED) {
    void *p;
    if (!CUDA_OK (cudaMallocPitch (&p, &im->pitch, row, rows)))
      return 0;
    im->base = im->p = p;
    im->size = im->pitch * rows;
  } else {
    void *p;
    switch (align) {
      case 1:
        im->pitch = row + 64 + ((row + 1) % 2);        /* odd */
        offset = 1;
        break;
      case 2:
        im->pitch = row + 64 + (row % 4 == 0 ? 2 : 0); /* 2 mod 4 */
        if (im->pitch % 4 == 0)
          im->pitch += 2;
        offset = 2;
        break;
      default:
        im->pitch = row + 64 + (row % 8 == 0 ? 4 : 0); /* 4 mod 8 */
        if (im->pitch % 8 == 0)
          im->pitch += 4;
        offset = 4;
        break;
    }
    im->size = offset + im->pitch * rows;
    if (!CUDA_OK (cudaMalloc (&p, im->size)))
      return 0;
    im->base = p;
    im->p = im->base + offset;
  }
  tracked_dev[n_tracked_dev++] = im->base;
  return 1;
}

/* cudaMemset and pageable cudaMemcpy may still be in flight when they
 * return, and the kernels under test run on non-blocking streams that do
 * not wait for the legacy default stream: finish them before going on. */
static int
dimg_poison (const dimg * im, int value)
{
  return CUDA_OK (cudaMemset (im->base, value, im->size)) &&
      CUDA_OK (cudaDeviceSynchronize ());
}

static int
dimg_upload (const dimg * im, const void *h, size_t h_stride)
{
  return CUDA_OK (cudaMemcpy2D (im->p, im->pitch, h, h_stride, im->row,
          im->rows, cudaMemcpyHostToDevice)) &&
      CUDA_OK (cudaDeviceSynchronize ());
}

/* The whole pitched image, padding included. */
static uint8_t *
dimg_download (const dimg * im)
{
  uint8_t *h = host_alloc (im->pitch * im->rows);
  if (!CUDA_OK (cudaMemcpy (h, im->p, im->pitch * im->rows,
              cudaMemcpyDeviceToHost)))
    return NULL;
  return h;
}

static int
sync_all (void)
{
  int ok = 1;
  for (int i = 0; i < 3; i++)
    ok &= CUDA_OK (cudaStreamSynchronize (streams[i]));
  ok &= CUDA_OK (cudaGetLastError ());
  return ok;
}

/* ---- comparisons ---- */

/* Padding bytes [row, pitch) of rows [0, rows) still hold the poison. */
static int
check_padding (const char *what, const uint8_t * h, const dimg * im,
    int poison)
{
  for (int y = 0; y < im->rows; y++)
    for (size_t x = im->row; x < im->pitch; x++)
      if (h[y * im->pitch + x] != poison) {
        report_failure (__FILE__, __LINE__, "%s: padding byte %zu of row %d "
            "written (0x%02x)", what, x, y, h[y * im->pitch + x]);
        return 0;
      }
  return 1;
}

/* 8-bit image on the device equals the expected one in rows [r0, r1);
 * every other byte, padding included, still holds the poison. */
static int
expect_u8_rows (const char *what, const uint8_t * exp, size_t exp_stride,
    const dimg * got, int r0, int r1, int poison)
{
  uint8_t *h = dimg_download (got);
  ce_diff d;
  uint64_t n;
  if (!h)
    return 0;
  for (int y = 0; y < got->rows; y++) {
    if (y >= r0 && y < r1)
      continue;
    for (size_t x = 0; x < got->row; x++)
      if (h[y * got->pitch + x] != poison) {
        report_failure (__FILE__, __LINE__, "%s: row %d outside rows [%d, %d) "
            "written at x %zu (0x%02x)", what, y, r0, r1, x,
            h[y * got->pitch + x]);
        return 0;
      }
  }
  memset (&d, 0, sizeof d);
  n = ce_compare_u8 (exp + (size_t) r0 * exp_stride, exp_stride,
      h + (size_t) r0 * got->pitch, got->pitch, (int) got->row, r1 - r0, &d);
  if (n) {
    report_failure (__FILE__, __LINE__, "%s: %llu of %zux%d bytes differ, "
        "first at x %d y %d: expected %d got %d%s", what,
        (unsigned long long) n, got->row, r1 - r0, d.x, d.y + r0, d.expected,
        d.got, d.got == poison ? " (never written)" : "");
    return 0;
  }
  return check_padding (what, h, got, poison);
}

static int
expect_u8 (const char *what, const uint8_t * exp, size_t exp_stride,
    const dimg * got, int poison)
{
  return expect_u8_rows (what, exp, exp_stride, got, 0, got->rows, poison);
}

/* uint16 B images; the poison 0xA5A5 is a possible B, so a mismatch alone
 * says nothing about unwritten pixels: the padding check does. */
static int
expect_u16 (const char *what, const uint16_t * exp, size_t exp_stride,
    const dimg * got)
{
  uint8_t *h = dimg_download (got);
  size_t w = got->row / 2;
  uint64_t n = 0;
  size_t fx = 0;
  int fy = 0, fe = 0, fg = 0;
  if (!h)
    return 0;
  for (int y = 0; y < got->rows; y++) {
    const uint16_t *e = (const uint16_t *) ((const uint8_t *) exp
        + y * exp_stride);
    const uint16_t *g = (const uint16_t *) (h + y * got->pitch);
    for (size_t x = 0; x < w; x++) {
      uint16_t gv;
      memcpy (&gv, g + x, 2);   /* the device pitch may be 2 mod 4 */
      if (gv != e[x]) {
        if (n++ == 0) {
          fx = x;
          fy = y;
          fe = e[x];
          fg = gv;
        }
      }
    }
  }
  if (n) {
    report_failure (__FILE__, __LINE__, "%s: %llu of %zux%d values differ, "
        "first at x %zu y %d: expected %d got %d", what,
        (unsigned long long) n, w, got->rows, fx, fy, fe, fg);
    return 0;
  }
  return check_padding (what, h, got, POISON);
}

/* int32 (gx, gy) pairs. */
static int
expect_grad (const char *what, const int32_t * exp, size_t exp_stride,
    const dimg * got)
{
  uint8_t *h = dimg_download (got);
  size_t w = got->row / 8;
  uint64_t n = 0;
  size_t fx = 0;
  int fy = 0;
  int32_t fe[2] = { 0, 0 }, fg[2] = { 0, 0 };
  if (!h)
    return 0;
  for (int y = 0; y < got->rows; y++) {
    const int32_t *e = (const int32_t *) ((const uint8_t *) exp
        + y * exp_stride);
    const uint8_t *g = h + y * got->pitch;
    for (size_t x = 0; x < w; x++) {
      int32_t gv[2];
      memcpy (gv, g + 8 * x, 8);
      if (gv[0] != e[2 * x] || gv[1] != e[2 * x + 1]) {
        if (n++ == 0) {
          fx = x;
          fy = y;
          fe[0] = e[2 * x];
          fe[1] = e[2 * x + 1];
          fg[0] = gv[0];
          fg[1] = gv[1];
        }
      }
    }
  }
  if (n) {
    report_failure (__FILE__, __LINE__, "%s: %llu of %zux%d gradients "
        "differ, first at x %zu y %d: expected (%d, %d) got (%d, %d)", what,
        (unsigned long long) n, w, got->rows, fx, fy, fe[0], fe[1], fg[0],
        fg[1]);
    return 0;
  }
  return check_padding (what, h, got, POISON);
}

/* Host images: rows equal, and padding [row, stride) still poison. */
static int
expect_host_u8 (const char *what, const uint8_t * exp, size_t exp_stride,
    const uint8_t * got, size_t got_stride, size_t row, int rows, int poison)
{
  ce_diff d;
  uint64_t n;
  memset (&d, 0, sizeof d);
  n = ce_compare_u8 (exp, exp_stride, got, got_stride, (int) row, rows, &d);
  if (n) {
    report_failure (__FILE__, __LINE__, "%s: %llu of %zux%d bytes differ, "
        "first at x %d y %d: expected %d got %d%s", what,
        (unsigned long long) n, row, rows, d.x, d.y, d.expected, d.got,
        d.got == poison ? " (never written?)" : "");
    return 0;
  }
  for (int y = 0; y < rows; y++)
    for (size_t x = row; x < got_stride; x++)
      if (got[y * got_stride + x] != poison) {
        report_failure (__FILE__, __LINE__, "%s: padding byte %zu of row %d "
            "written", what, x, y);
        return 0;
      }
  return 1;
}

/* ---- test data ---- */

static uint32_t rng_state = 2463534242u;

static uint32_t
rng (void)
{
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

static uint32_t
hash3 (uint32_t a, uint32_t b, uint32_t c)
{
  uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u
      ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

typedef enum
{
  IMG_NOISE = 0,                /* uniform random bytes */
  IMG_BLOCKS,                   /* 7x5 tiles of 0 or 255: strong steps */
  IMG_MIXED,                    /* 32x32 tiles: noise, flat, ramp, steps */
  IMG_KIND_COUNT
} image_kind;

static const char *const kind_names[] = { "noise", "blocks", "mixed" };

static void
fill_image (uint8_t * y, size_t stride, int w, int h, image_kind kind,
    uint32_t seed)
{
  rng_state = seed * 2654435761u + 1;
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      int v;
      switch (kind) {
        case IMG_NOISE:
          v = rng () & 0xFF;
          break;
        case IMG_BLOCKS:
          v = (hash3 (c / 7, r / 5, seed) & 1) ? 255 : 0;
          break;
        default:{
          uint32_t t = hash3 (c / 32, r / 32, seed);
          switch (t % 5) {
            case 0:
              v = rng () & 0xFF;
              break;
            case 1:
              v = (t >> 8) & 0xFF;
              break;
            case 2:
              v = (c * 5 + r * 3) & 0xFF;
              break;
            case 3:
              v = ((c / 4 + r / 4) & 1) ? 255 : 0;
              break;
            default:
              /* a weak step: the gradients near the thresholds */
              v = (c % 32) < 16 ? 100 : 100 + (int) ((t >> 16) % 12);
              break;
          }
        }
      }
      y[(size_t) r * stride + c] = (uint8_t) v;
    }
}

/* One luma image of one size with its staged CPU reference:
 * b[border] = ce_ref_blur, g[blur][border] = ce_ref_sobel of b (blur) or
 * of Y as uint16 (no blur, B = Y). */
typedef struct
{
  int w, h;
  image_kind kind;
  char label[64];
  uint8_t *y;
  size_t ys;
  uint16_t *y16;
  uint16_t *b[3];
  size_t bs;
  int32_t *g[2][3];
  size_t gs;
} scene;

static void
scene_free (scene * sc)
{
  free (sc->y);
  free (sc->y16);
  for (int m = 0; m < 3; m++) {
    free (sc->b[m]);
    free (sc->g[0][m]);
    free (sc->g[1][m]);
  }
  memset (sc, 0, sizeof *sc);
}

static int
scene_new (scene * sc, int w, int h, image_kind kind)
{
  memset (sc, 0, sizeof *sc);
  sc->w = w;
  sc->h = h;
  sc->kind = kind;
  snprintf (sc->label, sizeof sc->label, "%dx%d %s", w, h, kind_names[kind]);
  sc->ys = w + 13;
  sc->bs = 2 * (size_t) w + 10;
  sc->gs = 8 * (size_t) w + 24;
  sc->y = malloc (sc->ys * h);
  sc->y16 = malloc (sc->bs * h);
  for (int m = 0; m < 3; m++) {
    sc->b[m] = malloc (sc->bs * h);
    sc->g[0][m] = malloc (sc->gs * h);
    sc->g[1][m] = malloc (sc->gs * h);
    if (!sc->b[m] || !sc->g[0][m] || !sc->g[1][m])
      goto oom;
  }
  if (!sc->y || !sc->y16)
    goto oom;
  memset (sc->y, 0xEE, sc->ys * h);
  fill_image (sc->y, sc->ys, w, h, kind, (uint32_t) (w * 7919 + h * 31
          + kind));
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++)
      ((uint16_t *) ((uint8_t *) sc->y16 + r * sc->bs))[c] =
          sc->y[r * sc->ys + c];
  for (int m = 0; m < 3; m++) {
    CHECK_STATUS (ce_ref_blur (sc->y, sc->ys, w, h, (ce_border_mode) m,
            sc->b[m], sc->bs), CE_STATUS_OK);
    CHECK_STATUS (ce_ref_sobel (sc->y16, sc->bs, w, h, (ce_border_mode) m,
            sc->g[0][m], sc->gs), CE_STATUS_OK);
    CHECK_STATUS (ce_ref_sobel (sc->b[m], sc->bs, w, h, (ce_border_mode) m,
            sc->g[1][m], sc->gs), CE_STATUS_OK);
  }
  return 1;

oom:
  fprintf (stderr, "out of host memory for %s\n", sc->label);
  scene_free (sc);
  return 0;
}

static ce_edge_consts
make_consts (double threshold, int blur, ce_border_mode border, ce_norm norm,
    ce_output output)
{
  ce_edge_params p;
  ce_edge_consts c;
  ce_edge_params_init (&p);
  p.threshold = threshold;
  p.blur = blur;
  p.border = border;
  p.norm = norm;
  p.output = output;
  memset (&c, 0, sizeof c);
  CHECK_STATUS (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
  return c;
}

static const double thresholds[] = { 0.0, 0.5, 37.3, 128.0, 2048.0 };
#define N_THRESHOLDS ((int) (sizeof thresholds / sizeof thresholds[0]))
static const char *const border_names[] = { "replicate", "zero", "reflect" };

/* The option combinations for one blur and border: l2/l1 x (edges at each
 * threshold, magnitude at two thresholds, which must not matter). */
typedef struct
{
  double t;
  ce_norm norm;
  ce_output out;
} combo;

static combo
make_combo (double t, int norm, ce_output out)
{
  combo c;
  c.t = t;
  c.norm = (ce_norm) norm;
  c.out = out;
  return c;
}

static int
make_combos (combo * c)
{
  int n = 0;
  for (int norm = 0; norm < 2; norm++) {
    for (int t = 0; t < N_THRESHOLDS; t++)
      c[n++] = make_combo (thresholds[t], norm, CE_OUTPUT_EDGES);
    c[n++] = make_combo (0.0, norm, CE_OUTPUT_MAGNITUDE);
    c[n++] = make_combo (128.0, norm, CE_OUTPUT_MAGNITUDE);
  }
  return n;
}

/* Expected output of a combination: the staged reference. */
static uint8_t *
expected_output (const scene * sc, int blur, int border,
    const ce_edge_consts * c, size_t * stride)
{
  uint8_t *e;
  *stride = sc->w + 7;
  e = host_alloc (*stride * sc->h);
  CHECK_STATUS (ce_ref_threshold (sc->g[blur][border], sc->gs, sc->w, sc->h,
          c, e, *stride), CE_STATUS_OK);
  return e;
}

static void
bands_of (int h, int k, int *r0, int *r1)
{
  *r0 = (int) ((long long) h * k / 3);
  *r1 = (int) ((long long) h * (k + 1) / 3);
}

/* Plane 0 row bytes of a format. */
static size_t
format_row_bytes (ce_format f, int w)
{
  ce_luma_layout l;
  if (ce_luma_layout_get (f, &l) != CE_STATUS_OK)
    return 0;
  if (f == CE_FORMAT_YUY2 || f == CE_FORMAT_UYVY)
    return 4 * (((size_t) w + 1) / 2);
  return (size_t) w * l.bytes_per_pixel;
}

/* ---- the tests ---- */

static void
test_launchers_reject_bad_arguments (void)
{
  dimg a, b, g;
  uint8_t *d8;
  uint16_t *d16;
  int32_t *d32;
  ce_edge_consts c = make_consts (128.0, 1, CE_BORDER_REPLICATE, CE_NORM_L2,
      CE_OUTPUT_EDGES);
  ce_edge_consts bad;
  cudaStream_t s = streams[0];
  uint8_t h[64];
  ce_frame f;
  ce_edge_params p;
  ce_cuda_ctx *other = NULL;
  int count = 0;

  if (!dimg_new (&a, 4096, 1, 4, LAYOUT_PITCHED)
      || !dimg_new (&b, 4096, 1, 4, LAYOUT_PITCHED)
      || !dimg_new (&g, 4096, 1, 4, LAYOUT_PITCHED))
    return;
  d8 = a.p;
  d16 = (uint16_t *) b.p;
  d32 = (int32_t *) g.p;
  CUDA_TRY (cudaGetLastError ());

  /* luma */
  CHECK_INVALID (ce_launch_luma (NULL, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          16, s), "");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, NULL,
          16, s), "");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 0, 4, 0, 4, d8,
          16, s), "width");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 0, 0, 0, d8,
          16, s), "height");
  CHECK_INVALID (ce_launch_luma (d8, 3, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          16, s), "pitch");
  CHECK_INVALID (ce_launch_luma (d8, 15, CE_FORMAT_RGBA, 4, 4, 0, 4, d8,
          16, s), "pitch");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          3, s), "pitch");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_COUNT, 4, 4, 0, 4, d8,
          16, s), "format");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 2, 2, d8,
          16, s), "row");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 5, d8,
          16, s), "row");
  CHECK_INVALID (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, -1, 4, d8,
          16, s), "row");
  /* fused */
  CHECK_INVALID (ce_launch_edge_fused (NULL, 16, 4, 4, 0, 4, &c, d8, 16, s),
      "");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &c, NULL, 16, s),
      "");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, NULL, d8, 16, s),
      "");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 0, 4, 0, 4, &c, d8, 16, s),
      "width");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, -1, 0, 4, &c, d8, 16, s),
      "height");
  CHECK_INVALID (ce_launch_edge_fused (d8, 3, 4, 4, 0, 4, &c, d8, 16, s),
      "pitch");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &c, d8, 3, s),
      "pitch");
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 3, 1, &c, d8, 16, s),
      "row");
  bad = c;
  bad.border = (ce_border_mode) 3;
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "border");
  bad = c;
  bad.norm = (ce_norm) 7;
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "norm");
  bad = c;
  bad.output = (ce_output) 2;
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "output");
  bad = c;
  bad.scale = 1;                /* blur on needs S = 256 */
  CHECK_INVALID (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "scale");
  /* blur */
  CHECK_INVALID (ce_launch_blur (CE_BLUR_VARIANT_COUNT, d8, 16, 4, 4,
          CE_BORDER_ZERO, d16, 16, d16, 16, s), "variant");
  for (int v = 0; v < CE_BLUR_VARIANT_COUNT; v++) {
    CHECK (ce_blur_variant_name ((ce_blur_variant) v) != NULL);
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, NULL, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, NULL, 16, s), "");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 16, 0, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "width");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 0,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "height");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 3, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "pitch");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 7, s), "pitch");
    CHECK_INVALID (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            (ce_border_mode) 3, d16, 16, d16, 16, s), "border");
  }
  CHECK_INVALID (ce_launch_blur (CE_BLUR_TWO_PASS, d8, 16, 4, 4,
          CE_BORDER_ZERO, NULL, 16, d16, 16, s), "scratch");
  CHECK_INVALID (ce_launch_blur (CE_BLUR_TWO_PASS, d8, 16, 4, 4,
          CE_BORDER_ZERO, d16, 7, d16, 16, s), "pitch");
  /* sobel */
  CHECK_INVALID (ce_launch_sobel (NULL, 16, 4, 4, CE_BORDER_ZERO, d32, 64,
          s), "");
  CHECK_INVALID (ce_launch_sobel (d16, 16, 4, 4, CE_BORDER_ZERO, NULL, 64,
          s), "");
  CHECK_INVALID (ce_launch_sobel (d16, 16, 0, 4, CE_BORDER_ZERO, d32, 64,
          s), "width");
  CHECK_INVALID (ce_launch_sobel (d16, 7, 4, 4, CE_BORDER_ZERO, d32, 64,
          s), "pitch");
  CHECK_INVALID (ce_launch_sobel (d16, 16, 4, 4, CE_BORDER_ZERO, d32, 31,
          s), "pitch");
  CHECK_INVALID (ce_launch_sobel (d16, 16, 4, 4, (ce_border_mode) 9, d32,
          64, s), "border");
  /* threshold */
  CHECK_INVALID (ce_launch_threshold (NULL, 64, 4, 4, &c, d8, 16, s), "");
  CHECK_INVALID (ce_launch_threshold (d32, 64, 4, 4, NULL, d8, 16, s), "");
  CHECK_INVALID (ce_launch_threshold (d32, 64, 4, 4, &c, NULL, 16, s), "");
  CHECK_INVALID (ce_launch_threshold (d32, 64, 0, 4, &c, d8, 16, s),
      "width");
  CHECK_INVALID (ce_launch_threshold (d32, 31, 4, 4, &c, d8, 16, s),
      "pitch");
  CHECK_INVALID (ce_launch_threshold (d32, 64, 4, 4, &c, d8, 3, s), "pitch");
  /* sobel + threshold */
  CHECK_INVALID (ce_launch_sobel_threshold (NULL, 16, 4, 4, &c, d8, 16, s),
      "");
  CHECK_INVALID (ce_launch_sobel_threshold (d16, 16, 4, 4, NULL, d8, 16, s),
      "");
  CHECK_INVALID (ce_launch_sobel_threshold (d16, 16, 4, 4, &c, NULL, 16, s),
      "");
  CHECK_INVALID (ce_launch_sobel_threshold (d16, 16, 4, 0, &c, d8, 16, s),
      "height");
  CHECK_INVALID (ce_launch_sobel_threshold (d16, 7, 4, 4, &c, d8, 16, s),
      "pitch");
  CHECK_INVALID (ce_launch_sobel_threshold (d16, 16, 4, 4, &c, d8, 3, s),
      "pitch");
  /* upscale */
  CHECK_INVALID (ce_launch_upscale2x (NULL, 16, 4, 4, 1, 0, 8, d8, 16, s),
      "");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 8, NULL, 16, s),
      "");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 0, 4, 1, 0, 8, d8, 16, s),
      "width");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 4, 4, 3, 0, 8, d8, 32, s),
      "bytes_per_pixel");
  CHECK_INVALID (ce_launch_upscale2x (d8, 3, 4, 4, 1, 0, 8, d8, 16, s),
      "pitch");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 8, d8, 7, s),
      "pitch");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 4, 4, 4, 0, 8, d8, 31, s),
      "pitch");
  CHECK_INVALID (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 9, d8, 16, s),
      "row");
  /* nothing above may have launched a kernel */
  CHECK (cudaGetLastError () == cudaSuccess);
  CHECK (cudaDeviceSynchronize () == cudaSuccess);

  /* context */
  CHECK_INVALID (ce_cuda_ctx_new (-1, 1, &other), "");
  CHECK (other == NULL);
  CHECK_STATUS (ce_cuda_device_count (&count), CE_STATUS_OK);
  CHECK_STATUS (ce_cuda_ctx_new (count + 3, 2, &other), CE_STATUS_NO_DEVICE);
  CHECK (other == NULL);
  memset (h, 0, sizeof h);
  f.data = h;
  f.stride = 8;
  f.width = 8;
  f.height = 8;
  f.format = CE_FORMAT_GRAY8;
  ce_edge_params_init (&p);
  CHECK_INVALID (ce_cuda_edge_frame (NULL, &f, &p, h, 8, NULL), "");
  CHECK_INVALID (ce_cuda_edge_frame (ctx, NULL, &p, h, 8, NULL), "");
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, NULL, h, 8, NULL), "");
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, NULL, 8, NULL), "");
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, h, 7, NULL), "stride");
  f.width = 0;
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "width");
  f.width = 8;
  f.stride = 7;
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "stride");
  f.stride = 8;
  p.threshold = NAN;
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "threshold");
  CHECK_INVALID (ce_cuda_upscale2x_frame (ctx, h, 4, 4, 4, 2, h, 16, NULL),
      "");
  CHECK_INVALID (ce_cuda_upscale2x_frame (ctx, h, 4, 4, 4, 1, h, 7, NULL),
      "stride");
  CHECK_INVALID (ce_cuda_upscale2x_frame (ctx, NULL, 4, 4, 4, 1, h, 8,
          NULL), "");
  CHECK_INVALID (ce_cuda_upscale2x_frame (NULL, h, 4, 4, 4, 1, h, 8, NULL),
      "");
}

static void
test_luma_matches_reference_for_every_format (const scene * sc)
{
  int w = sc->w, h = sc->h;
  if ((sc->kind != IMG_NOISE && sc->kind != IMG_MIXED)
      || (size_t) w * h > 4000000)
    return;
  for (int fi = 0; fi < CE_FORMAT_COUNT; fi++) {
    ce_format fmt = (ce_format) fi;
    size_t row = format_row_bytes (fmt, w);
    size_t stride = row + 11;
    uint8_t *src = host_alloc (stride * h);
    size_t es = w + 5;
    uint8_t *exp = host_alloc (es * h);
    ce_frame f;
    dimg ds, dl;
    char what[96];
    int lay = fi % 2;

    rng_state = 77 + fi * 1000 + w;
    for (size_t i = 0; i < stride * h; i++)
      src[i] = (uint8_t) rng ();
    f.data = src;
    f.stride = stride;
    f.width = w;
    f.height = h;
    f.format = fmt;
    CHECK_STATUS (ce_ref_luma (&f, exp, es), CE_STATUS_OK);

    if (!dimg_new (&ds, row, h, 1, lay)
        || !dimg_new (&dl, w, h, 1, 1 - lay)
        || !dimg_upload (&ds, src, stride) || !dimg_poison (&dl, POISON))
      return;
    snprintf (what, sizeof what, "luma %s", ce_format_name (fmt));
    LAUNCH_TRY (ce_launch_luma (ds.p, ds.pitch, fmt, w, h, 0, h, dl.p,
            dl.pitch, streams[0]));
    if (!sync_all ())
      return;
    expect_u8 (what, exp, es, &dl, POISON);

    /* in three bands on three streams */
    if (!dimg_poison (&dl, POISON2))
      return;
    for (int k = 0; k < 3; k++) {
      int r0, r1;
      bands_of (h, k, &r0, &r1);
      if (r0 < r1)
        LAUNCH_TRY (ce_launch_luma (ds.p, ds.pitch, fmt, w, h, r0, r1, dl.p,
                dl.pitch, streams[k]));
    }
    if (!sync_all ())
      return;
    snprintf (what, sizeof what, "luma %s in bands", ce_format_name (fmt));
    expect_u8 (what, exp, es, &dl, POISON2);
  }
}

static void
test_blur_variants_match_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  int big = (size_t) w * h > 4000000;
  dimg dy[2];
  for (int lay = 0; lay < 2; lay++)
    if (!dimg_new (&dy[lay], w, h, 1, lay)
        || !dimg_upload (&dy[lay], sc->y, sc->ys))
      return;
  for (int v = 0; v < CE_BLUR_VARIANT_COUNT; v++) {
    /* the largest frames: one variant only */
    if (big && v != CE_BLUR_SEPARABLE)
      continue;
    for (int m = 0; m < 3; m++)
      for (int lay = 0; lay < 2; lay++) {
        dimg db, dscr;
        char what[96];
        uint16_t *scratch = NULL;
        size_t scratch_pitch = 0;
        if (big && lay == 1)
          continue;
        if (!dimg_new (&db, 2 * (size_t) w, h, 2, 1 - lay)
            || !dimg_poison (&db, POISON))
          return;
        if (v == CE_BLUR_TWO_PASS) {
          if (!dimg_new (&dscr, 2 * (size_t) w, h, 2, lay)
              || !dimg_poison (&dscr, POISON))
            return;
          scratch = (uint16_t *) dscr.p;
          scratch_pitch = dscr.pitch;
        }
        LAUNCH_TRY (ce_launch_blur ((ce_blur_variant) v, dy[lay].p,
                dy[lay].pitch, w, h, (ce_border_mode) m, scratch,
                scratch_pitch, (uint16_t *) db.p, db.pitch,
                streams[(v + m) % 3]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "blur %s %s layout %d",
            ce_blur_variant_name ((ce_blur_variant) v), border_names[m], lay);
        expect_u16 (what, sc->b[m], sc->bs, &db);
      }
  }
}

static void
test_sobel_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  if ((size_t) w * h > 4000000)
    return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int lay = 0; lay < 2; lay++) {
        dimg db, dg;
        char what[96];
        if (!dimg_new (&db, 2 * (size_t) w, h, 2, lay)
            || !dimg_new (&dg, 8 * (size_t) w, h, 4, 1 - lay)
            || !dimg_upload (&db, blur ? sc->b[m] : sc->y16, sc->bs)
            || !dimg_poison (&dg, POISON))
          return;
        LAUNCH_TRY (ce_launch_sobel ((const uint16_t *) db.p, db.pitch, w, h,
                (ce_border_mode) m, (int32_t *) dg.p, dg.pitch, streams[m]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "sobel blur %d %s layout %d", blur,
            border_names[m], lay);
        expect_grad (what, sc->g[blur][m], sc->gs, &dg);
      }
}

static void
test_threshold_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  combo cs[32];
  int nc = make_combos (cs);
  if ((size_t) w * h > 4000000)
    return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m += 1) {
      dimg dg;
      int lay = (blur + m) % 2;
      if (!dimg_new (&dg, 8 * (size_t) w, h, 4, lay)
          || !dimg_upload (&dg, sc->g[blur][m], sc->gs))
        return;
      for (int k = 0; k < nc; k++) {
        ce_edge_consts c = make_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        dimg dd;
        char what[128];
        int poison = (k % 2) ? POISON2 : POISON;
        if (!dimg_new (&dd, w, h, 1, 1 - lay) || !dimg_poison (&dd, poison))
          return;
        LAUNCH_TRY (ce_launch_threshold ((const int32_t *) dg.p, dg.pitch, w,
                h, &c, dd.p, dd.pitch, streams[k % 3]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "threshold blur %d %s t %g %s", blur,
            cs[k].norm == CE_NORM_L1 ? "l1" : "l2", cs[k].t,
            cs[k].out == CE_OUTPUT_EDGES ? "edges" : "magnitude");
        expect_u8 (what, exp, es, &dd, poison);
      }
      free_tracked ();
    }
}

static void
test_sobel_threshold_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  combo cs[32];
  int nc = make_combos (cs);
  if ((size_t) w * h > 4000000)
    return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++) {
      dimg db;
      int lay = (blur + m) % 2;
      if (!dimg_new (&db, 2 * (size_t) w, h, 2, lay)
          || !dimg_upload (&db, blur ? sc->b[m] : sc->y16, sc->bs))
        return;
      for (int k = 0; k < nc; k++) {
        ce_edge_consts c = make_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        dimg dd;
        char what[128];
        int poison = (k % 2) ? POISON2 : POISON;
        if (!dimg_new (&dd, w, h, 1, 1 - lay) || !dimg_poison (&dd, poison))
          return;
        LAUNCH_TRY (ce_launch_sobel_threshold ((const uint16_t *) db.p,
                db.pitch, w, h, &c, dd.p, dd.pitch, streams[k % 3]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "sobel_threshold blur %d %s %s t %g %s",
            blur, border_names[m], cs[k].norm == CE_NORM_L1 ? "l1" : "l2",
            cs[k].t, cs[k].out == CE_OUTPUT_EDGES ? "edges" : "magnitude");
        expect_u8 (what, exp, es, &dd, poison);
      }
      free_tracked ();
    }
}

/* The staged reference used as the expectation equals ce_ref_edge, the
 * definition, on this scene (two combinations per blur and border). */
static void
test_reference_chain_equals_staged_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  if ((size_t) w * h > 4000000)
    return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int k = 0; k < 2; k++) {
        ce_edge_params p;
        ce_edge_consts c;
        size_t es, ds = w + 3;
        uint8_t *exp, *got = host_alloc (ds * h);
        char what[96];
        ce_edge_params_init (&p);
        p.threshold = k ? 37.3 : 2.0;
        p.blur = blur;
        p.border = (ce_border_mode) m;
        p.norm = k ? CE_NORM_L2 : CE_NORM_L1;
        p.output = k ? CE_OUTPUT_EDGES : CE_OUTPUT_MAGNITUDE;
        CHECK_STATUS (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
        exp = expected_output (sc, blur, m, &c, &es);
        memset (got, POISON, ds * h);
        CHECK_STATUS (ce_ref_edge (sc->y, sc->ys, w, h, &p, got, ds),
            CE_STATUS_OK);
        snprintf (what, sizeof what, "ce_ref_edge blur %d %s combo %d", blur,
            border_names[m], k);
        expect_host_u8 (what, exp, es, got, ds, w, h, POISON);
      }
}

static void
test_fused_matches_reference_for_every_option (const scene * sc)
{
  int w = sc->w, h = sc->h;
  combo cs[32];
  int nc = make_combos (cs);
  dimg dy[2], dd[2];
  for (int lay = 0; lay < 2; lay++)
    if (!dimg_new (&dy[lay], w, h, 1, lay)
        || !dimg_upload (&dy[lay], sc->y, sc->ys)
        || !dimg_new (&dd[lay], w, h, 1, 1 - lay))
      return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int k = 0; k < nc; k++) {
        ce_edge_consts c = make_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        for (int lay = 0; lay < 2; lay++) {
          char what[128];
          int poison = lay ? POISON2 : POISON;
          if (!dimg_poison (&dd[lay], poison))
            return;
          LAUNCH_TRY (ce_launch_edge_fused (dy[lay].p, dy[lay].pitch, w, h,
                  0, h, &c, dd[lay].p, dd[lay].pitch, streams[lay]));
          if (!sync_all ())
            return;
          snprintf (what, sizeof what, "fused blur %d %s %s t %g %s "
              "layout %d", blur, border_names[m],
              cs[k].norm == CE_NORM_L1 ? "l1" : "l2", cs[k].t,
              cs[k].out == CE_OUTPUT_EDGES ? "edges" : "magnitude", lay);
          expect_u8 (what, exp, es, &dd[lay], poison);
        }
        /* expected outputs of big frames are large: let them go */
        if (n_tracked_host > 8) {
          for (int i = 0; i < n_tracked_host; i++)
            free (tracked_host[i]);
          n_tracked_host = 0;
        }
      }
}

/* Rows [0, h/3), [h/3, 2h/3), [2h/3, h) separately give the whole; the
 * first band alone writes its rows only. */
static void
test_fused_in_bands_equals_whole (const scene * sc)
{
  int w = sc->w, h = sc->h;
  dimg dy, dd;
  if (!dimg_new (&dy, w, h, 1, LAYOUT_PADDED)
      || !dimg_upload (&dy, sc->y, sc->ys)
      || !dimg_new (&dd, w, h, 1, LAYOUT_PADDED))
    return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int k = 0; k < 2; k++) {
        ce_edge_consts c = k ?
            make_consts (37.3, blur, (ce_border_mode) m, CE_NORM_L2,
            CE_OUTPUT_EDGES) :
            make_consts (0.0, blur, (ce_border_mode) m, CE_NORM_L1,
            CE_OUTPUT_MAGNITUDE);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        char what[96];
        int r0, r1;
        snprintf (what, sizeof what, "fused bands blur %d %s %s", blur,
            border_names[m], k ? "l2 edges 37.3" : "l1 magnitude");

        /* one band, then the rest */
        if (!dimg_poison (&dd, POISON))
          return;
        bands_of (h, 1, &r0, &r1);
        if (r0 < r1) {
          LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1, &c,
                  dd.p, dd.pitch, streams[1]));
          if (!sync_all ())
            return;
          expect_u8_rows (what, exp, es, &dd, r0, r1, POISON);
        }
        for (int b = 0; b < 3; b += 2) {
          bands_of (h, b, &r0, &r1);
          if (r0 < r1)
            LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1,
                    &c, dd.p, dd.pitch, streams[b]));
        }
        if (!sync_all ())
          return;
        expect_u8 (what, exp, es, &dd, POISON);

        /* all three at once on three streams */
        if (!dimg_poison (&dd, POISON2))
          return;
        for (int b = 0; b < 3; b++) {
          bands_of (h, b, &r0, &r1);
          if (r0 < r1)
            LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1,
                    &c, dd.p, dd.pitch, streams[b]));
        }
        if (!sync_all ())
          return;
        expect_u8 (what, exp, es, &dd, POISON2);
      }
}

static void
test_upscale_kernel_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  if ((size_t) w * h > 4000000 || sc->kind == IMG_BLOCKS)
    return;
  for (int bpp = 1; bpp <= 4; bpp += 3) {
    size_t row = (size_t) w * bpp;
    size_t ss = row + 4 * bpp + 1;
    size_t es = 2 * row + 9;
    uint8_t *src = host_alloc (ss * h);
    uint8_t *exp = host_alloc (es * 2 * h);
    rng_state = 99 + w + bpp;
    for (size_t i = 0; i < ss * h; i++)
      src[i] = (uint8_t) rng ();
    if (bpp == 1)
      for (int r = 0; r < h; r++)
        memcpy (src + r * ss, sc->y + r * sc->ys, w);
    CHECK_STATUS (ce_ref_upscale2x (src, ss, w, h, bpp, exp, es),
        CE_STATUS_OK);
    for (int lay = 0; lay < 2; lay++) {
      dimg ds, dd;
      char what[96];
      int r0, r1;
      if (!dimg_new (&ds, row, h, bpp, lay)
          || !dimg_new (&dd, 2 * row, 2 * h, bpp, 1 - lay)
          || !dimg_upload (&ds, src, ss) || !dimg_poison (&dd, POISON))
        return;
      LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, 0, 2 * h,
              dd.p, dd.pitch, streams[lay]));
      if (!sync_all ())
        return;
      snprintf (what, sizeof what, "upscale2x bpp %d layout %d", bpp, lay);
      expect_u8 (what, exp, es, &dd, POISON);

      /* bands of the 2H output rows: the middle one alone, then the rest */
      if (!dimg_poison (&dd, POISON2))
        return;
      bands_of (2 * h, 1, &r0, &r1);
      LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, r0, r1,
              dd.p, dd.pitch, streams[1]));
      if (!sync_all ())
        return;
      snprintf (what, sizeof what, "upscale2x bpp %d layout %d bands", bpp,
          lay);
      expect_u8_rows (what, exp, es, &dd, r0, r1, POISON2);
      for (int b = 0; b < 3; b += 2) {
        bands_of (2 * h, b, &r0, &r1);
        if (r0 < r1)
          LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, r0, r1,
                  dd.p, dd.pitch, streams[b]));
      }
      if (!sync_all ())
        return;
      expect_u8 (what, exp, es, &dd, POISON2);
    }
  }
}

enum
{
  MEM_PAGEABLE = 0,
  MEM_PINNED,
  MEM_PINNED_SRC_ONLY,
  MEM_COUNT
};
static const char *const mem_names[] = { "pageable", "pinned",
  "pinned src, pageable dst"
};
static const int band_counts[] = { 1, 3, 4, 7 };

static void
test_edge_frame_matches_reference (const scene * sc)
{
  static const ce_format all[] = {
    CE_FORMAT_GRAY8, CE_FORMAT_I420, CE_FORMAT_YV12, CE_FORMAT_NV12,
    CE_FORMAT_NV21, CE_FORMAT_Y42B, CE_FORMAT_Y444, CE_FORMAT_YUY2,
    CE_FORMAT_UYVY, CE_FORMAT_RGB, CE_FORMAT_BGR, CE_FORMAT_RGBA,
    CE_FORMAT_BGRA, CE_FORMAT_ARGB, CE_FORMAT_ABGR, CE_FORMAT_RGBx,
    CE_FORMAT_BGRx, CE_FORMAT_xRGB, CE_FORMAT_xBGR,
  };
  static const ce_format mid[] = {
    CE_FORMAT_GRAY8, CE_FORMAT_I420, CE_FORMAT_NV21, CE_FORMAT_YUY2,
    CE_FORMAT_UYVY, CE_FORMAT_RGB, CE_FORMAT_BGR, CE_FORMAT_RGBA,
    CE_FORMAT_xBGR,
  };
  static const ce_format large[] = {
    CE_FORMAT_GRAY8, CE_FORMAT_NV12, CE_FORMAT_UYVY, CE_FORMAT_BGRx,
  };
  int w = sc->w, h = sc->h;
  const ce_format *fmts;
  int nf, np;
  ce_edge_params params[3];

  if (sc->kind != IMG_MIXED || (size_t) w * h > 4000000)
    return;
  if ((size_t) w * h <= 2000) {
    fmts = all;
    nf = (int) (sizeof all / sizeof all[0]);
  } else if ((size_t) w * h <= 400000) {
    fmts = mid;
    nf = (int) (sizeof mid / sizeof mid[0]);
  } else {
    fmts = large;
    nf = (int) (sizeof large / sizeof large[0]);
  }
  ce_edge_params_init (&params[0]);
  ce_edge_params_init (&params[1]);
  params[1].blur = 0;
  params[1].border = CE_BORDER_ZERO;
  params[1].norm = CE_NORM_L1;
  params[1].output = CE_OUTPUT_MAGNITUDE;
  ce_edge_params_init (&params[2]);
  params[2].border = CE_BORDER_REFLECT;
  params[2].threshold = 37.3;
  np = (size_t) w * h > 400000 ? 2 : 3;

  for (int fi = 0; fi < nf; fi++) {
    ce_format fmt = fmts[fi];
    ce_luma_layout lay;
    size_t row = format_row_bytes (fmt, w);
    size_t stride = row + 7;
    size_t ds = w + 9, es = w + 3;
    uint8_t *src = host_alloc (stride * h);
    uint8_t *src_pinned = pinned_alloc (stride * h);
    uint8_t *dst = host_alloc (ds * h);
    uint8_t *dst_pinned = pinned_alloc (ds * h);
    uint8_t *exp = host_alloc (es * h);
    ce_frame f;

    if (!src_pinned || !dst_pinned)
      return;
    CHECK_STATUS (ce_luma_layout_get (fmt, &lay), CE_STATUS_OK);
    /* structure from the scene in the luma (or in R, G, B), noise in the
     * other bytes */
    rng_state = 1234 + fi;
    for (size_t i = 0; i < stride * h; i++)
      src[i] = (uint8_t) rng ();
    for (int r = 0; r < h; r++)
      for (int c = 0; c < w; c++) {
        uint8_t v = sc->y[r * sc->ys + c];
        uint8_t *px = src + r * stride + (size_t) c * lay.bytes_per_pixel;
        if (lay.is_rgb) {
          px[lay.r_offset] = v;
          px[lay.g_offset] = (uint8_t) (v ^ (rng () & 7));
          px[lay.b_offset] = (uint8_t) (255 - v);
        } else {
          px[lay.y_offset] = v;
        }
      }
    memcpy (src_pinned, src, stride * h);
    f.stride = stride;
    f.width = w;
    f.height = h;
    f.format = fmt;

    for (int pi = 0; pi < np; pi++) {
      f.data = src;
      memset (exp, 0, es * h);
      CHECK_STATUS (ce_ref_edge_frame (&f, &params[pi], exp, es),
          CE_STATUS_OK);
      for (int bi = 0; bi < 4; bi++)
        for (int mem = 0; mem < MEM_COUNT; mem++) {
          uint8_t *out = mem == MEM_PINNED ? dst_pinned : dst;
          ce_timing t;
          char what[160];
          int poison = (bi + mem) % 2 ? POISON2 : POISON;
          if (mem == MEM_PINNED_SRC_ONLY && band_counts[bi] != 4)
            continue;
          ce_cuda_ctx_set_bands (ctx, band_counts[bi]);
          f.data = mem == MEM_PAGEABLE ? src : src_pinned;
          memset (out, poison, ds * h);
          t.upload_us = t.kernel_us = t.download_us = -1.0;
          LAUNCH_TRY (ce_cuda_edge_frame (ctx, &f, &params[pi], out, ds,
                  &t));
          snprintf (what, sizeof what, "edge_frame %s params %d bands %d %s",
              ce_format_name (fmt), pi, band_counts[bi], mem_names[mem]);
          expect_host_u8 (what, exp, es, out, ds, w, h, poison);
          if (!(t.upload_us >= 0.0 && t.kernel_us >= 0.0
                  && t.download_us >= 0.0))
            report_failure (__FILE__, __LINE__, "%s: timing %g %g %g", what,
                t.upload_us, t.kernel_us, t.download_us);
          /* the source is left as it was */
          if (memcmp (f.data, src, stride * h) != 0)
            report_failure (__FILE__, __LINE__, "%s: source modified", what);
        }
    }
  }
  ce_cuda_ctx_set_bands (ctx, 0);
  CHECK (cudaGetLastError () == cudaSuccess);
}

static void
test_upscale_frame_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  if (sc->kind != IMG_MIXED || (size_t) w * h > 4000000)
    return;
  for (int bpp = 1; bpp <= 4; bpp += 3) {
    size_t row = (size_t) w * bpp;
    size_t ss = row + 4 * bpp;
    size_t ds = 2 * row + 4 * bpp + 4;
    size_t es = 2 * row + 5;
    uint8_t *src = host_alloc (ss * h);
    uint8_t *src_pinned = pinned_alloc (ss * h);
    uint8_t *dst = host_alloc (ds * 2 * h);
    uint8_t *dst_pinned = pinned_alloc (ds * 2 * h);
    uint8_t *exp = host_alloc (es * 2 * h);
    if (!src_pinned || !dst_pinned)
      return;
    rng_state = 4321 + bpp;
    for (size_t i = 0; i < ss * h; i++)
      src[i] = (uint8_t) rng ();
    for (int r = 0; r < h; r++)
      for (int c = 0; c < w; c++)
        src[r * ss + (size_t) c * bpp] = sc->y[r * sc->ys + c];
    memcpy (src_pinned, src, ss * h);
    CHECK_STATUS (ce_ref_upscale2x (src, ss, w, h, bpp, exp, es),
        CE_STATUS_OK);
    for (int bi = 0; bi < 4; bi++)
      for (int mem = 0; mem < 2; mem++) {
        uint8_t *in = mem ? src_pinned : src;
        uint8_t *out = mem ? dst_pinned : dst;
        char what[128];
        int poison = (bi + mem) % 2 ? POISON2 : POISON;
        ce_cuda_ctx_set_bands (ctx, band_counts[bi]);
        memset (out, poison, ds * 2 * h);
        LAUNCH_TRY (ce_cuda_upscale2x_frame (ctx, in, ss, w, h, bpp, out, ds,
                NULL));
        snprintf (what, sizeof what, "upscale2x_frame bpp %d bands %d %s",
            bpp, band_counts[bi], mem_names[mem]);
        expect_host_u8 (what, exp, es, out, ds, 2 * row, 2 * h, poison);
      }
  }
  ce_cuda_ctx_set_bands (ctx, 4);
}

/* ---- main ---- */

/* An RGBA frame whose luma structure comes from the scene. */
static uint8_t *
scene_rgba (const scene * sc, size_t stride)
{
  uint8_t *p = pinned_alloc (stride * sc->h);
  if (!p)
    return NULL;
  memset (p, 0x33, stride * sc->h);
  for (int r = 0; r < sc->h; r++)
    for (int c = 0; c < sc->w; c++) {
      uint8_t v = sc->y[r * sc->ys + c];
      uint8_t *px = p + r * stride + 4 * (size_t) c;
      px[0] = v;
      px[1] = (uint8_t) (v * 7 + r);
      px[2] = (uint8_t) (255 - v);
      px[3] = (uint8_t) c;
    }
  return p;
}

/* Two frames in flight on the two slots, a third submitted while the
 * second is still running: every one equals the reference. */
static void
test_frames_in_flight_match_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  size_t rs = 4 * (size_t) w + 12, ds = w + 5;
  ce_edge_params pa, pb, pc;
  ce_frame fa, fb, fc;
  uint8_t *rgba, *da, *db, *dc, *ea, *eb, *ec;

  if (sc->kind != IMG_MIXED || (size_t) w * h > 4000000)
    return;
  ce_edge_params_init (&pa);
  ce_edge_params_init (&pb);
  pb.border = CE_BORDER_REFLECT;
  pb.threshold = 37.3;
  ce_edge_params_init (&pc);
  pc.output = CE_OUTPUT_MAGNITUDE;
  pc.norm = CE_NORM_L1;

  rgba = scene_rgba (sc, rs);
  da = pinned_alloc (ds * h);
  db = host_alloc (ds * h);     /* pageable: goes through staging */
  dc = pinned_alloc (ds * h);
  ea = host_alloc (ds * h);
  eb = host_alloc (ds * h);
  ec = host_alloc (ds * h);
  if (!rgba || !da || !dc)
    return;
  fa.data = sc->y;
  fa.stride = sc->ys;
  fa.width = w;
  fa.height = h;
  fa.format = CE_FORMAT_GRAY8;
  fb = fa;
  fb.data = rgba;
  fb.stride = rs;
  fb.format = CE_FORMAT_RGBA;
  fc = fa;
  CHECK_STATUS (ce_ref_edge_frame (&fa, &pa, ea, ds), CE_STATUS_OK);
  CHECK_STATUS (ce_ref_edge_frame (&fb, &pb, eb, ds), CE_STATUS_OK);
  CHECK_STATUS (ce_ref_edge_frame (&fc, &pc, ec, ds), CE_STATUS_OK);
  memset (da, POISON, ds * h);
  memset (db, POISON2, ds * h);
  memset (dc, POISON, ds * h);

  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fa, &pa, da, ds));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 1, &fb, &pb, db, ds));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fc, &pc, dc, ds));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 1, NULL));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  expect_host_u8 ("in flight: GRAY8 slot 0", ea, ds, da, ds, w, h, POISON);
  expect_host_u8 ("in flight: RGBA slot 1 (staged dst)", eb, ds, db, ds, w,
      h, POISON2);
  expect_host_u8 ("in flight: GRAY8 magnitude slot 0 again", ec, ds, dc, ds,
      w, h, POISON);

  /* The upscale shares the slots. */
  {
    size_t us = 8 * (size_t) w + 4;
    uint8_t *up = pinned_alloc (us * 2 * h);
    uint8_t *ue = host_alloc (us * 2 * h);
    if (!up)
      return;
    memset (up, POISON, us * 2 * h);
    CHECK_STATUS (ce_ref_upscale2x (rgba, rs, w, h, 4, ue, us),
        CE_STATUS_OK);
    LAUNCH_TRY (ce_cuda_upscale2x_frame_submit (ctx, 1, rgba, rs, w, h, 4,
            up, us));
    LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fa, &pa, da, ds));
    LAUNCH_TRY (ce_cuda_frame_wait (ctx, 1, NULL));
    LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
    expect_host_u8 ("in flight: upscale RGBA slot 1", ue, us, up, us,
        8 * (size_t) w, 2 * h, POISON);
    expect_host_u8 ("in flight: GRAY8 beside the upscale", ea, ds, da, ds,
        w, h, POISON);
  }
}

/* Slots refuse misuse by name, and an injected failure comes back from
 * the wait of the frame it was armed for, leaving the context usable. */
static void
test_frame_slots_reject_misuse_and_report_injected_failure (void)
{
  enum { W = 37, H = 29 };
  uint8_t *y = host_alloc (W * H), *d = host_alloc (W * H);
  uint8_t *d2 = host_alloc (W * H), *e = host_alloc (W * H);
  ce_edge_params p;
  ce_frame f;
  ce_status s;

  rng_state = 77;
  for (int i = 0; i < W * H; i++)
    y[i] = (uint8_t) rng ();
  ce_edge_params_init (&p);
  p.threshold = 20;
  f.data = y;
  f.stride = W;
  f.width = W;
  f.height = H;
  f.format = CE_FORMAT_GRAY8;
  CHECK_STATUS (ce_ref_edge_frame (&f, &p, e, W), CE_STATUS_OK);

  CHECK_INVALID (ce_cuda_edge_frame_submit (ctx, 2, &f, &p, d, W), "slot");
  CHECK_INVALID (ce_cuda_edge_frame_submit (ctx, -1, &f, &p, d, W), "slot");
  CHECK_INVALID (ce_cuda_frame_wait (ctx, 1, NULL), "slot");
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W));
  CHECK_INVALID (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W), "slot");
  CHECK_INVALID (ce_cuda_edge_frame (ctx, &f, &p, d, W, NULL), "slot");
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  CHECK_INVALID (ce_cuda_frame_wait (ctx, 0, NULL), "slot");

  ce_cuda_ctx_inject_failure (ctx, 2);
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 1, &f, &p, d2, W));
  CHECK_STATUS (ce_cuda_frame_wait (ctx, 0, NULL), CE_STATUS_OK);
  s = ce_cuda_frame_wait (ctx, 1, NULL);
  CHECK (s == CE_STATUS_CUDA_ERROR);
  CHECK (strstr (ce_last_error (), "inject") != NULL);
  memset (d, POISON, W * H);
  LAUNCH_TRY (ce_cuda_edge_frame (ctx, &f, &p, d, W, NULL));
  expect_host_u8 ("frame after an injected failure", e, W, d, W, W, H,
      POISON);
}

typedef struct
{
  const char *name;
  void (*once) (void);
  void (*per_scene) (const scene * sc);
  int failures, runs;
} test_case;

#define TEST_ONCE(fn) { #fn, fn, NULL, 0, 0 }
#define TEST_SCENE(fn) { #fn, NULL, fn, 0, 0 }

static test_case tests[] = {
  TEST_ONCE (test_launchers_reject_bad_arguments),
  TEST_SCENE (test_luma_matches_reference_for_every_format),
  TEST_SCENE (test_blur_variants_match_reference),
  TEST_SCENE (test_sobel_matches_reference),
  TEST_SCENE (test_threshold_matches_reference),
  TEST_SCENE (test_sobel_threshold_matches_reference),
  TEST_SCENE (test_reference_chain_equals_staged_reference),
  TEST_SCENE (test_fused_matches_reference_for_every_option),
  TEST_SCENE (test_fused_in_bands_equals_whole),
  TEST_SCENE (test_upscale_kernel_matches_reference),
  TEST_SCENE (test_edge_frame_matches_reference),
  TEST_SCENE (test_upscale_frame_matches_reference),
  TEST_SCENE (test_frames_in_flight_match_reference),
  TEST_ONCE (test_frame_slots_reject_misuse_and_report_injected_failure),
};
#define N_TESTS ((int) (sizeof tests / sizeof tests[0]))

static const struct
{
  int w, h;
} sizes[] = {
  {1, 1}, {2, 3}, {3, 2}, {31, 33}, {613, 611}, {1920, 1080}, {4096, 4096},
};

/* ---- cases of GLib's test framework ---- */

/* The context and streams every case uses, made by the first case. */
static gboolean
gpu_ready (void)
{
  static int state;             /* 0: not tried, 1: ready, -1: no GPU */
  ce_status s;
  int count = 0;

  if (state == 0) {
    state = -1;
    s = ce_cuda_device_count (&count);
    if (s != CE_STATUS_OK || count < 1) {
      fprintf (stderr, "\n*************************************************"
          "*********\nSKIP: no CUDA device available (%s) - GPU tests NOT "
          "run\n**************************************************"
          "********\n\n", ce_last_error ());
    } else if ((s = ce_cuda_ctx_new (-1, 3, &ctx)) != CE_STATUS_OK) {
      g_test_fail_printf ("ce_cuda_ctx_new failed: %s (%s)",
          ce_status_string (s), ce_last_error ());
    } else if (CUDA_OK (cudaSetDevice (ce_cuda_ctx_device_id (ctx)))) {
      state = 1;
      for (int i = 0; i < 3; i++)
        if (!CUDA_OK (cudaStreamCreateWithFlags (&streams[i],
                    cudaStreamNonBlocking)))
          state = -1;
      printf ("# device %d: %s%s\n", ce_cuda_ctx_device_id (ctx),
          ce_cuda_ctx_device_name (ctx), quick ? " (--quick)" : "");
    }
  }
  if (state < 0)
    g_test_skip ("SKIP: no usable CUDA device - GPU tests NOT run");
  return state > 0;
}

static void
run_once (gconstpointer data)
{
  const test_case *tc = data;

  if (!gpu_ready ())
    return;
  ce_test_label = "";
  tc->once ();
  free_tracked ();
}

typedef struct
{
  int w, h;
  image_kind kind;
} scene_case;

/* Every per-scene test on one scene, which is costly to make. */
static void
run_scene (gconstpointer data)
{
  const scene_case *c = data;
  scene sc;

  if (!gpu_ready ())
    return;
  if (!scene_new (&sc, c->w, c->h, c->kind)) {
    g_test_fail_printf ("cannot make the %dx%d scene", c->w, c->h);
    return;
  }
  ce_test_label = sc.label;
  for (int t = 0; t < N_TESTS; t++) {
    int before = n_check_failures;

    if (!tests[t].per_scene)
      continue;
    tests[t].per_scene (&sc);
    free_tracked ();
    CUDA_OK (cudaDeviceSynchronize ());
    if (n_check_failures != before)
      printf ("# FAIL %s on %s\n", tests[t].name, sc.label);
  }
  ce_test_label = "";
  scene_free (&sc);
}

/* --quick: only sizes up to 613x611 (for compute-sanitizer runs). */
void
ce_test_register_gpu_core (gboolean quick_run)
{
  static const char *const kinds[IMG_KIND_COUNT] = { "noise", "blocks",
    "mixed"
  };
  static scene_case cases[64];
  int n = 0;

  quick = quick_run;
  for (int t = 0; t < N_TESTS; t++) {
    if (tests[t].once) {
      gchar *path = g_strdup_printf ("/gpu/core/%s", tests[t].name);

      g_test_add_data_func (path, &tests[t], run_once);
      g_free (path);
    }
  }
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    int w = sizes[si].w, h = sizes[si].h;
    size_t px = (size_t) w * h;

    if (quick && px > 613 * 611)
      continue;
    for (int kind = 0; kind < IMG_KIND_COUNT && n < 64; kind++) {
      gchar *path;

      /* fewer images for the large frames */
      if (px > 613 * 611 && kind == IMG_BLOCKS)
        continue;
      if (px > 4000000 && kind != IMG_MIXED)
        continue;
      cases[n].w = w;
      cases[n].h = h;
      cases[n].kind = (image_kind) kind;
      path = g_strdup_printf ("/gpu/core/scene-%dx%d-%s", w, h,
          kinds[kind]);
      g_test_add_data_func (path, &cases[n++], run_scene);
      g_free (path);
    }
  }
}
