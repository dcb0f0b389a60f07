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

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <limits.h>
#include <type_traits>
#include <cuda_runtime.h>

#include "cudaedge-kernels.h"
#include "cudaedge-launch.cuh"
#include "cudaedge-testing.h"

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
  CE_CHECK (ce_check_plane (src_pitch,
          (size_t) width * lay.bytes_per_pixel, height, "src_pitch"));
  CE_CHECK (ce_check_plane (luma_pitch, (size_t) width, height,
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
 * lanes (4-byte dot products; max 4080, so 2 sums per register and one
 * IMAD/IADD does two pixels), then the vertical 5-tap on the packed pairs
 * (max 65280, still no carry between lanes), giving B for the 6 columns
 * the Sobel needs.  The Sobel is separable ([1 2 1] down then a
 * difference across for gx; a difference down then [1 2 1] across for
 * gy), then the output of ce_edge_value: in 32-bit integers for the l2
 * edges below FUSED_L2_FLOAT_MIN_PX (the strip kernel's launches from
 * there take the float form), on exact floats for the others (ce_sobel,
 * ce_rows); the float forms make the edge bytes from sign bits
 * (ce_sign_bytes).  Output:
 * one 32-bit store per lane and row.  In interior strips (below) a lane
 * owns 8 columns (FUSED_IPX; warps 256 wide): 4 words a row, horizontal
 * sums and vertical taps for the 10 columns X-1 ... X+8, two groups of 4
 * columns through the Sobel, two stores; the 2 columns of B beyond the
 * lane's own are then made for 8 columns instead of 4.
 *
 * Strips (fused_layout_make): the strips whose reads all fall inside the
 * frame (interior strips) are cut so that the launch is whole waves of
 * warps the GPU holds at once (one wave up to 4K), about FUSED_TH_TARGET
 * rows tall and no shorter than FUSED_TH_MIN: every warp starts at once
 * and they end together, where
 * strips of a fixed 8 rows left a partial last wave and the rows read
 * around each strip cost 75 % more rows.  Interior strips run in every
 * warp column, in the lanes whose reads lie inside the frame; the others
 * (general strips: the first and last rows, whole warp columns wide, and
 * the side lanes - the first lane of the frame and the last one or two -
 * one strip per lane) are FUSED_TH rows tall (FUSED_TH_WAVES when the
 * interior takes more than one wave) and take the border rule.
 * Frames whose interior strips would be the shortest anyway (640x480
 * and 720p; 1080p takes 5-row strips) take edge_fused_short_kernel
 * instead: a 2-D grid of FUSED_SHORT_TH-row strips, short because there
 * a general strip's chain of dependent row loads is the kernel's time.
 *
 * Borders: the blur needs Y through the border rule: rows are mapped with
 * ce_border_index when they are fetched (a zero row gives zero words);
 * on aligned data a lane whose 12 bytes are not all inside the frame
 * loads the words that are and puts the border rule on its bytes with
 * byte selects made once per thread (ce_side_selectors), and on
 * unaligned data or narrow frames it fetches the bytes one by one at
 * columns mapped once per thread.  The Sobel needs B through the border
 * rule: B values of columns outside the frame are replaced with the B of
 * the mapped column (always one of the lane's own 6 columns when the lane
 * has an output) or 0, and B rows -1 and H likewise with the mapped row
 * of the rolling window.
 *
 * The shape constants were chosen on an H200 with tests/bench/tune-fused.sh
 * (PERFORMANCE.md, "The fused kernel").
 */
#define FUSED_PX 4                          /* columns per lane */
#define FUSED_TW (32 * FUSED_PX)            /* columns per warp */
/* Columns per lane of the interior strips of edge_fused_kernel: 4, or 8
 * (two groups of 4 sharing one lane's loads, horizontal sums and
 * vertical taps, so the two columns of B on either side that the Sobel
 * needs are made once for 8 columns instead of for 4; PERFORMANCE.md). */
#ifndef FUSED_IPX
#define FUSED_IPX 8
#endif
#define FUSED_ITW (32 * FUSED_IPX)          /* columns per interior warp */
/* Rows of a general strip of edge_fused_kernel: a chain of dependent row
 * loads each, so short where the interior is one wave and the kernel's
 * time is a strip's latency (4 measured 5-21 % faster than 8 from 1080p
 * to 4K); FUSED_TH_WAVES where the interior takes more waves and its
 * work, not its latency, is the time (8 rows: a side lane's strip reads
 * 6 rows more than it filters whatever its height; PERFORMANCE.md,
 * "Short general strips"). */
#ifndef FUSED_TH
#define FUSED_TH 4
#endif
#ifndef FUSED_TH_WAVES
#define FUSED_TH_WAVES 8
#endif
/* Rows of a strip of edge_fused_short_kernel (small frames), interior or
 * general: the general strips' rows are a chain of dependent loads, and
 * at small frames that chain, not the work, sets the kernel's time
 * (PERFORMANCE.md). */
#ifndef FUSED_SHORT_TH
#define FUSED_SHORT_TH 4
#endif
/* Rows a general strip loads ahead of the row it filters. */
#ifndef FUSED_AHEAD
#define FUSED_AHEAD 1
#endif
/* Lanes of a warp that take side strips (one strip each, every lane in
 * other rows, so each of its loads touches this many cache lines). */
#ifndef FUSED_SIDE_LANES
#define FUSED_SIDE_LANES 8
#endif
/* Resident blocks per SM the register budget is set for, and warps per
 * block.  4 blocks: at most 128 registers, which the 8-column interior
 * lanes need (at 80 registers, 6 blocks, they spill up to 376 bytes a
 * thread and the magnitude and l1 outputs lose a third; at 96, 5 blocks,
 * the l2 magnitude still spills; PERFORMANCE.md).  With 4-column lanes
 * 6 blocks measured fastest. */
#ifndef FUSED_MIN_BLOCKS
#define FUSED_MIN_BLOCKS (FUSED_IPX == 8 ? 4 : 6)
#endif
#ifndef FUSED_WARPS
#define FUSED_WARPS 4
#endif
#ifndef FUSED_SHORT_MIN_BLOCKS
#define FUSED_SHORT_MIN_BLOCKS 6        /* edge_fused_short_kernel */
#endif
/* Rows an interior strip loads ahead of the row it filters, so that
 * loads are in flight while rows are filtered (a divisor of
 * FUSED_UNROLL and FUSED_UNROLL_L2_EDGES: 5, or 3 with FUSED_UNROLL
 * 15). */
#ifndef FUSED_PREFETCH
#define FUSED_PREFETCH 5
#endif
/* The shortest interior strip (frames whose strips would be no taller
 * take edge_fused_short_kernel), and the height interior strips are
 * aimed at when the frame has rows enough for more than one wave. */
#ifndef FUSED_TH_MIN
#define FUSED_TH_MIN 4
#endif
#ifndef FUSED_TH_TARGET
#define FUSED_TH_TARGET 24
#endif
/* Rows an interior strip's loop is unrolled over, a multiple of 5 (the
 * period of the rows of horizontal sums) and of FUSED_PREFETCH.  A
 * multiple of the Sobel window's period too would rename its rows
 * instead of moving them at the loop's end (15 for the integer form's 3
 * B rows, 10 for the float form's 2), but 5 has less code, which the
 * instruction cache holds, and fewer spilled registers: measured faster
 * (PERFORMANCE.md), except for the l2 edges on floats, which take
 * FUSED_UNROLL_L2_EDGES, twice FUSED_UNROLL when that is odd ("gy from
 * column differences"). */
#ifndef FUSED_UNROLL
#define FUSED_UNROLL 5
#endif
#ifndef FUSED_UNROLL_L2_EDGES
#define FUSED_UNROLL_L2_EDGES (FUSED_UNROLL % 2 ? 2 * FUSED_UNROLL : FUSED_UNROLL)
#endif

/* The weights of ce_hpass_packed, in constant memory: its dot products
 * take them as operands from the constant bank, where immediates were
 * moved into uniform registers again for every row (8 moves a row;
 * PERFORMANCE.md). */
static __constant__ uint32_t ce_hw[8] = {
  0x06040100u, 0x00000104u,     /* i = 0 and 4 */
  0x04010000u, 0x00010406u,     /* i = 1 and 5 */
  0x01000000u, 0x01040604u,     /* i = 2 */
  0x04060401u, 0x00000001u      /* i = 3 */
};

/* Horizontal 5-tap sums for columns X-1 ... X+4 from the bytes of columns
 * X-4 ... X+7 (w0, w1, w2): h[p] holds columns X-1+2p (low) and X+2p
 * (high).  Column X-1+i sums bytes 1+i ... 5+i (byte k is column X-4+k):
 * two 4-byte dot products each (__dp4a, on the FMA pipe), with the
 * weights [1 4 6 4 1] placed at those bytes of w0 and w1 (i < 3) or w1
 * and w2; the high column's sum goes in first, shifted, as the
 * accumulator of the low one's. */
static __device__ __forceinline__ void
ce_hpass_packed (uint32_t w0, uint32_t w1, uint32_t w2, uint32_t h[3])
{
  const uint32_t c0a = ce_hw[0], c0b = ce_hw[1];
  const uint32_t c1a = ce_hw[2], c1b = ce_hw[3];
  const uint32_t c2a = ce_hw[4], c2b = ce_hw[5];
  const uint32_t c3a = ce_hw[6], c3b = ce_hw[7];
  const uint32_t h1 = __dp4a (w0, c1a, __dp4a (w1, c1b, 0u));
  const uint32_t h3 = __dp4a (w1, c3a, __dp4a (w2, c3b, 0u));
  const uint32_t h5 = __dp4a (w1, c1a, __dp4a (w2, c1b, 0u));
  h[0] = __dp4a (w0, c0a, __dp4a (w1, c0b, h1 << 16));
  h[1] = __dp4a (w0, c2a, __dp4a (w1, c2b, h3 << 16));
  h[2] = __dp4a (w1, c0a, __dp4a (w2, c0b, h5 << 16));
}

/* The vertical 5-tap [1 4 6 4 1] on packed pairs of horizontal sums,
 * rows r - 2 ... r + 2 (each lane below 4081, the result below 65281, so
 * no partial sum carries between lanes): a + e + 4 (b + c + d) + 2 c, in
 * shifts and adds, which the compiler puts on the integer ALU more often
 * than 6 c + 4 (b + d), whose multiply-adds go to the FMA-heavy pipe, the
 * busier one (PERFORMANCE.md). */
static __device__ __forceinline__ uint32_t
ce_vpass (uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e)
{
  return ((b + c + d) << 2) + (c << 1) + (a + e);
}

/* The chain from B on, in floats (ce_sobel and ce_rows say which
 * outputs take it): every value it needs is an integer below 2^24 in
 * magnitude, which a float holds exactly, and float instructions can go
 * to both FMA pipes where integer ones share the ALU and the FMA-heavy
 * pipe.  B (at most 65280) becomes the float 2^23 + B without a
 * conversion: its bits are B with 0x4b000000 above them.  Differences of
 * such offset floats are exact, so the Sobel is made of them:
 *   gx = d_p + 2 d_c + d_n, with d = B[m+2] - B[m] in each B row;
 *   gy = s_n - s_p, with s = B[m] + 2 B[m+1] + B[m+2] (kept offset);
 * d and s are made once per B row (ce_brow) in the general strips; the
 * interior's row loops keep only what later rows need (ce_sobel_win). */
/* #pragma unroll in code the host compiles too (the host's compiler does
 * not know it). */
#ifdef __CUDA_ARCH__
#define CE_HD_UNROLL _Pragma ("unroll")
#else
#define CE_HD_UNROLL
#endif

#define CE_FOFF 8388608.0f              /* 2^23 */
#define CE_FOFF_BITS 0x4b000000u

struct ce_brow
{
  float d[FUSED_PX];            /* B[m + 2] - B[m] */
  float s[FUSED_PX];            /* 2^23 + B[m] + 2 B[m + 1] + B[m + 2] */
};

/* The gradients of one row of a lane. */
struct ce_grad
{
  float x[FUSED_PX], y[FUSED_PX];
};

/* The row of B whose columns X-1 ... X+4 are f[] (offset floats). */
static __device__ __forceinline__ void
ce_brow_make (const float f[6], ce_brow & r)
{
#pragma unroll
  for (int m = 0; m < FUSED_PX; m++) {
    r.d[m] = f[m + 2] - f[m];
    /* f[m] - 3 2^23 = B - 2^24 is exact; the FMA's sum is B[m] + 2 B[m+1]
     * exactly, and adding f[m + 2] puts the offset back. */
    r.s[m] = fmaf (2.0f, f[m + 1], f[m] - 3.0f * CE_FOFF) + f[m + 2];
  }
}

/* The row of zeros (border rule "zero"). */
static __device__ __forceinline__ void
ce_brow_zero (ce_brow & r)
{
#pragma unroll
  for (int m = 0; m < FUSED_PX; m++) {
    r.d[m] = 0.0f;
    r.s[m] = CE_FOFF;
  }
}

/* Offset floats of the B pairs v[] (16-bit lanes) of columns X-1 ... X+4. */
static __device__ __forceinline__ void
ce_unpack_pairs (const uint32_t v[3], float f[6])
{
#pragma unroll
  for (int q = 0; q < 3; q++) {
    f[2 * q] = __uint_as_float (__byte_perm (v[q], CE_FOFF_BITS, 0x7410u));
    f[2 * q + 1] = __uint_as_float (__byte_perm (v[q], CE_FOFF_BITS,
            0x7432u));
  }
}

/* Offset floats of the bytes of columns X-1 ... X+4 (no blur: B = Y). */
static __device__ __forceinline__ void
ce_unpack_bytes (uint32_t w0, uint32_t w1, uint32_t w2, float f[6])
{
  f[0] = __uint_as_float (__byte_perm (w0, CE_FOFF_BITS, 0x7443u));
  f[1] = __uint_as_float (__byte_perm (w1, CE_FOFF_BITS, 0x7440u));
  f[2] = __uint_as_float (__byte_perm (w1, CE_FOFF_BITS, 0x7441u));
  f[3] = __uint_as_float (__byte_perm (w1, CE_FOFF_BITS, 0x7442u));
  f[4] = __uint_as_float (__byte_perm (w1, CE_FOFF_BITS, 0x7443u));
  f[5] = __uint_as_float (__byte_perm (w2, CE_FOFF_BITS, 0x7440u));
}

/* gx and gy of the output row between B rows p and n. */
static __device__ __forceinline__ void
ce_sobel_rows (const ce_brow & p, const ce_brow & c, const ce_brow & n,
    ce_grad & g)
{
#pragma unroll
  for (int m = 0; m < FUSED_PX; m++) {
    g.x[m] = fmaf (2.0f, c.d[m], p.d[m]) + n.d[m];
    g.y[m] = n.s[m] - p.s[m];
  }
}

/* The same on a stream of B rows, keeping only what later rows need:
 * after B rows ... j - 1, j, a holds d (j - 1) + 2 d (j), d holds d (j),
 * and fp and fc the offset floats of B rows j - 1 and j.  gy is taken
 * across the columns of the rows' differences, gy = e[m] + 2 e[m+1] +
 * e[m+2] with e = B (j + 1) - B (j - 1): 6 differences and 2
 * instructions a pixel, where the sums s above take 3 a pixel and their
 * difference one more (PERFORMANCE.md, "gy from column differences"). */
struct ce_sobel_win
{
  float a[FUSED_PX], d[FUSED_PX], fp[6], fc[6];
};

/* Takes B row j + 1 (offset floats of columns X-1 ... X+4) and gives gx
 * and gy of output row j.  The first two rows of a strip only fill the
 * window (start from any window, and ignore their gx and gy). */
static __host__ __device__ __forceinline__ void
ce_sobel_push (ce_sobel_win & w, const float f[6], ce_grad & g)
{
  float dv[6];                  /* e, exact: offsets cancel */
CE_HD_UNROLL
  for (int q = 0; q < 6; q++)
    dv[q] = f[q] - w.fp[q];
CE_HD_UNROLL
  for (int m = 0; m < FUSED_PX; m++) {
    const float d = f[m + 2] - f[m];
    g.x[m] = w.a[m] + d;
    g.y[m] = fmaf (2.0f, dv[m + 1], dv[m]) + dv[m + 2];
    w.a[m] = fmaf (2.0f, d, w.d[m]);
    w.d[m] = d;
  }
CE_HD_UNROLL
  for (int q = 0; q < 6; q++) {
    w.fp[q] = w.fc[q];
    w.fc[q] = f[q];
  }
}

static __host__ __device__ __forceinline__ void
ce_sobel_win_init (ce_sobel_win & w)
{
CE_HD_UNROLL
  for (int m = 0; m < FUSED_PX; m++)
    w.a[m] = w.d[m] = 0.0f;
CE_HD_UNROLL
  for (int q = 0; q < 6; q++)
    w.fp[q] = w.fc[q] = CE_FOFF;
}

/* The threshold as the kernels compare it (ce_fconsts_make). */
struct ce_fconsts
{
  float lim;                    /* limit as a float */
  float guard;                  /* l2 edges: |e| beyond it decides
                                   (ce_edge_out_open) */
  int64_t limit;                /* the exact limit (ce_edge_consts) */
};

static ce_fconsts
ce_fconsts_make (const ce_edge_consts * c)
{
  ce_fconsts k;
  k.limit = c->limit;
  if (c->norm == CE_NORM_L1) {
    /* |gx| + |gy| < 2^20: a limit beyond 2^24 is never passed, and
     * every integer up to it is a float. */
    k.lim = (float) (c->limit < -1 ? -1 : c->limit > (1 << 24) ?
        (1 << 24) : c->limit);
    k.guard = 0.0f;
  } else {
    k.lim = (float) c->limit;
    k.guard = fabsf (k.lim) * (1.0f / 1048576.0f);     /* 2^-20 */
  }
  return k;
}

/* The output code below (ce_sign_bytes to ce_edge_out) also runs on the
 * host, where ce_fused_out_host () tests it against the reference
 * without a GPU; these are its instructions there.  On the GPU each is
 * the one instruction it names. */
static __host__ __device__ __forceinline__ uint32_t
ce_f2u (float f)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (f);
#else
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  return u;
#endif
}

static __host__ __device__ __forceinline__ float
ce_u2f (uint32_t u)
{
#ifdef __CUDA_ARCH__
  return __uint_as_float (u);
#else
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
#endif
}

/* a + b rounded towards zero.  On the host the sum is exact in double for
 * the operands used here (a below 2^9 with 2^23), then truncated. */
static __host__ __device__ __forceinline__ float
ce_fadd_rz (float a, float b)
{
#ifdef __CUDA_ARCH__
  return __fadd_rz (a, b);
#else
  const double d = (double) a + (double) b;
  float r = (float) d;
  if (fabs ((double) r) > fabs (d))
    r = nextafterf (r, 0.0f);
  return r;
#endif
}

/* Nearest integer, ties to even. */
static __host__ __device__ __forceinline__ int
ce_f2i_rn (float f)
{
#ifdef __CUDA_ARCH__
  return __float2int_rn (f);
#else
  return (int) nearbyintf (f);
#endif
}

/* prmt.b32: byte n of the result is byte (sel >> 4n) & 7 of b:a; with the
 * nibble's top bit set, the sign of that byte across the whole byte (PTX
 * ISA, "prmt").  __byte_perm () keeps only the low three bits. */
static __host__ __device__ __forceinline__ uint32_t
ce_prmt (uint32_t a, uint32_t b, uint32_t sel)
{
#ifdef __CUDA_ARCH__
  uint32_t r;
  asm ("prmt.b32 %0, %1, %2, %3;" : "=r" (r) : "r" (a), "r" (b), "r" (sel));
  return r;
#else
  const uint64_t ba = (uint64_t) b << 32 | a;
  uint32_t r = 0;
  for (int n = 0; n < 4; n++) {
    const unsigned nib = sel >> (4 * n) & 0xfu;
    unsigned byte = (unsigned) (ba >> (8 * (nib & 7u))) & 0xffu;
    if (nib & 8u)
      byte = byte & 0x80u ? 0xffu : 0u;
    r |= (uint32_t) byte << (8 * n);
  }
  return r;
#endif
}

static __host__ __device__ __forceinline__ uint32_t
ce_byte_perm (uint32_t a, uint32_t b, uint32_t sel)
{
#ifdef __CUDA_ARCH__
  return __byte_perm (a, b, sel);
#else
  return ce_prmt (a, b, sel & 0x7777u);
#endif
}

#ifndef __CUDA_ARCH__
/* ce_fused_out_host: ulps the host's root is moved by, standing for
 * sqrt.approx's error. */
static int ce_host_root_ulps;
#endif

/* sqrt.approx.ftz.f32; on the host the correctly rounded root, moved by
 * ce_host_root_ulps ulps.  The roots taken are of 0 or of at least 1 (sums
 * of squares of integers), never of a subnormal, so flushing subnormals
 * changes no result; without .ftz, sm_90 code tests every input and
 * scales a subnormal one around MUFU.SQRT, a compare and two predicated
 * multiplies a root (PERFORMANCE.md, "The magnitude's square root"). */
static __host__ __device__ __forceinline__ float
ce_sqrt_approx (float q)
{
#ifdef __CUDA_ARCH__
  float r;
  asm ("sqrt.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (q));
  return r;
#else
  float r = sqrtf (q);
  for (int i = 0; i < ce_host_root_ulps && r > 0.0f; i++)
    r = nextafterf (r, INFINITY);
  for (int i = 0; i > ce_host_root_ulps && r > 0.0f; i--)
    r = nextafterf (r, 0.0f);
  return r;
#endif
}

/* Byte m is 0xff where word s_m has its sign bit set, 0 elsewhere: three
 * byte selects for four outputs, where a compare, a select and an or per
 * output would take twelve instructions. */
static __host__ __device__ __forceinline__ uint32_t
ce_sign_bytes (uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3)
{
  return ce_prmt (ce_prmt (s0, s1, 0xfbu), ce_prmt (s2, s3, 0xfb00u),
      0x7610u);
}

/* The l2 magnitude's estimate of u = sqrt (n) / S + 1/2 (ce_edge_out),
 * held below 255.5.  sqrt.approx is one special-function instruction
 * (MUFU.SQRT on sm_90), within 1 ulp of the rounded root on an H200 for
 * every float from 1 to 2^38 (q's range), where the estimate's margin
 * (2^-12 below 256) allows more than 7; sqrt (0) is 0. */
template < int SCALE >
static __host__ __device__ __forceinline__ float
ce_l2_u (float gx, float gy)
{
  const float q = fmaf (gx, gx, gy * gy);
  return fminf (fmaf (ce_sqrt_approx (q), 1.0f / SCALE, 0.5f), 255.5f);
}

/* The four bytes of a row, exactly, where the estimates of ce_edge_out
 * left one open: rare, so out of line, which keeps the row loops small.
 * For the l2 magnitude, the nearest integer mm to the estimate of u is k
 * or k + 1 (k = floor (u)): k = mm exactly where (2 mm - 1) S <=
 * 2 sqrt (n), a test in 64-bit integers. */
template < int OUTPUT, int SCALE >
static __host__ __device__ __noinline__ uint32_t
ce_l2_settle (ce_grad g, int64_t limit)
{
  uint32_t out = 0;
  for (int m = 0; m < FUSED_PX; m++) {
    const int64_t gx = ce_f2i_rn (g.x[m]), gy = ce_f2i_rn (g.y[m]);
    const int64_t n = gx * gx + gy * gy;
    uint32_t v;
    if (OUTPUT == CE_OUTPUT_EDGES) {
      v = n > limit ? 255u : 0u;
    } else {
      const int mm = ce_f2i_rn (ce_l2_u < SCALE > (g.x[m], g.y[m]));
      const int64_t t = (int64_t) (2 * mm - 1) * SCALE;
      const int k = (t < 0 || t * t <= 4 * n) ? mm : mm - 1;
      v = (uint32_t) min (k, 255);
    }
    out |= v << (8 * m);
  }
  return out;
}

/* The four output bytes of one row of a lane, packed: ce_edge_value ()
 * of each gradient, exactly.
 *
 * l1: |gx| + |gy| < 2^20 and S is a power of two, so the sum, the
 * difference lim - |gx| - |gy| (whose sign bit is the edge byte,
 * ce_sign_bytes) and s / S + 1/2 are exact floats; the floor is an add
 * of 2^23 rounded towards zero (the byte is then the low byte of the
 * bits).
 *
 * l2 edges: e = lim - gx^2 - gy^2 in two fused multiply-adds, each
 * rounded once, is within 2^-23 (|lim| + |e|) of limit - n (lim, the
 * limit as a float, included): where |e| > 2^-20 |lim| its sign is that
 * of limit - n, and its sign bit the byte; a row with a pixel closer than
 * that (a few in a million) is settled exactly.
 *
 * l2 magnitude: k is the largest integer with (2k - 1) S <= 2 sqrt (n)
 * (docs/numerics.md, "Output"), that is floor (u) with u = sqrt (n) / S
 * + 1/2.  The estimate of u (sqrt (q) by sqrt.approx, one
 * special-function instruction; ce_l2_u) is within 4.6e-5 of it below
 * 256 (q within 2^-23; the root within 1 ulp of the rounded root, so
 * 1.5 ulp of the exact one, an ulp of r / S being at most 2^-16; the
 * multiply-add's rounding), so
 * where its fraction is farther than 2^-12 from an integer its floor is
 * k; a row with a pixel nearer (about 1 pixel in 2000) is settled
 * exactly.  Estimates from 255.5 up give 255 whatever k is. */
template < int NORM, int OUTPUT, int SCALE >
static __host__ __device__ __forceinline__ uint32_t
ce_edge_out_open (const ce_grad & g, const ce_fconsts & k, bool &open_row)
{
  constexpr float inv_scale = 1.0f / SCALE;
  constexpr float eps = 1.0f / 4096.0f;
  uint32_t t[FUSED_PX];         /* magnitude: the byte in the low bits;
                                   edges: lim - s or lim - q, whose sign
                                   is the output */
  uint32_t out = 0;
  float near = 0.0f;            /* l2 edges: min |lim - q| */
  float far = 0.0f;             /* l2 magnitude: max |fraction - 1/2| */

  CE_HD_UNROLL
  for (int m = 0; m < FUSED_PX; m++) {
    if (NORM == CE_NORM_L1) {
      if (OUTPUT == CE_OUTPUT_EDGES)
        t[m] = ce_f2u ((k.lim - fabsf (g.x[m])) - fabsf (g.y[m]));
      else
        t[m] = ce_f2u (ce_fadd_rz (fminf (fmaf (fabsf (g.x[m]) +
                        fabsf (g.y[m]), inv_scale, 0.5f), 255.0f), CE_FOFF));
    } else if (OUTPUT == CE_OUTPUT_EDGES) {
      const float e = fmaf (-g.x[m], g.x[m], fmaf (-g.y[m], g.y[m], k.lim));
      t[m] = ce_f2u (e);
      near = m == 0 ? fabsf (e) : fminf (near, fabsf (e));
    } else {
      const float u = ce_l2_u < SCALE > (g.x[m], g.y[m]);
      t[m] = ce_f2u (ce_fadd_rz (u, CE_FOFF));
      /* t - (2^23 - 1/2) is floor (u) + 1/2, exactly (Sterbenz) */
      far = fmaxf (far, fabsf (u - (ce_u2f (t[m]) -
                  (CE_FOFF - 0.5f))));
    }
  }
  if (OUTPUT == CE_OUTPUT_MAGNITUDE)
    out = ce_byte_perm (ce_byte_perm (t[0], t[1], 0x0040u),
        ce_byte_perm (t[2], t[3], 0x0040u), 0x5410u);
  else
    out = ce_sign_bytes (t[0], t[1], t[2], t[3]);
  open_row = NORM == CE_NORM_L2 && (OUTPUT == CE_OUTPUT_EDGES ?
      near <= k.guard : far >= 0.5f - eps);
  return out;
}

/* The same, settled: ce_edge_out_open () leaves the rare rows whose
 * estimates are not conclusive (open_row) to the caller, which may test
 * several rows at once. */
template < int NORM, int OUTPUT, int SCALE >
static __host__ __device__ __forceinline__ uint32_t
ce_edge_out (const ce_grad & g, const ce_fconsts & k)
{
  bool open;
  uint32_t out = ce_edge_out_open < NORM, OUTPUT, SCALE > (g, k, open);
  if (__builtin_expect (open, 0))
    out = ce_l2_settle < OUTPUT, SCALE > (g, k.limit);
  return out;
}

/* The Sobel and the output on 32-bit integers, from B rows p, c and n
 * (columns X-1 ... X+4): ce_edge_value () itself, with its 64-bit square
 * test for l2. */
template < int NORM, int OUTPUT, int SCALE >
static __device__ __forceinline__ uint32_t
ce_sobel_int_out (const int p[6], const int c[6], const int n[6],
    const ce_fconsts & k)
{
  int v[6], d[6];
  uint32_t o = 0;
#pragma unroll
  for (int m = 0; m < 6; m++) {
    v[m] = p[m] + 2 * c[m] + n[m];
    d[m] = n[m] - p[m];
  }
#pragma unroll
  for (int m = 0; m < FUSED_PX; m++)
    o |= (uint32_t) ce_edge_value (v[m + 2] - v[m],
        d[m] + 2 * d[m + 1] + d[m + 2], k.limit, SCALE, (ce_norm) NORM,
        (ce_output) OUTPUT) << (8 * m);
  return o;
}

/* Two forms of the chain from B on, both exact: on floats (above), and
 * on 32-bit integers, kept for the l2 edges below 6 Mpx, where they
 * measured faster or level (the strip kernel's larger launches take the
 * float form: fused_l2_on_floats; PERFORMANCE.md, "The l2 edges' two
 * forms" and "Edge bytes from sign bits").  ce_rows_* serve the general strips: the B values
 * of a row's columns X-1 ... X+4 (vals_*: which the column border rule
 * then rearranges), made into a row (make), three rows into an output
 * row (out). */
template < int NORM, int OUTPUT, int SCALE >
struct ce_rows_f
{
  typedef float val;
  typedef ce_brow row;

  static __device__ __forceinline__ val zero_val ()
  {
    return CE_FOFF;
  }
  static __device__ __forceinline__ void vals_pairs (const uint32_t v[3],
      val f[6])
  {
    ce_unpack_pairs (v, f);
  }
  static __device__ __forceinline__ void vals_bytes (uint32_t w0,
      uint32_t w1, uint32_t w2, val f[6])
  {
    ce_unpack_bytes (w0, w1, w2, f);
  }
  static __device__ __forceinline__ void make (const val f[6], row & r)
  {
    ce_brow_make (f, r);
  }
  static __device__ __forceinline__ void zero (row & r)
  {
    ce_brow_zero (r);
  }
  static __device__ __forceinline__ uint32_t out (const row & p,
      const row & c, const row & n, const ce_fconsts & k)
  {
    ce_grad g;
    ce_sobel_rows (p, c, n, g);
    return ce_edge_out < NORM, OUTPUT, SCALE > (g, k);
  }
};

template < int NORM, int OUTPUT, int SCALE >
struct ce_rows_i
{
  typedef int val;
  struct row
  {
    int b[6];
  };

  static __device__ __forceinline__ val zero_val ()
  {
    return 0;
  }
  static __device__ __forceinline__ void vals_pairs (const uint32_t v[3],
      val b[6])
  {
#pragma unroll
    for (int q = 0; q < 3; q++) {
      b[2 * q] = (int) (v[q] & 0xffffu);
      b[2 * q + 1] = (int) (v[q] >> 16);
    }
  }
  static __device__ __forceinline__ void vals_bytes (uint32_t w0,
      uint32_t w1, uint32_t w2, val b[6])
  {
    b[0] = (int) (w0 >> 24);
    b[1] = (int) (w1 & 0xffu);
    b[2] = (int) ((w1 >> 8) & 0xffu);
    b[3] = (int) ((w1 >> 16) & 0xffu);
    b[4] = (int) (w1 >> 24);
    b[5] = (int) (w2 & 0xffu);
  }
  static __device__ __forceinline__ void make (const val b[6], row & r)
  {
#pragma unroll
    for (int m = 0; m < 6; m++)
      r.b[m] = b[m];
  }
  static __device__ __forceinline__ void zero (row & r)
  {
#pragma unroll
    for (int m = 0; m < 6; m++)
      r.b[m] = 0;
  }
  static __device__ __forceinline__ uint32_t out (const row & p,
      const row & c, const row & n, const ce_fconsts & k)
  {
    return ce_sobel_int_out < NORM, OUTPUT, SCALE > (p.b, c.b, n.b, k);
  }
};

/* The same for the row loops of interior strips, fed one B row at a
 * time (push_pairs: the blur's packed pairs; push_bytes: Y without the
 * blur); out () gives the output row above the last B row. */
template < int NORM, int OUTPUT, int SCALE >
struct ce_sobel_f
{
  ce_sobel_win w;
  ce_grad g;

  __device__ __forceinline__ ce_sobel_f ()
  {
    ce_sobel_win_init (w);
  }
  __device__ __forceinline__ void push_pairs (const uint32_t v[3])
  {
    float f[6];
    ce_unpack_pairs (v, f);
    ce_sobel_push (w, f, g);
  }
  __device__ __forceinline__ void push_bytes (uint32_t w0, uint32_t w1,
      uint32_t w2)
  {
    float f[6];
    ce_unpack_bytes (w0, w1, w2, f);
    ce_sobel_push (w, f, g);
  }
  __device__ __forceinline__ uint32_t out (const ce_fconsts & k) const
  {
    return ce_edge_out < NORM, OUTPUT, SCALE > (g, k);
  }
};

template < int NORM, int OUTPUT, int SCALE >
struct ce_sobel_i
{
  typedef ce_rows_i < NORM, OUTPUT, SCALE > rows;
  int p[6], c[6], n[6];         /* B rows j - 2, j - 1, j */

  __device__ __forceinline__ ce_sobel_i ()
  {
#pragma unroll
    for (int m = 0; m < 6; m++)
      p[m] = c[m] = n[m] = 0;
  }
  __device__ __forceinline__ void next ()
  {
#pragma unroll
    for (int m = 0; m < 6; m++) {
      p[m] = c[m];
      c[m] = n[m];
    }
  }
  __device__ __forceinline__ void push_pairs (const uint32_t v[3])
  {
    next ();
    rows::vals_pairs (v, n);
  }
  __device__ __forceinline__ void push_bytes (uint32_t w0, uint32_t w1,
      uint32_t w2)
  {
    next ();
    rows::vals_bytes (w0, w1, w2, n);
  }
  __device__ __forceinline__ uint32_t out (const ce_fconsts & k) const
  {
    return ce_sobel_int_out < NORM, OUTPUT, SCALE > (p, c, n, k);
  }
};

/* The l2 edges take the integer form by default; with L2I false, the
 * float form.  The strip kernel takes the float form on large launches
 * (fused_l2_on_floats), where it measured faster. */
#ifndef CE_SOBEL_INT_L2_EDGES
#define CE_SOBEL_INT_L2_EDGES 1
#endif
#define CE_INT_FORM(N, O, L2I) \
  ((L2I) && (N) == CE_NORM_L2 && (O) == CE_OUTPUT_EDGES)
template < int NORM, int OUTPUT, int SCALE,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
using ce_sobel = typename std::conditional < CE_INT_FORM (NORM, OUTPUT, L2I),
    ce_sobel_i < NORM, OUTPUT, SCALE >,
    ce_sobel_f < NORM, OUTPUT, SCALE > >::type;
template < int NORM, int OUTPUT, int SCALE,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
using ce_rows = typename std::conditional < CE_INT_FORM (NORM, OUTPUT, L2I),
    ce_rows_i < NORM, OUTPUT, SCALE >,
    ce_rows_f < NORM, OUTPUT, SCALE > >::type;

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
 * border rule and no per-row checks.  The row loop is unrolled over
 * UNROLL rows (FUSED_UNROLL, or FUSED_UNROLL_L2_EDGES for the l2 edges
 * on floats), whole periods of the rows of horizontal sums, so
 * that their window is renamed registers instead of moves, and it leaves
 * after any row, so a strip may have any height.  Rows are loaded
 * FUSED_PREFETCH rows ahead.  Same arithmetic as the general path below.
 * The lane takes PX columns (4 or 8) and reads bytes X - 4 ... X + PX + 3
 * of each row as PX / 4 + 2 words.  luma points at the first Y row the
 * strip reads (ys - 1 - R), 4 bytes left of the lane's first column; dst
 * at the lane's first output pixel; the strip's rows and the row after
 * its last read must be inside the frame. */
template < bool BLUR, int NORM, int OUTPUT, int PX = FUSED_PX,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
static __device__ __forceinline__ void
edge_fused_interior (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int rows, const ce_fconsts & k, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;       /* blur radius in rows */
  constexpr int P = 2 * R + 2;  /* Y rows read before the first output */
  constexpr int UNROLL = NORM == CE_NORM_L2 && OUTPUT == CE_OUTPUT_EDGES &&
      !CE_INT_FORM (NORM, OUTPUT, L2I) ? FUSED_UNROLL_L2_EDGES : FUSED_UNROLL;
  constexpr int G = PX / 4;     /* groups of 4 columns */
  constexpr int NW = G + 2;     /* words a row: bytes X - 4 ... X + PX + 3 */
  constexpr int NP = 2 * G + 1; /* pairs of B: columns X - 1 ... X + PX */
  static_assert (PX == 4 || PX == 8, "4 or 8 columns a lane");
  static_assert (UNROLL % FUSED_PREFETCH == 0, "a whole ring per period");
  static_assert (UNROLL % 5 == 0, "a whole period of the blur's rows");
  uint32_t hr[5][NP];           /* horizontal sums by Y row, mod 5 */
  /* Group g's Sobel takes B pairs 2g ... 2g + 2 (columns X - 1 + 4g ...
   * X + 4 + 4g). */
  ce_sobel < NORM, OUTPUT, BLUR ? CE_BLUR_SCALE : 1, L2I > sob[G];

  /* Y row I (from ys - 1 - R): into the windows. */
  auto row_in = [&](auto I, const uint32_t * w) {
    if constexpr (BLUR) {
      constexpr int i = decltype (I)::value;
#pragma unroll
      for (int g = 0; g < G; g++) {
        uint32_t h[3];
        ce_hpass_packed (w[g], w[g + 1], w[g + 2], h);
#pragma unroll
        for (int q = g == 0 ? 0 : 1; q < 3; q++)
          hr[i % 5][2 * g + q] = h[q];
      }
      if constexpr (i >= 2 * R) {
        uint32_t v[NP];
#pragma unroll
        for (int q = 0; q < NP; q++)
          v[q] = ce_vpass (hr[(i + 1) % 5][q], hr[(i + 2) % 5][q],
              hr[(i + 3) % 5][q], hr[(i + 4) % 5][q], hr[i % 5][q]);
#pragma unroll
        for (int g = 0; g < G; g++)
          sob[g].push_pairs (v + 2 * g);
      }
    } else {
#pragma unroll
      for (int g = 0; g < G; g++)
        sob[g].push_bytes (w[g], w[g + 1], w[g + 2]);
    }
  };
  auto load = [&](const uint8_t * row, uint32_t * w) {
    const uint32_t *p = reinterpret_cast < const uint32_t * >(row);
#pragma unroll
    for (int q = 0; q < NW; q++)
      w[q] = __ldg (p + q);
  };

  auto prologue = [&](auto I) {
    uint32_t w[NW];
    load (luma + (size_t) decltype (I)::value * luma_pitch, w);
    row_in (I, w);
    return true;
  };
  ce_unroll < 0, P >::run (prologue);
  uint32_t pf[FUSED_PREFETCH][NW];      /* rows i ... i + D - 1, mod D */
  const uint8_t *next = luma + (size_t) P * luma_pitch;
#pragma unroll
  for (int a = 0; a < FUSED_PREFETCH; a++, next += luma_pitch)
    load (next, pf[a]);

  /* One output row; false after the strip's last.  The row index modulo
   * the period is all the windows need. */
  auto step = [&](auto K) {
    constexpr int i = P + decltype (K)::value;
    constexpr int f = decltype (K)::value % FUSED_PREFETCH;
    uint32_t w[NW];
#pragma unroll
    for (int q = 0; q < NW; q++)
      w[q] = pf[f][q];
    load (next, pf[f]);
    next += luma_pitch;
    row_in (std::integral_constant < int, i > (), w);

    /* Output row from B rows i - 2R - 2 ... i - 2R. */
#pragma unroll
    for (int g = 0; g < G; g++)
      reinterpret_cast < uint32_t * >(dst)[g] = sob[g].out (k);
    dst += dst_pitch;
    return --rows > 0;
  };
  while (ce_unroll < 0, UNROLL >::run (step)) {
  }
}

/* The interior strips of small frames (edge_fused_short_kernel): exactly
 * FUSED_SHORT_TH rows.  The row loop runs in bodies of FUSED_SHORT_UNROLL
 * rows (0: the whole strip in one body), each row loaded that many rows
 * ahead into a ring of registers renamed by the unrolling.  Same
 * arithmetic and arguments as edge_fused_interior. */
#ifndef FUSED_SHORT_UNROLL
#define FUSED_SHORT_UNROLL 0
#endif
template < bool BLUR, int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_interior_short (const uint8_t * __restrict__ luma, size_t luma_pitch,
    const ce_fconsts & k, uint8_t * __restrict__ dst, size_t dst_pitch)
{
  constexpr int R = BLUR ? 2 : 0;       /* blur radius in rows */
  constexpr int ROWS = FUSED_SHORT_TH + 2 + 2 * R;      /* Y rows read */
  /* rows a body takes and loads ahead: a divisor of ROWS */
  constexpr int U = FUSED_SHORT_UNROLL > 0 && ROWS % FUSED_SHORT_UNROLL == 0
      ? FUSED_SHORT_UNROLL : ROWS;
  uint32_t q[U][3];             /* rows i ... i + U - 1, mod U */
  uint32_t hr[4][3] = { };      /* horizontal sums of rows i - 4 ... i - 1 */
  ce_sobel < NORM, OUTPUT, BLUR ? CE_BLUR_SCALE : 1 > sob;
  auto load = [&](int i, uint32_t w[3]) {
    const uint32_t *p = reinterpret_cast < const uint32_t * >(luma +
        (size_t) i * luma_pitch);
    w[0] = __ldg (p);
    w[1] = __ldg (p + 1);
    w[2] = __ldg (p + 2);
  };

#pragma unroll
  for (int u = 0; u < U; u++)
    load (u, q[u]);
#pragma unroll 1
  for (int i0 = 0; i0 < ROWS; i0 += U) {
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int i = i0 + u;
      const uint32_t w0 = q[u][0], w1 = q[u][1], w2 = q[u][2];
      if (U < ROWS && i + U < ROWS)
        load (i + U, q[u]);
      const int j = i - 2 * R;  /* B row index, B row ys - 1 + j */

      if (BLUR) {
        uint32_t h[3];
        ce_hpass_packed (w0, w1, w2, h);
        if (j >= 0) {
          uint32_t v[3];
#pragma unroll
          for (int c = 0; c < 3; c++)
            v[c] = ce_vpass (hr[0][c], hr[1][c], hr[2][c], hr[3][c], h[c]);
          sob.push_pairs (v);
        }
#pragma unroll
        for (int c = 0; c < 3; c++) {
          hr[0][c] = hr[1][c];
          hr[1][c] = hr[2][c];
          hr[2][c] = hr[3][c];
          hr[3][c] = h[c];
        }
      } else {
        sob.push_bytes (w0, w1, w2);
      }

      /* Output row ys + j - 2 from B rows j - 2, j - 1, j. */
      if (j >= 2)
        *reinterpret_cast < uint32_t * >(dst + (size_t) (j - 2) * dst_pitch)
            = sob.out (k);
    }
  }
}

/* The byte selectors (__byte_perm) that give a word lane of
 * edge_fused_general its 12 bytes through the border rule, or for the
 * zero border the masks that clear the bytes outside the frame.  Lane X
 * (W >= 12) loads the words at X - 4 (when X >= 4), X, and X + 4 (when
 * X + 4 < W; a word not loaded is 0).  Then w0 = prmt (w0, w1, qa),
 * w1 = prmt (w0, w1, qa >> 16), w2 = prmt (w1, w2, qb), or w1 &= qa,
 * w2 &= qb.  Every byte the lane's outputs need maps inside its 12 bytes
 * (the left lane's columns -3 ... -1 to 0 ... 3; a right lane's columns
 * W ... W + 1 to W - 3 ... W - 1, at or right of X - 4), so one word on
 * each side suffices; bytes no output needs keep what they have. */
static __device__ __forceinline__ void
ce_side_selectors (int X, int W, ce_border_mode border, unsigned &qa,
    unsigned &qb)
{
  const bool zero = border == CE_BORDER_ZERO;
  qa = zero ? ~0u : 0x76543210u;        /* identity */
  qb = zero ? ~0u : 0x7654u;
  if (X >= 4 && X + 8 <= W)
    return;
  if (X < 4) {                  /* X == 0: columns -4 ... -1 from w1 */
    if (zero)
      return;                   /* w0 is not loaded: 0 */
    unsigned s0 = 0;
#pragma unroll
    for (int k = 1; k < 4; k++)
      s0 |= (unsigned) (4 + ce_border_index (k - 4, W, border)) << (4 * k);
    qa = s0 | 0x76540000u;
    return;
  }
  unsigned s1 = 0, s2 = 0, m1 = 0, m2 = 0;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const int c1 = X + k, c2 = X + 4 + k;
    unsigned n1 = 4 + k, n2 = 4 + k;    /* keep */
    if (c1 < W)
      m1 |= 0xffu << (8 * k);
    else {
      const int m = ce_border_index (c1, W, border);
      if (m >= X && m < X + 4)
        n1 = 4 + (m - X);
      else if (m >= X - 4 && m < X)
        n1 = m - (X - 4);
    }
    if (c2 < W)
      m2 |= 0xffu << (8 * k);
    else {
      const int m = ce_border_index (c2, W, border);
      if (m >= X + 4 && m < X + 8)
        n2 = 4 + (m - X - 4);
      else if (m >= X && m < X + 4)
        n2 = m - X;
    }
    s1 |= n1 << (4 * k);
    s2 |= n2 << (4 * k);
  }
  if (zero) {
    qa = m1;
    qb = m2;
  } else {
    qa = 0x3210u | s1 << 16;
    qb = s2;
  }
}

