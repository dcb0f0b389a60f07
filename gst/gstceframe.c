/* gst-cudaedge: the frame path of the base class
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


/* One frame through GstCeBaseFilter: input validation, the properties'
 * snapshot, CUDA or the CPU (in bands), the fall-back, the check and the
 * statistics, synchronously or with frames in flight. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcebasefilter-private.h"

GST_DEBUG_CATEGORY_EXTERN (gst_ce_base_filter_debug);
#define GST_CAT_DEFAULT gst_ce_base_filter_debug

/* ---- input validation ---- */

/* The bytes a row of plane @plane of format @finfo takes at @width:
 * the pixels' strides, and for pixels that share bytes (the 4:2:2 packed
 * formats) the last byte any component of the row reaches. */
static gsize
gst_ce_plane_row_bytes (const GstVideoFormatInfo * finfo, guint plane,
    guint width)
{
  gsize row = 0;
  guint c;

  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    gsize w, pixels, reach;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
      continue;
    w = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c, width);
    pixels = w * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    reach = w ? (w - 1) * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c)
        + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c)
        + (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) + 7) / 8 : 0;
    row = MAX (row, MAX (pixels, reach));
  }
  return row;
}

/* The rows of plane @plane of format @finfo at @height. */
static guint
gst_ce_plane_rows (const GstVideoFormatInfo * finfo, guint plane,
    guint height)
{
  guint c;

  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == plane)
      return GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, height);
  return height;
}

/* Plane 0 of @buffer as GstVideoFrame would map it: from its video meta
 * when it has one, else from @info.  Returns the buffer to read (a new
 * reference: @buffer itself, or a copy in one memory block when plane 0
 * spans several, since a meta's plane is mapped from one block only), or
 * NULL after posting an error that says what is wrong. */
static GstBuffer *
gst_ce_base_filter_validate_input (GstCeBaseFilter * self,
    const GstVideoInfo * info, GstBuffer * buffer)
{
  GstVideoMeta *meta;
  gsize size, row, offset, span = 0, needed = 0;
  guint idx, length, plane;
  gsize skip;
  gint stride;
  guint width, height;

  width = GST_VIDEO_INFO_WIDTH (info);
  height = GST_VIDEO_INFO_HEIGHT (info);
  meta = gst_buffer_get_video_meta (buffer);
  /* A meta larger than the caps describes padding around the picture
   * (its top-left width x height), as gst_video_frame_map () takes it; a
   * smaller one does not hold the picture.  In either memory. */
  if (meta && (meta->format != GST_VIDEO_INFO_FORMAT (info)
          || meta->width < width || meta->height < height
          || meta->n_planes != GST_VIDEO_INFO_N_PLANES (info)))
    goto meta_mismatch;

  /* The geometry is checked alike in CUDA memory (its size is the
   * allocation's, its meta's offsets and strides in it): a plane outside
   * it would have the kernel read past the allocation. */
  size = gst_buffer_get_size (buffer);
  row = gst_ce_plane_row_bytes (info->finfo, 0, width);

  if (meta) {
    /* Only plane 0 is read, but every plane of the meta must lie in the
     * buffer, as the caps' layout does without a meta. */
    for (plane = 1; plane < meta->n_planes; plane++) {
      gsize prow = gst_ce_plane_row_bytes (info->finfo, plane, width), pend;
      guint prows = gst_ce_plane_rows (info->finfo, plane, height);

      stride = meta->stride[plane];
      if (stride <= 0 || (gsize) stride < prow
          || !g_size_checked_mul (&pend, (gsize) stride, prows - 1)
          || !g_size_checked_add (&pend, pend, prow)
          || !g_size_checked_add (&pend, pend, meta->offset[plane])
          || pend > size)
        goto plane_outside;
    }
    offset = meta->offset[0];
    stride = meta->stride[0];
  } else {
    offset = GST_VIDEO_INFO_PLANE_OFFSET (info, 0);
    stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
    needed = GST_VIDEO_INFO_SIZE (info);
    if (size < needed)
      goto too_small;
  }

  if (stride <= 0 || (gsize) stride < row)
    goto bad_stride;

  /* offset + stride * (height - 1) + row, without wrapping around. */
  if (!g_size_checked_mul (&span, (gsize) stride, height - 1)
      || !g_size_checked_add (&span, span, row)
      || !g_size_checked_add (&needed, offset, span))
    goto too_small;
  if (size < needed)
    goto too_small;

#ifdef HAVE_GST_CUDA
  if (GET_PRIV (self)->in_cuda)
    return gst_ce_cuda_memory_validate (self, buffer);
#endif

  /* Only plane 0 is read, but a frame whose other planes (from its meta)
   * lie outside the buffer cannot be mapped.  GstVideoFrame's own mapping
   * is the judge. */
  if (GST_VIDEO_INFO_N_PLANES (info) > 1) {
    GstVideoFrame frame;

    if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ))
      goto unmappable;
    gst_video_frame_unmap (&frame);
  }

  if (meta && gst_buffer_n_memory (buffer) > 1
      && gst_buffer_find_memory (buffer, offset, span, &idx, &length, &skip)
      && length > 1) {
    GstMapInfo map;
    GstBuffer *copy;

    GST_DEBUG_OBJECT (self, "plane 0 spans %u memory blocks: reading a "
        "merged copy", length);
    if (!gst_buffer_map (buffer, &map, GST_MAP_READ))
      goto unmappable;
    copy = gst_buffer_new_memdup (map.data, map.size);
    gst_buffer_unmap (buffer, &map);
    gst_buffer_copy_into (copy, buffer, GST_BUFFER_COPY_FLAGS |
        GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
    gst_buffer_add_video_meta_full (copy, meta->flags, meta->format,
        meta->width, meta->height, meta->n_planes, meta->offset,
        meta->stride);
    return copy;
  }
  return gst_buffer_ref (buffer);

  /* ERRORS */
meta_mismatch:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer's video meta does not match the negotiated caps."),
        ("meta says %s %ux%u in %u planes, caps say %s %ux%u in %u planes",
            gst_video_format_to_string (meta->format), meta->width,
            meta->height, meta->n_planes,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), width,
            height, GST_VIDEO_INFO_N_PLANES (info)));
    return NULL;
  }
