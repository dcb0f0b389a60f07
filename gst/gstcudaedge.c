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
 * keeps two frames in flight: a frame is uploaded while the previous one
 * is filtered and the one before it downloaded, so the link to the GPU is
 * busy both ways.  Each output then leaves two inputs later (at the latest
 * at a serialized event such as EOS or a caps change, a DRAIN query, a
 * DISCONT input or a renegotiation), and the element adds two frame
 * durations to the LATENCY query.  On the CPU, or with framerate=0/1,
 * frames are processed synchronously and no latency is added; on CUDA such
 * a frame moves in horizontal bands (one per 4 MiB, at most 8) over several
 * CUDA streams, so that its upload, kernels and download overlap.  Frames
 * in flight move whole.
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

#include "gstcudaedge.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_edge_debug);
#define GST_CAT_DEFAULT gst_cuda_edge_debug

#define DEFAULT_THRESHOLD CE_EDGE_DEFAULT_THRESHOLD
#define DEFAULT_BLUR (CE_EDGE_DEFAULT_BLUR != 0)
#define DEFAULT_BORDER_MODE CE_EDGE_DEFAULT_BORDER
#define DEFAULT_NORM CE_EDGE_DEFAULT_NORM
#define DEFAULT_OUTPUT CE_EDGE_DEFAULT_OUTPUT

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_BLUR,
  PROP_BORDER_MODE,
  PROP_NORM,
  PROP_OUTPUT
};

struct _GstCudaEdge
{
  GstCeBaseFilter parent;

  /* Properties, guarded by the object lock. */
  gdouble threshold;
  gboolean blur;
  ce_border_mode border_mode;
  ce_norm norm;
  ce_output output;

  /* Streaming state: the negotiated input format. */
  ce_format format;
};

/* One frame's parameters. */
typedef struct
{
  ce_edge_params edge;
  ce_format format;
} GstCudaEdgeParams;

#define SINK_FORMATS "{ GRAY8, I420, YV12, NV12, NV21, Y42B, Y444, YUY2, " \
    "UYVY, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"

/* In GStreamer CUDA memory: the formats GstCuda 1.22 holds, of ours; the
 * output is NV12 or I420 with the edges in Y and chroma at 128 (GstCuda
 * 1.22 cannot hold GRAY8). */
#define CUDA_SINK_FORMATS "{ I420, YV12, NV12, NV21, Y42B, Y444, RGBA, " \
    "BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"
#define CUDA_SRC_FORMATS "{ NV12, I420 }"

/* GST_VIDEO_CAPS_MAKE with the sizes the core takes: 1 ... CE_MAX_SIZE
 * a side. */
#define CE_SIZE_RANGE "(int) [ 1, " G_STRINGIFY (CE_MAX_SIZE) " ]"
#define CE_VIDEO_CAPS(features, formats) "video/x-raw" features ", " \
    "format = (string) " formats ", width = " CE_SIZE_RANGE ", " \
    "height = " CE_SIZE_RANGE ", framerate = " GST_VIDEO_FPS_RANGE

#define SYSTEM_SINK_CAPS CE_VIDEO_CAPS ("", SINK_FORMATS)
#define SYSTEM_SRC_CAPS CE_VIDEO_CAPS ("", "GRAY8")
#define CUDA_SINK_CAPS CE_VIDEO_CAPS \
    ("(" GST_CE_CAPS_FEATURE_CUDA_MEMORY ")", CUDA_SINK_FORMATS)
#define CUDA_SRC_CAPS CE_VIDEO_CAPS \
    ("(" GST_CE_CAPS_FEATURE_CUDA_MEMORY ")", CUDA_SRC_FORMATS)

#ifdef HAVE_GST_CUDA
#define SINK_CAPS SYSTEM_SINK_CAPS ";" CUDA_SINK_CAPS
#define SRC_CAPS SYSTEM_SRC_CAPS ";" CUDA_SRC_CAPS
#else
#define SINK_CAPS SYSTEM_SINK_CAPS
#define SRC_CAPS SYSTEM_SRC_CAPS
#endif

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SINK_CAPS));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (SRC_CAPS));

/* The format lists of each side, in each memory. */
static GstStaticCaps system_sink_caps = GST_STATIC_CAPS (SYSTEM_SINK_CAPS);
static GstStaticCaps system_src_caps = GST_STATIC_CAPS (SYSTEM_SRC_CAPS);
static GstStaticCaps cuda_sink_caps = GST_STATIC_CAPS (CUDA_SINK_CAPS);
static GstStaticCaps cuda_src_caps = GST_STATIC_CAPS (CUDA_SRC_CAPS);

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
G_DEFINE_TYPE (GstCudaEdge, gst_cuda_edge, GST_TYPE_CE_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudaedge, "cudaedge", GST_RANK_NONE,
    GST_TYPE_CUDA_EDGE);

static void gst_cuda_edge_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_edge_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_edge_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static GstCaps *gst_cuda_edge_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);

static void
gst_cuda_edge_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaEdge *self = GST_CUDA_EDGE (object);

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

