/* gst-cudaedge compute core: what the kernel files share (private)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Block shapes, argument checks, launch-error reporting and the splitting
 * of tall frames into launches the grid can hold; included by
 * cudaedge-kernels.cu and cudaedge-staged.cu only.
 */

#ifndef CUDAEDGE_LAUNCH_CUH
#define CUDAEDGE_LAUNCH_CUH

#include <stdint.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "cudaedge-kernels.h"
#include "cudaedge-numerics.h"
#include "cudaedge-private.h"

/* The block of the kernels that give each thread one pixel (the luma, and
 * the staged direct blur, two-pass blur, Sobel and threshold): a warp
 * along a row, so that its reads and writes are contiguous, and
 * CE_PX_BLOCK_Y rows. */
#define CE_PX_BLOCK_X 32
#define CE_PX_BLOCK_Y 8

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
#define CE_CHECK(expr) do { ce_status _s = (expr); \
    if (_s != CE_STATUS_OK) return _s; } while (0)

/* The most rows one launch covers when a block row of the grid covers
 * @block_rows rows: a grid has at most CE_GRID_Y_MAX blocks along y. */
#define CE_ROWS_PER_LAUNCH(block_rows) (CE_GRID_Y_MAX * (block_rows))

/* Enqueues launch (r0, r1) for consecutive ranges of at most
 * @rows_per_launch rows that cover [row0, row1), and reports launch
 * errors.  Every kernel takes its range of output rows and applies the
 * border rule against the full height, so a range gives the rows one
 * launch over all of them would: any height works, and a frame short
 * enough (every frame up to half a million rows) is one launch. */
template < typename Launch >
static inline ce_status
ce_launch_rows (int row0, int row1, int rows_per_launch, const char *what,
    Launch launch)
{
  for (int r0 = row0; r0 < row1;) {
    int r1 = row1 - r0 > rows_per_launch ? r0 + rows_per_launch : row1;
    launch (r0, r1);
    CE_CHECK (ce_launch_status (what));
    r0 = r1;
  }
  return CE_STATUS_OK;
}

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
  CE_CHECK (ce_check_pointer (consts, "consts"));
  CE_CHECK (ce_check_border (consts->border, "consts->border"));
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

#endif /* CUDAEDGE_LAUNCH_CUH */
