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
#include "cudaedge-testing.h"

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

/* ---- CPU work in row bands ---- */

typedef struct
{
  GstCeBandFunc func;
  gpointer user_data;
  GMutex lock;
  GCond done;
  gint pending;                 /* bands on the pool not finished yet */
  ce_status status;
} GstCeBandJob;

typedef struct
{
  GstCeBandJob *job;
  gint row0, row1;
} GstCeBand;

static void
gst_ce_band_worker (gpointer data, G_GNUC_UNUSED gpointer pool_data)
{
  GstCeBand *band = data;
  GstCeBandJob *job = band->job;
  ce_status status = job->func (job->user_data, band->row0, band->row1);

  g_mutex_lock (&job->lock);
  if (status != CE_STATUS_OK && job->status == CE_STATUS_OK)
    job->status = status;
  if (--job->pending == 0)
    g_cond_signal (&job->done);
  g_mutex_unlock (&job->lock);
}

/* One pool for the whole process, like a shared task pool: elements come
 * and go, threads are reused.  NULL when it cannot be made; the bands then
 * run on the calling thread. */
static GThreadPool *
gst_ce_band_pool (void)
{
  static gsize once = 0;
  static GThreadPool *pool = NULL;

  if (g_once_init_enter (&once)) {
    GError *err = NULL;

    pool = g_thread_pool_new (gst_ce_band_worker, NULL,
        MAX (1, (gint) g_get_num_processors () - 1), FALSE, &err);
    if (pool == NULL) {
      GST_WARNING ("no thread pool, CPU frames use one thread: %s",
          err ? err->message : "unknown error");
      g_clear_error (&err);
    }
    g_once_init_leave (&once, 1);
  }
  return pool;
}

ce_status
gst_ce_run_in_bands (gint rows, GstCeBandFunc func, gpointer user_data)
{
  GThreadPool *pool;
  GstCeBandJob job;
  GstCeBand *bands;
  ce_status status;
  gint n, i, band_rows;

  n = MIN ((gint) g_get_num_processors (), rows / GST_CE_MIN_BAND_ROWS);
  if (n <= 1 || (pool = gst_ce_band_pool ()) == NULL)
    return func (user_data, 0, rows);

  band_rows = (rows + n - 1) / n;
  n = (rows + band_rows - 1) / band_rows;
  bands = g_newa (GstCeBand, n);
  job.func = func;
  job.user_data = user_data;
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  job.pending = n - 1;
  job.status = CE_STATUS_OK;

  for (i = 0; i < n; i++) {
    bands[i].job = &job;
    bands[i].row0 = i * band_rows;
    bands[i].row1 = MIN (rows, (i + 1) * band_rows);
  }
  for (i = 0; i < n - 1; i++) {
    if (!g_thread_pool_push (pool, &bands[i], NULL)) {
      /* Not queued: do it here instead. */
      gst_ce_band_worker (&bands[i], NULL);
    }
  }
  status = func (user_data, bands[n - 1].row0, bands[n - 1].row1);

  g_mutex_lock (&job.lock);
  while (job.pending > 0)
    g_cond_wait (&job.done, &job.lock);
  g_mutex_unlock (&job.lock);
  g_cond_clear (&job.done);
  g_mutex_clear (&job.lock);

  return status != CE_STATUS_OK ? status : job.status;
}

void
gst_ce_runtime_init (GstCeRuntime * rt, GstElement * element,
    const gchar * name, const GstCeFrameFuncs * funcs)
{
  gchar *upper;

  gst_ce_init_debug ();

  memset (rt, 0, sizeof (*rt));
  rt->element = element;
  rt->funcs = funcs;
  rt->name = g_strdup (name);
  rt->check_message_name = g_strdup_printf ("%s-check", name);
  rt->stats_name = g_strdup_printf ("%s-stats", name);
  upper = g_ascii_strup (name, -1);
  rt->corrupt_env = g_strdup_printf ("%s_TEST_CORRUPT_FRAME", upper);
  rt->fail_env = g_strdup_printf ("%s_TEST_CUDA_FAIL_FRAME", upper);
  g_free (upper);
  g_mutex_init (&rt->jobs_lock);
  g_queue_init (&rt->jobs);
  g_mutex_init (&rt->lock);
  rt->backend_name = g_strdup ("none");
  rt->device_name = g_strdup ("none");
  rt->corrupt_frame = -1;
  rt->fps_d = 1;
}

