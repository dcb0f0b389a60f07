/* gst-cudaedge: the fast CPU bilinear 2x upscale against the CPU reference.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ce_cpu_upscale2x_rows() must give exactly the bytes of ce_ref_upscale2x()
 * (memcmp, no tolerance) for both pixel sizes, every size, stride and row
 * band, write nothing outside its band, and refuse bad arguments.  The
 * timings it reports (/cpu/upscale/timing) are informative only and never
 * asserted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "ce-core-test.h"

/* ---- helpers ---- */

typedef enum
{
  PAT_RANDOM = 0,               /* every byte random */
  PAT_CHECKER,                  /* 0 / 255 checkerboard, per pixel */
  PAT_CHECKER_BYTES,            /* 0 / 255 checkerboard, per byte */
  PAT_ALL_255,                  /* everything 255 (the largest sums) */
  PAT_EXTREMES,                 /* random 0 / 255 per byte */
  PAT_COUNT
} pattern;

typedef struct
{
  uint8_t *mem;
  size_t stride;
  int w, h, bpp;
} test_image;

/* stride = row bytes + pad; the padding is random too. */
static test_image
make_image (int w, int h, int bpp, size_t pad, pattern pat)
{
  test_image t;
  t.w = w;
  t.h = h;
  t.bpp = bpp;
  t.stride = (size_t) w * bpp + pad;
  t.mem = g_malloc (t.stride * h);
  ce_test_fill_random (t.mem, t.stride * h);
  for (int y = 0; y < h; y++) {
    uint8_t *row = t.mem + (size_t) y * t.stride;
    for (int x = 0; x < w; x++) {
      for (int c = 0; c < bpp; c++) {
        uint8_t *p = row + (size_t) x * bpp + c;
        switch (pat) {
          case PAT_RANDOM:
            break;
          case PAT_CHECKER:
            *p = ((x + y) & 1) ? 255 : 0;
            break;
          case PAT_CHECKER_BYTES:
            *p = ((x + y + c) & 1) ? 255 : 0;
            break;
          case PAT_ALL_255:
            *p = 255;
            break;
          case PAT_EXTREMES:
            *p = (ce_test_rand () & 1) ? 255 : 0;
            break;
          default:
            break;
        }
      }
    }
  }
  return t;
}

static const char *const pattern_names[] = {
  "random", "checker", "checker-bytes", "all-255", "extremes"
};

/* Runs ce_cpu_upscale2x_rows over [0, 2H) in bands into a poisoned image
 * with dst_pad bytes past each row, and compares with the reference: the
 * image by memcmp, the padding still poisoned.  Returns TRUE when
 * identical. */
static gboolean
compare_with_reference (const test_image * t, pattern pat,
    ce_test_bands bands, const uint8_t * ref, size_t ref_stride,
    size_t dst_pad)
{
  int oh = 2 * t->h;
  gboolean ok = TRUE;
  size_t row_bytes = (size_t) 2 * t->w * t->bpp;
  size_t stride = row_bytes + dst_pad;
  uint8_t *got = g_malloc (stride * oh);
  char what[160];

  snprintf (what, sizeof what, "%dx%d bpp %d stride %zu %s (bands %d, dst "
      "pad %zu)", t->w, t->h, t->bpp, t->stride, pattern_names[pat],
      (int) bands, dst_pad);
  memset (got, CE_TEST_POISON, stride * oh);
  for (int r0 = 0; r0 < oh;) {
    int r1 = ce_test_band_end (bands, r0, oh);
    ce_status s = ce_cpu_upscale2x_rows (t->mem, t->stride, t->w, t->h,
        t->bpp, r0, r1, got, stride);
    if (s != CE_STATUS_OK) {
      ce_test_fail ("%s: rows [%d, %d): %s: %s", what, r0, r1,
          ce_status_string (s), ce_last_error ());
      ok = FALSE;
      break;
    }
    r0 = r1;
  }
  if (ok)
    ok = ce_assert_rows_equal (what, ref, ref_stride, got, stride, row_bytes,
        0, oh, CE_TEST_POISON)
        && ce_assert_poisoned (what, got, stride, row_bytes, stride, 0, oh,
        CE_TEST_POISON);
  g_free (got);
  return ok;
}

