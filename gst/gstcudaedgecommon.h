/* gst-cudaedge: code shared by the cudaedge and cudaupscale elements
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

#ifndef __GST_CUDA_EDGE_COMMON_H__
#define __GST_CUDA_EDGE_COMMON_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"

G_BEGIN_DECLS

/* Shared names use the gst_ce_ / GstCe prefix: upstream's libgstcuda owns
 * gst_cuda_*, and GType names are process-global. */

/**
 * GstCeBackend:
 * @GST_CE_BACKEND_AUTO: CUDA when a device works, else the CPU
 * @GST_CE_BACKEND_CUDA: CUDA only; failing to open a device is an error
 * @GST_CE_BACKEND_CPU: the CPU reference only
 */
typedef enum
{
  GST_CE_BACKEND_AUTO = 0,
  GST_CE_BACKEND_CUDA,
  GST_CE_BACKEND_CPU
} GstCeBackend;

#define GST_TYPE_CE_BACKEND (gst_ce_backend_get_type ())
GType gst_ce_backend_get_type (void);

/**
 * GstCeCheckFail:
 * @GST_CE_CHECK_FAIL_WARN: post the check message and a warning, go on
 * @GST_CE_CHECK_FAIL_ERROR: post the check message and a stream error
 */
typedef enum
{
  GST_CE_CHECK_FAIL_WARN = 0,
  GST_CE_CHECK_FAIL_ERROR
} GstCeCheckFail;

#define GST_TYPE_CE_CHECK_FAIL (gst_ce_check_fail_get_type ())
GType gst_ce_check_fail_get_type (void);

/* Number of CUDA streams a context is opened with (the core wants >= 2). */
#define GST_CE_CUDA_STREAMS 3

/* ---- A reference-counted CUDA context ----
 *
 * Pinned memory handed out by the allocator must stay valid after the
 * element stops using the GPU (fallback to the CPU, stop, renegotiation):
 * buffers can still live downstream.  The allocator and the runtime each
 * hold a reference; the ce_cuda_ctx is freed with the last one. */
typedef struct _GstCeContext GstCeContext;

GstCeContext *gst_ce_context_new (gint device_id, ce_status * status);
GstCeContext *gst_ce_context_ref (GstCeContext * ctx);
void gst_ce_context_unref (GstCeContext * ctx);
ce_cuda_ctx *gst_ce_context_get_handle (GstCeContext * ctx);
const gchar *gst_ce_context_get_device_name (GstCeContext * ctx);
gint gst_ce_context_get_device_id (GstCeContext * ctx);

/* ---- Pinned-memory allocator and pool ---- */

#define GST_TYPE_CE_PINNED_ALLOCATOR (gst_ce_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCePinnedAllocator, gst_ce_pinned_allocator,
    GST, CE_PINNED_ALLOCATOR, GstAllocator);

/* Memory from ce_cuda_host_alloc () on @ctx; keeps a reference on @ctx. */
GstAllocator *gst_ce_pinned_allocator_new (GstCeContext * ctx);
gboolean gst_ce_is_pinned_memory (GstMemory * mem);

/* A GstVideoBufferPool configured for @caps whose memory is pinned. */
GstBufferPool *gst_ce_pinned_pool_new (GstAllocator * allocator,
    GstCaps * caps, guint min_buffers, guint max_buffers);

/* ---- Per-element runtime: backend, statistics, check reporting ----
 *
 * Embed one GstCeRuntime in the element instance.  Call _init in
 * instance_init, _clear in finalize, _open in GstBaseTransform::start,
 * _close in ::stop.  Everything else is called from the streaming thread,
 * except _get_stats, which any thread may call. */
typedef struct
{
  /*< private > */
  GstElement *element;          /* not owned */
  gchar *name;                  /* "cudaedge" */
  gchar *check_message_name;    /* "cudaedge-check" */
  gchar *stats_name;            /* "cudaedge-stats" */
  gchar *corrupt_env;           /* "CUDAEDGE_TEST_CORRUPT_FRAME" */

  GMutex lock;                  /* protects everything below */
  GstCeBackend requested;
  GstCeContext *ctx;            /* NULL: running on the CPU */
  gchar *backend_name;          /* "cuda", "cpu" or "none" */
  gchar *device_name;
  gint64 corrupt_frame;         /* test hook, -1 when unset */

  guint64 frames;
  guint64 frames_checked;
  guint64 mismatches;
  guint64 timed_frames;
  gdouble upload_us_sum;
  gdouble kernel_us_sum;
  gdouble download_us_sum;
} GstCeRuntime;