plane_outside:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer's planes do not fit in the buffer."),
        ("%s %ux%u: plane %u at offset %" G_GSIZE_FORMAT " with stride %d "
            "does not fit in the %" G_GSIZE_FORMAT " bytes of the buffer",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), width,
            height, plane, meta->offset[plane], stride, size));
    return NULL;
  }
unmappable:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer's planes do not fit in the buffer."),
        ("%s %ux%u: the video meta's plane offsets and strides reach past "
            "the %" G_GSIZE_FORMAT " bytes of the buffer",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), width,
            height, size));
    return NULL;
  }
too_small:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer is too small for the negotiated caps."),
        ("got %" G_GSIZE_FORMAT " bytes, %s %ux%u at offset %" G_GSIZE_FORMAT
            " with stride %d needs %s", size,
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
            width, height, offset, stride, needed ? "more" : "more than "
            "the address space"));
    return NULL;
  }
bad_stride:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer has an invalid row stride."),
        ("stride %d for rows of %" G_GSIZE_FORMAT " bytes", stride, row));
    return NULL;
  }
}

gboolean
gst_ce_base_filter_map_picture (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags)
{
  if (!gst_video_frame_map (frame, info, buffer, flags))
    return FALSE;
  /* A video meta larger than the caps maps as a frame of the meta's
   * size; the picture is its top-left part, of the caps' size
   * (gst_ce_base_filter_validate_input). */
  frame->info.width = GST_VIDEO_INFO_WIDTH (info);
  frame->info.height = GST_VIDEO_INFO_HEIGHT (info);
  return TRUE;
}

static gboolean
gst_ce_base_filter_map_frames (GstCeBaseFilter * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GstVideoFrame * in, GstVideoFrame * out)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstMapFlags in_flags = GST_MAP_READ, out_flags = GST_MAP_WRITE;

#ifdef HAVE_GST_CUDA
  /* Device pointers and pitches of GStreamer CUDA memory. */
  if (GET_PRIV (self)->in_cuda)
    in_flags |= GST_MAP_CUDA;
  if (GET_PRIV (self)->out_cuda)
    out_flags |= GST_MAP_CUDA;
