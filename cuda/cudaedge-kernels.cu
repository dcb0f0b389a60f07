/* gst-cudaedge compute core: the CUDA kernels and their launchers.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every kernel is static; only the extern "C" launchers of
 * cudaedge-kernels.h are exported.  The numbers come from the helpers of
 * cudaedge-numerics.h, shared with the CPU reference, so that both give the
 * same bytes (docs/numerics.md, "Edge detection" and "Bilinear 2x
 * upscale").  Launchers check their arguments, enqueue on the given stream
 * and report launch errors; they never allocate and never synchronise.
 * The staged kernels (benchmark and tests) are in cudaedge-staged.cu.
 */

#include <stdint.h>
#include <stddef.h>
#include <limits.h>
#include <type_traits>
#include <cuda_runtime.h>

#include "cudaedge-kernels.h"
#include "cudaedge-launch.cuh"

/* ------------------------------------------------------------------------
 * 1. Luma.  Reads bytes_per_pixel bytes, writes 1 byte per pixel; one
 * thread per pixel in blocks of CE_PX_BLOCK_X x CE_PX_BLOCK_Y, so the
 * reads of a warp are contiguous.
 */
static __global__ void
luma_kernel (const uint8_t * __restrict__ src, size_t src_pitch, int width,
    int row0, int row1, int bpp, int is_rgb, int y_off, int r_off, int g_off,
    int b_off, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= row1)
    return;
  const uint8_t *p = src + (size_t) y * src_pitch + (size_t) x * bpp;
  uint8_t v;
  if (is_rgb)
    v = ce_rgb_to_luma (__ldg (p + r_off), __ldg (p + g_off),
        __ldg (p + b_off));
  else
    v = __ldg (p + y_off);
  dst[(size_t) y * dst_pitch + x] = v;
}

extern "C" ce_status
ce_launch_luma (const uint8_t * d_src, size_t src_pitch, ce_format format,
    int width, int height, int row0, int row1, uint8_t * d_luma,
    size_t luma_pitch, cudaStream_t stream)
{
  ce_luma_layout lay;
  CE_CHECK (ce_check_pointer (d_src, "d_src"));
  CE_CHECK (ce_check_pointer (d_luma, "d_luma"));
  CE_CHECK (ce_luma_layout_get (format, &lay));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_stride (src_pitch,
          (size_t) width * lay.bytes_per_pixel, "src_pitch"));
  CE_CHECK (ce_check_stride (luma_pitch, (size_t) width,
          "luma_pitch"));
  CE_CHECK (ce_check_rows (row0, row1, height));

  const dim3 block (CE_PX_BLOCK_X, CE_PX_BLOCK_Y);
  return ce_launch_rows (row0, row1, CE_ROWS_PER_LAUNCH (CE_PX_BLOCK_Y),
      "luma", [&] (int r0, int r1) {
        dim3 grid (ce_ceil_div (width, CE_PX_BLOCK_X),
            ce_ceil_div (r1 - r0, CE_PX_BLOCK_Y));
        luma_kernel <<< grid, block, 0, stream >>> (d_src, src_pitch, width,
            r0, r1, lay.bytes_per_pixel, lay.is_rgb, lay.y_offset,
            lay.r_offset, lay.g_offset, lay.b_offset, d_luma, luma_pitch);
      });
}

#ifndef CE_CUDA_ARCHS
#define CE_CUDA_ARCHS "unknown architectures"
#endif

/* Whether this build's kernels run on the current device: a GPU older than
 * every compiled architecture (and too old for the embedded PTX, or with a
 * driver too old to compile it) has no image for them.  Asking for a
 * kernel's attributes loads the module without launching anything. */
extern "C" ce_status
ce_kernels_probe (void)
{
  cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes (&attr, luma_kernel);
  int device = 0, major = 0, minor = 0;

  if (err == cudaSuccess)
    return CE_STATUS_OK;
  (void) cudaGetLastError ();
  cudaGetDevice (&device);
  cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, device);
  (void) cudaGetLastError ();
  if (err == cudaErrorNoKernelImageForDevice
      || err == cudaErrorInvalidDeviceFunction
      || err == cudaErrorUnsupportedPtxVersion) {
    ce_set_error ("no kernel image for this device (compute capability "
        "%d.%d; this build has %s)", major, minor, CE_CUDA_ARCHS);
    return CE_STATUS_NO_DEVICE;
  }
  ce_set_error ("probing the kernels failed: %s", cudaGetErrorString (err));
  return CE_STATUS_CUDA_ERROR;
}

/* ------------------------------------------------------------------------
 * 2. The fused chain: luma -> 5x5 blur -> Sobel -> threshold/magnitude.
 *
 * Traffic: 1 byte read + 1 byte written per pixel (2 bytes/pixel); the
 * apron re-reads (3 words per 4 pixels per row, and 6 extra rows per strip
 * with the blur, 2 without) are shared by neighbouring lanes and warps and
 * hit L1/L2.
 *
 * Shape: every warp owns a strip 128 pixels wide and some rows tall; each
 * lane owns 4 adjacent columns and walks down the strip, so all the
 * vertical filtering (blur 5 taps, Sobel 3 taps) happens on rolling
 * registers and no shared memory or __syncthreads is needed.  Per row a
 * lane loads three aligned 32-bit words (bytes X-4 ... X+7), makes the
 * horizontal 5-tap sums for columns X-1 ... X+4 as packed pairs of 16-bit
 * lanes (max 4080, so 2 sums per register and one IMAD/IADD does two
 * pixels), then the vertical 5-tap on the packed pairs (max 65280, still no
 * carry between lanes), giving B for the 6 columns the Sobel needs.  The
 * Sobel is done separably in 32-bit integers ([1 2 1] down then a
 * difference across for gx; a difference down then [1 2 1] across for
 * gy), then ce_edge_value.  Output: one 32-bit store per lane and row.
 *
 * Strips (fused_layout_make): the strips whose reads all fall inside the
 * frame (interior strips) are cut so that the launch is whole waves of
 * warps the GPU holds at once (one wave up to 4K), about FUSED_TH_TARGET
 * rows tall: every warp starts at once and they end together, where
 * strips of a fixed 8 rows left a partial last wave and the rows read
 * around each strip cost 75 % more rows.  The others (general strips:
 * the first and last rows, the first and last warp columns) are 8 rows
 * tall and take the border rule.
 *
 * Borders: the blur needs Y through the border rule: rows are mapped with
 * ce_border_index when they are fetched (a zero row gives zero words), and
 * lanes whose 12 bytes are not all inside the frame (or whose data is not
 * 4-byte aligned) fetch the bytes one by one at columns mapped once per
 * thread.  The Sobel needs B through the border rule: B values of columns
 * outside the frame are replaced with the B of the mapped column (always
 * one of the lane's own 6 columns when the lane has an output) or 0, and
 * B rows -1 and H likewise with the mapped row of the rolling window.
 *
 * The shape constants were chosen on an H200 with tests/bench/tune-fused.sh
 * (PERFORMANCE.md, "The fused kernel").
 */
