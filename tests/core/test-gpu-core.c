/* gst-cudaedge: the GPU kernels and the CUDA context against the CPU
 * reference, byte for byte.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every kernel runs on padded, oddly pitched and cudaMallocPitch'ed device
 * images whose outputs are poisoned before each run, so unwritten pixels
 * and writes into the padding both show.  The kernel cases run on scenes,
 * images of one size and kind (noise, blocks, mixed) with their staged
 * CPU reference: /gpu/core/<case>-<w>x<h>-<kind>.  Every case is skipped,
 * loudly, when there is no usable CUDA device; --quick (runner.c) leaves
 * out the frames larger than 613x611.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cudaedge-core.h"
#include "cudaedge-testing.h"
#include "cudaedge-kernels.h"
#include "cudaedge-staged.h"
#include "ce-core-test.h"

/* ---- checks ---- */

/* A CUDA runtime call; on failure reports and makes the caller return. */
#define CUDA_OK(call) cuda_ok ((call), #call, __FILE__, __LINE__, G_STRFUNC)
#define CUDA_TRY(call) G_STMT_START { \
    if (!CUDA_OK (call)) \
      return; \
  } G_STMT_END

static gboolean
cuda_ok (cudaError_t err, const char *expr, const char *file, int line,
    const char *func)
{
  if (err == cudaSuccess)
    return TRUE;
  ce_test_fail_at (file, line, func, "%s: %s (%s)", expr,
      cudaGetErrorName (err), cudaGetErrorString (err));
  return FALSE;
}

/* A launcher: must return CE_STATUS_OK. */
#define LAUNCH_OK(call) \
  launch_ok ((call), #call, __FILE__, __LINE__, G_STRFUNC)
#define LAUNCH_TRY(call) G_STMT_START { \
    if (!LAUNCH_OK (call)) \
      return; \
  } G_STMT_END

static gboolean
launch_ok (ce_status s, const char *expr, const char *file, int line,
    const char *func)
{
  if (s == CE_STATUS_OK)
    return TRUE;
  ce_test_fail_at (file, line, func, "%s returned %s: %s", expr,
      ce_status_string (s), ce_last_error ());
  return FALSE;
}

/* ---- the context, and allocations freed after each case ---- */

static ce_cuda_ctx *ctx;
static cudaStream_t streams[3];
static GPtrArray *tracked_dev, *tracked_host, *tracked_pinned;

static void
free_tracked (void)
{
  for (guint i = 0; i < tracked_dev->len; i++)
    CUDA_OK (cudaFree (g_ptr_array_index (tracked_dev, i)));
  for (guint i = 0; i < tracked_pinned->len; i++)
    ce_assert_status (ce_cuda_host_free (ctx,
            g_ptr_array_index (tracked_pinned, i)), CE_STATUS_OK);
  g_ptr_array_set_size (tracked_dev, 0);
  g_ptr_array_set_size (tracked_host, 0);       /* g_free */
  g_ptr_array_set_size (tracked_pinned, 0);
}

static void *
host_alloc (size_t size)
{
  void *p = g_malloc (size ? size : 1);
  g_ptr_array_add (tracked_host, p);
  return p;
}

static void *
pinned_alloc (size_t size)
{
  void *p = NULL;
  if (ce_cuda_host_alloc (ctx, size, &p) != CE_STATUS_OK) {
    ce_test_fail ("ce_cuda_host_alloc (%zu): %s", size, ce_last_error ());
    return NULL;
  }
  g_ptr_array_add (tracked_pinned, p);
  return p;
}

/* ---- device images ---- */

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
  g_ptr_array_add (tracked_dev, im->base);
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

/* Padding bytes [row, pitch) of every row still hold the poison. */
static gboolean
check_padding (const char *what, const uint8_t * h, const dimg * im,
    int poison)
{
  return ce_assert_poisoned (what, h, im->pitch, im->row, im->pitch, 0,
      im->rows, poison);
}

/* 8-bit image on the device equals the expected one in rows [r0, r1);
 * every other byte, padding included, still holds the poison. */
static gboolean
expect_u8_rows (const char *what, const uint8_t * exp, size_t exp_stride,
    const dimg * got, int r0, int r1, int poison)
{
  uint8_t *h = dimg_download (got);
  if (!h)
    return FALSE;
  return ce_assert_poisoned (what, h, got->pitch, 0, got->row, 0, r0, poison)
      && ce_assert_poisoned (what, h, got->pitch, 0, got->row, r1, got->rows,
      poison)
      && ce_assert_rows_equal (what, exp, exp_stride, h, got->pitch, got->row,
      r0, r1, poison)
      && check_padding (what, h, got, poison);
}

static gboolean
expect_u8 (const char *what, const uint8_t * exp, size_t exp_stride,
    const dimg * got, int poison)
{
  return expect_u8_rows (what, exp, exp_stride, got, 0, got->rows, poison);
}

/* uint16 B images; the poison 0xA5A5 is a possible B, so a mismatch alone
 * says nothing about unwritten pixels: the padding check does. */
static gboolean
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
    ce_test_fail ("%s: %llu of %zux%d values differ, first at x %zu y %d: "
        "expected %d got %d", what, (unsigned long long) n, w, got->rows, fx,
        fy, fe, fg);
    return 0;
  }
  return check_padding (what, h, got, CE_TEST_POISON);
}

/* int32 (gx, gy) pairs. */
static gboolean
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
    ce_test_fail ("%s: %llu of %zux%d gradients differ, first at x %zu y %d: "
        "expected (%d, %d) got (%d, %d)", what, (unsigned long long) n, w,
        got->rows, fx, fy, fe[0], fe[1], fg[0], fg[1]);
    return 0;
  }
  return check_padding (what, h, got, CE_TEST_POISON);
}

/* Host images: rows equal, and padding [row, stride) still poison. */
static gboolean
expect_host_u8 (const char *what, const uint8_t * exp, size_t exp_stride,
    const uint8_t * got, size_t got_stride, size_t row, int rows, int poison)
{
  return ce_assert_rows_equal (what, exp, exp_stride, got, got_stride, row, 0,
      rows, poison)
      && ce_assert_poisoned (what, got, got_stride, row, got_stride, 0, rows,
      poison);
}