void gst_ce_runtime_init (GstCeRuntime * rt, GstElement * element,
    const gchar * name);
void gst_ce_runtime_clear (GstCeRuntime * rt);

/* Chooses and opens the backend, resets the statistics and reads the test
 * hook.  Logs which backend it chose.  On failure (backend=cuda without a
 * usable device) posts GST_ELEMENT_ERROR and returns FALSE. */
gboolean gst_ce_runtime_open (GstCeRuntime * rt, GstCeBackend backend,
    gint device_id);
void gst_ce_runtime_close (GstCeRuntime * rt);

/* A new reference on the active CUDA context, or NULL on the CPU. */
GstCeContext *gst_ce_runtime_get_context (GstCeRuntime * rt);
gboolean gst_ce_runtime_is_cuda (GstCeRuntime * rt);

/* Handles a failed CUDA frame.  With backend=auto: posts a warning, drops
 * the context and returns TRUE; the caller redoes the frame on the CPU.
 * With backend=cuda: posts GST_ELEMENT_ERROR and returns FALSE; the caller
 * returns GST_FLOW_ERROR. */
gboolean gst_ce_runtime_cuda_failed (GstCeRuntime * rt, ce_status status,
    const gchar * what);

/* Whether frame number @frame (0-based since start) is compared with the
 * CPU reference.  On the CUDA backend: every @interval-th frame when
 * @check is on.  On the CPU backend the output *is* the reference, so
 * nothing is compared and the frame does not count as checked, unless the
 * test hook is set (see gst_ce_runtime_test_corrupt). */
gboolean gst_ce_runtime_should_check (GstCeRuntime * rt, guint64 frame,
    gboolean check, guint interval);

/* Test hook.  When the environment variable <NAME>_TEST_CORRUPT_FRAME
 * (CUDAEDGE_TEST_CORRUPT_FRAME for cudaedge) held N when the element
 * started, frame N's output byte (0, 0) is flipped after processing, and
 * check also runs on the CPU backend against a second reference
 * computation, so the mismatch path can be tested without a GPU.
 * Returns TRUE when @frame is to be corrupted. */
gboolean gst_ce_runtime_test_corrupt (GstCeRuntime * rt, guint64 frame);

/* Posts the <name>-check element message (frame, mismatches, x, y,
 * expected, got) and a warning, or with GST_CE_CHECK_FAIL_ERROR a stream
 * error.  Returns the flow return to give back: GST_FLOW_OK or
 * GST_FLOW_ERROR. */
GstFlowReturn gst_ce_runtime_report_mismatch (GstCeRuntime * rt,
    guint64 frame, const ce_diff * diff, GstCeCheckFail fail);

/* Accounts one processed frame.  @timing is NULL when not measured. */
void gst_ce_runtime_add_frame (GstCeRuntime * rt, gboolean checked,
    guint64 mismatches, const ce_timing * timing);

/* The "stats" property: a new structure named <name>-stats with frames,
 * frames-checked, mismatches (guint64), backend, device (strings), and
 * upload-us, kernel-us, download-us (mean, gdouble). */
GstStructure *gst_ce_runtime_get_stats (GstCeRuntime * rt);

/* GstBaseTransform::propose_allocation / ::decide_allocation helpers.
 * They return FALSE without touching @query when the CPU backend is
 * active; the caller then chains up to its parent class. */
gboolean gst_ce_runtime_propose_allocation (GstCeRuntime * rt,
    GstQuery * query);
gboolean gst_ce_runtime_decide_allocation (GstCeRuntime * rt,
    GstQuery * query);

/* Checks that plane 0 of @buffer, described by its GstVideoMeta or by
 * @info, lies inside the buffer.  On failure posts GST_ELEMENT_ERROR
 * saying what is wrong and returns FALSE. */
gboolean gst_ce_validate_input_buffer (GstElement * element,
    const GstVideoInfo * info, GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_CUDA_EDGE_COMMON_H__ */