#define FUSED_PX 4                          /* columns per lane */
#define FUSED_TW (32 * FUSED_PX)            /* columns per warp */
/* Rows of a general strip. */
#define FUSED_TH 8
/* Resident blocks per SM the register budget is set for (7: at most 72
 * registers), and warps per block. */
#ifndef FUSED_MIN_BLOCKS
#define FUSED_MIN_BLOCKS 7
#endif
#ifndef FUSED_WARPS
#define FUSED_WARPS 4
#endif
#ifndef FUSED_SHORT_MIN_BLOCKS
#define FUSED_SHORT_MIN_BLOCKS 6        /* edge_fused_short_kernel */
#endif
/* Rows an interior strip loads ahead of the row it filters, so that
 * loads are in flight while rows are filtered (3 or 5: a whole number of
 * them per period of the rolling windows, 15 rows). */
#ifndef FUSED_PREFETCH
#define FUSED_PREFETCH 5
#endif
/* The shortest interior strip, and the height interior strips are aimed
 * at when the frame has rows enough for more than one wave. */
#ifndef FUSED_TH_MIN
#define FUSED_TH_MIN 8
#endif
#ifndef FUSED_TH_TARGET
#define FUSED_TH_TARGET 24
#endif

/* Bytes ia and ib of w as the low and high 16-bit lanes. */
#define CE_PAIR(w, ia, ib) __byte_perm ((w), 0u, 0x4040u | ((ib) << 8) | (ia))

/* Byte 3 of a and byte 0 of b as the low and high 16-bit lanes. */
static __device__ __forceinline__ uint32_t
ce_pair_cross (uint32_t a, uint32_t b)
{
  return __byte_perm (a, b, 0x0403u) & 0x00ff00ffu;
}

/* Horizontal 5-tap sums for columns X-1 ... X+4 from the bytes of columns
 * X-4 ... X+7 (w0, w1, w2): h[p] holds columns X-1+2p (low) and X+2p
 * (high). */
static __device__ __forceinline__ void
ce_hpass_packed (uint32_t w0, uint32_t w1, uint32_t w2, uint32_t h[3])
{
  /* q_j = (Y[j], Y[j+1]) with Y[k] the byte of column X-4+k. */
  uint32_t q1 = CE_PAIR (w0, 1, 2);
  uint32_t q2 = CE_PAIR (w0, 2, 3);
  uint32_t q3 = ce_pair_cross (w0, w1);
  uint32_t q4 = CE_PAIR (w1, 0, 1);
  uint32_t q5 = CE_PAIR (w1, 1, 2);
  uint32_t q6 = CE_PAIR (w1, 2, 3);
  uint32_t q7 = ce_pair_cross (w1, w2);
  uint32_t q8 = CE_PAIR (w2, 0, 1);
  uint32_t q9 = CE_PAIR (w2, 1, 2);
  h[0] = q1 + q5 + 6u * q3 + 4u * (q2 + q4);
  h[1] = q3 + q7 + 6u * q5 + 4u * (q4 + q6);
  h[2] = q5 + q9 + 6u * q7 + 4u * (q6 + q8);
}

/* ce_edge_value () with the l2 magnitude found without a 64-bit square
 * root loop.  k is the largest integer with (2k - 1) S <= 2 sqrt (n)
 * (docs/numerics.md, "Output"), that is floor (u) with u = sqrt (n) / S +
 * 1/2.  A float estimate of u is within 1e-3 of it, so its nearest
 * integer m is k or k + 1, and one exact test in 64-bit integers,
 * (2m - 1) S <= 2 sqrt (n), tells which.  The estimate is made on the FMA
 * pipes with a single special-function instruction (the reciprocal square
 * root): gx and gy become floats exactly by adding them to the bits of
 * 1.5 * 2^23 (|g| < 2^22), sqrt (q) is q / sqrt (q), and rounding to the
 * nearest integer is adding 1.5 * 2^23 again. */
template < int NORM, int OUTPUT >
static __device__ __forceinline__ uint32_t
ce_edge_value_fast (int32_t gx, int32_t gy, int64_t limit, int scale)
{
  if (NORM != CE_NORM_L2 || OUTPUT != CE_OUTPUT_MAGNITUDE)
    return ce_edge_value (gx, gy, limit, scale, (ce_norm) NORM,
        (ce_output) OUTPUT);

  const float magic = 12582912.0f;      /* 1.5 * 2^23, bits 0x4b400000 */
  const float fx = __int_as_float (0x4b400000 + gx) - magic;
  const float fy = __int_as_float (0x4b400000 + gy) - magic;
  const float q = fmaf (fx, fx, fy * fy);
  const float r = q * rsqrtf (fmaxf (q, 1.0f));    /* q is 0 or >= 1 */
  const int m = __float_as_int (fmaf (r, 1.0f / (float) scale, 0.5f)
      + magic) - 0x4b400000;
  /* (2m - 1) S <= 2 sqrt (n): always when negative, else squared. */
  const int64_t t = (int64_t) (2 * m - 1) * scale;
  const int64_t n4 = 4 * ((int64_t) gx * gx + (int64_t) gy * gy);
  const int k = (t < 0 || t * t <= n4) ? m : m - 1;
  return (uint32_t) min (k, 255);
}

/* Calls f (integral_constant <int, K>) for K = B ... E - 1 in order, with
 * each K a constant, until f returns false; returns whether it never did.
 * (A loop with an exit inside is not unrolled by the compiler; this is.) */