void
gst_ce_runtime_clear (GstCeRuntime * rt)
{
  gst_ce_runtime_close (rt);
  g_free (rt->name);
  g_free (rt->check_message_name);
  g_free (rt->stats_name);
  g_free (rt->corrupt_env);
  g_free (rt->fail_env);
  g_free (rt->backend_name);
  g_free (rt->device_name);
  g_mutex_clear (&rt->jobs_lock);
  g_mutex_clear (&rt->lock);
}

/* A frame number from a test hook's environment variable, or -1. */
static gint64
gst_ce_runtime_read_hook (GstCeRuntime * rt, const gchar * var,
    const gchar * effect)
{
  const gchar *env = g_getenv (var);
  gchar *end = NULL;
  gint64 n;

  if (!env || !*env)
    return -1;

  n = g_ascii_strtoll (env, &end, 10);
  if (end && *end == '\0' && n >= 0 && n < G_MAXINT) {
    GST_WARNING_OBJECT (rt->element, "test hook %s=%" G_GINT64_FORMAT
        ": that frame %s", var, n, effect);
    return n;
  }
  GST_WARNING_OBJECT (rt->element, "ignoring %s=\"%s\": not a frame "
      "number", var, env);
  return -1;
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
  gint64 fail_frame;

  gst_ce_runtime_close (rt);
  rt->frame_count = 0;

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

  rt->corrupt_frame = gst_ce_runtime_read_hook (rt, rt->corrupt_env,
      "will have its output corrupted");
  g_mutex_unlock (&rt->lock);

  /* The core counts submissions from now on, 1-based; frame N (0-based)
   * is the (N + 1)-th. */
  if (ctx) {
    fail_frame = gst_ce_runtime_read_hook (rt, rt->fail_env,
        "will fail on the GPU");
    if (fail_frame >= 0)
      ce_cuda_ctx_inject_failure (gst_ce_context_get_handle (ctx),
          (int) fail_frame + 1);
  }

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

static void gst_ce_runtime_discard_jobs (GstCeRuntime * rt);

void
gst_ce_runtime_close (GstCeRuntime * rt)
{
  GstCeContext *ctx;

  gst_ce_runtime_discard_jobs (rt);
  rt->configured = FALSE;
  g_clear_pointer (&rt->h_reference, g_free);
  rt->reference_size = 0;
  rt->latency = 0;

  /* Statistics and the backend name stay readable after stop. */
  g_mutex_lock (&rt->lock);
  ctx = rt->ctx;
  rt->ctx = NULL;
  rt->fps_n = 0;
  rt->fps_d = 1;
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

  /* No more frames in flight, so no more latency. */
  if (rt->latency != 0) {
    rt->latency = 0;
    gst_element_post_message (rt->element,
        gst_message_new_latency (GST_OBJECT_CAST (rt->element)));
  }
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

/* ---- the properties both elements have ---- */

#define DEFAULT_CHECK FALSE
#define DEFAULT_CHECK_INTERVAL 1
#define DEFAULT_CHECK_FAIL GST_CE_CHECK_FAIL_WARN
#define DEFAULT_BACKEND GST_CE_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1

void
gst_ce_common_props_init (GstCeCommonProps * props)
{
  props->backend = DEFAULT_BACKEND;
  props->cuda_device_id = DEFAULT_CUDA_DEVICE_ID;
  props->check = DEFAULT_CHECK;
  props->check_interval = DEFAULT_CHECK_INTERVAL;
  props->check_fail = DEFAULT_CHECK_FAIL;
}

void
gst_ce_install_common_properties (GObjectClass * klass,
    const gchar * check_message_name)
{
  gchar *blurb;
  const gchar *check_fail_blurb;

  gst_ce_init_debug ();

  /* G_PARAM_STATIC_STRINGS wants a blurb that lives as long as the class,
   * that is the process: an interned string does. */
  blurb = g_strdup_printf ("What a mismatch found by check does besides "
      "posting the %s message", check_message_name);
  check_fail_blurb = g_intern_string (blurb);
  g_free (blurb);

  g_object_class_install_property (klass, GST_CE_PROP_CHECK,
      g_param_spec_boolean ("check", "Check",
          "Compare the GPU output with the CPU reference every "
          "check-interval frames and report mismatches (no effect on the "
          "CPU backend, whose output is the reference)", DEFAULT_CHECK,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, GST_CE_PROP_CHECK_INTERVAL,
      g_param_spec_uint ("check-interval", "Check interval",
          "Check frames 0, N, 2N, ... counted since start, in frames "
          "(1 - 4294967295)", 1, G_MAXUINT, DEFAULT_CHECK_INTERVAL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, GST_CE_PROP_CHECK_FAIL,
      g_param_spec_enum ("check-fail", "Check failure", check_fail_blurb,
          GST_TYPE_CE_CHECK_FAIL, DEFAULT_CHECK_FAIL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, GST_CE_PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are processed", GST_TYPE_CE_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, GST_CE_PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device index to use, -1 for the first usable one "
          "(-1 - 32767)", -1, G_MAXINT16, DEFAULT_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (klass, GST_CE_PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Since the last start: frames, frames-checked, mismatches "
          "(guint64), backend (\"cuda\" or \"cpu\"), device (name or "
          "\"cpu\"), mean upload-us, kernel-us, download-us per frame "
          "(microseconds; on the CPU kernel-us is the CPU time)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_type_mark_as_plugin_api (GST_TYPE_CE_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CE_CHECK_FAIL, 0);
}

/* backend and cuda-device-id are read once, in start.  Called with the
 * object lock held, which GST_STATE wants. */
static gboolean
gst_ce_ready_only (GstElement * element, GParamSpec * pspec)
{
  if (GST_STATE (element) > GST_STATE_READY) {
    GST_WARNING_OBJECT (element, "property '%s' can only be changed in the "
        "NULL or READY state; ignoring the new value", pspec->name);
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_ce_common_set_property (GstElement * element, GstCeCommonProps * props,
    guint prop_id, const GValue * value, GParamSpec * pspec)
{
  gboolean handled = TRUE;

  GST_OBJECT_LOCK (element);
  switch (prop_id) {
    case GST_CE_PROP_CHECK:
      props->check = g_value_get_boolean (value);
      break;
    case GST_CE_PROP_CHECK_INTERVAL:
      props->check_interval = g_value_get_uint (value);
      break;
    case GST_CE_PROP_CHECK_FAIL:
      props->check_fail = g_value_get_enum (value);
      break;
    case GST_CE_PROP_BACKEND:
      if (gst_ce_ready_only (element, pspec))
        props->backend = g_value_get_enum (value);
      break;
    case GST_CE_PROP_CUDA_DEVICE_ID:
      if (gst_ce_ready_only (element, pspec))
        props->cuda_device_id = g_value_get_int (value);
      break;
    default:
      /* stats is read-only: GObject never sets it. */
      handled = FALSE;
      break;
  }
  GST_OBJECT_UNLOCK (element);
  return handled;
}

gboolean
gst_ce_common_get_property (GstElement * element, GstCeCommonProps * props,
    GstCeRuntime * rt, guint prop_id, GValue * value)
{
  gboolean handled = TRUE;

  /* Not under the object lock: see the header. */
  if (prop_id == GST_CE_PROP_STATS) {
    g_value_take_boxed (value, gst_ce_runtime_get_stats (rt));
    return TRUE;
  }

  GST_OBJECT_LOCK (element);
  switch (prop_id) {
    case GST_CE_PROP_CHECK:
      g_value_set_boolean (value, props->check);
      break;
    case GST_CE_PROP_CHECK_INTERVAL:
      g_value_set_uint (value, props->check_interval);
      break;
    case GST_CE_PROP_CHECK_FAIL:
      g_value_set_enum (value, props->check_fail);
      break;
    case GST_CE_PROP_BACKEND:
      g_value_set_enum (value, props->backend);
      break;
    case GST_CE_PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, props->cuda_device_id);
      break;
    default:
      handled = FALSE;
      break;
  }
  GST_OBJECT_UNLOCK (element);
  return handled;
}

gboolean
gst_ce_runtime_start (GstCeRuntime * rt, const GstCeCommonProps * props)
{
  GstCeBackend backend;
  gint device_id;

  GST_OBJECT_LOCK (rt->element);
  backend = props->backend;
  device_id = props->cuda_device_id;
  GST_OBJECT_UNLOCK (rt->element);

  return gst_ce_runtime_open (rt, backend, device_id);
}

void
gst_ce_common_props_get_settings (const GstCeCommonProps * props,
    GstCeFrameSettings * settings)
{
  settings->check = props->check;
  settings->check_interval = props->check_interval;
  settings->check_fail = props->check_fail;
}

/* ---- processing frames ---- */

/* Frames in flight need the CUDA backend and a frame rate to size the
 * latency they add; 0 when there are none. */
static GstClockTime
gst_ce_runtime_get_latency (GstCeRuntime * rt)
{
  GstClockTime latency = 0;

  g_mutex_lock (&rt->lock);
  if (rt->ctx != NULL && rt->fps_n > 0)
    latency = gst_util_uint64_scale_int (GST_SECOND, rt->fps_d, rt->fps_n);
  g_mutex_unlock (&rt->lock);
  return latency;
}

static gboolean
gst_ce_runtime_is_pipelined (GstCeRuntime * rt)
{
  gboolean ret;

  g_mutex_lock (&rt->lock);
  ret = rt->ctx != NULL && rt->fps_n > 0;
  g_mutex_unlock (&rt->lock);
  return ret;
}

void
gst_ce_runtime_set_info (GstCeRuntime * rt, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstClockTime latency;

  rt->in_info = *in_info;
  rt->out_info = *out_info;
  rt->configured = TRUE;

  g_mutex_lock (&rt->lock);
  rt->fps_n = MAX (GST_VIDEO_INFO_FPS_N (in_info), 0);
  rt->fps_d = MAX (GST_VIDEO_INFO_FPS_D (in_info), 1);
  g_mutex_unlock (&rt->lock);

  /* The pipeline asks again when told that the latency changed. */
  latency = gst_ce_runtime_get_latency (rt);
  if (latency != rt->latency) {
    GST_INFO_OBJECT (rt->element, "%s: latency %" GST_TIME_FORMAT,
        latency ? "one frame in flight" : "synchronous",
        GST_TIME_ARGS (latency));
    rt->latency = latency;
    gst_element_post_message (rt->element,
        gst_message_new_latency (GST_OBJECT_CAST (rt->element)));
  }
}

gboolean
gst_ce_runtime_map_frames (GstCeRuntime * rt, GstBuffer * inbuf,
    GstBuffer * outbuf, GstVideoFrame * in, GstVideoFrame * out)
{
  if (!gst_video_frame_map (in, &rt->in_info, inbuf, GST_MAP_READ))
    goto map_in_failed;
  if (!gst_video_frame_map (out, &rt->out_info, outbuf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (in);
    goto map_out_failed;
  }
  return TRUE;

  /* ERRORS */
map_in_failed:
  {
    GST_ELEMENT_ERROR (rt->element, STREAM, FORMAT,
        ("Could not map the input buffer as a %dx%d %s frame.",
            GST_VIDEO_INFO_WIDTH (&rt->in_info),
            GST_VIDEO_INFO_HEIGHT (&rt->in_info),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
                (&rt->in_info))), (NULL));
    return FALSE;
  }
map_out_failed:
  {
    GST_ELEMENT_ERROR (rt->element, RESOURCE, WRITE,
        ("Could not map the output buffer as a %dx%d frame.",
            GST_VIDEO_INFO_WIDTH (&rt->out_info),
            GST_VIDEO_INFO_HEIGHT (&rt->out_info)), (NULL));
    return FALSE;
  }
}

/* One consistent set of settings per frame; the work runs unlocked. */
static void
gst_ce_runtime_get_settings (GstCeRuntime * rt, GstCeFrameSettings * settings)
{
  memset (settings, 0, sizeof (*settings));
  ce_edge_params_init (&settings->edge);

  GST_OBJECT_LOCK (rt->element);
  rt->funcs->get_settings (rt->element, settings);
  GST_OBJECT_UNLOCK (rt->element);
}

/* Everything after the GPU work of a frame, whether synchronous or in
 * flight.  @on_gpu says that the frame was given to CUDA and @gpu_status
 * how that ended.  A frame the GPU did not do (or finished only after an
 * earlier frame failed and the context was dropped) is computed on the
 * CPU, so no frame is lost.  Then the test hook, the check and the
 * statistics. */
static GstFlowReturn
gst_ce_runtime_complete_frame (GstCeRuntime * rt, guint64 frame,
    const GstVideoFrame * in, GstVideoFrame * out,
    const GstCeFrameSettings * settings, gboolean on_gpu,
    ce_status gpu_status, const gchar * gpu_call, ce_timing * timing)
{
  GstFlowReturn ret = GST_FLOW_OK;
  guint8 *h_dst = GST_VIDEO_FRAME_PLANE_DATA (out, 0);
  gsize dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
  gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (out->info.finfo, 0);
  gsize row_bytes = (gsize) GST_VIDEO_FRAME_WIDTH (out) * pstride;
  gint rows = GST_VIDEO_FRAME_HEIGHT (out);
  ce_diff diff = { 0, 0, 0, 0, 0 };
  guint64 mismatches = 0;
  gboolean checked = FALSE;
  ce_status status = CE_STATUS_OK;

  if (on_gpu) {
    if (!gst_ce_runtime_is_cuda (rt)) {
      on_gpu = FALSE;
    } else if (gpu_status != CE_STATUS_OK) {
      if (!gst_ce_runtime_cuda_failed (rt, gpu_status, gpu_call))
        return GST_FLOW_ERROR;
      /* backend=auto fell back; this frame is redone on the CPU. */
      on_gpu = FALSE;
    }
  }

  if (!on_gpu) {
    gint64 start = g_get_monotonic_time ();

    status = rt->funcs->cpu (rt->element, in, h_dst, dst_stride, settings);
    if (status != CE_STATUS_OK)
      goto cpu_failed;
    timing->upload_us = timing->download_us = 0.0;
    timing->kernel_us = (gdouble) (g_get_monotonic_time () - start);
  }

  if (G_UNLIKELY (gst_ce_runtime_test_corrupt (rt, frame))) {
    GST_WARNING_OBJECT (rt->element, "test hook: corrupting byte (0, 0) of "
        "frame %" G_GUINT64_FORMAT, frame);
    h_dst[0] ^= 0xff;
  }

  if (gst_ce_runtime_should_check (rt, frame, settings->check,
          settings->check_interval)) {
    gsize size = row_bytes * rows;

    if (size != rt->reference_size) {
      g_free (rt->h_reference);
      rt->h_reference = g_try_malloc (size);
      rt->reference_size = rt->h_reference ? size : 0;
      if (!rt->h_reference)
        goto no_memory;
    }
    status = rt->funcs->cpu (rt->element, in, rt->h_reference, row_bytes,
        settings);
    if (status != CE_STATUS_OK)
      goto cpu_failed;
    /* Every byte of every pixel (alpha and padding too), counted by
     * pixel; expected and got are the first differing byte's values. */
    mismatches = ce_compare_pixels (rt->h_reference, row_bytes, h_dst,
        dst_stride, (gint) (row_bytes / pstride), rows, pstride, &diff);
    checked = TRUE;
    if (mismatches)
      ret = gst_ce_runtime_report_mismatch (rt, frame, &diff,
          settings->check_fail);
  }

  gst_ce_runtime_add_frame (rt, checked, mismatches, timing);
  return ret;

  /* ERRORS */
no_memory:
  {
    GST_ELEMENT_ERROR (rt->element, RESOURCE, NO_SPACE_LEFT,
        ("Not enough memory to check a %dx%d frame.",
            GST_VIDEO_FRAME_WIDTH (out), rows), (NULL));
    return GST_FLOW_ERROR;
  }
cpu_failed:
  {
    GST_ELEMENT_ERROR (rt->element, STREAM, FAILED,
        ("%s failed on the CPU.", rt->funcs->what),
        ("%s %dx%d, strides %d -> %" G_GSIZE_FORMAT ": %s: %s",
            gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (in)),
            GST_VIDEO_FRAME_WIDTH (in), GST_VIDEO_FRAME_HEIGHT (in),
            GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), dst_stride,
            ce_status_string (status), ce_last_error ()));
    return GST_FLOW_ERROR;
  }
}

GstFlowReturn
gst_ce_runtime_process_frame (GstCeRuntime * rt, GstVideoFrame * in,
    GstVideoFrame * out)
{
  GstCeFrameSettings settings;
  GstCeContext *ctx;
  ce_timing timing = { 0.0, 0.0, 0.0 };
  ce_status status = CE_STATUS_OK;
  const gchar *call = NULL;
  guint64 frame;

  gst_ce_runtime_get_settings (rt, &settings);
  frame = rt->frame_count++;

  ctx = gst_ce_runtime_get_context (rt);
  if (ctx) {
    ce_cuda_ctx *handle = gst_ce_context_get_handle (ctx);

    /* A submission to slot 0 and its wait: what ce_cuda_edge_frame ()
     * does.  No frame is in flight on this path, so slot 0 is free. */
    call = "submitting the frame";
    status = rt->funcs->cuda_submit (rt->element, handle, 0, in, out,
        &settings);
    if (status == CE_STATUS_OK) {
      call = "ce_cuda_frame_wait";
      status = ce_cuda_frame_wait (handle, 0, &timing);
    }
    gst_ce_context_unref (ctx);
  }

  return gst_ce_runtime_complete_frame (rt, frame, in, out, &settings,
      call != NULL, status, call, &timing);
}

/* ---- frames in flight ---- */

/* One submitted frame: its buffers stay mapped (the GPU reads and writes
 * them directly when they are pinned) until the wait. */
typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in;
  GstVideoFrame out;
  guint64 frame;
  GstCeFrameSettings settings;
  GstCeContext *ctx;            /* NULL: never given to CUDA */
  gint slot;                    /* -1: not submitted */
  ce_status status;             /* of the submission */
} GstCeJob;

/* Frees @job and returns its output buffer. */
static GstBuffer *
gst_ce_job_free (GstCeJob * job)
{
  GstBuffer *outbuf = job->outbuf;

  gst_video_frame_unmap (&job->out);
  gst_video_frame_unmap (&job->in);
  gst_buffer_unref (job->inbuf);
  if (job->ctx)
    gst_ce_context_unref (job->ctx);
  g_free (job);
  return outbuf;
}

static void
gst_ce_runtime_discard_jobs_locked (GstCeRuntime * rt)
{
  GstCeJob *job;

  while ((job = g_queue_pop_head (&rt->jobs)) != NULL) {
    if (job->slot >= 0) {
      /* The GPU may still be writing into the output: let it finish. */
      ce_status status = ce_cuda_frame_wait (gst_ce_context_get_handle
          (job->ctx), job->slot, NULL);

      if (status != CE_STATUS_OK)
        GST_DEBUG_OBJECT (rt->element, "discarded frame %" G_GUINT64_FORMAT
            " had failed: %s", job->frame, ce_last_error ());
      rt->slot_busy[job->slot] = FALSE;
    }
    GST_DEBUG_OBJECT (rt->element, "discarding frame %" G_GUINT64_FORMAT,
        job->frame);
    gst_buffer_unref (gst_ce_job_free (job));
  }
}

static void
gst_ce_runtime_discard_jobs (GstCeRuntime * rt)
{
  g_mutex_lock (&rt->jobs_lock);
  gst_ce_runtime_discard_jobs_locked (rt);
  g_mutex_unlock (&rt->jobs_lock);
}

/* Waits for the oldest frame in flight and completes it.  Its output comes
 * back in @outbuf even when the flow return is not OK, as from
 * GstBaseTransform::transform; the caller drops it then.  After an error
 * the other frames in flight are discarded. */
static GstFlowReturn
gst_ce_runtime_finish_oldest_locked (GstCeRuntime * rt, GstBuffer ** outbuf)
{
  GstCeJob *job = g_queue_pop_head (&rt->jobs);
  ce_timing timing = { 0.0, 0.0, 0.0 };
  ce_status status = job->status;
  GstFlowReturn ret;

  if (job->slot >= 0) {
    status = ce_cuda_frame_wait (gst_ce_context_get_handle (job->ctx),
        job->slot, &timing);
    rt->slot_busy[job->slot] = FALSE;
  }

  ret = gst_ce_runtime_complete_frame (rt, job->frame, &job->in, &job->out,
      &job->settings, job->ctx != NULL, status,
      job->slot >= 0 ? "ce_cuda_frame_wait" : "submitting the frame",
      &timing);
  *outbuf = gst_ce_job_free (job);

  if (ret != GST_FLOW_OK)
    gst_ce_runtime_discard_jobs_locked (rt);
  return ret;
}

/* Whether the oldest frame in flight is to be finished now.  One frame
 * stays in flight while CUDA runs; frames that are not on the GPU (a
 * failed submission, or any after a fallback to the CPU) gain nothing
 * from waiting. */
static gboolean
gst_ce_runtime_must_finish_locked (GstCeRuntime * rt, gboolean pipelined)
{
  GstCeJob *newest = g_queue_peek_tail (&rt->jobs);

  if (newest == NULL)
    return FALSE;
  return !pipelined || newest->slot < 0
      || g_queue_get_length (&rt->jobs) >= CE_CUDA_SLOTS;
}

/* Completes the frames in flight in order and pushes their outputs; stops
 * at the first flow return that is not OK, discarding the rest. */
static GstFlowReturn
gst_ce_runtime_drain (GstCeRuntime * rt)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (rt->element);
  GstFlowReturn ret = GST_FLOW_OK;

  for (;;) {
    GstBuffer *outbuf = NULL;

    g_mutex_lock (&rt->jobs_lock);
    if (!g_queue_is_empty (&rt->jobs)) {
      if (ret == GST_FLOW_OK)
        ret = gst_ce_runtime_finish_oldest_locked (rt, &outbuf);
      else
        gst_ce_runtime_discard_jobs_locked (rt);
    }
    g_mutex_unlock (&rt->jobs_lock);

    if (outbuf == NULL)
      break;

    /* Pushed unlocked: a flush from another thread must get through. */
    if (ret == GST_FLOW_OK) {
      GST_LOG_OBJECT (rt->element, "pushing a drained frame");
      ret = gst_pad_push (trans->srcpad, outbuf);
    } else {
      gst_buffer_unref (outbuf);
    }
  }

  if (ret != GST_FLOW_OK)
    GST_DEBUG_OBJECT (rt->element, "draining stopped: %s",
        gst_flow_get_name (ret));
  return ret;
}

/* Takes the stashed input buffer, prepares its output and submits it. */
static GstFlowReturn
gst_ce_runtime_submit_queued (GstCeRuntime * rt)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (rt->element);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (trans);
  GstBuffer *inbuf = trans->queued_buf, *outbuf = NULL;
  GstFlowReturn ret;
  GstCeJob *job;
  gint slot;

  trans->queued_buf = NULL;

  /* A buffer that does not hold the frame is an error, not a crash. */
  if (!gst_ce_validate_input_buffer (rt->element, &rt->in_info, inbuf)) {
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }

  /* From the pool negotiated downstream, with the input's timestamps,
   * offsets, flags and metas copied: the class's own preparation, as
   * GstBaseTransform's generate_output does it.  Not under the jobs lock:
   * the pool may block until a flush. */
  ret = klass->prepare_output_buffer (trans, inbuf, &outbuf);
  if (ret != GST_FLOW_OK || outbuf == NULL || outbuf == inbuf) {
    GST_WARNING_OBJECT (rt->element, "could not get an output buffer: %s",
        gst_flow_get_name (ret));
    if (outbuf && outbuf != inbuf)
      gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;
  }

  job = g_new0 (GstCeJob, 1);
  job->inbuf = inbuf;
  job->outbuf = outbuf;
  job->slot = -1;
  if (!gst_ce_runtime_map_frames (rt, inbuf, outbuf, &job->in, &job->out)) {
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    g_free (job);
    return GST_FLOW_ERROR;
  }
  gst_ce_runtime_get_settings (rt, &job->settings);

  g_mutex_lock (&rt->jobs_lock);
  job->frame = rt->frame_count++;
  job->ctx = gst_ce_runtime_get_context (rt);
  if (job->ctx) {
    /* At most CE_CUDA_SLOTS - 1 frames wait between two inputs, so a slot
     * is free. */
    for (slot = 0; slot < CE_CUDA_SLOTS && rt->slot_busy[slot]; slot++);
    if (slot < CE_CUDA_SLOTS) {
      job->status = rt->funcs->cuda_submit (rt->element,
          gst_ce_context_get_handle (job->ctx), slot, &job->in, &job->out,
          &job->settings);
      if (job->status == CE_STATUS_OK) {
        job->slot = slot;
        rt->slot_busy[slot] = TRUE;
      }
    } else {
      job->status = CE_STATUS_INVALID_ARGUMENT;
      GST_WARNING_OBJECT (rt->element, "no free CUDA slot for frame %"
          G_GUINT64_FORMAT, job->frame);
    }
  }
  GST_LOG_OBJECT (rt->element, "frame %" G_GUINT64_FORMAT " submitted to "
      "slot %d", job->frame, job->slot);
  g_queue_push_tail (&rt->jobs, job);
  g_mutex_unlock (&rt->jobs_lock);

  return GST_FLOW_OK;
}

GstFlowReturn
gst_ce_runtime_generate_output (GstCeRuntime * rt,
    GstBaseTransformClass * parent_class, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (rt->element);
  gboolean pipelined = rt->configured && gst_ce_runtime_is_pipelined (rt);
  GstFlowReturn ret = GST_FLOW_OK;

  *outbuf = NULL;

  if (pipelined && trans->queued_buf != NULL) {
    ret = gst_ce_runtime_submit_queued (rt);
    if (ret != GST_FLOW_OK)
      return ret;
  }

  /* At most one output per call: GstBaseTransform calls again until it
   * gets none, which also flushes out, in order, the frames left in
   * flight by a fallback to the CPU before the next input is done. */
  g_mutex_lock (&rt->jobs_lock);
  if (gst_ce_runtime_must_finish_locked (rt, pipelined))
    ret = gst_ce_runtime_finish_oldest_locked (rt, outbuf);
  g_mutex_unlock (&rt->jobs_lock);

  if (*outbuf != NULL || ret != GST_FLOW_OK || pipelined)
    return ret;

  /* Nothing in flight: the synchronous path, through ::transform. */
  return parent_class->generate_output (trans, outbuf);
}

gboolean
gst_ce_runtime_sink_event (GstCeRuntime * rt,
    GstBaseTransformClass * parent_class, GstEvent * event)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (rt->element);
  gboolean ret;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* Forwarded first: that unblocks downstream and with it a streaming
       * thread waiting there or for an output buffer. */
      ret = parent_class->sink_event (trans, event);
      gst_ce_runtime_discard_jobs (rt);
      return ret;
    case GST_EVENT_FLUSH_STOP:
      gst_ce_runtime_discard_jobs (rt);
      break;
    default:
      /* Outputs of earlier buffers go before the event, in order. */
      if (GST_EVENT_IS_SERIALIZED (event))
        gst_ce_runtime_drain (rt);
      break;
  }

  return parent_class->sink_event (trans, event);
}

gboolean
gst_ce_runtime_query (GstCeRuntime * rt, GstBaseTransformClass * parent_class,
    GstPadDirection direction, GstQuery * query)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM_CAST (rt->element);
  gboolean ret;

  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    gst_ce_runtime_drain (rt);

  ret = parent_class->query (trans, direction, query);

  if (ret && direction == GST_PAD_SRC
      && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime latency = gst_ce_runtime_get_latency (rt);

    if (latency > 0) {
      GstClockTime min, max;
      gboolean live;

      gst_query_parse_latency (query, &live, &min, &max);
      min += latency;
      if (GST_CLOCK_TIME_IS_VALID (max))
        max += latency;
      gst_query_set_latency (query, live, min, max);
      GST_DEBUG_OBJECT (rt->element, "one frame in flight: latency %"
          GST_TIME_FORMAT " - %" GST_TIME_FORMAT, GST_TIME_ARGS (min),
          GST_TIME_ARGS (max));
    }
  }
  return ret;
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

  /* Only plane 0 is read, but a frame whose other planes (from its meta)
   * lie outside the buffer cannot be mapped, and GstVideoFilter would then
   * only warn and pass on an output never computed.  GstVideoFrame's own
   * mapping is the judge. */
  if (GST_VIDEO_INFO_N_PLANES (info) > 1) {
    GstVideoFrame frame;

    if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ))
      goto unmappable;
    gst_video_frame_unmap (&frame);
  }

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
unmappable:
  {
    GST_ELEMENT_ERROR (element, STREAM, FORMAT,
        ("Input buffer's planes do not fit in the buffer."),
        ("%s %ux%u: the video meta's plane offsets and strides reach past "
            "the %" G_GSIZE_FORMAT " bytes of the buffer",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), width,
            height, size));
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