/* Reference output, then the fast path in the given band layouts (bit b
 * of band_mask: ce_test_bands b). */
static gboolean
check_image (const test_image * t, pattern pat, int band_mask,
    size_t dst_pad)
{
  gboolean ok = TRUE;
  size_t ref_stride = (size_t) 2 * t->w * t->bpp + 3;
  uint8_t *ref = g_malloc (ref_stride * 2 * t->h);
  ce_status s = ce_ref_upscale2x (t->mem, t->stride, t->w, t->h, t->bpp,
      ref, ref_stride);

  if (s != CE_STATUS_OK) {
    ce_test_fail ("reference failed: %s", ce_last_error ());
    g_free (ref);
    return FALSE;
  }
  for (int b = 0; b < CE_TEST_BANDS_COUNT && ok; b++)
    if (band_mask & (1 << b))
      ok = compare_with_reference (t, pat, (ce_test_bands) b, ref,
          ref_stride, dst_pad);
  g_free (ref);
  return ok;
}

static gboolean
check_size (int w, int h, int bpp, int band_mask)
{
  for (int pat = 0; pat < PAT_COUNT; pat++) {
    test_image t = make_image (w, h, bpp, (size_t) ce_test_rand_range (0, 9),
        (pattern) pat);
    gboolean ok = check_image (&t, (pattern) pat, band_mask,
        (size_t) ce_test_rand_range (0, 7));
    g_free (t.mem);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* ---- tests ---- */

/* The identity the fast path's arithmetic rests on (two horizontal sums
 * of weights 4 - fx and fx, then one vertical, rounded once): it equals
 * ce_bilinear for every fx, fy the upscale produces and corner values
 * from both ends.  The identity only: the fast path itself is checked
 * against the reference by the cases below. */
static void
test_folded_arithmetic_matches_ce_bilinear (void)
{
  static const int fr[] = { 0, 1, 3 };
  static const unsigned vals[] = { 0, 1, 2, 7, 8, 127, 128, 129, 200, 253,
    254, 255
  };
  enum { NV = sizeof vals / sizeof vals[0] };
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      for (int i0 = 0; i0 < NV; i0++)
        for (int i1 = 0; i1 < NV; i1++)
          for (int i2 = 0; i2 < NV; i2++)
            for (int i3 = 0; i3 < NV; i3++) {
              int fx = fr[a], fy = fr[b];
              unsigned p00 = vals[i0], p10 = vals[i1], p01 = vals[i2],
                  p11 = vals[i3];
              unsigned h0 = (4 - fx) * p00 + fx * p10;
              unsigned h1 = (4 - fx) * p01 + fx * p11;
              unsigned v = ((4 - fy) * h0 + fy * h1 + 8) >> 4;
              if (v != ce_bilinear (p00, p10, p01, p11, fx, fy)) {
                ce_test_fail ("fx %d fy %d (%u %u %u %u): %u != %u", fx, fy,
                    p00, p10, p01, p11, v,
                    ce_bilinear (p00, p10, p01, p11, fx, fy));
                return;
              }
            }
}

/* The named sizes: both pixel sizes, every pattern, every band layout. */
static void
test_named_sizes (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 2}, {7, 3}, {33, 17}, {2, 1},
    {1, 2}, {17, 33}
  };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int bpp = 1; bpp <= 4; bpp += 3)
      check_size (sizes[s][0], sizes[s][1], bpp, 7);
}

/* Every size up to 9x9. */
static void
test_every_size_up_to_9x9 (void)
{
  for (int w = 1; w <= 9; w++)
    for (int h = 1; h <= 9; h++)
      for (int bpp = 1; bpp <= 4; bpp += 3)
        check_size (w, h, bpp, 7);
}

/* Widths around the chunk sizes of the vector loops (tails of every
 * length), short frames. */