template < int B, int E > struct ce_unroll
{
  template < typename F > static __device__ __forceinline__ bool
  run (F & f)
  {
    if (!f (std::integral_constant < int, B > ()))
      return false;
    return ce_unroll < B + 1, E >::run (f);
  }
};

template < int E > struct ce_unroll <E, E >
{
  template < typename F > static __device__ __forceinline__ bool
  run (F &)
  {
    return true;
  }
};

/* The strips whose reads all fall inside the frame (most of them): no
 * border rule and no per-row checks.  The row loop is unrolled over a
 * whole period of the rolling windows (15 rows with the blur: 5 rows of
 * horizontal sums, 3 rows of B) so that the windows are renamed registers
 * instead of moves, and it leaves after any row, so a strip may have any
 * height.  Rows are loaded FUSED_PREFETCH rows ahead.  Same
 * arithmetic as the general path below.  luma points at the first Y row
 * the strip reads (ys - 1 - R), 4 bytes left of the lane's first column;
 * dst at the lane's first output pixel; the strip's rows and the row
 * after its last read must be inside the frame. */
template < bool BLUR, int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_interior (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int rows, int64_t limit, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;       /* blur radius in rows */
  constexpr int P = 2 * R + 2;  /* Y rows read before the first output */
  constexpr int UNROLL = 15;
  static_assert (UNROLL % FUSED_PREFETCH == 0, "a whole ring per period");
  uint32_t hr[5][3];            /* horizontal sums by Y row, mod 5 */
  int b[3][6];                  /* B rows by B row, mod 3 */

  /* Y row I (from ys - 1 - R): into the windows. */
  auto row_in = [&](auto I, uint32_t w0, uint32_t w1, uint32_t w2) {
    constexpr int i = decltype (I)::value;
    constexpr int j = i - 2 * R;        /* B row index, B row ys - 1 + j */
    if constexpr (BLUR) {
      ce_hpass_packed (w0, w1, w2, hr[i % 5]);
      if constexpr (j >= 0) {
#pragma unroll
        for (int q = 0; q < 3; q++) {
          uint32_t v = hr[(i + 1) % 5][q] + hr[i % 5][q]
              + 6u * hr[(i + 3) % 5][q]
              + 4u * (hr[(i + 2) % 5][q] + hr[(i + 4) % 5][q]);
          b[j % 3][2 * q] = (int) (v & 0xffffu);
          b[j % 3][2 * q + 1] = (int) (v >> 16);
        }
      }
    } else {
      b[j % 3][0] = (int) (w0 >> 24);
      b[j % 3][1] = (int) (w1 & 0xffu);
      b[j % 3][2] = (int) ((w1 >> 8) & 0xffu);
      b[j % 3][3] = (int) ((w1 >> 16) & 0xffu);
      b[j % 3][4] = (int) (w1 >> 24);
      b[j % 3][5] = (int) (w2 & 0xffu);
    }
  };
  auto load = [&](const uint8_t * row, uint32_t & w0, uint32_t & w1,
      uint32_t & w2) {
    const uint32_t *p = reinterpret_cast < const uint32_t * >(row);
    w0 = __ldg (p);
    w1 = __ldg (p + 1);
    w2 = __ldg (p + 2);
  };

  auto prologue = [&](auto I) {
    uint32_t w0, w1, w2;
    load (luma + (size_t) decltype (I)::value * luma_pitch, w0, w1, w2);
    row_in (I, w0, w1, w2);
    return true;
  };
  ce_unroll < 0, P >::run (prologue);
  uint32_t pf[FUSED_PREFETCH][3];       /* rows i ... i + D - 1, mod D */
  const uint8_t *next = luma + (size_t) P * luma_pitch;
#pragma unroll
  for (int k = 0; k < FUSED_PREFETCH; k++, next += luma_pitch)
    load (next, pf[k][0], pf[k][1], pf[k][2]);

  /* One output row; false after the strip's last.  The row index modulo
   * the period is all the windows need. */
  auto step = [&](auto K) {
    constexpr int k = decltype (K)::value;
    constexpr int i = P + k;
    constexpr int j = i - 2 * R;
    constexpr int f = k % FUSED_PREFETCH;
    const uint32_t w0 = pf[f][0], w1 = pf[f][1], w2 = pf[f][2];
    load (next, pf[f][0], pf[f][1], pf[f][2]);
    next += luma_pitch;
    row_in (std::integral_constant < int, i > (), w0, w1, w2);

    /* Output row from B rows j - 2, j - 1, j. */
    const int *bp = b[(j + 1) % 3], *bc = b[(j + 2) % 3], *bn = b[j % 3];
    int v[6], d[6];
#pragma unroll
    for (int m = 0; m < 6; m++) {
      v[m] = bp[m] + 2 * bc[m] + bn[m];
      d[m] = bn[m] - bp[m];
    }
    uint32_t o[FUSED_PX];
#pragma unroll
    for (int m = 0; m < FUSED_PX; m++)
      o[m] = ce_edge_value_fast < NORM, OUTPUT > (v[m + 2] - v[m],
          d[m] + 2 * d[m + 1] + d[m + 2], limit, BLUR ? CE_BLUR_SCALE : 1);
    *reinterpret_cast < uint32_t * >(dst) =
        o[0] | (o[1] << 8) | (o[2] << 16) | (o[3] << 24);
    dst += dst_pitch;
    return --rows > 0;
  };
  while (ce_unroll < 0, UNROLL >::run (step)) {
  }
}

/* The interior strips of small frames (edge_fused_short_kernel): exactly
 * FUSED_TH rows with the row loop unrolled whole, so that every row's
 * loads are issued at once, and the rolling windows are renamed
 * registers.  Same arithmetic and arguments as edge_fused_interior. */
