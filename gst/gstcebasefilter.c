/* gst-cudaedge: the base class of the elements
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

/* What both elements do alike: properties, backend choice and fall-back,
 * the frame path (synchronous, or with frames in flight on CUDA),
 * events and queries, allocation, input validation, check and
 * statistics.  A subclass supplies its caps, its own properties and the
 * vfuncs of GstCeBaseFilterClass. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcebasefilter.h"
#include "gstcebasefilter-private.h"

#ifdef GST_CE_TEST_HOOKS
#include "cudaedge-testing.h"
#endif

GST_DEBUG_CATEGORY (gst_ce_base_filter_debug);
#define GST_CAT_DEFAULT gst_ce_base_filter_debug

#define DEFAULT_CHECK FALSE
#define DEFAULT_CHECK_INTERVAL 1
#define DEFAULT_CHECK_FAIL GST_CE_CHECK_FAIL_WARN
#define DEFAULT_BACKEND GST_CE_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_N_THREADS 0

enum
{
  PROP_0,
  PROP_CHECK,
  PROP_CHECK_INTERVAL,
  PROP_CHECK_FAIL,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_STATS,
  PROP_N_THREADS
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCeBaseFilter, gst_ce_base_filter,
    GST_TYPE_VIDEO_FILTER);

GstCeBaseFilterPrivate *
gst_ce_base_filter_priv (GstCeBaseFilter * self)
{
  return gst_ce_base_filter_get_instance_private (self);
}

/* ---- enums ---- */

GType
gst_ce_backend_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CE_BACKEND_AUTO, "CUDA when a device works, else the CPU", "auto"},
    {GST_CE_BACKEND_CUDA, "CUDA only (error when no device works)", "cuda"},
    {GST_CE_BACKEND_CPU, "The CPU only (vectorised, one band per thread)",
        "cpu"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaEdgeBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_ce_check_fail_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CE_CHECK_FAIL_WARN, "Post a message and a warning, keep going",
        "warn"},
    {GST_CE_CHECK_FAIL_ERROR, "Post a message and a stream error", "error"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaEdgeCheckFail", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- properties ---- */

static void
gst_ce_base_filter_init (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
  priv->check = DEFAULT_CHECK;
  priv->check_interval = DEFAULT_CHECK_INTERVAL;
  priv->check_fail = DEFAULT_CHECK_FAIL;
  priv->n_threads = DEFAULT_N_THREADS;
  g_mutex_init (&priv->lock);
#ifdef HAVE_GST_CUDA
  gst_ce_in_flight_init (&priv->in_flight, gst_ce_cuda_memory_wait, self);
#else
  gst_ce_in_flight_init (&priv->in_flight, NULL, NULL);
#endif
  gst_ce_stats_init (&priv->stats);
  priv->corrupt_frame = -1;
  /* A GAP input holds neutral data, whose upscale is neutral too, and so
   * are its edges except where the border rule makes some: the output
   * keeps the flag unless the subclass's gap_neutral says otherwise. */
  gst_base_transform_set_gap_aware (GST_BASE_TRANSFORM (self), TRUE);
}

static void
gst_ce_base_filter_finalize (GObject * object)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (GST_CE_BASE_FILTER (object));

  gst_ce_in_flight_clear (&priv->in_flight);
#ifdef HAVE_GST_CUDA
  gst_clear_object (&priv->gst_ctx);
#endif
  if (priv->ctx)
    gst_ce_context_unref (priv->ctx);
  gst_ce_bands_free (priv->bands);
  gst_ce_check_buffer_clear (&priv->reference);
  gst_ce_stats_clear (&priv->stats);
  g_mutex_clear (&priv->lock);

  G_OBJECT_CLASS (gst_ce_base_filter_parent_class)->finalize (object);
}

/* backend, cuda-device-id and n-threads are read once, in start.  Called
 * with the object lock held, which GST_STATE and props_read want.  From
 * the moment start reads them (the state still READY) until stop, or a
 * start that fails, they are refused rather than accepted and never
 * applied. */
