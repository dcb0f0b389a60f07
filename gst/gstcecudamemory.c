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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcecudamemory.h"
#include <gst/cuda/gstcudaloader.h>
#include "gstcebasefilter-private.h"
#ifdef GST_CE_TEST_HOOKS
#include "cudaedge-testing.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_ce_base_filter_debug);
#define GST_CAT_DEFAULT gst_ce_base_filter_debug

gboolean
gst_ce_caps_is_cuda_memory (const GstCaps * caps)
{
  GstCapsFeatures *features;

  if (!caps || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  features = gst_caps_get_features (caps, 0);
  return features && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

gboolean
gst_ce_buffer_is_cuda_memory_of (GstBuffer * buffer, GstCudaContext * ctx)
{
  guint i, n = gst_buffer_n_memory (buffer);

  if (n == 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    /* Another GstCudaContext around the same CUDA context (each pipeline
     * that makes its own around a device's primary context has one)
     * holds pointers valid here too. */
    if (!gst_is_cuda_memory (mem) || (((GstCudaMemory *) mem)->context != ctx
            && gst_cuda_context_get_handle (((GstCudaMemory *) mem)->context)
            != gst_cuda_context_get_handle (ctx)))
      return FALSE;
  }
  return TRUE;
}

GstBufferPool *
gst_ce_cuda_pool_new (GstCudaContext * ctx, GstCaps * caps, guint min,
    guint max)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = gst_cuda_buffer_pool_new (ctx);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_ce_cuda_pool_is_of (GstBufferPool * pool, GstCudaContext * ctx)
{
  return pool && GST_IS_CUDA_BUFFER_POOL (pool)
      && GST_CUDA_BUFFER_POOL (pool)->context == ctx;
}

/* A CUDA context from the application or a neighbour. */
void
gst_ce_cuda_memory_set_element_context (GstElement * element,
    GstContext * context)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (GST_CE_BASE_FILTER (element));
  GstCudaContext *gst_ctx = NULL;
  gboolean have;
  gint device_id;

  GST_OBJECT_LOCK (element);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (element);

  /* A context once taken is kept (gst_cuda_handle_set_context would keep
   * it too) and never cleared here: the streaming thread works in it. */
  g_mutex_lock (&priv->lock);
  have = priv->gst_ctx != NULL;
  g_mutex_unlock (&priv->lock);

  if (!have && gst_cuda_handle_set_context (element, context, device_id,
          &gst_ctx) && gst_ctx) {
    g_mutex_lock (&priv->lock);
    if (priv->gst_ctx == NULL) {
      priv->gst_ctx = gst_ctx;
      gst_ctx = NULL;
    }
    g_mutex_unlock (&priv->lock);
    gst_clear_object (&gst_ctx);
  }

  GST_ELEMENT_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))->set_context
      (element, context);
}

static GstCudaContext *gst_ce_cuda_memory_get_context (GstCeBaseFilter *
    self);

/* Takes the context set on the element before, else asks the neighbours
 * (downstream first, then upstream) and then the application for one, as
 * GStreamer's CUDA elements do; an
 * answer arrives through set_context, which fills priv->gst_ctx. */
static void
gst_ce_cuda_memory_find_context (GstCeBaseFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (self);
  GstPad *pads[2] = { trans->srcpad, trans->sinkpad };
  GstCudaContext *found;
  GstContext *own;
  GstQuery *query;
  guint i;

  /* One the application set on this element, which GstElement keeps
   * while stop forgets it: a restart works in it again. */
  own = gst_element_get_context (GST_ELEMENT_CAST (self),
      GST_CUDA_CONTEXT_TYPE);
  if (own) {
    gst_element_set_context (GST_ELEMENT_CAST (self), own);
    gst_context_unref (own);
    if ((found = gst_ce_cuda_memory_get_context (self))) {
      gst_object_unref (found);
      return;
    }
  }

  query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  for (i = 0; i < G_N_ELEMENTS (pads); i++) {
    GstContext *context = NULL;

    if (!gst_pad_peer_query (pads[i], query))
      continue;
    gst_query_parse_context (query, &context);
    if (context) {
      gst_element_set_context (GST_ELEMENT_CAST (self), context);
      if ((found = gst_ce_cuda_memory_get_context (self))) {
        gst_object_unref (found);
        break;
      }
    }
  }
  gst_query_unref (query);

  if ((found = gst_ce_cuda_memory_get_context (self))) {
    gst_object_unref (found);
    return;
  }
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_need_context (GST_OBJECT_CAST (self),
          GST_CUDA_CONTEXT_TYPE));
}