template < bool BLUR, int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_interior_short (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int64_t limit, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;       /* blur radius in rows */
  constexpr int ROWS = FUSED_TH + 2 + 2 * R;    /* Y rows read */
  uint32_t hr[5][3];            /* horizontal sums by Y row, mod 5 */
  int b[3][6];                  /* B rows by B row, mod 3 */

#pragma unroll
  for (int i = 0; i < ROWS; i++) {
    const uint32_t *p = reinterpret_cast < const uint32_t * >(luma +
        (size_t) i * luma_pitch);
    const uint32_t w0 = __ldg (p), w1 = __ldg (p + 1), w2 = __ldg (p + 2);
    const int j = i - 2 * R;    /* B row index, B row ys - 1 + j */

    if (BLUR) {
      ce_hpass_packed (w0, w1, w2, hr[i % 5]);
      if (j < 0)
        continue;
#pragma unroll
      for (int q = 0; q < 3; q++) {
        uint32_t v = hr[(i + 1) % 5][q] + hr[i % 5][q]
            + 6u * hr[(i + 3) % 5][q]
            + 4u * (hr[(i + 2) % 5][q] + hr[(i + 4) % 5][q]);
        b[j % 3][2 * q] = (int) (v & 0xffffu);
        b[j % 3][2 * q + 1] = (int) (v >> 16);
      }
    } else {
      b[j % 3][0] = (int) (w0 >> 24);
      b[j % 3][1] = (int) (w1 & 0xffu);
      b[j % 3][2] = (int) ((w1 >> 8) & 0xffu);
      b[j % 3][3] = (int) ((w1 >> 16) & 0xffu);
      b[j % 3][4] = (int) (w1 >> 24);
      b[j % 3][5] = (int) (w2 & 0xffu);
    }
    if (j < 2)
      continue;

    /* Output row ys + j - 2 from B rows j - 2, j - 1, j. */
    const int *bp = b[(j + 1) % 3], *bc = b[(j + 2) % 3], *bn = b[j % 3];
    int v[6], d[6];
#pragma unroll
    for (int m = 0; m < 6; m++) {
      v[m] = bp[m] + 2 * bc[m] + bn[m];
      d[m] = bn[m] - bp[m];
    }
    uint32_t o[FUSED_PX];
#pragma unroll
    for (int m = 0; m < FUSED_PX; m++)
      o[m] = ce_edge_value_fast < NORM, OUTPUT > (v[m + 2] - v[m],
          d[m] + 2 * d[m + 1] + d[m + 2], limit, BLUR ? CE_BLUR_SCALE : 1);
    *reinterpret_cast < uint32_t * >(dst + (size_t) (j - 2) * dst_pitch) =
        o[0] | (o[1] << 8) | (o[2] << 16) | (o[3] << 24);
  }
}

/* Any strip: rows [ys, ye) of the lane's columns X ... X+3, with the
 * border rule wherever a read leaves the frame. */
template < bool BLUR, int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_general (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int X, int ys, int ye, int64_t limit,
    ce_border_mode border, int aligned_in, int aligned_out,
    uint8_t * __restrict__ dst, size_t dst_pitch)
{
  /* Fast lanes read their 12 bytes as 3 aligned words, all in the frame. */
  const bool fast = aligned_in && X >= 4 && X + 8 <= W;
  int off[12];                  /* slow lanes: mapped column or -1 */
  unsigned fix = 0;             /* slow lanes: per B column, 4 bits */
  if (!fast) {
#pragma unroll
    for (int k = 0; k < 12; k++)
      off[k] = (k == 0 || k == 11) ? -1
          : ce_border_index (X - 4 + k, W, border);
#pragma unroll
    for (int m = 0; m < 6; m++) {
      int col = X - 1 + m;
      unsigned code = 6;        /* keep */
      if (col < 0 || col >= W) {
        int mm = ce_border_index (col, W, border);
        if (mm < 0)
          code = 7;             /* zero */
        else if (mm - (X - 1) >= 0 && mm - (X - 1) < 6)
          code = mm - (X - 1);  /* copy that column */
      }
      fix |= code << (4 * m);
    }
  }

  auto load_row = [&](int r, uint32_t & w0, uint32_t & w1, uint32_t & w2) {
    int rr = ce_border_index (r, H, border);
    w0 = w1 = w2 = 0;
    if (rr < 0)
      return;
    const uint8_t *row = luma + (size_t) rr * luma_pitch;
    if (fast) {
      const uint32_t *p = reinterpret_cast < const uint32_t * >(row + X - 4);
      w0 = __ldg (p);
      w1 = __ldg (p + 1);
      w2 = __ldg (p + 2);
    } else {
      uint32_t w[3] = { 0, 0, 0 };
#pragma unroll
      for (int k = 1; k < 11; k++) {
        uint32_t b = off[k] >= 0 ? __ldg (row + off[k]) : 0u;
        w[k >> 2] |= b << (8 * (k & 3));
      }
      w0 = w[0];
      w1 = w[1];
      w2 = w[2];
    }
  };

  /* Rows are consumed strictly in order (ys - 3 on with the blur, ys - 1
   * on without), so the next row's words are always loaded one step ahead:
   * the load is in flight while the current row is filtered. */
  int next_row = BLUR ? ys - 3 : ys - 1;
  uint32_t pf0, pf1, pf2;
  load_row (next_row, pf0, pf1, pf2);
  auto fetch_row = [&](uint32_t & w0, uint32_t & w1, uint32_t & w2) {
    w0 = pf0;
    w1 = pf1;
    w2 = pf2;
    load_row (++next_row, pf0, pf1, pf2);
  };

  uint32_t hw[5][3];            /* horizontal sums, rows r-2 ... r+2 */

  /* B of the next row (rows come in order from fetch_row) for columns
   * X-1 ... X+4, before the y border fix. */
  auto next_brow = [&](int b[6]) {
    uint32_t w0, w1, w2;
    if (BLUR) {
#pragma unroll
      for (int i = 0; i < 4; i++) {
        hw[i][0] = hw[i + 1][0];
        hw[i][1] = hw[i + 1][1];
        hw[i][2] = hw[i + 1][2];
      }
      fetch_row (w0, w1, w2);     /* row r + 2 */
      ce_hpass_packed (w0, w1, w2, hw[4]);
#pragma unroll
      for (int p = 0; p < 3; p++) {
        uint32_t v = hw[0][p] + hw[4][p] + 6u * hw[2][p]
            + 4u * (hw[1][p] + hw[3][p]);
        b[2 * p] = (int) (v & 0xffffu);
        b[2 * p + 1] = (int) (v >> 16);
      }
    } else {
      fetch_row (w0, w1, w2);     /* row r */
      b[0] = (int) (w0 >> 24);
      b[1] = (int) (w1 & 0xffu);
      b[2] = (int) ((w1 >> 8) & 0xffu);
      b[3] = (int) ((w1 >> 16) & 0xffu);
      b[4] = (int) (w1 >> 24);
      b[5] = (int) (w2 & 0xffu);
    }
    if (!fast) {
      int src[6];
#pragma unroll
      for (int m = 0; m < 6; m++)
        src[m] = b[m];
#pragma unroll
      for (int m = 0; m < 6; m++) {
        unsigned code = (fix >> (4 * m)) & 15u;
        int v = src[0];
#pragma unroll
        for (int q = 1; q < 6; q++)
          if (code == (unsigned) q)
            v = src[q];
        if (code == 7u)
          b[m] = 0;
        else if (code < 6u)
          b[m] = v;
      }
    }
  };

  if (BLUR) {
#pragma unroll
    for (int i = 1; i < 5; i++)
      fetch_row (hw[i][0], hw[i][1], hw[i][2]);
#pragma unroll
    for (int i = 1; i < 5; i++)
      ce_hpass_packed (hw[i][0], hw[i][1], hw[i][2], hw[i]);
  }

  int bp[6], bc[6], bn[6];
  next_brow (bp);               /* B row ys - 1 */
  next_brow (bc);               /* B row ys */

  const bool zero = border == CE_BORDER_ZERO;
  const bool refl = border == CE_BORDER_REFLECT && H > 1;
  const bool store32 = aligned_out && X + 4 <= W;
  uint8_t *drow = dst + (size_t) ys * dst_pitch + X;

  for (int y = ys; y < ye; y++, drow += dst_pitch) {
    next_brow (bn);             /* B row y + 1 */
    if (y == 0) {               /* B row -1 -> row 0, row 1 or zeros */
#pragma unroll
      for (int m = 0; m < 6; m++)
        bp[m] = zero ? 0 : (refl ? bn[m] : bc[m]);
    }
    if (y + 1 == H) {           /* B row H -> row H-1, row H-2 or zeros */
#pragma unroll
      for (int m = 0; m < 6; m++)
        bn[m] = zero ? 0 : (refl ? bp[m] : bc[m]);
    }

    int v[6], d[6];
#pragma unroll
    for (int m = 0; m < 6; m++) {
      v[m] = bp[m] + 2 * bc[m] + bn[m];
      d[m] = bn[m] - bp[m];
    }
    uint32_t o[FUSED_PX];
#pragma unroll
    for (int m = 0; m < FUSED_PX; m++) {
      int gx = v[m + 2] - v[m];
      int gy = d[m] + 2 * d[m + 1] + d[m + 2];
      o[m] = ce_edge_value_fast < NORM, OUTPUT > (gx, gy, limit,
          BLUR ? CE_BLUR_SCALE : 1);
    }
    if (store32) {
      *reinterpret_cast < uint32_t * >(drow) =
          o[0] | (o[1] << 8) | (o[2] << 16) | (o[3] << 24);
    } else {
#pragma unroll
      for (int m = 0; m < FUSED_PX; m++)
        if (X + m < W)
          drow[m] = (uint8_t) o[m];
    }

#pragma unroll
    for (int m = 0; m < 6; m++) {
      bp[m] = bc[m];
      bc[m] = bn[m];
    }
  }
}