/* Adds @in, with the formats and the memory of @templ, to @ret (nothing
 * for views in separate memories, of which only the first would be
 * worked on). */
static GstCaps *
gst_cuda_edge_add_structure (GstCaps * ret, const GstStructure * in,
    GstStaticCaps * templ)
{
  GstCaps *caps;
  GstStructure *out = gst_structure_copy (in);

  if (!gst_ce_base_filter_restrict_views (out, TRUE)) {
    gst_structure_free (out);
    return ret;
  }
  caps = gst_static_caps_get (templ);
  gst_structure_remove_fields (out, "colorimetry", "chroma-site", NULL);
  gst_structure_set_value (out, "format",
      gst_structure_get_value (gst_caps_get_structure (caps, 0), "format"));
  ret = gst_caps_merge_structure_full (ret, out,
      gst_caps_features_copy (gst_caps_get_features (caps, 0)));
  gst_caps_unref (caps);
  return ret;
}

/* Whether the format of @in can be one of @templ's. */
static gboolean
gst_cuda_edge_format_in (const GstStructure * in, GstStaticCaps * templ)
{
  const GValue *format = gst_structure_get_value (in, "format");
  GstCaps *caps;
  gboolean ret;

  if (!format)
    return TRUE;
  caps = gst_static_caps_get (templ);
  ret = gst_value_can_intersect (format, gst_structure_get_value
      (gst_caps_get_structure (caps, 0), "format"));
  gst_caps_unref (caps);
  return ret;
}

/* GRAY8 in system memory from any of the sink formats in system memory.
 * With the CUDA backend, CUDA memory too: in it, the CUDA sink formats
 * give GRAY8 in system memory (preferred: one download of one byte per
 * pixel) or NV12 / I420 in CUDA memory; upstream is offered CUDA memory
 * first. */
static GstCaps *
gst_cuda_edge_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  gboolean cuda_ok =
      gst_ce_base_filter_can_use_cuda_memory (GST_CE_BASE_FILTER (trans));
  GstCaps *ret = gst_caps_new_empty ();
  guint i, n = gst_caps_get_size (caps);

  for (i = 0; i < n; i++) {
    const GstStructure *in = gst_caps_get_structure (caps, i);
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    gboolean sys, cuda;

    sys = !features || gst_caps_features_is_any (features)
        || gst_caps_features_is_equal (features,
        GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
    cuda = cuda_ok && features && !gst_caps_features_is_any (features)
        && gst_caps_features_contains (features,
        GST_CE_CAPS_FEATURE_CUDA_MEMORY);

    if (direction == GST_PAD_SINK) {
      if (sys && gst_cuda_edge_format_in (in, &system_sink_caps))
        ret = gst_cuda_edge_add_structure (ret, in, &system_src_caps);
      if (cuda && gst_cuda_edge_format_in (in, &cuda_sink_caps)) {
        ret = gst_cuda_edge_add_structure (ret, in, &system_src_caps);
        ret = gst_cuda_edge_add_structure (ret, in, &cuda_src_caps);
      }
    } else {
      if (sys && gst_cuda_edge_format_in (in, &system_src_caps)) {
        if (cuda_ok)
          ret = gst_cuda_edge_add_structure (ret, in, &cuda_sink_caps);
        ret = gst_cuda_edge_add_structure (ret, in, &system_sink_caps);
      }
      if (cuda && gst_cuda_edge_format_in (in, &cuda_src_caps))
        ret = gst_cuda_edge_add_structure (ret, in, &cuda_sink_caps);
    }
  }

  return gst_ce_base_filter_filter_caps (GST_CE_BASE_FILTER (trans),
      direction, caps, ret, filter);
}

static gboolean
gst_cuda_edge_set_info (GstCeBaseFilter * base, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info)
{
  GstCudaEdge *self = GST_CUDA_EDGE (base);
  ce_format format;

  if (!gst_cuda_edge_format_to_ce (GST_VIDEO_INFO_FORMAT (in_info), &format))
    return FALSE;
  switch (GST_VIDEO_INFO_FORMAT (out_info)) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_NV12:       /* CUDA memory: edges in Y */
    case GST_VIDEO_FORMAT_I420:
      break;
    default:
      return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info)
      || GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info))
    return FALSE;

  self->format = format;
  GST_INFO_OBJECT (self, "%s %dx%d -> %s", ce_format_name (format),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
      GST_VIDEO_INFO_NAME (out_info));
  return TRUE;
}

/* ---- one frame ---- */

static void
gst_cuda_edge_get_params (GstCeBaseFilter * base, gpointer params)
{
  GstCudaEdge *self = GST_CUDA_EDGE (base);
  GstCudaEdgeParams *p = params;

  p->edge.threshold = self->threshold;
  p->edge.blur = self->blur;
  p->edge.border = self->border_mode;
  p->edge.norm = self->norm;
  p->edge.output = self->output;
  /* Streaming state, but it belongs with the frame: a frame in flight
   * keeps the format it was submitted with. */
  p->format = self->format;
}

/* A uniform frame has no edges where the border rule repeats the frame's
 * own pixels; with zero borders its border has them. */
