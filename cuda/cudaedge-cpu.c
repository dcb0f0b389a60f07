/* gst-cudaedge compute core: the fast CPU edge chain.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Gives the same bytes as ce_ref_edge_frame() (docs/numerics.md, "Edge
 * detection"), row band by row band, without the reference's per-tap
 * border logic:
 *
 *   source row --luma--> padded luma row (W + 4, 2 border columns a side)
 *     --horizontal 5-tap--> ring of 5 rows of horizontal sums (uint16,
 *     <= 4080), tagged by Y row
 *     --vertical 5-tap--> ring of 3 B rows (uint16, <= 65280, W + 2 with one
 *     border column a side), tagged by B row
 *     --separable Sobel + threshold / magnitude--> output row.
 *
 * Only the few border columns and the row indices go through
 * ce_border_index(); rows outside the frame map through it too (the zero
 * mode to a row of zeros).  The rows a window reads, once mapped, always
 * lie inside the window's own span of rows (even with reflect folding on
 * frames of 1 or 2 rows), so "row mod ring size" never evicts a row that
 * the same window still needs.
 *
 * Inner loops are split into chunks of a constant CE_CPU_CHUNK pixels plus
 * a tail, over restrict pointers, so that gcc -O2 (whose "very cheap"
 * vectoriser wants a trip count known to be a multiple of the vector
 * length) vectorises them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

#define CE_CPU_CHUNK 32

/* Runs `span (args..., x, n)` over [0, n_total) in constant-size chunks
 * and a tail. */
#define CE_CHUNKED(n_total, call_chunk, call_tail) do { \
    int x_ = 0; \
    for (; x_ + CE_CPU_CHUNK <= (n_total); x_ += CE_CPU_CHUNK) { \
      const int xo = x_; const int nn = CE_CPU_CHUNK; \
      (void) xo; (void) nn; call_chunk; \
    } \
    if (x_ < (n_total)) { \
      const int xo = x_; const int nn = (n_total) - x_; \
      (void) xo; (void) nn; call_tail; \
    } \
  } while (0)

typedef struct
{
  const ce_frame *src;
  ce_luma_layout layout;
  int w, h;
  ce_border_mode border;
  int blur;

  uint8_t *lrow;                /* W + 4: luma, 2 border columns a side */
  uint16_t *hs[5];              /* W: horizontal sums of Y row hs_tag[i] */
  int hs_tag[5];
  uint16_t *hzero;              /* W zeros */
  uint16_t *b[3];               /* W + 2: B row b_tag[i], 1 border column */
  int b_tag[3];
  uint16_t *bzero;              /* W + 2 zeros */
  int32_t *v;                   /* W + 2: t + 2 m + b (vertical smooth) */
  int32_t *d;                   /* W + 2: b - t (vertical difference) */
  void *mem;
} ce_cpu_ctx;

/* ---- luma ---- */

CE_INLINE void
luma_y_span (uint8_t * restrict dst, const uint8_t * restrict s, int bpp,
    int n)
{
  for (int x = 0; x < n; x++)
    dst[x] = s[x * bpp];
}

CE_INLINE void
luma_rgb_span (uint8_t * restrict dst, const uint8_t * restrict s, int bpp,
    int ro, int go, int bo, int n)
{
  for (int x = 0; x < n; x++) {
    unsigned r = s[x * bpp + ro], g = s[x * bpp + go], b = s[x * bpp + bo];
    dst[x] = (uint8_t) ((77u * r + 150u * g + 29u * b + 128u) >> 8);
  }
}

static void
luma_rgb3 (uint8_t * restrict dst, const uint8_t * restrict s, int ro, int go,
    int bo, int w)
{
  CE_CHUNKED (w,
      luma_rgb_span (dst + xo, s + (size_t) xo * 3, 3, ro, go, bo, nn),
      luma_rgb_span (dst + xo, s + (size_t) xo * 3, 3, ro, go, bo, nn));
}

static void
luma_rgb4 (uint8_t * restrict dst, const uint8_t * restrict s, int ro, int go,
    int bo, int w)
{
  CE_CHUNKED (w,
      luma_rgb_span (dst + xo, s + (size_t) xo * 4, 4, ro, go, bo, nn),
      luma_rgb_span (dst + xo, s + (size_t) xo * 4, 4, ro, go, bo, nn));
}

static void
luma_y2 (uint8_t * restrict dst, const uint8_t * restrict s, int w)
{
  CE_CHUNKED (w, luma_y_span (dst + xo, s + (size_t) xo * 2, 2, nn),
      luma_y_span (dst + xo, s + (size_t) xo * 2, 2, nn));
}

