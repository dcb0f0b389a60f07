/* gst-cudaedge: the cudaupscale element
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

/**
 * SECTION:element-cudaupscale
 * @title: cudaupscale
 *
 * Doubles the width and the height of GRAY8 or 4-byte RGB-family video with
 * bilinear interpolation: a W x H frame becomes 2W x 2H, in the same
 * format, frame rate and pixel aspect ratio.  Output pixel (i, j) samples
 * the input at (i/2 - 1/4, j/2 - 1/4), clamped to the frame, with weights
 * in 1/256; every channel, alpha included, is filtered alike.
 *
 * Negotiation works both ways: a size fixed downstream (for example by a
 * capsfilter) asks upstream for half of it.  An odd downstream width or
 * height has no source size and fails with not-negotiated, and so does an
 * input larger than 2^28 pixels a side.  Progressive frames only: the
 * fields of interlaced video, and the views of the multiview modes that
 * alternate them by rows, columns or both (row-interleaved,
 * column-interleaved, checkerboard, side-by-side-quincunx), would be
 * blended, so such caps are not negotiated.
 *
 * The work runs on an NVIDIA GPU through CUDA when one is usable and on
 * the CPU otherwise (#GstCudaUpscale:backend).  Both give the same bytes;
 * #GstCudaUpscale:check compares the GPU output with the CPU reference
 * while running and posts a `cudaupscale-check` element message on a
 * mismatch, with the fields `frame` (guint64), `mismatches` (guint64,
 * differing pixels), `x`, `y` (gint, the first differing pixel) and
 * `expected`, `got` (gint, the values of its first differing byte).
 *
 * On the CUDA backend, when the input frame rate is known, the element
 * keeps two frames in flight: a frame is uploaded while the previous one
 * is scaled and the one before it downloaded, so the link to the GPU is
 * busy both ways.  Each output then leaves two inputs later (at the latest
 * at a serialized event such as EOS or a caps change, a DRAIN query, a
 * DISCONT input or a renegotiation), and the element adds two frame
 * durations to the LATENCY query.  On the CPU, or with framerate=0/1,
 * frames are processed synchronously and no latency is added; on CUDA such
 * a frame moves in horizontal bands (one per 4 MiB, at most 8) over several
 * CUDA streams, so that its upload, kernel and download overlap.  Frames
 * in flight move whole.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA,width=320,height=240 ! cudaupscale ! videoconvert ! autovideosink
 * ]| Shows a 640x480 upscale of a 320x240 test pattern.
 * |[
 * gst-launch-1.0 videotestsrc ! cudaupscale ! video/x-raw,width=1280,height=720 ! videoconvert ! autovideosink
 * ]| Asks for 1280x720 output; the test source produces 640x360.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=100 ! video/x-raw,format=GRAY8,width=960,height=540 ! cudaupscale check=true ! fakesink
 * ]| Upscales GRAY8 to 1920x1080 and compares every frame with the CPU
 * reference.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaupscale.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_upscale_debug);
#define GST_CAT_DEFAULT gst_cuda_upscale_debug

/* Every property is the base class's. */
struct _GstCudaUpscale
{
  GstCeBaseFilter parent;
};

#define UPSCALE_FORMATS \
    "{ GRAY8, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"

/* In GStreamer CUDA memory: what GstCuda 1.22 can hold (no GRAY8). */
#ifdef HAVE_GST_CUDA
#define UPSCALE_CAPS GST_VIDEO_CAPS_MAKE (UPSCALE_FORMATS) ";" \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CE_CAPS_FEATURE_CUDA_MEMORY, \
        "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx }")
#else
#define UPSCALE_CAPS GST_VIDEO_CAPS_MAKE (UPSCALE_FORMATS)
#endif

/* One set of caps for both pads: the format carries over. */
static GstStaticCaps upscale_caps = GST_STATIC_CAPS (UPSCALE_CAPS);

/* The pads' caps with the sizes each side can have: any input up to
 * CE_UPSCALE_MAX_SIZE a side, even outputs up to twice that. */
static GstCaps *
gst_cuda_upscale_template_caps (gboolean src)
{
  GstCaps *caps = gst_caps_make_writable (gst_static_caps_get (&upscale_caps));
  GValue size = G_VALUE_INIT;
  guint i;

  g_value_init (&size, GST_TYPE_INT_RANGE);
  if (src)
    gst_value_set_int_range_step (&size, 2, 2 * CE_UPSCALE_MAX_SIZE, 2);
  else
    gst_value_set_int_range (&size, 1, CE_UPSCALE_MAX_SIZE);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);

    gst_structure_set_value (s, "width", &size);
    gst_structure_set_value (s, "height", &size);
  }
  g_value_unset (&size);
  return caps;
}

