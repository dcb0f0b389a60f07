/* gst-cudaedge: the base class's private state
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


/* Shared by the two halves of GstCeBaseFilter: gstcebasefilter.c (the
 * class, properties, negotiation, events, queries, allocation) and
 * gstceframe.c (the frame path).  Not for subclasses. */

#ifndef __GST_CE_BASE_FILTER_PRIVATE_H__
#define __GST_CE_BASE_FILTER_PRIVATE_H__

#include "gstcebasefilter.h"
#include "gstcebands.h"
#include "gstcecheck.h"
#include "gstcecontext.h"
#include "gstceinflight.h"

#ifdef HAVE_GST_CUDA
#include "gstcecudamemory.h"
#endif

G_BEGIN_DECLS

typedef struct
{
  /* Properties, guarded by the object lock. */
  GstCeBackend backend;
  gint device_id;
  gboolean check;
  guint check_interval;
  GstCeCheckFail check_fail;
  guint n_threads;
  /* start has read backend, cuda-device-id and n-threads (until stop or
   * a failed start): they are refused meanwhile. */
  gboolean props_read;

  /* The state lock guards ctx against readers outside the streaming
   * thread, and latency.  ctx changes only in start and stop (streaming
   * stopped) and on a fall-back (in the streaming thread), so the
   * streaming thread reads it unlocked. */
  GMutex lock;
  GstCeContext *ctx;            /* NULL: running on the CPU */
  GstClockTime latency;         /* added while frames are in flight */
  gboolean pipelined;           /* frames in flight (for the QoS handler) */
  gboolean started;

  /* Streaming state. */
  GstCeBackend requested;
  guint64 frame_count;          /* frames since start, 0-based */
  GstCeBands *bands;
  GstCeCheckBuffer reference;
  GstCeInFlight in_flight;
  gint64 corrupt_frame;

  /* QoS while frames are in flight (gstceqos.c): the earliest running
   * time and proportion under the object lock, the rest streaming. */
  GstClockTime qos_earliest;
  gdouble qos_proportion;
  guint64 qos_processed;
  guint64 qos_dropped;
  gboolean discont_pending;     /* the next job's output is DISCONT */
  gboolean finish_now;          /* the frame submitted last leaves in this
                                 * chain call (after a DISCONT input) */
  GstFlowReturn drain_flow;     /* an error met draining before an event:
                                 * the next input returns it */

  GstCeStats stats;

#ifdef HAVE_GST_CUDA
  /* GStreamer's CUDA context, shared with the neighbours through the
   * context mechanism (guarded by the state lock), and the core's streams
   * in it.  in_cuda / out_cuda: the negotiated caps are in CUDA memory. */
  GstCudaContext *gst_ctx;
  ce_cuda_dev *dev;
  gboolean in_cuda;
  gboolean out_cuda;
#endif
} GstCeBaseFilterPrivate;

GstCeBaseFilterPrivate *gst_ce_base_filter_priv (GstCeBaseFilter * self);

#define GET_PRIV(self) \
    gst_ce_base_filter_priv (self)
#define GET_CLASS(self) GST_CE_BASE_FILTER_GET_CLASS (self)

/* gstcebasefilter.c */
void gst_ce_base_filter_set_context (GstCeBaseFilter * self,
    GstCeContext * ctx);
gboolean gst_ce_base_filter_is_pipelined (GstCeBaseFilter * self);
void gst_ce_base_filter_update_latency (GstCeBaseFilter * self);

/* gstceframe.c: the frame path */
GstFlowReturn gst_ce_base_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in, GstVideoFrame * out);
GstFlowReturn gst_ce_base_filter_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
GstFlowReturn gst_ce_base_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf);
GstFlowReturn gst_ce_base_filter_drain (GstCeBaseFilter * self);

/* gstceframe.c */
GstFlowReturn gst_ce_base_filter_report (GstCeBaseFilter * self,
    guint64 frame, guint64 mismatches, const ce_diff * diff,
    GstCeCheckFail check_fail);
ce_status gst_ce_base_filter_run_cpu (GstCeBaseFilter * self,
    const GstVideoFrame * in, gconstpointer params, guint8 * dst,
    gsize dst_stride);

/* gstceframe.c: maps @buffer as a frame of @info's picture: of @info's
 * size even where its video meta is larger (padding around it). */
gboolean gst_ce_base_filter_map_picture (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags);

/* gstceqos.c: QoS while frames are in flight */
void gst_ce_qos_reset (GstCeBaseFilter * self);
void gst_ce_qos_reset_stats (GstCeBaseFilter * self);
gboolean gst_ce_qos_src_event (GstCeBaseFilter * self, GstEvent * event,
    gboolean * result);
GstFlowReturn gst_ce_base_filter_submit_input_buffer (GstBaseTransform *
    trans, gboolean is_discont, GstBuffer * inbuf);
/* Counts an output and marks it DISCONT when @discont. */
void gst_ce_qos_output (GstCeBaseFilter * self, GstBuffer ** outbuf,
    gboolean discont);

#ifdef HAVE_GST_CUDA
/* gstcecudamemory.c: GStreamer CUDA memory */
void gst_ce_cuda_memory_set_element_context (GstElement * element,
    GstContext * context);
/* Whether GStreamer's CUDA library is there to use. */
gboolean gst_ce_cuda_memory_available (void);
/* GStreamer's context for the element: a new reference, or NULL. */
GstCudaContext *gst_ce_cuda_memory_ensure_context (GstCeBaseFilter * self,
    gint device_id);
gboolean gst_ce_cuda_memory_set_caps (GstCeBaseFilter * self,
    GstCaps * incaps, GstCaps * outcaps);
void gst_ce_cuda_memory_stop (GstCeBaseFilter * self);
gboolean gst_ce_cuda_memory_propose_allocation (GstCeBaseFilter * self,
    GstQuery * query, guint held);
gboolean gst_ce_cuda_memory_decide_allocation (GstCeBaseFilter * self,
    GstQuery * query, guint held);
GstBuffer *gst_ce_cuda_memory_validate (GstCeBaseFilter * self,
    GstBuffer * buffer);
ce_status gst_ce_cuda_memory_submit (GstCeBaseFilter * self, gint slot,
    guint64 frame, const GstVideoFrame * in, GstVideoFrame * out,
    gconstpointer params);
ce_status gst_ce_cuda_memory_wait (gpointer self, gint slot,
    ce_timing * timing);
GstFlowReturn gst_ce_cuda_memory_complete (GstCeBaseFilter * self,
    guint64 frame, GstBuffer * inbuf, GstBuffer * outbuf,
    gconstpointer params, gboolean check, GstCeCheckFail check_fail,
    ce_status gpu_status, const ce_timing * timing);
#endif

G_END_DECLS

#endif /* __GST_CE_BASE_FILTER_PRIVATE_H__ */
