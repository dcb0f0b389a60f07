/* gst-cudaedge compute core: status, parameters, formats, comparisons.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

static _Thread_local char last_error[256] = "no error";

const char *
ce_status_string (ce_status status)
{
  switch (status) {
    case CE_STATUS_OK:
      return "success";
    case CE_STATUS_INVALID_ARGUMENT:
      return "invalid argument";
    case CE_STATUS_OUT_OF_MEMORY:
      return "out of memory";
    case CE_STATUS_NO_DEVICE:
      return "no usable CUDA device";
    case CE_STATUS_CUDA_ERROR:
      return "CUDA error";
    case CE_STATUS_NOT_BUILT:
      return "built without CUDA support";
  }
  return "unknown status";
}

const char *
ce_last_error (void)
{
  return last_error;
}

void
ce_set_last_error (const char *message)
{
  char copy[sizeof (last_error)];

  /* message may be this thread's own message, or a part of it */
  snprintf (copy, sizeof (copy), "%s", message ? message : "no error");
  memcpy (last_error, copy, sizeof (copy));
}

void
ce_set_error (const char *fmt, ...)
{
  va_list args;

  va_start (args, fmt);
  vsnprintf (last_error, sizeof (last_error), fmt, args);
  va_end (args);
}

ce_status
ce_check_pointer (const void *ptr, const char *name)
{
  if (ptr != NULL)
    return CE_STATUS_OK;
  ce_set_error ("%s must not be NULL", name);
  return CE_STATUS_INVALID_ARGUMENT;
}

