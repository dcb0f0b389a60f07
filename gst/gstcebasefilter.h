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


#ifndef __GST_CE_BASE_FILTER_H__
#define __GST_CE_BASE_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "cudaedge-core.h"
#include "cudaedge-device.h"

G_BEGIN_DECLS

/**
 * GstCeBackend:
 * @GST_CE_BACKEND_AUTO: CUDA when a device works, else the CPU
 * @GST_CE_BACKEND_CUDA: CUDA only; no usable device is an error at start
 * @GST_CE_BACKEND_CPU: the CPU only
 */
typedef enum
{
  GST_CE_BACKEND_AUTO = 0,
  GST_CE_BACKEND_CUDA,
  GST_CE_BACKEND_CPU
} GstCeBackend;

#define GST_TYPE_CE_BACKEND (gst_ce_backend_get_type ())
GType gst_ce_backend_get_type (void);

/**
 * GstCeCheckFail:
 * @GST_CE_CHECK_FAIL_WARN: post the check message and a warning, go on
 * @GST_CE_CHECK_FAIL_ERROR: post the check message and a stream error
 */
typedef enum
{
  GST_CE_CHECK_FAIL_WARN = 0,
  GST_CE_CHECK_FAIL_ERROR
} GstCeCheckFail;

#define GST_TYPE_CE_CHECK_FAIL (gst_ce_check_fail_get_type ())
GType gst_ce_check_fail_get_type (void);

#define GST_TYPE_CE_BASE_FILTER (gst_ce_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCeBaseFilter, gst_ce_base_filter,
    GST, CE_BASE_FILTER, GstVideoFilter);

/**
 * GstCeBaseFilterClass:
 * @name: the element's name, which names its messages and stats:
 *   "cudaedge" gives "cudaedge-check" and "cudaedge-stats"
 * @what: starts the message of a failed frame: "Edge detection"
 * @debug: the element's debug category; the backend chosen and any
 *   fall-back to the CPU are logged there
 * @params_size: size of the element's per-frame parameters
 * @set_info: checks the negotiated formats and keeps what the element
 *   needs from them; no frame is in flight
 * @get_params: fills the frame's parameters from the element's
 *   properties, with the object lock held
 * @cuda_submit: submits @in -> @out to the CUDA slot @slot
 *   (ce_cuda_*_submit), without waiting
 * @cpu_rows: computes rows [@row0, @row1) of the output into @dst, an
 *   image laid out like plane 0 of the output, rows @dst_stride apart;
 *   called for bands of rows from several threads at once
 * @device_submit: (builds with GStreamer CUDA memory) submits @in, mapped
 *   with GST_MAP_CUDA (device pointers), to @dev's slot @slot, without
 *   waiting; @out is mapped with GST_MAP_CUDA when @out_on_device, else
 *   it is host memory
 *
 * The base class does the rest: properties shared by the elements,
 * backend choice and fall-back, frames in flight, allocation, input
 * validation, check and statistics.
 *
 * Locking, written once for the whole element: the object lock guards
 * properties; the base class's state lock, the frames-in-flight lock and
 * the statistics lock are leaves (none is taken while another, or the
 * object lock, is held), and none is held while waiting for the GPU,
 * computing on the CPU, posting a message or pushing a buffer.  The one
 * exception is the frames-in-flight discard lock (gstceinflight.h): a
 * discard holds it while it waits for the GPU, and takes the
 * frames-in-flight lock under it; nothing else is taken under it.
 */
struct _GstCeBaseFilterClass
{
  GstVideoFilterClass parent_class;

  const gchar *name;
  const gchar *what;
  GstDebugCategory *debug;
  gsize params_size;

