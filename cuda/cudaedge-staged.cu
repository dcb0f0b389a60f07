/* gst-cudaedge compute core: the staged kernels, for the benchmark and
 * the tests
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The edge chain in separate passes (blur variants, Sobel, threshold, and
 * Sobel + threshold), giving the same bytes as the fused kernel.  The
 * plugin does not use them: they show what fusing saves and serve as a
 * second GPU implementation in the tests.  Built into their own library
 * (core_staged_dep).  Like the plugin's kernels, every kernel takes the
 * range of output rows [row0, row1) it computes, so that the launchers
 * can split frames taller than a grid holds (ce_launch_rows).
 */

#include "cudaedge-launch.cuh"
#include "cudaedge-staged.h"

/* The 5-tap binomial weights of the blur.  The fused kernel works on
 * packed 16-bit lanes and spells the same weights as shifts and small
 * multiplies; the staged variants read them from here. */
__constant__ int c_blur_taps[5] = CE_BLUR_TAPS;

/* Value of an 8-bit image at (x, y) through the border rule. */
static __device__ __forceinline__ int
ce_read_u8 (const uint8_t * __restrict__ p, size_t pitch, int x, int y,
    int w, int h, ce_border_mode border)
{
  int ix = ce_border_index (x, w, border);
  int iy = ce_border_index (y, h, border);
  if (ix < 0 || iy < 0)
    return 0;
  return __ldg (p + (size_t) iy * pitch + ix);
}

static __device__ __forceinline__ int
ce_read_u16 (const uint16_t * __restrict__ p, size_t pitch, int x, int y,
    int w, int h, ce_border_mode border)
{
  int ix = ce_border_index (x, w, border);
  int iy = ce_border_index (y, h, border);
  if (ix < 0 || iy < 0)
    return 0;
  return __ldg ((const uint16_t *) ((const char *) p + (size_t) iy * pitch)
      + ix);
}

/* ------------------------------------------------------------------------
 * 1. Blur variants (staged path: luma -> B as uint16).  All read 1 byte
 * and write 2 bytes per pixel at least; they differ in how the 25 taps
 * reach the arithmetic.  The direct and two-pass kernels give each thread
 * one pixel (CE_PX_BLOCK_X x CE_PX_BLOCK_Y); the tiled and separable ones
 * give a block a tile of BLUR_TW x BLUR_TH output pixels, BLUR_BY threads
 * tall.
 */
#define BLUR_TW 32                  /* columns per tile, one thread each */
#define BLUR_BY 8
#define BLUR_TH 32                  /* output rows per block (4 per thread) */
#define BLUR_SW (BLUR_TW + 4)
#define BLUR_SH (BLUR_TH + 4)

static __device__ __forceinline__ uint16_t *
ce_row16 (uint16_t * p, size_t pitch, int y)
{
  return (uint16_t *) ((char *) p + (size_t) y * pitch);
}

/* CE_BLUR_DIRECT: 25 global (L1-cached) reads per pixel, border rule per
 * tap.  The baseline. */
static __global__ void
blur_direct_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int row0, int row1, ce_border_mode border,
    uint16_t * __restrict__ b, size_t b_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= row1)
    return;
  int acc = 0;
#pragma unroll
  for (int i = 0; i < 5; i++)
#pragma unroll
    for (int j = 0; j < 5; j++)
      acc += c_blur_taps[i] * c_blur_taps[j]
          * ce_read_u8 (luma, luma_pitch, x + j - 2, y + i - 2, W, H,
          border);
  ce_row16 (b, b_pitch, y)[x] = (uint16_t) acc;
}

/* Loads the (BLUR_TH+4) x (BLUR_TW+4) luma tile of a block through the
 * border rule: 1.3 loads per pixel, once each. */
static __device__ __forceinline__ void
ce_load_luma_tile (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, ce_border_mode border, int x0, int y0,
    uint8_t s[BLUR_SH][BLUR_SW])
{
  int tid = threadIdx.y * BLUR_TW + threadIdx.x;
  for (int i = tid; i < BLUR_SH * BLUR_SW; i += BLUR_TW * BLUR_BY) {
    int r = i / BLUR_SW, c = i % BLUR_SW;
    s[r][c] = (uint8_t) ce_read_u8 (luma, luma_pitch, x0 + c - 2,
        y0 + r - 2, W, H, border);
  }
}

