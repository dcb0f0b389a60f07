/* gst-cudaedge compute core: the CUDA entry points of a build without CUDA.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every call says so with CE_STATUS_NOT_BUILT, so callers fall back to the
 * CPU reference exactly as on a machine without a GPU.  The device,
 * context and pinned-memory calls check their arguments first, as the
 * CUDA build does, leave what they would have returned untouched on
 * failure, and freeing nothing succeeds; the frame calls refuse a NULL
 * context as it does (no other can exist here).
 * tests/core/test-cuda-entry.c runs the same cases on both builds.
 */
#include <stdio.h>

#include "cudaedge-core.h"
#include "cudaedge-private.h"
#include "cudaedge-testing.h"

static ce_status
not_built (void)
{
  ce_set_error ("this build of gst-cudaedge has no CUDA support");
  return CE_STATUS_NOT_BUILT;
}

ce_status
ce_cuda_device_count (int *count)
{
  ce_status status;

  if ((status = ce_check_pointer (count, "count")) != CE_STATUS_OK)
    return status;
  *count = 0;
  return not_built ();
}

ce_status
ce_cuda_device_pick (int device_id, int *picked)
{
  ce_status status;

  if ((status = ce_check_pointer (picked, "picked")) != CE_STATUS_OK)
    return status;
  if (device_id < -1) {
    ce_set_error ("device id must be -1 or an index (got %d)", device_id);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return not_built ();
}

/* ce_cuda_ctx_new and ce_cuda_ctx_new_current: the checks both make. */
static ce_status
ctx_new_checks (int n_streams, ce_cuda_ctx ** ctx)
{
  ce_status status;

  if ((status = ce_check_pointer (ctx, "ctx")) != CE_STATUS_OK)
    return status;
  *ctx = NULL;
  if (n_streams < 2 || n_streams > CE_CUDA_MAX_STREAMS) {
    ce_set_error ("n_streams must be 2 ... %d (got %d)", CE_CUDA_MAX_STREAMS,
        n_streams);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  return CE_STATUS_OK;
}

ce_status
ce_cuda_ctx_new (int device_id, int n_streams, ce_cuda_ctx ** ctx)
{
  ce_status status;
  int picked;

  if ((status = ctx_new_checks (n_streams, ctx)) != CE_STATUS_OK)
    return status;
  return ce_cuda_device_pick (device_id, &picked);
}

ce_status
ce_cuda_ctx_new_current (int n_streams, ce_cuda_ctx ** ctx)
{
  ce_status status;

  if ((status = ctx_new_checks (n_streams, ctx)) != CE_STATUS_OK)
    return status;
  return not_built ();
}

void
ce_cuda_ctx_free (ce_cuda_ctx * ctx)
{
  (void) ctx;
}

int
ce_cuda_ctx_device_id (const ce_cuda_ctx * ctx)
{
  (void) ctx;
  return -1;
}

const char *
ce_cuda_ctx_device_name (const ce_cuda_ctx * ctx)
{
  (void) ctx;
  return "";
}

void
ce_cuda_ctx_set_bands (ce_cuda_ctx * ctx, int bands)
{
  (void) ctx;
  (void) bands;
}

void
ce_cuda_ctx_set_timing (ce_cuda_ctx * ctx, int on)
{
  (void) ctx;
  (void) on;
}

/* No context can be made here, so ctx is NULL: an invalid argument, as
 * in the CUDA build. */
ce_status
ce_cuda_host_alloc (ce_cuda_ctx * ctx, size_t size, void **ptr)
{
  ce_status status;

  (void) size;
  if ((status = ce_check_pointer (ctx, "ctx")) != CE_STATUS_OK ||
      (status = ce_check_pointer (ptr, "ptr")) != CE_STATUS_OK)
    return status;
  *ptr = NULL;
  return not_built ();
}

/* Nothing to free: no context, no block. */
ce_status
ce_cuda_host_free (ce_cuda_ctx * ctx, void *ptr)
{
  (void) ctx;
  (void) ptr;
  return CE_STATUS_OK;
}

ce_status
ce_cuda_edge_frame (ce_cuda_ctx * ctx, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride,
    ce_timing * timing)
{
  if (ctx == NULL)
    return ce_check_pointer (ctx, "ctx");
  (void) src;
  (void) params;
  (void) dst;
  (void) dst_stride;
  (void) timing;
  return not_built ();
}

ce_status
ce_cuda_upscale2x_frame (ce_cuda_ctx * ctx, const uint8_t * src,
    size_t src_stride, int width, int height, int bytes_per_pixel,
    uint8_t * dst, size_t dst_stride, ce_timing * timing)
{
  if (ctx == NULL)
    return ce_check_pointer (ctx, "ctx");
  (void) src;
  (void) src_stride;
  (void) width;
  (void) height;
  (void) bytes_per_pixel;
  (void) dst;
  (void) dst_stride;
  (void) timing;
  return not_built ();
}

ce_status
ce_cuda_edge_frame_submit (ce_cuda_ctx * ctx, int slot, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride)
{
  if (ctx == NULL)
    return ce_check_pointer (ctx, "ctx");
  (void) slot;
  (void) src;
  (void) params;
  (void) dst;
  (void) dst_stride;
  return not_built ();
}

ce_status
ce_cuda_upscale2x_frame_submit (ce_cuda_ctx * ctx, int slot,
    const uint8_t * src, size_t src_stride, int width, int height,
    int bytes_per_pixel, uint8_t * dst, size_t dst_stride)
{
  if (ctx == NULL)
    return ce_check_pointer (ctx, "ctx");
  (void) slot;
  (void) src;
  (void) src_stride;
  (void) width;
  (void) height;
  (void) bytes_per_pixel;
  (void) dst;
  (void) dst_stride;
  return not_built ();
}

ce_status
ce_cuda_frame_wait (ce_cuda_ctx * ctx, int slot, ce_timing * timing)
{
  if (ctx == NULL)
    return ce_check_pointer (ctx, "ctx");
  (void) slot;
  (void) timing;
  return not_built ();
}

/* A build without CUDA has no emulated device either. */
int
ce_cuda_set_fake_device (int on)
{
  (void) on;
  return 0;
}

int
ce_cuda_fake_device (void)
{
  return 0;
}

void
ce_cuda_ctx_inject_failure (ce_cuda_ctx * ctx, int n)
{
  (void) ctx;
  (void) n;
}

int
ce_cuda_device_switches_pending (void)
{
  return 0;
}

unsigned long
ce_cuda_device_scopes_taken (void)
{
  return 0;
}

int
ce_fused_short_block_rows (void)
{
  return 0;
}

int
ce_fused_set_tensor_cores (int on)
{
  (void) on;
  return 0;
}

int
ce_fused_tensor_cores_used (void)
{
  return 0;
}

int
ce_fused_set_l2_edges_form (int form)
{
  (void) form;
  return -1;
}

int
ce_fused_out_host (const ce_edge_consts * consts, const int32_t gx[4],
    const int32_t gy[4], int root_ulps, uint32_t * out, int *open)
{
  (void) consts;
  (void) gx;
  (void) gy;
  (void) root_ulps;
  (void) out;
  (void) open;
  return -1;
}

int
ce_fused_sobel_window_host (const int32_t * b, int rows, int32_t * gx,
    int32_t * gy)
{
  (void) b;
  (void) rows;
  (void) gx;
  (void) gy;
  return -1;
}

unsigned long
ce_cuda_dev_graph_launches (const struct ce_cuda_dev *dev)
{
  (void) dev;
  return 0;
}

unsigned long
ce_cuda_dev_signalled_waits (const struct ce_cuda_dev *dev)
{
  (void) dev;
  return 0;
}

int
ce_cuda_dev_end_seen (const struct ce_cuda_dev *dev, int slot)
{
  (void) dev;
  (void) slot;
  return 0;
}

int
ce_fused_layout_errors (int width, int height, int row0, int row1, int blur,
    int aligned, int resident_warps, int tensor_cores, char *what,
    size_t what_size)
{
  (void) tensor_cores;
  (void) width;
  (void) height;
  (void) row0;
  (void) row1;
  (void) blur;
  (void) aligned;
  (void) resident_warps;
  if (what_size)
    snprintf (what, what_size, "built without CUDA");
  return -1;
}

int
ce_upscale2x_host (const uint8_t * src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * dst,
    size_t dst_pitch, int max_blocks, int *stores_whole)
{
  (void) max_blocks;
  (void) stores_whole;
  (void) src;
  (void) src_pitch;
  (void) width;
  (void) height;
  (void) bytes_per_pixel;
  (void) row0;
  (void) row1;
  (void) dst;
  (void) dst_pitch;
  return -1;
}
