/* gst-cudaedge compute core: the CPU reference.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Single-threaded and written to be read next to docs/numerics.md; the
 * GPU kernels must give the same bytes.  Every read outside the frame goes
 * through ce_border_index(), the rule that both sides share.
 */
#include <stdlib.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

static const int gauss5[5] = CE_BLUR_TAPS;

#define ROW(type, base, stride, y) \
  ((type *) ((uint8_t *) (base) + (size_t) (y) * (stride)))
#define CROW(type, base, stride, y) \
  ((const type *) ((const uint8_t *) (base) + (size_t) (y) * (stride)))

static ce_status
check_image (const void *data, const char *data_name, size_t stride,
    const char *stride_name, int width, int height, size_t bytes_per_pixel,
    size_t elem)
{
  ce_status status;

  if ((status = ce_check_pointer (data, data_name)) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_size (width, height)) != CE_STATUS_OK)
    return status;
  /* Rows of elem-byte values (16- and 32-bit ones) start where such
   * values may be read. */
  if ((uintptr_t) data % elem || stride % elem) {
    ce_set_error ("%s and %s must be multiples of %zu bytes", data_name,
        stride_name, elem);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return ce_check_plane (stride, (size_t) width * bytes_per_pixel, height,
      stride_name);
}

static ce_status
check_border (ce_border_mode border)
{
  if ((unsigned) border <= CE_BORDER_REFLECT)
    return CE_STATUS_OK;
  ce_set_error ("border mode %d is not a ce_border_mode", border);
  return CE_STATUS_INVALID_ARGUMENT;
}

ce_status
ce_ref_luma (const ce_frame * src, uint8_t * dst, size_t dst_stride)
{
  ce_luma_layout l;
  ce_status status;
  int x, y;

  if ((status = ce_frame_validate (src)) != CE_STATUS_OK)
    return status;
  if ((status = check_image (dst, "dst", dst_stride, "dst stride",
              src->width, src->height, 1, 1)) != CE_STATUS_OK)
    return status;
  ce_luma_layout_get (src->format, &l);

  for (y = 0; y < src->height; y++) {
    const uint8_t *s = CROW (uint8_t, src->data, src->stride, y);
    uint8_t *d = ROW (uint8_t, dst, dst_stride, y);

    for (x = 0; x < src->width; x++) {
      const uint8_t *p = s + (size_t) x * l.bytes_per_pixel;

      d[x] = l.is_rgb ? ce_rgb_to_luma (p[l.r_offset], p[l.g_offset],
          p[l.b_offset]) : p[l.y_offset];
    }
  }
  return CE_STATUS_OK;
}

/* Y (x, y) with the border rule. */
static int
read_u8 (const uint8_t * img, size_t stride, int width, int height, int x,
    int y, ce_border_mode border)
{
  int ix = ce_border_index (x, width, border);
  int iy = ce_border_index (y, height, border);

  if (ix < 0 || iy < 0)
    return 0;
  return CROW (uint8_t, img, stride, iy)[ix];
}

/* B (x, y) with the border rule. */
static int
read_u16 (const uint16_t * img, size_t stride, int width, int height, int x,
    int y, ce_border_mode border)
{
  int ix = ce_border_index (x, width, border);
  int iy = ce_border_index (y, height, border);

  if (ix < 0 || iy < 0)
    return 0;
  return CROW (uint16_t, img, stride, iy)[ix];
}

ce_status
ce_ref_blur (const uint8_t * y, size_t y_stride, int width, int height,
    ce_border_mode border, uint16_t * dst, size_t dst_stride)
{
  ce_status status;
  int px, py, i, j;

  if ((status = check_image (y, "luma", y_stride, "luma stride", width,
              height, 1, 1)) != CE_STATUS_OK)
    return status;
  if ((status = check_image (dst, "dst", dst_stride, "dst stride", width,
              height, 2, sizeof (uint16_t))) != CE_STATUS_OK)
    return status;
  if ((status = check_border (border)) != CE_STATUS_OK)
    return status;

  for (py = 0; py < height; py++) {
    for (px = 0; px < width; px++) {
      int sum = 0;

      for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++)
          sum += gauss5[i] * gauss5[j] *
              read_u8 (y, y_stride, width, height, px + j - 2, py + i - 2,
              border);
      ROW (uint16_t, dst, dst_stride, py)[px] = (uint16_t) sum;
    }
  }
  return CE_STATUS_OK;
}

