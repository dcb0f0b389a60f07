/* gst-cudaedge: known answers for the CPU reference.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every expected value here is worked out by hand from docs/numerics.md,
 * "Edge detection" and "Bilinear 2x upscale" (the derivation is in the
 * comments); nothing is checked by calling the reference against itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudaedge-core.h"
#include "ce-core-test.h"

/* ---- small helpers ---- */

static const int W5[5] = { 1, 4, 6, 4, 1 };

/* The border does not matter to the constants. */
static ce_edge_consts
make_consts (double threshold, int blur, ce_norm norm, ce_output output)
{
  return ce_test_consts (threshold, blur, CE_BORDER_REPLICATE, norm, output);
}

/* The output byte of ce_ref_threshold for one (gx, gy) pair. */
static int
threshold_one (int32_t gx, int32_t gy, const ce_edge_consts * c)
{
  int32_t grad[2] = { gx, gy };
  uint8_t out = 0x5A;
  ce_status s = ce_ref_threshold (grad, sizeof grad, 1, 1, c, &out, 1);
  if (s != CE_STATUS_OK) {
    ce_test_fail ("ce_ref_threshold: %s", ce_last_error ());
    return -1;
  }
  return out;
}

/* ---- blur ---- */

/* A single v in 9x9 zeros: B is v w_i w_j around it, 0 elsewhere, in every
 * border mode (every read that leaves the frame reads a zero anyway). */
static void
test_impulse_blur_gives_outer_product_taps (void)
{
  static const int values[] = { 1, 37, 255 };
  for (int m = 0; m < 3; m++) {
    for (int k = 0; k < 3; k++) {
      int v = values[k];
      uint8_t y[9 * 11];
      uint16_t b[9 * 12];
      long long sum = 0;
      memset (y, 0, sizeof y);
      y[4 * 11 + 4] = (uint8_t) v;
      ce_assert_status (ce_ref_blur (y, 11, 9, 9, (ce_border_mode) m, b,
              12 * sizeof (uint16_t)), CE_STATUS_OK);
      for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
          int dr = r - 4, dc = c - 4;
          int want = (abs (dr) <= 2 && abs (dc) <= 2) ?
              W5[dr + 2] * W5[dc + 2] * v : 0;
          if (b[r * 12 + c] != want)
            ce_test_fail ("%s v=%d B(%d,%d)=%d want %d",
                ce_test_border_name (m), v, c, r, b[r * 12 + c], want);
          sum += b[r * 12 + c];
        }
      g_assert_cmpint (sum, ==, 256LL * v);
      g_assert_cmpint (b[4 * 12 + 4], ==, 36 * v);
    }
  }
}

static void
test_impulse_blur_taps_sum_to_256 (void)
{
  uint8_t y[25] = { 0 };
  uint16_t b[25];
  long long sum = 0;
  y[12] = 1;
  ce_assert_status (ce_ref_blur (y, 5, 5, 5, CE_BORDER_ZERO, b, 10),
      CE_STATUS_OK);
  for (int i = 0; i < 25; i++) {
    g_assert_cmpint (b[i], ==, W5[4 - i / 5] * W5[4 - i % 5]);
    sum += b[i];
  }
  g_assert_cmpint (sum, ==, 256);
}

/* All 255: B = 255 * 256 = 65280, the largest B there is. */
static void
test_blur_of_white_is_65280_except_zero_border (void)
{
  uint8_t y[6 * 6];
  uint16_t b[6 * 6];
  memset (y, 255, sizeof y);
  ce_assert_status (ce_ref_blur (y, 6, 6, 6, CE_BORDER_REPLICATE, b, 12),
      CE_STATUS_OK);
  for (int i = 0; i < 36; i++)
    g_assert_cmpint (b[i], ==, 65280);
  ce_assert_status (ce_ref_blur (y, 6, 6, 6, CE_BORDER_REFLECT, b, 12),
      CE_STATUS_OK);
  for (int i = 0; i < 36; i++)
    g_assert_cmpint (b[i], ==, 65280);
  /* zero: B = 255 Wx Wy with the in-frame weight sums of a 6-pixel line,
   * W = [11 15 16 16 15 11]. */
  {
    static const int wsum[6] = { 11, 15, 16, 16, 15, 11 };
    ce_assert_status (ce_ref_blur (y, 6, 6, 6, CE_BORDER_ZERO, b, 12),
        CE_STATUS_OK);
    for (int i = 0; i < 36; i++)
      g_assert_cmpint (b[i], ==, 255 * wsum[i % 6] * wsum[i / 6]);
  }
}

/* 3x3 Y = [1 2 4; 8 16 32; 64 128 200].  At a pixel the 5 taps of an axis
 * fold onto the 3 pixels of the line: per border mode and position they
 * give these per-pixel weights (sum 16, zero: what stays inside):
 *   x=0: replicate [11 4 1], zero [6 4 1], reflect [6 8 2]
 *   x=1: replicate [5 6 5],  zero [4 6 4], reflect [4 8 4]
 *   x=2: replicate [1 4 11], zero [1 4 6], reflect [2 8 6]
 * and B = sum_r sum_c Wy[r] Wx[c] Y(c, r). */
static const uint8_t y3x3[9] = { 1, 2, 4, 8, 16, 32, 64, 128, 200 };

static void
test_blur_3x3_corners_by_border_mode (void)
{
  /* B(0,0), B(1,1), B(2,2), B(2,0) by hand:
   * replicate (0,0): 11*(11+8+4) + 4*(88+64+32) + 1*(704+512+200)
   *   = 253 + 736 + 1416 = 2405
   * zero (0,0): 6*(6+8+4) + 4*(48+64+32) + (384+512+200) = 108+576+1096
   *   = 1780
   * reflect (0,0): 6*(6+16+8) + 8*(48+128+64) + 2*(384+1024+400)
   *   = 180 + 1920 + 3616 = 5716
   * replicate (2,2): 1*(1+8+44) + 4*(8+64+352) + 11*(64+512+2200)
   *   = 53 + 1696 + 30536 = 32285
   * zero (2,2): (1+8+24) + 4*(8+64+192) + 6*(64+512+1200) = 33+1056+10656
   *   = 11745
   * reflect (2,2): 2*(2+16+24) + 8*(16+128+192) + 6*(128+1024+1200)
   *   = 84 + 2688 + 14112 = 16884
   * replicate (1,1): 5*(5+12+20) + 6*(40+96+160) + 5*(320+768+1000)
   *   = 185 + 1776 + 10440 = 12401
   * zero (1,1): 4*(4+12+16) + 6*(32+96+128) + 4*(256+768+800)
   *   = 128 + 1536 + 7296 = 8960
   * reflect (1,1): 4*(4+16+16) + 8*(32+128+128) + 4*(256+1024+800)
   *   = 144 + 2304 + 8320 = 10768
   * replicate (2,0) (Wx [1 4 11], Wy [11 4 1]):
   *   11*(1+8+44) + 4*(8+64+352) + (64+512+2200) = 583 + 1696 + 2776 = 5055
   * zero (2,0) (Wx [1 4 6], Wy [6 4 1]):
   *   6*(1+8+24) + 4*(8+64+192) + (64+512+1200) = 198 + 1056 + 1776 = 3030
   * reflect (2,0) (Wx [2 8 6], Wy [6 8 2]):
   *   6*(2+16+24) + 8*(16+128+192) + 2*(128+1024+1200) = 252+2688+4704
   *   = 7644 */
  static const int want[3][4] = {
    {2405, 12401, 32285, 5055},
    {1780, 8960, 11745, 3030},
    {5716, 10768, 16884, 7644},
  };
  for (int m = 0; m < 3; m++) {
    uint16_t b[3 * 5];
    for (int i = 0; i < 15; i++)
      b[i] = 0xDEAD;
    ce_assert_status (ce_ref_blur (y3x3, 3, 3, 3, (ce_border_mode) m, b, 10),
        CE_STATUS_OK);
    if (b[0] != want[m][0] || b[5 + 1] != want[m][1]
        || b[10 + 2] != want[m][2] || b[2] != want[m][3])
      ce_test_fail ("%s: B(0,0) %d B(1,1) %d B(2,2) %d B(2,0) %d, want %d %d "
          "%d %d", ce_test_border_name (m), b[0], b[6], b[12], b[2], want[m][0],
          want[m][1], want[m][2], want[m][3]);
    /* the two padding entries of each row are never written */
    g_assert_cmpint (b[3], ==, 0xDEAD);
    g_assert_cmpint (b[4], ==, 0xDEAD);
    g_assert_cmpint (b[14], ==, 0xDEAD);
  }
}

/* 1x1: replicate and reflect read the only pixel everywhere (B = 256 v);
 * zero keeps the centre tap only (B = 36 v). */
static void
test_blur_1x1_frame (void)
{
  uint8_t y = 77;
  uint16_t b;
  ce_assert_status (ce_ref_blur (&y, 1, 1, 1, CE_BORDER_REPLICATE, &b, 2),
      CE_STATUS_OK);
  g_assert_cmpint (b, ==, 256 * 77);
  ce_assert_status (ce_ref_blur (&y, 1, 1, 1, CE_BORDER_REFLECT, &b, 2),
      CE_STATUS_OK);
  g_assert_cmpint (b, ==, 256 * 77);
  ce_assert_status (ce_ref_blur (&y, 1, 1, 1, CE_BORDER_ZERO, &b, 2),
      CE_STATUS_OK);
  g_assert_cmpint (b, ==, 36 * 77);
}

/* [a b] = [10 50].  Horizontal weights per pixel:
 *   x=0 reads -2..2: replicate [11 5], zero [6 4], reflect (-2->0, -1->1,
 *   2->0) [8 8];  x=1 reads -1..3: replicate [5 11], zero [4 6], reflect
 *   (-1->1, 2->0, 3->1) [8 8].
 * The 1-pixel axis gives 16 (replicate, reflect) or 6 (zero). */
static void
test_blur_2x1_and_1x2_frames (void)
{
  static const uint8_t y[2] = { 10, 50 };
  static const int want[3][2] = {
    {16 * (11 * 10 + 5 * 50), 16 * (5 * 10 + 11 * 50)}, /* 5760, 9600 */
    {6 * (6 * 10 + 4 * 50), 6 * (4 * 10 + 6 * 50)},     /* 1560, 2040 */
    {16 * (8 * 10 + 8 * 50), 16 * (8 * 10 + 8 * 50)},   /* 7680, 7680 */
  };
  for (int m = 0; m < 3; m++) {
    uint16_t b[4] = { 1, 1, 1, 1 };
    /* 2x1 */
    ce_assert_status (ce_ref_blur (y, 2, 2, 1, (ce_border_mode) m, b, 4),
        CE_STATUS_OK);
    g_assert_cmpint (b[0], ==, want[m][0]);
    g_assert_cmpint (b[1], ==, want[m][1]);
    /* 1x2: the same numbers down a column; stride 1 byte of Y, 4 of B */
    b[0] = b[1] = b[2] = b[3] = 1;
    ce_assert_status (ce_ref_blur (y, 1, 1, 2, (ce_border_mode) m, b, 4),
        CE_STATUS_OK);
    g_assert_cmpint (b[0], ==, want[m][0]);
    g_assert_cmpint (b[2], ==, want[m][1]);
    g_assert_cmpint (b[1], ==, 1);
  }
}