/* CE_BLUR_TILED: the tile in shared memory, the direct 2D 5x5 from it. */
static __global__ void __launch_bounds__ (BLUR_TW * BLUR_BY)
blur_tiled_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int row0, int row1, ce_border_mode border,
    uint16_t * __restrict__ b, size_t b_pitch)
{
  __shared__ uint8_t s[BLUR_SH][BLUR_SW];
  int x0 = blockIdx.x * BLUR_TW, y0 = row0 + blockIdx.y * BLUR_TH;
  ce_load_luma_tile (luma, luma_pitch, W, H, border, x0, y0, s);
  __syncthreads ();
  int tx = threadIdx.x, x = x0 + tx;
  if (x >= W)
    return;
  for (int ty = threadIdx.y; ty < BLUR_TH; ty += BLUR_BY) {
    int y = y0 + ty;
    if (y >= row1)
      break;
    int acc = 0;
#pragma unroll
    for (int i = 0; i < 5; i++)
#pragma unroll
      for (int j = 0; j < 5; j++)
        acc += c_blur_taps[i] * c_blur_taps[j] * s[ty + i][tx + j];
    ce_row16 (b, b_pitch, y)[x] = (uint16_t) acc;
  }
}

/* CE_BLUR_SEPARABLE: the tile, a row pass into shared memory (5 taps),
 * a column pass from it (5 taps): 10 multiply-adds instead of 25. */
static __global__ void __launch_bounds__ (BLUR_TW * BLUR_BY)
blur_separable_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int row0, int row1, ce_border_mode border,
    uint16_t * __restrict__ b, size_t b_pitch)
{
  __shared__ uint8_t s[BLUR_SH][BLUR_SW];
  __shared__ uint16_t sh[BLUR_SH][BLUR_TW];
  int x0 = blockIdx.x * BLUR_TW, y0 = row0 + blockIdx.y * BLUR_TH;
  ce_load_luma_tile (luma, luma_pitch, W, H, border, x0, y0, s);
  __syncthreads ();
  int tx = threadIdx.x;
  for (int r = threadIdx.y; r < BLUR_SH; r += BLUR_BY) {
    int acc = 0;
#pragma unroll
    for (int j = 0; j < 5; j++)
      acc += c_blur_taps[j] * s[r][tx + j];
    sh[r][tx] = (uint16_t) acc;
  }
  __syncthreads ();
  int x = x0 + tx;
  if (x >= W)
    return;
  for (int ty = threadIdx.y; ty < BLUR_TH; ty += BLUR_BY) {
    int y = y0 + ty;
    if (y >= row1)
      break;
    int acc = 0;
#pragma unroll
    for (int i = 0; i < 5; i++)
      acc += c_blur_taps[i] * sh[ty + i][tx];
    ce_row16 (b, b_pitch, y)[x] = (uint16_t) acc;
  }
}

/* CE_BLUR_TWO_PASS, pass 1: horizontal sums (max 4080) into the uint16
 * scratch, border rule in x.  1 byte read (5 taps from L1), 2 written. */
static __global__ void
blur_rows_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int row0, int row1, ce_border_mode border,
    uint16_t * __restrict__ scratch, size_t scratch_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= row1)
    return;
  const uint8_t *row = luma + (size_t) y * luma_pitch;
  int acc = 0;
#pragma unroll
  for (int j = 0; j < 5; j++) {
    int ix = ce_border_index (x + j - 2, W, border);
    if (ix >= 0)
      acc += c_blur_taps[j] * __ldg (row + ix);
  }
  ce_row16 (scratch, scratch_pitch, y)[x] = (uint16_t) acc;
}

/* CE_BLUR_TWO_PASS, pass 2: vertical 5 taps of the scratch, border rule in
 * y (a zero row gives 0).  2 bytes read, 2 written. */
static __global__ void
blur_cols_kernel (const uint16_t * __restrict__ scratch, size_t scratch_pitch,
    int W, int H, int row0, int row1, ce_border_mode border,
    uint16_t * __restrict__ b, size_t b_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= row1)
    return;
  int acc = 0;