#endif

  if (!gst_ce_base_filter_map_picture (in, &filter->in_info, inbuf,
          in_flags))
    goto map_in_failed;
  if (!gst_ce_base_filter_map_picture (out, &filter->out_info, outbuf,
          out_flags)) {
    /* Unmapped and cleared: a caller that frees a job with both frames
     * (gst_ce_job_free) must not unmap it again. */
    gst_video_frame_unmap (in);
    memset (in, 0, sizeof (*in));
    goto map_out_failed;
  }
  return TRUE;

  /* ERRORS */
map_in_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Could not map the input buffer as a %dx%d %s frame.",
            GST_VIDEO_INFO_WIDTH (&filter->in_info),
            GST_VIDEO_INFO_HEIGHT (&filter->in_info),
            GST_VIDEO_INFO_NAME (&filter->in_info)), (NULL));
    return FALSE;
  }
map_out_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not map the output buffer as a %dx%d frame.",
            GST_VIDEO_INFO_WIDTH (&filter->out_info),
            GST_VIDEO_INFO_HEIGHT (&filter->out_info)), (NULL));
    return FALSE;
  }
}

/* ---- one frame ---- */

/* What a frame needs from the properties, copied at once under the object
 * lock when the frame starts, so that a property changed while PLAYING
 * takes effect at a frame boundary even with frames in flight. */
typedef struct
{
  gboolean check;               /* this frame is to be checked */
  GstCeCheckFail check_fail;
} GstCeFrameCheck;

static void
gst_ce_base_filter_snapshot (GstCeBaseFilter * self, guint64 frame,
    GstCeFrameCheck * check, gpointer params, GstBuffer * outbuf)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeBaseFilterClass *klass = GET_CLASS (self);

  GST_OBJECT_LOCK (self);
  check->check = priv->check && priv->check_interval > 0
      && frame % priv->check_interval == 0;
  check->check_fail = priv->check_fail;
  klass->get_params (self, params);
  GST_OBJECT_UNLOCK (self);
  /* The output of a GAP input took its flags (the element is GAP aware);
   * it keeps GAP only where neutral data gives neutral output. */
  if (GST_BUFFER_FLAG_IS_SET (outbuf, GST_BUFFER_FLAG_GAP)
      && klass->gap_neutral && !klass->gap_neutral (self, params))
    GST_BUFFER_FLAG_UNSET (outbuf, GST_BUFFER_FLAG_GAP);
}

typedef struct
{
  GstCeBaseFilter *self;
  const GstVideoFrame *in;
  gconstpointer params;
  guint8 *dst;
  gsize dst_stride;
} GstCeCpuFrame;

static ce_status
gst_ce_base_filter_cpu_band (gpointer user_data, gint row0, gint row1)
{
  GstCeCpuFrame *f = user_data;

  return GET_CLASS (f->self)->cpu_rows (f->self, f->in, f->params, row0,
      row1, f->dst, f->dst_stride);
}

/* The whole output on the CPU, a band of rows per thread. */
ce_status
gst_ce_base_filter_run_cpu (GstCeBaseFilter * self, const GstVideoFrame * in,
    gconstpointer params, guint8 * dst, gsize dst_stride)
{
  GstCeCpuFrame f = { self, in, params, dst, dst_stride };

  return gst_ce_bands_run (GET_PRIV (self)->bands,
      GST_VIDEO_INFO_HEIGHT (&GST_VIDEO_FILTER (self)->out_info),
      gst_ce_base_filter_cpu_band, &f);
}

/* Posts the <element>-check message and a warning, or with
 * check-fail=error a stream error (returning GST_FLOW_ERROR). */