/* Any strip: rows [ys, ye) of the lane's columns X ... X+3, with the
 * border rule wherever a read leaves the frame.  Lanes may differ in X,
 * ys and ye. */
template < bool BLUR, int NORM, int OUTPUT,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
static __device__ __forceinline__ void
edge_fused_general (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int X, int ys, int ye, const ce_fconsts & k,
    ce_border_mode border, int aligned_in, int aligned_out,
    uint8_t * __restrict__ dst, size_t dst_pitch)
{
  /* Word lanes read their 12 bytes as up to 3 aligned words and put the
   * border rule on them with byte selects (ce_side_selectors); the
   * others (unaligned data, narrow frames) fetch bytes one by one. */
  const bool words = aligned_in && W >= 12;
  const bool zero = border == CE_BORDER_ZERO;
  int off[12];                  /* byte lanes: mapped column or -1 */
  unsigned fix = 0;             /* per B column, 4 bits */
  unsigned qa, qb;
  if (words) {
    ce_side_selectors (X, W, border, qa, qb);
  } else {
#pragma unroll
    for (int k = 0; k < 12; k++)
      off[k] = (k == 0 || k == 11) ? -1
          : ce_border_index (X - 4 + k, W, border);
  }
  const bool inner = X >= 1 && X + 4 < W;       /* B columns in the frame */
  if (!inner) {
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
    if (words) {
      const uint32_t *p = reinterpret_cast < const uint32_t * >(row + X);
      if (X >= 4)
        w0 = __ldg (p - 1);
      w1 = __ldg (p);
      if (X + 4 < W)
        w2 = __ldg (p + 1);
      if (zero) {
        w1 &= qa;
        w2 &= qb;
      } else {
        w0 = __byte_perm (w0, w1, qa);
        w1 = __byte_perm (w0, w1, qa >> 16);
        w2 = __byte_perm (w1, w2, qb);
      }
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
   * on without), so the words of the next FUSED_AHEAD rows are always
   * loaded ahead: their loads are in flight while the current row is
   * filtered (the rows past the strip's last are read for nothing, in
   * the frame or through its border rule). */
  int next_row = (BLUR ? ys - 3 : ys - 1) + FUSED_AHEAD - 1;
  uint32_t pf[FUSED_AHEAD][3];
#pragma unroll
  for (int d = 0; d < FUSED_AHEAD; d++)
    load_row (next_row - (FUSED_AHEAD - 1) + d, pf[d][0], pf[d][1],
        pf[d][2]);
  auto fetch_row = [&](uint32_t & w0, uint32_t & w1, uint32_t & w2) {
    w0 = pf[0][0];
    w1 = pf[0][1];
    w2 = pf[0][2];
#pragma unroll
    for (int d = 0; d + 1 < FUSED_AHEAD; d++) {
      pf[d][0] = pf[d + 1][0];
      pf[d][1] = pf[d + 1][1];
      pf[d][2] = pf[d + 1][2];
    }
    load_row (++next_row, pf[FUSED_AHEAD - 1][0], pf[FUSED_AHEAD - 1][1],
        pf[FUSED_AHEAD - 1][2]);
  };

  uint32_t hw[5][3];            /* horizontal sums, rows r-2 ... r+2 */
  typedef ce_rows < NORM, OUTPUT, BLUR ? CE_BLUR_SCALE : 1, L2I > rows;
  typedef typename rows::val val;
  typedef typename rows::row row;

  /* B of the next row (rows come in order from fetch_row) for columns
   * X-1 ... X+4, before the y border fix. */
  auto next_brow = [&](row & r) {
    uint32_t w0, w1, w2;
    val f[6];
    if (BLUR) {
#pragma unroll
      for (int i = 0; i < 4; i++) {
        hw[i][0] = hw[i + 1][0];
        hw[i][1] = hw[i + 1][1];
        hw[i][2] = hw[i + 1][2];
      }
      fetch_row (w0, w1, w2);     /* row r + 2 */
      ce_hpass_packed (w0, w1, w2, hw[4]);
      uint32_t v[3];
#pragma unroll
      for (int p = 0; p < 3; p++)
        v[p] = ce_vpass (hw[0][p], hw[1][p], hw[2][p], hw[3][p], hw[4][p]);
      rows::vals_pairs (v, f);
    } else {
      fetch_row (w0, w1, w2);     /* row r */
      rows::vals_bytes (w0, w1, w2, f);
    }
    if (!inner) {
      val src[6];
#pragma unroll
      for (int m = 0; m < 6; m++)
        src[m] = f[m];
#pragma unroll
      for (int m = 0; m < 6; m++) {
        unsigned code = (fix >> (4 * m)) & 15u;
        val v = src[0];
#pragma unroll
        for (int q = 1; q < 6; q++)
          if (code == (unsigned) q)
            v = src[q];
        if (code == 7u)
          f[m] = rows::zero_val ();    /* B = 0 */
        else if (code < 6u)
          f[m] = v;
      }
    }
    rows::make (f, r);
  };

  if (BLUR) {
#pragma unroll
    for (int i = 1; i < 5; i++)
      fetch_row (hw[i][0], hw[i][1], hw[i][2]);
#pragma unroll
    for (int i = 1; i < 5; i++)
      ce_hpass_packed (hw[i][0], hw[i][1], hw[i][2], hw[i]);
  }

  row bp, bc, bn;
  next_brow (bp);               /* B row ys - 1 */
  next_brow (bc);               /* B row ys */

  const bool refl = border == CE_BORDER_REFLECT && H > 1;
  const bool store32 = aligned_out && X + 4 <= W;
  uint8_t *drow = dst + (size_t) ys * dst_pitch + X;

  for (int y = ys; y < ye; y++, drow += dst_pitch) {
    next_brow (bn);             /* B row y + 1 */
    if (y == 0) {               /* B row -1 -> row 0, row 1 or zeros */
      if (zero)
        rows::zero (bp);
      else
        bp = refl ? bn : bc;
    }
    if (y + 1 == H) {           /* B row H -> row H-1, row H-2 or zeros */
      if (zero)
        rows::zero (bn);
      else
        bn = refl ? bp : bc;
    }

    const uint32_t out = rows::out (bp, bc, bn, k);
    if (store32) {
      *reinterpret_cast < uint32_t * >(drow) = out;
    } else {
#pragma unroll
      for (int m = 0; m < FUSED_PX; m++)
        if (X + m < W)
          drow[m] = (uint8_t) (out >> (8 * m));
    }
    bp = bc;
    bc = bn;
  }
}

/* ------------------------------------------------------------------------
 * The interior on tensor cores (blur on).  Where no read needs the border
 * rule, the blur and the Sobel are one linear filter of Y, and a separable
 * one: gx = v_s (rows) of h_d (columns) of Y and gy = v_d (rows) of h_s
 * (columns) of Y, with
 *   h_d = v_d = [1 4 6 4 1] * [-1 0 1] = [-1 -4 -5 0 5 4 1],
 *   h_s = v_s = [1 4 6 4 1] * [1 2 1] = [1 6 15 20 15 6 1],
 * every coefficient a signed byte.  Each pass is a product of an integer
 * matrix of coefficients (banded) with one of data, which mma.sync makes
 * on 8-bit operands with exact 32-bit sums:
 *
 *   pass 1, per 8 Y rows: Hd and Hs of 16 columns (M: columns, K: 32 Y
 *   columns, N: 8 rows; the Y bytes are the B operand, 8 contiguous
 *   bytes of one row per thread);
 *   pass 2, per 16 output rows: gx and gy (M: rows, K: 24 H rows, N: 8
 *   columns).  Hd (|Hd| <= 2550) and Hs (<= 16320) are not bytes, so each
 *   goes in as two, its low byte (unsigned) and the byte above (signed:
 *   Hd >> 8 and Hs >> 8 are within -10 ... 63), and the two products are
 *   joined as 256 hi + lo.
 *
 * The order of a product's K terms is free, so each pass takes its K
 * slots in the order the data already lies in the threads: pass 1's from
 * each thread's 8 contiguous bytes (ce_mma_col), pass 2's from the rows
 * pass 1 left in each thread's accumulators (ce_mma_row), which then go
 * into pass 2 without a shuffle.  The coefficient matrices' fragments,
 * in the same orders, are a table the compiler makes (ce_mma_tab).
 *
 * A warp takes a column of tiles of 16 rows and 32 columns (two 16 x 16
 * products side by side), rows [ys, ye): a tile's pass 2 reads H rows
 * y - 3 ... y + 20 (3 groups of 8: T0, T1, T2), and the next tile's T0
 * is this one's T2, so pass 1 makes each H row once.  gx and gy are then
 * exact integers below 2^20 in magnitude.  The l2 edges compare
 * gx^2 + gy^2 with the limit in 64-bit integers; the other outputs take
 * them as floats (2^23 + 2^22 is added in the accumulator, so the float
 * is its bits less that) through ce_edge_out's forms, as on the other
 * paths.
 *
 * Measured on an H200 no faster than the CUDA-core interior (a tie on
 * the l2 edges at 8K once, slower from 1080p up in later runs), so launches
 * take it only when allowed (ce_fused_set_tensor_cores; PERFORMANCE.md,
 * "Tensor cores for the interior").  Warp columns start at multiples
 * of 32 (the first one's columns 0 ... 3 are a side lane's), so that
 * their rows are whole sectors; reads before the frame's first column or
 * past its last row or word are clamped to them: only outputs the tile
 * does not store use those rows and columns.
 */
#define FUSED_MMA_W 32                  /* columns per warp */
/* Bytes per row of a warp's stage: 12 words, so that the 8 rows one
 * store to it touches fall in different banks. */
#define FUSED_MMA_STAGE_PITCH 48
#define FUSED_MMA_ROWS 16               /* rows per tile */
/* Tiles per warp, the strips' height in tiles, and tiles whose rows a
 * warp loads ahead of the one it filters. */
#ifndef FUSED_MMA_TILES
#define FUSED_MMA_TILES 8
#endif
#ifndef FUSED_MMA_AHEAD
#define FUSED_MMA_AHEAD 1
#endif
/* Resident blocks per multiprocessor the registers are budgeted for
 * (4: at most 128 registers; with 5, 96, all but the l2 edges spill). */
#ifndef FUSED_MMA_MIN_BLOCKS
#define FUSED_MMA_MIN_BLOCKS 4
#endif
#define CE_MMA_MAGIC 0x4b400000u        /* the bits of 2^23 + 2^22 */
#define CE_MMA_MAGIC_F 12582912.0f

/* Tap i of h_d (which 0) or h_s (which 1); 0 outside 0 ... 6.  (The
 * taps as bytes of a constant: no array in local memory.) */
static __host__ __device__ constexpr int
ce_tap7 (int which, int i)
{
  const unsigned long long d = 0x01040500fbfcffULL;
  const unsigned long long s = 0x01060f140f0601ULL;
  return (i < 0 || i > 6) ? 0 : (int) (int8_t) ((which ? s : d) >> (8 * i));
}

/* Pass 1's K slot k: the Y column (from X - 4) it holds.  Thread t (t =
 * lane % 4) holds slots 4t ... 4t + 3 and 16 + 4t ... 16 + 4t + 3, which
 * are its 8 contiguous bytes from column X - 4 + 8t. */
static __host__ __device__ constexpr int
ce_mma_col (int k)
{
  return 8 * ((k & 15) >> 2) + 4 * (k >> 4) + (k & 3);
}

/* Pass 2's K slot k: the H row (from y - 3) it holds, or -1 (unused).
 * Pass 1 leaves thread t the rows 2t and 2t + 1 of each group of 8; slot
 * 4t + j holds row 8 (j / 2) + 2t + j % 2 (T0, T1), slot 16 + 4t + j row
 * 16 + 2t + j (T2) for j < 2. */
static __host__ __device__ constexpr int
ce_mma_row (int k)
{
  const int t = (k & 15) >> 2, j = k & 3;
  if (k < 16)
    return 8 * (j >> 1) + 2 * t + (j & 1);
  return j < 2 ? 16 + 2 * t + j : -1;
}

/* Register r of the A fragment (m16n8k32, 8-bit) of lane `lane` of the
 * coefficient matrix of pass `pass` (1: A[m][k] = h[col(k) - m - 1], 2:
 * A[m][k] = v[row(k) - m]) for taps `which`. */
static __host__ __device__ constexpr uint32_t
ce_mma_coef (int pass, int which, int lane, int r)
{
  const int g = lane >> 2, t = lane & 3;
  const int m = g + 8 * (r & 1), kb = 4 * t + 16 * (r >> 1);
  uint32_t v = 0;
  for (int j = 0; j < 4; j++) {
    const int row = ce_mma_row (kb + j);
    const int c = pass == 1 ? ce_tap7 (which, ce_mma_col (kb + j) - m - 1)
        : row < 0 ? 0 : ce_tap7 (which, row - m);
    v |= (uint32_t) (uint8_t) (int8_t) c << (8 * j);
  }
  return v;
}

/* The four coefficient matrices' fragments (pass 1 h_d, h_s; pass 2 v_d,
 * v_s) by register and lane, made by the compiler: a warp loads its
 * own, coalesced, instead of making them. */
struct ce_mma_frags
{
  uint32_t a[4][4][32];
};

static constexpr ce_mma_frags
ce_mma_frags_make ()
{
  ce_mma_frags f = { };
  for (int i = 0; i < 4; i++)
    for (int r = 0; r < 4; r++)
      for (int lane = 0; lane < 32; lane++)
        f.a[i][r][lane] = ce_mma_coef (1 + i / 2, i % 2, lane, r);
  return f;
}

static __device__ const ce_mma_frags ce_mma_tab = ce_mma_frags_make ();

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CE_MMA_BUILT 1
#endif

/* d += A B, A signed bytes, B unsigned (BS false) or signed bytes. */
template < bool BS >
static __device__ __forceinline__ void
ce_mma (const uint32_t a[4], uint32_t b0, uint32_t b1, int d[4])
{
#ifdef CE_MMA_BUILT
  if (BS)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
  else
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
#else
  __trap ();                    /* never launched (ce_fused_mma_usable) */
#endif
}

/* Pass 1 on one group of 8 Y rows (w0, w1: the thread's 8 bytes): for
 * each of Hd and Hs and each of the two 8-column halves, the thread's
 * two rows as [lo lo hi hi] bytes (x[taps][half]). */
static __device__ __forceinline__ void
ce_mma_pass1 (const uint32_t ad[4], const uint32_t as[4], uint32_t w0,
    uint32_t w1, uint32_t x[2][2])
{
  int d[4] = { 0, 0, 0, 0 }, s[4] = { 0, 0, 0, 0 };
  ce_mma < false > (ad, w0, w1, d);
  ce_mma < false > (as, w0, w1, s);
  x[0][0] = __byte_perm (d[0], d[1], 0x5140u);
  x[0][1] = __byte_perm (d[2], d[3], 0x5140u);
  x[1][0] = __byte_perm (s[0], s[1], 0x5140u);
  x[1][1] = __byte_perm (s[2], s[3], 0x5140u);
}

/* Pass 2 of one taps' H (groups T0, T1, T2 as pass 1 left them) into
 * base + g for the thread's 4 outputs of a half. */
static __device__ __forceinline__ void
ce_mma_pass2 (const uint32_t a[4], uint32_t x0, uint32_t x1, uint32_t x2,
    int base, int o[4])
{
  int lo[4] = { base, base, base, base };
  int hi[4] = { 0, 0, 0, 0 };
  ce_mma < false > (a, __byte_perm (x0, x1, 0x5410u), x2 & 0xffffu, lo);
  ce_mma < true > (a, __byte_perm (x0, x1, 0x7632u), x2 >> 16, hi);
#pragma unroll
  for (int i = 0; i < 4; i++)
    o[i] = (hi[i] << 8) + lo[i];
}

/* The column of tiles of a warp: output columns [max (X, 4), min (X + 32,
 * xe)) (X a multiple of 32, xe of 4), rows [ys, ye); luma and dst at the
 * frame's first row and column.  Two 16-column tiles side by side (c =
 * 0, 1), so that a warp's rows are whole 32-byte sectors: the outputs go
 * through the warp's own 16 x 32 bytes of shared memory (stage) from the
 * accumulators' layout to 16 bytes per lane, one row half each, stored
 * whole where dst allows (vec16). */
template < int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_mma (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, int X, int xe, int ys, int ye, const ce_fconsts & k,
    uint8_t * __restrict__ dst, size_t dst_pitch, bool vec16,
    uint8_t * stage)
{
  /* The l2 edges compare in integers (gx and gy as the accumulators
   * give them), the others through ce_edge_out's floats. */
  constexpr bool INT_EDGES = NORM == CE_NORM_L2
      && OUTPUT == CE_OUTPUT_EDGES;
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  uint32_t a1d[4], a1s[4], a2d[4], a2s[4];
#pragma unroll
  for (int r = 0; r < 4; r++) {
    a1d[r] = __ldg (&ce_mma_tab.a[0][r][lane]);
    a1s[r] = __ldg (&ce_mma_tab.a[1][r][lane]);
    a2d[r] = __ldg (&ce_mma_tab.a[2][r][lane]);
    a2s[r] = __ldg (&ce_mma_tab.a[3][r][lane]);
  }

  /* The thread's 8 bytes of a Y row for tile c: columns X + 16 c - 4 + 8t
   * on, its words clamped to the row's first and last. */
  const int lastw = (W - 1) & ~3;
  int cw[2][2];
#pragma unroll
  for (int c = 0; c < 2; c++) {
    cw[c][0] = min (max (X + 16 * c - 4 + 8 * t, 0), lastw);
    cw[c][1] = min (X + 16 * c + 8 * t, lastw);
  }
  auto load = [&](int row, uint32_t w[4]) {
    const uint8_t *p = luma + (size_t) min (row + g, H - 1) * luma_pitch;
#pragma unroll
    for (int c = 0; c < 2; c++) {
      w[2 * c] = __ldg (reinterpret_cast < const uint32_t * >(p + cw[c][0]));
      w[2 * c + 1] =
          __ldg (reinterpret_cast < const uint32_t * >(p + cw[c][1]));
    }
  };

  /* Y rows of the tiles ahead: nx[j] holds rows y + 5 and y + 13 of the
   * j-th tile from the one in hand. */
  constexpr int D = FUSED_MMA_AHEAD;
  uint32_t x0[2][2][2], nx[D][2][4];      /* x0[c][taps][half] */
  {
    uint32_t w[4];
    load (ys - 3, w);
#pragma unroll
    for (int c = 0; c < 2; c++)
      ce_mma_pass1 (a1d, a1s, w[2 * c], w[2 * c + 1], x0[c]);
  }
#pragma unroll
  for (int j = 0; j < D; j++)
    if (ys + FUSED_MMA_ROWS * j < ye) {
      load (ys + FUSED_MMA_ROWS * j + 5, nx[j][0]);
      load (ys + FUSED_MMA_ROWS * j + 13, nx[j][1]);
    }

  /* The lane's 16 output bytes: row y + lane / 2, columns cx ... cx + 15. */
  const int cx = X + 16 * (lane & 1);
  const bool whole = vec16 && cx >= 4 && cx + 16 <= xe;
  const uint4 *st_in = reinterpret_cast < const uint4 * >(stage +
      (lane >> 1) * FUSED_MMA_STAGE_PITCH + 16 * (lane & 1));

  int y = ys;
  auto tile = [&](auto J) {
    constexpr int j = decltype (J)::value;
    if (y >= ye)
      return false;
    uint32_t x1[2][2][2], x2[2][2][2];
#pragma unroll
    for (int c = 0; c < 2; c++) {
      ce_mma_pass1 (a1d, a1s, nx[j][0][2 * c], nx[j][0][2 * c + 1], x1[c]);
      ce_mma_pass1 (a1d, a1s, nx[j][1][2 * c], nx[j][1][2 * c + 1], x2[c]);
    }
    if (y + FUSED_MMA_ROWS * D < ye) {
      load (y + FUSED_MMA_ROWS * D + 5, nx[j][0]);
      load (y + FUSED_MMA_ROWS * D + 13, nx[j][1]);
    }
    uint32_t out[4];            /* [2 c + half] */
    if constexpr (INT_EDGES) {
      /* gx^2 + gy^2 > limit in 64-bit integers: exact, nothing to settle */
#pragma unroll
      for (int q = 0; q < 4; q++) {
        const int c = q >> 1, h = q & 1;
        int gx[4], gy[4];
        ce_mma_pass2 (a2s, x0[c][0][h], x1[c][0][h], x2[c][0][h], 0, gx);
        ce_mma_pass2 (a2d, x0[c][1][h], x1[c][1][h], x2[c][1][h], 0, gy);
        uint32_t o = 0;
#pragma unroll
        for (int i = 0; i < 4; i++)
          o |= ((long long) gx[i] * gx[i] + (long long) gy[i] * gy[i]
              > k.limit ? 0xffu : 0u) << (8 * i);
        out[q] = o;
      }
    } else {
      ce_grad gr[4];
#pragma unroll
      for (int q = 0; q < 4; q++) {
        const int c = q >> 1, h = q & 1;
        int gx[4], gy[4];
        ce_mma_pass2 (a2s, x0[c][0][h], x1[c][0][h], x2[c][0][h],
            (int) CE_MMA_MAGIC, gx);
        ce_mma_pass2 (a2d, x0[c][1][h], x1[c][1][h], x2[c][1][h],
            (int) CE_MMA_MAGIC, gy);
#pragma unroll
        for (int i = 0; i < 4; i++) {
          gr[q].x[i] = __int_as_float (gx[i]) - CE_MMA_MAGIC_F;
          gr[q].y[i] = __int_as_float (gy[i]) - CE_MMA_MAGIC_F;
        }
      }
      bool open[4];
#pragma unroll
      for (int q = 0; q < 4; q++)
        out[q] = ce_edge_out_open < NORM, OUTPUT, CE_BLUR_SCALE > (gr[q], k,
            open[q]);
      if (__builtin_expect (open[0] || open[1] || open[2] || open[3], 0)) {
#pragma unroll
        for (int q = 0; q < 4; q++)
          if (open[q])
            out[q] = ce_l2_settle < OUTPUT, CE_BLUR_SCALE > (gr[q],
                k.limit);
      }
    }
    /* out[q] bytes: (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1) of
     * columns 16 c + 8 h on */
    __syncwarp ();
#pragma unroll
    for (int q = 0; q < 4; q++) {
      uint8_t *s = stage + g * FUSED_MMA_STAGE_PITCH + 8 * q + 2 * t;
      *reinterpret_cast < uint16_t * >(s) = (uint16_t) out[q];
      *reinterpret_cast < uint16_t * >(s + 8 * FUSED_MMA_STAGE_PITCH) =
          (uint16_t) (out[q] >> 16);
    }
    __syncwarp ();
    const uint4 v = *st_in;
    const int row = y + (lane >> 1);
    if (row < ye) {
      uint8_t *q = dst + (size_t) row * dst_pitch + cx;
      if (whole) {
        *reinterpret_cast < uint4 * >(q) = v;
      } else {
        const uint32_t vw[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int i = 0; i < 4; i++)
          if (cx + 4 * i >= 4 && cx + 4 * i < xe)
            reinterpret_cast < uint32_t * >(q)[i] = vw[i];
      }
    }
#pragma unroll
    for (int c = 0; c < 2; c++)
#pragma unroll
      for (int a = 0; a < 2; a++)
#pragma unroll
        for (int h = 0; h < 2; h++)
          x0[c][a][h] = x2[c][a][h];
    y += FUSED_MMA_ROWS;
    return true;
  };
  while (ce_unroll < 0, D >::run (tile)) {
  }
}

/* Which strip each warp of a launch takes.  The launch covers output rows
 * [row0, row1); warp column c covers columns c FUSED_TW ... + FUSED_TW - 1,
 * lane l of it the 4 columns from X = c FUSED_TW + 4 l.  Interior strips,
 * th rows tall, take rows [ia, ib) of every warp column, in the lanes
 * whose 12 bytes lie inside the frame (4 <= X <= W - 8: all but the
 * first lane of the first column and the last one or two lanes of the
 * frame); their reads need no border rule.  With 8-column interior lanes
 * the interior's warp columns are FUSED_ITW wide from column 4 (icols),
 * and xr0 is moved down to 4 plus a multiple of 8, so one more side lane
 * may take the 4 columns left over.  General strips, gth rows tall
 * (FUSED_TH or FUSED_TH_WAVES), take the rest: the band above ia and
 * the band below ib (whole warp columns), and rows [ia, ib) of the side
 * lanes (X = 0 and X = xr0, xr0 + 4 ... below W), one strip per lane, so
 * that a few warps do what used to take the whole first and last warp
 * columns.  Warps 0 ... n_general - 1 take the general strips (they
 * cost more per row, so they start first; along a row of strips the
 * column changes fastest), the blocks from warp interior0 on the
 * interior ones. */
struct fused_layout
{
  int cols;                     /* warp columns */
  int icols;                    /* warp columns of interior strips:
                                 * FUSED_ITW columns from column 4
                                 * (FUSED_IPX 8) or FUSED_TW from 0 */
  int inner;                    /* whether there are interior strips */
  int row0, row1, ia, ib, th;
  int gth;                      /* rows of a general strip: FUSED_TH, or
                                 * FUSED_TH_WAVES */
  int n_top, n_bottom;          /* general strips per warp column */
  int xr0, side_pos;            /* the first right side lane's X; side
                                 * lanes per row (left and right) */
  int n_side;                   /* general strips per side lane */
  int n_general;                /* warps of general strips */
  int interior0;                /* the first interior warp: n_general
                                 * rounded up to whole blocks */
  int interior_blocks;          /* blocks of interior strips */
  int mma;                      /* interior strips on tensor cores
                                 * (edge_fused_mma): columns 4 ... xr0 - 1
                                 * in mcols warp columns of FUSED_MMA_W
                                 * from column 0 (the first one cut),
                                 * rows in mstrips strips of mth */
  int mcols, mth, mstrips;
};

/* The X of side lane p (0: the first lane of the frame; then the lanes
 * from xr0 on, whose reads pass the right edge). */
static __host__ __device__ __forceinline__ int
fused_side_x (int p, int xr0)
{
  return p == 0 ? 0 : xr0 + FUSED_PX * (p - 1);
}

/* Whether lane X's 12 bytes (X - 4 ... X + 7) lie inside the frame. */
static __host__ __device__ __forceinline__ bool
fused_lane_inner (int X, int W)
{
  return X >= 4 && X + 8 <= W;
}

/* What one lane of a fused kernel takes: columns X ... X+3 of output
 * rows [ys, ye), as an interior strip or a general one. */
struct fused_task
{
  int X, ys, ye;
  int px;                       /* columns X ... X + px - 1 (4, or
                                 * FUSED_IPX in an interior strip) */
  bool interior;
  bool mma;                     /* a warp's tiles (edge_fused_mma), columns
                                 * X ... X + FUSED_MMA_W - 1 from 4 and
                                 * below xe */
  int xe;
};

/* The task of lane `lane` of warp w of edge_fused_kernel under layout L;
 * false when it has none.  The host calls it too, to check that a
 * layout's tasks cover every output pixel once (ce_fused_layout_errors). */
static __host__ __device__ __forceinline__ bool
fused_task_of (const fused_layout & L, int W, int w, int lane, fused_task & t)
{
  t.mma = false;
  t.xe = W;
  t.px = FUSED_PX;
  if (w >= L.interior0 && L.mma) {
    /* A block's warps take neighbouring columns of one strip: half of
     * the bytes a warp reads, its neighbour reads too. */
    w -= L.interior0;
    if (w >= L.mcols * L.mstrips)
      return false;
    t.X = (w % L.mcols) * FUSED_MMA_W;
    t.ys = L.ia + (w / L.mcols) * L.mth;
    t.ye = min (t.ys + L.mth, L.ib);
    t.xe = L.xr0;
    t.interior = t.mma = true;
    return true;
  }
  if (w >= L.interior0) {
    /* A block's warps take consecutive strips of one column, so that
     * the rows read around their strips are shared in its cache. */
    w -= L.interior0;
    const int blk = w / FUSED_WARPS;
    t.ys = L.ia + ((blk / L.icols) * FUSED_WARPS + w % FUSED_WARPS) * L.th;
    if (blk >= L.interior_blocks || t.ys >= L.ib)
      return false;
    t.ye = min (t.ys + L.th, L.ib);
    t.interior = true;
    if (FUSED_IPX == 8) {
      /* columns 4 ... xr0 - 1, which fused_layout_make made a whole
       * number of lanes */
      t.X = 4 + (blk % L.icols) * FUSED_ITW + lane * FUSED_IPX;
      t.px = FUSED_IPX;
      return t.X < L.xr0;
    }
    t.X = (blk % L.icols) * FUSED_TW + lane * FUSED_PX;
    return fused_lane_inner (t.X, W);   /* else a side lane */
  }
  if (w >= L.n_general)
    return false;
  t.interior = false;
  if (w < L.cols * L.n_top) {
    t.ys = L.row0 + (w / L.cols) * L.gth;
    t.ye = min (t.ys + L.gth, L.ia);
    t.X = (w % L.cols) * FUSED_TW + lane * FUSED_PX;
  } else if ((w -= L.cols * L.n_top) < L.cols * L.n_bottom) {
    t.ys = L.ib + (w / L.cols) * L.gth;
    t.ye = min (t.ys + L.gth, L.row1);
    t.X = (w % L.cols) * FUSED_TW + lane * FUSED_PX;
  } else {
    /* Side lanes: one strip per lane, a side lane's strips in a row. */
    const int i = (w - L.cols * L.n_bottom) * FUSED_SIDE_LANES + lane;
    if (lane >= FUSED_SIDE_LANES || i >= L.n_side * L.side_pos)
      return false;
    const int p = i / L.n_side;
    t.ys = L.ia + (i - p * L.n_side) * L.gth;
    t.ye = min (t.ys + L.gth, L.ib);
    t.X = fused_side_x (p, L.xr0);
  }
  return t.X < W;
}

/* The blocks of an edge_fused_kernel launch under layout L. */
static unsigned
fused_blocks (const fused_layout & L)
{
  return L.interior0 / FUSED_WARPS + L.interior_blocks;
}

/* A byte range that the blocks of a fused launch from block `first` on
 * set to one value (the chroma of a GRAY picture held as NV12), so that
 * one launch does what a kernel and a memset did: on a frame in CUDA
 * memory the host's work per launch is what bounds the rate
 * (PERFORMANCE.md).  Those blocks come last in the grid and run in its
 * last wave.  n == 0: none (first is then past the grid). */
struct ce_kfill
{
  uint8_t *p;
  size_t n;
  uint32_t v4;                  /* the value in each byte */
  unsigned first;               /* the first fill block */
};

/* Block b of nb blocks of 32 x FUSED_WARPS threads sets its share of the
 * n bytes at p to the byte of v4: aligned 16-byte stores, and the
 * unaligned bytes at either end from the first threads.  Not inlined, and
 * given scalars, so that the filter's registers are not its concern. */
static __device__ __noinline__ void
ce_fill_blocks (uint8_t * p, size_t n, uint32_t v4, unsigned b, unsigned nb)
{
  const unsigned nt = 32 * FUSED_WARPS;
  const size_t gt = (size_t) b * nt + threadIdx.y * 32 + threadIdx.x;
  const size_t head = min ((size_t) ((16 - ((uintptr_t) p & 15)) & 15), n);
  const size_t nvec = (n - head) / 16;
  const size_t tail = head + nvec * 16;
  const uint4 v = make_uint4 (v4, v4, v4, v4);
  uint4 *const q = (uint4 *) (p + head);

  for (size_t i = gt; i < nvec; i += (size_t) nb * nt)
    q[i] = v;
  if (gt < head)
    p[gt] = (uint8_t) v4;
  if (gt < n - tail)
    p[tail + gt] = (uint8_t) v4;
}

/* A launch's end, told to the host through memory (ce_launch_signal);
 * count NULL: not told. */
struct ce_kend
{
  unsigned *count;
  unsigned *flag;
  unsigned value;
};

/* Every thread of every block, after its work: the block's writes are
 * made visible device-wide and the block counted; the block counted
 * last, so after all the others' writes, puts the count back to zero
 * and writes the value to the host's flag.  (The barrier, fence and
 * atomic of a grid-wide barrier's arrival.) */
static __device__ __forceinline__ void
ce_end_signal (const ce_kend & e)
{
  if (!e.count)
    return;
  __syncthreads ();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    __threadfence ();
    if (atomicAdd (e.count, 1u) == gridDim.x * gridDim.y - 1) {
      __threadfence ();
      atomicExch (e.count, 0u);
      __threadfence_system ();
      *(volatile unsigned *) e.flag = e.value;
    }
  }
}