#pragma unroll
  for (int i = 0; i < 5; i++) {
    int iy = ce_border_index (y + i - 2, H, border);
    if (iy >= 0)
      acc += c_blur_taps[i] * __ldg ((const uint16_t *) ((const char *)
              scratch + (size_t) iy * scratch_pitch) + x);
  }
  ce_row16 (b, b_pitch, y)[x] = (uint16_t) acc;
}

extern "C" const char *
ce_blur_variant_name (ce_blur_variant variant)
{
  switch (variant) {
    case CE_BLUR_DIRECT:
      return "direct";
    case CE_BLUR_TILED:
      return "tiled";
    case CE_BLUR_SEPARABLE:
      return "separable";
    case CE_BLUR_TWO_PASS:
      return "two-pass";
    default:
      return "unknown";
  }
}

extern "C" ce_status
ce_launch_blur (ce_blur_variant variant, const uint8_t * d_luma,
    size_t luma_pitch, int width, int height, ce_border_mode border,
    uint16_t * d_scratch, size_t scratch_pitch, uint16_t * d_b,
    size_t b_pitch, cudaStream_t stream)
{
  if ((unsigned) variant >= CE_BLUR_VARIANT_COUNT) {
    ce_set_error ("variant %d is not a ce_blur_variant", (int) variant);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  CE_CHECK (ce_check_pointer (d_luma, "d_luma"));
  CE_CHECK (ce_check_pointer (d_b, "d_b"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_border (border, "border"));
  CE_CHECK (ce_check_plane (luma_pitch, (size_t) width, height,
          "luma_pitch"));
  CE_CHECK (ce_check_plane (b_pitch, (size_t) width * 2, height,
          "b_pitch"));
  CE_CHECK (ce_check_multiple (b_pitch, 2, "b_pitch"));
  CE_CHECK (ce_check_aligned (d_b, 2, "d_b"));
  if (variant == CE_BLUR_TWO_PASS) {
    CE_CHECK (ce_check_pointer (d_scratch, "d_scratch"));
    CE_CHECK (ce_check_plane (scratch_pitch, (size_t) width * 2, height,
            "scratch_pitch"));
    CE_CHECK (ce_check_multiple (scratch_pitch, 2,
            "scratch_pitch"));
    CE_CHECK (ce_check_aligned (d_scratch, 2, "d_scratch"));
  }

  const dim3 px_block (CE_PX_BLOCK_X, CE_PX_BLOCK_Y);
  const dim3 tile_block (BLUR_TW, BLUR_BY);
  const int px_rows = CE_ROWS_PER_LAUNCH (CE_PX_BLOCK_Y);
  const int tile_rows = CE_ROWS_PER_LAUNCH (BLUR_TH);
  switch (variant) {
    case CE_BLUR_DIRECT:
      return ce_launch_rows (0, height, px_rows, "blur (direct)",
          [&] (int r0, int r1) {
            dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
                ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
            blur_direct_kernel <<< grid, px_block, 0, stream >>> (d_luma,
                luma_pitch, width, height, r0, r1, border, d_b, b_pitch);
          });
    case CE_BLUR_TILED:
      return ce_launch_rows (0, height, tile_rows, "blur (tiled)",
          [&] (int r0, int r1) {
            dim3 grid (ce_ceil_div (width, BLUR_TW),
                ce_ceil_div (r1 - r0, BLUR_TH));
            blur_tiled_kernel <<< grid, tile_block, 0, stream >>> (d_luma,
                luma_pitch, width, height, r0, r1, border, d_b, b_pitch);
          });
    case CE_BLUR_SEPARABLE:
      return ce_launch_rows (0, height, tile_rows, "blur (separable)",
          [&] (int r0, int r1) {
            dim3 grid (ce_ceil_div (width, BLUR_TW),
                ce_ceil_div (r1 - r0, BLUR_TH));
            blur_separable_kernel <<< grid, tile_block, 0, stream >>>
                (d_luma, luma_pitch, width, height, r0, r1, border, d_b,
                b_pitch);
          });
    case CE_BLUR_TWO_PASS:
    default:
      /* Every row pass before the first column pass (one stream). */
      CE_CHECK (ce_launch_rows (0, height, px_rows,
              "blur (two-pass, rows)", [&] (int r0, int r1) {
                dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
                    ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
                blur_rows_kernel <<< grid, px_block, 0, stream >>> (d_luma,
                    luma_pitch, width, r0, r1, border, d_scratch,
                    scratch_pitch);
              }));
      return ce_launch_rows (0, height, px_rows, "blur (two-pass, columns)",
          [&] (int r0, int r1) {
            dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
                ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
            blur_cols_kernel <<< grid, px_block, 0, stream >>> (d_scratch,
                scratch_pitch, width, height, r0, r1, border, d_b, b_pitch);
          });
  }
}

/* ------------------------------------------------------------------------
 * 2. Sobel: B (2 bytes) -> (gx, gy) int32 pairs (8 bytes) per pixel; the
 * 9 taps come from L1, border rule per tap.  One thread per pixel.
 */
static __global__ void
sobel_kernel (const uint16_t * __restrict__ b, size_t b_pitch, int W, int H,
    int row0, int row1, ce_border_mode border, int32_t * __restrict__ grad,
    size_t grad_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= row1)
    return;
  int t[3][3];
#pragma unroll
  for (int i = 0; i < 3; i++)
#pragma unroll
    for (int j = 0; j < 3; j++)
      t[i][j] = ce_read_u16 (b, b_pitch, x + j - 1, y + i - 1, W, H, border);
  int gx = (t[0][2] + 2 * t[1][2] + t[2][2]) - (t[0][0] + 2 * t[1][0]
      + t[2][0]);
  int gy = (t[2][0] + 2 * t[2][1] + t[2][2]) - (t[0][0] + 2 * t[0][1]
      + t[0][2]);
  int32_t *g = (int32_t *) ((char *) grad + (size_t) y * grad_pitch);
  g[2 * x] = gx;
  g[2 * x + 1] = gy;
}

extern "C" ce_status
ce_launch_sobel (const uint16_t * d_b, size_t b_pitch, int width,
    int height, ce_border_mode border, int32_t * d_grad, size_t grad_pitch,
    cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_b, "d_b"));
  CE_CHECK (ce_check_pointer (d_grad, "d_grad"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_border (border, "border"));
  CE_CHECK (ce_check_plane (b_pitch, (size_t) width * 2, height,
          "b_pitch"));
  CE_CHECK (ce_check_multiple (b_pitch, 2, "b_pitch"));
  CE_CHECK (ce_check_aligned (d_b, 2, "d_b"));
  CE_CHECK (ce_check_plane (grad_pitch, (size_t) width * 8, height,
          "grad_pitch"));
  CE_CHECK (ce_check_multiple (grad_pitch, 4, "grad_pitch"));
  CE_CHECK (ce_check_aligned (d_grad, 4, "d_grad"));

  const dim3 block (CE_PX_BLOCK_X, CE_PX_BLOCK_Y);
  return ce_launch_rows (0, height, CE_ROWS_PER_LAUNCH (CE_PX_BLOCK_Y),
      "sobel", [&] (int r0, int r1) {
        dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
            ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
        sobel_kernel <<< grid, block, 0, stream >>> (d_b, b_pitch, width,
            height, r0, r1, border, d_grad, grad_pitch);
      });
}