GstFlowReturn
gst_ce_base_filter_report (GstCeBaseFilter * self, guint64 frame,
    guint64 mismatches, const ce_diff * diff, GstCeCheckFail check_fail)
{
  gchar *name = g_strdup_printf ("%s-check", GET_CLASS (self)->name);

  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_ce_check_message_new (GST_OBJECT_CAST (self), name, frame, diff));
  g_free (name);
  if (check_fail == GST_CE_CHECK_FAIL_ERROR) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Output differs from the CPU's (check-fail=error)."),
        ("frame %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " pixels "
            "differ, first at x=%d y=%d: expected %d, got %d", frame,
            mismatches, diff->x, diff->y, diff->expected, diff->got));
    return GST_FLOW_ERROR;
  }
  GST_ELEMENT_WARNING (self, STREAM, FAILED,
      ("Output differs from the CPU's."),
      ("frame %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " pixels "
          "differ, first at x=%d y=%d: expected %d, got %d", frame,
          mismatches, diff->x, diff->y, diff->expected, diff->got));
  return GST_FLOW_OK;
}

/* Handles a failed CUDA frame.  With backend=auto: warns, drops the
 * context, asks both neighbours for system memory again and returns TRUE;
 * the caller redoes the frame on the CPU.  With backend=cuda: posts an
 * error and returns FALSE. */
static gboolean
gst_ce_base_filter_cuda_failed (GstCeBaseFilter * self, ce_status status,
    const gchar * call)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);

  if (priv->requested == GST_CE_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("CUDA processing failed (backend=cuda)."),
        ("%s: %s: %s. Use backend=auto to fall back to the CPU.", call,
            ce_status_string (status), ce_last_error ()));
    return FALSE;
  }

  GST_CAT_WARNING_OBJECT (GET_CLASS (self)->debug, self, "CUDA failed, "
      "falling back to the CPU: %s: %s", call, ce_last_error ());
  GST_ELEMENT_WARNING (self, RESOURCE, FAILED,
      ("CUDA processing failed; continuing on the CPU."),
      ("%s: %s: %s", call, ce_status_string (status), ce_last_error ()));

  /* Buffers already allocated from the pinned pools keep the context alive
   * through their allocator's reference, so they stay valid. */
  gst_ce_base_filter_set_context (self, NULL);
  gst_ce_stats_set_backend (&priv->stats, "cpu", "cpu");
  gst_ce_base_filter_update_latency (self);

  /* New pools, of system memory, on both sides. */
  gst_base_transform_reconfigure_src (trans);
  gst_pad_push_event (trans->sinkpad, gst_event_new_reconfigure ());
  return TRUE;
}

/* Everything after the GPU work of a frame, synchronous or in flight.
 * @on_gpu says that the frame was given to CUDA and @gpu_status how that
 * ended.  A frame the GPU did not do (or finished only after an earlier
 * frame failed and the context was dropped) is computed on the CPU, so no
 * frame is lost.  Then the test hook, the check and the statistics. */
static GstFlowReturn
gst_ce_base_filter_complete (GstCeBaseFilter * self, guint64 frame,
    const GstVideoFrame * in, GstVideoFrame * out, gconstpointer params,
    const GstCeFrameCheck * check, gboolean on_gpu, ce_status gpu_status,
    const gchar * gpu_call, const ce_timing * timing)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstFlowReturn ret = GST_FLOW_OK;
  guint8 *h_dst = GST_VIDEO_FRAME_PLANE_DATA (out, 0);
  gsize dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);
  gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (out->info.finfo, 0);
  gint width = GST_VIDEO_FRAME_WIDTH (out);
  gint rows = GST_VIDEO_FRAME_HEIGHT (out);
  gsize row_bytes = (gsize) width * pstride;
  gboolean checked = FALSE, corrupt = FALSE;
  ce_diff diff = { 0, 0, 0, 0, 0 };
  ce_status status = CE_STATUS_OK;
  gdouble cpu_us = 0.0;
  guint64 mismatches = 0;

  if (on_gpu) {
    if (priv->ctx == NULL) {
      on_gpu = FALSE;
    } else if (gpu_status != CE_STATUS_OK) {
      if (!gst_ce_base_filter_cuda_failed (self, gpu_status, gpu_call))
        return GST_FLOW_ERROR;
      on_gpu = FALSE;
    }
  }

  if (!on_gpu) {
    gint64 start = g_get_monotonic_time ();

    status = gst_ce_base_filter_run_cpu (self, in, params, h_dst,
        dst_stride);
    if (status != CE_STATUS_OK)
      goto cpu_failed;
    cpu_us = (gdouble) (g_get_monotonic_time () - start);
  }