static gboolean
gst_ce_base_filter_ready_only (GstCeBaseFilter * self, GParamSpec * pspec)
{
  if (GST_STATE (self) > GST_STATE_READY || GET_PRIV (self)->props_read) {
    GST_WARNING_OBJECT (self, "property '%s' can only be changed in the "
        "NULL or READY state; ignoring the new value", pspec->name);
    return FALSE;
  }
  return TRUE;
}

static void
gst_ce_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (object);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CHECK:
      priv->check = g_value_get_boolean (value);
      break;
    case PROP_CHECK_INTERVAL:
      priv->check_interval = g_value_get_uint (value);
      break;
    case PROP_CHECK_FAIL:
      priv->check_fail = g_value_get_enum (value);
      break;
    case PROP_BACKEND:
      if (gst_ce_base_filter_ready_only (self, pspec))
        priv->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
      if (gst_ce_base_filter_ready_only (self, pspec))
        priv->device_id = g_value_get_int (value);
      break;
    case PROP_N_THREADS:
      if (gst_ce_base_filter_ready_only (self, pspec))
        priv->n_threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ce_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (object);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  /* Under the statistics lock only. */
  if (prop_id == PROP_STATS) {
    gchar *name = g_strdup_printf ("%s-stats", GET_CLASS (self)->name);

    g_value_take_boxed (value, gst_ce_stats_to_structure (&priv->stats,
            name));
    g_free (name);
    return;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CHECK:
      g_value_set_boolean (value, priv->check);
      break;
    case PROP_CHECK_INTERVAL:
      g_value_set_uint (value, priv->check_interval);
      break;
    case PROP_CHECK_FAIL:
      g_value_set_enum (value, priv->check_fail);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, priv->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, priv->device_id);
      break;
    case PROP_N_THREADS:
      g_value_set_uint (value, priv->n_threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- start and stop ---- */

#ifdef GST_CE_TEST_HOOKS
/* A frame number from <NAME>_TEST_<WHAT>, or -1.  Test builds only. */
static gint64
gst_ce_base_filter_read_hook (GstCeBaseFilter * self, const gchar * what)
{
  gchar *upper = g_ascii_strup (GET_CLASS (self)->name, -1);
  gchar *var = g_strdup_printf ("%s_TEST_%s", upper, what);
  const gchar *env = g_getenv (var);
  gchar *end = NULL;
  gint64 n = -1;

  if (env && *env) {
    n = g_ascii_strtoll (env, &end, 10);
    if (!end || *end != '\0' || n < 0 || n >= G_MAXINT)
      n = -1;
    GST_WARNING_OBJECT (self, "test hook %s=\"%s\": frame %" G_GINT64_FORMAT,
        var, env, n);
  }
  g_free (var);
  g_free (upper);
  return n;
}
#endif

void
gst_ce_base_filter_set_context (GstCeBaseFilter * self, GstCeContext * ctx)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeContext *old;

  /* The latency and whether frames are in flight follow in
   * gst_ce_base_filter_update_latency (), which tells the pipeline when
   * they change (a fall-back to the CPU mid-stream), or in stop (). */
  g_mutex_lock (&priv->lock);
  old = priv->ctx;
  priv->ctx = ctx;
  g_mutex_unlock (&priv->lock);

  if (old)
    gst_ce_context_unref (old);
}