/* ------------------------------------------------------------------------
 * 3. Threshold: 8 bytes read, 1 written per pixel.  One thread per pixel.
 */
static __global__ void
threshold_kernel (const int32_t * __restrict__ grad, size_t grad_pitch,
    int W, int row0, int row1, int64_t limit, int scale, ce_norm norm,
    ce_output output, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= row1)
    return;
  const int32_t *g = (const int32_t *) ((const char *) grad
      + (size_t) y * grad_pitch);
  dst[(size_t) y * dst_pitch + x] = ce_edge_value (__ldg (g + 2 * x),
      __ldg (g + 2 * x + 1), limit, scale, norm, output);
}

extern "C" ce_status
ce_launch_threshold (const int32_t * d_grad, size_t grad_pitch, int width,
    int height, const ce_edge_consts * consts, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_grad, "d_grad"));
  CE_CHECK (ce_check_pointer (d_dst, "d_dst"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_plane (grad_pitch, (size_t) width * 8, height,
          "grad_pitch"));
  CE_CHECK (ce_check_multiple (grad_pitch, 4, "grad_pitch"));
  CE_CHECK (ce_check_aligned (d_grad, 4, "d_grad"));
  CE_CHECK (ce_check_plane (dst_pitch, (size_t) width, height,
          "dst_pitch"));
  CE_CHECK (ce_check_consts (consts));

  const dim3 block (CE_PX_BLOCK_X, CE_PX_BLOCK_Y);
  return ce_launch_rows (0, height, CE_ROWS_PER_LAUNCH (CE_PX_BLOCK_Y),
      "threshold", [&] (int r0, int r1) {
        dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
            ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
        threshold_kernel <<< grid, block, 0, stream >>> (d_grad, grad_pitch,
            width, r0, r1, consts->limit, consts->scale, consts->norm,
            consts->output, d_dst, dst_pitch);
      });
}