/* Luma of source row y (0 <= y < H) into c->lrow, with the 2 border
 * columns each side filled by the border rule. */
static void
load_luma_row (ce_cpu_ctx * c, int y)
{
  const ce_luma_layout *l = &c->layout;
  const uint8_t *s = c->src->data + (size_t) y * c->src->stride;
  uint8_t *dst = c->lrow + 2;
  int w = c->w;

  if (l->is_rgb) {
    if (l->bytes_per_pixel == 3)
      luma_rgb3 (dst, s, l->r_offset, l->g_offset, l->b_offset, w);
    else
      luma_rgb4 (dst, s, l->r_offset, l->g_offset, l->b_offset, w);
  } else if (l->bytes_per_pixel == 1) {
    memcpy (dst, s + l->y_offset, (size_t) w);
  } else if (l->bytes_per_pixel == 2) {
    luma_y2 (dst, s + l->y_offset, w);
  } else {
    /* Not used by any format today; kept general. */
    for (int x = 0; x < w; x++)
      dst[x] = s[(size_t) x * l->bytes_per_pixel + l->y_offset];
  }
  for (int k = 1; k <= 2; k++) {
    int il = ce_border_index (-k, w, c->border);
    int ir = ce_border_index (w - 1 + k, w, c->border);
    dst[-k] = il < 0 ? 0 : dst[il];
    dst[w - 1 + k] = ir < 0 ? 0 : dst[ir];
  }
}

/* ---- blur ---- */

CE_INLINE void
hsum_span (uint16_t * restrict h, const uint8_t * restrict l, int n)
{
  for (int x = 0; x < n; x++)
    h[x] = (uint16_t) (l[x] + l[x + 4] + 4 * (l[x + 1] + l[x + 3])
        + 6 * l[x + 2]);
}

CE_INLINE void
vsum_span (uint16_t * restrict b, const uint16_t * restrict h0,
    const uint16_t * restrict h1, const uint16_t * restrict h2,
    const uint16_t * restrict h3, const uint16_t * restrict h4, int n)
{
  /* 16 * 4080 = 65280: no uint16 overflow. */
  for (int x = 0; x < n; x++)
    b[x] = (uint16_t) (h0[x] + h4[x] + 4 * (h1[x] + h3[x]) + 6 * h2[x]);
}

CE_INLINE void
widen_span (uint16_t * restrict b, const uint8_t * restrict l, int n)
{
  for (int x = 0; x < n; x++)
    b[x] = l[x];
}

/* Horizontal sums of Y row y, -1 meaning the zero row. */
static const uint16_t *
get_hsum (ce_cpu_ctx * c, int y)
{
  int slot;
  uint16_t *h;
  const uint8_t *l;

  if (y < 0)
    return c->hzero;
  slot = y % 5;
  h = c->hs[slot];
  if (c->hs_tag[slot] == y)
    return h;
  load_luma_row (c, y);
  l = c->lrow;
  CE_CHUNKED (c->w, hsum_span (h + xo, l + xo, nn),
      hsum_span (h + xo, l + xo, nn));
  c->hs_tag[slot] = y;
  return h;
}

/* B row r (0 <= r < H), with one border column each side. */
static const uint16_t *
get_brow (ce_cpu_ctx * c, int r)
{
  int slot, w = c->w, il, ir;
  uint16_t *b, *bi;

  if (r < 0)
    return c->bzero;
  slot = r % 3;
  b = c->b[slot];
  if (c->b_tag[slot] == r)
    return b;
  bi = b + 1;
  if (c->blur) {
    const uint16_t *h[5];
    for (int i = 0; i < 5; i++)
      h[i] = get_hsum (c, ce_border_index (r + i - 2, c->h, c->border));
    CE_CHUNKED (w,
        vsum_span (bi + xo, h[0] + xo, h[1] + xo, h[2] + xo, h[3] + xo,
            h[4] + xo, nn),
        vsum_span (bi + xo, h[0] + xo, h[1] + xo, h[2] + xo, h[3] + xo,
            h[4] + xo, nn));
  } else {
    const uint8_t *l;
    load_luma_row (c, r);
    l = c->lrow + 2;
    CE_CHUNKED (w, widen_span (bi + xo, l + xo, nn),
        widen_span (bi + xo, l + xo, nn));
  }
  il = ce_border_index (-1, w, c->border);
  ir = ce_border_index (w, w, c->border);
  b[0] = il < 0 ? 0 : bi[il];
  b[w + 1] = ir < 0 ? 0 : bi[ir];
  c->b_tag[slot] = r;
  return b;
}