/* ---- Sobel ---- */

/* Sobel on B = [1 2 4; 8 16 32; 64 128 200] directly.
 * (0,0) replicate: gx = (2 + 2*2 + 16) - (1 + 2*1 + 8) = 22 - 11 = 11,
 *                  gy = (8 + 2*8 + 16) - (1 + 2*1 + 2) = 40 - 5 = 35.
 * (0,0) zero:      gx = (0 + 4 + 16) - 0 = 20, gy = (0 + 16 + 16) - 0 = 32.
 * (0,0) reflect:   column -1 is column 1 and row -1 is row 1: gx = gy = 0.
 * (2,2) replicate: gx = (32 + 400 + 200) - (16 + 256 + 128) = 232,
 *                  gy = (128 + 400 + 200) - (16 + 64 + 32) = 616.
 * (2,2) zero:      gx = 0 - (16 + 256 + 0) = -272, gy = 0 - (16 + 64) = -80.
 * (2,2) reflect:   0, 0.
 * (1,1) (no border involved): gx = (4 + 64 + 200) - (1 + 16 + 64) = 187,
 *                  gy = (64 + 256 + 200) - (1 + 4 + 4) = 511. */
static void
test_sobel_3x3_corners_by_border_mode (void)
{
  static const int want[3][3][2] = {
    {{11, 35}, {187, 511}, {232, 616}},
    {{20, 32}, {187, 511}, {-272, -80}},
    {{0, 0}, {187, 511}, {0, 0}},
  };
  uint16_t b[3 * 4];
  for (int i = 0; i < 9; i++)
    b[(i / 3) * 4 + i % 3] = y3x3[i];
  for (int m = 0; m < 3; m++) {
    int32_t g[3 * 8];
    for (int i = 0; i < 24; i++)
      g[i] = 0x7EADBEEF;
    ce_assert_status (ce_ref_sobel (b, 8, 3, 3, (ce_border_mode) m, g, 32),
        CE_STATUS_OK);
    for (int k = 0; k < 3; k++) {
      int32_t *p = &g[k * 8 + 2 * k];
      if (p[0] != want[m][k][0] || p[1] != want[m][k][1])
        ce_test_fail ("%s: (gx,gy)(%d,%d) = (%d,%d), want (%d,%d)",
            ce_test_border_name (m), k, k, p[0], p[1], want[m][k][0],
            want[m][k][1]);
    }
    g_assert_cmpint (g[6], ==, 0x7EADBEEF);
    g_assert_cmpint (g[7], ==, 0x7EADBEEF);
  }
}

/* 1x1: every neighbour is the pixel itself (or zero on both sides). */
static void
test_sobel_1x1_frame_has_no_gradient (void)
{
  uint16_t b = 65280;
  for (int m = 0; m < 3; m++) {
    int32_t g[2] = { 99, 99 };
    ce_assert_status (ce_ref_sobel (&b, 2, 1, 1, (ce_border_mode) m, g, 8),
        CE_STATUS_OK);
    g_assert_cmpint (g[0], ==, 0);
    g_assert_cmpint (g[1], ==, 0);
  }
}

/* [a b] = [10 50] as B, height 1 (rows -1 and 1 are row 0 except in zero):
 * replicate: gx(0) = 4 (b - a) = 160, gx(1) = 4 (b - a) = 160;
 * zero: only the middle row counts: gx(0) = 2 b = 100, gx(1) = -2 a = -20;
 * reflect: column -1 is 1 and 2 is 0: gx = 0.  gy = 0 in all. */
static void
test_sobel_2x1_and_1x2_frames (void)
{
  static const uint16_t b[2] = { 10, 50 };
  static const int want[3][2] = { {160, 160}, {100, -20}, {0, 0} };
  for (int m = 0; m < 3; m++) {
    int32_t g[4];
    memset (g, 0x11, sizeof g);
    ce_assert_status (ce_ref_sobel (b, 4, 2, 1, (ce_border_mode) m, g, 16),
        CE_STATUS_OK);
    g_assert_cmpint (g[0], ==, want[m][0]);
    g_assert_cmpint (g[1], ==, 0);
    g_assert_cmpint (g[2], ==, want[m][1]);
    g_assert_cmpint (g[3], ==, 0);
    /* 1x2: the transpose */
    memset (g, 0x11, sizeof g);
    ce_assert_status (ce_ref_sobel (b, 2, 1, 2, (ce_border_mode) m, g, 8),
        CE_STATUS_OK);
    g_assert_cmpint (g[0], ==, 0);
    g_assert_cmpint (g[1], ==, want[m][0]);
    g_assert_cmpint (g[2], ==, 0);
    g_assert_cmpint (g[3], ==, want[m][1]);
  }
}

/* ---- constant frames ---- */

static void
test_constant_frame_has_no_edges_with_replicate_and_reflect (void)
{
  enum { W = 7, H = 5, STRIDE = 9 };
  uint8_t y[H * STRIDE];
  memset (y, 200, sizeof y);
  for (int m = 0; m < 3; m += 2)
    for (int blur = 0; blur < 2; blur++)
      for (int out = 0; out < 2; out++) {
        /* threshold 0: anything above 0 would be an edge */
        ce_edge_params p = ce_test_params (0.0, blur, (ce_border_mode) m,
            CE_NORM_L2, (ce_output) out);
        uint8_t dst[H * 8];
        memset (dst, 0x5A, sizeof dst);
        ce_assert_status (ce_ref_edge (y, STRIDE, W, H, &p, dst, 8),
            CE_STATUS_OK);
        for (int r = 0; r < H; r++) {
          for (int c = 0; c < W; c++)
            if (dst[r * 8 + c] != 0)
              ce_test_fail ("%s blur=%d out=%d: (%d,%d) = %d, want 0",
                  ce_test_border_name (m), blur, out, c, r, dst[r * 8 + c]);
          g_assert_cmpint (dst[r * 8 + 7], ==, 0x5A);
        }
      }
}

/* Without blur, zero border, constant c: a pixel on a side sees c on its
 * inner side and 0 outside: |gx| = (c + 2c + c) = 4c, gy = 0 (a left/right
 * side away from corners).  A corner sees gx = (0 + 2c + c) = 3c and
 * gy = 3c.  Inside the ring everything cancels. */
static void
test_constant_frame_zero_border_edges_on_ring_only (void)
{
  enum { W = 9, H = 7 };
  uint8_t y[W * H];
  uint16_t b[W * H];
  int32_t g[W * H * 2];
  uint8_t dst[W * H];
  ce_edge_params p;

  memset (y, 200, sizeof y);
  for (int i = 0; i < W * H; i++)
    b[i] = 200;
  ce_assert_status (ce_ref_sobel (b, 2 * W, W, H, CE_BORDER_ZERO, g, 8 * W),
      CE_STATUS_OK);
  g_assert_cmpint (g[0], ==, 600); /* corner (0,0) */
  g_assert_cmpint (g[1], ==, 600);
  g_assert_cmpint (g[2 * (3 * W + 0)], ==, 800); /* (0,3): left side */
  g_assert_cmpint (g[2 * (3 * W + 0) + 1], ==, 0);
  g_assert_cmpint (g[2 * (3 * W + W - 1)], ==, -800); /* (8,3): right side */
  g_assert_cmpint (g[2 * (0 * W + 4) + 1], ==, 800); /* (4,0): top */
  g_assert_cmpint (g[2 * (0 * W + 4)], ==, 0);
  g_assert_cmpint (g[2 * ((H - 1) * W + 4) + 1], ==, -800); /* (4,6): bottom */
  g_assert_cmpint (g[2 * ((H - 1) * W + W - 1)], ==, -600); /* (8,6) */
  g_assert_cmpint (g[2 * ((H - 1) * W + W - 1) + 1], ==, -600);
  g_assert_cmpint (g[2 * (3 * W + 4)], ==, 0);
  g_assert_cmpint (g[2 * (3 * W + 4) + 1], ==, 0);

  /* edges at threshold 128: exactly the ring */
  p = ce_test_params (128.0, 0, CE_BORDER_ZERO, CE_NORM_L2, CE_OUTPUT_EDGES);
  ce_assert_status (ce_ref_edge (y, W, W, H, &p, dst, W), CE_STATUS_OK);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      int ring = r == 0 || c == 0 || r == H - 1 || c == W - 1;
      if (dst[r * W + c] != (ring ? 255 : 0))
        ce_test_fail ("(%d,%d) = %d, want %d", c, r, dst[r * W + c],
            ring ? 255 : 0);
    }

  /* magnitude with c = 10: sides 40, corners sqrt(30^2 + 30^2) = 42.43 -> 42
   * (l2), 60 (l1), interior 0. */
  memset (y, 10, sizeof y);
  for (int norm = 0; norm < 2; norm++) {
    int corner = norm == CE_NORM_L2 ? 42 : 60;
    p = ce_test_params (128.0, 0, CE_BORDER_ZERO, (ce_norm) norm,
        CE_OUTPUT_MAGNITUDE);
    ce_assert_status (ce_ref_edge (y, W, W, H, &p, dst, W), CE_STATUS_OK);
    for (int r = 0; r < H; r++)
      for (int c = 0; c < W; c++) {
        int side = r == 0 || c == 0 || r == H - 1 || c == W - 1;
        int is_corner = (r == 0 || r == H - 1) && (c == 0 || c == W - 1);
        int want = is_corner ? corner : side ? 40 : 0;
        if (dst[r * W + c] != want)
          ce_test_fail ("norm %d: (%d,%d) = %d, want %d", norm, c, r,
              dst[r * W + c], want);
      }
  }
}

/* With blur, zero border, constant c: B(x,y) = c Wx(x) Wy(y) where W is the
 * in-frame weight sum [11 15 16 ... 16 15 11].  The Sobel (zero border on
 * B, so W(-1) = W(n) = 0) gives gx = c (Wx(x+1) - Wx(x-1)) (Wy(y-1) +
 * 2 Wy(y) + Wy(y+1)): the difference is 15, 5, 1 at x = 0, 1, 2, mirrored
 * at the right, and 0 from x = 3 to W-4.  So at threshold 0 the edges are
 * a ring 3 pixels wide. */