  gboolean (*set_info) (GstCeBaseFilter * self, const GstVideoInfo * in_info,
      const GstVideoInfo * out_info);
  void (*get_params) (GstCeBaseFilter * self, gpointer params);
  ce_status (*cuda_submit) (GstCeBaseFilter * self, ce_cuda_ctx * ctx,
      gint slot, const GstVideoFrame * in, GstVideoFrame * out,
      gconstpointer params);
  ce_status (*cpu_rows) (GstCeBaseFilter * self, const GstVideoFrame * in,
      gconstpointer params, gint row0, gint row1, guint8 * dst,
      gsize dst_stride);
  ce_status (*device_submit) (GstCeBaseFilter * self, ce_cuda_dev * dev,
      gint slot, const GstVideoFrame * in, GstVideoFrame * out,
      gboolean out_on_device, gconstpointer params);
  /* Whether the output of neutral data (a GAP input) is neutral under
   * @params; NULL: always.  Where it is not, the output loses the GAP
   * flag. */
  gboolean (*gap_neutral) (GstCeBaseFilter * self, gconstpointer params);

  /*< private > */
  gpointer _gst_reserved[GST_PADDING];
};

/* Fills @base_class (a GstCeBaseFilterClass *) for the element @name from
 * the functions <prefix>_set_info, _get_params, _cuda_submit, _cpu_rows
 * (and _device_submit in builds with GStreamer CUDA memory) and the debug
 * category <prefix>_debug, so that a subclass names them once. */
#ifdef HAVE_GST_CUDA
#define GST_CE_BASE_FILTER_DEVICE_VFUNC(base_class, prefix) \
    (base_class)->device_submit = GST_DEBUG_FUNCPTR (prefix##_device_submit)
#else
#define GST_CE_BASE_FILTER_DEVICE_VFUNC(base_class, prefix) \
    (void) 0
#endif
#define GST_CE_BASE_FILTER_CLASS_SETUP(base_class, prefix, elt_name, \
    what_text, params_bytes) G_STMT_START { \
  (base_class)->name = (elt_name); \
  (base_class)->what = (what_text); \
  (base_class)->debug = prefix##_debug; \
  (base_class)->params_size = (params_bytes); \
  (base_class)->set_info = GST_DEBUG_FUNCPTR (prefix##_set_info); \
  (base_class)->get_params = GST_DEBUG_FUNCPTR (prefix##_get_params); \
  (base_class)->cuda_submit = GST_DEBUG_FUNCPTR (prefix##_cuda_submit); \
  (base_class)->cpu_rows = GST_DEBUG_FUNCPTR (prefix##_cpu_rows); \
  GST_CE_BASE_FILTER_DEVICE_VFUNC (base_class, prefix); \
} G_STMT_END

/* GStreamer's caps feature of CUDA memory (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
 * in gstreamer-cuda-1.0, which only builds with it include). */
#define GST_CE_CAPS_FEATURE_CUDA_MEMORY "memory:CUDAMemory"

/* The end of a subclass's transform_caps: @result (taken) intersected
 * with @filter (may be NULL), logged against @caps; returns the caps to
 * give back. */
GstCaps *gst_ce_base_filter_filter_caps (GstCeBaseFilter * self,
    GstPadDirection direction, GstCaps * caps, GstCaps * result,
    GstCaps * filter);

/* For a subclass's fixate_caps, before gst_caps_fixate: the fields that
 * fixed caps @in leave out (so at their defaults: pixel-aspect-ratio 1/1,
 * interlace-mode progressive, multiview-mode mono) fixed to those
 * defaults in @out, not to the first value the peer lists. */
void gst_ce_base_filter_fixate_defaults (const GstStructure * in,
    GstStructure * out);

/* For a subclass's transform_caps: restricts @out's multiview-mode (a mode
 * or a list of them), when it has one, to the modes whose frames can be
 * worked on as one picture: never views in separate memories; views
 * whose pixels alternate (by rows, columns or both) only with
 * @packed_ok.  FALSE when that leaves nothing. */
gboolean gst_ce_base_filter_restrict_views (GstStructure * out,
    gboolean packed_ok);

/* The same test on negotiated @info. */
gboolean gst_ce_base_filter_views_ok_for (const GstVideoInfo * info,
    gboolean packed_ok);

/* Whether the element may negotiate GStreamer CUDA memory now: built with
 * it, GStreamer's CUDA library loaded (and not the emulated device of the
 * tests), and, once started, on the CUDA backend (before start, unless
 * the backend property is cpu).  For the subclass's transform_caps. */
gboolean gst_ce_base_filter_can_use_cuda_memory (GstCeBaseFilter * self);

G_END_DECLS

#endif /* __GST_CE_BASE_FILTER_H__ */