/* ---- test data ---- */

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
  ce_test_seed (seed);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      int v;
      switch (kind) {
        case IMG_NOISE:
          v = ce_test_rand () & 0xFF;
          break;
        case IMG_BLOCKS:
          v = (hash3 (c / 7, r / 5, seed) & 1) ? 255 : 0;
          break;
        default:{
          uint32_t t = hash3 (c / 32, r / 32, seed);
          switch (t % 5) {
            case 0:
              v = ce_test_rand () & 0xFF;
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
  g_free (sc->y);
  g_free (sc->y16);
  for (int m = 0; m < 3; m++) {
    g_free (sc->b[m]);
    g_free (sc->g[0][m]);
    g_free (sc->g[1][m]);
  }
  memset (sc, 0, sizeof *sc);
}

static gboolean
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
  sc->y = g_try_malloc (sc->ys * h);
  sc->y16 = g_try_malloc (sc->bs * h);
  for (int m = 0; m < 3; m++) {
    sc->b[m] = g_try_malloc (sc->bs * h);
    sc->g[0][m] = g_try_malloc (sc->gs * h);
    sc->g[1][m] = g_try_malloc (sc->gs * h);
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
    ce_assert_status (ce_ref_blur (sc->y, sc->ys, w, h, (ce_border_mode) m,
            sc->b[m], sc->bs), CE_STATUS_OK);
    ce_assert_status (ce_ref_sobel (sc->y16, sc->bs, w, h,
            (ce_border_mode) m, sc->g[0][m], sc->gs), CE_STATUS_OK);
    ce_assert_status (ce_ref_sobel (sc->b[m], sc->bs, w, h,
            (ce_border_mode) m, sc->g[1][m], sc->gs), CE_STATUS_OK);
  }
  return TRUE;

oom:
  ce_test_fail ("out of host memory for the %s scene", sc->label);
  scene_free (sc);
  return FALSE;
}

static const double thresholds[] = { 0.0, 0.5, 37.3, 128.0, 2048.0 };
#define N_THRESHOLDS ((int) (sizeof thresholds / sizeof thresholds[0]))

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
  ce_assert_status (ce_ref_threshold (sc->g[blur][border], sc->gs, sc->w, sc->h,
          c, e, *stride), CE_STATUS_OK);
  return e;
}

static void
bands_of (int h, int k, int *r0, int *r1)
{
  *r0 = (int) ((long long) h * k / 3);
  *r1 = (int) ((long long) h * (k + 1) / 3);
}

/* ---- the tests ---- */

