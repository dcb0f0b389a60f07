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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "gstcudaedgecommon.h"

GST_DEBUG_CATEGORY_STATIC (gst_ce_common_debug);
#define GST_CAT_DEFAULT gst_ce_common_debug

static void
gst_ce_init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_ce_common_debug, "cudaedgecommon", 0,
        "gst-cudaedge shared element code");
    g_once_init_leave (&done, 1);
  }
}

/* ---- enums ---- */

GType
gst_ce_backend_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CE_BACKEND_AUTO, "CUDA when a device works, else the CPU", "auto"},
    {GST_CE_BACKEND_CUDA, "CUDA only (error when no device works)", "cuda"},
    {GST_CE_BACKEND_CPU, "CPU reference only", "cpu"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCeBackend", values);
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
    GType t = g_enum_register_static ("GstCeCheckFail", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---- context ---- */

struct _GstCeContext
{
  ce_cuda_ctx *handle;
  gchar *device_name;
  gint device_id;
};

GstCeContext *
gst_ce_context_new (gint device_id, ce_status * status)
{
  GstCeContext *ctx;
  ce_cuda_ctx *handle = NULL;
  ce_status ret;

  gst_ce_init_debug ();

  ret = ce_cuda_ctx_new (device_id, GST_CE_CUDA_STREAMS, &handle);
  if (status)
    *status = ret;
  if (ret != CE_STATUS_OK)
    return NULL;

  ctx = g_atomic_rc_box_new0 (GstCeContext);
  ctx->handle = handle;
  ctx->device_id = ce_cuda_ctx_device_id (handle);
  ctx->device_name = g_strdup (ce_cuda_ctx_device_name (handle));
  return ctx;
}

GstCeContext *
gst_ce_context_ref (GstCeContext * ctx)
{
  return g_atomic_rc_box_acquire (ctx);
}

static void
gst_ce_context_free_contents (GstCeContext * ctx)
{
  GST_DEBUG ("freeing CUDA context of device %d", ctx->device_id);
  ce_cuda_ctx_free (ctx->handle);
  g_free (ctx->device_name);
}

void
gst_ce_context_unref (GstCeContext * ctx)
{
  g_atomic_rc_box_release_full (ctx,
      (GDestroyNotify) gst_ce_context_free_contents);
}

ce_cuda_ctx *
gst_ce_context_get_handle (GstCeContext * ctx)
{
  return ctx->handle;
}

const gchar *
gst_ce_context_get_device_name (GstCeContext * ctx)
{
  return ctx->device_name ? ctx->device_name : "unknown CUDA device";
}

gint
gst_ce_context_get_device_id (GstCeContext * ctx)
{
  return ctx->device_id;
}

/* ---- pinned allocator ---- */

#define GST_CE_PINNED_MEMORY_TYPE "CudaEdgePinnedMemory"

typedef struct
{
  GstMemory mem;
  gpointer data;                /* start of the whole allocation (parent) */
} GstCePinnedMemory;

struct _GstCePinnedAllocator
{
  GstAllocator parent;
  GstCeContext *ctx;
};

G_DEFINE_TYPE (GstCePinnedAllocator, gst_ce_pinned_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
gst_ce_pinned_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCePinnedAllocator *self = GST_CE_PINNED_ALLOCATOR (allocator);
  GstCePinnedMemory *mem;
  gsize maxsize, align;
  gpointer data = NULL;
  ce_status ret;

  /* cudaHostAlloc memory is page aligned, which covers any alignment a
   * GstVideoBufferPool asks for up to a page. */
  align = params->align;
  if (align >= 4096) {
    GST_WARNING_OBJECT (self, "alignment %" G_GSIZE_FORMAT " not supported",
        align + 1);
    return NULL;
  }

  maxsize = size + params->prefix + params->padding;
  ret = ce_cuda_host_alloc (gst_ce_context_get_handle (self->ctx), maxsize,
      &data);
  if (ret != CE_STATUS_OK || data == NULL) {
    GST_WARNING_OBJECT (self, "pinned allocation of %" G_GSIZE_FORMAT
        " bytes failed: %s (%s)", maxsize, ce_status_string (ret),
        ce_last_error ());
    return NULL;
  }

  mem = g_new0 (GstCePinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, align, params->prefix, size);
  mem->data = data;

  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix)
    memset (data, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset ((guint8 *) data + params->prefix + size, 0, params->padding);

  return GST_MEMORY_CAST (mem);
}

static void
gst_ce_pinned_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCePinnedAllocator *self = GST_CE_PINNED_ALLOCATOR (allocator);
  GstCePinnedMemory *mem = (GstCePinnedMemory *) memory;

  /* Shared sub-memories point into their parent's allocation. */
  if (memory->parent == NULL) {
    ce_status ret = ce_cuda_host_free (gst_ce_context_get_handle (self->ctx),
        mem->data);
    if (ret != CE_STATUS_OK)
      GST_WARNING_OBJECT (self, "freeing pinned memory failed: %s (%s)",
          ce_status_string (ret), ce_last_error ());
  }
  g_free (mem);
}

static gpointer
gst_ce_pinned_memory_map (GstMemory * memory, G_GNUC_UNUSED gsize maxsize,
    G_GNUC_UNUSED GstMapFlags flags)
{
  /* Host memory: nothing to synchronise. */
  return ((GstCePinnedMemory *) memory)->data;
}

static void
gst_ce_pinned_memory_unmap (G_GNUC_UNUSED GstMemory * memory)
{
}

static GstMemory *
gst_ce_pinned_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstCePinnedMemory *parent_mem = (GstCePinnedMemory *) memory;
  GstCePinnedMemory *sub;
  GstMemory *parent;

  if (size == -1)
    size = memory->size - offset;

  if ((parent = memory->parent) == NULL)
    parent = memory;

  sub = g_new0 (GstCePinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, parent, memory->maxsize, memory->align,
      memory->offset + offset, size);
  sub->data = parent_mem->data;
  return GST_MEMORY_CAST (sub);
}