/* Which strip each warp of a launch takes.  The launch covers output rows
 * [row0, row1); warp column c covers columns c FUSED_TW ... + FUSED_TW - 1.
 * Interior strips, th rows tall, take rows [ia, ib) of the warp columns
 * [c0, c1), whose reads need no border rule; general strips, FUSED_TH
 * rows tall, take the rest: the band above ia, the band below ib (every
 * column), and rows [ia, ib) of the columns outside [c0, c1).  Warps
 * 0 ... n_general - 1 take the general strips (they cost more per row,
 * so they start first; along a row of strips the column changes
 * fastest), the blocks from warp interior0 on the interior ones. */
struct fused_layout
{
  int cols, c0, c1;
  int row0, row1, ia, ib, th;
  int n_top, n_bottom, n_side;  /* general strips per column (side: per
                                 * side column) */
  int n_general;                /* general strips */
  int interior0;                /* the first interior warp: n_general
                                 * rounded up to whole blocks */
  int interior_blocks;          /* blocks of interior strips */
};

template < bool BLUR, int NORM, int OUTPUT >
static __global__ void __launch_bounds__ (32 * FUSED_WARPS, FUSED_MIN_BLOCKS)
edge_fused_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, fused_layout L, int64_t limit, ce_border_mode border,
    int aligned_in, int aligned_out, uint8_t * __restrict__ dst,
    size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;
  int w = blockIdx.x * FUSED_WARPS + threadIdx.y;      /* warp-uniform */
  int c, ys, ye;

  if (w >= L.interior0) {
    /* A block's warps take consecutive strips of one column, so that
     * the rows read around their strips are shared in its cache. */
    w -= L.interior0;
    const int ncol = L.c1 - L.c0;
    const int blk = w / FUSED_WARPS;
    c = L.c0 + blk % ncol;
    ys = L.ia + ((blk / ncol) * FUSED_WARPS + w % FUSED_WARPS) * L.th;
    if (blk >= L.interior_blocks || ys >= L.ib)
      return;
    ye = min (ys + L.th, L.ib);
    const int X = c * FUSED_TW + threadIdx.x * FUSED_PX;
    edge_fused_interior < BLUR, NORM, OUTPUT > (luma +
        (size_t) (ys - 1 - R) * luma_pitch + X - 4, luma_pitch, ye - ys,
        limit, dst + (size_t) ys * dst_pitch + X, dst_pitch);
    return;
  }
  if (w >= L.n_general)
    return;
  if (w < L.cols * L.n_top) {
    c = w % L.cols;
    ys = L.row0 + (w / L.cols) * FUSED_TH;
    ye = min (ys + FUSED_TH, L.ia);
  } else if ((w -= L.cols * L.n_top) < L.cols * L.n_bottom) {
    c = w % L.cols;
    ys = L.ib + (w / L.cols) * FUSED_TH;
    ye = min (ys + FUSED_TH, L.row1);
  } else {
    w -= L.cols * L.n_bottom;
    const int nsc = L.c0 + L.cols - L.c1;      /* side columns */
    c = w % nsc;
    if (c >= L.c0)
      c += L.c1 - L.c0;
    ys = L.ia + (w / nsc) * FUSED_TH;
    ye = min (ys + FUSED_TH, L.ib);
  }
  const int X = c * FUSED_TW + threadIdx.x * FUSED_PX;
  if (X >= W)
    return;                     /* no lane talks to another: safe */
  edge_fused_general < BLUR, NORM, OUTPUT > (luma, luma_pitch, W, H, X, ys,
      ye, limit, border, aligned_in, aligned_out, dst, dst_pitch);
}