static gboolean
gst_ce_base_filter_start (GstBaseTransform * trans)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeBaseFilterClass *klass = GET_CLASS (self);
  GstCeContext *ctx = NULL;
  ce_status status = CE_STATUS_OK;
  GstCeBackend backend;
  gint device_id;
  guint n_threads;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  n_threads = priv->n_threads;
  priv->props_read = TRUE;
  GST_OBJECT_UNLOCK (self);

  if (backend != GST_CE_BACKEND_CPU) {
    gpointer gst_ctx = NULL;

#ifdef HAVE_GST_CUDA
    gst_ctx = gst_ce_cuda_memory_ensure_context (self, device_id);
#endif
    ctx = gst_ce_context_new (gst_ctx, device_id, &status);
    if (gst_ctx)
      gst_object_unref (gst_ctx);
    if (!ctx && backend == GST_CE_BACKEND_CUDA)
      goto no_device;
  }

  priv->requested = backend;
  priv->frame_count = 0;
  gst_ce_qos_reset_stats (self);
  gst_ce_base_filter_set_context (self, ctx);
  gst_ce_stats_reset (&priv->stats, ctx ? "cuda" : "cpu",
      ctx ? gst_ce_context_get_device_name (ctx) : "cpu");
  gst_ce_bands_free (priv->bands);
  priv->bands = gst_ce_bands_new (n_threads);
  g_mutex_lock (&priv->lock);
  priv->started = TRUE;
  g_mutex_unlock (&priv->lock);

#ifdef GST_CE_TEST_HOOKS
  priv->corrupt_frame = gst_ce_base_filter_read_hook (self, "CORRUPT_FRAME");
  if (ctx) {
    /* The core counts submissions from now on, 1-based. */
    gint64 fail = gst_ce_base_filter_read_hook (self, "CUDA_FAIL_FRAME");

    if (fail >= 0)
      ce_cuda_ctx_inject_failure (gst_ce_context_get_handle (ctx),
          (int) fail + 1);
  }
#endif

  if (ctx) {
    GST_CAT_INFO_OBJECT (klass->debug, self, "using the CUDA backend on "
        "device %d (%s)", gst_ce_context_get_device_id (ctx),
        gst_ce_context_get_device_name (ctx));
  } else if (backend == GST_CE_BACKEND_AUTO && device_id >= 0) {
    /* A device the application named and did not get: said on the bus,
     * not only in the log. */
    GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
        ("Could not open CUDA device %d; using the CPU backend.", device_id),
        ("%s (backend=auto)", ce_last_error ()));
  } else if (backend == GST_CE_BACKEND_AUTO) {
    GST_CAT_WARNING_OBJECT (klass->debug, self, "no usable CUDA device, "
        "using the CPU backend: %s", ce_last_error ());
  } else {
    GST_CAT_INFO_OBJECT (klass->debug, self, "using the CPU backend "
        "(backend=cpu) on %u threads", gst_ce_bands_get_n_threads
        (priv->bands));
  }
  return TRUE;

  /* ERRORS */
no_device:
  {
    GST_OBJECT_LOCK (self);
    priv->props_read = FALSE;
    GST_OBJECT_UNLOCK (self);
    if (status == CE_STATUS_NOT_BUILT) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("This build has no CUDA support (backend=cuda)."),
          ("%s. Use backend=auto or backend=cpu.", ce_last_error ()));
    } else if (device_id >= 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("Could not open CUDA device %d (backend=cuda).", device_id),
          ("%s. Use backend=auto or backend=cpu to run without a GPU.",
              ce_last_error ()));
    } else {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device found (backend=cuda)."),
          ("%s. Use backend=auto or backend=cpu to run without a GPU.",
              ce_last_error ()));
    }
    return FALSE;
  }
}

static gboolean
gst_ce_base_filter_stop (GstBaseTransform * trans)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  /* Frames still in flight are discarded.  Statistics and the backend
   * name stay readable after stop. */
  gst_ce_in_flight_discard (&priv->in_flight);
#ifdef HAVE_GST_CUDA
  gst_ce_cuda_memory_stop (self);
#endif
  gst_ce_base_filter_set_context (self, NULL);
  g_clear_pointer (&priv->bands, gst_ce_bands_free);
  g_mutex_lock (&priv->lock);
  priv->started = FALSE;
  priv->latency = 0;
  priv->pipelined = FALSE;
  g_mutex_unlock (&priv->lock);
  GST_OBJECT_LOCK (self);
  priv->props_read = FALSE;
  GST_OBJECT_UNLOCK (self);
  gst_ce_check_buffer_clear (&priv->reference);
  return TRUE;
}

