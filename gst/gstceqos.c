/* gst-cudaedge: QoS while frames are in flight
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


/* With frames in flight, an output leaves inputs late, so
 * GstBaseTransform's QoS would put the DISCONT of a dropped frame on the
 * output of the frame before it, and could not count the outputs pushed
 * when frames in flight are drained.  While frames are in flight the base
 * class therefore keeps QoS itself: it takes the QOS events, drops late
 * inputs, marks the first output after a drop DISCONT and counts every
 * output.  Without frames in flight GstBaseTransform's QoS runs as usual.
 *
 * submit_input_buffer also pushes the frames in flight before a DISCONT
 * input (whose own frame then leaves at once) and before a renegotiation,
 * and refuses inputs after a drain before an event met an error. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcebasefilter-private.h"

GST_DEBUG_CATEGORY_EXTERN (gst_ce_base_filter_debug);
#define GST_CAT_DEFAULT gst_ce_base_filter_debug

void
gst_ce_qos_reset (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  GST_OBJECT_LOCK (self);
  priv->qos_earliest = GST_CLOCK_TIME_NONE;
  priv->qos_proportion = 1.0;
  GST_OBJECT_UNLOCK (self);
  priv->discont_pending = FALSE;
  priv->finish_now = FALSE;
  priv->drain_flow = GST_FLOW_OK;
}

void
gst_ce_qos_reset_stats (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  gst_ce_qos_reset (self);
  priv->qos_processed = priv->qos_dropped = 0;
}

/* Takes a QOS event while frames are in flight and sends it upstream:
 * returns TRUE and, in @result, what upstream returned.  Returns FALSE
 * for any other event, which GstBaseTransform then handles. */
gboolean
gst_ce_qos_src_event (GstCeBaseFilter * self, GstEvent * event,
    gboolean * result)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstClockTimeDiff diff;
  GstClockTime timestamp;
  gdouble proportion;
  GstQOSType type;

  if (GST_EVENT_TYPE (event) != GST_EVENT_QOS)
    return FALSE;
  /* This runs in downstream's thread: whether frames are in flight is
   * read under the state lock, where the streaming thread records it. */
  g_mutex_lock (&priv->lock);
  if (!priv->pipelined) {
    g_mutex_unlock (&priv->lock);
    return FALSE;
  }
  g_mutex_unlock (&priv->lock);

  gst_event_parse_qos (event, &type, &proportion, &diff, &timestamp);
  GST_OBJECT_LOCK (self);
  priv->qos_proportion = proportion;
  if (GST_CLOCK_TIME_IS_VALID (timestamp))
    priv->qos_earliest = diff > 0 || (GstClockTime) - diff <= timestamp
        ? timestamp + diff : 0;
  GST_OBJECT_UNLOCK (self);

  /* Not to GstBaseTransform, whose QoS would drop again. */
  *result = gst_pad_push_event (GST_BASE_TRANSFORM_SINK_PAD (self), event);
  return TRUE;
}

/* GstBaseTransform::submit_input_buffer. */
GstFlowReturn
gst_ce_base_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * inbuf)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstClockTime running_time, earliest;
  gdouble proportion;

  /* A drain before an event met an error (posted where it arose); the
   * event went on, but the stream stops here, as the error's own push
   * would have stopped it. */
  if (priv->drain_flow != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "refusing input after a drain that failed: %s",
        gst_flow_get_name (priv->drain_flow));
    gst_buffer_unref (inbuf);
    return priv->drain_flow;
  }

  /* GstBaseTransform marks the next output pushed from its chain DISCONT
   * after a DISCONT input (it set that before this call), and the
   * chain-up below renegotiates when downstream asked for it.  Either
   * would reach an older frame in flight: those are pushed first (not
   * through the chain, so the mark stays pending), and the DISCONT
   * frame itself then leaves in this chain call, taking the mark. */
  if (GST_BUFFER_IS_DISCONT (inbuf)
      || gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (trans))) {
    if (gst_ce_in_flight_length (&priv->in_flight) > 0) {
      GstFlowReturn flow;

      GST_DEBUG_OBJECT (self, "draining before a %s",
          GST_BUFFER_IS_DISCONT (inbuf) ? "discontinuity" : "renegotiation");
      flow = gst_ce_base_filter_drain (self);
      if (flow != GST_FLOW_OK) {
        gst_buffer_unref (inbuf);
        return flow;
      }
    }
    if (GST_BUFFER_IS_DISCONT (inbuf)
        && gst_ce_base_filter_is_pipelined (self))
      priv->finish_now = TRUE;
  }

  if (!gst_ce_base_filter_is_pipelined (self)
      || !gst_base_transform_is_qos_enabled (trans)
      || trans->segment.format != GST_FORMAT_TIME)
    goto chain_up;

  running_time = gst_segment_to_running_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (inbuf));
  GST_OBJECT_LOCK (self);
  earliest = priv->qos_earliest;
  proportion = priv->qos_proportion;
  GST_OBJECT_UNLOCK (self);

  if (GST_CLOCK_TIME_IS_VALID (running_time)
      && GST_CLOCK_TIME_IS_VALID (earliest) && running_time <= earliest) {
    GstMessage *msg;

    priv->qos_dropped++;
    priv->discont_pending = TRUE;
    GST_DEBUG_OBJECT (self, "dropping late frame %" GST_TIME_FORMAT
        " (earliest %" GST_TIME_FORMAT ")", GST_TIME_ARGS (running_time),
        GST_TIME_ARGS (earliest));
    msg = gst_message_new_qos (GST_OBJECT_CAST (self), FALSE, running_time,
        gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
            GST_BUFFER_PTS (inbuf)), GST_BUFFER_PTS (inbuf),
        GST_BUFFER_DURATION (inbuf));
    gst_message_set_qos_values (msg, GST_CLOCK_DIFF (running_time, earliest),
        proportion, 1000000);
    gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, priv->qos_processed,
        priv->qos_dropped);
    gst_element_post_message (GST_ELEMENT_CAST (self), msg);
    gst_buffer_unref (inbuf);
    /* Not GST_BASE_TRANSFORM_FLOW_DROPPED: GstBaseTransform would mark
     * the next output it pushes, the frame in flight before this one. */
    return GST_FLOW_OK;
  }

  /* Likewise for an input DISCONT: it goes with this frame's job (for an
   * output pushed by a drain, which GstBaseTransform does not mark). */
  if (GST_BUFFER_IS_DISCONT (inbuf)) {
    priv->discont_pending = TRUE;
    inbuf = gst_buffer_make_writable (inbuf);
    GST_BUFFER_FLAG_UNSET (inbuf, GST_BUFFER_FLAG_DISCONT);
  }

chain_up:
  return GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))
      ->submit_input_buffer (trans, is_discont, inbuf);
}

void
gst_ce_qos_output (GstCeBaseFilter * self, GstBuffer ** outbuf,
    gboolean discont)
{
  GET_PRIV (self)->qos_processed++;
  if (discont && !GST_BUFFER_IS_DISCONT (*outbuf)) {
    *outbuf = gst_buffer_make_writable (*outbuf);
    GST_BUFFER_FLAG_SET (*outbuf, GST_BUFFER_FLAG_DISCONT);
  }
}