static void
test_launchers_reject_bad_arguments (void)
{
  dimg a, b, g;
  uint8_t *d8;
  uint16_t *d16;
  int32_t *d32;
  ce_edge_consts c = ce_test_consts (128.0, 1, CE_BORDER_REPLICATE, CE_NORM_L2,
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
  ce_assert_invalid (ce_launch_luma (NULL, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          16, s), "");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, NULL,
          16, s), "");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 0, 4, 0, 4, d8,
          16, s), "width");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 0, 0, 0, d8,
          16, s), "height");
  ce_assert_invalid (ce_launch_luma (d8, 3, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          16, s), "pitch");
  ce_assert_invalid (ce_launch_luma (d8, 15, CE_FORMAT_RGBA, 4, 4, 0, 4, d8,
          16, s), "pitch");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 4, d8,
          3, s), "pitch");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_COUNT, 4, 4, 0, 4, d8,
          16, s), "format");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 2, 2, d8,
          16, s), "row");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, 0, 5, d8,
          16, s), "row");
  ce_assert_invalid (ce_launch_luma (d8, 16, CE_FORMAT_GRAY8, 4, 4, -1, 4, d8,
          16, s), "row");
  /* fused */
  ce_assert_invalid (ce_launch_edge_fused (NULL, 16, 4, 4, 0, 4, &c, d8, 16, s),
      "");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &c, NULL, 16, s),
      "");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, NULL, d8, 16, s),
      "");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 0, 4, 0, 4, &c, d8, 16, s),
      "width");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, -1, 0, 4, &c, d8, 16, s),
      "height");
  ce_assert_invalid (ce_launch_edge_fused (d8, 3, 4, 4, 0, 4, &c, d8, 16, s),
      "pitch");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &c, d8, 3, s),
      "pitch");
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 3, 1, &c, d8, 16, s),
      "row");
  bad = c;
  bad.border = (ce_border_mode) 3;
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "border");
  bad = c;
  bad.norm = (ce_norm) 7;
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "norm");
  bad = c;
  bad.output = (ce_output) 2;
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "output");
  bad = c;
  bad.scale = 1;                /* blur on needs S = 256 */
  ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &bad, d8, 16, s),
      "scale");
  /* blur */
  ce_assert_invalid (ce_launch_blur (CE_BLUR_VARIANT_COUNT, d8, 16, 4, 4,
          CE_BORDER_ZERO, d16, 16, d16, 16, s), "variant");
  for (int v = 0; v < CE_BLUR_VARIANT_COUNT; v++) {
    g_assert_true (ce_blur_variant_name ((ce_blur_variant) v) != NULL);
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, NULL, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, NULL, 16, s), "");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 16, 0, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "width");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 0,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "height");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 3, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "pitch");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 7, s), "pitch");
    ce_assert_invalid (ce_launch_blur ((ce_blur_variant) v, d8, 16, 4, 4,
            (ce_border_mode) 3, d16, 16, d16, 16, s), "border");
  }
  ce_assert_invalid (ce_launch_blur (CE_BLUR_TWO_PASS, d8, 16, 4, 4,
          CE_BORDER_ZERO, NULL, 16, d16, 16, s), "scratch");
  ce_assert_invalid (ce_launch_blur (CE_BLUR_TWO_PASS, d8, 16, 4, 4,
          CE_BORDER_ZERO, d16, 7, d16, 16, s), "pitch");
  /* sobel */
  ce_assert_invalid (ce_launch_sobel (NULL, 16, 4, 4, CE_BORDER_ZERO, d32, 64,
          s), "");
  ce_assert_invalid (ce_launch_sobel (d16, 16, 4, 4, CE_BORDER_ZERO, NULL, 64,
          s), "");
  ce_assert_invalid (ce_launch_sobel (d16, 16, 0, 4, CE_BORDER_ZERO, d32, 64,
          s), "width");
  ce_assert_invalid (ce_launch_sobel (d16, 7, 4, 4, CE_BORDER_ZERO, d32, 64,
          s), "pitch");
  ce_assert_invalid (ce_launch_sobel (d16, 16, 4, 4, CE_BORDER_ZERO, d32, 31,
          s), "pitch");
  ce_assert_invalid (ce_launch_sobel (d16, 16, 4, 4, (ce_border_mode) 9, d32,
          64, s), "border");
  /* threshold */
  ce_assert_invalid (ce_launch_threshold (NULL, 64, 4, 4, &c, d8, 16, s), "");
  ce_assert_invalid (ce_launch_threshold (d32, 64, 4, 4, NULL, d8, 16, s), "");
  ce_assert_invalid (ce_launch_threshold (d32, 64, 4, 4, &c, NULL, 16, s), "");
  ce_assert_invalid (ce_launch_threshold (d32, 64, 0, 4, &c, d8, 16, s),
      "width");
  ce_assert_invalid (ce_launch_threshold (d32, 31, 4, 4, &c, d8, 16, s),
      "pitch");
  ce_assert_invalid (ce_launch_threshold (d32, 64, 4, 4, &c, d8, 3, s),
      "pitch");
  /* sobel + threshold */
  ce_assert_invalid (ce_launch_sobel_threshold (NULL, 16, 4, 4, &c, d8, 16, s),
      "");
  ce_assert_invalid (ce_launch_sobel_threshold (d16, 16, 4, 4, NULL, d8, 16, s),
      "");
  ce_assert_invalid (ce_launch_sobel_threshold (d16, 16, 4, 4, &c, NULL, 16, s),
      "");
  ce_assert_invalid (ce_launch_sobel_threshold (d16, 16, 4, 0, &c, d8, 16, s),
      "height");
  ce_assert_invalid (ce_launch_sobel_threshold (d16, 7, 4, 4, &c, d8, 16, s),
      "pitch");
  ce_assert_invalid (ce_launch_sobel_threshold (d16, 16, 4, 4, &c, d8, 3, s),
      "pitch");
  /* upscale */
  ce_assert_invalid (ce_launch_upscale2x (NULL, 16, 4, 4, 1, 0, 8, d8, 16, s),
      "");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 8, NULL, 16, s),
      "");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 0, 4, 1, 0, 8, d8, 16, s),
      "width");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 3, 0, 8, d8, 32, s),
      "bytes_per_pixel");
  ce_assert_invalid (ce_launch_upscale2x (d8, 3, 4, 4, 1, 0, 8, d8, 16, s),
      "pitch");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 8, d8, 7, s),
      "pitch");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 4, 0, 8, d8, 31, s),
      "pitch");
  ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 9, d8, 16, s),
      "row");
  /* pitches whose planes span more than memory holds */
  {
    const size_t huge = (size_t) 1 << 62;
    ce_assert_invalid (ce_launch_luma (d8, huge, CE_FORMAT_GRAY8, 4, 4, 0, 4,
            d8, 16, s), "spans");
    ce_assert_invalid (ce_launch_edge_fused (d8, 16, 4, 4, 0, 4, &c, d8, huge,
            s), "spans");
    ce_assert_invalid (ce_launch_edge_fused (d8, huge, 4, 4, 0, 4, &c, d8, 16,
            s), "spans");
    ce_assert_invalid (ce_launch_blur (CE_BLUR_SEPARABLE, d8, huge, 4, 4,
            CE_BORDER_ZERO, d16, 16, d16, 16, s), "spans");
    ce_assert_invalid (ce_launch_sobel (d16, 16, 4, 4, CE_BORDER_ZERO, d32,
            huge, s), "spans");
    ce_assert_invalid (ce_launch_threshold (d32, 64, 4, 4, &c, d8, huge, s),
        "spans");
    ce_assert_invalid (ce_launch_upscale2x (d8, huge, 4, 4, 1, 0, 8, d8, 16,
            s), "spans");
    ce_assert_invalid (ce_launch_upscale2x (d8, 16, 4, 4, 1, 0, 8, d8, huge,
            s), "spans");
  }
  /* nothing above may have launched a kernel */
  g_assert_true (cudaGetLastError () == cudaSuccess);
  g_assert_true (cudaDeviceSynchronize () == cudaSuccess);

  /* context */
  ce_assert_invalid (ce_cuda_ctx_new (-1, 1, &other), "");
  g_assert_true (other == NULL);
  ce_assert_status (ce_cuda_device_count (&count), CE_STATUS_OK);
  ce_assert_status (ce_cuda_ctx_new (count + 3, 2, &other),
      CE_STATUS_NO_DEVICE);
  g_assert_true (other == NULL);
  memset (h, 0, sizeof h);
  f.data = h;
  f.stride = 8;
  f.width = 8;
  f.height = 8;
  f.format = CE_FORMAT_GRAY8;
  ce_edge_params_init (&p);
  ce_assert_invalid (ce_cuda_edge_frame (NULL, &f, &p, h, 8, NULL), "");
  ce_assert_invalid (ce_cuda_edge_frame (ctx, NULL, &p, h, 8, NULL), "");
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, NULL, h, 8, NULL), "");
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, NULL, 8, NULL), "");
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, h, 7, NULL), "stride");
  f.width = 0;
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "width");
  f.width = 8;
  f.stride = 7;
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "stride");
  f.stride = 8;
  p.threshold = NAN;
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, h, 8, NULL), "threshold");
  ce_assert_invalid (ce_cuda_upscale2x_frame (ctx, h, 4, 4, 4, 2, h, 16, NULL),
      "");
  ce_assert_invalid (ce_cuda_upscale2x_frame (ctx, h, 4, 4, 4, 1, h, 7, NULL),
      "stride");
  ce_assert_invalid (ce_cuda_upscale2x_frame (ctx, NULL, 4, 4, 4, 1, h, 8,
          NULL), "");
  ce_assert_invalid (ce_cuda_upscale2x_frame (NULL, h, 4, 4, 4, 1, h, 8, NULL),
      "");
}