/* ---- negotiation ---- */

/* Frames in flight need CUDA and a known frame rate, to size the latency
 * they add.  Streaming thread. */
gboolean
gst_ce_base_filter_is_pipelined (GstCeBaseFilter * self)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);

  return GET_PRIV (self)->ctx != NULL && filter->negotiated
      && GST_VIDEO_INFO_FPS_N (&filter->in_info) > 0;
}

/* Frames the element holds besides the one it works on: each pool needs
 * that many buffers more. */
static guint
gst_ce_base_filter_frames_held (GstCeBaseFilter * self)
{
  return gst_ce_base_filter_is_pipelined (self) ? CE_CUDA_SLOTS - 1 : 0;
}

void
gst_ce_base_filter_update_latency (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClockTime latency = 0;
  gboolean changed, pipelined = gst_ce_base_filter_is_pipelined (self);

  if (pipelined)
    latency = gst_util_uint64_scale_int (GST_SECOND * (CE_CUDA_SLOTS - 1),
        GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));

  g_mutex_lock (&priv->lock);
  changed = latency != priv->latency;
  priv->latency = latency;
  priv->pipelined = pipelined;
  g_mutex_unlock (&priv->lock);

  /* The pipeline asks again when told that the latency changed. */
  if (changed) {
    GST_INFO_OBJECT (self, "%s: latency %" GST_TIME_FORMAT,
        latency ? "frames in flight" : "synchronous",
        GST_TIME_ARGS (latency));
    gst_element_post_message (GST_ELEMENT_CAST (self),
        gst_message_new_latency (GST_OBJECT_CAST (self)));
  }
}

static gboolean
gst_ce_base_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (filter);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);

  /* Frames of the old caps leave under them, before anything changes.
   * CAPS is serialized, so they were drained before it, and so they were
   * before a renegotiation downstream asked for (gstceqos.c), unless its
   * RECONFIGURE came between that look and GstBaseTransform's own. */
  if (gst_ce_in_flight_length (&priv->in_flight) > 0) {
    GstFlowReturn flow = gst_ce_base_filter_drain (self);

    if (flow <= GST_FLOW_NOT_NEGOTIATED)
      priv->drain_flow = flow;
  }

  if (!gst_ce_base_filter_views_ok_for (in_info, TRUE)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Multiview video with its views in separate memories is not "
            "supported."), ("multiview-mode %s",
            gst_video_multiview_mode_to_caps_string
            (GST_VIDEO_INFO_MULTIVIEW_MODE (in_info))));
    return FALSE;
  }

  if (!GET_CLASS (self)->set_info (self, in_info, out_info)) {
    GST_ERROR_OBJECT (self, "cannot convert %" GST_PTR_FORMAT " to %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }

#ifdef HAVE_GST_CUDA
  if (!gst_ce_cuda_memory_set_caps (self, incaps, outcaps))
    return FALSE;
#endif

  /* GstVideoFilter sets in_info and negotiated after this returns. */
  filter->in_info = *in_info;
  filter->out_info = *out_info;
  filter->negotiated = TRUE;
  gst_ce_base_filter_update_latency (self);
  return TRUE;
}

static gboolean
gst_ce_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstBaseTransformClass *parent =
      GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class);
  gboolean ret;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* Forwarded first: that unblocks downstream and with it a streaming
       * thread waiting there or for an output buffer. */
      ret = parent->sink_event (trans, event);
      gst_ce_in_flight_discard (&priv->in_flight);
      return ret;
    case GST_EVENT_FLUSH_STOP:
      gst_ce_in_flight_discard (&priv->in_flight);
      gst_ce_qos_reset (self);
      break;
    default:
      /* Outputs of earlier buffers go before the event, in order. */
      if (GST_EVENT_IS_SERIALIZED (event)) {
        GstFlowReturn flow = gst_ce_base_filter_drain (self);

        if (flow <= GST_FLOW_NOT_NEGOTIATED)
          priv->drain_flow = flow;

        /* After EOS no buffer comes whose flow return could tell
         * upstream that frames were lost: said on the bus instead, as a
         * source says it.  (An error there was posted where it arose.) */
        if (GST_EVENT_TYPE (event) == GST_EVENT_EOS
            && (flow == GST_FLOW_NOT_LINKED
                || flow == GST_FLOW_NOT_NEGOTIATED))
          GST_ELEMENT_FLOW_ERROR (self, flow);
      }
      break;
  }
  return parent->sink_event (trans, event);
}

