/* gst-cudaedge: the exact integer helpers shared by the CPU reference and
 * the CUDA kernels, so both compute with one definition.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Internal header: C11 and CUDA C++.
 */
#ifndef CUDAEDGE_NUMERICS_H
#define CUDAEDGE_NUMERICS_H

#include <math.h>
#include <stdint.h>

#include "cudaedge-core.h"

#ifdef __CUDACC__
#define CE_HD __host__ __device__ __forceinline__
#else
#define CE_HD static inline
#endif

/* The blur's 5 taps, w = [1 4 6 4 1] (an initialiser), and the scale S of
 * B with the blur on: the sum of the 25 weights w_i w_j. */
#define CE_BLUR_TAPS { 1, 4, 6, 4, 1 }
#define CE_BLUR_SCALE 256

/* Maps coordinate p of a line of n pixels into [0, n) by the border rule,
 * or returns -1 where the rule reads a zero. */
CE_HD int
ce_border_index (int p, int n, ce_border_mode mode)
{
  if (p >= 0 && p < n)
    return p;
  switch (mode) {
    case CE_BORDER_ZERO:
      return -1;
    case CE_BORDER_REFLECT:{
      /* REFLECT_101 folded as often as needed: period 2 (n - 1). */
      int period;
      if (n == 1)
        return 0;
      /* one fold, the usual case, without the division */
      if (p < 0 && p > -n)
        return -p;
      if (p >= n && p < 2 * n - 1)
        return 2 * (n - 1) - p;
      period = 2 * (n - 1);
      p %= period;
      if (p < 0)
        p += period;
      return p < n ? p : period - p;
    }
    case CE_BORDER_REPLICATE:
    default:
      return p < 0 ? 0 : n - 1;
  }
}

/* floor (sqrt (v)) for 0 <= v < 2^52. */
CE_HD int64_t
ce_isqrt64 (int64_t v)
{
  int64_t r = (int64_t) sqrt ((double) v);
  while (r * r > v)
    r--;
  while ((r + 1) * (r + 1) <= v)
    r++;
  return r;
}

/* The output byte for one gradient, exactly as docs/numerics.md defines
 * it ("Magnitude and threshold", "Output"). */
CE_HD uint8_t
ce_edge_value (int32_t gx, int32_t gy, int64_t limit, int scale,
    ce_norm norm, ce_output output)
{
  if (norm == CE_NORM_L1) {
    int64_t s = (int64_t) (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
    if (output == CE_OUTPUT_EDGES)
      return s > limit ? 255 : 0;
    /* round-half-up (s / S) = floor ((2 s + S) / (2 S)) */
    s = (2 * s + scale) / (2 * (int64_t) scale);
    return (uint8_t) (s > 255 ? 255 : s);
  } else {
    int64_t n = (int64_t) gx * gx + (int64_t) gy * gy;
    int64_t k;
    if (output == CE_OUTPUT_EDGES)
      return n > limit ? 255 : 0;
    /* The largest k with ((2k - 1) S)^2 <= 4 n, i.e. with r = isqrt (4 n):
     * (2k - 1) S <= r, k = floor ((r + S) / (2 S)); k = 0 when r < S. */
    k = (ce_isqrt64 (4 * n) + scale) / (2 * (int64_t) scale);
    return (uint8_t) (k > 255 ? 255 : k);
  }
}

/* 8-bit luma of one RGB pixel, BT.601 in 8-bit fixed point. */
CE_HD uint8_t
ce_rgb_to_luma (unsigned r, unsigned g, unsigned b)
{
  return (uint8_t) ((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

/* One axis of the 2x bilinear upscale, in quarter pixels.  Output index i
 * maps to x = i/2 - 1/4 clamped to [0, n-1]; returns p = floor (x), p1 =
 * min (p + 1, n - 1) and the fraction in quarters (0, 1 or 3). */
CE_HD void
ce_upscale_axis (int i, int n, int *p, int *p1, int *frac4)
{
  int q = 2 * i - 1;            /* x in quarter pixels */
  if (q < 0)
    q = 0;
  if (q > 4 * (n - 1))
    q = 4 * (n - 1);
  *p = q >> 2;
  *frac4 = q & 3;
  *p1 = *p + 1 < n ? *p + 1 : n - 1;
}

/* (sum p_k w_k + 128) >> 8 with weights (4 - fx)(4 - fy) etc. times 16. */
CE_HD uint8_t
ce_bilinear (unsigned p00, unsigned p10, unsigned p01, unsigned p11,
    int fx4, int fy4)
{
  unsigned w00 = (4 - fx4) * (4 - fy4) * 16;
  unsigned w10 = fx4 * (4 - fy4) * 16;
  unsigned w01 = (4 - fx4) * fy4 * 16;
  unsigned w11 = fx4 * fy4 * 16;
  return (uint8_t) ((p00 * w00 + p10 * w10 + p01 * w01 + p11 * w11 + 128)
      >> 8);
}

#endif /* CUDAEDGE_NUMERICS_H */