#ifdef GST_CE_TEST_HOOKS
  if (priv->corrupt_frame >= 0 && (guint64) priv->corrupt_frame == frame) {
    /* The last byte of pixel (W - 1, 0) and, on frames of two rows or
     * more, the first byte of pixel (0, H - 1): two pixels, the first off
     * the diagonal. */
    GST_WARNING_OBJECT (self, "test hook: corrupting pixels (%d, 0) and "
        "(0, %d) of frame %" G_GUINT64_FORMAT, width - 1, rows - 1, frame);
    h_dst[row_bytes - 1] ^= 0xff;
    if (rows > 1)
      h_dst[(gsize) (rows - 1) * dst_stride] ^= 0xff;
  }
  /* With the hook set, the CPU backend is checked too, against a second
   * computation, so the mismatch path runs without a GPU. */
  corrupt = priv->corrupt_frame >= 0;
#endif

  /* On the CPU the output *is* the CPU's: nothing to compare. */
  if (check->check && (on_gpu || corrupt)) {
    guint8 *h_ref = gst_ce_check_buffer_get (&priv->reference,
        row_bytes * rows);

    if (!h_ref)
      goto no_memory;
    status = gst_ce_base_filter_run_cpu (self, in, params, h_ref, row_bytes);
    if (status != CE_STATUS_OK)
      goto cpu_failed;
    /* Every byte of every pixel (alpha and padding too), counted by
     * pixel; expected and got are the first differing byte's values. */
    mismatches = ce_compare_pixels (h_ref, row_bytes, h_dst, dst_stride,
        width, rows, pstride, &diff);
    checked = TRUE;
  }

  /* A GPU frame submitted without timing counts, but not in the means. */
  if (on_gpu && !gst_ce_stats_frame_timed (&priv->stats, frame))
    gst_ce_stats_add_untimed_frame (&priv->stats, checked, mismatches);
  else
    gst_ce_stats_add_frame (&priv->stats, checked, mismatches,
        on_gpu ? timing : NULL, cpu_us);

  if (mismatches)
    ret = gst_ce_base_filter_report (self, frame, mismatches, &diff,
        check->check_fail);
  return ret;

  /* ERRORS */
no_memory:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Not enough memory to check a %dx%d frame.", width, rows), (NULL));
    return GST_FLOW_ERROR;
  }
cpu_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("%s failed on the CPU.", GET_CLASS (self)->what),
        ("%s %dx%d, strides %d -> %" G_GSIZE_FORMAT ": %s: %s",
            gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (in)),
            GST_VIDEO_FRAME_WIDTH (in), GST_VIDEO_FRAME_HEIGHT (in),
            GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), dst_stride,
            ce_status_string (status), ce_last_error ()));
    return GST_FLOW_ERROR;
  }
}

/* One mapped frame, synchronously. */
GstFlowReturn
gst_ce_base_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in, GstVideoFrame * out)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (filter);
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeFrameCheck check;
  ce_timing timing = { 0.0, 0.0, 0.0 };
  ce_status status = CE_STATUS_OK;
  const gchar *call = NULL;
  gpointer params;
  guint64 frame;

  params = g_alloca (MAX (GET_CLASS (self)->params_size, 1));
  memset (params, 0, GET_CLASS (self)->params_size);
  frame = priv->frame_count++;
  gst_ce_base_filter_snapshot (self, frame, &check, params, out->buffer);

  if (priv->ctx) {
    ce_cuda_ctx *handle = gst_ce_context_get_handle (priv->ctx);

    /* Nothing is in flight on this path, so slot 0 is free. */
    call = "submitting the frame";
    status = CE_STATUS_CUDA_ERROR;
    ce_cuda_ctx_set_timing (handle, gst_ce_stats_time_frame (&priv->stats,
            frame));
    /* Alone, a frame overlaps its own copies: bands chosen by size. */
    ce_cuda_ctx_set_bands (handle, 0);
    if (gst_ce_context_push (priv->ctx)) {
      status = GET_CLASS (self)->cuda_submit (self, handle, 0, in, out,
          params);
      if (status == CE_STATUS_OK) {
        call = "ce_cuda_frame_wait";
        status = ce_cuda_frame_wait (handle, 0, &timing);
      }
      gst_ce_context_pop (priv->ctx);
    }
  }

  return gst_ce_base_filter_complete (self, frame, in, out, params, &check,
      call != NULL, status, call, &timing);
}