static void
test_luma_matches_reference_for_every_format (const scene * sc)
{
  int w = sc->w, h = sc->h;
  for (int fi = 0; fi < CE_FORMAT_COUNT; fi++) {
    ce_format fmt = (ce_format) fi;
    size_t row = ce_test_row_bytes (fmt, w);
    size_t stride = row + 11;
    uint8_t *src = host_alloc (stride * h);
    size_t es = w + 5;
    uint8_t *exp = host_alloc (es * h);
    ce_frame f;
    dimg ds, dl;
    char what[96];
    int lay = fi % 2;

    ce_test_seed (77 + fi * 1000 + w);
    for (size_t i = 0; i < stride * h; i++)
      src[i] = (uint8_t) ce_test_rand ();
    f.data = src;
    f.stride = stride;
    f.width = w;
    f.height = h;
    f.format = fmt;
    ce_assert_status (ce_ref_luma (&f, exp, es), CE_STATUS_OK);

    if (!dimg_new (&ds, row, h, 1, lay)
        || !dimg_new (&dl, w, h, 1, 1 - lay)
        || !dimg_upload (&ds, src, stride)
        || !dimg_poison (&dl, CE_TEST_POISON))
      return;
    snprintf (what, sizeof what, "luma %s", ce_format_name (fmt));
    LAUNCH_TRY (ce_launch_luma (ds.p, ds.pitch, fmt, w, h, 0, h, dl.p,
            dl.pitch, streams[0]));
    if (!sync_all ())
      return;
    expect_u8 (what, exp, es, &dl, CE_TEST_POISON);

    /* in three bands on three streams */
    if (!dimg_poison (&dl, CE_TEST_POISON2))
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
    expect_u8 (what, exp, es, &dl, CE_TEST_POISON2);
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
            || !dimg_poison (&db, CE_TEST_POISON))
          return;
        if (v == CE_BLUR_TWO_PASS) {
          if (!dimg_new (&dscr, 2 * (size_t) w, h, 2, lay)
              || !dimg_poison (&dscr, CE_TEST_POISON))
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
            ce_blur_variant_name ((ce_blur_variant) v),
            ce_test_border_name (m), lay);
        expect_u16 (what, sc->b[m], sc->bs, &db);
      }
  }
}

static void
test_sobel_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int lay = 0; lay < 2; lay++) {
        dimg db, dg;
        char what[96];
        if (!dimg_new (&db, 2 * (size_t) w, h, 2, lay)
            || !dimg_new (&dg, 8 * (size_t) w, h, 4, 1 - lay)
            || !dimg_upload (&db, blur ? sc->b[m] : sc->y16, sc->bs)
            || !dimg_poison (&dg, CE_TEST_POISON))
          return;
        LAUNCH_TRY (ce_launch_sobel ((const uint16_t *) db.p, db.pitch, w, h,
                (ce_border_mode) m, (int32_t *) dg.p, dg.pitch, streams[m]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "sobel blur %d %s layout %d", blur,
            ce_test_border_name (m), lay);
        expect_grad (what, sc->g[blur][m], sc->gs, &dg);
      }
}