static void
test_constant_frame_zero_border_with_blur_edges_three_deep (void)
{
  enum { W = 16, H = 12, STRIDE = 19 };
  uint8_t y[H * STRIDE];
  uint8_t dst[H * W];
  uint16_t b[H * W];
  int32_t g[H * W * 2];
  ce_edge_params p;

  memset (y, 200, sizeof y);
  ce_assert_status (ce_ref_blur (y, STRIDE, W, H, CE_BORDER_ZERO, b, 2 * W),
      CE_STATUS_OK);
  g_assert_cmpint (b[0], ==, 200 * 11 * 11); /* 24200 */
  g_assert_cmpint (b[1 * W + 2], ==, 200 * 16 * 15);
  g_assert_cmpint (b[5 * W + 5], ==, 200 * 256);
  ce_assert_status (ce_ref_sobel (b, 2 * W, W, H, CE_BORDER_ZERO, g, 8 * W),
      CE_STATUS_OK);
  /* at (x, 5): Wy(4) + 2 Wy(5) + Wy(6) = 64 */
  g_assert_cmpint (g[2 * (5 * W + 0)], ==, 200 * 15 * 64);
  g_assert_cmpint (g[2 * (5 * W + 1)], ==, 200 * 5 * 64);
  g_assert_cmpint (g[2 * (5 * W + 2)], ==, 200 * 1 * 64);
  g_assert_cmpint (g[2 * (5 * W + 3)], ==, 0);
  g_assert_cmpint (g[2 * (5 * W + W - 1)], ==, -200 * 15 * 64);
  g_assert_cmpint (g[2 * (5 * W + 0) + 1], ==, 0);
  /* at (1, 2): Wy(1) + 2 Wy(2) + Wy(3) = 15 + 32 + 16 = 63 */
  g_assert_cmpint (g[2 * (2 * W + 1)], ==, 200 * 5 * 63);

  p = ce_test_params (0.0, 1, CE_BORDER_ZERO, CE_NORM_L2, CE_OUTPUT_EDGES);
  ce_assert_status (ce_ref_edge (y, STRIDE, W, H, &p, dst, W), CE_STATUS_OK);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      int ring = c < 3 || c >= W - 3 || r < 3 || r >= H - 3;
      if (dst[r * W + c] != (ring ? 255 : 0))
        ce_test_fail ("(%d,%d) = %d, want %d", c, r, dst[r * W + c],
            ring ? 255 : 0);
    }
}

/* ---- steps ---- */

/* Left 4 columns 0, right 4 columns 255, no blur (S = 1): at x = 3 and 4
 * gx = 4 (255 - 0) = 1020; elsewhere the neighbours are equal; gy = 0. */
static void
test_vertical_step_without_blur (void)
{
  enum { W = 8, H = 4, STRIDE = 11 };
  uint8_t y[H * STRIDE];
  uint16_t b[H * W];
  int32_t g[H * W * 2];
  uint8_t dst[H * W];

  memset (y, 0xCC, sizeof y);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      y[r * STRIDE + c] = c < 4 ? 0 : 255;
      b[r * W + c] = c < 4 ? 0 : 255;
    }
  for (int m = 0; m < 3; m += 2) {
    ce_assert_status (ce_ref_sobel (b, 2 * W, W, H, (ce_border_mode) m, g,
            8 * W), CE_STATUS_OK);
    for (int r = 0; r < H; r++)
      for (int c = 0; c < W; c++) {
        int want = (c == 3 || c == 4) ? 1020 : 0;
        if (g[2 * (r * W + c)] != want || g[2 * (r * W + c) + 1] != 0)
          ce_test_fail ("%s (%d,%d): (%d,%d) want (%d,0)",
              ce_test_border_name (m), c, r, g[2 * (r * W + c)],
              g[2 * (r * W + c) + 1], want);
      }
  }
  /* edges: threshold 128, and at the exact boundary 1020 (strictly
   * greater: no edge) and just below it */
  {
    static const double thresholds[] = { 128.0, 1019.99, 1020.0, 2048.0 };
    static const int edge[] = { 1, 1, 0, 0 };
    for (int n = 0; n < 2; n++)
      for (int t = 0; t < 4; t++) {
        ce_edge_params p = ce_test_params (thresholds[t], 0,
            CE_BORDER_REPLICATE, (ce_norm) n, CE_OUTPUT_EDGES);
        ce_assert_status (ce_ref_edge (y, STRIDE, W, H, &p, dst, W),
            CE_STATUS_OK);
        for (int i = 0; i < W * H; i++) {
          int c = i % W;
          int want = ((c == 3 || c == 4) && edge[t]) ? 255 : 0;
          if (dst[i] != want)
            ce_test_fail ("norm %d t %g: (%d,%d) = %d want %d", n,
                thresholds[t], c, i / W, dst[i], want);
        }
      }
  }
}

/* The same step with blur, replicate.  Vertically constant, so B = 16 H(x)
 * with H(x) = 255 * (sum of the w_j whose tap x+j-2 lands at >= 4):
 *   x:     0  1  2  3  4   5   6   7
 *   taps:  0  0  1  5  11  15  16  16     (H = 255 * taps, B = 4080 * taps)
 * gx(x) = 4 (B(x+1) - B(x-1)) = 16320 * (taps(x+1) - taps(x-1)), with
 * taps(-1) = 0 and taps(8) = 16 (replicate):
 *   x:     0  1      2      3       4       5      6      7
 *   gx:    0  16320  81600  163200  163200  81600  16320  0
 * m = gx / 256 = 0, 63.75, 318.75, 637.5, 637.5, 318.75, 63.75, 0. */
static void
test_vertical_step_with_blur (void)
{
  enum { W = 8, H = 5, STRIDE = 13 };
  static const int taps[W] = { 0, 0, 1, 5, 11, 15, 16, 16 };
  static const int gx_want[W] = { 0, 16320, 81600, 163200, 163200, 81600,
    16320, 0
  };
  uint8_t y[H * STRIDE];
  uint16_t b[H * W];
  int32_t g[H * W * 2];
  uint8_t dst[H * W];

  memset (y, 0x33, sizeof y);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++)
      y[r * STRIDE + c] = c < 4 ? 0 : 255;
  ce_assert_status (ce_ref_blur (y, STRIDE, W, H, CE_BORDER_REPLICATE, b,
          2 * W), CE_STATUS_OK);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (b[i], ==, 4080 * taps[i % W]);
  ce_assert_status (ce_ref_sobel (b, 2 * W, W, H, CE_BORDER_REPLICATE, g,
          8 * W), CE_STATUS_OK);
  for (int i = 0; i < W * H; i++) {
    g_assert_cmpint (g[2 * i], ==, gx_want[i % W]);
    g_assert_cmpint (g[2 * i + 1], ==, 0);
  }

  /* edges: 128 -> x = 2..5; 63.75 is the exact m of x = 1 and 6 (no edge
   * there: strictly greater); 63.7 takes them in; 637.5 -> none;
   * 637.4 -> x = 3, 4. */
  {
    static const struct
    {
      double t;
      int lo, hi;               /* edge columns [lo, hi] */
    } cases[] = {
      {128.0, 2, 5}, {63.75, 2, 5}, {63.7, 1, 6}, {637.5, 1, 0},
      {637.4, 3, 4}, {0.0, 1, 6},
    };
    for (int n = 0; n < 2; n++)
      for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ce_edge_params p = ce_test_params (cases[k].t, 1, CE_BORDER_REPLICATE,
            (ce_norm) n, CE_OUTPUT_EDGES);
        ce_assert_status (ce_ref_edge (y, STRIDE, W, H, &p, dst, W),
            CE_STATUS_OK);
        for (int i = 0; i < W * H; i++) {
          int c = i % W;
          int want = (c >= cases[k].lo && c <= cases[k].hi) ? 255 : 0;
          if (dst[i] != want)
            ce_test_fail ("norm %d t %g: (%d,%d) = %d want %d", n, cases[k].t,
                c, i / W, dst[i], want);
        }
      }
  }
  /* magnitude: 63.75 -> 64, the rest clamp to 255 */
  {
    static const int mag[W] = { 0, 64, 255, 255, 255, 255, 64, 0 };
    for (int n = 0; n < 2; n++) {
      ce_edge_params p = ce_test_params (128.0, 1, CE_BORDER_REPLICATE,
          (ce_norm) n, CE_OUTPUT_MAGNITUDE);
      ce_assert_status (ce_ref_edge (y, STRIDE, W, H, &p, dst, W),
          CE_STATUS_OK);
      for (int i = 0; i < W * H; i++)
        g_assert_cmpint (dst[i], ==, mag[i % W]);
    }
  }
}

/* A step of height 10 instead of 255 scales everything by 10/255:
 * gx = 640 * [0 1 5 10 10 5 1 0], m = 2.5 * [0 1 5 10 10 5 1 0]
 * = 0, 2.5, 12.5, 25, 25, 12.5, 2.5, 0: rounded half up 0 3 13 25 25 13 3 0
 * (the .5 cases exactly, with S = 256, through the whole chain). */
static void
test_magnitude_rounds_half_up_in_full_chain (void)
{
  enum { W = 8, H = 3 };
  static const int mag[W] = { 0, 3, 13, 25, 25, 13, 3, 0 };
  uint8_t y[H * W];
  uint8_t dst[H * W];
  for (int i = 0; i < W * H; i++)
    y[i] = (i % W) < 4 ? 0 : 10;
  for (int n = 0; n < 2; n++)
    for (int m = 0; m < 3; m += 2) {
      ce_edge_params p = ce_test_params (0.0, 1, (ce_border_mode) m,
          (ce_norm) n, CE_OUTPUT_MAGNITUDE);
      ce_assert_status (ce_ref_edge (y, W, W, H, &p, dst, W), CE_STATUS_OK);
      for (int i = 0; i < W * H; i++)
        if (dst[i] != mag[i % W])
          ce_test_fail ("norm %d %s: (%d,%d) = %d, want %d", n,
              ce_test_border_name (m), i % W, i / W, dst[i], mag[i % W]);
    }
}

/* ---- threshold and magnitude numerics on hand-made gradients ---- */

static void
test_edge_params_defaults (void)
{
  ce_edge_params p;
  ce_edge_consts c;
  memset (&p, 0x7F, sizeof p);
  ce_edge_params_init (&p);
  g_assert_true (p.threshold == 128.0);
  g_assert_true (p.blur != 0);
  g_assert_cmpint (p.border, ==, CE_BORDER_REPLICATE);
  g_assert_cmpint (p.norm, ==, CE_NORM_L2);
  g_assert_cmpint (p.output, ==, CE_OUTPUT_EDGES);
  ce_assert_status (ce_edge_params_validate (&p), CE_STATUS_OK);
  ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
  g_assert_cmpint (c.scale, ==, 256);
  g_assert_cmpint (c.limit, ==, 32768LL * 32768LL); /* (256 * 128)^2 */
  g_assert_true (c.blur != 0);
  g_assert_cmpint (c.border, ==, CE_BORDER_REPLICATE);
  g_assert_cmpint (c.norm, ==, CE_NORM_L2);
  g_assert_cmpint (c.output, ==, CE_OUTPUT_EDGES);
}