template < bool BLUR, int NORM, int OUTPUT, bool MMA = false,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
static __device__ __forceinline__ void
edge_fused_block (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, const fused_layout & L, const ce_fconsts & k,
    ce_border_mode border, int aligned_in, int aligned_out,
    uint8_t * __restrict__ dst, size_t dst_pitch, const ce_kfill & fill)
{
  constexpr int R = BLUR ? 2 : 0;
  fused_task t;
  if (blockIdx.x >= fill.first) {
    ce_fill_blocks (fill.p, fill.n, fill.v4, blockIdx.x - fill.first,
        gridDim.x - fill.first);
    return;
  }
  if (!fused_task_of (L, W, blockIdx.x * FUSED_WARPS + threadIdx.y,
          threadIdx.x, t))
    return;                     /* warp-uniform for tensor-core tasks;
                                 * otherwise no lane talks to another */
  if constexpr (MMA) {
    if (t.mma) {
      __shared__ __align__ (16) uint8_t
          stage[FUSED_WARPS][16 * FUSED_MMA_STAGE_PITCH];
      const bool vec16 = ((uintptr_t) dst | dst_pitch) % 16 == 0;
      edge_fused_mma < NORM, OUTPUT > (luma, luma_pitch, W, H, t.X, t.xe,
          t.ys, t.ye, k, dst, dst_pitch, vec16, stage[threadIdx.y]);
      return;
    }
  }
  if (t.interior)
    edge_fused_interior < BLUR, NORM, OUTPUT, FUSED_IPX, L2I > (luma +
        (size_t) (t.ys - 1 - R) * luma_pitch + t.X - 4, luma_pitch,
        t.ye - t.ys, k, dst + (size_t) t.ys * dst_pitch + t.X, dst_pitch);
  else
    edge_fused_general < BLUR, NORM, OUTPUT, L2I > (luma, luma_pitch, W, H,
        t.X, t.ys, t.ye, k, border, aligned_in, aligned_out, dst, dst_pitch);
}