/* Small frames, whose strips of FUSED_TH rows do not fill the GPU
 * (fused_layout_make gives them the shortest strips): a 2-D grid whose
 * blocks take FUSED_WARPS strips of FUSED_TH rows one above the other,
 * each warp deciding alone whether its strip is interior.  Measured
 * faster there than the layout of edge_fused_kernel (PERFORMANCE.md,
 * "The fused kernel"). */
#define FUSED_BLOCK_ROWS (FUSED_TH * FUSED_WARPS)
template < bool BLUR, int NORM, int OUTPUT >
static __global__ void __launch_bounds__ (32 * FUSED_WARPS,
    FUSED_SHORT_MIN_BLOCKS)
edge_fused_short_kernel (const uint8_t * __restrict__ luma,
    size_t luma_pitch, int W, int H, int row0, int row1, int64_t limit,
    ce_border_mode border, int aligned_in, int aligned_out,
    uint8_t * __restrict__ dst, size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;
  const int x0 = blockIdx.x * FUSED_TW;
  const int X = x0 + threadIdx.x * FUSED_PX;
  const int ys = row0 + blockIdx.y * FUSED_BLOCK_ROWS + threadIdx.y * FUSED_TH;
  if (X >= W || ys >= row1)
    return;                     /* no lane talks to another: safe */
  const int ye = min (ys + FUSED_TH, row1);

  /* Warp-uniform: a whole strip whose reads and writes need no border
   * rule and no partial stores takes the lean path. */
  if (aligned_in && aligned_out && x0 >= 4 && x0 + FUSED_TW + 4 <= W
      && ys - 1 - R >= 0 && ys + FUSED_TH + R < H && ye == ys + FUSED_TH) {
    edge_fused_interior_short < BLUR, NORM, OUTPUT > (luma +
        (size_t) (ys - 1 - R) * luma_pitch + X - 4, luma_pitch, limit,
        dst + (size_t) ys * dst_pitch + X, dst_pitch);
    return;
  }
  edge_fused_general < BLUR, NORM, OUTPUT > (luma, luma_pitch, W, H, X, ys,
      ye, limit, border, aligned_in, aligned_out, dst, dst_pitch);
}

/* The strips of output rows [row0, row1), for a GPU that holds
 * resident_warps warps at once.  Interior strips are cut so that all the
 * strips make whole waves (every warp of a wave starts at once and they
 * end together: no partial last wave), about FUSED_TH_TARGET rows tall
 * and no shorter than FUSED_TH_MIN. */
static fused_layout
fused_layout_make (int W, int H, int row0, int row1, bool blur, bool aligned,
    int resident_warps)
{
  const int R = blur ? 2 : 0;
  fused_layout L;
  L.cols = ce_ceil_div (W, FUSED_TW);
  L.row0 = row0;
  L.row1 = row1;
  /* Interior: reads from Y row ys - 1 - R to ye + R, and the loads
   * ahead up to row ye + R + FUSED_PREFETCH; columns x0 - 4 ... x0 +
   * FUSED_TW + 3. */
  L.c0 = 1;
  L.c1 = W >= FUSED_TW + 8 ? (W - 4) / FUSED_TW : 0;
  L.ia = max (row0, R + 1);
  L.ib = min (row1, H - 1 - R - FUSED_PREFETCH);
  if (!aligned || L.c1 <= L.c0 || L.ia >= L.ib) {
    L.c0 = L.c1 = 0;
    L.ia = L.ib = row1;
  }
  L.n_top = ce_ceil_div (L.ia - row0, FUSED_TH);
  L.n_bottom = ce_ceil_div (row1 - L.ib, FUSED_TH);
  L.n_side = L.c1 > L.c0 ? ce_ceil_div (L.ib - L.ia, FUSED_TH) : 0;
  L.n_general = L.cols * (L.n_top + L.n_bottom)
      + L.n_side * (L.c0 + L.cols - L.c1);
  L.interior0 = (int) ce_ceil_div (L.n_general, FUSED_WARPS) * FUSED_WARPS;
  L.th = FUSED_TH_MIN;
  L.interior_blocks = 0;
  if (L.c1 > L.c0) {
    const int ncol = L.c1 - L.c0;
    const long long rows = L.ib - L.ia;
    /* Whole waves of strips about FUSED_TH_TARGET rows tall: tall enough
     * that the rows read around a strip cost little, short enough for
     * enough strips to share the GPU evenly. */
    const long long waves = max (1LL, (long long) ce_ceil_div (rows * ncol,
            (long long) resident_warps * FUSED_TH_TARGET));
    const long long budget = max (waves * resident_warps - L.n_general,
        waves * resident_warps / 2);
    const long long per_col = max (1LL, budget / ncol);
    L.th = max (FUSED_TH_MIN, (int) ce_ceil_div (rows, per_col));
    L.interior_blocks = ncol * (int) ce_ceil_div (ce_ceil_div (rows, L.th),
        FUSED_WARPS);
  }
  return L;
}

/* The warps of the fused kernel the current device holds at once: its
 * launch bounds guarantee FUSED_MIN_BLOCKS blocks per multiprocessor.
 * Cached per device (a launch must not wait on the driver). */
