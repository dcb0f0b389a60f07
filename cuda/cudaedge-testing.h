/* gst-cudaedge compute core: entry points for tests only
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Not part of the core's API: tests, and plugin builds configured with
 * -Dtest-hooks=true, include this header to provoke failures that a
 * working GPU never gives.
 */

#ifndef CUDAEDGE_TESTING_H
#define CUDAEDGE_TESTING_H

#include "cudaedge-core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero: from now on the frame path runs on a device emulated on the
 * CPU, so that callers' handling of frames in flight is tested without a
 * GPU: ce_cuda_device_count () finds one device, contexts made after it
 * (ce_cuda_ctx_new; ce_cuda_ctx_new_current refuses) take host memory
 * from malloc, and a submitted frame's output is poisoned until its wait
 * makes it with the fast CPU paths.  Argument checks and
 * ce_cuda_ctx_inject_failure () act as on a GPU.  Set it before any
 * context is made.  Returns the previous setting. */
int ce_cuda_set_fake_device (int on);
/* Whether the emulated device is on. */
int ce_cuda_fake_device (void);

/* The wait of the n-th frame submitted from now on (n >= 1) fails with
 * CE_STATUS_CUDA_ERROR, as a device fault would; 0 disarms it.  Lets
 * callers test their recovery without breaking a GPU. */
void ce_cuda_ctx_inject_failure (ce_cuda_ctx * ctx, int n);

/* The calling thread's device scopes.  Every entry point that works on a
 * context's device takes one: it saves the thread's current device, makes
 * its own current when that is another one, and gives the thread its
 * device back before it returns.  ..._pending () is how many scopes the
 * thread has open (so how many devices it may still owe itself): 0
 * whenever no core call is running on it.  ..._taken () counts the scopes
 * ever taken on the thread, so that a test sees an entry point go through
 * one even where there is nothing to switch (a machine with one GPU). */
int ce_cuda_device_switches_pending (void);
unsigned long ce_cuda_device_scopes_taken (void);

/* The number of faults in the strips one launch of the fused edge kernel
 * gives its lanes, for output rows [row0, row1) of a width x height frame
 * (blur on or off, input and output 4-byte aligned or not, the interior
 * on tensor cores or not) on a GPU that holds resident_warps warps at
 * once: output pixels taken twice or not at all, and interior strips
 * whose reads would leave the frame.  The first is described in what.
 * Host code only, no GPU needed; -1 when the core is built without CUDA. */
int ce_fused_layout_errors (int width, int height, int row0, int row1,
    int blur, int aligned, int resident_warps, int tensor_cores, char *what,
    size_t what_size);

/* Whether the fused edge kernel may take the interior of blurred frames
 * to tensor cores (where the GPU and the build allow it; off by default:
 * no faster than the CUDA-core interior where measured); returns the
 * previous setting.  For tests and benchmarks that compare the two
 * paths.  Process-wide. */
int ce_fused_set_tensor_cores (int on);
/* 1 when launches on the calling thread's current device take the
 * tensor-core path (allowed, and built for it), else 0. */
int ce_fused_tensor_cores_used (void);

/* The form of the l2 edges in the fused strip kernel (the kernel of
 * frames above about 2 Mpx on an H200): -1 (default) by the launch's
 * size (the rows it is given, so the bands of a frame each by their
 * own), 0 integers, 1 floats, 2 floats with every estimate taken as
 * not conclusive, so that the exact settling behind them runs on every
 * row.  All are exact.  Returns the form before. */
int ce_fused_set_l2_edges_form (int form);

/* The four output bytes (byte m for pixel m) that the fused kernels'
 * float forms give for the gradients @gx, @gy of four pixels (integers
 * of magnitude below 2^19) under @consts: their own output code (the
 * edge bytes from sign bits, the guard tests, the l2 magnitude's
 * estimate and the exact settling of open rows) run on the host, so that
 * it can be checked against ce_edge_value () without a GPU; @open (may
 * be NULL) says whether the estimates left the row open, so settled it.
 * The host's root stands for sqrt.approx: the correctly rounded one,
 * moved by @root_ulps ulps (0: none).  Not thread-safe.  0 done; -1 on
 * bad arguments or when the core is built without CUDA. */
int ce_fused_out_host (const ce_edge_consts * consts, const int32_t gx[4],
    const int32_t gy[4], int root_ulps, uint32_t * out, int *open);

/* The gradients that the fused kernels' interior row loop makes with its
 * rolling Sobel window (on floats), run on the host: @b holds @rows (at
 * least 3) rows of 6 columns of B (b[6 r + q]: row r, column q; each 0
 * ... 255 times the blur's scale), and @gx, @gy receive 4 (rows - 2)
 * values, gx[4 j + m] and gy[4 j + m] for output row j (between B rows
 * j and j + 2) and column m (between columns m and m + 2).  So the
 * window's arithmetic can be checked against the Sobel's definition
 * without a GPU.  0 done; -1 on bad arguments or when the core is built
 * without CUDA. */
int ce_fused_sobel_window_host (const int32_t * b, int rows, int32_t * gx,
    int32_t * gy);

/* Output rows [row0, row1) of the 2x upscale of @src into @dst, made by
 * the upscale kernel's own per-thread code run on the host over every
 * thread of the grid one launch would have on a GPU that allows
 * @max_blocks blocks (8 per multiprocessor: 1056 on an H200; fewer make
 * the block rows loop more), with the launcher's argument checks; the
 * stores are whole where @dst and @dst_pitch allow them, as on the GPU,
 * and @stores_whole (may be NULL) tells whether they were.  So the
 * kernel's arithmetic and indexing can be checked without a GPU.  0
 * done; -1 on bad arguments or when the core is built without CUDA. */
int ce_upscale2x_host (const uint8_t * src, size_t src_pitch, int width,
    int height, int bytes_per_pixel, int row0, int row1, uint8_t * dst,
    size_t dst_pitch, int max_blocks, int *stores_whole);

/* The rows one block of the fused short kernel takes: a launch of it
 * covers at most CE_GRID_Y_MAX times as many.  0 without CUDA. */
int ce_fused_short_block_rows (void);

/* How many launches the slots of a device context made through their
 * CUDA graphs (cudaedge-device.h), so that a test can tell them from
 * direct launches.  0 without CUDA. */
struct ce_cuda_dev;
unsigned long ce_cuda_dev_graph_launches (const struct ce_cuda_dev * dev);

/* How many of its waits a device context answered from its slots' end
 * signals (ce_launch_signal) without synchronising.  0 without CUDA. */
unsigned long ce_cuda_dev_signalled_waits (const struct ce_cuda_dev * dev);
/* 1 when the work queued on @slot since its last wait has signalled its
 * end (the wait will not synchronise), without waiting; 0 otherwise. */
int ce_cuda_dev_end_seen (const struct ce_cuda_dev * dev, int slot);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_TESTING_H */