#ifdef HAVE_GST_CUDA
/* One frame on GStreamer CUDA memory, synchronously; takes @readbuf and
 * the mapped frames. */
static GstFlowReturn
gst_ce_base_filter_transform_device (GstCeBaseFilter * self,
    GstBuffer * readbuf, GstBuffer * outbuf, GstVideoFrame * in,
    GstVideoFrame * out)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  ce_timing timing = { 0.0, 0.0, 0.0 };
  GstCeFrameCheck check;
  GstFlowReturn ret;
  ce_status status;
  gpointer params;
  guint64 frame;

  params = g_alloca (MAX (GET_CLASS (self)->params_size, 1));
  memset (params, 0, GET_CLASS (self)->params_size);
  frame = priv->frame_count++;
  gst_ce_base_filter_snapshot (self, frame, &check, params, outbuf);

  status = gst_ce_cuda_memory_submit (self, 0, frame, in, out, params);
  if (status == CE_STATUS_OK)
    status = gst_ce_cuda_memory_wait (self, 0, &timing);
  gst_video_frame_unmap (out);
  gst_video_frame_unmap (in);

  ret = gst_ce_cuda_memory_complete (self, frame, readbuf, outbuf, params,
      check.check, check.check_fail, status, &timing);
  gst_buffer_unref (readbuf);
  return ret;
}
#endif

/* GstBaseTransform::transform, instead of GstVideoFilter's: that one only
 * warns about a buffer it cannot map and pushes the output anyway.  Here a
 * buffer that does not hold the frame is an error, and no output leaves
 * without being computed. */
GstFlowReturn
gst_ce_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstVideoFrame in, out;
  GstFlowReturn ret;
  GstBuffer *readbuf;

  if (G_UNLIKELY (!filter->negotiated))
    goto not_negotiated;

  readbuf = gst_ce_base_filter_validate_input (self, &filter->in_info, inbuf);
  if (!readbuf)
    return GST_FLOW_ERROR;
  if (!gst_ce_base_filter_map_frames (self, readbuf, outbuf, &in, &out)) {
    gst_buffer_unref (readbuf);
    return GST_FLOW_ERROR;
  }

#ifdef HAVE_GST_CUDA
  if (GET_PRIV (self)->in_cuda)
    return gst_ce_base_filter_transform_device (self, readbuf, outbuf, &in,
        &out);
#endif

  ret = gst_ce_base_filter_transform_frame (filter, &in, &out);

  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  gst_buffer_unref (readbuf);
  return ret;

  /* ERRORS */
not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps were negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
}

/* ---- frames in flight ---- */

/* Completes @job, whose GPU work ended with @status (the frame's checks,
 * statistics and metadata; its output on error). */
static GstFlowReturn
gst_ce_job_complete (GstCeBaseFilter * self, GstCeJob * job,
    ce_status status, const ce_timing * timing)
{
  GstCeFrameCheck check;

#ifdef HAVE_GST_CUDA
  if (job->device) {
    /* Unmapped first: the check maps them again in host memory. */
    gst_video_frame_unmap (&job->out);
    gst_video_frame_unmap (&job->in);
    job->in.buffer = job->out.buffer = NULL;
    return gst_ce_cuda_memory_complete (self, job->frame, job->inbuf,
        job->outbuf, job->params, job->check, job->check_fail, status,
        timing);
  }
#endif
  check.check = job->check;
  check.check_fail = job->check_fail;
  return gst_ce_base_filter_complete (self, job->frame, &job->in, &job->out,
      job->params, &check, job->ctx != NULL, status,
      job->slot >= 0 ? "ce_cuda_frame_wait" : "submitting the frame",
      timing);
}