/* GStreamer's CUDA context around the device's primary context, the one
 * the CUDA runtime works in: every element of the process that makes its
 * own context this way shares one CUDA context per device, so nothing is
 * time-sliced between contexts (several pipelines in one process run
 * side by side).  The runtime keeps the primary context for the life of
 * the process (until a cudaDeviceReset), and the wrapper never destroys
 * it.  The calling thread gets back the context it had current, if any;
 * no other device is touched. */
static GstCudaContext *
gst_ce_cuda_memory_new_primary (GstCeBaseFilter * self, gint device_id)
{
  GstCudaContext *gst_ctx = NULL;
  CUcontext cu = NULL;
  CUdevice dev;

  if (ce_cuda_dev_primary_context (device_id, &cu) != CE_STATUS_OK)
    GST_INFO_OBJECT (self, "%s", ce_last_error ());
  else if (CuDeviceGet (&dev, device_id) == CUDA_SUCCESS)
    gst_ctx = gst_cuda_context_new_wrapped (cu, dev);
  return gst_ctx;
}

/* Whether GStreamer's CUDA library is loaded (it loads the driver's
 * entry points once): without it no GstCudaContext can be made, and
 * GStreamer's CUDA calls abort the process. */
gboolean
gst_ce_cuda_memory_available (void)
{
#ifdef GST_CE_TEST_HOOKS
  /* The emulated device of the tests has no CUDA context to share. */
  if (ce_cuda_fake_device ())
    return FALSE;
#endif
  return gst_cuda_load_library ();
}

GstCudaContext *
gst_ce_cuda_memory_ensure_context (GstCeBaseFilter * self, gint device_id)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCudaContext *gst_ctx;
  int picked;

  if (!gst_ce_cuda_memory_available ())
    return NULL;
  /* The context the application or a neighbour gives, else one around
   * the device's primary context, offered to the others.  One taken
   * before cuda-device-id named another device is dropped. */
  if ((gst_ctx = gst_ce_cuda_memory_get_context (self))) {
    GValue v = G_VALUE_INIT;
    gint ctx_device;

    /* A guint in GStreamer 1.22, read through a transform to gint. */
    g_value_init (&v, G_TYPE_INT);
    g_object_get_property (G_OBJECT (gst_ctx), "cuda-device-id", &v);
    ctx_device = g_value_get_int (&v);
    g_value_unset (&v);
    if (device_id < 0 || device_id == ctx_device)
      return gst_ctx;
    GST_INFO_OBJECT (self, "dropping the CUDA context of device %d: "
        "cuda-device-id is %d", ctx_device, device_id);
    g_mutex_lock (&priv->lock);
    if (priv->gst_ctx == gst_ctx)
      g_clear_object (&priv->gst_ctx);
    g_mutex_unlock (&priv->lock);
    gst_object_unref (gst_ctx);
  }
  gst_ce_cuda_memory_find_context (self);
  if ((gst_ctx = gst_ce_cuda_memory_get_context (self)))
    return gst_ctx;

  /* -1: the first device that runs this build's kernels. */
  if (ce_cuda_device_pick (device_id, &picked) != CE_STATUS_OK) {
    GST_INFO_OBJECT (self, "%s", ce_last_error ());
    picked = MAX (device_id, 0);
  }
  gst_ctx = gst_ce_cuda_memory_new_primary (self, picked);
  if (gst_ctx) {
    GstContext *context = gst_context_new_cuda_context (gst_ctx);

    g_mutex_lock (&priv->lock);
    if (priv->gst_ctx == NULL)
      priv->gst_ctx = gst_object_ref (gst_ctx);
    g_mutex_unlock (&priv->lock);
    gst_object_unref (gst_ctx);
    GST_INFO_OBJECT (self, "offering a CUDA context around device %d's "
        "primary context", picked);
    gst_element_post_message (GST_ELEMENT_CAST (self),
        gst_message_new_have_context (GST_OBJECT_CAST (self), context));
    return gst_ce_cuda_memory_get_context (self);
  }

  /* GStreamer's own when that failed. */
  if (!gst_cuda_ensure_element_context (GST_ELEMENT_CAST (self), device_id,
          &gst_ctx))
    return NULL;
  g_mutex_lock (&priv->lock);
  if (priv->gst_ctx == NULL)
    priv->gst_ctx = gst_object_ref (gst_ctx);
  g_mutex_unlock (&priv->lock);
  gst_object_unref (gst_ctx);
  return gst_ce_cuda_memory_get_context (self);
}

