/* gst-cudaedge compute core: the fast CPU bilinear 2x upscale.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Gives the same bytes as ce_ref_upscale2x() (docs/numerics.md, "Bilinear
 * 2x upscale"), row band by row band.  With the weights of ce_bilinear(),
 *
 *   (sum p_k w_k + 128) >> 8,  w = (4 - fx)(4 - fy) 16, fx (4 - fy) 16, ...
 *
 * every term is a multiple of 16, so the byte is exactly
 *
 *   ((4 - fy) Hx (r0) + fy Hx (r1) + 8) >> 4,
 *   Hx (r) = (4 - fx) r[px] + fx r[px1]          (0 ... 1020)
 *
 * and the sum before the shift is at most 4 * 1020 + 8 = 4088: uint16
 * throughout.  So each source row is first upscaled horizontally into a
 * uint16 row of 2W pixels (Hx), kept in a cache of two rows tagged by
 * source row, and each output row is one element-wise blend of two such
 * rows with one of three weight pairs (fy = 0, 1 or 3).
 *
 * Horizontally (ce_upscale_axis): output column 0 is x = 0 with fx = 0,
 * columns 2a + 1 and 2a + 2 (0 <= a < W - 1) use source columns a and a + 1
 * with fx = 1 and 3, and column 2W - 1 is x = W - 1 with fx = 0.
 * Vertically the same with rows; rows 0 and 2H - 1 have fy = 0.
 *
 * Inner loops run over chunks of a constant size plus a tail, on restrict
 * pointers, with the pixel size a compile-time constant, so that gcc -O2
 * vectorises them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

/* Source pixels per chunk of the horizontal pass; elements per chunk of the
 * vertical blend. */
#define CE_UP_HCHUNK 16
#define CE_UP_VCHUNK 64

/* Hx of pixels [a0, a0 + n) of the pairs: columns 2a + 1 (fx 1) and
 * 2a + 2 (fx 3) from source pixels a and a + 1. */
CE_INLINE void
hpairs_span (const uint8_t * restrict s, uint16_t * restrict h, int bpp,
    int a0, int n)
{
  const uint8_t *restrict p = s + (size_t) a0 * bpp;
  uint16_t *restrict o = h + (size_t) (2 * a0 + 1) * bpp;

  for (int a = 0; a < n; a++) {
    for (int c = 0; c < bpp; c++) {
      unsigned l = p[a * bpp + c], r = p[(a + 1) * bpp + c];
      o[2 * a * bpp + c] = (uint16_t) (3 * l + r);
      o[(2 * a + 1) * bpp + c] = (uint16_t) (l + 3 * r);
    }
  }
}

/* The same for 4-byte pixels, in two steps that vectorise well: the fx 1
 * and fx 3 blends of each byte with the byte one pixel on (contiguous, into
 * two small arrays), then the two interleaved a pixel (four uint16, moved
 * as one 64-bit word) at a time. */
#if defined(__GNUC__)
typedef uint64_t __attribute__ ((may_alias)) ce_u64_alias;
#endif

CE_INLINE void
hpairs4_span (const uint8_t * restrict s, uint16_t * restrict h, int a0,
    int n)
{
  /* read as 64-bit words below, so aligned as they are */
  _Alignas (8) uint16_t f1[CE_UP_HCHUNK * 4];
  _Alignas (8) uint16_t f3[CE_UP_HCHUNK * 4];
  const uint8_t *restrict p = s + (size_t) a0 * 4;

  for (int e = 0; e < 4 * n; e++) {
    unsigned l = p[e], r = p[e + 4];
    f1[e] = (uint16_t) (3 * l + r);
    f3[e] = (uint16_t) (l + 3 * r);
  }
#if defined(__GNUC__)
  {
    ce_u64_alias *restrict o = (ce_u64_alias *) (h + (size_t) (2 * a0 + 1) * 4);
    const ce_u64_alias *restrict w1 = (const ce_u64_alias *) f1;
    const ce_u64_alias *restrict w3 = (const ce_u64_alias *) f3;
    for (int a = 0; a < n; a++) {
      o[2 * a] = w1[a];
      o[2 * a + 1] = w3[a];
    }
  }
#else
  {
    uint16_t *restrict o = h + (size_t) (2 * a0 + 1) * 4;
    for (int a = 0; a < n; a++) {
      memcpy (o + 8 * a, f1 + 4 * a, 4 * sizeof (uint16_t));
      memcpy (o + 8 * a + 4, f3 + 4 * a, 4 * sizeof (uint16_t));
    }
  }
#endif
}

/* Hx of one source row: 2W pixels of bpp uint16. */
CE_INLINE void
hrow (const uint8_t * restrict s, uint16_t * restrict h, int width, int bpp)
{
  int pairs = width - 1, a = 0;

  for (int c = 0; c < bpp; c++) {
    h[c] = (uint16_t) (4 * s[c]);
    h[(size_t) (2 * width - 1) * bpp + c] =
        (uint16_t) (4 * s[(size_t) (width - 1) * bpp + c]);
  }
  if (bpp == 4) {
    for (; a + CE_UP_HCHUNK <= pairs; a += CE_UP_HCHUNK)
      hpairs4_span (s, h, a, CE_UP_HCHUNK);
    if (a < pairs)
      hpairs4_span (s, h, a, pairs - a);
  } else {
    for (; a + CE_UP_HCHUNK <= pairs; a += CE_UP_HCHUNK)
      hpairs_span (s, h, bpp, a, CE_UP_HCHUNK);
    if (a < pairs)
      hpairs_span (s, h, bpp, a, pairs - a);
  }
}

