/* gst-cudaedge: the cudaedge element
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
 * SECTION:element-cudaedge
 * @title: cudaedge
 *
 * Detects edges in video: takes the luma of each frame, smooths it with a
 * 5x5 Gaussian, computes the 3x3 Sobel gradient magnitude and writes a
 * binary GRAY8 frame (255 on edges, 0 elsewhere) of the same size.  With
 * #GstCudaEdge:output=magnitude it writes the magnitude itself instead.
 *
 * The work runs on an NVIDIA GPU through CUDA when one is usable and on
 * the CPU otherwise (#GstCudaEdge:backend).  Both give the same bytes;
 * #GstCudaEdge:check compares the GPU output with the CPU reference while
 * running and posts a `cudaedge-check` element message on a mismatch, with
 * the fields `frame` (guint64), `mismatches` (guint64), and `x`, `y`,
 * `expected`, `got` (gint) of the first differing byte.
 *
 * On the CUDA backend, when the input frame rate is known, the element
 * keeps one frame in flight: a frame is uploaded while the previous one is
 * filtered and downloaded, so the link to the GPU is busy both ways.  Each
 * output then leaves one input later (at the latest at EOS, a caps change
 * or a DRAIN query), and the element adds one frame duration to the
 * LATENCY query.  On the CPU, or with framerate=0/1, frames are processed
 * synchronously and no latency is added.  Within a frame, bands overlap
 * upload, kernels and download on several CUDA streams.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=video.avi ! decodebin ! videoconvert ! cudaedge threshold=64 ! videoconvert ! autovideosink
 * ]| Shows the edges of a video file.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=100 ! video/x-raw,format=I420,width=1280,height=720 ! cudaedge border-mode=reflect norm=l1 check=true ! fakesink
 * ]| Runs on I420 input, compares every output frame with the CPU
 * reference.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 pattern=ball ! cudaedge output=magnitude ! pngenc ! filesink location=magnitude.png
 * ]| Saves the gradient magnitude of one frame as PNG.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaedge.h"
#include "gstcudaedgecommon.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_edge_debug);
#define GST_CAT_DEFAULT gst_cuda_edge_debug

#define DEFAULT_THRESHOLD 128.0
#define DEFAULT_BLUR TRUE
#define DEFAULT_BORDER_MODE CE_BORDER_REPLICATE
#define DEFAULT_NORM CE_NORM_L2
#define DEFAULT_OUTPUT CE_OUTPUT_EDGES

/* After the properties shared with cudaupscale (GST_CE_PROP_*). */
enum
{
  PROP_THRESHOLD = GST_CE_PROP_LAST,
  PROP_BLUR,
  PROP_BORDER_MODE,
  PROP_NORM,
  PROP_OUTPUT
};

struct _GstCudaEdge
{
  GstVideoFilter parent;

  /* Properties, protected by the object lock. */
  gdouble threshold;
  gboolean blur;
  ce_border_mode border_mode;
  ce_norm norm;
  ce_output output;
  GstCeCommonProps props;

  /* Streaming state. */
  GstCeRuntime rt;
  ce_format format;
};

#define SINK_FORMATS "{ GRAY8, I420, YV12, NV12, NV21, Y42B, Y444, YUY2, " \
    "UYVY, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (SINK_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE ("GRAY8")));