/* ---- the base class's frame path on CUDA memory ---- */

/* A new reference on GStreamer's CUDA context, or NULL. */
static GstCudaContext *
gst_ce_cuda_memory_get_context (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCudaContext *gst_ctx = NULL;

  g_mutex_lock (&priv->lock);
  if (priv->gst_ctx)
    gst_ctx = gst_object_ref (priv->gst_ctx);
  g_mutex_unlock (&priv->lock);
  return gst_ctx;
}

gboolean
gst_ce_cuda_memory_set_caps (GstCeBaseFilter * self, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCudaContext *gst_ctx;
  ce_status status = CE_STATUS_OK;
  gint device_id;

  priv->in_cuda = gst_ce_caps_is_cuda_memory (incaps);
  priv->out_cuda = gst_ce_caps_is_cuda_memory (outcaps);
  if (!priv->in_cuda && !priv->out_cuda)
    return TRUE;
  if (!priv->in_cuda || priv->ctx == NULL
      || !gst_ce_cuda_memory_available ())
    goto not_supported;

  GST_OBJECT_LOCK (self);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  /* The decoder's context when it shares one, else a new one shared with
   * the neighbours. */
  gst_ctx = gst_ce_cuda_memory_get_context (self);
  if (!gst_ctx && !gst_cuda_ensure_element_context (GST_ELEMENT_CAST (self),
          device_id, &gst_ctx))
    goto no_context;
  g_mutex_lock (&priv->lock);
  if (!priv->gst_ctx)
    priv->gst_ctx = gst_object_ref (gst_ctx);
  g_mutex_unlock (&priv->lock);

  if (!priv->dev) {
    if (gst_cuda_context_push (gst_ctx)) {
      status = ce_cuda_dev_new (&priv->dev);
      gst_cuda_context_pop (NULL);
    } else {
      status = CE_STATUS_CUDA_ERROR;
    }
  }
  gst_object_unref (gst_ctx);
  if (status != CE_STATUS_OK)
    goto no_streams;

  GST_INFO_OBJECT (self, "input in CUDA memory, output in %s memory",
      priv->out_cuda ? "CUDA" : "system");
  return TRUE;

  /* ERRORS */
not_supported:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("CUDA memory needs the CUDA backend and CUDA memory input."),
        ("input caps %" GST_PTR_FORMAT ", output caps %" GST_PTR_FORMAT,
            incaps, outcaps));
    return FALSE;
  }
no_context:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Could not get a GStreamer CUDA context for device %d.", device_id),
        (NULL));
    return FALSE;
  }
no_streams:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not prepare CUDA streams in GStreamer's CUDA context."),
        ("%s: %s", ce_status_string (status), ce_last_error ()));
    return FALSE;
  }
}