/* ------------------------------------------------------------------------
 * 4. Sobel + threshold: B (2 bytes) in, 1 byte out per pixel.  An
 * ST_TW x ST_TH tile of B with a 1-pixel apron in shared memory, loaded
 * once through the border rule (1.13 loads per pixel); 9 taps from shared
 * memory.  Blocks of ST_TW x ST_BY threads.
 */
#define ST_TW 32
#define ST_TH 32
#define ST_BY 8

static __global__ void __launch_bounds__ (ST_TW * ST_BY)
sobel_threshold_kernel (const uint16_t * __restrict__ b, size_t b_pitch,
    int W, int H, int row0, int row1, ce_border_mode border, int64_t limit,
    int scale, ce_norm norm, ce_output output, uint8_t * __restrict__ dst,
    size_t dst_pitch)
{
  __shared__ uint16_t s[ST_TH + 2][ST_TW + 2];
  int x0 = blockIdx.x * ST_TW, y0 = row0 + blockIdx.y * ST_TH;
  int tid = threadIdx.y * ST_TW + threadIdx.x;
  for (int i = tid; i < (ST_TH + 2) * (ST_TW + 2); i += ST_TW * ST_BY) {
    int r = i / (ST_TW + 2), c = i % (ST_TW + 2);
    s[r][c] = (uint16_t) ce_read_u16 (b, b_pitch, x0 + c - 1, y0 + r - 1,
        W, H, border);
  }
  __syncthreads ();
  int tx = threadIdx.x, x = x0 + tx;
  if (x >= W)
    return;
  for (int ty = threadIdx.y; ty < ST_TH; ty += ST_BY) {
    int y = y0 + ty;
    if (y >= row1)
      break;
    int gx = (s[ty][tx + 2] + 2 * s[ty + 1][tx + 2] + s[ty + 2][tx + 2])
        - (s[ty][tx] + 2 * s[ty + 1][tx] + s[ty + 2][tx]);
    int gy = (s[ty + 2][tx] + 2 * s[ty + 2][tx + 1] + s[ty + 2][tx + 2])
        - (s[ty][tx] + 2 * s[ty][tx + 1] + s[ty][tx + 2]);
    dst[(size_t) y * dst_pitch + x] = ce_edge_value (gx, gy, limit, scale,
        norm, output);
  }
}

extern "C" ce_status
ce_launch_sobel_threshold (const uint16_t * d_b, size_t b_pitch, int width,
    int height, const ce_edge_consts * consts, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_b, "d_b"));
  CE_CHECK (ce_check_pointer (d_dst, "d_dst"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_plane (b_pitch, (size_t) width * 2, height,
          "b_pitch"));
  CE_CHECK (ce_check_multiple (b_pitch, 2, "b_pitch"));
  CE_CHECK (ce_check_aligned (d_b, 2, "d_b"));
  CE_CHECK (ce_check_plane (dst_pitch, (size_t) width, height,
          "dst_pitch"));
  CE_CHECK (ce_check_consts (consts));

  const dim3 block (ST_TW, ST_BY);
  return ce_launch_rows (0, height, CE_ROWS_PER_LAUNCH (ST_TH),
      "sobel_threshold", [&] (int r0, int r1) {
        dim3 grid (ce_ceil_div (width, ST_TW), ce_ceil_div (r1 - r0, ST_TH));
        sobel_threshold_kernel <<< grid, block, 0, stream >>> (d_b, b_pitch,
            width, height, r0, r1, consts->border, consts->limit,
            consts->scale, consts->norm, consts->output, d_dst, dst_pitch);
      });
}