/* limit = floor ((S t)^2) for l2 and floor (S t) for l1. */
static void
test_threshold_limits_are_floored (void)
{
  ce_edge_consts c;
  c = make_consts (0.5, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.scale, ==, 256);
  g_assert_cmpint (c.limit, ==, 16384); /* (128)^2 */
  c = make_consts (0.5, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 128);
  c = make_consts (0.5, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.scale, ==, 1);
  g_assert_cmpint (c.limit, ==, 0); /* floor (0.25) */
  c = make_consts (0.5, 0, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 0);
  c = make_consts (4.99, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 24); /* floor (24.9001) */
  c = make_consts (6.99, 0, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 6);
  /* 256 * 37.3 = 9548.8: l1 9548, l2 floor (9548.8^2) = floor (9548^2 +
   * 2 * 9548 * 0.8 + 0.64) = floor (91179581.44) */
  c = make_consts (37.3, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 9548);
  c = make_consts (37.3, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 91179581LL);
  c = make_consts (2048.0, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 274877906944LL); /* 2^38 */
  c = make_consts (2048.0, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 524288);
  c = make_consts (2048.0, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 4194304);
  c = make_consts (0.0, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (c.limit, ==, 0);
}

#ifdef __SIZEOF_INT128__
/* floor (v^2) from the exact 106-bit square of v's mantissa. */
static long long
floor_square_exact (double v)
{
  __extension__ typedef unsigned __int128 u128;
  int exponent;
  double mantissa;
  unsigned long long m;
  if (v < 1.0)
    return 0;
  mantissa = frexp (v, &exponent);
  m = (unsigned long long) ldexp (mantissa, 53);
  return (long long) (((u128) m * m) >> (2 * (53 - exponent)));
}
#endif

/* The l2 limit floor ((S t)^2) on thresholds whose square lies just above,
 * on or just below an integer, against an exact 128-bit computation. */
static void
test_l2_limit_is_exact_near_integers (void)
{
#ifdef __SIZEOF_INT128__
  uint32_t seed = 12345;
  int i, d, blur;

  for (i = 0; i < 20000; i++) {
    long long n;
    double t;
    seed = seed * 1664525u + 1013904223u;
    n = 1 + (long long) (seed % 4000000u) * (i % 7 == 0 ? 68719 : 1);
    for (blur = 0; blur <= 1; blur++) {
      double s = blur ? 256.0 : 1.0;
      t = sqrt ((double) n) / s;
      for (d = -2; d <= 2; d++) {
        double u = t;
        ce_edge_consts c;
        int k;
        for (k = 0; k < (d < 0 ? -d : d); k++)
          u = nextafter (u, d < 0 ? 0.0 : 1e9);
        if (!(u >= 0.0 && u <= CE_THRESHOLD_MAX))
          continue;
        c = make_consts (u, blur, CE_NORM_L2, CE_OUTPUT_EDGES);
        if (c.limit != floor_square_exact (u * s)) {
          g_assert_cmpint (c.limit, ==, floor_square_exact (u * s));
          return;
        }
      }
    }
  }
#endif
}

/* gx = 3, gy = 4, S = 1: l2 m = 5, l1 m = 7. */
static void
test_l1_and_l2_norms_on_3_4_gradient (void)
{
  ce_edge_consts c;
  c = make_consts (5.0, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 0);
  c = make_consts (4.99, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 255);
  g_assert_cmpint (threshold_one (-3, -4, &c), ==, 255);
  c = make_consts (6.99, 0, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 255);
  g_assert_cmpint (threshold_one (-3, 4, &c), ==, 255);
  c = make_consts (7.0, 0, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 0);
  g_assert_cmpint (threshold_one (3, -4, &c), ==, 0);
  /* l2 6.99 is far above 5 */
  c = make_consts (6.99, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 0);
  c = make_consts (0.0, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (0, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (0, 1, &c), ==, 255);
  c = make_consts (0.0, 0, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (0, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (-1, 0, &c), ==, 255);
}

/* S = 256, t = 0.5: K = 16384.  128^2 = 16384 -> not above; 128^2 + 1^2 =
 * 16385 -> above.  l1 limit 128. */
static void
test_threshold_is_strictly_greater_at_fractional_limit (void)
{
  ce_edge_consts c;
  c = make_consts (0.5, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (128, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (0, -128, &c), ==, 0);
  g_assert_cmpint (threshold_one (128, 1, &c), ==, 255);
  g_assert_cmpint (threshold_one (-1, 128, &c), ==, 255);
  c = make_consts (0.5, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (64, -64, &c), ==, 0);
  g_assert_cmpint (threshold_one (65, -64, &c), ==, 255);
  /* 37.3: l1 limit 9548, l2 limit 91179581 (9548^2 = 91164304 is below,
   * 9549^2 = 91183401 above) */
  c = make_consts (37.3, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (9548, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (9548, 1, &c), ==, 255);
  c = make_consts (37.3, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (9548, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (9549, 0, &c), ==, 255);
  /* 9548^2 + 123^2 = 91179433 <= K; 9548^2 + 124^2 = 91179680 > K */
  g_assert_cmpint (threshold_one (9548, 123, &c), ==, 0);
  g_assert_cmpint (threshold_one (9548, 124, &c), ==, 255);
  /* the largest gradients (B 0 / 65280 step: |gx| = 4 * 65280) */
  c = make_consts (2048.0, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (261120, -261120, &c), ==, 0);
  c = make_consts (1442.0, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  /* sqrt(2) * 1020 = 1442.497 */
  g_assert_cmpint (threshold_one (261120, -261120, &c), ==, 255);
  c = make_consts (1443.0, 1, CE_NORM_L2, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (261120, -261120, &c), ==, 0);
  c = make_consts (2039.99, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (-261120, 261120, &c), ==, 255);
  c = make_consts (2040.0, 1, CE_NORM_L1, CE_OUTPUT_EDGES);
  g_assert_cmpint (threshold_one (-261120, 261120, &c), ==, 0);
}

/* Magnitude: min (255, round-half-up (m)). */
static void
test_magnitude_rounds_half_up_and_clamps (void)
{
  ce_edge_consts c;
  /* l2, S = 1 (no exact halves exist: sqrt of an integer) */
  c = make_consts (128.0, 0, CE_NORM_L2, CE_OUTPUT_MAGNITUDE);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 5);
  g_assert_cmpint (threshold_one (2, 1, &c), ==, 2); /* 2.236 */
  g_assert_cmpint (threshold_one (2, 2, &c), ==, 3); /* 2.828 */
  g_assert_cmpint (threshold_one (1, 1, &c), ==, 1); /* 1.414 */
  g_assert_cmpint (threshold_one (0, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (-255, 0, &c), ==, 255);
  g_assert_cmpint (threshold_one (254, 0, &c), ==, 254);
  g_assert_cmpint (threshold_one (180, 180, &c), ==, 255); /* 254.56 -> 255 */
  g_assert_cmpint (threshold_one (179, 180, &c), ==, 254); /* 253.85 */
  g_assert_cmpint (threshold_one (256, 0, &c), ==, 255);
  g_assert_cmpint (threshold_one (300, 400, &c), ==, 255); /* 500 */
  /* l2, S = 256 */
  c = make_consts (128.0, 1, CE_NORM_L2, CE_OUTPUT_MAGNITUDE);
  g_assert_cmpint (threshold_one (384, 512, &c), ==, 3); /* 640 / 256 = 2.5 */
  g_assert_cmpint (threshold_one (383, 512, &c), ==, 2); /* 639.4 / 256 */
  g_assert_cmpint (threshold_one (128, 0, &c), ==, 1); /* 0.5 */
  g_assert_cmpint (threshold_one (0, -127, &c), ==, 0); /* 0.496 */
  g_assert_cmpint (threshold_one (65152, 0, &c), ==, 255); /* 254.5 */
  g_assert_cmpint (threshold_one (65151, 0, &c), ==, 254); /* 254.496 */
  g_assert_cmpint (threshold_one (65408, 0, &c), ==, 255); /* 255.5 clamps */
  g_assert_cmpint (threshold_one (261120, -261120, &c), ==, 255);
  /* l1, S = 1 */
  c = make_consts (128.0, 0, CE_NORM_L1, CE_OUTPUT_MAGNITUDE);
  g_assert_cmpint (threshold_one (3, 4, &c), ==, 7);
  g_assert_cmpint (threshold_one (-3, -4, &c), ==, 7);
  g_assert_cmpint (threshold_one (200, -54, &c), ==, 254);
  g_assert_cmpint (threshold_one (200, 55, &c), ==, 255);
  g_assert_cmpint (threshold_one (200, 56, &c), ==, 255);
  g_assert_cmpint (threshold_one (1020, 1020, &c), ==, 255);
  /* l1, S = 256 */
  c = make_consts (128.0, 1, CE_NORM_L1, CE_OUTPUT_MAGNITUDE);
  g_assert_cmpint (threshold_one (640, 0, &c), ==, 3); /* 2.5 */
  g_assert_cmpint (threshold_one (320, -320, &c), ==, 3);
  g_assert_cmpint (threshold_one (639, 0, &c), ==, 2);
  g_assert_cmpint (threshold_one (-128, 0, &c), ==, 1); /* 0.5 */
  g_assert_cmpint (threshold_one (127, 0, &c), ==, 0);
  g_assert_cmpint (threshold_one (65151, 0, &c), ==, 254);
  g_assert_cmpint (threshold_one (65000, 152, &c), ==, 255); /* 254.5 */
  g_assert_cmpint (threshold_one (-261120, 261120, &c), ==, 255);
}

/* ce_ref_threshold over a padded grid: each pair lands at its place and
 * the padding stays. */
static void
test_threshold_writes_only_the_image (void)
{
  enum { W = 3, H = 2, GS = 4 * 2, DS = 5 };
  int32_t g[H * GS];
  uint8_t dst[H * DS];
  ce_edge_consts c = make_consts (5.0, 0, CE_NORM_L2, CE_OUTPUT_EDGES);
  static const int want[H][W] = { {0, 255, 0}, {255, 0, 255} };
  memset (g, 0, sizeof g);
  memset (dst, 0x77, sizeof dst);
  g[0 * GS + 2 * 1] = 5;        /* (1,0): 25 + 1 = 26 > 25: edge */
  g[0 * GS + 2 * 1 + 1] = 1;
  g[1 * GS + 2 * 0] = 6;
  g[1 * GS + 2 * 2 + 1] = -6;
  g[0 * GS + 2 * 2] = 3;
  g[0 * GS + 2 * 2 + 1] = 4;    /* exactly 5: no edge */
  g[0 * GS + 6] = 1000;         /* padding pairs: ignored */
  g[1 * GS + 7] = 1000;
  ce_assert_status (ce_ref_threshold (g, GS * sizeof (int32_t), W, H, &c, dst,
          DS), CE_STATUS_OK);
  for (int r = 0; r < H; r++) {
    for (int x = 0; x < W; x++)
      g_assert_cmpint (dst[r * DS + x], ==, want[r][x]);
    g_assert_cmpint (dst[r * DS + 3], ==, 0x77);
    g_assert_cmpint (dst[r * DS + 4], ==, 0x77);
  }
}

/* ---- argument checks ---- */

static void
test_params_validation_rejects_bad_values (void)
{
  static const double bad[] = { -1.0, -0.0001, 2048.0001, 4096.0, 1e300 };
  ce_edge_params p;
  ce_edge_consts c;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    ce_edge_params_init (&p);
    p.threshold = bad[k];
    ce_assert_invalid (ce_edge_params_validate (&p), "threshold");
    ce_assert_invalid (ce_edge_consts_init (&c, &p), "threshold");
  }
  ce_edge_params_init (&p);
  p.threshold = NAN;
  ce_assert_invalid (ce_edge_params_validate (&p), "threshold");
  ce_assert_invalid (ce_edge_consts_init (&c, &p), "threshold");
  p.threshold = INFINITY;
  ce_assert_invalid (ce_edge_params_validate (&p), "threshold");
  p.threshold = -INFINITY;
  ce_assert_invalid (ce_edge_params_validate (&p), "threshold");

  /* the ends are allowed */
  ce_edge_params_init (&p);
  p.threshold = 0.0;
  ce_assert_status (ce_edge_params_validate (&p), CE_STATUS_OK);
  p.threshold = 2048.0;
  ce_assert_status (ce_edge_params_validate (&p), CE_STATUS_OK);

  ce_edge_params_init (&p);
  p.border = (ce_border_mode) 3;
  ce_assert_invalid (ce_edge_params_validate (&p), "border");
  ce_assert_invalid (ce_edge_consts_init (&c, &p), "border");
  p.border = (ce_border_mode) - 1;
  ce_assert_invalid (ce_edge_params_validate (&p), "border");
  ce_edge_params_init (&p);
  p.norm = (ce_norm) 2;
  ce_assert_invalid (ce_edge_params_validate (&p), "norm");
  ce_assert_invalid (ce_edge_consts_init (&c, &p), "norm");
  ce_edge_params_init (&p);
  p.output = (ce_output) 2;
  ce_assert_invalid (ce_edge_params_validate (&p), "output");
  ce_assert_invalid (ce_edge_consts_init (&c, &p), "output");

  ce_assert_invalid (ce_edge_params_validate (NULL), "");
  ce_edge_params_init (&p);
  ce_assert_invalid (ce_edge_consts_init (NULL, &p), "");
  ce_assert_invalid (ce_edge_consts_init (&c, NULL), "");
  /* the message is never NULL, and a status has a sentence */
  g_assert_true (ce_last_error () != NULL);
  g_assert_true (ce_status_string (CE_STATUS_INVALID_ARGUMENT) != NULL);
  g_assert_true (ce_status_string (CE_STATUS_NO_DEVICE) != NULL);
}

static void
test_reference_functions_reject_bad_arguments (void)
{
  uint8_t y[64] = { 0 };
  uint16_t b[64] = { 0 };
  int32_t g[128] = { 0 };
  uint8_t d[256] = { 0 };
  ce_edge_params p;
  ce_edge_consts c;
  ce_frame f;

  ce_edge_params_init (&p);
  ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);

  /* blur */
  ce_assert_invalid (ce_ref_blur (NULL, 4, 4, 4, CE_BORDER_ZERO, b, 8), "");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, CE_BORDER_ZERO, NULL, 8), "");
  ce_assert_invalid (ce_ref_blur (y, 4, 0, 4, CE_BORDER_ZERO, b, 8), "width");
  ce_assert_invalid (ce_ref_blur (y, 4, -3, 4, CE_BORDER_ZERO, b, 8), "width");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 0, CE_BORDER_ZERO, b, 8), "height");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, -1, CE_BORDER_ZERO, b, 8), "height");
  ce_assert_invalid (ce_ref_blur (y, 3, 4, 4, CE_BORDER_ZERO, b, 8), "stride");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, CE_BORDER_ZERO, b, 7), "stride");
  /* rows of 16-bit values on odd addresses; strides beyond memory */
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, CE_BORDER_ZERO, b, 9), "stride");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, CE_BORDER_ZERO,
          (uint16_t *) ((uint8_t *) b + 1), 8), "dst");
  ce_assert_invalid (ce_ref_blur (y, (size_t) -4, 4, 4, CE_BORDER_ZERO, b, 8),
      "stride");
  ce_assert_invalid (ce_ref_blur (y, SIZE_MAX / 2, 4, 4, CE_BORDER_ZERO, b,
          8), "stride");
  /* sobel */
  ce_assert_invalid (ce_ref_sobel (NULL, 8, 4, 4, CE_BORDER_ZERO, g, 32), "");
  ce_assert_invalid (ce_ref_sobel (b, 8, 4, 4, CE_BORDER_ZERO, NULL, 32), "");
  ce_assert_invalid (ce_ref_sobel (b, 8, 0, 4, CE_BORDER_ZERO, g, 32), "width");
  ce_assert_invalid (ce_ref_sobel (b, 8, 4, -2, CE_BORDER_ZERO, g, 32),
      "height");
  ce_assert_invalid (ce_ref_sobel (b, 7, 4, 4, CE_BORDER_ZERO, g, 32),
      "stride");
  ce_assert_invalid (ce_ref_sobel (b, 8, 4, 4, CE_BORDER_ZERO, g, 31),
      "stride");
  ce_assert_invalid (ce_ref_sobel (b, 8, 4, 4, CE_BORDER_ZERO, g, 34),
      "stride");
  ce_assert_invalid (ce_ref_sobel (b, 9, 4, 4, CE_BORDER_ZERO, g, 32),
      "stride");
  /* threshold */
  ce_assert_invalid (ce_ref_threshold (NULL, 32, 4, 4, &c, d, 4), "");
  ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, NULL, d, 4), "");
  ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &c, NULL, 4), "");
  ce_assert_invalid (ce_ref_threshold (g, 32, 0, 4, &c, d, 4), "width");
  ce_assert_invalid (ce_ref_threshold (g, 32, 4, 0, &c, d, 4), "height");
  ce_assert_invalid (ce_ref_threshold (g, 31, 4, 4, &c, d, 4), "stride");
  ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &c, d, 3), "stride");
  {
    ce_edge_consts bad = c;

    bad.scale = 0;
    ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &bad, d, 4), "scale");
    bad = c;
    bad.norm = (ce_norm) 5;
    ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &bad, d, 4), "norm");
    bad = c;
    bad.output = (ce_output) - 1;
    ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &bad, d, 4), "output");
    bad = c;
    bad.limit = -1;
    ce_assert_invalid (ce_ref_threshold (g, 32, 4, 4, &bad, d, 4), "limit");
  }
  /* edge */
  ce_assert_invalid (ce_ref_edge (NULL, 4, 4, 4, &p, d, 4), "");
  ce_assert_invalid (ce_ref_edge (y, 4, 4, 4, NULL, d, 4), "");
  ce_assert_invalid (ce_ref_edge (y, 4, 4, 4, &p, NULL, 4), "");
  ce_assert_invalid (ce_ref_edge (y, 4, 0, 4, &p, d, 4), "width");
  ce_assert_invalid (ce_ref_edge (y, 4, 4, -5, &p, d, 4), "height");
  ce_assert_invalid (ce_ref_edge (y, 3, 4, 4, &p, d, 4), "stride");
  ce_assert_invalid (ce_ref_edge (y, 4, 4, 4, &p, d, 3), "stride");
  p.threshold = -1.0;
  ce_assert_invalid (ce_ref_edge (y, 4, 4, 4, &p, d, 4), "threshold");
  ce_edge_params_init (&p);
  /* upscale */
  ce_assert_invalid (ce_ref_upscale2x (NULL, 4, 4, 4, 1, d, 8), "");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 4, 4, 1, NULL, 8), "");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 0, 4, 1, d, 8), "width");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 4, 0, 1, d, 8), "height");
  ce_assert_invalid (ce_ref_upscale2x (y, 3, 4, 4, 1, d, 8), "stride");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 4, 4, 1, d, 7), "stride");
  ce_assert_invalid (ce_ref_upscale2x (y, 16, 4, 2, 4, d, 31), "stride");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 4, 4, 3, d, 24), "");
  ce_assert_invalid (ce_ref_upscale2x (y, 4, 4, 4, 2, d, 24), "");
  /* frames and luma */
  f.data = y;
  f.stride = 4;
  f.width = 4;
  f.height = 4;
  f.format = CE_FORMAT_GRAY8;
  ce_assert_status (ce_frame_validate (&f), CE_STATUS_OK);
  ce_assert_status (ce_ref_luma (&f, d, 4), CE_STATUS_OK);
  ce_assert_invalid (ce_ref_luma (&f, NULL, 4), "");
  ce_assert_invalid (ce_ref_luma (&f, d, 3), "stride");
  ce_assert_invalid (ce_ref_luma (NULL, d, 4), "");
  ce_assert_invalid (ce_ref_edge_frame (&f, NULL, d, 4), "");
  ce_assert_invalid (ce_ref_edge_frame (NULL, &p, d, 4), "");
  f.data = NULL;
  ce_assert_invalid (ce_frame_validate (&f), "");
  ce_assert_invalid (ce_ref_edge_frame (&f, &p, d, 4), "");
  f.data = y;
  f.width = 0;
  ce_assert_invalid (ce_frame_validate (&f), "width");
  ce_assert_invalid (ce_ref_luma (&f, d, 4), "width");
  f.width = 4;
  f.height = -1;
  ce_assert_invalid (ce_frame_validate (&f), "height");
  /* at most CE_MAX_SIZE a side (refused before any byte is read) */
  f.width = CE_MAX_SIZE + 1;
  f.stride = (size_t) CE_MAX_SIZE + 1;
  f.height = 1;
  ce_assert_invalid (ce_frame_validate (&f), "too large");
  ce_assert_invalid (ce_ref_edge_frame (&f, &p, d, f.stride), "too large");
  ce_assert_invalid (ce_ref_blur (y, f.stride, CE_MAX_SIZE + 1, 1,
          CE_BORDER_REFLECT, b, 2 * f.stride), "too large");
  f.width = 1;
  f.stride = 4;
  f.height = CE_MAX_SIZE + 1;
  ce_assert_invalid (ce_frame_validate (&f), "too large");
  f.height = INT_MAX;
  ce_assert_invalid (ce_frame_validate (&f), "too large");
  f.height = CE_MAX_SIZE;
  ce_assert_status (ce_frame_validate (&f), CE_STATUS_OK);
  f.width = 4;
  f.height = 4;
  f.stride = 3;
  ce_assert_invalid (ce_frame_validate (&f), "stride");
  ce_assert_invalid (ce_ref_edge_frame (&f, &p, d, 4), "stride");
  /* a packed format's row is wider than its width */
  f.stride = 8;
  f.format = CE_FORMAT_RGBA;
  ce_assert_invalid (ce_frame_validate (&f), "stride");
  f.stride = 16;
  ce_assert_status (ce_frame_validate (&f), CE_STATUS_OK);
  f.stride = 11;
  f.format = CE_FORMAT_RGB;
  ce_assert_invalid (ce_frame_validate (&f), "stride");
  f.stride = 12;
  ce_assert_status (ce_frame_validate (&f), CE_STATUS_OK);
  f.format = CE_FORMAT_COUNT;
  ce_assert_invalid (ce_frame_validate (&f), "format");
  f.format = (ce_format) - 1;
  ce_assert_invalid (ce_ref_luma (&f, d, 4), "format");
  {
    ce_luma_layout l;
    ce_assert_invalid (ce_luma_layout_get (CE_FORMAT_COUNT, &l), "format");
    ce_assert_invalid (ce_luma_layout_get (CE_FORMAT_GRAY8, NULL), "");
  }
}

