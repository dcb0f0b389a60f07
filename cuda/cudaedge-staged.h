/* gst-cudaedge compute core: the staged kernels (benchmark and tests)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Launchers of the edge chain in separate passes; same contract as
 * cudaedge-kernels.h (a stream each, no allocation, no synchronisation).
 * Not part of the plugin: link core_staged_dep.
 */

#ifndef CUDAEDGE_STAGED_H
#define CUDAEDGE_STAGED_H

#include "cudaedge-kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* B is uint16. */
typedef enum
{
  CE_BLUR_DIRECT = 0,           /* 25 global reads per pixel */
  CE_BLUR_TILED,                /* 2D 5x5 from a shared-memory tile */
  CE_BLUR_SEPARABLE,            /* rows then columns inside one kernel */
  CE_BLUR_TWO_PASS,             /* row kernel -> scratch -> column kernel */
  CE_BLUR_VARIANT_COUNT
} ce_blur_variant;

const char *ce_blur_variant_name (ce_blur_variant variant);

/* d_scratch (uint16, width x height, scratch_pitch) is used by
 * CE_BLUR_TWO_PASS only and may be NULL otherwise. */
ce_status ce_launch_blur (ce_blur_variant variant, const uint8_t * d_luma,
    size_t luma_pitch, int width, int height, ce_border_mode border,
    uint16_t * d_scratch, size_t scratch_pitch, uint16_t * d_b,
    size_t b_pitch, cudaStream_t stream);

/* B -> (gx, gy) int32 pairs. */
ce_status ce_launch_sobel (const uint16_t * d_b, size_t b_pitch, int width,
    int height, ce_border_mode border, int32_t * d_grad, size_t grad_pitch,
    cudaStream_t stream);

/* (gx, gy) -> edges or magnitude. */
ce_status ce_launch_threshold (const int32_t * d_grad, size_t grad_pitch,
    int width, int height, const ce_edge_consts * consts, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream);

/* B -> edges or magnitude, Sobel and threshold in one kernel. */
ce_status ce_launch_sobel_threshold (const uint16_t * d_b, size_t b_pitch,
    int width, int height, const ce_edge_consts * consts, uint8_t * d_dst,
    size_t dst_pitch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_STAGED_H */