static void
test_threshold_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  combo cs[32];
  int nc = make_combos (cs);
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m += 1) {
      dimg dg;
      int lay = (blur + m) % 2;
      if (!dimg_new (&dg, 8 * (size_t) w, h, 4, lay)
          || !dimg_upload (&dg, sc->g[blur][m], sc->gs))
        return;
      for (int k = 0; k < nc; k++) {
        ce_edge_consts c = ce_test_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        dimg dd;
        char what[128];
        int poison = (k % 2) ? CE_TEST_POISON2 : CE_TEST_POISON;
        if (!dimg_new (&dd, w, h, 1, 1 - lay) || !dimg_poison (&dd, poison))
          return;
        LAUNCH_TRY (ce_launch_threshold ((const int32_t *) dg.p, dg.pitch, w,
                h, &c, dd.p, dd.pitch, streams[k % 3]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "threshold blur %d %s t %g %s", blur,
            ce_test_norm_name (cs[k].norm), cs[k].t,
            ce_test_output_name (cs[k].out));
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
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++) {
      dimg db;
      int lay = (blur + m) % 2;
      if (!dimg_new (&db, 2 * (size_t) w, h, 2, lay)
          || !dimg_upload (&db, blur ? sc->b[m] : sc->y16, sc->bs))
        return;
      for (int k = 0; k < nc; k++) {
        ce_edge_consts c = ce_test_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        dimg dd;
        char what[128];
        int poison = (k % 2) ? CE_TEST_POISON2 : CE_TEST_POISON;
        if (!dimg_new (&dd, w, h, 1, 1 - lay) || !dimg_poison (&dd, poison))
          return;
        LAUNCH_TRY (ce_launch_sobel_threshold ((const uint16_t *) db.p,
                db.pitch, w, h, &c, dd.p, dd.pitch, streams[k % 3]));
        if (!sync_all ())
          return;
        snprintf (what, sizeof what, "sobel_threshold blur %d %s %s t %g %s",
            blur, ce_test_border_name (m), ce_test_norm_name (cs[k].norm),
            cs[k].t, ce_test_output_name (cs[k].out));
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
        ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
        exp = expected_output (sc, blur, m, &c, &es);
        memset (got, CE_TEST_POISON, ds * h);
        ce_assert_status (ce_ref_edge (sc->y, sc->ys, w, h, &p, got, ds),
            CE_STATUS_OK);
        snprintf (what, sizeof what, "ce_ref_edge blur %d %s combo %d", blur,
            ce_test_border_name (m), k);
        expect_host_u8 (what, exp, es, got, ds, w, h, CE_TEST_POISON);
      }
}

/* The input and output layouts of the fused tests: either one unaligned
 * (every strip takes the general path), or both aligned (interior strips
 * in the inner lanes, general strips at the borders). */
#define FUSED_LAYOUTS 3
static const int fused_in_layout[FUSED_LAYOUTS] = {
  LAYOUT_PADDED, LAYOUT_PITCHED, LAYOUT_PITCHED
};
static const int fused_out_layout[FUSED_LAYOUTS] = {
  LAYOUT_PITCHED, LAYOUT_PADDED, LAYOUT_PITCHED
};

/* Every combination (or, with l2_edges_only, those of the l2 edges). */
static void
fused_matches_reference (const scene * sc, gboolean l2_edges_only)
{
  int w = sc->w, h = sc->h;
  combo cs[32];
  int nc = make_combos (cs);
  dimg dy[FUSED_LAYOUTS], dd[FUSED_LAYOUTS];
  for (int lay = 0; lay < FUSED_LAYOUTS; lay++)
    if (!dimg_new (&dy[lay], w, h, 1, fused_in_layout[lay])
        || !dimg_upload (&dy[lay], sc->y, sc->ys)
        || !dimg_new (&dd[lay], w, h, 1, fused_out_layout[lay]))
      return;
  for (int blur = 0; blur < 2; blur++)
    for (int m = 0; m < 3; m++)
      for (int k = 0; k < nc; k++) {
        if (l2_edges_only && (cs[k].norm != CE_NORM_L2
                || cs[k].out != CE_OUTPUT_EDGES))
          continue;
        ce_edge_consts c = ce_test_consts (cs[k].t, blur, (ce_border_mode) m,
            cs[k].norm, cs[k].out);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        for (int lay = 0; lay < FUSED_LAYOUTS; lay++) {
          char what[128];
          int poison = lay % 2 ? CE_TEST_POISON2 : CE_TEST_POISON;
          if (!dimg_poison (&dd[lay], poison))
            return;
          LAUNCH_TRY (ce_launch_edge_fused (dy[lay].p, dy[lay].pitch, w, h,
                  0, h, &c, dd[lay].p, dd[lay].pitch, streams[lay]));
          if (!sync_all ())
            return;
          snprintf (what, sizeof what, "fused blur %d %s %s t %g %s "
              "layout %d", blur, ce_test_border_name (m),
              ce_test_norm_name (cs[k].norm), cs[k].t,
              ce_test_output_name (cs[k].out), lay);
          expect_u8 (what, exp, es, &dd[lay], poison);
        }
        /* expected outputs of big frames are large: let them go */
        if (tracked_host->len > 8)
          g_ptr_array_set_size (tracked_host, 0);
      }
}

static void
test_fused_matches_reference_for_every_option (const scene * sc)
{
  fused_matches_reference (sc, FALSE);
}

/* The l2 edges of the strip kernel in each of their two forms, whatever
 * the frame's size would pick (integers up to about 6 Mpx, floats from
 * there; small frames take the short kernel, which has one form), and
 * the float form with every row settled exactly (form 2). */
static void
test_fused_l2_edges_in_either_form_match_reference (const scene * sc)
{
  for (int form = 0; form < 3; form++) {
    const int was = ce_fused_set_l2_edges_form (form);
    fused_matches_reference (sc, TRUE);
    ce_fused_set_l2_edges_form (was);
  }
}

/* The same with the interior of blurred frames on tensor cores (off by
 * default): exact too, where the device and the build run it. */
static void
test_fused_on_tensor_cores_matches_reference (const scene * sc)
{
  const int was = ce_fused_set_tensor_cores (1);
  static gboolean told;
  if (!told) {
    g_test_message ("the fused kernel takes blurred interiors to tensor "
        "cores on this device when allowed: %s",
        ce_fused_tensor_cores_used ()? "yes" : "NO (CUDA cores only)");
    told = TRUE;
  }
  test_fused_matches_reference_for_every_option (sc);
  ce_fused_set_tensor_cores (was);
}

/* Rows [0, h/3), [h/3, 2h/3), [2h/3, h) separately give the whole; the
 * first band alone writes its rows only. */
static void
test_fused_in_bands_equals_whole (const scene * sc)
{
  int w = sc->w, h = sc->h;
  dimg dys[2], dds[2];
  /* padded: unaligned, general strips only; pitched: interior strips */
  for (int lay = 0; lay < 2; lay++)
    if (!dimg_new (&dys[lay], w, h, 1, lay ? LAYOUT_PITCHED : LAYOUT_PADDED)
        || !dimg_upload (&dys[lay], sc->y, sc->ys)
        || !dimg_new (&dds[lay], w, h, 1,
            lay ? LAYOUT_PITCHED : LAYOUT_PADDED))
      return;
  for (int lb = 0; lb < 4; lb++)      /* layout, blur */
    for (int m = 0; m < 3; m++)
      for (int k = 0; k < 2; k++) {
        const int lay = lb / 2, blur = lb % 2;
        ce_edge_consts c = k ?
            ce_test_consts (37.3, blur, (ce_border_mode) m, CE_NORM_L2,
            CE_OUTPUT_EDGES) :
            ce_test_consts (0.0, blur, (ce_border_mode) m, CE_NORM_L1,
            CE_OUTPUT_MAGNITUDE);
        size_t es;
        uint8_t *exp = expected_output (sc, blur, m, &c, &es);
        char what[96];
        int r0, r1;
        dimg dy = dys[lay], dd = dds[lay];
        snprintf (what, sizeof what, "fused bands blur %d %s %s layout %d",
            blur, ce_test_border_name (m),
            k ? "l2 edges 37.3" : "l1 magnitude", lay);

        /* one band, then the rest */
        if (!dimg_poison (&dd, CE_TEST_POISON))
          return;
        bands_of (h, 1, &r0, &r1);
        if (r0 < r1) {
          LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1, &c,
                  dd.p, dd.pitch, streams[1]));
          if (!sync_all ())
            return;
          expect_u8_rows (what, exp, es, &dd, r0, r1, CE_TEST_POISON);
        }
        for (int b = 0; b < 3; b += 2) {
          bands_of (h, b, &r0, &r1);
          if (r0 < r1)
            LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1,
                    &c, dd.p, dd.pitch, streams[b]));
        }
        if (!sync_all ())
          return;
        expect_u8 (what, exp, es, &dd, CE_TEST_POISON);

        /* all three at once on three streams */
        if (!dimg_poison (&dd, CE_TEST_POISON2))
          return;
        for (int b = 0; b < 3; b++) {
          bands_of (h, b, &r0, &r1);
          if (r0 < r1)
            LAUNCH_TRY (ce_launch_edge_fused (dy.p, dy.pitch, w, h, r0, r1,
                    &c, dd.p, dd.pitch, streams[b]));
        }
        if (!sync_all ())
          return;
        expect_u8 (what, exp, es, &dd, CE_TEST_POISON2);
      }
}