/* A border mode outside the enum is an error, not silently replicate. */
static void
test_blur_and_sobel_reject_bad_border_mode (void)
{
  uint8_t y[16] = { 0 };
  uint16_t b[16] = { 0 };
  int32_t g[32] = { 0 };
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, (ce_border_mode) 7, b, 8),
      "border");
  ce_assert_invalid (ce_ref_blur (y, 4, 4, 4, (ce_border_mode) - 1, b, 8),
      "border");
  ce_assert_invalid (ce_ref_sobel (b, 8, 4, 4, (ce_border_mode) 3, g, 32),
      "border");
}

/* ---- luma extraction ---- */

typedef struct
{
  ce_format format;
  int bpp;                      /* bytes per pixel (YUY2/UYVY: 2) */
  int is_rgb;
  int y, r, g, b;               /* byte offsets in the pixel */
} luma_case;

/* By hand from the formats' memory layouts (GStreamer's names are byte
 * orders).  YUY2 is Y0 U Y1 V, so pixel x has its Y at byte 2x; UYVY is
 * U Y0 V Y1, Y at 2x + 1. */
static const luma_case luma_cases[] = {
  {CE_FORMAT_GRAY8, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_I420, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_YV12, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_NV12, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_NV21, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_Y42B, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_Y444, 1, 0, 0, 0, 0, 0},
  {CE_FORMAT_YUY2, 2, 0, 0, 0, 0, 0},
  {CE_FORMAT_UYVY, 2, 0, 1, 0, 0, 0},
  {CE_FORMAT_RGB, 3, 1, 0, 0, 1, 2},
  {CE_FORMAT_BGR, 3, 1, 0, 2, 1, 0},
  {CE_FORMAT_RGBA, 4, 1, 0, 0, 1, 2},
  {CE_FORMAT_BGRA, 4, 1, 0, 2, 1, 0},
  {CE_FORMAT_ARGB, 4, 1, 0, 1, 2, 3},
  {CE_FORMAT_ABGR, 4, 1, 0, 3, 2, 1},
  {CE_FORMAT_RGBx, 4, 1, 0, 0, 1, 2},
  {CE_FORMAT_BGRx, 4, 1, 0, 2, 1, 0},
  {CE_FORMAT_xRGB, 4, 1, 0, 1, 2, 3},
  {CE_FORMAT_xBGR, 4, 1, 0, 3, 2, 1},
};

