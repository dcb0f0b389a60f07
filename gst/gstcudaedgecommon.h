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

/* ---- What an element does to one frame ----
 *
 * Both elements process frames the same way (CUDA or CPU, fallback, test
 * hook, check, statistics, frames in flight); the shared code drives it
 * and the element only says how its frame is computed. */

/* The settings of one frame, copied under the object lock when the frame
 * starts, so that a property changed while PLAYING takes effect at a frame
 * boundary even with frames in flight. */
typedef struct
{
  gboolean check;
  guint check_interval;
  GstCeCheckFail check_fail;
  /* cudaedge only */
  ce_edge_params edge;
  ce_format format;
} GstCeFrameSettings;

typedef struct
{
  /* Starts the message of a CPU failure: "Edge detection", "Upscaling". */
  const gchar *what;
  /* Fills @settings from the element's properties; called with the
   * object lock held. */
  void (*get_settings) (GstElement * element, GstCeFrameSettings * settings);
  /* Submits @in -> plane 0 of @out to CUDA in @slot (ce_cuda_*_submit). */
  ce_status (*cuda_submit) (GstElement * element, ce_cuda_ctx * ctx,
      gint slot, const GstVideoFrame * in, GstVideoFrame * out,
      const GstCeFrameSettings * settings);
  /* Computes @in with the CPU reference into @dst, an image laid out like
   * plane 0 of the output with rows @dst_stride bytes apart. */
  ce_status (*cpu) (GstElement * element, const GstVideoFrame * in,
      guint8 * dst, gsize dst_stride, const GstCeFrameSettings * settings);
} GstCeFrameFuncs;

/* ---- CPU work in row bands ----
 *
 * Runs @func over rows [0, @rows) split into bands, one per core (and no
 * band under GST_CE_MIN_BAND_ROWS rows), on a GThreadPool shared by the
 * process; the calling thread takes the last band itself.  Returns when
 * every band is done: CE_STATUS_OK, or the status of a failed band (when
 * the calling thread's band failed, ce_last_error () says why). */
typedef ce_status (*GstCeBandFunc) (gpointer user_data, gint row0,
    gint row1);

#define GST_CE_MIN_BAND_ROWS 32

ce_status gst_ce_run_in_bands (gint rows, GstCeBandFunc func,
    gpointer user_data);

/* ---- Per-element runtime: backend, statistics, check reporting ----
 *
 * Embed one GstCeRuntime in the element instance.  Call _init in
 * instance_init, _clear in finalize, _start (or _open) in
 * GstBaseTransform::start, _close in ::stop, _set_info in ::set_caps (or
 * GstVideoFilter::set_info).
 * Everything else is called from the streaming thread, except _get_stats,
 * which any thread may call. */
typedef struct
{
  /*< private > */
  GstElement *element;          /* not owned; a GstBaseTransform */
  const GstCeFrameFuncs *funcs;
  gchar *name;                  /* "cudaedge" */
  gchar *check_message_name;    /* "cudaedge-check" */
  gchar *stats_name;            /* "cudaedge-stats" */
  gchar *corrupt_env;           /* "CUDAEDGE_TEST_CORRUPT_FRAME" */
  gchar *fail_env;              /* "CUDAEDGE_TEST_CUDA_FAIL_FRAME" */

  /* Streaming state, touched by the streaming thread only (and by _close
   * once streaming has stopped). */
  gboolean configured;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  guint64 frame_count;          /* frames since start, 0-based */
  guint8 *h_reference;          /* tightly packed output, for the check */
  gsize reference_size;

  /* Frames in flight (CUDA backend, known frame rate). */
  GMutex jobs_lock;             /* protects the two fields below */
  GQueue jobs;                  /* of GstCeJob, oldest first */
  gboolean slot_busy[CE_CUDA_SLOTS];
  GstClockTime latency;         /* last reported, to notice changes */

  GMutex lock;                  /* protects everything below */
  GstCeBackend requested;
  GstCeContext *ctx;            /* NULL: running on the CPU */
  gchar *backend_name;          /* "cuda", "cpu" or "none" */
  gchar *device_name;
  gint64 corrupt_frame;         /* test hook, -1 when unset */
  gint fps_n, fps_d;            /* of the negotiated input; 0/1 unknown */

  guint64 frames;
  guint64 frames_checked;
  guint64 mismatches;
  guint64 timed_frames;
  gdouble upload_us_sum;
  gdouble kernel_us_sum;
  gdouble download_us_sum;
} GstCeRuntime;

void gst_ce_runtime_init (GstCeRuntime * rt, GstElement * element,
    const gchar * name, const GstCeFrameFuncs * funcs);
void gst_ce_runtime_clear (GstCeRuntime * rt);

/* Chooses and opens the backend, resets the statistics and the frame
 * counter and reads the test hooks.  Logs which backend it chose.  On
 * failure (backend=cuda without a usable device) posts GST_ELEMENT_ERROR
 * and returns FALSE. */
gboolean gst_ce_runtime_open (GstCeRuntime * rt, GstCeBackend backend,
    gint device_id);
/* Waits for and discards the frames in flight, then drops the context. */
void gst_ce_runtime_close (GstCeRuntime * rt);

/* The negotiated formats.  Call with no frames in flight (CAPS is
 * serialized, so gst_ce_runtime_sink_event has drained them). */
void gst_ce_runtime_set_info (GstCeRuntime * rt, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info);

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