/* ---- Sobel and output ---- */

CE_INLINE void
vsobel_span (int32_t * restrict v, int32_t * restrict d,
    const uint16_t * restrict t, const uint16_t * restrict m,
    const uint16_t * restrict b, int n)
{
  for (int x = 0; x < n; x++) {
    v[x] = (int32_t) t[x] + 2 * (int32_t) m[x] + (int32_t) b[x];
    d[x] = (int32_t) b[x] - (int32_t) t[x];
  }
}

/* gx = v[x+2] - v[x], gy = d[x] + 2 d[x+1] + d[x+2] (padded indices). */
#define GX(x) (v[(x) + 2] - v[(x)])
#define GY(x) (d[(x)] + 2 * d[(x) + 1] + d[(x) + 2])

CE_INLINE void
out_l1_edges_span (uint8_t * restrict o, const int32_t * restrict v,
    const int32_t * restrict d, int32_t limit, int n)
{
  for (int x = 0; x < n; x++) {
    int32_t gx = GX (x), gy = GY (x);
    int32_t s = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
    o[x] = s > limit ? 255 : 0;
  }
}

CE_INLINE void
out_l1_mag_span (uint8_t * restrict o, const int32_t * restrict v,
    const int32_t * restrict d, int32_t half_scale, int shift, int n)
{
  for (int x = 0; x < n; x++) {
    int32_t gx = GX (x), gy = GY (x);
    int32_t s = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
    /* floor ((2 s + S) / (2 S)) = (2 s + S) >> log2 (2 S) */
    int32_t k = (2 * s + half_scale) >> shift;
    o[x] = (uint8_t) (k > 255 ? 255 : k);
  }
}

/* l2 edges, gx^2 + gy^2 > K, decided in floats where that is certain:
 * |g| < 2^18 is exact in a float, and the float n is within 2^-22 of n
 * (relative), so n > K where nf > hi = K (1 + 2^-16) and n <= K where
 * nf <= lo = K (1 - 2^-16) (K = 0: lo = hi = 0, exact).  Returns nonzero
 * when some pixel fell in between; the caller then redoes the span in
 * exact integers (which real images almost never need). */
CE_INLINE int
out_l2_edges_span (uint8_t * restrict o, const int32_t * restrict v,
    const int32_t * restrict d, float lo, float hi, int n)
{
  int amb = 0;
  for (int x = 0; x < n; x++) {
    float gx = (float) GX (x), gy = (float) GY (x);
    float nf = gx * gx + gy * gy;
    o[x] = nf > hi ? 255 : 0;
    amb |= (nf > lo) & (nf <= hi);
  }
  return amb;
}

static void
out_l2_edges_exact (uint8_t * restrict o, const int32_t * restrict v,
    const int32_t * restrict d, int64_t limit, int n)
{
  for (int x = 0; x < n; x++) {
    int64_t gx = GX (x), gy = GY (x);
    o[x] = gx * gx + gy * gy > limit ? 255 : 0;
  }
}

static void
out_l2_mag_row (uint8_t * restrict o, const int32_t * restrict v,
    const int32_t * restrict d, int scale, int shift, int n)
{
  /* 4 n < 2^39 < 2^52: sqrt of an integer this small, correctly rounded,
   * never rounds up to the next integer, so truncation is floor (sqrt). */
  for (int x = 0; x < n; x++) {
    double gx = GX (x), gy = GY (x);
    double q = 4.0 * (gx * gx + gy * gy);
    int32_t r = q > 0.0 ? (int32_t) sqrt (q) : 0;
    int32_t k = (r + scale) >> shift;
    o[x] = (uint8_t) (k > 255 ? 255 : k);
  }
}

#undef GX
#undef GY