static void
test_upscale_kernel_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
  for (int bpp = 1; bpp <= 4; bpp += 3) {
    size_t row = (size_t) w * bpp;
    size_t ss = row + 4 * bpp + 1;
    size_t es = 2 * row + 9;
    uint8_t *src = host_alloc (ss * h);
    uint8_t *exp = host_alloc (es * 2 * h);
    ce_test_seed (99 + w + bpp);
    for (size_t i = 0; i < ss * h; i++)
      src[i] = (uint8_t) ce_test_rand ();
    if (bpp == 1)
      for (int r = 0; r < h; r++)
        memcpy (src + r * ss, sc->y + r * sc->ys, w);
    ce_assert_status (ce_ref_upscale2x (src, ss, w, h, bpp, exp, es),
        CE_STATUS_OK);
    for (int lay = 0; lay < 2; lay++) {
      dimg ds, dd;
      char what[96];
      int r0, r1;
      if (!dimg_new (&ds, row, h, bpp, lay)
          || !dimg_new (&dd, 2 * row, 2 * h, bpp, 1 - lay)
          || !dimg_upload (&ds, src, ss) || !dimg_poison (&dd, CE_TEST_POISON))
        return;
      LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, 0, 2 * h,
              dd.p, dd.pitch, streams[lay]));
      if (!sync_all ())
        return;
      snprintf (what, sizeof what, "upscale2x bpp %d layout %d", bpp, lay);
      expect_u8 (what, exp, es, &dd, CE_TEST_POISON);

      /* bands of the 2H output rows: the middle one alone, then the rest */
      if (!dimg_poison (&dd, CE_TEST_POISON2))
        return;
      bands_of (2 * h, 1, &r0, &r1);
      LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, r0, r1,
              dd.p, dd.pitch, streams[1]));
      if (!sync_all ())
        return;
      snprintf (what, sizeof what, "upscale2x bpp %d layout %d bands", bpp,
          lay);
      expect_u8_rows (what, exp, es, &dd, r0, r1, CE_TEST_POISON2);
      for (int b = 0; b < 3; b += 2) {
        bands_of (2 * h, b, &r0, &r1);
        if (r0 < r1)
          LAUNCH_TRY (ce_launch_upscale2x (ds.p, ds.pitch, w, h, bpp, r0, r1,
                  dd.p, dd.pitch, streams[b]));
      }
      if (!sync_all ())
        return;
      expect_u8 (what, exp, es, &dd, CE_TEST_POISON2);
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
    size_t row = ce_test_row_bytes (fmt, w);
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
    ce_assert_status (ce_luma_layout_get (fmt, &lay), CE_STATUS_OK);
    /* structure from the scene in the luma (or in R, G, B), noise in the
     * other bytes */
    ce_test_seed (1234 + fi);
    for (size_t i = 0; i < stride * h; i++)
      src[i] = (uint8_t) ce_test_rand ();
    for (int r = 0; r < h; r++)
      for (int c = 0; c < w; c++) {
        uint8_t v = sc->y[r * sc->ys + c];
        uint8_t *px = src + r * stride + (size_t) c * lay.bytes_per_pixel;
        if (lay.is_rgb) {
          px[lay.r_offset] = v;
          px[lay.g_offset] = (uint8_t) (v ^ (ce_test_rand () & 7));
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
      ce_assert_status (ce_ref_edge_frame (&f, &params[pi], exp, es),
          CE_STATUS_OK);
      for (int bi = 0; bi < 4; bi++)
        for (int mem = 0; mem < MEM_COUNT; mem++) {
          uint8_t *out = mem == MEM_PINNED ? dst_pinned : dst;
          ce_timing t;
          char what[160];
          int poison = (bi + mem) % 2 ? CE_TEST_POISON2 : CE_TEST_POISON;
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
            ce_test_fail ("%s: timing %g %g %g", what, t.upload_us, t.kernel_us,
                t.download_us);
          /* the source is left as it was */
          if (memcmp (f.data, src, stride * h) != 0)
            ce_test_fail ("%s: source modified", what);
        }
    }
  }
  ce_cuda_ctx_set_bands (ctx, 0);
  g_assert_true (cudaGetLastError () == cudaSuccess);
}