ce_status
ce_ref_sobel (const uint16_t * b, size_t b_stride, int width, int height,
    ce_border_mode border, int32_t * dst, size_t dst_stride)
{
  ce_status status;
  int x, y;

  if ((status = check_image (b, "b", b_stride, "b stride", width, height,
              2, sizeof (uint16_t))) != CE_STATUS_OK)
    return status;
  if ((status = check_image (dst, "dst", dst_stride, "dst stride", width,
              height, 8, sizeof (int32_t))) != CE_STATUS_OK)
    return status;
  if ((status = check_border (border)) != CE_STATUS_OK)
    return status;

  for (y = 0; y < height; y++) {
    int32_t *d = ROW (int32_t, dst, dst_stride, y);

    for (x = 0; x < width; x++) {
#define B(dx, dy) read_u16 (b, b_stride, width, height, x + (dx), y + (dy), border)
      int gx = (B (1, -1) + 2 * B (1, 0) + B (1, 1))
          - (B (-1, -1) + 2 * B (-1, 0) + B (-1, 1));
      int gy = (B (-1, 1) + 2 * B (0, 1) + B (1, 1))
          - (B (-1, -1) + 2 * B (0, -1) + B (1, -1));
#undef B
      d[2 * (size_t) x] = gx;
      d[2 * (size_t) x + 1] = gy;
    }
  }
  return CE_STATUS_OK;
}