#define gst_cuda_upscale_parent_class parent_class
G_DEFINE_TYPE (GstCudaUpscale, gst_cuda_upscale, GST_TYPE_CE_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaupscale, "cudaupscale", GST_RANK_NONE,
    GST_TYPE_CUDA_UPSCALE);

static GstCaps *gst_cuda_upscale_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_upscale_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_upscale_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);

/* ---- caps ---- */

/* Maps one width or height value to the other side: doubled towards the
 * source pad, halved towards the sink pad.  Halving keeps only the even
 * values: an odd output size has no input size.  Returns FALSE when no
 * value maps. */
static gboolean
gst_cuda_upscale_map_dimension (const GValue * in, GValue * out,
    gboolean to_src)
{
  if (G_VALUE_HOLDS_INT (in)) {
    gint v = g_value_get_int (in);

    if (to_src ? v > CE_UPSCALE_MAX_SIZE
        : v % 2 != 0 || v > 2 * CE_UPSCALE_MAX_SIZE)
      return FALSE;
    g_value_init (out, G_TYPE_INT);
    g_value_set_int (out, to_src ? 2 * v : v / 2);
    return TRUE;
  }

  if (GST_VALUE_HOLDS_INT_RANGE (in)) {
    gint64 min = gst_value_get_int_range_min (in);
    gint64 max = gst_value_get_int_range_max (in);
    gint64 step = gst_value_get_int_range_step (in);

    if (to_src) {
      /* Every value doubles, so the step doubles too: only even sizes.
       * An input is at most CE_UPSCALE_MAX_SIZE. */
      if (min > CE_UPSCALE_MAX_SIZE)
        return FALSE;
      max = MIN (max, min + (CE_UPSCALE_MAX_SIZE - min) / step * step);
      min *= 2;
      max *= 2;
      step *= 2;
    } else {
      /* The even members of {min, min + step, ...} are the multiples of
       * lcm (2, step); their halves are multiples of lcm (2, step) / 2. */
      gint64 lcm = step % 2 == 0 ? step : 2 * step;

      min = (MAX (min, 0) + lcm - 1) / lcm * (lcm / 2);
      max = MIN (max, 2 * (gint64) CE_UPSCALE_MAX_SIZE) / lcm * (lcm / 2);
      step = lcm / 2;
      if (min > max)
        return FALSE;
    }
    if (min == max) {
      g_value_init (out, G_TYPE_INT);
      g_value_set_int (out, (gint) min);
    } else {
      g_value_init (out, GST_TYPE_INT_RANGE);
      gst_value_set_int_range_step (out, (gint) min, (gint) max, (gint) step);
    }
    return TRUE;
  }

  if (GST_VALUE_HOLDS_LIST (in)) {
    guint i, n = gst_value_list_get_size (in);

    g_value_init (out, GST_TYPE_LIST);
    for (i = 0; i < n; i++) {
      GValue item = G_VALUE_INIT;

      if (gst_cuda_upscale_map_dimension (gst_value_list_get_value (in, i),
              &item, to_src))
        gst_value_list_append_and_take_value (out, &item);
    }
    if (gst_value_list_get_size (out) == 0) {
      g_value_unset (out);
      return FALSE;
    }
    if (gst_value_list_get_size (out) == 1) {
      GValue single = G_VALUE_INIT;

      gst_value_init_and_copy (&single, gst_value_list_get_value (out, 0));
      g_value_unset (out);
      *out = single;
    }
    return TRUE;
  }

  return FALSE;
}

/* Progressive frames only: scaled as one picture, the two fields of an
 * interlaced frame would be blended into each other.  Restricts @out's
 * interlace-mode, when it has one, to progressive; FALSE when that
 * leaves nothing. */
static gboolean
gst_cuda_upscale_restrict_progressive (GstStructure * out)
{
  const GValue *v = gst_structure_get_value (out, "interlace-mode");
  GValue progressive = G_VALUE_INIT, both = G_VALUE_INIT;
  gboolean ok;

  if (!v)
    return TRUE;
  g_value_init (&progressive, G_TYPE_STRING);
  g_value_set_static_string (&progressive, "progressive");
  ok = gst_value_intersect (&both, v, &progressive);
  g_value_unset (&progressive);
  if (ok)
    gst_structure_take_value (out, "interlace-mode", &both);
  return ok;
}