template < bool BLUR, int NORM, int OUTPUT,
    bool L2I = CE_SOBEL_INT_L2_EDGES >
static __global__ void __launch_bounds__ (32 * FUSED_WARPS, FUSED_MIN_BLOCKS)
edge_fused_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, fused_layout L, ce_fconsts k, ce_border_mode border,
    int aligned_in, int aligned_out, uint8_t * __restrict__ dst,
    size_t dst_pitch, ce_kfill fill, ce_kend end)
{
  edge_fused_block < BLUR, NORM, OUTPUT, false, L2I > (luma, luma_pitch, W,
      H, L, k, border, aligned_in, aligned_out, dst, dst_pitch, fill);
  ce_end_signal (end);
}

/* The same with the interior on tensor cores (blur on; fused_layout.mma). */
template < int NORM, int OUTPUT >
static __global__ void __launch_bounds__ (32 * FUSED_WARPS,
    FUSED_MMA_MIN_BLOCKS)
edge_fused_mma_kernel (const uint8_t * __restrict__ luma, size_t luma_pitch,
    int W, int H, fused_layout L, ce_fconsts k, ce_border_mode border,
    int aligned_in, int aligned_out, uint8_t * __restrict__ dst,
    size_t dst_pitch, ce_kfill fill, ce_kend end)
{
  edge_fused_block < true, NORM, OUTPUT, true > (luma, luma_pitch, W, H, L,
      k, border, aligned_in, aligned_out, dst, dst_pitch, fill);
  ce_end_signal (end);
}

