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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstceinflight.h"

GstCeJob *
gst_ce_job_new (GstBuffer * inbuf, GstBuffer * outbuf, gsize params_size)
{
  /* The parameters live in the same allocation, suitably aligned. */
  gsize head = GST_ROUND_UP_16 (sizeof (GstCeJob));
  GstCeJob *job = g_malloc0 (head + params_size);

  job->inbuf = inbuf;
  job->outbuf = outbuf;
  job->slot = -1;
  job->params = (guint8 *) job + head;
  return job;
}

GstBuffer *
gst_ce_job_free (GstCeJob * job)
{
  GstBuffer *outbuf = job->outbuf;

  if (job->out.buffer)
    gst_video_frame_unmap (&job->out);
  if (job->in.buffer)
    gst_video_frame_unmap (&job->in);
  gst_buffer_unref (job->inbuf);
  if (job->ctx)
    gst_ce_context_unref (job->ctx);
  g_free (job);
  return outbuf;
}

void
gst_ce_in_flight_init (GstCeInFlight * fl, GstCeDeviceWait device_wait,
    gpointer device_wait_data)
{
  fl->device_wait = device_wait;
  fl->device_wait_data = device_wait_data;
  g_mutex_init (&fl->lock);
  g_mutex_init (&fl->discard_lock);
  g_queue_init (&fl->jobs);
  memset (fl->slot_busy, 0, sizeof (fl->slot_busy));
}

void
gst_ce_in_flight_clear (GstCeInFlight * fl)
{
  gst_ce_in_flight_discard (fl);
  g_mutex_clear (&fl->lock);
  g_mutex_clear (&fl->discard_lock);
}

gint
gst_ce_in_flight_reserve_slot (GstCeInFlight * fl)
{
  gint slot;

  g_mutex_lock (&fl->lock);
  for (slot = 0; slot < CE_CUDA_SLOTS && fl->slot_busy[slot]; slot++);
  if (slot < CE_CUDA_SLOTS)
    fl->slot_busy[slot] = TRUE;
  else
    slot = -1;
  g_mutex_unlock (&fl->lock);
  return slot;
}

void
gst_ce_in_flight_release_slot (GstCeInFlight * fl, gint slot)
{
  g_mutex_lock (&fl->lock);
  fl->slot_busy[slot] = FALSE;
  g_mutex_unlock (&fl->lock);
}

void
gst_ce_in_flight_push (GstCeInFlight * fl, GstCeJob * job)
{
  g_mutex_lock (&fl->lock);
  g_queue_push_tail (&fl->jobs, job);
  g_mutex_unlock (&fl->lock);
}

GstCeJob *
gst_ce_in_flight_pop (GstCeInFlight * fl)
{
  GstCeJob *job;

  g_mutex_lock (&fl->lock);
  job = g_queue_pop_head (&fl->jobs);
  g_mutex_unlock (&fl->lock);
  return job;
}

guint
gst_ce_in_flight_length (GstCeInFlight * fl)
{
  guint n;

  g_mutex_lock (&fl->lock);
  n = g_queue_get_length (&fl->jobs);
  g_mutex_unlock (&fl->lock);
  return n;
}

gboolean
gst_ce_in_flight_newest_on_gpu (GstCeInFlight * fl)
{
  GstCeJob *newest;
  gboolean ret;

  g_mutex_lock (&fl->lock);
  newest = g_queue_peek_tail (&fl->jobs);
  ret = newest != NULL && newest->slot >= 0;
  g_mutex_unlock (&fl->lock);
  return ret;
}

ce_status
gst_ce_in_flight_wait (GstCeInFlight * fl, GstCeJob * job,
    ce_timing * timing)
{
  ce_status status = job->status;

  if (job->slot >= 0) {
    if (job->device)
      status = fl->device_wait (fl->device_wait_data, job->slot, timing);
    else if (gst_ce_context_push (job->ctx)) {
      status = ce_cuda_frame_wait (gst_ce_context_get_handle (job->ctx),
          job->slot, timing);
      gst_ce_context_pop (job->ctx);
    } else {
      status = CE_STATUS_CUDA_ERROR;
    }
    gst_ce_in_flight_release_slot (fl, job->slot);
  }
  return status;
}

guint
gst_ce_in_flight_discard (GstCeInFlight * fl)
{
  GstCeJob *job;
  guint n = 0;

  g_mutex_lock (&fl->discard_lock);
  while ((job = gst_ce_in_flight_pop (fl)) != NULL) {
    /* The GPU may still be writing into the output: let it finish. */
    gst_ce_in_flight_wait (fl, job, NULL);
    gst_buffer_unref (gst_ce_job_free (job));
    n++;
  }
  g_mutex_unlock (&fl->discard_lock);
  return n;
}