void
gst_ce_cuda_memory_stop (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCudaContext *gst_ctx = gst_ce_cuda_memory_get_context (self);

  if (priv->dev && gst_ctx && gst_cuda_context_push (gst_ctx)) {
    ce_cuda_dev_free (priv->dev);
    gst_cuda_context_pop (NULL);
  }
  priv->dev = NULL;
  gst_clear_object (&gst_ctx);
  priv->in_cuda = priv->out_cuda = FALSE;

  g_mutex_lock (&priv->lock);
  gst_ctx = priv->gst_ctx;
  priv->gst_ctx = NULL;
  g_mutex_unlock (&priv->lock);
  gst_clear_object (&gst_ctx);
}

gboolean
gst_ce_cuda_memory_propose_allocation (GstCeBaseFilter * self,
    GstQuery * query, guint held)
{
  GstCudaContext *gst_ctx = gst_ce_cuda_memory_get_context (self);
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!gst_ctx || !caps || !gst_video_info_from_caps (&info, caps)) {
    gst_clear_object (&gst_ctx);
    return FALSE;
  }

  /* The element keeps the inputs of the frames in flight. */
  if (need_pool) {
    pool = gst_ce_cuda_pool_new (gst_ctx, caps, held, 0);
    if (pool) {
      /* The pool's buffers are pitched: their size is the pool's own. */
      GstStructure *config = gst_buffer_pool_get_config (pool);
      guint size = info.size;

      gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
      gst_structure_free (config);
      gst_query_add_allocation_pool (query, pool, size, held, 0);
      gst_object_unref (pool);
    }
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (gst_ctx);
  return TRUE;
}

gboolean
gst_ce_cuda_memory_decide_allocation (GstCeBaseFilter * self,
    GstQuery * query, guint held)
{
  GstCudaContext *gst_ctx = gst_ce_cuda_memory_get_context (self);
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint min = 0, max = 0, size = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!gst_ctx || !caps)
    goto failed;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Downstream's pool only when its memory is in our context. */
  if (pool && !gst_ce_cuda_pool_is_of (pool, gst_ctx))
    gst_clear_object (&pool);

  min += held;
  if (max != 0)
    max += held;
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (!pool)
    pool = gst_ce_cuda_pool_new (gst_ctx, caps, min, max);
  if (!pool)
    goto failed;

  {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
    gst_structure_free (config);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  gst_object_unref (gst_ctx);
  return TRUE;

failed:
  gst_clear_object (&gst_ctx);
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("No CUDA memory pool for the output."), (NULL));
  return FALSE;
}

GstBuffer *
gst_ce_cuda_memory_validate (GstCeBaseFilter * self, GstBuffer * buffer)
{
  GstCudaContext *gst_ctx = gst_ce_cuda_memory_get_context (self);
  gboolean ok = gst_ctx && gst_ce_buffer_is_cuda_memory_of (buffer, gst_ctx);

  gst_clear_object (&gst_ctx);
  if (!ok) {
    /* Its device pointers would be wrong in our context. */
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer is not CUDA memory of this element's CUDA context."),
        ("caps say memory:CUDAMemory; the buffer holds %u memory block(s), "
            "the first of type %s", gst_buffer_n_memory (buffer),
            gst_buffer_n_memory (buffer) ?
            gst_buffer_peek_memory (buffer, 0)->allocator->mem_type :
            "none"));
    return NULL;
  }
  return gst_buffer_ref (buffer);
}

/* Frame @frame (in submission order): timed as on system memory, one in
 * GST_CE_STATS_SAMPLE and every one once the stats have been read. */
ce_status
gst_ce_cuda_memory_submit (GstCeBaseFilter * self, gint slot, guint64 frame,
    const GstVideoFrame * in, GstVideoFrame * out, gconstpointer params)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  ce_status status;

  ce_cuda_dev_set_timing (priv->dev, slot,
      gst_ce_stats_time_frame (&priv->stats, frame));
  if (!gst_cuda_context_push (priv->gst_ctx))
    return CE_STATUS_CUDA_ERROR;
  status = GET_CLASS (self)->device_submit (self, priv->dev, slot, in, out,
      priv->out_cuda, params);
  gst_cuda_context_pop (NULL);
  return status;
}