static void
test_luma_layout_of_every_format (void)
{
  g_assert_cmpint (sizeof luma_cases / sizeof luma_cases[0], ==,
      CE_FORMAT_COUNT);
  for (int k = 0; k < CE_FORMAT_COUNT; k++) {
    const luma_case *lc = &luma_cases[k];
    ce_luma_layout l;
    g_assert_cmpint (lc->format, ==, k);
    ce_assert_status (ce_luma_layout_get (lc->format, &l), CE_STATUS_OK);
    g_assert_true (ce_format_name (lc->format) != NULL);
    if (lc->format == CE_FORMAT_YUY2 || lc->format == CE_FORMAT_UYVY) {
      /* the layout describes the pixel pairs: 2 bytes per pixel, Y of
       * pixel 0 at y_offset */
      g_assert_cmpint (l.bytes_per_pixel, ==, 2);
    } else {
      g_assert_cmpint (l.bytes_per_pixel, ==, lc->bpp);
    }
    g_assert_cmpint (l.is_rgb, ==, lc->is_rgb);
    if (lc->is_rgb) {
      g_assert_cmpint (l.r_offset, ==, lc->r);
      g_assert_cmpint (l.g_offset, ==, lc->g);
      g_assert_cmpint (l.b_offset, ==, lc->b);
    } else {
      g_assert_cmpint (l.y_offset, ==, lc->y);
    }
  }
}

/* 3x2 frames with padded strides; the bytes that are not luma (chroma,
 * alpha, filler, padding) hold garbage that must not leak into the luma.
 * RGB: white 255, red (77*255+128)>>8 = 77, green (150*255+128)>>8 = 149,
 * blue (29*255+128)>>8 = 29, black 0, (10,20,30): (770+3000+870+128)>>8
 * = 4768>>8 = 18. */
static void
test_luma_extraction_for_every_format (void)
{
  enum { W = 3, H = 2, DS = 7 };
  static const uint8_t rgb[W * H][3] = {
    {255, 255, 255}, {255, 0, 0}, {0, 255, 0},
    {0, 0, 255}, {0, 0, 0}, {0, 0, 128},
  };
  /* (0, 0, 128): 29 x 128 + 128 = 3840, exactly 15 x 256, the +128 of
   * the rounding on the half */
  static const uint8_t rgb_luma[W * H] = { 255, 77, 149, 29, 0, 15 };
  static const uint8_t yuv_luma[W * H] = { 17, 200, 3, 99, 254, 0 };

  for (int k = 0; k < CE_FORMAT_COUNT; k++) {
    const luma_case *lc = &luma_cases[k];
    /* row bytes: YUY2/UYVY of odd width still hold whole pairs */
    int row = (lc->bpp == 2) ? 4 * ((W + 1) / 2) : lc->bpp * W;
    size_t stride = row + 5;
    uint8_t src[2 * 32];
    uint8_t dst[H * DS];
    ce_frame f;

    for (size_t i = 0; i < sizeof src; i++)
      src[i] = (uint8_t) (0xA0 + i * 7);        /* garbage everywhere */
    for (int i = 0; i < W * H; i++) {
      uint8_t *px = src + (i / W) * stride + (i % W) * lc->bpp;
      if (lc->is_rgb) {
        px[lc->r] = rgb[i][0];
        px[lc->g] = rgb[i][1];
        px[lc->b] = rgb[i][2];
      } else {
        px[lc->y] = yuv_luma[i];
      }
    }
    memset (dst, 0xEE, sizeof dst);
    f = ce_test_frame (src, stride, W, H, lc->format);
    ce_assert_status (ce_ref_luma (&f, dst, DS), CE_STATUS_OK);
    for (int i = 0; i < W * H; i++) {
      int want = lc->is_rgb ? rgb_luma[i] : yuv_luma[i];
      int got = dst[(i / W) * DS + i % W];
      if (got != want)
        ce_test_fail ("%s: luma (%d,%d) = %d, want %d",
            ce_format_name (lc->format), i % W, i / W, got, want);
    }
    for (int r = 0; r < H; r++)
      for (int x = W; x < DS; x++)
        g_assert_cmpint (dst[r * DS + x], ==, 0xEE);
  }
}

/* The whole chain from an RGB frame equals the chain on its luma worked
 * out by hand: a BGRx frame, left half black, right half pure green
 * (luma 149), no blur, S = 1: gx = 4 * 149 = 596 at the step columns. */
static void
test_edge_frame_from_packed_rgb (void)
{
  enum { W = 6, H = 3, STRIDE = 4 * W + 8 };
  uint8_t src[H * STRIDE];
  uint8_t dst[H * W];
  ce_frame f;
  ce_edge_params p;
  memset (src, 0x99, sizeof src);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      uint8_t *px = src + r * STRIDE + 4 * c;
      px[0] = 0;                /* B */
      px[1] = c < 3 ? 0 : 255;  /* G */
      px[2] = 0;                /* R */
      px[3] = 0x42;             /* x */
    }
  f = ce_test_frame (src, STRIDE, W, H, CE_FORMAT_BGRx);
  p = ce_test_params (595.0, 0, CE_BORDER_REPLICATE, CE_NORM_L2,
      CE_OUTPUT_EDGES);
  ce_assert_status (ce_ref_edge_frame (&f, &p, dst, W), CE_STATUS_OK);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (dst[i], ==, (i % W == 2 || i % W == 3) ? 255 : 0);
  p.threshold = 596.0;
  ce_assert_status (ce_ref_edge_frame (&f, &p, dst, W), CE_STATUS_OK);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (dst[i], ==, 0);
  /* magnitude: 596 -> 255; l1 the same (gy = 0) */
  p.output = CE_OUTPUT_MAGNITUDE;
  p.norm = CE_NORM_L1;
  ce_assert_status (ce_ref_edge_frame (&f, &p, dst, W), CE_STATUS_OK);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (dst[i], ==, (i % W == 2 || i % W == 3) ? 255 : 0);
}

/* ---- upscale ---- */

static void
test_upscale_1x1_fills_2x2 (void)
{
  uint8_t s = 123;
  uint8_t d[2 * 3];
  uint8_t s4[4] = { 1, 2, 250, 255 };
  uint8_t d4[2 * 12];
  memset (d, 0, sizeof d);
  ce_assert_status (ce_ref_upscale2x (&s, 1, 1, 1, 1, d, 3), CE_STATUS_OK);
  g_assert_cmpint (d[0], ==, 123);
  g_assert_cmpint (d[1], ==, 123);
  g_assert_cmpint (d[3], ==, 123);
  g_assert_cmpint (d[4], ==, 123);
  g_assert_cmpint (d[2], ==, 0);
  g_assert_cmpint (d[5], ==, 0);
  memset (d4, 0, sizeof d4);
  ce_assert_status (ce_ref_upscale2x (s4, 4, 1, 1, 4, d4, 12), CE_STATUS_OK);
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < 8; i++)
      g_assert_cmpint (d4[r * 12 + i], ==, s4[i % 4]);
  g_assert_cmpint (d4[8], ==, 0);
}

/* 2x2 [a b; c d].  Output index i -> x = i/2 - 1/4 clamped to [0, 1]:
 * i = 0: x = 0 (clamped), i = 1: 0.25, i = 2: 0.75, i = 3: 1 (clamped).
 * With fx, fy in quarters the weights (x256) are (4-fx)(4-fy)16 etc.:
 *   (1,1): fx = fy = 1/4: 144 a + 48 b + 48 c + 16 d
 *   (2,1): fx = 3/4, fy = 1/4: 48 a + 144 b + 16 c + 48 d
 *   (1,0): 192 a + 64 b; (2,0): 64 a + 192 b; (0,1): 192 a + 64 c; ...
 * each (sum + 128) >> 8; the corners are the inputs. */
#define BL(w00, w10, w01, w11) \
  (((w00) * A + (w10) * B + (w01) * C + (w11) * D + 128) >> 8)