static GstMemory *
gst_ce_pinned_memory_copy (GstMemory * memory, gssize offset, gssize size)
{
  GstMemory *copy;
  GstMapInfo in, out;

  if (size == -1)
    size = memory->size > (gsize) offset ? memory->size - offset : 0;

  /* Copies go to ordinary memory: they leave the GPU path anyway. */
  copy = gst_allocator_alloc (NULL, size, NULL);
  if (!copy)
    return NULL;
  if (!gst_memory_map (memory, &in, GST_MAP_READ)) {
    gst_memory_unref (copy);
    return NULL;
  }
  if (!gst_memory_map (copy, &out, GST_MAP_WRITE)) {
    gst_memory_unmap (memory, &in);
    gst_memory_unref (copy);
    return NULL;
  }
  memcpy (out.data, in.data + offset, size);
  gst_memory_unmap (copy, &out);
  gst_memory_unmap (memory, &in);
  return copy;
}

static void
gst_ce_pinned_allocator_finalize (GObject * object)
{
  GstCePinnedAllocator *self = GST_CE_PINNED_ALLOCATOR (object);

  if (self->ctx)
    gst_ce_context_unref (self->ctx);

  G_OBJECT_CLASS (gst_ce_pinned_allocator_parent_class)->finalize (object);
}

static void
gst_ce_pinned_allocator_class_init (GstCePinnedAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->finalize = gst_ce_pinned_allocator_finalize;
  allocator_class->alloc = gst_ce_pinned_allocator_alloc;
  allocator_class->free = gst_ce_pinned_allocator_free;
}