static gboolean
gst_ce_base_filter_src_event (GstBaseTransform * trans, GstEvent * event)
{
  gboolean result;

  if (gst_ce_qos_src_event (GST_CE_BASE_FILTER (trans), event, &result))
    return result;
  return GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)->src_event
      (trans, event);
}

static gboolean
gst_ce_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstClockTime latency;
  gboolean ret;

  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN) {
    GstFlowReturn flow = gst_ce_base_filter_drain (self);

    if (flow <= GST_FLOW_NOT_NEGOTIATED)
      priv->drain_flow = flow;
  }

#ifdef HAVE_GST_CUDA
  /* Neighbours asking for GStreamer's CUDA context get ours. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstCudaContext *gst_ctx = NULL;

    g_mutex_lock (&priv->lock);
    if (priv->gst_ctx)
      gst_ctx = gst_object_ref (priv->gst_ctx);
    g_mutex_unlock (&priv->lock);
    ret = gst_cuda_handle_context_query (GST_ELEMENT_CAST (self), query,
        gst_ctx);
    gst_clear_object (&gst_ctx);
    if (ret)
      return TRUE;
  }
#endif

  ret = GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)->query
      (trans, direction, query);

  if (ret && direction == GST_PAD_SRC
      && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    g_mutex_lock (&priv->lock);
    latency = priv->latency;
    g_mutex_unlock (&priv->lock);

    if (latency > 0) {
      GstClockTime min, max;
      gboolean live;

      gst_query_parse_latency (query, &live, &min, &max);
      min += latency;
      if (GST_CLOCK_TIME_IS_VALID (max))
        max += latency;
      gst_query_set_latency (query, live, min, max);
      GST_DEBUG_OBJECT (self, "frames in flight: latency %"
          GST_TIME_FORMAT " - %" GST_TIME_FORMAT, GST_TIME_ARGS (min),
          GST_TIME_ARGS (max));
    }
  }
  return ret;
}

/* ---- allocation ---- */

/* A new reference on the context in use, or NULL on the CPU.  Allocation
 * queries may come from another thread than the streaming one. */
static GstCeContext *
gst_ce_base_filter_get_context (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeContext *ctx = NULL;

  g_mutex_lock (&priv->lock);
  if (priv->ctx)
    ctx = gst_ce_context_ref (priv->ctx);
  g_mutex_unlock (&priv->lock);
  return ctx;
}

/* On CUDA, upstream fills pinned memory, so the core uploads straight
 * from it without a staging copy. */
static gboolean
gst_ce_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeContext *ctx;
  gboolean ret = FALSE;

#ifdef HAVE_GST_CUDA
  if (GET_PRIV (self)->in_cuda)
    return gst_ce_cuda_memory_propose_allocation (self, query,
        gst_ce_base_filter_frames_held (self));
#endif

  /* The element keeps the inputs of the frames in flight. */
  ctx = gst_ce_base_filter_get_context (self);
  if (ctx) {
    ret = gst_ce_pinned_propose_allocation (ctx, query,
        gst_ce_base_filter_frames_held (self));
    gst_ce_context_unref (ctx);
  }
  if (ret) {
    GST_DEBUG_OBJECT (self, "proposed a pinned-memory pool upstream");
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)
      ->propose_allocation (trans, decide_query, query);
}