static const struct
{
  GstVideoFormat gst;
  ce_format ce;
} format_map[] = {
  {GST_VIDEO_FORMAT_GRAY8, CE_FORMAT_GRAY8},
  {GST_VIDEO_FORMAT_I420, CE_FORMAT_I420},
  {GST_VIDEO_FORMAT_YV12, CE_FORMAT_YV12},
  {GST_VIDEO_FORMAT_NV12, CE_FORMAT_NV12},
  {GST_VIDEO_FORMAT_NV21, CE_FORMAT_NV21},
  {GST_VIDEO_FORMAT_Y42B, CE_FORMAT_Y42B},
  {GST_VIDEO_FORMAT_Y444, CE_FORMAT_Y444},
  {GST_VIDEO_FORMAT_YUY2, CE_FORMAT_YUY2},
  {GST_VIDEO_FORMAT_UYVY, CE_FORMAT_UYVY},
  {GST_VIDEO_FORMAT_RGB, CE_FORMAT_RGB},
  {GST_VIDEO_FORMAT_BGR, CE_FORMAT_BGR},
  {GST_VIDEO_FORMAT_RGBA, CE_FORMAT_RGBA},
  {GST_VIDEO_FORMAT_BGRA, CE_FORMAT_BGRA},
  {GST_VIDEO_FORMAT_ARGB, CE_FORMAT_ARGB},
  {GST_VIDEO_FORMAT_ABGR, CE_FORMAT_ABGR},
  {GST_VIDEO_FORMAT_RGBx, CE_FORMAT_RGBx},
  {GST_VIDEO_FORMAT_BGRx, CE_FORMAT_BGRx},
  {GST_VIDEO_FORMAT_xRGB, CE_FORMAT_xRGB},
  {GST_VIDEO_FORMAT_xBGR, CE_FORMAT_xBGR},
};

static gboolean
gst_cuda_edge_format_to_ce (GstVideoFormat format, ce_format * out)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (format_map); i++) {
    if (format_map[i].gst == format) {
      *out = format_map[i].ce;
      return TRUE;
    }
  }
  return FALSE;
}

GType
gst_cuda_edge_border_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CE_BORDER_REPLICATE, "Repeat the nearest edge pixel", "replicate"},
    {CE_BORDER_ZERO, "Read zeros outside the frame", "zero"},
    {CE_BORDER_REFLECT, "Mirror without repeating the edge pixel "
          "(OpenCV's REFLECT_101)", "reflect"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaEdgeBorderMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_edge_norm_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CE_NORM_L2, "Euclidean: sqrt (gx^2 + gy^2)", "l2"},
    {CE_NORM_L1, "Sum of absolute values: |gx| + |gy|", "l1"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaEdgeNorm", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_edge_output_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CE_OUTPUT_EDGES, "Binary edges: 255 above the threshold, else 0",
        "edges"},
    {CE_OUTPUT_MAGNITUDE, "Gradient magnitude in gray levels, clamped to "
          "255", "magnitude"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaEdgeOutput", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_edge_parent_class parent_class
G_DEFINE_TYPE (GstCudaEdge, gst_cuda_edge, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaedge, "cudaedge", GST_RANK_NONE,
    GST_TYPE_CUDA_EDGE);

static void gst_cuda_edge_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_edge_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cuda_edge_finalize (GObject * object);
static gboolean gst_cuda_edge_start (GstBaseTransform * trans);
static gboolean gst_cuda_edge_stop (GstBaseTransform * trans);
static GstCaps *gst_cuda_edge_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static gboolean gst_cuda_edge_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_edge_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);
static void gst_cuda_edge_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static GstFlowReturn gst_cuda_edge_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
static gboolean gst_cuda_edge_set_info (GstVideoFilter * filter,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info);
static GstFlowReturn gst_cuda_edge_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);
static GstFlowReturn gst_cuda_edge_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf);
static gboolean gst_cuda_edge_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static gboolean gst_cuda_edge_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);

static void gst_cuda_edge_get_settings (GstElement * element,
    GstCeFrameSettings * settings);
static ce_status gst_cuda_edge_cuda_submit (GstElement * element,
    ce_cuda_ctx * ctx, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, const GstCeFrameSettings * settings);
static ce_status gst_cuda_edge_cpu (GstElement * element,
    const GstVideoFrame * in, guint8 * dst, gsize dst_stride,
    const GstCeFrameSettings * settings);

static const GstCeFrameFuncs frame_funcs = {
  "Edge detection",
  gst_cuda_edge_get_settings,
  gst_cuda_edge_cuda_submit,
  gst_cuda_edge_cpu,
};