static void
gst_ce_pinned_allocator_init (GstCePinnedAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CE_PINNED_MEMORY_TYPE;
  alloc->mem_map = gst_ce_pinned_memory_map;
  alloc->mem_unmap = gst_ce_pinned_memory_unmap;
  alloc->mem_share = gst_ce_pinned_memory_share;
  alloc->mem_copy = gst_ce_pinned_memory_copy;

  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_ce_pinned_allocator_new (GstCeContext * ctx)
{
  GstCePinnedAllocator *self;

  g_return_val_if_fail (ctx != NULL, NULL);

  gst_ce_init_debug ();
  self = g_object_new (GST_TYPE_CE_PINNED_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->ctx = gst_ce_context_ref (ctx);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_ce_is_pinned_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CE_PINNED_ALLOCATOR (mem->allocator);
}

GstBufferPool *
gst_ce_pinned_pool_new (GstAllocator * allocator, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstAllocationParams params;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min_buffers,
      max_buffers);
  gst_allocation_params_init (&params);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING ("pinned pool rejected its configuration");
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* ---- runtime ---- */

void
gst_ce_runtime_init (GstCeRuntime * rt, GstElement * element,
    const gchar * name)
{
  gchar *upper;

  gst_ce_init_debug ();

  memset (rt, 0, sizeof (*rt));
  rt->element = element;
  rt->name = g_strdup (name);
  rt->check_message_name = g_strdup_printf ("%s-check", name);
  rt->stats_name = g_strdup_printf ("%s-stats", name);
  upper = g_ascii_strup (name, -1);
  rt->corrupt_env = g_strdup_printf ("%s_TEST_CORRUPT_FRAME", upper);
  g_free (upper);
  g_mutex_init (&rt->lock);
  rt->backend_name = g_strdup ("none");
  rt->device_name = g_strdup ("none");
  rt->corrupt_frame = -1;
}

void
gst_ce_runtime_clear (GstCeRuntime * rt)
{
  gst_ce_runtime_close (rt);
  g_free (rt->name);
  g_free (rt->check_message_name);
  g_free (rt->stats_name);
  g_free (rt->corrupt_env);
  g_free (rt->backend_name);
  g_free (rt->device_name);
  g_mutex_clear (&rt->lock);
}

static void
gst_ce_runtime_set_backend_locked (GstCeRuntime * rt, GstCeContext * ctx)
{
  if (rt->ctx)
    gst_ce_context_unref (rt->ctx);
  rt->ctx = ctx;
  g_free (rt->backend_name);
  g_free (rt->device_name);
  rt->backend_name = g_strdup (ctx ? "cuda" : "cpu");
  rt->device_name = g_strdup (ctx ? gst_ce_context_get_device_name (ctx)
      : "cpu");
}

gboolean
gst_ce_runtime_open (GstCeRuntime * rt, GstCeBackend backend, gint device_id)
{
  GstCeContext *ctx = NULL;
  ce_status status = CE_STATUS_OK;
  const gchar *env;

  gst_ce_runtime_close (rt);

  if (backend != GST_CE_BACKEND_CPU) {
    ctx = gst_ce_context_new (device_id, &status);
    if (!ctx && backend == GST_CE_BACKEND_CUDA)
      goto no_device;
  }

  g_mutex_lock (&rt->lock);
  rt->requested = backend;
  rt->frames = rt->frames_checked = rt->mismatches = 0;
  rt->timed_frames = 0;
  rt->upload_us_sum = rt->kernel_us_sum = rt->download_us_sum = 0.0;
  gst_ce_runtime_set_backend_locked (rt, ctx);

  rt->corrupt_frame = -1;
  env = g_getenv (rt->corrupt_env);
  if (env && *env) {
    gchar *end = NULL;
    gint64 n = g_ascii_strtoll (env, &end, 10);
    if (end && *end == '\0' && n >= 0) {
      rt->corrupt_frame = n;
      GST_WARNING_OBJECT (rt->element, "test hook %s=%" G_GINT64_FORMAT
          ": that frame's output will be corrupted", rt->corrupt_env, n);
    } else {
      GST_WARNING_OBJECT (rt->element, "ignoring %s=\"%s\": not a frame "
          "number", rt->corrupt_env, env);
    }
  }
  g_mutex_unlock (&rt->lock);

  if (ctx) {
    GST_INFO_OBJECT (rt->element, "using the CUDA backend on device %d (%s)",
        gst_ce_context_get_device_id (ctx),
        gst_ce_context_get_device_name (ctx));
  } else if (backend == GST_CE_BACKEND_AUTO) {
    GST_INFO_OBJECT (rt->element, "using the CPU backend: no usable CUDA "
        "device (%s: %s)", ce_status_string (status), ce_last_error ());
  } else {
    GST_INFO_OBJECT (rt->element, "using the CPU backend (backend=cpu)");
  }
  return TRUE;

  /* ERRORS */
no_device:
  {
    if (status == CE_STATUS_NOT_BUILT) {
      GST_ELEMENT_ERROR (rt->element, RESOURCE, NOT_FOUND,
          ("This build has no CUDA support (backend=cuda)."),
          ("%s. Use backend=auto or backend=cpu.", ce_last_error ()));
    } else if (device_id >= 0) {
      GST_ELEMENT_ERROR (rt->element, RESOURCE, NOT_FOUND,
          ("Could not open CUDA device %d (backend=cuda).", device_id),
          ("%s: %s. Use backend=auto or backend=cpu to run without a GPU.",
              ce_status_string (status), ce_last_error ()));
    } else {
      GST_ELEMENT_ERROR (rt->element, RESOURCE, NOT_FOUND,
          ("No usable CUDA device found (backend=cuda)."),
          ("%s: %s. Use backend=auto or backend=cpu to run without a GPU.",
              ce_status_string (status), ce_last_error ()));
    }
    return FALSE;
  }
}

void
gst_ce_runtime_close (GstCeRuntime * rt)
{
  GstCeContext *ctx;

  /* Statistics and the backend name stay readable after stop. */
  g_mutex_lock (&rt->lock);
  ctx = rt->ctx;
  rt->ctx = NULL;
  g_mutex_unlock (&rt->lock);

  if (ctx)
    gst_ce_context_unref (ctx);
}

GstCeContext *
gst_ce_runtime_get_context (GstCeRuntime * rt)
{
  GstCeContext *ctx = NULL;

  g_mutex_lock (&rt->lock);
  if (rt->ctx)
    ctx = gst_ce_context_ref (rt->ctx);
  g_mutex_unlock (&rt->lock);
  return ctx;
}

gboolean
gst_ce_runtime_is_cuda (GstCeRuntime * rt)
{
  gboolean ret;

  g_mutex_lock (&rt->lock);
  ret = rt->ctx != NULL;
  g_mutex_unlock (&rt->lock);
  return ret;
}

gboolean
gst_ce_runtime_cuda_failed (GstCeRuntime * rt, ce_status status,
    const gchar * what)
{
  GstCeBackend requested;

  g_mutex_lock (&rt->lock);
  requested = rt->requested;
  g_mutex_unlock (&rt->lock);

  if (requested == GST_CE_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (rt->element, RESOURCE, FAILED,
        ("CUDA processing failed (backend=cuda)."),
        ("%s: %s: %s. Use backend=auto to fall back to the CPU.", what,
            ce_status_string (status), ce_last_error ()));
    return FALSE;
  }

  GST_ELEMENT_WARNING (rt->element, RESOURCE, FAILED,
      ("CUDA processing failed; continuing on the CPU."),
      ("%s: %s: %s", what, ce_status_string (status), ce_last_error ()));

  /* Buffers already allocated from the pinned pool keep the context alive
   * through the allocator's reference, so they stay valid. */
  g_mutex_lock (&rt->lock);
  gst_ce_runtime_set_backend_locked (rt, NULL);
  g_mutex_unlock (&rt->lock);
  return TRUE;
}

gboolean
gst_ce_runtime_should_check (GstCeRuntime * rt, guint64 frame,
    gboolean check, guint interval)
{
  gboolean ret;

  if (!check || interval == 0 || frame % interval != 0)
    return FALSE;

  g_mutex_lock (&rt->lock);
  ret = rt->ctx != NULL || rt->corrupt_frame >= 0;
  g_mutex_unlock (&rt->lock);
  return ret;
}

gboolean
gst_ce_runtime_test_corrupt (GstCeRuntime * rt, guint64 frame)
{
  gboolean ret;

  g_mutex_lock (&rt->lock);
  ret = rt->corrupt_frame >= 0 && (guint64) rt->corrupt_frame == frame;
  g_mutex_unlock (&rt->lock);
  return ret;
}

GstFlowReturn
gst_ce_runtime_report_mismatch (GstCeRuntime * rt, guint64 frame,
    const ce_diff * diff, GstCeCheckFail fail)
{
  GstStructure *s;
  GstMessage *msg;

  s = gst_structure_new (rt->check_message_name,
      "frame", G_TYPE_UINT64, frame,
      "mismatches", G_TYPE_UINT64, (guint64) diff->count,
      "x", G_TYPE_INT, diff->x,
      "y", G_TYPE_INT, diff->y,
      "expected", G_TYPE_INT, diff->expected,
      "got", G_TYPE_INT, diff->got, NULL);
  msg = gst_message_new_element (GST_OBJECT_CAST (rt->element), s);
  gst_element_post_message (rt->element, msg);

  if (fail == GST_CE_CHECK_FAIL_ERROR) {
    GST_ELEMENT_ERROR (rt->element, STREAM, FAILED,
        ("Output differs from the CPU reference (check-fail=error)."),
        ("frame %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes differ, "
            "first at x=%d y=%d: expected %d, got %d", frame,
            (guint64) diff->count, diff->x, diff->y, diff->expected,
            diff->got));
    return GST_FLOW_ERROR;
  }

  GST_ELEMENT_WARNING (rt->element, STREAM, FAILED,
      ("Output differs from the CPU reference."),
      ("frame %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes differ, "
          "first at x=%d y=%d: expected %d, got %d", frame,
          (guint64) diff->count, diff->x, diff->y, diff->expected,
          diff->got));
  return GST_FLOW_OK;
}

void
gst_ce_runtime_add_frame (GstCeRuntime * rt, gboolean checked,
    guint64 mismatches, const ce_timing * timing)
{
  g_mutex_lock (&rt->lock);
  rt->frames++;
  if (checked)
    rt->frames_checked++;
  rt->mismatches += mismatches;
  if (timing) {
    rt->timed_frames++;
    rt->upload_us_sum += timing->upload_us;
    rt->kernel_us_sum += timing->kernel_us;
    rt->download_us_sum += timing->download_us;
  }
  g_mutex_unlock (&rt->lock);
}

GstStructure *
gst_ce_runtime_get_stats (GstCeRuntime * rt)
{
  GstStructure *s;
  gdouble n;

  g_mutex_lock (&rt->lock);
  n = rt->timed_frames ? (gdouble) rt->timed_frames : 1.0;
  s = gst_structure_new (rt->stats_name,
      "frames", G_TYPE_UINT64, rt->frames,
      "frames-checked", G_TYPE_UINT64, rt->frames_checked,
      "mismatches", G_TYPE_UINT64, rt->mismatches,
      "backend", G_TYPE_STRING, rt->backend_name,
      "device", G_TYPE_STRING, rt->device_name,
      "upload-us", G_TYPE_DOUBLE, rt->upload_us_sum / n,
      "kernel-us", G_TYPE_DOUBLE, rt->kernel_us_sum / n,
      "download-us", G_TYPE_DOUBLE, rt->download_us_sum / n, NULL);
  g_mutex_unlock (&rt->lock);
  return s;
}

gboolean
gst_ce_runtime_propose_allocation (GstCeRuntime * rt, GstQuery * query)
{
  GstCeContext *ctx;
  GstAllocator *allocator;
  GstBufferPool *pool = NULL;
  GstAllocationParams params;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  ctx = gst_ce_runtime_get_context (rt);
  if (!ctx)
    return FALSE;

  allocator = gst_ce_pinned_allocator_new (ctx);
  gst_ce_context_unref (ctx);

  if (need_pool) {
    pool = gst_ce_pinned_pool_new (allocator, caps, 0, 0);
    if (!pool) {
      gst_object_unref (allocator);
      return FALSE;
    }
  }

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (allocator);

  GST_DEBUG_OBJECT (rt->element, "proposed a pinned-memory pool upstream");
  return TRUE;
}

gboolean
gst_ce_runtime_decide_allocation (GstCeRuntime * rt, GstQuery * query)
{
  GstCeContext *ctx;
  GstAllocator *allocator;
  GstBufferPool *pool;
  GstAllocationParams params;
  GstVideoInfo info;
  GstCaps *caps;
  guint min = 0, max = 0, size = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  ctx = gst_ce_runtime_get_context (rt);
  if (!ctx)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);

  allocator = gst_ce_pinned_allocator_new (ctx);
  gst_ce_context_unref (ctx);
  pool = gst_ce_pinned_pool_new (allocator, caps, min, max);
  if (!pool) {
    gst_object_unref (allocator);
    return FALSE;
  }

  gst_allocation_params_init (&params);
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  else
    gst_query_add_allocation_param (query, allocator, &params);

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, info.size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, info.size, min, max);

  gst_object_unref (pool);
  gst_object_unref (allocator);

  GST_DEBUG_OBJECT (rt->element, "output buffers come from pinned memory");
  return TRUE;
}