/* On CUDA, results are downloaded straight into pinned output buffers. */
static gboolean
gst_ce_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstCeContext *ctx;
  gboolean ret = FALSE;

#ifdef HAVE_GST_CUDA
  if (GET_PRIV (self)->out_cuda)
    return gst_ce_cuda_memory_decide_allocation (self, query,
        gst_ce_base_filter_frames_held (self));
#endif

  /* The element keeps the outputs of the frames in flight besides what
   * downstream needs. */
  ctx = gst_ce_base_filter_get_context (self);
  if (ctx) {
    ret = gst_ce_pinned_decide_allocation (ctx, query,
        gst_ce_base_filter_frames_held (self));
    gst_ce_context_unref (ctx);
  }
  if (ret) {
    GST_DEBUG_OBJECT (self, "output buffers come from pinned memory");
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)
      ->decide_allocation (trans, query);
}

/* Whether frames of multiview @mode can be worked on as one picture:
 * not with their views in separate memories (only the first would be),
 * nor, unless @packed_ok, with pixels of the views alternating by rows,
 * columns or both. */
static gboolean
gst_ce_base_filter_views_ok (GstVideoMultiviewMode mode, gboolean packed_ok)
{
  switch (mode) {
    case GST_VIDEO_MULTIVIEW_MODE_SEPARATED:
      return FALSE;
    case GST_VIDEO_MULTIVIEW_MODE_ROW_INTERLEAVED:
    case GST_VIDEO_MULTIVIEW_MODE_COLUMN_INTERLEAVED:
    case GST_VIDEO_MULTIVIEW_MODE_CHECKERBOARD:
    case GST_VIDEO_MULTIVIEW_MODE_SIDE_BY_SIDE_QUINCUNX:
      return packed_ok;
    default:
      return TRUE;
  }
}

static gboolean
gst_ce_base_filter_view_value_ok (const GValue * v, gboolean packed_ok)
{
  return G_VALUE_HOLDS_STRING (v) && g_value_get_string (v)
      && gst_ce_base_filter_views_ok (gst_video_multiview_mode_from_caps_string
      (g_value_get_string (v)), packed_ok);
}

gboolean
gst_ce_base_filter_restrict_views (GstStructure * out, gboolean packed_ok)
{
  const GValue *v = gst_structure_get_value (out, "multiview-mode");
  GValue kept = G_VALUE_INIT;
  guint i, n;

  if (!v)
    return TRUE;
  if (!GST_VALUE_HOLDS_LIST (v))
    return gst_ce_base_filter_view_value_ok (v, packed_ok);
  g_value_init (&kept, GST_TYPE_LIST);
  n = gst_value_list_get_size (v);
  for (i = 0; i < n; i++) {
    const GValue *mode = gst_value_list_get_value (v, i);

    if (gst_ce_base_filter_view_value_ok (mode, packed_ok))
      gst_value_list_append_value (&kept, mode);
  }
  n = gst_value_list_get_size (&kept);
  if (n == 0) {
    g_value_unset (&kept);
    return FALSE;
  }
  if (n == 1)
    gst_structure_set_value (out, "multiview-mode",
        gst_value_list_get_value (&kept, 0));
  else
    gst_structure_set_value (out, "multiview-mode", &kept);
  g_value_unset (&kept);
  return TRUE;
}

gboolean
gst_ce_base_filter_views_ok_for (const GstVideoInfo * info, gboolean packed_ok)
{
  return gst_ce_base_filter_views_ok (GST_VIDEO_INFO_MULTIVIEW_MODE (info),
      packed_ok);
}