static void
gst_cuda_edge_class_init (GstCudaEdgeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_edge_debug, "cudaedge", 0,
      "CUDA edge detector");

  gobject_class->set_property = gst_cuda_edge_set_property;
  gobject_class->get_property = gst_cuda_edge_get_property;
  gobject_class->finalize = gst_cuda_edge_finalize;

  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_double ("threshold", "Threshold",
          "Gradient magnitude above which a pixel is an edge, in gray "
          "levels (0 - 2048)", 0.0, CE_THRESHOLD_MAX, DEFAULT_THRESHOLD,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          GST_PARAM_CONTROLLABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BLUR,
      g_param_spec_boolean ("blur", "Blur",
          "Smooth the luma with a 5x5 Gaussian before the Sobel operator",
          DEFAULT_BLUR,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BORDER_MODE,
      g_param_spec_enum ("border-mode", "Border mode",
          "What the filters read outside the frame",
          GST_TYPE_CUDA_EDGE_BORDER_MODE, DEFAULT_BORDER_MODE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_NORM,
      g_param_spec_enum ("norm", "Norm",
          "How the gradient magnitude is computed from gx and gy",
          GST_TYPE_CUDA_EDGE_NORM, DEFAULT_NORM,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What the GRAY8 output holds", GST_TYPE_CUDA_EDGE_OUTPUT,
          DEFAULT_OUTPUT,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  gst_ce_install_common_properties (gobject_class, "cudaedge-check");

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CUDA edge detector", "Filter/Effect/Video",
      "Gaussian blur, Sobel gradient and threshold of the luma on an NVIDIA "
      "GPU (CPU fallback); outputs GRAY8 edges or gradient magnitude; on "
      "CUDA with a known frame rate, one frame of latency",
      "The gst-cudaedge authors");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_edge_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_edge_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_transform_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_edge_transform);
  /* Frames in flight on CUDA: outputs leave one input late, are drained
   * before serialized events and DRAIN queries, and add one frame of
   * latency.  submit_input_buffer stays the parent's (QoS). */
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_edge_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_edge_query);
  /* The output is never the input: GRAY8 from any format. */
  trans_class->passthrough_on_same_caps = FALSE;

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_edge_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_EDGE_BORDER_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_EDGE_NORM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_EDGE_OUTPUT, 0);
}

static void
gst_cuda_edge_init (GstCudaEdge * self)
{
  self->threshold = DEFAULT_THRESHOLD;
  self->blur = DEFAULT_BLUR;
  self->border_mode = DEFAULT_BORDER_MODE;
  self->norm = DEFAULT_NORM;
  self->output = DEFAULT_OUTPUT;
  gst_ce_common_props_init (&self->props);
  self->format = CE_FORMAT_GRAY8;

  gst_ce_runtime_init (&self->rt, GST_ELEMENT_CAST (self), "cudaedge",
      &frame_funcs);
}

static void
gst_cuda_edge_finalize (GObject * object)
{
  GstCudaEdge *self = GST_CUDA_EDGE (object);

  gst_ce_runtime_clear (&self->rt);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_edge_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaEdge *self = GST_CUDA_EDGE (object);

  if (gst_ce_common_set_property (GST_ELEMENT_CAST (self), &self->props,
          prop_id, value, pspec))
    return;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      self->threshold = g_value_get_double (value);
      break;
    case PROP_BLUR:
      self->blur = g_value_get_boolean (value);
      break;
    case PROP_BORDER_MODE:
      self->border_mode = g_value_get_enum (value);
      break;
    case PROP_NORM:
      self->norm = g_value_get_enum (value);
      break;
    case PROP_OUTPUT:
      self->output = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_edge_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaEdge *self = GST_CUDA_EDGE (object);

  /* Takes the object lock itself, but not for stats. */
  if (gst_ce_common_get_property (GST_ELEMENT_CAST (self), &self->props,
          &self->rt, prop_id, value))
    return;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      g_value_set_double (value, self->threshold);
      break;
    case PROP_BLUR:
      g_value_set_boolean (value, self->blur);
      break;
    case PROP_BORDER_MODE:
      g_value_set_enum (value, self->border_mode);
      break;
    case PROP_NORM:
      g_value_set_enum (value, self->norm);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cuda_edge_start (GstBaseTransform * trans)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  return gst_ce_runtime_start (&self->rt, &self->props);
}