/* The side lanes of a frame of width W (>= 12 when there are interior
 * lanes): X = 0, then the lanes from the first X > W - 8 (a multiple of
 * FUSED_PX) to the last below W. */
static __host__ __device__ __forceinline__ int
fused_xr0 (int W)
{
  return (W - 7 + FUSED_PX - 1) / FUSED_PX * FUSED_PX;
}

static __host__ __device__ __forceinline__ int
fused_side_lanes (int W)
{
  return 1 + (W - fused_xr0 (W) + FUSED_PX - 1) / FUSED_PX;
}

/* Small frames, whose interior strips would be the shortest anyway
 * (FUSED_TH_MIN rows, fused_layout_make): a 2-D grid whose blocks take
 * FUSED_WARPS strips of FUSED_SHORT_TH rows one above the other.
 * A strip whose rows need no border rule (warp-uniform) is interior in
 * its inner lanes (fused_lane_inner); its side lanes are taken, one
 * strip per lane, by the blocks of one more grid column, so that the
 * first and last warp columns do not take the general path whole.
 * Measured faster there than the layout of edge_fused_kernel
 * (PERFORMANCE.md, "The fused kernel"). */
#define FUSED_BLOCK_ROWS (FUSED_SHORT_TH * FUSED_WARPS)

/* Whether a short-kernel strip [ys, ye) reads and writes inside the frame
 * in its inner lanes. */