static void
test_widths_around_vector_chunks (void)
{
  for (int w = 10; w <= 140; w++)
    for (int bpp = 1; bpp <= 4; bpp += 3) {
      pattern pat = (pattern) ((w + bpp) % PAT_COUNT);
      test_image t = make_image (w, 3 + w % 4, bpp, (size_t) (w % 5), pat);
      check_image (&t, pat, 3, (size_t) (w % 3));
      g_free (t.mem);
    }
}

/* Random sizes, strides, patterns and bands. */
static void
test_random_images (void)
{
  for (int k = 0; k < 600; k++) {
    int w = ce_test_rand_range (1, 120), h = ce_test_rand_range (1, 60);
    int bpp = (k & 1) ? 4 : 1;
    pattern pat = (pattern) ce_test_rand_range (0, PAT_COUNT - 1);
    test_image t = make_image (w, h, bpp,
        (size_t) ce_test_rand_range (0, 40), pat);
    int ok = check_image (&t, pat, 1 << ce_test_rand_range (0, 2),
        (size_t) ce_test_rand_range (0, 9));
    g_free (t.mem);
    if (!ok)
      break;
  }
}

/* 641x481, both pixel sizes, padded strides, whole and random bands. */
static void
test_641x481 (void)
{
  for (int bpp = 1; bpp <= 4; bpp += 3) {
    pattern pat = bpp == 1 ? PAT_RANDOM : PAT_CHECKER_BYTES;
    test_image t = make_image (641, 481, bpp, 13, pat);
    check_image (&t, pat, 3, 5);
    g_free (t.mem);
    t = make_image (641, 481, bpp, 0, PAT_EXTREMES);
    check_image (&t, PAT_EXTREMES, 2, 0);
    g_free (t.mem);
  }
}

/* 1920x1080 RGBA, whole frame and random bands. */
static void
test_1920x1080_rgba (void)
{
  test_image t = make_image (1920, 1080, 4, 64, PAT_RANDOM);
  check_image (&t, PAT_RANDOM, 3, 32);
  g_free (t.mem);
}

/* One band into a poisoned image: its rows match the reference, every
 * other byte (rows outside the band, padding) keeps the poison. */
static void
test_band_writes_only_its_rows (void)
{
  for (int k = 0; k < 300; k++) {
    int w = ce_test_rand_range (1, 40), h = ce_test_rand_range (1, 30);
    int bpp = (k & 1) ? 4 : 1, oh = 2 * h;
    test_image t = make_image (w, h, bpp, (size_t) ce_test_rand_range (0, 6),
        (pattern) ce_test_rand_range (0, PAT_COUNT - 1));
    size_t row_bytes = (size_t) 2 * w * bpp;
    size_t stride = row_bytes + (size_t) ce_test_rand_range (0, 5);
    uint8_t *ref = g_malloc (row_bytes * oh);
    uint8_t *got = g_malloc (stride * oh);
    int r0 = ce_test_rand_range (0, oh - 1);
    int r1 = (k % 3 == 0) ? r0 + 1 : ce_test_rand_range (r0 + 1, oh);
    char what[96];

    snprintf (what, sizeof what, "%dx%d bpp %d band [%d, %d)", w, h, bpp, r0,
        r1);
    ce_assert_status (ce_ref_upscale2x (t.mem, t.stride, w, h, bpp, ref,
            row_bytes), CE_STATUS_OK);
    memset (got, CE_TEST_POISON, stride * oh);
    ce_assert_status (ce_cpu_upscale2x_rows (t.mem, t.stride, w, h, bpp, r0,
            r1, got, stride), CE_STATUS_OK);
    ce_assert_rows_equal (what, ref, row_bytes, got, stride, row_bytes, r0,
        r1, CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, row_bytes, stride, r0, r1,
        CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, 0, stride, 0, r0, CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, 0, stride, r1, oh,
        CE_TEST_POISON);
    g_free (ref);
    g_free (got);
    g_free (t.mem);
  }
}

