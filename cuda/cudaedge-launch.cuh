/* gst-cudaedge compute core: what the kernel files share (private)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Argument checks of the launchers, launch-error reporting and the border
 * reads of the kernels; included by cudaedge-kernels.cu and
 * cudaedge-staged.cu only.
 */

#ifndef CUDAEDGE_LAUNCH_CUH
#define CUDAEDGE_LAUNCH_CUH

#include <stdint.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "cudaedge-kernels.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

#define CE_BLUR_SCALE 256

static inline unsigned
ce_ceil_div (long long a, long long b)
{
  return (unsigned) ((a + b - 1) / b);
}

static inline ce_status
ce_launch_status (const char *what)
{
  cudaError_t err = cudaGetLastError ();
  if (err != cudaSuccess) {
    ce_set_error ("%s: kernel launch failed: %s", what,
        cudaGetErrorString (err));
    return CE_STATUS_CUDA_ERROR;
  }
  return CE_STATUS_OK;
}

/* Returns the status of @expr when it is not CE_STATUS_OK.  (CE_TRY and
 * CUDA_TRY in cudaedge-cuda.c jump to a fail label instead.) */
#define CE_RETURN_IF_FAILED(expr) do { ce_status _s = (expr); \
    if (_s != CE_STATUS_OK) return _s; } while (0)

static inline ce_status
ce_check_rows (int row0, int row1, int rows)
{
  if (row0 < 0 || row0 >= row1 || row1 > rows) {
    ce_set_error ("rows [row0 %d, row1 %d) must satisfy 0 <= row0 < row1 "
        "<= %d", row0, row1, rows);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

static inline ce_status
ce_check_border (ce_border_mode border, const char *name)
{
  if (border != CE_BORDER_REPLICATE && border != CE_BORDER_ZERO
      && border != CE_BORDER_REFLECT) {
    ce_set_error ("%s %d is not a ce_border_mode", name, (int) border);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

static inline ce_status
ce_check_multiple (size_t value, size_t align, const char *name)
{
  if (value % align != 0) {
    ce_set_error ("%s must be a multiple of %zu (got %zu)", name, align,
        value);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

static inline ce_status
ce_check_aligned (const void *ptr, size_t align, const char *name)
{
  if (((uintptr_t) ptr) % align != 0) {
    ce_set_error ("%s must be %zu-byte aligned (got %p)", name, align, ptr);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

static inline ce_status
ce_check_consts (const ce_edge_consts * consts)
{
  CE_RETURN_IF_FAILED (ce_check_pointer (consts, "consts"));
  CE_RETURN_IF_FAILED (ce_check_border (consts->border, "consts->border"));
  if (consts->norm != CE_NORM_L2 && consts->norm != CE_NORM_L1) {
    ce_set_error ("consts->norm %d is not a ce_norm", (int) consts->norm);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (consts->output != CE_OUTPUT_EDGES
      && consts->output != CE_OUTPUT_MAGNITUDE) {
    ce_set_error ("consts->output %d is not a ce_output",
        (int) consts->output);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (consts->scale != (consts->blur ? CE_BLUR_SCALE : 1)) {
    ce_set_error ("consts->scale must be %d with blur %s (got %d)",
        consts->blur ? CE_BLUR_SCALE : 1, consts->blur ? "on" : "off",
        consts->scale);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (consts->limit < 0) {
    ce_set_error ("consts->limit must not be negative (got %lld)",
        (long long) consts->limit);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

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
#endif /* CUDAEDGE_LAUNCH_CUH */