gboolean
gst_ce_validate_input_buffer (GstElement * element, const GstVideoInfo * info,
    GstBuffer * buffer)
{
  GstVideoMeta *meta;
  gsize size, row, needed = 0, offset;
  gint stride;
  guint width, height;

  size = gst_buffer_get_size (buffer);
  width = GST_VIDEO_INFO_WIDTH (info);
  height = GST_VIDEO_INFO_HEIGHT (info);
  row = (gsize) width * GST_VIDEO_FORMAT_INFO_PSTRIDE (info->finfo, 0);

  meta = gst_buffer_get_video_meta (buffer);
  if (meta) {
    if (meta->format != GST_VIDEO_INFO_FORMAT (info)
        || meta->width != width || meta->height != height)
      goto meta_mismatch;
    offset = meta->offset[0];
    stride = meta->stride[0];
  } else {
    offset = GST_VIDEO_INFO_PLANE_OFFSET (info, 0);
    stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
    if (size < GST_VIDEO_INFO_SIZE (info))
      goto too_small;
  }

  if (stride <= 0 || (gsize) stride < row)
    goto bad_stride;

  needed = offset + (gsize) stride * (height - 1) + row;
  if (size < needed)
    goto too_small;

  return TRUE;

  /* ERRORS */
meta_mismatch:
  {
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Input buffer's video meta does not match the negotiated caps."),
        ("meta says %s %ux%u, caps say %s %ux%u",
            gst_video_format_to_string (meta->format), meta->width,
            meta->height,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), width,
            height));
    return FALSE;
  }
too_small:
  {
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Input buffer is too small for the negotiated caps."),
        ("got %" G_GSIZE_FORMAT " bytes, %s %ux%u needs %" G_GSIZE_FORMAT,
            size, gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
            width, height, meta ? needed : GST_VIDEO_INFO_SIZE (info)));
    return FALSE;
  }
bad_stride:
  {
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Input buffer has an invalid row stride."),
        ("stride %d for rows of %" G_GSIZE_FORMAT " bytes", stride, row));
    return FALSE;
  }
}