/* Test hooks.  When the environment variable <NAME>_TEST_CORRUPT_FRAME
 * (CUDAEDGE_TEST_CORRUPT_FRAME for cudaedge) held N when the element
 * started, frame N's output byte (0, 0) is flipped after processing, and
 * check also runs on the CPU backend against a second reference
 * computation, so the mismatch path can be tested without a GPU.
 * When <NAME>_TEST_CUDA_FAIL_FRAME held N and the CUDA backend is active,
 * frame N fails on the GPU as a device fault would
 * (ce_cuda_ctx_inject_failure), to test the fallback to the CPU.
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

/* ---- The properties both elements have ----
 *
 * backend, cuda-device-id, check, check-interval, check-fail and stats
 * mean the same on both elements, so they are declared, stored and read
 * here.  The element's own property ids continue after the shared ones:
 *
 *   enum { PROP_THRESHOLD = GST_CE_PROP_LAST, PROP_BLUR, ... };
 *
 * The shared ids keep the order the elements installed them in. */
enum
{
  GST_CE_PROP_0,
  GST_CE_PROP_CHECK,
  GST_CE_PROP_CHECK_INTERVAL,
  GST_CE_PROP_CHECK_FAIL,
  GST_CE_PROP_BACKEND,
  GST_CE_PROP_CUDA_DEVICE_ID,
  GST_CE_PROP_STATS,
  GST_CE_PROP_LAST
};

/* Embed in the element instance; protected by the object lock.  stats is
 * not here: it comes from the GstCeRuntime. */
typedef struct
{
  GstCeBackend backend;
  gint cuda_device_id;
  gboolean check;
  guint check_interval;
  GstCeCheckFail check_fail;
} GstCeCommonProps;

/* The defaults; call in instance_init. */
void gst_ce_common_props_init (GstCeCommonProps * props);

/* Installs the six shared properties on @klass and marks their enums as
 * plugin API.  @check_message_name ("cudaedge-check") is named in the
 * blurb of check-fail. */
void gst_ce_install_common_properties (GObjectClass * klass,
    const gchar * check_message_name);

/* GObject::set_property and ::get_property for the shared ids.  Call them
 * first, *without* the object lock: they take it themselves, except for
 * stats, which is read under the runtime's lock only.  That lock is
 * already taken before the object lock (logging about the element under
 * it takes the object lock), so the reverse order would deadlock.
 * Return FALSE when
 * @prop_id is not a shared one; the element then handles it.  backend and
 * cuda-device-id are ignored, with a log warning, above READY. */
gboolean gst_ce_common_set_property (GstElement * element,
    GstCeCommonProps * props, guint prop_id, const GValue * value,
    GParamSpec * pspec);
gboolean gst_ce_common_get_property (GstElement * element,
    GstCeCommonProps * props, GstCeRuntime * rt, guint prop_id,
    GValue * value);

/* GstBaseTransform::start: gst_ce_runtime_open with the backend and
 * cuda-device-id of @props, read under the object lock. */
gboolean gst_ce_runtime_start (GstCeRuntime * rt,
    const GstCeCommonProps * props);

/* Copies check, check-interval and check-fail into @settings; for the
 * element's GstCeFrameFuncs.get_settings, so with the object lock held. */
void gst_ce_common_props_get_settings (const GstCeCommonProps * props,
    GstCeFrameSettings * settings);

/* ---- Processing frames ---- */

/* Maps @inbuf and @outbuf with the negotiated formats; posts
 * GST_ELEMENT_ERROR and returns FALSE when either cannot be mapped. */
gboolean gst_ce_runtime_map_frames (GstCeRuntime * rt, GstBuffer * inbuf,
    GstBuffer * outbuf, GstVideoFrame * in, GstVideoFrame * out);

/* One frame, synchronously: CUDA (falling back to the CPU with
 * backend=auto) or the CPU reference, then the test hook, the check and
 * the statistics.  The element's transform calls this. */
GstFlowReturn gst_ce_runtime_process_frame (GstCeRuntime * rt,
    GstVideoFrame * in, GstVideoFrame * out);

/* Frames in flight.  On the CUDA backend with a known input frame rate,
 * each input is submitted to a free slot of the context and the output of
 * the frame before it is returned, so that one frame's upload overlaps the
 * previous one's kernels and download; the element is one frame late.
 * Otherwise each call chains up to @parent_class, whose transform runs
 * the frame synchronously.  Wire these into the element's
 * GstBaseTransformClass; the submit_input_buffer stays the parent's, so
 * QoS works as before. */
GstFlowReturn gst_ce_runtime_generate_output (GstCeRuntime * rt,
    GstBaseTransformClass * parent_class, GstBuffer ** outbuf);

/* GstBaseTransform::sink_event: pushes the frames in flight downstream
 * before a serialized event goes on (EOS, CAPS, SEGMENT, GAP, ...),
 * discards them on a flush, then chains up. */
gboolean gst_ce_runtime_sink_event (GstCeRuntime * rt,
    GstBaseTransformClass * parent_class, GstEvent * event);

/* GstBaseTransform::query: pushes the frames in flight on a DRAIN query;
 * adds one frame duration to the LATENCY answer while frames are in
 * flight. */
gboolean gst_ce_runtime_query (GstCeRuntime * rt,
    GstBaseTransformClass * parent_class, GstPadDirection direction,
    GstQuery * query);

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