/* Waits for the oldest frame in flight and completes it.  Its output comes
 * back in @outbuf even when the flow return is not OK, as from
 * GstBaseTransform::transform; the caller drops it then.  After an error
 * the other frames in flight are discarded.  FALSE when none was left
 * (a flush took it). */
static GstFlowReturn
gst_ce_base_filter_finish_oldest (GstCeBaseFilter * self, GstBuffer ** outbuf)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  ce_timing timing = { 0.0, 0.0, 0.0 };
  gboolean discont;
  GstFlowReturn ret;
  ce_status status;
  GstCeJob *job;

  *outbuf = NULL;
  job = gst_ce_in_flight_pop (&priv->in_flight);
  if (!job)
    return GST_FLOW_OK;

  status = gst_ce_in_flight_wait (&priv->in_flight, job, &timing);
  ret = gst_ce_job_complete (self, job, status, &timing);
  discont = job->discont;
  *outbuf = gst_ce_job_free (job);

  if (ret == GST_FLOW_OK)
    gst_ce_qos_output (self, outbuf, discont);
  else
    gst_ce_in_flight_discard (&priv->in_flight);
  return ret;
}

/* Completes the frames in flight in order and pushes their outputs; stops
 * at the first flow return that is not OK, discarding the rest. */
GstFlowReturn
gst_ce_base_filter_drain (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *outbuf;

  while (ret == GST_FLOW_OK) {
    ret = gst_ce_base_filter_finish_oldest (self, &outbuf);
    if (!outbuf)
      break;
    if (ret == GST_FLOW_OK) {
      GST_LOG_OBJECT (self, "pushing a drained frame");
      ret = gst_pad_push (trans->srcpad, outbuf);
    } else {
      gst_buffer_unref (outbuf);
    }
  }
  if (ret != GST_FLOW_OK) {
    gst_ce_in_flight_discard (&priv->in_flight);
    GST_DEBUG_OBJECT (self, "draining stopped: %s", gst_flow_get_name (ret));
  }
  return ret;
}

/* Takes the stashed input buffer, prepares its output and submits it. */
static GstFlowReturn
gst_ce_base_filter_submit_queued (GstCeBaseFilter * self)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBaseTransformClass *klass = GST_BASE_TRANSFORM_GET_CLASS (trans);
  GstBuffer *inbuf = trans->queued_buf, *readbuf, *outbuf = NULL;
  GstCeFrameCheck check;
  GstFlowReturn ret;
  GstCeJob *job;

  trans->queued_buf = NULL;

  readbuf = gst_ce_base_filter_validate_input (self,
      &GST_VIDEO_FILTER (self)->in_info, inbuf);
  if (!readbuf) {
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }

  /* From the pool negotiated downstream, with the input's timestamps,
   * offsets, flags and metas copied, as GstBaseTransform does it.  The
   * pool may block until a flush: nothing is locked here. */
  ret = klass->prepare_output_buffer (trans, inbuf, &outbuf);
  gst_buffer_unref (inbuf);
  if (ret != GST_FLOW_OK || outbuf == NULL || outbuf == inbuf) {
    GST_WARNING_OBJECT (self, "could not get an output buffer: %s",
        gst_flow_get_name (ret));
    if (outbuf && outbuf != inbuf)
      gst_buffer_unref (outbuf);
    gst_buffer_unref (readbuf);
    return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;
  }

  job = gst_ce_job_new (readbuf, outbuf, GET_CLASS (self)->params_size);
  if (!gst_ce_base_filter_map_frames (self, readbuf, outbuf, &job->in,
          &job->out)) {
    gst_buffer_unref (gst_ce_job_free (job));
    return GST_FLOW_ERROR;
  }
  job->frame = priv->frame_count++;
  gst_ce_base_filter_snapshot (self, job->frame, &check, job->params,
      outbuf);
  job->check = check.check;
  job->check_fail = check.check_fail;
  job->discont = priv->discont_pending;
  priv->discont_pending = FALSE;