static __host__ __device__ __forceinline__ bool
fused_short_inner (int ys, int ye, int W, int H, int R, bool aligned)
{
  return aligned && W >= 12 && ys - 1 - R >= 0 && ys + FUSED_SHORT_TH + R < H
      && ye == ys + FUSED_SHORT_TH;
}

/* The task of lane `lane` of warp `warp` of block (bx, by) of
 * edge_fused_short_kernel for output rows [row0, row1); false when it has
 * none.  R is the blur's radius; aligned, whether input and output are.
 * The host calls it too (ce_fused_layout_errors). */
static __host__ __device__ __forceinline__ bool
fused_short_task_of (int W, int H, int R, int row0, int row1, bool aligned,
    int bx, int by, int warp, int lane, fused_task & t)
{
  t.mma = false;
  t.xe = W;
  t.px = FUSED_PX;
  if (bx * FUSED_TW >= W) {
    /* The side column: lane i takes side lane i / strips of strip i %
     * strips, when that strip is interior elsewhere. */
    const int strips = (row1 - row0 + FUSED_SHORT_TH - 1) / FUSED_SHORT_TH;
    const int i = (by * FUSED_WARPS + warp) * FUSED_SIDE_LANES + lane;
    if (!aligned || W < 12 || lane >= FUSED_SIDE_LANES
        || i >= strips * fused_side_lanes (W))
      return false;
    const int p = i / strips;
    t.ys = row0 + (i - p * strips) * FUSED_SHORT_TH;
    t.ye = min (t.ys + FUSED_SHORT_TH, row1);
    t.X = fused_side_x (p, fused_xr0 (W));
    t.interior = false;
    return t.X < W && fused_short_inner (t.ys, t.ye, W, H, R, aligned);
  }
  t.X = bx * FUSED_TW + lane * FUSED_PX;
  t.ys = row0 + by * FUSED_BLOCK_ROWS + warp * FUSED_SHORT_TH;
  if (t.X >= W || t.ys >= row1)
    return false;
  t.ye = min (t.ys + FUSED_SHORT_TH, row1);
  t.interior = fused_short_inner (t.ys, t.ye, W, H, R, aligned);
  /* an interior strip's side lanes are the side column's */
  return !t.interior || fused_lane_inner (t.X, W);
}

/* The grid of an edge_fused_short_kernel launch: one more column of
 * blocks for the side lanes. */
static dim3
fused_short_grid (int W, int row0, int row1, bool aligned)
{
  return dim3 (ce_ceil_div (W, FUSED_TW) + (aligned && W >= 12),
      ce_ceil_div (row1 - row0, FUSED_BLOCK_ROWS));
}

template < bool BLUR, int NORM, int OUTPUT >
static __device__ __forceinline__ void
edge_fused_short_block (const uint8_t * __restrict__ luma,
    size_t luma_pitch, int W, int H, int row0, int row1,
    const ce_fconsts & k, ce_border_mode border, int aligned_in,
    int aligned_out, uint8_t * __restrict__ dst, size_t dst_pitch,
    const ce_kfill & fill)
{
  constexpr int R = BLUR ? 2 : 0;
  fused_task t;
  /* Here `first` counts rows of blocks. */
  if (blockIdx.y >= fill.first) {
    ce_fill_blocks (fill.p, fill.n, fill.v4,
        (blockIdx.y - fill.first) * gridDim.x + blockIdx.x,
        (gridDim.y - fill.first) * gridDim.x);
    return;
  }
  if (!fused_short_task_of (W, H, R, row0, row1, aligned_in && aligned_out,
          blockIdx.x, blockIdx.y, threadIdx.y, threadIdx.x, t))
    return;                     /* no lane talks to another: safe */
  if (t.interior)
    edge_fused_interior_short < BLUR, NORM, OUTPUT > (luma +
        (size_t) (t.ys - 1 - R) * luma_pitch + t.X - 4, luma_pitch, k,
        dst + (size_t) t.ys * dst_pitch + t.X, dst_pitch);
  else
    edge_fused_general < BLUR, NORM, OUTPUT > (luma, luma_pitch, W, H, t.X,
        t.ys, t.ye, k, border, aligned_in, aligned_out, dst, dst_pitch);
}

template < bool BLUR, int NORM, int OUTPUT >
static __global__ void __launch_bounds__ (32 * FUSED_WARPS,
    FUSED_SHORT_MIN_BLOCKS)
edge_fused_short_kernel (const uint8_t * __restrict__ luma,
    size_t luma_pitch, int W, int H, int row0, int row1, ce_fconsts k,
    ce_border_mode border, int aligned_in, int aligned_out,
    uint8_t * __restrict__ dst, size_t dst_pitch, ce_kfill fill, ce_kend end)
{
  edge_fused_short_block < BLUR, NORM, OUTPUT > (luma, luma_pitch, W, H,
      row0, row1, k, border, aligned_in, aligned_out, dst, dst_pitch, fill);
  ce_end_signal (end);
}

/* The strips of output rows [row0, row1), for a GPU that holds
 * resident_warps warps at once.  Interior strips are cut so that all the
 * strips make whole waves (every warp of a wave starts at once and they
 * end together: no partial last wave), about FUSED_TH_TARGET rows tall
 * and no shorter than FUSED_TH_MIN. */
static fused_layout
fused_layout_make (int W, int H, int row0, int row1, bool blur, bool aligned,
    int resident_warps, bool mma)
{
  const int R = blur ? 2 : 0;
  fused_layout L;
  L.cols = ce_ceil_div (W, FUSED_TW);
  L.row0 = row0;
  L.row1 = row1;
  /* Interior: reads from Y row ys - 1 - R to ye + R, and the loads
   * ahead up to row ye + R + FUSED_PREFETCH; the inner lanes' columns. */
  L.ia = max (row0, R + 1);
  L.ib = min (row1, H - 1 - R - FUSED_PREFETCH);
  L.inner = aligned && W >= 12 && L.ia < L.ib;
  if (!L.inner)
    L.ia = L.ib = row1;
  L.xr0 = L.inner ? fused_xr0 (W) : W;
  L.side_pos = L.inner ? fused_side_lanes (W) : 0;
  L.icols = L.cols;
  if (L.inner && FUSED_IPX == 8 && !(blur && mma)) {
    /* Interior lanes of 8 columns from column 4: the columns left over
     * (4 at most) go to one more side lane. */
    L.xr0 = 4 + (L.xr0 - 4) / FUSED_IPX * FUSED_IPX;
    L.side_pos = 1 + (W - L.xr0 + FUSED_PX - 1) / FUSED_PX;
    L.icols = ce_ceil_div (L.xr0 - 4, FUSED_ITW);
  }
  /* Whole waves of interior strips about FUSED_TH_TARGET rows tall: tall
   * enough that the rows read around a strip cost little, short enough
   * for enough strips to share the GPU evenly. */
  const int ncol = L.icols;
  const long long rows = L.ib - L.ia;
  const long long waves = max (1LL, (long long) ce_ceil_div (rows * ncol,
          (long long) resident_warps * FUSED_TH_TARGET));
  L.gth = L.inner && waves > 1 ? FUSED_TH_WAVES : FUSED_TH;
  L.n_top = ce_ceil_div (L.ia - row0, L.gth);
  L.n_bottom = ce_ceil_div (row1 - L.ib, L.gth);
  L.n_side = ce_ceil_div (L.ib - L.ia, L.gth);
  L.n_general = L.cols * (L.n_top + L.n_bottom)
      + (int) ce_ceil_div (L.n_side * L.side_pos, FUSED_SIDE_LANES);
  L.interior0 = (int) ce_ceil_div (L.n_general, FUSED_WARPS) * FUSED_WARPS;
  L.th = FUSED_TH_MIN;
  L.interior_blocks = 0;
  if (L.inner && L.icols > 0) {
    const long long budget = max (waves * resident_warps - L.n_general,
        waves * resident_warps / 2);
    const long long per_col = max (1LL, budget / ncol);
    L.th = max (FUSED_TH_MIN, (int) ce_ceil_div (rows, per_col));
    L.interior_blocks = ncol * (int) ce_ceil_div (ce_ceil_div (rows, L.th),
        FUSED_WARPS);
  }
  L.mma = 0;
  L.mcols = L.mstrips = 0;
  L.mth = FUSED_MMA_ROWS * FUSED_MMA_TILES;
  if (L.inner && blur && mma) {
    L.mma = 1;
    L.mcols = ce_ceil_div (L.xr0, FUSED_MMA_W);
    L.mstrips = ce_ceil_div (L.ib - L.ia, L.mth);
    L.interior_blocks = (int) ce_ceil_div ((long long) L.mcols * L.mstrips,
        (long long) FUSED_WARPS);
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

/* The fill that no launch's grid had room for (a grid too tall for its
 * rows of fill blocks), on its own. */
static ce_status
ce_fill_rest (const ce_kfill & fill, uint8_t value, cudaStream_t stream)
{
  cudaError_t err;

  if (fill.n == 0)
    return CE_STATUS_OK;
  err = cudaMemsetAsync (fill.p, value, fill.n, stream);
  if (err != cudaSuccess) {
    (void) cudaGetLastError ();
    ce_set_error ("edge_fused fill: cudaMemsetAsync of %zu bytes failed: %s",
        fill.n, cudaGetErrorString (err));
    return CE_STATUS_CUDA_ERROR;
  }
  return CE_STATUS_OK;
}

struct ce_launch_cache
{
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaGraphNode_t node;
  unsigned long launches;       /* through the graph (tests) */
  int direct;                   /* a graph call failed: launch directly */
};

extern "C" ce_status
ce_launch_cache_new (ce_launch_cache ** cache)
{
  CE_CHECK (ce_check_pointer (cache, "cache"));
  *cache = (ce_launch_cache *) calloc (1, sizeof (ce_launch_cache));
  if (!*cache) {
    ce_set_error ("out of memory");
    return CE_STATUS_OUT_OF_MEMORY;
  }
  return CE_STATUS_OK;
}

/* Drops the graph.  Launches of it still queued or running are not
 * affected: an executable graph destroyed in flight is freed when it
 * completes. */
static void
ce_launch_cache_clear (ce_launch_cache * c)
{
  if (c->exec)
    (void) cudaGraphExecDestroy (c->exec);
  if (c->graph)
    (void) cudaGraphDestroy (c->graph);
  c->exec = NULL;
  c->graph = NULL;
  c->node = NULL;
}

extern "C" void
ce_launch_cache_free (ce_launch_cache * cache)
{
  if (!cache)
    return;
  ce_launch_cache_clear (cache);
  free (cache);
}

extern "C" unsigned long
ce_launch_cache_graph_launches (const ce_launch_cache * cache)
{
  return cache ? cache->launches : 0;
}

/* A graph of the one kernel node @p. */
static cudaError_t
ce_launch_cache_build (ce_launch_cache * c, const cudaKernelNodeParams * p)
{
  cudaError_t err;

  ce_launch_cache_clear (c);
  err = cudaGraphCreate (&c->graph, 0);
  if (err == cudaSuccess)
    err = cudaGraphAddKernelNode (&c->node, c->graph, NULL, 0, p);
  if (err == cudaSuccess)
    err = cudaGraphInstantiate (&c->exec, c->graph, 0);
  if (err != cudaSuccess) {
    c->exec = NULL;
    ce_launch_cache_clear (c);
  }
  return err;
}

/* Launches @func as cudaLaunchKernel () would, through @c's graph when
 * there is one; launch errors are left for cudaGetLastError (). */
static void
ce_launch_via (ce_launch_cache * c, const void *func, dim3 grid, dim3 block,
    void **args, cudaStream_t stream)
{
  if (c && !c->direct) {
    cudaKernelNodeParams p = { };
    cudaError_t err = cudaSuccess;

    p.func = (void *) func;
    p.gridDim = grid;
    p.blockDim = block;
    p.kernelParams = args;
    if (c->exec
        && cudaGraphExecKernelNodeSetParams (c->exec, c->node, &p)
        != cudaSuccess) {
      (void) cudaGetLastError ();       /* the node refused: rebuild */
      ce_launch_cache_clear (c);
    }
    if (!c->exec)
      err = ce_launch_cache_build (c, &p);
    if (err == cudaSuccess)
      err = cudaGraphLaunch (c->exec, stream);
    if (err == cudaSuccess) {
      c->launches++;
      return;
    }
    /* Whatever failed is tried again as a direct launch, which reports
     * an error of its own. */
    (void) cudaGetLastError ();
    ce_launch_cache_clear (c);
    c->direct = 1;
  }
  (void) cudaLaunchKernel (func, grid, block, args, 0, stream);
}

/* Fill blocks for n bytes: about 8 16-byte stores a thread, at most
 * 1024 blocks (each thread then loops). */
static unsigned
fused_fill_blocks (size_t n)
{
  const size_t per_block = 32 * FUSED_WARPS * 16 * 8;
  return (unsigned) max ((size_t) 1, min ((size_t) 1024,
          (n + per_block - 1) / per_block));
}

/* Rows of fill blocks in a short-kernel grid @cols blocks wide. */
static unsigned
fused_short_fill_rows (size_t n, unsigned cols)
{
  return (fused_fill_blocks (n) + cols - 1) / cols;
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

/* The arguments are passed by address (cudaLaunchKernel), each with the
 * type of the kernel's parameter. */
/* Whether launches may take the interior to tensor cores: off, as
 * measured no faster than the CUDA-core interior on an H200 (it tied on
 * the l2 edges at 8K once, and is slower from 1080p up in later runs;
 * PERFORMANCE.md, "Tensor cores for the interior").  Tests and the
 * benchmark turn it on (ce_fused_set_tensor_cores). */
static int fused_mma_allowed = 0;

extern "C" int
ce_fused_set_tensor_cores (int on)
{
  return __atomic_exchange_n (&fused_mma_allowed, on ? 1 : 0,
      __ATOMIC_RELAXED);
}

/* Whether the current device runs edge_fused_mma_kernel: its code there
 * was built for compute capability 8.0 or later (mma.sync on bytes).
 * A build for older GPUs only, its PTX run on a newer one, keeps the
 * CUDA-core interior.  Cached per device. */
static bool
fused_mma_usable (void)
{
  static int cached[64];        /* 0: not asked, 1: yes, -1: no */
  int device = 0, v;
  cudaFuncAttributes a;

  if (!__atomic_load_n (&fused_mma_allowed, __ATOMIC_RELAXED))
    return false;
  if (cudaGetDevice (&device) != cudaSuccess || device < 0 || device >= 64) {
    (void) cudaGetLastError ();
    return false;
  }
  if ((v = __atomic_load_n (&cached[device], __ATOMIC_RELAXED)) != 0)
    return v > 0;
  if (cudaFuncGetAttributes (&a, (const void *) edge_fused_mma_kernel <
          CE_NORM_L2, CE_OUTPUT_EDGES >) != cudaSuccess) {
    (void) cudaGetLastError ();
    return false;
  }
  v = a.binaryVersion >= 80 ? 1 : -1;
  __atomic_store_n (&cached[device], v, __ATOMIC_RELAXED);
  return v > 0;
}

extern "C" int
ce_fused_tensor_cores_used (void)
{
  return fused_mma_usable ()? 1 : 0;
}

/* Which form the strip kernel's l2 edges take: -1 by the launch's size
 * (fused_l2_on_floats), 0 integers, 1 floats (tests;
 * ce_fused_set_l2_edges_form). */
static int fused_l2_form = -1;

extern "C" int
ce_fused_set_l2_edges_form (int form)
{
  return __atomic_exchange_n (&fused_l2_form, form < 0 ? -1 : min (form, 2),
      __ATOMIC_RELAXED);
}

/* Form 2: the float form with every estimate taken as open, so that the
 * exact settling of open rows (ce_l2_settle) runs on every row. */
static void
fused_force_open (ce_fconsts & k)
{
  if (__atomic_load_n (&fused_l2_form, __ATOMIC_RELAXED) == 2)
    k.guard = INFINITY;
}

/* Launches of at least this many output pixels take the l2 edges'
 * float form in the strip kernel (a band of a frame counts its own
 * rows).  Both forms are exact; on an H200, with the edge bytes made
 * from sign bits, the float form measured 2-7 % faster than the integers
 * at 4K, 15-18 % at 4096x4096 and 8K, and level at 1440p
 * (PERFORMANCE.md, "Edge bytes from sign bits"). */
#ifndef FUSED_L2_FLOAT_MIN_PX
#define FUSED_L2_FLOAT_MIN_PX 6000000LL
#endif

static bool
fused_l2_on_floats (int width, int rows)
{
  const int form = __atomic_load_n (&fused_l2_form, __ATOMIC_RELAXED);
  if (form >= 0)
    return form >= 1;
  return (long long) width * rows >= FUSED_L2_FLOAT_MIN_PX;
}

template < bool BLUR >
static void
edge_fused_dispatch (unsigned blocks, ce_launch_cache * cache,
    cudaStream_t stream, const uint8_t * luma, size_t luma_pitch, int W,
    int H, fused_layout L, const ce_edge_consts * c, bool l2f, int ain,
    int aout, uint8_t * dst, size_t dst_pitch, ce_kfill fill, ce_kend end)
{
  const dim3 block (32, FUSED_WARPS);
  ce_fconsts k = ce_fconsts_make (c);
  ce_border_mode border = c->border;
  const dim3 grid (fill.n ? fill.first + fused_fill_blocks (fill.n)
      : blocks);
  fused_force_open (k);
  void *args[] = { &luma, &luma_pitch, &W, &H, &L, &k, &border, &ain, &aout,
    &dst, &dst_pitch, &fill, &end
  };
#define CE_FUSED_LAUNCH(N, O) ce_launch_via (cache, \
      (const void *) edge_fused_kernel < BLUR, N, O >, grid, block, args, \
      stream)
#define CE_FUSED_MMA_LAUNCH(N, O) ce_launch_via (cache, \
      (const void *) edge_fused_mma_kernel < N, O >, grid, block, args, \
      stream)
  if (BLUR && L.mma)
    CE_FUSED_DISPATCH (c, CE_FUSED_MMA_LAUNCH);
  else if (l2f && c->norm == CE_NORM_L2 && c->output == CE_OUTPUT_EDGES)
    ce_launch_via (cache, (const void *) edge_fused_kernel < BLUR, CE_NORM_L2,
        CE_OUTPUT_EDGES, false >, grid, block, args, stream);
  else
    CE_FUSED_DISPATCH (c, CE_FUSED_LAUNCH);
#undef CE_FUSED_MMA_LAUNCH
#undef CE_FUSED_LAUNCH
}

template < bool BLUR >
static void
edge_fused_short_dispatch (ce_launch_cache * cache, cudaStream_t stream,
    const uint8_t * luma, size_t luma_pitch, int W, int H, int row0,
    int row1, const ce_edge_consts * c, int ain, int aout, uint8_t * dst,
    size_t dst_pitch, ce_kfill fill, ce_kend end)
{
  const dim3 block (32, FUSED_WARPS);
  dim3 grid = fused_short_grid (W, row0, row1, ain && aout);
  ce_fconsts k = ce_fconsts_make (c);
  ce_border_mode border = c->border;
  void *args[] = { &luma, &luma_pitch, &W, &H, &row0, &row1, &k, &border,
    &ain, &aout, &dst, &dst_pitch, &fill, &end
  };
  if (fill.n)
    grid.y = fill.first + fused_short_fill_rows (fill.n, grid.x);
#define CE_FUSED_LAUNCH(N, O) ce_launch_via (cache, \
      (const void *) edge_fused_short_kernel < BLUR, N, O >, grid, block, \
      args, stream)
  CE_FUSED_DISPATCH (c, CE_FUSED_LAUNCH);
#undef CE_FUSED_LAUNCH
}