static gboolean
gst_cuda_edge_stop (GstBaseTransform * trans)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  /* Frames still in flight are discarded. */
  gst_ce_runtime_close (&self->rt);
  return TRUE;
}

/* The format field of a pad template's caps. */
static void
gst_cuda_edge_template_formats (GstStaticPadTemplate * templ, GValue * out)
{
  GstCaps *caps = gst_static_pad_template_get_caps (templ);

  gst_value_init_and_copy (out,
      gst_structure_get_value (gst_caps_get_structure (caps, 0), "format"));
  gst_caps_unref (caps);
}

static GstCaps *
gst_cuda_edge_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret;
  GValue ours = G_VALUE_INIT, theirs = G_VALUE_INIT;
  guint i, n;

  /* GRAY8 downstream, the sink template's list upstream. */
  if (direction == GST_PAD_SINK) {
    gst_cuda_edge_template_formats (&sink_template, &ours);
    gst_cuda_edge_template_formats (&src_template, &theirs);
  } else {
    gst_cuda_edge_template_formats (&src_template, &ours);
    gst_cuda_edge_template_formats (&sink_template, &theirs);
  }

  ret = gst_caps_new_empty ();
  n = gst_caps_get_size (caps);
  for (i = 0; i < n; i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    const GValue *format;
    GstStructure *out;

    if (features && !gst_caps_features_is_any (features)
        && !gst_caps_features_is_equal (features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      continue;

    /* Caps in a format this side cannot take have no counterpart. */
    format = gst_structure_get_value (in, "format");
    if (format && !gst_value_can_intersect (format, &ours))
      continue;

    out = gst_structure_copy (in);
    gst_structure_remove_fields (out, "colorimetry", "chroma-site", NULL);
    gst_structure_set_value (out, "format", &theirs);
    ret = gst_caps_merge_structure (ret, out);
  }
  g_value_unset (&ours);
  g_value_unset (&theirs);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (ret);
    ret = tmp;
  }

  GST_DEBUG_OBJECT (trans, "%s caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

static gboolean
gst_cuda_edge_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  /* On CUDA, upstream fills pinned memory, so the core uploads straight
   * from it without a staging copy. */
  if (gst_ce_runtime_propose_allocation (&self->rt, query))
    return TRUE;

  return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
      decide_query, query);
}

static gboolean
gst_cuda_edge_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  /* On CUDA, results are downloaded straight into pinned output buffers. */
  if (gst_ce_runtime_decide_allocation (&self->rt, query))
    return TRUE;

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

static void
gst_cuda_edge_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time;

  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

static GstFlowReturn
gst_cuda_edge_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  /* GstVideoFilter only warns about a buffer it cannot map and pushes the
   * output anyway; a buffer that does not hold the frame is an error. */
  if (filter->negotiated && !gst_ce_validate_input_buffer (GST_ELEMENT (trans),
          &filter->in_info, inbuf))
    return GST_FLOW_ERROR;

  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
      outbuf);
}

static gboolean
gst_cuda_edge_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCudaEdge *self = GST_CUDA_EDGE (filter);
  ce_format format;

  if (!gst_cuda_edge_format_to_ce (GST_VIDEO_INFO_FORMAT (in_info), &format))
    goto unsupported;
  if (GST_VIDEO_INFO_FORMAT (out_info) != GST_VIDEO_FORMAT_GRAY8
      || GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info)
      || GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info))
    goto mismatch;

  /* No frame is in flight here: CAPS is serialized, so the frames of the
   * old format were drained before it. */
  self->format = format;
  gst_ce_runtime_set_info (&self->rt, in_info, out_info);

  GST_INFO_OBJECT (self, "%s %dx%d -> GRAY8", ce_format_name (format),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info));
  return TRUE;

  /* ERRORS */
