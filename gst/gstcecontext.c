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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcecontext.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_ce_context_debug);
#define GST_CAT_DEFAULT gst_ce_context_debug

void
gst_ce_context_init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_ce_context_debug, "cecontext", 0,
        "gst-cudaedge CUDA context and pinned memory");
    g_once_init_leave (&done, 1);
  }
}

/* ---- context ---- */

struct _GstCeContext
{
  ce_cuda_ctx *handle;
  gchar *device_name;
  gint device_id;
#ifdef HAVE_GST_CUDA
  GstCudaContext *gst_ctx;      /* the context the core works in */
#endif
};

GstCeContext *
gst_ce_context_new (gpointer gst_cuda_ctx, gint device_id, ce_status * status)
{
  GstCeContext *ctx;
  ce_cuda_ctx *handle = NULL;
  ce_status ret = CE_STATUS_NO_DEVICE;
#ifdef HAVE_GST_CUDA
  GstCudaContext *gst_ctx = gst_cuda_ctx;

  /* In GStreamer's context for the device, shared with the neighbours:
   * frames on the GPU and in system memory are then worked on in one
   * context. */
  if (gst_ctx) {
    if (gst_cuda_context_push (gst_ctx)) {
      ret = ce_cuda_ctx_new_current (GST_CE_CUDA_STREAMS, &handle);
      gst_cuda_context_pop (NULL);
    }
    gst_ctx = ret == CE_STATUS_OK ? gst_object_ref (gst_ctx) : NULL;
  } else
#endif
  {
    (void) gst_cuda_ctx;
    ret = ce_cuda_ctx_new (device_id, GST_CE_CUDA_STREAMS, &handle);
  }
  if (status)
    *status = ret;
  if (ret != CE_STATUS_OK)
    return NULL;

  ctx = g_atomic_rc_box_new0 (GstCeContext);
  ctx->handle = handle;
#ifdef HAVE_GST_CUDA
  ctx->gst_ctx = gst_ctx;
#endif
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
  if (gst_ce_context_push (ctx)) {
    ce_cuda_ctx_free (ctx->handle);
    gst_ce_context_pop (ctx);
  }
  g_free (ctx->device_name);
#ifdef HAVE_GST_CUDA
  gst_clear_object (&ctx->gst_ctx);
#endif
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

gboolean
gst_ce_context_push (GstCeContext * ctx)
{
#ifdef HAVE_GST_CUDA
  if (ctx->gst_ctx && !gst_cuda_context_push (ctx->gst_ctx)) {
    GST_WARNING ("could not make GStreamer's CUDA context current");
    return FALSE;
  }
#else
  (void) ctx;
#endif
  return TRUE;
}

void
gst_ce_context_pop (GstCeContext * ctx)
{
#ifdef HAVE_GST_CUDA
  if (ctx->gst_ctx)
    gst_cuda_context_pop (NULL);
#else
  (void) ctx;
#endif
}

gpointer
gst_ce_context_get_gst_context (GstCeContext * ctx)
{
#ifdef HAVE_GST_CUDA
  return ctx->gst_ctx;
#else
  (void) ctx;
  return NULL;
#endif
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
  ret = CE_STATUS_CUDA_ERROR;
  if (gst_ce_context_push (self->ctx)) {
    ret = ce_cuda_host_alloc (gst_ce_context_get_handle (self->ctx), maxsize,
        &data);
    gst_ce_context_pop (self->ctx);
  }
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
    ce_status ret = CE_STATUS_CUDA_ERROR;

    if (gst_ce_context_push (self->ctx)) {
      ret = ce_cuda_host_free (gst_ce_context_get_handle (self->ctx),
          mem->data);
      gst_ce_context_pop (self->ctx);
    }
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
    guint size, guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstAllocationParams params;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, MAX (size, info.size),
      min_buffers, max_buffers);
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

gboolean
gst_ce_pinned_propose_allocation (GstCeContext * ctx, GstQuery * query,
    guint held)
{
  GstAllocator *allocator;
  GstBufferPool *pool = NULL;
  GstAllocationParams params;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  allocator = gst_ce_pinned_allocator_new (ctx);
  if (need_pool) {
    pool = gst_ce_pinned_pool_new (allocator, caps, 0, held, 0);
    if (!pool) {
      gst_object_unref (allocator);
      return FALSE;
    }
  }

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, info.size, held, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (allocator);
  return TRUE;
}

gboolean
gst_ce_pinned_decide_allocation (GstCeContext * ctx, GstQuery * query,
    guint held)
{
  GstAllocator *allocator;
  GstBufferPool *pool;
  GstAllocationParams params;
  GstVideoInfo info;
  GstCaps *caps;
  guint min = 0, max = 0, size = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, &size, &min, &max);
  min += held;
  if (max != 0)
    max += held;
  /* Downstream may ask for room past the frame, as GstBaseTransform's
   * own pools give it. */
  size = MAX (size, info.size);

  allocator = gst_ce_pinned_allocator_new (ctx);
  pool = gst_ce_pinned_pool_new (allocator, caps, size, min, max);
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
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);

  GST_DEBUG ("pinned output pool: %u - %u buffers", min, max);
  gst_object_unref (pool);
  gst_object_unref (allocator);
  return TRUE;
}