static GstCaps *
gst_cuda_upscale_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  static const gchar *const dims[] = { "width", "height" };
  gboolean to_src = direction == GST_PAD_SINK;
  gboolean cuda_ok =
      gst_ce_base_filter_can_use_cuda_memory (GST_CE_BASE_FILTER (trans));
  GstCaps *ret;
  guint i, n, d;

  if (gst_caps_is_any (caps)) {
    ret = gst_caps_ref (caps);
    goto done;
  }

  ret = gst_caps_new_empty ();
  n = gst_caps_get_size (caps);
  for (i = 0; i < n; i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    GstStructure *out;

    /* System memory stays system memory, CUDA memory CUDA memory. */
    if (features && !gst_caps_features_is_any (features)
        && !gst_caps_features_is_equal (features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)
        && !(cuda_ok && gst_caps_features_contains (features,
                GST_CE_CAPS_FEATURE_CUDA_MEMORY)))
      continue;

    /* Format, frame rate, pixel aspect ratio and colorimetry carry over;
     * only the size changes.  A missing size stays unconstrained. */
    out = gst_structure_copy (in);
    if (!gst_cuda_upscale_restrict_progressive (out)) {
      GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " is not progressive", in);
      gst_structure_free (out);
      continue;
    }
    if (!gst_ce_base_filter_restrict_views (out, FALSE)) {
      GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT "'s views are interleaved "
          "or separate", in);
      gst_structure_free (out);
      continue;
    }
    for (d = 0; d < G_N_ELEMENTS (dims); d++) {
      const GValue *v = gst_structure_get_value (in, dims[d]);
      GValue mapped = G_VALUE_INIT;

      if (!v)
        continue;
      if (!gst_cuda_upscale_map_dimension (v, &mapped, to_src)) {
        GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " has no %s "
            "counterpart%s", dims[d], in, to_src ? "output" : "input",
            to_src ? "" : " (odd sizes cannot be the double of a size)");
        gst_structure_free (out);
        out = NULL;
        break;
      }
      gst_structure_take_value (out, dims[d], &mapped);
    }
    if (out)
      ret = gst_caps_merge_structure_full (ret, out,
          features ? gst_caps_features_copy (features) : NULL);
  }

done:
  return gst_ce_base_filter_filter_caps (GST_CE_BASE_FILTER (trans),
      direction, caps, ret, filter);
}

/* Fixes @field of @out nearest to the same field of @in (scaled by
 * @num / @den for sizes), when both have it. */
static void
gst_cuda_upscale_fixate_int (GstStructure * out, const GstStructure * in,
    const gchar * field, gint num, gint den)
{
  gint v;

  if (gst_structure_get_int (in, field, &v) && gst_structure_has_field (out,
          field))
    gst_structure_fixate_field_nearest_int (out, field,
        (gint) ((gint64) v * num / den));
}

static void
gst_cuda_upscale_fixate_fraction (GstStructure * out,
    const GstStructure * in, const gchar * field)
{
  gint n, d;

  if (gst_structure_get_fraction (in, field, &n, &d)
      && gst_structure_has_field (out, field))
    gst_structure_fixate_field_nearest_fraction (out, field, n, d);
}

static GstCaps *
gst_cuda_upscale_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  const GstStructure *in;
  GstStructure *out;
  gint num = direction == GST_PAD_SINK ? 2 : 1;
  gint den = direction == GST_PAD_SINK ? 1 : 2;

  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  if (gst_caps_is_empty (othercaps) || gst_caps_is_any (othercaps))
    return othercaps;

  /* The other side's size is twice (or half) this side's; everything else
   * is the same.  Nearest, because a peer may allow only a range. */
  in = gst_caps_get_structure (caps, 0);
  out = gst_caps_get_structure (othercaps, 0);
  gst_cuda_upscale_fixate_int (out, in, "width", num, den);
  gst_cuda_upscale_fixate_int (out, in, "height", num, den);
  gst_cuda_upscale_fixate_fraction (out, in, "framerate");
  gst_cuda_upscale_fixate_fraction (out, in, "pixel-aspect-ratio");
  gst_ce_base_filter_fixate_defaults (in, out);
  if (gst_structure_has_field (in, "format")
      && gst_structure_has_field (out, "format"))
    gst_structure_fixate_field_string (out, "format",
        gst_structure_get_string (in, "format"));

  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