static void
test_upscale_frame_matches_reference (const scene * sc)
{
  int w = sc->w, h = sc->h;
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
    ce_test_seed (4321 + bpp);
    for (size_t i = 0; i < ss * h; i++)
      src[i] = (uint8_t) ce_test_rand ();
    for (int r = 0; r < h; r++)
      for (int c = 0; c < w; c++)
        src[r * ss + (size_t) c * bpp] = sc->y[r * sc->ys + c];
    memcpy (src_pinned, src, ss * h);
    ce_assert_status (ce_ref_upscale2x (src, ss, w, h, bpp, exp, es),
        CE_STATUS_OK);
    for (int bi = 0; bi < 4; bi++)
      for (int mem = 0; mem < 2; mem++) {
        uint8_t *in = mem ? src_pinned : src;
        uint8_t *out = mem ? dst_pinned : dst;
        char what[128];
        int poison = (bi + mem) % 2 ? CE_TEST_POISON2 : CE_TEST_POISON;
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
  ce_assert_status (ce_ref_edge_frame (&fa, &pa, ea, ds), CE_STATUS_OK);
  ce_assert_status (ce_ref_edge_frame (&fb, &pb, eb, ds), CE_STATUS_OK);
  ce_assert_status (ce_ref_edge_frame (&fc, &pc, ec, ds), CE_STATUS_OK);
  memset (da, CE_TEST_POISON, ds * h);
  memset (db, CE_TEST_POISON2, ds * h);
  memset (dc, CE_TEST_POISON, ds * h);

  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fa, &pa, da, ds));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 1, &fb, &pb, db, ds));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fc, &pc, dc, ds));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 1, NULL));
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  expect_host_u8 ("in flight: GRAY8 slot 0", ea, ds, da, ds, w, h,
      CE_TEST_POISON);
  expect_host_u8 ("in flight: RGBA slot 1 (staged dst)", eb, ds, db, ds, w,
      h, CE_TEST_POISON2);
  expect_host_u8 ("in flight: GRAY8 magnitude slot 0 again", ec, ds, dc, ds,
      w, h, CE_TEST_POISON);

  /* The upscale shares the slots. */
  {
    size_t us = 8 * (size_t) w + 4;
    uint8_t *up = pinned_alloc (us * 2 * h);
    uint8_t *ue = host_alloc (us * 2 * h);
    if (!up)
      return;
    memset (up, CE_TEST_POISON, us * 2 * h);
    ce_assert_status (ce_ref_upscale2x (rgba, rs, w, h, 4, ue, us),
        CE_STATUS_OK);
    LAUNCH_TRY (ce_cuda_upscale2x_frame_submit (ctx, 1, rgba, rs, w, h, 4,
            up, us));
    LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &fa, &pa, da, ds));
    LAUNCH_TRY (ce_cuda_frame_wait (ctx, 1, NULL));
    LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
    expect_host_u8 ("in flight: upscale RGBA slot 1", ue, us, up, us,
        8 * (size_t) w, 2 * h, CE_TEST_POISON);
    expect_host_u8 ("in flight: GRAY8 beside the upscale", ea, ds, da, ds,
        w, h, CE_TEST_POISON);
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

  ce_test_seed (77);
  for (int i = 0; i < W * H; i++)
    y[i] = (uint8_t) ce_test_rand ();
  ce_edge_params_init (&p);
  p.threshold = 20;
  f.data = y;
  f.stride = W;
  f.width = W;
  f.height = H;
  f.format = CE_FORMAT_GRAY8;
  ce_assert_status (ce_ref_edge_frame (&f, &p, e, W), CE_STATUS_OK);

  ce_assert_invalid (ce_cuda_edge_frame_submit (ctx, CE_CUDA_SLOTS, &f, &p, d, W), "slot");
  ce_assert_invalid (ce_cuda_edge_frame_submit (ctx, -1, &f, &p, d, W), "slot");
  ce_assert_invalid (ce_cuda_frame_wait (ctx, 1, NULL), "slot");
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W));
  ce_assert_invalid (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W), "slot");
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &p, d, W, NULL), "slot");
  LAUNCH_TRY (ce_cuda_frame_wait (ctx, 0, NULL));
  ce_assert_invalid (ce_cuda_frame_wait (ctx, 0, NULL), "slot");

  ce_cuda_ctx_inject_failure (ctx, 2);
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, d, W));
  LAUNCH_TRY (ce_cuda_edge_frame_submit (ctx, 1, &f, &p, d2, W));
  ce_assert_status (ce_cuda_frame_wait (ctx, 0, NULL), CE_STATUS_OK);
  s = ce_cuda_frame_wait (ctx, 1, NULL);
  g_assert_true (s == CE_STATUS_CUDA_ERROR);
  g_assert_true (strstr (ce_last_error (), "inject") != NULL);
  memset (d, CE_TEST_POISON, W * H);
  LAUNCH_TRY (ce_cuda_edge_frame (ctx, &f, &p, d, W, NULL));
  expect_host_u8 ("frame after an injected failure", e, W, d, W, W, H,
      CE_TEST_POISON);
}

/* ---- cases ---- */

/* Which scenes a kernel case runs on. */
enum
{
  ON_EVERY_SCENE = 0,
  UP_TO_4M = 1 << 0,            /* frames of 4 Mpixels at most */
  NO_BLOCKS = 1 << 1,           /* noise and mixed */
  MIXED_ONLY = 1 << 2,
};

typedef struct
{
  const char *name;
  void (*func) (const scene * sc);
  int only;
} scene_test;

static const scene_test scene_tests[] = {
  {"luma-matches-reference-for-every-format",
      test_luma_matches_reference_for_every_format, UP_TO_4M | NO_BLOCKS},
  {"blur-variants-match-reference", test_blur_variants_match_reference,
      ON_EVERY_SCENE},
  {"sobel-matches-reference", test_sobel_matches_reference, UP_TO_4M},
  {"threshold-matches-reference", test_threshold_matches_reference,
      UP_TO_4M},
  {"sobel-threshold-matches-reference",
      test_sobel_threshold_matches_reference, UP_TO_4M},
  {"reference-chain-equals-staged-reference",
      test_reference_chain_equals_staged_reference, UP_TO_4M},
  {"fused-matches-reference-for-every-option",
      test_fused_matches_reference_for_every_option, ON_EVERY_SCENE},
  {"fused-in-bands-equals-whole", test_fused_in_bands_equals_whole,
      ON_EVERY_SCENE},
  {"fused-on-tensor-cores-matches-reference",
      test_fused_on_tensor_cores_matches_reference, MIXED_ONLY},
  {"fused-l2-edges-in-either-form-match-reference",
      test_fused_l2_edges_in_either_form_match_reference, MIXED_ONLY},
  {"upscale-kernel-matches-reference", test_upscale_kernel_matches_reference,
      UP_TO_4M | NO_BLOCKS},
  {"edge-frame-matches-reference", test_edge_frame_matches_reference,
      UP_TO_4M | MIXED_ONLY},
  {"upscale-frame-matches-reference", test_upscale_frame_matches_reference,
      UP_TO_4M | MIXED_ONLY},
  {"frames-in-flight-match-reference", test_frames_in_flight_match_reference,
      UP_TO_4M | MIXED_ONLY},
};

typedef struct
{
  const char *name;
  void (*func) (void);
} once_test;

static const once_test once_tests[] = {
  {"launchers-reject-bad-arguments", test_launchers_reject_bad_arguments},
  {"frame-slots-reject-misuse-and-report-injected-failure",
      test_frame_slots_reject_misuse_and_report_injected_failure},
};

static const struct
{
  int w, h;
} sizes[] = {
  {1, 1}, {2, 3}, {3, 2}, {31, 33}, {613, 611}, {641, 481}, {1283, 37},
  {1920, 1080}, {2565, 1443}, {3843, 2163}, {4096, 4096},
};

/* Fewer images for the large frames; with --quick, of the frames larger
 * than 613x611 only 1920x1080 with the mixed image, so that the
 * sanitizers see the strip kernel too. */
static gboolean
scene_wanted (int w, int h, image_kind kind)
{
  size_t px = (size_t) w * h;

  if (px > 613 * 611 && ce_test_quick)
    return w == 1920 && h == 1080 && kind == IMG_MIXED;
  if (px > 613 * 611 && kind == IMG_BLOCKS)
    return FALSE;
  return px <= 4000000 || kind == IMG_MIXED;
}