static void
test_upscale_2x2_by_hand (void)
{
  enum { A = 0, B = 100, C = 201, D = 255 };
  static const int want[4][4] = {
    {A, BL (192, 64, 0, 0), BL (64, 192, 0, 0), B},
    {BL (192, 0, 64, 0), BL (144, 48, 48, 16), BL (48, 144, 16, 48),
        BL (0, 192, 0, 64)},
    {BL (64, 0, 192, 0), BL (48, 16, 144, 48), BL (16, 48, 48, 144),
        BL (0, 64, 0, 192)},
    {C, BL (0, 0, 192, 64), BL (0, 0, 64, 192), D},
  };
  static const uint8_t src[2 * 5] = { A, B, 0x11, 0x22, 0x33,
    C, D, 0x44, 0x55, 0x66
  };
  uint8_t dst[4 * 9];
  memset (dst, 0xBB, sizeof dst);
  ce_assert_status (ce_ref_upscale2x (src, 5, 2, 2, 1, dst, 9), CE_STATUS_OK);
  for (int j = 0; j < 4; j++) {
    for (int i = 0; i < 4; i++)
      if (dst[j * 9 + i] != want[j][i])
        ce_test_fail ("(%d,%d) = %d, want %d", i, j, dst[j * 9 + i],
            want[j][i]);
    for (int i = 4; i < 9; i++)
      g_assert_cmpint (dst[j * 9 + i], ==, 0xBB);
  }
  /* a few of them as numbers: (144*0 + 4800 + 9648 + 4080 + 128) >> 8 =
   * 18656 >> 8 = 72; (6400 + 128) >> 8 = 25; (19200 + 128) >> 8 = 75 */
  g_assert_cmpint (dst[1 * 9 + 1], ==, 72);
  g_assert_cmpint (dst[0 * 9 + 1], ==, 25);
  g_assert_cmpint (dst[0 * 9 + 2], ==, 75);
}

/* 3x2 GRAY8: along x (n = 3) i -> (p, fx) = (0,0) (0,1) (0,3) (1,1) (1,3)
 * (2,0); along y (n = 2) j -> (0,0) (0,1) (0,3) (1,0). */
static void
test_upscale_3x2_gray8 (void)
{
  static const int px[6] = { 0, 0, 0, 1, 1, 2 }, fx[6] = { 0, 1, 3, 1, 3, 0 };
  static const int py[4] = { 0, 0, 0, 1 }, fy[4] = { 0, 1, 3, 0 };
  static const uint8_t src[2 * 4] = { 10, 250, 30, 0xFF, 90, 0, 255, 0xFF };
  uint8_t dst[4 * 8];
  memset (dst, 0xCD, sizeof dst);
  ce_assert_status (ce_ref_upscale2x (src, 4, 3, 2, 1, dst, 8), CE_STATUS_OK);
  for (int j = 0; j < 4; j++) {
    for (int i = 0; i < 6; i++) {
      int x0 = px[i], x1 = x0 + 1 < 3 ? x0 + 1 : 2;
      int y0 = py[j], y1 = y0 + 1 < 2 ? y0 + 1 : 1;
      int want = ((4 - fx[i]) * (4 - fy[j]) * 16 * src[y0 * 4 + x0]
          + fx[i] * (4 - fy[j]) * 16 * src[y0 * 4 + x1]
          + (4 - fx[i]) * fy[j] * 16 * src[y1 * 4 + x0]
          + fx[i] * fy[j] * 16 * src[y1 * 4 + x1] + 128) >> 8;
      if (dst[j * 8 + i] != want)
        ce_test_fail ("(%d,%d) = %d, want %d", i, j, dst[j * 8 + i], want);
    }
    g_assert_cmpint (dst[j * 8 + 6], ==, 0xCD);
    g_assert_cmpint (dst[j * 8 + 7], ==, 0xCD);
  }
  /* by number: (2,0): fx 3/4 between 10 and 250: (64*10 + 192*250 + 128)
   * >> 8 = 48768 >> 8 = 190; (3,1): p 1, fx 1/4, fy 1/4 over 250 30 0 255:
   * (144*250 + 48*30 + 48*0 + 16*255 + 128) >> 8 = 41648 >> 8 = 162 */
  g_assert_cmpint (dst[0 * 8 + 2], ==, 190);
  g_assert_cmpint (dst[1 * 8 + 3], ==, 162);
}

/* 4 bytes per pixel: each byte filtered alone, the 4th (alpha) too.
 * 2x1 pixels P = (0, 255, 8, 200), Q = (255, 0, 200, 8), padded strides.
 * Output row 0 and 1 are equal (height 1); x: P, (192P + 64Q + 128) >> 8,
 * (64P + 192Q + 128) >> 8, Q. */
static void
test_upscale_4_byte_pixels_filter_every_channel (void)
{
  static const uint8_t P[4] = { 0, 255, 8, 200 }, Q[4] = { 255, 0, 200, 8 };
  uint8_t src[12];
  uint8_t dst[2 * 20];
  memset (src, 0x5C, sizeof src);
  memcpy (src, P, 4);
  memcpy (src + 4, Q, 4);
  memset (dst, 0x3E, sizeof dst);
  ce_assert_status (ce_ref_upscale2x (src, 12, 2, 1, 4, dst, 20), CE_STATUS_OK);
  for (int r = 0; r < 2; r++) {
    for (int ch = 0; ch < 4; ch++) {
      g_assert_cmpint (dst[r * 20 + 0 + ch], ==, P[ch]);
      g_assert_cmpint (dst[r * 20 + 4 + ch], ==,
          (192 * P[ch] + 64 * Q[ch] + 128) >> 8);
      g_assert_cmpint (dst[r * 20 + 8 + ch], ==,
          (64 * P[ch] + 192 * Q[ch] + 128) >> 8);
      g_assert_cmpint (dst[r * 20 + 12 + ch], ==, Q[ch]);
    }
    for (int i = 16; i < 20; i++)
      g_assert_cmpint (dst[r * 20 + i], ==, 0x3E);
  }
  /* by number, channel 1 at x = 1: (192*255 + 128) >> 8 = 49088 >> 8 = 191 */
  g_assert_cmpint (dst[4 + 1], ==, 191);
  g_assert_cmpint (dst[8 + 1], ==, 64); /* (64*255 + 128) >> 8 = 16448 >> 8 */

  /* 2x2 of 4-byte pixels: the centre weights 144/48/48/16 on each byte */
  {
    static const uint8_t p[4][4] = {
      {0, 10, 200, 255}, {255, 20, 100, 0}, {128, 30, 0, 255}, {1, 40, 50, 7}
    };
    uint8_t s2[2 * 12];
    uint8_t d2[4 * 20];
    memset (s2, 0x5C, sizeof s2);
    memcpy (s2 + 0, p[0], 4);
    memcpy (s2 + 4, p[1], 4);
    memcpy (s2 + 12, p[2], 4);
    memcpy (s2 + 16, p[3], 4);
    ce_assert_status (ce_ref_upscale2x (s2, 12, 2, 2, 4, d2, 20), CE_STATUS_OK);
    for (int ch = 0; ch < 4; ch++) {
      g_assert_cmpint (d2[20 + 4 + ch], ==, (144 * p[0][ch] + 48 * p[1][ch]
              + 48 * p[2][ch] + 16 * p[3][ch] + 128) >> 8);
      g_assert_cmpint (d2[3 * 20 + 12 + ch], ==, p[3][ch]);
      g_assert_cmpint (d2[3 * 20 + 0 + ch], ==, p[2][ch]);
    }
  }
}

/* ---- compare ---- */

static void
test_compare_reports_count_and_first_difference (void)
{
  uint8_t e[3 * 8], g[3 * 6];
  ce_diff d;
  memset (e, 1, sizeof e);
  memset (g, 1, sizeof g);
  /* padding differs: ignored */
  e[5] = 9;
  e[7] = 9;
  g[5] = 3;
  memset (&d, 0x55, sizeof d);
  g_assert_cmpint (ce_compare_u8 (e, 8, g, 6, 5, 3, &d), ==, 0);
  g_assert_cmpint (d.count, ==, 0);
  g[1 * 6 + 2] = 9;             /* first in row-major order: (2,1) */
  g[2 * 6 + 0] = 200;
  g[2 * 6 + 4] = 0;
  e[2 * 8 + 4] = 255;
  g_assert_cmpint (ce_compare_u8 (e, 8, g, 6, 5, 3, &d), ==, 3);
  g_assert_cmpint (d.count, ==, 3);
  g_assert_cmpint (d.x, ==, 2);
  g_assert_cmpint (d.y, ==, 1);
  g_assert_cmpint (d.expected, ==, 1);
  g_assert_cmpint (d.got, ==, 9);
  /* a later row only */
  g[1 * 6 + 2] = 1;
  g_assert_cmpint (ce_compare_u8 (e, 8, g, 6, 5, 3, &d), ==, 2);
  g_assert_cmpint (d.x, ==, 0);
  g_assert_cmpint (d.y, ==, 2);
  g_assert_cmpint (d.expected, ==, 1);
  g_assert_cmpint (d.got, ==, 200);
}

/* 4-byte pixels: a pixel with two differing bytes counts once, and x is
 * the pixel's column; expected/got belong to its first differing byte. */
static void
test_compare_pixels_counts_pixels_not_bytes (void)
{
  uint8_t e[2 * 12], g[2 * 16];
  ce_diff d;
  memset (e, 7, sizeof e);
  memset (g, 7, sizeof g);
  g[12 + 3] = 99;               /* padding of row 0 in g: ignored */
  g_assert_cmpint (ce_compare_pixels (e, 12, g, 16, 3, 2, 4, &d), ==, 0);
  g[16 + 4 + 1] = 10;           /* row 1, pixel 1, bytes 1 and 3 */
  g[16 + 4 + 3] = 11;
  g[16 + 8 + 0] = 12;           /* row 1, pixel 2, byte 0 */
  g_assert_cmpint (ce_compare_pixels (e, 12, g, 16, 3, 2, 4, &d), ==, 2);
  g_assert_cmpint (d.count, ==, 2);
  g_assert_cmpint (d.x, ==, 1);
  g_assert_cmpint (d.y, ==, 1);
  g_assert_cmpint (d.expected, ==, 7);
  g_assert_cmpint (d.got, ==, 10);
  /* the same bytes as 1-byte pixels: three differ */
  g_assert_cmpint (ce_compare_u8 (e, 12, g, 16, 12, 2, &d), ==, 3);
  g_assert_cmpint (d.x, ==, 5);
  /* empty or negative sizes and missing images compare nothing (a
   * negative width once became a huge row) */
  g_assert_cmpint (ce_compare_u8 (e, 12, g, 16, -1, 2, &d), ==, 0);
  g_assert_cmpint (d.count, ==, 0);
  g_assert_cmpint (ce_compare_u8 (e, 12, g, 16, 12, -2, &d), ==, 0);
  g_assert_cmpint (ce_compare_pixels (e, 12, g, 16, 3, 2, -4, &d), ==, 0);
  g_assert_cmpint (ce_compare_pixels (e, 12, g, 16, 0, 2, 4, &d), ==, 0);
  g_assert_cmpint (ce_compare_pixels (NULL, 12, g, 16, 3, 2, 4, &d), ==, 0);
  g_assert_cmpint (ce_compare_pixels (e, 12, NULL, 16, 3, 2, 4, NULL), ==, 0);
}