/* The source is only read: it is the same after the calls. */
static void
test_source_untouched (void)
{
  test_image t = make_image (37, 23, 4, 7, PAT_RANDOM);
  size_t n = t.stride * t.h;
  uint8_t *copy = g_memdup2 (t.mem, n);
  uint8_t *dst = g_malloc ((size_t) 74 * 4 * 46);

  ce_assert_status (ce_cpu_upscale2x_rows (t.mem, t.stride, 37, 23, 4, 0, 46,
          dst, (size_t) 74 * 4), CE_STATUS_OK);
  g_assert_cmpmem (copy, n, t.mem, n);
  g_free (copy);
  g_free (dst);
  g_free (t.mem);
}

typedef struct
{
  const test_image *t;
  uint8_t *dst;
  size_t stride;
} band_job;

static ce_status
run_band (gpointer data, int r0, int r1)
{
  band_job *j = data;
  return ce_cpu_upscale2x_rows (j->t->mem, j->t->stride, j->t->w, j->t->h,
      j->t->bpp, r0, r1, j->dst, j->stride);
}

/* Bands on several threads at once into one image (the intended use). */
static void
test_bands_on_threads (void)
{
  enum { N = 4, W = 333, H = 211, BPP = 4 };
  test_image t = make_image (W, H, BPP, 12, PAT_RANDOM);
  size_t stride = (size_t) 2 * W * BPP, n = stride * 2 * H;
  uint8_t *ref = g_malloc (n), *got = g_malloc (n);
  band_job job = { &t, got, stride };
  ce_status statuses[N];

  ce_assert_status (ce_ref_upscale2x (t.mem, t.stride, W, H, BPP, ref,
          stride), CE_STATUS_OK);
  memset (got, CE_TEST_POISON, n);
  ce_test_bands_on_threads (N, 2 * H, run_band, &job, statuses);
  for (int i = 0; i < N; i++)
    ce_assert_status (statuses[i], CE_STATUS_OK);
  ce_assert_rows_equal ("RGBA 333x211 in 4 bands on 4 threads", ref, stride,
      got, stride, stride, 0, 2 * H, CE_TEST_POISON);
  g_free (ref);
  g_free (got);
  g_free (t.mem);
}

/* Bad arguments: CE_STATUS_INVALID_ARGUMENT naming the argument, and
 * nothing written. */
static void
test_rejects_bad_arguments (void)
{
  enum { W = 6, H = 5 };
  uint8_t src[W * H * 4];
  uint8_t dst[2 * W * 4 * 2 * H];
  const size_t s1 = W, d1 = 2 * W, s4 = 4 * W, d4 = 8 * W;

  memset (src, 7, sizeof src);
  memset (dst, CE_TEST_POISON, sizeof dst);

  ce_assert_invalid (ce_cpu_upscale2x_rows (NULL, s1, W, H, 1, 0, 2 * H, dst,
          d1), "src");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, NULL,
          d1), "dst");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, 0, H, 1, 0, 2 * H, dst,
          d1), "width");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, -3, H, 1, 0, 2 * H, dst,
          d1), "width");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, 0, 1, 0, 2 * H, dst,
          d1), "height");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, -1, 1, 0, 2 * H, dst,
          d1), "height");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 0, 0, 2 * H, dst,
          d1), "bytes_per_pixel");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s4, W, H, 2, 0, 2 * H, dst,
          d4), "bytes_per_pixel");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s4, W, H, 3, 0, 2 * H, dst,
          d4), "bytes_per_pixel");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1 - 1, W, H, 1, 0, 2 * H, dst,
          d1), "src stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 4, 0, 2 * H, dst,
          d4), "src stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, dst,
          d1 - 1), "dst stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s4, W, H, 4, 0, 2 * H, dst,
          d1), "dst stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, dst, 0),
      "dst stride");
  /* Strides whose rows no memory holds (a negative one cast to size_t, or
   * rows that overflow the address space). */
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, (size_t) -6, W, H, 1, 0,
          2 * H, dst, d1), "src stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, SIZE_MAX / 4 + 1, W, H, 1, 0,
          2 * H, dst, d1), "src stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, dst,
          (size_t) -12), "dst stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, dst,
          SIZE_MAX / 8 + 1), "dst stride");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, -1, 2 * H, dst,
          d1), "row0");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 2 * H, 2 * H, dst,
          d1), "row0");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 2, 2, dst, d1),
      "row1");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 3, 1, dst, d1),
      "row1");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H + 1, dst,
          d1), "row1");
  ce_assert_invalid (ce_cpu_upscale2x_rows (src, (size_t) 1 << 30,
          (1 << 29) + 1, 1, 1, 0, 2, dst, (size_t) 1 << 31), "too large");

  ce_assert_poisoned ("dst of the refused calls", dst, sizeof dst, 0,
      sizeof dst, 0, 1, CE_TEST_POISON);

  /* The boundaries themselves are accepted. */
  ce_assert_status (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 2 * H - 1, 2 * H,
          dst, d1), CE_STATUS_OK);
  ce_assert_status (ce_cpu_upscale2x_rows (src, s1, W, H, 1, 0, 2 * H, dst, d1),
      CE_STATUS_OK);
  ce_assert_status (ce_cpu_upscale2x_rows (src, s4, W, H, 4, 0, 2 * H, dst, d4),
      CE_STATUS_OK);
}

