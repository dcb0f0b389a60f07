/* gst-cudaedge compute core: frames that are already in device memory
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For frames that live on the GPU (a decoder's output, say), in a CUDA
 * context that belongs to the caller.  Nothing here selects a device or a
 * context: the caller makes its context current on the calling thread
 * around every call (and around ce_cuda_dev_new, whose streams belong to
 * that context).  Plain C; no GLib or GStreamer types.
 */

#ifndef CUDAEDGE_DEVICE_H
#define CUDAEDGE_DEVICE_H

#include "cudaedge-core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ce_cuda_dev ce_cuda_dev;

/* The driver's context handle (a CUcontext). */
struct CUctx_st;

/* Sets *@primary to @device_id's primary context (the one the CUDA
 * runtime itself works in, kept for the life of the process),
 * initialising it when needed.  The calling thread's current context and
 * the rest of its context stack are as they were on return.  The one call
 * here that selects a device. */
ce_status ce_cuda_dev_primary_context (int device_id,
    struct CUctx_st **primary);

/* CE_CUDA_SLOTS slots, each with its own stream, in the current context. */
ce_status ce_cuda_dev_new (ce_cuda_dev ** dev);
void ce_cuda_dev_free (ce_cuda_dev * dev);

/* The edge chain of plane 0 of a device frame (src->data is a device
 * pointer, src->stride its pitch), written to the device GRAY8 image
 * @d_dst (@d_pitch), or with @d_dst NULL to a scratch image of the slot.
 * With @h_dst set the result is also downloaded to host memory (@h_stride;
 * pinned memory makes it asynchronous).  Returns once the work is queued
 * on the slot's stream; ce_cuda_dev_wait () waits for it.  Where
 * src->data and src->stride are multiples of 4, the kernel reads the whole
 * 4-byte word that holds a row's last column, so the last row's padding
 * up to the next multiple of 4 must be allocated too (as cudaMallocPitch
 * and GstCudaMemory allocations are). */
ce_status ce_cuda_dev_edge_submit (ce_cuda_dev * dev, int slot,
    const ce_frame * src, const ce_edge_params * params, uint8_t * d_dst,
    size_t d_pitch, uint8_t * h_dst, size_t h_stride);

/* Bilinear 2x upscale of a device image into a device image. */
ce_status ce_cuda_dev_upscale2x_submit (ce_cuda_dev * dev, int slot,
    const uint8_t * d_src, size_t src_pitch, int width, int height,
    int bytes_per_pixel, uint8_t * d_dst, size_t dst_pitch);

/* ce_cuda_dev_edge_submit () into the device image @d_dst, and the
 * @fill_bytes bytes at @d_fill (not overlapping it) set to @fill_value by
 * the same launch: the chroma planes of a GRAY picture held as NV12 or
 * I420 cost no call of their own. */
ce_status ce_cuda_dev_edge_fill_submit (ce_cuda_dev * dev, int slot,
    const ce_frame * src, const ce_edge_params * params, uint8_t * d_dst,
    size_t d_pitch, uint8_t * d_fill, size_t fill_bytes, int fill_value);

/* Whether the next frame submitted on @slot (its submissions up to the
 * next wait) is timed, with CUDA events that cost host work per frame; on
 * until set otherwise. */
void ce_cuda_dev_set_timing (ce_cuda_dev * dev, int slot, int timing);

/* Edge frames of at most @edge_pixels pixels and upscales of at most
 * @upscale_pixels pixels in, submitted from now on without a download
 * and not timed, signal their end in memory, so that their wait costs no
 * CUDA call once they are done; their kernel then ends with a barrier and
 * an atomic in every block.  The defaults, CE_CUDA_DEV_SIGNAL_PIXELS and
 * CE_CUDA_DEV_UPSCALE_SIGNAL_PIXELS, take the frames whose rate the
 * host's work per frame bounds, not the kernel: the sizes where the
 * signal measured faster (PERFORMANCE.md, "Frame ends signalled in
 * memory"); 0 takes none (the kernel alone, as a benchmark's ceiling
 * needs it).  Without the memory for the signals (ce_cuda_dev_new could
 * not allocate it) no frame signals. */
#define CE_CUDA_DEV_SIGNAL_PIXELS ((int64_t) 1 << 21)
#define CE_CUDA_DEV_UPSCALE_SIGNAL_PIXELS ((int64_t) 1 << 20)
void ce_cuda_dev_set_end_signals (ce_cuda_dev * dev, int64_t edge_pixels,
    int64_t upscale_pixels);

/* Waits for everything queued on @slot since the last wait.  For a
 * frame that has signalled its end (ce_cuda_dev_set_end_signals) it
 * returns without a CUDA call: the frame's writes are then visible to
 * any later work, though its kernel may not have retired yet.  @timing
 * (may be NULL) gets the kernels' time in kernel_us and the download's in
 * download_us, or zeros for a frame that was not timed; upload_us is 0. */
ce_status ce_cuda_dev_wait (ce_cuda_dev * dev, int slot, ce_timing * timing);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_DEVICE_H */
