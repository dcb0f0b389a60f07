/* gst-cudaedge: frames in flight on the GPU
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


#ifndef __GST_CE_IN_FLIGHT_H__
#define __GST_CE_IN_FLIGHT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcecontext.h"

G_BEGIN_DECLS

/* One frame: its buffers stay mapped (the GPU reads and writes them
 * directly when they are pinned) until it is finished.  The element's
 * parameters for the frame follow the structure (params). */
typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in;
  GstVideoFrame out;
  guint64 frame;                /* since start, 0-based */
  GstCeContext *ctx;            /* NULL: never given to CUDA */
  gint slot;                    /* -1: not submitted */
  ce_status status;             /* of the submission */
  gboolean check;               /* compared with the CPU when done */
  gint check_fail;              /* a GstCeCheckFail */
  gboolean discont;             /* first output after a dropped frame */
  gboolean device;              /* on GStreamer CUDA memory: waited for
                                 * with the queue's device_wait */
  gpointer params;
} GstCeJob;

/* A job owning @inbuf and @outbuf, with @params_size bytes of zeroed
 * parameters; the frames are not mapped yet. */
GstCeJob *gst_ce_job_new (GstBuffer * inbuf, GstBuffer * outbuf,
    gsize params_size);
/* Unmaps and frees @job and returns its output buffer. */
GstBuffer *gst_ce_job_free (GstCeJob * job);

/* The frames submitted to CUDA and not finished yet, oldest first, and the
 * context's slots they use.  Its lock is a leaf, held only to change the
 * queue: never while waiting for the GPU. */
/* Waits for the GPU work of a job on device memory in @slot. */
typedef ce_status (*GstCeDeviceWait) (gpointer user_data, gint slot,
    ce_timing * timing);

typedef struct
{
  GMutex lock;
  GQueue jobs;
  gboolean slot_busy[CE_CUDA_SLOTS];
  /* Held by a discard for as long as it waits: a FLUSH_START from an
   * application thread and a stop may discard at once, and the stop
   * must not free what the other's waits use before they end. */
  GMutex discard_lock;
  GstCeDeviceWait device_wait;
  gpointer device_wait_data;
} GstCeInFlight;

void gst_ce_in_flight_init (GstCeInFlight * fl, GstCeDeviceWait device_wait,
    gpointer device_wait_data);
void gst_ce_in_flight_clear (GstCeInFlight * fl);

/* A free slot, now busy, or -1. */
gint gst_ce_in_flight_reserve_slot (GstCeInFlight * fl);
void gst_ce_in_flight_release_slot (GstCeInFlight * fl, gint slot);
void gst_ce_in_flight_push (GstCeInFlight * fl, GstCeJob * job);
/* The oldest job, or NULL. */
GstCeJob *gst_ce_in_flight_pop (GstCeInFlight * fl);
guint gst_ce_in_flight_length (GstCeInFlight * fl);
/* Whether the newest job runs on the GPU. */
gboolean gst_ce_in_flight_newest_on_gpu (GstCeInFlight * fl);

/* Waits for @job's GPU work (nothing locked) and frees its slot.  Returns
 * the job's status: its submission's, or the wait's. */
ce_status gst_ce_in_flight_wait (GstCeInFlight * fl, GstCeJob * job,
    ce_timing * timing);

/* Waits for and frees every job; returns how many there were.  A second
 * discard at the same time returns after the first has ended. */
guint gst_ce_in_flight_discard (GstCeInFlight * fl);

G_END_DECLS

#endif /* __GST_CE_IN_FLIGHT_H__ */