GstCaps *
gst_ce_base_filter_filter_caps (GstCeBaseFilter * self,
    GstPadDirection direction, GstCaps * caps, GstCaps * result,
    GstCaps * filter)
{
  /* In fixed input caps (the stream's, or an upstream answer to a query
   * that happens to be fixed) a missing pixel-aspect-ratio,
   * interlace-mode or multiview-mode is its default (1/1, progressive,
   * mono: as GstVideoInfo reads it): said on the output, whose caps are
   * then fixed too, so that a peer that lists the field accepts them
   * (GstBaseTransform does not ask the peer to fill in caps that are
   * already fixed).  Queries from downstream (the other direction) keep
   * a missing field as "any". */
  if (direction == GST_PAD_SINK && gst_caps_is_fixed (caps)
      && !gst_caps_is_empty (result)) {
    const GstStructure *in = gst_caps_get_structure (caps, 0);
    guint i;

    result = gst_caps_make_writable (result);
    for (i = 0; i < gst_caps_get_size (result); i++) {
      GstStructure *s = gst_caps_get_structure (result, i);

      if (!gst_structure_has_field (in, "pixel-aspect-ratio")
          && !gst_structure_has_field (s, "pixel-aspect-ratio"))
        gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
            NULL);
      if (!gst_structure_has_field (in, "interlace-mode")
          && !gst_structure_has_field (s, "interlace-mode"))
        gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
            NULL);
      if (!gst_structure_has_field (in, "multiview-mode")
          && !gst_structure_has_field (s, "multiview-mode"))
        gst_structure_set (s, "multiview-mode", G_TYPE_STRING, "mono", NULL);
    }
  }
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }
  GST_CAT_DEBUG_OBJECT (GET_CLASS (self)->debug, self, "%s caps %"
      GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

void
gst_ce_base_filter_fixate_defaults (const GstStructure * in,
    GstStructure * out)
{
  if (!gst_structure_has_field (in, "pixel-aspect-ratio")
      && gst_structure_has_field (out, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (out, "pixel-aspect-ratio",
        1, 1);
  if (!gst_structure_has_field (in, "interlace-mode")
      && gst_structure_has_field (out, "interlace-mode"))
    gst_structure_fixate_field_string (out, "interlace-mode", "progressive");
  if (!gst_structure_has_field (in, "multiview-mode")
      && gst_structure_has_field (out, "multiview-mode"))
    gst_structure_fixate_field_string (out, "multiview-mode", "mono");
}

/* The output's fields follow the input's (transform_caps); a field the
 * input leaves out is at its default, not the first value the peer
 * lists. */
static GstCaps *
gst_ce_base_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  if (!gst_caps_is_empty (othercaps) && !gst_caps_is_any (othercaps)
      && !gst_caps_is_empty (caps) && !gst_caps_is_any (caps))
    gst_ce_base_filter_fixate_defaults (gst_caps_get_structure (caps, 0),
        gst_caps_get_structure (othercaps, 0));
  return GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)
      ->fixate_caps (trans, direction, caps, othercaps);
}

gboolean
gst_ce_base_filter_can_use_cuda_memory (G_GNUC_UNUSED GstCeBaseFilter * self)
{
#ifdef HAVE_GST_CUDA
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeBackend backend;
  gboolean started, ret;

  /* Before start (pads linked in NULL, caps queries in READY) the
   * backend property decides; once started, whether CUDA runs.  Either
   * way GStreamer's CUDA library must be there (not on the emulated
   * device of the tests), asked last: it loads the driver's library. */
  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&priv->lock);
  started = priv->started;
  ret = started ? priv->ctx != NULL : backend != GST_CE_BACKEND_CPU;
  g_mutex_unlock (&priv->lock);
  return ret && gst_ce_cuda_memory_available ();
#else
  return FALSE;
#endif
}

/* An output buffer the pool cannot give (out of memory, pinned or not)
 * is an error on the bus, not only a flow return that upstream reports
 * as an internal data-flow error. */