/* ---- informative timing (never asserted) ---- */

static void
test_timing (void)
{
  test_image t = make_image (1920, 1080, 4, 0, PAT_RANDOM);
  test_image g = make_image (1920, 1080, 1, 0, PAT_RANDOM);
  size_t stride = (size_t) 3840 * 4;
  uint8_t *dst = g_malloc0 (stride * 2160);
  double best_fast = 1e9, best_gray = 1e9, best_ref = 1e9, t0;

  for (int i = 0; i < 2; i++) {
    t0 = ce_test_now ();
    ce_ref_upscale2x (t.mem, t.stride, 1920, 1080, 4, dst, stride);
    t0 = ce_test_now () - t0;
    best_ref = t0 < best_ref ? t0 : best_ref;
  }
  for (int i = 0; i < 10; i++) {
    t0 = ce_test_now ();
    ce_cpu_upscale2x_rows (t.mem, t.stride, 1920, 1080, 4, 0, 2160, dst,
        stride);
    t0 = ce_test_now () - t0;
    best_fast = t0 < best_fast ? t0 : best_fast;
    t0 = ce_test_now ();
    ce_cpu_upscale2x_rows (g.mem, g.stride, 1920, 1080, 1, 0, 2160, dst,
        3840);
    t0 = ce_test_now () - t0;
    best_gray = t0 < best_gray ? t0 : best_gray;
  }
  g_test_message ("timing: 1920x1080 -> 3840x2160, one thread: RGBA "
      "ce_cpu_upscale2x_rows %.2f ms, ce_ref_upscale2x %.1f ms (%.0fx); "
      "GRAY8 ce_cpu_upscale2x_rows %.2f ms", best_fast * 1e3,
      best_ref * 1e3, best_ref / best_fast, best_gray * 1e3);
  g_free (dst);
  g_free (t.mem);
  g_free (g.mem);
}

/* ---- cases ---- */

void
ce_test_register_cpu_upscale (void)
{
  ce_test_add ("/cpu/upscale/timing", test_timing);
  ce_test_add ("/cpu/upscale/folded-arithmetic-matches-ce-bilinear",
      test_folded_arithmetic_matches_ce_bilinear);
  ce_test_add ("/cpu/upscale/rejects-bad-arguments",
      test_rejects_bad_arguments);
  ce_test_add ("/cpu/upscale/named-sizes", test_named_sizes);
  ce_test_add ("/cpu/upscale/every-size-up-to-9x9", test_every_size_up_to_9x9);
  ce_test_add ("/cpu/upscale/widths-around-vector-chunks",
      test_widths_around_vector_chunks);
  ce_test_add ("/cpu/upscale/random-images", test_random_images);
  ce_test_add ("/cpu/upscale/band-writes-only-its-rows",
      test_band_writes_only_its_rows);
  ce_test_add ("/cpu/upscale/source-untouched", test_source_untouched);
  ce_test_add ("/cpu/upscale/bands-on-threads", test_bands_on_threads);
  ce_test_add ("/cpu/upscale/641x481", test_641x481);
  ce_test_add ("/cpu/upscale/1920x1080-rgba", test_1920x1080_rgba);
}