extern "C" ce_status
ce_launch_edge_fused (const uint8_t * d_luma, size_t luma_pitch, int width,
    int height, int row0, int row1, const ce_edge_consts * consts,
    uint8_t * d_dst, size_t dst_pitch, cudaStream_t stream)
{
  return ce_launch_edge_fused_fill (d_luma, luma_pitch, width, height, row0,
      row1, consts, d_dst, dst_pitch, NULL, 0, 0, NULL, NULL, stream);
}

extern "C" ce_status
ce_launch_edge_fused_fill (const uint8_t * d_luma, size_t luma_pitch,
    int width, int height, int row0, int row1, const ce_edge_consts * consts,
    uint8_t * d_dst, size_t dst_pitch, uint8_t * d_fill, size_t fill_bytes,
    int fill_value, ce_launch_cache * cache, ce_launch_signal * signal,
    cudaStream_t stream)
{
  CE_CHECK (ce_check_pointer (d_luma, "d_luma"));
  CE_CHECK (ce_check_pointer (d_dst, "d_dst"));
  CE_CHECK (ce_check_size (width, height));
  CE_CHECK (ce_check_plane (luma_pitch, (size_t) width, height,
          "luma_pitch"));
  CE_CHECK (ce_check_plane (dst_pitch, (size_t) width, height,
          "dst_pitch"));
  CE_CHECK (ce_check_rows (row0, row1, height));
  CE_CHECK (ce_check_consts (consts));
  if (fill_bytes > 0)
    CE_CHECK (ce_check_pointer (d_fill, "d_fill"));
  if (signal) {
    signal->armed = 0;
    if (!signal->count || !signal->flag)
      signal = NULL;
  }

  /* The fill goes with the first launch; none: `first` past any grid. */
  const uint8_t fv = (uint8_t) fill_value;
  ce_kfill fill = { d_fill, fill_bytes, fv * 0x01010101u, UINT_MAX };
  /* The signal goes with a launch that does all the work: the only one,
   * its fill in its grid. */
  auto end_of = [&] (int r0, int r1, const ce_kfill & f) {
    ce_kend e = { NULL, NULL, 0 };
    if (signal && r0 == row0 && r1 == row1 && f.n == fill_bytes) {
      e.count = signal->count;
      e.flag = signal->flag;
      e.value = signal->value;
      signal->armed = 1;
    }
    return e;
  };

  const int ain = ((uintptr_t) d_luma % 4 == 0) && (luma_pitch % 4 == 0);
  const int aout = ((uintptr_t) d_dst % 4 == 0) && (dst_pitch % 4 == 0);
  const int resident = fused_resident_warps ();
  const bool mma = consts->blur && fused_mma_usable ();
  const fused_layout whole = fused_layout_make (width, height, row0, row1,
      consts->blur, ain && aout, resident, mma);

  /* Small frames: strips of the shortest height, grid of 2-D blocks. */
  if (whole.th <= FUSED_TH_MIN) {
    CE_CHECK (ce_launch_rows (row0, row1, CE_ROWS_PER_LAUNCH (FUSED_BLOCK_ROWS),
        "edge_fused", [&] (int r0, int r1) {
          ce_kfill f = { NULL, 0, 0, UINT_MAX };
          const dim3 g = fused_short_grid (width, r0, r1, ain && aout);
          if (fill.n && g.y + fused_short_fill_rows (fill.n, g.x)
              <= CE_GRID_Y_MAX) {
            f = fill;
            f.first = g.y;
            fill.n = 0;
          }
          const ce_kend e = end_of (r0, r1, f);
          if (consts->blur)
            edge_fused_short_dispatch < true > (cache, stream, d_luma,
                luma_pitch, width, height, r0, r1, consts, ain, aout, d_dst,
                dst_pitch, f, e);
          else
            edge_fused_short_dispatch < false > (cache, stream, d_luma,
                luma_pitch, width, height, r0, r1, consts, ain, aout, d_dst,
                dst_pitch, f, e);
        }));
    return ce_fill_rest (fill, fv, stream);
  }

  const bool l2f = fused_l2_on_floats (width, row1 - row0);
  /* At most about 2^30 warps per launch, whatever the width. */
  const long long cols = ce_ceil_div (width, FUSED_TW);
  const long long chunk = (1LL << 30) / cols * FUSED_TH;
  const int rows_per_launch = chunk > INT_MAX ? INT_MAX
      : (int) max (chunk, (long long) FUSED_TH);
  CE_CHECK (ce_launch_rows (row0, row1, rows_per_launch, "edge_fused",
      [&] (int r0, int r1) {
        const fused_layout L = r1 - r0 == row1 - row0 ? whole
            : fused_layout_make (width, height, r0, r1, consts->blur,
            ain && aout, resident, mma);
        const unsigned blocks = fused_blocks (L);
        ce_kfill f = { NULL, 0, 0, UINT_MAX };
        if (fill.n && (unsigned long long) blocks
            + fused_fill_blocks (fill.n) <= INT_MAX) {
          f = fill;
          f.first = blocks;
          fill.n = 0;
        }
        const ce_kend e = end_of (r0, r1, f);
        if (consts->blur)
          edge_fused_dispatch < true > (blocks, cache, stream, d_luma,
              luma_pitch, width, height, L, consts, l2f, ain, aout, d_dst,
              dst_pitch, f, e);
        else
          edge_fused_dispatch < false > (blocks, cache, stream, d_luma,
              luma_pitch, width, height, L, consts, l2f, ain, aout, d_dst,
              dst_pitch, f, e);
      }));
  return ce_fill_rest (fill, fv, stream);
}

extern "C" int
ce_fused_short_block_rows (void)
{
  return FUSED_BLOCK_ROWS;
}

/* Whether the tasks of one launch of the fused kernels, for output rows
 * [row0, row1) of a W x H frame, cover every output pixel once and read
 * only where their path may: the launch's own task functions, run on the
 * host over its whole grid (cudaedge-testing.h). */
extern "C" int
ce_fused_layout_errors (int W, int H, int row0, int row1, int blur,
    int aligned, int resident_warps, int tensor_cores, char *what,
    size_t what_size)
{
  const int R = blur ? 2 : 0;
  const int rows = row1 - row0;
  const fused_layout L = fused_layout_make (W, H, row0, row1, blur != 0,
      aligned != 0, resident_warps, tensor_cores != 0);
  const bool shrt = L.th <= FUSED_TH_MIN;
  unsigned char *seen = (unsigned char *) calloc ((size_t) W * rows, 1);
  int errors = 0;

  if (what_size)
    what[0] = 0;
  if (!seen)
    return -1;
  auto fail = [&](const char *why, const fused_task & t) {
    if (errors++ == 0 && what_size)
      snprintf (what, what_size, "%s kernel, %dx%d rows %d-%d, blur %d, "
          "aligned %d: %s (X %d, rows %d-%d, %s)", shrt ? "short" : "wave",
          W, H, row0, row1, blur, aligned, why, t.X, t.ys, t.ye,
          t.mma ? "tensor cores" : t.interior ? "interior" : "general");
  };
  auto take = [&](const fused_task & t) {
    if (t.X < 0 || t.X % FUSED_PX || t.X >= W || t.ys < row0 || t.ye > row1
        || t.ys >= t.ye) {
      fail ("outside the launch", t);
      return;
    }
    if (t.mma) {
      /* reads rows ys - 3 on and columns X - 4 on, words clamped to the
       * frame; the pixels it stores need rows to ye + 2 and columns to
       * xe + 2, which must be inside */
      if (!aligned || !blur || t.xe % 4 || t.X % FUSED_MMA_W
          || t.ys - 3 < 0 || t.ye + 2 > H - 1 || t.xe + 2 > W - 1
          || max (t.X, 4) >= t.xe)
        fail ("tensor-core reads leave the frame", t);
      for (int y = t.ys; y < t.ye; y++)
        for (int x = max (t.X, 4); x < t.X + FUSED_MMA_W && x < t.xe; x++)
          if (seen[(size_t) (y - row0) * W + x]++)
            fail ("pixel taken twice", t);
      return;
    }
    if (t.interior) {
      /* reads columns X - 4 ... X + px + 3, rows ys - 1 - R on, as words */
      const int last = shrt ? t.ys + FUSED_SHORT_TH + R
          : t.ye + R + FUSED_PREFETCH;
      if (!aligned || !fused_lane_inner (t.X, W)
          || !fused_lane_inner (t.X + t.px - 4, W) || t.ys - 1 - R < 0
          || last > H - 1 || (shrt && t.ye != t.ys + FUSED_SHORT_TH))
        fail ("interior reads leave the frame", t);
    }
    for (int y = t.ys; y < t.ye; y++)
      for (int x = t.X; x < t.X + t.px && x < W; x++)
        if (seen[(size_t) (y - row0) * W + x]++)
          fail ("pixel taken twice", t);
  };

  fused_task t;
  if (shrt) {
    const dim3 g = fused_short_grid (W, row0, row1, aligned != 0);
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++)
        for (int warp = 0; warp < FUSED_WARPS; warp++)
          for (int lane = 0; lane < 32; lane++)
            if (fused_short_task_of (W, H, R, row0, row1, aligned != 0, bx,
                    by, warp, lane, t))
              take (t);
  } else {
    const long long warps = (long long) fused_blocks (L) * FUSED_WARPS;
    for (long long w = 0; w < warps; w++)
      for (int lane = 0; lane < 32; lane++)
        if (fused_task_of (L, W, (int) w, lane, t) && (!t.mma || lane == 0))
          take (t);
  }
  for (size_t i = 0; i < (size_t) W * rows; i++)
    if (!seen[i]) {
      t.X = (int) (i % W);
      t.ys = row0 + (int) (i / W);
      t.ye = t.ys + 1;
      t.interior = false;
      fail ("pixel not taken", t);
      break;
    }
  free (seen);
  return errors;
}

/* ------------------------------------------------------------------------
 * 3. Bilinear 2x upscale (docs/numerics.md, "Bilinear 2x upscale").
 * Thread (t, q) makes output columns 4t ... 4t+3 of output rows 2q and
 * 2q+1, so that each of its rows is one aligned store (16 bytes of RGBA,
 * 4 of GRAY8) and a warp writes 512 (128) contiguous bytes a row.
 * Output column i interpolates at x = i/2 - 1/4: columns 4t and 4t+2 at
 * a quarter before source columns 2t and 2t+1 (between 2t-1 and 2t, 2t
 * and 2t+1, fx = 3/4), columns 4t+1 and 4t+3 at a quarter after 2t and
 * 2t+1 (fx = 1/4); rows likewise, row 2q between q-1 and q (fy = 3/4),
 * row 2q+1 between q and q+1 (fy = 1/4).  Source indices are clamped to
 * the image.  That is ce_upscale_axis () exactly: where it clamps x to
 * 0 or to W-1 (output columns 0 and 2W-1), both clamped source columns
 * are the same pixel, and the weights of a row's two pixels then add up
 * to what ce_upscale_axis's weight 0 gives, so ce_bilinear's sum, and
 * its rounding, are the same.  So 4 x 3 source pixels (cached loads,
 * shared with the neighbours) for 4 x 2 output pixels.
 *
 * 4-byte pixels are filtered as two words of 16-bit lanes (even bytes, odd
 * bytes): each lane computes exactly ce_bilinear's
 * (sum p_k w_k + 128) >> 8 with the same weights, and the lane never
 * carries (max 255 * 256 + 128 < 65536).
 *
 * Blocks of UPSCALE_BX x UPSCALE_BY threads: a warp along a row of
 * groups, so a block covers 2 UPSCALE_BY output rows.
 */
#define UPSCALE_BX 32
#define UPSCALE_BY 8
/* Blocks per multiprocessor a launch aims at: a larger frame's block
 * rows loop over row pairs instead, so that the blocks' ends (a barrier,
 * and a fence and an atomic where the launch signals its end) do not
 * grow with the frame's height (PERFORMANCE.md).  A frame so wide that
 * one row of blocks has more (about 67,000 pixels on an H200) gets that
 * one row. */
#ifndef UPSCALE_BLOCKS_PER_SM
#define UPSCALE_BLOCKS_PER_SM 8
#endif

