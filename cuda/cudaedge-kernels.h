/* gst-cudaedge compute core: device-level kernel launchers.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Only in builds with CUDA.  Every launcher takes device pointers and a
 * stream, checks its arguments, enqueues its kernel and returns: it never
 * allocates and never synchronises.  Pitches are in bytes.  Launch errors
 * are reported (cudaGetLastError); errors of the kernel itself surface at
 * the caller's next synchronisation.
 *
 * Kernels that take row0/row1 write output rows [row0, row1) only, reading
 * whatever input rows (with the border rule against the full height) they
 * need: that is how a frame is processed in bands on several streams.
 */
#ifndef CUDAEDGE_KERNELS_H
#define CUDAEDGE_KERNELS_H

#include <cuda_runtime_api.h>

#include "cudaedge-core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most blocks a grid has along y.  Every launcher splits a row range
 * taller than its grid can hold into several launches, each computing its
 * rows exactly as one launch would, so any height works. */
#define CE_GRID_Y_MAX 65535

/* CE_STATUS_OK when the current device runs this build's kernels;
 * CE_STATUS_NO_DEVICE ("no kernel image for this device (compute
 * capability X.Y; this build has sm_90, ...)") when it cannot, as on a GPU
 * older than every architecture the build was compiled for. */
ce_status ce_kernels_probe (void);

/* Plane 0 of any ce_format -> 8-bit luma.  Rows [row0, row1). */
ce_status ce_launch_luma (const uint8_t * d_src, size_t src_pitch,
    ce_format format, int width, int height, int row0, int row1,
    uint8_t * d_luma, size_t luma_pitch, cudaStream_t stream);

/* The fused chain: 8-bit luma in, blur + Sobel + threshold/magnitude in
 * one pass, 8-bit out.  No shared memory and no tile: each warp walks down
 * a strip of 128 columns, a lane 4 of them, keeping the vertical taps in
 * rolling registers; a lane reads its columns and the 4 on either side as
 * three aligned 32-bit words per row, the overlap with its neighbours'
 * words coming from L1.  d_luma holds height rows of luma_pitch bytes:
 * where d_luma and luma_pitch are multiples of 4, a lane at the right
 * edge reads the whole 4-byte word that holds the last column, so the
 * last row's padding up to the next multiple of 4 must be there too
 * (as in a cudaMallocPitch or GstCudaMemory allocation). */
ce_status ce_launch_edge_fused (const uint8_t * d_luma, size_t luma_pitch,
    int width, int height, int row0, int row1, const ce_edge_consts * consts,
    uint8_t * d_dst, size_t dst_pitch, cudaStream_t stream);

/* Launches through a CUDA graph.  A kernel launch costs the host several
 * microseconds, as much as a small frame's kernel takes on the GPU;
 * launching an instantiated graph, after updating its kernel node's
 * arguments, costs about half.  A cache holds one graph of one kernel
 * node: each launch through it sets the node to the launch's kernel,
 * grid and arguments and launches the graph, and the graph is built
 * again only when the node cannot take them.  Should a graph call fail,
 * the cache launches directly from then on.  A cache serves one stream
 * and one thread at a time; its launches are ordered as direct ones. */
typedef struct ce_launch_cache ce_launch_cache;

ce_status ce_launch_cache_new (ce_launch_cache ** cache);
/* Frees the cache (NULL: nothing); its launches still queued run. */
void ce_launch_cache_free (ce_launch_cache * cache);
/* How many launches went through the cache's graph (0 for NULL). */
unsigned long ce_launch_cache_graph_launches (const ce_launch_cache *
    cache);

/* The end of a launch, told to the host without a CUDA call: a
 * synchronisation costs the host about as much as a small frame's kernel
 * takes on the GPU (PERFORMANCE.md).  Once every block of the launch has
 * written its output, visibly to the whole device, the block counted
 * last writes @value to @flag, the device address of a word of mapped
 * pinned host memory, which the host reads.  @count is a device word
 * that is zero before the launch and is left zero.  The launcher sets
 * @armed: 1 when the frame went in that one launch, so that @flag
 * holding @value means that the frame is done; 0 when it took more
 * (several launches, or a memset after), and the caller must wait on
 * the stream instead. */
typedef struct
{
  unsigned int *count;
  unsigned int *flag;
  unsigned int value;
  int armed;
} ce_launch_signal;

/* The same, and the same launch also sets the @fill_bytes bytes at
 * @d_fill (any alignment, not overlapping the output rows) to
 * @fill_value: extra blocks at the end of the grid, or, for a grid that
 * has no room for them, a memset after it.  The kernels go through
 * @cache when it is not NULL, and signal their end through @signal when
 * it is not NULL. */
ce_status ce_launch_edge_fused_fill (const uint8_t * d_luma,
    size_t luma_pitch, int width, int height, int row0, int row1,
    const ce_edge_consts * consts, uint8_t * d_dst, size_t dst_pitch,
    uint8_t * d_fill, size_t fill_bytes, int fill_value,
    ce_launch_cache * cache, ce_launch_signal * signal,
    cudaStream_t stream);

/* Bilinear 2x; output rows [row0, row1) of the 2H rows.  bytes_per_pixel
 * 1 or 4; 4-byte pixels move as one 32-bit word (pitches then must be
 * multiples of 4 and the pointers 4-byte aligned). */
ce_status ce_launch_upscale2x (const uint8_t * d_src, size_t src_pitch,
    int width, int height, int bytes_per_pixel, int row0, int row1,
    uint8_t * d_dst, size_t dst_pitch, cudaStream_t stream);
/* Whether ce_launch_upscale2x takes these frames (all its checks but the
 * rows'): CE_STATUS_OK or INVALID_ARGUMENT with the reason. */
ce_status ce_upscale2x_check_frame (const uint8_t * d_src, size_t src_pitch,
    int width, int height, int bytes_per_pixel, const uint8_t * d_dst,
    size_t dst_pitch);
/* The same through @cache when it is not NULL, signalling its end
 * through @signal when it is not NULL (ce_launch_signal: armed when the
 * rows went in one launch). */
ce_status ce_launch_upscale2x_via (const uint8_t * d_src, size_t src_pitch,
    int width, int height, int bytes_per_pixel, int row0, int row1,
    uint8_t * d_dst, size_t dst_pitch, ce_launch_cache * cache,
    ce_launch_signal * signal, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_KERNELS_H */