ce_status
ce_check_size (int width, int height)
{
  if (width < 1) {
    ce_set_error ("width must be at least 1 (got %d)", width);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (height < 1) {
    ce_set_error ("height must be at least 1 (got %d)", height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (width > CE_MAX_SIZE || height > CE_MAX_SIZE) {
    ce_set_error ("%dx%d is too large (at most %d a side)", width, height,
        CE_MAX_SIZE);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

ce_status
ce_check_stride (size_t stride, size_t row_bytes, const char *name)
{
  if (stride < row_bytes) {
    ce_set_error ("%s must be at least the row size %zu (got %zu)", name,
        row_bytes, stride);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  /* A negative stride cast to size_t, or one no frame could have. */
  if (stride > (size_t) PTRDIFF_MAX) {
    ce_set_error ("%s %zu is too large", name, stride);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

ce_status
ce_check_plane (size_t stride, size_t row_bytes, int rows, const char *name)
{
  ce_status status;

  if ((status = ce_check_stride (stride, row_bytes, name)) != CE_STATUS_OK)
    return status;
  /* (rows - 1) stride + row_bytes addressable from the plane's start */
  if (rows > 1 && row_bytes <= (size_t) PTRDIFF_MAX
      && stride <= ((size_t) PTRDIFF_MAX - row_bytes) / (size_t) (rows - 1))
    return CE_STATUS_OK;
  if (rows <= 1 && row_bytes <= (size_t) PTRDIFF_MAX)
    return CE_STATUS_OK;
  ce_set_error ("%s %zu with %d rows of %zu bytes spans more than memory can "
      "hold", name, stride, rows, row_bytes);
  return CE_STATUS_INVALID_ARGUMENT;
}

void
ce_edge_params_init (ce_edge_params * params)
{
  params->threshold = CE_EDGE_DEFAULT_THRESHOLD;
  params->blur = CE_EDGE_DEFAULT_BLUR;
  params->border = CE_EDGE_DEFAULT_BORDER;
  params->norm = CE_EDGE_DEFAULT_NORM;
  params->output = CE_EDGE_DEFAULT_OUTPUT;
}

ce_status
ce_edge_params_validate (const ce_edge_params * params)
{
  if (params == NULL)
    return ce_check_pointer (params, "params");
  /* Written so that NaN fails too. */
  if (!(params->threshold >= 0.0 && params->threshold <= CE_THRESHOLD_MAX)) {
    ce_set_error ("threshold must be in [0, %g] (got %g)", CE_THRESHOLD_MAX,
        params->threshold);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((unsigned) params->border > CE_BORDER_REFLECT) {
    ce_set_error ("border mode %d is not a ce_border_mode", params->border);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((unsigned) params->norm > CE_NORM_L1) {
    ce_set_error ("norm %d is not a ce_norm", params->norm);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((unsigned) params->output > CE_OUTPUT_MAGNITUDE) {
    ce_set_error ("output %d is not a ce_output", params->output);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

/* floor (v * v) exactly for 0 <= v < 2^20.  p = v * v rounded, and
 * fma (v, v, -p) is the rounding error e exactly, so v^2 = p + e.  Every
 * integer near p is a multiple of ulp (p), while |e| <= ulp (p) / 2: when p
 * is not an integer, p + e has p's floor; when it is, v^2 is just below it
 * if e < 0. */
static int64_t
floor_square (double v)
{
  double p = v * v;
  double e = fma (v, v, -p);
  double f = floor (p);

  return (int64_t) f - (f == p && e < 0.0);
}

ce_status
ce_edge_consts_init (ce_edge_consts * consts, const ce_edge_params * params)
{
  ce_status status;
  double st;

  if ((status = ce_check_pointer (consts, "consts")) != CE_STATUS_OK)
    return status;
  if ((status = ce_edge_params_validate (params)) != CE_STATUS_OK)
    return status;

  consts->scale = params->blur ? CE_BLUR_SCALE : 1;
  consts->blur = params->blur ? 1 : 0;
  consts->border = params->border;
  consts->norm = params->norm;
  consts->output = params->output;
  /* S is a power of two, so S t is exact. */
  st = params->threshold * consts->scale;
  if (params->norm == CE_NORM_L2)
    consts->limit = floor_square (st);
  else
    consts->limit = (int64_t) floor (st);
  return CE_STATUS_OK;
}

#define RGB_LAYOUT(bpp, r, g, b) { bpp, 1, 0, r, g, b }
#define Y_LAYOUT(bpp, y) { bpp, 0, y, 0, 0, 0 }

static const struct
{
  const char *name;
  ce_luma_layout layout;
} formats[CE_FORMAT_COUNT] = {
  [CE_FORMAT_GRAY8] = {"GRAY8", Y_LAYOUT (1, 0)},
  [CE_FORMAT_I420] = {"I420", Y_LAYOUT (1, 0)},
  [CE_FORMAT_YV12] = {"YV12", Y_LAYOUT (1, 0)},
  [CE_FORMAT_NV12] = {"NV12", Y_LAYOUT (1, 0)},
  [CE_FORMAT_NV21] = {"NV21", Y_LAYOUT (1, 0)},
  [CE_FORMAT_Y42B] = {"Y42B", Y_LAYOUT (1, 0)},
  [CE_FORMAT_Y444] = {"Y444", Y_LAYOUT (1, 0)},
  [CE_FORMAT_YUY2] = {"YUY2", Y_LAYOUT (2, 0)},
  [CE_FORMAT_UYVY] = {"UYVY", Y_LAYOUT (2, 1)},
  [CE_FORMAT_RGB] = {"RGB", RGB_LAYOUT (3, 0, 1, 2)},
  [CE_FORMAT_BGR] = {"BGR", RGB_LAYOUT (3, 2, 1, 0)},
  [CE_FORMAT_RGBA] = {"RGBA", RGB_LAYOUT (4, 0, 1, 2)},
  [CE_FORMAT_BGRA] = {"BGRA", RGB_LAYOUT (4, 2, 1, 0)},
  [CE_FORMAT_ARGB] = {"ARGB", RGB_LAYOUT (4, 1, 2, 3)},
  [CE_FORMAT_ABGR] = {"ABGR", RGB_LAYOUT (4, 3, 2, 1)},
  [CE_FORMAT_RGBx] = {"RGBx", RGB_LAYOUT (4, 0, 1, 2)},
  [CE_FORMAT_BGRx] = {"BGRx", RGB_LAYOUT (4, 2, 1, 0)},
  [CE_FORMAT_xRGB] = {"xRGB", RGB_LAYOUT (4, 1, 2, 3)},
  [CE_FORMAT_xBGR] = {"xBGR", RGB_LAYOUT (4, 3, 2, 1)},
};

ce_status
ce_luma_layout_get (ce_format format, ce_luma_layout * layout)
{
  ce_status status;

  if ((status = ce_check_pointer (layout, "layout")) != CE_STATUS_OK)
    return status;
  if ((unsigned) format >= CE_FORMAT_COUNT) {
    ce_set_error ("format %d is not a ce_format", format);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  *layout = formats[format].layout;
  return CE_STATUS_OK;
}

const char *
ce_format_name (ce_format format)
{
  if ((unsigned) format >= CE_FORMAT_COUNT)
    return "unknown";
  return formats[format].name;
}

ce_status
ce_frame_validate (const ce_frame * frame)
{
  ce_luma_layout layout;
  ce_status status;

  if ((status = ce_check_pointer (frame, "frame")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_pointer (frame->data, "frame data")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_size (frame->width, frame->height)) != CE_STATUS_OK)
    return status;
  if ((status = ce_luma_layout_get (frame->format, &layout)) != CE_STATUS_OK)
    return status;
  return ce_check_plane (frame->stride,
      (size_t) frame->width * layout.bytes_per_pixel, frame->height,
      "frame stride");
}

uint64_t
ce_compare_pixels (const uint8_t * expected, size_t expected_stride,
    const uint8_t * got, size_t got_stride, int width, int height,
    int bytes_per_pixel, ce_diff * diff)
{
  size_t row_bytes = (size_t) width * bytes_per_pixel;
  uint64_t count = 0;
  int x, y, c;

  if (diff)
    memset (diff, 0, sizeof (*diff));
  if (width <= 0 || height <= 0 || bytes_per_pixel <= 0 || expected == NULL
      || got == NULL)
    return 0;                   /* nothing to compare */
  for (y = 0; y < height; y++) {
    const uint8_t *e = expected + (size_t) y * expected_stride;
    const uint8_t *g = got + (size_t) y * got_stride;

    if (memcmp (e, g, row_bytes) == 0)
      continue;
    for (x = 0; x < width; x++) {
      const uint8_t *ep = e + (size_t) x * bytes_per_pixel;
      const uint8_t *gp = g + (size_t) x * bytes_per_pixel;

      if (memcmp (ep, gp, bytes_per_pixel) == 0)
        continue;
      if (count == 0 && diff) {
        for (c = 0; ep[c] == gp[c]; c++);
        diff->x = x;
        diff->y = y;
        diff->expected = ep[c];
        diff->got = gp[c];
      }
      count++;
    }
  }
  if (diff)
    diff->count = count;
  return count;
}

uint64_t
ce_compare_u8 (const uint8_t * expected, size_t expected_stride,
    const uint8_t * got, size_t got_stride, int row_bytes, int height,
    ce_diff * diff)
{
  return ce_compare_pixels (expected, expected_stride, got, got_stride,
      row_bytes, height, 1, diff);
}
