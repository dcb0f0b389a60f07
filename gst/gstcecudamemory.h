/* gst-cudaedge: GStreamer CUDA memory (GstCuda)
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


#ifndef __GST_CE_CUDA_MEMORY_H__
#define __GST_CE_CUDA_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>

G_BEGIN_DECLS

/* Whether the first structure of @caps is in CUDA memory. */
gboolean gst_ce_caps_is_cuda_memory (const GstCaps * caps);

/* Whether every memory of @buffer is GstCudaMemory of @ctx. */
gboolean gst_ce_buffer_is_cuda_memory_of (GstBuffer * buffer,
    GstCudaContext * ctx);

/* A GstCudaBufferPool of @ctx for @caps, @min .. @max buffers. */
GstBufferPool *gst_ce_cuda_pool_new (GstCudaContext * ctx, GstCaps * caps,
    guint min, guint max);

/* Whether @pool is a GstCudaBufferPool of @ctx. */
gboolean gst_ce_cuda_pool_is_of (GstBufferPool * pool, GstCudaContext * ctx);

G_END_DECLS

#endif /* __GST_CE_CUDA_MEMORY_H__ */