static GstFlowReturn
gst_ce_base_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS (gst_ce_base_filter_parent_class)
      ->prepare_output_buffer (trans, inbuf, outbuf);

  if (ret == GST_FLOW_ERROR || (ret == GST_FLOW_OK && *outbuf == NULL)) {
    GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);

    /* The parent itself reports a pool that could not be activated and
     * an allocation without a pool. */
    if (pool && gst_buffer_pool_is_active (pool))
      GST_ELEMENT_ERROR (trans, RESOURCE, NO_SPACE_LEFT,
          ("Could not allocate an output buffer."),
          ("%s could not give a buffer", GST_OBJECT_NAME (pool)));
    gst_clear_object (&pool);
    if (ret == GST_FLOW_OK)
      ret = GST_FLOW_ERROR;
  }
  return ret;
}

/* Controlled properties follow the stream time of each input (which only
 * TIME segments have). */
static void
gst_ce_base_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime stream_time;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* ---- class ---- */

static void
gst_ce_base_filter_class_init (GstCeBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_ce_base_filter_debug, "cebasefilter", 0,
      "gst-cudaedge element base class");
  gst_ce_context_init_debug ();
#ifdef HAVE_GST_CUDA
  gst_cuda_memory_init_once ();
  GST_ELEMENT_CLASS (klass)->set_context =
      GST_DEBUG_FUNCPTR (gst_ce_cuda_memory_set_element_context);
#endif

  gobject_class->set_property = gst_ce_base_filter_set_property;
  gobject_class->get_property = gst_ce_base_filter_get_property;
  gobject_class->finalize = gst_ce_base_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_CHECK,
      g_param_spec_boolean ("check", "Check",
          "Compare the GPU output with the CPU's every check-interval "
          "frames and report mismatches (no effect on the CPU backend, "
          "whose output is the CPU's)", DEFAULT_CHECK,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CHECK_INTERVAL,
      g_param_spec_uint ("check-interval", "Check interval",
          "Check frames 0, N, 2N, ... counted since start, in frames "
          "(1 - 4294967295)", 1, G_MAXUINT, DEFAULT_CHECK_INTERVAL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CHECK_FAIL,
      g_param_spec_enum ("check-fail", "Check failure",
          "What a mismatch found by check does besides posting the "
          "<element>-check element message", GST_TYPE_CE_CHECK_FAIL,
          DEFAULT_CHECK_FAIL, G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are processed", GST_TYPE_CE_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device index to use, -1 for the first usable one "
          "(-1 - 32767)", -1, G_MAXINT16, DEFAULT_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Since the last start: frames, frames-checked, mismatches, "
          "timed-frames (guint64), backend (\"cuda\" or \"cpu\"; \"none\" "
          "before the first start), device (name, \"cpu\" or \"none\"), "
          "mean upload-us, kernel-us, download-us over "
          "the timed GPU frames (every " G_STRINGIFY (GST_CE_STATS_SAMPLE)
          "th; all once stats has been read) "
          "and cpu-us per CPU frame (microseconds)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_N_THREADS,
      g_param_spec_uint ("n-threads", "Threads",
          "Threads for CPU frames and checks, 0 for one per core "
          "(0 - 2147483647)", 0, G_MAXINT, DEFAULT_N_THREADS,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_ce_base_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_ce_base_filter_stop);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_ce_base_filter_fixate_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_ce_base_filter_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_prepare_output_buffer);
  /* Frames in flight on CUDA: outputs leave CE_CUDA_SLOTS - 1 inputs
   * late, are drained before serialized events, DRAIN queries, DISCONT
   * inputs and renegotiations, and add that much latency;
   * submit_input_buffer keeps QoS while they are in flight
   * (gstceqos.c). */
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_ce_base_filter_sink_event);
  trans_class->src_event = GST_DEBUG_FUNCPTR (gst_ce_base_filter_src_event);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_submit_input_buffer);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_ce_base_filter_query);
  /* The output is never the input. */
  trans_class->passthrough_on_same_caps = FALSE;

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_ce_base_filter_set_info);
  /* Also tells GstVideoFilter that the element is not in-place. */
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_ce_base_filter_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CE_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CE_CHECK_FAIL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CE_BASE_FILTER, 0);
}