static void
edge_row (ce_cpu_ctx * c, const ce_edge_consts * k, int r, uint8_t * out)
{
  const uint16_t *t = get_brow (c, ce_border_index (r - 1, c->h, c->border));
  const uint16_t *m = get_brow (c, ce_border_index (r, c->h, c->border));
  const uint16_t *b = get_brow (c, ce_border_index (r + 1, c->h, c->border));
  int32_t *v = c->v, *d = c->d;
  int w = c->w;
  int shift = k->scale == CE_BLUR_SCALE ? 9 : 1;    /* log2 (2 S) */

  CE_CHUNKED (w + 2, vsobel_span (v + xo, d + xo, t + xo, m + xo, b + xo,
          nn), vsobel_span (v + xo, d + xo, t + xo, m + xo, b + xo, nn));

  if (k->norm == CE_NORM_L1) {
    if (k->output == CE_OUTPUT_EDGES) {
      /* limit = floor (S t) <= 524288 */
      int32_t limit = (int32_t) k->limit;
      CE_CHUNKED (w, out_l1_edges_span (out + xo, v + xo, d + xo, limit, nn),
          out_l1_edges_span (out + xo, v + xo, d + xo, limit, nn));
    } else {
      int32_t s = k->scale;
      CE_CHUNKED (w,
          out_l1_mag_span (out + xo, v + xo, d + xo, s, shift, nn),
          out_l1_mag_span (out + xo, v + xo, d + xo, s, shift, nn));
    }
  } else {
    if (k->output == CE_OUTPUT_EDGES) {
      /* K <= 2^38: exact in a double; the float bounds round outwards
       * by far less than the 2^-16 margin. */
      float lo = (float) ((double) k->limit * (1.0 - 1.0 / 65536));
      float hi = (float) ((double) k->limit * (1.0 + 1.0 / 65536));
      CE_CHUNKED (w,
          if (out_l2_edges_span (out + xo, v + xo, d + xo, lo, hi, nn))
            out_l2_edges_exact (out + xo, v + xo, d + xo, k->limit, nn),
          if (out_l2_edges_span (out + xo, v + xo, d + xo, lo, hi, nn))
            out_l2_edges_exact (out + xo, v + xo, d + xo, k->limit, nn));
    } else {
      out_l2_mag_row (out, v, d, k->scale, shift, w);
    }
  }
}

/* ---- entry point ---- */

static ce_status
ctx_init (ce_cpu_ctx * c, const ce_frame * src, const ce_edge_consts * k)
{
  size_t w = (size_t) src->width;
  size_t n16 = 5 * w + w + 4 * (w + 2);
  size_t n32 = 2 * (w + 2);
  size_t bytes = n32 * sizeof (int32_t) + n16 * sizeof (uint16_t) + (w + 4);
  uint16_t *p16;
  int32_t *p32;

  memset (c, 0, sizeof *c);
  c->src = src;
  ce_luma_layout_get (src->format, &c->layout);
  c->w = src->width;
  c->h = src->height;
  c->border = k->border;
  c->blur = k->blur;

  c->mem = calloc (1, bytes);
  if (c->mem == NULL) {
    ce_set_error ("cannot allocate %zu bytes of CPU edge scratch", bytes);
    return CE_STATUS_OUT_OF_MEMORY;
  }
  p32 = c->mem;
  c->v = p32;
  c->d = p32 + (w + 2);
  p16 = (uint16_t *) (p32 + n32);
  for (int i = 0; i < 5; i++) {
    c->hs[i] = p16 + i * w;
    c->hs_tag[i] = -1;
  }
  c->hzero = p16 + 5 * w;
  p16 += 6 * w;
  for (int i = 0; i < 3; i++) {
    c->b[i] = p16 + i * (w + 2);
    c->b_tag[i] = -1;
  }
  c->bzero = p16 + 3 * (w + 2);
  c->lrow = (uint8_t *) (p16 + 4 * (w + 2));
  return CE_STATUS_OK;
}

ce_status
ce_cpu_edge_rows (const ce_frame * src, const ce_edge_params * params,
    int row0, int row1, uint8_t * dst, size_t dst_stride)
{
  ce_edge_consts consts;
  ce_status status;
  ce_cpu_ctx c;

  if ((status = ce_frame_validate (src)) != CE_STATUS_OK)
    return status;
  if ((status = ce_edge_consts_init (&consts, params)) != CE_STATUS_OK)
    return status;
  if (row0 < 0 || row0 >= src->height) {
    ce_set_error ("row0 must be in [0, %d) (got %d)", src->height, row0);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (row1 <= row0 || row1 > src->height) {
    ce_set_error ("row1 must be in (row0 = %d, height = %d] (got %d)", row0,
        src->height, row1);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_plane (dst_stride, (size_t) src->width, row1,
              "dst stride")) != CE_STATUS_OK)
    return status;

  if ((status = ctx_init (&c, src, &consts)) != CE_STATUS_OK)
    return status;
  for (int r = row0; r < row1; r++)
    edge_row (&c, &consts, r, dst + (size_t) r * dst_stride);
  free (c.mem);
  return CE_STATUS_OK;
}