ce_status
ce_ref_threshold (const int32_t * grad, size_t grad_stride, int width,
    int height, const ce_edge_consts * consts, uint8_t * dst,
    size_t dst_stride)
{
  ce_status status;
  int x, y;

  if ((status = ce_check_pointer (consts, "consts")) != CE_STATUS_OK)
    return status;
  /* Made by ce_edge_consts_init, or by hand: the scale divides. */
  if (consts->scale != 1 && consts->scale != CE_BLUR_SCALE) {
    ce_set_error ("consts scale must be 1 or %d (got %d)", CE_BLUR_SCALE,
        consts->scale);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((unsigned) consts->norm > CE_NORM_L1
      || (unsigned) consts->output > CE_OUTPUT_MAGNITUDE) {
    ce_set_error ("consts norm %d or output %d is not one of the enums",
        consts->norm, consts->output);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  /* As the kernels' launchers do: ce_edge_consts_init never makes a
   * negative limit. */
  if (consts->limit < 0) {
    ce_set_error ("consts limit must not be negative (got %lld)",
        (long long) consts->limit);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = check_image (grad, "grad", grad_stride, "grad stride",
              width, height, 8, sizeof (int32_t))) != CE_STATUS_OK)
    return status;
  if ((status = check_image (dst, "dst", dst_stride, "dst stride", width,
              height, 1, 1)) != CE_STATUS_OK)
    return status;
  for (y = 0; y < height; y++) {
    const int32_t *g = CROW (int32_t, grad, grad_stride, y);

    for (x = 0; x < 2 * width; x++)
      if (g[x] < -CE_REF_GRAD_MAX || g[x] > CE_REF_GRAD_MAX) {
        ce_set_error ("gradient %d at (%d, %d) is beyond +-%d", g[x], x / 2,
            y, CE_REF_GRAD_MAX);
        return CE_STATUS_INVALID_ARGUMENT;
      }
  }

  for (y = 0; y < height; y++) {
    const int32_t *g = CROW (int32_t, grad, grad_stride, y);
    uint8_t *d = ROW (uint8_t, dst, dst_stride, y);

    for (x = 0; x < width; x++)
      d[x] = ce_edge_value (g[2 * (size_t) x], g[2 * (size_t) x + 1],
          consts->limit,
          consts->scale, consts->norm, consts->output);
  }
  return CE_STATUS_OK;
}

ce_status
ce_ref_edge (const uint8_t * y, size_t y_stride, int width, int height,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride)
{
  ce_edge_consts consts;
  ce_status status;
  uint16_t *b = NULL;
  int32_t *grad = NULL;
  size_t b_stride = (size_t) width * sizeof (uint16_t);
  size_t grad_stride = (size_t) width * 2 * sizeof (int32_t);
  int px, py;

  if ((status = ce_edge_consts_init (&consts, params)) != CE_STATUS_OK)
    return status;
  if ((status = check_image (y, "luma", y_stride, "luma stride", width,
              height, 1, 1)) != CE_STATUS_OK)
    return status;
  if ((status = check_image (dst, "dst", dst_stride, "dst stride", width,
              height, 1, 1)) != CE_STATUS_OK)
    return status;

  b = malloc (b_stride * height);
  grad = malloc (grad_stride * height);
  if (b == NULL || grad == NULL) {
    ce_set_error ("cannot allocate %dx%d reference scratch", width, height);
    status = CE_STATUS_OUT_OF_MEMORY;
    goto out;
  }

  if (consts.blur) {
    status = ce_ref_blur (y, y_stride, width, height, params->border, b,
        b_stride);
  } else {
    for (py = 0; py < height; py++)
      for (px = 0; px < width; px++)
        ROW (uint16_t, b, b_stride, py)[px] =
            CROW (uint8_t, y, y_stride, py)[px];
  }
  if (status == CE_STATUS_OK)
    status = ce_ref_sobel (b, b_stride, width, height, params->border, grad,
        grad_stride);
  if (status == CE_STATUS_OK)
    status = ce_ref_threshold (grad, grad_stride, width, height, &consts,
        dst, dst_stride);

out:
  free (b);
  free (grad);
  return status;
}

ce_status
ce_ref_edge_frame (const ce_frame * src, const ce_edge_params * params,
    uint8_t * dst, size_t dst_stride)
{
  ce_luma_layout layout;
  ce_status status;
  uint8_t *luma;

  if ((status = ce_frame_validate (src)) != CE_STATUS_OK)
    return status;
  if ((status = ce_edge_params_validate (params)) != CE_STATUS_OK)
    return status;
  ce_luma_layout_get (src->format, &layout);
  /* Planar and semi-planar YUV: plane 0 is the luma itself. */
  if (layout.bytes_per_pixel == 1)
    return ce_ref_edge (src->data, src->stride, src->width, src->height,
        params, dst, dst_stride);

  /* The output first, as ce_cpu_edge_rows checks it: before any scratch
   * is allocated or any pixel read. */
  if ((status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_plane (dst_stride, (size_t) src->width,
              src->height, "dst stride")) != CE_STATUS_OK)
    return status;
  luma = malloc ((size_t) src->width * src->height);
  if (luma == NULL) {
    ce_set_error ("cannot allocate %dx%d luma scratch", src->width,
        src->height);
    return CE_STATUS_OUT_OF_MEMORY;
  }
  status = ce_ref_luma (src, luma, src->width);
  if (status == CE_STATUS_OK)
    status = ce_ref_edge (luma, src->width, src->width, src->height, params,
        dst, dst_stride);
  free (luma);
  return status;
}

ce_status
ce_ref_upscale2x (const uint8_t * src, size_t src_stride, int width,
    int height, int bytes_per_pixel, uint8_t * dst, size_t dst_stride)
{
  ce_status status;
  int i, j, c;

  if (bytes_per_pixel != 1 && bytes_per_pixel != 4) {
    ce_set_error ("bytes_per_pixel must be 1 or 4 (got %d)", bytes_per_pixel);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = check_image (src, "src", src_stride, "src stride", width,
              height, bytes_per_pixel, 1)) != CE_STATUS_OK)
    return status;
  if (width > CE_UPSCALE_MAX_SIZE || height > CE_UPSCALE_MAX_SIZE) {
    ce_set_error ("%dx%d is too large to upscale", width, height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  /* The output may be larger than CE_MAX_SIZE a side: its plane only. */
  if ((status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_plane (dst_stride, 2 * (size_t) width *
              bytes_per_pixel, 2 * height, "dst stride")) != CE_STATUS_OK)
    return status;

  for (j = 0; j < 2 * height; j++) {
    int py, py1, fy;
    uint8_t *d = ROW (uint8_t, dst, dst_stride, j);

    ce_upscale_axis (j, height, &py, &py1, &fy);
    for (i = 0; i < 2 * width; i++) {
      int px, px1, fx;
      const uint8_t *r0, *r1;

      ce_upscale_axis (i, width, &px, &px1, &fx);
      r0 = CROW (uint8_t, src, src_stride, py);
      r1 = CROW (uint8_t, src, src_stride, py1);
      for (c = 0; c < bytes_per_pixel; c++) {
        const size_t o = (size_t) px * bytes_per_pixel + c;
        const size_t o1 = (size_t) px1 * bytes_per_pixel + c;

        d[(size_t) i * bytes_per_pixel + c] =
            ce_bilinear (r0[o], r0[o1], r1[o], r1[o1], fx, fy);
      }
    }
  }
  return CE_STATUS_OK;
}