static gboolean
gst_cuda_upscale_set_info (GstCeBaseFilter * base,
    const GstVideoInfo * in_info, const GstVideoInfo * out_info)
{
  if (GST_VIDEO_INFO_FORMAT (out_info) != GST_VIDEO_INFO_FORMAT (in_info)
      || (gint64) GST_VIDEO_INFO_WIDTH (out_info) !=
      2 * (gint64) GST_VIDEO_INFO_WIDTH (in_info)
      || (gint64) GST_VIDEO_INFO_HEIGHT (out_info) !=
      2 * (gint64) GST_VIDEO_INFO_HEIGHT (in_info))
    return FALSE;
  if (GST_VIDEO_INFO_WIDTH (in_info) > CE_UPSCALE_MAX_SIZE
      || GST_VIDEO_INFO_HEIGHT (in_info) > CE_UPSCALE_MAX_SIZE) {
    GST_ELEMENT_ERROR (base, STREAM, FORMAT,
        ("%dx%d is too large to upscale (at most %d pixels a side).",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            CE_UPSCALE_MAX_SIZE), (NULL));
    return FALSE;
  }
  if (!gst_ce_base_filter_views_ok_for (in_info, FALSE)) {
    GST_ELEMENT_ERROR (base, STREAM, FORMAT,
        ("Multiview mode %s interleaves its views, which an upscale of the "
            "whole frame would blend.", gst_video_multiview_mode_to_caps_string
            (GST_VIDEO_INFO_MULTIVIEW_MODE (in_info))), (NULL));
    return FALSE;
  }
  if (GST_VIDEO_INFO_IS_INTERLACED (in_info)
      || GST_VIDEO_INFO_IS_INTERLACED (out_info)) {
    GST_ELEMENT_ERROR (base, STREAM, FORMAT,
        ("Interlaced video is not supported; deinterlace it first."),
        ("input %s, output %s", gst_video_interlace_mode_to_string
            (GST_VIDEO_INFO_INTERLACE_MODE (in_info)),
            gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE
                (out_info))));
    return FALSE;
  }

  GST_INFO_OBJECT (base, "%s %dx%d -> %dx%d",
      GST_VIDEO_INFO_NAME (in_info), GST_VIDEO_INFO_WIDTH (in_info),
      GST_VIDEO_INFO_HEIGHT (in_info), GST_VIDEO_INFO_WIDTH (out_info),
      GST_VIDEO_INFO_HEIGHT (out_info));
  return TRUE;
}

/* The upscale keeps the picture's format and orientation and doubles
 * its size: metadata that depends on nothing else is copied, and what
 * depends on the size (regions of interest, crops...) is given to the
 * output through the meta's own scale transform (as videoscale does);
 * metadata tied to the input's memory, or tagged in ways unknown here,
 * is not copied. */
static gboolean
gst_cuda_upscale_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  static const gchar *const known[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };
  const GstMetaInfo *info = meta->info;
  const gchar *const *tags = gst_meta_api_type_get_tags (info->api);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  for (; tags && *tags; tags++)
    if (!g_strv_contains (known, *tags))
      return FALSE;
  if (gst_meta_api_type_has_tag (info->api,
          g_quark_from_static_string (GST_META_TAG_VIDEO_SIZE_STR))) {
    GstVideoMetaTransform scale = { &filter->in_info, &filter->out_info };

    if (info->transform_func)
      info->transform_func (outbuf, meta, inbuf,
          gst_video_meta_transform_scale_get_quark (), &scale);
    return FALSE;
  }
  return TRUE;
}

/* Pointer positions of navigation events (mouse, touch) come up from the
 * output, always twice the input's size: they go on upstream in the
 * input's pixels, halved, as videoscale sends them.  (The halving needs
 * no negotiated size, which the streaming thread may be replacing.) */
static gboolean
gst_cuda_upscale_src_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_NAVIGATION) {
    static const gchar *const fields[2] = { "pointer_x", "pointer_y" };
    GstStructure *st;
    guint i;

    event = gst_event_make_writable (event);
    st = gst_event_writable_structure (event);
    for (i = 0; st && i < 2; i++) {
      gdouble v;

      if (gst_structure_get_double (st, fields[i], &v))
        gst_structure_set (st, fields[i], G_TYPE_DOUBLE, v / 2.0, NULL);
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_upscale_parent_class)->src_event
      (trans, event);
}