/* ---- cases ---- */

/* The upscale takes inputs up to CE_UPSCALE_MAX_SIZE a side, so its
 * output may be more than CE_MAX_SIZE wide: the reference takes it, and
 * gives the fast path's bytes.  A row of 2^27 + 1 pixels (its output
 * 2^28 + 2 wide); the last columns hold the row's end. */
static void
test_upscale_output_may_pass_the_size_limit (void)
{
  const int W = CE_MAX_SIZE / 2 + 1;
  const size_t n = (size_t) 2 * W * 2;
  uint8_t *src = g_malloc (W), *ref = g_malloc (n), *got = g_malloc (n);

  for (int i = 0; i < W; i++)
    src[i] = (uint8_t) (i * 131u >> 3);
  memset (ref, CE_TEST_POISON, n);
  memset (got, CE_TEST_POISON, n);
  ce_assert_status (ce_ref_upscale2x (src, W, W, 1, 1, ref, (size_t) 2 * W),
      CE_STATUS_OK);
  ce_assert_status (ce_cpu_upscale2x_rows (src, W, W, 1, 1, 0, 2, got,
          (size_t) 2 * W), CE_STATUS_OK);
  g_assert_true (memcmp (ref, got, n) == 0);
  g_assert_cmpint (ref[n - 1], ==, src[W - 1]);
  g_assert_cmpint (ref[2 * (size_t) W - 1], ==, src[W - 1]);
  /* a short output row is still refused, naming the output */
  ce_assert_invalid (ce_ref_upscale2x (src, W, W, 1, 1, ref,
          (size_t) 2 * W - 1), "dst stride");
  g_free (src);
  g_free (ref);
  g_free (got);
}

/* Gradients up to CE_REF_GRAD_MAX in magnitude give the definition's
 * bytes (255 for every output at the largest: 2^24 is far past every
 * limit, and its magnitude past 255 at either scale); one beyond it, or
 * INT32_MIN, is refused with nothing written. */
static void
test_threshold_takes_gradients_up_to_its_limit (void)
{
  static const int32_t bad[][2] = {
    {CE_REF_GRAD_MAX + 1, 0}, {0, -CE_REF_GRAD_MAX - 1},
    {INT32_MIN, 0}, {INT32_MIN, INT32_MIN}, {1 << 30, 1 << 30},
  };
  for (int blur = 0; blur < 2; blur++)
    for (int norm = 0; norm < 2; norm++)
      for (int output = 0; output < 2; output++) {
        ce_edge_params p;
        ce_edge_consts c;
        int32_t g[6] = { CE_REF_GRAD_MAX, CE_REF_GRAD_MAX,
          -CE_REF_GRAD_MAX, 0, 3, -4
        };
        uint8_t d[3];

        ce_edge_params_init (&p);
        p.blur = blur;
        p.norm = (ce_norm) norm;
        p.output = (ce_output) output;
        p.threshold = 2048.0;
        ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
        memset (d, CE_TEST_POISON, sizeof d);
        ce_assert_status (ce_ref_threshold (g, sizeof g, 3, 1, &c, d,
                sizeof d), CE_STATUS_OK);
        g_assert_cmpint (d[0], ==, 255);
        g_assert_cmpint (d[1], ==, 255);
        /* (3, -4): no edge under a threshold of 2048; magnitude 5 (l2)
         * or 7 (l1) without the blur, 0 with it (divided by 256) */
        g_assert_cmpint (d[2], ==, output && !blur ? (norm ? 7 : 5) : 0);
        for (size_t i = 0; i < G_N_ELEMENTS (bad); i++) {
          g[2] = bad[i][0];
          g[3] = bad[i][1];
          memset (d, CE_TEST_POISON, sizeof d);
          ce_assert_invalid (ce_ref_threshold (g, sizeof g, 3, 1, &c, d,
                  sizeof d), "gradient");
          for (size_t k = 0; k < sizeof d; k++)
            g_assert_cmpint (d[k], ==, CE_TEST_POISON);
        }
      }
}

/* ce_ref_edge_frame refuses a bad output before it allocates its luma
 * scratch or reads a pixel, with the status ce_cpu_edge_rows gives: a
 * 2^28 x 2^28 RGB frame (never read) with no output or a short stride. */
static void
test_edge_frame_checks_its_output_first (void)
{
  static uint8_t one;
  const int n = CE_MAX_SIZE;
  ce_edge_params p;
  ce_frame f;
  uint8_t d;

  ce_edge_params_init (&p);
  memset (&f, 0, sizeof f);
  f.format = CE_FORMAT_RGB;
  f.width = n;
  f.height = n;
  f.data = &one;
  f.stride = (size_t) 3 * n;
  ce_assert_invalid (ce_ref_edge_frame (&f, &p, NULL, n), "dst");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 1, NULL, n), "dst");
  ce_assert_invalid (ce_ref_edge_frame (&f, &p, &d, 1), "dst stride");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 1, &d, 1), "dst stride");
}

/* ce_set_last_error () given the calling thread's own message, or a part
 * of it. */
static void
test_set_last_error_of_its_own_message (void)
{
  ce_set_last_error ("a worker failed");
  ce_set_last_error (ce_last_error ());
  g_assert_cmpstr (ce_last_error (), ==, "a worker failed");
  ce_set_last_error (ce_last_error () + 2);
  g_assert_cmpstr (ce_last_error (), ==, "worker failed");
  ce_set_last_error (NULL);
  g_assert_cmpstr (ce_last_error (), ==, "no error");
}

void
ce_test_register_reference (void)
{
  ce_test_add ("/cpu/reference/impulse-blur-taps-sum-to-256",
      test_impulse_blur_taps_sum_to_256);
  ce_test_add ("/cpu/reference/impulse-blur-gives-outer-product-taps",
      test_impulse_blur_gives_outer_product_taps);
  ce_test_add ("/cpu/reference/blur-of-white-is-65280-except-zero-border",
      test_blur_of_white_is_65280_except_zero_border);
  ce_test_add ("/cpu/reference/blur-3x3-corners-by-border-mode",
      test_blur_3x3_corners_by_border_mode);
  ce_test_add ("/cpu/reference/blur-1x1-frame", test_blur_1x1_frame);
  ce_test_add ("/cpu/reference/blur-2x1-and-1x2-frames",
      test_blur_2x1_and_1x2_frames);
  ce_test_add ("/cpu/reference/sobel-3x3-corners-by-border-mode",
      test_sobel_3x3_corners_by_border_mode);
  ce_test_add ("/cpu/reference/sobel-1x1-frame-has-no-gradient",
      test_sobel_1x1_frame_has_no_gradient);
  ce_test_add ("/cpu/reference/sobel-2x1-and-1x2-frames",
      test_sobel_2x1_and_1x2_frames);
  ce_test_add ("/cpu/reference/constant-frame-has-no-edges-with-replicate-and-reflect",
      test_constant_frame_has_no_edges_with_replicate_and_reflect);
  ce_test_add ("/cpu/reference/constant-frame-zero-border-edges-on-ring-only",
      test_constant_frame_zero_border_edges_on_ring_only);
  ce_test_add ("/cpu/reference/constant-frame-zero-border-with-blur-edges-three-deep",
      test_constant_frame_zero_border_with_blur_edges_three_deep);
  ce_test_add ("/cpu/reference/vertical-step-without-blur",
      test_vertical_step_without_blur);
  ce_test_add ("/cpu/reference/vertical-step-with-blur",
      test_vertical_step_with_blur);
  ce_test_add ("/cpu/reference/magnitude-rounds-half-up-in-full-chain",
      test_magnitude_rounds_half_up_in_full_chain);
  ce_test_add ("/cpu/reference/edge-params-defaults",
      test_edge_params_defaults);
  ce_test_add ("/cpu/reference/threshold-limits-are-floored",
      test_threshold_limits_are_floored);
  ce_test_add ("/cpu/reference/l2-limit-is-exact-near-integers",
      test_l2_limit_is_exact_near_integers);
  ce_test_add ("/cpu/reference/l1-and-l2-norms-on-3-4-gradient",
      test_l1_and_l2_norms_on_3_4_gradient);
  ce_test_add ("/cpu/reference/threshold-is-strictly-greater-at-fractional-limit",
      test_threshold_is_strictly_greater_at_fractional_limit);
  ce_test_add ("/cpu/reference/magnitude-rounds-half-up-and-clamps",
      test_magnitude_rounds_half_up_and_clamps);
  ce_test_add ("/cpu/reference/threshold-writes-only-the-image",
      test_threshold_writes_only_the_image);
  ce_test_add ("/cpu/reference/params-validation-rejects-bad-values",
      test_params_validation_rejects_bad_values);
  ce_test_add ("/cpu/reference/reference-functions-reject-bad-arguments",
      test_reference_functions_reject_bad_arguments);
  ce_test_add ("/cpu/reference/blur-and-sobel-reject-bad-border-mode",
      test_blur_and_sobel_reject_bad_border_mode);
  ce_test_add ("/cpu/reference/luma-layout-of-every-format",
      test_luma_layout_of_every_format);
  ce_test_add ("/cpu/reference/luma-extraction-for-every-format",
      test_luma_extraction_for_every_format);
  ce_test_add ("/cpu/reference/edge-frame-from-packed-rgb",
      test_edge_frame_from_packed_rgb);
  ce_test_add ("/cpu/reference/upscale-1x1-fills-2x2",
      test_upscale_1x1_fills_2x2);
  ce_test_add ("/cpu/reference/upscale-2x2-by-hand", test_upscale_2x2_by_hand);
  ce_test_add ("/cpu/reference/upscale-3x2-gray8", test_upscale_3x2_gray8);
  ce_test_add ("/cpu/reference/upscale-4-byte-pixels-filter-every-channel",
      test_upscale_4_byte_pixels_filter_every_channel);
  ce_test_add ("/cpu/reference/compare-reports-count-and-first-difference",
      test_compare_reports_count_and_first_difference);
  ce_test_add ("/cpu/reference/compare-pixels-counts-pixels-not-bytes",
      test_compare_pixels_counts_pixels_not_bytes);
  ce_test_add ("/cpu/reference/upscale-output-may-pass-the-size-limit",
      test_upscale_output_may_pass_the_size_limit);
  ce_test_add ("/cpu/reference/set-last-error-of-its-own-message",
      test_set_last_error_of_its_own_message);
  ce_test_add ("/cpu/reference/threshold-takes-gradients-up-to-its-limit",
      test_threshold_takes_gradients_up_to_its_limit);
  ce_test_add ("/cpu/reference/edge-frame-checks-its-output-first",
      test_edge_frame_checks_its_output_first);
}