/* GStreamer 1.22 has no CUDA stream of its own to hand on: a buffer
 * leaves the element only after this wait on the element's stream (for
 * a done edge frame of up to 2 Mpx, or upscale of up to 1 Mpx in, a
 * read of the end its kernel signalled in host memory:
 * cudaedge-device.h). */
ce_status
gst_ce_cuda_memory_wait (gpointer data, gint slot, ce_timing * timing)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (GST_CE_BASE_FILTER (data));
  ce_status status;

  if (!gst_cuda_context_push (priv->gst_ctx))
    return CE_STATUS_CUDA_ERROR;
  status = ce_cuda_dev_wait (priv->dev, slot, timing);
  gst_cuda_context_pop (NULL);
  return status;
}

/* After the GPU's work on CUDA memory.  A failure cannot fall back to the
 * CPU, whose input is on the GPU; the check maps both frames in host
 * memory (GstCudaMemory downloads them). */
GstFlowReturn
gst_ce_cuda_memory_complete (GstCeBaseFilter * self, guint64 frame,
    GstBuffer * inbuf, GstBuffer * outbuf, gconstpointer params,
    gboolean check, GstCeCheckFail check_fail, ce_status gpu_status,
    const ce_timing * timing)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  ce_diff diff = { 0, 0, 0, 0, 0 };
  GstVideoFrame in, out;
  guint64 mismatches = 0;
  ce_status status;

  if (gpu_status != CE_STATUS_OK)
    goto gpu_failed;

  if (check) {
    gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (filter->out_info.finfo, 0);
    gint width = GST_VIDEO_INFO_WIDTH (&filter->out_info);
    gint rows = GST_VIDEO_INFO_HEIGHT (&filter->out_info);
    gsize row_bytes = (gsize) width * pstride;
    guint8 *h_ref;

    if (!gst_ce_base_filter_map_picture (&in, &filter->in_info, inbuf,
            GST_MAP_READ))
      goto map_failed;
    if (!gst_ce_base_filter_map_picture (&out, &filter->out_info, outbuf,
            GST_MAP_READ)) {
      gst_video_frame_unmap (&in);
      goto map_failed;
    }
    h_ref = gst_ce_check_buffer_get (&priv->reference, row_bytes * rows);
    status = h_ref ? gst_ce_base_filter_run_cpu (self, &in, params, h_ref,
        row_bytes) : CE_STATUS_OUT_OF_MEMORY;
    if (status == CE_STATUS_OK)
      mismatches = ce_compare_pixels (h_ref, row_bytes,
          GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0), width, rows, pstride,
          &diff);
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&in);
    if (status != CE_STATUS_OK)
      goto check_failed;
  }

  if (gst_ce_stats_frame_timed (&priv->stats, frame))
    gst_ce_stats_add_frame (&priv->stats, check, mismatches, timing, 0.0);
  else
    gst_ce_stats_add_untimed_frame (&priv->stats, check, mismatches);
  if (mismatches)
    return gst_ce_base_filter_report (self, frame, mismatches, &diff,
        check_fail);
  return GST_FLOW_OK;

  /* ERRORS */
gpu_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA processing of a frame in CUDA memory failed."),
        ("frame %" G_GUINT64_FORMAT ": %s: %s. Frames in GPU memory "
            "cannot be redone on the CPU.", frame,
            ce_status_string (gpu_status), ce_last_error ()));
    return GST_FLOW_ERROR;
  }
map_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, READ,
        ("Could not download a checked frame from CUDA memory."), (NULL));
    return GST_FLOW_ERROR;
  }
check_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("%s failed on the CPU.", GET_CLASS (self)->what),
        ("%s: %s", ce_status_string (status), ce_last_error ()));
    return GST_FLOW_ERROR;
  }
}
