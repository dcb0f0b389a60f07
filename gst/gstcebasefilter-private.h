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

  /* The state lock guards ctx against readers outside the streaming
   * thread, and latency.  ctx changes only in start and stop (streaming
   * stopped) and on a fall-back (in the streaming thread), so the
   * streaming thread reads it unlocked. */
  GMutex lock;
  GstCeContext *ctx;            /* NULL: running on the CPU */
  GstClockTime latency;         /* added while frames are in flight */

  /* Streaming state. */
  GstCeBackend requested;
  guint64 frame_count;          /* frames since start, 0-based */
  GstCeBands *bands;
  GstCeCheckBuffer reference;
  GstCeInFlight in_flight;
  gint64 corrupt_frame;         /* test hook, -1 when unset */

  GstCeStats stats;
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

G_END_DECLS

#endif /* __GST_CE_BASE_FILTER_PRIVATE_H__ */