static gboolean
runs_on (const scene_test * t, int w, int h, image_kind kind)
{
  if ((t->only & UP_TO_4M) && (size_t) w * h > 4000000)
    return FALSE;
  if ((t->only & NO_BLOCKS) && kind == IMG_BLOCKS)
    return FALSE;
  if ((t->only & MIXED_ONLY) && kind != IMG_MIXED)
    return FALSE;
  return TRUE;
}

/* The context and streams every case uses, made by the first case that
 * runs.  FALSE, and the case skipped (no usable GPU) or failed (a CUDA
 * error), when there are none. */
static gboolean
gpu_ready (void)
{
  static int state;             /* 0: not tried, 1: ready, -1: no GPU,
                                 * -2: failed */
  static char *why;

  if (state == 0) {
    int count = 0;
    ce_status s = ce_cuda_device_count (&count);
    cudaError_t err = cudaSuccess;

    state = -1;
    if (s != CE_STATUS_OK || count < 1) {
      why = g_strdup (ce_last_error ());
    } else if ((s = ce_cuda_ctx_new (-1, 3, &ctx)) != CE_STATUS_OK) {
      /* a GPU the build cannot run on is no usable device */
      why = g_strdup_printf ("ce_cuda_ctx_new: %s (%s)",
          ce_status_string (s), ce_last_error ());
      state = s == CE_STATUS_NO_DEVICE ? -1 : -2;
    } else if ((err = cudaSetDevice (ce_cuda_ctx_device_id (ctx)))
        != cudaSuccess) {
      why = g_strdup_printf ("cudaSetDevice: %s", cudaGetErrorString (err));
      state = -2;
    } else {
      state = 1;
      for (int i = 0; i < 3 && state == 1; i++)
        if ((err = cudaStreamCreateWithFlags (&streams[i],
                    cudaStreamNonBlocking)) != cudaSuccess) {
          why = g_strdup_printf ("cudaStreamCreateWithFlags: %s",
              cudaGetErrorString (err));
          state = -2;
        }
    }
    if (state == 1)
      g_test_message ("device %d: %s%s", ce_cuda_ctx_device_id (ctx),
          ce_cuda_ctx_device_name (ctx) ? ce_cuda_ctx_device_name (ctx) : "?",
          ce_test_quick ? " (--quick)" : "");
    else if (state == -1)
      g_printerr ("\n**********************************************************"
          "\nSKIP: no CUDA device: %s - the /gpu/core cases are NOT run\n"
          "**********************************************************\n\n",
          why);
  }
  if (state == -1) {
    char *msg = g_strdup_printf ("SKIP: no CUDA device: %s", why);
    g_test_skip (msg);
    g_free (msg);
  } else if (state == -2) {
    ce_test_fail ("no CUDA context: %s", why);
  }
  return state == 1;
}

/* After each case: its allocations go, its work is finished. */
static void
end_case (void)
{
  free_tracked ();
  CUDA_OK (cudaDeviceSynchronize ());
}

static void
run_once (gconstpointer data)
{
  const once_test *t = data;

  if (!gpu_ready ())
    return;
  t->func ();
  end_case ();
}

typedef struct
{
  const scene_test *test;
  int w, h;
  image_kind kind;
} scene_case;

/* Making a scene (its staged CPU reference) is what costs on the large
 * frames: the cases come scene by scene and share the last one made. */
static scene cached_scene;

static const scene *
get_scene (int w, int h, image_kind kind)
{
  scene *sc = &cached_scene;

  if (sc->y && sc->w == w && sc->h == h && sc->kind == kind)
    return sc;
  scene_free (sc);
  return scene_new (sc, w, h, kind) ? sc : NULL;
}

static void
run_scene_case (gconstpointer data)
{
  const scene_case *c = data;
  const scene *sc;

  if (!gpu_ready ())
    return;
  sc = get_scene (c->w, c->h, c->kind);
  if (!sc)
    return;
  c->test->func (sc);
  end_case ();
}

static GPtrArray *scene_cases;

static void
gpu_core_end (void)
{
  scene_free (&cached_scene);
  if (ctx) {
    for (int i = 0; i < 3; i++)
      if (streams[i])
        cudaStreamDestroy (streams[i]);
    ce_cuda_ctx_free (ctx);
    ctx = NULL;
  }
  g_ptr_array_unref (scene_cases);
  g_ptr_array_unref (tracked_dev);
  g_ptr_array_unref (tracked_host);
  g_ptr_array_unref (tracked_pinned);
}

/* /gpu/core/<case> once, then /gpu/core/<case>-<w>x<h>-<kind> scene by
 * scene (one level below /gpu/core, where -p finds them). */
void
ce_test_register_gpu_core (void)
{
  tracked_dev = g_ptr_array_new ();
  tracked_host = g_ptr_array_new_with_free_func (g_free);
  tracked_pinned = g_ptr_array_new ();
  scene_cases = g_ptr_array_new_with_free_func (g_free);
  ce_test_at_end (gpu_core_end);

  for (size_t i = 0; i < G_N_ELEMENTS (once_tests); i++) {
    char *path = g_strdup_printf ("/gpu/core/%s", once_tests[i].name);
    ce_test_add_data (path, &once_tests[i], run_once);
    g_free (path);
  }
  for (size_t si = 0; si < G_N_ELEMENTS (sizes); si++) {
    int w = sizes[si].w, h = sizes[si].h;
    for (int kind = 0; kind < IMG_KIND_COUNT; kind++) {
      if (!scene_wanted (w, h, (image_kind) kind))
        continue;
      for (size_t t = 0; t < G_N_ELEMENTS (scene_tests); t++) {
        scene_case *c;
        char *path;

        if (!runs_on (&scene_tests[t], w, h, (image_kind) kind))
          continue;
        c = g_new0 (scene_case, 1);
        c->test = &scene_tests[t];
        c->w = w;
        c->h = h;
        c->kind = (image_kind) kind;
        g_ptr_array_add (scene_cases, c);
        path = g_strdup_printf ("/gpu/core/%s-%dx%d-%s", scene_tests[t].name,
            w, h, kind_names[kind]);
        ce_test_add_data (path, c, run_scene_case);
        g_free (path);
      }
    }
  }
}