/* Weights for fx, fy in quarters, in 1/256, as ce_bilinear's. */
static __host__ __device__ __forceinline__ void
ce_bilinear_weights (int fx4, int fy4, uint32_t w[4])
{
  w[0] = (4 - fx4) * (4 - fy4) * 16;
  w[1] = fx4 * (4 - fy4) * 16;
  w[2] = (4 - fx4) * fy4 * 16;
  w[3] = fx4 * fy4 * 16;
}

/* One output pixel of 4 bytes from its 4 source words, weights w. */
static __host__ __device__ __forceinline__ uint32_t
ce_bilinear4 (uint32_t s00, uint32_t s10, uint32_t s01, uint32_t s11,
    const uint32_t w[4])
{
  const uint32_t M = 0x00ff00ffu;
  const uint32_t e = (s00 & M) * w[0] + (s10 & M) * w[1] + (s01 & M) * w[2]
      + (s11 & M) * w[3] + 0x00800080u;
  const uint32_t o = ((s00 >> 8) & M) * w[0] + ((s10 >> 8) & M) * w[1]
      + ((s01 >> 8) & M) * w[2] + ((s11 >> 8) & M) * w[3] + 0x00800080u;
  return ((e >> 8) & M) | (o & ~M);
}

template < int BPP >
static __host__ __device__ __forceinline__ uint32_t
ce_upscale_load (const uint8_t * row, int x)
{
#ifdef __CUDA_ARCH__
  return BPP == 4 ? __ldg ((const uint32_t *) row + x) : __ldg (row + x);
#else
  return BPP == 4 ? ((const uint32_t *) row)[x] : row[x];
#endif
}

/* Output columns 4t ... 4t+3 (those below 2W) of output rows 2q and 2q+1
 * (those in [row0, row1)).  vec: every output row starts at an address
 * the group's store may take whole (16 bytes for RGBA, 4 for GRAY8). */
template < int BPP >
static __host__ __device__ __forceinline__ void
upscale2x_group (const uint8_t * __restrict__ src, size_t src_pitch,
    int W, int H, int row0, int row1, int t, int q,
    uint8_t * __restrict__ dst, size_t dst_pitch, bool vec)
{
  const int xc[4] = { max (2 * t - 1, 0), min (2 * t, W - 1),
    min (2 * t + 1, W - 1), min (2 * t + 2, W - 1)
  };
  const uint8_t *rows[3] = {
    src + (size_t) max (q - 1, 0) * src_pitch,
    src + (size_t) min (q, H - 1) * src_pitch,
    src + (size_t) min (q + 1, H - 1) * src_pitch
  };
  uint32_t s[3][4];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      s[r][c] = ce_upscale_load < BPP > (rows[r], xc[c]);

  const int ncols = min (4, 2 * W - 4 * t);
  for (int k = 0; k < 2; k++) {
    const int j = 2 * q + k;
    if (j < row0 || j >= row1)
      continue;
    /* Row 2q: source rows q-1, q, fy = 3/4; row 2q+1: q, q+1, 1/4. */
    const uint32_t *a = s[k], *b = s[k + 1];
    const int fy4 = k ? 1 : 3;
    uint32_t o[4];
    if (BPP == 4) {
      uint32_t w3[4], w1[4];
      ce_bilinear_weights (3, fy4, w3);
      ce_bilinear_weights (1, fy4, w1);
      o[0] = ce_bilinear4 (a[0], a[1], b[0], b[1], w3);
      o[1] = ce_bilinear4 (a[1], a[2], b[1], b[2], w1);
      o[2] = ce_bilinear4 (a[1], a[2], b[1], b[2], w3);
      o[3] = ce_bilinear4 (a[2], a[3], b[2], b[3], w1);
    } else {
      o[0] = ce_bilinear (a[0], a[1], b[0], b[1], 3, fy4);
      o[1] = ce_bilinear (a[1], a[2], b[1], b[2], 1, fy4);
      o[2] = ce_bilinear (a[1], a[2], b[1], b[2], 3, fy4);
      o[3] = ce_bilinear (a[2], a[3], b[2], b[3], 1, fy4);
    }
    uint8_t *d = dst + (size_t) j * dst_pitch + (size_t) 4 * t * BPP;
    if (vec && ncols == 4) {
      if (BPP == 4)
        *(uint4 *) d = make_uint4 (o[0], o[1], o[2], o[3]);
      else
        *(uint32_t *) d = o[0] | o[1] << 8 | o[2] << 16 | o[3] << 24;
    } else {
      for (int c = 0; c < ncols; c++) {
        if (BPP == 4)
          ((uint32_t *) d)[c] = o[c];
        else
          d[c] = (uint8_t) o[c];
      }
    }
  }
}

/* Whether every output row of @dst starts where a group's store may
 * take it whole (16 bytes for RGBA, 4 for GRAY8). */
static __host__ __device__ __forceinline__ int
upscale2x_vec (const uint8_t * dst, size_t dst_pitch, int bytes_per_pixel)
{
  const size_t vec_bytes = bytes_per_pixel == 4 ? 16 : 4;
  return (uintptr_t) dst % vec_bytes == 0 && dst_pitch % vec_bytes == 0;
}

/* The row pairs of output rows [r0, r1): from q_first, n_q of them. */
static __host__ __device__ __forceinline__ void
upscale2x_pairs (int r0, int r1, int *q_first, int *n_q)
{
  *q_first = r0 >> 1;
  *n_q = ((r1 - 1) >> 1) - *q_first + 1;
}

/* The grid of a launch over @n_q row pairs of a @width wide source:
 * every column of groups, and as many block rows as a whole number of
 * passes over the row pairs needs within @max_blocks blocks (one block
 * row when a row of blocks alone has more). */
static dim3
upscale2x_grid (int width, int n_q, long long max_blocks)
{
  const long long gx = ce_ceil_div ((width + 1) / 2, UPSCALE_BX);
  const long long gy = ce_ceil_div (n_q, UPSCALE_BY);
  const long long passes = ce_ceil_div (gy, max (max_blocks / gx, 1LL));
  return dim3 ((unsigned) gx, (unsigned) ce_ceil_div (gy, passes));
}

/* Thread (tx, ty) of block (bx, by) of a grid @gdy blocks tall: groups
 * (t, q_first + u), its block row taking the row pairs u, u + the grid's
 * height in pairs, and so on. */
template < int BPP >
static __host__ __device__ __forceinline__ void
upscale2x_thread (unsigned bx, unsigned by, unsigned tx, unsigned ty,
    unsigned gdy, const uint8_t * __restrict__ src, size_t src_pitch,
    int W, int H, int row0, int row1, int q_first, int n_q,
    uint8_t * __restrict__ dst, size_t dst_pitch, bool vec)
{
  const int t = (int) (bx * UPSCALE_BX + tx);
  if (2 * t < W)
    for (int u = (int) (by * UPSCALE_BY + ty); u < n_q;
        u += (int) gdy * UPSCALE_BY)
      upscale2x_group < BPP > (src, src_pitch, W, H, row0, row1, t,
          q_first + u, dst, dst_pitch, vec);
}

/* Its threads, then the launch's end (ce_end_signal) once every thread of
 * the block is past its groups. */
template < int BPP >
static __global__ void
upscale2x_kernel (const uint8_t * __restrict__ src, size_t src_pitch,
    int W, int H, int row0, int row1, int q_first, int n_q,
    uint8_t * __restrict__ dst, size_t dst_pitch, int vec, ce_kend end)
{
  upscale2x_thread < BPP > (blockIdx.x, blockIdx.y, threadIdx.x,
      threadIdx.y, gridDim.y, src, src_pitch, W, H, row0, row1, q_first,
      n_q, dst, dst_pitch, vec != 0);
  ce_end_signal (end);
}

/* The frame ce_launch_upscale2x_via takes (and the host run): all but
 * the rows (cudaedge-kernels.h). */
extern "C" ce_status
ce_upscale2x_check_frame (const uint8_t * src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, const uint8_t * dst, size_t dst_pitch)
{
  CE_CHECK (ce_check_pointer (src, "d_src"));
  CE_CHECK (ce_check_pointer (dst, "d_dst"));
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
  CE_CHECK (ce_check_plane (src_pitch,
          (size_t) width * bytes_per_pixel, height, "src_pitch"));
  CE_CHECK (ce_check_plane (dst_pitch,
          (size_t) 2 * width * bytes_per_pixel, 2 * height, "dst_pitch"));
  if (bytes_per_pixel == 4) {
    CE_CHECK (ce_check_multiple (src_pitch, 4, "src_pitch"));
    CE_CHECK (ce_check_multiple (dst_pitch, 4, "dst_pitch"));
    CE_CHECK (ce_check_aligned (src, 4, "d_src"));
    CE_CHECK (ce_check_aligned (dst, 4, "d_dst"));
  }
  return CE_STATUS_OK;
}

static ce_status
upscale2x_check (const uint8_t * src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, const uint8_t * dst,
    size_t dst_pitch)
{
  CE_CHECK (ce_upscale2x_check_frame (src, src_pitch, width, height,
          bytes_per_pixel, dst, dst_pitch));
  CE_CHECK (ce_check_rows (row0, row1, 2 * height));
  return CE_STATUS_OK;
}

extern "C" ce_status
ce_launch_upscale2x (const uint8_t * d_src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream)
{
  return ce_launch_upscale2x_via (d_src, src_pitch, width, height,
      bytes_per_pixel, row0, row1, d_dst, dst_pitch, NULL, NULL, stream);
}

extern "C" ce_status
ce_launch_upscale2x_via (const uint8_t * d_src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * d_dst,
    size_t dst_pitch, ce_launch_cache * cache, ce_launch_signal * signal,
    cudaStream_t stream)
{
  CE_CHECK (upscale2x_check (d_src, src_pitch, width, height,
          bytes_per_pixel, row0, row1, d_dst, dst_pitch));
  if (signal) {
    signal->armed = 0;
    if (!signal->count || !signal->flag)
      signal = NULL;
  }

  const int vec = upscale2x_vec (d_dst, dst_pitch, bytes_per_pixel);
  const long long max_blocks = (long long) UPSCALE_BLOCKS_PER_SM
      * (fused_resident_warps () / (FUSED_MIN_BLOCKS * FUSED_WARPS));

  /* A range of n output rows touches up to n / 2 + 1 row pairs (a pair
   * straddles each end): a block row to spare. */
  const dim3 block (UPSCALE_BX, UPSCALE_BY);
  return ce_launch_rows (row0, row1,
      CE_ROWS_PER_LAUNCH (2 * UPSCALE_BY) - 2 * UPSCALE_BY, "upscale2x",
      [&] (int r0, int r1) {
        int q_first, n_q;
        upscale2x_pairs (r0, r1, &q_first, &n_q);
        const dim3 grid = upscale2x_grid (width, n_q, max_blocks);
        /* The signal goes with the launch that does all the rows. */
        ce_kend end = { NULL, NULL, 0 };
        if (signal && r0 == row0 && r1 == row1) {
          end.count = signal->count;
          end.flag = signal->flag;
          end.value = signal->value;
          signal->armed = 1;
        }
        void *args[] = { &d_src, &src_pitch, &width, &height, &r0, &r1,
          &q_first, &n_q, &d_dst, &dst_pitch, (void *) &vec, &end
        };
        ce_launch_via (cache, bytes_per_pixel == 4
            ? (const void *) upscale2x_kernel < 4 >
            : (const void *) upscale2x_kernel < 1 >, grid, block, args,
            stream);
      });
}

/* The upscale kernel's threads run on the host (cudaedge-testing.h). */
extern "C" int
ce_upscale2x_host (const uint8_t * src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * dst,
    size_t dst_pitch, int max_blocks, int *stores_whole)
{
  if (max_blocks < 1 || upscale2x_check (src, src_pitch, width, height,
          bytes_per_pixel, row0, row1, dst, dst_pitch) != CE_STATUS_OK)
    return -1;
  const int vec = upscale2x_vec (dst, dst_pitch, bytes_per_pixel);
  int q_first, n_q;
  upscale2x_pairs (row0, row1, &q_first, &n_q);
  const dim3 grid = upscale2x_grid (width, n_q, max_blocks);
  for (unsigned by = 0; by < grid.y; by++)
    for (unsigned bx = 0; bx < grid.x; bx++)
      for (unsigned ty = 0; ty < UPSCALE_BY; ty++)
        for (unsigned tx = 0; tx < UPSCALE_BX; tx++)
          if (bytes_per_pixel == 4)
            upscale2x_thread < 4 > (bx, by, tx, ty, grid.y, src, src_pitch,
                width, height, row0, row1, q_first, n_q, dst, dst_pitch,
                vec != 0);
          else
            upscale2x_thread < 1 > (bx, by, tx, ty, grid.y, src, src_pitch,
                width, height, row0, row1, q_first, n_q, dst, dst_pitch,
                vec != 0);
  if (stores_whole)
    *stores_whole = vec;
  return 0;
}

/* The interior's rolling Sobel window on the host (cudaedge-testing.h). */
extern "C" int
ce_fused_sobel_window_host (const int32_t * b, int rows, int32_t * gx,
    int32_t * gy)
{
  ce_sobel_win w;
  ce_grad g;

  if (b == NULL || gx == NULL || gy == NULL || rows < 3)
    return -1;
  for (size_t i = 0; i < (size_t) 6 * (size_t) rows; i++)
    if (b[i] < 0 || b[i] > 255 * CE_BLUR_SCALE)
      return -1;
  ce_sobel_win_init (w);
  for (int r = 0; r < rows; r++) {
    float f[6];
    for (int q = 0; q < 6; q++)
      f[q] = CE_FOFF + (float) b[(size_t) 6 * r + q];   /* as ce_unpack_pairs () */
    ce_sobel_push (w, f, g);
    if (r < 2)
      continue;
    for (int m = 0; m < FUSED_PX; m++) {
      gx[(size_t) FUSED_PX * (r - 2) + m] = (int32_t) g.x[m];
      gy[(size_t) FUSED_PX * (r - 2) + m] = (int32_t) g.y[m];
    }
  }
  return 0;
}

/* The float forms' output code on the host (cudaedge-testing.h). */
/* The bytes as the kernels make them (ce_edge_out), and whether the
 * estimates left the row open. */
template < int NORM, int OUTPUT, int SCALE >
static uint32_t
fused_out_host_scaled (const ce_fconsts & k, const ce_grad & g, int *open)
{
  if (open) {
    bool o;
    (void) ce_edge_out_open < NORM, OUTPUT, SCALE > (g, k, o);
    *open = o;
  }
  return ce_edge_out < NORM, OUTPUT, SCALE > (g, k);
}

template < int NORM, int OUTPUT >
static uint32_t
fused_out_host (const ce_edge_consts * c, const ce_grad & g, int *open)
{
  const ce_fconsts k = ce_fconsts_make (c);
  return c->scale == 1
      ? fused_out_host_scaled < NORM, OUTPUT, 1 > (k, g, open)
      : fused_out_host_scaled < NORM, OUTPUT, CE_BLUR_SCALE > (k, g, open);
}

extern "C" int
ce_fused_out_host (const ce_edge_consts * consts, const int32_t gx[4],
    const int32_t gy[4], int root_ulps, uint32_t * out, int *open)
{
  ce_grad g;

  if (consts == NULL || gx == NULL || gy == NULL || out == NULL
      || (consts->scale != 1 && consts->scale != CE_BLUR_SCALE))
    return -1;
  for (int m = 0; m < FUSED_PX; m++) {
    /* the kernels' gradients: integers of magnitude below 2^19, exact */
    if (gx[m] <= -(1 << 19) || gx[m] >= 1 << 19 || gy[m] <= -(1 << 19)
        || gy[m] >= 1 << 19)
      return -1;
    g.x[m] = (float) gx[m];
    g.y[m] = (float) gy[m];
  }
#ifndef __CUDA_ARCH__
  ce_host_root_ulps = root_ulps;
#endif
  if (consts->norm == CE_NORM_L2)
    *out = consts->output == CE_OUTPUT_EDGES
        ? fused_out_host < CE_NORM_L2, CE_OUTPUT_EDGES > (consts, g, open)
        : fused_out_host < CE_NORM_L2, CE_OUTPUT_MAGNITUDE > (consts, g,
        open);
  else
    *out = consts->output == CE_OUTPUT_EDGES
        ? fused_out_host < CE_NORM_L1, CE_OUTPUT_EDGES > (consts, g, open)
        : fused_out_host < CE_NORM_L1, CE_OUTPUT_MAGNITUDE > (consts, g,
        open);
#ifndef __CUDA_ARCH__
  ce_host_root_ulps = 0;
#endif
  return 0;
}
