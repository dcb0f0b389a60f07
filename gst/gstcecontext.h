/* gst-cudaedge: the CUDA context, pinned memory and pinned pools
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

#ifndef __GST_CE_CONTEXT_H__
#define __GST_CE_CONTEXT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"

G_BEGIN_DECLS

/* Number of CUDA streams a context is opened with: one for the uploads
 * and one per frame in flight, so that a frame's kernel never queues
 * behind the previous frame's download. */
#define GST_CE_CUDA_STREAMS (CE_CUDA_SLOTS + 1)

/* Bands per frame while frames are in flight (0: chosen by size). */
#ifndef GST_CE_PIPELINED_BANDS
#define GST_CE_PIPELINED_BANDS 1
#endif

/* A reference-counted core CUDA context.
 *
 * Pinned memory handed out by the allocator must stay valid after the
 * element stops using the GPU (fallback to the CPU, stop, renegotiation):
 * buffers can still live downstream.  The allocator, the element and each
 * frame in flight hold a reference; the ce_cuda_ctx is freed with the
 * last one. */
typedef struct _GstCeContext GstCeContext;

void gst_ce_context_init_debug (void);

/* In @gst_cuda_ctx, a GstCudaContext (a gpointer, so that this header
 * needs no GstCuda), when given; else in the primary context of
 * @device_id (-1: the first usable device). */
GstCeContext *gst_ce_context_new (gpointer gst_cuda_ctx, gint device_id,
    ce_status * status);
GstCeContext *gst_ce_context_ref (GstCeContext * ctx);
void gst_ce_context_unref (GstCeContext * ctx);
ce_cuda_ctx *gst_ce_context_get_handle (GstCeContext * ctx);
const gchar *gst_ce_context_get_device_name (GstCeContext * ctx);

/* Every call on the handle is made between these two, which make the
 * context current on the calling thread (when it is GStreamer's). */
gboolean gst_ce_context_push (GstCeContext * ctx);
void gst_ce_context_pop (GstCeContext * ctx);
/* The GstCudaContext (a gpointer, so that this header needs no GstCuda),
 * or NULL in the primary context. */
gpointer gst_ce_context_get_gst_context (GstCeContext * ctx);
gint gst_ce_context_get_device_id (GstCeContext * ctx);

#define GST_TYPE_CE_PINNED_ALLOCATOR (gst_ce_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCePinnedAllocator, gst_ce_pinned_allocator,
    GST, CE_PINNED_ALLOCATOR, GstAllocator);

/* Memory from ce_cuda_host_alloc () on @ctx; keeps a reference on @ctx. */
GstAllocator *gst_ce_pinned_allocator_new (GstCeContext * ctx);
gboolean gst_ce_is_pinned_memory (GstMemory * mem);

/* A GstVideoBufferPool configured for @caps whose memory is pinned, with
 * buffers of @size bytes, or the caps' frame size where that is more. */
GstBufferPool *gst_ce_pinned_pool_new (GstAllocator * allocator,
    GstCaps * caps, guint size, guint min_buffers, guint max_buffers);

/* GstBaseTransform::propose_allocation / ::decide_allocation with pinned
 * memory of @ctx; pools get @held buffers more than their minimum (and
 * maximum, when bounded) for the frames the element keeps in flight.
 * FALSE without touching @query when its caps are not video. */
gboolean gst_ce_pinned_propose_allocation (GstCeContext * ctx,
    GstQuery * query, guint held);
gboolean gst_ce_pinned_decide_allocation (GstCeContext * ctx,
    GstQuery * query, guint held);

G_END_DECLS

#endif /* __GST_CE_CONTEXT_H__ */