static gboolean
gst_cuda_edge_gap_neutral (G_GNUC_UNUSED GstCeBaseFilter * base,
    gconstpointer params)
{
  const GstCudaEdgeParams *p = params;

  return p->edge.border != CE_BORDER_ZERO;
}

/* The edge map keeps the picture's size and orientation, not its
 * colours: metadata that depends on nothing else (regions of interest,
 * crops...) is copied; the rest (tied to the input's memory or colours,
 * or tagged in ways unknown here) follows GstVideoFilter's rule. */
static gboolean
gst_cuda_edge_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  static const gchar *const kept[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
  };
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  for (; tags && *tags; tags++)
    if (!g_strv_contains (kept, *tags))
      return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
          outbuf, meta, inbuf);
  return TRUE;
}

/* Plane 0 of @in as the core sees it. */
static void
gst_cuda_edge_describe (const GstVideoFrame * in, const GstCudaEdgeParams * p,
    ce_frame * src)
{
  src->data = GST_VIDEO_FRAME_PLANE_DATA (in, 0);
  src->stride = GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
  src->width = GST_VIDEO_FRAME_WIDTH (in);
  src->height = GST_VIDEO_FRAME_HEIGHT (in);
  src->format = p->format;
}

static ce_status
gst_cuda_edge_cuda_submit (G_GNUC_UNUSED GstCeBaseFilter * base,
    ce_cuda_ctx * ctx, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, gconstpointer params)
{
  const GstCudaEdgeParams *p = params;
  ce_frame src;

  gst_cuda_edge_describe (in, p, &src);
  return ce_cuda_edge_frame_submit (ctx, slot, &src, &p->edge,
      GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0));
}

/* The core's fast CPU path, with the same bytes as its reference (which
 * the core's tests check). */
static ce_status
gst_cuda_edge_cpu_rows (G_GNUC_UNUSED GstCeBaseFilter * base,
    const GstVideoFrame * in, gconstpointer params, gint row0, gint row1,
    guint8 * dst, gsize dst_stride)
{
  const GstCudaEdgeParams *p = params;
  ce_frame src;

  gst_cuda_edge_describe (in, p, &src);
  return ce_cpu_edge_rows (&src, &p->edge, row0, row1, dst, dst_stride);
}

#ifdef HAVE_GST_CUDA
/* CUDA memory in: the luma (RGB formats) and the fused kernel in
 * GStreamer's context; the edges go to the Y plane of CUDA memory, whose
 * chroma becomes 128, or are downloaded into system memory. */
static ce_status
gst_cuda_edge_device_submit (G_GNUC_UNUSED GstCeBaseFilter * base,
    ce_cuda_dev * dev, gint slot, const GstVideoFrame * in,
    GstVideoFrame * out, gboolean out_on_device, gconstpointer params)
{
  const GstCudaEdgeParams *p = params;
  guint8 *data, *chroma;
  gsize size;
  ce_frame src;

  gst_cuda_edge_describe (in, p, &src);
  if (!out_on_device)
    return ce_cuda_dev_edge_submit (dev, slot, &src, &p->edge, NULL, 0,
        GST_VIDEO_FRAME_PLANE_DATA (out, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (out, 0));

  /* Chroma (and its padding) from the start of plane 1 to the end of the
   * memory: GstCuda's own plane layout, whatever it pads.  The edge
   * launch fills it too. */
  data = out->map[0].data;
  chroma = GST_VIDEO_FRAME_PLANE_DATA (out, 1);
  size = out->map[0].size;
  g_return_val_if_fail (chroma > data && chroma < data + size,
      CE_STATUS_INVALID_ARGUMENT);
  return ce_cuda_dev_edge_fill_submit (dev, slot, &src, &p->edge,
      GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0), chroma, data + size - chroma,
      128);
}
#endif

/* ---- class ---- */

static void
gst_cuda_edge_class_init (GstCudaEdgeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cuda_edge_debug, "cudaedge", 0,
      "CUDA edge detector");

  gobject_class->set_property = gst_cuda_edge_set_property;
  gobject_class->get_property = gst_cuda_edge_get_property;

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
          "What the output holds (GRAY8, or the Y plane of NV12 or I420 in "
          "CUDA memory)", GST_TYPE_CUDA_EDGE_OUTPUT,
          DEFAULT_OUTPUT,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "CUDA edge detector", "Filter/Effect/Video",
      "Binary edge map (or gradient magnitude) of the luma: Gaussian blur, "
      "Sobel and threshold on an NVIDIA GPU, or on the CPU",
      "The gst-cudaedge authors");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_transform_caps);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_transform_meta);

  GST_CE_BASE_FILTER_CLASS_SETUP (GST_CE_BASE_FILTER_CLASS (klass),
      gst_cuda_edge, "cudaedge",
      "Edge detection", sizeof (GstCudaEdgeParams));
  GST_CE_BASE_FILTER_CLASS (klass)->gap_neutral =
      GST_DEBUG_FUNCPTR (gst_cuda_edge_gap_neutral);

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
  self->format = CE_FORMAT_GRAY8;
}