/* ---- one frame ---- */

/* Nothing to set: the upscale has no options. */
static void
gst_cuda_upscale_get_params (G_GNUC_UNUSED GstCeBaseFilter * base,
    G_GNUC_UNUSED gpointer params)
{
}

/* 1 for GRAY8, 4 for the RGB family. */
static gint
gst_cuda_upscale_bpp (const GstVideoFrame * in)
{
  return GST_VIDEO_FORMAT_INFO_PSTRIDE (in->info.finfo, 0);
}

static ce_status
gst_cuda_upscale_cuda_submit (G_GNUC_UNUSED GstCeBaseFilter * base,
    ce_cuda_ctx * ctx, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, G_GNUC_UNUSED gconstpointer params)
{
  return ce_cuda_upscale2x_frame_submit (ctx, slot,
      GST_VIDEO_FRAME_PLANE_DATA (in, 0), GST_VIDEO_FRAME_PLANE_STRIDE (in,
          0), GST_VIDEO_FRAME_WIDTH (in), GST_VIDEO_FRAME_HEIGHT (in),
      gst_cuda_upscale_bpp (in), GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0));
}

/* The core's fast CPU path, with the same bytes as its reference (which
 * the core's tests check). */
static ce_status
gst_cuda_upscale_cpu_rows (G_GNUC_UNUSED GstCeBaseFilter * base,
    const GstVideoFrame * in, G_GNUC_UNUSED gconstpointer params, gint row0,
    gint row1, guint8 * dst, gsize dst_stride)
{
  return ce_cpu_upscale2x_rows (GST_VIDEO_FRAME_PLANE_DATA (in, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), GST_VIDEO_FRAME_WIDTH (in),
      GST_VIDEO_FRAME_HEIGHT (in), gst_cuda_upscale_bpp (in), row0, row1,
      dst, dst_stride);
}

#ifdef HAVE_GST_CUDA
/* CUDA memory in and out: the kernel alone, in GStreamer's context. */
static ce_status
gst_cuda_upscale_device_submit (G_GNUC_UNUSED GstCeBaseFilter * base,
    ce_cuda_dev * dev, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, gboolean out_on_device,
    G_GNUC_UNUSED gconstpointer params)
{
  g_return_val_if_fail (out_on_device, CE_STATUS_INVALID_ARGUMENT);

  return ce_cuda_dev_upscale2x_submit (dev, slot,
      GST_VIDEO_FRAME_PLANE_DATA (in, 0), GST_VIDEO_FRAME_PLANE_STRIDE (in,
          0), GST_VIDEO_FRAME_WIDTH (in), GST_VIDEO_FRAME_HEIGHT (in),
      gst_cuda_upscale_bpp (in), GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0));
}
#endif

/* ---- class ---- */

static void
gst_cuda_upscale_class_init (GstCudaUpscaleClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCaps *caps;

  GST_DEBUG_CATEGORY_INIT (gst_cuda_upscale_debug, "cudaupscale", 0,
      "CUDA bilinear 2x upscaler");

  caps = gst_cuda_upscale_template_caps (FALSE);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  caps = gst_cuda_upscale_template_caps (TRUE);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_element_class_set_static_metadata (element_class,
      "CUDA 2x upscaler", "Filter/Converter/Video/Scaler",
      "Bilinear 2x upscale of GRAY8 and 4-byte RGB video on an NVIDIA GPU, "
      "or on the CPU",
      "The gst-cudaedge authors");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_upscale_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_upscale_fixate_caps);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_upscale_transform_meta);
  trans_class->src_event = GST_DEBUG_FUNCPTR (gst_cuda_upscale_src_event);

  GST_CE_BASE_FILTER_CLASS_SETUP (GST_CE_BASE_FILTER_CLASS (klass),
      gst_cuda_upscale, "cudaupscale",
      "Upscaling", 0);
}

static void
gst_cuda_upscale_init (GstCudaUpscale * self)
{
  /* The output is never the input: the sizes downstream prefers come
   * first in the caps upstream is offered, halved, not as they are. */
  gst_base_transform_set_prefer_passthrough (GST_BASE_TRANSFORM (self),
      FALSE);
}