unsupported:
  {
    GST_ERROR_OBJECT (self, "unsupported input format %s",
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (in_info)));
    return FALSE;
  }
mismatch:
  {
    GST_ERROR_OBJECT (self, "output caps %" GST_PTR_FORMAT " do not match "
        "input caps %" GST_PTR_FORMAT, outcaps, incaps);
    return FALSE;
  }
}

/* ---- one frame ---- */

static void
gst_cuda_edge_get_settings (GstElement * element,
    GstCeFrameSettings * settings)
{
  GstCudaEdge *self = GST_CUDA_EDGE (element);

  settings->edge.threshold = self->threshold;
  settings->edge.blur = self->blur;
  settings->edge.border = self->border_mode;
  settings->edge.norm = self->norm;
  settings->edge.output = self->output;
  gst_ce_common_props_get_settings (&self->props, settings);
  /* Streaming state, but it belongs with the frame: a frame in flight
   * keeps the format it was submitted with. */
  settings->format = self->format;
}

/* Plane 0 of @in as the core sees it. */
static void
gst_cuda_edge_describe (const GstVideoFrame * in,
    const GstCeFrameSettings * settings, ce_frame * src)
{
  src->data = GST_VIDEO_FRAME_PLANE_DATA (in, 0);
  src->stride = GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
  src->width = GST_VIDEO_FRAME_WIDTH (in);
  src->height = GST_VIDEO_FRAME_HEIGHT (in);
  src->format = settings->format;
}

static ce_status
gst_cuda_edge_cuda_submit (G_GNUC_UNUSED GstElement * element,
    ce_cuda_ctx * ctx, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, const GstCeFrameSettings * settings)
{
  ce_frame src;

  gst_cuda_edge_describe (in, settings, &src);
  return ce_cuda_edge_frame_submit (ctx, slot, &src, &settings->edge,
      GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0));
}

typedef struct
{
  ce_frame src;
  const ce_edge_params *params;
  guint8 *dst;
  gsize dst_stride;
} GstCudaEdgeCpuJob;

static ce_status
gst_cuda_edge_cpu_band (gpointer user_data, gint row0, gint row1)
{
  GstCudaEdgeCpuJob *job = user_data;

  return ce_cpu_edge_rows (&job->src, job->params, row0, row1, job->dst,
      job->dst_stride);
}

/* The core's fast CPU path (the same bytes as its reference, which the
 * core's tests check), one band of rows per core. */
static ce_status
gst_cuda_edge_cpu (G_GNUC_UNUSED GstElement * element,
    const GstVideoFrame * in, guint8 * dst, gsize dst_stride,
    const GstCeFrameSettings * settings)
{
  GstCudaEdgeCpuJob job;

  gst_cuda_edge_describe (in, settings, &job.src);
  job.params = &settings->edge;
  job.dst = dst;
  job.dst_stride = dst_stride;
  return gst_ce_run_in_bands (job.src.height, gst_cuda_edge_cpu_band, &job);
}

static GstFlowReturn
gst_cuda_edge_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaEdge *self = GST_CUDA_EDGE (filter);

  return gst_ce_runtime_process_frame (&self->rt, in_frame, out_frame);
}

/* ---- frames in flight (shared with cudaupscale) ---- */

static GstFlowReturn
gst_cuda_edge_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  return gst_ce_runtime_generate_output (&self->rt,
      GST_BASE_TRANSFORM_CLASS (parent_class), outbuf);
}

static gboolean
gst_cuda_edge_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  return gst_ce_runtime_sink_event (&self->rt,
      GST_BASE_TRANSFORM_CLASS (parent_class), event);
}

static gboolean
gst_cuda_edge_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaEdge *self = GST_CUDA_EDGE (trans);

  return gst_ce_runtime_query (&self->rt,
      GST_BASE_TRANSFORM_CLASS (parent_class), direction, query);
}