static void
hrow_1 (const uint8_t * restrict s, uint16_t * restrict h, int width)
{
  hrow (s, h, width, 1);
}

static void
hrow_4 (const uint8_t * restrict s, uint16_t * restrict h, int width)
{
  hrow (s, h, width, 4);
}

/* d = (w0 h0 + w1 h1 + 8) >> 4 over n elements. */
CE_INLINE void
vblend_span (const uint16_t * restrict h0, const uint16_t * restrict h1,
    uint8_t * restrict d, unsigned w0, unsigned w1, int n)
{
  for (int k = 0; k < n; k++)
    d[k] = (uint8_t) ((uint16_t) (w0 * h0[k] + w1 * h1[k] + 8) >> 4);
}

/* (4 h0 + 8) >> 4 = (h0 + 2) >> 2 */
CE_INLINE void
vcopy_span (const uint16_t * restrict h0, uint8_t * restrict d, int n)
{
  for (int k = 0; k < n; k++)
    d[k] = (uint8_t) ((uint16_t) (h0[k] + 2) >> 2);
}

CE_INLINE void
vblend (const uint16_t * restrict h0, const uint16_t * restrict h1,
    uint8_t * restrict d, unsigned w0, unsigned w1, size_t n)
{
  size_t k = 0;
  for (; k + CE_UP_VCHUNK <= n; k += CE_UP_VCHUNK)
    vblend_span (h0 + k, h1 + k, d + k, w0, w1, CE_UP_VCHUNK);
  if (k < n)
    vblend_span (h0 + k, h1 + k, d + k, w0, w1, (int) (n - k));
}

static void
vrow_fy0 (const uint16_t * restrict h0, uint8_t * restrict d, size_t n)
{
  size_t k = 0;
  for (; k + CE_UP_VCHUNK <= n; k += CE_UP_VCHUNK)
    vcopy_span (h0 + k, d + k, CE_UP_VCHUNK);
  if (k < n)
    vcopy_span (h0 + k, d + k, (int) (n - k));
}

static void
vrow_fy1 (const uint16_t * restrict h0, const uint16_t * restrict h1,
    uint8_t * restrict d, size_t n)
{
  vblend (h0, h1, d, 3, 1, n);
}

static void
vrow_fy3 (const uint16_t * restrict h0, const uint16_t * restrict h1,
    uint8_t * restrict d, size_t n)
{
  vblend (h0, h1, d, 1, 3, n);
}

ce_status
ce_cpu_upscale2x_rows (const uint8_t * src, size_t src_stride, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * dst,
    size_t dst_stride)
{
  ce_status status;
  size_t row_elems, bytes;
  uint16_t *mem, *slot[2];
  int tag[2] = { -1, -1 };

  if (bytes_per_pixel != 1 && bytes_per_pixel != 4) {
    ce_set_error ("bytes_per_pixel must be 1 or 4 (got %d)", bytes_per_pixel);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_check_pointer (src, "src")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_size (width, height)) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_plane (src_stride,
              (size_t) width * bytes_per_pixel, height,
              "src stride")) != CE_STATUS_OK)
    return status;
  if (width > CE_UPSCALE_MAX_SIZE || height > CE_UPSCALE_MAX_SIZE) {
    ce_set_error ("%dx%d is too large to upscale", width, height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (row0 < 0 || row0 >= 2 * height) {
    ce_set_error ("row0 must be in [0, %d) (got %d)", 2 * height, row0);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (row1 <= row0 || row1 > 2 * height) {
    ce_set_error ("row1 must be in (row0 = %d, 2 * height = %d] (got %d)",
        row0, 2 * height, row1);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_plane (dst_stride,
              (size_t) 2 * width * bytes_per_pixel, row1,
              "dst stride")) != CE_STATUS_OK)
    return status;

  row_elems = (size_t) 2 * width * bytes_per_pixel;
  if (row_elems > SIZE_MAX / (2 * sizeof (uint16_t))) {
    ce_set_error ("%dx%d is too large to upscale", width, height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  bytes = 2 * row_elems * sizeof (uint16_t);
  mem = malloc (bytes);
  if (mem == NULL) {
    ce_set_error ("cannot allocate %zu bytes of CPU upscale scratch", bytes);
    return CE_STATUS_OUT_OF_MEMORY;
  }
  slot[0] = mem;
  slot[1] = mem + row_elems;

  for (int j = row0; j < row1; j++) {
    int py, py1, fy, need[2], n_need;
    const uint16_t *h[2];
    uint8_t *d = dst + (size_t) j * dst_stride;

    ce_upscale_axis (j, height, &py, &py1, &fy);
    need[0] = py;
    need[1] = py1;
    n_need = fy ? 2 : 1;
    /* py and py1 = py + 1 differ in parity: slot (row & 1) holds them both. */
    for (int k = 0; k < n_need; k++) {
      int r = need[k], s = r & 1;
      if (tag[s] != r) {
        const uint8_t *sr = src + (size_t) r * src_stride;
        if (bytes_per_pixel == 4)
          hrow_4 (sr, slot[s], width);
        else
          hrow_1 (sr, slot[s], width);
        tag[s] = r;
      }
      h[k] = slot[s];
    }
    if (fy == 0)
      vrow_fy0 (h[0], d, row_elems);
    else if (fy == 1)
      vrow_fy1 (h[0], h[1], d, row_elems);
    else
      vrow_fy3 (h[0], h[1], d, row_elems);
  }
  free (mem);
  return CE_STATUS_OK;
}