#ifdef HAVE_GST_CUDA
  if (priv->in_cuda) {
    job->device = TRUE;
    job->slot = gst_ce_in_flight_reserve_slot (&priv->in_flight);
    if (job->slot >= 0) {
      job->status = gst_ce_cuda_memory_submit (self, job->slot, job->frame,
          &job->in, &job->out, job->params);
      if (job->status != CE_STATUS_OK) {
        gst_ce_in_flight_release_slot (&priv->in_flight, job->slot);
        job->slot = -1;
      }
    } else {
      job->status = CE_STATUS_INVALID_ARGUMENT;
    }
  } else
#endif
  if (priv->ctx) {
    job->ctx = gst_ce_context_ref (priv->ctx);
    /* At most CE_CUDA_SLOTS - 1 frames wait between two inputs, so a slot
     * is free. */
    job->slot = gst_ce_in_flight_reserve_slot (&priv->in_flight);
    if (job->slot >= 0) {
      job->status = CE_STATUS_CUDA_ERROR;
      ce_cuda_ctx_set_timing (gst_ce_context_get_handle (job->ctx),
          gst_ce_stats_time_frame (&priv->stats, job->frame));
      /* With frames in flight one frame's copies already overlap the
       * others': a frame goes up and down in GST_CE_PIPELINED_BANDS bands
       * (0: as many as its size asks for, as when frames go one by one). */
      ce_cuda_ctx_set_bands (gst_ce_context_get_handle (job->ctx),
          GST_CE_PIPELINED_BANDS);
      if (gst_ce_context_push (job->ctx)) {
        job->status = GET_CLASS (self)->cuda_submit (self,
            gst_ce_context_get_handle (job->ctx), job->slot, &job->in,
            &job->out, job->params);
        gst_ce_context_pop (job->ctx);
      }
      if (job->status != CE_STATUS_OK) {
        gst_ce_in_flight_release_slot (&priv->in_flight, job->slot);
        job->slot = -1;
      }
    } else {
      job->status = CE_STATUS_INVALID_ARGUMENT;
      GST_WARNING_OBJECT (self, "no free CUDA slot for frame %"
          G_GUINT64_FORMAT, job->frame);
    }
  }
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " submitted to slot %d",
      job->frame, job->slot);
  gst_ce_in_flight_push (&priv->in_flight, job);
  return GST_FLOW_OK;
}

/* Whether the oldest frame in flight is to be finished now.  Up to
 * CE_CUDA_SLOTS - 1 frames stay in flight while CUDA runs; frames that are not on the GPU (a
 * failed submission, or any after a fallback to the CPU) gain nothing
 * from waiting. */
static gboolean
gst_ce_base_filter_must_finish (GstCeBaseFilter * self, gboolean pipelined)
{
  GstCeBaseFilterPrivate *priv = GET_PRIV (self);
  GstCeInFlight *fl = &priv->in_flight;
  guint n = gst_ce_in_flight_length (fl);

  if (n == 0)
    return FALSE;
  return !pipelined || priv->finish_now
      || !gst_ce_in_flight_newest_on_gpu (fl) || n >= CE_CUDA_SLOTS;
}

GstFlowReturn
gst_ce_base_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCeBaseFilter *self = GST_CE_BASE_FILTER (trans);
  gboolean pipelined = gst_ce_base_filter_is_pipelined (self);
  GstFlowReturn ret = GST_FLOW_OK;

  *outbuf = NULL;

  if (pipelined && trans->queued_buf != NULL) {
    ret = gst_ce_base_filter_submit_queued (self);
    if (ret != GST_FLOW_OK)
      return ret;
  }

  /* At most one output per call: GstBaseTransform calls again until it
   * gets none, which also flushes out, in order, the frames left in
   * flight by a fallback to the CPU before the next input is done. */
  if (gst_ce_base_filter_must_finish (self, pipelined)) {
    ret = gst_ce_base_filter_finish_oldest (self, outbuf);
    if (gst_ce_in_flight_length (&GET_PRIV (self)->in_flight) == 0)
      GET_PRIV (self)->finish_now = FALSE;
  }

  if (*outbuf != NULL || ret != GST_FLOW_OK || pipelined)
    return ret;

  /* Nothing in flight: the synchronous path, through ::transform. */
  return GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))
      ->generate_output (trans, outbuf);
}