static int
fused_resident_warps (void)
{
  static int cached[64];
  int device = 0, sms = 0;

  if (cudaGetDevice (&device) != cudaSuccess) {
    (void) cudaGetLastError ();
    device = -1;
  }
  if (device >= 0 && device < 64
      && (sms = __atomic_load_n (&cached[device], __ATOMIC_RELAXED)) > 0)
    return sms * FUSED_MIN_BLOCKS * FUSED_WARPS;
  if (device < 0 || cudaDeviceGetAttribute (&sms,
          cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1) {
    (void) cudaGetLastError ();
    sms = 1;
  } else if (device < 64) {
    __atomic_store_n (&cached[device], sms, __ATOMIC_RELAXED);
  }
  return sms * FUSED_MIN_BLOCKS * FUSED_WARPS;
}

/* Launches kernel <BLUR, norm, output> for the consts' norm and output. */
#define CE_FUSED_DISPATCH(c, LAUNCH) do { \
    if ((c)->norm == CE_NORM_L2) { \
      if ((c)->output == CE_OUTPUT_EDGES) \
        LAUNCH (CE_NORM_L2, CE_OUTPUT_EDGES); \
      else \
        LAUNCH (CE_NORM_L2, CE_OUTPUT_MAGNITUDE); \
    } else { \
      if ((c)->output == CE_OUTPUT_EDGES) \
        LAUNCH (CE_NORM_L1, CE_OUTPUT_EDGES); \
      else \
        LAUNCH (CE_NORM_L1, CE_OUTPUT_MAGNITUDE); \
    } \
  } while (0)

template < bool BLUR >
static void
edge_fused_dispatch (unsigned blocks, cudaStream_t stream,
    const uint8_t * luma, size_t luma_pitch, int W, int H,
    const fused_layout & L, const ce_edge_consts * c, int ain, int aout,
    uint8_t * dst, size_t dst_pitch)
{
  const dim3 block (32, FUSED_WARPS);
#define CE_FUSED_LAUNCH(N, O) \
  edge_fused_kernel < BLUR, N, O > <<< blocks, block, 0, stream >>> (luma, \
      luma_pitch, W, H, L, c->limit, c->border, ain, aout, dst, dst_pitch)
  CE_FUSED_DISPATCH (c, CE_FUSED_LAUNCH);
#undef CE_FUSED_LAUNCH
}

template < bool BLUR >
static void
edge_fused_short_dispatch (cudaStream_t stream, const uint8_t * luma,
    size_t luma_pitch, int W, int H, int row0, int row1,
    const ce_edge_consts * c, int ain, int aout, uint8_t * dst,
    size_t dst_pitch)
{
  const dim3 block (32, FUSED_WARPS);
  const dim3 grid (ce_ceil_div (W, FUSED_TW),
      ce_ceil_div (row1 - row0, FUSED_BLOCK_ROWS));
#define CE_FUSED_LAUNCH(N, O) \
  edge_fused_short_kernel < BLUR, N, O > <<< grid, block, 0, stream >>> ( \
      luma, luma_pitch, W, H, row0, row1, c->limit, c->border, ain, aout, \
      dst, dst_pitch)
  CE_FUSED_DISPATCH (c, CE_FUSED_LAUNCH);
#undef CE_FUSED_LAUNCH
}

extern "C" ce_status
ce_launch_edge_fused (const uint8_t * d_luma, size_t luma_pitch, int width,
    int height, int row0, int row1, const ce_edge_consts * consts,
    uint8_t * d_dst, size_t dst_pitch, cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_luma, "d_luma"));
  CE_CHECK (ce_check_pointer (d_dst, "d_dst"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_stride (luma_pitch, (size_t) width,
          "luma_pitch"));
  CE_CHECK (ce_check_stride (dst_pitch, (size_t) width,
          "dst_pitch"));
  CE_CHECK (ce_check_rows (row0, row1, height));
  CE_CHECK (ce_check_consts (consts));

  const int ain = ((uintptr_t) d_luma % 4 == 0) && (luma_pitch % 4 == 0);
  const int aout = ((uintptr_t) d_dst % 4 == 0) && (dst_pitch % 4 == 0);
  const int resident = fused_resident_warps ();
  const fused_layout whole = fused_layout_make (width, height, row0, row1,
      consts->blur, ain && aout, resident);

  /* Small frames: strips of the shortest height, grid of 2-D blocks. */
  if (whole.th <= FUSED_TH_MIN)
    return ce_launch_rows (row0, row1, CE_ROWS_PER_LAUNCH (FUSED_BLOCK_ROWS),
        "edge_fused", [&] (int r0, int r1) {
          if (consts->blur)
            edge_fused_short_dispatch < true > (stream, d_luma, luma_pitch,
                width, height, r0, r1, consts, ain, aout, d_dst, dst_pitch);
          else
            edge_fused_short_dispatch < false > (stream, d_luma, luma_pitch,
                width, height, r0, r1, consts, ain, aout, d_dst, dst_pitch);
        });

  /* At most about 2^30 warps per launch, whatever the width. */
  const long long cols = ce_ceil_div (width, FUSED_TW);
  const long long chunk = (1LL << 30) / cols * FUSED_TH;
  const int rows_per_launch = chunk > INT_MAX ? INT_MAX
      : (int) max (chunk, (long long) FUSED_TH);
  return ce_launch_rows (row0, row1, rows_per_launch, "edge_fused",
      [&] (int r0, int r1) {
        const fused_layout L = r1 - r0 == row1 - row0 ? whole
            : fused_layout_make (width, height, r0, r1, consts->blur,
            ain && aout, resident);
        const unsigned blocks = L.interior0 / FUSED_WARPS
            + L.interior_blocks;
        if (consts->blur)
          edge_fused_dispatch < true > (blocks, stream, d_luma, luma_pitch,
              width, height, L, consts, ain, aout, d_dst, dst_pitch);
        else
          edge_fused_dispatch < false > (blocks, stream, d_luma, luma_pitch,
              width, height, L, consts, ain, aout, d_dst, dst_pitch);
      });
}

/* ------------------------------------------------------------------------
 * 3. Bilinear 2x upscale (docs/numerics.md, "Bilinear 2x upscale").
 * Thread (a, b) makes the output quad of columns 2a+1, 2a+2 and rows
 * 2b+1, 2b+2 (a, b from -1): all four
 * outputs interpolate between source columns xs0 = clamp (a), xs1 = clamp
 * (a+1) and rows ys0 = clamp (b), ys1 = clamp (b+1) (ce_upscale_axis gives
 * p = xs0 always, and p1 = xs1 except at output column 0 where the weight
 * of p1 is 0).  So 4 source pixels (4 words) are read for 4 output pixels
 * (4 words): traffic 1 + 4 pixels per source pixel, as small as it gets.
 *
 * 4-byte pixels are filtered as two words of 16-bit lanes (even bytes, odd
 * bytes): each lane computes exactly ce_bilinear's
 * (sum p_k w_k + 128) >> 8 with the same weights, and the lane never
 * carries (max 255 * 256 + 128 < 65536).
 *
 * Blocks of UPSCALE_BX x UPSCALE_BY threads: a warp along a row of quads,
 * so a block covers 2 UPSCALE_BY output rows.
 */
#define UPSCALE_BX 32
#define UPSCALE_BY 8

static __device__ __forceinline__ void
ce_bilinear_weights (int fx4, int fy4, uint32_t w[4])
{
  w[0] = (4 - fx4) * (4 - fy4) * 16;
  w[1] = fx4 * (4 - fy4) * 16;
  w[2] = (4 - fx4) * fy4 * 16;
  w[3] = fx4 * fy4 * 16;
}

template < int BPP >
static __global__ void
upscale2x_kernel (const uint8_t * __restrict__ src, size_t src_pitch,
    int W, int H, int row0, int row1, int b_first, int n_b,
    uint8_t * __restrict__ dst, size_t dst_pitch)
{
  int ta = blockIdx.x * blockDim.x + threadIdx.x;
  int tb = blockIdx.y * blockDim.y + threadIdx.y;
  if (ta > W || tb >= n_b)
    return;
  int a = ta - 1, b = b_first + tb;
  int xs0 = max (a, 0), xs1 = min (a + 1, W - 1);
  int ys0 = max (b, 0), ys1 = min (b + 1, H - 1);

  const uint8_t *r0 = src + (size_t) ys0 * src_pitch;
  const uint8_t *r1 = src + (size_t) ys1 * src_pitch;
  uint32_t s00, s10, s01, s11;
  if (BPP == 4) {
    s00 = __ldg ((const uint32_t *) r0 + xs0);
    s10 = __ldg ((const uint32_t *) r0 + xs1);
    s01 = __ldg ((const uint32_t *) r1 + xs0);
    s11 = __ldg ((const uint32_t *) r1 + xs1);
  } else {
    s00 = __ldg (r0 + xs0);
    s10 = __ldg (r0 + xs1);
    s01 = __ldg (r1 + xs0);
    s11 = __ldg (r1 + xs1);
  }
  const uint32_t M = 0x00ff00ffu;
  uint32_t e00 = s00 & M, e10 = s10 & M, e01 = s01 & M, e11 = s11 & M;
  uint32_t o00 = (s00 >> 8) & M, o10 = (s10 >> 8) & M;
  uint32_t o01 = (s01 >> 8) & M, o11 = (s11 >> 8) & M;

#pragma unroll
  for (int qj = 0; qj < 2; qj++) {
    int j = 2 * b + 1 + qj;
    if (j < row0 || j >= row1)
      continue;
    int py, py1, fy4;
    ce_upscale_axis (j, H, &py, &py1, &fy4);
    uint8_t *drow = dst + (size_t) j * dst_pitch;
#pragma unroll
    for (int qi = 0; qi < 2; qi++) {
      int i = 2 * a + 1 + qi;
      if (i < 0 || i >= 2 * W)
        continue;
      int px, px1, fx4;
      ce_upscale_axis (i, W, &px, &px1, &fx4);
      if (BPP == 4) {
        uint32_t w[4];
        ce_bilinear_weights (fx4, fy4, w);
        uint32_t e = e00 * w[0] + e10 * w[1] + e01 * w[2] + e11 * w[3]
            + 0x00800080u;
        uint32_t o = o00 * w[0] + o10 * w[1] + o01 * w[2] + o11 * w[3]
            + 0x00800080u;
        ((uint32_t *) drow)[i] = ((e >> 8) & M) | (o & ~M);
      } else {
        drow[i] = ce_bilinear (s00, s10, s01, s11, fx4, fy4);
      }
    }
  }
}

extern "C" ce_status
ce_launch_upscale2x (const uint8_t * d_src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_src, "d_src"));
  CE_CHECK (ce_check_pointer (d_dst, "d_dst"));
  CE_CHECK (ce_check_size (width, height));
  if (bytes_per_pixel != 1 && bytes_per_pixel != 4) {
    ce_set_error ("bytes_per_pixel must be 1 or 4 (got %d)",
        bytes_per_pixel);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (width > CE_UPSCALE_MAX_SIZE || height > CE_UPSCALE_MAX_SIZE) {
    ce_set_error ("%dx%d is too large to upscale", width, height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  CE_CHECK (ce_check_stride (src_pitch,
          (size_t) width * bytes_per_pixel, "src_pitch"));
  CE_CHECK (ce_check_stride (dst_pitch,
          (size_t) 2 * width * bytes_per_pixel, "dst_pitch"));
  CE_CHECK (ce_check_rows (row0, row1, 2 * height));
  if (bytes_per_pixel == 4) {
    CE_CHECK (ce_check_multiple (src_pitch, 4, "src_pitch"));
    CE_CHECK (ce_check_multiple (dst_pitch, 4, "dst_pitch"));
    CE_CHECK (ce_check_aligned (d_src, 4, "d_src"));
    CE_CHECK (ce_check_aligned (d_dst, 4, "d_dst"));
  }

  /* A range of n output rows touches up to n / 2 + 1 quad rows (a quad
   * straddles each end): a block row to spare. */
  const dim3 block (UPSCALE_BX, UPSCALE_BY);
  return ce_launch_rows (row0, row1,
      CE_ROWS_PER_LAUNCH (2 * UPSCALE_BY) - 2 * UPSCALE_BY, "upscale2x",
      [&] (int r0, int r1) {
        /* Quad row b covers output rows 2b+1, 2b+2: b = floor ((j-1) / 2). */
        int b_first = (r0 - 1) >> 1;
        int b_last = (r1 - 2) >> 1;
        int n_b = b_last - b_first + 1;
        dim3 grid (ce_ceil_div (width + 1, UPSCALE_BX),
            ce_ceil_div (n_b, UPSCALE_BY));
        if (bytes_per_pixel == 4)
          upscale2x_kernel < 4 > <<< grid, block, 0, stream >>> (d_src,
              src_pitch, width, height, r0, r1, b_first, n_b, d_dst,
              dst_pitch);
        else
          upscale2x_kernel < 1 > <<< grid, block, 0, stream >>> (d_src,
              src_pitch, width, height, r0, r1, b_first, n_b, d_dst,
              dst_pitch);
      });
}
